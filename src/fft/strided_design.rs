//! How the planner designs a strided pass (the layouts strided.rs describes): the core and
//! threads of a row as the contiguous design has them, as many neighbouring rows a block as
//! make a 128-byte run of each line read (256 bytes where rows start off sectors), fewer where
//! shared memory would not hold them; grids whose first axis strides, and grids over a run of
//! the array's columns; where the four-step twiddles are grouped.

use super::factor::{is_smooth, StockhamModel, LARGEST_COMPOSITE_CODELET};
use super::fewer_passes::fewest_pass_radices;
use super::problem::{FftKind, FftProblem, Precision};
use super::recipe::{complex_bytes, DeviceLimits, FftRecipe, TwiddleSource};
use super::strided::{StridedIo, Values};
use super::transform_core::Core;
use crate::error::{Error, Result};

/// Bytes of neighbouring rows a strided pass's block reads together: 128, a whole line, where
/// shared memory allows (16 complex f32 rows, 8 complex f64). On an H200 (`bench fft --suite
/// strided`, [batch, L, 256] axis 1) 16 f32 rows ran at 0.91-0.97 of copy for L <= 512, 8 at
/// 0.65-0.80 and 4 at 0.50-0.63; at L = 1024 and 2048 the most rows that fit ran best too
/// (0.67 with 16, 0.50 with 8; fifty-second session 0.87 and 0.67), though a block then fills
/// a multiprocessor alone. Fewer rows a block launched as thread-block clusters, so that the
/// blocks reading one line start together, ran no faster (fifty-second session).
const STRIDED_RUN_BYTES: u64 = 128;

/// Bytes of neighbouring rows a strided pass's block reads together where its rows start off
/// 32-byte sectors (`StridedIo::rows_start_off_sectors`: the odd widths of half spectra, 129,
/// 257, 1025 complex values a row), so that a row's run straddles one sector more than it
/// fills: 256, where three blocks of them still fit a multiprocessor and the rows are
/// 13-smooth. Same-run A/Bs on an H200 (seventy-third session, docs/BENCHMARKS.md), 32 f32
/// rows (16 f64) against 16 (8), 256- and 128-point passes of three blocks or more: R2C/C2R
/// f32 256^3 1.018x/1.065x, f64 1.038x/1.030x; 256^2 x512 f32 1.028x/1.094x (C2R 0.99x -> 1.08x
/// cuFFT); f64 8192^2 1.064x/1.067x. Not taken where the wider block would leave one block a
/// multiprocessor (512-point passes, 132 KiB), which ran slower or faster by case (R2C f32
/// 1024^2 0.906x, 512^3 0.966x; C2R f32 1024^2 0.954x, 512^3 1.095x), nor for radix-17 rows
/// (69649's 17 x 17 pass: 0.937x).
const MISALIGNED_RUN_BYTES: u64 = 256;

/// The radices of a strided f32 pass whose block fills a multiprocessor alone (`fills`: its
/// shared memory is more than half the block's limit, so no second block overlaps its loads
/// with its arithmetic): two passes of codelets of up to 32 points where the length allows
/// (13-smooth codelets), each thread holding a whole codelet's values: fewer threads and
/// barriers, more loads in flight a thread. Only for the lengths measured faster so.
/// Lengths whose strided f32 passes ran faster as two long codelets with a twiddle read per
/// value, 16 rows a block (`bench fft --suite strided`, H200, against the planner's core
/// without the rule): 900 = 30 x 30 0.907 of copy against 10 x 10 x 9's 0.697, 1024 = 32 x 32
/// 0.864 against 16 x 16 x 4's 0.841 (seventy-third session; 0.908 / 0.697 and 0.865 / 0.838
/// in the seventy-fifth). In the twenty-sixth session 864 = 32 x 27 and 896 = 32 x 28 ran
/// faster so too, but the planner's own cores have since overtaken them: 864 as 16 x 9 x 6
/// 0.913 / 0.918 against 0.885 / 0.886, 896 as 16 x 8 x 7 0.923 / 0.917 against 0.878 / 0.878
/// (seventy-third / seventy-fifth). 960 = 32 x 30 ran at 0.837 / 0.832 against 16 x 10 x 6's
/// 0.913 / 0.908 and keeps its three passes.
const TWO_LONG_CODELET_LENS: [usize; 2] = [900, 1024];

