//! Kernel source for one copy pass: contiguous words, or a gather of fixed-size units at a
//! constant stride. Loads are unrolled by hand so that each thread has `unroll` independent
//! requests in flight before its first store.

use super::plan::CopyKernelSpec;
use crate::kernel::prelude::word_type;
use crate::kernel::{KernelSource, SourceWriter};

impl CopyKernelSpec {
    /// Readable kernel name: `copy_w16_t256_u4`, `gather_w4_k3_t256_u4`, `_cs` when streaming.
    pub fn kernel_name(&self) -> String {
        let t = &self.tuning;
        let base = match self.words_per_unit {
            None => format!("copy_w{}", self.word_bytes),
            Some(k) => format!("gather_w{}_k{k}", self.word_bytes),
        };
        format!("{base}_t{}_u{}{}", t.threads, self.unroll, if t.streaming { "_cs" } else { "" })
    }

    /// The program text implementing this pass.
    pub fn source(&self) -> KernelSource {
        let name = self.kernel_name();
        let word = word_type(self.word_bytes).expect("the planner picks power-of-two words up to 16 bytes");
        let threads = self.tuning.threads as u64;
        let unroll = self.unroll as u64;
        let chunk = threads * unroll;
        let mut w = SourceWriter::new();

        // Streaming (evict-first) accesses on CUDA: data touched once should not displace L2.
        if self.tuning.streaming {
            w.line("#if defined(__CUDACC__)");
            w.line("#define LOAD_ONCE(p) __ldcs(p)");
            w.line("#define STORE_ONCE(p, v) __stcs((p), (v))");
            w.line("#else");
            w.line("#define LOAD_ONCE(p) (*(p))");
            w.line("#define STORE_ONCE(p, v) (*(p) = (v))");
            w.line("#endif");
        } else {
            w.line("#define LOAD_ONCE(p) (*(p))");
            w.line("#define STORE_ONCE(p, v) (*(p) = (v))");
        }
        w.line("");

        let what = self.describe();
        w.comment(&[
            &format!("{name}: {what}"),
            &format!("Block g moves chunks g, g + gridDim, ... of {unroll} x {threads} words. In a chunk, thread t"),
            &format!("moves words t, t + {threads}, ...: each access of a warp covers consecutive words (coalesced),"),
            &format!("and all {unroll} loads are issued before the first store, keeping {unroll} requests in flight."),
        ]);
        let stride_param = if self.words_per_unit.is_some() { ", const u64 stride" } else { "" };
        w.open(format!(
            "KERNEL_BLOCK({threads}) void {name}(GLOBAL {word}* RESTRICT dst, const u64 dst_off, const GLOBAL {word}* RESTRICT src, const u64 src_off{stride_param}, const u64 n)"
        ));
        w.line(format!("const u64 chunk = {chunk};"));
        w.open("for (u64 i = (u64)GROUP_ID() * chunk + LOCAL_ID(); i < n; i += (u64)NUM_GROUPS() * chunk)");
        w.open(format!("if (i + {} < n)", (unroll - 1) * threads));
        w.line("/* the whole chunk is in range: straight-line loads, then stores */");
        for j in 0..unroll {
            let idx = if j == 0 { "i".to_owned() } else { format!("(i + {})", j * threads) };
            w.line(format!("const {word} v{j} = LOAD_ONCE(&src[{}]);", self.src_index(&idx)));
        }
        for j in 0..unroll {
            let idx = if j == 0 { "i".to_owned() } else { format!("i + {}", j * threads) };
            w.line(format!("STORE_ONCE(&dst[dst_off + {idx}], v{j});"));
        }
        w.close();
        w.open("else");
        w.line("/* the last, partial chunk */");
        w.open(format!("for (u32 j = 0; j < {unroll}; ++j)"));
        w.line(format!("const u64 k = i + (u64)j * {threads};"));
        w.line(format!("if (k < n) dst[dst_off + k] = src[{}];", self.src_index("k")));
        w.close();
        w.close();
        w.close();
        w.close();

        KernelSource { name: name.clone(), entry_points: vec![name], body: w.finish() }
    }

    /// What the kernel computes, for its header comment.
    fn describe(&self) -> String {
        let w = self.word_bytes;
        match self.words_per_unit {
            None => format!("dst[dst_off + i] = src[src_off + i] for i < n, in {w}-byte words."),
            Some(1) => format!("dst[dst_off + i] = src[src_off + i * stride] for i < n: a gather of {w}-byte elements."),
            Some(k) => format!(
                "gather of units of {k} words of {w} bytes: word i of dst (unit i / {k}, word i % {k}) comes from src[src_off + (i / {k}) * stride + i % {k}]."
            ),
        }
    }

    /// The source index of destination word `i` (an expression in the kernel's variables).
    fn src_index(&self, i: &str) -> String {
        match self.words_per_unit {
            None => format!("src_off + {i}"),
            Some(1) => format!("src_off + {i} * stride"),
            Some(k) => format!("src_off + ({i} / {k}) * stride + {i} % {k}"),
        }
    }
}
