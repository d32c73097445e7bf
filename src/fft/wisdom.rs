//! Measured wisdom: kernels that timed faster than the heuristic's pick at their length.
//!
//! The heuristic's rules were fitted on samples of lengths, so at some lengths a recipe one
//! tuning choice away from its pick ([`FftRecipe::variants`]) runs measurably faster, for
//! reasons no rule found. `wisdom/hopper.tsv` names those: the pick's kernel, the faster
//! kernel, which variant that is and its least gain over the rounds timed. [`FftRecipe::design`]
//! (1D plans) and [`FftRecipe::design_row`] (the rows of N-d and multi-pass plans, up to 32768
//! points) run the faster kernel wherever the heuristic designs the pick's.
//!
//! The search goes on from there: where the table already names a faster kernel, the variants
//! suite also times that kernel's own variants, named by their path from the pick
//! (`radix<=25 / order 20x13x13`, [`FftRecipe::variant_path`]), and such a path joins the
//! table as any variant does.
//!
//! The table is generated, never edited: [`wisdom_from_variant_tables`] reads two or more
//! rounds of `coalesce bench fft --suite variants` CSVs (docs/fft, gzipped) and keeps, for each length,
//! the variant (or path) that beat the pick by at least [`MIN_GAIN`] in every round (every round
//! but one, not slower than the pick, once timed in three or more: `repeated_gain`). Entries are keyed by
//! kernel name, which spells out every tuning choice, so an entry applies only where the
//! heuristic still designs exactly the kernel that was timed. A name does not spell the code
//! generated for it, so a campaign that re-times kernels after a codegen change carries
//! [`FRESH_CAMPAIGN_MARK`] in its CSV names: for what it times, its rounds stand alone. A unit test regenerates the table
//! from the CSVs its header names and fails where it differs: a heuristic change that alters a
//! pick makes its entry stale, and `cargo run --release --example fft_wisdom -- CSV...` rewrites it.
//!
//! Measured on an H200. Like the heuristic's own rules, fitted there too, the table applies on
//! every device: the kernels it names compute the same transform, only faster or slower.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

use super::problem::{FftKind, FftProblem, Precision};
use super::recipe::{DeviceLimits, FftRecipe};
use crate::error::{Error, Result};
use standings::standings;

mod standings;

/// The committed table, as `wisdom_from_variant_tables` wrote it.
pub const HOPPER_WISDOM: &str = include_str!("wisdom/hopper.tsv");

/// A variant joins the table only where it beat the pick by this much in every round (but one
/// of three or more, see `repeated_gain`): between
/// two rounds a variant's gain moved by a median of 0.4% (C2C) to 1.7% (R2C), with a 90th
/// percentile of 1.5% to 6.5% (thirty-second session), and smaller gains would not survive a
/// change of machine.
pub const MIN_GAIN: f64 = 1.03;

/// One line of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct WisdomEntry {
    /// The heuristic's pick, as `FftRecipe::kernel_name` names it.
    pub pick: String,
    /// The faster kernel: one of the pick's variants, or a variant of one.
    pub faster: String,
    /// The variant's name (`FftRecipe::variants`), or the path of names that reaches it
    /// (`FftRecipe::variant_path`).
    pub variant: String,
    /// The variant's least speed-up over the pick in the rounds timed (less a forgiven one:
    /// `repeated_gain`).
    pub gain: f64,
}

impl WisdomEntry {
    /// The problem the entry is for (kind, precision and length, as the pick's kernel name
    /// spells them), with `batch` rows; None for a kernel name that is not an FFT's.
    pub fn problem(&self, batch: usize) -> Option<FftProblem> {
        problem_of_kernel(&self.pick).map(|p| FftProblem { batch, ..p })
    }
}

/// (round, gain over the pick) for each round that timed a variant, by the round's place
/// among the CSVs.
type RoundGains = Vec<(usize, f64)>;

/// A variant whose gain over its pick repeated (`repeated_gain`), with its rounds' gains.
struct Candidate {
    entry: WisdomEntry,
    rounds: RoundGains,
}

/// The entries of a table in the format `wisdom_from_variant_tables` writes.
pub fn parse_wisdom(table: &str) -> Result<Vec<WisdomEntry>> {
    let bad = |line: &str| Error::invalid(format!("wisdom: '{line}' is not 'pick<TAB>faster<TAB>variant<TAB>gain'"));
    let lines = table.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            match fields[..] {
                [pick, faster, variant, gain] => Ok(WisdomEntry {
                    pick: pick.into(),
                    faster: faster.into(),
                    variant: variant.into(),
                    gain: gain.parse().map_err(|_| bad(line))?,
                }),
                _ => Err(bad(line)),
            }
        })
        .collect()
}

/// The committed table by pick's kernel name, parsed once.
fn hopper_wisdom() -> &'static HashMap<String, WisdomEntry> {
    static TABLE: OnceLock<HashMap<String, WisdomEntry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // The unit tests parse it too, so a malformed table fails them rather than planning.
        parse_wisdom(HOPPER_WISDOM).unwrap_or_default().into_iter().map(|e| (e.pick.clone(), e)).collect()
    })
}

