//! Writes src/fft/wisdom/lane_groups.tsv, the rows (f32 and f64) that planning lays out by the
//! lane-group bank model (src/fft/lane_groups.rs says which). Run from the repository root:
//! `cargo run --release --example fft_lane_groups`; with `--check`, writes nothing and fails
//! where the committed table differs.
//!
//! After writing, names the rows that left or joined the table. A row leaves when the wisdom
//! gains an entry for it, and that entry was measured against the heuristic's pick, not the
//! lane-group design the row ran: in the eighty-eighth session 23 rows left so, some to run
//! 0.63x-0.87x (docs/BENCHMARKS.md; filtered variants runs now time the lane-group design
//! beside such rows, so the standings weigh an entry against it). A row joins when its entry
//! is dropped. Before committing, time each moved row's kernel against the last commit's
//! (`gpu_ab.sh` with both CLIs), or leave its length out of the new campaign's CSVs.

use std::collections::{BTreeMap, BTreeSet};

use coalesce::fft::lane_groups::{lane_group_table, table_rows, LANE_GROUP_ROWS};
use coalesce::fft::DeviceLimits;

const TABLE: &str = "src/fft/wisdom/lane_groups.tsv";

fn main() {
    let check = std::env::args().nth(1).as_deref() == Some("--check");
    let table = lane_group_table(DeviceLimits::H200).unwrap_or_else(|e| panic!("designing the rows: {e}"));
    if check {
        if table != LANE_GROUP_ROWS {
            eprintln!("{TABLE} is stale: run `cargo run --release --example fft_lane_groups`");
            std::process::exit(1);
        }
        println!("{TABLE} is current");
        return;
    }
    let before = std::fs::read_to_string(TABLE).unwrap_or_default();
    std::fs::write(TABLE, &table).unwrap_or_else(|e| panic!("{TABLE}: {e}"));
    let (old, new) = (rows_by_kind(&before), rows_by_kind(&table));
    println!("wrote {TABLE}: {} rows", new.values().map(BTreeSet::len).sum::<usize>());
    for (kind, lens) in &new {
        let was = old.get(kind).cloned().unwrap_or_default();
        let (left, joined): (Vec<_>, Vec<_>) = (was.difference(lens).collect(), lens.difference(&was).collect());
        if !left.is_empty() || !joined.is_empty() {
            println!("{kind}: left the table {left:?}, joined {joined:?} (time these rows against the last commit's kernels)");
        }
    }
}

/// A table's lengths by kind.
fn rows_by_kind(table: &str) -> BTreeMap<&str, BTreeSet<usize>> {
    table_rows(table).into_iter().map(|(kind, lens)| (kind, lens.into_iter().collect())).collect()
}
