//! The kernel's global-memory side: `read_input` and `write_output`, the two device functions
//! that turn one element of a row into a value of the complex core and back (packing real
//! rows, rebuilding a half spectrum, Bluestein's chirps, the inverse's conjugation, scaling),
//! and the load and store phases that call them when the core does not (no direct_io). Real
//! transforms of even length may instead separate (R2C, store) or rebuild (C2R, load) their
//! half spectrum a pair of values at a time (`FftTuning::half_spectrum_pairs`).

use super::KernelWriter;
use crate::kernel::SourceWriter;
use crate::fft::problem::{FftKind, Precision};
use crate::fft::recipe::RealPacking;
use crate::fft::transform_core::Core;

impl KernelWriter<'_> {
    /// Defines `read_input(in, tables, row, j, c, sign)`: value i = j + c of the complex core's
    /// input for one row of the block, i < the core's region (Bluestein: zero beyond the
    /// transform length). Callers pass c as a literal: memory is addressed as a pointer at j
    /// plus c, so that the compiler folds c into the load's immediate offset (an index j + c
    /// computed in 32 bits cannot be, as it might wrap; that cost large codelets up to 25%).
    pub(super) fn read_input_function(&mut self) {
        let p = self.r.problem;
        let n = p.len;
        let (apart, half) = (p.row_elements().0, p.half_spectrum_len());
        let real_twiddles = self.tables.real_twiddles;
        let input = if p.kind == FftKind::R2C { "real" } else { "cplx" };
        self.w.comment(&["value i = j + c of the core's input in row `row` of the block, whose first row starts at `in`"]);
        self.w.open(format!(
            "DEVICE_FN cplx read_input(const GLOBAL {input}* in, const GLOBAL cplx* RESTRICT tables, u32 row, u32 j, u32 c, real sign)"
        ));
        self.w.line("(void)tables; (void)sign;");
        self.w.line("const u32 i = j + c;");
        self.w.line("(void)i;");
        if let Core::Bluestein { len, .. } = self.r.core {
            self.w.line(format!("if (i >= {len}u) return MAKE_CPLX(0, 0);   /* Bluestein's zero padding */"));
        }
        match (p.kind, self.r.packing) {
            (FftKind::C2C, _) if self.r.is_strided_grid() => {
                self.strided_grid_read(|at| format!("cplx v = in[{at}];"));
                self.w.line("v.y *= sign;   /* inverse: conj on the way in and out */");
            }
            (FftKind::R2C, RealPacking::HalfLength) if self.r.is_strided_grid() => {
                self.strided_grid_read(|at| format!("const cplx v = ((const GLOBAL cplx*)in)[{at}];   /* the reals as complex pairs */"));
            }
            (FftKind::C2C, _) => {
                self.w.line(format!("cplx v = (in + (row * {apart}u + j))[c];"));
                self.w.line("v.y *= sign;   /* inverse: conj on the way in and out */");
            }
            (FftKind::C2R, _) if self.r.is_strided_grid() => {
                self.strided_grid_read(|at| format!("const cplx v = cconj(in[{at}]);   /* the half spectrum, conjugated for the forward core */"));
            }
            (FftKind::C2R, _) if self.r.core.real_grid().is_some() => {
                self.w.comment(&["the half spectrum as it lies (the core's layout), conjugated for the forward core"]);
                self.w.line(format!("const cplx v = cconj((in + (row * {apart}u + j))[c]);"));
            }
            (FftKind::R2C, RealPacking::HalfLength) => {
                self.w.comment(&["z[i] = x[2i] + i x[2i+1]: the real row read as complex pairs"]);
                self.w.line(format!("const cplx v = ((const GLOBAL cplx*)in + (row * {}u + j))[c];", apart / 2));
            }
            (FftKind::R2C, _) => {
                self.w.line(format!("const cplx v = MAKE_CPLX((in + (row * {apart}u + j))[c], 0);"));
            }
            (FftKind::C2R, RealPacking::HalfLength) => {
                let m = n / 2;
                self.w.comment(&[
                    "Z[i] = (X[i] + conj X[m-i]) + i W^-i (X[i] - conj X[m-i]), W = e^{-2 pi i/N}: the spectrum",
                    "of z[j] = x[2j] + i x[2j+1]. The imaginary parts of X[0] and X[m] are ignored, as numpy does.",
                    "Conjugated: the forward core then computes the inverse.",
                ]);
                self.w.line(format!("const GLOBAL cplx* X = in + row * {apart}u;"));
                self.w.line("cplx a = (X + j)[c];");
                self.w.line(format!("cplx b = (X + ({m}u - j))[-(int)c];   /* X[m - i] */"));
                rebuild_difference(&mut self.w, &format!("(tables + j)[{real_twiddles}u + c]"));
                self.w.line(format!("const cplx v = {REBUILT};"));
            }
            (FftKind::C2R, _) => {
                self.w.comment(&["the full Hermitian spectrum, conjugated for the forward core"]);
                self.w.line(format!("const GLOBAL cplx* X = in + row * {apart}u;"));
                self.w.line(format!("cplx v = i < {half}u ? cconj((X + j)[c]) : (X + ({n}u - j))[-(int)c];   /* X[N - i] */"));
                self.w.line("if (i == 0) v.y = 0;");
            }
        }
        match self.r.core {
            // Over the whole row, the table read at pointer j plus the literal c (see above).
            Core::Bluestein { len, factor, .. } if factor == len => {
                self.w.line(format!("return cmul(v, (tables + j)[{}u + c]);   /* times the chirp */", self.tables.chirp))
            }
            Core::Bluestein { len, factor, .. } => self.return_chirped("i", len / factor),
            Core::Stockham { .. } | Core::Rader { .. } | Core::Grid { .. } => self.w.line("return v;"),
        };
        self.w.close();
    }

    /// `return v` times Bluestein's chirp for the core's input value `i` (an expression): with
    /// `lines` DFTs on a factor, value i / lines of DFT i % lines. For read_input here and
    /// strided passes' read_value.
    pub(super) fn return_chirped(&mut self, i: &str, lines: usize) -> &mut crate::kernel::SourceWriter {
        let chirp = self.tables.chirp;
        match lines {
            1 => self.w.line(format!("return cmul(v, tables[{chirp}u + {i}]);   /* times the chirp */")),
            m => self.w.line(format!("return cmul(v, tables[{chirp}u + {i} / {m}u]);   /* times the chirp: {i} is value {i} / {m} of DFT {i} % {m} */")),
        }
    }

    /// Whether the kernel writes its results element by element (`write_output`); R2C of even
    /// length instead separates its packed spectrum, which needs values i and m-i together
    /// (a real grid separates its lines in shared memory, before its other axes).
    pub(super) fn writes_elementwise(&self) -> bool {
        !(self.r.problem.kind == FftKind::R2C && self.r.packing == RealPacking::HalfLength) || self.r.core.real_grid().is_some()
    }

    /// Defines `write_output(out, tables, row, j, c, v, sign, scale)`: stores value i = j + c <
    /// the core length of the core's (final) output for one row; c a literal, as for read_input.
    pub(super) fn write_output_function(&mut self) {
        let p = self.r.problem;
        let (apart, half) = (p.row_elements().1, p.half_spectrum_len());
        let output = if p.kind == FftKind::C2R { "real" } else { "cplx" };
        self.w.comment(&["stores value i = j + c of the core's output in row `row` of the block (first row at `out`), scaled"]);
        self.w.open(format!(
            "DEVICE_FN void write_output(GLOBAL {output}* out, const GLOBAL cplx* RESTRICT tables, u32 row, u32 j, u32 c, cplx v, real sign, real scale)"
        ));
        self.w.line("(void)tables; (void)sign;");
        match (p.kind, self.r.packing) {
            (FftKind::C2C, _) if self.r.is_strided_grid() => self.strided_grid_write(|at| format!("out[{at}] = MAKE_CPLX(v.x * scale, v.y * (sign * scale));")),
            (FftKind::R2C, _) if self.r.is_strided_grid() => {
                self.strided_grid_write(|at| format!("out[{at}] = cscale(v, scale);   /* the half spectrum, separated in shared memory */"))
            }
            (FftKind::C2C, _) => self.w.line(format!("(out + (row * {apart}u + j))[c] = MAKE_CPLX(v.x * scale, v.y * (sign * scale));")),
            (FftKind::R2C, _) if self.r.core.real_grid().is_some() => {
                self.w.comment(&["the half spectrum, separated in shared memory: the core's layout"]);
                self.w.line(format!("(out + (row * {apart}u + j))[c] = cscale(v, scale);"))
            }
            (FftKind::C2R, RealPacking::HalfLength) if self.r.is_strided_grid() => {
                self.strided_grid_write(|at| format!("((GLOBAL cplx*)out)[{at}] = MAKE_CPLX(v.x * scale, -v.y * scale);   /* x[2i] + i x[2i+1] = conj of the core's output */"))
            }
            (FftKind::C2R, RealPacking::HalfLength) => {
                self.w.comment(&["x[2i] + i x[2i+1] = conj of the core's output"]);
                self.w.line(format!("((GLOBAL cplx*)out + (row * {}u + j))[c] = MAKE_CPLX(v.x * scale, -v.y * scale);", apart / 2))
            }
            (FftKind::C2R, _) => self.w.line(format!("(out + (row * {apart}u + j))[c] = v.x * scale;")),
            (FftKind::R2C, _) => {
                self.w.comment(&["odd N: the first N/2+1 values of the full spectrum"]);
                self.w.line(format!("if (j + c < {half}u) (out + (row * {apart}u + j))[c] = cscale(v, scale);"))
            }
        };
        self.w.close();
    }

    /// A strided grid's (`FftRecipe::design_strided_grid`) side: (stride, run) such that value i
    /// lies at (i / run) * stride + i % run. Its first axis strides as the pass's layout says,
    /// the rest is a contiguous run (the row; a real grid's reals side: the reals as pairs; its
    /// half-spectrum side: the m + 1 values of each row).
    fn strided_grid_side(&self, input: bool) -> (usize, usize) {
        let io = self.r.io.as_ref().expect("a strided grid has a layout");
        let run = self.r.strided_run();
        match (self.r.core.real_grid(), input) {
            (None, true) => (io.input_stride, run),
            (None, false) => (io.output_stride, run),
            (Some(FftKind::R2C), true) => (io.input_stride / 2, run / 2),
            (Some(_), true) => (io.input_stride, run / 2 + 1),
            (Some(FftKind::R2C), false) => (io.output_stride, run / 2 + 1),
            (Some(_), false) => (io.output_stride / 2, run / 2),
        }
    }

    /// read_input's load of a strided grid: the line `load` makes of value i's index.
    fn strided_grid_read(&mut self, load: impl FnOnce(&str) -> String) {
        let (stride, run) = self.strided_grid_side(true);
        self.w.comment(&[&format!("a strided grid: its first axis {stride} apart, the rest a contiguous run of {run} values")]);
        self.w.line(load(&strided_grid_index(stride, run)));
    }

    /// write_output's store of a strided grid: the line `store` makes of value i's index, after
    /// the four-step twiddle where the pass has one (value k of the grid's first axis times
    /// e^(-2 pi i k m/N), m the block's `step_index`; C2R's is on the pass before its grid).
    fn strided_grid_write(&mut self, store: impl FnOnce(&str) -> String) -> &mut SourceWriter {
        let (stride, run) = self.strided_grid_side(false);
        let (at, line) = (strided_grid_index(stride, run), strided_grid_line(run));
        if self.grid_row_twiddles_len().is_some() {
            self.w.comment(&["the four-step twiddle: applied by the grid's last pass (grid_tw)"]);
        } else if let Some(tw) = self.r.io.as_ref().and_then(|io| io.twiddle) {
            assert!(self.r.core.real_grid() != Some(FftKind::C2R), "C2R's four-step twiddle is on the pass before its grid");
            self.w.comment(&["four-step: value k of the grid's first axis times e^(-2 pi i k m/N), m this block's step_index (one grid a block)"]);
            self.w.line(format!("v = cmul(v, step_twiddle(tables, (step_index(GROUP_ID()) * ({line})) % {}u));", tw.len));
        }
        self.w.line(store(&at))
    }

    /// The load phase: the block's rows into shared memory through `read_input`.
    pub(super) fn load(&mut self) {
        if !self.r.reads_input_elementwise() {
            return self.load_half_spectrum_pairs();
        }
        // Bluestein's rows load with their zero padding; Rader's spare slots are not loaded;
        // nor are an R2C grid's (its input is m values a line, see `grid_line_slot`).
        let (count, slot) = match self.r.core {
            Core::Rader { len, .. } => (len, "i".to_string()),
            _ if self.r.core.real_grid() == Some(FftKind::R2C) => (self.r.core.len(), self.grid_line_slot("i")),
            _ => (self.r.core.region(), "i".to_string()),
        };
        self.w.comment(&["load: the block's rows into shared memory"]);
        self.row_loop(count, |w| {
            w.line(format!("SH(row, {slot}) = read_input(in_rows, tables, row, i, 0u, sign);"));
        });
    }

    /// A real grid's shared slot for value `i` (an expression) of its core's m values a line
    /// (the reals as complex pairs): lines lie m + 1 apart, so slot i + i / m.
    fn grid_line_slot(&self, i: &str) -> String {
        let m = self.grid_line_len();
        format!("{i} + {i} / {m}u")
    }

    /// A real grid's halved-axis core length m (values per line of the reals as pairs).
    fn grid_line_len(&self) -> usize {
        assert!(self.r.core.real_grid().is_some(), "only real grids have half-spectrum lines");
        self.r.real_len() / 2
    }

    /// The store phase: the block's rows from shared memory to global memory, scaled.
    pub(super) fn store(&mut self) {
        let p = self.r.problem;
        self.w.comment(&["store: coalesced writes of the block's rows, scaled"]);
        let buffer = self.buffers.row;
        if self.writes_elementwise() {
            let (count, slot) = match self.r.core.real_grid() {
                Some(FftKind::R2C) => (self.r.core.region(), "i".to_string()),
                Some(_) => (self.r.core.len(), self.grid_line_slot("i")),
                None if p.kind == FftKind::R2C => (p.half_spectrum_len(), "i".to_string()),
                None => (self.r.core.len(), "i".to_string()),
            };
            self.store_loop(count, |w| {
                w.line(format!("write_output(out_rows, tables, row, i, 0u, {}, sign, scale);", Self::sh(buffer, "row", &slot)));
            });
            return;
        }
        if self.r.tuning.half_spectrum_pairs {
            self.store_half_spectrum_pairs();
        } else {
            self.store_half_spectrum_elementwise();
        }
    }

    /// R2C's store phase with `half_spectrum_pairs`: X[i] and X[m-i] of the half spectrum of
    /// N = 2m points from Z[i] and Z[m-i] of the core's output, by one thread.
    fn store_half_spectrum_pairs(&mut self) {
        let p = self.r.problem;
        let m = p.len / 2;
        let apart = p.row_elements().1;
        let (buffer, real_twiddles, half_lit) = (self.buffers.row, self.tables.real_twiddles, self.lit.real(0.5));
        // Pairs i = 0..=m/2: X[m-i] comes from the same two values and twiddle as X[i], so each
        // value of the core is read once (pair 0 is X[0] and X[m]; for even m, pair m/2 is one
        // value).
        self.row_loop(m / 2 + 1, |w| {
            w.comment(&[
                "X[i] = E + W^i O and X[m-i] = conj(E - W^i O), W = e^{-2 pi i/N}, with",
                "E = (Z[i] + conj Z[m-i])/2 and O = -i (Z[i] - conj Z[m-i])/2 (indices mod m)",
            ]);
            separate_even(w, &Self::sh(buffer, "row", "i"), &Self::sh(buffer, "row", &format!("(i == 0 ? 0 : {m}u - i)")), &half_lit);
            separate_odd(w, &format!("tables[{real_twiddles}u + i]"), &half_lit);
            w.line(format!("GLOBAL cplx* X = out_rows + row * {apart}u;"));
            w.line("X[i] = cscale(cadd(even, odd), scale);");
            w.line(format!("if (2 * i != {m}u) X[{m}u - i] = cscale(cconj(csub(even, odd)), scale);"));
        });
    }

    /// R2C's store phase without `half_spectrum_pairs`: each X[i], i = 0..=m, from Z[i] and
    /// Z[m-i] on its own (consecutive threads write consecutive values of a row).
    fn store_half_spectrum_elementwise(&mut self) {
        let p = self.r.problem;
        let m = p.len / 2;
        let (apart, half) = (p.row_elements().1, p.half_spectrum_len());
        let (buffer, real_twiddles, half_lit) = (self.buffers.row, self.tables.real_twiddles, self.lit.real(0.5));
        self.store_loop(half, |w| {
            w.comment(&["X[i] = E + W^i O with E = (Z[i] + conj Z[m-i])/2, O = -i (Z[i] - conj Z[m-i])/2"]);
            separate_even(w, &Self::sh(buffer, "row", &format!("(i == {m}u ? 0 : i)")), &Self::sh(buffer, "row", &format!("(i == 0 ? 0 : {m}u - i)")), &half_lit);
            w.line(format!("const cplx odd = cmul_neg_i(cscale(csub(a, b), {half_lit}));"));
            w.line(format!("const cplx x = cadd(even, cmul(odd, tables[{real_twiddles}u + i]));"));
            w.line(format!("out_rows[row * {apart}u + i] = cscale(x, scale);"));
        });
    }

    /// The load phase of C2R of even length N = 2m (see `FftRecipe::reads_input_elementwise`): per pair i =
    /// 0..=m/2, X[i] and X[m-i] from global memory give values i and m-i of the packed spectrum
    /// Z (pair 0 gives value 0 alone, from X[0] and X[m]; for even m, pair m/2 one value).
    /// In a block of one row, trip k's pair is i = tid + kT (T threads), so its twiddle W^i is
    /// W^tid, read once, times the constant W^kT: no table read a pair.
    fn load_half_spectrum_pairs(&mut self) {
        if self.r.loads_pairs_by_row() {
            return self.load_half_spectrum_pairs_by_row();
        }
        let p = self.r.problem;
        let m = p.len / 2;
        let apart = p.row_elements().0;
        let real_twiddles = self.tables.real_twiddles;
        let threads = self.r.threads_per_block() as usize;
        // (W^tid is read for every thread: the table holds m + 1 twiddles.)
        let stepped = self.r.tuning.transforms_per_block == 1 && threads <= m;
        self.w.comment(&["load: the block's rows into shared memory, the packed spectrum rebuilt a pair at a time"]);
        if stepped {
            let trips = self.row_loop_trips(m / 2 + 1);
            let angles: Vec<f64> = (0..trips).map(|k| -2.0 * std::f64::consts::PI * ((k * threads) % p.len) as f64 / p.len as f64).collect();
            let list = |f: fn(f64) -> f64| angles.iter().map(|&a| self.lit.real(f(a))).collect::<Vec<_>>().join(", ");
            self.w.line(format!("const cplx w_tid = tables[{real_twiddles}u + tid];   /* W^tid, W = e^{{-2 pi i/N}} */"));
            self.w.line(format!("const real step_re[{trips}] = {{{}}};   /* W^kT, trip k's step from W^tid */", list(f64::cos)));
            self.w.line(format!("const real step_im[{trips}] = {{{}}};", list(f64::sin)));
        }
        let fetch = |w: &mut SourceWriter| {
            w.line(format!("const GLOBAL cplx* X = in_rows + row * {apart}u;"));
            w.line("xa[kk] = X[i];");
            w.line(format!("xb[kk] = X[{m}u - i];"));
            if !stepped {
                w.line(format!("xw[kk] = tables[{real_twiddles}u + i];"));
            }
        };
        let body = |w: &mut SourceWriter| {
            w.comment(&[
                "with a = X[i], b = conj X[m-i] and d = (a - b) W^-i, W = e^{-2 pi i/N}: Z[i] = a + b + i d,",
                "Z[m-i] = conj(a + b - i d), the spectrum of z[j] = x[2j] + i x[2j+1]. Conjugated: the forward",
                "core then computes the inverse. The imaginary parts of X[0] and X[m] are ignored, as numpy does.",
            ]);
            w.line("cplx a = xa[kk];");
            w.line("cplx b = xb[kk];");
            rebuild_difference(w, if stepped { "cmul(w_tid, MAKE_CPLX(step_re[k], step_im[k]))" } else { "xw[kk]" });
            w.line(format!("SH(row, i) = {REBUILT};"));
            w.line(format!("if (i != 0 && 2 * i != {m}u) SH(row, {m}u - i) = {REBUILT_MIRROR};"));
        };
        let arrays: &[&str] = if stepped { &["xa", "xb"] } else { &["xa", "xb", "xw"] };
        self.row_loop_fetched(m / 2 + 1, arrays, fetch, body);
    }

    /// C2R's pair load in blocks of several rows, where `FftRecipe::loads_pairs_by_row` says
    /// (pair_load.rs): thread t of row s takes pairs i = t + q w (w threads a row), so each of
    /// a trip's three loads, X[i], X[m-i] and W^i, is a pointer set once plus a literal. The
    /// flat loop (`row_loop_fetched`) splits each trip's e into row and i, addresses it anew
    /// in 64 bits and branches around it: C2R 1690's load phase took 431 SASS instructions
    /// (197 integer, 45 control), 201 (52, 7) so; the kernel 1348 -> 1111 (`scripts/sass.py
    /// --phases`). Nsight Compute had C2R 572 and 1690 issue-bound (78-80% of issue slots
    /// busy, 1.25-1.38x their R2C's instructions). Rows past the batch (the last block's)
    /// read its last row again, so the loads need no branch; their stores are skipped.
    fn load_half_spectrum_pairs_by_row(&mut self) {
        let p = self.r.problem;
        let m = p.len / 2;
        let pairs = m / 2 + 1;
        let apart = p.row_elements().0;
        let w = self.r.tuning.threads_per_transform as usize;
        let trips = pairs.div_ceil(w);
        let run = self.fetched_run(trips);
        self.w.comment(&[&format!("load: the block's rows into shared memory, the packed spectrum rebuilt a pair at a time: pairs i = t + {w} q of row s")]);
        self.w.open("");
        self.w.line("const u32 row = s < rows ? s : rows - 1;   /* the block's rows past the batch read its last one again */");
        self.w.line(format!("const GLOBAL cplx* Xa = in_rows + (row * {apart}u + t);   /* X[i] */"));
        self.w.line(format!("const GLOBAL cplx* Xb = in_rows + (row * {apart}u + {m}u - t);   /* X[m - i] */"));
        self.w.line(format!("const GLOBAL cplx* Wi = tables + ({}u + t);   /* W^i */", self.tables.real_twiddles));
        for first in (0..trips).step_by(run) {
            let run: Vec<usize> = (first..trips.min(first + run)).collect();
            self.w.open("");
            self.w.line(format!("cplx xa[{0}], xb[{0}], xw[{0}];   /* these trips' loads, all issued before any is used */", run.len()));
            for (kk, &q) in run.iter().enumerate() {
                let c = q * w;
                if c + w <= pairs {
                    self.w.line(format!("xa[{kk}] = Xa[{c}]; xb[{kk}] = Xb[{}]; xw[{kk}] = Wi[{c}];", super::mirror::negated(c)));
                } else {
                    // The last trip, part full: its threads past the last pair read that pair again.
                    let last = pairs - 1 - c;
                    self.w.line(match last {
                        0 => format!("const i32 c{q} = {c} - (i32)t;   /* the last pair */"),
                        _ => format!("const i32 c{q} = {c} + (i32)(t < {last}u ? t : {last}u) - (i32)t;   /* pair {c} + t, or the last */"),
                    });
                    self.w.line(format!("xa[{kk}] = Xa[c{q}]; xb[{kk}] = *(Xb - c{q}); xw[{kk}] = Wi[c{q}];"));
                }
            }
            self.w.line("LOADS_ISSUED();");
            self.w.open("if (s < rows)");
            for (kk, &q) in run.iter().enumerate() {
                let c = q * w;
                let partial = c + w > pairs;
                self.w.open(if partial { format!("if (t < {}u)", pairs - c) } else { String::new() });
                self.w.line(format!("const u32 i = t + {c}u;"));
                self.w.line(format!("cplx a = xa[{kk}];"));
                self.w.line(format!("cplx b = xb[{kk}];"));
                rebuild_difference_from(&mut self.w, &format!("xw[{kk}]"), q == 0);
                self.w.line(format!("SH(s, i) = {REBUILT};"));
                // X[m - i]'s own slot, but for i = 0 (Z[0] from X[0] and X[m]) and i = m/2.
                let mut skip = Vec::new();
                if q == 0 {
                    skip.push("t != 0".to_string());
                }
                if m.is_multiple_of(2) && (c..c + w).contains(&(m / 2)) {
                    skip.push(format!("t != {}u", m / 2 - c));
                }
                let store = format!("SH(s, {m}u - i) = {REBUILT_MIRROR};");
                self.w.line(if skip.is_empty() { store } else { format!("if ({}) {store}", skip.join(" && ")) });
                self.w.close();
            }
            self.w.close();
            self.w.close();
        }
        self.w.close();
    }

    /// An R2C grid, after its halved axis: each line's core output Z (m values) separated in
    /// place into its half spectrum X (m + 1 values, X[m] in the line's spare slot), a pair
    /// i, m-i per thread (pair 0: X[0] and X[m]), unscaled: the other axes follow.
    pub(super) fn separate_grid_lines(&mut self) {
        let m = self.grid_line_len();
        let lines = self.r.core.len() / m;
        let (buffer, real_twiddles, half_lit) = (self.buffers.row, self.tables.real_twiddles, self.lit.real(0.5));
        self.w.comment(&[&format!("the halved axis's {lines} lines separated in place: X[i] and X[m-i] of each line's half spectrum")]);
        self.grid_pair_loop(m, buffer, |w, slots| {
            w.comment(&["X[i] = E + W^i O and X[m-i] = conj(E - W^i O), E and O as in the R2C store; X[m] from pair 0"]);
            separate_even(w, &slots.value, &slots.mirror_or_value, &half_lit);
            separate_odd(w, &format!("tables[{real_twiddles}u + i]"), &half_lit);
            w.line(format!("{} = cadd(even, odd);", slots.value));
            w.line(format!("if (2 * i != {m}u) {} = cconj(csub(even, odd));", slots.mirror));
        });
        self.w.line("BARRIER();");
    }

    /// A C2R grid, before its halved axis: each line's half spectrum (conjugated, the other
    /// axes run) rebuilt in place into its core input Z (the m first slots), a pair i, m-i
    /// per thread, as `load_half_spectrum_pairs` does from global memory.
    pub(super) fn rebuild_grid_lines(&mut self) {
        let m = self.grid_line_len();
        let lines = self.r.core.len() / m;
        let (buffer, real_twiddles) = (self.buffers.row, self.tables.real_twiddles);
        self.w.comment(&[&format!("the halved axis's {lines} lines rebuilt in place: Z[i] and Z[m-i] of each line's packed spectrum")]);
        self.grid_pair_loop(m, buffer, |w, slots| {
            w.comment(&["a = X[i], b = X[m-i], conjugated back (the other axes ran forward on conj X); then as C2R's load"]);
            w.line(format!("cplx a = cconj({});", slots.value));
            w.line(format!("cplx b = cconj({});", slots.mirror));
            rebuild_difference(w, &format!("tables[{real_twiddles}u + i]"));
            w.line(format!("{} = {REBUILT};", slots.value));
            w.line(format!("if (i != 0 && 2 * i != {m}u) {} = {REBUILT_MIRROR};", slots.mirror));
        });
        self.w.line("BARRIER();");
    }

    /// A loop over the pairs i = 0..=m/2 of every line of the block's real grids, in shared
    /// buffer `buffer`; `body` gets the pair `i` and its slots (`PairSlots`). Each thread reads
    /// and writes its pair's slots only.
    fn grid_pair_loop(&mut self, m: usize, buffer: usize, body: impl FnOnce(&mut SourceWriter, &PairSlots)) {
        let pairs = m / 2 + 1;
        let lines = self.r.core.len() / m;
        let threads = self.r.threads_per_block() as usize;
        let pad_period = self.r.tuning.pad_shift.map_or(1, |s| 1usize << s);
        let f32 = self.r.problem.precision == Precision::F32;
        if f32 && self.r.tuning.transforms_per_block == 1 && threads.is_multiple_of(pad_period) && pairs >= threads {
            return self.grid_pair_loop_by_line(m, buffer, lines, threads, body);
        }
        self.row_loop(lines * pairs, |w| {
            w.line(format!("const u32 line = i / {pairs}u;"));
            w.line(format!("const u32 at = line * {}u;   /* the line's first slot */", m + 1));
            w.line(format!("const u32 pair = i - line * {pairs}u;"));
            w.open("");
            w.line("const u32 i = pair;");
            let slots = PairSlots {
                value: Self::sh(buffer, "row", "at + i"),
                mirror: Self::sh(buffer, "row", &format!("at + {m}u - i")),
                mirror_or_value: Self::sh(buffer, "row", &format!("at + (i == 0 ? 0 : {m}u - i)")),
            };
            body(w, &slots);
            w.close();
        });
    }

    /// `grid_pair_loop` in a block of one grid whose threads T are a multiple of the padding
    /// period and at most a line's pairs (so that only the last trip runs part-empty; 3D grids
    /// of many short lines keep the flat loop): thread t takes pairs i = t + kT of every line.
    /// Its two slots in each line, PAD(at + t) and PAD(at + m - t), are padded once; trip k's
    /// are those plus and minus k(T + T/period), a literal, since kT carries whole periods.
    /// A flat loop over lines x pairs divided each trip's index by m/2 + 1 and padded both
    /// slots at every pair (R2C f32 1024^2's [2, 1024] grid: 1492 SASS instructions, 483 of
    /// them integer; 1386 and 361 so). Same-run A/B on an H200 (seventy-fifth session): C2R
    /// f32 2048^2 1.045x, the other f32 2D cases 1.000x-1.006x. f64's grids, with fewer
    /// instructions too, ran 0.984x-1.004x (the [4, 2048] and [4, 4096] ones 0.984x-0.999x):
    /// they keep the flat loop.
    fn grid_pair_loop_by_line(&mut self, m: usize, buffer: usize, lines: usize, threads: usize, body: impl FnOnce(&mut SourceWriter, &PairSlots)) {
        let pairs = m / 2 + 1;
        let trips = pairs.div_ceil(threads);
        let trip_slots = threads + self.r.tuning.pad_shift.map_or(0, |s| threads >> s);
        let base = self.buffer_offset(buffer);
        let each_line = |slot: &dyn Fn(usize) -> String| (0..lines).map(|l| format!("{base}PAD({})", slot(l * (m + 1)))).collect::<Vec<_>>().join(", ");
        self.w.line(format!("const u32 slot0[{lines}] = {{{}}};   /* pair tid's value in each line */", each_line(&|at| format!("{at}u + tid"))));
        self.w.line(format!("const u32 mirror0[{lines}] = {{{}}};   /* its mirror m - tid (X[m] for pair 0) */", each_line(&|at| format!("{}u - tid", at + m))));
        self.w.line("#pragma unroll");
        self.w.open(format!("for (u32 k = 0; k < {trips}u; ++k)"));
        self.w.line(format!("const u32 i = tid + k * {threads}u;"));
        self.w.open(format!("if (k < {}u || i < {pairs}u)", pairs / threads));
        self.w.line("#pragma unroll");
        self.w.open(format!("for (u32 line = 0; line < {lines}u; ++line)"));
        let slots = PairSlots {
            value: format!("sh[slot0[line] + k * {trip_slots}u]"),
            mirror: format!("sh[mirror0[line] - k * {trip_slots}u]"),
            mirror_or_value: format!("sh[i == 0 ? slot0[line] : mirror0[line] - k * {trip_slots}u]"),
        };
        body(&mut self.w, &slots);
        self.w.close();
        self.w.close();
        self.w.close();
    }
}

