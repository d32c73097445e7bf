//! Contiguous rows in fewer passes: composite codelets of 17 to 32 points (18, 20, 21, 22,
//! 24, 25, 26, 27, 28, 30, 32) where they save a pass over shared memory, for long rows and
//! for short f32 C2C rows of few threads (`in_two_short_passes`).
//!
//! The default packing ([`pack_radices`](super::factor::pack_radices)) stops at 16-point
//! composites, so 3125 takes five radix-5 passes and 754 = 29 x 13 x 2 three. Measured on an H200
//! (`bench fft --suite variants`, twelfth session, docs/BENCHMARKS.md), fewer passes won where
//! the row kept enough threads: 3125 as 25 x 25 x 5 ran 1.20x faster, 754 as 29 x 26 1.56x; but
//! 540 as 27 x 20 (20 threads, each holding a 27-point codelet) ran 0.73x. The rule below is
//! what separated the two over 442 lengths.

use super::factor::{is_prime, pack_fewest_passes, pack_radices_capped, LARGEST_COMPOSITE_CODELET, MAX_COMPOSITE_RADIX};
use super::recipe::{DeviceLimits, FftRecipe, RealPacking};
use super::transform_core::{rader_convolution_prime_limit, Core, MAX_PRIME_RADIX};
use super::problem::{FftKind, Precision};

/// Threads a row must keep when its widest pass is a composite codelet above 16 points.
const COMPOSITE_WIDEST_MIN_THREADS: u32 = 96;

/// Threads a row must keep when its widest pass is a prime codelet (mostly 17 to 61 points,
/// beside which the rest of the row merges into one composite pass): that pass and its thread
/// count are the same either way.
const PRIME_WIDEST_MIN_THREADS: u32 = 16;

/// Longest f32 C2C row that takes two passes where radices of up to [`SHORT_ROW_MAX_RADIX`]
/// allow, even with fewer threads (`in_two_short_passes`).
const SHORT_ROW_MAX_LEN: usize = 460;

/// Largest codelet of a short row's two passes.
const SHORT_ROW_MAX_RADIX: usize = 27;

/// Short rows planned with this many threads or more keep their passes.
const SHORT_ROW_MAX_THREADS: u32 = 30;

/// Longest half-length core (R2C and C2R of even N) given fewer passes: those of N up to 4096
/// ran 1.09x (R2C) and 1.03x (C2R) faster, the 8192-point core of a 16384-point R2C as 32 x 32 x
/// 8 0.81x (16 x 16 x 16 x 2 before).
const HALF_LENGTH_MAX_CORE: usize = 2048;

/// Rader rows of this many DFTs or more take their convolution and outer passes in the fewest
/// passes ([`FftRecipe::rader_in_fewer_passes`]), and the rules measured on those rows since
/// (rader_tuning.rs, `Core::codelet_split_rule`).
pub(super) const RADER_FEWER_PASSES_MIN_DFTS: usize = 6;

/// Caps on composite codelets for the greedy packing ([`pack_radices_capped`]) that the rule
/// searches and the variants benchmark times (`radix<=C`).
pub(crate) const LONG_CODELET_CAPS: [usize; 5] = [20, 24, 25, 27, LARGEST_COMPOSITE_CODELET];

/// Caps for the fewest-pass packing ([`pack_fewest_passes`]), searched and timed likewise
/// (`fewest passes<=C`).
pub(crate) const FEWEST_PASS_CAPS: [usize; 2] = [24, LARGEST_COMPOSITE_CODELET];

/// The fewest-pass packing of `len` under `cap`, primes up to the largest prime codelet.
pub(crate) fn fewest_pass_radices(len: usize, cap: usize) -> Option<Vec<usize>> {
    pack_fewest_passes(len, MAX_PRIME_RADIX, cap)
}

/// Radices of `len` allowed composite codelets beyond 16 points: the greedy packings under
/// [`LONG_CODELET_CAPS`] and the fewest-pass ones under [`FEWEST_PASS_CAPS`], each at most once.
fn packings_with_long_codelets(len: usize) -> Vec<Vec<usize>> {
    let greedy = LONG_CODELET_CAPS.into_iter().filter_map(|cap| pack_radices_capped(len, MAX_PRIME_RADIX, cap));
    let fewest = FEWEST_PASS_CAPS.into_iter().filter_map(|cap| fewest_pass_radices(len, cap));
    let mut out: Vec<Vec<usize>> = Vec::new();
    for radices in greedy.chain(fewest) {
        if !out.contains(&radices) {
            out.push(radices);
        }
    }
    out
}

