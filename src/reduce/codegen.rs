//! Kernel source for one reduction pass: every block folds a grid-strided share of the input
//! into one value and writes it to `out[block]`.
//!
//! Order of operations, which keeps the f32 sum's error near log2(n) roundings rather than n:
//! each thread loads `unroll` 16-byte vectors, folds their lanes pairwise (a balanced tree),
//! adds that to its running value (a few dozen terms at most, as the grid is sized to the
//! device), and the block then folds its threads' values by a balanced tree in shared memory.

use super::plan::ReduceKernelSpec;
use super::ReduceOp;
use crate::element::ScalarKind;
use crate::kernel::prelude::{vector16, LANES};
use crate::kernel::{KernelSource, SourceWriter};

impl ReduceKernelSpec {
    /// `reduce_sum_f32_to_f32_t256_u4`.
    pub fn kernel_name(&self) -> String {
        format!(
            "reduce_{}_{}_to_{}_t{}_u{}",
            self.op.name(),
            self.input,
            self.acc,
            self.tuning.threads,
            self.tuning.unroll
        )
    }

    pub fn source(&self) -> KernelSource {
        let name = self.kernel_name();
        let threads = self.tuning.threads;
        let unroll = self.tuning.unroll as usize;
        let input = self.input.name();
        let acc = self.acc.name();
        let (vec, lanes) = vector16(input).unwrap_or((input, 1));
        let mut w = SourceWriter::new();

        w.comment(&[&format!("combine: the {} of two {acc} values{}", self.op.name(), combine_note(self.op, self.acc))]);
        w.open(format!("DEVICE_FN {acc} combine({acc} a, {acc} b)"));
        w.line(format!("return {};", combine_expr(self.op, self.acc)));
        w.close();
        w.line("");

        w.comment(&[
            &format!("{name}: out[block] = {} of this block's share of in[0..n).", self.op.name()),
            &format!("Thread t of block g reads {vec} vectors g*C + t, g*C + t + {threads}, ... (C = {unroll} x {threads}),"),
            "then every gridDim*C vectors: coalesced 16-byte loads, several in flight per thread.",
        ]);
        w.open(format!(
            "KERNEL_BLOCK({threads}) void {name}(const GLOBAL {input}* RESTRICT in, const u64 n, GLOBAL {acc}* RESTRICT out)"
        ));
        w.line(format!("LOCAL {acc} tree[{threads}];"));
        w.line("const u32 lid = LOCAL_ID();");
        w.line(format!("const {acc} identity = {};", identity(self.op, self.acc)));
        w.line(format!("{acc} run = identity;"));
        let kahan = self.op == ReduceOp::Sum && self.acc.is_float();
        if kahan {
            w.line(format!("{acc} comp = 0;"));
        }
        if lanes > 1 {
            w.line(format!("const GLOBAL {vec}* RESTRICT in_vec = (const GLOBAL {vec}*)in;"));
            w.line(format!("const u64 n_vec = n / {lanes};"));
        } else {
            w.line(format!("const GLOBAL {vec}* RESTRICT in_vec = in;"));
            w.line("const u64 n_vec = n;");
        }
        w.line(format!("const u64 chunk = {};", unroll as u32 * threads));
        w.open("for (u64 i = (u64)GROUP_ID() * chunk + lid; i < n_vec; i += (u64)NUM_GROUPS() * chunk)");
        // Loads first (all in flight), then the lane trees, then the tree across loads.
        for j in 0..unroll {
            let idx = if j == 0 { "i".to_owned() } else { format!("i + {}", j as u32 * threads) };
            // An out-of-range load re-reads vector i (always in range); its value is replaced
            // by the identity below.
            if j == 0 {
                w.line(format!("const {vec} v0 = in_vec[i];"));
            } else {
                w.line(format!("const int ok{j} = {idx} < n_vec;"));
                w.line(format!("const {vec} v{j} = in_vec[ok{j} ? {idx} : i];"));
            }
        }
        for j in 0..unroll {
            let lane_vals: Vec<String> = if lanes > 1 {
                (0..lanes).map(|l| format!("({acc})v{j}.{}", LANES[l])).collect()
            } else {
                vec![format!("({acc})v{j}")]
            };
            let tree = balanced(&lane_vals);
            if j == 0 {
                w.line(format!("const {acc} s0 = {tree};"));
            } else {
                w.line(format!("const {acc} s{j} = ok{j} ? {tree} : identity;"));
            }
        }
        let partials: Vec<String> = (0..unroll).map(|j| format!("s{j}")).collect();
        if kahan {
            // Compensated running sum: the rounding error of each addition is carried into
            // the next, so a long grid-stride loop adds no error beyond the trees'.
            w.line(format!("const {acc} y = {} - comp;", balanced(&partials)));
            w.line(format!("const {acc} t = run + y;"));
            w.line("comp = (t - run) - y;");
            w.line("run = t;");
        } else {
            w.line(format!("run = combine(run, {});", balanced(&partials)));
        }
        w.close();
        if lanes > 1 {
            w.line(format!("/* the last n % {lanes} elements, which fill no whole vector: block 0 takes them */"));
            w.open(format!("if (GROUP_ID() == 0 && lid < n - n_vec * {lanes})"));
            w.line(format!("run = combine(run, ({acc})in[n_vec * {lanes} + lid]);"));
            w.close();
        }
        w.line(if kahan { "tree[lid] = run - comp;" } else { "tree[lid] = run;" });
        w.line("BARRIER();");
        w.line("/* balanced tree over the block's threads */");
        w.open(format!("for (u32 width = {}; width > 0; width >>= 1)", threads / 2));
        w.line("if (lid < width) tree[lid] = combine(tree[lid], tree[lid + width]);");
        w.line("BARRIER();");
        w.close();
        w.line("if (lid == 0) out[GROUP_ID()] = tree[0];");
        w.close();

        KernelSource { name: name.clone(), entry_points: vec![name], body: w.finish() }
    }
}

