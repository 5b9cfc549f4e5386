/* radix_host.cuh - host harness shared by the three radix-sort kernels: fixed-seed data,
 * one <<<1, T>>> launch per sort, check against qsort, CUDA-event timing, BBV output.
 *
 * Included at the end of radix_<impl>.cu, which defines before it:
 *   PN_KERNEL_NAME   "radix_global" | "radix_tree" | "radix_shared"
 *   PN_NBB           number of instrumented basic blocks
 *   PN_BLOCKS        pn_block_cost[PN_NBB], the cost of one execution of each block
 *   pn_radix_launch(T, a, b, zeros, ones, memsize)  enqueues one sort of a (n = T*memsize
 *                    elements) on the default stream, b is the scratch buffer, zeros/ones
 *                    are global arrays of T entries (unused by radix_shared).
 *
 * Usage: radix_<impl> [--threads 64,128,256,512,1024] [--n 65536] [--launches 50]
 *                     [--warmup 5] [--seed S] [--launch-log FILE] [--bbv-dir DIR]
 *                     [--blocks] [--info]
 * stdout: one times.csv row per thread count (none with --launches 0).
 * Exit status: 0 if every sort was right, 1 if any was wrong or a T was invalid, 2 on a
 * CUDA error.
 */
#ifndef RADIX_HOST_CUH
#define RADIX_HOST_CUH

#include "../common/pn_bench.cuh"

static int pn_cmp_u32(const void *x, const void *y)
{
    unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
    return (a > b) - (a < b);
}

/* Index of the first mismatch, or -1. */
static long pn_first_mismatch(const std::vector<unsigned> &got, const std::vector<unsigned> &ref)
{
    for (size_t i = 0; i < ref.size(); i++)
        if (got[i] != ref[i]) return (long)i;
    return -1;
}

int main(int argc, char **argv)
{
    pn_opts o;
    o.threads = {64, 128, 256, 512, 1024};
    int n = 65536;
    pn_parse_opts(argc, argv, &o, [&](const char *name, const char *val) {
        if (!strcmp(name, "--n")) { n = atoi(val); return true; }
        return false;
    });
    if (o.blocks) {
        printf("block,arith,shared,global\n");
        for (int b = 0; b < PN_NBB; b++)
            printf("bb%d,%d,%d,%d\n", b, PN_BLOCKS[b].arith, PN_BLOCKS[b].shared,
                   PN_BLOCKS[b].global);
        return 0;
    }
    if (o.info) {
        pn_print_devinfo();
        return 0;
    }
#ifdef PN_BBV
    const char *label = PN_KERNEL_NAME "_bbv";
#else
    const char *label = PN_KERNEL_NAME;
#endif

    /* Input: n uniformly random 32-bit words from the fixed seed; reference: qsort. */
    std::vector<unsigned> h_in(n), ref, got(n);
    uint64_t s = o.seed;
    for (int i = 0; i < n; i++) h_in[i] = (unsigned)(pn_rand64(&s) >> 32);
    ref = h_in;
    qsort(ref.data(), (size_t)n, sizeof(unsigned), pn_cmp_u32);

    unsigned *d_in, *d_a, *d_b, *d_zeros, *d_ones;
    size_t bytes = (size_t)n * sizeof(unsigned);
    PN_CK(cudaMalloc(&d_in, bytes));
    PN_CK(cudaMalloc(&d_a, bytes));
    PN_CK(cudaMalloc(&d_b, bytes));
    PN_CK(cudaMalloc(&d_zeros, 1024 * sizeof(unsigned)));
    PN_CK(cudaMalloc(&d_ones, 1024 * sizeof(unsigned)));
    PN_CK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));
#ifdef PN_BBV
    unsigned *d_bbv;
    PN_CK(cudaMalloc(&d_bbv, (size_t)PN_NBB * 1024 * sizeof(unsigned)));
    PN_CK(cudaMemcpyToSymbol(pn_bbv, &d_bbv, sizeof d_bbv));
