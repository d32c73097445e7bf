//! Device memory: typed buffers, uploads and downloads, and page-locked host memory.

use std::marker::PhantomData;

use super::{cuda, opencl, Device, Imp};
use crate::element::{as_bytes, as_bytes_mut, Element};
use crate::error::{byte_size, Error, Result};

/// Untyped device memory behind a [`DeviceBuffer`], freed when dropped; holds its device alive.
/// Opaque outside the crate: it appears only in kernel arguments ([`super::Arg`]).
pub struct RawBuffer {
    pub(crate) device: Device,
    pub(crate) bytes: usize,
    imp: RawImp,
}

enum RawImp {
    Cuda(cuda::CudaMem),
    OpenCl(opencl::ClMem),
}

impl RawBuffer {
    pub(crate) fn cuda(&self) -> &cuda::CudaMem {
        match &self.imp {
            RawImp::Cuda(m) => m,
            RawImp::OpenCl(_) => unreachable!("device ownership is checked before backend access"),
        }
    }
    pub(crate) fn opencl(&self) -> &opencl::ClMem {
        match &self.imp {
            RawImp::OpenCl(m) => m,
            RawImp::Cuda(_) => unreachable!("device ownership is checked before backend access"),
        }
    }
    pub(crate) fn opencl_mut(&mut self) -> &mut opencl::ClMem {
        match &mut self.imp {
            RawImp::OpenCl(m) => m,
            RawImp::Cuda(_) => unreachable!("device ownership is checked before backend access"),
        }
    }
}

/// A typed array in device memory. Created by [`Device::alloc`] or [`Device::upload`].
pub struct DeviceBuffer<T: Element> {
    raw: RawBuffer,
    len: usize,
    _t: PhantomData<T>,
}

impl<T: Element> DeviceBuffer<T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.len * std::mem::size_of::<T>()
    }
    /// The device this buffer lives on.
    pub fn device(&self) -> &Device {
        &self.raw.device
    }
    pub(crate) fn raw(&self) -> &RawBuffer {
        &self.raw
    }
    pub(crate) fn raw_mut(&mut self) -> &mut RawBuffer {
        &mut self.raw
    }

    /// Copies the whole buffer to the host.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        self.raw.device.download(self)
    }
}

impl<T: Element> std::fmt::Debug for DeviceBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceBuffer<{}>[{}] on {}", T::KIND, self.len, self.raw.device.id())
    }
}

/// Page-locked host memory, which the device reads and writes by DMA at full link speed.
pub struct PinnedHostBuffer {
    device: Device,
    imp: PinnedImp,
    bytes: usize,
}

enum PinnedImp {
    Cuda(cuda::CudaPinned),
    OpenCl(opencl::ClPinned),
}

impl PinnedHostBuffer {
    pub fn as_slice(&self) -> &[u8] {
        let ptr = match &self.imp {
            PinnedImp::Cuda(p) => p.ptr(),
            PinnedImp::OpenCl(p) => p.ptr(),
        };
        // SAFETY: the allocation holds `bytes` bytes and lives as long as self.
        unsafe { std::slice::from_raw_parts(ptr, self.bytes) }
    }
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        let ptr = match &self.imp {
            PinnedImp::Cuda(p) => p.ptr(),
            PinnedImp::OpenCl(p) => p.ptr(),
        };
        // SAFETY: as above, and &mut self gives exclusive access.
        unsafe { std::slice::from_raw_parts_mut(ptr, self.bytes) }
    }
    pub fn device(&self) -> &Device {
        &self.device
    }
}

impl Device {
    fn alloc_raw(&self, bytes: usize) -> Result<RawBuffer> {
        self.check_allocation(bytes)?;
        // Backends reject empty allocations; an empty buffer still owns a few bytes.
        let alloc = bytes.max(16);
        let imp = match &self.shared.imp {
            Imp::Cuda(d) => RawImp::Cuda(d.alloc(alloc).map_err(|e| self.oom_or(e, bytes))?),
            Imp::OpenCl(d) => RawImp::OpenCl(d.alloc(alloc).map_err(|e| self.oom_or(e, bytes))?),
        };
        Ok(RawBuffer { device: self.clone(), bytes, imp })
    }

    /// Backends report exhaustion as a backend error; name it for what it is.
    fn oom_or(&self, e: Error, bytes: usize) -> Error {
        match e {
            Error::Backend { ref message, .. } if message.contains("OUT_OF_MEMORY") || message.contains("MEM_OBJECT_ALLOCATION_FAILURE") || message.contains("OUT_OF_RESOURCES") => {
                Error::OutOfDeviceMemory {
                    device: self.id(),
                    requested: bytes as u64,
                    available: self.info().total_memory,
                    detail: message.clone(),
                }
            }
            other => other,
        }
    }

