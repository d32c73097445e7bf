//! The neighbourhood of a recipe: recipes that differ from the heuristic's pick in one tunable
//! choice. `coalesce bench fft --suite variants` times them beside the pick, which is how the
//! heuristic's rules were fitted; a measuring autotuner would search the same space.

use super::factor::{bluestein_len, convolution_lengths, largest_prime_factor, whole_row_bluestein_len, StockhamModel, MAX_COMPOSITE_RADIX};
use super::fewer_passes::{fewest_pass_radices, FEWEST_PASS_CAPS, LONG_CODELET_CAPS};
use super::codelet::{splits_differ, CodeletSplit, RaderCodelets};
use super::lane_groups::lane_groups;
use super::problem::{FftKind, FftProblem};
use super::bank_conflicts::BankModel;
use super::recipe::{DeviceLimits, FftRecipe, FftTuning, TwiddleSource, THREADS_PER_MULTIPROCESSOR};
use super::transform_core::{radices_text, Core, PrimeCodelets, MAX_PRIME_RADIX};

/// Between the steps of a path of variants ([`FftRecipe::variant_path`]).
pub const VARIANT_PATH_SEPARATOR: &str = " / ";

impl FftRecipe {
    /// Recipes one choice away from this one, each named by what it changes, all valid on a
    /// device with `limits` and each a distinct kernel. The recipe itself is not among them.
    pub fn variants(&self, limits: DeviceLimits) -> Vec<(String, FftRecipe)> {
        self.variants_where(limits, &|_| true)
    }

    /// The variant of this one named `name` (as [`FftRecipe::variants`] names it), designing
    /// no other: the wisdom's lookup at plan time, where designing every variant (the radix
    /// caps, Bluestein's convolution lengths) would take milliseconds.
    pub(crate) fn variant_named(&self, limits: DeviceLimits, name: &str) -> Option<FftRecipe> {
        self.variants_where(limits, &|what| what == name).into_iter().next().map(|(_, r)| r)
    }

    /// The recipe a path of variant names reaches, each a variant of the one before
    /// (`"radix<=25 / order 20x13x13"`: the `order 20x13x13` variant of this recipe's
    /// `radix<=25` variant); None where a step names no variant. The wisdom's entries are
    /// such paths: a variant of a variant is the second step of a search.
    pub fn variant_path(&self, limits: DeviceLimits, path: &str) -> Option<FftRecipe> {
        path.split(VARIANT_PATH_SEPARATOR).try_fold(self.clone(), |r, name| r.variant_named(limits, name))
    }

