//! `coalesce bench fft --suite variants` (`variants-f64`, `variants-r2c`, `variants-c2r`,
//! `variants-r2c-f64`, `variants-c2r-f64`): for each size, the heuristic's recipe beside its
//! variants (each one tuning choice away, [`FftRecipe::variants`]; where the measured wisdom
//! names a faster kernel for the pick, that kernel's own variants too) and cuFFT, C2C (R2C
//! forward, C2R inverse) in f32 or f64, batched to the run's budget. Kernel development: it
//! shows which rule of the heuristic to change, and how much a measuring autotuner would gain
//! over it.
//!
//! Each size's pick is timed first and last, and every row's "vs heuristic" is over the faster
//! of the two. A gain over the pick timed last alone was also a gain over whatever slowed the
//! device while the list ran: in the seventy-eighth session's C2R 3822 list the H200 slowed
//! from its middle on, and the pick, timed last, ran 0.645 of copy against 0.815 in a run
//! without that drift, so that every variant timed before the slowdown gained ~1.27x over it.
//! Against the faster timing a gain is credited only where the variant beat the pick at its
//! best; the summary names the sizes whose two timings differ by 3% or more.

use std::collections::BTreeMap;

use super::fft_suite::{batch_to_fill, geometric_mean, Buffers};
use super::{driver_copy_gbps, progress, time_launches, BenchConfig, Table, TimingPlan};
use crate::device::Device;
use crate::error::Result;
use crate::fft::wisdom::PICK_TIMED_FIRST;
use crate::fft::{limits, DeviceLimits, Direction, FftKind, FftPlan, FftProblem, FftRecipe, Precision, VARIANT_PATH_SEPARATOR};
use crate::Backend;

/// C2C sizes timed when `--sizes` names none: 13-smooth sizes below 0.85 of copy in the H200 sweep,
/// large prime codelets, and Bluestein sizes (primes, and products with a large prime).
const DEFAULT_SIZES: [usize; 24] = [
    35, 39, 42, 55, 88, 120, 135, 2904, 127, 131, 257, 509, 1021, 1031, 1505, 2039, 2053, 2074, 2279, 3001, 3067, 4093, 2 * 1031, 3 * 1009,
];

/// Real transforms' sizes timed when `--sizes` names none: even 13-smooth lengths under 0.85
/// of copy in the H200 real suite (eighteenth session), short and long rows, staged and direct.
const DEFAULT_REAL_SIZES: [usize; 12] = [84, 180, 260, 264, 390, 576, 648, 1210, 1728, 1848, 2916, 3960];

/// The sizes a variants suite of `kind` times when `--sizes` names none.
pub(super) fn default_sizes(kind: FftKind) -> Vec<usize> {
    match kind {
        FftKind::C2C => DEFAULT_SIZES.to_vec(),
        FftKind::R2C | FftKind::C2R => DEFAULT_REAL_SIZES.to_vec(),
    }
}

/// One size's timings.
#[derive(Default)]
struct SizeTimings {
    /// (variant, milliseconds, fraction of copy) in the order timed, the heuristic last.
    rows: Vec<(String, f64, f64)>,
    /// The pick timed before the size's first variant: milliseconds, fraction of copy.
    pick_first: (f64, f64),
    /// cuFFT's fraction of copy, timed beside the pick's last timing (CUDA).
    cufft: Option<f64>,
}

const TIMING: TimingPlan = TimingPlan { reps: 5, launches: 10 };

