//! The kernels that tuning runs beside or instead of the heuristic's pick, correct on every
//! device: each recipe one choice away from a pick (the variants suite's, which a measuring
//! autotuner may choose) and each kernel the measured wisdom names. Apart from tests/fft.rs so
//! that neither binary nears the GPU suite's time limit a binary.

#[macro_use]
mod common;
mod fft_support;

use coalesce::fft::wisdom::{parse_wisdom, WisdomEntry, HOPPER_WISDOM};
use coalesce::fft::{limits, DeviceLimits, FftKind, FftProblem, FftRecipe, Precision};
use coalesce::Backend;
use fft_support::{check_recipes, fitting};

/// The recipes the variants benchmark times (one tuning choice away from the heuristic's) are
/// correct too: an autotuner may pick any of them.
#[test]
fn every_variant_of_a_recipe_is_correct() {
    for device in common::devices() {
        let lim = limits(&device);
        let mut problems: Vec<FftProblem> = [1, 6, 35, 67, 94, 97, 134, 156, 360, 989, 2039].map(|n| FftProblem::c2c(n, 3)).to_vec();
        problems.extend([FftProblem::r2c(98, 2), FftProblem::c2r(98, 2), FftProblem::r2c(264, 2), FftProblem::c2r(264, 2), FftProblem::r2c(97, 2), FftProblem::c2r(131, 2), FftProblem::c2r(576, 2)]);
        // OpenCL C has no launch bounds: there a variant that only bounds its pick is the pick's
        // code under another name. Bounds past 3 blocks (offered since the fortieth session)
        // are left out on OpenCL, where they would only add compile time to the PoCL run.
        let same_code_here = |pick: &FftRecipe, v: &FftRecipe| {
            device.backend() == Backend::OpenCl && v.tuning.min_blocks_per_sm > 3 && v.tuning.min_blocks_per_sm != pick.tuning.min_blocks_per_sm
        };
        let mut recipes: Vec<FftRecipe> = problems
            .iter()
            .filter_map(|&p| FftRecipe::design(p, lim).ok())
            .flat_map(|r| {
                let mut kept: Vec<FftRecipe> = r.variants(lim).into_iter().map(|v| v.1).filter(|v| !same_code_here(&r, v)).collect();
                kept.push(r);
                kept
            })
            .collect();
        // C2R rows mirroring the kernel R2C's wisdom runs, where it applies on this device: the
        // longer rows the variant was written for.
        for n in [2646, 3822] {
            let pick = FftRecipe::design_by_heuristic(FftProblem::c2r(n, 2), lim).unwrap();
            recipes.extend(pick.variant_path(lim, "mirror of r2c wisdom"));
        }
        check_recipes::<f32>(&device, recipes, "variants");
    }
}

/// The `partial trip guards` variant (src/fft/trip_guards.rs) in f64 and in the real kinds,
/// which the f32 C2C-heavy list above reaches less: each pass's last trip the only one guarded,
/// batches that leave blocks part full. The lengths run a partial trip in every kind (the A/B
/// that measured the form, eighty-fifth session, timed f64 R2C 156 and 110 among them).
#[test]
fn partial_trip_guards_are_correct_in_every_kind_and_precision() {
    for device in common::devices() {
        let lim = limits(&device);
        let problems = [FftProblem::c2c(360, 5), FftProblem::r2c(156, 7), FftProblem::c2r(110, 7), FftProblem::c2r(468, 9), FftProblem::r2c(1050, 3)];
        check_variant_in_both_precisions(&device, lim, &problems, &["partial trip guards"], FftRecipe::guards_partial_trip_only, "_tg1", "partial trip guards");
    }
}

