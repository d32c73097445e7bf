//! Multi-dimensional and long transforms on every device, against rustfft in f64 applied
//! axis by axis: every axis subset of small shapes, strided axes of Stockham, Rader and
//! Bluestein lengths, four-step lengths beyond one launch, in and out of place, both
//! directions, C2C, R2C and C2R, poisoned outputs. The GPU suite (COALESCE_FULL_TESTS=1)
//! adds longer lengths.

mod common;
mod fft_support;

use coalesce::bench::random::{random_vec, Random};
use coalesce::fft::{reference, Direction, FftKind, FftNdPlan, FftNdProblem, FftNdRecipe, FftProblem, FftRecipe, Normalization, Placement, Precision, TwiddleSource};
use coalesce::{Complex, Device, Element, Error};
use fft_support::{bound, poisoned, widen, Real};

type C64 = Complex<f64>;

/// The plan of `problem`, or None (with a note) where a pass's one row outgrows the block's
/// shared memory: NVIDIA's OpenCL allows 48 KiB, a 4093-point Bluestein row needs 64, and
/// such a plan is refused by name, not run.
fn plan_unless_too_big(device: &Device, problem: &FftNdProblem) -> Option<FftNdPlan> {
    unless_too_big(device, problem, FftNdPlan::new(device, problem.clone()))
}

/// A plan built for `problem` (designed, or from a recipe a test changed), or None as for
/// [`plan_unless_too_big`].
fn unless_too_big(device: &Device, problem: &FftNdProblem, built: coalesce::Result<FftNdPlan>) -> Option<FftNdPlan> {
    match built {
        Ok(plan) => Some(plan),
        Err(Error::Unsupported(msg)) if msg.contains("shared memory") && device.info().shared_memory_per_block < 96 * 1024 => {
            eprintln!("{problem:?} on {}: skipped, {msg}", device.id());
            None
        }
        Err(e) => panic!("{problem:?} on {}: {e}", device.id()),
    }
}

/// Runs `problem` forward and inverse on random data; panics with the case when the relative
/// L2 error against the f64 reference is over the bound (doubled for the four-step twiddle
/// products, which round twice).
fn check<T: Real>(device: &Device, problem: FftNdProblem)
where
    Complex<T>: Random + Element,
{
    if let Some(plan) = plan_unless_too_big(device, &problem) {
        check_plan::<T>(device, &plan);
    }
}

/// As [`check`], for a plan built from a recipe of its problem.
fn check_plan<T: Real>(device: &Device, plan: &FftNdPlan)
where
    Complex<T>: Random + Element,
{
    let problem = plan.problem().clone();
    let len = problem.len();
    for (seed, direction) in [(1u64, Direction::Forward), (2, Direction::Inverse)] {
        let x: Vec<Complex<T>> = random_vec(len, seed);
        let scale = problem.scale(direction);
        let want: Vec<C64> = reference::c2c_axes(&widen(&x), &problem.shape, &problem.axes, direction == Direction::Inverse).into_iter().map(|v| v * scale).collect();
        let got: Vec<Complex<T>> = match problem.placement {
            Placement::InPlace => {
                let mut data = device.upload(&x).unwrap();
                plan.execute_in_place(direction, &mut data).unwrap();
                data.to_vec().unwrap()
            }
            Placement::OutOfPlace => {
                let input = device.upload(&x).unwrap();
                let mut out = poisoned::<Complex<T>>(device, len);
                plan.execute(direction, &input, &mut out).unwrap();
                assert_eq!(input.to_vec().unwrap(), x, "{problem:?}: the input was modified");
                out.to_vec().unwrap()
            }
        };
        let err = reference::relative_l2_error(widen(&got), want);
        let limit = 2.0 * bound::<T>(problem.transform_len());
        assert!(err <= limit, "{problem:?} {direction:?} on {}: relative error {err:e} > {limit:e}\n{}", device.id(), plan.recipe().describe());
    }
}

/// As [`check_plan`] in f32, for the plan of `problem` after `retune` changed its designed
/// recipe (a plan a 48 KiB device refuses by name is skipped, as in [`unless_too_big`]).
fn check_retuned(device: &Device, problem: FftNdProblem, retune: impl FnOnce(&mut FftNdRecipe)) {
    let mut recipe = FftNdRecipe::design(problem.clone(), coalesce::fft::limits(device)).unwrap();
    retune(&mut recipe);
    if let Some(plan) = unless_too_big(device, &problem, FftNdPlan::from_recipe(device, recipe)) {
        check_plan::<f32>(device, &plan);
    }
}

/// The recipe of a plan's first strided pass.
fn first_strided_pass(recipe: &mut FftNdRecipe) -> &mut coalesce::fft::FftRecipe {
    &mut recipe.passes.iter_mut().find(|p| p.recipe.io.is_some()).expect("a strided pass").recipe
}

/// Runs an R2C or C2R `problem` on random data (real arrays, or arbitrary half spectra);
/// panics when the relative L2 error against the f64 reference is over the bound.
fn check_real<T: Real>(device: &Device, problem: FftNdProblem)
where
    Complex<T>: Random + Element,
{
    let plan = FftNdPlan::new(device, problem.clone()).unwrap_or_else(|e| panic!("{problem:?} on {}: {e}", device.id()));
    check_real_plan::<T>(device, &plan);
}

/// As [`check_real`], for a plan built from a recipe of its problem.
fn check_real_plan<T: Real>(device: &Device, plan: &FftNdPlan)
where
    Complex<T>: Random + Element,
{
    let problem = plan.problem().clone();
    let (in_len, out_len) = problem.buffer_lens();
    let limit = 2.0 * bound::<T>(problem.transform_len());
    let (shape, axes) = (&problem.shape, &problem.axes);
    let (err, input_kept) = match problem.kind {
        FftKind::R2C => {
            let x: Vec<T> = random_vec(in_len, 3);
            let scale = problem.scale(Direction::Forward);
            let want: Vec<C64> = reference::r2c_axes(&x.iter().map(|v| v.to_f64()).collect::<Vec<_>>(), shape, axes).into_iter().map(|v| v * scale).collect();
            let input = device.upload(&x).unwrap();
            let mut out = poisoned::<Complex<T>>(device, out_len);
            plan.forward(&input, &mut out).unwrap();
            (reference::relative_l2_error(widen(&out.to_vec().unwrap()), want), input.to_vec().unwrap() == x)
        }
        _ => {
            let x: Vec<Complex<T>> = random_vec(in_len, 4);
            let scale = problem.scale(Direction::Inverse);
            let want = reference::c2r_axes(&widen(&x), shape, axes).into_iter().map(|v| C64::new(v * scale, 0.0));
            let input = device.upload(&x).unwrap();
            let mut out = poisoned::<T>(device, out_len);
            plan.inverse(&input, &mut out).unwrap();
            let got = out.to_vec().unwrap().into_iter().map(|v| C64::new(v.to_f64(), 0.0));
            (reference::relative_l2_error(got, want), input.to_vec().unwrap() == x)
        }
    };
    assert!(input_kept, "{problem:?} on {}: the input was modified", device.id());
    assert!(err <= limit, "{problem:?} on {}: relative error {err:e} > {limit:e}\n{}", device.id(), plan.recipe().describe());
}

/// Every non-empty subset of a shape's axes.
fn axis_subsets(rank: usize) -> Vec<Vec<usize>> {
    (1..1usize << rank).map(|mask| (0..rank).filter(|a| mask >> a & 1 == 1).collect()).collect()
}

#[test]
fn every_axis_subset_of_small_shapes() {
    for device in common::devices() {
        for shape in [vec![3, 5], vec![16, 12], vec![7, 9, 10], vec![4, 3, 2, 5], vec![1, 17, 1]] {
            for axes in axis_subsets(shape.len()) {
                check::<f32>(&device, FftNdProblem::c2c(&shape, &axes));
            }
        }
    }
}

#[test]
fn strided_axes_of_every_algorithm() {
    for device in common::devices() {
        // Stockham, Rader (67, 241), Bluestein (2039: 2038 = 2 x 1019; on the factor 83 of 166
        // and 249), a prime codelet (61), long columns (1000, 4096), and few columns (inner 2, 3).
        for (shape, axes) in [
            (vec![67, 3], vec![0]),
            (vec![241, 5], vec![0]),
            (vec![2039, 2], vec![0]),
            (vec![166, 3], vec![0]),
            (vec![2, 249, 3], vec![1]),
            (vec![61, 40], vec![0, 1]),
            (vec![2, 1000, 3], vec![1]),
            (vec![4096, 2], vec![0]),
            (vec![5, 64, 33], vec![1, 2]),
        ] {
            check::<f32>(&device, FftNdProblem::c2c(&shape, &axes));
        }
    }
}

/// Strided passes with ping-pong buffers (the planner runs them in place): rows interleaved
/// in both buffers, Stockham, Rader and Bluestein. Ping-pong doubles a block's shared memory:
/// a 48 KiB device (NVIDIA's OpenCL) refuses the 1000-point rows' by name.
#[test]
fn strided_passes_ping_pong() {
    for device in common::devices() {
        for (shape, axes) in [(vec![67, 3], vec![0]), (vec![241, 5], vec![0]), (vec![166, 3], vec![0]), (vec![2, 1000, 3], vec![1]), (vec![64, 3], vec![0])] {
            check_retuned(&device, FftNdProblem::c2c(&shape, &axes), |recipe| {
                assert!(recipe.passes.iter().any(|p| p.recipe.io.is_some()), "{shape:?}: a strided pass");
                for pass in &mut recipe.passes {
                    pass.recipe.tuning.ping_pong = true;
                }
            });
        }
    }
}

