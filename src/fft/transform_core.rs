//! The transform a thread group runs in shared memory ([`Core`]): Stockham passes over the
//! row, Rader's or Bluestein's algorithm for a large prime factor, or a grid of several axes;
//! the rules that choose among them; and the Stockham transforms ([`Stage`]) each runs.
//! How threads map onto it is the recipe's part (recipe.rs).

use super::factor::{bluestein_len, largest_prime_factor, pack_radices, pack_radices_capped, whole_row_bluestein_len, StockhamModel, MAX_COMPOSITE_RADIX};
use super::problem::{FftKind, Precision};
use super::codelet::CodeletSplit;
use super::fewer_passes::RADER_FEWER_PASSES_MIN_DFTS;
use super::recipe::{BLUESTEIN_REGISTER_FLOOR, REGISTERS_PER_MULTIPROCESSOR};

/// Largest prime radix given a straight-line codelet; transforms with a larger prime factor
/// use Rader's algorithm, or Bluestein's where Rader's convolution is not smooth enough.
pub const MAX_PRIME_RADIX: usize = 61;

/// Largest prime factor of p - 1 for which Rader's algorithm is used (in rows of three or more
/// DFTs of a prime under 500; elsewhere less: `rader_convolution_prime_limit`). Over every N
/// up to 4096 on an H200, Rader first ran a median 1.26x to 1.35x faster than Bluestein where
/// p - 1 is 13-smooth, about as fast with factors 17 to 31, and 0.4x to 0.6x with larger ones
/// (prime codelets of 37 to 61 in the convolution's passes). After the thirty-fifth to
/// thirty-ninth sessions' Rader kernels (lanes across DFTs, ping-pong, rows without launch
/// bounds), the forty-third session timed Rader beside every Bluestein pick again (C2C f32, two
/// rounds, docs/BENCHMARKS.md): see the limits below; with factors of 29 and 31 Rader ran 0.51x
/// to 0.97x everywhere, and slower still with larger ones.
pub const RADER_MAX_CONVOLUTION_PRIME: usize = 23;

/// Whether a row's DFTs of a prime that has a codelet may run by Rader's algorithm instead
/// ([`FftRecipe::design_core_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PrimeCodelets {
    /// Rader where [`rader_over_codelet`] says it was measured faster: the planner's choice.
    RaderWhereMeasured,
    /// The codelet always (the `stockham` variant: the row as designed before that rule).
    Kept,
}

/// Whether a contiguous row of `kind` and `precision` whose core (`len` points, every prime
/// factor with a codelet) has the largest prime factor p runs its DFTs of p by Rader's
/// algorithm instead of the straight-line codelet: that DFT costs O(p^2), Rader's two
/// convolution passes of p - 1 (60 = 10 x 6, 52 = 13 x 4) far less, where the row's other
/// passes are short (len / p 23-smooth: after Rader, a radix of 29 to 61 ran up to 3x slower).
/// Same-run A/B against the codelet picks on an H200 (forty-sixth session, two rounds, every
/// length up to 4096 whose largest prime factor is 53 or 61; docs/BENCHMARKS.md): p = 61 C2C /
/// R2C / C2R f32 1.19x / 1.31x / 1.66x (one length under 0.97x: C2C 488 0.93x), f64 3.0x /
/// 4.2x / 3.7x; p = 53 C2R f32 1.47x, f64 1.6x / 1.5x / 1.7x (f64 C2C 3816 0.77x, 4028 0.89x),
/// but C2C and R2C f32 1.04x / 1.11x with 15 / 5 lengths under 0.97x (530 0.71x), so not there.
/// With 37, 41 and 43 Rader won about half the lengths (the wisdom's `rader` entries), with 29,
/// 31, 47 (46 = 2 x 23) and 59 (58 = 2 x 29) none in C2C f32. In f64 it won at a fifth (C2C) to
/// two thirds (real) of the rows of 29 to 59, and at 10 of 70 C2R f32 rows of 47 and 59 (the
/// forty-seventh session's `rader` wisdom entries). Where this rule loses, the wisdom's
/// `stockham` entries keep the codelet (the forty-seventh session's search over every length
/// the rule takes: mostly odd real lengths, 16 of 24 in R2C f32, and f64 C2C 3816 / 4028 / 4081).
pub(crate) fn rader_over_codelet(kind: FftKind, precision: Precision, len: usize) -> bool {
    let p = largest_prime_factor(len);
    let pays = p == 61 || (p == 53 && (precision == Precision::F64 || kind == FftKind::C2R));
    pays && largest_prime_factor(len / p) <= RADER_MAX_CONVOLUTION_PRIME
}