impl FftRecipe {
    /// This recipe, or the variant of it the wisdom table names as faster.
    pub(crate) fn with_wisdom(self, limits: DeviceLimits) -> Self {
        self.wisdom_variant(limits).map_or(self, |(_, faster)| faster)
    }

    /// Where the wisdom table has an entry for this recipe (a pick), the path of variants it
    /// names and the recipe that path reaches: what planning runs instead, and where the
    /// variants suite goes on searching from.
    pub(crate) fn wisdom_variant(&self, limits: DeviceLimits) -> Option<(&'static str, FftRecipe)> {
        let entry = hopper_wisdom().get(&self.kernel_name())?;
        // (The kernel name checks the variant is the one timed, on any device's limits.)
        let faster = self.variant_path(limits, &entry.variant).filter(|r| r.kernel_name() == entry.faster)?;
        Some((entry.variant.as_str(), faster))
    }
}

/// The problem a kernel name such as `fft_c2r_f64_n97_...` was designed for (batch arbitrary:
/// a contiguous row's kernel does not depend on it).
fn problem_of_kernel(kernel: &str) -> Option<FftProblem> {
    let mut parts = kernel.strip_prefix("fft_")?.split('_');
    let kind = match parts.next()? {
        "c2c" => FftKind::C2C,
        "r2c" => FftKind::R2C,
        "c2r" => FftKind::C2R,
        _ => return None,
    };
    let precision = match parts.next()? {
        "f32" => Precision::F32,
        "f64" => Precision::F64,
        _ => return None,
    };
    let len = parts.next()?.strip_prefix('n')?.parse().ok()?;
    Some(FftProblem { kind, ..FftProblem::c2c(len, 1 << 16) }.precision(precision))
}

/// One CSV row of the variants suite: (pick's kernel, variant, its kernel, vs heuristic).
type VariantRow = (String, String, String, f64);

/// The variants suite's row of each length's pick timed before its variants (the row
/// "heuristic" is the pick timed after them); no variant, so no candidate for the table.
pub const PICK_TIMED_FIRST: &str = "heuristic first";

/// The rows of one variants CSV (`n,variant,kernel,ms,of copy,vs heuristic,vs cuFFT`), each
/// variant beside its length's pick.
fn variant_rows(csv: &str, name: &str) -> Result<Vec<VariantRow>> {
    let bad = |what: &str| Error::invalid(format!("{name}: {what}; expected a CSV of `coalesce bench fft --suite variants`"));
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().ok_or_else(|| bad("empty"))?.split(',').collect();
    let column = |title: &str| header.iter().position(|h| *h == title).ok_or_else(|| bad(&format!("no column '{title}'")));
    let (n, variant, kernel, gain) = (column("n")?, column("variant")?, column("kernel")?, column("vs heuristic")?);
    let rows: Vec<Vec<&str>> = lines.filter(|l| !l.is_empty()).map(|l| l.split(',').collect()).collect();
    if rows.iter().any(|r| r.len() != header.len()) {
        return Err(bad("a row with a different number of fields than the header"));
    }
    // Each length's pick ("heuristic"), which every variant of that length is measured against
    // (since the seventy-eighth session, over the faster of its two timings: the row
    // PICK_TIMED_FIRST holds the other).
    let picks: HashMap<&str, &str> = rows.iter().filter(|r| r[variant] == "heuristic").map(|r| (r[n], r[kernel])).collect();
    rows.iter()
        .filter(|r| r[variant] != "heuristic" && r[variant] != PICK_TIMED_FIRST)
        .map(|r| {
            let pick = picks.get(r[n]).ok_or_else(|| bad(&format!("length {} has no heuristic row", r[n])))?;
            let g = r[gain].parse().map_err(|_| bad(&format!("'{}' is not a number", r[gain])))?;
            Ok((pick.to_string(), r[variant].to_string(), r[kernel].to_string(), g))
        })
        .collect()
}

/// The least gain of a variant over its pick that repeated: at least [`MIN_GAIN`] in every
/// round that timed it, two rounds or more; or, once timed in three rounds or more (an entry
/// timed again beside later candidates), in every round but one, that one not slower than the
/// pick. None where the gain did not repeat.
///
/// One slow round among several is forgiven because the table's entries are re-timed whenever
/// a later search reaches their length: under a strict rule, one unlucky round dropped an entry
/// that had won every other, and a rival from that run took its place. C2R 154's `rows /2`
/// (1.13x in the run that re-timed it, 1.018x in the other round) gave way to a kernel that
/// ran 0.865x against it in the forty-first session's A/B, and six more lengths the same way.
/// The forgiven round is one under MIN_GAIN only: a candidate whose rounds all passed keeps its
/// least gain, by which candidates no run joins are ranked (`standings`).
fn repeated_gain(round_gains: &[(usize, f64)]) -> Option<f64> {
    if round_gains.len() < 2 {
        return None;
    }
    let mut gains: Vec<f64> = round_gains.iter().map(|g| g.1).collect();
    gains.sort_by(f64::total_cmp);
    let forgiven = usize::from(gains.len() >= 3 && (1.0..MIN_GAIN).contains(&gains[0]));
    Some(gains[forgiven]).filter(|&least| least >= MIN_GAIN)
}

