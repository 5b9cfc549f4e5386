// stream_latency.cu - how long streaming loads wait, seen by the warps that issue them: 132 x B
// blocks (B an SM, all resident) of W warps each read a 1 GiB buffer once in a grid-stride
// loop, K independent coalesced 4-byte loads a trip (K whole lines a warp, 128 KiB apart
// within a trip's chunk), summed after the trip. Lane 0 of every warp times each trip with
// clock64 (from before its loads to after their sum). Per (W, K): the median of the warps'
// mean cycles a trip, the device's DRAM read rate over the kernel (sectors a cycle at the
// SM clock given), and the loads in flight that rate and latency imply (Little's law:
// sectors in flight an SM = rate an SM x cycles a trip). The loaded-latency probe's chase
// warp sees 709-917 cycles at 15-42 sectors a cycle over the device; the question is
// whether streaming warps see the same at the same rate. Usage: stream_latency [MHZ]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define N_WORDS (1u << 28) /* 1 GiB of 4-byte words */

template <int K>
__global__ void k_stream(const unsigned *__restrict__ in, unsigned *out, long long *trip_cyc,
                         unsigned *trips)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;  /* words a trip's load covers */
    const size_t per_trip = stride * K;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = 0, n = 0;
    long long sum = 0;
    for (size_t base = 0; base + per_trip <= N_WORDS; base += per_trip) {
        long long t0 = clock64();
        unsigned v[K];
#pragma unroll
        for (int k = 0; k < K; k++) v[k] = in[base + (size_t)k * stride + i];
#pragma unroll
        for (int k = 0; k < K; k++) acc += v[k];
        /* the sum is needed before the second clock: the trip includes the loads' wait */
        asm volatile("" : "+r"(acc));
        long long t1 = clock64();
        sum += t1 - t0;
        n++;
    }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = acc;
    if ((threadIdx.x & 31) == 0) {
        size_t w = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
        trip_cyc[w] = sum;
        trips[w] = n;
    }
}

template <int K>
static void run(int sms, int B, int W, double mhz, const unsigned *in, unsigned *out,
                long long *d_cyc, unsigned *d_trips)
{
    int blocks = sms * B, threads = 32 * W;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    k_stream<K><<<blocks, threads>>>(in, out, d_cyc, d_trips); /* warm-up */
    std::vector<float> ms;
    for (int r = 0; r < 3; r++) {
        cudaEventRecord(e0);
        k_stream<K><<<blocks, threads>>>(in, out, d_cyc, d_trips);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float t;
        cudaEventElapsedTime(&t, e0, e1);
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    size_t nw = (size_t)blocks * W;
    std::vector<long long> cyc(nw);
    std::vector<unsigned> trips(nw);
    cudaMemcpy(cyc.data(), d_cyc, nw * sizeof(long long), cudaMemcpyDeviceToHost);
    cudaMemcpy(trips.data(), d_trips, nw * sizeof(unsigned), cudaMemcpyDeviceToHost);
    std::vector<double> per;
    for (size_t w = 0; w < nw; w++)
        if (trips[w])
            per.push_back((double)cyc[w] / trips[w]);
    std::sort(per.begin(), per.end());
    double trip = per[per.size() / 2];
    size_t words = (size_t)(N_WORDS / ((size_t)blocks * threads * K)) * blocks * threads * K;
    double sectors = words * 4.0 / 32, cycles = ms[1] * 1e-3 * mhz * 1e6;
    double rate = sectors / cycles;                       /* over the device */
    double inflight = (double)B * W * K * 4;              /* sectors an SM has asked for */
    printf("stream_W%d_B%d_K%d,%.1f,cycles,\"%d warps an SM (%d blocks of %d), %d loads a trip "
           "(%.0f sectors in flight an SM): median warp %.1f cycles a trip (p10 %.1f, p90 %.1f); "
           "%.2f sectors a cycle over the device (%.1f us, median of 3); Little: %.1f cycles\"\n",
           W, B, K, trip, B * W, B, W, K, inflight, trip, per[per.size() / 10],
           per[per.size() * 9 / 10], rate, ms[1] * 1e3, inflight / (rate / sms));
}

int main(int argc, char **argv)
{
    double mhz = argc > 1 ? atof(argv[1]) : 1980;
    int sms;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    unsigned *in, *out, *trips;
    long long *cyc;
    cudaMalloc(&in, (size_t)N_WORDS * 4);
    cudaMemset(in, 1, (size_t)N_WORDS * 4);
    cudaMalloc(&out, (size_t)sms * 2048 * 4);
    cudaMalloc(&cyc, (size_t)sms * 64 * sizeof(long long));
    cudaMalloc(&trips, (size_t)sms * 64 * sizeof(unsigned));
    printf("# rows stream_W_B_K: examples/probe/stream_latency.cu at %.2f MHz, %d SMs\n", mhz, sms);
    static const int Ws[] = { 1, 2, 4, 8, 16, 32 };
    for (int W : Ws)
        run<1>(sms, 1, W, mhz, in, out, cyc, trips);
    for (int W : Ws)
        run<4>(sms, 1, W, mhz, in, out, cyc, trips);
    /* the same warps an SM in blocks of 2 warps (rd_grid at 64 threads: 4 blocks an SM) */
    run<4>(sms, 4, 2, mhz, in, out, cyc, trips);
    run<4>(sms, 4, 4, mhz, in, out, cyc, trips);
    run<4>(sms, 4, 8, mhz, in, out, cyc, trips);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        fprintf(stderr, "stream_latency: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
