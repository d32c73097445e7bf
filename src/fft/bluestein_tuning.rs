//! Where Bluestein's heuristic tuning (`FftRecipe::design_around`) was measured to lose, and
//! what ran faster instead: whole-row convolutions of some lengths in three passes of longer
//! codelets (`with_long_codelet_convolution`), and on a factor, rows of an odd number of lines
//! without padding (`with_unpadded_odd_lines`). Bluestein on a factor p of N = m x p runs m
//! convolutions, one per line of the row, the lines interleaved in shared memory; with m odd,
//! our reading (not profiled) is that the interleave already spreads a warp's accesses over
//! the banks, so that the padding the layout model adds costs more than it saves.

use super::factor::{whole_row_bluestein_len, LARGEST_COMPOSITE_CODELET};
use super::problem::Precision;
use super::recipe::{DeviceLimits, FftRecipe, FftTuning, RealPacking};
use super::transform_core::Core;

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

/// Whole-row f32 convolutions that take 8192 points in 32 x 32 x 8 instead: per row, the
/// thirtieth session's sweep (H200, every N of 2..4096, docs/fft/sweep-thirtieth-c2c-f32-h200.csv)
/// timed 8192 points at 49.0 ns, 7056 = 14 x 14 x 9 x 4 at 52.5 and 7938 = 21 x 21 x 18 at
/// 59.9 (medians over 46, 40 and 56 lengths). FAST_CONVOLUTION_LENGTHS was fitted before 8192
/// took three passes of long codelets. Same-run A/B over the 96 lengths (thirty-first session,
/// docs/BENCHMARKS.md): C2C 1.197x, R2C 1.156x, C2R 1.160x, none under 1.04x.
const ROUNDED_UP_TO_8192: [usize; 2] = [7056, 7938];

/// Whether f32 Bluestein on a factor, by convolutions of `conv_len` points, runs slower than
/// the whole row by 8192 points in 32 x 32 x 8, where the whole row's convolution has 7056
/// points or more. Measured on an H200 (thirty-first session, `--suite variants --variants
/// 'bluestein whole'` over every C2C length from 2588 on that runs on a factor,
/// docs/BENCHMARKS.md): two lines of 4096 points 1.34x (45 lengths), four of 2048 1.25x (20),
/// three of 2400 or 2520 1.40x; 99 lengths with convolutions of 2048 or more 1.26x, of which
/// only three lines of 2100 = 15 x 14 x 10 lost (0.90x, 4 lengths, hence the gap). Shorter
/// convolutions, 4 to 48 lines a row, came out 1.04x as a geometric mean but from 0.74x to
/// 1.79x length by length, with nothing we found to tell which: no rule.
fn factor_convolution_slower_than_whole_row(conv_len: usize) -> bool {
    conv_len == 2048 || conv_len >= 2160
}

