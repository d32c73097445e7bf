//! `coalesce bench permute`: permutes, interlaces and shifts against the driver's copy of the
//! same bytes in the same run, beside the naive one-thread-per-element gather.
//!
//! Cases: seed 001's (all six orders of a 128x256x512 tensor; its 3D-5D reorders, dimensions
//! listed fastest first as the seed does), 256^3 and 512^3 in f32, f64 and complex64, 200
//! random permutations of rank 2 to 7 with at least 64M elements (cuTT's statistics: median,
//! worst, best), interlace and de-interlace of 2 to 9 arrays, fftshift, ifftshift and roll.

use std::collections::HashMap;

use super::random::{random_vec, splitmix64};
use super::{driver_copy_gbps, human_bytes, progress, ratio, time_launches, BenchConfig, Table, Timing, TimingPlan};
use crate::device::{Device, DeviceBuffer};
use crate::element::ScalarKind;
use crate::error::{Error, Result};
use crate::rearrange::{
    InterlaceMethod, InterlacePlan, InterlaceProblem, PermuteMethod, PermutePlan, PermuteProblem, PermuteRecipe, PermuteTuning, ShiftPlan, ShiftProblem, TileShape,
};

const PERMUTE_HEADERS: [&str; 8] = ["case", "type", "elements", "time ms", "GB/s", "of memcpy", "naive of memcpy", "method"];

/// Random bytes on the host and the driver's copy rate per byte count, shared by all cases.
struct Bench<'a> {
    device: &'a Device,
    timing: TimingPlan,
    host: Vec<u8>,
    memcpy: HashMap<usize, f64>,
    /// The last uploaded input, reused while cases keep its size.
    input: Option<DeviceBuffer<u8>>,
}

impl Bench<'_> {
    /// Puts the first `bytes` random bytes on the device, in `self.input`.
    fn upload_input(&mut self, bytes: usize) -> Result<()> {
        if bytes > self.host.len() {
            let words: Vec<u64> = random_vec(bytes.div_ceil(8), 17);
            self.host = words.iter().flat_map(|w| w.to_le_bytes()).take(bytes).collect();
        }
        if self.input.as_ref().is_none_or(|b| b.len() != bytes) {
            self.input = None;
            self.input = Some(self.device.upload(&self.host[..bytes])?);
        }
        Ok(())
    }

    /// The driver's copy of `bytes` (a multiple of 4), in GB/s counting read + write, measured
    /// once per byte count.
    fn memcpy_gbps(&mut self, bytes: usize) -> Result<f64> {
        if let Some(&g) = self.memcpy.get(&bytes) {
            return Ok(g);
        }
        let (_, g) = driver_copy_gbps(self.device, bytes, self.timing)?;
        self.memcpy.insert(bytes, g);
        Ok(g)
    }

    /// Times a built permute and its naive twin; checks sampled outputs of both.
    fn permute(&mut self, label: &str, plan: &PermutePlan, naive: Option<&PermutePlan>) -> Result<Vec<String>> {
        let p = &plan.recipe().problem;
        let e = p.kind.size();
        let bytes = p.input_len()? * e;
        let mem = self.memcpy_gbps(bytes)?;
        let mut dst = self.device.alloc::<u8>(p.output_len()? * e)?;
        self.upload_input(bytes)?;
        let src = self.input.as_ref().expect("uploaded");
        let t = time_launches(self.device, self.timing, || plan.execute(src, &mut dst))?;
        verify(plan, &self.host, &dst)?;
        let naive_frac = match naive {
            Some(n) => {
                self.device.fill_bytes(&mut dst, 0xFF)?;
                let tn = time_launches(self.device, self.timing, || n.execute(src, &mut dst))?;
                verify(n, &self.host, &dst)?;
                ratio(tn.gbps(2.0 * bytes as f64) / mem)
            }
            None => "-".into(),
        };
        let gbps = t.gbps(2.0 * bytes as f64);
        Ok(vec![
            label.to_owned(),
            p.kind.to_string(),
            p.input_len()?.to_string(),
            format!("{:.4}", t.median_ms),
            format!("{gbps:.0}"),
            ratio(gbps / mem),
            naive_frac,
            method(plan),
        ])
    }
}

