//! Rearrangements against exact CPU references. Inputs hold each element's own index (hashed
//! for elements too narrow to hold it), outputs are poisoned first, and every byte of the
//! output is compared.

mod common;

use coalesce::bench::random::splitmix64;
use coalesce::rearrange::{
    self, InterlaceMethod, InterlacePlan, InterlaceProblem, PermuteMethod, PermutePlan, PermuteProblem, PermuteRecipe, ShiftPlan, ShiftProblem,
    INTERLACE_TILE_BYTES,
};
use coalesce::{Complex, Device, Error, ScalarKind};

const POISON: u8 = 0xFF;

/// The element kind of each size the rearrangements move.
fn kind_of_size(e: usize) -> ScalarKind {
    match e {
        1 => ScalarKind::U8,
        2 => ScalarKind::U16,
        4 => ScalarKind::U32,
        8 => ScalarKind::U64,
        _ => ScalarKind::C64,
    }
}

/// `count` elements of `e` bytes: element i holds i (hashed when e < 4, so that equal bytes
/// are rare), little-endian.
fn indexed(count: usize, e: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(count * e);
    for i in 0..count as u64 {
        let v = if e < 4 { splitmix64(i) } else { i } as u128 | ((i as u128) << 64);
        out.extend_from_slice(&v.to_le_bytes()[..e]);
    }
    out
}

/// Gathers elements of `e` bytes: `out[k] = src[index[k]]`.
fn gather(src: &[u8], index: &[usize], e: usize) -> Vec<u8> {
    index.iter().flat_map(|&i| src[i * e..(i + 1) * e].iter().copied()).collect()
}

/// numpy's transpose-with-window, on indices: the input element behind each output element.
fn permute_reference(shape: &[usize], axes: &[usize], window: Option<(&[usize], &[usize])>) -> Vec<usize> {
    let rank = shape.len();
    let mut strides = vec![1usize; rank];
    for k in (0..rank.saturating_sub(1)).rev() {
        strides[k] = strides[k + 1] * shape[k + 1];
    }
    let (offsets, extents) = match window {
        Some((o, e)) => (o.to_vec(), e.to_vec()),
        None => (vec![0; rank], shape.to_vec()),
    };
    let out_ext: Vec<usize> = axes.iter().map(|&a| extents[a]).collect();
    let count: usize = out_ext.iter().product();
    (0..count)
        .map(|mut i| {
            let mut at = offsets.iter().zip(&strides).map(|(o, s)| o * s).sum::<usize>();
            for k in (0..rank).rev() {
                at += (i % out_ext[k]) * strides[axes[k]];
                i /= out_ext[k];
            }
            at
        })
        .collect()
}

/// Runs one permute recipe on `d` and compares every byte with the reference.
fn check_recipe(d: &Device, recipe: PermuteRecipe, window: Option<(&[usize], &[usize])>) {
    let p = recipe.problem.clone();
    let e = p.kind.size();
    let host = indexed(p.input_len().unwrap(), e);
    let want = gather(&host, &permute_reference(&p.shape, &p.axes, window), e);
    let src = d.upload(&host).unwrap();
    let mut dst = d.alloc::<u8>(want.len()).unwrap();
    d.fill_bytes(&mut dst, POISON).unwrap();
    let method = format!("{:?}", recipe.method);
    let plan = PermutePlan::from_recipe(d, recipe).unwrap();
    plan.execute(&src, &mut dst).unwrap();
    let got = dst.to_vec().unwrap();
    if let Some(k) = (0..want.len() / e.max(1)).find(|&k| got[k * e..(k + 1) * e] != want[k * e..(k + 1) * e]) {
        panic!("{d}: shape {:?} axes {:?} window {window:?}, {e}-byte elements, {method}: output element {k} differs", p.shape, p.axes);
    }
}

fn check(d: &Device, problem: PermuteProblem) {
    check_recipe(d, PermuteRecipe::design(problem).unwrap(), None);
}

/// Every permutation of 0..n, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out.sort();
    out
}

#[test]
fn every_permutation_of_rank_1_to_4_on_awkward_shapes() {
    // Primes, ones, and sizes below, at and above the 32-element tile run.
    let shapes: Vec<Vec<usize>> = vec![
        vec![1],
        vec![1000],
        vec![1, 1],
        vec![3, 37],
        vec![33, 65],
        vec![100, 7],
        vec![5, 1, 37],
        vec![33, 2, 65],
        vec![17, 40, 3],
        vec![3, 5, 7, 11],
        vec![2, 33, 1, 40],
    ];
    for d in common::devices() {
        for shape in &shapes {
            for axes in permutations(shape.len()) {
                check(&d, PermuteProblem::of::<u32>(shape, &axes));
            }
        }
    }
}