    /// The variants whose names `wanted` accepts, each designed only once its name is.
    fn variants_where(&self, limits: DeviceLimits, wanted: &dyn Fn(&str) -> bool) -> Vec<(String, FftRecipe)> {
        let mut out: Vec<(String, FftRecipe)> = Vec::new();
        let mut offer = |name: String, design: &dyn Fn() -> Option<FftRecipe>| {
            if !wanted(&name) {
                return;
            }
            if let Some(r) = design().filter(|r| r != self && r.check(limits).is_ok() && out.iter().all(|(_, o)| o != r)) {
                out.push((name, r));
            }
        };
        // Other radix caps (15: C2R's direct rows stage their pair load only under radix 16);
        // as `design_with_radix_cap`, for the long rows of multi-pass plans too.
        for cap in LONG_CODELET_CAPS.into_iter().rev().chain([16, 15, 8, 4]) {
            offer(format!("radix<={cap}"), &|| FftRecipe::design_core(self.problem, Some(cap), StockhamModel::CONTIGUOUS_ROWS, limits).ok());
        }
        // Long rows in the fewest passes (the packings `in_fewer_passes` searches).
        if let Core::Stockham { len, .. } = self.core {
            for cap in FEWEST_PASS_CAPS {
                offer(format!("fewest passes<={cap}"), &|| {
                    let core = fewest_pass_radices(len, cap).map(|radices| Core::Stockham { len, radices })?;
                    FftRecipe::design_around(self.problem, core, limits).ok()
                });
            }
        }
        // The same radices in other orders (rotations of the pick's order and of its reverse),
        // the tuning kept: which radix reads global memory, which writes it, and the bank
        // conflicts of each pass change with the order; the packing rules fix one order only.
        if let Core::Stockham { len, radices } = &self.core {
            for order in other_radix_orders(radices) {
                offer(format!("order {}", radices_text(&order)), &|| Some(FftRecipe { core: Core::Stockham { len: *len, radices: order.clone() }, ..self.clone() }));
            }
        }
        if let Core::Bluestein { len, factor, conv_len, .. } = self.core {
            // Every convolution length Bluestein could take, from 2 factor - 1 up to the power of
            // two (the 7-smooth ones): the space `bluestein_len` and `FAST_CONVOLUTION_LENGTHS` pick from.
            for m in convolution_lengths(factor).filter(|&m| m != conv_len) {
                offer(format!("convolution {m}"), &|| Core::bluestein(len, factor, m, MAX_COMPOSITE_RADIX).and_then(|c| FftRecipe::design_around(self.problem, c, limits).ok()));
            }
            // On the largest prime factor, or over the whole row.
            let p = largest_prime_factor(len);
            let (what, (f, m)) = if factor == len { ("bluestein on factor", (p, bluestein_len(p))) } else { ("bluestein whole", (len, whole_row_bluestein_len(len))) };
            // (The whole row as the design would run it: some convolutions in longer codelets.)
            offer(what.into(), &|| {
                let r = Core::bluestein(len, f, m, MAX_COMPOSITE_RADIX).and_then(|c| FftRecipe::design_around(self.problem, c, limits).ok())?;
                Some(if f == len { r.with_long_codelet_convolution(limits) } else { r })
            });
        }
        // Rader and Bluestein, where both apply (Rader's convolution with any codelet there is,
        // not only those up to the rule's RADER_MAX_CONVOLUTION_PRIME); Rader also beside a
        // Stockham row whose largest prime factor has a codelet of its own of 29 or more
        // (its O(p^2) straight-line DFT against two convolution passes).
        let len = self.core.len();
        let other = match self.core {
            // Where the planner runs Rader over a prime with a codelet of its own
            // (`rader_over_codelet`), the row the planner designs with the codelet kept.
            Core::Rader { prime, .. } if prime <= MAX_PRIME_RADIX => Some("stockham"),
            Core::Rader { .. } => Some("bluestein"),
            Core::Bluestein { .. } => Some("rader"),
            Core::Stockham { .. } if largest_prime_factor(len) >= 29 => Some("rader"),
            Core::Stockham { .. } | Core::Grid { .. } => None,
        };
        if let Some(what) = other {
            offer(what.into(), &|| match what {
                // The whole design, its fitted rules included, with the codelet kept.
                "stockham" => FftRecipe::design_core_with(self.problem, None, StockhamModel::CONTIGUOUS_ROWS, PrimeCodelets::Kept, limits)
                    .ok()
                    .filter(|kept| matches!(kept.core, Core::Stockham { .. })),
                // Another algorithm's core, tuned by the heuristic.
                _ => {
                    let core = match what {
                        "bluestein" => Core::bluestein(len, len, whole_row_bluestein_len(len), MAX_COMPOSITE_RADIX),
                        _ => Core::rader_up_to(len, None, MAX_PRIME_RADIX),
                    }?;
                    FftRecipe::design_around(self.problem, core, limits).ok()
                }
            });
        }
        let t = self.tuning;
        if t.threads_per_transform > 1 {
            offer("threads /2".into(), &|| {
                let mut r = self.clone();
                r.tuning.threads_per_transform = t.threads_per_transform.div_ceil(2);
                Some(r)
            });
        }
        // More threads than the widest pass has butterflies of its largest radix: passes of
        // smaller radices then take fewer rounds.
        if t.threads_per_transform * 2 <= limits.max_threads {
            offer("threads x2".into(), &|| {
                let mut r = self.clone();
                r.tuning.threads_per_transform = t.threads_per_transform * 2;
                r.tuning.transforms_per_block = t.transforms_per_block.div_ceil(2);
                Some(r)
            });
        }
        // One butterfly per thread in the pass of each other radix (the pick has one per thread
        // in its widest pass): fewer rounds in the passes of smaller radices.
        // A radix whose passes differ in butterflies (Rader's convolution and the outer passes
        // of one row: r7x6 o13x6) names its later counts too, so that each name is one kernel.
        let mut named_radices = Vec::new();
        for (radix, butterflies) in self.core.pass_butterflies() {
            if butterflies as u32 != t.threads_per_transform && butterflies as u32 <= limits.max_threads {
                let name = match named_radices.contains(&radix) {
                    false => format!("threads for radix {radix}"),
                    true => format!("threads for radix {radix} ({butterflies} threads)"),
                };
                named_radices.push(radix);
                offer(name, &|| Some(self.with_threads_keeping_block(butterflies as u32)));
            }
        }
        // This recipe with one change made.
        let with = |f: &dyn Fn(&mut FftRecipe)| {
            let mut r = self.clone();
            f(&mut r);
            r
        };
        offer("rows x2".into(), &|| Some(with(&|r| r.tuning.transforms_per_block = t.transforms_per_block * 2)));
        if t.transforms_per_block > 1 {
            offer("rows /2".into(), &|| Some(with(&|r| r.tuning.transforms_per_block = t.transforms_per_block / 2)));
        }
        offer(if t.direct_io { "staged io" } else { "direct io" }.into(), &|| Some(with(&|r| {
            r.tuning.direct_io = !t.direct_io;
            r.tuning.staged_store = false;
        })));
        // Direct rows' last pass through shared memory and a coalesced store phase; from staged
        // rows, the first pass reading global memory too.
        if t.staged_store {
            offer("direct store".into(), &|| Some(with(&|r| r.tuning.staged_store = false)));
        } else {
            let direct_load = with(&|r| (r.tuning.direct_io, r.tuning.staged_store) = (true, true));
            if direct_load.can_stage_store() {
                // Padded rows also without their padding (two choices at once: the staged
                // copy out reads rows the passes wrote, so both meet the same layout).
                if t.is_padded() {
                    let mut unpadded = direct_load.clone();
                    unpadded.tuning.drop_padding();
                    offer(if t.direct_io { "staged store unpadded" } else { "direct load unpadded" }.into(), &|| Some(unpadded.clone()));
                }
                offer(if t.direct_io { "staged store" } else { "direct load" }.into(), &|| Some(direct_load.clone()));
            }
        }
        offer("twiddle table".into(), &|| Some(with(&|r| r.tuning.twiddles = TwiddleSource::Table)));
        offer("twiddles computed".into(), &|| Some(with(&|r| r.tuning.twiddles = TwiddleSource::Computed)));
        offer(if t.ping_pong { "in place" } else { "ping-pong" }.into(), &|| Some(with(&|r| r.tuning.ping_pong = !t.ping_pong)));
        if self.core.convolution_len().is_some() {
            let what = if t.fused_convolution { "convolution split" } else { "convolution fused" };
            offer(what.into(), &|| Some(with(&|r| r.tuning.fused_convolution = !t.fused_convolution)));
        }
        // Real transforms of even length: the half spectrum a pair at a time, or each value on
        // its own.
        if self.can_pair_half_spectrum() {
            let what = if t.half_spectrum_pairs { "half spectrum elementwise" } else { "half spectrum pairs" };
            offer(what.into(), &|| Some(with(&|r| r.tuning.half_spectrum_pairs = !t.half_spectrum_pairs)));
            // Staged pairs without the padding the pick's passes chose (the pair load's
            // shared stores and the passes' reads with it: two choices at once).
            if !t.half_spectrum_pairs && t.is_padded() {
                offer("half spectrum pairs unpadded".into(), &|| Some(with(&|r| {
                    r.tuning.half_spectrum_pairs = true;
                    r.tuning.drop_padding();
                })));
            }
            // Direct rows: the pairs in the core's own pass (mirror pairs), or staged.
            if self.can_mirror_pairs() {
                let mirrored = self.pairs_in_core_pass();
                offer(if mirrored { "half spectrum pairs staged" } else { "mirror pairs" }.into(), &|| Some(with(&|r| {
                    r.tuning.half_spectrum_pairs = true;
                    r.tuning.mirror_pairs = !mirrored;
                })));
            }
        }
        // C2R of even length: the R2C pick's kernel run backwards (its radices in reverse
        // order, its threads, rows and padding), reading the half spectrum in mirror pairs in
        // its first pass where R2C writes them (or could write them) in its last: no staged
        // pair load, and the pair work on as many threads as R2C gives it. And the same from
        // the kernel R2C's wisdom runs instead of its pick, where there is one: R2C 3822 runs
        // r21x13x7 at 0.92 of copy, C2R 3822's picks (the mirror of r13x7x7x3 among them) 0.83.
        if self.problem.kind == FftKind::C2R && self.can_mirror_pairs() {
            let r2c = FftProblem { kind: FftKind::R2C, ..self.problem };
            offer("mirror of r2c".into(), &|| self.mirror_of(FftRecipe::design_row_by_heuristic(r2c, limits).ok()?));
            offer("mirror of r2c wisdom".into(), &|| {
                let planned = FftRecipe::design_row_by_heuristic(r2c, limits).ok()?.wisdom_variant(limits)?.1;
                self.mirror_of(planned)
            });
        }
        // Rader's several DFTs a row: the other lane order (the model picked this one).
        if self.has_dfts_across() {
            let what = if t.lanes_across_dfts { "lanes along dfts" } else { "lanes across dfts" };
            offer(what.into(), &|| Some(with(&|r| r.tuning.lanes_across_dfts = !t.lanes_across_dfts)));
        }
        // A choice a rule makes unless a variant set it (`ruled_choice`), where the kernel can
        // take it: the other one, named `to_take` where the kernel declines it, else `to_decline`.
        let mut flip = |can: bool, taken: bool, (to_take, to_decline): (&str, &str), set: &dyn Fn(&mut FftTuning, Option<bool>)| {
            if can {
                offer(if taken { to_decline } else { to_take }.into(), &|| Some(with(&|r| set(&mut r.tuning, Some(!taken)))));
            }
        };
        // Rader's gather from the other memory (rader_gather.rs): the rule measured per kind,
        // the lengths it loses at (0.87x-1.13x per length in C2C f32) a choice per kernel.
        flip(self.can_gather_from_global(), self.gathers_from_global(), ("gather from global", "gather from shared"), &|t, v| t.rader_global_gather = v);
        // C2R's pair load by rows or flat (pair_load.rs): the rule measured per precision and
        // width, the lengths it loses at (0.90x-1.14x per length) a choice per kernel.
        flip(self.can_load_pairs_by_row(), self.loads_pairs_by_row(), ("pairs by row", "pairs flat"), &|t, v| t.pairs_by_row = v);
        // Each trip of a pass guarded, or the partial trip alone (trip_guards.rs).
        flip(self.can_guard_partial_trip_only(), self.guards_partial_trip_only(), ("partial trip guards", "every trip guarded"), &|t, v| t.partial_trip_guards = v);
        // Mirror pairs' twiddles from the table, or W^p stepped by literals (pair_twiddles.rs).
        flip(self.can_step_pair_twiddles(), self.steps_pair_twiddles(), ("stepped pair twiddles", "pair twiddles from the table"), &|t, v| t.stepped_pair_twiddles = v);
        // Staged stores from the block's sector, or from its first value (aligned_stores.rs).
        flip(self.can_align_stores(), self.aligns_stores(), ("sector-aligned stores", "stores from the block's start"), &|t, v| t.aligned_stores = v);
        offer("no padding".into(), &|| Some(with(&|r| r.tuning.drop_padding())));
        // The row designed anew under the lane-group bank model (lane_groups.rs): its padding
        // and lane order as that model lays them out. Planning takes that design by rule only
        // for the rows its A/Bs timed (`lane_groups.tsv`); here any row's can be timed (the
        // rows past one 1D launch, or those the rule keeps on the pick) and kept as wisdom.
        if limits.bank_model == BankModel::WholeWarp {
            offer("lane groups".into(), &|| FftRecipe::design_row_by_heuristic(self.problem, lane_groups(limits)).ok());
        }
        // Composite codelets split the other way (codelet.rs): prime-factor splits where they
        // take fewer instructions, or Cooley-Tukey's always. Fewer instructions paid in f32
        // Bluestein rows, not on average elsewhere (up to 6% faster at some Rader and
        // Stockham rows, 30% slower at others: more registers), so a choice per kernel.
        if self.core.codelet_radices().into_iter().any(splits_differ) {
            let (what, split) = match t.codelet_split {
                CodeletSplit::CooleyTukey => ("prime-factor codelets", CodeletSplit::FewestInstructions),
                CodeletSplit::FewestInstructions => ("cooley-tukey codelets", CodeletSplit::CooleyTukey),
            };
            offer(what.into(), &|| Some(with(&|r| r.tuning.codelet_split = split)));
        }
        // Codelets of large primes by Rader's algorithm in registers, where that takes fewer
        // instructions (codelet.rs's `rader_pays`), or every prime from 29, where fewer values
        // live might pay for more instructions: each where its kernel differs from the one
        // before it in this list (Every takes what Paying takes and more).
        if t.rader_codelets == RaderCodelets::Off {
            let choices = [("rader codelets", RaderCodelets::Paying, RaderCodelets::Off), ("rader codelets every prime", RaderCodelets::Every, RaderCodelets::Paying)];
            for (what, choice, before) in choices {
                if self.core.codelet_radices().into_iter().any(|radix| choice.differs_from(before, radix)) {
                    offer(what.into(), &|| Some(with(&|r| r.tuning.rader_codelets = choice)));
                }
            }
        }
        // Rader's convolution by prime factors, without its two twiddle stages, in two coprime
        // radices (its own, or p - 1 split anew; prime_factor_convolution.rs): about a tenth
        // fewer instructions in the Rader kernels the sixty-first session's survey found bound
        // by arithmetic. On the H200 (sixty-second session) 1.02x-1.07x where the radices are
        // the pick's own, slower where split anew into a radix past 16: the wisdom takes it
        // length by length.
        if matches!(self.core, Core::Rader { .. }) {
            offer("prime-factor convolution".into(), &|| self.with_prime_factor_convolution(limits));
        }
        // Launch bounds: up to 3 blocks a multiprocessor (the bounds the heuristic's rules set),
        // and tighter ones up to MAX_BOUND_VARIANT where that many blocks fit the
        // multiprocessor's threads and shared memory. Most kernels are limited by registers:
        // under a tighter bound ptxas holds them down so that one more block is resident
        // (C2C 3380: 96 -> 80 registers, 4 -> 5 blocks, no spill, 1.05x on an H200).
        // `scripts/bound_candidates.py` finds such bounds without a GPU; those that timed
        // faster are wisdom entries (fortieth session, docs/BENCHMARKS.md).
        for blocks in (1..=MAX_BOUND_VARIANT).filter(|&b| b <= 3 || self.could_reside(b, limits)) {
            offer(format!("min {blocks} blocks/SM"), &|| Some(with(&|r| r.tuning.min_blocks_per_sm = blocks)));
        }
        offer("rows /4".into(), &|| Some(with(&|r| r.tuning.transforms_per_block = t.transforms_per_block / 4)));
        // Neighbouring threads on neighbouring rows (staged, an odd row stride), with rows
        // enough that a half-warp's 16 lanes share one butterfly; two blocks a multiprocessor
        // (lanes_across_rows.rs). From a pick that has them: the other counts, and the same
        // rows with lanes along each row.
        if self.io.is_none() && self.cluster.is_none() && self.problem.kind == FftKind::C2C {
            for rows in [8u32, 16, 32].into_iter().filter(|&rows| !t.lanes_across_rows || rows != t.transforms_per_block) {
                offer(format!("lanes across {rows} rows"), &|| {
                    let r = self.with_lanes_across_rows(rows);
                    r.fits_twice_in_shared_memory(limits).then_some(r)
                });
                // In place: half the shared memory, for rows whose ping-pong buffers would not fit.
                if t.ping_pong && !t.lanes_across_rows {
                    offer(format!("lanes across {rows} rows in place"), &|| {
                        let mut r = self.with_lanes_across_rows(rows);
                        r.tuning.ping_pong = false;
                        r.fits_twice_in_shared_memory(limits).then_some(r)
                    });
                }
            }
            if t.lanes_across_rows {
                offer("lanes along rows".into(), &|| Some(with(&|r| r.tuning.lanes_across_rows = false)));
            }
        }
        out
    }

