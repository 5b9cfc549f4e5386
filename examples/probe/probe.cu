/* probe.cu - microbenchmark probes of the cycle-level parameters of one NVIDIA SM, for the
 * `pipelined:` section of a pnsim device profile (models/pipelined/PIPELINED.md).
 *
 * Prints "# key: value" device lines, then the CSV header `probe,value,unit,detail` and one
 * row per probe on stdout; sweeps and raw numbers go to stderr (probe.log). run_probes.sh
 * adds the nvidia-smi / driver / date header lines.
 *
 * Method. Every cycle count is %clock64 read inside the kernel (SM clock cycles). A probe
 * runs its loop for two trip counts T1 < T2 (median of several launches each) and reports
 * the SLOPE (c(T2) - c(T1)) / (T2 - T1) / ops-per-trip, so that the clock reads, the loop
 * set-up and the pipeline fill/drain cancel. Every payload instruction is inline PTX in an
 * `asm volatile` statement, unrolled 16-64 times per trip (#pragma unroll 1 on the trip
 * loop); the SASS of each loop was checked with cuobjdump (README.md lists what each loop
 * holds). Latency probes run ONE warp (or one thread) in a <<<1, 32>>> block; throughput
 * probes run one block of 1024 threads (32 warps, the whole SM's 4 partitions) unless said.
 *
 * Usage: probe [--quick]      (--quick: fewer repetitions, smoke test)
 * Exit status 0, or 2 on a CUDA error.
 */
#include "../common/pn_bench.cuh"

#include <cstdarg>

typedef unsigned long long u64;

__device__ __forceinline__ u64 pn_clk(void)
{
    u64 t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ u64 pn_gtime(void)
{
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

/* out[0] = cycles, out[1] = ns (where measured), out[2..] = probe-specific. */

/* ---- clock ------------------------------------------------------------------------------- */

__global__ void k_clock(long long ns, u64 *out)
{
    u64 c0 = pn_clk(), g0 = pn_gtime(), g;
    do {
        g = pn_gtime();
    } while ((long long)(g - g0) < ns);
    u64 c1 = pn_clk();
    out[0] = c1 - c0;
    out[1] = g - g0;
}

__global__ void k_empty(void) {}

/* ---- one-warp dependent chains (64 ops a trip) ------------------------------------------ */

#define U_CHAIN 64

__global__ void k_lat_int(unsigned z, unsigned zx, int trips, u64 *out, unsigned *sink)
{
    unsigned x = threadIdx.x;
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < U_CHAIN / 2; j++) {
            asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(z));
            asm volatile("xor.b32 %0, %0, %1;" : "+r"(x) : "r"(zx));
        }
    }
    u64 t1 = pn_clk();
    if (threadIdx.x == 0) out[0] = t1 - t0;
    sink[threadIdx.x] = x;
}

__global__ void k_lat_imad(unsigned y, unsigned z, int trips, u64 *out, unsigned *sink)
{
    unsigned x = threadIdx.x;
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < U_CHAIN; j++) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(y), "r"(z));
    }
    u64 t1 = pn_clk();
    if (threadIdx.x == 0) out[0] = t1 - t0;
    sink[threadIdx.x] = x;
}

__global__ void k_lat_fp(float y, float w, int trips, u64 *out, unsigned *sink)
{
    float x = (float)threadIdx.x;
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < U_CHAIN; j++) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(y), "f"(w));
    }
    u64 t1 = pn_clk();
    if (threadIdx.x == 0) out[0] = t1 - t0;
    sink[threadIdx.x] = __float_as_uint(x);
}

__global__ void k_lat_sfu(int trips, u64 *out, unsigned *sink)
{
    float x = 2.0f + (float)threadIdx.x;
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < U_CHAIN; j++) asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
    }
    u64 t1 = pn_clk();
    if (threadIdx.x == 0) out[0] = t1 - t0;
    sink[threadIdx.x] = __float_as_uint(x);
}

/* Conversions. MODE 0: cvt.rn.f32.s32 then cvt.rzi.s32.f32 alternating (I2F, F2I);
 * MODE 1: F2I only (the int result is reinterpreted as the next float input: mov.b32, no
 * instruction); MODE 2: I2F only (the float result reinterpreted as the next int). Always
 * 64 conversions a trip. */
template <int MODE>
__device__ __forceinline__ void pn_cvt_step(int &i)
{
    if (MODE == 0) {
        float f;
        asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(f) : "r"(i));
        asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(i) : "f"(f));
    } else if (MODE == 1) {
        asm volatile("{\n\t.reg .f32 t;\n\tmov.b32 t, %0;\n\tcvt.rzi.s32.f32 %0, t;\n\t}" : "+r"(i));
    } else {
        asm volatile("{\n\t.reg .f32 t;\n\tcvt.rn.f32.s32 t, %0;\n\tmov.b32 %0, t;\n\t}" : "+r"(i));
    }
}

template <int MODE>
__global__ void k_lat_cvt(int trips, u64 *out, unsigned *sink)
{
    int i = 1000 + (int)threadIdx.x;
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < (MODE == 0 ? U_CHAIN / 2 : U_CHAIN); j++) pn_cvt_step<MODE>(i);
    }
    u64 t1 = pn_clk();
    if (threadIdx.x == 0) out[0] = t1 - t0;
    sink[threadIdx.x] = (unsigned)i;
}

/* ---- many-warp throughput of the same instructions (8 independent chains a thread) ----- */

#define ILP 8
#define U_TP 64 /* ops a trip a thread = ILP chains x 8 */

#define PN_BLOCK_T0()             \
    __syncthreads();              \
    u64 t0 = pn_clk()
#define PN_BLOCK_T1()                                \
    __syncthreads();                                 \
    u64 t1 = pn_clk();                               \
    if (threadIdx.x == 0) out[0] = t1 - t0

