//! Rows laid out by the lane-group bank model ([`BankModel::LaneGroups`]).
//!
//! The heuristic chooses a row's shared-memory padding and lane order by a bank-conflict
//! model. Its original model served a warp's 32 lanes at once ([`BankModel::WholeWarp`]); the
//! hardware serves 8-byte values a half-warp at a time, as Nsight Compute's counts of an H200
//! showed (seventy-sixth session): 16-byte values (f64 complex) a quarter-warp at a time. Where
//! the wisdom (wisdom.rs) has no entry for the heuristic's pick, the rows whose changed kernels
//! were timed (`SCOPES`: C2C, R2C and C2R up to 4096 points, f32 and f64, and the 13-smooth
//! C2C f32 rows N-d and multi-pass plans run in one launch, up to 16384, with the C2C f32 rows
//! there whose pick runs Bluestein over the whole row in blocks under 512 threads) take the design
//! the lane-group model lays out, if that model counts the pick at least 1.05 times its
//! wavefronts and the new kernel did not run slower by 3% in both rounds of its A/B
//! ([`takes_lane_groups`], `Scope::measured_slower`). Same-run A/Bs on an H200 over
//! the lengths whose kernels change, two rounds, geometric means over every changed length
//! (docs/BENCHMARKS.md): f32 even lengths C2C 326 lengths 1.023x, R2C 285 1.040x, C2R 257 1.039x
//! (seventy-sixth session); f32 odd R2C 185 1.044x and C2R 189 1.049x, f64 C2C 1181 1.09x-1.10x,
//! R2C 312 1.132x and C2R 311 1.118x up to 1024 (seventy-seventh); f64 R2C 969 1.136x and C2R
//! 984 1.132x from 1025 to 4096 (seventy-eighth); 13-smooth C2C f32 rows from 4097 to 16384, 38
//! lengths, 1.044x (seventy-ninth); the long whole-row Bluestein rows under 512 threads first
//! as the variant `lane groups`, a third of them (eightieth: 162 of 174 3% faster, none slower
//! by 3%), then the 343 the rule added, 6497..8189, 1.045x (eighty-first: 332 faster by 3%,
//! none slower). The seventy-ninth session's A/B of 13-smooth R2C and C2R
//! f32 rows from 4097 to 32768 found 1.004x for each over 92 and 89 lengths, C2R 10 of them
//! slower by 3%, and R2C 16384 x4096 0.97x in the large-1d suite, so real rows past 4096
//! keep the whole-warp model, as do the other rows past one 1D launch (not timed).
//!
//! The rule designs each row twice, which doubled the planning time of such rows (up to 9 ms
//! on a 2-core host, against plan creation's target of 5 ms). So its outcome is a table,
//! `wisdom/lane_groups.tsv`, and planning looks the row up there and designs it once. The table
//! is generated, never edited: a unit test applies the rule to every row it covers and fails
//! where the table differs; `cargo run --release --example fft_lane_groups` rewrites it.
//!
//! The variants suite (`bench fft --suite variants`) still times the whole-warp pick as the
//! heuristic's, and a wisdom entry found there takes its row out of this table (the rule asks
//! for none), although its gain was measured against that pick, not the lane-group design. It
//! offers the lane-group design of any row as the variant `lane groups` (variants.rs), so a
//! campaign can time the rows no scope covers (`--variants "lane groups"`) and keep the
//! winners as wisdom, length by length.

use std::collections::HashSet;
use std::sync::OnceLock;

use super::factor::largest_prime_factor;
use super::problem::{FftKind, FftProblem, Precision, MAX_ROW_LEN, MAX_SINGLE_LAUNCH_LEN};
use super::bank_conflicts::BankModel;
use super::recipe::{DeviceLimits, FftRecipe};
use super::transform_core::Core;
use crate::error::Result;

/// The committed table, as [`lane_group_table`] wrote it for an H200.
pub const LANE_GROUP_ROWS: &str = include_str!("wisdom/lane_groups.tsv");

