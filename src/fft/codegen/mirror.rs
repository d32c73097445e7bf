//! The half spectrum of an even-length real transform read (C2R) or written (R2C) by the
//! core's own pass, a mirror pair of butterflies per thread.
//!
//! A real transform of N = 2m points runs a complex core of m points; value i of its half
//! spectrum X pairs with value i of the core's Z and with value m - i. In a Stockham pass of
//! radix R over m points (S = m / R butterflies), butterfly j holds the values j + k S, k < R,
//! first pass read and last pass written, and m - (j + k S) = (S - j) + (R - 1 - k) S: the
//! mirror images of butterfly j's values are butterfly S - j's, in reverse order. One thread
//! takes both (pair p: butterflies p and S - p), so that X[i] and X[m - i] are read once for
//! Z[i] and Z[m - i] (C2R's first pass), or written once from them (R2C's last), with one
//! twiddle, straight from and to global memory. Butterfly 0 mirrors itself (value k with
//! value R - k, and X[m] with Z[0]), and for even S so does butterfly S/2 (k with R - 1 - k):
//! pair 0 holds both of those (each read or written on its own), so that every thread of a
//! pair takes two butterflies. Where a row had a thread per butterfly, half its threads then
//! idle in that pass: R2C's last pass still gained where a thread's butterflies did not grow,
//! C2R's first, which issues the row's loads, lost (FftRecipe::mirror_pairs_pay says where
//! the planner takes it).

use super::io;
use super::passes::{Pass, Sink, Source};
use super::KernelWriter;
use crate::fft::problem::FftKind;