/// The `stepped pair twiddles` variant (src/fft/pair_twiddles.rs) in both real kinds and both
/// precisions: mirror pairs that read W^p once and step it by literals, butterflies S/2 taking
/// literals alone (S even: 4096, 2600) or none (S odd: 572's last radix 2 over 286 points);
/// picks without mirror pairs take them first (`mirror pairs`, C2R's `mirror of r2c`).
#[test]
fn stepped_pair_twiddles_are_correct_in_both_real_kinds_and_precisions() {
    for device in common::devices() {
        let lim = limits(&device);
        let problems = [FftProblem::r2c(4096, 3), FftProblem::r2c(572, 7), FftProblem::c2r(2600, 5), FftProblem::c2r(3380, 3), FftProblem::r2c(1050, 9)];
        let paths = ["stepped pair twiddles", "mirror pairs / stepped pair twiddles", "mirror of r2c / stepped pair twiddles"];
        check_variant_in_both_precisions(&device, lim, &problems, &paths, FftRecipe::steps_pair_twiddles, "_stw", "stepped pair twiddles");
    }
}

/// The `sector-aligned stores` variant (src/fft/aligned_stores.rs) in every kind and both
/// precisions: store phases whose flat index starts at the block's 32-byte sector, in blocks of
/// one row (R2C 4096, 2600) and of many (C2C 27 and 33, C2R 25 and even 42, odd R2C 33, even
/// R2C 36, R2C 1024 two rows a block), batches that leave the last block part full. R2C picks
/// that store pairs take the elementwise store first.
#[test]
fn sector_aligned_stores_are_correct_in_every_kind_and_precision() {
    for device in common::devices() {
        let lim = limits(&device);
        let problems = [
            FftProblem::c2c(27, 1001),
            FftProblem::c2c(33, 77),
            FftProblem::r2c(33, 101),
            FftProblem::r2c(36, 99),
            FftProblem::c2r(25, 103),
            FftProblem::c2r(42, 97),
            FftProblem::r2c(1024, 5),
            FftProblem::r2c(2600, 3),
            FftProblem::r2c(4096, 3),
        ];
        let paths = ["sector-aligned stores", "half spectrum elementwise / sector-aligned stores", "staged store / sector-aligned stores", "staged io / sector-aligned stores"];
        check_variant_in_both_precisions(&device, lim, &problems, &paths, FftRecipe::aligns_stores, "_sa", "sector-aligned stores");
    }
}

/// One variant's kernels (`variants_along` `paths`), f32 and f64, checked on `device`: every
/// length reaches one in both precisions, each takes the variant's choice (`takes`) and its
/// name ends in the variant's `suffix`.
fn check_variant_in_both_precisions(device: &coalesce::Device, lim: DeviceLimits, problems: &[FftProblem], paths: &[&str], takes: fn(&FftRecipe) -> bool, suffix: &str, what: &str) {
    let variants = |precision: Precision| variants_along(lim, problems, precision, paths);
    let (single, double) = (variants(Precision::F32), variants(Precision::F64));
    assert_eq!((single.len(), double.len()), (problems.len(), problems.len()), "{what}: every length offers the variant in both precisions");
    assert!(single.iter().chain(&double).all(|r| takes(r) && r.kernel_name().ends_with(suffix)), "{what}");
    check_recipes::<f32>(device, single, &format!("{what} f32"));
    check_recipes::<f64>(device, double, &format!("{what} f64"));
}

/// Each of `problems` in `precision`, as the heuristic designs its pick, taken along the first
/// of `paths` (variant paths, `FftRecipe::variant_path`) that reaches a recipe from it; panics
/// where none does.
fn variants_along(lim: DeviceLimits, problems: &[FftProblem], precision: Precision, paths: &[&str]) -> Vec<FftRecipe> {
    problems
        .iter()
        .map(|&p| {
            let pick = FftRecipe::design_by_heuristic(p.precision(precision), lim).unwrap();
            paths.iter().find_map(|path| pick.variant_path(lim, path)).unwrap_or_else(|| panic!("{p:?} {precision:?}: none of {paths:?} from the pick"))
        })
        .collect()
}

