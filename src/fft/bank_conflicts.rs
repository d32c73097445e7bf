//! The planner's model of shared-memory bank conflicts: the wavefronts (bank-conflict
//! serialised transactions) of a row's first warp in its load, Stockham passes and store, under
//! a [`BankModel`], and the layout (padding, Rader's lane order) with the fewest of them.

use super::recipe::{complex_bytes, pad, DeviceLimits, FftRecipe, FftTuning};
use super::transform_core::{Core, Stage};
use super::tables::RaderPowers;
use super::problem::Precision;

/// How the planner's bank-conflict model ([`FftRecipe::plain_shared_wavefronts`]) serves one
/// warp's access to shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BankModel {
    /// All 32 lanes at once: as many wavefronts as the most distinct 4-byte words any one bank
    /// holds. What the wisdom (wisdom.rs), the strided passes and the grids were tuned under.
    WholeWarp,
    /// Each group of 32 / words lanes on its own: 8-byte values (f32 complex) a half-warp at a
    /// time, 16-byte ones a quarter-warp. This is how Nsight Compute counted an H200's
    /// wavefronts. R2C f32 1024^2's real grid: 347 loads and 390 stores a block, against 334
    /// and 378 by this model and 334 and 306 by the whole warp's (seventy-sixth session).
    LaneGroups,
}

impl FftRecipe {
    /// The shared-memory layout (intra-row padding, row padding) with the fewest bank
    /// conflicts by [`FftRecipe::plain_shared_wavefronts`], the smaller footprint on ties; for
    /// Rader's several DFTs a row, that layout for each lane order
    /// ([`FftTuning::lanes_across_dfts`]), then the order with fewer conflicts counting the
    /// permuted accesses too ([`FftRecipe::shared_wavefronts`]), across by a margin of 1.05.
    /// (Paddings chosen counting the permuted accesses ran 0.98x over 18 C2C lengths that kept
    /// the plain order, and cost f64 rows their ping-pong buffers: thirty-fifth session.)
    pub(super) fn with_least_conflicted_layout(self, limits: DeviceLimits) -> Self {
        let order = |across: bool| FftRecipe { tuning: FftTuning { lanes_across_dfts: across, ..self.tuning }, ..self.clone() }.with_least_conflicted_padding(limits);
        let along = order(false);
        if !self.has_dfts_across() {
            return along;
        }
        // Across only where the plain order models at least 1.05 times its wavefronts: over 77
        // C2C lengths under that ratio, across ran 1.015x with 10 of them slower than 0.97x;
        // from 1.05 to 1.1, 1.035x over 108 (thirty-fifth session).
        let across = order(true);
        let model = limits.bank_model;
        if 21 * across.shared_wavefronts(model) <= 20 * along.shared_wavefronts(model) {
            across
        } else {
            along
        }
    }

    /// The padding (intra-row, row) with the fewest bank conflicts by
    /// [`FftRecipe::plain_shared_wavefronts`], the smaller footprint on ties.
    fn with_least_conflicted_padding(self, limits: DeviceLimits) -> Self {
        let mut best: Option<(u64, usize, FftRecipe)> = None;
        // Rows of 32 threads or more hold the whole first warp, which the model scores: row
        // padding cannot change its cost, and the least padding wins ties anyway.
        let row_pads = if self.tuning.threads_per_transform >= 32 { 0..1 } else { 0..4 };
        // The accesses do not depend on the padding: found once, scored under each.
        let accesses = self.first_warp_accesses(&self.stages());
        for pad_shift in [None, Some(5), Some(4), Some(3), Some(2)] {
            for row_pad in row_pads.clone() {
                let mut r = self.clone();
                r.tuning.pad_shift = pad_shift;
                r.tuning.row_pad = row_pad;
                if r.shared_bytes() > limits.shared_bytes.max(self.shared_bytes()) {
                    continue;
                }
                let cost = r.wavefronts_of(&accesses, limits.bank_model);
                if best.as_ref().is_none_or(|(c, v, _)| (cost, r.shared_values()) < (*c, *v)) {
                    best = Some((cost, r.shared_values(), r));
                }
            }
        }
        best.map_or(self, |b| b.2)
    }

