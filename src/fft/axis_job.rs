//! One axis of a multi-dimensional or long transform as the planner (nd_recipe.rs) takes it:
//! where its points and the other dimensions lie on each side of its passes ([`AxisJob`]),
//! and the jobs it becomes: a four-step split's two passes, a real axis's packed or paired
//! complex axis, Bluestein's two convolution transforms.

use super::nd::{row_major_strides, FftNdProblem};
use super::problem::{FftKind, FftProblem, Precision};
use super::strided::{AxisIndex, BatchDim, Chirp, ChirpStep, HalfAxis, PackedAxis, RealPairs, StepTwiddle, StridedIo, Values};

/// A dimension of the array other than the axis being transformed: `count` indices, and the
/// distance between them in the input, the output, and the complex values between passes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Dim {
    pub(super) count: usize,
    pub(super) input: usize,
    pub(super) output: usize,
    pub(super) middle: usize,
}

/// Where pass A of a four-step split (see `AxisJob::split`) leaves Y[n1, k2] among the
/// axis's places in the middle (`step.middle` apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MiddleOrder {
    /// At N2 n1 + k2: pass B reads Y[k1, k2] for its k2 where it writes X[k2 + N2 k1], so it
    /// may run in place, and where the axis's places are a row of the array apart, each side
    /// of both passes runs along the array in the order of the blocks' batch (its blocks'
    /// runs of 16 columns then start at multiples of 16 values), but pass A's writes: a
    /// block's runs start wherever row N2 n1 + k2 of its column does.
    K2Inner,
    /// At n1 + N1 k2: pass A's writes run along the array as its reads do, and pass B's reads
    /// start wherever row n1 + N1 k2 does instead; pass B must not write where it reads.
    /// Taken where rows start off 32-byte sectors (a half spectrum's odd width): a block's
    /// run of 128 bytes then spans five sectors, which costs stores more than loads (R2C
    /// 8192^2's 64-point column pass ran at 54% of DRAM bandwidth against 80% for C2C's).
    N1Inner,
    /// At n1 + N1' k2, N1' the middle's size over N2 (the array with the axis cut to its n1
    /// points, dimensions above the axis closer by N2): each k2 a whole array of its own, so
    /// a block's runs of 16 columns, written for one k2 and neighbouring columns of every
    /// batch dimension, start where the run of their columns does (on a sector where N1'
    /// keeps them). For C2R's rows last (`Planner::plan_rows_last`), whose pass B reads whole
    /// rows.
    K2Outer,
}

/// An axis to transform, in one pass or several: its points' distance on each side (as
/// `Dim`), the other dimensions, and what each side holds (complex values, reals, or a half
/// spectrum whose coefficient weights follow `dims`).
#[derive(Debug, Clone)]
pub(super) struct AxisJob {
    pub(super) len: usize,
    pub(super) step: Dim,
    pub(super) dims: Vec<Dim>,
    pub(super) input_values: Values,
    pub(super) output_values: Values,
    /// Bluestein over passes: the chirp or filter its first read or last writes apply.
    pub(super) input_chirp: Option<Chirp>,
    pub(super) output_chirp: Option<Chirp>,
}

/// Where an array's values lie on each side of an axis's passes: strides per axis of the
/// input, the output, and the complex values between passes (row-major, in scratch or in
/// the output).
#[derive(Debug, Clone)]
pub(super) struct Sides {
    pub(super) input: Vec<usize>,
    pub(super) output: Vec<usize>,
    pub(super) middle: Vec<usize>,
}

impl Sides {
    /// One layout on all three sides.
    pub(super) fn same(strides: Vec<usize>) -> Self {
        Sides { input: strides.clone(), output: strides.clone(), middle: strides }
    }

    /// Axis `a`'s step and the other axes as batch dimensions, fastest (by the input's
    /// strides) first, merged where one continues another on every side.
    fn dims(&self, shape: &[usize], a: usize) -> (Dim, Vec<Dim>) {
        let dim = |b: usize| Dim { count: shape[b], input: self.input[b], output: self.output[b], middle: self.middle[b] };
        let mut others: Vec<usize> = (0..shape.len()).filter(|&b| b != a && shape[b] > 1).collect();
        others.sort_by_key(|&b| (self.input[b], std::cmp::Reverse(b)));
        let mut dims: Vec<Dim> = Vec::new();
        for d in others.into_iter().map(dim) {
            match dims.last_mut() {
                Some(l) if l.count * l.input == d.input && l.count * l.output == d.output && l.count * l.middle == d.middle => l.count *= d.count,
                _ => dims.push(d),
            }
        }
        if dims.is_empty() {
            dims.push(Dim { count: 1, input: 1, output: 1, middle: 1 });
        }
        (Dim { count: 0, ..dim(a) }, dims)
    }
}

