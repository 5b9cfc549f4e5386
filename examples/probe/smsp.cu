// smsp.cu - which partition (SM sub-partition, warp scheduler) the warps of small blocks run on:
// an FMA-bound kernel (8 independent chains a thread) launched with blocks of 32 to 1024 threads,
// and with one-warp blocks 1, 2, 4, 8 to an SM; every warp records %smid and %warpid, and SM 0's
// warps are counted by %warpid mod 4 (the partition). On the H100 one-warp blocks four to an SM
// ran on four partitions (1 1 1 1) in the time of one warp alone: warps take the SM's warp
// slots in order whatever their block. Usage: smsp (no arguments).
#include <cstdio>
#include <cuda_runtime.h>
__device__ unsigned warpid_() { unsigned r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }
__device__ unsigned smid_() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
// FMA-bound: 8 independent chains, 4096 trips
__global__ void fma_k(float *out, unsigned *ids, int trips)
{
    float a[8];
    for (int j = 0; j < 8; j++) a[j] = threadIdx.x * 0.001f + j;
    for (int t = 0; t < trips; t++)
#pragma unroll
        for (int j = 0; j < 8; j++) a[j] = fmaf(a[j], 1.0001f, 0.5f);
    float s = 0; for (int j = 0; j < 8; j++) s += a[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if ((threadIdx.x & 31) == 0) ids[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = smid_() << 8 | warpid_();
}
int main()
{
    float *out; unsigned *ids; cudaMalloc(&out, 132 * 2048 * 4 * 4); cudaMalloc(&ids, 132 * 64 * 4 * 4);
    static unsigned h[132 * 64 * 4];
    int Ts[] = { 32, 64, 128, 256, 1024 };
    for (int i = 0; i < 5; i++) {
        int T = Ts[i]; int blocks = 132 * 2048 / T;   // full occupancy, one wave
        cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
        fma_k<<<blocks, T>>>(out, ids, 256);
        cudaEventRecord(e0); fma_k<<<blocks, T>>>(out, ids, 4096); cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        int nw = blocks * T / 32; cudaMemcpy(h, ids, nw * 4, cudaMemcpyDeviceToHost);
        int cnt[4] = {0}; for (int w = 0; w < nw; w++) if ((h[w] >> 8) == 0) cnt[(h[w] & 255) % 4]++;
        printf("T=%4d blocks=%6d: %.1f us; SM 0 warps by warpid%%4: %d %d %d %d\n", T, blocks, ms * 1000, cnt[0], cnt[1], cnt[2], cnt[3]);
    }
    // 1 warp blocks, only 4 blocks per SM (4 warps per SM): balanced or all on one SMSP?
    for (int bps = 1; bps <= 8; bps *= 2) {
        int T = 32, blocks = 132 * bps;
        cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
        cudaEventRecord(e0); fma_k<<<blocks, T>>>(out, ids, 4096); cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        int nw = blocks; cudaMemcpy(h, ids, nw * 4, cudaMemcpyDeviceToHost);
        int cnt[4] = {0}; for (int w = 0; w < nw; w++) if ((h[w] >> 8) == 0) cnt[(h[w] & 255) % 4]++;
        printf("1-warp blocks, %d per SM: %.1f us; SM 0 warps by warpid%%4: %d %d %d %d\n", bps, ms * 1000, cnt[0], cnt[1], cnt[2], cnt[3]);
    }
    for (int bps = 1; bps <= 8; bps *= 2) {
        int T = 32 * bps, blocks = 132;
        cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
        cudaEventRecord(e0); fma_k<<<blocks, T>>>(out, ids, 4096); cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        printf("one block of %d warps per SM: %.1f us\n", bps, ms * 1000);
    }
    return 0;
}
