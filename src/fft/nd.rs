//! Multi-dimensional and long transforms, what is asked: complex to complex, real to half
//! spectrum and back, over any axes of a row-major array (numpy.fft.fftn, rfftn and irfftn
//! with `axes`), every axis of any length (up to 2^31 - 1 where a prime factor is over
//! 4096). Planned in nd_recipe.rs as a sequence of single-launch passes.

use super::problem::{Direction, FftKind, FftProblem, Normalization, Placement, Precision, MAX_SINGLE_LAUNCH_LEN};
use super::recipe::complex_bytes;
use crate::element::ScalarKind;
use crate::error::{Error, Result};
use crate::fft::factor::largest_prime_factor;

/// A transform over `axes` of an array of `shape`, batched over the others.
///
/// `shape` is the array in the time domain, as numpy's `s`: the complex array for C2C, the
/// real one for R2C (its input) and C2R (its output). Real transforms halve the last axis
/// named in `axes`: the spectrum holds n/2+1 coefficients along it.
///
/// The arrays are row-major unless strides are given (cufftPlanMany's and FFTW's guru
/// layouts): element (i_0, i_1, ...) of a side lies at `sum of i_a * strides[a]`, in elements
/// of that side's type, for each axis of that side's shape (the spectrum's for the half
/// spectrum). Batches are the axes not transformed, on any axis; a batch distance is the
/// stride of its axis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FftNdProblem {
    pub shape: Vec<usize>,
    pub axes: Vec<usize>,
    pub kind: FftKind,
    pub precision: Precision,
    pub placement: Placement,
    pub norm: Normalization,
    /// Strides of the input and output arrays; None: row-major.
    pub input_strides: Option<Vec<usize>>,
    pub output_strides: Option<Vec<usize>>,
}

impl FftNdProblem {
    fn new(kind: FftKind, shape: &[usize], axes: &[usize]) -> Self {
        FftNdProblem {
            shape: shape.to_vec(),
            axes: axes.to_vec(),
            kind,
            precision: Precision::F32,
            placement: Placement::OutOfPlace,
            norm: Normalization::Backward,
            input_strides: None,
            output_strides: None,
        }
    }

    /// C2C over `axes` of an array of `shape`, f32, out of place, numpy's scaling.
    pub fn c2c(shape: &[usize], axes: &[usize]) -> Self {
        Self::new(FftKind::C2C, shape, axes)
    }

    /// Real array of `shape` to its half spectrum over `axes` (numpy.fft.rfftn).
    pub fn r2c(shape: &[usize], axes: &[usize]) -> Self {
        Self::new(FftKind::R2C, shape, axes)
    }

    /// Half spectrum over `axes` back to a real array of `shape` (numpy.fft.irfftn with s).
    pub fn c2r(shape: &[usize], axes: &[usize]) -> Self {
        Self::new(FftKind::C2R, shape, axes)
    }

    /// `batch` one-dimensional C2C transforms of any length `len` (beyond one launch too).
    pub fn c2c_1d(len: usize, batch: usize) -> Self {
        Self::c2c(&[batch, len], &[1])
    }

    /// `batch` one-dimensional R2C transforms of any real length `len`.
    pub fn r2c_1d(len: usize, batch: usize) -> Self {
        Self::r2c(&[batch, len], &[1])
    }

    /// `batch` one-dimensional C2R transforms to real length `len`.
    pub fn c2r_1d(len: usize, batch: usize) -> Self {
        Self::c2r(&[batch, len], &[1])
    }

    pub fn precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    pub fn f64(self) -> Self {
        self.precision(Precision::F64)
    }

    pub fn in_place(mut self) -> Self {
        self.placement = Placement::InPlace;
        self
    }

    pub fn norm(mut self, norm: Normalization) -> Self {
        self.norm = norm;
        self
    }

    /// The input's element distance along each axis of its shape (see the type's text).
    pub fn input_strides(mut self, strides: &[usize]) -> Self {
        self.input_strides = Some(strides.to_vec());
        self
    }

    /// The output's element distance along each axis of its shape.
    pub fn output_strides(mut self, strides: &[usize]) -> Self {
        self.output_strides = Some(strides.to_vec());
        self
    }

    /// Elements of the array of `shape` (complex for C2C, real otherwise).
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The axis a real transform halves: the last one named. None for C2C.
    pub fn halved_axis(&self) -> Option<usize> {
        match self.kind {
            FftKind::C2C => None,
            _ => self.axes.last().copied(),
        }
    }

