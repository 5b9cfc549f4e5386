/* deps.cu - kernels whose time depends on what a warp keeps in flight: independent loads in
 * one iteration, compiler-unrolled loads, arithmetic that overlaps memory, dependent chains,
 * a serial tail on one thread, a 16-thread block stepping between barriers, and one-warp
 * ILP/MLP probes. They check pnsim's dependency rule (doc/dependencies.md): each is timed
 * and profiled with Nsight Compute's SourceCounters section, so that `pnsim import --source`
 * turns it into a config whose warps run the kernel's SASS.
 *
 *   kernel     one thread / one warp                                     grid
 *   dp_stride2 grid-stride loop, out[i] = 1.5 a[i] + b[i]: two            132 blocks (one per SM)
 *              independent loads per iteration
 *   dp_unroll  sum of 16 loads in[j n/16 + g], unrolled: 16 in flight     n/(16 T)
 *   dp_dist    min squared distance of its point to m = 2048 points       n/T
 *              (broadcast float4 loads, 8 flops each)
 *   dp_mixed   one load, 32 dependent FMAs, one store                    n/T
 *   dp_chase   64 dependent loads p = next[p] (a permutation in L2)       n/T
 *   dp_serial  out[i] = 2 in[i]; then thread 0 alone sums 100000 values   n/T
 *   dp_tile16  one block of 16 threads: 2048 steps of load to shared,     1 block
 *              barrier, a product, barrier
 *   dp_mlp     one warp, K = size independent pointer chains, 512 steps    1 block of 32
 *   dp_ilp     one warp, K = size independent FMA chains, 8192 steps       1 block of 32
 *
 * Usage: deps [--kernels dp_x,...] [--threads 64,...] [--launches 40] [--warmup 5]
 *             [--launch-log FILE] [--info]
 * --launches 0 is profiling mode (as in ../kernels/kernels.cu): per configuration one warm-up
 * pass over its buffers, then ONE checked launch, logged as "kernel,size,threads,blocks".
 * Otherwise prints "kernel,size,threads,blocks,registers,shared_bytes,median_us,p10_us,
 * p90_us,launches" per configuration. Exit 1 if a check failed, 2 on a CUDA error.
 * The untimed warm-up kernel is pn_warm_l2 (../common/pn_bench.cuh); the reports in
 * examples/data/h100/deps/ were taken when it was this file's own copy, named dp_warm.
 */
#include "../common/pn_bench.cuh"

#include <memory>

#define DP_SMS 132
#define DP_DIST_M 2048
#define DP_SERIAL_M 100000
#define DP_CHASE_STEPS 64
#define DP_TILE_STEPS 2048
#define DP_MLP_STEPS 512
#define DP_ILP_STEPS 8192

__global__ void dp_stride2(const float *__restrict__ a, const float *__restrict__ b,
                           float *__restrict__ out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = 1.5f * a[i] + b[i];
}

__global__ void dp_unroll(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x, w = n / 16;
    if (g >= w) return;
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < 16; j++) s += in[j * w + g];
    out[g] = s;
}

__global__ void dp_dist(const float4 *__restrict__ p, float *__restrict__ out, int n)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n) return;
    float4 q = p[g];
    float best = 3.0e38f;
#pragma unroll 4
    for (int j = 0; j < DP_DIST_M; j++) {
        float4 r = p[j];
        float dx = q.x - r.x, dy = q.y - r.y, dz = q.z - r.z;
        float d = dx * dx + dy * dy + dz * dz;
        best = (j != g && d < best) ? d : best;
    }
    out[g] = best;
}

__global__ void dp_mixed(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n) return;
    float x = in[g], y = 1.0f;
#pragma unroll
    for (int k = 0; k < 32; k++) y = fmaf(y, x, 0.25f * (float)(k & 7));
    out[g] = y;
}

__global__ void dp_chase(const unsigned *__restrict__ next, unsigned *__restrict__ out, int n)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n) return;
    unsigned p = (unsigned)g;
    for (int s = 0; s < DP_CHASE_STEPS; s++) p = next[p];
    out[g] = p;
}

