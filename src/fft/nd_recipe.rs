//! Planning a multi-dimensional or long transform ([`FftNdProblem`]) as a sequence of
//! single-launch passes, each one read and one write of the whole array:
//!
//! - an axis of length up to [`MAX_SINGLE_LAUNCH_LEN`] takes one pass: contiguous rows for the
//!   last axis, otherwise a strided pass whose blocks take neighbouring columns; contiguous
//!   13-smooth rows take one up to the longest a block's shared memory holds (`longest_row`:
//!   16384 f32 points), even real rows up to twice that (their kernels transform the complex
//!   row of half their length);
//! - a longer axis of length N = N1 N2 takes two (four-step, with the twiddle and the
//!   transposition folded into the passes): pass A transforms over n2 the values
//!   x[n1 + N1 n2], multiplies by e^{-2 pi i n1 k2/N} and writes Y[n1, k2] at N2 n1 + k2;
//!   pass B transforms over n1 and leaves X[k2 + N2 k1] where it read Y[k1, k2]. (f32
//!   columns of an odd-width half spectrum keep Y at n1 + N1 k2 instead, in a buffer apart,
//!   or k2 outermost before C2R's rows: see `MiddleOrder`.)
//!   Pass B is itself an axis (of length N1, with N2 inner values), split again where that
//!   is cheaper: strided passes over long rows hold few rows per block and run slowly, so
//!   2^24 runs as three passes of 256 rather than two of 4096 (see [`axis_cost`]). Strided
//!   axes of 2049 to 4096 points split so too, but for a lone C2C f32 column of 4096 points
//!   over enough columns, which one pass transforms faster (`Planner::lone_long_column`);
//! - short trailing axes of a row-major C2C transform whose points fit one block's shared
//!   memory take one pass together, a grid transformed along each of its axes in shared memory
//!   (`Core::Grid`; see `fused_trailing_axes`): 64^3 in two passes, 16^3 in one; so do those
//!   of a real transform out of place whose halved axis is the last (a real grid, its half
//!   spectrum in shared memory);
//! - the rows of a row-major C2C transform (its last axis; R2C's halved rows too, out of
//!   place) may take on pass A of a four-step split of the axis before them, where that axis
//!   is too long for one good strided pass: one pass of R x n grids (R2C: real grids) whose
//!   first axis strides (`FftRecipe::design_strided_grid`), then the rest of the column as a
//!   short strided pass (see `Planner::row_split`): 1024^2 runs as [2, 1024] grids and a
//!   strided pass of 512, 4096^2 in two passes, not three. C2R mirrors it: the column's long
//!   part first, then its last R points with the halved rows (`Planner::plan_rows_last`).
//!   C2C and R2C: the column's rest may share its pass with the axis before the column, as
//!   grids over the array's columns (`fused_columns`,
//!   `FftRecipe::design_column_grid`) where three of their blocks fit a multiprocessor:
//!   128 x 128 x 256 and f64 128^3 in two passes, not three; f32 128^3 so rather than as
//!   128 x 128 grids of one block a multiprocessor (`Planner::splits_rather_than_fusing`);
//! - an axis with a prime factor over MAX_SINGLE_LAUNCH_LEN runs Bluestein's algorithm over
//!   passes: two transforms of a smooth length m >= 2N - 1, each split as above, through a
//!   scratch copy of the array padded to m along the axis; the chirps, the zero padding and
//!   the filter's product ride on their first read and last writes ([`Chirp`](super::strided::Chirp)).
//!
//! Real transforms: R2C transforms the halved axis first (its first pass reads the reals, its
//! last writes the half spectrum; or a real grid of it and the short axes before it), then
//! the other axes of the half spectrum in place; C2R the other axes first, into scratch, then
//! the halved axis (its first pass reads the half spectrum, its last writes the reals; or the
//! real grid). Values between the passes of the halved axis are complex, laid out as the
//! array's whole shape, in scratch. A halved axis whose reals pair up (contiguous along it)
//! runs as the complex axis of half its length, x\[2n\] + i x\[2n+1\], split as C2C's, the
//! spectra of the even and odd reals separated in its last pass (R2C) or joined in its first
//! (C2R) (`AxisJob::packed`, [`PackedAxis`](super::strided::PackedAxis)): on an H200 1.1-1.55x faster than splitting the
//! real rows (twenty-eighth session). Otherwise a four-step split of it writes and reads only
//! half of them (the conjugate symmetry of real rows' spectra, `AxisJob::real_split`). A halved
//! axis that runs Bluestein over passes takes its rows two at a time as one complex row, z =
//! x + i y (`AxisJob::real_pairs`, [`RealPairs`](super::strided::RealPairs)); R2C then separates the pairs' spectra in a
//! launch of its own ([`Separation`]; real_pairs.rs).

use super::cluster::CLUSTER_MAX_BYTES;
use super::nd::{row_major_strides, FftNdProblem};
use super::problem::{FftKind, Placement, Precision, MAX_ROW_LEN, MAX_SINGLE_LAUNCH_LEN};
use super::recipe::{DeviceLimits, FftRecipe};
use super::transform_core::MAX_PRIME_RADIX;
use super::real_pairs::PairSeparation;
use super::strided::{starts_off_sectors, BatchDim, StridedIo, Values};
use crate::error::Result;
use crate::fft::factor::{is_smooth, largest_prime_factor};
pub use super::split_costs::axis_cost;
use super::axis_job::{AxisJob, MiddleOrder, Sides};
mod bluestein_passes;
mod row_split;

use super::split_costs::{fits_shared_padded, longest_row, LongStridedRows, SplitCosts};

/// Which buffer a pass reads or writes. In place, Input and Output are the same buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PassBuffer {
    Input,
    Output,
    /// The plan's own complex buffers of the array's size, for passes that cannot write the
    /// output (four-step passes A; real transforms' complex values between passes).
    Scratch,
    SecondScratch,
}

impl PassBuffer {
    /// The scratch buffer other than this one (the first, unless this is it): where a pass
    /// that cannot write where it reads goes from a scratch buffer, or from anywhere else.
    fn other_scratch(self) -> PassBuffer {
        if self == PassBuffer::Scratch { PassBuffer::SecondScratch } else { PassBuffer::Scratch }
    }
}

/// One launch of a multi-pass plan.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FftPass {
    pub recipe: FftRecipe,
    pub from: PassBuffer,
    pub to: PassBuffer,
}

/// A designed multi-pass transform: plain data, one recipe per launch in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FftNdRecipe {
    pub problem: FftNdProblem,
    pub passes: Vec<FftPass>,
    /// R2C whose halved axis runs Bluestein over pairs of real rows: the launch that takes
    /// their spectra apart, after the axis's passes.
    pub separation: Option<Separation>,
    /// Complex values each scratch buffer holds: the array's size, or more where Bluestein
    /// pads an axis to its convolution's length.
    pub scratch_len: usize,
}

/// The launch of a [`PairSeparation`] in a multi-pass plan: after the first `after` passes,
/// from Z in `from` to the half spectra in `to`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Separation {
    pub after: usize,
    pub pairs: PairSeparation,
    pub from: PassBuffer,
    pub to: PassBuffer,
}