__global__ void __launch_bounds__(1024) k_tp_int(unsigned z, unsigned zx, int trips, u64 *out, unsigned *sink)
{
    unsigned x[ILP];
#pragma unroll
    for (int c = 0; c < ILP; c++) x[c] = threadIdx.x + c;
    PN_BLOCK_T0();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < U_TP / ILP / 2; j++)
#pragma unroll
            for (int c = 0; c < ILP; c++) {
                asm volatile("add.u32 %0, %0, %1;" : "+r"(x[c]) : "r"(z));
                asm volatile("xor.b32 %0, %0, %1;" : "+r"(x[c]) : "r"(zx));
            }
    }
    PN_BLOCK_T1();
    unsigned a = 0;
#pragma unroll
    for (int c = 0; c < ILP; c++) a ^= x[c];
    sink[threadIdx.x] = a;
}

__global__ void __launch_bounds__(1024) k_tp_fp(float y, float w, int trips, u64 *out, unsigned *sink)
{
    float x[ILP];
#pragma unroll
    for (int c = 0; c < ILP; c++) x[c] = (float)(threadIdx.x + c);
    PN_BLOCK_T0();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < U_TP / ILP; j++)
#pragma unroll
            for (int c = 0; c < ILP; c++) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x[c]) : "f"(y), "f"(w));
    }
    PN_BLOCK_T1();
    float a = 0.f;
#pragma unroll
    for (int c = 0; c < ILP; c++) a += x[c];
    sink[threadIdx.x] = __float_as_uint(a);
}

__global__ void __launch_bounds__(1024) k_tp_sfu(int trips, u64 *out, unsigned *sink)
{
    float x[ILP];
#pragma unroll
    for (int c = 0; c < ILP; c++) x[c] = 2.0f + (float)(threadIdx.x + c);
    PN_BLOCK_T0();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < U_TP / ILP; j++)
#pragma unroll
            for (int c = 0; c < ILP; c++) asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x[c]));
    }
    PN_BLOCK_T1();
    float a = 0.f;
#pragma unroll
    for (int c = 0; c < ILP; c++) a += x[c];
    sink[threadIdx.x] = __float_as_uint(a);
}

template <int MODE>
__global__ void __launch_bounds__(1024) k_tp_cvt(int trips, u64 *out, unsigned *sink)
{
    int i[ILP];
#pragma unroll
    for (int c = 0; c < ILP; c++) i[c] = 1000 + (int)threadIdx.x + c;
    PN_BLOCK_T0();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < (MODE == 0 ? U_TP / ILP / 2 : U_TP / ILP); j++)
#pragma unroll
            for (int c = 0; c < ILP; c++) pn_cvt_step<MODE>(i[c]);
    }
    PN_BLOCK_T1();
    int a = 0;
#pragma unroll
    for (int c = 0; c < ILP; c++) a ^= i[c];
    sink[threadIdx.x] = (unsigned)a;
}

/* ---- shared memory ----------------------------------------------------------------------- */

#define SH_WORDS 2048

/* One warp: lane l chases s[l], s[l+32], ... (each word holds the shared address of the word
 * 32 further on): 32 lanes, 32 banks, no conflict. */
__global__ void k_lat_shld(int trips, u64 *out, unsigned *sink)
{
    __shared__ unsigned s[SH_WORDS];
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    for (int i = threadIdx.x; i < SH_WORDS; i += blockDim.x) s[i] = base + 4u * ((i + 32) & (SH_WORDS - 1));
    __syncthreads();
    unsigned a = base + 4u * threadIdx.x;
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < U_CHAIN; j++) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
    }
    u64 t1 = pn_clk();
    if (threadIdx.x == 0) out[0] = t1 - t0;
    sink[threadIdx.x] = a - base;
}

/* One warp: 32 back-to-back conflict-free stores a trip (word lane + 32 j). */
__global__ void k_lat_shst(unsigned v, int trips, u64 *out, unsigned *sink)
{
    __shared__ unsigned s[SH_WORDS];
    unsigned a = (unsigned)__cvta_generic_to_shared(s) + 4u * (threadIdx.x & 31);
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < 32; j++)
            asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a + 128u * j), "r"(v + t) : "memory");
    }
    u64 t1 = pn_clk();
    if (threadIdx.x == 0) out[0] = t1 - t0;
    __syncthreads();
    sink[threadIdx.x] = s[threadIdx.x];
}

/* Many warps: 16 independent loads a trip a thread. CONFLICT = 0: warp-wide consecutive
 * words (1 wavefront a load); CONFLICT = 1: lane l reads word 32 l + j (all lanes in bank j,
 * 32 wavefronts a load). The address is a + trip * zero (zero = 0, a kernel argument): with
 * visibly loop-invariant addresses ptxas hoisted the loads out of the loop (seen in the SASS). */
template <int CONFLICT>
__global__ void __launch_bounds__(1024) k_tp_shld(unsigned zero, int trips, u64 *out, unsigned *sink)
{
    __shared__ unsigned s[SH_WORDS];
    for (int i = threadIdx.x; i < SH_WORDS; i += blockDim.x) s[i] = (unsigned)i * 2654435761u;
    unsigned lane = threadIdx.x & 31;
    unsigned a = (unsigned)__cvta_generic_to_shared(s) + (CONFLICT ? 128u * lane : 4u * lane);
    unsigned acc[4] = {0, 0, 0, 0};
    PN_BLOCK_T0();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
        unsigned at = a + (unsigned)t * zero; /* zero == 0 at run time: keeps ptxas from hoisting */
#pragma unroll
        for (int j = 0; j < 16; j++) {
            unsigned v;
            asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(at + (CONFLICT ? 4u * j : 128u * j)));
            acc[j & 3] ^= v;
        }
    }
    PN_BLOCK_T1();
    sink[threadIdx.x] = acc[0] ^ acc[1] ^ acc[2] ^ acc[3];
}

