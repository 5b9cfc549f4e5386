/* robust.cu - kernels with the SASS that real code brings and the other example sets lack:
 * they check that `pnsim import --source` reads what such kernels compile to, and how close
 * the sass engine comes on them (doc/dependencies.md). Each is timed and profiled with the
 * documented workflow (../deps/measure.sh).
 *
 *   kernel     one thread                                                   SASS it brings
 *   rb_spill   a 64-float local array indexed at run time, filled from in[]  LDL / STL
 *              and summed in a scrambled order (256 bytes a thread: past the L1)
 *   rb_spill16 the same with 16 floats read 8 times over (64 bytes a        LDL / STL
 *              thread: the L1 holds them)
 *   rb_tex     16 reads a thread through a texture object (tex1Dfetch),     TEX / TLD
 *              gathered at a stride of 7 floats
 *   rb_call    64 calls of a __noinline__ device function (a short loop)     CALL / RET
 *   rb_switch  32 steps of a switch over 8 cases picked by its data         BRX (a jump table)
 *   rb_warp    2D blocks (32 x T/32): a warp's integer sum with             REDUX, WARPSYNC,
 *              __reduce_add_sync, __syncwarp, a nanosleep on lane 0          NANOSLEEP
 *   rb_wmma    C = A B, N = 1024, fp16 in, fp32 out, one 16 x 16 tile a      HMMA (tensor cores)
 *              warp through wmma fragments loaded from global memory
 *
 * n = 2^20 threads (rb_wmma: (N/16)^2 warps). Usage and output as ../deps/deps.cu:
 *   robust [--kernels rb_x,...] [--threads 128,...] [--launches 40] [--warmup 5]
 *          [--launch-log FILE] [--info]
 * --launches 0: profiling mode (one warm-up pass over the inputs, then ONE checked launch,
 * logged as "kernel,size,threads,blocks"). Exit 1 if a check failed, 2 on a CUDA error.
 */
#include "../common/pn_bench.cuh"

#include <cuda_fp16.h>
#include <mma.h>

#define RB_N (1L << 20)
#define RB_MM 1024

static unsigned *g_sink = nullptr;

__global__ void rb_spill(const float *__restrict__ in, float *__restrict__ out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    float a[64];
    for (int k = 0; k < 64; k++) a[(k * 5 + (int)(i & 7)) & 63] = in[(i * 3 + k) & (RB_N - 1)];
    float s = 0.f;
    for (int k = 0; k < 64; k++) s = fmaf(s, 0.5f, a[(k * 37 + (int)(i >> 3)) & 63]);
    out[i] = s;
}

__global__ void rb_spill16(const float *__restrict__ in, float *__restrict__ out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    float a[16];
    for (int k = 0; k < 16; k++) a[(k * 5 + (int)(i & 7)) & 15] = in[(i + k * 4096) & (RB_N - 1)];
    float s = 0.f;
    for (int r = 0; r < 8; r++)
        for (int k = 0; k < 16; k++) s = fmaf(s, 0.5f, a[(k * 7 + r + (int)(i >> 3)) & 15]);
    out[i] = s;
}

__global__ void rb_tex(cudaTextureObject_t t, float *__restrict__ out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < 16; k++) s += tex1Dfetch<float>(t, (int)((i * 7 + k * 4099) & (RB_N - 1)));
    out[i] = s;
}

__device__ __noinline__ float rb_poly(float x, int n)
{
    float y = 0.f;
    for (int k = 0; k < n; k++) y = fmaf(y, x, 1.f);
    return y;
}

__global__ void rb_call(const float *__restrict__ in, float *__restrict__ out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i], s = 0.f;
    for (int k = 0; k < 64; k++) s += rb_poly(x, 4 + (k & 3));
    out[i] = s;
}

__global__ void rb_switch(const unsigned *__restrict__ in, unsigned *__restrict__ out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    for (int k = 0; k < 32; k++) {
        switch ((v >> (k & 15)) & 7) {
        case 0: v = v * 3u + 1u; break;
        case 1: v ^= v << 7; break;
        case 2: v += 0x9e3779b9u; break;
        case 3: v = (v >> 3) | (v << 29); break;
        case 4: v = v * 2654435761u; break;
        case 5: v ^= v >> 11; break;
        case 6: v -= 12345u; break;
        default: v = ~v; break;
        }
    }
    out[i] = v;
}

__global__ void rb_warp(const unsigned *__restrict__ in, unsigned *__restrict__ out)
{
    long i = ((long)blockIdx.x * blockDim.y + threadIdx.y) * 32 + threadIdx.x;
    unsigned v = in[i] & 0xffffu;
    for (int k = 0; k < 8; k++) {
        unsigned s = __reduce_add_sync(0xffffffffu, v);
        __syncwarp();
        if (threadIdx.x == 0 && k == 4) __nanosleep(100);
        v = (v + s) & 0xffffu;
    }
    out[i] = v;
}

