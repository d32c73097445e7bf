//! Rows per block where the heuristic's count (blocks of at least TARGET_THREADS_PER_BLOCK
//! threads, recipe.rs) was measured to lose.

use super::problem::{FftKind, Precision};
use super::recipe::FftRecipe;

/// Threads a row for which f32 C2C rows go one to a block, where blocks of at least 128
/// threads would hold three of them (162..189 threads, six warps). Rows of 48..52 threads in
/// blocks of three (five warps) and of 64..79 in blocks of two lost up to 0.87x alone.
const LONE_ROW_THREADS: std::ops::RangeInclusive<u32> = 54..=63;

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
}

#[cfg(test)]
mod tests {
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn rows_of_54_to_63_threads_go_one_to_a_block() {
        let design = |p: FftProblem| FftRecipe::design(p, H200).unwrap();
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
}
