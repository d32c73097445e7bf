//! Kernel source for an [`FftRecipe`]: one kernel per plan, both directions.
//!
//! Every kernel has the same three phases. A block owns `transforms_per_block` rows:
//! 1. load: coalesced reads of the block's rows into shared memory (packing real rows, or
//!    rebuilding a half spectrum, on the way in);
//! 2. core: each group of `threads_per_transform` threads transforms its row in shared memory
//!    (Stockham passes; or Bluestein's chirp, convolution and chirp);
//! 3. store: coalesced writes from shared memory (separating a packed real spectrum on the
//!    way out), scaled.
//!
//! With direct_io the core's first pass does the load (not Rader's, which gathers its input
//! from shared memory) and its last pass the store, sparing trips through shared memory.
//! Either way each element is read from and written to global memory once. The core always
//! computes the forward transform: an inverse is conj(forward(conj(x))), and the
//! conjugations ride on the load and store (`sign` = -1 flips the imaginary parts).
//!
//! io.rs writes the global-memory side (one element in, one element out), passes.rs the core,
//! mirror.rs the passes that read or write a real transform's half spectrum themselves.

mod cluster;
mod io;
mod mirror;
mod packed;
mod passes;
mod strided;

pub use strided::interleaved_stride;
pub(crate) use strided::{batch_dim_index, offset_function};

use self::passes::{Sink, Source};
use super::codelet::{codelet_function, CodeletSplit, Literal, RaderCodelets};
use super::factor::gcd;
use super::problem::{FftKind, Precision};
use super::recipe::{FftRecipe, RealPacking, TwiddleSource};
use super::transform_core::{Core, Stage};
use super::tables::RootDigits;
use crate::kernel::{KernelSource, SourceWriter};

/// Offsets of the tables inside the plan's one table buffer, in complex values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableLayout {
    /// e^{-2 pi i k/S} for the core's Stockham passes over the whole row, S =
    /// [`TableLayout::twiddle_period`] (none where Rader or Bluestein is all the row has).
    pub core_twiddles: usize,
    /// Rader and Bluestein: e^{-2 pi i k/L} for the passes of their convolutions, L =
    /// [`Core::convolution_len`].
    pub inner_twiddles: usize,
    /// e^{-2 pi i k/N}, k = 0..=N/2, for separating a half-length real transform.
    pub real_twiddles: usize,
    /// Bluestein's chirp (for DFTs of its factor's length), then its filter's spectrum.
    pub chirp: usize,
    pub filter: usize,
    /// Rader: the spectrum of its filter; the gather's and the scatter's indices, 16-bit
    /// values packed a butterfly's together (`tables::rader_index_tables`), each table
    /// starting on 16 bytes.
    pub rader_filter: usize,
    pub rader_gather: usize,
    pub rader_scatter: usize,
    /// Four-step twiddles e^{-2 pi i m/N}: a table per digit of m (`tables::RootDigits`).
    pub step_roots: usize,
    /// Bluestein over passes: the chirp e^{-pi i g^2/len} = e^{-2 pi i m/(2 len)}, m = g^2 mod
    /// 2 len, a table per digit of m; the filter's spectrum (conv_len values).
    pub pass_chirp_roots: usize,
    pub pass_filter: usize,
    /// A packed real side: e^{-2 pi i m/len} (len the reals' axis), a table per digit of m,
    /// for separating (R2C) or joining (C2R) the spectra of the even and odd reals.
    pub packed_roots: usize,
    pub total: usize,
}

impl TableLayout {
    pub fn of(recipe: &FftRecipe) -> Self {
        let mut at = 0;
        let mut take = |n: usize| {
            let start = at;
            at += n;
            start
        };
        let tabled = recipe.tuning.twiddles != TwiddleSource::Computed;
        let core = &recipe.core;
        let core_twiddles = take(if tabled && core.row_passes() { Self::twiddle_period(core) } else { 0 });
        let inner_twiddles = take(Self::inner_twiddle_count(recipe));
        let real_twiddles = take(if recipe.packing == RealPacking::HalfLength { recipe.real_len() / 2 + 1 } else { 0 });
        let (chirp, filter) = match core {
            Core::Bluestein { factor, conv_len, .. } => (take(*factor), take(*conv_len)),
            _ => (take(0), take(0)),
        };
        let (rader_filter, rader_gather, rader_scatter) = match core {
            Core::Rader { prime, inner, .. } => {
                let filter = take(prime - 1);
                // Read in 16-byte loads: at an f32 table's even entries (a cluster's pass A
                // starts its tables where pass B's end, so clusters take no Rader core).
                let values = super::tables::rader_index_table_values(*prime, inner[0], recipe.problem.precision);
                take(Self::rader_index_pad(filter + prime - 1, recipe.problem.precision));
                (filter, take(values), take(values))
            }
            _ => (take(0), take(0), take(0)),
        };
        let step_roots = take(recipe.io.as_ref().and_then(|io| io.twiddle_tables(recipe.problem.precision)).map_or(0, |d| d.entries()));
        let pass_chirp_roots = take(recipe.io.as_ref().and_then(|io| io.chirp_step()).map_or(0, |c| RootDigits::of(2 * c.len).entries()));
        let pass_filter = take(recipe.io.as_ref().and_then(|io| io.filter_step()).map_or(0, |c| c.conv_len));
        let packed_roots = take(recipe.io.as_ref().and_then(|io| io.packed()).map_or(0, |p| RootDigits::of(p.len).entries()));
        TableLayout {
            core_twiddles,
            inner_twiddles,
            real_twiddles,
            chirp,
            filter,
            rader_filter,
            rader_gather,
            rader_scatter,
            step_roots,
            pass_chirp_roots,
            pass_filter,
            packed_roots,
            total: at,
        }
    }

    /// Values `inner_twiddles` holds: the convolution's L roots where its passes read twiddles
    /// from tables; none by prime factors, whose passes take no twiddles
    /// (prime_factor_convolution.rs).
    pub fn inner_twiddle_count(recipe: &FftRecipe) -> usize {
        let tabled = recipe.tuning.twiddles != TwiddleSource::Computed;
        match recipe.core.convolution_len() {
            Some(l) if tabled && !recipe.convolution_by_prime_factors() => l,
            _ => 0,
        }
    }