/// `combine(combine(a, b), combine(c, d))`-shaped expression over the items.
fn balanced(items: &[String]) -> String {
    match items.len() {
        0 => unreachable!("at least one item"),
        1 => items[0].clone(),
        n => {
            let (l, r) = items.split_at(n.div_ceil(2));
            format!("combine({}, {})", balanced(l), balanced(r))
        }
    }
}

fn combine_expr(op: ReduceOp, acc: ScalarKind) -> String {
    let a = acc.name();
    match op {
        // Signed overflow is undefined in C: add as unsigned, which wraps like numpy.
        ReduceOp::Sum if acc.is_signed() && !acc.is_float() => format!("({a})((u64)a + (u64)b)"),
        ReduceOp::Sum => "a + b".into(),
        // NaN in either operand wins, as in numpy.min/max.
        ReduceOp::Min if acc.is_float() => "(a != a || a < b) ? a : b".into(),
        ReduceOp::Max if acc.is_float() => "(a != a || a > b) ? a : b".into(),
        ReduceOp::Min => "a < b ? a : b".into(),
        ReduceOp::Max => "a > b ? a : b".into(),
    }
}

fn combine_note(op: ReduceOp, acc: ScalarKind) -> &'static str {
    match op {
        ReduceOp::Sum if !acc.is_float() => " (integer sums wrap on overflow, as numpy's do)",
        ReduceOp::Min | ReduceOp::Max if acc.is_float() => " (NaN propagates, as in numpy)",
        _ => "",
    }
}

fn identity(op: ReduceOp, acc: ScalarKind) -> String {
    use ScalarKind as K;
    let a = acc.name();
    let lit = match (op, acc) {
        (ReduceOp::Sum, _) => "0",
        (ReduceOp::Min, K::F32) => "F32_INF",
        (ReduceOp::Min, K::F64) => "F64_INF",
        (ReduceOp::Max, K::F32) => "-F32_INF",
        (ReduceOp::Max, K::F64) => "-F64_INF",
        (ReduceOp::Min, K::I32) => "0x7fffffff",
        (ReduceOp::Min, K::U32) => "0xffffffffu",
        (ReduceOp::Min, K::I64) => "0x7fffffffffffffff",
        (ReduceOp::Min, K::U64) => "0xffffffffffffffff",
        (ReduceOp::Max, K::I32) => "(-0x7fffffff - 1)",
        (ReduceOp::Max, K::I64) => "(-(i64)0x7fffffffffffffff - 1)",
        (ReduceOp::Max, K::U32 | K::U64) => "0",
        _ => unreachable!("reductions are planned only for f32, f64, i32, u32, i64, u64"),
    };
    format!("({a}){lit}")
}
