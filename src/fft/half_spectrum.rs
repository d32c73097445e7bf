//! Real transforms of even length N = 2m run a complex core of length m on the row packed as
//! z[j] = x[2j] + i x[2j+1]. R2C separates the core's output Z into the half spectrum, C2R
//! rebuilds Z from it; value i of either side needs values i and m-i of the other. Here: the
//! planner's rules for whether one thread takes both of a pair ([`FftTuning::half_spectrum_pairs`];
//! the kernel code is in codegen/io.rs and codegen/mirror.rs), and for C2R's threads a row.
//!
//! [`FftTuning::half_spectrum_pairs`]: super::FftTuning::half_spectrum_pairs

use super::problem::{FftKind, Precision, MAX_SINGLE_LAUNCH_LEN};
use super::recipe::{DeviceLimits, FftRecipe, FftTuning, RealPacking};
use super::transform_core::Core;

/// Rows a block beyond which `with_c2r_first_pass_threads` leaves the pick alone (rows of 448
/// points or fewer, measured 1.00x).
const C2R_FIRST_PASS_MAX_ROWS: u32 = 5;
/// Largest first radix of f32 C2R direct rows that stage their load in pairs.
const C2R_STAGED_PAIRS_MAX_FIRST_RADIX: usize = 15;
/// The radix cap under which C2R rows of first radix 16 are designed again, so that they
/// stage their load in pairs (`reads_c2r_pairs_apart_at_radix_16`).
pub(super) const C2R_PAIRED_RADIX_CAP: usize = C2R_STAGED_PAIRS_MAX_FIRST_RADIX;
/// Threads a block from which long C2R rows take a launch bound (`with_c2r_long_row_launch_bound`):
/// 11520 points (360 threads) gained, 8192 (256) did not.
const C2R_LONG_ROW_MIN_THREADS: u32 = 360;
/// Registers a thread keeps under that launch bound: 64 and 56 paid, 42 spilled into losses.
const C2R_LONG_ROW_REGISTER_FLOOR: u32 = 56;

impl FftRecipe {
    /// Whether the kernel should separate or rebuild the half spectrum a pair at a time.
    /// Measured on an H200 (thirteenth session, docs/BENCHMARKS.md; the real suite's 379 even
    /// N, pairs against each value on its own):
    /// - C2R pairs in a staged load: 1.26x (75 staged Stockham rows, 258: 2.4x), Rader 1.16x.
    ///   Where the core would read global memory itself (direct_io), staging the load to pair
    ///   it ran 0.88x: those rows read each value's two inputs in their first pass.
    /// - R2C pairs in its store phase: 1.04x on direct rows and 1.05x on staged ones of odd
    ///   m; staged rows of even m ran 0.86x (one thread per row: 4, 8, .., 32) and 1.00x.
    ///
    /// Since the staged load issues all its loads before it rebuilds (twentieth session,
    /// `row_loop_fetched`), f32 C2R direct Stockham rows whose first radix is under 16 stage
    /// their load to pair it too: 1.100x over 242 lengths (worst 2904 0.92x), where those of
    /// first radix 16 or more ran 0.87x (45 lengths; 1666 = 17 x 7 x 7 0.71x).
    ///
    /// C2R direct rows longer than one launch's 1D plans (the rows of N-d and multi-pass
    /// plans) stage their load in pairs at any first radix and in f64 too
    /// (`pairs_long_c2r_rows`).
    pub(super) fn pairs_half_spectrum(&self) -> bool {
        if !self.can_pair_half_spectrum() {
            return false;
        }
        let staged_load = !self.tuning.direct_io || matches!(self.core, Core::Rader { .. });
        match self.problem.kind {
            FftKind::R2C => self.tuning.direct_io || (self.problem.len / 2) % 2 == 1,
            FftKind::C2R => staged_load || self.stages_c2r_direct_load() || self.pairs_long_c2r_rows(),
            FftKind::C2C => false,
        }
    }