#[test]
fn strided_columns_read_and_written_directly_or_staged() {
    // Every strided Stockham pass with a side of columns, read and written in the core's
    // passes (direct_io) and staged, whichever the planner picked: four-step passes of a long
    // axis (twiddled, one side rows), column passes of 2D and 3D arrays, Bluestein's chirped
    // passes of a prime over one launch (5003), and blocks with rows past the batch.
    let shapes: [(&[usize], &[usize]); 7] = [(&[1 << 16, 3], &[0]), (&[256, 9], &[0]), (&[3, 512, 17], &[1]), (&[48, 64, 40], &[0, 1]), (&[3, 96, 40], &[0, 1]), (&[5003, 2], &[0]), (&[2, 1024, 5], &[1])];
    for device in common::devices() {
        for (shape, axes) in shapes {
            for direct in [true, false] {
                check_retuned(&device, FftNdProblem::c2c(shape, axes), |recipe| {
                    let mut columns = 0;
                    for pass in &mut recipe.passes {
                        // A pass over columns is one that would read or write them directly
                        // under direct_io (FftRecipe::reads_columns_directly).
                        let r = &mut pass.recipe;
                        let picked = r.tuning.direct_io;
                        r.tuning.direct_io = true;
                        let over_columns = r.reads_columns_directly() || r.writes_columns_directly();
                        r.tuning.direct_io = if over_columns { direct } else { picked };
                        columns += usize::from(over_columns);
                    }
                    assert!(columns > 0, "{shape:?} axes {axes:?}: a strided pass over columns");
                });
            }
        }
    }
}

#[test]
fn strided_passes_of_other_rows_and_codelets() {
    for device in common::devices() {
        // 1024 and 900 points as two passes of 32- and 30-point codelets, a thread per codelet
        // (what the planner takes where 16 rows fill a multiprocessor's shared memory), 16 and
        // 5 rows, twiddles read per value (the planner's) and as powers of one read.
        for (shape, radix) in [(vec![1024, 16], 32), (vec![2, 1024, 5], 32), (vec![900, 16], 30)] {
            for twiddles in [TwiddleSource::Table, TwiddleSource::TablePowers] {
                let len = shape[shape.len() - 2];
                check_retuned(&device, FftNdProblem::c2c(&shape, &[shape.len() - 2]), |recipe| {
                    let pass = first_strided_pass(recipe);
                    pass.core = coalesce::fft::Core::Stockham { len, radices: vec![radix, len / radix] };
                    pass.tuning.threads_per_transform = (len / radix) as u32;
                    pass.tuning.twiddles = twiddles;
                });
            }
        }
        // Blocks of a number of rows that does not divide the columns: the last block of each
        // array holds fewer, and a block's rows may straddle two arrays.
        for (shape, axes) in [(vec![3, 256, 37], vec![1]), (vec![2, 64, 100], vec![1]), (vec![5, 96, 7], vec![1])] {
            for rows in [3u32, 6, 12] {
                check_retuned(&device, FftNdProblem::c2c(&shape, &axes), |recipe| first_strided_pass(recipe).tuning.transforms_per_block = rows);
            }
        }
    }
}

#[test]
fn long_lengths_take_two_passes() {
    for device in common::devices() {
        let mut lengths = vec![4097, 5000, 8192, 1 << 16, 3 * 7 * 11 * 13 * 17];
        if common::full() && !common::under_sanitizer() {
            lengths.extend([1 << 20, (1 << 20) + 4, 4093 * 4091, 1 << 24, 1 << 25, 3 << 24]);
        }
        for n in lengths {
            let batch = if n <= 1 << 16 { 3 } else { 1 };
            check::<f32>(&device, FftNdProblem::c2c_1d(n, batch));
        }
        // A long axis that is not the last, and two long axes.
        check::<f32>(&device, FftNdProblem::c2c(&[2, 5000, 3], &[1]));
        // A strided axis of 2^21 points in two passes (of 1024 and 2048 points), of 3 x 2^20
        // in three.
        for (n, passes) in [(1 << 21, 2), (3 << 20, 3)] {
            let problem = FftNdProblem::c2c(&[1, n, 2], &[1]);
            assert_eq!(coalesce::fft::FftNdRecipe::design(problem.clone(), coalesce::fft::limits(&device)).unwrap().passes.len(), passes, "{n}");
            check::<f32>(&device, problem);
        }
        if common::full() && !common::under_sanitizer() {
            check::<f32>(&device, FftNdProblem::c2c(&[4100, 4104], &[0, 1]));
            // f64 4096^2 in two passes: [2, 4096] grids, a strided pass of 2048 points; f64
            // real 2048^2 through real [4, 1024] grids (`grid_cost`).
            let p = FftNdProblem::c2c(&[4096, 4096], &[0, 1]).f64();
            if device.info().shared_memory_per_block >= 140 * 1024 {
                assert_eq!(coalesce::fft::FftNdRecipe::design(p.clone(), coalesce::fft::limits(&device)).unwrap().passes.len(), 2);
            }
            check::<f64>(&device, p);
            check_real::<f64>(&device, FftNdProblem::r2c(&[2048, 2048], &[0, 1]).f64());
            check_real::<f64>(&device, FftNdProblem::c2r(&[2048, 2048], &[0, 1]).f64());
        }
    }
}

/// Lone long C2C f32 columns in one strided pass (nd_recipe.rs, `Planner::lone_long_column`).
/// The planner takes it from 512 blocks up, so small shapes run such a pass by a one-pass
/// recipe on every device (4096 points, and 3000 as another long core; 3 and 5 columns leave
/// the last block short), and the GPU suite runs the planner's own plan of 4096 x 4096.
#[test]
fn lone_long_columns_run_in_one_strided_pass() {
    use coalesce::fft::strided::{BatchDim, StridedIo};
    for device in common::devices() {
        for (shape, in_place) in [([4096, 8], false), ([3000, 5], true), ([4096, 3], true)] {
            let columns = shape[1];
            let io = StridedIo::complex(columns, vec![BatchDim { count: columns, input: 1, output: 1 }]);
            let one = match coalesce::fft::FftRecipe::design_strided(shape[0], Precision::F32, io, coalesce::fft::limits(&device)) {
                Ok(one) => one,
                Err(e) => {
                    eprintln!("{shape:?} on {}: skipped, {e}", device.id());
                    continue;
                }
            };
            let problem = FftNdProblem::c2c(&shape, &[0]);
            check_retuned(&device, if in_place { problem.in_place() } else { problem }, |recipe| {
                let from = recipe.passes[0].from;
                recipe.passes = vec![coalesce::fft::FftPass { recipe: one, from, to: coalesce::fft::PassBuffer::Output }];
            });
        }
        if common::full() && !common::under_sanitizer() {
            for problem in [FftNdProblem::c2c(&[4096, 4096], &[0]), FftNdProblem::c2c(&[4096, 4096], &[0]).in_place()] {
                if device.info().shared_memory_per_block >= 160 * 1024 {
                    assert_eq!(FftNdRecipe::design(problem.clone(), coalesce::fft::limits(&device)).unwrap().passes.len(), 1);
                }
                check::<f32>(&device, problem);
            }
        }
    }
}

#[test]
fn long_contiguous_rows_run_in_one_launch() {
    for device in common::devices() {
        // Smooth rows up to 16384 points in one launch where shared memory holds them (not
        // NVIDIA's OpenCL, which allows 48 KiB): C2C, R2C (even: a half-length core; odd:
        // widened), C2R, f64; a prime factor over 13 still splits. Even real rows up to 32768.
        let roomy = device.info().shared_memory_per_block >= 140 * 1024;
        let passes = |p: &FftNdProblem| coalesce::fft::FftNdRecipe::design(p.clone(), coalesce::fft::limits(&device)).unwrap().passes.len();
        for n in [8192, 15000, 16384] {
            let p = FftNdProblem::c2c_1d(n, 3);
            assert_eq!(passes(&p) == 1, roomy, "{p:?}");
            check::<f32>(&device, p);
        }
        // Two transforms of two passes, the middle two as one (`StridedIo::between`).
        assert_eq!(passes(&FftNdProblem::c2c_1d(8191 * 2, 1)), 3, "2 x 8191: Bluestein");
        for p in [FftNdProblem::r2c_1d(16384, 2), FftNdProblem::c2r_1d(16384, 2), FftNdProblem::r2c_1d(15015, 2), FftNdProblem::c2r_1d(12288, 3)] {
            check_real::<f32>(&device, p);
        }
        // Even real rows twice as long (their core is the complex row of half their length);
        // one a half-length core's prime factor over 13 splits.
        for p in [FftNdProblem::r2c_1d(32768, 2), FftNdProblem::c2r_1d(32768, 2), FftNdProblem::r2c_1d(30000, 1), FftNdProblem::c2r_1d(24576, 3)] {
            assert_eq!(passes(&p) == 1, roomy, "{p:?}");
            check_real::<f32>(&device, p);
        }
        assert!(passes(&FftNdProblem::r2c_1d(2 * 16381, 1)) > 1, "2 x 16381: Bluestein");
        for p in [FftNdProblem::r2c_1d(16384, 2).f64(), FftNdProblem::c2r_1d(16384, 2).f64()] {
            assert_eq!(passes(&p) == 1, roomy, "{p:?}");
            check_real::<f64>(&device, p);
        }
        // 8192 real points: a half of 4096 in one launch wherever shared memory holds it (f32
        // even in 48 KiB; f64 there splits).
        for p in [FftNdProblem::r2c_1d(8192, 2), FftNdProblem::c2r_1d(8192, 2)] {
            assert_eq!(passes(&p), 1, "{p:?}");
            check_real::<f32>(&device, p);
        }
        let small = device.info().shared_memory_per_block < 4096 * 16 * 17 / 16;
        for p in [FftNdProblem::r2c_1d(8192, 2).f64(), FftNdProblem::c2r_1d(8192, 2).f64()] {
            assert_eq!(passes(&p) == 1, !small, "{p:?}");
            check_real::<f64>(&device, p);
        }
        check::<f64>(&device, FftNdProblem::c2c_1d(8192, 2).f64());
        check::<f32>(&device, FftNdProblem::c2c(&[3, 8192, 2], &[0, 1]).in_place());
    }
}

