// l1_mix.cu - do shared-memory wavefronts and global-load (L1 hit) wavefronts share the L1's data
// path? One block of 1024 threads (32 warps) per SM; each trip a thread does 16 loads: all LDS
// (conflict-free), all LDG (coalesced, one 128-byte line a warp, a 32 KiB window that stays in
// L1), or 8 + 8 mixed. Cycles (clock64 between two __syncthreads) per warp-load over the SM.
#include <cstdio>
#include <cuda_runtime.h>
template <int MODE>
__global__ void k(const float *__restrict__ g, float *out, long long *cyc, int trips, int zero)
{
    __shared__ float sh[2048];
    for (int i = threadIdx.x; i < 2048; i += blockDim.x) sh[i] = i;
    __syncthreads();
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    float acc = 0;
    const float *gp = g + (w & 15) * 512 + lane;    /* 16 windows of 16 lines: 32 KiB */
    long long t0 = clock64();
    for (int t = 0; t < trips; t++) {
        int o = t * zero;
#pragma unroll
        for (int j = 0; j < 16; j++) {
            if (MODE == 0 || (MODE == 2 && (j & 1)))
                acc += sh[((j * 32 + lane) & 2047) + o];
            else
                acc += __ldg(gp + j * 32 + o * 1024);
        }
    }
    __syncthreads();
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
int main()
{
    float *g, *out; long long *cyc, h;
    cudaMalloc(&g, 1 << 20); cudaMemset(g, 0, 1 << 20); cudaMalloc(&out, 132 * 1024 * 4); cudaMalloc(&cyc, 132 * 8);
    const char *names[] = { "LDS only", "LDG only (L1 hits)", "LDS + LDG (8 + 8)" };
    for (int m = 0; m < 3; m++) {
        long long c[2];
        int trips[2] = { 64, 256 };
        for (int r = 0; r < 2; r++) {
            if (m == 0) k<0><<<132, 1024>>>(g, out, cyc, trips[r], 0);
            if (m == 1) k<1><<<132, 1024>>>(g, out, cyc, trips[r], 0);
            if (m == 2) k<2><<<132, 1024>>>(g, out, cyc, trips[r], 0);
            cudaDeviceSynchronize();
            cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost);
            c[r] = h;
        }
        double per = (double)(c[1] - c[0]) / ((trips[1] - trips[0]) * 16.0 * 32);
        printf("%-20s %.3f cycles per warp-load (SM-wide; slope 64 vs 256 trips)\n", names[m], per);
    }
    return 0;
}
