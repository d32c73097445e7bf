//! The device layer: the only code that knows CUDA or OpenCL.
//!
//! A [`Device`] is one GPU (or CPU) behind one backend, with one in-order stream or queue. It
//! allocates typed buffers, moves data, compiles generated kernels (with memory and disk
//! caches), launches them and times them with device events. Everything above this module
//! speaks only in these terms.

mod buffer;
mod cuda;
mod cufft;
mod launch;
mod opencl;
mod select;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

pub use buffer::{DeviceBuffer, PinnedHostBuffer, RawBuffer};
pub use cufft::{CufftKind, CufftLayout, CufftPlan};
pub use launch::{Arg, Grid};
pub use select::DeviceSpec;

use crate::error::{Error, Result};
use crate::kernel::cache::{dump_source, hash_parts, replaced_source, DiskCache};
use crate::kernel::KernelSource;

/// Which API drives a device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    Cuda,
    OpenCl,
}

impl Backend {
    /// The name used in device specs (`cuda:0`, `opencl:1`).
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cuda => "cuda",
            Backend::OpenCl => "opencl",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a device is and what it can do, read once when it is opened.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    pub backend: Backend,
    /// Position among the devices of its backend: the N of `cuda:N` / `opencl:N`.
    pub index: usize,
    pub name: String,
    pub vendor: String,
    /// Global memory in bytes.
    pub total_memory: u64,
    /// Largest single allocation in bytes.
    pub max_allocation: u64,
    /// Streaming multiprocessors (CUDA) or compute units (OpenCL).
    pub multiprocessors: u32,
    /// Shared (local) memory one block may use by default, in bytes.
    pub shared_memory_per_block: u64,
    /// Threads that execute in lock step, where the backend says.
    pub warp_size: Option<u32>,
    pub max_threads_per_block: u32,
    /// Resident threads per multiprocessor, where the backend says.
    pub max_threads_per_multiprocessor: Option<u32>,
    /// CUDA compute capability (major, minor).
    pub compute_capability: Option<(u32, u32)>,
    pub l2_cache_bytes: Option<u64>,
    /// Driver version, as the backend reports it (CUDA: API version and kernel module).
    pub driver_version: String,
    /// Kernel compiler: NVRTC version, or the OpenCL C version and platform.
    pub compiler_version: String,
}

/// One compute device. Cheap to clone; every clone drives the same stream.
#[derive(Clone)]
pub struct Device {
    shared: Arc<DeviceShared>,
}

struct DeviceShared {
    /// Compiled programs by source hash: a plan built twice compiles once. Declared before
    /// `imp` so that modules are unloaded before the context goes.
    programs: Mutex<HashMap<String, Arc<Program>>>,
    info: DeviceInfo,
    imp: Imp,
    disk: DiskCache,
    /// Everything besides the source that decides the compiled binary.
    compile_key: String,
}

enum Imp {
    Cuda(cuda::CudaDevice),
    OpenCl(opencl::ClDevice),
}

/// A compiled program: its kernels by name.
pub struct Program {
    name: String,
    kernels: HashMap<String, Kernel>,
    /// True when this program came from the disk cache rather than the compiler.
    pub from_disk_cache: bool,
}

impl Program {
    /// The kernel of that name, which the program's source listed as an entry point.
    pub fn kernel(&self, name: &str) -> Result<&Kernel> {
        self.kernels
            .get(name)
            .ok_or_else(|| Error::invalid(format!("program '{}' has no kernel named '{name}'", self.name)))
    }
}

/// One launchable kernel.
pub struct Kernel {
    pub(crate) name: String,
    imp: KernelImp,
}

enum KernelImp {
    Cuda(cuda::CudaKernel),
    OpenCl(opencl::ClKernel),
}

impl Kernel {
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// A point in a device's stream; two of them time what ran between.
pub struct Mark {
    imp: MarkImp,
}

enum MarkImp {
    Cuda(cuda::CudaMark),
    OpenCl(opencl::ClMark),
}

impl Mark {
    /// Milliseconds of device time from `start` to this mark. Waits for this mark.
    pub fn elapsed_ms_since(&self, start: &Mark) -> Result<f64> {
        match (&self.imp, &start.imp) {
            (MarkImp::Cuda(end), MarkImp::Cuda(start)) => end.elapsed_ms_since(start),
            (MarkImp::OpenCl(end), MarkImp::OpenCl(start)) => end.elapsed_ms_since(start),
            _ => Err(Error::invalid("marks from different backends cannot be compared")),
        }
    }
}

impl Device {
    /// Every device present, CUDA devices first. Devices that fail to open are skipped
    /// with a note on stderr; an empty list is not an error here.
    pub fn all() -> Vec<Device> {
        let mut out = Vec::new();
        for spec in &select::enumerate().specs {
            match Device::open_spec(spec) {
                Ok(d) => out.push(d),
                Err(e) => eprintln!("coalesce: skipping {spec}: {e}"),
            }
        }
        out
    }