    /// An uninitialised buffer of `len` elements.
    pub fn alloc<T: Element>(&self, len: usize) -> Result<DeviceBuffer<T>> {
        let bytes = byte_size(len, std::mem::size_of::<T>())?;
        Ok(DeviceBuffer { raw: self.alloc_raw(bytes)?, len, _t: PhantomData })
    }

    /// A new buffer holding a copy of `data`.
    pub fn upload<T: Element>(&self, data: &[T]) -> Result<DeviceBuffer<T>> {
        let mut buf = self.alloc::<T>(data.len())?;
        self.write(&mut buf, data)?;
        Ok(buf)
    }

    /// Copies `data` into `buf`; lengths must match.
    pub fn write<T: Element>(&self, buf: &mut DeviceBuffer<T>, data: &[T]) -> Result<()> {
        self.check_owns(buf.raw())?;
        if data.len() != buf.len() {
            return Err(Error::LengthMismatch { what: "upload into device buffer".into(), expected: buf.len(), got: data.len() });
        }
        if data.is_empty() {
            return Ok(());
        }
        let bytes = as_bytes(data);
        match &self.shared.imp {
            Imp::Cuda(d) => d.write(buf.raw.cuda(), bytes, true),
            Imp::OpenCl(d) => d.write(buf.raw.opencl_mut(), bytes, true),
        }
    }

    /// Copies `buf` to the host into `out`; lengths must match.
    pub fn read_into<T: Element>(&self, buf: &DeviceBuffer<T>, out: &mut [T]) -> Result<()> {
        self.check_owns(buf.raw())?;
        if out.len() != buf.len() {
            return Err(Error::LengthMismatch { what: "download from device buffer".into(), expected: buf.len(), got: out.len() });
        }
        if out.is_empty() {
            return Ok(());
        }
        let bytes = as_bytes_mut(out);
        match &self.shared.imp {
            Imp::Cuda(d) => d.read(buf.raw.cuda(), bytes, true),
            Imp::OpenCl(d) => d.read(buf.raw.opencl(), bytes, true),
        }
    }

    /// Copies `buf` to a new host vector.
    pub fn download<T: Element>(&self, buf: &DeviceBuffer<T>) -> Result<Vec<T>> {
        let mut out = vec![T::default(); buf.len()];
        self.read_into(buf, &mut out)?;
        Ok(out)
    }

    /// Sets every byte of `buf` to `byte` (e.g. 0xFF to poison an output before a test).
    pub fn fill_bytes<T: Element>(&self, buf: &mut DeviceBuffer<T>, byte: u8) -> Result<()> {
        self.check_owns(buf.raw())?;
        let bytes = buf.size_bytes();
        if bytes == 0 {
            return Ok(());
        }
        match &self.shared.imp {
            Imp::Cuda(d) => d.fill(buf.raw.cuda(), byte, bytes),
            Imp::OpenCl(d) => d.fill(buf.raw.opencl_mut(), byte, bytes),
        }
    }

    /// Page-locked host memory of `bytes` bytes, for fast transfers.
    pub fn alloc_pinned(&self, bytes: usize) -> Result<PinnedHostBuffer> {
        let alloc = bytes.max(16);
        let imp = match &self.shared.imp {
            Imp::Cuda(d) => PinnedImp::Cuda(d.alloc_pinned(alloc)?),
            Imp::OpenCl(d) => PinnedImp::OpenCl(d.alloc_pinned(alloc)?),
        };
        Ok(PinnedHostBuffer { device: self.clone(), imp, bytes })
    }

    /// Queues a host-to-device copy of `src` into the start of `dst` without waiting.
    ///
    /// # Safety
    /// `src` must stay alive and unchanged until the device is synchronized.
    pub(crate) unsafe fn enqueue_upload_bytes(&self, dst: &mut RawBuffer, src: &[u8]) -> Result<()> {
        self.check_owns(dst)?;
        if src.len() > dst.bytes {
            return Err(Error::LengthMismatch { what: "upload bytes".into(), expected: dst.bytes, got: src.len() });
        }
        match &self.shared.imp {
            Imp::Cuda(d) => d.write(dst.cuda(), src, false),
            Imp::OpenCl(d) => d.write(dst.opencl_mut(), src, false),
        }
    }

    /// Queues a device-to-host copy of the start of `src` into `dst` without waiting.
    ///
    /// # Safety
    /// `dst` must stay alive and untouched until the device is synchronized.
    pub(crate) unsafe fn enqueue_download_bytes(&self, src: &RawBuffer, dst: &mut [u8]) -> Result<()> {
        self.check_owns(src)?;
        if dst.len() > src.bytes {
            return Err(Error::LengthMismatch { what: "download bytes".into(), expected: src.bytes, got: dst.len() });
        }
        match &self.shared.imp {
            Imp::Cuda(d) => d.read(src.cuda(), dst, false),
            Imp::OpenCl(d) => d.read(src.opencl(), dst, false),
        }
    }
}
