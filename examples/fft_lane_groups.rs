//! Writes src/fft/wisdom/lane_groups.tsv, the rows (f32 and f64) that planning lays out by the
//! lane-group bank model (src/fft/lane_groups.rs says which). Run from the repository root:
//! `cargo run --release --example fft_lane_groups`; with `--check`, writes nothing and fails
//! where the committed table differs.

use coalesce::fft::lane_groups::{lane_group_table, LANE_GROUP_ROWS};
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
    std::fs::write(TABLE, &table).unwrap_or_else(|e| panic!("{TABLE}: {e}"));
    let rows: usize = table.lines().filter_map(|l| l.split_once('\t')).map(|(_, lens)| lens.split(',').filter(|l| !l.is_empty()).count()).sum();
    println!("wrote {TABLE}: {rows} rows");
}