/// The rows the rule covers, as the table names them: kind, precision and the longest length
/// whose kernels the rule changes a same-run A/B timed (every length up to it, odd and even),
/// past it the 13-smooth lengths up to `smooth_max_len` (rows N-d and multi-pass plans run in
/// one launch, timed through `bench fft --suite sweep --sizes`), and the lengths the A/B found
/// slower.
struct Scope {
    name: &'static str,
    kind: FftKind,
    precision: Precision,
    max_len: usize,
    /// The longest 13-smooth row the rule covers past `max_len` (`max_len` itself where no
    /// longer rows were timed).
    smooth_max_len: usize,
    /// The longest row past `max_len` the rule covers whose pick runs Bluestein over the whole
    /// row in blocks of fewer than [`BLUESTEIN_ROW_MAX_THREADS`] threads, whatever its factors
    /// (`max_len` itself where no such rows were timed).
    bluestein_max_len: usize,
    /// Rows the model lays out anew whose lane-group kernel ran slower than the heuristic's
    /// pick by 3% or more in both rounds of the A/B that timed it: they keep the pick. The
    /// A/Bs' CSVs are in docs/fft (seventy-sixth session: f32 even lengths,
    /// ab-seventysixth-bank-lanes-h200.csv.gz, 41 of 868 rows, from C2C 326 at 0.86x to C2R
    /// 3530 at 0.97x; seventy-seventh: f32 odd real lengths and f64,
    /// ab-seventyseventh-bank-lanes-h200.csv.gz; seventy-eighth: R2C and C2R f64 from 1025 to
    /// 4096, ab-seventyeighth-real-f64-lanes-h200.csv.gz; seventy-ninth: 13-smooth f32 rows past
    /// 4096, ab-seventyninth-long-rows-lanes-h200.csv.gz).
    measured_slower: &'static [usize],
}

const SCOPES: [Scope; 6] = [
    Scope {
        name: "c2c",
        kind: FftKind::C2C,
        precision: Precision::F32,
        max_len: MAX_SINGLE_LAUNCH_LEN,
        smooth_max_len: MAX_ROW_LEN,
        bluestein_max_len: MAX_ROW_LEN,
        measured_slower: &[151, 258, 292, 326, 354, 582, 1082, 1158, 1354, 1822, 2164, 2258, 2302, 2402, 2404, 2524, 2598, 2602, 2708, 3031, 3997, 5408],
    },
    Scope {
        name: "r2c",
        kind: FftKind::R2C,
        precision: Precision::F32,
        max_len: MAX_SINGLE_LAUNCH_LEN,
        smooth_max_len: MAX_SINGLE_LAUNCH_LEN,
        bluestein_max_len: MAX_SINGLE_LAUNCH_LEN,
        measured_slower: &[
            159, 161, 165, 267, 365, 404, 411, 489, 505, 600, 652, 707, 708, 843, 872, 905, 1010, 1164, 1356, 1371, 1810, 2316, 2317, 2359, 2705,
            2708, 2742, 3031, 3987, 3997,
        ],
    },
    Scope {
        name: "c2r",
        kind: FftKind::C2R,
        precision: Precision::F32,
        max_len: MAX_SINGLE_LAUNCH_LEN,
        smooth_max_len: MAX_SINGLE_LAUNCH_LEN,
        bluestein_max_len: MAX_SINGLE_LAUNCH_LEN,
        measured_slower: &[73, 267, 302, 365, 404, 411, 652, 708, 905, 1145, 1164, 2316, 2359, 2708, 3031, 3436, 3530],
    },
    Scope {
        name: "c2c-f64",
        kind: FftKind::C2C,
        precision: Precision::F64,
        max_len: MAX_SINGLE_LAUNCH_LEN,
        smooth_max_len: MAX_SINGLE_LAUNCH_LEN,
        bluestein_max_len: MAX_SINGLE_LAUNCH_LEN,
        measured_slower: &[
            362, 394, 436, 445, 502, 591, 652, 772, 978, 1028, 1257, 1516, 1630, 1772, 1948, 1964, 2049, 2073, 2082, 2094, 2158, 2171, 2348, 2588,
            2644, 2722, 2785, 2827, 2855, 2863, 2908, 2918, 2965, 2995, 3004, 3028, 3169, 3338, 3386, 3398, 3418, 3439, 3506, 3510, 3667, 3676,
            3694, 3695, 3748, 3754, 3778, 3794, 3814, 3866, 3898, 3900, 3958, 3998, 4036, 4039, 4056,
        ],
    },
    Scope {
        name: "r2c-f64",
        kind: FftKind::R2C,
        precision: Precision::F64,
        max_len: MAX_SINGLE_LAUNCH_LEN,
        smooth_max_len: MAX_SINGLE_LAUNCH_LEN,
        bluestein_max_len: MAX_SINGLE_LAUNCH_LEN,
        measured_slower: &[
            53, 95, 106, 165, 190, 330, 445, 591, 724, 788, 890, 995, 1085, 1178, 1257, 1304, 1371, 1565, 2045, 2049, 2073, 2258, 2285, 2316,
            2827, 2855, 2863, 2933, 2965, 2995, 3025, 3130, 3199, 3227, 3260, 3544, 3629, 3667, 3896, 3928, 3997, 4004,
        ],
    },
    Scope {
        name: "c2r-f64",
        kind: FftKind::C2R,
        precision: Precision::F64,
        max_len: MAX_SINGLE_LAUNCH_LEN,
        smooth_max_len: MAX_SINGLE_LAUNCH_LEN,
        bluestein_max_len: MAX_SINGLE_LAUNCH_LEN,
        measured_slower: &[
            106, 131, 220, 436, 445, 485, 504, 576, 591, 695, 724, 788, 872, 880, 970, 995, 1004, 1068, 1096, 1181, 1304, 1565, 1812, 1865,
            2062, 2149, 2191, 2458, 2524, 2554, 2933, 3025, 3032, 3092, 3169, 3227, 3260, 3544, 3629, 3653, 3667, 3707, 3730, 3787, 3896, 3898,
            3928, 3932, 4077,
        ],
    },
];

