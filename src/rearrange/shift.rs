//! Circular shift along any axes (numpy.roll), and fftshift / ifftshift built on it.
//!
//! Thread i writes output element i and reads input element `i - sum(s_k * P_k)`, plus
//! `n_k * P_k` for every axis k whose coordinate wrapped (it is below that axis's shift):
//! writes are coalesced, and reads are too except where a row wraps.

use std::sync::Arc;

use super::layout::element_count;
use super::permute::{blocks, check_len};
use crate::device::{Arg, Device, DeviceBuffer, Grid, Program};
use crate::element::{units_per_element, Element, ScalarKind};
use crate::error::{Error, Result};
use crate::kernel::prelude::word_type;
use crate::kernel::{KernelSource, SourceWriter};

/// `numpy.roll(a, shifts, axis=all)`: element `c` of the input goes to `(c + shifts) mod shape`
/// along every axis. Shape slowest axis first; shifts of any sign and size.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShiftProblem {
    pub kind: ScalarKind,
    pub shape: Vec<usize>,
    pub shifts: Vec<i64>,
}

impl ShiftProblem {
    pub fn new(kind: ScalarKind, shape: &[usize], shifts: &[i64]) -> Self {
        ShiftProblem { kind, shape: shape.to_vec(), shifts: shifts.to_vec() }
    }

    /// numpy.fft.fftshift over `axes` (all when `None`): zero frequency to the centre.
    pub fn fftshift(kind: ScalarKind, shape: &[usize], axes: Option<&[usize]>) -> Result<Self> {
        Self::half_shift(kind, shape, axes, 1)
    }

    /// numpy.fft.ifftshift over `axes` (all when `None`): undoes fftshift, odd lengths too.
    pub fn ifftshift(kind: ScalarKind, shape: &[usize], axes: Option<&[usize]>) -> Result<Self> {
        Self::half_shift(kind, shape, axes, -1)
    }

    fn half_shift(kind: ScalarKind, shape: &[usize], axes: Option<&[usize]>, sign: i64) -> Result<Self> {
        let mut shifts = vec![0i64; shape.len()];
        let all: Vec<usize> = (0..shape.len()).collect();
        for &a in axes.unwrap_or(&all) {
            let Some(s) = shifts.get_mut(a) else {
                return Err(Error::invalid(format!("axis {a} is out of range for an array of rank {}", shape.len())));
            };
            *s = sign * (shape[a] / 2) as i64;
        }
        Ok(ShiftProblem::new(kind, shape, &shifts))
    }

    /// Elements of the array (input and output alike).
    pub fn len(&self) -> Result<usize> {
        let n = element_count(&self.shape)?;
        usize::try_from(n).map_err(|_| Error::invalid(format!("{n} elements do not fit this machine's usize")))
    }

    pub fn is_empty(&self) -> Result<bool> {
        Ok(self.len()? == 0)
    }

    /// Axes fastest first as (extent, shift in 0..extent), ones dropped, and a faster axis that
    /// does not move merged into its slower neighbour (the pair shifts as one longer axis).
    pub fn normal_form(&self) -> Result<Vec<(u64, u64)>> {
        if self.shifts.len() != self.shape.len() {
            return Err(Error::invalid(format!(
                "{} shift amounts for an array of rank {}: give one per axis (0 for axes that stay)",
                self.shifts.len(),
                self.shape.len()
            )));
        }
        element_count(&self.shape)?;
        let mut axes: Vec<(u64, u64)> = Vec::new();
        for (&n, &s) in self.shape.iter().zip(&self.shifts).rev() {
            if n <= 1 {
                continue;
            }
            let shift = s.rem_euclid(n as i64) as u64;
            match axes.last_mut() {
                Some(prev) if prev.1 == 0 => *prev = (prev.0 * n as u64, shift * prev.0),
                _ => axes.push((n as u64, shift)),
            }
        }
        Ok(axes)
    }
}

/// Elements each thread moves, all loads before the stores.
fn unroll(elem_size: usize) -> u64 {
    (16 / elem_size as u64).clamp(1, 4)
}
const THREADS: u32 = 256;

