//! Strided passes with a packed real side (`strided::PackedAxis`): a long real axis of len
//! points transformed over passes as the complex axis of m = len/2 points z[n] = x[2n] + i
//! x[2n+1]. R2C's last pass separates the spectra of the even and odd reals as it writes the
//! half spectrum; C2R's first joins them as it reads it. Both need Z[g] beside Z[m - g], which
//! lies in another row of the pass (the mirror column, `PackedAxis`): each block takes `pairs`
//! neighbouring columns K and, in its other slots, their mirror columns P - K, so that both
//! halves of the block read and write runs of neighbouring rows.
//!
//! Slot s < pairs holds column K = tile * pairs + s, slot 2 pairs - 1 - s its mirror image.
//! Columns 0 and P/2 are their own mirror images: their second copy is read but never
//! written, as are the copies of column P/2 that pad the last tile (`packed_writes`).
//!
//! Across a cluster of two blocks (`ClusterSplit::packed_columns`, codegen/cluster.rs) an array's P
//! columns lie in its two blocks' P/2 slots each, once: block `rank` holds columns
//! rank Q + s in slots s < Q = P/4 and their mirror images in slots 2Q - 1 - s, but block 0's
//! slot 2Q - 1 holds column P/2, which like column 0 (its slot 0) is its own mirror image
//! (`cluster_packed_functions`). R2C's pass B writes its half spectrum so; C2R's pass A is
//! not run across a cluster (nd_recipe.rs, `Planner::cluster`).

use super::strided::{digit_root, element_type, row_start};
use super::KernelWriter;
use crate::fft::strided::{PackedAxis, PackedBlocks, StridedIo, Values};
use crate::fft::tables::RootDigits;

