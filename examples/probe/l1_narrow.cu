// l1_narrow.cu - what a global load that hits L1 costs the SM by the size of its lanes' data
// and the lines a warp's request touches. One block of 1024 threads (32 warps) an SM; every
// warp's lanes read K lines (lane l in line group l mod K, at byte (l / K) x size of it; a
// group is one line, or as many as the 32 / K lanes' data fill: the lanes of different groups
// read one offset of their lines, one bank, so a request takes a data-stage wavefront a line),
// 16 loads a trip, each in one of 16 windows of 4 KB that stay in L1 (64 KB read again and
// again). Modes:
//   spread  load j of a trip reads window j: every load its own lines
//   walk    (1-byte lanes) load j reads byte j of the lane's 16-byte chunk of window 0: the
//           16 loads of a trip on the same sectors, as a hash that reads a key a byte at a
//           time (HeCBench's murmurhash3: LDG.E.U8 at [R2.64-0x7] .. [R2.64+0x8])
//   skew    as spread, each line group's lanes 4 bytes further into their line than the
//           group before (different banks: fewer data-stage wavefronts than lines)
// Prints `probe,value,unit,detail` rows: SM-clock cycles a warp-load over the SM (clock64
// over 64 and 256 trips, the slope). Run under ncu with one argument `ncu` for one launch a
// case (the L1's wavefront metrics of pnsim import --metrics). Usage: l1_narrow [ncu]
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"

__device__ __forceinline__ unsigned val(uint8_t x) { return x; }
__device__ __forceinline__ unsigned val(uint16_t x) { return x; }
__device__ __forceinline__ unsigned val(uint32_t x) { return x; }
__device__ __forceinline__ unsigned val(uint2 x) { return x.x ^ x.y; }
__device__ __forceinline__ unsigned val(uint4 x) { return x.x ^ x.y ^ x.z ^ x.w; }

template <typename T, int WALK>
__global__ void pn_l1_narrow(const unsigned char *__restrict__ g, unsigned *out, long long *cyc,
                             int trips, int K, int zero)
{
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const int size = (int)sizeof(T), per = 32 / K;
    const int stride = WALK == 1 ? 128 : (per * size > 128 ? per * size : 128);
    /* skewed (WALK 2): each line group's lanes 4 bytes further into their line than the group
     * before, so that the groups read different banks */
    const size_t skew = WALK == 2 ? (size_t)(lane % K) * 4 : 0;
    const unsigned char *base = g + (size_t)(lane % K) * stride + skew +
                                (size_t)(lane / K) * (WALK == 1 ? 16 : size);
    unsigned acc = 0;
    for (int j = 0; j < 16; j++)
        acc += val(*(const T *)(base + j * 4096));
    __syncthreads();
    long long t0 = clock64();
    for (int t = 0; t < trips; t++) {
        int o = t * zero;
#pragma unroll
        for (int j = 0; j < 16; j++) {
            const unsigned char *p = WALK == 1 ? base + j + o : base + ((j + w) & 15) * 4096 + o;
            acc += val(*(const T *)p);
        }
    }
    __syncthreads();
    long long t1 = clock64();
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}

typedef void (*kern_t)(const unsigned char *, unsigned *, long long *, int, int, int);

int main(int argc, char **argv)
{
    int ncu = argc > 1 && !strcmp(argv[1], "ncu"), sms = 0;
    PN_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    unsigned char *g;
    unsigned *out;
    long long *cyc;
    PN_CK(cudaMalloc(&g, 1 << 20));
    PN_CK(cudaMemset(g, 1, 1 << 20));
    PN_CK(cudaMalloc(&out, (size_t)sms * 1024 * sizeof *out));
    PN_CK(cudaMalloc(&cyc, (size_t)sms * sizeof *cyc));
    struct { const char *name; int size, walk; kern_t k; } cases[] = {
        { "u8", 1, 0, pn_l1_narrow<uint8_t, 0> },    { "u16", 2, 0, pn_l1_narrow<uint16_t, 0> },
        { "u32", 4, 0, pn_l1_narrow<uint32_t, 0> },  { "u64", 8, 0, pn_l1_narrow<uint2, 0> },
        { "u128", 16, 0, pn_l1_narrow<uint4, 0> },   { "u8walk", 1, 1, pn_l1_narrow<uint8_t, 1> },
        { "u8skew", 1, 2, pn_l1_narrow<uint8_t, 2> }, { "u16skew", 2, 2, pn_l1_narrow<uint16_t, 2> },
        { "u32skew", 4, 2, pn_l1_narrow<uint32_t, 2> },
    };
    const int Ks[] = { 1, 2, 4, 8, 16, 32 };
    for (auto &c : cases)
        for (int K : Ks) {
            if ((c.walk == 1 && K < 4) || (c.walk == 2 && (K < 2 || K * 4 + 32 / K * c.size > 128)))
                continue;   /* the lanes' chunks, or the skew, fill more than a line */
            long long h[2];
            int trips[2] = { 64, 256 };
            for (int r = 0; r < (ncu ? 1 : 2); r++) {
                c.k<<<sms, 1024>>>(g, out, cyc, trips[r], K, 0);
                PN_CK(cudaDeviceSynchronize());
                PN_CK(cudaMemcpy(&h[r], cyc, sizeof h[r], cudaMemcpyDeviceToHost));
            }
            if (ncu)
                continue;
            double per = (double)(h[1] - h[0]) / ((trips[1] - trips[0]) * 16.0 * 32);
            printf("l1_narrow_%s_K%d,%.3f,cycles/warp-load,\"SM-wide, 32 warps an SM, %d-byte lanes "
                   "on %d line group(s) a request, %s\"\n",
                   c.name, K, per, c.size, K, c.walk == 1 ? "16 loads a trip on a lane's 16 bytes" :
                   c.walk == 2 ? "every load its own lines, the groups on different banks, all L1 hits" :
                   "every load its own lines, all L1 hits");
            fflush(stdout);
        }
    return 0;
}
