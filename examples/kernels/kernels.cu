/* kernels.cu - six ordinary multi-block CUDA kernels of different character, timed at several
 * block sizes and two problem sizes, for validating pnsim's multi-block predictions (issue 9)
 * against measured times and against Nsight Compute's launch/occupancy figures.
 *
 *   kernel     what one block does (T threads)                           bound by (expected)
 *   pn_hist    256-bin histogram of 8*T uint32 values (bin = v & 255):      shared atomics, then
 *              privatised in shared memory (atomicAdd), then 256 global     global RED contention
 *              atomics per block into the result
 *   pn_stencil 2D 5-point Jacobi step on a W x W float grid (one cell a     DRAM / L2 bandwidth
 *              thread, neighbours read straight from global memory, edges
 *              clamped): out = 0.5*c + 0.125*(l + r + u + d)
 *   pn_scan    block-wise inclusive scan of T uint32 (Hillis-Steele, double shared memory and
 *              buffered in shared memory, log2 T steps each with one         barriers (log2 T
 *              __syncthreads), writes the scan and the block's sum          barriers per block)
 *   pn_matmul  C = A*B, N x N floats, square tiles TILE x TILE = T          shared loads, FMA
 *              (T = 64, 256, 1024 -> TILE = 8, 16, 32), one output element
 *              a thread, two tiles in (dynamic) shared memory, 2 barriers
 *              per K step
 *   pn_gather  out[i] = in[idx[i]], idx uniform random in [0, n)            scattered loads:
 *                                                                           sectors, latency
 *   pn_reduce  sum of 8*T uint32 (wrapping), warp shuffles, per-warp        DRAM / L2 bandwidth
 *              partials in shared memory, one global atomicAdd per block
 *   pn_lut     table lookup out[i] = lut[in[i] & 8191] for 16*T elements:    per-block table load;
 *              the block first copies the 32 KiB float table into (static)  occupancy limited by
 *              shared memory, then reads it at random (bank conflicts)      shared memory (T<=256)
 *
 * Sizes (`size` column): n elements (hist, scan, gather, reduce), n = W*W cells (stencil),
 * N (matmul). Defaults: 2^20 and 2^24 (W = 1024, 4096), matmul N = 1024 and 2048. The small
 * size's working set (<= 12 MiB) stays in the H100's 50 MiB L2 across repeated launches, the
 * large one's (64-192 MiB) does not (matmul: 48 MiB, L2-resident). Grids: hist, reduce n/(8T);
 * lut n/(16T); stencil, scan, gather n/T; matmul (N/TILE)^2.
 *
 * Usage: kernels [--kernels pn_hist,...] [--threads 64,...] [--sizes n1,n2] [--size-index i]
 *                [--launches 60] [--warmup 5] [--seed S] [--launch-log FILE] [--info]
 *   --threads/--sizes override the defaults of every selected kernel (matmul accepts only
 *   T = 64, 256, 1024; N a multiple of 32); --size-index i keeps only each kernel's i-th
 *   size (0: the small one). --launches 0: profiling mode for ncu: for each
 *   configuration one untimed kernel pn_warm_l2 reads the configuration's buffers (so that L2
 *   holds what it holds in the timing loop), then ONE launch of the kernel, checked; nothing is
 *   printed on stdout, and --launch-log FILE gets "kernel,size,threads,blocks" per launch.
 * stdout (timing mode): one row per configuration,
 *   kernel,size,threads,blocks,registers,shared_bytes,median_us,p10_us,p90_us,launches
 * where registers = cudaFuncAttributes.numRegs and shared_bytes = the block's shared memory,
 * static (cudaFuncAttributes.sharedSizeBytes) plus the launch's dynamic bytes (only pn_scan
 * and pn_matmul have dynamic shared memory).
 * Every output is poisoned before the first launch and checked against a CPU reference after
 * the first launch and after the last timed launch (matmul: every row by a two-vector
 * Freivalds test in double, plus 2048 sampled elements against a double dot product).
 * Exit status 0 if every check passed, 1 otherwise, 2 on a CUDA error.
 */
#include "../common/pn_bench.cuh"

#include <memory>

#define PN_HIST_BINS 256
#define PN_ITEMS 8 /* elements per thread of pn_hist and pn_reduce */
#define PN_LUT_WORDS 8192 /* pn_lut's table: 32 KiB of static shared memory */
#define PN_LUT_ITEMS 16   /* elements per thread of pn_lut */

