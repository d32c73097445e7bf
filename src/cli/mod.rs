//! Command-line front end: `coalesce info`, `coalesce bench`, `coalesce fft`, `coalesce
//! permute`, `coalesce shift`.

mod args;
mod fft;
mod rearrange;

use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};
use coalesce::bench::{self, human_bytes, BenchConfig, FftBenchOptions, FftSuite, Suite, TimingPlan};
use coalesce::fft::Normalization;
use coalesce::rearrange::PermuteProblem;
use coalesce::{Device, Error, Result, ScalarKind};

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
    /// transfer (the default), fft (beside cuFFT on CUDA devices) and permute (permutes,
    /// interlaces and shifts beside a naive gather).
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
        /// FFT suites to run: sweep (C2C f32, every N in 2..=4096), f64, real (R2C and C2R),
        /// r2c and c2r (each half of real alone), real-f64 (the same in f64), plan (creation
        /// time), accuracy, variants (the heuristic's kernel beside recipes one tuning choice
        /// away; --sizes picks the lengths), variants-f64 (the same in f64),
        /// variants-r2c and variants-c2r (f32 real transforms of even length),
        /// variants-r2c-f64 and variants-c2r-f64 (the same in f64); in
        /// passes: large-1d, 2d, 3d, layouts (axis subsets and strides), strided (rows per
        /// block). Default: sweep, f64, real, plan.
        #[arg(long = "suite", value_name = "NAME")]
        fft_suites: Vec<String>,
        /// The FFT accuracy report (same as --suite accuracy).
        #[arg(long)]
        accuracy: bool,
        /// Run FFT suites at these lengths: comma-separated N or LO..HI (inclusive),
        /// e.g. 2..1024 or 35,2904,4000..4096; the f64 and real suites then time every named
        /// length, not their sample. The sweep, f64 and real suites take rows up to 16384
        /// points (even real rows up to 32768) as multi-pass plans run them in one launch;
        /// suites in passes time the cases whose transformed lengths all lie there, e.g.
        /// --suite large-1d --sizes 1048576.
        #[arg(long, value_name = "LIST")]
        sizes: Option<String>,
        /// The variants suite times only these variants beside the heuristic's pick,
        /// comma-separated names as its table prints them, spaces optional, a trailing '*'
        /// for every name it begins (e.g. ping-pong,threadsx2,convolution*); a leading '!'
        /// leaves out what it names (!convolution* times every variant but those). Where the
        /// wisdom names a faster kernel than the pick, its variants are timed too, as
        /// 'then NAME' (then* times those alone). A path of names separated by ' / '
        /// ("mirror pairs / threads /2") times the recipe those steps reach from the pick;
        /// led by a length and a colon ("98:rows /4 / direct io"), at that length alone.
        #[arg(long, value_name = "LIST")]
        variants: Option<String>,
        /// FFT suites sweep, f64, real, r2c, c2r, real-f64 and variants*: compile every kernel
        /// they would time, into the disk cache, and time nothing (warms a cache before timed
        /// runs).
        #[arg(long)]
        compile_only: bool,
        /// Permute suite: time this one f32 permute instead (numpy shape, slowest axis first,
        /// with --axes); with --sweep, beside every tile tuning and block order.
        #[arg(long, value_name = "LIST", requires = "axes")]
        shape: Option<String>,
        /// The permute --shape's axes, as numpy.transpose takes them.
        #[arg(long, value_name = "LIST", requires = "shape")]
        axes: Option<String>,
    },
    /// Fourier-transform the last axis of a .npy file (or --axes), batching over the other
    /// axes, like numpy.fft.fft, ifft (--inverse), rfft (--real) and irfft (--real --inverse),
    /// or with --axes fftn, ifftn, rfftn and irfftn.
    Fft {
        /// Input .npy: complex64 or complex128; float32 or float64 with --real.
        input: PathBuf,
        /// Output .npy, in the input's precision.
        output: PathBuf,
        /// The inverse transform.
        #[arg(long)]
        inverse: bool,
        /// Real transforms: rfft forward (half spectrum out), irfft with --inverse.
        #[arg(long)]
        real: bool,
        /// Transform length of the last axis transformed: it is cut or zero-padded to it
        /// (numpy's n). For irfft the output length; default 2(M-1) for M coefficients.
        #[arg(long)]
        n: Option<usize>,
        /// Axes to transform, e.g. 0,1 or -2,-1 (default: the last; negative axes count from
        /// the last, as numpy's). Real transforms halve the last one named, as numpy's rfftn
        /// does.
        #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
        axes: Option<String>,
        /// Scaling: backward (numpy's default: 1/N on the inverse), forward, ortho, or none.
        #[arg(long, default_value = "backward")]
        norm: String,
    },
    /// Permute the axes of a .npy file of any numeric dtype, like numpy.transpose(a, axes).
    Permute {
        input: PathBuf,
        output: PathBuf,
        /// Output axis i is input axis axes[i], e.g. 2,0,1 (negative from the last, as
        /// numpy's). Default: reversed, as numpy's.
        #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
        axes: Option<String>,
    },
    /// Circularly shift a .npy file of any numeric dtype: numpy.roll over all axes (--by),
    /// numpy.fft.fftshift (--fftshift) or ifftshift (--ifftshift), optionally over --axes.
    Shift {
        input: PathBuf,
        output: PathBuf,
        /// One amount per axis, e.g. 3,-1,0 (numpy.roll(a, (3, -1, 0), axis=(0, 1, 2))).
        #[arg(long, value_name = "LIST", allow_hyphen_values = true, conflicts_with_all = ["fftshift", "ifftshift"])]
        by: Option<String>,
        /// Zero frequency to the centre, over --axes (default all).
        #[arg(long, conflicts_with = "ifftshift")]
        fftshift: bool,
        /// The inverse of --fftshift.
        #[arg(long)]
        ifftshift: bool,
        /// Axes for --fftshift / --ifftshift, e.g. 1,2 or -1 (negative from the last).
        #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
        axes: Option<String>,
    },
}

