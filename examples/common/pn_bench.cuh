/* pn_bench.cuh - shared helpers of the pnsim example kernels: error checks, a fixed-seed
 * PRNG, argument lists, per-launch CUDA-event timing and percentile statistics.
 *
 * Header-only (each example is one translation unit). Every CUDA call is checked; on any
 * error the program prints file:line, the call and the CUDA message, and exits with 2.
 */
#ifndef PN_BENCH_CUH
#define PN_BENCH_CUH

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define PN_CK(call)                                                                  \
    do {                                                                             \
        cudaError_t pn_e_ = (call);                                                  \
        if (pn_e_ != cudaSuccess) {                                                  \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
                    cudaGetErrorString(pn_e_));                                      \
            exit(2);                                                                 \
        }                                                                            \
    } while (0)

/* After every launch: a launch-configuration error shows here, an execution error at the
 * next synchronising call (also checked). */
#define PN_CK_LAUNCH() PN_CK(cudaGetLastError())

/* splitmix64: small, fixed-seed, identical on every host. */
static inline uint64_t pn_rand64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* "64,128,256" -> {64,128,256}; exits on a malformed list. */
static std::vector<int> pn_parse_list(const char *s)
{
    std::vector<int> v;
    const char *p = s;
    while (*p) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p) {
            fprintf(stderr, "bad integer list '%s'\n", s);
            exit(2);
        }
        v.push_back((int)x);
        p = end;
        if (*p == ',') p++;
    }
    return v;
}

/* Linear interpolation between order statistics (numpy's default); v must be sorted. */
static double pn_pct(const std::vector<double> &v, double q)
{
    if (v.empty()) return NAN;
    double pos = q * (double)(v.size() - 1);
    size_t lo = (size_t)floor(pos);
    size_t hi = std::min(lo + 1, v.size() - 1);
    double f = pos - (double)lo;
    return v[lo] * (1.0 - f) + v[hi] * f;
}

/* Uniform in [-1, 1), 24-bit. */
static float pn_randf(uint64_t *s)
{
    return (float)((double)(pn_rand64(s) >> 40) / 8388608.0 - 1.0);
}

/* A device copy of h (cudaFree it). */
template <class T> static T *pn_dev_copy(const std::vector<T> &h)
{
    T *d;
    PN_CK(cudaMalloc(&d, h.size() * sizeof(T)));
    PN_CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

/* The n elements at d, on the host. */
template <class T> static std::vector<T> pn_host_copy(const T *d, size_t n)
{
    std::vector<T> h(n);
    PN_CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

/* Untimed, unprofiled: reads `words` words so that they are in L2 as after a timed launch. */
__global__ void pn_warm_l2(const unsigned *p, size_t words, unsigned *sink)
{
    unsigned acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
         i += (size_t)gridDim.x * blockDim.x)
        acc ^= p[i];
    if (acc == 0x9e3779b9u) *sink = acc; /* practically never: keeps the loads */
}

/* pn_warm_l2 over `bytes` bytes at p; sink: one device word the program allocated. */
static void pn_warm_buf(const void *p, size_t bytes, unsigned *sink)
{
    pn_warm_l2<<<1056, 256>>>((const unsigned *)p, bytes / 4, sink);
    PN_CK_LAUNCH();
}

/* Keeps the GPU busy for about `ns` nanoseconds (one thread spinning on %globaltimer). */
__global__ void pn_spin(long long ns)
{
    long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}

/* Times `launches` launches after `warmup` untimed ones. Each launch is bracketed by its own
 * pair of CUDA events on the default stream; prep() runs before the start event (untimed:
 * resetting inputs, flushing L2), launch() enqueues exactly one kernel. Before the start
 * event a 20 us spin kernel is enqueued, so that the GPU is still busy when the host
 * enqueues the event and the launch: the interval then holds the kernel's own time on the
 * GPU, not the host's launch latency. Returns the per-launch times in microseconds, sorted. */
template <class Prep, class Launch>
static std::vector<double> pn_time_launches(int warmup, int launches, Prep prep, Launch launch)
{
    cudaEvent_t e0, e1;
    PN_CK(cudaEventCreate(&e0));
    PN_CK(cudaEventCreate(&e1));
    std::vector<double> us;
    for (int i = 0; i < warmup + launches; i++) {
        prep();
        pn_spin<<<1, 1>>>(20000);
        PN_CK(cudaEventRecord(e0, 0));
        launch();
        PN_CK_LAUNCH();
        PN_CK(cudaEventRecord(e1, 0));
        PN_CK(cudaEventSynchronize(e1));
        float ms = 0.f;
        PN_CK(cudaEventElapsedTime(&ms, e0, e1));
        if (i >= warmup) us.push_back(1000.0 * (double)ms);
    }
    PN_CK(cudaEventDestroy(e0));
    PN_CK(cudaEventDestroy(e1));
    std::sort(us.begin(), us.end());
    return us;
}

/* One row of times.csv: kernel,threads,params,median_us,p10_us,p90_us,launches */
static void pn_print_time_row(const char *kernel, int threads, const std::string &params,
                              const std::vector<double> &us)
{
    printf("%s,%d,%s,%.3f,%.3f,%.3f,%zu\n", kernel, threads, params.c_str(), pn_pct(us, 0.5),
           pn_pct(us, 0.1), pn_pct(us, 0.9), us.size());
    fflush(stdout);
}

/* Appends "kernel,threads,params" to the launch log (one line per profiled-able launch, in
 * launch order) so that ncu's results, numbered in launch order, can be labelled. */
static void pn_log_launch(FILE *log, const char *kernel, int threads, const std::string &params)
{
    if (!log) return;
    fprintf(log, "%s,%d,%s\n", kernel, threads, params.c_str());
    fflush(log);
}

/* Device facts as "# key: value" lines (for the header of times.csv). */
static void pn_print_devinfo(void)
{
    int dev = 0, v = 0;
    cudaDeviceProp p;
    PN_CK(cudaGetDevice(&dev));
    PN_CK(cudaGetDeviceProperties(&p, dev));
    printf("# device: %s (cc %d.%d)\n", p.name, p.major, p.minor);
    printf("# multiprocessors: %d\n", p.multiProcessorCount);
    printf("# l2_bytes: %d\n", p.l2CacheSize);
    printf("# shared_per_sm_bytes: %zu\n", p.sharedMemPerMultiprocessor);
    printf("# shared_per_block_optin_bytes: %zu\n", p.sharedMemPerBlockOptin);
    printf("# regs_per_sm: %d\n", p.regsPerMultiprocessor);
    printf("# max_threads_per_sm: %d\n", p.maxThreadsPerMultiProcessor);
    PN_CK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, dev));
    printf("# attr_sm_clock_khz: %d\n", v);
    PN_CK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, dev));
    printf("# attr_mem_clock_khz: %d\n", v);
    PN_CK(cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, dev));
    printf("# attr_mem_bus_bits: %d\n", v);
    PN_CK(cudaDriverGetVersion(&v));
    printf("# cuda_driver_api: %d\n", v);
    PN_CK(cudaRuntimeGetVersion(&v));
    printf("# cuda_runtime: %d\n", v);
}

