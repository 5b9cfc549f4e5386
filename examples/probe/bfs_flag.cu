// bfs_flag.cu - what makes Rodinia bfs's second kernel slow when the frontier is wide:
// `if (upd[tid]) { mask[tid] = 1; visited[tid] = 1; *over = 1; upd[tid] = 0; }` over
// 1954 blocks of 512 threads (1M nodes), with a fraction p of the nodes set at random,
// in variants: the kernel as written (byte arrays, a byte flag), without the flag's store,
// the flag's store alone, the array stores alone with int arrays, and the flag written by
// lane 0 of each warp only. Median of 20 launches (CUDA events around the kernel alone;
// upd is set again from the pattern before each launch, outside the timing).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "../common/pn_bench.cuh"

enum { V_ALL, V_NOFLAG, V_FLAGONLY, V_INT, V_LANE0, V_N };
static const char *vname[V_N] = { "as_written", "no_flag", "flag_only", "int_arrays", "flag_lane0" };

template <typename T>
__global__ void k2(T *mask, T *upd, T *visited, T *over, int n, int v)
{
    int tid = blockIdx.x * 512 + threadIdx.x;
    if (tid < n && upd[tid]) {
        if (v != V_FLAGONLY) {
            mask[tid] = 1;
            visited[tid] = 1;
        }
        if (v == V_ALL || v == V_FLAGONLY || v == V_INT || (v == V_LANE0 && (threadIdx.x & 31) == 0))
            *over = 1;
        if (v != V_FLAGONLY)
            upd[tid] = 0;
    }
}

int main()
{
    const int n = 1954 * 512;
    void *mask, *upd, *vis, *over, *pat;
    PN_CK(cudaMalloc(&mask, (size_t)n * 4));
    PN_CK(cudaMalloc(&upd, (size_t)n * 4));
    PN_CK(cudaMalloc(&vis, (size_t)n * 4));
    PN_CK(cudaMalloc(&over, 64));
    PN_CK(cudaMalloc(&pat, (size_t)n * 4));
    cudaDeviceProp p;
    PN_CK(cudaGetDeviceProperties(&p, 0));
    printf("# %s, bfs_flag.cu\nvariant,p,active_warps,median_us\n", p.name);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (double dens : { 0.0, 0.005, 0.05, 0.2, 0.5, 1.0 }) {
        std::vector<unsigned char> h8(n);
        std::vector<int> h32(n);
        srand(7);
        long warps = 0;
        for (int w = 0; w < n / 32; w++) {
            int any = 0;
            for (int l = 0; l < 32; l++) {
                int on = (double)rand() / RAND_MAX < dens;
                h8[w * 32 + l] = (unsigned char)on;
                h32[w * 32 + l] = on;
                any |= on;
            }
            warps += any;
        }
        for (int v = 0; v < V_N; v++) {
            int wide = v == V_INT;
            size_t bytes = (size_t)n * (wide ? 4 : 1);
            PN_CK(cudaMemcpy(pat, wide ? (void *)h32.data() : (void *)h8.data(), bytes,
                             cudaMemcpyHostToDevice));
            std::vector<float> t;
            for (int r = 0; r < 23; r++) {
                PN_CK(cudaMemcpy(upd, pat, bytes, cudaMemcpyDeviceToDevice));
                cudaEventRecord(a);
                if (wide)
                    k2<int><<<1954, 512>>>((int *)mask, (int *)upd, (int *)vis, (int *)over, n, v);
                else
                    k2<unsigned char><<<1954, 512>>>((unsigned char *)mask, (unsigned char *)upd,
                                                     (unsigned char *)vis, (unsigned char *)over, n, v);
                cudaEventRecord(b);
                cudaEventSynchronize(b);
                float ms;
                cudaEventElapsedTime(&ms, a, b);
                if (r >= 3) t.push_back(ms);
            }
            PN_CK(cudaGetLastError());
            std::sort(t.begin(), t.end());
            printf("%s,%.3f,%ld,%.3f\n", vname[v], dens, warps, t[t.size() / 2] * 1e3);
        }
    }
    return 0;
}