    /// The shape of the half spectrum (of the array itself for C2C).
    pub fn spectrum_shape(&self) -> Vec<usize> {
        let mut shape = self.shape.clone();
        if let Some(h) = self.halved_axis() {
            shape[h] = shape[h] / 2 + 1;
        }
        shape
    }

    /// (input, output) shapes of the buffers.
    pub fn buffer_shapes(&self) -> (Vec<usize>, Vec<usize>) {
        match self.kind {
            FftKind::C2C | FftKind::R2C => (self.shape.clone(), self.spectrum_shape()),
            FftKind::C2R => (self.spectrum_shape(), self.shape.clone()),
        }
    }

    /// Strides of the (input, output) arrays per axis, in elements: given, or row-major (in
    /// place, real rows padded to 2(n/2+1) values, the half spectrum's size, as FFTW and cuFFT
    /// lay them out).
    pub fn buffer_strides(&self) -> (Vec<usize>, Vec<usize>) {
        let (i, o) = self.buffer_shapes();
        let (mut input, mut output) = (row_major_strides(&i), row_major_strides(&o));
        if self.in_place_real() {
            // Reals laid out as the half spectrum's bytes: twice its strides, values adjacent.
            let mut padded: Vec<usize> = row_major_strides(&self.spectrum_shape()).iter().map(|s| 2 * s).collect();
            *padded.last_mut().expect("a shape has an axis") = 1;
            *(if self.kind == FftKind::R2C { &mut input } else { &mut output }) = padded;
        }
        (self.input_strides.clone().unwrap_or(input), self.output_strides.clone().unwrap_or(output))
    }

    /// Whether this is a real transform in place: reals and half spectrum share one buffer.
    fn in_place_real(&self) -> bool {
        self.kind != FftKind::C2C && self.placement == Placement::InPlace
    }

    /// Elements, of the input's type, an in-place buffer holds: the array (C2C), or the half
    /// spectrum's bytes (real transforms: reals padded to 2(n/2+1) per row, or the spectrum).
    pub fn in_place_len(&self) -> usize {
        let spectrum: usize = self.spectrum_shape().iter().product();
        match self.kind {
            FftKind::C2C => self.buffer_lens().0,
            FftKind::R2C => 2 * spectrum,
            FftKind::C2R => spectrum,
        }
    }

    /// Whether both arrays are row-major (no strides given, or the row-major ones).
    pub fn is_row_major(&self) -> bool {
        let (i, o) = self.buffer_shapes();
        self.buffer_strides() == (row_major_strides(&i), row_major_strides(&o))
    }

    /// Elements the (input, output) buffers must hold, each in its own type: the arrays'
    /// sizes, or with strides, one past the farthest element.
    pub fn buffer_lens(&self) -> (usize, usize) {
        let ((i, o), (si, so)) = (self.buffer_shapes(), self.buffer_strides());
        (span(&i, &si).unwrap_or(usize::MAX), span(&o, &so).unwrap_or(usize::MAX))
    }

    /// Element types of the (input, output) buffers.
    pub fn buffer_kinds(&self) -> (ScalarKind, ScalarKind) {
        let one = FftProblem { kind: self.kind, ..FftProblem::c2c(1, 1) }.precision(self.precision);
        (one.input_kind(), one.output_kind())
    }

    /// Points of one transform: the product of the transformed axes' lengths.
    pub fn transform_len(&self) -> usize {
        self.axes.iter().map(|&a| self.shape[a]).product()
    }

    /// Bytes one execution reads and writes, each input and output element once.
    pub fn bytes_moved(&self) -> u64 {
        let ((i, o), (ik, ok)) = (self.buffer_shapes(), self.buffer_kinds());
        let count = |shape: &[usize]| shape.iter().product::<usize>() as u64;
        count(&i) * ik.size() as u64 + count(&o) * ok.size() as u64
    }

    /// The one direction a real transform runs, or None for C2C (both).
    pub fn fixed_direction(&self) -> Option<Direction> {
        self.kind.fixed_direction()
    }

    /// The factor applied to the output in `direction`, as for one transform of
    /// `transform_len` points.
    pub fn scale(&self, direction: Direction) -> f64 {
        FftProblem::c2c(self.transform_len(), 1).norm(self.norm).scale(direction)
    }

