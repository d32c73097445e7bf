//! `coalesce fft`: transforms the last axis of a .npy file (or the `--axes` named), batching
//! over the others, as numpy.fft.fft / ifft / rfft / irfft (fftn, ifftn, rfftn, irfftn with
//! axes) do: the same `n` (of the last axis named) and `norm` semantics.

use std::path::Path;

use coalesce::fft::{Direction, FftKind, FftNdPlan, FftNdProblem, Normalization, Precision};
use coalesce::npy::NpyArray;
use coalesce::{Complex, Device, Element, Error, Result, ScalarKind};

use super::args::numpy_axes;

/// What the command line asked for.
pub struct FftArgs<'a> {
    pub input: &'a Path,
    pub output: &'a Path,
    pub inverse: bool,
    pub real: bool,
    pub n: Option<usize>,
    pub norm: Normalization,
    /// The axes to transform (numpy's `axes`, negative from the last); None: the last.
    pub axes: Option<Vec<i64>>,
}

pub fn run(device: &Device, a: &FftArgs<'_>) -> Result<()> {
    let x = NpyArray::read(a.input)?;
    if x.shape.is_empty() {
        return Err(Error::InvalidArgument(format!("{}: a 0-dimensional array has no axis to transform", a.input.display())));
    }
    let axes = match &a.axes {
        Some(named) => numpy_axes(named, &x.shape)?,
        None => vec![x.shape.len() - 1],
    };
    let kind = match (a.real, a.inverse) {
        (false, _) => FftKind::C2C,
        (true, false) => FftKind::R2C,
        (true, true) => FftKind::C2R,
    };
    let want = |ok: &[ScalarKind], what: &str| -> Result<()> {
        if ok.contains(&x.dtype) {
            Ok(())
        } else {
            Err(Error::InvalidArgument(format!(
                "{} holds {}; {what} takes {}",
                a.input.display(),
                x.dtype,
                ok.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(" or ")
            )))
        }
    };
    match kind {
        FftKind::C2C => want(&[ScalarKind::C32, ScalarKind::C64], "a complex FFT (without --real)")?,
        FftKind::R2C => want(&[ScalarKind::F32, ScalarKind::F64], "--real (rfft)")?,
        FftKind::C2R => want(&[ScalarKind::C32, ScalarKind::C64], "--real --inverse (irfft)")?,
    }
    if x.shape.contains(&0) {
        return Err(Error::InvalidArgument(format!("{}: the array is empty (shape {:?})", a.input.display(), x.shape)));
    }
    // The last axis named takes numpy's `n` (and is the one real transforms halve).
    let Some(&last_axis) = axes.last().filter(|&&h| h < x.shape.len()) else {
        let problem = FftNdProblem::c2c(&x.shape, &axes);
        return Err(problem.validate().err().unwrap_or_else(|| Error::InvalidArgument("--axes names no axis: give e.g. --axes 0,1".into())));
    };
    let m = x.shape[last_axis];
    let n = match (kind, a.n) {
        (_, Some(n)) => n,
        (FftKind::C2R, None) if m >= 2 => 2 * (m - 1),
        (FftKind::C2R, None) => {
            return Err(Error::InvalidArgument(format!("{}: irfft of {m} coefficient(s) gives no samples; pass --n N", a.input.display())));
        }
        (_, None) => m,
    };
    if n == 0 {
        return Err(Error::InvalidArgument("--n 0: the transform length must be at least 1".into()));
    }
    let precision = match x.dtype {
        ScalarKind::F64 | ScalarKind::C64 => Precision::F64,
        _ => Precision::F32,
    };
    let mut shape = x.shape.clone();
    shape[last_axis] = n;
    let problem = FftNdProblem { kind, ..FftNdProblem::c2c(&shape, &axes) }.precision(precision).norm(a.norm);
    let direction = if a.inverse { Direction::Inverse } else { Direction::Forward };
    let t = Transform { device, problem, direction, axis: last_axis };
    let out = match (kind, precision) {
        (FftKind::R2C, Precision::F32) => t.run::<f32, Complex<f32>>(&x)?,
        (FftKind::R2C, Precision::F64) => t.run::<f64, Complex<f64>>(&x)?,
        (FftKind::C2R, Precision::F32) => t.run::<Complex<f32>, f32>(&x)?,
        (FftKind::C2R, Precision::F64) => t.run::<Complex<f64>, f64>(&x)?,
        (FftKind::C2C, Precision::F32) => t.run::<Complex<f32>, Complex<f32>>(&x)?,
        (FftKind::C2C, Precision::F64) => t.run::<Complex<f64>, Complex<f64>>(&x)?,
    };
    out.write(a.output)
}