    /// Padding values before Rader's index tables when the layout stands at `at`: one where
    /// an f32 table would start off 16 bytes.
    pub fn rader_index_pad(at: usize, precision: Precision) -> usize {
        usize::from(precision == Precision::F32 && at % 2 == 1)
    }

    /// Length whose roots of unity `core_twiddles` holds: that of the core's row (a grid: the
    /// least common multiple of its axes, which every axis's passes read at their own spacing).
    pub fn twiddle_period(core: &Core) -> usize {
        match core {
            Core::Grid { shape, .. } => shape.iter().fold(1, |l, &n| l / gcd(l, n) * n),
            _ => core.len(),
        }
    }

    /// Offset and period of the twiddles for the passes of `stage` (the period a multiple
    /// of its length). Stages as long as the convolution read its table (a row of that length
    /// would want the same roots).
    fn twiddles_of(&self, core: &Core, stage: &Stage) -> (usize, usize) {
        match core.convolution_len() {
            Some(l) if stage.len == l => (self.inner_twiddles, l),
            _ => (self.core_twiddles, Self::twiddle_period(core)),
        }
    }
}

/// The kernel's `real` and `cplx` types and MAKE_CPLX, for `precision`.
pub(crate) fn precision_types(w: &mut SourceWriter, precision: Precision) {
    let (real, cplx, make) = match precision {
        Precision::F32 => ("f32", "c32", "MAKE_C32"),
        Precision::F64 => ("f64", "c64", "MAKE_C64"),
    };
    w.line(format!("typedef {real} real;")).line(format!("typedef {cplx} cplx;"));
    w.line(format!("#define MAKE_CPLX(re, im) {make}(re, im)"));
}

/// Source of the plan's kernel; its one entry point is `recipe.kernel_name()`.
pub fn fft_source(recipe: &FftRecipe) -> KernelSource {
    let name = recipe.kernel_name();
    let body = match &recipe.cluster {
        Some(split) => cluster::cluster_kernel(recipe, split),
        None => KernelWriter::new(recipe).write(),
    };
    KernelSource { name: name.clone(), entry_points: vec![name], body }
}

/// The kernel's qualifier: its block size and, for CUDA, its launch bounds.
///
/// A minimum of 1 block resident is not the same as none: NVRTC then spends more registers,
/// and small transforms ran up to 30% slower on an H200; so only minimums above 1 are named.
/// Kernels whose largest codelet holds more values than the registers can (`spills_anyway`)
/// are declared without `__launch_bounds__` where their block is small enough that 255
/// registers a thread still launch: under the bound, ptxas (CUDA 13.0) sometimes gave such
/// a kernel 32 registers and a 14 KB stack (f64 rows of radix 59 and 61: 10 of the 2047
/// lengths 2..2048 ran 10-20x slower than cuFFT), where without it every one got 255 registers
/// and the 1-2 KB stack the others have (docs/BENCHMARKS.md, twenty-second session).
pub(super) fn kernel_declaration(r: &FftRecipe) -> String {
    let threads = r.threads_per_block();
    match r.tuning.launch_minimum() {
        Some(m) => format!("KERNEL_BLOCKS({threads}, {m})"),
        None if spills_anyway(r) && threads <= UNBOUNDED_MAX_THREADS => format!("KERNEL_BLOCK_UNBOUNDED({threads})"),
        None => format!("KERNEL_BLOCK({threads})"),
    }
}

/// Whether the values of the recipe's largest codelet alone take more than three quarters of
/// a thread's 255 registers (f64 radices of 48 and more; no f32 codelet is that large).
fn spills_anyway(r: &FftRecipe) -> bool {
    let words_per_value = super::recipe::complex_bytes(r.problem.precision) as usize / 4;
    let largest = r.core.codelet_radices().last().copied().unwrap_or(1);
    // largest x words_per_value registers > 3/4 of 255, in integers.
    4 * largest * words_per_value > 3 * 255
}

/// Largest block declared without launch bounds: 255 registers x 256 threads fit the 64K a
/// multiprocessor has, so such a kernel launches whatever ptxas gives it.
const UNBOUNDED_MAX_THREADS: u32 = 256;

struct KernelWriter<'a> {
    r: &'a FftRecipe,
    lit: Literal,
    tables: TableLayout,
    w: SourceWriter,
    buffers: Buffers,
    /// The values j may take in the butterfly being written, where `open_butterfly` knows
    /// them (j = t + q w, t < w) in an f32 pass of LITERAL_K_MIN_TRIPS trips or more:
    /// `butterfly` takes k = j mod ns without a division where they lie in one period of ns.
    butterfly_span: Option<std::ops::Range<usize>>,
}

/// Which shared buffer (0 or 1, see `FftTuning::ping_pong`) holds what, as the passes are
/// written: always 0 without ping-pong.
#[derive(Debug, Clone, Copy, Default)]
struct Buffers {
    /// The block's rows: loaded into 0, then each pass's output.
    row: usize,
    /// Rader: where the x[0] of each DFT waits (written by the first pass; see `x0_park`).
    x0: usize,
    /// Rader: X[0] of each DFT, in the spare slots after the row.
    spare: usize,
}

impl<'a> KernelWriter<'a> {
    fn new(r: &'a FftRecipe) -> Self {
        let lit = Literal { f64: r.problem.precision == Precision::F64 };
        KernelWriter { r, lit, tables: TableLayout::of(r), w: SourceWriter::new(), buffers: Buffers::default(), butterfly_span: None }
    }

    /// Value `i` of row `row` in shared buffer `buffer`.
    fn sh(buffer: usize, row: &str, i: &str) -> String {
        match buffer {
            0 => format!("SH({row}, {i})"),
            _ => format!("SH1({row}, {i})"),
        }
    }

    /// Value `i` + `c` of row `row` in shared buffer `buffer`, `c` a literal whose padding
    /// adds to i's (see `padded_rows` and passes.rs's `sh_plus`).
    fn sh_at(buffer: usize, row: &str, i: &str, c: usize) -> String {
        match buffer {
            0 => format!("SH_AT({row}, {i}, {c}u)"),
            _ => format!("SH1_AT({row}, {i}, {c}u)"),
        }
    }