#[test]
fn random_permutations_of_rank_5_to_8() {
    for d in common::devices() {
        for case in 0..if common::full() { 40 } else { 8 } {
            let mut r = splitmix64(1234 + case);
            let mut next = |m: u64| {
                r = splitmix64(r);
                r % m
            };
            let rank = 5 + next(4) as usize;
            let shape: Vec<usize> = (0..rank).map(|_| 1 + next(if rank > 6 { 5 } else { 9 }) as usize).collect();
            let mut axes: Vec<usize> = (0..rank).collect();
            for k in (1..rank).rev() {
                axes.swap(k, next(k as u64 + 1) as usize);
            }
            check(&d, PermuteProblem::of::<u32>(&shape, &axes));
        }
    }
}

#[test]
fn every_element_size() {
    for d in common::devices() {
        for e in [1, 2, 4, 8, 16] {
            let kind = kind_of_size(e);
            for (shape, axes) in [(vec![65, 129], vec![1, 0]), (vec![7, 33, 40], vec![2, 0, 1]), (vec![7, 33, 40], vec![1, 0, 2]), (vec![9, 4, 3], vec![0, 2, 1])] {
                check(&d, PermuteProblem::new(kind, &shape, &axes));
            }
        }
    }
}

#[test]
fn large_3d_permutations() {
    let n = if common::under_sanitizer() { 64 } else { 256 };
    for d in common::devices() {
        for axes in [[2, 1, 0], [1, 2, 0], [0, 2, 1]] {
            check(&d, PermuteProblem::of::<f32>(&[n, n, n], &axes));
        }
    }
}

#[test]
fn sub_boxes_drop_axes_of_extent_one() {
    for d in common::devices() {
        let shape = [5, 6, 7, 8];
        for (offsets, extents, axes) in [
            ([1, 0, 2, 3], [3, 1, 4, 5], [3, 1, 0, 2]),
            ([0, 0, 0, 0], [5, 6, 7, 8], [0, 1, 2, 3]),
            ([4, 5, 6, 7], [1, 1, 1, 1], [2, 3, 0, 1]),
            ([0, 2, 1, 0], [5, 3, 6, 1], [3, 2, 1, 0]),
        ] {
            let problem = PermuteProblem::of::<u64>(&shape, &axes).window(&offsets, &extents);
            let kept = extents.iter().filter(|&&x| x != 1).count();
            assert_eq!(problem.output_shape().unwrap().len(), kept);
            check_recipe(&d, PermuteRecipe::design(problem).unwrap(), Some((&offsets, &extents)));
        }
    }
}

#[test]
fn the_naive_kernel_agrees() {
    for d in common::devices() {
        for (shape, axes) in [(vec![33, 65], vec![1, 0]), (vec![5, 6, 7, 8], vec![3, 1, 0, 2])] {
            check_recipe(&d, PermuteRecipe::naive(PermuteProblem::of::<u32>(&shape, &axes)).unwrap(), None);
        }
    }
}

#[test]
fn methods_follow_the_layout() {
    let copy = PermuteRecipe::design(PermuteProblem::of::<f32>(&[4, 1, 5], &[1, 0, 2])).unwrap();
    assert_eq!(copy.method, PermuteMethod::Copy);
    let tiled = PermuteRecipe::design(PermuteProblem::of::<f32>(&[128, 256, 512], &[2, 1, 0])).unwrap();
    assert!(matches!(tiled.method, PermuteMethod::Tiled(_)), "{tiled:?}");
}

