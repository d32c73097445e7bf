//! Kernels of strided passes (`FftRecipe::io`): the transforms run along an axis whose values
//! are `stride` elements apart, and a block takes `transforms_per_block` neighbouring rows, so
//! that neighbouring threads touch neighbouring elements (one value of each of the block's
//! rows) and global accesses coalesce across rows instead of along them.
//!
//! Shared memory holds the block's rows interleaved, value i of every row together:
//! SH(row, i) = sh[i * (rows + 1) + row]. Threads of a warp take neighbouring rows at the same
//! value, so the core's passes touch neighbouring words whatever their radix; the odd stride
//! keeps a side that is read row by row (contiguous rows) free of bank conflicts too.
//!
//! Each side is either contiguous rows, copied with consecutive threads on consecutive values
//! of a row (the contiguous kernels' `row_loop`), or columns, where each thread keeps its own row
//! and walks its values. The core is the contiguous kernels' (passes.rs), staged.
//!
//! (Strided grids, `FftRecipe::design_strided_grid`, are the contiguous kernels' grids with
//! other addresses, codegen/io.rs; they share `offset_function` and `step_functions`. Grids
//! over columns, `FftRecipe::design_column_grid`, are this file's kernels with a grid core:
//! their rows' values lie `stride` apart as any strided pass's.)

use super::passes::{Sink, Source};
use super::KernelWriter;
use crate::fft::recipe::FftRecipe;
use crate::fft::transform_core::Core;
use crate::fft::strided::{AxisIndex, BatchDim, Chirp, ChirpStep, SideLayout, StridedIo, Values};
use crate::fft::tables::RootDigits;
use crate::kernel::SourceWriter;

/// Distance in shared memory between value i and value i + 1 of a row, in complex values.
pub fn interleaved_stride(recipe: &FftRecipe) -> usize {
    match recipe.tuning.transforms_per_block as usize {
        1 => 1,
        rows => rows + 1,
    }
}

/// A strided pass's four-step twiddle e^{-2 pi i step x/N} (value x of a row whose step index
/// is `step`), applied in registers by the core's last pass instead of by `write_value`, where
/// the planner asks for it (`FftTuning::grouped_step_twiddles`; why and where, in
/// `FftRecipe::groups_step_twiddles`, fft/strided_design.rs). That pass's butterfly o holds values
/// x = o + i ns (i < radix), whose twiddles are A G[a] F[c] for i = a group + c: A at x = o,
/// G[a] at x = a group ns, F[c] at x = c ns. A butterfly so reads 1 + (group - 1) +
/// (ceil(radix / group) - 1) twiddles instead of one a value (11 for radix 32); relative error
/// against f64 1.27e-7 a value, 1.19e-7 ungrouped (2^20's first pass, H200).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct StepTwiddleGroups {
    /// N, the length the twiddle divides the circle by.
    pub len: usize,
    /// The last pass's radix, and the points its butterflies combine with (ns = row / radix).
    pub radix: usize,
    pub ns: usize,
    pub group: usize,
}

impl StepTwiddleGroups {
    /// The groups of a recipe that asks for them (a twiddled strided pass on a Stockham core).
    pub(super) fn of(r: &FftRecipe) -> Option<Self> {
        let tw = r.io.as_ref()?.twiddle?;
        let Core::Stockham { len, radices } = &r.core else { return None };
        let radix = *radices.last()?;
        if !r.tuning.grouped_step_twiddles {
            return None;
        }
        let group = (radix as f64).sqrt().ceil() as usize;
        Some(StepTwiddleGroups { len: tw.len, radix, ns: len / radix, group })
    }

    /// Value `v`, value i of its butterfly (offset `c` = i ns from o), times its twiddle.
    pub(super) fn apply(&self, v: &str, c: usize) -> String {
        let i = c / self.ns;
        let (a, c) = (i / self.group, i % self.group);
        match c {
            0 => format!("cmul({v}, tw_g{a})"),
            _ => format!("cmul({v}, cmul(tw_g{a}, tw_f{c}))"),
        }
    }
}

