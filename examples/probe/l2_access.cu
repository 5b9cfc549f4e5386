// l2_access.cu - what scattered accesses cost the L2 when they hit it: the whole device
// touches a 16 MiB buffer (L2-resident: the H100 has 50 MiB, the H200 60) at hashed
// positions, with four access shapes, each 64 accesses a thread (8 independent in flight):
//   ld4   a 4-byte load per thread, each to a sector of its own (as dram_random.cu's L2 row)
//   ld32  8 consecutive lanes read the 8 words of one sector: 4 full sectors a warp access
//   st4   a 4-byte store per thread to a sector of its own (a partial-sector write)
//   st32  8 consecutive lanes write one whole sector: 4 full sectors a warp access
//   red4  a 4-byte atomicAdd, result unused (RED), per thread to a sector of its own
//   ld128 a warp reads one whole 128-byte line (4 sectors), coalesced as streaming code does
//   st128 a warp writes one whole 128-byte line
// Timed as the example kernels are (examples/common/pn_bench.cuh: median of 10 launches after
// 2 warm-ups). Prints CSV rows `probe,value,unit,detail` (sectors per SM-clock cycle over the
// whole device) to append to probe.csv. Usage: l2_access CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

typedef unsigned long long u64;

__device__ __forceinline__ u64 pn_hash(u64 x, unsigned seed)
{
    u64 h = x * 0x9E3779B97F4A7C15ull + seed;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
}

// shape: 0 ld4, 1 ld32, 2 st4, 3 st32, 4 red4, 5 ld128, 6 st128. mask: words - 1 (a power
// of two).
__global__ void pn_l2(unsigned *p, u64 mask, int trips, unsigned seed, int shape, unsigned *sink)
{
    u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    bool full = shape == 1 || shape == 3, line = shape >= 5;
    u64 who = line ? t / 32 : full ? t / 8 : t;
    unsigned acc = 0;
    for (int r = 0; r < trips; r += 8) {
        unsigned v[8];
#pragma unroll
        for (int j = 0; j < 8; j++) {
            u64 h = pn_hash(who * 8 + (u64)(r + j), seed);
            u64 w = line ? ((h & mask) & ~(u64)31) + (t & 31)
                    : full ? ((h & mask) & ~(u64)7) + (t & 7) : ((h & mask) & ~(u64)7);
            if (shape <= 1 || shape == 5) v[j] = p[w];
            else if (shape <= 3 || shape == 6) p[w] = (unsigned)t, v[j] = 0;
            else atomicAdd(&p[w], 1u), v[j] = 0;
        }
#pragma unroll
        for (int j = 0; j < 8; j++) acc ^= v[j];
    }
    if (acc == 0x7fffffffu) sink[0] = acc;
}

int main(int argc, char **argv)
{
    double mhz = argc > 1 ? atof(argv[1]) : 1980.0;
    int sms = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t bytes = (size_t)16 << 20;
    unsigned *buf, *sink;
    PN_CK(cudaMalloc(&buf, bytes));
    PN_CK(cudaMemset(buf, 1, bytes));
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    const int grid = sms * 4, block = 512, trips = 64;
    const double threads = (double)grid * block;
    static const char *const name[] = { "ld4", "ld32", "st4", "st32", "red4", "ld128", "st128" };
    static const char *const what[] = {
        "4-byte loads, each to a sector of its own",
        "8 lanes read one whole sector (4 sectors a warp access)",
        "4-byte stores, each to a sector of its own (partial-sector writes)",
        "8 lanes write one whole sector (4 sectors a warp access)",
        "4-byte atomicAdd (RED), each to a sector of its own",
        "a warp reads one whole 128-byte line (4 sectors)",
        "a warp writes one whole 128-byte line (4 sectors)",
    };
    for (int s = 0; s < 7; s++) {
        std::vector<double> us = pn_time_launches(2, 10, [] {}, [&] {
            pn_l2<<<grid, block>>>(buf, bytes / 4 - 1, trips, 4242u + s, s, sink);
        });
        double t = pn_pct(us, 0.5);
        double sectors = threads * trips / (s == 1 || s == 3 || s >= 5 ? 8.0 : 1.0);
        printf("tput_l2_%s_sectors,%.4f,sectors/cycle,\"WHOLE DEVICE; grid %d x %d threads, %d "
               "accesses a thread (8 in flight) at hashed positions of %zu MiB (L2-resident): %s; "
               "%.0f sectors; median of %zu launches %.1f us at %.1f MHz\"\n",
               name[s], sectors / (t * mhz), grid, block, trips, bytes >> 20, what[s], sectors,
               us.size(), t, mhz);
    }
    PN_CK(cudaFree(buf));
    PN_CK(cudaFree(sink));
    return 0;
}
