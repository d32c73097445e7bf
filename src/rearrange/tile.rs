//! The tile of a tiled permute: how many elements of each axis one thread block moves.
//!
//! A block reads its tile in the input's order (neighbouring threads read neighbouring input
//! elements), parks it in shared memory, and writes it in the output's order. For both global
//! accesses to be coalesced the tile must cover a run of the input's fastest axes and a run
//! of the output's fastest axes of at least a cache line each. Small axes are taken whole and
//! the next one joins (cuTT's "packed" idea), so an input whose fastest axis has 3 elements
//! still reads 96 contiguous elements at a time.

use super::layout::StridedLayout;

/// Threads per block of the tiled kernel.
pub const TILE_THREADS: u32 = 256;

/// Most bytes one tile may take (shared memory of one block, before padding, which adds at
/// most half: the kernel's static shared array stays under the 48 KiB CUDA allows).
const MAX_TILE_BYTES: u64 = 24 * 1024;

/// The tunable sizes of a tiled permute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PermuteTuning {
    /// Bytes of the contiguous run the tile covers on each side (input and output).
    pub run_bytes: u64,
    /// Bytes a tile holds at least, so that each of the 256 threads moves several elements.
    pub tile_bytes: u64,
}

impl PermuteTuning {
    /// The default: one 128-byte cache line per run, 8 KiB tiles. Chosen by `bench permute
    /// --sweep` on an H200 (docs/BENCHMARKS.md): the best worst case of the random suite and
    /// 512^3 at 0.90; 256-byte runs lift 512^3 to 0.93 but sink some random shapes to 0.33.
    pub const DEFAULT: PermuteTuning = PermuteTuning { run_bytes: 128, tile_bytes: 8192 };

    /// Elements per run: at least 8 (32 one-byte elements still fill a 32-byte sector).
    fn run_elements(&self, elem_size: usize) -> u64 {
        (self.run_bytes / elem_size as u64).clamp(8, (self.run_bytes / 4).max(8))
    }
}

impl Default for PermuteTuning {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Elements per chunk of an axis of `extent` when at least `want` are wanted: the axis is cut
/// into equal chunks of at least `want` (48 with 32 wanted is one chunk of 48, not 32 + 16,
/// whose second tile would run half empty).
fn balanced(extent: u64, want: u64) -> u64 {
    if want >= extent {
        return extent;
    }
    extent.div_ceil((extent / want).max(1))
}

/// Elements of each layout axis in one tile (1 for axes the tile does not span).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TileShape {
    pub ext: Vec<u64>,
}

impl TileShape {
    /// Grows the tile along the input's fastest axes to one run, then along the output's
    /// fastest axes to one run, then along the output's order to [`TILE_BYTES`].
    pub fn design(layout: &StridedLayout, elem_size: usize, tuning: PermuteTuning) -> Self {
        let axes = &layout.axes;
        let mut ext = vec![1u64; axes.len()];
        let run = tuning.run_elements(elem_size);
        let cap = MAX_TILE_BYTES / elem_size as u64;
        let input_order = input_order(layout);
        let output_order: Vec<usize> = (0..axes.len()).collect();
        grow_run(&mut ext, layout, &input_order, run, cap);
        grow_run(&mut ext, layout, &output_order, run, cap);
        let target = (tuning.tile_bytes / elem_size as u64).clamp(run, cap);
        for &k in &output_order {
            let volume: u64 = ext.iter().product();
            if volume >= target {
                break;
            }
            let want = ext[k] * target.div_ceil(volume);
            widen(&mut ext, layout, k, want, cap);
        }
        TileShape { ext }
    }

    /// Elements in one tile.
    pub fn volume(&self) -> u64 {
        self.ext.iter().product()
    }

    /// Tiles along each axis (the last one may be partial).
    pub fn chunks(&self, layout: &StridedLayout) -> Vec<u64> {
        layout.axes.iter().zip(&self.ext).map(|(a, &e)| a.extent.div_ceil(e)).collect()
    }

    /// Tiles in all: the launch's blocks.
    pub fn tiles(&self, layout: &StridedLayout) -> u64 {
        self.chunks(layout).iter().product()
    }

    /// Axes the tile spans (extent above 1), in the input's order: fastest input stride first.
    pub fn input_axes(&self, layout: &StridedLayout) -> Vec<usize> {
        input_order(layout).into_iter().filter(|&k| self.ext[k] > 1).collect()
    }

    /// Axes the tile spans, in the output's order.
    pub fn output_axes(&self) -> Vec<usize> {
        (0..self.ext.len()).filter(|&k| self.ext[k] > 1).collect()
    }

    /// Position of tile coordinate 1 of axis `k` in the tile's output order (shared memory
    /// holds the tile as the output will be written).
    pub fn shared_stride(&self, k: usize) -> u64 {
        self.ext[..k].iter().product()
    }

    /// Shared-memory padding: `(every, pad)` inserts `pad` elements after every `every`
    /// elements of the tile. Reads store the input's fastest tile axis into shared memory at
    /// stride `every`; an even stride of two words or more would put a warp's stores into few
    /// banks, so each row is padded by one 4-byte word (or one element, if larger) to make the
    /// stride odd. Narrower strides share words between threads and need none.
    pub fn padding(&self, layout: &StridedLayout, elem_size: usize) -> Option<(u64, u64)> {
        let first = *self.input_axes(layout).first()?;
        let every = self.shared_stride(first);
        (every > 1 && every % 2 == 0 && every * elem_size as u64 >= 8).then(|| (every, (4 / elem_size as u64).max(1)))
    }