    /// Where shared buffer `buffer` starts in `sh`, as a term of an index: "" for the first,
    /// "Nu + " for the second (ping-pong), N the first's values.
    fn buffer_offset(&self, buffer: usize) -> String {
        match buffer {
            0 => String::new(),
            _ => format!("{}u + ", self.r.buffer_values()),
        }
    }

    /// Whether the block's rows lie interleaved value by value in shared memory (strided
    /// kernels but grids), not one after another.
    fn rows_interleaved(&self) -> bool {
        self.r.io.is_some() && !self.r.is_strided_grid()
    }

    /// The padding shift of the block's rows in shared memory, where SH pads them:
    /// interleaved rows are never padded.
    fn padded_rows(&self) -> Option<u32> {
        self.r.tuning.pad_shift.filter(|_| !self.rows_interleaved())
    }

    fn write(mut self) -> String {
        let r = self.r;
        self.w.comment(&[&r.describe_kernel(), "Generated by coalesce (src/fft/codegen/); see there for the structure."]);
        self.types();
        let interleaved = self.rows_interleaved();
        let at = match interleaved {
            false => format!("(row) * {}u + PAD(i)", r.row_stride()),
            true => format!("(i) * {}u + (row)", interleaved_stride(r)),
        };
        let rows = if interleaved { ", rows interleaved" } else { " in shared memory" };
        self.w.line(format!("#define SH(row, i) sh[{at}]  /* value i of one of the block's rows{rows} */"));
        if r.tuning.ping_pong {
            self.w.line(format!("#define SH1(row, i) sh[{}{at}]  /* the same in the second buffer (ping-pong) */", self.buffer_offset(1)));
        }
        if let Some(s) = self.padded_rows() {
            // PAD(i + c) computed at each access costs the address arithmetic of a shift and
            // two adds; with c's padding a literal, the compiler folds it into the instruction.
            // (Padded rows are never interleaved: `at` is SH's row expression.)
            let at = format!("{at} + (c) + ((c) >> {s})");
            self.w.line(format!("#define SH_AT(row, i, c) sh[{at}]  /* value i + c, c a literal that does not carry into i's padding */"));
            if r.tuning.ping_pong {
                self.w.line(format!("#define SH1_AT(row, i, c) sh[{}{at}]  /* the same in the second buffer */", self.buffer_offset(1)));
            }
        }
        self.helpers(r.tuning.twiddles == TwiddleSource::Computed, &r.core.codelet_radices(), r.tuning.codelet_split, r.tuning.rader_codelets);
        match &r.io {
            Some(io) if !r.is_strided_grid() => self.strided_kernel(io),
            io => {
                if let Some(io) = io {
                    // A strided grid: where each block's grid lies, and the four-step twiddle.
                    offset_function(&mut self.w, "input_offset", &io.input());
                    offset_function(&mut self.w, "output_offset", &io.output());
                    self.step_functions(io);
                }
                if self.r.reads_input_elementwise() {
                    self.read_input_function();
                }
                if self.writes_elementwise() {
                    self.write_output_function();
                }
                self.kernel();
            }
        }
        self.w.finish()
    }

    /// The kernel's `real` and `cplx` types, MAKE_CPLX and PAD.
    fn types(&mut self) {
        precision_types(&mut self.w, self.r.problem.precision);
        self.w.line(match self.r.tuning.pad_shift {
            Some(s) => format!("#define PAD(i) ((i) + ((i) >> {s}))  /* one spare slot per {} values: fewer bank conflicts */", 1 << s),
            None => "#define PAD(i) (i)".to_string(),
        });
    }

    /// Complex arithmetic, COSPI and SINPI where twiddles are `computed`, and the codelets of
    /// `radices` (large primes by Rader's algorithm where `rader_primes` takes them).
    fn helpers(&mut self, computed: bool, radices: &[usize], split: CodeletSplit, rader_primes: RaderCodelets) {
        self.w.line(COMPLEX_HELPERS);
        if computed {
            let (cuda_cos, cuda_sin) = match self.r.problem.precision {
                Precision::F32 => ("cospif", "sinpif"),
                Precision::F64 => ("cospi", "sinpi"),
            };
            self.w.line(format!("#if defined(__CUDACC__)\n#define COSPI(x) {cuda_cos}(x)\n#define SINPI(x) {cuda_sin}(x)\n#else\n#define COSPI(x) cospi(x)\n#define SINPI(x) sinpi(x)\n#endif"));
        }
        for &radix in radices {
            self.w.line(codelet_function(radix, self.lit, split, rader_primes));
        }
    }