impl KernelWriter<'_> {
    /// A strided grid whose last stage runs along its first axis (an R2C grid: the halved axis
    /// first, the first axis last) in one pass that writes global memory: value i of each of
    /// that pass's butterflies lies in the grid's row i, so the four-step twiddle of row i is
    /// the same for every value the block writes there. It is read once a thread before that
    /// pass (`grid_row_twiddles`) and applied in registers, not by write_output at each value,
    /// whose table reads the compiler did not share between butterflies (R2C f32 1024^2's grid:
    /// 36 of its 84 global accesses). N, the length the twiddle divides the circle by.
    pub(super) fn grid_row_twiddles_len(&self) -> Option<usize> {
        let tw = self.r.io.as_ref().filter(|_| self.r.is_strided_grid())?.twiddle?;
        let stages = self.r.stages();
        let last = stages.last()?;
        let last_axis_first = self.r.core.grid_axis_order().last() == Some(&0);
        (last_axis_first && last.radices.len() == 1 && last.ns0 == 1 && self.core_sink() == Sink::Global).then_some(tw.len)
    }

    /// Before such a grid's last pass (see `grid_row_twiddles_len`): grid_tw{k}, the four-step
    /// twiddle of the grid's row k, k = 1 .. rows - 1 (row 0's is 1).
    pub(super) fn grid_row_twiddles(&mut self, rows: usize, len: usize) {
        self.w.comment(&["four-step: row k of the grid times e^(-2 pi i k m/N), m this block's step_index (one grid a block), read once"]);
        for k in 1..rows {
            self.w.line(format!("const cplx grid_tw{k} = step_twiddle(tables, (step_index(GROUP_ID()) * {k}u) % {len}u);"));
        }
    }

    /// The grouped four-step twiddles of butterfly o in the core's last pass (see
    /// [`StepTwiddleGroups`]): tw_g{a} = A G[a] and tw_f{c} = F[c].
    pub(super) fn step_twiddle_groups(&mut self, g: StepTwiddleGroups) {
        let n = g.len;
        self.w.comment(&[&format!(
            "four-step twiddles of values o + i {} (i = a {} + c): A G[a] F[c], A = w(o), G[a] = w(a {}), F[c] = w(c {}), w(x) = e^(-2 pi i step x/{n})",
            g.ns,
            g.group,
            g.group * g.ns,
            g.ns
        )]);
        self.w.line("const u64 tw_step = step_index(b);");
        self.w.line(format!("const cplx tw_g0 = step_twiddle(tables, (tw_step * o) % {n}u);"));
        for c in 1..g.group {
            self.w.line(format!("const cplx tw_f{c} = step_twiddle(tables, (tw_step * {}u) % {n}u);", c * g.ns));
        }
        for a in 1..g.radix.div_ceil(g.group) {
            self.w.line(format!("const cplx tw_g{a} = cmul(tw_g0, step_twiddle(tables, (tw_step * {}u) % {n}u));", a * g.group * g.ns));
        }
    }

    /// The whole kernel of a strided pass, after the codelets.
    pub(super) fn strided_kernel(&mut self, io: &StridedIo) {
        let r = self.r;
        let (input, output) = (io.input(), io.output());
        offset_function(&mut self.w, "input_offset", &input);
        offset_function(&mut self.w, "output_offset", &output);
        self.step_functions(io);
        self.coefficient_function("input_coefficient", io, side_index(&io.input_values, &io.input_chirp));
        self.coefficient_function("output_coefficient", io, side_index(&io.output_values, &io.output_chirp));
        if let Some(c) = &io.between {
            self.coefficient_function("filter_coefficient", io, Some(&c.at));
        }
        self.chirp_function(io);
        self.value_functions(io);
        let packed = r.packed_blocks();
        if let Some(blocks) = packed {
            self.packed_functions(io, blocks);
        }
        let tpb = r.tuning.transforms_per_block;
        let (in_type, out_type) = (element_type(&io.input_values), element_type(&io.output_values));
        self.w.open(format!(
            "{} void {}(const GLOBAL {in_type}* in, GLOBAL {out_type}* out, const GLOBAL cplx* RESTRICT tables, u64 batch, real sign, real scale)",
            super::kernel_declaration(r),
            r.kernel_name()
        ));
        self.w.line(format!("SHARED_ARRAY(cplx, sh, {});", r.shared_values()));
        self.w.line("const u32 tid = LOCAL_ID();");
        Self::assume_threads(&mut self.w, r.threads_per_block());
        match packed {
            None => self.block_rows("(u64)GROUP_ID()", &format!("(u32)(batch - first < {tpb}u ? batch - first : {tpb}u)")),
            Some(_) => self.packed_block_rows("(u64)GROUP_ID()"),
        }
        if let Some(c) = &io.between {
            self.w.line(format!("const u64 f0 = filter_coefficient(b);   /* value k of the row is g = f0 + k * {} along the convolution */", c.at.row));
        }
        // Sides of columns go straight between global memory and the core's first and last
        // passes (direct_io, `FftRecipe::with_direct_columns`); the rest are staged.
        // (A packed input side, C2R's, is joined with its mirror image as it is read.)
        let (direct_in, direct_out) = (r.reads_columns_directly(), r.writes_columns_directly());
        match packed.filter(|_| matches!(io.input_values, Values::Packed(_))) {
            Some(blocks) => self.load_join_packed_pairs(io, blocks),
            None if direct_in => {
                self.w.comment(&[&format!("load: {}, in the core's first pass", Self::side_text(&io.input()))]);
                self.own_input_row(io);
            }
            None => {
                self.load_rows(io);
                self.w.line("BARRIER();");
            }
        }
        if direct_out {
            self.w.comment(&[&format!("store: {}, in the core's last pass", Self::side_text(&io.output()))]);
        }
        let source = if direct_in { Source::OwnRow } else { Source::Shared };
        self.core(source, if direct_out { Sink::OwnRow } else { Sink::Shared });
        match packed {
            Some(blocks) if matches!(io.output_values, Values::Packed(_)) => {
                let other = 2 * blocks.pairs - 1;
                self.store_packed_rows(io, |slot| format!("{other}u - {slot}"))
            }
            _ if direct_out => {}
            _ => self.store_rows(io),
        }
        self.w.close();
    }

    /// Tells the compiler that `tid` is below the block's `threads`, which the launch makes
    /// true. A load or store loop's trip k then takes value e = tid + k threads, whose row
    /// e / len NVRTC can fold to a constant once the loop is unrolled (or to one per thread),
    /// with what the row decides (packed slots, the four-step twiddle's row index).
    ///
    /// Measured (sixty-eighth session, docs/BENCHMARKS.md): scripts/sass.py counts 0.90x the
    /// SASS instructions over the 506 strided kernels of the large-1d, 2d and 3d suites' plans
    /// (C2R 2^16's packed first pass 1359 instead of 1817, 2^20's passes 1956 and 1285 instead
    /// of 2466 and 1444); on an H200 the large-1d suite ran 1.026x (two rounds; C2R f32 2^16 to
    /// 2^22 1.05x-1.11x, Bluestein's long primes 1.07x-1.09x, none slower by 3%), 2d and 3d
    /// 1.004x and 1.005x. Strided passes only: in contiguous one-launch kernels the counts went
    /// both ways, and 360 C2C f32 lengths of the sweep ran 0.992x (50 slower by 3%).
    pub(super) fn assume_threads(w: &mut SourceWriter, threads: u32) {
        w.line(format!("ASSUME(tid < {threads}u);   /* the launch's threads: lets the compiler fold each trip's row */"));
    }

    /// `s`, `t`, `first`, `rows` and `b`, which `load_rows`, the core and `store_rows` use:
    /// the rows of block `block` (an expression), `rows` of them (an expression: the last
    /// block of a batch may hold fewer).
    pub(super) fn block_rows(&mut self, block: &str, rows: &str) {
        let tpb = self.r.tuning.transforms_per_block;
        self.w.line(format!("const u32 s = tid % {tpb}u;   /* the block's row this thread works on: neighbours take neighbouring rows */"));
        self.w.line(format!("const u32 t = tid / {tpb}u;   /* thread within the row's group */"));
        self.w.line(format!("const u64 first = {block} * {tpb}u;   /* the block's first row */"));
        self.w.line(format!("const u32 rows = {rows};"));
        self.w.line("const u64 b = first + (s < rows ? s : 0);   /* this thread's row (rows past the batch are never touched) */");
        self.w.line("(void)t; (void)b;");
    }

    /// The block's rows from global memory into shared memory (see `block_rows`).
    pub(super) fn load_rows(&mut self, io: &StridedIo) {
        let r = self.r;
        let input = io.input();
        self.w.comment(&[&format!("load: {}", Self::side_text(&input))]);
        let load_count = match r.core {
            Core::Rader { len, .. } => len,
            _ => r.core.region(),
        };
        let row = self.block_row("row");
        match row_start(&input, "input_offset", &row) {
            Some(start) => self.row_loop(load_count, |w| {
                w.line(format!("SH(row, i) = read_value(in + {start}, tables, input_coefficient({row}), i, sign);"));
            }),
            None => {
                self.own_input_row(io);
                self.own_row(load_count, r.tuning.threads_per_transform, |i| format!("SH(s, {i}) = read_value(in_row, tables, g0, {i}, sign);"));
            }
        }
    }

    /// The block's transformed rows from shared memory to global memory.
    pub(super) fn store_rows(&mut self, io: &StridedIo) {
        let r = self.r;
        let output = io.output();
        self.w.comment(&[&format!("store: {}", Self::side_text(&output))]);
        let store_count = r.core.len();
        let buffer = self.buffers.row;
        let row = self.block_row("row");
        // A packed side's blocks hold some rows twice: only one copy is written.
        let packed = r.packed_blocks().is_some();
        let guard = |slot: &str| if packed { format!("if (packed_writes(group, {slot})) ") } else { String::new() };
        match row_start(&output, "output_offset", &row) {
            Some(start) => self.row_loop(store_count, |w| {
                w.line(format!(
                    "{}write_value(out + {start}, tables, step_index({row}), output_coefficient({row}), i, {}, sign, scale{});",
                    guard("row"),
                    Self::sh(buffer, "row", "i"),
                    pair_row_arg(io, &row)
                ));
            }),
            None => {
                self.own_output_row();
                let pair_row = pair_row_arg(io, "b");
                self.own_row(store_count, r.tuning.threads_per_transform, |i| format!("{}write_value(out_row, tables, step, k0, {i}, {}, sign, scale{pair_row});", guard("s"), Self::sh(buffer, "s", i)));
            }
        }
    }

    /// `in_row` and `g0`, which `read_value` takes for the values of the thread's own row.
    fn own_input_row(&mut self, io: &StridedIo) {
        self.w.line(format!("const GLOBAL {}* in_row = in + input_offset(b);", element_type(&io.input_values)));
        self.w.line("const u64 g0 = input_coefficient(b);");
        self.w.line("(void)g0;");
    }

    /// `out_row`, `step` and `k0`, which `write_value` takes for the thread's own row. Direct
    /// writes define them in the core's last pass, where they are first used, so that they do
    /// not live through the passes before it.
    pub(super) fn own_output_row(&mut self) {
        let io = self.r.io.as_ref().expect("a strided pass");
        self.w.line(format!("GLOBAL {}* out_row = out + output_offset(b);", element_type(&io.output_values)));
        self.w.line("const u64 step = step_index(b);");
        self.w.line("const u64 k0 = output_coefficient(b);");
        self.w.line("(void)step; (void)k0;");
    }

    fn side_text(side: &SideLayout) -> String {
        match (side.contiguous_rows(), side.stride) {
            (Some(stride), _) => format!("contiguous rows {stride} apart, consecutive threads on consecutive values of a row"),
            (None, 1) => format!("contiguous rows at {:?} (count, stride), consecutive threads on consecutive values of a row", side.dims),
            _ => format!("each thread its own row, values {} apart, rows at {:?} (count, stride)", side.stride, side.dims),
        }
    }

    /// `step_index(b)`, the four-step twiddle's row index, and `step_twiddle(tables, m)`,
    /// e^{-2 pi i m/N} as the product of two table values (m's high and low bits), so that
    /// the tables hold about 2 sqrt(N) values instead of N.
    pub(super) fn step_functions(&mut self, io: &StridedIo) {
        self.step_index_function(io);
        self.step_twiddle_function(io);
    }

    pub(super) fn step_index_function(&mut self, io: &StridedIo) {
        self.w.open("DEVICE_FN u64 step_index(u64 b)");
        match io.twiddle {
            None => self.w.line("(void)b;").line("return 0;"),
            Some(tw) => self.w.line(format!("return {};   /* the index of batch dimension {} */", batch_dim_index(&io.batch, tw.dim), tw.dim)),
        };
        self.w.close();
    }

    pub(super) fn step_twiddle_function(&mut self, io: &StridedIo) {
        let Some(tw) = io.twiddle else { return };
        let tables = io.twiddle_tables(self.r.problem.precision);
        let how = tables.map_or_else(|| format!("computed, 2m/{} is exact in f32", tw.len), digits_text);
        self.w.comment(&[&format!("e^(-2 pi i m/{}) for m < {}: {how}", tw.len, tw.len)]);
        self.w.open("DEVICE_FN cplx step_twiddle(const GLOBAL cplx* RESTRICT tables, u64 m)");
        if let Some(digits) = tables {
            self.w.line(format!("return {};", digit_root(self.tables.step_roots, digits)));
        } else {
            self.w.line(format!("const real x = (real)m * {:e}f;", 2.0 / tw.len as f64));
            self.w.line("real s, c;");
            self.w.line("(void)tables;");
            for line in ["#if defined(__CUDACC__)", "sincospif(x, &s, &c);", "#else", "s = sinpi(x);", "c = cospi(x);", "#endif"] {
                self.w.line(line);
            }
            self.w.line("return MAKE_CPLX(c, -s);");
        }
        self.w.close();
    }

    /// `u64 name(u64 b)`: row b's part of the index g its values have along the whole axis
    /// (see [`crate::fft::strided::AxisIndex`]): a real transform's coefficient, or Bluestein's
    /// index along the convolution; 0 where the side has neither.
    pub(super) fn coefficient_function(&mut self, name: &str, io: &StridedIo, index: Option<&AxisIndex>) {
        self.w.open(format!("DEVICE_FN u64 {name}(u64 b)"));
        match index {
            Some(h) if h.dims.iter().any(|&w| w != 0) => {
                self.w.line("u64 g = 0;");
                for (d, &weight) in h.dims.iter().enumerate() {
                    if weight != 0 && io.batch[d].count > 1 {
                        self.w.line(format!("g += ({}) * {weight}u;", batch_dim_index(&io.batch, d)));
                    }
                }
                self.w.line("return g;");
            }
            _ => {
                self.w.line("(void)b;").line("return 0;");
            }
        }
        self.w.close();
    }

    /// `bluestein_chirp(tables, g)`: Bluestein's c[g] = e^{-pi i g^2/len} = e^{-2 pi i m/(2 len)}
    /// with m = g^2 mod 2 len exact in integers, from the tables of its digits as the four-step
    /// twiddle (`RootDigits`).
    fn chirp_function(&mut self, io: &StridedIo) {
        let Some(c) = io.chirp_step() else { return };
        let period = 2 * c.len;
        self.w.comment(&[&format!("Bluestein's chirp e^(-pi i g^2/{}), g < {}", c.len, c.len)]);
        self.w.open("DEVICE_FN cplx bluestein_chirp(const GLOBAL cplx* RESTRICT tables, u64 g)");
        self.w.line(format!("const u64 m = (g * g) % {period}u;"));
        self.w.line(format!("return {};", digit_root(self.tables.pass_chirp_roots, RootDigits::of(period))));
        self.w.close();
    }

    /// `read_value(row, tables, g0, i, sign)`, value i of a row of the core's input (a real
    /// value; a half spectrum's coefficient g0 + i * row or its mirror image; Bluestein:
    /// chirped, zero past the length), and `write_value(row, tables, step, k0, i, v, sign,
    /// scale)`, which stores value i of the core's output (four-step: twiddled first; real:
    /// its real part; half spectrum: only coefficients up to len/2).
    fn value_functions(&mut self, io: &StridedIo) {
        self.read_value_function(io);
        self.write_value_function(io);
    }

    pub(super) fn read_value_function(&mut self, io: &StridedIo) {
        let in_type = element_type(&io.input_values);
        self.w.open(format!("DEVICE_FN cplx read_value(const GLOBAL {in_type}* row, const GLOBAL cplx* RESTRICT tables, u64 g0, u32 i, real sign)"));
        self.w.line("(void)tables; (void)g0;");
        if let Core::Bluestein { len, .. } = self.r.core {
            self.w.line(format!("if (i >= {len}u) return MAKE_CPLX(0, 0);   /* Bluestein's zero padding */"));
        }
        match side_index(&io.input_values, &io.input_chirp) {
            Some(index) if !matches!(io.input_values, Values::Packed(_)) => {
                self.w.line(format!("const u64 g = g0 + (u64)i * {}u;   /* the coefficient this value is */", index.row));
            }
            _ => {}
        }
        if let Some(c) = &io.input_chirp {
            self.w.line(format!("if (g >= {}u) return MAKE_CPLX(0, 0);   /* Bluestein's zero padding */", c.len));
        }
        let at = format!("(u64)i{}", times(io.input_stride));
        match &io.input_values {
            Values::Complex => self.w.line(format!("cplx v = row[{at}];")),
            Values::Real => self.w.line(format!("cplx v = MAKE_CPLX(row[{at}], 0);   /* a real signal */")),
            Values::Packed(_) => {
                // Joined with its mirror image before the transform (join_packed), the
                // inverse's conjugate included.
                self.w.line(format!("return row[{at}];   /* X[g] as stored */"));
                self.w.close();
                return;
            }
            Values::Half(h) => {
                // One load, from the coefficient or its mirror image (measured no different
                // from a select between two loads, sixteenth session).
                self.w.line(format!("const bool mirrored = g > {}u;   /* stored as its mirror image {} - g, conjugated */", h.len / 2, h.len));
                self.w.line(format!("cplx v = row[mirrored ? (i64)({at}) - (i64)(2 * g - {}u) * {} : (i64)({at})];", h.len, h.unit));
                self.w.line("if (mirrored) v.y = -v.y;")
            }
            Values::RealPairs(p) => self.w.line(format!("cplx v = MAKE_CPLX(row[{at}], row[{at} + {}u]);   /* two real rows as one: x + i y */", p.partner)),
            Values::HalfPairs(h, p) => {
                self.w.line(format!("const bool mirrored = g > {}u;   /* stored as its mirror image {} - g, conjugated */", h.len / 2, h.len));
                self.w.line(format!("const i64 at = mirrored ? (i64)({at}) - (i64)(2 * g - {}u) * {} : (i64)({at});", h.len, h.unit));
                self.w.line(format!("cplx x = row[at], y = row[at + {}];   /* the coefficient of both rows of the pair */", p.partner));
                self.w.line("if (mirrored) { x.y = -x.y; y.y = -y.y; }");
                self.w.comment(&[&format!(
                    "X[0] (and X[{}/2]) count only by their real parts, as the rows are real: in X + i Y an imaginary part would move into the other row",
                    h.len
                )]);
                self.w.line(format!("if (g == 0 || 2 * g == {}u) {{ x.y = 0; y.y = 0; }}", h.len));
                self.w.line("cplx v = MAKE_CPLX(x.x - y.y, x.y + y.x);   /* X + i Y */")
            }
        };
        self.w.line("v.y *= sign;   /* inverse: conj on the way in and out */");
        match self.r.core {
            Core::Bluestein { len, factor, .. } => self.return_chirped("i", len / factor),
            _ if io.input_chirp.is_some() => self.w.line("return cmul(v, bluestein_chirp(tables, g));   /* Bluestein: times the chirp */"),
            _ => self.w.line("return v;"),
        };
        self.w.close();
    }

    pub(super) fn write_value_function(&mut self, io: &StridedIo) {
        let out_type = element_type(&io.output_values);
        let pair_row = if matches!(io.output_values, Values::RealPairs(_)) { ", u64 b" } else { "" };
        self.w.open(format!(
            "DEVICE_FN void write_value(GLOBAL {out_type}* row, const GLOBAL cplx* RESTRICT tables, u64 step, u64 k0, u32 i, cplx v, real sign, real scale{pair_row})"
        ));
        self.w.line("(void)tables; (void)step; (void)k0;");
        let mut mirror = None;
        match (&io.output_values, &io.output_chirp) {
            (Values::Half(h), None) => match h.mirror_writes {
                None => {
                    self.w.line(format!("if (k0 + (u64)i * {}u > {}u) return;   /* past the half spectrum */", h.at.row, h.len / 2));
                }
                Some(m) => {
                    mirror = Some(h);
                    self.w.line(format!("const u64 g = k0 + (u64)i * {}u;   /* the coefficient this value is */", h.at.row));
                    self.w.line(format!("const u64 r = g % {m}u;   /* rows compute the coefficients of r <= {} only */", m / 2));
                    self.w.comment(&[&format!(
                        "past the half spectrum: dropped where a row of this pass computes its mirror image {} - g (r == 0 or 2 r >= {m}), else stored there",
                        h.len
                    )]);
                    self.w.line(format!("if (g > {}u && (r == 0 || 2 * r >= {m}u)) return;", h.len / 2));
                }
            },
            (values, Some(c)) => {
                self.w.line(format!("const u64 g = k0 + (u64)i * {}u;   /* the index along the convolution */", c.at.row));
                if let Values::Half(h) = values {
                    self.w.line(format!("if (g > {}u) return;   /* past the half spectrum */", h.len / 2));
                } else if c.step == ChirpStep::Spectrum {
                    self.w.line(format!("if (g >= {}u) return;   /* past the transform: Bluestein's padding */", c.len));
                }
            }
            _ => {}
        }
        match (io.twiddle, StepTwiddleGroups::of(self.r)) {
            (Some(_), Some(_)) => {
                self.w.comment(&["four-step twiddle: applied by the core's last pass"]);
            }
            (Some(tw), None) => {
                // Grids over columns: the twiddle is on the grid's last axis.
                let index = match &self.r.core {
                    Core::Grid { shape, .. } if self.r.tuning.grid_columns => format!("(i % {}u)", shape[shape.len() - 1]),
                    _ => "i".to_string(),
                };
                self.w.line(format!("v = cmul(v, step_twiddle(tables, (step * {index}) % {}u));   /* four-step twiddle */", tw.len));
            }
            _ => {}
        }
        match io.output_chirp.as_ref().map(|c| c.step) {
            Some(ChirpStep::Filter) => {
                self.w.line(format!("v = cconj(cmul(v, tables[{}u + g]));   /* Bluestein: times the filter's spectrum; conj makes the next transform inverse */", self.tables.pass_filter));
            }
            Some(_) => {
                self.w.line("v = cmul(cconj(v), bluestein_chirp(tables, g));   /* Bluestein: conj back, times the chirp */");
            }
            None => {}
        }
        let at = format!("(u64)i{}", times(io.output_stride));
        if let Some(h) = mirror {
            self.w.open(format!("if (g > {}u)", h.len / 2));
            self.w.line(format!(
                "row[(i64)({at}) - (i64)(2 * g - {}u) * {}] = MAKE_CPLX(v.x * scale, -v.y * (sign * scale));   /* X[{} - g] = conj(X[g]) */",
                h.len, h.unit, h.len
            ));
            self.w.line("return;");
            self.w.close();
        }
        match &io.output_values {
            Values::Real => self.w.line(format!("row[{at}] = v.x * scale;   /* a real signal: the imaginary parts are zero */")),
            Values::RealPairs(p) => {
                self.w.line(format!("row[{at}] = v.x * scale;   /* a pair of real rows, z = x + i y: x */"));
                let second = format!("row[{at} + {}u] = v.y * (sign * scale);   /* y */", p.partner);
                match p.shared_first {
                    false => self.w.line(second),
                    // Pair 0's second row is the last pair's first (an odd count of rows).
                    true => self.w.line(format!("if ({} != 0) {second}", batch_dim_index(&io.batch, p.dim))),
                }
            }
            _ => self.w.line(format!("row[{at}] = MAKE_CPLX(v.x * scale, v.y * (sign * scale));")),
        };
        self.w.close();
    }

    /// Batch row of the block's row `row` (an expression): `first + row`, or for a packed
    /// side the row of its slot (`packed_row`).
    pub(super) fn block_row(&self, row: &str) -> String {
        match self.r.packed_blocks() {
            Some(_) => format!("packed_row(group, {row})"),
            None => format!("first + {row}"),
        }
    }

    /// The thread's own row s, values t, t + threads, ...: `body(i)` writes the statement.
    pub(super) fn own_row(&mut self, count: usize, threads: u32, body: impl Fn(&str) -> String) {
        let trips = count.div_ceil(threads as usize);
        self.w.open("if (s < rows)");
        self.w.line("#pragma unroll");
        self.w.open(format!("for (u32 k = 0; k < {trips}u; ++k)"));
        self.w.line(format!("const u32 i = t + k * {threads}u;"));
        if trips * threads as usize != count {
            self.w.line(format!("if (i < {count}u) {}", body("i")));
        } else {
            self.w.line(body("i"));
        }
        self.w.close();
        self.w.close();
    }
}

