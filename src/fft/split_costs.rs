//! What the multi-pass planner (nd_recipe.rs) expects each pass to cost: one pass over the
//! whole array as 1 / its fraction of copy bandwidth, by its kind (contiguous rows, strided
//! rows, grids) and length, as measured on an H200; and from that the cheapest split of each
//! axis into passes (four-step), and Bluestein's convolution length over passes.

use super::factor::{is_smooth, largest_prime_factor};
use super::problem::{Precision, MAX_ROW_LEN, MAX_SINGLE_LAUNCH_LEN};
use super::recipe::{complex_bytes, DeviceLimits};
use super::strided_design::column_grid_bytes;

/// Relative time of a pass of grids of `rows` x n (`values` complex values in all) each in a
/// block's shared memory, as `pass_cost`, by the blocks a multiprocessor holds at once: a 64 x
/// 64 f32 grid (32 KiB, seven blocks) ran at 0.97 of copy on an H200, 128 x 128 (128 KiB, one
/// block) at 0.65 (fourth session, docs/BENCHMARKS.md). Of f64 grids of one block, [2, 4096]
/// ran at about 0.77 (fifty-second session: its two-pass 4096^2 1.17x three passes), while
/// [4, 2048] ran slower than 2048^2's [2, 2048] grids and 1024-point strided pass (0.91x,
/// fifty-third session); f64 R2C and C2R real grids of 4 x 1025 values, three blocks, ran
/// 1.08x the [2, 1025] grids and 1024-point strided passes they replaced.
pub(super) fn grid_cost(rows: usize, values: usize, precision: Precision, limits: DeviceLimits) -> f64 {
    let three_blocks = fits_shared_padded(3 * values, precision, limits);
    let fraction = match (three_blocks, precision, rows) {
        (true, ..) => 0.93,
        (false, Precision::F64, 2) => 0.77,
        _ => 0.65,
    };
    1.0 / fraction
}

/// Whether a block of grids of `values` points over a 128-byte run of columns (16 f32, 8
/// f64: `FftRecipe::design_column_grid`) leaves room for three blocks a multiprocessor, the
/// only grids over columns the planner fuses (see `Planner::row_split`). Measured on an H200
/// (sixty-ninth session, docs/BENCHMARKS.md), the rest of the middle axis fused with the first:
/// f64 128^3 ([32, 128] grids, then [128, 4] over 8 columns, 72 KiB: three blocks) 1.44x its
/// three passes; f32 256^3 ([64, 256], then [256, 4] over 16 columns, 136 KiB: one block, and
/// so the grids before) 0.97x, R2C 0.88x, and 0.93x-0.98x with blocks of 4 or 8 columns or
/// [32, 256] and [256, 8] grids instead: passes of one block a multiprocessor overlap nothing.
pub(super) fn columns_fit_three_blocks(values: usize, precision: Precision, limits: DeviceLimits) -> bool {
    values <= MAX_SINGLE_LAUNCH_LEN && limits.blocks_by_shared_memory(column_grid_bytes(values, precision)) >= 3
}

/// Relative time of one pass of `len` points over the whole array: 1 / its fraction of copy
/// bandwidth. Strided passes hold 16 rows of up to 512 points per block (f64: 8, the same
/// bytes) and ran at 0.91-0.97 of copy on an H200 (`bench fft --suite strided`); longer rows
/// leave room for fewer rows and run slower, as `long` says. Lengths with a prime factor over
/// 13 run Rader's or Bluestein's algorithm, about twice as slow.
pub(super) fn pass_cost(len: usize, strided: bool, long: LongStridedRows) -> f64 {
    let fraction = match (strided, len) {
        (false, _) => 0.95,
        (true, ..=512) => 0.93,
        (true, ..=1024) => long.at_1024,
        (true, ..=2048) => long.at_2048,
        (true, _) => 0.40,
    };
    let algorithm = if largest_prime_factor(len) > 13 { 2.0 } else { 1.0 };
    algorithm / fraction
}

/// Fractions of copy bandwidth that strided passes of 1024 and 2048 points run at (past 2048:
/// 0.40, twenty-sixth session).
#[derive(Debug, Clone, Copy)]
pub(super) struct LongStridedRows {
    at_1024: f64,
    at_2048: f64,
}

impl LongStridedRows {
    /// What the passes of four-step splits ran at in a same-run A/B on an H200 (fifty-second
    /// session, docs/BENCHMARKS.md; lone strided passes over [batch, L, 256] ran faster, 0.87
    /// at 1024 and 0.67 at 2048): 1024 points 0.73 (each of 2^20's two passes, f32 and f64),
    /// 2048 points 0.54 (2^21's pass B: 0.57 in f32, 0.55 in f64; 0.48 after 4096^2's
    /// [2, 4096] grids). Of the plans that A/B timed, these pick the faster in every case but
    /// f64 4096^2 (two passes ran 1.17x: its [2, 4096] grids ran faster than the f32 grids
    /// `grid_cost` is fitted to).
    pub(super) const SPLIT: LongStridedRows = LongStridedRows { at_1024: 0.73, at_2048: 0.54 };
    /// R2C's axes of half length, whose last pass writes a packed half spectrum staged through
    /// shared memory: the twenty-sixth session's fractions, which their plans were measured
    /// under. In two passes R2C of 2^22 ran 0.82x of three where that last pass was over 2048
    /// points, 0.96x where over 1024 (f64 0.82x, 0.92x).
    pub(super) const PACKED_R2C: LongStridedRows = LongStridedRows { at_1024: 0.67, at_2048: 0.50 };
}