    /// C2R direct rows longer than MAX_SINGLE_LAUNCH_LEN: the staged pair load at their first
    /// radix of 16 (f32), and in f64. Measured on an H200 (forty-fifth session, `--suite
    /// variants-c2r` and `variants-c2r-f64`, 'half spectrum pairs' beside the pick, two rounds):
    /// f32 6144 1.11x, 8192 1.27x, 12288 1.01x, 16384 1.20x, 24576 1.13x, 32768 1.10x; f64 6000
    /// 1.00x, 8192 1.36x, 10000 1.04x, 12288 1.06x, 16384 1.04x; no length slower. (The
    /// twenty-seventh session had found each value read on its own faster there, before the
    /// pair load issued all its loads first.)
    fn pairs_long_c2r_rows(&self) -> bool {
        self.is_multi_pass_row() && self.is_direct_stockham_row(FftKind::C2R, self.problem.precision) && self.packing == RealPacking::HalfLength
    }

    /// f32 C2R direct Stockham rows whose first radix is at most C2R_STAGED_PAIRS_MAX_FIRST_RADIX
    /// (see `pairs_half_spectrum`).
    fn stages_c2r_direct_load(&self) -> bool {
        self.is_f32_c2r_direct_stockham_row() && self.core.first_radix().is_some_and(|r| r <= C2R_STAGED_PAIRS_MAX_FIRST_RADIX)
    }

    /// f32 C2R direct rows whose first pass is of radix 16, which reads each value's two
    /// inputs X[i] and X[m-i] apart: `design_core` plans them again with radices of at most
    /// C2R_PAIRED_RADIX_CAP (16 x 9 x 4 -> 9 x 8 x 8), whose first pass reads a staged pair
    /// load, where that design pairs. Measured on an H200 (twenty-first session, `--suite
    /// variants-c2r`, 'radix<=15' beside the pick over the 45 C2R lengths of the real suite
    /// with direct rows of first radix 16 or more): 1.141x over the 28 where the cap gives a
    /// design of its own (1408 1.34x, 576 1.29x, 960 1.29x; 12 of them in one pass more, 2048 to
    /// 4096, 1.04x..1.22x); slower 3744 0.97x, 3872 0.96x, 4032 0.91x, where the extra pass
    /// costs more. First radices above 16 (17..61: prime codelets, or 18, 20) not measured.
    /// Not the rows of multi-pass plans longer than one launch's 1D plans: the uncapped design
    /// (elementwise) was faster at every one measured (twenty-seventh session, 'radix<=27' in
    /// `--suite variants-c2r --sizes 8192,16384,24576,32768`, which designs as uncapped does:
    /// 1.08x, 1.07x, 1.12x, 1.25x).
    pub(super) fn reads_c2r_pairs_apart_at_radix_16(&self) -> bool {
        self.is_f32_c2r_direct_stockham_row() && !self.is_multi_pass_row() && !self.tuning.half_spectrum_pairs && self.core.first_radix() == Some(16)
    }

    /// Whether this row is longer than one launch's 1D plans take: a contiguous pass of a
    /// multi-pass plan, where the C2R rules fitted on lengths up to 4096 were measured again.
    fn is_multi_pass_row(&self) -> bool {
        self.problem.len > MAX_SINGLE_LAUNCH_LEN
    }

    /// Whether this is an f32 C2R of even length on contiguous direct Stockham rows: the rows
    /// both C2R rules here were measured on.
    fn is_f32_c2r_direct_stockham_row(&self) -> bool {
        self.is_direct_stockham_row(FftKind::C2R, Precision::F32) && self.packing == RealPacking::HalfLength
    }

