//! Reductions against CPU references: exact for integers and for min/max, an f64 sum for
//! floats with an error bound that a long running f32 sum would break.

mod common;

use coalesce::bench::random::{random_vec, Random};
use coalesce::reduce::{self, ReduceOp, ReducePlan, Reducible};
use coalesce::{Device, Error};

/// The lengths tested: the awkward ones, and 0 for sums.
fn lengths() -> Vec<usize> {
    common::awkward_lengths()
}

/// Integer references: wrapping sum in the widened type, exact min and max.
macro_rules! int_case {
    ($name:ident, $t:ty, $acc:ty) => {
        #[test]
        fn $name() {
            for d in common::devices() {
                for (i, &n) in lengths().iter().enumerate() {
                    let seed = 7000 + i as u64;
                    let host = random_vec::<$t>(n, seed);
                    let x = d.upload(&host).unwrap();
                    let want_sum = host.iter().fold(0 as $acc, |a, &v| a.wrapping_add(v as $acc));
                    assert_eq!(reduce::sum(&x).unwrap(), want_sum, "{d}: sum of {n} {} (seed {seed})", stringify!($t));
                    assert_eq!(reduce::min(&x).unwrap(), *host.iter().min().unwrap(), "{d}: min of {n} (seed {seed})");
                    assert_eq!(reduce::max(&x).unwrap(), *host.iter().max().unwrap(), "{d}: max of {n} (seed {seed})");
                }
            }
        }
    };
}
int_case!(i32_sum_min_max, i32, i64);
int_case!(u32_sum_min_max, u32, u64);
int_case!(i64_sum_min_max, i64, i64);
int_case!(u64_sum_min_max, u64, u64);

/// Float reference: the f64 sum; bound relative to sum |x|, growing with log2 n.
fn check_float<T>(d: &Device, host: &[T], eps: f64, what: &str)
where
    T: Reducible<Sum = T> + Random + Into<f64> + PartialOrd,
{
    let x = d.upload(host).unwrap();
    let n = host.len();
    let exact: f64 = host.iter().map(|&v| v.into()).sum();
    let abs: f64 = host.iter().map(|&v| Into::<f64>::into(v).abs()).sum();
    let got: f64 = reduce::sum(&x).unwrap().into();
    let bound = 4.0 * eps * ((n as f64).log2() + 2.0) * abs;
    assert!((got - exact).abs() <= bound, "{d}: {what} sum of {n}: got {got}, exact {exact}, error {} > bound {bound}", (got - exact).abs());
    let want_min = host.iter().copied().fold(host[0], |a, b| if b < a { b } else { a });
    let want_max = host.iter().copied().fold(host[0], |a, b| if b > a { b } else { a });
    assert!(reduce::min(&x).unwrap() == want_min, "{d}: {what} min of {n}");
    assert!(reduce::max(&x).unwrap() == want_max, "{d}: {what} max of {n}");
}

#[test]
fn f32_sum_min_max() {
    for d in common::devices() {
        for (i, &n) in lengths().iter().enumerate() {
            check_float(&d, &random_vec::<f32>(n, 300 + i as u64), f32::EPSILON as f64, "f32");
        }
    }
}

#[test]
fn f64_sum_min_max() {
    for d in common::devices() {
        for (i, &n) in lengths().iter().enumerate() {
            check_float(&d, &random_vec::<f64>(n, 400 + i as u64), f64::EPSILON, "f64");
        }
    }
}

/// 2^24 values in [0, 1): a left-to-right f32 sum stalls near 2^24 and is off by tens of
/// percent; tree order keeps the relative error near 1e-7.
#[test]
fn f32_sum_of_many_positive_values_stays_accurate() {
    for d in common::devices() {
        let n = common::large();
        let host: Vec<f32> = random_vec::<f32>(n, 9).into_iter().map(|v| v.abs()).collect();
        let exact: f64 = host.iter().map(|&v| v as f64).sum();
        let got = reduce::sum(&d.upload(&host).unwrap()).unwrap() as f64;
        let rel = (got - exact).abs() / exact;
        assert!(rel < 2e-6, "{d}: relative error {rel:e} of the f32 sum of 2^24 positive values");
    }
}

#[test]
fn nan_propagates_through_min_and_max() {
    for d in common::devices() {
        for (n, at) in [(1usize, 0usize), (1000, 0), (1000, 999), (100_003, 54_321)] {
            let mut host = random_vec::<f32>(n, n as u64);
            host[at] = f32::NAN;
            let x = d.upload(&host).unwrap();
            assert!(reduce::min(&x).unwrap().is_nan(), "{d}: min with NaN at {at} of {n}");
            assert!(reduce::max(&x).unwrap().is_nan(), "{d}: max with NaN at {at} of {n}");
            assert!(reduce::sum(&x).unwrap().is_nan(), "{d}: sum with NaN at {at} of {n}");
        }
    }
}

#[test]
fn empty_buffers() {
    for d in common::devices() {
        let x = d.alloc::<f32>(0).unwrap();
        assert_eq!(reduce::sum(&x).unwrap(), 0.0);
        assert_eq!(reduce::sum(&d.alloc::<i32>(0).unwrap()).unwrap(), 0i64);
        let e = reduce::min(&x).unwrap_err();
        assert!(matches!(e, Error::EmptyReduction { op: "min" }), "{e}");
        assert!(matches!(reduce::max(&x), Err(Error::EmptyReduction { op: "max" })));
    }
}

#[test]
fn plan_checks_types_and_lengths() {
    for d in common::devices() {
        let plan = ReducePlan::new(&d, ReduceOp::Sum, coalesce::ScalarKind::I32, 10).unwrap();
        let x = d.upload(&[1i32; 10]).unwrap();
        let mut wrong_out = d.alloc::<i32>(1).unwrap();
        let e = plan.execute(&x, &mut wrong_out).unwrap_err();
        assert!(e.to_string().contains("i64"), "{e}");
        let mut out = d.alloc::<i64>(1).unwrap();
        let short = d.upload(&[1i32; 9]).unwrap();
        assert!(matches!(plan.execute(&short, &mut out), Err(Error::LengthMismatch { expected: 10, got: 9, .. })));
        let floats = d.upload(&[1f32; 10]).unwrap();
        assert!(matches!(plan.execute(&floats, &mut out), Err(Error::InvalidArgument(_))));
        assert!(ReducePlan::new(&d, ReduceOp::Sum, coalesce::ScalarKind::U8, 10).is_err());
        plan.execute(&x, &mut out).unwrap();
        assert_eq!(out.to_vec().unwrap(), vec![10i64]);
    }
}

#[test]
fn one_plan_from_several_threads() {
    if common::under_sanitizer() {
        eprintln!("skipped under compute-sanitizer (see common::under_sanitizer)");
        return;
    }
    for d in common::devices() {
        let n = 200_001;
        let plan = ReducePlan::new(&d, ReduceOp::Max, coalesce::ScalarKind::U64, n).unwrap();
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let (plan, d) = (&plan, &d);
                s.spawn(move || {
                    for r in 0..3 {
                        let host = random_vec::<u64>(n, 1000 * t + r);
                        let x = d.upload(&host).unwrap();
                        let mut out = d.alloc::<u64>(1).unwrap();
                        plan.execute(&x, &mut out).unwrap();
                        assert_eq!(out.to_vec().unwrap()[0], *host.iter().max().unwrap(), "{d}: thread {t} round {r}");
                    }
                });
            }
        });
    }
}
