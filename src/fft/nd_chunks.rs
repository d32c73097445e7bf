//! Running the passes of a multi-pass transform chunk by chunk, so that the values one pass
//! leaves for the next are still in the L2 cache when the next pass reads them.
//!
//! Every pass over the whole array reads and writes all of it in device memory: a batch of
//! 1024^2 transforms in two passes moves its bytes twice. But such arrays fall into pieces
//! that are transformed apart from each other for a while, and a piece that fits a part of
//! the L2 cache can run all its passes before the next piece starts: its first pass reads
//! the input from memory and leaves its values in L2, the following passes read and
//! overwrite them there, and only the last pass's values go back to memory. Two cuts:
//!
//! - over the batch, the leading axes that are not transformed: c batch indices a chunk,
//!   every pass chunked;
//! - over the first transformed axis t, where others are transformed too: c planes of t a
//!   chunk for the other axes' passes, then axis t's passes over the whole array, in place in
//!   the output (a 256^3 transform: planes of 256 x 256, then the first axis). Not for C2R,
//!   whose halved axis (among the planes' axes) runs last.
//!
//! A chunk's passes are those designed for a problem of c indices, launched at offsets into
//! the buffers (`Arg::BufferAt`); every chunk reuses the same scratch. Only row-major
//! layouts (FFTW's padded one for real transforms in place included) are cut.

use super::nd::FftNdProblem;
use super::nd_recipe::{FftNdRecipe, PassBuffer};
use super::problem::{FftKind, Placement};
use super::recipe::{complex_bytes, DeviceLimits};
use crate::error::Result;

/// One launch of a pass: which pass, where in the buffers it reads and writes it starts, in
/// elements of each buffer's own type (scratch from its start), and on which lane.
///
/// Chunks alternate between lanes 0 and 1, which run beside each other on a GPU (CUDA
/// streams), so that one chunk's launches fill the multiprocessors that the other's leave
/// idle; each lane has its own scratch. A launch that `waits_for_lanes` starts after every
/// launch before it, on both lanes (the passes over the whole array after the chunks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PassLaunch {
    pub pass: usize,
    pub from_offset: usize,
    pub to_offset: usize,
    pub lane: usize,
    pub waits_for_lanes: bool,
}

impl PassLaunch {
    /// A launch of `pass` over the whole array, on lane 0.
    pub(super) fn whole(pass: usize) -> Self {
        PassLaunch { pass, from_offset: 0, to_offset: 0, lane: 0, waits_for_lanes: false }
    }
}

/// Lanes the chunks alternate between.
const LANES: usize = 2;

/// How a problem is cut: `outer` x `count` indices, each of one index's values `step` apart
/// (input and output elements) and the outer ones `outer_step` apart; `sub(c)` is the
/// problem of c indices that a chunk is.
struct Cut<'a> {
    problem: &'a FftNdProblem,
    outer: usize,
    count: usize,
    step: (usize, usize),
    outer_step: (usize, usize),
    /// The shape after the cut axis and the axes transformed there, numbered from the cut.
    rest: Vec<usize>,
    rest_axes: Vec<usize>,
}

/// The problem cut into chunks that fit `limits.chunk_bytes`, or None where it is not cut
/// (no cut leaves two passes or more in a chunk, chunks would not fit or be too small, the
/// whole array fits already, or the layout is not row-major).
pub(super) fn design(problem: &FftNdProblem, limits: DeviceLimits) -> Result<Option<FftNdRecipe>> {
    if limits.chunk_bytes == 0 || problem.input_strides.is_some() || problem.output_strides.is_some() {
        return Ok(None);
    }
    let t = *problem.axes.iter().min().expect("a validated problem names an axis");
    let (input, output) = problem.buffer_strides();
    let shape = &problem.shape;
    if t > 0 {
        // The leading batch axes, merged (row-major: each is the ones after it, repeated).
        let over_batch = Cut {
            problem,
            outer: 1,
            count: shape[..t].iter().product(),
            step: (input[t - 1], output[t - 1]),
            outer_step: (0, 0),
            rest: shape[t..].to_vec(),
            rest_axes: problem.axes.iter().map(|a| a - t + 1).collect(),
        };
        if let Some(recipe) = over_batch.design(limits, false)? {
            return Ok(Some(recipe));
        }
    }
    if problem.axes.len() < 2 || problem.kind == FftKind::C2R {
        return Ok(None);
    }
    let outer_step = if t > 0 { (input[t - 1], output[t - 1]) } else { (0, 0) };
    let over_first_axis = Cut {
        problem,
        outer: shape[..t].iter().product(),
        count: shape[t],
        step: (input[t], output[t]),
        outer_step,
        rest: shape[t + 1..].to_vec(),
        rest_axes: problem.axes.iter().filter(|&&a| a != t).map(|a| a - t).collect(),
    };
    over_first_axis.design(limits, true)
}

