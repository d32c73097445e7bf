//! Probe: does a multi-pass transform run faster when its batch is cut into chunks small
//! enough that the values between its passes stay in the L2 cache (50 MB on an H200)? Times
//! one plan over the whole batch (256 MiB) against a plan of a few transforms run over
//! separate buffers that add up to the same bytes, one chunk after the other.
//!
//! Measured on an H200 (fifty-eighth session, docs/BENCHMARKS.md): no. Every chunking ran
//! slower than the whole batch (1024^2 2D: 0.57x at 8 MiB chunks, 0.85x at 64 MiB): the
//! launches of small chunks leave the GPU part idle, and nothing the L2 keeps makes up for it.
//!
//! `cargo run --release --example l2_chunk_probe -- [CASE ...]`, CASE = `2d:1024`, `3d:256`,
//! `1d:1048576`, each optionally `@MIB` to fix the chunk's size (default: 1 to 64 MiB).

use coalesce::bench::random::random_vec;
use coalesce::bench::timing::{time_launches, TimingPlan};
use coalesce::fft::{FftNdPlan, FftNdProblem};
use coalesce::{Complex, Device, DeviceBuffer, Result};

const TOTAL_BYTES: usize = 256 << 20;

fn problem(case: &str, batch: usize) -> FftNdProblem {
    let (kind, n) = case.split_once(':').expect("CASE is KIND:N");
    let n: usize = n.parse().expect("N is a number");
    match kind {
        "1d" => FftNdProblem::c2c_1d(n, batch),
        "2d" => FftNdProblem::c2c(&[batch, n, n], &[1, 2]),
        "3d" => FftNdProblem::c2c(&[batch, n, n, n], &[1, 2, 3]),
        _ => panic!("KIND is 1d, 2d or 3d"),
    }
}

/// Milliseconds for the whole 256 MiB, run as `chunks` plans of `batch` transforms each, and
/// the plan's passes.
fn time(device: &Device, case: &str, batch: usize, chunks: usize) -> Result<(f64, usize)> {
    let plan = FftNdPlan::new(device, problem(case, batch))?;
    let len = plan.problem().len();
    let inputs: Vec<DeviceBuffer<Complex<f32>>> = (0..chunks).map(|c| device.upload(&random_vec::<Complex<f32>>(len, c as u64))).collect::<Result<_>>()?;
    let mut outputs: Vec<DeviceBuffer<Complex<f32>>> = (0..chunks).map(|_| device.alloc(len)).collect::<Result<_>>()?;
    let t = time_launches(device, TimingPlan { reps: 7, launches: 4 }, || {
        for (i, o) in inputs.iter().zip(outputs.iter_mut()) {
            plan.forward(i, o)?;
        }
        Ok(())
    })?;
    Ok((t.median_ms, plan.recipe().passes.len()))
}

fn main() -> Result<()> {
    let device = Device::select(None)?;
    println!("device: {device}");
    let src: DeviceBuffer<u8> = device.alloc(TOTAL_BYTES)?;
    let mut dst: DeviceBuffer<u8> = device.alloc(TOTAL_BYTES)?;
    let copy = time_launches(&device, TimingPlan::FULL, || device.driver_copy(&src, &mut dst))?;
    println!("copy of {} MiB: {:.4} ms", TOTAL_BYTES >> 20, copy.median_ms);
    drop((src, dst));
    for arg in std::env::args().skip(1) {
        let (case, fixed) = match arg.split_once('@') {
            Some((c, m)) => (c.to_string(), Some(vec![m.parse::<usize>().expect("@MIB is a number")])),
            None => (arg.clone(), None),
        };
        let one = problem(&case, 1).len() * 8;
        let total = TOTAL_BYTES / one;
        let (full, passes) = time(&device, &case, total, 1)?;
        println!("{case} x{total} ({passes} passes): {full:.4} ms, {:.3} of copy", copy.median_ms / full);
        let mut batches: Vec<usize> = fixed.unwrap_or(vec![1, 2, 4, 8, 16, 32, 64]).into_iter().map(|mib| ((mib << 20) / one).max(1)).filter(|&b| b < total).collect();
        batches.dedup();
        for batch in batches {
            let (ms, _) = time(&device, &case, batch, total / batch)?;
            println!("  chunks of {batch} ({} MiB) x{}: {ms:.4} ms, {:.3} of copy, {:.2}x the whole batch", (batch * one) >> 20, total / batch, copy.median_ms / ms, full / ms);
        }
    }
    Ok(())
}
