/* micro.cu - microbenchmarks with exactly known per-warp instruction counts, one block of
 * T threads per launch, for fitting the Petri-net model's per-kind costs.
 *
 * Every payload instruction is inline PTX in an `asm volatile` statement, and each loop
 * trip holds a fixed unrolled group of them (#pragma unroll 1 on the trip loop), so that
 * the SASS inner loop is payload + a constant loop overhead (listed in
 * examples/measure/README.md from cuobjdump -sass). All threads of a warp do the same work.
 *
 *   kernel          payload per step                          K counts        trip
 *   int_alu         add.u32 / xor.b32 alternately, 1 chain    arith ops       16 ops
 *   fp_fma          fma.rn.f32 x = x*y + w, 1 chain           arith ops       16 ops
 *   shared_ld       ld.shared.u32 a, [a]  (pointer chase)     shared loads    16 loads
 *   shared_st       st.volatile.shared.u32 (independent)      shared stores   16 stores
 *   global_ld_dram  ld.global.u64 p, [p]  (pointer chase,     global loads    4 loads
 *                   64 MiB array, L2 flushed before launch)
 *   global_ld_l2    as above, 16 MiB array, L2 warm           global loads    4 loads
 *   mix_g1a8_dep    ld.global p,[p]; 8 add/xor on p's low     global loads    4 steps
 *                   word (adding/xoring runtime zeros): the
 *                   next load waits for the 8 ops (L2 warm)
 *   mix_g1a8_ind    ld.global p,[p]; 8 add/xor on another     global loads    4 steps
 *                   register (independent of the load)
 *   mix_s1a4_dep    ld.shared a,[a]; 4 add/xor on a           shared loads    16 steps
 *
 * Memory layout: shared chains step 32 words, so a warp's 32 lanes hit 32 different banks
 * (no conflicts); a global chain is a random sequence of distinct 128-byte lines, one per
 * warp and step, lane l reading the 8-byte slot l%16 of the line: one line (4 sectors) per
 * warp load, and no line is visited twice in a launch.
 * The per-warp counts (payload + the explicit memory operations around it: shared
 * initialisation stores, one final global store of each thread's result) are printed by
 * --counts (examples/micro/counts.csv). Results are checked against the host's expectation.
 *
 * Usage: micro [--kernels a,b] [--threads 32,...,1024] [--ks 0,256] [--launches 200]
 *              [--warmup 10] [--launch-log FILE] [--counts] [--info]
 * Exit status 0 if every result was as expected, 1 otherwise, 2 on a CUDA error.
 */
#include "../common/pn_bench.cuh"

#define PN_U 16       /* payload ops per trip: int_alu, fp_fma, shared_* , mix_s1a4_dep */
#define PN_UG 4       /* steps per trip: global_*, mix_g1a8_* */
#define PN_SWORDS 1024 /* words in the shared chase array */
#define PN_KMAX_G 1024 /* longest global chain (steps per warp) */

/* ---- arithmetic ---------------------------------------------------------------------- */

__global__ void pn_micro_int(unsigned *out, unsigned z, unsigned zx, int trips)
{
    unsigned x = threadIdx.x;
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < PN_U / 2; j++) {
            asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(z));
            asm volatile("xor.b32 %0, %0, %1;" : "+r"(x) : "r"(zx));
        }
    }
    out[threadIdx.x] = x;
}

__global__ void pn_micro_fma(unsigned *out, float y, float w, int trips)
{
    float x = (float)threadIdx.x;
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < PN_U; j++)
            asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(y), "f"(w));
    }
    out[threadIdx.x] = __float_as_uint(x);
}

/* ---- shared memory ------------------------------------------------------------------- */

/* s[i] holds the shared address of s[(i + 32) % PN_SWORDS]; PN_SWORDS/T stores a thread. */
__device__ __forceinline__ unsigned pn_shared_chain_init(unsigned *s)
{
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    for (int i = threadIdx.x; i < PN_SWORDS; i += blockDim.x)
        s[i] = base + 4u * ((i + 32) & (PN_SWORDS - 1));
    __syncthreads();
    return base;
}