/// The shared-memory slots of a real grid's pair i (`grid_pair_loop`): value i, value m - i
/// (X[m] for i = 0), and value m - i or, for i = 0, value 0 (Z[0] is its own mirror).
struct PairSlots {
    value: String,
    mirror: String,
    mirror_or_value: String,
}

/// R2C's separation, the lines every separating form shares: `a` = Z[i] and `b` = conj Z[m-i]
/// (Z[0] for i = 0) from the value expressions `a` and `mirror`, and `even` = E = (a + b)/2 of
/// X[i] = E + W^i O; `half` is the literal 0.5.
pub(super) fn separate_even(w: &mut SourceWriter, a: &str, mirror: &str, half: &str) {
    w.line(format!("const cplx a = {a};"));
    w.line(format!("const cplx b = cconj({mirror});"));
    w.line(format!("const cplx even = cscale(cadd(a, b), {half});"));
}

/// After `separate_even`: `odd` = W^i O, W^i read at `twiddle`, so that X[i] = even + odd and
/// X[m-i] = conj(even - odd).
pub(super) fn separate_odd(w: &mut SourceWriter, twiddle: &str, half: &str) {
    w.line(format!("const cplx odd = cmul(cmul_neg_i(cscale(csub(a, b), {half})), {twiddle});"));
}

