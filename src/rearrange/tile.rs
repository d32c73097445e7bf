//! The tile of a tiled permute: how many elements of each axis one thread block moves.
//!
//! A block reads its tile in the input's order (neighbouring threads read neighbouring input
//! elements), parks it in shared memory, and writes it in the output's order. For both global
//! accesses to be coalesced the tile must cover a run of the input's fastest axes and a run
//! of the output's fastest axes of at least a cache line each. Small axes are taken whole and
//! the next one joins (cuTT's "packed" idea), so an input whose fastest axis has 3 elements
//! still reads 96 contiguous elements at a time.

use super::layout::StridedLayout;
use super::tile_walk::best_threads;

/// Threads per block of the naive kernel.
pub const NAIVE_THREADS: u32 = 256;

/// Most bytes one tile may take (shared memory of one block, before padding, which adds at
/// most half: the kernel's static shared array stays under the 48 KiB CUDA allows).
const MAX_TILE_BYTES: u64 = 24 * 1024;

/// The tunable sizes of a tiled permute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PermuteTuning {
    /// Bytes of the contiguous run the tile covers on each side (input and output).
    pub run_bytes: u64,
    /// Bytes a tile holds at least, so that each of the block's threads moves several elements.
    pub tile_bytes: u64,
}

impl PermuteTuning {
    /// The default: one 128-byte cache line per run, 16 KiB tiles. Chosen by `bench permute
    /// --sweep` on an H200 (docs/BENCHMARKS.md): of nine tunings, the best worst case of the
    /// random suite (0.614 of copy, 8 KiB tiles 0.575) at a median within 0.013 of the best;
    /// longer runs sink shapes whose rows start off line boundaries.
    pub const DEFAULT: PermuteTuning = PermuteTuning { run_bytes: 128, tile_bytes: 16384 };

    /// For layouts whose fastest axes are whole multiples of 256 bytes (see [`Self::for_layout`]).
    pub const ALIGNED: PermuteTuning = PermuteTuning { run_bytes: 256, tile_bytes: 8192 };

    /// Elements per run: at least 8 (32 one-byte elements still fill a 32-byte sector).
    fn run_elements(&self, elem_size: usize) -> u64 {
        (self.run_bytes / elem_size as u64).clamp(8, (self.run_bytes / 4).max(8))
    }

    /// The tuning for a layout: [`Self::ALIGNED`] where both fastest axes (the input's and the
    /// output's) hold whole multiples of 256 bytes, the default elsewhere. Measured on an H200
    /// (`bench permute --sweep`): aligned shapes gain from the longer runs (512^3 f32 by
    /// (2, 1, 0): 0.870 -> 0.901 of copy), shapes with rows that start off line boundaries
    /// lose (332787 x 202 transposed: 0.75 -> 0.60).
    pub fn for_layout(layout: &StridedLayout, elem_size: usize) -> PermuteTuning {
        let whole_runs = |k: Option<usize>| k.is_some_and(|k| (layout.axes[k].extent * elem_size as u64).is_multiple_of(Self::ALIGNED.run_bytes));
        if whole_runs(input_order(layout).first().copied()) && whole_runs((!layout.axes.is_empty()).then_some(0)) {
            Self::ALIGNED
        } else {
            Self::DEFAULT
        }
    }
}

impl Default for PermuteTuning {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Elements per chunk of an axis of `extent` when at least `want` are wanted: the size from
/// `want` to `2 want` whose chunks cover the axis with the least left over, the smallest among
/// equals (48 with 32 wanted is one chunk of 48, not 32 + 16, whose second tile would run half
/// empty; 7 with 2 wanted is 2 + 2 + 2 + 1, not 3 + 3 + 1).
fn balanced(extent: u64, want: u64) -> u64 {
    if want >= extent {
        return extent;
    }
    (want..=extent.min(2 * want)).min_by_key(|&c| (extent.div_ceil(c) * c, c)).expect("want < extent")
}

/// Elements of each layout axis in one tile (1 for axes the tile does not span), the threads
/// of the block that moves it, and the order in which the block index counts the tiles.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TileShape {
    pub ext: Vec<u64>,
    pub threads: u32,
    /// Axes along which the layout has more than one tile, in the order the block index counts
    /// them (fastest first).
    pub block_order: Vec<usize>,
}

