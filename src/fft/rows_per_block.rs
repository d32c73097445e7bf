//! Rows per block where the heuristic's count (blocks of at least TARGET_THREADS_PER_BLOCK
//! threads, recipe.rs) was measured to lose.

use super::factor::is_prime;
use super::problem::{FftKind, Precision};
use super::recipe::FftRecipe;

/// Threads a row for which f32 C2C rows go one to a block, where blocks of at least 128
/// threads would hold three of them (162..189 threads, six warps). Rows of 48..52 threads in
/// blocks of three (five warps) and of 64..79 in blocks of two lost up to 0.87x alone.
const LONE_ROW_THREADS: std::ops::RangeInclusive<u32> = 54..=63;

/// Smallest prime codelet whose rows get blocks of at most [`PRIME_ROW_BLOCK_THREADS`].
const PRIME_ROW_MIN_RADIX: usize = 19;

/// Threads (two warps) a block of rows of a large prime codelet may keep when halved.
const PRIME_ROW_BLOCK_THREADS: u32 = 64;

/// Threads a warp runs in lockstep on NVIDIA GPUs, where the rule was measured.
const WARP_LANES: u32 = 32;

/// The share of its warps' lanes a block of `threads` threads keeps busy.
fn lanes_busy(threads: u32) -> f64 {
    threads as f64 / (WARP_LANES * threads.div_ceil(WARP_LANES)) as f64
}

impl FftRecipe {
    /// f32 C2C direct Stockham rows of LONE_ROW_THREADS threads, planned three to a block:
    /// one row a block. Measured on an H200 (twenty-third session, `--suite variants
    /// --variants 'rows /2,rows /4,min 2 blocks/SM,min 3 blocks/SM'` over the 483 direct rows
    /// of 32..127 threads in 2..4096 planned several to a block, docs/BENCHMARKS.md): these 58
    /// rows 1.063x, none slower; those of a first radix of 23 or more (1740 = 29 x 10 x 6,
    /// 1922 = 31 x 31 x 2) 1.14x over 22, the rest 1.017x. The other counts of threads and rows
    /// lost alone (0.97x) and under a minimum of blocks per multiprocessor (0.94x..0.99x).
    pub(super) fn with_lone_rows(self) -> FftRecipe {
        let t = self.tuning;
        let applies = self.is_direct_stockham_row(FftKind::C2C, Precision::F32)
            && LONE_ROW_THREADS.contains(&t.threads_per_transform)
            && t.transforms_per_block == 3;
        self.retuned_if(applies, |tuning| tuning.transforms_per_block = 1)
    }

    /// f32 C2C direct Stockham rows whose widest pass is a prime codelet of
    /// [`PRIME_ROW_MIN_RADIX`] points or more, planned several to a block of just over 128
    /// threads (69 = 23 x 3: 43 rows of 3 threads, 129 threads in five warps): half or a
    /// quarter of the rows, the more that fit in [`PRIME_ROW_BLOCK_THREADS`], where that leaves
    /// fewer of the block's lanes idle (21 rows, 63 threads in two warps). Our reading, not
    /// profiled: such codelets hold many registers, so that registers, not blocks, bound the
    /// warps a multiprocessor runs; a block's idle lanes are then lost, and small blocks fill
    /// what registers allow more fully.
    /// Measured on an H200 (twenty-fifth session, `--suite variants --variants 'rows /2,rows
    /// /4'` over the 563 f32 C2C rows of a prime codelet of 19 or more, under 64 threads,
    /// several to a block, docs/BENCHMARKS.md): these 77 1.127x, none under 0.99x (235 = 47 x
    /// 5 1.53x, 615 = 41 x 15 1.29x), 1.126x in a same-run A/B of the rule as built; halving
    /// where it left as many lanes idle or more lost (1333 = 43 x 31, 124 threads in four warps
    /// as 62 in two: 0.95x).
    pub(super) fn with_prime_rows_in_two_warps(self) -> FftRecipe {
        let t = self.tuning;
        let widest = self.core.codelet_radices().last().copied().unwrap_or(1);
        let applies = self.is_direct_stockham_row(FftKind::C2C, Precision::F32) && widest >= PRIME_ROW_MIN_RADIX && is_prime(widest);
        let busy_now = lanes_busy(self.threads_per_block());
        let rows = [t.transforms_per_block / 2, t.transforms_per_block / 4]
            .into_iter()
            .find(|&rows| rows >= 1 && rows * t.threads_per_transform <= PRIME_ROW_BLOCK_THREADS)
            .filter(|&rows| applies && lanes_busy(rows * t.threads_per_transform) > busy_now)
            .unwrap_or(t.transforms_per_block);
        self.retuned_if(rows != t.transforms_per_block, |tuning| tuning.transforms_per_block = rows)
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn rows_of_54_to_63_threads_go_one_to_a_block() {
        let design = |p: FftProblem| FftRecipe::design_by_heuristic(p, H200).unwrap();
        // 1740 = 29 x 10 x 6 (58 threads) and 1922 = 31 x 31 x 2 (62): one row a block.
        for n in [1740, 1922] {
            let r = design(FftProblem::c2c(n, 1000));
            assert_eq!(r.tuning.transforms_per_block, 1, "{}", r.kernel_name());
            assert!((54..=63).contains(&r.tuning.threads_per_transform), "{}", r.kernel_name());
        }
        // 1581 = 31 x 17 x 3 (51 threads) stays three a block; R2C keeps its count.
        assert_eq!(design(FftProblem::c2c(1581, 1000)).tuning.transforms_per_block, 3);
        assert_eq!(design(FftProblem::r2c(3480, 1000)).tuning.transforms_per_block, 3);
    }

    #[test]
    fn rows_of_large_prime_codelets_fill_two_warps() {
        let rows = |p: FftProblem| {
            let r = FftRecipe::design_by_heuristic(p, H200).unwrap();
            (r.tuning.threads_per_transform, r.tuning.transforms_per_block)
        };
        // 69 = 23 x 3: 43 rows of 3 threads (129) -> 21 (63); 580 = 29 x 20: 7 of 20 -> 3.
        assert_eq!(rows(FftProblem::c2c(69, 1000)), (3, 21));
        assert_eq!(rows(FftProblem::c2c(580, 1000)), (20, 3));
        // 1333 = 43 x 31: four rows of 31 threads already fill their warps as well as two would.
        assert_eq!(rows(FftProblem::c2c(1333, 1000)), (31, 4));
        // A prime codelet under 19 points (51 = 17 x 3) and R2C (1160: 580 = 29 x 20) keep
        // their rows.
        assert_eq!(rows(FftProblem::c2c(51, 1000)).1, 43);
        assert_eq!(rows(FftProblem::r2c(1160, 1000)), (20, 7));
    }
}