/// The plan's method in a table cell: `tile 32x32`, `copy`, `naive`.
fn method(plan: &PermutePlan) -> String {
    match &plan.recipe().method {
        PermuteMethod::Copy => "copy".into(),
        PermuteMethod::Naive => "naive".into(),
        PermuteMethod::Tiled(t) => format!("tile {}", t.ext.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("x")),
    }
}

/// 4096 sampled output elements against the input element the layout names.
fn verify(plan: &PermutePlan, host: &[u8], dst: &DeviceBuffer<u8>) -> Result<()> {
    let r = plan.recipe();
    let e = r.problem.kind.size();
    let got = dst.to_vec()?;
    let count = got.len() / e;
    for s in 0..4096u64 {
        let k = (splitmix64(s) % count as u64) as usize;
        let i = r.layout.src_index(k as u64) as usize;
        if got[k * e..(k + 1) * e] != host[i * e..(i + 1) * e] {
            return Err(Error::invalid(format!("permute benchmark: output element {k} of {:?} is wrong after timing", r.problem)));
        }
    }
    Ok(())
}

/// numpy shape and axes from the seed's notation: dimensions fastest first, and output
/// dimension i (fastest first) is input dimension `perm[i]`.
fn from_seed(dims: &[usize], perm: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let r = dims.len();
    let shape: Vec<usize> = dims.iter().rev().copied().collect();
    let mut axes = vec![0; r];
    for (i, &p) in perm.iter().enumerate() {
        axes[r - 1 - i] = r - 1 - p;
    }
    (shape, axes)
}

fn seed_label(dims: &[usize], perm: &[usize]) -> String {
    let list = |v: &[usize]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
    format!("[{}] by [{}]", list(dims), list(perm))
}

const ORDERS_3D: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

pub(super) fn run(device: &Device, cfg: &BenchConfig) -> Result<Vec<Table>> {
    let mut b = Bench { device, timing: cfg.timing(), host: Vec::new(), memcpy: HashMap::new(), input: None };
    let q = cfg.quick;
    if let Some(problem) = &cfg.permute_case {
        return case_study(&mut b, cfg, problem);
    }
    let mut tables = vec![seed_cases(&mut b, cfg, q)?, cubes(&mut b, cfg, q)?, random_suite(&mut b, cfg, q)?, interlace(&mut b, cfg, q)?, shifts(&mut b, cfg, q)?];
    if cfg.sweep {
        tables.extend(tuning_sweep(&mut b, cfg, q)?);
    }
    Ok(tables)
}

/// `--sweep`: the random suite and the 512^3 orders under each tile tuning: one row per tuning,
/// and one row per case with its fraction of memcpy under each tuning.
fn tuning_sweep(b: &mut Bench, cfg: &BenchConfig, quick: bool) -> Result<Vec<Table>> {
    let (mut problems, _) = random_problems(quick);
    let random_count = problems.len();
    let n = if quick { 64 } else { 512 };
    problems.extend(ORDERS_3D[1..].iter().map(|o| PermuteProblem::new(ScalarKind::F32, &[n, n, n], o)));
    let mut tunings = Vec::new();
    for run_bytes in [128, 192, 256] {
        for tile_bytes in [8192, 16384, 24576] {
            tunings.push(PermuteTuning { run_bytes, tile_bytes });
        }
    }
    let pairs: Vec<(usize, PermuteTuning)> = (0..problems.len()).flat_map(|i| tunings.iter().map(move |&t| (i, t))).collect();
    let built = in_parallel(&pairs, |(i, t)| PermutePlan::from_recipe(b.device, PermuteRecipe::with_tuning(problems[*i].clone(), *t)?));
    let mut fracs = vec![Vec::new(); tunings.len()];
    let mut per_case = vec![Vec::new(); problems.len()];
    let pb = progress(cfg, pairs.len(), "sweep");
    for ((i, tuning), plan) in pairs.iter().zip(built) {
        let plan = plan?;
        let e = plan.recipe().problem.kind.size();
        let bytes = plan.recipe().problem.input_len()? * e;
        let mem = b.memcpy_gbps(bytes)?;
        let mut dst = b.device.alloc::<u8>(bytes)?;
        b.upload_input(bytes)?;
        let src = b.input.as_ref().expect("uploaded");
        let t = time_launches(b.device, b.timing, || plan.execute(src, &mut dst))?;
        let which = tunings.iter().position(|t| t == tuning).expect("a swept tuning");
        let frac = t.gbps(2.0 * bytes as f64) / mem;
        fracs[which].push(frac);
        per_case[*i].push(ratio(frac));
        pb.inc(1);
    }
    pb.finish_and_clear();
    let names: Vec<String> = tunings.iter().map(|t| format!("{}/{}", t.run_bytes, t.tile_bytes)).collect();
    let mut headers = vec!["case"];
    headers.extend(names.iter().map(String::as_str));
    let mut cases = Table::new(format!("permute tile tuning on {}: fraction of memcpy per case under each tuning (run bytes/tile bytes)", b.device), &headers);
    for (p, row) in problems.iter().zip(per_case) {
        cases.row(std::iter::once(format!("{:?} axes {:?}", p.shape, p.axes)).chain(row).collect());
    }
    let mut table = Table::new(
        format!("permute tile tuning on {}: the random suite and the {n}^3 f32 orders under each tuning", b.device),
        &["run bytes", "tile bytes", "random median", "random worst", &format!("{n}^3 worst")],
    );
    for (t, f) in tunings.iter().zip(&mut fracs) {
        let (random, cube) = f.split_at_mut(random_count);
        random.sort_by(|a, b| a.total_cmp(b));
        let cube_worst = cube.iter().copied().fold(f64::MAX, f64::min);
        table.row(vec![t.run_bytes.to_string(), t.tile_bytes.to_string(), ratio(random[random.len() / 2]), ratio(random[0]), ratio(cube_worst)]);
    }
    Ok(vec![table, cases])
}

