//! The plan as plain data: which algorithm, which radices, how threads map onto transforms.
//! Designed by a heuristic from the problem and the device's limits; printable, comparable,
//! and the only input of code generation.

use super::factor::{whole_row_bluestein_len, StockhamModel, MAX_COMPOSITE_RADIX};
use super::problem::{FftKind, FftProblem, Precision};
use super::cluster::{ClusterLimits, ClusterSplit, BLOCK_RESERVED_BYTES};
use super::bank_conflicts::BankModel;
use super::strided::StridedIo;
use super::codelet::{CodeletSplit, RaderCodelets};
use super::half_spectrum::C2R_PAIRED_RADIX_CAP;
use crate::error::{Error, Result};
use super::transform_core::{rader_over_codelet, Core, PrimeCodelets, Stage, MAX_PRIME_RADIX};

/// How a real transform maps onto the complex core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RealPacking {
    /// C2C: no packing.
    Complex,
    /// Even N: the real row read as N/2 complex pairs, a length N/2 complex core, and a
    /// pre- or post-processing step that separates the even and odd halves.
    HalfLength,
    /// Odd N: the real row widened to complex, a length-N complex core.
    Widened,
}

/// Where the Stockham passes get their twiddle factors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TwiddleSource {
    /// A table computed in f64 on the host, read through the cache: one read per twiddle.
    Table,
    /// One table read per butterfly (W^k); W^{ik} as its powers by repeated squaring, so the
    /// rounding error grows with log R, not R.
    TablePowers,
    /// sinpi/cospi evaluated in the kernel.
    Computed,
}

/// The tunable choices of the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FftTuning {
    /// Threads that cooperate on one transform.
    pub threads_per_transform: u32,
    /// Transforms one block holds in shared memory.
    pub transforms_per_block: u32,
    /// One padding slot after every 2^pad_shift complex values of shared memory (against
    /// bank conflicts of strided butterflies); None for no padding.
    pub pad_shift: Option<u32>,
    /// Spare slots after each row, so that rows start on different banks.
    pub row_pad: u32,
    /// The core's first pass reads global memory and its last pass writes it (both coalesced
    /// when a row has enough threads), sparing two trips through shared memory. R2C of even
    /// length still stores through shared memory: separating its spectrum pairs values i and
    /// m-i. Rader's first pass reads its input permuted from shared memory: there only the
    /// last pass after its DFTs writes global memory. Strided passes: only their sides of
    /// columns (see `FftRecipe::with_direct_columns`).
    pub direct_io: bool,
    /// With `direct_io` on Stockham rows whose last pass would write global memory itself:
    /// it writes shared memory instead and a store phase copies the rows out, coalesced,
    /// while the first pass still reads global memory (see `FftRecipe::can_stage_store`).
    pub staged_store: bool,
    pub twiddles: TwiddleSource,
    /// Blocks that must fit on one multiprocessor at once (CUDA's `__launch_bounds__`
    /// minimum; OpenCL ignores it): caps registers at 64K / (blocks x threads per block).
    /// The planner asks for 2 only for Bluestein kernels that keep at least
    /// BLUESTEIN_REGISTER_FLOOR registers by it, where it was measured to pay
    /// (`Core::bluestein_two_block_bound_pays`); elsewhere a minimum made NVRTC spend more
    /// registers or spill (docs/BENCHMARKS.md). A measuring autotuner should choose it per kernel.
    pub min_blocks_per_sm: u32,
    /// Two shared buffers, each pass reading one and writing the other: no barrier between a
    /// pass's reads and its writes, and a thread's butterflies run one after another, each
    /// holding only its own values (in place, a thread holds all its butterflies' values until
    /// the barrier). Costs twice the shared memory.
    pub ping_pong: bool,
    /// Rader and Bluestein: the convolution's forward transform hands its last pass's values
    /// to the inverse's first pass in registers, the filter's product between them (one trip
    /// through shared memory and one barrier fewer; see `Core::stages`); else the two passes
    /// run apart.
    pub fused_convolution: bool,
    /// R2C and C2R of even length N = 2m (a half-length core): one thread separates (R2C, in
    /// the store phase) or rebuilds (C2R, in the load phase) values i and m-i of the packed
    /// spectrum together, from the same two values and twiddle, so that each value is read
    /// once; else each value on its own, reading both. C2R's pairs are read in a staged load
    /// (with direct_io its last pass still writes directly); Bluestein's cores read element
    /// by element regardless (the chirp rides on `read_input`). False for other problems.
    pub half_spectrum_pairs: bool,
    /// With `half_spectrum_pairs` on direct rows: the core's own pass reads (C2R: its first)
    /// or writes (R2C: its last) the half spectrum, a mirror pair of butterflies per thread
    /// (codegen/mirror.rs), instead of a staged load or store; see `mirror_pairs_pay`.
    pub mirror_pairs: bool,
    /// Rader with several DFTs of the prime per row (N = m p, m > 1): in the convolution's
    /// passes consecutive threads take the same butterfly of consecutive DFTs, rather than
    /// consecutive butterflies of one DFT. The first pass then gathers a run of m consecutive
    /// values (value u + m g^q of DFT u) where the other order gathers m g^q of one DFT, all
    /// on the banks of u mod m (N = 1616 = 16 x 101: 10-way conflicts), and the last pass's
    /// scatter lands p values apart (p odd: on distinct banks). Chosen with the layout where the
    /// bank-conflict model ([`FftRecipe::shared_wavefronts`]) counts at least 1.05 times the
    /// wavefronts in the other order (see `with_least_conflicted_layout`). False for other cores.
    pub lanes_across_dfts: bool,
    /// Contiguous C2C rows staged through shared memory (no direct_io): thread `tid` works on
    /// row tid mod R of the block's R rows (`transforms_per_block`) as thread tid / R of its
    /// row, so a warp's neighbouring threads take the same butterfly of neighbouring rows.
    /// With an odd row stride every shared access of the core then lands on distinct banks,
    /// whatever the pass's pattern within a row (Rader's permuted gather and scatter too);
    /// the staged load and store still copy each row with consecutive threads.
    pub lanes_across_rows: bool,
    /// How the kernel's composite codelets split (codelet.rs): set by
    /// [`Core::codelet_split_rule`], another by a variant where measured faster.
    pub codelet_split: CodeletSplit,
    /// Rader rows that can gather their convolution's first values from global memory
    /// ([`FftRecipe::can_gather_from_global`], rader_gather.rs): None where the rule decides
    /// (`FftRecipe::gather_from_global_rule`), Some by a variant where measured otherwise.
    pub rader_global_gather: Option<bool>,
    /// C2R rows that can load their half spectrum's pairs by rows or flat
    /// ([`FftRecipe::can_load_pairs_by_row`], pair_load.rs): None where the rule decides
    /// (`FftRecipe::pairs_by_row_rule`), Some by a variant where measured otherwise.
    pub pairs_by_row: Option<bool>,
    /// Passes whose last trip runs past their butterflies: None where the rule decides (every
    /// trip guarded), Some(true) by the `partial trip guards` variant, the last trip's guard
    /// alone, where measured faster (trip_guards.rs, [`FftRecipe::guards_partial_trip_only`]).
    pub partial_trip_guards: Option<bool>,
    /// Mirror pairs' twiddles: None where the rule decides (each W^i from the table),
    /// Some(true) by the `stepped pair twiddles` variant, W^p read once and stepped by
    /// literals, where measured faster (pair_twiddles.rs, [`FftRecipe::steps_pair_twiddles`]).
    pub stepped_pair_twiddles: Option<bool>,
    /// Staged stores of rows that do not start on a 32-byte sector: None where the rule decides
    /// (the block's flat index from its first value), Some(true) by the `sector-aligned
    /// stores` variant, the flat index shifted so that each warp's stores fill whole sectors,
    /// where measured faster (aligned_stores.rs, [`FftRecipe::aligns_stores`]).
    pub aligned_stores: Option<bool>,
    /// Which prime codelets run Rader's algorithm in registers (two composite DFTs of p - 1
    /// points), not the symmetric pairs' O(p^2) multiply-adds: Off by default; Paying (37,
    /// 41, 43, 53, 61, where that takes fewer instructions) by the `rader codelets` variant,
    /// Every (from 29) by `rader codelets every prime`, where measured faster.
    pub rader_codelets: RaderCodelets,
    /// Rader's convolution of two coprime radices by the prime-factor algorithm, without
    /// twiddles between its passes (prime_factor_convolution.rs): off by default, on by the
    /// `prime-factor convolution` variant where measured faster.
    pub prime_factor_convolution: bool,
    /// A strided pass's four-step twiddles applied by its core's last radix pass in groups,
    /// A G\[a\] F\[c\], instead of one table product a value as it writes (see
    /// `FftRecipe::groups_step_twiddles`, strided_design.rs, where the planner decides it, and
    /// codegen/strided.rs's `StepTwiddleGroups`). False for every other kernel.
    pub grouped_step_twiddles: bool,
    /// A strided pass whose rows are grids (`FftRecipe::design_column_grid`, strided_design.rs):
    /// several neighbouring rows a block, interleaved in shared memory as any strided pass's,
    /// each row's values `stride` apart and transformed along every axis of the grid. False
    /// for every other kernel, strided grids of one a block (`design_strided_grid`) too.
    pub grid_columns: bool,
}

/// A kernel choice a rule makes unless a variant set it (`FftTuning::rader_global_gather`,
/// `FftTuning::pairs_by_row`): whether it is taken, where the kernel `can` take it at all.
pub(crate) fn ruled_choice(can: bool, set: Option<bool>, rule: impl FnOnce() -> bool) -> bool {
    can && set.unwrap_or_else(rule)
}

/// The kernel-name suffix of such a choice set against its rule: `taken` or `declined`; empty
/// where the rule decides, so that the rule's kernels keep their names and the wisdom's
/// entries for them stay valid.
pub(crate) fn ruled_choice_suffix(can: bool, set: Option<bool>, rule: impl FnOnce() -> bool, taken: &'static str, declined: &'static str) -> &'static str {
    match set {
        Some(choice) if can && choice != rule() => {
            if choice { taken } else { declined }
        }
        _ => "",
    }
}

impl FftTuning {
    /// The minimum of blocks to write into the launch bounds: none for 0 or 1 (an explicit 1
    /// is not the same as none to NVRTC).
    pub fn launch_minimum(&self) -> Option<u32> {
        (self.min_blocks_per_sm > 1).then_some(self.min_blocks_per_sm)
    }

    /// Rows in shared memory without padding, neither inside a row (`pad_shift`) nor between
    /// rows (`row_pad`).
    pub fn drop_padding(&mut self) {
        (self.pad_shift, self.row_pad) = (None, 0);
    }