impl AxisJob {
    /// Axis `a` of a complex array of `shape` whose sides lie as `sides` say.
    pub(super) fn complex_on(shape: &[usize], a: usize, sides: &Sides) -> Self {
        if sides.input == row_major_strides(shape) && sides.output == sides.input && sides.middle == sides.input {
            return Self::complex(shape, a);
        }
        let (step, dims) = sides.dims(shape, a);
        AxisJob { len: shape[a], step, dims, input_values: Values::Complex, output_values: Values::Complex, input_chirp: None, output_chirp: None }
    }

    /// Axis `a` of a row-major complex array of `shape`, transformed where it lies.
    pub(super) fn complex(shape: &[usize], a: usize) -> Self {
        let strides = row_major_strides(shape);
        let same = |count, stride| Dim { count, input: stride, output: stride, middle: stride };
        let inner: usize = shape[a + 1..].iter().product();
        let outer: usize = shape[..a].iter().product();
        AxisJob {
            len: shape[a],
            step: same(0, strides[a]),
            dims: vec![same(inner, 1), same(outer, shape[a] * inner)],
            input_values: Values::Complex,
            output_values: Values::Complex,
            input_chirp: None,
            output_chirp: None,
        }
    }

    /// The halved axis `h` of a real transform: reals of `shape` on one side, the half
    /// spectrum on the other, complex values of `shape` between passes.
    pub(super) fn halved(problem: &FftNdProblem, h: usize) -> Self {
        if !problem.is_row_major() {
            return Self::halved_strided(problem, h);
        }
        let n = problem.shape[h];
        let inner: usize = problem.shape[h + 1..].iter().product();
        let outer: usize = problem.shape[..h].iter().product();
        let half = HalfAxis::whole(n, inner, 2);
        let (real, spectrum) = (n * inner, (n / 2 + 1) * inner);
        let (outer_in, outer_out, input_values, output_values) = match problem.kind {
            FftKind::C2R => (spectrum, real, Values::Half(half), Values::Real),
            _ => (real, spectrum, Values::Real, Values::Half(half)),
        };
        AxisJob {
            len: n,
            step: Dim { count: 0, input: inner, output: inner, middle: inner },
            dims: vec![
                Dim { count: inner, input: 1, output: 1, middle: 1 },
                Dim { count: outer, input: outer_in, output: outer_out, middle: real },
            ],
            input_values,
            output_values,
            input_chirp: None,
            output_chirp: None,
        }
    }

    /// `halved` for arrays with strides: the problem's own on the reals' and the half
    /// spectrum's sides, row-major complex values of `shape` between passes.
    fn halved_strided(problem: &FftNdProblem, h: usize) -> Self {
        let (input, output) = problem.buffer_strides();
        let sides = Sides { input, output, middle: row_major_strides(&problem.shape) };
        let (step, dims) = sides.dims(&problem.shape, h);
        let n = problem.shape[h];
        let unit = if problem.kind == FftKind::C2R { step.input } else { step.output };
        let half = Values::Half(HalfAxis::whole(n, unit, dims.len()));
        let (input_values, output_values) = if problem.kind == FftKind::C2R { (half, Values::Real) } else { (Values::Real, half) };
        AxisJob { len: n, step, dims, input_values, output_values, input_chirp: None, output_chirp: None }
    }

    /// The pass over the whole axis, as strided rows.
    pub(super) fn io(&self) -> StridedIo {
        StridedIo {
            input_stride: self.step.input,
            output_stride: self.step.output,
            batch: self.dims.iter().map(|d| BatchDim { count: d.count, input: d.input, output: d.output }).collect(),
            twiddle: None,
            input_values: self.input_values.clone(),
            output_values: self.output_values.clone(),
            input_chirp: self.input_chirp.clone(),
            output_chirp: self.output_chirp.clone(),
            between: None,
        }
    }

