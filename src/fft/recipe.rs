//! The plan as plain data: which algorithm, which radices, how threads map onto transforms.
//! Designed by a heuristic from the problem and the device's limits; printable, comparable,
//! and the only input of code generation.

use super::factor::{bluestein_len, pack_radices, pack_radices_capped, MAX_COMPOSITE_RADIX};
use super::problem::{FftKind, FftProblem, Precision};
use crate::error::{Error, Result};

/// Largest prime radix given a straight-line codelet; transforms with a larger prime factor
/// use Bluestein's algorithm.
pub const MAX_PRIME_RADIX: usize = 61;

/// The complex transform each thread group runs in shared memory.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Core {
    /// Mixed-radix Stockham autosort: one pass per radix, natural order in and out.
    Stockham { len: usize, radices: Vec<usize> },
    /// Bluestein: chirp, a length-`conv_len` convolution by two Stockham transforms (radices
    /// of `conv_len`) with the filter's spectrum precomputed, chirp again.
    Bluestein { len: usize, conv_len: usize, radices: Vec<usize> },
}

impl Core {
    /// The core for a transform of length `len`: radices by [`pack_radices`] (Bluestein's
    /// power-of-two-leaning convolutions by products up to 16, which measured faster there),
    /// or composite radices packed up to `radix_cap` when one is given.
    fn design(len: usize, radix_cap: Option<usize>) -> Core {
        let stockham = match radix_cap {
            None => pack_radices(len, MAX_PRIME_RADIX),
            Some(cap) => pack_radices_capped(len, MAX_PRIME_RADIX, cap),
        };
        match stockham {
            Some(radices) => Core::Stockham { len, radices },
            None => Core::bluestein(len, bluestein_len(len), radix_cap.unwrap_or(MAX_COMPOSITE_RADIX)).expect("Bluestein lengths are 7-smooth"),
        }
    }

    /// Bluestein's algorithm for length `len` by a convolution of length `conv_len`: None when
    /// `conv_len` is shorter than 2 len - 1 or has a prime factor above MAX_PRIME_RADIX.
    pub fn bluestein(len: usize, conv_len: usize, radix_cap: usize) -> Option<Core> {
        if conv_len + 1 < 2 * len {
            return None;
        }
        let radices = pack_radices_capped(conv_len, MAX_PRIME_RADIX, radix_cap)?;
        Some(Core::Bluestein { len, conv_len, radices })
    }

    /// Length of the transform.
    pub fn len(&self) -> usize {
        match self {
            Core::Stockham { len, .. } | Core::Bluestein { len, .. } => *len,
        }
    }

    /// Complex values of shared memory one transform occupies.
    pub fn region(&self) -> usize {
        match self {
            Core::Stockham { len, .. } => *len,
            Core::Bluestein { conv_len, .. } => *conv_len,
        }
    }

    /// The radices of the Stockham passes (of the convolution, for Bluestein).
    pub fn radices(&self) -> &[usize] {
        match self {
            Core::Stockham { radices, .. } | Core::Bluestein { radices, .. } => radices,
        }
    }
}

/// How a real transform maps onto the complex core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RealPacking {
    /// C2C: no packing.
    Complex,
    /// Even N: the real row read as N/2 complex pairs, a length N/2 complex core, and a
    /// pre- or post-processing step that separates the even and odd halves.
    HalfLength,
    /// Odd N: the real row widened to complex, a length-N complex core.
    Widened,
}

/// Where the Stockham passes get their twiddle factors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TwiddleSource {
    /// A table computed in f64 on the host, read through the cache: one read per twiddle.
    Table,
    /// One table read per butterfly (W^k); W^{ik} as its powers by repeated squaring, so the
    /// rounding error grows with log R, not R.
    TablePowers,
    /// sinpi/cospi evaluated in the kernel.
    Computed,
}

