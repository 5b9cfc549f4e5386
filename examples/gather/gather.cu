/* gather.cu - kernels whose loads scatter: every thread of a warp reads its own line, one
 * word of it, and often waits for it before the next (binary searches, merge-path
 * partitions, pointer chases, index gathers). What such a load costs an SM, alone and with
 * many in flight, sets the time of sparse, graph and search code and of library kernels like
 * CUB's merge-path partition. Each is timed and profiled with the documented workflow
 * (../deps/measure.sh).
 *
 *   kernel      one thread                                                   grid
 *   ga_search1  binary search of one key in a sorted array of `size` floats  1 block
 *               (log2 size dependent loads)
 *   ga_mpath1   merge-path split of two sorted arrays of `size` floats each  1 block
 *               at diagonal t 2 size / T: two loads a step, log2 size steps
 *   ga_chase1   128 dependent loads p = next[p], a random cycle of 2^22      1 block
 *               words (16 MiB, in L2), its own start
 *   ga_search   binary search of one key of 2^20 in a sorted array of        2^20 / T
 *               `size` floats
 *   ga_gather   out[i] = a[idx[i]] for 2^24 random indices into `size`       2^24 / T
 *               floats
 *
 * Usage and output as ../deps/deps.cu:
 *   gather [--kernels ga_x,...] [--threads 64,...] [--launches 40] [--warmup 5]
 *          [--launch-log FILE] [--info]
 * --launches 0: profiling mode (one warm-up pass over the inputs, then ONE checked launch,
 * logged as "kernel,size,threads,blocks"). Exit 1 if a check failed, 2 on a CUDA error.
 */
#include "../common/pn_bench.cuh"

#include <algorithm>
#include <memory>

#define G_QUERIES (1L << 20)
#define G_GATHER (1L << 24)
#define G_CHASE_N (1L << 22)
#define G_CHASE_STEPS 128

static unsigned *g_sink = nullptr;

/* The first index of a[0..n) whose value is not below key (a sorted). */
__device__ __forceinline__ int g_lower_bound(const float *__restrict__ a, int n, float key)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

__global__ void ga_search1(const float *__restrict__ a, int n, const float *__restrict__ keys,
                           int *__restrict__ out)
{
    out[threadIdx.x] = g_lower_bound(a, n, keys[threadIdx.x]);
}

__global__ void ga_search(const float *__restrict__ a, int n, const float *__restrict__ keys,
                          int *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = g_lower_bound(a, n, keys[i]);
}

/* How many of the first d merged elements of a and b (n each) come from a. */
__global__ void ga_mpath1(const float *__restrict__ a, const float *__restrict__ b, int n,
                          int *__restrict__ out)
{
    long d = 2L * n * threadIdx.x / blockDim.x;
    int lo = d > n ? (int)(d - n) : 0, hi = d < n ? (int)d : n;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (a[mid] <= b[d - 1 - mid]) lo = mid + 1;
        else hi = mid;
    }
    out[threadIdx.x] = lo;
}

__global__ void ga_chase1(const unsigned *__restrict__ next, unsigned *__restrict__ out)
{
    unsigned p = threadIdx.x * 4099u;
    for (int s = 0; s < G_CHASE_STEPS; s++) p = next[p];
    out[threadIdx.x] = p;
}

__global__ void ga_gather(const float *__restrict__ a, const int *__restrict__ idx,
                          float *__restrict__ out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[idx[i]];
}

/* ---- host side ----------------------------------------------------------------------------- */

/* One kernel at one size: its inputs, its launch and the CPU reference. */
struct g_case {
    const char *k;
    long size;
    std::vector<float> a, b, keys;
    std::vector<int> idx;
    std::vector<unsigned> next;
    float *da = nullptr, *db = nullptr, *dkeys = nullptr, *dfo = nullptr;
    int *didx = nullptr, *dio = nullptr;
    unsigned *dnext = nullptr, *duo = nullptr;

