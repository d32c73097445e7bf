//! Twiddle and chirp tables, computed in f64 on the host and rounded once to the kernel's
//! precision. Angles are reduced exactly (integer arithmetic) before sin and cos.

use num_complex::Complex;

use super::prime_factor_convolution::{convolution_index, spectrum_order};
use super::problem::Precision;

type C64 = Complex<f64>;

/// e^{-2 pi i num/den}, with the fraction reduced to the first octant in integer arithmetic
/// first, so every value is within an ulp or so of the exact root of unity.
pub fn unit_root(num: u64, den: u64) -> C64 {
    // theta = 2 pi r/den lies in octant o; g is the turn fraction past o/8 and h the fraction
    // left to (o+1)/8, both exact integer ratios in [0, 1/8]. In u64 where 16 den fits (every
    // table a plan makes; u128's division and conversions took a tenth of a Bluestein plan's
    // time), else u128: the same integers either way, so the same values.
    let (o, g, h) = match den <= u64::MAX / 16 {
        true => {
            let (o, g, h) = octant_u64(num, den);
            (o, g as f64, h as f64)
        }
        false => {
            let (o, g, h) = octant_u128(num, den);
            (o, g as f64, h as f64)
        }
    };
    let (g, h) = (g / (8.0 * den as f64), h / (8.0 * den as f64));
    let cs = |f: f64| {
        let a = std::f64::consts::TAU * f;
        (a.cos(), a.sin())
    };
    let (cos, sin) = match o {
        0 => cs(g),
        1 => {
            let (c, s) = cs(h);
            (s, c)
        }
        2 => {
            let (c, s) = cs(g);
            (-s, c)
        }
        3 => {
            let (c, s) = cs(h);
            (-c, s)
        }
        4 => {
            let (c, s) = cs(g);
            (-c, -s)
        }
        5 => {
            let (c, s) = cs(h);
            (-s, -c)
        }
        6 => {
            let (c, s) = cs(g);
            (s, -c)
        }
        _ => {
            let (c, s) = cs(h);
            (c, -s)
        }
    };
    // e^{-i theta} = cos theta - i sin theta
    C64::new(cos, -sin)
}

/// [`unit_root`]'s octant o of num/den turns and the numerators (over 8 den) of its distances
/// to o/8 and (o+1)/8, in u64: den at most u64::MAX / 16.
fn octant_u64(num: u64, den: u64) -> (u32, u64, u64) {
    let r = num % den;
    let o = 8 * r / den;
    (o as u32, 8 * r - o * den, (o + 1) * den - 8 * r)
}

/// [`octant_u64`] for any den, in u128.
fn octant_u128(num: u64, den: u64) -> (u32, u128, u128) {
    let (r, d) = ((num % den) as u128, den as u128);
    let o = 8 * r / d;
    (o as u32, 8 * r - o * d, (o + 1) * d - 8 * r)
}

/// The most bits of m that one table of [`RootDigits`] is indexed by: tables of at most 1024
/// values (8 KiB in f32) stay in L1 beside a strided pass's shared memory. A pass whose warps
/// look up scattered roots (the four-step twiddle of a long axis's first pass: consecutive
/// threads take consecutive k of one row j, so m = j k jumps by j) slowed down with the size
/// of its tables: on an H200, the first of 2^27's three passes took 1.56 ms from tables of
/// 2^14 and 2^13 values where the next pass took 0.59, and 2^24's 212 us from two of 2^12
/// where its others took 135-143 (twenty-sixth session, Nsight Compute).
const MAX_DIGIT_BITS: u32 = 10;

/// How a kernel finds e^{-2 pi i m/n} for any m < n without a table of n values: m's bits
/// split into `digits` digits of `bits` bits each (the highest may have fewer), a table per
/// digit d of the roots for (digit value) << (d bits), low digit first, and the root the
/// product of one entry of each. Two digits where each has at most MAX_DIGIT_BITS bits (the
/// four-step twiddles and Bluestein chirps up to 2^20), more beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootDigits {
    pub n: usize,
    pub bits: u32,
    pub digits: u32,
}

