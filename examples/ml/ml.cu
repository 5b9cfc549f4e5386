/* ml.cu - versions of the kernels an ML library ships, the way libraries write them: row
 * softmax, layer normalisation, a sum reduction and GELU, each in several versions (one
 * thread, one warp or one block per row; shared-memory trees or shuffles; scalar or float4
 * loads), each at several block sizes. They check what a user asks pnsim: which version and
 * which block size is fastest (examples/ml/README.md). Timed and profiled as
 * ../deps/measure.sh does.
 *
 *   family     version      work of one thread / warp / block                       grid
 *   softmax    sm_thread    one thread per row: max, sum of exp, write (3 passes)   rows/T
 *   (R x C)    sm_warp      one warp per row, shuffles                              rows*32/T
 *              sm_block     one block per row, shared-memory tree, barriers         rows
 *              sm_block4    one block per row, float4 loads, shuffles + shared     rows
 *   layernorm  ln_warp      one warp per row: mean, variance (two passes), write    rows*32/T
 *   (R x C)    ln_block     one block per row: two passes, shuffles + shared        rows
 *              ln_welford   one block per row: one pass (sum and sum of squares)    rows
 *   reduce     rd_atomic    every thread atomicAdd to one float                      n/T
 *   (n)        rd_shared    shared-memory tree per block, one atomic a block          n/T
 *              rd_shfl      shuffles per warp, shared across warps, one atomic        n/T
 *              rd_grid      grid-stride (4 blocks per SM), shuffles, one atomic       528
 *   gelu (n)   ge_scalar    y = 0.5 x (1 + tanh(0.797885 (x + 0.044715 x^3)))       n/T
 *              ge_vec4      the same on float4                                     n/(4T)
 *
 * size column: C (columns; R = 2^22 / C rows: 16 MB) for softmax and layernorm, n for the
 * others. Usage and output as ../deps/deps.cu:
 *   ml [--kernels x,...] [--threads 64,...] [--launches 40] [--warmup 5] [--launch-log FILE]
 *      [--info]
 */
#include "../common/pn_bench.cuh"

#include <memory>

#define ML_SMS 132
#define ML_ELEMS (1L << 22)

static unsigned *g_sink = nullptr;

__device__ __forceinline__ float ml_wmax(float v)
{
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ float ml_wsum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* block-wide reduction through shared memory (sh: 32 floats); every thread gets the result */
template <bool MAX> __device__ float ml_bred(float v, float *sh)
{
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
    v = MAX ? ml_wmax(v) : ml_wsum(v);
    __syncthreads();
    if (lane == 0) sh[w] = v;
    __syncthreads();
    float r = lane < nw ? sh[lane] : (MAX ? -INFINITY : 0.f);
    return MAX ? ml_wmax(r) : ml_wsum(r);
}

__global__ void sm_thread(const float *__restrict__ x, float *__restrict__ y, int R, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= R) return;
    const float *a = x + (long)r * C;
    float m = -INFINITY, s = 0.f;
    for (int c = 0; c < C; c++) m = fmaxf(m, a[c]);
    for (int c = 0; c < C; c++) s += __expf(a[c] - m);
    float inv = 1.f / s;
    for (int c = 0; c < C; c++) y[(long)r * C + c] = __expf(a[c] - m) * inv;
}

__global__ void sm_warp(const float *__restrict__ x, float *__restrict__ y, int R, int C)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (r >= R) return;
    const float *a = x + (long)r * C;
    float m = -INFINITY, s = 0.f;
    for (int c = lane; c < C; c += 32) m = fmaxf(m, a[c]);
    m = ml_wmax(m);
    for (int c = lane; c < C; c += 32) s += __expf(a[c] - m);
    float inv = 1.f / ml_wsum(s);
    for (int c = lane; c < C; c += 32) y[(long)r * C + c] = __expf(a[c] - m) * inv;
}

__global__ void sm_block(const float *__restrict__ x, float *__restrict__ y, int R, int C)
{
    __shared__ float sh[1024];
    int r = blockIdx.x, t = threadIdx.x;
    const float *a = x + (long)r * C;
    float m = -INFINITY, s = 0.f;
    for (int c = t; c < C; c += blockDim.x) m = fmaxf(m, a[c]);
    sh[t] = m;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) sh[t] = fmaxf(sh[t], sh[t + k]);
        __syncthreads();
    }
    m = sh[0];
    __syncthreads();
    for (int c = t; c < C; c += blockDim.x) s += __expf(a[c] - m);
    sh[t] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) sh[t] += sh[t + k];
        __syncthreads();
    }
    float inv = 1.f / sh[0];
    for (int c = t; c < C; c += blockDim.x) y[(long)r * C + c] = __expf(a[c] - m) * inv;
}