    /// This C2R row as `r2c`'s kernel run backwards: its radices in reverse order, its
    /// threads, rows and padding, reading the half spectrum in mirror pairs in its first pass
    /// where R2C writes them in its last. None where `r2c` is no Stockham row that mirrors.
    fn mirror_of(&self, r2c: FftRecipe) -> Option<FftRecipe> {
        let Core::Stockham { len, radices } = &r2c.core else { return None };
        if !r2c.can_mirror_pairs() {
            return None;
        }
        let core = Core::Stockham { len: *len, radices: radices.iter().rev().copied().collect() };
        let mut c2r = FftRecipe { problem: self.problem, core, ..r2c };
        (c2r.tuning.half_spectrum_pairs, c2r.tuning.mirror_pairs) = (true, true);
        Some(c2r)
    }

    /// Whether `blocks` blocks of this kernel fit one multiprocessor's threads and shared
    /// memory (the most a block may take plus one driver reserve, as the cluster planner counts
    /// it: 228 KiB on an H100 or H200), so that only registers could keep them from being
    /// resident together.
    fn could_reside(&self, blocks: u32, limits: DeviceLimits) -> bool {
        blocks * self.threads_per_block() <= THREADS_PER_MULTIPROCESSOR
            && u64::from(blocks) <= limits.blocks_by_shared_memory(self.shared_bytes())
    }
}

