// cold_stream.cu - what a short streaming launch costs after the L2 has been scrubbed, and
// how. One 16-byte load (and/or store) a thread, 256 threads a block, as elementwise library
// kernels do (llm.c's dev/cuda kernels: examples/llmc): `read` (a load whose value is kept
// only if it equals a sentinel), `copy` (load, store) and `write` (a store). Each launch runs
// after a set-up that leaves the L2 in one state:
//   clean   a 512 MiB scrub buffer read: the L2 holds clean lines of another buffer
//   dirty   cudaMemset of an L2-sized buffer, as llm.c's benchmark does: dirty lines
//   dirtyall a kernel writes the 512 MiB scrub buffer: the L2 full of dirty lines
//   warm    the same launch just before (its data in the L2 where it fits)
//   none    nothing (for ncu --cache-control all, which flushes itself)
// Run it under ncu with --cache-control none (one pass: the state is the program's) and
// -k regex:^k_ to time the measured launches only (examples/data/h100/cold_stream.log).
// `empty` and `param` launch the same grids with no memory op (param: the parameters'
// loads and a compare). `cold_stream stamps`: a clean read that stamps each block's start and
// end with %globaltimer. Usage: cold_stream [STATE...|stamps]   (default: clean dirty dirtyall warm)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "cold_stream: %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

/* each kernel twice: k_* measured, warm_* the warm state's set-up (not matched by ^k_) */
#define READ_BODY { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; \
    if (i < n) { float4 v = in[i]; if (v.x == 1234.5f) out[0] = v; } }
#define COPY_BODY { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; \
    if (i < n) out[i] = in[i]; }
#define WRITE_BODY { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; \
    if (i < n) out[i] = make_float4(1.f, 2.f, 3.f, (float)i); }
#define KERNEL(name, body) \
    __global__ void name(const float4 *__restrict__ in, float4 *out, size_t n) body
KERNEL(k_read, READ_BODY)   /* a load whose value is kept only if it equals a sentinel */
KERNEL(k_copy, COPY_BODY)
KERNEL(k_write, WRITE_BODY)
KERNEL(k_empty, { })           /* the launch of the same grid, nothing else */
KERNEL(k_param, { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; \
    if (i == n) out[0] = make_float4(0, 0, 0, 0); }) /* the parameters' loads, no memory op */
KERNEL(warm_read, READ_BODY)
KERNEL(warm_empty, { })
KERNEL(warm_param, { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; \
    if (i == n) out[0] = make_float4(0, 0, 0, 0); })
KERNEL(warm_copy, COPY_BODY)
KERNEL(warm_write, WRITE_BODY)

__global__ void scrub_read(const float4 *__restrict__ in, float4 *out, size_t n);

/* a read that stamps each block's start and end (globaltimer, ns) */
__device__ __forceinline__ unsigned long long gtime()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void k_stamp(const float4 *__restrict__ in, float4 *out, size_t n,
                        unsigned long long *stamp)
{
    unsigned long long t0 = threadIdx.x == 0 ? gtime() : 0;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    if (v.x == 1234.5f)
        out[0] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        stamp[2 * blockIdx.x] = t0;
        stamp[2 * blockIdx.x + 1] = gtime();
    }
}

/* clean state, then k_stamp: the spread of block starts and ends within the launch */
static void stamps(int sms, float4 *scrub, size_t scrub_bytes, float4 *in, float4 *out,
                   float4 *sink)
{
    static const int mib[] = { 3, 6, 12, 24, 48 };
    unsigned long long *d;
    size_t most = ((size_t)48 << 20) / sizeof(float4) / 256;
    CK(cudaMalloc(&d, most * 2 * sizeof *d));
    unsigned long long *h = (unsigned long long *)malloc(most * 2 * sizeof *h);
    for (int m = 0; m < 5; m++)
        for (int rep = 0; rep < 3; rep++) {
            size_t n = ((size_t)mib[m] << 20) / sizeof(float4);
            unsigned blocks = (unsigned)(n / 256);
            scrub_read<<<sms * 8, 256>>>(scrub, sink, scrub_bytes / sizeof(float4));
            CK(cudaDeviceSynchronize());
            k_stamp<<<blocks, 256>>>(in, out, n, d);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h, d, blocks * 2 * sizeof *h, cudaMemcpyDeviceToHost));
            unsigned long long s0 = ~0ull, s1 = 0, e0 = ~0ull, e1 = 0;
            for (unsigned b = 0; b < blocks; b++) {
                s0 = h[2 * b] < s0 ? h[2 * b] : s0;
                s1 = h[2 * b] > s1 ? h[2 * b] : s1;
                e0 = h[2 * b + 1] < e0 ? h[2 * b + 1] : e0;
                e1 = h[2 * b + 1] > e1 ? h[2 * b + 1] : e1;
            }
            printf("stamp,read,%d,%d,%u,first end %llu,last start %llu,last end %llu ns after the first start\n",
                   mib[m], rep, blocks, e0 - s0, s1 - s0, e1 - s0);
        }
    free(h);
    CK(cudaFree(d));
}