    /// Whether rows are padded in shared memory, inside a row or between rows (what
    /// [`FftTuning::drop_padding`] undoes).
    pub fn is_padded(&self) -> bool {
        self.pad_shift.is_some() || self.row_pad > 0
    }
}

/// What the device allows, as far as FFT planning cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLimits {
    pub shared_bytes: u64,
    pub max_threads: u32,
    /// Thread-block clusters, whose blocks read each other's shared memory (cluster.rs).
    pub clusters: ClusterLimits,
    /// The bank-conflict model shared-memory layouts are chosen by: [`BankModel::WholeWarp`],
    /// but for the rows `lane_groups.rs` lists.
    pub bank_model: BankModel,
}

impl DeviceLimits {
    /// An H100's or H200's (227 KiB of shared memory per block once opted in, 1024 threads,
    /// clusters of up to 8 blocks): for designing recipes with no device at hand (unit tests,
    /// the recipes example).
    pub const H200: DeviceLimits = DeviceLimits { shared_bytes: 232_448, max_threads: 1024, clusters: ClusterLimits::HOPPER, bank_model: BankModel::WholeWarp };

    /// Blocks of `shared_bytes` each that one multiprocessor's shared memory holds at once:
    /// a multiprocessor has the most one block may take plus one driver reserve a block
    /// (`BLOCK_RESERVED_BYTES`), 228 KiB on an H100 or H200.
    pub fn blocks_by_shared_memory(&self, shared_bytes: u64) -> u64 {
        (self.shared_bytes + BLOCK_RESERVED_BYTES) / (shared_bytes + BLOCK_RESERVED_BYTES)
    }
}

/// A designed single-launch FFT: the problem, the algorithm and the tuning.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FftRecipe {
    pub problem: FftProblem,
    pub packing: RealPacking,
    pub core: Core,
    pub tuning: FftTuning,
    /// Rows along a strided axis (a pass of a multi-dimensional or four-step transform);
    /// None for contiguous rows, `problem.batch` of them one after another.
    pub io: Option<StridedIo>,
    /// A four-step split's pass B run in the same launch as its pass A, across a cluster of
    /// blocks that hand the values between them through shared memory (cluster.rs).
    pub cluster: Option<Box<ClusterSplit>>,
}

/// Threads a block from which a grid takes a launch bound of two blocks a multiprocessor
/// (`FftRecipe::with_grid_launch_bound`), where its shared memory holds two. Two such blocks
/// leave a thread at most 64 registers, fewer than ptxas gives these grids unbounded, so the
/// bound buys the second block. Measured on an H200 (docs/BENCHMARKS.md):
/// - fused R2C f32 128^3's real 128 x 128 grid (520 threads): 68 registers and 38% of DRAM
///   bandwidth unbounded (Nsight Compute); 1.134x with the bound (sixty-ninth session); C2R's
///   twin 1.00x (sixty-ninth) and 0.996x (seventy-third), bounded alike for one rule;
/// - strided grids (seventy-second session, same-run A/B): C2C f32 2048^2's [4, 2048] (512
///   threads, 73 registers unbounded) 1.147x, R2C f32 4096^2's real [4, 4096] (513) 1.033x,
///   C2R 4096^2's 1.011x.
///
/// Smaller blocks fit two anyway, and there a bound only let ptxas take more registers (C2C
/// [2, 1024] grids of 128 threads 84 -> 112, f32 128^3's [32, 128] of 256 threads 64 -> 126),
/// fewer blocks a multiprocessor: C2C f32 1024^2 0.969x, R2C 1024^2 0.926x, 2048^2 0.943x, 3D
/// C2C f32 128^3 0.897x, fused C2C f32 64^3 0.92x. Caps of 64 registers on smaller f32 blocks:
/// R2C and C2R 2048^2's real [4, 2048] grids (256 threads, 67 -> 64, four blocks) 1.009x and
/// 1.016x, too little for a rule; the [2, 1024] grids of 1024^2 spilled and lost (C2C 0.909x).
const GRID_BOUND_MIN_THREADS: u32 = 512;

/// Shared memory a block aims to fill before it stops adding transforms, with blocks of
/// TARGET_THREADS_PER_BLOCK threads and at most MAX_THREADS_PER_BLOCK (N = 2 ran at 0.76 of
/// copy with 1024-thread blocks). Halving both from 2048 values and 256 threads ran 27 of 41
/// sampled sizes more than 3% faster on an H200 (up to 1.7x, N = 133): more, smaller blocks
/// per multiprocessor overlap one block's loads with another's passes (our reading, not measured).
const TARGET_VALUES_PER_BLOCK: usize = 1024;
const TARGET_THREADS_PER_BLOCK: u32 = 128;
const MAX_THREADS_PER_BLOCK: u32 = 512;
/// Bluestein kernels want about 170 registers per thread: for convolutions of 2048 and more,
/// a launch bound of two blocks per multiprocessor ran them up to 1.3x faster where it leaves
/// at least this many (blocks of at most 256 threads), and spilled (down to 0.4x) where it
/// left 64 to 102; at 121 (4320-point convolutions, 270 threads) it ran 0.77x. Shorter
/// convolutions ran 5-10% slower with it.
pub(crate) const BLUESTEIN_REGISTER_FLOOR: u32 = 128;
/// Rader kernels ran faster with a launch bound of three or two blocks per multiprocessor
/// where it leaves at least this many registers (N = 355 1.48x, 1601 1.17x, 3001 1.26x,
/// 268 1.12x; within 3% elsewhere), slower where it left fewer (4001: 81, 0.94x).
const RADER_REGISTER_FLOOR: u32 = 96;
/// Since then (lanes across DFTs, ping-pong, fused convolutions), f32 Rader kernels whose
/// block takes less shared memory than this ran faster with no launch bound at all: of 119
/// sampled lengths (thirty-sixth session, `--suite variants`, two rounds), the 58 under it
/// 1.07x (151 1.16x, 241 1.25x, 771 1.51x; none slower than 0.978x), the 32 longer rows above
/// it with a three-block bound 1.00x (2593 0.80x, 3341 0.85x, 2190 0.94x). What ptxas does
/// differently under the bound was not established: blocks of 72 threads keep 255 registers
/// under a three-block bound, and still ran 1.13x to 1.25x faster without it.
const RADER_UNBOUNDED_MAX_SHARED: u64 = 35_000;
/// The largest codelet of f32 Rader kernels that also run unbounded, whatever their shared
/// memory, where the register floor gave them a two-block bound: the 20 sampled above the
/// shared limit ran 1.10x (none slower than 0.99x); 4033 = 109 x 37, a radix-37 pass, 0.68x.
const RADER_UNBOUNDED_MAX_CODELET: usize = 16;
/// When a Rader row of several DFTs of its prime takes one thread per butterfly of the pass of
/// its largest radix (rows outside these limits take two a thread).
struct RaderOneButterflyLimits {
    /// At least this many DFTs of the prime in the row.
    min_dfts: usize,
    /// No pass after the DFTs with a codelet longer than this.
    max_outer_radix: usize,
    /// At most this many butterflies in the widest pass.
    max_threads: u32,
}

impl RaderOneButterflyLimits {
    /// f32, every kind. Of 119 sampled Rader lengths (thirty-sixth session's variants, two
    /// rounds, H200), `threads x2` ran the 71 rows of 5 DFTs or more 1.088x (1349 = 19 x 71
    /// 1.38x, 3616 = 32 x 113 1.44x), the 17 of 2 to 4 DFTs 0.81x (2306 = 2 x 1153 0.60x).
    /// Codelets over 32 after the DFTs want registers more than threads: 4033 = 37 x 109 ran
    /// 0.45x, 3869 = 53 x 73 0.62x, 3149 = 47 x 67 0.69x a thread per butterfly. Over 400
    /// butterflies, 3275 = 25 x 131 (655 threads) ran 0.42x, 3635 = 5 x 727 0.52x; in the A/B
    /// that fitted it, the 42 sampled rows over it 0.92x, the 164 under it 1.118x. With these
    /// limits, and ping-pong kept, a same-run A/B over 177 fresh C2C lengths ran 1.102x
    /// (thirty-seventh session, docs/BENCHMARKS.md).
    const F32: RaderOneButterflyLimits = RaderOneButterflyLimits { min_dfts: 5, max_outer_radix: 32, max_threads: 400 };
    /// f64 C2C. Of 136 f64 rows of 5 DFTs or more sampled up to 2048 (thirty-seventh session,
    /// `threads x2`, two rounds, H200), the 94 of 6 DFTs or more and up to 240 butterflies ran
    /// 1.112x (679 = 7 x 97 0.80x, 1264 1.52x), the 42 outside 0.94x (1975 = 25 x 79 with 396
    /// threads 0.51x; rows of 5 DFTs such as 485 and 505 0.82x). In the A/B of those two limits
    /// over every f64 C2C length they changed (thirty-eighth session, H200, two rounds), the 12
    /// rows of a radix-29 or 31 pass after the DFTs ran 0.63x (2059 = 29 x 71 0.37x), the 213
    /// others 1.074x: hence no codelet over 23.
    const F64_C2C: RaderOneButterflyLimits = RaderOneButterflyLimits { min_dfts: 6, max_outer_radix: 23, max_threads: 240 };

    /// The limits for `problem`, or None where no row takes one butterfly a thread.
    fn of(problem: &FftProblem) -> Option<RaderOneButterflyLimits> {
        match (problem.precision, problem.kind) {
            (Precision::F32, _) => Some(Self::F32),
            (Precision::F64, FftKind::C2C) => Some(Self::F64_C2C),
            // f64 R2C / C2R rows were not timed a thread per butterfly (`bench fft --suite
            // real-f64` can): they keep two a thread.
            (Precision::F64, _) => None,
        }
    }

    fn admit(&self, dfts: usize, largest_outer: usize, butterflies: u32) -> bool {
        dfts >= self.min_dfts && largest_outer <= self.max_outer_radix && butterflies <= self.max_threads
    }
}

/// 32-bit registers of a multiprocessor (every NVIDIA GPU since Kepler): what a launch bound
/// of `min_blocks_per_sm` blocks shares among their threads.
pub(crate) const REGISTERS_PER_MULTIPROCESSOR: u32 = 65536;

