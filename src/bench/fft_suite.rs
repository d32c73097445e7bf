//! `coalesce bench fft`: our batched 1D FFTs beside cuFFT on the same buffers in the same run,
//! as fractions of the driver's device-to-device copy bandwidth.
//!
//! Suites: `sweep` (C2C f32 forward, every N in 2..=4096), `f64` (C2C f64), `real` (R2C and
//! C2R f32, even N; `r2c` and `c2r` each half alone), `real-f64` (the same in f64), `plan`
//! (plan creation: cold compile, disk cache, memory cache) and, with `--accuracy`, the relative
//! L2 error against rustfft in f64 beside cuFFT's. With `--sizes`, the sweep, f64 and real
//! suites also time rows past 4096 points, as N-d and multi-pass plans run them in one launch.
//! The multi-pass suites (`large-1d`, `2d`, `3d`, `strided`) are in fft_nd_suite.rs.

use std::time::Instant;

use num_complex::Complex;

use super::plot::{line_plot_svg, Series};
use super::random::random_vec;
use super::{driver_copy_gbps, progress, time_launches, BenchConfig, Table, Timing, TimingPlan};
use crate::device::{CufftKind, CufftPlan, Device, DeviceBuffer};
use crate::error::{Error, Result};
use crate::fft::factor::largest_prime_factor;
use crate::fft::{complex_bytes, limits, reference, Direction, FftKind, FftPlan, FftProblem, FftRecipe, Precision, MAX_REAL_ROW_LEN, MAX_ROW_LEN, MAX_SINGLE_LAUNCH_LEN};
use crate::Backend;

/// Which FFT measurements `bench fft` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FftSuite {
    Sweep,
    F64,
    Real,
    /// R2C f32 alone, the lengths of `Real`.
    R2c,
    /// C2R f32 alone, the lengths of `Real`, so that C2R can be timed first on a cool device:
    /// an H200 reaches its 700 W power cap within seconds of any run and clocks lower as it
    /// warms, and the arithmetic-heavy C2R rows (1470, 2646, 3822, 3850) ran 0.65-0.72 of copy
    /// after a whole R2C table, 0.86-0.89 as the first run on a fresh machine (eighty-second
    /// session, docs/BENCHMARKS.md).
    C2r,
    /// R2C and C2R in f64, the lengths of `Real`.
    RealF64,
    Plan,
    Accuracy,
    /// The heuristic's recipe beside its variants (one tuning choice changed each), C2C f32.
    Variants,
    /// The same in f64.
    VariantsF64,
    /// The same for f32 R2C of the even lengths.
    VariantsR2c,
    /// The same for f32 C2R of the even lengths.
    VariantsC2r,
    /// The same for f64 R2C.
    VariantsR2cF64,
    /// The same for f64 C2R.
    VariantsC2rF64,
    /// Long 1D C2C (2^12..2^24 and lengths with large prime factors), in passes.
    Large1d,
    /// 2D C2C n x n, 64^2..16384^2.
    TwoD,
    /// 3D C2C n^3, 16^3..1024^3.
    ThreeD,
    /// One strided pass under every rows-per-block choice.
    Strided,
    /// Axis subsets and strided layouts (cufftPlanMany's advanced layout beside ours).
    Layouts,
}

impl FftSuite {
    pub const ALL: [FftSuite; 19] = [
        FftSuite::Sweep,
        FftSuite::F64,
        FftSuite::Real,
        FftSuite::R2c,
        FftSuite::C2r,
        FftSuite::RealF64,
        FftSuite::Plan,
        FftSuite::Accuracy,
        FftSuite::Variants,
        FftSuite::VariantsF64,
        FftSuite::VariantsR2c,
        FftSuite::VariantsC2r,
        FftSuite::VariantsR2cF64,
        FftSuite::VariantsC2rF64,
        FftSuite::Large1d,
        FftSuite::TwoD,
        FftSuite::ThreeD,
        FftSuite::Strided,
        FftSuite::Layouts,
    ];
    /// What `bench fft` runs without `--suite`.
    pub const DEFAULT: [FftSuite; 4] = [FftSuite::Sweep, FftSuite::F64, FftSuite::Real, FftSuite::Plan];