impl KernelWriter<'_> {
    /// Pass `p`, whose source or sink is the half spectrum, as mirror pairs of butterflies
    /// (see the module's text), `w` threads a row. Its other side is shared memory, or global
    /// memory through read_input / write_output (a one-pass core).
    pub(super) fn mirror_pass(&mut self, p: &Pass, w: usize) {
        let (stage, radix) = (p.stage, p.radix);
        assert!(stage.subrows == 1 && stage.step == 1 && stage.first == 0, "mirror pairs are butterflies of a plain row");
        let butterflies = stage.len / radix;
        let pairs = butterflies.div_ceil(2);
        let per_thread = pairs.div_ceil(w);
        let middle = butterflies / 2;
        let second = if butterflies.is_multiple_of(2) { format!("p == 0 ? {middle}u : {butterflies}u - p") } else { format!("{butterflies}u - p") };
        self.w.comment(&[&format!(
            "mirror pairs: butterflies p and {butterflies} - p on one thread, p < {pairs} ({})",
            if butterflies.is_multiple_of(2) { format!("p = 0: butterflies 0 and {middle}, each its own mirror image") } else { "p = 0: butterfly 0 alone, its own mirror image".into() }
        )]);
        for q in 0..per_thread {
            self.w.open("");
            self.w.line(format!("const u32 p = t + {}u;", q * w));
            let guard = (q + 1) * w > pairs;
            if guard {
                self.w.open(format!("if (p < {pairs}u)"));
            }
            self.w.line(format!("cplx v[{}];   /* butterfly p's values, then the other one's */", 2 * radix));
            if p.source == Source::HalfSpectrum {
                self.mirror_reads(p, butterflies);
            } else {
                self.each_of_pair(&second, butterflies, |k| k.pass_reads(p, q, 0), |k| k.pass_reads(p, q, radix));
            }
            if p.sink == Sink::HalfSpectrum {
                self.each_of_pair(&second, butterflies, |k| k.butterfly(p, 0), |k| k.butterfly(p, radix));
                self.mirror_writes(p, butterflies);
            } else {
                self.each_of_pair(&second, butterflies, |k| k.pass_writes(p, q, 0), |k| k.pass_writes(p, q, radix));
            }
            if guard {
                self.w.close();
            }
            self.w.close();
        }
    }

    /// `first` for butterfly j = p, then `second` for the pair's other one, j = `other` (for
    /// odd S, pair 0 has none).
    fn each_of_pair(&mut self, other: &str, butterflies: usize, first: impl FnOnce(&mut Self), second: impl FnOnce(&mut Self)) {
        self.w.open("");
        self.w.line("const u32 j = p;");
        first(self);
        self.w.close();
        self.w.open(if butterflies.is_multiple_of(2) { String::new() } else { "if (p != 0)".into() });
        self.w.line(format!("const u32 j = {other};"));
        second(self);
        self.w.close();
    }

    /// C2R: v[k] = Z[p + k S] and v[2R - 1 - k] = Z[m - p - k S] (butterfly S - p's value
    /// R - 1 - k), both from X[p + k S] and X[m - p - k S], conjugated for the forward core;
    /// for even S, pair 0's v[R + k] = Z[S/2 + k S] (butterfly S/2) from its own two values.
    fn mirror_reads(&mut self, p: &Pass, butterflies: usize) {
        let radix = p.radix;
        let apart = self.r.problem.row_elements().0;
        self.w.comment(&[
            "with a = X[i], b = conj X[m-i] and d = (a - b) W^-i, W = e^{-2 pi i/N}: Z[i] = a + b + i d,",
            "Z[m-i] = conj(a + b - i d), the spectrum of z[j] = x[2j] + i x[2j+1]. Conjugated: the forward",
            "core then computes the inverse. The imaginary parts of X[0] and X[m] are ignored, as numpy does.",
        ]);
        self.w.open("if (s < rows)");
        self.w.line(format!("const GLOBAL cplx* X = in_rows + s * {apart}u;"));
        self.step_twiddle_base();
        for k in 0..radix {
            self.rebuild_pair(p, "p", k * butterflies, &[(k, false), (2 * radix - 1 - k, true)]);
        }
        if butterflies.is_multiple_of(2) {
            self.w.open("if (p == 0)");
            for k in 0..radix {
                self.rebuild_pair(p, &format!("{}u", butterflies / 2), k * butterflies, &[(radix + k, false)]);
            }
            self.w.close();
        }
        self.w.close();
    }

    /// From a = X[i] and b = X[m - i], i = `j` + `c`: Z[i] (false) or Z[m - i] (true) into each
    /// v[slot] of `into`.
    fn rebuild_pair(&mut self, p: &Pass, j: &str, c: usize, into: &[(usize, bool)]) {
        let m = p.stage.len;
        self.w.open("");
        self.w.line(format!("const u32 i = {j} + {c}u;"));
        self.w.line(format!("cplx a = (X + {j})[{c}];"));
        self.w.line(format!("cplx b = (X + ({m}u - {j}))[{}];   /* X[m - i] */", negated(c)));
        let twiddle = self.pair_twiddle(j, c);
        io::rebuild_difference(&mut self.w, &twiddle);
        for &(slot, mirror) in into {
            self.w.line(match mirror {
                false => format!("v[{slot}] = {};", io::REBUILT),
                true => format!("v[{slot}] = {};   /* Z[m - i] */", io::REBUILT_MIRROR),
            });
        }
        self.w.close();
    }

    /// R2C: X[i] and X[m - i], i = p + k S, from a = Z[i] = v[k] and b = conj Z[m - i]
    /// (v[2R - 1 - k]; pair 0's v[(R - k) mod R], Z[0] for X[m]), scaled; X[m - i] is written
    /// by pairs other than 0, and X[m] by pair 0. For even S, pair 0 also writes X[S/2 + k S]
    /// from butterfly S/2 (v[R + k], mirror image v[2R - 1 - k]).
    fn mirror_writes(&mut self, p: &Pass, butterflies: usize) {
        debug_assert_eq!(self.r.problem.kind, FftKind::R2C);
        let radix = p.radix;
        let apart = self.r.problem.row_elements().1;
        self.w.comment(&[
            "X[i] = E + W^i O and X[m-i] = conj(E - W^i O), W = e^{-2 pi i/N}, with",
            "E = (Z[i] + conj Z[m-i])/2 and O = -i (Z[i] - conj Z[m-i])/2 (indices mod m)",
        ]);
        self.w.open("if (s < rows)");
        self.w.line(format!("GLOBAL cplx* X = out_rows + s * {apart}u;"));
        self.step_twiddle_base();
        for k in 0..radix {
            let mirror = format!("p == 0 ? v[{}] : v[{}]", (radix - k) % radix, 2 * radix - 1 - k);
            self.separate_pair(p, "p", k * butterflies, k, &mirror, if k == 0 { MirrorWrite::Always } else { MirrorWrite::If("p != 0") });
        }
        if butterflies.is_multiple_of(2) {
            self.w.open("if (p == 0)");
            for k in 0..radix {
                self.separate_pair(p, &format!("{}u", butterflies / 2), k * butterflies, radix + k, &format!("v[{}]", 2 * radix - 1 - k), MirrorWrite::Never);
            }
            self.w.close();
        }
        self.w.close();
    }

    /// X[i], i = `j` + `c`, from a = v[`slot`] and conj of `mirror`; X[m - i] too as
    /// `mirrored` says.
    fn separate_pair(&mut self, p: &Pass, j: &str, c: usize, slot: usize, mirror: &str, mirrored: MirrorWrite) {
        let m = p.stage.len;
        let half = self.lit.real(0.5);
        self.w.open("");
        io::separate_even(&mut self.w, &format!("v[{slot}]"), mirror, &half);
        let twiddle = self.pair_twiddle(j, c);
        io::separate_odd(&mut self.w, &twiddle, &half);
        self.w.line(format!("(X + {j})[{c}] = cscale(cadd(even, odd), scale);"));
        let store = format!("(X + ({m}u - {j}))[{}] = cscale(cconj(csub(even, odd)), scale);   /* X[m - i] */", negated(c));
        match mirrored {
            MirrorWrite::Always => self.w.line(store),
            MirrorWrite::If(cond) => self.w.line(format!("if ({cond}) {store}")),
            MirrorWrite::Never => &mut self.w,
        };
        self.w.close();
    }

    /// With stepped pair twiddles (pair_twiddles.rs), W^p read once for butterfly p's values.
    fn step_twiddle_base(&mut self) {
        if self.r.steps_pair_twiddles() {
            self.w.line(format!("const cplx w_p = (tables + p)[{}u];   /* W^p, stepped by the literals W^c below */", self.tables.real_twiddles));
        }
    }

    /// The twiddle W^i of value i = `j` + `c` (W = e^{-2 pi i/N}): read from the table by the
    /// rule; stepped, W^p times the literal W^c for butterfly p, a literal for a butterfly
    /// `j` that is itself one (pair 0's second, S/2).
    fn pair_twiddle(&self, j: &str, c: usize) -> String {
        if !self.r.steps_pair_twiddles() {
            return format!("(tables + {j})[{}u]", self.tables.real_twiddles + c);
        }
        let root = |i: usize| {
            let angle = -2.0 * std::f64::consts::PI * i as f64 / self.r.problem.len as f64;
            format!("MAKE_CPLX({}, {})", self.lit.real(angle.cos()), self.lit.real(angle.sin()))
        };
        match j.strip_suffix('u').and_then(|literal| literal.parse::<usize>().ok()) {
            Some(first) => root(first + c),
            None if c == 0 => "w_p".into(),
            None => format!("cmul(w_p, {})", root(c)),
        }
    }
}

/// Whether a separated value's mirror image X[m - i] is written too.
#[derive(Clone, Copy)]
enum MirrorWrite {
    Always,
    /// Where the condition holds.
    If(&'static str),
    /// Another value's X[i] writes it.
    Never,
}

/// The literal -c, an offset back from a pointer.
pub(super) fn negated(c: usize) -> String {
    if c == 0 { "0".into() } else { format!("-{c}") }
}
