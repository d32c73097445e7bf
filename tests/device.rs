//! The device layer: selection, buffers, transfers, compile errors, timing, and the errors
//! that bad input must give instead of panics.

mod common;

use coalesce::bench::random::random_vec;
use coalesce::device::{Arg, Grid};
use coalesce::kernel::KernelSource;
use coalesce::{Device, Error};

#[test]
fn upload_download_round_trip_every_type() {
    fn round_trip<T: coalesce::bench::random::Random>(d: &Device) {
        for n in [0usize, 1, 3, 1000, 65_537] {
            let host = random_vec::<T>(n, n as u64);
            let buf = d.upload(&host).unwrap();
            assert_eq!(buf.len(), n);
            assert!(buf.to_vec().unwrap() == host, "{d}: {n} x {}", std::any::type_name::<T>());
        }
    }
    for d in common::devices() {
        round_trip::<u8>(&d);
        round_trip::<i16>(&d);
        round_trip::<f32>(&d);
        round_trip::<i64>(&d);
        round_trip::<f64>(&d);
        round_trip::<coalesce::Complex<f32>>(&d);
        round_trip::<coalesce::Complex<f64>>(&d);
    }
}

/// The dialect's complex types: (re, im) in .x and .y, laid out as num_complex / numpy.
#[test]
fn complex_types_in_the_dialect() {
    use coalesce::Complex;
    let src = KernelSource {
        name: "complex_multiply_test".into(),
        entry_points: vec!["cmul_c32".into(), "cmul_c64".into()],
        body: r#"
KERNEL void cmul_c32(GLOBAL c32* RESTRICT z, const GLOBAL c32* RESTRICT a, const GLOBAL c32* RESTRICT b, const u32 n)
{
    const u32 i = GROUP_ID() * LOCAL_SIZE() + LOCAL_ID();
    if (i < n) { c32 r; r.x = a[i].x * b[i].x - a[i].y * b[i].y; r.y = a[i].x * b[i].y + a[i].y * b[i].x; z[i] = r; }
}
KERNEL void cmul_c64(GLOBAL c64* RESTRICT z, const GLOBAL c64* RESTRICT a, const GLOBAL c64* RESTRICT b, const u32 n)
{
    const u32 i = GROUP_ID() * LOCAL_SIZE() + LOCAL_ID();
    if (i < n) { c64 r; r.x = a[i].x * b[i].x - a[i].y * b[i].y; r.y = a[i].x * b[i].y + a[i].y * b[i].x; z[i] = r; }
}
"#
        .into(),
    };
    for d in common::devices() {
        let program = d.build(&src).unwrap();
        let n = 777u32;
        let grid = Grid::linear(n.div_ceil(128), 128);
        let (a, b) = (random_vec::<Complex<f32>>(n as usize, 1), random_vec::<Complex<f32>>(n as usize, 2));
        let mut z = d.alloc::<Complex<f32>>(n as usize).unwrap();
        let (da, db) = (d.upload(&a).unwrap(), d.upload(&b).unwrap());
        d.launch(program.kernel("cmul_c32").unwrap(), grid, &[(&mut z).into(), (&da).into(), (&db).into(), n.into()]).unwrap();
        for ((z, a), b) in z.to_vec().unwrap().iter().zip(&a).zip(&b) {
            assert!((z - a * b).norm() <= 4.0 * f32::EPSILON, "{d}: {z} vs {}", a * b);
        }
        let (a, b) = (random_vec::<Complex<f64>>(n as usize, 3), random_vec::<Complex<f64>>(n as usize, 4));
        let mut z = d.alloc::<Complex<f64>>(n as usize).unwrap();
        let (da, db) = (d.upload(&a).unwrap(), d.upload(&b).unwrap());
        d.launch(program.kernel("cmul_c64").unwrap(), grid, &[(&mut z).into(), (&da).into(), (&db).into(), n.into()]).unwrap();
        for ((z, a), b) in z.to_vec().unwrap().iter().zip(&a).zip(&b) {
            assert!((z - a * b).norm() <= 4.0 * f64::EPSILON, "{d}: {z} vs {}", a * b);
        }
    }
}

#[test]
fn fill_bytes_and_driver_copy() {
    for d in common::devices() {
        let mut buf = d.alloc::<u32>(1001).unwrap();
        d.fill_bytes(&mut buf, 0xAB).unwrap();
        assert!(buf.to_vec().unwrap().iter().all(|&v| v == 0xABAB_ABAB), "{d}");
        let src = d.upload(&random_vec::<u32>(1001, 3)).unwrap();
        d.driver_copy(&src, &mut buf).unwrap();
        assert_eq!(buf.to_vec().unwrap(), src.to_vec().unwrap(), "{d}");
        let mut short = d.alloc::<u32>(1000).unwrap();
        assert!(matches!(d.driver_copy(&src, &mut short), Err(Error::LengthMismatch { .. })));
    }
}

#[test]
fn mismatched_transfers_are_errors() {
    for d in common::devices() {
        let mut buf = d.alloc::<f32>(10).unwrap();
        let e = d.write(&mut buf, &[1.0; 11]).unwrap_err();
        assert!(matches!(e, Error::LengthMismatch { expected: 10, got: 11, .. }), "{e}");
        let mut out = vec![0f32; 9];
        assert!(matches!(d.read_into(&buf, &mut out), Err(Error::LengthMismatch { .. })));
    }
}

#[test]
fn unknown_device_names_are_errors_that_list_the_devices() {
    for spec in ["bogus", "cuda:99", "opencl:99", "opencl:x"] {
        match Device::select(Some(spec)) {
            Err(e @ Error::UnknownDevice { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains(spec) && msg.contains("Devices present"), "{msg}");
            }
            Err(Error::NoDevice { .. }) => {}
            other => panic!("{spec}: expected an unknown-device error, got {other:?}"),
        }
    }
}