/* ---- kernels ----------------------------------------------------------------------------- */

__global__ void pn_hist(const unsigned *__restrict__ in, unsigned *__restrict__ hist, int n)
{
    __shared__ unsigned sh[PN_HIST_BINS];
    for (int b = threadIdx.x; b < PN_HIST_BINS; b += blockDim.x) sh[b] = 0;
    __syncthreads();
    int base = blockIdx.x * blockDim.x * PN_ITEMS + threadIdx.x;
#pragma unroll
    for (int k = 0; k < PN_ITEMS; k++) {
        int i = base + k * blockDim.x;
        if (i < n) atomicAdd(&sh[in[i] & (PN_HIST_BINS - 1)], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < PN_HIST_BINS; b += blockDim.x) atomicAdd(&hist[b], sh[b]);
}

__global__ void pn_stencil(const float *__restrict__ in, float *__restrict__ out, int logw)
{
    int W = 1 << logw;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= W * W) return;
    int x = i & (W - 1), y = i >> logw;
    float c = in[i];
    float l = in[x > 0 ? i - 1 : i];
    float r = in[x < W - 1 ? i + 1 : i];
    float u = in[y > 0 ? i - W : i];
    float d = in[y < W - 1 ? i + W : i];
    out[i] = 0.5f * c + 0.125f * ((l + r) + (u + d));
}

__global__ void pn_scan(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                        unsigned *__restrict__ sums, int n)
{
    extern __shared__ unsigned s[]; /* 2*T words: two buffers */
    int T = blockDim.x, t = threadIdx.x;
    int i = blockIdx.x * T + t;
    unsigned v = i < n ? in[i] : 0u;
    unsigned *src = s, *dst = s + T;
    src[t] = v;
    __syncthreads();
    for (int off = 1; off < T; off <<= 1) {
        if (t >= off) v += src[t - off];
        dst[t] = v;
        __syncthreads();
        unsigned *tmp = src;
        src = dst;
        dst = tmp;
    }
    if (i < n) out[i] = v;
    if (t == T - 1) sums[blockIdx.x] = v;
}

template <int TILE>
__device__ __forceinline__ void pn_matmul_tile(const float *__restrict__ A,
                                               const float *__restrict__ B, float *__restrict__ C,
                                               int N, float *sh)
{
    float *As = sh, *Bs = sh + TILE * TILE;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < N; k0 += TILE) {
        As[ty * TILE + tx] = A[(size_t)row * N + k0 + tx];
        Bs[ty * TILE + tx] = B[(size_t)(k0 + ty) * N + col];
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TILE; kk++) acc += As[ty * TILE + kk] * Bs[kk * TILE + tx];
        __syncthreads();
    }
    C[(size_t)row * N + col] = acc;
}

/* One kernel (one name for ncu) for every tile size; the tile is blockDim.x (= blockDim.y). */
__global__ void pn_matmul(const float *__restrict__ A, const float *__restrict__ B,
                          float *__restrict__ C, int N)
{
    extern __shared__ float msh[]; /* 2*TILE*TILE floats */
    switch (blockDim.x) {
    case 8: pn_matmul_tile<8>(A, B, C, N, msh); break;
    case 16: pn_matmul_tile<16>(A, B, C, N, msh); break;
    case 32: pn_matmul_tile<32>(A, B, C, N, msh); break;
    }
}

__global__ void pn_gather(const float *__restrict__ in, const unsigned *__restrict__ idx,
                          float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[idx[i]];
}

__global__ void pn_reduce(const unsigned *__restrict__ in, unsigned *__restrict__ sum, int n)
{
    __shared__ unsigned ws[32];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int base = blockIdx.x * blockDim.x * PN_ITEMS + t;
    unsigned v = 0;
#pragma unroll
    for (int k = 0; k < PN_ITEMS; k++) {
        int i = base + k * blockDim.x;
        if (i < n) v += in[i];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) ws[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < (int)(blockDim.x >> 5) ? ws[lane] : 0u;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0) atomicAdd(sum, v);
    }
}