/// Blocks of at least this many threads keep the whole-warp layout in long whole-row
/// Bluestein rows: the eightieth session timed `lane groups` over every third C2C f32 row past
/// 4096 that offers it, two rounds (docs/BENCHMARKS.md): whole-row Bluestein picks under 512
/// threads 3% faster at 162 of 174 rows and none slower by 3%; at 512 or more, 58 of 161
/// faster and 20 slower; other cores 18 of 63 faster and 11 slower. The eighty-first timed the
/// rest as the variant (464 rows: 142 faster, 47 slower; under 512 threads 5 of 33 faster, none
/// slower) and A/B-timed the 343 rows this bound admits: 1.045x, none slower.
const BLUESTEIN_ROW_MAX_THREADS: u32 = 512;

impl Scope {
    /// Whether the scope covers rows of `len` points whatever their pick: every length up to
    /// `max_len`, the 13-smooth ones up to `smooth_max_len`.
    fn covers_every_pick(&self, len: usize) -> bool {
        len <= self.max_len || (len <= self.smooth_max_len && largest_prime_factor(len) <= 13)
    }

    /// Whether the scope may cover rows of `len` points: those above, and the long ones up to
    /// `bluestein_max_len`, which [`Scope::covers_pick`] tells apart by their pick.
    fn covers(&self, len: usize) -> bool {
        self.covers_every_pick(len) || len <= self.bluestein_max_len
    }

    /// Whether the scope covers the row the heuristic designs as `pick`.
    fn covers_pick(&self, pick: &FftRecipe) -> bool {
        let len = pick.core.len();
        let whole_row_bluestein = matches!(pick.core, Core::Bluestein { factor, .. } if factor == len);
        self.covers_every_pick(len) || (len <= self.bluestein_max_len && whole_row_bluestein && pick.threads_per_block() < BLUESTEIN_ROW_MAX_THREADS)
    }
}

/// The `SCOPES` entry of `problem`'s kind and precision, if its length is one the entry may
/// cover (`Scope::covers`).
fn timed_scope(problem: &FftProblem) -> Option<&'static Scope> {
    SCOPES.iter().find(|s| s.kind == problem.kind && s.precision == problem.precision && s.covers(problem.len))
}

/// The rule: a timed row whose heuristic pick has no wisdom and which the lane-group model
/// lays out in at least 1.05 times fewer wavefronts than the pick (the margin lanes across
/// asks, `with_least_conflicted_layout`), unless that layout measured slower
/// (`Scope::measured_slower`). Where the model counts the two alike or within the margin, the
/// lane-group layouts ran 0.98x-0.99x (R2C 36: 0.87 -> 0.84 of copy on a tie).
pub fn takes_lane_groups(problem: FftProblem, limits: DeviceLimits) -> Result<bool> {
    timed_scope(&problem).map_or(Ok(false), |scope| scope_takes_lane_groups(scope, problem, limits))
}

/// [`takes_lane_groups`] for a row `scope` covers (`Scope::covers`).
fn scope_takes_lane_groups(scope: &Scope, problem: FftProblem, limits: DeviceLimits) -> Result<bool> {
    if scope.measured_slower.contains(&problem.len) {
        return Ok(false);
    }
    model_takes_lane_groups(scope, problem, limits)
}

/// The rule's model half: [`takes_lane_groups`] in `scope` before the measured exceptions.
fn model_takes_lane_groups(scope: &Scope, problem: FftProblem, limits: DeviceLimits) -> Result<bool> {
    let pick = FftRecipe::design_row_by_heuristic(problem, limits)?;
    if !scope.covers_pick(&pick) || pick.wisdom_variant(limits).is_some() {
        return Ok(false);
    }
    let lanes = FftRecipe::design_row_by_heuristic(problem, lane_groups(limits))?;
    let count = |r: &FftRecipe| r.shared_wavefronts(BankModel::LaneGroups);
    Ok(20 * count(&pick) >= 21 * count(&lanes))
}