impl FftRecipe {
    /// This Stockham recipe, or one of the same problem whose row takes fewer passes with
    /// composite codelets of up to 32 points, where the row keeps at least
    /// [`COMPOSITE_WIDEST_MIN_THREADS`] threads (or [`PRIME_WIDEST_MIN_THREADS`] when its
    /// widest pass is a prime codelet), or, f32 C2C, as many threads as the pick: the fewest
    /// passes, then the least issued work. That last clause (twenty-third session, same-run
    /// A/B on an H200 over the 15 lengths it changes, such as 870 = 29 x 15 x 2 as 30 x 29 and
    /// 552 = 23 x 12 x 2 as 24 x 23): 1.13x, none slower (870 1.37x, 598 1.28x); unmeasured
    /// for the other kinds (a C2R sample, 576, lost 0.84x).
    /// Half-length cores of R2C and C2R up to [`HALF_LENGTH_MAX_CORE`] points, f32. f64 (whose
    /// codelets hold twice the registers) only for complex rows whose widest pass is composite,
    /// the kind measured (thirteenth session: 1936 as 16 x 11 x 11 1.30x, 1452, 1782, 1815
    /// 1.14x..1.17x). Short f32 C2C rows of few threads are decided first
    /// ([`FftRecipe::in_two_short_passes`]).
    pub(crate) fn in_fewer_passes(self, limits: DeviceLimits) -> FftRecipe {
        let Core::Stockham { len, radices: ref picked } = self.core else { return self };
        let f64 = self.problem.precision == Precision::F64;
        if (f64 && self.packing != RealPacking::Complex) || (self.packing == RealPacking::HalfLength && len > HALF_LENGTH_MAX_CORE) {
            return self;
        }
        let c2c_f32 = self.problem.kind == FftKind::C2C && !f64;
        if let Some(two) = self.in_two_short_passes(limits) {
            return two;
        }
        let mut best: Option<FftRecipe> = None;
        for radices in packings_with_long_codelets(len).into_iter().filter(|r| r.len() < picked.len()) {
            let widest = radices.iter().copied().max().unwrap_or(1);
            if f64 && is_prime(widest) {
                continue;
            }
            let min_threads = if is_prime(widest) { PRIME_WIDEST_MIN_THREADS } else { COMPOSITE_WIDEST_MIN_THREADS };
            let Ok(candidate) = FftRecipe::design_around(self.problem, Core::Stockham { len, radices }, limits) else { continue };
            // f32 C2C rows also where they keep the pick's threads (870 = 29 x 15 x 2 as 30 x 29,
            // both 30 threads).
            let keeps_threads = c2c_f32 && candidate.tuning.threads_per_transform >= self.tuning.threads_per_transform;
            if candidate.tuning.threads_per_transform < min_threads && !keeps_threads {
                continue;
            }
            let rank = |r: &FftRecipe| (r.core.passes(), r.issued_work());
            if best.as_ref().is_none_or(|b| rank(&candidate) < rank(b)) {
                best = Some(candidate);
            }
        }
        best.unwrap_or(self)
    }

