//! A four-step split in one launch: a thread-block cluster (compute capability 9.0: blocks
//! that are scheduled together and read each other's shared memory) holds one transform of
//! N = N1 N2 points, so its two passes meet in shared memory instead of global memory.
//!
//! Block c of a cluster of C:
//! 1. pass A: reads rows n1 in [c m, (c+1) m) of the split (m = N1/C; value n2 of row n1 is
//!    x[n1 + N1 n2], so the block's rows are neighbours in memory and its reads coalesce),
//!    and transforms them over n2, as a strided pass's block does;
//! 2. cluster barrier; then gathers the values of its pass-B rows k2 in [c p, (c+1) p)
//!    (p = N2/C) from every block's shared memory: value n1 of row k2 is pass A's value k2 of
//!    row n1, in block n1 / m, times the four-step twiddle e^{-2 pi i n1 k2/N};
//! 3. cluster barrier (no block overwrites what another may still read); then transforms
//!    its rows over n1 and writes X[k2 + N2 k1], as pass B's block does (runs of p values).
//!
//! Each value crosses global memory once each way: one pass instead of two; but (C-1)/C of
//! them also cross between multiprocessors, and that costs about as much. Measured on an H200
//! (seventeenth session, docs/BENCHMARKS.md; `bench fft --suite large-1d`, fractions of copy,
//! two passes 0.454 at 2^15 and 2^16, 0.437 at 2^17):
//!
//! | f32 points | C = 2 | C = 4 | C = 8 |
//! | --- | --- | --- | --- |
//! | 2^15 | 0.484 | 0.384 | 0.417 |
//! | 2^16 | - | 0.410 | 0.384 |
//! | 2^17 | - | - | 0.357 |
//!
//! (f64 2^14: 0.353, 0.460, 0.489 against 0.456.) Only the fewest blocks, where one
//! transform's values fit two blocks, beat the two passes, so the planner asks for clusters
//! only there (`CLUSTER_MAX_BYTES`). The kernel is codegen/cluster.rs. OpenCL has no
//! clusters: there the cluster is one work-group of C times the threads and shared memory
//! (PoCL allows 4096 threads and 512 KiB), so the same kernel text is tested on the CPU.

use super::factor::gcd;
use super::problem::Precision;
use super::recipe::{complex_bytes, DeviceLimits, FftRecipe};
use super::transform_core::Core;
use super::strided::{StridedIo, Values};
use crate::error::{Error, Result};
use crate::Backend;

/// Most blocks a cluster may have without the non-portable opt-in.
pub const PORTABLE_CLUSTER_BLOCKS: u32 = 8;

/// Fewest bytes of neighbouring rows a block reads or writes together: a 128-byte line.
const CLUSTER_RUN_BYTES: u64 = 128;

/// The largest f32 transform the planner runs across a cluster, in bytes: 2^15 points, the
/// most two blocks hold (see the module's text; f64 clusters measured no better than two
/// passes but for 2^14 points across 8 blocks, 1.07x, not taken).
pub const CLUSTER_MAX_BYTES: usize = 256 << 10;

/// Threads a multiprocessor's resident cluster blocks aim for together: a launch bound of
/// b blocks then leaves each thread 65536 / 1024 = 64 registers or more.
const RESIDENT_THREADS: usize = 1024;

/// Shared memory the driver keeps per block (1 KiB on compute capability 9.0), beside the
/// kernel's; a multiprocessor has the most a block may take plus one such reserve.
pub(crate) const BLOCK_RESERVED_BYTES: u64 = 1024;

/// Whether and how the device runs clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClusterLimits {
    /// Most blocks in a cluster; 1: no clusters.
    pub max_blocks: u32,
    /// The cluster is one block of all its blocks' threads and shared memory (OpenCL), whose
    /// limits the block's then bound together.
    pub emulated: bool,
}

impl ClusterLimits {
    pub const NONE: ClusterLimits = ClusterLimits { max_blocks: 1, emulated: false };
    pub const HOPPER: ClusterLimits = ClusterLimits { max_blocks: PORTABLE_CLUSTER_BLOCKS, emulated: false };
    pub const EMULATED: ClusterLimits = ClusterLimits { max_blocks: PORTABLE_CLUSTER_BLOCKS, emulated: true };

    /// A device's: CUDA's from compute capability 9.0 on, OpenCL's emulated.
    /// `COALESCE_FFT_CLUSTER_BLOCKS` caps the blocks (1 plans without clusters: for A/B runs).
    pub fn of(backend: Backend, compute_capability: Option<(u32, u32)>) -> ClusterLimits {
        let limits = match (backend, compute_capability) {
            (Backend::Cuda, Some((major, _))) if major >= 9 => Self::HOPPER,
            (Backend::Cuda, _) => Self::NONE,
            (Backend::OpenCl, _) => Self::EMULATED,
        };
        limits.capped_by_env()
    }