__global__ void pn_lut(const float *__restrict__ lut, const unsigned *__restrict__ in,
                       float *__restrict__ out, int n)
{
    __shared__ float t[PN_LUT_WORDS];
    for (int j = threadIdx.x; j < PN_LUT_WORDS; j += blockDim.x) t[j] = lut[j];
    __syncthreads();
    int base = blockIdx.x * blockDim.x * PN_LUT_ITEMS + threadIdx.x;
#pragma unroll
    for (int k = 0; k < PN_LUT_ITEMS; k++) {
        int i = base + k * blockDim.x;
        if (i < n) out[i] = t[in[i] & (PN_LUT_WORDS - 1)];
    }
}

/* ---- host side ----------------------------------------------------------------------------- */

static unsigned *g_sink = nullptr;

static void pn_warm(const void *p, size_t bytes) { pn_warm_buf(p, bytes, g_sink); }

/* One kernel at one problem size: owns its inputs, outputs and CPU reference. */
struct pn_case {
    long size = 0;
    std::string err; /* why the last check failed */
    virtual ~pn_case() {}
    virtual bool valid(int T) const { return T >= 32 && T <= 1024 && T % 32 == 0; }
    virtual long blocks(int T) const = 0;
    virtual size_t dyn_shared(int T) const { (void)T; return 0; }
    virtual void poison() = 0;                /* fill outputs with a pattern no result has */
    virtual void prep() {}                    /* before every launch, untimed */
    virtual void warm() = 0;                  /* pn_warm every buffer (profiling mode) */
    virtual void launch(int T) = 0;           /* exactly one kernel */
    virtual bool check(int T) = 0;
};

struct pn_hist_case : pn_case {
    std::vector<unsigned> h_in, ref;
    unsigned *d_in = nullptr, *d_hist = nullptr;
    pn_hist_case(long n, uint64_t seed)
    {
        size = n;
        h_in.resize(n);
        ref.assign(PN_HIST_BINS, 0);
        for (long i = 0; i < n; i++) {
            uint64_t r = pn_rand64(&seed);
            /* bell-shaped bins (mean of 4 uniform bytes): contended middle bins */
            unsigned b = (unsigned)(((r & 255) + ((r >> 8) & 255) + ((r >> 16) & 255) +
                                     ((r >> 24) & 255)) >> 2);
            h_in[i] = ((unsigned)(r >> 32) & ~255u) | b;
            ref[b]++;
        }
        d_in = pn_dev_copy(h_in);
        PN_CK(cudaMalloc(&d_hist, PN_HIST_BINS * sizeof(unsigned)));
    }
    ~pn_hist_case() { cudaFree(d_in); cudaFree(d_hist); }
    long blocks(int T) const override { return (size + (long)T * PN_ITEMS - 1) / ((long)T * PN_ITEMS); }
    void poison() override { PN_CK(cudaMemset(d_hist, 0xA5, PN_HIST_BINS * sizeof(unsigned))); }
    void prep() override { PN_CK(cudaMemsetAsync(d_hist, 0, PN_HIST_BINS * sizeof(unsigned), 0)); }
    void warm() override { pn_warm(d_in, size * 4); pn_warm(d_hist, PN_HIST_BINS * 4); }
    void launch(int T) override { pn_hist<<<(unsigned)blocks(T), T>>>(d_in, d_hist, (int)size); }
    bool check(int) override
    {
        std::vector<unsigned> g = pn_host_copy(d_hist, PN_HIST_BINS);
        for (int b = 0; b < PN_HIST_BINS; b++)
            if (g[b] != ref[b]) {
                err = "bin " + std::to_string(b) + ": " + std::to_string(g[b]) + ", want " +
                      std::to_string(ref[b]);
                return false;
            }
        return true;
    }
};

