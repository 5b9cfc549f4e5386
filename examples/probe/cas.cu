// cas.cu - what a global compare-and-swap costs at L2 beside the other atomics, on few and
// many addresses. Every thread of a grid of 4 blocks of 256 threads an SM runs 16 atomics
// on word t mod BINS of one buffer (the lanes of a warp on BINS consecutive words: one word
// at BINS = 1, the 32 words of one line at 64, 32 lines' words at 4096):
//   cas   atomicCAS(x, k, k + 1), its old value used (ATOMG.CAS)
//   atom  atomicAdd(x, 1), its old value used (ATOMG.ADD)
//   red   atomicAdd(x, 1), its value unused (RED.ADD)
//   fmax  a float max by a CAS loop, as code without a native float max does (llm.c-style
//         atomic_max_float): read, compare, CAS until it holds; values rise with k so that
//         most CASes succeed
// Then, 256 atomics a thread (longer launches: the launch's own cost out of the way), cas, atom
// and red on 4096 words side by side (t mod 4096, as above) and on 2^20 words hashed
// ((t x 7919 + k x 104729) mod 2^20: every lane of a warp in a line of its own, as
// examples/memory's mm_red and mm_atom):
//   spread_<op>_bins<B>
// Timed as the example kernels are (examples/common/pn_bench.cuh: median of 10 launches after
// 2 warm-ups). Prints `probe,value,unit,detail` rows: SM-clock cycles a warp-level atomic
// (the launch's cycles over its warp instructions). Run under ncu with LAUNCHES 1 for the
// busiest L2 slice's atomic input cycles (lts__d_atomic_input_cycles_active.max), which
// pnsim import turns into kernel.memory.atomic_ns. Usage: cas CLOCK_MHZ [LAUNCHES]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

__device__ __forceinline__ void pn_fmax(float *a, float v)
{
    int *p = (int *)a, old = *p, was;
    while (__int_as_float(old) < v) {
        was = old;
        old = atomicCAS(p, was, __float_as_int(v));
        if (old == was) break;
    }
}

// mode 0 cas, 1 atom, 2 red, 3 fmax
__global__ void pn_cas(unsigned *x, unsigned bins, int mode, unsigned *sink)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, w = t % bins, acc = 0;
#pragma unroll 1
    for (unsigned k = 0; k < 16; k++) {
        if (mode == 0) acc ^= atomicCAS(&x[w], k, k + 1);
        else if (mode == 1) acc ^= atomicAdd(&x[w], 1u);
        else if (mode == 2) atomicAdd(&x[w], 1u);
        else pn_fmax((float *)&x[w], (float)(k * 65536 + t));
    }
    if (acc == 0x7fffffffu) sink[0] = acc;
}

// mode 0 cas, 1 atom, 2 red; 256 atomics a thread; hashed: lanes spread over lines
__global__ void pn_spread(unsigned *x, unsigned bins, int mode, int hashed, unsigned *sink)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
#pragma unroll 1
    for (unsigned k = 0; k < 256; k++) {
        unsigned w = hashed ? (t * 7919u + k * 104729u) % bins : t % bins;
        if (mode == 0) acc ^= atomicCAS(&x[w], k, k + 1);
        else if (mode == 1) acc ^= atomicAdd(&x[w], 1u);
        else atomicAdd(&x[w], 1u);
    }
    if (acc == 0x7fffffffu) sink[0] = acc;
}

int main(int argc, char **argv)
{
    double mhz;
    int launches, warm, sms = pn_probe_args(argc, argv, &mhz, &launches, &warm);
    const int grid = sms * 4, block = 256;
    unsigned *x, *sink;
    const size_t words = (size_t)1 << 20;
    PN_CK(cudaMalloc(&x, words * sizeof *x));
    PN_CK(cudaMalloc(&sink, sizeof *sink));
    static const char *const mname[] = { "cas", "atom", "red", "fmax" };
    static const unsigned binsv[] = { 1, 64, 4096 };
    for (int m = 0; m < 4; m++)
        for (int b = 0; b < 3; b++) {
            std::vector<double> us = pn_time_launches(warm, launches,
                [&] { PN_CK(cudaMemset(x, 0, 4096 * sizeof *x)); },
                [&] { pn_cas<<<grid, block>>>(x, binsv[b], m, sink); });
            double t = pn_pct(us, 0.5), warps = (double)grid * block / 32 * 16;
            printf("cas_%s_bins%u,%.4f,cycles/warp-atomic,\"WHOLE DEVICE; grid %d x %d threads, 16 "
                   "atomics a thread on word t mod %u (fmax: CAS loops, the count the loops' first "
                   "tries); median of %zu launches %.2f us at %.1f MHz\"\n",
                   mname[m], binsv[b], t * mhz / warps, grid, block, binsv[b], us.size(), t, mhz);
            fflush(stdout);
        }
    for (int h = 0; h < 2; h++)
        for (int m = 0; m < 3; m++) {
            unsigned bins = h ? (unsigned)words : 4096u;
            std::vector<double> us = pn_time_launches(warm, launches,
                [&] { PN_CK(cudaMemset(x, 0, words * sizeof *x)); },
                [&] { pn_spread<<<grid, block>>>(x, bins, m, h, sink); });
            double t = pn_pct(us, 0.5), warps = (double)grid * block / 32 * 256;
            printf("spread_%s_bins%u,%.4f,cycles/warp-atomic,\"WHOLE DEVICE; grid %d x %d threads, 256 "
                   "atomics a thread on word %s; median of %zu launches %.2f us at %.1f MHz\"\n",
                   mname[m], bins, t * mhz / warps, grid, block,
                   h ? "(t x 7919 + k x 104729) mod 2^20 (a line a lane)" : "t mod 4096",
                   us.size(), t, mhz);
            fflush(stdout);
        }
    PN_CK(cudaFree(x));
    PN_CK(cudaFree(sink));
    return 0;
}