    pub fn name(self) -> &'static str {
        match self {
            FftSuite::Sweep => "sweep",
            FftSuite::F64 => "f64",
            FftSuite::Real => "real",
            FftSuite::R2c => "r2c",
            FftSuite::C2r => "c2r",
            FftSuite::RealF64 => "real-f64",
            FftSuite::Plan => "plan",
            FftSuite::Accuracy => "accuracy",
            FftSuite::Variants => "variants",
            FftSuite::VariantsF64 => "variants-f64",
            FftSuite::VariantsR2c => "variants-r2c",
            FftSuite::VariantsC2r => "variants-c2r",
            FftSuite::VariantsR2cF64 => "variants-r2c-f64",
            FftSuite::VariantsC2rF64 => "variants-c2r-f64",
            FftSuite::Large1d => "large-1d",
            FftSuite::TwoD => "2d",
            FftSuite::ThreeD => "3d",
            FftSuite::Strided => "strided",
            FftSuite::Layouts => "layouts",
        }
    }

    /// For the real suites, the precision and kinds they time, in order; None for the others.
    fn real_kinds(self) -> Option<(Precision, &'static [FftKind])> {
        match self {
            FftSuite::Real => Some((Precision::F32, &[FftKind::R2C, FftKind::C2R])),
            FftSuite::R2c => Some((Precision::F32, &[FftKind::R2C])),
            FftSuite::C2r => Some((Precision::F32, &[FftKind::C2R])),
            FftSuite::RealF64 => Some((Precision::F64, &[FftKind::R2C, FftKind::C2R])),
            _ => None,
        }
    }

    /// For the variants suites, the kind and precision they time; None for the others.
    pub fn variants_of(self) -> Option<(FftKind, Precision)> {
        match self {
            FftSuite::Variants => Some((FftKind::C2C, Precision::F32)),
            FftSuite::VariantsF64 => Some((FftKind::C2C, Precision::F64)),
            FftSuite::VariantsR2c => Some((FftKind::R2C, Precision::F32)),
            FftSuite::VariantsC2r => Some((FftKind::C2R, Precision::F32)),
            FftSuite::VariantsR2cF64 => Some((FftKind::R2C, Precision::F64)),
            FftSuite::VariantsC2rF64 => Some((FftKind::C2R, Precision::F64)),
            _ => None,
        }
    }

    /// Whether `--compile-only` applies: the one-launch throughput and variants suites, whose
    /// kernels are planned before anything is timed.
    pub fn compiles_only(self) -> bool {
        matches!(self, FftSuite::Sweep | FftSuite::F64) || self.real_kinds().is_some() || self.variants_of().is_some()
    }

    pub fn from_name(name: &str) -> Result<FftSuite> {
        FftSuite::ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| {
            let known: Vec<&str> = FftSuite::ALL.iter().map(|s| s.name()).collect();
            Error::invalid(format!("unknown FFT suite '{name}': choose from {}", known.join(", ")))
        })
    }
}

/// Options of `bench fft`.
#[derive(Debug, Clone, Default)]
pub struct FftBenchOptions {
    pub suites: Vec<FftSuite>,
    /// Restrict every suite to lengths in these ranges (empty: no restriction).
    pub sizes: Vec<std::ops::RangeInclusive<usize>>,
    /// The variants suite times only variants of these names (empty: all).
    pub variants: Vec<String>,
    /// Compile every kernel the throughput and variants suites would time (into the disk
    /// cache) and time nothing: the table lists the kernels. scripts/gpu_ab.sh warms its
    /// caches so, in parallel shards, before the timed rounds.
    pub compile_only: bool,
}

impl FftBenchOptions {
    /// Whether `--sizes` keeps a transform of length `n`.
    pub fn keeps(&self, n: usize) -> bool {
        self.sizes.is_empty() || self.sizes.iter().any(|r| r.contains(&n))
    }

    /// Every length in 2..=`max` that `--sizes` names (a note on stderr where it names longer
    /// ones), or the suite's own sample where none are named (the f64 and real suites sample
    /// lengths that are not 13-smooth).
    fn named_or(&self, suite: FftSuite, max: usize, sample: impl FnOnce() -> Vec<usize>) -> Vec<usize> {
        if self.sizes.is_empty() {
            return sample();
        }
        if self.sizes.iter().any(|r| *r.end() > max) {
            eprintln!("--sizes: the {} suite times rows of one launch, up to {max} points; longer ones run in passes (--suite large-1d)", suite.name());
        }
        (2..=max).filter(|&n| self.keeps(n)).collect()
    }
}

