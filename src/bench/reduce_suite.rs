//! `coalesce bench reduce`: sum, min and max of every type; bytes read per second against
//! the driver's copy of the same bytes (read + written per second).

use super::random::{random_vec, Random};
use super::{human_bytes, progress, ratio, time_launches, BenchConfig, Table};
use crate::device::Device;
use crate::error::Result;
use crate::reduce::{ReduceOp, ReducePlan, Reducible};

pub(super) fn run(device: &Device, cfg: &BenchConfig) -> Result<Vec<Table>> {
    let n: usize = if cfg.quick { 1 << 22 } else { 1 << 28 };
    let mut table = Table::new(
        format!("reduce on {device}: n = {n}, bytes read per second against memcpy's read + write"),
        &["op", "type", "size", "time ms", "GB/s read", "memcpy GB/s", "of memcpy"],
    );
    let pb = progress(cfg, 6 * 3, "reduce");
    one_type::<f32>(device, cfg, n, &mut table, &pb)?;
    one_type::<f64>(device, cfg, n, &mut table, &pb)?;
    one_type::<i32>(device, cfg, n, &mut table, &pb)?;
    one_type::<u32>(device, cfg, n, &mut table, &pb)?;
    one_type::<i64>(device, cfg, n, &mut table, &pb)?;
    one_type::<u64>(device, cfg, n, &mut table, &pb)?;
    pb.finish_and_clear();
    let fracs: Vec<f64> = table.rows.iter().filter_map(|r| r.last()?.parse().ok()).collect();
    if let (Some(lo), Some(hi)) = (fracs.iter().copied().reduce(f64::min), fracs.iter().copied().reduce(f64::max)) {
        table.summary.push(format!("fraction of memcpy over all ops and types: lowest {lo:.3}, highest {hi:.3}"));
    }
    Ok(vec![table])
}

fn one_type<T: Reducible + Random>(device: &Device, cfg: &BenchConfig, n: usize, table: &mut Table, pb: &indicatif::ProgressBar) -> Result<()> {
    let timing = cfg.timing();
    let x = device.upload(&random_vec::<T>(n, 11))?;
    let bytes = n * std::mem::size_of::<T>();
    // The reference: the driver copying the same bytes, counted read + write.
    let mem_gbps = {
        let mut copy = device.alloc::<T>(n)?;
        time_launches(device, timing, || device.driver_copy(&x, &mut copy))?.gbps(2.0 * bytes as f64)
    };
    for op in ReduceOp::ALL {
        let plan = ReducePlan::new(device, op, T::KIND, n)?;
        let t = if op == ReduceOp::Sum {
            let mut out = device.alloc::<T::Sum>(1)?;
            time_launches(device, timing, || plan.execute(&x, &mut out))?
        } else {
            let mut out = device.alloc::<T>(1)?;
            time_launches(device, timing, || plan.execute(&x, &mut out))?
        };
        let gbps = t.gbps(bytes as f64);
        table.row(vec![
            op.name().into(),
            T::KIND.name().into(),
            human_bytes(bytes),
            format!("{:.4}", t.median_ms),
            format!("{gbps:.0}"),
            format!("{mem_gbps:.0}"),
            ratio(gbps / mem_gbps),
        ]);
        pb.inc(1);
    }
    Ok(())
}
