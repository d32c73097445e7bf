//! FFT correctness on every device: against rustfft in f64, every kind, both precisions,
//! in and out of place, with poisoned outputs. CI runs a representative set; the GPU suite
//! (COALESCE_FULL_TESTS=1) runs every N in 1..=1024 and more. The kernels of variants and of
//! the measured wisdom are tested in tests/fft_tuning.rs.

#[macro_use]
mod common;
mod fft_support;

use coalesce::fft::factor::{bluestein_len, is_prime, largest_prime_factor};
use coalesce::fft::{limits, Core, DeviceLimits, Direction, FftKind, FftPlan, FftProblem, FftRecipe, Normalization, Precision, MAX_PRIME_RADIX};
use coalesce::{Complex, Error};
use fft_support::{check_all, check_recipes, fitting, poisoned, small_shared_memory};

/// Every N up to 64 (1024 in the GPU suite).
fn small_lengths() -> Vec<usize> {
    let max = if common::full() && !common::under_sanitizer() { 1024 } else { 64 };
    (1..=max).collect()
}

/// Primes, powers of two and neighbours, products of large primes, and a seeded random spread,
/// up to 4096.
fn spread() -> Vec<usize> {
    // 65 and 287 = 41 x 7: short rows (5 and 7 threads) that read global memory, store staged.
    let mut v = vec![65, 67, 97, 127, 128, 129, 255, 256, 257, 287, 509, 512, 1021, 1024, 1025, 1517, 2039, 2048, 2310, 3001, 4078, 4087, 4093, 4095, 4096];
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let extra = if common::full() { 60 } else { 6 };
    for _ in 0..extra {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push(1 + (x % 4096) as usize);
    }
    if common::under_sanitizer() {
        v.retain(|&n| n <= 1024);
    }
    v
}

/// The f32 C2C problems of `lengths` (9 rows each: blocks of several rows end part full) whose
/// design meets the first of two planner rules, then those meeting the second; panics where
/// either meets fewer than its `least`, a sample that no longer exercises its rule.
fn c2c_rows_of_two_rules(lim: DeviceLimits, lengths: Vec<usize>, rules: [&dyn Fn(&FftRecipe) -> bool; 2], least: [usize; 2]) -> Vec<FftProblem> {
    let mut met: [Vec<FftProblem>; 2] = [Vec::new(), Vec::new()];
    for n in lengths {
        let Ok(r) = FftRecipe::design_by_heuristic(FftProblem::c2c(n, 9), lim) else { continue };
        if let Some(i) = rules.iter().position(|rule| rule(&r)) {
            met[i].push(r.problem);
        }
    }
    assert!(met[0].len() >= least[0] && met[1].len() >= least[1], "the sample lost its rules: {met:?}");
    met.concat()
}

#[test]
fn c2c_f32_every_small_length() {
    for device in common::devices() {
        let problems: Vec<FftProblem> = small_lengths().into_iter().map(|n| FftProblem::c2c(n, if n % 2 == 0 { 3 } else { 1 })).collect();
        check_all::<f32>(&device, &problems, "c2c f32 small");
    }
}

#[test]
fn c2c_f32_spread_in_and_out_of_place() {
    for device in common::devices() {
        let mut problems: Vec<FftProblem> = spread().into_iter().map(|n| FftProblem::c2c(n, 2)).collect();
        problems.extend([1, 7, 64, 97, 1000, 4096].map(|n| FftProblem::c2c(n, 3).in_place()));
        check_all::<f32>(&device, &problems, "c2c f32 spread");
    }
}

#[test]
fn real_f32_even_and_odd() {
    for device in common::devices() {
        let max = if common::full() && !common::under_sanitizer() { 256 } else { 24 };
        let mut problems: Vec<FftProblem> = (1..=max).map(|n| FftProblem::r2c(n, 3)).collect();
        problems.extend((1..=max).map(|n| FftProblem::c2r(n, 3)));
        // 720, 2288, 4056: C2R rows of a thread per first-pass butterfly (later passes in two
        // rounds; 720 three rows a block, a partial last one). 102 (9 trips a thread) and
        // 1032 (31): staged pair loops that fetch in several runs, the last one partial.
        // 180: R2C rows of 6 threads reading global memory, their store staged; 864: C2R
        // pairs without padding; 1408: C2R designed under radix 15 (11 x 8 x 8).
        for n in [97, 102, 128, 180, 720, 864, 1000, 1032, 1408, 2039, 2288, 4056, 4094, 4095, 4096] {
            problems.push(FftProblem::r2c(n, 2));
            problems.push(FftProblem::c2r(n, 2));
        }
        // C2R blocks of several rows loading their pairs row by row: 250 (odd m, 12 rows of 25
        // threads), 616 (28 threads, the last trip part full), 1690 (2 rows); 15 rows, so that
        // the last block holds fewer and reads its last row again.
        problems.extend([250, 616, 1690].map(|n| FftProblem::c2r(n, 15)));
        for n in [6, 7, 97, 128, 720] {
            problems.push(FftProblem::r2c(n, 2).in_place());
            problems.push(FftProblem::c2r(n, 2).in_place());
        }
        check_all::<f32>(&device, &problems, "real f32");
    }
}

