//! The rows of a row-major transform taking on the first pass of a four-step split of the
//! axis before them (see the module above, nd_recipe.rs): one pass of R x n grids whose first
//! axis strides (R2C: real grids), then the column's rest, alone or with the axis above it as
//! grids over columns (`Planner::row_split`, `Planner::plan_row_split`); C2R's mirror, the
//! column's long part first and the rows last (`Planner::plan_rows_last`).

use super::{f32_rows_off_sectors, middle_buffer, FftPass, PassBuffer, Planner};
use crate::error::Result;
use crate::fft::axis_job::{AxisJob, MiddleOrder};
use crate::fft::factor::{is_smooth, largest_prime_factor};
use crate::fft::nd::FftNdProblem;
use crate::fft::problem::{FftKind, Placement, MAX_ROW_LEN, MAX_SINGLE_LAUNCH_LEN};
use crate::fft::split_costs::{columns_fit_three_blocks, fits_shared_padded, grid_cost, longest_row, pass_cost, SplitCosts};
use crate::fft::strided::{BatchDim, StridedIo, Values};
use crate::fft::transform_core::MAX_PRIME_RADIX;
use crate::fft::FftRecipe;

impl Planner {
    /// Whether the rows (axis `row`, the last of a row-major array of `shape`: complex, or
    /// R2C's reals) should take on the first pass of a four-step split of axis `column` (the
    /// next one planned): a [`RowSplit`] for pass A over R points, as one pass with the
    /// rows, a grid of R x n whose first axis strides (see `plan_row_split`; R2C: a real grid,
    /// its rows written as half spectra). A strided pass holds 16 columns of its axis in a
    /// block and slows down past 512 points (`pass_cost`), where contiguous rows do not:
    /// 1024^2 then runs as [2, 1024] grids and a strided pass of 512 points, not rows and a
    /// strided pass of 1024. `outer`, the axis planned after the column: the column's rest
    /// may share its pass, as grids over columns where three blocks of them fit a
    /// multiprocessor (`columns_fit_three_blocks`).
    pub(super) fn row_split(&mut self, shape: &[usize], row: usize, column: usize, outer: Option<usize>, kind: FftKind) -> Option<RowSplit> {
        self.cheapest_row_split(shape, row, column, outer, kind).map(|(_, split)| split)
    }

    /// `row_split`'s pick and its cost (`pass_cost`'s units, the outer axis's pass counted
    /// whether fused or not), where it is cheaper than no split.
    fn cheapest_row_split(&mut self, shape: &[usize], row: usize, column: usize, outer: Option<usize>, kind: FftKind) -> Option<(f64, RowSplit)> {
        let (n, len) = (shape[row], shape[column]);
        let real = kind != FftKind::C2C;
        // Values a row holds in shared memory (R2C: its half spectrum), and its core's length.
        let (line, core) = if real { (n / 2 + 1, n / 2) } else { (n, n) };
        if core < 2 || n > MAX_SINGLE_LAUNCH_LEN || (real && n % 2 == 1) || !is_smooth(core, MAX_PRIME_RADIX) || largest_prime_factor(len) > MAX_SINGLE_LAUNCH_LEN || shape[column + 1..row].iter().any(|&d| d > 1) {
            return None;
        }
        let bytes = crate::fft::recipe::complex_bytes(self.precision) as usize;
        // Grids of at least MIN_SPLIT_GRID values (a block of one grid has threads enough), in
        // a block's shared memory (real grids as `fused_trailing_axes` has them), and runs of
        // at least a 128-byte line.
        let fits = |r: usize| match real {
            false => (MIN_SPLIT_GRID..=longest_row(self.precision, self.limits).min(self.limits.shared_bytes as usize / bytes)).contains(&(r * n)),
            true => r * line >= MIN_SPLIT_GRID && r * n <= MAX_ROW_LEN && fits_shared_padded(r * line, self.precision, self.limits),
        };
        if line * bytes < 128 {
            return None;
        }
        // The axis planned after the column (C2R: before it), where the column's rest (C2R:
        // its long part) may share its pass (see `fused_columns`): next
        // to the column (but for axes of length 1), smooth.
        let outer = outer.filter(|&o| o < column && (2..=MAX_SINGLE_LAUNCH_LEN).contains(&shape[o]) && is_smooth(shape[o], MAX_PRIME_RADIX) && shape[o + 1..column].iter().all(|&d| d == 1));
        let outer_cost = outer.map_or(0.0, |o| self.costs.axis(shape[o], true).0);
        let unsplit = pass_cost(n, false, self.costs.long) + self.costs.axis(len, true).0 + outer_cost;
        // The column's rest: planned as any axis; C2R's runs before the grid, in one pass.
        let rest_cost = |costs: &mut SplitCosts, rest: usize| match kind {
            FftKind::C2R if rest > MAX_SINGLE_LAUNCH_LEN => f64::INFINITY,
            FftKind::C2R => pass_cost(rest, true, costs.long),
            _ => costs.axis(rest, true).0,
        };
        let mut best: Option<(f64, RowSplit)> = None;
        for r in (2..=len / 2).filter(|&r| len.is_multiple_of(r) && is_smooth(r, MAX_PRIME_RADIX) && fits(r)) {
            let grid = grid_cost(r, r * line, self.precision, self.limits);
            let apart = (grid + rest_cost(&mut self.costs, len / r) + outer_cost, RowSplit { column, points: r, outer: None });
            // The rest and the outer axis as grids over columns, one strided pass.
            let together = outer.map(|o| (o, shape[o] * (len / r))).filter(|&(_, m)| columns_fit_three_blocks(m, self.precision, self.limits) && is_smooth(len / r, MAX_PRIME_RADIX));
            let together = together.map(|(o, m)| (grid + pass_cost(m, true, self.costs.long), RowSplit { column, points: r, outer: Some(o) }));
            for (cost, split) in std::iter::once(apart).chain(together) {
                if cost < unsplit - 1e-9 && best.is_none_or(|(c, _)| cost < c - 1e-9) {
                    best = Some((cost, split));
                }
            }
        }
        best
    }