impl FftNdRecipe {
    pub fn design(problem: FftNdProblem, limits: DeviceLimits) -> Result<Self> {
        problem.validate()?;
        let long_row = longest_row(problem.precision, limits);
        let (costs, packed_costs) = (SplitCosts::new(long_row, LongStridedRows::SPLIT), SplitCosts::new(long_row, LongStridedRows::PACKED_R2C));
        let mut planner = Planner { precision: problem.precision, limits, costs, packed_costs, passes: Vec::new(), separation: None, scratch_len: problem.len() };
        let spectrum = problem.spectrum_shape();
        // Long axes first: out of place, their first pass can then read the input and
        // write the output, and no scratch is needed for the first of them.
        let halved = problem.halved_axis();
        let mut others: Vec<usize> = problem.axes.iter().copied().filter(|&a| Some(a) != halved).collect();
        others.sort_by_key(|&a| (problem.shape[a] <= MAX_SINGLE_LAUNCH_LEN, std::cmp::Reverse(a)));
        let in_place = problem.placement == Placement::InPlace;
        // With strides, only the first pass over an axis reads the input's layout; the others
        // read and write where the previous axis left its values. Four-step passes keep their
        // values between passes in the output only where it is row-major (pass B reads and
        // writes the same places).
        let (input, output) = problem.buffer_strides();
        let output_row_major = output == row_major_strides(&problem.buffer_shapes().1);
        // Short trailing axes fused into one pass (see `fused_trailing_axes`): a grid, for
        // real transforms with the halved axis last.
        let mut fused = fused_trailing_axes(&problem, limits);
        if planner.splits_rather_than_fusing(&problem, &fused) {
            fused.clear();
        }
        // Whether the rows (the last axis where it is transformed: each kind checks) may share
        // a pass with the column before them (see `Planner::row_split`): row-major, nothing
        // fused, real transforms out of place.
        let rows_may_split = fused.is_empty() && problem.is_row_major() && (problem.kind == FftKind::C2C || !in_place);
        let grid_pass = |from: PassBuffer| -> Result<FftPass> {
            let grid: Vec<usize> = fused.iter().map(|&f| problem.shape[f]).collect();
            let batch = problem.len() / grid.iter().product::<usize>();
            let recipe = match problem.kind {
                FftKind::C2C => FftRecipe::design_grid(&grid, batch, problem.precision, limits)?,
                kind => FftRecipe::design_real_grid(&grid, batch, kind, problem.precision, limits)?,
            }
            .with_grid_launch_bound(limits);
            Ok(FftPass { recipe, from, to: PassBuffer::Output })
        };
        match (problem.kind, halved) {
            (FftKind::R2C, Some(h)) => {
                // The halved rows may take on the first pass of the next axis (as C2C's do),
                // and the axis after it the rest of that one.
                let split = match others.first() {
                    Some(&c) if rows_may_split && h + 1 == spectrum.len() => planner.row_split(&problem.shape, h, c, others.get(1).copied(), FftKind::R2C),
                    _ => None,
                };
                if let Some(split) = split {
                    planner.plan_row_split(&problem.shape, &spectrum, split, FftKind::R2C, PassBuffer::Input, PassBuffer::Output, output_row_major)?;
                } else if fused.is_empty() {
                    planner.plan(AxisJob::halved(&problem, h), PassBuffer::Input, PassBuffer::Output, false)?;
                } else {
                    planner.passes.push(grid_pass(PassBuffer::Input)?);
                }
                let sides = Sides { middle: row_major_strides(&spectrum), ..Sides::same(output) };
                let done = split.map_or(vec![], |s| s.axes());
                for a in others.iter().copied().filter(|a| !fused.contains(a) && !done.contains(a)) {
                    planner.plan(AxisJob::complex_on(&spectrum, a, &sides), PassBuffer::Output, PassBuffer::Output, output_row_major)?;
                }
            }
            (FftKind::C2R, Some(h)) => {
                // The axis nearest the halved rows may end in their pass (as R2C's rows begin
                // the next axis; see `Planner::plan_rows_last`): it then runs after the others.
                let split = match others.iter().copied().max() {
                    Some(c) if rows_may_split && h + 1 == spectrum.len() => planner.row_split(&problem.shape, h, c, others.iter().copied().filter(|&a| a < c).max(), FftKind::C2R),
                    _ => None,
                };
                let mut at = PassBuffer::Input;
                let mut sides = Sides { input, ..Sides::same(row_major_strides(&spectrum)) };
                let done = split.map_or(vec![], |s| s.axes());
                for a in others.iter().copied().filter(|a| !fused.contains(a) && !done.contains(a)) {
                    planner.plan(AxisJob::complex_on(&spectrum, a, &sides), at, PassBuffer::Scratch, true)?;
                    at = PassBuffer::Scratch;
                    sides = Sides::same(row_major_strides(&spectrum));
                }
                if let Some(split) = split {
                    planner.plan_rows_last(&problem.shape, &spectrum, split, at)?;
                } else if !fused.is_empty() {
                    planner.passes.push(grid_pass(at)?);
                } else {
                    let job = match at {
                        // The halved axis reads what the other axes left, row-major, in scratch.
                        PassBuffer::Scratch => AxisJob::halved(&FftNdProblem { input_strides: None, ..problem.clone() }, h),
                        _ => AxisJob::halved(&problem, h),
                    };
                    planner.plan(job, at, PassBuffer::Output, false)?;
                }
            }
            _ => {
                // In place, the input is the output: every pass starts from it.
                let mut at = if in_place { PassBuffer::Output } else { PassBuffer::Input };
                let mut sides = Sides { input, output: output.clone(), middle: row_major_strides(&spectrum) };
                // Short trailing axes fused into one pass run where the first of them would
                // (the last axis: `others` has the long axes first, then the short ones from
                // the last backwards).
                // The rows may take on the first pass of the next axis's four-step split (see
                // `Planner::row_split`); that axis is then done, and the one after it where
                // it shares its pass with that axis's rest.
                let mut done = Vec::new();
                for (k, &a) in others.iter().enumerate() {
                    if done.contains(&a) {
                        continue;
                    }
                    let split = match others.get(k + 1) {
                        Some(&c) if rows_may_split && a + 1 == spectrum.len() => planner.row_split(&spectrum, a, c, others.get(k + 2).copied(), FftKind::C2C),
                        _ => None,
                    };
                    if fused.contains(&a) {
                        if Some(&a) != fused.last() {
                            continue;
                        }
                        planner.passes.push(grid_pass(at)?);
                    } else if let Some(split) = split {
                        planner.plan_row_split(&spectrum, &spectrum, split, FftKind::C2C, at, PassBuffer::Output, output_row_major)?;
                        done = split.axes();
                    } else {
                        let job = AxisJob::complex_on(&spectrum, a, &sides);
                        match planner.lone_long_column(&job) {
                            Some(recipe) => planner.passes.push(FftPass { recipe, from: at, to: PassBuffer::Output }),
                            None => planner.plan(job, at, PassBuffer::Output, output_row_major)?,
                        }
                    }
                    at = PassBuffer::Output;
                    sides.input = output.clone();
                }
            }
        }
        Ok(FftNdRecipe { problem, passes: planner.passes, separation: planner.separation, scratch_len: planner.scratch_len })
    }

    /// How many scratch buffers (complex, of `scratch_len` values) the passes use: 0, 1 or 2.
    pub fn scratch_buffers(&self) -> usize {
        let separation = self.separation.iter().flat_map(|s| [s.from, s.to]);
        let buffers: Vec<PassBuffer> = self.passes.iter().flat_map(|p| [p.from, p.to]).chain(separation).collect();
        let uses = |b: PassBuffer| buffers.contains(&b);
        usize::from(uses(PassBuffer::Scratch)) + usize::from(uses(PassBuffer::SecondScratch))
    }

    /// Launches an execution queues, each a read and a write of the array (or of its padded
    /// copy): the passes and the separation of real pairs.
    pub fn launches(&self) -> usize {
        self.passes.len() + usize::from(self.separation.is_some())
    }

    /// One line per pass, for logs.
    pub fn describe(&self) -> String {
        let p = &self.problem;
        let launches = self.launches();
        let mut text = format!("{} {:?} over axes {:?}, {} passes", p.kind, p.shape, p.axes, launches);
        let separation = |after: usize| match self.separation.as_ref().filter(|s| s.after == after) {
            Some(s) => format!("\n  {:?} -> {:?}: {} ({:?})", s.from, s.to, s.pairs.kernel_name(), s.pairs),
            None => String::new(),
        };
        for (i, pass) in self.passes.iter().enumerate() {
            text.push_str(&separation(i));
            text.push_str(&format!("\n  {:?} -> {:?}: {}", pass.from, pass.to, pass.recipe.describe()));
        }
        text.push_str(&separation(self.passes.len()));
        text
    }
}

/// The trailing axes of a row-major problem that one launch transforms together, as a grid
/// in shared memory (ascending; empty for none): transformed axes from the last one
/// backwards (axes of length 1 pass through), each of at most MAX_SINGLE_LAUNCH_LEN points
/// with codelets for its prime factors, while their product fits a row (`longest_row`) and
/// a block's shared memory, if two or more. A 64^3 transform then takes two passes (64 x 64
/// grids, then the first axis), a 16^3 one.
///
/// Real transforms out of place too, where the halved axis is the array's last (even, with
/// codelets for its half): the grid's reals fit a row (MAX_ROW_LEN) and its half spectrum
/// (m + 1 values a line) a block's shared memory; a real 64^3 transform then takes two
/// passes, not three.
fn fused_trailing_axes(problem: &FftNdProblem, limits: DeviceLimits) -> Vec<usize> {
    let real = problem.kind != FftKind::C2C;
    if !problem.is_row_major() || (real && problem.placement == Placement::InPlace) {
        return Vec::new();
    }
    // A grid is one row, as long as the longest, its values in a block's shared memory (a
    // 128 x 128 f32 grid, one block of 128 KiB per multiprocessor, ran at 0.65 of copy on an
    // H200, its two passes at 0.43).
    let bytes = super::recipe::complex_bytes(problem.precision) as usize;
    let longest = longest_row(problem.precision, limits).min(limits.shared_bytes as usize / bytes);
    // Values a line's transform holds, and its shared memory: a real grid's halved axis (the
    // first met) holds n/2 packed pairs in lines of n/2 + 1.
    let (mut axes, mut points, mut region) = (Vec::new(), 1, 1);
    for a in (0..problem.shape.len()).rev() {
        let n = problem.shape[a];
        if n == 1 {
            continue;
        }
        let halved = real && axes.is_empty();
        let (core, extent) = if halved { (n / 2, n / 2 + 1) } else { (n, n) };
        if !problem.axes.contains(&a) || n > MAX_SINGLE_LAUNCH_LEN || !is_smooth(core, MAX_PRIME_RADIX) || core < 2 {
            break;
        }
        if halved && (Some(a) != problem.halved_axis() || n % 2 == 1) {
            break;
        }
        let fits = match real {
            false => points * n <= longest,
            // With a padding slot per 16 values (`longest_row`'s allowance).
            true => points * n <= MAX_ROW_LEN && fits_shared_padded(region * extent, problem.precision, limits),
        };
        if !fits {
            break;
        }
        axes.push(a);
        points *= n;
        region *= extent;
    }
    if axes.len() < 2 {
        return Vec::new();
    }
    axes.reverse();
    axes
}

/// Appends the passes of one axis after another, remembering split costs and how much
/// scratch they need.
struct Planner {
    precision: Precision,
    limits: DeviceLimits,
    costs: SplitCosts,
    /// For R2C's half-length complex axes (see [`LongStridedRows::PACKED_R2C`]).
    packed_costs: SplitCosts,
    passes: Vec<FftPass>,
    separation: Option<Separation>,
    scratch_len: usize,
}