    /// The contiguous single-launch problem this axis is, when its rows are the contiguous
    /// kernels' layout: values next to each other, rows one after another or further apart.
    pub(super) fn contiguous(&self, precision: Precision) -> Option<FftProblem> {
        let plain = |v: &Values| match v {
            Values::Half(h) => h.at.is_row(),
            _ => true,
        };
        if self.input_chirp.is_some() || self.output_chirp.is_some() || self.step.input != 1 || self.step.output != 1 || !plain(&self.input_values) || !plain(&self.output_values) {
            return None;
        }
        let n = self.len;
        let rows: usize = self.dims.iter().map(|d| d.count).product();
        let problem = match (&self.input_values, &self.output_values) {
            (Values::Complex, Values::Complex) => FftProblem::c2c(n, rows),
            (Values::Real, Values::Half(_)) => FftProblem::r2c(n, rows),
            (Values::Half(_), Values::Real) => FftProblem::c2r(n, rows),
            _ => return None,
        };
        let io = self.io();
        let (Some(apart_in), Some(apart_out)) = (io.input().contiguous_rows(), io.output().contiguous_rows()) else {
            return None;
        };
        // Rows further apart than their length (padded rows, cuFFT's idist) are the
        // contiguous kernels' too, where the distances suit them.
        let problem = problem.precision(precision);
        if rows == 1 || (apart_in, apart_out) == problem.row_elements() {
            return Some(problem);
        }
        let padded = problem.row_distances(apart_in, apart_out);
        padded.validate_row().is_ok().then_some(padded)
    }

    /// Four-step split into pass A over `n2` points (its strided rows) and the rest: the
    /// axis of n1 = len / n2 points, reading what pass A wrote. A whole real axis keeps half
    /// the complex values between them (see `real_split`).
    pub(super) fn split(&self, n2: usize) -> (StridedIo, AxisJob) {
        self.split_as(n2, MiddleOrder::K2Inner)
    }

    /// `split` with pass A's values left in the middle in `order`.
    pub(super) fn split_as(&self, n2: usize, order: MiddleOrder) -> (StridedIo, AxisJob) {
        let (n, s) = (self.len, self.step);
        let n1 = n / n2;
        let real = self.real_split();
        assert!(order == MiddleOrder::K2Inner || real.is_none(), "a real split keeps its middle in the K2Inner order");
        // K2Outer: the middle's dimensions above the axis closer by N2, and k2 past them all.
        let above = |d: &Dim| if order == MiddleOrder::K2Outer && d.middle > s.middle { d.middle / n2 } else { d.middle };
        assert!(order != MiddleOrder::K2Outer || self.dims.iter().all(|d| d.middle < s.middle || d.middle.is_multiple_of(n * s.middle)), "k2 outermost needs the middle row-major about the axis");
        // Y[n1, k2]'s distances in the middle, in n1 and in k2.
        let (n1_step, k2_step) = match order {
            MiddleOrder::K2Inner => (n2 * s.middle, s.middle),
            MiddleOrder::N1Inner => (s.middle, n1 * s.middle),
            // Past the whole middle, the largest of its extents.
            MiddleOrder::K2Outer => (s.middle, self.dims.iter().map(|d| d.count * d.middle).fold(n * s.middle, usize::max) / n2),
        };
        // The new dimension goes after those closer together, so that a block's neighbouring
        // rows stay neighbours in memory.
        let place = |dims: &[Dim], key: fn(&Dim) -> usize, at: usize| dims.iter().filter(|d| d.count > 1 && key(d) < at).count();
        // Pass A: x[n1 + N1 n2] (n1 a batch dimension), written to Y[n1, k2] in the middle.
        // C2R: rows n1 <= N1/2 only. R2C: coefficients k2 <= N2/2 only.
        let p = place(&self.dims, |d| d.input, s.input);
        let mut a_dims: Vec<BatchDim> = self.dims.iter().map(|d| BatchDim { count: d.count, input: d.input, output: above(d) }).collect();
        let a_rows = if real == Some(FftKind::C2R) { n1 / 2 + 1 } else { n1 };
        a_dims.insert(p, BatchDim { count: a_rows, input: s.input, output: n1_step });
        let a_output = match real {
            Some(FftKind::R2C) => Values::Half(HalfAxis::whole(n2, s.middle, a_dims.len())),
            _ => Values::Complex,
        };
        let pass_a = StridedIo {
            input_stride: n1 * s.input,
            output_stride: k2_step,
            batch: a_dims,
            twiddle: Some(StepTwiddle { len: n, dim: p }),
            input_values: weighted(&self.input_values, n1, p),
            output_values: a_output,
            input_chirp: self.input_chirp.as_ref().map(|c| Chirp { at: c.at.split(n1, p), ..c.clone() }),
            output_chirp: None,
            between: None,
        };
        // Pass B: Y[k1, k2] over k1, X[k2 + N2 k1] written (k2 a batch dimension). R2C: rows
        // k2 <= N2/2 only, each writing the coefficients no other row does. C2R: rows over
        // N1/2 read as their mirror images.
        let q = place(&self.dims, |d| d.middle, s.middle);
        let mut b_dims: Vec<Dim> = self.dims.iter().map(|d| Dim { input: above(d), ..*d }).collect();
        let b_rows = if real == Some(FftKind::R2C) { n2 / 2 + 1 } else { n2 };
        b_dims.insert(q, Dim { count: b_rows, input: k2_step, output: s.output, middle: s.middle });
        let mut output_values = weighted(&self.output_values, n2, q);
        if let (Some(FftKind::R2C), Values::Half(h)) = (real, &mut output_values) {
            h.mirror_writes = Some(n2);
        }
        let input_values = match real {
            Some(FftKind::C2R) => Values::Half(HalfAxis::whole(n1, n2 * s.middle, b_dims.len())),
            _ => Values::Complex,
        };
        let rest = AxisJob {
            len: n1,
            step: Dim { count: 0, input: n1_step, output: n2 * s.output, middle: n2 * s.middle },
            dims: b_dims,
            input_values,
            output_values,
            input_chirp: None,
            output_chirp: self.output_chirp.as_ref().map(|c| Chirp { at: c.at.split(n2, q), ..c.clone() }),
        };
        (pass_a, rest)
    }

