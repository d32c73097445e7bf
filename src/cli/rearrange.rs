//! `coalesce permute` and `coalesce shift`: numpy.transpose and numpy.roll / fftshift /
//! ifftshift on .npy files of any numeric dtype; the output keeps the input's dtype.

use std::path::Path;

use coalesce::npy::NpyArray;
use coalesce::rearrange::{PermutePlan, PermuteProblem, ShiftPlan, ShiftProblem};
use coalesce::{Device, DeviceBuffer, Error, Result};

use super::args::numpy_axes;

/// numpy.transpose(x, axes): `axes` defaults to the reversed order, as numpy's does.
pub fn permute(device: &Device, input: &Path, output: &Path, axes: Option<Vec<i64>>) -> Result<()> {
    let x = NpyArray::read(input)?;
    let axes = match axes {
        Some(a) => numpy_axes(&a, &x.shape).map_err(|e| named(input, &x.shape, e))?,
        None => (0..x.shape.len()).rev().collect(),
    };
    let plan = PermutePlan::new(device, PermuteProblem::new(x.dtype, &x.shape, &axes)).map_err(|e| named(input, &x.shape, e))?;
    on_device(device, &x, plan.output_shape(), |src, dst| plan.execute(src, dst))?.write(output)
}

/// How `coalesce shift` moves the array.
pub enum Shift {
    /// numpy.roll with one amount per axis.
    By(Vec<i64>),
    /// numpy.fft.fftshift over the given axes (all when `None`; negative from the last).
    Fft(Option<Vec<i64>>),
    Ifft(Option<Vec<i64>>),
}

pub fn shift(device: &Device, input: &Path, output: &Path, how: Shift) -> Result<()> {
    let x = NpyArray::read(input)?;
    let axes = |a: &Option<Vec<i64>>| a.as_deref().map(|a| numpy_axes(a, &x.shape)).transpose();
    let problem = match &how {
        Shift::By(by) => Ok(ShiftProblem::new(x.dtype, &x.shape, by)),
        Shift::Fft(a) => axes(a).and_then(|a| ShiftProblem::fftshift(x.dtype, &x.shape, a.as_deref())),
        Shift::Ifft(a) => axes(a).and_then(|a| ShiftProblem::ifftshift(x.dtype, &x.shape, a.as_deref())),
    };
    let plan = problem.and_then(|p| ShiftPlan::new(device, p)).map_err(|e| named(input, &x.shape, e))?;
    on_device(device, &x, x.shape.clone(), |src, dst| plan.execute(src, dst))?.write(output)
}

/// Runs a rearrangement of the array's bytes on the device (every plan here moves elements of
/// the array's dtype through u8 buffers); the result has the same dtype and `shape`.
fn on_device(
    device: &Device,
    x: &NpyArray,
    shape: Vec<usize>,
    run: impl FnOnce(&DeviceBuffer<u8>, &mut DeviceBuffer<u8>) -> Result<()>,
) -> Result<NpyArray> {
    let src = device.upload(x.bytes())?;
    let mut dst = device.alloc::<u8>(x.bytes().len())?;
    run(&src, &mut dst)?;
    NpyArray::from_raw(x.dtype, shape, dst.to_vec()?)
}

/// An argument error with the file's name and shape in front: what the arguments were checked against.
fn named(input: &Path, shape: &[usize], e: Error) -> Error {
    match e {
        Error::InvalidArgument(m) => Error::InvalidArgument(format!("{} (shape {shape:?}): {m}", input.display())),
        other => other,
    }
}