impl RootDigits {
    pub fn of(n: usize) -> Self {
        let total = usize::BITS - (n.max(2) - 1).leading_zeros();
        let digits = total.div_ceil(MAX_DIGIT_BITS).max(2);
        RootDigits { n, bits: total.div_ceil(digits), digits }
    }

    /// Values in digit d's table.
    pub fn table_len(&self, d: u32) -> usize {
        if d + 1 < self.digits {
            1 << self.bits
        } else {
            ((self.n - 1) >> (self.bits * d)) + 1
        }
    }

    /// Values in all the tables.
    pub fn entries(&self) -> usize {
        (0..self.digits).map(|d| self.table_len(d)).sum()
    }

    /// The tables, low digit first, one after another.
    pub fn tables(&self) -> Vec<C64> {
        (0..self.digits)
            .flat_map(|d| (0..self.table_len(d) as u64).map(move |v| unit_root(v << (self.bits * d), self.n as u64)))
            .collect()
    }
}

/// `w[k] = e^{-2 pi i k/n}` for k in 0..count.
pub fn twiddles(n: usize, count: usize) -> Vec<C64> {
    (0..count as u64).map(|k| unit_root(k, n as u64)).collect()
}

/// Bluestein's chirp `c[k] = e^{-pi i k^2/n}` for k in 0..n (k^2 reduced mod 2n exactly).
pub fn chirp(n: usize) -> Vec<C64> {
    let two_n = 2 * n as u64;
    (0..n as u64).map(|k| unit_root((k * k) % two_n, two_n)).collect()
}

/// The spectrum of Bluestein's filter `b[j] = conj(c[|j|])` for |j| < n, `c` the [`chirp`] of
/// n points, wrapped into length m, divided by m so that the kernel's inverse transform comes
/// out scaled.
pub fn bluestein_filter_spectrum(c: &[C64], m: usize) -> Vec<C64> {
    let n = c.len();
    let mut b = vec![C64::new(0.0, 0.0); m];
    for j in 0..n {
        b[j] = c[j].conj();
        if j > 0 {
            b[m - j] = c[j].conj();
        }
    }
    // rustfft, not host_fft: the recursive host_fft allocates at every level; it took 1.7 ms
    // of a 3 ms 4093-point plan (8192-point filter, 2-core host), and a second at 2^21.
    let mut spectrum = b;
    rustfft::FftPlanner::<f64>::new().plan_fft_forward(m).process(&mut spectrum);
    spectrum.into_iter().map(|v| v / m as f64).collect()
}

/// The spectrum of Rader's filter `b[q] = e^{-2 pi i g^-q/prime}` (length prime - 1, g the
/// primitive root mod prime) divided by prime - 1, so that the kernel's inverse transform
/// comes out scaled. In natural order, or for a convolution by prime factors of first radix
/// `radix` (`prime_factor_convolution`), in the order its forward transform leaves the
/// spectrum.
pub fn rader_filter_spectrum(prime: usize, radix: usize, prime_factor_convolution: bool) -> Vec<C64> {
    let g = RaderPowers::of(prime);
    let order = prime - 1;
    let b: Vec<C64> = (0..order).map(|q| unit_root(g.inverse_power(q) as u64, prime as u64)).collect();
    let spectrum = host_fft(&b);
    let spectrum_index = spectrum_order(order, radix, prime_factor_convolution);
    (0..order).map(|slot| spectrum[spectrum_index(slot)] / order as f64).collect()
}

/// Rader's permutations for one read a butterfly (codegen/passes.rs): the gather's and the
/// scatter's indices of the convolutions' first and last passes, both of `radix` R (the
/// inverse's radices are the forward's reversed), as tables of 16-bit values: butterfly j
/// (j < (p - 1) / R) holds R of them contiguous, padded to whole 16-byte loads. Gather: value
/// k = j + i (p - 1) / R is x[u + m g^k], so its index is m g^k; scatter: value k = j + i
/// (p - 1) / R goes to slot g^-k of its DFT. By prime factors (`prime_factor_convolution`),
/// k is <N2 i + N1 j> instead (N1 = R, N2 = (p - 1) / R). Packed as raw bytes into the table's
/// complex values of `precision` (finite floats: every 16-bit value is under 2^14).
pub fn rader_index_tables(len: usize, prime: usize, radix: usize, prime_factor_convolution: bool, precision: Precision) -> (Vec<C64>, Vec<C64>) {
    let g = RaderPowers::of(prime);
    let m = len / prime;
    let per_row = (prime - 1) / radix;
    let k = |j, i| convolution_index(prime - 1, radix, prime_factor_convolution, j, i);
    let gather = packed_u16(per_row, radix, |j, i| m * g.power(k(j, i)));
    let scatter = packed_u16(per_row, radix, |j, i| g.inverse_power(k(j, i)));
    (as_table_values(&gather, precision), as_table_values(&scatter, precision))
}

