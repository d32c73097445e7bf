//! OpenCL backend through opencl3, with libOpenCL loaded at run time. In CI this drives PoCL's
//! CPU device, so every generated kernel's logic is tested without a GPU.

use std::sync::Mutex;

use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::Device as OclDevice;
use opencl3::event::Event;
use opencl3::kernel::Kernel as OclKernel;
use opencl3::memory::{Buffer, ClMem as _, CL_MAP_READ, CL_MAP_WRITE, CL_MEM_ALLOC_HOST_PTR, CL_MEM_READ_WRITE};
use opencl3::program::Program as OclProgram;
use opencl3::types::{cl_device_id, cl_mem, CL_BLOCKING, CL_NON_BLOCKING};

use super::{Arg, Backend, DeviceInfo, Grid};
use crate::error::{Api, Error, Result};

fn check<T>(r: opencl3::Result<T>, call: &'static str) -> Result<T> {
    r.map_err(|e| Error::Backend { api: Api::OpenCl, call, message: format!("{e} ({})", e.0) })
}

/// Every OpenCL device, platform by platform, or why there are none.
fn list_device_ids() -> std::result::Result<Vec<cl_device_id>, String> {
    if !cl3::is_opencl_runtime_available() {
        return Err("no OpenCL runtime (libOpenCL.so.1) on this machine".into());
    }
    let platforms = opencl3::platform::get_platforms().map_err(|e| format!("no OpenCL platform ({e})"))?;
    let mut ids = Vec::new();
    for p in platforms {
        if let Ok(devs) = p.get_devices(opencl3::device::CL_DEVICE_TYPE_ALL) {
            ids.extend(devs);
        }
    }
    Ok(ids)
}

/// Device IDs listed once per process: the ICD loader's first call is not safe to race
/// (concurrent first calls can report no platform), and the list does not change.
pub(super) fn device_ids() -> std::result::Result<&'static [cl_device_id], String> {
    struct Ids(std::result::Result<Vec<cl_device_id>, String>);
    // SAFETY: device IDs are process-wide handles, valid on any thread.
    unsafe impl Send for Ids {}
    unsafe impl Sync for Ids {}
    static IDS: std::sync::OnceLock<Ids> = std::sync::OnceLock::new();
    match &IDS.get_or_init(|| Ids(list_device_ids())).0 {
        Ok(ids) => Ok(ids),
        Err(why) => Err(why.clone()),
    }
}

pub(super) struct ClDevice {
    context: Context,
    queue: CommandQueue,
    device_id: cl_device_id,
    options: String,
}

/// The queue is finished before the device goes: work still queued when a program returns
/// would run on PoCL's worker threads while the process exits, and a kernel PoCL was compiling
/// for its first launch then crashed in LLVM as its globals were torn down (SIGSEGV, about one
/// run in four of the README's N-d example, whose last transform nothing waited for).
impl Drop for ClDevice {
    fn drop(&mut self) {
        let _ = self.queue.finish();
    }
}

// SAFETY: OpenCL contexts and queues are thread-safe objects; kernels (whose argument state is
// not) are guarded by a mutex in ClKernel.
unsafe impl Send for ClDevice {}
unsafe impl Sync for ClDevice {}

