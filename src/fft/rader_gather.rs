//! Where a Rader row's convolution reads its first values: gathered by its first pass from
//! global memory, with no load into shared memory before it (one trip through shared memory
//! and a barrier fewer), or from the row loaded into shared memory, as before the
//! fifty-seventh session (docs/BENCHMARKS.md).
//!
//! Global memory can serve the gather where consecutive threads take consecutive DFTs
//! ([`FftTuning::lanes_across_dfts`](super::FftTuning::lanes_across_dfts)): a warp then reads
//! runs of one value a DFT. Whether that pays was measured per kind, not per length: the
//! shared-memory traffic it saves (14-18% of the wavefronts) mattered less than what ptxas
//! made of the registers (a block a multiprocessor more or less) and than runs too short for
//! whole sectors. So [`FftRecipe::gather_from_global_rule`] takes it where it ran faster on
//! average, and the tuning's `rader_global_gather` holds a variant's other choice where the
//! wisdom measured it faster at a length.

use super::problem::{FftKind, Precision};
use super::recipe::{ruled_choice, ruled_choice_suffix, FftRecipe};
use super::transform_core::Core;

/// Longest row that gathers from global memory by the rule: the lengths measured; the longer
/// rows of N-d and multi-pass plans load as before.
const GLOBAL_GATHER_RULE_MAX_LEN: usize = 4096;

impl FftRecipe {
    /// Whether the row can gather from global memory: a Rader core of several DFTs with
    /// direct_io and lanes across the DFTs, reading its input element by element.
    pub fn can_gather_from_global(&self) -> bool {
        let t = &self.tuning;
        self.uses_rader() && t.direct_io && t.lanes_across_dfts && self.reads_input_elementwise()
    }

    /// Whether the heuristic gathers from global memory where it can: rows up to 4096 points
    /// of at least `least` DFTs. Same-run A/B on an H200 against the load (fifty-seventh
    /// session, two rounds): f64 C2C 1.038x over 201 lengths, R2C f32 1.038x over 166 (odd
    /// lengths, whose gather reads reals, 1.052x), C2R f32 1.04x-1.07x from 12 DFTs
    /// (0.85x-0.95x under), rows of two DFTs 0.98x-0.99x; C2C f32 0.999x over 395 lengths
    /// (0.87x-1.13x), so not there. The rule on other lengths: R2C f32 1.043x, C2R f32
    /// 1.063x, f64 C2C / R2C / C2R 1.04x-1.07x.
    pub(crate) fn gather_from_global_rule(&self) -> bool {
        let Core::Rader { len, prime, .. } = self.core else { return false };
        let least = match (self.problem.kind, self.problem.precision) {
            (FftKind::C2C, Precision::F32) => return false,
            (FftKind::C2R, Precision::F32) => 12,
            _ => 3,
        };
        self.problem.len <= GLOBAL_GATHER_RULE_MAX_LEN && len / prime >= least
    }

    /// Whether the kernel gathers from global memory: where it can, as the tuning says (a
    /// variant's choice) or else as the rule does.
    pub fn gathers_from_global(&self) -> bool {
        ruled_choice(self.can_gather_from_global(), self.tuning.rader_global_gather, || self.gather_from_global_rule())
    }

    /// The kernel-name suffix of a gather other than the rule's: `_gg` (from global memory)
    /// or `_gs` (from shared memory); empty where the rule decides (`ruled_choice_suffix`).
    pub(crate) fn gather_name_suffix(&self) -> &'static str {
        ruled_choice_suffix(self.can_gather_from_global(), self.tuning.rader_global_gather, || self.gather_from_global_rule(), "_gg", "_gs")
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe, Precision};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn the_gather_follows_the_rule_unless_a_variant_chose_otherwise() {
        // C2C f32 1616 = 16 x 101 loads by the rule; its variant gathers from global memory
        // and says so in its name, and that variant's own variant is the pick's kernel again.
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(1616, 10), H200).unwrap();
        assert!(pick.can_gather_from_global() && !pick.gathers_from_global());
        let variants = pick.variants(H200);
        let (_, global) = variants.iter().find(|(name, _)| name == "gather from global").expect("a gather variant");
        assert!(global.gathers_from_global());
        assert_eq!(global.kernel_name(), format!("{}_gg", pick.kernel_name()));
        let back = global.variant_named(H200, "gather from shared").unwrap();
        assert!(!back.gathers_from_global() && back.kernel_name() == pick.kernel_name());
        // f64 1616 gathers from global memory by the rule: no suffix; its variant loads, `_gs`.
        let f64 = FftRecipe::design_by_heuristic(FftProblem::c2c(1616, 10).precision(Precision::F64), H200).unwrap();
        assert!(f64.gathers_from_global() && !f64.kernel_name().contains("_g"));
        let shared = f64.variant_named(H200, "gather from shared").unwrap();
        assert!(!shared.gathers_from_global() && shared.kernel_name().ends_with("_gs"), "{}", shared.kernel_name());
        // Rows that cannot gather from global memory have no such variant: a prime row.
        let prime = FftRecipe::design_by_heuristic(FftProblem::c2c(1009, 10), H200).unwrap();
        assert!(prime.uses_rader() && !prime.can_gather_from_global());
        assert!(prime.variants(H200).iter().all(|(name, _)| !name.starts_with("gather")));
    }
}
