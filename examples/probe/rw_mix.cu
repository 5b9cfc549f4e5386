// rw_mix.cu - what mixing reads and writes costs the L2 and the DRAM, and what global atomics
// on a few cache lines cost, on the whole device:
//   stream  the whole device streams int4 (16 bytes a thread, whole 128-byte lines a warp)
//           through one to three arrays, grid-stride, 4 blocks of 512 threads an SM:
//             read   s += a[i]                 (1 read)
//             write  c[i] = v                  (1 write)
//             copy   c[i] = a[i]               (1 read, 1 write)
//             axpy   c[i] = a[i] + b[i]        (2 reads, 1 write)
//             read2  s += a[i] + b[i]          (2 reads)
//           at two sizes: 1 GiB arrays (DRAM: far past the L2) in one pass, and 4 MiB arrays
//           (L2-resident) swept 64 times in one launch. Reads are ld.global.cg (__ldcg): the
//           grid-stride loop gives an SM the same elements every pass, which its L1 would
//           otherwise serve (a first version measured 100-155 "L2" read sectors a cycle so).
//   lines   every thread of a grid of 4 blocks of 256 threads an SM does 64 atomicAdd (RED)
//           of 1 on word (threadIdx.x + k * blockDim.x) mod (32 L) of a table of L lines:
//           the same L lines for every block (as a histogram privatised per block and merged
//           at its end), each warp access 32 different words of one line. L = 1 .. 1024;
//           also float adds (RED.F32) on 8 lines.
//   resident  the read and the copy streams over footprints of 8 to 96 MiB, one pass a
//           launch, launched again and again: where the rate falls from the L2's to the
//           DRAM's is how much of the L2 a kernel keeps from one launch to the next.
// Timed as the example kernels are (examples/common/pn_bench.cuh: median of 10 launches after
// 2 warm-ups). Prints CSV rows `probe,value,unit,detail` to append to probe.csv:
// stream rows in sectors (32 B) moved, reads and writes together, per SM-clock cycle over the
// whole device; lines rows in cycles a line takes per warp access (the launch over the warp
// accesses each line received). Usage: rw_mix CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

// mode: 0 read, 1 write, 2 copy, 3 axpy, 4 read2. n: int4 elements of an array; reps passes.
__global__ void pn_stream(const int4 *__restrict__ a, const int4 *__restrict__ b,
                          int4 *__restrict__ c, size_t n, int reps, int mode, int *sink)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t step = (size_t)gridDim.x * blockDim.x;
    int acc = 0;
    for (int r = 0; r < reps; r++) {
        for (size_t i = t; i < n; i += step) {
            if (mode == 0) {
                int4 x = __ldcg(&a[i]);
                acc ^= x.x ^ x.y ^ x.z ^ x.w;
            } else if (mode == 1) {
                c[i] = make_int4((int)i, r, 0, 0);
            } else if (mode == 2) {
                c[i] = __ldcg(&a[i]);
            } else if (mode == 3) {
                int4 x = __ldcg(&a[i]), y = __ldcg(&b[i]);
                c[i] = make_int4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
            } else {
                int4 x = __ldcg(&a[i]), y = __ldcg(&b[i]);
                acc ^= x.x ^ x.y ^ x.z ^ x.w ^ y.x ^ y.y ^ y.z ^ y.w;
            }
        }
    }
    if (acc == 0x7fffffff) sink[0] = acc;
}

// L lines of 32 words; every block the same words.
__global__ void pn_lines(unsigned *bins, int words, int trips)
{
    for (int k = 0; k < trips; k++)
        atomicAdd(&bins[(threadIdx.x + k * blockDim.x) % words], 1u);
}

__global__ void pn_lines_f(float *bins, int words, int trips)
{
    for (int k = 0; k < trips; k++)
        atomicAdd(&bins[(threadIdx.x + k * blockDim.x) % words], 1.0f);
}