/// Timing of each size in a sweep: DESIGN's minimum (5 repetitions of 10 launches), as
/// thousands of sizes times two libraries must fit in minutes.
const SWEEP_TIMING: TimingPlan = TimingPlan { reps: 5, launches: 10 };

pub(super) fn run(device: &Device, cfg: &BenchConfig) -> Result<Vec<Table>> {
    let opts = &cfg.fft;
    let suites = if opts.suites.is_empty() { FftSuite::DEFAULT.to_vec() } else { opts.suites.clone() };
    let keep = |n: &usize| opts.keeps(*n);
    let mut tables = Vec::new();
    for suite in suites {
        let before = tables.len();
        match suite {
            FftSuite::Sweep => {
                let sizes = opts.named_or(suite, MAX_ROW_LEN, || if cfg.quick { quick_sizes() } else { (2..=MAX_SINGLE_LAUNCH_LEN).collect() });
                tables.extend(throughput(device, cfg, FftKind::C2C, Precision::F32, sizes)?);
            }
            FftSuite::F64 => {
                let sizes = opts.named_or(suite, MAX_ROW_LEN, || smooth_and_sampled(if cfg.quick { 64 } else { 2048 }, 4096, 1, 13));
                tables.extend(throughput(device, cfg, FftKind::C2C, Precision::F64, sizes)?);
            }
            FftSuite::Real | FftSuite::R2c | FftSuite::C2r | FftSuite::RealF64 => {
                let (precision, kinds) = suite.real_kinds().expect("a real suite");
                let sizes = opts.named_or(suite, MAX_REAL_ROW_LEN, || smooth_and_sampled(if cfg.quick { 64 } else { 4096 }, 4096, 2, 13));
                for &kind in kinds {
                    tables.extend(throughput(device, cfg, kind, precision, sizes.clone())?);
                }
            }
            FftSuite::Plan => tables.push(plan_times(device)?),
            FftSuite::Variants | FftSuite::VariantsF64 | FftSuite::VariantsR2c | FftSuite::VariantsC2r | FftSuite::VariantsR2cF64 | FftSuite::VariantsC2rF64 => {
                let (kind, precision) = suite.variants_of().expect("a variants suite");
                // Named sizes up to the longest rows multi-pass plans run in one launch.
                let sizes = if opts.sizes.is_empty() { super::fft_variants::default_sizes(kind) } else { (1..=MAX_REAL_ROW_LEN).filter(keep).collect() };
                tables.push(super::fft_variants::run(device, cfg, &sizes, &opts.variants, kind, precision)?);
            }
            FftSuite::Large1d => tables.push(super::fft_nd_suite::run(device, cfg, "large 1D", super::fft_nd_suite::large_1d(cfg.quick))?),
            FftSuite::TwoD => tables.push(super::fft_nd_suite::run(device, cfg, "2D", super::fft_nd_suite::two_d(cfg.quick))?),
            FftSuite::ThreeD => tables.push(super::fft_nd_suite::run(device, cfg, "3D", super::fft_nd_suite::three_d(cfg.quick))?),
            FftSuite::Strided => tables.push(super::fft_nd_suite::strided_rows(device, cfg)?),
            FftSuite::Layouts => tables.push(super::fft_nd_suite::run(device, cfg, "axis subsets and strided layouts", super::fft_nd_suite::layouts(cfg.quick))?),
            FftSuite::Accuracy => {
                let (f32_max, f64_max) = if cfg.quick { (64, 64) } else { (4096, 2048) };
                tables.extend(accuracy(device, cfg, Precision::F32, (1..=f32_max).filter(keep).collect())?);
                tables.extend(accuracy(device, cfg, Precision::F64, (1..=f64_max).filter(keep).collect())?);
            }
        }
        // A suite `--sizes` leaves nothing of says so, rather than print an empty table.
        tables.retain(|t: &Table| !t.rows.is_empty());
        if tables.len() == before && !opts.sizes.is_empty() {
            eprintln!("--sizes {}: no case of the {} suite lies there; skipped", sizes_text(&opts.sizes), suite.name());
        }
    }
    if tables.is_empty() && !opts.sizes.is_empty() {
        return Err(Error::InvalidArgument(format!(
            "--sizes {} names no case of the suites asked for: one-launch suites time lengths 2..=16384 (even real ones to 32768), the large-1d, 2d and 3d suites the cases whose every transformed length is named",
            sizes_text(&opts.sizes)
        )));
    }
    Ok(tables)
}

