// Times one generated strided kernel (KSRC, kernel KNAME) on 2^20 x32 complex f32 against a copy.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include KSRC
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)
int main() {
    const size_t n = 1 << 20, arrays = 32, rows = 1024 * arrays, elems = n * arrays, bytes = elems * 8;
    std::vector<float2> h(elems), tab(4096);
    srand(1);
    for (auto& x : h) { x.x = rand() / (float)RAND_MAX - 0.5f; x.y = rand() / (float)RAND_MAX - 0.5f; }
    for (int i = 0; i < 1024; i++) { tab[i] = make_float2(cos(-2 * M_PI * i / 1024), sin(-2 * M_PI * i / 1024)); tab[1024 + i] = make_float2(cos(-2 * M_PI * i / n), sin(-2 * M_PI * i / n)); tab[2048 + i] = make_float2(cos(-2 * M_PI * i * 1024.0 / n), sin(-2 * M_PI * i * 1024.0 / n)); }
    float2 *din, *dout, *dtab;
    CK(cudaMalloc(&din, bytes)); CK(cudaMalloc(&dout, bytes)); CK(cudaMalloc(&dtab, 4096 * 8));
    CK(cudaMemcpy(din, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dtab, tab.data(), 4096 * 8, cudaMemcpyHostToDevice));
    const int shared = 139264 + (TW == 3 ? 16384 : 0);
    CK(cudaFuncSetAttribute(KNAME, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    auto time = [&](auto launch) {
        launch(); CK(cudaDeviceSynchronize());
        float best = 1e9; for (int r = 0; r < 30; r++) { cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); best = fminf(best, ms); }
        CK(cudaGetLastError()); return best; };
    float copy = time([&] { cudaMemcpyAsync(dout, din, bytes, cudaMemcpyDeviceToDevice); });
    float k = time([&] { KNAME<<<(unsigned)(rows / 16), 512, shared>>>(din, dout, dtab, rows, 1.0f, 1.0f); });
    std::vector<float2> r(elems); CK(cudaMemcpy(r.data(), dout, bytes, cudaMemcpyDeviceToHost));
    double e2 = 0, r2 = 0;
    for (int q = 0; q < 3000; q++) {
        const size_t b = (size_t)q * 7919 % rows, i = (size_t)q * 104729 % 1024;
        const float2* col = h.data() + (b % 1024) + (b / 1024) * n;
        double re = 0, im = 0;
        for (size_t j = 0; j < 1024; j++) { double a = -2 * M_PI * (double)((j * i) % 1024) / 1024; re += col[j * 1024].x * cos(a) - col[j * 1024].y * sin(a); im += col[j * 1024].x * sin(a) + col[j * 1024].y * cos(a); }
        double a = -2 * M_PI * (double)(((b % 1024) * i) % n) / n; double tr = re * cos(a) - im * sin(a), ti = re * sin(a) + im * cos(a);
        const float2 got = r[b * 1024 + i];
        e2 += (got.x - tr) * (got.x - tr) + (got.y - ti) * (got.y - ti); r2 += tr * tr + ti * ti;
    }
    printf("   relative error vs f64: %.3g\n", sqrt(e2 / r2));
    double sum = 0; for (size_t i = 0; i < elems; i += 977) sum += r[i].x * 1e-3 + r[i].y;
    printf("%-8s %s: %.4f ms, of copy %.3f (copy %.4f ms) checksum %.6f\n", VARIANT, KSRC, k, copy / k, copy, sum);
}
