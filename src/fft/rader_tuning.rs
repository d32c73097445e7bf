//! Where Rader's heuristic tuning (`FftRecipe::design_around`, then the fewest-pass rule of
//! fewer_passes.rs) was measured to lose on rows of several DFTs, and what ran faster
//! instead: no padding where lanes run across the DFTs (`without_padding_across_dfts`), and a
//! launch bound of three blocks, not two (`with_three_block_rader_bound`); and a thread for
//! each butterfly of every pass where a few more threads give one (`with_nearly_even_threads`,
//! fifty-sixth session, from the same campaign's `threads for radix N` timings).
//!
//! Both were found by one campaign, as was the third rule for these rows, prime-factor
//! codelets (`Core::codelet_split_rule`; fifty-fifth session, docs/BENCHMARKS.md): `--suite
//! variants` on an H200, two rounds, over 531 of the 1062 C2C f32 Rader lengths at 0.45 to
//! 0.75 of copy that the wisdom held nothing for, timing each pick beside its `threads`,
//! `min N blocks/SM`, `lanes`, `rows`, `no padding`, `in place` and `prime-factor codelets`
//! variants.

use super::fewer_passes::RADER_FEWER_PASSES_MIN_DFTS;
use super::problem::{Precision, MAX_SINGLE_LAUNCH_LEN};
use super::recipe::{DeviceLimits, FftRecipe};
use super::transform_core::Core;

/// Registers a thread that a three-block launch bound must leave where the row's largest
/// codelet has [`RADER_LONG_CODELET`] points or more.
const RADER_THREE_BLOCK_REGISTER_FLOOR: u32 = 72;

/// Codelets this long and longer hold enough values that a thread of theirs needs more than
/// a three-block bound leaves on wide rows: 3846 = 6 x 641 as 32 x 20 then 6 (321 threads,
/// 68 registers) ran 0.68x under it, 3786 = 6 x 631 as 30 x 21 0.87x, 3702 = 6 x 617 as
/// 28 x 22 0.89x, 4062 = 6 x 677 as 26 x 26 (339 threads, 64 registers) 0.85x; 21 x 16 and
/// 22 x 15 on 64 and 65 registers gained (1.01x-1.16x).
const RADER_LONG_CODELET: usize = 26;

impl FftRecipe {
    /// f32 Rader rows of several DFTs whose lanes run across the DFTs
    /// ([`FftTuning::lanes_across_dfts`](super::FftTuning::lanes_across_dfts)), unpadded.
    /// The layout model pads them, scoring the first warp of each pass; measured on an H200
    /// (fifty-fifth session, `no padding` beside the pick), 32 such rows of six DFTs or more
    /// ran 1.10x without (4041 = 9 x 449 1.23x, 1016 = 8 x 127 1.16x), one slower (2022 =
    /// 6 x 337, 0.94x). Rows along the DFTs lost without their padding (1542 = 6 x 257, 16 x
    /// 16: 0.50x; 1446 = 6 x 241 0.69x), as did rows of four DFTs across (1412 = 4 x 353
    /// 0.79x), so they keep it. Our reading, not profiled: across, a warp's lanes fall on
    /// DFTs an odd prime apart, which already spreads them over the banks, and the padding's
    /// index arithmetic on every shared access costs rows that are bound on chip.
    pub(super) fn without_padding_across_dfts(self) -> FftRecipe {
        let applies = self.is_f32_rader_row_of_several_dfts() && self.tuning.lanes_across_dfts && self.tuning.is_padded();
        self.retuned_if(applies, |t| t.drop_padding())
    }