/* the set-ups: names outside ^k_ so that ncu -k regex:^k_ leaves them alone */
__global__ void scrub_read(const float4 *__restrict__ in, float4 *out, size_t n)
{
    float4 acc = make_float4(0, 0, 0, 0);
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = in[i];
        acc.x += v.x;
    }
    if (acc.x == 1234.5f)
        out[0] = acc;
}

__global__ void scrub_write(float4 *out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = make_float4(0, 0, 0, 0);
}

typedef void (*kern_t)(const float4 *, float4 *, size_t);

int main(int argc, char **argv)
{
    static const char *def[] = { "clean", "dirty", "dirtyall", "warm" };
    const char **states = argc > 1 ? (const char **)argv + 1 : def;
    int n_states = argc > 1 ? argc - 1 : 4;
    int l2 = 0, sms = 0;
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t scrub_bytes = (size_t)512 << 20, max_bytes = (size_t)256 << 20;
    float4 *scrub, *in, *out, *sink;
    CK(cudaMalloc(&scrub, scrub_bytes));
    CK(cudaMalloc(&in, max_bytes));
    CK(cudaMalloc(&out, max_bytes));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMemset(scrub, 0, scrub_bytes));
    CK(cudaMemset(in, 0, max_bytes));
    CK(cudaMemset(out, 0, max_bytes));
    static const int mib[] = { 3, 6, 12, 24, 48, 96, 192 };
    static const char *names[] = { "read", "copy", "write", "empty", "param" };
    static const kern_t kern[] = { k_read, k_copy, k_write, k_empty, k_param };
    static const kern_t warm[] = { warm_read, warm_copy, warm_write, warm_empty, warm_param };
    fprintf(stderr, "# cold_stream: L2 %d bytes, %d SMs; launch order: state, kind, MiB, rep\n",
            l2, sms);
    if (n_states == 1 && !strcmp(states[0], "stamps")) {
        stamps(sms, scrub, scrub_bytes, in, out, sink);
        return 0;
    }
    for (int s = 0; s < n_states; s++)
        for (int k = 0; k < 5; k++)
            for (int m = 0; m < (int)(sizeof mib / sizeof mib[0]); m++)
                for (int rep = 0; rep < 3; rep++) {
                    size_t n = ((size_t)mib[m] << 20) / sizeof(float4);
                    unsigned blocks = (unsigned)((n + 255) / 256);
                    const char *st = states[s];
                    if (!strcmp(st, "clean"))
                        scrub_read<<<sms * 8, 256>>>(scrub, sink, scrub_bytes / sizeof(float4));
                    else if (!strcmp(st, "dirty"))
                        CK(cudaMemset(scrub, 0, (size_t)l2));
                    else if (!strcmp(st, "dirtyall"))
                        scrub_write<<<sms * 8, 256>>>(scrub, scrub_bytes / sizeof(float4));
                    else if (!strcmp(st, "warm"))
                        warm[k]<<<blocks, 256>>>(in, out, n);
                    else if (strcmp(st, "none")) {
                        fprintf(stderr, "cold_stream: unknown state '%s'\n", st);
                        return 2;
                    }
                    CK(cudaDeviceSynchronize());
                    kern[k]<<<blocks, 256>>>(in, out, n);
                    CK(cudaDeviceSynchronize());
                    printf("%s,%s,%d,%d,%u\n", st, names[k], mib[m], rep, blocks);
                }
    CK(cudaGetLastError());
    return 0;
}
