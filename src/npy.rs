//! NumPy `.npy` files: the CLI's input and output format.
//!
//! Reads format versions 1, 2 and 3, little-endian (or native) numeric dtypes in C or Fortran
//! order (Fortran-ordered data is put in C order as it is read): int8..uint64, float32,
//! float64, complex64, complex128. Writes version 1 (version 2 when the header needs it), C
//! order, as `numpy.save` does. Anything else (big-endian, booleans, structured or object
//! arrays) is a clear error that says how to convert the array in numpy.

use std::path::Path;

use crate::element::{as_bytes, Element, ScalarKind};
use crate::error::{Error, Result};

const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// An n-dimensional array read from or written to a `.npy` file: dtype, shape (C order) and
/// the raw little-endian bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct NpyArray {
    pub dtype: ScalarKind,
    pub shape: Vec<usize>,
    data: Vec<u8>,
}

/// numpy's `descr` string of a kind, little-endian.
fn descr(kind: ScalarKind) -> &'static str {
    match kind {
        ScalarKind::I8 => "|i1",
        ScalarKind::U8 => "|u1",
        ScalarKind::I16 => "<i2",
        ScalarKind::U16 => "<u2",
        ScalarKind::I32 => "<i4",
        ScalarKind::U32 => "<u4",
        ScalarKind::I64 => "<i8",
        ScalarKind::U64 => "<u8",
        ScalarKind::F32 => "<f4",
        ScalarKind::F64 => "<f8",
        ScalarKind::C32 => "<c8",
        ScalarKind::C64 => "<c16",
    }
}

/// The kind of a `descr` string, or an error naming the numpy conversion to make.
fn kind_of(d: &str, path: &str) -> Result<ScalarKind> {
    let (order, code) = d.split_at(d.len().min(1));
    if order == ">" && !code.ends_with('1') {
        return Err(Error::invalid(format!(
            "{path}: dtype '{d}' is big-endian; save it little-endian, e.g. np.save(f, a.astype(a.dtype.newbyteorder('<')))"
        )));
    }
    if !matches!(order, "<" | "|" | "=" | ">") {
        return Err(Error::invalid(format!("{path}: dtype '{d}' is not a plain numeric dtype")));
    }
    ScalarKind::ALL.into_iter().find(|k| descr(*k)[1..] == *code).ok_or_else(|| {
        Error::invalid(format!(
            "{path}: dtype '{d}' is not supported; use int8..uint64, float32, float64, complex64 or complex128 (a.astype(np.float32), say)"
        ))
    })
}

/// The bytes of a Fortran-ordered array of `shape` (first index fastest) in C order (last
/// index fastest), `size` bytes per element.
fn fortran_to_c(data: &[u8], shape: &[usize], size: usize) -> Vec<u8> {
    let count: usize = shape.iter().product();
    let mut out = Vec::with_capacity(data.len());
    // Fortran strides, in elements; the C-order index walks like an odometer.
    let strides: Vec<usize> = shape.iter().scan(1, |acc, &n| Some(std::mem::replace(acc, *acc * n))).collect();
    let mut index = vec![0usize; shape.len()];
    let mut at = 0usize;
    for _ in 0..count {
        out.extend_from_slice(&data[at * size..(at + 1) * size]);
        for a in (0..shape.len()).rev() {
            index[a] += 1;
            at += strides[a];
            if index[a] < shape[a] {
                break;
            }
            at -= shape[a] * strides[a];
            index[a] = 0;
        }
    }
    out
}

impl NpyArray {
    /// An array of `data` with `shape` (C order); the element count must match.
    pub fn new<T: Element>(shape: Vec<usize>, data: &[T]) -> Result<Self> {
        let count = element_count(&shape)?;
        if count != data.len() {
            return Err(Error::LengthMismatch { what: format!("array of shape {shape:?}"), expected: count, got: data.len() });
        }
        Ok(NpyArray { dtype: T::KIND, shape, data: as_bytes(data).to_vec() })
    }

    /// An array of `dtype` from its raw little-endian element bytes (C order).
    pub fn from_raw(dtype: ScalarKind, shape: Vec<usize>, data: Vec<u8>) -> Result<Self> {
        let count = element_count(&shape)?;
        if count.checked_mul(dtype.size()) != Some(data.len()) {
            return Err(Error::LengthMismatch {
                what: format!("bytes of a {dtype} array of shape {shape:?}"),
                expected: count.saturating_mul(dtype.size()),
                got: data.len(),
            });
        }
        Ok(NpyArray { dtype, shape, data })
    }