__global__ void dp_serial(const float *__restrict__ in, float *__restrict__ out,
                          float *__restrict__ res, int n)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g < n) out[g] = 2.0f * in[g];
    if (g == 0) {
        float acc = 0.f;
        for (int k = 0; k < DP_SERIAL_M; k++) acc += in[k];
        *res = acc;
    }
}

__global__ void dp_tile16(const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float tile[16];
    int t = threadIdx.x;
    float acc = 0.f;
    for (int s = 0; s < DP_TILE_STEPS; s++) {
        tile[t] = in[s * 16 + t];
        __syncthreads();
        acc += tile[(t + 1) & 15] * tile[t];
        __syncthreads();
    }
    out[t] = acc;
}

template <int K> __global__ void dp_mlp(const unsigned *__restrict__ next, unsigned *__restrict__ out)
{
    unsigned p[K];
#pragma unroll
    for (int j = 0; j < K; j++) p[j] = (threadIdx.x * K + j) * 4099u;
    for (int s = 0; s < DP_MLP_STEPS; s++) {
#pragma unroll
        for (int j = 0; j < K; j++) p[j] = next[p[j]];
    }
    unsigned x = 0;
#pragma unroll
    for (int j = 0; j < K; j++) x ^= p[j];
    out[threadIdx.x] = x;
}

template <int K> __global__ void dp_ilp(float y, float *__restrict__ out)
{
    float a[K];
#pragma unroll
    for (int j = 0; j < K; j++) a[j] = (float)(threadIdx.x + j);
    for (int s = 0; s < DP_ILP_STEPS; s++) {
#pragma unroll
        for (int j = 0; j < K; j++) a[j] = fmaf(a[j], y, 1.0f);
    }
    float x = 0.f;
#pragma unroll
    for (int j = 0; j < K; j++) x += a[j];
    out[threadIdx.x] = x;
}

/* ---- host side ----------------------------------------------------------------------------- */

static unsigned *g_sink = nullptr;

static void dp_warm_buf(const void *p, size_t bytes) { pn_warm_buf(p, bytes, g_sink); }

/* |g - r| <= tol (1 + |r|) for every element; err names the first that is not. */
static bool dp_close(const std::vector<float> &g, const std::vector<float> &r, float tol, std::string *err)
{
    for (size_t i = 0; i < r.size(); i++)
        if (!(fabsf(g[i] - r[i]) <= tol * (1.0f + fabsf(r[i])))) {
            *err = "element " + std::to_string(i) + ": " + std::to_string(g[i]) + ", want " +
                   std::to_string(r[i]);
            return false;
        }
    return true;
}

/* A random cyclic permutation of n (Sattolo), as a next[] array. */
static std::vector<unsigned> dp_cycle(size_t n, uint64_t *seed)
{
    std::vector<unsigned> v(n), next(n);
    for (size_t i = 0; i < n; i++) v[i] = (unsigned)i;
    for (size_t i = n - 1; i > 0; i--) std::swap(v[i], v[pn_rand64(seed) % i]);
    for (size_t i = 0; i < n; i++) next[v[i]] = v[(i + 1) % n];
    return next;
}

/* One kernel at one size: inputs, outputs, the CPU reference. */
struct dp_case {
    long size = 0;
    std::string err;
    virtual ~dp_case() {}
    virtual bool valid(int T) const { return T >= 32 && T <= 1024 && T % 32 == 0; }
    virtual long blocks(int T) const = 0;
    virtual const void *func() const = 0;
    virtual void warm() = 0;
    virtual void launch(int T) = 0;
    virtual bool check(int T) = 0;
};

