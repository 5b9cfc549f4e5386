// diverge.cu - what a warp pays when its threads disagree at a branch: one block of 32 warps
// (8 a partition), every thread `trips` times an if/else whose two sides are 16 independent
// FMAs each (kept as branches: BSSY, BRA, BSYNC), its condition taken from the lane (both
// sides run in every warp: divergent) or from the warp (one side a warp: uniform), and a
// 4-way switch on the lane (four sides a warp); then an 8-way switch of one integer op a case
// on the warp (uniform) and on the lane (divergent), mostly branches. The slope of block 0's
// clock64 between two
// trip counts, over the warp instructions a partition issued per trip (from the SASS: its
// counts per side), is the cycles a partition spends per warp instruction of each.
// Prints CSV rows `probe,value,unit,detail`: diverge_<kind> (cycles a partition per trip of
// one warp) and the instructions a trip a warp issues are in the detail. Usage: diverge.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

#define SIDE(v)                                                                              \
    _Pragma("unroll") for (int r = 0; r < 16; r++) v[r] = fmaf(v[r], 1.0001f, 0.5f);

template <int KIND>
__global__ void __launch_bounds__(1024) pn_diverge(int trips, long long *cyc, float *sink)
{
    float a[16], b[16];
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int r = 0; r < 16; r++) a[r] = b[r] = (float)(threadIdx.x + r);
    __syncthreads();
    long long t0 = clock64();
    unsigned u = threadIdx.x * 2654435761u;
    for (int k = 0; k < trips; k++) {
        unsigned sel = KIND == 0 ? (lane ^ (unsigned)k) & 1 : KIND == 1 ? (warp ^ (unsigned)k) & 1
                                                                      : (lane ^ (unsigned)k) & 3;
        if (KIND >= 3) {
            switch (((KIND == 3 ? warp : lane) ^ (unsigned)k) & 7) {
            case 0: u = u * 3u + 1u; break;
            case 1: u ^= u << 7; break;
            case 2: u += 0x9e3779b9u; break;
            case 3: u = (u >> 3) | (u << 29); break;
            case 4: u = u * 2654435761u; break;
            case 5: u ^= u >> 11; break;
            case 6: u -= 12345u; break;
            default: u = ~u; break;
            }
        } else if (KIND < 2) {
            if (sel) {
                SIDE(a)
            } else {
                SIDE(b)
            }
        } else {
            switch (sel) {
            case 0: SIDE(a) break;
            case 1: SIDE(b) break;
            case 2: for (int r = 0; r < 16; r++) a[r] = fmaf(a[r], 0.9999f, b[r]); break;
            default: for (int r = 0; r < 16; r++) b[r] = fmaf(b[r], 0.9999f, a[r]); break;
            }
        }
    }
    long long t1 = clock64();
    float s = 0.f;
    for (int r = 0; r < 16; r++) s += a[r] + b[r];
    s += (float)u;
    if (s == 1234.5f) sink[0] = s;
    if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

typedef void (*kfn)(int, long long *, float *);

int main()
{
    static const char *const name[] = { "if_lanes", "if_warps", "switch4_lanes", "switch8_warps",
                                        "switch8_lanes" };
    kfn fns[] = { pn_diverge<0>, pn_diverge<1>, pn_diverge<2>, pn_diverge<3>, pn_diverge<4> };
    long long *cyc;
    float *sink;
    PN_CK(cudaMalloc(&cyc, sizeof *cyc));
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    const int A = 64, B = 512;
    for (int op = 0; op < 5; op++) {
        double c[2];
        int trips[2] = { A, B };
        for (int i = 0; i < 2; i++)
            c[i] = pn_clock_median(cyc, 7, [&] { fns[op]<<<1, 1024>>>(trips[i], cyc, sink); });
        /* a partition's 8 warps: cycles per trip of one warp */
        double per = (c[1] - c[0]) / ((double)(B - A) * 8);
        printf("diverge_%s,%.4f,cycles,\"1 block of 32 warps; %s, its condition from the %s; "
               "block 0's clock64, "
               "slope %d vs %d trips (medians of 7: %.0f, %.0f cycles); cycles a partition per "
               "trip of one warp\"\n",
               name[op], per,
               op < 2    ? "an if/else of 16 independent FMAs a side"
               : op == 2 ? "a 4-way switch of 16 independent FMAs a side"
                         : "an 8-way switch of one integer op a case",
               op == 1 || op == 3 ? "warp" : "lane", A, B, c[0], c[1]);
    }
    PN_CK(cudaFree(cyc));
    PN_CK(cudaFree(sink));
    return 0;
}
