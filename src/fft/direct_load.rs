//! Which of a Stockham row's global accesses go through shared memory. Short rows, of fewer
//! than DIRECT_IO_MIN_THREADS threads, the planner stages both ways: a coalesced copy in,
//! passes in shared memory, a coalesced copy out. Their last pass writes runs of a few values
//! a row, which is why the copy out pays; their first pass may read global memory all the same
//! (`FftTuning::direct_io` with `staged_store`), sparing the copy in and its barrier.
//! Longer rows read and write global memory in their passes; those whose last pass writes
//! many short runs stage their store (`with_staged_store`). Strided passes read and write
//! their sides of columns in their passes too (`with_direct_columns`).

use super::problem::{FftKind, Precision};
use super::recipe::{FftRecipe, RealPacking};
use super::transform_core::Core;
use super::strided::StridedIo;

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

/// Threads a row below which direct f32 C2C rows whose last pass is of radix
/// STAGED_STORE_MIN_LAST_RADIX or more stage their store.
const STAGED_STORE_MAX_THREADS: u32 = 32;

/// Smallest last radix of the direct rows that stage their store (with fewer than
/// STAGED_STORE_MAX_THREADS threads, these are rows of two passes of 16 points or more).
const STAGED_STORE_MIN_LAST_RADIX: usize = 16;

/// Fewest rows a block of the direct rows that stage their store: blocks of 1..3 rows (rows of
/// 59- and 61-point codelets) ran 0.98x so, 5 of 14 under 0.97x.
const STAGED_STORE_MIN_ROWS: u32 = 4;