/// `u64 name(u64 b)`: where row b's values start, from the batch dimensions of one side.
pub(crate) fn offset_function(w: &mut SourceWriter, name: &str, side: &SideLayout) {
    w.open(format!("DEVICE_FN u64 {name}(u64 b)"));
    let (last, rest) = side.dims.split_last().expect("a side has a dimension");
    if rest.is_empty() {
        w.line(format!("return b * {}u;", last.1));
    } else {
        w.line("u64 at = 0;");
        for (count, stride) in rest {
            w.line(format!("at += (b % {count}u) * {stride}u;"));
            w.line(format!("b /= {count}u;"));
        }
        w.line(format!("return at + b * {}u;", last.1));
    }
    w.close();
}

/// Where row `row` (an expression: `first + row`) of a side starts, if its values are
/// contiguous: such rows are copied row by row, consecutive threads on consecutive values,
/// wherever the rows lie (one row distance, or `offset_fn` of the batch dimensions: C2R's
/// pass A writes n1/2 + 1 rows an array, which do not continue into the next array's).
/// Columns (None) are walked one row a thread, neighbouring threads on neighbouring rows.
pub(super) fn row_start(side: &SideLayout, offset_fn: &str, row: &str) -> Option<String> {
    match (side.contiguous_rows(), side.stride) {
        (Some(stride), _) => Some(format!("({row}) * {stride}u")),
        (None, 1) => Some(format!("{offset_fn}({row})")),
        _ => None,
    }
}

