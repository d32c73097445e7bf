//! Threads for rows whose in-place passes would hold more values per thread than registers
//! keep.
//!
//! In place, a thread reads every value of its butterflies in a pass before the barrier and
//! writes them after it (codegen/passes.rs), so a pass of `rounds` butterflies of radix `r`
//! holds `rounds x r` values at once. Rows whose widest codelet is a large prime get one
//! thread per butterfly of that pass, and the other passes then take several rounds: 3538 =
//! 61 x 29 x 2 with 58 threads holds three 29-point butterflies, 87 values. ptxas gave such
//! kernels 246..255 registers a thread (no spills), at most 8 warps a multiprocessor; with a
//! few more threads they take the 168 their 61-point codelet needs anyway. Such rows ran at
//! 0.16..0.30 of copy where their neighbours ran at 0.45..0.55.

use super::problem::{FftKind, Precision};
use super::recipe::{DeviceLimits, FftRecipe, RealPacking};
use super::transform_core::Core;

/// Most complex values a thread of an f32 row may hold in one pass (128 registers) before the
/// row takes more threads; a pass of one butterfly of a wider codelet holds that codelet.
const HELD_VALUES_CAP: usize = 64;

impl FftRecipe {
    /// f32 Stockham rows, C2C or the half-length core of an even real length, some pass of
    /// which holds more than [`HELD_VALUES_CAP`] values a thread (and more than the widest
    /// codelet): the fewest more threads that bring every pass under that.
    ///
    /// Measured on an H200 (thirtieth session, same-run A/Bs of `bench fft --suite sweep` and
    /// `--suite real` over every length the rule changes, docs/BENCHMARKS.md): 103 C2C lengths
    /// 1.156x (geometric mean; 2867 = 61 x 47 2.98x, 3538 = 61 x 29 x 2 2.08x, 3657 1.26x),
    /// 50 even R2C 1.123x and C2R 1.073x; 21 of the 203 ran under 0.95x, most of them rows of a
    /// 53-point codelet whose widest pass the added threads leave partly idle (1219 = 53 x 23
    /// with 27 threads, not 23: 0.82x). One thread per butterfly of the offending pass, as
    /// the twenty-fifth session's variants had timed, ran no faster than the fewest threads
    /// (3657 0.99x, 4071 0.97x). Not applied:
    /// - f64 (a cap of 32 values, 128 registers as well: 178 of 711 lengths sampled, 0.964x);
    /// - odd real lengths, whose rows are widened to complex (54 lengths: R2C 1.20x but 689 =
    ///   53 x 13 0.47x and 767 0.52x, C2R 1.11x with 9 under 0.97x);
    /// - a cap of 48 values (84 more C2C lengths sampled: 0.996x, 27 slower by 3% or more).
    pub(super) fn with_threads_for_held_values(self, limits: DeviceLimits) -> FftRecipe {
        let Core::Stockham { .. } = self.core else { return self };
        let t = self.tuning;
        let measured = self.problem.precision == Precision::F32 && (self.problem.kind == FftKind::C2C || self.packing == RealPacking::HalfLength);
        let widest = self.core.codelet_radices().last().copied().unwrap_or(1);
        let cap = HELD_VALUES_CAP.max(widest);
        if !measured || self.io.is_some() || t.ping_pong || self.most_values_held() <= cap {
            return self;
        }
        let fewest = (t.threads_per_transform + 1..=limits.max_threads).find(|&w| self.most_values_held_by(w) <= cap);
        let Some(threads) = fewest else { return self };
        FftRecipe::design_around_threads(self.problem, self.core.clone(), Some(threads), limits).unwrap_or(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    fn design(p: FftProblem) -> FftRecipe {
        FftRecipe::design_by_heuristic(p, DeviceLimits::H200).unwrap()
    }

    #[test]
    fn rows_take_threads_until_no_pass_holds_more_than_64_values() {
        // 3538 = 61 x 29 x 2: 58 threads hold 87 values in the radix-29 pass; 61 hold 58.
        let r = design(FftProblem::c2c(3538, 1000));
        assert_eq!(r.tuning.threads_per_transform, 61, "{}", r.kernel_name());
        assert!(r.most_values_held() <= 64);
        // 3657 = 53 x 23 x 3: 69 threads hold 69 in the radix-23 pass.
        let r = design(FftProblem::c2c(3657, 1000));
        assert!(r.most_values_held() <= 64 && r.tuning.threads_per_transform > 69, "{}", r.kernel_name());
        // 3074 = 53 x 29 x 2 holds 58 with 58 threads and keeps them.
        assert_eq!(design(FftProblem::c2c(3074, 1000)).tuning.threads_per_transform, 58);
        // The even real 3538's half-length core is 1769 = 61 x 29: 29 threads hold 58 + 29.
        for p in [FftProblem::r2c(3538, 1000), FftProblem::c2r(3538, 1000)] {
            let r = design(p);
            assert!(r.tuning.threads_per_transform > 29 && r.most_values_held() <= 64, "{}", r.kernel_name());
        }
    }

    #[test]
    fn f64_and_odd_real_rows_keep_their_threads() {
        // Measured slower: f64 (0.964x) and odd real rows (689 = 53 x 13 R2C 0.47x).
        let keeps = |p: FftProblem| {
            let r = design(p);
            let alone = FftRecipe::design_around(r.problem, r.core.clone(), DeviceLimits::H200).unwrap();
            r.tuning.threads_per_transform == alone.tuning.threads_per_transform
        };
        assert!(keeps(FftProblem::c2c(3538, 100).f64()));
        assert!(keeps(FftProblem::r2c(689, 100)) && keeps(FftProblem::c2r(689, 100)));
        assert!(design(FftProblem::r2c(689, 100)).most_values_held() > 64);
    }
}