struct pn_stencil_case : pn_case {
    int logw = 0, W = 0;
    std::vector<float> h_in, ref;
    float *d_in = nullptr, *d_out = nullptr;
    pn_stencil_case(long n, uint64_t seed)
    {
        size = n;
        while ((1L << (2 * logw)) < n) logw++;
        W = 1 << logw;
        if ((long)W * W != n) { fprintf(stderr, "pn_stencil: size %ld is not 4^k\n", n); exit(2); }
        h_in.resize(n);
        ref.resize(n);
        for (long i = 0; i < n; i++) h_in[i] = pn_randf(&seed);
        for (long i = 0; i < n; i++) {
            int x = (int)(i & (W - 1)), y = (int)(i >> logw);
            float c = h_in[i], l = h_in[x > 0 ? i - 1 : i], r = h_in[x < W - 1 ? i + 1 : i];
            float u = h_in[y > 0 ? i - W : i], d = h_in[y < W - 1 ? i + W : i];
            ref[i] = 0.5f * c + 0.125f * ((l + r) + (u + d));
        }
        d_in = pn_dev_copy(h_in);
        PN_CK(cudaMalloc(&d_out, n * sizeof(float)));
    }
    ~pn_stencil_case() { cudaFree(d_in); cudaFree(d_out); }
    long blocks(int T) const override { return (size + T - 1) / T; }
    void poison() override { PN_CK(cudaMemset(d_out, 0xFF, size * sizeof(float))); }
    void warm() override { pn_warm(d_in, size * 4); pn_warm(d_out, size * 4); }
    void launch(int T) override { pn_stencil<<<(unsigned)blocks(T), T>>>(d_in, d_out, logw); }
    bool check(int) override
    {
        std::vector<float> g = pn_host_copy(d_out, size);
        for (long i = 0; i < size; i++)
            if (!(fabsf(g[i] - ref[i]) <= 1e-6f)) { /* FMA contraction: a few ulps */
                err = "cell " + std::to_string(i) + ": " + std::to_string(g[i]) + ", want " +
                      std::to_string(ref[i]);
                return false;
            }
        return true;
    }
};

struct pn_scan_case : pn_case {
    std::vector<unsigned> h_in;
    unsigned *d_in = nullptr, *d_out = nullptr, *d_sums = nullptr;
    pn_scan_case(long n, uint64_t seed)
    {
        size = n;
        h_in.resize(n);
        for (long i = 0; i < n; i++) h_in[i] = (unsigned)(pn_rand64(&seed) >> 32);
        d_in = pn_dev_copy(h_in);
        PN_CK(cudaMalloc(&d_out, n * sizeof(unsigned)));
        PN_CK(cudaMalloc(&d_sums, n / 32 * sizeof(unsigned))); /* blocks <= n/32 */
    }
    ~pn_scan_case() { cudaFree(d_in); cudaFree(d_out); cudaFree(d_sums); }
    long blocks(int T) const override { return (size + T - 1) / T; }
    size_t dyn_shared(int T) const override { return 2 * (size_t)T * sizeof(unsigned); }
    void poison() override
    {
        PN_CK(cudaMemset(d_out, 0xA5, size * sizeof(unsigned)));
        PN_CK(cudaMemset(d_sums, 0xA5, size / 32 * sizeof(unsigned)));
    }
    void warm() override { pn_warm(d_in, size * 4); pn_warm(d_out, size * 4); }
    void launch(int T) override
    {
        pn_scan<<<(unsigned)blocks(T), T, dyn_shared(T)>>>(d_in, d_out, d_sums, (int)size);
    }
    bool check(int T) override
    {
        std::vector<unsigned> g = pn_host_copy(d_out, size);
        long nb = blocks(T);
        std::vector<unsigned> gs = pn_host_copy(d_sums, nb);
        for (long b = 0; b < nb; b++) {
            unsigned acc = 0;
            for (long i = b * T; i < std::min(size, (b + 1) * T); i++) {
                acc += h_in[i];
                if (g[i] != acc) {
                    err = "element " + std::to_string(i) + ": " + std::to_string(g[i]) +
                          ", want " + std::to_string(acc);
                    return false;
                }
            }
            if (gs[b] != acc) {
                err = "block sum " + std::to_string(b) + ": " + std::to_string(gs[b]) +
                      ", want " + std::to_string(acc);
                return false;
            }
        }
        return true;
    }
};