/// Passes of many butterflies a thread take k = j mod ns without a division where a trip's j
/// lie in one period of ns (codegen/passes.rs, LITERAL_K_MIN_TRIPS): k = j in a last pass
/// (C2R and R2C 468 and 364: radix 2 over 7 trips; C2R 3520 over 6; C2C 2494 = 43 x 29 x 2
/// over 22; R2C 3520 writes its last pass in mirror pairs and keeps the division), k = j
/// minus a literal in other passes (C2C 456 = 19 x 6 x 4, 1015 = 29 x 7 x 5, Rader 157), and
/// f64 keeping the division. 7 rows, so that blocks of several rows end part full.
#[test]
fn butterflies_of_long_passes_take_k_without_a_division() {
    let lim = DeviceLimits::H200;
    let mut problems: Vec<FftProblem> = [456, 1015, 157, 2494].map(|n| FftProblem::c2c(n, 7)).to_vec();
    problems.extend([468, 364, 3520].into_iter().flat_map(|n| [FftProblem::c2r(n, 7), FftProblem::r2c(n, 7)]));
    // The sample still takes both forms on the H200's heuristic designs.
    let bodies: Vec<String> = problems.iter().map(|&p| FftPlan::source(&FftRecipe::design_by_heuristic(p, lim).unwrap()).body).collect();
    assert!(bodies.iter().any(|b| b.contains("const u32 k = j;")), "no butterfly takes k = j");
    assert!(bodies.iter().any(|b| b.contains("const u32 k = j - ")), "no butterfly takes k = j minus a literal");
    let f64_body = FftPlan::source(&FftRecipe::design_by_heuristic(FftProblem::c2r(468, 7).precision(Precision::F64), lim).unwrap()).body;
    assert!(f64_body.contains("const u32 k = j % ") && !f64_body.contains("const u32 k = j;"), "f64 divides: {f64_body}");
    for device in common::devices() {
        check_all::<f32>(&device, &problems, "k without a division");
        let f64_problems: Vec<FftProblem> = [FftProblem::c2r(468, 7), FftProblem::c2c(2494, 3)].map(|p| p.precision(Precision::F64)).to_vec();
        check_all::<f64>(&device, &f64_problems, "k without a division, f64");
    }
}

#[test]
fn f64_all_kinds() {
    for device in common::devices() {
        // 183 = 61 x 3: declared without launch bounds; 195 = 15 x 13, 255 = 17 x 15: first
        // passes reading global memory.
        let mut lengths = vec![1, 2, 3, 16, 17, 60, 61, 97, 183, 195, 255, 360, 1024, 2039, 2048];
        if common::full() && !common::under_sanitizer() {
            lengths.extend(1..=128);
            lengths.extend([1000, 1999, 2047, 4096]);
        }
        let mut problems: Vec<FftProblem> = lengths.iter().map(|&n| FftProblem::c2c(n, 2)).collect();
        problems.extend([2, 15, 16, 98, 244, 2048].map(|n| FftProblem::r2c(n, 2)));
        problems.extend([2, 15, 16, 98, 244, 2048].map(|n| FftProblem::c2r(n, 2)));
        // C2R pairs loaded row by row (4, 8 and 11 threads a row; 308: pair m/2 a trip's first).
        problems.extend([104, 144, 308].map(|n| FftProblem::c2r(n, 15)));
        problems.push(FftProblem::c2c(60, 3).in_place());
        check_all::<f64>(&device, &problems, "f64");
    }
}

/// Rows the planner packs with composite codelets of 17 to 32 points, in fewer passes
/// (src/fft/fewer_passes.rs): every such length up to 4096 in the GPU suite, a sample in CI;
/// C2C, R2C and C2R in f32, C2C in f64, out of place and in place.
#[test]
fn long_codelet_rows_every_kind() {
    for device in common::devices() {
        let lim = limits(&device);
        let long_codelet = |p: &FftProblem| {
            FftRecipe::design_by_heuristic(*p, lim).is_ok_and(|r| matches!(&r.core, Core::Stockham { radices, .. } if radices.iter().any(|&x| x > 16 && !is_prime(x))))
        };
        let lengths: Vec<usize> = if common::full() && !common::under_sanitizer() { (17..=4096).collect() } else { vec![754, 2880, 3125, 3960, 4000] };
        let mut problems: Vec<FftProblem> =
            lengths.iter().flat_map(|&n| [FftProblem::c2c(n, 2), FftProblem::r2c(n, 2), FftProblem::c2r(n, 2)]).filter(long_codelet).collect();
        assert!(problems.len() >= 8, "the sample lost its long codelets: {problems:?}");
        problems.extend([FftProblem::c2c(3125, 2).in_place(), FftProblem::r2c(4000, 2).in_place(), FftProblem::c2r(4000, 2).in_place()].into_iter().filter(long_codelet));
        check_all::<f32>(&device, &problems, "long codelets f32");
        // f64 C2C takes them too (composite widest passes only).
        let lengths: Vec<usize> = if common::full() && !common::under_sanitizer() { (17..=4096).collect() } else { vec![1782, 2000, 3125] };
        let mut problems: Vec<FftProblem> = lengths.iter().map(|&n| FftProblem::c2c(n, 2).f64()).filter(long_codelet).collect();
        // (3125 f64 points, 50000 bytes, outgrow a 48 KiB device.)
        let least = if small_shared_memory(lim) { 2 } else { 3 };
        assert!(problems.len() >= least, "the f64 sample lost its long codelets: {problems:?}");
        problems.push(FftProblem::c2c(2000, 2).f64().in_place());
        check_all::<f64>(&device, &problems, "long codelets f64");
    }
}

