// bar_phase.cu - short phases between block barriers, as CUDA samples' binomialOptions runs
// them: every step a warp stores a word to shared memory, waits at a barrier, reads its
// neighbour's word, waits again and does one FMA (STS, BAR, LDS, BAR, FFMA), against the same
// loop without the shared memory (BAR, BAR, FFMA) and with one barrier a step (STS, BAR, LDS,
// FFMA). One block of W warps on each of 132 SMs, STEPS steps, clock64 between two
// barriers, the median of 5 launches. Prints cycles a step. `bar_phase MODE [W]` runs one
// mode (0, 1, 2 as above) at W warps (default 4) alone, for ncu.
#include <cstdio>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"

#define STEPS 4096
template <int MODE>
__global__ void k_phase(float *out, long long *cyc, float a, float b)
{
    __shared__ float s[1025];
    int t = threadIdx.x;
    float v = t * 0.001f;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < STEPS; i++) {
        if (MODE == 0) { s[t] = v; __syncthreads(); v = s[t + 1] * a + b; __syncthreads(); }
        if (MODE == 1) { __syncthreads(); v = v * a + b; __syncthreads(); }
        if (MODE == 2) { s[t] = v; __syncthreads(); v = s[t + 1] * a + b; }
    }
    __syncthreads();
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + t] = v;
    if (t == 0) cyc[blockIdx.x] = t1 - t0;
}

template <int MODE>
static double run(int W, float *out, long long *cyc)
{
    return pn_grid_clock_median(cyc, 132, 5, [&] { k_phase<MODE><<<132, 32 * W>>>(out, cyc, 0.999f, 0.001f); }) /
           STEPS;
}

int main(int argc, char **argv)
{
    float *out;
    long long *cyc;
    cudaMalloc(&out, 132 * 1024 * sizeof(float));
    cudaMalloc(&cyc, 132 * sizeof(long long));
    int only = argc > 1 ? atoi(argv[1]) : -1;  // one mode and W (default 4) alone (for ncu)
    if (only >= 0) {
        int W = argc > 2 ? atoi(argv[2]) : 4;
        double c = only == 0 ? run<0>(W, out, cyc) : only == 1 ? run<1>(W, out, cyc) : run<2>(W, out, cyc);
        printf("bar_phase_mode%d_W%d,%.2f,cycles\n", only, W, c);
        return 0;
    }
    for (int W : {1, 2, 4, 8, 16, 32}) {
        printf("bar_phase_sts_bar_lds_bar_W%d,%.2f,cycles,\"STS BAR LDS BAR FFMA a step, one block of %d warps an SM\"\n", W, run<0>(W, out, cyc), W);
        printf("bar_phase_bar_bar_W%d,%.2f,cycles,\"BAR BAR FFMA a step\"\n", W, run<1>(W, out, cyc));
        printf("bar_phase_sts_bar_lds_W%d,%.2f,cycles,\"STS BAR LDS FFMA a step\"\n", W, run<2>(W, out, cyc));
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
