//! Which trips of a pass guard their butterflies. A pass of B butterflies on a row's w threads
//! runs ceil(B / w) trips, butterfly j = t + q w in trip q; where w does not divide B the last
//! trip runs past B and needs `if (j < B)`. The rule guards every trip of such a pass: the
//! compiler cannot fold the guard (it does not know t < w), so each trip is a branch of its own,
//! and C2R 468's last pass (radix 2 over 7 trips) loads each trip's twiddle inside its branch and
//! waits on it. Guarding the last trip alone lets ptxas hoist the other trips' loads: fewer
//! instructions, but often more registers.
//!
//! In every kernel that form ran 1.002x-1.015x over the rule in a same-run A/B (eighty-fifth
//! session), about the run order's own 1.012x, with large codelets down to 0.85x (C2C 708,
//! radices 59x12: 168 -> 255 registers) and f64 rows down to 0.83x (R2C 110); yet dozens of
//! kernels ran 3% faster in both rounds (C2C 2851 1.058x, C2R 140 1.20x, f64 R2C 156 1.28x). So
//! it is a choice per kernel: the tuning's `partial_trip_guards` holds a variant's choice where
//! the wisdom measured it faster. The kernel code is codegen/passes.rs's `passes`.

use super::recipe::{ruled_choice, ruled_choice_suffix, FftRecipe};

impl FftRecipe {
    /// Whether guarding only the partial trip may change the kernel: a pass of its stages runs
    /// two trips or more and its last trip is partial. (Mirror pairs' passes, codegen/mirror.rs,
    /// guard each trip on its own already: where only they qualify, the variant is the pick's
    /// code under another name, which the variants suite times as equal.)
    pub fn can_guard_partial_trip_only(&self) -> bool {
        let w = self.tuning.threads_per_transform as usize;
        self.stages().iter().any(|stage| {
            stage.radices.iter().any(|&radix| {
                let butterflies = stage.len / radix * stage.subrows;
                butterflies > w && !butterflies.is_multiple_of(w)
            })
        })
    }

    /// Whether the kernel's passes guard only their partial trip: where that changes the kernel,
    /// as the tuning says (a variant's choice); the rule guards every trip.
    pub fn guards_partial_trip_only(&self) -> bool {
        ruled_choice(self.can_guard_partial_trip_only(), self.tuning.partial_trip_guards, || false)
    }

    /// The kernel-name suffix of trip guards other than the rule's: `_tg1` (the partial trip's
    /// alone); empty where the rule decides (`ruled_choice_suffix`).
    pub(crate) fn trip_guard_name_suffix(&self) -> &'static str {
        ruled_choice_suffix(self.can_guard_partial_trip_only(), self.tuning.partial_trip_guards, || false, "_tg1", "")
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::codegen::fft_source;
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    /// C2R 468's last pass (radix 2, 117 butterflies on 18 threads: 7 trips) guards its 7 trips
    /// by the rule, only the seventh with the variant; a length whose passes divide among their
    /// threads offers no choice.
    #[test]
    fn the_variant_guards_only_the_partial_trip() {
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2r(468, 1000), H200).unwrap();
        assert!(pick.can_guard_partial_trip_only() && !pick.guards_partial_trip_only());
        let guards = |r: &FftRecipe| fft_source(r).body.matches("if (j < 117u)").count();
        let (_, variant) = pick.variants(H200).into_iter().find(|(what, _)| what == "partial trip guards").expect("offered");
        assert!(variant.guards_partial_trip_only());
        assert_eq!(variant.kernel_name(), format!("{}_tg1", pick.kernel_name()));
        // Each trip's reads and writes: 14 guards by the rule, 2 with the variant.
        assert_eq!((guards(&pick), guards(&variant)), (14, 2));
        let even = FftRecipe::design_by_heuristic(FftProblem::c2c(4096, 1000), H200).unwrap();
        assert!(!even.can_guard_partial_trip_only());
        assert!(!even.variants(H200).iter().any(|(what, _)| what == "partial trip guards"));
    }
}