/// The 13-smooth C2C f32 rows past 4096 points that the lane-group bank model lays out
/// (src/fft/wisdom/lane_groups.tsv), a sample of them: each runs the lane-group design, not
/// the heuristic's whole-warp pick, and matches the reference.
#[test]
fn long_rows_laid_out_by_lane_groups() {
    let listed = coalesce::fft::lane_groups::listed_lengths(FftKind::C2C, Precision::F32);
    let long: Vec<usize> = listed.into_iter().filter(|&n| n > 4096).collect();
    assert!(long.len() >= 30, "{} long rows", long.len());
    // About 60 rows across the table (each a kernel of its own to compile on PoCL).
    let sample: Vec<usize> = long.iter().copied().step_by(long.len().div_ceil(60)).chain(long.last().copied()).collect();
    let h200 = coalesce::fft::DeviceLimits::H200;
    for &n in &sample {
        let problem = FftProblem::c2c(n, 1);
        let row = FftRecipe::design_row(problem, h200).unwrap();
        assert_ne!(row.kernel_name(), FftRecipe::design_row_by_heuristic(problem, h200).unwrap().kernel_name(), "{n}: the pick's layout");
    }
    for device in common::devices() {
        for &n in &sample {
            check::<f32>(&device, FftNdProblem::c2c_1d(n, 2));
        }
    }
}

#[test]
fn long_rows_run_in_one_launch_across_a_cluster() {
    for device in common::devices() {
        // Both passes of a four-step split in one launch where a thread-block cluster holds
        // the axis (CUDA from compute capability 9.0; OpenCL as one work-group of all the
        // cluster's threads, where the device allows that many, as PoCL's 4096 threads and
        // 512 KiB do): f32 axes of up to 2^15 points, across two blocks.
        let limits = coalesce::fft::limits(&device);
        let design = |p: &FftNdProblem| coalesce::fft::FftNdRecipe::design(p.clone(), limits).unwrap();
        let clustered = |p: &FftNdProblem| design(p).passes.iter().any(|pass| pass.recipe.cluster.is_some());
        let info = device.info();
        let hopper = device.backend() == coalesce::Backend::Cuda && info.compute_capability.is_some_and(|(major, _)| major >= 9);
        let roomy_opencl = device.backend() == coalesce::Backend::OpenCl && info.max_threads_per_block >= 2048 && info.shared_memory_per_block >= 512 * 1024;
        let cases = vec![
            FftNdProblem::c2c_1d(1 << 15, 3),
            FftNdProblem::c2c_1d(1 << 15, 2).in_place().norm(Normalization::Ortho),
            // 20480 = 160 x 128 and 24576 = 192 x 128: rows of 80 and 64, 96 and 64 a block.
            FftNdProblem::c2c_1d(5 << 12, 2),
            FftNdProblem::c2c_1d(3 << 13, 1),
            // The last axis of an array, and a batch before it not transformed.
            FftNdProblem::c2c(&[2, 1 << 15], &[0, 1]),
            FftNdProblem::c2c(&[3, 1 << 15], &[1]).norm(Normalization::None),
        ];
        if hopper || roomy_opencl {
            for p in &cases {
                assert!(clustered(p), "{}", design(p).describe());
            }
            let r = design(&cases[0]);
            assert_eq!(r.passes.len(), 1);
            assert_eq!(r.passes[0].recipe.cluster.as_ref().unwrap().blocks, 2);
        }
        // Longer axes, and f64, keep their two passes.
        assert!(!clustered(&FftNdProblem::c2c_1d(1 << 16, 1)) && !clustered(&FftNdProblem::c2c_1d(1 << 15, 1).f64()));
        for p in cases {
            check::<f32>(&device, p);
        }
        // R2C of 2^16 points: its complex axis of 2^15 across the cluster, the half spectrum
        // separated in the blocks, each of which holds half the columns beside their mirror
        // images; batched, the last axis of an array, 49152 (192 x 128), in place. C2R keeps
        // its two passes (its join ran slower across a cluster).
        let real_cases = vec![
            FftNdProblem::r2c_1d(1 << 16, 2),
            FftNdProblem::r2c(&[3, 1 << 16], &[1]).norm(Normalization::Ortho),
            FftNdProblem::r2c(&[3, 1 << 16], &[0, 1]),
            FftNdProblem::r2c_1d(3 << 14, 2),
        ];
        if hopper || roomy_opencl {
            for p in &real_cases {
                assert!(clustered(p), "{}", design(p).describe());
            }
            assert_eq!(design(&real_cases[0]).passes.len(), 1);
        }
        assert!(!clustered(&FftNdProblem::r2c_1d(1 << 17, 1)) && !clustered(&FftNdProblem::r2c_1d(1 << 16, 1).f64()));
        assert!(!clustered(&FftNdProblem::c2r_1d(1 << 16, 1)));
        for p in real_cases {
            check_real::<f32>(&device, p);
        }
        check_real_in_place::<f32>(&device, FftNdProblem::r2c(&[2, 1 << 16], &[1]).in_place());
    }
}

#[test]
fn short_trailing_axes_fused_into_one_pass() {
    for device in common::devices() {
        let passes = |p: &FftNdProblem| coalesce::fft::FftNdRecipe::design(p.clone(), coalesce::fft::limits(&device)).unwrap().passes.len();
        // 64^2 planes then the first axis; 16^3 whole; 128 x 128 (more butterflies than
        // threads) where shared memory holds it; four axes, each shorter than a warp; a
        // radix-61 codelet; f64 in place, scaled.
        for (shape, axes, want) in [
            (vec![64, 64, 64], vec![0, 1, 2], 2),
            (vec![3, 16, 16, 16], vec![1, 2, 3], 1),
            (vec![2, 128, 128], vec![1, 2], 1),
            (vec![5, 6, 8, 3], vec![0, 1, 2, 3], 1),
            (vec![3, 61, 12], vec![1, 2], 1),
        ] {
            let p = FftNdProblem::c2c(&shape, &axes);
            if device.info().shared_memory_per_block >= 140 * 1024 {
                assert_eq!(passes(&p), want, "{p:?}");
            }
            check::<f32>(&device, p);
        }
        let p = FftNdProblem::c2c(&[3, 32, 48], &[1, 2]).f64().in_place().norm(Normalization::Ortho);
        assert_eq!(passes(&p), 1);
        check::<f64>(&device, p);
    }
}