/// 16-bit values a butterfly takes in [`rader_index_tables`]: `radix` rounded up to a whole
/// number of 16-byte loads.
pub fn rader_index_stride(radix: usize) -> usize {
    radix.next_multiple_of(8)
}

/// Table values of `precision` each of [`rader_index_tables`] takes: (prime - 1) / radix
/// butterflies of [`rader_index_stride`] 16-bit values.
pub fn rader_index_table_values(prime: usize, radix: usize, precision: Precision) -> usize {
    (prime - 1) / radix * rader_index_stride(radix) * 2 / super::recipe::complex_bytes(precision) as usize
}

/// Tables computed in f64 as the kernels read them: rounded to `precision`, as bytes.
pub fn table_bytes(values: &[C64], precision: Precision) -> Vec<u8> {
    match precision {
        Precision::F64 => crate::element::as_bytes(values).to_vec(),
        Precision::F32 => {
            let v: Vec<Complex<f32>> = values.iter().map(|c| Complex::new(c.re as f32, c.im as f32)).collect();
            crate::element::as_bytes(&v).to_vec()
        }
    }
}

/// `rows` rows of `width` 16-bit values `value(row, i)`, each row padded to
/// [`rader_index_stride`], little-endian.
fn packed_u16(rows: usize, width: usize, value: impl Fn(usize, usize) -> usize) -> Vec<u8> {
    let stride = rader_index_stride(width);
    let mut bytes = vec![0u8; rows * stride * 2];
    for row in 0..rows {
        for i in 0..width {
            let v = value(row, i);
            assert!(v < 1 << 14, "a packed index must stay under 2^14 (finite floats): {v}");
            bytes[(row * stride + i) * 2..][..2].copy_from_slice(&(v as u16).to_le_bytes());
        }
    }
    bytes
}

/// Raw bytes (a whole number of complex values of `precision`) as the f64 values whose
/// rounding to `precision` in `upload_tables` gives those bytes back: every f32 or f64 here is
/// finite (the packed values' top bits are clear), and f32 -> f64 -> f32 is exact.
fn as_table_values(bytes: &[u8], precision: Precision) -> Vec<C64> {
    match precision {
        Precision::F32 => bytes.chunks(8).map(|c| {
            let word = |w: &[u8]| f32::from_bits(u32::from_le_bytes(w.try_into().expect("4 bytes"))) as f64;
            C64::new(word(&c[..4]), word(&c[4..]))
        }).collect(),
        Precision::F64 => bytes.chunks(16).map(|c| {
            let word = |w: &[u8]| f64::from_bits(u64::from_le_bytes(w.try_into().expect("8 bytes")));
            C64::new(word(&c[..8]), word(&c[8..]))
        }).collect(),
    }
}

/// The powers of the primitive root g mod a prime: Rader's permutations, g^k and g^-k.
#[derive(Debug, Clone)]
pub struct RaderPowers {
    /// powers[k] = g^k mod prime, k < prime - 1.
    powers: Vec<usize>,
}

impl RaderPowers {
    pub fn of(prime: usize) -> Self {
        let g = super::factor::primitive_root(prime);
        let mut powers = vec![1usize; prime - 1];
        for k in 1..prime - 1 {
            powers[k] = powers[k - 1] * g % prime;
        }
        RaderPowers { powers }
    }

    /// g^k mod prime.
    pub fn power(&self, k: usize) -> usize {
        self.powers[k % self.powers.len()]
    }

    /// g^-k mod prime, which is g^(prime - 1 - k).
    pub fn inverse_power(&self, k: usize) -> usize {
        let order = self.powers.len();
        self.powers[(order - k % order) % order]
    }
}