__global__ void pn_micro_shld(unsigned *out, int trips)
{
    __shared__ unsigned s[PN_SWORDS];
    unsigned a = pn_shared_chain_init(s) + 4u * threadIdx.x;
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < PN_U; j++)
            asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
    }
    out[threadIdx.x] = a;
}

#define PN_STS(off) asm volatile("st.volatile.shared.u32 [%0+" #off "], %1;" ::"r"(a), "r"(v) : "memory")

__global__ void pn_micro_shst(unsigned *out, unsigned v, int trips)
{
    __shared__ unsigned s[PN_SWORDS];
    unsigned a = (unsigned)__cvta_generic_to_shared(s) + 4u * (threadIdx.x & 31);
#pragma unroll 1
    for (int t = 0; t < trips; t++) { /* 16 stores, 128 bytes apart: words lane + 32*j */
        PN_STS(0);    PN_STS(128);  PN_STS(256);  PN_STS(384);
        PN_STS(512);  PN_STS(640);  PN_STS(768);  PN_STS(896);
        PN_STS(1024); PN_STS(1152); PN_STS(1280); PN_STS(1408);
        PN_STS(1536); PN_STS(1664); PN_STS(1792); PN_STS(1920);
    }
    __syncthreads();
    out[threadIdx.x] = trips > 0 ? s[threadIdx.x & 511] : v; /* 1 shared read if trips > 0 */
}

__global__ void pn_micro_mix_s1a4(unsigned *out, unsigned z, unsigned zx, int trips)
{
    __shared__ unsigned s[PN_SWORDS];
    unsigned a = pn_shared_chain_init(s) + 4u * threadIdx.x;
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < PN_U; j++)
            asm volatile("ld.shared.u32 %0, [%0];\n\t"
                         "add.u32 %0, %0, %1;\n\t"
                         "xor.b32 %0, %0, %2;\n\t"
                         "add.u32 %0, %0, %1;\n\t"
                         "xor.b32 %0, %0, %2;"
                         : "+r"(a)
                         : "r"(z), "r"(zx));
    }
    out[threadIdx.x] = a;
}

/* ---- global memory ------------------------------------------------------------------- */

/* Warp w starts at line w of the chain, lane l at its slot l % 16. */
__device__ __forceinline__ unsigned long long pn_global_chain_start(unsigned long long *chain)
{
    return (unsigned long long)(chain + (threadIdx.x >> 5) * 16 + (threadIdx.x & 15));
}

__global__ void pn_micro_gld(unsigned *out, unsigned long long *chain, int trips)
{
    unsigned long long p = pn_global_chain_start(chain);
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < PN_UG; j++)
            asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
    }
    out[threadIdx.x] = (unsigned)p;
}

__global__ void pn_micro_mix_g1a8_dep(unsigned *out, unsigned long long *chain, unsigned z,
                                      unsigned zx, int trips)
{
    unsigned long long p = pn_global_chain_start(chain);
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < PN_UG; j++)
            asm volatile("{\n\t.reg .u32 lo, hi;\n\t"
                         "ld.global.u64 %0, [%0];\n\t"
                         "mov.b64 {lo, hi}, %0;\n\t"
                         "add.u32 lo, lo, %1;\n\txor.b32 lo, lo, %2;\n\t"
                         "add.u32 lo, lo, %1;\n\txor.b32 lo, lo, %2;\n\t"
                         "add.u32 lo, lo, %1;\n\txor.b32 lo, lo, %2;\n\t"
                         "add.u32 lo, lo, %1;\n\txor.b32 lo, lo, %2;\n\t"
                         "mov.b64 %0, {lo, hi};\n\t}"
                         : "+l"(p)
                         : "r"(z), "r"(zx));
    }
    out[threadIdx.x] = (unsigned)p;
}

