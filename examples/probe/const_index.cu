// const_index.cu - indexed constant loads (LDC c[0x3][R+imm], a warp-uniform index: every
// lane of a warp reads the same word, as quasirandomGenerator's table lookup in CUDA's
// samples): their throughput per SM and their latency. One block an SM (132 blocks), W
// warps of 32 threads; each warp XORs 8 independent table words a step into 8 registers
// (8 loads in flight), STEPS steps after WARM warm-up steps, cycles by clock64 between two
// barriers, the median of 5 launches; and one warp's dependent chain (the next index is the
// word just read) for the latency. Prints, per W, cycles per load per SM and per warp; then
// the same at W = 4 and 32 with the lanes of a warp on D = 1 to 32 distinct words
// (const_div_D<D>_W<W>).
#include <cstdio>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"

#define TAB 4096
#define STEPS 256
#define WARM 16
__constant__ unsigned c_tab[TAB];

__global__ void k_tp(unsigned *out, long long *cyc, unsigned mask)
{
    unsigned w = threadIdx.x >> 5, j = (w * 97u) & mask;
    unsigned a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    long long t0 = 0;
    for (int s = 0; s < STEPS + WARM; s++) {
        if (s == WARM) { __syncthreads(); t0 = clock64(); }
        a0 ^= c_tab[j]; a1 ^= c_tab[j + 1]; a2 ^= c_tab[j + 2]; a3 ^= c_tab[j + 3];
        a4 ^= c_tab[j + 4]; a5 ^= c_tab[j + 5]; a6 ^= c_tab[j + 6]; a7 ^= c_tab[j + 7];
        j = (j + 8 + (a0 & 1)) & mask;
    }
    __syncthreads();
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}

/* The same with the lanes of a warp on D distinct words (lane mod D, 16 words apart): what
 * an index from the thread costs (CUDA samples' dct8x8 reads its table at threadIdx.y) */
__global__ void k_tpd(unsigned *out, long long *cyc, unsigned D)
{
    unsigned w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    unsigned j = ((w * 97u) + (lane % D) * 16u) & 2047u;
    unsigned a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
    long long t0 = 0;
    for (int s = 0; s < STEPS + WARM; s++) {
        if (s == WARM) { __syncthreads(); t0 = clock64(); }
        a0 ^= c_tab[j]; a1 ^= c_tab[j + 1]; a2 ^= c_tab[j + 2]; a3 ^= c_tab[j + 3];
        a4 ^= c_tab[j + 4]; a5 ^= c_tab[j + 5]; a6 ^= c_tab[j + 6]; a7 ^= c_tab[j + 7];
        j = (j + 8 + (a0 & 1)) & 2047u;
    }
    __syncthreads();
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}

__global__ void k_chain(unsigned *out, long long *cyc)
{
    unsigned j = threadIdx.x >> 5;
    long long t0 = 0;
    for (int s = 0; s < STEPS + WARM; s++) {
        if (s == WARM) t0 = clock64();
        j = c_tab[j];
    }
    long long t1 = clock64();
    out[threadIdx.x] = j;
    if (threadIdx.x == 0) *cyc = t1 - t0;
}

int main()
{
    std::vector<unsigned> tab(TAB);
    for (unsigned i = 0; i < TAB; i++) tab[i] = (i * 2654435761u >> 7) & (TAB - 8 - 1);
    cudaMemcpyToSymbol(c_tab, tab.data(), sizeof(unsigned) * TAB);
    unsigned *out;
    long long *cyc;
    cudaMalloc(&out, 132 * 1024 * sizeof(unsigned));
    cudaMalloc(&cyc, 132 * sizeof(long long));
    for (unsigned mask : {255u, 4095u - 8u})
        for (int W : {1, 2, 4, 8, 16, 32}) {
            double per = pn_grid_clock_median(cyc, 132, 5, [&] { k_tp<<<132, 32 * W>>>(out, cyc, mask); }) /
                         ((double)STEPS * 8 * W);
            printf("const_tp_%s_W%d,%.4f,cycles,\"a load a SM (%d warps, 8 independent LDC a step, index range %u); %.3f a warp\"\n",
                   mask == 255u ? "256" : "4k", W, per, W, mask + 1, per * W);
        }
    for (unsigned D : {1u, 2u, 4u, 8u, 16u, 32u})
        for (int W : {4, 32}) {
            double per = pn_grid_clock_median(cyc, 132, 5, [&] { k_tpd<<<132, 32 * W>>>(out, cyc, D); }) /
                         ((double)STEPS * 8 * W);
            printf("const_div_D%u_W%d,%.4f,cycles,\"a load a SM (%d warps, 8 independent LDC a step, %u distinct words a warp); %.3f a warp\"\n",
                   D, W, per, W, D, per * W);
        }
    for (int r = 0; r < 3; r++) {
        k_chain<<<1, 32>>>(out, cyc);
        long long c;
        cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost);
        printf("const_chain,%.2f,cycles,\"one warp, dependent indexed LDC\"\n", (double)c / STEPS);
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