    /// Whether a row-major problem's two fused trailing axes (`fused`, a grid of one block a
    /// multiprocessor: `grid_cost`) should run instead as the rows with pass A of the column
    /// before them, the column's rest with the axis before it as grids over columns
    /// (`row_split`; C2R its mirror), where that costs less with the axis before counted
    /// either way: f32 128^3 then takes [32, 128] grids and [128, 4] over columns, three
    /// blocks a multiprocessor each, instead of 128 x 128 grids (one block) and a strided pass
    /// of 128; so do f64 R2C and C2R 128^3 (real 128 x 128 grids: 130 KiB). Real transforms
    /// out of place only, as the split takes them.
    pub(super) fn splits_rather_than_fusing(&mut self, problem: &FftNdProblem, fused: &[usize]) -> bool {
        let &[column, row] = fused else { return false };
        let (shape, outer, kind) = (&problem.shape, column.checked_sub(1), problem.kind);
        let in_place_real = kind != FftKind::C2C && problem.placement == Placement::InPlace;
        if in_place_real || !problem.is_row_major() || outer.is_none_or(|o| !problem.axes.contains(&o)) {
            return false;
        }
        let line = if kind == FftKind::C2C { shape[row] } else { shape[row] / 2 + 1 };
        let grid = grid_cost(shape[column], shape[column] * line, self.precision, self.limits);
        let apart = grid + outer.map_or(0.0, |o| self.costs.axis(shape[o], true).0);
        match self.cheapest_row_split(shape, row, column, outer, kind) {
            Some((cost, split)) => split.outer.is_some() && cost < apart - 1e-9,
            None => false,
        }
    }

