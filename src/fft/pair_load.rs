//! How C2R's staged load of even length takes its half spectrum's pairs (X[i] and X[m-i], a
//! pair of the packed spectrum's values rebuilt from them) in blocks of several rows: by rows,
//! thread t of row s taking the pairs i = t + q w of its own row (w threads a row; each load a
//! pointer set once plus a literal), or flat, the block's pairs numbered across its rows and
//! split into row and pair at each trip (a division, and each address computed anew). The
//! kernel code of both is codegen/io.rs's `load_half_spectrum_pairs`.
//!
//! By rows saves the flat loop's integer and control instructions (C2R 1690's load phase 431
//! -> 201 SASS instructions), which pays where C2R is bound by issue; but a warp of short rows
//! reads several runs of w values instead of one run, which costs sectors. Which wins was
//! measured per precision and width, not per length: [`FftRecipe::pairs_by_row_rule`] takes by
//! rows where it ran faster on average, and the tuning's `pairs_by_row` holds a variant's
//! other choice where the wisdom measured it faster at a length.

use super::problem::{FftKind, Precision};
use super::recipe::{ruled_choice, ruled_choice_suffix, FftRecipe};

impl FftRecipe {
    /// Whether the kernel has a choice of pair load: C2R's half spectrum read in pairs by a
    /// staged load (not in the core's first pass), blocks of several rows, each row on a group
    /// of consecutive threads (not lanes across rows).
    pub fn can_load_pairs_by_row(&self) -> bool {
        let t = &self.tuning;
        self.problem.kind == FftKind::C2R && !self.reads_input_elementwise() && !self.pairs_in_core_pass() && t.transforms_per_block > 1 && !t.lanes_across_rows
    }

    /// Whether the heuristic loads pairs by rows where it can: f32 rows of 24 threads or
    /// more, f64 rows of 4 to 15. Same-run A/B on an H200 (eighty-third session, three
    /// rounds, by rows against flat wherever w x value bytes >= 64; unchanged kernels
    /// 1.005x-1.014x):
    /// - f32, w >= 24: 1.052x over 79 lengths of the C2R suite (1690 1.14x, 1500 1.12x; 980
    ///   0.92x); w 16..23 1.004x (23 lengths; 572 1.04x, 396 0.95x), w 8..15 0.984x (20; 162
    ///   0.90x, 390 0.91x).
    /// - f64, w 8..15: 1.21x over 18 lengths (308 1.47x); w 4..7 mostly 1.1x-1.3x (96 0.94x);
    ///   w >= 16 0.98x (11).
    pub(crate) fn pairs_by_row_rule(&self) -> bool {
        let w = self.tuning.threads_per_transform;
        match self.problem.precision {
            Precision::F32 => w >= 24,
            Precision::F64 => (4..16).contains(&w),
        }
    }

    /// Whether the kernel loads its pairs by rows: where it can, as the tuning says (a
    /// variant's choice) or else as the rule does.
    pub fn loads_pairs_by_row(&self) -> bool {
        ruled_choice(self.can_load_pairs_by_row(), self.tuning.pairs_by_row, || self.pairs_by_row_rule())
    }

    /// The kernel-name suffix of a pair load other than the rule's: `_prow` (by rows) or
    /// `_pflat`; empty where the rule decides (`ruled_choice_suffix`).
    pub(crate) fn pair_load_name_suffix(&self) -> &'static str {
        ruled_choice_suffix(self.can_load_pairs_by_row(), self.tuning.pairs_by_row, || self.pairs_by_row_rule(), "_prow", "_pflat")
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::codegen::fft_source;
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe, Precision};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn the_pair_load_follows_the_rule_unless_a_variant_chose_otherwise() {
        // C2R f32 572 (22 threads a row, 5 rows a block) loads flat by the rule; its variant
        // by rows, named so.
        let flat = FftRecipe::design_by_heuristic(FftProblem::c2r(572, 1000), H200).unwrap();
        assert_eq!((flat.tuning.threads_per_transform, flat.tuning.transforms_per_block), (22, 5));
        assert!(flat.can_load_pairs_by_row() && !flat.loads_pairs_by_row());
        let body = fft_source(&flat).body;
        assert!(body.contains("const u32 row = e / 144u;") && !body.contains(" q of row s"));
        let mut by_row = flat.clone();
        by_row.tuning.pairs_by_row = Some(true);
        assert!(by_row.loads_pairs_by_row());
        assert_eq!(by_row.kernel_name(), format!("{}_prow", flat.kernel_name()));
        let body = fft_source(&by_row).body;
        assert!(body.contains("pairs i = t + 22 q of row s") && !body.contains("e / 144u"), "{body}");
        // The rule's own choice, written out, keeps the name.
        by_row.tuning.pairs_by_row = Some(false);
        assert_eq!(by_row.kernel_name(), flat.kernel_name());
        // C2R f32 1690 (65 threads, 2 rows) by rows by the rule; its variant flat.
        let rows = FftRecipe::design_by_heuristic(FftProblem::c2r(1690, 1000), H200).unwrap();
        assert!(rows.loads_pairs_by_row() && rows.tuning.transforms_per_block == 2);
        let mut flat = rows.clone();
        flat.tuning.pairs_by_row = Some(false);
        assert!(flat.kernel_name().ends_with("_pflat") && fft_source(&flat).body.contains("const u32 row = e / 423u;"));
        // f64 rows of 4 to 15 threads by rows (308: 11), not of 16 or more.
        let f64_row = |n: usize, threads: u32| {
            let mut r = FftRecipe::design_by_heuristic(FftProblem::c2r(n, 1000).precision(Precision::F64), H200).unwrap();
            r.tuning.threads_per_transform = threads;
            r.pairs_by_row_rule()
        };
        assert!(f64_row(308, 11) && f64_row(308, 4) && !f64_row(308, 16) && !f64_row(308, 3));
        // No choice where the core's first pass reads the pairs (mirror pairs), in blocks of
        // one row, or for other kinds.
        let mut mirror = FftRecipe::design_by_heuristic(FftProblem::c2r(1024, 8), H200).unwrap();
        (mirror.tuning.half_spectrum_pairs, mirror.tuning.mirror_pairs) = (true, true);
        assert!(mirror.pairs_in_core_pass() && !mirror.can_load_pairs_by_row());
        let one_row = FftRecipe::design_by_heuristic(FftProblem::c2r(3380, 1000), H200).unwrap();
        assert!(one_row.tuning.transforms_per_block == 1 && !one_row.can_load_pairs_by_row());
        assert!(!FftRecipe::design_by_heuristic(FftProblem::r2c(1690, 1000), H200).unwrap().can_load_pairs_by_row());
    }
}