/// The kernel text of a shift in normal form.
fn shift_source(axes: &[(u64, u64)], elem_size: usize) -> KernelSource {
    let word = word_type(elem_size).expect("shift problems hold elements of 1, 2, 4, 8 or 16 bytes");
    let count: u64 = axes.iter().map(|a| a.0).product();
    let tag: Vec<String> = axes.iter().map(|(n, s)| format!("{n}r{s}")).collect();
    let name = format!("roll_e{elem_size}_{}", tag.join("_"));
    let u = unroll(elem_size);
    let chunk = u * THREADS as u64;
    let mut w = SourceWriter::new();
    let wide = count > u32::MAX as u64 - chunk;
    w.line(format!("typedef {word} word;"));
    w.line(format!("typedef {} idx_t;", if wide { "u64" } else { "u32" }));
    let what: Vec<String> = axes.iter().map(|(n, s)| format!("{n} by {s}")).collect();
    w.comment(&[
        &format!("{name}: circular shift of {count} elements of {elem_size} bytes; axes fastest first: {}.", what.join(", ")),
        "Output element i reads input element i - sum(shift_k * P_k), plus n_k * P_k for each axis k",
        "whose coordinate is below its shift (P_k: elements per step of axis k). Block g moves",
        &format!("{chunk} consecutive elements, {u} per thread, loads issued before stores."),
    ]);
    w.open(format!("KERNEL_BLOCK({THREADS}) void {name}(GLOBAL word* RESTRICT dst, const GLOBAL word* RESTRICT src)"));
    let mut total = 0u64;
    let mut step = 1u64;
    let mut steps = Vec::new();
    for &(n, s) in axes {
        total += s * step; // below the element count: every shift is below its extent
        steps.push(step);
        step *= n;
    }
    w.line(format!("const idx_t first = (idx_t)GROUP_ID() * {chunk} + LOCAL_ID();"));
    for j in 0..u {
        w.line(format!("const idx_t i{j} = first + {};", j * THREADS as u64));
        w.line(format!("word v{j};"));
        w.open(format!("if (i{j} < {count})"));
        // Unsigned arithmetic wraps, and the true index is in range: the sum comes out right.
        w.line(format!("idx_t at = i{j} - (idx_t){total}UL;"));
        for (k, &(n, s)) in axes.iter().enumerate() {
            if s == 0 {
                continue;
            }
            let c = if steps[k] == 1 { format!("i{j} % {n}") } else { format!("i{j} / {} % {n}", steps[k]) };
            w.line(format!("if ({c} < {s}) at += (idx_t){}UL;", n * steps[k]));
        }
        w.line(format!("v{j} = src[at];"));
        w.close();
    }
    for j in 0..u {
        w.line(format!("if (i{j} < {count}) dst[i{j}] = v{j};"));
    }
    w.close();
    KernelSource { name: name.clone(), entry_points: vec![name], body: w.finish() }
}

/// A built shift: compiled once, executed many times.
pub struct ShiftPlan {
    device: Device,
    problem: ShiftProblem,
    kernel: Option<(Arc<Program>, String, Grid)>,
    /// Elements of the array, checked against the buffers.
    len: usize,
}

impl ShiftPlan {
    pub fn new(device: &Device, problem: ShiftProblem) -> Result<Self> {
        let axes = problem.normal_form()?;
        word_type(problem.kind.size()).ok_or_else(|| Error::invalid("shift elements must be 1, 2, 4, 8 or 16 bytes"))?;
        let count: u64 = axes.iter().map(|a| a.0).product();
        let len = problem.len()?;
        let kernel = if len == 0 {
            None
        } else {
            let source = shift_source(&axes, problem.kind.size());
            let grid = Grid::linear(blocks(count.div_ceil(unroll(problem.kind.size()) * THREADS as u64))?, THREADS);
            Some((device.build(&source)?, source.name, grid))
        };
        Ok(ShiftPlan { device: device.clone(), problem, kernel, len })
    }

    pub fn problem(&self) -> &ShiftProblem {
        &self.problem
    }

    /// Shifts `src` into `dst` (both the whole array; not in place).
    pub fn execute<T: Element>(&self, src: &DeviceBuffer<T>, dst: &mut DeviceBuffer<T>) -> Result<()> {
        let n = self.len * units_per_element::<T>(self.problem.kind.size(), "the shift plan")?;
        check_len("shift input", n, src.len())?;
        check_len("shift output", n, dst.len())?;
        match &self.kernel {
            None => Ok(()),
            Some((program, name, grid)) => self.device.launch(program.kernel(name)?, *grid, &[Arg::from(&*dst), Arg::from(src)]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn still_fast_axes_merge_into_their_slower_neighbour() {
        // numpy shape [4, 5, 6] rolled by [1, 0, 0]: one axis of 120 shifted by 30.
        let p = ShiftProblem::new(ScalarKind::F32, &[4, 5, 6], &[1, 0, 0]);
        assert_eq!(p.normal_form().unwrap(), vec![(120, 30)]);
        // Rolled along the fastest axis: nothing merges.
        let p = ShiftProblem::new(ScalarKind::F32, &[4, 1, 6], &[0, 3, -7]);
        assert_eq!(p.normal_form().unwrap(), vec![(6, 5), (4, 0)]);
        let f = ShiftProblem::fftshift(ScalarKind::F32, &[5, 8], Some(&[0])).unwrap();
        assert_eq!(f.shifts, vec![2, 0]);
        assert_eq!(ShiftProblem::ifftshift(ScalarKind::F32, &[5, 8], None).unwrap().shifts, vec![-2, -4]);
        assert!(ShiftProblem::fftshift(ScalarKind::F32, &[5, 8], Some(&[2])).is_err());
    }
}