    /// Whether a four-step split of this job may keep half the complex values between its
    /// passes, and how: where it is a whole real axis, reals on one side and its half
    /// spectrum (coefficient i of each row) on the other, with no Bluestein step.
    /// - R2C: pass A transforms real rows, whose spectra are conjugate-symmetric: it writes
    ///   coefficients k2 <= N2/2 only, and pass B transforms only those rows, each writing
    ///   its coefficients over len/2 to their mirror images where no other row writes them
    ///   (`HalfAxis::mirror_writes`).
    /// - C2R: pass A's rows n1 and N1 - n1 come out conjugate to each other (the half
    ///   spectrum's symmetry, the four-step twiddle included): it transforms rows n1 <= N1/2
    ///   only, and pass B reads each of its rows as the half spectrum of a C2R axis of N1
    ///   points, a real axis again when it is split further.
    ///
    /// Both move half the bytes a complex middle would between the passes.
    pub(super) fn real_split(&self) -> Option<FftKind> {
        let whole = |v: &Values| matches!(v, Values::Half(h) if h.len == self.len && h.at.is_row() && h.mirror_writes.is_none());
        if self.input_chirp.is_some() || self.output_chirp.is_some() {
            return None;
        }
        match (&self.input_values, &self.output_values) {
            (Values::Real, out) if whole(out) => Some(FftKind::R2C),
            (inp, Values::Real) if whole(inp) => Some(FftKind::C2R),
            _ => None,
        }
    }

    /// A whole real axis of even length as the complex axis of half its length (see
    /// [`PackedAxis`]): the reals, contiguous along the axis, read or written in pairs as
    /// complex values (their other strides even), the half spectrum's side packed. None for
    /// any other job.
    pub(super) fn packed(&self) -> Option<AxisJob> {
        let (n, s) = (self.len, self.step);
        let kind = self.real_split()?;
        let reals = |d: &Dim| if kind == FftKind::R2C { d.input } else { d.output };
        // The values between passes: half as many along the axis (the other dimensions lie
        // further apart than it on every side).
        let pairs_fit = s.middle == 1 && self.dims.iter().all(|d| d.count == 1 || (reals(d) % 2 == 0 && d.middle % n == 0));
        if n % 2 == 1 || reals(&s) != 1 || !pairs_fit {
            return None;
        }
        let halve = |v: usize| v / 2;
        let dims = self.dims.iter().map(|d| match kind {
            FftKind::R2C => Dim { input: halve(d.input), middle: halve(d.middle), ..*d },
            _ => Dim { output: halve(d.output), middle: halve(d.middle), ..*d },
        });
        let packed = Values::Packed(PackedAxis { len: n, at: AxisIndex::whole(self.dims.len()) });
        let (input_values, output_values) = if kind == FftKind::R2C { (Values::Complex, packed) } else { (packed, Values::Complex) };
        Some(AxisJob { len: n / 2, step: s, dims: dims.collect(), input_values, output_values, input_chirp: None, output_chirp: None })
    }

