//! How the threads of a block walk a tile in one axis order: the input's, when the tile is
//! read, and the output's, when it is written.
//!
//! The threads span a box at the front of the order: the leading axes whole, part of the
//! next one (the split axis), one position of every other. The box then steps through the
//! tile; each step's offset along every axis is a constant of the generated kernel, so a
//! thread works out its coordinates once (a few divisions by constants) and every element
//! after that costs one load or store at `base + constant`. Index arithmetic per element was
//! what held f32 permutes of rank 3 and more below copy speed: an SM retires half as many
//! integer operations per clock as float ones, and recomputing every coordinate of every
//! element took more of them than the memory allows.

/// One axis of a walk: the tile axis, its extent in the tile, and how many positions of it
/// the block's threads cover at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkAxis {
    pub axis: usize,
    pub extent: u64,
    pub span: u64,
}

impl WalkAxis {
    /// Steps along this axis.
    pub fn chunks(&self) -> u64 {
        self.extent.div_ceil(self.span)
    }
}

/// The walk of a tile by `threads` threads in one axis order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileWalk {
    /// Tile axes of extent above 1, in the walk's order (the fastest first).
    pub axes: Vec<WalkAxis>,
    pub threads: u32,
}

impl TileWalk {
    /// Spans the leading axes of `order` (tile axes, fastest first) with as many of `threads`
    /// as fit: each axis takes as much of its extent as the threads left over cover.
    pub fn new(tile_ext: &[u64], order: &[usize], threads: u32) -> Self {
        let mut covered = 1u64;
        let axes = order
            .iter()
            .filter(|&&k| tile_ext[k] > 1)
            .map(|&k| {
                let extent = tile_ext[k];
                let span = extent.min(threads as u64 / covered).max(1);
                covered *= span;
                WalkAxis { axis: k, extent, span }
            })
            .collect();
        TileWalk { axes, threads }
    }

    /// Threads that hold an element in every step (the others idle through this walk).
    pub fn active_threads(&self) -> u64 {
        self.axes.iter().map(|a| a.span).product()
    }

    /// Steps of the box through the tile.
    pub fn steps(&self) -> u64 {
        self.axes.iter().map(|a| a.chunks()).product()
    }

    /// Thread slots the walk takes: steps times the block's threads.
    pub fn slots(&self) -> u64 {
        self.steps() * self.threads as u64
    }

    /// The box's offset along each walk axis at step `s` (the first axis's chunk fastest).
    pub fn step_start(&self, mut s: u64) -> Vec<u64> {
        self.axes
            .iter()
            .map(|a| {
                let chunk = s % a.chunks();
                s /= a.chunks();
                chunk * a.span
            })
            .collect()
    }

    /// Tile coordinates of thread `t` along each walk axis (0 where it spans one position), or
    /// `None` for a thread outside the box (the generated kernel's arithmetic, for tests).
    #[cfg(test)]
    fn thread_coords(&self, t: u64) -> Option<Vec<u64>> {
        if t >= self.active_threads() {
            return None;
        }
        let mut below = 1u64;
        Some(
            self.axes
                .iter()
                .map(|a| {
                    let k = t / below % a.span;
                    below *= a.span;
                    k
                })
                .collect(),
        )
    }
}

/// Block sizes the planner chooses from: multiples of a warp.
const THREAD_CHOICES: std::ops::RangeInclusive<u32> = 4..=16;

/// The block size for a tile read in `input_order` and written in `output_order`: the one
/// whose two walks take the fewest thread slots, the closest to 256 among equals.
pub fn best_threads(tile_ext: &[u64], input_order: &[usize], output_order: &[usize]) -> u32 {
    THREAD_CHOICES
        .map(|w| w * 32)
        .min_by_key(|&t| {
            let slots = TileWalk::new(tile_ext, input_order, t).slots() + TileWalk::new(tile_ext, output_order, t).slots();
            (slots, t.abs_diff(256))
        })
        .expect("a non-empty range of block sizes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_span_the_leading_axes_and_step_through_the_rest() {
        // Tile 8 x 23 x 4 walked 8, 5, 23, 4 (axes 0, 2, 1, 3) by 256 threads: 8 x 5 x 6 = 240
        // threads, 4 chunks of the 23 (6 + 6 + 6 + 5), 4 steps of the last axis.
        let w = TileWalk::new(&[8, 23, 4, 5], &[0, 3, 1, 2], 256);
        let spans: Vec<u64> = w.axes.iter().map(|a| a.span).collect();
        assert_eq!(spans, vec![8, 5, 6, 1]);
        assert_eq!(w.active_threads(), 240);
        assert_eq!(w.steps(), 16);
        assert_eq!(w.step_start(5), vec![0, 0, 6, 1]);
        assert_eq!(w.thread_coords(239), Some(vec![7, 4, 5, 0]));
        assert_eq!(w.thread_coords(240), None);
    }

    #[test]
    fn every_tile_position_is_visited_once() {
        for (ext, order, threads) in [
            (vec![8u64, 23, 4, 5], vec![0usize, 3, 1, 2], 256u32),
            (vec![300, 1, 7], vec![0, 1, 2], 128),
            (vec![3, 129, 2], vec![1, 0, 2], 256),
            (vec![1, 1], vec![1, 0], 64),
        ] {
            let w = TileWalk::new(&ext, &order, threads);
            let volume: u64 = ext.iter().product();
            let mut seen = vec![0u32; volume as usize];
            for s in 0..w.steps() {
                let start = w.step_start(s);
                for t in 0..threads as u64 {
                    let Some(k) = w.thread_coords(t) else { continue };
                    let coords: Vec<u64> = k.iter().zip(&start).map(|(k, c)| k + c).collect();
                    if coords.iter().zip(&w.axes).any(|(&x, a)| x >= a.extent) {
                        continue;
                    }
                    let mut at = vec![0u64; ext.len()];
                    for (x, a) in coords.iter().zip(&w.axes) {
                        at[a.axis] = *x;
                    }
                    let mut idx = 0u64;
                    for k in (0..ext.len()).rev() {
                        idx = idx * ext[k] + at[k];
                    }
                    seen[idx as usize] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{ext:?} {order:?} {threads}");
        }
    }

    #[test]
    fn the_block_size_fits_both_walks() {
        // Read 8 x 5 then 23; written 8 x 23 then 4: 256 threads would leave 72 of them idle on
        // the write; the chosen size takes fewer slots.
        let ext = [8, 23, 4, 5];
        let t = best_threads(&ext, &[0, 3, 1, 2], &[0, 1, 2, 3]);
        let slots = |t| TileWalk::new(&ext, &[0, 3, 1, 2], t).slots() + TileWalk::new(&ext, &[0, 1, 2, 3], t).slots();
        assert!(slots(t) < slots(256), "{t}");
        // A 32 x 32 transpose: 256 threads, 4 steps each way.
        assert_eq!(best_threads(&[32, 32], &[1, 0], &[0, 1]), 256);
    }
}
