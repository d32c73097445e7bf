//! Permute (numpy.transpose, torch.permute(...).contiguous()), its N-to-M form over a sub-box
//! of the input, and batched (conjugate) transposes: problem -> recipe -> plan -> execute.

use std::sync::Arc;

use super::layout::{element_count, row_major_strides, StridedLayout};
use super::permute_kernel::PermuteKernel;
use super::tile::{PermuteTuning, TileShape, NAIVE_THREADS};
use crate::copy::{CopyPlan, CopyProblem};
use crate::device::{Arg, Device, DeviceBuffer, Grid, Program};
use crate::element::{units_per_element, Element, ScalarKind};
use crate::error::{Error, Result};
use crate::kernel::KernelSource;

/// What to rearrange: an input array of `shape` (C order, slowest axis first, as numpy lists
/// it) whose output axis `i` is input axis `axes[i]`, as `numpy.transpose(a, axes)` then
/// `copy()`. With a window, only the sub-box `offsets[k] .. offsets[k] + extents[k]` of each
/// input axis is taken and output axes of extent 1 are dropped (the N-to-M reorder).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PermuteProblem {
    pub kind: ScalarKind,
    pub shape: Vec<usize>,
    pub axes: Vec<usize>,
    /// The sub-box of the input to take; `None` takes the whole input.
    pub window: Option<Window>,
    /// Complex conjugate each element on the way (conjugate transpose).
    pub conjugate: bool,
}

impl PermuteProblem {
    /// A permute of elements of `kind`.
    pub fn new(kind: ScalarKind, shape: &[usize], axes: &[usize]) -> Self {
        PermuteProblem { kind, shape: shape.to_vec(), axes: axes.to_vec(), window: None, conjugate: false }
    }

    /// A permute of elements of type `T`.
    pub fn of<T: Element>(shape: &[usize], axes: &[usize]) -> Self {
        Self::new(T::KIND, shape, axes)
    }

    /// A batched transpose: `batch` matrices of `rows x cols` become `cols x rows`.
    pub fn transpose(kind: ScalarKind, batch: usize, rows: usize, cols: usize) -> Self {
        Self::new(kind, &[batch, rows, cols], &[0, 2, 1])
    }

    /// Takes only the sub-box `offsets[k] .. offsets[k] + extents[k]` of each input axis, and
    /// drops output axes of extent 1.
    pub fn window(mut self, offsets: &[usize], extents: &[usize]) -> Self {
        self.window = Some(Window { offsets: offsets.to_vec(), extents: extents.to_vec() });
        self
    }

    /// Conjugates complex elements on the way (numpy's `a.conj().transpose(axes)`).
    pub fn conjugate(mut self) -> Self {
        self.conjugate = true;
        self
    }

    /// Elements of the input array.
    pub fn input_len(&self) -> Result<usize> {
        to_usize(element_count(&self.shape)?)
    }

    /// Shape of the output, slowest axis first: the window's extents (or the shape) in the
    /// order of `axes`, without the axes of extent 1 when a window is given.
    pub fn output_shape(&self) -> Result<Vec<usize>> {
        self.check()?;
        let extents = self.extents();
        let out = self.axes.iter().map(|&a| extents[a]);
        Ok(if self.window.is_some() { out.filter(|&x| x != 1).collect() } else { out.collect() })
    }

    /// Elements of the output.
    pub fn output_len(&self) -> Result<usize> {
        to_usize(element_count(&self.output_shape()?)?)
    }

    /// The problem as a strided gather into a dense output (axes merged, ones dropped).
    pub fn layout(&self) -> Result<StridedLayout> {
        self.check()?;
        let strides = row_major_strides(&self.shape)?;
        let extents = self.extents();
        let offset: u64 = match &self.window {
            Some(w) => w.offsets.iter().zip(&strides).map(|(&o, s)| o as u64 * s).sum(),
            None => 0,
        };
        Ok(StridedLayout::new(offset, self.axes.iter().rev().map(|&a| (extents[a] as u64, strides[a]))))
    }

    fn extents(&self) -> Vec<usize> {
        match &self.window {
            Some(w) => w.extents.clone(),
            None => self.shape.clone(),
        }
    }