__global__ void sm_block4(const float *__restrict__ x, float *__restrict__ y, int R, int C)
{
    __shared__ float sh[32];
    int r = blockIdx.x, t = threadIdx.x, C4 = C / 4;
    const float4 *a = (const float4 *)(x + (long)r * C);
    float m = -INFINITY, s = 0.f;
    for (int c = t; c < C4; c += blockDim.x) {
        float4 v = a[c];
        m = fmaxf(fmaxf(m, fmaxf(v.x, v.y)), fmaxf(v.z, v.w));
    }
    m = ml_bred<true>(m, sh);
    for (int c = t; c < C4; c += blockDim.x) {
        float4 v = a[c];
        s += __expf(v.x - m) + __expf(v.y - m) + __expf(v.z - m) + __expf(v.w - m);
    }
    float inv = 1.f / ml_bred<false>(s, sh);
    float4 *o = (float4 *)(y + (long)r * C);
    for (int c = t; c < C4; c += blockDim.x) {
        float4 v = a[c];
        o[c] = make_float4(__expf(v.x - m) * inv, __expf(v.y - m) * inv, __expf(v.z - m) * inv,
                           __expf(v.w - m) * inv);
    }
}

__global__ void ln_warp(const float *__restrict__ x, float *__restrict__ y, int R, int C)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (r >= R) return;
    const float *a = x + (long)r * C;
    float s = 0.f, q = 0.f;
    for (int c = lane; c < C; c += 32) s += a[c];
    float mean = ml_wsum(s) / C;
    for (int c = lane; c < C; c += 32) { float d = a[c] - mean; q += d * d; }
    float rstd = rsqrtf(ml_wsum(q) / C + 1e-5f);
    for (int c = lane; c < C; c += 32) y[(long)r * C + c] = (a[c] - mean) * rstd;
}

__global__ void ln_block(const float *__restrict__ x, float *__restrict__ y, int R, int C)
{
    __shared__ float sh[32];
    int r = blockIdx.x, t = threadIdx.x;
    const float *a = x + (long)r * C;
    float s = 0.f, q = 0.f;
    for (int c = t; c < C; c += blockDim.x) s += a[c];
    float mean = ml_bred<false>(s, sh) / C;
    for (int c = t; c < C; c += blockDim.x) { float d = a[c] - mean; q += d * d; }
    float rstd = rsqrtf(ml_bred<false>(q, sh) / C + 1e-5f);
    for (int c = t; c < C; c += blockDim.x) y[(long)r * C + c] = (a[c] - mean) * rstd;
}

__global__ void ln_welford(const float *__restrict__ x, float *__restrict__ y, int R, int C)
{
    __shared__ float sh[32];
    int r = blockIdx.x, t = threadIdx.x;
    const float *a = x + (long)r * C;
    float s = 0.f, q = 0.f;
    for (int c = t; c < C; c += blockDim.x) { float v = a[c]; s += v; q += v * v; }
    s = ml_bred<false>(s, sh);
    q = ml_bred<false>(q, sh);
    float mean = s / C, rstd = rsqrtf(fmaxf(q / C - mean * mean, 0.f) + 1e-5f);
    for (int c = t; c < C; c += blockDim.x) y[(long)r * C + c] = (a[c] - mean) * rstd;
}

__global__ void rd_atomic(const float *__restrict__ x, float *__restrict__ out, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, x[i]);
}

__global__ void rd_shared(const float *__restrict__ x, float *__restrict__ out, long n)
{
    __shared__ float sh[1024];
    int t = threadIdx.x;
    long i = (long)blockIdx.x * blockDim.x + t;
    sh[t] = i < n ? x[i] : 0.f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) sh[t] += sh[t + k];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, sh[0]);
}

__global__ void rd_shfl(const float *__restrict__ x, float *__restrict__ out, long n)
{
    __shared__ float sh[32];
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    float v = ml_bred<false>(i < n ? x[i] : 0.f, sh);
    if (threadIdx.x == 0) atomicAdd(out, v);
}

__global__ void rd_grid(const float *__restrict__ x, float *__restrict__ out, long n)
{
    __shared__ float sh[32];
    float v = 0.f;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        v += x[i];
    v = ml_bred<false>(v, sh);
    if (threadIdx.x == 0) atomicAdd(out, v);
}

__device__ __forceinline__ float ml_gelu(float v)
{
    return 0.5f * v * (1.f + tanhf(0.797885f * (v + 0.044715f * v * v * v)));
}

__global__ void ge_scalar(const float *__restrict__ x, float *__restrict__ y, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = ml_gelu(x[i]);
}

