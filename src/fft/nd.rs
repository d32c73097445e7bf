//! Multi-dimensional and long transforms: complex to complex over any axes of a row-major
//! array (numpy.fft.fftn with `axes`), any axis as long as two single-launch lengths
//! multiplied. Planned as a sequence of single-launch passes, each one read and one write of
//! the whole array:
//!
//! - an axis of length up to [`MAX_SINGLE_LAUNCH_LEN`] takes one pass: contiguous rows for the
//!   last axis, otherwise a strided pass whose blocks take neighbouring columns;
//! - a longer axis of length N = N1 N2 takes two (four-step, with the twiddle and the
//!   transposition folded into the passes): pass A transforms over n2 the values
//!   x[n1 + N1 n2], multiplies by e^{-2 pi i n1 k2/N} and writes Y[n1, k2] at N2 n1 + k2;
//!   pass B transforms over n1 in place and leaves X[k2 + N2 k1] where it read Y[k1, k2].
//!   Pass B is itself an axis (of length N1, with N2 inner values), split again where that
//!   is cheaper: strided passes over long rows hold few rows per block and run slowly, so
//!   2^24 runs as three passes of 256 rather than two of 4096 (see [`axis_cost`]).

use super::problem::{Direction, FftProblem, Normalization, Placement, Precision, MAX_SINGLE_LAUNCH_LEN};
use super::recipe::{complex_bytes, DeviceLimits, FftRecipe};
use super::strided::{BatchDim, StepTwiddle, StridedIo};
use crate::error::{Error, Result};
use crate::fft::factor::largest_prime_factor;

/// A complex transform over `axes` of a row-major array of `shape`, batched over the others.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FftNdProblem {
    pub shape: Vec<usize>,
    pub axes: Vec<usize>,
    pub precision: Precision,
    pub placement: Placement,
    pub norm: Normalization,
}

impl FftNdProblem {
    /// C2C over `axes` of an array of `shape`, f32, out of place, numpy's scaling.
    pub fn c2c(shape: &[usize], axes: &[usize]) -> Self {
        FftNdProblem {
            shape: shape.to_vec(),
            axes: axes.to_vec(),
            precision: Precision::F32,
            placement: Placement::OutOfPlace,
            norm: Normalization::Backward,
        }
    }

    /// `batch` one-dimensional C2C transforms of any length `len` (beyond one launch too).
    pub fn c2c_1d(len: usize, batch: usize) -> Self {
        Self::c2c(&[batch, len], &[1])
    }

    pub fn precision(mut self, precision: Precision) -> Self {
        self.precision = precision;
        self
    }

    pub fn f64(self) -> Self {
        self.precision(Precision::F64)
    }

    pub fn in_place(mut self) -> Self {
        self.placement = Placement::InPlace;
        self
    }

    pub fn norm(mut self, norm: Normalization) -> Self {
        self.norm = norm;
        self
    }

    /// Complex elements of the array.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Points of one transform: the product of the transformed axes' lengths.
    pub fn transform_len(&self) -> usize {
        self.axes.iter().map(|&a| self.shape[a]).product()
    }

    /// Bytes one execution reads and writes, each element once each way.
    pub fn bytes_moved(&self) -> u64 {
        2 * self.len() as u64 * complex_bytes(self.precision)
    }

    /// The factor applied to the output in `direction`, as for one transform of
    /// `transform_len` points.
    pub fn scale(&self, direction: Direction) -> f64 {
        FftProblem::c2c(self.transform_len(), 1).norm(self.norm).scale(direction)
    }