/// `--shape S --axes A`: one problem under the default design beside the naive gather; with
/// `--sweep`, also every distinct tile that a tuning in a grid designs, each under every order
/// of its block index (all orders up to 4 tiled axes; else the design's, the output's, and
/// the output's with each axis moved first), fastest first.
fn case_study(b: &mut Bench, cfg: &BenchConfig, problem: &PermuteProblem) -> Result<Vec<Table>> {
    let (plan, naive) = plans(b.device, problem.clone())?;
    let label = format!("{:?} axes {:?}", problem.shape, problem.axes);
    let mut table = Table::new(format!("permute on {}: one case, default design", b.device), &PERMUTE_HEADERS);
    table.row(b.permute(&label, &plan, Some(&naive))?);
    if !cfg.sweep {
        return Ok(vec![table]);
    }
    let layout = &plan.recipe().layout;
    let mut tiles: Vec<(PermuteTuning, TileShape)> = Vec::new();
    for run_bytes in [128, 192, 256, 384, 512] {
        for tile_bytes in [4096, 8192, 16384, 24576] {
            let tuning = PermuteTuning { run_bytes, tile_bytes };
            if let PermuteMethod::Tiled(t) = PermuteRecipe::with_tuning(problem.clone(), tuning)?.method {
                let designed = t.clone();
                for order in block_orders(&t.block_order) {
                    let tile = designed.clone().with_block_order(&order).expect("a reordering of the design's axes");
                    if !tiles.iter().any(|(_, x)| *x == tile) {
                        tiles.push((tuning, tile));
                    }
                }
            }
        }
    }
    let recipes: Vec<PermuteRecipe> = tiles
        .iter()
        .map(|(_, t)| PermuteRecipe { problem: problem.clone(), layout: layout.clone(), method: PermuteMethod::Tiled(t.clone()) })
        .collect();
    let built = in_parallel(&recipes, |r| PermutePlan::from_recipe(b.device, r.clone()));
    let mut rows = Vec::new();
    let pb = progress(cfg, tiles.len(), "case");
    for ((tuning, tile), plan) in tiles.iter().zip(built) {
        let row = b.permute(&label, &plan?, None)?;
        let list = |v: &[usize]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",");
        rows.push((row[5].parse::<f64>().unwrap_or(0.0), vec![
            format!("{}/{}", tuning.run_bytes, tuning.tile_bytes),
            row[7].clone(),
            list(&tile.block_order),
            tile.threads.to_string(),
            row[3].clone(),
            row[5].clone(),
        ]));
        pb.inc(1);
    }
    pb.finish_and_clear();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut sweep = Table::new(
        format!("permute on {}: {label}, every designed tile under each block order (layout axes, output's fastest first)", b.device),
        &["run/tile bytes", "method", "block order", "threads", "time ms", "of memcpy"],
    );
    for (_, row) in rows {
        sweep.row(row);
    }
    Ok(vec![table, sweep])
}