/// After `rebuild_difference`: Z[i], conjugated for the forward core, and Z[m-i].
pub(super) const REBUILT: &str = "MAKE_CPLX(a.x + b.x - d.y, -(a.y + b.y + d.x))";
pub(super) const REBUILT_MIRROR: &str = "MAKE_CPLX(a.x + b.x + d.y, a.y + b.y - d.x)";

/// C2R's rebuild, the lines both load forms share: given `a` = X[i] and `b` = X[m-i] as read,
/// zeroes the imaginary parts of X[0] and X[m] (numpy ignores them), conjugates b, and defines
/// d = (a - b) W^-i with W^i read at `twiddle`.
pub(super) fn rebuild_difference(w: &mut SourceWriter, twiddle: &str) {
    rebuild_difference_from(w, twiddle, true)
}

/// `rebuild_difference`, where `may_be_first` says whether i can be 0 (else the check on X[0]
/// and X[m] is left out).
fn rebuild_difference_from(w: &mut SourceWriter, twiddle: &str, may_be_first: bool) {
    if may_be_first {
        w.line("if (i == 0) { a.y = 0; b.y = 0; }");
    }
    w.line("b.y = -b.y;");
    w.line(format!("const cplx d = cmul(csub(a, b), cconj({twiddle}));"));
}