    fn check(&self) -> Result<()> {
        let rank = self.shape.len();
        let mut seen = vec![false; rank];
        for &a in &self.axes {
            if a >= rank || std::mem::replace(&mut seen[a], true) {
                return Err(Error::invalid(format!(
                    "axes {:?} is not a permutation of 0..{rank}: name each axis of the rank-{rank} input exactly once",
                    self.axes
                )));
            }
        }
        if self.axes.len() != rank {
            return Err(Error::invalid(format!(
                "axes {:?} has {} entries but the input has rank {rank}: name each axis exactly once",
                self.axes,
                self.axes.len()
            )));
        }
        element_count(&self.shape)?;
        if let Some(w) = &self.window {
            if w.offsets.len() != rank || w.extents.len() != rank {
                return Err(Error::invalid(format!(
                    "the window needs one offset and one extent per input axis ({rank}), got {} offsets and {} extents",
                    w.offsets.len(),
                    w.extents.len()
                )));
            }
            for (k, ((&o, &e), &d)) in w.offsets.iter().zip(&w.extents).zip(&self.shape).enumerate() {
                if o.checked_add(e).is_none_or(|end| end > d) {
                    return Err(Error::invalid(format!(
                        "window on axis {k}: offset {o} + extent {e} reaches past the axis's {d} elements"
                    )));
                }
            }
        }
        if self.conjugate && !self.kind.is_complex() {
            return Err(Error::invalid(format!("conjugate needs complex elements (c32 or c64), not {}", self.kind)));
        }
        Ok(())
    }
}

/// A sub-box of the input: `offsets[k] .. offsets[k] + extents[k]` along each axis.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Window {
    pub offsets: Vec<usize>,
    pub extents: Vec<usize>,
}

fn to_usize(x: u64) -> Result<usize> {
    usize::try_from(x).map_err(|_| Error::invalid(format!("{x} elements do not fit this machine's usize")))
}

/// How a permute runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PermuteMethod {
    /// Nothing moves relative to anything else: a contiguous copy or a constant-stride gather
    /// by the copy kernels.
    Copy,
    /// Tiles through shared memory (the default for everything else).
    Tiled(TileShape),
    /// One thread per output element, reads strided: the baseline benchmarks compare against.
    Naive,
}

/// A designed permute: the normal form and how it runs. Plain data, printable.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PermuteRecipe {
    pub problem: PermuteProblem,
    pub layout: StridedLayout,
    pub method: PermuteMethod,
}

impl PermuteRecipe {
    /// The heuristic's choice: a copy where the layout is one run or one stride, else tiles
    /// sized by [`PermuteTuning::for_layout`].
    pub fn design(problem: PermuteProblem) -> Result<Self> {
        let tuning = PermuteTuning::for_layout(&problem.layout()?, problem.kind.size());
        Self::with_tuning(problem, tuning)
    }

    /// As [`design`](Self::design), with explicit tile sizes (benchmarks sweep these).
    pub fn with_tuning(problem: PermuteProblem, tuning: PermuteTuning) -> Result<Self> {
        let layout = problem.layout()?;
        let method = if layout.axes.len() <= 1 && !problem.conjugate {
            PermuteMethod::Copy
        } else {
            PermuteMethod::Tiled(TileShape::design(&layout, problem.kind.size(), tuning))
        };
        Ok(PermuteRecipe { problem, layout, method })
    }

    /// The same problem with the naive kernel.
    pub fn naive(problem: PermuteProblem) -> Result<Self> {
        Ok(PermuteRecipe { layout: problem.layout()?, problem, method: PermuteMethod::Naive })
    }
}

enum Launch {
    Nothing,
    Copy(CopyPlan),
    Kernel { program: Arc<Program>, name: String, grid: Grid },
}

/// A built permute: compiled once, executed many times on any buffers of the right sizes.
pub struct PermutePlan {
    device: Device,
    recipe: PermuteRecipe,
    launch: Launch,
    /// Elements of the whole input and output arrays, checked against the buffers.
    input_len: usize,
    output_len: usize,
}