/// Orders of the block index over `axes` (the design's order) to compare: every permutation
/// up to 4 axes; beyond, the design's, the ascending one and the ascending with each axis first.
fn block_orders(axes: &[usize]) -> Vec<Vec<usize>> {
    fn permutations(rest: &[usize]) -> Vec<Vec<usize>> {
        if rest.is_empty() {
            return vec![Vec::new()];
        }
        (0..rest.len())
            .flat_map(|i| {
                let mut others = rest.to_vec();
                let first = others.remove(i);
                permutations(&others).into_iter().map(move |mut p| {
                    p.insert(0, first);
                    p
                })
            })
            .collect()
    }
    if axes.len() <= 4 {
        return permutations(axes);
    }
    let mut sorted = axes.to_vec();
    sorted.sort_unstable();
    let mut orders = vec![axes.to_vec(), sorted.clone()];
    for &k in &sorted {
        orders.push(std::iter::once(k).chain(sorted.iter().copied().filter(|&x| x != k)).collect());
    }
    orders
}

/// Builds a plan and its naive twin for a case.
fn plans(device: &Device, problem: PermuteProblem) -> Result<(PermutePlan, PermutePlan)> {
    Ok((PermutePlan::new(device, problem.clone())?, PermutePlan::from_recipe(device, PermuteRecipe::naive(problem)?)?))
}

