// store_split.cu - what the L2 takes for stores that write part of each sector they touch:
// a float4 written as four 32-bit stores at +0, +4, +8 and +12 (what nvcc emits where it
// cannot prove a 16-byte alignment: HeCBench's rmsnorm), against the one 128-bit store, and
// against four 32-bit stores of the same stride into four arrays (no later store completes
// a sector). Every kernel writes into L2-resident arrays (4 MiB each, swept again and again
// by a grid-stride loop over 132 x 8 blocks of 256 threads), so the L2's write path, not the
// DRAM, sets the rate.
//   full128   st.global.v4.f32 a[i]                      16 sectors, 4 lines a warp store
//   split4    st.global.f32 a[4i + 0..3], in that order  16 sectors, 4 lines each, 8 bytes a sector
//   spread4   st.global.f32 a0..a3[4i]                   16 sectors, 4 lines each, 8 bytes a sector
//   full32x4  st.global.f32 a0..a3[i]                    4 sectors, 1 line each
// Prints CSV rows `store_<kind>,value,unit,detail`: the sectors the warp stores touch a
// cycle over the device (SM clock CLOCK_MHZ), from the median of 15 timed launches after 3.
// Run it under ncu (lts__t_sectors_srcunit_tex_op_write.sum,
// lts__t_requests_srcunit_tex_op_write.sum) to see what reaches the L2.
// Usage: store_split CLOCK_MHZ
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#include "../common/pn_bench.cuh"

#define SS_N (1 << 20) /* float4s an array: 4 MiB */

template <int KIND>
__global__ void __launch_bounds__(256) ss_store(float *a0, float *a1, float *a2, float *a3, int trips)
{
    unsigned g = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
    float v = (float)threadIdx.x;
    for (int t = 0; t < trips; t++) {
        for (unsigned i = g; i < SS_N; i += n) {
            if (KIND == 0) {
                asm volatile("st.global.v4.f32 [%0], {%1, %1, %1, %1};" ::"l"(a0 + 4 * (size_t)i), "f"(v) : "memory");
            } else if (KIND == 1) {
                float *p = a0 + 4 * (size_t)i;
                asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
                asm volatile("st.global.f32 [%0+4], %1;" ::"l"(p), "f"(v) : "memory");
                asm volatile("st.global.f32 [%0+8], %1;" ::"l"(p), "f"(v) : "memory");
                asm volatile("st.global.f32 [%0+12], %1;" ::"l"(p), "f"(v) : "memory");
            } else if (KIND == 2) {
                size_t j = 4 * (size_t)i;
                asm volatile("st.global.f32 [%0], %1;" ::"l"(a0 + j), "f"(v) : "memory");
                asm volatile("st.global.f32 [%0], %1;" ::"l"(a1 + j), "f"(v) : "memory");
                asm volatile("st.global.f32 [%0], %1;" ::"l"(a2 + j), "f"(v) : "memory");
                asm volatile("st.global.f32 [%0], %1;" ::"l"(a3 + j), "f"(v) : "memory");
            } else {
                asm volatile("st.global.f32 [%0], %1;" ::"l"(a0 + i), "f"(v) : "memory");
                asm volatile("st.global.f32 [%0], %1;" ::"l"(a1 + i), "f"(v) : "memory");
                asm volatile("st.global.f32 [%0], %1;" ::"l"(a2 + i), "f"(v) : "memory");
                asm volatile("st.global.f32 [%0], %1;" ::"l"(a3 + i), "f"(v) : "memory");
            }
            v += 1.0f;
        }
    }
}

typedef void (*kfn)(float *, float *, float *, float *, int);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: store_split CLOCK_MHZ\n");
        return 2;
    }
    double mhz = atof(argv[1]);
    static const char *const name[] = { "full128", "split4", "spread4", "full32x4" };
    kfn fns[] = { ss_store<0>, ss_store<1>, ss_store<2>, ss_store<3> };
    /* sectors the warp stores of one float4 slot a thread touch (per 32 threads) */
    const double sectors[] = { 16, 64, 64, 16 };
    float *a[4];
    for (int k = 0; k < 4; k++)
        PN_CK(cudaMalloc(&a[k], (size_t)SS_N * 16));
    const int blocks = 132 * 8, threads = 256, trips = 32;
    cudaEvent_t e0, e1;
    PN_CK(cudaEventCreate(&e0));
    PN_CK(cudaEventCreate(&e1));
    for (int k = 0; k < 4; k++) {
        std::vector<float> ms;
        for (int r = 0; r < 18; r++) {
            PN_CK(cudaEventRecord(e0));
            fns[k]<<<blocks, threads>>>(a[0], a[1], a[2], a[3], trips);
            PN_CK_LAUNCH();
            PN_CK(cudaEventRecord(e1));
            PN_CK(cudaEventSynchronize(e1));
            float t;
            PN_CK(cudaEventElapsedTime(&t, e0, e1));
            if (r >= 3)
                ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        double med = ms[ms.size() / 2];
        double warp_slots = (double)SS_N / 32 * trips;
        double rate = warp_slots * sectors[k] / (med * 1e-3 * mhz * 1e6);
        printf("store_%s,%.3f,sectors/cycle,\"%d x %d threads, %d sweeps of %d float4 slots; median %.1f us of 15; %g sectors a warp's slot\"\n",
               name[k], rate, blocks, threads, trips, SS_N, med * 1e3, sectors[k]);
    }
    return 0;
}
