// l1_fill.cu - does a load that misses in L1 and allocates its line there cost the L1's data
// path more than one that bypasses it? One block of 1024 threads an SM (its dynamic shared
// memory leaves about 80 KiB of L1), grids of 1, 4 and all SMs, each block on its own chunk
// swept `reps` times in one launch, 8 independent int4 loads a thread an iteration (whole
// lines a warp; enough in flight that latency does not bind):
//     cg     __ldcg: past L1 (no allocation), 128 KiB chunks (L2-resident)
//     ca     __ldca: allocated in L1, 128 KiB chunks swept in order: every line a miss
//     plain  a plain load (what C++ emits), 128 KiB chunks: every line a miss
// Timed as the example kernels are (examples/common/pn_bench.cuh: median of 10 launches after
// 2 warm-ups). Prints CSV rows `probe,value,unit,detail`: l1_fill_<mode>_<grid>, the sectors
// (32 B) the loads move per SM-clock cycle and busy SM. Usage: l1_fill CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

#define UNROLL 8

__global__ void __launch_bounds__(1024) pn_fill(const int4 *__restrict__ a, size_t n, int reps,
                                                int mode, int *sink)
{
    extern __shared__ int pad[];
    const int4 *src = a + (size_t)blockIdx.x * n;
    int acc = 0;
    const size_t step = (size_t)blockDim.x * UNROLL;
    for (int r = 0; r < reps; r++)
        for (size_t i = threadIdx.x; i + (UNROLL - 1) * blockDim.x < n; i += step) {
            int4 x[UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; u++) {
                const int4 *p = &src[i + u * blockDim.x];
                x[u] = mode == 0 ? __ldcg(p) : mode == 2 ? *p : __ldca(p);
            }
#pragma unroll
            for (int u = 0; u < UNROLL; u++) acc ^= x[u].x ^ x[u].y ^ x[u].z ^ x[u].w;
        }
    if (acc == 0x7fffffff) sink[0] = acc + pad[0];
}

int main(int argc, char **argv)
{
    double mhz = argc > 1 ? atof(argv[1]) : 1980.0;
    int sms = 0, smem = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    PN_CK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    int dyn = smem * 3 / 4;
    PN_CK(cudaFuncSetAttribute(pn_fill, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));
    int *sink;
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    const size_t big = (size_t)128 << 10;
    int4 *a;
    PN_CK(cudaMalloc(&a, big * sms));
    PN_CK(cudaMemset(a, 1, big * sms));
    static const char *const mname[] = { "cg", "ca", "plain" };
    const int block = 1024;
    std::vector<int> grids = { 1, 4, sms };
    for (int m = 0; m < 3; m++) {
        size_t chunk = big, n = chunk / sizeof(int4);
        int reps = 256;
        for (int g : grids) {
            std::vector<double> us = pn_time_launches(2, 10, [] {}, [&] {
                pn_fill<<<g, block, dyn>>>(a, n, reps, m, sink);
            });
            double t = pn_pct(us, 0.5);
            size_t trips = n / (block * UNROLL);
            double sectors = (double)trips * block * UNROLL * 16 / 32 * reps * g;
            printf("l1_fill_%s_%d,%.4f,sectors/cycle/SM,\"grid %d x %d threads, one block an SM "
                   "(%d B dynamic shared), each on its own %zu KiB chunk x %d passes, 8 int4 "
                   "loads a thread an iteration; %.0f sectors; median of %zu launches %.2f us at "
                   "%.1f MHz\"\n",
                   mname[m], g, sectors / (t * mhz * g), g, block, dyn, chunk >> 10, reps,
                   sectors, us.size(), t, mhz);
        }
    }
    PN_CK(cudaFree(a));
    PN_CK(cudaFree(sink));
    return 0;
}