fn seed_cases(b: &mut Bench, cfg: &BenchConfig, quick: bool) -> Result<Table> {
    let mut cases: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    let d3 = if quick { vec![32, 64, 128] } else { vec![128, 256, 512] };
    for o in ORDERS_3D {
        cases.push((d3.clone(), o.to_vec()));
    }
    let n = if quick { 64 } else { 256 };
    cases.push((vec![n, n, n], vec![1, 0, 2]));
    cases.push((vec![n, n, n, 1], vec![1, 0, 2, 3]));
    cases.push((vec![n, n, 1, n], vec![3, 2, 0, 1]));
    cases.push((vec![n, 16, 1, n, 16], vec![3, 0, 2, 1, 4]));
    let mut table = Table::new(
        format!("permute on {}: seed 001's cases, f32, dimensions fastest first; read + write per second", b.device),
        &PERMUTE_HEADERS,
    );
    let pb = progress(cfg, cases.len(), "seed");
    let mut lowest_3d = f64::MAX;
    for (i, (dims, perm)) in cases.iter().enumerate() {
        let (shape, axes) = from_seed(dims, perm);
        let (plan, naive) = plans(b.device, PermuteProblem::new(ScalarKind::F32, &shape, &axes))?;
        let row = b.permute(&seed_label(dims, perm), &plan, Some(&naive))?;
        if i < 6 {
            lowest_3d = lowest_3d.min(row[5].parse().unwrap_or(0.0));
        }
        table.row(row);
        pb.inc(1);
    }
    pb.finish_and_clear();
    table.summary.push(format!("six orders of [{}]: lowest {lowest_3d:.3} of memcpy", d3.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")));
    Ok(table)
}

fn cubes(b: &mut Bench, cfg: &BenchConfig, quick: bool) -> Result<Table> {
    let sizes: Vec<usize> = if quick { vec![32, 64] } else { vec![256, 512] };
    let kinds = [ScalarKind::F32, ScalarKind::F64, ScalarKind::C32];
    let mut table = Table::new(format!("permute on {}: every order of n^3 (numpy axes)", b.device), &PERMUTE_HEADERS);
    let pb = progress(cfg, sizes.len() * kinds.len() * 6, "cubes");
    let mut lowest: HashMap<String, f64> = HashMap::new();
    for &n in &sizes {
        for kind in kinds {
            for o in ORDERS_3D {
                let (plan, naive) = plans(b.device, PermuteProblem::new(kind, &[n, n, n], &o))?;
                let row = b.permute(&format!("{n}^3 axes ({}, {}, {})", o[0], o[1], o[2]), &plan, Some(&naive))?;
                let key = format!("{n}^3 {kind}");
                let f: f64 = row[5].parse().unwrap_or(0.0);
                lowest.entry(key).and_modify(|x| *x = x.min(f)).or_insert(f);
                table.row(row);
                pb.inc(1);
            }
        }
    }
    pb.finish_and_clear();
    let mut keys: Vec<_> = lowest.into_iter().collect();
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, f) in keys {
        table.summary.push(format!("{k}: lowest of the six orders {f:.3} of memcpy"));
    }
    Ok(table)
}

/// A random shape of `rank` axes (each at least 2) with between `min` and `2 min` elements.
fn random_shape(rank: usize, min: u64, next: &mut impl FnMut() -> u64) -> Vec<usize> {
    let weights: Vec<f64> = (0..rank).map(|_| 0.2 + (next() % 1000) as f64 / 1000.0).collect();
    let total: f64 = weights.iter().sum();
    let bits = (min as f64).log2();
    let mut shape: Vec<usize> = weights.iter().map(|w| (2f64.powf(bits * w / total).round() as usize).max(2)).collect();
    let count = |s: &[usize]| s.iter().map(|&x| x as u64).product::<u64>();
    // Grow the smallest axes until the count reaches `min` (each step at most doubles it).
    while count(&shape) < min {
        let k = (0..rank).min_by_key(|&k| shape[k]).expect("rank >= 2");
        shape[k] = (shape[k] * 2).min(shape[k] + (min.div_ceil(count(&shape) / shape[k] as u64) as usize).max(1));
    }
    shape
}

/// The random suite's problems: `cases` permutations of rank 2 to 7 with at least `min`
/// elements, none the identity (a plain copy), from a fixed seed.
fn random_problems(quick: bool) -> (Vec<PermuteProblem>, u64) {
    let (cases, min) = if quick { (10, 1u64 << 18) } else { (200, 64u64 << 20) };
    let mut rng = splitmix64(2024);
    let mut next = || {
        rng = splitmix64(rng);
        rng
    };
    let mut problems = Vec::new();
    while problems.len() < cases {
        let rank = 2 + (next() % 6) as usize;
        let shape = random_shape(rank, min, &mut next);
        let mut axes: Vec<usize> = (0..rank).collect();
        for k in (1..rank).rev() {
            axes.swap(k, (next() % (k as u64 + 1)) as usize);
        }
        // The identity is a plain copy: draw again.
        if axes.iter().enumerate().all(|(i, &a)| i == a) {
            continue;
        }
        problems.push(PermuteProblem::new(ScalarKind::F32, &shape, &axes));
    }
    (problems, min)
}

/// `build` applied to every item on all host cores (kernels compile in parallel).
fn in_parallel<I: Sync, O: Send>(items: &[I], build: impl Fn(&I) -> O + Sync) -> Vec<O> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(16);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(items.len().div_ceil(workers).max(1))
            .map(|c| s.spawn(|| c.iter().map(&build).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("plan worker")).collect()
    })
}

fn random_suite(b: &mut Bench, cfg: &BenchConfig, quick: bool) -> Result<Table> {
    let (problems, min) = random_problems(quick);
    let cases = problems.len();
    let built = in_parallel(&problems, |p| plans(b.device, p.clone()));
    let mut table = Table::new(
        format!("permute on {}: {cases} random permutations of rank 2 to 7, f32, at least {} elements (numpy shape and axes)", b.device, min),
        &PERMUTE_HEADERS,
    );
    let pb = progress(cfg, cases, "random");
    let (mut ours, mut naive) = (Vec::new(), Vec::new());
    for (p, plans) in problems.iter().zip(built) {
        let (plan, nv) = plans?;
        let label = format!("{:?} axes {:?}", p.shape, p.axes);
        let row = b.permute(&label, &plan, Some(&nv))?;
        ours.push(row[5].parse::<f64>().unwrap_or(0.0));
        naive.push(row[6].parse::<f64>().unwrap_or(0.0));
        table.row(row);
        pb.inc(1);
    }
    pb.finish_and_clear();
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        (v[v.len() / 2], v[0], v[v.len() - 1])
    };
    let (m, w, best) = stats(&mut ours);
    let (nm, nw, _) = stats(&mut naive);
    table.summary.push(format!("fraction of memcpy: median {m:.3}, worst {w:.3}, best {best:.3} (naive: median {nm:.3}, worst {nw:.3})"));
    Ok(table)
}