/// Direct f32 C2C rows whose last pass writes shared memory and a coalesced copy stores the
/// block (src/fft/direct_load.rs, `with_staged_store`), and rows of 54..63 threads one to a
/// block (src/fft/rows_per_block.rs): every such length up to 4096 in the GPU suite, a sample
/// in CI and under the sanitizer; batches that leave the last block part full, in place too.
#[test]
fn staged_store_and_lone_rows() {
    for device in common::devices() {
        let lim = limits(&device);
        let staged_store = |r: &FftRecipe| r.tuning.direct_io && r.tuning.staged_store && r.tuning.threads_per_transform >= 16;
        let lone = |r: &FftRecipe| r.tuning.transforms_per_block == 1 && (54..=63).contains(&r.tuning.threads_per_transform);
        let lengths: Vec<usize> = if common::full() && !common::under_sanitizer() { (2..=4096).collect() } else { vec![368, 464, 703, 1007, 1534, 1740, 1922] };
        let mut problems = c2c_rows_of_two_rules(lim, lengths, [&staged_store, &lone], [4, 2]);
        problems.extend([FftProblem::c2c(368, 9).in_place(), FftProblem::c2c(1740, 2).in_place()]);
        check_all::<f32>(&device, &problems, "staged store and lone rows");
    }
}

/// Short f32 C2C rows in two passes of long codelets (273 = 21 x 13 with 13 threads) and rows
/// of a large prime codelet in blocks of up to two warps (69 = 23 x 3: 21 rows of 3 threads),
/// as the planner designs them (fewer_passes.rs, rows_per_block.rs): batches that leave the
/// last block part full, in place too; every length of either rule in the GPU suite.
#[test]
fn short_rows_in_two_passes_and_prime_rows_in_two_warps() {
    for device in common::devices() {
        let lim = limits(&device);
        let short_in_two = |r: &FftRecipe| r.problem.len <= 460 && r.core.passes() == 2 && r.core.codelet_radices().iter().any(|&x| x > 16 && !is_prime(x));
        let prime_in_two_warps = |r: &FftRecipe| {
            let widest = r.core.codelet_radices().iter().copied().max().unwrap_or(1);
            is_prime(widest) && widest >= 19 && r.tuning.transforms_per_block >= 2 && r.threads_per_block() <= 64
        };
        let lengths: Vec<usize> = if common::full() && !common::under_sanitizer() { (2..=1024).collect() } else { vec![69, 162, 235, 273, 294, 580, 615] };
        let mut problems = c2c_rows_of_two_rules(lim, lengths, [&short_in_two, &prime_in_two_warps], [3, 3]);
        problems.extend([FftProblem::c2c(273, 9).in_place(), FftProblem::c2c(69, 22).in_place()]);
        check_all::<f32>(&device, &problems, "short rows in two passes, prime rows in two warps");
    }
}

/// f32 rows given more threads than their core's default so that no pass holds more than 64
/// values a thread (src/fft/held_values.rs: 3538 = 61 x 29 x 2 with 61 threads, not 58),
/// C2C and the half-length cores of even real rows, staged (305 = 61 x 5) and direct: every
/// such length up to 4096 in the GPU suite, a sample in CI and under the sanitizer; batches
/// that leave the last block part full, in place too.
#[test]
fn rows_holding_many_values_take_more_threads() {
    for device in common::devices() {
        let lim = limits(&device);
        let raised = |r: &FftRecipe| {
            let default = FftRecipe::design_around(r.problem, r.core.clone(), lim).expect("the core designs alone");
            r.tuning.threads_per_transform > default.tuning.threads_per_transform && r.most_values_held() <= 64
        };
        let full = common::full() && !common::under_sanitizer();
        let lengths: Vec<usize> = if full { (2..=4096).collect() } else { vec![305, 610, 793, 1739, 2501, 3538, 3657] };
        let candidates = lengths.iter().flat_map(|&n| {
            let real = (n % 2 == 0).then(|| [FftProblem::r2c(n, 9), FftProblem::c2r(n, 9)]);
            std::iter::once(FftProblem::c2c(n, 9)).chain(real.into_iter().flatten())
        });
        let mut problems: Vec<FftProblem> = candidates
            .filter_map(|p| fitting(FftRecipe::design_by_heuristic(p, lim), lim, "held values"))
            .filter(|r| raised(r))
            .map(|r| r.problem)
            .collect();
        let real = problems.iter().filter(|p| p.kind != FftKind::C2C).count();
        assert!((problems.len() - real >= 3 && real >= 2) || small_shared_memory(lim), "the sample lost its rule: {problems:?}");
        problems.extend([FftProblem::c2c(305, 41).in_place(), FftProblem::c2c(3538, 2).in_place(), FftProblem::r2c(3538, 3).in_place()]);
        check_all::<f32>(&device, &problems, "rows holding many values");
    }
}

