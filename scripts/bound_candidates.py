#!/usr/bin/env python3
"""Which FFT kernels a tighter launch bound would give one more resident block, without a GPU.

Most of our kernels are limited by registers, not shared memory or threads: C2C 3380 (130
threads, 96 registers) keeps 4 blocks a multiprocessor where its shared memory allows 8. Under
`__launch_bounds__(130, 4)` ptxas holds it to 80 registers, 5 blocks are resident, and it ran
1.05x faster on an H200 (fortieth session, docs/BENCHMARKS.md). For each kernel spec (as the
fft_recipes example takes them: 3380, r2c:1690, f64:904) this compiles the kernel as designed
(NVRTC + ptxas for sm_90, from NVIDIA's pip wheels: see scripts/sass.py), computes its blocks a
multiprocessor on an H100/H200, and where registers are the limit, finds the smallest bound that
makes one more block resident and what ptxas spills under it. The bounds worth timing are then
`coalesce bench fft --suite variants --sizes ... --variants 'min B blocks/SM'`, and the
winners join the wisdom (src/fft/wisdom.rs).

    cargo build --release --example fft_recipes
    python3 scripts/bound_candidates.py 3380 4056 r2c:3380 > candidates.csv

About a second a kernel (two at a time on this machine's two cores).
"""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass  # noqa: E402  (scripts/sass.py: NVRTC and ptxas from the pip wheels)

RECIPES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "examples", "fft_recipes")

# An H100's or H200's multiprocessor: registers, resident warps and blocks, shared memory and
# the shared memory the driver reserves for each block; registers are given a warp at a time in
# units of 256.
REGISTERS, WARPS, BLOCKS, SHARED, SHARED_RESERVED, REGISTER_UNIT = 65536, 64, 32, 233472, 1024, 256

# Bounds tried past the current residency before giving up.
MAX_EXTRA_BOUND = 2


def registers_and_spills(source, name):
    with tempfile.TemporaryDirectory() as tmp:
        ptx, cubin = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
        with open(ptx, "w") as f:
            f.write(sass.ptx_of(source, name))
        info = subprocess.run([sass.tool("ptxas"), "-arch=sm_90", "-v", ptx, "-o", cubin], capture_output=True, text=True).stderr
    return int(re.search(r"Used (\d+) registers", info).group(1)), int(re.search(r"(\d+) bytes spill stores", info).group(1))


def residency(threads, registers, shared):
    """Blocks a multiprocessor, and which resource sets it."""
    warps = -(-threads // 32)
    per_warp = -(-registers * 32 // REGISTER_UNIT) * REGISTER_UNIT
    limits = {
        "registers": REGISTERS // (per_warp * warps),
        "shared": SHARED // (shared + SHARED_RESERVED),
        "threads": WARPS // warps,
        "blocks": BLOCKS,
    }
    blocks = min(limits.values())
    return blocks, min(limits, key=lambda k: (limits[k], k != "registers"))


def bounded(source, threads, blocks):
    """The kernel's source with `__launch_bounds__(threads, blocks)` (the prelude's KERNEL_BLOCKS)."""
    return re.sub(r"^KERNEL_BLOCK\w*\((\d+)[^)]*\)", f"KERNEL_BLOCKS({threads}, {blocks})", source, count=1, flags=re.M)


def candidate(spec):
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([RECIPES, "--source", tmp, spec], capture_output=True, text=True, check=True).stdout
        shape = re.search(r"(\d+) threads x (\d+) transforms per block, (\d+) bytes shared", out)
        threads, shared = int(shape.group(1)) * int(shape.group(2)), int(shape.group(3))
        path = glob.glob(os.path.join(tmp, "*.cu"))[0]
        name = os.path.basename(path)[:-3]
        source = open(path).read()
    registers, spills = registers_and_spills(source, name)
    blocks, limit = residency(threads, registers, shared)
    row = [spec, name, threads, shared, registers, spills, blocks, limit]
    if limit == "registers":
        # ptxas's register cap under a bound is not simply 65536 / (blocks x threads): try the
        # current residency itself (C2C 3380: a bound of 4 already gives 80 registers, 5 blocks).
        for bound in range(max(blocks, 2), blocks + MAX_EXTRA_BOUND + 1):
            r, s = registers_and_spills(bounded(source, threads, bound), name)
            if residency(threads, r, shared)[0] > blocks:
                return row + [bound, r, s, residency(threads, r, shared)[0]]
    return row + ["", "", "", ""]


def main():
    specs = sys.argv[1:]
    if not specs:
        sys.exit(__doc__)
    print("spec,kernel,threads a block,shared bytes,registers,spill bytes,blocks/SM,limited by,bound,registers under it,spill bytes under it,blocks/SM under it")
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for row in pool.map(candidate, specs):
            print(",".join(map(str, row)), flush=True)


if __name__ == "__main__":
    main()
