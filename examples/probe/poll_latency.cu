// poll_latency.cu - what one trip of a flag-polling loop costs, against a dependent chase of
// loads that hit in L2. A warp polls a flag other blocks do not touch (it never changes): its
// loop is what compilers make of `while (*(volatile int *)f == 0)` (LDG.E.STRONG.SYS, YIELD,
// ISETP, BRA) or of a relaxed GPU-scope atomic load (LDG.E.STRONG.GPU); N trips timed with
// clock64, cycles a trip. P pollers an SM (P blocks of one warp on each of the 132 SMs, or P
// warps of one block) tell whether the polls of one SM queue. The chases: lane 0 walking a
// cycle of L lines with ld.global.cg (L2, not L1), L = 1 (the same line every step, as a poll)
// up to 2^17 (16 MiB, as line_latency.cu), cycles a step; the distance between the one-line
// chase and the poll is what the poll adds (YIELD, the branch).
//
// Output: one line per case, "case value unit detail" (examples/data/<gpu>/poll_latency.log).
// Build: nvcc -O3 -arch=sm_90 -o poll_latency examples/probe/poll_latency.cu
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define TRIPS 4096
#define WARM 256
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

// the flag stays 0; `stop` (never 0 here) keeps the compiler from proving the loop endless
__global__ void k_poll_sys(const int *flag, int stop, long long *cyc, int *sink)
{
    if ((threadIdx.x & 31) != 0) return;
    const volatile int *f = flag + 32 * (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
    int n = 0, v = 0;
    long long t0 = 0;
    while (n < TRIPS + WARM) {
        if (n == WARM) t0 = clock64();
        v += *f;
        if (v == stop) break;
        n++;
    }
    long long t1 = clock64();
    int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    cyc[w] = t1 - t0;
    sink[w] = v;
}

__global__ void k_poll_gpu(const int *flag, int stop, long long *cyc, int *sink)
{
    if ((threadIdx.x & 31) != 0) return;
    const int *f = flag + 32 * (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
    int n = 0, v = 0;
    long long t0 = 0;
    while (n < TRIPS + WARM) {
        if (n == WARM) t0 = clock64();
        int x;
        asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(x) : "l"(f) : "memory");
        v += x;
        if (v == stop) break;
        n++;
    }
    long long t1 = clock64();
    int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    cyc[w] = t1 - t0;
    sink[w] = v;
}

// a dependent chase over a cycle of lines (next[] holds line indices; 32 words a line)
__global__ void k_chase(const unsigned *next, long long *cyc, unsigned *sink)
{
    if (threadIdx.x != 0) return;
    unsigned p = 0;
    long long t0 = 0;
    for (int s = 0; s < TRIPS + WARM; s++) {
        if (s == WARM) t0 = clock64();
        asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(p) : "l"(next + (size_t)p * 32));
    }
    long long t1 = clock64();
    cyc[blockIdx.x] = t1 - t0;
    sink[blockIdx.x] = p;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int sms = prop.multiProcessorCount;
    int *flag, *sink;
    long long *cyc;
    size_t most = (size_t)sms * 32;
    CHECK(cudaMalloc(&flag, most * 32 * sizeof(int)));
    CHECK(cudaMemset(flag, 0, most * 32 * sizeof(int)));
    CHECK(cudaMalloc(&sink, most * sizeof(int)));
    CHECK(cudaMalloc(&cyc, most * sizeof(long long)));
    printf("# %s, %d SMs; cycles a trip: median over the polling warps of 5 launches, %d trips after %d\n",
           prop.name, sms, TRIPS, WARM);
    for (int kind = 0; kind < 2; kind++)
        for (int layout = 0; layout < 2; layout++)
            for (int P : { 1, 2, 4, 8, 16 }) {
                // layout 0: P blocks of one warp an SM; 1: one block of P warps an SM
                int blocks = layout == 0 ? P * sms : sms, threads = layout == 0 ? 32 : 32 * P;
                int warps = blocks * threads / 32;
                std::vector<double> v;
                for (int r = 0; r < 5; r++) {
                    if (kind == 0) k_poll_sys<<<blocks, threads>>>(flag, -1, cyc, sink);
                    else k_poll_gpu<<<blocks, threads>>>(flag, -1, cyc, sink);
                    CHECK(cudaGetLastError());
                    std::vector<long long> h(warps);
                    CHECK(cudaMemcpy(h.data(), cyc, warps * sizeof(long long), cudaMemcpyDeviceToHost));
                    for (long long c : h) v.push_back((double)c / TRIPS);
                }
                printf("poll_%s_%s%d %.1f cycles \"%d blocks of %d threads\"\n",
                       kind == 0 ? "sys" : "gpu", layout == 0 ? "blocks" : "warps", P, median(v),
                       blocks, threads);
            }
    // chases over L lines spread over 16 MiB (one block on each SM, lane 0 walking)
    const unsigned LINES = 1u << 17;
    std::vector<unsigned> host((size_t)LINES * 32);
    unsigned *next;
    CHECK(cudaMalloc(&next, host.size() * sizeof(unsigned)));
    unsigned *usink;
    CHECK(cudaMalloc(&usink, sms * sizeof(unsigned)));
    srand(12345);
    for (unsigned L : { 1u, 2u, 16u, 256u, 4096u, 1u << 17 }) {
        // a random cycle of L lines picked evenly over the buffer (stride LINES / L)
        std::vector<unsigned> order(L);
        for (unsigned i = 0; i < L; i++) order[i] = i * (LINES / L);
        for (unsigned i = L - 1; i > 0; i--) std::swap(order[i], order[(unsigned)rand() % i]);
        std::fill(host.begin(), host.end(), 0u);
        for (unsigned i = 0; i < L; i++) host[(size_t)order[i] * 32] = order[(i + 1) % L];
        if (L > 1) {
            // start at line 0: put it on the cycle
            for (unsigned i = 0; i < L; i++)
                if (order[i] == 0) { std::swap(order[0], order[i]); break; }
            for (unsigned i = 0; i < L; i++) host[(size_t)order[i] * 32] = order[(i + 1) % L];
        }
        CHECK(cudaMemcpy(next, host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
        for (int B : { 1, sms }) {
            std::vector<double> v;
            for (int r = 0; r < 5; r++) {
                k_chase<<<B, 32>>>(next, cyc, usink);
                CHECK(cudaGetLastError());
                std::vector<long long> h(B);
                CHECK(cudaMemcpy(h.data(), cyc, B * sizeof(long long), cudaMemcpyDeviceToHost));
                for (long long c : h) v.push_back((double)c / TRIPS);
            }
            printf("chase_cg_lines%u_blocks%d %.1f cycles \"%u lines over 16 MiB, %d blocks of one warp\"\n",
                   L, B, median(v), L, B);
        }
    }
    CHECK(cudaDeviceSynchronize());
    return 0;
}