    /// A model of shared-memory time: the wavefronts (bank-conflict-serialised transactions)
    /// of the first warp's accesses in the load, every Stockham pass and the store, each
    /// access served as `model` says. Rader's permuted accesses count as plain ones here;
    /// [`FftRecipe::shared_wavefronts`] counts them as they are.
    pub fn plain_shared_wavefronts(&self, model: BankModel) -> u64 {
        self.plain_wavefronts_of(&self.stages(), model)
    }

    /// [`FftRecipe::plain_shared_wavefronts`] over `stages` (this recipe's [`FftRecipe::stages`]).
    fn plain_wavefronts_of(&self, stages: &[Stage], model: BankModel) -> u64 {
        self.wavefronts_of(&self.first_warp_accesses(stages), model)
    }

    /// The wavefronts of `accesses` (this recipe's [`FftRecipe::first_warp_accesses`], of any
    /// padding) laid out with this recipe's padding, each access served as `model` says.
    fn wavefronts_of(&self, accesses: &WarpAccesses, model: BankModel) -> u64 {
        let stride = self.row_stride();
        let mut addrs = [0usize; 32];
        let mut total = 0;
        for (lanes, times, distinct) in accesses.iter() {
            for (a, &(row, i)) in addrs.iter_mut().zip(lanes) {
                *a = row as usize * stride + pad(self.tuning.pad_shift, i as usize);
            }
            let group = if distinct { distinct_group_wavefronts } else { group_wavefronts };
            total += times * warp_wavefronts_by(&addrs[..lanes.len()], self.problem.precision, model, group);
        }
        total
    }

    /// The first warp's shared-memory accesses in the load, every Stockham pass of `stages`
    /// and the store, as (row, value of the row) a lane before any padding: what the bank
    /// model scores.
    fn first_warp_accesses(&self, stages: &[Stage]) -> WarpAccesses {
        let w = self.tuning.threads_per_transform as usize;
        let threads = (self.threads_per_block() as usize).min(32);
        let mut accesses = WarpAccesses::default();
        // Load and store: flat loops over the block's rows.
        let len = self.core.region();
        accesses.push((0..threads).map(|e| (e / len, e % len)), 2);
        // Each pass of each stage: butterfly j of sub-row u loads value j + i*L/R and stores
        // value (j - k)R + k + i*ns of the sub-row.
        let fused = self.fuses_convolution();
        for (s, stage) in stages.iter().enumerate() {
            let mut ns = stage.ns0;
            for (pass, &radix) in stage.radices.iter().enumerate() {
                let per_row = stage.len / radix;
                let last = pass + 1 == stage.radices.len();
                // The convolution's fused pass neither stores nor loads in the middle.
                let (skip_stores, skip_loads) = (fused && s == 0 && last, fused && s == 1 && pass == 0);
                let live: Vec<(usize, usize, usize)> = (0..threads)
                    .filter(|&tid| tid % w < per_row * stage.subrows)
                    .map(|tid| {
                        let (base, j) = stage.butterfly(tid % w, per_row);
                        (tid / w, base, j)
                    })
                    .collect();
                for i in 0..radix {
                    let value = |&(row, base, j): &(usize, usize, usize), load: bool| {
                        let (l, st) = stockham_values(j, i, radix, ns, per_row);
                        (row, base + (if load { l } else { st }) * stage.step)
                    };
                    if !skip_loads {
                        accesses.push(live.iter().map(|t| value(t, true)), 1);
                    }
                    if !skip_stores {
                        accesses.push(live.iter().map(|t| value(t, false)), 1);
                    }
                }
                ns *= radix;
            }
        }
        accesses
    }

    /// [`FftRecipe::plain_shared_wavefronts`] with Rader's permuted accesses counted as they
    /// are (see `FftRecipe::rader_permutation_excess`).
    pub fn shared_wavefronts(&self, model: BankModel) -> u64 {
        let stages = self.stages();
        (self.plain_wavefronts_of(&stages, model) as i64 + self.rader_permutation_excess(&stages, model)).max(0) as u64
    }

