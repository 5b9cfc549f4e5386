// tensor.cu - what a warp-level matrix multiply-accumulate (mma.sync: HMMA) costs a partition
// and how long its result takes. Throughput: one block of 32 warps (8 a partition), each
// thread CH independent accumulator chains of one shape, PER ops a chain a trip; the slope of
// block 0's clock64 between two trip counts over the HMMAs a partition issued is the cycles a
// partition spends per HMMA. Latency: one warp, one chain; the slope over its HMMAs.
//   m16n8k16_f32   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32   (HMMA.16816.F32)
//   m16n8k16_f16   mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16   (HMMA.16816.F16)
//   m16n8k8_f32    mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32    (HMMA.1688.F32)
//   m16n8k4_tf32   mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32  (HMMA.1684.F32.TF32)
//   m16n8k8_tf32   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32  (HMMA.1688.F32.TF32)
// Prints CSV rows `probe,value,unit,detail`: tensor_<shape> (cycles a partition per HMMA) and
// lat_tensor_<shape> (cycles from an HMMA to the next one that reads its result; not for the
// f16 shape, whose one-chain loop ptxas folds away).
// Usage: tensor (no arguments). cuobjdump -sass shows the HMMA each op became.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

#define CH 4
#define PER 8 /* ops a chain a trip */

template <int OP, int NCH>
__global__ void __launch_bounds__(1024) pn_mma(int trips, long long *cyc, float *sink)
{
    unsigned a[4], b[2];
    float c[NCH][4];
    unsigned h[NCH][2];
    unsigned t = threadIdx.x;
    for (int i = 0; i < 4; i++) a[i] = 0x3c003c00u ^ (t + i);  /* halves near 1 */
    for (int i = 0; i < 2; i++) b[i] = 0x3c003c00u ^ (t * 3 + i);
#pragma unroll
    for (int k = 0; k < NCH; k++) {
        for (int i = 0; i < 4; i++) c[k][i] = 0.f;
        h[k][0] = h[k][1] = 0;
    }
    __syncthreads();
    long long t0 = clock64();
    for (int n = 0; n < trips; n++) {
#pragma unroll
        for (int r = 0; r < PER; r++) {
#pragma unroll
            for (int k = 0; k < NCH; k++) {
                if (OP == 0)
                    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                                 : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
                else if (OP == 1)
                    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
                                 "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                                 : "+r"(h[k][0]), "+r"(h[k][1])
                                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
                else if (OP == 2)
                    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                                 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                                 : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                                 : "r"(a[0]), "r"(a[1]), "r"(b[0]));
                else if (OP == 3)
                    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 "
                                 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                                 : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                                 : "r"(a[0]), "r"(a[1]), "r"(b[0]));
                else
                    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                                 : "+f"(c[k][0]), "+f"(c[k][1]), "+f"(c[k][2]), "+f"(c[k][3])
                                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
            }
        }
    }
    long long t1 = clock64();
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < NCH; k++) s += c[k][0] + c[k][3] + (float)(h[k][0] ^ h[k][1]);
    if (s == 1234.5f) sink[0] = s;
    if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

typedef void (*kfn)(int, long long *, float *);

/* Median of 7 launches of f<<<1, block>>> over `trips` trips: block 0's cycles. */
static double cycles(kfn f, int block, int trips, long long *cyc, float *sink)
{
    return pn_clock_median(cyc, 7, [&] { f<<<1, block>>>(trips, cyc, sink); });
}

int main()
{
    static const char *const name[] = { "m16n8k16_f32", "m16n8k16_f16", "m16n8k8_f32",
                                        "m16n8k4_tf32", "m16n8k8_tf32" };
    kfn tput[] = { pn_mma<0, CH>, pn_mma<1, CH>, pn_mma<2, CH>, pn_mma<3, CH>, pn_mma<4, CH> };
    kfn lat[] = { pn_mma<0, 1>, pn_mma<1, 1>, pn_mma<2, 1>, pn_mma<3, 1>, pn_mma<4, 1> };
    long long *cyc;
    float *sink;
    PN_CK(cudaMalloc(&cyc, sizeof *cyc));
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    const int A = 64, B = 256;
    for (int op = 0; op < 5; op++) {
        double c0 = cycles(tput[op], 1024, A, cyc, sink), c1 = cycles(tput[op], 1024, B, cyc, sink);
        /* HMMAs a partition issued per trip: 8 warps x CH chains x PER */
        double per = (c1 - c0) / ((double)(B - A) * 8 * CH * PER);
        printf("tensor_%s,%.4f,cycles,\"1 block of 32 warps x %d independent accumulator chains "
               "of mma.sync %s, %d a chain a trip; block 0's clock64, slope %d vs %d trips "
               "(medians of 7: %.0f, %.0f cycles); cycles a partition per HMMA\"\n",
               name[op], per, CH, name[op], PER, A, B, c0, c1);
        if (op == 1)
            continue; /* an f16 chain of one: ptxas folds its loop away */
        double l0 = cycles(lat[op], 32, A, cyc, sink), l1 = cycles(lat[op], 32, B, cyc, sink);
        double l = (l1 - l0) / ((double)(B - A) * PER);
        printf("lat_tensor_%s,%.4f,cycles,\"1 warp, 1 accumulator chain of mma.sync %s, %d a "
               "trip; slope %d vs %d trips (medians of 7: %.0f, %.0f cycles); cycles an HMMA "
               "to the next that reads its result\"\n",
               name[op], l, name[op], PER, A, B, l0, l1);
        fflush(stdout);
    }
    PN_CK(cudaFree(cyc));
    PN_CK(cudaFree(sink));
    return 0;
}
