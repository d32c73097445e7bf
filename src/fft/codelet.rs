//! Straight-line DFT codelets: `dft_R(cplx* v)` transforms R values in place (forward sign).
//! Generated, not hand-written: primes by the symmetric pairing of x[k] and x[R-k] (half the
//! multiplies of a plain DFT), composites by one Cooley-Tukey split into smaller codelets with
//! constant twiddles (quarter turns done as swaps and sign flips), or, where the kernel asks
//! for it ([`CodeletSplit::FewestInstructions`]), by a prime-factor (Good-Thomas) split into
//! coprime factors, which needs no twiddles at all, where that takes fewer instructions.

use super::factor::{gcd, is_prime, primitive_root};
use super::tables::unit_root;

/// How many more instructions than the pairs' a prime's Rader codelet may take and still be
/// chosen where a kernel asks for Rader codelets (`FftTuning::rader_codelets`; see
/// [`rader_pays`]): 37's takes 0.8% more, and ran 1.05x (median of its 84 lengths) on an H200.
const RADER_INSTRUCTION_SLACK: f64 = 1.02;

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

/// How composite codelets split: a kernel's tuning choice (`FftTuning::codelet_split`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeletSplit {
    /// Cooley-Tukey always.
    CooleyTukey,
    /// The Cooley-Tukey split or a prime-factor one, whichever takes fewer instructions
    /// (6, 10, 12, 14, 15, 21 ... take 8-15% fewer). Fewer instructions are not always faster:
    /// on an H200 the prime-factor codelets ran 2.5% faster in f32 Bluestein rows (the most
    /// arithmetic a value), but were no faster in Stockham rows and up to 30% slower in some
    /// Rader rows (more registers; fiftieth session, docs/BENCHMARKS.md), hence a choice.
    FewestInstructions,
}

/// Which prime codelets a kernel writes by Rader's algorithm in registers (the inputs permuted
/// by a primitive root, two composite DFTs of p - 1 points and a constant product) instead of
/// by the symmetric pairs' O(p^2) multiply-adds: a kernel's tuning choice
/// (`FftTuning::rader_codelets`). Primes inside p - 1 stay by pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RaderCodelets {
    /// Every prime by pairs.
    #[default]
    Off,
    /// The primes where `rader_pays`: 37, 41, 43, 53 and 61 below 64 (kernels `_rk`).
    Paying,
    /// Every prime from RADER_EVERY_FROM: 29, 31, 47 and 59 too, whose Rader codelets take
    /// 9-25% more instructions than the pairs' but hold fewer values live beside them
    /// (kernels `_rka`). A variant the wisdom takes length by length: on the H200 (sixtieth
    /// session, docs/BENCHMARKS.md) f64 rows of 47, whose pairs' codelet spills, ran 1.38x
    /// faster and f32 rows of 29 and 31 1.02x, while f32 rows of 47 and 59 (more
    /// instructions, up to 255 registers) ran 0.90x and 0.85x.
    Every,
}

/// The smallest prime that [`RaderCodelets::Every`] writes by Rader's algorithm: below it
/// Rader's codelets take 41-82% more instructions than the pairs' (5 to 23).
const RADER_EVERY_FROM: usize = 29;

impl RaderCodelets {
    /// Whether prime `p`'s codelet runs Rader's algorithm under this choice.
    pub fn takes(self, p: usize) -> bool {
        match self {
            RaderCodelets::Off => false,
            RaderCodelets::Paying => rader_pays(p),
            RaderCodelets::Every => is_prime(p) && p >= RADER_EVERY_FROM,
        }
    }

    /// Whether this choice writes the codelet of `radix` otherwise than `other` does (a prime
    /// factor one takes and the other not).
    pub fn differs_from(self, other: RaderCodelets, radix: usize) -> bool {
        super::factor::prime_factors(radix).into_iter().any(|p| self.takes(p) != other.takes(p))
    }
}

/// Emits single-assignment statements over `cplx` temporaries.
struct Gen {
    lines: Vec<String>,
    next: usize,
    lit: Literal,
    splitting: CodeletSplit,
    /// The primes written by Rader's algorithm, not by pairs.
    rader_primes: RaderCodelets,
}