// The kernels the measured wisdom runs instead of the heuristic's pick (src/fft/wisdom.rs),
// as each device designs them: every entry in the GPU suite, one in CI_ENTRY_STRIDE in CI and
// under the sanitizer; batches that leave blocks part full, in place too. One test a
// precision, C2C or real kinds, and a quarter of those entries (every fourth one), so that
// each stays under the GPU suite's time limit a test (`TEST_FILTER=wisdom_kernels_f32_c2c`
// runs all four): in the sixty-fifth session, on a fresh H200 beside 15 other tests, seven of
// the eight halves of the 6542 entries (650-910 each) ran past 540 s compiling.
tests_calling!(wisdom_kernels_every_entry {
    wisdom_kernels_f32_c2c_quarter_0(Precision::F32, Kinds::C2c, 0);
    wisdom_kernels_f32_c2c_quarter_1(Precision::F32, Kinds::C2c, 1);
    wisdom_kernels_f32_c2c_quarter_2(Precision::F32, Kinds::C2c, 2);
    wisdom_kernels_f32_c2c_quarter_3(Precision::F32, Kinds::C2c, 3);
    wisdom_kernels_f32_real_quarter_0(Precision::F32, Kinds::Real, 0);
    wisdom_kernels_f32_real_quarter_1(Precision::F32, Kinds::Real, 1);
    wisdom_kernels_f32_real_quarter_2(Precision::F32, Kinds::Real, 2);
    wisdom_kernels_f32_real_quarter_3(Precision::F32, Kinds::Real, 3);
    wisdom_kernels_f64_c2c_quarter_0(Precision::F64, Kinds::C2c, 0);
    wisdom_kernels_f64_c2c_quarter_1(Precision::F64, Kinds::C2c, 1);
    wisdom_kernels_f64_c2c_quarter_2(Precision::F64, Kinds::C2c, 2);
    wisdom_kernels_f64_c2c_quarter_3(Precision::F64, Kinds::C2c, 3);
    wisdom_kernels_f64_real_quarter_0(Precision::F64, Kinds::Real, 0);
    wisdom_kernels_f64_real_quarter_1(Precision::F64, Kinds::Real, 1);
    wisdom_kernels_f64_real_quarter_2(Precision::F64, Kinds::Real, 2);
    wisdom_kernels_f64_real_quarter_3(Precision::F64, Kinds::Real, 3);
});

/// Every entry of the wisdom, as planning on an H200 designs its row, runs the entry's kernel,
/// checked without a device: a row the lane-group table (wisdom/lane_groups.tsv) still lists
/// is designed by that model and never reaches its new wisdom entry (the eighty-third
/// session's f64 C2R 40 and 64 until the table was regenerated), which the GPU suite's
/// `wisdom_kernels_*` found only on an H200.
#[test]
fn every_wisdom_entry_is_what_planning_runs_on_an_h200() {
    let entries = parse_wisdom(HOPPER_WISDOM).unwrap();
    let unplanned: Vec<String> = entries
        .iter()
        .filter_map(|e| {
            let planned = FftRecipe::design_row(e.problem(9).unwrap(), DeviceLimits::H200).unwrap().kernel_name();
            (planned != e.faster).then(|| format!("{}: planned {planned}, the entry {}", e.pick, e.faster))
        })
        .collect();
    assert!(unplanned.is_empty(), "regenerate src/fft/wisdom/lane_groups.tsv (`cargo run --release --example fft_lane_groups`)? {unplanned:#?}");
}

/// The parts each (precision, kinds) test's entries are dealt into, one test a part.
const WISDOM_TEST_PARTS: usize = 4;

/// Which of the wisdom's entries one test checks: C2C, or R2C and C2R.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kinds {
    C2c,
    Real,
}