impl Planner {
    /// Appends the passes that transform `job` from buffer `from` into `to`. `to` may hold
    /// the complex values between passes only where `middle_in_to` (it is complex and as
    /// large as the scratch).
    fn plan(&mut self, job: AxisJob, from: PassBuffer, to: PassBuffer, middle_in_to: bool) -> Result<()> {
        if largest_prime_factor(job.len) > MAX_SINGLE_LAUNCH_LEN {
            return self.plan_bluestein(job, from, to);
        }
        let contiguous = job.contiguous(self.precision);
        // Rows that are contiguous on both sides but not the contiguous kernels' layout (a
        // batch distance other than the length) are copied row by row as those are: they
        // cost as contiguous rows, not as columns (strided kernels take up to
        // MAX_SINGLE_LAUNCH_LEN points, longer rows only the contiguous kernels).
        let io = job.io();
        let rows = io.input().contiguous_rows().is_some() && io.output().contiguous_rows().is_some() && job.len <= MAX_SINGLE_LAUNCH_LEN;
        // An even real row's kernel transforms the complex row of half its length: one launch
        // up to twice the longest complex row, where shared memory holds that half (R2C of
        // 32768 f32 points ran at 0.31 of copy in two passes; cuFFT's one kernel at 0.53).
        let half_fits = |half: usize| half <= self.costs.long_row && is_smooth(half, 13) && fits_shared_padded(half, self.precision, self.limits);
        let half_row = contiguous.as_ref().is_some_and(|p| p.kind != FftKind::C2C && p.len.is_multiple_of(2) && half_fits(p.len / 2));
        let split = if half_row { None } else { self.costs_of(&job).axis(job.len, contiguous.is_none() && !rows).1 };
        // A real axis over passes: as the complex axis of half its length where its reals
        // pair up, unless that one launch holds (the contiguous real kernels pack so too).
        let packed = job.packed().filter(|p| split.is_some() && largest_prime_factor(p.len) <= MAX_SINGLE_LAUNCH_LEN && self.costs_of(p).axis(p.len, true).1.is_some());
        if let Some(packed) = packed {
            let (passes, scratch_len) = (self.passes.len(), self.scratch_len);
            match self.plan(packed, from, to, middle_in_to) {
                Ok(()) => return Ok(()),
                // A layout its passes cannot take (a block without room for two rows): split
                // as real rows instead.
                Err(_) => {
                    self.passes.truncate(passes);
                    self.scratch_len = scratch_len;
                }
            }
        }
        let Some(n2) = split else {
            let recipe = match contiguous {
                Some(problem) => FftRecipe::design_row(problem, self.limits)?,
                None => FftRecipe::design_strided(job.len, self.precision, job.io(), self.limits)?,
            };
            self.passes.push(FftPass { recipe, from, to });
            return Ok(());
        };
        let (order, middle) = self.middle_of_split(&job, from, to, middle_in_to);
        let (pass_a, rest) = job.split_as(n2, order);
        if let Some(recipe) = self.cluster(&job, &pass_a, &rest) {
            self.passes.push(FftPass { recipe, from, to });
            return Ok(());
        }
        self.passes.push(FftPass { recipe: FftRecipe::design_strided(n2, self.precision, pass_a, self.limits)?, from, to: middle });
        self.plan(rest, middle, to, middle_in_to)
    }

    /// One strided pass, not two of 64 points, for a C2C f32 axis of 4096 points that is the
    /// whole transform's only work on that axis (not the rest of a split, not a real axis),
    /// over columns that lie side by side, where the pass has blocks enough: the cost
    /// model's 0.40 of copy for such passes (`pass_cost`) holds where they end a split or
    /// write a half spectrum, but alone they ran faster than two. Same-run A/B on an H200
    /// (seventy-sixth session, `bench fft --suite layouts`, two rounds): C2C [4096, 8192],
    /// [4096, 4096], [4096, 2048] axes [0] 1.115x, 1.082x, 1.027x (2048, 1024, 512 blocks;
    /// [4096, 8192] 0.89x -> 0.99x cuFFT); 3000 points (10 x 10 x 10 x 3, 8 rows a block)
    /// over 8192 columns lost, 0.951x. Putting 0.75 for these passes into the cost model
    /// (seventy-fifth session) lost 0.60x-0.93x on the 1D and real plans it changed (2^22,
    /// 2^24, R2C columns).
    fn lone_long_column(&self, job: &AxisJob) -> Option<FftRecipe> {
        let complex = job.input_values == Values::Complex && job.output_values == Values::Complex && job.input_chirp.is_none() && job.output_chirp.is_none();
        let side_by_side = job.dims.first().is_some_and(|d| d.input == 1 && d.output == 1);
        if self.precision != Precision::F32 || !complex || !side_by_side || job.len != LONE_COLUMN_LEN || job.contiguous(self.precision).is_some() {
            return None;
        }
        // A device whose shared memory holds fewer rows a block than a 32-byte sector's
        // (NVIDIA's OpenCL, 48 KiB) keeps the two passes, as does one that cannot hold a row.
        let recipe = FftRecipe::design_strided(job.len, self.precision, job.io(), self.limits).ok()?;
        let rows = recipe.tuning.transforms_per_block as usize;
        (rows >= SECTOR_ROWS && recipe.problem.batch / rows >= LONG_COLUMN_MIN_BLOCKS).then_some(recipe)
    }

    /// The split costs `job`'s axis is planned by: R2C's packed half-length axes their own
    /// (see [`LongStridedRows::PACKED_R2C`]).
    fn costs_of(&mut self, job: &AxisJob) -> &mut SplitCosts {
        match job.output_values {
            Values::Packed(_) => &mut self.packed_costs,
            _ => &mut self.costs,
        }
    }

    /// The order of a split's values in the middle (see [`MiddleOrder`]) and the buffer that
    /// holds them: N1Inner for an f32 complex axis whose places are rows of at least a
    /// 128-byte line apart that start off 32-byte sectors (an R2C or C2R half spectrum's odd width), where pass B's input can
    /// lie apart from its output: in a scratch buffer that the passes between `from` and `to`
    /// would take anyway (R2C's columns, in place on the output), or in the second scratch
    /// where `to` is the first (C2R's columns, before the halved rows: one more scratch
    /// buffer of the array's size). Same-run A/B on an H200 (forty-sixth session): R2C and
    /// C2R f32 8192^2 and 16384^2 1.13x-1.15x; f64 (rows 16 bytes off) 0.99x, so K2Inner.
    fn middle_of_split(&self, job: &AxisJob, from: PassBuffer, to: PassBuffer, middle_in_to: bool) -> (MiddleOrder, PassBuffer) {
        let row_bytes = job.step.middle * super::recipe::complex_bytes(self.precision) as usize;
        let complex = job.input_values == Values::Complex && job.output_values == Values::Complex && job.input_chirp.is_none() && job.output_chirp.is_none();
        let misaligned = complex && row_bytes >= 128 && f32_rows_off_sectors(job.step.middle, self.precision);
        let k2_inner = middle_buffer(from, to, middle_in_to);
        let apart = match k2_inner {
            m if m != to => Some(m),
            _ if to == PassBuffer::Scratch && from != PassBuffer::SecondScratch => Some(PassBuffer::SecondScratch),
            _ => None,
        };
        match apart {
            Some(m) if misaligned => (MiddleOrder::N1Inner, m),
            _ => (MiddleOrder::K2Inner, k2_inner),
        }
    }

    /// Both passes of `job`'s split into `pass_a` and `rest` in one launch, across a
    /// thread-block cluster that holds each array's whole axis (cluster.rs), where the device
    /// has clusters and the split suits them: f32 complex values contiguous along the axis on
    /// both sides (or R2C's packed half spectrum as the output), at most CLUSTER_MAX_BYTES of
    /// them (longer ones ran slower so than in two passes), no Bluestein step, the rest one
    /// strided pass, and each pass's rows of one array its fastest batch dimension (a
    /// cluster's blocks then take one array's).
    ///
    /// R2C of 2^16 f32 points so ran 1.045x its two passes on an H200 (sixty-sixth session).
    /// C2R's packed input was tried there too, its pass A joining X[g] with X[m - g] in the
    /// blocks (the mirror of R2C's separation), and ran slower than two passes: 0.90x with
    /// the join in shared memory after the load, 0.94x joined as it was read; the join sits
    /// between the load and the core, where one block a multiprocessor overlaps nothing.
    fn cluster(&mut self, job: &AxisJob, pass_a: &StridedIo, rest: &AxisJob) -> Option<FftRecipe> {
        let (n1, n2, s) = (rest.len, job.len / rest.len, job.step);
        let complex = job.input_values == Values::Complex && matches!(job.output_values, Values::Complex | Values::Packed(_));
        let plain = complex && job.input_chirp.is_none() && job.output_chirp.is_none() && s.input == 1 && s.output == 1;
        let small = self.precision == Precision::F32 && job.len * super::recipe::complex_bytes(self.precision) as usize <= CLUSTER_MAX_BYTES;
        if self.limits.clusters.max_blocks < 2 || !plain || !small || n1 > MAX_SINGLE_LAUNCH_LEN || self.costs.axis(n1, true).1.is_some() {
            return None;
        }
        let second = rest.io();
        let rows_first = pass_a.batch[0] == BatchDim { count: n1, input: s.input, output: n2 * s.middle } && second.batch[0] == BatchDim { count: n2, input: s.middle, output: s.output };
        if !rows_first {
            return None;
        }
        FftRecipe::design_cluster(n2, pass_a.clone(), n1, second, self.precision, self.limits).ok()
    }
}

/// The one length a lone column runs in one strided pass at (`Planner::lone_long_column`):
/// the only one measured faster so (3000 points lost).
const LONE_COLUMN_LEN: usize = 4096;

/// The fewest blocks a lone long column's one pass takes (`Planner::lone_long_column`): a
/// block of four 4096-point f32 columns fills a multiprocessor's shared memory alone, so
/// with few columns the device idles where two passes of short rows would not. 512 blocks
/// (2048 columns) were the fewest measured, and won (1.027x).
const LONG_COLUMN_MIN_BLOCKS: usize = 512;

/// f32 complex values in a 32-byte sector: a strided pass of fewer rows a block reads part
/// sectors.
const SECTOR_ROWS: usize = 4;

/// Whether complex rows of `values` values start off 32-byte sectors in `precision`, where
/// the planner lays a split's middle out around them (`MiddleOrder`): f32 only, as measured
/// (a half spectrum's odd width; f64 rows are then 16 bytes off, and moving them measured
/// 0.99x-1.02x).
fn f32_rows_off_sectors(values: usize, precision: Precision) -> bool {
    precision == Precision::F32 && starts_off_sectors(values, super::recipe::complex_bytes(precision))
}