impl TileShape {
    /// Grows the tile along the input's fastest axes to one run, then along the output's
    /// fastest axes to one run, then along the output's order to `tuning.tile_bytes`; then
    /// picks the block size whose walks of the tile waste the fewest threads.
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
        let threads = best_threads(&ext, &input_order, &output_order);
        let block_order = block_order(&ext, layout);
        TileShape { ext, threads, block_order }
    }

    /// The same tile with its blocks counted in `order`, or `None` unless `order` names every
    /// axis with more than one tile once (benchmarks compare orders).
    pub fn with_block_order(mut self, order: &[usize]) -> Option<Self> {
        same_axes(&self.block_order, order).then(|| {
            self.block_order = order.to_vec();
            self
        })
    }

    /// Whether a tile (designed or written by hand) fits `layout`: one extent per axis within
    /// it, at most the shared memory a block may take, 32 to 1024 threads, and a block order
    /// that counts every axis with more than one tile once. A tile that does not would leave
    /// parts of the output unwritten; the error says which rule it breaks.
    pub fn check(&self, layout: &StridedLayout, elem_size: usize) -> Result<(), String> {
        if self.ext.len() != layout.axes.len() {
            return Err(format!("the tile has {} extents for a layout of {} axes", self.ext.len(), layout.axes.len()));
        }
        if let Some(k) = (0..self.ext.len()).find(|&k| self.ext[k] == 0 || self.ext[k] > layout.axes[k].extent.max(1)) {
            return Err(format!("tile extent {} on axis {k} is outside 1..={}", self.ext[k], layout.axes[k].extent));
        }
        if self.volume() * elem_size as u64 > MAX_TILE_BYTES {
            return Err(format!("a tile of {} bytes exceeds the {MAX_TILE_BYTES} a block's shared memory holds", self.volume() * elem_size as u64));
        }
        if !(32..=1024).contains(&self.threads) {
            return Err(format!("{} threads per block: use 32 to 1024", self.threads));
        }
        if !same_axes(&block_order(&self.ext, layout), &self.block_order) {
            return Err(format!("block order {:?} must name each axis with more than one tile once", self.block_order));
        }
        Ok(())
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

    /// Position of tile coordinate 1 of axis `k` in the tile's output order (shared memory
    /// holds the tile as the output will be written), before padding.
    pub fn shared_stride(&self, k: usize) -> u64 {
        self.ext[..k].iter().product()
    }

    /// Shared-memory stride of axis `k`, padding included: padding after every `every`
    /// elements adds `pad` to each step of an axis whose stride is a multiple of `every`.
    pub fn padded_stride(&self, layout: &StridedLayout, elem_size: usize, k: usize) -> u64 {
        let s = self.shared_stride(k);
        match self.padding(layout, elem_size) {
            Some((every, pad)) if s >= every => s + s / every * pad,
            _ => s,
        }
    }

    /// Shared-memory padding: `(every, pad)` inserts `pad` elements after every `every`
    /// elements of the tile. Reads store the input's fastest tile axis into shared memory at
    /// stride `every`; an even stride of two words or more would put a warp's stores into few
    /// banks, so each row is padded by one 4-byte word (or one element, if larger) to make the
    /// stride odd. Narrower strides share words between threads and need none.
    pub fn padding(&self, layout: &StridedLayout, elem_size: usize) -> Option<(u64, u64)> {
        let first = *self.input_axes(layout).first()?;
        let every = self.shared_stride(first);
        (every > 1 && every.is_multiple_of(2) && every * elem_size as u64 >= 8).then(|| (every, (4 / elem_size as u64).max(1)))
    }

    /// Elements of shared memory the tile takes, padding included: one past its last position.
    pub fn shared_elements(&self, layout: &StridedLayout, elem_size: usize) -> u64 {
        1 + (0..self.ext.len()).map(|k| (self.ext[k] - 1) * self.padded_stride(layout, elem_size, k)).sum::<u64>()
    }
}

/// Axes along which the layout has more than one tile of `ext`, in the order the block index
/// counts them (fastest first): the output's order, except that the axis where the tile cuts
/// the input's run comes first when it has at most 16 tiles. Tiles on either side of that cut
/// share the memory lines across it; moved one after the other, the second finds them in L2
/// (a transpose of 898324 x 75, its 75 cut in two: 0.70 -> 0.79 of copy on an H200). With more
/// tiles along it, the writes of neighbouring blocks would scatter (13741 x 4884, 153 tiles
/// along the 4884: 0.78 -> 0.66), so the output's order stays.
fn block_order(ext: &[u64], layout: &StridedLayout) -> Vec<usize> {
    let chunks: Vec<u64> = layout.axes.iter().zip(ext).map(|(a, &e)| a.extent.div_ceil(e)).collect();
    let cut = input_order(layout).into_iter().find(|&k| ext[k] < layout.axes[k].extent);
    let first = cut.filter(|&k| chunks[k] <= 16);
    first.into_iter().chain((0..chunks.len()).filter(|&k| Some(k) != first)).filter(|&k| chunks[k] > 1).collect()
}

