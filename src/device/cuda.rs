//! CUDA backend: the driver API and NVRTC through cudarc's thin `result` layer, both loaded
//! at run time, so the crate builds and runs (without CUDA devices) where neither exists.
//!
//! Each device uses its primary context and one non-blocking stream. Every entry point makes
//! the context current on the calling thread first, so a device can be used from any thread.

use std::ffi::{c_void, CString};
use std::sync::Arc;

use cudarc::driver::result as cu;
use cudarc::driver::sys;
use cudarc::nvrtc::result as rtc;
use cudarc::nvrtc::sys as rtc_sys;

use super::{Arg, Backend, DeviceInfo, Grid};
use crate::error::{Api, Error, Result};

fn check<T>(r: std::result::Result<T, cu::DriverError>, call: &'static str) -> Result<T> {
    r.map_err(|e| Error::Backend { api: Api::CudaDriver, call, message: driver_message(&e) })
}

fn driver_message(e: &cu::DriverError) -> String {
    let name = e.error_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|_| format!("{:?}", e.0));
    let text = e.error_string().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    format!("{name}: {text}")
}

/// How many CUDA devices there are, or why there are none.
pub(super) fn device_count() -> std::result::Result<usize, String> {
    // SAFETY: only probes whether the library can be opened.
    if !unsafe { sys::is_culib_present() } {
        return Err("no CUDA driver library (libcuda.so) on this machine".into());
    }
    cu::init().map_err(|e| format!("CUDA driver present but cuInit failed ({})", driver_message(&e)))?;
    cu::device::get_count()
        .map(|n| n.max(0) as usize)
        .map_err(|e| format!("cuDeviceGetCount failed ({})", driver_message(&e)))
}

pub(super) struct CudaDevice {
    ctx: sys::CUcontext,
    dev: sys::CUdevice,
    stream: sys::CUstream,
    /// NVRTC target: `sm_XY` for a cubin where NVRTC knows the device, else `compute_XY` (PTX).
    arch_option: String,
    /// Shared memory a block may use once a kernel opts in (above the default 48 KiB).
    max_shared_optin: i32,
}

// SAFETY: the driver API is thread-safe; the context is made current before every call.
unsafe impl Send for CudaDevice {}
unsafe impl Sync for CudaDevice {}