    static std::vector<float> sorted(long n, uint64_t *seed)
    {
        std::vector<float> v(n);
        for (auto &x : v) x = pn_randf(seed);
        std::sort(v.begin(), v.end());
        return v;
    }
    g_case(const char *k_, long size_, uint64_t seed) : k(k_), size(size_)
    {
        if (!strcmp(k, "ga_chase1")) {
            std::vector<unsigned> v(G_CHASE_N);
            for (long i = 0; i < G_CHASE_N; i++) v[i] = (unsigned)i;
            for (long i = G_CHASE_N - 1; i > 0; i--) std::swap(v[i], v[pn_rand64(&seed) % i]);
            next.resize(G_CHASE_N);
            for (long i = 0; i < G_CHASE_N; i++) next[v[i]] = v[(i + 1) % G_CHASE_N];
            dnext = pn_dev_copy(next);
            PN_CK(cudaMalloc(&duo, 1024 * sizeof(unsigned)));
            return;
        }
        a = sorted(size, &seed);
        da = pn_dev_copy(a);
        if (!strcmp(k, "ga_mpath1")) {
            b = sorted(size, &seed);
            db = pn_dev_copy(b);
            PN_CK(cudaMalloc(&dio, 1024 * sizeof(int)));
        } else if (!strcmp(k, "ga_gather")) {
            idx.resize(G_GATHER);
            for (auto &x : idx) x = (int)(pn_rand64(&seed) % (uint64_t)size);
            didx = pn_dev_copy(idx);
            PN_CK(cudaMalloc(&dfo, G_GATHER * sizeof(float)));
        } else {
            keys.resize(!strcmp(k, "ga_search") ? G_QUERIES : 1024);
            for (auto &x : keys) x = pn_randf(&seed);
            dkeys = pn_dev_copy(keys);
            PN_CK(cudaMalloc(&dio, keys.size() * sizeof(int)));
        }
    }
    ~g_case()
    {
        cudaFree(da); cudaFree(db); cudaFree(dkeys); cudaFree(dfo);
        cudaFree(didx); cudaFree(dio); cudaFree(dnext); cudaFree(duo);
    }
    bool one_block() const { return !strcmp(k + strlen(k) - 1, "1"); }
    long blocks(int T) const
    {
        return one_block() ? 1 : !strcmp(k, "ga_search") ? G_QUERIES / T : G_GATHER / T;
    }
    void warm()
    {
        if (dnext) pn_warm_buf(dnext, next.size() * 4, g_sink);
        if (da) pn_warm_buf(da, a.size() * 4, g_sink);
        if (db) pn_warm_buf(db, b.size() * 4, g_sink);
        if (didx) pn_warm_buf(didx, idx.size() * 4, g_sink);
    }
    void launch(int T)
    {
        unsigned nb = (unsigned)blocks(T);
        if (!strcmp(k, "ga_search1")) ga_search1<<<1, T>>>(da, (int)size, dkeys, dio);
        else if (!strcmp(k, "ga_search")) ga_search<<<nb, T>>>(da, (int)size, dkeys, dio);
        else if (!strcmp(k, "ga_mpath1")) ga_mpath1<<<1, T>>>(da, db, (int)size, dio);
        else if (!strcmp(k, "ga_chase1")) ga_chase1<<<1, T>>>(dnext, duo);
        else ga_gather<<<nb, T>>>(da, didx, dfo);
    }
    bool check(int T, std::string *err)
    {
        char m[160];
        if (dnext) {
            std::vector<unsigned> g = pn_host_copy(duo, T);
            for (int t = 0; t < T; t++) {
                unsigned p = t * 4099u;
                for (int s = 0; s < G_CHASE_STEPS; s++) p = next[p];
                if (g[t] != p) { snprintf(m, sizeof m, "thread %d: %u, not %u", t, g[t], p); *err = m; return false; }
            }
            return true;
        }
        if (dfo) {
            std::vector<float> g = pn_host_copy(dfo, G_GATHER);
            for (long i = 0; i < G_GATHER; i++)
                if (g[i] != a[idx[i]]) { snprintf(m, sizeof m, "out[%ld] wrong", i); *err = m; return false; }
            return true;
        }
        long q = db ? T : !strcmp(k, "ga_search") ? G_QUERIES : T;
        std::vector<int> g = pn_host_copy(dio, q);
        for (long t = 0; t < q; t++) {
            long want;
            if (db) {
                long d = 2L * size * t / T;
                long lo = d > size ? d - size : 0, hi = d < size ? d : size;
                while (lo < hi) {
                    long mid = (lo + hi) / 2;
                    if (a[mid] <= b[d - 1 - mid]) lo = mid + 1;
                    else hi = mid;
                }
                want = lo;
            } else
                want = std::lower_bound(a.begin(), a.end(), keys[t]) - a.begin();
            if (g[t] != want) { snprintf(m, sizeof m, "thread %ld: %d, not %ld", t, g[t], want); *err = m; return false; }
        }
        return true;
    }
};

int main(int argc, char **argv)
{
    pn_opts o;
    std::vector<std::string> names;
    pn_parse_set_opts(argc, argv, &o, &names);
    const char *all[] = {"ga_search1", "ga_mpath1", "ga_chase1", "ga_search", "ga_gather"};
    const void *fn[] = {(const void *)ga_search1, (const void *)ga_mpath1, (const void *)ga_chase1,
                        (const void *)ga_search, (const void *)ga_gather};
    const std::vector<long> sizes[] = {{1L << 20, 1L << 24}, {1L << 20}, {G_CHASE_N},
                                       {1L << 20, 1L << 24}, {1L << 20, 1L << 26}};
    if (!pn_names_known(names, all, (int)(sizeof all / sizeof all[0]))) return 2;
    FILE *log = pn_open_launch_log(o);
    PN_CK(cudaMalloc(&g_sink, sizeof(unsigned)));
    int failures = 0;
    const std::vector<int> T1 = {32, 64, 128, 256, 512, 1024}, T5 = {64, 128, 256, 512, 1024};
    for (int ki = 0; ki < 5; ki++) {
        const char *k = all[ki];
        if (!pn_wanted(names, k)) continue;
        cudaFuncAttributes fa;
        PN_CK(cudaFuncGetAttributes(&fa, fn[ki]));
        for (long size : sizes[ki]) {
            std::unique_ptr<g_case> c(new g_case(k, size, o.seed + (uint64_t)size));
            for (int T : o.threads.empty() ? (c->one_block() ? T1 : T5) : o.threads) {
                if (T < 32 || T > 1024 || T % 32) continue;
                failures += !pn_set_point(o, log, k, size, T, c->blocks(T), fa, true,
                                          [&] { c->warm(); }, [] {}, [&] { c->launch(T); },
                                          [&](std::string *err) { return c->check(T, err); });
            }
        }
    }
    if (log) fclose(log);
    PN_CK(cudaFree(g_sink));
    return failures ? 1 : 0;
}
