//! The tiled interlace, for any number of arrays and any element size: a block takes `TI`
//! elements of each array, reads them array by array (coalesced), parks them in shared
//! memory, and writes the `k * TI` interlaced elements in order (coalesced); de-interlacing
//! runs the same tile the other way.

use super::interlace::{kernel_params, select_tree};
use crate::kernel::prelude::word_type;
use crate::kernel::{KernelSource, SourceWriter};

/// Threads per block of the tiled kernels.
pub const TILED_THREADS: u32 = 256;

/// `arrays` arrays of `elem_size`-byte elements moved through tiles of about `tile_bytes`.
#[derive(Debug, Clone, Copy)]
pub struct TiledInterlace {
    pub elem_size: usize,
    pub arrays: usize,
    pub tile_bytes: usize,
}

impl TiledInterlace {
    /// Elements of each array in one block's tile: a power of two near `tile_bytes`.
    pub fn tile(&self) -> usize {
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

    /// The two kernels (interlace, de-interlace), in one program. Both take
    /// `(whole, p0, .., p<k-1>, n)`.
    pub fn source(&self) -> KernelSource {
        let (e, k) = (self.elem_size, self.arrays);
        let word = word_type(e).expect("checked");
        let ti = self.tile();
        let stride = self.row_stride();
        let total = ti * k;
        let threads = TILED_THREADS as usize;
        let steps = total.div_ceil(threads);
        let base = format!("e{e}_k{k}_t{ti}");
        let (join, split) = (format!("interlace_{base}"), format!("deinterlace_{base}"));
        let mut w = SourceWriter::new();
        w.line(format!("typedef {word} word;"));
        w.comment(&[
            &format!("{join} / {split}: {k} arrays of {e}-byte elements and their interlaced form,"),
            &format!("whole[i * {k} + j] = part_j[i]. Block g moves elements g * {ti} .. + {ti} of every array through"),
            &format!("shared memory, row j (array j) at j * {stride}: the padding keeps a warp's {k} rows in distinct banks."),
        ]);
        let guard = |r: usize| if (r + 1) * threads > total { format!(" && r < {total}") } else { String::new() };
        // Step r of a phase: its indices, whether it is in range, and the global element it
        // touches. By array: r counts array j's elements i in turn; in order: r counts
        // interlaced elements.
        let step = |w: &mut SourceWriter, r: usize, by_array: bool| -> String {
            w.line(format!("const u32 r = LOCAL_ID() + {};", r * threads));
            if by_array {
                w.line(format!("const u32 j = r / {ti}, i = r % {ti};"));
                w.line(format!("const bool ok = i0 + i < n{};", guard(r)));
                format!("{}[i0 + i]", select_tree("j", 0, k, &|j| format!("p{j}")))
            } else {
                w.line(format!("const u32 i = r / {k}, j = r % {k};"));
                w.line(format!("const bool ok = i0 + i < n{};", guard(r)));
                format!("whole[i0 * {k} + r]")
            }
        };

        for (name, interlacing) in [(&join, true), (&split, false)] {
            w.line("");
            w.open(format!("KERNEL_BLOCK({threads}) void {name}({})", kernel_params("word", "word", k, interlacing)));
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rearrange::MAX_ARRAYS;

    #[test]
    fn tiles_fit_and_rows_spread_over_banks() {
        for elem_size in [1, 2, 4, 8, 16] {
            for arrays in 2..=MAX_ARRAYS {
                let t = TiledInterlace { elem_size, arrays, tile_bytes: 8192 };
                let (ti, stride) = (t.tile(), t.row_stride());
                let (e, k) = (elem_size, arrays);
                assert!(ti.is_power_of_two() && stride >= ti && stride < ti + 32, "e{e} k{k}");
                assert!((stride * (k - 1) + ti) * e <= 8192 + k * 32 * e, "e{e} k{k}: {ti} {stride}");
                // A warp's 32 interlaced reads (4-byte elements) land in 32 distinct banks when k divides 32.
                if e == 4 && 32 % k == 0 {
                    let banks: std::collections::HashSet<usize> = (0..32).map(|r| ((r % k) * stride + r / k) % 32).collect();
                    assert_eq!(banks.len(), 32, "k{k}: stride {stride}");
                }
            }
        }
    }
}