/// Forward DFT in f64 on the host: recursive mixed radix over the prime factors, a direct DFT
/// for each factor, roots of unity from one table. O(n * sum of factors); used for table
/// precomputation only.
pub fn host_fft(x: &[C64]) -> Vec<C64> {
    let roots = twiddles(x.len().max(1), x.len());
    host_fft_with(x, &roots, 1)
}

/// `x` of length n = roots.len() / stride; roots[k * stride] = e^{-2 pi i k/n}.
fn host_fft_with(x: &[C64], roots: &[C64], stride: usize) -> Vec<C64> {
    let n = x.len();
    let root = |e: usize| roots[(e % n) * stride];
    let p = super::factor::prime_factors(n).first().copied().unwrap_or(1);
    if n <= 1 || p == n {
        return (0..n).map(|k| (0..n).map(|j| x[j] * root(j * k)).sum()).collect();
    }
    // Decimation in time: p interleaved sub-sequences of length n/p.
    let q = n / p;
    let subs: Vec<Vec<C64>> = (0..p)
        .map(|r| host_fft_with(&x.iter().skip(r).step_by(p).copied().collect::<Vec<_>>(), roots, stride * p))
        .collect();
    (0..n).map(|k| (0..p).map(|r| subs[r][k % q] * root(r * k)).sum()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_digits_multiply_to_every_root() {
        // Two digits up to 20 bits (the tables of earlier sessions), more beyond.
        assert_eq!(RootDigits::of(1 << 20), RootDigits { n: 1 << 20, bits: 10, digits: 2 });
        assert_eq!(RootDigits::of(1 << 16), RootDigits { n: 1 << 16, bits: 8, digits: 2 });
        assert_eq!(RootDigits::of(1 << 27), RootDigits { n: 1 << 27, bits: 9, digits: 3 });
        assert_eq!(RootDigits::of(2_000_006), RootDigits { n: 2_000_006, bits: 7, digits: 3 });
        assert_eq!(RootDigits::of(1 << 31).digits, 4);
        for n in [2usize, 3, 1000, 4093, 1 << 20, (1 << 20) + 1, 2_000_006, 1 << 27, 3 << 28] {
            let r = RootDigits::of(n);
            assert!(r.bits <= MAX_DIGIT_BITS && (0..r.digits).all(|d| r.table_len(d) <= 1 << r.bits), "{r:?}");
            let tables = r.tables();
            assert_eq!(tables.len(), r.entries());
            for m in [0, 1, n / 3, n / 2, n - 1, (n * 7) / 11] {
                let (mut root, mut at) = (C64::new(1.0, 0.0), 0);
                for d in 0..r.digits {
                    let digit = if d + 1 < r.digits { (m >> (r.bits * d)) & ((1 << r.bits) - 1) } else { m >> (r.bits * d) };
                    root *= tables[at + digit];
                    at += r.table_len(d);
                }
                assert!((root - unit_root(m as u64, n as u64)).norm() < 1e-15, "{m}/{n}: {root}");
            }
        }
    }

    #[test]
    fn unit_roots_reduce_alike_in_u64_and_u128() {
        // The same integers, so the same values: unit_root takes u64 where den allows.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let den = 1 + (x >> (x % 64)) % (u64::MAX / 16);
            let num = x.rotate_left(17);
            let (o, g, h) = octant_u64(num, den);
            assert_eq!(octant_u128(num, den), (o, g as u128, h as u128), "{num}/{den}");
        }
    }

    #[test]
    fn unit_roots_match_direct_evaluation() {
        for den in [1u64, 2, 3, 7, 8, 12, 1000, 4093, 8192] {
            for num in 0..den.min(2000) {
                let a = -std::f64::consts::TAU * num as f64 / den as f64;
                let w = unit_root(num, den);
                assert!((w.re - a.cos()).abs() < 1e-15 && (w.im - a.sin()).abs() < 1e-15, "{num}/{den}: {w}");
            }
        }
        assert_eq!(unit_root(1, 4), C64::new(0.0, -1.0));
        assert_eq!(unit_root(1, 2), C64::new(-1.0, -0.0));
    }

    /// The kernel's Rader steps, on the host: a DFT of prime length from its tables.
    #[test]
    fn rader_tables_turn_a_prime_dft_into_a_convolution() {
        for (len, p) in [(67usize, 67usize), (97 * 3, 97), (4093, 4093)] {
            // The permutations the index tables hold: gather m g^k, scatter g^-k.
            let (filter, g) = (rader_filter_spectrum(p, 2, false), RaderPowers::of(p));
            let indices: Vec<C64> = (0..p - 1).map(|k| C64::new((len / p * g.power(k)) as f64, g.inverse_power(k) as f64)).collect();
            let x: Vec<C64> = (0..p).map(|i| C64::new((i as f64 * 0.37).sin(), (i as f64 * 1.1).cos())).collect();
            let a: Vec<C64> = (0..p - 1).map(|k| x[indices[k].re as usize / (len / p)]).collect();
            let spectrum = host_fft(&a);
            let z: Vec<C64> = spectrum.iter().zip(&filter).map(|(s, f)| (s * f).conj()).collect();
            let c: Vec<C64> = host_fft(&z).into_iter().map(|v| v.conj()).collect();
            let mut y = vec![x[0] + spectrum[0]; p];
            for k in 0..p - 1 {
                y[indices[k].im as usize] = x[0] + c[k];
            }
            let want = host_fft(&x);
            for k in 0..p {
                assert!((y[k] - want[k]).norm() < 1e-9 * p as f64, "p={p} k={k}: {} vs {}", y[k], want[k]);
            }
        }
    }

    #[test]
    fn rader_index_tables_come_back_as_their_16_bit_values() {
        // As upload_tables rounds them (`table_bytes`), read back as the kernel reads them: butterfly j's row of rader_index_stride(R) little-endian 16-bit values.
        for (len, p, radix) in [(134, 67, 11), (4038, 673, 16), (8191, 8191, 10), (3 * 4093, 4093, 31)] {
            let g = RaderPowers::of(p);
            let per_row = (p - 1) / radix;
            // By prime factors where the radices are coprime: value j + i N2 is element <N2 i + N1 j>.
            let orders = if super::super::factor::gcd(radix, per_row) == 1 { vec![false, true] } else { vec![false] };
            for (precision, by_prime_factors) in [Precision::F32, Precision::F64].into_iter().flat_map(|p| orders.iter().map(move |&o| (p, o))) {
                let k = |j: usize, i: usize| if by_prime_factors { (per_row * i + radix * j) % (p - 1) } else { j + i * per_row };
                let (gather, scatter) = rader_index_tables(len, p, radix, by_prime_factors, precision);
                assert_eq!((gather.len(), scatter.len()), (rader_index_table_values(p, radix, precision), gather.len()));
                let bytes = |t: &[C64]| table_bytes(t, precision);
                let value = |b: &[u8], j: usize, i: usize| u16::from_le_bytes([b[(j * rader_index_stride(radix) + i) * 2], b[(j * rader_index_stride(radix) + i) * 2 + 1]]) as usize;
                let (gather, scatter) = (bytes(&gather), bytes(&scatter));
                assert_eq!(gather.len(), per_row * rader_index_stride(radix) * 2);
                for j in 0..per_row {
                    for i in 0..radix {
                        assert_eq!(value(&gather, j, i), len / p * g.power(k(j, i)), "{len} {precision:?} {by_prime_factors}");
                        assert_eq!(value(&scatter, j, i), g.inverse_power(k(j, i)), "{len} {precision:?} {by_prime_factors}");
                    }
                }
            }
        }
    }

    #[test]
    fn host_fft_matches_naive_dft() {
        for n in [1usize, 2, 3, 12, 35, 64, 210] {
            let x: Vec<C64> = (0..n).map(|i| C64::new((i as f64 * 0.7).sin(), (i as f64 * 1.3).cos())).collect();
            let naive: Vec<C64> = (0..n)
                .map(|k| (0..n).map(|j| x[j] * unit_root((j * k) as u64, n as u64)).sum())
                .collect();
            let fast = host_fft(&x);
            for k in 0..n {
                assert!((fast[k] - naive[k]).norm() < 1e-12 * n as f64, "n={n} k={k}");
            }
        }
    }
}