struct pn_matmul_case : pn_case {
    int N;
    std::vector<float> hA, hB;
    float *dA = nullptr, *dB = nullptr, *dC = nullptr;
    uint64_t seed;
    pn_matmul_case(long n, uint64_t s) : N((int)n), seed(s)
    {
        size = n;
        if (N % 32) { fprintf(stderr, "pn_matmul: N=%d is not a multiple of 32\n", N); exit(2); }
        size_t nn = (size_t)N * N;
        hA.resize(nn);
        hB.resize(nn);
        for (size_t i = 0; i < nn; i++) hA[i] = pn_randf(&s);
        for (size_t i = 0; i < nn; i++) hB[i] = pn_randf(&s);
        dA = pn_dev_copy(hA);
        dB = pn_dev_copy(hB);
        PN_CK(cudaMalloc(&dC, nn * sizeof(float)));
    }
    ~pn_matmul_case() { cudaFree(dA); cudaFree(dB); cudaFree(dC); }
    static int tile(int T) { return T == 64 ? 8 : T == 256 ? 16 : T == 1024 ? 32 : 0; }
    bool valid(int T) const override { return tile(T) != 0 && N % tile(T) == 0; }
    long blocks(int T) const override { long g = N / tile(T); return g * g; }
    size_t dyn_shared(int T) const override { return 2 * (size_t)T * sizeof(float); }
    void poison() override { PN_CK(cudaMemset(dC, 0xFF, (size_t)N * N * sizeof(float))); }
    void warm() override
    {
        size_t b = (size_t)N * N * 4;
        pn_warm(dA, b); pn_warm(dB, b); pn_warm(dC, b);
    }
    void launch(int T) override
    {
        int t = tile(T);
        dim3 grid(N / t, N / t), blk(t, t);
        pn_matmul<<<grid, blk, dyn_shared(T)>>>(dA, dB, dC, N);
    }
    bool check(int) override
    {
        size_t nn = (size_t)N * N;
        std::vector<float> C = pn_host_copy(dC, nn);
        /* Freivalds: C x == A (B x) for two random x, every row, in double; the bound is
         * |A| (|B| |x|), the largest the float rounding of any row could make the residual. */
        uint64_t s = seed ^ 0x5eedull;
        for (int rep = 0; rep < 2; rep++) {
            std::vector<double> x(N), bx(N, 0.0), abx(N, 0.0);
            for (int j = 0; j < N; j++) x[j] = pn_randf(&s);
            for (int k = 0; k < N; k++) {
                double a = 0.0, m = 0.0;
                for (int j = 0; j < N; j++) {
                    a += (double)hB[(size_t)k * N + j] * x[j];
                    m += fabs((double)hB[(size_t)k * N + j] * x[j]);
                }
                bx[k] = a;
                abx[k] = m;
            }
            for (int i = 0; i < N; i++) {
                double cx = 0.0, abx2 = 0.0, bound = 0.0;
                for (int j = 0; j < N; j++) cx += (double)C[(size_t)i * N + j] * x[j];
                for (int k = 0; k < N; k++) {
                    abx2 += (double)hA[(size_t)i * N + k] * bx[k];
                    bound += fabs((double)hA[(size_t)i * N + k]) * abx[k];
                }
                if (!(fabs(cx - abx2) <= 1e-4 * bound)) {
                    err = "Freivalds row " + std::to_string(i) + ": residual " +
                          std::to_string(fabs(cx - abx2)) + ", bound " + std::to_string(bound);
                    return false;
                }
            }
        }
        for (int q = 0; q < 2048; q++) {
            int i = (int)(pn_rand64(&s) % N), j = (int)(pn_rand64(&s) % N);
            double ref = 0.0, m = 0.0;
            for (int k = 0; k < N; k++) {
                double p = (double)hA[(size_t)i * N + k] * hB[(size_t)k * N + j];
                ref += p;
                m += fabs(p);
            }
            double got = C[(size_t)i * N + j];
            if (!(fabs(got - ref) <= 1e-4 * m)) {
                err = "C[" + std::to_string(i) + "][" + std::to_string(j) + "] = " +
                      std::to_string(got) + ", want " + std::to_string(ref);
                return false;
            }
        }
        return true;
    }
};

struct pn_gather_case : pn_case {
    std::vector<float> h_in;
    std::vector<unsigned> h_idx;
    float *d_in = nullptr, *d_out = nullptr;
    unsigned *d_idx = nullptr;
    pn_gather_case(long n, uint64_t seed)
    {
        size = n;
        h_in.resize(n);
        h_idx.resize(n);
        for (long i = 0; i < n; i++) h_in[i] = pn_randf(&seed);
        for (long i = 0; i < n; i++) h_idx[i] = (unsigned)(pn_rand64(&seed) % (uint64_t)n);
        d_in = pn_dev_copy(h_in);
        d_idx = pn_dev_copy(h_idx);
        PN_CK(cudaMalloc(&d_out, n * sizeof(float)));
    }
    ~pn_gather_case() { cudaFree(d_in); cudaFree(d_idx); cudaFree(d_out); }
    long blocks(int T) const override { return (size + T - 1) / T; }
    void poison() override { PN_CK(cudaMemset(d_out, 0xFF, size * sizeof(float))); }
    void warm() override { pn_warm(d_in, size * 4); pn_warm(d_idx, size * 4); pn_warm(d_out, size * 4); }
    void launch(int T) override { pn_gather<<<(unsigned)blocks(T), T>>>(d_in, d_idx, d_out, (int)size); }
    bool check(int) override
    {
        std::vector<float> g = pn_host_copy(d_out, size);
        for (long i = 0; i < size; i++)
            if (memcmp(&g[i], &h_in[h_idx[i]], 4)) {
                err = "element " + std::to_string(i) + ": " + std::to_string(g[i]) + ", want " +
                      std::to_string(h_in[h_idx[i]]);
                return false;
            }
        return true;
    }
};

