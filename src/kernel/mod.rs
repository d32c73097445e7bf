//! Writing kernel source: the dialect prelude, a small source builder, and the caches that
//! keep compiled kernels between plans and between runs.

pub mod cache;
pub mod prelude;
mod source;

pub use source::{KernelSource, SourceWriter};
