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

/// Threads a row from which f32 rows that read directly and store staged drop the padding of
/// their rows in shared memory: 1.099x over the 30 such rows of N = 2..920 that had it, none
/// under 0.985x (`--suite variants --variants 'no padding'`, twenty-second session); rows of 3..6
/// threads 0.81x..1.2x (32 = 8 x 4 0.81x, 65 0.90x). f64's: 1.018x, left padded.
const UNPADDED_DIRECT_LOAD_MIN_THREADS: u32 = 7;

/// Largest first radix of the f64 rows that read global memory in their first pass: rows of
/// a larger first radix (primes 23..59) lost up to 0.71x so.
const F64_DIRECT_LOAD_MAX_FIRST_RADIX: usize = 19;

impl FftRecipe {
    /// Staged Stockham rows of DIRECT_LOAD_MIN_THREADS threads or more: the first pass
    /// reads global memory, the store stays staged. Measured on an H200 (twenty-first session,
    /// docs/BENCHMARKS.md, `--suite variants` beside the pick):
    /// - C2C, every such row of N = 2..600: 1.119x over 186 lengths (65 1.20x, 287 1.62x; worst
    ///   52 = 13 x 4 0.94x, rows already at 0.98 of copy); the 13-smooth ones under 0.85 of
    ///   copy 12 -> 3. Rows of 1 and 2 threads 0.96x (not planned).
    /// - R2C of even length, whose store is staged anyway (its separation pairs values i and
    ///   m-i): 1.10x..1.34x on all 20 staged rows of 84..390 points timed (180 1.34x), with
    ///   the half spectrum paired as the staged row had it.
    /// - f64 C2C rows of a first radix up to F64_DIRECT_LOAD_MAX_FIRST_RADIX
    ///   (twenty-second session, `--suite variants-f64 --sizes 2..2048`, then a same-run A/B):
    ///   1.047x over those 77 lengths (first radix 17..19: 1.11x over 26, none under 0.97x; up
    ///   to 16: 1.016x, worst 42 = 14 x 3 0.96x); the 13-smooth lengths under 0.85 of copy 8 -> 4
    ///   (195 1.51x, 143, 154, 165 fixed; 132 0.78 -> 0.848). Larger first radices, 23..59:
    ///   1.02x over 122 but 30 under 0.97x.
    ///
    /// f32 C2C rows of UNPADDED_DIRECT_LOAD_MIN_THREADS threads or more also drop the padding of
    /// their rows in shared memory (1.100x over the 30 it changes, same-run A/B).
    ///
    /// C2R is left alone: its staged rows rebuild their packed spectrum in the load (a pair at
    /// a time), and direct io there writes directly instead, 0.71x. f64 R2C is not measured.
    pub(super) fn with_direct_load(self) -> FftRecipe {
        let kind_measured = match (self.problem.kind, self.problem.precision) {
            (FftKind::C2C, Precision::F32) => true,
            (FftKind::C2C, Precision::F64) => self.core.first_radix().is_some_and(|r| r <= F64_DIRECT_LOAD_MAX_FIRST_RADIX),
            (FftKind::R2C, Precision::F32) => self.packing == RealPacking::HalfLength,
            (FftKind::R2C, Precision::F64) | (FftKind::C2R, _) => false,
        };
        let applies = kind_measured
            && !self.tuning.direct_io
            && self.tuning.threads_per_transform >= DIRECT_LOAD_MIN_THREADS
            && matches!(self.core, Core::Stockham { .. })
            && self.io.is_none();
        if !applies {
            return self;
        }
        let mut r = self;
        r.tuning.direct_io = true;
        // R2C's store is staged regardless: there the flag would change nothing.
        r.tuning.staged_store = r.can_stage_store();
        if r.tuning.staged_store && r.problem.precision == Precision::F32 && r.tuning.threads_per_transform >= UNPADDED_DIRECT_LOAD_MIN_THREADS {
            r.tuning.drop_padding();
        }
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
        // 165 = 15 x 11 (11 threads) drops its padding; 65 (5 threads) keeps it.
        let r = design(FftProblem::c2c(165, 1000));
        assert!(r.tuning.staged_store && r.tuning.pad_shift.is_none() && r.tuning.row_pad == 0, "{}", r.kernel_name());
        assert!(design(FftProblem::c2c(65, 1000)).tuning.pad_shift.is_some());
        // Two threads (N = 20 = 10 x 2) and one pass stay staged.
        assert!(!design(FftProblem::c2c(20, 1000)).tuning.direct_io);
        assert!(!design(FftProblem::c2c(16, 1000)).tuning.direct_io);
        // R2C 180 (m = 90 = 15 x 6): direct, its store staged as before and not paired.
        let r = design(FftProblem::r2c(180, 1000));
        assert!(r.tuning.direct_io && !r.tuning.staged_store && !r.tuning.half_spectrum_pairs, "{}", r.kernel_name());
        // C2R keeps its staged rows.
        assert!(!design(FftProblem::c2r(180, 1000)).tuning.direct_io);
        // f64 C2C reads directly up to a first radix of 19 (195 = 15 x 13, 255 = 17 x 15), not
        // above (87 = 29 x 3); f64 R2C stays staged.
        let f64_design = |p: FftProblem| design(p.precision(crate::fft::Precision::F64));
        for n in [195, 255] {
            let r = f64_design(FftProblem::c2c(n, 1000));
            assert!(r.tuning.direct_io && r.tuning.staged_store, "{}", r.kernel_name());
        }
        assert!(!f64_design(FftProblem::c2c(87, 1000)).tuning.direct_io);
        assert!(!f64_design(FftProblem::r2c(180, 1000)).tuning.direct_io);
        // Rows of 16 threads or more were direct already: the store stays direct.
        let r = design(FftProblem::c2c(4096, 100));
        assert!(r.tuning.direct_io && !r.tuning.staged_store);
    }
}