/// Largest prime factor of p - 1 for which Rader's algorithm is used in a row of `dfts` DFTs of
/// the prime `prime`. Rader's speed-up over the Bluestein picks with factors 17 / 19 / 23
/// (forty-third session): three or more DFTs of p under 500 1.51x / 1.40x / 1.27x, of p of 500
/// or more 1.34x / 1.32x / 1.03x (7 of 15 lengths under 0.97x at 23); one DFT of p of 500 or
/// more 1.20x / 1.19x / 1.09x (4 of 19 under 0.97x at 23); two 1.31x / 1.00x / 0.80x; one or two
/// DFTs of p under 500 0.77x to 0.97x.
pub fn rader_convolution_prime_limit(prime: usize, dfts: usize) -> usize {
    match (dfts, prime) {
        (3.., ..500) => RADER_MAX_CONVOLUTION_PRIME,
        (3.., _) | (1, 500..) => 19,
        (2, 500..) => 17,
        _ => 13,
    }
}

/// The complex transform each thread group runs in shared memory.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Core {
    /// Mixed-radix Stockham autosort: one pass per radix, natural order in and out.
    Stockham { len: usize, radices: Vec<usize> },
    /// Bluestein: len = m x factor. The first Stockham pass (radix `factor`, m butterflies)
    /// runs each length-factor DFT by Bluestein's algorithm: chirp, a length-`conv_len`
    /// convolution by two Stockham transforms (radices of `conv_len`) with the filter's
    /// spectrum precomputed, chirp again; the passes `outer` (radices of m) follow as usual.
    /// With factor = len (no outer passes), the whole row is one Bluestein DFT.
    Bluestein { len: usize, factor: usize, conv_len: usize, radices: Vec<usize>, outer: Vec<usize> },
    /// Rader: len = m x prime. The first Stockham pass (radix `prime`, m butterflies) runs
    /// each length-prime DFT as a cyclic convolution of length prime - 1 (the input permuted
    /// by powers of a primitive root), by two Stockham transforms with radices `inner`, in
    /// place in shared memory; the passes `outer` (radices of m) follow as usual.
    Rader { len: usize, prime: usize, inner: Vec<usize>, outer: Vec<usize> },
    /// Several axes at once: the row is a row-major array of `shape` (the trailing axes of a
    /// multi-dimensional transform, fused into one pass), transformed along each axis in
    /// turn, the first first, by Stockham passes with `radices[d]` over its lines.
    ///
    /// `halved`: R2C or C2R for a real transform's grid, whose last axis is the halved one:
    /// `shape` ends with its half-length core m = n/2 (the reals read as complex pairs), and
    /// its lines lie m + 1 values apart in shared memory, the half spectrum's layout (the
    /// separated X\[m\] takes the spare slot). R2C runs that axis first and separates each
    /// line's spectrum, then the other axes, the last of them the first axis; C2R the other
    /// axes first (the first axis first), then rebuilds each line and runs it. None for a
    /// complex grid.
    Grid { shape: Vec<usize>, radices: Vec<Vec<usize>>, halved: Option<FftKind> },
}

