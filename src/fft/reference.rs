//! The f64 reference the tests and the accuracy report compare against: rustfft in f64, an
//! implementation independent of the generated kernels. Unscaled in both directions.

use num_complex::Complex;
use rustfft::FftPlanner;

type C64 = Complex<f64>;

/// Row-by-row complex DFT of `x` (rows of `len`), forward or inverse, unscaled.
pub fn c2c(x: &[C64], len: usize, inverse: bool) -> Vec<C64> {
    let mut planner = FftPlanner::<f64>::new();
    let fft = if inverse { planner.plan_fft_inverse(len) } else { planner.plan_fft_forward(len) };
    let mut out = x.to_vec();
    for row in out.chunks_mut(len) {
        fft.process(row);
    }
    out
}

/// Complex DFT over `axes` of a row-major array of `shape` (numpy.fft.fftn with axes), by
/// rustfft along one axis after another, unscaled.
pub fn c2c_axes(x: &[C64], shape: &[usize], axes: &[usize], inverse: bool) -> Vec<C64> {
    let mut out = x.to_vec();
    let mut planner = FftPlanner::<f64>::new();
    for &a in axes {
        let n = shape[a];
        let inner: usize = shape[a + 1..].iter().product();
        let fft = if inverse { planner.plan_fft_inverse(n) } else { planner.plan_fft_forward(n) };
        let mut line = vec![C64::new(0.0, 0.0); n];
        for block in out.chunks_mut(n * inner) {
            for c in 0..inner {
                for (i, v) in line.iter_mut().enumerate() {
                    *v = block[i * inner + c];
                }
                fft.process(&mut line);
                for (i, v) in line.iter().enumerate() {
                    block[i * inner + c] = *v;
                }
            }
        }
    }
    out
}

/// Half spectrum over `axes` of a real row-major array of `shape` (numpy.fft.rfftn with
/// axes): the full transform, of which the last axis named keeps its first n/2+1 values.
pub fn r2c_axes(x: &[f64], shape: &[usize], axes: &[usize]) -> Vec<C64> {
    let widened: Vec<C64> = x.iter().map(|&v| C64::new(v, 0.0)).collect();
    let full = c2c_axes(&widened, shape, axes, false);
    let h = *axes.last().expect("at least one axis");
    let (n, inner) = (shape[h], shape[h + 1..].iter().product::<usize>());
    let half = n / 2 + 1;
    full.chunks(n * inner).flat_map(|block| block[..half * inner].to_vec()).collect()
}

/// Real array of `shape` from its half spectrum over `axes` (numpy.fft.irfftn with s),
/// unscaled: inverse transforms over the other axes, then over the halved one (the last
/// named) of the full Hermitian spectrum the half implies.
pub fn c2r_axes(x: &[C64], shape: &[usize], axes: &[usize]) -> Vec<f64> {
    let (&h, others) = axes.split_last().expect("at least one axis");
    let (n, inner) = (shape[h], shape[h + 1..].iter().product::<usize>());
    let half = n / 2 + 1;
    let mut half_shape = shape.to_vec();
    half_shape[h] = half;
    let y = c2c_axes(x, &half_shape, others, true);
    let mut full = Vec::with_capacity(shape.iter().product());
    for block in y.chunks(half * inner) {
        for k in 0..n {
            for c in 0..inner {
                full.push(if k < half { block[k * inner + c] } else { block[(n - k) * inner + c].conj() });
            }
        }
    }
    c2c_axes(&full, shape, &[h], true).into_iter().map(|v| v.re).collect()
}

/// Row-by-row half spectra (N/2+1 values) of real rows of `len`, unscaled.
pub fn r2c(x: &[f64], len: usize) -> Vec<C64> {
    r2c_axes(x, &[x.len() / len, len], &[1])
}

/// Real rows of `len` from half spectra (rows of N/2+1), unscaled: the inverse of the full
/// Hermitian spectrum the half implies. The imaginary parts of `X[0]` and, for even N, `X[N/2]`
/// drop out, as in numpy's irfft.
pub fn c2r(x: &[C64], len: usize) -> Vec<f64> {
    c2r_axes(x, &[x.len() / (len / 2 + 1), len], &[1])
}

/// ||got - want|| / ||want|| over all values (0 when both are zero).
pub fn relative_l2_error(got: impl IntoIterator<Item = C64>, want: impl IntoIterator<Item = C64>) -> f64 {
    let (mut err, mut norm) = (0.0f64, 0.0f64);
    for (g, w) in got.into_iter().zip(want) {
        err += (g - w).norm_sqr();
        norm += w.norm_sqr();
    }
    if norm == 0.0 { err.sqrt() } else { (err / norm).sqrt() }
}