    fn kernel(&mut self) {
        let r = self.r;
        let p = &r.problem;
        let t = &r.tuning;
        let (input, output) = match p.kind {
            FftKind::C2C => ("cplx", "cplx"),
            FftKind::R2C => ("real", "cplx"),
            FftKind::C2R => ("cplx", "real"),
        };
        self.w.open(format!(
            "{} void {}(const GLOBAL {input}* in, GLOBAL {output}* out, \
             const GLOBAL cplx* RESTRICT tables, u64 batch, real sign, real scale)",
            kernel_declaration(r),
            r.kernel_name()
        ));
        self.w.line(format!("SHARED_ARRAY(cplx, sh, {});", r.shared_values()));
        self.w.line("const u32 tid = LOCAL_ID();");
        if t.lanes_across_rows {
            let rows = t.transforms_per_block;
            self.w.line(format!("const u32 s = tid % {rows}u;   /* which of the block's rows: neighbouring threads, neighbouring rows (lanes_across_rows) */"));
            self.w.line(format!("const u32 t = tid / {rows}u;   /* thread within the row's group */"));
        } else {
            self.w.line(format!("const u32 s = tid / {};   /* which of the block's rows this thread works on */", t.threads_per_transform));
            self.w.line(format!("const u32 t = tid % {};   /* thread within the row's group */", t.threads_per_transform));
        }
        self.w.line(format!("const u64 first = (u64)GROUP_ID() * {};   /* the block's first row */", t.transforms_per_block));
        self.w.line(format!(
            "const u32 rows = (u32)(batch - first < {0} ? batch - first : {0});   /* the last block may hold fewer */",
            t.transforms_per_block
        ));
        let (in_stride, out_stride) = p.row_elements();
        if r.is_strided_grid() {
            self.w.comment(&["the block's grid (one a block): where its input and output start"]);
            self.w.line(format!("const GLOBAL {input}* in_rows = in + input_offset(first);"));
            self.w.line(format!("GLOBAL {output}* out_rows = out + output_offset(first);"));
        } else {
            self.w.comment(&["the block's first input and output rows: offsets from them are 32-bit"]);
            self.w.line(format!("const GLOBAL {input}* in_rows = in + first * {in_stride}u;"));
            self.w.line(format!("GLOBAL {output}* out_rows = out + first * {out_stride}u;"));
        }
        self.w.line("(void)sign; (void)t; (void)s; (void)in_rows; (void)out_rows;");
        let direct = self.r.tuning.direct_io;
        // Direct rows of even real length read (C2R) or write (R2C) their half spectrum in
        // mirror pairs in the core's pass (mirror.rs).
        let mirror = self.r.pairs_in_core_pass();
        let sink = self.core_sink();
        // Rader's first pass gathers its input permuted: from global memory where
        // `FftRecipe::gathers_from_global` says so, else from the row loaded into shared memory;
        // a staged C2R rebuilds its packed spectrum in pairs as it loads.
        if direct && (!self.r.uses_rader() || self.r.gathers_from_global()) && self.r.reads_input_elementwise() {
            let writes = if sink == Sink::Shared { "shared memory, stored after it" } else { "global memory" };
            self.w.comment(&[&format!("direct_io: the core's first pass reads global memory, and its last pass writes {writes}")]);
            self.core(Source::Global, sink);
        } else if mirror && p.kind == FftKind::C2R {
            self.w.comment(&["direct_io: the core's first pass reads the half spectrum in mirror pairs, and its last pass writes global memory"]);
            self.core(Source::HalfSpectrum, sink);
        } else {
            self.load();
            self.w.line("BARRIER();");
            self.core(Source::Shared, sink);
        }
        if sink == Sink::Shared {
            self.store();
        }
        self.w.close();
    }

    /// Where the core's last pass writes: global memory where the kernel reads and writes
    /// directly and those writes coalesce; the half spectrum in mirror pairs for direct rows of
    /// even real length (mirror.rs); else shared memory, stored after it.
    pub(super) fn core_sink(&self) -> Sink {
        let direct = self.r.tuning.direct_io;
        match self.r.problem.kind {
            _ if direct && !self.r.tuning.staged_store && self.writes_elementwise() && self.direct_writes_coalesce() => Sink::Global,
            FftKind::R2C if self.r.pairs_in_core_pass() => Sink::HalfSpectrum,
            _ => Sink::Shared,
        }
    }

    /// Whether the core's last pass may write global memory itself: a row's last pass writes
    /// value j + i ns of butterfly j, consecutive threads consecutive values; a grid's writes
    /// its last stage's lines, in runs of len / radix values (interleaved lines: of their
    /// step), staged through shared memory where those are shorter than DIRECT_RUN_BYTES.
    fn direct_writes_coalesce(&self) -> bool {
        let Core::Grid { .. } = self.r.core else { return true };
        let stages = self.r.core.stages();
        let last = stages.last().expect("a grid has axes");
        // Interleaved lines (an R2C grid's first axis, last): runs of `step` values.
        let run = if last.step > 1 { last.step } else { last.len / last.radices.last().copied().unwrap_or(last.len) };
        (run as u64) * super::recipe::complex_bytes(self.r.problem.precision) >= DIRECT_RUN_BYTES
    }

    /// A loop over the block's rows x `per_row` values, `e` flat and coalesced; `row` and `i`
    /// split it. The body is written by `body`. The trip count is a constant and the loop
    /// unrolled, so that each thread's global loads are all in flight at once (a loop bounded
    /// by `rows` issued one load per iteration and waited for it).
    fn row_loop(&mut self, per_row: usize, body: impl FnOnce(&mut SourceWriter)) {
        let trips = self.row_loop_trips(per_row);
        self.row_loop_with(per_row, format!("for (u32 k = 0; k < {trips}u; ++k)"), None, body);
    }

    /// `row_loop` for the store phase: where the kernel aligns its stores (aligned_stores.rs),
    /// the flat index starts `lead` values before the block's first value, `lead` being how
    /// far into its 32-byte sector that value lies, so that each warp's run of stores fills
    /// whole sectors.
    fn store_loop(&mut self, per_row: usize, body: impl FnOnce(&mut SourceWriter)) {
        if !self.r.aligns_stores() {
            return self.row_loop(per_row, body);
        }
        let stored = self.r.stored_rows().expect("aligned stores have a store phase");
        assert_eq!(stored.per_row, per_row, "the store phase writes what stored_rows says");
        let (threads, rows) = (self.r.threads_per_block() as usize, self.r.tuning.transforms_per_block as usize);
        self.w.comment(&[
            "sector-aligned stores: the block's first value lies `lead` values into a 32-byte sector;",
            "the flat index starts at that sector, so that each warp's stores fill whole sectors",
        ]);
        self.w.line(format!("const u32 lead = (u32)((first * {}u) % {}u);", stored.apart, stored.per_sector));
        let trips = (per_row * rows + stored.per_sector - 1).div_ceil(threads);
        self.w.line("#pragma unroll");
        self.w.open(format!("for (u32 k = 0; k < {trips}u; ++k)"));
        self.w.line(format!("const u32 e = tid + k * {threads}u;"));
        if rows == 1 {
            // Trips 1 .. per_row / threads lie inside the row whatever the lead (it is under a
            // sector, a sector under a block's threads): once unrolled, they lose their check.
            let inner = if threads >= stored.per_sector { per_row / threads } else { 0 };
            let check = format!("(e >= lead && e - lead < {per_row}u)");
            self.w.open(if inner > 1 { format!("if ((k >= 1u && k < {inner}u) || {check})") } else { format!("if {check}") });
            self.w.line("const u32 row = 0;   /* the block's one row */");
            self.w.line("const u32 i = e - lead;");
        } else {
            self.w.open(format!("if (e >= lead && e - lead < rows * {per_row}u)"));
            self.w.line("const u32 at = e - lead;");
            self.w.line(format!("const u32 row = at / {per_row}u;"));
            self.w.line(format!("const u32 i = at - row * {per_row}u;"));
        }
        body(&mut self.w);
        self.w.close();
        self.w.close();
    }

