//! Building a multi-pass recipe (every pass's kernel compiled, tables and scratch allocated)
//! and executing it: one launch per pass, queued in order, no allocation at execute time.

use super::nd::{FftNdProblem, FftNdRecipe, PassBuffer};
use super::plan::{limits, FftPlan};
use super::problem::{Direction, FftProblem, Placement};
use super::recipe::complex_bytes;
use crate::device::{Arg, Device, DeviceBuffer, RawBuffer};
use crate::element::Element;
use crate::error::{Error, Result};

/// A multi-dimensional or long transform ready to run. Usable from several threads: the
/// passes of one execution are queued in order on the device's one stream (executions that
/// share a plan with scratch must not overlap, which one stream guarantees).
pub struct FftNdPlan {
    recipe: FftNdRecipe,
    passes: Vec<FftPlan>,
    scratch: Option<DeviceBuffer<u8>>,
}

impl FftNdPlan {
    /// Plans `problem` on `device` with the heuristic's choices.
    pub fn new(device: &Device, problem: FftNdProblem) -> Result<Self> {
        Self::from_recipe(device, FftNdRecipe::design(problem, limits(device))?)
    }

    /// Builds a designed recipe, compiling its passes' kernels on all host cores.
    pub fn from_recipe(device: &Device, recipe: FftNdRecipe) -> Result<Self> {
        let passes = FftPlan::from_recipes(device, recipe.passes.iter().map(|p| p.recipe.clone()).collect())?;
        let bytes = recipe.problem.len() * complex_bytes(recipe.problem.precision) as usize;
        let scratch = if recipe.needs_scratch() { Some(device.alloc::<u8>(bytes)?) } else { None };
        Ok(FftNdPlan { recipe, passes, scratch })
    }

    pub fn recipe(&self) -> &FftNdRecipe {
        &self.recipe
    }

    pub fn problem(&self) -> &FftNdProblem {
        &self.recipe.problem
    }

    pub fn forward<T: Element>(&self, input: &DeviceBuffer<T>, output: &mut DeviceBuffer<T>) -> Result<()> {
        self.execute(Direction::Forward, input, output)
    }

    pub fn inverse<T: Element>(&self, input: &DeviceBuffer<T>, output: &mut DeviceBuffer<T>) -> Result<()> {
        self.execute(Direction::Inverse, input, output)
    }

    pub fn forward_in_place<T: Element>(&self, data: &mut DeviceBuffer<T>) -> Result<()> {
        self.execute_in_place(Direction::Forward, data)
    }

    pub fn inverse_in_place<T: Element>(&self, data: &mut DeviceBuffer<T>) -> Result<()> {
        self.execute_in_place(Direction::Inverse, data)
    }

    /// Out-of-place transform in `direction`; the input is left as it was.
    pub fn execute<T: Element>(&self, direction: Direction, input: &DeviceBuffer<T>, output: &mut DeviceBuffer<T>) -> Result<()> {
        if self.problem().placement == Placement::InPlace {
            return Err(Error::invalid("this FFT plan is in place: call forward_in_place/inverse_in_place, or plan it out of place"));
        }
        self.check("input", input)?;
        self.check("output", output)?;
        self.run(direction, input.raw(), output.raw())
    }

    /// In-place transform: `data` holds the input and receives the output.
    pub fn execute_in_place<T: Element>(&self, direction: Direction, data: &mut DeviceBuffer<T>) -> Result<()> {
        if self.problem().placement == Placement::OutOfPlace {
            return Err(Error::invalid("this FFT plan is out of place: call forward/inverse with two buffers, or plan it with .in_place()"));
        }
        self.check("in-place data", data)?;
        let raw = data.raw();
        self.run(direction, raw, raw)
    }

    fn check<T: Element>(&self, what: &str, buffer: &DeviceBuffer<T>) -> Result<()> {
        let p = self.problem();
        let kind = FftProblem::c2c(1, 1).precision(p.precision).complex_kind();
        if T::KIND != kind {
            return Err(Error::invalid(format!("FFT {what} holds {}, but the plan needs {kind}", T::KIND)));
        }
        if buffer.len() != p.len() {
            return Err(Error::LengthMismatch { what: format!("FFT {what} ({kind}, shape {:?})", p.shape), expected: p.len(), got: buffer.len() });
        }
        Ok(())
    }

    fn run(&self, direction: Direction, input: &RawBuffer, output: &RawBuffer) -> Result<()> {
        let scale = self.problem().scale(direction);
        let last = self.passes.len() - 1;
        for (i, (plan, pass)) in self.passes.iter().zip(&self.recipe.passes).enumerate() {
            let buffer = |b: PassBuffer| match b {
                PassBuffer::Input => Arg::Buffer(input),
                PassBuffer::Output => Arg::Buffer(output),
                PassBuffer::Scratch => Arg::Buffer(self.scratch.as_ref().expect("planned with scratch").raw()),
            };
            plan.launch_scaled(direction, buffer(pass.from), buffer(pass.to), if i == last { scale } else { 1.0 })?;
        }
        Ok(())
    }
}
