//! Rows that are not contiguous: where a single-launch kernel finds the values of its
//! transforms when they run along a strided axis (the passes of multi-dimensional and
//! four-step transforms), and the four-step twiddle its last writes may apply.
//!
//! Value i of row b lies at `offset(b) + i * stride`, with b split into the indices of the
//! batch dimensions (the first one fastest) and `offset(b) = sum of index_d * stride_d`.
//! Input and output have their own strides, so a pass may read columns and write rows.
//!
//! Real transforms run on the same complex core: a pass may read real values (R2C's first:
//! the imaginary parts are zero) or a half spectrum (C2R's first: the missing coefficients
//! are the conjugates of their mirror images), and write real parts (C2R's last) or only the
//! half spectrum (R2C's last). Each element is still read and written once; the core does
//! twice the arithmetic of a packed real transform (felt: R2C's pass A of 2^16 points took
//! 213 us on an H200 against 146 us for C2C's moving the same bytes, sixteenth session).
//! Between the passes of a split real axis only half the complex values are kept: R2C's last
//! pass writes some of its coefficients to their mirror images (`HalfAxis::mirror_writes`),
//! C2R's last reads half spectra of its own rows. Where a long real axis's reals pair up, it
//! runs instead as the complex axis of half its length with a packed side ([`PackedAxis`]),
//! half the arithmetic.

use super::problem::{FftKind, FftProblem, Precision};
use super::factor::{is_smooth, StockhamModel, LARGEST_COMPOSITE_CODELET};
use super::fewer_passes::fewest_pass_radices;
use super::recipe::{complex_bytes, DeviceLimits, FftRecipe, TwiddleSource};
use super::transform_core::Core;
use super::tables::RootDigits;
use crate::error::{Error, Result};
use crate::kernel::cache::hash_parts;

/// Bytes of neighbouring rows a strided pass's block reads together: 128, a whole line, where
/// shared memory allows (16 complex f32 rows, 8 complex f64). On an H200 (`bench fft --suite
/// strided`, [batch, L, 256] axis 1) 16 f32 rows ran at 0.91-0.97 of copy for L <= 512, 8 at
/// 0.65-0.80 and 4 at 0.50-0.63; at L = 1024 and 2048 the most rows that fit ran best too
/// (0.67 with 16, 0.50 with 8; fifty-second session 0.87 and 0.67), though a block then fills
/// a multiprocessor alone. Fewer rows a block launched as thread-block clusters, so that the
/// blocks reading one line start together, ran no faster (fifty-second session).
const STRIDED_RUN_BYTES: u64 = 128;

/// Bytes of neighbouring rows a strided pass's block reads together where its rows start off
/// 32-byte sectors (`StridedIo::rows_start_off_sectors`: the odd widths of half spectra, 129,
/// 257, 1025 complex values a row), so that a row's run straddles one sector more than it
/// fills: 256, where three blocks of them still fit a multiprocessor and the rows are
/// 13-smooth. Same-run A/Bs on an H200 (seventy-third session, docs/BENCHMARKS.md), 32 f32
/// rows (16 f64) against 16 (8), 256- and 128-point passes of three blocks or more: R2C/C2R
/// f32 256^3 1.018x/1.065x, f64 1.038x/1.030x; 256^2 x512 f32 1.028x/1.094x (C2R 0.99x -> 1.08x
/// cuFFT); f64 8192^2 1.064x/1.067x. Not taken where the wider block would leave one block a
/// multiprocessor (512-point passes, 132 KiB), which ran slower or faster by case (R2C f32
/// 1024^2 0.906x, 512^3 0.966x; C2R f32 1024^2 0.954x, 512^3 1.095x), nor for radix-17 rows
/// (69649's 17 x 17 pass: 0.937x).
const MISALIGNED_RUN_BYTES: u64 = 256;

/// Bytes of a sector, the unit in which global memory moves between L2 and device memory.
const SECTOR_BYTES: u64 = 32;

/// Whether values `stride` elements of `bytes` bytes apart (rows of that many values) start
/// off sectors: where a run of neighbouring rows straddles one sector more than it fills.
pub(super) fn starts_off_sectors(stride: usize, bytes: u64) -> bool {
    !(stride as u64 * bytes).is_multiple_of(SECTOR_BYTES)
}

/// One dimension of a pass's batch: `count` rows, `input` and `output` elements apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BatchDim {
    pub count: usize,
    pub input: usize,
    pub output: usize,
}

/// Four-step: the last writes multiply value k of row b by e^{-2 pi i j k/len}, j the index
/// of batch dimension `dim` of row b (the transform's other index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StepTwiddle {
    pub len: usize,
    pub dim: usize,
}

/// What one side of a pass holds. Strides and offsets count elements of that type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Values {
    /// Complex values, all of them.
    #[default]
    Complex,
    /// Real values: read with a zero imaginary part, or written as the real part.
    Real,
    /// The half spectrum of a real axis: only its coefficients 0..=len/2 are stored.
    Half(HalfAxis),
    /// The half spectrum of a real axis whose reals are transformed as complex pairs (R2C's
    /// last pass, C2R's first; see [`PackedAxis`]).
    Packed(PackedAxis),
    /// Two real rows as one complex row, z = x + i y (see [`RealPairs`]): read so by R2C's
    /// first pass, written so by C2R's last.
    RealPairs(RealPairs),
    /// Two half spectra read as one complex row, Z\[g\] = X\[g\] + i Y\[g\], each coefficient as
    /// `Half` reads it (C2R's first pass; see [`RealPairs`]).
    HalfPairs(HalfAxis, RealPairs),
}

/// Two rows of a real transform run as one complex row: z = x + i y on the reals' side. Its
/// spectrum Z = X + i Y holds both rows' spectra, taken apart as X\[k\] = (Z\[k\] + conj Z\[N-k\])/2
/// and Y\[k\] = (Z\[k\] - conj Z\[N-k\])/2i in a pass of its own (real_pairs.rs). Batch dimension
/// `dim` counts the pairs: of its c rows, pair j < ceil(c/2) takes rows j and j + c -
/// ceil(c/2), the second `partner` elements after the first. With `shared_first` (c odd) pair
/// 0's second row is also the last pair's first: read twice, written by the last pair only.
/// Half the arithmetic of the complex transform of each row, and half the bytes between its
/// passes, where Bluestein runs a real axis over passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RealPairs {
    pub dim: usize,
    pub partner: usize,
    pub shared_first: bool,
}

impl RealPairs {
    /// Rows `count` of a batch dimension `stride` elements apart, as pairs in dimension
    /// `dim`: ceil(count/2) of them, and the pairing.
    pub fn of(dim: usize, count: usize, stride: usize) -> (usize, RealPairs) {
        let pairs = count.div_ceil(2);
        (pairs, RealPairs { dim, partner: (count - pairs) * stride, shared_first: count % 2 == 1 })
    }

    /// After a four-step split inserted a batch dimension at `at`.
    pub fn shifted(self, at: usize) -> RealPairs {
        RealPairs { dim: if self.dim >= at { self.dim + 1 } else { self.dim }, ..self }
    }
}

/// Where value i of row b lies along the whole axis a pass helps transform: a four-step
/// split scatters that index over the row and some batch dimensions, as
/// `g = i * row + sum of index_d * dims[d]` (index_d: row b's index in batch dimension d).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AxisIndex {
    pub row: usize,
    pub dims: Vec<usize>,
}

