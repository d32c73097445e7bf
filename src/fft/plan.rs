//! Building a recipe into a plan (compiled kernel, tables on the device) and executing it.

use std::sync::Arc;

use num_complex::Complex;

use super::cluster::ClusterLimits;
use super::codegen::{fft_source, TableLayout};
use super::problem::{Direction, FftKind, FftProblem, Placement, Precision};
use super::bank_conflicts::BankModel;
use super::recipe::{DeviceLimits, FftRecipe, RealPacking, TwiddleSource};
use super::transform_core::Core;
use super::tables::{bluestein_filter_spectrum, chirp, rader_filter_spectrum, rader_index_tables, table_bytes, twiddles, RootDigits};
use crate::device::{Arg, Device, DeviceBuffer, Grid, Program};
use crate::Backend;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::kernel::KernelSource;

/// A batched 1D FFT ready to run: built once (kernel compiled or loaded from the cache, twiddle
/// tables uploaded), executed many times with no allocation and no compilation. Usable from
/// several threads: executions are queued in order on the device's one stream.
pub struct FftPlan {
    device: Device,
    recipe: FftRecipe,
    program: Arc<Program>,
    kernel: String,
    tables: DeviceBuffer<u8>,
    /// The launch's shape, fixed when the plan is built.
    grid: Grid,
}

impl FftPlan {
    /// Plans `problem` on `device` with the heuristic's choices.
    pub fn new(device: &Device, problem: FftProblem) -> Result<Self> {
        Self::from_recipe(device, FftRecipe::design(problem, limits(device))?)
    }

    /// Builds a recipe designed elsewhere (or tuned by hand); checked against the device.
    pub fn from_recipe(device: &Device, recipe: FftRecipe) -> Result<Self> {
        let program = device.build(&Self::source(&recipe))?;
        Self::assemble(device, recipe, program)
    }

    /// Plans many problems at once, compiling their kernels on all host cores.
    pub fn new_many(device: &Device, problems: &[FftProblem]) -> Result<Vec<Self>> {
        let recipes = problems.iter().map(|p| FftRecipe::design(*p, limits(device))).collect::<Result<Vec<_>>>()?;
        Self::from_recipes(device, recipes)
    }

    /// Builds many recipes at once, compiling their kernels on all host cores.
    pub fn from_recipes(device: &Device, recipes: Vec<FftRecipe>) -> Result<Vec<Self>> {
        let sources: Vec<KernelSource> = recipes.iter().map(Self::source).collect();
        let programs = device.build_all(&sources)?;
        recipes.into_iter().zip(programs).map(|(r, p)| Self::assemble(device, r, p)).collect()
    }

    /// The generated kernel of a recipe.
    pub fn source(recipe: &FftRecipe) -> KernelSource {
        fft_source(recipe)
    }

    fn assemble(device: &Device, recipe: FftRecipe, program: Arc<Program>) -> Result<Self> {
        recipe.check(limits(device))?;
        let kernel = recipe.kernel_name();
        program.kernel(&kernel)?;
        let tables = upload_tables(device, &recipe)?;
        let grid = launch_grid(&recipe, device.backend())?;
        Ok(FftPlan { device: device.clone(), recipe, program, kernel, tables, grid })
    }

    pub fn recipe(&self) -> &FftRecipe {
        &self.recipe
    }

    pub fn problem(&self) -> &FftProblem {
        &self.recipe.problem
    }

    /// Whether the kernel came from the disk cache rather than the compiler.
    pub fn from_disk_cache(&self) -> bool {
        self.program.from_disk_cache
    }

    direction_wrappers!();

    /// Out-of-place transform in `direction`: input and output are checked against the
    /// problem (element types, lengths, device) before anything is queued.
    pub fn execute<I: Element, O: Element>(&self, direction: Direction, input: &DeviceBuffer<I>, output: &mut DeviceBuffer<O>) -> Result<()> {
        let p = &self.recipe.problem;
        if p.placement == Placement::InPlace && p.kind != FftKind::C2C {
            return Err(Error::invalid(format!(
                "this {} plan is in place (padded rows of 2(N/2+1) reals): call forward_in_place/inverse_in_place, \
                 or plan with Placement::OutOfPlace",
                p.kind
            )));
        }
        self.check_direction(direction)?;
        check_buffer("input", I::KIND, input.len(), p.input_kind(), p.input_len())?;
        check_buffer("output", O::KIND, output.len(), p.output_kind(), p.output_len())?;
        self.launch(direction, input.into(), output.into())
    }