    /// Rejects what no plan can do, with a message naming what to change.
    pub fn validate(&self) -> Result<()> {
        let rank = self.shape.len();
        if rank == 0 {
            return Err(Error::invalid("the FFT's shape has no axes: give at least one length"));
        }
        if let Some(a) = self.shape.iter().position(|&n| n == 0) {
            return Err(Error::invalid(format!("axis {a} of the FFT's shape {:?} has length 0: every length must be at least 1", self.shape)));
        }
        if self.axes.is_empty() {
            return Err(Error::invalid("no axes to transform: name at least one axis"));
        }
        for (i, &a) in self.axes.iter().enumerate() {
            if a >= rank {
                return Err(Error::invalid(format!("axis {a} is out of range for a {rank}-d shape {:?}: axes go from 0 to {}", self.shape, rank - 1)));
            }
            if self.axes[..i].contains(&a) {
                return Err(Error::invalid(format!("axis {a} is named twice in {:?}: name each axis once", self.axes)));
            }
        }
        // Every buffer (and the plan's complex scratch of `shape`) must be addressable.
        let bytes = complex_bytes(self.precision) as usize;
        let count = self.shape.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n));
        if count.and_then(|c| c.checked_mul(bytes)).is_none_or(|b| b > isize::MAX as usize) {
            return Err(Error::SizeOverflow { count: element_count(&self.shape), elem_size: bytes });
        }
        if self.in_place_real() {
            if self.halved_axis() != Some(rank - 1) {
                return Err(Error::Unsupported(format!(
                    "in-place {} halves the array's last axis (FFTW's and cuFFT's padded layout), but axes {:?} halve axis {}: \
                     name axis {} last, or plan it out of place",
                    self.kind,
                    self.axes,
                    self.halved_axis().unwrap_or(0),
                    rank - 1
                )));
            }
            if self.input_strides.is_some() || self.output_strides.is_some() {
                return Err(Error::Unsupported(format!(
                    "in-place {} takes the padded row-major layout only: drop the strides, or plan it out of place",
                    self.kind
                )));
            }
        }
        self.validate_strides()?;
        for &a in &self.axes {
            let n = self.shape[a];
            if largest_prime_factor(n) <= MAX_SINGLE_LAUNCH_LEN {
                continue;
            }
            // Bluestein over passes: the axis padded to under 4n points in scratch, and its
            // chirp's index squared in 64 bits.
            if n >= 1 << 31 {
                return Err(Error::Unsupported(format!(
                    "axis {a} has length {n}, whose prime factor {} is over {MAX_SINGLE_LAUNCH_LEN}: such lengths are transformed by \
                     Bluestein's algorithm, up to 2^31 - 1 points",
                    largest_prime_factor(n)
                )));
            }
            if count.and_then(|c| (c / n).checked_mul(4 * n)).and_then(|c| c.checked_mul(bytes)).is_none_or(|b| b > isize::MAX as usize) {
                return Err(Error::SizeOverflow { count: element_count(&self.shape).saturating_mul(4), elem_size: bytes });
            }
        }
        Ok(())
    }

    /// Strides: one per axis, none zero, the output's elements all distinct, in place the
    /// same on both sides, and every element addressable.
    fn validate_strides(&self) -> Result<()> {
        let ((in_shape, out_shape), (input, output)) = (self.buffer_shapes(), self.buffer_strides());
        for (side, shape, strides) in [("input", &in_shape, &input), ("output", &out_shape, &output)] {
            if strides.len() != shape.len() {
                return Err(Error::invalid(format!("{} {side} strides {strides:?} for a {}-d array {shape:?}: give one stride per axis", strides.len(), shape.len())));
            }
            if let Some(a) = strides.iter().position(|&s| s == 0) {
                return Err(Error::invalid(format!("the {side} stride of axis {a} is 0: every stride must be at least 1 element")));
            }
            // The buffer the strides reach over must be addressable (counted as complex values).
            let bytes = complex_bytes(self.precision) as usize;
            let reach = shape.iter().zip(strides.iter()).fold(1u128, |acc, (&n, &s)| acc.saturating_add((n as u128 - 1) * s as u128));
            if reach.saturating_mul(bytes as u128) > isize::MAX as u128 {
                return Err(Error::SizeOverflow { count: reach, elem_size: bytes });
            }
        }
        if let Some((a, b)) = overlap(&out_shape, &output) {
            return Err(Error::invalid(format!(
                "output strides {output:?} put elements of axes {a} and {b} in the same places: the output must not overlap itself \
                 (each axis's stride at least the extent of the axes inside it)"
            )));
        }
        if self.placement == Placement::InPlace && self.kind == FftKind::C2C && input != output {
            return Err(Error::invalid(format!(
                "in place, input strides {input:?} and output strides {output:?} differ: a pass would overwrite values not yet read; \
                 give both sides the same strides, or plan it out of place"
            )));
        }
        Ok(())
    }
}