#[test]
fn rows_take_on_the_first_pass_of_the_axis_before_them() {
    for device in common::devices() {
        let limits = coalesce::fft::limits(&device);
        // (passes, whether the first is a strided grid: the rows with pass A of the column's
        // four-step split), where the device has an H100's or H200's shared memory.
        let plan = |p: &FftNdProblem| {
            let passes = coalesce::fft::FftNdRecipe::design(p.clone(), limits).unwrap().passes;
            let first = &passes[0].recipe;
            (passes.len(), first.io.is_some() && first.kernel_name().contains("grid"))
        };
        let roomy = device.info().shared_memory_per_block >= 140 * 1024;
        // Columns too long for one good strided pass, rows too long to fuse with them, grids of
        // 1024 points or more: [64, 16] grids of rows 32 apart, then a strided pass of 32; an
        // odd run (25 values); a column of 3 x 512; a batch axis before; an axis of length 1
        // between; 1024^2 ([2, 1024] grids); 2048^2 ([4, 2048] grids of 512 threads, under a
        // launch bound of two blocks); in place (through scratch).
        for (p, want) in [
            (FftNdProblem::c2c(&[2048, 16], &[0, 1]), Some((2, true))),
            (FftNdProblem::c2c(&[2048, 25], &[0, 1]).norm(Normalization::Ortho), Some((2, true))),
            (FftNdProblem::c2c(&[1536, 32], &[0, 1]).norm(Normalization::Forward), Some((2, true))),
            (FftNdProblem::c2c(&[3, 1024, 20], &[1, 2]), Some((2, true))),
            (FftNdProblem::c2c(&[2048, 1, 16], &[0, 2]).norm(Normalization::None), Some((2, true))),
            (FftNdProblem::c2c(&[2, 1024, 1024], &[1, 2]), Some((2, true))),
            (FftNdProblem::c2c(&[2048, 2048], &[0, 1]), Some((2, true))),
            (FftNdProblem::c2c(&[2048, 16], &[0, 1]).in_place(), Some((2, true))),
        ] {
            if let (Some(want), true) = (want, roomy) {
                assert_eq!(plan(&p), want, "{p:?}");
            }
            check::<f32>(&device, p);
        }
        let p = FftNdProblem::c2c(&[2, 2048, 16], &[1, 2]).f64();
        if roomy {
            assert_eq!(plan(&p), (2, true), "{p:?}");
        }
        check::<f64>(&device, p.clone());
        check::<f64>(&device, p.in_place().norm(Normalization::Ortho));
        // R2C: real grids, their rows written as half spectra (17 values and more: 136 bytes);
        // the column's rest over the half spectrum. C2R mirrors it: the column's long part
        // first, then real grids reading half spectra and writing the reals (the last pass).
        // 4096^2: real [4, 4096] grids of 513 threads, under a launch bound of two blocks.
        let real_cases = [
            (vec![2048, 32], vec![0, 1], Normalization::Backward, Precision::F32),
            (vec![3, 1024, 64], vec![1, 2], Normalization::Ortho, Precision::F32),
            (vec![2, 1024, 1024], vec![1, 2], Normalization::Backward, Precision::F32),
            (vec![4096, 4096], vec![0, 1], Normalization::Backward, Precision::F32),
            (vec![1536, 1, 40], vec![0, 2], Normalization::Forward, Precision::F32),
            (vec![2, 2048, 32], vec![1, 2], Normalization::None, Precision::F64),
        ];
        for (shape, axes, norm, precision) in real_cases {
            for p in [FftNdProblem::r2c(&shape, &axes), FftNdProblem::c2r(&shape, &axes)] {
                let p = p.norm(norm).precision(precision);
                if roomy {
                    let recipe = coalesce::fft::FftNdRecipe::design(p.clone(), limits).unwrap();
                    let grid_at = if p.kind == FftKind::R2C { 0 } else { 1 };
                    assert_eq!(recipe.passes.len(), 2, "{p:?}");
                    assert!(recipe.passes[grid_at].recipe.io.is_some() && recipe.passes[grid_at].recipe.kernel_name().contains("realgrid"), "{p:?}");
                }
                match p.precision {
                    Precision::F32 => check_real::<f32>(&device, p),
                    Precision::F64 => check_real::<f64>(&device, p),
                }
            }
        }
        // Not split: columns of 512 (one good strided pass), rows with a prime factor past the
        // codelets (67), runs under 128 bytes (15 values), the rows not transformed; real
        // transforms in place or with the halved axis not the last.
        for p in [
            FftNdProblem::c2c(&[512, 64], &[0, 1]),
            FftNdProblem::c2c(&[2048, 67], &[0, 1]),
            FftNdProblem::c2c(&[2048, 15], &[0, 1]),
            FftNdProblem::c2c(&[2048, 16], &[0]),
            FftNdProblem::r2c(&[2048, 32], &[0, 1]).in_place(),
            FftNdProblem::r2c(&[32, 2048], &[1, 0]),
            FftNdProblem::c2r(&[2048, 32], &[0, 1]).in_place(),
        ] {
            assert!(!plan(&p).1, "{p:?}");
        }
    }
}

#[test]
fn the_rest_of_a_split_column_shares_a_pass_with_the_axis_before_it() {
    // Trailing axes too large for one grid on an H100 or H200 (over 16384 f32 points, 8192
    // f64): the rows take on pass A of the middle axis's four-step split (grids of [r, n]; R2C
    // real ones), and the middle axis's last points share a pass with the first axis, as grids
    // over the array's columns ([n0, rest], neighbouring columns together in a block): two
    // passes, not three. C2R mirrors it: the first axis with the middle axis's long part as
    // grids over columns (the four-step twiddle on their last axis), then real grids of the
    // rest with the rows. Planned for an H200 and run wherever that plan fits (PoCL's
    // work-groups take it; NVIDIA's OpenCL, 48 KiB a block, may refuse it by name). First
    // axes of 16, 6 (not a power of two), 3 (with a batch, in place), 8 (f64) and 5; rows of
    // 256, 96 and 128; every kind, f64 real 128^3's shape too.
    let cases = [
        FftNdProblem::c2c(&[16, 128, 256], &[0, 1, 2]),
        FftNdProblem::c2c(&[2, 6, 256, 96], &[1, 2, 3]).norm(Normalization::Ortho),
        FftNdProblem::c2c(&[2, 3, 128, 256], &[1, 2, 3]).in_place().norm(Normalization::Forward),
        FftNdProblem::c2c(&[8, 128, 128], &[0, 1, 2]).f64(),
        FftNdProblem::r2c(&[16, 128, 256], &[0, 1, 2]),
        FftNdProblem::r2c(&[2, 5, 256, 128], &[1, 2, 3]).norm(Normalization::None),
        FftNdProblem::c2r(&[16, 128, 256], &[0, 1, 2]),
        FftNdProblem::c2r(&[2, 5, 256, 128], &[1, 2, 3]).norm(Normalization::Ortho),
        // f64 real 128 x 128 grids fill a multiprocessor alone: split so instead.
        FftNdProblem::r2c(&[8, 128, 128], &[0, 1, 2]).f64(),
        FftNdProblem::c2r(&[8, 128, 128], &[0, 1, 2]).f64(),
    ];
    for device in common::devices() {
        for p in cases.iter().cloned() {
            let recipe = FftNdRecipe::design(p.clone(), coalesce::fft::DeviceLimits::H200).unwrap();
            let names: Vec<String> = recipe.passes.iter().map(|pass| pass.recipe.kernel_name()).collect();
            assert_eq!(names.len(), 2, "{p:?}: {names:?}");
            let (grid, columns) = if p.kind == FftKind::C2R { (&names[1], &names[0]) } else { (&names[0], &names[1]) };
            assert!(grid.contains("grid") && columns.contains("_cols"), "{p:?}: {names:?}");
            let Some(plan) = unless_too_big(&device, &p, FftNdPlan::from_recipe(&device, recipe)) else { continue };
            match (p.kind, p.precision) {
                (FftKind::C2C, Precision::F32) => check_plan::<f32>(&device, &plan),
                (FftKind::C2C, Precision::F64) => check_plan::<f64>(&device, &plan),
                (_, Precision::F32) => check_real_plan::<f32>(&device, &plan),
                (_, Precision::F64) => check_real_plan::<f64>(&device, &plan),
            }
        }
    }
}

#[test]
fn real_short_trailing_axes_fused_into_one_pass() {
    for device in common::devices() {
        let passes = |p: &FftNdProblem| coalesce::fft::FftNdRecipe::design(p.clone(), coalesce::fft::limits(&device)).unwrap().passes.len();
        let roomy = device.info().shared_memory_per_block >= 96 * 1024;
        // The halved axis last and even, the grid's half spectrum in shared memory: 16^3 whole;
        // 64^3 as 64 x 64 grids, then the first axis; lines of odd m (12 x 10), of a radix-61
        // codelet (10 x 122) and of two pairs (3 x 4); an axis of length 1 after the halved one;
        // 128 x 128 (520 butterflies a pass) and 4 x 4096 (2049 lines, more butterflies than a
        // block has threads) where shared memory holds them.
        for (shape, axes, want, norm) in [
            (vec![3, 16, 16, 16], vec![1, 2, 3], Some(1), Normalization::Backward),
            (vec![64, 64, 64], vec![0, 1, 2], Some(2), Normalization::Backward),
            (vec![4, 6, 8], vec![1, 2], Some(1), Normalization::Forward),
            (vec![3, 12, 10], vec![1, 2], Some(1), Normalization::Ortho),
            (vec![2, 10, 122], vec![1, 2], Some(1), Normalization::Backward),
            (vec![5, 3, 4], vec![0, 1, 2], Some(1), Normalization::None),
            (vec![6, 8, 1], vec![0, 1], Some(1), Normalization::Backward),
            (vec![2, 128, 128], vec![1, 2], roomy.then_some(1), Normalization::Backward),
            (vec![2, 4, 4096], vec![1, 2], roomy.then_some(1), Normalization::Backward),
        ] {
            for p in [FftNdProblem::r2c(&shape, &axes), FftNdProblem::c2r(&shape, &axes)] {
                let p = p.norm(norm);
                if let Some(want) = want {
                    assert_eq!(passes(&p), want, "{p:?}");
                }
                check_real::<f32>(&device, p);
            }
        }
        for p in [FftNdProblem::r2c(&[3, 32, 48], &[1, 2]), FftNdProblem::c2r(&[3, 32, 48], &[1, 2])] {
            let p = p.f64().norm(Normalization::Ortho);
            assert_eq!(passes(&p), 1);
            check_real::<f64>(&device, p);
        }
        // Not fused: an odd halved axis, the halved axis not the last, in place (the padded
        // layout), strides.
        for p in [
            FftNdProblem::r2c(&[6, 9], &[0, 1]),
            FftNdProblem::r2c(&[6, 8, 4], &[2, 1]),
            FftNdProblem::c2r(&[6, 8], &[0, 1]).in_place(),
            FftNdProblem::r2c(&[6, 8], &[0, 1]).input_strides(&[16, 1]),
        ] {
            assert_eq!(passes(&p), 2, "{p:?}");
        }
    }
}

#[test]
fn in_place_and_scaled() {
    for device in common::devices() {
        check::<f32>(&device, FftNdProblem::c2c(&[12, 10], &[0, 1]).in_place());
        check::<f32>(&device, FftNdProblem::c2c(&[6, 7, 8], &[0, 2]).in_place().norm(Normalization::Ortho));
        check::<f32>(&device, FftNdProblem::c2c_1d(6000, 2).in_place());
        check::<f32>(&device, FftNdProblem::c2c(&[2, 5000], &[0, 1]).in_place().norm(Normalization::Forward));
        check::<f32>(&device, FftNdProblem::c2c(&[9, 11], &[1, 0]).norm(Normalization::None));
    }
}