#[test]
fn transpose_and_conjugate_transpose_of_complex_matrices() {
    for d in common::devices() {
        let (b, r, c) = (3, 33, 65);
        let x: Vec<Complex<f32>> = (0..b * r * c).map(|i| Complex::new(i as f32, -(i as f32) - 0.5)).collect();
        let src = d.upload(&x).unwrap();
        let mut dst = d.alloc::<Complex<f32>>(x.len()).unwrap();
        for conj in [false, true] {
            d.fill_bytes(&mut dst, POISON).unwrap();
            if conj {
                rearrange::conj_transpose(&src, b, r, c, &mut dst).unwrap();
            } else {
                rearrange::transpose(&src, b, r, c, &mut dst).unwrap();
            }
            let got = dst.to_vec().unwrap();
            for (k, g) in got.iter().enumerate() {
                let (m, j, i) = (k / (r * c), (k / r) % c, k % r);
                let v = x[m * r * c + i * c + j];
                let want = if conj { v.conj() } else { v };
                assert!(g.re.to_bits() == want.re.to_bits() && g.im.to_bits() == want.im.to_bits(), "{d}: conj {conj}, element {k}");
            }
        }
        // complex128 too, through the 16-byte path.
        let z: Vec<Complex<f64>> = (0..2 * 5 * 3).map(|i| Complex::new(i as f64, 1.0 + i as f64)).collect();
        let src = d.upload(&z).unwrap();
        let mut dst = d.alloc::<Complex<f64>>(z.len()).unwrap();
        rearrange::conj_transpose(&src, 2, 5, 3, &mut dst).unwrap();
        let got = dst.to_vec().unwrap();
        assert_eq!(got[1], z[3].conj(), "{d}");
        assert_eq!(got[15 + 5], z[15 + 1].conj(), "{d}");
    }
}

#[test]
fn interlace_and_deinterlace_k_arrays() {
    let ks: Vec<usize> = if common::full() { (2..=16).collect() } else { vec![2, 3, 4, 7, 9, 16] };
    for d in common::devices() {
        for &k in &ks {
            for (e, n) in [(4, 1), (4, 1000), (4, 4097), (1, 999), (2, 333), (8, 1025), (16, 129)] {
                if e != 4 && ![2, 3, 4, 16].contains(&k) {
                    continue;
                }
                let parts_host: Vec<Vec<u8>> = (0..k).map(|j| indexed(n, e).iter().map(|b| b.wrapping_add(j as u8 * 37)).collect()).collect();
                let mut want = vec![0u8; n * k * e];
                for (j, p) in parts_host.iter().enumerate() {
                    for i in 0..n {
                        want[(i * k + j) * e..(i * k + j + 1) * e].copy_from_slice(&p[i * e..(i + 1) * e]);
                    }
                }
                // The default method (vector where k x e is a power of two of 4 bytes or more), and tiled.
                let default = InterlaceProblem::new(kind_of_size(e), k, n);
                let vector = e >= 4 && (k * e).is_power_of_two();
                assert_eq!(default.method == InterlaceMethod::Vector, vector, "k={k} e={e}");
                let tiled = InterlaceMethod::Tiled { tile_bytes: INTERLACE_TILE_BYTES };
                for method in if vector { vec![default.method, tiled] } else { vec![tiled] } {
                    let plan = InterlacePlan::new(&d, default.with_method(method)).unwrap();
                    // The plan moves e-byte elements: run it on buffers of an e-byte type.
                    macro_rules! run {
                        ($t:ty) => {{
                            let to_t = |b: &[u8]| -> Vec<$t> { b.chunks(e).map(<$t as FromBytes>::from_bytes).collect() };
                            let parts: Vec<_> = parts_host.iter().map(|p| d.upload(&to_t(p)).unwrap()).collect();
                            let refs: Vec<&_> = parts.iter().collect();
                            let mut whole = d.alloc::<$t>(n * k).unwrap();
                            d.fill_bytes(&mut whole, POISON).unwrap();
                            plan.interlace(&refs, &mut whole).unwrap();
                            assert!(whole.to_vec().unwrap() == to_t(&want), "{d}: interlace k={k} e={e} n={n} {method:?}");
                            let mut back: Vec<_> = (0..k).map(|_| d.alloc::<$t>(n).unwrap()).collect();
                            for b in &mut back {
                                d.fill_bytes(b, POISON).unwrap();
                            }
                            let mut outs: Vec<&mut _> = back.iter_mut().collect();
                            plan.deinterlace(&whole, &mut outs).unwrap();
                            for (j, b) in back.iter().enumerate() {
                                assert!(b.to_vec().unwrap() == to_t(&parts_host[j]), "{d}: deinterlace k={k} e={e} n={n} {method:?}, array {j}");
                            }
                        }};
                    }
                    match e {
                        1 => run!(u8),
                        2 => run!(u16),
                        4 => run!(u32),
                        8 => run!(u64),
                        _ => run!(Complex<f64>),
                    }
                }
            }
        }
    }
}

/// Elements from their little-endian bytes.
trait FromBytes {
    fn from_bytes(b: &[u8]) -> Self;
}

