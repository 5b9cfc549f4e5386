/* memory.cu - kernels bound by the memory system: DRAM and L2 streaming (reads alone, copies,
 * writes alone, saxpy), transposes, global atomics on few and many addresses, shared-memory
 * atomics, MUFU (SFU) throughput by operation class and an SFU-heavy streaming kernel. They
 * check pnsim's memory model (writes that take DRAM bandwidth, the L2, atomics, the SFU) and
 * its bounds: each is timed and profiled with the documented workflow (../deps/measure.sh).
 *
 *   kernel     one thread                                               size
 *   mm_read    v = in[i]; a warp's sum (shuffles) to out[i / 32]         4-256 MB read
 *   mm_copy    out[i] = in[i]                                           16-256 MB each way
 *   mm_fill    out[i] = 1.5                                             16, 256 MB written
 *   mm_saxpy   y[i] = 2 x[i] + y[i]                                     16-256 MB per vector
 *   mm_trn     naive transpose of an N x N float matrix (reads rows,    16-256 MB
 *              writes columns: a warp's store touches 32 sectors)
 *   mm_trt     tiled transpose (32 x 32 tile in shared memory)           16-256 MB
 *   mm_red     atomicAdd(&bins[(i * 7919) % B], 1), result unused (RED)   n = 4M, B bins
 *   mm_atom    out[i] = atomicAdd(&bins[(i * 7919) % B], 1) (ATOMG)       n = 4M, B bins
 *   mm_hist    per-block histogram of B bins with shared atomics         n = 16M, B bins
 *              (ATOMS), then one RED per bin and block
 *   mm_sfu     8 independent chains of one MUFU class per thread,        size = class
 *              256 trips (class 0 ex2, 1 lg2, 2 rsqrt, 3 rcp, 4 sin,
 *              5 cos, 6 sqrt, 7 f2i+i2f, 8 f32->f64->f32); 4 blocks/SM
 *   mm_sfus    y[i] = ex2(x) * sin(x) + lg2(x + 1) * rsqrt(x + 1)        16, 64 MB
 *   mm_rowcp   a thread a row: out[r][c] = in[r][c] + 1 for c = 0..767,   size = element
 *              8192 rows (llm.c's B x T, C): each warp access touches 32  bytes (2: u16,
 *              lines 1.5-3 KB apart, the next c the next word of each    4: float)
 *   mm_rowst   the same rows, stores only: out[r][c] = r + c
 *   mm_rowld   the same rows, loads only: out[r] = the row's sum
 *
 * "size" is the kernel's size column: bytes of one array (MB) for streaming kernels and
 * transposes, B for atomics, the class for mm_sfu, an element's bytes for the rows. Usage and output as ../deps/deps.cu:
 *   memory [--kernels mm_x,...] [--threads 64,...] [--launches 40] [--warmup 5]
 *          [--launch-log FILE] [--info]
 */
#include "../common/pn_bench.cuh"

#include <memory>

#define MM_SMS 132
#define MM_SFU_TRIPS 256
#define MM_ATOM_N (1L << 22)
#define MM_HIST_N (1L << 24)
#define MM_ROWS 8192
#define MM_ROW_C 768

static unsigned *g_sink = nullptr;

__global__ void mm_read(const float *__restrict__ in, float *__restrict__ out, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0 && i < n) out[i >> 5] = v;
}

__global__ void mm_copy(const float *__restrict__ in, float *__restrict__ out, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

__global__ void mm_fill(float *__restrict__ out, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1.5f;
}

__global__ void mm_saxpy(const float *__restrict__ x, float *__restrict__ y, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + y[i];
}

__global__ void mm_trn(const float *__restrict__ in, float *__restrict__ out, int N)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)N * N) return;
    long r = i / N, c = i % N;
    out[c * N + r] = in[i];
}