/// The mark in the CSV names of a campaign that re-times kernels whose code changed under
/// their names: for each (pick, variant, kernel) such a campaign times, the rounds before it
/// no longer count (`fresh_campaign_starts`, `search`). A kernel's name spells its tuning choices, not the code
/// generated for them, so a codegen change leaves older rounds timing other code: C2R f32
/// 468's `radix<=8` ran 0.985x its pick in the eighty-second session's two rounds, and
/// 1.049x-1.080x in three rounds after the eighty-fourth session's change to k (both kernels
/// changed), which the older rounds held out of the table.
pub const FRESH_CAMPAIGN_MARK: &str = "-fresh-";

/// For each round, the first round of its campaign where that campaign is fresh
/// (FRESH_CAMPAIGN_MARK), else None. A campaign is its CSVs' name without the round:
/// `...-fresh-c2r-f32-h200-round2.csv.gz`.
fn fresh_campaign_starts(rounds: &[(&str, &str)]) -> Vec<Option<usize>> {
    let campaign = |name: &str| name.rsplit_once("-round").map_or(name, |(campaign, _)| campaign).to_string();
    let campaigns: Vec<String> = rounds.iter().map(|(name, _)| campaign(name)).collect();
    let start = |c: &String| campaigns.iter().position(|other| other == c);
    rounds.iter().zip(&campaigns).map(|((name, _), c)| name.contains(FRESH_CAMPAIGN_MARK).then(|| start(c)).flatten()).collect()
}

/// What the rounds say of each pick.
struct Search {
    /// Pick -> the problem it is for and its winners: the variants timed in two rounds or more
    /// (each beside the pick in the same run), their gain repeated in each (but one,
    /// `repeated_gain`), and still valid: the heuristic still picks the pick, and each path
    /// still reaches its kernel.
    winners: BTreeMap<String, (FftProblem, Vec<Candidate>)>,
    /// Pick -> the last round that timed anything beside it.
    last_round: HashMap<String, usize>,
}

fn search(rounds: &[(&str, &str)], limits: DeviceLimits) -> Result<Search> {
    if rounds.len() < 2 {
        return Err(Error::invalid("wisdom: give two or more rounds of variants CSVs, so that a gain must repeat to count"));
    }
    // (pick, variant, its kernel) -> (round, gain) in each round that timed it. Keyed by the
    // kernel too: where a later search redefines a variant (the forty-seventh session's
    // `stockham`), the rounds of the old kernel count for it alone, and it goes as stale.
    let mut gains: BTreeMap<(String, String, String), RoundGains> = BTreeMap::new();
    let mut last_round: HashMap<String, usize> = HashMap::new();
    // Rows that one round timed twice: before the fiftieth session a variant name could stand
    // for two kernels (`threads for radix 6` of a Rader row's convolution and of its outer
    // pass) and the CSV printed one kernel for both, so such rows say nothing about either.
    let mut ambiguous = BTreeSet::new();
    for (round, (name, csv)) in rounds.iter().enumerate() {
        for (pick, variant, kernel, gain) in variant_rows(csv, name)? {
            last_round.insert(pick.clone(), round);
            let timed = gains.entry((pick.clone(), variant.clone(), kernel.clone())).or_default();
            if timed.iter().any(|&(r, _)| r == round) {
                ambiguous.insert((pick, variant, kernel));
            }
            timed.push((round, gain));
        }
    }
    gains.retain(|key, _| !ambiguous.contains(key));
    // A key's rounds from the start of the latest fresh campaign that timed it (if any) on.
    let fresh_starts = fresh_campaign_starts(rounds);
    for round_gains in gains.values_mut() {
        let since = round_gains.iter().filter_map(|&(round, _)| fresh_starts[round]).max().unwrap_or(0);
        round_gains.retain(|&(round, _)| round >= since);
    }
    // (Invalid ones go before the best is chosen, so that one no longer hides a valid rival:
    // where a rule made `rader / prime-factor codelets` what `rader` designs, the fifty-fifth
    // session.)
    let mut winners: BTreeMap<String, (FftProblem, Vec<Candidate>)> = BTreeMap::new();
    let mut designs: BTreeMap<String, Option<(FftProblem, FftRecipe)>> = BTreeMap::new();
    for ((pick, variant, faster), round_gains) in gains {
        let Some(least) = repeated_gain(&round_gains) else { continue };
        let design = designs.entry(pick.clone()).or_insert_with(|| {
            let problem = problem_of_kernel(&pick)?;
            FftRecipe::design_row_by_heuristic(problem, limits).ok().filter(|r| r.kernel_name() == pick).map(|r| (problem, r))
        });
        let Some((problem, recipe)) = design else { continue };
        if recipe.variant_path(limits, &variant).is_some_and(|v| v.kernel_name() == faster) {
            let candidate = Candidate { entry: WisdomEntry { pick: pick.clone(), faster, variant, gain: least }, rounds: round_gains };
            winners.entry(pick).or_insert_with(|| (*problem, Vec::new())).1.push(candidate);
        }
    }
    Ok(Search { winners, last_round })
}