/* Common command-line options of the example programs. */
struct pn_opts {
    std::vector<int> threads;
    int warmup = 5;
    int launches = 50;
    uint64_t seed = 20240607ull;
    const char *launch_log = nullptr; /* --launch-log FILE */
    const char *bbv_dir = nullptr;    /* --bbv-dir DIR (PN_BBV builds) */
    bool info = false;                /* --info: device facts, then exit */
    bool blocks = false;              /* --blocks: print the block table, then exit */
    bool counts = false;              /* --counts: print counts.csv, then exit */
};

/* Parses the common options; an option it does not know is passed to extra(name, value),
 * which returns false to reject it. */
template <class Extra>
static void pn_parse_opts(int argc, char **argv, pn_opts *o, Extra extra)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : nullptr;
        if (!strcmp(a, "--info")) { o->info = true; continue; }
        if (!strcmp(a, "--blocks")) { o->blocks = true; continue; }
        if (!strcmp(a, "--counts")) { o->counts = true; continue; }
        if (!val) {
            fprintf(stderr, "%s: option %s needs a value\n", argv[0], a);
            exit(2);
        }
        if (!strcmp(a, "--threads")) o->threads = pn_parse_list(val);
        else if (!strcmp(a, "--warmup")) o->warmup = atoi(val);
        else if (!strcmp(a, "--launches")) o->launches = atoi(val);
        else if (!strcmp(a, "--seed")) o->seed = strtoull(val, nullptr, 10);
        else if (!strcmp(a, "--launch-log")) o->launch_log = val;
        else if (!strcmp(a, "--bbv-dir")) o->bbv_dir = val;
        else if (!extra(a, val)) {
            fprintf(stderr, "%s: unknown option %s\n", argv[0], a);
            exit(2);
        }
        i++;
    }
}

/* A throughput probe's command line, `probe CLOCK_MHZ [LAUNCHES]`: the SM clock (default
 * 1980 MHz), the timed launches (default 10 after 2 warm-ups; 1: one launch and no warm-up,
 * as under ncu) into *mhz, *launches, *warm; returns the device's SM count. */
static int pn_probe_args(int argc, char **argv, double *mhz, int *launches, int *warm)
{
    *mhz = argc > 1 ? atof(argv[1]) : 1980.0;
    *launches = argc > 2 ? atoi(argv[2]) : 10;
    if (*launches < 1) *launches = 1;
    *warm = *launches > 1 ? 2 : 0;
    int sms = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    return sms;
}

/* The median over `reps` runs of launch() (one kernel that writes its block 0's clock64
 * cycles to *cyc) of those cycles: the probes' timing of a loop from inside. */
