//! Copy kernels against exact CPU references: every element written where it belongs and
//! nothing written outside the destination range.

mod common;

use coalesce::bench::random::random_vec;
use coalesce::copy::{self, CopyPlan, CopyProblem};
use coalesce::{Device, Error};

const POISON: u8 = 0xFF;

#[test]
fn contiguous_copy_of_awkward_lengths() {
    for d in common::devices() {
        for (i, &n) in common::awkward_lengths().iter().chain(&[0]).enumerate() {
            let seed = 100 + i as u64;
            let host = random_vec::<u32>(n, seed);
            let src = d.upload(&host).unwrap();
            let mut dst = d.alloc::<u32>(n).unwrap();
            d.fill_bytes(&mut dst, POISON).unwrap();
            copy::copy(&src, &mut dst).unwrap();
            assert!(dst.to_vec().unwrap() == host, "{d}: copy of {n} u32 differs (seed {seed})");
        }
    }
}

#[test]
fn every_element_size_and_offset() {
    // Bytes viewed as elements of 1..=24 bytes, copied with offsets that break every word width.
    for d in common::devices() {
        for elem in [1usize, 2, 3, 4, 5, 8, 12, 16, 24] {
            for (so, doff, count) in [(0, 0, 1000), (1, 0, 777), (0, 3, 513), (5, 2, 64), (7, 7, 1), (2, 9, 4099)] {
                let src_len = (so + count) * elem;
                let dst_len = (doff + count + 3) * elem;
                let host = random_vec::<u8>(src_len, (elem * 1000 + so * 10 + doff) as u64);
                let src = d.upload(&host).unwrap();
                let mut dst = d.alloc::<u8>(dst_len).unwrap();
                d.fill_bytes(&mut dst, POISON).unwrap();
                let problem = CopyProblem { elem_size: elem, count, src_offset: so, src_stride: 1, dst_offset: doff };
                CopyPlan::new(&d, problem).unwrap().execute(&src, &mut dst).unwrap();
                let got = dst.to_vec().unwrap();
                let mut want = vec![POISON; dst_len];
                want[doff * elem..(doff + count) * elem].copy_from_slice(&host[so * elem..(so + count) * elem]);
                assert!(got == want, "{d}: {elem}-byte elements, offsets {so}/{doff}, count {count}");
            }
        }
    }
}

#[test]
fn typed_copy_range_leaves_the_rest_untouched() {
    for d in common::devices() {
        let host = random_vec::<f64>(10_007, 5);
        let src = d.upload(&host).unwrap();
        let mut dst = d.alloc::<f64>(10_007).unwrap();
        d.fill_bytes(&mut dst, POISON).unwrap();
        copy::copy_range(&src, 3, &mut dst, 100, 9_000).unwrap();
        let got = dst.to_vec().unwrap();
        for (i, g) in got.iter().enumerate() {
            if (100..9_100).contains(&i) {
                assert_eq!(g.to_bits(), host[i - 97].to_bits(), "{d}: element {i}");
            } else {
                assert_eq!(g.to_bits(), u64::MAX, "{d}: element {i} outside the range was written");
            }
        }
    }
}

#[test]
fn strided_gather() {
    for d in common::devices() {
        for elem in [1usize, 2, 4, 8, 12, 16] {
            for (offset, stride, count) in [(0, 2, 1001), (3, 3, 500), (1, 7, 333), (0, 16, 64), (5, 1, 99), (2, 1000, 17)] {
                let src_len = (offset + (count - 1) * stride + 1) * elem;
                let host = random_vec::<u8>(src_len, (elem * 7 + stride) as u64);
                let src = d.upload(&host).unwrap();
                let mut dst = d.alloc::<u8>(count * elem).unwrap();
                d.fill_bytes(&mut dst, POISON).unwrap();
                let problem = CopyProblem { elem_size: elem, count, src_offset: offset, src_stride: stride, dst_offset: 0 };
                CopyPlan::new(&d, problem).unwrap().execute(&src, &mut dst).unwrap();
                let got = dst.to_vec().unwrap();
                for i in 0..count {
                    let s = (offset + i * stride) * elem;
                    assert_eq!(&got[i * elem..(i + 1) * elem], &host[s..s + elem], "{d}: {elem}-byte gather, stride {stride}, element {i}");
                }
            }
        }
    }
}

