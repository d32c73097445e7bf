//! Device copy: contiguous (any length, any element size, any offsets) and strided gathers,
//! through generated kernels. The seeds' "read/write routine": the floor that every other
//! memory-bound kernel is measured against, and the building block of rearrangements.
//!
//! ```no_run
//! # use coalesce::{Device, copy};
//! let device = Device::select(None)?;
//! let src = device.upload(&(0..10u32).collect::<Vec<_>>())?;
//! let mut evens = device.alloc::<u32>(5)?;
//! copy::gather(&src, 0, 2, &mut evens)?;           // 0, 2, 4, 6, 8
//! # Ok::<(), coalesce::Error>(())
//! ```

mod codegen;
mod plan;

pub use plan::{CopyKernelSpec, CopyPass, CopyPlan, CopyProblem, CopyRecipe, CopyTuning};

use crate::device::{Arg, DeviceBuffer};
use crate::element::{units_per_element, Element};
use crate::error::{Error, Result};

impl CopyPlan {
    /// Runs the copy from `src` to `dst` (queued on the device's stream; does not wait).
    pub fn execute<T: Element>(&self, src: &DeviceBuffer<T>, dst: &mut DeviceBuffer<T>) -> Result<()> {
        let p = &self.recipe.problem;
        // 12-byte elements, say, travel in u8 buffers: lengths are compared in units of T.
        let per = units_per_element::<T>(p.elem_size, "the copy plan")?;
        let need_src = p.src_len_needed()? * per;
        if src.len() < need_src {
            return Err(Error::LengthMismatch { what: "copy source (at least)".into(), expected: need_src, got: src.len() });
        }
        let need_dst = p.dst_len_needed()? * per;
        if dst.len() < need_dst {
            return Err(Error::LengthMismatch { what: "copy destination (at least)".into(), expected: need_dst, got: dst.len() });
        }
        for (pass, (program, name, grid)) in self.recipe.passes.iter().zip(&self.built) {
            let kernel = program.kernel(name)?;
            let mut args: Vec<Arg> = vec![Arg::from(&*dst), pass.dst_off.into(), Arg::from(src), pass.src_off.into()];
            if pass.spec.words_per_unit.is_some() {
                args.push(pass.stride.into());
            }
            args.push(pass.n.into());
            self.device.launch(kernel, *grid, &args)?;
        }
        Ok(())
    }
}

/// Copies all of `src` into `dst`, which must have the same length.
pub fn copy<T: Element>(src: &DeviceBuffer<T>, dst: &mut DeviceBuffer<T>) -> Result<()> {
    if src.len() != dst.len() {
        return Err(Error::LengthMismatch { what: "copy destination".into(), expected: src.len(), got: dst.len() });
    }
    CopyPlan::new(src.device(), CopyProblem::contiguous::<T>(src.len()))?.execute(src, dst)
}

/// Copies `count` elements from `src[src_offset..]` to `dst[dst_offset..]`.
pub fn copy_range<T: Element>(
    src: &DeviceBuffer<T>,
    src_offset: usize,
    dst: &mut DeviceBuffer<T>,
    dst_offset: usize,
    count: usize,
) -> Result<()> {
    let problem = CopyProblem::contiguous::<T>(count).with_src_offset(src_offset).with_dst_offset(dst_offset);
    CopyPlan::new(src.device(), problem)?.execute(src, dst)
}

/// Fills all of `dst` with `src[offset + i * stride]`: a gather with a constant stride.
pub fn gather<T: Element>(src: &DeviceBuffer<T>, offset: usize, stride: usize, dst: &mut DeviceBuffer<T>) -> Result<()> {
    let problem = CopyProblem::contiguous::<T>(dst.len()).with_src_offset(offset).with_src_stride(stride);
    CopyPlan::new(src.device(), problem)?.execute(src, dst)
}
