//! What is asked: the transform's length, batch, kind, precision, placement and scaling.
//! Plain data, checked once by [`FftProblem::validate`] before any planning happens.

use crate::element::ScalarKind;
use crate::error::{Error, Result};

/// The longest transform one kernel launch handles (longer ones come with multi-pass plans).
pub const MAX_SINGLE_LAUNCH_LEN: usize = 4096;

/// The longest contiguous row a multi-pass plan transforms in one launch, where its length is
/// 13-smooth and the row fits the block's shared memory (16384 complex f32 values: 128 KiB).
/// cuFFT runs 8192 and 16384 points in one kernel; two passes over them ran at 0.46 of copy.
pub const MAX_ROW_LEN: usize = 16384;

/// The longest even real row (R2C's input, C2R's output) a multi-pass plan transforms in one
/// launch: its kernel transforms the complex row of half its length, so twice MAX_ROW_LEN.
pub const MAX_REAL_ROW_LEN: usize = 2 * MAX_ROW_LEN;

/// Which transform: complex to complex, or real signals and their N/2+1 half spectra.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FftKind {
    /// Complex input, complex output of the same length; forward or inverse.
    C2C,
    /// Real input of length N, the first N/2+1 complex coefficients out (numpy's `rfft`). Forward only.
    R2C,
    /// N/2+1 complex coefficients in, a real signal of length N out (numpy's `irfft`). Inverse only.
    C2R,
}

/// Floating-point precision of the data and of the arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precision {
    F32,
    F64,
}

/// Where the result goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Separate input and output buffers; the input is left untouched.
    OutOfPlace,
    /// The output overwrites the input. Real transforms then use FFTW's and cuFFT's padded
    /// layout: each real row takes 2(N/2+1) elements, so its spectrum fits in the same place.
    InPlace,
}

/// Scaling, named as numpy names it, plus cuFFT's convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Normalization {
    /// Forward unscaled, inverse scaled by 1/N: numpy's default.
    #[default]
    Backward,
    /// Forward scaled by 1/N, inverse unscaled.
    Forward,
    /// Both directions scaled by 1/sqrt(N): the transform is unitary.
    Ortho,
    /// Neither direction scaled (cuFFT and FFTW): a round trip multiplies by N.
    None,
}

/// The sign of the exponent: forward is e^{-2 pi i jk/N}, inverse e^{+2 pi i jk/N}.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Forward,
    Inverse,
}

/// A batch of one-dimensional transforms over contiguous rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FftProblem {
    /// Transform length N (the real length for R2C and C2R).
    pub len: usize,
    /// Number of transforms, stored one after another.
    pub batch: usize,
    pub kind: FftKind,
    pub precision: Precision,
    pub placement: Placement,
    pub norm: Normalization,
    /// Distance between consecutive rows of the (input, output), in elements of each (cuFFT's
    /// idist and odist); None: rows one after another. Out of place only.
    pub row_distances: Option<(usize, usize)>,
}

impl FftProblem {
    fn new(kind: FftKind, len: usize, batch: usize) -> Self {
        FftProblem {
            len,
            batch,
            kind,
            precision: Precision::F32,
            placement: Placement::OutOfPlace,
            norm: Normalization::Backward,
            row_distances: None,
        }
    }

    /// `batch` complex transforms of length `len`, f32, out of place, numpy's scaling.
    pub fn c2c(len: usize, batch: usize) -> Self {
        Self::new(FftKind::C2C, len, batch)
    }

    /// `batch` real-to-half-spectrum transforms of real length `len`.
    pub fn r2c(len: usize, batch: usize) -> Self {
        Self::new(FftKind::R2C, len, batch)
    }

    /// `batch` half-spectrum-to-real transforms producing real length `len`.
    pub fn c2r(len: usize, batch: usize) -> Self {
        Self::new(FftKind::C2R, len, batch)
    }

    pub fn precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    pub fn f64(self) -> Self {
        self.precision(Precision::F64)
    }

    pub fn placement(mut self, placement: Placement) -> Self {
        self.placement = placement;
        self
    }

    pub fn in_place(self) -> Self {
        self.placement(Placement::InPlace)
    }

    pub fn norm(mut self, norm: Normalization) -> Self {
        self.norm = norm;
        self
    }

    /// Rejects what no plan can do, with a message saying what is supported.
    pub fn validate(&self) -> Result<()> {
        self.validate_up_to(MAX_SINGLE_LAUNCH_LEN)
    }