/* One warp a 16 x 16 tile of C = A B (row-major N x N, fp16 in, fp32 out). */
__global__ void rb_wmma(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C)
{
    using namespace nvcuda;
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tr = warp / (RB_MM / 16), tc = warp % (RB_MM / 16);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.f);
    for (int k = 0; k < RB_MM; k += 16) {
        wmma::load_matrix_sync(fa, A + (size_t)tr * 16 * RB_MM + k, RB_MM);
        wmma::load_matrix_sync(fb, B + (size_t)k * RB_MM + tc * 16, RB_MM);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(C + (size_t)tr * 16 * RB_MM + tc * 16, fc, RB_MM, wmma::mem_row_major);
}

/* ---- host: inputs, references, checks --------------------------------------------------- */

static unsigned rb_step(unsigned v, int k)
{
    switch ((v >> (k & 15)) & 7) {
    case 0: return v * 3u + 1u;
    case 1: return v ^ (v << 7);
    case 2: return v + 0x9e3779b9u;
    case 3: return (v >> 3) | (v << 29);
    case 4: return v * 2654435761u;
    case 5: return v ^ (v >> 11);
    case 6: return v - 12345u;
    default: return ~v;
    }
}

struct rb_data {
    std::vector<float> f;
    std::vector<unsigned> u;
    std::vector<half> a, b;
    float *df = nullptr, *dof = nullptr, *dc = nullptr;
    unsigned *du = nullptr, *dou = nullptr;
    cudaTextureObject_t tex = 0;
    half *da = nullptr, *db = nullptr;
    rb_data(uint64_t seed)
    {
        f.resize(RB_N);
        u.resize(RB_N);
        for (long i = 0; i < RB_N; i++) f[i] = pn_randf(&seed) * 0.5f, u[i] = (unsigned)pn_rand64(&seed);
        a.resize((size_t)RB_MM * RB_MM);
        b.resize(a.size());
        for (size_t i = 0; i < a.size(); i++)
            a[i] = __float2half((float)(pn_rand64(&seed) % 5) - 2.f),
            b[i] = __float2half((float)(pn_rand64(&seed) % 5) - 2.f);
        df = pn_dev_copy(f);
        du = pn_dev_copy(u);
        da = pn_dev_copy(a);
        db = pn_dev_copy(b);
        PN_CK(cudaMalloc(&dof, RB_N * sizeof(float)));
        PN_CK(cudaMalloc(&dou, RB_N * sizeof(unsigned)));
        PN_CK(cudaMalloc(&dc, (size_t)RB_MM * RB_MM * sizeof(float)));
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = df;
        rd.res.linear.desc = cudaCreateChannelDesc<float>();
        rd.res.linear.sizeInBytes = RB_N * sizeof(float);
        cudaTextureDesc td = {};
        td.readMode = cudaReadModeElementType;
        PN_CK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    }
    ~rb_data()
    {
        cudaDestroyTextureObject(tex);
        cudaFree(df); cudaFree(du); cudaFree(da); cudaFree(db);
        cudaFree(dof); cudaFree(dou); cudaFree(dc);
    }
};

static long rb_blocks(const char *k, int T)
{
    if (!strcmp(k, "rb_wmma")) return (long)(RB_MM / 16) * (RB_MM / 16) * 32 / T;
    return RB_N / T;
}

static void rb_launch(const char *k, int T, rb_data &d)
{
    long nb = rb_blocks(k, T);
    if (!strcmp(k, "rb_spill")) rb_spill<<<nb, T>>>(d.df, d.dof);
    else if (!strcmp(k, "rb_spill16")) rb_spill16<<<nb, T>>>(d.df, d.dof);
    else if (!strcmp(k, "rb_tex")) rb_tex<<<nb, T>>>(d.tex, d.dof);
    else if (!strcmp(k, "rb_call")) rb_call<<<nb, T>>>(d.df, d.dof);
    else if (!strcmp(k, "rb_switch")) rb_switch<<<nb, T>>>(d.du, d.dou);
    else if (!strcmp(k, "rb_warp")) rb_warp<<<nb, dim3(32, T / 32)>>>(d.du, d.dou);
    else rb_wmma<<<nb, T>>>(d.da, d.db, d.dc);
}

static void rb_warm(const char *k, rb_data &d)
{
    if (!strcmp(k, "rb_wmma")) {
        pn_warm_buf(d.da, d.a.size() * sizeof(half), g_sink);
        pn_warm_buf(d.db, d.b.size() * sizeof(half), g_sink);
    } else
        pn_warm_buf(!strcmp(k, "rb_switch") || !strcmp(k, "rb_warp") ? (const void *)d.du
                                                                      : (const void *)d.df,
                    RB_N * 4, g_sink);
}

/* The launch's output against the CPU (every element; rb_wmma: 4096 sampled, exact: small
 * integers in fp16 and fp32 sums). */