#[test]
fn f64_shapes_and_long_lengths() {
    for device in common::devices() {
        check::<f64>(&device, FftNdProblem::c2c(&[9, 10, 11], &[0, 1, 2]).f64());
        check::<f64>(&device, FftNdProblem::c2c(&[97, 4], &[0]).f64());
        check::<f64>(&device, FftNdProblem::c2c_1d(6000, 2).f64());
        check::<f64>(&device, FftNdProblem::c2c(&[2048, 3], &[0]).f64().in_place());
        // Two passes whose first one's last radix (16) applies the four-step twiddles
        // grouped, A G[a] F[c] (codegen/strided.rs, `StepTwiddleGroups`), as f64 passes do on
        // every device.
        check::<f64>(&device, FftNdProblem::c2c(&[1, 1 << 16, 3], &[1]).f64());
        check::<f64>(&device, FftNdProblem::c2c_1d(1 << 16, 2).f64());
    }
}

#[test]
fn real_transforms_over_every_axis_subset() {
    for device in common::devices() {
        // Halved axes contiguous and strided, odd and even, of length 1 and 2.
        for shape in [vec![6, 10], vec![7, 9, 5], vec![4, 1, 2, 3], vec![1, 8]] {
            for axes in axis_subsets(shape.len()) {
                check_real::<f32>(&device, FftNdProblem::r2c(&shape, &axes));
                check_real::<f32>(&device, FftNdProblem::c2r(&shape, &axes));
            }
        }
        // The halved axis named first (numpy halves the last named) and given out of order.
        check_real::<f32>(&device, FftNdProblem::r2c(&[12, 10, 6], &[2, 0]));
        check_real::<f32>(&device, FftNdProblem::c2r(&[12, 10, 6], &[2, 0]));
        check_real::<f64>(&device, FftNdProblem::r2c(&[9, 16, 5], &[0, 1, 2]).f64().norm(Normalization::Ortho));
        check_real::<f64>(&device, FftNdProblem::c2r(&[9, 16, 5], &[1, 0]).f64());
    }
}

#[test]
fn real_transforms_of_every_algorithm_and_beyond_one_launch() {
    for device in common::devices() {
        // Strided halved axes of Rader (67), Bluestein (2039) and a prime codelet (61) lengths.
        for (shape, axes) in [(vec![67, 3], vec![0]), (vec![2039, 2], vec![0]), (vec![61, 40], vec![1, 0]), (vec![5, 64, 33], vec![2, 1])] {
            check_real::<f32>(&device, FftNdProblem::r2c(&shape, &axes));
            check_real::<f32>(&device, FftNdProblem::c2r(&shape, &axes));
        }
        // Long real axes: two passes (even, odd, with a large prime factor), three passes.
        let mut lengths = vec![4098, 5001, 4097 * 2, 1 << 16];
        if common::full() && !common::under_sanitizer() {
            lengths.extend([1 << 20, (1 << 20) + 4, 1 << 24, 3 << 23]);
        }
        for n in lengths {
            let batch = if n <= 1 << 16 { 2 } else { 1 };
            check_real::<f32>(&device, FftNdProblem::r2c_1d(n, batch));
            check_real::<f32>(&device, FftNdProblem::c2r_1d(n, batch));
        }
        // A strided real axis of 2^21 points in two passes, of 3 x 2^20 in three.
        for (n, passes) in [(1 << 21, 2), (3 << 20, 3)] {
            let problem = FftNdProblem::r2c(&[1, n, 2], &[1]);
            assert_eq!(coalesce::fft::FftNdRecipe::design(problem.clone(), coalesce::fft::limits(&device)).unwrap().passes.len(), passes, "{n}");
            check_real::<f32>(&device, problem);
            check_real::<f32>(&device, FftNdProblem::c2r(&[1, n, 2], &[1]));
        }
        // A long axis that is not halved, beside one that is.
        check_real::<f32>(&device, FftNdProblem::r2c(&[5000, 6], &[0, 1]));
        check_real::<f32>(&device, FftNdProblem::c2r(&[5000, 6], &[0, 1]));
        check_real::<f64>(&device, FftNdProblem::c2r_1d(6002, 2).f64());
    }
}

/// A long real axis runs as the complex axis of half its length (x[2n] + i x[2n+1]), its
/// last pass (R2C) or first (C2R) holding each column beside its mirror image.
#[test]
fn long_real_axes_run_as_complex_axes_of_half_their_length() {
    for device in common::devices() {
        let limits = coalesce::fft::limits(&device);
        let design = |p: &FftNdProblem| FftNdRecipe::design(p.clone(), limits).unwrap();
        let packed = |p: &FftNdProblem| design(p).describe().contains("Packed");
        // 2^21 reals: two passes, as C2C's 2^20 (three as real rows split four-step).
        for p in [FftNdProblem::r2c_1d(1 << 21, 1), FftNdProblem::c2r_1d(1 << 21, 1)] {
            assert!(packed(&p) && design(&p).passes.len() == 2, "{}", design(&p).describe());
        }
        // An odd count of columns (8194 = 2 x 17 x 241: a Rader pass), an even one with the
        // middle column its own mirror image, several arrays, f64.
        for n in [8194, 60000] {
            for p in [FftNdProblem::r2c_1d(n, 3), FftNdProblem::c2r_1d(n, 3)] {
                assert!(packed(&p), "{}", design(&p).describe());
                check_real::<f32>(&device, p);
            }
        }
        for p in [FftNdProblem::r2c_1d(40000, 2).f64(), FftNdProblem::c2r_1d(40000, 2).f64()] {
            assert!(packed(&p), "{}", design(&p).describe());
            check_real::<f64>(&device, p);
        }
        // Padded rows (an even distance: the reals still pair up) and FFTW's in-place layout;
        // an odd distance splits the rows as reals.
        for p in [FftNdProblem::r2c(&[2, 40000], &[1]).input_strides(&[40010, 1]), FftNdProblem::c2r(&[2, 40000], &[1]).output_strides(&[40010, 1])] {
            assert!(packed(&p), "{}", design(&p).describe());
            check_layout(&device, p, 1);
        }
        let odd = FftNdProblem::r2c(&[2, 40000], &[1]).input_strides(&[40001, 1]);
        assert!(!packed(&odd), "{}", design(&odd).describe());
        check_layout(&device, odd, 1);
        check_real_in_place::<f32>(&device, FftNdProblem::r2c(&[2, 40000], &[1]).in_place());
        check_real_in_place::<f32>(&device, FftNdProblem::c2r(&[2, 40000], &[1]).in_place());
    }
}

#[test]
fn large_prime_factors_by_bluestein_over_passes() {
    for device in common::devices() {
        // Primes over the one-launch limit, and a product with one; batched, strided, beside
        // other axes, in place, scaled, f64. 524309: a chirp period over 2^20, looked up from
        // three tables (`RootDigits`).
        let mut lengths = vec![4099, 8191, 2 * 4099, 524_309];
        if common::full() && !common::under_sanitizer() {
            lengths.extend([65537, 1_000_003, 1_048_583, 3 * 100_003]);
        }
        for n in lengths {
            let batch = if n <= 1 << 16 { 2 } else { 1 };
            check::<f32>(&device, FftNdProblem::c2c_1d(n, batch));
        }
        check::<f32>(&device, FftNdProblem::c2c(&[2, 4099, 3], &[1]));
        check::<f32>(&device, FftNdProblem::c2c(&[4099, 5], &[0, 1]));
        check::<f32>(&device, FftNdProblem::c2c(&[3, 4099], &[1, 0]).in_place().norm(Normalization::Ortho));
        check::<f64>(&device, FftNdProblem::c2c_1d(4099, 2).f64());
        // Real transforms whose halved axis is such a length, contiguous or strided, and
        // beside another axis.
        check_real::<f32>(&device, FftNdProblem::r2c_1d(4099, 2));
        check_real::<f32>(&device, FftNdProblem::c2r_1d(4099, 2));
        check_real::<f32>(&device, FftNdProblem::r2c(&[4099, 3], &[1, 0]));
        check_real::<f32>(&device, FftNdProblem::c2r(&[4099, 3], &[1, 0]));
        check_real::<f64>(&device, FftNdProblem::c2r(&[3, 4099], &[0, 1]).f64());
        // Rows in pairs (z = x + i y; `real_pairs.rs`): odd and even counts, a pair
        // dimension that is not the slowest, f64, scaled, in place.
        for batch in [3, 4] {
            check_real::<f32>(&device, FftNdProblem::r2c_1d(4099, batch));
            check_real::<f32>(&device, FftNdProblem::c2r_1d(4099, batch));
        }
        // An even length: X[N/2] joins by its real part too.
        check_real::<f32>(&device, FftNdProblem::r2c_1d(2 * 4099, 3));
        check_real::<f32>(&device, FftNdProblem::c2r_1d(2 * 4099, 2));
        check_real::<f32>(&device, FftNdProblem::r2c(&[2, 4099, 5], &[1]).norm(Normalization::Ortho));
        check_real::<f32>(&device, FftNdProblem::c2r(&[2, 4099, 5], &[1]).norm(Normalization::Forward));
        check_real::<f64>(&device, FftNdProblem::r2c(&[5, 4099], &[1]).f64());
        check_real_in_place::<f32>(&device, FftNdProblem::r2c(&[3, 4099], &[1]).in_place());
        check_real_in_place::<f32>(&device, FftNdProblem::c2r(&[3, 4099], &[1]).in_place());
        if common::full() && !common::under_sanitizer() {
            check_real::<f32>(&device, FftNdProblem::r2c_1d(1_000_003, 1));
            check_real::<f32>(&device, FftNdProblem::c2r_1d(1_000_003, 1));
        }
    }
}

