//! Short Rader rows with neighbouring threads on neighbouring rows ([`FftTuning::lanes_across_rows`]).
//!
//! Rader's first pass gathers its convolution's values by powers of a generator and its last
//! scatters them back: within one row those accesses land on banks nearly at random (about
//! 3-way conflicts where a warp's lanes take consecutive butterflies of a row; Nsight Compute,
//! thirty-fourth session). With lanes across rows, a half-warp's lanes take the same butterfly
//! of 16 (f32) rows whose stride is odd: every access of every pass on distinct banks. The
//! rows are then staged (no direct_io): the load and store copy each row with consecutive
//! threads as before.
//!
//! [`FftTuning::lanes_across_rows`]: super::recipe::FftTuning::lanes_across_rows

use super::problem::{FftKind, Precision};
use super::recipe::{DeviceLimits, FftRecipe};
use super::transform_core::Core;

/// Longest f32 row of one DFT of its prime (N = p) that takes 16 rows a block across. Measured
/// on an H200 (forty-fourth session, `--suite variants`, two rounds, the slower round's ratio):
/// the 27 ping-pong primes 67..397 1.08x..1.74x (97 1.74x, 353 1.67x) but 337 (0.81x; 1.11x with
/// 8 rows); 401..701 with 8 rows (16 do not fit twice a multiprocessor) 0.87x..1.52x, left to
/// the wisdom, as are the rows without ping-pong (101 1.32x; 257 0.74x).
const F32_PRIME_ROW_MAX: usize = 400;

/// Longest f32 row of several DFTs (N = m p, m >= 2) that takes 8 rows a block across: the 19
/// such rows 134..292 1.08x..1.60x but 262 (0.96x); from 302 on they lost as often as they won
/// (0.64x..1.16x): the staged copy costs what their direct writes had spared.
const F32_DFTS_ROW_MAX: usize = 300;

/// Longest f64 row of one DFT that takes 8 rows a block across (8 lanes of 16 bytes fill a
/// shared wavefront): the 25 ping-pong primes 67..353 1.08x..1.48x (and 101, 257 without
/// ping-pong 1.29x / 1.20x: the wisdom's); from 379 on only rows in place fit (0.82x..1.10x).
/// f64 rows of several DFTs lost at 194, 262 and 291 (0.32x..0.80x) where the others gained:
/// left out.
const F64_PRIME_ROW_MAX: usize = 360;

impl FftRecipe {
    /// This recipe staged, `rows` rows a block, with neighbouring threads on neighbouring rows
    /// and one more slot of row padding where the row stride would be even: a half-warp's
    /// lanes at one value of 16 rows then meet 16 distinct banks.
    pub fn with_lanes_across_rows(&self, rows: u32) -> FftRecipe {
        let mut r = self.clone();
        let t = &mut r.tuning;
        (t.lanes_across_rows, t.direct_io, t.staged_store, t.transforms_per_block) = (true, false, false, rows);
        if r.row_stride().is_multiple_of(2) {
            r.tuning.row_pad += 1;
        }
        r
    }

    /// Whether two blocks fit a multiprocessor's shared memory, as the rule and the `lanes
    /// across` variants were measured (without the driver's reserve a block, which
    /// variants.rs's `could_reside` also counts: with it, four f64 variants up to 1300 points
    /// would no longer be offered).
    pub(super) fn fits_twice_in_shared_memory(&self, limits: DeviceLimits) -> bool {
        2 * self.shared_bytes() <= limits.shared_bytes
    }

    /// Contiguous C2C ping-pong Rader rows short enough to have gained with lanes across rows
    /// (the constants above), where two blocks still fit a multiprocessor's shared memory;
    /// other recipes as they are. Whatever the batch, as every rule for contiguous rows: the
    /// kernel (and the wisdom keyed by its name) is the same for every batch size.
    pub(super) fn with_lanes_across_rows_where_measured(self, limits: DeviceLimits) -> FftRecipe {
        let Core::Rader { len, prime, .. } = self.core else { return self };
        let p = &self.problem;
        if p.kind != FftKind::C2C || self.io.is_some() || self.cluster.is_some() || !self.tuning.ping_pong {
            return self;
        }
        let rows = match (p.precision, len == prime) {
            (Precision::F32, true) if len <= F32_PRIME_ROW_MAX => 16,
            (Precision::F32, false) if len <= F32_DFTS_ROW_MAX => 8,
            (Precision::F64, true) if len <= F64_PRIME_ROW_MAX => 8,
            _ => return self,
        };
        let across = self.with_lanes_across_rows(rows);
        if across.check(limits).is_ok() && across.fits_twice_in_shared_memory(limits) {
            across
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn short_rader_rows_take_lanes_across_rows() {
        let design = |p: FftProblem| FftRecipe::design_by_heuristic(p, H200).unwrap();
        let prime = design(FftProblem::c2c(97, 1000));
        assert!(prime.tuning.lanes_across_rows && !prime.tuning.direct_io && prime.tuning.transforms_per_block == 16);
        assert!(!prime.row_stride().is_multiple_of(2), "{}", prime.describe());
        assert!(prime.kernel_name().ends_with("_xrows"), "{}", prime.kernel_name());
        // The same kernel for any batch (the wisdom is keyed by its name).
        assert_eq!(design(FftProblem::c2c(97, 3)).kernel_name(), prime.kernel_name());
        let dfts = design(FftProblem::c2c(134, 1000));
        assert!(dfts.tuning.lanes_across_rows && dfts.tuning.transforms_per_block == 8);
        let f64_prime = design(FftProblem::c2c(97, 1000).precision(crate::fft::Precision::F64));
        assert!(f64_prime.tuning.lanes_across_rows && f64_prime.tuning.transforms_per_block == 8);
        // Longer rows, f64 rows of several DFTs, Stockham rows and real transforms keep their
        // lanes along the row.
        for p in [FftProblem::c2c(401, 1000), FftProblem::c2c(302, 1000), FftProblem::c2c(134, 1000).precision(crate::fft::Precision::F64), FftProblem::c2c(96, 1000), FftProblem::r2c(97, 1000)] {
            assert!(!design(p).tuning.lanes_across_rows, "{p:?}");
        }
    }
}
