//! The kernel's core: Stockham passes in shared memory, and Bluestein's algorithm as two of
//! them with its elementwise steps folded into the passes' first reads and last writes.

use super::KernelWriter;
use crate::fft::recipe::{Core, TwiddleSource};

/// Where a transform's first pass reads its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    /// The row in shared memory.
    Shared,
    /// Global memory through `read_input` (direct_io).
    Global,
}

/// Where a transform's last pass writes its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sink {
    Shared,
    /// Global memory through `write_output` (direct_io).
    Global,
}

/// An elementwise step applied to each value as the last pass writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Finish {
    None,
    /// Bluestein, after the first transform: times the filter's spectrum, conjugated so that
    /// the next forward transform computes the inverse one.
    FilterConj { filter: usize },
    /// Bluestein, after the second: conjugate back, times the chirp; only the first `len`
    /// values are the result.
    Chirp { len: usize, chirp: usize },
}

impl KernelWriter<'_> {
    pub(super) fn core(&mut self, source: Source, sink: Sink) {
        match self.r.core.clone() {
            Core::Stockham { len, radices } => self.stockham(len, &radices, source, sink, Finish::None),
            Core::Bluestein { len, conv_len, radices } => {
                let (chirp, filter) = (self.tables.chirp, self.tables.filter);
                self.w.comment(&[
                    &format!("Bluestein: X[k] = c[k] * sum_j (x[j] c[j]) conj(c[k-j]), c[j] = e^{{-pi i j^2/{len}}}: a cyclic"),
                    &format!("convolution of length {conv_len}, by a forward transform, the filter's spectrum, and an inverse one."),
                    "The input's chirp is applied as it is read (read_input); the filter and the output's chirp as the",
                    "transforms' last passes write.",
                ]);
                self.stockham(conv_len, &radices, source, Sink::Shared, Finish::FilterConj { filter });
                self.stockham(conv_len, &radices, Source::Shared, sink, Finish::Chirp { len, chirp });
            }
        }
    }

    /// Stockham autosort passes over a row, natural order in and out. Pass with radix R after
    /// `ns` points are combined: butterfly j reads value j + i*len/R, twiddles by
    /// W_{ns R}^{i (j mod ns)}, and writes value (j - j mod ns) R + j mod ns + i ns.
    /// The first pass reads from `source`, the last writes to `sink` after `finish`; between
    /// passes the row lives in shared memory.
    fn stockham(&mut self, len: usize, radices: &[usize], source: Source, sink: Sink, finish: Finish) {
        let w = self.r.tuning.threads_per_transform as usize;
        // Input values from `zero_from` on are known zeros (Bluestein's padding, when read
        // from global memory); output values from `live` on are not wanted.
        let zero_from = match self.r.core {
            Core::Bluestein { len: n, .. } if source == Source::Global => n,
            _ => len,
        };
        let live = match finish {
            Finish::Chirp { len: n, .. } => n,
            _ => len,
        };
        let mut ns = 1;
        for (pass, &radix) in radices.iter().enumerate() {
            let (first, last) = (pass == 0, pass + 1 == radices.len());
            let reads_global = first && source == Source::Global;
            let writes_global = last && sink == Sink::Global;
            let butterflies = len / radix;
            let per_thread = butterflies.div_ceil(w);
            let guard = per_thread * w != butterflies;
            self.w.open(format!("/* pass {} of {}: radix {radix}, {ns} points combined so far */", pass + 1, radices.len()));
            self.w.line(format!("cplx v[{}];", per_thread * radix));
            for q in 0..per_thread {
                self.open_butterfly(q, w, guard, butterflies);
                if reads_global {
                    self.w.open("if (s < rows)");
                    for i in 0..radix {
                        let at = q * radix + i;
                        if i * butterflies >= zero_from {
                            self.w.line(format!("v[{at}] = MAKE_CPLX(0, 0);"));
                        } else {
                            self.w.line(format!("v[{at}] = read_input(in_rows, tables, s, j, {}u, sign);", i * butterflies));
                        }
                    }
                    self.w.close();
                } else {
                    for i in 0..radix {
                        self.w.line(format!("v[{}] = SH(s, j + {}u);", q * radix + i, i * butterflies));
                    }
                }
                self.close_butterfly(guard);
            }
            // The barrier orders this pass's shared reads before its shared writes.
            if !reads_global && !writes_global {
                self.w.line("BARRIER();");
            }
            for q in 0..per_thread {
                self.open_butterfly(q, w, guard, butterflies);
                if ns > 1 {
                    self.w.line(format!("const u32 k = j % {ns}u;"));
                    self.twiddle_butterfly(q * radix, radix, ns);
                } else {
                    self.w.line("const u32 k = 0;");
                }
                self.w.line(format!("dft_{radix}(&v[{}]);", q * radix));
                self.w.line(format!("const u32 o = (j - k) * {radix}u + k;"));
                if writes_global {
                    self.w.open("if (s < rows)");
                }
                for i in 0..radix {
                    let v = format!("v[{}]", q * radix + i);
                    let at = format!("o + {}u", i * ns);
                    let limit = if last { live } else { len };
                    // In the last pass o = j < ns, so value `at` lies in [i ns, (i+1) ns).
                    if last && i * ns >= limit {
                        continue;
                    }
                    let partial = last && (i + 1) * ns > limit;
                    if partial {
                        self.w.open(format!("if ({at} < {limit}u)"));
                    }
                    // Tables and global memory are addressed as a pointer at o plus a literal,
                    // which the compiler folds into the instruction (see read_input).
                    let value = match (last, finish) {
                        (true, Finish::FilterConj { filter }) => format!("cconj(cmul({v}, (tables + o)[{}u]))", filter + i * ns),
                        (true, Finish::Chirp { chirp, .. }) => format!("cmul(cconj({v}), (tables + o)[{}u])", chirp + i * ns),
                        _ => v,
                    };
                    if writes_global {
                        self.w.line(format!("write_output(out_rows, tables, s, o, {}u, {value}, sign, scale);", i * ns));
                    } else {
                        self.w.line(format!("SH(s, {at}) = {value};"));
                    }
                    if partial {
                        self.w.close();
                    }
                }
                if writes_global {
                    self.w.close();
                }
                self.close_butterfly(guard);
            }
            if !writes_global {
                self.w.line("BARRIER();");
            }
            self.w.close();
            ns *= radix;
        }
    }

    fn open_butterfly(&mut self, q: usize, w: usize, guard: bool, butterflies: usize) {
        self.w.open("");
        self.w.line(format!("const u32 j = t + {}u;", q * w));
        if guard {
            self.w.open(format!("if (j < {butterflies}u)"));
        }
    }

    fn close_butterfly(&mut self, guard: bool) {
        if guard {
            self.w.close();
        }
        self.w.close();
    }

    /// v[base + i] *= W_{ns R}^{i k}, i = 1..R.
    fn twiddle_butterfly(&mut self, base: usize, radix: usize, ns: usize) {
        let step = self.r.core.region() / (ns * radix);
        if self.r.tuning.twiddles == TwiddleSource::TablePowers {
            // w[i] = W^{ik}: one table read, then products along a squaring tree (depth log2 R).
            self.w.line(format!("cplx w[{radix}];"));
            self.w.line(format!("w[1] = {};", self.twiddle(&format!("k * {step}u"))));
            for i in 2..radix {
                let (a, b) = if i % 2 == 0 { (i / 2, i / 2) } else { (i - 1, 1) };
                self.w.line(format!("w[{i}] = cmul(w[{a}], w[{b}]);"));
            }
            for i in 1..radix {
                self.w.line(format!("v[{0}] = cmul(v[{0}], w[{i}]);", base + i));
            }
        } else {
            for i in 1..radix {
                let tw = self.twiddle(&format!("k * {}u", i * step));
                self.w.line(format!("v[{0}] = cmul(v[{0}], {tw});", base + i));
            }
        }
    }

    /// The expression of e^{-2 pi i idx/region}, region the core's shared region.
    fn twiddle(&self, idx: &str) -> String {
        let region = self.r.core.region();
        match self.r.tuning.twiddles {
            TwiddleSource::Table | TwiddleSource::TablePowers => format!("tables[{}u + {idx}]", self.tables.core_twiddles),
            TwiddleSource::Computed => {
                let f = self.lit.real(-2.0 / region as f64);
                format!("MAKE_CPLX(COSPI({f} * (real)({idx})), SINPI({f} * (real)({idx})))")
            }
        }
    }
}