/// `--sizes` as given: 2..=64,4093.
fn sizes_text(sizes: &[std::ops::RangeInclusive<usize>]) -> String {
    sizes.iter().map(|r| if r.start() == r.end() { r.start().to_string() } else { format!("{}..={}", r.start(), r.end()) }).collect::<Vec<_>>().join(",")
}

/// A quick sweep: the small sizes, powers of two, and a few primes.
fn quick_sizes() -> Vec<usize> {
    let mut v: Vec<usize> = (2..=32).collect();
    v.extend([64, 97, 128, 256, 360, 512, 1000, 1024, 2048, 4093, 4096]);
    v
}

/// Every multiple of `step` up to `smooth_max` whose prime factors are at most `smooth`, plus
/// every 64th multiple up to `max` (sizes with large prime factors, for the picture).
fn smooth_and_sampled(smooth_max: usize, max: usize, step: usize, smooth: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (step.max(2)..=max)
        .step_by(step)
        .filter(|&n| (n <= smooth_max && largest_prime_factor(n) <= smooth) || (n / step) % 64 == 1)
        .collect();
    v.dedup();
    v
}

pub(super) fn cufft_kind(kind: FftKind, p: Precision) -> CufftKind {
    match (kind, p) {
        (FftKind::C2C, Precision::F32) => CufftKind::C2C,
        (FftKind::C2C, Precision::F64) => CufftKind::Z2Z,
        (FftKind::R2C, Precision::F32) => CufftKind::R2C,
        (FftKind::R2C, Precision::F64) => CufftKind::D2Z,
        (FftKind::C2R, Precision::F32) => CufftKind::C2R,
        (FftKind::C2R, Precision::F64) => CufftKind::Z2D,
    }
}

/// Per-size row of a throughput table.
struct Measured {
    n: usize,
    frac: f64,
    cufft_frac: Option<f64>,
}

/// Random buffers of one precision: complex and real, inputs and outputs, each of the run's
/// budget; every size runs on their first elements.
pub(super) struct Buffers<T: crate::Element>
where
    Complex<T>: crate::Element,
{
    complex_in: DeviceBuffer<Complex<T>>,
    complex_out: DeviceBuffer<Complex<T>>,
    real_in: DeviceBuffer<T>,
    real_out: DeviceBuffer<T>,
    /// cuFFT's C2R input: a copy of `complex_in`, taken before each of its timings
    /// ([`Buffers::time_cufft`]). cuFFT's C2R may overwrite its input; on `complex_in`
    /// itself every later size, ours and cuFFT's, would read what cuFFT left there, not random
    /// values.
    cufft_complex_in: DeviceBuffer<Complex<T>>,
}

impl<T: crate::Element + super::random::Random> Buffers<T>
where
    Complex<T>: crate::Element + super::random::Random,
{
    pub(super) fn new(device: &Device, budget: usize) -> Result<Self> {
        let values = budget / std::mem::size_of::<Complex<T>>();
        Ok(Buffers {
            complex_in: device.upload(&random_vec::<Complex<T>>(values, 7))?,
            complex_out: device.alloc(values)?,
            real_in: device.upload(&random_vec::<T>(2 * values, 8))?,
            real_out: device.alloc(2 * values)?,
            cufft_complex_in: device.alloc(values)?,
        })
    }

    /// cuFFT's time for `p` on these buffers, with a plan of its own; a C2R's input copied
    /// afresh from the random `complex_in` first (within one timing cuFFT still reads what its
    /// previous launch left).
    pub(super) fn time_cufft(&mut self, device: &Device, p: &FftProblem, direction: Direction, timing: TimingPlan) -> Result<Timing> {
        let plan = CufftPlan::new(device, cufft_kind(p.kind, p.precision), &[p.len], p.batch)?;
        if p.kind == FftKind::C2R {
            device.driver_copy(&self.complex_in, &mut self.cufft_complex_in)?;
        }
        time_launches(device, timing, || self.cufft(&plan, p.kind, direction))
    }

    pub(super) fn ours(&mut self, plan: &FftPlan, direction: Direction) -> Result<()> {
        match plan.problem().kind {
            FftKind::C2C => plan.execute_prefix(direction, &self.complex_in, &mut self.complex_out),
            FftKind::R2C => plan.execute_prefix(direction, &self.real_in, &mut self.complex_out),
            FftKind::C2R => plan.execute_prefix(direction, &self.complex_in, &mut self.real_out),
        }
    }

    fn cufft(&mut self, plan: &CufftPlan, kind: FftKind, direction: Direction) -> Result<()> {
        let inverse = direction == Direction::Inverse;
        match kind {
            FftKind::C2C => plan.execute_prefix(&mut self.complex_in, &mut self.complex_out, inverse),
            FftKind::R2C => plan.execute_prefix(&mut self.real_in, &mut self.complex_out, inverse),
            FftKind::C2R => plan.execute_prefix(&mut self.cufft_complex_in, &mut self.real_out, inverse),
        }
    }
}