/// One Stockham transform the core runs in shared memory: `subrows` rows of `len` values
/// `step` apart, its passes continuing after `ns0` points were combined by an earlier step
/// (Rader's pass). Sub-row u = lo + step * hi (lo < step) starts at value
/// `first + lo + hi * stride` of the block's row: with step 1, sub-row u at `first + u *
/// stride`; with a larger step (a grid's axis other than its last), `step` interleaved lines.
/// `across` (step 1 only): consecutive butterflies of a pass take consecutive sub-rows, not
/// consecutive butterflies of one sub-row (see [`FftTuning::lanes_across_dfts`](super::recipe::FftTuning::lanes_across_dfts)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stage {
    pub len: usize,
    pub radices: Vec<usize>,
    pub ns0: usize,
    pub subrows: usize,
    pub first: usize,
    pub stride: usize,
    pub step: usize,
    pub across: bool,
}

impl Stage {
    pub(crate) fn row(len: usize, radices: &[usize]) -> Stage {
        Stage { len, radices: radices.to_vec(), ns0: 1, subrows: 1, first: 0, stride: 0, step: 1, across: false }
    }

    /// Where butterfly b of a pass with `per_row` butterflies per sub-row works: its sub-row's
    /// first value and its index j in the sub-row. Consecutive butterflies take consecutive j
    /// (step 1) or, where lines interleave, neighbouring lines (so that a warp's shared
    /// accesses fall on consecutive values either way), or with `across`, consecutive sub-rows.
    pub fn butterfly(&self, b: usize, per_row: usize) -> (usize, usize) {
        if self.across {
            return (self.first + (b % self.subrows) * self.stride, b / self.subrows);
        }
        let (lo, rest) = (b % self.step, b / self.step);
        (self.first + lo + (rest / per_row) * self.stride, rest % per_row)
    }

    /// The same transform with its radices in reverse order: a convolution's inverse
    /// transform, whose first pass then has the radix of the forward one's last, so that the
    /// two run as one pass (see `Core::stages`).
    pub fn reversed(&self) -> Stage {
        Stage { radices: self.radices.iter().rev().copied().collect(), ..self.clone() }
    }

    /// Butterflies in the stage's pass with the largest radix (0 without passes): one thread
    /// each is the stage's natural thread count.
    pub fn widest_pass(&self) -> usize {
        self.radices.iter().copied().max().map_or(0, |r| self.butterflies(r))
    }

    /// Butterflies in one of the stage's passes of radix `radix`, all sub-rows together.
    pub fn butterflies(&self, radix: usize) -> usize {
        self.subrows * self.len.div_ceil(radix)
    }
}

impl Core {
    /// Whether a Bluestein core with blocks of `threads_per_block` threads runs faster under
    /// the two-block launch bound (see BLUESTEIN_REGISTER_FLOOR). In f32, only where the
    /// bound leaves exactly the floor (256-thread blocks) and for power-of-two convolutions
    /// over the whole row (2048 points with 128 threads 1.02x with it, 4096 with 256 1.20x):
    /// smaller blocks of other convolutions ran faster without it (C2C 1.08x over 249
    /// lengths of 128..252 threads, worst 0.96x; R2C and C2R 1.09x over 414 each). In f64
    /// always: without it the same 249 C2C lengths ran 0.92x. (Twenty-fourth session,
    /// docs/BENCHMARKS.md.)
    pub(crate) fn bluestein_two_block_bound_pays(&self, threads_per_block: u32, precision: Precision) -> bool {
        let Core::Bluestein { len, factor, conv_len, .. } = self else { return false };
        precision == Precision::F64
            || threads_per_block == REGISTERS_PER_MULTIPROCESSOR / (2 * BLUESTEIN_REGISTER_FLOOR)
            || (factor == len && conv_len.is_power_of_two())
    }

