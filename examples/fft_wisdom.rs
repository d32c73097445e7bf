//! Writes the FFT wisdom table, src/fft/wisdom/hopper.tsv, from two or more rounds of
//! `coalesce bench fft --suite variants` CSVs timing the same lengths (src/fft/wisdom.rs says
//! which variants it keeps). Run from the repository root, naming the CSVs as paths from it:
//! `cargo run --release --example fft_wisdom -- docs/fft/A.csv.gz docs/fft/B.csv.gz` (the
//! CSVs are kept gzipped, so that the tree that travels to the GPU machine stays small: `gzip
//! -9n` a new campaign's CSVs before naming them; plain .csv files are read as well).
//! With `--check` first, writes nothing and fails where the committed table differs. Otherwise,
//! after writing it, names the entries their pick's last round did not time (see `--stale`).
//! Named no CSVs, it takes those the committed table names (its second line): `cargo run
//! --release --example fft_wisdom` regenerates the table, and `-- --check` checks it. C2R's
//! `mirror of r2c wisdom` reads the R2C entries of the table built into the library, so after
//! a regeneration that changes R2C entries, run it again (it rebuilds with the new table) until
//! the table stays the same (eighty-sixth session: once more).
//! With `--add` first, the CSVs named are a new campaign's rounds, taken after those the
//! committed table was generated from (its second line names them):
//! `cargo run --release --example fft_wisdom -- --add docs/fft/NEW-round1.csv.gz docs/fft/NEW-round2.csv.gz`.
//! Then `cargo run --release --example fft_lane_groups`: a row with a new entry leaves the
//! lane-group table (tests/fft_tuning.rs's `every_wisdom_entry_is_what_planning_runs_on_an_h200`
//! fails until it is rewritten).
//!
//! With `--stale DIR` first (and no CSVs: those the committed table names), writes nothing to
//! the table: for each pick whose entry the pick's last round did not time (`stale_searches`),
//! that entry and every rival winner the round did not time either are to be timed again beside
//! it. Prints the `gpu_ab.sh` VAR_RUNS that time them, one run a suite, each path led by its
//! length, and
//! writes them to DIR/stale-runs.txt:
//! `BINS=new ROUNDS=0 VAR_ROUNDS=2 VAR_RUNS="$(cat .gpu/stale-runs.txt)" bash .gpu/gpu_ab.sh`,
//! then `python3 scripts/merge_variant_runs.py` over each round's CSVs, and regenerate with them.

use std::collections::BTreeMap;

use coalesce::bench::FftSuite;
use coalesce::fft::wisdom::{stale_searches, wisdom_and_stale_searches, wisdom_sources, StaleSearch, HOPPER_WISDOM};
use coalesce::fft::DeviceLimits;

const TABLE: &str = "src/fft/wisdom/hopper.tsv";

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.first().map(String::as_str) == Some("--check");
    if check {
        args.remove(0);
    }
    let stale_dir = (args.first().map(String::as_str) == Some("--stale")).then(|| {
        args.remove(0);
        if args.is_empty() {
            fail("--stale needs a folder for the length lists, e.g. --stale .gpu");
        }
        args.remove(0)
    });
    // No CSVs named: those the committed table was generated from (its second line).
    if args.is_empty() {
        args = wisdom_sources(HOPPER_WISDOM);
    }
    if args.first().map(String::as_str) == Some("--add") {
        args = with_committed_sources(args.split_off(1));
    }
    let texts: Vec<(String, String)> = args
        .iter()
        .map(|path| match read_csv(path) {
            Ok(text) => (path.clone(), text),
            Err(e) => fail(&format!("cannot read {path}: {e}")),
        })
        .collect();
    let rounds: Vec<(&str, &str)> = texts.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    if let Some(dir) = stale_dir {
        return write_stale_runs(&rounds, &dir);
    }
    let (table, stale) = wisdom_and_stale_searches(&rounds, DeviceLimits::H200).unwrap_or_else(|e| fail(&e.to_string()));
    let entries = table.lines().filter(|l| !l.starts_with('#')).count();
    if check {
        if table != HOPPER_WISDOM {
            fail(&format!("{TABLE} differs from what these CSVs generate ({entries} entries): run without --check"));
        }
        println!("{TABLE} is up to date ({entries} entries)");
    } else {
        std::fs::write(TABLE, &table).unwrap_or_else(|e| fail(&format!("cannot write {TABLE}: {e}")));
        println!("wrote {TABLE}: {entries} entries");
        report_stale(&stale);
    }
}