/// Threads resident at once on a multiprocessor of compute capability 9.0 (H100, H200).
pub(crate) const THREADS_PER_MULTIPROCESSOR: u32 = 2048;
/// Threads per row for power-of-two Bluestein convolutions at most (see `design_around`).
const BLUESTEIN_MAX_THREADS: u32 = 256;
/// Threads per row from which the passes read and write global memory themselves: below, rows
/// are short and the staged, unrolled copy through shared memory coalesces better (1.2x to
/// 1.8x for N = 72 .. 184 with 8 to 12 threads per row). That gain is the copy out: f32 rows
/// of 3 threads or more still read global memory in their first pass (direct_load.rs).
pub(crate) const DIRECT_IO_MIN_THREADS: u32 = 16;
/// Stockham rows of more threads than this fill a block alone: against two rows per block, one
/// row ran 71 lengths with 80 to 126 threads per row 1.03x faster as a geometric mean (up to
/// 1.11x) on an H200, where rows of 60 to 79 threads gained nothing (sixth session's variants).
const ONE_ROW_THREADS: u32 = 80;
/// Rader and Bluestein kernels run their passes ping-pong (`FftTuning::ping_pong`) where some
/// pass gives a thread more than one butterfly and both buffers take at most this much shared
/// memory. Of the 236 Rader and Bluestein lengths among every tenth N, on an H200, the 192 so
/// chosen ran 1.18x faster (geometric mean; 8 slower by over 3%); the rest 0.99x (buffers over
/// 128 KiB leave one block per multiprocessor). Rader alone 1.23x, up to 1.86x. Stockham rows
/// ran 0.91x with it (eighth session's variants, docs/BENCHMARKS.md).
const PING_PONG_MAX_SHARED: u64 = 128 * 1024;
/// Keep blocks at or under this much shared memory unless one transform alone needs more, so
/// that several blocks share a multiprocessor.
const SHARED_BUDGET: u64 = 48 * 1024;

impl FftRecipe {
    /// Picks the algorithm and tuning for `problem` on a device with `limits`: the heuristic's
    /// pick, or where the measured wisdom names a faster kernel for it, that one (wisdom.rs).
    /// A 1D plan's kernel is the row an N-d plan would run, within one launch's lengths.
    pub fn design(problem: FftProblem, limits: DeviceLimits) -> Result<Self> {
        problem.validate()?;
        Self::design_row(problem, limits)
    }

    /// As [`FftRecipe::design`], by the heuristic's rules alone: what the wisdom was measured
    /// against, and what `bench fft --suite variants` times as "heuristic".
    pub fn design_by_heuristic(problem: FftProblem, limits: DeviceLimits) -> Result<Self> {
        problem.validate()?;
        Self::design_row_by_heuristic(problem, limits)
    }

    /// As [`FftRecipe::design`], for rows of up to [`MAX_ROW_LEN`](super::MAX_ROW_LEN) points
    /// (even real rows up to [`MAX_REAL_ROW_LEN`](super::MAX_REAL_ROW_LEN)): the contiguous
    /// passes of N-d and multi-pass plans (the CLI's transforms among them), with the same
    /// wisdom as 1D plans.
    ///
    /// The rows that `lane_groups.rs` lists (no wisdom, fewer wavefronts by the lane-group bank
    /// model, not measured slower) are designed under that model instead.
    pub fn design_row(problem: FftProblem, limits: DeviceLimits) -> Result<Self> {
        if super::lane_groups::listed(&problem, limits) {
            return Self::design_row_by_heuristic(problem, super::lane_groups::lane_groups(limits));
        }
        Ok(Self::design_row_by_heuristic(problem, limits)?.with_wisdom(limits))
    }

    /// As [`FftRecipe::design_row`], by the heuristic's rules alone (what the wisdom and the
    /// variants suite measure against, at every length a row may have).
    pub fn design_row_by_heuristic(problem: FftProblem, limits: DeviceLimits) -> Result<Self> {
        problem.validate_row()?;
        Self::design_core(problem, None, StockhamModel::CONTIGUOUS_ROWS, limits)
    }

    /// As [`FftRecipe::design`], with composite radices of at most `radix_cap` (2 to 32):
    /// smaller radices mean more passes but more threads per transform and fewer registers.
    pub fn design_with_radix_cap(problem: FftProblem, limits: DeviceLimits, radix_cap: usize) -> Result<Self> {
        problem.validate()?;
        Self::design_core(problem, Some(radix_cap.max(2)), StockhamModel::CONTIGUOUS_ROWS, limits)
    }

    /// The core by [`Core::design`] (contiguous rows of a prime of 61, or 53, by Rader where
    /// [`rader_over_codelet`] says so) and its tuning by [`FftRecipe::design_around`]; for
    /// contiguous Stockham rows, fewer passes with longer codelets where they were measured to
    /// win ([`FftRecipe::in_fewer_passes`]), f32 rows given threads enough that no pass holds
    /// over 64 values a thread (`with_threads_for_held_values`), C2R rows of first radix 16 under radix 15
    /// (`reads_c2r_pairs_apart_at_radix_16`), then C2R's direct rows a thread per butterfly of
    /// their first pass where that was measured to win (`with_c2r_first_pass_threads`), short
    /// staged rows reading global memory directly (`with_direct_load`) and C2R's paired rows
    /// unpadded (`without_c2r_pairs_padding`); where the core
    /// is Bluestein on a factor, Bluestein over the whole row instead if it issues less work
    /// ([`FftRecipe::issued_work`]). Between the two, the one with less work was the faster
    /// at 40 of 54 sampled lengths on an H200 (seventh session's variants), and picking by it
    /// came within 2% of the faster of the two (geometric mean), where always on the factor
    /// came within 7%, always whole 11%. Then Bluestein's measured exceptions
    /// (bluestein_tuning.rs).
    pub(crate) fn design_core(problem: FftProblem, radix_cap: Option<usize>, model: StockhamModel, limits: DeviceLimits) -> Result<Self> {
        Self::design_core_with(problem, radix_cap, model, PrimeCodelets::RaderWhereMeasured, limits)
    }

    /// As [`FftRecipe::design_core`], with the choice between a prime's codelet and Rader
    /// given: [`PrimeCodelets::Kept`] designs the row as the planner did before
    /// [`rader_over_codelet`] (the `stockham` variant beside its Rader picks).
    pub(crate) fn design_core_with(problem: FftProblem, radix_cap: Option<usize>, model: StockhamModel, codelets: PrimeCodelets, limits: DeviceLimits) -> Result<Self> {
        let len = Self::core_len(&problem);
        let mut core = Core::design(len, radix_cap, model);
        let rader_rule = codelets == PrimeCodelets::RaderWhereMeasured && model == StockhamModel::CONTIGUOUS_ROWS;
        if matches!(core, Core::Stockham { .. }) && rader_rule && rader_over_codelet(problem.kind, problem.precision, len) {
            core = Core::rader(len, radix_cap).unwrap_or(core);
        }
        let mut recipe = Self::design_around(problem, core, limits)?;
        // Rules fitted on uncapped contiguous rows (these, and Bluestein's at the end): designs
        // under a radix cap (C2R's paired fallback, `radix<=N` variants) and strided passes skip them.
        let fitted_rules = radix_cap.is_none() && model == StockhamModel::CONTIGUOUS_ROWS;
        if fitted_rules {
            recipe = recipe.in_fewer_passes(limits);
            // Rader rows of several DFTs: convolution and outer passes in the fewest passes.
            recipe = recipe.rader_in_fewer_passes(limits);
            // f32 Rader rows of several DFTs: unpadded across the DFTs, three blocks where the
            // layout model and the register floor said otherwise, a thread a butterfly where a
            // fifth more threads give every pass one (rader_tuning.rs).
            recipe = recipe.without_padding_across_dfts().with_three_block_rader_bound().with_nearly_even_threads(limits);
            // f32 rows (C2C, even real) whose passes would hold over 64 values a thread: more
            // threads (held_values.rs).
            recipe = recipe.with_threads_for_held_values(limits);
            // C2R rows whose radix-16 first pass would read X[i] and X[m-i] elementwise: radices
            // of at most 15, which stage their load in pairs (half_spectrum.rs).
            let capped = || Self::design_core_with(problem, Some(C2R_PAIRED_RADIX_CAP), model, codelets, limits).ok().filter(|c| c.tuning.half_spectrum_pairs);
            if let Some(capped) = recipe.reads_c2r_pairs_apart_at_radix_16().then(capped).flatten() {
                return Ok(capped);
            }
        }
        // C2R direct rows: a thread per butterfly of the first pass, which reads global memory
        // (after the packing is chosen: fewer threads would change which one wins).
        recipe = recipe.with_c2r_first_pass_threads(limits);
        if model == StockhamModel::CONTIGUOUS_ROWS {
            // Short staged rows: the first pass reads global memory all the same (direct_load.rs).
            recipe = recipe.with_direct_load();
            // Direct rows of two long passes and few threads: their store staged (direct_load.rs).
            recipe = recipe.with_staged_store();
            // Rows of 54..63 threads one to a block, not three (rows_per_block.rs).
            recipe = recipe.with_lone_rows();
            // Rows of a large prime codelet in blocks of up to two warps (rows_per_block.rs).
            recipe = recipe.with_prime_rows_in_two_warps();
            // Short Rader rows: neighbouring threads on neighbouring rows (lanes_across_rows.rs).
            recipe = recipe.with_lanes_across_rows_where_measured(limits);
            // C2R rows pairing in a staged load: without the passes' padding (half_spectrum.rs).
            recipe = recipe.without_c2r_pairs_padding();
            // Long C2R rows of many threads: a launch bound for more blocks (half_spectrum.rs).
            recipe = recipe.with_c2r_long_row_launch_bound(limits);
        }
        let Core::Bluestein { factor, .. } = recipe.core else { return Ok(recipe) };
        let whole = Core::bluestein(len, len, whole_row_bluestein_len(len), radix_cap.unwrap_or(MAX_COMPOSITE_RADIX));
        let pick = match whole.map(|core| Self::design_around(problem, core, limits)) {
            Some(Ok(w)) if factor < len && w.issued_work() < recipe.issued_work() => w,
            _ => recipe,
        };
        // Bluestein's measured exceptions (bluestein_tuning.rs): on a factor, odd numbers of
        // lines unpadded; unless radices are capped, long convolutions on a factor over the
        // whole row instead, and some whole-row convolutions in longer codelets.
        let pick = pick.with_unpadded_odd_lines();
        if !fitted_rules {
            return Ok(pick);
        }
        Ok(pick.with_whole_row_over_long_factor_convolutions(limits).with_long_codelet_convolution(limits))
    }

    /// Several trailing axes of a row-major complex array in one launch: each of `batch` rows
    /// is a row-major grid of `shape` (see [`Core::Grid`]), transformed along every axis.
    pub(crate) fn design_grid(shape: &[usize], batch: usize, precision: Precision, limits: DeviceLimits) -> Result<Self> {
        let core = Core::grid(shape, None).ok_or_else(|| {
            Error::invalid(format!("a grid of {shape:?} needs two or more axes, each longer than 1 with prime factors up to {MAX_PRIME_RADIX}"))
        })?;
        Self::design_around(FftProblem::c2c(core.len(), batch).precision(precision), core, limits)
    }