impl CudaDevice {
    pub(super) fn open(index: usize) -> Result<(CudaDevice, DeviceInfo)> {
        let dev = check(cu::device::get(index as i32), "cuDeviceGet")?;
        // SAFETY: dev is a valid device handle; the primary context is released on drop.
        let ctx = check(unsafe { cu::primary_ctx::retain(dev) }, "cuDevicePrimaryCtxRetain")?;
        check(unsafe { cu::ctx::set_current(ctx) }, "cuCtxSetCurrent")?;
        let stream = check(cu::stream::create(cu::stream::StreamKind::NonBlocking), "cuStreamCreate")?;
        let attr = |a: sys::CUdevice_attribute| -> Result<i32> {
            // SAFETY: dev is valid.
            check(unsafe { cu::device::get_attribute(dev, a) }, "cuDeviceGetAttribute")
        };
        use sys::CUdevice_attribute as A;
        let cc = (
            attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)? as u32,
            attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)? as u32,
        );
        let total = check(unsafe { cu::device::total_mem(dev) }, "cuDeviceTotalMem")? as u64;
        let max_shared_optin = attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?
            .max(attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?);
        let info = DeviceInfo {
            backend: Backend::Cuda,
            index,
            name: check(cu::device::get_name(dev), "cuDeviceGetName")?,
            vendor: "NVIDIA".into(),
            total_memory: total,
            max_allocation: total,
            multiprocessors: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32,
            // Kernels opt in to the full amount when they are loaded (see `kernel`).
            shared_memory_per_block: max_shared_optin as u64,
            warp_size: Some(attr(A::CU_DEVICE_ATTRIBUTE_WARP_SIZE)? as u32),
            max_threads_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)? as u32,
            max_threads_per_multiprocessor: Some(attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)? as u32),
            compute_capability: Some(cc),
            l2_cache_bytes: Some(attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)? as u64),
            driver_version: driver_version(),
            compiler_version: nvrtc_version().unwrap_or_else(|| "NVRTC not found".into()),
        };
        let arch_option = nvrtc_arch_option(cc);
        Ok((CudaDevice { ctx, dev, stream, arch_option, max_shared_optin }, info))
    }

    pub(super) fn bind(&self) -> Result<()> {
        // SAFETY: ctx is the retained primary context of a live device.
        check(unsafe { cu::ctx::set_current(self.ctx) }, "cuCtxSetCurrent")
    }

    /// The device's one stream, for libraries that queue work beside ours (cuFFT).
    pub(super) fn stream(&self) -> sys::CUstream {
        self.stream
    }

    pub(super) fn compile_options(&self) -> Vec<String> {
        let mut options = vec![format!("--gpu-architecture={}", self.arch_option), "--std=c++17".into(), "-lineinfo".into()];
        // Extra options for A/B runs of compiler flags (README): part of the device's compile key,
        // so kernels built with them never mix with the others in the disk cache. Measured so
        // far (eighty-seventh session): `--extra-device-vectorization` and
        // `--ptxas-options=--register-usage-level=10` 0.99x-1.00x over C2C, R2C and C2R f32 rows.
        options.extend(std::env::var("COALESCE_NVRTC_OPTIONS").unwrap_or_default().split_whitespace().map(String::from));
        options
    }

    /// NVRTC: source to cubin (or PTX), then loaded as a module. Returns the binary for the disk cache.
    pub(super) fn compile(&self, name: &str, text: &str, device_name: &str) -> Result<(CudaModule, Option<Vec<u8>>)> {
        // SAFETY: probes whether the library can be opened.
        if !unsafe { rtc_sys::is_culib_present() } {
            return Err(Error::Compile {
                kernel: name.into(),
                device: device_name.into(),
                log: "NVRTC (libnvrtc.so) was not found: add the CUDA toolkit's lib64 folder to LD_LIBRARY_PATH".into(),
            });
        }
        let nvrtc_err = |call: &'static str| move |e: rtc::NvrtcError| Error::Backend { api: Api::Nvrtc, call, message: format!("{:?}", e.0) };
        let src = CString::new(text).map_err(|_| Error::invalid("kernel source contains a NUL byte"))?;
        let cname = CString::new(name).map_err(|_| Error::invalid("kernel name contains a NUL byte"))?;
        let prog = rtc::create_program(&src, Some(&cname)).map_err(nvrtc_err("nvrtcCreateProgram"))?;
        let options = self.compile_options();
        // SAFETY: prog is a live program; it is destroyed below on every path.
        let compiled = unsafe { rtc::compile_program(prog, &options) };
        let log = unsafe { rtc::get_program_log(prog) }
            .map(|l| c_chars_to_string(&l))
            .unwrap_or_default();
        if compiled.is_err() {
            let _ = unsafe { rtc::destroy_program(prog) };
            return Err(Error::Compile { kernel: name.into(), device: device_name.into(), log });
        }
        let binary = if self.arch_option.starts_with("sm_") {
            unsafe { get_cubin(prog) }
        } else {
            unsafe { rtc::get_ptx(prog) }.map(|p| p.into_iter().map(|c| c as u8).collect())
        };
        let _ = unsafe { rtc::destroy_program(prog) };
        let mut binary = binary.map_err(nvrtc_err("nvrtcGetCUBIN"))?;
        if !self.arch_option.starts_with("sm_") && binary.last() != Some(&0) {
            binary.push(0); // PTX is loaded as a C string
        }
        Ok((self.load_binary(&binary)?, Some(binary)))
    }

    pub(super) fn load_binary(&self, binary: &[u8]) -> Result<CudaModule> {
        self.bind()?;
        // SAFETY: binary is a cubin or NUL-terminated PTX image, read during the call only.
        let module = check(unsafe { cu::module::load_data(binary.as_ptr().cast()) }, "cuModuleLoadData")?;
        Ok(CudaModule(Arc::new(ModuleHandle { module, ctx: self.ctx })))
    }

    pub(super) fn kernel(&self, module: &CudaModule, entry: &str) -> Result<CudaKernel> {
        self.bind()?;
        let cname = CString::new(entry).map_err(|_| Error::invalid("kernel name contains a NUL byte"))?;
        // SAFETY: the module is loaded and kept alive by the kernel's handle.
        let func = check(unsafe { cu::module::get_function(module.0.module, cname) }, "cuModuleGetFunction")?;
        // Dynamic shared memory above 48 KiB needs an explicit opt-in per function; give every
        // kernel the device's whole allowance so a plan may size its blocks to what the device has.
        use sys::CUfunction_attribute as F;
        // SAFETY: func is a live function of the loaded module.
        let fixed = check(
            unsafe { cu::function::get_function_attribute(func, F::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) },
            "cuFuncGetAttribute",
        )?;
        check(
            unsafe {
                cu::function::set_function_attribute(
                    func,
                    F::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    (self.max_shared_optin - fixed).max(0),
                )
            },
            "cuFuncSetAttribute",
        )?;
        Ok(CudaKernel { func, _module: module.clone() })
    }

    pub(super) fn launch(&self, k: &CudaKernel, grid: Grid, args: &[Arg<'_>]) -> Result<()> {
        self.bind()?;
        // Each argument's bytes in an 8-byte slot; the driver reads as many as the kernel declares.
        let mut slots: Vec<[u8; 8]> = args
            .iter()
            .map(|a| match a {
                Arg::Buffer(b) => b.cuda().ptr.to_ne_bytes(),
                other => other.scalar_bytes().expect("scalars have bytes"),
            })
            .collect();
        let mut params: Vec<*mut c_void> = slots.iter_mut().map(|s| s.as_mut_ptr().cast::<c_void>()).collect();
        let g = grid.groups;
        let t = grid.threads;
        // SAFETY: params point at live slots for the duration of the call; the caller's
        // arguments match the kernel's generated signature.
        check(
            unsafe { cu::launch_kernel(k.func, (g[0], g[1], g[2]), (t[0], t[1], t[2]), grid.shared_bytes, self.stream, &mut params) },
            "cuLaunchKernel",
        )
    }

    pub(super) fn alloc(&self, bytes: usize) -> Result<CudaMem> {
        self.bind()?;
        // SAFETY: plain allocation; freed in CudaMem's drop.
        let ptr = check(unsafe { cu::malloc_sync(bytes) }, "cuMemAlloc")?;
        Ok(CudaMem { ptr, ctx: self.ctx })
    }

    pub(super) fn write(&self, dst: &CudaMem, src: &[u8], blocking: bool) -> Result<()> {
        self.bind()?;
        // SAFETY: dst holds at least src.len() bytes (checked by the caller); a non-blocking
        // caller keeps src alive until synchronized.
        check(unsafe { cu::memcpy_htod_async(dst.ptr, src, self.stream) }, "cuMemcpyHtoDAsync")?;
        if blocking { self.synchronize() } else { Ok(()) }
    }

    pub(super) fn read(&self, src: &CudaMem, dst: &mut [u8], blocking: bool) -> Result<()> {
        self.bind()?;
        // SAFETY: as in write.
        check(unsafe { cu::memcpy_dtoh_async(dst, src.ptr, self.stream) }, "cuMemcpyDtoHAsync")?;
        if blocking { self.synchronize() } else { Ok(()) }
    }

    pub(super) fn fill(&self, dst: &CudaMem, byte: u8, bytes: usize) -> Result<()> {
        self.bind()?;
        check(unsafe { cu::memset_d8_async(dst.ptr, byte, bytes, self.stream) }, "cuMemsetD8Async")
    }

    pub(super) fn copy(&self, src: &CudaMem, src_off: usize, dst: &CudaMem, dst_off: usize, bytes: usize) -> Result<()> {
        self.bind()?;
        check(
            unsafe { cu::memcpy_dtod_async(dst.ptr + dst_off as u64, src.ptr + src_off as u64, bytes, self.stream) },
            "cuMemcpyDtoDAsync",
        )
    }

    pub(super) fn alloc_pinned(&self, bytes: usize) -> Result<CudaPinned> {
        self.bind()?;
        let ptr = check(unsafe { cu::malloc_host(bytes, 0) }, "cuMemHostAlloc")?;
        Ok(CudaPinned { ptr: ptr.cast(), ctx: self.ctx })
    }

    pub(super) fn synchronize(&self) -> Result<()> {
        self.bind()?;
        check(unsafe { cu::stream::synchronize(self.stream) }, "cuStreamSynchronize")
    }

    pub(super) fn mark(&self) -> Result<CudaMark> {
        self.bind()?;
        let event = check(cu::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT), "cuEventCreate")?;
        let mark = CudaMark { event, ctx: self.ctx };
        check(unsafe { cu::event::record(event, self.stream) }, "cuEventRecord")?;
        Ok(mark)
    }
}

