// fp64.cu - what double-precision arithmetic costs a partition and how long its result takes.
// Throughput: one block of 32 warps (8 a partition), each thread CH independent chains of one
// op, PER ops a chain a trip; the slope of block 0's clock64 between two trip counts over the
// warp instructions a partition issued is the cycles a partition spends per instruction.
// Latency: one warp, one chain; the slope over its instructions. Mixed: FFMA and DFMA
// alternating in independent chains (do they share a pipe?).
//   dfma   fma.rn.f64                          (DFMA)
//   dadd   add.rn.f64                          (DADD)
//   dmul   mul.rn.f64                          (DMUL)
//   rcp64  rcp.approx.ftz.f64                  (MUFU.RCP64H)
//   mix    fma.rn.f32 and fma.rn.f64 alternating (FFMA, DFMA)
// Prints CSV rows `probe,value,unit,detail`: pipe_<op> (cycles a partition per warp
// instruction) and lat_<op> (cycles from an op to the next that reads its result; not for
// mix). Usage: fp64 (no arguments). cuobjdump -sass shows the opcode each op became.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

#define CH 8
#define PER 8 /* ops a chain a trip */

template <int OP, int NCH>
__global__ void __launch_bounds__(1024) pn_fp64(int trips, double dy, long long *cyc, double *sink)
{
    double d[NCH];
    float f[NCH];
    unsigned t = threadIdx.x;
#pragma unroll
    for (int c = 0; c < NCH; c++) {
        d[c] = 1.0 + (double)(t + c) * 1e-9;
        f[c] = 1.0f + (float)(t + c) * 1e-7f;
    }
    float fy = (float)dy;
    __syncthreads();
    long long t0 = clock64();
    for (int k = 0; k < trips; k++) {
#pragma unroll
        for (int r = 0; r < PER; r++) {
#pragma unroll
            for (int c = 0; c < NCH; c++) {
                if (OP == 0) asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(d[c]) : "d"(dy));
                else if (OP == 1) asm volatile("add.rn.f64 %0, %0, %1;" : "+d"(d[c]) : "d"(dy));
                else if (OP == 2) asm volatile("mul.rn.f64 %0, %0, %1;" : "+d"(d[c]) : "d"(dy));
                else if (OP == 3) asm volatile("rcp.approx.ftz.f64 %0, %0;" : "+d"(d[c]));
                else if (OP == 4) {
                    if (c & 1) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(f[c]) : "f"(fy));
                    else asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(d[c]) : "d"(dy));
                }
            }
        }
    }
    long long t1 = clock64();
    double s = 0;
#pragma unroll
    for (int c = 0; c < NCH; c++) s += d[c] + f[c];
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
    static const char *const name[] = { "dfma", "dadd", "dmul", "rcp64", "mix_ffma_dfma" };
    kfn tput[] = { pn_fp64<0, CH>, pn_fp64<1, CH>, pn_fp64<2, CH>, pn_fp64<3, CH>, pn_fp64<4, CH> };
    kfn lat[] = { pn_fp64<0, 1>, pn_fp64<1, 1>, pn_fp64<2, 1>, pn_fp64<3, 1> };
    long long *cyc;
    double *sink;
    PN_CK(cudaMalloc(&cyc, sizeof *cyc));
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    const int A = 64, B = 256;
    for (int op = 0; op < 5; op++) {
        double c0 = cycles(tput[op], 1024, A, cyc, sink), c1 = cycles(tput[op], 1024, B, cyc, sink);
        /* warp instructions a partition issued per trip: 8 warps x CH chains x PER */
        double per = (c1 - c0) / ((double)(B - A) * 8 * CH * PER);
        printf("pipe_%s,%.4f,cycles,\"1 block of 32 warps x %d independent chains of %s, %d a "
               "chain a trip; block 0's clock64, slope %d vs %d trips (medians of 7: %.0f, %.0f "
               "cycles); cycles a partition per warp instruction\"\n",
               name[op], per, CH, name[op], PER, A, B, c0, c1);
        if (op == 4)
            continue;
        double l0 = cycles(lat[op], 32, A, cyc, sink), l1 = cycles(lat[op], 32, B, cyc, sink);
        double l = (l1 - l0) / ((double)(B - A) * PER);
        printf("lat_%s,%.4f,cycles,\"1 warp, 1 dependent chain of %s, %d a trip; slope %d vs %d "
               "trips (medians of 7: %.0f, %.0f cycles); cycles an op to the next that reads its "
               "result\"\n",
               name[op], l, name[op], PER, A, B, l0, l1);
        fflush(stdout);
    }
    PN_CK(cudaFree(cyc));
    PN_CK(cudaFree(sink));
    return 0;
}