    /// This Rader recipe, or one whose convolution (the radices of p - 1) and outer passes (the
    /// radices of the row's DFT count m) each take their fewest passes with codelets of up to 32
    /// points, the most even such packing, where the row holds [`RADER_FEWER_PASSES_MIN_DFTS`]
    /// DFTs or more. The packing model
    /// ([`StockhamModel::STRIDED_GRID_RADER`](super::factor::StockhamModel::STRIDED_GRID_RADER))
    /// charges the 12-, 14- and 15-point codelets 3.5 times their work and stops at 16 points, so it split
    /// 150 as 10 x 5 x 3 and m = 12 as 6 x 2; but Rader's rows are bound on chip, not by memory
    /// (without a global read or write they ran in 0.91 of their time), and every pass reads
    /// and writes the row in shared memory once more. Measured on an H200 (fifty-fourth
    /// session, `--suite variants` over 100 Rader lengths, radix caps 16 to 32): convolutions
    /// of three passes in two ran 1.10x over 45 rows with one outer pass and 1.25x over 13 with
    /// two (3624 = 24 x 151 as 15 x 10 then 24: 1.40x), the most even packing the faster at
    /// most lengths; but rows of two to five DFTs lost with both radices large (758 = 2 x 379
    /// as 21 x 18 0.73x, 2031 = 3 x 677 as 26 x 26 0.63x), and so did prime rows (0.68x).
    /// Same-run A/B of this rule over the lengths it changes (every second C2C f32 length,
    /// every fourth real): C2C f32 1.16x (280 lengths), R2C 1.18x, C2R 1.14x; fewer outer
    /// passes alone 1.01x to 1.11x. In f64 (whose codelets hold twice the registers) the
    /// convolution's fewer passes ran 1.09x to 1.25x, but those with a codelet over 16 points
    /// lost up to 0.66x (3647 = 7 x 521 as 26 x 20) and fewer outer passes 0.76x to 0.98x
    /// (1455 = 15 x 97 in one radix-15 pass of 49 threads, not two of 146, 0.52x in C2R): f64
    /// rows take the convolution's fewer passes only, in codelets of up to 16 points. So
    /// planned, f64 ran 1.20x (C2C, 104 lengths), 1.20x (R2C) and 1.10x (C2R, 86 each), where
    /// C2R lost at rows left with under three quarters of their threads (20 lengths 0.89x,
    /// 1417 = 13 x 109 as 12 x 9 on 59 threads, not 6 x 6 x 3 on 117, 0.58x; the other kinds
    /// 1.07x and 1.10x there): f64 rows keep at least three quarters of their threads.
    pub(crate) fn rader_in_fewer_passes(self, limits: DeviceLimits) -> FftRecipe {
        let Core::Rader { len, prime, ref inner, ref outer } = self.core else { return self };
        let dfts = len / prime;
        if dfts < RADER_FEWER_PASSES_MIN_DFTS {
            return self;
        }
        let fewer = |n: usize, max_prime: usize, cap: usize, picked: &[usize]| {
            pack_fewest_passes(n, max_prime, cap).filter(|r| r.len() < picked.len()).unwrap_or_else(|| picked.to_vec())
        };
        let f64 = self.problem.precision == Precision::F64;
        let cap = if f64 { MAX_COMPOSITE_RADIX } else { LARGEST_COMPOSITE_CODELET };
        let inner_fewer = fewer(prime - 1, rader_convolution_prime_limit(prime, dfts), cap, inner);
        let outer_fewer = if f64 { outer.clone() } else { fewer(dfts, MAX_PRIME_RADIX, cap, outer) };
        if inner_fewer == *inner && outer_fewer == *outer {
            return self;
        }
        let core = Core::Rader { len, prime, inner: inner_fewer, outer: outer_fewer };
        let Ok(candidate) = FftRecipe::design_around(self.problem, core, limits) else { return self };
        // f64 rows keep three quarters of their threads at least.
        let keeps_threads = 4 * candidate.tuning.threads_per_transform >= 3 * self.tuning.threads_per_transform;
        if f64 && !keeps_threads {
            return self;
        }
        candidate
    }