/// Whether `a` and `b` hold the same axes.
fn same_axes(a: &[usize], b: &[usize]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Layout axes sorted by input stride: the input's fastest axis first.
pub fn input_order(layout: &StridedLayout) -> Vec<usize> {
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
/// The input's and the output's contiguous axes keep chunks of exactly `want` where that
/// wastes at most 1/32 more of the axis (1328 is 41 x 32 + 16, tiles starting on cache-line
/// boundaries, rather than 22 x 61); otherwise balanced chunks waste less (129 is 3 x 43, not
/// 64 + 64 + 1, whose last tiles would be all but empty).
fn widen(ext: &mut [u64], layout: &StridedLayout, k: usize, want: u64, cap: u64) {
    let extent = layout.axes[k].extent;
    let others: u64 = ext.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, &e)| e).product();
    let limit = (cap / others).max(1);
    let contiguous = k == 0 || layout.axes[k].src_stride == 1;
    let even = balanced(extent, want);
    let covered = |chunk: u64| extent.div_ceil(chunk) * chunk;
    let chunk = if contiguous && extent > 2 * want && covered(want) <= covered(even) + extent / 32 { want } else { even };
    ext[k] = if chunk <= limit { chunk } else { want.min(extent).min(limit).max(ext[k]) };
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
    fn blocks_count_the_cut_axes_first() {
        // Output 386082 (input stride 174) x 174 (stride 1): the input's rows are cut into 3
        // tiles, which count fastest.
        let l = layout(&[(386082, 174), (174, 1)]);
        let t = TileShape::design(&l, 4, PermuteTuning::DEFAULT);
        assert_eq!(t.chunks(&l)[1], 3, "{t:?}");
        assert_eq!(t.block_order, vec![1, 0]);
        // 4884 x 13741: 153 tiles along the input's run; the output's order stays.
        let l = layout(&[(13741, 4884), (4884, 1)]);
        let t = TileShape::design(&l, 4, PermuteTuning::DEFAULT);
        assert_eq!(t.block_order, vec![0, 1]);
    }

    #[test]
    fn hand_written_tiles_are_checked() {
        let l = layout(&[(512, 256), (256, 1)]);
        let t = TileShape::design(&l, 4, FOUR_KIB);
        assert_eq!(t.check(&l, 4), Ok(()));
        let missing = TileShape { block_order: vec![0], ..t.clone() };
        assert!(missing.check(&l, 4).unwrap_err().contains("block order"));
        assert!(t.clone().with_block_order(&[0]).is_none() && t.clone().with_block_order(&[1, 0]).is_some());
        let wide = TileShape { ext: vec![512, 256], ..t.clone() };
        assert!(wide.check(&l, 4).unwrap_err().contains("shared memory"));
        let few = TileShape { threads: 16, ..t };
        assert!(few.check(&l, 4).unwrap_err().contains("threads"));
    }

    #[test]
    fn aligned_layouts_take_longer_runs() {
        let reversal = layout(&[(512, 512 * 512), (512, 512), (512, 1)]);
        assert_eq!(PermuteTuning::for_layout(&reversal, 4), PermuteTuning::ALIGNED);
        let misaligned = layout(&[(332787, 202), (202, 1)]);
        assert_eq!(PermuteTuning::for_layout(&misaligned, 4), PermuteTuning::DEFAULT);
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
        assert_eq!(balanced(97, 32), 49);
        assert_eq!(balanced(7, 2), 2);
        assert_eq!(balanced(129, 64), 65);
        // A contiguous axis keeps aligned chunks where they waste little more: 1328 is 42 x 32
        // (1344 covered) rather than 22 x 61 (1342); 97 is 2 x 49 rather than 4 x 32.
        let l = layout(&[(1328, 1000), (97, 1)]);
        assert_eq!(TileShape::design(&l, 4, FOUR_KIB).ext, vec![32, 49]);
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
