#!/usr/bin/env python3
"""Would a large prime's DFT run faster split over several threads? (issue 3, a probe)

Rows of a lone large prime p (29..61) run their codelet in one thread: the pairs' codelet
holds all p - 1 pair sums and then the outputs, so ptxas gives it up to 255 registers and an
H200 holds two blocks of 104 threads a multiprocessor (N = 59: 0.60 of copy in the
sixty-fifth sweep, 83 SASS instructions a point, far under its issue ceiling). Here the same
pairs' arithmetic is split by output: `parts` threads a row, each reading the row's values
from shared memory as it goes and accumulating only its share of the outputs y[m], y[p-m]
(m in 1..(p-1)/2), so that it holds about 4 (p-1)/(2 parts) floats. Part 0 also sums y[0].
The parts are warp-uniform (thread t works on row t mod rows, part t / rows).

    python3 scripts/prime_split_probe.py write DIR ANY.cu P [P ...]   # kernels to DIR (sass.py them)
    python3 scripts/prime_split_probe.py composite DIR KERNEL.cu ...  # a pick's first pass split
    python3 scripts/prime_split_probe.py time DIR [ORIGINAL.cu ...]   # on the GPU (CuPy)

`time` runs every kernel of DIR and the original kernels named (fft_recipes --source) on the
same random rows batched to 256 MiB, checks each against cupy.fft.fft and prints the least time
of 20 runs as a fraction of the driver's device-to-device copy of the same bytes.

Seventy-third session, H200 (docs/BENCHMARKS.md): two parts ran N = 59 at 0.745 of copy against
the pick's 0.616 (0.692 under a launch bound of three blocks), and gained nothing at 43, 47 and
53; the composite rows ran slower (1645 = 47 x 7 x 5: 0.529 -> 0.445). Not built in.
"""
import math
import os
import re
import sys

from cupy_timing import least_ms

PRELUDE_END = "/* ---- end of prelude ---- */"


def lit(v):
    return f"({v:.9e}f)"