    /// The core for a transform of length `len`: Stockham when every prime factor has a
    /// codelet, else Rader or Bluestein (see the rules below); radices by [`pack_radices`]
    /// (Bluestein's power-of-two-leaning convolutions by products up to 16, which measured
    /// faster there), or composite radices packed up to `radix_cap` when one is given.
    /// `model`: [`StockhamModel::CONTIGUOUS_ROWS`] for contiguous rows, STRIDED_GRID_RADER for
    /// strided passes.
    pub(crate) fn design(len: usize, radix_cap: Option<usize>, model: StockhamModel) -> Core {
        let stockham = match radix_cap {
            None => pack_radices(len, MAX_PRIME_RADIX, model),
            Some(cap) => pack_radices_capped(len, MAX_PRIME_RADIX, cap),
        };
        if let Some(radices) = stockham {
            return Core::Stockham { len, radices };
        }
        let conv_len = whole_row_bluestein_len(len);
        let cap = radix_cap.unwrap_or(MAX_COMPOSITE_RADIX);
        let whole = || Core::bluestein(len, len, conv_len, cap).expect("Bluestein lengths are 7-smooth");
        let prime = largest_prime_factor(len);
        // Bluestein on the largest prime factor only: its convolutions are about as long in
        // all as the whole row's (2 len), but shorter ones take fewer passes and their tables
        // are shorter.
        let on_factor = || (prime < len).then(|| Core::bluestein(len, prime, bluestein_len(prime), cap)).flatten();
        // Just below half a power of two, Bluestein's convolution is a power of two with
        // hardly any padding, and it ran faster than Rader on an H200 (N = 127 1.8x, 4093
        // 1.2x, 4087 and 2042 too; 4001, at 2.05x padding, ran 1.2x slower). Since the Rader
        // kernels' changes of the thirty-fifth to thirty-ninth sessions, that holds for rows of
        // one or two DFTs of their prime only: with three or more, Rader ran 1.2x to 2.1x
        // faster at 22 of 23 lengths (forty-third session); not 4087 = 61 x 67 (0.26x), whose
        // radix-61 pass after the DFTs keeps it Bluestein.
        let snug = conv_len.is_power_of_two() && 100 * conv_len <= BLUESTEIN_SNUG_PERCENT * len;
        let dfts = len / prime;
        let rader_beats_snug = dfts >= 3 && largest_prime_factor(dfts) < MAX_PRIME_RADIX;
        match Core::rader(len, radix_cap) {
            Some(rader) if !snug || rader_beats_snug => rader,
            _ if snug => whole(),
            _ => on_factor().unwrap_or_else(whole),
        }
    }

    /// Rader's algorithm for the largest prime factor p of `len`: None when p - 1 has a prime
    /// factor above `rader_convolution_prime_limit` or len / p one above MAX_PRIME_RADIX, or
    /// when p - 1 fits one pass (p <= 17: a codelet does better). Radices by [`pack_radices`],
    /// or packed up to `radix_cap` when given.
    pub fn rader(len: usize, radix_cap: Option<usize>) -> Option<Core> {
        let prime = largest_prime_factor(len);
        Core::rader_up_to(len, radix_cap, rader_convolution_prime_limit(prime, len / prime))
    }

    /// [`Core::rader`] with convolution passes of prime codelets up to `max_convolution_prime`
    /// (the `rader` variant offers MAX_PRIME_RADIX, every codelet there is, to time the rule's
    /// limit against Bluestein).
    pub fn rader_up_to(len: usize, radix_cap: Option<usize>, max_convolution_prime: usize) -> Option<Core> {
        let prime = largest_prime_factor(len);
        let radices = |n: usize, max_prime: usize| match radix_cap {
            None => pack_radices(n, max_prime, StockhamModel::STRIDED_GRID_RADER),
            Some(cap) => pack_radices_capped(n, max_prime, cap),
        };
        let inner = radices(prime - 1, max_convolution_prime)?;
        let outer = radices(len / prime, MAX_PRIME_RADIX)?;
        (inner.len() >= 2).then_some(Core::Rader { len, prime, inner, outer })
    }

    /// Bluestein's algorithm for the DFTs of length `factor` (a factor of `len`; `len` itself
    /// for one DFT over the whole row) by convolutions of length `conv_len`, composite radices
    /// up to `radix_cap`: None when `factor` does not divide `len`, `conv_len` is shorter than
    /// 2 factor - 1, or it or len / factor has a prime factor above MAX_PRIME_RADIX.
    pub fn bluestein(len: usize, factor: usize, conv_len: usize, radix_cap: usize) -> Option<Core> {
        if factor == 0 || !len.is_multiple_of(factor) || conv_len + 1 < 2 * factor {
            return None;
        }
        let radices = pack_radices_capped(conv_len, MAX_PRIME_RADIX, radix_cap)?;
        let outer = pack_radices_capped(len / factor, MAX_PRIME_RADIX, radix_cap)?;
        Some(Core::Bluestein { len, factor, conv_len, radices, outer })
    }