// Direct rows of even real length whose core's own pass reads (C2R: its first) or writes
// (R2C: its last) the half spectrum a mirror pair of butterflies per thread
// (src/fft/codegen/mirror.rs; forced, as the planner takes it for R2C only where it measured
// faster): odd and even butterfly counts, one and several pairs a thread, several rows a
// block with a partial last one, Rader's last pass, in place, f64; every even length up to
// 4096 in the GPU suite, a quarter of them (every fourth) a test: in the sixty-first session
// all of them in one test ran past the GPU suite's 540 s twice. Outside the GPU suite quarter 0
// alone runs, over a fixed sample of lengths; it also holds the in-place, one-pass and f64
// cases.
tests_calling!(half_spectrum_in_mirror_pairs {
    half_spectrum_in_mirror_pairs_every_kind_quarter_0(0);
    half_spectrum_in_mirror_pairs_every_kind_quarter_1(1);
    half_spectrum_in_mirror_pairs_every_kind_quarter_2(2);
    half_spectrum_in_mirror_pairs_every_kind_quarter_3(3);
});

fn half_spectrum_in_mirror_pairs(quarter: usize) {
    let every_length = common::full() && !common::under_sanitizer();
    if quarter != 0 && !every_length {
        return;
    }
    for device in common::devices() {
        let lim = limits(&device);
        let mirrored = |p: FftProblem| {
            let mut r = FftRecipe::design(p, lim).ok().filter(|r| r.can_mirror_pairs())?;
            (r.tuning.half_spectrum_pairs, r.tuning.mirror_pairs) = (true, true);
            assert!(r.pairs_in_core_pass(), "{p:?}");
            Some(r)
        };
        let lengths: Vec<usize> =
            if every_length { (2..=4096).step_by(2).skip(quarter).step_by(4).collect() } else { vec![128, 200, 256, 268, 324, 1000, 2310, 4046, 4096] };
        let mut recipes: Vec<FftRecipe> = lengths.iter().flat_map(|&n| [FftProblem::r2c(n, 5), FftProblem::c2r(n, 5)]).filter_map(mirrored).collect();
        assert!(recipes.len() >= 16, "the sample lost its mirror pairs: {}", recipes.len());
        if quarter != 0 {
            check_recipes::<f32>(&device, recipes, &format!("mirror pairs f32, quarter {quarter}"));
            continue;
        }
        recipes.extend([FftProblem::r2c(1000, 2).in_place(), FftProblem::c2r(1000, 2).in_place()].into_iter().filter_map(mirrored));
        // A core of one pass (16 points), made direct: the pairs and the other side's global
        // memory in the same pass.
        for p in [FftProblem::r2c(32, 5), FftProblem::c2r(32, 5)] {
            let mut r = FftRecipe::design(p, lim).unwrap();
            assert_eq!(r.core.passes(), 1);
            (r.tuning.direct_io, r.tuning.half_spectrum_pairs, r.tuning.mirror_pairs) = (true, true, true);
            assert!(r.pairs_in_core_pass(), "{p:?}");
            recipes.push(r);
        }
        check_recipes::<f32>(&device, recipes, "mirror pairs f32");
        let recipes: Vec<FftRecipe> = [256, 1000, 2048].iter().flat_map(|&n| [FftProblem::r2c(n, 3).f64(), FftProblem::c2r(n, 3).f64()]).filter_map(mirrored).collect();
        assert!(recipes.len() >= 4, "the f64 sample lost its mirror pairs: {}", recipes.len());
        check_recipes::<f64>(&device, recipes, "mirror pairs f64");
    }
}

