//! Interlace k arrays into one (structure of arrays to array of structures) and back, and the
//! complex split / join that is its k = 2 case.
//!
//! A block takes `TI` elements of each array: it reads them array by array (coalesced),
//! parks them in shared memory, and writes the `k * TI` interlaced elements in order
//! (coalesced); de-interlacing runs the same tile the other way.

use std::sync::Arc;

use super::permute::{blocks, check_len};
use crate::device::{Arg, Device, DeviceBuffer, Grid, Program};
use crate::element::{Element, ScalarKind};
use crate::error::{Error, Result};
use crate::kernel::prelude::word_type;
use crate::kernel::{KernelSource, SourceWriter};

/// Most arrays one interlace takes.
pub const MAX_ARRAYS: usize = 16;
const THREADS: u32 = 256;
/// Bytes of one block's tile, before padding, unless the problem says otherwise. 8 KiB beat
/// 16 KiB in `bench permute` on an H200 (lowest over k = 2..9 and both directions 0.786
/// against 0.718; docs/BENCHMARKS.md).
pub const INTERLACE_TILE_BYTES: usize = 8192;

/// `arrays` arrays of `len` elements of `elem_size` bytes each, and their interlaced form:
/// `whole[i * arrays + j] = part_j[i]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InterlaceProblem {
    pub elem_size: usize,
    pub arrays: usize,
    pub len: usize,
    /// Bytes of one block's tile (all arrays), before padding: the one tunable choice.
    pub tile_bytes: usize,
}

impl InterlaceProblem {
    pub fn new(kind: ScalarKind, arrays: usize, len: usize) -> Self {
        InterlaceProblem { elem_size: kind.size(), arrays, len, tile_bytes: INTERLACE_TILE_BYTES }
    }

    /// The same problem with tiles of about `bytes` bytes (benchmarks compare these).
    pub fn with_tile_bytes(mut self, bytes: usize) -> Self {
        self.tile_bytes = bytes;
        self
    }

    fn check(&self) -> Result<()> {
        if !(2..=MAX_ARRAYS).contains(&self.arrays) {
            return Err(Error::invalid(format!("interlace takes 2 to {MAX_ARRAYS} arrays, got {}", self.arrays)));
        }
        if !(1024..=32768).contains(&self.tile_bytes) {
            return Err(Error::invalid(format!("interlace tiles take 1024 to 32768 bytes, not {}", self.tile_bytes)));
        }
        if word_type(self.elem_size).is_none() {
            return Err(Error::invalid(format!("interlace moves elements of 1, 2, 4, 8 or 16 bytes, not {}", self.elem_size)));
        }
        self.len.checked_mul(self.arrays).and_then(|x| x.checked_mul(self.elem_size)).ok_or(Error::SizeOverflow {
            count: self.len as u64 * self.arrays as u64,
            elem_size: self.elem_size,
        })?;
        Ok(())
    }

    /// Elements of each array in one block's tile: a power of two near `tile_bytes`.
    fn tile(&self) -> usize {
        let fit = self.tile_bytes / (self.arrays * self.elem_size);
        (1usize << fit.max(1).ilog2()).clamp(32, 1024)
    }

    /// Distance in shared memory between the tile's rows (one per array). Interlaced order
    /// visits the rows in turn, so a warp touches `32 / k` elements of each row: a row stride
    /// of `ceil(slots / k)` modulo the bank slots puts them in distinct banks.
    fn row_stride(&self) -> usize {
        let slots = 32 / (self.elem_size / 4).max(1);
        let want = slots.div_ceil(self.arrays) % slots;
        let tile = self.tile();
        tile + (want + slots - tile % slots) % slots
    }
}