/// `write_value`'s last argument where its side is pairs of real rows (which pair: `row`, an
/// expression for the batch row), else nothing.
pub(super) fn pair_row_arg(io: &StridedIo, row: &str) -> String {
    match io.output_values {
        Values::RealPairs(_) => format!(", {row}"),
        _ => String::new(),
    }
}

/// The expression for row b's index in batch dimension `d` of `batch` (the first dimension
/// fastest).
pub(crate) fn batch_dim_index(batch: &[BatchDim], d: usize) -> String {
    let below: usize = batch[..d].iter().map(|d| d.count).product();
    let count = batch[d].count;
    if below == 1 { format!("b % {count}u") } else { format!("(b / {below}u) % {count}u") }
}

/// The expression for a root of unity e^{-2 pi i m/n} from the tables of `digits` at `at`
/// (`RootDigits::tables`): the entry for m's highest digit times the next one's, and so on.
pub(super) fn digit_root(at: usize, digits: RootDigits) -> String {
    let (bits, mask) = (digits.bits, (1usize << digits.bits) - 1);
    let mut offset = at;
    let mut entries = Vec::new();
    for d in 0..digits.digits {
        let index = match (d, d + 1 == digits.digits) {
            (0, _) => format!("m & {mask}u"),
            (_, true) => format!("m >> {}", bits * d),
            _ => format!("(m >> {}) & {mask}u", bits * d),
        };
        entries.push(format!("tables[{offset}u + (u32)({index})]"));
        offset += digits.table_len(d);
    }
    let mut entries = entries.into_iter().rev();
    let highest = entries.next().expect("a root has two digits or more");
    entries.fold(highest, |product, entry| format!("cmul({product}, {entry})"))
}

