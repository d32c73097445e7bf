//! Where Bluestein's heuristic tuning (`FftRecipe::design_around`) was measured to lose, and
//! what ran faster instead: whole-row convolutions of some lengths in three passes of longer
//! codelets (`with_long_codelet_convolution`), and on a factor, rows of an odd number of lines
//! without padding (`with_unpadded_odd_lines`). Bluestein on a factor p of N = m x p runs m
//! convolutions, one per line of the row, the lines interleaved in shared memory; with m odd,
//! our reading (not profiled) is that the interleave already spreads a warp's accesses over
//! the banks, so that the padding the layout model adds costs more than it saves.

use super::factor::LARGEST_COMPOSITE_CODELET;
use super::problem::Precision;
use super::recipe::{Core, DeviceLimits, FftRecipe, FftTuning, RealPacking};

/// Whole-row Bluestein convolutions (of [`super::factor::FAST_CONVOLUTION_LENGTHS`]) whose f32
/// C2C kernels ran faster packed in codelets of up to LARGEST_COMPOSITE_CODELET points than
/// of up to 16: four passes become three (6174 = 14 x 9 x 7 x 7 as 21 x 21 x 14, 8192 =
/// 16 x 16 x 16 x 2 as 32 x 32 x 8). Per length, geometric mean over the sampled N (H200,
/// twenty-fourth session, `--suite variants --variants 'radix<=32'` over every other Bluestein
/// length in 2..4096, docs/BENCHMARKS.md): 2646 1.08x, 4725 1.03x, 5103 1.07x, 5625 1.09x,
/// 5670 1.14x, 6174 1.11x, 7938 1.10x, 8192 1.45x; each N within 6% of its length's mean
/// (238 lengths in all; same-run A/B 1.148x). 3240, 3750, 4374 and 7056 lost (0.87x..0.99x),
/// and so did three-pass convolutions that would take two (0.60x..0.84x from 900 points on);
/// 4096 (three passes either way) ran 1.02x, left as it was.
const LONG_CODELET_CONVOLUTIONS: [usize; 8] = [2646, 4725, 5103, 5625, 5670, 6174, 7938, 8192];

/// Fewest lines from which f32 Bluestein on a factor, with an odd number of lines, drops its
/// padding. Three lines of a power-of-two convolution ran 0.93x unpadded (34 lengths,
/// 1024 and 2048 points); three lines of other convolutions gained 1.10x (8 lengths), left
/// padded with the powers of two for one rule.
const UNPADDED_MIN_ODD_LINES: usize = 5;

impl FftRecipe {
    /// f32 Bluestein over the whole row (of any kind), by a convolution of
    /// LONG_CODELET_CONVOLUTIONS: its radices packed up to LARGEST_COMPOSITE_CODELET, the
    /// tuning designed around them. Measured on R2C and C2R too (the same variant over every
    /// other such length, 97 each whose variant is this design): 1.13x and 1.15x, worst 0.99x.
    pub(super) fn with_long_codelet_convolution(self, limits: DeviceLimits) -> FftRecipe {
        let Core::Bluestein { len, factor, conv_len, .. } = self.core else { return self };
        let applies = self.problem.precision == Precision::F32
            && self.io.is_none()
            && factor == len
            && LONG_CODELET_CONVOLUTIONS.contains(&conv_len);
        let redesigned = || {
            let core = Core::bluestein(len, len, conv_len, LARGEST_COMPOSITE_CODELET)?;
            FftRecipe::design_around(self.problem, core, limits).ok()
        };
        applies.then(redesigned).flatten().unwrap_or(self)
    }