__global__ void mm_trt(const float *__restrict__ in, float *__restrict__ out, int N)
{
    __shared__ float tile[32][33];
    int tiles = N / 32, bx = blockIdx.x % tiles, by = blockIdx.x / tiles;
    int tx = threadIdx.x & 31, ty = threadIdx.x >> 5, rows = blockDim.x >> 5;
    for (int y = ty; y < 32; y += rows) tile[y][tx] = in[(long)(by * 32 + y) * N + bx * 32 + tx];
    __syncthreads();
    for (int y = ty; y < 32; y += rows) out[(long)(bx * 32 + y) * N + by * 32 + tx] = tile[tx][y];
}

__global__ void mm_red(unsigned *__restrict__ bins, int B, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[(unsigned long)(i * 7919) % (unsigned)B], 1u);
}

__global__ void mm_atom(unsigned *__restrict__ bins, unsigned *__restrict__ out, int B, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = atomicAdd(&bins[(unsigned long)(i * 7919) % (unsigned)B], 1u);
}

__global__ void mm_hist(const unsigned *__restrict__ in, unsigned *__restrict__ bins, int B, long n)
{
    extern __shared__ unsigned h[];
    for (int b = threadIdx.x; b < B; b += blockDim.x) h[b] = 0;
    __syncthreads();
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        atomicAdd(&h[in[i] % (unsigned)B], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < B; b += blockDim.x)
        if (h[b]) atomicAdd(&bins[b], h[b]);
}