fn two_long_codelets(len: usize, precision: Precision, fills: bool) -> Option<Vec<usize>> {
    if precision != Precision::F32 || !fills || !TWO_LONG_CODELET_LENS.contains(&len) {
        return None;
    }
    fewest_pass_radices(len, LARGEST_COMPOSITE_CODELET).filter(|r| r.len() == 2 && r.iter().all(|&radix| is_smooth(radix, 13)))
}

/// Smallest last radix whose butterflies group their four-step twiddles: below it A G[a] F[c]
/// saves at most one twiddle of four.
const GROUPED_TWIDDLE_MIN_RADIX: usize = 8;

/// Smallest last radix of an f64 pass of several blocks a multiprocessor that groups them.
const GROUPED_TWIDDLE_MIN_RADIX_F64_SHARED: usize = 16;

impl FftRecipe {
    /// Whether this strided pass applies its four-step twiddles in its core's last radix pass,
    /// grouped as A G[a] F[c] (`FftTuning::grouped_step_twiddles`; codegen/strided.rs's
    /// `StepTwiddleGroups` writes them): a twiddled plain Stockham core (whose last pass writes
    /// value x of the row as x), no filter between two transforms, no packed side (whose
    /// blocks hold rows in slots), a last radix of at least 8; and where it was measured to pay,
    /// a block that has a multiprocessor to itself, or in f64 a last radix of at least 16.
    ///
    /// Why: a pass that holds a multiprocessor with one block overlaps none of its arithmetic
    /// with memory, and the per-value twiddle was a fifth of such a pass's time (2^20's first
    /// pass of 1024 points, 16 columns a block, on an H200: 0.196 ms with it, 0.160 ms without,
    /// 0.186 ms grouped). Same-run A/B on an H200 (sixty-seventh session): 2^21 f32 1.09x, 2^20
    /// f32 1.02x, f64 2^16 (256-point passes, several blocks a multiprocessor) 1.02x; f32
    /// passes of several blocks a multiprocessor, whose arithmetic overlaps other blocks' memory
    /// traffic, gained nothing (2^16 0.998x) or lost (2^25's 256-point middle pass: 0.982x over
    /// the transform); f64 radix-8 passes (2^22's 128-point ones) ran 0.994x, their registers
    /// up from 86 to 124 (scripts/sass.py) for 5 twiddles instead of 8.
    pub(super) fn groups_step_twiddles(&self, limits: DeviceLimits) -> bool {
        let Some(io) = &self.io else { return false };
        let Core::Stockham { radices, .. } = &self.core else { return false };
        let radix = radices.last().copied().unwrap_or(1);
        let can = io.twiddle.is_some() && io.between.is_none() && self.packed_blocks().is_none() && radix >= GROUPED_TWIDDLE_MIN_RADIX;
        let one_block = limits.blocks_by_shared_memory(self.shared_bytes()) < 2;
        can && (one_block || (self.problem.precision == Precision::F64 && radix >= GROUPED_TWIDDLE_MIN_RADIX_F64_SHARED))
    }

