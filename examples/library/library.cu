/* library.cu - kernels nobody on the project wrote: CUB, Thrust and cuBLAS calls, each
 * timed and profiled with the documented workflow (../deps/measure.sh), as a user would
 * profile an application whose kernels come from libraries. The block sizes are the
 * libraries' own; each call runs one or more kernels (a radix sort six): the timing rows are
 * per kernel, from CUPTI's activity records (each kernel's start to end on the GPU), with
 * each call's time around all its kernels (CUDA events) in a comment line. A kernel that
 * starts before the previous one ends (CUDA's programmatic dependent launch: CUB's kernels
 * on sm_90 wait for their predecessor in ACQBULK) counts from that end: its row is the time
 * it adds to the stream, and a comment line gives its start-to-end time.
 *
 *   call          what it runs                                     sizes (elements)
 *   cub_reduce    cub::DeviceReduce::Sum over floats                2^20, 2^24, 2^26
 *   cub_scan      cub::DeviceScan::InclusiveSum over ints           2^20, 2^22, 2^24
 *   cub_sort      cub::DeviceRadixSort::SortKeys, 32-bit keys       2^20, 2^22, 2^24
 *   cub_hist      cub::DeviceHistogram::HistogramEven, 256 bins     2^22, 2^24 floats
 *   cub_select    cub::DeviceSelect::If, keep x > 0.5               2^22, 2^24 floats
 *   thrust_saxpy  thrust::transform y = a x + y                     2^24, 2^26
 *   blas_sgemm    cublasSgemm, square (FP32 FMA)                     1024, 4096 (n)
 *   blas_hgemm    cublasGemmEx fp16 in, fp32 compute (tensor cores) 1024, 2048, 4096 (n)
 *   blas_sgemv    cublasSgemv, n x n                                 4096, 8192 (n)
 *   blas_sdot     cublasSdot                                         2^24
 *   fft_c2c       cufftExecC2C, one complex-float transform           2^20, 2^24
 *   empty         an empty kernel of 32-thread blocks (the launch)      32, 4224 threads
 * and a second set, measured after the model had learnt from the first (examples/data/h100/library2):
 *   cub_segreduce cub::DeviceSegmentedReduce::Sum, segments of 1000    2^22, 2^24
 *   cub_mergesort cub::DeviceMergeSort::SortKeys, floats               2^20
 *   thrust_sortpairs thrust::sort_by_key, 32-bit keys, float values    2^22
 *   cub_rle       cub::DeviceRunLengthEncode::Encode, runs of 16       2^24
 *   rand_uniform  curandGenerateUniform (Philox)                        2^24, 2^26
 *   blas_batched  cublasSgemmStridedBatched, 2048 products n x n       64, 128 (n)
 *   blas_geam     cublasSgeam, a transpose n x n                       4096 (n)
 *   sparse_spmv   cusparseSpMV, CSR, 2^20 rows of 16 random columns    2^20 (rows)
 * and a third (examples/data/h100/library3), dense solvers from cuSOLVER, on a fresh copy of
 * an n x n matrix each call (diagonally dominant, symmetric):
 *   solve_potrf   cusolverDnSpotrf, Cholesky, lower                   1024, 2048 (n)
 *   solve_getrf   cusolverDnSgetrf, LU with partial pivoting          1024, 2048 (n)
 *   solve_geqrf   cusolverDnSgeqrf, QR (Householder)                  1024 (n)
 *
 *   library [--kernels call1,...] [--launches 40] [--warmup 5] [--launch-log FILE] [--info]
 * Timing rows, per kernel of each call: "kernel,size,threads,blocks,0,0,median_us,p10_us,
 * p90_us,launches", the kernel named as `pnsim import` names it (DeviceReduceKernel), size the
 * call's; the median over --launches calls after --warmup and one untimed call. Before them
 * "# call NAME SIZE: median ..." with the call's time (CUDA events around it). --launches 0:
 * profiling mode, each call once, logged as "call,size,0,0" (CUPTI off: ncu uses it). Exit 1
 * if a result check failed, 2 on a CUDA or CUPTI error. */
