// unaligned.cu - what contiguous but unaligned warp accesses cost the L2 and the DRAM.
// Every warp reads or writes 32 consecutive 4-byte words; the whole grid walks a buffer
// front to back (grid-stride, as streaming code does), starting `off` words past a line.
// off 0: each warp access is one whole 128-byte line (4 sectors); off 8: 4 whole sectors
// over 2 lines; off 1: 5 sectors over 2 lines, the first and last written in part (rows of
// a length that is not a multiple of 32, llm.c's vocabulary of 50257 floats). A line is
// then touched by two warps, each for part of it, at about the same time.
//   ld     loads, xor-reduced (8 independent in flight a thread)
//   st     stores
//   cp     a copy: a load and a store a word
// on 16 MiB (L2-resident: the H100 has 50 MiB; walked 16 times a launch) and 256 MiB (DRAM,
// once). Timed as the example
// kernels are (examples/common/pn_bench.cuh: median of 10 launches after 2 warm-ups).
// Prints CSV rows `probe,value,unit,detail`: requested sectors per SM-clock cycle over the
// whole device (a warp access at off 1 counts its 5 sectors). Usage: unaligned CLOCK_MHZ
// [LAUNCHES] (default 10 after 2 warm-ups; 1 and none: one launch a case, for ncu)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

// mode 0 ld, 1 st, 2 cp. n: words each thread walks over (from off), a multiple of the
// grid's threads times 8.
__global__ void pn_unaligned(const unsigned *src, unsigned *dst, size_t n, int off, int mode,
                             int reps, unsigned *sink)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t step = (size_t)gridDim.x * blockDim.x;
    unsigned acc = 0;
    for (int r = 0; r < reps; r++)
    for (size_t i = t; i < n; i += 8 * step) {
        unsigned v[8];
#pragma unroll
        for (int j = 0; j < 8; j++) {
            size_t w = off + i + j * step;
            if (mode == 0) v[j] = src[w];
            else if (mode == 1) dst[w] = (unsigned)w, v[j] = 0;
            else dst[w] = src[w], v[j] = 0;
        }
#pragma unroll
        for (int j = 0; j < 8; j++) acc ^= v[j];
    }
    if (acc == 0x7fffffffu) sink[0] = acc;
}

int main(int argc, char **argv)
{
    double mhz;
    int launches, warm, sms = pn_probe_args(argc, argv, &mhz, &launches, &warm);
    const int grid = sms * 4, block = 512;
    const size_t threads = (size_t)grid * block;
    unsigned *a, *b, *sink;
    const size_t most = (size_t)256 << 20;
    PN_CK(cudaMalloc(&a, most + 4096));
    PN_CK(cudaMalloc(&b, most + 4096));
    PN_CK(cudaMemset(a, 1, most + 4096));
    PN_CK(cudaMemset(b, 1, most + 4096));
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    static const char *const mname[] = { "ld", "st", "cp" };
    static const size_t sizes[] = { (size_t)16 << 20, (size_t)256 << 20 };
    static const int offs[] = { 0, 8, 1 };
    for (size_t z = 0; z < 2; z++)
        for (int m = 0; m < 3; m++)
            for (int o = 0; o < 3; o++) {
                size_t n = sizes[z] / 4 / (8 * threads) * (8 * threads);
                int reps = z == 0 ? 16 : 1;
                std::vector<double> us = pn_time_launches(warm, launches, [] {}, [&] {
                    pn_unaligned<<<grid, block>>>(a, b, n, offs[o], m, reps, sink);
                });
                double t = pn_pct(us, 0.5);
                double per = offs[o] == 0 ? 4 : offs[o] == 8 ? 4 : 5;   // sectors a warp access
                double sectors = (double)n / 32 * per * (m == 2 ? 2 : 1) * reps;
                printf("unaligned_%s_%zumib_off%d,%.4f,sectors/cycle,\"WHOLE DEVICE; grid %d x %d "
                       "threads walk %zu words from word %d, %d times (%s a warp access); %.0f requested "
                       "sectors (loads and stores); median of %zu launches %.2f us at %.1f MHz; "
                       "%.1f GB/s of data\"\n",
                       mname[m], sizes[z] >> 20, offs[o], sectors / (t * mhz), grid, block, n,
                       offs[o], reps, offs[o] == 0 ? "one whole line" : offs[o] == 8
                                                     ? "4 whole sectors over 2 lines"
                                                     : "5 sectors over 2 lines",
                       sectors, us.size(), t, mhz,
                       (double)n * 4 * (m == 2 ? 2 : 1) * reps / (t * 1e3));
                fflush(stdout);
            }
    PN_CK(cudaFree(a));
    PN_CK(cudaFree(b));
    PN_CK(cudaFree(sink));
    return 0;
}