    /// A pass of `len`-point C2C transforms over rows laid out as `io` says: the contiguous
    /// design's core and threads per row, with as many neighbouring rows per block as make a
    /// 128-byte run (256 bytes where rows start off sectors: MISALIGNED_RUN_BYTES), fewer
    /// where their shared memory would not fit the device's block.
    pub fn design_strided(len: usize, precision: Precision, io: StridedIo, limits: DeviceLimits) -> Result<FftRecipe> {
        io.validate(len, 1)?;
        let problem = FftProblem { batch: io.rows(), ..FftProblem::c2c(len, 1) }.precision(precision);
        problem.validate()?;
        let mut r = FftRecipe::design_core(problem, None, StockhamModel::STRIDED_GRID_RADER, limits)?;
        let bytes = complex_bytes(precision);
        // R2C's packed last pass holds columns and their mirror images: a run of each (on an
        // H200 against a run of both, twenty-eighth session: R2C 2^16 and 2^17 f32 1.29x, 2^22
        // to 2^26 1.10-1.15x, f64 1.00-1.15x). C2R's packed first pass (which also twiddles)
        // keeps one run: two ran 0.90-0.97x at most lengths.
        let halves = if matches!(io.output_values, Values::Packed(_)) { 2 } else { 1 };
        let rows_for = |run: u64| rows_fitting((halves * (run / bytes) as usize).min(halves * io.fastest_count().next_power_of_two()), r.core.region(), bytes, limits);
        let shared = |rows: u32| interleaved_rows_bytes(rows, r.core.region(), bytes);
        let rows = match rows_for(MISALIGNED_RUN_BYTES) {
            wide if io.rows_start_off_sectors(bytes) && is_smooth(len, 13) && limits.blocks_by_shared_memory(shared(wide)) >= 3 => wide,
            _ => rows_for(STRIDED_RUN_BYTES),
        };
        // A packed real side pairs each block's rows with their mirror columns: two at least.
        if io.packed().is_some() && rows < 2 {
            return Err(Error::Unsupported(format!("a packed real pass of {len}-point rows needs two rows a block in shared memory")));
        }
        if let Some(radices) = two_long_codelets(len, precision, shared(rows) > limits.shared_bytes / 2) {
            r.tuning.threads_per_transform = (len / radices.iter().max().expect("two radices")) as u32;
            // A twiddle read per value: 31 powers of one read would compound its rounding
            // (1024 points on PoCL: 1.1e-7 relative error so, 3.9e-7 by powers, 1.8e-7 for
            // 16 x 16 x 4 by powers).
            r.tuning.twiddles = TwiddleSource::Table;
            r.core = Core::Stockham { len, radices };
        }
        let t = &mut r.tuning;
        t.transforms_per_block = rows;
        t.threads_per_transform = t.threads_per_transform.min((limits.max_threads / rows).max(1));
        t.direct_io = false;
        t.staged_store = false;
        t.drop_padding();
        t.min_blocks_per_sm = 1;
        // In place: ping-pong was measured on contiguous rows only, and strided blocks hold
        // many rows already.
        t.ping_pong = false;
        r.io = Some(io);
        let mut r = r.with_direct_columns();
        r.tuning.grouped_step_twiddles = r.groups_step_twiddles(limits);
        debug_assert_eq!(r.problem.kind, FftKind::C2C);
        r.check(limits)?;
        Ok(r)
    }

    /// A strided pass whose rows are grids of `shape` (see [`crate::fft::transform_core::Core::Grid`]),
    /// transformed along every axis: value i = a L + c of row b (L the product of the trailing
    /// axes) lies at offset(b) + a * stride + c, so that the grid's first axis strides as `io`
    /// says and the rest of it is a contiguous run of L values (see
    /// [`FftRecipe::strided_run`]). This is how the rows of a row-major array take on the first
    /// pass of a four-step split of the axis before them (nd_recipe.rs, `Planner::row_split`).
    /// The contiguous kernels' grid (its first axis read straight from global memory, its
    /// shared memory padded), one grid a block: only its global addresses and the four-step
    /// twiddle differ (codegen/io.rs).
    ///
    /// `kind` R2C: a real grid (`design_real_grid`), its last axis the reals' (read as pairs
    /// from `io`'s input, in reals) and its rows written as half spectra.
    pub fn design_strided_grid(shape: &[usize], kind: FftKind, precision: Precision, io: StridedIo, limits: DeviceLimits) -> Result<FftRecipe> {
        let mut r = match kind {
            FftKind::C2C => FftRecipe::design_grid(shape, io.rows(), precision, limits)?,
            kind => FftRecipe::design_real_grid(shape, io.rows(), kind, precision, limits)?,
        };
        r.tuning.transforms_per_block = 1;
        r.io = Some(io);
        // Its threads: as many as one of its passes has butterflies, the count that issues the
        // least work (ties keep the grid's own design). A [2, 1024] grid's radix-2 pass has
        // 1024 butterflies, its radix-16 ones 128: 128 threads, each pass in one round but the
        // radix-2 one in 8, not 512 mostly idle (1024^2 f32 ran 1.2x faster so on an H200,
        // fifteenth session).
        r.tuning.threads_per_transform = r.threads_of_least_work(limits.max_threads, TiedThreads::KeepOwn);
        // Large blocks: a launch bound that buys a second block a multiprocessor.
        let r = r.with_grid_launch_bound(limits);
        r.check(limits)?;
        Ok(r)
    }