/// The tunable choices of the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FftTuning {
    /// Threads that cooperate on one transform.
    pub threads_per_transform: u32,
    /// Transforms one block holds in shared memory.
    pub transforms_per_block: u32,
    /// One padding slot after every 2^pad_shift complex values of shared memory (against
    /// bank conflicts of strided butterflies); None for no padding.
    pub pad_shift: Option<u32>,
    /// Spare slots after each row, so that rows start on different banks.
    pub row_pad: u32,
    /// The core's first pass reads global memory and its last pass writes it (both coalesced
    /// when a row has enough threads), sparing two trips through shared memory. R2C of even
    /// length still stores through shared memory: separating its spectrum pairs values i and m-i.
    pub direct_io: bool,
    pub twiddles: TwiddleSource,
    /// Blocks that must fit on one multiprocessor at once (CUDA's `__launch_bounds__`
    /// minimum; OpenCL ignores it): caps registers at 64K / (blocks x threads per block).
    /// The planner asks for 2 only for Bluestein kernels that keep at least
    /// BLUESTEIN_REGISTER_FLOOR registers by it; elsewhere a minimum made NVRTC spend more
    /// registers or spill (docs/BENCHMARKS.md). A measuring autotuner should choose it per kernel.
    pub min_blocks_per_sm: u32,
}

impl FftTuning {
    /// The minimum of blocks to write into the launch bounds: none for 0 or 1 (an explicit 1
    /// is not the same as none to NVRTC).
    pub fn launch_minimum(&self) -> Option<u32> {
        (self.min_blocks_per_sm > 1).then_some(self.min_blocks_per_sm)
    }
}

/// What the device allows, as far as FFT planning cares.
#[derive(Debug, Clone, Copy)]
pub struct DeviceLimits {
    pub shared_bytes: u64,
    pub max_threads: u32,
}

/// A designed single-launch FFT: the problem, the algorithm and the tuning.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FftRecipe {
    pub problem: FftProblem,
    pub packing: RealPacking,
    pub core: Core,
    pub tuning: FftTuning,
}

/// Shared memory a block aims to fill before it stops adding transforms, with blocks of
/// TARGET_THREADS_PER_BLOCK threads and at most MAX_THREADS_PER_BLOCK (N = 2 ran at 0.76 of
/// copy with 1024-thread blocks). Halving both from 2048 values and 256 threads ran 27 of 41
/// sampled sizes more than 3% faster on an H200 (up to 1.7x, N = 133): more, smaller blocks
/// per multiprocessor overlap one block's loads with another's passes (our reading, not measured).
const TARGET_VALUES_PER_BLOCK: usize = 1024;
const TARGET_THREADS_PER_BLOCK: u32 = 128;
const MAX_THREADS_PER_BLOCK: u32 = 512;
/// Bluestein kernels want about 170 registers per thread: for convolutions of 2048 and more,
/// a launch bound of two blocks per multiprocessor ran them up to 1.3x faster where it leaves
/// at least this many (blocks of at most 256 threads), and spilled (down to 0.4x) where it
/// left 64 to 102; at 121 (4320-point convolutions, 270 threads) it ran 0.77x. Shorter
/// convolutions ran 5-10% slower with it.
const BLUESTEIN_REGISTER_FLOOR: u32 = 128;
/// Threads per row for power-of-two Bluestein convolutions at most (see `design_around`).
const BLUESTEIN_MAX_THREADS: u32 = 256;
/// Threads per row from which the passes read and write global memory themselves: below, rows
/// are short and the staged, unrolled copy through shared memory coalesces better (1.2x to
/// 1.8x for N = 72 .. 184 with 8 to 12 threads per row).
const DIRECT_IO_MIN_THREADS: u32 = 16;
/// Keep blocks at or under this much shared memory unless one transform alone needs more, so
/// that several blocks share a multiprocessor.
const SHARED_BUDGET: u64 = 48 * 1024;

impl FftRecipe {
    /// Picks the algorithm and tuning for `problem` on a device with `limits`.
    pub fn design(problem: FftProblem, limits: DeviceLimits) -> Result<Self> {
        problem.validate()?;
        Self::design_around(problem, Core::design(Self::core_len(&problem), None), limits)
    }