__global__ void ge_vec4(const float4 *__restrict__ x, float4 *__restrict__ y, long n4)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = x[i];
    y[i] = make_float4(ml_gelu(v.x), ml_gelu(v.y), ml_gelu(v.z), ml_gelu(v.w));
}

static float ml_gelu_h(float v) { return 0.5f * v * (1.f + tanhf(0.797885f * (v + 0.044715f * v * v * v))); }

enum { K_SMT, K_SMW, K_SMB, K_SMB4, K_LNW, K_LNB, K_LNWF, K_RDA, K_RDS, K_RDW, K_RDG, K_GES, K_GEV };

struct ml_case {
    int kind;
    long size, n;
    std::string err;
    std::vector<float> a;
    float *dx = nullptr, *dy = nullptr;
    ml_case(int kind_, long size_, uint64_t seed) : kind(kind_), size(size_)
    {
        n = kind <= K_LNWF ? ML_ELEMS : size;
        a.resize(n);
        for (long i = 0; i < n; i++) a[i] = pn_randf(&seed) * 4.f - 2.f;
        dx = pn_dev_copy(a);
        PN_CK(cudaMalloc(&dy, n * sizeof(float)));
    }
    ~ml_case() { cudaFree(dx); cudaFree(dy); }
    int rows() const { return (int)(ML_ELEMS / size); }
    bool valid(int T) const { return T >= 32 && T <= 1024 && T % 32 == 0 && !(kind == K_SMB4 && T > size / 4); }
    long blocks(int T) const
    {
        switch (kind) {
        case K_SMT: return (rows() + T - 1) / T;
        case K_SMW: case K_LNW: return ((long)rows() * 32 + T - 1) / T;
        case K_SMB: case K_SMB4: case K_LNB: case K_LNWF: return rows();
        case K_RDG: return 4 * ML_SMS;
        case K_GEV: return (n / 4 + T - 1) / T;
        default: return (n + T - 1) / T;
        }
    }
    const void *func() const
    {
        const void *f[] = {(const void *)sm_thread, (const void *)sm_warp, (const void *)sm_block,
                           (const void *)sm_block4, (const void *)ln_warp, (const void *)ln_block,
                           (const void *)ln_welford, (const void *)rd_atomic, (const void *)rd_shared,
                           (const void *)rd_shfl, (const void *)rd_grid, (const void *)ge_scalar,
                           (const void *)ge_vec4};
        return f[kind];
    }
    void warm() { pn_warm_buf(dx, n * 4, g_sink); pn_warm_buf(dy, n * 4, g_sink); }
    void prep() { if (kind >= K_RDA && kind <= K_RDG) PN_CK(cudaMemset(dy, 0, 4)); }
    void launch(int T)
    {
        unsigned nb = (unsigned)blocks(T);
        int R = rows(), C = (int)size;
        switch (kind) {
        case K_SMT: sm_thread<<<nb, T>>>(dx, dy, R, C); break;
        case K_SMW: sm_warp<<<nb, T>>>(dx, dy, R, C); break;
        case K_SMB: sm_block<<<nb, T>>>(dx, dy, R, C); break;
        case K_SMB4: sm_block4<<<nb, T>>>(dx, dy, R, C); break;
        case K_LNW: ln_warp<<<nb, T>>>(dx, dy, R, C); break;
        case K_LNB: ln_block<<<nb, T>>>(dx, dy, R, C); break;
        case K_LNWF: ln_welford<<<nb, T>>>(dx, dy, R, C); break;
        case K_RDA: rd_atomic<<<nb, T>>>(dx, dy, n); break;
        case K_RDS: rd_shared<<<nb, T>>>(dx, dy, n); break;
        case K_RDW: rd_shfl<<<nb, T>>>(dx, dy, n); break;
        case K_RDG: rd_grid<<<nb, T>>>(dx, dy, n); break;
        case K_GES: ge_scalar<<<nb, T>>>(dx, dy, n); break;
        default: ge_vec4<<<nb, T>>>((const float4 *)dx, (float4 *)dy, n / 4); break;
        }
    }
    bool check(int)
    {
        if (kind >= K_RDA && kind <= K_RDG) {
            double s = 0;
            for (long i = 0; i < n; i++) s += a[i];
            float g = pn_host_copy(dy, 1)[0];
            if (fabs(g - s) > 1e-3 * n) { err = std::to_string(g) + " vs " + std::to_string(s); return false; }
            return true;
        }
        std::vector<float> g = pn_host_copy(dy, n);
        if (kind >= K_GES) {
            for (long i = 0; i < n; i++)
                if (fabsf(g[i] - ml_gelu_h(a[i])) > 1e-4f) { err = "element " + std::to_string(i); return false; }
            return true;
        }
        int R = rows(), C = (int)size;
        for (int r = 0; r < R; r += 97) { /* every 97th row */
            const float *x = &a[(long)r * C];
            double m = -1e30, s = 0, q = 0;
            for (int c = 0; c < C; c++) m = fmax(m, x[c]), s += x[c];
            double mean = s / C;
            for (int c = 0; c < C; c++) q += (x[c] - mean) * (x[c] - mean);
            double rstd = 1 / sqrt(q / C + 1e-5), se = 0;
            for (int c = 0; c < C; c++) se += exp(x[c] - m);
            for (int c = 0; c < C; c++) {
                double want = kind <= K_SMB4 ? exp(x[c] - m) / se : (x[c] - mean) * rstd;
                double got = g[(long)r * C + c];
                if (fabs(got - want) > 2e-3 * fmax(1.0, fabs(want))) {
                    err = "row " + std::to_string(r) + " col " + std::to_string(c);
                    return false;
                }
            }
        }
        return true;
    }
};