    /// A grid of `shape` (each axis longer than 1) by Stockham passes along every axis: None
    /// where an axis has a prime factor above MAX_PRIME_RADIX (no codelet). `halved`: see
    /// [`Core::Grid`] (`shape` then ends with the halved axis's core length).
    pub fn grid(shape: &[usize], halved: Option<FftKind>) -> Option<Core> {
        // (An R2C grid reads its halved axis's lines in its first pass, in runs of m / R values
        // for a first radix R: the smallest radix first, or a staged load where the runs are
        // short, ran slower on an H200 at 9 of 12 shapes, e.g. 128 x 128 0.83x, f64 64 x 64
        // 0.80x; fourteenth session, docs/BENCHMARKS.md.)
        let radices = shape.iter().map(|&n| pack_radices(n, MAX_PRIME_RADIX, StockhamModel::STRIDED_GRID_RADER)).collect::<Option<Vec<_>>>()?;
        let halved = halved.filter(|&k| k != FftKind::C2C);
        (shape.len() >= 2 && shape.iter().all(|&n| n > 1)).then(|| Core::Grid { shape: shape.to_vec(), radices, halved })
    }

    /// The order in which a grid's stages run its axes (see `Core::stages`); empty for other
    /// cores.
    pub fn grid_axis_order(&self) -> Vec<usize> {
        let Core::Grid { shape, halved, .. } = self else { return Vec::new() };
        let last = shape.len() - 1;
        match halved {
            Some(FftKind::R2C) => std::iter::once(last).chain((0..last).rev()).collect(),
            _ => (0..shape.len()).collect(),
        }
    }

    /// Whether this is a real transform's grid (see `Core::Grid`'s `halved`), and which kind.
    pub fn real_grid(&self) -> Option<FftKind> {
        match self {
            Core::Grid { halved, .. } => *halved,
            _ => None,
        }
    }

    /// A grid's lines in shared memory: its shape, a real grid's last axis one longer (the
    /// half spectrum's m + 1 values per line); None for other cores.
    pub fn grid_extent(&self) -> Option<Vec<usize>> {
        let Core::Grid { shape, halved, .. } = self else { return None };
        let mut extent = shape.clone();
        if halved.is_some() {
            *extent.last_mut().expect("a grid has axes") += 1;
        }
        Some(extent)
    }

    /// Length of the transform.
    pub fn len(&self) -> usize {
        match self {
            Core::Stockham { len, .. } | Core::Bluestein { len, .. } | Core::Rader { len, .. } => *len,
            Core::Grid { shape, .. } => shape.iter().product(),
        }
    }

    /// Length of the cyclic convolutions Rader's or Bluestein's DFTs run (p - 1, or
    /// `conv_len`), whose passes have a twiddle table of their own.
    pub fn convolution_len(&self) -> Option<usize> {
        match self {
            Core::Rader { prime, .. } => Some(prime - 1),
            Core::Bluestein { conv_len, .. } => Some(*conv_len),
            Core::Stockham { .. } | Core::Grid { .. } => None,
        }
    }

    /// Whether Stockham passes run over the whole row (all but Rader's or Bluestein's DFT
    /// over the whole row).
    pub fn row_passes(&self) -> bool {
        match self {
            Core::Rader { outer, .. } | Core::Bluestein { outer, .. } => !outer.is_empty(),
            Core::Stockham { .. } | Core::Grid { .. } => true,
        }
    }

    /// Complex values of shared memory one transform occupies: its row (Bluestein: the
    /// convolutions; Rader: and one slot per length-prime DFT for its `X[0]`).
    pub fn region(&self) -> usize {
        match self {
            Core::Stockham { len, .. } => *len,
            Core::Grid { .. } => self.grid_extent().expect("a grid").iter().product(),
            Core::Bluestein { len, factor, conv_len, .. } => len / factor * conv_len,
            Core::Rader { len, prime, .. } => len + len / prime,
        }
    }

