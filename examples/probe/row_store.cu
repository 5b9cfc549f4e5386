// row_store.cu - what a warp's store costs when each lane writes a row of its own, one
// element after another (the naive kernels of llm.c's dev/cuda: encoder, layernorm and
// residual kernel 1 walk B x T rows of C channels, a thread a row): every warp store
// touches 32 lines, one sector each, and the next store the same 32 sectors' next words.
// Against the same stores in another order: a lane's consecutive stores 32 elements apart
// (its row taken as 24 runs of 32, the k-th store to element (k % 24) * 32 + k / 24), so
// that no line is written twice in a row by a warp, and each sector still gets all its
// words. Elements of 2 and 4 bytes; rows of C = 768; R rows, a thread a row, blocks of T
// threads: (R, T) = (8192, 32): one or two warps an SM; (8192, 1024): 8 SMs of 32 warps;
// (65536, 256): 16 warps on every SM.
// Prints CSV `order,bytes,rows,threads,blocks,median_us,cycles_per_store` where
// cycles_per_store = SM cycles (at CLOCK_MHZ) a warp store over the SM's warps (the SM's
// warp-stores over its time: rows / 32 warps spread over min(blocks, 132) SMs). Timed as
// the example kernels are (examples/common/pn_bench.cuh: a spin kernel before each launch's
// event pair), the median of 20 launches after 3.
// Usage: row_store CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"

#define RS_C 768

template <class T, int JUMP>
__global__ void rs_store(T *__restrict__ out, int rows, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    T *b = out + (long)r * C;
    int runs = C / 32;
    for (int k = 0; k < C; k++) {
        int c = JUMP ? (k % runs) * 32 + k / runs : k;
        b[c] = (T)(r + c);
    }
}

int main(int argc, char **argv)
{
    double mhz = argc > 1 ? atof(argv[1]) : 1980;
    const int cases[3][2] = { { 8192, 32 }, { 8192, 1024 }, { 65536, 256 } };
    void *buf;
    PN_CK(cudaMalloc(&buf, (size_t)65536 * RS_C * 4));
    cudaDeviceProp p;
    PN_CK(cudaGetDeviceProperties(&p, 0));
    printf("# %s, row_store.cu, clock %.0f MHz\n", p.name, mhz);
    printf("order,bytes,rows,threads,blocks,median_us,cycles_per_store\n");
    for (auto &c : cases) {
        int R = c[0], T = c[1], nb = (R + T - 1) / T;
        double sms = nb < p.multiProcessorCount ? nb : p.multiProcessorCount;
        double stores = (double)R / 32 * RS_C / sms; /* warp stores per SM */
        for (int bytes = 2; bytes <= 4; bytes += 2)
            for (int jump = 0; jump < 2; jump++) {
                std::vector<double> t = pn_time_launches(3, 20, [] {}, [&] {
                    if (bytes == 2 && !jump) rs_store<unsigned short, 0><<<nb, T>>>((unsigned short *)buf, R, RS_C);
                    else if (bytes == 2) rs_store<unsigned short, 1><<<nb, T>>>((unsigned short *)buf, R, RS_C);
                    else if (!jump) rs_store<float, 0><<<nb, T>>>((float *)buf, R, RS_C);
                    else rs_store<float, 1><<<nb, T>>>((float *)buf, R, RS_C);
                });
                double us = t[t.size() / 2];
                printf("%s,%d,%d,%d,%d,%.3f,%.2f\n", jump ? "jump" : "row", bytes, R, T, nb, us,
                       us * mhz / stores);
            }
    }
    return 0;
}