impl Drop for CudaDevice {
    fn drop(&mut self) {
        // SAFETY: every buffer, module and event holds a clone of the Device, so none outlives this.
        unsafe {
            let _ = cu::ctx::set_current(self.ctx);
            let _ = cu::stream::synchronize(self.stream);
            let _ = cu::stream::destroy(self.stream);
            let _ = cu::primary_ctx::release(self.dev);
        }
    }
}

unsafe fn get_cubin(prog: rtc_sys::nvrtcProgram) -> std::result::Result<Vec<u8>, rtc::NvrtcError> {
    let mut size = 0usize;
    unsafe {
        rtc_sys::nvrtcGetCUBINSize(prog, &mut size).result()?;
        let mut out = vec![0u8; size];
        rtc_sys::nvrtcGetCUBIN(prog, out.as_mut_ptr().cast()).result()?;
        Ok(out)
    }
}

fn c_chars_to_string(chars: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = chars.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8_lossy(&bytes).trim().to_owned()
}

/// CUDA API version, and the kernel module's version where /proc tells it (e.g. "13.0 (580.95.05)").
fn driver_version() -> String {
    let mut v = 0i32;
    // SAFETY: writes one int.
    let api = match unsafe { sys::cuDriverGetVersion(&mut v) }.result() {
        Ok(()) => format!("{}.{}", v / 1000, (v % 1000) / 10),
        Err(_) => "unknown".into(),
    };
    // "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build ...":
    // the first word shaped like a version number.
    let module = std::fs::read_to_string("/proc/driver/nvidia/version").ok().and_then(|s| {
        let line = s.lines().next()?.to_owned();
        line.split_whitespace()
            .find(|w| w.contains('.') && w.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
            .map(str::to_owned)
    });
    match module {
        Some(m) => format!("{api} (kernel module {m})"),
        None => api,
    }
}

fn nvrtc_version() -> Option<String> {
    // SAFETY: probes the library, then writes two ints.
    if !unsafe { rtc_sys::is_culib_present() } {
        return None;
    }
    let (mut major, mut minor) = (0, 0);
    unsafe { rtc_sys::nvrtcVersion(&mut major, &mut minor) }.result().ok()?;
    Some(format!("NVRTC {major}.{minor}"))
}

/// `sm_XY` when NVRTC can emit machine code for the device, else the highest `compute_XY`
/// it knows (PTX, compiled by the driver at load).
fn nvrtc_arch_option(cc: (u32, u32)) -> String {
    let want = (cc.0 * 10 + cc.1) as i32;
    let supported: Vec<i32> = (|| {
        if !unsafe { rtc_sys::is_culib_present() } {
            return None;
        }
        let mut n = 0;
        unsafe { rtc_sys::nvrtcGetNumSupportedArchs(&mut n) }.result().ok()?;
        let mut archs = vec![0i32; n.max(0) as usize];
        unsafe { rtc_sys::nvrtcGetSupportedArchs(archs.as_mut_ptr()) }.result().ok()?;
        Some(archs)
    })()
    .unwrap_or_default();
    if supported.is_empty() || supported.contains(&want) {
        format!("sm_{want}")
    } else {
        let best = supported.iter().copied().filter(|&a| a <= want).max().unwrap_or(want);
        format!("compute_{best}")
    }
}

struct ModuleHandle {
    module: sys::CUmodule,
    ctx: sys::CUcontext,
}
unsafe impl Send for ModuleHandle {}
unsafe impl Sync for ModuleHandle {}
impl Drop for ModuleHandle {
    fn drop(&mut self) {
        unsafe {
            let _ = cu::ctx::set_current(self.ctx);
            let _ = cu::module::unload(self.module);
        }
    }
}

#[derive(Clone)]
pub(super) struct CudaModule(Arc<ModuleHandle>);

pub(super) struct CudaKernel {
    func: sys::CUfunction,
    _module: CudaModule,
}
unsafe impl Send for CudaKernel {}
unsafe impl Sync for CudaKernel {}

/// Device memory; freed on drop.
pub(crate) struct CudaMem {
    pub(crate) ptr: sys::CUdeviceptr,
    ctx: sys::CUcontext,
}
unsafe impl Send for CudaMem {}
unsafe impl Sync for CudaMem {}
impl Drop for CudaMem {
    fn drop(&mut self) {
        unsafe {
            let _ = cu::ctx::set_current(self.ctx);
            let _ = cu::free_sync(self.ptr);
        }
    }
}

pub(super) struct CudaPinned {
    ptr: *mut u8,
    ctx: sys::CUcontext,
}
unsafe impl Send for CudaPinned {}
unsafe impl Sync for CudaPinned {}
impl CudaPinned {
    pub(super) fn ptr(&self) -> *mut u8 {
        self.ptr
    }
}
impl Drop for CudaPinned {
    fn drop(&mut self) {
        unsafe {
            let _ = cu::ctx::set_current(self.ctx);
            let _ = cu::free_host(self.ptr.cast());
        }
    }
}

pub(super) struct CudaMark {
    event: sys::CUevent,
    ctx: sys::CUcontext,
}
unsafe impl Send for CudaMark {}
unsafe impl Sync for CudaMark {}
impl CudaMark {
    pub(super) fn elapsed_ms_since(&self, start: &CudaMark) -> Result<f64> {
        unsafe {
            check(cu::ctx::set_current(self.ctx), "cuCtxSetCurrent")?;
            check(cu::event::synchronize(self.event), "cuEventSynchronize")?;
            Ok(check(cu::event::elapsed(start.event, self.event), "cuEventElapsedTime")? as f64)
        }
    }
}
impl Drop for CudaMark {
    fn drop(&mut self) {
        unsafe {
            let _ = cu::ctx::set_current(self.ctx);
            let _ = cu::event::destroy(self.event);
        }
    }
}