    /// The Stockham transforms the core runs, in order. Rader's and Bluestein's convolutions
    /// are two, forward and inverse, the inverse with the radices reversed: the values a
    /// butterfly of the forward's last pass writes are those one of the inverse's first reads,
    /// so the two may run as one pass (`FftTuning::fused_convolution`).
    pub fn stages(&self) -> Vec<Stage> {
        match self {
            Core::Stockham { len, radices } => vec![Stage::row(*len, radices)],
            // The m convolutions' lines interleave, value v of line u at u + m v: there the
            // input's value u + m v, the DFT's v-th, is loaded (at its own index, coalesced),
            // and a warp's accesses fall on consecutive values (see Stage::butterfly).
            Core::Bluestein { len, factor, conv_len, radices, outer } => {
                let lines = len / factor;
                let convolution = Stage { subrows: lines, step: lines, ..Stage::row(*conv_len, radices) };
                let mut stages = vec![convolution.clone(), convolution.reversed()];
                if !outer.is_empty() {
                    stages.push(Stage { ns0: *factor, ..Stage::row(*len, outer) });
                }
                stages
            }
            Core::Rader { len, prime, inner, outer } => {
                let convolution = Stage { len: prime - 1, radices: inner.clone(), ns0: 1, subrows: len / prime, first: 1, stride: *prime, step: 1, across: false };
                let rest = Stage { ns0: *prime, ..Stage::row(*len, outer) };
                vec![convolution.clone(), convolution.reversed(), rest]
            }
            // The first axis first: its lines interleave, so that its first pass reads (with
            // direct_io, global memory) consecutive values across a warp; the last axis last.
            // A real grid's halved axis comes first (R2C) or last (C2R), its lines m + 1
            // apart; R2C's other axes run from the last to the first, whose interleaved lines
            // write global memory in the longest runs.
            Core::Grid { shape, radices, .. } => {
                let extent = self.grid_extent().expect("a grid");
                let points: usize = extent.iter().product();
                let stage = |d: usize| {
                    let step: usize = extent[d + 1..].iter().product();
                    Stage { len: shape[d], radices: radices[d].clone(), ns0: 1, subrows: points / extent[d], first: 0, stride: extent[d] * step, step, across: false }
                };
                self.grid_axis_order().into_iter().map(stage).collect()
            }
        }
    }

    /// The stages the thread count is fitted to: Bluestein on a factor fits its convolutions,
    /// the longest work, and its outer passes (m/2 to m butterflies per DFT of the row) take
    /// turns; every stage elsewhere.
    pub fn thread_stages(&self) -> Vec<Stage> {
        let mut stages = self.stages();
        if matches!(self, Core::Bluestein { .. }) {
            stages.truncate(1);
        }
        stages
    }