/// Places of the elements of an array of `shape` with `strides`, in row-major order.
fn places(shape: &[usize], strides: &[usize]) -> Vec<usize> {
    let mut at = vec![0usize];
    for (&n, &s) in shape.iter().zip(strides) {
        at = at.iter().flat_map(|&p| (0..n).map(move |i| p + i * s)).collect();
    }
    at
}

/// Runs `problem`, whose strides leave gaps, on a buffer of random values (gaps included)
/// `extra` elements longer than needed: the output's elements match the reference on the
/// arrays gathered from their places, and every other place keeps what it held (poison out
/// of place, the random values in place).
fn check_layout(device: &Device, problem: FftNdProblem, extra: usize) {
    let plan = FftNdPlan::new(device, problem.clone()).unwrap_or_else(|e| panic!("{problem:?} on {}: {e}", device.id()));
    let ((in_shape, out_shape), (in_strides, out_strides)) = (problem.buffer_shapes(), problem.buffer_strides());
    let (in_len, out_len) = problem.buffer_lens();
    let (from, to) = (places(&in_shape, &in_strides), places(&out_shape, &out_strides));
    let direction = problem.fixed_direction().unwrap_or(Direction::Forward);
    let scale = problem.scale(direction);
    let (shape, axes) = (&problem.shape, &problem.axes);
    let in_place = problem.placement == Placement::InPlace;
    // (the output's elements, want, whether every other place kept its value)
    let (got, want, kept): (Vec<C64>, Vec<C64>, bool) = match problem.kind {
        FftKind::R2C => {
            let buffer: Vec<f32> = random_vec(in_len + extra, 31);
            let x: Vec<f64> = from.iter().map(|&p| buffer[p] as f64).collect();
            let want = reference::r2c_axes(&x, shape, axes).into_iter().map(|v| v * scale).collect();
            let mut out = poisoned::<Complex<f32>>(device, out_len + extra);
            plan.forward(&device.upload(&buffer).unwrap(), &mut out).unwrap();
            let out = out.to_vec().unwrap();
            let kept = (0..out.len()).filter(|p| !to.contains(p)).all(|p| out[p].re.is_nan() && out[p].im.is_nan());
            (widen(&to.iter().map(|&p| out[p]).collect::<Vec<_>>()), want, kept)
        }
        FftKind::C2R => {
            let buffer: Vec<Complex<f32>> = random_vec(in_len + extra, 32);
            let x: Vec<C64> = widen(&from.iter().map(|&p| buffer[p]).collect::<Vec<_>>());
            let want = reference::c2r_axes(&x, shape, axes).into_iter().map(|v| C64::new(v * scale, 0.0)).collect();
            let mut out = poisoned::<f32>(device, out_len + extra);
            plan.inverse(&device.upload(&buffer).unwrap(), &mut out).unwrap();
            let out = out.to_vec().unwrap();
            let kept = (0..out.len()).filter(|p| !to.contains(p)).all(|p| out[p].is_nan());
            (to.iter().map(|&p| C64::new(out[p] as f64, 0.0)).collect(), want, kept)
        }
        FftKind::C2C => {
            let buffer: Vec<Complex<f32>> = random_vec(in_len.max(out_len) + extra, 33);
            let x: Vec<C64> = widen(&from.iter().map(|&p| buffer[p]).collect::<Vec<_>>());
            let want = reference::c2c_axes(&x, shape, axes, false).into_iter().map(|v| v * scale).collect();
            let out = if in_place {
                let mut data = device.upload(&buffer).unwrap();
                plan.forward_in_place(&mut data).unwrap();
                data.to_vec().unwrap()
            } else {
                let mut out = poisoned::<Complex<f32>>(device, out_len + extra);
                plan.forward(&device.upload(&buffer).unwrap(), &mut out).unwrap();
                out.to_vec().unwrap()
            };
            let untouched = |p: usize| if in_place { out[p] == buffer[p] } else { out[p].re.is_nan() && out[p].im.is_nan() };
            let kept = (0..out.len()).filter(|p| !to.contains(p)).all(untouched);
            (widen(&to.iter().map(|&p| out[p]).collect::<Vec<_>>()), want, kept)
        }
    };
    assert!(kept, "{problem:?} on {}: a place outside the output's elements was written", device.id());
    assert_within_bound::<f32>(device, &plan, got, want);
}

/// Panics with the case and its passes where `got` is further from `want` (relative L2) than
/// the bound for the transform's length, doubled for the four-step twiddle products.
fn assert_within_bound<T: Real>(device: &Device, plan: &FftNdPlan, got: Vec<C64>, want: Vec<C64>)
where
    Complex<T>: Random + Element,
{
    let problem = plan.problem();
    let err = reference::relative_l2_error(got, want);
    let limit = 2.0 * bound::<T>(problem.transform_len());
    assert!(err <= limit, "{problem:?} on {}: relative error {err:e} > {limit:e}\n{}", device.id(), plan.recipe().describe());
}

#[test]
fn strided_layouts_read_and_write_exactly_their_elements() {
    for device in common::devices() {
        // Column-major input (innermost stride 6) into padded rows (batch distance 16).
        check_layout(&device, FftNdProblem::c2c(&[6, 10], &[1]).input_strides(&[1, 6]).output_strides(&[16, 1]), 5);
        // Two of three axes, padded on both sides, the batch axis in the middle.
        check_layout(&device, FftNdProblem::c2c(&[5, 7, 4], &[0, 2]).input_strides(&[1, 6, 48]).output_strides(&[36, 5, 1]), 3);
        // Interleaved batches (cufftPlanMany istride 3, idist 1) of a length in two passes,
        // into rows and into a strided output (its values between passes then in scratch).
        check_layout(&device, FftNdProblem::c2c(&[3, 5000], &[1]).input_strides(&[1, 3]).output_strides(&[5008, 1]), 0);
        check_layout(&device, FftNdProblem::c2c(&[3, 5000], &[1]).output_strides(&[1, 3]), 2);
        // Padded rows (cuFFT's idist and odist) run the contiguous kernels, of every kind
        // and packing, and a long row; an odd distance between even real rows does not.
        check_layout(&device, FftNdProblem::c2c(&[3, 4096], &[1]).input_strides(&[4100, 1]).output_strides(&[4104, 1]), 1);
        check_layout(&device, FftNdProblem::c2c(&[5, 12], &[1]).input_strides(&[13, 1]).output_strides(&[17, 1]), 0);
        check_layout(&device, FftNdProblem::c2c(&[2, 16384], &[1]).input_strides(&[16400, 1]), 0);
        check_layout(&device, FftNdProblem::r2c(&[3, 1000], &[1]).input_strides(&[1002, 1]).output_strides(&[520, 1]), 2);
        check_layout(&device, FftNdProblem::c2r(&[3, 1000], &[1]).input_strides(&[503, 1]).output_strides(&[1010, 1]), 0);
        check_layout(&device, FftNdProblem::r2c(&[3, 999], &[1]).input_strides(&[1001, 1]).output_strides(&[505, 1]), 1);
        check_layout(&device, FftNdProblem::c2r(&[3, 999], &[1]).input_strides(&[505, 1]).output_strides(&[1003, 1]), 1);
        check_layout(&device, FftNdProblem::r2c(&[3, 1000], &[1]).input_strides(&[1001, 1]), 0);
        // In place with padding, every axis; and a prime over one launch (Bluestein).
        check_layout(&device, FftNdProblem::c2c(&[4, 6, 5], &[0, 1, 2]).input_strides(&[64, 8, 1]).output_strides(&[64, 8, 1]).in_place(), 7);
        check_layout(&device, FftNdProblem::c2c(&[2, 4099], &[1]).input_strides(&[1, 2]).output_strides(&[4100, 1]), 1);
        // Real: padded rows (cuFFT's in-place padding, here out of place) to a column-major
        // half spectrum and back; a strided halved axis; a long real axis interleaved.
        check_layout(&device, FftNdProblem::r2c(&[6, 9], &[0, 1]).input_strides(&[10, 1]).output_strides(&[1, 6]), 4);
        check_layout(&device, FftNdProblem::c2r(&[6, 9], &[0, 1]).input_strides(&[1, 7]).output_strides(&[12, 1]), 0);
        check_layout(&device, FftNdProblem::c2r(&[8, 5], &[1, 0]).input_strides(&[10, 2]).output_strides(&[1, 8]), 3);
        check_layout(&device, FftNdProblem::r2c(&[8, 5], &[1, 0]).input_strides(&[1, 8]).output_strides(&[12, 2]), 1);
        check_layout(&device, FftNdProblem::r2c(&[2, 5000], &[1]).input_strides(&[1, 2]).output_strides(&[2504, 1]), 0);
        check_layout(&device, FftNdProblem::c2r(&[2, 5000], &[1]).input_strides(&[2504, 1]).output_strides(&[1, 2]), 0);
    }
}