int main(int argc, char **argv)
{
    double mhz = argc > 1 ? atof(argv[1]) : 1980.0;
    int sms = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int *sink;
    PN_CK(cudaMalloc(&sink, sizeof *sink));

    /* ---- streams ---- */
    static const char *const mname[] = { "read", "write", "copy", "axpy", "read2" };
    static const int reads[] = { 1, 0, 1, 2, 2 }, writes[] = { 0, 1, 1, 1, 0 };
    const size_t big = (size_t)1 << 30, small = (size_t)4 << 20;
    int4 *a, *b, *c;
    PN_CK(cudaMalloc(&a, big));
    PN_CK(cudaMalloc(&b, big));
    PN_CK(cudaMalloc(&c, big));
    PN_CK(cudaMemset(a, 1, big));
    PN_CK(cudaMemset(b, 2, big));
    PN_CK(cudaMemset(c, 3, big));
    const int grid = sms * 4, block = 512;
    for (int level = 0; level < 2; level++) {
        size_t bytes = level ? small : big;
        int reps = level ? 64 : 1;
        for (int m = 0; m < 5; m++) {
            size_t n = bytes / sizeof(int4);
            std::vector<double> us = pn_time_launches(2, 10, [] {}, [&] {
                pn_stream<<<grid, block>>>(a, b, c, n, reps, m, sink);
            });
            double t = pn_pct(us, 0.5);
            double sectors = (double)bytes / 32 * reps * (reads[m] + writes[m]);
            printf("tput_%s_%s_sectors,%.4f,sectors/cycle,\"WHOLE DEVICE; grid %d x %d threads "
                   "streaming int4 (whole lines); %s: %d read and %d written arrays of %zu MiB "
                   "(%s) x %d passes; %.0f sectors read and written; median of %zu launches "
                   "%.2f us at %.1f MHz\"\n",
                   level ? "l2" : "dram", mname[m], sectors / (t * mhz), grid, block, mname[m],
                   reads[m], writes[m], bytes >> 20, level ? "L2-resident" : "past the L2",
                   reps, sectors, us.size(), t, mhz);
        }
    }
    /* ---- what stays in L2 from one launch to the next ---- */
    static const int mib[] = { 8, 16, 24, 32, 36, 40, 44, 48, 56, 64, 96 };
    for (int m = 0; m < 3; m += 2) {
        for (int k = 0; k < (int)(sizeof mib / sizeof mib[0]); k++) {
            /* the footprint: one array read (read), or read and written (copy) */
            size_t bytes = ((size_t)mib[k] << 20) / (m ? 2 : 1), n = bytes / sizeof(int4);
            std::vector<double> us = pn_time_launches(3, 10, [] {}, [&] {
                pn_stream<<<grid, block>>>(a, b, c, n, 1, m, sink);
            });
            double t = pn_pct(us, 0.5);
            double sectors = (double)bytes / 32 * (m ? 2 : 1);
            printf("resident_%s_%d,%.4f,sectors/cycle,\"WHOLE DEVICE; the stream %s over a "
                   "footprint of %d MiB launched again and again (3 warm-up launches then 10; "
                   "each launch after a 20 us spin); %.0f sectors read and written; median %.2f us "
                   "at %.1f MHz: near the L2 rates while the footprint stays in L2 from one launch "
                   "to the next, near the DRAM rates once it does not\"\n",
                   mname[m], mib[k], sectors / (t * mhz), mname[m], mib[k], sectors, t, mhz);
        }
    }
    PN_CK(cudaFree(a));
    PN_CK(cudaFree(b));
    PN_CK(cudaFree(c));

    /* ---- atomics on L lines ---- */
    unsigned *bins;
    PN_CK(cudaMalloc(&bins, 1024 * 128));
    PN_CK(cudaMemset(bins, 0, 1024 * 128));
    const int lgrid = sms * 4, lblock = 256, trips = 64;
    const double accesses = (double)lgrid * lblock / 32 * trips;
    static const int Ls[] = { 1, 2, 4, 8, 16, 64, 256, 1024 };
    for (int f = 0; f < 2; f++) {
        for (int li = 0; li < 8; li++) {
            int L = Ls[li];
            if (f && L != 8) continue;
            std::vector<double> us = pn_time_launches(2, 10, [] {}, [&] {
                if (f) pn_lines_f<<<lgrid, lblock>>>((float *)bins, 32 * L, trips);
                else pn_lines<<<lgrid, lblock>>>(bins, 32 * L, trips);
            });
            double t = pn_pct(us, 0.5);
            printf("atomic_line%s_%d,%.4f,cycles,\"WHOLE DEVICE; grid %d x %d threads x %d "
                   "atomicAdd(%s) (RED) each: every block on the same %d lines; each warp access "
                   "32 different words of one line; %.0f warp accesses = %.0f a line; median of "
                   "%zu launches %.2f us at %.1f MHz; cycles a line per warp access\"\n",
                   f ? "_f32" : "", L, t * mhz / (accesses / L), lgrid, lblock, trips,
                   f ? "float 1.0" : "unsigned 1", L, accesses, accesses / L, us.size(), t, mhz);
        }
    }
    PN_CK(cudaFree(bins));
    PN_CK(cudaFree(sink));
    return 0;
}