impl KernelWriter<'_> {
    /// `packed_column`, `packed_row`, `packed_writes` and `packed_root`; `join_packed` (C2R)
    /// or `write_packed` (R2C).
    pub(super) fn packed_functions(&mut self, io: &StridedIo, blocks: PackedBlocks) {
        let PackedBlocks { columns: p, pairs, .. } = blocks;
        let tiles = blocks.tiles();
        let packed = io.packed().expect("a packed side");
        self.w.comment(&[
            &format!("A packed real axis of {} reals as {} complex pairs: each block takes columns K <= {} of one", packed.len, packed.len / 2, p / 2),
            &format!("array ({pairs} a block, slots 0..{pairs}) and their mirror images {p} - K (slots {} down to {pairs}).", 2 * pairs - 1),
        ]);
        // In 32 bits past the tile (P is at most the axis's length): the index math runs for
        // every value a thread stores.
        self.w.open("DEVICE_FN u32 packed_column(u64 group, u32 slot)");
        self.w.line(format!("const u32 low = slot < {pairs}u ? slot : {}u - slot;", 2 * pairs - 1));
        self.w.line(format!("u32 k = (u32)(group % {tiles}u) * {pairs}u + low;"));
        self.w.line(format!("if (k > {0}u) k = {0}u;   /* past the last column: a copy of column {0}, never written */", p / 2));
        self.w.line(format!("return slot < {pairs}u ? k : ({p}u - k) % {p}u;"));
        self.w.close();
        self.w.open("DEVICE_FN u64 packed_row(u64 group, u32 slot)");
        self.w.line(format!("return (group / {tiles}u) * {p}u + packed_column(group, slot);   /* the array, then the column */"));
        self.w.close();
        self.w.comment(&["Whether a slot writes its row: columns past P/2 and the second copies of columns 0 and P/2 do not."]);
        self.w.open("DEVICE_FN bool packed_writes(u64 group, u32 slot)");
        self.w.line(format!("const u32 low = slot < {pairs}u ? slot : {}u - slot;", 2 * pairs - 1));
        self.w.line(format!("const u32 k = (u32)(group % {tiles}u) * {pairs}u + low;"));
        self.w.line(format!("return k <= {}u && (slot < {pairs}u || (k != 0 && 2 * k != {p}u));", p / 2));
        self.w.close();
        self.packed_value_functions(io, p);
    }

    /// `packed_root`, and `join_packed` (C2R) or `write_packed` (R2C) for a side of
    /// `columns` columns.
    fn packed_value_functions(&mut self, io: &StridedIo, columns: usize) {
        let packed = io.packed().expect("a packed side");
        let digits = RootDigits::of(packed.len);
        self.w.comment(&[&format!("w^m = e^(-2 pi i m/{}), m < {}", packed.len, packed.len)]);
        self.w.open("DEVICE_FN cplx packed_root(const GLOBAL cplx* RESTRICT tables, u64 m)");
        self.w.line(format!("return {};", digit_root(self.tables.packed_roots, digits)));
        self.w.close();
        match (&io.input_values, &io.output_values) {
            (Values::Packed(_), _) => self.join_packed_function(),
            _ => self.write_packed_function(io, packed, columns),
        }
    }

    /// The packed side of a cluster's pass B (R2C; see the module's text), its P = `columns`
    /// columns across two blocks (`group` = 2 array + rank) of P/2 slots: `packed_column`,
    /// `packed_row`, `packed_writes` (every slot), `packed_mirror` (the slot of a slot's
    /// mirror column), and the value functions.
    pub(super) fn cluster_packed_functions(&mut self, io: &StridedIo, columns: usize) {
        let (p, q) = (columns, columns / 4);
        let packed = io.packed().expect("a packed side");
        self.w.comment(&[
            &format!("A packed real axis of {} reals as {} complex pairs, its {p} columns across a cluster of two blocks:", packed.len, packed.len / 2),
            &format!("block rank holds columns rank {q} + s in slots s < {q} and their mirror images {p} - (rank {q} + s) in slots {} - s;", 2 * q - 1),
            &format!("block 0's slot {} holds column {}, which is its own mirror image, as column 0 (slot 0) is.", 2 * q - 1, p / 2),
        ]);
        self.w.open("DEVICE_FN u32 packed_column(u64 group, u32 slot)");
        self.w.line(format!("const u32 k = (u32)(group % 2u) * {q}u + (slot < {q}u ? slot : {}u - slot);", 2 * q - 1));
        self.w.line(format!("if (slot < {q}u) return k;"));
        self.w.line(format!("return k == 0 ? {}u : {p}u - k;", p / 2));
        self.w.close();
        self.w.open("DEVICE_FN u64 packed_row(u64 group, u32 slot)");
        self.w.line(format!("return (group / 2u) * {p}u + packed_column(group, slot);   /* the array, then the column */"));
        self.w.close();
        self.w.open("DEVICE_FN bool packed_writes(u64 group, u32 slot)");
        self.w.line("(void)group; (void)slot;");
        self.w.line("return true;   /* every column lies in one slot */");
        self.w.close();
        self.w.open("DEVICE_FN u32 packed_mirror(u64 group, u32 slot)");
        self.w.line("const u32 k = packed_column(group, slot);");
        self.w.line(format!("return k == 0 || 2 * k == {p}u ? slot : {}u - slot;", 2 * q - 1));
        self.w.close();
        self.packed_value_functions(io, columns);
    }

    /// C2R: `join_packed(a, b, r, sign)`, the value Z = (a + conj b) + i r (a - conj b) the
    /// complex inverse transform takes at coefficient g (a = X[g], b = X[m - g], r = w^-g),
    /// conjugated for the forward core where the transform is inverse.
    fn join_packed_function(&mut self) {
        self.w.open("DEVICE_FN cplx join_packed(cplx a, cplx b, cplx r, real sign)");
        self.w.line("const cplx e = MAKE_CPLX(a.x + b.x, a.y - b.y);   /* X[g] + conj X[m-g]: the even reals' spectrum */");
        self.w.line("const cplx o = cmul(r, MAKE_CPLX(a.x - b.x, a.y + b.y));   /* w^-g (X[g] - conj X[m-g]): the odd reals' */");
        self.w.line("return MAKE_CPLX(e.x - o.y, (e.y + o.x) * sign);   /* e + i o; inverse: conj on the way in */");
        self.w.close();
    }

    /// R2C: `write_packed(row, tables, k0, i, z, zm, sign, scale)`, which stores X[g] of value
    /// i of a row of column k0 from z = Z[g] and zm = Z[m - g] (and X[m] from Z[0]).
    fn write_packed_function(&mut self, io: &StridedIo, packed: &PackedAxis, columns: usize) {
        let n = packed.len / 2 / columns;
        let half = self.lit.real(0.5);
        let stride = io.output_stride;
        self.w.open(format!(
            "DEVICE_FN void write_packed(GLOBAL {}* row, const GLOBAL cplx* RESTRICT tables, u64 k0, u32 i, cplx z, cplx zm, real sign, real scale)",
            element_type(&io.output_values)
        ));
        self.w.line(format!("const u64 g = k0 + (u64)i * {columns}u;   /* the coefficient */"));
        self.w.line("z.y *= sign; zm.y *= sign;   /* Z[g], Z[m-g] (inverse: conj on the way out) */");
        self.w.line(format!("const cplx e = MAKE_CPLX((z.x + zm.x) * {half}, (z.y - zm.y) * {half});   /* (Z[g] + conj Z[m-g]) / 2: the even reals' spectrum */"));
        self.w.line(format!("const cplx o = MAKE_CPLX((z.x - zm.x) * {half}, (z.y + zm.y) * {half});   /* (Z[g] - conj Z[m-g]) / 2: i times the odd reals' */"));
        self.w.line("const cplx x = cadd(e, cmul_neg_i(cmul(packed_root(tables, g), o)));   /* X[g] = e - i w^g o */");
        self.w.line(format!("row[(u64)i * {stride}u] = cscale(x, scale);"));
        self.w.line(format!("if (g == 0) row[(u64){n}u * {stride}u] = MAKE_CPLX((z.x - z.y) * scale, 0);   /* X[m] = Re Z[0] - Im Z[0] */"));
        self.w.close();
    }

    /// `s`, `t`, `group` (the block, `group`: an expression), `rows` and `b` for a packed pass
    /// (see `block_rows`): every slot holds a row.
    pub(super) fn packed_block_rows(&mut self, group: &str) {
        let tpb = self.r.tuning.transforms_per_block;
        self.w.line(format!("const u32 s = tid % {tpb}u;   /* the block's slot this thread works on: neighbours take neighbouring rows */"));
        self.w.line(format!("const u32 t = tid / {tpb}u;   /* thread within the row's group */"));
        self.w.line(format!("const u64 group = {group};"));
        self.w.line(format!("const u32 rows = {tpb}u;   /* every slot holds a row (packed_column) */"));
        self.w.line("const u64 b = packed_row(group, s);   /* this thread's row */");
        self.w.line("(void)t; (void)b; (void)batch;");
    }

    /// C2R: the block's rows read and joined in one step: X[g] of a slot's column and X[m - g]
    /// of its mirror slot's (value n-1-i; column 0's (n - i) mod n, and X[m], its value n, for
    /// g = 0) straight from global memory, and the complex transform's input Z[g] and Z[m - g]
    /// into shared memory; one thread a pair, each thread on one slot below `pairs` (the
    /// block's threads are a multiple of its 2 pairs rows), so that the loads of all its
    /// trips can issue together. Columns 0 and P/2 are their own mirror images: their other
    /// copy (and the copies of column P/2 that pad the last tile) is not read, but zeroed, and
    /// never written. Against a load and then a join in shared memory, same-run A/B on an H100
    /// (sixty-sixth session): C2R 2^16..2^24 f32 1.02x-1.135x, f64 1.00x-1.07x.
    pub(super) fn load_join_packed_pairs(&mut self, io: &StridedIo, blocks: PackedBlocks) {
        let n = self.r.core.len();
        let PackedBlocks { columns: p, pairs, .. } = blocks;
        let threads = self.r.threads_per_block() as usize;
        assert_eq!(threads % pairs, 0, "a thread keeps its slot");
        let step = threads / pairs;
        let trips = n.div_ceil(step);
        let stride = io.input_stride;
        let at = |i: &str| format!("(u64)({i}) * {stride}u");
        self.w.comment(&[&format!("load and join: X[g] and X[m-g] into Z[g], Z[m-g], {step} threads a pair of slots")]);
        self.w.open_scope();
        self.w.line(format!("const u32 slot = tid % {pairs}u, other = {}u - slot, i0 = tid / {pairs}u;", 2 * pairs - 1));
        self.w.line("const u32 col = packed_column(group, slot);");
        self.w.line("const GLOBAL cplx* a_row = in + input_offset(packed_row(group, slot));");
        self.w.line("const GLOBAL cplx* x_row = in + input_offset(packed_row(group, other));   /* the mirror column (columns 0 and P/2: a copy) */");
        self.w.line(format!("const bool pair = col != 0 && 2 * col != {p}u;   /* the other slot holds the mirror column, not a copy */"));
        self.w.line("#pragma unroll");
        self.w.open(format!("for (u32 k = 0; k < {trips}u; ++k)"));
        self.w.line(format!("const u32 i = i0 + k * {step}u;"));
        self.w.open(if trips * step == n { String::new() } else { format!("if (i < {n}u)") });
        self.w.line(format!("const u32 ip = {};", Self::mirror_value(n, "col")));
        self.w.line(format!("cplx a = a_row[{}], x = x_row[{}];   /* X[m] (value n of column 0) beside X[0] */", at("i"), at(&format!("col == 0 && i == 0 ? {n}u : ip"))));
        self.w.line("if (col == 0 && i == 0) a.y = x.y = 0;   /* X[0] and X[m] are real: their imaginary parts are ignored */");
        self.w.line(format!("const cplx w = packed_root(tables, col + (u64)i * {p}u);   /* w^g */"));
        self.w.line("SH(slot, i) = join_packed(a, x, cconj(w), sign);");
        self.w.line("if (pair) SH(other, ip) = join_packed(x, a, MAKE_CPLX(-w.x, -w.y), sign);   /* w^-(m-g) = -w^g */");
        self.w.line("else SH(other, ip) = MAKE_CPLX(0, 0);   /* a copy: transformed, never written */");
        self.w.close();
        self.w.close();
        self.w.close();
        self.w.line("BARRIER();");
    }

    /// Where value i of a row of column `column` (an expression) finds Z[m - g] in its mirror
    /// slot's row of `n` values: at n - 1 - i, or for column 0 (its own mirror) at (n - i) mod n.
    fn mirror_value(n: usize, column: &str) -> String {
        format!("{column} == 0 ? ({n}u - i) % {n}u : {}u - i", n - 1)
    }

    /// R2C: the block's transformed rows written as X[g], each value with its mirror image
    /// (in the slot `mirror_slot` of a slot gives: for tiles of pairs, 2 pairs - 1 - slot).
    pub(super) fn store_packed_rows(&mut self, io: &StridedIo, mirror_slot: impl Fn(&str) -> String) {
        let n = self.r.core.len();
        let buffer = self.buffers.row;
        let output = io.output();
        self.w.comment(&["store: X[g] from Z[g] and Z[m-g] (the mirror slot's value n-1-i; column 0's (n-i) mod n)"]);
        let row = self.block_row("row");
        match row_start(&output, "output_offset", &row) {
            Some(start) => self.row_loop(n, |w| {
                w.line(format!("const u64 k0 = output_coefficient({row});"));
                w.line(format!(
                    "if (packed_writes(group, row)) write_packed(out + {start}, tables, k0, i, {}, {}, sign, scale);",
                    Self::sh(buffer, "row", "i"),
                    Self::sh(buffer, &mirror_slot("row"), &Self::mirror_value(n, "k0"))
                ));
            }),
            None => {
                self.w.line(format!("GLOBAL {}* out_row = out + output_offset(b);", element_type(&io.output_values)));
                self.w.line("const u64 k0 = output_coefficient(b);   /* the row's column */");
                self.w.line("const bool writes = packed_writes(group, s);");
                let (sh_here, sh_other) = (Self::sh(buffer, "s", "i"), Self::sh(buffer, &mirror_slot("s"), &Self::mirror_value(n, "k0")));
                self.own_row(n, self.r.tuning.threads_per_transform, |i| {
                    debug_assert_eq!(i, "i");
                    format!("if (writes) write_packed(out_row, tables, k0, i, {sh_here}, {sh_other}, sign, scale);")
                });
            }
        }
    }
}