struct pn_reduce_case : pn_case {
    std::vector<unsigned> h_in;
    unsigned ref = 0;
    unsigned *d_in = nullptr, *d_sum = nullptr;
    pn_reduce_case(long n, uint64_t seed)
    {
        size = n;
        h_in.resize(n);
        for (long i = 0; i < n; i++) ref += (h_in[i] = (unsigned)(pn_rand64(&seed) >> 32));
        d_in = pn_dev_copy(h_in);
        PN_CK(cudaMalloc(&d_sum, sizeof(unsigned)));
    }
    ~pn_reduce_case() { cudaFree(d_in); cudaFree(d_sum); }
    long blocks(int T) const override { return (size + (long)T * PN_ITEMS - 1) / ((long)T * PN_ITEMS); }
    void poison() override { PN_CK(cudaMemset(d_sum, 0xA5, sizeof(unsigned))); }
    void prep() override { PN_CK(cudaMemsetAsync(d_sum, 0, sizeof(unsigned), 0)); }
    void warm() override { pn_warm(d_in, size * 4); }
    void launch(int T) override { pn_reduce<<<(unsigned)blocks(T), T>>>(d_in, d_sum, (int)size); }
    bool check(int) override
    {
        unsigned g = 0;
        PN_CK(cudaMemcpy(&g, d_sum, sizeof(unsigned), cudaMemcpyDeviceToHost));
        if (g != ref) {
            err = "sum " + std::to_string(g) + ", want " + std::to_string(ref);
            return false;
        }
        return true;
    }
};

struct pn_lut_case : pn_case {
    std::vector<float> h_lut;
    std::vector<unsigned> h_in;
    float *d_lut = nullptr, *d_out = nullptr;
    unsigned *d_in = nullptr;
    pn_lut_case(long n, uint64_t seed)
    {
        size = n;
        h_lut.resize(PN_LUT_WORDS);
        h_in.resize(n);
        for (int j = 0; j < PN_LUT_WORDS; j++) h_lut[j] = pn_randf(&seed);
        for (long i = 0; i < n; i++) h_in[i] = (unsigned)(pn_rand64(&seed) >> 32);
        d_lut = pn_dev_copy(h_lut);
        d_in = pn_dev_copy(h_in);
        PN_CK(cudaMalloc(&d_out, n * sizeof(float)));
    }
    ~pn_lut_case() { cudaFree(d_lut); cudaFree(d_in); cudaFree(d_out); }
    long blocks(int T) const override { return (size + (long)T * PN_LUT_ITEMS - 1) / ((long)T * PN_LUT_ITEMS); }
    void poison() override { PN_CK(cudaMemset(d_out, 0xFF, size * sizeof(float))); }
    void warm() override { pn_warm(d_lut, PN_LUT_WORDS * 4); pn_warm(d_in, size * 4); pn_warm(d_out, size * 4); }
    void launch(int T) override { pn_lut<<<(unsigned)blocks(T), T>>>(d_lut, d_in, d_out, (int)size); }
    bool check(int) override
    {
        std::vector<float> g = pn_host_copy(d_out, size);
        for (long i = 0; i < size; i++) {
            const float &want = h_lut[h_in[i] & (PN_LUT_WORDS - 1)];
            if (memcmp(&g[i], &want, 4)) {
                err = "element " + std::to_string(i) + ": " + std::to_string(g[i]) + ", want " +
                      std::to_string(want);
                return false;
            }
        }
        return true;
    }
};

struct pn_kernel_desc {
    const char *name;
    const void *func; /* for cudaFuncGetAttributes */
    std::vector<int> threads, sizes;
    pn_case *(*make)(long n, uint64_t seed);
};