/// The methods the interlace table compares, by column; the library's default is one of them
/// (vector where it applies).
const INTERLACE_METHODS: [(&str, InterlaceMethod); 3] = [
    ("vector", InterlaceMethod::Vector),
    ("tiled 8 KiB", InterlaceMethod::Tiled { tile_bytes: 8192 }),
    ("tiled 16 KiB", InterlaceMethod::Tiled { tile_bytes: 16384 }),
];

fn interlace(b: &mut Bench, cfg: &BenchConfig, quick: bool) -> Result<Table> {
    let total_bytes: usize = if quick { 4 << 20 } else { 256 << 20 };
    let mut headers = vec!["k", "direction", "elements each", "method", "time ms", "GB/s", "of memcpy"];
    headers.extend(INTERLACE_METHODS.iter().map(|m| m.0));
    headers.push("naive of memcpy");
    let mut table = Table::new(
        format!("interlace on {}: k f32 arrays, {} in all; read + write per second, by the default method and by each", b.device, human_bytes(total_bytes)),
        &headers,
    );
    let pb = progress(cfg, 8 * 2, "interlace");
    let mut lowest = f64::MAX;
    for k in 2..=9usize {
        let n = total_bytes / 4 / k;
        let bytes = n * k * 4;
        let mem = b.memcpy_gbps(bytes)?;
        let host: Vec<f32> = random_vec(n * k, 23 + k as u64);
        let parts: Vec<DeviceBuffer<f32>> = host.chunks(n).map(|c| b.device.upload(c)).collect::<Result<_>>()?;
        let mut whole = b.device.alloc::<f32>(n * k)?;
        // The contrast: the naive gather of the stacked arrays ([k, n] -> [n, k]).
        let stacked = b.device.upload(&host)?;
        let naive = PermutePlan::from_recipe(b.device, PermuteRecipe::naive(PermuteProblem::new(ScalarKind::F32, &[k, n], &[1, 0]))?)?;
        let tn = time_launches(b.device, b.timing, || naive.execute(&stacked, &mut whole))?;
        let naive_frac = tn.gbps(2.0 * bytes as f64) / mem;

        let refs: Vec<&DeviceBuffer<f32>> = parts.iter().collect();
        let mut outs: Vec<DeviceBuffer<f32>> = (0..k).map(|_| b.device.alloc::<f32>(n)).collect::<Result<_>>()?;
        let default = InterlaceProblem::new(ScalarKind::F32, k, n);
        // Per method that applies: (interlace, de-interlace) timings.
        let mut timed: Vec<Option<(Timing, Timing)>> = Vec::new();
        for (_, method) in INTERLACE_METHODS {
            let Ok(plan) = InterlacePlan::new(b.device, default.with_method(method)) else {
                timed.push(None);
                continue;
            };
            b.device.fill_bytes(&mut whole, 0xFF)?;
            let t = time_launches(b.device, b.timing, || plan.interlace(&refs, &mut whole))?;
            let got = whole.to_vec()?;
            for s in 0..4096u64 {
                let i = (splitmix64(s) % (n * k) as u64) as usize;
                if got[i].to_bits() != host[(i % k) * n + i / k].to_bits() {
                    return Err(Error::invalid(format!("interlace benchmark: element {i} wrong after timing (k = {k}, {method:?})")));
                }
            }
            let mut out_refs: Vec<&mut DeviceBuffer<f32>> = outs.iter_mut().collect();
            for o in out_refs.iter_mut() {
                b.device.fill_bytes(o, 0xFF)?;
            }
            let td = time_launches(b.device, b.timing, || plan.deinterlace(&whole, &mut out_refs))?;
            for (j, o) in outs.iter().enumerate() {
                if o.to_vec()?.iter().zip(&host[j * n..]).any(|(a, b)| a.to_bits() != b.to_bits()) {
                    return Err(Error::invalid(format!("de-interlace benchmark: array {j} wrong after timing (k = {k}, {method:?})")));
                }
            }
            timed.push(Some((t, td)));
        }
        let which = INTERLACE_METHODS.iter().position(|m| m.1 == default.method).expect("the default is compared");
        for (d, dir) in ["interlace", "de-interlace"].into_iter().enumerate() {
            let pick = |x: &(Timing, Timing)| if d == 0 { x.0 } else { x.1 };
            let fracs: Vec<Option<f64>> = timed.iter().map(|x| x.as_ref().map(|x| pick(x).gbps(2.0 * bytes as f64) / mem)).collect();
            let t = pick(timed[which].as_ref().expect("the default applies"));
            let frac = fracs[which].expect("the default applies");
            lowest = lowest.min(frac);
            let mut row = vec![
                k.to_string(),
                dir.into(),
                n.to_string(),
                INTERLACE_METHODS[which].0.to_owned(),
                format!("{:.4}", t.median_ms),
                format!("{:.0}", t.gbps(2.0 * bytes as f64)),
                ratio(frac),
            ];
            row.extend(fracs.iter().map(|f| f.map_or("-".to_owned(), ratio)));
            row.push(if d == 0 { ratio(naive_frac) } else { "-".to_owned() });
            table.row(row);
            pb.inc(1);
        }
    }
    pb.finish_and_clear();
    table.summary.push(format!("interlace and de-interlace, k = 2..9, default methods: lowest {lowest:.3} of memcpy"));
    Ok(table)
}

