/* async.cu - loads that go to shared memory asynchronously (cp.async: LDGSTS, committed in
 * groups by LDGDEPBAR and waited for by DEPBAR.LE SB0, N): the pipelines of tiled kernels from
 * libraries and compilers (CUTLASS, Triton) that keep S - 1 tiles in flight while one is used.
 * They check how pnsim's sass engine waits for such loads (doc/dependencies.md): each is timed
 * and profiled with the documented workflow (../deps/measure.sh).
 *
 *   kernel      one thread                                                  grid
 *   as_pipe     S stages (size column = S = 1..4): a ring of S float4 slots a  132 blocks (one
 *               thread in dynamic shared memory; it copies tile k + S - 1      per SM), each
 *               with cp.async 16 bytes, commits it, waits until tile k is     over its share
 *               in (cp.async.wait_group S - 1) and adds two products of it    of 2^24 floats
 *               (S = 1: each tile's latency in turn; S >= 2: S - 1 in flight) (64 MiB) in tiles
 *                                                                             of 4 T floats
 *
 * Usage and output as ../deps/deps.cu:
 *   async [--kernels as_pipe] [--threads 64,...] [--launches 40] [--warmup 5]
 *         [--launch-log FILE] [--info]
 * --launches 0: profiling mode (one warm-up pass over the input, then ONE checked launch,
 * logged as "kernel,size,threads,blocks"). Exit 1 if a check failed, 2 on a CUDA error.
 */
#include "../common/pn_bench.cuh"

#define AS_SMS 132
#define AS_N (1L << 24)

static unsigned *g_sink = nullptr;

static __device__ __forceinline__ void as_copy16(void *smem, const void *gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}

static __device__ __forceinline__ void as_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N> static __device__ __forceinline__ void as_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/* Thread x of block b sums v.x v.y + v.z v.w over in[t T + x] for its block's tiles t = b,
 * b + grid, ...; each thread reads back only what it copied, so no barrier is needed. */
template <int S> __global__ void as_pipe(const float4 *__restrict__ in, float *__restrict__ out,
                                         long ntiles)
{
    extern __shared__ float4 ring[]; /* S slots of blockDim.x */
    const int T = blockDim.x, x = threadIdx.x;
    const long step = gridDim.x;
    long t = blockIdx.x;
    for (int s = 0; s < S - 1; s++) {
        long u = t + s * step;
        if (u < ntiles) as_copy16(&ring[s * T + x], &in[u * T + x]);
        as_commit();
    }
    float acc = 0.f;
    for (int k = 0; t < ntiles; t += step, k++) {
        long u = t + (S - 1) * step;
        if (u < ntiles) as_copy16(&ring[((k + S - 1) % S) * T + x], &in[u * T + x]);
        as_commit();
        as_wait<S - 1>();
        float4 v = ring[(k % S) * T + x];
        acc = fmaf(v.x, v.y, acc);
        acc = fmaf(v.z, v.w, acc);
    }
    out[(long)blockIdx.x * T + x] = acc;
}

struct as_case {
    int S;
    std::vector<float> in;
    float4 *din = nullptr;
    float *dout = nullptr;
    std::string err;
    as_case(int S_, uint64_t seed) : S(S_)
    {
        in.resize(AS_N);
        for (long i = 0; i < AS_N; i++) in[i] = pn_randf(&seed);
        PN_CK(cudaMalloc(&din, AS_N * sizeof(float)));
        PN_CK(cudaMemcpy(din, in.data(), AS_N * sizeof(float), cudaMemcpyHostToDevice));
        PN_CK(cudaMalloc(&dout, AS_SMS * 1024 * sizeof(float)));
    }
    ~as_case() { cudaFree(din); cudaFree(dout); }
    const void *func() const
    {
        switch (S) {
        case 1: return (const void *)as_pipe<1>;
        case 2: return (const void *)as_pipe<2>;
        case 3: return (const void *)as_pipe<3>;
        default: return (const void *)as_pipe<4>;
        }
    }
    size_t smem(int T) const { return (size_t)S * T * sizeof(float4); }
    void launch(int T)
    {
        long ntiles = AS_N / (4L * T);
        switch (S) {
        case 1: as_pipe<1><<<AS_SMS, T, smem(T)>>>(din, dout, ntiles); break;
        case 2: as_pipe<2><<<AS_SMS, T, smem(T)>>>(din, dout, ntiles); break;
        case 3: as_pipe<3><<<AS_SMS, T, smem(T)>>>(din, dout, ntiles); break;
        default: as_pipe<4><<<AS_SMS, T, smem(T)>>>(din, dout, ntiles); break;
        }
    }
    bool check(int T)
    {
        std::vector<float> got = pn_host_copy(dout, (size_t)AS_SMS * T);
        long ntiles = AS_N / (4L * T);
        for (int b = 0; b < AS_SMS; b++)
            for (int x = 0; x < T; x++) {
                double ref = 0;
                for (long t = b; t < ntiles; t += AS_SMS) {
                    const float *v = &in[(t * T + x) * 4];
                    ref += (double)v[0] * v[1] + (double)v[2] * v[3];
                }
                double g = got[(size_t)b * T + x];
                if (fabs(g - ref) > 1e-3 * (1 + fabs(ref))) {
                    char m[128];
                    snprintf(m, sizeof m, "block %d thread %d: %g, not %g", b, x, g, ref);
                    err = m;
                    return false;
                }
            }
        return true;
    }
};

int main(int argc, char **argv)
{
    pn_opts o;
    std::vector<std::string> names;
    pn_parse_set_opts(argc, argv, &o, &names);
    for (auto &n : names)
        if (n != "as_pipe") {
            fprintf(stderr, "%s: the only kernel is as_pipe\n", argv[0]);
            return 2;
        }
    const std::vector<int> T5 = {64, 128, 256, 512, 1024};
    FILE *log = pn_open_launch_log(o);
    PN_CK(cudaMalloc(&g_sink, sizeof(unsigned)));
    int failures = 0;
    for (int S = 1; S <= 4; S++) {
        as_case c(S, o.seed + (uint64_t)S);
        PN_CK(cudaFuncSetAttribute(c.func(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)c.smem(1024)));
        cudaFuncAttributes fa;
        PN_CK(cudaFuncGetAttributes(&fa, c.func()));
        for (int T : o.threads.empty() ? T5 : o.threads) {
            if (T < 32 || T > 1024 || T % 32) continue;
            if (o.launches <= 0) {
                pn_warm_buf(c.din, AS_N * sizeof(float), g_sink);
                if (log) { fprintf(log, "as_pipe,%d,%d,%d\n", S, T, AS_SMS); fflush(log); }
            }
            c.launch(T);
            PN_CK_LAUNCH();
            PN_CK(cudaDeviceSynchronize());
            if (!c.check(T)) {
                fprintf(stderr, "as_pipe S=%d T=%d: WRONG: %s\n", S, T, c.err.c_str());
                failures++;
                continue;
            }
            if (o.launches <= 0) continue;
            std::vector<double> us = pn_time_launches(o.warmup, o.launches, [] {}, [&] { c.launch(T); });
            printf("as_pipe,%d,%d,%d,%d,%zu,%.3f,%.3f,%.3f,%zu\n", S, T, AS_SMS, fa.numRegs,
                   fa.sharedSizeBytes + c.smem(T), pn_pct(us, 0.5), pn_pct(us, 0.1),
                   pn_pct(us, 0.9), us.size());
            fflush(stdout);
        }
    }
    if (log) fclose(log);
    PN_CK(cudaFree(g_sink));
    return failures ? 1 : 0;
}
