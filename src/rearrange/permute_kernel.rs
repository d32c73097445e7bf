//! Kernel source for a permute: the tiled kernel (reads in the input's order, writes in the
//! output's, through padded shared memory) and the naive one-thread-per-element gather that
//! benchmarks show beside it. Shapes and strides are compiled in as constants, so every
//! division by an extent is a multiply and a shift.

use super::layout::StridedLayout;
use super::tile::{input_order, TileShape, NAIVE_THREADS};
use super::tile_walk::{TileWalk, WalkAxis};
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
        let name = format!("permute_tiled_e{e}_{}_t{}_b{}{}", self.shape_tag(), exts.join("x"), tile.threads, self.conj_tag());
        let mut w = self.prologue(&name);
        let pad = tile.padding(l, e);
        let read = TileWalk::new(&tile.ext, &input_order(l), tile.threads);
        let write = TileWalk::new(&tile.ext, &(0..tile.ext.len()).collect::<Vec<_>>(), tile.threads);
        w.comment(&[
            &format!("{name}: {}", self.describe()),
            &format!(
                "Block b of {} threads moves one tile of {} elements (output axes fastest first); {} tiles in all.",
                tile.threads,
                exts.join(" x "),
                tile.tiles(l)
            ),
            "It reads the tile in the input's order, so that neighbouring threads read neighbouring",
            "input elements, stores it to shared memory in the output's order, and writes it out in",
            "the output's order: both global accesses are coalesced. In each direction the threads",
            "span a box of the tile and step it through the rest; a step's offsets are constants.",
            &match pad {
                Some((every, p)) => format!("Shared memory has {p} element(s) of padding after every {every}, against bank conflicts."),
                None => "The input's fastest tile axis is the output's too: no bank conflicts, no padding.".into(),
            },
        ]);
        w.open(format!("KERNEL_BLOCK({}) void {name}(GLOBAL word* RESTRICT dst, const GLOBAL word* RESTRICT src)", tile.threads));
        w.line(format!("LOCAL word tile[{}];", tile.shared_elements(l, e)));

        // The tile's corner: its chunk of every axis, from the block index.
        let chunks = tile.chunks(l);
        w.line("/* this block's tile: chunk c<k> of output axis k (the axes where runs are cut first) */");
        w.line("idx_t b = (idx_t)GROUP_ID();");
        let live = &tile.block_order;
        for (i, &k) in live.iter().enumerate() {
            if i + 1 == live.len() {
                w.line(format!("const idx_t c{k} = b;"));
            } else {
                w.line(format!("const idx_t c{k} = b % {}; b /= {};", chunks[k], chunks[k]));
            }
        }
        let base = |stride: &dyn Fn(usize) -> u64| {
            let terms: Vec<String> = live.iter().map(|&k| format!("c{k} * {}", tile.ext[k] * stride(k))).collect();
            join_or_zero(&terms)
        };
        let src_base = match (l.src_offset, base(&|k| l.axes[k].src_stride)) {
            (0, terms) => terms,
            (offset, terms) => format!("{offset} + {terms}"),
        };
        w.line(format!("const idx_t src_base = {src_base};"));
        w.line(format!("const idx_t dst_base = {};", base(&|k| l.axes[k].dst_stride)));
        // Extents of the tile along axes whose last chunk is partial.
        let partial: Vec<bool> = (0..chunks.len()).map(|k| tile.ext[k] > 1 && !l.axes[k].extent.is_multiple_of(tile.ext[k])).collect();
        if partial.contains(&true) {
            w.line("/* the last chunk of these axes is partial: elements of the tile that exist */");
        }
        for k in (0..chunks.len()).filter(|&k| partial[k]) {
            let last = chunks[k] - 1;
            w.line(format!("const u32 n{k} = c{k} == {last} ? {} : {};", l.axes[k].extent - last * tile.ext[k], tile.ext[k]));
        }
        let shared_stride = |k: usize| tile.padded_stride(l, e, k);

        w.line("");
        let steps = read.steps();
        w.comment(&[&format!("read: {}", walk_summary(&read))]);
        w.open_scope();
        let at = Self::thread_start(&mut w, &read, &partial, "const GLOBAL word* s = src + src_base", &|k| l.axes[k].src_stride, &shared_stride);
        w.line(format!("const u32 at = {at};"));
        for j in 0..steps {
            let start = read.step_start(j);
            let ok = step_guard(&read, &start, &partial);
            let src = offset(&read, &start, &|k| l.axes[k].src_stride);
            w.line(format!("word v{j}; const bool ok{j} = {ok}; if (ok{j}) v{j} = {};", self.load(&format!("s[{src}]"))));
        }
        for j in 0..steps {
            let start = read.step_start(j);
            w.line(format!("if (ok{j}) tile[at + {}] = v{j};", offset(&read, &start, &shared_stride)));
        }
        w.close();
        w.line("BARRIER();");
        w.line("");
        w.comment(&[&format!("write: {}", walk_summary(&write))]);
        w.open_scope();
        let at = Self::thread_start(&mut w, &write, &partial, "GLOBAL word* d = dst + dst_base", &|k| l.axes[k].dst_stride, &shared_stride);
        w.line(format!("const u32 at = {at};"));
        for j in 0..write.steps() {
            let start = write.step_start(j);
            let ok = step_guard(&write, &start, &partial);
            let dst = offset(&write, &start, &|k| l.axes[k].dst_stride);
            let sh = offset(&write, &start, &shared_stride);
            w.line(format!("if ({ok}) d[{dst}] = tile[at + {sh}];"));
        }
        w.close();
        w.close();
        KernelSource { name: name.clone(), entry_points: vec![name], body: w.finish() }
    }

    /// A thread's coordinates `k<axis>` in the box of `walk`, whether it holds elements
    /// (`live`), and its global pointer, declared by `pointer` (`GLOBAL word* d = dst + ...`)
    /// plus `global_stride` per coordinate; returns its shared-memory position.
    fn thread_start(
        w: &mut SourceWriter,
        walk: &TileWalk,
        partial: &[bool],
        pointer: &str,
        global_stride: &dyn Fn(usize) -> u64,
        shared_stride: &dyn Fn(usize) -> u64,
    ) -> String {
        w.line("const u32 t = LOCAL_ID();");
        let spanned: Vec<&WalkAxis> = walk.axes.iter().filter(|a| a.span > 1).collect();
        let mut below = 1u64;
        for (i, a) in spanned.iter().enumerate() {
            let shifted = if below == 1 { "t".to_owned() } else { format!("t / {below}") };
            // The slowest spanned coordinate needs no modulo: threads past the box are not live.
            let k = if i + 1 == spanned.len() { shifted } else { format!("{shifted} % {}", a.span) };
            w.line(format!("const u32 k{} = {k};", a.axis));
            below *= a.span;
        }
        // Live: inside the box, and inside the tile along partial axes the box spans whole.
        let mut live = Vec::new();
        if walk.active_threads() < walk.threads as u64 {
            live.push(format!("t < {}", walk.active_threads()));
        }
        for a in &spanned {
            if partial[a.axis] && a.chunks() == 1 {
                live.push(format!("k{} < n{}", a.axis, a.axis));
            }
        }
        w.line(format!("const bool live = {};", if live.is_empty() { "true".to_owned() } else { live.join(" && ") }));
        let terms = |stride: &dyn Fn(usize) -> u64| -> String {
            let t: Vec<String> = spanned.iter().map(|a| format!("k{} * {}", a.axis, stride(a.axis))).collect();
            join_or_zero(&t)
        };
        w.line(format!("{pointer} + {};", terms(global_stride)));
        terms(shared_stride)
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
        w.open(format!("KERNEL_BLOCK({NAIVE_THREADS}) void {name}(GLOBAL word* RESTRICT dst, const GLOBAL word* RESTRICT src)"));
        w.line(format!("const idx_t i = (idx_t)GROUP_ID() * {NAIVE_THREADS} + LOCAL_ID();"));
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

/// `threads span 8 (axis 0) x 6 of 23 (axis 1); 16 steps of the box`: how a walk covers the tile.
fn walk_summary(walk: &TileWalk) -> String {
    let spans: Vec<String> = walk
        .axes
        .iter()
        .filter(|a| a.span > 1)
        .map(|a| if a.span == a.extent { format!("{} (axis {})", a.span, a.axis) } else { format!("{} of {} (axis {})", a.span, a.extent, a.axis) })
        .collect();
    format!("threads span {}; {} steps of the box", if spans.is_empty() { "one element".to_owned() } else { spans.join(" x ") }, walk.steps())
}

/// Offset of a step's box from the thread's position, with `stride` per tile axis.
fn offset(walk: &TileWalk, start: &[u64], stride: &dyn Fn(usize) -> u64) -> u64 {
    walk.axes.iter().zip(start).map(|(a, &c)| c * stride(a.axis)).sum()
}

/// Whether the thread's element of a step exists: `live`, and along every axis the step
/// moves the box, inside the tile (a constant bound) and inside the array (`n<k>` on
/// partial axes).
fn step_guard(walk: &TileWalk, start: &[u64], partial: &[bool]) -> String {
    let mut conds = vec!["live".to_owned()];
    for (a, &c) in walk.axes.iter().zip(start) {
        if a.chunks() == 1 {
            continue; // spanned whole: checked once, in `live`
        }
        let k = if a.span > 1 { format!("k{} + {c}", a.axis) } else { c.to_string() };
        if partial[a.axis] && a.span == 1 && c == 0 {
            continue; // every tile has element 0 of every axis
        } else if partial[a.axis] {
            conds.push(format!("{k} < n{}", a.axis));
        } else if c + a.span > a.extent {
            conds.push(format!("{k} < {}", a.extent));
        }
    }
    conds.join(" && ")
}
