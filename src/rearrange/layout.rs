//! The normal form every permute reduces to: a dense output, walked fastest axis first, and for
//! each output axis the stride at which the input steps along it. Axes of extent 1 are dropped
//! and neighbours that move together in both arrays are merged, so that, for example,
//! `[256, 256, 256]` by `[0, 1, 2]` becomes one contiguous axis and `[8, 16, 1, 32]` by
//! `[1, 0, 3, 2]` a 2D transpose of 128 x 32.

use crate::error::{Error, Result};

/// One axis of the output, fastest first: how many elements it has, and how far apart
/// (in elements) its neighbours lie in the input and in the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Axis {
    pub extent: u64,
    pub src_stride: u64,
    pub dst_stride: u64,
}

/// A strided gather into a dense output: output element `sum(c[k] * axes[k].dst_stride)` is
/// input element `src_offset + sum(c[k] * axes[k].src_stride)` for every coordinate `c`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StridedLayout {
    /// Output axes, fastest first, none of extent 1.
    pub axes: Vec<Axis>,
    pub src_offset: u64,
}

/// Row-major (C order) strides of a shape given slowest axis first, as numpy lays it out.
pub fn row_major_strides(shape: &[usize]) -> Result<Vec<u64>> {
    let mut strides = vec![0u64; shape.len()];
    let mut s: u64 = 1;
    for k in (0..shape.len()).rev() {
        strides[k] = s;
        s = s.checked_mul(shape[k] as u64).ok_or_else(|| overflow(shape))?;
    }
    Ok(strides)
}

/// Elements of a shape, or an error when the count does not fit in 64 bits.
pub fn element_count(shape: &[usize]) -> Result<u64> {
    shape.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d as u64)).ok_or_else(|| overflow(shape))
}

fn overflow(shape: &[usize]) -> Error {
    Error::invalid(format!("shape {shape:?} has more elements than 64-bit indexing can count: use smaller axes"))
}

impl StridedLayout {
    /// From output axes listed fastest first as (extent, input stride): drops axes of extent 1,
    /// gives the output dense strides, and merges every pair of neighbours that the input also
    /// holds as one run (the slower one's input stride is the faster one's times its extent).
    pub fn new(src_offset: u64, fastest_first: impl IntoIterator<Item = (u64, u64)>) -> Self {
        let mut axes: Vec<Axis> = Vec::new();
        let mut dst_stride = 1u64;
        for (extent, src_stride) in fastest_first {
            if extent == 1 {
                continue;
            }
            match axes.last_mut() {
                Some(prev) if prev.src_stride * prev.extent == src_stride => prev.extent *= extent,
                _ => axes.push(Axis { extent, src_stride, dst_stride }),
            }
            dst_stride *= extent;
        }
        StridedLayout { axes, src_offset }
    }

    /// Output elements.
    pub fn count(&self) -> u64 {
        self.axes.iter().map(|a| a.extent).product()
    }

    /// One past the largest input index read (the input length the gather needs).
    pub fn src_span(&self) -> u64 {
        if self.axes.iter().any(|a| a.extent == 0) {
            return 0;
        }
        self.src_offset + self.axes.iter().map(|a| (a.extent - 1) * a.src_stride).sum::<u64>() + 1
    }

    /// The input index of output element `i` (the definition, used by tests and checks).
    pub fn src_index(&self, mut i: u64) -> u64 {
        let mut at = self.src_offset;
        for a in &self.axes {
            at += (i % a.extent) * a.src_stride;
            i /= a.extent;
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_merges_into_one_run() {
        let l = StridedLayout::new(0, [(512, 1), (256, 512), (128, 512 * 256)]);
        assert_eq!(l.axes, vec![Axis { extent: 128 * 256 * 512, src_stride: 1, dst_stride: 1 }]);
    }

    #[test]
    fn ones_drop_and_neighbours_merge() {
        // numpy shape [8, 16, 1, 4] (strides 64, 4, 4, 1) by axes [3, 2, 0, 1]: output
        // [4, 1, 8, 16], fastest first: 16 (stride 4), 8 (stride 64), 1, 4 (stride 1). The 16
        // and the 8 are one run of 128 in the input too.
        let l = StridedLayout::new(0, [(16, 4), (8, 64), (1, 4), (4, 1)]);
        assert_eq!(
            l.axes,
            vec![Axis { extent: 128, src_stride: 4, dst_stride: 1 }, Axis { extent: 4, src_stride: 1, dst_stride: 128 }]
        );
        for i in 0..l.count() {
            // Output (a, b, c) of [4, 8, 16] is input (b, c, 0, a).
            let (a, b, c) = (i / 128, (i / 16) % 8, i % 16);
            assert_eq!(l.src_index(i), b * 64 + c * 4 + a);
        }
    }

    #[test]
    fn spans_and_strides() {
        assert_eq!(row_major_strides(&[2, 3, 4]).unwrap(), vec![12, 4, 1]);
        assert!(row_major_strides(&[1 << 40, 1 << 40]).is_err());
        let l = StridedLayout::new(5, [(3, 10), (2, 1)]);
        assert_eq!(l.src_span(), 5 + 2 * 10 + 1 + 1);
        assert_eq!(StridedLayout::new(0, [(0, 1), (4, 1)]).src_span(), 0);
    }
}
