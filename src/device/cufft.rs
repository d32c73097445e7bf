//! cuFFT on a coalesce CUDA device: the reference our FFTs are measured and checked against,
//! run on the same buffers and the same stream. CUDA only; libcufft is loaded at run time.

use std::sync::Mutex;

use cudarc::cufft::result as fft;
use cudarc::cufft::sys;

use super::{Device, DeviceBuffer, Imp};
use crate::element::{Element, ScalarKind};
use crate::error::{Api, Error, Result};

/// The six cuFFT transform types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CufftKind {
    /// complex64 to complex64
    C2C,
    /// complex128 to complex128
    Z2Z,
    /// float32 to complex64 (half spectrum)
    R2C,
    /// complex64 (half spectrum) to float32
    C2R,
    /// float64 to complex128
    D2Z,
    /// complex128 to float64
    Z2D,
}

impl CufftKind {
    /// Element kinds of the input and output buffers.
    pub fn elements(self) -> (ScalarKind, ScalarKind) {
        use ScalarKind as K;
        match self {
            CufftKind::C2C => (K::C32, K::C32),
            CufftKind::Z2Z => (K::C64, K::C64),
            CufftKind::R2C => (K::F32, K::C32),
            CufftKind::C2R => (K::C32, K::F32),
            CufftKind::D2Z => (K::F64, K::C64),
            CufftKind::Z2D => (K::C64, K::F64),
        }
    }

    fn sys(self) -> sys::cufftType {
        match self {
            CufftKind::C2C => sys::cufftType::CUFFT_C2C,
            CufftKind::Z2Z => sys::cufftType::CUFFT_Z2Z,
            CufftKind::R2C => sys::cufftType::CUFFT_R2C,
            CufftKind::C2R => sys::cufftType::CUFFT_C2R,
            CufftKind::D2Z => sys::cufftType::CUFFT_D2Z,
            CufftKind::Z2D => sys::cufftType::CUFFT_Z2D,
        }
    }
}

fn check<T>(r: std::result::Result<T, fft::CufftError>, call: &'static str) -> Result<T> {
    r.map_err(|e| Error::Backend { api: Api::Cufft, call, message: format!("{:?}", e.0) })
}

/// A batched, contiguous cuFFT plan (`cufftPlanMany` with default layouts): `batch`
/// transforms of shape `dims`, row-major, real sides of `prod(dims)` elements and complex
/// sides with the last dimension halved to `n/2 + 1`, as numpy and cuFFT lay them out.
pub struct CufftPlan {
    device: Device,
    /// Executions of one cuFFT handle must not overlap.
    handle: Mutex<sys::cufftHandle>,
    kind: CufftKind,
    input_len: usize,
    output_len: usize,
}

// SAFETY: the handle is used under its mutex; cuFFT handles may move between threads.
unsafe impl Send for CufftPlan {}
unsafe impl Sync for CufftPlan {}

/// cuFFT's advanced layout (cufftPlanMany's embeds, strides and distances): point x of
/// transform b lies at b * dist + stride * (x's row-major index in an array of `embed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CufftLayout {
    pub input_embed: Vec<usize>,
    pub input_stride: usize,
    pub input_dist: usize,
    pub output_embed: Vec<usize>,
    pub output_stride: usize,
    pub output_dist: usize,
}

impl CufftPlan {
    /// `batch` transforms of shape `dims`, row-major, one after another.
    pub fn new(device: &Device, kind: CufftKind, dims: &[usize], batch: usize) -> Result<Self> {
        Self::create(device, kind, dims, batch, None)
    }

    /// `batch` transforms of shape `dims` laid out as `layout` says.
    pub fn with_layout(device: &Device, kind: CufftKind, dims: &[usize], batch: usize, layout: &CufftLayout) -> Result<Self> {
        Self::create(device, kind, dims, batch, Some(layout))
    }

