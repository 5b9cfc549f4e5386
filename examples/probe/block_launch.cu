// block_launch.cu - how fast an SM takes on new blocks: an empty kernel of 32 to 1024 threads
// per block launched with 132 x {256, 1024, 4096, 16384} blocks (fewer for large blocks),
// timed as the example kernels are (examples/common/pn_bench.cuh: median of 200 launches,
// each bracketed by events after a spin kernel). The slope of time against blocks per SM,
// times the SM clock, is the number of cycles between two block starts on one SM when blocks
// are short: pnsim's block_launch. The same with blocks that copy one L2-resident word a
// thread (block_copy_T) tells what a block that waits for a load adds.
// Prints CSV rows `probe,value,unit,detail` (block_launch, block_launch_64, block_launch_T
// for T = 128..1024, block_copy_T) to append to probe.csv. Usage: block_launch CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

__global__ void pn_empty_block(int *sink)
{
    if (threadIdx.x == 1023)
        *sink = 1;  // never true: keeps the kernel from being empty of code
}

// one word a thread, within 4 MiB (L2-resident): a block that waits for a load
__global__ void pn_copy_block(const int *in, int *out)
{
    unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) & ((1u << 20) - 1);
    out[i] = in[i] + 1;
}

int main(int argc, char **argv)
{
    double clock_mhz = argc > 1 ? atof(argv[1]) : 1980.0;
    int sms = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int *sink;
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    int *in, *out;
    PN_CK(cudaMalloc(&in, 4 << 20));
    PN_CK(cudaMalloc(&out, 4 << 20));
    PN_CK(cudaMemset(in, 0, 4 << 20));
    for (int copy = 0; copy <= 1; copy++)
        for (int threads = 32; threads <= 1024; threads *= 2) {
            if (copy && threads < 64)
                continue;
            /* large blocks: fewer of them, so that a point stays below about 10 ms */
            int scale = threads >= 256 ? threads / 128 : 1;
            int per_sm[4] = {256 / scale, 1024 / scale, 4096 / scale, 16384 / scale};
            double x[4], y[4];
            for (int i = 0; i < 4; i++) {
                int blocks = sms * per_sm[i];
                std::vector<double> us = pn_time_launches(20, 200, [] {}, [&] {
                    if (copy)
                        pn_copy_block<<<blocks, threads>>>(in, out);
                    else
                        pn_empty_block<<<blocks, threads>>>(sink);
                });
                x[i] = per_sm[i];
                y[i] = pn_pct(us, 0.5);
                fprintf(stderr, "%s: %d threads, %d blocks (%d per SM): median %.3f us\n",
                        copy ? "block_copy" : "block_launch", threads, blocks, per_sm[i], y[i]);
            }
            double mx = 0, my = 0, sxy = 0, sxx = 0;
            for (int i = 0; i < 4; i++) mx += x[i] / 4, my += y[i] / 4;
            for (int i = 0; i < 4; i++) sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
            double slope_us = sxy / sxx;
            char name[32];
            if (!copy && threads == 32)
                snprintf(name, sizeof name, "block_launch");
            else
                snprintf(name, sizeof name, "%s_%d", copy ? "block_copy" : "block_launch", threads);
            printf("%s,%.4f,cycles,\"%s <<<%d x %d..%d, %d>>> (%d SMs): slope %.5f us per block per "
                   "SM x %.1f MHz; medians %.2f %.2f %.2f %.2f us\"\n",
                   name, slope_us * clock_mhz, copy ? "one L2-resident word a thread" : "empty",
                   sms, per_sm[0], per_sm[3], threads, sms, slope_us, clock_mhz, y[0], y[1], y[2],
                   y[3]);
            fflush(stdout);
        }
    PN_CK(cudaFree(in));
    PN_CK(cudaFree(out));
    PN_CK(cudaFree(sink));
    return 0;
}