    /// Rejects what no plan can do, with a message naming what to change.
    pub fn validate(&self) -> Result<()> {
        let rank = self.shape.len();
        if rank == 0 {
            return Err(Error::invalid("the FFT's shape has no axes: give at least one length"));
        }
        if let Some(a) = self.shape.iter().position(|&n| n == 0) {
            return Err(Error::invalid(format!("axis {a} of the FFT's shape {:?} has length 0: every length must be at least 1", self.shape)));
        }
        if self.axes.is_empty() {
            return Err(Error::invalid("no axes to transform: name at least one axis"));
        }
        for (i, &a) in self.axes.iter().enumerate() {
            if a >= rank {
                return Err(Error::invalid(format!("axis {a} is out of range for a {rank}-d shape {:?}: axes go from 0 to {}", self.shape, rank - 1)));
            }
            if self.axes[..i].contains(&a) {
                return Err(Error::invalid(format!("axis {a} is named twice in {:?}: name each axis once", self.axes)));
            }
        }
        let bytes = complex_bytes(self.precision) as usize;
        let count = self.shape.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n));
        if count.and_then(|c| c.checked_mul(bytes)).is_none_or(|b| b > isize::MAX as usize) {
            return Err(Error::SizeOverflow { count: self.shape.iter().map(|&n| n as u64).product(), elem_size: bytes });
        }
        for &a in &self.axes {
            let n = self.shape[a];
            if largest_prime_factor(n) > MAX_SINGLE_LAUNCH_LEN {
                return Err(Error::Unsupported(format!(
                    "axis {a} has length {n}, whose prime factor {} is over {MAX_SINGLE_LAUNCH_LEN}: this version transforms lengths \
                     whose prime factors are at most {MAX_SINGLE_LAUNCH_LEN}, in passes of up to {MAX_SINGLE_LAUNCH_LEN} points \
                     (Bluestein over passes, for the others, is not done yet)",
                    largest_prime_factor(n)
                )));
            }
        }
        Ok(())
    }
}

/// Which buffer a pass reads or writes. In place, Input and Output are the same buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PassBuffer {
    Input,
    Output,
    /// The plan's own buffer of the array's size (four-step passes that cannot run in place).
    Scratch,
}

/// One launch of a multi-pass plan.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FftPass {
    pub recipe: FftRecipe,
    pub from: PassBuffer,
    pub to: PassBuffer,
}

/// A designed multi-pass transform: plain data, one recipe per launch in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FftNdRecipe {
    pub problem: FftNdProblem,
    pub passes: Vec<FftPass>,
}

impl FftNdRecipe {
    pub fn design(problem: FftNdProblem, limits: DeviceLimits) -> Result<Self> {
        problem.validate()?;
        // Long axes first: out of place, their first pass can then read the input and
        // write the output, and no scratch is needed for the first of them.
        let mut axes = problem.axes.clone();
        axes.sort_by_key(|&a| (problem.shape[a] <= MAX_SINGLE_LAUNCH_LEN, std::cmp::Reverse(a)));
        let out_of_place = problem.placement == Placement::OutOfPlace;
        let mut passes = Vec::new();
        let mut at = PassBuffer::Input;
        let mut costs = SplitCosts::default();
        for a in axes {
            let axis = Axis {
                len: problem.shape[a],
                inner: problem.shape[a + 1..].iter().product(),
                outer: problem.shape[..a].iter().product(),
            };
            let planner = AxisPlanner { precision: problem.precision, limits, out_of_place };
            planner.plan(axis, at, PassBuffer::Output, &mut costs, &mut passes)?;
            at = PassBuffer::Output;
        }
        Ok(FftNdRecipe { problem, passes })
    }

    /// Whether a pass uses the plan's scratch buffer.
    pub fn needs_scratch(&self) -> bool {
        self.passes.iter().any(|p| p.from == PassBuffer::Scratch || p.to == PassBuffer::Scratch)
    }

    /// One line per pass, for logs.
    pub fn describe(&self) -> String {
        let mut text = format!("{:?} over axes {:?}, {} passes", self.problem.shape, self.problem.axes, self.passes.len());
        for p in &self.passes {
            text.push_str(&format!("\n  {:?} -> {:?}: {}", p.from, p.to, p.recipe.describe()));
        }
        text
    }
}

/// One axis of the array: `len` points, `inner` values after each (its stride), `outer`
/// arrays of it.
#[derive(Debug, Clone, Copy)]
struct Axis {
    len: usize,
    inner: usize,
    outer: usize,
}

struct AxisPlanner {
    precision: Precision,
    limits: DeviceLimits,
    out_of_place: bool,
}