    fn create(device: &Device, kind: CufftKind, dims: &[usize], batch: usize, layout: Option<&CufftLayout>) -> Result<Self> {
        let Imp::Cuda(cuda) = &device.shared.imp else {
            return Err(Error::invalid(format!("cuFFT needs a CUDA device; {device} is not one")));
        };
        // SAFETY: only probes whether the library can be opened.
        if !unsafe { sys::is_culib_present() } {
            return Err(Error::Backend {
                api: Api::Cufft,
                call: "dlopen(libcufft)",
                message: "libcufft was not found: add the CUDA toolkit's lib64 folder to LD_LIBRARY_PATH".into(),
            });
        }
        if dims.is_empty() || dims.len() > 3 || dims.contains(&0) || batch == 0 {
            return Err(Error::invalid(format!("cuFFT plans take 1 to 3 non-zero dimensions and batch >= 1, got {dims:?} x {batch}")));
        }
        let too_big = || Error::invalid(format!("cuFFT plan of {dims:?} x {batch}: sizes exceed what cuFFT's 32-bit plans or 64-bit addressing hold"));
        let mut n: Vec<i32> = dims.iter().map(|&d| i32::try_from(d).map_err(|_| too_big())).collect::<Result<_>>()?;
        let batch_i = i32::try_from(batch).map_err(|_| too_big())?;
        let last = dims[dims.len() - 1];
        let real = dims.iter().try_fold(batch, |acc, &d| acc.checked_mul(d)).ok_or_else(too_big)?;
        let half = real / last * (last / 2 + 1);
        let (mut input_len, mut output_len) = match kind {
            CufftKind::C2C | CufftKind::Z2Z => (real, real),
            CufftKind::R2C | CufftKind::D2Z => (real, half),
            CufftKind::C2R | CufftKind::Z2D => (half, real),
        };
        let mut halved = dims.to_vec();
        *halved.last_mut().expect("dims checked non-empty") = last / 2 + 1;
        let (in_dims, out_dims) = match kind {
            CufftKind::R2C | CufftKind::D2Z => (dims.to_vec(), halved),
            CufftKind::C2R | CufftKind::Z2D => (halved, dims.to_vec()),
            _ => (dims.to_vec(), dims.to_vec()),
        };
        let to_i32 = |v: &[usize]| v.iter().map(|&d| i32::try_from(d).map_err(|_| too_big())).collect::<Result<Vec<i32>>>();
        let mut embeds = (Vec::new(), Vec::new());
        if let Some(l) = layout {
            // One past the farthest point: the last transform's last point.
            let span = |dims: &[usize], embed: &[usize], stride: usize, dist: usize| {
                let index = dims.iter().enumerate().fold(0, |acc, (k, &d)| acc + (d - 1) * embed[k + 1..].iter().product::<usize>());
                (batch - 1) * dist + index * stride + 1
            };
            if l.input_embed.len() != dims.len() || l.output_embed.len() != dims.len() {
                return Err(Error::invalid(format!("cuFFT layout {l:?} for {}-d transforms: give one embed length per dimension", dims.len())));
            }
            input_len = span(&in_dims, &l.input_embed, l.input_stride, l.input_dist);
            output_len = span(&out_dims, &l.output_embed, l.output_stride, l.output_dist);
            embeds = (to_i32(&l.input_embed)?, to_i32(&l.output_embed)?);
        }
        let (istride, idist, ostride, odist) = match layout {
            Some(l) => (l.input_stride, l.input_dist, l.output_stride, l.output_dist),
            None => (1, 0, 1, 0),
        };
        let [istride, idist, ostride, odist] = [istride, idist, ostride, odist].map(|v| i32::try_from(v).map_err(|_| too_big()));
        let (istride, idist, ostride, odist) = (istride?, idist?, ostride?, odist?);
        let embed_ptr = |e: &mut Vec<i32>| if e.is_empty() { std::ptr::null_mut() } else { e.as_mut_ptr() };
        let (inembed, onembed) = (embed_ptr(&mut embeds.0), embed_ptr(&mut embeds.1));
        cuda.bind()?;
        // SAFETY: n holds dims.len() sizes; the embeds as many or null (the default contiguous
        // layout, strides and distances then ignored).
        let handle = check(
            unsafe { fft::plan_many(n.len() as i32, n.as_mut_ptr(), inembed, istride, idist, onembed, ostride, odist, kind.sys(), batch_i) },
            "cufftPlanMany",
        )?;
        // SAFETY: a live plan and the device's live stream.
        if let Err(e) = check(unsafe { fft::set_stream(handle, cuda.stream() as _) }, "cufftSetStream") {
            let _ = unsafe { fft::destroy(handle) };
            return Err(e);
        }
        Ok(CufftPlan { device: device.clone(), handle: Mutex::new(handle), kind, input_len, output_len })
    }

    /// Elements the input and output buffers hold.
    pub fn lens(&self) -> (usize, usize) {
        (self.input_len, self.output_len)
    }

    /// Queues the transform from `input` to `output` (unnormalised in both directions, as
    /// cuFFT does). `inverse` applies to complex-to-complex plans only.
    pub fn execute<I: Element, O: Element>(&self, input: &DeviceBuffer<I>, output: &mut DeviceBuffer<O>, inverse: bool) -> Result<()> {
        self.check_buffers(input, output)?;
        // cuFFT's out-of-place complex-to-real transforms overwrite their input, which is
        // borrowed shared here: those go through `execute_destroying_input`.
        if matches!(self.kind, CufftKind::C2R | CufftKind::Z2D) {
            return Err(Error::invalid(
                "cuFFT's complex-to-real transforms overwrite their input: use execute_destroying_input",
            ));
        }
        self.run(input.raw().cuda().ptr, output.raw().cuda().ptr, inverse)
    }