/// Which of a pick's winners the table takes: of those within MIN_GAIN of the best standing,
/// the one of fewest steps (a longer path must gain as much again over a shorter one as a
/// variant must over the pick), then the best.
fn chosen(candidates: &[Candidate]) -> usize {
    let steps = |c: &Candidate| c.entry.variant.split(super::VARIANT_PATH_SEPARATOR).count();
    let rounds: Vec<&RoundGains> = candidates.iter().map(|c| &c.rounds).collect();
    let least_gains: Vec<f64> = candidates.iter().map(|c| c.entry.gain).collect();
    let standing = standings(&rounds, &least_gains);
    let top = standing.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (0..candidates.len())
        .filter(|&i| standing[i] + MIN_GAIN.ln() >= top)
        .min_by(|&a, &b| steps(&candidates[a]).cmp(&steps(&candidates[b])).then(standing[b].total_cmp(&standing[a])))
        .expect("the best winner is within MIN_GAIN of itself")
}

/// A pick whose table entry the pick's last round did not time: the paths to time again
/// beside it, in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct StaleSearch {
    pub problem: FftProblem,
    pub pick: String,
    /// The entry's path, then every other winner's that the last round did not time either.
    pub paths: Vec<String>,
}

/// The picks whose entry the last round timing the pick did not time. A gain is over the
/// pick's code in its run, and that code changes under an unchanged name, so such an entry may
/// no longer be faster: in the sixty-second session C2C 547's entry dropped out, and a rival
/// that no run had timed since the fifty-first session took its place. Re-timing only the
/// entry lets the next such rival in (the sixty-third session re-timed 170 entries, then the
/// 45 that had become stale by it, leaving 19), so the untimed rivals are timed with it. (Rivals the last round timed have
/// their ratio to the pick from it already. Re-timing the winners of every pick with any
/// untimed one would be 12903 timings.)
pub fn stale_searches(rounds: &[(&str, &str)], limits: DeviceLimits) -> Result<Vec<StaleSearch>> {
    Ok(search(rounds, limits)?.stale())
}

/// The wisdom table of variants CSVs (name, text), each one round over some lengths and
/// variants of one kind and precision: for each pick the heuristic still designs on a device
/// with `limits`, the variant whose gain of at least [`MIN_GAIN`] repeated (`repeated_gain`),
/// where it is still one of the pick's variants. Of several such
/// variants the fastest by their standings (src/fft/wisdom/standings.rs: ratios within the
/// rounds that timed two candidates, chained across runs; least gains only between candidates
/// no chain joins), or one of fewer steps within MIN_GAIN of it. The header names the CSVs, for
/// the test that regenerates it.
pub fn wisdom_from_variant_tables(rounds: &[(&str, &str)], limits: DeviceLimits) -> Result<String> {
    Ok(search(rounds, limits)?.table(rounds))
}

/// [`wisdom_from_variant_tables`] and [`stale_searches`] of the same rounds, from one search
/// (which designs every pick's recipe and its variants: fft_wisdom ran it twice before).
pub fn wisdom_and_stale_searches(rounds: &[(&str, &str)], limits: DeviceLimits) -> Result<(String, Vec<StaleSearch>)> {
    let found = search(rounds, limits)?;
    Ok((found.table(rounds), found.stale()))
}

impl Search {
    /// The wisdom table (see [`wisdom_from_variant_tables`]), its header naming `rounds`.
    fn table(&self, rounds: &[(&str, &str)]) -> String {
        let mut entries: Vec<(&FftProblem, &WisdomEntry)> =
            self.winners.values().map(|(problem, candidates)| (problem, &candidates[chosen(candidates)].entry)).collect();
        entries.sort_by_key(|(p, _)| (p.kind as u8, p.precision as u8, p.len));
        let mut out = String::from("# FFT wisdom (src/fft/wisdom.rs): kernels measured faster than the heuristic's pick on an H200.\n");
        out += "# Generated by `cargo run --release --example fft_wisdom --";
        for (name, _) in rounds {
            out += &format!(" {name}");
        }
        out += "`; do not edit.\n# pick\tfaster\tvariant\tleast gain over the rounds\n";
        for (_, e) in entries {
            out += &format!("{}\t{}\t{}\t{:.3}\n", e.pick, e.faster, e.variant, e.gain);
        }
        out
    }

    /// The picks whose entry their last round did not time (see [`stale_searches`]).
    fn stale(&self) -> Vec<StaleSearch> {
        let stale = self.winners.iter().filter_map(|(pick, (problem, candidates))| {
            let last = self.last_round[pick];
            let untimed = |c: &&Candidate| c.rounds.iter().all(|&(r, _)| r < last);
            let entry = &candidates[chosen(candidates)];
            untimed(&entry).then(|| {
                let rivals = candidates.iter().filter(untimed).filter(|c| !std::ptr::eq(*c, entry));
                let paths = std::iter::once(entry).chain(rivals).map(|c| c.entry.variant.clone()).collect();
                StaleSearch { problem: *problem, pick: pick.clone(), paths }
            })
        });
        stale.collect()
    }
}

