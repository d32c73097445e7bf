//! The vector interlace, where one group (element i of each of the k arrays) is a power of
//! two of at least 8 bytes and elements are words of 4 bytes or more (k = 2, 4, 8, 16 arrays
//! of f32, f64, complex): each thread moves whole groups. The interlaced side moves as 8- or
//! 16-byte vectors, each array as one element per group; a warp's accesses to each array are
//! 32 neighbouring elements. No shared memory and no barrier: the tiled kernel's extra
//! shared-memory pass and its stores to k arrays at once are what this replaces.

use super::interlace::{kernel_params, select_tree};
use crate::kernel::prelude::word_type;
use crate::kernel::{KernelSource, SourceWriter};

/// Threads per block of the vector kernels.
pub const VECTOR_THREADS: u32 = 256;

/// Lane names of a vector, in memory order.
const LANES: [&str; 4] = ["x", "y", "z", "w"];

/// `arrays` arrays of `elem_size`-byte elements moved group by group.
#[derive(Debug, Clone, Copy)]
pub struct VectorInterlace {
    pub elem_size: usize,
    pub arrays: usize,
}

impl VectorInterlace {
    /// Whether whole groups fit vector accesses: elements of 4 bytes or more, groups a power
    /// of two of bytes.
    pub fn applies(elem_size: usize, arrays: usize) -> bool {
        elem_size >= 4 && word_type(elem_size).is_some() && (elem_size * arrays).is_power_of_two()
    }

    fn group_bytes(&self) -> usize {
        self.elem_size * self.arrays
    }

    /// Bytes of one access to the interlaced array: the group, at most 16.
    fn vector_bytes(&self) -> usize {
        self.group_bytes().min(16)
    }

    /// Vectors of the interlaced array per group.
    fn vectors_per_group(&self) -> usize {
        self.group_bytes() / self.vector_bytes()
    }

    /// Vectors each thread moves: 64 bytes in flight per thread before the first store.
    fn vectors_per_thread(&self) -> usize {
        64 / self.vector_bytes()
    }

    /// Groups one block moves.
    pub fn groups_per_block(&self) -> usize {
        VECTOR_THREADS as usize * self.vectors_per_thread() / self.vectors_per_group()
    }

    /// The vector type of one access, and the elements it holds.
    fn vector_type(&self) -> (&'static str, usize) {
        let (v, e) = (self.vector_bytes(), self.elem_size);
        match (v, e) {
            (8, 4) => ("u32x2", 2),
            (16, 4) => ("u32x4", 4),
            (16, 8) => ("u64x2", 2),
            _ => (word_type(e).expect("checked"), 1),
        }
    }

