//! `bench fft --suite large-1d | 2d | 3d | layouts`: long 1D, 2D and 3D C2C, R2C and C2R
//! transforms, axis subsets and strided layouts, beside cuFFT on the same random buffers in
//! the same run, as fractions of the driver's copy bandwidth
//! (one read and one write of the array per transform, however many passes it takes).
//! After timing, our output is compared with cuFFT's (relative L2), so a wrong plan cannot
//! post a figure.

use num_complex::Complex;

use super::random::{random_vec, Random};
use super::{driver_copy_gbps, progress, time_launches, BenchConfig, Table, TimingPlan};
use crate::device::{CufftKind, CufftLayout, CufftPlan, Device};
use crate::error::Result;
use crate::fft::{reference, Core, Direction, FftKind, FftNdPlan, FftNdProblem, FftProblem, FftRecipe, Precision, TwiddleSource};
use crate::{Backend, Element};

/// One measured case: our fraction of copy, cuFFT's, and what it is.
struct Case {
    label: String,
    group: String,
    ours: f64,
    cufft: Option<f64>,
}

/// The cases of a suite: (label, group for the summary, problem, cuFFT dims, cuFFT batch).
type Spec = (String, String, FftNdProblem, Vec<usize>, usize);

/// Arrays are batched up to this many bytes (DESIGN: at least 256 MiB; 16 MiB quick).
const BUDGET: usize = 256 << 20;
const QUICK_BUDGET: usize = 16 << 20;

fn budget(quick: bool) -> usize {
    if quick { QUICK_BUDGET } else { BUDGET }
}

fn batch_for(quick: bool, elements: usize, bytes: usize) -> usize {
    (budget(quick) / (elements * bytes)).max(1)
}

