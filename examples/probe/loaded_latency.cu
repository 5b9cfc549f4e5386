// loaded_latency.cu - DRAM latency under load: on every SM one warp chases pointers through
// 1 GiB (a full-period LCG over its 128-byte lines: every step a new line, nearly always a
// DRAM access) while S other warps of the block stream through 2 GiB (int4, whole lines),
// reading (read) or reading and writing (copy), until the chase ends. Prints per S and mode
// the chase's cycles a step and the streams' DRAM traffic in sectors a cycle over the device
// (counted while the chase runs). Fit of the rows (examples/probe/README.md): a DRAM load
// waits dram_queue u / (1 - u) more at utilisation u (u = traffic / tput_dram_sectors, at most
// 0.95) and dram_write_delay cycles more per sector written a cycle. Usage: loaded_latency [MHZ]
#include <cstdio>
#include <cuda_runtime.h>
#define LINES (1u << 23)   /* 1 GiB of 128-byte lines */
__global__ void init_chase(unsigned long long *buf)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < LINES; i += gridDim.x * blockDim.x)
        buf[(size_t)i * 16] = (size_t)((1664525u * i + 1013904223u) & (LINES - 1)) * 16;
}
__global__ void loaded(const unsigned long long *chase, int4 *stream, size_t per_sm, int steps,
                       int mode, long long *out_cyc, unsigned long long *out_iters)
{
    __shared__ volatile int done, started;
    __shared__ unsigned long long iters;
    if (threadIdx.x == 0) done = 0, started = 0, iters = 0;
    __syncthreads();
    int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (w == 0) {
        if (lane == 0) {
            size_t p = ((size_t)blockIdx.x * 7919u % LINES) * 16;
            for (int i = 0; i < 64; i++) p = chase[p];       /* warm the TLB path */
            started = 1;
            long long t0 = clock64();
            for (int i = 0; i < steps; i++) p = chase[p];
            long long t1 = clock64();
            out_cyc[blockIdx.x] = (t1 - t0) + (p == 1 ? 1 : 0);
            done = 1;
        }
    } else {
        int4 *base = stream + (size_t)blockIdx.x * per_sm;
        size_t n = per_sm, i = (size_t)(w - 1) * 32 + lane, step = (size_t)(blockDim.x - 32);
        unsigned long long my = 0;
        int acc = 0;
        while (!done) {
            for (int k = 0; k < 8; k++) {
                int4 v = base[i];
                acc ^= v.x;
                if (mode) base[(i + n / 2) % n] = v;
                i += step;
                if (i >= n) i -= n;
            }
            if (started)
                my += 8;
        }
        if (lane == 0) atomicAdd(&iters, my);
        if (acc == 0x7fffffff) base[0].x = acc;
    }
    __syncthreads();
    if (threadIdx.x == 0) out_iters[blockIdx.x] = iters;
}
int main(int argc, char **argv)
{
    double mhz = argc > 1 ? atof(argv[1]) : 1975.87;
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    unsigned long long *chase, *iters; int4 *stream; long long *cyc;
    cudaMalloc(&chase, (size_t)LINES * 128); cudaMalloc(&stream, (size_t)2 << 30);
    cudaMemset(stream, 1, (size_t)2 << 30);
    cudaMalloc(&cyc, sms * 8); cudaMalloc(&iters, sms * 8);
    init_chase<<<1024, 256>>>(chase); cudaDeviceSynchronize();
    size_t per_sm = ((size_t)2 << 30) / sizeof(int4) / sms;
    static long long hc[256]; static unsigned long long hi[256];
    int Ss[] = { 0, 1, 2, 4, 8, 16, 31 };
    const int steps = 1024;
    for (int mode = 0; mode < 2; mode++)
        for (int k = 0; k < 7; k++) {
            int S = Ss[k];
            loaded<<<sms, 32 * (1 + S)>>>(chase, stream, per_sm, steps, mode, cyc, iters);
            cudaDeviceSynchronize();
            cudaMemcpy(hc, cyc, sms * 8, cudaMemcpyDeviceToHost);
            cudaMemcpy(hi, iters, sms * 8, cudaMemcpyDeviceToHost);
            double lat = 0, sec = 0, cycles = 0;
            for (int s = 0; s < sms; s++) lat += (double)hc[s] / steps, cycles += hc[s], sec += (double)hi[s] * 32 * 16 / 32 * (mode ? 2 : 1);
            lat /= sms; cycles /= sms;
            printf("loaded_%s_S%d,%.1f,cycles,\"chase latency a step with %d streaming warps an SM (%s); streams %.2f sectors a cycle over the device\"\n",
                   mode ? "copy" : "read", S, lat, S, mode ? "read+write" : "read", sec / cycles);
        }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) printf("error %s\n", cudaGetErrorString(e));
    return 0;
}