    /// A strided pass whose rows are C2C grids of `shape`, transformed along every axis, with
    /// value i of a row (row-major in the grid) `io`'s stride apart as in any strided pass, and
    /// neighbouring rows (columns of the array) together in a block: two axes of an array in
    /// one pass where the outer one's stride is the inner one's times its length, so that the
    /// grid's values lie uniformly apart. A 128 x 128 x 256 transform so runs in two passes:
    /// its rows with pass A of the middle axis's four-step split (`design_strided_grid`), then
    /// the middle axis's last 4 points with the first axis's 128 as [128, 4] grids over columns
    /// (`Planner::row_split`, nd_recipe.rs), instead of three. A four-step twiddle applies to
    /// the grid's last axis (C2R's mirror: the first axis with pass A of the middle axis's
    /// split, `Planner::plan_rows_last`): value i of the row is multiplied as value i mod n of
    /// an n-point pass would be.
    ///
    /// Rows a block as `design_strided`'s (runs of STRIDED_RUN_BYTES, halved until the block
    /// fits shared memory); threads: those of one of the grid's passes, the count that issues
    /// the least work over the block's threads (fewer on ties).
    pub fn design_column_grid(shape: &[usize], precision: Precision, io: StridedIo, limits: DeviceLimits) -> Result<FftRecipe> {
        let len: usize = shape.iter().product();
        io.validate(len, 1)?;
        if io.input_values != Values::Complex || io.output_values != Values::Complex || io.input_chirp.is_some() || io.output_chirp.is_some() || io.between.is_some() {
            return Err(Error::invalid(format!("grids over columns are complex on both sides, without a Bluestein step: {io:?}")));
        }
        let mut r = FftRecipe::design_grid(shape, io.rows(), precision, limits)?;
        let bytes = complex_bytes(precision);
        let rows = rows_fitting(((STRIDED_RUN_BYTES / bytes) as usize).min(io.fastest_count().next_power_of_two()), len, bytes, limits);
        let t = &mut r.tuning;
        t.transforms_per_block = rows;
        t.direct_io = false;
        t.staged_store = false;
        t.drop_padding();
        t.min_blocks_per_sm = 1;
        t.ping_pong = false;
        t.grid_columns = true;
        r.io = Some(io);
        r.tuning.threads_per_transform = r.threads_of_least_work((limits.max_threads / rows).max(1), TiedThreads::Fewest);
        r.check(limits)?;
        Ok(r)
    }

    /// Threads a row for a grid pass: among the butterfly counts of the core's passes (at most
    /// `most` each), the count whose rows issue the least work (`issued_work`, idle threads
    /// counted), ties broken as `tied` says.
    fn threads_of_least_work(&self, most: u32, tied: TiedThreads) -> u32 {
        let mut r = self.clone();
        let own = self.tuning.threads_per_transform;
        let counts = self.core.pass_butterflies().into_iter().map(|(_, b)| (b as u32).clamp(1, most));
        let candidates: Vec<u32> = match tied {
            TiedThreads::KeepOwn => std::iter::once(own).chain(counts).collect(),
            TiedThreads::Fewest => counts.collect(),
        };
        let mut best: Option<(usize, u32)> = None;
        for threads in candidates {
            r.tuning.threads_per_transform = threads;
            let work = r.issued_work();
            let better = match (best, tied) {
                (None, _) => true,
                (Some((w, _)), TiedThreads::KeepOwn) => work < w,
                (Some(b), TiedThreads::Fewest) => (work, threads) < b,
            };
            if better {
                best = Some((work, threads));
            }
        }
        best.map_or(1, |b| b.1)
    }
}

