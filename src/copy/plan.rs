//! Planning a copy: from the problem (element size, count, offsets, stride) to one or two
//! word-copy passes, each with its tunable choices spelled out.

use std::sync::Arc;

use crate::device::{Device, Grid, Program};
use crate::error::{byte_size, Error, Result};

/// What to copy: `count` elements of `elem_size` bytes, element `i` going from
/// `src[src_offset + i * src_stride]` to `dst[dst_offset + i]` (offsets and stride in elements).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CopyProblem {
    pub elem_size: usize,
    pub count: usize,
    pub src_offset: usize,
    pub src_stride: usize,
    pub dst_offset: usize,
}

impl CopyProblem {
    /// A contiguous copy of `count` elements of type `T`.
    pub fn contiguous<T>(count: usize) -> Self {
        CopyProblem { elem_size: std::mem::size_of::<T>(), count, src_offset: 0, src_stride: 1, dst_offset: 0 }
    }
    pub fn with_src_offset(mut self, offset: usize) -> Self {
        self.src_offset = offset;
        self
    }
    pub fn with_dst_offset(mut self, offset: usize) -> Self {
        self.dst_offset = offset;
        self
    }
    /// Takes every `stride`-th element of the source (a gather with a constant stride).
    pub fn with_src_stride(mut self, stride: usize) -> Self {
        self.src_stride = stride;
        self
    }

    /// Smallest source length, in elements, that holds every element read.
    pub fn src_len_needed(&self) -> Result<usize> {
        if self.count == 0 {
            return Ok(0);
        }
        (self.count - 1)
            .checked_mul(self.src_stride)
            .and_then(|x| x.checked_add(self.src_offset))
            .and_then(|x| x.checked_add(1))
            .ok_or_else(|| Error::invalid("source offset + (count - 1) * stride overflows"))
    }

    /// Smallest destination length, in elements.
    pub fn dst_len_needed(&self) -> Result<usize> {
        self.dst_offset.checked_add(self.count).ok_or_else(|| Error::invalid("destination offset + count overflows"))
    }
}

/// The tunable choices of a copy kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CopyTuning {
    /// Threads per block.
    pub threads: u32,
    /// Bytes each thread loads before it stores, per step: the kernel unrolls
    /// `bytes_per_thread / word size` loads (at least one).
    pub bytes_per_thread: u32,
    /// Blocks per multiprocessor in the grid (each loops over chunks); 0 launches one block
    /// per chunk, without looping.
    pub blocks_per_sm: u32,
    /// Evict-first loads and stores (CUDA `__ldcs`/`__stcs`): data read once skips L2 residency.
    pub streaming: bool,
}

impl CopyTuning {
    /// The default, chosen by the tuning sweep on an H200 (docs/BENCHMARKS.md): one 16-byte
    /// word per thread and one block per chunk reach the driver's copy; more bytes per thread
    /// or a looping grid of fewer blocks lose 2-8%.
    pub fn for_device(_device: &Device) -> Self {
        CopyTuning { threads: 256, bytes_per_thread: 16, blocks_per_sm: 0, streaming: false }
    }

    /// Loads per thread for words of `word_bytes`.
    pub fn unroll_for(&self, word_bytes: usize) -> u32 {
        (self.bytes_per_thread / word_bytes as u32).max(1)
    }
}

/// One pass of a copy plan: what the kernel is (compile-time choices).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CopyKernelSpec {
    /// Bytes moved by one load/store: 1, 2, 4, 8 or 16.
    pub word_bytes: usize,
    /// `None`: contiguous words. `Some(k)`: a gather of units of `k` words at a constant stride.
    pub words_per_unit: Option<usize>,
    /// Words each thread loads before it stores.
    pub unroll: u32,
    pub tuning: CopyTuning,
}

/// One launch of a pass, with its run-time arguments counted in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CopyPass {
    pub spec: CopyKernelSpec,
    pub src_off: u64,
    pub dst_off: u64,
    /// Stride between units, in words (gathers only).
    pub stride: u64,
    /// Words to move.
    pub n: u64,
}

/// A designed copy: the passes, before any kernel is compiled. Plain data: printable, comparable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyRecipe {
    pub problem: CopyProblem,
    pub passes: Vec<CopyPass>,
}

/// Largest power of two, at most 16, dividing `x` (16 for 0).
fn pow2_divisor(x: usize) -> usize {
    if x == 0 { 16 } else { (1usize << x.trailing_zeros()).min(16) }
}

