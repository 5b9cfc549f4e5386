// block_turn.cu - how long an SM's block slot stays taken beyond the block's own work: blocks
// whose warps all spin for S cycles (clock64), with dynamic shared memory sized so that R blocks
// at most are resident on an SM (R = 1, 2, 4), launched with 132 x {16, 64} blocks of 32, 256
// or 1024 threads, timed as the example kernels are (examples/common/pn_bench.cuh: median of
// 20 launches, each after a spin kernel). The slope of time against blocks per SM, times the
// SM clock, is the time between two blocks of one slot over R: a block's slot turns over every
// R x slope cycles, S of them its work, the rest (block_turn) what starting and retiring a
// block takes when its slot is the bottleneck (not the SM's launch rate: R x 157 < S).
// Prints CSV rows `probe,value,unit,detail` (block_turn_T_R_S, R as asked; the detail says how
// many fit: 1024-thread blocks fit 2 at most) to append to probe.csv.
// Usage: block_turn CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

__global__ void pn_spin_block(long long cycles, int *sink)
{
    extern __shared__ int sh[];
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
    if (threadIdx.x == 0 && cycles < 0) {
        sh[0] = 1;
        *sink = sh[0];
    }
}

int main(int argc, char **argv)
{
    double clock_mhz = argc > 1 ? atof(argv[1]) : 1980.0;
    int sms = 0, smem_sm = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    PN_CK(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    PN_CK(cudaFuncSetAttribute(pn_spin_block, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               smem_sm - 1024));
    int *sink;
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    const int threads_list[] = {32, 256, 1024}, res_list[] = {1, 2, 4};
    const long long spin_list[] = {2000, 8000};
    for (int threads : threads_list)
        for (int res : res_list)
            for (long long spin : spin_list) {
                /* R blocks fit, R + 1 do not (1 KiB a block reserved by the runtime) */
                size_t smem = (size_t)(smem_sm / (res + 1) + 1024);
                if (smem > (size_t)smem_sm - 1024) smem = smem_sm - 1024;
                int fit = 0;
                PN_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, pn_spin_block, threads,
                                                                    smem));
                int per_sm[2] = {16, 64};
                double y[2];
                for (int i = 0; i < 2; i++) {
                    int blocks = sms * per_sm[i];
                    std::vector<double> us = pn_time_launches(3, 20, [] {}, [&] {
                        pn_spin_block<<<blocks, threads, smem>>>(spin, sink);
                    });
                    y[i] = pn_pct(us, 0.5);
                }
                double slope = (y[1] - y[0]) / (per_sm[1] - per_sm[0]) * clock_mhz;
                printf("block_turn_%d_%d_%lld,%.2f,cycles,\"<<<%d x 16..64, %d>>> spinning %lld "
                       "cycles, %zu B shared (for %d): %d resident; slope %.2f cycles a block x "
                       "%d resident - %lld; medians %.2f %.2f us at %.1f MHz\"\n",
                       threads, res, spin, slope * fit - spin, sms, threads, spin, smem, res, fit,
                       slope, fit, spin, y[0], y[1], clock_mhz);
                fflush(stdout);
            }
    PN_CK(cudaFree(sink));
    return 0;
}