/// Where pass A of a four-step split leaves its values: it writes other places than it reads,
/// so never into the buffer it reads; into `to` where that may hold them (`middle_in_to`).
fn middle_buffer(from: PassBuffer, to: PassBuffer, middle_in_to: bool) -> PassBuffer {
    if to != from && middle_in_to {
        to
    } else if from != PassBuffer::Scratch {
        PassBuffer::Scratch
    } else {
        PassBuffer::SecondScratch
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fft::cluster::ClusterSplit;
    use crate::fft::codegen::fft_source;
    use crate::fft::transform_core::Core;
    use crate::fft::problem::FftProblem;
    use crate::fft::strided::{AxisIndex, Chirp, ChirpStep, HalfAxis};

    const H200: DeviceLimits = DeviceLimits::H200;

    /// The passes an H200 gets for `p`.
    fn passes(p: FftNdProblem) -> Vec<FftPass> {
        FftNdRecipe::design(p, H200).unwrap().passes
    }

    /// A pass's grid shape, None where its core is no grid.
    fn grid(pass: &FftPass) -> Option<Vec<usize>> {
        match &pass.recipe.core {
            Core::Grid { shape, .. } => Some(shape.clone()),
            _ => None,
        }
    }

    #[test]
    fn long_axes_split_into_short_strided_passes() {
        // The last axis runs in one pass up to 4096 points; a strided one up to 1024.
        assert_eq!(axis_cost(4096, false).1, vec![4096]);
        assert_eq!(axis_cost(1024, true).1, vec![1024]);
        assert_eq!(axis_cost(4096, true).1, vec![64, 64]);
        assert_eq!(axis_cost(8192, false).1.len(), 2);
        let lens = axis_cost(1 << 24, false).1;
        assert_eq!(lens.len(), 3, "{lens:?}");
        assert!(lens.iter().all(|&l| l <= 512));
        assert_eq!(axis_cost(1 << 27, false).1.iter().product::<usize>(), 1 << 27);
        // 4097 = 17 x 241: two passes with a large prime factor; 1000003 is prime.
        assert_eq!(axis_cost(4097, false).1.len(), 2);
        assert!(axis_cost(1_000_003, false).1.is_empty());
    }

    #[test]
    fn lone_long_columns_take_one_pass_where_blocks_fill_the_device() {
        // C2C f32 columns of 4096 points side by side: one pass of 4 rows a block (a 32-byte
        // sector's run) where there are 512 blocks or more, in place too.
        for (shape, in_place) in [([4096, 8192], false), ([4096, 2048], true)] {
            let p = FftNdProblem::c2c(&shape, &[0]);
            let one = passes(if in_place { p.in_place() } else { p });
            assert_eq!(one.len(), 1, "{shape:?}");
            assert!(matches!(one[0].recipe.core, Core::Stockham { len: 4096, .. }));
            let io = one[0].recipe.io.as_ref().unwrap();
            assert_eq!((io.input_stride, io.output_stride, io.twiddle), (shape[1], shape[1], None));
            assert_eq!(one[0].recipe.tuning.transforms_per_block, 4);
        }
        // Two passes where one would leave the device idle (256 blocks), for a length not a
        // power of two, in f64, for a real axis, on a device whose shared memory holds fewer
        // rows than a sector's, and where the axis is the rest of a split (2^24 = 4096 x 4096
        // keeps its three short passes).
        assert_eq!(passes(FftNdProblem::c2c(&[4096, 1024], &[0])).len(), 2);
        assert_eq!(passes(FftNdProblem::c2c(&[3000, 8192], &[0])).len(), 2);
        assert_eq!(passes(FftNdProblem::c2c(&[4096, 8192], &[0]).f64()).len(), 2);
        assert_eq!(passes(FftNdProblem::r2c(&[4096, 8192], &[0])).len(), 2);
        let small = DeviceLimits { shared_bytes: 48 * 1024, ..H200 };
        assert_eq!(FftNdRecipe::design(FftNdProblem::c2c(&[4096, 8192], &[0]), small).unwrap().passes.len(), 2);
        assert!(passes(FftNdProblem::c2c_1d(1 << 24, 1)).iter().all(|p| p.recipe.problem.len <= 512));
    }

    #[test]
    fn columns_of_odd_width_leave_pass_a_values_n1_inner() {
        // R2C 8192^2 f32: the half spectrum's rows of 4097 values start off 32-byte sectors.
        // Pass A (64 points of each column, rows 128 apart) writes Y[n1, k2] at row
        // n1 + 128 k2 of the scratch: its writes run along the array as its reads do. Pass B
        // (128 points, rows 1 apart) reads it there and writes X[k2 + 64 k1] to the output.
        let (w, rows) = (4097, 8192);
        let r2c = FftNdRecipe::design(FftNdProblem::r2c(&[rows, rows], &[0, 1]), H200).unwrap();
        let (a, b) = (&r2c.passes[1], &r2c.passes[2]);
        assert_eq!((a.from, a.to, b.from, b.to), (PassBuffer::Output, PassBuffer::Scratch, PassBuffer::Scratch, PassBuffer::Output));
        let (a_io, b_io) = (a.recipe.io.as_ref().unwrap(), b.recipe.io.as_ref().unwrap());
        assert_eq!((a_io.input_stride, a_io.output_stride), (128 * w, 128 * w));
        assert_eq!(a_io.batch[1], BatchDim { count: 128, input: w, output: w });
        assert_eq!((b_io.input_stride, b_io.output_stride), (w, 64 * w));
        assert_eq!(b_io.batch[1], BatchDim { count: 64, input: 128 * w, output: w });
        // C2R takes its columns into scratch first: pass A's values lie in the second.
        let c2r = FftNdRecipe::design(FftNdProblem::c2r(&[rows, rows], &[0, 1]), H200).unwrap();
        let buffers: Vec<_> = c2r.passes.iter().map(|p| (p.from, p.to)).collect();
        assert_eq!(buffers, [(PassBuffer::Input, PassBuffer::SecondScratch), (PassBuffer::SecondScratch, PassBuffer::Scratch), (PassBuffer::Scratch, PassBuffer::Output)]);
        assert_eq!(c2r.scratch_buffers(), 2);
        // C2C's rows of 8192 values are whole lines, f64's half spectrum measured no faster,
        // and the output may hold the middle of a C2C out of place: K2Inner, as before.
        let k2_inner = |p: FftNdProblem, w: usize| {
            let r = FftNdRecipe::design(p, H200).unwrap();
            let io = r.passes.iter().find_map(|p| p.recipe.io.as_ref().filter(|io| io.twiddle.is_some())).unwrap().clone();
            assert_eq!(io.output_stride, w, "{io:?}");
        };
        k2_inner(FftNdProblem::c2c(&[rows, rows], &[0, 1]), rows);
        k2_inner(FftNdProblem::r2c(&[rows, rows], &[0, 1]).f64(), w);
        k2_inner(FftNdProblem::c2c(&[rows, 17], &[0]), 17);
        assert_eq!(FftNdRecipe::design(FftNdProblem::c2r(&[rows, rows], &[0, 1]).f64(), H200).unwrap().scratch_buffers(), 1);
    }

    #[test]
    fn passes_read_the_input_once_and_use_scratch_only_when_they_must() {
        // The last axis is too long to fuse with others (96 x 4000 points): three passes.
        let r = FftNdRecipe::design(FftNdProblem::c2c(&[64, 96, 4000], &[0, 1, 2]), H200).unwrap();
        assert_eq!(r.passes.len(), 3);
        assert_eq!((r.passes[0].from, r.passes[0].to), (PassBuffer::Input, PassBuffer::Output));
        assert!(r.passes[1..].iter().all(|p| (p.from, p.to) == (PassBuffer::Output, PassBuffer::Output)));
        assert!(r.passes[0].recipe.io.is_none(), "the last axis is contiguous rows");
        assert_eq!(r.scratch_buffers(), 0);
        let long = FftNdRecipe::design(FftNdProblem::c2c_1d(1 << 20, 2), H200).unwrap();
        assert_eq!(long.passes.len(), 2);
        assert_eq!((long.passes[0].from, long.passes[0].to, long.passes[1].to), (PassBuffer::Input, PassBuffer::Output, PassBuffer::Output));
        let in_place = FftNdRecipe::design(FftNdProblem::c2c_1d(1 << 20, 2).in_place(), H200).unwrap();
        assert_eq!(in_place.scratch_buffers(), 1);
        assert!(in_place.passes.iter().all(|p| p.from != PassBuffer::Input && p.to != PassBuffer::Input));
    }

    #[test]
    fn strided_grids_index_a_butterflys_values_from_its_first() {
        // R2C 1024^2's [2, 1024] real grids (64 threads): value j + c of a butterfly at line
        // j / run + c / run, c's part a constant; the reals as 512 pairs a line, 262144 apart.
        let p = passes(FftNdProblem::r2c(&[32, 1024, 1024], &[1, 2]));
        assert!(p[0].recipe.core.real_grid().is_some() && p[0].recipe.threads_per_block() <= 512);
        let body = fft_source(&p[0].recipe).body;
        assert!(body.contains("(u64)(j / 512u) * 262144u + j % 512u + ((u64)(c / 512u) * 262144u + c % 512u)"));
        assert!(!body.contains("i / 512u") && !body.contains("i / 513u"));
        // Its last pass (the first axis, radix 2) writes row 1 of each butterfly times the
        // row's four-step twiddle, read once a thread; write_output applies none.
        assert!(body.contains("const cplx grid_tw1 = step_twiddle(tables, (step_index(GROUP_ID()) * 1u) % 1024u);"));
        assert!(body.contains("write_output(out_rows, tables, s, at + o * 513u, 513u, cmul(v[1], grid_tw1), sign, scale);"));
        assert!(body.contains("write_output(out_rows, tables, s, at + o * 513u, 0u, v[0], sign, scale);"));
        assert!(!body.contains("v = cmul(v, step_twiddle("));
        // R2C 4096^2's [4, 4096] real grids (513 threads) too, under a launch bound of two
        // blocks (without it ptxas gave them 64 registers, one block a multiprocessor).
        let p = passes(FftNdProblem::r2c(&[2, 4096, 4096], &[1, 2]));
        assert!(p[0].recipe.core.real_grid().is_some() && p[0].recipe.threads_per_block() > 512);
        let body = fft_source(&p[0].recipe).body;
        assert!(body.contains("(u64)(j / 2048u) * ") && body.contains("const cplx grid_tw3 = step_twiddle(tables, (step_index(GROUP_ID()) * 3u) % 4096u);"), "{body}");
        assert!(!body.contains("i / 2048u") && !body.contains("i / 2049u") && body.contains("KERNEL_BLOCKS(513, 2) void"));
        // C2C 2048^2's [4, 2048] grids end along their last axis, a row a butterfly: the
        // twiddle stays in write_output, one value's row at a time.
        let p = passes(FftNdProblem::c2c(&[8, 2048, 2048], &[1, 2]));
        let body = fft_source(&p[0].recipe).body;
        assert!(body.contains("v = cmul(v, step_twiddle(tables, (step_index(GROUP_ID()) * (j / 2048u + c / 2048u)) % 2048u));") && !body.contains("grid_tw"), "{body}");
    }

    #[test]
    fn f32_real_grids_take_their_lines_pairs_from_slots_padded_once() {
        // R2C f32 1024^2's [2, 1024] real grid (64 threads, 257 pairs a line) separates each
        // line's pairs i = tid + 64k from two slots a line padded once, trip k's offset a
        // literal; C2R's twin rebuilds so. No division by the pairs a line.
        let by_line = ["const u32 slot0[2] = {PAD(0u + tid), PAD(513u + tid)};", "sh[slot0[line] + k * 66u]", "sh[mirror0[line] - k * 66u]"];
        for (p, pass) in [(FftNdProblem::r2c(&[32, 1024, 1024], &[1, 2]), 0), (FftNdProblem::c2r(&[32, 1024, 1024], &[1, 2]), 1)] {
            let body = fft_source(&passes(p.clone())[pass].recipe).body;
            assert!(by_line.iter().all(|l| body.contains(l)) && !body.contains("i / 257u"), "{body}");
            // f64's grids keep the flat loop (its [4, 2048] and [4, 4096] grids ran 0.98x-0.99x
            // line by line).
            let body = fft_source(&passes(p.f64())[pass].recipe).body;
            assert!(body.contains("const u32 line = i / 257u;") && !body.contains("slot0"), "{body}");
        }
    }

    #[test]
    fn rows_take_on_pass_a_of_a_long_column_split() {
        // 1024^2: [2, 1024] grids (rows 512 apart in, two contiguous rows out, the four-step
        // twiddle), then a strided pass of 512; no scratch out of place.
        let p = passes(FftNdProblem::c2c(&[32, 1024, 1024], &[1, 2]));
        assert_eq!(p.iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![2, 1024]), None]);
        let io = p[0].recipe.io.as_ref().unwrap();
        assert_eq!((io.input_stride, io.output_stride, io.twiddle.map(|t| (t.len, t.dim))), (512 * 1024, 1024, Some((1024, 0))));
        assert_eq!(io.batch[0], BatchDim { count: 512, input: 1024, output: 2048 });
        assert_eq!((p[0].from, p[0].to, p[1].from, p[1].to), (PassBuffer::Input, PassBuffer::Output, PassBuffer::Output, PassBuffer::Output));
        assert_eq!((p[1].recipe.problem.len, p[1].recipe.io.as_ref().unwrap().input_stride), (512, 2048));
        // 2048^2: [4, 2048] and 512; 4096^2: two passes, not three; in place through scratch.
        assert_eq!(grid(&passes(FftNdProblem::c2c(&[2048, 2048], &[0, 1]))[0]), Some(vec![4, 2048]));
        assert_eq!(passes(FftNdProblem::c2c(&[4096, 4096], &[0, 1])).len(), 2);
        let p = passes(FftNdProblem::c2c(&[2048, 2048], &[0, 1]).in_place());
        assert_eq!((p[0].from, p[0].to, p[1].from, p[1].to), (PassBuffer::Output, PassBuffer::Scratch, PassBuffer::Scratch, PassBuffer::Output));
        // R2C: real [4, 2048] grids (cores of [4, 1024]), rows 512 apart in reals, written as 4
        // half spectra of 1025; the column's rest over the half spectrum.
        let p = passes(FftNdProblem::r2c(&[2048, 2048], &[0, 1]));
        assert_eq!((p[0].recipe.core.real_grid(), grid(&p[0])), (Some(FftKind::R2C), Some(vec![4, 1024])));
        let io = p[0].recipe.io.as_ref().unwrap();
        assert_eq!((io.input_stride, io.output_stride, io.batch[0]), (512 * 2048, 1025, BatchDim { count: 512, input: 2048, output: 4 * 1025 }));
        assert_eq!((p[1].recipe.problem.len, p[1].recipe.io.as_ref().unwrap().input_stride), (512, 4 * 1025));
        // C2R mirrors it: the column's long part first (512 points, the twiddle on its writes,
        // into scratch), then real grids reading half spectra rows 512 apart, writing the reals.
        let p = passes(FftNdProblem::c2r(&[2048, 2048], &[0, 1]));
        assert_eq!((p[0].recipe.problem.len, p[0].from, p[0].to), (512, PassBuffer::Input, PassBuffer::Scratch));
        assert!(p[0].recipe.io.as_ref().unwrap().twiddle.is_some());
        assert_eq!((p[1].recipe.core.real_grid(), grid(&p[1]), p[1].from, p[1].to), (Some(FftKind::C2R), Some(vec![4, 1024]), PassBuffer::Scratch, PassBuffer::Output));
        // Rows of 1025 values start off sectors in f32: pass A leaves k2 outermost (each k2
        // the 4 x 1025 values of its n1), so a grid's rows lie next to each other.
        assert_eq!(p[0].recipe.io.as_ref().unwrap().output_stride, 4 * 1025);
        let io = p[1].recipe.io.as_ref().unwrap();
        assert_eq!((io.input_stride, io.output_stride, io.twiddle, io.batch[0].input), (1025, 512 * 2048, None, 4 * 1025));
        let f64_io = passes(FftNdProblem::c2r(&[2048, 2048], &[0, 1]).f64())[1].recipe.io.clone().unwrap();
        assert_eq!((f64_io.input_stride, f64_io.batch[0].input), (512 * 1025, 1025), "f64: k2 inner");
        // f64 (`grid_cost`): 4096^2 in two passes, [2, 4096] grids of one block each; 2048^2
        // C2C keeps [2, 2048] grids, where R2C and C2R take real [4, 1024] cores, three blocks.
        let f64_passes = |p: FftNdProblem| passes(p.precision(Precision::F64));
        let p = f64_passes(FftNdProblem::c2c(&[4096, 4096], &[0, 1]));
        assert_eq!(p.iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![2, 4096]), None]);
        assert_eq!(grid(&f64_passes(FftNdProblem::c2c(&[2048, 2048], &[0, 1]))[0]), Some(vec![2, 2048]));
        assert_eq!(grid(&f64_passes(FftNdProblem::r2c(&[2048, 2048], &[0, 1]))[0]), Some(vec![4, 1024]));
        assert_eq!(grid(&f64_passes(FftNdProblem::c2r(&[2048, 2048], &[0, 1]))[1]), Some(vec![4, 1024]));
        // Columns of 512 are one good strided pass; 8192-point rows make grids too large.
        assert!(passes(FftNdProblem::c2c(&[512, 512], &[0, 1])).iter().all(|p| grid(p).is_none()));
        assert!(passes(FftNdProblem::c2c(&[8192, 8192], &[0, 1])).iter().all(|p| grid(p).is_none()));
    }

    #[test]
    fn the_rest_of_a_split_column_shares_a_pass_with_the_axis_before_it() {
        // 128 x 128 x 256 f32: [32, 256] grids (the rows with pass A of the middle axis), then
        // [128, 4] grids over columns: 16 neighbouring columns a block, each grid's values 32 x
        // 256 apart (the middle axis's rest is 4 x 8192 apart, the first axis 32768), in place.
        let p = passes(FftNdProblem::c2c(&[2, 128, 128, 256], &[1, 2, 3]));
        assert_eq!(p.iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![32, 256]), Some(vec![128, 4])]);
        let (r, io) = (&p[1].recipe, p[1].recipe.io.as_ref().unwrap());
        assert!(r.tuning.grid_columns && !r.is_strided_grid() && r.tuning.transforms_per_block == 16);
        assert_eq!((io.input_stride, io.output_stride, io.twiddle), (8192, 8192, None));
        assert_eq!(io.batch.iter().map(|d| (d.count, d.input)).collect::<Vec<_>>(), vec![(256, 1), (32, 256), (2, 1 << 22)]);
        assert_eq!((p[1].from, p[1].to), (PassBuffer::Output, PassBuffer::Output));
        // R2C: real [32, 256] grids, then [128, 4] over the half spectrum's 32 x 129 columns.
        let p = passes(FftNdProblem::r2c(&[128, 128, 256], &[0, 1, 2]));
        assert_eq!((p.len(), p[0].recipe.core.real_grid(), grid(&p[1])), (2, Some(FftKind::R2C), Some(vec![128, 4])));
        assert_eq!(p[1].recipe.io.as_ref().unwrap().input_stride, 32 * 129);
        // f64 128^3: [32, 128] grids, then [128, 4] over 8 columns (three blocks a multiprocessor).
        let p = passes(FftNdProblem::c2c(&[8, 128, 128, 128], &[1, 2, 3]).f64());
        assert_eq!(p.iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![32, 128]), Some(vec![128, 4])]);
        assert_eq!(p[1].recipe.tuning.transforms_per_block, 8);
        // f32 128^3: the same split rather than 128 x 128 grids (one block a multiprocessor)
        // and a strided pass; 64 x 64 grids (three blocks) stay fused, as do 128 x 128 ones
        // where the first axis is not transformed.
        let p = passes(FftNdProblem::c2c(&[16, 128, 128, 128], &[1, 2, 3]));
        assert_eq!(p.iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![32, 128]), Some(vec![128, 4])]);
        // f64 R2C and C2R 128^3 likewise (their real 128 x 128 grids: 130 KiB); f32's (65 KiB,
        // three blocks) stay.
        for p in [FftNdProblem::r2c(&[8, 128, 128, 128], &[1, 2, 3]).f64(), FftNdProblem::c2r(&[8, 128, 128, 128], &[1, 2, 3]).f64()] {
            assert!(passes(p.clone()).iter().any(|pass| pass.recipe.tuning.grid_columns), "{p:?}");
        }
        for p in [FftNdProblem::r2c(&[16, 128, 128, 128], &[1, 2, 3]), FftNdProblem::c2r(&[16, 128, 128, 128], &[1, 2, 3])] {
            assert!(passes(p.clone()).iter().all(|pass| !pass.recipe.tuning.grid_columns), "{p:?}");
        }
        let p = passes(FftNdProblem::c2c(&[128, 64, 64, 64], &[1, 2, 3]));
        assert_eq!(p.iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![64, 64]), None]);
        assert_eq!(grid(&passes(FftNdProblem::c2c(&[128, 128, 128], &[1, 2]))[0]), Some(vec![128, 128]));
        // A first axis short and not a power of two, rows of 96: [16, 96] grids, then [6, 16].
        let p = passes(FftNdProblem::c2c(&[6, 256, 96], &[0, 1, 2]));
        assert_eq!(p.iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![16, 96]), Some(vec![6, 16])]);
        // C2R mirrors it: [128, 4] grids over columns reading the half spectrum (the middle
        // axis's long part, its four-step twiddle on the grids' last axis, written at n1 + 32
        // k2 into scratch), then real [32, 256] grids reading those rows one after another.
        let p = passes(FftNdProblem::c2r(&[128, 128, 256], &[0, 1, 2]));
        assert_eq!((grid(&p[0]), p[1].recipe.core.real_grid(), grid(&p[1])), (Some(vec![128, 4]), Some(FftKind::C2R), Some(vec![32, 128])));
        let io = p[0].recipe.io.as_ref().unwrap();
        assert_eq!((io.input_stride, io.output_stride, io.twiddle.map(|t| t.len)), (32 * 129, 32 * 129, Some(128)));
        assert_eq!((p[0].from, p[0].to, p[1].from, p[1].to), (PassBuffer::Input, PassBuffer::Scratch, PassBuffer::Scratch, PassBuffer::Output));
        assert_eq!(p[1].recipe.io.as_ref().unwrap().input_stride, 129);
        // Three passes where the grids over columns would leave one block a multiprocessor
        // (f32 256^3: [256, 4] of 16 columns, 136 KiB; R2C and C2R too; 512^3), and where the
        // first axis is not transformed or not next to the column.
        for p in [
            FftNdProblem::c2c(&[256, 256, 256], &[0, 1, 2]),
            FftNdProblem::r2c(&[256, 256, 256], &[0, 1, 2]),
            FftNdProblem::c2r(&[256, 256, 256], &[0, 1, 2]),
            FftNdProblem::c2c(&[512, 512, 512], &[0, 1, 2]),
        ] {
            assert_eq!(passes(p.clone()).len(), 3, "{p:?}");
        }
        for p in [FftNdProblem::c2c(&[4, 128, 256], &[1, 2]), FftNdProblem::c2c(&[4, 128, 3, 256], &[0, 1, 3])] {
            assert!(passes(p.clone()).iter().all(|pass| !pass.recipe.tuning.grid_columns), "{p:?}");
        }
    }

    #[test]
    fn large_grids_take_a_launch_bound_of_two_blocks() {
        let bound = |p: FftNdProblem| passes(p)[0].recipe.tuning.min_blocks_per_sm;
        // Grids of 512 threads or more a block take one where two blocks' shared memory fits
        // (GRID_BOUND_MIN_THREADS). Fused: f32 128^3's real 128 x 128 grids (520 threads),
        // R2C's and C2R's; not R2C 64^3's 64 x 64 (132 threads); f64 128^3 is split, not a
        // fused grid.
        assert_eq!(bound(FftNdProblem::r2c(&[16, 128, 128, 128], &[1, 2, 3])), 2);
        assert_eq!(passes(FftNdProblem::c2r(&[16, 128, 128, 128], &[1, 2, 3]))[1].recipe.tuning.min_blocks_per_sm, 2);
        assert_eq!(bound(FftNdProblem::r2c(&[128, 64, 64, 64], &[1, 2, 3])), 1);
        assert_eq!(bound(FftNdProblem::r2c(&[8, 128, 128, 128], &[1, 2, 3]).f64()), 1);
        // Strided ones (the rows with pass A of a column): R2C 4096^2's real [4, 4096] grids
        // (513 threads), C2C 2048^2's [4, 2048] (512); not R2C 1024^2's [2, 1024] (64), nor
        // C2C 4096^2's [4, 4096] (512 threads, 132 KiB).
        assert_eq!(bound(FftNdProblem::r2c(&[2, 4096, 4096], &[1, 2])), 2);
        assert_eq!(passes(FftNdProblem::c2r(&[2, 4096, 4096], &[1, 2]))[1].recipe.tuning.min_blocks_per_sm, 2);
        assert_eq!(bound(FftNdProblem::c2c(&[8, 2048, 2048], &[1, 2])), 2);
        assert_eq!(bound(FftNdProblem::r2c(&[32, 1024, 1024], &[1, 2])), 1);
        assert_eq!(bound(FftNdProblem::c2c(&[2, 4096, 4096], &[1, 2])), 1);
    }

    #[test]
    fn short_trailing_axes_fuse_into_one_grid_pass() {
        let passes = |p: FftNdProblem, limits| FftNdRecipe::design(p, limits).unwrap().passes;
        // 64^3: 64 x 64 grids, then the first axis; 16^3 in one pass; 32^3: 32 x 32 grids.
        let p = passes(FftNdProblem::c2c(&[64, 64, 64], &[0, 1, 2]), H200);
        assert_eq!(p.iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![64, 64]), None]);
        assert_eq!((p[0].from, p[0].to, p[0].recipe.problem.batch), (PassBuffer::Input, PassBuffer::Output, 64));
        assert_eq!(p[1].recipe.io.as_ref().unwrap().input_stride, 4096);
        assert_eq!(passes(FftNdProblem::c2c(&[5, 16, 16, 16], &[1, 2, 3]), H200).iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![16, 16, 16])]);
        assert_eq!(passes(FftNdProblem::c2c(&[32, 32, 32], &[0, 1, 2]), H200).iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![32, 32]), None]);
        // Up to the longest row: 128 x 128 in f32, not in f64 (8192 points at most).
        assert_eq!(passes(FftNdProblem::c2c(&[3, 128, 128], &[1, 2]), H200).len(), 1);
        assert_eq!(passes(FftNdProblem::c2c(&[3, 64, 128], &[1, 2]).f64(), H200).len(), 1);
        assert!(passes(FftNdProblem::c2c(&[3, 128, 128], &[1, 2]).f64(), H200).iter().all(|p| grid(p).is_none()));
        // Axes of length 1 pass through; an axis left out, a long axis, a prime factor without
        // a codelet (67), strides or a real transform stop the fusion.
        assert_eq!(passes(FftNdProblem::c2c(&[12, 1, 10, 1], &[0, 2]).in_place(), H200).iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![12, 10])]);
        assert!(passes(FftNdProblem::c2c(&[12, 10, 8], &[0, 1]), H200).iter().all(|p| grid(p).is_none()));
        assert!(passes(FftNdProblem::c2c(&[2, 5000], &[0, 1]), H200).iter().all(|p| grid(p).is_none()));
        assert!(passes(FftNdProblem::c2c(&[8, 67], &[0, 1]), H200).iter().all(|p| grid(p).is_none()));
        assert!(passes(FftNdProblem::c2c(&[8, 8], &[0, 1]).input_strides(&[1, 8]), H200).iter().all(|p| grid(p).is_none()));
        // Real transforms with the halved axis last: a real grid, its half spectrum's lines
        // one longer (128 x 65 in shared memory); 64^3 in two passes.
        assert_eq!(passes(FftNdProblem::r2c(&[8, 8], &[0, 1]), H200).iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![8, 4])]);
        let real = passes(FftNdProblem::r2c(&[64, 64, 64], &[0, 1, 2]), H200);
        assert_eq!(real.iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![64, 32]), None]);
        assert_eq!(real[0].recipe.core.region(), 64 * 33);
        let c2r = passes(FftNdProblem::c2r(&[64, 64, 64], &[0, 1, 2]), H200);
        assert_eq!(c2r.iter().map(grid).collect::<Vec<_>>(), vec![None, Some(vec![64, 32])]);
        assert_eq!((c2r[1].from, c2r[1].to), (PassBuffer::Scratch, PassBuffer::Output));
        assert!(passes(FftNdProblem::r2c(&[8, 9], &[0, 1]), H200).iter().all(|p| grid(p).is_none()), "odd halved axis");
        // A long axis first, then the grid of the short trailing ones.
        let p = passes(FftNdProblem::c2c(&[8192, 8, 8], &[0, 1, 2]), H200);
        assert_eq!(grid(&p[p.len() - 1]), Some(vec![8, 8]));
        assert!(p[..p.len() - 1].iter().all(|p| grid(p).is_none()));
        // Where shared memory is small, the grid shrinks to what fits: 48 KiB hold 1024 f32
        // values, not 32768.
        let small = DeviceLimits { shared_bytes: 48 * 1024, ..DeviceLimits::H200 };
        assert_eq!(passes(FftNdProblem::c2c(&[32, 32, 32], &[0, 1, 2]), small).iter().map(grid).collect::<Vec<_>>(), vec![Some(vec![32, 32]), None]);
    }

    #[test]
    fn four_step_batches_match_the_layout_before_real_transforms() {
        // Pass A of 2^20 = 1024 x 1024 in 2 rows: columns of 1024 (n1 fastest), written as rows.
        let long = FftNdRecipe::design(FftNdProblem::c2c_1d(1 << 20, 2), H200).unwrap();
        let a = long.passes[0].recipe.io.as_ref().unwrap();
        assert_eq!((a.input_stride, a.output_stride), (1024, 1));
        assert_eq!(a.input().dims, vec![(1024, 1), (2, 1 << 20)]);
        assert_eq!(a.output().dims, vec![(2048, 1024)], "Y[n1, k2] rows continue into the next transform's");
        let b = long.passes[1].recipe.io.as_ref().unwrap();
        assert_eq!((b.input_stride, b.output_stride), (1024, 1024));
        assert_eq!(b.input().dims, vec![(1024, 1), (2, 1 << 20)]);
    }

    #[test]
    fn real_transforms_take_the_halved_axis_first_or_last() {
        // R2C of the last axis, then the others in place in the output (an odd last axis: not
        // a real grid).
        let r = FftNdRecipe::design(FftNdProblem::r2c(&[40, 30, 65], &[0, 1, 2]), H200).unwrap();
        assert_eq!(r.passes.len(), 3);
        assert_eq!(r.passes[0].recipe.problem.kind, FftKind::R2C);
        assert!(r.passes[0].recipe.io.is_none());
        assert!(r.passes[1..].iter().all(|p| (p.from, p.to) == (PassBuffer::Output, PassBuffer::Output)));
        // C2R halving axis 0 (the last named): axis 2 into scratch, then axis 0 into the output.
        let c = FftNdRecipe::design(FftNdProblem::c2r(&[40, 30, 64], &[2, 0]), H200).unwrap();
        assert_eq!(c.passes.len(), 2);
        assert_eq!((c.passes[0].from, c.passes[0].to), (PassBuffer::Input, PassBuffer::Scratch));
        assert_eq!((c.passes[1].from, c.passes[1].to), (PassBuffer::Scratch, PassBuffer::Output));
        let io = c.passes[1].recipe.io.as_ref().unwrap();
        assert!(matches!(io.input_values, Values::Half(_)) && io.output_values == Values::Real);
        assert_eq!((io.input_stride, io.output_stride), (30 * 64, 30 * 64));
        assert_eq!(io.input().dims, vec![(30 * 64, 1)]);
        // A long real axis: complex values of the whole shape between its passes, in scratch.
        let long = FftNdRecipe::design(FftNdProblem::r2c_1d(1 << 24, 1), H200).unwrap();
        assert_eq!(long.passes.len(), 3);
        let buffers: Vec<_> = long.passes.iter().map(|p| (p.from, p.to)).collect();
        assert_eq!(buffers, vec![(PassBuffer::Input, PassBuffer::Scratch), (PassBuffer::Scratch, PassBuffer::SecondScratch), (PassBuffer::SecondScratch, PassBuffer::Output)]);
        // Its reals pair up: the complex transform of 2^23 points (the reals read as complex
        // pairs), whose last pass writes the half spectrum from mirror columns.
        assert_eq!(long.passes[0].recipe.io.as_ref().unwrap().input_values, Values::Complex);
        let Values::Packed(p) = &long.passes[2].recipe.io.as_ref().unwrap().output_values else { panic!("the last pass writes the half spectrum") };
        assert_eq!(2 * p.at.row * long.passes[2].recipe.problem.len, 1 << 24, "{p:?}");
        // Rows an odd distance apart do not pair up: real rows split four-step.
        let odd = FftNdRecipe::design(FftNdProblem::r2c(&[2, 1 << 24], &[1]).input_strides(&[(1 << 24) + 1, 1]), H200).unwrap();
        assert_eq!(odd.passes[0].recipe.io.as_ref().unwrap().input_values, Values::Real);
        let Values::Half(h) = &odd.passes[2].recipe.io.as_ref().unwrap().output_values else { panic!("the last pass writes the half spectrum") };
        assert_eq!(h.at.row * odd.passes[2].recipe.problem.len, 1 << 24, "{h:?}");
    }

    #[test]
    fn half_spectrum_coefficients_follow_the_four_step_order() {
        // C2R of 3072 = 64 x 48 points: pass A reads coefficient n1 + 64 n2 (n2 its row's
        // index), rows n1 <= 32 only (row 64 - n1 is row n1's conjugate); pass B reads its
        // rows as half spectra of 64, coefficient i of each 48 middle rows apart.
        let job = AxisJob::halved(&FftNdProblem::c2r_1d(3072, 2), 1);
        let (a, rest) = job.split(48);
        let Values::Half(h) = &a.input_values else { panic!() };
        assert_eq!(a.batch[0].count, 33);
        for (b, i) in [(0, 0), (1, 2), (32, 3), (33, 1), (35, 47)] {
            let n1 = b % 33;
            assert_eq!(h.at.of(&a.batch, b, i), n1 + 64 * i, "row {b} value {i}");
        }
        assert_eq!(rest.input_values, Values::Half(HalfAxis::whole(64, 48, rest.dims.len())));
        assert_eq!(rest.output_values, Values::Real);
        assert_eq!(rest.dims[0].count, 48);
        // The rest, a C2R axis of 64 (its half spectrum what pass A wrote), split 32 x 2
        // halves again: rows n1 <= 16 of 32.
        let (a2, rest2) = rest.split(2);
        // (batch: the first split's 48 rows, then the 17 new ones, coefficient n1 + 32 n2.)
        assert_eq!(a2.batch.iter().map(|d| d.count).collect::<Vec<_>>(), vec![48, 17, 1, 2]);
        assert_eq!((a2.input_values.clone(), rest2.output_values), (Values::Half(HalfAxis { at: AxisIndex { row: 32, dims: vec![0, 1, 0, 0] }, ..HalfAxis::whole(64, 48, 4) }), Values::Real));
        // R2C of 3072: pass A writes coefficients k2 <= 24 of its rows; the last pass, rows
        // k2 <= 24 only, writes X[k2 + 48 k1], and past 1536 the mirror images of rows
        // 0 < k2 < 24.
        let (a, rest) = AxisJob::halved(&FftNdProblem::r2c_1d(3072, 2), 1).split(48);
        assert_eq!(a.output_values, Values::Half(HalfAxis::whole(48, 1, a.batch.len())));
        let b = rest.io();
        let Values::Half(w) = &b.output_values else { panic!() };
        assert_eq!((b.batch[0].count, w.mirror_writes), (25, Some(48)));
        for (row, k1) in [(0, 0), (2, 2), (24, 1), (26, 63)] {
            let k2 = row % 25;
            assert_eq!(w.at.of(&b.batch, row, k1), k2 + 48 * k1, "row {row} value {k1}");
        }
        // Neither halves where a Bluestein step rides on the passes.
        let mut chirped = AxisJob::halved(&FftNdProblem::r2c_1d(12, 2), 1);
        chirped.input_chirp = Some(Chirp { step: ChirpStep::Signal, len: 12, conv_len: 32, at: AxisIndex::whole(2) });
        assert_eq!(chirped.real_split(), None);
    }

    #[test]
    fn large_prime_factors_run_bluestein_through_padded_scratch() {
        let r = FftNdRecipe::design(FftNdProblem::c2c_1d(4099, 2), H200).unwrap();
        let m = r.scratch_len / 2;
        assert!(m >= 2 * 4099 - 1 && is_smooth(m, 7), "{m}");
        let chirps: Vec<_> = r.passes.iter().map(|p| {
            let io = p.recipe.io.as_ref().unwrap();
            let step = |c: &Option<Chirp>| c.as_ref().map(|c| c.step);
            (step(&io.input_chirp), step(&io.between), step(&io.output_chirp))
        }).collect();
        // Two transforms of m points, each in two passes, the first's last and the second's
        // first as one: chirp in, filter between, chirp out.
        assert_eq!(chirps, vec![(Some(ChirpStep::Signal), None, None), (None, Some(ChirpStep::Filter), None), (None, None, Some(ChirpStep::Spectrum))]);
        let buffers: Vec<_> = r.passes.iter().map(|p| (p.from, p.to)).collect();
        use PassBuffer::*;
        // The fused pass writes other places than it reads (the second transform's pass A's):
        // into the other scratch buffer, as the first transform's last pass ran in place.
        assert_eq!(buffers, vec![(Input, Scratch), (Scratch, SecondScratch), (SecondScratch, Output)]);
        // The fused pass: value k of its row n1 is X[n1 + N1 k] of the first transform, the
        // four-step twiddle's row index n1 (e^{-2 pi i n1 k2/m} on its writes).
        let fused = r.passes[1].recipe.io.as_ref().unwrap();
        let (filter, twiddle, n) = (fused.between.as_ref().unwrap(), fused.twiddle.unwrap(), r.passes[1].recipe.problem.len);
        assert_eq!((filter.at.row * n, twiddle.len), (m, m));
        for b in 0..fused.rows() {
            let n1 = AxisIndex { row: 0, dims: (0..fused.batch.len()).map(|d| usize::from(d == twiddle.dim)).collect() }.of(&fused.batch, b, 0);
            assert_eq!(filter.at.of(&fused.batch, b, 1), n1 + m / n);
        }
        // Only one filter step a pass, and only between codelets' passes.
        let twice = StridedIo { output_chirp: fused.between.clone(), ..fused.clone() };
        assert!(twice.validate(n, 1).is_err());
        let other = FftRecipe::design_row(FftProblem::c2c(1009, 1), H200).unwrap().core;
        let err = FftRecipe { core: other, ..r.passes[1].recipe.clone() }.check(H200).unwrap_err();
        assert!(err.to_string().contains("needs a Stockham core"), "{err}");
        // Every index of the convolution is read once by the first pass and written once by
        // the last; only those under 4099 touch the signal and the spectrum.
        for (pass, read) in [(&r.passes[0], true), (&r.passes[2], false)] {
            let io = pass.recipe.io.as_ref().unwrap();
            let at = if read { &io.input_chirp } else { &io.output_chirp }.clone().unwrap().at;
            let mut seen = vec![0; 2 * m];
            for b in 0..io.rows() {
                for i in 0..pass.recipe.problem.len {
                    seen[at.of(&io.batch, b, i) + m * (b / (io.rows() / 2))] += 1;
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "{:?}", io);
        }
        // C2R halving a prime axis after another: from scratch, so the padded copy is the second.
        let c = FftNdRecipe::design(FftNdProblem::c2r(&[3, 4099], &[0, 1]), H200).unwrap();
        assert_eq!((c.passes[0].from, c.passes[0].to), (Input, Scratch));
        assert_eq!((c.passes[1].from, c.passes[1].to), (Scratch, SecondScratch));
        assert_eq!(c.passes.last().unwrap().to, Output);
        assert!(matches!(c.passes[1].recipe.io.as_ref().unwrap().input_values, Values::HalfPairs(..)), "three rows in two pairs");
        assert!(c.scratch_len >= 2 * (2 * 4099 - 1), "two pairs of rows");
        // 10^6 + 3 is prime: a convolution of 2^21 in two passes each way (1024 and 2048
        // points), the middle two as one.
        let long = FftNdRecipe::design(FftNdProblem::c2c_1d(1_000_003, 1), H200).unwrap();
        assert!(long.scratch_len >= 2_000_005 && long.scratch_len <= 2_500_000, "{}", long.scratch_len);
        assert_eq!(long.passes.len(), 3);
        assert!(long.passes[1].recipe.io.as_ref().unwrap().between.is_some());
    }

    #[test]
    fn real_rows_of_bluestein_axes_run_in_pairs() {
        let io = |p: &FftPass| p.recipe.io.clone().unwrap();
        // R2C of three rows: pairs (0, 1) and (1, 2), one row apart; Z left in scratch in
        // the padded layout, then separated into the output, pair 0's second row dropped.
        let r = FftNdRecipe::design(FftNdProblem::r2c_1d(4099, 3), H200).unwrap();
        let m = r.scratch_len / 2;
        assert!(m >= 2 * 4099 - 1, "two pair rows of the padded copy: {m}");
        let Values::RealPairs(read) = io(&r.passes[0]).input_values else { panic!("{}", r.describe()) };
        assert_eq!((read.partner, read.shared_first), (4099, true));
        assert_eq!(io(&r.passes[0]).batch[read.dim].count, 2);
        let s = r.separation.as_ref().expect("R2C pairs separate their spectra");
        assert_eq!((s.after, s.from, s.to), (r.passes.len(), r.passes.last().unwrap().to, PassBuffer::Output));
        assert_ne!(s.from, PassBuffer::Output);
        assert_eq!((s.pairs.rows(), s.pairs.pairs.partner, s.pairs.pairs.shared_first, s.pairs.x_stride), (2, 2050, true, 1));
        assert_eq!(s.pairs.batch.iter().map(|d| d.input).max(), Some(m), "Z in the padded layout");
        assert!(r.describe().contains("fft_separate_pairs_f32_n4099"), "{}", r.describe());
        let last = io(r.passes.last().unwrap());
        assert_eq!((last.output_stride, last.output()), (last.input_stride, last.input()), "the last pass writes Z where it read");
        let text = s.pairs.source().body;
        assert!(text.contains("if (b % 2u != 0) xb[k * 1u + 2050u]"), "{text}");
        // C2R of four rows: pairs (0, 2) and (1, 3), read as X + i Y and written as x and y;
        // no separation.
        let c = FftNdRecipe::design(FftNdProblem::c2r_1d(4099, 4), H200).unwrap();
        assert!(c.separation.is_none());
        let Values::HalfPairs(_, joined) = io(&c.passes[0]).input_values else { panic!("{}", c.describe()) };
        let Values::RealPairs(written) = io(c.passes.last().unwrap()).output_values else { panic!("{}", c.describe()) };
        assert_eq!((joined.partner, written.partner, written.shared_first), (2 * 2050, 2 * 4099, false));
        let first = fft_source(&c.passes[0].recipe).body;
        assert!(first.contains("cplx v = MAKE_CPLX(x.x - y.y, x.y + y.x);   /* X + i Y */"), "{first}");
        // An odd count: pair 0's second row is the last pair's first, written once.
        let odd = FftNdRecipe::design(FftNdProblem::c2r_1d(4099, 3), H200).unwrap();
        let last = fft_source(&odd.passes.last().unwrap().recipe).body;
        assert!(last.contains("u != 0) row[") && last.contains("/* y */"), "{last}");
        // One row: nothing to pair.
        let one = FftNdRecipe::design(FftNdProblem::r2c_1d(4099, 1), H200).unwrap();
        assert!(one.separation.is_none() && io(&one.passes[0]).input_values == Values::Real);
    }

    #[test]
    fn contiguous_rows_run_the_wisdoms_kernels() {
        // The CLI's 1D transforms go through N-d plans: 337 points run the wisdom's kernel, as
        // a 1D plan does, and so do rows past one 1D launch (C2R of 16384 points) and the rows
        // of a 2D transform's last axis.
        let rows = |p: FftNdProblem| FftNdRecipe::design(p, H200).unwrap().passes.iter().map(|p| p.recipe.kernel_name()).collect::<Vec<_>>();
        let planned = |p: FftProblem| FftRecipe::design_row(p, H200).unwrap().kernel_name();
        for (nd, row) in [
            (FftNdProblem::c2c(&[5, 337], &[1]), FftProblem::c2c(337, 5)),
            (FftNdProblem::c2r_1d(16384, 3), FftProblem::c2r(16384, 3)),
            (FftNdProblem::c2c(&[2, 3, 353], &[1, 2]), FftProblem::c2c(353, 6)),
        ] {
            let heuristic = FftRecipe::design_row_by_heuristic(row, H200).unwrap().kernel_name();
            assert_ne!(planned(row), heuristic, "{row:?} has a wisdom entry");
            assert!(rows(nd.clone()).contains(&planned(row)), "{nd:?}");
        }
        assert_eq!(FftRecipe::design(FftProblem::c2c(337, 5), H200).unwrap().kernel_name(), planned(FftProblem::c2c(337, 5)));
    }

    #[test]
    fn smooth_contiguous_rows_run_in_one_launch_where_shared_memory_holds_them() {
        let passes = |p: FftNdProblem| FftNdRecipe::design(p, H200).unwrap().passes.len();
        assert_eq!(passes(FftNdProblem::c2c_1d(16384, 2)), 1);
        assert_eq!(passes(FftNdProblem::c2c_1d(8192, 2).f64()), 1);
        assert_eq!(passes(FftNdProblem::c2c_1d(16384, 2).f64()), 2, "256 KiB of f64 values do not fit");
        // 32768: a split in one launch across a cluster of two blocks; without clusters, two.
        assert_eq!(passes(FftNdProblem::c2c_1d(32768, 1)), 1);
        let no_clusters = DeviceLimits { clusters: crate::fft::ClusterLimits::NONE, ..H200 };
        assert_eq!(FftNdRecipe::design(FftNdProblem::c2c_1d(32768, 1), no_clusters).unwrap().passes.len(), 2);
        assert_eq!(passes(FftNdProblem::c2c_1d(17 * 601, 1)), 2, "a prime factor over 13");
        // 8192^2: the rows in one pass, the columns in two.
        assert_eq!(passes(FftNdProblem::c2c(&[8192, 8192], &[0, 1])), 3);
        assert_eq!(longest_row(Precision::F32, DeviceLimits { shared_bytes: 48 * 1024, ..DeviceLimits::H200 }), MAX_SINGLE_LAUNCH_LEN);
        // Even real rows: twice as long (a half-length complex kernel), where shared memory
        // holds the half: 32768 f32 and 16384 f64 points on an H200; in 48 KiB, 8192 f32 points
        // (a half of 32 KiB) but not 8192 f64 (64 KiB).
        for p in [FftNdProblem::r2c_1d(32768, 2), FftNdProblem::c2r_1d(32768, 2), FftNdProblem::r2c_1d(16384, 2).f64(), FftNdProblem::c2r_1d(16384, 2).f64()] {
            assert_eq!(passes(p.clone()), 1, "{p:?}");
        }
        // 65536 f32: R2C's complex half across a cluster (Planner::cluster), C2R in two passes.
        assert_eq!(passes(FftNdProblem::r2c_1d(65536, 2)), 1);
        assert_eq!(passes(FftNdProblem::c2r_1d(65536, 2)), 2);
        assert_eq!(passes(FftNdProblem::r2c_1d(32768, 2).f64()), 2);
        let small = DeviceLimits { shared_bytes: 48 * 1024, ..H200 };
        let small_passes = |p: FftNdProblem| FftNdRecipe::design(p, small).unwrap().passes.len();
        assert_eq!(small_passes(FftNdProblem::r2c_1d(8192, 2)), 1);
        assert_eq!(small_passes(FftNdProblem::c2r_1d(8192, 2).f64()), 2);
    }

    #[test]
    fn short_long_axes_run_their_split_across_a_cluster() {
        // 2^15 = 128 x 256: pass A over 128 points (256 rows n1, 128 a block), pass B over 256
        // (128 rows k2, 64 a block), one launch of two-block clusters, no scratch.
        let r = FftNdRecipe::design(FftNdProblem::c2c_1d(1 << 15, 3), H200).unwrap();
        assert_eq!((r.passes.len(), r.scratch_buffers()), (1, 0));
        let second = &r.passes[0].recipe;
        let split = second.cluster.as_ref().unwrap();
        assert_eq!((split.blocks, split.rows(second), split.first.problem.len, second.problem.len), (2, (128, 64), 128, 256));
        assert_eq!(second.blocks(), 3 * 2, "one cluster an array");
        assert_eq!(second.threads_per_block(), 1024, "one block a multiprocessor: 133 KiB of shared memory");
        assert!(split.first.io.as_ref().unwrap().twiddle.is_some());
        // Longer axes, f64 and C2R keep their two passes; so do strided axes.
        for p in [FftNdProblem::c2c_1d(1 << 16, 1), FftNdProblem::c2c_1d(1 << 15, 1).f64(), FftNdProblem::c2r_1d(1 << 16, 1), FftNdProblem::c2c(&[1 << 15, 2], &[0])] {
            let r = FftNdRecipe::design(p.clone(), H200).unwrap();
            assert!(r.passes.iter().all(|pass| pass.recipe.cluster.is_none()), "{}", r.describe());
        }
        // R2C of 2^16: pass B (128 rows k2 of 256 points, 64 a block) writes the packed half
        // spectrum, each block's columns beside their mirror images (32 pairs a block).
        let r = FftNdRecipe::design(FftNdProblem::r2c_1d(1 << 16, 3), H200).unwrap();
        let second = &r.passes[0].recipe;
        assert_eq!((r.passes.len(), second.blocks()), (1, 3 * 2));
        assert_eq!(ClusterSplit::packed_columns(second), Some(128));
        assert!(second.cluster.as_ref().unwrap().first.io.as_ref().unwrap().packed().is_none());
        // In place too: a cluster reads all its array before it writes any of it.
        assert_eq!(FftNdRecipe::design(FftNdProblem::c2c_1d(1 << 15, 2).in_place(), H200).unwrap().passes.len(), 1);
    }

    #[test]
    fn padded_rows_run_the_contiguous_kernels() {
        let padded = FftNdProblem::c2c(&[3, 4096], &[1]).input_strides(&[4100, 1]).output_strides(&[4104, 1]);
        let r = FftNdRecipe::design(padded, H200).unwrap();
        assert_eq!(r.passes.len(), 1);
        assert!(r.passes[0].recipe.io.is_none(), "the contiguous kernel, rows apart");
        assert_eq!(r.passes[0].recipe.problem.row_distances, Some((4100, 4104)));
        // Odd distances between even real rows (read as complex pairs): the strided kernel.
        let odd = FftNdRecipe::design(FftNdProblem::r2c(&[3, 4096], &[1]).input_strides(&[4097, 1]), H200).unwrap();
        assert!(odd.passes[0].recipe.io.is_some());
        // Columns of 4096 still split: a block would hold too few of them.
        assert_eq!(FftNdRecipe::design(FftNdProblem::c2c(&[4096, 3], &[0]), H200).unwrap().passes.len(), 2);
    }
}
