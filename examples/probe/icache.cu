// icache.cu - what straight-line code costs a warp the first time an SM runs it: one block
// of W warps runs N instructions without a branch (FFMA in 8 independent chains, fully
// unrolled: N x 16 bytes of code), timed with clock64 from its first instruction to its
// last: launched cold (after a kernel with other code of 512 KiB) and again at once (warm).
// Cycles per instruction of warp 0, median of 5.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

template <int N>
__global__ void k_line(float *out, long long *cyc, float a)
{
    float x[8];
#pragma unroll
    for (int j = 0; j < 8; j++) x[j] = threadIdx.x + j;
    long long t0 = clock64();
#pragma unroll
    for (int i = 0; i < N / 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) x[j] = fmaf(x[j], a, 1.0f);
    long long t1 = clock64();
    float s = 0;
#pragma unroll
    for (int j = 0; j < 8; j++) s += x[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x == 0 && blockIdx.x == 0) *cyc = t1 - t0;
}

template <int N>
static void run(int W, float *out, long long *cyc)
{
    std::vector<double> cold, warm;
    for (int r = 0; r < 5; r++) {
        k_line<32768><<<132, 32>>>(out, cyc, 0.5f);   /* other code through every SM */
        cudaDeviceSynchronize();
        long long h;
        k_line<N><<<1, 32 * W>>>(out, cyc, 0.999f);
        cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost);
        cold.push_back((double)h / N);
        k_line<N><<<1, 32 * W>>>(out, cyc, 0.999f);
        cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost);
        warm.push_back((double)h / N);
    }
    std::sort(cold.begin(), cold.end());
    std::sort(warm.begin(), warm.end());
    printf("%d,%d,%.3f,%.3f\n", N, W, cold[2], warm[2]);
}

int main()
{
    float *out;
    long long *cyc;
    cudaMalloc(&out, 132 * 1024 * 4);
    cudaMalloc(&cyc, 8);
    printf("# instructions N, warps W, cycles an instruction cold (after other code), warm\n");
    printf("N,W,cold,warm\n");
    for (int W : {1, 4, 32}) {
        run<512>(W, out, cyc);
        run<2048>(W, out, cyc);
        run<8192>(W, out, cyc);
        run<16384>(W, out, cyc);
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 2; }
    return 0;
}