    /// As [`FftRecipe::design`], with composite radices of at most `radix_cap` (2 to 16):
    /// smaller radices mean more passes but more threads per transform and fewer registers.
    pub fn design_with_radix_cap(problem: FftProblem, limits: DeviceLimits, radix_cap: usize) -> Result<Self> {
        problem.validate()?;
        let core = Core::design(Self::core_len(&problem), Some(radix_cap.max(2)));
        Self::design_around(problem, core, limits)
    }

    /// How a problem's rows map onto the complex core.
    fn packing_of(problem: &FftProblem) -> RealPacking {
        match problem.kind {
            FftKind::C2C => RealPacking::Complex,
            _ if problem.len % 2 == 0 => RealPacking::HalfLength,
            _ => RealPacking::Widened,
        }
    }

    /// Length of the complex transform the core computes for `problem`.
    pub fn core_len(problem: &FftProblem) -> usize {
        match Self::packing_of(problem) {
            RealPacking::HalfLength => problem.len / 2,
            _ => problem.len,
        }
    }

    /// The heuristic's tuning for a given core, which must compute a transform of length
    /// [`FftRecipe::core_len`].
    pub fn design_around(problem: FftProblem, core: Core, limits: DeviceLimits) -> Result<Self> {
        problem.validate()?;
        if core.len() != Self::core_len(&problem) {
            return Err(Error::invalid(format!(
                "a core of length {} does not fit a length-{} {} problem: it needs length {}",
                core.len(),
                problem.len,
                problem.kind,
                Self::core_len(&problem)
            )));
        }
        let packing = Self::packing_of(&problem);
        let bluestein = matches!(core, Core::Bluestein { .. });
        let max_radix = core.radices().iter().copied().max().unwrap_or(1);
        let one_butterfly_each = (core.region().div_ceil(max_radix) as u32).min(limits.max_threads);
        let mut threads_per_transform = one_butterfly_each;
        if bluestein && core.region().is_power_of_two() {
            // Two butterflies per thread and pass ran the 8192-point convolution 1.12x faster
            // than one with 512 threads (non-power-of-two convolutions ran slower so).
            threads_per_transform = threads_per_transform.min(BLUESTEIN_MAX_THREADS);
        }
        let region_bytes = core.region() as u64 * complex_bytes(problem.precision);
        let mut transforms = TARGET_THREADS_PER_BLOCK.div_ceil(threads_per_transform).max(1);
        while (transforms as usize) * core.region() < TARGET_VALUES_PER_BLOCK
            && 2 * transforms * threads_per_transform <= MAX_THREADS_PER_BLOCK
        {
            transforms *= 2;
        }
        transforms = transforms.min((limits.max_threads / threads_per_transform).max(1));
        while transforms > 1 && region_bytes * transforms as u64 > SHARED_BUDGET {
            transforms -= 1;
        }
        let mut recipe = FftRecipe {
            problem,
            packing,
            core: core.clone(),
            tuning: FftTuning {
                threads_per_transform,
                transforms_per_block: transforms,
                pad_shift: None,
                row_pad: 0,
                // Bluestein always reads and writes directly: it spares the longest trips
                // through shared memory (a one-pass core has one thread per row; N = 1 has no
                // pass at all).
                direct_io: bluestein || (threads_per_transform >= DIRECT_IO_MIN_THREADS && core.radices().len() >= 2),
                twiddles: TwiddleSource::TablePowers,
                min_blocks_per_sm: 1,
            },
        };
        // (Not with two butterflies per thread: the 8192-point convolution ran 1.66x slower so.)
        if bluestein
            && core.region() >= 2048
            && threads_per_transform == one_butterfly_each
            && 65536 / (2 * recipe.threads_per_block()) >= BLUESTEIN_REGISTER_FLOOR
        {
            recipe.tuning.min_blocks_per_sm = 2;
        }
        let recipe = recipe.with_least_conflicted_layout(limits);
        recipe.check(limits)?;
        Ok(recipe)
    }