/// How `digit_root` splits m, for the kernel's comments.
fn digits_text(digits: RootDigits) -> String {
    match digits.digits {
        2 => "high bits of m times low bits".to_string(),
        n => format!("the product of {n} tables, by {} bits of m each", digits.bits),
    }
}

/// The index along the whole axis a side's values carry, if the kernel needs it: a half
/// spectrum's coefficient or Bluestein's index (the same one where a side has both).
pub(super) fn side_index<'a>(values: &'a Values, chirp: &'a Option<Chirp>) -> Option<&'a AxisIndex> {
    match (values, chirp) {
        (Values::Half(h) | Values::HalfPairs(h, _), _) => Some(&h.at),
        (Values::Packed(p), _) => Some(&p.at),
        (_, Some(c)) => Some(&c.at),
        _ => None,
    }
}

/// ` * s` (nothing for 1): a value's distance from its row's start, after its index.
fn times(s: usize) -> String {
    if s == 1 { String::new() } else { format!(" * {s}u") }
}

/// The kernel's type of one element of a side.
pub(super) fn element_type(values: &Values) -> &'static str {
    match values {
        Values::Real | Values::RealPairs(_) => "real",
        _ => "cplx",
    }
}

#[cfg(test)]
mod tests {
    use crate::fft::codegen::fft_source;
    use crate::fft::nd_recipe::FftNdRecipe;
    use crate::fft::{DeviceLimits, FftNdProblem};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn real_passes_read_reals_or_mirrored_coefficients_and_write_what_they_keep() {
        // C2R of 2^20 in two passes: pass A reads the half spectrum (coefficient n1 + 1024 n2,
        // n1 the fastest batch dimension) for rows n1 <= 512 only, and writes them row by row
        // (513 rows an array: through output_offset); the last reads its rows as half spectra
        // of 1024 (values over 512 from rows 1024 - n1) and writes real parts. (Reals an odd
        // distance apart, which do not pair up as complex values: see the packed test below.)
        let odd = (1 << 20) + 1;
        let r = FftNdRecipe::design(FftNdProblem::c2r(&[2, 1 << 20], &[1]).output_strides(&[odd, 1]), H200).unwrap();
        let first = fft_source(&r.passes[0].recipe).body;
        assert!(first.contains("(const GLOBAL cplx* in, GLOBAL cplx* out"), "{first}");
        assert!(first.contains("const u64 g = g0 + (u64)i * 1024u;"));
        assert!(first.contains("const bool mirrored = g > 524288u;"));
        assert!(first.contains("cplx v = row[mirrored ? (i64)((u64)i * 1024u) - (i64)(2 * g - 1048576u) * 1 : (i64)((u64)i * 1024u)];"));
        assert!(first.contains("g += (b % 513u) * 1u;"), "rows n1 <= 512: {first}");
        assert!(first.contains("write_value(out + output_offset(first + row), tables, step_index(first + row)"));
        let last = fft_source(&r.passes[1].recipe).body;
        assert!(last.contains("(const GLOBAL cplx* in, GLOBAL real* out"));
        assert!(last.contains("const bool mirrored = g > 512u;"), "{last}");
        assert!(last.contains("cplx v = row[mirrored ? (i64)((u64)i * 1024u) - (i64)(2 * g - 1024u) * 1024 : (i64)((u64)i * 1024u)];"));
        assert!(last.contains("= v.x * scale;"));
        // R2C: reals in, coefficients k2 <= 512 of each row kept; then rows k2 <= 512 write
        // coefficient g = k2 + 1024 k1 up to 2^19, and past it its mirror image, conjugated,
        // where no row writes that one (0 < k2 < 512).
        let r = FftNdRecipe::design(FftNdProblem::r2c(&[2, 1 << 20], &[1]).input_strides(&[odd, 1]), H200).unwrap();
        let first = fft_source(&r.passes[0].recipe).body;
        assert!(first.contains("(const GLOBAL real* in, GLOBAL cplx* out") && first.contains("MAKE_CPLX(row[(u64)i * 1024u], 0)"));
        assert!(first.contains("if (k0 + (u64)i * 1u > 512u) return;"), "{first}");
        let last = fft_source(&r.passes[1].recipe).body;
        assert!(last.contains("const u64 r = g % 1024u;"), "{last}");
        assert!(last.contains("if (g > 524288u && (r == 0 || 2 * r >= 1024u)) return;"));
        assert!(last.contains("row[(i64)((u64)i * 1024u) - (i64)(2 * g - 1048576u) * 1] = MAKE_CPLX(v.x * scale, -v.y * (sign * scale));"));
    }