impl AxisIndex {
    /// The axis itself, as the rows of a pass with `dims` batch dimensions across it.
    pub fn whole(dims: usize) -> Self {
        AxisIndex { row: 1, dims: vec![0; dims] }
    }

    /// g of value i of row b, as the kernel computes it (tests and checks).
    pub fn of(&self, batch: &[BatchDim], b: usize, i: usize) -> usize {
        let mut rest = b;
        let mut g = i * self.row;
        for (d, w) in batch.iter().zip(&self.dims) {
            g += (rest % d.count) * w;
            rest /= d.count;
        }
        g
    }

    /// After a four-step split of the row: its index counts `factor` times more, and the
    /// new batch dimension at `at` takes the row's old weight.
    pub fn split(&self, factor: usize, at: usize) -> Self {
        let mut dims = self.dims.clone();
        dims.insert(at, self.row);
        AxisIndex { row: self.row * factor, dims }
    }

    /// Whether g is just the value's index in its row.
    pub fn is_row(&self) -> bool {
        self.row == 1 && self.dims.iter().all(|&w| w == 0)
    }
}

/// Where a pass's values lie on the halved axis of a real transform: value i of row b is
/// coefficient g = `at`.of(b, i) of `len`. A read of g > len/2 takes conj(X[len - g]), `unit`
/// elements per coefficient away; a write of g > len/2 is dropped, or, with `mirror_writes`,
/// may go to its mirror image.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HalfAxis {
    pub len: usize,
    pub unit: usize,
    pub at: AxisIndex,
    /// Some(m): the pass computes only the coefficients g with g mod m <= m/2 (R2C's last
    /// pass after a pass A that kept half of each real row's spectrum, `AxisJob::split`).
    /// A write of g > len/2 whose mirror image len - g no row computes (0 < g mod m < m/2)
    /// stores conj(X\[g\]) = X\[len - g\] there; the others are dropped.
    pub mirror_writes: Option<usize>,
}

impl HalfAxis {
    /// The half spectrum of an axis of `len` coefficients, `unit` elements apart, as the
    /// rows of a pass with `dims` batch dimensions across it.
    pub fn whole(len: usize, unit: usize, dims: usize) -> Self {
        HalfAxis { len, unit, at: AxisIndex::whole(dims), mirror_writes: None }
    }
}

/// The half spectrum X[0..=len/2] of a real axis of even `len` points transformed over passes
/// as the complex axis of m = len/2 points z\[n\] = x\[2n\] + i x\[2n+1\] (the reals read or written
/// in pairs, as complex values): value i of row b is Z\[g\], g = `at`.of(b, i) < m, of that
/// complex transform. Its rows hold g = K + P i, K = b mod P the row's column (P = `at.row`,
/// see [`PackedAxis::columns`]); X\[g\] needs Z\[g\] and Z\[m - g\], which lie in the column P - K
/// (mod P), value n - 1 - i (column 0: value (n - i) mod n). A pass with such a side takes
/// the rows of columns K and P - K in one block (`PackedBlocks`):
/// - R2C's last pass writes X\[g\] = (Z\[g\] + conj Z\[m-g\])/2 - i w^g (Z\[g\] - conj Z\[m-g\])/2,
///   w = e^{-2 pi i/len}, and from column 0 also X\[m\] = Re Z\[0\] - Im Z\[0\] (value n of its row);
/// - C2R's first pass reads X\[g\] (and X\[m\], value n of column 0's row) and transforms
///   Z\[g\] = (X\[g\] + conj X\[m-g\]) + i w^-g (X\[g\] - conj X\[m-g\]), whose inverse is z.
///
/// The complex transform moves the same bytes as a real split (`AxisJob::real_split`) with
/// half the arithmetic, and its passes are C2C's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PackedAxis {
    pub len: usize,
    pub at: AxisIndex,
}

impl PackedAxis {
    /// P, the columns of a pass's rows, where row b's column is b mod P: the batch dimensions
    /// `at` weighs come first, as the digits of g below P (weights 1, count_0, count_0 count_1,
    /// ...), and the others weigh nothing. None for any other layout.
    pub fn columns(&self, batch: &[BatchDim]) -> Option<usize> {
        let mut p = 1;
        let mut weighted = true;
        for (d, &w) in batch.iter().zip(&self.at.dims) {
            match (weighted, w) {
                (_, _) if d.count == 1 => {}
                (true, w) if w == p => p *= d.count,
                (_, 0) => weighted = false,
                _ => return None,
            }
        }
        (p == self.at.row && p >= 2).then_some(p)
    }
}

/// How a pass with a packed side (see [`PackedAxis`]) lays its rows into blocks: each block
/// holds `pairs` columns K of one array, K from tile * pairs up to P/2, in slots 0..pairs, and
/// their mirror columns P - K in slots 2 pairs - 1 down to pairs (slot 2 pairs - 1 - s holds
/// the mirror of slot s), so that both halves of the block are runs of neighbouring rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackedBlocks {
    /// P: the columns of one array.
    pub columns: usize,
    /// Columns K <= P/2 a block takes (half its rows).
    pub pairs: usize,
    /// Arrays: rows / P.
    pub arrays: usize,
}

impl PackedBlocks {
    /// Blocks per array.
    pub fn tiles(&self) -> usize {
        (self.columns / 2 + 1).div_ceil(self.pairs)
    }

    pub fn blocks(&self) -> usize {
        self.arrays * self.tiles()
    }
}

/// Bluestein's algorithm over passes, for an axis of `len` points whose prime factor is too
/// large for one launch. Its DFT is `X[k] = c[k] (sum of x[n] c[n] conj(c[k - n]))`, with
/// `c[n] = e^{-pi i n^2/len}`: a cyclic convolution of `conv_len` points (a smooth length of at least
/// 2 len - 1), run as two forward transforms of conv_len points. The pointwise steps ride on
/// the first read and the last writes of their passes; `at` gives each value's index g along
/// the convolution's axis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Chirp {
    pub step: ChirpStep,
    pub len: usize,
    pub conv_len: usize,
    pub at: AxisIndex,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChirpStep {
    /// The first read: `x[g] c[g]` for g < len, zero for the padding past it.
    Signal,
    /// The first transform's last write: `conj(V[g] B[g])`, B the filter's spectrum divided by
    /// conv_len (`tables::bluestein_filter_spectrum`). The conjugate turns the second forward
    /// transform into the inverse one.
    Filter,
    /// The second transform's last write: `conj(v[g]) c[g]` for g < len; the rest is dropped.
    Spectrum,
}