/// The number of elements of `shape`, exact where it overflows usize (for the error that says so).
fn element_count(shape: &[usize]) -> u128 {
    shape.iter().fold(1u128, |acc, &n| acc.saturating_mul(n as u128))
}

/// Row-major distances between neighbours along each axis of `shape`.
pub(crate) fn row_major_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for a in (0..shape.len().saturating_sub(1)).rev() {
        strides[a] = strides[a + 1] * shape[a + 1];
    }
    strides
}

/// One past the farthest element of an array of `shape` with `strides`; None on overflow.
fn span(shape: &[usize], strides: &[usize]) -> Option<usize> {
    shape.iter().zip(strides).try_fold(1usize, |acc, (&n, &s)| acc.checked_add(n.checked_sub(1)?.checked_mul(s)?))
}

/// Two axes whose elements could land on the same place: with the axes of more than one
/// element sorted by stride, each stride must be at least the extent of the ones before it.
fn overlap(shape: &[usize], strides: &[usize]) -> Option<(usize, usize)> {
    let mut axes: Vec<usize> = (0..shape.len()).filter(|&a| shape[a] > 1).collect();
    axes.sort_by_key(|&a| (strides[a], a));
    axes.windows(2).find(|w| strides[w[1]] < strides[w[0]].saturating_mul(shape[w[0]])).map(|w| (w[0].min(w[1]), w[0].max(w[1])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_transforms_halve_the_last_axis_named() {
        let p = FftNdProblem::r2c(&[6, 8, 10], &[2, 0]);
        assert_eq!(p.halved_axis(), Some(0));
        assert_eq!(p.buffer_shapes(), (vec![6, 8, 10], vec![4, 8, 10]));
        assert_eq!(p.buffer_kinds(), (ScalarKind::F32, ScalarKind::C32));
        assert_eq!(p.bytes_moved(), 480 * 4 + 320 * 8);
        let c = FftNdProblem::c2r(&[5, 9], &[0, 1]).f64();
        assert_eq!(c.buffer_lens(), (5 * 5, 45));
        assert_eq!(c.buffer_kinds(), (ScalarKind::C64, ScalarKind::F64));
        assert_eq!(c.fixed_direction(), Some(Direction::Inverse));
        assert_eq!(FftNdProblem::c2c(&[3, 4], &[1]).halved_axis(), None);
    }

    #[test]
    fn bad_shapes_and_axes_are_named() {
        let err = |p: FftNdProblem| p.validate().unwrap_err().to_string();
        assert!(err(FftNdProblem::c2c(&[4, 0], &[0])).contains("axis 1"));
        assert!(err(FftNdProblem::c2c(&[4, 4], &[2])).contains("out of range"));
        assert!(err(FftNdProblem::c2c(&[4, 4], &[1, 1])).contains("twice"));
        assert!(err(FftNdProblem::c2c(&[4, 4], &[])).contains("no axes"));
        assert!(err(FftNdProblem::c2c(&[], &[0])).contains("no axes"));
        assert!(FftNdProblem::c2c_1d(1_000_003, 1).validate().is_ok());
        assert!(err(FftNdProblem::c2c_1d((1 << 31) + 11, 1)).contains("prime factor 2147483659"));
        assert!(err(FftNdProblem::r2c(&[4, 4], &[0]).in_place()).contains("name axis 1 last"));
        assert!(err(FftNdProblem::c2r(&[4, 4], &[1]).in_place().output_strides(&[4, 1])).contains("padded row-major layout"));
        let padded = FftNdProblem::r2c(&[3, 4, 6], &[0, 2]).in_place();
        assert_eq!(padded.buffer_strides(), (vec![32, 8, 1], vec![16, 4, 1]));
        assert_eq!(padded.in_place_len(), 2 * 3 * 4 * 4);
        let two = FftNdProblem::c2r(&[3, 2], &[1]).in_place();
        assert_eq!(two.buffer_strides(), (vec![2, 1], vec![4, 1]), "n = 2: two coefficients per row, reals padded to 4");
        assert!(matches!(FftNdProblem::c2c(&[1 << 40, 1 << 40], &[0]).validate(), Err(Error::SizeOverflow { .. })));
        assert!(matches!(FftNdProblem::c2c(&[4, 4], &[0]).input_strides(&[1 << 62, 1]).validate(), Err(Error::SizeOverflow { .. })));
    }
}
