// uniform_load.cu - the loop of examples/deps' dp_dist (the distance of a thread's point to
// 2048 points every thread reads alike: a float4 load of p[j], unrolled 4 times) with its
// points taken four ways: 0 as dp_dist (LDG.E.128.CONSTANT), 1 past L1 on purpose (__ldcg,
// LDG.E.128.STRONG.GPU), 2 from shared memory (LDS.128), 3 computed (no load). Prints the
// launch's time and block 0's loop in cycles (clock64) per trip of 4 points, for one warp,
// one block of 8 warps, 128 blocks of 8 warps and 32 blocks of 32 warps. On the H100 the
// LDG version takes the L2's latency every trip (367 cycles, as __ldcg) although Nsight
// Compute counts 93 % L1 hits: every warp asks for the same line at about the same time.
// Usage: uniform_load (no arguments).
#include <cstdio>
#include <cuda_runtime.h>
#define M 2048
// variant 0: as dp_dist (LDG broadcast, __restrict__ const -> LDG.CONSTANT)
// variant 1: past L1 (__ldcg)
// variant 2: points from shared memory
// variant 3: no loads: r computed from j
template <int V>
__global__ void k(const float4 *__restrict__ p, float *out, long long *cyc)
{
    __shared__ float4 sp[V == 2 ? M : 1];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (V == 2) for (int j = threadIdx.x; j < M; j += blockDim.x) sp[j] = p[j];
    __syncthreads();
    float4 q = p[g];
    float best = 3.0e38f;
    long long t0 = clock64();
#pragma unroll 4
    for (int j = 0; j < M; j++) {
        float4 r;
        if (V == 0) r = p[j];
        else if (V == 1) r = __ldcg(&p[j]);
        else if (V == 2) r = sp[j];
        else r = make_float4(j * 0.5f, j * 0.25f, j * 0.125f, 0);
        float dx = q.x - r.x, dy = q.y - r.y, dz = q.z - r.z;
        float d = dx * dx + dy * dy + dz * dz;
        best = (j != g && d < best) ? d : best;
    }
    long long t1 = clock64();
    out[g] = best;
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
int main()
{
    float4 *p; float *out; long long *cyc, h[4096];
    cudaMalloc(&p, 32768 * 16); cudaMalloc(&out, 32768 * 4); cudaMalloc(&cyc, 4096 * 8);
    cudaMemset(p, 0, 32768 * 16);
    void (*ks[4])(const float4 *, float *, long long *) = { k<0>, k<1>, k<2>, k<3> };
    const char *names[] = { "ldg-constant", "ldcg-L2", "shared", "no-load" };
    int cfg[][2] = { {1, 32}, {1, 256}, {128, 256}, {32, 1024} };
    for (int v = 0; v < 4; v++)
        for (int c = 0; c < 4; c++) {
            cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
            ks[v]<<<cfg[c][0], cfg[c][1]>>>(p, out, cyc);
            cudaEventRecord(e0); ks[v]<<<cfg[c][0], cfg[c][1]>>>(p, out, cyc); cudaEventRecord(e1);
            cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1);
            cudaMemcpy(h, cyc, 8, cudaMemcpyDeviceToHost);
            printf("%-12s grid %4d x %4d: %8.1f us, block0 loop %lld cycles = %.1f per trip of 4 points\n", names[v], cfg[c][0], cfg[c][1], ms * 1000, h[0], h[0] / 512.0);
        }
    return 0;
}
