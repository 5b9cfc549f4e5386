/* fp64.cu - double-precision kernels as scientific code writes them (PolyBench, Rodinia,
 * solvers): what `pnsim import --source` makes of DFMA, DADD, DMUL and the MUFU.RCP64H /
 * MUFU.RSQ64H of divisions and square roots, and how close the sass engine comes. Each is
 * timed and profiled with the documented workflow (../deps/measure.sh).
 *
 *   kernel      one thread                                                SASS it brings
 *   f64_axpy    out[i] = a x[i] + y[i], 2^23 doubles (streams 192 MiB)     LDG.E.64, DFMA
 *   f64_horner  a degree-48 polynomial (Horner) at 4 points of its own      DFMA chains
 *   f64_norm    sqrt(x^2 + y^2 + z^2) / (1 + |x|) of 3 doubles               DMUL, MUFU.RSQ64H,
 *                                                                          MUFU.RCP64H, CALL
 *   f64_gemm    C = A B, N = 512, one element of C, A and B from global    DFMA, LDG.E.64
 *               memory (2D blocks of 32 x T/32)
 *
 * Usage and output as ../deps/deps.cu:
 *   fp64 [--kernels f64_x,...] [--threads 64,...] [--launches 40] [--warmup 5]
 *        [--launch-log FILE] [--info]
 * --launches 0: profiling mode (one warm-up pass over the inputs, then ONE checked launch,
 * logged as "kernel,size,threads,blocks"). Exit 1 if a check failed, 2 on a CUDA error.
 */
#include "../common/pn_bench.cuh"

#include <cmath>

#define F_AXPY (1L << 23)
#define F_PTS (1L << 20)   /* horner: points, 4 a thread */
#define F_NORM (1L << 22)
#define F_MM 512
#define F_DEG 48

static unsigned *g_sink = nullptr;

__global__ void f64_axpy(double a, const double *__restrict__ x, const double *__restrict__ y,
                         double *__restrict__ out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a * x[i] + y[i];
}

__global__ void f64_horner(const double *__restrict__ c, const double *__restrict__ x,
                           double *__restrict__ out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    double p[4], v[4];
    for (int q = 0; q < 4; q++) v[q] = x[i + q * (F_PTS / 4)], p[q] = c[0];
    for (int k = 1; k <= F_DEG; k++) {
        double ck = c[k];
        for (int q = 0; q < 4; q++) p[q] = fma(p[q], v[q], ck);
    }
    for (int q = 0; q < 4; q++) out[i + q * (F_PTS / 4)] = p[q];
}

__global__ void f64_norm(const double *__restrict__ x, double *__restrict__ out)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    double a = x[i], b = x[(i + F_NORM / 3) & (F_NORM - 1)], c = x[(i + 2 * (F_NORM / 3)) & (F_NORM - 1)];
    out[i] = sqrt(a * a + b * b + c * c) / (1.0 + fabs(a));
}

__global__ void f64_gemm(const double *__restrict__ A, const double *__restrict__ B,
                         double *__restrict__ C)
{
    int col = blockIdx.x * 32 + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    double s = 0;
    for (int k = 0; k < F_MM; k++) s = fma(A[(size_t)row * F_MM + k], B[(size_t)k * F_MM + col], s);
    C[(size_t)row * F_MM + col] = s;
}

/* ---- host: inputs, references, checks --------------------------------------------------- */

struct f_data {
    std::vector<double> x, y, c, a, b;
    double *dx = nullptr, *dy = nullptr, *dc = nullptr, *da = nullptr, *db = nullptr,
           *dout = nullptr;
    f_data(uint64_t seed)
    {
        x.resize(F_AXPY);
        y.resize(F_AXPY);
        for (long i = 0; i < F_AXPY; i++) x[i] = pn_randf(&seed) - 0.5, y[i] = pn_randf(&seed);
        c.resize(F_DEG + 1);
        for (auto &v : c) v = (pn_randf(&seed) - 0.5) / 8;
        a.resize((size_t)F_MM * F_MM);
        b.resize(a.size());
        for (size_t i = 0; i < a.size(); i++)
            a[i] = (double)(pn_rand64(&seed) % 7) - 3, b[i] = (double)(pn_rand64(&seed) % 7) - 3;
        dx = pn_dev_copy(x);
        dy = pn_dev_copy(y);
        dc = pn_dev_copy(c);
        da = pn_dev_copy(a);
        db = pn_dev_copy(b);
        PN_CK(cudaMalloc(&dout, F_AXPY * sizeof(double)));
    }
    ~f_data()
    {
        cudaFree(dx); cudaFree(dy); cudaFree(dc); cudaFree(da); cudaFree(db);
        cudaFree(dout);
    }
};