impl Cut<'_> {
    /// The problem a chunk of `c` indices is.
    fn sub(&self, c: usize) -> FftNdProblem {
        let p = self.problem;
        let shape: Vec<usize> = std::iter::once(c).chain(self.rest.iter().copied()).collect();
        FftNdProblem { shape, axes: self.rest_axes.clone(), input_strides: None, output_strides: None, ..p.clone() }
    }

    /// Chunks of this cut, each of as many indices as fit the chunk bytes; with `then_axis`,
    /// the cut axis's own passes follow over the whole array.
    fn design(&self, limits: DeviceLimits, then_axis: bool) -> Result<Option<FftNdRecipe>> {
        let p = self.problem;
        let one = FftNdRecipe::design_whole(self.sub(1), limits)?;
        if one.passes.len() < 2 {
            return Ok(None);
        }
        // What one index leaves in L2 between passes: its output, and its scratch if used.
        let (in_bytes, out_bytes) = {
            let (i, o) = p.buffer_kinds();
            (i.size(), o.size())
        };
        let scratch = one.scratch_buffers() * one.scratch_len * complex_bytes(p.precision) as usize;
        let per_index = (self.step.1 * out_bytes + scratch) as u64;
        let fits = (limits.chunk_bytes / per_index) as usize;
        let aligned = |elements: usize, bytes: usize| (elements * bytes) as u64 % limits.view_align == 0;
        let outer_aligned = self.outer == 1 || (aligned(self.outer_step.0, in_bytes) && aligned(self.outer_step.1, out_bytes));
        let Some(c) = (1..=fits.min(self.count))
            .rev()
            .find(|&c| self.count % c == 0 && aligned(c * self.step.0, in_bytes) && aligned(c * self.step.1, out_bytes))
        else {
            return Ok(None);
        };
        // A chunk of everything needs no cut; chunks under a quarter of the budget cost more
        // launches than their cache saves.
        if (c == self.count && self.outer == 1) || !outer_aligned || (c as u64 * per_index) < limits.chunk_bytes / 4 {
            return Ok(None);
        }
        let chunk = FftNdRecipe::design_whole(self.sub(c), limits)?;
        let mut launches = Vec::new();
        for o in 0..self.outer {
            for j in 0..self.count / c {
                let at = (o * self.outer_step.0 + j * c * self.step.0, o * self.outer_step.1 + j * c * self.step.1);
                let lane = (o * self.count / c + j) % LANES;
                for (i, pass) in chunk.passes.iter().enumerate() {
                    launches.push(PassLaunch { pass: i, from_offset: offset(pass.from, at), to_offset: offset(pass.to, at), lane, waits_for_lanes: false });
                }
            }
        }
        let (mut passes, mut scratch_len) = (chunk.passes, chunk.scratch_len);
        if then_axis {
            let t = p.shape.len() - self.rest.len() - 1;
            let axis = FftNdProblem { kind: FftKind::C2C, shape: p.spectrum_shape(), axes: vec![t], placement: Placement::InPlace, ..self.sub(1) };
            let whole = FftNdRecipe::design_whole(axis, limits)?;
            for (i, pass) in whole.passes.into_iter().enumerate() {
                launches.push(PassLaunch { waits_for_lanes: i == 0, ..PassLaunch::whole(passes.len()) });
                passes.push(pass);
            }
            scratch_len = scratch_len.max(whole.scratch_len);
        }
        Ok(Some(FftNdRecipe { problem: p.clone(), passes, launches, scratch_len }))
    }
}

/// Where a chunk starts in `buffer`, from its (input, output) offsets.
fn offset(buffer: PassBuffer, at: (usize, usize)) -> usize {
    match buffer {
        PassBuffer::Input => at.0,
        PassBuffer::Output => at.1,
        PassBuffer::Scratch | PassBuffer::SecondScratch => 0,
    }
}