impl PermutePlan {
    /// Designs and builds a permute for `device`.
    pub fn new(device: &Device, problem: PermuteProblem) -> Result<Self> {
        Self::from_recipe(device, PermuteRecipe::design(problem)?)
    }

    /// The kernel a tiled or naive recipe compiles (`None` for a copy): for reading, and for
    /// register counts with nvcc on a GPU machine.
    pub fn source(recipe: &PermuteRecipe) -> Option<KernelSource> {
        let kernel = PermuteKernel { layout: &recipe.layout, elem_size: recipe.problem.kind.size(), conjugate: recipe.problem.conjugate };
        match &recipe.method {
            PermuteMethod::Tiled(tile) => Some(kernel.tiled(tile)),
            PermuteMethod::Naive => Some(kernel.naive()),
            PermuteMethod::Copy => None,
        }
    }

    /// Builds a designed recipe (benchmarks build the naive one this way).
    pub fn from_recipe(device: &Device, recipe: PermuteRecipe) -> Result<Self> {
        let l = &recipe.layout;
        let e = recipe.problem.kind.size();
        let launch = if l.count() == 0 {
            Launch::Nothing
        } else {
            match &recipe.method {
                PermuteMethod::Copy => {
                    let (count, stride) = match l.axes.first() {
                        Some(a) => (a.extent as usize, a.src_stride as usize),
                        None => (1, 1),
                    };
                    let problem =
                        CopyProblem { elem_size: e, count, src_offset: l.src_offset as usize, src_stride: stride, dst_offset: 0 };
                    Launch::Copy(CopyPlan::new(device, problem)?)
                }
                PermuteMethod::Tiled(_) | PermuteMethod::Naive => {
                    if let PermuteMethod::Tiled(tile) = &recipe.method {
                        tile.check(l, e).map_err(|why| Error::invalid(format!("permute recipe: {why}")))?;
                    }
                    let source = Self::source(&recipe).expect("tiled and naive recipes have kernels");
                    let (blocks_needed, threads) = match &recipe.method {
                        PermuteMethod::Tiled(tile) => (tile.tiles(l), tile.threads),
                        _ => (l.count().div_ceil(NAIVE_THREADS as u64), NAIVE_THREADS),
                    };
                    let grid = Grid::linear(blocks(blocks_needed)?, threads);
                    Launch::Kernel { program: device.build(&source)?, name: source.name, grid }
                }
            }
        };
        let (input_len, output_len) = (recipe.problem.input_len()?, recipe.problem.output_len()?);
        Ok(PermutePlan { device: device.clone(), recipe, launch, input_len, output_len })
    }

    pub fn recipe(&self) -> &PermuteRecipe {
        &self.recipe
    }

    /// Shape of the output, slowest axis first.
    pub fn output_shape(&self) -> Vec<usize> {
        self.recipe.problem.output_shape().expect("checked when the plan was designed")
    }

    /// Rearranges `src` (the whole input array) into `dst` (the whole output array). Buffers of
    /// the problem's element type, or of a smaller type whose size divides it (bytes, say).
    pub fn execute<T: Element>(&self, src: &DeviceBuffer<T>, dst: &mut DeviceBuffer<T>) -> Result<()> {
        let per = units_per_element::<T>(self.recipe.problem.kind.size(), "the permute plan")?;
        check_len("permute input", self.input_len * per, src.len())?;
        check_len("permute output", self.output_len * per, dst.len())?;
        match &self.launch {
            Launch::Nothing => Ok(()),
            Launch::Copy(copy) => copy.execute(src, dst),
            Launch::Kernel { program, name, grid } => {
                self.device.launch(program.kernel(name)?, *grid, &[Arg::from(&*dst), Arg::from(src)])
            }
        }
    }
}

/// Blocks of a launch, or an error for a grid the device cannot launch.
pub(super) fn blocks(n: u64) -> Result<u32> {
    u32::try_from(n).ok().filter(|&b| b <= i32::MAX as u32).ok_or_else(|| {
        Error::Unsupported(format!("{n} thread blocks exceed one launch's 2^31 - 1: split the array into smaller ones"))
    })
}

pub(super) fn check_len(what: &str, expected: usize, got: usize) -> Result<()> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::LengthMismatch { what: what.into(), expected, got })
    }
}