struct dp_stream_case : dp_case { /* stride2, unroll, mixed, serial: float in/out */
    std::vector<float> a, b;
    float *da = nullptr, *db = nullptr, *dout = nullptr, *dres = nullptr;
    int kind; /* 0 stride2, 1 unroll, 2 mixed, 3 serial */
    dp_stream_case(int kind_, long n, uint64_t seed) : kind(kind_)
    {
        size = n;
        a.resize(n);
        b.resize(n);
        for (long i = 0; i < n; i++) a[i] = pn_randf(&seed), b[i] = pn_randf(&seed);
        da = pn_dev_copy(a);
        db = pn_dev_copy(b);
        PN_CK(cudaMalloc(&dout, n * sizeof(float)));
        PN_CK(cudaMalloc(&dres, sizeof(float)));
    }
    ~dp_stream_case() { cudaFree(da); cudaFree(db); cudaFree(dout); cudaFree(dres); }
    long blocks(int T) const override
    {
        switch (kind) {
        case 0: return DP_SMS;
        case 1: return (size / 16 + T - 1) / T;
        default: return (size + T - 1) / T;
        }
    }
    const void *func() const override
    {
        const void *f[] = {(const void *)dp_stride2, (const void *)dp_unroll, (const void *)dp_mixed,
                           (const void *)dp_serial};
        return f[kind];
    }
    void warm() override { dp_warm_buf(da, size * 4); dp_warm_buf(db, size * 4); dp_warm_buf(dout, size * 4); }
    void launch(int T) override
    {
        unsigned nb = (unsigned)blocks(T);
        switch (kind) {
        case 0: dp_stride2<<<nb, T>>>(da, db, dout, (int)size); break;
        case 1: dp_unroll<<<nb, T>>>(da, dout, (int)size); break;
        case 2: dp_mixed<<<nb, T>>>(da, dout, (int)size); break;
        default: dp_serial<<<nb, T>>>(da, dout, dres, (int)size); break;
        }
    }
    bool check(int) override
    {
        long m = kind == 1 ? size / 16 : size;
        std::vector<float> ref(m);
        for (long i = 0; i < m; i++) {
            if (kind == 0) ref[i] = 1.5f * a[i] + b[i];
            else if (kind == 1) {
                float s = 0.f;
                for (int j = 0; j < 16; j++) s += a[j * m + i];
                ref[i] = s;
            } else if (kind == 2) {
                float y = 1.0f;
                for (int k = 0; k < 32; k++) y = fmaf(y, a[i], 0.25f * (float)(k & 7));
                ref[i] = y;
            } else ref[i] = 2.0f * a[i];
        }
        if (!dp_close(pn_host_copy(dout, m), ref, 1e-5f, &err)) return false;
        if (kind == 3) {
            double s = 0;
            for (int k = 0; k < DP_SERIAL_M; k++) s += a[k];
            std::vector<float> r1 = {(float)s};
            if (!dp_close(pn_host_copy(dres, 1), r1, 1e-3f, &err)) return false;
        }
        return true;
    }
};

struct dp_dist_case : dp_case {
    std::vector<float4> p;
    float4 *dp = nullptr;
    float *dout = nullptr;
    dp_dist_case(long n, uint64_t seed)
    {
        size = n;
        p.resize(n);
        for (long i = 0; i < n; i++) p[i] = make_float4(pn_randf(&seed), pn_randf(&seed), pn_randf(&seed), 0.f);
        dp = pn_dev_copy(p);
        PN_CK(cudaMalloc(&dout, n * sizeof(float)));
    }
    ~dp_dist_case() { cudaFree(dp); cudaFree(dout); }
    long blocks(int T) const override { return (size + T - 1) / T; }
    const void *func() const override { return (const void *)dp_dist; }
    void warm() override { dp_warm_buf(dp, size * 16); }
    void launch(int T) override { dp_dist<<<(unsigned)blocks(T), T>>>(dp, dout, (int)size); }
    bool check(int) override
    {
        std::vector<float> ref(size);
        for (long g = 0; g < size; g++) {
            float best = 3.0e38f;
            for (int j = 0; j < DP_DIST_M; j++) {
                float dx = p[g].x - p[j].x, dy = p[g].y - p[j].y, dz = p[g].z - p[j].z;
                float d = dx * dx + dy * dy + dz * dz;
                if (j != g && d < best) best = d;
            }
            ref[g] = best;
        }
        return dp_close(pn_host_copy(dout, size), ref, 1e-4f, &err);
    }
};