    /// As `validate`, for the rows multi-pass plans run in one launch: up to [`MAX_ROW_LEN`]
    /// points, or [`MAX_REAL_ROW_LEN`] for even real rows.
    pub(crate) fn validate_row(&self) -> Result<()> {
        let even_real = self.kind != FftKind::C2C && self.len.is_multiple_of(2);
        self.validate_up_to(if even_real { MAX_REAL_ROW_LEN } else { MAX_ROW_LEN })
    }

    /// As `validate`, for rows of up to `max_len` points.
    pub(crate) fn validate_up_to(&self, max_len: usize) -> Result<()> {
        if self.len == 0 {
            return Err(Error::invalid("FFT length is 0: the length must be at least 1"));
        }
        if self.batch == 0 {
            return Err(Error::invalid("FFT batch is 0: plan at least one transform"));
        }
        if self.len > max_len {
            return Err(Error::Unsupported(format!(
                "FFT length {} is longer than {max_len}, the longest this version plans \
                 (one kernel launch per batch); split the transform or use lengths up to {max_len}",
                self.len
            )));
        }
        if let Some((i, o)) = self.row_distances {
            let (ri, ro) = self.packed_row_elements();
            // Even real rows are read and written as complex pairs: an odd distance would
            // misalign every other row.
            let real = match self.kind {
                FftKind::R2C => i,
                FftKind::C2R => o,
                FftKind::C2C => 0,
            };
            if i < ri || o < ro || self.placement == Placement::InPlace || (self.len.is_multiple_of(2) && real % 2 == 1) {
                return Err(Error::invalid(format!(
                    "FFT row distances ({i}, {o}) for rows of ({ri}, {ro}) elements: distances must be at least the rows' lengths, \
                     even on the real side of an even-length real transform, and out of place"
                )));
            }
        }
        // Rows of up to 16-byte elements must be addressable with 64-bit byte offsets.
        let (i, o) = self.row_elements();
        let row_bytes = i.max(o) * 16;
        if self.batch.checked_mul(row_bytes).is_none() {
            return Err(Error::SizeOverflow { count: self.batch as u128, elem_size: row_bytes });
        }
        Ok(())
    }

    /// Complex coefficients per row of a real transform's spectrum: N/2+1.
    pub fn half_spectrum_len(&self) -> usize {
        self.len / 2 + 1
    }

    /// Distance between consecutive real rows, in real elements: N, or 2(N/2+1) in place.
    pub fn real_row_stride(&self) -> usize {
        match self.placement {
            Placement::OutOfPlace => self.len,
            Placement::InPlace => 2 * self.half_spectrum_len(),
        }
    }

    /// Rows `input` and `output` elements apart instead of one after another.
    pub fn row_distances(mut self, input: usize, output: usize) -> Self {
        self.row_distances = Some((input, output));
        self
    }

    /// (input, output) elements from one row to the next, each in its own element type.
    pub(crate) fn row_elements(&self) -> (usize, usize) {
        self.row_distances.unwrap_or_else(|| self.packed_row_elements())
    }

    /// (input, output) elements per row when the rows follow each other.
    fn packed_row_elements(&self) -> (usize, usize) {
        match self.kind {
            FftKind::C2C => (self.len, self.len),
            FftKind::R2C => (self.real_row_stride(), self.half_spectrum_len()),
            FftKind::C2R => (self.half_spectrum_len(), self.real_row_stride()),
        }
    }

    /// Element type of the input buffer.
    pub fn input_kind(&self) -> ScalarKind {
        match self.kind {
            FftKind::R2C => self.real_kind(),
            _ => self.complex_kind(),
        }
    }

    /// Element type of the output buffer.
    pub fn output_kind(&self) -> ScalarKind {
        match self.kind {
            FftKind::C2R => self.real_kind(),
            _ => self.complex_kind(),
        }
    }

    pub fn real_kind(&self) -> ScalarKind {
        match self.precision {
            Precision::F32 => ScalarKind::F32,
            Precision::F64 => ScalarKind::F64,
        }
    }

    pub fn complex_kind(&self) -> ScalarKind {
        match self.precision {
            Precision::F32 => ScalarKind::C32,
            Precision::F64 => ScalarKind::C64,
        }
    }

    /// Elements the input buffer holds: batch rows.
    pub fn input_len(&self) -> usize {
        self.batch * self.row_elements().0
    }

    /// Elements the output buffer holds: batch rows.
    pub fn output_len(&self) -> usize {
        self.batch * self.row_elements().1
    }

