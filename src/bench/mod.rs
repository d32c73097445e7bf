//! Benchmarks: every primitive timed with device events on random data, beside the driver's
//! own device-to-device copy of the same bytes measured in the same run.
//!
//! Effective bandwidth counts each input element read once and each output element written
//! once; the driver's copy is counted the same way (read + write). The ratio of the two is
//! the figure that means something across devices.

mod copy_suite;
mod fft_nd_suite;
mod fft_suite;
mod fft_variants;
mod permute_suite;
pub mod plot;
pub mod random;
mod reduce_suite;
pub mod table;
pub mod timing;
mod transfer_suite;

use std::fmt;

pub use fft_suite::{FftBenchOptions, FftSuite};
pub use table::Table;
pub use timing::{time_launches, Timing, TimingPlan};

use crate::device::Device;
use crate::error::Result;

/// What a benchmark run measures and how hard.
#[derive(Debug, Clone, Default)]
pub struct BenchConfig {
    /// Small sizes and few repetitions: seconds on any machine, CPU devices included.
    pub quick: bool,
    /// Also time a grid of tuning choices (kernel development, not the headline figure).
    pub sweep: bool,
    /// Draw a progress bar on stderr (only when it is a terminal).
    pub progress: bool,
    /// What `bench fft` measures.
    pub fft: FftBenchOptions,
    /// `bench permute` on this one problem instead of its suites (with `sweep`: beside every
    /// tile tuning and block order).
    pub permute_case: Option<crate::rearrange::PermuteProblem>,
}

impl BenchConfig {
    pub fn timing(&self) -> TimingPlan {
        if self.quick { TimingPlan::QUICK } else { TimingPlan::FULL }
    }
}

/// The benchmark suites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// Generated copy kernels (contiguous, offset, strided) against the driver's copy.
    Copy,
    /// Sum, min and max of every type, bytes read per second against the driver's copy.
    Reduce,
    /// Host-to-device and device-to-host, pinned and pageable, and the device copy.
    Transfer,
    /// Batched 1D FFTs beside cuFFT (see [`FftSuite`] for its parts).
    Fft,
    /// Permutes, interlaces and shifts, beside the naive gather (see `permute_suite`).
    Permute,
}

impl Suite {
    /// What `bench` runs without naming suites (FFT and permute take minutes: ask for them).
    pub const DEFAULT: [Suite; 3] = [Suite::Copy, Suite::Reduce, Suite::Transfer];
    pub const ALL: [Suite; 5] = [Suite::Copy, Suite::Reduce, Suite::Transfer, Suite::Fft, Suite::Permute];

    pub fn name(self) -> &'static str {
        match self {
            Suite::Copy => "copy",
            Suite::Reduce => "reduce",
            Suite::Transfer => "transfer",
            Suite::Fft => "fft",
            Suite::Permute => "permute",
        }
    }

    pub fn from_name(name: &str) -> Option<Suite> {
        Suite::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Runs the suite; returns its tables.
    pub fn run(self, device: &Device, cfg: &BenchConfig) -> Result<Vec<Table>> {
        match self {
            Suite::Copy => copy_suite::run(device, cfg),
            Suite::Reduce => reduce_suite::run(device, cfg),
            Suite::Transfer => transfer_suite::run(device, cfg),
            Suite::Fft => fft_suite::run(device, cfg),
            Suite::Permute => permute_suite::run(device, cfg),
        }
    }
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The driver's device-to-device copy of `bytes` bytes, in GB/s counting read + write.
pub fn driver_copy_gbps(device: &Device, bytes: usize, plan: TimingPlan) -> Result<(Timing, f64)> {
    let n = bytes / 4;
    let src = device.upload(&random::random_vec::<u32>(n, 1))?;
    let mut dst = device.alloc::<u32>(n)?;
    let t = time_launches(device, plan, || device.driver_copy(&src, &mut dst))?;
    Ok((t, t.gbps(2.0 * (n * 4) as f64)))
}

/// A progress bar over `len` steps, drawn only when asked and stderr is a terminal.
pub(crate) fn progress(cfg: &BenchConfig, len: usize, what: &str) -> indicatif::ProgressBar {
    if !cfg.progress {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{msg:>10} [{bar:30}] {pos}/{len} {elapsed}") {
        pb.set_style(style.progress_chars("=> "));
    }
    pb.set_message(what.to_owned());
    pb
}

/// Bytes as MiB / GiB for table cells.
pub fn human_bytes(bytes: usize) -> String {
    const MIB: usize = 1 << 20;
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB", bytes >> 30)
    } else if bytes >= MIB {
        format!("{:.0} MiB", bytes as f64 / MIB as f64)
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}

/// A ratio cell with two decimals.
pub(crate) fn ratio(x: f64) -> String {
    format!("{x:.3}")
}