/* ---- global memory: pointer chase (one thread) ------------------------------------------ */

/* warm untimed steps, then `steps` timed steps (steps % 8 == 0). M = CH_CA: ld.global.ca
 * (SASS LDG.E.64.STRONG.SM, L1 allocating); CH_CG: ld.global.cg (LDG.E.64.STRONG.GPU, L2
 * only); CH_PLAIN: ld.global with no cache operator (LDG.E.64, what compiled C++ emits;
 * L1 allocating by default on sm_90). */
enum { CH_CA, CH_CG, CH_PLAIN };

template <int M>
__device__ __forceinline__ void pn_chase_step(u64 &p)
{
    if (M == CH_CG) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
    else if (M == CH_CA) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p)::"memory");
    else asm volatile("ld.global.u64 %0, [%0];" : "+l"(p)::"memory");
}

template <int M>
__global__ void k_chase(const u64 *head, int warm, int steps, u64 *out)
{
    u64 p = (u64)head;
#pragma unroll 1
    for (int i = 0; i < warm; i++) pn_chase_step<M>(p);
    u64 g0 = pn_gtime();
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int i = 0; i < steps; i += 8) {
#pragma unroll
        for (int j = 0; j < 8; j++) pn_chase_step<M>(p);
    }
    u64 t1 = pn_clk();
    u64 g1 = pn_gtime();
    out[0] = t1 - t0;
    out[1] = g1 - g0;
    out[2] = p;
}

/* Writes the links of a chain: *(base + off[i]) = base + off[(i + 1) % n]. */
__global__ void k_link(char *base, const u64 *off, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) *(u64 *)(base + off[i]) = (u64)(base + off[(i + 1) % n]);
}

/* ---- global stores, one warp --------------------------------------------------------------- */

/* 32 coalesced stores a trip (line j of a 4 KiB window that moves through 64 KiB). */
__global__ void k_lat_gst(unsigned *buf, unsigned v, int trips, u64 *out)
{
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
        unsigned *p = buf + ((t & 15) << 10) + (threadIdx.x & 31);
#pragma unroll
        for (int j = 0; j < 32; j++)
            asm volatile("st.global.u32 [%0], %1;" ::"l"(p + 32 * j), "r"(v) : "memory");
    }
    u64 t1 = pn_clk();
    if (threadIdx.x == 0) out[0] = t1 - t0;
}

/* ---- L1 load throughput (many warps, L1-resident, 16 independent loads a trip) ---------- */

/* V4 = 0: 16 ld.global.u32 a trip (default caching: L1; SASS LDG.E), thread t reads word
 * (t % 256) + 256 j: a warp load is one 128-byte line, 4 sectors; footprint 16 KiB. V4 = 1:
 * 8 ld.global.v4.u32 a trip (16 would spill at 64 registers), thread t reads 16 bytes at
 * (t % 64) * 16 + 1024 j: a warp load is 512 bytes, 16 sectors; footprint 8 KiB. The address
 * is p + trip * zero (zero = 0 at run time): loop-invariant addresses were hoisted by ptxas. */
template <int V4>
__global__ void __launch_bounds__(1024) k_tp_lsu(const unsigned *buf, unsigned zero, int trips, u64 *out, unsigned *sink)
{
    const unsigned *p0 = V4 ? buf + 4 * (threadIdx.x & 63) : buf + (threadIdx.x & 255);
    unsigned acc[4] = {0, 0, 0, 0};
    PN_BLOCK_T0();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
        const unsigned *p = p0 + (unsigned)t * zero; /* zero == 0: keeps ptxas from hoisting */
#pragma unroll
        for (int j = 0; j < (V4 ? 8 : 16); j++) {
            if (V4) {
                unsigned a, b, c, d;
                asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                             : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                             : "l"(p + 256 * j));
                acc[j & 3] ^= a ^ b ^ c ^ d;
            } else {
                unsigned a;
                asm volatile("ld.global.u32 %0, [%1];" : "=r"(a) : "l"(p + 256 * j));
                acc[j & 3] ^= a;
            }
        }
    }
    PN_BLOCK_T1();
    sink[threadIdx.x] = acc[0] ^ acc[1] ^ acc[2] ^ acc[3];
}

/* ---- DRAM: device-wide streaming read, L2 flush ------------------------------------------ */

/* Grid-stride read of n int4 (4 independent 16-byte loads a thread a trip). Block 0 thread 0
 * writes clock64 and globaltimer deltas of its lifetime to out[0], out[1]. */
__global__ void k_stream(const int4 *p, size_t n, u64 *out, unsigned *sink)
{
    u64 c0 = 0, g0 = 0;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        g0 = pn_gtime();
        c0 = pn_clk();
    }
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    for (; i + 3 * stride < n; i += 4 * stride) {
        int4 a = p[i], b = p[i + stride], c = p[i + 2 * stride], d = p[i + 3 * stride];
        acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
    }
    for (; i < n; i += stride) {
        int4 a = p[i];
        acc ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    if (acc == 0x7fffffff) sink[0] = (unsigned)acc; /* practically never: keeps the loads */
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        u64 c1 = pn_clk(), g1 = pn_gtime();
        out[0] = c1 - c0;
        out[1] = g1 - g0;
    }
}

/* ---- loads in flight: one block, W warps, K independent loads a warp a round ----------- */

/* Warp w streams its own region of rounds*K consecutive 128-byte lines (region w at
 * w * rounds * K * 128): each warp load is one coalesced line, 4 sectors, never touched before
 * in the launch (L2 flushed before each launch). A round issues K loads, then consumes them
 * (so at most K outstanding a warp); out[0] = cycles of the whole block. */