impl CopyRecipe {
    /// Designs the passes for a problem.
    pub fn design(problem: CopyProblem, tuning: CopyTuning) -> Result<Self> {
        let p = problem;
        if p.elem_size == 0 {
            return Err(Error::invalid("element size 0: copies move elements of at least one byte"));
        }
        if p.src_stride == 0 && p.count > 1 {
            return Err(Error::invalid("source stride 0 would read one element many times: use a stride of at least 1"));
        }
        p.src_len_needed()?;
        p.dst_len_needed()?;
        let total = byte_size(p.count, p.elem_size)?;
        let mut passes = Vec::new();
        if p.count == 0 {
            return Ok(CopyRecipe { problem, passes });
        }
        if p.src_stride == 1 {
            // Contiguous: copy bytes in the widest word both offsets allow, then the byte tail.
            let so = byte_size(p.src_offset, p.elem_size)?;
            let doff = byte_size(p.dst_offset, p.elem_size)?;
            let w = pow2_divisor(so).min(pow2_divisor(doff));
            let n = total / w;
            if n > 0 {
                passes.push(CopyPass {
                    spec: CopyKernelSpec { word_bytes: w, words_per_unit: None, unroll: tuning.unroll_for(w), tuning },
                    src_off: (so / w) as u64,
                    dst_off: (doff / w) as u64,
                    stride: 1,
                    n: n as u64,
                });
            }
            let tail = total - n * w;
            if tail > 0 {
                passes.push(CopyPass {
                    spec: CopyKernelSpec { word_bytes: 1, words_per_unit: None, unroll: tuning.unroll_for(1), tuning },
                    src_off: (so + n * w) as u64,
                    dst_off: (doff + n * w) as u64,
                    stride: 1,
                    n: tail as u64,
                });
            }
        } else {
            // Gather: each element is k words of the widest power of two dividing its size.
            let w = pow2_divisor(p.elem_size);
            let k = p.elem_size / w;
            passes.push(CopyPass {
                spec: CopyKernelSpec { word_bytes: w, words_per_unit: Some(k), unroll: tuning.unroll_for(w), tuning },
                src_off: (p.src_offset * k) as u64,
                dst_off: (p.dst_offset * k) as u64,
                stride: (p.src_stride * k) as u64,
                n: (p.count * k) as u64,
            });
        }
        Ok(CopyRecipe { problem, passes })
    }
}

/// A built copy: each pass's compiled kernel and launch grid. Execute many times.
pub struct CopyPlan {
    pub(crate) device: Device,
    pub(crate) recipe: CopyRecipe,
    pub(crate) built: Vec<(Arc<Program>, String, Grid)>,
}

impl CopyPlan {
    /// Designs and builds a copy for `device` with its default tuning.
    pub fn new(device: &Device, problem: CopyProblem) -> Result<Self> {
        Self::with_tuning(device, problem, CopyTuning::for_device(device))
    }

    /// Designs and builds a copy with explicit tuning (benchmarks sweep these).
    pub fn with_tuning(device: &Device, problem: CopyProblem, tuning: CopyTuning) -> Result<Self> {
        if tuning.threads == 0 || tuning.threads > device.info().max_threads_per_block {
            return Err(Error::invalid(format!(
                "copy tuning needs 1..={} threads per block, got {}",
                device.info().max_threads_per_block,
                tuning.threads
            )));
        }
        let recipe = CopyRecipe::design(problem, tuning)?;
        let mut built = Vec::new();
        for pass in &recipe.passes {
            let source = pass.spec.source();
            let program = device.build(&source)?;
            built.push((program, source.name, grid_for(device, pass)));
        }
        Ok(CopyPlan { device: device.clone(), recipe, built })
    }

    pub fn recipe(&self) -> &CopyRecipe {
        &self.recipe
    }
}

/// Blocks for a pass: one per chunk, or a fixed number per multiprocessor that loop.
fn grid_for(device: &Device, pass: &CopyPass) -> Grid {
    let t = pass.spec.tuning;
    let chunk = t.threads as u64 * pass.spec.unroll as u64;
    let chunks = pass.n.div_ceil(chunk);
    let cap = if t.blocks_per_sm == 0 {
        i32::MAX as u64
    } else {
        (device.info().multiprocessors.max(1) as u64) * t.blocks_per_sm as u64
    };
    Grid::linear(chunks.min(cap).max(1) as u32, t.threads)
}