    /// The two kernels (interlace, de-interlace), in one program. Both take
    /// `(whole, p0, .., p<k-1>, n)`, `whole` as vectors.
    ///
    /// Thread t moves vector `t % L` of each of its groups (L vectors per group), so that a
    /// warp's vector accesses are contiguous even where a group spans several vectors; its
    /// lanes come from arrays `(t % L) * lanes ..`, picked once per thread.
    pub fn source(&self) -> KernelSource {
        let (e, k) = (self.elem_size, self.arrays);
        let word = word_type(e).expect("checked");
        let (vec, lanes) = self.vector_type();
        let (per_group, per_thread, threads) = (self.vectors_per_group(), self.vectors_per_thread(), VECTOR_THREADS as usize);
        let (per_block, step) = (self.groups_per_block(), threads / per_group);
        let base = format!("vec_e{e}_k{k}");
        let (join, split) = (format!("interlace_{base}"), format!("deinterlace_{base}"));
        let mut w = SourceWriter::new();
        w.line(format!("typedef {word} word;"));
        w.line(format!("typedef {vec} vec;"));
        w.comment(&[
            &format!("{join} / {split}: {k} arrays of {e}-byte elements and their interlaced form,"),
            &format!("whole[i * {k} + j] = part_j[i]. Group i (element i of every array) is {per_group} {vec} of the interlaced"),
            &format!("array, {lanes} element(s) each. Thread t of block b moves vector t % {per_group} of groups b * {per_block} + t / {per_group}"),
            &format!("+ {step} r, r < {per_thread}: all loads first, no shared memory."),
        ]);
        let lane = |r: usize, c: usize| if lanes == 1 { format!("v{r}") } else { format!("v{r}.{}", LANES[c]) };
        for (name, interlacing) in [(&join, true), (&split, false)] {
            w.line("");
            w.open(format!("KERNEL_BLOCK({threads}) void {name}({})", kernel_params("vec", "word", k, interlacing)));
            w.line("const u32 t = LOCAL_ID();");
            w.line(format!("const u64 g = (u64)GROUP_ID() * {per_block} + t / {per_group};"));
            if per_group > 1 {
                w.line(format!("const u32 m = t % {per_group};"));
            }
            let qualifier = if interlacing { "const " } else { "" };
            for c in 0..lanes {
                // Array of lane c of the thread's vector m.
                w.line(format!("{qualifier}GLOBAL word* RESTRICT q{c} = {};", select_tree("m", 0, per_group, &|m| format!("p{}", m * lanes + c))));
            }
            let vectors: Vec<String> = (0..per_thread).map(|r| format!("v{r}")).collect();
            w.line(format!("vec {};", vectors.join(", ")));
            for r in 0..per_thread {
                w.line(format!("const bool ok{r} = g + {} < n;", r * step));
            }
            let arrays = |r: usize| (0..lanes).map(move |c| (lane(r, c), format!("q{c}[g + {}]", r * step)));
            let whole = |r: usize| format!("whole[(g + {}) * {per_group}{}]", r * step, if per_group > 1 { " + m" } else { "" });
            let (first, then) = if interlacing { ("its lanes from the arrays", "the vectors") } else { ("the vectors", "their lanes to the arrays") };
            w.line(format!("/* read {first} */"));
            for r in 0..per_thread {
                let loads: Vec<String> = if interlacing {
                    arrays(r).map(|(v, a)| format!("{v} = {a};")).collect()
                } else {
                    vec![format!("v{r} = {};", whole(r))]
                };
                w.line(format!("if (ok{r}) {{ {} }}", loads.join(" ")));
            }
            w.line(format!("/* write {then} */"));
            for r in 0..per_thread {
                let stores: Vec<String> = if interlacing {
                    vec![format!("{} = v{r};", whole(r))]
                } else {
                    arrays(r).map(|(v, a)| format!("{a} = {v};")).collect()
                };
                w.line(format!("if (ok{r}) {{ {} }}", stores.join(" ")));
            }
            w.close();
        }
        KernelSource { name: format!("interlace_{base}"), entry_points: vec![join, split], body: w.finish() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_to_power_of_two_groups_of_words() {
        assert!(VectorInterlace::applies(4, 2) && VectorInterlace::applies(4, 4) && VectorInterlace::applies(4, 16));
        assert!(VectorInterlace::applies(8, 2) && VectorInterlace::applies(16, 16));
        assert!(!VectorInterlace::applies(4, 3) && !VectorInterlace::applies(8, 6));
        assert!(!VectorInterlace::applies(2, 8) && !VectorInterlace::applies(1, 16));
    }

    #[test]
    fn vectors_cover_each_group_once() {
        for (e, k, vec, per_group) in [(4, 2, "u32x2", 1), (4, 4, "u32x4", 1), (4, 8, "u32x4", 2), (8, 2, "u64x2", 1), (8, 8, "u64x2", 4), (16, 4, "u32x4", 4)] {
            let v = VectorInterlace { elem_size: e, arrays: k };
            assert_eq!(v.vector_type().0, vec, "e{e} k{k}");
            assert_eq!(v.vectors_per_group(), per_group, "e{e} k{k}");
            assert_eq!(v.groups_per_block() * per_group, VECTOR_THREADS as usize * v.vectors_per_thread(), "e{e} k{k}");
            assert_eq!(v.vector_type().1 * per_group, k, "e{e} k{k}: every element has a lane");
            let body = v.source().body;
            assert!(!body.contains("LOCAL ") && !body.contains("BARRIER"), "no shared memory");
        }
    }
}