/// Long 1D: powers of two 2^12..2^28, lengths with large prime factors and primes over one
/// launch (Bluestein), f32; powers of two to 2^24 and 10^6 + 3 in f64; R2C and C2R f32
/// powers of two, 10^6 + 3 and 911773, f64 powers of two to 2^24 and 10^6 + 3.
pub(super) fn large_1d(quick: bool) -> Vec<Spec> {
    let mut specs = Vec::new();
    let top = if quick { 16 } else { 28 };
    let mut lengths: Vec<(usize, &'static str)> = (12..=top).map(|k| (1usize << k, "powers of two")).collect();
    if !quick {
        lengths.extend([(100_000, "other"), (999_999, "other"), (1_000_000, "other"), (4093 * 4091, "two large primes"), (4097 * 17, "other")]);
        // Prime factors over one launch: Bluestein over passes.
        lengths.extend([(65_537, "large prime"), (1_000_003, "large prime"), (1_048_583, "large prime"), (3 * 100_003, "large prime")]);
        // Convolutions 1.15x and 1.25x shorter than the next power of two (Bluestein's
        // length choice, `SplitCosts::bluestein_len`): 911773 is prime, 838871 = 11 x 76261.
        lengths.extend([(911_773, "large prime"), (838_871, "large prime")]);
    }
    for (precision, bytes) in [(Precision::F32, 8), (Precision::F64, 16)] {
        for &(n, group) in &lengths {
            // f64: powers of two, and one prime over one launch.
            if precision == Precision::F64 && !((n.is_power_of_two() && n <= 1 << 24) || n == 1_000_003) {
                continue;
            }
            let batch = batch_for(quick, n, bytes);
            let group = match precision {
                Precision::F64 if n.is_power_of_two() => "f64".to_string(),
                Precision::F64 => format!("f64 {group}"),
                _ => group.to_string(),
            };
            specs.push((format!("{n} x{batch} {precision}"), group, FftNdProblem::c2c_1d(n, batch).precision(precision), vec![n], batch));
        }
    }
    for (kind, name) in [(FftKind::R2C, "r2c"), (FftKind::C2R, "c2r")] {
        let mut lengths: Vec<(usize, &str)> = (12..=top).map(|k| (1usize << k, "powers of two")).collect();
        if !quick {
            // Odd rows of a Bluestein axis run in pairs (real_pairs.rs).
            lengths.extend([(1_000_003, "large prime"), (911_773, "large prime")]);
        }
        for (n, group) in lengths {
            let batch = batch_for(quick, n, 4);
            let problem = FftNdProblem { kind, ..FftNdProblem::r2c_1d(n, batch) };
            specs.push((format!("{name} {n} x{batch} f32"), format!("{name} {group}"), problem, vec![n], batch));
        }
        // f64 powers of two up to 2^24 and 10^6 + 3, as for C2C.
        let prime = (!quick).then_some(1_000_003);
        for n in (12..=top.min(24)).map(|k| 1usize << k).chain(prime) {
            let batch = batch_for(quick, n, 8);
            let problem = FftNdProblem { kind, ..FftNdProblem::r2c_1d(n, batch) }.f64();
            specs.push((format!("{name} {n} x{batch} f64"), format!("{name} f64"), problem, vec![n], batch));
        }
    }
    specs
}

/// Axis subsets and strided layouts cuFFT's advanced layout can also express, C2C f32 (and
/// R2C and C2R ones), about 256 MiB each (three of the columns cases less): columns (a
/// transform along a strided axis, batches next to each other), a 2D transform whose batch is
/// the innermost axis, two axes around a batch axis, padded rows, column-major input written
/// as rows, and 3D boxes whose trailing axes outgrow a block.
pub(super) fn layouts(quick: bool) -> Vec<Spec> {
    let s = if quick { 4 } else { 1 };
    let c2c = |shape: &[usize], axes: &[usize]| FftNdProblem::c2c(shape, axes);
    let cases: Vec<(&str, FftNdProblem)> = vec![
        ("columns", c2c(&[4096, 8192 / s], &[0])),
        // Lone columns of 4096 points run in one pass where they have blocks enough
        // (nd_recipe.rs, `Planner::lone_long_column`): 1024 blocks, 512 (the fewest it takes),
        // and 3000 points, which keep two passes.
        ("columns", c2c(&[4096, 4096 / s], &[0])),
        ("columns", c2c(&[4096, 2048 / s], &[0])),
        ("columns", c2c(&[3000, 8192 / s], &[0])),
        ("columns", c2c(&[256, 131_072 / s], &[0])),
        ("columns", c2c(&[1 << 20, 32 / s], &[0])),
        ("batch innermost", c2c(&[1024, 1024, 32 / s], &[0, 1])),
        ("axes around a batch", c2c(&[512, 128 / s, 512], &[0, 2])),
        ("padded rows", c2c(&[8192 / s, 4096], &[1]).input_strides(&[4100, 1]).output_strides(&[4100, 1])),
        ("column-major in, rows out", c2c(&[4096, 8192 / s], &[1]).input_strides(&[1, 4096]).output_strides(&[8192 / s, 1])),
        ("r2c columns", FftNdProblem::r2c(&[4096, 8192 / s], &[0])),
        // Trailing axes past a block's shared memory (128 x 256): the rows with pass A of the
        // middle axis, then its rest with the first axis as grids over columns (two passes).
        ("3d box", c2c(&[8 / s, 128, 128, 256], &[1, 2, 3])),
        ("3d box", FftNdProblem::r2c(&[8 / s, 128, 128, 256], &[1, 2, 3])),
        ("3d box", FftNdProblem::c2r(&[8 / s, 128, 128, 256], &[1, 2, 3])),
    ];
    cases
        .into_iter()
        .map(|(group, p)| {
            let dims: Vec<usize> = p.axes.iter().map(|&a| p.shape[a]).collect();
            let batch = p.len() / p.transform_len();
            let label = format!("{} {:?} axes {:?}{}", p.kind, p.shape, p.axes, if p.input_strides.is_some() { " strided" } else { "" });
            (label, group.to_string(), p, dims, batch)
        })
        .collect()
}

/// cuFFT's advanced layout for `problem`: its axes in increasing order, at most one other axis
/// longer than 1 (the batch, its stride the distance), and each axis's stride a multiple of
/// the next one's. None where cuFFT cannot express it, or where the layout is its default.
fn cufft_layout(problem: &FftNdProblem) -> Option<CufftLayout> {
    let rank = problem.shape.len();
    let axes = &problem.axes;
    let trailing = axes.iter().copied().eq(rank - axes.len()..rank);
    if (trailing && problem.is_row_major()) || !axes.windows(2).all(|w| w[0] < w[1]) {
        return None;
    }
    let batch_axes: Vec<usize> = (0..rank).filter(|a| !axes.contains(a) && problem.shape[*a] > 1).collect();
    if batch_axes.len() > 1 {
        return None;
    }
    let ((in_shape, out_shape), (in_strides, out_strides)) = (problem.buffer_shapes(), problem.buffer_strides());
    let side = |shape: &[usize], strides: &[usize]| -> Option<(Vec<usize>, usize, usize)> {
        let stride = strides[*axes.last()?];
        let mut embed = vec![shape[axes[0]]];
        for w in axes.windows(2) {
            let (outer, inner) = (strides[w[0]], strides[w[1]]);
            if !outer.is_multiple_of(inner) {
                return None;
            }
            embed.push(outer / inner);
        }
        Some((embed, stride, batch_axes.first().map_or(0, |&b| strides[b])))
    };
    let (input_embed, input_stride, input_dist) = side(&in_shape, &in_strides)?;
    let (output_embed, output_stride, output_dist) = side(&out_shape, &out_strides)?;
    Some(CufftLayout { input_embed, input_stride, input_dist, output_embed, output_stride, output_dist })
}

/// 2D n x n over the last two axes, batched to the budget, n = 64..16384; f64 up to 8192.
pub(super) fn two_d(quick: bool) -> Vec<Spec> {
    cubes(quick, 2, 6..=if quick { 9 } else { 14 }, 13, (1024, 8192))
}

/// 3D n^3, n = 16..1024, batched to the budget; f64 up to 512.
pub(super) fn three_d(quick: bool) -> Vec<Spec> {
    cubes(quick, 3, 4..=if quick { 6 } else { 10 }, 9, (64, 512))
}

/// n^rank arrays over their last `rank` axes, C2C, R2C and C2R, n = 2^k for k in `exponents`
/// (f64 up to 2^f64_top), batched to the budget (counting the complex side); f32 sizes from
/// `target.0` to `target.1` form the groups the targets name.
fn cubes(quick: bool, rank: usize, exponents: std::ops::RangeInclusive<u32>, f64_top: u32, target: (usize, usize)) -> Vec<Spec> {
    let target_group = format!("{}^{rank}..{}^{rank}", target.0, target.1);
    let mut specs = Vec::new();
    for kind in [FftKind::C2C, FftKind::R2C, FftKind::C2R] {
        let prefix = match kind {
            FftKind::C2C => "",
            FftKind::R2C => "r2c ",
            FftKind::C2R => "c2r ",
        };
        for (precision, bytes) in [(Precision::F32, 8), (Precision::F64, 16)] {
            for k in exponents.clone() {
                if precision == Precision::F64 && k > f64_top {
                    continue;
                }
                let n = 1usize << k;
                let batch = batch_for(quick, n.pow(rank as u32), bytes);
                let group = match precision {
                    Precision::F64 => "f64".to_string(),
                    _ if (target.0..=target.1).contains(&n) => target_group.clone(),
                    _ => "other".to_string(),
                };
                let mut shape = vec![batch];
                shape.extend(vec![n; rank]);
                let axes: Vec<usize> = (1..=rank).collect();
                let problem = FftNdProblem { kind, ..FftNdProblem::c2c(&shape, &axes) }.precision(precision);
                specs.push((format!("{prefix}{n}^{rank} x{batch} {precision}"), format!("{prefix}{group}"), problem, vec![n; rank], batch));
            }
        }
    }
    specs
}

/// `--sizes` on a suite in passes: the cases whose transformed lengths all lie in its ranges.
fn selected(specs: Vec<Spec>, opts: &super::fft_suite::FftBenchOptions) -> Vec<Spec> {
    specs.into_iter().filter(|s| s.3.iter().all(|&n| opts.keeps(n))).collect()
}

pub(super) fn run(device: &Device, cfg: &BenchConfig, title: &str, specs: Vec<Spec>) -> Result<Table> {
    let specs = selected(specs, &cfg.fft);
    let (_, copy_gbps) = driver_copy_gbps(device, budget(cfg.quick), TimingPlan::FULL)?;
    let mut table = Table::new(
        format!("FFT {title}, C2C and R2C forward, C2R inverse, batched to at least {}", super::human_bytes(budget(cfg.quick))),
        &["case", "passes", "ms", "of copy", "cuFFT ms", "cuFFT of copy", "speedup vs cuFFT", "error vs cuFFT"],
    );
    let pb = progress(cfg, specs.len(), title);
    let mut cases = Vec::new();
    for (label, group, problem, dims, batch) in specs {
        let row = match (problem.kind, problem.precision) {
            (FftKind::R2C, Precision::F32) => one::<f32, Complex<f32>>(device, cfg, &problem, &dims, batch, copy_gbps)?,
            (FftKind::R2C, Precision::F64) => one::<f64, Complex<f64>>(device, cfg, &problem, &dims, batch, copy_gbps)?,
            (FftKind::C2R, Precision::F32) => one::<Complex<f32>, f32>(device, cfg, &problem, &dims, batch, copy_gbps)?,
            (FftKind::C2R, Precision::F64) => one::<Complex<f64>, f64>(device, cfg, &problem, &dims, batch, copy_gbps)?,
            (_, Precision::F32) => one::<Complex<f32>, Complex<f32>>(device, cfg, &problem, &dims, batch, copy_gbps)?,
            (_, Precision::F64) => one::<Complex<f64>, Complex<f64>>(device, cfg, &problem, &dims, batch, copy_gbps)?,
        };
        let (passes, ours, cufft, error) = row;
        table.row(vec![
            label.clone(),
            passes.to_string(),
            format!("{:.4}", ours.0),
            format!("{:.3}", ours.1),
            cufft.map_or("-".into(), |c| format!("{:.4}", c.0)),
            cufft.map_or("-".into(), |c| format!("{:.3}", c.1)),
            cufft.map_or("-".into(), |c| format!("{:.2}", c.0 / ours.0)),
            error.map_or("-".into(), |e| format!("{e:.1e}")),
        ]);
        cases.push(Case { label, group, ours: ours.1, cufft: cufft.map(|c| c.1) });
        pb.inc(1);
    }
    pb.finish_and_clear();
    table.summary = summarize(&cases, copy_gbps);
    Ok(table)
}

/// (passes, (ms, of copy), cuFFT's (ms, of copy), relative L2 difference from cuFFT).
type Row = (usize, (f64, f64), Option<(f64, f64)>, Option<f64>);

/// One case, in the kind's one direction (C2C forward): `I` the input's elements, `O` the
/// output's (reals on the real side of R2C and C2R).
fn one<I: Element + Random, O: Element + Widen>(device: &Device, cfg: &BenchConfig, problem: &FftNdProblem, dims: &[usize], batch: usize, copy_gbps: f64) -> Result<Row> {
    let plan = FftNdPlan::new(device, problem.clone())?;
    let direction = problem.fixed_direction().unwrap_or(Direction::Forward);
    let (in_len, out_len) = problem.buffer_lens();
    let input = match problem.kind {
        FftKind::C2R => half_spectrum_of_reals::<I>(device, problem)?,
        _ => device.upload(&random_vec::<I>(in_len, 11))?,
    };
    let mut output = device.alloc::<O>(out_len)?;
    let timing = cfg.timing();
    let bytes = problem.bytes_moved() as f64;
    let ours = time_launches(device, timing, || plan.execute(direction, &input, &mut output))?;
    let mut result = (plan.recipe().launches(), (ours.median_ms, ours.gbps(bytes) / copy_gbps), None, None);
    if device.backend() != Backend::Cuda {
        return Ok(result);
    }
    let kind = match (problem.kind, problem.precision) {
        (FftKind::R2C, Precision::F32) => CufftKind::R2C,
        (FftKind::R2C, Precision::F64) => CufftKind::D2Z,
        (FftKind::C2R, Precision::F32) => CufftKind::C2R,
        (FftKind::C2R, Precision::F64) => CufftKind::Z2D,
        (_, Precision::F32) => CufftKind::C2C,
        (_, Precision::F64) => CufftKind::Z2Z,
    };
    let cufft = match cufft_layout(problem) {
        Some(layout) => CufftPlan::with_layout(device, kind, dims, batch, &layout)?,
        None => CufftPlan::new(device, kind, dims, batch)?,
    };
    // cuFFT's C2R overwrites its input: it runs on a copy, restored before the comparison.
    let x = input.to_vec()?;
    let mut their_input = device.upload(&x)?;
    let mut theirs = device.alloc::<O>(out_len)?;
    let inverse = direction == Direction::Inverse;
    let t = time_launches(device, timing, || cufft.execute_prefix(&mut their_input, &mut theirs, inverse))?;
    result.2 = Some((t.median_ms, t.gbps(bytes) / copy_gbps));
    // Compare on the host where it is cheap enough (up to 2^26 elements).
    if out_len <= 1 << 26 {
        let mut their_input = device.upload(&x)?;
        cufft.execute_prefix(&mut their_input, &mut theirs, inverse)?;
        plan.execute(direction, &input, &mut output)?;
        // cuFFT does not scale; ours applies the problem's normalization (C2R: 1/N).
        let scale = problem.scale(direction);
        let wide = |v: Vec<O>, s: f64| v.into_iter().map(|x| x.widen() * s).collect::<Vec<Complex<f64>>>();
        result.3 = Some(reference::relative_l2_error(wide(output.to_vec()?, 1.0), wide(theirs.to_vec()?, scale)));
    }
    Ok(result)
}

/// C2R's input: the half spectrum of random reals (by our R2C plan). cuFFT and numpy read
/// an arbitrary half spectrum differently where it repeats itself (the imaginary parts that
/// a real signal's spectrum cannot have), so only such a spectrum compares.
fn half_spectrum_of_reals<I: Element>(device: &Device, problem: &FftNdProblem) -> Result<crate::DeviceBuffer<I>> {
    let r2c = FftNdPlan::new(device, FftNdProblem { kind: FftKind::R2C, ..problem.clone() })?;
    let mut spectrum = device.alloc::<I>(problem.buffer_lens().0)?;
    match problem.precision {
        Precision::F32 => r2c.execute(Direction::Forward, &device.upload(&random_vec::<f32>(problem.len(), 11))?, &mut spectrum)?,
        Precision::F64 => r2c.execute(Direction::Forward, &device.upload(&random_vec::<f64>(problem.len(), 11))?, &mut spectrum)?,
    }
    Ok(spectrum)
}

/// An output element as a complex f64, for comparing with cuFFT's.
trait Widen: Copy {
    fn widen(self) -> Complex<f64>;
}

impl Widen for f32 {
    fn widen(self) -> Complex<f64> {
        Complex::new(self as f64, 0.0)
    }
}

impl Widen for f64 {
    fn widen(self) -> Complex<f64> {
        Complex::new(self, 0.0)
    }
}

impl<T: Widen> Widen for Complex<T> {
    fn widen(self) -> Complex<f64> {
        Complex::new(self.re.widen().re, self.im.widen().re)
    }
}

/// Per group: median and lowest fraction of copy, and the lowest and geometric-mean speedup.
fn summarize(cases: &[Case], copy_gbps: f64) -> Vec<String> {
    let mut lines = vec![format!("device-to-device copy: {copy_gbps:.0} GB/s (read + write)")];
    let mut groups: Vec<&str> = cases.iter().map(|c| c.group.as_str()).collect();
    groups.dedup();
    groups.sort_unstable();
    groups.dedup();
    for g in groups {
        let of: Vec<&Case> = cases.iter().filter(|c| c.group == g).collect();
        let mut fracs: Vec<f64> = of.iter().map(|c| c.ours).collect();
        fracs.sort_by(f64::total_cmp);
        let speedups: Vec<(f64, &str)> = of.iter().filter_map(|c| Some((c.ours / c.cufft?, c.label.as_str()))).collect();
        let mut line = format!("{g}: {} cases, of copy median {:.3}, lowest {:.3}", of.len(), fracs[fracs.len() / 2], fracs[0]);
        if let Some((worst, label)) = speedups.iter().copied().min_by(|a, b| a.0.total_cmp(&b.0)) {
            let geo = super::fft_suite::geometric_mean(speedups.iter().map(|s| s.0));
            line.push_str(&format!("; speedup vs cuFFT geo-mean {geo:.2}x, lowest {worst:.2}x ({label})"));
        }
        lines.push(line);
    }
    lines
}

/// `--suite strided`: one strided pass (axis 1 of [batch, L, 256], f32) under every number of
/// neighbouring rows per block that fits, beside the heuristic's pick: what
/// `FftRecipe::design_strided`'s rows rule is fitted to. Rows of 1024 points and more (a block
/// of 16 fills a multiprocessor alone) also under the fewest passes of codelets up to 32
/// points (fewer threads a row) and launch bounds for two or three blocks a multiprocessor.
pub(super) fn strided_rows(device: &Device, cfg: &BenchConfig) -> Result<Table> {
    let quick = cfg.quick;
    let (_, copy_gbps) = driver_copy_gbps(device, budget(quick), TimingPlan::FULL)?;
    let lim = crate::fft::limits(device);
    let mut table = Table::new(
        "FFT strided pass (axis 1 of [batch, L, 256], C2C f32 forward): rows per block".to_string(),
        &["L", "radices", "rows", "threads", "min blocks", "shared KiB", "ms", "of copy", "pick"],
    );
    let lengths: &[usize] = if quick { &[64, 256] } else { &[64, 256, 512, 864, 896, 900, 960, 1024, 2048, 4096, 241, 2039] };
    for &len in lengths.iter().filter(|&&len| cfg.fft.keeps(len)) {
        let batch = batch_for(quick, len * 256, 8);
        let problem = FftNdProblem::c2c(&[batch, len, 256], &[1]);
        let pick = crate::fft::FftNdRecipe::design(problem.clone(), lim)?;
        let input = device.upload(&random_vec::<Complex<f32>>(problem.len(), 5))?;
        let mut output = device.alloc::<Complex<f32>>(problem.len())?;
        for StridedConfig { core, twiddles, rows, min_blocks } in strided_configs(&pick.passes[0].recipe, lim) {
            let mut recipe = pick.clone();
            let r = &mut recipe.passes[0].recipe;
            let is_pick = r.core == core && r.tuning.twiddles == twiddles && r.tuning.transforms_per_block == rows && r.tuning.min_blocks_per_sm == min_blocks;
            let widest = core.pass_butterflies().into_iter().map(|(_, b)| b as u32).min().unwrap_or(1);
            if r.core != core {
                r.core = core;
                r.tuning.threads_per_transform = widest;
            }
            r.tuning.twiddles = twiddles;
            r.tuning.transforms_per_block = rows;
            r.tuning.threads_per_transform = r.tuning.threads_per_transform.min((lim.max_threads / rows).max(1));
            r.tuning.min_blocks_per_sm = min_blocks;
            // A launch bound only where that many blocks' shared memory fits.
            if r.check(lim).is_err() || r.shared_bytes() * u64::from(min_blocks) > lim.shared_bytes {
                continue;
            }
            let (threads, shared, radices, twiddles) = (r.threads_per_block(), r.shared_bytes(), radices_text(&r.core), r.tuning.twiddles);
            let plan = FftNdPlan::from_recipe(device, recipe)?;
            let t = time_launches(device, cfg.timing(), || plan.execute(Direction::Forward, &input, &mut output))?;
            table.row(vec![
                len.to_string(),
                format!("{radices}{}", if twiddles == TwiddleSource::Table { " (table)" } else { "" }),
                rows.to_string(),
                threads.to_string(),
                min_blocks.to_string(),
                (shared / 1024).to_string(),
                format!("{:.4}", t.median_ms),
                format!("{:.3}", t.gbps(problem.bytes_moved() as f64) / copy_gbps),
                if is_pick { "*".into() } else { String::new() },
            ]);
        }
    }
    Ok(table)
}

/// A Stockham core's radices as "16x16x4" ("-" for the other algorithms).
fn radices_text(core: &Core) -> String {
    match core {
        Core::Stockham { radices, .. } => crate::fft::radices_text(radices),
        _ => "-".into(),
    }
}

/// One configuration of a strided pass that `strided_rows` times.
#[derive(PartialEq)]
struct StridedConfig {
    core: Core,
    twiddles: TwiddleSource,
    rows: u32,
    min_blocks: u32,
}

/// The configurations `strided_rows` times for a pass designed as `pick`: every row count
/// under the pick's core, and for rows of more than 512 points (16 of them fill most of a
/// multiprocessor) also the fewest passes of codelets up to 32 points and the core the
/// planner designs without `two_long_codelets`, under bounds of 1, 2 and 3 blocks.
fn strided_configs(pick: &FftRecipe, lim: crate::fft::DeviceLimits) -> Vec<StridedConfig> {
    let twiddles = pick.tuning.twiddles;
    // Counts that are not powers of two too: 12 rows of 1024 points would leave room for two
    // blocks a multiprocessor, where 16 fill it alone (they ran slower, twenty-sixth session).
    let mut out: Vec<StridedConfig> = [1u32, 2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 32].into_iter().map(|rows| StridedConfig { core: pick.core.clone(), twiddles, rows, min_blocks: 1 }).collect();
    let len = pick.core.len();
    if len > 512 {
        let mut cores = vec![(pick.core.clone(), twiddles)];
        if let Some(radices) = crate::fft::fewer_passes::fewest_pass_radices(len, 32) {
            cores.push((Core::Stockham { len, radices: radices.clone() }, TwiddleSource::Table));
            cores.push((Core::Stockham { len, radices }, TwiddleSource::TablePowers));
        }
        let problem = FftProblem::c2c(len, 1);
        if let Ok(plain) = FftRecipe::design_core(problem, None, crate::fft::factor::StockhamModel::STRIDED_GRID_RADER, lim) {
            cores.push((plain.core, plain.tuning.twiddles));
        }
        for (core, twiddles) in cores {
            for rows in [4u32, 8, 16] {
                for min_blocks in [1u32, 2, 3] {
                    let config = StridedConfig { core: core.clone(), twiddles, rows, min_blocks };
                    if !out.contains(&config) {
                        out.push(config);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cufft_layouts_follow_the_strides() {
        let layout = |p: FftNdProblem| cufft_layout(&p);
        let columns = layout(FftNdProblem::c2c(&[4096, 8192], &[0])).unwrap();
        assert_eq!((columns.input_embed, columns.input_stride, columns.input_dist), (vec![4096], 8192, 1));
        let around = layout(FftNdProblem::c2c(&[512, 128, 512], &[0, 2])).unwrap();
        assert_eq!((around.output_embed, around.output_stride, around.output_dist), (vec![512, 65536], 1, 512));
        let padded = layout(FftNdProblem::c2c(&[8, 4096], &[1]).input_strides(&[4100, 1]).output_strides(&[4100, 1])).unwrap();
        assert_eq!((padded.input_embed, padded.input_stride, padded.input_dist), (vec![4096], 1, 4100));
        let half = layout(FftNdProblem::r2c(&[4096, 8192], &[0])).unwrap();
        assert_eq!((half.output_embed, half.output_stride, half.output_dist), (vec![2049], 8192, 1));
        // The default layout, two batch axes, and axes out of order: none.
        assert!(layout(FftNdProblem::c2c(&[4, 64, 64], &[1, 2])).is_none());
        assert!(layout(FftNdProblem::c2c(&[4, 64, 64], &[1])).is_none());
        assert!(layout(FftNdProblem::c2c(&[64, 64], &[1, 0])).is_none());
    }

    #[test]
    fn suites_batch_to_the_budget_and_name_the_target_groups() {
        let find = |specs: &[Spec], label: &str| specs.iter().find(|s| s.0 == label).map(|s| (s.1.clone(), s.2.shape.clone(), s.4));
        let two = two_d(false);
        assert_eq!(find(&two, "1024^2 x32 f32"), Some(("1024^2..8192^2".into(), vec![32, 1024, 1024], 32)));
        assert_eq!(find(&two, "64^2 x8192 f32").map(|s| s.0), Some("other".into()));
        assert!(find(&two, "16384^2 x1 f64").is_none());
        let three = three_d(false);
        assert_eq!(find(&three, "64^3 x128 f32"), Some(("64^3..512^3".into(), vec![128, 64, 64, 64], 128)));
        assert_eq!(find(&three, "512^3 x1 f64").map(|s| s.0), Some("f64".into()));
        let long = large_1d(false);
        for group in ["powers of two", "r2c powers of two", "c2r powers of two"] {
            assert_eq!(long.iter().filter(|s| s.1 == group).count(), 17, "{group}");
        }
        let c2r = find(&long, "c2r 1048576 x64 f32").expect("C2R 2^20");
        assert_eq!((c2r.0.as_str(), c2r.1, c2r.2), ("c2r powers of two", vec![64, 1048576], 64));
        assert_eq!(long.iter().filter(|s| s.1 == "r2c f64").count(), 14, "2^12..2^24 and 10^6 + 3");
        // --sizes 65536: the six 2^16 cases of large-1d; 1024: the 2D 1024^2 cases only.
        let opts = |sizes| super::super::fft_suite::FftBenchOptions { sizes, ..Default::default() };
        let names = |specs: Vec<Spec>| specs.into_iter().map(|s| s.0).collect::<Vec<_>>();
        assert_eq!(
            names(selected(long, &opts(vec![65536..=65536]))),
            ["65536 x512 f32", "65536 x256 f64", "r2c 65536 x1024 f32", "r2c 65536 x512 f64", "c2r 65536 x1024 f32", "c2r 65536 x512 f64"]
        );
        let square = names(selected(two.clone(), &opts(vec![1024..=1024])));
        assert!(!square.is_empty() && square.iter().all(|n| n.contains("1024^2")), "{square:?}");
        assert_eq!(selected(two.clone(), &opts(Vec::new())).len(), two.len());
        let r2c = find(&three, "r2c 64^3 x128 f32").expect("R2C cubes");
        assert_eq!((r2c.0.as_str(), r2c.2), ("r2c 64^3..512^3", 128));
        let c2r = find(&three, "c2r 64^3 x128 f32").expect("C2R cubes");
        assert_eq!((c2r.0.as_str(), c2r.2), ("c2r 64^3..512^3", 128));
    }
}