/// Rader's algorithm (forced where the planner prefers Bluestein): primes whose p - 1 is
/// 13-smooth, alone and times small factors (one to 61 DFTs of length p per row), every kind
/// and both precisions; and convolutions with prime codelets of 17 to 61.
#[test]
fn rader_lengths_every_kind() {
    for device in common::devices() {
        let lim = limits(&device);
        let rader = |p: FftProblem| {
            let core = Core::rader(FftRecipe::core_len(&p), None).unwrap_or_else(|| panic!("no Rader core for {p:?}"));
            fitting(FftRecipe::design_around(p, core, lim), lim, &format!("Rader {p:?}"))
        };
        let mut problems: Vec<FftProblem> = [67, 71, 127, 134, 201, 268, 5 * 71, 7 * 97, 1093, 2 * 1093, 61 * 67, 3001, 4001].map(|n| FftProblem::c2c(n, 3)).to_vec();
        problems.extend([67, 134, 4094, 2 * 1093].map(|n| FftProblem::r2c(n, 2)));
        problems.extend([67, 134, 4094, 2 * 1093].map(|n| FftProblem::c2r(n, 2)));
        problems.push(FftProblem::c2c(134, 2).in_place());
        check_recipes::<f32>(&device, problems.into_iter().filter_map(rader).collect(), "rader f32");
        // f64 rows of many DFTs a thread per butterfly too: 402 = 6 x 67 (two rows a block),
        // 1349 = 19 x 71, 3686 = 38 x 97 (228 threads, passes of 19 and 2 after the DFTs; its
        // 59584 bytes of shared memory are past NVIDIA OpenCL's 48 KiB, where `fitting` skips it).
        let problems = [67, 134, 1093, 2 * 1009, 402, 1349, 3686].into_iter().filter_map(|n| rader(FftProblem::c2c(n, 2).precision(Precision::F64)));
        check_recipes::<f64>(&device, problems.collect(), "rader f64");
        // Convolutions with prime codelets past the rule's limit (the `rader` variant's):
        // 102 = 17 x 6, 1020 = 17 x 60, 366 = 61 x 6 (734 = 2 x 367), 4092 = 31 x 132.
        let wide = |p: FftProblem| {
            let core = Core::rader_up_to(FftRecipe::core_len(&p), None, MAX_PRIME_RADIX).unwrap_or_else(|| panic!("no Rader core for {p:?}"));
            fitting(FftRecipe::design_around(p, core, lim), lim, &format!("wide Rader {p:?}"))
        };
        let mut problems: Vec<FftProblem> = [103, 1021, 734, 4093].map(|n| FftProblem::c2c(n, 3)).to_vec();
        problems.extend([FftProblem::r2c(206, 2), FftProblem::c2r(206, 2), FftProblem::r2c(1021, 2), FftProblem::c2r(1021, 2)]);
        check_recipes::<f32>(&device, problems.into_iter().filter_map(wide).collect(), "rader wide f32");
        let problems = [103, 2 * 1021].into_iter().filter_map(|n| wide(FftProblem::c2c(n, 2).precision(Precision::F64)));
        check_recipes::<f64>(&device, problems.collect(), "rader wide f64");
    }
}

/// Rader's convolution by prime factors (the `prime-factor convolution` variant: two coprime
/// radices, the pick's or p - 1 split anew, no twiddles between its passes, its tables in the
/// prime-factor orders), alone and with the tuning choices that change how its passes run
/// (unfused, in place, gathered from the other memory, the other lane order, twiddle tables,
/// other thread counts), every kind and both precisions.
#[test]
fn rader_convolution_by_prime_factors_every_kind() {
    const PATHS: [&str; 11] = [
        "convolution split", "in place", "gather from global", "gather from shared", "lanes along dfts", "lanes across dfts",
        "twiddle table", "twiddles computed", "rows x2", "threads /2", "threads x2",
    ];
    for device in common::devices() {
        let lim = limits(&device);
        let by_prime_factors = |p: FftProblem| -> Vec<FftRecipe> {
            // From the heuristic's pick (the wisdom's may be another algorithm on an H200).
            let pick = FftRecipe::design_by_heuristic(p, lim).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            let Some(pfc) = pick.variant_path(lim, "prime-factor convolution") else {
                // (A core split anew may not fit 48 KiB of shared memory.)
                assert!(small_shared_memory(lim), "{p:?}: no prime-factor convolution for {}", pick.kernel_name());
                return Vec::new();
            };
            let mut recipes: Vec<FftRecipe> = PATHS.iter().filter_map(|v| pfc.variant_path(lim, v)).filter(|r| r.kernel_name().contains("_pfc")).collect();
            recipes.push(pfc);
            recipes
        };
        // The pick's own radices: 67 = 11 x 6 + 1 alone, 142 = 2 x 71 (70 = 10 x 7), 1420 = 20
        // x 71, 2047 = 23 x 89 (88 = 11 x 8). Split anew: 109 (6 x 6 x 3 -> 27 x 4), 211
        // (10 x 7 x 3 -> 15 x 14), 327 = 3 x 109, 314 = 2 x 157 (13 x 4 x 3 -> 13 x 12).
        let mut problems: Vec<FftProblem> = [67, 142, 1420, 2047, 109, 211, 327].map(|n| FftProblem::c2c(n, 3)).to_vec();
        problems.extend([134, 1420, 314].map(|n| FftProblem::r2c(n, 2)));
        problems.extend([134, 1420, 314].map(|n| FftProblem::c2r(n, 2)));
        let recipes: Vec<FftRecipe> = problems.into_iter().flat_map(by_prime_factors).collect();
        assert!(recipes.len() >= 16, "the variant's paths were not offered: {}", recipes.len());
        check_recipes::<f32>(&device, recipes, "prime-factor convolution f32");
        let recipes: Vec<FftRecipe> = [67, 1420, 157].into_iter().flat_map(|n| by_prime_factors(FftProblem::c2c(n, 2).f64())).collect();
        check_recipes::<f64>(&device, recipes, "prime-factor convolution f64");
    }
}

