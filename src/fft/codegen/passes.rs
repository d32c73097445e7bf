//! The kernel's core: Stockham passes in shared memory; Bluestein's algorithm as two of them
//! with its elementwise steps folded into the passes' first reads and last writes; Rader's as
//! two over the sub-rows of its convolutions, permuting on the first read and the last write.
//! A convolution's forward transform hands its last pass's values to the inverse's first pass
//! in registers, the filter's product between them: one pass, not two.

use super::strided::StepTwiddleGroups;
use super::KernelWriter;
use crate::fft::problem::{FftKind, Precision};
use crate::fft::recipe::TwiddleSource;
use crate::fft::transform_core::{Core, Stage};

/// Where a transform's first pass reads its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    /// The row in shared memory.
    Shared,
    /// Global memory through `read_input` (direct_io).
    Global,
    /// A strided pass's side of columns (direct_io): value i of the thread's own row through
    /// `read_value(in_row, tables, g0, i, sign)` (codegen/strided.rs).
    OwnRow,
    /// C2R of even length, direct_io: the half spectrum from global memory, X[i] and X[m-i]
    /// read once for a mirror pair of butterflies (codegen/mirror.rs).
    HalfSpectrum,
    /// The cluster's shared memory through `SH_PEER(row, i)` (codegen/cluster.rs): the pass
    /// reads every value before a cluster barrier, so that no block writes its own shared
    /// memory while another still reads it.
    Peer,
    /// Rader: value k of the convolution of DFT u is x[u + m g^k] of the row (m g^k from the
    /// table at `indices`), in shared memory, or in global memory through `read_input` where
    /// `global` (`FftRecipe::gathers_from_global`); the first pass also parks x[u]
    /// for the last steps (see `KernelWriter::x0_park`; `len`: the row's).
    RaderGather { indices: usize, len: usize, global: bool },
}

/// Where a transform's last pass writes its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sink {
    Shared,
    /// Global memory through `write_output` (direct_io).
    Global,
    /// A strided pass's side of columns (direct_io): value i of the thread's own row through
    /// `write_value(out_row, tables, step, k0, i, v, sign, scale)` (codegen/strided.rs).
    OwnRow,
    /// R2C of even length, direct_io: X[i] and X[m-i] of the half spectrum written from a
    /// mirror pair of butterflies (codegen/mirror.rs).
    HalfSpectrum,
}

impl Sink {
    /// Whether the pass writes global memory (no barrier after it).
    fn is_global(self) -> bool {
        matches!(self, Sink::Global | Sink::HalfSpectrum | Sink::OwnRow)
    }
}

impl Source {
    /// Whether the pass reads global memory (no barrier between its reads and its writes).
    fn is_global(self) -> bool {
        matches!(self, Source::Global | Source::OwnRow | Source::RaderGather { global: true, .. })
    }
}

/// An elementwise step applied to each value as the last pass writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Finish {
    None,
    /// Bluestein, after the first transform: times the filter's spectrum, conjugated so that
    /// the next forward transform computes the inverse one.
    FilterConj { filter: usize },
    /// Bluestein, after the second: conjugate back, times the chirp; only the first `len`
    /// values of each line are the result. With several `lines` (DFTs), value k of line u
    /// goes to slot len u + k of the row, where a Stockham pass of radix len would write it.
    Chirp { len: usize, chirp: usize, lines: usize },
    /// Bluestein over passes, between a strided pass's two transforms (`filtered_pair`): as
    /// FilterConj, from the pass's filter table at g = f0 + k * `row` (f0: the row's part).
    PassFilter { filter: usize, row: usize },
    /// Rader, after the first transform: as FilterConj, and X[0] = x[0] + (sum of the rest),
    /// which is value 0 of the transform, kept in the row's spare slot `len + u`.
    RaderFilter { filter: usize, len: usize },
    /// Rader, after the second: value k is X[g^-k] - x[0], conjugated back; it goes to slot
    /// g^-k of its DFT's p values (from the table at `indices`), and X[0] to slot 0.
    RaderScatter { indices: usize, len: usize },
    /// A strided pass's four-step twiddle, grouped (codegen/strided.rs).
    StepTwiddle(StepTwiddleGroups),
    /// A strided grid's four-step twiddle in its last pass, value i of a butterfly in the
    /// grid's row i: times grid_tw{i} (`grid_row_twiddles_len`, codegen/strided.rs).
    GridRowTwiddle,
}

/// One Stockham pass, as `stockham` hands it to the writers of its reads and writes: only
/// the stage's first pass reads `source` and only its last writes `sink` after `finish`.
pub(super) struct Pass<'s> {
    pub(super) stage: &'s Stage,
    pub(super) radix: usize,
    /// Points combined by the passes before.
    pub(super) ns: usize,
    pub(super) source: Source,
    pub(super) sink: Sink,
    finish: Finish,
    /// Input values from here on are known zeros; output values from `live` on are not wanted.
    zero_from: usize,
    live: usize,
    /// The shared buffers it reads and writes (the same one without ping-pong).
    src: usize,
    dst: usize,
    /// A convolution's inverse transform, whose first pass continues this one (its forward
    /// transform's last) on the same values: `finish` is then applied in registers, and the
    /// writes are that pass's.
    then: Option<&'s Stage>,
}

