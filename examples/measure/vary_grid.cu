// vary_grid.cu - a program whose grid changes from run to run (the process id), so that
// ncu's application replay cannot match its launches: examples/measure/profile_app.sh then
// falls back to kernel replay (checked on an H100: examples/data/h100/replay_fallback, where
// ncu's log says so and vary.replay holds `kernel`). nvcc -O3 -arch=sm_90 vary_grid.cu
#include <cstdio>
#include <unistd.h>
__global__ void k(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = a[i] * 2.f + 1.f; }
int main() {
    int nb = 64 + (getpid() % 61);
    float *a; cudaMalloc(&a, 1 << 24);
    for (int r = 0; r < 3; r++) k<<<nb, 256>>>(a, nb * 256);
    cudaDeviceSynchronize();
    printf("grid %d\n", nb);
    return 0;
}