/// How a strided pass addresses global memory (see the module's text).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StridedIo {
    /// Distance between consecutive values of a row in the input, in elements.
    pub input_stride: usize,
    pub output_stride: usize,
    /// The batch, fastest dimension first; the rows' count is the product of the counts.
    pub batch: Vec<BatchDim>,
    pub twiddle: Option<StepTwiddle>,
    /// What the input holds and the output receives: complex values, unless the pass is the
    /// first or last of a real transform.
    pub input_values: Values,
    pub output_values: Values,
    /// Bluestein over passes: the chirp on the first pass's reads (`ChirpStep::Signal`), the
    /// filter or the chirp on the last passes' writes.
    pub input_chirp: Option<Chirp>,
    pub output_chirp: Option<Chirp>,
    /// Bluestein over passes, the first transform's last pass and the second's first in one
    /// launch (`ChirpStep::Filter`): each row is transformed, its values times the filter's
    /// spectrum (conjugated, as that step's writes have it), and transformed again over the
    /// same points, in the order of the first transform's output; then written with the
    /// four-step twiddle of the second transform's pass A. One read and write of the padded
    /// array fewer (see `Planner::fuse_filter_pass`).
    pub between: Option<Chirp>,
}

/// One side (input or output) of a pass: value i of row b at offset(b) + i * stride.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideLayout {
    pub stride: usize,
    /// (count, stride) per batch dimension, fastest first, merged where one continues
    /// another; the last count is unused (rows beyond it are not asked for).
    pub dims: Vec<(usize, usize)>,
}

impl SideLayout {
    /// One side of rows `stride` apart in their values and batched as `batch` says, each
    /// dimension `of` elements apart on this side.
    pub fn of(batch: &[BatchDim], stride: usize, of: impl Fn(&BatchDim) -> usize) -> SideLayout {
        let mut dims: Vec<(usize, usize)> = Vec::new();
        for d in batch.iter().filter(|d| d.count > 1) {
            match dims.last_mut() {
                // A dimension that continues the previous one merges into it.
                Some(last) if last.0 * last.1 == of(d) => last.0 *= d.count,
                _ => dims.push((d.count, of(d))),
            }
        }
        if dims.is_empty() {
            dims.push((1, 0));
        }
        SideLayout { stride, dims }
    }

    /// Rows one after another, `row_stride` apart, values contiguous: read and written
    /// row by row (consecutive threads take consecutive values of a row).
    pub fn contiguous_rows(&self) -> Option<usize> {
        (self.stride == 1 && self.dims.len() == 1).then_some(self.dims[0].1)
    }
}

impl StridedIo {
    /// Complex values both ways, `stride` apart on both sides, rows at `batch`; no twiddle,
    /// no chirp: a plain strided C2C pass.
    pub fn complex(stride: usize, batch: Vec<BatchDim>) -> Self {
        StridedIo {
            input_stride: stride,
            output_stride: stride,
            batch,
            twiddle: None,
            input_values: Values::Complex,
            output_values: Values::Complex,
            input_chirp: None,
            output_chirp: None,
            between: None,
        }
    }

    /// Rows in the batch.
    pub fn rows(&self) -> usize {
        self.batch.iter().map(|d| d.count).product()
    }

    pub fn input(&self) -> SideLayout {
        self.side(self.input_stride, |d| d.input)
    }

    pub fn output(&self) -> SideLayout {
        self.side(self.output_stride, |d| d.output)
    }

    fn side(&self, stride: usize, of: impl Fn(&BatchDim) -> usize) -> SideLayout {
        SideLayout::of(&self.batch, stride, of)
    }

    /// The Bluestein steps this pass takes: on its reads, between its two transforms, then
    /// on its writes.
    pub fn chirps(&self) -> impl Iterator<Item = &Chirp> {
        self.input_chirp.iter().chain(&self.between).chain(&self.output_chirp)
    }

    /// The Bluestein step that multiplies by the chirp (its tables hold e^{-pi i g^2/len}).
    pub fn chirp_step(&self) -> Option<&Chirp> {
        self.chirps().find(|c| c.step != ChirpStep::Filter)
    }

    /// The Bluestein step that multiplies by the filter's spectrum (a table of conv_len values).
    pub fn filter_step(&self) -> Option<&Chirp> {
        self.chirps().find(|c| c.step == ChirpStep::Filter)
    }

    /// Whether the pass computes its four-step twiddle as sincospi(2m/len) instead of reading
    /// it from the tables of m's digits (`RootDigits`): in f32, for powers of two from 2^21 to
    /// 2^24, where the tables take three digits (three scattered loads a value) and 2m/len is
    /// exact in f32 (m < 2^24); not where the input is packed (C2R's first pass). Same-run A/B
    /// on an H200 (thirty-fourth session, `bench fft --suite large-1d`): C2C 2^21..2^24 and
    /// R2C 2^22..2^25 2.4-4.1% faster; C2R 2^22 1.2% slower, 2^23 and 2^24 no different.
    /// Computing every step twiddle instead, of two digits too, made 2^20 2% slower and
    /// 4096^2 5% (its R2C 14%), though 2^16 2% faster: there two loads from L1 mostly cost
    /// less than a sincospi's arithmetic.
    pub fn computes_twiddle(&self, precision: Precision) -> bool {
        self.twiddle.is_some_and(|t| {
            precision == Precision::F32 && t.len.is_power_of_two() && t.len <= 1 << 24 && RootDigits::of(t.len).digits >= 3
        }) && !matches!(self.input_values, Values::Packed(_))
    }

    /// The digit tables this pass reads its four-step twiddle from: None where it has no
    /// twiddle or computes it ([`StridedIo::computes_twiddle`]).
    pub fn twiddle_tables(&self, precision: Precision) -> Option<RootDigits> {
        self.twiddle.filter(|_| !self.computes_twiddle(precision)).map(|t| RootDigits::of(t.len))
    }

    /// The side read or written as pairs of real rows (see [`RealPairs`]), if any.
    pub fn pairs(&self) -> Option<&RealPairs> {
        [&self.input_values, &self.output_values].into_iter().find_map(|v| match v {
            Values::RealPairs(p) | Values::HalfPairs(_, p) => Some(p),
            _ => None,
        })
    }

    /// The packed side (see [`PackedAxis`]): R2C's output or C2R's input.
    pub fn packed(&self) -> Option<&PackedAxis> {
        match (&self.input_values, &self.output_values) {
            (Values::Packed(p), _) | (_, Values::Packed(p)) => Some(p),
            _ => None,
        }
    }

    /// How a pass with a packed side and `rows_per_block` rows a block lays out its blocks.
    pub fn packed_blocks(&self, rows_per_block: usize) -> Option<PackedBlocks> {
        let p = self.packed()?;
        let columns = p.columns(&self.batch)?;
        Some(PackedBlocks { columns, pairs: rows_per_block / 2, arrays: self.rows() / columns })
    }

    /// Rows taken next to each other in a block are consecutive in the fastest batch
    /// dimension: `count` of them, at most.
    pub fn fastest_count(&self) -> usize {
        self.batch.iter().find(|d| d.count > 1).map_or(1, |d| d.count)
    }

    /// Whether complex values on both sides come in contiguous runs of rows (the fastest
    /// batch dimension one element apart) whose values start off 32-byte sectors on either
    /// side: a value's stride of `bytes`-byte elements not a multiple of 32 bytes.
    pub fn rows_start_off_sectors(&self, bytes: u64) -> bool {
        let complex = self.input_values == Values::Complex && self.output_values == Values::Complex;
        let runs = self.batch.iter().find(|d| d.count > 1).is_some_and(|d| d.input == 1 && d.output == 1);
        complex && runs && (starts_off_sectors(self.input_stride, bytes) || starts_off_sectors(self.output_stride, bytes))
    }

