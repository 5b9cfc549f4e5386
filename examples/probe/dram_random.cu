// dram_random.cu - what a scattered load costs DRAM: the whole device reads a 2 GiB buffer
// (>> L2) once streaming (coalesced int4, as probe.cu's tput_dram_sectors) and once at random
// (one 4-byte load a thread per trip, each at a hashed position: one 32-byte sector of its own
// 128-byte line). Both are timed as the example kernels are (examples/common/pn_bench.cuh:
// median of 10 launches after 2 warm-ups, each after a spin kernel). Useful sectors per SM
// cycle of each, and their ratio: how many sectors of DRAM bandwidth one line's sector costs
// when nothing else of the line is read (HBM's access granularity). A third run reads at
// random within 16 MiB (L2-resident) for comparison. Prints CSV rows `probe,value,unit,detail`
// (tput_dram_random_sectors, dram_line_sectors, tput_l2_random_sectors) to append to
// probe.csv. Usage: dram_random CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

typedef unsigned long long u64;

__global__ void pn_stream(const int4 *p, size_t n, unsigned *sink)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    int acc = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int4 a = p[i];
        acc ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    if (acc == 0x7fffffff) sink[0] = (unsigned)acc;
}

// Each thread: `trips` loads of 4 bytes at hashed word positions of a buffer of `mask + 1`
// words (a power of two); 8 independent loads in flight a thread.
__global__ void pn_random(const unsigned *p, u64 mask, int trips, unsigned seed, unsigned *sink)
{
    u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = 0;
    for (int r = 0; r < trips; r += 8) {
        unsigned v[8];
#pragma unroll
        for (int j = 0; j < 8; j++) {
            u64 h = (t * 8 + (u64)(r + j)) * 0x9E3779B97F4A7C15ull + seed;
            h ^= h >> 29;
            h *= 0xBF58476D1CE4E5B9ull;
            h ^= h >> 32;
            v[j] = p[h & mask];
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
    const size_t bytes = (size_t)2 << 30, small = (size_t)16 << 20;
    void *buf;
    unsigned *sink;
    PN_CK(cudaMalloc(&buf, bytes));
    PN_CK(cudaMemset(buf, 1, bytes));
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    const int grid = sms * 4, block = 512;

    std::vector<double> us = pn_time_launches(2, 10, [] {}, [&] {
        pn_stream<<<grid, block>>>((const int4 *)buf, bytes / 16, sink);
    });
    double t_stream = pn_pct(us, 0.5), s_stream = bytes / 32.0 / (t_stream * mhz);

    // as many loads as the buffer has lines would touch most lines once: 2^24 threads-loads
    const int trips = 64;
    const double loads = (double)grid * block * trips;
    us = pn_time_launches(2, 10, [] {}, [&] {
        pn_random<<<grid, block>>>((const unsigned *)buf, bytes / 4 - 1, trips, 12345u, sink);
    });
    double t_rand = pn_pct(us, 0.5), s_rand = loads / (t_rand * mhz);

    us = pn_time_launches(2, 10, [] {}, [&] {
        pn_random<<<grid, block>>>((const unsigned *)buf, small / 4 - 1, trips, 777u, sink);
    });
    double t_l2 = pn_pct(us, 0.5), s_l2 = loads / (t_l2 * mhz);

    printf("tput_dram_random_sectors,%.4f,sectors/cycle,\"WHOLE DEVICE; grid %d x %d threads, %d "
           "random 4-byte loads a thread (8 in flight) over %zu MiB: %.0f loads, each one sector of "
           "its own line; median of %zu launches %.1f us at %.1f MHz\"\n",
           s_rand, grid, block, trips, bytes >> 20, loads, us.size(), t_rand, mhz);
    printf("dram_line_sectors,%.4f,sectors,\"DRAM bandwidth one sector read alone from its line "
           "costs, in sectors: streaming %.4f sectors/cycle (int4 over %zu MiB, median %.1f us) / "
           "random %.4f\"\n",
           s_stream / s_rand, s_stream, bytes >> 20, t_stream, s_rand);
    printf("tput_l2_random_sectors,%.4f,sectors/cycle,\"WHOLE DEVICE; the same random loads over %zu "
           "MiB (L2-resident); median %.1f us\"\n",
           s_l2, small >> 20, t_l2);
    PN_CK(cudaFree(buf));
    PN_CK(cudaFree(sink));
    return 0;
}