impl Pass<'_> {
    /// Rader's first pass: reads its convolution permuted and parks x[0].
    fn gathers(&self) -> bool {
        matches!(self.source, Source::RaderGather { .. })
    }

    /// Rader's last pass: writes its DFT's values permuted, X[0] to slot 0.
    fn scatters(&self) -> bool {
        matches!(self.finish, Finish::RaderScatter { .. })
    }

    /// The first pass of `next` (see `then`), on this pass's values and buffers: no twiddles
    /// (nothing combined yet), plain writes to shared memory.
    fn continued<'n>(&self, next: &'n Stage) -> Pass<'n> {
        let (src, dst) = (self.src, self.dst);
        Pass { stage: next, radix: self.radix, ns: 1, source: Source::Shared, sink: Sink::Shared, finish: Finish::None, zero_from: next.len, live: next.len, src, dst, then: None }
    }
}

impl KernelWriter<'_> {
    pub(super) fn core(&mut self, source: Source, sink: Sink) {
        let stages = self.r.stages();
        match self.r.core.clone() {
            Core::Stockham { .. } => match self.r.io.as_ref().and_then(|io| io.between.as_ref()) {
                Some(filter) => self.filtered_pair(&stages[0], filter.at.row, source, sink),
                None => {
                    let finish = StepTwiddleGroups::of(self.r).map_or(Finish::None, Finish::StepTwiddle);
                    self.stockham(&stages[0], source, sink, finish)
                }
            },
            Core::Bluestein { len, factor, conv_len, .. } => {
                let (chirp, filter) = (self.tables.chirp, self.tables.filter);
                let lines = len / factor;
                if lines > 1 {
                    self.w.comment(&[
                        &format!("Bluestein on the factor {factor}: the first pass is {lines} DFTs of {factor} points, DFT u over x[u + {lines} n],"),
                        &format!("each by Bluestein's algorithm over its line of {conv_len} values (value n at u + {lines} n: the lines interleave)."),
                    ]);
                }
                self.w.comment(&[
                    &format!("Bluestein: X[k] = c[k] * sum_j (x[j] c[j]) conj(c[k-j]), c[j] = e^{{-pi i j^2/{factor}}}: a cyclic"),
                    &format!("convolution of length {conv_len}, by a forward transform, the filter's spectrum, and an inverse one."),
                    "The input's chirp is applied as it is read (read_input); the filter and the output's chirp as the",
                    "transforms' last passes write.",
                ]);
                let finish = Finish::Chirp { len: factor, chirp, lines };
                if lines == 1 {
                    self.convolution(&stages[0], &stages[1], source, Finish::FilterConj { filter }, sink, finish);
                } else {
                    self.convolution(&stages[0], &stages[1], source, Finish::FilterConj { filter }, Sink::Shared, finish);
                    self.stockham(&stages[2], Source::Shared, sink, Finish::None);
                }
            }
            Core::Rader { len, prime, .. } => {
                let (gather, scatter, filter) = (self.tables.rader_gather, self.tables.rader_scatter, self.tables.rader_filter);
                let m = len / prime;
                self.w.comment(&[
                    &format!("Rader: the first pass is {m} DFT(s) of {prime} points, DFT u over x[u + {m} n], n < {prime}. With g a"),
                    &format!("primitive root mod {prime}, X[g^-k] = x[0] + sum_q x[g^q] W^(g^(q-k)): a cyclic convolution of length {},", prime - 1),
                    "run as a forward transform, the filter's spectrum, and an inverse one, in place: DFT u's values",
                    &format!("live at {prime} u .. {prime} u + {}, x[0] first, and end there in natural order (what a Stockham pass", prime - 1),
                    "of this radix writes). X[0] = x[0] + sum of the rest waits in the spare slot after the row.",
                ]);
                let (filter, scatter) = (Finish::RaderFilter { filter, len }, Finish::RaderScatter { indices: scatter, len });
                // The gather reads global memory where the kernel loaded nothing before it
                // (`FftRecipe::gathers_from_global`), else the loaded row; the passes after the
                // DFTs read the row in shared memory either way.
                assert!(matches!(source, Source::Shared | Source::Global), "Rader's rows are loaded or gathered from global memory");
                let global = source == Source::Global;
                self.convolution(&stages[0], &stages[1], Source::RaderGather { indices: gather, len, global }, filter, Sink::Shared, scatter);
                self.stockham(&stages[2], Source::Shared, sink, Finish::None);
            }
            Core::Grid { shape, halved, .. } => {
                let dims: Vec<String> = shape.iter().map(|n| n.to_string()).collect();
                match halved {
                    None => self.w.comment(&[
                        &format!("a {} grid, row-major in the row: each axis transformed over all its lines in turn, the first", dims.join(" x ")),
                        "first; along an earlier axis consecutive threads take neighbouring lines (consecutive values)",
                    ]),
                    Some(kind) => self.w.comment(&[
                        &format!("a real {kind} grid, a {} core row-major in the row, the last axis the halved one's packed", dims.join(" x ")),
                        &format!("pairs, its lines {} apart (the half spectrum's layout); each axis transformed over all its lines", shape[shape.len() - 1] + 1),
                        "in turn; along an earlier axis consecutive threads take neighbouring lines (consecutive values)",
                    ]),
                };
                let (first, last) = (0, stages.len() - 1);
                for (k, (stage, axis)) in stages.iter().zip(self.r.core.grid_axis_order()).enumerate() {
                    if halved == Some(FftKind::C2R) && k == last {
                        self.rebuild_grid_lines();
                    }
                    self.w.comment(&[&format!("axis {axis}: {} lines of {} points, {} apart", stage.subrows, stage.len, stage.step)]);
                    let from = if k == first { source } else { Source::Shared };
                    let finish = match self.grid_row_twiddles_len() {
                        Some(len) if k == last => {
                            self.grid_row_twiddles(stage.len, len);
                            Finish::GridRowTwiddle
                        }
                        _ => Finish::None,
                    };
                    self.stockham(stage, from, if k == last { sink } else { Sink::Shared }, finish);
                    if halved == Some(FftKind::R2C) && k == first {
                        self.separate_grid_lines();
                    }
                }
            }
        }
    }

    /// A convolution's two transforms (`Core::stages`): the forward one from `source`, its
    /// last pass's values times the filter (`filter`), the inverse's passes, the last writing
    /// `sink` after `finish`. Fused (`FftRecipe::fuses_convolution`), the forward's last pass
    /// goes on into the inverse's first in registers.
    fn convolution(&mut self, forward: &Stage, inverse: &Stage, source: Source, filter: Finish, sink: Sink, finish: Finish) {
        let fused = self.r.fuses_convolution();
        if self.r.tuning.ping_pong {
            // x[0] waits in the buffer the filter's pass (the forward's last) does not write:
            // X[0] waits in that one's spare slot (see `x0_park`).
            self.buffers.x0 = (self.buffers.row + forward.radices.len() + 1) % 2;
        }
        if fused {
            assert!(forward.radices.last() == inverse.radices.first() && inverse.radices.len() >= 2, "a convolution's inverse starts with its forward's last radix");
            self.passes(forward, 0, source, Sink::Shared, filter, Some(inverse));
            self.passes(inverse, 1, Source::Shared, sink, finish, None);
        } else {
            self.passes(forward, 0, source, Sink::Shared, filter, None);
            self.passes(inverse, 0, Source::Shared, sink, finish, None);
        }
    }

    /// A strided pass of Bluestein over passes that ends the first transform and begins the
    /// second (`StridedIo::between`): the row's transform, its values times the pass's filter
    /// (value k is the convolution's g = f0 + k * `row`), and the row's transform again, the
    /// second's radices reversed so that its first pass goes on from the first's last in
    /// registers (as a convolution's, see `convolution`).
    fn filtered_pair(&mut self, stage: &Stage, row: usize, source: Source, sink: Sink) {
        let filter = Finish::PassFilter { filter: self.tables.pass_filter, row };
        let again = stage.reversed();
        self.w.comment(&[
            &format!("Bluestein over passes: the first transform's last pass ({} points a row), the filter's product, and", stage.len),
            "the second transform's first pass over the same values (its four-step twiddle on the writes)",
        ]);
        if stage.radices.len() >= 2 {
            self.passes(stage, 0, source, Sink::Shared, filter, Some(&again));
            self.passes(&again, 1, Source::Shared, sink, Finish::None, None);
        } else {
            self.passes(stage, 0, source, Sink::Shared, filter, None);
            self.passes(&again, 0, Source::Shared, sink, Finish::None, None);
        }
    }

    /// Stockham autosort passes over the stage's (sub-)rows, natural order in and out. Pass
    /// with radix R after `ns` points are combined: butterfly j reads value j + i*len/R,
    /// twiddles by W_{ns R}^{i (j mod ns)}, and writes value (j - j mod ns) R + j mod ns + i ns.
    /// The first pass reads from `source`, the last writes to `sink` after `finish`; between
    /// passes the row lives in shared memory: in place, each thread reading all its
    /// butterflies' values before a barrier and writing them after it; or with ping-pong,
    /// from one buffer into the other, butterfly after butterfly.
    fn stockham(&mut self, stage: &Stage, source: Source, sink: Sink, finish: Finish) {
        self.passes(stage, 0, source, sink, finish, None);
    }

    /// The stage's passes from pass `start` on (the first reading `source`); with `then`, the
    /// last continues into that stage's first pass (see `Pass::then`).
    fn passes(&mut self, stage: &Stage, start: usize, source: Source, sink: Sink, finish: Finish, then: Option<&Stage>) {
        let w = self.r.tuning.threads_per_transform as usize;
        let ping_pong = self.r.tuning.ping_pong;
        let len = stage.len;
        // Input values from `zero_from` on are known zeros (Bluestein's padding, when read
        // from global memory); output values from `live` on are not wanted.
        let zero_from = match self.r.core {
            Core::Bluestein { factor, .. } if source == Source::Global => factor,
            _ => len,
        };
        let live = match finish {
            Finish::Chirp { len: n, .. } => n,
            _ => len,
        };
        let partial_trip_only = self.r.guards_partial_trip_only();
        let mut ns = stage.ns0 * stage.radices[..start].iter().product::<usize>();
        for (pass, &radix) in stage.radices.iter().enumerate().skip(start) {
            let (first, last) = (pass == start, pass + 1 == stage.radices.len());
            assert!(source != Source::Peer || !ping_pong, "reads from the cluster's shared memory are in place");
            let src = self.buffers.row;
            let dst = if ping_pong { 1 - src } else { src };
            let p = Pass {
                stage,
                radix,
                ns,
                source: if first { source } else { Source::Shared },
                sink: if last { sink } else { Sink::Shared },
                finish: if last { finish } else { Finish::None },
                zero_from,
                live: if last { live } else { len },
                src,
                dst,
                then: if last { then } else { None },
            };
            let butterflies = len / radix * stage.subrows;
            let per_thread = butterflies.div_ceil(w);
            // Trip q guards its butterflies where it runs past them, or where any trip does
            // and the rule guards every trip (trip_guards.rs): t < w, but the compiler does not
            // know it, so each guard is a branch.
            let guard = |q: usize| if partial_trip_only { (q + 1) * w > butterflies } else { per_thread * w != butterflies };
            let (gathers, scatters) = (p.gathers(), p.scatters());
            if matches!(p.finish, Finish::RaderFilter { .. }) {
                self.buffers.spare = dst;
            }
            let count = stage.radices.len();
            self.w.open(match p.then {
                Some(_) => format!("/* pass {count} of {count}: radix {radix}, {ns} points combined so far; the filter; the inverse's pass 1 */"),
                None => format!("/* pass {} of {count}: radix {radix}, {ns} points combined so far */", pass + 1),
            });
            let mirror = p.source == Source::HalfSpectrum || p.sink == Sink::HalfSpectrum;
            if !ping_pong && !mirror {
                self.w.line(format!("cplx v[{}];", per_thread * radix));
            }
            if gathers || scatters {
                self.w.line(format!("cplx x0[{per_thread}];   /* x[0] of each butterfly's DFT */"));
            }
            if mirror {
                self.mirror_pass(&p, w);
            } else if ping_pong {
                for q in 0..per_thread {
                    self.open_butterfly(q, w, guard(q), butterflies, stage);
                    self.w.line(format!("cplx v[{radix}];"));
                    self.pass_reads(&p, q, 0);
                    self.pass_writes(&p, q, 0);
                    self.close_butterfly(guard(q));
                }
            } else {
                for q in 0..per_thread {
                    self.open_butterfly(q, w, guard(q), butterflies, stage);
                    self.pass_reads(&p, q, q * radix);
                    self.close_butterfly(guard(q));
                }
                // The barrier orders this pass's shared reads before its shared writes.
                if p.source == Source::Peer {
                    self.w.line("CLUSTER_BARRIER();   /* every block has read its values: its shared memory is its own again */");
                } else if !p.source.is_global() && !p.sink.is_global() {
                    self.w.line("BARRIER();");
                }
                for q in 0..per_thread {
                    self.open_butterfly(q, w, guard(q), butterflies, stage);
                    self.pass_writes(&p, q, q * radix);
                    self.close_butterfly(guard(q));
                }
            }
            if !p.sink.is_global() {
                self.w.line("BARRIER();");
            }
            self.w.close();
            self.buffers.row = dst;
            ns *= radix;
        }
    }

    /// A butterfly's reads (butterfly t + q w of the pass) into v[base..base + radix].
    pub(super) fn pass_reads(&mut self, p: &Pass, q: usize, base: usize) {
        let (stage, radix) = (p.stage, p.radix);
        let per_row = stage.len / radix;
        match p.source {
            Source::Global | Source::OwnRow => {
                self.w.open("if (s < rows)");
                for i in 0..radix {
                    let at = base + i;
                    if i * per_row >= p.zero_from {
                        self.w.line(format!("v[{at}] = MAKE_CPLX(0, 0);"));
                    } else if p.source == Source::OwnRow {
                        let index = Self::value_index(stage, &format!("j + {}u", i * per_row));
                        self.w.line(format!("v[{at}] = read_value(in_row, tables, g0, {index}, sign);"));
                    } else {
                        let (j, c) = self.global_index(stage, "j", i * per_row);
                        self.w.line(format!("v[{at}] = read_input(in_rows, tables, s, {j}, {c}u, sign);"));
                    }
                }
                self.w.close();
            }
            Source::RaderGather { indices, global, .. } => {
                let u = if stage.subrows > 1 { "u + " } else { "" };
                let index = self.rader_indices("gj", indices, "j", radix, "m g^k of value k = j + i (p - 1) / R");
                // From global memory: consecutive threads take consecutive DFTs (lanes across
                // DFTs), so a warp reads runs of m consecutive values.
                let value = |at: &str| match global {
                    true => format!("read_input(in_rows, tables, s, {at}, 0u, sign)"),
                    false => Self::sh(p.src, "s", at),
                };
                if global {
                    self.w.open("if (s < rows)");
                }
                for (i, at) in index.iter().enumerate() {
                    self.w.line(format!("v[{}] = {};", base + i, value(&format!("{u}{at}"))));
                }
                let x0 = value(if stage.subrows > 1 { "u" } else { "0u" });
                self.w.line(format!("if (j == 0) x0[{q}] = {x0};"));
                if global {
                    self.w.close();
                }
            }
            Source::HalfSpectrum => unreachable!("the half spectrum's pairs are read by mirror_pass"),
            Source::Shared | Source::Peer => {
                let offsets = self.padded_offsets(p, |j| j);
                for i in 0..radix {
                    let value = match p.source {
                        Source::Peer => format!("SH_PEER(s, {})", Self::value_index(stage, &format!("j + {}u", i * per_row))),
                        _ => self.sh_plus(p, p.src, "j", offsets, i * per_row),
                    };
                    self.w.line(format!("v[{}] = {value};", base + i));
                }
            }
        }
        if p.scatters() {
            // Slot 0 gets X[0] in this pass's writes.
            let Finish::RaderScatter { len, .. } = p.finish else { unreachable!("only Rader's last pass scatters") };
            self.w.line(format!("x0[{q}] = {};", self.x0_park(stage, len)));
        }
    }

    /// Rader's permutation for butterfly `butterfly` of a pass of radix `radix`: its row of
    /// the 16-bit table at `table` (`tables::rader_index_tables`) read in 16-byte loads into
    /// `name`0, `name`1, ..., and the expressions of its values' indices, i < radix.
    fn rader_indices(&mut self, name: &str, table: usize, butterfly: &str, radix: usize, what: &str) -> Vec<String> {
        let Core::Rader { ref inner, .. } = self.r.core else { unreachable!("only Rader's core permutes") };
        assert_eq!(radix, inner[0], "Rader's index tables are laid out for the convolutions' first radix");
        let loads = crate::fft::tables::rader_index_stride(radix) / 8;
        let row = format!("(const GLOBAL u32x4*)(tables + {table}u) + {butterfly} * {loads}u");
        let words: Vec<String> = (0..loads).map(|k| format!("{name}{k} = ({row})[{k}]")).collect();
        self.w.line(format!("const u32x4 {};   /* {what}, 16 bits each */", words.join(", ")));
        (0..radix)
            .map(|i| {
                let word = format!("{name}{}.{}", i / 8, ["x", "y", "z", "w"][i % 8 / 2]);
                if i % 2 == 0 { format!("({word} & 0xffffu)") } else { format!("({word} >> 16)") }
            })
            .collect()
    }

    /// A butterfly's twiddles, codelet and writes (butterfly t + q w, values v[base..base + radix]).
    pub(super) fn pass_writes(&mut self, p: &Pass, q: usize, base: usize) {
        let (stage, radix, ns) = (p.stage, p.radix, p.ns);
        let slot = Self::x0_slot(stage);
        let writes_global = matches!(p.sink, Sink::Global | Sink::OwnRow);
        self.butterfly(p, base);
        self.w.line(format!("const u32 o = (j - k) * {radix}u + k;"));
        if writes_global {
            self.w.open("if (s < rows)");
        }
        if p.sink == Sink::OwnRow {
            self.own_output_row();
        }
        if let Source::RaderGather { len, .. } = p.source {
            self.w.line(format!("if (j == 0) {} = x0[{q}];   /* x[0] parked */", self.x0_park(stage, len)));
        }
        match p.finish {
            Finish::RaderFilter { len, .. } => {
                let (spare, x0) = (Self::sh(self.buffers.spare, "s", &format!("{len}u + u")), self.x0_park(stage, len));
                self.w.line(format!("if (o == 0) {spare} = cadd({x0}, v[{base}]);   /* X[0] = x[0] + value 0 */"));
            }
            Finish::RaderScatter { len, .. } => {
                let (at, spare) = (Self::sh(p.dst, "s", &slot), Self::sh(self.buffers.spare, "s", &format!("{len}u + u")));
                self.w.line(format!("if (o == 0) {at} = {spare};   /* X[0] */"));
            }
            Finish::StepTwiddle(groups) => self.step_twiddle_groups(groups),
            _ => {}
        }
        if let Some(next) = p.then {
            // The filter's product in registers; the inverse's first pass (no twiddles) on the
            // same values, in a block of its own for its own k and o.
            for i in 0..radix {
                let v = format!("v[{}]", base + i);
                self.w.line(format!("{v} = {};", Self::finished(p.finish, q, &v, i * ns)));
            }
            self.w.open("");
            self.pass_writes(&p.continued(next), q, base);
            self.w.close();
            return;
        }
        let scattered = match p.finish {
            Finish::RaderScatter { indices, .. } => self.rader_indices("go", indices, "o", radix, "g^-k of value k = o + i ns"),
            _ => Vec::new(),
        };
        // Only writes to shared memory ask `offsets` (sh_plus); a pass that writes global
        // memory skips the loop over its butterflies that finds them.
        let offsets = if writes_global { PaddedOffsets::Unpadded } else { self.padded_offsets(p, |j| (j - j % ns) * radix + j % ns) };
        for i in 0..radix {
            let v = format!("v[{}]", base + i);
            let at = format!("o + {}u", i * ns);
            // In the last pass o = j < ns, so value `at` lies in [i ns, (i+1) ns).
            if i * ns >= p.live {
                continue;
            }
            let partial = (i + 1) * ns > p.live;
            if partial {
                self.w.open(format!("if ({at} < {}u)", p.live));
            }
            // Global memory is addressed as a pointer at o plus a literal, as tables are.
            let value = Self::finished(p.finish, q, &v, i * ns);
            if p.sink == Sink::OwnRow {
                let pair_row = super::strided::pair_row_arg(self.r.io.as_ref().expect("own rows are strided"), "b");
                self.w.line(format!("write_value(out_row, tables, step, k0, {}, {value}, sign, scale{pair_row});", Self::value_index(stage, &at)));
            } else if writes_global {
                let (o, c) = self.global_index(stage, "o", i * ns);
                self.w.line(format!("write_output(out_rows, tables, s, {o}, {c}u, {value}, sign, scale);"));
            } else {
                let to = match p.finish {
                    Finish::RaderScatter { .. } => Self::sh(p.dst, "s", &format!("{slot} + {}", scattered.get(i).expect("an index a value"))),
                    Finish::Chirp { len, lines: 2.., .. } => Self::sh(p.dst, "s", &format!("at * {len}u + {at}")),
                    _ => self.sh_plus(p, p.dst, "o", offsets, i * ns),
                };
                let what = if matches!(p.finish, Finish::Chirp { lines: 2.., .. }) { format!("   /* value {at} of DFT `at` */") } else { String::new() };
                self.w.line(format!("{to} = {value};{what}"));
            }
            if partial {
                self.w.close();
            }
        }
        if writes_global {
            self.w.close();
        }
    }

    /// Butterfly j's twiddles (k = j mod ns) and codelet, on v[base..base + radix].
    pub(super) fn butterfly(&mut self, p: &Pass, base: usize) {
        let (stage, radix, ns) = (p.stage, p.radix, p.ns);
        if ns > 1 {
            // Where `open_butterfly` knows that every j this butterfly may be lies in one
            // period of ns, k = j minus a literal (see LITERAL_K_MIN_TRIPS).
            let period = self.butterfly_span.as_ref().map(|span| (span.start / ns, span.end.saturating_sub(1) / ns));
            self.w.line(match period {
                Some((0, 0)) => format!("const u32 k = j;   /* j < {ns} */"),
                Some((a, b)) if a == b => format!("const u32 k = j - {}u;   /* {} <= j < {} */", a * ns, a * ns, (a + 1) * ns),
                _ => format!("const u32 k = j % {ns}u;"),
            });
            if self.twiddle_free(stage) {
                self.w.line("/* no twiddles: coprime radices by prime factors */");
            } else {
                self.twiddle_butterfly(base, radix, ns, stage);
            }
        } else {
            self.w.line("const u32 k = 0;");
        }
        self.w.line(format!("dft_{radix}(&v[{base}]);"));
    }

    /// Whether the stage's passes take no twiddles: Rader's convolution by prime factors
    /// (prime_factor_convolution.rs), whose tables order the values so.
    fn twiddle_free(&self, stage: &Stage) -> bool {
        matches!(self.r.core, Core::Rader { prime, .. } if stage.len == prime - 1) && self.r.convolution_by_prime_factors()
    }

    /// Value `v` (value o + `c` of the pass's output, butterfly t + q w) after `finish`.
    fn finished(finish: Finish, q: usize, v: &str, c: usize) -> String {
        // Tables are addressed as a pointer at o plus a literal, which the compiler folds
        // into the instruction (see read_input).
        match finish {
            Finish::FilterConj { filter } | Finish::RaderFilter { filter, .. } => format!("cconj(cmul({v}, (tables + o)[{}u]))", filter + c),
            Finish::PassFilter { filter, row } => format!("cconj(cmul({v}, tables[{filter}u + f0 + (u64)(o + {c}u) * {row}u]))"),
            Finish::Chirp { chirp, .. } => format!("cmul(cconj({v}), (tables + o)[{}u])", chirp + c),
            Finish::RaderScatter { .. } => format!("cadd(x0[{q}], cconj({v}))"),
            Finish::StepTwiddle(groups) => groups.apply(v, c),
            // One pass of the grid's first axis: ns = 1, value c lies in row c.
            Finish::GridRowTwiddle if c == 0 => v.to_string(),
            Finish::GridRowTwiddle => format!("cmul({v}, grid_tw{c})"),
            Finish::None => v.to_string(),
        }
    }

    /// Rader: where x[0] of sub-row u's DFT waits for the filter's pass and the last, in a row
    /// of `len` values: in place, slot 0 of its DFT; with ping-pong, the spare slot after the
    /// row in `buffers.x0`, as the last pass writes slot 0 of its destination while other
    /// threads still read x[0] (the spare slot of the other buffer holds X[0]).
    fn x0_park(&self, stage: &Stage, len: usize) -> String {
        if self.r.tuning.ping_pong {
            Self::sh(self.buffers.x0, "s", &format!("{len}u + u"))
        } else {
            Self::sh(self.buffers.x0, "s", &Self::x0_slot(stage))
        }
    }

    /// Rader: the index of slot 0 of sub-row u's DFT, just before its convolution's values.
    fn x0_slot(stage: &Stage) -> String {
        if stage.subrows > 1 {
            format!("u * {}u", stage.stride)
        } else {
            format!("{}u", stage.first.saturating_sub(1))
        }
    }

    /// Value `var` + `c` of the butterfly's sub-row as an index `var'` + `c'` into the block's
    /// row for read_input and write_output, c' a literal (see read_input). A real grid's
    /// halved-axis lines lie m + 1 apart in shared memory, m apart as pairs of reals.
    fn global_index(&self, stage: &Stage, var: &str, c: usize) -> (String, usize) {
        if stage.step > 1 {
            return (format!("at + {var} * {}u", stage.step), c * stage.step);
        }
        if self.r.core.real_grid().is_some() {
            return (format!("u * {}u + {var}", stage.len), c);
        }
        (Self::value_index(stage, var), c)
    }

    /// The index expression of value `idx` of the butterfly's sub-row: from the sub-row's
    /// start (`at` where lines interleave, see [`Stage::butterfly`]).
    fn value_index(stage: &Stage, idx: &str) -> String {
        if stage.step > 1 {
            return format!("at + ({idx}) * {}u", stage.step);
        }
        match (stage.subrows > 1, stage.first) {
            (true, 0) => format!("u * {}u + {idx}", stage.stride),
            (true, f) => format!("u * {}u + {f}u + {idx}", stage.stride),
            (false, 0) => idx.to_string(),
            (false, f) => format!("{f}u + {idx}"),
        }
    }

    /// Value `var` + `c` of butterfly j's (sub-)row in shared buffer `buffer`, `var` the
    /// butterfly's j or o and `c` a literal. Padded as PAD(x) plus c's own padding (SH_AT: the
    /// compiler folds the literal into the instruction and shares PAD(x) between the
    /// butterfly's values) where `offsets` says that is exact for every butterfly of the pass;
    /// else as PAD(x + c), computed at each access.
    fn sh_plus(&self, p: &Pass, buffer: usize, var: &str, offsets: PaddedOffsets, c: usize) -> String {
        let stage = p.stage;
        let at = c * stage.step;
        match offsets.fold(at) {
            true => Self::sh_at(buffer, "s", &Self::value_index(stage, var), at),
            false => Self::sh(buffer, "s", &Self::value_index(stage, &format!("{var} + {c}u"))),
        }
    }

    /// Where the pass's butterflies' values `var_of(j)` fall within the padding period, for
    /// [`PaddedOffsets::fold`]: found once a pass, not once a value (a Bluestein row of 8192
    /// points checked every butterfly for each of its values, most of its source's time).
    fn padded_offsets(&self, p: &Pass, var_of: impl Fn(usize) -> usize) -> PaddedOffsets {
        let Some(shift) = self.padded_rows() else { return PaddedOffsets::Unpadded };
        let stage = p.stage;
        let butterflies = stage.len / p.radix * stage.subrows;
        let per_row = butterflies / stage.subrows;
        let largest = (0..butterflies)
            .map(|b| {
                let (first, j) = stage.butterfly(b, per_row);
                (first + var_of(j) * stage.step) & ((1 << shift) - 1)
            })
            .max();
        PaddedOffsets::Padded { shift, largest }
    }

    /// Opens butterfly t + q w of the pass: defines j (and for sub-rows, the sub-row u).
    fn open_butterfly(&mut self, q: usize, w: usize, guard: bool, butterflies: usize, stage: &Stage) {
        self.w.open("");
        let per_row = butterflies / stage.subrows;
        let b = if stage.subrows > 1 { "b" } else { "j" };
        self.w.line(format!("const u32 {b} = t + {}u;", q * w));
        let plain = stage.subrows == 1 && stage.step == 1 && !stage.across;
        let literal_k = plain && butterflies.div_ceil(w) >= LITERAL_K_MIN_TRIPS && self.r.problem.precision == Precision::F32;
        self.butterfly_span = literal_k.then(|| q * w..butterflies.min((q + 1) * w));
        if guard {
            self.w.open(format!("if ({b} < {butterflies}u)"));
        }
        if stage.step > 1 {
            // Interleaved lines (Stage::butterfly): b = lo + step (j + per_row hi).
            let step = stage.step;
            let j = if step * per_row == butterflies { format!("b / {step}u") } else { format!("b / {step}u % {per_row}u") };
            self.w.line(format!("const u32 j = {j};"));
            let hi = if step * per_row == butterflies { String::new() } else { format!(" + b / {}u * {}u", step * per_row, stage.stride) };
            let first = if stage.first > 0 { format!(" + {}u", stage.first) } else { String::new() };
            self.w.line(format!("const u32 at = b % {step}u{hi}{first};   /* the line's first value */"));
        } else if stage.across {
            // Consecutive threads on consecutive sub-rows (FftTuning::lanes_across_dfts).
            let subrows = stage.subrows;
            self.w.line(format!("const u32 j = b / {subrows}u;"));
            self.w.line(format!("const u32 u = b - j * {subrows}u;   /* which sub-row: consecutive threads, consecutive sub-rows */"));
        } else if stage.subrows > 1 {
            self.w.line(format!("const u32 u = b / {per_row}u;   /* which sub-row */"));
            self.w.line(format!("const u32 j = b - u * {per_row}u;"));
        } else if stage.first > 0 {
            self.w.line("const u32 u = 0;");
        }
    }

    fn close_butterfly(&mut self, guard: bool) {
        self.butterfly_span = None;
        if guard {
            self.w.close();
        }
        self.w.close();
    }

    /// v[base + i] *= W_{ns R}^{i k}, i = 1..R.
    fn twiddle_butterfly(&mut self, base: usize, radix: usize, ns: usize, stage: &Stage) {
        let step = stage.len / (ns * radix);
        if self.r.tuning.twiddles == TwiddleSource::TablePowers {
            // w[i] = W^{ik}: one table read, then products along a squaring tree (depth log2 R).
            self.w.line(format!("cplx w[{radix}];"));
            self.w.line(format!("w[1] = {};", self.twiddle(step, stage)));
            for i in 2..radix {
                let (a, b) = if i % 2 == 0 { (i / 2, i / 2) } else { (i - 1, 1) };
                self.w.line(format!("w[{i}] = cmul(w[{a}], w[{b}]);"));
            }
            for i in 1..radix {
                self.w.line(format!("v[{0}] = cmul(v[{0}], w[{i}]);", base + i));
            }
        } else {
            for i in 1..radix {
                let tw = self.twiddle(i * step, stage);
                self.w.line(format!("v[{0}] = cmul(v[{0}], {tw});", base + i));
            }
        }
    }

    /// The expression of e^{-2 pi i k m/L}, L the length of the stage's (sub-)rows.
    fn twiddle(&self, m: usize, stage: &Stage) -> String {
        match self.r.tuning.twiddles {
            TwiddleSource::Table | TwiddleSource::TablePowers => {
                let (offset, period) = self.tables.twiddles_of(&self.r.core, stage);
                format!("tables[{offset}u + k * {}u]", m * (period / stage.len))
            }
            TwiddleSource::Computed => {
                let f = self.lit.real(-2.0 / stage.len as f64);
                let idx = format!("k * {m}u");
                format!("MAKE_CPLX(COSPI({f} * (real)({idx})), SINPI({f} * (real)({idx})))")
            }
        }
    }
}

