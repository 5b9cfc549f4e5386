/* robust2.cu - Hopper-era constructs that real code brings and the import must read: a
 * cooperative grid-wide barrier, a thread-block cluster reading its neighbour's shared
 * memory, a compare-and-swap loop, bfloat16 arithmetic, a warp reduction instruction and a
 * spin with back-off. Each is timed and profiled with the documented workflow
 * (../deps/measure.sh); the question is first whether `pnsim import` reads them at all.
 *
 *   kernel       one thread                                              grid
 *   r2_gridsync  a[i] = 3 i; grid.sync(); out[i] = a[(i + 1) mod n]      132 x 2 blocks (cooperative)
 *   r2_cluster   its block's shared tile, cluster.sync(), reads the       n / T (clusters of 2)
 *                neighbour block's tile through distributed shared memory
 *   r2_cas       atomicCAS loop: a float max of in[i] into bin i mod 64    n / T
 *   r2_bf16      16 bfloat16x2 FMAs on its pair, one load, one store     n / T
 *   r2_redux     __reduce_add_sync of its value, one atomicAdd a warp      n / T
 *   r2_spin      block 0 sets a flag; the others spin on it with          132 blocks
 *                __nanosleep back-off, then copy their slice
 *
 * Usage and output as ../deps/deps.cu:
 *   robust2 [--kernels r2_x,...] [--threads 128,...] [--launches 40] [--warmup 5]
 *           [--launch-log FILE] [--info]
 * Exit 1 if a check failed, 2 on a CUDA error. n = 2^22 (r2_gridsync: 132 x 2 x T).
 */
#include "../common/pn_bench.cuh"

#include <cmath>
#include <cooperative_groups.h>
#include <cuda_bf16.h>

namespace cg = cooperative_groups;

#define R2_N (1L << 22)
#define R2_BINS 64

static unsigned *g_sink = nullptr;

__global__ void r2_gridsync(int *a, int *out, int n)
{
    cg::grid_group g = cg::this_grid();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = 3 * i;
    g.sync();
    out[i] = a[(i + 1) % n];
}

__global__ void __cluster_dims__(2, 1, 1) r2_cluster(const float *__restrict__ in, float *out)
{
    extern __shared__ float tile[];
    cg::cluster_group c = cg::this_cluster();
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = in[i] * 2.0f;
    c.sync();
    unsigned other = c.block_rank() ^ 1u;
    float *peer = c.map_shared_rank(tile, other);
    out[i] = peer[blockDim.x - 1 - threadIdx.x];
    c.sync();
}

__device__ __forceinline__ void atomic_max_float(float *p, float v)
{
    int *ip = (int *)p, old = *ip;
    while (__int_as_float(old) < v) {
        int seen = atomicCAS(ip, old, __float_as_int(v));
        if (seen == old) break;
        old = seen;
    }
}

__global__ void r2_cas(const float *__restrict__ in, float *bins)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    atomic_max_float(&bins[i % R2_BINS], in[i]);
}

__global__ void r2_bf16(const __nv_bfloat162 *__restrict__ in, __nv_bfloat162 *out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    __nv_bfloat162 x = in[i], a = __floats2bfloat162_rn(0.5f, 0.25f),
                   b = __floats2bfloat162_rn(0.125f, 0.0625f);
#pragma unroll
    for (int k = 0; k < 16; k++) x = __hfma2(x, a, b);
    out[i] = x;
}

__global__ void r2_redux(const unsigned *__restrict__ in, unsigned *total)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = __reduce_add_sync(0xffffffffu, in[i] & 0xffu);
    if ((threadIdx.x & 31) == 0) atomicAdd(total, s);
}

__global__ void r2_spin(const float *__restrict__ in, float *out, volatile int *flag, long per)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) { __threadfence(); *flag = 1; }
    } else {
        if (threadIdx.x == 0) {
            unsigned ns = 32;
            while (*flag == 0) { __nanosleep(ns); ns = ns < 1024 ? 2 * ns : ns; }
        }
        __syncthreads();
    }
    for (long j = (long)blockIdx.x * per + threadIdx.x; j < (blockIdx.x + 1) * per; j += blockDim.x)
        out[j] = in[j] + 1.0f;
}

/* ---- host side ----------------------------------------------------------------------------- */

struct r2_data {
    std::vector<float> x;
    std::vector<unsigned> u;
    float *dx = nullptr, *dy = nullptr, *dbins = nullptr;
    unsigned *du = nullptr, *dtot = nullptr;
    int *da = nullptr, *dout = nullptr, *dflag = nullptr;
    explicit r2_data(uint64_t seed)
    {
        x.resize(R2_N);
        u.resize(R2_N);
        for (long i = 0; i < R2_N; i++) x[i] = pn_randf(&seed), u[i] = (unsigned)pn_rand64(&seed);
        dx = pn_dev_copy(x);
        du = pn_dev_copy(u);
        PN_CK(cudaMalloc(&dy, R2_N * 4));
        PN_CK(cudaMalloc(&dbins, R2_BINS * 4));
        PN_CK(cudaMalloc(&dtot, 4));
        PN_CK(cudaMalloc(&da, R2_N * 4));
        PN_CK(cudaMalloc(&dout, R2_N * 4));
        PN_CK(cudaMalloc(&dflag, 4));
    }
};

static long r2_blocks(const char *k, int T)
{
    if (!strcmp(k, "r2_gridsync")) return 2 * 132;
    if (!strcmp(k, "r2_spin")) return 132;
    if (!strcmp(k, "r2_bf16")) return R2_N / 2 / T;
    return R2_N / T;
}

