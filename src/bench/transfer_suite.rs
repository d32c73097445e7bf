//! `coalesce bench transfer`: host-to-device and device-to-host bandwidth, pinned and
//! pageable (as CUDA's bandwidthTest reports them), and the device-to-device copy.

use super::{driver_copy_gbps, human_bytes, progress, time_launches, BenchConfig, Table};
use crate::device::Device;
use crate::error::Result;

pub(super) fn run(device: &Device, cfg: &BenchConfig) -> Result<Vec<Table>> {
    let size: usize = if cfg.quick { 16 << 20 } else { 256 << 20 };
    let timing = cfg.timing();
    let mut table = Table::new(format!("transfers on {device}"), &["direction", "host memory", "size", "time ms", "GB/s"]);
    let pb = progress(cfg, 5, "transfer");
    let mut buf = device.alloc::<u8>(size)?;
    let mut pageable = vec![0x5Au8; size];
    let mut pinned = device.alloc_pinned(size)?;
    pinned.as_mut_slice().fill(0xA5);

    // SAFETY (all four): the host memory outlives the timed region, which ends synchronized.
    let h2d_pageable = time_launches(device, timing, || unsafe { device.enqueue_upload_bytes(buf.raw_mut(), &pageable) })?;
    pb.inc(1);
    let h2d_pinned = time_launches(device, timing, || unsafe { device.enqueue_upload_bytes(buf.raw_mut(), pinned.as_slice()) })?;
    pb.inc(1);
    let d2h_pageable = time_launches(device, timing, || unsafe { device.enqueue_download_bytes(buf.raw(), &mut pageable) })?;
    pb.inc(1);
    let d2h_pinned = time_launches(device, timing, || unsafe { device.enqueue_download_bytes(buf.raw(), pinned.as_mut_slice()) })?;
    pb.inc(1);
    for (dir, mem, t) in [
        ("host to device", "pageable", h2d_pageable),
        ("host to device", "pinned", h2d_pinned),
        ("device to host", "pageable", d2h_pageable),
        ("device to host", "pinned", d2h_pinned),
    ] {
        table.row(vec![dir.into(), mem.into(), human_bytes(size), format!("{:.3}", t.median_ms), format!("{:.1}", t.gbps(size as f64))]);
    }
    let (t, gbps) = driver_copy_gbps(device, size, timing)?;
    table.row(vec!["device to device (read + write)".into(), "-".into(), human_bytes(size), format!("{:.3}", t.median_ms), format!("{gbps:.1}")]);
    pb.inc(1);
    pb.finish_and_clear();
    Ok(vec![table])
}
