//! Rader's convolution by the prime-factor (Good-Thomas) algorithm: where its length p - 1
//! splits into two coprime radices N1 x N2 (70 = 10 x 7), a 2-d DFT of N1 x N2 points without
//! twiddles between the passes, in place of Cooley-Tukey's.
//!
//! The sixty-first session's static survey (docs/BENCHMARKS.md) found the C2C f32 Rader
//! kernels between 0.55 and 0.75 of copy bound by arithmetic: 155 instructions a point, 71% of
//! them float math. The convolution's two twiddle stages (its forward transform's last pass
//! and its inverse's) cost a complex product a value and the powers' products: without them
//! 1420 = 71 x 20 issues 14% fewer float instructions, 11% fewer in all (static SASS counts;
//! not yet timed).
//!
//! The passes stay Stockham's (codegen/passes.rs); only the orders change, all through tables:
//! - the gather reads, as value j + i N2 of the forward transform (pass 1: N1 points over i
//!   for each j), the Rader sequence's element <N2 i + N1 j> (Ruritanian order), so that the
//!   forward's last pass leaves, at slot k1 + N1 k2, the spectrum's value <N2 a k1 + N1 b k2>
//!   (CRT order: a = N2^-1 mod N1, b = N1^-1 mod N2);
//! - the filter's spectrum is stored in that order;
//! - the inverse (a forward transform of conjugates) reads the CRT order as its 2-d input, and
//!   its last pass leaves, at slot m2 + N2 m1, value <N2 m1 + N1 m2> of the convolution: the
//!   scatter's table sends it there. Its index is the gather's formula again.

use super::factor::{gcd, is_prime, LARGEST_COMPOSITE_CODELET};
use super::recipe::{DeviceLimits, FftRecipe};
use super::transform_core::{Core, MAX_PRIME_RADIX};

impl FftRecipe {
    /// Whether the convolution could run by prime factors: a Rader core whose convolution
    /// takes two passes of coprime radices.
    pub(crate) fn can_split_convolution_by_prime_factors(&self) -> bool {
        matches!(&self.core, Core::Rader { inner, .. } if inner.len() == 2 && gcd(inner[0], inner[1]) == 1)
    }

    /// Whether it does: where it can and the tuning says so (the `prime-factor convolution`
    /// variant; Cooley-Tukey's order by default).
    pub(crate) fn convolution_by_prime_factors(&self) -> bool {
        self.tuning.prime_factor_convolution && self.can_split_convolution_by_prime_factors()
    }

    /// The `prime-factor convolution` variant of a Rader recipe: its own convolution by prime
    /// factors where its two radices are coprime; else p - 1 split into the most even pair of
    /// coprime radices that have codelets (108 = 12 x 9 -> 27 x 4, 156 = 13 x 4 x 3 -> 13 x 12),
    /// the recipe designed around that core as the heuristic would. None where p - 1 has no
    /// such split (4092: 31 x 132).
    pub(crate) fn with_prime_factor_convolution(&self, limits: DeviceLimits) -> Option<FftRecipe> {
        let Core::Rader { len, prime, outer, .. } = &self.core else { return None };
        if self.tuning.prime_factor_convolution {
            return None;
        }
        let mut r = if self.can_split_convolution_by_prime_factors() {
            self.clone()
        } else {
            let inner = coprime_radices(prime - 1)?.to_vec();
            FftRecipe::design_around(self.problem, Core::Rader { len: *len, prime: *prime, inner, outer: outer.clone() }, limits).ok()?
        };
        r.tuning.prime_factor_convolution = true;
        r.convolution_by_prime_factors().then_some(r)
    }
}

/// The most even split of `order` into two coprime radices with codelets (a prime up to
/// MAX_PRIME_RADIX or a composite up to LARGEST_COMPOSITE_CODELET), the larger first as the
/// planner orders a convolution's radices.
fn coprime_radices(order: usize) -> Option<[usize; 2]> {
    let has_codelet = |r: usize| r <= LARGEST_COMPOSITE_CODELET || (r <= MAX_PRIME_RADIX && is_prime(r));
    (2..order)
        .filter(|&b| order.is_multiple_of(b) && b * b <= order)
        .map(|b| [order / b, b])
        .filter(|&[a, b]| gcd(a, b) == 1 && has_codelet(a) && has_codelet(b))
        .min_by_key(|&[a, _]| a)
}

/// Which element of the Rader sequence (the gather) or of the convolution (the scatter) is
/// value j + i N2 of a convolution of `order` = N1 N2 points whose first radix is N1:
/// j + i N2 in Cooley-Tukey's order, <N2 i + N1 j> by prime factors.
pub(crate) fn convolution_index(order: usize, first_radix: usize, by_prime_factors: bool, j: usize, i: usize) -> usize {
    let (n1, n2) = (first_radix, order / first_radix);
    if by_prime_factors { (n2 * i + n1 * j) % order } else { j + i * n2 }
}

