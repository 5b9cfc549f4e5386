// written_latency.cu - how long one warp waits for a load of a line, by where the line was
// left: read by this SM's warp before (clean, in L2), written by every SM in the launch
// before (dirty, in L2), read by every SM in the launch before, or evicted to DRAM. A
// random cycle over LINES lines (4 MiB, well inside the L2); one warp on one SM chases it
// with dependent loads (lane 0's word of each line), STEPS steps, cycles by clock64, the
// median of 5 rounds. Cases, each round in this order:
//   written   a kernel on every SM writes the cycle (whole lines), then the chase
//   again     the same chase right after (the lines now read by the chasing SM)
//   dram      a 256 MiB memset evicts them, then the chase
//   read_all  the cycle written again, evicted, read by a kernel on every SM, then the chase
// Usage: written_latency [MHz]   (prints CSV rows probe,value,unit,detail)
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define LINES (1u << 15)
#define STEPS 2048

__global__ void k_write(unsigned *buf, const unsigned *perm)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < LINES * 32; i += gridDim.x * blockDim.x)
        buf[i] = (i & 31) ? i : perm[i >> 5] * 32;
}

__global__ void k_read(const unsigned *buf, unsigned *sink)
{
    unsigned s = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < LINES * 32; i += gridDim.x * blockDim.x)
        s += buf[i];
    if (s == 0x12345678u) *sink = s;
}

__global__ void k_chase(const unsigned *buf, unsigned *sink, long long *cyc)
{
    unsigned p = 0;
    long long t0 = clock64();
    for (int s = 0; s < STEPS; s++) p = buf[p];
    long long t1 = clock64();
    if (threadIdx.x == 0) { *sink = p; *cyc = t1 - t0; }
}

static double chase(const unsigned *buf, unsigned *sink, long long *cyc)
{
    k_chase<<<1, 32>>>(buf, sink, cyc);
    long long c;
    cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost);
    return (double)c / STEPS;
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    std::vector<unsigned> order(LINES), perm(LINES);
    for (unsigned i = 0; i < LINES; i++) order[i] = i;
    srand(7);
    for (unsigned i = LINES - 1; i > 0; i--) std::swap(order[i], order[rand() % (i + 1)]);
    for (unsigned i = 0; i < LINES; i++) perm[order[i]] = order[(i + 1) % LINES];
    unsigned *buf, *dperm, *sink;
    char *scrub;
    long long *cyc;
    size_t big = 256u << 20;
    cudaMalloc(&buf, LINES * 128);
    cudaMalloc(&dperm, LINES * 4);
    cudaMalloc(&sink, 4);
    cudaMalloc(&cyc, 8);
    cudaMalloc(&scrub, big);
    cudaMemcpy(dperm, perm.data(), LINES * 4, cudaMemcpyHostToDevice);
    const char *name[4] = { "written", "again", "dram", "read_all" };
    std::vector<double> v[4];
    for (int r = 0; r < 5; r++) {
        k_write<<<132 * 4, 256>>>(buf, dperm);
        v[0].push_back(chase(buf, sink, cyc));
        v[1].push_back(chase(buf, sink, cyc));
        cudaMemset(scrub, r, big);
        v[2].push_back(chase(buf, sink, cyc));
        k_write<<<132 * 4, 256>>>(buf, dperm);
        cudaMemset(scrub, r + 1, big);
        k_read<<<132 * 4, 256>>>(buf, sink);
        v[3].push_back(chase(buf, sink, cyc));
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    for (int c = 0; c < 4; c++) {
        std::sort(v[c].begin(), v[c].end());
        printf("written_latency_%s,%.1f,cycles,\"one warp's dependent loads over %u lines (4 MiB); rounds %.1f %.1f %.1f %.1f %.1f\"\n",
               name[c], v[c][2], LINES, v[c][0], v[c][1], v[c][2], v[c][3], v[c][4]);
    }
    return 0;
}