template <int K>
__global__ void __launch_bounds__(1024) k_inflight(const char *buf, int rounds, u64 *out, unsigned *sink)
{
    const char *p = buf + (size_t)(threadIdx.x >> 5) * rounds * K * 128 + 4 * (threadIdx.x & 31);
    unsigned acc = 0;
    PN_BLOCK_T0();
#pragma unroll 1
    for (int r = 0; r < rounds; r++) {
        unsigned v[K];
#pragma unroll
        for (int k = 0; k < K; k++) asm volatile("ld.global.u32 %0, [%1];" : "=r"(v[k]) : "l"(p + 128 * k));
#pragma unroll
        for (int k = 0; k < K; k++) acc += v[k];
        p += K * 128;
    }
    PN_BLOCK_T1();
    sink[threadIdx.x] = acc;
}

/* ---- barriers -------------------------------------------------------------------------------- */

__global__ void __launch_bounds__(1024) k_barrier(int trips, u64 *out)
{
    __syncthreads();
    u64 t0 = pn_clk();
#pragma unroll 1
    for (int t = 0; t < trips; t++) {
#pragma unroll
        for (int j = 0; j < 16; j++) __syncthreads();
    }
    u64 t1 = pn_clk();
    if (threadIdx.x == 0) out[0] = t1 - t0;
}

/* ==== host ================================================================================== */

static u64 *d_out;
static unsigned *d_sink;
static int g_reps = 5;

static u64 read_out(int i)
{
    u64 v[8];
    PN_CK(cudaDeviceSynchronize());
    PN_CK(cudaMemcpy(v, d_out, sizeof v, cudaMemcpyDeviceToHost));
    return v[i];
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return pn_pct(v, 0.5);
}

/* launch(trips) enqueues one kernel that writes its cycle count to d_out[0]; prep() runs
 * before each launch (untimed: L2 flush). Returns the median cycles at T1 and T2 and the
 * slope per trip. */
struct slope_t {
    double c1, c2, per_trip;
};

template <class Launch, class Prep>
static slope_t slope(int T1, int T2, Launch launch, Prep prep)
{
    std::vector<double> a, b;
    launch(T1); /* warm-up: module load, clocks */
    PN_CK_LAUNCH();
    read_out(0);
    for (int r = 0; r < g_reps; r++) {
        prep();
        launch(T1);
        PN_CK_LAUNCH();
        a.push_back((double)read_out(0));
        prep();
        launch(T2);
        PN_CK_LAUNCH();
        b.push_back((double)read_out(0));
    }
    slope_t s;
    s.c1 = median(a);
    s.c2 = median(b);
    s.per_trip = (s.c2 - s.c1) / (double)(T2 - T1);
    return s;
}

template <class Launch>
static slope_t slope(int T1, int T2, Launch launch)
{
    return slope(T1, T2, launch, [] {});
}

/* Rows are kept and printed at the end (clock_mhz first); a detail never holds ',' or '"'. */
static std::vector<std::string> g_rows;

static void row(const char *probe, double value, const char *unit, const std::string &detail)
{
    std::string d = detail;
    for (auto &ch : d)
        if (ch == ',') ch = ';';
        else if (ch == '"') ch = '\'';
    char buf[2048];
    snprintf(buf, sizeof buf, "%s,%.4f,%s,\"%s\"", probe, value, unit, d.c_str());
    if (!strcmp(probe, "clock_mhz")) g_rows.insert(g_rows.begin(), buf);
    else g_rows.push_back(buf);
    fprintf(stderr, "ROW %-32s %12.4f %-16s %s\n", probe, value, unit, d.c_str());
}