impl AxisPlanner {
    /// Appends the passes that transform `axis` from buffer `from` into `to` (which holds
    /// the values where `from` did, or is `from`).
    fn plan(&self, axis: Axis, from: PassBuffer, to: PassBuffer, costs: &mut SplitCosts, passes: &mut Vec<FftPass>) -> Result<()> {
        let Axis { len: n, inner, outer } = axis;
        let strided = inner > 1;
        let (_, split) = costs.axis(n, strided);
        let Some(n2) = split else {
            let recipe = if !strided {
                FftRecipe::design(FftProblem::c2c(n, outer).precision(self.precision), self.limits)?
            } else {
                let io = StridedIo {
                    input_stride: inner,
                    output_stride: inner,
                    batch: vec![BatchDim { count: inner, input: 1, output: 1 }, BatchDim { count: outer, input: n * inner, output: n * inner }],
                    twiddle: None,
                };
                FftRecipe::design_strided(n, self.precision, io, self.limits)?
            };
            passes.push(FftPass { recipe, from, to });
            return Ok(());
        };
        let n1 = n / n2;
        // Pass A writes other places than it reads: never into the buffer it reads.
        let middle = match from {
            PassBuffer::Input if self.out_of_place => PassBuffer::Output,
            PassBuffer::Scratch => PassBuffer::Output,
            _ => PassBuffer::Scratch,
        };
        let a_io = StridedIo {
            input_stride: n1 * inner,
            output_stride: inner,
            batch: vec![
                BatchDim { count: inner, input: 1, output: 1 },
                BatchDim { count: n1, input: inner, output: n2 * inner },
                BatchDim { count: outer, input: n * inner, output: n * inner },
            ],
            twiddle: Some(StepTwiddle { len: n, dim: 1 }),
        };
        passes.push(FftPass { recipe: FftRecipe::design_strided(n2, self.precision, a_io, self.limits)?, from, to: middle });
        // Pass B: the n1 axis of Y, with n2 x inner values after each point, in place.
        self.plan(Axis { len: n1, inner: n2 * inner, outer }, middle, to, costs, passes)
    }
}

/// Relative time of one pass of `len` points over the whole array: 1 / its fraction of copy
/// bandwidth. Strided passes hold 16 rows of up to 512 points per block and ran at 0.91-0.97
/// of copy on an H200 (`bench fft --suite strided`); longer rows leave room for fewer rows
/// and ran at 0.67 (1024), 0.50 (2048) and 0.40 (4096). Lengths with a prime factor over 13
/// run Rader's or Bluestein's algorithm, about twice as slow.
fn pass_cost(len: usize, strided: bool) -> f64 {
    let fraction = match (strided, len) {
        (false, _) => 0.95,
        (true, ..=512) => 0.93,
        (true, ..=1024) => 0.67,
        (true, ..=2048) => 0.50,
        (true, _) => 0.40,
    };
    let algorithm = if largest_prime_factor(len) > 13 { 2.0 } else { 1.0 };
    algorithm / fraction
}

/// The cheapest way to transform an axis of each length, remembered: (cost, the length of
/// pass A when it is split, None for one pass).
#[derive(Default)]
struct SplitCosts {
    known: std::collections::HashMap<(usize, bool), (f64, Option<usize>)>,
}

impl SplitCosts {
    fn axis(&mut self, n: usize, strided: bool) -> (f64, Option<usize>) {
        if let Some(&c) = self.known.get(&(n, strided)) {
            return c;
        }
        let mut best: (f64, Option<usize>) = (f64::INFINITY, None);
        if n <= MAX_SINGLE_LAUNCH_LEN {
            best = (pass_cost(n, strided), None);
        }
        // Pass A over n2 points (strided), then the rest as a strided axis of n / n2.
        for n2 in (2..=MAX_SINGLE_LAUNCH_LEN.min(n / 2)).filter(|&d| n.is_multiple_of(d)) {
            let cost = pass_cost(n2, true) + self.axis(n / n2, true).0;
            // Ties go to the balanced split: fewer long rows.
            if cost < best.0 - 1e-9 || (cost < best.0 + 1e-9 && best.1.is_some_and(|b| n2.abs_diff(n / n2) < b.abs_diff(n / b))) {
                best = (cost, Some(n2));
            }
        }
        self.known.insert((n, strided), best);
        best
    }
}