    /// f32 Bluestein on a factor with an odd number of lines, at least UNPADDED_MIN_ODD_LINES,
    /// over complex rows (C2C, and R2C and C2R of odd N, widened): no padding. Measured on an
    /// H200 (twenty-fourth session, `--suite variants --variants 'no padding'` over the 609
    /// padded f32 C2C Bluestein lengths in 2..4096, docs/BENCHMARKS.md): these 47 lengths 1.19x
    /// as a geometric mean (5, 7 and 9 lines of 256..1600-point convolutions; 3269 = 7 x 467
    /// 1.62x), worst 0.98x; the same lengths in R2C and C2R 1.17x (worst 0.93x), in f64 1.07x
    /// but down to 0.88x (left padded). Padding won for even numbers of lines of power-of-two
    /// convolutions (0.83x..0.95x unpadded) and over whole rows (0.70x..0.95x). Half-length
    /// cores (R2C and C2R of even N) were not measured.
    pub(super) fn with_unpadded_odd_lines(self) -> FftRecipe {
        let Core::Bluestein { len, factor, .. } = self.core else { return self };
        let lines = len / factor;
        let applies = self.problem.precision == Precision::F32
            && self.packing != RealPacking::HalfLength
            && self.io.is_none()
            && lines % 2 == 1
            && lines >= UNPADDED_MIN_ODD_LINES
            && self.tuning.is_padded();
        self.retuned_if(applies, FftTuning::drop_padding)
    }
}

#[cfg(test)]
mod tests {
    use super::Core;
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn some_whole_row_convolutions_take_longer_codelets() {
        let design = |p: FftProblem| FftRecipe::design(p, H200).unwrap();
        let radices = |r: &FftRecipe| match &r.core {
            Core::Bluestein { len, factor, conv_len, radices, .. } if factor == len => (*conv_len, radices.clone()),
            other => panic!("{other:?}"),
        };
        // 2843 (6174 points) and 4093 (8192): three passes of up to 32 points.
        assert_eq!(radices(&design(FftProblem::c2c(2843, 100))), (6174, vec![21, 21, 14]));
        assert_eq!(radices(&design(FftProblem::c2c(4093, 100))), (8192, vec![32, 32, 8]));
        // R2C's odd rows (widened) and C2R's half-length cores too.
        assert_eq!(radices(&design(FftProblem::r2c(2843, 100))), (6174, vec![21, 21, 14]));
        assert_eq!(radices(&design(FftProblem::c2r(2566, 100))), (2646, vec![21, 21, 6]));
        // 3089 (7056 points) stays in radices of up to 16, and so does f64.
        assert!(radices(&design(FftProblem::c2c(3089, 100))).1.iter().all(|&r| r <= 16));
        assert!(radices(&design(FftProblem::c2c(2843, 100).f64())).1.iter().all(|&r| r <= 16));
        // A radix cap asked for is kept.
        let capped = FftRecipe::design_with_radix_cap(FftProblem::c2c(2843, 100), H200, 16).unwrap();
        assert!(radices(&capped).1.iter().all(|&r| r <= 16));
    }

    #[test]
    fn bluestein_on_five_or_more_odd_lines_drops_its_padding() {
        let design = |p: FftProblem| FftRecipe::design(p, H200).unwrap();
        // 3269 = 7 x 467 (seven 1024-point convolutions) and 3563 = 7 x 509: unpadded.
        for n in [3269, 3563] {
            let r = design(FftProblem::c2c(n, 100));
            assert!(r.uses_bluestein() && !r.tuning.is_padded(), "{}", r.kernel_name());
        }
        // So does R2C's odd row, widened to complex.
        let r = design(FftProblem::r2c(3269, 100));
        assert!(!r.tuning.is_padded(), "{}", r.kernel_name());
        // Three lines (2931 = 3 x 977, 2048-point convolutions) and two (3214 = 2 x 1607) stay
        // padded; so do f64 and R2C's half-length core of 1030 = 2 x 5 x 103.
        for p in [FftProblem::c2c(2931, 100), FftProblem::c2c(3214, 100), FftProblem::c2c(3269, 100).f64(), FftProblem::r2c(1030, 100)] {
            let r = design(p);
            assert!(r.uses_bluestein() && r.tuning.pad_shift.is_some(), "{}", r.kernel_name());
        }
    }
}
