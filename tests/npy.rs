//! `.npy` files: fixtures written by numpy 2.4 (tests/data), and round trips through our writer.

use coalesce::npy::NpyArray;
use coalesce::{Complex, Error, ScalarKind};

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

#[test]
fn reads_what_numpy_wrote() {
    let a = NpyArray::read(data("f32_3x4.npy")).unwrap();
    assert_eq!((a.dtype, a.shape.clone()), (ScalarKind::F32, vec![3, 4]));
    assert_eq!(a.to_vec::<f32>().unwrap(), (0..12).map(|i| i as f32 * 0.5 - 2.0).collect::<Vec<_>>());

    let c = NpyArray::read(data("c64_2x3.npy")).unwrap();
    assert_eq!((c.dtype, c.shape.clone()), (ScalarKind::C32, vec![2, 3]));
    let want: Vec<Complex<f32>> = (0..6).map(|i| Complex::new(i as f32, 10.0 + i as f32)).collect();
    assert_eq!(c.to_vec::<Complex<f32>>().unwrap(), want);

    let z = NpyArray::read(data("c128_5.npy")).unwrap();
    assert_eq!(z.to_vec::<Complex<f64>>().unwrap(), (0..5).map(|i| Complex::new(i as f64, -(i as f64))).collect::<Vec<_>>());

    let i = NpyArray::read(data("i16_7.npy")).unwrap();
    assert_eq!(i.to_vec::<i16>().unwrap(), (0..7).map(|k| k * -300).collect::<Vec<i16>>());

    let s = NpyArray::read(data("u8_scalar.npy")).unwrap();
    assert_eq!((s.shape.len(), s.to_vec::<u8>().unwrap()), (0, vec![200]));

    let e = NpyArray::read(data("i64_2x0x3.npy")).unwrap();
    assert_eq!((e.shape.clone(), e.len()), (vec![2, 0, 3], 0));

    let v2 = NpyArray::read(data("f64_v2_4.npy")).unwrap();
    assert_eq!(v2.to_vec::<f64>().unwrap(), vec![1.5, -2.25, 3.0, 1e300]);

    // np.asfortranarray(np.arange(6.0).reshape(2, 3)): stored 0 3 1 4 2 5, read in C order.
    let f = NpyArray::read(data("f64_fortran.npy")).unwrap();
    assert_eq!((f.shape.clone(), f.to_vec::<f64>().unwrap()), (vec![2, 3], vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]));
}

#[test]
fn unsupported_files_say_how_to_convert_them() {
    let msg = |f: &str| NpyArray::read(data(f)).unwrap_err().to_string();
    assert!(msg("f32_bigendian.npy").contains("big-endian"), "{}", msg("f32_bigendian.npy"));
    assert!(msg("bool_3.npy").contains("not supported"), "{}", msg("bool_3.npy"));
    let e = NpyArray::from_bytes(b"PK\x03\x04 not numpy", "x.npz").unwrap_err();
    assert!(e.to_string().contains("not a .npy file"), "{e}");
    let mut cut = std::fs::read(data("f32_3x4.npy")).unwrap();
    cut.truncate(cut.len() - 4);
    let e = NpyArray::from_bytes(&cut, "cut.npy").unwrap_err();
    assert!(e.to_string().contains("needs 48 bytes"), "{e}");
    assert!(matches!(NpyArray::read(data("missing.npy")), Err(Error::Io { .. })));
}

#[test]
fn round_trips_every_dtype_and_rank() {
    fn check<T: coalesce::bench::random::Random>(shape: Vec<usize>) {
        let n = shape.iter().product();
        let values = coalesce::bench::random::random_vec::<T>(n, n as u64);
        let a = NpyArray::new(shape.clone(), &values).unwrap();
        let bytes = a.to_bytes();
        let header = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        assert_eq!((10 + header) % 64, 0, "data starts on a 64-byte boundary");
        let b = NpyArray::from_bytes(&bytes, "round trip").unwrap();
        assert_eq!(b.shape, shape);
        assert!(b.to_vec::<T>().unwrap() == values);
    }
    check::<u8>(vec![]);
    check::<i8>(vec![5]);
    check::<i16>(vec![3, 2]);
    check::<u16>(vec![1, 1, 1]);
    check::<i32>(vec![4, 0]);
    check::<u32>(vec![2, 3, 4, 5]);
    check::<i64>(vec![17]);
    check::<u64>(vec![2, 1]);
    check::<f32>(vec![3, 5, 7]);
    check::<f64>(vec![1, 2, 3, 4, 5, 6, 7, 8]);
    check::<Complex<f32>>(vec![6]);
    check::<Complex<f64>>(vec![2, 2]);
    assert!(matches!(NpyArray::new(vec![2, 3], &[1f32; 5]), Err(Error::LengthMismatch { expected: 6, got: 5, .. })));
    let a = NpyArray::new(vec![2], &[1f32, 2.0]).unwrap();
    assert!(a.to_vec::<f64>().is_err());
}
