//! An axis whose prime factor is too large for one launch, planned as Bluestein's
//! convolution over passes (see the module above, nd_recipe.rs): two transforms of a smooth
//! length through a scratch copy padded along the axis, the chirps, padding and filter riding
//! on their first read and last writes; real rows in pairs, R2C's spectra separated after.

use super::{FftPass, PassBuffer, Planner, Separation};
use crate::error::Result;
use crate::fft::axis_job::AxisJob;
use crate::fft::real_pairs::PairSeparation;
use crate::fft::strided::{AxisIndex, BatchDim, Chirp, ChirpStep, RealPairs, Values};
use crate::fft::transform_core::Core;
use crate::fft::FftRecipe;

impl Planner {
    /// An axis whose prime factor is too large for one launch: its convolution's two
    /// transforms, through a scratch buffer padded along the axis (`plan_convolution`). A
    /// whole real axis with rows to pair runs them in pairs (see [`RealPairs`]): half the
    /// convolution's work; R2C then separates the pairs' spectra in a launch of its own.
    pub(super) fn plan_bluestein(&mut self, job: AxisJob, from: PassBuffer, to: PassBuffer) -> Result<()> {
        let paired = match job.real_pairs() {
            Some(paired) => paired,
            None => return self.plan_convolution(job, from, Some(to)).map(|_| ()),
        };
        let Values::RealPairs(on_reals) = paired.input_values else {
            return self.plan_convolution(paired, from, Some(to)).map(|_| ());
        };
        // R2C: Z stays where the second transform runs, in the padded copy's layout, and the
        // separation writes the half spectra.
        let (z, second) = self.plan_convolution(paired, from, None)?;
        let batch = second.dims.iter().zip(&job.dims).map(|(z, x)| BatchDim { count: z.count, input: z.output, output: x.output }).collect();
        let (_, pairs) = RealPairs::of(on_reals.dim, job.dims[on_reals.dim].count, job.dims[on_reals.dim].output);
        let separation = PairSeparation { len: job.len, precision: self.precision, z_stride: second.step.output, x_stride: job.step.output, batch, pairs };
        self.separation = Some(Separation { after: self.passes.len(), pairs: separation, from: z, to });
        Ok(())
    }

    /// Bluestein's two transforms of `job` from `from`, through a scratch buffer padded
    /// along the axis, into `to`; with None, the second transform writes where it starts, in
    /// the padded layout (R2C pairs' Z). Returns the buffer the second transform wrote, and
    /// its job (whose output side is where it wrote).
    fn plan_convolution(&mut self, job: AxisJob, from: PassBuffer, to: Option<PassBuffer>) -> Result<(PassBuffer, AxisJob)> {
        let m = self.costs.bluestein_len(job.len);
        let rows: usize = job.dims.iter().map(|d| d.count).product();
        let (first, mut second) = job.bluestein(m);
        // The padded copy's places: rows x m, or further where pairs take every other row
        // of a dimension that is not the slowest (their places keep the array's strides).
        let span = 1 + (m - 1) * first.step.output + first.dims.iter().map(|d| (d.count - 1) * d.output).sum::<usize>();
        self.scratch_len = self.scratch_len.max(rows * m).max(span);
        if to.is_none() {
            second.step.output = second.step.input;
            second.dims.iter_mut().for_each(|d| d.output = d.input);
        }
        let padded = from.other_scratch();
        self.plan(first, from, padded, true)?;
        let (rest, start) = match self.fuse_filter_pass(&second, padded, to)? {
            Some((rest, middle)) => (rest, middle),
            None => (second.clone(), padded),
        };
        let to = to.unwrap_or(start);
        self.plan(rest, start, to, false)?;
        Ok((to, second))
    }

    /// Bluestein over passes: the first transform's last pass (the filter on its writes: the
    /// values X[n1 + N1 k], k < n, of row n1, left in `padded` where the pass read them) and
    /// the second transform's pass A over those same points (x[n1 + N1 n2]) as one pass
    /// ([`StridedIo::between`]), in place of the first. That pass writes the second's values
    /// as pass A does (row n1 at N2 n1: `MiddleOrder::K2Inner`, so that the rest of the second
    /// transform runs as any axis's), so not where it reads: into `padded` where the first
    /// transform's last pass read another buffer, else into the other scratch buffer (not
    /// `to`, which the rest writes). Returns the second transform's rest and the buffer it
    /// reads; None, planning nothing, where the last pass is not such a pass.
    ///
    /// One read and write of the padded array fewer: 1000003 points in three passes, not four
    /// (a convolution of 2^21 split in two each way; 1048583, three each way: five, not six).
    fn fuse_filter_pass(&mut self, second: &AxisJob, padded: PassBuffer, to: Option<PassBuffer>) -> Result<Option<(AxisJob, PassBuffer)>> {
        let Some(last) = self.passes.last() else { return Ok(None) };
        let (n, m, from) = (last.recipe.problem.len, second.len, last.from);
        let Some(io) = last.recipe.io.as_ref() else { return Ok(None) };
        let filter = io.output_chirp.as_ref().filter(|c| c.step == ChirpStep::Filter && c.at.row * n == m);
        let plain = matches!(last.recipe.core, Core::Stockham { .. }) && io.twiddle.is_none() && io.input_chirp.is_none() && io.input() == io.output();
        let middle = if from != padded { padded } else { padded.other_scratch() };
        let (Some(filter), true, true) = (filter, plain, last.to == padded && Some(middle) != to) else { return Ok(None) };
        let (mut pass_a, rest) = second.split(n);
        // The same rows as the last pass read (their places, in any order).
        if (pass_a.input_stride, pass_a.input()) != (io.input_stride, io.input()) {
            return Ok(None);
        }
        // Pass A's row n1 (its twiddle's dimension) holds X[n1 + N1 k] as value k.
        let Some(twiddle) = pass_a.twiddle else { return Ok(None) };
        let mut at = AxisIndex { row: m / n, dims: vec![0; pass_a.batch.len()] };
        at.dims[twiddle.dim] = 1;
        pass_a.between = Some(Chirp { at, ..filter.clone() });
        let recipe = FftRecipe::design_strided(n, self.precision, pass_a, self.limits)?;
        *self.passes.last_mut().expect("the first transform's last pass") = FftPass { recipe, from, to: middle };
        Ok(Some((rest, middle)))
    }
}