/// `limits` with the lane-group bank model.
pub(crate) fn lane_groups(limits: DeviceLimits) -> DeviceLimits {
    DeviceLimits { bank_model: BankModel::LaneGroups, ..limits }
}

/// The table for `limits`: a header, then a line for each `SCOPES` entry, its lengths that
/// take the lane-group design (tab, then comma-separated).
pub fn lane_group_table(limits: DeviceLimits) -> Result<String> {
    let mut text = String::from(
        "# Rows laid out by the lane-group bank model (src/fft/lane_groups.rs), by kind (f64 rows named so).\n\
         # Generated by `cargo run --release --example fft_lane_groups`; do not edit.\n",
    );
    for scope in &SCOPES {
        let mut lens = Vec::new();
        for len in (1..=scope.smooth_max_len.max(scope.bluestein_max_len)).filter(|&len| scope.covers(len)) {
            let problem = FftProblem { kind: scope.kind, precision: scope.precision, ..FftProblem::c2c(len, 1) };
            // Rows past one 1D launch that no launch holds (odd real rows past MAX_ROW_LEN,
            // rows whose shared memory outgrows the device) run in passes: nothing to lay out.
            match scope_takes_lane_groups(scope, problem, limits) {
                Ok(true) => lens.push(len.to_string()),
                Ok(false) => {}
                Err(_) if len > MAX_SINGLE_LAUNCH_LEN => {}
                Err(e) => return Err(e),
            }
        }
        text += &format!("{}\t{}\n", scope.name, lens.join(","));
    }
    Ok(text)
}

/// The committed table's rows, parsed once.
fn table() -> &'static HashSet<(&'static str, usize)> {
    static ROWS: OnceLock<HashSet<(&'static str, usize)>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut rows = HashSet::new();
        for (name, lens) in table_rows(LANE_GROUP_ROWS) {
            let Some(scope) = SCOPES.iter().find(|s| s.name == name) else { continue };
            rows.extend(lens.into_iter().map(|len| (scope.name, len)));
        }
        rows
    })
}

/// A lane-group table's lines (`lane_group_table`'s format, the committed table's or
/// another's): each kind's name and its lengths.
pub fn table_rows(text: &str) -> Vec<(&str, Vec<usize>)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(name, lens)| (name, lens.split(',').filter_map(|l| l.parse().ok()).collect()))
        .collect()
}

/// The lengths the committed table lists for `kind` and `precision`, in increasing order
/// (tests sample the rows planning lays out by the model from it).
pub fn listed_lengths(kind: FftKind, precision: Precision) -> Vec<usize> {
    let Some(scope) = SCOPES.iter().find(|s| s.kind == kind && s.precision == precision) else { return Vec::new() };
    let mut lens: Vec<usize> = table().iter().filter(|(name, _)| *name == scope.name).map(|&(_, len)| len).collect();
    lens.sort_unstable();
    lens
}

/// Whether planning designs `problem`'s row by the lane-group model: a timed row the table
/// lists, on limits that still use the whole-warp model.
pub(crate) fn listed(problem: &FftProblem, limits: DeviceLimits) -> bool {
    limits.bank_model == BankModel::WholeWarp && timed_scope(problem).is_some_and(|s| table().contains(&(s.name, problem.len)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed table is what the rule gives today: a heuristic or wisdom change that
    /// alters a row's designs makes it stale.
    #[test]
    fn committed_table_is_what_the_rule_gives() {
        let generated = lane_group_table(DeviceLimits::H200).unwrap();
        assert!(
            generated == LANE_GROUP_ROWS,
            "src/fft/wisdom/lane_groups.tsv is stale: regenerate it with `cargo run --release --example fft_lane_groups`"
        );
        assert!(table().len() > 800, "{} rows", table().len());
    }

    /// Every row a scope's `measured_slower` lists is one the model alone would lay out anew,
    /// so the list holds no entry that no longer does anything.
    #[test]
    fn measured_slower_rows_are_rows_the_model_takes() {
        // Every offending row at once: a wisdom change can retire several (a row with an
        // entry is one the model leaves alone).
        let mut offending = Vec::new();
        for scope in &SCOPES {
            let name = scope.name;
            for &len in scope.measured_slower {
                let problem = FftProblem { kind: scope.kind, precision: scope.precision, ..FftProblem::c2c(len, 1) };
                assert!(timed_scope(&problem).is_some(), "{name} {len}: outside the rule's scope");
                if !model_takes_lane_groups(scope, problem, DeviceLimits::H200).unwrap() {
                    offending.push(format!("{name} {len}"));
                }
                assert!(!takes_lane_groups(problem, DeviceLimits::H200).unwrap(), "{name} {len}");
            }
        }
        assert!(offending.is_empty(), "the model keeps the pick (drop them from measured_slower): {}", offending.join(", "));
    }
}
