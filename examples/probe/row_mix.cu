// row_mix.cu - loads and stores of rows a thread each (llm.c's naive kernels, a thread a row
// of C elements: every warp access touches 32 lines, one sector each), mixed as real kernels
// mix them: what an SM takes for each mix when it is the SM's port that binds (8192 rows of
// C = 768 floats at 1024 threads a block: 8 SMs of 32 warps) and when one or two warps an SM
// wait on their own (32 threads a block: 256 warps over all SMs). The mixes, per element:
//   ld       s += in[c]                          one load
//   st       out[c] = r + c                      one store
//   cp       out[c] = in[c] + 1, restrict         loads hoisted 4 at a time, then 4 stores
//   cp_alias the same without restrict           load, add, store, load, ... (may alias)
//   softmax  llm.c's softmax kernel 1 on rows:   3 loads and 2 stores an element over 3 passes
//            max, out = exp(in - max) summed, out /= sum (no restrict)
// Timed as the example kernels (examples/common/pn_bench.cuh), median of 20 after 3. Prints
// CSV `mix,threads,blocks,median_us,cycles_per_element` (SM cycles at CLOCK_MHZ a warp's
// element over the SM's warps: the SM's warp-elements over its time).
// Usage: row_mix CLOCK_MHZ [C]   (C, the row's length, defaults to 768; a C that is not a
// multiple of 8 staggers the lanes' sector boundaries, so that every warp access has lanes that
// start a new sector)
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"

#define RM_ROWS 8192

__global__ void rm_ld(const float *__restrict__ in, float *__restrict__ out, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    const float *a = in + (long)r * C;
    float s = 0.f;
    for (int c = 0; c < C; c++) s += a[c];
    out[(long)r * C] = s;
}

__global__ void rm_st(const float *__restrict__ in, float *__restrict__ out, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    float *b = out + (long)r * C;
    for (int c = 0; c < C; c++) b[c] = (float)(r + c);
}

__global__ void rm_cp(const float *__restrict__ in, float *__restrict__ out, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    const float *a = in + (long)r * C;
    float *b = out + (long)r * C;
    for (int c = 0; c < C; c++) b[c] = a[c] + 1.f;
}

__global__ void rm_cp_alias(const float *in, float *out, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    const float *a = in + (long)r * C;
    float *b = out + (long)r * C;
    for (int c = 0; c < C; c++) b[c] = a[c] + 1.f;
}

__global__ void rm_softmax(const float *in, float *out, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    const float *a = in + (long)r * C;
    float *b = out + (long)r * C;
    float m = -1e30f, s = 0.f;
    for (int c = 0; c < C; c++) m = fmaxf(m, a[c]);
    for (int c = 0; c < C; c++) {
        b[c] = __expf(a[c] - m);
        s += b[c];
    }
    for (int c = 0; c < C; c++) b[c] /= s;
}

int main(int argc, char **argv)
{
    double mhz = argc > 1 ? atof(argv[1]) : 1980;
    const int RM_C = argc > 2 ? atoi(argv[2]) : 768;
    if (RM_C < 1) {
        fprintf(stderr, "row_mix: C must be positive\n");
        return 2;
    }
    float *in, *out;
    PN_CK(cudaMalloc(&in, (size_t)RM_ROWS * RM_C * 4));
    PN_CK(cudaMalloc(&out, (size_t)RM_ROWS * RM_C * 4));
    PN_CK(cudaMemset(in, 0, (size_t)RM_ROWS * RM_C * 4));
    cudaDeviceProp p;
    PN_CK(cudaGetDeviceProperties(&p, 0));
    printf("# %s, row_mix.cu, clock %.0f MHz, rows of %d floats\n", p.name, mhz, RM_C);
    printf("mix,threads,blocks,median_us,cycles_per_element\n");
    const char *name[5] = { "ld", "st", "cp", "cp_alias", "softmax" };
    for (int T : { 1024, 32 }) {
        int nb = RM_ROWS / T;
        double sms = nb < p.multiProcessorCount ? nb : p.multiProcessorCount;
        double elems = (double)RM_ROWS / 32 * RM_C / sms; /* warp-elements per SM */
        for (int k = 0; k < 5; k++) {
            std::vector<double> t = pn_time_launches(3, 20, [] {}, [&] {
                if (k == 0) rm_ld<<<nb, T>>>(in, out, RM_C);
                else if (k == 1) rm_st<<<nb, T>>>(in, out, RM_C);
                else if (k == 2) rm_cp<<<nb, T>>>(in, out, RM_C);
                else if (k == 3) rm_cp_alias<<<nb, T>>>(in, out, RM_C);
                else rm_softmax<<<nb, T>>>(in, out, RM_C);
            });
            double us = t[t.size() / 2];
            printf("%s,%d,%d,%.3f,%.2f\n", name[k], T, nb, us, us * mhz / elems);
        }
    }
    return 0;
}