/// The cheapest way to transform an axis of each length, remembered: (cost, the length of
/// pass A when it is split, None for one pass).
pub(super) struct SplitCosts {
    known: std::collections::HashMap<(usize, bool), (f64, Option<usize>)>,
    /// Contiguous rows up to this length (13-smooth) run in one launch; 0: up to
    /// MAX_SINGLE_LAUNCH_LEN only.
    pub(super) long_row: usize,
    pub(super) long: LongStridedRows,
}

impl SplitCosts {
    pub(super) fn new(long_row: usize, long: LongStridedRows) -> Self {
        SplitCosts { known: Default::default(), long_row, long }
    }
}

/// The longest contiguous row of `precision` one launch transforms on a device: up to
/// MAX_ROW_LEN points whose values, with a spare slot per 16 against bank conflicts, fit a
/// block's shared memory (16384 in f32 and 8192 in f64 on an H100 or H200).
pub(super) fn longest_row(precision: Precision, limits: DeviceLimits) -> usize {
    let mut len = MAX_ROW_LEN;
    while len > MAX_SINGLE_LAUNCH_LEN && !fits_shared_padded(len, precision, limits) {
        len /= 2;
    }
    len
}

/// Whether `values` complex values of `precision`, with a spare slot per 16 against bank
/// conflicts, fit a block's shared memory.
pub(super) fn fits_shared_padded(values: usize, precision: Precision, limits: DeviceLimits) -> bool {
    values as u64 * complex_bytes(precision) * 17 / 16 <= limits.shared_bytes
}

impl SplitCosts {
    pub(super) fn axis(&mut self, n: usize, strided: bool) -> (f64, Option<usize>) {
        if let Some(&c) = self.known.get(&(n, strided)) {
            return c;
        }
        let mut best: (f64, Option<usize>) = (f64::INFINITY, None);
        if n <= MAX_SINGLE_LAUNCH_LEN || (!strided && n <= self.long_row && is_smooth(n, 13)) {
            best = (pass_cost(n, strided, self.long), None);
        }
        // Pass A over n2 points (strided), then the rest as a strided axis of n / n2.
        for n2 in (2..=MAX_SINGLE_LAUNCH_LEN.min(n / 2)).filter(|&d| n.is_multiple_of(d)) {
            let cost = pass_cost(n2, true, self.long) + self.axis(n / n2, true).0;
            // Ties go to the balanced split: fewer long rows.
            if cost < best.0 - 1e-9 || (cost < best.0 + 1e-9 && best.1.is_some_and(|b| n2.abs_diff(n / n2) < b.abs_diff(n / b))) {
                best = (cost, Some(n2));
            }
        }
        self.known.insert((n, strided), best);
        best
    }
}

/// The cost of a Bluestein convolution of a smooth length that is not a power of two,
/// relative to [`pass_cost`]'s: its passes (radices 7 and 9, rows of 504 or 189 points) ran
/// slower than the power of two's (radices 16 and 8, rows of 64..512), so a power of two up
/// to this much longer is taken. Same-run A/B on an H200 (forty-eighth session, `bench fft
/// --suite large-1d`): 2^21 against 2000376 = 504 x 63 x 63 for 1000003 points 1.40x faster
/// (R2C and C2R too), against 1835008 = 512 x 56 x 64 for 911773 1.02x, against 1679616 =
/// 486 x 54 x 64 for 838871 1.04x.
const SMOOTH_CONVOLUTION_COST: f64 = 1.3;

impl SplitCosts {
    /// The length of Bluestein's convolution for an axis of `n` points: among the 7-smooth
    /// lengths from 2n - 1 to a quarter more, and the next power of two, the one whose passes
    /// move the fewest bytes by [`pass_cost`] (length x cost, the smaller length on ties;
    /// other lengths than powers of two cost [`SMOOTH_CONVOLUTION_COST`] times more).
    /// Longer ones would need a pass fewer to pay off, which a quarter more length buys
    /// already; searching to the power of two took a second and a half at 10^6 points.
    pub(super) fn bluestein_len(&mut self, n: usize) -> usize {
        let lo = 2 * n - 1;
        let pow2 = lo.next_power_of_two();
        let candidates = (lo..=pow2.min(lo + lo / 4)).filter(|&m| is_smooth(m, 7)).chain([pow2]);
        let mut best = (f64::INFINITY, pow2);
        for m in candidates {
            let c = self.axis(m, true).0 * m as f64 * if m.is_power_of_two() { 1.0 } else { SMOOTH_CONVOLUTION_COST };
            if c < best.0 - 1e-9 {
                best = (c, m);
            }
        }
        best.1
    }
}

/// The passes' lengths an axis of `n` points is planned in, in order (pass A's first), and
/// their relative cost. Empty when `n` has a prime factor over MAX_SINGLE_LAUNCH_LEN.
pub fn axis_cost(n: usize, strided: bool) -> (f64, Vec<usize>) {
    let mut costs = SplitCosts::new(0, LongStridedRows::SPLIT);
    let (cost, _) = costs.axis(n, strided);
    if !cost.is_finite() {
        return (cost, Vec::new());
    }
    let (mut lens, mut rest, mut s) = (Vec::new(), n, strided);
    while let (_, Some(n2)) = costs.axis(rest, s) {
        lens.push(n2);
        rest /= n2;
        s = true;
    }
    lens.push(rest);
    (cost, lens)
}