struct Transform<'a> {
    device: &'a Device,
    problem: FftNdProblem,
    direction: Direction,
    /// The axis the file's values are cut or zero-padded along (numpy's `n`).
    axis: usize,
}

impl Transform<'_> {
    /// The file's array cut or zero-padded to the transform's input shape, transformed on the
    /// device.
    fn run<I: Element, O: Element>(&self, x: &NpyArray) -> Result<NpyArray> {
        let (in_shape, out_shape) = self.problem.buffer_shapes();
        let plan = FftNdPlan::new(self.device, self.problem.clone())?;
        // Device buffers before the host copy: a --n past the device's memory is refused by
        // the allocation with a clear error, not by the host allocator's abort.
        let mut input = self.device.alloc::<I>(in_shape.iter().product())?;
        let mut output = self.device.alloc::<O>(out_shape.iter().product())?;
        let data: Vec<I> = x.to_vec()?;
        self.device.write(&mut input, &resize_axis(&data, &x.shape, self.axis, in_shape[self.axis])?)?;
        plan.execute(self.direction, &input, &mut output)?;
        NpyArray::new(out_shape, &output.to_vec()?)
    }
}

/// `data` (row-major, `shape`) with axis `axis` cut to `len` values or zero-padded to them; an
/// error where this machine cannot hold the padded copy.
fn resize_axis<T: Copy + Default>(data: &[T], shape: &[usize], axis: usize, len: usize) -> Result<Vec<T>> {
    let (m, inner) = (shape[axis], shape[axis + 1..].iter().product::<usize>());
    let keep = m.min(len) * inner;
    let too_large = || {
        Error::InvalidArgument(format!(
            "the input padded to {len} along axis {axis} needs {} x {len} elements of {} bytes, more than this machine's memory holds: pass a smaller --n",
            data.len() / m,
            std::mem::size_of::<T>()
        ))
    };
    let mut out = Vec::new();
    out.try_reserve_exact((data.len() / m).checked_mul(len).ok_or_else(too_large)?).map_err(|_| too_large())?;
    for block in data.chunks(m * inner) {
        out.extend_from_slice(&block[..keep]);
        out.resize(out.len() + (len * inner - keep), T::default());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::resize_axis;

    #[test]
    fn resizing_cuts_or_pads_one_axis() {
        let x: Vec<u32> = (1..=12).collect(); // shape [2, 3, 2]
        assert_eq!(resize_axis(&x, &[2, 3, 2], 1, 2).unwrap(), vec![1, 2, 3, 4, 7, 8, 9, 10]);
        assert_eq!(resize_axis(&x, &[2, 3, 2], 1, 4).unwrap(), vec![1, 2, 3, 4, 5, 6, 0, 0, 7, 8, 9, 10, 11, 12, 0, 0]);
        assert_eq!(resize_axis(&x, &[2, 3, 2], 2, 1).unwrap(), vec![1, 3, 5, 7, 9, 11]);
        assert_eq!(resize_axis(&x, &[2, 3, 2], 0, 2).unwrap(), x);
        let err = resize_axis(&x, &[2, 3, 2], 1, usize::MAX / 8).unwrap_err().to_string();
        assert!(err.contains("--n"), "{err}");
    }
}
