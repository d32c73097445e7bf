//! The one error type of coalesce. Every message says what to change.

use std::fmt;

/// Everything that can go wrong in coalesce. User input never panics: it returns one of these.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No CUDA or OpenCL device could be found at all.
    #[error(
        "no compute device found: {details}. Install a CUDA driver (libcuda.so) for NVIDIA GPUs, \
         or an OpenCL runtime (for a CPU device: `apt-get install pocl-opencl-icd`)"
    )]
    NoDevice { details: String },

    /// A `--device` / `COALESCE_DEVICE` value that names no device present.
    #[error("unknown device '{spec}': {reason}. Devices present: {available}")]
    UnknownDevice { spec: String, reason: String, available: String },

    /// Two buffers or a buffer and a problem disagree on length.
    #[error("{what}: expected {expected} elements, got {got}")]
    LengthMismatch { what: String, expected: usize, got: usize },

    /// An argument outside what the operation accepts.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),

    /// A combination the library does not handle (yet), or one this device cannot run.
    #[error("not supported: {0}")]
    Unsupported(String),

    /// A buffer from another device was handed to this one.
    #[error("buffer belongs to device '{buffer_device}', but the operation runs on '{device}': upload it to that device first")]
    WrongDevice { device: String, buffer_device: String },

    /// Min or max of zero elements has no value.
    #[error("{op} of an empty buffer has no value: pass at least one element (sum of an empty buffer is 0)")]
    EmptyReduction { op: &'static str },

    /// An allocation larger than the device can hold.
    #[error(
        "out of device memory on '{device}': asked for {requested} bytes, the device has {available} bytes \
         ({detail}); use smaller buffers or free others first"
    )]
    OutOfDeviceMemory { device: String, requested: u64, available: u64, detail: String },

    /// Element count times element size does not fit in 64 bits.
    #[error("size overflow: {count} elements of {elem_size} bytes do not fit in 64-bit addressing")]
    SizeOverflow { count: u128, elem_size: usize },

    /// A generated kernel failed to compile. Carries the compiler's log.
    #[error("kernel '{kernel}' failed to compile on '{device}':\n{log}")]
    Compile { kernel: String, device: String, log: String },

    /// A call into the CUDA driver, NVRTC or OpenCL failed.
    #[error("{api} call {call} failed: {message}")]
    Backend { api: Api, call: &'static str, message: String },

    /// Files (the kernel cache, --csv, .npy) could not be read or written.
    #[error("{context}: {source}")]
    Io { context: String, source: std::io::Error },
}

/// Which layer a backend error came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    CudaDriver,
    Nvrtc,
    OpenCl,
    Cufft,
}

impl fmt::Display for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Api::CudaDriver => "CUDA driver",
            Api::Nvrtc => "NVRTC",
            Api::OpenCl => "OpenCL",
            Api::Cufft => "cuFFT",
        })
    }
}

/// The result type of every fallible coalesce call.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io { context: context.into(), source }
    }

    pub(crate) fn invalid(msg: impl Into<String>) -> Self {
        Error::InvalidArgument(msg.into())
    }
}

/// Bytes taken by `count` elements of `elem_size` bytes, or an error when that overflows.
pub(crate) fn byte_size(count: usize, elem_size: usize) -> Result<usize> {
    count
        .checked_mul(elem_size)
        .ok_or(Error::SizeOverflow { count: count as u128, elem_size })
}
