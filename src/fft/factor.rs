//! Integer factoring for planning: radix choice for mixed-radix passes and the length of
//! Bluestein's convolution.

/// Largest radix a straight-line composite codelet is generated for.
pub const MAX_COMPOSITE_RADIX: usize = 16;

/// Prime factors of `n` in ascending order, with multiplicity.
pub fn prime_factors(mut n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        while n % p == 0 {
            out.push(p);
            n /= p;
        }
        p += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}

/// Largest prime factor (1 for n = 1).
pub fn largest_prime_factor(n: usize) -> usize {
    prime_factors(n).last().copied().unwrap_or(1)
}

/// Splits `n` into radices for Stockham passes: prime factors packed greedily into products
/// of at most 16 (fewer passes over shared memory), each prime above 16 a radix of its own.
/// None when a prime factor exceeds `max_prime`, the largest prime codelet the plan accepts.
/// The radices come largest first.
pub fn pack_radices(n: usize, max_prime: usize) -> Option<Vec<usize>> {
    let mut rest = prime_factors(n);
    if rest.last().is_some_and(|&p| p > max_prime) {
        return None;
    }
    let mut radices = Vec::new();
    // Largest factors first: each radix starts from the largest remaining factor and takes the
    // largest others that still fit under the cap.
    while let Some(first) = rest.pop() {
        let mut radix = first;
        let mut i = rest.len();
        while i > 0 {
            i -= 1;
            if radix * rest[i] <= MAX_COMPOSITE_RADIX {
                radix *= rest.remove(i);
                i = i.min(rest.len());
            }
        }
        radices.push(radix);
    }
    radices.sort_unstable_by(|a, b| b.cmp(a));
    Some(radices)
}

/// Whether every prime factor of `n` is at most `bound`.
pub fn is_smooth(n: usize, bound: usize) -> bool {
    largest_prime_factor(n) <= bound
}

/// Length of Bluestein's cyclic convolution for a transform of length `n`: among the 7-smooth
/// numbers from 2n - 1 up to a power of two, the one with the least work by a simple model:
/// length x Stockham passes, a quarter more for lengths that are not powers of two. The
/// penalty is fitted to Bluestein kernels on an H200 (docs/BENCHMARKS.md): power-of-two
/// convolutions ran 1.2x to 1.5x faster per pass and value than mixed-radix ones, so 1009
/// pads to 2048 (1.18x faster than 2025), while 131 stays at 270.
pub fn bluestein_len(n: usize) -> usize {
    let lo = (2 * n).saturating_sub(1).max(1);
    let cost = |m: usize| {
        let passes = pack_radices(m, 7).map_or(usize::MAX / (8 * m), |r| r.len().max(1));
        m * passes * if m.is_power_of_two() { 4 } else { 5 }
    };
    (lo..=lo.next_power_of_two()).filter(|&m| is_smooth(m, 7)).min_by_key(|&m| (cost(m), m)).unwrap_or(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radices_multiply_back_and_respect_caps() {
        for n in 1..=4096 {
            let Some(r) = pack_radices(n, 61) else {
                assert!(largest_prime_factor(n) > 61, "{n}");
                continue;
            };
            assert_eq!(r.iter().product::<usize>(), n, "{n}: {r:?}");
            assert!(r.iter().all(|&x| x <= 61 && (x <= MAX_COMPOSITE_RADIX || prime_factors(x).len() == 1)), "{n}: {r:?}");
        }
        assert_eq!(pack_radices(4096, 61).unwrap(), vec![16, 16, 16]);
        assert_eq!(pack_radices(1, 61).unwrap(), Vec::<usize>::new());
    }

    #[test]
    fn bluestein_lengths_are_smooth_and_long_enough() {
        for n in 1..=4096 {
            let m = bluestein_len(n);
            assert!(m + 1 >= 2 * n && is_smooth(m, 7), "{n} -> {m}");
        }
        assert_eq!(bluestein_len(4093), 8192);
        assert_eq!(bluestein_len(1), 1);
    }
}
