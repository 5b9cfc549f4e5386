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

struct pn_bufs {
    unsigned *in, *out, *cp;
    double mhz;
    int launches, warm;
};

/* Times kernel k over n words at T threads a block and prints its row, named
 * `name`_n<n>_t<T>; what: the detail of what a thread moves. */
static void time_row(const pn_bufs &b, const char *name, pn_kernel_t k, int n, int T,
                     const char *what)
{
    int grid = n / (PN_ITEMS * T);
    std::vector<double> us = pn_time_launches(b.warm, b.launches, [] {},
        [&] { k<<<grid, T>>>(b.in, b.out, n, b.cp); });
    double t = pn_pct(us, 0.5);
    printf("%s_n%d_t%d,%.3f,us,\"WHOLE DEVICE; %d blocks of %d threads, %s; %.0f cycles at %.1f "
           "MHz; median of %zu launches (p10 %.3f, p90 %.3f)\"\n",
           name, n, T, t, grid, T, what, t * b.mhz, b.mhz, us.size(), pn_pct(us, 0.1),
           pn_pct(us, 0.9));
    fflush(stdout);
}

int main(int argc, char **argv)
{
    pn_bufs b;
    pn_probe_args(argc, argv, &b.mhz, &b.launches, &b.warm);
    const int nmax = 1 << 24;
    PN_CK(cudaMalloc(&b.in, (size_t)nmax * sizeof *b.in));
    PN_CK(cudaMalloc(&b.cp, (size_t)nmax * sizeof *b.cp));
    PN_CK(cudaMalloc(&b.out, (size_t)(4096 + nmax / 64) * sizeof *b.out));
    PN_CK(cudaMemset(b.in, 1, (size_t)nmax * sizeof *b.in));
    PN_CK(cudaMemset(b.out, 0, (size_t)(4096 + nmax / 64) * sizeof *b.out));
    static const char *const ename[] = { "store", "red1", "red64" };
    static const pn_kernel_t kern[2][3] = {
        { pn_red_stream<0, 0, 0>, pn_red_stream<1, 0, 0>, pn_red_stream<2, 0, 0> },
        { pn_red_stream<0, 1, 0>, pn_red_stream<1, 1, 0>, pn_red_stream<2, 1, 0> },
    };
    static const pn_kernel_t copyk[2] = { pn_red_stream<0, 1, 1>, pn_red_stream<1, 1, 1> };
    char name[64];
    for (int n : { 1 << 24, 1 << 22 })
        for (int loads = 1; loads >= 0; loads--)
            for (int e = 0; e < 3; e++)
                for (int T : { 64, 128, 256, 512, 1024 }) {
                    snprintf(name, sizeof name, "red_stream_%s%s", ename[e], loads ? "" : "_noload");
                    time_row(b, name, kern[loads][e], n, T,
                             loads ? "8 words a thread read" : "no loads");
                }
    for (int n : { 1 << 24, 1 << 22 })
        for (int e = 0; e < 2; e++)
            for (int T : { 64, 128, 256, 1024 }) {
                snprintf(name, sizeof name, "red_stream_copy_%s", ename[e]);
                time_row(b, name, copyk[e], n, T, "8 words a thread read and stored");
            }
    PN_CK(cudaFree(b.in));
    PN_CK(cudaFree(b.cp));
    PN_CK(cudaFree(b.out));
    return 0;
}