__global__ void pn_micro_mix_g1a8_ind(unsigned *out, unsigned long long *chain, unsigned z,
                                      unsigned zx, int trips)
{
    unsigned long long p = pn_global_chain_start(chain);
    unsigned x = threadIdx.x;
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < PN_UG; j++)
            asm volatile("ld.global.u64 %0, [%0];\n\t"
                         "add.u32 %1, %1, %2;\n\txor.b32 %1, %1, %3;\n\t"
                         "add.u32 %1, %1, %2;\n\txor.b32 %1, %1, %3;\n\t"
                         "add.u32 %1, %1, %2;\n\txor.b32 %1, %1, %3;\n\t"
                         "add.u32 %1, %1, %2;\n\txor.b32 %1, %1, %3;"
                         : "+l"(p), "+r"(x)
                         : "r"(z), "r"(zx));
    }
    out[threadIdx.x] = (unsigned)p ^ x; /* x == threadIdx.x since z = zx = 0 */
}

/* ---- host ------------------------------------------------------------------------------ */

enum pn_kind { K_INT, K_FMA, K_SHLD, K_SHST, K_GDRAM, K_GL2, K_MGDEP, K_MGIND, K_MSDEP };

struct pn_micro {
    const char *name;
    enum pn_kind kind;
    int unroll;            /* payload steps per trip */
    std::vector<int> ks;   /* default K sweep */
};

static const pn_micro PN_MICROS[] = {
    {"int_alu", K_INT, PN_U, {0, 256, 1024, 4096}},
    {"fp_fma", K_FMA, PN_U, {0, 256, 1024, 4096}},
    {"shared_ld", K_SHLD, PN_U, {0, 256, 1024, 4096}},
    {"shared_st", K_SHST, PN_U, {0, 256, 1024, 4096}},
    {"global_ld_dram", K_GDRAM, PN_UG, {0, 64, 256, 1024}},
    {"global_ld_l2", K_GL2, PN_UG, {0, 64, 256, 1024}},
    {"mix_g1a8_dep", K_MGDEP, PN_UG, {0, 64, 256, 1024}},
    {"mix_g1a8_ind", K_MGIND, PN_UG, {0, 64, 256, 1024}},
    {"mix_s1a4_dep", K_MSDEP, PN_U, {0, 256, 1024, 4096}},
};
#define PN_NMICRO (int)(sizeof PN_MICROS / sizeof PN_MICROS[0])

/* Per-warp counts of one launch: payload plus the explicit memory operations around it
 * (shared chain initialisation: PN_SWORDS/T stores a thread; shared_st's final read when
 * K > 0; one global store of each thread's result). Loop and address overhead excluded. */
static void pn_counts(enum pn_kind k, int T, long K, long *arith, long *shared, long *global)
{
    long init = PN_SWORDS / T;
    *arith = 0;
    *shared = 0;
    *global = 1;
    switch (k) {
    case K_INT: case K_FMA: *arith = K; break;
    case K_SHLD: *shared = K + init; break;
    case K_SHST: *shared = K + (K > 0 ? 1 : 0); break;
    case K_GDRAM: case K_GL2: *global = K + 1; break;
    case K_MGDEP: case K_MGIND: *arith = 8 * K; *global = K + 1; break;
    case K_MSDEP: *arith = 4 * K; *shared = K + init; break;
    }
}

/* A global chain: `lines` 128-byte lines; warp w (w < 32) walks line w, then PN_KMAX_G
 * distinct random lines (no line shared between warps), then back to line w. seq[w][k] is
 * the line a warp reads at step k. */
struct pn_chain {
    unsigned long long *dev = nullptr;
    size_t lines = 0;
    std::vector<std::vector<size_t>> seq;
};