static std::string fmt(const char *f, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

/* Sattolo: a random single cycle over n items. */
static std::vector<size_t> cycle_perm(size_t n, uint64_t *s)
{
    std::vector<size_t> v(n);
    for (size_t i = 0; i < n; i++) v[i] = i;
    for (size_t i = n - 1; i > 0; i--) std::swap(v[i], v[(size_t)(pn_rand64(s) % i)]);
    return v;
}

/* k distinct values of [0, n), random order (k <= n). */
static std::vector<size_t> pick(size_t n, size_t k, uint64_t *s)
{
    std::vector<size_t> v(n);
    for (size_t i = 0; i < n; i++) v[i] = i;
    for (size_t i = 0; i < k; i++) std::swap(v[i], v[i + (size_t)(pn_rand64(s) % (n - i))]);
    v.resize(k);
    return v;
}

/* Links the chain visiting byte offsets off[0], off[1], ... (cyclic) inside base. */
static void link_chain(char *base, const std::vector<size_t> &off)
{
    std::vector<u64> h(off.begin(), off.end());
    u64 *d;
    PN_CK(cudaMalloc(&d, h.size() * 8));
    PN_CK(cudaMemcpy(d, h.data(), h.size() * 8, cudaMemcpyHostToDevice));
    int n = (int)h.size();
    k_link<<<(n + 255) / 256, 256>>>(base, d, n);
    PN_CK_LAUNCH();
    PN_CK(cudaDeviceSynchronize());
    PN_CK(cudaFree(d));
}

int main(int argc, char **argv)
{
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = true;
        else {
            fprintf(stderr, "%s: unknown option %s\n", argv[0], argv[i]);
            return 2;
        }
    }
    if (quick) g_reps = 3;

    int dev = 0;
    cudaDeviceProp prop;
    PN_CK(cudaGetDevice(&dev));
    PN_CK(cudaGetDeviceProperties(&prop, dev));
    const int nsm = prop.multiProcessorCount;
    pn_print_devinfo();

    PN_CK(cudaMalloc(&d_out, 64));
    PN_CK(cudaMalloc(&d_sink, 1 << 20));

    /* Big buffers first (allocation and initialisation untimed). */
    const size_t stream_bytes = (size_t)2 << 30;  /* streamed for DRAM bandwidth */
    const size_t flush_bytes = (size_t)256 << 20; /* L2 flush: 5x the 50 MiB L2 */
    const size_t chase_bytes = (size_t)1 << 30;   /* DRAM chases */
    const size_t infl_bytes = (size_t)8 << 20;    /* loads-in-flight sweep */
    char *d_stream, *d_flush, *d_chase, *d_infl, *d_l1, *d_l2;
    unsigned *d_small;
    PN_CK(cudaMalloc(&d_stream, stream_bytes));
    PN_CK(cudaMalloc(&d_flush, flush_bytes));
    PN_CK(cudaMalloc(&d_chase, chase_bytes));
    PN_CK(cudaMalloc(&d_infl, infl_bytes));
    PN_CK(cudaMalloc(&d_small, 1 << 20));
    PN_CK(cudaMemset(d_stream, 0x5a, stream_bytes));
    PN_CK(cudaMemset(d_flush, 0x3c, flush_bytes));
    PN_CK(cudaMemset(d_chase, 0x00, chase_bytes));
    PN_CK(cudaMemset(d_infl, 0x11, infl_bytes));
    PN_CK(cudaMemset(d_small, 0x22, 1 << 20));
    PN_CK(cudaDeviceSynchronize());
    auto flush = [&] {
        k_stream<<<nsm * 4, 512>>>((const int4 *)d_flush, flush_bytes / 16, d_out + 4, d_sink);
        PN_CK_LAUNCH();
    };

    uint64_t seed = 20240607ull;

    /* ---- clock ---- */
    k_clock<<<1, 1>>>(400LL * 1000 * 1000, d_out); /* 400 ms spin: let the clock rise */
    PN_CK_LAUNCH();
    read_out(0);
    std::vector<double> mhz;
    auto clock_probe = [&] {
        k_clock<<<1, 1>>>(100LL * 1000 * 1000, d_out);
        PN_CK_LAUNCH();
        double c = (double)read_out(0), ns = (double)read_out(1);
        mhz.push_back(c / ns * 1000.0);
        fprintf(stderr, "clock: %.0f cycles / %.0f ns = %.2f MHz\n", c, ns, c / ns * 1000.0);
    };
    clock_probe();

    /* ---- launch overhead (exactly pn_bench.cuh's per-launch timing) ---- */
    {
        std::vector<double> us = pn_time_launches(20, quick ? 50 : 200, [] {}, [] { k_empty<<<1, 32>>>(); });
        row("launch_overhead_us", pn_pct(us, 0.5), "us",
            fmt("empty kernel <<<1,32>>>; pn_time_launches (20 us spin then event pair per launch); median of %zu "
                "(p10 %.3f p90 %.3f)",
                us.size(), pn_pct(us, 0.1), pn_pct(us, 0.9)));
    }

    /* ---- one-warp chains ---- */
    const int T1 = 64, T2 = 256;
    const unsigned z = 0, zx = 0;
    {
        slope_t s = slope(T1, T2, [&](int t) { k_lat_int<<<1, 32>>>(z, zx, t, d_out, d_sink); });
        row("lat_int", s.per_trip / U_CHAIN, "cycles",
            fmt("1 warp; dependent add.u32/xor.b32 alternating (SASS VIADD/LOP3.LUT); slope %d vs %d trips x %d ops",
                T1, T2, U_CHAIN));
        s = slope(T1, T2, [&](int t) { k_lat_imad<<<1, 32>>>(3u, 1u, t, d_out, d_sink); });
        row("lat_imad", s.per_trip / U_CHAIN, "cycles",
            fmt("1 warp; dependent mad.lo.u32 (SASS IMAD); slope %d vs %d trips x %d ops", T1, T2, U_CHAIN));
        s = slope(T1, T2, [&](int t) { k_lat_fp<<<1, 32>>>(0.999f, 0.001f, t, d_out, d_sink); });
        row("lat_fp", s.per_trip / U_CHAIN, "cycles",
            fmt("1 warp; dependent fma.rn.f32 (SASS FFMA); slope %d vs %d trips x %d ops", T1, T2, U_CHAIN));
        s = slope(T1, T2, [&](int t) { k_lat_sfu<<<1, 32>>>(t, d_out, d_sink); });
        row("lat_sfu", s.per_trip / U_CHAIN, "cycles",
            fmt("1 warp; dependent rsqrt.approx.ftz.f32 (SASS MUFU.RSQ); slope %d vs %d trips x %d ops", T1, T2,
                U_CHAIN));
        s = slope(T1, T2, [&](int t) { k_lat_cvt<0><<<1, 32>>>(t, d_out, d_sink); });
        row("lat_cvt", s.per_trip / U_CHAIN, "cycles",
            fmt("1 warp; cvt.rn.f32.s32 then cvt.rzi.s32.f32 alternating (SASS I2FP.F32.S32/F2I.TRUNC.NTZ); per instruction; slope %d "
                "vs %d trips x %d ops",
                T1, T2, U_CHAIN));
        s = slope(T1, T2, [&](int t) { k_lat_cvt<1><<<1, 32>>>(t, d_out, d_sink); });
        row("lat_f2i", s.per_trip / U_CHAIN, "cycles",
            fmt("1 warp; dependent cvt.rzi.s32.f32 only (SASS F2I.TRUNC.NTZ; result bits reused as the next float); slope %d vs %d trips "
                "x %d ops",
                T1, T2, U_CHAIN));
        s = slope(T1, T2, [&](int t) { k_lat_cvt<2><<<1, 32>>>(t, d_out, d_sink); });
        row("lat_i2f", s.per_trip / U_CHAIN, "cycles",
            fmt("1 warp; dependent cvt.rn.f32.s32 only (SASS I2FP.F32.S32; result bits reused as the next int); slope %d vs %d trips x "
                "%d ops",
                T1, T2, U_CHAIN));
    }

    /* ---- many-warp throughputs ---- */
    {
        const int B = 1024, W = B / 32, A = 16, Bt = 64;
        slope_t s = slope(A, Bt, [&](int t) { k_tp_sfu<<<1, B>>>(t, d_out, d_sink); });
        double tp = (double)W * U_TP / s.per_trip;
        row("tput_sfu", tp, "warp-inst/cycle",
            fmt("1 block of %d warps x %d independent rsqrt.approx.ftz chains (MUFU.RSQ); SM-wide; slope %d vs %d trips",
                W, ILP, A, Bt));
        row("busy_sfu", 4.0 / tp, "cycles",
            "4 partitions / tput_sfu: cycles a partition's MUFU pipe is busy per warp instruction");
        s = slope(A, Bt, [&](int t) { k_tp_cvt<0><<<1, B>>>(t, d_out, d_sink); });
        tp = (double)W * U_TP / s.per_trip;
        row("tput_cvt", tp, "warp-inst/cycle",
            fmt("1 block of %d warps x %d independent I2FP/F2I alternating chains; SM-wide; slope %d vs %d trips", W,
                ILP, A, Bt));
        row("busy_cvt", 4.0 / tp, "cycles", "4 partitions / tput_cvt (I2FP and F2I mixed 1:1; see tput_f2i and tput_i2f)");
        s = slope(A, Bt, [&](int t) { k_tp_cvt<1><<<1, B>>>(t, d_out, d_sink); });
        tp = (double)W * U_TP / s.per_trip;
        row("tput_f2i", tp, "warp-inst/cycle",
            fmt("1 block of %d warps x %d independent F2I.TRUNC.NTZ-only chains; SM-wide; slope %d vs %d trips", W, ILP, A, Bt));
        s = slope(A, Bt, [&](int t) { k_tp_cvt<2><<<1, B>>>(t, d_out, d_sink); });
        tp = (double)W * U_TP / s.per_trip;
        row("tput_i2f", tp, "warp-inst/cycle",
            fmt("1 block of %d warps x %d independent I2FP.F32.S32-only chains; SM-wide; slope %d vs %d trips", W, ILP, A, Bt));
        s = slope(A, Bt, [&](int t) { k_tp_fp<<<1, B>>>(0.999f, 0.001f, t, d_out, d_sink); });
        tp = (double)W * U_TP / s.per_trip;
        row("tput_fp", tp, "warp-inst/cycle",
            fmt("1 block of %d warps x %d independent FFMA chains; SM-wide; slope %d vs %d trips", W, ILP, A, Bt));
        s = slope(A, Bt, [&](int t) { k_tp_int<<<1, B>>>(z, zx, t, d_out, d_sink); });
        tp = (double)W * U_TP / s.per_trip;
        row("tput_int", tp, "warp-inst/cycle",
            fmt("1 block of %d warps x %d independent VIADD/LOP3.LUT chains; SM-wide; slope %d vs %d trips", W, ILP, A, Bt));
    }

    /* ---- shared memory ---- */
    {
        slope_t s = slope(T1, T2, [&](int t) { k_lat_shld<<<1, 32>>>(t, d_out, d_sink); });
        row("lat_shared_ld", s.per_trip / U_CHAIN, "cycles",
            fmt("1 warp; ld.shared.u32 a <- [a] pointer chase; lane l in bank l (conflict-free); slope %d vs %d trips "
                "x %d loads",
                T1, T2, U_CHAIN));
        s = slope(T1, T2, [&](int t) { k_lat_shst<<<1, 32>>>(7u, t, d_out, d_sink); });
        row("lat_shared_st", s.per_trip / 32, "cycles",
            fmt("1 warp; back-to-back independent st.shared.u32 (conflict-free; 1 wavefront each); cycles per store; "
                "slope %d vs %d trips x 32 stores",
                T1, T2));
        const int B = 1024, W = B / 32;
        s = slope(16, 64, [&](int t) { k_tp_shld<0><<<1, B>>>(0u, t, d_out, d_sink); });
        double tp = (double)W * 16 / s.per_trip;
        row("tput_shared_wavefronts", tp, "wavefronts/cycle",
            fmt("1 block of %d warps; 16 independent conflict-free ld.shared.u32 a trip (1 wavefront each); %.3f "
                "warp-loads/cycle",
                W, tp));
        s = slope(2, 8, [&](int t) { k_tp_shld<1><<<1, B>>>(0u, t, d_out, d_sink); });
        double tpc = (double)W * 16 / s.per_trip;
        row("tput_shared_wavefronts_conflict", tpc * 32, "wavefronts/cycle",
            fmt("1 block of %d warps; 16 independent ld.shared.u32 a trip with 32-way bank conflicts (32 "
                "wavefronts each); %.4f warp-loads/cycle",
                W, tpc));
    }

    /* ---- barriers ---- */
    for (int w : {1, 2, 4, 8, 16, 32}) {
        slope_t s = slope(16, 64, [&](int t) { k_barrier<<<1, 32 * w>>>(t, d_out); });
        row(fmt("barrier_w%d", w).c_str(), s.per_trip / 16, "cycles",
            fmt("1 block of %d warps; loop of __syncthreads() (BAR.SYNC) only; slope 16 vs 64 trips x 16 barriers", w));
    }

    /* ---- global stores ---- */
    {
        slope_t s = slope(T1, T2, [&](int t) { k_lat_gst<<<1, 32>>>(d_small, 5u, t, d_out); });
        row("lat_global_st", s.per_trip / 32, "cycles",
            fmt("1 warp; back-to-back coalesced st.global.u32 (128 B = 4 sectors each) in a 64 KiB window; cycles "
                "per store; slope %d vs %d trips x 32",
                T1, T2));
    }

    /* ---- L1 load throughput ---- */
    {
        const int B = 1024, W = B / 32;
        slope_t s = slope(16, 64, [&](int t) { k_tp_lsu<0><<<1, B>>>(d_small, 0u, t, d_out, d_sink); });
        double tp = (double)W * 16 / s.per_trip;
        row("tput_lsu_sectors", tp * 4, "sectors/cycle",
            fmt("1 block of %d warps; 16 independent ld.global.u32 (LDG.E) a trip; each warp load one 128 B line (4 "
                "sectors); 16 KiB L1-resident footprint; %.3f warp-loads/cycle",
                W, tp));
        s = slope(16, 64, [&](int t) { k_tp_lsu<1><<<1, B>>>(d_small, 0u, t, d_out, d_sink); });
        tp = (double)W * 8 / s.per_trip;
        row("tput_lsu_sectors_v4", tp * 16, "sectors/cycle",
            fmt("as tput_lsu_sectors with 8 ld.global.v4.u32 a trip (512 B = 16 sectors a warp load; 8 KiB); %.3f "
                "warp-loads/cycle",
                tp));
    }

    /* ---- pointer chases: L1, L2 ---- */
    double lat_l1 = 0, lat_l2 = 0;
    {
        const size_t l1_bytes = 8 << 10, l2_bytes = (size_t)8 << 20;
        PN_CK(cudaMalloc(&d_l1, l1_bytes));
        PN_CK(cudaMalloc(&d_l2, l2_bytes));
        auto build = [&](char *base, size_t bytes) {
            std::vector<size_t> perm = cycle_perm(bytes / 128, &seed); /* line i -> line perm[i] */
            std::vector<size_t> off;
            size_t at = 0;
            do {
                off.push_back(at * 128);
                at = perm[at];
            } while (at != 0);
            link_chain(base, off);
            return off.size();
        };
        size_t n1 = build(d_l1, l1_bytes), n2 = build(d_l2, l2_bytes);
        slope_t s = slope(1024, 4096, [&](int t) { k_chase<CH_CA><<<1, 1>>>((const u64 *)d_l1, 256, t, d_out); });
        lat_l1 = s.per_trip;
        row("lat_l1", lat_l1, "cycles",
            fmt("1 thread; ld.global.ca.u64 (SASS LDG.E.64.STRONG.SM) pointer chase over %zu random 128 B lines (%zu "
                "KiB); 256 warm steps in the kernel; slope 1024 vs 4096 steps",
                n1, l1_bytes >> 10));
        s = slope(1024, 4096, [&](int t) { k_chase<CH_PLAIN><<<1, 1>>>((const u64 *)d_l1, 256, t, d_out); });
        row("lat_l1_plain", s.per_trip, "cycles",
            "as lat_l1 with ld.global.u64 and no cache operator (SASS LDG.E.64: what compiled C++ emits)");
        int warm = (int)n2;
        s = slope(2048, 8192, [&](int t) { k_chase<CH_CG><<<1, 1>>>((const u64 *)d_l2, warm, t, d_out); });
        lat_l2 = s.per_trip;
        row("lat_l2", lat_l2, "cycles",
            fmt("1 thread; ld.global.cg.u64 (L1 bypass) pointer chase over %zu random 128 B lines (%zu MiB); one full "
                "warm cycle in the kernel; slope 2048 vs 8192 steps",
                n2, l2_bytes >> 20));
        s = slope(2048, 8192, [&](int t) { k_chase<CH_PLAIN><<<1, 1>>>((const u64 *)d_l2, warm, t, d_out); });
        row("lat_l2_plain", s.per_trip, "cycles",
            "as lat_l2 with plain ld.global.u64 (LDG.E.64: L1 lookup and miss first; 8 MiB >> L1 so ~97% L1 misses)");
    }

    /* ---- pointer chases: DRAM ---- */
    double lat_dram = 0;
    {
        const size_t page = (size_t)2 << 20, lines_pp = page / 128, half = chase_bytes / 2;
        /* (a) page-local: 64 random 2 MiB pages of the first 512 MiB, 256 random lines in each,
         * every line visited once a launch. */
        std::vector<size_t> offa;
        std::vector<size_t> pages = pick(half / page, 64, &seed);
        for (size_t pg : pages)
            for (size_t ln : pick(lines_pp, 256, &seed)) offa.push_back(pg * page + ln * 128);
        link_chain(d_chase, offa);
        /* (b) fully random: 8192 random distinct lines of the second 512 MiB. */
        std::vector<size_t> offb;
        for (size_t ln : pick(half / 128, 8192, &seed)) offb.push_back(half + ln * 128);
        link_chain(d_chase, offb);
        const u64 *ha = (const u64 *)(d_chase + offa[0]), *hb = (const u64 *)(d_chase + offb[0]);

        slope_t s = slope(2048, 14336, [&](int t) { k_chase<CH_PLAIN><<<1, 1>>>(ha, 0, t, d_out); }, flush);
        lat_dram = s.per_trip;
        double ns = (double)read_out(1), cyc = (double)read_out(0);
        double mhz_chase = cyc / ns * 1000.0;
        row("lat_dram", lat_dram, "cycles",
            fmt("1 thread; ld.global.u64 (LDG.E.64) chase; 1 GiB buffer; 16384 steps = 64 random 2 MiB pages x 256 random "
                "distinct 128 B lines each (TLB miss at most every 256 steps); L2 flushed (256 MiB read) before "
                "each launch; each line once; slope 2048 vs 14336 steps; SM clock in chase %.0f MHz",
                mhz_chase));
        row("lat_dram_ns", lat_dram / mhz_chase * 1000.0, "ns",
            fmt("lat_dram / SM clock measured in the same kernel (%.0f MHz)", mhz_chase));
        s = slope(1024, 7168, [&](int t) { k_chase<CH_PLAIN><<<1, 1>>>(hb, 0, t, d_out); }, flush);
        row("lat_dram_random", s.per_trip, "cycles",
            "1 thread; ld.global.u64 chase over 8192 random distinct 128 B lines of a 512 MiB region (nearly every "
            "step a new 2 MiB page: TLB misses included); L2 flushed before each launch; slope 1024 vs 7168 steps");
    }

    /* ---- loads in flight ---- */
    {
        const int steps = 512; /* loads a warp a launch */
        double best = 0;
        int bw = 0, bk = 0;
        double lat1 = 0, warp_best = 0;
        int warp_bk = 0;
        fprintf(stderr, "inflight sweep: W warps x K loads in flight a warp; loads/cycle (SM); cycles/round\n");
        for (int W : {1, 2, 4, 8, 16, 32}) {
            for (int K : {1, 2, 4, 8, 16, 32}) {
                int rounds = steps / K;
                std::vector<double> c;
                for (int r = 0; r < g_reps; r++) {
                    flush();
                    switch (K) {
                    case 1: k_inflight<1><<<1, 32 * W>>>(d_infl, rounds, d_out, d_sink); break;
                    case 2: k_inflight<2><<<1, 32 * W>>>(d_infl, rounds, d_out, d_sink); break;
                    case 4: k_inflight<4><<<1, 32 * W>>>(d_infl, rounds, d_out, d_sink); break;
                    case 8: k_inflight<8><<<1, 32 * W>>>(d_infl, rounds, d_out, d_sink); break;
                    case 16: k_inflight<16><<<1, 32 * W>>>(d_infl, rounds, d_out, d_sink); break;
                    case 32: k_inflight<32><<<1, 32 * W>>>(d_infl, rounds, d_out, d_sink); break;
                    }
                    PN_CK_LAUNCH();
                    c.push_back((double)read_out(0));
                }
                double cyc = median(c);
                double lpc = (double)W * steps / cyc;
                if (W == 1 && K == 1) lat1 = cyc / rounds;
                if (W == 1 && lpc > warp_best) {
                    warp_best = lpc;
                    warp_bk = K;
                }
                fprintf(stderr, "inflight W=%2d K=%2d outstanding=%4d loads/cycle=%.4f cycles/round=%.1f\n", W, K,
                        W * K, lpc, cyc / rounds);
                if (lpc > best) {
                    best = lpc;
                    bw = W;
                    bk = K;
                }
            }
        }
        row("inflight_plateau_loads_per_cycle", best, "loads/cycle",
            fmt("max over W in 1..32 warps x K in 1..32 independent loads a warp of SM-wide warp-loads/cycle (each a "
                "coalesced 128 B line = 4 sectors; L2 flushed; streaming lines); reached at W=%d K=%d; = %.3f "
                "sectors/cycle",
                bw, bk, best * 4));
        row("inflight_warp_loads", warp_best * lat_dram, "loads",
            fmt("one warp alone (W=1): plateau %.4f loads/cycle (at K=%d) x lat_dram; K=32 is no faster than K=16: a "
                "warp keeps only about this many DRAM loads outstanding",
                warp_best, warp_bk));
        row("inflight_loads", best * lat_dram, "loads",
            fmt("Little's law: plateau %.4f warp-loads/cycle x lat_dram %.1f cycles; (W=1 K=1 streaming round = %.1f "
                "cycles); each load 1 line = 4 sectors",
                best, lat_dram, lat1));
    }

    /* ---- DRAM bandwidth, whole device ---- */
    {
        const size_t n = stream_bytes / 16;
        const int grid = nsm * 4, block = 512;
        std::vector<double> us = pn_time_launches(2, quick ? 4 : 10, [] {},
                                                  [&] { k_stream<<<grid, block>>>((const int4 *)d_stream, n, d_out, d_sink); });
        double cyc = (double)read_out(0), ns = (double)read_out(1);
        double mhz_s = cyc / ns * 1000.0;
        double t = pn_pct(us, 0.5) * 1e-6;
        double gbs = (double)stream_bytes / t / 1e9;
        double spc = (double)stream_bytes / 32.0 / t / (mhz_s * 1e6);
        row("tput_dram_sectors", spc, "sectors/cycle",
            fmt("WHOLE DEVICE; grid %d x %d threads streaming int4 reads of %zu MiB (>> 50 MiB L2); median of %zu "
                "launches %.1f us = %.1f GB/s; divided by SM clock %.0f MHz measured in block 0 of the last launch",
                grid, block, stream_bytes >> 20, us.size(), pn_pct(us, 0.5), gbs, mhz_s));
        row("dram_read_gbs", gbs, "GB/s", "the same measurement in GB/s (1e9 B/s)");
    }

    /* ---- clock again; report ---- */
    clock_probe();
    {
        double m = 0;
        for (double x : mhz) m += x;
        m /= (double)mhz.size();
        row("clock_mhz", m, "MHz",
            fmt("clock64 cycles / %%globaltimer ns of a 100 ms one-thread spin (after a 400 ms warm-up spin); mean of "
                "start %.1f and end %.1f of the suite",
                mhz.front(), mhz.back()));
    }
    PN_CK(cudaDeviceSynchronize());
    printf("probe,value,unit,detail\n");
    for (auto &r : g_rows) printf("%s\n", r.c_str());
    return 0;
}
