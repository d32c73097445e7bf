//! Writes the FFT wisdom table, src/fft/wisdom/hopper.tsv, from two or more rounds of
//! `coalesce bench fft --suite variants` CSVs timing the same lengths (src/fft/wisdom.rs says
//! which variants it keeps). Run from the repository root, naming the CSVs as paths from it:
//! `cargo run --release --example fft_wisdom -- docs/fft/A.csv.gz docs/fft/B.csv.gz` (the
//! CSVs are kept gzipped, so that the tree that travels to the GPU machine stays small: `gzip
//! -9n` a new campaign's CSVs before naming them; plain .csv files are read as well).
//! With `--check` first, writes nothing and fails where the committed table differs.

use coalesce::fft::wisdom::{wisdom_from_variant_tables, HOPPER_WISDOM};
use coalesce::fft::DeviceLimits;

const TABLE: &str = "src/fft/wisdom/hopper.tsv";

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.first().map(String::as_str) == Some("--check");
    if check {
        args.remove(0);
    }
    let texts: Vec<(String, String)> = args
        .iter()
        .map(|path| match read_csv(path) {
            Ok(text) => (path.clone(), text),
            Err(e) => fail(&format!("cannot read {path}: {e}")),
        })
        .collect();
    let rounds: Vec<(&str, &str)> = texts.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let table = wisdom_from_variant_tables(&rounds, DeviceLimits::H200).unwrap_or_else(|e| fail(&e.to_string()));
    let entries = table.lines().filter(|l| !l.starts_with('#')).count();
    if check {
        if table != HOPPER_WISDOM {
            fail(&format!("{TABLE} differs from what these CSVs generate ({entries} entries): run without --check"));
        }
        println!("{TABLE} is up to date ({entries} entries)");
    } else {
        std::fs::write(TABLE, &table).unwrap_or_else(|e| fail(&format!("cannot write {TABLE}: {e}")));
        println!("wrote {TABLE}: {entries} entries");
    }
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