/// The CSVs the committed table was generated from, as its header names them.
pub fn wisdom_sources(table: &str) -> Vec<String> {
    let line = table.lines().find_map(|l| l.strip_prefix("# Generated by `cargo run --release --example fft_wisdom --")).unwrap_or("");
    line.split('`').next().unwrap_or("").split_whitespace().map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use DeviceLimits as L;

    /// The committed table is what its CSVs generate today: no entry is stale.
    #[test]
    fn committed_wisdom_is_what_its_measurements_generate() {
        let root = env!("CARGO_MANIFEST_DIR");
        let sources = wisdom_sources(HOPPER_WISDOM);
        assert!(sources.len() >= 2, "the table's header names no CSVs");
        // Gzipped where the name says so (docs/fft keeps the variants CSVs as .csv.gz).
        let read = |s: &String| {
            let (path, mut text) = (format!("{root}/{s}"), String::new());
            let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let mut reader: Box<dyn std::io::Read> = if s.ends_with(".gz") { Box::new(flate2::read::GzDecoder::new(file)) } else { Box::new(file) };
            reader.read_to_string(&mut text).unwrap_or_else(|e| panic!("{path}: {e}"));
            text
        };
        let texts: Vec<(String, String)> = sources.iter().map(|s| (s.clone(), read(s))).collect();
        let rounds: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        let generated = wisdom_from_variant_tables(&rounds, L::H200).unwrap();
        assert!(
            generated == HOPPER_WISDOM,
            "src/fft/wisdom/hopper.tsv is stale (a pick or variant changed): regenerate it with `cargo run --release --example fft_wisdom -- {}`",
            sources.join(" ")
        );
    }

    /// The pick's timing before its variants (PICK_TIMED_FIRST) is no variant: however fast it
    /// ran against the pick's timing after them, it is no candidate for the table.
    #[test]
    fn the_picks_first_timing_is_no_candidate() {
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(3380, 1 << 16), L::H200).unwrap().kernel_name();
        let csv = format!("n,variant,kernel,ms,of copy,vs heuristic,vs cuFFT\n3380,{PICK_TIMED_FIRST},{pick},1,0.9,1.000,1\n3380,heuristic,{pick},1,0.75,0.833,1\n");
        assert_eq!(variant_rows(&csv, "a.csv").unwrap(), Vec::new());
        assert_eq!(wisdom_from_variant_tables(&[("a.csv", &csv), ("b.csv", &csv)], L::H200).unwrap().lines().filter(|l| !l.starts_with('#')).count(), 0);
    }

    #[test]
    fn every_entry_is_applied_by_design() {
        let entries = parse_wisdom(HOPPER_WISDOM).unwrap();
        assert!(!entries.is_empty());
        for e in entries {
            let problem = e.problem(9).unwrap();
            assert_eq!(FftRecipe::design_row_by_heuristic(problem, L::H200).unwrap().kernel_name(), e.pick);
            // N-d plans' rows (the CLI's) take it as 1D plans do; rows past one 1D launch only there.
            assert_eq!(FftRecipe::design_row(problem, L::H200).unwrap().kernel_name(), e.faster, "{}", e.variant);
            if problem.len <= crate::fft::MAX_SINGLE_LAUNCH_LEN {
                assert_eq!(FftRecipe::design(problem, L::H200).unwrap().kernel_name(), e.faster, "{}", e.variant);
            }
            assert!(e.gain >= MIN_GAIN);
        }
    }

    /// A variant of a variant (the search's next step) joins the table by its path, measured
    /// against the heuristic's pick in the same run, and planning walks the path.
    #[test]
    fn a_path_of_variants_joins_the_table() {
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(3380, 1 << 16), L::H200).unwrap();
        let path = "radix<=25 / threads for radix 13";
        let faster = pick.variant_path(L::H200, path).unwrap();
        assert_eq!(faster.core.stages()[0].radices, [20, 13, 13]);
        assert_eq!(faster.tuning.threads_per_transform, 260);
        assert_eq!(pick.variant_path(L::H200, "radix<=25 / no such variant"), None);
        let row = |what: &str, r: &FftRecipe, gain: f64| format!("3380,{what},{},1,0.9,{gain},1\n", r.kernel_name());
        let csv = format!("n,variant,kernel,ms,of copy,vs heuristic,vs cuFFT\n{}{}", row(path, &faster, 1.05), row("heuristic", &pick, 1.0));
        let table = wisdom_from_variant_tables(&[("a.csv", &csv), ("b.csv", &csv)], L::H200).unwrap();
        let entries = parse_wisdom(&table).unwrap();
        assert_eq!(entries, vec![WisdomEntry { pick: pick.kernel_name(), faster: faster.kernel_name(), variant: path.into(), gain: 1.05 }]);
        // Beside its first step, the path is kept only where it gains MIN_GAIN more.
        let first = pick.variant_named(L::H200, "radix<=25").unwrap();
        for (first_gain, path_gain, kept) in [(1.04, 1.05, "radix<=25"), (1.04, 1.08, path), (1.02, 1.05, path)] {
            let csv = format!("n,variant,kernel,ms,of copy,vs heuristic,vs cuFFT\n{}{}{}", row(path, &faster, path_gain), row("radix<=25", &first, first_gain), row("heuristic", &pick, 1.0));
            let table = wisdom_from_variant_tables(&[("a.csv", &csv), ("b.csv", &csv)], L::H200).unwrap();
            let entry = parse_wisdom(&table).unwrap().pop().unwrap();
            assert_eq!(entry.variant, kept, "first step gaining {first_gain}, the path {path_gain}");
        }
    }

    #[test]
    fn kernels_name_their_problem() {
        let p = problem_of_kernel("fft_c2r_f64_n97_rader97_r16x6_t6x11_p5r1_m3_pp").unwrap();
        assert_eq!((p.kind, p.precision, p.len), (FftKind::C2R, Precision::F64, 97));
        assert_eq!(problem_of_kernel("permute_f32"), None);
        assert_eq!(problem_of_kernel("fft_c2c_f16_n4_r4"), None);
    }

    /// C2C f32 351's pick, its first variant (name, recipe) and a variants CSV of one round
    /// in which that variant ran `gain` times the pick.
    fn one_variant_round() -> (FftRecipe, String, FftRecipe, impl Fn(f64) -> String) {
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(351, 1 << 16), L::H200).unwrap();
        let (what, variant) = pick.variants(L::H200).into_iter().next().unwrap();
        let (faster, slower) = (variant.kernel_name(), pick.kernel_name());
        let name = what.clone();
        let csv = move |gain: f64| {
            format!("n,variant,kernel,ms,of copy,vs heuristic,vs cuFFT\n351,{name},{faster},1,0.9,{gain},1\n351,heuristic,{slower},1,0.8,1.000,1\n")
        };
        (pick, what, variant, csv)
    }

    #[test]
    fn a_gain_must_repeat_in_every_round() {
        let (pick, what, variant, csv) = one_variant_round();
        let (won, lost) = (csv(1.10), csv(1.01));
        let table = wisdom_from_variant_tables(&[("a.csv", &won), ("b.csv", &won)], L::H200).unwrap();
        let entries = parse_wisdom(&table).unwrap();
        assert_eq!(entries, vec![WisdomEntry { pick: pick.kernel_name(), faster: variant.kernel_name(), variant: what, gain: 1.10 }]);
        assert_eq!(wisdom_sources(&table), ["a.csv", "b.csv"]);
        let once = wisdom_from_variant_tables(&[("a.csv", &won), ("b.csv", &lost)], L::H200).unwrap();
        assert!(parse_wisdom(&once).unwrap().is_empty());
        assert!(wisdom_from_variant_tables(&[("a.csv", &won)], L::H200).is_err());
        assert!(wisdom_from_variant_tables(&[("a.csv", "n,kernel\n"), ("b.csv", &won)], L::H200).unwrap_err().to_string().contains("no column 'variant'"));
    }

    /// A fresh campaign's rounds (FRESH_CAMPAIGN_MARK) stand alone for what they time: rounds
    /// before them that timed other code under the same name no longer hold a gain out, nor
    /// keep one in; a campaign without the mark counts beside them, as before.
    #[test]
    fn a_fresh_campaign_supersedes_older_rounds_of_what_it_times() {
        let (_, _, _, csv) = one_variant_round();
        let (won, lost) = (csv(1.10), csv(0.98));
        let entries = |rounds: &[(&str, &str)]| parse_wisdom(&wisdom_from_variant_tables(rounds, L::H200).unwrap()).unwrap();
        // Lost twice, then won twice: only a fresh campaign's two rounds make the entry.
        let old = [("old-round1.csv", lost.as_str()), ("old-round2.csv", lost.as_str())];
        let again = [old[0], old[1], ("again-round1.csv", won.as_str()), ("again-round2.csv", won.as_str())];
        assert!(entries(&again).is_empty());
        let fresh = [old[0], old[1], ("x-fresh-c2c-round1.csv", won.as_str()), ("x-fresh-c2c-round2.csv", won.as_str())];
        assert_eq!(entries(&fresh).iter().map(|e| e.gain).collect::<Vec<_>>(), [1.10]);
        // Won before, lost in the fresh campaign: the older gains no longer keep it in.
        let fell = [("old-round1.csv", won.as_str()), ("old-round2.csv", won.as_str()), ("x-fresh-round1.csv", lost.as_str()), ("x-fresh-round2.csv", lost.as_str())];
        assert!(entries(&fell).is_empty());
        // A later campaign without the mark counts beside the fresh one.
        let later = [fresh[0], fresh[1], fresh[2], fresh[3], ("later-round1.csv", lost.as_str())];
        assert!(entries(&later).is_empty());
    }

    /// A row one round timed twice (one name for two kernels, before the fiftieth session)
    /// counts in no round: it is not two rounds, and it would rank against itself.
    #[test]
    fn rows_timed_twice_in_a_round_count_for_nothing() {
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(351, 1 << 16), L::H200).unwrap();
        let (what, variant) = pick.variants(L::H200).into_iter().next().unwrap();
        let row = |gain: f64| format!("351,{what},{},1,0.9,{gain},1\n", variant.kernel_name());
        let csv = |rows: &[f64]| {
            let timed: String = rows.iter().map(|&g| row(g)).collect();
            format!("n,variant,kernel,ms,of copy,vs heuristic,vs cuFFT\n{timed}351,heuristic,{},1,0.8,1.000,1\n", pick.kernel_name())
        };
        let (twice, once) = (csv(&[1.10, 1.20]), csv(&[1.10]));
        let table = wisdom_from_variant_tables(&[("a.csv", &twice), ("b.csv", &twice)], L::H200).unwrap();
        assert!(parse_wisdom(&table).unwrap().is_empty(), "{table}");
        let table = wisdom_from_variant_tables(&[("a.csv", &once), ("b.csv", &once)], L::H200).unwrap();
        assert_eq!(parse_wisdom(&table).unwrap().len(), 1);
    }

    /// A variant redefined between searches (its name kept, its kernel changed): the old
    /// kernel's losing rounds do not count against the new one's, and the old kernel, no
    /// longer the variant, makes no entry.
    #[test]
    fn rounds_count_for_the_kernel_they_timed() {
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(351, 1 << 16), L::H200).unwrap();
        let (what, variant) = pick.variants(L::H200).into_iter().next().unwrap();
        let csv = |kernel: &str, gain: f64| {
            format!("n,variant,kernel,ms,of copy,vs heuristic,vs cuFFT\n351,{what},{kernel},1,0.9,{gain},1\n351,heuristic,{},1,0.8,1.000,1\n", pick.kernel_name())
        };
        let (old_lost, new_won) = (csv("fft_c2c_f32_n351_old", 0.90), csv(&variant.kernel_name(), 1.08));
        let rounds = [("1.csv", old_lost.as_str()), ("2.csv", &old_lost), ("3.csv", &new_won), ("4.csv", &new_won)];
        let entries = parse_wisdom(&wisdom_from_variant_tables(&rounds, L::H200).unwrap()).unwrap();
        assert_eq!(entries, vec![WisdomEntry { pick: pick.kernel_name(), faster: variant.kernel_name(), variant: what.clone(), gain: 1.08 }]);
        let old_won = csv("fft_c2c_f32_n351_old", 1.20);
        let stale = wisdom_from_variant_tables(&[("1.csv", &old_won), ("2.csv", &old_won)], L::H200).unwrap();
        assert!(parse_wisdom(&stale).unwrap().is_empty());
    }

    /// Timed in three rounds or more (an entry re-timed by a later search), one round under
    /// MIN_GAIN but not slower than the pick is forgiven; one slower than the pick, or two
    /// under MIN_GAIN, are not, and two rounds must both gain.
    #[test]
    fn one_slow_round_among_three_or_more_is_forgiven() {
        let gains = |g: &[f64]| g.iter().enumerate().map(|(r, &g)| (r, g)).collect::<Vec<_>>();
        assert_eq!(repeated_gain(&gains(&[1.10, 1.018, 1.13])), Some(1.10));
        assert_eq!(repeated_gain(&gains(&[1.05, 1.06, 1.018, 1.13])), Some(1.05));
        assert_eq!(repeated_gain(&gains(&[1.05, 1.06, 1.04, 1.13])), Some(1.04), "no round under MIN_GAIN: the least gain stands");
        assert_eq!(repeated_gain(&gains(&[1.10, 0.99, 1.13])), None, "slower than the pick");
        assert_eq!(repeated_gain(&gains(&[1.10, 1.01, 1.02, 1.13])), None, "two rounds under MIN_GAIN");
        assert_eq!(repeated_gain(&gains(&[1.10, 1.02])), None, "two rounds must both gain");
        assert_eq!(repeated_gain(&gains(&[1.10])), None);
    }

    /// Two winners timed in the same rounds are ranked by those rounds, not by least gains
    /// that other runs set: B beat A beside it (1.12 against 1.10), and only B was timed again
    /// in a slower run (1.04).
    #[test]
    fn winners_are_compared_in_the_rounds_that_timed_both() {
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(351, 1 << 16), L::H200).unwrap();
        let variants = pick.variants(L::H200);
        let ((a, ra), (b, rb)) = (&variants[0], &variants[1]);
        let row = |what: &str, r: &FftRecipe, gain: f64| format!("351,{what},{},1,0.9,{gain},1\n", r.kernel_name());
        let header = "n,variant,kernel,ms,of copy,vs heuristic,vs cuFFT\n";
        let both = format!("{header}{}{}{}", row(a, ra, 1.10), row(b, rb, 1.12), row("heuristic", &pick, 1.0));
        let b_again = format!("{header}{}{}", row(b, rb, 1.04), row("heuristic", &pick, 1.0));
        let table = wisdom_from_variant_tables(&[("1.csv", &both), ("2.csv", &both), ("3.csv", &b_again), ("4.csv", &b_again)], L::H200).unwrap();
        let entry = parse_wisdom(&table).unwrap().pop().unwrap();
        assert_eq!((entry.variant.as_str(), entry.gain), (b.as_str(), 1.04));
        // Never timed together (no run joins them), they are ranked by their least gains: A's
        // 1.10 over B's 1.04.
        let only = |what: &str, r: &FftRecipe, gain: f64| format!("{header}{}{}", row(what, r, gain), row("heuristic", &pick, 1.0));
        let (a_alone, b_alone) = (only(a, ra, 1.10), only(b, rb, 1.04));
        let table = wisdom_from_variant_tables(&[("1.csv", &a_alone), ("2.csv", &a_alone), ("3.csv", &b_alone), ("4.csv", &b_alone)], L::H200).unwrap();
        assert_eq!(parse_wisdom(&table).unwrap().pop().unwrap().variant, *a);
    }

    /// C2C 351's pick and three of its variants (A, B, C), and the variants CSV of a run that
    /// timed some of them beside the pick.
    struct Run351 {
        pick: FftRecipe,
        variants: Vec<(String, FftRecipe)>,
    }

    impl Run351 {
        fn new() -> Self {
            let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(351, 1 << 16), L::H200).unwrap();
            let variants = pick.variants(L::H200).into_iter().take(3).collect();
            Run351 { pick, variants }
        }

        /// The variant's name: 0 for A, 1 for B, 2 for C.
        fn name(&self, variant: usize) -> String {
            self.variants[variant].0.clone()
        }

        /// A CSV of the given (variant, gain over the pick) rows and the pick's.
        fn csv(&self, timed: &[(usize, f64)]) -> String {
            let row = |what: &str, r: &FftRecipe, gain: f64| format!("351,{what},{},1,0.9,{gain},1\n", r.kernel_name());
            let mut out = String::from("n,variant,kernel,ms,of copy,vs heuristic,vs cuFFT\n");
            for &(v, gain) in timed {
                out += &row(&self.variants[v].0, &self.variants[v].1, gain);
            }
            out + &row("heuristic", &self.pick, 1.0)
        }
    }

    /// Each run's CSV as two rounds.
    fn two_rounds_each(runs: &[&str]) -> Vec<(&'static str, String)> {
        runs.iter().flat_map(|run| [("run.csv", run.to_string()), ("run.csv", run.to_string())]).collect()
    }

    fn rounds_of<'a>(runs: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
        runs.iter().map(|(n, t)| (*n, t.as_str())).collect()
    }

    /// C2C 337 in the sixty-second session: C beat B in one run, A beat B by 11% in a later one,
    /// and a last run re-timed A alone beside a pick that had got faster (1.21x). By least
    /// gains C (1.47) or B (1.52) would beat A (1.21); by the runs' own ratios, chained through
    /// B, A stands first.
    #[test]
    fn a_re_timed_winner_keeps_its_place_over_rivals_of_older_runs() {
        let run = Run351::new();
        let (c_and_b, b_and_a, a_again) = (run.csv(&[(2, 1.47), (1, 1.53)]), run.csv(&[(1, 1.52), (0, 1.69)]), run.csv(&[(0, 1.21)]));
        let rounds = two_rounds_each(&[&c_and_b, &b_and_a, &a_again]);
        let table = wisdom_from_variant_tables(&rounds_of(&rounds), L::H200).unwrap();
        let entry = parse_wisdom(&table).unwrap().pop().unwrap();
        assert_eq!((entry.variant, entry.gain), (run.name(0), 1.21));
    }

    /// An entry (B, of older runs) that the pick's last run did not time is stale, and is timed
    /// again with the rival that run did not time either (C), not with the one it did (A).
    /// Where a later run times B and finds it no faster, C, untimed since, takes its place and is
    /// stale in turn (C2C 547's case); once a run times them all, nothing is.
    #[test]
    fn a_stale_entry_is_re_timed_with_its_untimed_rivals() {
        let run = Run351::new();
        let c_and_b = run.csv(&[(2, 1.47), (1, 1.53)]);
        let stale = |last: &str| stale_searches(&rounds_of(&two_rounds_each(&[&c_and_b, last])), L::H200).unwrap();
        let b_stale = StaleSearch { problem: FftProblem::c2c(351, 1 << 16), pick: run.pick.kernel_name(), paths: vec![run.name(1), run.name(2)] };
        assert_eq!(stale(&run.csv(&[(0, 1.10)])), [b_stale]);
        let paths = |s: Vec<StaleSearch>| s.into_iter().map(|s| s.paths).collect::<Vec<_>>();
        assert_eq!(paths(stale(&run.csv(&[(0, 1.10), (1, 1.02)]))), [vec![run.name(2)]]);
        assert_eq!(stale(&run.csv(&[(0, 1.10), (1, 1.02), (2, 1.20)])), []);
    }
}
