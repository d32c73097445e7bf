//! The cuFFT handle of the device layer (the reference for the FFT benchmarks), checked
//! against a naive f64 DFT. CUDA devices only: elsewhere the tests check the error.

mod common;

use coalesce::bench::random::random_vec;
use coalesce::device::{CufftKind, CufftPlan};
use coalesce::{Backend, Complex, Device};

/// Naive DFT in f64: sign -1 forward, +1 inverse, unnormalised (cuFFT's convention).
fn dft(x: &[Complex<f64>], sign: f64) -> Vec<Complex<f64>> {
    let n = x.len();
    (0..n)
        .map(|k| {
            x.iter()
                .enumerate()
                .map(|(j, v)| {
                    let phase = sign * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                    v * Complex::new(phase.cos(), phase.sin())
                })
                .sum()
        })
        .collect()
}

fn rel_err(got: &[Complex<f64>], want: &[Complex<f64>]) -> f64 {
    let num: f64 = got.iter().zip(want).map(|(g, w)| (g - w).norm_sqr()).sum();
    let den: f64 = want.iter().map(|w| w.norm_sqr()).sum();
    (num / den.max(f64::MIN_POSITIVE)).sqrt()
}

fn cuda_devices() -> Vec<Device> {
    common::devices().into_iter().filter(|d| d.backend() == Backend::Cuda).collect()
}

#[test]
fn c2c_and_z2z_match_a_naive_dft() {
    for d in cuda_devices() {
        for &n in &[1usize, 2, 3, 5, 8, 17, 64, 100, 127] {
            let batch = 3;
            for inverse in [false, true] {
                let sign = if inverse { 1.0 } else { -1.0 };
                let x32 = random_vec::<Complex<f32>>(n * batch, n as u64);
                let plan = CufftPlan::new(&d, CufftKind::C2C, &[n], batch).unwrap();
                let input = d.upload(&x32).unwrap();
                let mut out = d.alloc::<Complex<f32>>(n * batch).unwrap();
                d.fill_bytes(&mut out, 0xFF).unwrap();
                plan.execute(&input, &mut out, inverse).unwrap();
                let got: Vec<Complex<f64>> = out.to_vec().unwrap().iter().map(|c| Complex::new(c.re as f64, c.im as f64)).collect();
                for b in 0..batch {
                    let x: Vec<Complex<f64>> = x32[b * n..(b + 1) * n].iter().map(|c| Complex::new(c.re as f64, c.im as f64)).collect();
                    let e = rel_err(&got[b * n..(b + 1) * n], &dft(&x, sign));
                    assert!(e < 1e-6, "{d}: C2C n={n} batch {b} inverse={inverse}: error {e:e}");
                }

                let x64 = random_vec::<Complex<f64>>(n * batch, 1000 + n as u64);
                let plan = CufftPlan::new(&d, CufftKind::Z2Z, &[n], batch).unwrap();
                let mut data = d.upload(&x64).unwrap();
                plan.execute_in_place(&mut data, inverse).unwrap();
                let got = data.to_vec().unwrap();
                for b in 0..batch {
                    let e = rel_err(&got[b * n..(b + 1) * n], &dft(&x64[b * n..(b + 1) * n], sign));
                    assert!(e < 1e-14, "{d}: Z2Z n={n} batch {b} inverse={inverse}: error {e:e}");
                }
            }
        }
    }
}

#[test]
fn r2c_gives_the_half_spectrum_and_c2r_inverts_it() {
    for d in cuda_devices() {
        for &n in &[2usize, 7, 8, 30, 33] {
            let batch = 2;
            let half = n / 2 + 1;
            let x = random_vec::<f32>(n * batch, n as u64);
            let r2c = CufftPlan::new(&d, CufftKind::R2C, &[n], batch).unwrap();
            let mut spectrum = d.alloc::<Complex<f32>>(half * batch).unwrap();
            r2c.execute(&d.upload(&x).unwrap(), &mut spectrum, false).unwrap();
            let got = spectrum.to_vec().unwrap();
            for b in 0..batch {
                let xb: Vec<Complex<f64>> = x[b * n..(b + 1) * n].iter().map(|&v| Complex::new(v as f64, 0.0)).collect();
                let want = dft(&xb, -1.0);
                let got_b: Vec<Complex<f64>> = got[b * half..(b + 1) * half].iter().map(|c| Complex::new(c.re as f64, c.im as f64)).collect();
                let e = rel_err(&got_b, &want[..half]);
                assert!(e < 1e-6, "{d}: R2C n={n}: error {e:e}");
            }
            // C2R of the half spectrum gives n * x back.
            let c2r = CufftPlan::new(&d, CufftKind::C2R, &[n], batch).unwrap();
            let mut back = d.alloc::<f32>(n * batch).unwrap();
            c2r.execute_destroying_input(&mut spectrum, &mut back).unwrap();
            for (g, w) in back.to_vec().unwrap().iter().zip(&x) {
                assert!((g / n as f32 - w).abs() < 1e-5, "{d}: C2R n={n}: {g} vs {}", w * n as f32);
            }
        }
    }
}

#[test]
fn cufft_misuse_is_an_error() {
    for d in common::devices() {
        if d.backend() != Backend::Cuda {
            let e = CufftPlan::new(&d, CufftKind::C2C, &[8], 1).err().expect("cuFFT on a non-CUDA device");
            assert!(e.to_string().contains("CUDA device"), "{e}");
            continue;
        }
        assert!(CufftPlan::new(&d, CufftKind::C2C, &[0], 1).is_err());
        assert!(CufftPlan::new(&d, CufftKind::C2C, &[8], 0).is_err());
        let huge = CufftPlan::new(&d, CufftKind::C2C, &[1 << 30, 1 << 30, 1 << 30], 1 << 30).err().expect("2^120 elements");
        assert!(huge.to_string().contains("exceed"), "{huge}");
        let plan = CufftPlan::new(&d, CufftKind::C2C, &[8], 2).unwrap();
        let input = d.alloc::<Complex<f32>>(16).unwrap();
        let mut short = d.alloc::<Complex<f32>>(15).unwrap();
        assert!(plan.execute(&input, &mut short, false).is_err());
        let mut wrong = d.alloc::<Complex<f64>>(16).unwrap();
        assert!(plan.execute(&input, &mut wrong, false).is_err());
        let c2r = CufftPlan::new(&d, CufftKind::C2R, &[8], 1).unwrap();
        let half = d.alloc::<Complex<f32>>(5).unwrap();
        let mut out = d.alloc::<f32>(8).unwrap();
        assert!(c2r.execute(&half, &mut out, false).is_err(), "C2R must not take a shared input");
    }
}
