// store_one.cu - how fast the device takes plain stores that every warp makes to one and
// the same address (Rodinia's bfs: `*g_over = true` in every thread that updated a node),
// against stores of each warp to its own line. Blocks of 1024 threads, each warp one
// store (its 32 lanes to one word, or its own line), 132 x {16, 64, 256} blocks; the
// slope of the median time (CUDA events, 20 launches) against warps: nanoseconds a
// warp's store, device-wide.
#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"


__global__ void k_one(int *flag) { *flag = 1; }

__global__ void k_own(int *out)
{
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 32 * 32] = 1;
}

__global__ void k_none(int *out)
{
    if (threadIdx.x == 1024) out[0] = 1;
}

template <typename F>
static float median_ms(F launch)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> v;
    for (int r = 0; r < 23; r++) {
        cudaEventRecord(a);
        launch();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        if (r >= 3) v.push_back(ms);
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main()
{
    int *buf;
    const int mult[3] = { 16, 64, 256 };
    PN_CK(cudaMalloc(&buf, (size_t)132 * 256 * 1024 * sizeof(int)));
    cudaDeviceProp p;
    PN_CK(cudaGetDeviceProperties(&p, 0));
    printf("# %s, store_one.cu\nkernel,blocks,warps,median_us\n", p.name);
    double t[3][3];
    for (int i = 0; i < 3; i++) {
        int blocks = 132 * mult[i];
        t[0][i] = median_ms([&] { k_one<<<blocks, 1024>>>(buf); }) * 1e3;
        t[1][i] = median_ms([&] { k_own<<<blocks, 1024>>>(buf); }) * 1e3;
        t[2][i] = median_ms([&] { k_none<<<blocks, 1024>>>(buf); }) * 1e3;
        PN_CK(cudaGetLastError());
        const char *name[3] = { "one_address", "own_line", "no_store" };
        for (int k = 0; k < 3; k++)
            printf("%s,%d,%d,%.3f\n", name[k], blocks, blocks * 32, t[k][i]);
    }
    for (int k = 0; k < 3; k++) {
        double slope = (t[k][2] - t[k][0]) / (132.0 * 32 * (mult[2] - mult[0])) * 1e3;
        printf("# %s: %.4f ns a warp's store (slope 16 -> 256 blocks an SM)\n",
               k == 0 ? "one_address" : k == 1 ? "own_line" : "no_store", slope);
    }
    return 0;
}