    /// Queues the transform in place (complex-to-real and real-to-complex need a buffer
    /// of the larger of the two sides, viewed as the input type).
    pub fn execute_in_place<T: Element>(&self, data: &mut DeviceBuffer<T>, inverse: bool) -> Result<()> {
        let (i, o) = self.kind.elements();
        let need = (self.input_len * i.size()).max(self.output_len * o.size());
        self.device.check_owns(data.raw())?;
        if T::KIND != i || data.size_bytes() < need {
            return Err(Error::invalid(format!(
                "in-place cuFFT {:?} needs a {i} buffer of at least {need} bytes, got {} x {}",
                self.kind,
                data.len(),
                T::KIND
            )));
        }
        let p = data.raw().cuda().ptr;
        self.run(p, p, inverse)
    }

    /// As [`execute`](Self::execute) (C2R and Z2D included: they may overwrite `input`), on the
    /// first elements of buffers that may be longer than the plan's: for benchmarks that run
    /// many sizes on one pair of buffers.
    pub fn execute_prefix<I: Element, O: Element>(&self, input: &mut DeviceBuffer<I>, output: &mut DeviceBuffer<O>, inverse: bool) -> Result<()> {
        self.device.check_owns(input.raw())?;
        self.device.check_owns(output.raw())?;
        let (i, o) = self.kind.elements();
        if I::KIND != i || O::KIND != o || input.len() < self.input_len || output.len() < self.output_len {
            return Err(Error::invalid(format!(
                "cuFFT {:?} needs at least {} x {i} in and {} x {o} out; got {} x {} and {} x {}",
                self.kind,
                self.input_len,
                self.output_len,
                input.len(),
                I::KIND,
                output.len(),
                O::KIND
            )));
        }
        self.run(input.raw().cuda().ptr, output.raw().cuda().ptr, inverse)
    }

    /// Queues a complex-to-real transform that may overwrite `input` (cuFFT's own contract).
    pub fn execute_destroying_input<I: Element, O: Element>(&self, input: &mut DeviceBuffer<I>, output: &mut DeviceBuffer<O>) -> Result<()> {
        self.check_buffers(input, output)?;
        self.run(input.raw().cuda().ptr, output.raw().cuda().ptr, false)
    }

    /// Out-of-place buffers: on this device, of the plan's element types and lengths.
    fn check_buffers<I: Element, O: Element>(&self, input: &DeviceBuffer<I>, output: &DeviceBuffer<O>) -> Result<()> {
        self.device.check_owns(input.raw())?;
        self.device.check_owns(output.raw())?;
        let (ik, il, ok, ol) = (I::KIND, input.len(), O::KIND, output.len());
        let (i, o) = self.kind.elements();
        if ik != i || ok != o {
            return Err(Error::invalid(format!("cuFFT {:?} maps {i} to {o}; buffers hold {ik} and {ok}", self.kind)));
        }
        if il != self.input_len {
            return Err(Error::LengthMismatch { what: "cuFFT input".into(), expected: self.input_len, got: il });
        }
        if ol != self.output_len {
            return Err(Error::LengthMismatch { what: "cuFFT output".into(), expected: self.output_len, got: ol });
        }
        Ok(())
    }

    fn run(&self, input: u64, output: u64, inverse: bool) -> Result<()> {
        let Imp::Cuda(cuda) = &self.device.shared.imp else { unreachable!("checked at plan creation") };
        cuda.bind()?;
        // Held until the transform is queued: one handle, one execution at a time.
        let guard = self.handle.lock().unwrap();
        let handle = *guard;
        let dir = if inverse { 1 } else { -1 }; // CUFFT_INVERSE, CUFFT_FORWARD
        // SAFETY: pointers are live device buffers of the plan's sizes (checked by callers).
        let r = unsafe {
            match self.kind {
                CufftKind::C2C => fft::exec_c2c(handle, input as _, output as _, dir),
                CufftKind::Z2Z => fft::exec_z2z(handle, input as _, output as _, dir),
                CufftKind::R2C => fft::exec_r2c(handle, input as _, output as _),
                CufftKind::C2R => fft::exec_c2r(handle, input as _, output as _),
                CufftKind::D2Z => fft::exec_d2z(handle, input as _, output as _),
                CufftKind::Z2D => fft::exec_z2d(handle, input as _, output as _),
            }
        };
        drop(guard);
        check(r, "cufftExec")
    }
}

impl Drop for CufftPlan {
    fn drop(&mut self) {
        if let Imp::Cuda(cuda) = &self.device.shared.imp {
            let _ = cuda.bind();
            // SAFETY: the handle was created by cufftPlanMany and is not used after this.
            let _ = unsafe { fft::destroy(*self.handle.get_mut().unwrap()) };
        }
    }
}