    /// f32 Rader rows of several DFTs that `design_around` gave the two-block launch bound
    /// (blocks of 228 to 341 threads, where three blocks would leave under the 96 registers
    /// of RADER_REGISTER_FLOOR): three blocks, unless a codelet of [`RADER_LONG_CODELET`]
    /// points or more would be left fewer than [`RADER_THREE_BLOCK_REGISTER_FLOOR`]
    /// registers. Measured on an H200 (fifty-fifth session, `min 3 blocks/SM` beside the
    /// pick): 87 such rows 1.08x (2493 = 9 x 277 1.20x, 2774 = 19 x 2 x 73 on 304 threads
    /// 1.18x), one slower than 0.97x (0.968x); the four excepted 0.85x. A fourth block on rows
    /// already under three ran 1.01x (84 rows), not taken. Same-run A/B of both rules against
    /// the build before them, two rounds: C2C f32 1.087x over the 230 lengths they change
    /// (4062 = 6 x 677 as 26 x 26, 0.85x, now excepted), R2C 1.093x and C2R 1.115x over 103.
    pub(super) fn with_three_block_rader_bound(self) -> FftRecipe {
        if !self.is_f32_rader_row_of_several_dfts() || self.tuning.min_blocks_per_sm != 2 {
            return self;
        }
        let long_codelet = self.core.codelet_radices().last().is_some_and(|&r| r >= RADER_LONG_CODELET);
        let applies = !long_codelet || self.registers_under_bound(3) >= RADER_THREE_BLOCK_REGISTER_FLOOR;
        self.retuned_if(applies, |t| t.min_blocks_per_sm = 3)
    }

    /// f32 Rader rows of several DFTs, one a block, whose threads take a second round in some
    /// pass of at most a fifth more butterflies than threads (the threads are the butterflies
    /// of the largest radix's pass, often the outer pass: 1233 = 9 x 137 on 137 threads, whose
    /// convolution's radix-8 pass has 153 butterflies): as many threads as that pass has
    /// butterflies, the block otherwise as it was. Stockham rows have had this since the tenth
    /// session (`design_around`'s "nearly even" threads). Measured on an H200 (the fifty-fifth
    /// session's campaign, `threads for radix N` beside the pick, two rounds): such rows of six
    /// DFTs or more, one a block, 1.05x over 61 (2388 = 12 x 199 1.17x, 3723 = 51 x 73 1.15x;
    /// 7 slower than 0.97x, 3140 = 20 x 157 0.91x); a quarter more 1.02x (16), more 1.00x.
    /// Same-run A/B of the rule against the build before it (fifty-sixth session, two rounds):
    /// C2C 1.018x over the 62 lengths it changes that had no wisdom entry (rows of 73 as 9 x 8
    /// 0.99x: their wisdom now holds what runs faster), R2C 1.017x and C2R 1.040x over 86.
    /// Rows longer than one launch's 1D lengths (the rows of N-d plans, up to 16384 points)
    /// keep their count: not measured there. So does a row whose device takes fewer threads
    /// a block.
    pub(super) fn with_nearly_even_threads(self, limits: DeviceLimits) -> FftRecipe {
        let measured = self.problem.len <= MAX_SINGLE_LAUNCH_LEN && self.tuning.transforms_per_block == 1;
        if !self.is_f32_rader_row_of_several_dfts() || !measured {
            return self;
        }
        let nearly_even = self.core.nearly_even_threads(self.tuning.threads_per_transform, (6, 5));
        match nearly_even.map(|threads| self.with_threads_keeping_block(threads)) {
            Some(retuned) if retuned.check(limits).is_ok() => retuned,
            _ => self,
        }
    }