    /// Trips of `row_loop` over `per_row` values a row.
    fn row_loop_trips(&self, per_row: usize) -> usize {
        (per_row * self.r.tuning.transforms_per_block as usize).div_ceil(self.r.threads_per_block() as usize)
    }

    /// `row_loop`'s loop under the header `for_header`; `trip`, where the loop's counter is
    /// not the trip `k` itself, defines k from it.
    fn row_loop_with(&mut self, per_row: usize, for_header: String, trip: Option<&str>, body: impl FnOnce(&mut SourceWriter)) {
        let threads = self.r.threads_per_block() as usize;
        self.w.line("#pragma unroll");
        self.w.open(for_header);
        if let Some(trip) = trip {
            self.w.line(format!("const u32 k = {trip};"));
        }
        self.w.line(format!("const u32 e = tid + k * {threads}u;"));
        if self.r.tuning.transforms_per_block == 1 {
            // A block of one row (`rows` is 1: a block per row of the batch): no division,
            // and once the loop is unrolled (k a constant) the trips that every thread fills
            // lose their bound check, so ptxas can issue all their loads at once (Rader's
            // gathered loads were one trip at a time, each in its own branch).
            self.w.open(format!("if (k < {}u || e < {per_row}u)", per_row / threads));
            self.w.line("const u32 row = 0;   /* the block's one row */");
            self.w.line("const u32 i = e;");
        } else {
            self.w.open(format!("if (e < rows * {per_row}u)"));
            self.w.line(format!("const u32 row = e / {per_row}u;"));
            self.w.line(format!("const u32 i = e - row * {per_row}u;"));
        }
        body(&mut self.w);
        self.w.close();
        self.w.close();
    }

    /// As `row_loop`, with the global loads apart: for each run of up to FETCHED_TRIPS trips,
    /// a first loop runs `fetch`, which loads into the `cplx` arrays `arrays` (indexed by the
    /// trip within the run, `kk`), then a second runs `body` on them. A body that branches
    /// around stores of its own (C2R's mirror value) made NVRTC wait for each trip's loads
    /// before issuing the next trip's: C2R 264's load phase spent 55% of its stalls so. Where
    /// the trips need no branch (a block of one row), ptxas sank each load to its first use
    /// instead, unless held above `LOADS_ISSUED()` between the two loops.
    fn row_loop_fetched(&mut self, per_row: usize, arrays: &[&str], fetch: impl FnOnce(&mut SourceWriter), body: impl FnOnce(&mut SourceWriter)) {
        let trips = self.row_loop_trips(per_row);
        let run = self.fetched_run(trips);
        self.w.line("#pragma unroll");
        self.w.open(format!("for (u32 k0 = 0; k0 < {trips}u; k0 += {run}u)"));
        let declared: Vec<String> = arrays.iter().map(|a| format!("{a}[{run}]")).collect();
        self.w.line(format!("cplx {};   /* this run's loads, all issued before any is used */", declared.join(", ")));
        let header = format!("for (u32 kk = 0; kk < {run}u && k0 + kk < {trips}u; ++kk)");
        self.row_loop_with(per_row, header.clone(), Some("k0 + kk"), fetch);
        self.w.line("LOADS_ISSUED();");
        self.row_loop_with(per_row, header, Some("k0 + kk"), body);
        self.w.close();
    }

    /// Trips a run of fetched loads holds, of `trips` in all: as few runs as FETCHED_TRIPS
    /// allows (half as many trips a run in f64), the trips shared out evenly between them.
    fn fetched_run(&self, trips: usize) -> usize {
        let most = FETCHED_TRIPS * 8 / super::recipe::complex_bytes(self.r.problem.precision) as usize;
        trips.div_ceil(trips.div_ceil(most))
    }
}

/// Trips of a `row_loop_fetched` run in f32 (half as many in f64, for the same registers):
/// the loads of this many are in flight at once, each holding its values' registers until the
/// second loop.
const FETCHED_TRIPS: usize = 8;

/// Shortest run of consecutive values a grid's last pass writes to global memory itself
/// (two 32-byte sectors).
const DIRECT_RUN_BYTES: u64 = 64;