/// Value i = j + c's index on a strided grid's side, (i / run) * stride + i % run, as j's
/// part plus c's. A butterfly's values lie on one line of the axis its pass transforms, j
/// the first: along a later axis inside one run, along the first axis a multiple of the
/// run apart. So value i lies on line j / run + c / run at j % run + c % run: j's division
/// is done once for the butterfly's values, and c's part (c a literal) folds into the
/// access's offset, where dividing i itself cost each access five integer instructions
/// (R2C's [2, 1024] real grid: 839 integer instructions beside 843 float ones, 600 so).
/// Same-run A/B on an H200 (seventy-first session): C2C f32 2048^2 1.051x, 4096^2 1.043x,
/// R2C 1024^2 1.056x, 2048^2 1.032x, f64 1024^2 1.044x, C2R 1024^2 1.069x, 3D C2C 128^3
/// 1.117x. R2C's [4, 4096] real grid (513 threads) took 64 registers so instead of 56
/// (0.917x alone): it runs under a launch bound of two blocks
/// (`FftRecipe::design_strided_grid`), 1.033x so (seventy-second session).
fn strided_grid_index(stride: usize, run: usize) -> String {
    format!("(u64)(j / {run}u) * {stride}u + j % {run}u + ((u64)(c / {run}u) * {stride}u + c % {run}u)")
}

/// `strided_grid_index`'s line of value i.
fn strided_grid_line(run: usize) -> String {
    format!("j / {run}u + c / {run}u")
}