    fn capped_by_env(self) -> ClusterLimits {
        match std::env::var("COALESCE_FFT_CLUSTER_BLOCKS").ok().and_then(|v| v.parse::<u32>().ok()) {
            Some(cap) => ClusterLimits { max_blocks: self.max_blocks.min(cap.max(1)), ..self },
            None => self,
        }
    }
}

/// The pass A that a recipe (its pass B) runs before itself in the same launch.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClusterSplit {
    /// Blocks in a cluster: C, one transform's.
    pub blocks: u32,
    /// Pass A: rows over n2, m of them a block, the four-step twiddle on its values.
    pub first: FftRecipe,
}

impl ClusterSplit {
    /// Rows of pass A (m) and of pass B (p) a block holds.
    pub fn rows(&self, second: &FftRecipe) -> (usize, usize) {
        (self.first.tuning.transforms_per_block as usize, second.tuning.transforms_per_block as usize)
    }

    /// Distance between pass A's rows in a block's shared memory: rows one after another
    /// (not interleaved as a strided pass's), n2 + 1 apart, so that pass B's reads (one value
    /// of neighbouring rows k2) are neighbours, and pass A's threads (neighbouring rows n1)
    /// touch distinct banks (the odd distance).
    pub fn first_row_stride(&self) -> usize {
        self.first.problem.len + 1
    }

    /// Complex values of shared memory pass A's rows take.
    pub fn first_values(&self) -> usize {
        self.first.tuning.transforms_per_block as usize * self.first_row_stride()
    }

    /// The columns P of the packed half spectrum pass B writes, where it writes one (R2C's
    /// real axis, as the complex axis of half its length). Block `rank` of a cluster of two
    /// holds half of them, each beside its mirror column (codegen/packed.rs,
    /// `cluster_packed_functions`), so that the separation of the even and odd reals'
    /// spectra stays within a block. (C2R's pass A, which would join them as it reads them,
    /// is not run across a cluster: see `Planner::cluster` in nd_recipe.rs.)
    pub fn packed_columns(second: &FftRecipe) -> Option<usize> {
        let io = second.io.as_ref()?;
        match &io.output_values {
            Values::Packed(p) => Some(p.columns(&io.batch).unwrap_or(0)),
            _ => None,
        }
    }

    /// For kernel names: the blocks, and pass A's layout.
    pub fn tag(&self) -> String {
        format!("_cluster{}_{}", self.blocks, self.first.io.as_ref().map_or(String::new(), |io| io.tag()))
    }

    /// Rejects splits the device or the kernel cannot run.
    pub fn check(&self, second: &FftRecipe, limits: DeviceLimits) -> Result<()> {
        let (first, c) = (&self.first, self.blocks as usize);
        let (m, p) = self.rows(second);
        let (n1, n2) = (second.problem.len, first.problem.len);
        let twiddled = first.io.as_ref().and_then(|io| io.twiddle).is_some_and(|t| t.len == n1 * n2);
        if c < 2 || self.blocks > limits.clusters.max_blocks || m * c != n1 || p * c != n2 || !twiddled || second.io.is_none() {
            return Err(Error::Unsupported(format!(
                "a cluster of {} blocks (this device allows {}) holds one transform of {n1} x {n2} points: {m} rows of pass A and {p} of pass B a block, pass A twiddled",
                self.blocks, limits.clusters.max_blocks
            )));
        }
        if first.threads_per_block() != second.threads_per_block() || first.problem.precision != second.problem.precision {
            return Err(Error::invalid(format!("a cluster's passes run on the same threads: {} and {}", first.describe_kernel(), second.describe_kernel())));
        }
        // A packed half spectrum only as pass B's output, half its columns a block (an
        // even count of them: each beside its mirror image).
        let packed_elsewhere = first.io.as_ref().is_some_and(|io| io.packed().is_some()) || second.io.as_ref().is_some_and(|io| matches!(io.input_values, Values::Packed(_)));
        let packed_fits = Self::packed_columns(second).is_none_or(|columns| c == 2 && columns % 4 == 0 && p * 2 == columns);
        if packed_elsewhere || !packed_fits {
            return Err(Error::Unsupported(format!(
                "a packed real side across a cluster: R2C's pass B only, across two blocks, half its columns (a multiple of 4) a block: {}",
                second.describe_kernel()
            )));
        }
        first.check(limits)?;
        let stockham = |r: &FftRecipe| matches!(r.core, Core::Stockham { .. }) && !r.tuning.ping_pong && !r.tuning.direct_io;
        if !stockham(first) || !stockham(second) {
            return Err(Error::invalid(format!("a cluster's passes are Stockham rows in place, staged through shared memory: {}", second.describe_kernel())));
        }
        if limits.clusters.emulated {
            let (threads, bytes) = (second.threads_per_block() as u64 * c as u64, second.shared_bytes() * c as u64);
            if threads > limits.max_threads as u64 || bytes > limits.shared_bytes {
                return Err(Error::Unsupported(format!(
                    "an emulated cluster (one work-group) of {c} blocks needs {threads} threads and {bytes} bytes of shared memory; this device allows {} and {}",
                    limits.max_threads, limits.shared_bytes
                )));
            }
        }
        Ok(())
    }
}