    /// Each distinct radix of [`Core::thread_stages`]' passes with its butterflies per row, in
    /// pass order.
    pub fn pass_butterflies(&self) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for s in self.thread_stages() {
            for &r in &s.radices {
                let pass = (r, s.butterflies(r));
                if !out.contains(&pass) {
                    out.push(pass);
                }
            }
        }
        out
    }

    /// Threads for one round in every pass where `threads` leave a second round to a pass of
    /// at most `most` (numerator, denominator) times as many butterflies: the butterflies of
    /// the widest such pass; None where no pass has more butterflies than `threads`, or only
    /// passes with more than that.
    pub(crate) fn nearly_even_threads(&self, threads: u32, most: (u32, u32)) -> Option<u32> {
        let (num, den) = most;
        self.pass_butterflies().into_iter().map(|(_, b)| b as u32).filter(|&b| b > threads && den * b <= num * threads).max()
    }

    /// The radix of the first pass (of `pass_butterflies`), None for a core without passes.
    pub fn first_radix(&self) -> Option<usize> {
        self.pass_butterflies().first().map(|&(radix, _)| radix)
    }

    /// How this core's composite codelets split unless a variant says otherwise: into coprime
    /// factors where that takes fewer instructions in f32 Bluestein rows, the kind where that
    /// first measured faster on average (fiftieth session; see `CodeletSplit`), and in f32
    /// Rader rows of several DFTs since they take their fewest passes (fifty-fifth session,
    /// rader_tuning.rs: `prime-factor codelets` beside the pick over 393 rows of six DFTs or
    /// more 1.02x, 9 of them slower than 0.97x; a same-run A/B of the rule 1.017x C2C over 322
    /// lengths, R2C 1.023x and C2R 1.019x over 127); elsewhere Cooley-Tukey, and the
    /// `prime-factor codelets` variant where the wisdom found it faster.
    pub fn codelet_split_rule(&self, precision: Precision) -> CodeletSplit {
        match (self, precision) {
            (Core::Bluestein { .. }, Precision::F32) => CodeletSplit::FewestInstructions,
            (Core::Rader { len, prime, .. }, Precision::F32) if len / prime >= RADER_FEWER_PASSES_MIN_DFTS => CodeletSplit::FewestInstructions,
            _ => CodeletSplit::CooleyTukey,
        }
    }

    /// Every radix a codelet is needed for, ascending.
    pub fn codelet_radices(&self) -> Vec<usize> {
        let mut radices: Vec<usize> = self.stages().into_iter().flat_map(|s| s.radices).collect();
        radices.sort_unstable();
        radices.dedup();
        radices
    }

    /// Stockham passes the core runs.
    pub fn passes(&self) -> usize {
        self.stages().iter().map(|s| s.radices.len()).sum()
    }

    /// The algorithm and radices as they appear in a kernel's name: `r16x16`,
    /// `bluestein8192_r16x16x16x2`, `bluestein2100_r15x14x10_o2` (two DFTs of 1031 points by
    /// convolutions of 2100, then a radix-2 pass), `rader4001_r10x10x10x4` (one DFT of 4001 points per row),
    /// `rader67_r11x6_o61` (61 of 67 points, then a radix-61 pass), `grid64x64_r16x4_r16x4`
    /// (a 64 x 64 grid, radices per axis), `realgrid64x64_r16x4_r16x2` (a real 64 x 64 grid: a
    /// 64 x 32 core).
    pub(crate) fn label(&self) -> String {
        let join = |r: &[usize]| if r.is_empty() { "1".to_string() } else { radices_text(r) };
        match self {
            Core::Stockham { radices, .. } => format!("r{}", join(radices)),
            Core::Bluestein { conv_len, radices, outer, .. } if outer.is_empty() => format!("bluestein{conv_len}_r{}", join(radices)),
            Core::Bluestein { conv_len, radices, outer, .. } => format!("bluestein{conv_len}_r{}_o{}", join(radices), join(outer)),
            Core::Rader { prime, inner, outer, .. } if outer.is_empty() => format!("rader{prime}_r{}", join(inner)),
            Core::Rader { prime, inner, outer, .. } => format!("rader{prime}_r{}_o{}", join(inner), join(outer)),
            Core::Grid { shape, radices, halved } => {
                let axes: Vec<String> = radices.iter().map(|r| format!("_r{}", join(r))).collect();
                // A real grid by its reals' shape: realgrid64x64 runs a 64 x 32 core.
                let mut lens = shape.clone();
                let kind = if halved.is_some() {
                    *lens.last_mut().expect("a grid has axes") *= 2;
                    "realgrid"
                } else {
                    "grid"
                };
                format!("{kind}{}{}", join(&lens), axes.concat())
            }
        }
    }
}

/// Bluestein's convolution counts as snug, and is preferred to Rader's, when it is a power
/// of two at most this many percent of the transform's length.
const BLUESTEIN_SNUG_PERCENT: usize = 202;

/// Radices as kernel names and variant names spell them: `16x16x4`.
pub fn radices_text(radices: &[usize]) -> String {
    radices.iter().map(|r| r.to_string()).collect::<Vec<_>>().join("x")
}
