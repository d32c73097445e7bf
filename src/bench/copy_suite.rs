//! `coalesce bench copy`: generated copy kernels against the driver's device-to-device copy.

use super::random::random_vec;
use super::{human_bytes, progress, ratio, time_launches, BenchConfig, Table};
use crate::copy::{CopyPlan, CopyProblem, CopyTuning};
use crate::device::Device;
use crate::error::{Error, Result};

const HEADERS: [&str; 6] = ["case", "size", "time ms", "GB/s", "memcpy GB/s", "of memcpy"];

pub(super) fn run(device: &Device, cfg: &BenchConfig) -> Result<Vec<Table>> {
    let sizes: [usize; 2] = if cfg.quick { [16 << 20, 64 << 20] } else { [256 << 20, 1 << 30] };
    let timing = cfg.timing();
    let mut table = Table::new(format!("copy on {device}: bytes read + written per second"), &HEADERS);
    let pb = progress(cfg, sizes.len() * 4, "copy");
    let mut ratios = Vec::new();
    for &size in &sizes {
        let n = size / 4;
        let src = device.upload(&random_vec::<f32>(n, 7))?;
        let mut dst = device.alloc::<f32>(n)?;
        let bytes = 2.0 * size as f64;

        let memcpy = time_launches(device, timing, || device.driver_copy(&src, &mut dst))?;
        let mem_gbps = memcpy.gbps(bytes);
        table.row(vec!["driver memcpy (reference)".into(), human_bytes(size), format!("{:.4}", memcpy.median_ms), format!("{mem_gbps:.0}"), format!("{mem_gbps:.0}"), ratio(1.0)]);
        pb.inc(1);

        let cases: [(&str, CopyProblem, usize); 3] = [
            ("copy f32", CopyProblem::contiguous::<f32>(n), n),
            ("copy f32, offsets 1 and 0 (4-byte words)", CopyProblem::contiguous::<f32>(n - 1).with_src_offset(1), n - 1),
            ("gather f32, stride 2", CopyProblem::contiguous::<f32>(n / 2).with_src_stride(2), n / 2),
        ];
        for (i, (label, problem, count)) in cases.into_iter().enumerate() {
            let plan = CopyPlan::new(device, problem)?;
            device.fill_bytes(&mut dst, 0xFF)?;
            let t = time_launches(device, timing, || plan.execute(&src, &mut dst))?;
            let moved = 2.0 * (count * 4) as f64;
            let frac = t.gbps(moved) / mem_gbps;
            if i == 0 {
                verify_copy(&src, &dst)?;
                ratios.push((size, frac));
            }
            table.row(vec![label.into(), human_bytes(count * 4), format!("{:.4}", t.median_ms), format!("{:.0}", t.gbps(moved)), format!("{mem_gbps:.0}"), ratio(frac)]);
            pb.inc(1);
        }
    }
    pb.finish_and_clear();
    for (size, frac) in &ratios {
        table.summary.push(format!("copy kernel at {}: {:.3} of the driver's memcpy", human_bytes(*size), frac));
    }
    let mut tables = vec![table];
    if cfg.sweep {
        tables.push(sweep(device, cfg, *sizes.last().unwrap())?);
    }
    Ok(tables)
}

/// The benchmark's own check that the timed kernel copied what it was given.
fn verify_copy(src: &crate::DeviceBuffer<f32>, dst: &crate::DeviceBuffer<f32>) -> Result<()> {
    let (a, b) = (src.to_vec()?, dst.to_vec()?);
    match a.iter().zip(&b).position(|(x, y)| x.to_bits() != y.to_bits()) {
        None => Ok(()),
        Some(i) => Err(Error::invalid(format!("copy benchmark: element {i} differs after the timed copy"))),
    }
}

/// Every combination of the copy kernel's tuning choices at one size.
fn sweep(device: &Device, cfg: &BenchConfig, size: usize) -> Result<Table> {
    let n = size / 4;
    let src = device.upload(&random_vec::<f32>(n, 8))?;
    let mut dst = device.alloc::<f32>(n)?;
    let timing = cfg.timing();
    let mem_gbps = time_launches(device, timing, || device.driver_copy(&src, &mut dst))?.gbps(2.0 * size as f64);
    let mut table = Table::new(
        format!("copy tuning sweep on {device}, {}", human_bytes(size)),
        &["threads", "bytes/thread", "blocks/SM", "streaming", "time ms", "GB/s", "of memcpy"],
    );
    let mut variants = Vec::new();
    for threads in [128, 256, 512, 1024] {
        for bytes_per_thread in [16, 32, 64, 128] {
            for blocks_per_sm in [0, 4, 8, 16, 32] {
                for streaming in [false, true] {
                    variants.push(CopyTuning { threads, bytes_per_thread, blocks_per_sm, streaming });
                }
            }
        }
    }
    let variants: Vec<CopyTuning> = variants.into_iter().filter(|t| t.threads <= device.info().max_threads_per_block).collect();
    let pb = progress(cfg, variants.len(), "sweep");
    let mut best: Option<(f64, CopyTuning)> = None;
    for tuning in variants {
        let plan = CopyPlan::with_tuning(device, CopyProblem::contiguous::<f32>(n), tuning)?;
        let t = time_launches(device, timing, || plan.execute(&src, &mut dst))?;
        let frac = t.gbps(2.0 * size as f64) / mem_gbps;
        if best.is_none_or(|(b, _)| frac > b) {
            best = Some((frac, tuning));
        }
        table.row(vec![
            tuning.threads.to_string(),
            tuning.bytes_per_thread.to_string(),
            tuning.blocks_per_sm.to_string(),
            tuning.streaming.to_string(),
            format!("{:.4}", t.median_ms),
            format!("{:.0}", t.gbps(2.0 * size as f64)),
            ratio(frac),
        ]);
        pb.inc(1);
    }
    pb.finish_and_clear();
    if let Some((frac, t)) = best {
        table.summary.push(format!("best: {t:?} at {frac:.3} of memcpy"));
    }
    Ok(table)
}