    /// Elements a side spans for rows of `len` values in runs of `run` (see
    /// [`FftRecipe::strided_run`]): the buffer must hold at least this many.
    pub fn span(&self, len: usize, run: usize, side: &SideLayout) -> Option<usize> {
        let runs = len.checked_div(run)?;
        let mut last = runs.checked_sub(1)?.checked_mul(side.stride)?.checked_add(run - 1)?;
        for (count, stride) in &side.dims {
            last = last.checked_add((count - 1).checked_mul(*stride)?)?;
        }
        last.checked_add(1)
    }

    /// A short, stable tag of the layout for kernel names.
    pub fn tag(&self) -> String {
        let text = format!("{self:?}");
        format!("s{}", &hash_parts(&[&text])[..10])
    }

    /// Rejects layouts a kernel cannot address: rows of `len` values in runs of `run`.
    pub fn validate(&self, len: usize, run: usize) -> Result<()> {
        if run == 0 || !len.is_multiple_of(run) {
            return Err(Error::invalid(format!("strided FFT rows of {len} values cannot lie in runs of {run}")));
        }
        if self.input_stride == 0 || self.output_stride == 0 || self.batch.iter().any(|d| d.count == 0) {
            return Err(Error::invalid(format!("strided FFT pass with a zero stride or count: {self:?}")));
        }
        for values in [&self.input_values, &self.output_values] {
            match values {
                Values::Half(h) | Values::HalfPairs(h, _) if h.at.dims.len() != self.batch.len() || h.len == 0 => {
                    return Err(Error::invalid(format!("half-spectrum axis {h:?} for a batch of {} dimensions", self.batch.len())));
                }
                _ => {}
            }
        }
        // Pairs of real rows: one side, read (reals or half spectra) or written (reals), in a
        // batch dimension of the pass, and no four-step twiddle on paired writes.
        let paired = |v: &Values| matches!(v, Values::RealPairs(_) | Values::HalfPairs(..));
        if let Some(p) = self.pairs() {
            let written_half = matches!(self.output_values, Values::HalfPairs(..));
            let both = paired(&self.input_values) && paired(&self.output_values);
            let twiddled_writes = self.twiddle.is_some() && paired(&self.output_values);
            if p.dim >= self.batch.len() || p.partner == 0 || both || written_half || twiddled_writes {
                return Err(Error::invalid(format!("pairs of real rows {p:?} on a pass of {len}-point rows over {:?}", self.batch)));
            }
        }
        if let Some(p) = self.packed() {
            // One packed side, no Bluestein step, no four-step twiddle on packed writes, and
            // rows whose columns and values make up the m = len/2 coefficients.
            let both = matches!((&self.input_values, &self.output_values), (Values::Packed(_), Values::Packed(_)));
            let twiddled_writes = self.twiddle.is_some() && self.output_values != Values::Complex;
            let columns = (p.at.dims.len() == self.batch.len()).then(|| p.columns(&self.batch)).flatten();
            if both || twiddled_writes || self.chirps().next().is_some() || columns.is_none_or(|c| c * len * 2 != p.len) {
                return Err(Error::invalid(format!("a packed real axis {p:?} on a pass of {len}-point rows over {:?}", self.batch)));
            }
        }
        for (chirp, values, read) in [(&self.input_chirp, &self.input_values, true), (&self.output_chirp, &self.output_values, false)] {
            let Some(c) = chirp else { continue };
            // One index per side: a half spectrum's coefficient is the chirp's g.
            let same_index = match values {
                Values::Half(h) | Values::HalfPairs(h, _) => h.at == c.at,
                _ => true,
            };
            if c.at.dims.len() != self.batch.len() || c.len == 0 || c.conv_len < 2 * c.len - 1 || (c.step == ChirpStep::Signal) != read || !same_index {
                return Err(Error::invalid(format!("Bluestein step {c:?} on the {} of a pass with {} batch dimensions", if read { "input" } else { "output" }, self.batch.len())));
            }
        }
        if let Some(c) = &self.between {
            // Between two transforms of the row: the filter, g = f0 + i * row, with one
            // filter step per pass.
            let filters = self.chirps().filter(|c| c.step == ChirpStep::Filter).count();
            if c.step != ChirpStep::Filter || c.at.dims.len() != self.batch.len() || c.conv_len < 2 * c.len - 1 || filters != 1 {
                return Err(Error::invalid(format!("Bluestein step {c:?} between the transforms of a pass with {} batch dimensions", self.batch.len())));
            }
        }
        if let Some(t) = self.twiddle
            && (t.dim >= self.batch.len() || t.len == 0)
        {
            return Err(Error::invalid(format!("four-step twiddle of dimension {} in a batch of {}", t.dim, self.batch.len())));
        }
        // A paired side reaches its partners' rows too.
        let partner = |v: &Values| match v {
            Values::RealPairs(p) | Values::HalfPairs(_, p) => p.partner,
            _ => 0,
        };
        for (side, values) in [(self.input(), &self.input_values), (self.output(), &self.output_values)] {
            if self.span(len, run, &side).and_then(|s| s.checked_add(partner(values))).is_none() {
                return Err(Error::SizeOverflow { count: self.rows() as u128, elem_size: len * 16 });
            }
        }
        Ok(())
    }
}

/// The radices of a strided f32 pass whose block fills a multiprocessor alone (`fills`: its
/// shared memory is more than half the block's limit, so no second block overlaps its loads
/// with its arithmetic): two passes of codelets of up to 32 points where the length allows
/// (13-smooth codelets), each thread holding a whole codelet's values: fewer threads and
/// barriers, more loads in flight a thread. Only for the lengths measured faster so.
/// Lengths whose strided f32 passes ran faster as two long codelets with a twiddle read per
/// value, 16 rows a block (`bench fft --suite strided`, H200, against the planner's core
/// without the rule): 900 = 30 x 30 0.907 of copy against 10 x 10 x 9's 0.697, 1024 = 32 x 32
/// 0.864 against 16 x 16 x 4's 0.841 (seventy-third session; 0.908 / 0.697 and 0.865 / 0.838
/// in the seventy-fifth). In the twenty-sixth session 864 = 32 x 27 and 896 = 32 x 28 ran
/// faster so too, but the planner's own cores have since overtaken them: 864 as 16 x 9 x 6
/// 0.913 / 0.918 against 0.885 / 0.886, 896 as 16 x 8 x 7 0.923 / 0.917 against 0.878 / 0.878
/// (seventy-third / seventy-fifth). 960 = 32 x 30 ran at 0.837 / 0.832 against 16 x 10 x 6's
/// 0.913 / 0.908 and keeps its three passes.
const TWO_LONG_CODELET_LENS: [usize; 2] = [900, 1024];

fn two_long_codelets(len: usize, precision: Precision, fills: bool) -> Option<Vec<usize>> {
    if precision != Precision::F32 || !fills || !TWO_LONG_CODELET_LENS.contains(&len) {
        return None;
    }
    fewest_pass_radices(len, LARGEST_COMPOSITE_CODELET).filter(|r| r.len() == 2 && r.iter().all(|&radix| is_smooth(radix, 13)))
}

/// Smallest last radix whose butterflies group their four-step twiddles: below it A G[a] F[c]
/// saves at most one twiddle of four.
const GROUPED_TWIDDLE_MIN_RADIX: usize = 8;

