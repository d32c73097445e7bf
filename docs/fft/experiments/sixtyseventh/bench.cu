// Feasibility experiment: a persistent strided 1024-point pass whose next tile's global reads
// (cp.async into shared memory) overlap this tile's second radix pass and its stores.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cstring>
#include "orig.cu"

DEVICE_FN void async8(void* dst_shared, const void* src) {
    unsigned d = (unsigned)__cvta_generic_to_shared(dst_shared);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(d), "l"(src) : "memory");
}
DEVICE_FN void async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
DEVICE_FN void async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }

// PIPE=1: loads go through cp.async into shared memory, issued a tile ahead; PIPE=0: read from global.
template <int PIPE>
__global__ __launch_bounds__(512) void piped_kernel(const cplx* in, cplx* out, const cplx* __restrict__ tables, u64 batch, real sign, real scale) {
    SHARED_ARRAY(cplx, sh, 17408);
    const u32 tid = LOCAL_ID();
    const u32 s = tid % 16u;
    const u32 t = tid / 16u;
    const u64 tiles = (batch + 15u) / 16u;
    u64 tile = GROUP_ID();
    auto stage = [&](u64 tl) {
        const u64 first = tl * 16u;
        const u32 rows = (u32)(batch - first < 16u ? batch - first : 16u);
        if (s < rows) {
            const cplx* in_row = in + input_offset(first + s);
#pragma unroll
            for (u32 m = 0; m < 32; m++) async8(&SH(s, t + 32u * m), &in_row[(u64)(t + 32u * m) * 1024u]);
        }
        async_commit();
    };
    if (PIPE && tile < tiles) stage(tile);
    for (; tile < tiles; tile += NUM_GROUPS()) {
        const u64 first = tile * 16u;
        const u32 rows = (u32)(batch - first < 16u ? batch - first : 16u);
        const u64 b = first + (s < rows ? s : 0);
        cplx v[32];
        if (PIPE) {
            async_wait_all();
            BARRIER();
#pragma unroll
            for (u32 m = 0; m < 32; m++) { v[m] = SH(s, t + 32u * m); v[m].y *= sign; }
            BARRIER();
        } else {
            if (s < rows) {
                const cplx* in_row = in + input_offset(b);
#pragma unroll
                for (u32 m = 0; m < 32; m++) v[m] = read_value(in_row, tables, 0, t + 32u * m, sign);
            }
        }
        dft_32(&v[0]);
        {
            const u32 o = t * 32u;
#pragma unroll
            for (u32 m = 0; m < 32; m++) SH(s, o + m) = v[m];
        }
        BARRIER();
#pragma unroll
        for (u32 m = 0; m < 32; m++) v[m] = SH(s, t + 32u * m);
        BARRIER();
        if (PIPE) { const u64 next = tile + NUM_GROUPS(); if (next < tiles) stage(next); }
        const u32 k = t % 32u;
#pragma unroll
        for (u32 m = 1; m < 32; m++) v[m] = cmul(v[m], tables[k * m]);
        dft_32(&v[0]);
        const u32 o = (t - k) * 32u + k;
        if (s < rows) {
            cplx* out_row = out + output_offset(b);
#pragma unroll
            for (u32 m = 0; m < 32; m++) write_value(out_row, tables, 0, 0, o + 32u * m, v[m], sign, scale);
        }
    }
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

int main() {
    const u64 n = 1024 * 1024, batch_arrays = 32, rows = 1024 * batch_arrays;
    const size_t elems = n * batch_arrays, bytes = elems * sizeof(cplx);
    std::vector<cplx> h(elems), tab(1024);
    srand(1);
    for (auto& x : h) { x.x = rand() / (float)RAND_MAX - 0.5f; x.y = rand() / (float)RAND_MAX - 0.5f; }
    for (int i = 0; i < 1024; i++) { tab[i].x = cos(-2 * M_PI * i / 1024); tab[i].y = sin(-2 * M_PI * i / 1024); }
    cplx *din, *dout, *dout2, *dtab;
    CK(cudaMalloc(&din, bytes)); CK(cudaMalloc(&dout, bytes)); CK(cudaMalloc(&dout2, bytes)); CK(cudaMalloc(&dtab, 1024 * sizeof(cplx)));
    CK(cudaMemcpy(din, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dtab, tab.data(), 1024 * sizeof(cplx), cudaMemcpyHostToDevice));
    const int shared = 139264;
    CK(cudaFuncSetAttribute(orig_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    CK(cudaFuncSetAttribute(piped_kernel<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    CK(cudaFuncSetAttribute(piped_kernel<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    auto time = [&](const char* name, auto launch) {
        launch(); CK(cudaDeviceSynchronize());
        float best = 1e9, sum = 0; const int reps = 30;
        for (int r = 0; r < reps; r++) { cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); best = fminf(best, ms); sum += ms; }
        CK(cudaGetLastError());
        printf("%-28s best %.4f ms mean %.4f ms  %.0f GB/s\n", name, best, sum / reps, 2.0 * bytes / best / 1e6);
        return best;
    };
    float copy = time("copy D2D", [&] { cudaMemcpyAsync(dout2, din, bytes, cudaMemcpyDeviceToDevice); });
    float o = time("orig 2048 blocks", [&] { orig_kernel<<<(unsigned)(rows / 16), 512, shared>>>(din, dout, dtab, rows, 1.0f, 1.0f); });
    std::vector<cplx> r1(elems), r2(elems);
    CK(cudaMemcpy(r1.data(), dout, bytes, cudaMemcpyDeviceToHost));
    for (int mult : {1, 2}) {
      for (int pipe : {0, 1}) {
        CK(cudaMemset(dout2, 0xff, bytes));
        char nm[64]; snprintf(nm, 64, "persistent pipe=%d grid=%dxSM", pipe, mult);
        float p = time(nm, [&] {
            if (pipe) piped_kernel<1><<<sms * mult, 512, shared>>>(din, dout2, dtab, rows, 1.0f, 1.0f);
            else piped_kernel<0><<<sms * mult, 512, shared>>>(din, dout2, dtab, rows, 1.0f, 1.0f); });
        CK(cudaMemcpy(r2.data(), dout2, bytes, cudaMemcpyDeviceToHost));
        double maxd = 0; for (size_t i = 0; i < elems; i++) maxd = fmax(maxd, fmax(fabs(r1[i].x - r2[i].x), fabs(r1[i].y - r2[i].y)));
        printf("   speedup vs orig %.3fx, of copy %.3f (orig %.3f), max diff %.3g\n", o / p, copy / p, copy / o, maxd);
      }
    }
    return 0;
}