    /// Whether direct rows should pair their half spectrum in the core's own pass (mirror
    /// pairs, codegen/mirror.rs) rather than in a staged store. Measured on an H200
    /// (eighteenth session, the real suite's 379 even N, same-run A/B against staged pairs):
    /// - R2C, where a thread's butterflies in its last pass do not grow (two a pair, against
    ///   one or more before; pairs are half the butterflies), the radix is at most 16 and the
    ///   row longer than 256 points: 1.062x over 159 lengths (worst 0.95x), 1.050x in the
    ///   run that confirmed the rule (3380 1.18x, worst 1260 0.90x);
    ///   shorter rows, 192 to 256 points, 0.93x (256 0.84x; the 256-point rows of a 256^3
    ///   R2C 0.95x). Where a thread's butterflies grow, 1.02x with some much slower (512
    ///   0.78x: 105 registers against 48), and radix 31 (1922) 0.51x: 196 registers. f32
    ///   only: f64 (twice the registers a value) was not measured.
    /// - C2R, reading the half spectrum in its first pass: 0.72x over 287 lengths (520 0.55x,
    ///   radix 61 0.32x). Its first pass then issues the row's global loads from half the
    ///   threads (Nsight Compute, 1024: 50% occupancy from 62 registers against 40, barrier
    ///   stalls 43%); reading X[m-i] a second time hits the cache. Not planned; a variant.
    pub(super) fn mirror_pairs_pay(&self) -> bool {
        if self.problem.kind != FftKind::R2C || !self.tuning.half_spectrum_pairs || !self.can_mirror_pairs() {
            return false;
        }
        let stages = self.core.stages();
        let last = stages.last().expect("a core has a stage");
        let radix = *last.radices.last().expect("direct rows have passes");
        let (butterflies, w) = (last.len / radix, self.tuning.threads_per_transform as usize);
        let f32 = self.problem.precision == Precision::F32;
        f32 && self.problem.len > 256 && radix <= 16 && 2 * butterflies.div_ceil(2).div_ceil(w) <= butterflies.div_ceil(w)
    }

    /// C2R direct rows: one thread per butterfly of the first pass (rows per block keeping the
    /// block's threads), where the pick has more (one per butterfly of a later pass of smaller
    /// radix) and the fewer threads take fewer warps a row. That first pass reads X[i], X[m-i] and a
    /// twiddle for each value from global memory; its idle threads hold their registers all
    /// the same, so fewer warps a row let more rows reside while the loads are in flight (the
    /// later, wider passes take a second round of butterflies instead). Measured on an H200
    /// (nineteenth session, `--suite variants-c2r` over the 351 13-smooth even N): 26 lengths
    /// with at most 5 rows a block 1.10x (4056 1.21x, 1100 1.21x, 2288 1.20x; worst 1600 0.95x);
    /// where the warps a row stay as many, 1.02x with losses to 0.90x (2100); shorter rows of
    /// more rows a block (160..448 points) 1.00x. R2C, whose first pass reads one value each,
    /// did not gain (0.97x). Confirmed by a same-run A/B of the picks: the 26 lengths the rule
    /// changes 1.08x (docs/BENCHMARKS.md); in its first build, first passes of prime radix 29..43 lost up to 0.69x (3034): radix 16 at most.
    /// Applied after the packing is chosen (fewer threads would change which one wins: 2548
    /// then took four passes, 0.93x). f32 only: f64 was not measured.
    /// Since the twentieth session, those of first radix under 16 stage their load in pairs
    /// instead (`stages_c2r_direct_load`); the pair of rules was measured together there (the
    /// variants toggled the pairs on picks with these threads), not this rule alone again.
    /// (A tuning the device cannot run, more rows than its shared memory holds, keeps the pick.)
    pub(super) fn with_c2r_first_pass_threads(self, limits: DeviceLimits) -> FftRecipe {
        let t = &self.tuning;
        let Some(&(first_radix, first_pass)) = self.core.pass_butterflies().first() else { return self };
        if !self.is_f32_c2r_direct_stockham_row() || t.transforms_per_block > C2R_FIRST_PASS_MAX_ROWS || first_radix > 16 {
            return self;
        }
        let recipe = self.with_threads_keeping_block(first_pass as u32);
        let warps_a_row = |r: &FftRecipe| r.threads_per_block().div_ceil(32) as f64 / r.tuning.transforms_per_block as f64;
        let pays = recipe.tuning.threads_per_transform < t.threads_per_transform && warps_a_row(&recipe) < warps_a_row(&self);
        if pays && recipe.check(limits).is_ok() { recipe } else { self }
    }