/// Which value of the spectrum each slot s = k1 + N1 k2 of the forward transform's last pass
/// holds: s itself in Cooley-Tukey's order, <N2 a k1 + N1 b k2> by prime factors (a = N2^-1
/// mod N1 and b = N1^-1 mod N2, found once for all slots).
pub(crate) fn spectrum_order(order: usize, first_radix: usize, by_prime_factors: bool) -> impl Fn(usize) -> usize {
    let (n1, n2) = (first_radix, order / first_radix);
    let (a, b) = if by_prime_factors { (inverse_mod(n2, n1), inverse_mod(n1, n2)) } else { (0, 0) };
    move |slot| if by_prime_factors { (n2 * a * (slot % n1) + n1 * b * (slot / n1)) % order } else { slot }
}

/// x with x a = 1 mod m (a and m coprime; 0 for m = 1).
fn inverse_mod(a: usize, m: usize) -> usize {
    (0..m).find(|&x| x * a % m == 1 % m).expect("coprime radices")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fft::tables::unit_root as root;
    use num_complex::Complex;

    /// The passes as codegen/passes.rs runs them, by prime factors: the gather's order in,
    /// pass 1 (N1 points over i, value j + i N2 to slot j N1 + k1), pass 2 (N2 points over
    /// i, value j + i N1 to slot j + k2 N1), no twiddles; the result is the DFT in the
    /// spectrum's order. The inverse's passes (radices reversed) on the spectrum's order leave
    /// the convolution's value convolution_index(j, i) at slot j + i N2.
    fn passes(x: &[Complex<f64>], radices: [usize; 2]) -> Vec<Complex<f64>> {
        let n = x.len();
        let mut y = vec![Complex::new(0.0, 0.0); n];
        let (r1, r2) = (radices[0], radices[1]);
        for j in 0..n / r1 {
            for k in 0..r1 {
                y[j * r1 + k] = (0..r1).map(|i| x[j + i * (n / r1)] * root((i * k) as u64, r1 as u64)).sum();
            }
        }
        let mut z = vec![Complex::new(0.0, 0.0); n];
        for j in 0..n / r2 {
            for k in 0..r2 {
                z[j + k * (n / r2)] = (0..r2).map(|i| y[j + i * (n / r2)] * root((i * k) as u64, r2 as u64)).sum();
            }
        }
        z
    }

    fn dft(x: &[Complex<f64>]) -> Vec<Complex<f64>> {
        let n = x.len();
        (0..n).map(|k| (0..n).map(|i| x[i] * root((i * k % n) as u64, n as u64)).sum()).collect()
    }

    #[test]
    fn coprime_passes_without_twiddles_are_the_dft_in_crt_order() {
        for (n1, n2) in [(10, 7), (7, 10), (6, 11), (8, 9), (16, 7), (2, 3), (4, 25)] {
            let n = n1 * n2;
            let x: Vec<Complex<f64>> = (0..n).map(|i| Complex::new((i as f64 * 0.37).sin(), (i as f64 * 1.3).cos())).collect();
            // The gather's order: value j + i N2 is element convolution_index(j, i).
            let mut gathered = vec![Complex::new(0.0, 0.0); n];
            for j in 0..n2 {
                for i in 0..n1 {
                    gathered[j + i * n2] = x[convolution_index(n, n1, true, j, i)];
                }
            }
            let spectrum = passes(&gathered, [n1, n2]);
            let want = dft(&x);
            let spectrum_index = spectrum_order(n, n1, true);
            for (slot, v) in spectrum.iter().enumerate() {
                let k = spectrum_index(slot);
                assert!((v - want[k]).norm() < 1e-9, "{n1} x {n2}: slot {slot} should hold X[{k}]");
            }
            // The inverse's passes (radices reversed) read that order as their input: value
            // j + i N2 of their output is DFT(spectrum in natural order)[convolution_index(j, i)].
            let natural: Vec<Complex<f64>> = (0..n).map(|k| want[k]).collect();
            let again = passes(&spectrum, [n2, n1]);
            let want_again = dft(&natural);
            for j in 0..n2 {
                for i in 0..n1 {
                    let m = convolution_index(n, n1, true, j, i);
                    assert!((again[j + i * n2] - want_again[m]).norm() < 1e-6, "{n1} x {n2}: inverse slot {} should hold {m}", j + i * n2);
                }
            }
        }
    }

    #[test]
    fn coprime_radices_are_the_most_even_split_with_codelets() {
        assert_eq!(coprime_radices(108), Some([27, 4]));
        assert_eq!(coprime_radices(156), Some([13, 12]));
        assert_eq!(coprime_radices(60), Some([12, 5]));
        assert_eq!(coprime_radices(70), Some([10, 7]));
        assert_eq!(coprime_radices(96), Some([32, 3]));
        assert_eq!(coprime_radices(256), None, "no coprime split of a power of two");
        assert_eq!(coprime_radices(4092), None, "132 has no codelet");
        assert_eq!(coprime_radices(2 * 53), Some([53, 2]), "a prime codelet past 32");
    }

    #[test]
    fn cooley_tukey_order_is_the_identity() {
        let spectrum_index = spectrum_order(70, 10, false);
        for slot in 0..70 {
            assert_eq!(spectrum_index(slot), slot);
        }
        assert_eq!(convolution_index(70, 10, false, 3, 4), 3 + 4 * 7);
        assert_eq!(inverse_mod(7, 10), 3);
        assert_eq!(inverse_mod(10, 7), 5);
    }
}