    /// Rejects tunings the device cannot run.
    pub fn check(&self, limits: DeviceLimits) -> Result<()> {
        let t = &self.tuning;
        if t.threads_per_transform == 0 || t.transforms_per_block == 0 {
            return Err(Error::invalid(format!("FFT tuning needs at least one thread and one transform per block: {t:?}")));
        }
        if t.direct_io && self.core.radices().is_empty() {
            return Err(Error::invalid(format!(
                "direct_io reads and writes global memory in the core's passes; a length-{} core has none: plan it without direct_io",
                self.core.len()
            )));
        }
        if self.threads_per_block() > limits.max_threads {
            return Err(Error::Unsupported(format!(
                "the FFT plan needs {} threads per block; this device allows {}",
                self.threads_per_block(),
                limits.max_threads
            )));
        }
        if self.shared_bytes() > limits.shared_bytes {
            return Err(Error::Unsupported(format!(
                "a length-{} {} {} transform needs {} bytes of shared memory per block; this device allows {} \
                 (a GPU with more shared memory per block, or a shorter length, works)",
                self.problem.len,
                self.problem.precision,
                self.problem.kind,
                self.shared_bytes(),
                limits.shared_bytes
            )));
        }
        Ok(())
    }

    pub fn threads_per_block(&self) -> u32 {
        self.tuning.threads_per_transform * self.tuning.transforms_per_block
    }

    /// Distance between rows in shared memory, in complex values: the padded region plus the row padding.
    pub fn row_stride(&self) -> usize {
        pad(self.tuning.pad_shift, self.core.region() - 1) + 1 + self.tuning.row_pad as usize
    }

    /// Complex values of shared memory per block, padding included.
    pub fn shared_values(&self) -> usize {
        self.row_stride() * self.tuning.transforms_per_block as usize
    }

    pub fn shared_bytes(&self) -> u64 {
        self.shared_values() as u64 * complex_bytes(self.problem.precision)
    }

    /// Blocks in the launch.
    pub fn blocks(&self) -> usize {
        self.problem.batch.div_ceil(self.tuning.transforms_per_block as usize)
    }

    /// The kernel's name, saying what it computes: `fft_c2c_f32_n360_r15x12x2_t24x8`.
    pub fn kernel_name(&self) -> String {
        let p = &self.problem;
        let radices = self.core.radices().iter().map(|r| r.to_string()).collect::<Vec<_>>().join("x");
        let algo = match &self.core {
            Core::Stockham { .. } => format!("r{}", if radices.is_empty() { "1".into() } else { radices }),
            Core::Bluestein { conv_len, .. } => format!("bluestein{conv_len}_r{radices}"),
        };
        let packing = match self.packing {
            RealPacking::HalfLength => "_half",
            _ => "",
        };
        let place = if p.placement == super::problem::Placement::InPlace && p.kind != FftKind::C2C { "_inplace" } else { "" };
        let twiddles = match self.tuning.twiddles {
            TwiddleSource::Table => "_tt",
            TwiddleSource::TablePowers => "",
            TwiddleSource::Computed => "_tc",
        };
        let twiddles = format!("{twiddles}{}", if self.tuning.direct_io { "_d" } else { "" });
        let pad = format!("_p{}r{}", self.tuning.pad_shift.unwrap_or(0), self.tuning.row_pad);
        let pad = match self.tuning.launch_minimum() {
            None => pad,
            Some(m) => format!("{pad}_m{m}"),
        };
        format!(
            "fft_{}_{}_n{}{packing}{place}_{algo}_t{}x{}{pad}{twiddles}",
            p.kind, p.precision, p.len, self.tuning.threads_per_transform, self.tuning.transforms_per_block
        )
    }

    /// What the kernel computes and how, independent of the batch (the kernel's text, and so
    /// its cache entry, is shared by every batch size).
    pub fn describe_kernel(&self) -> String {
        format!(
            "{}: {:?} {:?}, {} threads x {} transforms per block, {} bytes shared",
            self.kernel_name(),
            self.packing,
            self.core,
            self.tuning.threads_per_transform,
            self.tuning.transforms_per_block,
            self.shared_bytes(),
        )
    }

