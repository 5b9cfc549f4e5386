// walk_share.cu - do a warp's L1 hits on lines the block's other warps fetch wait for those
// lines? One block of W warps (1 to 8) an SM walks down a matrix of rows of 1024 floats
// (4 KB), 8 rows a trip, 4 lanes a row on 4 words: 8 lines a load, each trip's address
// waiting for the trip before (a dependent sum). Warp w reads the words
//   shared   4w .. 4w + 3     the W warps on the same lines, two warps a sector (from 2
//                              warps ncu counts half the sectors as L1 hits: HeCBench's
//                              attention_kernel2, a query a warp, walks V so)
//   apart    32w .. 32w + 3   each warp its own lines (no hits)
// over 8192 trips (64 K rows, 256 MiB, after 128 MiB written elsewhere) or 1024 trips after
// a pass over the same 32 MiB (L2).
// Prints `probe,value,unit,detail` rows: SM-clock cycles a trip (the block's clock64 span
// over the trips, median over the SMs). Run under ncu with one argument `ncu` for the L1
// hit rate of each case. Usage: walk_share [ncu]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"

__global__ void pn_walk(const float *__restrict__ m, float *out, long long *cyc, int trips,
                        int apart, int zero)
{
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    /* 8 rows a load, 4 lanes a row on 4 words: warp w's words 4w..4w+3 of a row (the
     * block's 8 warps fill a line), or 32w..32w+3 (a line of its own) */
    const int col = (apart ? 32 * w : 4 * w) + (lane >> 3);
    const float *p = m + (size_t)(lane & 7) * 1024 + col;
    float acc = 0;
    __syncthreads();
    long long t0 = clock64();
    for (int t = 0; t < trips; t++) {
        /* the next trip's address waits for this trip's value (zero is 0) */
        size_t at = (size_t)t * 8 * 1024 + (size_t)(__float_as_int(acc) & zero);
        acc += p[at];
    }
    __syncthreads();
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}

int main(int argc, char **argv)
{
    int ncu = argc > 1 && !strcmp(argv[1], "ncu"), sms = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t rows = 65536, bytes = rows * 1024 * sizeof(float);
    float *m, *out, *evict;
    long long *cyc;
    PN_CK(cudaMalloc(&m, bytes));
    PN_CK(cudaMalloc(&evict, bytes / 2));
    PN_CK(cudaMemset(m, 0, bytes));
    PN_CK(cudaMalloc(&out, (size_t)sms * 1024 * sizeof *out));
    PN_CK(cudaMalloc(&cyc, (size_t)sms * sizeof *cyc));
    std::vector<long long> h(sms);
    const int Ws[] = { 1, 2, 4, 8 };
    for (int level = 0; level < 2; level++)          /* 0 DRAM, 1 L2 */
        for (int apart = 0; apart < 2; apart++)
            for (int W : Ws) {
                int trips = level ? 1024 : 8192;
                if (level)   /* a pass first: the 32 MiB the walk reads in L2 */
                    pn_walk<<<sms, 32 * W>>>(m, out, cyc, trips, apart, 0);
                else         /* evict: write 128 MiB elsewhere first */
                    PN_CK(cudaMemset(evict, 0, bytes / 2));
                pn_walk<<<sms, 32 * W>>>(m, out, cyc, trips, apart, 0);
                PN_CK(cudaDeviceSynchronize());
                if (ncu)
                    continue;
                PN_CK(cudaMemcpy(h.data(), cyc, sms * sizeof(long long), cudaMemcpyDeviceToHost));
                std::sort(h.begin(), h.end());
                printf("walk_%s_%s_w%d,%.1f,cycles/trip,\"one block of %d warps an SM, %d trips, "
                       "8 lines a load, %s\"\n", apart ? "apart" : "shared", level ? "l2" : "dram",
                       W, (double)h[sms / 2] / trips, W, trips,
                       apart ? "each warp its own lines" : "the warps on the same lines");
                fflush(stdout);
            }
    return 0;
}