    /// This grid (`design_grid`, `design_real_grid`: fused trailing axes or a strided pass's
    /// rows) with a launch bound of two blocks a multiprocessor where it has
    /// GRID_BOUND_MIN_THREADS threads or more and its shared memory holds two blocks.
    pub(crate) fn with_grid_launch_bound(mut self, limits: DeviceLimits) -> Self {
        let two_fit = limits.blocks_by_shared_memory(self.shared_bytes()) >= 2;
        if self.threads_per_block() >= GRID_BOUND_MIN_THREADS && two_fit {
            self.tuning.min_blocks_per_sm = 2;
        }
        self
    }

    /// Several trailing axes of a row-major real transform in one launch, the last the halved
    /// one: each of `batch` rows is a real row-major grid of `shape` (`kind` R2C: its input;
    /// C2R: its output), the other side its half spectrum (see `Core::Grid`'s `halved`). Out
    /// of place; the last axis even.
    pub(crate) fn design_real_grid(shape: &[usize], batch: usize, kind: FftKind, precision: Precision, limits: DeviceLimits) -> Result<Self> {
        let refused = || {
            Error::invalid(format!(
                "a real grid of {shape:?} needs R2C or C2R, two or more axes, an even last axis of 4 or more, and prime factors up to {MAX_PRIME_RADIX}"
            ))
        };
        let n = shape.last().copied().unwrap_or(0);
        if kind == FftKind::C2C || n % 2 == 1 {
            return Err(refused());
        }
        let mut core_shape = shape.to_vec();
        if let Some(last) = core_shape.last_mut() {
            *last = n / 2;
        }
        let core = Core::grid(&core_shape, Some(kind)).ok_or_else(refused)?;
        let (reals, spectrum) = (core.len() * 2, core.region());
        let problem = match kind {
            FftKind::R2C => FftProblem::r2c(reals, batch).row_distances(reals, spectrum),
            _ => FftProblem::c2r(reals, batch).row_distances(spectrum, reals),
        };
        Self::design_around(problem.precision(precision), core, limits)
    }

    /// Length of the real rows a half-length core's packing separates (R2C) or rebuilds (C2R):
    /// the problem's, or a real grid's last axis.
    pub fn real_len(&self) -> usize {
        match &self.core {
            Core::Grid { shape, halved: Some(_), .. } => 2 * shape.last().expect("a grid has axes"),
            _ => self.problem.len,
        }
    }

    /// How a problem's rows map onto the complex core.
    fn packing_of(problem: &FftProblem) -> RealPacking {
        match problem.kind {
            FftKind::C2C => RealPacking::Complex,
            _ if problem.len.is_multiple_of(2) => RealPacking::HalfLength,
            _ => RealPacking::Widened,
        }
    }

    /// Length of the complex transform the core computes for `problem`.
    pub fn core_len(problem: &FftProblem) -> usize {
        match Self::packing_of(problem) {
            RealPacking::HalfLength => problem.len / 2,
            _ => problem.len,
        }
    }

    /// The heuristic's tuning for a given core, which must compute a transform of length
    /// [`FftRecipe::core_len`].
    pub fn design_around(problem: FftProblem, core: Core, limits: DeviceLimits) -> Result<Self> {
        Self::design_around_threads(problem, core, None, limits)
    }

    /// As [`FftRecipe::design_around`], with `threads` per transform where given (rows per
    /// block, layout and the rest then follow from that count).
    pub(crate) fn design_around_threads(problem: FftProblem, core: Core, threads: Option<u32>, limits: DeviceLimits) -> Result<Self> {
        problem.validate_row()?;
        if core.len() != Self::core_len(&problem) {
            return Err(Error::invalid(format!(
                "a core of length {} does not fit a length-{} {} problem: it needs length {}",
                core.len(),
                problem.len,
                problem.kind,
                Self::core_len(&problem)
            )));
        }
        let packing = Self::packing_of(&problem);
        let bluestein = matches!(core, Core::Bluestein { .. });
        let rader = matches!(core, Core::Rader { .. });
        // A Rader row of several DFTs of its prime (N = m p, m > 1).
        let several_dfts = matches!(core, Core::Rader { len, prime, .. } if len > prime);
        let grid = matches!(core, Core::Grid { .. });
        let stages = core.thread_stages();
        let widest = stages.iter().map(Stage::widest_pass).max().unwrap_or(0).max(1);
        let one_butterfly_each = (widest as u32).min(limits.max_threads);
        let mut threads_per_transform = one_butterfly_each;
        // A pass with a few more butterflies than threads takes a second round for them
        // alone: up to a quarter more, one thread per butterfly there instead. Measured (tenth
        // session, docs/BENCHMARKS.md) on Stockham rows of 16 threads or more (3599 = 61 x 59
        // 2.7x faster with 61 threads; 158 lengths 1.12x, geometric mean) and Bluestein over the
        // whole row (135 lengths 1.11x); shorter staged rows (72: 0.76x) and Bluestein on a
        // factor (0.98x) did not gain.
        let base_threads = threads_per_transform;
        let nearly_even_applies = match &core {
            Core::Stockham { .. } => threads_per_transform >= DIRECT_IO_MIN_THREADS,
            Core::Bluestein { outer, .. } => outer.is_empty(),
            Core::Rader { .. } | Core::Grid { .. } => false,
        };
        if nearly_even_applies {
            let nearly_even = core.nearly_even_threads(threads_per_transform, (5, 4));
            threads_per_transform = nearly_even.unwrap_or(threads_per_transform).min(limits.max_threads);
        }
        if bluestein && core.region().is_power_of_two() {
            // Two butterflies per thread and pass ran the 8192-point convolution 1.12x faster
            // than one with 512 threads (non-power-of-two convolutions ran slower so).
            threads_per_transform = threads_per_transform.min(BLUESTEIN_MAX_THREADS);
        }
        // Rader: never fewer registers than the largest codelet wants (N = 61 x 67 with 366
        // threads for its radix-61 pass spilled and ran at 0.02 of copy).
        let largest_codelet = core.codelet_radices().last().copied().unwrap_or(1);
        let register_threads = REGISTERS_PER_MULTIPROCESSOR / codelet_registers(largest_codelet, problem.precision);
        if let Core::Rader { len, prime, outer, .. } = &core {
            // Several DFTs of length p per row: two butterflies per thread in the widest pass
            // ran 1.1x to 1.4x faster (N = 134, 201, 1072, 2042, 3027 on an H200). Since then
            // (lanes across DFTs, no launch bounds), rows of many short DFTs run one
            // butterfly per thread (see RaderOneButterflyLimits).
            let dfts = len / prime;
            let largest_outer = outer.iter().copied().max().unwrap_or(1);
            let thread_per_butterfly =
                RaderOneButterflyLimits::of(&problem).is_some_and(|l| l.admit(dfts, largest_outer, one_butterfly_each));
            if several_dfts && !thread_per_butterfly {
                threads_per_transform = threads_per_transform.div_ceil(2);
            }
            threads_per_transform = threads_per_transform.min(register_threads).max(1);
        }
        // A grid's passes may want more threads than registers allow (a 128 x 128 grid's
        // radix-16 passes have 1024 butterflies of about 96 registers): a power of two that
        // leaves each thread its largest codelet's registers, the butterflies taken in turns.
        // A real grid's lines number m + 1 (65 x 8 = 520 butterflies in a 128 x 128 grid's
        // first pass): its butterflies are shared out evenly over the fewest rounds instead,
        // so that no round runs nearly empty.
        if grid && core.real_grid().is_some() {
            let rounds = (widest as u32).div_ceil(register_threads.min(limits.max_threads).max(1));
            threads_per_transform = (widest as u32).div_ceil(rounds);
        } else if grid {
            threads_per_transform = threads_per_transform.min(1 << register_threads.max(1).ilog2());
        }
        if let Some(threads) = threads {
            threads_per_transform = threads.clamp(1, limits.max_threads);
        }
        // Rader's many barriers favour smaller blocks: half the rows ran up to 1.3x faster.
        let shrink = if rader { 2 } else { 1 };
        let target_values = TARGET_VALUES_PER_BLOCK / shrink;
        let region_bytes = core.region() as u64 * complex_bytes(problem.precision);
        let mut transforms = (TARGET_THREADS_PER_BLOCK / shrink as u32).div_ceil(threads_per_transform).max(1);
        while (transforms as usize) * core.region() < target_values
            && 2 * transforms * threads_per_transform <= MAX_THREADS_PER_BLOCK
        {
            transforms *= 2;
        }
        transforms = transforms.min((limits.max_threads / threads_per_transform).max(1));
        if matches!(core, Core::Stockham { .. }) && threads_per_transform > ONE_ROW_THREADS {
            transforms = 1;
        }
        // f64 Stockham rows of several threads: half the rows (thirteenth session's f64
        // variants: 1.12x over 30 lengths of 3 to 77 threads, 21..1078 points; one row per
        // thread was not measured).
        if matches!(core, Core::Stockham { .. }) && problem.precision == Precision::F64 && threads_per_transform > 1 {
            transforms = (transforms / 2).max(1);
        }
        if rader {
            transforms = transforms.min((register_threads / threads_per_transform).max(1));
        }
        while transforms > 1 && region_bytes * transforms as u64 > SHARED_BUDGET {
            transforms -= 1;
        }
        let mut recipe = FftRecipe {
            problem,
            packing,
            core: core.clone(),
            tuning: FftTuning {
                threads_per_transform,
                transforms_per_block: transforms,
                pad_shift: None,
                row_pad: 0,
                // Bluestein always reads and writes directly: it spares the longest trips
                // through shared memory (a one-pass core has one thread per row; N = 1 has no
                // pass at all). Rader's first pass reads its input permuted, staged: it writes
                // directly where passes follow its DFTs. A grid moves each value through shared
                // memory twice per pass, and is limited by it: its first pass always reads
                // global memory (see Core::Grid).
                direct_io: bluestein
                    || grid
                    || (threads_per_transform >= DIRECT_IO_MIN_THREADS && if rader { core.row_passes() } else { core.passes() >= 2 }),
                staged_store: false,
                twiddles: TwiddleSource::TablePowers,
                min_blocks_per_sm: 1,
                ping_pong: false,
                fused_convolution: rader || bluestein,
                half_spectrum_pairs: false,
                mirror_pairs: false,
                lanes_across_dfts: false,
                lanes_across_rows: false,
                codelet_split: core.codelet_split_rule(problem.precision),
                rader_global_gather: None,
                pairs_by_row: None,
                partial_trip_guards: None,
                stepped_pair_twiddles: None,
                aligned_stores: None,
                rader_codelets: RaderCodelets::Off,
                prime_factor_convolution: false,
                grouped_step_twiddles: false,
                grid_columns: false,
            },
            io: None,
            cluster: None,
        };
        recipe.tuning.half_spectrum_pairs = recipe.pairs_half_spectrum();
        recipe.tuning.mirror_pairs = recipe.mirror_pairs_pay();
        // (Not with two butterflies per thread: the 8192-point convolution ran 1.66x slower so.)
        if bluestein
            && core.region() >= 2048
            && threads_per_transform >= one_butterfly_each
            && recipe.registers_under_bound(2) >= BLUESTEIN_REGISTER_FLOOR
            && core.bluestein_two_block_bound_pays(recipe.threads_per_block(), problem.precision)
        {
            recipe.tuning.min_blocks_per_sm = 2;
        }
        let mut recipe = recipe.with_least_conflicted_layout(limits);
        // Ping-pong where a thread takes several butterflies in some pass (in place it holds
        // all their values across the barrier) and twice the buffer fits PING_PONG_MAX_SHARED.
        // (Threads raised to even out a pass keep the ping-pong their base count chose: 2352-point
        // convolutions ran 0.85x in place with one round per pass.)
        let several_rounds = recipe.most_rounds() > 1 || threads_per_transform != base_threads;
        // Rader rows of several DFTs ping-pong even where each pass takes one round: with a
        // thread per butterfly they ran 1.40x faster so than in place (8 lengths, thirty-seventh
        // session's variants).
        if (rader || bluestein) && (several_rounds || several_dfts) && 2 * recipe.shared_bytes() <= PING_PONG_MAX_SHARED.min(limits.shared_bytes) {
            recipe.tuning.ping_pong = true;
        }
        // Rader's launch bound, once the shared memory it depends on is known (after the
        // layout and ping-pong, which do not depend on the bound).
        if rader {
            let fits = |blocks: u32| recipe.registers_under_bound(blocks) >= RADER_REGISTER_FLOOR;
            let bound = [3, 2].into_iter().find(|&b| fits(b)).unwrap_or(1);
            let two_block_bound = bound == 2 && largest_codelet <= RADER_UNBOUNDED_MAX_CODELET;
            let unbounded = problem.precision == Precision::F32 && (recipe.shared_bytes() < RADER_UNBOUNDED_MAX_SHARED || two_block_bound);
            recipe.tuning.min_blocks_per_sm = if unbounded { 1 } else { bound };
        }
        // Under the two-block launch bound (128 registers), in place, 4096-point Bluestein
        // convolutions ran 0.96x fused (39 lengths, 0.92x..0.98x); fused ran 1.06x faster
        // elsewhere (622 Rader and Bluestein lengths; ninth session, docs/BENCHMARKS.md).
        // 8192-point convolutions in 32 x 32 x 8 (long codelets, twenty-fourth session) ran
        // 1.10x fused under the same bound (30 lengths, both rounds; thirty-second session).
        if let Core::Bluestein { conv_len, .. } = core
            && (4096..8192).contains(&conv_len)
            && recipe.tuning.min_blocks_per_sm > 1
            && !recipe.tuning.ping_pong
        {
            recipe.tuning.fused_convolution = false;
        }
        recipe.check(limits)?;
        Ok(recipe)
    }