/// Says which picks' entries the pick's last round did not time (`stale_searches`): such an
/// entry may have taken the place of one that round dethroned without being timed beside it
/// (the eightieth session's C2R 2646 fell back on a kernel last timed 16 sessions before, and
/// ran 0.98x of the pick when timed again), so they are the next campaign's first runs.
fn report_stale(stale: &[StaleSearch]) {
    if stale.is_empty() {
        return;
    }
    let picks: Vec<&str> = stale.iter().map(|s| s.pick.as_str()).collect();
    println!("{} entries were not timed in their pick's last round (`--stale DIR` lists the runs that time them again): {}", stale.len(), picks.join(" "));
}

/// The VAR_RUNS that time each stale pick's paths (`StaleSearch::paths`) again beside it: one
/// run a suite, each path led by its length (`98:rows /4 / direct io`, which the variants
/// suite times at that length alone), so that a length's rivals are timed in one run beside
/// one another. (Until the eighty-second session one run a (suite, path) over its lengths: 154
/// processes for 12 picks, each starting a device and timing cuFFT and the copy again; until
/// the eighty-sixth, one run a (suite, length): 165 processes for 167 picks.) Written to
/// DIR/stale-runs.txt too, as the list is long. Two paths of a length that reach one kernel
/// are timed once, under the first name (the variants suite times a kernel once a run): the
/// other stays stale, for the next `--stale`.
fn write_stale_runs(rounds: &[(&str, &str)], dir: &str) {
    let stale = stale_searches(rounds, DeviceLimits::H200).unwrap_or_else(|e| fail(&e.to_string()));
    let mut runs: BTreeMap<&str, BTreeMap<usize, Vec<String>>> = BTreeMap::new();
    for s in &stale {
        let of = (s.problem.kind, s.problem.precision);
        let suite = FftSuite::ALL.into_iter().find(|f| f.variants_of() == Some(of)).expect("a variants suite for every kind and precision");
        runs.entry(suite.name()).or_default().entry(s.problem.len).or_default().extend(s.paths.iter().cloned());
    }
    let mut var_runs = Vec::new();
    for (suite, by_length) in runs {
        let lengths: Vec<String> = by_length.keys().map(usize::to_string).collect();
        let mut scoped = Vec::new();
        for (len, mut paths) in by_length {
            paths.sort();
            paths.dedup();
            // `--variants` splits its list at commas, which no variant name holds.
            if let Some(p) = paths.iter().find(|p| p.contains(',')) {
                fail(&format!("stale path '{p}' holds a comma, which --variants would split"));
            }
            scoped.extend(paths.iter().map(|p| format!("{len}:{p}")));
        }
        var_runs.push(format!("{suite}|{}|{}", lengths.join(","), scoped.join(",")));
    }
    std::fs::create_dir_all(dir).unwrap_or_else(|e| fail(&format!("cannot create {dir}: {e}")));
    let runs_file = format!("{dir}/stale-runs.txt");
    std::fs::write(&runs_file, var_runs.join(";")).unwrap_or_else(|e| fail(&format!("cannot write {runs_file}: {e}")));
    let timings: usize = stale.iter().map(|s| s.paths.len()).sum();
    eprintln!("{} stale picks; {} runs (one a suite, in {runs_file}), {timings} timings of a path", stale.len(), var_runs.len());
    println!("{}", var_runs.join(";"));
}

/// The CSVs the committed table was generated from, then `added`: a round named twice would
/// count twice, so one the table already takes is refused.
fn with_committed_sources(added: Vec<String>) -> Vec<String> {
    if added.is_empty() {
        fail("--add needs the new campaign's CSVs, e.g. --add docs/fft/NEW-round1.csv.gz docs/fft/NEW-round2.csv.gz");
    }
    let mut sources = wisdom_sources(HOPPER_WISDOM);
    if let Some(again) = added.iter().find(|a| sources.contains(a)) {
        fail(&format!("{again} is already among the CSVs {TABLE} was generated from: name only the new ones after --add"));
    }
    sources.extend(added);
    sources
}

/// A CSV's text, gunzipped where its name ends in .gz.
fn read_csv(path: &str) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    let mut reader: Box<dyn std::io::Read> = if path.ends_with(".gz") { Box::new(flate2::read::GzDecoder::new(file)) } else { Box::new(file) };
    let mut text = String::new();
    reader.read_to_string(&mut text)?;
    Ok(text)
}

fn fail(msg: &str) -> ! {
    eprintln!("fft_wisdom: {msg}");
    std::process::exit(1)
}