/// Rader rows of six DFTs or more as the planner designs them, their convolution and outer
/// passes in the fewest passes (src/fft/fewer_passes.rs, `rader_in_fewer_passes`): codelets of
/// up to 32 points there, 2114 = 14 x 151 as 15 x 10 then 14, 3624 = 24 x 151 as 15 x 10 then
/// 24, 2406 = 6 x 401 as 20 x 20; every kind, both precisions (f64 up to 16 points); every
/// seventh such length up to 4096 in the GPU suite.
#[test]
fn rader_rows_in_fewest_passes_every_kind() {
    for device in common::devices() {
        let lim = limits(&device);
        let two_pass_convolution = |p: &FftProblem| {
            FftRecipe::design_by_heuristic(*p, lim).is_ok_and(|r| matches!(&r.core, Core::Rader { len, prime, inner, .. } if len / prime >= 6 && inner.len() == 2 && inner.iter().any(|&x| x > 12)))
        };
        let lengths: Vec<usize> = if common::full() && !common::under_sanitizer() { (100..=4096).step_by(7).collect() } else { vec![2114, 3624, 2406, 2 * 2114] };
        let problems: Vec<FftProblem> =
            lengths.iter().flat_map(|&n| [FftProblem::c2c(n, 2), FftProblem::r2c(n, 2), FftProblem::c2r(n, 2)]).filter(two_pass_convolution).collect();
        assert!(problems.len() >= 5, "the sample lost its two-pass convolutions: {problems:?}");
        check_all::<f32>(&device, &problems, "rader fewest passes f32");
        let lengths: Vec<usize> = if common::full() && !common::under_sanitizer() { (100..=4096).step_by(7).collect() } else { vec![2114, 3624] };
        let problems: Vec<FftProblem> =
            lengths.iter().flat_map(|&n| [FftProblem::c2c(n, 2).f64(), FftProblem::r2c(2 * n, 2).f64()]).filter(two_pass_convolution).collect();
        assert!(problems.len() >= 2, "the f64 sample lost its two-pass convolutions: {problems:?}");
        check_all::<f64>(&device, &problems, "rader fewest passes f64");
    }
}

/// Bluestein on the largest prime factor (forced, whatever the planner prefers): one to 61
/// DFTs of a prime length per row, each by its own convolution, then the outer passes; every
/// kind, both precisions, in place, and staged as well as direct reads.
#[test]
fn bluestein_on_a_factor_every_kind() {
    for device in common::devices() {
        let lim = limits(&device);
        let on_factor = |p: FftProblem, direct_io: bool| {
            let len = FftRecipe::core_len(&p);
            let factor = largest_prime_factor(len);
            let core = Core::bluestein(len, factor, bluestein_len(factor), 16).unwrap_or_else(|| panic!("no Bluestein core for {p:?}"));
            let mut r = fitting(FftRecipe::design_around(p, core, lim), lim, &format!("{p:?}"))?;
            r.tuning.direct_io = direct_io;
            Some(r)
        };
        // 2 x 83, 3 x 83, 4 x 773, 2 x 1031, 6 x 83 x ... and 61 DFTs of 67; 7 (prime, whole).
        let lengths = [166, 249, 3092, 2062, 2 * 3 * 5 * 83, 61 * 67, 7 * 389, 89];
        let mut recipes: Vec<FftRecipe> = lengths.iter().filter_map(|&n| on_factor(FftProblem::c2c(n, 3), true)).collect();
        recipes.extend([166, 3092].into_iter().filter_map(|n| on_factor(FftProblem::c2c(n, 2), false)));
        recipes.extend(on_factor(FftProblem::c2c(249, 2).in_place(), true));
        for n in [2 * 166, 166, 2 * 249, 249] {
            recipes.extend(on_factor(FftProblem::r2c(n, 2), true));
            recipes.extend(on_factor(FftProblem::c2r(n, 2), true));
        }
        assert!(recipes.len() >= 16, "{} recipes", recipes.len());
        check_recipes::<f32>(&device, recipes, "bluestein on a factor f32");
        let recipes: Vec<FftRecipe> = [166, 3 * 1009].into_iter().filter_map(|n| on_factor(FftProblem::c2c(n, 2).precision(Precision::F64), true)).collect();
        check_recipes::<f64>(&device, recipes, "bluestein on a factor f64");
    }
}

/// Bluestein's measured exceptions (src/fft/bluestein_tuning.rs): whole-row convolutions in
/// codelets of up to 32 points (2646 = 21 x 21 x 6 two rows a block, 6174 = 21 x 21 x 14, 8192 =
/// 32 x 32 x 8, which 7056 and 7938 round up to and long convolutions on a factor give way to:
/// 3089, 3194 = 2 x 1597), rows on a factor of an odd number of lines unpadded, and kernels without the
/// two-block launch bound (1286, 1835), f32 of every kind: every such C2C length up to 4096 in
/// the GPU suite (R2C and C2R every third length, to keep the suite in its time), a sample in
/// CI and under the sanitizer; in place too.
#[test]
fn bluestein_tuning_rules_every_kind() {
    for device in common::devices() {
        let lim = limits(&device);
        let under_rule = |p: &FftProblem| {
            FftRecipe::design_by_heuristic(*p, lim).is_ok_and(|r| match &r.core {
                Core::Bluestein { len, factor, radices, .. } if factor == len => radices.iter().any(|&x| x > 16),
                Core::Bluestein { len, factor, .. } => (len / factor) % 2 == 1 && len / factor >= 5 && !r.tuning.is_padded(),
                _ => false,
            })
        };
        let full = common::full() && !common::under_sanitizer();
        let lengths: Vec<usize> = if full { (2..=4096).collect() } else { vec![1283, 2566, 2843, 3089, 3194, 3269, 3563, 4093] };
        let real = |n: usize| !full || n.is_multiple_of(3);
        let mut problems: Vec<FftProblem> = lengths
            .iter()
            .flat_map(|&n| [Some(FftProblem::c2c(n, 3)), real(n).then(|| FftProblem::r2c(n, 3)), real(n).then(|| FftProblem::c2r(n, 3))])
            .flatten()
            .filter(under_rule)
            .collect();
        // (A device of 48 KiB a block designs these lengths otherwise.)
        assert!(problems.len() >= 10 || small_shared_memory(lim), "the sample lost its rules: {problems:?}");
        problems.extend([FftProblem::c2c(2843, 2).in_place(), FftProblem::c2c(3194, 2).in_place(), FftProblem::c2c(3269, 2).in_place()]);
        problems.extend([FftProblem::c2c(1286, 3), FftProblem::c2r(1835, 3)]);
        check_all::<f32>(&device, &problems, "bluestein tuning rules");
    }
}