/// Smallest last radix of an f64 pass of several blocks a multiprocessor that groups them.
const GROUPED_TWIDDLE_MIN_RADIX_F64_SHARED: usize = 16;

impl FftRecipe {
    /// Whether this strided pass applies its four-step twiddles in its core's last radix pass,
    /// grouped as A G[a] F[c] (`FftTuning::grouped_step_twiddles`; codegen/strided.rs's
    /// `StepTwiddleGroups` writes them): a twiddled plain Stockham core (whose last pass writes
    /// value x of the row as x), no filter between two transforms, no packed side (whose
    /// blocks hold rows in slots), a last radix of at least 8; and where it was measured to pay,
    /// a block that has a multiprocessor to itself, or in f64 a last radix of at least 16.
    ///
    /// Why: a pass that holds a multiprocessor with one block overlaps none of its arithmetic
    /// with memory, and the per-value twiddle was a fifth of such a pass's time (2^20's first
    /// pass of 1024 points, 16 columns a block, on an H200: 0.196 ms with it, 0.160 ms without,
    /// 0.186 ms grouped). Same-run A/B on an H200 (sixty-seventh session): 2^21 f32 1.09x, 2^20
    /// f32 1.02x, f64 2^16 (256-point passes, several blocks a multiprocessor) 1.02x; f32
    /// passes of several blocks a multiprocessor, whose arithmetic overlaps other blocks' memory
    /// traffic, gained nothing (2^16 0.998x) or lost (2^25's 256-point middle pass: 0.982x over
    /// the transform); f64 radix-8 passes (2^22's 128-point ones) ran 0.994x, their registers
    /// up from 86 to 124 (scripts/sass.py) for 5 twiddles instead of 8.
    pub(super) fn groups_step_twiddles(&self, limits: DeviceLimits) -> bool {
        let Some(io) = &self.io else { return false };
        let Core::Stockham { radices, .. } = &self.core else { return false };
        let radix = radices.last().copied().unwrap_or(1);
        let can = io.twiddle.is_some() && io.between.is_none() && self.packed_blocks().is_none() && radix >= GROUPED_TWIDDLE_MIN_RADIX;
        let one_block = limits.blocks_by_shared_memory(self.shared_bytes()) < 2;
        can && (one_block || (self.problem.precision == Precision::F64 && radix >= GROUPED_TWIDDLE_MIN_RADIX_F64_SHARED))
    }

    /// A pass of `len`-point C2C transforms over rows laid out as `io` says: the contiguous
    /// design's core and threads per row, with as many neighbouring rows per block as make a
    /// 128-byte run (256 bytes where rows start off sectors: MISALIGNED_RUN_BYTES), fewer
    /// where their shared memory would not fit the device's block.
    pub fn design_strided(len: usize, precision: Precision, io: StridedIo, limits: DeviceLimits) -> Result<FftRecipe> {
        io.validate(len, 1)?;
        let problem = FftProblem { batch: io.rows(), ..FftProblem::c2c(len, 1) }.precision(precision);
        problem.validate()?;
        let mut r = FftRecipe::design_core(problem, None, StockhamModel::STRIDED_GRID_RADER, limits)?;
        let bytes = complex_bytes(precision);
        // R2C's packed last pass holds columns and their mirror images: a run of each (on an
        // H200 against a run of both, twenty-eighth session: R2C 2^16 and 2^17 f32 1.29x, 2^22
        // to 2^26 1.10-1.15x, f64 1.00-1.15x). C2R's packed first pass (which also twiddles)
        // keeps one run: two ran 0.90-0.97x at most lengths.
        let halves = if matches!(io.output_values, Values::Packed(_)) { 2 } else { 1 };
        let rows_for = |run: u64| rows_fitting((halves * (run / bytes) as usize).min(halves * io.fastest_count().next_power_of_two()), r.core.region(), bytes, limits);
        let shared = |rows: u32| interleaved_rows_bytes(rows, r.core.region(), bytes);
        let rows = match rows_for(MISALIGNED_RUN_BYTES) {
            wide if io.rows_start_off_sectors(bytes) && is_smooth(len, 13) && limits.blocks_by_shared_memory(shared(wide)) >= 3 => wide,
            _ => rows_for(STRIDED_RUN_BYTES),
        };
        // A packed real side pairs each block's rows with their mirror columns: two at least.
        if io.packed().is_some() && rows < 2 {
            return Err(Error::Unsupported(format!("a packed real pass of {len}-point rows needs two rows a block in shared memory")));
        }
        if let Some(radices) = two_long_codelets(len, precision, shared(rows) > limits.shared_bytes / 2) {
            r.tuning.threads_per_transform = (len / radices.iter().max().expect("two radices")) as u32;
            // A twiddle read per value: 31 powers of one read would compound its rounding
            // (1024 points on PoCL: 1.1e-7 relative error so, 3.9e-7 by powers, 1.8e-7 for
            // 16 x 16 x 4 by powers).
            r.tuning.twiddles = TwiddleSource::Table;
            r.core = Core::Stockham { len, radices };
        }
        let t = &mut r.tuning;
        t.transforms_per_block = rows;
        t.threads_per_transform = t.threads_per_transform.min((limits.max_threads / rows).max(1));
        t.direct_io = false;
        t.staged_store = false;
        t.drop_padding();
        t.min_blocks_per_sm = 1;
        // In place: ping-pong was measured on contiguous rows only, and strided blocks hold
        // many rows already.
        t.ping_pong = false;
        r.io = Some(io);
        let mut r = r.with_direct_columns();
        r.tuning.grouped_step_twiddles = r.groups_step_twiddles(limits);
        debug_assert_eq!(r.problem.kind, FftKind::C2C);
        r.check(limits)?;
        Ok(r)
    }

    /// A strided pass whose rows are grids of `shape` (see [`crate::fft::transform_core::Core::Grid`]),
    /// transformed along every axis: value i = a L + c of row b (L the product of the trailing
    /// axes) lies at offset(b) + a * stride + c, so that the grid's first axis strides as `io`
    /// says and the rest of it is a contiguous run of L values (see
    /// [`FftRecipe::strided_run`]). This is how the rows of a row-major array take on the first
    /// pass of a four-step split of the axis before them (nd_recipe.rs, `Planner::row_split`).
    /// The contiguous kernels' grid (its first axis read straight from global memory, its
    /// shared memory padded), one grid a block: only its global addresses and the four-step
    /// twiddle differ (codegen/io.rs).
    ///
    /// `kind` R2C: a real grid (`design_real_grid`), its last axis the reals' (read as pairs
    /// from `io`'s input, in reals) and its rows written as half spectra.
    pub fn design_strided_grid(shape: &[usize], kind: FftKind, precision: Precision, io: StridedIo, limits: DeviceLimits) -> Result<FftRecipe> {
        let mut r = match kind {
            FftKind::C2C => FftRecipe::design_grid(shape, io.rows(), precision, limits)?,
            kind => FftRecipe::design_real_grid(shape, io.rows(), kind, precision, limits)?,
        };
        r.tuning.transforms_per_block = 1;
        r.io = Some(io);
        // Its threads: as many as one of its passes has butterflies, the count that issues the
        // least work (ties keep the grid's own design). A [2, 1024] grid's radix-2 pass has
        // 1024 butterflies, its radix-16 ones 128: 128 threads, each pass in one round but the
        // radix-2 one in 8, not 512 mostly idle (1024^2 f32 ran 1.2x faster so on an H200,
        // fifteenth session).
        r.tuning.threads_per_transform = r.threads_of_least_work(limits.max_threads, TiedThreads::KeepOwn);
        // Large blocks: a launch bound that buys a second block a multiprocessor.
        let r = r.with_grid_launch_bound(limits);
        r.check(limits)?;
        Ok(r)
    }

