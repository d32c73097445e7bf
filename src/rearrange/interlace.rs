//! Interlace k arrays into one (structure of arrays to array of structures) and back, and the
//! complex split / join that is its k = 2 case. Two methods: vector (each thread moves whole
//! groups, `interlace_vector.rs`) where a group is a power of two of bytes, tiled through
//! shared memory (`interlace_tiled.rs`) for every other k and element size.

use std::sync::Arc;

use super::interlace_tiled::{TiledInterlace, TILED_THREADS};
use super::interlace_vector::{VectorInterlace, VECTOR_THREADS};
use super::permute::{blocks, check_len};
use crate::device::{Arg, Device, DeviceBuffer, Grid, Program};
use crate::element::{Element, ScalarKind};
use crate::error::{Error, Result};
use crate::kernel::prelude::word_type;
use crate::kernel::KernelSource;

/// Most arrays one interlace takes.
pub const MAX_ARRAYS: usize = 16;
/// Bytes of one block's tile in the tiled method, before padding, unless the problem says
/// otherwise. 8 KiB beat 16 KiB in `bench permute` on an H200 (lowest over k = 2..9 and both
/// directions 0.786 against 0.718; docs/BENCHMARKS.md).
pub const INTERLACE_TILE_BYTES: usize = 8192;

/// How the kernels move an interlace: the one tunable choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InterlaceMethod {
    /// Each thread moves whole groups (one element of every array), the interlaced array as
    /// 8- or 16-byte vectors. Needs elements of 4 bytes or more and groups of a power of two
    /// of bytes (k = 2, 4, 8, 16 arrays of f32, f64 or complex).
    Vector,
    /// Tiles of about `tile_bytes` bytes (all arrays) through shared memory: any k, any element.
    Tiled { tile_bytes: usize },
}

/// `arrays` arrays of `len` elements of `elem_size` bytes each, and their interlaced form:
/// `whole[i * arrays + j] = part_j[i]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InterlaceProblem {
    pub elem_size: usize,
    pub arrays: usize,
    pub len: usize,
    pub method: InterlaceMethod,
}

impl InterlaceProblem {
    /// The problem with the default method: vector where it applies, else 8 KiB tiles.
    pub fn new(kind: ScalarKind, arrays: usize, len: usize) -> Self {
        let method = if VectorInterlace::applies(kind.size(), arrays) {
            InterlaceMethod::Vector
        } else {
            InterlaceMethod::Tiled { tile_bytes: INTERLACE_TILE_BYTES }
        };
        InterlaceProblem { elem_size: kind.size(), arrays, len, method }
    }

    /// The same problem moved by `method` (benchmarks compare them).
    pub fn with_method(mut self, method: InterlaceMethod) -> Self {
        self.method = method;
        self
    }

    fn check(&self) -> Result<()> {
        if !(2..=MAX_ARRAYS).contains(&self.arrays) {
            return Err(Error::invalid(format!("interlace takes 2 to {MAX_ARRAYS} arrays, got {}", self.arrays)));
        }
        if word_type(self.elem_size).is_none() {
            return Err(Error::invalid(format!("interlace moves elements of 1, 2, 4, 8 or 16 bytes, not {}", self.elem_size)));
        }
        match self.method {
            InterlaceMethod::Tiled { tile_bytes } if !(1024..=32768).contains(&tile_bytes) => {
                return Err(Error::invalid(format!("interlace tiles take 1024 to 32768 bytes, not {tile_bytes}")));
            }
            InterlaceMethod::Vector if !VectorInterlace::applies(self.elem_size, self.arrays) => {
                return Err(Error::invalid(format!(
                    "the vector interlace needs elements of 4 bytes or more and k x element bytes a power of two, not {} x {}: use the tiled method",
                    self.arrays, self.elem_size
                )));
            }
            _ => {}
        }
        self.len.checked_mul(self.arrays).and_then(|x| x.checked_mul(self.elem_size)).ok_or(Error::SizeOverflow {
            count: self.len as u128 * self.arrays as u128,
            elem_size: self.elem_size,
        })?;
        Ok(())
    }

    /// The program (interlace and de-interlace kernels) and the launch grid.
    fn kernels(&self) -> Result<(KernelSource, Grid)> {
        let (source, per_block, threads) = match self.method {
            InterlaceMethod::Vector => {
                let v = VectorInterlace { elem_size: self.elem_size, arrays: self.arrays };
                (v.source(), v.groups_per_block(), VECTOR_THREADS)
            }
            InterlaceMethod::Tiled { tile_bytes } => {
                let t = TiledInterlace { elem_size: self.elem_size, arrays: self.arrays, tile_bytes };
                (t.source(), t.tile(), TILED_THREADS)
            }
        };
        Ok((source, Grid::linear(blocks(self.len.div_ceil(per_block) as u64)?, threads)))
    }
}