/// Ping-pong passes (two shared buffers, each pass reading one and writing the other) for
/// every core and both io paths: Stockham staged, direct and in place; Rader with one and
/// several DFTs per row (its x[0] and X[0] slots in the buffers they were written to);
/// Bluestein whole and on a factor; convolutions fused and split; real packings; f64.
#[test]
fn ping_pong_passes_every_core() {
    for device in common::devices() {
        let lim = limits(&device);
        let ping_pong = |p: FftProblem, direct_io: Option<bool>| {
            let mut r = fitting(FftRecipe::design(p, lim), lim, &format!("{p:?}"))?;
            r.tuning.ping_pong = true;
            if let Some(direct) = direct_io {
                r.tuning.direct_io = direct;
            }
            Some(r)
        };
        let rader = |p: FftProblem| {
            let core = Core::rader(FftRecipe::core_len(&p), None).unwrap();
            let mut r = FftRecipe::design_around(p, core, lim).unwrap();
            r.tuning.ping_pong = true;
            r
        };
        let mut recipes: Vec<FftRecipe> = [2, 7, 64, 360, 1000, 4096].into_iter().filter_map(|n| ping_pong(FftProblem::c2c(n, 3), Some(false))).collect();
        recipes.extend([64, 360, 4096, 2039, 3092].into_iter().filter_map(|n| ping_pong(FftProblem::c2c(n, 3), None)));
        recipes.extend([FftProblem::c2c(360, 2).in_place(), FftProblem::r2c(1000, 2), FftProblem::c2r(1000, 2), FftProblem::r2c(97, 2)].into_iter().filter_map(|p| ping_pong(p, None)));
        // Three-pass (odd) and two-pass convolutions, one DFT and several per row.
        recipes.extend([FftProblem::c2c(937, 2), FftProblem::c2c(67, 3), FftProblem::c2c(134, 3), FftProblem::c2c(5 * 71, 2), FftProblem::r2c(134, 2), FftProblem::c2r(4094, 2)].map(rader));
        assert!(recipes.iter().any(|r| r.uses_rader() && r.core.stages()[0].radices.len() == 3));
        // The same convolutions split (the forward's last pass and the inverse's first apart).
        let split: Vec<FftRecipe> = recipes
            .iter()
            .filter(|r| r.fuses_convolution())
            .map(|r| {
                let mut r = r.clone();
                r.tuning.fused_convolution = false;
                r
            })
            .collect();
        assert!(split.len() >= 7, "{} convolutions to split", split.len());
        recipes.extend(split);
        // Two buffers of the longest rows exceed a device of 48 KiB a block (NVIDIA's OpenCL):
        // those recipes run on the others only (with 3092, which does not fit there at all).
        let fits = |r: &FftRecipe| r.shared_bytes() <= lim.shared_bytes;
        assert!(small_shared_memory(lim) || recipes.iter().all(fits));
        recipes.retain(fits);
        assert!(recipes.len() >= 20, "{} recipes fit", recipes.len());
        check_recipes::<f32>(&device, recipes, "ping-pong f32");
        let mut recipes: Vec<FftRecipe> = ping_pong(FftProblem::c2c(2048, 2).precision(Precision::F64), None).into_iter().collect();
        recipes.push(rader(FftProblem::c2c(134, 2).precision(Precision::F64)));
        recipes.retain(fits);
        check_recipes::<f64>(&device, recipes, "ping-pong f64");
    }
}

#[test]
fn norms_and_round_trips() {
    for device in common::devices() {
        for norm in [Normalization::Backward, Normalization::Forward, Normalization::Ortho, Normalization::None] {
            let problems: Vec<FftProblem> = [5, 64, 97].map(|n| FftProblem::c2c(n, 2).norm(norm)).to_vec();
            check_all::<f32>(&device, &problems, &format!("c2c {norm:?}"));
        }
        // forward then inverse gives the input back (backward norm: scaled once, on the inverse)
        for (n, batch) in [(1usize, 1usize), (12, 5), (241, 3), (4096, 2)] {
            let plan = FftPlan::new(&device, FftProblem::c2c(n, batch)).unwrap();
            let x: Vec<Complex<f32>> = coalesce::bench::random::random_vec(n * batch, 5);
            let input = device.upload(&x).unwrap();
            let mut mid = poisoned::<Complex<f32>>(&device, n * batch);
            let mut back = poisoned::<Complex<f32>>(&device, n * batch);
            plan.forward(&input, &mut mid).unwrap();
            plan.inverse(&mid, &mut back).unwrap();
            let back = back.to_vec().unwrap();
            let err = x.iter().zip(&back).map(|(a, b)| (a - b).norm_sqr() as f64).sum::<f64>().sqrt()
                / x.iter().map(|a| a.norm_sqr() as f64).sum::<f64>().sqrt();
            assert!(err < 2e-6, "round trip n={n}: {err:e}");
        }
    }
}