/// Tightest launch bound the variants offer (blocks a multiprocessor).
const MAX_BOUND_VARIANT: u32 = 8;

/// Rotations of `radices` and of their reverse, each once, `radices` itself left out.
fn other_radix_orders(radices: &[usize]) -> Vec<Vec<usize>> {
    let reversed: Vec<usize> = radices.iter().rev().copied().collect();
    let mut orders: Vec<Vec<usize>> = Vec::new();
    for base in [radices, &reversed[..]] {
        for k in 0..base.len() {
            let rotated: Vec<usize> = base[k..].iter().chain(&base[..k]).copied().collect();
            if rotated != radices && !orders.contains(&rotated) {
                orders.push(rotated);
            }
        }
    }
    orders
}

#[cfg(test)]
mod tests {
    use crate::fft::{DeviceLimits, FftProblem, FftRecipe};

    const H200: DeviceLimits = DeviceLimits::H200;

    #[test]
    fn variants_are_valid_distinct_and_differ_from_the_pick() {
        for n in [1, 2, 7, 64, 97, 360, 2039, 4096] {
            let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(n, 100), H200).unwrap();
            let variants = pick.variants(H200);
            let mut names: Vec<String> = variants.iter().map(|(_, r)| r.kernel_name()).collect();
            names.push(pick.kernel_name());
            let count = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), count, "N={n}: two variants share a kernel name");
            for (what, r) in &variants {
                assert!(r.check(H200).is_ok(), "N={n} {what}");
                assert_eq!(r.problem, pick.problem);
            }
        }
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(4096, 100), H200).unwrap();
        // (Under 15 a power of two packs into radix 8 as under 8: the variant keeps the first name.)
        let radix8 = pick.variants(H200).into_iter().find(|(w, _)| w == "radix<=15").unwrap().1;
        assert_eq!(radix8.core.stages()[0].radices, [8, 8, 8, 8]);
        assert_eq!(radix8.tuning.threads_per_transform, 512);
    }

    /// A name is one kernel: f64 3354's Rader row (r7x6 o13x6) has passes of radix 6 in its
    /// convolution and outside it, with different butterfly counts; the wisdom's lookup and
    /// the variants suite's table go by name.
    #[test]
    fn each_variant_name_is_one_kernel() {
        let problem = FftProblem::c2c(3354, 100).precision(crate::fft::Precision::F64);
        let pick = FftRecipe::design_by_heuristic(problem, H200).unwrap();
        let rader = pick.variant_named(H200, "rader").unwrap();
        let variants = rader.variants(H200);
        let mut names: Vec<&str> = variants.iter().map(|(w, _)| w.as_str()).collect();
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count, "{names:?}");
        let radix6: Vec<&str> = names.iter().copied().filter(|w| w.starts_with("threads for radix 6")).collect();
        assert_eq!(radix6.len(), 2, "{names:?}");
        for w in radix6 {
            let named = rader.variant_named(H200, w).unwrap();
            assert_eq!(variants.iter().find(|(v, _)| v == w).unwrap().1, named, "{w}");
        }
    }

    /// `lane groups` is the row the lane-group model designs: offered from the heuristic's
    /// pick where that differs (C2C 7040, which planning lays out so by rule, and R2C 8192,
    /// which it does not), named from the plan's own recipe only where planning kept the pick.
    #[test]
    fn the_lane_group_variant_is_the_lane_group_design() {
        for problem in [FftProblem::c2c(7040, 4), FftProblem::r2c(8192, 4)] {
            let pick = FftRecipe::design_row_by_heuristic(problem, H200).unwrap();
            let lanes = FftRecipe::design_row_by_heuristic(problem, crate::fft::lane_groups::lane_groups(H200)).unwrap();
            assert_ne!(lanes, pick, "{problem:?}");
            assert_eq!(pick.variant_named(H200, "lane groups"), Some(lanes.clone()), "{problem:?}");
            let planned = FftRecipe::design_row(problem, H200).unwrap();
            assert_eq!(planned.variant_named(H200, "lane groups").is_none(), planned == lanes, "{problem:?}");
        }
        // Under the lane-group model itself, no such variant.
        let lanes = FftRecipe::design_row(FftProblem::c2c(7040, 4), H200).unwrap();
        assert!(lanes.variant_named(crate::fft::lane_groups::lane_groups(H200), "lane groups").is_none());
    }

    /// C2R rows mirror R2C's wisdom kernel as well as its pick: C2R 3822 the r21x13x7 of 91
    /// threads that R2C 3822 runs, backwards.
    #[test]
    fn c2r_mirrors_the_kernel_r2c_wisdom_runs() {
        let c2r = FftRecipe::design_row_by_heuristic(FftProblem::c2r(3822, 4), H200).unwrap();
        let mirrored = c2r.variant_named(H200, "mirror of r2c wisdom").unwrap();
        assert_eq!(mirrored.kernel_name(), "fft_c2r_f32_n3822_half_r7x13x21_t91x1_p0r0_d_pairs_mirror");
        let r2c = FftRecipe::design_row(FftProblem::r2c(3822, 4), H200).unwrap();
        assert_eq!(r2c.kernel_name(), "fft_r2c_f32_n3822_half_r21x13x7_t91x1_p0r0_d_pairs");
        // Where R2C has no wisdom, no such variant (C2R 36).
        assert!(FftRecipe::design_row(FftProblem::r2c(36, 4), H200).unwrap().wisdom_variant(H200).is_none());
        let c2r36 = FftRecipe::design_row_by_heuristic(FftProblem::c2r(36, 4), H200).unwrap();
        assert!(c2r36.variant_named(H200, "mirror of r2c wisdom").is_none());
    }

    #[test]
    fn radix_orders_are_rotations_of_the_order_and_its_reverse() {
        assert_eq!(super::other_radix_orders(&[26, 26, 5]), [vec![26, 5, 26], vec![5, 26, 26]]);
        assert_eq!(super::other_radix_orders(&[4, 3, 2]), [vec![3, 2, 4], vec![2, 4, 3], vec![2, 3, 4], vec![3, 4, 2], vec![4, 2, 3]]);
        assert!(super::other_radix_orders(&[16]).is_empty());
        assert!(super::other_radix_orders(&[8, 8]).is_empty());
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(3380, 100), H200).unwrap();
        let order = pick.variant_named(H200, "order 5x26x26").unwrap();
        assert_eq!(order.core.stages()[0].radices, [5, 26, 26]);
        assert_eq!(order.tuning, pick.tuning);
    }

    /// Bounds past 3 blocks a multiprocessor only where that many blocks fit its threads and
    /// shared memory: 3380's 130 threads and 27,040 bytes fit 8 blocks (8 x 28,064 bytes),
    /// 4096's 256 threads and 33,784 bytes only 6.
    #[test]
    fn tighter_launch_bounds_only_where_the_blocks_could_reside() {
        let bounds = |p: FftProblem| -> Vec<u32> {
            let pick = FftRecipe::design_by_heuristic(p, H200).unwrap();
            let mut b: Vec<u32> = pick.variants(H200).iter().filter(|(w, _)| w.ends_with("blocks/SM")).map(|(_, r)| r.tuning.min_blocks_per_sm).collect();
            b.sort();
            b
        };
        // (The pick's own bound, 1 here, is no variant.)
        assert_eq!(bounds(FftProblem::c2c(3380, 100)), [2, 3, 4, 5, 6, 7, 8]);
        let wide = FftRecipe::design_by_heuristic(FftProblem::c2c(4096, 100), H200).unwrap();
        let fits = |b: u32| b * wide.threads_per_block() <= 2048 && u64::from(b) * (wide.shared_bytes() + 1024) <= 233_472;
        let expected: Vec<u32> = (1..=8).filter(|&b| b != wide.tuning.min_blocks_per_sm && (b <= 3 || fits(b))).collect();
        assert_eq!(bounds(FftProblem::c2c(4096, 100)), expected);
        assert!(!fits(8), "4096's blocks should not fit 8 to a multiprocessor: the test checks nothing");
        // The named variant is what the wisdom's entries name (C2C 3380 runs it).
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(3380, 100), H200).unwrap();
        assert!(pick.variant_named(H200, "min 4 blocks/SM").unwrap().kernel_name().contains("_m4_"));
    }

    /// C2R's "mirror of r2c": the R2C pick of the same length with its radices reversed and
    /// its threads, rows and padding, reading the half spectrum in mirror pairs; not offered
    /// where C2R's rows cannot take mirror pairs (odd N: a widened core).
    #[test]
    fn mirror_of_r2c_runs_the_r2c_pick_backwards() {
        let c2r = FftRecipe::design_by_heuristic(FftProblem::c2r(4096, 100), H200).unwrap();
        let r2c = FftRecipe::design_by_heuristic(FftProblem::r2c(4096, 100), H200).unwrap();
        let mirrored = c2r.variant_named(H200, "mirror of r2c").unwrap();
        let mut reversed = r2c.core.stages()[0].radices.clone();
        reversed.reverse();
        assert_eq!(mirrored.core.stages()[0].radices, reversed);
        assert_ne!(reversed, r2c.core.stages()[0].radices, "4096's R2C radices read the same both ways: the test checks less");
        assert_eq!(mirrored.tuning, r2c.tuning);
        assert!(mirrored.pairs_in_core_pass() && mirrored.problem == c2r.problem && mirrored.check(H200).is_ok());
        // Where R2C writes its pairs staged (2700: mirror pairs would grow its last pass), the
        // C2R variant still reads mirror pairs.
        let staged = FftRecipe::design_by_heuristic(FftProblem::c2r(2700, 100), H200).unwrap().variant_named(H200, "mirror of r2c").unwrap();
        assert!(staged.pairs_in_core_pass());
        assert_eq!(FftRecipe::design_by_heuristic(FftProblem::c2r(2701, 100), H200).unwrap().variant_named(H200, "mirror of r2c"), None);
    }

    /// The wisdom's lookup designs one variant by name: the same recipe as in the whole list.
    #[test]
    fn a_variant_named_is_the_one_listed() {
        for p in [FftProblem::c2c(351, 100), FftProblem::c2c(3352, 100), FftProblem::c2c(353, 100), FftProblem::r2c(1728, 100), FftProblem::c2r(390, 100)] {
            let pick = FftRecipe::design_by_heuristic(p, H200).unwrap();
            for (what, r) in pick.variants(H200) {
                assert_eq!(pick.variant_named(H200, &what).as_ref(), Some(&r), "{p:?} {what}");
            }
            assert_eq!(pick.variant_named(H200, "no such variant"), None);
        }
    }

    #[test]
    fn stores_are_staged_only_where_the_last_pass_would_write_global_memory() {
        let find = |p: FftProblem, what: &str| FftRecipe::design_by_heuristic(p, H200).unwrap().variants(H200).into_iter().find(|(w, _)| w == what).map(|v| v.1);
        // Staged rows (2 threads): the first pass reads global memory, the store stays staged.
        let direct_load = find(FftProblem::c2c(20, 100), "direct load").unwrap();
        assert!(direct_load.tuning.direct_io && direct_load.tuning.staged_store);
        assert!(direct_load.kernel_name().contains("_dl"), "{}", direct_load.kernel_name());
        assert_eq!(find(FftProblem::c2c(20, 100), "staged store"), None);
        // Rows that read directly and store staged (the pick at 156, 6 threads): the store direct too.
        let direct = find(FftProblem::c2c(156, 100), "direct store").unwrap();
        assert!(direct.tuning.direct_io && !direct.tuning.staged_store);
        // Direct rows: their last pass through shared memory; and back.
        let staged_store = find(FftProblem::c2c(4096, 100), "staged store").unwrap();
        assert!(staged_store.tuning.direct_io && staged_store.tuning.staged_store);
        let pick = FftRecipe::design_by_heuristic(FftProblem::c2c(4096, 100), H200).unwrap();
        assert!(staged_store.variants(H200).iter().any(|(_, r)| *r == pick));
        // C2R pairing its half spectrum loads it staged: a staged store would be the staged kernel.
        assert_eq!(find(FftProblem::c2r(264, 100), "direct load"), None);
        assert_eq!(find(FftProblem::c2r(2904, 100), "staged store"), None);
        // R2C of even length stores through shared memory already: no such variant, and the
        // tuning is refused with what to change.
        assert_eq!(find(FftProblem::r2c(4096, 100), "staged store"), None);
        let mut r2c = FftRecipe::design_by_heuristic(FftProblem::r2c(4096, 100), H200).unwrap();
        r2c.tuning.staged_store = true;
        assert!(r2c.check(H200).unwrap_err().to_string().contains("without it"));
    }

    /// The codelet split is each kernel's choice: Rader's 1021 (r17x10x6) takes prime-factor
    /// codelets of 10 and 6 as a variant, f32 Bluestein rows (split so by the rule) Cooley-Tukey
    /// ones; each variant's kernel is named apart and has the other codelets.
    #[test]
    fn codelet_splits_are_a_variant() {
        use crate::fft::codegen::fft_source;
        use crate::fft::codelet::CodeletSplit;
        let rader = FftRecipe::design_by_heuristic(FftProblem::c2c(1021, 100), H200).unwrap().variant_path(H200, "rader").unwrap();
        let bluestein = FftRecipe::design_by_heuristic(FftProblem::c2c(2539, 100), H200).unwrap();
        for (pick, what, split) in [(rader, "prime-factor codelets", CodeletSplit::FewestInstructions), (bluestein, "cooley-tukey codelets", CodeletSplit::CooleyTukey)] {
            let (_, other) = pick.variants(H200).into_iter().find(|(w, _)| w == what).unwrap();
            assert_eq!(other.tuning.codelet_split, split);
            assert_ne!(other.kernel_name(), pick.kernel_name());
            assert_ne!(fft_source(&other).body, fft_source(&pick).body, "{what}");
        }
        // Powers of two have no coprime split to offer.
        let pow2 = FftRecipe::design_by_heuristic(FftProblem::c2c(4096, 100), H200).unwrap();
        assert!(pow2.variants(H200).iter().all(|(w, _)| !w.ends_with("codelets")));
    }
}
