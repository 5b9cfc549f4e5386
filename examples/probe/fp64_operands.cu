// fp64_operands.cu - does a DFMA cost more when its three sources are distinct 64-bit
// registers, or when its chain runs through another operand? (Rodinia's lavaMD evaluates
// exp() as a Horner chain, DFMA R48, R52, R48, Rk with a different Rk each step, and ran
// 1.18 times the cycles the sass engine gave it, most of the gap on its DFMAs.)
// Variants (x the chain, y and z loop-invariant registers, c[r] eight distinct registers):
//   yy      x = x * y + y       (the fp64 probe's: two distinct sources)
//   yz      x = x * y + z       (three distinct sources, the same each step)
//   horner  x = x * y + c[r]    (three distinct, the addend changes each step)
//   hornb   x = y * x + c[r]    (the chain through the second source)
//   addend  x = c[r] * y + x    (the chain through the addend)
// For each: the cycles a partition spends per DFMA with 8 warps a partition and 8 independent
// chains a thread (pipe_*), one warp's dependent chain (lat_*), and 7 warps a partition with one
// chain each (w7_*: cycles between one warp's DFMAs with seven warps sharing the pipe, as lavaMD
// runs). Prints CSV rows `probe,value,unit,detail`. Usage: fp64_operands (no arguments).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

#define CH 8
#define PER 8 /* ops a chain a trip */

template <int OP, int NCH>
__global__ void __launch_bounds__(1024) pn_dfma_ops(int trips, double dy, long long *cyc,
                                                    double *sink)
{
    double d[NCH], c[PER];
    unsigned t = threadIdx.x;
#pragma unroll
    for (int k = 0; k < NCH; k++) d[k] = 1.0 + (double)(t + k) * 1e-9;
#pragma unroll
    for (int r = 0; r < PER; r++) c[r] = 1e-3 * (double)(r + 1) + (double)t * 1e-12;
    double y = dy, z = dy * 0.5 + (double)t * 1e-13;
    __syncthreads();
    long long t0 = clock64();
    for (int k = 0; k < trips; k++) {
#pragma unroll
        for (int r = 0; r < PER; r++) {
#pragma unroll
            for (int q = 0; q < NCH; q++) {
                if (OP == 0) asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(d[q]) : "d"(y));
                else if (OP == 1) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(d[q]) : "d"(y), "d"(z));
                else if (OP == 2) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(d[q]) : "d"(y), "d"(c[r]));
                else if (OP == 3) asm volatile("fma.rn.f64 %0, %1, %0, %2;" : "+d"(d[q]) : "d"(y), "d"(c[r]));
                else asm volatile("fma.rn.f64 %0, %1, %2, %0;" : "+d"(d[q]) : "d"(c[r]), "d"(y));
            }
        }
    }
    long long t1 = clock64();
    double s = 0;
#pragma unroll
    for (int k = 0; k < NCH; k++) s += d[k];
#pragma unroll
    for (int r = 0; r < PER; r++) s += c[r];
    if (s == 1234.5) sink[0] = s;
    if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

typedef void (*kfn)(int, double, long long *, double *);

static double cycles(kfn f, int block, int trips, long long *cyc, double *sink)
{
    return pn_clock_median(cyc, 7, [&] { f<<<1, block>>>(trips, 1.0000001, cyc, sink); });
}

int main()
{
    static const char *const name[] = { "yy", "yz", "horner", "hornb", "addend" };
    kfn tput[] = { pn_dfma_ops<0, CH>, pn_dfma_ops<1, CH>, pn_dfma_ops<2, CH>, pn_dfma_ops<3, CH>,
                   pn_dfma_ops<4, CH> };
    kfn one[] = { pn_dfma_ops<0, 1>, pn_dfma_ops<1, 1>, pn_dfma_ops<2, 1>, pn_dfma_ops<3, 1>,
                  pn_dfma_ops<4, 1> };
    long long *cyc;
    double *sink;
    PN_CK(cudaMalloc(&cyc, sizeof *cyc));
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    const int A = 64, B = 256;
    for (int op = 0; op < 5; op++) {
        double c0 = cycles(tput[op], 1024, A, cyc, sink), c1 = cycles(tput[op], 1024, B, cyc, sink);
        double per = (c1 - c0) / ((double)(B - A) * 8 * CH * PER);
        printf("pipe_%s,%.4f,cycles,\"1 block of 32 warps x %d independent DFMA chains (%s), %d a "
               "chain a trip; slope %d vs %d trips (medians of 7: %.0f, %.0f); cycles a "
               "partition per warp instruction\"\n", name[op], per, CH, name[op], PER, A, B, c0, c1);
        double l0 = cycles(one[op], 32, A, cyc, sink), l1 = cycles(one[op], 32, B, cyc, sink);
        printf("lat_%s,%.4f,cycles,\"1 warp, 1 dependent DFMA chain (%s); slope %d vs %d trips "
               "(medians of 7: %.0f, %.0f); cycles an op to the next that reads its result\"\n",
               name[op], (l1 - l0) / ((double)(B - A) * PER), name[op], A, B, l0, l1);
        double w0 = cycles(one[op], 896, A, cyc, sink), w1 = cycles(one[op], 896, B, cyc, sink);
        printf("w7_%s,%.4f,cycles,\"1 block of 28 warps (7 a partition), 1 dependent DFMA chain "
               "each (%s); slope %d vs %d trips (medians of 7: %.0f, %.0f); cycles between one "
               "warp's DFMAs\"\n", name[op], (w1 - w0) / ((double)(B - A) * PER), name[op], A, B,
               w0, w1);
        fflush(stdout);
    }
    PN_CK(cudaFree(cyc));
    PN_CK(cudaFree(sink));
    return 0;
}
