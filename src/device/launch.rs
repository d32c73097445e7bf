//! Launch geometry and kernel arguments, shared by both backends.

use super::{DeviceBuffer, RawBuffer};
use crate::element::Element;

/// How many blocks (work-groups) of how many threads a launch runs, and the dynamic shared
/// memory each block gets. CUDA's grid and block; OpenCL's global = groups x threads, local = threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    pub groups: [u32; 3],
    pub threads: [u32; 3],
    pub shared_bytes: u32,
}

impl Grid {
    /// A one-dimensional launch.
    pub fn linear(groups: u32, threads: u32) -> Self {
        Grid { groups: [groups, 1, 1], threads: [threads, 1, 1], shared_bytes: 0 }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.groups.contains(&0) || self.threads.contains(&0)
    }
}

/// One kernel argument: a buffer or a scalar of the type the kernel declares.
pub enum Arg<'a> {
    Buffer(&'a RawBuffer),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
    F64(f64),
}

impl<'a, T: Element> From<&'a DeviceBuffer<T>> for Arg<'a> {
    fn from(b: &'a DeviceBuffer<T>) -> Self {
        Arg::Buffer(b.raw())
    }
}

impl<'a, T: Element> From<&'a mut DeviceBuffer<T>> for Arg<'a> {
    fn from(b: &'a mut DeviceBuffer<T>) -> Self {
        Arg::Buffer(b.raw())
    }
}

macro_rules! scalar_arg {
    ($($t:ty => $v:ident),*) => {
        $(impl From<$t> for Arg<'_> { fn from(x: $t) -> Self { Arg::$v(x) } })*
    };
}
scalar_arg!(u32 => U32, i32 => I32, u64 => U64, i64 => I64, f32 => F32, f64 => F64);

impl Arg<'_> {
    /// The argument's bytes as the kernel receives them (device pointers excepted).
    pub(crate) fn scalar_bytes(&self) -> Option<[u8; 8]> {
        let mut b = [0u8; 8];
        match *self {
            Arg::Buffer(_) => return None,
            Arg::U32(x) => b[..4].copy_from_slice(&x.to_ne_bytes()),
            Arg::I32(x) => b[..4].copy_from_slice(&x.to_ne_bytes()),
            Arg::F32(x) => b[..4].copy_from_slice(&x.to_ne_bytes()),
            Arg::U64(x) => b.copy_from_slice(&x.to_ne_bytes()),
            Arg::I64(x) => b.copy_from_slice(&x.to_ne_bytes()),
            Arg::F64(x) => b.copy_from_slice(&x.to_ne_bytes()),
        }
        Some(b)
    }
}