#[test]
fn one_plan_from_several_threads() {
    if common::under_sanitizer() {
        return;
    }
    for device in common::devices() {
        let plan = FftPlan::new(&device, FftProblem::c2c(360, 8)).unwrap();
        let x: Vec<Complex<f32>> = coalesce::bench::random::random_vec(360 * 8, 3);
        let want = {
            let input = device.upload(&x).unwrap();
            let mut out = device.alloc::<Complex<f32>>(x.len()).unwrap();
            plan.forward(&input, &mut out).unwrap();
            out.to_vec().unwrap()
        };
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let input = device.upload(&x).unwrap();
                    let mut out = poisoned::<Complex<f32>>(&device, x.len());
                    for _ in 0..5 {
                        plan.forward(&input, &mut out).unwrap();
                    }
                    assert_eq!(out.to_vec().unwrap(), want);
                });
            }
        });
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    for device in common::devices() {
        let msg = |e: Error| e.to_string();
        assert!(msg(FftPlan::new(&device, FftProblem::c2c(0, 1)).err().unwrap()).contains("length is 0"));
        assert!(msg(FftPlan::new(&device, FftProblem::c2c(8, 0)).err().unwrap()).contains("batch is 0"));
        let long = FftPlan::new(&device, FftProblem::c2c(4097, 1)).err().unwrap();
        assert!(matches!(long, Error::Unsupported(_)) && msg(long).contains("4096"));
        assert!(matches!(FftPlan::new(&device, FftProblem::c2c(usize::MAX / 4, 1 << 40)).err().unwrap(), Error::Unsupported(_) | Error::SizeOverflow { .. }));

        let plan = FftPlan::new(&device, FftProblem::c2c(16, 2)).unwrap();
        let input = device.alloc::<Complex<f32>>(32).unwrap();
        let mut short = device.alloc::<Complex<f32>>(31).unwrap();
        assert!(matches!(plan.forward(&input, &mut short), Err(Error::LengthMismatch { expected: 32, got: 31, .. })));
        let mut wrong_type = device.alloc::<Complex<f64>>(32).unwrap();
        assert!(msg(plan.forward(&input, &mut wrong_type).err().unwrap()).contains("c64"));
        let reals = device.alloc::<f32>(32).unwrap();
        let mut out = device.alloc::<Complex<f32>>(32).unwrap();
        assert!(plan.forward(&reals, &mut out).is_err());

        let r2c = FftPlan::new(&device, FftProblem::r2c(16, 1)).unwrap();
        let x = device.alloc::<f32>(16).unwrap();
        let mut y = device.alloc::<Complex<f32>>(9).unwrap();
        r2c.forward(&x, &mut y).unwrap();
        assert!(msg(r2c.inverse(&x, &mut y).err().unwrap()).contains("only run forward"));
        assert!(msg(r2c.execute_in_place(Direction::Forward, &mut y).err().unwrap()).contains("out of place"));
        let mut out9 = device.alloc::<Complex<f32>>(8).unwrap();
        assert!(matches!(r2c.forward(&x, &mut out9), Err(Error::LengthMismatch { expected: 9, got: 8, .. })));
    }
}

#[test]
fn rows_apart_leave_the_gaps_alone() {
    use coalesce::bench::random::random_vec;
    use coalesce::fft::reference;
    for device in common::devices() {
        // Three rows of 12, 13 apart in, 16 apart out (cuFFT's idist and odist).
        let plan = FftPlan::new(&device, FftProblem::c2c(12, 3).row_distances(13, 16)).unwrap();
        assert_eq!((plan.problem().input_len(), plan.problem().output_len()), (39, 48));
        let x: Vec<Complex<f32>> = random_vec(39, 41);
        let mut out = poisoned::<Complex<f32>>(&device, 48);
        plan.forward(&device.upload(&x).unwrap(), &mut out).unwrap();
        let out = out.to_vec().unwrap();
        for r in 0..3 {
            let row: Vec<Complex<f64>> = x[13 * r..13 * r + 12].iter().map(|c| Complex::new(c.re as f64, c.im as f64)).collect();
            let got = out[16 * r..16 * r + 12].iter().map(|c| Complex::new(c.re as f64, c.im as f64));
            assert!(reference::relative_l2_error(got, reference::c2c_axes(&row, &[12], &[0], false)) < 1e-6, "row {r} on {}", device.id());
            assert!(out[16 * r + 12..16 * r + 16].iter().all(|c| c.re.is_nan()), "the gap after row {r} was written on {}", device.id());
        }
    }
}