/// Fewest trips (butterflies a thread) of an f32 pass whose butterflies take k = j mod ns as
/// j minus a literal where the trip's j lie in one period of ns (`open_butterfly`): in a
/// stage's last pass every trip (ns = len / radix, and j is below it), in others the trips
/// that do not cross a multiple of ns. NVRTC divided each trip (C2R f32 468: 1342 -> 1263
/// SASS instructions so). Same-run A/Bs on an H200 (eighty-fourth session):
/// - in every pass: kernels whose last pass has 4 trips or more gained (C2C f32 1.043x over
///   40 lengths, 22 faster by 3% and 1 slower), while passes of 1-3 trips, where a thread
///   saves a division or three, moved either way as ptxas scheduled them anew (Bluestein
///   2939 0.78x: 71 -> 96 registers; C2R f32 3024 0.91x);
/// - passes of 4 trips or more: the C2C f32 kernels that changed 1.026x over 80 lengths (21
///   faster by 3%, none slower; 2494 and 2726 1.15x), those that did not 1.001x; C2R f32
///   3520 1.05x-1.09x, 468 1.03x; f64 (real kinds) no gain over its unchanged kernels and
///   three rows slower (C2R 1320 0.90x), so f64 keeps the division.
const LITERAL_K_MIN_TRIPS: usize = 4;

/// Where a pass's butterflies' values x fall within the padding period of padded rows
/// (`KernelWriter::padded_offsets`): what decides whether value x + c may be addressed as
/// PAD(x) plus c's padding.
#[derive(Clone, Copy)]
enum PaddedOffsets {
    /// Rows without padding inside them (or interleaved lines): PAD is the identity.
    Unpadded,
    /// One spare slot every 2^`shift` values; `largest` is the largest x mod 2^shift over the
    /// pass's butterflies (None without butterflies).
    Padded { shift: u32, largest: Option<usize> },
}

impl PaddedOffsets {
    /// Whether PAD(x + at) = PAD(x) + at + (at >> shift) for every butterfly's x: no carry
    /// from x mod 2^s + at mod 2^s reaches the padding bits.
    fn fold(self, at: usize) -> bool {
        match self {
            PaddedOffsets::Unpadded => false,
            PaddedOffsets::Padded { shift, largest } => {
                let low = at & ((1 << shift) - 1);
                low == 0 || largest.is_none_or(|x| x + low < 1 << shift)
            }
        }
    }
}