    #[test]
    fn packed_passes_join_or_separate_mirror_columns() {
        // 2^20 reals as 2^19 complex pairs, 1024 x 512: C2R's first pass (rows over 512
        // points, 1024 columns, 8 and their 8 mirror images a block) joins X[g] and X[m - g]
        // (X[m] from value 512 of column 0) before its transform; R2C's last (rows over 1024,
        // 512 columns, 8 and 8 a block: two runs of 16 rows of 1024 do not fit shared memory)
        // separates them as it writes.
        let r = FftNdRecipe::design(FftNdProblem::c2r_1d(1 << 20, 1), H200).unwrap();
        let first = fft_source(&r.passes[0].recipe).body;
        assert!(first.contains("return slot < 8u ? k : (1024u - k) % 1024u;"), "{first}");
        assert!(first.contains("x = x_row[(u64)(col == 0 && i == 0 ? 512u : ip) * 1024u];   /* X[m] (value n of column 0) beside X[0] */"));
        assert!(first.contains("const u32 ip = col == 0 ? (512u - i) % 512u : 511u - i;"));
        assert!(first.contains("SH(slot, i) = join_packed(a, x, cconj(w), sign);"));
        assert!(first.contains("const bool pair = col != 0 && 2 * col != 1024u;"));
        assert!(first.contains("if (pair) SH(other, ip) = join_packed(x, a, MAKE_CPLX(-w.x, -w.y), sign);"));
        assert!(first.contains("else SH(other, ip) = MAKE_CPLX(0, 0);"), "columns 0 and 512's copies: zeroed, never read");
        assert!(first.contains("if (packed_writes(group, row)) write_value(") || first.contains("if (packed_writes(group, s)) write_value("));
        let r = FftNdRecipe::design(FftNdProblem::r2c_1d(1 << 20, 1), H200).unwrap();
        let last = fft_source(&r.passes[1].recipe).body;
        assert!(last.contains("return slot < 8u ? k : (512u - k) % 512u;"), "{last}");
        assert!(last.contains("if (g == 0) row[(u64)1024u * 512u] = MAKE_CPLX((z.x - z.y) * scale, 0);"));
        assert!(last.contains("write_packed(out_row, tables, k0, i, SH(s, i), SH(15u - s, k0 == 0 ? (1024u - i) % 1024u : 1023u - i), sign, scale);"));
    }

