//! `coalesce fft`: transforms the last axis of a .npy file, batching over the others, as
//! numpy.fft.fft / ifft / rfft / irfft do (same `n` and `norm` semantics).

use std::path::Path;

use coalesce::fft::{Direction, FftKind, FftPlan, FftProblem, Normalization, Precision};
use coalesce::npy::NpyArray;
use coalesce::{Complex, Device, Element, Error, Result, ScalarKind};

/// What the command line asked for.
pub struct FftArgs<'a> {
    pub input: &'a Path,
    pub output: &'a Path,
    pub inverse: bool,
    pub real: bool,
    pub n: Option<usize>,
    pub norm: Normalization,
}

pub fn run(device: &Device, a: &FftArgs<'_>) -> Result<()> {
    let x = NpyArray::read(a.input)?;
    let Some((&last, lead)) = x.shape.split_last() else {
        return Err(Error::InvalidArgument(format!("{}: a 0-dimensional array has no axis to transform", a.input.display())));
    };
    let batch: usize = lead.iter().product();
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
    // Transform length, and how many values of each input row the transform reads.
    let (len, row_in) = match kind {
        FftKind::C2C => {
            want(&[ScalarKind::C32, ScalarKind::C64], "a complex FFT (without --real)")?;
            let n = a.n.unwrap_or(last);
            (n, n)
        }
        FftKind::R2C => {
            want(&[ScalarKind::F32, ScalarKind::F64], "--real (rfft)")?;
            let n = a.n.unwrap_or(last);
            (n, n)
        }
        FftKind::C2R => {
            want(&[ScalarKind::C32, ScalarKind::C64], "--real --inverse (irfft)")?;
            let n = match a.n {
                Some(n) => n,
                None if last >= 2 => 2 * (last - 1),
                None => {
                    return Err(Error::InvalidArgument(format!(
                        "{}: irfft of {last} coefficient(s) gives no samples; pass --n N",
                        a.input.display()
                    )));
                }
            };
            (n, n / 2 + 1)
        }
    };
    if batch == 0 || last == 0 {
        return Err(Error::InvalidArgument(format!("{}: the array is empty (shape {:?})", a.input.display(), x.shape)));
    }
    let precision = match x.dtype {
        ScalarKind::F64 | ScalarKind::C64 => Precision::F64,
        _ => Precision::F32,
    };
    let problem = FftProblem { kind, ..FftProblem::c2c(len, batch) }.precision(precision).norm(a.norm);
    let mut shape = lead.to_vec();
    shape.push(match kind {
        FftKind::R2C => len / 2 + 1,
        _ => len,
    });
    let direction = if a.inverse { Direction::Inverse } else { Direction::Forward };
    let t = Transform { device, problem, direction, last, row_in, shape };
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
    problem: FftProblem,
    direction: Direction,
    /// Values per row in the file, and per row of the transform's input (numpy's `n`).
    last: usize,
    row_in: usize,
    /// Shape of the output array.
    shape: Vec<usize>,
}

impl Transform<'_> {
    /// Rows cut or zero-padded to the transform's input length, transformed on the device.
    fn run<I: Element, O: Element>(&self, x: &NpyArray) -> Result<NpyArray> {
        let data: Vec<I> = x.to_vec()?;
        let mut rows = vec![I::default(); self.problem.batch * self.row_in];
        let keep = self.last.min(self.row_in);
        for (dst, src) in rows.chunks_mut(self.row_in).zip(data.chunks(self.last)) {
            dst[..keep].copy_from_slice(&src[..keep]);
        }
        let plan = FftPlan::new(self.device, self.problem)?;
        let input = self.device.upload(&rows)?;
        let mut output = self.device.alloc::<O>(self.problem.output_len())?;
        plan.execute(self.direction, &input, &mut output)?;
        NpyArray::new(self.shape.clone(), &output.to_vec()?)
    }
}
