#!/usr/bin/env python3
"""How much a two-pass transform could gain by keeping its middle values in L2 (issue 4).

Two passes over an array cross device memory twice each way, which holds a 2D or 3D FFT of
two passes to half of copy bandwidth. If the values between the passes stayed in L2, only the
input's reads and the output's writes would reach HBM. This probe measures what the memory
system allows, with plain copies standing in for the passes (no FFT arithmetic, so these are
upper bounds for any FFT built this way):

- the driver's device-to-device copy of the array (the project's "copy bandwidth");
- a copy kernel (16-byte accesses, a grid of 8 blocks a multiprocessor), once, and twice
  through a scratch array as large as the array (what two passes do today);
- one persistent launch that runs both passes a chunk at a time through a small scratch ring:
  blocks take tiles of 16 KiB in ticket order, pass A of chunk c + lag before pass B of chunk
  c; pass B of a chunk waits until its pass A is done, pass A until its ring slot's last pass
  B is. Variants: `plain`; `hinted`, L2 eviction hints (`createpolicy` and `.L2::cache_hint`):
  the input and the scratch read evict-first, the scratch written evict-last, the output
  written evict-first; `discard`, hinted, and pass B drops each scratch line it has read from
  L2 (`discard.global.L2`: a dirty line then is not written back). `nowait_*`: the same
  without the waits (the output is then wrong): the memory system's ceiling for the ring.

Run on the GPU machine (CuPy is there): python3 scripts/l2_probe.py [--mib 1024]
Each line: least time of --reps runs, and the fraction of copy bandwidth (the driver copy's
time over it): 1.0 is a copy's speed, about 0.5 two whole passes.
"""
import argparse
import cupy as cp

from cupy_timing import least_ms

SOURCE = r"""
// Grid-stride streaming copy, 4 float4 a thread a step, loads before stores.
extern "C" __global__ void copy_plain(const float4* __restrict__ src, float4* __restrict__ dst, long long n) {
    long long stride = (long long)gridDim.x * blockDim.x;
    for (long long base = (long long)blockIdx.x * blockDim.x * 4; base < n; base += stride * 4) {
        float4 v[4];
        #pragma unroll
        for (int u = 0; u < 4; u++) {
            long long i = base + u * blockDim.x + threadIdx.x;
            if (i < n) v[u] = src[i];
        }
        #pragma unroll
        for (int u = 0; u < 4; u++) {
            long long i = base + u * blockDim.x + threadIdx.x;
            if (i < n) dst[i] = v[u];
        }
    }
}

// Both passes in one persistent launch (see the script's text). counters: the ticket, then
// the tiles done of each chunk's pass A, then of each chunk's pass B. items[k]: chunk c's
// pass A (2c) or pass B (2c + 1), in ticket order. A ticket waits only for earlier tickets,
// held by resident blocks, so the launch cannot deadlock (the grid is all resident).
template <bool HINTS, bool DISCARD, bool WAIT>
__device__ void pipeline_body(const float4* __restrict__ src, float4* ring, float4* __restrict__ dst, long long chunk4,
                              int chunks, int slots, int tiles, const int* items, unsigned* counters) {
    unsigned* ticket = counters;
    unsigned* done_a = counters + 1;
    unsigned* done_b = counters + 1 + chunks;
    __shared__ unsigned mine;
    unsigned long long first, last, normal;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(first));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(last));
    asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;" : "=l"(normal));
    const long long tile4 = chunk4 / tiles;
    const unsigned total = 2u * chunks * tiles;
    for (;;) {
        __syncthreads();
        if (threadIdx.x == 0) mine = atomicAdd(ticket, 1u);
        __syncthreads();
        unsigned t = mine;
        if (t >= total) return;
        unsigned k = t / tiles, tile = t % tiles;
        bool is_a = (items[k] & 1) == 0;
        int c = items[k] >> 1;
        if (WAIT && threadIdx.x == 0) {
            volatile unsigned* flag = is_a ? (c >= slots ? done_b + (c - slots) : nullptr) : done_a + c;
            if (flag) {
                while (*flag < (unsigned)tiles) __nanosleep(64);
            }
            __threadfence();
        }
        __syncthreads();
        long long off = (long long)tile * tile4;
        float4* slot = ring + (long long)(c % slots) * chunk4;
        const float4* s = is_a ? src + (long long)c * chunk4 + off : slot + off;
        float4* d = is_a ? slot + off : dst + (long long)c * chunk4 + off;
        unsigned long long ld_policy = HINTS ? first : normal;
        unsigned long long st_policy = HINTS ? (is_a ? last : first) : normal;
        for (long long base = 0; base < tile4; base += blockDim.x * 4) {
            float4 v[4];
            // Loads bypass L1: another multiprocessor wrote the scratch.
            #pragma unroll
            for (int u = 0; u < 4; u++) {
                long long i = base + u * blockDim.x + threadIdx.x;
                asm volatile("ld.global.L1::no_allocate.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;"
                             : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w) : "l"(s + i), "l"(ld_policy) : "memory");
            }
            #pragma unroll
            for (int u = 0; u < 4; u++) {
                long long i = base + u * blockDim.x + threadIdx.x;
                asm volatile("st.global.L2::cache_hint.v4.f32 [%0], {%1,%2,%3,%4}, %5;"
                             :: "l"(d + i), "f"(v[u].x), "f"(v[u].y), "f"(v[u].z), "f"(v[u].w), "l"(st_policy) : "memory");
            }
            if (DISCARD && !is_a) {
                // Every lane has its values (its stores used them); a line is 8 lanes' float4.
                __syncwarp();
                #pragma unroll
                for (int u = 0; u < 4; u++) {
                    long long i = base + u * blockDim.x + threadIdx.x;
                    if ((i & 7) == 0) asm volatile("discard.global.L2 [%0], 128;" :: "l"(s + i) : "memory");
                }
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            atomicAdd(is_a ? done_a + c : done_b + c, 1u);
        }
    }
}

#define PIPELINE(name, hints, discard, wait)                                                                  \
    extern "C" __global__ void name(const float4* s, float4* r, float4* d, long long c4, int chunks, int slots, \
                                    int tiles, const int* items, unsigned* k) {                               \
        pipeline_body<hints, discard, wait>(s, r, d, c4, chunks, slots, tiles, items, k);                     \
    }
PIPELINE(plain, false, false, true)
PIPELINE(hinted, true, false, true)
PIPELINE(discard, true, true, true)
PIPELINE(nowait_plain, false, false, false)
PIPELINE(nowait_hinted, true, false, false)
PIPELINE(nowait_discard, true, true, false)
"""