/// The passes' lengths an axis of `n` points is planned in, in order (pass A's first), and
/// their relative cost. Empty when `n` has a prime factor over MAX_SINGLE_LAUNCH_LEN.
pub fn axis_cost(n: usize, strided: bool) -> (f64, Vec<usize>) {
    let mut costs = SplitCosts::default();
    let (cost, _) = costs.axis(n, strided);
    if !cost.is_finite() {
        return (cost, Vec::new());
    }
    let (mut lens, mut rest, mut s) = (Vec::new(), n, strided);
    while let (_, Some(n2)) = costs.axis(rest, s) {
        lens.push(n2);
        rest /= n2;
        s = true;
    }
    lens.push(rest);
    (cost, lens)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H200: DeviceLimits = DeviceLimits { shared_bytes: 232_448, max_threads: 1024 };

    #[test]
    fn long_axes_split_into_short_strided_passes() {
        // The last axis runs in one pass up to 4096 points; a strided one up to 1024.
        assert_eq!(axis_cost(4096, false).1, vec![4096]);
        assert_eq!(axis_cost(1024, true).1, vec![1024]);
        assert_eq!(axis_cost(4096, true).1, vec![64, 64]);
        assert_eq!(axis_cost(8192, false).1.len(), 2);
        let lens = axis_cost(1 << 24, false).1;
        assert_eq!(lens.len(), 3, "{lens:?}");
        assert!(lens.iter().all(|&l| l <= 512));
        assert_eq!(axis_cost(1 << 27, false).1.iter().product::<usize>(), 1 << 27);
        // 4097 = 17 x 241: two passes with a large prime factor; 1000003 is prime.
        assert_eq!(axis_cost(4097, false).1.len(), 2);
        assert!(axis_cost(1_000_003, false).1.is_empty());
    }

    #[test]
    fn passes_read_the_input_once_and_use_scratch_only_when_they_must() {
        let r = FftNdRecipe::design(FftNdProblem::c2c(&[64, 96, 80], &[0, 1, 2]), H200).unwrap();
        assert_eq!(r.passes.len(), 3);
        assert_eq!((r.passes[0].from, r.passes[0].to), (PassBuffer::Input, PassBuffer::Output));
        assert!(r.passes[1..].iter().all(|p| (p.from, p.to) == (PassBuffer::Output, PassBuffer::Output)));
        assert!(r.passes[0].recipe.io.is_none(), "the last axis is contiguous rows");
        assert!(!r.needs_scratch());
        let long = FftNdRecipe::design(FftNdProblem::c2c_1d(1 << 20, 2), H200).unwrap();
        assert_eq!(long.passes.len(), 2);
        assert_eq!((long.passes[0].from, long.passes[0].to, long.passes[1].to), (PassBuffer::Input, PassBuffer::Output, PassBuffer::Output));
        let in_place = FftNdRecipe::design(FftNdProblem::c2c_1d(1 << 20, 2).in_place(), H200).unwrap();
        assert!(in_place.needs_scratch());
    }

    #[test]
    fn bad_shapes_and_axes_are_named() {
        let err = |p: FftNdProblem| p.validate().unwrap_err().to_string();
        assert!(err(FftNdProblem::c2c(&[4, 0], &[0])).contains("axis 1"));
        assert!(err(FftNdProblem::c2c(&[4, 4], &[2])).contains("out of range"));
        assert!(err(FftNdProblem::c2c(&[4, 4], &[1, 1])).contains("twice"));
        assert!(err(FftNdProblem::c2c(&[4, 4], &[])).contains("no axes"));
        assert!(err(FftNdProblem::c2c(&[], &[0])).contains("no axes"));
        assert!(err(FftNdProblem::c2c_1d(1_000_003, 1)).contains("prime factor 1000003"));
        assert!(matches!(FftNdProblem::c2c(&[1 << 40, 1 << 40], &[0]).validate(), Err(Error::SizeOverflow { .. })));
    }
}
