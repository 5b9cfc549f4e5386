// red_stream.cu - what one global reduction (RED) a block costs a kernel that streams its
// input: examples/kernels' pn_reduce (8 words a thread, warp shuffles, per-warp partials in
// shared memory, one single-lane atomicAdd a block) and variants of its end:
//   store   each block stores its partial to a word of its own (no atomic)
//   red1    each block adds its partial to one word (pn_reduce as it is)
//   red64   each block adds to one of 64 words on 64 lines (blockIdx mod 64)
// and each of the three again without the loads (the block sums its thread indices: the
// REDs and the block launches alone), and `store` and `red1` again as copies (every word
// read is also stored to a second buffer: `copy_store`, `copy_red1`). n = 2^24 words
// (64 MiB, DRAM) and 2^22 (16 MiB, L2-resident across launches); 64 to 1024 threads a
// block, n / (8 T) blocks.
// Timed as the example kernels are (examples/common/pn_bench.cuh: median of LAUNCHES
// launches after 2 warm-ups, the data left in L2 by the launch before).
// Prints `probe,value,unit,detail` rows: the launch's microseconds and its SM-clock cycles.
// Usage: red_stream CLOCK_MHZ [LAUNCHES]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

#define PN_ITEMS 8

// end: 0 store, 1 red1, 2 red64; loads 0: no input read; copy: each word read also stored
// to copy[i]
template <int END, int LOADS, int COPY>
__global__ void pn_red_stream(const unsigned *__restrict__ in, unsigned *__restrict__ out, int n,
                              unsigned *__restrict__ copy)
{
    __shared__ unsigned ws[32];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int base = blockIdx.x * blockDim.x * PN_ITEMS + t;
    unsigned v = 0;
    if (LOADS) {
#pragma unroll
        for (int k = 0; k < PN_ITEMS; k++) {
            int i = base + k * blockDim.x;
            if (i < n) {
                unsigned x = in[i];
                v += x;
                if (COPY) copy[i] = x;
            }
        }
    } else {
        v = (unsigned)base;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) ws[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < (int)(blockDim.x >> 5) ? ws[lane] : 0u;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0) {
            if (END == 0) out[4096 + blockIdx.x] = v;
            else if (END == 1) atomicAdd(out, v);
            else atomicAdd(out + (blockIdx.x & 63) * 32, v);
        }
    }
}

typedef void (*pn_kernel_t)(const unsigned *, unsigned *, int, unsigned *);

int main(int argc, char **argv)
{
    double mhz;
    int launches, warm;
    pn_probe_args(argc, argv, &mhz, &launches, &warm);
    const int nmax = 1 << 24;
    unsigned *in, *out, *cp;
    PN_CK(cudaMalloc(&in, (size_t)nmax * sizeof *in));
    PN_CK(cudaMalloc(&cp, (size_t)nmax * sizeof *cp));
    PN_CK(cudaMalloc(&out, (size_t)(4096 + nmax / 64) * sizeof *out));
    PN_CK(cudaMemset(in, 1, (size_t)nmax * sizeof *in));
    PN_CK(cudaMemset(out, 0, (size_t)(4096 + nmax / 64) * sizeof *out));
    static const char *const ename[] = { "store", "red1", "red64" };
    static const pn_kernel_t kern[2][3] = {
        { pn_red_stream<0, 0, 0>, pn_red_stream<1, 0, 0>, pn_red_stream<2, 0, 0> },
        { pn_red_stream<0, 1, 0>, pn_red_stream<1, 1, 0>, pn_red_stream<2, 1, 0> },
    };
    static const pn_kernel_t copyk[2] = { pn_red_stream<0, 1, 1>, pn_red_stream<1, 1, 1> };
    for (int n : { 1 << 24, 1 << 22 })
        for (int loads = 1; loads >= 0; loads--)
            for (int e = 0; e < 3; e++)
                for (int T : { 64, 128, 256, 512, 1024 }) {
                    int grid = n / (PN_ITEMS * T);
                    pn_kernel_t k = kern[loads][e];
                    std::vector<double> us = pn_time_launches(warm, launches, [] {},
                        [&] { k<<<grid, T>>>(in, out, n, cp); });
                    double t = pn_pct(us, 0.5);
                    printf("red_stream_%s%s_n%d_t%d,%.3f,us,\"WHOLE DEVICE; %d blocks of %d threads, "
                           "%s; %.0f cycles at %.1f MHz; median of %zu launches (p10 %.3f, p90 "
                           "%.3f)\"\n",
                           ename[e], loads ? "" : "_noload", n, T, t, grid, T,
                           loads ? "8 words a thread read" : "no loads", t * mhz, mhz, us.size(),
                           pn_pct(us, 0.1), pn_pct(us, 0.9));
                    fflush(stdout);
                }
    for (int n : { 1 << 24, 1 << 22 })
        for (int e = 0; e < 2; e++)
            for (int T : { 64, 128, 256, 1024 }) {
                int grid = n / (PN_ITEMS * T);
                pn_kernel_t k = copyk[e];
                std::vector<double> us = pn_time_launches(warm, launches, [] {},
                    [&] { k<<<grid, T>>>(in, out, n, cp); });
                double t = pn_pct(us, 0.5);
                printf("red_stream_copy_%s_n%d_t%d,%.3f,us,\"WHOLE DEVICE; %d blocks of %d threads, "
                       "8 words a thread read and stored; %.0f cycles at %.1f MHz; median of %zu "
                       "launches (p10 %.3f, p90 %.3f)\"\n",
                       ename[e], n, T, t, grid, T, t * mhz, mhz, us.size(), pn_pct(us, 0.1),
                       pn_pct(us, 0.9));
                fflush(stdout);
            }
    PN_CK(cudaFree(in));
    PN_CK(cudaFree(cp));
    PN_CK(cudaFree(out));
    return 0;
}
