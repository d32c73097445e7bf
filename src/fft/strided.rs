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
//!
//! This file holds the layouts; strided_design.rs designs the passes over them (rows a block,
//! core, threads), and codegen/strided.rs writes their kernels.

use super::problem::Precision;
use super::tables::RootDigits;
use crate::error::{Error, Result};
use crate::kernel::cache::hash_parts;

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
    /// [`FftRecipe::strided_run`](super::FftRecipe::strided_run)): the buffer must hold at least this many.
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
