//! Running one FFT case on a device and measuring its error against rustfft in f64.
#![allow(dead_code)]

use coalesce::bench::random::{random_vec, Random};
use coalesce::fft::{limits, reference, DeviceLimits, Direction, FftKind, FftPlan, FftProblem, FftRecipe, Placement, Precision};
use coalesce::{Complex, Device, DeviceBuffer, Element, Error};

type C64 = Complex<f64>;

/// f32 and f64, as the tests need them.
pub trait Real: Random + Element + Copy + Send + Sync
where
    Complex<Self>: Random + Element,
{
    const PRECISION: Precision;
    const EPSILON: f64;
    fn to_f64(self) -> f64;
    fn from_f64(v: f64) -> Self;
}

impl Real for f32 {
    const PRECISION: Precision = Precision::F32;
    const EPSILON: f64 = f32::EPSILON as f64;
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

impl Real for f64 {
    const PRECISION: Precision = Precision::F64;
    const EPSILON: f64 = f64::EPSILON;
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> Self {
        v
    }
}

/// Complex values in f64, for the reference comparisons.
pub fn widen<T: Real>(v: &[Complex<T>]) -> Vec<C64>
where
    Complex<T>: Random + Element,
{
    v.iter().map(|c| C64::new(c.re.to_f64(), c.im.to_f64())).collect()
}

/// Output buffer filled with NaN (all bits set), so an element the kernel skips shows up.
pub fn poisoned<T: Element>(device: &Device, len: usize) -> DeviceBuffer<T> {
    let mut b = device.alloc::<T>(len).unwrap();
    device.fill_bytes(&mut b, 0xFF).unwrap();
    b
}

/// The error bound for a length: a few epsilons per level of the transform, with headroom for
/// Bluestein's two convolution transforms of twice the length.
pub fn bound<T: Real>(len: usize) -> f64
where
    Complex<T>: Random + Element,
{
    let levels = (len.max(2) as f64).log2() + 1.0;
    2.0 * T::EPSILON * levels
}

/// Runs `plan` once in `direction` on random data from `seed`; returns the relative L2 error
/// against rustfft in f64 (scaled by the plan's normalization).
pub fn run_case<T: Real>(device: &Device, plan: &FftPlan, direction: Direction, seed: u64) -> f64
where
    Complex<T>: Random + Element,
{
    let p = *plan.problem();
    let (n, batch, half) = (p.len, p.batch, p.half_spectrum_len());
    let scale = p.scale(direction);
    let in_place = p.placement == Placement::InPlace;
    match p.kind {
        FftKind::C2C => {
            let x: Vec<Complex<T>> = random_vec(n * batch, seed);
            let want: Vec<C64> = reference::c2c(&widen(&x), n, direction == Direction::Inverse).into_iter().map(|v| v * scale).collect();
            let got: Vec<Complex<T>> = if in_place {
                let mut buf = device.upload(&x).unwrap();
                plan.execute_in_place(direction, &mut buf).unwrap();
                buf.to_vec().unwrap()
            } else {
                let input = device.upload(&x).unwrap();
                let mut out = poisoned::<Complex<T>>(device, n * batch);
                plan.execute(direction, &input, &mut out).unwrap();
                assert_eq!(input.to_vec().unwrap(), x, "out-of-place input was modified");
                out.to_vec().unwrap()
            };
            reference::relative_l2_error(widen(&got), want)
        }
        FftKind::R2C => {
            let x: Vec<T> = random_vec(n * batch, seed);
            let xf: Vec<f64> = x.iter().map(|v| v.to_f64()).collect();
            let want: Vec<C64> = reference::r2c(&xf, n).into_iter().map(|v| v * scale).collect();
            let got: Vec<Complex<T>> = if in_place {
                // Padded rows of 2(N/2+1) reals; the padding holds NaN, which must not leak in.
                let stride = 2 * half;
                let mut padded = vec![T::from_f64(f64::NAN); stride * batch];
                for r in 0..batch {
                    padded[r * stride..r * stride + n].copy_from_slice(&x[r * n..(r + 1) * n]);
                }
                let mut buf = device.upload(&padded).unwrap();
                plan.execute_in_place(direction, &mut buf).unwrap();
                let reals = buf.to_vec().unwrap();
                reals.chunks(2).map(|c| Complex::new(c[0], c[1])).collect()
            } else {
                let input = device.upload(&x).unwrap();
                let mut out = poisoned::<Complex<T>>(device, half * batch);
                plan.execute(direction, &input, &mut out).unwrap();
                out.to_vec().unwrap()
            };
            reference::relative_l2_error(widen(&got), want)
        }
        FftKind::C2R => {
            let x: Vec<Complex<T>> = random_vec(half * batch, seed);
            let want: Vec<C64> = reference::c2r(&widen(&x), n).into_iter().map(|v| C64::new(v * scale, 0.0)).collect();
            let got: Vec<T> = if in_place {
                let mut buf = device.upload(&x).unwrap();
                plan.execute_in_place(direction, &mut buf).unwrap();
                let flat: Vec<T> = buf.to_vec().unwrap().iter().flat_map(|c| [c.re, c.im]).collect();
                flat.chunks(2 * half).flat_map(|row| row[..n].to_vec()).collect()
            } else {
                let input = device.upload(&x).unwrap();
                let mut out = poisoned::<T>(device, n * batch);
                plan.execute(direction, &input, &mut out).unwrap();
                out.to_vec().unwrap()
            };
            reference::relative_l2_error(got.iter().map(|v| C64::new(v.to_f64(), 0.0)), want)
        }
    }
}

/// The directions a problem's kind runs in.
pub fn directions(kind: FftKind) -> &'static [Direction] {
    match kind {
        FftKind::C2C => &[Direction::Forward, Direction::Inverse],
        FftKind::R2C => &[Direction::Forward],
        FftKind::C2R => &[Direction::Inverse],
    }
}

