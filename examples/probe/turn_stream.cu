// turn_stream.cu - what a block of a streaming kernel spends, warp by warp, and how long its
// slot stays empty before the next block starts. examples/memory's mm_read (v = in[i], a
// warp's sum by shuffles to out[i / 32]), mm_copy (out[i] = in[i]) and mm_fill (out[i] = 1.5)
// at 16, 64 and 256 MiB, 128, 256, 512 and 1024 threads, timed as examples/memory times them
// (back-to-back launches, nothing flushed: a 16 MiB buffer stays in the L2), once as they
// are and once with every warp's lane 0 recording its SM, %clock64 at its first instruction
// and after its last store (16 bytes more a warp). From the records, per SM:
//   - warp: a warp's cycles from its first clock to its last (median, p90);
//   - block: the first warp's start to the last warp's end (median);
//   - gap: from the end that freed a slot to the start of the block that took it (the k-th
//     start on an SM after its first R takes the slot of the (k - R)-th end, R the blocks
//     that fit), median and p10: what the SM spends between two blocks of a slot beyond
//     their own work (examples/probe/block_turn.cu measures it with spinning blocks);
//   - resident: the blocks resident on average (their cycles over the SM's span);
//   - rate: the launch's sectors a cycle over the device (bytes moved / time).
// Prints `turn_K_S_T,gap,cycles,"..."` rows. Usage: turn_stream CLOCK_MHZ
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

struct rec_t {
    unsigned long long t0, t1;
};

__device__ __forceinline__ unsigned long long pn_clk(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ unsigned pn_smid(void)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* kind 0: read, 1: copy, 2: fill; rec null: not recorded */
template <int kind>
__global__ void ts_kernel(const float *__restrict__ in, float *__restrict__ out, long n,
                          rec_t *rec, unsigned *sm)
{
    unsigned long long t0 = rec ? pn_clk() : 0;
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (kind == 0) {
        float v = i < n ? in[i] : 0.f;
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        if ((threadIdx.x & 31) == 0 && i < n) out[i >> 5] = v;
    } else if (kind == 1) {
        if (i < n) out[i] = in[i];
    } else {
        if (i < n) out[i] = 1.5f;
    }
    if (rec && (threadIdx.x & 31) == 0) {
        unsigned long long t1 = pn_clk();
        long w = i >> 5;
        rec[w].t0 = t0;
        rec[w].t1 = t1;
        sm[w] = pn_smid();
    }
}

static void launch_kind(int kind, long nb, int T, const float *in, float *out, long n, rec_t *rec,
                        unsigned *sm)
{
    if (kind == 0) ts_kernel<0><<<nb, T>>>(in, out, n, rec, sm);
    if (kind == 1) ts_kernel<1><<<nb, T>>>(in, out, n, rec, sm);
    if (kind == 2) ts_kernel<2><<<nb, T>>>(in, out, n, rec, sm);
}

static double pct(std::vector<double> v, double q)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[(size_t)(q * (double)(v.size() - 1))];
}

int main(int argc, char **argv)
{
    double mhz = argc > 1 ? atof(argv[1]) : 1980.0;
    int sms = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const long maxn = 256l << 18;   /* 256 MiB of floats */
    float *in, *out;
    PN_CK(cudaMalloc(&in, maxn * 4));
    PN_CK(cudaMalloc(&out, maxn * 4));
    PN_CK(cudaMemset(in, 0, maxn * 4));
    PN_CK(cudaMemset(out, 0, maxn * 4));
    rec_t *rec;
    unsigned *smd;
    PN_CK(cudaMalloc(&rec, (maxn / 32) * sizeof(rec_t)));
    PN_CK(cudaMalloc(&smd, (maxn / 32) * sizeof(unsigned)));
    const char *names[] = {"read", "copy", "fill"};
    const void *funcs[] = {(const void *)ts_kernel<0>, (const void *)ts_kernel<1>,
                           (const void *)ts_kernel<2>};
    printf("# rows turn_K_S_T: examples/probe/turn_stream.cu at %.2f MHz, %d SMs\n", mhz, sms);
    for (int kind = 0; kind < 3; kind++)
        for (long mib : {16l, 64l, 256l})
            for (int T : {128, 256, 512, 1024}) {
                long n = mib << 18, nb = n / T, warps = n / 32;
                int fit = 0;
                PN_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, funcs[kind], T, 0));
                std::vector<double> plain = pn_time_launches(3, 10, [] {}, [&] {
                    launch_kind(kind, nb, T, in, out, n, nullptr, nullptr);
                });
                std::vector<double> inst = pn_time_launches(3, 10, [] {}, [&] {
                    launch_kind(kind, nb, T, in, out, n, rec, smd);
                });
                /* the records of the last instrumented launch */
                std::vector<rec_t> r = pn_host_copy(rec, (size_t)warps);
                std::vector<unsigned> s = pn_host_copy(smd, (size_t)warps);
                int W = T / 32;
                std::vector<double> wl, bl, gaps, res;
                std::vector<std::vector<std::pair<double, double>>> per(sms + 8);
                for (long b = 0; b < nb; b++) {
                    unsigned long long a = ~0ull, e = 0;
                    for (int k = 0; k < W; k++) {
                        const rec_t &x = r[b * W + k];
                        a = std::min(a, x.t0);
                        e = std::max(e, x.t1);
                        if ((b * W + k) % 7 == 0) wl.push_back((double)(x.t1 - x.t0));
                    }
                    bl.push_back((double)(e - a));
                    unsigned m = s[b * W];
                    if (m < per.size()) per[m].push_back({(double)a, (double)e});
                }
                for (auto &v : per) {
                    if (v.size() <= (size_t)fit) continue;
                    std::sort(v.begin(), v.end());
                    std::vector<double> ends;
                    double busy = 0, lo = v[0].first, hi = 0;
                    for (auto &p : v) {
                        ends.push_back(p.second);
                        busy += p.second - p.first;
                        hi = std::max(hi, p.second);
                    }
                    std::sort(ends.begin(), ends.end());
                    for (size_t k = fit; k < v.size(); k++)
                        gaps.push_back(v[k].first - ends[k - fit]);
                    res.push_back(busy / (hi - lo));
                }
                double us = pn_pct(plain, 0.5), us_i = pn_pct(inst, 0.5);
                double bytes = (double)n * 4 * (kind == 1 ? 2 : 1) + (kind == 0 ? n / 8.0 : 0);
                printf("turn_%s_%ld_%d,%.1f,cycles,\"%s %ld MiB <<<%ld, %d>>>, %d fit an SM: "
                       "gap median %.1f p10 %.1f p90 %.1f; warp median %.1f p90 %.1f; block "
                       "median %.1f; resident %.2f; %.3f us plain, %.3f recorded; %.2f sectors "
                       "a cycle\"\n",
                       names[kind], mib, T, pct(gaps, 0.5), names[kind], mib, nb, T, fit,
                       pct(gaps, 0.5), pct(gaps, 0.1), pct(gaps, 0.9), pct(wl, 0.5),
                       pct(wl, 0.9), pct(bl, 0.5), pct(res, 0.5), us, us_i,
                       bytes / 32 / (us * mhz));
                fflush(stdout);
            }
    PN_CK(cudaFree(in));
    PN_CK(cudaFree(out));
    PN_CK(cudaFree(rec));
    PN_CK(cudaFree(smd));
    return 0;
}