/// The two kernels of an interlace problem, in one program.
fn interlace_source(p: &InterlaceProblem) -> KernelSource {
    let (e, k) = (p.elem_size, p.arrays);
    let word = word_type(e).expect("checked");
    let ti = p.tile();
    let stride = p.row_stride();
    let total = ti * k;
    let steps = total.div_ceil(THREADS as usize);
    let base = format!("e{e}_k{k}_t{ti}");
    let (join, split) = (format!("interlace_{base}"), format!("deinterlace_{base}"));
    let mut w = SourceWriter::new();
    w.line(format!("typedef {word} word;"));
    w.comment(&[
        &format!("{join} / {split}: {k} arrays of {e}-byte elements and their interlaced form,"),
        &format!("whole[i * {k} + j] = part_j[i]. Block g moves elements g * {ti} .. + {ti} of every array through"),
        &format!("shared memory, row j (array j) at j * {stride}: the padding keeps a warp's {k} rows in distinct banks."),
    ]);
    // Array j of the k, chosen by a balanced tree of selects.
    fn pick(prefix: &str, lo: usize, hi: usize) -> String {
        if hi - lo == 1 {
            return format!("{prefix}{lo}");
        }
        let mid = (lo + hi) / 2;
        format!("(j < {mid} ? {} : {})", pick(prefix, lo, mid), pick(prefix, mid, hi))
    }
    let guard = |r: usize| if (r + 1) * THREADS as usize > total { format!(" && r < {total}") } else { String::new() };
    // Step r of a phase: its indices, whether it is in range, and the global element it touches.
    // By array: r counts array j's elements i in turn; in order: r counts interlaced elements.
    let step = |w: &mut SourceWriter, r: usize, by_array: bool| -> String {
        w.line(format!("const u32 r = LOCAL_ID() + {};", r * THREADS as usize));
        if by_array {
            w.line(format!("const u32 j = r / {ti}, i = r % {ti};"));
            w.line(format!("const bool ok = i0 + i < n{};", guard(r)));
            format!("{}[i0 + i]", pick("p", 0, k))
        } else {
            w.line(format!("const u32 i = r / {k}, j = r % {k};"));
            w.line(format!("const bool ok = i0 + i < n{};", guard(r)));
            format!("whole[i0 * {k} + r]")
        }
    };

    for (name, interlacing) in [(&join, true), (&split, false)] {
        let parts: Vec<String> = (0..k)
            .map(|j| if interlacing { format!("const GLOBAL word* RESTRICT p{j}") } else { format!("GLOBAL word* RESTRICT p{j}") })
            .collect();
        let whole = if interlacing { "GLOBAL word* RESTRICT whole" } else { "const GLOBAL word* RESTRICT whole" };
        w.line("");
        w.open(format!("KERNEL_BLOCK({THREADS}) void {name}({whole}, {}, const u64 n)", parts.join(", ")));
        w.line(format!("LOCAL word tile[{}];", stride * (k - 1) + ti));
        w.line(format!("const u64 i0 = (u64)GROUP_ID() * {ti};"));
        // Interlacing reads array by array and writes in order; de-interlacing the reverse.
        let (read_by_array, what) = if interlacing {
            (true, ["read: array by array, each a coalesced run", "write: the interlaced elements in order"])
        } else {
            (false, ["read: the interlaced elements in order", "write: array by array, each a coalesced run"])
        };
        w.line(format!("/* {}; all loads issued before the first store */", what[0]));
        for r in 0..steps {
            w.line(format!("word v{r}; u32 at{r}; bool ok{r};"));
            w.open_scope();
            let global = step(&mut w, r, read_by_array);
            w.line(format!("ok{r} = ok; at{r} = j * {stride} + i;"));
            w.line(format!("if (ok) v{r} = {global};"));
            w.close();
        }
        for r in 0..steps {
            w.line(format!("if (ok{r}) tile[at{r}] = v{r};"));
        }
        w.line("BARRIER();");
        w.line(format!("/* {} */", what[1]));
        for r in 0..steps {
            w.open_scope();
            let global = step(&mut w, r, !read_by_array);
            w.line(format!("if (ok) {global} = tile[j * {stride} + i];"));
            w.close();
        }
        w.close();
    }
    KernelSource { name: format!("interlace_{base}"), entry_points: vec![join, split], body: w.finish() }
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
        let grid = Grid::linear(blocks(problem.len.div_ceil(problem.tile()) as u64)?, THREADS);
        let kernels = if problem.len == 0 {
            None
        } else {
            let source = interlace_source(&problem);
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
        if (p.arrays * p.elem_size) % unit != 0 {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_fit_and_rows_spread_over_banks() {
        for e in [1, 2, 4, 8, 16] {
            for k in 2..=MAX_ARRAYS {
                let p = InterlaceProblem::new(ScalarKind::U8, k, 1000);
                let p = InterlaceProblem { elem_size: e, ..p };
                let (ti, stride) = (p.tile(), p.row_stride());
                assert!(ti.is_power_of_two() && stride >= ti && stride < ti + 32, "e{e} k{k}");
                assert!((stride * (k - 1) + ti) * e <= INTERLACE_TILE_BYTES + k * 32 * e, "e{e} k{k}: {ti} {stride}");
                // A warp's 32 interlaced reads (4-byte elements) land in 32 distinct banks when k divides 32.
                if e == 4 && 32 % k == 0 {
                    let banks: std::collections::HashSet<usize> = (0..32).map(|r| ((r % k) * stride + r / k) % 32).collect();
                    assert_eq!(banks.len(), 32, "k{k}: stride {stride}");
                }
            }
        }
    }
}