/// Times the variants of each size's pick, only those named in `only` where it names any
/// (names as the table prints them, spaces optional: `threadsx2` for `threads x2`; a
/// trailing `*` takes every name it begins: `convolution*` for every convolution length; a
/// leading `!` leaves out what it names: `!convolution*` times every variant but those). The
/// variants of the wisdom's kernel are named `then` and their own name here (`then*`: all
/// of them, and no variant of the pick). A name with `VARIANT_PATH_SEPARATOR` in it is a path
/// of steps from the pick (`mirror of r2c / min 2 blocks/SM`); one led by a length and a
/// colon (`98:rows /4 / direct io`) is timed at that length alone, and skipped where the
/// sizes leave that length out, so that one run times many lengths' own paths
/// (`fft_wisdom --stale`). Where any filter is given, the kernel planning runs is timed too,
/// under its path (`planned_kernel`: the wisdom's, or the lane-group design).
pub(super) fn run(device: &Device, cfg: &BenchConfig, sizes: &[usize], only: &[String], kind: FftKind, precision: Precision) -> Result<Table> {
    let budget: usize = if cfg.quick { 16 << 20 } else { 256 << 20 };
    let lim = limits(device);
    // Every size's pick and variants, compiled together.
    let mut recipes: Vec<(usize, String, FftRecipe)> = Vec::new();
    // A name matches a filter ignoring spaces; a filter ending in '*' matches by prefix.
    let squeeze = |name: &str| name.replace(' ', "");
    let matches = |filter: &str, name: &str| match squeeze(filter).strip_suffix('*') {
        Some(prefix) => squeeze(name).starts_with(prefix),
        None => squeeze(filter) == squeeze(name),
    };
    let (left_out, only): (Vec<&String>, Vec<&String>) = only.iter().partition(|o| o.starts_with('!'));
    let left_out: Vec<&str> = left_out.iter().map(|o| &o[1..]).collect();
    // Paths (or names) of one length (`98:rows /4 / direct io`), by length.
    let (only, scoped): (Vec<&String>, Vec<(usize, &str)>) = split_length_scoped(only);
    // Paths named in full (`mirror pairs / threads /2`): the recipe each reaches from the pick.
    let (paths, only): (Vec<&String>, Vec<&String>) = only.into_iter().partition(|o| o.contains(VARIANT_PATH_SEPARATOR));
    let mut scoped_paths: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for (n, path) in scoped {
        scoped_paths.entry(n).or_default().push(path);
    }
    // No path named, for every length or for one: with no name either, every variant is timed.
    let every = paths.is_empty() && scoped_paths.is_empty();
    let mut offered = std::collections::BTreeSet::new();
    for &n in sizes {
        let batch = batch_to_fill(kind, precision, n, budget);
        // Rows as N-d plans design them: longer ones than one launch's 1D plans take too.
        let problem = FftProblem { kind, ..FftProblem::c2c(n, batch) }.precision(precision);
        let pick = FftRecipe::design_row_by_heuristic(problem, lim)?;
        let wanted = |what: &str| (if only.is_empty() { every } else { only.iter().any(|o| matches(o, what)) }) && !left_out.iter().any(|o| matches(o, what));
        let first_step = pick.variants(lim);
        // Where the wisdom names a faster kernel for the pick, that kernel's
        // own variants too, named by their path from the pick and filtered as "then" and
        // their last step (`then*` times these alone): the search's next step. Kernels the
        // first step times already are left out.
        let wisdom = pick.wisdom_variant(lim);
        let next_step = wisdom.as_ref().map_or(Vec::new(), |(path, from)| from.variants(lim).into_iter().map(|(what, r)| (*path, what, r)).collect());
        let mut timed: std::collections::HashSet<String> = first_step.iter().map(|(_, r)| r.kernel_name()).collect();
        timed.insert(pick.kernel_name());
        // The kernels this length times so far (its pick's row comes last).
        let mut pushed: std::collections::HashSet<String> = [pick.kernel_name()].into();
        for (what, r) in first_step {
            offered.insert(what.clone());
            if wanted(&what) {
                pushed.insert(r.kernel_name());
                recipes.push((n, what, r));
            }
        }
        // Where a filter picks what is timed, the kernel the planner runs is timed too
        // (`planned_kernel`). Paths named in full reach their recipe from the pick.
        let filtered = !only.is_empty() || !every;
        let planned = planned_kernel(&pick, wisdom.as_ref(), lim).filter(|_| filtered);
        let own_paths = scoped_paths.get(&n).map_or(&[][..], Vec::as_slice);
        let mut reached = Vec::new();
        for &path in own_paths {
            let r = pick.variant_path(lim, path).ok_or_else(|| crate::error::Error::invalid(format!("--variants: no path '{path}' from the pick at length {n} ({})", pick.kernel_name())))?;
            reached.push((path.to_string(), r));
        }
        let common = paths.iter().filter_map(|path| Some((path.to_string(), pick.variant_path(lim, path)?)));
        for (path, r) in planned.into_iter().chain(common).chain(reached) {
            offered.insert(path.clone());
            let name = r.kernel_name();
            if pushed.insert(name.clone()) {
                timed.insert(name);
                recipes.push((n, path, r));
            }
        }
        for (path, what, r) in next_step {
            let then = format!("then {what}");
            offered.insert(then.clone());
            if wanted(&then) && timed.insert(r.kernel_name()) {
                recipes.push((n, format!("{path}{VARIANT_PATH_SEPARATOR}{what}"), r));
            }
        }
        recipes.push((n, "heuristic".into(), pick));
    }
    // (What '!' leaves out may be absent: a shard of the sizes may have no Bluestein row.)
    if let Some(unknown) = only.iter().chain(&paths).find(|o| !offered.iter().any(|w| matches(o, w))) {
        let known: Vec<&str> = offered.iter().map(String::as_str).collect();
        return Err(crate::error::Error::invalid(format!("--variants: no variant named '{unknown}' for these sizes; they have: {}", known.join(", "))));
    }
    let pb = progress(cfg, recipes.len(), "variants");
    pb.set_message("compiling");
    let plans = FftPlan::from_recipes(device, recipes.iter().map(|r| r.2.clone()).collect())?;
    if cfg.fft.compile_only {
        pb.finish_and_clear();
        let kernels = recipes.iter().zip(&plans).map(|((n, what, _), plan)| (*n, what.clone(), plan));
        return Ok(super::fft_suite::compiled_table(&format!("{kind} {precision} variants"), kernels));
    }
    pb.set_message("variants");
    let (_, copy_gbps) = driver_copy_gbps(device, budget, TimingPlan::FULL)?;
    let mut table = Table::new(
        format!("FFT {kind} {precision}: the heuristic's recipe and its variants, {} per buffer", super::human_bytes(budget)),
        &["n", "variant", "kernel", "ms", "of copy", "vs heuristic", "vs cuFFT"],
    );
    let labels: Vec<(usize, &str)> = recipes.iter().map(|(n, what, _)| (*n, what.as_str())).collect();
    let per_size = match precision {
        Precision::F32 => time_plans(device, &mut Buffers::<f32>::new(device, budget)?, &labels, &plans, copy_gbps, &|| pb.inc(1))?,
        Precision::F64 => time_plans(device, &mut Buffers::<f64>::new(device, budget)?, &labels, &plans, copy_gbps, &|| pb.inc(1))?,
    };
    pb.finish_and_clear();
    let kernels: BTreeMap<(usize, &str), String> = recipes.iter().map(|(n, w, r)| ((*n, w.as_str()), r.kernel_name())).collect();
    let mut gains: BTreeMap<String, Vec<(usize, f64)>> = BTreeMap::new();
    let mut best_gain = Vec::new();
    let mut drifted = Vec::new();
    for (n, SizeTimings { rows, pick_first, cufft }) in &per_size {
        let pick_last = rows.last().map_or(f64::NAN, |f| f.2);
        let pick = pick_first.1.max(pick_last);
        if pick_first.1.min(pick_last) * 1.03 <= pick {
            drifted.push(format!("{n} ({:.3} -> {pick_last:.3})", pick_first.1));
        }
        let first_row = (PICK_TIMED_FIRST.to_string(), pick_first.0, pick_first.1);
        for (what, ms, frac) in std::iter::once(&first_row).chain(rows) {
            let recipe_of = if what == PICK_TIMED_FIRST { "heuristic" } else { what.as_str() };
            table.row(vec![
                n.to_string(),
                what.clone(),
                kernels[&(*n, recipe_of)].clone(),
                format!("{ms:.4}"),
                format!("{frac:.3}"),
                format!("{:.3}", frac / pick),
                cufft.map_or("-".into(), |c| format!("{:.3}", frac / c)),
            ]);
            if what != "heuristic" && what != PICK_TIMED_FIRST {
                // (The next step's variants summed up by their last step.)
                let kind = match what.rsplit_once(VARIANT_PATH_SEPARATOR) {
                    Some((_, last)) => format!("then {last}"),
                    None => what.clone(),
                };
                gains.entry(kind).or_default().push((*n, frac / pick));
            }
        }
        let best = rows.iter().map(|f| f.2).fold(pick_first.1, f64::max);
        best_gain.push((*n, best / pick, cufft.map(|c| best / c)));
    }
    table.summary = summarize(copy_gbps, &gains, &best_gain);
    if !drifted.is_empty() {
        table.summary.push(format!("the pick's first and last timings differ by 3% or more (the device drifted; gains are over the faster): {}", drifted.join(", ")));
    }
    Ok(table)
}

