// red_lanes.cu - what a global reduction (RED) to one address costs by the lanes it carries:
// B blocks of T threads; in each block W warps (the first W, W <= T/32) send one RED each to
// the same word, with L active lanes (threads whose lane < L), integer or float. The device
// serialises updates of one address at its L2 slice: where the REDs bind, the launch's
// cycles (at the SM clock) over its REDs are what one costs; beside it the cycles a RED
// adds over the same grid without them (what the REDs cost beyond the blocks' launches).
// Cases: L = 1, 2, 4, 8, 16, 32 with one RED a block (T = 64); one RED a warp (W = T/32) at
// L = 1 and 32; floats at L = 1 and 32. pn_reduce's blocks end with one single-lane RED
// each; mm_red's every lane adds (examples/data/h100/memory).
//
// Output: one line per case, "case cycles_a_red cycles detail" (examples/data/<gpu>/red_lanes.log).
// Build: nvcc -O3 -arch=sm_90 -o red_lanes examples/probe/red_lanes.cu
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

// the REDs: warps w < W of each block, lanes < L; `on` 0 runs the same grid without them.
// The address is x + lane * zero (zero = 0 at run time) so that the compiler cannot see one
// address and fold a warp's lanes into one RED (as it does for atomicAdd(x, v)).
template <typename T>
__global__ void k_red(T *x, int zero, int W, int L, int on)
{
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (on && w < W && lane < L) atomicAdd(x + lane * zero, (T)1);
}

template <typename T>
static float time_ms(T *x, int B, int threads, int W, int L, int on)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    std::vector<float> v;
    for (int r = 0; r < 7; r++) {
        CHECK(cudaEventRecord(a));
        k_red<T><<<B, threads>>>(x, 0, W, L, on);
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        v.push_back(ms);
    }
    std::sort(v.begin(), v.end());
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    return v[3];
}

template <typename T>
static void one(const char *name, T *x, double mhz, int B, int threads, int W, int L)
{
    float on = time_ms(x, B, threads, W, L, 1), off = time_ms(x, B, threads, W, L, 0);
    double reds = (double)B * W;
    printf("%s %.3f cycles \"a RED of %d lanes: the launch's cycles over its REDs (%d blocks of %d "
           "threads, %d a block: %.1f us); %.3f cycles a RED more than the same grid without them "
           "(%.1f us)\"\n",
           name, on * 1e3 * mhz / reds, L, B, threads, W, on * 1e3, (on - off) * 1e3 * mhz / reds,
           off * 1e3);
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int clk = 0;
    CHECK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    double mhz = clk / 1000.0;
    unsigned *xi;
    float *xf;
    CHECK(cudaMalloc(&xi, 256));
    CHECK(cudaMalloc(&xf, 256));
    CHECK(cudaMemset(xi, 0, 256));
    CHECK(cudaMemset(xf, 0, 256));
    int B = prop.multiProcessorCount * 512;
    printf("# %s, %d SMs, %.0f MHz (cycles at this clock); median of 7 launches each\n",
           prop.name, prop.multiProcessorCount, mhz);
    char name[64];
    for (int L : { 1, 2, 4, 8, 16, 32 }) {
        snprintf(name, sizeof name, "red_int_block_lanes%d", L);
        one(name, xi, mhz, B, 64, 1, L);
    }
    one("red_int_warp_lanes1", xi, mhz, B, 256, 8, 1);
    one("red_int_warp_lanes32", xi, mhz, B / 8, 256, 8, 32);
    one("red_float_block_lanes1", xf, mhz, B, 64, 1, 1);
    one("red_float_block_lanes32", xf, mhz, B, 64, 1, 32);
    CHECK(cudaDeviceSynchronize());
    return 0;
}