/// Shared memory of a strided block of `rows` rows of `values` values of `bytes` each,
/// interleaved: rows + 1 apart (a spare slot against bank conflicts), a lone row unpadded.
fn interleaved_rows_bytes(rows: u32, values: usize, bytes: u64) -> u64 {
    let stride = if rows == 1 { 1 } else { rows as u64 + 1 };
    stride * values as u64 * bytes
}

/// Shared memory of a block of grids of `values` points over a whole run of columns
/// (STRIDED_RUN_BYTES: 16 f32, 8 f64), as `FftRecipe::design_column_grid` designs it where it fits.
pub(super) fn column_grid_bytes(values: usize, precision: Precision) -> u64 {
    let bytes = complex_bytes(precision);
    interleaved_rows_bytes((STRIDED_RUN_BYTES / bytes) as u32, values, bytes)
}

/// Rows a strided block takes: `wanted` (at least one), halved until their interleaved rows
/// (`interleaved_rows_bytes`) fit shared memory.
fn rows_fitting(wanted: usize, values: usize, bytes: u64, limits: DeviceLimits) -> u32 {
    let mut rows = wanted.max(1) as u32;
    while rows > 1 && interleaved_rows_bytes(rows, values, bytes) > limits.shared_bytes {
        rows /= 2;
    }
    rows
}

/// How `FftRecipe::threads_of_least_work` breaks a tie in work: the recipe's own count
/// (strided grids, as designed), or the fewest threads (grids over columns).
#[derive(Clone, Copy)]
enum TiedThreads {
    KeepOwn,
    Fewest,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fft::strided::{BatchDim, StepTwiddle};

    #[test]
    fn grids_over_columns_take_a_run_of_columns_a_block() {
        let lim = DeviceLimits::H200;
        // [128, 4] grids, values 8192 apart, over 256 x 32 neighbouring columns.
        let io = StridedIo::complex(8192, vec![BatchDim { count: 8192, input: 1, output: 1 }, BatchDim { count: 2, input: 1 << 22, output: 1 << 22 }]);
        let r = FftRecipe::design_column_grid(&[128, 4], Precision::F32, io.clone(), lim).unwrap();
        assert!(r.tuning.grid_columns && !r.is_strided_grid() && r.kernel_name().contains("_cols"));
        assert_eq!((r.tuning.transforms_per_block, r.strided_run(), r.buffer_values()), (16, 1, 17 * 512));
        // f64: 8 columns (128 bytes); columns of 4096-point grids halve the run to fit.
        assert_eq!(FftRecipe::design_column_grid(&[128, 4], Precision::F64, io.clone(), lim).unwrap().tuning.transforms_per_block, 8);
        assert_eq!(FftRecipe::design_column_grid(&[256, 16], Precision::F32, io.clone(), lim).unwrap().tuning.transforms_per_block, 4);
        // A four-step twiddle is on the grid's last axis; a real side is not theirs.
        let twiddled = FftRecipe::design_column_grid(&[128, 4], Precision::F32, StridedIo { twiddle: Some(StepTwiddle { len: 512, dim: 0 }), ..io.clone() }, lim).unwrap();
        assert!(crate::fft::FftPlan::source(&twiddled).body.contains("step_twiddle(tables, (step * (i % 4u)) % 512u)"));
        assert!(FftRecipe::design_column_grid(&[128, 4], Precision::F32, StridedIo { output_values: Values::Real, ..io }, lim).is_err());
    }