#[test]
fn typed_gather_helper() {
    for d in common::devices() {
        let host: Vec<i32> = (0..1000).collect();
        let src = d.upload(&host).unwrap();
        let mut dst = d.alloc::<i32>(333).unwrap();
        copy::gather(&src, 1, 3, &mut dst).unwrap();
        let want: Vec<i32> = (0..333).map(|i| 1 + 3 * i).collect();
        assert_eq!(dst.to_vec().unwrap(), want, "{d}");
    }
}

#[test]
fn complex_elements_copy_and_gather() {
    use coalesce::Complex;
    for d in common::devices() {
        let host = random_vec::<Complex<f64>>(4099, 12);
        let src = d.upload(&host).unwrap();
        let mut every_third = d.alloc::<Complex<f64>>(1366).unwrap();
        d.fill_bytes(&mut every_third, POISON).unwrap();
        copy::gather(&src, 1, 3, &mut every_third).unwrap();
        let want: Vec<Complex<f64>> = (0..1366).map(|i| host[1 + 3 * i]).collect();
        assert!(every_third.to_vec().unwrap() == want, "{d}: complex128 gather");
        let host = random_vec::<Complex<f32>>(1001, 13);
        let src = d.upload(&host).unwrap();
        let mut dst = d.alloc::<Complex<f32>>(1001).unwrap();
        copy::copy(&src, &mut dst).unwrap();
        assert!(dst.to_vec().unwrap() == host, "{d}: complex64 copy");
    }
}

#[test]
fn bad_copies_are_errors() {
    for d in common::devices() {
        let src = d.upload(&[1u32, 2, 3, 4]).unwrap();
        let mut short = d.alloc::<u32>(3).unwrap();
        assert!(matches!(copy::copy(&src, &mut short), Err(Error::LengthMismatch { expected: 4, got: 3, .. })));
        assert!(matches!(copy::copy_range(&src, 2, &mut short, 0, 3), Err(Error::LengthMismatch { .. })));
        assert!(matches!(copy::gather(&src, 0, 2, &mut short), Err(Error::LengthMismatch { .. })));
        let zero_stride = CopyProblem::contiguous::<u32>(3).with_src_stride(0);
        let e = CopyPlan::new(&d, zero_stride).err().expect("stride 0 is an error");
        assert!(e.to_string().contains("stride"), "{e}");
        // A plan for 8-byte elements cannot run on 12-byte-unaligned views.
        let plan = CopyPlan::new(&d, CopyProblem { elem_size: 6, count: 1, src_offset: 0, src_stride: 1, dst_offset: 0 }).unwrap();
        let mut dst4 = d.alloc::<u32>(4).unwrap();
        assert!(matches!(plan.execute(&src, &mut dst4), Err(Error::InvalidArgument(_))));
    }
}

#[test]
fn plans_are_reusable_and_shareable_across_threads() {
    if common::under_sanitizer() {
        eprintln!("skipped under compute-sanitizer (see common::under_sanitizer)");
        return;
    }
    for d in common::devices() {
        let n = 100_003;
        let plan = CopyPlan::new(&d, CopyProblem::contiguous::<u32>(n)).unwrap();
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let (plan, d) = (&plan, &d);
                s.spawn(move || {
                    let host = random_vec::<u32>(n, 40 + t);
                    let src = d.upload(&host).unwrap();
                    let mut dst = d.alloc::<u32>(n).unwrap();
                    for _ in 0..3 {
                        d.fill_bytes(&mut dst, POISON).unwrap();
                        plan.execute(&src, &mut dst).unwrap();
                        assert!(dst.to_vec().unwrap() == host, "{d}: thread {t}");
                    }
                });
            }
        });
    }
}

#[allow(dead_code)]
fn _device_is_send_sync(d: Device) -> impl Send + Sync {
    d
}