    /// One line for logs: the kernel and the launch.
    pub fn describe(&self) -> String {
        format!("{} | batch {}, {} blocks", self.describe_kernel(), self.problem.batch, self.blocks())
    }

    /// Whether the core runs Bluestein's algorithm (a prime factor above MAX_PRIME_RADIX).
    pub fn uses_bluestein(&self) -> bool {
        matches!(self.core, Core::Bluestein { .. })
    }
}

/// Index i after intra-row padding: one spare slot per 2^shift values.
pub fn pad(shift: Option<u32>, i: usize) -> usize {
    shift.map_or(i, |s| i + (i >> s))
}

impl FftRecipe {
    /// The shared-memory layout (intra-row padding, row padding) with the fewest bank
    /// conflicts by [`FftRecipe::shared_wavefronts`], the smaller footprint on ties.
    fn with_least_conflicted_layout(self, limits: DeviceLimits) -> Self {
        let mut best: Option<(u64, usize, FftRecipe)> = None;
        for pad_shift in [None, Some(5), Some(4), Some(3), Some(2)] {
            for row_pad in 0..4 {
                let mut r = self.clone();
                r.tuning.pad_shift = pad_shift;
                r.tuning.row_pad = row_pad;
                if r.shared_bytes() > limits.shared_bytes.max(self.shared_bytes()) {
                    continue;
                }
                let cost = r.shared_wavefronts();
                if best.as_ref().is_none_or(|(c, v, _)| (cost, r.shared_values()) < (*c, *v)) {
                    best = Some((cost, r.shared_values(), r));
                }
            }
        }
        best.map_or(self, |b| b.2)
    }

    /// A model of shared-memory time: the wavefronts (bank-conflict-serialised transactions)
    /// of the first warp's accesses in the load, every Stockham pass and the store. A warp's
    /// access takes as many wavefronts as the most distinct 4-byte words any one of the 32
    /// banks must serve.
    pub fn shared_wavefronts(&self) -> u64 {
        let words = (complex_bytes(self.problem.precision) / 4) as usize;
        let w = self.tuning.threads_per_transform as usize;
        let threads = (self.threads_per_block() as usize).min(32);
        let stride = self.row_stride();
        let at = |row: usize, i: usize| row * stride + pad(self.tuning.pad_shift, i);
        let cost = |addrs: &[usize]| -> u64 {
            let mut banks: [Vec<usize>; 32] = Default::default();
            for &a in addrs {
                for k in 0..words {
                    let word = a * words + k;
                    let b = &mut banks[word % 32];
                    if !b.contains(&word) {
                        b.push(word);
                    }
                }
            }
            banks.iter().map(|b| b.len() as u64).max().unwrap_or(0)
        };
        let mut total = 0;
        // Load and store: flat loops over the block's rows.
        let len = self.core.region();
        let flat: Vec<usize> = (0..threads).map(|e| at(e / len, e % len)).collect();
        total += 2 * cost(&flat);
        // Each pass: loads at j + i*L/R, stores at (j - k)R + k + i*ns.
        let passes = match &self.core {
            Core::Bluestein { .. } => 2,
            Core::Stockham { .. } => 1,
        };
        let mut ns = 1;
        for &radix in self.core.radices() {
            let butterflies = len / radix;
            for i in 0..radix {
                let live = (0..threads).filter(|&tid| tid % w < butterflies);
                let loads: Vec<usize> = live.clone().map(|tid| at(tid / w, tid % w + i * butterflies)).collect();
                let stores: Vec<usize> = live
                    .map(|tid| {
                        let j = tid % w;
                        let k = j % ns;
                        at(tid / w, (j - k) * radix + k + i * ns)
                    })
                    .collect();
                total += passes * (cost(&loads) + cost(&stores));
            }
            ns *= radix;
        }
        total
    }
}

/// Bytes of one complex value of a precision.
pub fn complex_bytes(p: Precision) -> u64 {
    match p {
        Precision::F32 => 8,
        Precision::F64 => 16,
    }
}