    /// The device named by `spec` (`cuda`, `cuda:1`, `opencl`, `opencl:0`), or when `spec` is
    /// `None`, by `COALESCE_DEVICE`, or else the first CUDA device, else the first OpenCL one.
    pub fn select(spec: Option<&str>) -> Result<Device> {
        let from_env = std::env::var("COALESCE_DEVICE").ok().filter(|s| !s.trim().is_empty());
        let text = spec.map(str::to_owned).or(from_env);
        let found = select::enumerate();
        let spec = match text {
            Some(t) => found.resolve(&t)?,
            None => found.first().ok_or_else(|| Error::NoDevice { details: found.why_none() })?,
        };
        Device::open_spec(&spec)
    }

    /// Opens one device by its resolved spec.
    pub fn open_spec(spec: &DeviceSpec) -> Result<Device> {
        let (imp, info) = match spec.backend {
            Backend::Cuda => {
                let (d, info) = cuda::CudaDevice::open(spec.index)?;
                (Imp::Cuda(d), info)
            }
            Backend::OpenCl => {
                let (d, info) = opencl::ClDevice::open(spec.index)?;
                (Imp::OpenCl(d), info)
            }
        };
        let compile_key = format!(
            "{} | {} | {:?} | driver {} | compiler {} | options {}",
            info.backend,
            info.name,
            info.compute_capability,
            info.driver_version,
            info.compiler_version,
            match &imp {
                Imp::Cuda(d) => d.compile_options().join(" "),
                Imp::OpenCl(d) => d.compile_options().to_owned(),
            }
        );
        Ok(Device {
            shared: Arc::new(DeviceShared {
                info,
                imp,
                programs: Mutex::new(HashMap::new()),
                disk: DiskCache::from_env(),
                compile_key,
            }),
        })
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.shared.info
    }

    /// `cuda:0`, `opencl:1`: the spec that selects this device again.
    pub fn id(&self) -> String {
        format!("{}:{}", self.shared.info.backend, self.shared.info.index)
    }

    pub fn backend(&self) -> Backend {
        self.shared.info.backend
    }

    pub(crate) fn same_as(&self, other: &Device) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }

    /// Waits until everything queued on this device has finished.
    pub fn synchronize(&self) -> Result<()> {
        match &self.shared.imp {
            Imp::Cuda(d) => d.synchronize(),
            Imp::OpenCl(d) => d.finish(),
        }
    }

    /// Records a point in the stream, for timing with [`Mark::elapsed_ms_since`].
    pub fn mark(&self) -> Result<Mark> {
        Ok(Mark {
            imp: match &self.shared.imp {
                Imp::Cuda(d) => MarkImp::Cuda(d.mark()?),
                Imp::OpenCl(d) => MarkImp::OpenCl(d.mark()?),
            },
        })
    }

    /// Compiles a generated program, or finds it in the memory or disk cache.
    /// A compile failure returns [`Error::Compile`] with the kernel's name and the compiler's log.
    pub fn build(&self, source: &KernelSource) -> Result<Arc<Program>> {
        self.build_with(source, true)
    }

    /// Compiles a program without looking in either cache (the result is still stored in
    /// both): what a first run on a new machine pays. For measuring plan creation.
    pub fn build_uncached(&self, source: &KernelSource) -> Result<Arc<Program>> {
        self.build_with(source, false)
    }

    fn build_with(&self, source: &KernelSource, look_up: bool) -> Result<Arc<Program>> {
        let replaced = replaced_source(&source.name, self.backend_source_ext());
        let text = replaced.as_ref().map_or_else(|| source.full_text(), |(_, text)| text.clone());
        let hash = hash_parts(&[&text, &source.entry_points.join(",")]);
        if look_up && let Some(p) = self.shared.programs.lock().unwrap().get(&hash) {
            return Ok(p.clone());
        }
        if let Some((path, _)) = &replaced {
            // Said once a program, so that a forgotten variable does not pass unseen.
            eprintln!("coalesce: kernel {} from {} (COALESCE_REPLACE_KERNELS)", source.name, path.display());
        }
        dump_source(&source.name, self.backend_source_ext(), &text);
        let key = &self.shared.compile_key;
        let cached = if look_up { self.shared.disk.load(key, &source.name, &hash) } else { None };
        let mut from_disk_cache = false;
        // A cached binary that no longer loads (say, a driver downgrade) is compiled afresh.
        let (kernels, binary) = match &self.shared.imp {
            Imp::Cuda(d) => {
                let (module, binary) = match cached.and_then(|bin| d.load_binary(&bin).ok()) {
                    Some(m) => {
                        from_disk_cache = true;
                        (m, None)
                    }
                    None => d.compile(&source.name, &text, &self.shared.info.name)?,
                };
                (entry_kernels(source, |e| Ok(KernelImp::Cuda(d.kernel(&module, e)?)))?, binary)
            }
            Imp::OpenCl(d) => {
                let (program, binary) = match cached.and_then(|bin| d.load_binary(&bin).ok()) {
                    Some(p) => {
                        from_disk_cache = true;
                        (p, None)
                    }
                    None => d.compile(&source.name, &text, &self.shared.info.name)?,
                };
                (entry_kernels(source, |e| Ok(KernelImp::OpenCl(d.kernel(&program, e)?)))?, binary)
            }
        };
        if let Some(bin) = binary {
            self.shared.disk.store(key, &source.name, &hash, &bin);
        }
        let program = Arc::new(Program { name: source.name.clone(), kernels, from_disk_cache });
        self.shared.programs.lock().unwrap().insert(hash, program.clone());
        Ok(program)
    }