impl ClDevice {
    pub(super) fn open(index: usize) -> Result<(ClDevice, DeviceInfo)> {
        let ids = device_ids().map_err(|details| Error::NoDevice { details })?;
        let id = *ids.get(index).ok_or_else(|| Error::invalid(format!("there is no opencl:{index}")))?;
        let dev = OclDevice::new(id);
        let context = check(Context::from_device(&dev), "clCreateContext")?;
        #[allow(deprecated)]
        let queue = match CommandQueue::create_default_with_properties(&context, CL_QUEUE_PROFILING_ENABLE, 0) {
            Ok(q) => q,
            Err(_) => check(CommandQueue::create_default(&context, CL_QUEUE_PROFILING_ENABLE), "clCreateCommandQueue")?,
        };
        let vendor = dev.vendor().unwrap_or_default();
        let platform_version = dev
            .platform()
            .ok()
            .and_then(|p| opencl3::platform::Platform::new(p).version().ok())
            .unwrap_or_default();
        let info = DeviceInfo {
            backend: Backend::OpenCl,
            index,
            name: check(dev.name(), "clGetDeviceInfo(NAME)")?.trim().to_owned(),
            vendor: vendor.trim().to_owned(),
            total_memory: check(dev.global_mem_size(), "clGetDeviceInfo(GLOBAL_MEM_SIZE)")?,
            max_allocation: check(dev.max_mem_alloc_size(), "clGetDeviceInfo(MAX_MEM_ALLOC_SIZE)")?,
            multiprocessors: check(dev.max_compute_units(), "clGetDeviceInfo(MAX_COMPUTE_UNITS)")?,
            shared_memory_per_block: check(dev.local_mem_size(), "clGetDeviceInfo(LOCAL_MEM_SIZE)")?,
            warp_size: dev.wrap_size_nv().ok(),
            max_threads_per_block: check(dev.max_work_group_size(), "clGetDeviceInfo(MAX_WORK_GROUP_SIZE)")? as u32,
            max_threads_per_multiprocessor: None,
            compute_capability: match (dev.compute_capability_major_nv(), dev.compute_capability_minor_nv()) {
                (Ok(a), Ok(b)) => Some((a, b)),
                _ => None,
            },
            l2_cache_bytes: dev.global_mem_cache_size().ok(),
            driver_version: dev.driver_version().unwrap_or_default().trim().to_owned(),
            compiler_version: format!(
                "{} ({})",
                dev.opencl_c_version().unwrap_or_default().trim(),
                platform_version.trim()
            ),
        };
        Ok((ClDevice { context, queue, device_id: id, options: String::new() }, info))
    }

    pub(super) fn compile_options(&self) -> &str {
        &self.options
    }

    pub(super) fn compile(&self, name: &str, text: &str, device_name: &str) -> Result<(ClProgram, Option<Vec<u8>>)> {
        let program = OclProgram::create_and_build_from_source(&self.context, text, &self.options)
            .map_err(|log| Error::Compile { kernel: name.into(), device: device_name.into(), log })?;
        let binary = program.get_binaries().ok().and_then(|mut b| b.pop()).filter(|b| !b.is_empty());
        Ok((ClProgram(program), binary))
    }

    pub(super) fn load_binary(&self, binary: &[u8]) -> Result<ClProgram> {
        let p = check(OclProgram::create_and_build_from_binary(&self.context, &[binary], &self.options), "clCreateProgramWithBinary")?;
        Ok(ClProgram(p))
    }

    pub(super) fn kernel(&self, program: &ClProgram, entry: &str) -> Result<ClKernel> {
        Ok(ClKernel(Mutex::new(check(OclKernel::create(&program.0, entry), "clCreateKernel")?)))
    }

