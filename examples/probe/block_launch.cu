// block_launch.cu - how fast an SM takes on new blocks: an empty kernel of 32 or 64 threads
// per block launched with 132 x {256, 1024, 4096, 16384} blocks, timed as the example kernels
// are (examples/common/pn_bench.cuh: median of 200 launches, each bracketed by events after
// a spin kernel). The slope of time against blocks per SM, times the SM clock, is the number
// of cycles between two block starts on one SM when blocks are short: pnsim's block_launch.
// Prints CSV rows `probe,value,unit,detail` (block_launch, block_launch_64) to append to
// probe.csv. Usage: block_launch CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

__global__ void pn_empty_block(int *sink)
{
    if (threadIdx.x == 1023)
        *sink = 1;  // never true: keeps the kernel from being empty of code
}

int main(int argc, char **argv)
{
    double clock_mhz = argc > 1 ? atof(argv[1]) : 1980.0;
    int sms = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int *sink;
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    static const int per_sm[] = {256, 1024, 4096, 16384};
    for (int threads = 32; threads <= 64; threads *= 2) {
        double x[4], y[4];
        for (int i = 0; i < 4; i++) {
            int blocks = sms * per_sm[i];
            std::vector<double> us = pn_time_launches(
                20, 200, [] {}, [&] { pn_empty_block<<<blocks, threads>>>(sink); });
            x[i] = per_sm[i];
            y[i] = pn_pct(us, 0.5);
            fprintf(stderr, "block_launch: %d threads, %d blocks (%d per SM): median %.3f us\n",
                    threads, blocks, per_sm[i], y[i]);
        }
        double mx = 0, my = 0, sxy = 0, sxx = 0;
        for (int i = 0; i < 4; i++) mx += x[i] / 4, my += y[i] / 4;
        for (int i = 0; i < 4; i++) sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
        double slope_us = sxy / sxx;
        printf("%s,%.4f,cycles,\"empty <<<%d x 256..16384, %d>>> (%d SMs): slope %.5f us per block per "
               "SM x %.1f MHz; medians %.2f %.2f %.2f %.2f us\"\n",
               threads == 32 ? "block_launch" : "block_launch_64", slope_us * clock_mhz, sms,
               threads, sms, slope_us, clock_mhz, y[0], y[1], y[2], y[3]);
    }
    PN_CK(cudaFree(sink));
    return 0;
}
