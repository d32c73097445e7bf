//! Straight-line DFT codelets: `dft_R(cplx* v)` transforms R values in place (forward sign).
//! Generated, not hand-written: primes by the symmetric pairing of x[k] and x[R-k] (half the
//! multiplies of a plain DFT), composites by one Cooley-Tukey split into smaller codelets with
//! constant twiddles, quarter turns done as swaps and sign flips.

use super::factor::is_prime;
use super::tables::unit_root;

/// Formats a real constant as a literal of the kernel's precision.
#[derive(Clone, Copy)]
pub struct Literal {
    pub f64: bool,
}

impl Literal {
    pub fn real(self, v: f64) -> String {
        if self.f64 {
            format!("({v:.17e})")
        } else {
            format!("({:.9e}f)", v as f32)
        }
    }
}

/// Emits single-assignment statements over `cplx` temporaries.
struct Gen {
    lines: Vec<String>,
    next: usize,
    lit: Literal,
}

impl Gen {
    fn def(&mut self, expr: String) -> String {
        let name = format!("t{}", self.next);
        self.next += 1;
        self.lines.push(format!("const cplx {name} = {expr};"));
        name
    }

    fn add(&mut self, a: &str, b: &str) -> String {
        self.def(format!("cadd({a}, {b})"))
    }

    fn sub(&mut self, a: &str, b: &str) -> String {
        self.def(format!("csub({a}, {b})"))
    }

    /// x * e^{-2 pi i e/r}: free for multiples of a quarter turn, a constant multiply otherwise.
    fn rotate(&mut self, x: &str, e: usize, r: usize) -> String {
        let e = e % r;
        if e == 0 {
            return x.to_string();
        }
        if (4 * e) % r == 0 {
            return match 4 * e / r {
                1 => self.def(format!("MAKE_CPLX({x}.y, -{x}.x)")),
                2 => self.def(format!("MAKE_CPLX(-{x}.x, -{x}.y)")),
                _ => self.def(format!("MAKE_CPLX(-{x}.y, {x}.x)")),
            };
        }
        let w = unit_root(e as u64, r as u64);
        let (c, s) = (self.lit.real(w.re), self.lit.real(w.im));
        self.def(format!("MAKE_CPLX({x}.x * {c} - {x}.y * {s}, {x}.x * {s} + {x}.y * {c})"))
    }

    /// Forward DFT of the values named in `x`; returns the names of the outputs in order.
    fn dft(&mut self, x: &[String]) -> Vec<String> {
        let r = x.len();
        match r {
            1 => x.to_vec(),
            2 => vec![self.add(&x[0], &x[1]), self.sub(&x[0], &x[1])],
            _ if is_prime(r) => self.prime(x),
            _ => self.split(x),
        }
    }

    /// Prime r: y[m] and y[r-m] share the sums over pairs a_k = x_k + x_{r-k}, b_k = x_k - x_{r-k}:
    /// y[m] = x0 + sum_k cos(2 pi mk/r) a_k  -/+  i sum_k sin(2 pi mk/r) b_k.
    fn prime(&mut self, x: &[String]) -> Vec<String> {
        let r = x.len();
        let h = (r - 1) / 2;
        let a: Vec<String> = (1..=h).map(|k| self.add(&x[k], &x[r - k])).collect();
        let b: Vec<String> = (1..=h).map(|k| self.sub(&x[k], &x[r - k])).collect();
        let mut y = vec![String::new(); r];
        let mut sum = x[0].clone();
        for ak in &a {
            sum = self.add(&sum, ak);
        }
        y[0] = sum;
        for m in 1..=h {
            let (mut tr, mut ti, mut sr, mut si) = (format!("{}.x", x[0]), format!("{}.y", x[0]), String::new(), String::new());
            for k in 1..=h {
                let w = unit_root((m * k) as u64, r as u64);
                let (c, s) = (self.lit.real(w.re), self.lit.real(-w.im));
                tr += &format!(" + {c} * {}.x", a[k - 1]);
                ti += &format!(" + {c} * {}.y", a[k - 1]);
                let sep = if k == 1 { "" } else { " + " };
                sr += &format!("{sep}{s} * {}.x", b[k - 1]);
                si += &format!("{sep}{s} * {}.y", b[k - 1]);
            }
            let t = self.def(format!("MAKE_CPLX({tr}, {ti})"));
            let s = self.def(format!("MAKE_CPLX({sr}, {si})"));
            // y[m] = t - i s, y[r-m] = t + i s
            y[m] = self.def(format!("MAKE_CPLX({t}.x + {s}.y, {t}.y - {s}.x)"));
            y[r - m] = self.def(format!("MAKE_CPLX({t}.x - {s}.y, {t}.y + {s}.x)"));
        }
        y
    }

    /// Composite r = a*b: a-point DFTs over x[b*n1 + n2], twiddles W_r^{n2 k1}, then b-point
    /// DFTs giving y[k1 + a*k2].
    fn split(&mut self, x: &[String]) -> Vec<String> {
        let r = x.len();
        let a = (2..r).filter(|d| r % d == 0 && d * d <= r).max().expect("composite");
        let b = r / a;
        let z: Vec<Vec<String>> = (0..b)
            .map(|n2| {
                let col: Vec<String> = (0..a).map(|n1| x[b * n1 + n2].clone()).collect();
                let out = self.dft(&col);
                out.iter().enumerate().map(|(k1, v)| self.rotate(v, n2 * k1, r)).collect()
            })
            .collect();
        let mut y = vec![String::new(); r];
        for k1 in 0..a {
            let row: Vec<String> = (0..b).map(|n2| z[n2][k1].clone()).collect();
            for (k2, v) in self.dft(&row).into_iter().enumerate() {
                y[k1 + a * k2] = v;
            }
        }
        y
    }
}

/// The device function `dft_{radix}`: a forward DFT of `v[0..radix]` in place.
pub fn codelet_function(radix: usize, lit: Literal) -> String {
    let mut g = Gen { lines: Vec::new(), next: 0, lit };
    let inputs: Vec<String> = (0..radix).map(|i| format!("v[{i}]")).collect();
    let outputs = g.dft(&inputs);
    let mut text = format!("/* forward DFT of {radix} points, in place */\nDEVICE_FN void dft_{radix}(cplx* v) {{\n");
    for l in &g.lines {
        text += &format!("    {l}\n");
    }
    for (i, o) in outputs.iter().enumerate() {
        if *o != format!("v[{i}]") {
            text += &format!("    v[{i}] = {o};\n");
        }
    }
    text += "}\n";
    text
}