    /// f32 C2R direct rows longer than one launch's 1D plans (the contiguous passes of
    /// multi-pass plans) with at least C2R_LONG_ROW_MIN_THREADS threads a block: a launch bound
    /// for the most blocks, 3 or 2, that leaves a thread C2R_LONG_ROW_REGISTER_FLOOR registers
    /// and whose shared memory fits. Their first pass holds X[i] and X[m-i] of each value: 78
    /// registers a thread at 16384 points (Nsight Compute), so one block of 512 threads a
    /// multiprocessor where shared memory holds two. Measured on an H200 (twenty-seventh
    /// session, `--suite variants-c2r`, 'min 2/3 blocks/SM' beside the pick): 16384 (512
    /// threads) 1.20x with 2 blocks and 0.75x with 3 (42 registers); 12288 (384) 1.11x with 3;
    /// 24576 (768) 0.61x with 2 (42 registers) and 1.00x with 3, 32768 (1024) 1.00x with 3, 8192
    /// (256 threads) 0.97x with 3 and 0.92x with 2. Then, the rule built, at lengths it had not
    /// been fitted on: 15360 (480) 1.04x, 13824 (432) 1.00x, 12288 1.07x over one block;
    /// 11520 (360) 1.02x with 3 and 1.08x with 2 (it was then at 384 threads or more).
    pub(super) fn with_c2r_long_row_launch_bound(self, limits: DeviceLimits) -> FftRecipe {
        if !self.is_multi_pass_row() || !self.is_f32_c2r_direct_stockham_row() || self.threads_per_block() < C2R_LONG_ROW_MIN_THREADS {
            return self;
        }
        let fits = |blocks: u32| self.registers_under_bound(blocks) >= C2R_LONG_ROW_REGISTER_FLOOR && u64::from(blocks) * self.shared_bytes() <= limits.shared_bytes;
        let blocks = [3, 2].into_iter().find(|&b| fits(b)).unwrap_or(1);
        self.retuned_if(blocks > 1, |t| t.min_blocks_per_sm = blocks)
    }

    /// f32 C2R direct rows that stage their load in pairs (`stages_c2r_direct_load`), with
    /// intra-row padding and a first radix that is not a power of two: no padding. The
    /// padding is chosen by the bank-conflict model for the passes alone; there it cost more
    /// than the conflicts it spares. Measured on an H200 (twenty-first session, `--suite
    /// variants-c2r`, 'no padding' beside the pick): all 25 such lengths faster, 1.01x..1.17x
    /// (864 1.17x, 1680 1.17x, 2904 1.15x); where the first radix is 8, padding paid (256,
    /// 320, 384, 448, 640, 1024: 0.93x..0.98x without); rows with only row padding 0.97x..1.02x
    /// and staged rows 0.96x (both left alone).
    pub(super) fn without_c2r_pairs_padding(self) -> FftRecipe {
        let staged_pairs = self.tuning.half_spectrum_pairs && !self.pairs_in_core_pass();
        let first_not_power_of_two = self.core.first_radix().is_some_and(|r| !r.is_power_of_two());
        let applies = self.is_f32_c2r_direct_stockham_row() && staged_pairs && self.tuning.pad_shift.is_some() && first_not_power_of_two;
        self.retuned_if(applies, FftTuning::drop_padding)
    }

    /// Whether the paired half spectrum is read by the core's first pass (C2R) or written by
    /// its last (R2C), a mirror pair of butterflies j and S - j per thread (codegen/mirror.rs),
    /// rather than in a staged load or store.
    pub fn pairs_in_core_pass(&self) -> bool {
        self.tuning.half_spectrum_pairs && self.tuning.mirror_pairs && self.can_pair_half_spectrum() && self.can_mirror_pairs()
    }

    /// Whether the core itself reads (C2R: a Stockham core's first pass) or writes (R2C: the
    /// last pass of a Stockham core or of Rader's passes after its DFTs) global memory, so that
    /// it may take mirror pairs: plain rows, not a strided pass's, with direct_io. Bluestein's
    /// cores keep the staged store.
    pub fn can_mirror_pairs(&self) -> bool {
        let core = match self.problem.kind {
            FftKind::C2R => matches!(self.core, Core::Stockham { .. }),
            _ => matches!(self.core, Core::Stockham { .. } | Core::Rader { .. }),
        };
        core && self.tuning.direct_io && self.io.is_none() && self.packing == RealPacking::HalfLength
    }

    /// Whether `half_spectrum_pairs` changes the kernel: real transforms of even length, but
    /// not C2R into a Bluestein core, which reads element by element regardless (its chirp
    /// and zero padding ride on `read_input`), nor real grids, whose lines always separate
    /// or rebuild a pair at a time in shared memory.
    pub(crate) fn can_pair_half_spectrum(&self) -> bool {
        self.packing == RealPacking::HalfLength && !(self.problem.kind == FftKind::C2R && self.uses_bluestein()) && self.core.real_grid().is_none()
    }