pub fn run() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Info { quick } => info(cli.device.as_deref(), quick),
        Command::Fft { input, output, inverse, real, n, norm, axes } => {
            let axes = axes.map(|a| args::parse_list("--axes", &a)).transpose()?;
            let device = Device::select(cli.device.as_deref())?;
            let norm: Normalization = norm.parse()?;
            fft::run(&device, &fft::FftArgs { input: &input, output: &output, inverse, real, n, norm, axes })
        }
        Command::Permute { input, output, axes } => {
            let axes = axes.map(|a| args::parse_list("--axes", &a)).transpose()?;
            let device = Device::select(cli.device.as_deref())?;
            rearrange::permute(&device, &input, &output, axes)
        }
        Command::Shift { input, output, by, fftshift, ifftshift, axes } => {
            let axes = axes.map(|a| args::parse_list("--axes", &a)).transpose()?;
            let how = match (by, fftshift, ifftshift) {
                (Some(by), _, _) if axes.is_none() => rearrange::Shift::By(args::parse_list("--by", &by)?),
                (None, true, _) => rearrange::Shift::Fft(axes),
                (None, _, true) => rearrange::Shift::Ifft(axes),
                (Some(_), _, _) => return Err(Error::InvalidArgument("--axes goes with --fftshift or --ifftshift; --by takes one amount per axis (0 for axes that stay)".into())),
                (None, false, false) => return Err(Error::InvalidArgument("say how to shift: --by 3,-1,0, --fftshift or --ifftshift".into())),
            };
            let device = Device::select(cli.device.as_deref())?;
            rearrange::shift(&device, &input, &output, how)
        }
        Command::Bench { suites, quick, sweep, csv, markdown, fft_suites, accuracy, sizes, variants, compile_only, shape, axes } => {
            let suites = parse_suites(&suites)?;
            let fft_suites: Vec<FftSuite> = fft_suites.iter().map(|s| FftSuite::from_name(s)).collect::<Result<_>>()?;
            let variants = variants.map_or(Vec::new(), |v| v.split(',').map(|name| name.trim().to_string()).collect());
            if !variants.is_empty() && !fft_suites.iter().any(|s| s.variants_of().is_some()) {
                return Err(Error::InvalidArgument("--variants picks what the variants suite times: add --suite variants (or variants-f64, variants-r2c, variants-c2r, variants-r2c-f64, variants-c2r-f64)".into()));
            }
            if compile_only && (accuracy || suites != [Suite::Fft] || fft_suites.is_empty() || !fft_suites.iter().all(|s| s.compiles_only())) {
                return Err(Error::InvalidArgument(
                    "--compile-only compiles the kernels of the FFT suites sweep, f64, real, r2c, c2r, real-f64 and variants*: run `bench fft` naming only those with --suite".into(),
                ));
            }
            let mut fft = FftBenchOptions { suites: fft_suites, sizes: Vec::new(), variants, compile_only };
            if accuracy {
                fft.suites.push(FftSuite::Accuracy);
            }
            if let Some(s) = sizes {
                fft.sizes = parse_sizes(&s)?;
            }
            let device = Device::select(cli.device.as_deref())?;
            let permute_case = match (shape, axes) {
                (Some(s), Some(a)) => Some(PermuteProblem::new(ScalarKind::F32, &args::parse_list("--shape", &s)?, &args::parse_list("--axes", &a)?)),
                _ => None,
            };
            let cfg = BenchConfig { quick, sweep, progress: true, fft, permute_case };
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
                        if let Some(svg) = &t.plot {
                            let plot = path.with_extension("svg");
                            std::fs::write(&plot, svg).map_err(|e| Error::Io { context: format!("writing {}", plot.display()), source: e })?;
                            eprintln!("wrote {}", plot.display());
                        }
                    }
                }
            }
            Ok(())
        }
    }
}

/// `--sizes`: comma-separated items, each N or LO..HI (inclusive).
fn parse_sizes(s: &str) -> Result<Vec<std::ops::RangeInclusive<usize>>> {
    let bad = |item: &str| {
        Error::InvalidArgument(format!("--sizes '{s}': '{item}' is not N or LO..HI with whole numbers LO <= HI, e.g. 2..1024,4093"))
    };
    s.split(',')
        .map(|item| {
            let (lo, hi) = item.split_once("..").unwrap_or((item, item));
            let lo: usize = lo.trim().parse().map_err(|_| bad(item))?;
            let hi: usize = hi.trim().trim_start_matches('=').parse().map_err(|_| bad(item))?;
            if lo > hi {
                return Err(bad(item));
            }
            Ok(lo..=hi)
        })
        .collect()
}

fn parse_suites(names: &[String]) -> Result<Vec<Suite>> {
    if names.is_empty() {
        return Ok(Suite::DEFAULT.to_vec());
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

#[cfg(test)]
mod tests {
    use super::parse_sizes;

    #[test]
    fn sizes_are_lengths_and_inclusive_ranges() {
        assert_eq!(parse_sizes("2..64,4093, 4000..=4002").unwrap(), vec![2..=64, 4093..=4093, 4000..=4002]);
        for bad in ["", "5..2", "a..4", "3,,4", "1..x"] {
            let err = parse_sizes(bad).unwrap_err().to_string();
            assert!(err.contains("--sizes"), "{bad}: {err}");
        }
    }
}