    /// What Rader's permuted accesses add to [`FftRecipe::shared_wavefronts`], which counts
    /// them as plain ones: with several DFTs a row, the first pass gathers value
    /// u + m g^q (q = j + i L/R) of the row for butterfly j of DFT u, and the last scatters
    /// to slot g^-q of DFT u, and the lane order ([`FftTuning::lanes_across_dfts`]) decides
    /// their conflicts. A permutation's conflicts differ from warp to warp, so these are
    /// averaged over up to RADER_SAMPLED_WARPS warps of row 0 spread over the pass. One DFT a
    /// row keeps the plain model: scored exactly on the first warp alone, permuted accesses
    /// chose paddings that ran 0.96x over the 47 lengths whose lane order they left as it was
    /// (most of them one DFT a row; thirty-fifth session).
    fn rader_permutation_excess(&self, stages: &[Stage], model: BankModel) -> i64 {
        const RADER_SAMPLED_WARPS: usize = 8;
        let Core::Rader { len, prime, .. } = self.core else { return 0 };
        if len == prime {
            return 0;
        }
        let cost = |addrs: &[usize]| warp_wavefronts(addrs, self.problem.precision, model);
        let (m, g) = (len / prime, RaderPowers::of(prime));
        let at = |i: usize| pad(self.tuning.pad_shift, i);
        let (gather, scatter) = (&stages[0], &stages[1]);
        let mut total = 0;
        let last_radix = *scatter.radices.last().expect("a convolution has passes");
        // (stage, radix, points combined before the pass, whether it gathers or scatters)
        let passes = [(gather, gather.radices[0], 1, true), (scatter, last_radix, scatter.len / last_radix, false)];
        for (stage, radix, ns, gathers) in passes {
            let per_row = stage.len / radix;
            let butterflies = per_row * stage.subrows;
            let warps = butterflies.div_ceil(32);
            let samples = warps.min(RADER_SAMPLED_WARPS);
            let (mut permuted, mut plain) = (0, 0);
            for sample in 0..samples {
                let first = sample * warps / samples * 32;
                for i in 0..radix {
                    let (mut moved, mut natural, mut live) = ([0usize; 32], [0usize; 32], 0);
                    for b in (first..first + 32).filter(|&b| b < butterflies) {
                        let (base, j) = stage.butterfly(b, per_row);
                        let dft = base - stage.first;
                        let (load, store) = stockham_values(j, i, radix, ns, per_row);
                        (moved[live], natural[live]) = match gathers {
                            true => (at(dft / stage.stride + m * g.power(load)), at(base + load)),
                            false => (at(dft + g.inverse_power(store)), at(base + store)),
                        };
                        live += 1;
                    }
                    permuted += cost(&moved[..live]);
                    plain += cost(&natural[..live]);
                }
            }
            // The plain model counted the first warp's natural accesses; this is the
            // difference the permutation makes to a warp, on average.
            total += ((permuted as f64 - plain as f64) / samples as f64).round() as i64;
        }
        total
    }
}

/// One warp's shared-memory accesses, each as the (row, value of the row) its live lanes
/// touch before any padding, with how many times it happens (the load and store of a block's
/// rows use one pattern) and whether its lanes touch distinct values (padding keeps them
/// distinct, so [`distinct_group_wavefronts`] counts them under any).
#[derive(Default)]
struct WarpAccesses {
    lanes: Vec<(u32, u32)>,
    /// Where each access's lanes end in `lanes`, its count and whether they are distinct.
    ends: Vec<(usize, u64, bool)>,
}

impl WarpAccesses {
    fn push(&mut self, lanes: impl Iterator<Item = (usize, usize)>, times: u64) {
        let start = self.lanes.len();
        self.lanes.extend(lanes.map(|(row, i)| (row as u32, i as u32)));
        let mut sorted = self.lanes[start..].to_vec();
        sorted.sort_unstable();
        let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
        self.ends.push((self.lanes.len(), times, distinct));
    }

    fn iter(&self) -> impl Iterator<Item = (&[(u32, u32)], u64, bool)> {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|&(end, ..)| end));
        starts.zip(&self.ends).map(|(start, &(end, times, distinct))| (&self.lanes[start..end], times, distinct))
    }
}

/// The values butterfly j reads and writes as its value i in a radix-`radix` Stockham pass of
/// `per_row` butterflies a sub-row, after `ns` points were combined: j + i per_row, and
/// (j - j mod ns) radix + j mod ns + i ns.
fn stockham_values(j: usize, i: usize, radix: usize, ns: usize, per_row: usize) -> (usize, usize) {
    let k = j % ns;
    (j + i * per_row, (j - k) * radix + k + i * ns)
}