static void pn_chain_build(pn_chain *c, size_t bytes, uint64_t seed)
{
    c->lines = bytes / 128;
    std::vector<size_t> pool(c->lines - 32);
    for (size_t i = 0; i < pool.size(); i++) pool[i] = 32 + i;
    uint64_t s = seed;
    for (size_t i = pool.size() - 1; i > 0; i--) { /* Fisher-Yates */
        size_t j = (size_t)(pn_rand64(&s) % (i + 1));
        std::swap(pool[i], pool[j]);
    }
    PN_CK(cudaMalloc(&c->dev, bytes));
    std::vector<unsigned long long> h(bytes / 8, 0ull);
    c->seq.assign(32, {});
    size_t next = 0;
    for (int w = 0; w < 32; w++) {
        std::vector<size_t> &q = c->seq[w];
        q.push_back((size_t)w);
        for (int k = 0; k < PN_KMAX_G; k++) q.push_back(pool[next++]);
        for (size_t k = 0; k < q.size(); k++) {
            size_t to = q[(k + 1) % q.size()];
            for (int slot = 0; slot < 16; slot++)
                h[q[k] * 16 + slot] = (unsigned long long)(c->dev + to * 16 + slot);
        }
    }
    PN_CK(cudaMemcpy(c->dev, h.data(), bytes, cudaMemcpyHostToDevice));
}

/* The value thread tid of a global-chain kernel leaves after K steps (low 32 bits of p). */
static unsigned pn_chain_expect(const pn_chain &c, int tid, long K)
{
    const std::vector<size_t> &q = c.seq[tid >> 5];
    size_t line = q[(size_t)K % q.size()];
    return (unsigned)(unsigned long long)(c.dev + line * 16 + (tid & 15));
}

