//! Reductions: sum, min and max of f32, f64, i32, u32, i64 and u64 buffers of any length.
//!
//! Results follow numpy: integer sums widen 32-bit inputs to 64 bits (numpy's `sum` of int32
//! gives int64) and wrap on 64-bit overflow; float min and max propagate NaN; the sum of an
//! empty buffer is 0, and its min or max is an error. The f32 sum adds in tree order, so its
//! error grows with log n, not n.
//!
//! ```no_run
//! # use coalesce::{Device, reduce};
//! let device = Device::select(None)?;
//! let x = device.upload(&[3i32, -7, 5])?;
//! assert_eq!(reduce::sum(&x)?, 1i64);
//! assert_eq!(reduce::min(&x)?, -7);
//! # Ok::<(), coalesce::Error>(())
//! ```

mod codegen;
mod plan;

pub use plan::{ReduceKernelSpec, ReducePass, ReducePlan, ReduceRecipe, ReduceTuning};

use crate::device::DeviceBuffer;
use crate::element::{Element, ScalarKind};
use crate::error::{Error, Result};

/// Which reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Sum,
    Min,
    Max,
}

impl ReduceOp {
    pub const ALL: [ReduceOp; 3] = [ReduceOp::Sum, ReduceOp::Min, ReduceOp::Max];

    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Min => "min",
            ReduceOp::Max => "max",
        }
    }

    /// The result type for an input type, or an error for types without reductions yet.
    pub fn output_kind(self, input: ScalarKind) -> Result<ScalarKind> {
        use ScalarKind as K;
        match (self, input) {
            (ReduceOp::Sum, K::I32) => Ok(K::I64),
            (ReduceOp::Sum, K::U32) => Ok(K::U64),
            (_, K::F32 | K::F64 | K::I32 | K::U32 | K::I64 | K::U64) => Ok(input),
            _ => Err(Error::invalid(format!(
                "{} of {input} is not supported: reductions take f32, f64, i32, u32, i64 or u64",
                self.name()
            ))),
        }
    }
}

/// Element types with reductions, and the type their sum is returned in.
pub trait Reducible: Element {
    /// `i64` for `i32`, `u64` for `u32`, the type itself otherwise.
    type Sum: Element;
}

macro_rules! reducible {
    ($($t:ty => $sum:ty),*) => { $(impl Reducible for $t { type Sum = $sum; })* };
}
reducible!(f32 => f32, f64 => f64, i32 => i64, u32 => u64, i64 => i64, u64 => u64);

/// Plans, runs and reads back one reduction (plans are cheap once their kernels are compiled).
fn reduce_to_host<T: Reducible, A: Element>(op: ReduceOp, x: &DeviceBuffer<T>) -> Result<A> {
    let device = x.device();
    let plan = ReducePlan::new(device, op, T::KIND, x.len())?;
    let mut out = device.alloc::<A>(1)?;
    plan.execute(x, &mut out)?;
    Ok(out.to_vec()?[0])
}

/// Sum of all elements (0 for an empty buffer).
pub fn sum<T: Reducible>(x: &DeviceBuffer<T>) -> Result<T::Sum> {
    reduce_to_host(ReduceOp::Sum, x)
}

/// Smallest element; NaN if any element is NaN. Error for an empty buffer.
pub fn min<T: Reducible>(x: &DeviceBuffer<T>) -> Result<T> {
    reduce_to_host(ReduceOp::Min, x)
}

/// Largest element; NaN if any element is NaN. Error for an empty buffer.
pub fn max<T: Reducible>(x: &DeviceBuffer<T>) -> Result<T> {
    reduce_to_host(ReduceOp::Max, x)
}