macro_rules! from_bytes {
    ($($t:ty),*) => {
        $(impl FromBytes for $t {
            fn from_bytes(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().unwrap())
            }
        })*
    };
}
from_bytes!(u8, u16, u32, u64);

impl FromBytes for Complex<f64> {
    fn from_bytes(b: &[u8]) -> Self {
        Complex::new(f64::from_bits(u64::from_bytes(&b[..8])), f64::from_bits(u64::from_bytes(&b[8..])))
    }
}

/// numpy.roll over every axis, on indices: the input element behind each output element.
fn roll_reference(shape: &[usize], shifts: &[i64]) -> Vec<usize> {
    let count: usize = shape.iter().product();
    (0..count)
        .map(|mut i| {
            let (mut at, mut step) = (0usize, 1usize);
            for k in (0..shape.len()).rev() {
                let n = shape[k];
                let c = i % n;
                i /= n;
                at += (c as i64 - shifts[k]).rem_euclid(n as i64) as usize * step;
                step *= n;
            }
            at
        })
        .collect()
}

fn check_shift(d: &Device, problem: ShiftProblem) {
    let e = problem.kind.size();
    let host = indexed(problem.len().unwrap(), e);
    let want = gather(&host, &roll_reference(&problem.shape, &problem.shifts), e);
    let src = d.upload(&host).unwrap();
    let mut dst = d.alloc::<u8>(want.len()).unwrap();
    d.fill_bytes(&mut dst, POISON).unwrap();
    ShiftPlan::new(d, problem.clone()).unwrap().execute(&src, &mut dst).unwrap();
    assert!(dst.to_vec().unwrap() == want, "{d}: {problem:?}");
}

#[test]
fn roll_by_negative_zero_and_oversized_amounts() {
    for d in common::devices() {
        for (shape, shifts) in [
            (vec![7], vec![3]),
            (vec![7], vec![-10]),
            (vec![1000], vec![0]),
            (vec![4, 5, 6], vec![1, -1, 13]),
            (vec![4, 5, 6], vec![-9, 0, 0]),
            (vec![1, 9, 2], vec![5, 4, 1]),
            (vec![3, 4, 5, 6], vec![0, 7, 0, -2]),
            (vec![64, 64, 64], vec![32, -5, 1000]),
        ] {
            check_shift(&d, ShiftProblem::new(ScalarKind::U32, &shape, &shifts));
        }
        for e in [1, 2, 8, 16] {
            check_shift(&d, ShiftProblem::new(kind_of_size(e), &[5, 33], &[2, -7]));
        }
    }
}

#[test]
fn fftshift_and_ifftshift_over_all_and_chosen_axes() {
    for d in common::devices() {
        for shape in [vec![8], vec![9], vec![4, 7], vec![5, 6, 3], vec![33, 1, 16]] {
            let axes_choices: Vec<Option<Vec<usize>>> = vec![None, Some(vec![0]), Some((1..shape.len()).collect())];
            for axes in &axes_choices {
                let f = ShiftProblem::fftshift(ScalarKind::F32, &shape, axes.as_deref()).unwrap();
                let chosen = |k: usize| axes.as_ref().is_none_or(|a| a.contains(&k));
                let expect: Vec<i64> = shape.iter().enumerate().map(|(k, &n)| if chosen(k) { (n / 2) as i64 } else { 0 }).collect();
                assert_eq!(f.shifts, expect, "fftshift of {shape:?} over {axes:?}");
                check_shift(&d, f);
                let i = ShiftProblem::ifftshift(ScalarKind::F32, &shape, axes.as_deref()).unwrap();
                check_shift(&d, i);
            }
            // ifftshift undoes fftshift, odd lengths included.
            let n: usize = shape.iter().product();
            let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let src = d.upload(&x).unwrap();
            let mut mid = d.alloc::<f32>(n).unwrap();
            let mut back = d.alloc::<f32>(n).unwrap();
            rearrange::fftshift(&src, &shape, None, &mut mid).unwrap();
            rearrange::ifftshift(&mid, &shape, None, &mut back).unwrap();
            assert_eq!(back.to_vec().unwrap(), x, "{d}: {shape:?}");
        }
    }
}

