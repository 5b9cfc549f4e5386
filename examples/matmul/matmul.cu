/* matmul.cu - tiled shared-memory matrix product C = A*B (square N x N floats, row-major),
 * computed by ONE block of T threads, so that the whole kernel runs on one SM (the Petri-net
 * model's view).
 *
 * Block shape: 2D, TX x TY with TX*TY = T and TX >= TY, the most nearly square shape:
 *   T=64: 8x8, T=128: 16x8, T=256: 16x16, T=512: 32x16, T=1024: 32x32.
 * The block walks over the (N/TY) x (N/TX) output tiles of TY rows x TX columns, one tile
 * at a time; thread (tx, ty) computes element (r0+ty, c0+tx) of each tile. For each tile it
 * walks the K dimension in steps of KT = TX: the block loads a TY x KT slice of A (one
 * element per thread) and a KT x TX slice of B (TX/TY elements per thread) into shared
 * memory, synchronises, and every thread does KT multiply-adds from shared memory.
 * Per thread, with S = N^3/(T*TX) K-steps in all: N^3/T multiply-adds (FFMA), 2*N^3/T
 * shared reads, S*(1 + TX/TY) global reads and as many shared writes, N^2/T global writes,
 * 2*S barriers. Requires N % TX == 0 and N % TY == 0 (N in {32,64,128,256} with T <= 1024).
 *
 * Usage: matmul [--sizes 32,64,128,256] [--threads 64,128,256,512,1024] [--launches 100]
 *               [--warmup 5] [--seed S] [--launch-log FILE] [--info]
 * stdout: one times.csv row per (N, T). Exit status 0 if every product matched the CPU
 * reference (relative Frobenius error < 1e-5), 1 otherwise, 2 on a CUDA error.
 */
#include "../common/pn_bench.cuh"

#define PN_TILE_MAX 32

__global__ void pn_matmul(const float *A, const float *B, float *C, int N)
{
    __shared__ float As[PN_TILE_MAX][PN_TILE_MAX + 1]; /* TY x KT slice of A; +1: no bank
                                                         conflicts on As[ty][kk] */
    __shared__ float Bs[PN_TILE_MAX][PN_TILE_MAX];     /* KT x TX slice of B */
    int tx = threadIdx.x, ty = threadIdx.y;
    int TX = blockDim.x, TY = blockDim.y; /* KT = TX */
    for (int r0 = 0; r0 < N; r0 += TY) {         /* output tile rows */
        for (int c0 = 0; c0 < N; c0 += TX) {     /* output tile columns */
            float acc = 0.f;
            for (int k0 = 0; k0 < N; k0 += TX) { /* K slices */
                As[ty][tx] = A[(r0 + ty) * N + k0 + tx];
                for (int r = ty; r < TX; r += TY)
                    Bs[r][tx] = B[(k0 + r) * N + c0 + tx];
                __syncthreads();
                for (int kk = 0; kk < TX; kk++)
                    acc += As[ty][kk] * Bs[kk][tx];
                __syncthreads();
            }
            C[(r0 + ty) * N + c0 + tx] = acc;
        }
    }
}

/* The most nearly square TX x TY = T with TX >= TY: TY the largest power of two with
 * TY*TY <= T (T a power of two). */
static void pn_block_shape(int T, int *tx, int *ty)
{
    int y = 1;
    while (4 * y * y <= T) y *= 2;
    *ty = y;
    *tx = T / y;
}

int main(int argc, char **argv)
{
    pn_opts o;
    o.threads = {64, 128, 256, 512, 1024};
    o.launches = 100;
    std::vector<int> sizes = {32, 64, 128, 256};
    pn_parse_opts(argc, argv, &o, [&](const char *name, const char *val) {
        if (!strcmp(name, "--sizes")) { sizes = pn_parse_list(val); return true; }
        return false;
    });
    if (o.info) {
        pn_print_devinfo();
        return 0;
    }
    FILE *log = pn_open_launch_log(o);
    int failures = 0;
    for (int N : sizes) {
        size_t nn = (size_t)N * N;
        std::vector<float> hA(nn), hB(nn), hC(nn);
        std::vector<double> ref(nn);
        uint64_t s = o.seed + (uint64_t)N;
        for (size_t i = 0; i < nn; i++) hA[i] = (float)((pn_rand64(&s) >> 40) / 8388608.0 - 1.0);
        for (size_t i = 0; i < nn; i++) hB[i] = (float)((pn_rand64(&s) >> 40) / 8388608.0 - 1.0);
        double refnorm = 0.0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double acc = 0.0;
                for (int k = 0; k < N; k++) acc += (double)hA[i * N + k] * (double)hB[k * N + j];
                ref[i * N + j] = acc;
                refnorm += acc * acc;
            }
        refnorm = sqrt(refnorm);
        float *dA, *dB, *dC;
        PN_CK(cudaMalloc(&dA, nn * sizeof(float)));
        PN_CK(cudaMalloc(&dB, nn * sizeof(float)));
        PN_CK(cudaMalloc(&dC, nn * sizeof(float)));
        PN_CK(cudaMemcpy(dA, hA.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
        PN_CK(cudaMemcpy(dB, hB.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
        for (int T : o.threads) {
            int tx, ty;
            pn_block_shape(T, &tx, &ty);
            if (tx * ty != T || tx > PN_TILE_MAX || N % tx || N % ty) {
                fprintf(stderr, "matmul N=%d T=%d: unsupported shape %dx%d\n", N, T, tx, ty);
                failures++;
                continue;
            }
            dim3 blk(tx, ty);
            std::string params = "n=" + std::to_string(N) + ";bx=" + std::to_string(tx) +
                                 ";by=" + std::to_string(ty);
            auto check = [&](const char *when) {
                PN_CK(cudaMemcpy(hC.data(), dC, nn * sizeof(float), cudaMemcpyDeviceToHost));
                double err = 0.0;
                for (size_t i = 0; i < nn; i++) {
                    double d = (double)hC[i] - ref[i];
                    err += d * d;
                }
                err = sqrt(err) / refnorm;
                if (!(err < 1e-5)) {
                    fprintf(stderr, "matmul N=%d T=%d: WRONG %s, rel error %g\n", N, T, when, err);
                    return false;
                }
                return true;
            };
            PN_CK(cudaMemset(dC, 0xFF, nn * sizeof(float))); /* NaN poison */
            pn_log_launch(log, "matmul", T, params);
            pn_matmul<<<1, blk>>>(dA, dB, dC, N);
            PN_CK_LAUNCH();
            PN_CK(cudaDeviceSynchronize());
            if (!check("first launch")) {
                failures++;
                continue;
            }
            fprintf(stderr, "matmul N=%d T=%d (%dx%d): correct\n", N, T, tx, ty);
            if (o.launches <= 0) continue;
            PN_CK(cudaMemset(dC, 0xFF, nn * sizeof(float)));
            std::vector<double> us = pn_time_launches(
                o.warmup, o.launches, [] {},
                [&] {
                    pn_log_launch(log, "matmul", T, params);
                    pn_matmul<<<1, blk>>>(dA, dB, dC, N);
                });
            if (!check("after timing")) {
                failures++;
                continue;
            }
            pn_print_time_row("matmul", T, params, us);
        }
        PN_CK(cudaFree(dA));
        PN_CK(cudaFree(dB));
        PN_CK(cudaFree(dC));
    }
    if (log) fclose(log);
    return failures ? 1 : 0;
}