/// Complex arithmetic on the kernel's `cplx` (CUDA's float2 has no operators).
const COMPLEX_HELPERS: &str = r#"DEVICE_FN cplx cadd(cplx a, cplx b) { return MAKE_CPLX(a.x + b.x, a.y + b.y); }
DEVICE_FN cplx csub(cplx a, cplx b) { return MAKE_CPLX(a.x - b.x, a.y - b.y); }
DEVICE_FN cplx cmul(cplx a, cplx b) { return MAKE_CPLX(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
DEVICE_FN cplx cconj(cplx a) { return MAKE_CPLX(a.x, -a.y); }
DEVICE_FN cplx cscale(cplx a, real s) { return MAKE_CPLX(a.x * s, a.y * s); }
/* a * (-i) */
DEVICE_FN cplx cmul_neg_i(cplx a) { return MAKE_CPLX(a.y, -a.x); }
"#;

#[cfg(test)]
mod tests {
    use super::fft_source;
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe, Precision};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn launch_bounds_name_a_minimum_of_blocks_only_above_one() {
        let mut recipe = FftRecipe::design(FftProblem::c2c(28, 1000), H200).unwrap();
        assert_eq!(recipe.tuning.min_blocks_per_sm, 1);
        let threads = recipe.threads_per_block();
        let body = fft_source(&recipe).body;
        assert!(body.contains(&format!("KERNEL_BLOCK({threads}) void")), "{body}");
        assert!(!body.contains("KERNEL_BLOCKS("));
        recipe.tuning.min_blocks_per_sm = 2;
        assert!(fft_source(&recipe).body.contains(&format!("KERNEL_BLOCKS({threads}, 2) void")));
    }

    #[test]
    fn kernels_whose_largest_codelet_spills_anyway_are_declared_without_launch_bounds() {
        // The heuristic's picks: the wisdom runs f64 59 and 177 by Rader.
        let f64_source = |n: usize| {
            let recipe = FftRecipe::design_by_heuristic(FftProblem::c2c(n, 1000).precision(Precision::F64), H200).unwrap();
            (recipe.threads_per_block(), fft_source(&recipe).body)
        };
        // f64 rows of radix 59 and 61 (236 and 244 registers of values; 61 x 29 keeps its
        // codelet, see recipe::rader_over_codelet): no bounds.
        for n in [59, 177, 61 * 29] {
            let (threads, body) = f64_source(n);
            assert!(body.contains(&format!("KERNEL_BLOCK_UNBOUNDED({threads}) void")), "{n}: {body}");
        }
        // f64 47 (188 registers) and f32 61 keep theirs.
        let (threads, body) = f64_source(47);
        assert!(body.contains(&format!("KERNEL_BLOCK({threads}) void")));
        let recipe = FftRecipe::design(FftProblem::c2c(61, 1000), H200).unwrap();
        assert!(fft_source(&recipe).body.contains(&format!("KERNEL_BLOCK({}) void", recipe.threads_per_block())));
        // Above 256 threads a block the bound stays: 255 registers a thread would not launch.
        let mut recipe = FftRecipe::design_by_heuristic(FftProblem::c2c(59, 1000).precision(Precision::F64), H200).unwrap();
        recipe.tuning.transforms_per_block = 300;
        assert!(fft_source(&recipe).body.contains("KERNEL_BLOCK(300) void"));
    }

    #[test]
    fn direct_bluestein_touches_global_memory_only_in_its_first_and_last_pass() {
        let recipe = FftRecipe::design(FftProblem::c2c(2039, 10), H200).unwrap();
        assert!(recipe.uses_bluestein() && recipe.tuning.direct_io);
        let body = fft_source(&recipe).body;
        assert!(!body.contains("load: the block's rows") && !body.contains("store: coalesced writes"));
        assert_eq!(recipe.tuning.threads_per_transform, 256);
        // The first pass (radix 16, values 256 apart, one butterfly per thread) reads 8 values;
        // the other 8 are Bluestein's zero padding, known at generation time.
        assert_eq!(body.matches("read_input(in_rows").count(), 8);
        assert_eq!(body.matches("= MAKE_CPLX(0, 0);").count(), 8);
        // The last pass (radix 16, values 256 apart) writes only the outputs below 2039: 8 of
        // each butterfly's 16, the last guarded.
        assert_eq!(body.matches("write_output(out_rows").count(), 8);
        assert!(body.contains("if (o + 1792u < 2039u)"));
    }

    #[test]
    fn padded_rows_fold_an_offset_into_the_address_where_it_cannot_carry_into_the_padding() {
        // 4096 = 16 x 16 x 16, one spare slot per 32 values: every pass reads values 256 apart
        // and writes o + i ns, o = 16 (j - k) + k with k < ns, so no offset carries into the
        // padding: each shared access is PAD(j) or PAD(o) and a literal.
        let recipe = FftRecipe::design_by_heuristic(FftProblem::c2c(4096, 10), H200).unwrap();
        assert_eq!(recipe.tuning.pad_shift, Some(5));
        let body = fft_source(&recipe).body;
        assert!(body.contains("v[15] = SH_AT(s, j, 3840u);") && body.contains("SH_AT(s, o, 15u) = v[15];"));
        assert!(body.contains("SH_AT(s, o, 240u) = v[15];"));
        assert!(!body.contains("SH(s, "), "{body}");
        // 1532 by Bluestein's 3072 = 16 x 16 x 12: the inverse's first pass writes o + i,
        // o = 12 j, whose remainder mod 32 reaches 28: i < 4 fold, the rest stay PAD(o + i).
        let recipe = FftRecipe::design_by_heuristic(FftProblem::c2c(1532, 10), H200).unwrap();
        assert!(recipe.uses_bluestein() && recipe.tuning.pad_shift == Some(5));
        let body = fft_source(&recipe).body;
        assert!(body.contains("SH1_AT(s, o, 3u) = v[3];") && body.contains("SH1(s, o + 4u) = v[4];"), "{body}");
        // Unpadded rows keep one form.
        let recipe = FftRecipe::design_by_heuristic(FftProblem::c2c(1000, 10), H200).unwrap();
        assert!(recipe.tuning.pad_shift.is_none() && !fft_source(&recipe).body.contains("SH_AT"));
    }

    #[test]
    fn grids_read_their_first_axis_across_lines_and_write_long_runs_directly() {
        let recipe = FftRecipe::design_grid(&[64, 64], 10, crate::fft::Precision::F32, H200).unwrap();
        assert!(recipe.tuning.direct_io);
        let body = fft_source(&recipe).body;
        // Axis 0 first: neighbouring threads read neighbouring lines (at = b % 64), 16 values of
        // their line 256 apart in its first radix-16 pass, straight from global memory.
        assert!(body.contains("const u32 at = b % 64u;"));
        assert_eq!(body.matches("read_input(in_rows, tables, s, at + j * 64u, ").count(), 16);
        assert!(body.contains("read_input(in_rows, tables, s, at + j * 64u, 3840u, sign)"));
        // Axis 1 last: its radix-4 pass writes runs of 16 values (128 bytes) of each row.
        assert!(body.contains("write_output(out_rows, tables, s, u * 64u + o, 48u, "));
        assert!(!body.contains("store: coalesced writes"));
        // Twiddles of both axes from one table of period 64.
        assert_eq!(crate::fft::TableLayout::of(&recipe).total, 64);
        // A last axis of one radix-16 pass would write runs of one value: staged instead.
        let cube = FftRecipe::design_grid(&[16, 16, 16], 10, crate::fft::Precision::F32, H200).unwrap();
        let body = fft_source(&cube).body;
        assert!(body.contains("store: coalesced writes") && !body.contains("write_output(out_rows, tables, s, u"));
        assert!(body.contains("/* axis 1: 256 lines of 16 points, 16 apart */"));
    }

    #[test]
    fn real_grids_keep_the_half_spectrum_layout_in_shared_memory() {
        use crate::fft::{FftKind, Precision};
        // R2C 64 x 64: a 64 x 32 core, lines 33 apart. The halved axis first, reading the reals
        // as pairs (32 a line in global memory); each line separated in place; the first axis
        // last, its interleaved lines written directly in runs of 33 values.
        let r2c = FftRecipe::design_real_grid(&[64, 64], 10, FftKind::R2C, Precision::F32, H200).unwrap();
        assert_eq!((r2c.core.region(), r2c.problem.row_elements()), (64 * 33, (4096, 64 * 33)));
        let body = fft_source(&r2c).body;
        assert!(body.contains("v[0] = read_input(in_rows, tables, s, u * 32u + j, 0u, sign);"));
        assert!(body.contains("SH(s, u * 33u + o + 0u) = v[0];"));
        assert!(body.contains("lines separated in place") && body.contains("if (2 * i != 32u) SH(row, at + 32u - i) = cconj(csub(even, odd));"));
        assert!(body.contains("write_output(out_rows, tables, s, at + o * 33u, 0u, v[0], sign, scale);"));
        assert!(!body.contains("load: the block") && !body.contains("store: coalesced writes"));
        // The separating twiddles are those of the 64-point lines, not of the 4096-point row.
        assert_eq!(crate::fft::TableLayout::of(&r2c).total, 64 + 33);
        // C2R mirrors it: the first axis first, straight from the half spectrum; the lines
        // rebuilt; the halved axis last, written as pairs of reals.
        let c2r = FftRecipe::design_real_grid(&[64, 64], 10, FftKind::C2R, Precision::F32, H200).unwrap();
        let body = fft_source(&c2r).body;
        assert!(body.contains("v[0] = read_input(in_rows, tables, s, at + j * 33u, 0u, sign);"));
        assert!(body.contains("const cplx v = cconj((in + (row * 2112u + j))[c]);"));
        assert!(body.contains("lines rebuilt in place"));
        assert!(body.contains("write_output(out_rows, tables, s, u * 32u + o, 0u, v[0], sign, scale);"));
        // An odd last axis has no half-length core: refused by name.
        let err = FftRecipe::design_real_grid(&[64, 63], 10, FftKind::R2C, Precision::F32, H200).unwrap_err();
        assert!(err.to_string().contains("even last axis"), "{err}");
    }

    #[test]
    fn ping_pong_passes_alternate_buffers_with_one_barrier_each() {
        // 937: Rader's two three-pass convolutions (13 x 9 x 8), staged load and store.
        let mut recipe = FftRecipe::design(FftProblem::c2c(937, 10), H200).unwrap();
        assert!(recipe.tuning.ping_pong);
        let body = fft_source(&recipe).body;
        // One barrier after the load and after each of the five passes (the forward's third and
        // the inverse's first are one; in place: two per pass).
        assert_eq!(body.matches("BARRIER();").count(), 6);
        // Pass 1 reads buffer 0 and writes 1, parking x[0] in the spare slot of buffer 0; pass 3
        // reads it there and parks X[0] in its destination's spare slot (1); pass 5 ends in
        // buffer 1, where the store reads: it writes X[0] to slot 0 there while other threads
        // read x[0], so x[0] must not be there.
        assert!(body.contains("if (j == 0) SH(s, 937u + u) = x0[0];"));
        assert!(body.contains("if (o == 0) SH1(s, 937u + u) = cadd(SH(s, 937u + u), v[0]);"));
        assert!(body.contains("x0[0] = SH(s, 937u + u);"));
        assert!(body.contains("if (o == 0) SH1(s, 0u) = SH1(s, 937u + u);   /* X[0] */"));
        assert!(body.contains("write_output(out_rows, tables, row, i, 0u, SH1(row, i), sign, scale);"));
        recipe.tuning.ping_pong = false;
        assert_eq!(fft_source(&recipe).body.matches("BARRIER();").count(), 11);
    }

    #[test]
    fn rader_reads_its_convolution_permuted_and_writes_it_back_permuted() {
        // The heuristic's pick, one thread a butterfly (the wisdom's kernel for 134 takes half).
        // In place (one buffer; ping_pong_passes_alternate_buffers_with_one_barrier_each has both).
        let mut recipe = FftRecipe::design_by_heuristic(FftProblem::c2c(134, 10), H200).unwrap();
        assert!(recipe.uses_rader());
        recipe.tuning.ping_pong = false;
        let t = crate::fft::TableLayout::of(&recipe);
        let body = fft_source(&recipe).body;
        // First pass of the first convolution (radix 11 of 66): the butterfly's 11 gather
        // indices in two 16-byte reads of 16-bit values; last pass of the second (its radices
        // reversed: radix 11, 6 apart): 11 writes through the scatter's.
        assert_eq!(t.rader_scatter - t.rader_gather, 6 * 16 * 2 / 8);
        assert_eq!(body.matches(&format!("const u32x4 gj0 = ((const GLOBAL u32x4*)(tables + {}u) + j * 2u)[0], gj1 = ", t.rader_gather)).count(), 1);
        assert_eq!(body.matches("v[0] = SH(s, u + (gj0.x & 0xffffu));").count(), 1);
        assert_eq!(body.matches("v[10] = SH(s, u + (gj1.y & 0xffffu));").count(), 1);
        assert_eq!(body.matches(&format!("const u32x4 go0 = ((const GLOBAL u32x4*)(tables + {}u) + o * 2u)[0]", t.rader_scatter)).count(), 1);
        assert_eq!(body.matches(") = cadd(x0[0], cconj(").count(), 11);
        assert!(body.contains("SH(s, u * 67u + (go0.y >> 16)) = cadd(x0[0], cconj(v[3]));"));
        // The forward's last pass and the inverse's first (radix 6) are one: the filter's
        // product in registers between two radix-6 codelets, then one write of each value.
        assert_eq!(body.matches("dft_6(&v[0]);").count(), 2);
        assert_eq!(body.matches("= cconj(cmul(v[").count(), 6);
        // X[0] parks in the spare slot after the row and comes back to slot 0.
        assert!(body.contains("if (o == 0) SH(s, 134u + u) = cadd(SH(s, u * 67u), v[0]);"));
        assert!(body.contains("if (o == 0) SH(s, u * 67u) = SH(s, 134u + u);"));
    }

    #[test]
    fn rader_rows_gather_from_global_memory_where_that_measured_faster() {
        let gathered = "read_input(in_rows, tables, s, u + (gj0.x & 0xffffu), 0u, sign)";
        let loaded = "load: the block's rows into shared memory";
        // The rule's choices (rader_gather.rs), not the wisdom's per length.
        let source = |problem: FftProblem| {
            let recipe = FftRecipe::design_by_heuristic(problem, H200).unwrap();
            let t = &recipe.tuning;
            assert!(recipe.uses_rader() && t.direct_io && t.lanes_across_dfts, "{}", recipe.describe());
            fft_source(&recipe).body
        };
        // R2C f32 1005 = 15 x 67 (its gather reads the reals), f64 C2C 1616 = 16 x 101 and C2R
        // f32 3281 = 17 x 193: the convolution's first pass reads global memory, runs of one
        // value a DFT, and nothing is loaded before it.
        for problem in [FftProblem::r2c(1005, 10), FftProblem::c2c(1616, 10).precision(Precision::F64), FftProblem::c2r(3281, 10)] {
            let body = source(problem);
            assert!(body.contains(gathered) && !body.contains(loaded), "{problem:?}");
            assert!(body.contains("if (j == 0) x0[0] = read_input(in_rows, tables, s, u, 0u, sign);"), "{problem:?}");
        }
        // C2C f32 (0.999x, measured) and C2R f32 rows of under 12 DFTs (477 = 9 x 53) load the
        // row and gather from shared memory.
        for problem in [FftProblem::c2c(1616, 10), FftProblem::c2r(477, 10)] {
            let body = source(problem);
            assert!(!body.contains(gathered) && body.contains(loaded), "{problem:?}");
            assert!(body.contains("v[0] = SH(s, u + (gj0.x & 0xffffu));"), "{problem:?}");
        }
    }

    #[test]
    fn rader_lanes_across_dfts_take_consecutive_dfts() {
        // 1616 = 16 x 101: the convolution's passes give consecutive threads consecutive DFTs;
        // the radix-16 pass over the whole row after them does not split its butterflies.
        let recipe = FftRecipe::design(FftProblem::c2c(1616, 10), H200).unwrap();
        assert!(recipe.tuning.lanes_across_dfts);
        let body = fft_source(&recipe).body;
        // Three passes of 10 x 10 and its reverse (the fused one opens its butterflies once),
        // each in one round of 160 threads over 160 butterflies (sixteen DFTs: a thread per
        // butterfly, RaderOneButterflyLimits).
        assert_eq!(recipe.tuning.threads_per_transform, 160);
        assert_eq!(body.matches("const u32 j = b / 16u;").count(), 3);
        assert_eq!(body.matches("const u32 u = b - j * 16u;").count(), 3);
        assert!(!body.contains("const u32 u = b / "));
    }

    #[test]
    fn blocks_of_one_row_loop_without_division_and_c2r_steps_its_pair_twiddles() {
        // C2R 3380 (H200: 130 threads, one row a block, 846 pairs in 7 trips): no division by
        // the pairs a row, only the last trip checks its bound, one table read for W^tid and
        // the trip's W^kT as constants; the loads held above LOADS_ISSUED(). (The heuristic's
        // picks: the wisdom runs both lengths' pairs in their first pass, `mirror of r2c`.)
        let recipe = FftRecipe::design_by_heuristic(FftProblem::c2r(3380, 1000), H200).unwrap();
        assert_eq!((recipe.tuning.threads_per_transform, recipe.tuning.transforms_per_block), (130, 1));
        let body = fft_source(&recipe).body;
        assert!(!body.contains("e / 846u"), "{body}");
        assert_eq!(body.matches("if (k < 6u || e < 846u)").count(), 2);
        assert!(body.contains("const cplx w_tid = tables[1690u + tid];"));
        assert!(body.contains("const real step_re[7] = {(1.000000000e0f), (9.709418416e-1f),"), "{body}");
        assert!(!body.contains("xw[kk] = tables["));
        assert_eq!(body.matches("LOADS_ISSUED();").count(), 1);
        // Blocks of several rows (C2R 1470: 3 rows of 49 threads) take each row's pairs on
        // its own threads, each load a pointer set once plus a literal, a table read a pair;
        // no division.
        let recipe = FftRecipe::design_by_heuristic(FftProblem::c2r(1470, 1000), H200).unwrap();
        assert_eq!(recipe.tuning.transforms_per_block, 3);
        let body = fft_source(&recipe).body;
        assert!(body.contains("pairs i = t + 49 q of row s") && !body.contains("e / 368u"), "{body}");
        assert!(body.contains("xa[1] = Xa[49]; xb[1] = Xb[-49]; xw[1] = Wi[49];") && !body.contains("step_re"));
        // Where that was not measured to gain, the flat loop: f32 rows of fewer than 24
        // threads (C2R 572, 22), f64 rows of 16 or more; f64 rows of 4 to 15 take theirs.
        let flat = |p: FftProblem| {
            let recipe = FftRecipe::design_by_heuristic(p, H200).unwrap();
            assert!(recipe.tuning.transforms_per_block > 1, "{p:?}");
            let body = fft_source(&recipe).body;
            (recipe.tuning.threads_per_transform, body.contains("const u32 row = e / ") && !body.contains(" q of row s"))
        };
        assert_eq!(flat(FftProblem::c2r(572, 1000)), (22, true));
        assert_eq!(flat(FftProblem::c2r(308, 1000).precision(Precision::F64)), (11, false));
        // (f64 240: the wisdom's pick, 24 threads a row.)
        let recipe = FftRecipe::design(FftProblem::c2r(240, 1000).precision(Precision::F64), H200).unwrap();
        assert_eq!((recipe.tuning.threads_per_transform, recipe.tuning.transforms_per_block), (24, 6), "{}", recipe.kernel_name());
        assert!(fft_source(&recipe).body.contains("const u32 row = e / 61u;"));
    }
}
