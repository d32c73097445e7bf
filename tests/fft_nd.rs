//! Multi-dimensional and long C2C transforms on every device, against rustfft in f64 applied
//! axis by axis: every axis subset of small shapes, strided axes of Stockham, Rader and
//! Bluestein lengths, four-step lengths beyond one launch, in and out of place, both
//! directions, poisoned outputs. The GPU suite (COALESCE_FULL_TESTS=1) adds longer lengths.

mod common;
mod fft_support;

use coalesce::bench::random::{random_vec, Random};
use coalesce::fft::{reference, Direction, FftNdPlan, FftNdProblem, Normalization, Placement, Precision};
use coalesce::{Complex, Device, Element, Error};
use fft_support::{bound, poisoned, widen, Real};

type C64 = Complex<f64>;

/// Runs `problem` forward and inverse on random data; panics with the case when the relative
/// L2 error against the f64 reference is over the bound (doubled for the four-step twiddle
/// products, which round twice).
fn check<T: Real>(device: &Device, problem: FftNdProblem)
where
    Complex<T>: Random + Element,
{
    let plan = match FftNdPlan::new(device, problem.clone()) {
        Ok(plan) => plan,
        // A pass whose one row outgrows the block's shared memory (NVIDIA's OpenCL allows 48
        // KiB; a 4093-point Bluestein row needs 64) is refused by name, not run.
        Err(Error::Unsupported(msg)) if msg.contains("shared memory") && device.info().shared_memory_per_block < 96 * 1024 => {
            eprintln!("{problem:?} on {}: skipped, {msg}", device.id());
            return;
        }
        Err(e) => panic!("{problem:?} on {}: {e}", device.id()),
    };
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
        // Stockham, Rader (67, 241), Bluestein (2039: 2038 = 2 x 1019), a prime codelet (61),
        // long columns (1000, 4096), and few columns (inner 2, 3).
        for (shape, axes) in [
            (vec![67, 3], vec![0]),
            (vec![241, 5], vec![0]),
            (vec![2039, 2], vec![0]),
            (vec![61, 40], vec![0, 1]),
            (vec![2, 1000, 3], vec![1]),
            (vec![4096, 2], vec![0]),
            (vec![5, 64, 33], vec![1, 2]),
        ] {
            check::<f32>(&device, FftNdProblem::c2c(&shape, &axes));
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
        // Three passes: a strided axis of 2^21 points.
        let three = FftNdProblem::c2c(&[1, 1 << 21, 2], &[1]);
        assert_eq!(coalesce::fft::FftNdRecipe::design(three.clone(), coalesce::fft::limits(&device)).unwrap().passes.len(), 3);
        check::<f32>(&device, three);
        if common::full() && !common::under_sanitizer() {
            check::<f32>(&device, FftNdProblem::c2c(&[4100, 4104], &[0, 1]));
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
    }
}

#[test]
fn bad_buffers_and_problems_are_errors() {
    for device in common::devices() {
        let plan = FftNdPlan::new(&device, FftNdProblem::c2c(&[4, 6], &[0, 1])).unwrap();
        let input = device.upload(&vec![Complex::new(1.0f32, 0.0); 24]).unwrap();
        let mut short = device.alloc::<Complex<f32>>(23).unwrap();
        assert!(matches!(plan.forward(&input, &mut short), Err(Error::LengthMismatch { expected: 24, got: 23, .. })));
        let mut doubles = device.alloc::<Complex<f64>>(24).unwrap();
        let wide = device.upload(&vec![Complex::new(1.0f64, 0.0); 24]).unwrap();
        let msg = plan.forward(&wide, &mut doubles).unwrap_err().to_string();
        assert!(msg.contains("c64") || msg.contains("complex"), "{msg}");
        let mut data = device.upload(&vec![Complex::new(1.0f32, 0.0); 24]).unwrap();
        assert!(plan.forward_in_place(&mut data).unwrap_err().to_string().contains("out of place"));
        let err = FftNdPlan::new(&device, FftNdProblem::c2c(&[3, 3], &[0, 0])).err().expect("a repeated axis is an error");
        assert!(err.to_string().contains("twice"), "{err}");
        let err = FftNdPlan::new(&device, FftNdProblem::c2c_1d(8191 * 2, 1).precision(Precision::F32)).err().expect("8191 is a prime over 4096");
        assert!(matches!(err, Error::Unsupported(_)) && err.to_string().contains("8191"), "{err}");
    }
}