impl FftRecipe {
    /// One launch for a four-step split of an axis of N = n1 n2 points whose values lie
    /// contiguous (1D rows, or the last axis of an array): pass A (`first`, over n2 points,
    /// rows n1 its fastest batch dimension, twiddled) and pass B (`second`, over n1 points,
    /// rows k2 its fastest batch dimension), across a cluster of C blocks (see the module's
    /// text). The fewest blocks (at least two) whose rows fit shared memory, each pass's
    /// rows in runs of at least 128 bytes: fewer blocks read fewer values from their peers
    /// (see the module's text for what was measured).
    pub fn design_cluster(n2: usize, first: StridedIo, n1: usize, second: StridedIo, precision: Precision, limits: DeviceLimits) -> Result<FftRecipe> {
        let run = (CLUSTER_RUN_BYTES / complex_bytes(precision)) as usize;
        let mut refusal = None;
        for c in (2..=limits.clusters.max_blocks as usize).filter(|c| c.is_power_of_two()) {
            let (m, p) = (n1 / c, n2 / c);
            if m * c != n1 || p * c != n2 || m < run || p < run {
                continue;
            }
            match Self::cluster_with(c, (n2, m, first.clone()), (n1, p, second.clone()), precision, limits) {
                Ok(r) => return Ok(r),
                Err(e) => refusal = Some(e),
            }
        }
        Err(refusal.unwrap_or_else(|| Error::Unsupported(format!("no cluster of up to {} blocks splits {n1} x {n2} points into 128-byte runs", limits.clusters.max_blocks))))
    }

    /// The cluster of `c` blocks: each pass a strided pass of `rows` rows a block. Blocks
    /// overlap one another's loads, passes and stores on a multiprocessor, so as many as its
    /// shared memory holds are asked for in the launch bounds, with threads enough for at most
    /// RESIDENT_THREADS among them (a multiple of both passes' rows by a power of two; idle
    /// ones where a pass has fewer butterflies): with one 512-thread block of 104 registers a multiprocessor, 2^16
    /// points ran at 0.31 of copy on an H200, against 0.45 for the two passes apart.
    fn cluster_with(c: usize, (n2, m, first): (usize, usize, StridedIo), (n1, p, second): (usize, usize, StridedIo), precision: Precision, limits: DeviceLimits) -> Result<FftRecipe> {
        let mut a = FftRecipe::design_strided(n2, precision, first, limits)?;
        let mut b = FftRecipe::design_strided(n1, precision, second, limits)?;
        // Pass A's tables follow pass B's in one buffer, wherever those end: Rader's index
        // tables, read in 16-byte loads, could start off 16 bytes there.
        if a.uses_rader() || b.uses_rader() {
            return Err(Error::Unsupported(format!("a cluster of {n2}- and {n1}-point passes: Rader's algorithm runs in separate passes")));
        }
        a.tuning.transforms_per_block = m as u32;
        b.tuning.transforms_per_block = p as u32;
        // Pass A's twiddle rides on pass B's reads from its peers (`SH_PEER`, codegen/cluster.rs).
        a.tuning.grouped_step_twiddles = false;
        b.tuning.grouped_step_twiddles = false;
        // Staged both ways: pass B reads its values from its peers' shared memory.
        a.tuning.direct_io = false;
        b.tuning.direct_io = false;
        let bytes = complex_bytes(precision);
        let block_bytes = (m * (n2 + 1)).max(b.buffer_values()) as u64 * bytes;
        let resident = limits.blocks_by_shared_memory(block_bytes).clamp(1, 8) as usize;
        let lcm = m / gcd(m, p) * p;
        let threads = lcm * prev_power_of_two((RESIDENT_THREADS / resident / lcm).max(1));
        a.tuning.threads_per_transform = (threads / m) as u32;
        b.tuning.threads_per_transform = (threads / p) as u32;
        b.tuning.min_blocks_per_sm = resident as u32;
        b.cluster = Some(Box::new(ClusterSplit { blocks: c as u32, first: a }));
        b.check(limits)?;
        Ok(b)
    }
}

fn prev_power_of_two(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}