#include "../common/pn_bench.cuh"

#include <cublas_v2.h>
#include <cub/cub.cuh>
#include <cupti.h>
#include <cxxabi.h>
#include <cuda_fp16.h>
#include <cufft.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <map>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#define LB_CK_BLAS(call)                                                                     \
    do {                                                                                     \
        cublasStatus_t s_ = (call);                                                          \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d: cuBLAS error %d\n", __FILE__, __LINE__, (int)s_);         \
            exit(2);                                                                         \
        }                                                                                    \
    } while (0)

/* An empty kernel: what a launch costs, as events (around it alone) and CUPTI (its start to
 * end on the GPU) each see it. */
__global__ void lb_empty() {}

struct saxpy_op {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct above_half {
    __host__ __device__ bool operator()(float x) const { return x > 0.5f; }
};

/* Per-kernel times from CUPTI's activity records (timing mode only: ncu profiles through
 * CUPTI itself): every kernel's name, grid, block and start-to-end nanoseconds. */
struct lb_rec {
    std::string name;
    long threads, blocks;
    uint64_t start, end; /* ns */
};
static std::vector<lb_rec> g_recs;

static void CUPTIAPI lb_buf_request(uint8_t **buf, size_t *size, size_t *max_records)
{
    *size = 8u << 20;
    *buf = (uint8_t *)aligned_alloc(8, *size);
    *max_records = 0;
}

static void CUPTIAPI lb_buf_done(CUcontext, uint32_t, uint8_t *buf, size_t, size_t valid)
{
    CUpti_Activity *rec = nullptr;
    while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        int st = 0;
        char *dm = abi::__cxa_demangle(k->name, nullptr, nullptr, &st);
        g_recs.push_back({st == 0 && dm ? dm : k->name, (long)k->blockX * k->blockY * k->blockZ,
                          (long)k->gridX * k->gridY * k->gridZ, k->start, k->end});
        free(dm);
    }
    free(buf);
}

#define LB_CK_CUPTI(call)                                                                    \
    do {                                                                                     \
        CUptiResult r_ = (call);                                                             \
        if (r_ != CUPTI_SUCCESS) {                                                           \
            const char *m_ = nullptr;                                                        \
            cuptiGetResultString(r_, &m_);                                                   \
            fprintf(stderr, "%s:%d: CUPTI: %s\n", __FILE__, __LINE__, m_ ? m_ : "error");    \
            exit(2);                                                                         \
        }                                                                                    \
    } while (0)

/* A kernel's own name in a demangled signature, as `pnsim import` names its configs:
 * without parameters, template arguments, return type and qualifiers. */
static std::string lb_short_name(const std::string &sig)
{
    size_t n = sig.size();
    while (n > 0 && sig[n - 1] == ' ') n--;
    for (char close : {')', '>'}) {
        char open = close == ')' ? '(' : '<';
        if (n == 0 || sig[n - 1] != close) continue;
        long depth = 0;
        size_t i = n;
        while (i-- > 0) {
            depth += sig[i] == close && !(close == '>' && i > 0 && sig[i - 1] == '-');
            depth -= sig[i] == open;
            if (depth == 0) break;
        }
        if (depth == 0) n = i;
        while (n > 0 && sig[n - 1] == ' ') n--;
    }
    size_t b = n;
    while (b > 0 && sig[b - 1] != ':' && sig[b - 1] != ' ') b--;
    return sig.substr(b == n ? 0 : b, b == n ? n : n - b);
}

/* The kernels of one group (a call at one size): the records since its start are the
 * untimed call's kernels (with whatever a library launches once, on its first call), then
 * warmup + launches times a spin kernel and the call's k kernels. Per kernel of the call,
 * one timing row with the median (p10, p90) over the last `launches` calls. */
static bool lb_print_kernels(const char *call, long n, int warmup, int launches)
{
    std::vector<std::vector<lb_rec>> calls; /* each starts with its spin kernel */
    for (auto &r : g_recs)
        if (r.name.find("pn_spin") != std::string::npos)
            calls.push_back({r});
        else if (!calls.empty())
            calls.back().push_back(r);
    g_recs.clear();
    if (calls.size() != (size_t)(warmup + launches) || calls.back().size() < 2) {
        fprintf(stderr, "%s n=%ld: %zu timed calls recorded, not %d\n", call, n, calls.size(),
                warmup + launches);
        return false;
    }
    const std::vector<lb_rec> &first = calls[(size_t)warmup];
    for (size_t j = 1; j < first.size(); j++) {
        std::vector<double> us, whole;
        int early = 0;
        for (size_t c = (size_t)warmup; c < calls.size(); c++) {
            const std::vector<lb_rec> &k = calls[c];
            if (k.size() != first.size() || k[j].name != first[j].name ||
                k[j].blocks != first[j].blocks) {
                fprintf(stderr, "%s n=%ld: call %zu ran other kernels than call %d\n", call, n,
                        c, warmup);
                return false;
            }
            /* from the later of its start and the end of the kernels before it */
            uint64_t from = k[j].start;
            for (size_t i = 0; i < j; i++)
                from = k[i].end > from ? k[i].end : from;
            early += from > k[j].start;
            us.push_back(1e-3 * (double)(k[j].end - from));
            whole.push_back(1e-3 * (double)(k[j].end - k[j].start));
        }
        std::sort(us.begin(), us.end());
        std::sort(whole.begin(), whole.end());
        std::string name = lb_short_name(first[j].name);
        if (early)
            printf("# %s started before the kernels before it ended in %d of %d calls: start "
                   "to end %.3f us (median), from their end %.3f\n",
                   name.c_str(), early, launches, pn_pct(whole, 0.5), pn_pct(us, 0.5));
        printf("%s,%ld,%ld,%ld,0,0,%.3f,%.3f,%.3f,%d\n", name.c_str(), n, first[j].threads,
               first[j].blocks, pn_pct(us, 0.5), pn_pct(us, 0.1), pn_pct(us, 0.9), launches);
    }
    fflush(stdout);
    return true;
}

/* Device buffers big enough for every call. */
struct lb_data {
    long cap = 1L << 26;
    float *x = nullptr, *y = nullptr, *z = nullptr;
    unsigned *k = nullptr, *k2 = nullptr;
    int *hist = nullptr, *cnt = nullptr;
    __half *ha = nullptr, *hb = nullptr;
    void *tmp = nullptr;
    size_t tmp_bytes = 0;
    cublasHandle_t blas;
    std::map<long, cufftHandle> fft; /* a plan per size, made on first use */
    int *offs = nullptr, *runs = nullptr;  /* segment offsets (1000 apart), runs of 16 */
    int *csr_rows = nullptr, *csr_cols = nullptr; /* a 2^20-row CSR matrix, 16 per row */
    float *csr_vals = nullptr;
    curandGenerator_t rng;
    cusparseHandle_t sparse;
    cusolverDnHandle_t solver;
    float *spd = nullptr;  /* 2048 x 2048, symmetric and diagonally dominant */
    int *ipiv = nullptr, *info = nullptr;
};

#define LB_SPMV_ROWS (1 << 20)
#define LB_SOLVE_MAX 2048
#define LB_SPMV_PER_ROW 16

static void lb_fill(lb_data *d, uint64_t seed)
{
    std::vector<float> h(d->cap);
    std::vector<unsigned> hk(d->cap);
    uint64_t s = seed;
    for (long i = 0; i < d->cap; i++) h[i] = pn_randf(&s), hk[i] = (unsigned)pn_rand64(&s);
    PN_CK(cudaMemcpy(d->x, h.data(), d->cap * 4, cudaMemcpyHostToDevice));
    PN_CK(cudaMemcpy(d->y, h.data(), d->cap * 4, cudaMemcpyHostToDevice));
    PN_CK(cudaMemcpy(d->k, hk.data(), d->cap * 4, cudaMemcpyHostToDevice));
    std::vector<int> hi(d->cap / 16 + 1);
    for (size_t i = 0; i < hi.size(); i++) hi[i] = (int)std::min<long>(1000L * (long)i, d->cap);
    PN_CK(cudaMemcpy(d->offs, hi.data(), hi.size() * 4, cudaMemcpyHostToDevice));
    std::vector<int> hr(d->cap);
    for (long i = 0; i < d->cap; i++) hr[i] = (int)(i / 16);
    PN_CK(cudaMemcpy(d->runs, hr.data(), d->cap * 4, cudaMemcpyHostToDevice));
    std::vector<int> rows(LB_SPMV_ROWS + 1), cols((size_t)LB_SPMV_ROWS * LB_SPMV_PER_ROW);
    for (int r = 0; r <= LB_SPMV_ROWS; r++) rows[r] = r * LB_SPMV_PER_ROW;
    for (int r = 0; r < LB_SPMV_ROWS; r++) {
        for (int j = 0; j < LB_SPMV_PER_ROW; j++) cols[(size_t)r * LB_SPMV_PER_ROW + j] = (int)(pn_rand64(&s) % LB_SPMV_ROWS);
        std::sort(cols.begin() + (size_t)r * LB_SPMV_PER_ROW, cols.begin() + (size_t)(r + 1) * LB_SPMV_PER_ROW);
    }
    PN_CK(cudaMemcpy(d->csr_rows, rows.data(), rows.size() * 4, cudaMemcpyHostToDevice));
    PN_CK(cudaMemcpy(d->csr_cols, cols.data(), cols.size() * 4, cudaMemcpyHostToDevice));
    PN_CK(cudaMemcpy(d->csr_vals, h.data(), cols.size() * 4, cudaMemcpyHostToDevice));
    std::vector<float> a((size_t)LB_SOLVE_MAX * LB_SOLVE_MAX);
    for (long i = 0; i < LB_SOLVE_MAX; i++)
        for (long j = 0; j <= i; j++)
            a[i * LB_SOLVE_MAX + j] = a[j * LB_SOLVE_MAX + i] =
                i == j ? (float)LB_SOLVE_MAX : pn_randf(&s) - 0.5f;
    PN_CK(cudaMemcpy(d->spd, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
    std::vector<__half> hh(4096L * 4096);
    for (size_t i = 0; i < hh.size(); i++) hh[i] = __float2half(h[i] - 0.5f);
    PN_CK(cudaMemcpy(d->ha, hh.data(), hh.size() * 2, cudaMemcpyHostToDevice));
    PN_CK(cudaMemcpy(d->hb, hh.data(), hh.size() * 2, cudaMemcpyHostToDevice));
}

static void lb_init(lb_data *d, uint64_t seed)
{
    PN_CK(cudaMalloc(&d->x, d->cap * 4));
    PN_CK(cudaMalloc(&d->y, d->cap * 4));
    PN_CK(cudaMalloc(&d->z, d->cap * 4));
    PN_CK(cudaMalloc(&d->k, d->cap * 4));
    PN_CK(cudaMalloc(&d->k2, d->cap * 4));
    PN_CK(cudaMalloc(&d->offs, (d->cap / 16 + 1) * 4));
    PN_CK(cudaMalloc(&d->runs, d->cap * 4));
    PN_CK(cudaMalloc(&d->csr_rows, (LB_SPMV_ROWS + 1) * 4));
    PN_CK(cudaMalloc(&d->csr_cols, (size_t)LB_SPMV_ROWS * LB_SPMV_PER_ROW * 4));
    PN_CK(cudaMalloc(&d->csr_vals, (size_t)LB_SPMV_ROWS * LB_SPMV_PER_ROW * 4));
    PN_CK(cudaMalloc(&d->spd, (size_t)LB_SOLVE_MAX * LB_SOLVE_MAX * 4));
    PN_CK(cudaMalloc(&d->ipiv, LB_SOLVE_MAX * sizeof(int)));
    PN_CK(cudaMalloc(&d->info, sizeof(int)));
    if (curandCreateGenerator(&d->rng, CURAND_RNG_PSEUDO_PHILOX4_32_10) != CURAND_STATUS_SUCCESS ||
        cusparseCreate(&d->sparse) != CUSPARSE_STATUS_SUCCESS ||
        cusolverDnCreate(&d->solver) != CUSOLVER_STATUS_SUCCESS) {
        fprintf(stderr, "cuRAND, cuSPARSE or cuSOLVER failed to start\n");
        exit(2);
    }
    PN_CK(cudaMalloc(&d->hist, 257 * sizeof(int)));
    PN_CK(cudaMalloc(&d->cnt, sizeof(int)));
    PN_CK(cudaMalloc(&d->ha, 4096L * 4096 * 2));
    PN_CK(cudaMalloc(&d->hb, 4096L * 4096 * 2));
    d->tmp_bytes = 256u << 20;
    PN_CK(cudaMalloc(&d->tmp, d->tmp_bytes));
    LB_CK_BLAS(cublasCreate(&d->blas));
    lb_fill(d, seed);
}

static const char *const lb_calls[] = {"cub_reduce", "cub_scan",    "cub_sort",   "cub_hist",
                                       "cub_select", "thrust_saxpy", "blas_sgemm", "blas_hgemm",
                                       "blas_sgemv", "blas_sdot",    "fft_c2c",     "empty",
                                       "cub_segreduce", "cub_mergesort", "thrust_sortpairs",
                                       "cub_rle", "rand_uniform", "blas_batched", "blas_geam",
                                       "sparse_spmv", "solve_potrf", "solve_getrf",
                                       "solve_geqrf"};
enum { LB_NCALLS = sizeof lb_calls / sizeof lb_calls[0] };

static std::vector<long> lb_sizes(int c)
{
    switch (c) {
    case 0: return {1L << 20, 1L << 24, 1L << 26};
    case 1: case 2: return {1L << 20, 1L << 22, 1L << 24};
    case 3: case 4: return {1L << 22, 1L << 24};
    case 5: return {1L << 24, 1L << 26};
    case 6: return {1024, 4096};
    case 7: return {1024, 2048, 4096};
    case 8: return {4096, 8192};
    case 10: return {1L << 20, 1L << 24};
    case 11: return {32, 4224};
    case 12: return {1L << 22, 1L << 24};
    case 13: return {1L << 20};
    case 14: return {1L << 22};
    case 15: return {1L << 24};
    case 16: return {1L << 24, 1L << 26};
    case 17: return {64, 128};
    case 18: return {4096};
    case 19: return {LB_SPMV_ROWS};
    case 20: case 21: return {1024, 2048};
    case 22: return {1024};
    default: return {1L << 24};
    }
}

/* One call of c at size n, on the default stream. The inputs it reads are never written,
 * so every repetition does the same work. */
static void lb_run(int c, long n, lb_data *d)
{
    size_t tb = d->tmp_bytes;
    const float one = 1.f, zero = 0.f;
    switch (c) {
    case 0: PN_CK(cub::DeviceReduce::Sum(d->tmp, tb, d->x, d->z, (int)n)); break;
    case 1: PN_CK(cub::DeviceScan::InclusiveSum(d->tmp, tb, (const int *)d->k, (int *)d->k2, (int)n)); break;
    case 2: PN_CK(cub::DeviceRadixSort::SortKeys(d->tmp, tb, d->k, d->k2, (int)n)); break;
    case 3:
        PN_CK(cub::DeviceHistogram::HistogramEven(d->tmp, tb, d->x, d->hist, 257, 0.f, 1.f, (int)n));
        break;
    case 4: PN_CK(cub::DeviceSelect::If(d->tmp, tb, d->x, d->z, d->cnt, (int)n, above_half())); break;
    case 5: {
        thrust::device_ptr<float> x(d->x), y(d->y), z(d->z);
        thrust::transform(thrust::device, x, x + n, y, z, saxpy_op{2.f});
        break;
    }
    case 6:
        LB_CK_BLAS(cublasSgemm(d->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one,
                               d->x, (int)n, d->y, (int)n, &zero, d->z, (int)n));
        break;
    case 7:
        LB_CK_BLAS(cublasGemmEx(d->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one,
                                d->ha, CUDA_R_16F, (int)n, d->hb, CUDA_R_16F, (int)n, &zero, d->z,
                                CUDA_R_32F, (int)n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        break;
    case 8:
        LB_CK_BLAS(cublasSgemv(d->blas, CUBLAS_OP_N, (int)n, (int)n, &one, d->x, (int)n, d->y, 1,
                               &zero, d->z, 1));
        break;
    case 10: {
        if (!d->fft.count(n) && cufftPlan1d(&d->fft[n], (int)n, CUFFT_C2C, 1) != CUFFT_SUCCESS) {
            fprintf(stderr, "cufftPlan1d(%ld) failed\n", n);
            exit(2);
        }
        if (cufftExecC2C(d->fft[n], (cufftComplex *)d->x, (cufftComplex *)d->z, CUFFT_FORWARD) !=
            CUFFT_SUCCESS) {
            fprintf(stderr, "cufftExecC2C(%ld) failed\n", n);
            exit(2);
        }
        break;
    }
    case 11: lb_empty<<<(unsigned)(n / 32), 32>>>(); break;
    case 12:
        PN_CK(cub::DeviceSegmentedReduce::Sum(d->tmp, tb, d->x, d->z, (int)(n / 1000), d->offs,
                                               d->offs + 1));
        break;
    case 13: /* sorts in place: a fresh copy of the keys each call */
        PN_CK(cudaMemcpyAsync(d->z, d->x, n * 4, cudaMemcpyDeviceToDevice, 0));
        PN_CK(cub::DeviceMergeSort::SortKeys(d->tmp, tb, d->z, (int)n, cuda::std::less<float>()));
        break;
    case 14: {
        PN_CK(cudaMemcpyAsync(d->k2, d->k, n * 4, cudaMemcpyDeviceToDevice, 0));
        PN_CK(cudaMemcpyAsync(d->z, d->x, n * 4, cudaMemcpyDeviceToDevice, 0));
        thrust::device_ptr<unsigned> k(d->k2);
        thrust::device_ptr<float> v(d->z);
        thrust::sort_by_key(thrust::device, k, k + n, v);
        break;
    }
    case 15:
        PN_CK(cub::DeviceRunLengthEncode::Encode(d->tmp, tb, d->runs, (int *)d->k2, (int *)d->z,
                                                 d->cnt, (int)n));
        break;
    case 16:
        if (curandGenerateUniform(d->rng, d->z, (size_t)n) != CURAND_STATUS_SUCCESS) {
            fprintf(stderr, "curandGenerateUniform failed\n");
            exit(2);
        }
        break;
    case 17: /* 2048 products of n x n matrices */
        LB_CK_BLAS(cublasSgemmStridedBatched(d->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n,
                                             (int)n, &one, d->x, (int)n, n * n, d->y, (int)n,
                                             n * n, &zero, d->z, (int)n, n * n, 2048));
        break;
    case 18: /* a transpose */
        LB_CK_BLAS(cublasSgeam(d->blas, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)n, &one, d->x,
                               (int)n, &zero, d->y, (int)n, d->z, (int)n));
        break;
    case 19: {
        static cusparseSpMatDescr_t A;
        static cusparseDnVecDescr_t X, Y;
        static void *buf;
        if (!buf) {
            size_t bytes = 0;
            if (cusparseCreateCsr(&A, n, n, n * LB_SPMV_PER_ROW, d->csr_rows, d->csr_cols,
                                  d->csr_vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F) ||
                cusparseCreateDnVec(&X, n, d->x, CUDA_R_32F) ||
                cusparseCreateDnVec(&Y, n, d->z, CUDA_R_32F) ||
                cusparseSpMV_bufferSize(d->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X,
                                        &zero, Y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes)) {
                fprintf(stderr, "cuSPARSE SpMV set-up failed\n");
                exit(2);
            }
            PN_CK(cudaMalloc(&buf, bytes ? bytes : 1));
        }
        if (cusparseSpMV(d->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y,
                         CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buf)) {
            fprintf(stderr, "cusparseSpMV failed\n");
            exit(2);
        }
        break;
    }
    case 20: case 21: case 22: { /* on a fresh copy of the matrix's leading n x n */
        PN_CK(cudaMemcpy2DAsync(d->z, n * 4, d->spd, LB_SOLVE_MAX * 4, n * 4, n,
                                cudaMemcpyDeviceToDevice, 0));
        int lw = 0;
        cusolverStatus_t st =
            c == 20   ? cusolverDnSpotrf_bufferSize(d->solver, CUBLAS_FILL_MODE_LOWER, (int)n,
                                                    d->z, (int)n, &lw)
            : c == 21 ? cusolverDnSgetrf_bufferSize(d->solver, (int)n, (int)n, d->z, (int)n, &lw)
                      : cusolverDnSgeqrf_bufferSize(d->solver, (int)n, (int)n, d->z, (int)n, &lw);
        if (st == CUSOLVER_STATUS_SUCCESS && (size_t)lw * 4 + n * 4 <= tb) {
            float *work = (float *)d->tmp, *tau = work + lw;
            st = c == 20   ? cusolverDnSpotrf(d->solver, CUBLAS_FILL_MODE_LOWER, (int)n, d->z,
                                              (int)n, work, lw, d->info)
                 : c == 21 ? cusolverDnSgetrf(d->solver, (int)n, (int)n, d->z, (int)n, work,
                                              d->ipiv, d->info)
                           : cusolverDnSgeqrf(d->solver, (int)n, (int)n, d->z, (int)n, tau,
                                              work, lw, d->info);
        }
        if (st != CUSOLVER_STATUS_SUCCESS) {
            fprintf(stderr, "%s n=%ld: cuSOLVER error %d\n", lb_calls[c], n, (int)st);
            exit(2);
        }
        break;
    }
    default:
        LB_CK_BLAS(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_DEVICE));
        LB_CK_BLAS(cublasSdot(d->blas, (int)n, d->x, 1, d->y, 1, d->z));
        LB_CK_BLAS(cublasSetPointerMode(d->blas, CUBLAS_POINTER_MODE_HOST));
        break;
    }
}

/* A few results against the CPU (the libraries are trusted; this checks the calls). */
static bool lb_check(int c, long n, lb_data *d, std::string *err)
{
    char m[160];
    if (c == 0 || c == 9) {
        std::vector<float> x(n), y(n);
        PN_CK(cudaMemcpy(x.data(), d->x, n * 4, cudaMemcpyDeviceToHost));
        PN_CK(cudaMemcpy(y.data(), d->y, n * 4, cudaMemcpyDeviceToHost));
        double want = 0;
        for (long i = 0; i < n; i++) want += c == 0 ? x[i] : (double)x[i] * y[i];
        float got;
        PN_CK(cudaMemcpy(&got, d->z, 4, cudaMemcpyDeviceToHost));
        if (fabs(got - want) > 1e-3 * fabs(want)) {
            snprintf(m, sizeof m, "sum %g, not %g", got, want);
            *err = m;
            return false;
        }
    } else if (c == 2) {
        std::vector<unsigned> k(n);
        PN_CK(cudaMemcpy(k.data(), d->k2, n * 4, cudaMemcpyDeviceToHost));
        for (long i = 1; i < n; i++)
            if (k[i - 1] > k[i]) {
                snprintf(m, sizeof m, "keys[%ld] > keys[%ld]", i - 1, i);
                *err = m;
                return false;
            }
    } else if (c >= 20 && c <= 22) {
        int info = -1;
        PN_CK(cudaMemcpy(&info, d->info, sizeof info, cudaMemcpyDeviceToHost));
        if (info != 0) {
            snprintf(m, sizeof m, "devInfo %d", info);
            *err = m;
            return false;
        }
    } else if (c == 5) {
        std::vector<float> x(n), y(n), z(n);
        PN_CK(cudaMemcpy(x.data(), d->x, n * 4, cudaMemcpyDeviceToHost));
        PN_CK(cudaMemcpy(y.data(), d->y, n * 4, cudaMemcpyDeviceToHost));
        PN_CK(cudaMemcpy(z.data(), d->z, n * 4, cudaMemcpyDeviceToHost));
        for (long i = 0; i < n; i += 4099)
            if (fabs(z[i] - (2.f * x[i] + y[i])) > 1e-5f) {
                snprintf(m, sizeof m, "z[%ld] = %g", i, z[i]);
                *err = m;
                return false;
            }
    }
    return true;
}

int main(int argc, char **argv)
{
    pn_opts o;
    std::vector<std::string> names;
    pn_parse_set_opts(argc, argv, &o, &names);
    if (!pn_names_known(names, lb_calls, LB_NCALLS)) return 2;
    FILE *log = pn_open_launch_log(o);
    lb_data d;
    lb_init(&d, o.seed);
    if (o.launches > 0) {
        LB_CK_CUPTI(cuptiActivityRegisterCallbacks(lb_buf_request, lb_buf_done));
        LB_CK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
        LB_CK_CUPTI(cuptiActivityFlushAll(1));
        g_recs.clear();
    }
    int failures = 0;
    for (int c = 0; c < LB_NCALLS; c++) {
        if (!pn_wanted(names, lb_calls[c])) continue;
        for (long n : lb_sizes(c)) {
            if (o.launches <= 0 && log) {
                fprintf(log, "%s,%ld,0,0\n", lb_calls[c], n);
                fflush(log);
            }
            if (o.launches > 0) {
                PN_CK(cudaDeviceSynchronize());
                LB_CK_CUPTI(cuptiActivityFlushAll(1));
                g_recs.clear();
            }
            lb_run(c, n, &d);  /* profiling: the one call; timing: a warm-up */
            PN_CK_LAUNCH();
            PN_CK(cudaDeviceSynchronize());
            std::string err;
            if (!lb_check(c, n, &d, &err)) {
                fprintf(stderr, "%s n=%ld: WRONG: %s\n", lb_calls[c], n, err.c_str());
                failures++;
                continue;
            }
            if (o.launches <= 0) continue;
            std::vector<double> t = pn_time_launches(o.warmup, o.launches, [] {},
                                                     [&] { lb_run(c, n, &d); });
            PN_CK(cudaDeviceSynchronize());
            LB_CK_CUPTI(cuptiActivityFlushAll(1));
            printf("# call %s %ld: median %.3f us, p10 %.3f, p90 %.3f (CUDA events around the call)\n",
                   lb_calls[c], n, pn_pct(t, 0.5), pn_pct(t, 0.1), pn_pct(t, 0.9));
            if (!lb_print_kernels(lb_calls[c], n, o.warmup, o.launches)) failures++;
        }
    }
    if (log) fclose(log);
    for (auto &p : d.fft) cufftDestroy(p.second);
    curandDestroyGenerator(d.rng);
    cusparseDestroy(d.sparse);
    cusolverDnDestroy(d.solver);
    cublasDestroy(d.blas);
    return failures ? 1 : 0;
}
