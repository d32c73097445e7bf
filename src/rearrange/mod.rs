//! Data rearrangement at copy speed: N-d permute (numpy.transpose + copy) and its N-to-M form
//! over a sub-box, batched (conjugate) transpose, interlace and de-interlace of 2 to 16
//! arrays, complex split and join, circular shift (numpy.roll) and fftshift / ifftshift.
//!
//! Every operation is a plan built once for a shape (kernels generated with the shape compiled
//! in) and executed on any buffers of that shape; the functions below build and run one.
//! Shapes are listed slowest axis first, as numpy does.
//!
//! ```no_run
//! # use coalesce::{Device, rearrange};
//! let device = Device::select(None)?;
//! let x = device.upload(&(0..24u32).collect::<Vec<_>>())?;     // shape [2, 3, 4]
//! let mut y = device.alloc::<u32>(24)?;
//! rearrange::permute(&x, &[2, 3, 4], &[2, 0, 1], &mut y)?;     // numpy.transpose(x, (2, 0, 1))
//! assert_eq!(&y.to_vec()?[..4], &[0, 4, 8, 12]);
//! # Ok::<(), coalesce::Error>(())
//! ```

mod interlace;
mod interlace_tiled;
mod interlace_vector;
mod layout;
mod permute;
mod permute_kernel;
mod shift;
mod tile;
mod tile_walk;

pub use interlace::{InterlaceMethod, InterlacePlan, InterlaceProblem, INTERLACE_TILE_BYTES, MAX_ARRAYS};
pub use layout::{Axis, StridedLayout};
pub use permute::{PermuteMethod, PermutePlan, PermuteProblem, PermuteRecipe, Window};
pub use shift::{ShiftPlan, ShiftProblem};
pub use tile::{PermuteTuning, TileShape};

use crate::device::DeviceBuffer;
use crate::element::Element;
use crate::error::Result;
use crate::Complex;

/// `dst = numpy.transpose(src.reshape(shape), axes)`, contiguous.
pub fn permute<T: Element>(src: &DeviceBuffer<T>, shape: &[usize], axes: &[usize], dst: &mut DeviceBuffer<T>) -> Result<()> {
    PermutePlan::new(src.device(), PermuteProblem::of::<T>(shape, axes))?.execute(src, dst)
}

/// `batch` matrices of `rows x cols` into `cols x rows`.
pub fn transpose<T: Element>(src: &DeviceBuffer<T>, batch: usize, rows: usize, cols: usize, dst: &mut DeviceBuffer<T>) -> Result<()> {
    PermutePlan::new(src.device(), PermuteProblem::transpose(T::KIND, batch, rows, cols))?.execute(src, dst)
}

/// The conjugate transpose of `batch` complex matrices of `rows x cols`.
pub fn conj_transpose<T: Element>(src: &DeviceBuffer<T>, batch: usize, rows: usize, cols: usize, dst: &mut DeviceBuffer<T>) -> Result<()> {
    PermutePlan::new(src.device(), PermuteProblem::transpose(T::KIND, batch, rows, cols).conjugate())?.execute(src, dst)
}

/// `whole[i * k + j] = parts[j][i]` for k = `parts.len()` arrays of equal length.
pub fn interlace<T: Element>(parts: &[&DeviceBuffer<T>], whole: &mut DeviceBuffer<T>) -> Result<()> {
    let len = parts.first().map_or(0, |p| p.len());
    InterlacePlan::new(whole.device(), InterlaceProblem::new(T::KIND, parts.len(), len))?.interlace(parts, whole)
}

/// `parts[j][i] = whole[i * k + j]` for k = `parts.len()` arrays of equal length.
pub fn deinterlace<T: Element>(whole: &DeviceBuffer<T>, parts: &mut [&mut DeviceBuffer<T>]) -> Result<()> {
    let len = parts.first().map_or(0, |p| p.len());
    InterlacePlan::new(whole.device(), InterlaceProblem::new(T::KIND, parts.len(), len))?.deinterlace(whole, parts)
}

/// Real and imaginary parts of a complex array into two real arrays.
pub fn split_complex<F: Element>(whole: &DeviceBuffer<Complex<F>>, re: &mut DeviceBuffer<F>, im: &mut DeviceBuffer<F>) -> Result<()>
where
    Complex<F>: Element,
{
    InterlacePlan::new(whole.device(), InterlaceProblem::new(F::KIND, 2, re.len()))?.deinterlace(whole, &mut [re, im])
}

/// Two real arrays into one complex array.
pub fn join_complex<F: Element>(re: &DeviceBuffer<F>, im: &DeviceBuffer<F>, whole: &mut DeviceBuffer<Complex<F>>) -> Result<()>
where
    Complex<F>: Element,
{
    InterlacePlan::new(whole.device(), InterlaceProblem::new(F::KIND, 2, re.len()))?.interlace(&[re, im], whole)
}

/// `dst = numpy.roll(src.reshape(shape), shifts, axis=tuple(range(len(shape))))`.
pub fn roll<T: Element>(src: &DeviceBuffer<T>, shape: &[usize], shifts: &[i64], dst: &mut DeviceBuffer<T>) -> Result<()> {
    ShiftPlan::new(src.device(), ShiftProblem::new(T::KIND, shape, shifts))?.execute(src, dst)
}

/// `dst = numpy.fft.fftshift(src.reshape(shape), axes)`; all axes when `axes` is `None`.
pub fn fftshift<T: Element>(src: &DeviceBuffer<T>, shape: &[usize], axes: Option<&[usize]>, dst: &mut DeviceBuffer<T>) -> Result<()> {
    ShiftPlan::new(src.device(), ShiftProblem::fftshift(T::KIND, shape, axes)?)?.execute(src, dst)
}

/// `dst = numpy.fft.ifftshift(src.reshape(shape), axes)`; all axes when `axes` is `None`.
pub fn ifftshift<T: Element>(src: &DeviceBuffer<T>, shape: &[usize], axes: Option<&[usize]>, dst: &mut DeviceBuffer<T>) -> Result<()> {
    ShiftPlan::new(src.device(), ShiftProblem::ifftshift(T::KIND, shape, axes)?)?.execute(src, dst)
}
