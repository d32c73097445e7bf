//! Kernel source for a permute: the tiled kernel (reads in the input's order, writes in the
//! output's, through padded shared memory) and the naive one-thread-per-element gather that
//! benchmarks show beside it. Shapes and strides are compiled in as constants, so every
//! division by an extent is a multiply and a shift.

use super::layout::StridedLayout;
use super::tile::{TileShape, TILE_THREADS};
use crate::kernel::prelude::word_type;
use crate::kernel::{KernelSource, SourceWriter};

/// What the two permute kernels share: the gather, the element size and whether complex
/// elements are conjugated on the way.
pub struct PermuteKernel<'a> {
    pub layout: &'a StridedLayout,
    pub elem_size: usize,
    pub conjugate: bool,
}

impl PermuteKernel<'_> {
    /// The tiled kernel: one tile per block.
    pub fn tiled(&self, tile: &TileShape) -> KernelSource {
        let l = self.layout;
        let e = self.elem_size;
        let exts: Vec<String> = tile.ext.iter().map(|x| x.to_string()).collect();
        let name = format!("permute_tiled_e{e}_{}_t{}{}", self.shape_tag(), exts.join("x"), self.conj_tag());
        let mut w = self.prologue(&name);
        let shared = tile.shared_elements(l, e);
        let volume = tile.volume();
        let steps = volume.div_ceil(TILE_THREADS as u64);
        let pad = tile.padding(l, e);
        w.comment(&[
            &format!("{name}: {}", self.describe()),
            &format!("Block b moves one tile of {} elements (output axes fastest first); {} tiles in all.", exts.join(" x "), tile.tiles(l)),
            "It reads the tile in the input's order, so that neighbouring threads read neighbouring",
            "input elements, stores it to shared memory in the output's order, and writes it out in",
            "the output's order: both global accesses are coalesced.",
            &match pad {
                Some((every, p)) => format!("Shared memory has {p} element(s) of padding after every {every}, against bank conflicts."),
                None => "The input's fastest tile axis is the output's too: no bank conflicts, no padding.".into(),
            },
        ]);
        w.open(format!("KERNEL_BLOCK({TILE_THREADS}) void {name}(GLOBAL word* RESTRICT dst, const GLOBAL word* RESTRICT src)"));
        w.line(format!("LOCAL word tile[{shared}];"));
        let sh = |s: &str| match pad {
            Some((every, p)) => format!("{s} + {s} / {every} * {p}"),
            None => s.to_owned(),
        };

        // The tile's corner: its chunk of every axis, block index split fastest output axis first.
        let chunks = tile.chunks(l);
        w.line("/* this block's tile: chunk c<k> of output axis k */");
        w.line("idx_t b = (idx_t)GROUP_ID();");
        let live: Vec<usize> = (0..chunks.len()).filter(|&k| chunks[k] > 1).collect();
        for (i, &k) in live.iter().enumerate() {
            if i + 1 == live.len() {
                w.line(format!("const idx_t c{k} = b;"));
            } else {
                w.line(format!("const idx_t c{k} = b % {}; b /= {};", chunks[k], chunks[k]));
            }
        }
        let base = |stride: &dyn Fn(usize) -> u64| {
            let terms: Vec<String> = live.iter().map(|&k| format!("c{k} * {}", tile.ext[k] * stride(k))).collect();
            if terms.is_empty() { "0".to_owned() } else { terms.join(" + ") }
        };
        let src_base = match (l.src_offset, base(&|k| l.axes[k].src_stride)) {
            (0, terms) => terms,
            (offset, terms) => format!("{offset} + {terms}"),
        };
        w.line(format!("const idx_t src_base = {src_base};"));
        w.line(format!("const idx_t dst_base = {};", base(&|k| l.axes[k].dst_stride)));
        // Extents of the tile along axes whose last chunk is partial.
        let partial: Vec<usize> = tile.output_axes().into_iter().filter(|&k| l.axes[k].extent % tile.ext[k] != 0).collect();
        if !partial.is_empty() {
            w.line("/* the last chunk of these axes is partial: elements of the tile that exist */");
        }
        for &k in &partial {
            let last = chunks[k] - 1;
            w.line(format!("const u32 n{k} = c{k} == {last} ? {} : {};", l.axes[k].extent - last * tile.ext[k], tile.ext[k]));
        }
        let in_range = |w: &mut SourceWriter, ok: &str| {
            let conds: Vec<String> = partial.iter().map(|&k| format!("k{k} < n{k}")).collect();
            w.line(format!("{ok} = {};", if conds.is_empty() { "true".to_owned() } else { conds.join(" && ") }));
        };

        w.line("");
        w.line("/* read: tile position q counts in the input's order */");
        let input_axes = tile.input_axes(l);
        for j in 0..steps {
            w.line(format!("word v{j}; u32 at{j}; bool ok{j};"));
            w.open_scope();
            w.line(format!("const u32 q = LOCAL_ID() + {};", j * TILE_THREADS as u64));
            self.coordinates(&mut w, tile, &input_axes);
            in_range(&mut w, &format!("ok{j}"));
            if (j + 1) * TILE_THREADS as u64 > volume {
                w.line(format!("ok{j} = ok{j} && q < {volume};"));
            }
            let place: Vec<String> = input_axes.iter().map(|&k| format!("k{k} * {}", tile.shared_stride(k))).collect();
            w.line(format!("at{j} = {};", join_or_zero(&place)));
            let src: Vec<String> = input_axes.iter().map(|&k| format!("k{k} * {}", l.axes[k].src_stride)).collect();
            w.line(format!("if (ok{j}) v{j} = {};", self.load(&format!("src[src_base + {}]", join_or_zero(&src)))));
            w.close();
        }
        for j in 0..steps {
            w.line(format!("if (ok{j}) tile[{}] = v{j};", sh(&format!("at{j}"))));
        }
        w.line("BARRIER();");
        w.line("");
        w.line("/* write: tile position q counts in the output's order */");
        let output_axes = tile.output_axes();
        for j in 0..steps {
            w.open_scope();
            w.line(format!("const u32 q = LOCAL_ID() + {};", j * TILE_THREADS as u64));
            self.coordinates(&mut w, tile, &output_axes);
            in_range(&mut w, "const bool ok");
            let guard = if (j + 1) * TILE_THREADS as u64 > volume { format!("ok && q < {volume}") } else { "ok".into() };
            let dst: Vec<String> = output_axes.iter().map(|&k| format!("k{k} * {}", l.axes[k].dst_stride)).collect();
            w.line(format!("if ({guard}) dst[dst_base + {}] = tile[{}];", join_or_zero(&dst), sh("q")));
            w.close();
        }
        w.close();
        KernelSource { name: name.clone(), entry_points: vec![name], body: w.finish() }
    }

    /// The naive kernel: thread i writes output element i, reading wherever it lies.
    pub fn naive(&self) -> KernelSource {
        let l = self.layout;
        let name = format!("permute_naive_e{}_{}{}", self.elem_size, self.shape_tag(), self.conj_tag());
        let mut w = self.prologue(&name);
        w.comment(&[
            &format!("{name}: {}", self.describe()),
            "One thread per output element: writes are coalesced, reads follow the input's strides.",
        ]);
        w.open(format!("KERNEL_BLOCK({TILE_THREADS}) void {name}(GLOBAL word* RESTRICT dst, const GLOBAL word* RESTRICT src)"));
        w.line(format!("const idx_t i = (idx_t)GROUP_ID() * {TILE_THREADS} + LOCAL_ID();"));
        w.line(format!("if (i >= {}) return;", l.count()));
        w.line("idx_t r = i;");
        w.line(format!("idx_t at = {};", l.src_offset));
        for (k, a) in l.axes.iter().enumerate() {
            if k + 1 == l.axes.len() {
                w.line(format!("at += r * {};", a.src_stride));
            } else {
                w.line(format!("at += r % {} * {}; r /= {};", a.extent, a.src_stride, a.extent));
            }
        }
        w.line(format!("dst[i] = {};", self.load("src[at]")));
        w.close();
        KernelSource { name: name.clone(), entry_points: vec![name], body: w.finish() }
    }

    /// Type names and the conjugation helper every permute kernel starts with.
    fn prologue(&self, name: &str) -> SourceWriter {
        let mut w = SourceWriter::new();
        let word = word_type(self.elem_size).expect("permute problems hold elements of 1, 2, 4, 8 or 16 bytes");
        w.line(format!("/* {name}: elements of {} bytes moved as {word} */", self.elem_size));
        w.line(format!("typedef {word} word;"));
        let wide = self.layout.src_span() > u32::MAX as u64 || self.layout.count() > u32::MAX as u64;
        w.line(format!("typedef {} idx_t; /* {} */", if wide { "u64" } else { "u32" }, if wide { "offsets beyond 2^32" } else { "every offset fits 32 bits" }));
        if self.conjugate {
            w.line("/* complex conjugate: flip the sign bit of the imaginary part (the element's upper half) */");
            match self.elem_size {
                8 => w.line("DEVICE_FN word conj_word(word v) { return v ^ ((u64)1 << 63); }"),
                _ => w.line("DEVICE_FN word conj_word(word v) { v.w ^= 0x80000000u; return v; }"),
            };
        }
        w.line("");
        w
    }

    fn load(&self, at: &str) -> String {
        if self.conjugate { format!("conj_word({at})") } else { at.to_owned() }
    }

    /// Tile coordinates `k<axis>` of position `q`, which counts through `axes` fastest first.
    fn coordinates(&self, w: &mut SourceWriter, tile: &TileShape, axes: &[usize]) {
        let mut below = 1u64;
        for (i, &k) in axes.iter().enumerate() {
            let shifted = if below == 1 { "q".to_owned() } else { format!("q / {below}") };
            if i + 1 == axes.len() {
                w.line(format!("const u32 k{k} = {shifted};"));
            } else {
                w.line(format!("const u32 k{k} = {shifted} % {};", tile.ext[k]));
            }
            below *= tile.ext[k];
        }
    }

    /// `512x256x128_s65536x1x256`: output extents and input strides, fastest first.
    fn shape_tag(&self) -> String {
        let ext: Vec<String> = self.layout.axes.iter().map(|a| a.extent.to_string()).collect();
        let str: Vec<String> = self.layout.axes.iter().map(|a| a.src_stride.to_string()).collect();
        let off = if self.layout.src_offset > 0 { format!("_o{}", self.layout.src_offset) } else { String::new() };
        format!("{}_s{}{off}", ext.join("x"), str.join("x"))
    }

    fn conj_tag(&self) -> &'static str {
        if self.conjugate { "_conj" } else { "" }
    }

    fn describe(&self) -> String {
        let axes: Vec<String> = self
            .layout
            .axes
            .iter()
            .map(|a| format!("{} (input stride {})", a.extent, a.src_stride))
            .collect();
        format!(
            "dense output of {} elements, axes fastest first: {}; input offset {}{}.",
            self.layout.count(),
            axes.join(", "),
            self.layout.src_offset,
            if self.conjugate { "; complex conjugated" } else { "" }
        )
    }
}

fn join_or_zero(terms: &[String]) -> String {
    if terms.is_empty() { "0".to_owned() } else { terms.join(" + ") }
}