    /// A whole real axis (see `real_split`) as pairs of its rows in the batch dimension with
    /// the most rows (see [`RealPairs`]): R2C reads each pair as x + i y and writes its
    /// spectrum Z as complex values (`plan_bluestein` leaves them in the padded copy); C2R
    /// reads X + i Y and writes x and y. None where no dimension holds two rows.
    pub(super) fn real_pairs(&self) -> Option<AxisJob> {
        let kind = self.real_split()?;
        let (d, dim) = self.dims.iter().enumerate().filter(|(_, d)| d.count >= 2).max_by_key(|(i, d)| (d.count, std::cmp::Reverse(*i)))?;
        let mut dims = self.dims.clone();
        match kind {
            FftKind::R2C => {
                let (pairs, on_reals) = RealPairs::of(d, dim.count, dim.input);
                dims[d].count = pairs;
                dims.iter_mut().for_each(|d| d.output = d.middle);
                let step = Dim { output: self.step.middle, ..self.step };
                Some(AxisJob { step, dims, input_values: Values::RealPairs(on_reals), output_values: Values::Complex, ..self.clone() })
            }
            _ => {
                let Values::Half(half) = &self.input_values else { return None };
                let (pairs, on_reals) = RealPairs::of(d, dim.count, dim.output);
                let (_, on_half) = RealPairs::of(d, dim.count, dim.input);
                dims[d].count = pairs;
                Some(AxisJob { dims, input_values: Values::HalfPairs(half.clone(), on_half), output_values: Values::RealPairs(on_reals), ..self.clone() })
            }
        }
    }

    /// Bluestein over passes: the axis as two forward transforms of `m` points (a cyclic
    /// convolution, see [`Chirp`]), the first from this job's input into a copy of the array
    /// padded to `m` along the axis (the chirp on its first read, the filter on its last
    /// writes), the second from there to this job's output (the chirp on its last writes).
    /// Between and within them the values lie in that padded copy.
    pub(super) fn bluestein(&self, m: usize) -> (AxisJob, AxisJob) {
        let (n, s) = (self.len, self.step);
        // Dimensions outside the axis (further apart than its step) move m/n times further.
        let padded = |stride: usize| if stride > s.middle { stride / n * m } else { stride };
        let chirp = |step| Chirp { step, len: n, conv_len: m, at: AxisIndex::whole(self.dims.len()) };
        let first = AxisJob {
            len: m,
            step: Dim { output: s.middle, ..s },
            dims: self.dims.iter().map(|d| Dim { output: padded(d.middle), middle: padded(d.middle), ..*d }).collect(),
            input_values: self.input_values.clone(),
            output_values: Values::Complex,
            input_chirp: Some(chirp(ChirpStep::Signal)),
            output_chirp: Some(chirp(ChirpStep::Filter)),
        };
        let second = AxisJob {
            len: m,
            step: Dim { input: s.middle, ..s },
            dims: self.dims.iter().map(|d| Dim { input: padded(d.middle), middle: padded(d.middle), ..*d }).collect(),
            input_values: Values::Complex,
            output_values: self.output_values.clone(),
            input_chirp: None,
            output_chirp: Some(chirp(ChirpStep::Spectrum)),
        };
        (first, second)
    }
}

/// A half spectrum's coefficients after a split (see [`AxisIndex::split`]).
fn weighted(values: &Values, factor: usize, at: usize) -> Values {
    match values {
        Values::Half(h) => Values::Half(HalfAxis { at: h.at.split(factor, at), ..h.clone() }),
        Values::Packed(p) => Values::Packed(PackedAxis { at: p.at.split(factor, at), ..p.clone() }),
        Values::RealPairs(p) => Values::RealPairs(p.shifted(at)),
        Values::HalfPairs(h, p) => Values::HalfPairs(HalfAxis { at: h.at.split(factor, at), ..h.clone() }, p.shifted(at)),
        other => other.clone(),
    }
}