static bool rb_check(const char *k, int T, rb_data &d, std::string *err)
{
    char m[160];
    if (!strcmp(k, "rb_wmma")) {
        std::vector<float> c = pn_host_copy(d.dc, (size_t)RB_MM * RB_MM);
        uint64_t s = 7;
        for (int t = 0; t < 4096; t++) {
            int r = (int)(pn_rand64(&s) % RB_MM), q = (int)(pn_rand64(&s) % RB_MM);
            float ref = 0.f;
            for (int j = 0; j < RB_MM; j++)
                ref += __half2float(d.a[(size_t)r * RB_MM + j]) * __half2float(d.b[(size_t)j * RB_MM + q]);
            if (c[(size_t)r * RB_MM + q] != ref) {
                snprintf(m, sizeof m, "C[%d][%d] = %g, not %g", r, q, c[(size_t)r * RB_MM + q], ref);
                *err = m;
                return false;
            }
        }
        return true;
    }
    if (!strcmp(k, "rb_switch") || !strcmp(k, "rb_warp")) {
        std::vector<unsigned> o = pn_host_copy(d.dou, RB_N);
        for (long i = 0; i < RB_N; i++) {
            unsigned v;
            if (!strcmp(k, "rb_switch")) {
                v = d.u[i];
                for (int j = 0; j < 32; j++) v = rb_step(v, j);
            } else {
                long w = i / 32 * 32;
                unsigned lane[32];
                for (int l = 0; l < 32; l++) lane[l] = d.u[w + l] & 0xffffu;
                for (int j = 0; j < 8; j++) {
                    unsigned s = 0;
                    for (int l = 0; l < 32; l++) s += lane[l];
                    for (int l = 0; l < 32; l++) lane[l] = (lane[l] + s) & 0xffffu;
                }
                v = lane[i - w];
            }
            if (o[i] != v) {
                snprintf(m, sizeof m, "out[%ld] = %u, not %u (T %d)", i, o[i], v, T);
                *err = m;
                return false;
            }
        }
        return true;
    }
    std::vector<float> o = pn_host_copy(d.dof, RB_N);
    for (long i = 0; i < RB_N; i++) {
        double ref = 0;
        if (!strcmp(k, "rb_spill")) {
            float a[64];
            for (int j = 0; j < 64; j++) a[(j * 5 + (int)(i & 7)) & 63] = d.f[(i * 3 + j) & (RB_N - 1)];
            float s = 0.f;
            for (int j = 0; j < 64; j++) s = fmaf(s, 0.5f, a[(j * 37 + (int)(i >> 3)) & 63]);
            ref = s;
        } else if (!strcmp(k, "rb_tex")) {
            float s = 0.f;
            for (int j = 0; j < 16; j++) s += d.f[(i * 7 + j * 4099) & (RB_N - 1)];
            ref = s;
        } else if (!strcmp(k, "rb_spill16")) {
            float a[16];
            for (int j = 0; j < 16; j++) a[(j * 5 + (int)(i & 7)) & 15] = d.f[(i + j * 4096) & (RB_N - 1)];
            float s = 0.f;
            for (int r = 0; r < 8; r++)
                for (int j = 0; j < 16; j++) s = fmaf(s, 0.5f, a[(j * 7 + r + (int)(i >> 3)) & 15]);
            ref = s;
        } else {
            float x = d.f[i];
            for (int j = 0; j < 64; j++) {
                float y = 0.f;
                for (int q = 0; q < 4 + (j & 3); q++) y = fmaf(y, x, 1.f);
                ref += y;
            }
        }
        if (fabs(o[i] - ref) > 1e-4 * (1 + fabs(ref))) {
            snprintf(m, sizeof m, "out[%ld] = %g, not %g (T %d)", i, o[i], ref, T);
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
    const char *all[] = {"rb_spill", "rb_spill16", "rb_tex", "rb_call", "rb_switch", "rb_warp",
                         "rb_wmma"};
    const void *fn[] = {(const void *)rb_spill, (const void *)rb_spill16, (const void *)rb_tex,
                        (const void *)rb_call,
                        (const void *)rb_switch, (const void *)rb_warp, (const void *)rb_wmma};
    if (!pn_names_known(names, all, (int)(sizeof all / sizeof all[0]))) return 2;
    FILE *log = pn_open_launch_log(o);
    PN_CK(cudaMalloc(&g_sink, sizeof(unsigned)));
    rb_data d(o.seed);
    int failures = 0;
    const std::vector<int> T3 = {128, 256, 1024};
    for (int ki = 0; ki < 7; ki++) {
        const char *k = all[ki];
        if (!pn_wanted(names, k)) continue;
        cudaFuncAttributes fa;
        PN_CK(cudaFuncGetAttributes(&fa, fn[ki]));
        long size = !strcmp(k, "rb_wmma") ? RB_MM : RB_N;
        for (int T : o.threads.empty() ? T3 : o.threads) {
            if (T < 32 || T > 1024 || T % 32) continue;
            failures += !pn_set_point(o, log, k, size, T, rb_blocks(k, T), fa, false,
                                      [&] { rb_warm(k, d); }, [] {}, [&] { rb_launch(k, T, d); },
                                      [&](std::string *err) { return rb_check(k, T, d, err); });
        }
    }
    if (log) fclose(log);
    PN_CK(cudaFree(g_sink));
    return failures ? 1 : 0;
}