    #[test]
    fn rows_off_sectors_take_a_run_of_256_bytes_where_three_blocks_fit() {
        let lim = DeviceLimits::H200;
        let rows = |len: usize, stride: usize, precision| {
            let io = StridedIo::complex(stride, vec![BatchDim { count: 129 * 64, input: 1, output: 1 }]);
            FftRecipe::design_strided(len, precision, io, lim).unwrap().tuning.transforms_per_block
        };
        // R2C 256^3's pass over its 129-wide half spectrum: values 1032 bytes apart, 3 of 4
        // rows' runs off sectors: 32 f32 rows (66 KiB, three blocks), 16 f64.
        assert_eq!((rows(256, 129, Precision::F32), rows(256, 129, Precision::F64)), (32, 16));
        assert!(StridedIo::complex(129, vec![BatchDim { count: 8, input: 1, output: 1 }]).rows_start_off_sectors(8));
        // On sectors (256 values apart) or two values to a sector (f64 130): a 128-byte run.
        assert_eq!((rows(256, 256, Precision::F32), rows(256, 130, Precision::F64)), (16, 8));
        // A run of 256 bytes of 512-point rows would leave one block a multiprocessor; rows of
        // 17 x 17 take radix-17 codelets (their wider blocks ran slower): 128 bytes.
        assert_eq!((rows(512, 513, Precision::F32), rows(289, 129, Precision::F32)), (16, 16));
        // Columns not one element apart, or a real side: no run to widen.
        assert!(!StridedIo::complex(129, vec![BatchDim { count: 8, input: 2, output: 2 }]).rows_start_off_sectors(8));
        let real = StridedIo { input_values: Values::Real, ..StridedIo::complex(129, vec![BatchDim { count: 8, input: 1, output: 1 }]) };
        assert!(!real.rows_start_off_sectors(8));
    }

    #[test]
    fn the_planner_groups_the_four_step_twiddles_where_they_were_measured_to_pay() {
        // Which passes of a long 1D C2C transform group their twiddles, in pass order.
        let grouped = |n: usize, precision: Precision| -> Vec<bool> {
            let r = crate::fft::FftNdRecipe::design(crate::fft::FftNdProblem::c2c_1d(n, 1).precision(precision), DeviceLimits::H200).unwrap();
            r.passes.iter().map(|p| p.recipe.tuning.grouped_step_twiddles).collect()
        };
        // 2^20 f32: two 1024-point passes of 16 columns, 136 KiB, one block a multiprocessor:
        // the twiddled first pass groups, and its kernel's name says so.
        assert_eq!(grouped(1 << 20, Precision::F32), [true, false]);
        let r = crate::fft::FftNdRecipe::design(crate::fft::FftNdProblem::c2c_1d(1 << 20, 1), DeviceLimits::H200).unwrap();
        assert!(r.passes[0].recipe.kernel_name().contains("_gtw") && !r.passes[1].recipe.kernel_name().contains("_gtw"));
        // 2^16: 256-point passes of several blocks a multiprocessor group in f64 (radix 16)
        // only; 2^22 f64's 128-point passes (radix 8) do not.
        assert_eq!(grouped(1 << 16, Precision::F32), [false, false]);
        assert_eq!(grouped(1 << 16, Precision::F64), [true, false]);
        assert!(!grouped(1 << 22, Precision::F64).contains(&true));
        // On a device whose multiprocessor holds two such blocks, 2^20 f32 does not group.
        let roomy = DeviceLimits { shared_bytes: 2 * DeviceLimits::H200.shared_bytes, ..DeviceLimits::H200 };
        let r = crate::fft::FftNdRecipe::design(crate::fft::FftNdProblem::c2c_1d(1 << 20, 1), roomy).unwrap();
        assert!(r.passes.iter().all(|p| !p.recipe.tuning.grouped_step_twiddles));
    }

