//! Timing with device events: warm up, then the median over repetitions of many launches.

use crate::device::Device;
use crate::error::Result;

/// How hard to time: repetitions and launches per repetition.
#[derive(Debug, Clone, Copy)]
pub struct TimingPlan {
    pub reps: usize,
    pub launches: usize,
}

impl TimingPlan {
    /// DESIGN.md's rule: median of at least 5 repetitions of at least 10 launches.
    pub const FULL: TimingPlan = TimingPlan { reps: 7, launches: 10 };
    pub const QUICK: TimingPlan = TimingPlan { reps: 5, launches: 10 };
}

/// Milliseconds per launch: median, fastest and slowest repetition.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
}

impl Timing {
    /// Gigabytes (1e9) per second for `bytes` moved per launch, at the median.
    pub fn gbps(&self, bytes: f64) -> f64 {
        bytes / (self.median_ms * 1e-3) / 1e9
    }
}

/// Times `launch` (which queues work without waiting) on `device`.
pub fn time_launches(device: &Device, plan: TimingPlan, mut launch: impl FnMut() -> Result<()>) -> Result<Timing> {
    // Warm-up: module load, first-touch of pages, clocks ramping up.
    for _ in 0..2 {
        launch()?;
    }
    device.synchronize()?;
    let mut per_launch = Vec::with_capacity(plan.reps);
    for _ in 0..plan.reps {
        let start = device.mark()?;
        for _ in 0..plan.launches {
            launch()?;
        }
        let end = device.mark()?;
        per_launch.push(end.elapsed_ms_since(&start)? / plan.launches as f64);
    }
    per_launch.sort_by(|a, b| a.total_cmp(b));
    Ok(Timing {
        median_ms: per_launch[per_launch.len() / 2],
        min_ms: per_launch[0],
        max_ms: per_launch[per_launch.len() - 1],
    })
}