/// Rows of length `n` that fill `budget` bytes on the transform's larger side (a real
/// transform's N/2+1 complex values a row), at least one.
pub(super) fn batch_to_fill(kind: FftKind, precision: Precision, n: usize, budget: usize) -> usize {
    let values = if kind == FftKind::C2C { n } else { n / 2 + 1 };
    (budget / (values * complex_bytes(precision) as usize)).max(1)
}

/// Each length's row as FFT plans run it, batched to `budget`: up to 4096 points what
/// `FftPlan::new` designs; longer rows (named with `--sizes`) as N-d and multi-pass plans run
/// them in one launch (`FftRecipe::design_row`). Lengths no single launch holds on this
/// device are left out, with a note on stderr.
fn one_launch_rows(device: &Device, kind: FftKind, precision: Precision, sizes: &[usize], budget: usize) -> Result<Vec<FftRecipe>> {
    let lim = limits(device);
    let mut recipes = Vec::new();
    let mut left_out = Vec::new();
    for &n in sizes {
        let problem = FftProblem { kind, ..FftProblem::c2c(n, batch_to_fill(kind, precision, n, budget)) }.precision(precision);
        if n <= MAX_SINGLE_LAUNCH_LEN {
            recipes.push(FftRecipe::design(problem, lim)?);
            continue;
        }
        match FftRecipe::design_row(problem, lim) {
            Ok(recipe) => recipes.push(recipe),
            Err(e) => left_out.push((n, e)),
        }
    }
    if let Some((_, first)) = left_out.first() {
        let lens: Vec<String> = left_out.iter().map(|(n, _)| n.to_string()).collect();
        eprintln!("{kind} {precision}: left out {} (no single launch holds them: {first})", lens.join(", "));
    }
    Ok(recipes)
}

/// Times our plan and cuFFT's for each size on random buffers of the run's budget (256 MiB;
/// 16 MiB quick), batching each size to fill it.
fn throughput(device: &Device, cfg: &BenchConfig, kind: FftKind, precision: Precision, sizes: Vec<usize>) -> Result<Vec<Table>> {
    match precision {
        Precision::F32 => throughput_typed::<f32>(device, cfg, kind, precision, sizes),
        Precision::F64 => throughput_typed::<f64>(device, cfg, kind, precision, sizes),
    }
}