#[test]
fn bad_strides_are_named() {
    let err = |p: FftNdProblem| p.validate().unwrap_err().to_string();
    assert!(err(FftNdProblem::c2c(&[4, 6], &[1]).output_strides(&[4, 1])).contains("overlap"));
    assert!(err(FftNdProblem::c2c(&[4, 6], &[1]).input_strides(&[6])).contains("one stride per axis"));
    assert!(err(FftNdProblem::c2c(&[4, 6], &[1]).input_strides(&[0, 1])).contains("axis 0 is 0"));
    assert!(err(FftNdProblem::c2c(&[4, 6], &[1]).input_strides(&[8, 1]).in_place()).contains("overwrite"));
    assert!(err(FftNdProblem::r2c(&[4, 6], &[1]).output_strides(&[3, 1])).contains("overlap"), "the half spectrum is [4, 4]");
    assert!(FftNdProblem::c2c(&[4, 6], &[1]).output_strides(&[1, 4]).validate().is_ok());
    for device in common::devices() {
        let plan = FftNdPlan::new(&device, FftNdProblem::c2c(&[4, 6], &[1]).input_strides(&[1, 5])).unwrap();
        assert_eq!(plan.problem().buffer_lens(), (3 + 5 * 5 + 1, 24));
        let short = device.alloc::<Complex<f32>>(28).unwrap();
        let mut out = device.alloc::<Complex<f32>>(24).unwrap();
        assert!(matches!(plan.forward(&short, &mut out), Err(Error::LengthMismatch { expected: 29, got: 28, .. })));
    }
}

/// Runs an in-place R2C or C2R `problem` on FFTW's and cuFFT's padded layout: real rows of
/// 2(n/2+1) values (the padding poisoned), the half spectrum in the same bytes.
fn check_real_in_place<T: Real>(device: &Device, problem: FftNdProblem)
where
    Complex<T>: Random + Element,
    T: Random + Element,
{
    let plan = FftNdPlan::new(device, problem.clone()).unwrap_or_else(|e| panic!("{problem:?} on {}: {e}", device.id()));
    let (shape, axes) = (&problem.shape, &problem.axes);
    let n = *shape.last().unwrap();
    let (half, rows) = (n / 2 + 1, problem.len() / n);
    let (got, want): (Vec<C64>, Vec<C64>) = match problem.kind {
        FftKind::R2C => {
            let x: Vec<T> = random_vec(problem.len(), 51);
            let mut buffer = vec![T::from_f64(f64::NAN); 2 * half * rows];
            for r in 0..rows {
                buffer[2 * half * r..2 * half * r + n].copy_from_slice(&x[n * r..n * (r + 1)]);
            }
            let mut data = device.upload(&buffer).unwrap();
            plan.forward_in_place(&mut data).unwrap();
            let out = data.to_vec().unwrap();
            let got = out.chunks(2).map(|c| C64::new(c[0].to_f64(), c[1].to_f64())).collect();
            let scale = problem.scale(Direction::Forward);
            (got, reference::r2c_axes(&x.iter().map(|v| v.to_f64()).collect::<Vec<_>>(), shape, axes).into_iter().map(|v| v * scale).collect())
        }
        _ => {
            let x: Vec<Complex<T>> = random_vec(half * rows, 52);
            let mut data = device.upload(&x).unwrap();
            plan.inverse_in_place(&mut data).unwrap();
            let reals: Vec<f64> = data.to_vec().unwrap().iter().flat_map(|c| [c.re.to_f64(), c.im.to_f64()]).collect();
            let got = (0..rows).flat_map(|r| reals[2 * half * r..2 * half * r + n].to_vec()).map(|v| C64::new(v, 0.0)).collect();
            let scale = problem.scale(Direction::Inverse);
            (got, reference::c2r_axes(&widen(&x), shape, axes).into_iter().map(|v| C64::new(v * scale, 0.0)).collect())
        }
    };
    assert_within_bound::<T>(device, &plan, got, want);
}

#[test]
fn columns_of_odd_width_split_with_pass_a_writes_along_the_array() {
    // f32 columns split four-step whose rows start off 32-byte sectors (136 and 144 bytes
    // here; an R2C half spectrum of odd width): pass A leaves Y[n1, k2] at row n1 + N1 k2,
    // read by pass B from another buffer than it writes (nd_recipe.rs, MiddleOrder::N1Inner;
    // C2R in the second scratch buffer). Such a pass A writes as far apart as it reads.
    for device in common::devices() {
        let limits = coalesce::fft::limits(&device);
        let n1_inner = |p: &FftNdProblem| {
            let recipe = FftNdRecipe::design(p.clone(), limits).unwrap();
            assert!(recipe.passes.iter().filter_map(|p| p.recipe.io.as_ref()).any(|io| io.twiddle.is_some() && io.output_stride == io.input_stride), "{p:?}: {}", recipe.describe());
        };
        let c2c = FftNdProblem::c2c(&[8192, 17], &[0]).in_place();
        n1_inner(&c2c);
        check::<f32>(&device, c2c);
        for kind in [FftKind::R2C, FftKind::C2R] {
            let real = FftNdProblem { kind, ..FftNdProblem::r2c(&[8192, 34], &[0, 1]) }.in_place();
            n1_inner(&real);
            check_real_in_place::<f32>(&device, real);
        }
    }
}

#[test]
fn scratch_bytes_count_the_buffers_between_passes() {
    for device in common::devices() {
        let scratch = |p: FftNdProblem| plan_unless_too_big(&device, &p).map(|plan| (plan.recipe().passes.len(), plan.scratch_bytes()));
        // A grid in one launch: no values between passes.
        assert_eq!(scratch(FftNdProblem::c2c(&[64, 64], &[0, 1])), Some((1, 0)));
        // Out of place, 65536 points in two passes through the output; in place, through
        // one buffer of the array's size.
        assert_eq!(scratch(FftNdProblem::c2c_1d(65536, 2)), Some((2, 0)));
        assert_eq!(scratch(FftNdProblem::c2c_1d(65536, 2).in_place()), Some((2, 2 * 65536 * 8)));
    }
}

#[test]
fn real_transforms_in_place_use_the_padded_layout() {
    for device in common::devices() {
        // Even and odd halved axes, other axes before them, rows past one launch (three
        // passes through scratch), f64.
        for (shape, axes) in [(vec![6, 10], vec![0, 1]), (vec![3, 4, 9], vec![0, 2]), (vec![5, 8], vec![1]), (vec![2, 20000], vec![1]), (vec![3, 5000], vec![0, 1])] {
            check_real_in_place::<f32>(&device, FftNdProblem::r2c(&shape, &axes).in_place());
            check_real_in_place::<f32>(&device, FftNdProblem::c2r(&shape, &axes).in_place());
        }
        check_real_in_place::<f64>(&device, FftNdProblem::c2r(&[4, 6], &[0, 1]).f64().in_place());
        check_real_in_place::<f64>(&device, FftNdProblem::r2c(&[7, 2], &[0, 1]).f64().in_place());
    }
}

#[test]
fn real_round_trip_returns_the_signal() {
    for device in common::devices() {
        let shape = [6, 4100];
        let forward = FftNdPlan::new(&device, FftNdProblem::r2c(&shape, &[0, 1])).unwrap();
        let inverse = FftNdPlan::new(&device, FftNdProblem::c2r(&shape, &[0, 1])).unwrap();
        let x: Vec<f32> = random_vec(shape.iter().product(), 9);
        let input = device.upload(&x).unwrap();
        let mut spectrum = device.alloc::<Complex<f32>>(forward.problem().buffer_lens().1).unwrap();
        let mut back = poisoned::<f32>(&device, x.len());
        forward.forward(&input, &mut spectrum).unwrap();
        inverse.inverse(&spectrum, &mut back).unwrap();
        let back = back.to_vec().unwrap();
        let worst = x.iter().zip(&back).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
        assert!(worst < 1e-5, "round trip on {}: worst difference {worst}", device.id());
        // Real plans run one way: an R2C's inverse is refused by name.
        let err = forward.inverse(&input, &mut spectrum).unwrap_err().to_string();
        assert!(err.contains("forward"), "{err}");
    }
}