    /// Number of elements (1 for a 0-d array).
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The raw little-endian element bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// The elements, when `T` is the array's dtype.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        if T::KIND != self.dtype {
            return Err(Error::invalid(format!("array holds {}, not {}", self.dtype, T::KIND)));
        }
        let mut out = vec![T::default(); self.len()];
        crate::element::as_bytes_mut(&mut out).copy_from_slice(&self.data);
        Ok(out)
    }

    /// Reads a `.npy` file.
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| Error::io(format!("reading {}", path.display()), e))?;
        Self::from_bytes(&bytes, &path.display().to_string())
    }

    /// Parses the bytes of a `.npy` file; `name` is used in error messages.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Self> {
        let bad = |what: &str| Error::invalid(format!("{name}: not a .npy file ({what})"));
        if bytes.len() < 10 || &bytes[..6] != MAGIC {
            return Err(bad("no \\x93NUMPY magic"));
        }
        let (header_len, start) = match bytes[6] {
            1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
            2 | 3 if bytes.len() >= 12 => (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12),
            v => return Err(bad(&format!("format version {v} is unknown"))),
        };
        let header = bytes.get(start..start + header_len).ok_or_else(|| bad("header cut short"))?;
        let header = std::str::from_utf8(header).map_err(|_| bad("header is not text"))?;
        let descr = dict_value(header, "descr").ok_or_else(|| bad("no 'descr' in header"))?;
        let descr = descr.trim_matches(|c| c == '\'' || c == '"');
        let fortran = dict_value(header, "fortran_order").ok_or_else(|| bad("no 'fortran_order' in header"))? == "True";
        let shape_text = dict_value(header, "shape").ok_or_else(|| bad("no 'shape' in header"))?;
        let shape = shape_text
            .trim_matches(|c| c == '(' || c == ')')
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<usize>().map_err(|_| bad(&format!("shape {shape_text} is not a tuple of sizes"))))
            .collect::<Result<Vec<_>>>()?;
        let dtype = kind_of(descr, name)?;
        let count = element_count(&shape)?;
        let size = count.checked_mul(dtype.size()).ok_or(Error::SizeOverflow { count: count as u128, elem_size: dtype.size() })?;
        let data = bytes.get(start + header_len..).unwrap_or(&[]);
        if data.len() != size {
            return Err(Error::invalid(format!(
                "{name}: shape {shape:?} of {dtype} needs {size} bytes of data, the file has {}",
                data.len()
            )));
        }
        let data = if fortran { fortran_to_c(data, &shape, dtype.size()) } else { data.to_vec() };
        Ok(NpyArray { dtype, shape, data })
    }

    /// The bytes of a `.npy` file holding this array.
    pub fn to_bytes(&self) -> Vec<u8> {
        let shape = match self.shape.as_slice() {
            [one] => format!("({one},)"),
            dims => format!("({})", dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
        };
        let dict = format!("{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}", descr(self.dtype));
        // Pad with spaces so that the data starts on a 64-byte boundary, ending the header in '\n'.
        let padded = |prefix: usize| (prefix + dict.len() + 1).div_ceil(64) * 64;
        let (version, prefix) = if padded(10) - 10 <= u16::MAX as usize { (1u8, 10) } else { (2u8, 12) };
        let total = padded(prefix);
        let header_len = total - prefix;
        let mut out = Vec::with_capacity(total + self.data.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[version, 0]);
        if version == 1 {
            out.extend_from_slice(&(header_len as u16).to_le_bytes());
        } else {
            out.extend_from_slice(&(header_len as u32).to_le_bytes());
        }
        out.extend_from_slice(dict.as_bytes());
        out.resize(total - 1, b' ');
        out.push(b'\n');
        out.extend_from_slice(&self.data);
        out
    }

    /// Writes the array as a `.npy` file.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        std::fs::write(path, self.to_bytes()).map_err(|e| Error::io(format!("writing {}", path.display()), e))
    }
}

/// Product of the dimensions, or an error when it overflows.
fn element_count(shape: &[usize]) -> Result<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d)).ok_or_else(|| {
        Error::InvalidArgument(format!("shape {shape:?} has more elements than fit in 64 bits"))
    })
}

/// The text of `'key': value` in a Python dict literal, up to the next top-level comma.
fn dict_value<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header.find(&format!("'{key}'")).or_else(|| header.find(&format!("\"{key}\"")))?;
    let rest = header[at + key.len() + 2..].trim_start().strip_prefix(':')?.trim_start();
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' | '}' if depth == 0 => return Some(rest[..i].trim()),
            _ => {}
        }
    }
    None
}
#[cfg(test)]
mod tests {
    use super::fortran_to_c;

    #[test]
    fn fortran_order_becomes_c_order() {
        // Element (i, j, k) of a [2, 3, 4] array, stored first index fastest.
        let shape = [2usize, 3, 4];
        let fortran: Vec<u8> = (0..24u16).flat_map(|f| f.to_le_bytes()).collect();
        let c = fortran_to_c(&fortran, &shape, 2);
        for (i, j, k) in (0..2).flat_map(|i| (0..3).flat_map(move |j| (0..4).map(move |k| (i, j, k)))) {
            let at = 2 * (i * 12 + j * 4 + k);
            assert_eq!(u16::from_le_bytes([c[at], c[at + 1]]) as usize, i + 2 * j + 6 * k, "({i}, {j}, {k})");
        }
        assert_eq!(fortran_to_c(&[7, 8], &[], 2), vec![7, 8]);
        assert!(fortran_to_c(&[], &[3, 0], 4).is_empty());
    }
}
