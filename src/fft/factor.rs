//! Integer factoring for planning: radix choice for mixed-radix passes and the length of
//! Bluestein's convolution.

/// Largest composite radix the planner packs by default.
pub const MAX_COMPOSITE_RADIX: usize = 16;

/// Largest composite radix a straight-line codelet is generated for when a cap asks for it
/// (`pack_radices_capped`): fewer passes over shared memory for long rows, at more registers
/// per thread.
pub const LARGEST_COMPOSITE_CODELET: usize = 32;

/// Prime factors of `n` in ascending order, with multiplicity.
pub fn prime_factors(mut n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        while n.is_multiple_of(p) {
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

/// Whether `n` is prime.
pub fn is_prime(n: usize) -> bool {
    n >= 2 && prime_factors(n).len() == 1
}

/// Largest prime factor (1 for n = 1).
pub fn largest_prime_factor(n: usize) -> usize {
    prime_factors(n).last().copied().unwrap_or(1)
}

/// Splits `n` into radices for Stockham passes, largest first: among the greedy packings of
/// its prime factors under several caps (see [`pack_radices_capped`]), the one `model` ranks
/// cheapest. None when a prime factor exceeds `max_prime`, the largest prime codelet the plan
/// accepts.
pub fn pack_radices(n: usize, max_prime: usize, model: StockhamModel) -> Option<Vec<usize>> {
    let pow2_or_at_most = |cap: usize| move |r: usize| r <= cap || (r.is_power_of_two() && r <= MAX_COMPOSITE_RADIX);
    let mut candidates: Vec<Vec<usize>> = [16, 12, 10, 9, 8, 6, 4].iter().filter_map(|&cap| pack_radices_capped(n, max_prime, cap)).collect();
    candidates.extend(pack(n, max_prime, pow2_or_at_most(8)));
    candidates.extend(pack(n, max_prime, pow2_or_at_most(10)));
    let cost = |r: &Vec<usize>| model.cost(n, r);
    candidates.into_iter().min_by(|a, b| cost(a).total_cmp(&cost(b)))
}

/// A cost model of a length-n Stockham transform with given radices, one thread per butterfly
/// of the largest radix, in arbitrary units: each pass costs a thread its butterflies
/// (ceil(n/radix / threads) of them, r log2 r + 4 r each, times `composite_weight` for the
/// composite codelets 12, 14 and 15) plus 20 for the pass itself (barrier, indexing,
/// twiddles); the sum, times threads^`thread_exponent` (more threads per row cost less than in
/// proportion: a multiprocessor holds several rows); and half again where fewer than
/// `staged_below` threads leave the row to a staged copy through shared memory instead of
/// passes that read and write global memory themselves (`FftTuning::direct_io`). The
/// constants are fitted, not derived.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StockhamModel {
    pub composite_weight: f64,
    pub thread_exponent: f64,
    pub staged_below: usize,
}

impl StockhamModel {
    /// Contiguous rows (C2C, and the half-length cores of R2C and C2R). Fitted to `bench fft
    /// --suite variants` over all 489 13-smooth lengths up to 4096 on an H200 (each timed with
    /// the packings under 16, 8 and 4 beside the model's; docs/BENCHMARKS.md, sixth session).
    /// The earlier fit (below) charged the composite codelets 3.5 times their work; with every
    /// such length timed they cost what others do: 2744 as 14 x 14 x 14 ran 0.967 of copy
    /// against 0.750 as 7 x 7 x 7 x 4 x 2, 3584 as 16 x 16 x 14 0.961 against 0.715.
    pub const CONTIGUOUS_ROWS: StockhamModel =
        StockhamModel { composite_weight: 1.0, thread_exponent: 0.7, staged_below: super::recipe::DIRECT_IO_MIN_THREADS as usize };
    /// Strided passes, grids and Rader's convolutions: the third session's fit (86 timings of
    /// contiguous rows, 2 to 4 packings each), kept where the new one was not measured. On the
    /// strided 512-point passes of 512^2 the new one's 8 x 8 x 8 ran 0.94x of 16 x 16 x 2.
    pub const STRIDED_GRID_RADER: StockhamModel = StockhamModel { composite_weight: 3.5, thread_exponent: 0.8, staged_below: 0 };

    pub fn cost(&self, n: usize, radices: &[usize]) -> f64 {
        let threads = (n / radices.iter().copied().max().unwrap_or(1).max(1)).max(1);
        let butterfly = |r: usize| {
            let work = r as f64 * (r as f64).log2() + 4.0 * r as f64;
            if matches!(r, 12 | 14 | 15) { self.composite_weight * work } else { work }
        };
        let per_thread: f64 = radices.iter().map(|&r| (n / r).div_ceil(threads) as f64 * butterfly(r) + 20.0).sum();
        let staged = if threads < self.staged_below { 1.5 } else { 1.0 };
        (threads as f64).powf(self.thread_exponent) * per_thread * staged
    }
}

/// As [`pack_radices`], with any product of factors up to `cap` (at most
/// [`LARGEST_COMPOSITE_CODELET`]).
pub fn pack_radices_capped(n: usize, max_prime: usize, cap: usize) -> Option<Vec<usize>> {
    pack(n, max_prime, |r| r <= cap.min(LARGEST_COMPOSITE_CODELET))
}

/// Splits `n` into the fewest radices, each a prime up to `max_prime` or a composite up to
/// `cap` (at most [`LARGEST_COMPOSITE_CODELET`]); among those, the most even (smallest largest
/// radix). Largest first. None when a prime factor exceeds `max_prime`.
pub fn pack_fewest_passes(n: usize, max_prime: usize, cap: usize) -> Option<Vec<usize>> {
    if largest_prime_factor(n) > max_prime {
        return None;
    }
    let cap = cap.min(LARGEST_COMPOSITE_CODELET);
    let fits = |r: usize| r <= cap || is_prime(r);
    // Radices in non-increasing order, so each multiset is met once.
    fn search(n: usize, most: usize, fits: &dyn Fn(usize) -> bool, now: &mut Vec<usize>, best: &mut Option<Vec<usize>>) {
        if n == 1 {
            let better = best.as_ref().is_none_or(|b| (now.len(), now[0]) < (b.len(), b[0]));
            if better {
                *best = Some(now.clone());
            }
            return;
        }
        if best.as_ref().is_some_and(|b| now.len() + 1 > b.len()) {
            return;
        }
        for r in (2..=most.min(n)).rev().filter(|&r| n.is_multiple_of(r) && fits(r)) {
            now.push(r);
            search(n / r, r, fits, now, best);
            now.pop();
        }
    }
    if n == 1 {
        return Some(Vec::new());
    }
    let mut best = None;
    search(n, n, &fits, &mut Vec::new(), &mut best);
    best
}

fn pack(n: usize, max_prime: usize, fits: impl Fn(usize) -> bool) -> Option<Vec<usize>> {
    let mut rest = prime_factors(n);
    if rest.last().is_some_and(|&p| p > max_prime) {
        return None;
    }
    let mut radices = Vec::new();
    // Largest factors first: each radix starts from the largest remaining factor and takes the
    // largest others that still fit.
    while let Some(first) = rest.pop() {
        let mut radix = first;
        let mut i = rest.len();
        while i > 0 {
            i -= 1;
            if fits(radix * rest[i]) {
                radix *= rest.remove(i);
                i = i.min(rest.len());
            }
        }
        radices.push(radix);
    }
    radices.sort_unstable_by(|a, b| b.cmp(a));
    Some(radices)
}

/// Greatest common divisor.
pub fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Whether every prime factor of `n` is at most `bound`.
pub fn is_smooth(n: usize, bound: usize) -> bool {
    largest_prime_factor(n) <= bound
}

/// The smallest generator of the multiplicative group modulo the prime `p`: its powers
/// g^0 .. g^(p-2) run through 1 .. p-1, which turns a length-p DFT into a cyclic convolution
/// of length p - 1 (Rader's algorithm).
pub fn primitive_root(p: usize) -> usize {
    let order = p - 1;
    let mut divisors = prime_factors(order);
    divisors.dedup();
    let pow = |mut b: usize, mut e: usize| {
        let mut r = 1 % p;
        b %= p;
        while e > 0 {
            if e & 1 == 1 {
                r = r * b % p;
            }
            b = b * b % p;
            e >>= 1;
        }
        r
    };
    (1..p.max(2)).find(|&g| divisors.iter().all(|&q| pow(g, order / q) != 1)).unwrap_or(1)
}

/// Length of Bluestein's cyclic convolution for a transform of length `n`: among the 7-smooth
/// numbers from 2n - 1 up to a power of two, the one with the least work by a simple model:
/// length x Stockham passes, a quarter more for lengths that are not powers of two. The
/// penalty is fitted to Bluestein kernels on an H200 (docs/BENCHMARKS.md): power-of-two
/// convolutions ran 1.2x to 1.5x faster per pass and value than mixed-radix ones, so 1009
/// pads to 2048 (1.18x faster than 2025), while 131 stays at 270. Bluestein on a factor
/// takes it; over a whole row, [`whole_row_bluestein_len`].
pub fn bluestein_len(n: usize) -> usize {
    let cost = |m: usize| {
        let passes = pack_radices_capped(m, 7, MAX_COMPOSITE_RADIX).map_or(usize::MAX / (8 * m), |r| r.len().max(1));
        m * passes * if m.is_power_of_two() { 4 } else { 5 }
    };
    convolution_lengths(n).min_by_key(|&m| (cost(m), m)).unwrap_or(shortest_convolution_len(n))
}

/// The 7-smooth lengths from 2 factor - 1 (the shortest cyclic convolution Bluestein's
/// algorithm for a length-`factor` DFT can use) up to the next power of two: the candidates
/// `bluestein_len` and [`FAST_CONVOLUTION_LENGTHS`] pick from.
pub fn convolution_lengths(factor: usize) -> impl Iterator<Item = usize> {
    let lo = shortest_convolution_len(factor);
    (lo..=lo.next_power_of_two()).filter(|&m| is_smooth(m, 7))
}

/// 2 `factor` - 1 (at least 1): the shortest cyclic convolution Bluestein's algorithm can use
/// for a length-`factor` DFT.
fn shortest_convolution_len(factor: usize) -> usize {
    (2 * factor).saturating_sub(1).max(1)
}

/// Length of the convolution for Bluestein over a whole row of length `n`: for 2n - 1 from
/// 257 to 8192, the shortest of [`FAST_CONVOLUTION_LENGTHS`] from 2n - 1 on; elsewhere
/// [`bluestein_len`]'s model.
pub fn whole_row_bluestein_len(n: usize) -> usize {
    let lo = shortest_convolution_len(n);
    match FAST_CONVOLUTION_LENGTHS.iter().find(|&&m| m >= lo) {
        Some(&m) if lo > FAST_CONVOLUTION_LENGTHS[0] => m,
        _ => bluestein_len(n),
    }
}

/// Whole-row Bluestein convolution lengths that ran at least 5% faster per transform than
/// every longer 7-smooth length up to 8192, so that the shortest of them from 2n - 1 on is
/// (within 1% as a geometric mean, 5% at most) the fastest choice. Timed on an H200: every
/// 7-smooth length from 168 to 8192 (`coalesce bench fft --suite variants --variants
/// 'convolution*'` at N = 83, 137, 149, 263, 283, 523, 569, 1031, 1061, 2053, 2089; two N per
/// octave agreed within 2%; the same kernel in two sessions within 14%, hence the margin).
/// Against the model's pick it saves 1.1x as a geometric mean, up to 1.8x: radix-16 passes
/// mixed with 14 or 15 (2160 = 16 x 15 x 9) ran up to 1.8x slower per point than 15 x 15 x
/// 10 (tenth session, docs/BENCHMARKS.md). Convolutions on a factor, several per row, did not
/// follow it (168 -> 256 ran 0.74x) and keep the model. In f32, 7056 and 7938 give way to
/// 8192 in three passes of long codelets, measured later (bluestein_tuning.rs).
pub const FAST_CONVOLUTION_LENGTHS: [usize; 33] = [
    256, 324, 375, 400, 512, 540, 600, 686, 750, 900, 1024, 1125, 1350, 1536, 1620, 2048, 2250, 2560, 2646, 3072,
    3240, 3430, 3750, 4096, 4374, 4725, 5103, 5625, 5670, 6174, 7056, 7938, 8192,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radices_multiply_back_and_respect_caps() {
        for n in 1..=4096 {
            let Some(r) = pack_radices(n, 61, StockhamModel::STRIDED_GRID_RADER) else {
                assert!(largest_prime_factor(n) > 61, "{n}");
                continue;
            };
            assert_eq!(r.iter().product::<usize>(), n, "{n}: {r:?}");
            assert!(r.iter().all(|&x| x <= 61 && (x <= MAX_COMPOSITE_RADIX || is_prime(x))), "{n}: {r:?}");
        }
        assert_eq!(pack_radices(4096, 61, StockhamModel::STRIDED_GRID_RADER).unwrap(), vec![16, 16, 16]);
        assert_eq!(pack_radices(2904, 61, StockhamModel::STRIDED_GRID_RADER).unwrap(), vec![11, 11, 6, 4]);
        assert_eq!(pack_radices(1000, 61, StockhamModel::STRIDED_GRID_RADER).unwrap(), vec![10, 10, 10]);
        assert_eq!(pack_radices_capped(2904, 61, 16).unwrap(), vec![12, 11, 11, 2]);
        assert_eq!(pack_radices(1, 61, StockhamModel::STRIDED_GRID_RADER).unwrap(), Vec::<usize>::new());
        assert_eq!(pack_radices_capped(4096, 61, 8).unwrap(), vec![8, 8, 8, 8]);
        assert_eq!(pack_radices_capped(2 * 3 * 53, 61, 4).unwrap(), vec![53, 3, 2]);
    }

    #[test]
    fn fewest_passes_are_fewest_then_most_even() {
        assert_eq!(pack_fewest_passes(3125, 61, 32).unwrap(), vec![25, 25, 5]);
        assert_eq!(pack_fewest_passes(3960, 61, 24).unwrap(), vec![20, 18, 11]);
        assert_eq!(pack_fewest_passes(754, 61, 32).unwrap(), vec![29, 26]);
        assert_eq!(pack_fewest_passes(4096, 61, 16).unwrap(), vec![16, 16, 16]);
        assert_eq!(pack_fewest_passes(1, 61, 32).unwrap(), Vec::<usize>::new());
        assert_eq!(pack_fewest_passes(67 * 2, 61, 32), None);
        for n in 2..=2048 {
            let Some(r) = pack_fewest_passes(n, 61, 32) else { continue };
            assert_eq!(r.iter().product::<usize>(), n, "{n}: {r:?}");
            assert!(r.iter().all(|&x| x <= 32 || is_prime(x)), "{n}: {r:?}");
            let greedy = pack_radices_capped(n, 61, 32).unwrap();
            assert!(r.len() <= greedy.len(), "{n}: {r:?} longer than greedy {greedy:?}");
        }
    }

    #[test]
    fn contiguous_rows_take_composite_codelets_and_sixteen_threads() {
        let rows = StockhamModel::CONTIGUOUS_ROWS;
        // Composite codelets cost what others do (measured: 0.967 / 0.961 of copy against
        // 0.750 / 0.715 for the packings the earlier model picks).
        assert_eq!(pack_radices(2744, 61, rows).unwrap(), vec![14, 14, 14]);
        assert_eq!(pack_radices(2744, 61, StockhamModel::STRIDED_GRID_RADER).unwrap(), vec![7, 7, 7, 4, 2]);
        assert_eq!(pack_radices(3584, 61, rows).unwrap(), vec![16, 16, 14]);
        // 16 threads per row, so that the passes read and write global memory themselves.
        assert_eq!(pack_radices(64, 61, rows).unwrap(), vec![4, 4, 4]);
        assert_eq!(pack_radices(64, 61, StockhamModel::STRIDED_GRID_RADER).unwrap(), vec![16, 4]);
        assert!(rows.cost(64, &[16, 4]) > rows.cost(64, &[4, 4, 4]));
    }

    #[test]
    fn primitive_roots_generate_every_residue() {
        for p in [2usize, 3, 5, 7, 67, 97, 1021, 4093] {
            let g = primitive_root(p);
            let mut seen = vec![false; p];
            let mut x = 1;
            for _ in 0..p - 1 {
                assert!(!seen[x], "p={p} g={g}: {x} repeats");
                seen[x] = true;
                x = x * g % p;
            }
            assert_eq!(x, 1, "p={p}");
        }
        assert_eq!(primitive_root(7), 3);
        assert_eq!(primitive_root(4093), 2);
    }

    #[test]
    fn bluestein_lengths_are_smooth_and_long_enough() {
        for n in 1..=4096 {
            let m = bluestein_len(n);
            assert!(m + 1 >= 2 * n && is_smooth(m, 7), "{n} -> {m}");
        }
        assert_eq!(bluestein_len(4093), 8192);
        assert_eq!(bluestein_len(1), 1);
        for n in 1..=4096 {
            let m = whole_row_bluestein_len(n);
            assert!(m + 1 >= 2 * n && is_smooth(m, 7) && m <= (2 * n - 1).next_power_of_two(), "{n} -> {m}");
        }
        // From the table: 1061 (2121) takes 2250 = 15 x 15 x 10, not the model's 2160.
        assert_eq!((bluestein_len(1061), whole_row_bluestein_len(1061)), (2160, 2250));
        assert_eq!(whole_row_bluestein_len(83), bluestein_len(83));
    }
}