    /// A strided pass whose rows are C2C grids of `shape`, transformed along every axis, with
    /// value i of a row (row-major in the grid) `io`'s stride apart as in any strided pass, and
    /// neighbouring rows (columns of the array) together in a block: two axes of an array in
    /// one pass where the outer one's stride is the inner one's times its length, so that the
    /// grid's values lie uniformly apart. A 128 x 128 x 256 transform so runs in two passes:
    /// its rows with pass A of the middle axis's four-step split (`design_strided_grid`), then
    /// the middle axis's last 4 points with the first axis's 128 as [128, 4] grids over columns
    /// (`Planner::row_split`, nd_recipe.rs), instead of three. A four-step twiddle applies to
    /// the grid's last axis (C2R's mirror: the first axis with pass A of the middle axis's
    /// split, `Planner::plan_rows_last`): value i of the row is multiplied as value i mod n of
    /// an n-point pass would be.
    ///
    /// Rows a block as `design_strided`'s (runs of STRIDED_RUN_BYTES, halved until the block
    /// fits shared memory); threads: those of one of the grid's passes, the count that issues
    /// the least work over the block's threads (fewer on ties).
    pub fn design_column_grid(shape: &[usize], precision: Precision, io: StridedIo, limits: DeviceLimits) -> Result<FftRecipe> {
        let len: usize = shape.iter().product();
        io.validate(len, 1)?;
        if io.input_values != Values::Complex || io.output_values != Values::Complex || io.input_chirp.is_some() || io.output_chirp.is_some() || io.between.is_some() {
            return Err(Error::invalid(format!("grids over columns are complex on both sides, without a Bluestein step: {io:?}")));
        }
        let mut r = FftRecipe::design_grid(shape, io.rows(), precision, limits)?;
        let bytes = complex_bytes(precision);
        let rows = rows_fitting(((STRIDED_RUN_BYTES / bytes) as usize).min(io.fastest_count().next_power_of_two()), len, bytes, limits);
        let t = &mut r.tuning;
        t.transforms_per_block = rows;
        t.direct_io = false;
        t.staged_store = false;
        t.drop_padding();
        t.min_blocks_per_sm = 1;
        t.ping_pong = false;
        t.grid_columns = true;
        r.io = Some(io);
        r.tuning.threads_per_transform = r.threads_of_least_work((limits.max_threads / rows).max(1), TiedThreads::Fewest);
        r.check(limits)?;
        Ok(r)
    }

    /// Threads a row for a grid pass: among the butterfly counts of the core's passes (at most
    /// `most` each), the count whose rows issue the least work (`issued_work`, idle threads
    /// counted), ties broken as `tied` says.
    fn threads_of_least_work(&self, most: u32, tied: TiedThreads) -> u32 {
        let mut r = self.clone();
        let own = self.tuning.threads_per_transform;
        let counts = self.core.pass_butterflies().into_iter().map(|(_, b)| (b as u32).clamp(1, most));
        let candidates: Vec<u32> = match tied {
            TiedThreads::KeepOwn => std::iter::once(own).chain(counts).collect(),
            TiedThreads::Fewest => counts.collect(),
        };
        let mut best: Option<(usize, u32)> = None;
        for threads in candidates {
            r.tuning.threads_per_transform = threads;
            let work = r.issued_work();
            let better = match (best, tied) {
                (None, _) => true,
                (Some((w, _)), TiedThreads::KeepOwn) => work < w,
                (Some(b), TiedThreads::Fewest) => (work, threads) < b,
            };
            if better {
                best = Some((work, threads));
            }
        }
        best.map_or(1, |b| b.1)
    }
}

/// Shared memory of a strided block of `rows` rows of `values` values of `bytes` each,
/// interleaved: rows + 1 apart (a spare slot against bank conflicts), a lone row unpadded.
fn interleaved_rows_bytes(rows: u32, values: usize, bytes: u64) -> u64 {
    let stride = if rows == 1 { 1 } else { rows as u64 + 1 };
    stride * values as u64 * bytes
}

/// Shared memory of a block of grids of `values` points over a whole run of columns
/// (STRIDED_RUN_BYTES: 16 f32, 8 f64), as `FftRecipe::design_column_grid` designs it where it fits.
pub(super) fn column_grid_bytes(values: usize, precision: Precision) -> u64 {
    let bytes = complex_bytes(precision);
    interleaved_rows_bytes((STRIDED_RUN_BYTES / bytes) as u32, values, bytes)
}

/// Rows a strided block takes: `wanted` (at least one), halved until their interleaved rows
/// (`interleaved_rows_bytes`) fit shared memory.
fn rows_fitting(wanted: usize, values: usize, bytes: u64, limits: DeviceLimits) -> u32 {
    let mut rows = wanted.max(1) as u32;
    while rows > 1 && interleaved_rows_bytes(rows, values, bytes) > limits.shared_bytes {
        rows /= 2;
    }
    rows
}

/// How `FftRecipe::threads_of_least_work` breaks a tie in work: the recipe's own count
/// (strided grids, as designed), or the fewest threads (grids over columns).
#[derive(Clone, Copy)]
enum TiedThreads {
    KeepOwn,
    Fewest,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_twiddles_are_computed_only_past_two_digits_where_exact() {
        let io = |len: usize, input_values: Values| StridedIo {
            input_stride: 1,
            output_stride: 1,
            batch: vec![BatchDim { count: 1, input: 1, output: 1 }],
            twiddle: Some(StepTwiddle { len, dim: 0 }),
            input_values,
            output_values: Values::Complex,
            input_chirp: None,
            output_chirp: None,
            between: None,
        };
        let computed = |len: usize, precision| io(len, Values::Complex).computes_twiddle(precision);
        assert!(computed(1 << 21, Precision::F32) && computed(1 << 24, Precision::F32));
        // Two digits: the tables were faster. Past 2^24, 2m/len is not exact in f32.
        assert!(!computed(1 << 20, Precision::F32) && !computed(4096, Precision::F32));
        assert!(!computed(1 << 25, Precision::F32));
        assert!(!computed(3 << 20, Precision::F32) && !computed(1 << 22, Precision::F64));
        // C2R's first pass, whose input is packed, did not gain.
        let packed = Values::Packed(PackedAxis { len: 1 << 23, at: AxisIndex::whole(1) });
        assert!(!io(1 << 22, packed).computes_twiddle(Precision::F32));
        assert!(!StridedIo { twiddle: None, ..io(1 << 22, Values::Complex) }.computes_twiddle(Precision::F32));
    }