    #[test]
    fn bluestein_passes_chirp_pad_and_filter_on_their_reads_and_writes() {
        let r = FftNdRecipe::design(FftNdProblem::c2c_1d(4099, 1), H200).unwrap();
        let text: Vec<String> = r.passes.iter().map(|p| fft_source(&p.recipe).body).collect();
        assert!(text[0].contains("if (g >= 4099u) return MAKE_CPLX(0, 0);") && text[0].contains("return cmul(v, bluestein_chirp(tables, g));"));
        assert!(text[0].contains("const u64 m = (g * g) % 8198u;"), "{}", text[0]);
        // The first transform's last pass and the second's first as one: the filter between
        // the row's two transforms, from the row's f0, the four-step twiddle on its writes.
        let m = r.scratch_len;
        let row = m / r.passes[1].recipe.problem.len;
        assert!(text[1].contains(&format!("const u64 f0 = filter_coefficient(b);   /* value k of the row is g = f0 + k * {row} along the convolution */")), "{}", text[1]);
        assert!(text[1].contains(&format!("f0 + (u64)(o + 0u) * {row}u]))")) && !text[1].contains("bluestein_chirp"));
        assert!(text[1].contains(&format!("step_twiddle(tables, (step * i) % {m}u)")));
        assert!(text[2].contains("if (g >= 4099u) return;") && text[2].contains("v = cmul(cconj(v), bluestein_chirp(tables, g));"));
    }