/// The convolution length an f32 whole row of `conv_len` points (by
/// `whole_row_bluestein_len`) runs in long codelets: LONG_CODELET_CONVOLUTIONS as they are,
/// ROUNDED_UP_TO_8192 as 8192; None for the rest, which keep radices of up to 16.
fn long_codelet_convolution_len(conv_len: usize) -> Option<usize> {
    if ROUNDED_UP_TO_8192.contains(&conv_len) {
        Some(8192)
    } else {
        LONG_CODELET_CONVOLUTIONS.contains(&conv_len).then_some(conv_len)
    }
}

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
        let long = long_codelet_convolution_len(conv_len).filter(|_| self.problem.precision == Precision::F32 && self.io.is_none() && factor == len);
        long.and_then(|m| self.whole_row_in_long_codelets(m, limits)).unwrap_or(self)
    }

    /// This recipe's problem by Bluestein over the whole row, convolutions of `conv_len`
    /// points in codelets of up to LARGEST_COMPOSITE_CODELET; None where that does not fit.
    fn whole_row_in_long_codelets(&self, conv_len: usize, limits: DeviceLimits) -> Option<FftRecipe> {
        let core = Core::bluestein(self.core.len(), self.core.len(), conv_len, LARGEST_COMPOSITE_CODELET)?;
        FftRecipe::design_around(self.problem, core, limits).ok()
    }

    /// f32 Bluestein on a factor (of any kind's complex rows) whose convolutions
    /// `factor_convolution_slower_than_whole_row`: over the whole row instead, where its
    /// convolution would be ROUNDED_UP_TO_8192 or 8192 points, in 32 x 32 x 8.
    pub(super) fn with_whole_row_over_long_factor_convolutions(self, limits: DeviceLimits) -> FftRecipe {
        let Core::Bluestein { len, factor, conv_len, .. } = self.core else { return self };
        let applies = self.problem.precision == Precision::F32
            && self.io.is_none()
            && factor < len
            && factor_convolution_slower_than_whole_row(conv_len)
            && long_codelet_convolution_len(whole_row_bluestein_len(len)) == Some(8192);
        applies.then(|| self.whole_row_in_long_codelets(8192, limits)).flatten().unwrap_or(self)
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
        let design = |p: FftProblem| FftRecipe::design_by_heuristic(p, H200).unwrap();
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
        // 3089 and 3541 (7056 and 7938 points) take 8192, in every kind; f64 keeps 7056 points
        // in radices of up to 16.
        for p in [FftProblem::c2c(3089, 100), FftProblem::c2c(3541, 100), FftProblem::r2c(3089, 100), FftProblem::c2r(3541, 100)] {
            assert_eq!(radices(&design(p)), (8192, vec![32, 32, 8]), "{p:?}");
        }
        assert_eq!(radices(&design(FftProblem::c2c(3089, 100).f64())), (7056, vec![14, 14, 9, 4]));
        assert!(radices(&design(FftProblem::c2c(2843, 100).f64())).1.iter().all(|&r| r <= 16));
        // A radix cap asked for is kept.
        let capped = FftRecipe::design_with_radix_cap(FftProblem::c2c(2843, 100), H200, 16).unwrap();
        assert!(radices(&capped).1.iter().all(|&r| r <= 16));
    }

    #[test]
    fn long_convolutions_on_a_factor_run_the_whole_row_in_8192_points() {
        let conv = |p: FftProblem| match FftRecipe::design_by_heuristic(p, H200).unwrap().core {
            Core::Bluestein { len, factor, conv_len, radices, .. } => (len / factor, conv_len, radices),
            other => panic!("{other:?}"),
        };
        // 3194 = 2 x 1597 (two lines of 4096 points), 3284 = 4 x 821 (four of 2048) and
        // 3974 = 2 x 1987: the whole row in 32 x 32 x 8, C2C and R2C / C2R of odd length.
        for p in [FftProblem::c2c(3194, 100), FftProblem::c2c(3284, 100), FftProblem::c2c(3974, 100), FftProblem::r2c(3183, 100)] {
            assert_eq!(conv(p), (1, 8192, vec![32, 32, 8]), "{p:?}");
        }
        // Three lines of 2100 points (3093) stay on their factor, and so do f64 and rows whose
        // whole-row convolution is shorter (2962 = 2 x 1481: 6174). (Eight lines of 1024,
        // 3272 = 8 x 409, run Rader since the forty-third session: 408 = 8 x 3 x 17.)
        assert_eq!(conv(FftProblem::c2c(3093, 100)).0, 3);
        assert!(FftRecipe::design_by_heuristic(FftProblem::c2c(3272, 100), H200).unwrap().uses_rader());
        assert_eq!(conv(FftProblem::c2c(3194, 100).f64()).0, 2);
        assert_eq!(conv(FftProblem::c2c(2962, 100)).0, 2);
    }

    #[test]
    fn bluestein_on_five_or_more_odd_lines_drops_its_padding() {
        let design = |p: FftProblem| FftRecipe::design_by_heuristic(p, H200).unwrap();
        // 3269 = 7 x 467 (seven 1024-point convolutions) and 3563 = 7 x 509: unpadded.
        for n in [3269, 3563] {
            let r = design(FftProblem::c2c(n, 100));
            assert!(r.uses_bluestein() && !r.tuning.is_padded(), "{}", r.kernel_name());
        }
        // So does R2C's odd row, widened to complex.
        let r = design(FftProblem::r2c(3269, 100));
        assert!(!r.tuning.is_padded(), "{}", r.kernel_name());
        // Three lines (2931 = 3 x 977, 2048-point convolutions) and two (3214 = 2 x 1607) stay
        // padded; so do f64 and R2C's half-length core of 1070 = 2 x 5 x 107.
        for p in [FftProblem::c2c(2931, 100), FftProblem::c2c(3214, 100), FftProblem::c2c(3269, 100).f64(), FftProblem::r2c(1070, 100)] {
            let r = design(p);
            assert!(r.uses_bluestein() && r.tuning.pad_shift.is_some(), "{}", r.kernel_name());
        }
    }
}