/// Checks the entries of one precision and kinds whose index among them is `part` modulo
/// WISDOM_TEST_PARTS.
fn wisdom_kernels_every_entry(precision: Precision, kinds: Kinds, part: usize) {
    let entries = parse_wisdom(HOPPER_WISDOM).unwrap();
    let only = picks_to_check();
    for device in common::devices() {
        let lim = limits(&device);
        let hopper = lim.shared_bytes == DeviceLimits::H200.shared_bytes && lim.max_threads == DeviceLimits::H200.max_threads;
        let of_test: Vec<&WisdomEntry> = entries
            .iter()
            .filter(|e| {
                let p = e.problem(1).unwrap();
                let kind = if p.kind == FftKind::C2C { Kinds::C2c } else { Kinds::Real };
                p.precision == precision && kind == kinds && only.as_ref().is_none_or(|picks| picks.contains(&e.pick))
            })
            .enumerate()
            .filter_map(|(i, e)| (i % WISDOM_TEST_PARTS == part).then_some(e))
            .collect();
        // Where the device's limits are an H100's or H200's, planning runs exactly the kernels timed.
        if hopper {
            let planned: Vec<String> = of_test.iter().map(|e| FftRecipe::design_row(e.problem(9).unwrap(), lim).unwrap().kernel_name()).collect();
            assert_eq!(planned, of_test.iter().map(|e| e.faster.clone()).collect::<Vec<_>>());
        }
        // Picks named one by one are all checked, here too (the stride thins the whole table).
        let every = only.is_some() || (common::full() && !common::under_sanitizer());
        let recipes = wisdom_recipes(&of_test, lim, hopper, every);
        assert!(!recipes.is_empty() || !hopper || only.is_some(), "{precision} {kinds:?} part {part}: no wisdom kernel to check");
        match precision {
            Precision::F32 => check_recipes::<f32>(&device, recipes, &format!("wisdom f32 {kinds:?}")),
            Precision::F64 => check_recipes::<f64>(&device, recipes, &format!("wisdom f64 {kinds:?}")),
        }
    }
}

/// The picks named in the file `COALESCE_WISDOM_PICKS` names, one a line, if set: the GPU
/// suite can then check the entries that one regeneration of the table added or changed in a
/// short call, and PoCL all of them (no stride). Where it is not set, the whole table is
/// checked, one entry in CI_ENTRY_STRIDE outside the GPU suite.
fn picks_to_check() -> Option<Vec<String>> {
    let path = std::env::var("COALESCE_WISDOM_PICKS").ok()?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("COALESCE_WISDOM_PICKS={path}: {e}"));
    let picks: Vec<String> = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
    eprintln!("COALESCE_WISDOM_PICKS: checking the {} picks {path} names", picks.len());
    Some(picks)
}

/// Outside the GPU suite, every how-many-th wisdom entry of each test is checked: at 32, about
/// 221 of the 7082 entries, out of place and in place (on PoCL one in eight took 23 minutes
/// once the table held the fifty-eighth session's Rader codelets, whose straight-line kernels
/// PoCL compiles slowly, and one in sixteen 21 minutes on a 2-core machine). The GPU suite
/// checks them all.
const CI_ENTRY_STRIDE: usize = 32;

/// The faster kernels of `entries` (all of them if `every`, else every CI_ENTRY_STRIDE-th), out
/// of place and in place, as a device with `lim` designs them.
fn wisdom_recipes(entries: &[&WisdomEntry], lim: DeviceLimits, hopper: bool, every: bool) -> Vec<FftRecipe> {
    let mut recipes = Vec::new();
    for (i, e) in entries.iter().enumerate().filter(|(i, _)| every || i % CI_ENTRY_STRIDE == 0) {
        for (problem, timed) in [(e.problem(9).unwrap(), true), (e.problem(3).unwrap().in_place(), false)] {
            let Some(pick) = fitting(FftRecipe::design_row_by_heuristic(problem, lim), lim, "wisdom") else { continue };
            // (A device of other limits, or in place, may design another pick, whose
            // variants differ.)
            match pick.variant_path(lim, &e.variant) {
                Some(faster) => recipes.push(faster),
                None => assert!(!(hopper && timed), "entry {i}: {} has no variant '{}'", e.pick, e.variant),
            }
        }
    }
    recipes
}