    /// f32 C2C rows of up to [`SHORT_ROW_MAX_LEN`] points, not a multiple of 8, planned in
    /// three passes or more with fewer than [`SHORT_ROW_MAX_THREADS`] threads: in two, the most
    /// even packing with codelets of up to [`SHORT_ROW_MAX_RADIX`] points, even where that
    /// leaves the row fewer threads (273 = 13 x 7 x 3 with 21 threads as 21 x 13 with 13). Such
    /// rows run several to a block, so a block keeps its threads, and each value crosses shared
    /// memory once less. Measured on an H200 (twenty-fifth session, docs/BENCHMARKS.md):
    /// `--suite variants` over the 13-smooth lengths slower than cuFFT or under 0.88 of copy
    /// found 147..459 1.04x..1.13x in two passes, the most even packing the faster (180 as 15 x
    /// 12 1.13x, as 30 x 6 0.99x), 475 = 25 x 19 0.93x; a same-run A/B over all 82 rows of
    /// up to 460 points this would change without the last two conditions: 0.997x, the
    /// multiples of 8 0.93x (their two passes hold a radix-16 or 24 codelet: 208 = 16 x 13 0.68x)
    /// and rows of 30 threads or more 0.98x; the 39 left 1.053x (180 1.14x, 294 1.12x; 351 =
    /// 27 x 13 0.87x the one under 0.96x), and 1.063x in a second A/B of the rule as built.
    fn in_two_short_passes(&self, limits: DeviceLimits) -> Option<FftRecipe> {
        let Core::Stockham { len, radices: ref picked } = self.core else { return None };
        let short = self.problem.kind == FftKind::C2C && self.problem.precision == Precision::F32 && len <= SHORT_ROW_MAX_LEN;
        if !short || len % 8 == 0 || picked.len() < 3 || self.tuning.threads_per_transform >= SHORT_ROW_MAX_THREADS {
            return None;
        }
        let radices = fewest_pass_radices(len, SHORT_ROW_MAX_RADIX).filter(|r| r.len() == 2 && r[0] <= SHORT_ROW_MAX_RADIX)?;
        FftRecipe::design_around(self.problem, Core::Stockham { len, radices }, limits).ok()
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{Core, DeviceLimits, FftProblem, FftRecipe};

    fn radices(n: usize) -> Vec<usize> {
        match FftRecipe::design_by_heuristic(FftProblem::c2c(n, 1000), DeviceLimits::H200).unwrap().core {
            Core::Stockham { radices, .. } => radices,
            other => panic!("{n}: not Stockham: {other:?}"),
        }
    }

    #[test]
    fn long_rows_and_large_primes_take_fewer_passes() {
        assert_eq!(radices(3125), [25, 25, 5]);
        assert_eq!(radices(754), [29, 26]);
        // A 27-point codelet over 20 threads lost: 540 keeps three passes.
        assert_eq!(radices(540).len(), 3);
        // f64: composite widest passes only (754 keeps three passes there).
        let f64_radices = |n: usize| match FftRecipe::design_by_heuristic(FftProblem::c2c(n, 10).f64(), DeviceLimits::H200).unwrap().core {
            Core::Stockham { radices, .. } => radices,
            other => panic!("{n}: not Stockham: {other:?}"),
        };
        assert_eq!(f64_radices(1936), [16, 11, 11]);
        assert_eq!(f64_radices(754).len(), 3);
        // f32 C2C rows that keep their threads in two passes: 870 = 29 x 15 x 2 (30 threads)
        // as 30 x 29; f64 keeps three passes.
        assert_eq!(radices(870), [30, 29]);
        assert_eq!(f64_radices(870).len(), 3);
    }

    #[test]
    fn rader_rows_of_several_dfts_take_their_fewest_passes() {
        let rader = |p: FftProblem| match FftRecipe::design_by_heuristic(p, DeviceLimits::H200).unwrap().core {
            Core::Rader { inner, outer, .. } => (inner, outer),
            other => panic!("{p:?}: not Rader: {other:?}"),
        };
        // 2114 = 14 x 151: the convolution of 150 in two passes, not 10 x 5 x 3, and the 14 DFTs
        // combined in one, not 7 x 2; 3624 = 24 x 151 likewise (24 in one pass, not 6 x 4).
        assert_eq!(rader(FftProblem::c2c(2114, 10)), (vec![15, 10], vec![14]));
        assert_eq!(rader(FftProblem::c2c(3624, 10)), (vec![15, 10], vec![24]));
        // Rows of fewer than six DFTs (758 = 2 x 379) and prime rows (811) keep the packing model's.
        assert_eq!(rader(FftProblem::c2c(758, 10)).0.len(), 3);
        assert_eq!(rader(FftProblem::c2c(811, 10)).0, [9, 9, 5, 2]);
        // f64: the convolution only, in codelets of up to 16 points (2114's outer 7 x 2 stays;
        // 3647 = 7 x 521 keeps 13 x 8 x 5, 520 having no two such codelets), and only where
        // the row keeps three quarters of its threads (1417 = 13 x 109: 12 x 9 would halve them).
        assert_eq!(rader(FftProblem::c2c(2114, 10).f64()), (vec![15, 10], vec![7, 2]));
        assert_eq!(rader(FftProblem::c2c(3647, 10).f64()).0, [13, 8, 5]);
        assert_eq!(rader(FftProblem::c2c(1417, 10).f64()).0, [6, 6, 3]);
    }

    #[test]
    fn short_rows_of_few_threads_take_two_passes() {
        // 273 = 13 x 7 x 3 (21 threads) as 21 x 13; 180 = 9 x 5 x 4 as the most even 15 x 12.
        assert_eq!(radices(273), [21, 13]);
        assert_eq!(radices(180), [15, 12]);
        // Multiples of 8 (208 = 13 x 8 x 2), rows of 30 threads or more (441 = 9 x 7 x 7, 49)
        // and rows past 460 points (475 = 19 x 5 x 5) keep three passes.
        for n in [208, 441, 475] {
            assert_eq!(radices(n).len(), 3, "{n}");
        }
        // f64 and R2C keep theirs.
        let design = |p: FftProblem| FftRecipe::design_by_heuristic(p, DeviceLimits::H200).unwrap().core.passes();
        assert_eq!(design(FftProblem::c2c(273, 10).f64()), 3);
        assert_eq!(design(FftProblem::r2c(546, 10)), 3);
    }
}
