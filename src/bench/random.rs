//! Seeded random data for tests and benchmarks: counter-based (SplitMix64 of seed + index), so
//! any slice can be generated in parallel and reproduced from its seed alone.

use crate::element::Element;

/// SplitMix64: a full-period 64-bit mix; good enough for test data, and trivially seekable.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Element types that can be drawn at random: floats uniform in [-1, 1), integers over their
/// whole range (never all zeros).
pub trait Random: Element {
    fn from_bits(bits: u64) -> Self;
}

impl Random for f32 {
    fn from_bits(bits: u64) -> Self {
        ((bits >> 40) as f32) * (2.0 / (1u64 << 24) as f32) - 1.0
    }
}
impl Random for f64 {
    fn from_bits(bits: u64) -> Self {
        ((bits >> 11) as f64) * (2.0 / (1u64 << 53) as f64) - 1.0
    }
}
macro_rules! random_int {
    ($($t:ty),*) => { $(impl Random for $t { fn from_bits(bits: u64) -> Self { bits as $t } })* };
}
random_int!(i8, u8, i16, u16, i32, u32, i64, u64);

/// Complex: real and imaginary parts uniform in [-1, 1), from the two halves of one draw
/// (f32) or from two draws (f64).
impl Random for num_complex::Complex<f32> {
    fn from_bits(bits: u64) -> Self {
        num_complex::Complex::new(<f32 as Random>::from_bits(bits), <f32 as Random>::from_bits(bits << 32))
    }
}
impl Random for num_complex::Complex<f64> {
    fn from_bits(bits: u64) -> Self {
        num_complex::Complex::new(<f64 as Random>::from_bits(bits), <f64 as Random>::from_bits(splitmix64(bits)))
    }
}

/// `len` random values from `seed`, generated on all cores.
pub fn random_vec<T: Random>(len: usize, seed: u64) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(len);
    let spare = &mut out.spare_capacity_mut()[..len];
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(32);
    let per = len.div_ceil(threads).max(1 << 16);
    let base = splitmix64(seed);
    std::thread::scope(|s| {
        for (c, chunk) in spare.chunks_mut(per).enumerate() {
            s.spawn(move || {
                let start = (c * per) as u64;
                for (i, slot) in chunk.iter_mut().enumerate() {
                    slot.write(T::from_bits(splitmix64(base ^ (start + i as u64))));
                }
            });
        }
    });
    // SAFETY: every element of the first `len` was written above.
    unsafe { out.set_len(len) };
    out
}