    /// Builds many programs on all host cores (NVRTC and OpenCL compilers are thread-safe):
    /// a sweep over thousands of generated kernels spends seconds in the compiler, not
    /// minutes. Results are in the order of `sources`; the first failure is returned.
    pub fn build_all(&self, sources: &[KernelSource]) -> Result<Vec<Arc<Program>>> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(sources.len()).max(1);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let mut built: Vec<Option<Result<Arc<Program>>>> = (0..sources.len()).map(|_| None).collect();
        let slots = Mutex::new(&mut built);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(source) = sources.get(i) else { break };
                    let r = self.build(source);
                    slots.lock().unwrap()[i] = Some(r);
                });
            }
        });
        built.into_iter().map(|r| r.expect("every index is claimed by one worker")).collect()
    }

    fn backend_source_ext(&self) -> &'static str {
        match self.backend() {
            Backend::Cuda => "cu",
            Backend::OpenCl => "cl",
        }
    }

    /// Forgets the compiled programs held in memory (the disk cache stays). For measuring
    /// plan creation from the disk cache.
    pub fn clear_memory_cache(&self) {
        self.shared.programs.lock().unwrap().clear();
    }

    /// The disk cache directory in use, if any.
    pub fn disk_cache_dir(&self) -> Option<std::path::PathBuf> {
        self.shared.disk.dir().map(|p| p.to_path_buf())
    }

    /// Queues a kernel launch. Arguments are checked for the device they live on.
    pub fn launch(&self, kernel: &Kernel, grid: Grid, args: &[Arg<'_>]) -> Result<()> {
        for a in args {
            if let Arg::Buffer(b) = a {
                self.check_owns(b)?;
            }
        }
        if grid.is_empty() {
            return Ok(());
        }
        match (&self.shared.imp, &kernel.imp) {
            (Imp::Cuda(d), KernelImp::Cuda(k)) => d.launch(k, grid, args),
            (Imp::OpenCl(d), KernelImp::OpenCl(k)) => d.launch(k, grid, args),
            _ => Err(Error::invalid(format!("kernel '{}' was compiled for another backend", kernel.name))),
        }
    }

    pub(crate) fn check_owns(&self, buf: &RawBuffer) -> Result<()> {
        if self.same_as(&buf.device) {
            Ok(())
        } else {
            Err(Error::WrongDevice { device: self.id(), buffer_device: buf.device.id() })
        }
    }

    fn check_allocation(&self, bytes: usize) -> Result<()> {
        let info = &self.shared.info;
        if bytes as u64 > info.max_allocation {
            return Err(Error::OutOfDeviceMemory {
                device: self.id(),
                requested: bytes as u64,
                available: info.total_memory,
                detail: format!("the largest single allocation is {} bytes", info.max_allocation),
            });
        }
        Ok(())
    }

    /// Device-to-device copy by the driver (cuMemcpyDtoD / clEnqueueCopyBuffer): the
    /// reference every bandwidth figure is measured against.
    pub fn driver_copy<T: crate::Element>(&self, src: &DeviceBuffer<T>, dst: &mut DeviceBuffer<T>) -> Result<()> {
        if src.len() != dst.len() {
            return Err(Error::LengthMismatch {
                what: "driver copy destination".into(),
                expected: src.len(),
                got: dst.len(),
            });
        }
        self.copy_raw(src.raw(), 0, dst.raw_mut(), 0, src.size_bytes())
    }

    pub(crate) fn copy_raw(&self, src: &RawBuffer, src_off: usize, dst: &mut RawBuffer, dst_off: usize, bytes: usize) -> Result<()> {
        self.check_owns(src)?;
        self.check_owns(dst)?;
        if bytes == 0 {
            return Ok(());
        }
        match &self.shared.imp {
            Imp::Cuda(d) => d.copy(src.cuda(), src_off, dst.cuda(), dst_off, bytes),
            Imp::OpenCl(d) => d.copy(src.opencl(), src_off, dst.opencl_mut(), dst_off, bytes),
        }
    }
}

/// The kernels a program's source lists as entry points, by name.
fn entry_kernels(source: &KernelSource, mut get: impl FnMut(&str) -> Result<KernelImp>) -> Result<HashMap<String, Kernel>> {
    source
        .entry_points
        .iter()
        .map(|e| Ok((e.clone(), Kernel { name: e.clone(), imp: get(e)? })))
        .collect()
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Device({} {})", self.id(), self.shared.info.name)
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.id(), self.shared.info.name)
    }
}