    /// As [`execute`](Self::execute), on the first elements of buffers that may be longer than
    /// the plan's: benchmarks run plans of many sizes on one pair of buffers.
    pub fn execute_prefix<I: Element, O: Element>(&self, direction: Direction, input: &DeviceBuffer<I>, output: &mut DeviceBuffer<O>) -> Result<()> {
        let p = &self.recipe.problem;
        self.check_direction(direction)?;
        let (i, o) = (input.len().min(p.input_len()), output.len().min(p.output_len()));
        check_buffer("input", I::KIND, i, p.input_kind(), p.input_len())?;
        check_buffer("output", O::KIND, o, p.output_kind(), p.output_len())?;
        self.launch(direction, input.into(), output.into())
    }

    /// In-place transform: `data` holds the input and receives the output. For R2C and C2R
    /// it is the padded layout, as reals (2(N/2+1) per row) or as complex values (N/2+1 per row).
    pub fn execute_in_place<T: Element>(&self, direction: Direction, data: &mut DeviceBuffer<T>) -> Result<()> {
        let p = &self.recipe.problem;
        self.check_direction(direction)?;
        if p.kind != FftKind::C2C {
            if p.placement != Placement::InPlace {
                return Err(Error::invalid(format!(
                    "this {} plan is out of place: plan with .in_place() for the padded in-place layout",
                    p.kind
                )));
            }
            let complex = p.batch * p.half_spectrum_len();
            if T::KIND == p.complex_kind() {
                check_buffer("in-place data", T::KIND, data.len(), p.complex_kind(), complex)?;
            } else {
                check_buffer("in-place data", T::KIND, data.len(), p.real_kind(), 2 * complex)?;
            }
        } else {
            check_buffer("in-place data", T::KIND, data.len(), p.complex_kind(), p.input_len())?;
        }
        let raw = data.raw();
        self.launch(direction, Arg::Buffer(raw), Arg::Buffer(raw))
    }

    fn check_direction(&self, direction: Direction) -> Result<()> {
        self.recipe.problem.kind.check_direction(direction)
    }

    fn launch(&self, direction: Direction, input: Arg<'_>, output: Arg<'_>) -> Result<()> {
        self.launch_scaled(direction, input, output, self.recipe.problem.scale(direction))
    }

    /// Queues the kernel on buffers the caller has checked, scaling its output by `scale`:
    /// the passes of a multi-pass plan scale once, in the last.
    pub(crate) fn launch_scaled(&self, direction: Direction, input: Arg<'_>, output: Arg<'_>, scale: f64) -> Result<()> {
        let r = &self.recipe;
        let sign = if direction == Direction::Forward { 1.0 } else { -1.0 };
        let (sign, scale) = (real_arg(r.problem.precision, sign), real_arg(r.problem.precision, scale));
        let args = [input, output, (&self.tables).into(), Arg::U64(r.problem.batch as u64), sign, scale];
        self.device.launch(self.program.kernel(&self.kernel)?, self.grid, &args)
    }
}

/// A kernel's `real` argument in its precision.
pub(crate) fn real_arg(precision: Precision, v: f64) -> Arg<'static> {
    match precision {
        Precision::F32 => Arg::F32(v as f32),
        Precision::F64 => Arg::F64(v),
    }
}

/// The launch of a recipe's kernel on a device of `backend`: a block per `transforms_per_block`
/// rows. OpenCL runs a cluster's blocks as one work-group (codegen/cluster.rs).
fn launch_grid(r: &FftRecipe, backend: Backend) -> Result<Grid> {
    let blocks = u32::try_from(r.blocks())
        .map_err(|_| Error::Unsupported(format!("a batch of {} needs more than 2^32 blocks: split the batch", r.problem.batch)))?;
    let mut grid = Grid { groups: [blocks, 1, 1], threads: [r.threads_per_block(), 1, 1], shared_bytes: r.shared_bytes() as u32 };
    if let (Some(split), Backend::OpenCl) = (&r.cluster, backend) {
        grid.groups[0] /= split.blocks;
        grid.threads[0] *= split.blocks;
    }
    Ok(grid)
}

