//! Short rows, of fewer than DIRECT_IO_MIN_THREADS threads, which the planner stages through
//! shared memory both ways: a coalesced copy in, passes in shared memory, a coalesced copy
//! out. Their last pass writes runs of a few values a row, which is why the copy out pays;
//! their first pass may read global memory all the same (`FftTuning::direct_io` with
//! `staged_store`), sparing the copy in and its barrier.

use super::problem::{FftKind, Precision};
use super::recipe::{Core, FftRecipe, RealPacking};

/// Threads a row from which staged rows read global memory in their first pass: rows of one
/// and two threads (one pass of up to 16 points, or two short ones) ran 0.96x so.
const DIRECT_LOAD_MIN_THREADS: u32 = 3;

impl FftRecipe {
    /// Staged f32 Stockham rows of DIRECT_LOAD_MIN_THREADS threads or more: the first pass
    /// reads global memory, the store stays staged. Measured on an H200 (twenty-first session,
    /// docs/BENCHMARKS.md, `--suite variants` beside the pick):
    /// - C2C, every such row of N = 2..600: 1.119x over 186 lengths (65 1.20x, 287 1.62x; worst
    ///   52 = 13 x 4 0.94x, rows already at 0.98 of copy); the 13-smooth ones under 0.85 of
    ///   copy 12 -> 3. Rows of 1 and 2 threads 0.96x (not planned).
    /// - R2C of even length, whose store is staged anyway (its separation pairs values i and
    ///   m-i): 1.10x..1.34x on all 20 staged rows of 84..390 points timed (180 1.34x), with
    ///   the half spectrum paired as the staged row had it.
    ///
    /// C2R is left alone: its staged rows rebuild their packed spectrum in the load (a pair at
    /// a time), and direct io there writes directly instead, 0.71x. f64 is left alone too:
    /// `--suite variants-f64` ran it 1.138x over its 186 such rows, but 27 of them under 0.97x,
    /// not yet sorted out.
    pub(super) fn with_direct_load(self) -> FftRecipe {
        let kind_measured = match self.problem.kind {
            FftKind::C2C => true,
            FftKind::R2C => self.packing == RealPacking::HalfLength,
            FftKind::C2R => false,
        };
        let applies = kind_measured
            && !self.tuning.direct_io
            && self.tuning.threads_per_transform >= DIRECT_LOAD_MIN_THREADS
            && matches!(self.core, Core::Stockham { .. })
            && self.io.is_none()
            && self.problem.precision == Precision::F32;
        if !applies {
            return self;
        }
        let mut r = self;
        r.tuning.direct_io = true;
        // R2C's store is staged regardless: there the flag would change nothing.
        r.tuning.staged_store = r.can_stage_store();
        r
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn staged_rows_of_three_threads_or_more_read_global_memory_directly() {
        let design = |p: FftProblem| FftRecipe::design(p, H200).unwrap();
        // C2C 65 = 13 x 5 (5 threads): the first pass reads global memory, the store is staged.
        let r = design(FftProblem::c2c(65, 1000));
        assert!(r.tuning.direct_io && r.tuning.staged_store && r.tuning.threads_per_transform == 5, "{}", r.kernel_name());
        // Two threads (N = 20 = 10 x 2) and one pass stay staged.
        assert!(!design(FftProblem::c2c(20, 1000)).tuning.direct_io);
        assert!(!design(FftProblem::c2c(16, 1000)).tuning.direct_io);
        // R2C 180 (m = 90 = 15 x 6): direct, its store staged as before and not paired.
        let r = design(FftProblem::r2c(180, 1000));
        assert!(r.tuning.direct_io && !r.tuning.staged_store && !r.tuning.half_spectrum_pairs, "{}", r.kernel_name());
        // C2R and f64 keep their staged rows.
        assert!(!design(FftProblem::c2r(180, 1000)).tuning.direct_io);
        assert!(!design(FftProblem::c2c(65, 1000).precision(crate::fft::Precision::F64)).tuning.direct_io);
        // Rows of 16 threads or more were direct already: the store stays direct.
        let r = design(FftProblem::c2c(4096, 100));
        assert!(r.tuning.direct_io && !r.tuning.staged_store);
    }
}
