// red_bins.cu - what a global reduction (RED.ADD) and an atomic whose old value is used
// (ATOMG.ADD) cost at L2 when a launch's updates fall on few lines: a histogram's bins. Every
// thread of a grid of 4 blocks of 256 threads an SM runs 256 updates; update k of thread t
// goes to word
//   lane   ((t x 7919 + k x 104729) mod B)                every lane of a warp on a line of
//                                                          its own (B >= 1024): one sector a line
//   sector 8 ((t / 8 x 7919 + k x 104729) mod (B / 8)) + t mod 8
//                                                          groups of 8 lanes on one sector of a
//                                                          line each: 4 lines a warp
//   line   32 ((t / 32 x 7919 + k x 104729) mod (B / 32)) + t mod 32
//                                                          a warp on the 32 words of one line
// of a buffer of B words (B = 256 to 2^20: 8 to 32768 lines). Timed as the example kernels
// are (examples/common/pn_bench.cuh: median of LAUNCHES after 2 warm-ups). Prints
// `probe,value,unit,detail` rows: SM-clock cycles a warp-level update (the launch's cycles
// over its warp instructions). Run under ncu with LAUNCHES 1 for the L2's atomic input
// cycles (lts__d_atomic_input_cycles_active .max and .avg over the slices) beside the
// launch's L2 cycles. Usage: red_bins CLOCK_MHZ [LAUNCHES]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

// layout 0 lane, 1 sector, 2 line; ret: the old value used (ATOMG)
__global__ void pn_red_bins(unsigned *x, unsigned bins, int layout, int ret, unsigned *sink)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
    unsigned g = layout == 0 ? 1 : layout == 1 ? 8 : 32;
#pragma unroll 1
    for (unsigned k = 0; k < 256; k++) {
        unsigned w = ((t / g) * 7919u + k * 104729u) % (bins / g) * g + t % g;
        if (ret) acc ^= atomicAdd(&x[w], 1u);
        else atomicAdd(&x[w], 1u);
    }
    if (acc == 0x7fffffffu) sink[0] = acc;
}

int main(int argc, char **argv)
{
    double mhz;
    int launches, warm, sms = pn_probe_args(argc, argv, &mhz, &launches, &warm);
    const int grid = sms * 4, block = 256;
    unsigned *x, *sink;
    const size_t words = (size_t)1 << 20;
    PN_CK(cudaMalloc(&x, words * sizeof *x));
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    static const char *const lname[] = { "lane", "sector", "line" };
    static const unsigned binsv[] = { 256, 1024, 4096, 16384, 65536, 1u << 20 };
    for (int ret = 0; ret < 2; ret++)
        for (int l = 0; l < 3; l++)
            for (int b = 0; b < 6; b++) {
                if (ret && l > 0)
                    continue;   /* ATOMG: one sector a line alone */
                unsigned bins = binsv[b];
                std::vector<double> us = pn_time_launches(warm, launches,
                    [&] { PN_CK(cudaMemset(x, 0, bins * sizeof *x)); },
                    [&] { pn_red_bins<<<grid, block>>>(x, bins, l, ret, sink); });
                double t = pn_pct(us, 0.5), warps = (double)grid * block / 32 * 256;
                printf("red_bins_%s_%s_%u,%.4f,cycles/warp-atomic,\"WHOLE DEVICE; grid %d x %d "
                       "threads, 256 %s a thread, %s layout over %u words (%u lines); median of "
                       "%zu launches %.2f us at %.1f MHz\"\n",
                       ret ? "atom" : "red", lname[l], bins, t * mhz / warps, grid, block,
                       ret ? "ATOMG.ADD" : "RED.ADD", lname[l], bins, bins / 32, us.size(), t, mhz);
                fflush(stdout);
            }
    PN_CK(cudaFree(x));
    PN_CK(cudaFree(sink));
    return 0;
}
