// tex_rate.cu - texture fetches (TEX, TLD): their throughput per SM and their latency, as
// image code reads a 2D texture (convolutionTexture and dct8x8 in CUDA's samples). One block
// an SM (132 blocks), W warps of 32 threads; each warp makes 8 independent fetches a step
// into 8 registers, a 32 x 8 texel patch of its own that stays in the SM's cache, STEPS steps
// after WARM warm-up steps, cycles by clock64 between two barriers, the median of 5
// launches. Four kinds: tex2D of a float cudaArray with point and with linear filtering
// (TEX), tex1Dfetch of linear memory, and a float4 tex2D (point); tex1Dfetch's index does not
// change from step to step, so the compiler hoists those fetches out of the loop and its rows
// are no measure (kept as they ran). Then one warp's
// dependent chain (the next coordinate from the texel just read) for the latency. Prints,
// per kind and W, cycles per fetch instruction per SM and per warp.
#include <cstdio>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"

#define STEPS 128
#define WARM 8
#define DIM 1024

template <int KIND>
__device__ __forceinline__ float fetch(cudaTextureObject_t t, float x, float y, int i)
{
    if (KIND == 2) return tex1Dfetch<float>(t, i);
    if (KIND == 3) { float4 v = tex2D<float4>(t, x, y); return v.x + v.w; }
    return tex2D<float>(t, x, y);
}

template <int KIND>
__global__ void k_tp(cudaTextureObject_t t, float *out, long long *cyc)
{
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    float x = lane + 0.5f, y = 8 * w + 0.5f, a[8] = { 0 };
    long long t0 = 0;
    for (int s = 0; s < STEPS + WARM; s++) {
        if (s == WARM) { __syncthreads(); t0 = clock64(); }
#pragma unroll
        for (int k = 0; k < 8; k++)
            a[k] += fetch<KIND>(t, x, y + k, (8 * w + k) * DIM + lane);
        x = (a[0] > 1e30f) ? x + 1 : x; // keep the loop's fetches from being hoisted
    }
    __syncthreads();
    long long t1 = clock64();
    float r = 0;
    for (int k = 0; k < 8; k++) r += a[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = r;
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}

__global__ void k_chain(cudaTextureObject_t t, float *out, long long *cyc)
{
    float x = threadIdx.x + 0.5f;
    long long t0 = 0;
    for (int s = 0; s < STEPS + WARM; s++) {
        if (s == WARM) t0 = clock64();
        x = tex2D<float>(t, x, 0.5f) + 0.5f;
    }
    long long t1 = clock64();
    out[threadIdx.x] = x;
    if (threadIdx.x == 0) *cyc = t1 - t0;
}

static cudaTextureObject_t array_tex(cudaArray_t arr, cudaTextureFilterMode f)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = f;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &rd, &td, nullptr);
    return t;
}

template <int KIND>
static void measure(const char *name, cudaTextureObject_t t, float *out, long long *cyc)
{
    for (int W : {1, 2, 4, 8, 16, 32}) {
        double per = pn_grid_clock_median(cyc, 132, 5, [&] { k_tp<KIND><<<132, 32 * W>>>(t, out, cyc); }) /
                     ((double)STEPS * 8 * W);
        printf("tex_%s_W%d,%.4f,cycles,\"a fetch instruction a SM (%d warps, 8 independent a step); %.3f a warp\"\n",
               name, W, per, W, per * W);
    }
}

int main()
{
    std::vector<float> img(DIM * DIM);
    for (int i = 0; i < DIM * DIM; i++) img[i] = (float)(i % 7) * 1e-3f;
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(), f4 = cudaCreateChannelDesc<float4>();
    cudaArray_t a1, a4;
    cudaMallocArray(&a1, &f1, DIM, DIM);
    cudaMallocArray(&a4, &f4, DIM, 256);
    cudaMemcpy2DToArray(a1, 0, 0, img.data(), DIM * 4, DIM * 4, DIM, cudaMemcpyHostToDevice);
    std::vector<float> img4(4 * DIM * 256, 1e-3f);
    cudaMemcpy2DToArray(a4, 0, 0, img4.data(), DIM * 16, DIM * 16, 256, cudaMemcpyHostToDevice);
    float *lin;
    cudaMalloc(&lin, DIM * DIM * 4);
    cudaMemcpy(lin, img.data(), DIM * DIM * 4, cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = lin;
    rd.res.linear.desc = f1;
    rd.res.linear.sizeInBytes = DIM * DIM * 4;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tlin, tpoint = array_tex(a1, cudaFilterModePoint),
                              tlinear = array_tex(a1, cudaFilterModeLinear),
                              tpoint4 = array_tex(a4, cudaFilterModePoint);
    cudaCreateTextureObject(&tlin, &rd, &td, nullptr);
    float *out;
    long long *cyc;
    cudaMalloc(&out, 132 * 1024 * sizeof(float));
    cudaMalloc(&cyc, 132 * sizeof(long long));
    measure<0>("point", tpoint, out, cyc);
    measure<1>("linear", tlinear, out, cyc);
    measure<2>("fetch1d", tlin, out, cyc);
    measure<3>("point4", tpoint4, out, cyc);
    for (int r = 0; r < 3; r++) {
        k_chain<<<1, 32>>>(tpoint, out, cyc);
        long long c;
        cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost);
        printf("tex_chain,%.2f,cycles,\"one warp, dependent tex2D (point, L1 hits)\"\n", (double)c / STEPS);
    }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}