/// The kernel planning runs for a row whose heuristic pick is `pick`, where it is not the pick,
/// with the variant path that reaches it: the wisdom's (`wisdom`, the pick's
/// `wisdom_variant`), or the lane-group design (`lane groups`) where planning lays the row out
/// by that model (fft/lane_groups.rs). A campaign that times only the variants it names still
/// times this kernel beside them, so that an entry must beat what the row ran: in the
/// eighty-eighth session 23 rows of the lane-group table took entries measured against the
/// pick alone, and some ran 0.63x-0.87x what they had.
fn planned_kernel(pick: &FftRecipe, wisdom: Option<&(&'static str, FftRecipe)>, lim: DeviceLimits) -> Option<(String, FftRecipe)> {
    if let Some((path, r)) = wisdom {
        return Some((path.to_string(), r.clone()));
    }
    if !crate::fft::lane_groups::listed(&pick.problem, lim) {
        return None;
    }
    let lanes = "lane groups";
    pick.variant_path(lim, lanes).map(|r| (lanes.to_string(), r))
}

/// `filters` parted into those for every length and those led by one length and a colon
/// (`98:rows /4 / direct io` -> (98, "rows /4 / direct io")).
fn split_length_scoped(filters: Vec<&String>) -> (Vec<&String>, Vec<(usize, &str)>) {
    let mut common = Vec::new();
    let mut scoped = Vec::new();
    for filter in filters {
        match filter.split_once(':').and_then(|(n, rest)| Some((n.trim().parse::<usize>().ok()?, rest.trim()))) {
            Some(one) => scoped.push(one),
            None => common.push(filter),
        }
    }
    (common, scoped)
}

/// Times each plan (labelled by size and variant) on `buffers`, each size's heuristic pick
/// (its last plan) also before its first, and cuFFT beside the pick's last timing on CUDA, as
/// fractions of `copy_gbps`; `tick` after each plan.
fn time_plans<T: crate::Element + crate::bench::random::Random>(
    device: &Device,
    buffers: &mut Buffers<T>,
    labels: &[(usize, &str)],
    plans: &[FftPlan],
    copy_gbps: f64,
    tick: &dyn Fn(),
) -> Result<BTreeMap<usize, SizeTimings>>
where
    crate::Complex<T>: crate::Element + crate::bench::random::Random,
{
    let picks: BTreeMap<usize, &FftPlan> = labels.iter().zip(plans).filter(|(l, _)| l.1 == "heuristic").map(|(l, plan)| (l.0, plan)).collect();
    // C2R runs inverse (its only direction), the others forward.
    let direction = |p: &FftProblem| p.fixed_direction().unwrap_or(Direction::Forward);
    // (ms, fraction of copy) of one plan.
    let time = |buffers: &mut Buffers<T>, plan: &FftPlan| -> Result<(f64, f64)> {
        let p = *plan.problem();
        let t = time_launches(device, TIMING, || buffers.ours(plan, direction(&p)))?;
        Ok((t.median_ms, t.gbps(p.bytes_moved() as f64) / copy_gbps))
    };
    let mut per_size: BTreeMap<usize, SizeTimings> = BTreeMap::new();
    for (&(n, what), plan) in labels.iter().zip(plans) {
        if let std::collections::btree_map::Entry::Vacant(first) = per_size.entry(n) {
            first.insert(SizeTimings { pick_first: time(buffers, picks[&n])?, ..SizeTimings::default() });
        }
        let (ms, frac) = time(buffers, plan)?;
        let entry = per_size.get_mut(&n).expect("inserted above");
        entry.rows.push((what.to_string(), ms, frac));
        if what == "heuristic" && device.backend() == Backend::Cuda {
            let p = *plan.problem();
            let c = buffers.time_cufft(device, &p, direction(&p), TIMING)?;
            entry.cufft = Some(c.gbps(p.bytes_moved() as f64) / copy_gbps);
        }
        tick();
    }
    Ok(per_size)
}

fn summarize(copy_gbps: f64, gains: &BTreeMap<String, Vec<(usize, f64)>>, best: &[(usize, f64, Option<f64>)]) -> Vec<String> {
    let mut out = vec![format!("device copy: {copy_gbps:.0} GB/s; 'vs heuristic' > 1: the variant is faster than the pick (the faster of its two timings)")];
    for (what, v) in gains {
        let wins: Vec<String> = v.iter().filter(|g| g.1 > 1.03).map(|g| format!("{} ({:.2})", g.0, g.1)).collect();
        out.push(format!(
            "{what:<18} {:>3} sizes, geometric mean {:.3}; faster by >3% at {}{}",
            v.len(),
            geometric_mean(v.iter().map(|g| g.1)),
            wins.len(),
            if wins.is_empty() { String::new() } else { format!(": {}", wins.join(", ")) }
        ));
    }
    out.push(format!(
        "best variant per size over the heuristic: geometric mean {:.3}; best variant vs cuFFT: slower at {} of {} sizes",
        geometric_mean(best.iter().map(|b| b.1)),
        best.iter().filter(|b| b.2.is_some_and(|r| r < 1.0)).count(),
        best.iter().filter(|b| b.2.is_some()).count()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::{planned_kernel, split_length_scoped};
    use crate::fft::{lane_groups, DeviceLimits, FftKind, FftProblem, FftRecipe, Precision};

    #[test]
    fn a_filter_led_by_a_length_and_a_colon_is_that_length_alone() {
        let filters: Vec<String> = ["98:rows /4 / direct io", "ping-pong", " 132 : min 3 blocks/SM", "mirror pairs / threads /2", "x:rows /2"].map(String::from).to_vec();
        let (common, scoped) = split_length_scoped(filters.iter().collect());
        assert_eq!(common, [&filters[1], &filters[3], &filters[4]], "names, paths and a non-length before a colon apply to every length");
        assert_eq!(scoped, [(98, "rows /4 / direct io"), (132, "min 3 blocks/SM")]);
    }

    /// The variants suite times what planning runs beside a filter's variants: the lane-group
    /// design at a row the lane-group table lists, the wisdom's kernel at a row with an entry,
    /// nothing more at a row planned as picked (the first length of each kind).
    #[test]
    fn the_planned_kernel_is_what_planning_designs() {
        let lim = DeviceLimits::H200;
        let listed = lane_groups::listed_lengths(FftKind::C2C, Precision::F32);
        let pick = |n: usize| FftRecipe::design_by_heuristic(FftProblem::c2c(n, 1000), lim).unwrap();
        let with_wisdom = (2..4096).find(|&n| !listed.contains(&n) && pick(n).wisdom_variant(lim).is_some()).unwrap();
        let plain = (2..4096).find(|&n| !listed.contains(&n) && pick(n).wisdom_variant(lim).is_none()).unwrap();
        for (n, expected) in [(listed[0], Some("lane groups")), (with_wisdom, pick(with_wisdom).wisdom_variant(lim).map(|w| w.0)), (plain, None)] {
            let (pick, planned) = (pick(n), FftRecipe::design(FftProblem::c2c(n, 1000), lim).unwrap());
            let got = planned_kernel(&pick, pick.wisdom_variant(lim).as_ref(), lim);
            assert_eq!(got.as_ref().map(|(path, _)| path.as_str()), expected, "{n}");
            assert_eq!(got.map_or(pick.kernel_name(), |(_, r)| r.kernel_name()), planned.kernel_name(), "{n}");
        }
    }
}
