// loop_branch.cu - what a loop's compare and branch cost one warp: Rodinia's find_index and
// lavaMD wait 13-15 cycles between a compare and the branch that reads its predicate (ncu's
// "wait" samples), where the kernels written here wait 3-5. One warp, loops kept rolled
// (#pragma unroll 1), block 0's clock64 around the loop; the slope between two trip counts
// is the cycles a trip.
//   count    for (i < n) acc = acc * a + b          uniform trip count (kernel argument)
//   bound    for (i < m[tid]) acc = acc * a + b     a trip count each thread loads
//   search   while (s[i] < key) i++                 shared array (LDS, ISETP, BRA)
//   dsearch  while (d[i] < key) i++                 global doubles, L1-resident (LDG.64,
//                                                   DSETP, BRA: find_index's loop)
//   fsearch  while (f[i] < key) i++                 global floats, L1-resident (FSETP)
// Prints CSV rows `probe,value,unit,detail` (loop_<kind>: cycles a trip). With --launch N it
// launches each kernel once with N trips instead (for ncu and pnsim: `pnsim import` of the
// report, then `pnsim run` of each config, against the cycles printed here as loopcyc_<kind>).
// Usage: loop_branch [--launch N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../common/pn_bench.cuh"

#define SN 4096

template <int K>
__global__ void pn_loop(int n, float a, const int *m, const double *d, const float *f,
                        long long *cyc, float *sink)
{
    __shared__ int s[SN];
    for (int i = threadIdx.x; i < SN; i += blockDim.x) s[i] = i < n ? i : 1 << 30;
    __syncthreads();
    float acc = threadIdx.x;
    int i = 0;
    long long t0 = clock64();
    if (K == 0) {
#pragma unroll 1
        for (i = 0; i < n; i++) acc = acc * a + 1.0f;
    } else if (K == 1) {
        int lim = m[threadIdx.x];
#pragma unroll 1
        for (i = 0; i < lim; i++) acc = acc * a + 1.0f;
    } else if (K == 2) {
#pragma unroll 1
        while (s[i] < n) i++;
    } else if (K == 3) {
        double key = (double)n;
#pragma unroll 1
        while (d[i] < key) i++;
    } else {
        float key = (float)n;
#pragma unroll 1
        while (f[i] < key) i++;
    }
    long long t1 = clock64();
    if (acc == 1234.5f || i < 0) sink[threadIdx.x] = acc + i;
    if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

typedef void (*kfn)(int, float, const int *, const double *, const float *, long long *, float *);

int main(int argc, char **argv)
{
    int launch = argc > 2 && !strcmp(argv[1], "--launch") ? atoi(argv[2]) : 0;
    static const char *const name[] = { "count", "bound", "search", "dsearch", "fsearch" };
    kfn k[] = { pn_loop<0>, pn_loop<1>, pn_loop<2>, pn_loop<3>, pn_loop<4> };
    const int N = SN - 1;
    std::vector<double> hd(N + 1);
    std::vector<float> hf(N + 1);
    for (int i = 0; i <= N; i++) hd[i] = hf[i] = (float)i;
    double *d = pn_dev_copy(hd);
    float *f = pn_dev_copy(hf);
    int *m, *hm = (int *)malloc(32 * sizeof(int));
    long long *cyc;
    float *sink;
    PN_CK(cudaMalloc(&m, 32 * sizeof(int)));
    PN_CK(cudaMalloc(&cyc, sizeof *cyc));
    PN_CK(cudaMalloc(&sink, 32 * sizeof(float)));
    for (int q = 0; q < 5; q++) {
        auto at = [&](int trips) {
            for (int t = 0; t < 32; t++) hm[t] = trips;
            PN_CK(cudaMemcpy(m, hm, 32 * sizeof(int), cudaMemcpyHostToDevice));
            return pn_clock_median(cyc, 7, [&] { k[q]<<<1, 32>>>(trips, 1.0001f, m, d, f, cyc, sink); });
        };
        if (launch > 0) {
            printf("loopcyc_%s,%.0f,cycles,\"1 warp, %d trips; block 0's clock64 around the loop "
                   "(median of 7)\"\n", name[q], at(launch), launch);
            continue;
        }
        const int A = 256, B = 2048;
        double c0 = at(A), c1 = at(B);
        printf("loop_%s,%.4f,cycles,\"1 warp, a rolled loop (%s); slope %d vs %d trips (medians "
               "of 7: %.0f, %.0f); cycles a trip\"\n", name[q], (c1 - c0) / (B - A), name[q], A, B,
               c0, c1);
    }
    fflush(stdout);
    return 0;
}