    #[test]
    fn long_rows_that_fill_a_multiprocessor_take_two_passes_of_long_codelets() {
        // 1024 points, 16 columns a block: 136 KiB of 227 on an H200, 32 x 32 with a thread per
        // codelet; where a block has room for two such blocks, or in f64, as designed before.
        let io = |cols: usize| StridedIo::complex(cols, vec![BatchDim { count: cols, input: 1, output: 1 }]);
        let h200 = DeviceLimits::H200;
        let r = FftRecipe::design_strided(1024, Precision::F32, io(64), h200).unwrap();
        assert_eq!((r.core.clone(), r.tuning.threads_per_transform, r.tuning.transforms_per_block), (Core::Stockham { len: 1024, radices: vec![32, 32] }, 32, 16));
        assert_eq!(r.tuning.twiddles, TwiddleSource::Table);
        let roomy = DeviceLimits { shared_bytes: 512 << 10, ..h200 };
        for r in [FftRecipe::design_strided(1024, Precision::F32, io(64), roomy).unwrap(), FftRecipe::design_strided(1024, Precision::F64, io(64), h200).unwrap()] {
            assert_ne!(r.core, Core::Stockham { len: 1024, radices: vec![32, 32] }, "{}", r.describe());
        }
        assert_eq!(FftRecipe::design_strided(900, Precision::F32, io(64), h200).unwrap().core, Core::Stockham { len: 900, radices: vec![30, 30] });
        // 960, 864 and 896 keep the planner's core of three passes, which runs faster.
        for len in [960, 864, 896] {
            assert_eq!(FftRecipe::design_strided(len, Precision::F32, io(64), h200).unwrap().core.passes(), 3, "{len}");
        }
        // 512 points: 68 KiB, three blocks a multiprocessor.
        assert_ne!(FftRecipe::design_strided(512, Precision::F32, io(64), h200).unwrap().core.passes(), 2);
    }

    #[test]
    fn columns_of_large_blocks_are_read_and_written_in_the_core_passes() {
        let h200 = DeviceLimits::H200;
        // Columns both ways (stride 1024), 16 rows a block of 1024 or 512 points (136 / 68
        // KiB): direct both ways; of 256 points (34 KiB): staged.
        let columns = StridedIo::complex(1024, vec![BatchDim { count: 1024, input: 1, output: 1 }]);
        for len in [1024, 512] {
            let r = FftRecipe::design_strided(len, Precision::F32, columns.clone(), h200).unwrap();
            assert!(r.tuning.direct_io && r.reads_columns_directly() && r.writes_columns_directly(), "{}", r.kernel_name());
            assert!(r.kernel_name().contains("_d_s"), "{}", r.kernel_name());
        }
        let r = FftRecipe::design_strided(256, Precision::F32, columns.clone(), h200).unwrap();
        assert!(!r.tuning.direct_io && !r.reads_columns_directly(), "{}", r.kernel_name());
        // Columns in, contiguous rows out (a four-step pass A): only the input side is direct;
        // the first pass reads global memory, the rows are stored staged.
        let rows_out = StridedIo { output_stride: 1, batch: vec![BatchDim { count: 1024, input: 1, output: 1024 }], ..columns.clone() };
        let r = FftRecipe::design_strided(1024, Precision::F32, rows_out, h200).unwrap();
        assert!(r.reads_columns_directly() && !r.writes_columns_directly(), "{}", r.kernel_name());
        let source = crate::fft::FftPlan::source(&r).body;
        assert!(source.contains("in the core's first pass") && source.contains("read_value(in_row, tables, g0, j + 32u, sign)"));
        assert!(source.contains("store: contiguous rows 1024 apart"));
        // direct_io on a pass with no side of columns is refused.
        let rows_both = StridedIo { input_stride: 1, output_stride: 1, batch: vec![BatchDim { count: 1024, input: 1024, output: 1024 }], ..columns };
        let mut r = FftRecipe::design_strided(1024, Precision::F32, rows_both, h200).unwrap();
        assert!(!r.tuning.direct_io);
        r.tuning.direct_io = true;
        assert!(r.check(h200).is_err());
    }
}
