// sm_l2.cu - how much one SM can move to and from the L2 when few SMs are busy: the SM's own
// port, which a grid of fewer blocks than SMs meets before the device's L2 budget.
//   One block of 1024 threads an SM (its dynamic shared memory leaves room for one), grids of
//   1 to all SMs, each block on its own 128 KiB chunk (L2-resident: all chunks together stay
//   far below the L2), swept `reps` times in one launch, 8 independent int4 accesses a thread
//   an iteration (whole lines a warp; enough in flight that latency does not bind):
//     read     s ^= __ldcg(a[i])           (past L1, as the L2 sees a kernel's misses)
//     write    c[i] = v
//     copy     c[i] = __ldcg(a[i])
//   and accesses of one 4-byte word a thread, each thread of a warp on its own line (32 lines
//   a warp access: fully scattered, as an uncoalesced kernel), a line a thread a pass:
//     sread    s ^= __ldcg(a[32 i])
//     swrite   c[32 i] = v
// Timed as the example kernels are (examples/common/pn_bench.cuh: median of 10 launches
// after 2 warm-ups). Prints CSV rows `probe,value,unit,detail`: sm_l2_<mode>_<grid>, the
// sectors (32 B) the mode moves (reads and writes together; for sread/swrite one sector a
// thread) per SM-clock cycle and busy SM. Usage: sm_l2 CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

#define UNROLL 8

// mode: 0 read, 1 write, 2 copy, 3 sread, 4 swrite. n: int4 elements of a block's chunk.
__global__ void __launch_bounds__(1024) pn_sm_stream(const int4 *__restrict__ a, int4 *__restrict__ c,
                                                     size_t n, int reps, int mode, int *sink)
{
    extern __shared__ int pad[];
    const int4 *src = a + (size_t)blockIdx.x * n;
    int4 *dst = c + (size_t)blockIdx.x * n;
    const int *srcw = (const int *)src;
    int *dstw = (int *)dst;
    int acc = 0;
    const size_t step = (size_t)blockDim.x * UNROLL;
    if (mode == 0) {
        for (int r = 0; r < reps; r++)
            for (size_t i = threadIdx.x; i + (UNROLL - 1) * blockDim.x < n; i += step) {
                int4 x[UNROLL];
#pragma unroll
                for (int u = 0; u < UNROLL; u++) x[u] = __ldcg(&src[i + u * blockDim.x]);
#pragma unroll
                for (int u = 0; u < UNROLL; u++) acc ^= x[u].x ^ x[u].y ^ x[u].z ^ x[u].w;
            }
    } else if (mode == 1) {
        for (int r = 0; r < reps; r++)
            for (size_t i = threadIdx.x; i + (UNROLL - 1) * blockDim.x < n; i += step)
#pragma unroll
                for (int u = 0; u < UNROLL; u++) dst[i + u * blockDim.x] = make_int4((int)i, r, u, 0);
    } else if (mode == 2) {
        for (int r = 0; r < reps; r++)
            for (size_t i = threadIdx.x; i + (UNROLL - 1) * blockDim.x < n; i += step) {
                int4 x[UNROLL];
#pragma unroll
                for (int u = 0; u < UNROLL; u++) x[u] = __ldcg(&src[i + u * blockDim.x]);
#pragma unroll
                for (int u = 0; u < UNROLL; u++) dst[i + u * blockDim.x] = x[u];
            }
    } else {
        /* one word of each 128-byte line, a line a thread a pass: n int4 = n / 8 lines */
        size_t lines = n / 8;
        for (int r = 0; r < reps; r++)
            for (size_t i = threadIdx.x; i < lines; i += blockDim.x) {
                if (mode == 3)
                    acc ^= __ldcg(&srcw[32 * i]);
                else
                    dstw[32 * i] = r;
            }
    }
    if (acc == 0x7fffffff) sink[0] = acc + pad[0];
}

int main(int argc, char **argv)
{
    double mhz = argc > 1 ? atof(argv[1]) : 1980.0;
    int sms = 0, smem = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    PN_CK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    /* more than half an SM's shared memory: one block an SM */
    int dyn = smem * 3 / 4;
    PN_CK(cudaFuncSetAttribute(pn_sm_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));
    int *sink;
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    const size_t chunk = (size_t)128 << 10, n = chunk / sizeof(int4);
    int4 *a, *c;
    PN_CK(cudaMalloc(&a, chunk * sms));
    PN_CK(cudaMalloc(&c, chunk * sms));
    PN_CK(cudaMemset(a, 1, chunk * sms));
    PN_CK(cudaMemset(c, 3, chunk * sms));
    static const char *const mname[] = { "read", "write", "copy", "sread", "swrite" };
    const int block = 1024, reps[] = { 256, 256, 128, 256, 256 };
    std::vector<int> grids = { 1, 4, 8, 16, 24, 32, 48, 64, 66, 99, 116, sms };
    for (int m = 0; m < 5; m++) {
        for (int g : grids) {
            if (g > sms) continue;
            std::vector<double> us = pn_time_launches(2, 10, [] {}, [&] {
                pn_sm_stream<<<g, block, dyn>>>(a, c, n, reps[m], m, sink);
            });
            double t = pn_pct(us, 0.5);
            double per_block;
            if (m < 3) {
                size_t trips = n / (block * UNROLL);
                per_block = (double)trips * block * UNROLL * 16 / 32 * (m == 2 ? 2 : 1);
            } else {
                per_block = (double)(n / 8);
            }
            double sectors = per_block * reps[m] * g;
            printf("sm_l2_%s_%d,%.4f,sectors/cycle/SM,\"grid %d x %d threads, one block an SM, "
                   "each on its own %zu KiB chunk x %d passes, %s; %s; %.0f sectors; median of %zu "
                   "launches %.2f us at %.1f MHz\"\n",
                   mname[m], g, sectors / (t * mhz * g), g, block, chunk >> 10, reps[m],
                   m < 3 ? "8 accesses a thread an iteration" : "a line a thread a pass",
                   m == 0 ? "int4 __ldcg reads" : m == 1 ? "int4 writes" : m == 2 ? "int4 copy"
                   : m == 3 ? "one word a line, __ldcg reads" : "one word a line, writes",
                   sectors, us.size(), t, mhz);
        }
    }
    PN_CK(cudaFree(a));
    PN_CK(cudaFree(c));
    PN_CK(cudaFree(sink));
    return 0;
}