template <class C> static pn_case *pn_make(long n, uint64_t seed) { return new C(n, seed); }

int main(int argc, char **argv)
{
    pn_opts o;
    o.threads.clear();
    o.launches = 60;
    o.warmup = 5;
    std::vector<int> sizes_override;
    int size_index = -1;
    std::vector<std::string> names;
    pn_parse_opts(argc, argv, &o, [&](const char *name, const char *val) {
        if (!strcmp(name, "--sizes")) { sizes_override = pn_parse_list(val); return true; }
        if (!strcmp(name, "--size-index")) { size_index = atoi(val); return true; }
        if (!strcmp(name, "--kernels")) {
            std::string s = val;
            size_t p = 0;
            while (p <= s.size()) {
                size_t e = s.find(',', p);
                if (e == std::string::npos) e = s.size();
                if (e > p) names.push_back(s.substr(p, e - p));
                p = e + 1;
            }
            return true;
        }
        return false;
    });
    if (o.info) {
        pn_print_devinfo();
        return 0;
    }
    const std::vector<int> T5 = {64, 128, 256, 512, 1024};
    const std::vector<int> S2 = {1 << 20, 1 << 24};
    std::vector<pn_kernel_desc> all = {
        {"pn_hist", (const void *)pn_hist, T5, S2, pn_make<pn_hist_case>},
        {"pn_stencil", (const void *)pn_stencil, T5, S2, pn_make<pn_stencil_case>},
        {"pn_scan", (const void *)pn_scan, T5, S2, pn_make<pn_scan_case>},
        {"pn_matmul", (const void *)pn_matmul, {64, 256, 1024}, {1024, 2048}, pn_make<pn_matmul_case>},
        {"pn_gather", (const void *)pn_gather, T5, S2, pn_make<pn_gather_case>},
        {"pn_reduce", (const void *)pn_reduce, T5, S2, pn_make<pn_reduce_case>},
        {"pn_lut", (const void *)pn_lut, T5, S2, pn_make<pn_lut_case>},
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
        cudaFuncAttributes fa;
        PN_CK(cudaFuncGetAttributes(&fa, k.func));
        std::vector<int> sizes = sizes_override.empty() ? k.sizes : sizes_override;
        if (size_index >= 0) sizes = {sizes.at(size_index)};
        for (int n : sizes) {
            std::unique_ptr<pn_case> c(k.make(n, o.seed + (uint64_t)n));
            for (int T : o.threads.empty() ? k.threads : o.threads) {
                if (!c->valid(T)) {
                    fprintf(stderr, "%s size=%d T=%d: invalid block size\n", k.name, n, T);
                    failures++;
                    continue;
                }
                long nb = c->blocks(T);
                size_t shb = fa.sharedSizeBytes + c->dyn_shared(T);
                auto fail = [&](const char *when) {
                    fprintf(stderr, "%s size=%d T=%d: WRONG %s: %s\n", k.name, n, T, when,
                            c->err.c_str());
                    failures++;
                };
                c->poison();
                c->prep();
                if (o.launches <= 0) { /* profiling mode: warm L2, one checked launch */
                    c->warm();
                    if (log) {
                        fprintf(log, "%s,%d,%d,%ld\n", k.name, n, T, nb);
                        fflush(log);
                    }
                }
                c->launch(T);
                PN_CK_LAUNCH();
                PN_CK(cudaDeviceSynchronize());
                if (!c->check(T)) { fail("first launch"); continue; }
                fprintf(stderr, "%s size=%d T=%d blocks=%ld: correct\n", k.name, n, T, nb);
                if (o.launches <= 0) continue;
                c->poison();
                std::vector<double> us = pn_time_launches(
                    o.warmup, o.launches, [&] { c->prep(); }, [&] { c->launch(T); });
                if (!c->check(T)) { fail("after timing"); continue; }
                printf("%s,%d,%d,%ld,%d,%zu,%.3f,%.3f,%.3f,%zu\n", k.name, n, T, nb, fa.numRegs,
                       shb, pn_pct(us, 0.5), pn_pct(us, 0.1), pn_pct(us, 0.9), us.size());
                fflush(stdout);
            }
        }
    }
    if (log) fclose(log);
    PN_CK(cudaFree(g_sink));
    return failures ? 1 : 0;
}