static long f_size(const char *k)
{
    if (!strcmp(k, "f64_axpy")) return F_AXPY;
    if (!strcmp(k, "f64_horner")) return F_PTS;
    if (!strcmp(k, "f64_norm")) return F_NORM;
    return F_MM;
}

static long f_blocks(const char *k, int T)
{
    if (!strcmp(k, "f64_gemm")) return (long)(F_MM / 32) * (F_MM / (T / 32));
    if (!strcmp(k, "f64_horner")) return F_PTS / 4 / T;
    return f_size(k) / T;
}

static void f_launch(const char *k, int T, f_data &d)
{
    long nb = f_blocks(k, T);
    if (!strcmp(k, "f64_axpy")) f64_axpy<<<nb, T>>>(1.5, d.dx, d.dy, d.dout);
    else if (!strcmp(k, "f64_horner")) f64_horner<<<nb, T>>>(d.dc, d.dx, d.dout);
    else if (!strcmp(k, "f64_norm")) f64_norm<<<nb, T>>>(d.dx, d.dout);
    else f64_gemm<<<dim3(F_MM / 32, F_MM / (T / 32)), dim3(32, T / 32)>>>(d.da, d.db, d.dout);
}

static void f_warm(const char *k, f_data &d)
{
    if (!strcmp(k, "f64_gemm")) {
        pn_warm_buf(d.da, d.a.size() * sizeof(double), g_sink);
        pn_warm_buf(d.db, d.b.size() * sizeof(double), g_sink);
    } else {
        pn_warm_buf(d.dx, f_size(k) * sizeof(double), g_sink);
        if (!strcmp(k, "f64_axpy")) pn_warm_buf(d.dy, f_size(k) * sizeof(double), g_sink);
    }
}

/* The launch's output against the CPU (every element; f64_gemm: exact, small integers). */
static bool f_check(const char *k, f_data &d, std::string *err)
{
    char m[160];
    long n = !strcmp(k, "f64_gemm") ? (long)F_MM * F_MM : f_size(k);
    std::vector<double> o = pn_host_copy(d.dout, (size_t)n);
    for (long i = 0; i < n; i++) {
        double ref;
        if (!strcmp(k, "f64_axpy"))
            ref = 1.5 * d.x[i] + d.y[i];
        else if (!strcmp(k, "f64_horner")) {
            ref = d.c[0];
            for (int j = 1; j <= F_DEG; j++) ref = std::fma(ref, d.x[i], d.c[j]);
        } else if (!strcmp(k, "f64_norm")) {
            double a = d.x[i], b = d.x[(i + F_NORM / 3) & (F_NORM - 1)],
                   c = d.x[(i + 2 * (F_NORM / 3)) & (F_NORM - 1)];
            ref = std::sqrt(a * a + b * b + c * c) / (1.0 + std::fabs(a));
        } else {
            long r = i / F_MM, q = i % F_MM;
            ref = 0;
            for (int j = 0; j < F_MM; j++) ref += d.a[(size_t)r * F_MM + j] * d.b[(size_t)j * F_MM + q];
        }
        if (std::fabs(o[i] - ref) > 1e-12 * (1 + std::fabs(ref))) {
            snprintf(m, sizeof m, "out[%ld] = %.17g, not %.17g", i, o[i], ref);
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
    const char *all[] = {"f64_axpy", "f64_horner", "f64_norm", "f64_gemm"};
    const void *fn[] = {(const void *)f64_axpy, (const void *)f64_horner, (const void *)f64_norm,
                        (const void *)f64_gemm};
    if (!pn_names_known(names, all, (int)(sizeof all / sizeof all[0]))) return 2;
    FILE *log = pn_open_launch_log(o);
    PN_CK(cudaMalloc(&g_sink, sizeof(unsigned)));
    f_data d(o.seed);
    int failures = 0;
    const std::vector<int> T5 = {64, 128, 256, 512, 1024};
    for (int ki = 0; ki < 4; ki++) {
        const char *k = all[ki];
        if (!pn_wanted(names, k)) continue;
        cudaFuncAttributes fa;
        PN_CK(cudaFuncGetAttributes(&fa, fn[ki]));
        long size = f_size(k);
        for (int T : o.threads.empty() ? T5 : o.threads) {
            if (T < 32 || T > 1024 || T % 32) continue;
            failures += !pn_set_point(o, log, k, size, T, f_blocks(k, T), fa, false,
                                      [&] { f_warm(k, d); }, [] {}, [&] { f_launch(k, T, d); },
                                      [&](std::string *err) { return f_check(k, d, err); });
        }
    }
    if (log) fclose(log);
    PN_CK(cudaFree(g_sink));
    return failures ? 1 : 0;
}