/* What a launch needs reset first (not timed): the bins, the total, the flag. */
static void r2_prep(const char *k, r2_data &d)
{
    if (!strcmp(k, "r2_cas")) PN_CK(cudaMemsetAsync(d.dbins, 0, R2_BINS * 4));
    if (!strcmp(k, "r2_redux")) PN_CK(cudaMemsetAsync(d.dtot, 0, 4));
    if (!strcmp(k, "r2_spin")) PN_CK(cudaMemsetAsync(d.dflag, 0, 4));
}

static void r2_launch(const char *k, int T, r2_data &d)
{
    unsigned nb = (unsigned)r2_blocks(k, T);
    if (!strcmp(k, "r2_gridsync")) {
        int n = (int)nb * T;
        void *args[] = {&d.da, &d.dout, &n};
        PN_CK(cudaLaunchCooperativeKernel((const void *)r2_gridsync, nb, T, args, 0, 0));
    } else if (!strcmp(k, "r2_cluster")) {
        r2_cluster<<<nb, T, T * sizeof(float)>>>(d.dx, d.dy);
    } else if (!strcmp(k, "r2_cas")) {
        r2_cas<<<nb, T>>>(d.dx, d.dbins);
    } else if (!strcmp(k, "r2_bf16")) {
        r2_bf16<<<nb, T>>>((const __nv_bfloat162 *)d.dx, (__nv_bfloat162 *)d.dy);
    } else if (!strcmp(k, "r2_redux")) {
        r2_redux<<<nb, T>>>(d.du, d.dtot);
    } else {
        r2_spin<<<nb, T>>>(d.dx, d.dy, d.dflag, R2_N / 132);
    }
}

static bool r2_check(const char *k, int T, r2_data &d, std::string *err)
{
    char m[160];
    if (!strcmp(k, "r2_gridsync")) {
        long n = r2_blocks(k, T) * T;
        std::vector<int> o = pn_host_copy(d.dout, n);
        for (long i = 0; i < n; i++)
            if (o[i] != (int)(3 * ((i + 1) % n))) { snprintf(m, sizeof m, "out[%ld] = %d", i, o[i]); *err = m; return false; }
    } else if (!strcmp(k, "r2_cluster")) {
        std::vector<float> y = pn_host_copy(d.dy, R2_N);
        for (long i = 0; i < R2_N; i += 997) {
            long b = i / T, t = i % T, peer = (b ^ 1) * T + (T - 1 - t);
            if (y[i] != 2.0f * d.x[peer]) { snprintf(m, sizeof m, "out[%ld] = %g", i, y[i]); *err = m; return false; }
        }
    } else if (!strcmp(k, "r2_cas")) {
        std::vector<float> b = pn_host_copy(d.dbins, R2_BINS), want(R2_BINS, 0.f);
        for (long i = 0; i < R2_N; i++) want[i % R2_BINS] = std::max(want[i % R2_BINS], d.x[i]);
        for (int j = 0; j < R2_BINS; j++)
            if (b[j] != want[j]) { snprintf(m, sizeof m, "bin %d = %g, not %g", j, b[j], want[j]); *err = m; return false; }
    } else if (!strcmp(k, "r2_redux")) {
        std::vector<unsigned> t = pn_host_copy(d.dtot, 1);
        unsigned want = 0;
        for (long i = 0; i < R2_N; i++) want += d.u[i] & 0xffu;
        if (t[0] != want) { snprintf(m, sizeof m, "total %u, not %u", t[0], want); *err = m; return false; }
    } else if (!strcmp(k, "r2_spin")) {
        std::vector<float> y = pn_host_copy(d.dy, R2_N);
        for (long i = 0; i < R2_N / 132 * 132; i += 991)
            if (y[i] != d.x[i] + 1.0f) { snprintf(m, sizeof m, "out[%ld] = %g", i, y[i]); *err = m; return false; }
    }
    return true; /* r2_bf16: run, not checked bit for bit */
}

int main(int argc, char **argv)
{
    pn_opts o;
    std::vector<std::string> names;
    pn_parse_set_opts(argc, argv, &o, &names);
    const char *all[] = {"r2_gridsync", "r2_cluster", "r2_cas", "r2_bf16", "r2_redux", "r2_spin"};
    const void *fn[] = {(const void *)r2_gridsync, (const void *)r2_cluster, (const void *)r2_cas,
                        (const void *)r2_bf16, (const void *)r2_redux, (const void *)r2_spin};
    if (!pn_names_known(names, all, 6)) return 2;
    FILE *log = pn_open_launch_log(o);
    PN_CK(cudaMalloc(&g_sink, sizeof(unsigned)));
    r2_data d(o.seed);
    int failures = 0;
    const std::vector<int> T2 = {128, 256, 512};
    for (int ki = 0; ki < 6; ki++) {
        const char *k = all[ki];
        if (!pn_wanted(names, k)) continue;
        cudaFuncAttributes fa;
        PN_CK(cudaFuncGetAttributes(&fa, fn[ki]));
        for (int T : o.threads.empty() ? T2 : o.threads) {
            if (T < 32 || T > 1024 || T % 32) continue;
            long nb = r2_blocks(k, T), size = !strcmp(k, "r2_gridsync") ? nb * T : R2_N;
            failures += !pn_set_point(o, log, k, size, T, nb, fa, false,
                                      [&] { pn_warm_buf(d.dx, R2_N * 4, g_sink); },
                                      [&] { r2_prep(k, d); }, [&] { r2_launch(k, T, d); },
                                      [&](std::string *err) { return r2_check(k, T, d, err); });
        }
    }
    if (log) fclose(log);
    PN_CK(cudaFree(g_sink));
    return failures ? 1 : 0;
}