    /// Rejects tunings the device cannot run.
    pub fn check(&self, limits: DeviceLimits) -> Result<()> {
        let t = &self.tuning;
        if t.threads_per_transform == 0 || t.transforms_per_block == 0 {
            return Err(Error::invalid(format!("FFT tuning needs at least one thread and one transform per block: {t:?}")));
        }
        if t.direct_io && self.core.passes() == 0 {
            return Err(Error::invalid(format!(
                "direct_io reads and writes global memory in the core's passes; a length-{} core has none: plan it without direct_io",
                self.core.len()
            )));
        }
        if let Some(io) = &self.io {
            let direct_io_allowed = !t.direct_io || self.reads_columns_directly() || self.writes_columns_directly();
            if (!self.is_strided_grid() && (!direct_io_allowed || self.problem.kind != FftKind::C2C)) || io.rows() != self.problem.batch {
                return Err(Error::invalid(format!(
                    "strided FFT passes are complex to complex and (but for grids, and Stockham passes over columns, direct_io) staged through shared memory, with batch = the layout's rows: {}",
                    self.describe()
                )));
            }
            io.validate(self.problem.len, self.strided_run())?;
        }
        if t.staged_store && !self.can_stage_store() {
            return Err(Error::invalid(format!(
                "staged_store applies to direct_io Stockham rows that read and write global memory in their passes (not R2C of even length, C2R in half-spectrum pairs, strided passes or grids): plan {} without it",
                self.describe()
            )));
        }
        if t.lanes_across_rows && (t.direct_io || self.problem.kind != FftKind::C2C || self.io.is_some() || self.cluster.is_some()) {
            return Err(Error::invalid(format!(
                "lanes_across_rows applies to contiguous C2C rows staged through shared memory (no direct_io): plan {} without it",
                self.describe()
            )));
        }
        if t.lanes_across_dfts && !self.has_dfts_across() {
            return Err(Error::invalid(format!(
                "lanes_across_dfts orders the threads of a Rader row of several DFTs of its prime; {} has none: plan it without",
                self.describe()
            )));
        }
        if t.direct_io && matches!(self.core, Core::Rader { .. }) && !self.core.row_passes() {
            return Err(Error::invalid(
                "Rader's last pass writes its DFT permuted, into shared memory; with no pass after it, plan it without direct_io",
            ));
        }
        if let Core::Grid { halved, .. } = &self.core {
            let kind = halved.unwrap_or(FftKind::C2C);
            // Strided grids (`design_strided_grid`): complex values and reals as their kind
            // has them (R2C's rows written as half spectra, C2R's read so); one a block.
            use super::strided::Values;
            let strided_grid_ok = |io: &super::strided::StridedIo| {
                let values = match kind {
                    FftKind::C2C => (Values::Complex, Values::Complex),
                    FftKind::R2C => (Values::Real, Values::Complex),
                    FftKind::C2R => (Values::Complex, Values::Real),
                };
                (t.transforms_per_block == 1 || (t.grid_columns && kind == FftKind::C2C)) && io.chirps().next().is_none() && (io.input_values.clone(), io.output_values.clone()) == values
            };
            if self.io.as_ref().is_some_and(|io| !strided_grid_ok(io)) || self.problem.kind != kind || self.problem.placement == super::problem::Placement::InPlace && kind != FftKind::C2C {
                return Err(Error::invalid(format!(
                    "a grid core transforms rows of its own kind ({kind}; real grids out of place; strided grids one a block or, C2C, over columns; no Bluestein steps): {}",
                    self.describe()
                )));
            }
        }
        if self.io.as_ref().is_some_and(|io| io.between.is_some()) && !matches!(self.core, Core::Stockham { .. }) {
            return Err(Error::invalid(format!(
                "a Bluestein filter between two transforms of a strided pass needs a Stockham core (a row of codelets): {}",
                self.describe()
            )));
        }
        if let Some(c) = &self.cluster {
            c.check(self, limits)?;
        }
        if self.threads_per_block() > limits.max_threads {
            return Err(Error::Unsupported(format!(
                "the FFT plan needs {} threads per block; this device allows {}",
                self.threads_per_block(),
                limits.max_threads
            )));
        }
        if self.shared_bytes() > limits.shared_bytes {
            return Err(Error::Unsupported(format!(
                "a length-{} {} {} transform needs {} bytes of shared memory per block; this device allows {} \
                 (a GPU with more shared memory per block, or a shorter length, works)",
                self.problem.len,
                self.problem.precision,
                self.problem.kind,
                self.shared_bytes(),
                limits.shared_bytes
            )));
        }
        Ok(())
    }

    /// Thread slots a row's core issues: for each pass, the rounds its butterflies take over
    /// the row's threads (the last round partly idle) x radix x threads. A model of the
    /// core's time that counts idle threads in uneven passes (see `design_core`).
    pub fn issued_work(&self) -> usize {
        let t = self.tuning.threads_per_transform as usize;
        self.pass_rounds().into_iter().map(|(radix, rounds)| rounds * radix * t).sum()
    }

    /// The most butterflies one thread of a row takes in any pass of the core.
    pub fn most_rounds(&self) -> usize {
        self.pass_rounds().into_iter().map(|(_, rounds)| rounds).max().unwrap_or(0)
    }

    /// The most values one thread of a row holds in any pass of the core: its butterflies'
    /// values, all read before the barrier and written after it when the passes run in place.
    pub fn most_values_held(&self) -> usize {
        self.most_values_held_by(self.tuning.threads_per_transform)
    }

    /// As `most_values_held`, were the row given `threads` threads.
    pub(crate) fn most_values_held_by(&self, threads: u32) -> usize {
        self.pass_rounds_over(threads).into_iter().map(|(radix, rounds)| rounds * radix).max().unwrap_or(0)
    }

    /// Each pass of the core in order: its radix, and the rounds its butterflies take over the
    /// row's threads (butterflies per thread, the last round partly idle).
    fn pass_rounds(&self) -> Vec<(usize, usize)> {
        self.pass_rounds_over(self.tuning.threads_per_transform)
    }

    /// As `pass_rounds`, over `threads` threads a row.
    fn pass_rounds_over(&self, threads: u32) -> Vec<(usize, usize)> {
        let t = threads as usize;
        let stages = self.core.stages();
        stages.iter().flat_map(|s| s.radices.iter().map(move |&r| (r, s.butterflies(r).div_ceil(t)))).collect()
    }

    /// Whether this is a strided pass over grids of one a block (`design_strided_grid`): the
    /// contiguous kernels' grid, its rows addressed as `io` says. (Grids over columns,
    /// `design_column_grid`, are strided passes of the interleaved kind instead.)
    pub fn is_strided_grid(&self) -> bool {
        self.io.is_some() && matches!(self.core, Core::Grid { .. }) && !self.tuning.grid_columns
    }

    /// Values of a strided pass's row that lie next to each other in global memory before its
    /// stride applies: value i at (i / run) * stride + i % run. A grid's trailing axes (see
    /// [`FftRecipe::design_strided_grid`]); 1 for other cores.
    pub fn strided_run(&self) -> usize {
        match &self.core {
            _ if self.tuning.grid_columns => 1,
            // A real grid's rows: the reals (its core holds them as pairs).
            Core::Grid { shape, halved: Some(_), .. } => 2 * shape[1..].iter().product::<usize>(),
            Core::Grid { shape, .. } => shape[1..].iter().product(),
            _ => 1,
        }
    }

    pub fn threads_per_block(&self) -> u32 {
        self.tuning.threads_per_transform * self.tuning.transforms_per_block
    }

