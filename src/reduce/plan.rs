//! Planning a reduction: one pass of many blocks writing partial results, then one block
//! folding the partials (or a single pass when one block suffices).

use std::sync::{Arc, Mutex};

use super::ReduceOp;
use crate::device::{Device, DeviceBuffer, Grid, Program};
use crate::element::ScalarKind;
use crate::error::{Error, Result};

/// The tunable choices of a reduction kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReduceTuning {
    /// Threads per block (a power of two: the block's tree halves it).
    pub threads: u32,
    /// 16-byte vectors each thread loads per step.
    pub unroll: u32,
    /// Blocks per multiprocessor in the first pass.
    pub blocks_per_sm: u32,
}

impl ReduceTuning {
    /// Default: 256 threads, 4 vectors in flight, and as many resident blocks as fit.
    pub fn for_device(device: &Device) -> Self {
        let threads = 256;
        let per_sm = device.info().max_threads_per_multiprocessor.map(|t| (t / threads).max(1)).unwrap_or(4);
        ReduceTuning { threads, unroll: 4, blocks_per_sm: per_sm }
    }
}

/// What one reduction kernel is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReduceKernelSpec {
    pub op: ReduceOp,
    pub input: ScalarKind,
    /// Type of the running value and of the output (wider than the input for integer sums).
    pub acc: ScalarKind,
    pub tuning: ReduceTuning,
}

/// One launch: `groups` blocks fold `n` inputs into `groups` outputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReducePass {
    pub spec: ReduceKernelSpec,
    pub n: u64,
    pub groups: u32,
}

/// A designed reduction, before compiling: plain data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReduceRecipe {
    pub op: ReduceOp,
    pub input: ScalarKind,
    pub output: ScalarKind,
    pub len: usize,
    pub passes: Vec<ReducePass>,
}

impl ReduceRecipe {
    pub fn design(op: ReduceOp, input: ScalarKind, len: usize, tuning: ReduceTuning, multiprocessors: u32) -> Result<Self> {
        let output = op.output_kind(input)?;
        if len == 0 && op != ReduceOp::Sum {
            return Err(Error::EmptyReduction { op: op.name() });
        }
        if !tuning.threads.is_power_of_two() || tuning.unroll == 0 || tuning.blocks_per_sm == 0 {
            return Err(Error::invalid(format!(
                "reduce tuning needs a power-of-two thread count and unroll, blocks per SM >= 1; got {tuning:?}"
            )));
        }
        let lanes = crate::kernel::prelude::vector16(input.name()).map_or(1, |(_, l)| l) as u64;
        let chunk = tuning.threads as u64 * tuning.unroll as u64;
        let max_groups = multiprocessors.max(1) as u64 * tuning.blocks_per_sm as u64;
        let groups = (len as u64 / lanes).div_ceil(chunk).clamp(1, max_groups) as u32;
        let mut passes = vec![ReducePass { spec: ReduceKernelSpec { op, input, acc: output, tuning }, n: len as u64, groups }];
        if groups > 1 {
            passes.push(ReducePass {
                spec: ReduceKernelSpec { op, input: output, acc: output, tuning },
                n: groups as u64,
                groups: 1,
            });
        }
        Ok(ReduceRecipe { op, input, output, len, passes })
    }
}

/// A built reduction of `len` elements: compiled kernels and a scratch buffer for the
/// partials, so executing allocates nothing. Usable from several threads.
pub struct ReducePlan {
    device: Device,
    recipe: ReduceRecipe,
    built: Vec<(Arc<Program>, String, Grid)>,
    /// Partial results of the first pass. The lock orders the two passes of concurrent
    /// executes; the device's single in-order stream does the rest.
    partials: Mutex<DeviceBuffer<u8>>,
}

impl ReducePlan {
    /// Plans `op` over `len` elements of `input` type, with the device's default tuning.
    pub fn new(device: &Device, op: ReduceOp, input: ScalarKind, len: usize) -> Result<Self> {
        Self::with_tuning(device, op, input, len, ReduceTuning::for_device(device))
    }

    pub fn with_tuning(device: &Device, op: ReduceOp, input: ScalarKind, len: usize, tuning: ReduceTuning) -> Result<Self> {
        if tuning.threads > device.info().max_threads_per_block {
            return Err(Error::invalid(format!(
                "reduce tuning asks for {} threads per block; this device allows {}",
                tuning.threads,
                device.info().max_threads_per_block
            )));
        }
        let recipe = ReduceRecipe::design(op, input, len, tuning, device.info().multiprocessors)?;
        let mut built = Vec::new();
        for pass in &recipe.passes {
            let source = pass.spec.source();
            let program = device.build(&source)?;
            built.push((program, source.name, Grid::linear(pass.groups, pass.spec.tuning.threads)));
        }
        let partials = device.alloc::<u8>(recipe.passes[0].groups as usize * recipe.output.size())?;
        Ok(ReducePlan { device: device.clone(), recipe, built, partials: Mutex::new(partials) })
    }

    pub fn recipe(&self) -> &ReduceRecipe {
        &self.recipe
    }

    /// Queues the reduction of `input`; the result lands in `out[0]`. Does not wait.
    pub fn execute<T: crate::Element, A: crate::Element>(&self, input: &DeviceBuffer<T>, out: &mut DeviceBuffer<A>) -> Result<()> {
        let r = &self.recipe;
        if T::KIND != r.input {
            return Err(Error::invalid(format!("plan reduces {} but the input holds {}", r.input, T::KIND)));
        }
        if A::KIND != r.output {
            return Err(Error::invalid(format!("{} of {} gives {}, but the output buffer holds {}", r.op.name(), r.input, r.output, A::KIND)));
        }
        if input.len() != r.len {
            return Err(Error::LengthMismatch { what: format!("{} input", r.op.name()), expected: r.len, got: input.len() });
        }
        if out.is_empty() {
            return Err(Error::LengthMismatch { what: format!("{} output (at least)", r.op.name()), expected: 1, got: 0 });
        }
        let mut partials = self.partials.lock().unwrap();
        let n0 = r.passes[0].n;
        let (p0, name0, grid0) = &self.built[0];
        match (r.passes.get(1), self.built.get(1)) {
            (Some(pass1), Some((p1, name1, grid1))) => {
                self.device.launch(p0.kernel(name0)?, *grid0, &[input.into(), n0.into(), (&mut *partials).into()])?;
                self.device.launch(p1.kernel(name1)?, *grid1, &[(&*partials).into(), pass1.n.into(), out.into()])
            }
            _ => self.device.launch(p0.kernel(name0)?, *grid0, &[input.into(), n0.into(), out.into()]),
        }
    }
}