    /// Bytes of data one execution reads and writes, each input and output element counted
    /// once (the real array and the half spectrum for R2C and C2R): what benchmarks divide by.
    pub fn bytes_moved(&self) -> u64 {
        let (i, o) = match self.kind {
            FftKind::C2C => (self.len, self.len),
            FftKind::R2C => (self.len, self.half_spectrum_len()),
            FftKind::C2R => (self.half_spectrum_len(), self.len),
        };
        (self.batch as u64) * (i as u64 * self.input_kind().size() as u64 + o as u64 * self.output_kind().size() as u64)
    }

    /// The one direction a real transform has, or None for C2C (both).
    pub fn fixed_direction(&self) -> Option<Direction> {
        self.kind.fixed_direction()
    }

    /// The factor applied to the output in `direction`.
    pub fn scale(&self, direction: Direction) -> f64 {
        let n = self.len as f64;
        match (self.norm, direction) {
            (Normalization::None, _) | (Normalization::Backward, Direction::Forward) | (Normalization::Forward, Direction::Inverse) => 1.0,
            (Normalization::Backward, Direction::Inverse) | (Normalization::Forward, Direction::Forward) => 1.0 / n,
            (Normalization::Ortho, _) => 1.0 / n.sqrt(),
        }
    }
}

impl FftKind {
    /// The one direction a real transform has, or None for C2C (both).
    pub fn fixed_direction(self) -> Option<Direction> {
        match self {
            FftKind::C2C => None,
            FftKind::R2C => Some(Direction::Forward),
            FftKind::C2R => Some(Direction::Inverse),
        }
    }

    /// Refuses to run a real transform the other way, naming the plan that does.
    pub(crate) fn check_direction(self, direction: Direction) -> Result<()> {
        match self.fixed_direction() {
            Some(d) if d != direction => Err(Error::invalid(format!(
                "{self} transforms only run {}: {}",
                if d == Direction::Forward { "forward" } else { "inverse" },
                if d == Direction::Forward { "for the inverse plan a C2R transform" } else { "for the forward plan an R2C transform" }
            ))),
            _ => Ok(()),
        }
    }
}

impl std::fmt::Display for FftKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FftKind::C2C => "c2c",
            FftKind::R2C => "r2c",
            FftKind::C2R => "c2r",
        })
    }
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Precision::F32 => "f32",
            Precision::F64 => "f64",
        })
    }
}

impl std::str::FromStr for Normalization {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "backward" => Ok(Normalization::Backward),
            "forward" => Ok(Normalization::Forward),
            "ortho" => Ok(Normalization::Ortho),
            "none" => Ok(Normalization::None),
            _ => Err(Error::invalid(format!("unknown normalization '{s}': use backward, forward, ortho or none"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_distances_are_at_least_the_rows_and_even_on_even_real_sides() {
        assert_eq!(FftProblem::c2c(12, 5).row_distances(13, 17).row_elements(), (13, 17));
        assert_eq!(FftProblem::r2c(12, 5).row_elements(), (12, 7));
        assert!(FftProblem::c2c(12, 5).row_distances(13, 17).validate().is_ok());
        assert!(FftProblem::c2c(12, 5).row_distances(11, 12).validate().is_err());
        assert!(FftProblem::r2c(12, 5).row_distances(13, 7).validate().is_err(), "odd real distance, even length");
        assert!(FftProblem::r2c(11, 5).row_distances(13, 7).validate().is_ok());
        assert!(FftProblem::c2r(12, 5).row_distances(7, 14).validate().is_ok());
        assert!(FftProblem::c2c(12, 5).row_distances(12, 12).in_place().validate().is_err());
        // Longer rows only through validate_row (multi-pass plans): twice as long where real
        // and even, since their kernels transform the complex row of half their length.
        assert!(FftProblem::c2c(8192, 1).validate().is_err());
        assert!(FftProblem::c2c(8192, 1).validate_row().is_ok());
        assert!(FftProblem::c2c(2 * MAX_ROW_LEN, 1).validate_row().is_err());
        assert!(FftProblem::r2c(MAX_REAL_ROW_LEN, 1).validate_row().is_ok());
        assert!(FftProblem::c2r(MAX_REAL_ROW_LEN, 1).validate_row().is_ok());
        assert!(FftProblem::r2c(MAX_REAL_ROW_LEN + 2, 1).validate_row().is_err());
        assert!(FftProblem::r2c(MAX_ROW_LEN + 1, 1).validate_row().is_err(), "odd real rows are as long as their complex kernels");
    }
}