fn throughput_typed<T: crate::Element + super::random::Random>(device: &Device, cfg: &BenchConfig, kind: FftKind, precision: Precision, sizes: Vec<usize>) -> Result<Vec<Table>>
where
    Complex<T>: crate::Element + super::random::Random,
{
    if sizes.is_empty() {
        return Ok(Vec::new());
    }
    let budget: usize = if cfg.quick { 16 << 20 } else { 256 << 20 };
    let recipes = one_launch_rows(device, kind, precision, &sizes, budget)?;
    if recipes.is_empty() {
        return Ok(Vec::new());
    }
    let pb = progress(cfg, recipes.len(), &format!("{kind} {precision}"));
    pb.set_message("compiling");
    let plans = FftPlan::from_recipes(device, recipes)?;
    if cfg.fft.compile_only {
        pb.finish_and_clear();
        let kernels = plans.iter().map(|p| (p.problem().len, "planned".to_string(), p));
        return Ok(vec![compiled_table(&format!("{kind} {precision}"), kernels)]);
    }
    pb.set_message(format!("{kind} {precision}"));
    // (Buffers and the copy's bandwidth after compiling: a compile-only run touches neither.)
    let mut buffers = Buffers::<T>::new(device, budget)?;
    let (_, copy_gbps) = driver_copy_gbps(device, budget, TimingPlan::FULL)?;
    let cuda = device.backend() == Backend::Cuda;
    let direction = plans.first().and_then(|p| p.problem().fixed_direction()).unwrap_or(Direction::Forward);
    let mut table = Table::new(
        format!("FFT {kind} {precision} {direction:?} per size, {} per buffer", super::human_bytes(budget)),
        &["n", "batch", "largest prime", "kernel", "ms", "GB/s", "of copy", "GFLOPS", "cuFFT ms", "cuFFT of copy", "speedup vs cuFFT"],
    );
    table.csv_only = true;
    let mut measured = Vec::new();
    for plan in &plans {
        let p = *plan.problem();
        let ours = time_launches(device, SWEEP_TIMING, || buffers.ours(plan, direction))?;
        let bytes = p.bytes_moved() as f64;
        let frac = ours.gbps(bytes) / copy_gbps;
        let cufft = if cuda {
            Some(buffers.time_cufft(device, &p, direction, SWEEP_TIMING)?)
        } else {
            None
        };
        let flops = if kind == FftKind::C2C { 5.0 } else { 2.5 } * p.len as f64 * (p.len as f64).log2().max(1.0) * p.batch as f64;
        table.row(vec![
            p.len.to_string(),
            p.batch.to_string(),
            largest_prime_factor(p.len).to_string(),
            plan.recipe().kernel_name(),
            format!("{:.4}", ours.median_ms),
            format!("{:.0}", ours.gbps(bytes)),
            format!("{frac:.3}"),
            format!("{:.0}", flops / (ours.median_ms * 1e-3) / 1e9),
            cufft.map_or("-".into(), |t| format!("{:.4}", t.median_ms)),
            cufft.map_or("-".into(), |t| format!("{:.3}", t.gbps(bytes) / copy_gbps)),
            cufft.map_or("-".into(), |t| format!("{:.2}", t.median_ms / ours.median_ms)),
        ]);
        measured.push(Measured { n: p.len, frac, cufft_frac: cufft.map(|t| t.gbps(bytes) / copy_gbps) });
        pb.inc(1);
    }
    pb.finish_and_clear();
    table.summary = summarize(&measured, copy_gbps);
    table.plot = Some(line_plot_svg(
        &format!("{kind} {precision} {direction:?}, batched to {}: fraction of copy bandwidth", super::human_bytes(budget)),
        "N",
        "fraction of device copy bandwidth",
        &[
            Series { name: "coalesce".into(), points: measured.iter().map(|m| (m.n as f64, m.frac)).collect() },
            Series { name: "cuFFT".into(), points: measured.iter().filter_map(|m| Some((m.n as f64, m.cufft_frac?))).collect() },
        ],
    ));
    Ok(vec![table])
}

/// The table `--compile-only` prints: each kernel compiled (or found in the disk cache) for
/// a suite, by length and the variant or path it stands for.
pub(super) fn compiled_table<'a>(what: &str, kernels: impl Iterator<Item = (usize, String, &'a FftPlan)>) -> Table {
    let mut table = Table::new(format!("FFT {what}: kernels compiled, nothing timed (--compile-only)"), &["n", "variant", "kernel", "from disk cache"]);
    for (n, what, plan) in kernels {
        table.row(vec![n.to_string(), what, plan.recipe().kernel_name(), plan.from_disk_cache().to_string()]);
    }
    table
}

/// Geometric mean (NaN for no values): the mean of speedup ratios.
pub(super) fn geometric_mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, count) = values.into_iter().fold((0.0, 0usize), |(s, c), x| (s + x.ln(), c + 1));
    if count == 0 { f64::NAN } else { (sum / count as f64).exp() }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Summary lines: groups by largest prime factor, the fraction at 0.90, medians, the ratio to
