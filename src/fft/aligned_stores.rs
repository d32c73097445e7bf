//! Staged stores that fill whole 32-byte sectors. A store phase (codegen's `store`) writes the
//! block's rows from shared memory with a flat index, consecutive threads on consecutive
//! values, so each warp writes one run of 32 values. Where rows do not start on a sector
//! (R2C's m + 1 values a row, odd lengths), every such run straddles a sector at both ends:
//! R2C f32 1024 sends 9.24 M store sectors to L2 for 8.39 M sectors of output. Aligned, the
//! flat index starts `lead` values before the block's first value, `lead` being how far that
//! value lies into its sector, so that every run but the block's first and last fills whole
//! sectors.
//!
//! Why: Nsight Compute found R2C f32 1024 and 4096 moving 4-5% more L2 sectors than cuFFT's
//! kernels for the same DRAM bytes, most of them writes (eighty-seventh session,
//! docs/BENCHMARKS.md); those rows are 0.96x-0.98x cuFFT.
//!
//! Only element-by-element stores can align: R2C's paired store writes X[i] ascending and
//! X[m-i] descending, and no one shift aligns both runs (its variant path is `half spectrum
//! elementwise / sector-aligned stores`).
//!
//! Why a choice, not the rule (eighty-eighth session, H200, docs/BENCHMARKS.md): aligned, R2C
//! f32 1024's store sectors fell to the output's own (8.93 M -> 8.40 M) and its L2 write
//! sectors by 5.5% (13.34 M -> 12.61 M, under cuFFT's 12.87 M), yet it ran 2.5% longer: the
//! elementwise store it needs reads twice the shared values and twiddles of the paired one
//! (13% more instructions than the pick), and the alignment adds 8% more. Over the R2C f32 even lengths the aligned elementwise store ran
//! 0.979x the unaligned one and 0.906x the picks. Elsewhere the variant wins at some lengths
//! and loses at others (faster / slower by 3% in every round, of those offering it): C2R f32
//! 83 / 48 of 388, C2R f64 63 / 66 of 329, C2C f32 10 / 78 of 267, C2C f64 9 / 32 of 155, R2C
//! f64 7 / 18 of 123, mostly short odd rows. The tuning's `aligned_stores` holds the variant's
//! choice where the wisdom measured it faster.

use super::problem::FftKind;
use super::recipe::{complex_bytes, ruled_choice, ruled_choice_suffix, FftRecipe, RealPacking};

/// Bytes of the unit in which L1 sends stores on to L2.
const SECTOR_BYTES: u64 = 32;

/// What a kernel's store phase writes, in its stored elements (complex values; the reals of
/// C2R of odd length; C2R of even length stores its reals as complex pairs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredRows {
    /// Values the store phase writes a row.
    pub per_row: usize,
    /// Values from one row's start to the next's.
    pub apart: usize,
    /// Values a sector holds.
    pub per_sector: usize,
}

impl FftRecipe {
    /// What the kernel's store phase writes, where it has one that writes element by element
    /// with the flat index of `row_loop`: plain rows (no strided pass, no real grid) whose core
    /// writes shared memory (not a direct last pass, nor R2C's mirror pairs), R2C of even
    /// length storing each value on its own.
    pub(crate) fn stored_rows(&self) -> Option<StoredRows> {
        let p = &self.problem;
        let t = &self.tuning;
        if self.io.is_some() || self.core.real_grid().is_some() {
            return None;
        }
        let halved = self.packing == RealPacking::HalfLength;
        let staged = match p.kind {
            FftKind::R2C if halved => !(self.pairs_in_core_pass() || t.half_spectrum_pairs && self.can_pair_half_spectrum()),
            _ => !t.direct_io || t.staged_store,
        };
        if !staged {
            return None;
        }
        let complex = complex_bytes(p.precision);
        let apart = p.row_elements().1;
        let (per_row, apart, bytes) = match p.kind {
            FftKind::R2C => (p.half_spectrum_len(), apart, complex),
            FftKind::C2C => (self.core.len(), apart, complex),
            FftKind::C2R if halved => (self.core.len(), apart / 2, complex),
            FftKind::C2R => (self.core.len(), apart, complex / 2),
        };
        Some(StoredRows { per_row, apart, per_sector: (SECTOR_BYTES / bytes) as usize })
    }

    /// Whether the kernel's stores may be aligned to sectors: its store phase writes the
    /// block's rows as one contiguous run, and that run does not always start on a sector.
    pub fn can_align_stores(&self) -> bool {
        self.stored_rows().is_some_and(|s| s.per_row == s.apart && !(self.tuning.transforms_per_block as usize * s.apart).is_multiple_of(s.per_sector))
    }

    /// Whether the store phase's flat index starts at the block's sector: where it can, as the
    /// tuning says (a variant's choice); the rule starts it at the block's first value.
    pub fn aligns_stores(&self) -> bool {
        ruled_choice(self.can_align_stores(), self.tuning.aligned_stores, || false)
    }

    /// The kernel-name suffix of stores other than the rule's: `_sa` (sector-aligned); empty
    /// where the rule decides (`ruled_choice_suffix`).
    pub(crate) fn aligned_store_name_suffix(&self) -> &'static str {
        ruled_choice_suffix(self.can_align_stores(), self.tuning.aligned_stores, || false, "_sa", "")
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::codegen::fft_source;
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    /// R2C 1024 (two rows of 513 values a block) stores its pairs by the heuristic; stored
    /// elementwise it may align, and the variant's store loop starts at the block's sector.
    /// C2C 1024's rows start on sectors: no choice.
    #[test]
    fn the_variant_shifts_the_store_to_the_sector() {
        let pick = FftRecipe::design_by_heuristic(FftProblem::r2c(1024, 1000), H200).unwrap();
        assert!(pick.tuning.half_spectrum_pairs && !pick.can_align_stores());
        let (_, elementwise) = pick.variants(H200).into_iter().find(|(what, _)| what == "half spectrum elementwise").expect("offered");
        let stored = elementwise.stored_rows().expect("a store phase");
        assert_eq!((stored.per_row, stored.apart, stored.per_sector), (513, 513, 4));
        assert!(elementwise.can_align_stores() && !elementwise.aligns_stores());
        let (_, aligned) = elementwise.variants(H200).into_iter().find(|(what, _)| what == "sector-aligned stores").expect("offered");
        assert!(aligned.aligns_stores());
        assert_eq!(aligned.kernel_name(), format!("{}_sa", elementwise.kernel_name()));
        let body = fft_source(&aligned).body;
        assert!(body.contains("const u32 lead = (u32)((first * 513u) % 4u);"), "{body}");
        assert!(!fft_source(&elementwise).body.contains("lead"));
        let c2c = FftRecipe::design_by_heuristic(FftProblem::c2c(1024, 1000), H200).unwrap();
        assert!(!c2c.can_align_stores() && !c2c.variants(H200).iter().any(|(what, _)| what == "sector-aligned stores"));
    }
}
