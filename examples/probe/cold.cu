// cold.cu - what one warp's dependent steps cost when nothing is warm: (a) one thread's
// chain of dependent loads whose addresses are `stride` bytes apart in a 2 GiB buffer
// (128 B: a new line each step; 64 KiB, 2 MiB, 32 MiB: a new page of the GPU's MMU each
// step, so its TLBs miss), the L2 flushed before (a 256 MiB memset), cycles a load by clock64
// over 256 loads; the same chain run again at once (lines and pages warm); (b) the step of a
// wavefront over a 16 x 16 tile in shared memory as Rodinia's nw runs it: four LDS, three
// dependent integer ops, an STS and a barrier a step, one warp, the threads that work
// (t <= step) or all 32, cycles a step over 64 steps. Median of 5 launches each.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"


#define NLOAD 256

__global__ void k_chain(const unsigned long long *a, unsigned long long start, unsigned long long *out,
                        long long *cyc)
{
    unsigned long long i = start;
    long long t0 = clock64();
    for (int s = 0; s < NLOAD; s++) i = a[i];
    long long t1 = clock64();
    *out = i;
    *cyc = t1 - t0;
}

// next[x] = x + stride (in words), wrapping in the buffer
__global__ void k_fill(unsigned long long *a, size_t n, size_t stride_w)
{
    for (size_t x = blockIdx.x * (size_t)blockDim.x + threadIdx.x; x < n;
         x += (size_t)gridDim.x * blockDim.x)
        a[x] = (x + stride_w) % n;
}

template <int ALL>
__global__ void k_wave(int *g, int pen, long long *cyc)
{
    __shared__ int m[17 * 17];
    int t = threadIdx.x;
    for (int i = t; i < 17 * 17; i += blockDim.x) m[i] = g[i];
    __syncthreads();
    long long t0 = clock64();
    for (int s = 0; s < 64; s++) {
        int k = s & 15;
        if (ALL || t <= k) {
            int x = (t & 15) + 1, y = k - (t & 15) + 1;
            y = y < 1 ? 1 : y;
            int a = m[(y - 1) * 17 + x - 1], b = m[y * 17 + x - 1], c = m[(y - 1) * 17 + x];
            int v = max(a, max(b - pen, c - pen));
            m[y * 17 + x] = v;
        }
        __syncthreads();
    }
    long long t1 = clock64();
    if (t == 0) *cyc = t1 - t0;
    g[17 * 17 + t] = m[t];
}

// (c) one thread's running sum as Rodinia's particlefilter computes a CDF: each step a load,
// a DADD and (STORE) a store of the sum; the weights were just written by the whole grid
template <int STORE>
__global__ void k_cdf(const double *w, double *cdf, int n, long long *cyc)
{
    long long t0 = clock64();
    double s = w[0];
    cdf[0] = s;
    for (int x = 1; x < n; x++) {
        s = w[x] + s;
        if (STORE) cdf[x] = s;
    }
    long long t1 = clock64();
    if (!STORE) cdf[0] = s;
    *cyc = t1 - t0;
}

__global__ void k_scale(double *w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) w[i] = 1.0 / (i + 1);
}

// (b2) the same steps with four dependent FFMAs in place of the shared-memory work: what a
// divergent if costs without the shared window's base (S2UR SR_CgaCtaId) in its body
template <int ALL>
__global__ void k_alu(float *g, float a, long long *cyc)
{
    int t = threadIdx.x;
    float x = g[t];
    __syncthreads();
    long long t0 = clock64();
    for (int s = 0; s < 64; s++) {
        int k = s & 15;
        if (ALL || t <= k) {
            x = x * a + 1.0f;
            x = x * a + 2.0f;
            x = x * a + 3.0f;
            x = x * a + 4.0f;
        }
        __syncthreads();
    }
    long long t1 = clock64();
    g[t] = x;
    if (t == 0) *cyc = t1 - t0;
}

static double med(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main()
{
    const size_t bytes = (size_t)2 << 30, n = bytes / 8;
    unsigned long long *a, *out;
    long long *cyc;
    char *flush;
    int *g;
    PN_CK(cudaMalloc(&a, bytes));
    PN_CK(cudaMalloc(&flush, (size_t)256 << 20));
    PN_CK(cudaMalloc(&out, 8));
    PN_CK(cudaMalloc(&cyc, 8));
    PN_CK(cudaMalloc(&g, 4096));
    PN_CK(cudaMemset(g, 0, 4096));
    cudaDeviceProp p;
    PN_CK(cudaGetDeviceProperties(&p, 0));
    printf("# %s, cold.cu\n", p.name);
    printf("stride_bytes,cold_cycles_per_load,warm_cycles_per_load\n");
    const size_t strides[] = { 128, 4096, 65536, (size_t)2 << 20, (size_t)32 << 20 };
    for (size_t st : strides) {
        k_fill<<<1024, 256>>>(a, n, st / 8);
        PN_CK(cudaDeviceSynchronize());
        std::vector<double> cold, warm;
        for (int r = 0; r < 5; r++) {
            unsigned long long start = (unsigned long long)(r * 7919) % 1024 * 16;
            PN_CK(cudaMemset(flush, r, (size_t)256 << 20));
            for (int w = 0; w < 2; w++) {
                k_chain<<<1, 1>>>(a, start, out, cyc);
                long long c;
                PN_CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
                (w ? warm : cold).push_back((double)c / NLOAD);
            }
        }
        printf("%zu,%.1f,%.1f\n", st, med(cold), med(warm));
    }
    printf("threads,active,cycles_per_step\n");
    for (int all = 0; all < 2; all++)
        for (int th : { 16, 32 }) {
            std::vector<double> v;
            for (int r = 0; r < 5; r++) {
                if (all)
                    k_wave<1><<<1, th>>>(g, 10, cyc);
                else
                    k_wave<0><<<1, th>>>(g, 10, cyc);
                long long c;
                PN_CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
                v.push_back((double)c / 64);
            }
            printf("%d,%s,%.1f\n", th, all ? "all" : "t<=step", med(v));
        }
    printf("alu_threads,active,cycles_per_step\n");
    for (int all = 0; all < 2; all++) {
        std::vector<double> v;
        for (int r = 0; r < 5; r++) {
            if (all)
                k_alu<1><<<1, 32>>>((float *)g, 0.5f, cyc);
            else
                k_alu<0><<<1, 32>>>((float *)g, 0.5f, cyc);
            long long c;
            PN_CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
            v.push_back((double)c / 64);
        }
        printf("32,%s,%.1f\n", all ? "all" : "t<=step", med(v));
    }
    printf("cdf_store,cycles_per_step\n");
    const int nw = 100000;
    double *w = (double *)a, *cdf = (double *)a + (1 << 20);
    for (int store = 0; store < 2; store++) {
        std::vector<double> v;
        for (int r = 0; r < 5; r++) {
            k_scale<<<(nw + 511) / 512, 512>>>(w, nw);
            if (store)
                k_cdf<1><<<1, 1>>>(w, cdf, nw, cyc);
            else
                k_cdf<0><<<1, 1>>>(w, cdf, nw, cyc);
            long long c;
            PN_CK(cudaMemcpy(&c, cyc, 8, cudaMemcpyDeviceToHost));
            v.push_back((double)c / nw);
        }
        printf("%d,%.1f\n", store, med(v));
    }
    return 0;
}