impl Gen {
    fn new(lit: Literal, splitting: CodeletSplit, rader_primes: RaderCodelets) -> Gen {
        Gen { lines: Vec::new(), next: 0, lit, splitting, rader_primes }
    }

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
        if (4 * e).is_multiple_of(r) {
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
            _ if is_prime(r) && self.rader_primes.takes(r) => self.rader(x),
            _ if is_prime(r) => self.prime(x),
            _ => match prime_factor_choice(r, self.splitting) {
                Some(a) => self.prime_factor_split(x, a),
                None => self.split(x),
            },
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

    /// Prime r by Rader's algorithm: with g a primitive root mod r and n = r - 1,
    /// y[g^-m] - x0 = sum_q a_q b_(m-q), the cyclic convolution of a_q = x[g^q] with
    /// b_q = W^(g^-q) (W = e^{-2 pi i/r}): a forward DFT of n points (a composite codelet, its
    /// own primes by pairs), a product with b's constant DFT over n, and a second forward DFT,
    /// whose output j is the convolution's value -j, y[g^j]. x0 joins every output through the
    /// product's value 0 (b's DFT there is -1/n, real). Fewer instructions than the pairs' at
    /// 41, 43, 53 and 61 (47 and 59, whose n = 2 x 23 and 2 x 29, take more), and the values
    /// live in place rather than beside the outputs (the pairs' 59 took 254 registers).
    fn rader(&mut self, x: &[String]) -> Vec<String> {
        let r = x.len();
        let n = r - 1;
        let g = primitive_root(r);
        // powers[q] = g^q mod r, each residue 1..r once.
        let powers: Vec<usize> = std::iter::successors(Some(1), |&v| Some(v * g % r)).take(n).collect();
        let a: Vec<String> = powers.iter().map(|&i| x[i].clone()).collect();
        let outer = std::mem::replace(&mut self.rader_primes, RaderCodelets::Off);
        let spectrum = self.dft(&a);
        let mut y = vec![String::new(); r];
        y[0] = self.add(&x[0], &spectrum[0]);
        let x0 = &x[0];
        let product: Vec<String> = (0..n)
            .map(|k| {
                // B[k] / n, B the DFT of b_q = W^{g^-q} = W^{powers[(n - q) % n]}.
                let (re, im) = (0..n).fold((0.0, 0.0), |(re, im), q| {
                    let (b, w) = (unit_root(powers[(n - q) % n] as u64, r as u64), unit_root((q * k) as u64, n as u64));
                    (re + b.re * w.re - b.im * w.im, im + b.re * w.im + b.im * w.re)
                });
                let (re, im) = (re / n as f64, im / n as f64);
                let v = &spectrum[k];
                if k == 0 {
                    let c = self.lit.real(re);
                    self.def(format!("MAKE_CPLX({x0}.x + {c} * {v}.x, {x0}.y + {c} * {v}.y)"))
                } else {
                    let (c, s) = (self.lit.real(re), self.lit.real(im));
                    self.def(format!("MAKE_CPLX({v}.x * {c} - {v}.y * {s}, {v}.x * {s} + {v}.y * {c})"))
                }
            })
            .collect();
        for (j, v) in self.dft(&product).into_iter().enumerate() {
            y[powers[j]] = v;
        }
        self.rader_primes = outer;
        y
    }

    /// Composite r = a*b: a-point DFTs over x[b*n1 + n2], twiddles W_r^{n2 k1}, then b-point
    /// DFTs giving y[k1 + a*k2].
    fn split(&mut self, x: &[String]) -> Vec<String> {
        let r = x.len();
        let a = cooley_tukey_factor(r);
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

    /// Coprime r = a*b (Good-Thomas): a-point DFTs over x[(b*n1 + a*n2) mod r], then b-point
    /// DFTs of their outputs, with no twiddles between; output k1 of the n2-th a-point DFT and
    /// k2 of the k1-th b-point DFT is y[k] for the k with k = k1 mod a and k = k2 mod b
    /// (W_r^{(b n1 + a n2) k} = W_a^{n1 k} W_b^{n2 k}).
    fn prime_factor_split(&mut self, x: &[String], a: usize) -> Vec<String> {
        let r = x.len();
        let b = r / a;
        let z: Vec<Vec<String>> = (0..b)
            .map(|n2| {
                let col: Vec<String> = (0..a).map(|n1| x[(b * n1 + a * n2) % r].clone()).collect();
                self.dft(&col)
            })
            .collect();
        let mut y = vec![String::new(); r];
        for k1 in 0..a {
            let row: Vec<String> = z.iter().map(|outputs| outputs[k1].clone()).collect();
            for (k2, v) in self.dft(&row).into_iter().enumerate() {
                let k = (0..r).find(|k| k % a == k1 && k % b == k2).expect("coprime factors");
                y[k] = v;
            }
        }
        y
    }
}

/// The Cooley-Tukey split of a composite r: a (the largest factor up to sqrt r) x r/a.
fn cooley_tukey_factor(r: usize) -> usize {
    (2..r).filter(|d| r.is_multiple_of(*d) && d * d <= r).max().expect("composite")
}

/// The factors a < r/a of r that are coprime to their cofactor: its prime-factor splits.
fn coprime_factors(r: usize) -> impl Iterator<Item = usize> {
    (2..r).filter(move |&a| r.is_multiple_of(a) && a * a < r && gcd(a, r / a) == 1)
}

/// Real arithmetic instructions of the codelet of `r` (a multiply-add counted once), as the
/// generator emits it: a complex add 2, a constant twiddle 4 (quarter turns free), a prime's
/// pairs, sum and h rows of h multiply-adds a component. Computed, not generated: choosing
/// splits by generating each candidate (recursively) took milliseconds a codelet at plan time.
fn instructions(r: usize, splitting: CodeletSplit) -> usize {
    match r {
        1 => 0,
        2 => 4,
        _ if is_prime(r) => {
            let h = (r - 1) / 2;
            6 * h + h * (4 * h + 4)
        }
        _ => match prime_factor_choice(r, splitting) {
            Some(a) => split_instructions(r, a, splitting),
            None => cooley_tukey_instructions(r, splitting),
        },
    }
}

/// The a-point and r/a-point DFTs of a split of r, without its twiddles.
fn split_instructions(r: usize, a: usize, splitting: CodeletSplit) -> usize {
    (r / a) * instructions(a, splitting) + a * instructions(r / a, splitting)
}

/// The Cooley-Tukey split's: its DFTs and its constant twiddles.
fn cooley_tukey_instructions(r: usize, splitting: CodeletSplit) -> usize {
    let a = cooley_tukey_factor(r);
    let twiddles = (0..r / a).flat_map(|n2| (0..a).map(move |k1| n2 * k1 % r)).filter(|&e| e != 0 && (4 * e) % r != 0).count();
    split_instructions(r, a, splitting) + 4 * twiddles
}

/// The coprime factor whose prime-factor split takes the fewest instructions, where that is
/// fewer than the Cooley-Tukey split's (ties to Cooley-Tukey); None under `CooleyTukey`.
fn prime_factor_choice(r: usize, splitting: CodeletSplit) -> Option<usize> {
    if splitting == CodeletSplit::CooleyTukey {
        return None;
    }
    let best = coprime_factors(r).map(|a| (split_instructions(r, a, splitting), a)).min()?;
    (best.0 < cooley_tukey_instructions(r, splitting)).then_some(best.1)
}

/// Whether the two splits give `radix` different codelets (6, 10, 12, 14, 15, ... : a
/// prime-factor split somewhere takes fewer instructions), so that the choice changes a
/// kernel using it.
pub fn splits_differ(radix: usize) -> bool {
    instructions(radix, CodeletSplit::FewestInstructions) != instructions(radix, CodeletSplit::CooleyTukey)
}

/// Instructions of prime p's codelet by Rader's algorithm (`Gen::rader`): two DFTs of p - 1
/// points (Cooley-Tukey splits, primes by pairs), the product and x0's two adds.
fn rader_instructions(p: usize) -> usize {
    2 * instructions(p - 1, CodeletSplit::CooleyTukey) + 4 * (p - 2) + 2 + 2
}

/// Whether prime p's codelet runs Rader's algorithm where a kernel asks for Rader codelets:
/// where that takes at most RADER_INSTRUCTION_SLACK times the pairs' instructions (37, 41,
/// 43, 53, 61 below 64). Measured on an H200 (fifty-eighth session, `--suite variants`, the
/// 468 C2C f32 rows whose largest codelet prime is 37 or more, Rader for every prime from 23):
/// median by that prime 1.05x (37), 1.08x (41), 1.06x (43), 1.09x (53), 1.19x (61), but 0.91x
/// (47) and 0.87x (59), whose p - 1 = 2 x 23 and 2 x 29 took 69% and 29% more instructions
/// (their 23 and 29 by Rader too; by pairs, as `Gen::rader` now writes them, 24% and 20% more).
pub fn rader_pays(p: usize) -> bool {
    // (2's butterfly is an add and a subtract, never a Rader codelet: it would count as paying.)
    is_prime(p) && p > 2 && rader_instructions(p) as f64 <= RADER_INSTRUCTION_SLACK * instructions(p, CodeletSplit::CooleyTukey) as f64
}

/// The device function `dft_{radix}`: a forward DFT of `v[0..radix]` in place; primes (the
/// radix or its factors) by Rader's algorithm where `rader_primes` takes them.
pub fn codelet_function(radix: usize, lit: Literal, splitting: CodeletSplit, rader_primes: RaderCodelets) -> String {
    let mut g = Gen::new(lit, splitting, rader_primes);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const F64: Literal = Literal { f64: true };

    /// Runs a codelet's text on the CPU: its statements are single assignments of `cadd`,
    /// `csub` or `MAKE_CPLX` of sums of products of literals and components.
    fn run_codelet(text: &str, input: &[(f64, f64)]) -> Vec<(f64, f64)> {
        let mut vars: HashMap<String, (f64, f64)> =
            input.iter().enumerate().map(|(i, &v)| (format!("v[{i}]"), v)).collect();
        let mut out = input.to_vec();
        for line in text.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix("const cplx ") {
                let (name, expr) = rest.trim_end_matches(';').split_once(" = ").unwrap();
                let value = complex_expr(expr, &vars);
                vars.insert(name.to_string(), value);
            } else if let Some(rest) = line.strip_prefix("v[") {
                let (index, name) = rest.trim_end_matches(';').split_once("] = ").unwrap();
                out[index.parse::<usize>().unwrap()] = vars[name];
            }
        }
        out
    }

    fn complex_expr(expr: &str, vars: &HashMap<String, (f64, f64)>) -> (f64, f64) {
        let args = |inner: &str| inner.strip_suffix(')').unwrap().split(", ").map(str::to_string).collect::<Vec<_>>();
        if let Some(inner) = expr.strip_prefix("cadd(") {
            let (a, b) = (vars[&args(inner)[0]], vars[&args(inner)[1]]);
            (a.0 + b.0, a.1 + b.1)
        } else if let Some(inner) = expr.strip_prefix("csub(") {
            let (a, b) = (vars[&args(inner)[0]], vars[&args(inner)[1]]);
            (a.0 - b.0, a.1 - b.1)
        } else {
            let inner = expr.strip_prefix("MAKE_CPLX(").unwrap().strip_suffix(')').unwrap();
            let (re, im) = inner.split_once(", ").unwrap();
            (real_expr(re, vars), real_expr(im, vars))
        }
    }

    /// A sum of terms `f * f * ...` (tokens apart by spaces) whose factors are `(literal)` or
    /// `[-]name.x` / `[-]name.y`.
    fn real_expr(expr: &str, vars: &HashMap<String, (f64, f64)>) -> f64 {
        let (mut total, mut term, mut sign) = (0.0, 1.0, 1.0);
        for token in expr.split(' ') {
            match token {
                "*" => {}
                "+" | "-" => {
                    total += sign * term;
                    (term, sign) = (1.0, if token == "+" { 1.0 } else { -1.0 });
                }
                _ => term *= factor(token, vars),
            }
        }
        total + sign * term
    }

    fn factor(f: &str, vars: &HashMap<String, (f64, f64)>) -> f64 {
        if let Some(negated) = f.strip_prefix('-') {
            return -factor(negated, vars);
        }
        if let Some(lit) = f.strip_prefix('(') {
            return lit.strip_suffix(')').unwrap().parse().unwrap();
        }
        let (name, part) = f.rsplit_once('.').unwrap();
        if part == "x" { vars[name].0 } else { vars[name].1 }
    }

    /// Real instructions of the codelet of `radix` with the fewest, and with Cooley-Tukey's.
    fn ops(radix: usize) -> (usize, usize) {
        (instructions(radix, CodeletSplit::FewestInstructions), instructions(radix, CodeletSplit::CooleyTukey))
    }

    #[test]
    fn codelets_compute_the_dft() {
        let splits = [CodeletSplit::CooleyTukey, CodeletSplit::FewestInstructions];
        let radices = (2..=32).chain([36, 40, 42, 46, 52, 58, 60]).flat_map(|r| splits.map(|s| (r, s, RaderCodelets::Off)));
        // Rader's codelets: the primes where it pays, and composites of them; every prime
        // from 29, and composites of those.
        let rader = [37, 41, 43, 53, 61, 74, 82, 86, 106, 122].into_iter().flat_map(|r| splits.map(|s| (r, s, RaderCodelets::Paying)));
        let every = [29, 31, 37, 47, 59, 58, 62, 94, 118].into_iter().flat_map(|r| splits.map(|s| (r, s, RaderCodelets::Every)));
        for (radix, split, rader_primes) in radices.chain(rader).chain(every) {
            let text = codelet_function(radix, F64, split, rader_primes);
            let input: Vec<(f64, f64)> = (0..radix).map(|i| ((i as f64 * 0.37).sin(), (i as f64 * 1.3 + 0.2).cos())).collect();
            let got = run_codelet(&text, &input);
            for (k, g) in got.iter().enumerate() {
                let want = (0..radix).fold((0.0, 0.0), |acc, n| {
                    let w = unit_root((n * k) as u64, radix as u64);
                    (acc.0 + input[n].0 * w.re - input[n].1 * w.im, acc.1 + input[n].0 * w.im + input[n].1 * w.re)
                });
                assert!((g.0 - want.0).abs() + (g.1 - want.1).abs() < 1e-12, "radix {radix} {split:?} rader {rader_primes:?}, k {k}: {g:?} != {want:?}");
            }
        }
    }

    #[test]
    fn rader_codelets_where_they_take_fewer_instructions() {
        let paying: Vec<usize> = (2..64).filter(|&p| rader_pays(p)).collect();
        assert_eq!(paying, [37, 41, 43, 53, 61]);
        let changes = |choice: RaderCodelets, radix| choice.differs_from(RaderCodelets::Off, radix);
        let paying = RaderCodelets::Paying;
        assert!(changes(paying, 106) && changes(paying, 43) && !changes(paying, 59) && !changes(paying, 47 * 2));
        let every: Vec<usize> = (2..64).filter(|&p| RaderCodelets::Every.takes(p)).collect();
        assert_eq!(every, [29, 31, 37, 41, 43, 47, 53, 59, 61]);
        assert!(changes(RaderCodelets::Every, 47 * 2) && !changes(RaderCodelets::Every, 23 * 4) && !changes(RaderCodelets::Off, 61));
        // The generated codelets of 53 as counted: Rader's with fewer multiplies than the pairs'.
        let multiplies = |rader| codelet_function(53, F64, CodeletSplit::CooleyTukey, rader).matches(" * ").count();
        let (by_rader, by_pairs) = (multiplies(RaderCodelets::Paying), multiplies(RaderCodelets::Off));
        assert!(by_rader < by_pairs * 9 / 10, "{by_rader} {by_pairs}");
    }

    #[test]
    fn coprime_radices_split_without_twiddles() {
        // 6, 10, 12, 14, 15 split into coprime factors: no constant multiplies but the prime
        // codelets' own, so fewer instructions than the Cooley-Tukey split's.
        for radix in [6, 10, 12, 14, 15, 60] {
            let (picked, cooley_tukey) = ops(radix);
            assert!(picked < cooley_tukey, "radix {radix}: {picked} ops, Cooley-Tukey {cooley_tukey}");
            assert!(splits_differ(radix), "radix {radix}");
        }
        // Powers of a prime have no coprime split.
        for radix in [4, 8, 9, 16] {
            let (picked, cooley_tukey) = ops(radix);
            assert_eq!(picked, cooley_tukey, "radix {radix}");
            assert!(!splits_differ(radix), "radix {radix}");
        }
    }
}