fn shifts(b: &mut Bench, cfg: &BenchConfig, quick: bool) -> Result<Table> {
    let (n3, n2) = if quick { (64, 512) } else { (512, 8192) };
    let cases: Vec<(String, ShiftProblem)> = vec![
        (format!("fftshift {}^3", n3 / 2), ShiftProblem::fftshift(ScalarKind::F32, &[n3 / 2; 3], None)?),
        (format!("fftshift {n3}^3"), ShiftProblem::fftshift(ScalarKind::F32, &[n3; 3], None)?),
        (format!("ifftshift {}^3", n3 - 1), ShiftProblem::ifftshift(ScalarKind::F32, &[n3 - 1; 3], None)?),
        (format!("fftshift {n3}^3, axes (1, 2)"), ShiftProblem::fftshift(ScalarKind::F32, &[n3; 3], Some(&[1, 2]))?),
        (format!("roll {n3}^3 by (3, -1, 0)"), ShiftProblem::new(ScalarKind::F32, &[n3; 3], &[3, -1, 0])),
        (format!("fftshift {n2}^2"), ShiftProblem::fftshift(ScalarKind::C32, &[n2, n2], None)?),
    ];
    let mut table = Table::new(format!("circular shift on {}: read + write per second", b.device), &["case", "type", "elements", "time ms", "GB/s", "of memcpy"]);
    let pb = progress(cfg, cases.len(), "shift");
    let mut lowest_3d = f64::MAX;
    for (label, p) in cases {
        let e = p.kind.size();
        let bytes = p.len()? * e;
        let mem = b.memcpy_gbps(bytes)?;
        let plan = ShiftPlan::new(b.device, p.clone())?;
        let mut dst = b.device.alloc::<u8>(bytes)?;
        b.upload_input(bytes)?;
        let src = b.input.as_ref().expect("uploaded");
        let t = time_launches(b.device, b.timing, || plan.execute(src, &mut dst))?;
        // Check: rolling back by the same amounts gives the input.
        let back_plan = ShiftPlan::new(b.device, ShiftProblem::new(p.kind, &p.shape, &p.shifts.iter().map(|s| -s).collect::<Vec<_>>()))?;
        let mut back = b.device.alloc::<u8>(bytes)?;
        back_plan.execute(&dst, &mut back)?;
        if back.to_vec()? != b.host[..bytes] {
            return Err(Error::invalid(format!("shift benchmark: {label} rolled back differs from its input")));
        }
        let frac = t.gbps(2.0 * bytes as f64) / mem;
        if label.starts_with("fftshift") && label.ends_with('3') {
            lowest_3d = lowest_3d.min(frac);
        }
        table.row(vec![label, p.kind.to_string(), p.len()?.to_string(), format!("{:.4}", t.median_ms), format!("{:.0}", t.gbps(2.0 * bytes as f64)), ratio(frac)]);
        pb.inc(1);
    }
    pb.finish_and_clear();
    table.summary.push(format!("fftshift of 3D arrays: lowest {lowest_3d:.3} of memcpy"));
    Ok(table)
}