def shares_of(p, parts):
    """The outputs m in 1..(p-1)/2 of each part (y[m] and y[p-m] both), in order."""
    ms = list(range(1, (p - 1) // 2 + 1))
    return [ms[len(ms) * k // parts: len(ms) * (k + 1) // parts] for k in range(parts)]


def part_lines(p, share, with_sum, read, pad):
    """One part's arithmetic: reads the pairs x[j], x[p-j] through `read(i)` (an expression of
    value i) as it goes and leaves y[m] and y[p-m] of each m in `share` in `ym` and `y{p-m}`,
    and with_sum y[0] in `sum`."""
    h = (p - 1) // 2
    out = [f"{pad}const cplx x0 = {read(0)};"]
    for i in range(len(share)):
        out.append(f"{pad}cplx c{i} = x0, d{i} = MAKE_CPLX(0.0f, 0.0f);")
    if with_sum:
        out.append(f"{pad}cplx sum = x0;")
    for j in range(1, h + 1):
        out.append(f"{pad}{{ const cplx xa = {read(j)}, xb = {read(p - j)};")
        out.append(f"{pad}  const cplx a = MAKE_CPLX(xa.x + xb.x, xa.y + xb.y), b = MAKE_CPLX(xa.x - xb.x, xa.y - xb.y);")
        if with_sum:
            out.append(f"{pad}  sum.x += a.x; sum.y += a.y;")
        for i, m in enumerate(share):
            c, sn = math.cos(2 * math.pi * m * j / p), math.sin(2 * math.pi * m * j / p)
            out.append(f"{pad}  c{i}.x += {lit(c)} * a.x; c{i}.y += {lit(c)} * a.y; d{i}.x += {lit(sn)} * b.x; d{i}.y += {lit(sn)} * b.y;")
        out.append(f"{pad}}}")
    for i, m in enumerate(share):
        out.append(f"{pad}const cplx y{m} = MAKE_CPLX(c{i}.x + d{i}.y, c{i}.y - d{i}.x), y{p - m} = MAKE_CPLX(c{i}.x - d{i}.y, c{i}.y + d{i}.x);")
    return out


def per_part(shares, body, pad):
    """`body(k, share)`'s lines under a branch on the thread's part, each part's in turn."""
    out = []
    for k, share in enumerate(shares):
        out.append(f"{pad}{'if' if k == 0 else 'else if'} (part == {k}u) {{")
        out += body(k, share)
        out.append(f"{pad}}}")
    return out


def split_kernel(p, parts, rows, blocks, prelude):
    """The source of a kernel of `rows` rows of p points a block, `parts` threads a row."""
    shares = shares_of(p, parts)
    threads = parts * rows
    name = f"split_n{p}_s{parts}_r{rows}_b{blocks}"
    bound = f"KERNEL_BLOCKS({threads}, {blocks})" if blocks else f"KERNEL_BLOCK({threads})"
    out = [prelude, "typedef f32 real;\ntypedef c32 cplx;\n#define MAKE_CPLX(re, im) MAKE_C32(re, im)\n"]
    out.append(f"{bound} void {name}(const GLOBAL cplx* in, GLOBAL cplx* out, const GLOBAL cplx* RESTRICT tables, u64 batch, real sign, real scale) {{")
    out.append(f"    SHARED_ARRAY(cplx, sh, {rows * p});")
    out.append("    const u32 tid = LOCAL_ID();")
    out.append(f"    const u64 first = (u64)GROUP_ID() * {rows};")
    out.append(f"    const u32 rows = (u32)(batch - first < {rows} ? batch - first : {rows});")
    out.append(f"    const GLOBAL cplx* in_rows = in + first * {p}u;")
    out.append(f"    GLOBAL cplx* out_rows = out + first * {p}u;")
    loads = math.ceil(rows * p / threads)
    out.append("    #pragma unroll")
    out.append(f"    for (u32 k = 0; k < {loads}u; ++k) {{")
    out.append(f"        const u32 e = tid + k * {threads}u;")
    out.append(f"        if (e < rows * {p}u) {{ cplx v = in_rows[e]; v.y *= sign; sh[e] = v; }}")
    out.append("    }")
    out.append("    BARRIER();")
    out.append(f"    const u32 part = tid / {rows}u;   /* warp-uniform where rows is a multiple of 32 */")
    out.append(f"    const u32 s = tid - part * {rows}u;")
    most = max(len(sh) for sh in shares)
    out.append(f"    cplx y[{2 * most + 1}];")
    def compute(k, share):
        lines = part_lines(p, share, k == 0, lambda i: f"sh[s * {p}u + {i}u]", "        ")
        lines += [f"        y[{2 * i}] = y{m}; y[{2 * i + 1}] = y{p - m};" for i, m in enumerate(share)]
        return lines + ([f"        y[{2 * most}] = sum;"] if k == 0 else [])

    def store(k, share):
        lines = [f"            sh[s * {p}u + {m}u] = y[{2 * i}]; sh[s * {p}u + {p - m}u] = y[{2 * i + 1}];" for i, m in enumerate(share)]
        return lines + ([f"            sh[s * {p}u] = y[{2 * most}];"] if k == 0 else [])

    out += per_part(shares, compute, "    ")
    out.append("    BARRIER();")
    out.append("    if (s < rows) {")
    out += per_part(shares, store, "        ")
    out.append("    }")
    out.append("    BARRIER();")
    out.append("    #pragma unroll")
    out.append(f"    for (u32 k = 0; k < {loads}u; ++k) {{")
    out.append(f"        const u32 e = tid + k * {threads}u;")
    out.append(f"        if (e < rows * {p}u) {{ const cplx v = sh[e]; out_rows[e] = MAKE_CPLX(v.x * scale, v.y * (sign * scale)); }}")
    out.append("    }")
    out.append("}")
    return name, "\n".join(out) + "\n"


def write(directory, original, primes):
    """Split kernels for each prime, their prelude taken from a kernel fft_recipes dumped."""
    prelude = open(original).read().split(PRELUDE_END)[0] + PRELUDE_END + "\n"
    os.makedirs(directory, exist_ok=True)
    for p in primes:
        for parts, rows, blocks in [(2, 64, 0), (2, 128, 0), (3, 64, 0), (4, 64, 0), (2, 64, 4), (3, 64, 5)]:
            name, src = split_kernel(p, parts, rows, blocks, prelude)
            open(os.path.join(directory, name + ".cu"), "w").write(src)


def split_first_pass(src, parts, blocks):
    """A kernel of fft_recipes whose first pass is a prime radix p read straight from global
    memory (direct_io, one butterfly a thread), with that pass split over `parts` times the
    threads: part k computes its share of the outputs, the passes after it run on part 0's
    threads only (the others wait at the barriers)."""
    head, body = src.split(PRELUDE_END)
    m = re.search(r"KERNEL_BLOCK\((\d+)\) void (\w+)\(", body)
    threads, name = int(m.group(1)), m.group(2)
    n = int(re.search(r"_n(\d+)_", name).group(1))
    p = int(re.search(r"pass 1 of \d+: radix (\d+),", body).group(1))
    t_row = int(re.search(r"const u32 s = tid / (\d+);", body).group(1))
    bfly = n // p
    assert t_row >= bfly, "one butterfly a thread"
    new = f"{name}_split{parts}" + (f"_b{blocks}" if blocks else "")
    bound = f"KERNEL_BLOCKS({parts * threads}, {blocks})" if blocks else f"KERNEL_BLOCK({parts * threads})"
    body = body.replace(m.group(0), f"{bound} void {new}(")
    body = body.replace("    const u32 tid = LOCAL_ID();", f"    const u32 tid_all = LOCAL_ID();\n    const u32 part = tid_all / {threads}u;\n    const u32 tid = tid_all - part * {threads}u;", 1)
    start = body.index("/* pass 1 of")
    end = body.index("BARRIER();", start) + len("BARRIER();")
    rest = body[end:]
    # the passes after the first: part 0 only
    rest = re.sub(r"\n(\s*)\{\n(\s*const u32 j = t \+ \d+u;)", r"\n\1if (part == 0u) {\n\2", rest)
    rd = lambda i: f"read_input(in_rows, tables, s, j, {i * bfly}u, sign)"
    out = [f"/* pass 1: radix {p} split over {parts} parts */ {{", "        const u32 j = t;", f"        if (s < rows && j < {bfly}u) {{"]
    def part(k, share):
        lines = part_lines(p, share, k == 0, rd, "            ")
        for m in share:
            lines.append(f"            SH(s, j * {p}u + {m}u) = y{m};")
            lines.append(f"            SH(s, j * {p}u + {p - m}u) = y{p - m};")
        return lines + ([f"            SH(s, j * {p}u) = sum;"] if k == 0 else [])

    out += per_part(shares_of(p, parts), part, "        ")
    out.append("        }")
    out.append("        BARRIER();")
    return head + PRELUDE_END + body[:start] + "\n".join(out) + rest


def write_composite(directory, kernels):
    os.makedirs(directory, exist_ok=True)
    for f in kernels:
        src = open(f).read()
        for parts, blocks in [(2, 0), (3, 0), (2, 3), (2, 4)]:
            out = split_first_pass(src, parts, blocks)
            name = re.search(r"void (\w+)\(const GLOBAL cplx\* in", out.split(PRELUDE_END)[1]).group(1)
            open(os.path.join(directory, name + ".cu"), "w").write(out)


def launch_shape(src):
    """(name, threads, rows a block, shared bytes, length N) of a kernel of this probe or fft_recipes."""
    name = re.search(r"void (\w+)\(const GLOBAL cplx\* in", src).group(1)
    threads = int(re.search(r"KERNEL_BLOCKS?(?:_UNBOUNDED)?\((\d+)", src.split(PRELUDE_END)[1]).group(1))
    rows = int(re.search(r"GROUP_ID\(\) \* (\d+)", src).group(1))
    shared = int(re.search(r"SHARED_ARRAY\(cplx, sh, (\d+)\)", src).group(1)) * 8
    n = int(re.search(r"_n(\d+)_", name).group(1))
    return name, threads, rows, shared, n


def time_all(directory, originals):
    import cupy as cp
    import numpy as np
    files = sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".cu")) + originals
    print(cp.cuda.runtime.getDeviceProperties(0)["name"].decode())

    cache = {}
    for f in files:
        src = open(f).read()
        name, threads, rows, shared, n = launch_shape(src)
        if n not in cache:
            batch = (256 << 20) // (8 * n)
            rng = np.random.default_rng(n)
            x = cp.asarray((rng.standard_normal((batch, n)) + 1j * rng.standard_normal((batch, n))).astype(np.complex64))
            want = cp.fft.fft(x.astype(cp.complex128), axis=1)
            y = cp.empty_like(x)
            copy_ms = least_ms(lambda: cp.cuda.runtime.memcpyAsync(y.data.ptr, x.data.ptr, x.nbytes, cp.cuda.runtime.memcpyDeviceToDevice, 0))
            cufft_ms = least_ms(lambda: cp.fft.fft(x, axis=1))
            cache[n] = (batch, x, want, copy_ms)
            print(f"N {n}: batch {batch}, copy {copy_ms:.4f} ms, cuFFT {cufft_ms:.4f} ms ({copy_ms / cufft_ms:.3f} of copy)")
        batch, x, want, copy_ms = cache[n]
        kernel = cp.RawKernel(src, name, options=("-std=c++17",))
        kernel.max_dynamic_shared_size_bytes = shared
        y = cp.full_like(x, np.nan)
        grid = (batch + rows - 1) // rows
        # Stockham twiddles: one table of e^{-2 pi i k/N}, k < N, at offset 0
        tables = cp.asarray(np.exp(-2j * np.pi * np.arange(n) / n).astype(np.complex64))
        args = (x, y, tables, np.uint64(batch), np.float32(1.0), np.float32(1.0))
        run = lambda: kernel((grid,), (threads,), args, shared_mem=shared)
        ms = least_ms(run)
        err = float(cp.linalg.norm(y - want) / cp.linalg.norm(want))
        regs = kernel.attributes["num_regs"]
        print(f"{name:60s} {regs:4d} regs  {ms:.4f} ms  {copy_ms / ms:.3f} of copy  err {err:.1e}")


if __name__ == "__main__":
    if sys.argv[1] == "composite":
        write_composite(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], [int(a) for a in sys.argv[4:]])
    else:
        time_all(sys.argv[2], sys.argv[3:])