    #[test]
    fn grids_over_columns_take_a_run_of_columns_a_block() {
        let lim = DeviceLimits::H200;
        // [128, 4] grids, values 8192 apart, over 256 x 32 neighbouring columns.
        let io = StridedIo::complex(8192, vec![BatchDim { count: 8192, input: 1, output: 1 }, BatchDim { count: 2, input: 1 << 22, output: 1 << 22 }]);
        let r = FftRecipe::design_column_grid(&[128, 4], Precision::F32, io.clone(), lim).unwrap();
        assert!(r.tuning.grid_columns && !r.is_strided_grid() && r.kernel_name().contains("_cols"));
        assert_eq!((r.tuning.transforms_per_block, r.strided_run(), r.buffer_values()), (16, 1, 17 * 512));
        // f64: 8 columns (128 bytes); columns of 4096-point grids halve the run to fit.
        assert_eq!(FftRecipe::design_column_grid(&[128, 4], Precision::F64, io.clone(), lim).unwrap().tuning.transforms_per_block, 8);
        assert_eq!(FftRecipe::design_column_grid(&[256, 16], Precision::F32, io.clone(), lim).unwrap().tuning.transforms_per_block, 4);
        // A four-step twiddle is on the grid's last axis; a real side is not theirs.
        let twiddled = FftRecipe::design_column_grid(&[128, 4], Precision::F32, StridedIo { twiddle: Some(StepTwiddle { len: 512, dim: 0 }), ..io.clone() }, lim).unwrap();
        assert!(crate::fft::FftPlan::source(&twiddled).body.contains("step_twiddle(tables, (step * (i % 4u)) % 512u)"));
        assert!(FftRecipe::design_column_grid(&[128, 4], Precision::F32, StridedIo { output_values: Values::Real, ..io }, lim).is_err());
    }

    #[test]
    fn rows_off_sectors_take_a_run_of_256_bytes_where_three_blocks_fit() {
        let lim = DeviceLimits::H200;
        let rows = |len: usize, stride: usize, precision| {
            let io = StridedIo::complex(stride, vec![BatchDim { count: 129 * 64, input: 1, output: 1 }]);
            FftRecipe::design_strided(len, precision, io, lim).unwrap().tuning.transforms_per_block
        };
        // R2C 256^3's pass over its 129-wide half spectrum: values 1032 bytes apart, 3 of 4
        // rows' runs off sectors: 32 f32 rows (66 KiB, three blocks), 16 f64.
        assert_eq!((rows(256, 129, Precision::F32), rows(256, 129, Precision::F64)), (32, 16));
        assert!(StridedIo::complex(129, vec![BatchDim { count: 8, input: 1, output: 1 }]).rows_start_off_sectors(8));
        // On sectors (256 values apart) or two values to a sector (f64 130): a 128-byte run.
        assert_eq!((rows(256, 256, Precision::F32), rows(256, 130, Precision::F64)), (16, 8));
        // A run of 256 bytes of 512-point rows would leave one block a multiprocessor; rows of
        // 17 x 17 take radix-17 codelets (their wider blocks ran slower): 128 bytes.
        assert_eq!((rows(512, 513, Precision::F32), rows(289, 129, Precision::F32)), (16, 16));
        // Columns not one element apart, or a real side: no run to widen.
        assert!(!StridedIo::complex(129, vec![BatchDim { count: 8, input: 2, output: 2 }]).rows_start_off_sectors(8));
        let real = StridedIo { input_values: Values::Real, ..StridedIo::complex(129, vec![BatchDim { count: 8, input: 1, output: 1 }]) };
        assert!(!real.rows_start_off_sectors(8));
    }

    #[test]
    fn the_planner_groups_the_four_step_twiddles_where_they_were_measured_to_pay() {
        // Which passes of a long 1D C2C transform group their twiddles, in pass order.
        let grouped = |n: usize, precision: Precision| -> Vec<bool> {
            let r = crate::fft::FftNdRecipe::design(crate::fft::FftNdProblem::c2c_1d(n, 1).precision(precision), DeviceLimits::H200).unwrap();
            r.passes.iter().map(|p| p.recipe.tuning.grouped_step_twiddles).collect()
        };
        // 2^20 f32: two 1024-point passes of 16 columns, 136 KiB, one block a multiprocessor:
        // the twiddled first pass groups, and its kernel's name says so.
        assert_eq!(grouped(1 << 20, Precision::F32), [true, false]);
        let r = crate::fft::FftNdRecipe::design(crate::fft::FftNdProblem::c2c_1d(1 << 20, 1), DeviceLimits::H200).unwrap();
        assert!(r.passes[0].recipe.kernel_name().contains("_gtw") && !r.passes[1].recipe.kernel_name().contains("_gtw"));
        // 2^16: 256-point passes of several blocks a multiprocessor group in f64 (radix 16)
        // only; 2^22 f64's 128-point passes (radix 8) do not.
        assert_eq!(grouped(1 << 16, Precision::F32), [false, false]);
        assert_eq!(grouped(1 << 16, Precision::F64), [true, false]);
        assert!(!grouped(1 << 22, Precision::F64).contains(&true));
        // On a device whose multiprocessor holds two such blocks, 2^20 f32 does not group.
        let roomy = DeviceLimits { shared_bytes: 2 * DeviceLimits::H200.shared_bytes, ..DeviceLimits::H200 };
        let r = crate::fft::FftNdRecipe::design(crate::fft::FftNdProblem::c2c_1d(1 << 20, 1), roomy).unwrap();
        assert!(r.passes.iter().all(|p| !p.recipe.tuning.grouped_step_twiddles));
    }

    #[test]
    fn batch_dimensions_that_continue_each_other_merge() {
        // Four-step pass over a [outer 3][n2 64][n1 32] input, rows over n2 written as rows.
        let io = StridedIo {
            input_stride: 32,
            output_stride: 1,
            batch: vec![BatchDim { count: 32, input: 1, output: 64 }, BatchDim { count: 3, input: 2048, output: 2048 }],
            twiddle: Some(StepTwiddle { len: 2048, dim: 0 }),
            input_values: Values::Complex,
            output_values: Values::Complex,
            input_chirp: None,
            output_chirp: None,
            between: None,
        };
        assert_eq!(io.input(), SideLayout { stride: 32, dims: vec![(32, 1), (3, 2048)] });
        assert_eq!(io.output(), SideLayout { stride: 1, dims: vec![(96, 64)] });
        assert_eq!(io.output().contiguous_rows(), Some(64));
        assert_eq!(io.input().contiguous_rows(), None);
        assert_eq!(io.span(64, 1, &io.input()), Some(3 * 2048));
        assert_eq!(io.span(64, 1, &io.output()), Some(3 * 2048));
        // A grid pass's rows of 2 runs of 32 values, the runs 32 apart on the input side.
        assert_eq!(io.span(64, 32, &io.input()), Some(32 + 31 + 31 + 2 * 2048 + 1));
        assert_eq!(io.rows(), 96);
        assert_eq!(io.fastest_count(), 32);
    }