    /// Registers a thread keeps under a launch bound of `blocks` blocks a multiprocessor.
    pub(crate) fn registers_under_bound(&self, blocks: u32) -> u32 {
        REGISTERS_PER_MULTIPROCESSOR / (blocks * self.threads_per_block())
    }

    /// This recipe with `threads` per transform and as many rows a block as keep the block's
    /// threads (at least one).
    pub(crate) fn with_threads_keeping_block(&self, threads: u32) -> FftRecipe {
        let mut r = self.clone();
        r.tuning.threads_per_transform = threads;
        r.tuning.transforms_per_block = (self.threads_per_block() / threads).max(1);
        r
    }

    /// Distance between rows in shared memory, in complex values: the padded region plus the row padding.
    pub fn row_stride(&self) -> usize {
        pad(self.tuning.pad_shift, self.core.region() - 1) + 1 + self.tuning.row_pad as usize
    }

    /// Complex values of shared memory per block, padding included: twice
    /// [`FftRecipe::buffer_values`] with ping-pong, else once.
    pub fn shared_values(&self) -> usize {
        let own = self.buffer_values() * if self.tuning.ping_pong { 2 } else { 1 };
        // A cluster's blocks hold pass A's rows, then pass B's, in the same buffer.
        self.cluster.as_ref().map_or(own, |c| own.max(c.first_values()))
    }

    /// Complex values of one shared buffer: the block's rows, padding included. Strided passes
    /// keep their rows interleaved (value i of every row together, see codegen/strided.rs).
    pub fn buffer_values(&self) -> usize {
        match self.io {
            Some(_) if !self.is_strided_grid() => crate::fft::codegen::interleaved_stride(self) * self.core.region(),
            _ => self.row_stride() * self.tuning.transforms_per_block as usize,
        }
    }

    pub fn shared_bytes(&self) -> u64 {
        self.shared_values() as u64 * complex_bytes(self.problem.precision)
    }

    /// Blocks in the launch.
    pub fn blocks(&self) -> usize {
        match self.packed_blocks() {
            // A cluster's packed side lies in its blocks as `ClusterSplit::packed_columns` says: half
            // an array's rows a block, as its plain rows do.
            Some(p) if self.cluster.is_none() => p.blocks(),
            _ => self.problem.batch.div_ceil(self.tuning.transforms_per_block as usize),
        }
    }

    /// A strided pass with a packed real side: how its rows lie in blocks (mirror columns
    /// together, see [`crate::fft::strided::PackedBlocks`]).
    pub fn packed_blocks(&self) -> Option<crate::fft::strided::PackedBlocks> {
        self.io.as_ref()?.packed_blocks(self.tuning.transforms_per_block as usize)
    }

    /// The kernel's name, saying what it computes: `fft_c2c_f32_n360_r15x12x2_t24x8`.
    pub fn kernel_name(&self) -> String {
        let p = &self.problem;
        let algo = self.core.label();
        let packing = match (self.packing, self.io.as_ref().and_then(|io| io.packed())) {
            (RealPacking::HalfLength, _) => "_half",
            // A strided pass with a packed real side (R2C's last, C2R's first).
            (_, Some(_)) => "_packed",
            _ => "",
        };
        let place = if p.placement == super::problem::Placement::InPlace && p.kind != FftKind::C2C { "_inplace" } else { "" };
        let twiddles = match self.tuning.twiddles {
            TwiddleSource::Table => "_tt",
            TwiddleSource::TablePowers => "",
            TwiddleSource::Computed => "_tc",
        };
        let split = self.core.convolution_len().is_some() && !self.fuses_convolution();
        let twiddles = format!(
            "{twiddles}{}{}{}{}{}{}{}{}{}",
            match (self.tuning.direct_io, self.tuning.staged_store) {
                (true, true) => "_dl",
                (true, false) => "_d",
                (false, _) => "",
            },
            if self.tuning.ping_pong { "_pp" } else { "" },
            if self.tuning.lanes_across_dfts { "_across" } else { "" },
            if self.tuning.lanes_across_rows { "_xrows" } else { "" },
            if split { "_split" } else { "" },
            if self.tuning.half_spectrum_pairs { "_pairs" } else { "" },
            if self.pairs_in_core_pass() { "_mirror" } else { "" },
            if self.tuning.grouped_step_twiddles { "_gtw" } else { "" },
            if self.tuning.grid_columns { "_cols" } else { "" }
        );
        let twiddles = format!(
            "{twiddles}{}{}{}{}{}",
            self.gather_name_suffix(),
            self.pair_load_name_suffix(),
            self.trip_guard_name_suffix(),
            self.pair_twiddle_name_suffix(),
            self.aligned_store_name_suffix()
        );
        let pad = format!("_p{}r{}", self.tuning.pad_shift.unwrap_or(0), self.tuning.row_pad);
        // Codelets split otherwise than by the core's rule: prime-factor (`_pfa`) or
        // Cooley-Tukey (`_ct`) splits.
        let pad = match self.tuning.codelet_split {
            split if split == self.core.codelet_split_rule(p.precision) => pad,
            CodeletSplit::FewestInstructions => format!("{pad}_pfa"),
            CodeletSplit::CooleyTukey => format!("{pad}_ct"),
        };
        let pad = match self.tuning.rader_codelets {
            RaderCodelets::Off => pad,
            RaderCodelets::Paying => format!("{pad}_rk"),
            RaderCodelets::Every => format!("{pad}_rka"),
        };
        let pad = if self.convolution_by_prime_factors() { format!("{pad}_pfc") } else { pad };
        let pad = match self.tuning.launch_minimum() {
            None => pad,
            Some(m) => format!("{pad}_m{m}"),
        };
        let mut strided = self.io.as_ref().map_or(String::new(), |io| format!("_{}", io.tag()));
        if let Some(c) = &self.cluster {
            strided.push_str(&c.tag());
        }
        let apart = p.row_distances.map_or(String::new(), |(i, o)| format!("_rd{i}x{o}"));
        format!(
            "fft_{}_{}_n{}{packing}{place}_{algo}_t{}x{}{pad}{twiddles}{strided}{apart}",
            p.kind, p.precision, p.len, self.tuning.threads_per_transform, self.tuning.transforms_per_block
        )
    }

    /// What the kernel computes and how, independent of the batch for contiguous rows (the
    /// kernel's text, and so its cache entry, is shared by every batch size). A strided pass's
    /// layout names its batch dimensions, so its kernel is per layout.
    pub fn describe_kernel(&self) -> String {
        let mut strided = self.io.as_ref().map_or(String::new(), |io| format!(", strided {io:?}"));
        if let Some(c) = &self.cluster {
            strided.push_str(&format!(", after pass A across a cluster of {} blocks: {}", c.blocks, c.first.describe_kernel()));
        }
        format!(
            "{}: {:?} {:?}, {} threads x {} transforms per block, {} bytes shared{strided}",
            self.kernel_name(),
            self.packing,
            self.core,
            self.tuning.threads_per_transform,
            self.tuning.transforms_per_block,
            self.shared_bytes(),
        )
    }

    /// One line for logs: the kernel and the launch.
    pub fn describe(&self) -> String {
        format!("{} | batch {}, {} blocks", self.describe_kernel(), self.problem.batch, self.blocks())
    }

    /// This recipe with `change` made to its tuning where a measured rule `applies`, else as
    /// it is: the shape of the planner's rules that retune a designed recipe.
    pub(super) fn retuned_if(mut self, applies: bool, change: impl FnOnce(&mut FftTuning)) -> FftRecipe {
        if applies {
            change(&mut self.tuning);
        }
        self
    }

    /// Whether this is a `kind` row in `precision` on direct Stockham rows of its own (no
    /// strided or multi-pass io): the rows the planner's measured rules on direct rows were
    /// fitted on (direct_load.rs, rows_per_block.rs, half_spectrum.rs).
    pub(super) fn is_direct_stockham_row(&self, kind: FftKind, precision: Precision) -> bool {
        self.problem.kind == kind
            && self.problem.precision == precision
            && self.tuning.direct_io
            && self.io.is_none()
            && matches!(self.core, Core::Stockham { .. })
    }

    /// Whether `staged_store` changes the kernel: direct_io Stockham rows (not a strided
    /// pass's) whose first pass reads global memory and whose last pass writes it element by
    /// element. R2C of even length stores through shared memory anyway (or in mirror pairs);
    /// C2R pairing its half spectrum loads it staged, so that a staged store would make the
    /// staged kernel again.
    pub fn can_stage_store(&self) -> bool {
        let stores_half_spectrum = self.problem.kind == FftKind::R2C && self.packing == RealPacking::HalfLength;
        let loads_pairs = self.problem.kind == FftKind::C2R && self.tuning.half_spectrum_pairs && self.can_pair_half_spectrum();
        self.tuning.direct_io && matches!(self.core, Core::Stockham { .. }) && self.io.is_none() && !stores_half_spectrum && !loads_pairs
    }

    /// Whether the core's first two stages are a convolution's transforms whose adjoining
    /// passes run as one (`FftTuning::fused_convolution`).
    pub fn fuses_convolution(&self) -> bool {
        self.tuning.fused_convolution && self.core.convolution_len().is_some()
    }

    /// Whether the core runs Bluestein's algorithm (a prime factor above MAX_PRIME_RADIX).
    pub fn uses_bluestein(&self) -> bool {
        matches!(self.core, Core::Bluestein { .. })
    }

    /// Whether the core runs Rader's algorithm (a prime factor above MAX_PRIME_RADIX).
    pub fn uses_rader(&self) -> bool {
        matches!(self.core, Core::Rader { .. })
    }

    /// The core's stages ([`Core::stages`]) as this kernel runs them: Rader's convolution
    /// stages with their lanes across DFTs where the tuning says so.
    pub fn stages(&self) -> Vec<Stage> {
        let mut stages = self.core.stages();
        if self.tuning.lanes_across_dfts {
            assert!(self.uses_rader(), "only Rader's convolutions take lanes across their DFTs");
            for s in &mut stages[..2] {
                s.across = true;
            }
        }
        stages
    }

    /// Whether [`FftTuning::lanes_across_dfts`] can apply: a Rader core of several DFTs.
    pub(crate) fn has_dfts_across(&self) -> bool {
        matches!(self.core, Core::Rader { len, prime, .. } if len > prime)
    }
}

/// Index i after intra-row padding: one spare slot per 2^shift values.
pub fn pad(shift: Option<u32>, i: usize) -> usize {
    shift.map_or(i, |s| i + (i >> s))
}

/// Registers a thread wants for a radix-`radix` codelet, roughly: its values and as many
/// temporaries, plus indexing (at most the 255 a thread can have).
fn codelet_registers(radix: usize, precision: Precision) -> u32 {
    let words = complex_bytes(precision) as u32 / 4;
    (2 * words * radix as u32 + 32).min(255)
}