    /// Elements of shared memory the tile takes, padding included.
    pub fn shared_elements(&self, layout: &StridedLayout, elem_size: usize) -> u64 {
        let v = self.volume();
        match self.padding(layout, elem_size) {
            Some((every, pad)) => v + (v - 1) / every * pad,
            None => v,
        }
    }
}

/// Layout axes sorted by input stride: the input's fastest axis first.
fn input_order(layout: &StridedLayout) -> Vec<usize> {
    let mut order: Vec<usize> = (0..layout.axes.len()).collect();
    order.sort_by_key(|&k| (layout.axes[k].src_stride, k));
    order
}

/// Widens the tile along `order` until the product of the extents taken reaches `run`,
/// stopping at the first axis the tile covers only in part (contiguity ends there).
fn grow_run(ext: &mut [u64], layout: &StridedLayout, order: &[usize], run: u64, cap: u64) {
    let mut covered = 1u64;
    for &k in order {
        let extent = layout.axes[k].extent;
        let want = ext[k].max(run.div_ceil(covered));
        widen(ext, layout, k, want, cap);
        covered *= ext[k];
        if covered >= run || ext[k] < extent {
            break;
        }
    }
}

/// Sets axis `k` of the tile to at least `want` elements in balanced chunks; where that would
/// take the tile past `cap` elements, to as many of `want` as fit (never fewer than before).
/// The input's and the output's contiguous axes keep chunks of exactly `want` (tiles then start
/// on cache-line boundaries: 97 is 32 + 32 + 32 + 1, not 3 x 33), unless the whole axis is at
/// most twice that.
fn widen(ext: &mut [u64], layout: &StridedLayout, k: usize, want: u64, cap: u64) {
    let extent = layout.axes[k].extent;
    let others: u64 = ext.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, &e)| e).product();
    let limit = (cap / others).max(1);
    let contiguous = k == 0 || layout.axes[k].src_stride == 1;
    let even = if contiguous && extent > 2 * want { want } else { balanced(extent, want) };
    ext[k] = if even <= limit { even } else { want.min(extent).min(limit).max(ext[k]) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 4 KiB tiles: the shapes below are worked out for them.
    const FOUR_KIB: PermuteTuning = PermuteTuning { run_bytes: 128, tile_bytes: 4096 };

    fn layout(fastest_first: &[(u64, u64)]) -> StridedLayout {
        StridedLayout::new(0, fastest_first.iter().copied())
    }

    #[test]
    fn a_transpose_takes_32_by_32_tiles_of_f32() {
        // Output (fastest first) 512 x 256, read from input strides 256 and 1.
        let l = layout(&[(512, 256), (256, 1)]);
        let t = TileShape::design(&l, 4, FOUR_KIB);
        assert_eq!(t.ext, vec![32, 32]);
        assert_eq!(t.tiles(&l), 16 * 8);
        assert_eq!(t.padding(&l, 4), Some((32, 1)));
        assert_eq!(t.shared_elements(&l, 4), 1024 + 31);
    }

    #[test]
    fn small_fastest_axes_join_their_neighbours() {
        // Input axes, fastest first: 3, 5, 7, 1000. The output's fastest is the 5, then the 3,
        // the 1000 and the 7: no two neighbours merge.
        let l = layout(&[(5, 3), (3, 1), (1000, 105), (7, 15)]);
        assert_eq!(l.axes.len(), 4);
        let t = TileShape::design(&l, 4, FOUR_KIB);
        // Whole 3 and 5, and enough of the 7 for a run of 32 contiguous input elements.
        assert!(t.ext[1] == 3 && t.ext[0] == 5 && t.ext[3] * 15 >= 32, "{t:?}");
        assert!(t.volume() * 4 >= 4096 && t.volume() * 4 <= MAX_TILE_BYTES, "{t:?}");
    }

    #[test]
    fn a_kept_fastest_axis_grows_the_tile_along_the_output() {
        // Fastest axis stays fastest: rows of 256, then 4 of the next output axis.
        let l = layout(&[(256, 1), (256, 65536), (256, 256)]);
        let t = TileShape::design(&l, 4, FOUR_KIB);
        assert_eq!(t.ext, vec![256, 4, 1]);
        assert_eq!(t.padding(&l, 4), None);
    }

    #[test]
    fn chunks_are_balanced_and_tiles_stay_under_the_cap() {
        assert_eq!(balanced(48, 32), 48);
        assert_eq!(balanced(97, 32), 33);
        // A contiguous axis keeps aligned chunks: output fastest 97 (input stride 1000).
        let l = layout(&[(97, 1000), (999, 1)]);
        assert_eq!(TileShape::design(&l, 4, FOUR_KIB).ext, vec![32, 32]);
        assert_eq!(balanced(512, 32), 32);
        assert_eq!(balanced(4, 3), 4);
        // Output 7 (input stride 48) x 48 (input stride 1): the 48 is one chunk, not 32 + 16.
        let l = layout(&[(7, 48), (48, 1), (19, 336)]);
        let t = TileShape::design(&l, 4, FOUR_KIB);
        assert_eq!(t.ext[1], 48, "{t:?}");
        for e in [1, 2, 4, 8, 16] {
            for tuning in [PermuteTuning::DEFAULT, PermuteTuning { run_bytes: 512, tile_bytes: 32768 }] {
                let l = layout(&[(97, 1000), (999, 1), (3, 97_000)]);
                let t = TileShape::design(&l, e, tuning);
                assert!(t.volume() * e as u64 <= MAX_TILE_BYTES, "{t:?} e{e} {tuning:?}");
                assert!(t.shared_elements(&l, e) * e as u64 <= 3 * MAX_TILE_BYTES / 2, "{t:?} e{e} {tuning:?}");
            }
        }
    }
}