/// Wavefronts of one warp's shared access to complex values at `addrs` (in values, lane
/// order) by `model`. Counted on the stack: the planner scores every candidate layout this
/// way, and heap vectors here took most of its time (5 ms of a 7 ms Bluestein plan on a 2-core
/// host).
fn warp_wavefronts(addrs: &[usize], precision: Precision, model: BankModel) -> u64 {
    warp_wavefronts_by(addrs, precision, model, group_wavefronts)
}

/// [`warp_wavefronts`] with each group of lanes counted by `group`.
fn warp_wavefronts_by(addrs: &[usize], precision: Precision, model: BankModel, group: fn(&[usize], usize) -> u64) -> u64 {
    let words = (complex_bytes(precision) / 4) as usize;
    match model {
        BankModel::WholeWarp => group(addrs, words),
        BankModel::LaneGroups => addrs.chunks(32 / words).map(|lanes| group(lanes, words)).sum(),
    }
}

/// Wavefronts of one access by lanes served together: the most distinct 4-byte words any one
/// of the 32 banks must serve. Value `a` covers words `a * words + k` (k < `words`, a power of
/// two up to 4), in banks `(a mod 32 / words) * words + k`: every bank of the slot `a mod 32 /
/// words` serves one word of each distinct value there, so the answer is the most distinct
/// values any one slot holds (a value several lanes touch is served once, a broadcast). At
/// most 32 lanes.
fn group_wavefronts(addrs: &[usize], words: usize) -> u64 {
    let mut sorted = [0usize; 32];
    let sorted = &mut sorted[..addrs.len()];
    sorted.copy_from_slice(addrs);
    sorted.sort_unstable();
    let mut per_slot = [0u64; 32];
    for (i, &a) in sorted.iter().enumerate() {
        if i == 0 || sorted[i - 1] != a {
            per_slot[a & (32 / words - 1)] += 1;
        }
    }
    per_slot.into_iter().max().unwrap_or(0)
}

/// [`group_wavefronts`] of lanes that touch distinct values, as every Stockham pass's do: the
/// most lanes any one slot holds. Sorting for repeats took most of the planner's time (1.3 ms
/// of a 360-point design on a 2-core host), and these accesses are scored under every padding.
fn distinct_group_wavefronts(addrs: &[usize], words: usize) -> u64 {
    let mut per_slot = [0u8; 32];
    for &a in addrs {
        per_slot[a & (32 / words - 1)] += 1;
    }
    per_slot.into_iter().max().unwrap_or(0).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_share_banks_at_no_cost_across_half_warps_of_8_byte_values() {
        // Values 0..7 and 16..23 in the first half-warp, 8..15 and 24..31 in the second: value
        // v sits on banks 2v and 2v + 1 (mod 32), so each half-warp meets itself on every bank
        // it touches (two wavefronts each), where the whole warp counts two words a bank.
        let addrs: Vec<usize> = (0..8).chain(16..24).chain(8..16).chain(24..32).collect();
        assert_eq!(warp_wavefronts(&addrs, Precision::F32, BankModel::WholeWarp), 2);
        assert_eq!(warp_wavefronts(&addrs, Precision::F32, BankModel::LaneGroups), 4);
        // f64 complex values (16 bytes): quarter-warps of 8 lanes, one wavefront each at best.
        let consecutive: Vec<usize> = (0..32).collect();
        assert_eq!(warp_wavefronts(&consecutive, Precision::F64, BankModel::LaneGroups), 4);
        assert_eq!(warp_wavefronts(&consecutive, Precision::F64, BankModel::WholeWarp), 4);
    }

    #[test]
    fn bank_slots_count_what_every_word_on_its_bank_counts() {
        // The definition, word by word: each bank serves each distinct 4-byte word once.
        let by_words = |addrs: &[usize], words: usize| {
            let mut per_bank = vec![std::collections::HashSet::new(); 32];
            for &a in addrs {
                for k in 0..words {
                    per_bank[(a * words + k) % 32].insert(a * words + k);
                }
            }
            per_bank.iter().map(|b| b.len() as u64).max().unwrap()
        };
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        for case in 0..4000 {
            let lanes = 1 + next(32);
            // Narrow spans repeat values (broadcasts); wide ones spread them.
            let span = [8, 40, 300, 5000][case % 4];
            let addrs: Vec<usize> = (0..lanes).map(|_| next(span)).collect();
            for words in [1, 2, 4] {
                assert_eq!(group_wavefronts(&addrs, words), by_words(&addrs, words), "{addrs:?}, {words} words");
            }
        }
    }
}