#endif
    FILE *log = pn_open_launch_log(o);

    int failures = 0;
    for (int T : o.threads) {
        if (T < 2 || T > 1024 || (T & (T - 1)) || n % T) {
            fprintf(stderr, "%s: T=%d invalid (power of two in 2..1024 dividing n=%d)\n",
                    label, T, n);
            failures++;
            continue;
        }
        int memsize = n / T;
        std::string params = "n=" + std::to_string(n) + ";memsize=" + std::to_string(memsize);

        /* Checked launch on fresh input; scratch buffers poisoned. */
        PN_CK(cudaMemcpy(d_a, d_in, bytes, cudaMemcpyDeviceToDevice));
        PN_CK(cudaMemset(d_b, 0xA5, bytes));
        PN_CK(cudaMemset(d_zeros, 0xA5, 1024 * sizeof(unsigned)));
        PN_CK(cudaMemset(d_ones, 0xA5, 1024 * sizeof(unsigned)));
#ifdef PN_BBV
        PN_CK(cudaMemset(d_bbv, 0, (size_t)PN_NBB * 1024 * sizeof(unsigned)));
#endif
        pn_log_launch(log, PN_KERNEL_NAME, T, params);
        pn_radix_launch(T, d_a, d_b, d_zeros, d_ones, memsize);
        PN_CK_LAUNCH();
        PN_CK(cudaDeviceSynchronize());
        PN_CK(cudaMemcpy(got.data(), d_a, bytes, cudaMemcpyDeviceToHost));
        long bad = pn_first_mismatch(got, ref);
        if (bad >= 0) {
            fprintf(stderr, "%s T=%d: WRONG at %ld: got %u want %u\n", label, T, bad,
                    got[bad], ref[bad]);
            failures++;
            continue;
        }
        fprintf(stderr, "%s T=%d: sorted correctly\n", label, T);
#ifdef PN_BBV
        if (o.bbv_dir) {
            std::vector<unsigned> c((size_t)PN_NBB * T);
            for (int b = 0; b < PN_NBB; b++)
                PN_CK(cudaMemcpy(c.data() + (size_t)b * T, d_bbv + (size_t)b * T,
                                 T * sizeof(unsigned), cudaMemcpyDeviceToHost));
            std::string path = std::string(o.bbv_dir) + "/" + PN_KERNEL_NAME + "-" +
                               std::to_string(T) + ".csv";
            FILE *f = fopen(path.c_str(), "w");
            if (!f) {
                perror(path.c_str());
                return 2;
            }
            fprintf(f, "thread");
            for (int b = 0; b < PN_NBB; b++) fprintf(f, ",bb%d", b);
            fprintf(f, "\n");
            for (int t = 0; t < T; t++) {
                fprintf(f, "%d", t);
                for (int b = 0; b < PN_NBB; b++) fprintf(f, ",%u", c[(size_t)b * T + t]);
                fprintf(f, "\n");
            }
            fclose(f);
        }
#endif
        if (o.launches <= 0) continue;

        /* Timed launches: each sorts a fresh copy of the input (copy untimed). */
        std::vector<double> us = pn_time_launches(
            o.warmup, o.launches,
            [&] { PN_CK(cudaMemcpyAsync(d_a, d_in, bytes, cudaMemcpyDeviceToDevice, 0)); },
            [&] {
                pn_log_launch(log, PN_KERNEL_NAME, T, params);
                pn_radix_launch(T, d_a, d_b, d_zeros, d_ones, memsize);
            });
        PN_CK(cudaMemcpy(got.data(), d_a, bytes, cudaMemcpyDeviceToHost));
        bad = pn_first_mismatch(got, ref);
        if (bad >= 0) {
            fprintf(stderr, "%s T=%d: WRONG after timing at %ld\n", label, T, bad);
            failures++;
            continue;
        }
        pn_print_time_row(label, T, params, us);
    }
    if (log) fclose(log);
    PN_CK(cudaFree(d_in));
    PN_CK(cudaFree(d_a));
    PN_CK(cudaFree(d_b));
    PN_CK(cudaFree(d_zeros));
    PN_CK(cudaFree(d_ones));
    return failures ? 1 : 0;
}

#endif /* RADIX_HOST_CUH */