/// cuFFT, the sizes slower than cuFFT and the ten slowest.
fn summarize(m: &[Measured], copy_gbps: f64) -> Vec<String> {
    let mut out = vec![format!("device copy: {copy_gbps:.0} GB/s (read + write); fractions below are of it")];
    let groups: [(&str, fn(usize) -> bool); 6] = [
        ("powers of two", |n| n.is_power_of_two()),
        ("7-smooth", |n| largest_prime_factor(n) <= 7),
        ("13-smooth", |n| largest_prime_factor(n) <= 13),
        ("largest prime 17..127", |n| (17..=127).contains(&largest_prime_factor(n))),
        ("largest prime > 127", |n| largest_prime_factor(n) > 127),
        ("all sizes", |_| true),
    ];
    for (name, keep) in groups {
        let sel: Vec<&Measured> = m.iter().filter(|x| keep(x.n)).collect();
        if sel.is_empty() {
            continue;
        }
        let ours: Vec<f64> = sel.iter().map(|x| x.frac).collect();
        let low = ours.iter().copied().fold(f64::INFINITY, f64::min);
        let low_n = sel.iter().find(|x| x.frac == low).map_or(0, |x| x.n);
        let mut line = format!(
            "{name:<22} {:>4} sizes: median {:.3}, lowest {low:.3} (N={low_n}), at 0.90 or more {:.1}%",
            sel.len(),
            median(ours.clone()),
            100.0 * ours.iter().filter(|&&f| f >= 0.90).count() as f64 / ours.len() as f64
        );
        let theirs: Vec<f64> = sel.iter().filter_map(|x| x.cufft_frac).collect();
        if !theirs.is_empty() {
            line += &format!(
                " | cuFFT median {:.3}, lowest {:.3}",
                median(theirs.clone()),
                theirs.iter().copied().fold(f64::INFINITY, f64::min)
            );
        }
        out.push(line);
    }
    let pairs: Vec<(usize, f64)> = m.iter().filter_map(|x| Some((x.n, x.frac / x.cufft_frac?))).collect();
    if !pairs.is_empty() {
        let geo = geometric_mean(pairs.iter().map(|p| p.1));
        let slower: Vec<String> = pairs.iter().filter(|p| p.1 < 1.0).map(|p| format!("{} ({:.2})", p.0, p.1)).collect();
        out.push(format!("speedup over cuFFT: geometric mean {geo:.2}x; slower than cuFFT at {} sizes{}", slower.len(),
            if slower.is_empty() { String::new() } else { format!(": {}", slower.iter().take(20).cloned().collect::<Vec<_>>().join(", ")) }));
    }
    let mut slowest: Vec<&Measured> = m.iter().collect();
    slowest.sort_by(|a, b| a.frac.total_cmp(&b.frac));
    out.push(format!(
        "ten slowest: {}",
        slowest.iter().take(10).map(|x| format!("{} ({:.3})", x.n, x.frac)).collect::<Vec<_>>().join(", ")
    ));
    out
}

/// Plan creation: compiling from scratch, loading from the disk cache, and from memory.
fn plan_times(device: &Device) -> Result<Table> {
    let mut table = Table::new(
        format!("FFT plan creation on {device}"),
        &["problem", "kernel", "cold compile ms", "disk cache ms", "memory cache ms"],
    );
    let problems = [
        FftProblem::c2c(16, 1 << 16),
        FftProblem::c2c(360, 1 << 12),
        FftProblem::c2c(1000, 1 << 12),
        FftProblem::c2c(4093, 1 << 10),
        FftProblem::c2c(4096, 1 << 10),
        FftProblem::r2c(4096, 1 << 10),
        FftProblem::c2c(2048, 1 << 10).f64(),
    ];
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    for p in problems {
        let recipe = crate::fft::FftRecipe::design(p, crate::fft::limits(device))?;
        let t = Instant::now();
        device.build_uncached(&FftPlan::source(&recipe))?;
        let plan = FftPlan::from_recipe(device, recipe)?;
        let cold = ms(t);
        device.clear_memory_cache();
        let t = Instant::now();
        let warm = FftPlan::new(device, p)?;
        let disk = ms(t);
        let t = Instant::now();
        FftPlan::new(device, p)?;
        let memory = ms(t);
        let disk_cell = if warm.from_disk_cache() { format!("{disk:.2}") } else { format!("{disk:.2} (cache off)") };
        table.row(vec![
            format!("{} {} n={} batch={}", p.kind, p.precision, p.len, p.batch),
            plan.recipe().kernel_name(),
            format!("{cold:.1}"),
            disk_cell,
            format!("{memory:.3}"),
        ]);
    }
    Ok(table)
}