/// `leaf(i)` for the value `i` of the kernel variable `var` in `lo..hi`, by a balanced tree of
/// selects (`(j < 2 ? (j < 1 ? p0 : p1) : ...)`): how a kernel picks one of the k array pointers.
pub(super) fn select_tree(var: &str, lo: usize, hi: usize, leaf: &dyn Fn(usize) -> String) -> String {
    if hi - lo == 1 {
        return leaf(lo);
    }
    let mid = (lo + hi) / 2;
    format!("({var} < {mid} ? {} : {})", select_tree(var, lo, mid, leaf), select_tree(var, mid, hi, leaf))
}

/// Parameters every interlace kernel takes: `whole` (as `whole_type`), the k arrays (as
/// `part_type`), the array length. The interlacing kernel writes `whole`, the other the parts.
pub(super) fn kernel_params(whole_type: &str, part_type: &str, k: usize, interlacing: bool) -> String {
    let (whole_const, part_const) = if interlacing { ("", "const ") } else { ("const ", "") };
    let parts: Vec<String> = (0..k).map(|j| format!("{part_const}GLOBAL {part_type}* RESTRICT p{j}")).collect();
    format!("{whole_const}GLOBAL {whole_type}* RESTRICT whole, {}, const u64 n", parts.join(", "))
}

/// A built interlace: both directions compiled once.
pub struct InterlacePlan {
    device: Device,
    problem: InterlaceProblem,
    /// The program and its interlacing and de-interlacing kernels' names; none for empty arrays.
    kernels: Option<(Arc<Program>, String, String)>,
    grid: Grid,
}

impl InterlacePlan {
    pub fn new(device: &Device, problem: InterlaceProblem) -> Result<Self> {
        problem.check()?;
        let (source, grid) = problem.kernels()?;
        let kernels = if problem.len == 0 {
            None
        } else {
            let [join, split] = <[String; 2]>::try_from(source.entry_points.clone()).expect("interlace programs define two kernels");
            Some((device.build(&source)?, join, split))
        };
        Ok(InterlacePlan { device: device.clone(), problem, kernels, grid })
    }

    pub fn problem(&self) -> &InterlaceProblem {
        &self.problem
    }

    /// `whole[i * k + j] = parts[j][i]`. `parts` hold elements of the problem's size;
    /// `whole` may be of any type whose size divides `k` elements (complex for k = 2 floats).
    pub fn interlace<P: Element, W: Element>(&self, parts: &[&DeviceBuffer<P>], whole: &mut DeviceBuffer<W>) -> Result<()> {
        self.check_buffers::<P, W>(parts.iter().map(|b| b.len()), whole.size_bytes())?;
        let mut args = vec![Arg::from(&*whole)];
        args.extend(parts.iter().map(|b| Arg::from(*b)));
        self.run(true, args)
    }

    /// `parts[j][i] = whole[i * k + j]`.
    pub fn deinterlace<P: Element, W: Element>(&self, whole: &DeviceBuffer<W>, parts: &mut [&mut DeviceBuffer<P>]) -> Result<()> {
        self.check_buffers::<P, W>(parts.iter().map(|b| b.len()), whole.size_bytes())?;
        let mut args = vec![Arg::from(whole)];
        args.extend(parts.iter().map(|b| Arg::from(&**b)));
        self.run(false, args)
    }

    fn run(&self, interlacing: bool, mut args: Vec<Arg<'_>>) -> Result<()> {
        let Some((program, join, split)) = &self.kernels else { return Ok(()) };
        args.push((self.problem.len as u64).into());
        self.device.launch(program.kernel(if interlacing { join } else { split })?, self.grid, &args)
    }

    fn check_buffers<P: Element, W: Element>(&self, parts: impl ExactSizeIterator<Item = usize>, whole_bytes: usize) -> Result<()> {
        let p = &self.problem;
        if std::mem::size_of::<P>() != p.elem_size {
            return Err(Error::invalid(format!(
                "the plan interlaces {}-byte elements, but the arrays hold {} ({} bytes)",
                p.elem_size,
                P::KIND,
                std::mem::size_of::<P>()
            )));
        }
        if parts.len() != p.arrays {
            return Err(Error::invalid(format!("the plan interlaces {} arrays, got {}", p.arrays, parts.len())));
        }
        for (j, len) in parts.enumerate() {
            check_len(&format!("interlace array {j}"), p.len, len)?;
        }
        let unit = std::mem::size_of::<W>();
        check_len(&format!("interlaced array ({} elements)", W::KIND), p.len * p.arrays * p.elem_size / unit, whole_bytes / unit)?;
        if !(p.arrays * p.elem_size).is_multiple_of(unit) {
            return Err(Error::invalid(format!(
                "an interlaced group of {} x {} bytes is not a whole number of {} elements: use a smaller element type",
                p.arrays,
                p.elem_size,
                W::KIND
            )));
        }
        Ok(())
    }
}
