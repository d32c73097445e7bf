//! Where mirror pairs (codegen/mirror.rs) take their pair twiddles W^i, W = e^{-2 pi i/N}: a
//! real transform's last pass (R2C) or first (C2R) that writes or reads its half spectrum
//! itself needs W^i for each value i = p + c it separates or rebuilds, c = k S a literal.
//! The rule reads each from the real-twiddle table. Stepped, a thread reads W^p once and
//! multiplies it by the literal W^c for each other value (pair 0's second butterfly,
//! S/2, takes literals alone): a complex multiply for each table load saved.
//!
//! Why: Nsight Compute found R2C f32 4096 missing L1 on 1.1 M more global sectors than its
//! input holds (its 8 blocks a multiprocessor leave 88 KiB of L1 beside 168 KiB of shared
//! memory) and counting 5% more L2 sectors than cuFFT's kernel for the same DRAM bytes, 4%
//! longer; fewer table loads ask less of L1 and L2, more multiplies more of the issue slots.
//!
//! Why a choice, not the rule: in the variants suite on an H200 (eighty-seventh session,
//! docs/BENCHMARKS.md, three rounds) stepped ran 1.013x over the 155 R2C f32 picks with
//! mirror pairs (11 faster by 3% in every round, none slower; 4096 1.02x), but 1.009x over
//! 55 wisdom kernels with one 3.5% slower (1848); over mirror kernels not picked, C2R f32
//! 1.034x (332; 8 slower by 3%), C2R f64 1.038x (164; 2 slower), R2C f64 1.018x (173).
//! The tuning's `stepped_pair_twiddles` holds the variant's choice where the wisdom measured
//! it faster: 96 entries.

use super::recipe::{ruled_choice, ruled_choice_suffix, FftRecipe};

impl FftRecipe {
    /// Whether the kernel's pair twiddles may be stepped: its core's own pass reads or writes
    /// the half spectrum as mirror pairs.
    pub fn can_step_pair_twiddles(&self) -> bool {
        self.pairs_in_core_pass()
    }

    /// Whether the mirror pairs read W^p once and step it by literals: where they can, as the
    /// tuning says (a variant's choice); the rule reads every W^i from the table.
    pub fn steps_pair_twiddles(&self) -> bool {
        ruled_choice(self.can_step_pair_twiddles(), self.tuning.stepped_pair_twiddles, || false)
    }

    /// The kernel-name suffix of pair twiddles other than the rule's: `_stw` (stepped); empty
    /// where the rule decides (`ruled_choice_suffix`).
    pub(crate) fn pair_twiddle_name_suffix(&self) -> &'static str {
        ruled_choice_suffix(self.can_step_pair_twiddles(), self.tuning.stepped_pair_twiddles, || false, "_stw", "")
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::codegen::fft_source;
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    /// R2C 4096's mirror pass (radix 8 over 2048 points: S = 256, 128 pairs on 128 threads)
    /// reads a twiddle a value of butterfly p by the rule, and with the variant W^p once, those
    /// of butterfly S/2 = 128 as literals; C2R's mirror reads (radix 16) likewise. Rows without mirror pairs
    /// offer no choice.
    #[test]
    fn the_variant_reads_one_pair_twiddle_a_butterfly() {
        for problem in [FftProblem::r2c(4096, 1000), FftProblem::c2r(4096, 1000)] {
            let mut pick = FftRecipe::design_by_heuristic(problem, H200).unwrap();
            (pick.tuning.half_spectrum_pairs, pick.tuning.mirror_pairs) = (true, true);
            assert!(pick.can_step_pair_twiddles() && !pick.steps_pair_twiddles(), "{problem:?}");
            let (_, variant) = pick.variants(H200).into_iter().find(|(what, _)| what == "stepped pair twiddles").expect("offered");
            assert!(variant.steps_pair_twiddles());
            assert_eq!(variant.kernel_name(), format!("{}_stw", pick.kernel_name()));
            let table_reads = |r: &FftRecipe| fft_source(r).body.matches("(tables + p)[").count();
            assert!(table_reads(&pick) >= 8 && table_reads(&variant) == 1, "{problem:?}");
            let body = fft_source(&variant).body;
            assert!(body.match_indices("(tables + ").all(|(at, _)| !body[at + 10..].starts_with(|c: char| c.is_ascii_digit())), "{problem:?}");
        }
        let staged = FftRecipe::design_by_heuristic(FftProblem::r2c(1024, 1000), H200).unwrap();
        assert!(!staged.pairs_in_core_pass() && !staged.can_step_pair_twiddles());
        assert!(!staged.variants(H200).iter().any(|(what, _)| what == "stepped pair twiddles"));
    }
}