template <class Launch>
static double pn_clock_median(long long *cyc, int reps, Launch launch)
{
    std::vector<double> v;
    for (int rep = 0; rep < reps; rep++) {
        launch();
        PN_CK_LAUNCH();
        long long h;
        PN_CK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
        v.push_back((double)h);
    }
    std::sort(v.begin(), v.end());
    return pn_pct(v, 0.5);
}

/* The median over `reps` runs of launch() (a kernel of `blocks` blocks, each writing its
 * clock64 cycles to cyc[blockIdx.x]) of the median block's cycles (the sorted blocks'
 * [blocks / 2]): the probes that give each SM one block and time a loop from inside. */
template <class Launch>
static double pn_grid_clock_median(long long *cyc, int blocks, int reps, Launch launch)
{
    std::vector<long long> h(blocks);
    std::vector<double> v;
    for (int rep = 0; rep < reps; rep++) {
        launch();
        PN_CK_LAUNCH();
        PN_CK(cudaMemcpy(h.data(), cyc, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
        std::sort(h.begin(), h.end());
        v.push_back((double)h[blocks / 2]);
    }
    std::sort(v.begin(), v.end());
    return pn_pct(v, 0.5);
}

/* The example sets' options: the common ones with 40 timed launches after 5 warm-ups by
 * default, and --kernels K1,K2,... into names (empty: every kernel); --info prints the
 * device facts and exits. */
static void pn_parse_set_opts(int argc, char **argv, pn_opts *o, std::vector<std::string> *names)
{
    o->launches = 40;
    o->warmup = 5;
    pn_parse_opts(argc, argv, o, [&](const char *name, const char *val) {
        if (strcmp(name, "--kernels")) return false;
        std::string s = val;
        for (size_t p = 0; p <= s.size();) {
            size_t e = s.find(',', p);
            if (e == std::string::npos) e = s.size();
            if (e > p) names->push_back(s.substr(p, e - p));
            p = e + 1;
        }
        return true;
    });
    if (o->info) {
        pn_print_devinfo();
        exit(0);
    }
}

/* The launch log of --launch-log, opened to append; NULL without the option. A log that
 * cannot be opened ends the program: its name and the reason on stderr, exit status 2. */
static FILE *pn_open_launch_log(const pn_opts &o)
{
    if (!o.launch_log) return nullptr;
    FILE *log = fopen(o.launch_log, "a");
    if (!log) {
        perror(o.launch_log);
        exit(2);
    }
    return log;
}

/* Is every --kernels name one of the n kernels of all? Prints "unknown kernel 'X'" for the
 * first that is not. */
static bool pn_names_known(const std::vector<std::string> &names, const char *const *all, int n)
{
    for (auto &s : names) {
        bool known = false;
        for (int i = 0; i < n; i++) known = known || s == all[i];
        if (!known) { fprintf(stderr, "unknown kernel '%s'\n", s.c_str()); return false; }
    }
    return true;
}

/* One point of an example set (kernel k at `size`, T threads a block, nb blocks): in
 * profiling mode (--launches 0) warm() its inputs and log "k,size,T,nb"; then one
 * prep() + launch(), checked by check(&err) ("k T=T: WRONG: err" on stderr, or "k
 * size=size T=T: ..." with show_size, and false); when timing, the row "k,size,T,nb,
 * registers,shared_bytes,median_us,p10_us,p90_us,launches" of pn_time_launches(prep,
 * launch). */
template <class Warm, class Prep, class Launch, class Check>
static bool pn_set_point(const pn_opts &o, FILE *log, const char *k, long size, int T, long nb,
                         const cudaFuncAttributes &fa, bool show_size, Warm warm, Prep prep,
                         Launch launch, Check check)
{
    if (o.launches <= 0) {
        warm();
        if (log) { fprintf(log, "%s,%ld,%d,%ld\n", k, size, T, nb); fflush(log); }
    }
    prep();
    launch();
    PN_CK_LAUNCH();
    PN_CK(cudaDeviceSynchronize());
    std::string err;
    if (!check(&err)) {
        if (show_size)
            fprintf(stderr, "%s size=%ld T=%d: WRONG: %s\n", k, size, T, err.c_str());
        else
            fprintf(stderr, "%s T=%d: WRONG: %s\n", k, T, err.c_str());
        return false;
    }
    if (o.launches <= 0) return true;
    std::vector<double> us = pn_time_launches(o.warmup, o.launches, prep, launch);
    printf("%s,%ld,%d,%ld,%d,%zu,%.3f,%.3f,%.3f,%zu\n", k, size, T, nb, fa.numRegs,
           fa.sharedSizeBytes, pn_pct(us, 0.5), pn_pct(us, 0.1), pn_pct(us, 0.9), us.size());
    fflush(stdout);
    return true;
}

/* Is kernel k selected (named by --kernels, or none named)? */
static bool pn_wanted(const std::vector<std::string> &names, const char *k)
{
    bool want = names.empty();
    for (auto &s : names) want = want || s == k;
    return want;
}

#endif /* PN_BENCH_CUH */