    /// Axis `column` of a row-major array of `shape` (C2C; R2C: the reals, `spectrum` the
    /// half spectrum's shape) split four-step with pass A over `r` points, that pass also
    /// transforming the rows (the last axis, pass A's fastest batch dimension: contiguous on
    /// both sides): a strided grid pass of r x n, then the rest of the axis, over the
    /// spectrum, as `plan` has it; or, with `split.outer`, the rest and that axis in one pass
    /// of grids over columns (`fused_columns`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn plan_row_split(&mut self, shape: &[usize], spectrum: &[usize], split: RowSplit, kind: FftKind, from: PassBuffer, to: PassBuffer, middle_in_to: bool) -> Result<()> {
        let (n, column, r) = (shape[shape.len() - 1], split.column, split.points);
        let (pass_a, rest) = AxisJob::complex(spectrum, column).split(r);
        let io = rows_grid_io(pass_a, AxisJob::complex(shape, column).split(r).0, n, kind);
        let middle = middle_buffer(from, to, middle_in_to);
        let recipe = FftRecipe::design_strided_grid(&[r, n], kind, self.precision, io, self.limits)?;
        self.passes.push(FftPass { recipe, from, to: middle });
        match split.outer {
            Some(o) => {
                let io = fused_columns(&rest.io(), rest.len, spectrum[o]).expect("the outer axis lies right above the column's rest");
                let recipe = FftRecipe::design_column_grid(&[spectrum[o], rest.len], self.precision, io, self.limits)?;
                self.passes.push(FftPass { recipe, from: middle, to });
                Ok(())
            }
            None => self.plan(rest, middle, to, middle_in_to),
        }
    }

    /// C2R's mirror of `plan_row_split`: axis `column` of the half spectrum (`spectrum`, in
    /// `from`) split four-step with pass A over its long part, len / r points (strided, the
    /// four-step twiddle on its writes, into scratch), then pass B over the `r` points left
    /// fused with the halved rows into a real grid of r x n (rows len / r apart on both
    /// sides), which writes the reals (`shape`) to the output. With `split.outer`, pass A
    /// takes that axis too, as [n0, len / r] grids over columns (`fused_columns`), the
    /// twiddle on their last axis: pass A then leaves its values at n1 + N1 k2
    /// (`MiddleOrder::N1Inner`), where the outer axis continues them uniformly. Without it,
    /// f32 rows that start off 32-byte sectors (the half spectrum's odd width) leave them
    /// k2 outermost (`MiddleOrder::K2Outer`): pass A's runs of columns then start where its
    /// reads' do, not wherever row N2 n1 + k2 does, and pass B reads whole rows either way.
    /// Same-run A/B on an H200 (seventieth session): C2R f32 1024^2 x32 1.067x, 2048^2 x8
    /// 1.057x, 4096^2 x2 1.031x, 1024^3 1.077x; f64 (rows 16 bytes off) 0.99x-1.02x, so not.
    pub(super) fn plan_rows_last(&mut self, shape: &[usize], spectrum: &[usize], split: RowSplit, from: PassBuffer) -> Result<()> {
        let (n, column) = (shape[shape.len() - 1], split.column);
        let n2 = spectrum[column] / split.points;
        let order = match split.outer {
            Some(_) => MiddleOrder::N1Inner,
            None if f32_rows_off_sectors(spectrum[spectrum.len() - 1], self.precision) => MiddleOrder::K2Outer,
            None => MiddleOrder::K2Inner,
        };
        let (pass_a, rest) = AxisJob::complex(spectrum, column).split_as(n2, order);
        let middle = from.other_scratch();
        let first = match split.outer {
            Some(o) => {
                let io = fused_columns(&pass_a, n2, spectrum[o]).expect("the outer axis lies right above the column");
                FftRecipe::design_column_grid(&[spectrum[o], n2], self.precision, io, self.limits)?
            }
            None => FftRecipe::design_strided(n2, self.precision, pass_a, self.limits)?,
        };
        self.passes.push(FftPass { recipe: first, from, to: middle });
        // Pass B's input as the spectrum lies in scratch; its output, the reals'.
        let io = rows_grid_io(rest.io(), AxisJob::complex(shape, column).split_as(n2, order).1.io(), n, FftKind::C2R);
        let recipe = FftRecipe::design_strided_grid(&[split.points, n], FftKind::C2R, self.precision, io, self.limits)?;
        self.passes.push(FftPass { recipe, from: middle, to: PassBuffer::Output });
        Ok(())
    }
}

/// The layout of a pass whose grid also transforms the rows (`plan_row_split`,
/// `plan_rows_last`): `io`, a pass of the column's split over the complex values (C2C's array,
/// a real transform's half spectrum), without its fastest batch dimension (the rows, `n`
/// values contiguous on both sides, the grid's last axis); a real transform's reals side
/// (R2C's input, C2R's output) takes its strides from `reals`, the same pass over the reals.
fn rows_grid_io(mut io: StridedIo, mut reals: StridedIo, n: usize, kind: FftKind) -> StridedIo {
    let (rows, real_rows) = (io.batch.remove(0), reals.batch.remove(0));
    assert_eq!((rows.input, rows.output, real_rows.count, real_rows.input, real_rows.output), (1, 1, n, 1, 1), "the split's fastest batch dimension is the rows");
    let pairs = io.batch.iter_mut().zip(&reals.batch);
    match kind {
        FftKind::C2C => {}
        FftKind::R2C => {
            io.input_stride = reals.input_stride;
            pairs.for_each(|(d, r)| d.input = r.input);
            io.input_values = Values::Real;
        }
        FftKind::C2R => {
            io.output_stride = reals.output_stride;
            pairs.for_each(|(d, r)| d.output = r.output);
            io.output_values = Values::Real;
        }
    }
    if let Some(t) = io.twiddle.as_mut() {
        t.dim -= 1;
    }
    io
}