/// Relative L2 error against rustfft in f64 per size, forward and inverse, beside cuFFT's on
/// the same input (CUDA only).
fn accuracy(device: &Device, cfg: &BenchConfig, precision: Precision, sizes: Vec<usize>) -> Result<Vec<Table>> {
    if sizes.is_empty() {
        return Ok(Vec::new());
    }
    let target = if precision == Precision::F32 { 1e-6 } else { 2e-15 };
    let batch = 4;
    let problems: Vec<FftProblem> = sizes.iter().map(|&n| FftProblem::c2c(n, batch).precision(precision)).collect();
    let pb = progress(cfg, problems.len(), &format!("accuracy {precision}"));
    let plans = FftPlan::new_many(device, &problems)?;
    let cuda = device.backend() == Backend::Cuda;
    let mut table = Table::new(
        format!("FFT C2C {precision} relative L2 error against rustfft in f64 (batch {batch}, random input in [-1, 1))"),
        &["n", "forward", "inverse", "cuFFT forward", "cuFFT inverse"],
    );
    table.csv_only = true;
    let (mut worst, mut worst_cufft, mut over) = ((0.0f64, 0usize), (0.0f64, 0usize), Vec::new());
    for plan in &plans {
        let n = plan.problem().len;
        let mut cells = vec![n.to_string()];
        let mut errs = Vec::new();
        for inverse in [false, true] {
            errs.push(match precision {
                Precision::F32 => one_accuracy::<f32>(device, plan, inverse, false)?,
                Precision::F64 => one_accuracy::<f64>(device, plan, inverse, false)?,
            });
        }
        let mut cufft_errs = Vec::new();
        if cuda {
            for inverse in [false, true] {
                cufft_errs.push(match precision {
                    Precision::F32 => one_accuracy::<f32>(device, plan, inverse, true)?,
                    Precision::F64 => one_accuracy::<f64>(device, plan, inverse, true)?,
                });
            }
        }
        for &e in &errs {
            if !(e <= worst.0) {
                worst = (e, n);
            }
        }
        for &e in &cufft_errs {
            if e > worst_cufft.0 {
                worst_cufft = (e, n);
            }
        }
        if errs.iter().any(|e| !(*e <= target)) {
            over.push(n);
        }
        cells.extend(errs.iter().map(|e| format!("{e:.2e}")));
        cells.extend(if cuda { cufft_errs.iter().map(|e| format!("{e:.2e}")).collect() } else { vec!["-".into(), "-".into()] });
        table.row(cells);
        pb.inc(1);
    }
    pb.finish_and_clear();
    table.summary.push(format!(
        "{} sizes {}..={}: largest error {:.2e} (N={}); target {target:.0e}: {} sizes above it{}",
        plans.len(),
        sizes.first().copied().unwrap_or(0),
        sizes.last().copied().unwrap_or(0),
        worst.0,
        worst.1,
        over.len(),
        if over.is_empty() { String::new() } else { format!(" ({:?})", &over[..over.len().min(20)]) }
    ));
    if cuda {
        table.summary.push(format!("cuFFT on the same inputs: largest error {:.2e} (N={})", worst_cufft.0, worst_cufft.1));
    }
    Ok(vec![table])
}

/// One size's error, ours or cuFFT's, unscaled comparison (both run unnormalized here).
fn one_accuracy<T>(device: &Device, plan: &FftPlan, inverse: bool, use_cufft: bool) -> Result<f64>
where
    T: crate::Element + Into<f64> + Copy,
    Complex<T>: crate::Element + super::random::Random,
{
    let p = plan.problem();
    let x: Vec<Complex<T>> = random_vec(p.len * p.batch, 99 + p.len as u64);
    let wide: Vec<Complex<f64>> = x.iter().map(|c| Complex::new(c.re.into(), c.im.into())).collect();
    let want = reference::c2c(&wide, p.len, inverse);
    let mut input = device.upload(&x)?;
    let mut out = device.alloc::<Complex<T>>(x.len())?;
    let direction = if inverse { Direction::Inverse } else { Direction::Forward };
    // Compare unscaled: undo the plan's normalization on the host.
    let scale = if use_cufft {
        let kind = if std::mem::size_of::<T>() == 4 { CufftKind::C2C } else { CufftKind::Z2Z };
        let cp = CufftPlan::new(device, kind, &[p.len], p.batch)?;
        cp.execute_prefix(&mut input, &mut out, inverse)?;
        1.0
    } else {
        plan.execute(direction, &input, &mut out)?;
        1.0 / p.scale(direction)
    };
    let got = out.to_vec()?;
    Ok(reference::relative_l2_error(got.iter().map(|c| Complex::new(c.re.into() * scale, c.im.into() * scale)), want))
}
