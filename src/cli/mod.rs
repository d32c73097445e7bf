//! Command-line front end: `coalesce info`, `coalesce bench`.

use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};
use coalesce::bench::{self, human_bytes, BenchConfig, Suite, TimingPlan};
use coalesce::{Device, Error, Result};

#[derive(Parser)]
#[command(name = "coalesce", version, about = "Memory-bound GPU primitives at the speed of device memory")]
struct Cli {
    /// Device to use: cuda, cuda:N, opencl, opencl:N or auto. Default: $COALESCE_DEVICE, else
    /// the first CUDA device, else the first OpenCL device.
    #[arg(long, global = true)]
    device: Option<String>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every device with its properties and its measured device-to-device copy bandwidth.
    Info {
        /// Measure with a small buffer (seconds on a CPU device).
        #[arg(long)]
        quick: bool,
    },
    /// Time primitives against the driver's device-to-device copy. Suites: copy, reduce,
    /// transfer (default: all).
    Bench {
        /// Suites to run.
        #[arg(value_name = "SUITE")]
        suites: Vec<String>,
        /// Small sizes and few repetitions: seconds on any machine.
        #[arg(long)]
        quick: bool,
        /// Also time every combination of tuning choices (copy suite).
        #[arg(long)]
        sweep: bool,
        /// Write each table as CSV: FILE for one suite, FILE with the suite's name before the
        /// extension for several.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Print tables as Markdown too (for docs/BENCHMARKS.md).
        #[arg(long)]
        markdown: bool,
    },
}

pub fn run() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Info { quick } => info(cli.device.as_deref(), quick),
        Command::Bench { suites, quick, sweep, csv, markdown } => {
            let suites = parse_suites(&suites)?;
            let device = Device::select(cli.device.as_deref())?;
            let cfg = BenchConfig { quick, sweep, progress: true };
            print_device_header(&device);
            for suite in &suites {
                let tables = suite.run(&device, &cfg)?;
                for (i, t) in tables.iter().enumerate() {
                    println!("{}", t.render());
                    if markdown {
                        println!("{}", t.render_markdown());
                    }
                    if let Some(base) = &csv {
                        let path = csv_path(base, suite.name(), i, suites.len() > 1);
                        t.write_csv(&path)?;
                        eprintln!("wrote {}", path.display());
                    }
                }
            }
            Ok(())
        }
    }
}

fn parse_suites(names: &[String]) -> Result<Vec<Suite>> {
    if names.is_empty() {
        return Ok(Suite::ALL.to_vec());
    }
    names
        .iter()
        .map(|n| {
            Suite::from_name(n).ok_or_else(|| {
                let known: Vec<&str> = Suite::ALL.iter().map(|s| s.name()).collect();
                Error::InvalidArgument(format!("unknown benchmark suite '{n}': choose from {}", known.join(", ")))
            })
        })
        .collect()
}

/// `out.csv` -> `out-reduce.csv` when several suites share one --csv; `-2` etc. for extra tables.
fn csv_path(base: &Path, suite: &str, index: usize, several: bool) -> PathBuf {
    let stem = base.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "bench".into());
    let ext = base.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_else(|| "csv".into());
    let mut name = stem;
    if several {
        name = format!("{name}-{suite}");
    }
    if index > 0 {
        name = format!("{name}-{}", index + 1);
    }
    base.with_file_name(format!("{name}.{ext}"))
}

fn print_device_header(device: &Device) {
    let i = device.info();
    println!("device {}: {} | driver {} | {}\n", device.id(), i.name, i.driver_version, i.compiler_version);
}

fn info(spec: Option<&str>, quick: bool) -> Result<()> {
    let devices = match spec {
        Some(s) => vec![Device::select(Some(s))?],
        None => {
            let all = Device::all();
            if all.is_empty() {
                // Let selection explain why nothing was found.
                Device::select(None)?;
            }
            all
        }
    };
    for d in &devices {
        let i = d.info();
        println!("{}: {}", d.id(), i.name);
        let opt = |o: Option<String>| o.unwrap_or_else(|| "n/a".into());
        let rows = [
            ("vendor", i.vendor.clone()),
            ("memory", format!("{} ({} bytes)", human_bytes(i.total_memory as usize), i.total_memory)),
            ("largest allocation", human_bytes(i.max_allocation as usize)),
            ("multiprocessors", i.multiprocessors.to_string()),
            ("shared memory per block", format!("{} bytes", i.shared_memory_per_block)),
            ("warp size", opt(i.warp_size.map(|w| w.to_string()))),
            ("max threads per block", i.max_threads_per_block.to_string()),
            ("compute capability", opt(i.compute_capability.map(|(a, b)| format!("{a}.{b}")))),
            ("L2 / global cache", opt(i.l2_cache_bytes.map(|b| human_bytes(b as usize)))),
            ("driver", i.driver_version.clone()),
            ("compiler", i.compiler_version.clone()),
            ("kernel cache", opt(d.disk_cache_dir().map(|p| p.display().to_string()))),
        ];
        for (k, v) in rows {
            println!("  {k:<24} {v}");
        }
        let bytes = if quick { 16 << 20 } else { (256usize << 20).min(i.max_allocation as usize / 4) };
        let plan = if quick { TimingPlan::QUICK } else { TimingPlan::FULL };
        match bench::driver_copy_gbps(d, bytes, plan) {
            Ok((_, gbps)) => println!("  {:<24} {gbps:.1} GB/s (read + write, {})", "device copy bandwidth", human_bytes(bytes)),
            Err(e) => println!("  {:<24} not measured: {e}", "device copy bandwidth"),
        }
        println!();
    }
    Ok(())
}