#[test]
fn every_listed_device_can_be_selected_by_its_id() {
    for d in common::devices() {
        let again = Device::select(Some(&d.id())).unwrap();
        assert_eq!(again.info().name, d.info().name);
        assert!(d.info().total_memory > 0 && d.info().multiprocessors > 0 && d.info().max_threads_per_block > 0);
    }
}

#[test]
fn out_of_memory_and_overflow_are_errors() {
    for d in common::devices() {
        let too_much = (d.info().total_memory as usize).saturating_mul(4);
        let e = d.alloc::<u8>(too_much).unwrap_err();
        assert!(matches!(e, Error::OutOfDeviceMemory { .. }), "{d}: {e}");
        assert!(e.to_string().contains("smaller"), "{e}");
        let e = d.alloc::<u64>(usize::MAX / 4).unwrap_err();
        assert!(matches!(e, Error::SizeOverflow { .. }), "{d}: {e}");
    }
}

#[test]
fn compile_failure_names_the_kernel_and_carries_the_log() {
    for d in common::devices() {
        let bad = KernelSource {
            name: "deliberately_broken".into(),
            entry_points: vec!["deliberately_broken".into()],
            body: "KERNEL void deliberately_broken(GLOBAL u32* x) { x[0] = undeclared_name; }\n".into(),
        };
        match d.build(&bad) {
            Err(Error::Compile { kernel, log, .. }) => {
                assert_eq!(kernel, "deliberately_broken");
                assert!(log.contains("undeclared_name"), "{d}: the log should point at the error: {log}");
            }
            Err(other) => panic!("{d}: expected a compile error, got {other}"),
            Ok(_) => panic!("{d}: a broken kernel compiled"),
        }
    }
}

#[test]
fn a_hand_written_dialect_kernel_runs_and_marks_time_it() {
    let src = KernelSource {
        name: "axpb_test".into(),
        entry_points: vec!["axpb_test".into()],
        body: r#"
KERNEL void axpb_test(GLOBAL f32* RESTRICT y, const GLOBAL f32* RESTRICT x, const f32 a, const u32 n)
{
    const u32 i = GROUP_ID() * LOCAL_SIZE() + LOCAL_ID();
    if (i < n) y[i] = a * x[i] + 1.0f;
}
"#
        .into(),
    };
    for d in common::devices() {
        let program = d.build(&src).unwrap();
        let kernel = program.kernel("axpb_test").unwrap();
        assert!(program.kernel("missing").is_err());
        let n = 1000u32;
        let host = random_vec::<f32>(n as usize, 1);
        let x = d.upload(&host).unwrap();
        let mut y = d.alloc::<f32>(n as usize).unwrap();
        let start = d.mark().unwrap();
        d.launch(kernel, Grid::linear(n.div_ceil(64), 64), &[Arg::from(&mut y), Arg::from(&x), 3.0f32.into(), n.into()]).unwrap();
        let end = d.mark().unwrap();
        let ms = end.elapsed_ms_since(&start).unwrap();
        assert!((0.0..10_000.0).contains(&ms), "{d}: {ms} ms");
        let got = y.to_vec().unwrap();
        for (g, h) in got.iter().zip(&host) {
            // The compiler may fuse the multiply-add (one rounding instead of two).
            let want = 3.0 * *h as f64 + 1.0;
            assert!((*g as f64 - want).abs() <= 4.0 * f32::EPSILON as f64 * want.abs().max(1.0), "{d}: {g} vs {want}");
        }
    }
}

#[test]
fn buffers_of_another_device_are_refused() {
    let devices = common::devices();
    if devices.len() < 2 {
        return; // needs two devices (the GPU machine has CUDA and possibly OpenCL)
    }
    let (a, b) = (&devices[0], &devices[1]);
    let x = a.upload(&[1u32, 2, 3]).unwrap();
    let mut y = b.alloc::<u32>(3).unwrap();
    let e = coalesce::copy::copy(&x, &mut y).unwrap_err();
    assert!(matches!(e, Error::WrongDevice { .. }), "{e}");
}

#[test]
fn many_programs_build_in_parallel() {
    let sources: Vec<KernelSource> = (0..12u32)
        .map(|k| KernelSource {
            name: format!("parallel_build_{k}"),
            entry_points: vec![format!("parallel_build_{k}")],
            body: format!("KERNEL void parallel_build_{k}(GLOBAL u32* x) {{ x[LOCAL_ID()] = {k}u * 1000u + LOCAL_ID(); }}\n"),
        })
        .collect();
    for d in common::devices() {
        let programs = d.build_all(&sources).unwrap();
        for (k, p) in programs.iter().enumerate() {
            let mut buf = d.alloc::<u32>(32).unwrap();
            d.launch(p.kernel(&format!("parallel_build_{k}")).unwrap(), Grid::linear(1, 32), &[(&mut buf).into()]).unwrap();
            let want: Vec<u32> = (0..32).map(|i| k as u32 * 1000 + i).collect();
            assert_eq!(buf.to_vec().unwrap(), want, "{d}: program {k}");
        }
        let mut with_broken = sources.clone();
        with_broken[5].body = "KERNEL void parallel_build_5(GLOBAL u32* x) { oops; }\n".into();
        with_broken[5].name = "parallel_build_broken".into();
        assert!(matches!(d.build_all(&with_broken), Err(Error::Compile { kernel, .. }) if kernel == "parallel_build_broken"));
    }
}