/// A buffer's element type and length against the plan's.
pub(crate) fn check_buffer(what: &str, got_kind: crate::ScalarKind, got_len: usize, kind: crate::ScalarKind, len: usize) -> Result<()> {
    if got_kind != kind {
        return Err(Error::invalid(format!("FFT {what} holds {got_kind}, but the plan needs {kind}")));
    }
    if got_len != len {
        return Err(Error::LengthMismatch { what: format!("FFT {what} ({kind})"), expected: len, got: got_len });
    }
    Ok(())
}

/// The device limits planning respects.
pub fn limits(device: &Device) -> DeviceLimits {
    let info = device.info();
    let clusters = ClusterLimits::of(info.backend, info.compute_capability);
    DeviceLimits { shared_bytes: info.shared_memory_per_block, max_threads: info.max_threads_per_block, clusters, bank_model: BankModel::WholeWarp }
}

/// The plan's tables, computed in f64 and rounded to the kernel's precision, in one buffer
/// (a cluster's: pass B's, then pass A's).
fn upload_tables(device: &Device, recipe: &FftRecipe) -> Result<DeviceBuffer<u8>> {
    let mut values = table_values(recipe);
    if let Some(split) = &recipe.cluster {
        values.extend(table_values(&split.first));
    }
    if values.is_empty() {
        values.push(Complex::new(0.0, 0.0)); // no zero-length allocations
    }
    device.upload(&table_bytes(&values, recipe.problem.precision))
}

/// One kernel's tables, in f64, laid out as [`TableLayout::of`] says.
fn table_values(recipe: &FftRecipe) -> Vec<Complex<f64>> {
    let layout = TableLayout::of(recipe);
    let mut values: Vec<Complex<f64>> = Vec::with_capacity(layout.total.max(1));
    let tabled = recipe.tuning.twiddles != TwiddleSource::Computed;
    if tabled && recipe.core.row_passes() {
        let period = TableLayout::twiddle_period(&recipe.core);
        values.extend(twiddles(period, period));
    }
    let inner = TableLayout::inner_twiddle_count(recipe);
    if inner > 0 {
        values.extend(twiddles(inner, inner));
    }
    if recipe.packing == RealPacking::HalfLength {
        values.extend(twiddles(recipe.real_len(), recipe.real_len() / 2 + 1));
    }
    if let Core::Bluestein { factor, conv_len, .. } = recipe.core {
        let c = chirp(factor);
        let spectrum = bluestein_filter_spectrum(&c, conv_len);
        values.extend(c);
        values.extend(spectrum);
    }
    if let Core::Rader { len, prime, ref inner, .. } = recipe.core {
        let precision = recipe.problem.precision;
        let by_prime_factors = recipe.convolution_by_prime_factors();
        values.extend(rader_filter_spectrum(prime, inner[0], by_prime_factors));
        let pad = TableLayout::rader_index_pad(values.len(), precision);
        values.extend(std::iter::repeat_n(Complex::new(0.0, 0.0), pad));
        let (gather, scatter) = rader_index_tables(len, prime, inner[0], by_prime_factors, precision);
        values.extend(gather);
        values.extend(scatter);
    }
    if let Some(digits) = recipe.io.as_ref().and_then(|io| io.twiddle_tables(recipe.problem.precision)) {
        values.extend(digits.tables());
    }
    if let Some(c) = recipe.io.as_ref().and_then(|io| io.chirp_step()) {
        values.extend(RootDigits::of(2 * c.len).tables());
    }
    if let Some(c) = recipe.io.as_ref().and_then(|io| io.filter_step()) {
        values.extend(bluestein_filter_spectrum(&chirp(c.len), c.conv_len));
    }
    if let Some(p) = recipe.io.as_ref().and_then(|io| io.packed()) {
        values.extend(RootDigits::of(p.len).tables());
    }
    debug_assert_eq!(values.len(), layout.total);
    values
}