template <int C> __device__ __forceinline__ float mm_op(float x)
{
    float y;
    if (C == 0) asm volatile("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if (C == 1) asm volatile("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if (C == 2) asm volatile("rsqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if (C == 3) asm volatile("rcp.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if (C == 4) asm volatile("sin.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if (C == 5) asm volatile("cos.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if (C == 6) asm volatile("sqrt.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    else if (C == 7) {
        int k;
        asm volatile("cvt.rni.s32.f32 %0, %1;" : "=r"(k) : "f"(x));
        asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(y) : "r"(k));
    } else {
        double d;
        asm volatile("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(x));
        asm volatile("cvt.rn.f32.f64 %0, %1;" : "=f"(y) : "d"(d));
    }
    return y;
}

template <int C> __global__ void mm_sfu(float seed, float *__restrict__ out)
{
    float a[8];
#pragma unroll
    for (int j = 0; j < 8; j++) a[j] = seed + 0.01f * (float)(threadIdx.x + j);
#pragma unroll 1
    for (int t = 0; t < MM_SFU_TRIPS; t++)
#pragma unroll
        for (int j = 0; j < 8; j++) a[j] = mm_op<C>(a[j]);
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < 8; j++) s += a[j];
    out[(long)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void mm_sfus(const float *__restrict__ x, float *__restrict__ y, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    y[i] = exp2f(v) * __sinf(v) + __log2f(v + 1.0f) * rsqrtf(v + 1.0f);
}

/* a thread a row of C elements (the naive kernels of llm.c's dev/cuda: encoder, layernorm,
 * residual kernel 1): K 0 copy, 1 stores only, 2 loads only. C comes at run time so that
 * the compiler cannot prove two elements share a wider access. */
template <class T, int K>
__device__ __forceinline__ void mm_row(const T *__restrict__ in, T *__restrict__ out, float *__restrict__ sums,
                                       int rows, int C)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const T *a = in + (long)r * C;
    T *b = out + (long)r * C;
    float s = 0.f;
    for (int c = 0; c < C; c++) {
        if (K == 0) b[c] = (T)(a[c] + (T)1);
        else if (K == 1) b[c] = (T)(r + c);
        else s += (float)a[c];
    }
    if (K == 2) sums[r] = s;
}

template <class T>
__global__ void mm_rowcp(const T *__restrict__ in, T *__restrict__ out, float *sums, int rows, int C)
{
    mm_row<T, 0>(in, out, sums, rows, C);
}

template <class T>
__global__ void mm_rowst(const T *__restrict__ in, T *__restrict__ out, float *sums, int rows, int C)
{
    mm_row<T, 1>(in, out, sums, rows, C);
}

template <class T>
__global__ void mm_rowld(const T *__restrict__ in, T *__restrict__ out, float *sums, int rows, int C)
{
    mm_row<T, 2>(in, out, sums, rows, C);
}

static bool mm_close(const std::vector<float> &g, const std::vector<float> &r, float tol, std::string *err)
{
    for (size_t i = 0; i < r.size(); i++) {
        float d = fabsf(g[i] - r[i]), s = fmaxf(1.f, fabsf(r[i]));
        if (!(g[i] == r[i] || d <= tol * s)) {
            *err = "element " + std::to_string(i) + ": " + std::to_string(g[i]) + " vs " + std::to_string(r[i]);
            return false;
        }
    }
    return true;
}

struct mm_case {
    long size = 0;
    std::string err;
    virtual ~mm_case() {}
    virtual bool valid(int T) const { return T >= 32 && T <= 1024 && T % 32 == 0; }
    virtual long blocks(int T) const = 0;
    virtual const void *func() const = 0;
    virtual void warm() = 0;
    virtual void prep() {}
    virtual void launch(int T) = 0;
    virtual bool check(int T) = 0;
};

/* read, copy, fill, saxpy, sfus over n = size MB / 4 floats */
struct mm_stream_case : mm_case {
    int kind; /* 0 read, 1 copy, 2 fill, 3 saxpy, 4 sfus */
    long n;
    std::vector<float> a, b;
    float *da = nullptr, *db = nullptr;
    mm_stream_case(int kind_, long mb, uint64_t seed) : kind(kind_)
    {
        size = mb;
        n = mb << 18;
        a.resize(n);
        b.resize(n);
        for (long i = 0; i < n; i++) a[i] = pn_randf(&seed), b[i] = pn_randf(&seed);
        da = pn_dev_copy(a);
        db = pn_dev_copy(b);
    }
    ~mm_stream_case() { cudaFree(da); cudaFree(db); }
    long blocks(int T) const override { return (n + T - 1) / T; }
    const void *func() const override
    {
        const void *f[] = {(const void *)mm_read, (const void *)mm_copy, (const void *)mm_fill,
                           (const void *)mm_saxpy, (const void *)mm_sfus};
        return f[kind];
    }
    void warm() override { pn_warm_buf(da, n * 4, g_sink); pn_warm_buf(db, n * 4, g_sink); }
    /* saxpy updates y in place: restore it before a checked launch */
    void prep() override { if (kind == 3) PN_CK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice)); }
    void launch(int T) override
    {
        unsigned nb = (unsigned)blocks(T);
        switch (kind) {
        case 0: mm_read<<<nb, T>>>(da, db, n); break;
        case 1: mm_copy<<<nb, T>>>(da, db, n); break;
        case 2: mm_fill<<<nb, T>>>(db, n); break;
        case 3: mm_saxpy<<<nb, T>>>(da, db, n); break;
        default: mm_sfus<<<nb, T>>>(da, db, n); break;
        }
    }
    bool check(int) override
    {
        long m = kind == 0 ? n / 32 : n;
        std::vector<float> ref(m);
        for (long i = 0; i < m; i++) {
            if (kind == 0) {
                float s = 0.f;
                for (int k = 0; k < 32; k++) s += a[32 * i + k];
                ref[i] = s;
            } else if (kind == 1) ref[i] = a[i];
            else if (kind == 2) ref[i] = 1.5f;
            else if (kind == 3) ref[i] = 2.0f * a[i] + b[i];
            else ref[i] = exp2f(a[i]) * sinf(a[i]) + log2f(a[i] + 1.0f) / sqrtf(a[i] + 1.0f);
        }
        return mm_close(pn_host_copy(db, m), ref, kind == 4 ? 1e-4f : 1e-5f, &err);
    }
};

struct mm_trans_case : mm_case {
    bool tiled;
    int N;
    std::vector<float> a;
    float *da = nullptr, *db = nullptr;
    mm_trans_case(bool tiled_, long mb, uint64_t seed) : tiled(tiled_)
    {
        size = mb;
        N = (int)llround(sqrt((double)(mb << 18)));
        a.resize((size_t)N * N);
        for (auto &v : a) v = pn_randf(&seed);
        da = pn_dev_copy(a);
        PN_CK(cudaMalloc(&db, a.size() * 4));
    }
    ~mm_trans_case() { cudaFree(da); cudaFree(db); }
    long blocks(int T) const override { return tiled ? (long)(N / 32) * (N / 32) : ((long)N * N + T - 1) / T; }
    const void *func() const override { return tiled ? (const void *)mm_trt : (const void *)mm_trn; }
    void warm() override { pn_warm_buf(da, a.size() * 4, g_sink); pn_warm_buf(db, a.size() * 4, g_sink); }
    void launch(int T) override
    {
        if (tiled) mm_trt<<<(unsigned)blocks(T), T>>>(da, db, N);
        else mm_trn<<<(unsigned)blocks(T), T>>>(da, db, N);
    }
    bool check(int) override
    {
        std::vector<float> g = pn_host_copy(db, a.size());
        for (long r = 0; r < N; r++)
            for (long c = 0; c < N; c++)
                if (g[c * N + r] != a[r * N + c]) { err = "element " + std::to_string(r * N + c); return false; }
        return true;
    }
};

/* red (kind 0), atom (1) over MM_ATOM_N; hist (2) over MM_HIST_N; size = bins */
struct mm_atomic_case : mm_case {
    int kind;
    long n;
    std::vector<unsigned> in;
    unsigned *dbins = nullptr, *dout = nullptr, *din = nullptr;
    mm_atomic_case(int kind_, long bins, uint64_t seed) : kind(kind_)
    {
        size = bins;
        n = kind == 2 ? MM_HIST_N : MM_ATOM_N;
        PN_CK(cudaMalloc(&dbins, bins * 4));
        if (kind == 1) PN_CK(cudaMalloc(&dout, n * 4));
        if (kind == 2) {
            in.resize(n);
            for (auto &v : in) v = (unsigned)pn_rand64(&seed);
            din = pn_dev_copy(in);
        }
    }
    ~mm_atomic_case() { cudaFree(dbins); cudaFree(dout); cudaFree(din); }
    long blocks(int T) const override { return kind == 2 ? 4 * MM_SMS : (n + T - 1) / T; }
    const void *func() const override
    {
        const void *f[] = {(const void *)mm_red, (const void *)mm_atom, (const void *)mm_hist};
        return f[kind];
    }
    void warm() override { if (din) pn_warm_buf(din, n * 4, g_sink); }
    void prep() override { PN_CK(cudaMemset(dbins, 0, size * 4)); }
    void launch(int T) override
    {
        unsigned nb = (unsigned)blocks(T);
        if (kind == 0) mm_red<<<nb, T>>>(dbins, (int)size, n);
        else if (kind == 1) mm_atom<<<nb, T>>>(dbins, dout, (int)size, n);
        else mm_hist<<<nb, T, size * 4>>>(din, dbins, (int)size, n);
    }
    bool check(int) override
    {
        std::vector<unsigned> ref(size, 0), g = pn_host_copy(dbins, size);
        for (long i = 0; i < n; i++)
            ref[kind == 2 ? in[i] % (unsigned)size : (unsigned long)(i * 7919) % (unsigned)size]++;
        for (long b = 0; b < size; b++)
            if (g[b] != ref[b]) { err = "bin " + std::to_string(b); return false; }
        return true;
    }
};

struct mm_sfu_case : mm_case {
    float *dout = nullptr;
    std::vector<float> first;
    mm_sfu_case(long cls) { size = cls; }
    ~mm_sfu_case() { cudaFree(dout); }
    long blocks(int) const override { return 4 * MM_SMS; }
    const void *func() const override
    {
        const void *f[] = {(const void *)mm_sfu<0>, (const void *)mm_sfu<1>, (const void *)mm_sfu<2>,
                           (const void *)mm_sfu<3>, (const void *)mm_sfu<4>, (const void *)mm_sfu<5>,
                           (const void *)mm_sfu<6>, (const void *)mm_sfu<7>, (const void *)mm_sfu<8>};
        return f[size];
    }
    void warm() override {}
    void launch(int T) override
    {
        if (!dout) PN_CK(cudaMalloc(&dout, (size_t)blocks(T) * 1024 * 4));
        unsigned nb = (unsigned)blocks(T);
        switch (size) {
        case 0: mm_sfu<0><<<nb, T>>>(0.5f, dout); break;
        case 1: mm_sfu<1><<<nb, T>>>(0.5f, dout); break;
        case 2: mm_sfu<2><<<nb, T>>>(0.5f, dout); break;
        case 3: mm_sfu<3><<<nb, T>>>(0.5f, dout); break;
        case 4: mm_sfu<4><<<nb, T>>>(0.5f, dout); break;
        case 5: mm_sfu<5><<<nb, T>>>(0.5f, dout); break;
        case 6: mm_sfu<6><<<nb, T>>>(0.5f, dout); break;
        case 7: mm_sfu<7><<<nb, T>>>(0.5f, dout); break;
        default: mm_sfu<8><<<nb, T>>>(0.5f, dout); break;
        }
    }
    /* approximate operations: the check is that every launch gives the first one's bits */
    bool check(int T) override
    {
        std::vector<float> g = pn_host_copy(dout, (size_t)blocks(T) * T);
        if (first.size() != g.size()) { first = g; return true; }
        if (memcmp(first.data(), g.data(), g.size() * 4)) { err = "not repeatable"; return false; }
        return true;
    }
};

/* the rows: kind 0 copy, 1 stores, 2 loads; size = an element's bytes (2 or 4) */
struct mm_rows_case : mm_case {
    int kind;
    std::vector<unsigned char> a;
    unsigned char *da = nullptr, *db = nullptr;
    float *ds = nullptr;
    mm_rows_case(int kind_, long bytes, uint64_t seed) : kind(kind_)
    {
        size = bytes;
        a.resize((size_t)MM_ROWS * MM_ROW_C * bytes);
        for (size_t i = 0; i < a.size(); i++) a[i] = (unsigned char)(pn_rand64(&seed) & 0x3f);
        da = pn_dev_copy(a);
        PN_CK(cudaMalloc(&db, a.size()));
        PN_CK(cudaMalloc(&ds, MM_ROWS * sizeof(float)));
    }
    ~mm_rows_case() { cudaFree(da); cudaFree(db); cudaFree(ds); }
    bool valid(int T) const override { return mm_case::valid(T) && (size == 2 || size == 4); }
    long blocks(int T) const override { return (MM_ROWS + T - 1) / T; }
    /* kind k's kernel for elements of type T */
    template <class T> const void *fn() const
    {
        const void *f[3] = {(const void *)mm_rowcp<T>, (const void *)mm_rowst<T>, (const void *)mm_rowld<T>};
        return f[kind];
    }
    template <class T> void go(int T_)
    {
        unsigned nb = (unsigned)blocks(T_);
        const T *x = (const T *)da;
        T *y = (T *)db;
        if (kind == 0) mm_rowcp<T><<<nb, T_>>>(x, y, ds, MM_ROWS, MM_ROW_C);
        else if (kind == 1) mm_rowst<T><<<nb, T_>>>(x, y, ds, MM_ROWS, MM_ROW_C);
        else mm_rowld<T><<<nb, T_>>>(x, y, ds, MM_ROWS, MM_ROW_C);
    }
    const void *func() const override { return size == 2 ? fn<unsigned short>() : fn<float>(); }
    void warm() override { pn_warm_buf(da, a.size(), g_sink); pn_warm_buf(db, a.size(), g_sink); }
    void launch(int T) override
    {
        if (size == 2) go<unsigned short>(T);
        else go<float>(T);
    }
    /* the element the host expects at row r, column c (the bytes are small integers) */
    double elem(long r, long c) const
    {
        size_t i = (size_t)r * MM_ROW_C + c;
        if (size == 2) { unsigned short v; memcpy(&v, &a[2 * i], 2); return v; }
        float v;
        memcpy(&v, &a[4 * i], 4);
        return v;
    }
    bool check(int) override
    {
        if (kind == 2) {
            std::vector<float> g = pn_host_copy(ds, MM_ROWS), ref(MM_ROWS);
            for (long r = 0; r < MM_ROWS; r++) {
                float s = 0.f;
                for (long c = 0; c < MM_ROW_C; c++) s += (float)elem(r, c);
                ref[r] = s;
            }
            return mm_close(g, ref, 1e-3f, &err);
        }
        std::vector<unsigned char> g = pn_host_copy(db, a.size());
        for (long r = 0; r < MM_ROWS; r++)
            for (long c = 0; c < MM_ROW_C; c++) {
                size_t i = (size_t)r * MM_ROW_C + c;
                double want = kind == 0 ? elem(r, c) + 1 : (double)(r + c);
                double got;
                if (size == 2) { unsigned short v; memcpy(&v, &g[2 * i], 2); got = v; want = (unsigned short)(long)want; }
                else { float v; memcpy(&v, &g[4 * i], 4); got = v; want = (float)want; }
                if (got != want) { err = "row " + std::to_string(r) + " column " + std::to_string(c); return false; }
            }
        return true;
    }
};

struct mm_desc {
    const char *name;
    std::vector<int> threads;
    std::vector<long> sizes;
    mm_case *(*make)(long n, uint64_t seed);
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
    const std::vector<int> T3 = {128, 256, 1024}, T5 = {64, 128, 256, 512, 1024};
    std::vector<mm_desc> all = {
        {"mm_read", T3, {4, 16, 64, 256}, [](long n, uint64_t s) -> mm_case * { return new mm_stream_case(0, n, s); }},
        {"mm_copy", T5, {16, 64, 256}, [](long n, uint64_t s) -> mm_case * { return new mm_stream_case(1, n, s); }},
        {"mm_fill", T3, {16, 256}, [](long n, uint64_t s) -> mm_case * { return new mm_stream_case(2, n, s); }},
        {"mm_saxpy", T3, {16, 64, 256}, [](long n, uint64_t s) -> mm_case * { return new mm_stream_case(3, n, s); }},
        {"mm_trn", T3, {16, 64, 256}, [](long n, uint64_t s) -> mm_case * { return new mm_trans_case(false, n, s); }},
        {"mm_trt", T3, {16, 64, 256}, [](long n, uint64_t s) -> mm_case * { return new mm_trans_case(true, n, s); }},
        {"mm_red", {128, 1024}, {1, 32, 4096, 1L << 20}, [](long n, uint64_t s) -> mm_case * { return new mm_atomic_case(0, n, s); }},
        {"mm_atom", {256}, {32, 1L << 20}, [](long n, uint64_t s) -> mm_case * { return new mm_atomic_case(1, n, s); }},
        {"mm_hist", {256, 1024}, {32, 1024}, [](long n, uint64_t s) -> mm_case * { return new mm_atomic_case(2, n, s); }},
        {"mm_sfu", {256}, {0, 1, 2, 3, 4, 5, 6, 7, 8}, [](long n, uint64_t) -> mm_case * { return new mm_sfu_case(n); }},
        {"mm_sfus", T3, {16, 64}, [](long n, uint64_t s) -> mm_case * { return new mm_stream_case(4, n, s); }},
        {"mm_rowcp", {32, 64, 256, 1024}, {2, 4}, [](long n, uint64_t s) -> mm_case * { return new mm_rows_case(0, n, s); }},
        {"mm_rowst", {32, 64, 256, 1024}, {2, 4}, [](long n, uint64_t s) -> mm_case * { return new mm_rows_case(1, n, s); }},
        {"mm_rowld", {32, 64, 256, 1024}, {2, 4}, [](long n, uint64_t s) -> mm_case * { return new mm_rows_case(2, n, s); }},
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
            std::unique_ptr<mm_case> c(k.make(n, o.seed + (uint64_t)n));
            cudaFuncAttributes fa;
            for (int T : o.threads.empty() ? k.threads : o.threads) {
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