struct ml_desc {
    const char *name;
    int kind;
    std::vector<long> sizes;
};

int main(int argc, char **argv)
{
    pn_opts o;
    o.launches = 40;
    o.warmup = 5;
    std::vector<std::string> names;
    pn_parse_opts(argc, argv, &o, [&](const char *name, const char *val) {
        if (strcmp(name, "--kernels")) return false;
        std::string s = val;
        for (size_t p = 0; p <= s.size();) {
            size_t e = s.find(',', p);
            if (e == std::string::npos) e = s.size();
            if (e > p) names.push_back(s.substr(p, e - p));
            p = e + 1;
        }
        return true;
    });
    if (o.info) {
        pn_print_devinfo();
        return 0;
    }
    const std::vector<int> T4 = {64, 128, 256, 512, 1024};
    const std::vector<long> RC = {256, 4096}, N = {1L << 24};
    std::vector<ml_desc> all = {
        {"sm_thread", K_SMT, RC}, {"sm_warp", K_SMW, RC}, {"sm_block", K_SMB, RC},
        {"sm_block4", K_SMB4, RC}, {"ln_warp", K_LNW, RC}, {"ln_block", K_LNB, RC},
        {"ln_welford", K_LNWF, RC}, {"rd_atomic", K_RDA, N}, {"rd_shared", K_RDS, N},
        {"rd_shfl", K_RDW, N}, {"rd_grid", K_RDG, N}, {"ge_scalar", K_GES, N}, {"ge_vec4", K_GEV, N},
    };
    for (auto &n : names) {
        bool known = false;
        for (auto &k : all) known = known || n == k.name;
        if (!known) { fprintf(stderr, "unknown kernel '%s'\n", n.c_str()); return 2; }
    }
    FILE *log = pn_open_launch_log(o);
    PN_CK(cudaMalloc(&g_sink, sizeof(unsigned)));
    int failures = 0;
    for (auto &k : all) {
        bool want = names.empty();
        for (auto &n : names) want = want || n == k.name;
        if (!want) continue;
        for (long n : k.sizes) {
            std::unique_ptr<ml_case> c(new ml_case(k.kind, n, o.seed + (uint64_t)n));
            cudaFuncAttributes fa;
            for (int T : o.threads.empty() ? T4 : o.threads) {
                if (!c->valid(T)) continue;
                PN_CK(cudaFuncGetAttributes(&fa, c->func()));
                long nb = c->blocks(T);
                c->prep();
                if (o.launches <= 0) {
                    c->warm();
                    if (log) { fprintf(log, "%s,%ld,%d,%ld\n", k.name, n, T, nb); fflush(log); }
                }
                c->launch(T);
                PN_CK_LAUNCH();
                PN_CK(cudaDeviceSynchronize());
                if (!c->check(T)) {
                    fprintf(stderr, "%s size=%ld T=%d: WRONG: %s\n", k.name, n, T, c->err.c_str());
                    failures++;
                    continue;
                }
                if (o.launches <= 0) continue;
                std::vector<double> us = pn_time_launches(o.warmup, o.launches, [] {}, [&] { c->launch(T); });
                printf("%s,%ld,%d,%ld,%d,%zu,%.3f,%.3f,%.3f,%zu\n", k.name, n, T, nb, fa.numRegs,
                       fa.sharedSizeBytes, pn_pct(us, 0.5), pn_pct(us, 0.1), pn_pct(us, 0.9), us.size());
                fflush(stdout);
            }
        }
    }
    if (log) fclose(log);
    PN_CK(cudaFree(g_sink));
    return failures ? 1 : 0;
}