/// Plans all `problems` (compiled in parallel), runs each in every direction it has, and
/// asserts the error bound; failures are collected and reported together.
pub fn check_all<T: Real>(device: &Device, problems: &[FftProblem], label: &str)
where
    Complex<T>: Random + Element,
{
    // A device with little shared memory per block (NVIDIA's OpenCL: 48 KiB) cannot hold the
    // longest Bluestein and f64 rows: planning says so with Error::Unsupported, and those are
    // skipped here (and listed). Any other planning error fails the test.
    let mut skipped = Vec::new();
    let problems: Vec<FftProblem> = problems
        .iter()
        .map(|p| p.precision(T::PRECISION))
        .filter(|p| match FftRecipe::design(*p, limits(device)) {
            Err(coalesce::Error::Unsupported(m)) if m.contains("shared memory") => {
                skipped.push(p.len);
                false
            }
            _ => true,
        })
        .collect();
    if !skipped.is_empty() {
        eprintln!("{label} on {device:?}: skipped {skipped:?}: more shared memory than the device has per block");
    }
    let plans = FftPlan::new_many(device, &problems).unwrap_or_else(|e| panic!("{label} on {device:?}: {e}"));
    check_plans::<T>(device, &plans, label);
}

/// Plans `recipes` (compiled together) and checks them as [`check_plans`] does.
pub fn check_recipes<T: Real>(device: &Device, recipes: Vec<FftRecipe>, label: &str)
where
    Complex<T>: Random + Element,
{
    let plans = FftPlan::from_recipes(device, recipes).unwrap_or_else(|e| panic!("{label} on {device:?}: {e}"));
    check_plans::<T>(device, &plans, label);
}

/// Runs each plan once in every direction it has and asserts the error bound; failures are
/// collected and reported together.
pub fn check_plans<T: Real>(device: &Device, plans: &[FftPlan], label: &str)
where
    Complex<T>: Random + Element,
{
    let mut failures = Vec::new();
    let mut worst = (0.0f64, 0usize);
    for (i, plan) in plans.iter().enumerate() {
        let p = plan.problem();
        for &d in directions(p.kind) {
            let seed = 1000 + i as u64;
            let err = run_case::<T>(device, plan, d, seed);
            let b = bound::<T>(p.len);
            if err / b > worst.0 || err.is_nan() {
                worst = (err / b, p.len);
            }
            if !(err <= b) {
                failures.push(format!("{} {d:?} seed {seed}: error {err:.3e} > {b:.3e} ({})", p.len, plan.recipe().kernel_name()));
            }
        }
    }
    eprintln!("{label} on {device:?}: {} plans, worst error/bound {:.3} at N={}", plans.len(), worst.0, worst.1);
    assert!(failures.is_empty(), "{label} on {device:?}: {} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Whether a device has too little shared memory a block for the longest one-launch rows that
/// the tests force: NVIDIA's OpenCL device allows 48 KiB (an H200 under CUDA 227 KiB).
pub fn small_shared_memory(lim: DeviceLimits) -> bool {
    lim.shared_bytes < 64 * 1024
}

/// A designed recipe, or None where a device of small shared memory (`small_shared_memory`)
/// cannot hold the row (3092 = 4 x 773 on a factor needs 50176 bytes) and the planner says so.
pub fn fitting(designed: coalesce::Result<FftRecipe>, lim: DeviceLimits, what: &str) -> Option<FftRecipe> {
    match designed {
        Ok(r) => Some(r),
        Err(Error::Unsupported(m)) if small_shared_memory(lim) && m.contains("bytes of shared memory") => None,
        Err(e) => panic!("{what}: {e}"),
    }
}