/// A strided pass over rows of `n` points (`io`: a split's rest, or C2R's pass A) with the `n0`
/// points of the axis right above them taken out of its batch (the innermost part of the
/// dimension `n` values apart on both sides): rows of [n0, n] grids whose values lie the pass's
/// stride apart (`FftRecipe::design_column_grid`, a four-step twiddle on the grid's last axis).
/// None where no dimension so continues the rows, the twiddle's dimension is that one, or a
/// side is not plain complex values.
fn fused_columns(io: &StridedIo, n: usize, n0: usize) -> Option<StridedIo> {
    let plain = io.input_values == Values::Complex && io.output_values == Values::Complex && io.chirps().next().is_none() && io.between.is_none();
    let next = |d: &BatchDim| d.input == n * io.input_stride && d.output == n * io.output_stride && d.count.is_multiple_of(n0);
    let at = io.batch.iter().position(next).filter(|&at| plain && n0 > 1 && io.twiddle.is_none_or(|t| t.dim != at))?;
    let mut io = io.clone();
    let d = io.batch[at];
    if d.count == n0 && io.batch.len() > 1 {
        io.batch.remove(at);
        if let Some(t) = io.twiddle.as_mut().filter(|t| t.dim > at) {
            t.dim -= 1;
        }
    } else {
        io.batch[at] = BatchDim { count: d.count / n0, input: d.input * n0, output: d.output * n0 };
    }
    Some(io)
}

/// How the rows take on the first pass of a column's four-step split (`Planner::row_split`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RowSplit {
    /// The column axis, and the points of it that pass A transforms with the rows.
    column: usize,
    points: usize,
    /// The axis right above the column whose pass the column's rest shares, as grids over
    /// the array's columns (`fused_columns`); None: the rest and that axis apart.
    outer: Option<usize>,
}

impl RowSplit {
    /// The axes whose passes the split's passes make: the column, and the outer axis fused.
    pub(super) fn axes(&self) -> Vec<usize> {
        std::iter::once(self.column).chain(self.outer).collect()
    }
}

/// The fewest points of a grid that takes on the rows and pass A of a split (`row_split`):
/// one grid a block, so fewer would leave its block few threads.
const MIN_SPLIT_GRID: usize = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fused_columns_continue_the_axis_by_the_dimension_right_above_it() {
        // The rest of 256^3's middle axis (4 points 16384 apart): the dimension 65536 apart
        // holds the first axis (256) and the batch (2); fused, the batch stays.
        let (_, rest) = AxisJob::complex(&[512, 256, 256], 1).split(64);
        assert_eq!((rest.len, rest.step.input), (4, 16384));
        let fused = fused_columns(&rest.io(), rest.len, 256).unwrap();
        assert_eq!((fused.input_stride, fused.output_stride), (16384, 16384));
        assert_eq!(fused.batch.iter().map(|d| (d.count, d.input)).collect::<Vec<_>>(), vec![(256, 1), (64, 256), (2, 1 << 24)]);
        // The whole dimension: dropped; a count it does not divide, or a real side: None.
        assert_eq!(fused_columns(&rest.io(), rest.len, 512).unwrap().batch.len(), 2);
        assert!(fused_columns(&rest.io(), rest.len, 3).is_none());
        let (_, real_rest) = AxisJob::halved(&FftNdProblem::r2c(&[16, 1024], &[1]), 1).split(32);
        assert!(fused_columns(&real_rest.io(), real_rest.len, 16).is_none());
        // C2R's pass A over the long part of 128 x 128 x 256's middle axis (4 points 32 rows
        // of 129 apart, written at n1 + 32 k2): the first axis (16512 apart both ways) leaves
        // the batch; the twiddle's dimension (the 32 rows n1) moves down with it.
        let (pass_a, _) = AxisJob::complex(&[2 * 128, 128, 129], 1).split_as(4, MiddleOrder::N1Inner);
        assert_eq!((pass_a.input_stride, pass_a.output_stride), (32 * 129, 32 * 129));
        let fused = fused_columns(&pass_a, 4, 128).unwrap();
        assert_eq!(fused.batch.iter().map(|d| (d.count, d.input, d.output)).collect::<Vec<_>>(), vec![(129, 1, 1), (32, 129, 129), (2, 128 * 16512, 128 * 16512)]);
        assert_eq!(fused.twiddle.map(|t| (t.len, fused.batch[t.dim].count)), Some((128, 32)));
        // K2Inner leaves k2 one row apart: the first axis does not continue the pass's rows.
        let (pass_a, _) = AxisJob::complex(&[2 * 128, 128, 129], 1).split(4);
        assert!(fused_columns(&pass_a, 4, 128).is_none());
    }
}