#[test]
fn complex_split_and_join() {
    for d in common::devices() {
        let z: Vec<Complex<f32>> = (0..1001).map(|i| Complex::new(i as f32 + 0.25, -(i as f32))).collect();
        let src = d.upload(&z).unwrap();
        let (mut re, mut im) = (d.alloc::<f32>(z.len()).unwrap(), d.alloc::<f32>(z.len()).unwrap());
        rearrange::split_complex(&src, &mut re, &mut im).unwrap();
        assert_eq!(re.to_vec().unwrap(), z.iter().map(|c| c.re).collect::<Vec<_>>(), "{d}");
        assert_eq!(im.to_vec().unwrap(), z.iter().map(|c| c.im).collect::<Vec<_>>(), "{d}");
        let mut back = d.alloc::<Complex<f32>>(z.len()).unwrap();
        d.fill_bytes(&mut back, POISON).unwrap();
        rearrange::join_complex(&re, &im, &mut back).unwrap();
        assert_eq!(back.to_vec().unwrap(), z, "{d}");
    }
}

#[test]
fn bad_input_is_an_error_that_names_the_fix() {
    let Some(d) = common::devices().into_iter().next() else { return };
    let msg = |e: Error| e.to_string();
    let plan = |p: PermuteProblem| PermutePlan::new(&d, p).map(|_| ()).unwrap_err();
    assert!(msg(plan(PermuteProblem::of::<f32>(&[2, 3], &[0, 0]))).contains("not a permutation"));
    assert!(msg(plan(PermuteProblem::of::<f32>(&[2, 3], &[0, 2]))).contains("not a permutation"));
    assert!(msg(plan(PermuteProblem::of::<f32>(&[2, 3], &[0]))).contains("rank 2"));
    assert!(msg(plan(PermuteProblem::of::<f32>(&[1 << 40, 1 << 40], &[1, 0]))).contains("64-bit"));
    assert!(msg(plan(PermuteProblem::of::<f32>(&[4, 4], &[1, 0]).window(&[2, 0], &[3, 4]))).contains("past the axis"));
    assert!(msg(plan(PermuteProblem::of::<f32>(&[4, 4], &[1, 0]).window(&[0], &[4]))).contains("one offset and one extent"));
    assert!(msg(plan(PermuteProblem::of::<f32>(&[4, 4], &[1, 0]).conjugate())).contains("complex"));

    let p = PermutePlan::new(&d, PermuteProblem::of::<f32>(&[4, 5], &[1, 0])).unwrap();
    let x = d.upload(&[0f32; 20]).unwrap();
    let mut short = d.alloc::<f32>(19).unwrap();
    assert!(matches!(p.execute(&x, &mut short), Err(Error::LengthMismatch { expected: 20, got: 19, .. })));
    let bytes = d.upload(&[0u8; 80]).unwrap();
    let mut out = d.alloc::<u8>(80).unwrap();
    p.execute(&bytes, &mut out).unwrap();
    let wide = d.upload(&[0f64; 10]).unwrap();
    let mut wide_out = d.alloc::<f64>(10).unwrap();
    assert!(msg(p.execute(&wide, &mut wide_out).unwrap_err()).contains("cannot hold whole"));

    let shift = |p: ShiftProblem| ShiftPlan::new(&d, p).map(|_| ()).unwrap_err();
    assert!(msg(shift(ShiftProblem::new(ScalarKind::F32, &[4, 5], &[1]))).contains("one per axis"));
    assert!(msg(ShiftProblem::fftshift(ScalarKind::F32, &[4, 5], Some(&[2])).unwrap_err()).contains("out of range"));

    let il = |k, n| InterlacePlan::new(&d, InterlaceProblem::new(ScalarKind::F32, k, n)).map(|_| ()).unwrap_err();
    assert!(msg(il(1, 10)).contains("2 to 16"));
    assert!(msg(il(17, 10)).contains("2 to 16"));
    let vector3 = InterlaceProblem::new(ScalarKind::F32, 3, 10).with_method(InterlaceMethod::Vector);
    assert!(msg(InterlacePlan::new(&d, vector3).map(|_| ()).unwrap_err()).contains("use the tiled method"));
    let plan = InterlacePlan::new(&d, InterlaceProblem::new(ScalarKind::F32, 2, 10)).unwrap();
    let (a, b) = (d.upload(&[0f32; 10]).unwrap(), d.upload(&[0f32; 9]).unwrap());
    let mut whole = d.alloc::<f32>(20).unwrap();
    assert!(matches!(plan.interlace(&[&a, &b], &mut whole), Err(Error::LengthMismatch { .. })));
    assert!(msg(plan.interlace(&[&a], &mut whole).unwrap_err()).contains("2 arrays"));
}
