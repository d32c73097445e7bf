//! # coalesce
//!
//! Memory-bound GPU primitives (device copy, reductions, batched FFTs, data rearrangement)
//! generated at run time for CUDA (driver API + NVRTC) and OpenCL, and measured against the one
//! limit that matters for them: a device-to-device copy.
//!
//! ```no_run
//! use coalesce::{Device, reduce};
//! let device = Device::select(None)?;            // COALESCE_DEVICE, else first CUDA, else OpenCL
//! let x = device.upload(&[1.0f32, 2.0, 3.0])?;
//! assert_eq!(reduce::sum(&x)?, 6.0);
//! # Ok::<(), coalesce::Error>(())
//! ```
//!
//! Layers, bottom up: [`device`] (the only code that knows CUDA or OpenCL), [`kernel`]
//! (the dialect prelude, source building, compile caches), then one module per primitive,
//! each split into problem, plan (plain data, chosen by a heuristic), code generation and
//! execution: [`copy`], [`reduce`], [`fft`], [`rearrange`]. [`bench`](mod@bench) times them against the
//! driver's own copy.

pub mod bench;
pub mod copy;
pub mod device;
mod element;
mod error;
pub mod fft;
pub mod kernel;
pub mod npy;
pub mod rearrange;
pub mod reduce;

pub use device::{Backend, Device, DeviceBuffer, DeviceInfo};
pub use element::{Element, ScalarKind};
/// Complex element type of device buffers (re-exported from num-complex, as rustfft does).
pub use num_complex::Complex;
pub use error::{Api, Error, Result};

/// The README's example, compiled and run as a doctest so that it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