    pub(super) fn launch(&self, k: &ClKernel, grid: Grid, args: &[Arg<'_>]) -> Result<()> {
        let kernel = k.0.lock().unwrap();
        for (i, a) in args.iter().enumerate() {
            let i = i as u32;
            // SAFETY: the generated kernel's signature matches the argument list in type and order.
            let r = unsafe {
                match a {
                    Arg::Buffer(b) => {
                        let mem: cl_mem = b.opencl().get();
                        kernel.set_arg(i, &mem)
                    }
                    Arg::U32(x) => kernel.set_arg(i, x),
                    Arg::I32(x) => kernel.set_arg(i, x),
                    Arg::U64(x) => kernel.set_arg(i, x),
                    Arg::I64(x) => kernel.set_arg(i, x),
                    Arg::F32(x) => kernel.set_arg(i, x),
                    Arg::F64(x) => kernel.set_arg(i, x),
                }
            };
            check(r, "clSetKernelArg")?;
        }
        let global: [usize; 3] = std::array::from_fn(|d| grid.groups[d] as usize * grid.threads[d] as usize);
        let local: [usize; 3] = std::array::from_fn(|d| grid.threads[d] as usize);
        // SAFETY: sizes are three-element arrays; the kernel's arguments are all set above.
        let ev = unsafe {
            self.queue.enqueue_nd_range_kernel(kernel.get(), 3, std::ptr::null(), global.as_ptr(), local.as_ptr(), &[])
        };
        check(ev, "clEnqueueNDRangeKernel").map(drop)
    }

    pub(super) fn alloc(&self, bytes: usize) -> Result<ClMem> {
        // SAFETY: no host pointer; the buffer is released on drop.
        let buf = unsafe { Buffer::<u8>::create(&self.context, CL_MEM_READ_WRITE, bytes, std::ptr::null_mut()) };
        Ok(ClMem(check(buf, "clCreateBuffer")?))
    }

    pub(super) fn write(&self, dst: &mut ClMem, src: &[u8], blocking: bool) -> Result<()> {
        let b = if blocking { CL_BLOCKING } else { CL_NON_BLOCKING };
        // SAFETY: dst holds src.len() bytes; a non-blocking caller keeps src alive until finish.
        check(unsafe { self.queue.enqueue_write_buffer(&mut dst.0, b, 0, src, &[]) }, "clEnqueueWriteBuffer").map(drop)
    }

    pub(super) fn read(&self, src: &ClMem, dst: &mut [u8], blocking: bool) -> Result<()> {
        let b = if blocking { CL_BLOCKING } else { CL_NON_BLOCKING };
        // SAFETY: as in write.
        check(unsafe { self.queue.enqueue_read_buffer(&src.0, b, 0, dst, &[]) }, "clEnqueueReadBuffer").map(drop)
    }

    pub(super) fn fill(&self, dst: &mut ClMem, byte: u8, bytes: usize) -> Result<()> {
        // SAFETY: fills within the buffer's size.
        check(unsafe { self.queue.enqueue_fill_buffer(&mut dst.0, &[byte], 0, bytes, &[]) }, "clEnqueueFillBuffer").map(drop)
    }

    pub(super) fn copy(&self, src: &ClMem, src_off: usize, dst: &mut ClMem, dst_off: usize, bytes: usize) -> Result<()> {
        // SAFETY: ranges are checked by the caller.
        check(unsafe { self.queue.enqueue_copy_buffer(&src.0, &mut dst.0, src_off, dst_off, bytes, &[]) }, "clEnqueueCopyBuffer")
            .map(drop)
    }

    /// A buffer in host-visible, page-locked memory (CL_MEM_ALLOC_HOST_PTR), mapped once for
    /// its lifetime: the way OpenCL drivers expose pinned memory.
    pub(super) fn alloc_pinned(&self, bytes: usize) -> Result<ClPinned> {
        let buf = unsafe { Buffer::<u8>::create(&self.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, std::ptr::null_mut()) };
        let buf = check(buf, "clCreateBuffer(ALLOC_HOST_PTR)")?;
        let mut ptr: cl_mem = std::ptr::null_mut();
        // SAFETY: maps the whole buffer, blocking, for reading and writing.
        check(unsafe { self.queue.enqueue_map_buffer(&buf, CL_BLOCKING, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, &mut ptr, &[]) }, "clEnqueueMapBuffer")?;
        Ok(ClPinned { _buffer: buf, ptr: ptr.cast() })
    }

    pub(super) fn finish(&self) -> Result<()> {
        check(self.queue.finish(), "clFinish")
    }

    pub(super) fn mark(&self) -> Result<ClMark> {
        // SAFETY: a marker with no wait list.
        Ok(ClMark(check(unsafe { self.queue.enqueue_marker_with_wait_list(&[]) }, "clEnqueueMarkerWithWaitList")?))
    }

    #[allow(dead_code)]
    pub(super) fn device_id(&self) -> cl_device_id {
        self.device_id
    }
}

pub(super) struct ClProgram(OclProgram);

pub(super) struct ClKernel(Mutex<OclKernel>);

/// Device memory; released on drop.
pub(crate) struct ClMem(Buffer<u8>);
unsafe impl Send for ClMem {}
unsafe impl Sync for ClMem {}
impl ClMem {
    pub(super) fn get(&self) -> cl_mem {
        self.0.get()
    }
}

pub(super) struct ClPinned {
    _buffer: Buffer<u8>,
    ptr: *mut u8,
}
unsafe impl Send for ClPinned {}
unsafe impl Sync for ClPinned {}
impl ClPinned {
    pub(super) fn ptr(&self) -> *mut u8 {
        self.ptr
    }
}

pub(super) struct ClMark(Event);
unsafe impl Send for ClMark {}
unsafe impl Sync for ClMark {}
impl ClMark {
    pub(super) fn elapsed_ms_since(&self, start: &ClMark) -> Result<f64> {
        check(self.0.wait(), "clWaitForEvents")?;
        let end = check(self.0.profiling_command_end(), "clGetEventProfilingInfo(END)")?;
        let begin = check(start.0.profiling_command_end(), "clGetEventProfilingInfo(END)")?;
        Ok(end.saturating_sub(begin) as f64 / 1e6)
    }
}