#[test]
fn bad_buffers_and_problems_are_errors() {
    for device in common::devices() {
        let plan = FftNdPlan::new(&device, FftNdProblem::c2c(&[4, 6], &[0, 1])).unwrap();
        let input = device.upload(&[Complex::new(1.0f32, 0.0); 24]).unwrap();
        let mut short = device.alloc::<Complex<f32>>(23).unwrap();
        assert!(matches!(plan.forward(&input, &mut short), Err(Error::LengthMismatch { expected: 24, got: 23, .. })));
        let mut doubles = device.alloc::<Complex<f64>>(24).unwrap();
        let wide = device.upload(&vec![Complex::new(1.0f64, 0.0); 24]).unwrap();
        let msg = plan.forward(&wide, &mut doubles).unwrap_err().to_string();
        assert!(msg.contains("c64") || msg.contains("complex"), "{msg}");
        let mut data = device.upload(&[Complex::new(1.0f32, 0.0); 24]).unwrap();
        assert!(plan.forward_in_place(&mut data).unwrap_err().to_string().contains("out of place"));
        // Real plans: reals in for R2C, the half spectrum's length out.
        let rfft = FftNdPlan::new(&device, FftNdProblem::r2c(&[4, 6], &[0, 1])).unwrap();
        let mut half = device.alloc::<Complex<f32>>(4 * 4).unwrap();
        let msg = rfft.forward(&input, &mut half).unwrap_err().to_string();
        assert!(msg.contains("f32") && msg.contains("r2c"), "{msg}");
        let reals = device.upload(&[1.0f32; 24]).unwrap();
        let mut full = device.alloc::<Complex<f32>>(24).unwrap();
        assert!(matches!(rfft.forward(&reals, &mut full), Err(Error::LengthMismatch { expected: 16, got: 24, .. })));
        let err = FftNdPlan::new(&device, FftNdProblem::c2r(&[4, 6], &[1, 0]).in_place()).err().expect("in place, the last axis is halved");
        assert!(err.to_string().contains("name axis 1 last"), "{err}");
        let rfft_in_place = FftNdPlan::new(&device, FftNdProblem::r2c(&[4, 6], &[0, 1]).in_place()).unwrap();
        let mut unpadded = device.alloc::<f32>(24).unwrap();
        assert!(matches!(rfft_in_place.forward_in_place(&mut unpadded), Err(Error::LengthMismatch { expected: 32, got: 24, .. })));
        let err = FftNdPlan::new(&device, FftNdProblem::c2c(&[3, 3], &[0, 0])).err().expect("a repeated axis is an error");
        assert!(err.to_string().contains("twice"), "{err}");
        let err = FftNdPlan::new(&device, FftNdProblem::c2c_1d((1 << 31) + 11, 1).precision(Precision::F32)).err().expect("Bluestein stops below 2^31");
        assert!(matches!(err, Error::Unsupported(_)) && err.to_string().contains("2147483659"), "{err}");
    }
}

/// A forward C2C transform of `x` on the device, unscaled (norm None), widened to f64.
fn forward_c2c(device: &Device, plan: &FftNdPlan, x: &[Complex<f32>]) -> Vec<C64> {
    let input = device.upload(x).unwrap();
    let mut out = poisoned::<Complex<f32>>(device, x.len());
    plan.forward(&input, &mut out).unwrap();
    widen(&out.to_vec().unwrap())
}

/// FFTW's self-checks, for sizes where the f64 reference is too slow: linearity, the
/// impulse response (a shifted delta's spectrum is a pure phase ramp), the time shift
/// theorem (a circular shift multiplies by a phase ramp) and Parseval's energy identity.
fn self_check(device: &Device, shape: &[usize]) {
    let axes: Vec<usize> = (0..shape.len()).collect();
    let problem = FftNdProblem::c2c(shape, &axes).norm(Normalization::None);
    let Some(plan) = plan_unless_too_big(device, &problem) else { return };
    let len = problem.len();
    let limit = 4.0 * bound::<f32>(len);
    let x: Vec<Complex<f32>> = random_vec(len, 21);
    let y: Vec<Complex<f32>> = random_vec(len, 22);
    let (fx, fy) = (forward_c2c(device, &plan, &x), forward_c2c(device, &plan, &y));
    let what = |check: &str, err: f64| assert!(err <= limit, "{shape:?} on {}: {check} off by {err:e} > {limit:e}", device.id());
    // Linearity: F(x + 2y) = F(x) + 2 F(y).
    let mix: Vec<Complex<f32>> = x.iter().zip(&y).map(|(a, b)| a + b * 2.0).collect();
    what("linearity", reference::relative_l2_error(forward_c2c(device, &plan, &mix), fx.iter().zip(&fy).map(|(a, b)| a + b * 2.0)));
    // Phase of flat index f for per-axis offsets `at`: e^{-2 pi i sum k_a at_a / n_a}.
    let ramp = |f: usize, at: &[usize]| {
        let (mut rest, mut turns) = (f, 0.0f64);
        for a in (0..shape.len()).rev() {
            turns += ((rest % shape[a]) * at[a] % shape[a]) as f64 / shape[a] as f64;
            rest /= shape[a];
        }
        C64::from_polar(1.0, -2.0 * std::f64::consts::PI * turns.fract())
    };
    // Impulse response: a delta at `at` transforms to the ramp.
    let at: Vec<usize> = shape.iter().map(|&n| n / 3).collect();
    let flat = at.iter().zip(shape).fold(0, |acc, (&i, &n)| acc * n + i);
    let mut delta = vec![Complex::new(0.0f32, 0.0); len];
    delta[flat] = Complex::new(1.0, 0.0);
    what("impulse response", reference::relative_l2_error(forward_c2c(device, &plan, &delta), (0..len).map(|f| ramp(f, &at))));
    // Time shift: x moved forward by one along axis 0 transforms to F(x) times the ramp of 1.
    let inner = len / shape[0];
    let shifted: Vec<Complex<f32>> = (0..len).map(|f| x[(f + len - inner) % len]).collect();
    let mut one = vec![0; shape.len()];
    one[0] = 1;
    what("time shift", reference::relative_l2_error(forward_c2c(device, &plan, &shifted), fx.iter().enumerate().map(|(f, v)| v * ramp(f, &one))));
    // Parseval: sum |X|^2 = N sum |x|^2.
    let energy: f64 = widen(&x).iter().map(|v| v.norm_sqr()).sum::<f64>() * len as f64;
    let spectrum: f64 = fx.iter().map(|v| v.norm_sqr()).sum();
    what("Parseval", (spectrum - energy).abs() / energy);
}

#[test]
fn self_checks_where_the_reference_is_too_slow() {
    for device in common::devices() {
        self_check(&device, &[1 << 18]);
        self_check(&device, &[96, 1000]);
        if common::full() && !common::under_sanitizer() {
            self_check(&device, &[1 << 26]);
            self_check(&device, &[3 << 24]);
            self_check(&device, &[8192, 8192]);
            self_check(&device, &[512, 512, 512]);
            self_check(&device, &[4093, 4091]);
        }
    }
}

#[test]
fn real_round_trips_where_the_reference_is_too_slow() {
    for device in common::devices() {
        let mut shapes = vec![vec![1 << 18], vec![4, 12, 4098]];
        if common::full() && !common::under_sanitizer() {
            shapes.extend([vec![1 << 26], vec![8192, 8194], vec![256, 512, 512]]);
        }
        for shape in shapes {
            let axes: Vec<usize> = (0..shape.len()).collect();
            let forward = FftNdPlan::new(&device, FftNdProblem::r2c(&shape, &axes)).unwrap();
            let inverse = FftNdPlan::new(&device, FftNdProblem::c2r(&shape, &axes)).unwrap();
            let x: Vec<f32> = random_vec(shape.iter().product(), 23);
            let input = device.upload(&x).unwrap();
            let mut spectrum = poisoned::<Complex<f32>>(&device, forward.problem().buffer_lens().1);
            let mut back = poisoned::<f32>(&device, x.len());
            forward.forward(&input, &mut spectrum).unwrap();
            inverse.inverse(&spectrum, &mut back).unwrap();
            // The half spectrum is the first n/2+1 values of the complex transform's last axis.
            let complex = FftNdPlan::new(&device, FftNdProblem::c2c(&shape, &axes)).unwrap();
            let full = forward_c2c(&device, &complex, &x.iter().map(|&v| Complex::new(v, 0.0)).collect::<Vec<_>>());
            let (n, half) = (shape[shape.len() - 1], shape[shape.len() - 1] / 2 + 1);
            let want = full.chunks(n).flat_map(|row| row[..half].to_vec());
            let limit = 4.0 * bound::<f32>(x.len());
            let err = reference::relative_l2_error(widen(&spectrum.to_vec().unwrap()), want);
            assert!(err <= limit, "{shape:?} on {}: R2C differs from C2C's half by {err:e}", device.id());
            let back: Vec<C64> = back.to_vec().unwrap().iter().map(|&v| C64::new(v as f64, 0.0)).collect();
            let err = reference::relative_l2_error(back, x.iter().map(|&v| C64::new(v as f64, 0.0)));
            assert!(err <= limit, "{shape:?} on {}: round trip off by {err:e}", device.id());
        }
    }
}

/// Real grids whose halved axis's lines are separated (R2C) or rebuilt (C2R) in the second
/// shared buffer: ping-pong after an odd number of passes (R2C's [2, 1024] grids: the last
/// axis's 16 x 16 x 2 before the separation; C2R's: the first axis's 2 before the rebuild).
/// The H200's pick, 64 threads, walks each line's pairs by line (`grid_pair_loop_by_line`),
/// whose slots then start past the first buffer.
#[test]
fn real_grids_ping_pong() {
    for device in common::devices() {
        for p in [FftNdProblem::r2c(&[2, 256, 1024], &[0, 1, 2]), FftNdProblem::c2r(&[2, 256, 1024], &[0, 1, 2])] {
            let mut recipe = FftNdRecipe::design(p.clone(), coalesce::fft::DeviceLimits::H200).unwrap();
            let grid = &mut recipe.passes.iter_mut().find(|pass| pass.recipe.kernel_name().contains("realgrid")).expect("a real grid").recipe;
            grid.tuning.ping_pong = true;
            let body = coalesce::fft::FftPlan::source(grid).body;
            let by_line = body.lines().find(|l| l.contains("const u32 slot0[")).unwrap_or_else(|| panic!("{p:?}: no by-line pair loop"));
            assert!(by_line.contains("u + PAD("), "{p:?}: the pairs' slots still in the first buffer: {by_line}");
            if let Some(plan) = unless_too_big(&device, &p, FftNdPlan::from_recipe(&device, recipe)) {
                check_real_plan::<f32>(&device, &plan);
            }
        }
    }
}