/// Bytes of one complex value of a precision.
pub fn complex_bytes(p: Precision) -> u64 {
    match p {
        Precision::F32 => 8,
        Precision::F64 => 16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H200: DeviceLimits = DeviceLimits::H200;

    fn core_of(n: usize) -> Core {
        FftRecipe::design_by_heuristic(FftProblem::c2c(n, 100), H200).unwrap().core
    }

    #[test]
    fn rows_without_wisdom_take_the_layout_of_the_lane_group_model() {
        // 815 = 5 x 163 (Rader) has no wisdom: padded every 32 under the whole-warp model,
        // unpadded under lane groups, which count 369 wavefronts for the first and 313 for the
        // second (1.13x faster on an H200, seventy-sixth session); the heuristic's pick stays
        // the wisdom's key.
        let (heuristic, planned) = (|p| FftRecipe::design_by_heuristic(p, H200).unwrap().kernel_name(), |p| FftRecipe::design(p, H200).unwrap().kernel_name());
        let c2c = FftProblem::c2c(815, 100);
        assert_eq!(heuristic(c2c), "fft_c2c_f32_n815_rader163_r9x9x2_o5_t163x1_p5r0_d_pp");
        assert_eq!(planned(c2c), "fft_c2c_f32_n815_rader163_r9x9x2_o5_t163x1_p0r0_d_pp");
        // f64 rows too (seventy-seventh session): C2C 848 takes lanes across DFTs (1.45x),
        // R2C 228 a padding (1.75x).
        let r2c = |len| FftProblem { kind: FftKind::R2C, ..FftProblem::c2c(len, 100) };
        assert_eq!(heuristic(FftProblem::c2c(848, 100).f64()), "fft_c2c_f64_n848_rader53_r13x4_o16_t64x1_p0r0_m3_d_pp");
        assert_eq!(planned(FftProblem::c2c(848, 100).f64()), "fft_c2c_f64_n848_rader53_r13x4_o16_t64x1_p0r0_m3_d_pp_across");
        assert_eq!(heuristic(r2c(228).f64()), "fft_r2c_f64_n228_half_r19x6_t6x11_p0r0");
        assert_eq!(planned(r2c(228).f64()), "fft_r2c_f64_n228_half_r19x6_t6x11_p5r1");
        // Real f64 rows past 1024 points (seventy-eighth session): C2R 3091 takes lanes across
        // Rader's DFTs, unpadded (2.17x).
        let c2r = |len| FftProblem { kind: FftKind::C2R, ..FftProblem::c2c(len, 100) };
        assert_eq!(heuristic(c2r(3091).f64()), "fft_c2r_f64_n3091_rader281_r10x7x4_o11_t154x1_p2r0_m3_d_pp");
        assert_eq!(planned(c2r(3091).f64()), "fft_c2r_f64_n3091_rader281_r10x7x4_o11_t154x1_p0r0_m3_d_pp_across");
        // Rows the rule's A/Bs did not time (rows past one launch) and rows whose lane-group
        // layout measured slower (C2C 326, 0.86x; R2C f64 3667, 0.77x): the heuristic's pick,
        // or its wisdom.
        let whole_warp = |p| {
            let pick = FftRecipe::design_row_by_heuristic(p, H200).unwrap();
            pick.wisdom_variant(H200).map_or(pick, |(_, faster)| faster)
        };
        for p in [r2c(3667).f64(), r2c(8192), FftProblem::c2c(326, 100)] {
            assert_eq!(FftRecipe::design_row(p, H200).unwrap(), whole_warp(p), "{p:?}");
        }
        // R2C 36: the lane groups count both layouts alike (66 wavefronts) and pick the
        // smaller, which ran 0.96x; under the 1.05 margin the heuristic's pick stays.
        let tie = r2c(36);
        let lanes = FftRecipe::design_row_by_heuristic(tie, crate::fft::lane_groups::lane_groups(H200)).unwrap();
        assert_ne!(lanes.kernel_name(), heuristic(tie));
        assert_eq!(lanes.shared_wavefronts(BankModel::LaneGroups), FftRecipe::design_by_heuristic(tie, H200).unwrap().shared_wavefronts(BankModel::LaneGroups));
        assert_eq!(planned(tie), whole_warp(tie).kernel_name());
    }

    #[test]
    fn large_prime_factors_take_rader_where_its_convolution_is_smooth() {
        // 4001 - 1 = 32 * 125; 2 * 67 with 66 = 6 * 11.
        assert!(matches!(core_of(4001), Core::Rader { len: 4001, prime: 4001, ref outer, .. } if outer.is_empty()));
        assert!(matches!(core_of(134), Core::Rader { prime: 67, ref outer, .. } if outer == &[2]));
        // 2039 - 1 = 2 * 1019 and 509 - 1 = 4 * 127: Bluestein.
        assert!(matches!(core_of(2039), Core::Bluestein { .. }));
        assert!(matches!(core_of(509), Core::Bluestein { .. }));
        // Codelets of 17 to 23 in the convolution, by the number of DFTs of the prime and its
        // size (rader_convolution_prime_limit): 102 = 6 * 17 not for one DFT of 103, but for
        // three (309); 1150 = 2 * 25 * 23 not for one DFT of 1151, 276 = 12 * 23 for four of 277.
        assert!(Core::rader(103, None).is_none() && Core::rader_up_to(103, None, MAX_PRIME_RADIX).is_some());
        assert!(matches!(core_of(309), Core::Rader { prime: 103, .. }));
        assert!(matches!(core_of(1151), Core::Bluestein { .. }) && matches!(core_of(1108), Core::Rader { prime: 277, .. }));
        // Just below half a power of two: Bluestein's snug power-of-two convolution.
        assert!(matches!(core_of(4093), Core::Bluestein { conv_len: 8192, .. }));
        assert!(matches!(core_of(127), Core::Bluestein { conv_len: 256, .. }));
        // Primes up to MAX_PRIME_RADIX have codelets; rows of 61 run Rader over it where the
        // rest of the row is short (rader_over_codelet), as f64 and C2R rows of 53 do.
        assert!(matches!(core_of(59), Core::Stockham { .. }) && matches!(core_of(53), Core::Stockham { .. }));
        assert!(matches!(core_of(61 * 12), Core::Rader { prime: 61, ref inner, ref outer, .. } if inner == &[10, 6] && outer.iter().product::<usize>() == 12));
        assert!(matches!(core_of(61 * 29), Core::Stockham { .. }), "a radix 29 after Rader's passes");
        let core_of_kind = |p: FftProblem| FftRecipe::design_by_heuristic(p, H200).unwrap().core;
        assert!(matches!(core_of_kind(FftProblem::c2c(53, 100).f64()), Core::Rader { prime: 53, .. }));
        assert!(matches!(core_of_kind(FftProblem::c2r(106 * 4, 100)), Core::Rader { prime: 53, .. }));
        assert!(matches!(core_of_kind(FftProblem::r2c(106 * 4, 100)), Core::Stockham { .. }));
        // Strided passes keep the codelet.
        assert!(matches!(Core::design(61, None, StockhamModel::STRIDED_GRID_RADER), Core::Stockham { .. }));
    }

    #[test]
    fn bluestein_runs_on_the_largest_prime_factor_only() {
        // 3092 = 4 x 773 (772 = 4 x 193): four DFTs of 773 by convolutions of 1568, then a
        // radix-4 pass; threads for the convolutions (4 x 1568 / 14), not the outer pass (773).
        let r = FftRecipe::design_by_heuristic(FftProblem::c2c(3092, 100), H200).unwrap();
        assert_eq!(r.core, Core::Bluestein { len: 3092, factor: 773, conv_len: 1568, radices: vec![14, 14, 8], outer: vec![4] });
        assert_eq!(r.tuning.threads_per_transform, 448);
        assert_eq!(r.core.region(), 4 * 1568);
        let stages = r.core.stages();
        assert_eq!((stages[0].subrows, stages[0].step, stages[2].ns0, stages[2].len), (4, 4, 773, 3092));
        // A prime, and a snug power-of-two convolution (2042 = 2 x 1021), stay whole.
        assert!(matches!(core_of(2039), Core::Bluestein { factor: 2039, ref outer, .. } if outer.is_empty()));
        assert!(matches!(core_of(2042), Core::Bluestein { factor: 2042, conv_len: 4096, .. }));
    }

    #[test]
    fn rader_stages_cover_the_row_and_its_spare_slots() {
        let core = Core::rader(61 * 67, None).unwrap();
        assert_eq!(core.region(), 4087 + 61);
        let stages = core.stages();
        assert_eq!(stages.len(), 3);
        // Two convolutions over 61 sub-rows of 66 values, slot 0 of each DFT left for x[0].
        for s in &stages[..2] {
            assert_eq!((s.len, s.subrows, s.first, s.stride, s.ns0), (66, 61, 1, 67, 1));
            assert_eq!(s.radices.iter().product::<usize>(), 66);
        }
        // Then the radix-61 pass over the whole row, after 67 points were combined.
        assert_eq!((stages[2].len, stages[2].ns0, stages[2].radices.clone()), (4087, 67, vec![61]));
        assert_eq!(core.codelet_radices().last(), Some(&61));
        // Its radix-61 pass caps the threads: a block leaves every thread 255 registers.
        let r = FftRecipe::design_around(FftProblem::c2c(4087, 100), core, H200).unwrap();
        assert!(r.threads_per_block() <= 65536 / 255, "{}", r.describe());
    }

    #[test]
    fn rader_dfts_take_lanes_across_where_the_model_sees_fewer_conflicts() {
        let design = |n: usize| FftRecipe::design_by_heuristic(FftProblem::c2c(n, 100), H200).unwrap();
        // 1616 = 16 x 101: along one DFT, ten lanes gather value u + 16 g^q of DFT u, all on
        // u's banks; across the 16 DFTs a warp reads two runs of 16 consecutive values.
        let across = design(1616);
        assert!(across.uses_rader() && across.tuning.lanes_across_dfts, "{}", across.describe());
        let along = FftRecipe { tuning: FftTuning { lanes_across_dfts: false, ..across.tuning }, ..across.clone() };
        // (The model's first warp, whole kernel: 188 wavefronts against 351.)
        assert!(3 * across.shared_wavefronts(BankModel::WholeWarp) < 2 * along.shared_wavefronts(BankModel::WholeWarp));
        // Butterfly b of the convolution's passes: DFT b mod 16, butterfly b / 16 of it.
        let stage = &across.stages()[0];
        assert!(stage.across && !across.stages()[2].across);
        assert_eq!(stage.butterfly(17, 10), (1 + 101, 1));
        // One DFT a row has no other order.
        let prime = design(1093);
        assert!(prime.uses_rader() && !prime.has_dfts_across() && !prime.tuning.lanes_across_dfts);
        let forced = FftRecipe { tuning: FftTuning { lanes_across_dfts: true, ..prime.tuning }, ..prime };
        assert!(forced.check(H200).unwrap_err().to_string().contains("lanes_across_dfts"));
    }

    #[test]
    fn threads_even_out_a_pass_with_a_few_more_butterflies() {
        let design = |n: usize| FftRecipe::design_by_heuristic(FftProblem::c2c(n, 100), H200).unwrap();
        // 3599 = 61 x 59: the radix-59 pass has 61 butterflies; 59 threads would take two rounds.
        assert_eq!(design(3599).tuning.threads_per_transform, 61);
        // Staged rows under 16 threads keep one thread per butterfly of the widest pass.
        assert_eq!(design(72).tuning.threads_per_transform, 8);
        // A 2352-point (14 x 14 x 12) whole-row convolution: 196 threads, not 168, and still
        // ping-pong although no pass takes two rounds any more.
        let core = Core::bluestein(1163, 1163, 2352, 16).unwrap();
        let r = FftRecipe::design_around(FftProblem::c2c(1163, 100), core, H200).unwrap();
        assert_eq!(r.tuning.threads_per_transform, 196);
        assert!(r.most_rounds() == 1 && r.tuning.ping_pong, "{}", r.describe());
        // Bluestein on a factor keeps the convolution's widest-pass count.
        let r = design(3092);
        assert!(!matches!(&r.core, Core::Bluestein { outer, .. } if outer.is_empty()));
        assert_eq!(r.tuning.threads_per_transform, 448);
    }

    #[test]
    fn long_stockham_rows_fill_a_block_alone() {
        // 1344 = 14 x 12 x 8: 112 threads per row (one per radix-12 butterfly, a quarter more
        // than the radix-14 pass's 96), one row per block (two before the rule).
        let r = FftRecipe::design_by_heuristic(FftProblem::c2c(1344, 100), H200).unwrap();
        assert_eq!((r.tuning.threads_per_transform, r.tuning.transforms_per_block), (112, 1));
        // Rows of at most ONE_ROW_THREADS still share blocks.
        let r = FftRecipe::design_by_heuristic(FftProblem::c2c(588, 100), H200).unwrap();
        assert!(r.tuning.threads_per_transform <= ONE_ROW_THREADS && r.tuning.transforms_per_block > 1);
        // 64 as 4 x 4 x 4: 16 threads per row, whose passes read and write global memory.
        let r = FftRecipe::design_by_heuristic(FftProblem::c2c(64, 100), H200).unwrap();
        assert!(r.tuning.direct_io && r.tuning.threads_per_transform == 16);
    }

    #[test]
    fn ping_pong_where_threads_take_several_butterflies_and_both_buffers_fit() {
        // 937 = Rader on 936 = 13 x 9 x 8 with 72 threads: the radix-9 and radix-8 passes
        // take two rounds; two buffers of 938 values fit.
        let r = FftRecipe::design_by_heuristic(FftProblem::c2c(937, 100), H200).unwrap();
        assert_eq!((r.tuning.threads_per_transform, r.most_rounds()), (72, 2));
        assert!(r.tuning.ping_pong && r.shared_values() == 2 * r.buffer_values());
        // 2039: Bluestein's 4096 values as 16 x 16 x 16 over 256 threads, one round each.
        let r = FftRecipe::design_by_heuristic(FftProblem::c2c(2039, 100), H200).unwrap();
        assert_eq!(r.most_rounds(), 1);
        assert!(!r.tuning.ping_pong);
        // 3862 = 2 x 1931: two 4096-point convolutions (two rounds) would need 2 x 66 KiB.
        let r = FftRecipe::design_by_heuristic(FftProblem::c2c(3862, 100), H200).unwrap();
        assert!(r.most_rounds() > 1 && 2 * r.shared_bytes() > PING_PONG_MAX_SHARED && !r.tuning.ping_pong);
        // Stockham rows stay in place.
        assert!(!FftRecipe::design_by_heuristic(FftProblem::c2c(4092, 100), H200).unwrap().tuning.ping_pong);
    }

    #[test]
    fn rader_rows_of_many_short_dfts_take_a_thread_per_butterfly() {
        let design = |p: FftProblem| FftRecipe::design_by_heuristic(p, H200).unwrap();
        let threads = |p: FftProblem| design(p).tuning.threads_per_transform;
        // 1349 = 19 x 71: the pass of its largest radix (10, over 19 DFTs of 71) has 133
        // butterflies; the row ping-pongs.
        let r = design(FftProblem::c2c(1349, 100));
        assert_eq!(r.tuning.threads_per_transform, 133);
        assert!(r.tuning.ping_pong);
        // Two butterflies a thread: 2 DFTs (2306 = 2 x 1153), a radix-37 pass after the DFTs
        // (3811 = 103 x 37: 222 butterflies of radix 17), over 400 butterflies (3942 = 54 x 73:
        // 432 of radix 9).
        assert_eq!(threads(FftProblem::c2c(2306, 100)), 512);
        assert_eq!(threads(FftProblem::c2c(3811, 100)), 111);
        assert_eq!(threads(FftProblem::c2c(3942, 100)), 219);
        // f64 C2C within its own limits too (1349); two a thread from a radix-29 pass (2059 =
        // 29 x 71), at 5 DFTs (485 = 5 x 97), and in f64 R2C (2698: the core is 1349's).
        assert_eq!(threads(FftProblem::c2c(1349, 100).f64()), 133);
        assert_eq!(threads(FftProblem::c2c(2059, 100).f64()), 102);
        assert_eq!(threads(FftProblem::c2c(485, 100).f64()), 49);
        assert_eq!(threads(FftProblem::r2c(2698, 100).f64()), 67);
    }

    #[test]
    fn f32_rader_kernels_run_unbounded_under_the_shared_limit_or_a_two_block_bound() {
        let design = |p: FftProblem| FftRecipe::design_by_heuristic(p, H200).unwrap();
        let bound = |n: usize| design(FftProblem::c2c(n, 100)).tuning.min_blocks_per_sm;
        // 401: two prime rows a block in 12.6 KB (151's rows run across lanes since the
        // forty-fourth session, 16 of them in 38.8 KB, unbounded too); 2113: one row in 34.9 KB.
        assert_eq!(bound(151), 1);
        for n in [401, 2113] {
            let r = design(FftProblem::c2c(n, 100));
            assert!(r.uses_rader() && r.shared_bytes() < RADER_UNBOUNDED_MAX_SHARED && r.tuning.min_blocks_per_sm == 1, "{n}");
        }
        // Above the limit: a three-block bound stays (2593, 2272); a two-block one goes (3084
        // in 48 KB, 3719 in 58 KB) unless a pass after the DFTs of a codelet over 16 points
        // needs the registers (2759 = 89 x 31 in 45 KB), where rader_tuning.rs then takes
        // three blocks (248 threads keep 88 registers).
        assert_eq!([bound(2593), bound(2272), bound(3084), bound(3719), bound(2759)], [3, 3, 1, 1, 3]);
        // f64 keeps its bounds (not measured without them).
        assert_eq!(design(FftProblem::c2c(151, 100).f64()).tuning.min_blocks_per_sm, 3);
    }

    #[test]
    fn convolutions_run_fused_except_4096_to_8191_point_bluestein_under_a_launch_bound() {
        let design = |n: usize| FftRecipe::design_by_heuristic(FftProblem::c2c(n, 100), H200).unwrap();
        let r = design(2039);
        assert!(r.uses_bluestein() && r.tuning.min_blocks_per_sm == 2 && !r.tuning.ping_pong && !r.fuses_convolution());
        assert!(r.kernel_name().ends_with("_split"));
        // Rader; Bluestein ping-pong, 6174 points, on a factor.
        for n in [937, 1021, 2843, 3563] {
            assert!(design(n).fuses_convolution(), "{n}");
        }
        // 8192 points as 32 x 32 x 8 (bluestein_tuning.rs), under the launch bound too, fused.
        assert!(design(4093).tuning.min_blocks_per_sm == 2 && design(4093).fuses_convolution());
        assert!(!design(4096).fuses_convolution() && !design(4096).kernel_name().contains("split"));
        // The inverse transform's radices are the forward's reversed: its first pass is the
        // forward's last.
        let stages = design(2843).core.stages();
        assert_eq!((stages[0].radices.clone(), stages[1].radices.clone()), (vec![21, 21, 14], vec![14, 21, 21]));
    }

    #[test]
    fn bluestein_two_block_bound_where_it_binds_at_the_floor_or_whole_row_powers_of_two() {
        let blocks = |p: FftProblem| {
            let r = FftRecipe::design_by_heuristic(p, H200).unwrap();
            assert!(r.uses_bluestein(), "{}", r.kernel_name());
            (r.threads_per_block(), r.tuning.min_blocks_per_sm)
        };
        // 1286 = 2 x 643: two 1296-point convolutions over 162 threads; f32 unbound (also
        // R2C's odd rows, widened to complex ones: 1835 = 5 x 367), f64 bound.
        assert_eq!(blocks(FftProblem::c2c(1286, 100)), (162, 1));
        assert_eq!(blocks(FftProblem::r2c(1835, 100)), (245, 1));
        assert_eq!(blocks(FftProblem::c2c(1286, 100).f64()), (162, 2));
        // 1724 = 4 x 431: four 1024-point convolutions over 256 threads, the bound at the floor.
        assert_eq!(blocks(FftProblem::c2c(1724, 100)), (256, 2));
        // Whole rows of a power-of-two convolution: 821 (2048 points, 128 threads), 1877 (4096).
        assert_eq!(blocks(FftProblem::c2c(821, 100)), (128, 2));
        assert_eq!(blocks(FftProblem::c2c(1877, 100)), (256, 2));
        // Whole rows of 3072 points over 192 threads.
        assert_eq!(blocks(FftProblem::c2c(1381, 100)), (192, 1));
    }

    #[test]
    fn rader_writes_directly_only_from_passes_after_its_dfts() {
        let mut r = FftRecipe::design_by_heuristic(FftProblem::c2c(4001, 10), H200).unwrap();
        assert!(r.uses_rader() && !r.core.row_passes() && !r.tuning.direct_io);
        r.tuning.direct_io = true;
        assert!(r.check(H200).unwrap_err().to_string().contains("without direct_io"));
        // 2018 = 2 x 1009: a radix-2 pass after the two DFTs writes the row.
        let r = FftRecipe::design_by_heuristic(FftProblem::c2c(2018, 10), H200).unwrap();
        assert!(r.uses_rader() && r.core.row_passes() && r.tuning.direct_io);
    }
}