int main(int argc, char **argv)
{
    pn_opts o;
    o.threads = {32, 64, 128, 256, 512, 1024};
    o.launches = 200;
    o.warmup = 10;
    std::vector<std::string> names;
    std::vector<int> ks_override;
    pn_parse_opts(argc, argv, &o, [&](const char *name, const char *val) {
        if (!strcmp(name, "--ks")) { ks_override = pn_parse_list(val); return true; }
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
    std::vector<const pn_micro *> sel;
    for (int i = 0; i < PN_NMICRO; i++) {
        bool want = names.empty();
        for (auto &n : names) want = want || n == PN_MICROS[i].name;
        if (want) sel.push_back(&PN_MICROS[i]);
    }
    if (o.counts) {
        printf("kernel,threads,K,arith,shared,global\n");
        for (auto m : sel)
            for (int T : o.threads)
                for (int K : ks_override.empty() ? m->ks : ks_override) {
                    long a, s, g;
                    pn_counts(m->kind, T, K, &a, &s, &g);
                    printf("%s,%d,%d,%ld,%ld,%ld\n", m->name, T, K, a, s, g);
                }
        return 0;
    }
    if (o.info) {
        pn_print_devinfo();
        return 0;
    }
    FILE *log = pn_open_launch_log(o);

    int dev = 0;
    cudaDeviceProp prop;
    PN_CK(cudaGetDevice(&dev));
    PN_CK(cudaGetDeviceProperties(&prop, dev));
    size_t flush_bytes = std::max<size_t>((size_t)3 * prop.l2CacheSize, (size_t)64 << 20);
    unsigned *d_out, *d_flush = nullptr;
    PN_CK(cudaMalloc(&d_out, 1024 * sizeof(unsigned)));
    pn_chain dram, l2;
    bool need_dram = false, need_l2 = false;
    for (auto m : sel) {
        need_dram = need_dram || m->kind == K_GDRAM;
        need_l2 = need_l2 || m->kind == K_GL2 || m->kind == K_MGDEP || m->kind == K_MGIND;
    }
    if (need_dram) {
        pn_chain_build(&dram, (size_t)64 << 20, o.seed);
        PN_CK(cudaMalloc(&d_flush, flush_bytes));
    }
    if (need_l2) pn_chain_build(&l2, (size_t)16 << 20, o.seed + 1);
    const unsigned z = 0, zx = 0, v = 0x5a5a5a5au; /* runtime zeros: the compiler can't fold */

    int failures = 0;
    std::vector<unsigned> h_out(1024);
    for (auto m : sel) {
        for (int T : o.threads) {
            for (int K : ks_override.empty() ? m->ks : ks_override) {
                if (T < 32 || T > 1024 || T % 32 || K < 0 || K % m->unroll ||
                    ((m->kind == K_GDRAM || m->kind == K_GL2 || m->kind == K_MGDEP ||
                      m->kind == K_MGIND) && K > PN_KMAX_G)) {
                    fprintf(stderr, "%s T=%d K=%d: invalid\n", m->name, T, K);
                    failures++;
                    continue;
                }
                int trips = K / m->unroll;
                std::string params = "K=" + std::to_string(K) + ";unroll=" + std::to_string(m->unroll);
                auto launch = [&] {
                    switch (m->kind) {
                    case K_INT: pn_micro_int<<<1, T>>>(d_out, z, zx, trips); break;
                    case K_FMA: pn_micro_fma<<<1, T>>>(d_out, 1.0f, 0.0f, trips); break;
                    case K_SHLD: pn_micro_shld<<<1, T>>>(d_out, trips); break;
                    case K_SHST: pn_micro_shst<<<1, T>>>(d_out, v, trips); break;
                    case K_GDRAM: pn_micro_gld<<<1, T>>>(d_out, dram.dev, trips); break;
                    case K_GL2: pn_micro_gld<<<1, T>>>(d_out, l2.dev, trips); break;
                    case K_MGDEP: pn_micro_mix_g1a8_dep<<<1, T>>>(d_out, l2.dev, z, zx, trips); break;
                    case K_MGIND: pn_micro_mix_g1a8_ind<<<1, T>>>(d_out, l2.dev, z, zx, trips); break;
                    case K_MSDEP: pn_micro_mix_s1a4<<<1, T>>>(d_out, z, zx, trips); break;
                    }
                };
                auto check = [&](const char *when) {
                    PN_CK(cudaMemcpy(h_out.data(), d_out, T * sizeof(unsigned), cudaMemcpyDeviceToHost));
                    for (int t = 0; t < T; t++) {
                        unsigned want = 0;
                        switch (m->kind) {
                        case K_INT: want = (unsigned)t; break;
                        case K_FMA: { float f = (float)t; memcpy(&want, &f, 4); break; }
                        case K_SHLD: case K_MSDEP: /* relative to the shared base: compare offsets */
                            want = 4u * (((unsigned)t + 32u * (unsigned)K) & (PN_SWORDS - 1));
                            break;
                        case K_SHST: want = v; break;
                        case K_GDRAM: want = pn_chain_expect(dram, t, K); break;
                        case K_GL2: case K_MGDEP: want = pn_chain_expect(l2, t, K); break;
                        case K_MGIND: want = pn_chain_expect(l2, t, K) ^ (unsigned)t; break;
                        }
                        unsigned got = h_out[t];
                        if (m->kind == K_SHLD || m->kind == K_MSDEP) /* strip the base */
                            got -= h_out[0] - 4u * (((unsigned)0 + 32u * (unsigned)K) & (PN_SWORDS - 1));
                        if (got != want) {
                            fprintf(stderr, "%s T=%d K=%d: WRONG %s at thread %d: %u, want %u\n",
                                    m->name, T, K, when, t, got, want);
                            return false;
                        }
                    }
                    return true;
                };
                PN_CK(cudaMemset(d_out, 0xA5, 1024 * sizeof(unsigned)));
                pn_log_launch(log, m->name, T, params);
                launch();
                PN_CK_LAUNCH();
                PN_CK(cudaDeviceSynchronize());
                if (!check("first launch")) {
                    failures++;
                    continue;
                }
                if (o.launches <= 0) continue;
                int flush_i = 0;
                std::vector<double> us = pn_time_launches(
                    o.warmup, o.launches,
                    [&] {
                        if (m->kind == K_GDRAM) /* evict the chain from L2, untimed */
                            PN_CK(cudaMemsetAsync(d_flush, (flush_i++) & 0xff, flush_bytes, 0));
                    },
                    [&] {
                        pn_log_launch(log, m->name, T, params);
                        launch();
                    });
                if (!check("after timing")) {
                    failures++;
                    continue;
                }
                pn_print_time_row(m->name, T, params, us);
            }
        }
    }
    if (log) fclose(log);
    return failures ? 1 : 0;
}
