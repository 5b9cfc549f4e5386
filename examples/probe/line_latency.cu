// line_latency.cu - how long a warp waits for a load whose lanes read K distinct lines, all
// in L2: one block, W warps, each lane walking a random cycle of 2^17 lines (16 MiB) with
// dependent loads; lanes L and L' of a warp share a line when L % K == L' % K (each of the K
// groups its own walk; the lanes of a group read different words of the same line). M
// independent walks a lane (M loads in flight a warp, each K lines) for the coupling of a
// warp's loads. Cycles a step: clock64 over 512 steps after 64 warm-up steps, median of 5.
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define LINES (1u << 17)
#define STEPS 512
#define WARM 64

template <int M>
__global__ void k_walk(const unsigned *__restrict__ next, int K, unsigned *out, long long *cyc)
{
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    unsigned word = (unsigned)(lane / K) & 31u, p[M];
#pragma unroll
    for (int m = 0; m < M; m++) p[m] = ((unsigned)((w * 32 + lane % K) * M + m) * 7919u) % LINES;
    long long t0 = 0;
    for (int s = 0; s < STEPS + WARM; s++) {
        if (s == WARM) { __syncthreads(); t0 = clock64(); }
#pragma unroll
        for (int m = 0; m < M; m++) p[m] = next[p[m] * 32 + word];
    }
    __syncthreads();
    long long t1 = clock64();
    unsigned x = 0;
#pragma unroll
    for (int m = 0; m < M; m++) x ^= p[m];
    out[threadIdx.x] = x;
    if (threadIdx.x == 0) *cyc = t1 - t0;
}

template <int M>
static double run(const unsigned *next, int K, int W, unsigned *out, long long *cyc)
{
    std::vector<double> v;
    for (int r = 0; r < 5; r++) {
        k_walk<M><<<1, 32 * W>>>(next, K, out, cyc);
        long long h;
        cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost);
        v.push_back((double)h / STEPS);
    }
    std::sort(v.begin(), v.end());
    return v[2];
}

int main()
{
    std::vector<unsigned> perm(LINES), next((size_t)LINES * 32);
    for (unsigned i = 0; i < LINES; i++) perm[i] = i;
    srand(12345);
    for (unsigned i = LINES - 1; i > 0; i--) std::swap(perm[i], perm[(unsigned)rand() % i]);
    for (unsigned i = 0; i < LINES; i++)
        for (int j = 0; j < 32; j++) next[(size_t)perm[i] * 32 + j] = perm[(i + 1) % LINES];
    unsigned *dn, *out;
    long long *cyc;
    cudaMalloc(&dn, next.size() * 4);
    cudaMemcpy(dn, next.data(), next.size() * 4, cudaMemcpyHostToDevice);
    cudaMalloc(&out, 1024 * 4);
    cudaMalloc(&cyc, 8);
    printf("# lines_a_load K, warps W, loads_in_flight_a_warp M, cycles_a_step\n");
    printf("K,W,M,cycles\n");
    int Ks[] = {1, 2, 4, 8, 16, 32};
    for (int K : Ks) printf("%d,1,1,%.1f\n", K, run<1>(dn, K, 1, out, cyc));
    for (int W : {2, 4, 8, 16, 32}) printf("32,%d,1,%.1f\n", W, run<1>(dn, 32, W, out, cyc));
    for (int K : {1, 8, 32}) {
        printf("%d,1,2,%.1f\n", K, run<2>(dn, K, 1, out, cyc));
        printf("%d,1,4,%.1f\n", K, run<4>(dn, K, 1, out, cyc));
        printf("%d,1,8,%.1f\n", K, run<8>(dn, K, 1, out, cyc));
    }
    for (int W : {2, 4}) printf("32,%d,4,%.1f\n", W, run<4>(dn, 32, W, out, cyc));
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 2; }
    return 0;
}