    #[test]
    fn four_step_twiddles_are_grouped_in_the_last_radix_pass() {
        // 2^20 as 1024 x 1024: the first pass's last radix is 32, whose butterflies read 11
        // twiddles (A, F[1..6], G[1..6]) and write value o + 32 i times A G[i / 6] F[i % 6];
        // write_value no longer twiddles. The second pass has no twiddle.
        let r = FftNdRecipe::design(FftNdProblem::c2c_1d(1 << 20, 1), H200).unwrap();
        let text: Vec<String> = r.passes.iter().map(|p| fft_source(&p.recipe).body).collect();
        assert_eq!(text[0].matches("step_twiddle(tables, (tw_step * ").count(), 11, "{}", text[0]);
        assert!(text[0].contains("const cplx tw_g5 = cmul(tw_g0, step_twiddle(tables, (tw_step * 960u) % 1048576u));"));
        assert!(text[0].contains("= cmul(v[31], cmul(tw_g5, tw_f1));"), "{}", text[0]);
        assert!(!text[0].contains("(step * i)") && !text[1].contains("tw_step"));
        let groups = |v: &str, i: usize| super::StepTwiddleGroups { len: 1 << 20, radix: 32, ns: 32, group: 6 }.apply(v, i * 32);
        assert_eq!((groups("x", 0), groups("x", 6), groups("x", 7)), ("cmul(x, tw_g0)".into(), "cmul(x, tw_g1)".into(), "cmul(x, cmul(tw_g1, tw_f1))".into()));
    }

    #[test]
    fn strided_passes_tell_the_compiler_their_threads() {
        // 2^20's passes: 512 threads (32 a row, 16 rows); contiguous one-launch rows do not
        // (measured slower so, `assume_threads`).
        let r = FftNdRecipe::design(FftNdProblem::c2c_1d(1 << 20, 1), H200).unwrap();
        assert!(r.passes.iter().all(|p| fft_source(&p.recipe).body.contains("ASSUME(tid < 512u);")));
        let row = crate::fft::FftRecipe::design_by_heuristic(crate::fft::FftProblem::c2c(1024, 64), H200).unwrap();
        assert!(!fft_source(&row).body.contains("ASSUME("));
    }
}