/// Shared memory of the strided passes that read and write their columns directly
/// (`with_direct_columns`): blocks of 64 KiB or more, at most three a multiprocessor on an
/// H100 or H200, where the registers that direct access costs took no block away (1024
/// points: 120 registers against 88, one 512-thread block either way; 512: 57 against 53).
const DIRECT_COLUMNS_MIN_SHARED_BYTES: u64 = 64 << 10;

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

    /// Strided Stockham passes of blocks of DIRECT_COLUMNS_MIN_SHARED_BYTES or more read and
    /// write their columns in the core's own passes: where a side is walked a row a thread
    /// (values `stride` apart, neighbouring threads on neighbouring rows), the first pass reads
    /// its values from global memory and the last writes them there, in the order the staged
    /// copy took them (thread t of a row takes values t, t + threads, ...), sparing a trip
    /// through shared memory and a barrier each. Sides of contiguous rows stay staged (a thread
    /// per value along the row: the copy is the transposition), and so do packed real sides
    /// (their values are paired in shared memory).
    ///
    /// Measured on an H200 (twenty-ninth session, docs/BENCHMARKS.md, same-run A/B of `bench
    /// fft --suite large-1d --suite 2d --suite 3d --suite layouts`): 1024-point columns (one
    /// block a multiprocessor) 1.07x..1.19x (2^20 1.14x, 4096^2 1.07x, 1024^3 1.09x, columns of
    /// 2^20 points 1.17x); 512..2048-point ones mostly 1.01x..1.12x, C2R's first pass 0.97x..0.99x.
    /// 256-point columns (34 KiB blocks) took 60 registers against 48, a block fewer a
    /// multiprocessor: 1.00x..1.02x, but C2R 256^2 0.95x and 256^3 0.96x, so they stay staged.
    pub(crate) fn with_direct_columns(self) -> FftRecipe {
        let applies = (self.reads_columns_directly_if_direct() || self.writes_columns_directly_if_direct())
            && self.shared_bytes() >= DIRECT_COLUMNS_MIN_SHARED_BYTES;
        self.retuned_if(applies, |tuning| tuning.direct_io = true)
    }

    /// A strided Stockham pass whose first pass reads its input side, a side of columns
    /// (see `with_direct_columns`), from global memory under `direct_io`.
    pub fn reads_columns_directly(&self) -> bool {
        self.tuning.direct_io && self.reads_columns_directly_if_direct()
    }

    /// As `reads_columns_directly`, for the last pass's writes of the output side.
    pub fn writes_columns_directly(&self) -> bool {
        self.tuning.direct_io && self.writes_columns_directly_if_direct()
    }

    fn reads_columns_directly_if_direct(&self) -> bool {
        self.io.as_ref().is_some_and(|io| self.direct_column_core(io) && io.input_stride != 1)
    }

    fn writes_columns_directly_if_direct(&self) -> bool {
        self.io.as_ref().is_some_and(|io| self.direct_column_core(io) && io.output_stride != 1)
    }

    fn direct_column_core(&self, io: &StridedIo) -> bool {
        matches!(self.core, Core::Stockham { .. }) && self.core.passes() > 0 && io.packed().is_none() && self.cluster.is_none()
    }

    /// f32 C2C direct rows of fewer than STAGED_STORE_MAX_THREADS threads whose last pass is of
    /// radix STAGED_STORE_MIN_LAST_RADIX or more and has more butterflies than the row has
    /// threads (two passes, the larger radix first, such as 368 = 23 x 16 or 1007 = 53 x 19),
    /// in blocks of STAGED_STORE_MIN_ROWS rows or more: the last pass writes shared memory and
    /// a coalesced copy stores the block's rows, without the rows' padding. Their direct
    /// writes ran `threads` values (under 256 bytes) 16 or more times a butterfly, and again
    /// for the rest of the butterflies in shorter runs still.
    ///
    /// Measured on an H200 (twenty-third session, docs/BENCHMARKS.md): `--suite variants
    /// --variants 'staged store,staged store unpadded'` over the 638 direct rows of 16..63
    /// threads in 2..4096 (rows of 32..63 threads 0.97x, of a last radix under 16 1.02x),
    /// then a same-run A/B over the 141 rows of this shape with any number of last-pass
    /// rounds: 1.062x; those whose last pass takes one round (such as 961 = 31 x 31) 1.009x,
    /// 6 of 25 under 0.97x, so not planned. The 116 planned, in a same-run A/B of the final
    /// rule: 1.077x (368 1.42x; 8 under 0.97x, the worst 962 = 37 x 26 and 703 = 37 x 19 0.86x).
    pub(super) fn with_staged_store(self) -> FftRecipe {
        let t = self.tuning;
        let last_pass = self.core.pass_butterflies().last().copied();
        let applies = self.is_direct_stockham_row(FftKind::C2C, Precision::F32)
            && !t.staged_store
            && t.threads_per_transform < STAGED_STORE_MAX_THREADS
            && t.transforms_per_block >= STAGED_STORE_MIN_ROWS
            && last_pass.is_some_and(|(radix, butterflies)| radix >= STAGED_STORE_MIN_LAST_RADIX && butterflies > t.threads_per_transform as usize)
            && self.can_stage_store();
        self.retuned_if(applies, |tuning| {
            tuning.staged_store = true;
            tuning.drop_padding();
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn staged_rows_of_three_threads_or_more_read_global_memory_directly() {
        let design = |p: FftProblem| FftRecipe::design_by_heuristic(p, H200).unwrap();
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

    #[test]
    fn direct_rows_of_two_long_passes_and_few_threads_stage_their_store() {
        let design = |p: FftProblem| FftRecipe::design_by_heuristic(p, H200).unwrap();
        // 368 = 23 x 16 (16 threads, 8 rows) and 1007 = 53 x 19: staged store, unpadded.
        for n in [368, 1007] {
            let r = design(FftProblem::c2c(n, 1000));
            assert!(r.tuning.direct_io && r.tuning.staged_store, "{}", r.kernel_name());
            assert!(r.tuning.pad_shift.is_none() && r.tuning.row_pad == 0, "{}", r.kernel_name());
        }
        // A last pass of one round (961 = 31 x 31, 256 = 16 x 16), a last radix under 16
        // (306 = 17 x 9 x 2), 32 threads or more (1184 = 37 x 32), fewer than 4 rows a block
        // (1769 = 61 x 29): the store stays direct; f64 and R2C too.
        for n in [961, 256, 306, 1184, 1769] {
            let r = design(FftProblem::c2c(n, 1000));
            assert!(r.tuning.direct_io && !r.tuning.staged_store, "{}", r.kernel_name());
        }
        assert!(!design(FftProblem::c2c(368, 1000).precision(crate::fft::Precision::F64)).tuning.staged_store);
        assert!(!design(FftProblem::r2c(736, 1000)).tuning.staged_store);
    }
}