struct dp_chase_case : dp_case {
    std::vector<unsigned> next;
    unsigned *dn = nullptr, *dout = nullptr;
    dp_chase_case(long n, uint64_t seed)
    {
        size = n;
        next = dp_cycle((size_t)n, &seed);
        dn = pn_dev_copy(next);
        PN_CK(cudaMalloc(&dout, n * sizeof(unsigned)));
    }
    ~dp_chase_case() { cudaFree(dn); cudaFree(dout); }
    long blocks(int T) const override { return (size / 16 + T - 1) / T; }
    const void *func() const override { return (const void *)dp_chase; }
    void warm() override { dp_warm_buf(dn, size * 4); }
    void launch(int T) override { dp_chase<<<(unsigned)blocks(T), T>>>(dn, dout, (int)(size / 16)); }
    bool check(int) override
    {
        std::vector<unsigned> g = pn_host_copy(dout, size / 16);
        for (long i = 0; i < size / 16; i++) {
            unsigned p = (unsigned)i;
            for (int s = 0; s < DP_CHASE_STEPS; s++) p = next[p];
            if (g[i] != p) { err = "thread " + std::to_string(i); return false; }
        }
        return true;
    }
};

struct dp_tile_case : dp_case {
    std::vector<float> in;
    float *din = nullptr, *dout = nullptr;
    dp_tile_case(long, uint64_t seed)
    {
        size = DP_TILE_STEPS * 16;
        in.resize(size);
        for (long i = 0; i < size; i++) in[i] = pn_randf(&seed);
        din = pn_dev_copy(in);
        PN_CK(cudaMalloc(&dout, 16 * sizeof(float)));
    }
    ~dp_tile_case() { cudaFree(din); cudaFree(dout); }
    bool valid(int T) const override { return T == 16; }
    long blocks(int) const override { return 1; }
    const void *func() const override { return (const void *)dp_tile16; }
    void warm() override { dp_warm_buf(din, size * 4); }
    void launch(int T) override { dp_tile16<<<1, T>>>(din, dout); }
    bool check(int) override
    {
        std::vector<float> ref(16, 0.f);
        for (int t = 0; t < 16; t++)
            for (int s = 0; s < DP_TILE_STEPS; s++) ref[t] += in[s * 16 + ((t + 1) & 15)] * in[s * 16 + t];
        return dp_close(pn_host_copy(dout, 16), ref, 1e-3f, &err);
    }
};