    /// Whether the kernel reads its input element by element (`read_input`); C2R of even
    /// length with `half_spectrum_pairs` into a Stockham or Rader core instead rebuilds the
    /// packed spectrum's values i and m-i together from X[i] and X[m-i] in its load phase
    /// (codegen's `load_half_spectrum_pairs`), so that each input value is read once.
    /// Bluestein's cores keep `read_input`, which applies their chirp and zero padding.
    pub(crate) fn reads_input_elementwise(&self) -> bool {
        !(self.problem.kind == FftKind::C2R && self.tuning.half_spectrum_pairs && self.can_pair_half_spectrum())
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{codegen::fft_source, DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    fn design(p: FftProblem) -> FftRecipe {
        FftRecipe::design_by_heuristic(p, H200).unwrap()
    }

    #[test]
    fn pairs_where_they_were_measured_to_win() {
        // R2C: direct rows, and short rows of odd m; not short rows of even m (which read
        // global memory directly since the twenty-first session, keeping the staged rows' pairing).
        assert!(design(FftProblem::r2c(4096, 8)).tuning.direct_io);
        assert!(design(FftProblem::r2c(4096, 8)).tuning.half_spectrum_pairs);
        assert!(design(FftProblem::r2c(220, 8)).tuning.threads_per_transform < 16);
        assert!(!design(FftProblem::r2c(220, 8)).tuning.half_spectrum_pairs);
        assert!(design(FftProblem::r2c(30, 8)).tuning.half_spectrum_pairs);
        // C2R: staged loads (and Rader's, always staged); f32 direct rows of first radix under
        // 16 stage their load to pair it (those of radix 16 are designed under radix 15 to, 4096
        // as 8 x 8 x 8 x 4); the others read in their first pass (3564 = 2 x 18 x 11 x 9).
        assert!(design(FftProblem::c2r(220, 8)).tuning.half_spectrum_pairs);
        let capped = design(FftProblem::c2r(4096, 8));
        assert_eq!(capped.core.stages()[0].radices, [8, 8, 8, 4]);
        assert!(capped.tuning.half_spectrum_pairs && !capped.pairs_in_core_pass());
        let direct = design(FftProblem::c2r(3564, 8));
        assert_eq!(direct.core.stages()[0].radices[0], 18);
        assert!(direct.tuning.direct_io && direct.can_mirror_pairs() && !direct.tuning.half_spectrum_pairs && !direct.pairs_in_core_pass());
        let staged = design(FftProblem::c2r(504, 8));
        assert_eq!(staged.core.stages()[0].radices[0], 14);
        assert!(staged.tuning.direct_io && staged.tuning.half_spectrum_pairs && !staged.pairs_in_core_pass());
        assert!(!design(FftProblem::c2r(504, 8).precision(crate::fft::Precision::F64)).tuning.half_spectrum_pairs);
        // Their padding dropped where the first radix is not a power of two (864 = 2 x 12 x 9 x 4),
        // kept where it is (1024 = 2 x 8 x 8 x 8), row padding alone kept (756).
        let unpadded = design(FftProblem::c2r(864, 8));
        assert!(unpadded.tuning.half_spectrum_pairs && unpadded.tuning.pad_shift.is_none() && unpadded.tuning.row_pad == 0);
        assert!(design(FftProblem::c2r(1024, 8)).tuning.pad_shift.is_some());
        assert!(design(FftProblem::c2r(756, 8)).tuning.row_pad > 0);
        // R2C direct rows pair in their last pass where a thread's butterflies do not grow (4096:
        // 256 butterflies on 128 threads, 2 each either way), radix <= 16, over 256 points; not
        // Bluestein's.
        assert!(design(FftProblem::r2c(4096, 8)).pairs_in_core_pass());
        let rader = design(FftProblem::r2c(268, 8));
        assert!(rader.uses_rader() && rader.pairs_in_core_pass());
        let more = design(FftProblem::r2c(512, 8));
        assert!(more.tuning.half_spectrum_pairs && more.can_mirror_pairs() && !more.pairs_in_core_pass());
        assert!(!design(FftProblem::r2c(1922, 8)).pairs_in_core_pass());
        assert!(design(FftProblem::r2c(256, 8)).can_mirror_pairs() && !design(FftProblem::r2c(256, 8)).pairs_in_core_pass());
        let bluestein = design(FftProblem::r2c(4078, 8));
        assert!(bluestein.uses_bluestein() && bluestein.tuning.half_spectrum_pairs && !bluestein.can_mirror_pairs());
        let rader = design(FftProblem::c2r(2 * 193, 8));
        assert!(rader.uses_rader() && rader.tuning.half_spectrum_pairs);
        // Neither C2C nor odd real lengths have a half spectrum to pair.
        for p in [FftProblem::c2c(220, 8), FftProblem::r2c(221, 8), FftProblem::c2r(221, 8)] {
            assert!(!design(p).tuning.half_spectrum_pairs, "{p:?}");
        }
    }

    #[test]
    fn c2r_direct_rows_take_a_thread_per_first_pass_butterfly() {
        use crate::fft::{Core, Precision};
        let threads = |p: FftProblem| {
            let r = design(p);
            (r.tuning.threads_per_transform, r.tuning.transforms_per_block)
        };
        // 4056 (core 2028 = 13 x 13 x 12): 156 butterflies in the radix-13 first pass, 169 in
        // the last; 5 warps a row instead of 6. R2C and f64 keep one thread per widest pass.
        assert_eq!(threads(FftProblem::c2r(4056, 8)), (156, 1));
        assert_eq!(threads(FftProblem::r2c(4056, 8)), (169, 1));
        assert_eq!(threads(FftProblem::c2r(4056, 8).precision(Precision::F64)).0, 169);
        // 720 (360 = 9 x 8 x 5): 40 threads, the block's 135 threads still 3 rows (4 warps).
        assert_eq!(threads(FftProblem::c2r(720, 8)), (40, 3));
        // The packing is chosen first: 2548 keeps 14 x 13 x 7 (91 threads would have lost
        // it to four passes).
        let r = design(FftProblem::c2r(2548, 8));
        assert!(matches!(&r.core, Core::Stockham { radices, .. } if radices == &[14, 13, 7]), "{r:?}");
        assert_eq!(r.tuning.threads_per_transform, 91);
        // As many warps a row either way (1296: 81 or 72 threads, 3 warps): the pick stays.
        assert_eq!(threads(FftProblem::c2r(1296, 8)), (81, 1));
        // Staged rows, and first passes of prime radix above 16 (3034 = 2 x 41 x 37), stay.
        assert_eq!(threads(FftProblem::c2r(3034, 8)).0, 41);
        assert!(!design(FftProblem::c2r(260, 8)).tuning.direct_io);
    }

    #[test]
    fn long_c2r_rows_keep_radix_16_pair_their_load_and_take_a_launch_bound() {
        use crate::fft::Precision;
        // (The heuristic's rows: the wisdom runs other kernels at some of these lengths.)
        let row = |p: FftProblem| FftRecipe::design_row_by_heuristic(p, H200).unwrap();
        // Rows of multi-pass plans (over 4096 points) keep the uncapped design's first radix
        // 16 and stage their load in pairs, f64 too; 4096 is capped to stage pairs.
        let long = row(FftProblem::c2r(16384, 8));
        assert_eq!(long.core.stages()[0].radices, [16, 16, 16, 2]);
        assert!(long.tuning.half_spectrum_pairs && !long.tuning.mirror_pairs);
        assert!(row(FftProblem::c2r(8192, 8).precision(Precision::F64)).tuning.half_spectrum_pairs);
        assert!(!FftRecipe::design_by_heuristic(FftProblem::c2r(4096, 8).precision(Precision::F64), H200).unwrap().tuning.half_spectrum_pairs);
        assert_eq!(row(FftProblem::c2r(4096, 8)).core.stages()[0].radices, [8, 8, 8, 4]);
        // Launch bounds: the most blocks (3 or 2) leaving 56 registers a thread and fitting
        // shared memory, from 360 threads a block: 16384 (512 threads) 2, 12288 (384) and
        // 11520 (360) 3; not 8192 (256 threads), 24576 (768) or 32768 (1024), nor R2C, f64
        // or rows of one launch's 1D plans.
        let bound = |p: FftProblem| row(p).tuning.min_blocks_per_sm;
        assert_eq!(bound(FftProblem::c2r(16384, 8)), 2);
        assert_eq!(row(FftProblem::c2r(16384, 8)).threads_per_block(), 512);
        assert_eq!(bound(FftProblem::c2r(12288, 8)), 3);
        assert_eq!(bound(FftProblem::c2r(11520, 8)), 3);
        for p in [FftProblem::c2r(8192, 8), FftProblem::c2r(24576, 8), FftProblem::c2r(32768, 8), FftProblem::r2c(16384, 8), FftProblem::c2r(16384, 8).precision(Precision::F64)] {
            assert_eq!(bound(p), 1, "{p:?}");
        }
        assert!(design(FftProblem::c2r(4096, 8)).tuning.min_blocks_per_sm == 1);
    }

    #[test]
    fn paired_kernels_read_each_value_once() {
        // C2R 220 (m = 110): 56 pairs a row, each reading X[i] and X[110 - i], writing Z[i] and,
        // but for pairs 0 and 55, Z[110 - i]; no element-by-element read_input.
        let c2r = design(FftProblem::c2r(220, 8));
        let body = fft_source(&c2r).body;
        assert!(!body.contains("read_input("), "{body}");
        assert!(body.contains("if (e < rows * 56u)"));
        // Every trip's loads (a run of up to 8) come before the first trip's rebuild.
        let (fetch, rebuild) = (body.find("xb[kk] = X[110u - i];").unwrap(), body.find("cplx b = xb[kk];").unwrap());
        assert!(fetch < rebuild && body.contains("cplx xa[") && body.contains("xw[kk] = tables["));
        assert!(body.contains("if (i != 0 && 2 * i != 110u) SH(row, 110u - i) ="));
        // Each value on its own: 111 values a row, X[m - i] read beside X[i] for each.
        let mut single = c2r.clone();
        single.tuning.half_spectrum_pairs = false;
        let body = fft_source(&single).body;
        assert!(body.contains("SH(row, i) = read_input(in_rows, tables, row, i, 0u, sign);"));
        assert!(body.contains("cplx b = (X + (110u - j))[-(int)c];"));
        // C2R 1024 (m = 512, direct): the first pass (radix 8, 64 butterflies) reads X[p + 64 k]
        // and X[512 - p - 64 k] for butterflies p and 64 - p, p < 32 (pair 0: butterflies 0
        // and 32), with no load phase.
        let mut c2r = design(FftProblem::c2r(1024, 8));
        (c2r.tuning.half_spectrum_pairs, c2r.tuning.mirror_pairs) = (true, true);
        assert!(c2r.pairs_in_core_pass() && c2r.kernel_name().ends_with("_d_pairs_mirror"));
        let body = fft_source(&c2r).body;
        assert!(!body.contains("read_input(") && !body.contains("load:"), "{body}");
        assert!(body.contains("if (p < 32u)") && body.contains("const u32 j = p == 0 ? 32u : 64u - p;"));
        assert!(body.contains("cplx b = (X + (512u - p))[-448];") && body.contains("v[8] = MAKE_CPLX(a.x + b.x + d.y, a.y + b.y - d.x);"));
        assert!(body.contains("cplx a = (X + 32u)[448];"));
        // R2C 1024: the last pass writes X[p + 64 k] and X[512 - p - 64 k], X[512] by pair 0.
        let mut r2c = design(FftProblem::r2c(1024, 8));
        r2c.tuning.mirror_pairs = true;
        let body = fft_source(&r2c).body;
        assert!(!body.contains("store:"), "{body}");
        assert!(body.contains("(X + (512u - p))[0] = cscale(cconj(csub(even, odd)), scale);"));
        assert!(body.contains("if (p != 0) (X + (512u - p))[-64] ="));
        assert!(body.contains("const cplx b = cconj(p == 0 ? v[7] : v[14]);") && body.contains("(X + 32u)[448] ="));
        // R2C 30 (m = 15): 8 pairs a row, X[i] and X[15 - i] from Z[i] and Z[15 - i].
        let body = fft_source(&design(FftProblem::r2c(30, 8))).body;
        assert!(body.contains("if (e < rows * 8u)"), "{body}");
        assert!(body.contains("if (2 * i != 15u) X[15u - i] = cscale(cconj(csub(even, odd)), scale);"));
    }
}
