//! Real transforms of even length N = 2m run a complex core of length m on the row packed as
//! z[j] = x[2j] + i x[2j+1]. R2C separates the core's output Z into the half spectrum, C2R
//! rebuilds Z from it; value i of either side needs values i and m-i of the other. Here: the
//! planner's rule for whether one thread takes both of a pair ([`FftTuning::half_spectrum_pairs`];
//! the kernel code is in codegen/io.rs).
//!
//! [`FftTuning::half_spectrum_pairs`]: super::FftTuning::half_spectrum_pairs

use super::problem::FftKind;
use super::recipe::{Core, FftRecipe, RealPacking};

impl FftRecipe {
    /// Whether the kernel should separate or rebuild the half spectrum a pair at a time.
    /// Measured on an H200 (thirteenth session, docs/BENCHMARKS.md; the real suite's 379 even
    /// N, pairs against each value on its own):
    /// - C2R pairs in a staged load: 1.26x (75 staged Stockham rows, 258: 2.4x), Rader 1.16x.
    ///   Where the core would read global memory itself (direct_io), staging the load to pair
    ///   it ran 0.88x: those rows read each value's two inputs in their first pass.
    /// - R2C pairs in its store phase: 1.04x on direct rows and 1.05x on staged ones of odd
    ///   m; staged rows of even m ran 0.86x (one thread per row: 4, 8, .., 32) and 1.00x.
    pub(super) fn pairs_half_spectrum(&self) -> bool {
        if !self.can_pair_half_spectrum() {
            return false;
        }
        let staged_load = !self.tuning.direct_io || matches!(self.core, Core::Rader { .. });
        match self.problem.kind {
            FftKind::R2C => self.tuning.direct_io || (self.problem.len / 2) % 2 == 1,
            FftKind::C2R => staged_load,
            FftKind::C2C => false,
        }
    }

    /// Whether `half_spectrum_pairs` changes the kernel: real transforms of even length, but
    /// not C2R into a Bluestein core, which reads element by element regardless (its chirp
    /// and zero padding ride on `read_input`), nor real grids, whose lines always separate
    /// or rebuild a pair at a time in shared memory.
    pub(crate) fn can_pair_half_spectrum(&self) -> bool {
        self.packing == RealPacking::HalfLength && !(self.problem.kind == FftKind::C2R && self.uses_bluestein()) && self.core.real_grid().is_none()
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{codegen::fft_source, DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    fn design(p: FftProblem) -> FftRecipe {
        FftRecipe::design(p, H200).unwrap()
    }

    #[test]
    fn pairs_where_they_were_measured_to_win() {
        // R2C: direct rows, and staged rows of odd m; not staged rows of even m.
        assert!(design(FftProblem::r2c(4096, 8)).tuning.direct_io);
        assert!(design(FftProblem::r2c(4096, 8)).tuning.half_spectrum_pairs);
        assert!(!design(FftProblem::r2c(220, 8)).tuning.direct_io);
        assert!(!design(FftProblem::r2c(220, 8)).tuning.half_spectrum_pairs);
        assert!(design(FftProblem::r2c(30, 8)).tuning.half_spectrum_pairs);
        // C2R: staged loads (and Rader's, always staged); direct rows read in their first pass.
        assert!(design(FftProblem::c2r(220, 8)).tuning.half_spectrum_pairs);
        assert!(!design(FftProblem::c2r(4096, 8)).tuning.half_spectrum_pairs);
        let rader = design(FftProblem::c2r(2 * 193, 8));
        assert!(rader.uses_rader() && rader.tuning.half_spectrum_pairs);
        // Neither C2C nor odd real lengths have a half spectrum to pair.
        for p in [FftProblem::c2c(220, 8), FftProblem::r2c(221, 8), FftProblem::c2r(221, 8)] {
            assert!(!design(p).tuning.half_spectrum_pairs, "{p:?}");
        }
    }

    #[test]
    fn paired_kernels_read_each_value_once() {
        // C2R 220 (m = 110): 56 pairs a row, each reading X[i] and X[110 - i], writing Z[i] and,
        // but for pairs 0 and 55, Z[110 - i]; no element-by-element read_input.
        let c2r = design(FftProblem::c2r(220, 8));
        let body = fft_source(&c2r).body;
        assert!(!body.contains("read_input("), "{body}");
        assert!(body.contains("if (e < rows * 56u)"));
        assert!(body.contains("cplx b = X[110u - i];"));
        assert!(body.contains("if (i != 0 && 2 * i != 110u) SH(row, 110u - i) ="));
        // Each value on its own: 111 values a row, X[m - i] read beside X[i] for each.
        let mut single = c2r.clone();
        single.tuning.half_spectrum_pairs = false;
        let body = fft_source(&single).body;
        assert!(body.contains("SH(row, i) = read_input(in_rows, tables, row, i, 0u, sign);"));
        assert!(body.contains("cplx b = (X + (110u - j))[-(int)c];"));
        // R2C 30 (m = 15): 8 pairs a row, X[i] and X[15 - i] from Z[i] and Z[15 - i].
        let body = fft_source(&design(FftProblem::r2c(30, 8))).body;
        assert!(body.contains("if (e < rows * 8u)"), "{body}");
        assert!(body.contains("if (2 * i != 15u) X[15u - i] = cscale(cconj(csub(even, odd)), scale);"));
    }
}