    /// Whether this is an f32 Rader row of [`RADER_FEWER_PASSES_MIN_DFTS`] DFTs or more (the
    /// rows `rader_in_fewer_passes` repacks), on plain rows (no strided io, no cluster): the
    /// rows these rules were measured on, every one of six DFTs or more.
    fn is_f32_rader_row_of_several_dfts(&self) -> bool {
        let Core::Rader { len, prime, .. } = self.core else { return false };
        self.problem.precision == Precision::F32 && len / prime >= RADER_FEWER_PASSES_MIN_DFTS && self.io.is_none() && self.cluster.is_none()
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{Core, DeviceLimits, FftProblem, FftRecipe};

    fn design(problem: FftProblem) -> FftRecipe {
        FftRecipe::design_by_heuristic(problem, DeviceLimits::H200).unwrap()
    }

    fn dfts(r: &FftRecipe) -> usize {
        match r.core {
            Core::Rader { len, prime, .. } => len / prime,
            _ => 0,
        }
    }

    #[test]
    fn rader_rows_across_several_dfts_are_unpadded() {
        // Measured: 4041 = 9 x 449 and 1016 = 8 x 127 were padded, across.
        for n in [4041, 1016] {
            let r = design(FftProblem::c2c(n, 100));
            assert!(dfts(&r) >= 6 && r.tuning.lanes_across_dfts && !r.tuning.is_padded(), "{n}: {}", r.describe());
        }
        // Along the DFTs the padding stays (1542 = 6 x 257 ran 0.50x without it).
        let along = design(FftProblem::c2c(1542, 100));
        assert!(!along.tuning.lanes_across_dfts && along.tuning.is_padded(), "{}", along.describe());
        // f64 is left as the layout model has it: 679 = 7 x 97, across, stays padded.
        let f64 = design(FftProblem::c2c(679, 100).f64());
        assert!(dfts(&f64) == 7 && f64.tuning.lanes_across_dfts && f64.tuning.is_padded(), "{}", f64.describe());
    }

    #[test]
    fn wide_rader_rows_take_three_blocks_unless_long_codelets_would_spill() {
        // 2493 = 9 x 277 on 277 threads (78 registers under three blocks).
        let r = design(FftProblem::c2c(2493, 100));
        assert!(r.uses_rader() && r.threads_per_block() == 277 && r.tuning.min_blocks_per_sm == 3, "{}", r.describe());
        // 3846 = 6 x 641 as 32 x 20 on 321 threads would keep 68, 4062 = 6 x 677 as 26 x 26 on
        // 339 threads 64: two blocks.
        for (n, codelet) in [(3846, 32), (4062, 26)] {
            let long = design(FftProblem::c2c(n, 100));
            assert!(long.uses_rader() && long.core.codelet_radices().last() == Some(&codelet) && long.tuning.min_blocks_per_sm == 2, "{}", long.describe());
        }
    }

    #[test]
    fn rader_rows_take_a_thread_per_butterfly_where_a_fifth_more_threads_do() {
        // 1233 = 9 x 137: the convolution's radix-8 pass has 153 butterflies, the outer radix-9
        // pass 137.
        let r = design(FftProblem::c2c(1233, 100));
        assert_eq!(r.core.pass_butterflies().iter().map(|&(_, b)| b).max(), Some(153), "{}", r.describe());
        assert!(dfts(&r) == 9 && r.tuning.threads_per_transform == 153 && r.tuning.transforms_per_block == 1, "{}", r.describe());
        // Every pass then takes one round.
        assert!(r.core.pass_butterflies().iter().all(|&(_, b)| b <= 153));
        // f64 keeps its count (not measured), as do rows past 4096 points: 4097 = 17 x 241 as
        // 16 x 15 then 17, whose radix-15 pass has 272 butterflies and its radix-16 pass 255.
        let f64 = design(FftProblem::c2c(1233, 100).f64());
        assert!(f64.uses_rader() && f64.tuning.threads_per_transform < 153, "{}", f64.describe());
        let long = FftRecipe::design_row_by_heuristic(FftProblem::c2c(4097, 100), DeviceLimits::H200).unwrap();
        assert!(dfts(&long) == 17 && long.tuning.threads_per_transform == 255, "{}", long.describe());
        // A device of at most 150 threads a block keeps the 137.
        let small = DeviceLimits { max_threads: 150, ..DeviceLimits::H200 };
        let r = FftRecipe::design_by_heuristic(FftProblem::c2c(1233, 100), small).unwrap();
        assert!(dfts(&r) == 9 && r.tuning.threads_per_transform == 137, "{}", r.describe());
    }
}