PIPELINES = ["plain", "hinted", "discard", "nowait_plain", "nowait_hinted", "nowait_discard"]
THREADS = 256
BLOCKS_PER_SM = 8  # all resident: the persistent launch relies on it
TILE_BYTES = 16 << 10


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=int, default=1024, help="the array's size in MiB (input and output each)")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    mod = cp.RawModule(code=SOURCE, options=("-std=c++17", "-arch=sm_90"))
    kernels = {name: mod.get_function(name) for name in ["copy_plain"] + PIPELINES}
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    n_bytes = args.mib << 20
    n4 = n_bytes // 16
    src = cp.random.random(n_bytes // 4, dtype=cp.float32)
    dst = cp.empty_like(src)
    scratch = cp.empty_like(src)

    def timed(fn):
        return least_ms(fn, args.reps)

    def copy(s, d):
        kernels["copy_plain"]((sms * BLOCKS_PER_SM,), (THREADS,), (s, d, cp.int64(n4)))

    copy_ms = timed(lambda: cp.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, n_bytes, cp.cuda.runtime.memcpyDeviceToDevice, 0))

    def report(label, ms, ok=True):
        print(f"{label}: {ms:.3f} ms, {copy_ms / ms:.3f} of copy{'' if ok else ' (output wrong: no waits)'}", flush=True)

    print(f"{cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}, {args.mib} MiB each way; driver copy {2 * n_bytes / copy_ms / 1e6:.0f} GB/s")
    report("driver copy", copy_ms)
    report("copy kernel", timed(lambda: copy(src, dst)))
    report("copy kernel twice, through a scratch array", timed(lambda: (copy(src, scratch), copy(scratch, dst))))

    def pipeline(name, chunk_mib, lag, slots):
        c4 = (chunk_mib << 20) // 16
        chunks, tiles = n4 // c4, c4 // (TILE_BYTES // 16)
        order = [2 * c for c in range(min(lag, chunks))]
        for c in range(chunks):
            if c + lag < chunks:
                order.append(2 * (c + lag))
            order.append(2 * c + 1)
        items = cp.asarray(order, dtype=cp.int32)
        ring = cp.empty(c4 * 4 * slots, dtype=cp.float32)
        counters = cp.zeros(1 + 2 * chunks, dtype=cp.uint32)

        def run():
            counters.fill(0)
            kernels[name]((sms * BLOCKS_PER_SM,), (THREADS,), (src, ring, dst, cp.int64(c4), cp.int32(chunks), cp.int32(slots), cp.int32(tiles), items, counters))

        dst.fill(0)
        ms = timed(run)
        return ms, bool(cp.array_equal(dst[: chunks * c4 * 4], src[: chunks * c4 * 4]))

    for name in PIPELINES:
        report(f"persistent, two halves, the ring the whole array, {name}", *pipeline(name, args.mib // 2, 1, 2))
    for chunk_mib in (1, 2, 4, 8):
        for lag, slots in ((1, 2), (2, 3), (4, 6), (8, 10)):
            if chunk_mib * slots <= 40:
                for name in PIPELINES:
                    report(f"persistent, chunks of {chunk_mib} MiB, pass B {lag} behind, {slots} slots, {name}", *pipeline(name, chunk_mib, lag, slots))


if __name__ == "__main__":
    main()
