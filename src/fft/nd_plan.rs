//! Building a multi-pass recipe (every pass's kernel compiled, tables and scratch allocated)
//! and executing it: one launch per pass, queued in order, no allocation at execute time.

use super::nd::FftNdProblem;
use super::nd_recipe::{FftNdRecipe, PassBuffer};
use super::plan::{check_buffer, limits, FftPlan};
use super::problem::{Direction, Placement};
use super::real_pairs::SeparationPlan;
use super::recipe::complex_bytes;
use crate::device::{Arg, Device, DeviceBuffer, RawBuffer};
use crate::element::Element;
use crate::error::{Error, Result};

/// A multi-dimensional or long transform ready to run. Usable from several threads: the
/// passes of one execution are queued in order on the device's one stream (executions that
/// share a plan with scratch must not overlap, which one stream guarantees). The plan holds
/// device memory for the values between its passes: see [`FftNdPlan::scratch_bytes`].
pub struct FftNdPlan {
    recipe: FftNdRecipe,
    passes: Vec<FftPlan>,
    /// R2C over pairs of real rows: the launch that separates their spectra.
    separation: Option<SeparationPlan>,
    /// Complex buffers of `recipe.scratch_len` values, as many as the passes use.
    scratch: Vec<DeviceBuffer<u8>>,
}

impl FftNdPlan {
    /// Plans `problem` on `device` with the heuristic's choices.
    pub fn new(device: &Device, problem: FftNdProblem) -> Result<Self> {
        Self::from_recipe(device, FftNdRecipe::design(problem, limits(device))?)
    }

    /// Builds a designed recipe, compiling its passes' kernels on all host cores.
    pub fn from_recipe(device: &Device, recipe: FftNdRecipe) -> Result<Self> {
        let passes = FftPlan::from_recipes(device, recipe.passes.iter().map(|p| p.recipe.clone()).collect())?;
        let bytes = recipe.scratch_len * complex_bytes(recipe.problem.precision) as usize;
        let scratch = (0..recipe.scratch_buffers()).map(|_| device.alloc::<u8>(bytes)).collect::<Result<Vec<_>>>()?;
        let separation = recipe.separation.as_ref().map(|s| SeparationPlan::new(device, s.pairs.clone())).transpose()?;
        Ok(FftNdPlan { recipe, passes, separation, scratch })
    }

    /// Device memory the plan holds for the values between its passes, in bytes (what
    /// `cufftGetSize` reports as cuFFT's work area): none for one pass, else one or two
    /// complex buffers of the array's size, or larger where Bluestein pads an axis to its
    /// convolution's length. Two where a pass's values must lie apart from both its input
    /// and its output: an axis split in two passes, or padded for Bluestein, after another
    /// axis's pass into scratch; and f32 C2R whose other axes take two passes of columns
    /// (4096 points or more, as in 4096 x 8192). A buffer holds as many complex values as
    /// the real array has elements: at 8192 x 8192 f32 C2R, two of 512 MiB.
    pub fn scratch_bytes(&self) -> usize {
        self.scratch.iter().map(|b| b.len()).sum()
    }

    pub fn recipe(&self) -> &FftNdRecipe {
        &self.recipe
    }

    pub fn problem(&self) -> &FftNdProblem {
        &self.recipe.problem
    }

    direction_wrappers!();

    /// Out-of-place transform in `direction`; the input is left as it was.
    pub fn execute<I: Element, O: Element>(&self, direction: Direction, input: &DeviceBuffer<I>, output: &mut DeviceBuffer<O>) -> Result<()> {
        if self.problem().placement == Placement::InPlace {
            return Err(Error::invalid("this FFT plan is in place: call forward_in_place/inverse_in_place, or plan it out of place"));
        }
        let p = self.problem();
        p.kind.check_direction(direction)?;
        let ((in_len, out_len), (in_kind, out_kind)) = (p.buffer_lens(), p.buffer_kinds());
        check_buffer(&format!("{} input", p.kind), I::KIND, self.fitted(input.len(), in_len), in_kind, in_len)?;
        check_buffer(&format!("{} output", p.kind), O::KIND, self.fitted(output.len(), out_len), out_kind, out_len)?;
        self.run(direction, input.raw(), output.raw())
    }

    /// In-place transform: `data` holds the input and receives the output.
    pub fn execute_in_place<T: Element>(&self, direction: Direction, data: &mut DeviceBuffer<T>) -> Result<()> {
        if self.problem().placement == Placement::OutOfPlace {
            return Err(Error::invalid("this FFT plan is out of place: call forward/inverse with two buffers, or plan it with .in_place()"));
        }
        let p = self.problem();
        p.kind.check_direction(direction)?;
        let len = p.in_place_len();
        check_buffer(&format!("{} in-place data", p.kind), T::KIND, self.fitted(data.len(), len), p.buffer_kinds().0, len)?;
        let raw = data.raw();
        self.run(direction, raw, raw)
    }

    /// The length a buffer of `len` elements counts as: row-major arrays fill their buffers
    /// exactly; with strides, a buffer may run on past the array's farthest element.
    fn fitted(&self, len: usize, needed: usize) -> usize {
        let strided = self.problem().input_strides.is_some() || self.problem().output_strides.is_some();
        if strided && len > needed { needed } else { len }
    }

    fn run(&self, direction: Direction, input: &RawBuffer, output: &RawBuffer) -> Result<()> {
        let scale = self.problem().scale(direction);
        let buffer = |b: PassBuffer| match b {
            PassBuffer::Input => input,
            PassBuffer::Output => output,
            PassBuffer::Scratch => self.scratch[0].raw(),
            PassBuffer::SecondScratch => self.scratch[1].raw(),
        };
        // The last launch scales: the separation, where it comes after every pass.
        let separation = self.separation.as_ref().zip(self.recipe.separation.as_ref());
        let separation_last = separation.is_some_and(|(_, s)| s.after == self.passes.len());
        let last = if separation_last { usize::MAX } else { self.passes.len() - 1 };
        for (i, (plan, pass)) in self.passes.iter().zip(&self.recipe.passes).enumerate() {
            if let Some((built, s)) = separation.filter(|(_, s)| s.after == i) {
                built.launch(buffer(s.from), buffer(s.to), 1.0)?;
            }
            plan.launch_scaled(direction, Arg::Buffer(buffer(pass.from)), Arg::Buffer(buffer(pass.to)), if i == last { scale } else { 1.0 })?;
        }
        if let Some((built, s)) = separation.filter(|_| separation_last) {
            built.launch(buffer(s.from), buffer(s.to), scale)?;
        }
        Ok(())
    }
}
