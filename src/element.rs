//! Element types that device buffers hold, and their names in the kernel dialect.

use std::fmt;

/// A scalar type known to the kernel dialect. The dialect's type names are the Rust names
/// (`f32`, `u64`, ...): the prelude defines them for both NVRTC and OpenCL C.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
    /// Complex of two f32 (numpy complex64), `num_complex::Complex<f32>`.
    C32,
    /// Complex of two f64 (numpy complex128), `num_complex::Complex<f64>`.
    C64,
}

impl ScalarKind {
    /// Every kind, in the order of this enum.
    pub const ALL: [ScalarKind; 12] = [
        ScalarKind::I8,
        ScalarKind::U8,
        ScalarKind::I16,
        ScalarKind::U16,
        ScalarKind::I32,
        ScalarKind::U32,
        ScalarKind::I64,
        ScalarKind::U64,
        ScalarKind::F32,
        ScalarKind::F64,
        ScalarKind::C32,
        ScalarKind::C64,
    ];

    /// The type's name in Rust and in the kernel dialect.
    pub fn name(self) -> &'static str {
        match self {
            ScalarKind::I8 => "i8",
            ScalarKind::U8 => "u8",
            ScalarKind::I16 => "i16",
            ScalarKind::U16 => "u16",
            ScalarKind::I32 => "i32",
            ScalarKind::U32 => "u32",
            ScalarKind::I64 => "i64",
            ScalarKind::U64 => "u64",
            ScalarKind::F32 => "f32",
            ScalarKind::F64 => "f64",
            ScalarKind::C32 => "c32",
            ScalarKind::C64 => "c64",
        }
    }

    /// Size in bytes.
    pub fn size(self) -> usize {
        match self {
            ScalarKind::I8 | ScalarKind::U8 => 1,
            ScalarKind::I16 | ScalarKind::U16 => 2,
            ScalarKind::I32 | ScalarKind::U32 | ScalarKind::F32 => 4,
            ScalarKind::I64 | ScalarKind::U64 | ScalarKind::F64 | ScalarKind::C32 => 8,
            ScalarKind::C64 => 16,
        }
    }

    /// Real floating point (f32, f64).
    pub fn is_float(self) -> bool {
        matches!(self, ScalarKind::F32 | ScalarKind::F64)
    }

    pub fn is_complex(self) -> bool {
        matches!(self, ScalarKind::C32 | ScalarKind::C64)
    }

    /// Signed integers and real floats.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ScalarKind::I8 | ScalarKind::I16 | ScalarKind::I32 | ScalarKind::I64 | ScalarKind::F32 | ScalarKind::F64
        )
    }
}

impl fmt::Display for ScalarKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A plain-old-data type that can live in a device buffer.
///
/// # Safety
/// Implementors must be `repr(C)`-compatible plain data with no padding and no invalid bit
/// patterns, because buffers are filled from raw device bytes.
pub unsafe trait Element: Copy + Default + Send + Sync + PartialEq + fmt::Debug + 'static {
    /// The matching scalar kind in the kernel dialect.
    const KIND: ScalarKind;
}

macro_rules! element {
    ($($t:ty => $k:ident),* $(,)?) => {
        $(unsafe impl Element for $t { const KIND: ScalarKind = ScalarKind::$k; })*
    };
}

element!(i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32, u32 => U32,
         i64 => I64, u64 => U64, f32 => F32, f64 => F64,
         num_complex::Complex<f32> => C32, num_complex::Complex<f64> => C64);

/// How many `T` make one element of `elem_size` bytes: buffers may hold the elements
/// themselves or a smaller unit of them (bytes, say). An error names the plan (`what`) when
/// `T` cannot hold an element whole.
pub(crate) fn units_per_element<T: Element>(elem_size: usize, what: &str) -> crate::error::Result<usize> {
    let unit = std::mem::size_of::<T>();
    if !elem_size.is_multiple_of(unit) {
        return Err(crate::error::Error::invalid(format!(
            "{what} moves {elem_size}-byte elements, which {} buffers ({unit}-byte) cannot hold whole: use buffers of that element type or u8 buffers",
            T::KIND
        )));
    }
    Ok(elem_size / unit)
}

/// View a slice of elements as bytes.
pub(crate) fn as_bytes<T: Element>(data: &[T]) -> &[u8] {
    // SAFETY: Element types are plain data without padding.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), std::mem::size_of_val(data)) }
}

/// View a mutable slice of elements as bytes.
pub(crate) fn as_bytes_mut<T: Element>(data: &mut [T]) -> &mut [u8] {
    // SAFETY: Element types are plain data for which every bit pattern is valid.
    unsafe { std::slice::from_raw_parts_mut(data.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(data)) }
}