struct dp_probe_case : dp_case { /* mlp (chains of next[]) or ilp (FMA chains); size = K */
    bool mlp;
    std::vector<unsigned> next;
    unsigned *dn = nullptr, *dout = nullptr;
    float *dfo = nullptr;
    dp_probe_case(bool mlp_, long k, uint64_t seed) : mlp(mlp_)
    {
        size = k;
        if (mlp) {
            next = dp_cycle((size_t)1 << 22, &seed); /* 16 MiB: stays in L2 */
            dn = pn_dev_copy(next);
        }
        PN_CK(cudaMalloc(&dout, 32 * sizeof(unsigned)));
        PN_CK(cudaMalloc(&dfo, 32 * sizeof(float)));
    }
    ~dp_probe_case() { cudaFree(dn); cudaFree(dout); cudaFree(dfo); }
    bool valid(int T) const override { return T == 32; }
    long blocks(int) const override { return 1; }
    const void *func() const override
    {
        if (mlp) {
            const void *f[] = {(const void *)dp_mlp<1>, (const void *)dp_mlp<2>, (const void *)dp_mlp<4>, (const void *)dp_mlp<8>};
            return f[size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3];
        }
        const void *f[] = {(const void *)dp_ilp<1>, (const void *)dp_ilp<2>, (const void *)dp_ilp<4>, (const void *)dp_ilp<8>};
        return f[size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3];
    }
    void warm() override { if (mlp) dp_warm_buf(dn, next.size() * 4); }
    void launch(int) override
    {
        if (mlp) {
            switch (size) {
            case 1: dp_mlp<1><<<1, 32>>>(dn, dout); break;
            case 2: dp_mlp<2><<<1, 32>>>(dn, dout); break;
            case 4: dp_mlp<4><<<1, 32>>>(dn, dout); break;
            default: dp_mlp<8><<<1, 32>>>(dn, dout); break;
            }
        } else {
            switch (size) {
            case 1: dp_ilp<1><<<1, 32>>>(0.5f, dfo); break;
            case 2: dp_ilp<2><<<1, 32>>>(0.5f, dfo); break;
            case 4: dp_ilp<4><<<1, 32>>>(0.5f, dfo); break;
            default: dp_ilp<8><<<1, 32>>>(0.5f, dfo); break;
            }
        }
    }
    bool check(int) override
    {
        if (mlp) {
            std::vector<unsigned> g = pn_host_copy(dout, 32);
            for (int t = 0; t < 32; t++) {
                unsigned x = 0;
                for (int j = 0; j < size; j++) {
                    unsigned p = (unsigned)((t * size + j) * 4099u);
                    for (int s = 0; s < DP_MLP_STEPS; s++) p = next[p];
                    x ^= p;
                }
                if (g[t] != x) { err = "lane " + std::to_string(t); return false; }
            }
            return true;
        }
        std::vector<float> ref(32);
        for (int t = 0; t < 32; t++) {
            float x = 0.f;
            for (int j = 0; j < size; j++) {
                float a = (float)(t + j);
                for (int s = 0; s < DP_ILP_STEPS; s++) a = fmaf(a, 0.5f, 1.0f);
                x += a;
            }
            ref[t] = x;
        }
        return dp_close(pn_host_copy(dfo, 32), ref, 1e-5f, &err);
    }
};

struct dp_desc {
    const char *name;
    std::vector<int> threads;
    std::vector<long> sizes;
    dp_case *(*make)(long n, uint64_t seed);
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
    const std::vector<int> T5 = {64, 128, 256, 512, 1024};
    std::vector<dp_desc> all = {
        {"dp_stride2", T5, {1L << 22}, [](long n, uint64_t s) -> dp_case * { return new dp_stream_case(0, n, s); }},
        {"dp_unroll", T5, {1L << 24}, [](long n, uint64_t s) -> dp_case * { return new dp_stream_case(1, n, s); }},
        {"dp_dist", T5, {1L << 15}, [](long n, uint64_t s) -> dp_case * { return new dp_dist_case(n, s); }},
        {"dp_mixed", T5, {1L << 24}, [](long n, uint64_t s) -> dp_case * { return new dp_stream_case(2, n, s); }},
        {"dp_chase", T5, {1L << 22}, [](long n, uint64_t s) -> dp_case * { return new dp_chase_case(n, s); }},
        {"dp_serial", T5, {1L << 22}, [](long n, uint64_t s) -> dp_case * { return new dp_stream_case(3, n, s); }},
        {"dp_tile16", {16}, {DP_TILE_STEPS * 16}, [](long n, uint64_t s) -> dp_case * { return new dp_tile_case(n, s); }},
        {"dp_mlp", {32}, {1, 2, 4, 8}, [](long n, uint64_t s) -> dp_case * { return new dp_probe_case(true, n, s); }},
        {"dp_ilp", {32}, {1, 2, 4, 8}, [](long n, uint64_t s) -> dp_case * { return new dp_probe_case(false, n, s); }},
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
            std::unique_ptr<dp_case> c(k.make(n, o.seed + (uint64_t)n));
            cudaFuncAttributes fa;
            for (int T : o.threads.empty() ? k.threads : o.threads) {
                if (!c->valid(T)) continue;
                PN_CK(cudaFuncGetAttributes(&fa, c->func()));
                long nb = c->blocks(T);
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