    #[test]
    fn long_rows_that_fill_a_multiprocessor_take_two_passes_of_long_codelets() {
        // 1024 points, 16 columns a block: 136 KiB of 227 on an H200, 32 x 32 with a thread per
        // codelet; where a block has room for two such blocks, or in f64, as designed before.
        let io = |cols: usize| StridedIo::complex(cols, vec![BatchDim { count: cols, input: 1, output: 1 }]);
        let h200 = DeviceLimits::H200;
        let r = FftRecipe::design_strided(1024, Precision::F32, io(64), h200).unwrap();
        assert_eq!((r.core.clone(), r.tuning.threads_per_transform, r.tuning.transforms_per_block), (Core::Stockham { len: 1024, radices: vec![32, 32] }, 32, 16));
        assert_eq!(r.tuning.twiddles, TwiddleSource::Table);
        let roomy = DeviceLimits { shared_bytes: 512 << 10, ..h200 };
        for r in [FftRecipe::design_strided(1024, Precision::F32, io(64), roomy).unwrap(), FftRecipe::design_strided(1024, Precision::F64, io(64), h200).unwrap()] {
            assert_ne!(r.core, Core::Stockham { len: 1024, radices: vec![32, 32] }, "{}", r.describe());
        }
        assert_eq!(FftRecipe::design_strided(900, Precision::F32, io(64), h200).unwrap().core, Core::Stockham { len: 900, radices: vec![30, 30] });
        // 960, 864 and 896 keep the planner's core of three passes, which runs faster.
        for len in [960, 864, 896] {
            assert_eq!(FftRecipe::design_strided(len, Precision::F32, io(64), h200).unwrap().core.passes(), 3, "{len}");
        }
        // 512 points: 68 KiB, three blocks a multiprocessor.
        assert_ne!(FftRecipe::design_strided(512, Precision::F32, io(64), h200).unwrap().core.passes(), 2);
    }

    #[test]
    fn columns_of_large_blocks_are_read_and_written_in_the_core_passes() {
        let h200 = DeviceLimits::H200;
        // Columns both ways (stride 1024), 16 rows a block of 1024 or 512 points (136 / 68
        // KiB): direct both ways; of 256 points (34 KiB): staged.
        let columns = StridedIo::complex(1024, vec![BatchDim { count: 1024, input: 1, output: 1 }]);
        for len in [1024, 512] {
            let r = FftRecipe::design_strided(len, Precision::F32, columns.clone(), h200).unwrap();
            assert!(r.tuning.direct_io && r.reads_columns_directly() && r.writes_columns_directly(), "{}", r.kernel_name());
            assert!(r.kernel_name().contains("_d_s"), "{}", r.kernel_name());
        }
        let r = FftRecipe::design_strided(256, Precision::F32, columns.clone(), h200).unwrap();
        assert!(!r.tuning.direct_io && !r.reads_columns_directly(), "{}", r.kernel_name());
        // Columns in, contiguous rows out (a four-step pass A): only the input side is direct;
        // the first pass reads global memory, the rows are stored staged.
        let rows_out = StridedIo { output_stride: 1, batch: vec![BatchDim { count: 1024, input: 1, output: 1024 }], ..columns.clone() };
        let r = FftRecipe::design_strided(1024, Precision::F32, rows_out, h200).unwrap();
        assert!(r.reads_columns_directly() && !r.writes_columns_directly(), "{}", r.kernel_name());
        let source = crate::fft::FftPlan::source(&r).body;
        assert!(source.contains("in the core's first pass") && source.contains("read_value(in_row, tables, g0, j + 32u, sign)"));
        assert!(source.contains("store: contiguous rows 1024 apart"));
        // direct_io on a pass with no side of columns is refused.
        let rows_both = StridedIo { input_stride: 1, output_stride: 1, batch: vec![BatchDim { count: 1024, input: 1024, output: 1024 }], ..columns };
        let mut r = FftRecipe::design_strided(1024, Precision::F32, rows_both, h200).unwrap();
        assert!(!r.tuning.direct_io);
        r.tuning.direct_io = true;
        assert!(r.check(h200).is_err());
    }

    #[test]
    fn dimensions_of_one_row_drop_out() {
        let io = StridedIo { input_stride: 5, output_stride: 5, batch: vec![BatchDim { count: 1, input: 1, output: 1 }], twiddle: None, input_values: Values::Real, output_values: Values::Complex, input_chirp: None, output_chirp: None, between: None };
        assert_eq!(io.input().dims, vec![(1, 0)]);
        assert_eq!(io.span(4, 1, &io.input()), Some(16));
        assert!(io.validate(4, 1).is_ok());
        assert!(io.validate(4, 3).is_err());
        let zero = StridedIo { input_stride: 0, ..io.clone() };
        assert!(zero.validate(4, 1).is_err());
        let half = StridedIo { output_values: Values::Half(HalfAxis::whole(4, 5, 0)), ..io };
        assert!(half.validate(4, 1).unwrap_err().to_string().contains("half-spectrum"));
    }

    #[test]
    fn packed_columns_are_the_low_digits_of_the_row() {
        // R2C's last pass after two splits: columns k2 (64) and k2' (8) below P = 512, then 3
        // arrays; blocks of 16 rows take 8 columns and their 8 mirror images.
        let dim = |count, input| BatchDim { count, input, output: input };
        let packed = PackedAxis { len: 2 * 512 * 16, at: AxisIndex { row: 512, dims: vec![1, 64, 0] } };
        let batch = [dim(64, 1), dim(8, 64), dim(3, 8192)];
        assert_eq!(packed.columns(&batch), Some(512));
        let io = StridedIo {
            input_stride: 512,
            output_stride: 512,
            batch: batch.to_vec(),
            twiddle: None,
            input_values: Values::Complex,
            output_values: Values::Packed(packed.clone()),
            input_chirp: None,
            output_chirp: None,
            between: None,
        };
        assert!(io.validate(16, 1).is_ok());
        let blocks = io.packed_blocks(16).unwrap();
        assert_eq!((blocks.pairs, blocks.tiles(), blocks.blocks()), (8, 33, 99));
        // Weights out of order, or a gap: no column index the kernel can use.
        assert_eq!(PackedAxis { at: AxisIndex { row: 512, dims: vec![8, 1, 0] }, ..packed.clone() }.columns(&[dim(64, 1), dim(8, 64), dim(3, 8192)]), None);
        assert_eq!(PackedAxis { at: AxisIndex { row: 512, dims: vec![1, 0, 64] }, ..packed.clone() }.columns(&batch), None);
        // Rows that do not make up the m = len/2 coefficients, or a four-step twiddle on
        // packed writes, are refused.
        assert!(io.validate(8, 1).is_err());
        assert!(StridedIo { twiddle: Some(StepTwiddle { len: 8192, dim: 0 }), ..io.clone() }.validate(16, 1).is_err());
    }

    #[test]
    fn half_axis_coefficients_combine_the_row_and_its_batch_indices() {
        // Four-step pass A of a C2R axis of 12 = 3 x 4: rows over n2 (weight 3), n1 (weight 1)
        // the fastest batch dimension, then 5 arrays.
        let batch = [BatchDim { count: 3, input: 1, output: 4 }, BatchDim { count: 5, input: 7, output: 12 }];
        let h = AxisIndex { row: 3, dims: vec![1, 0] };
        assert_eq!(h.of(&batch, 0, 0), 0);
        assert_eq!(h.of(&batch, 2, 3), 11);
        assert_eq!(h.of(&batch, 3 * 4 + 1, 2), 7);
        assert_eq!(AxisIndex::whole(2).split(3, 0), AxisIndex { row: 3, dims: vec![1, 0, 0] });
    }
}
