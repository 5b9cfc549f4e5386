/* regroup.cu - a divergent CUDA kernel for `pnsim regroup`: every thread runs the work item
 * perm[tid] (the paper's reference redirection, section III), a loop of a data-dependent trip
 * count whose body takes one of two paths of different length. With the identity
 * permutation the warps mix short and long items and both paths; a regrouped permutation
 * (pnsim regroup -o) gathers similar items in the same warps.
 *
 *   regroup_bbv  --bbv FILE           the BBV build (-DPN_BBV): per-thread basic-block counts
 *                                     of the identity order, thread = global thread id
 *   regroup      --perm FILE [...]    time every permutation column of FILE (CSV header
 *                                     thread,<name>,...; row i: the item thread i runs) and
 *                                     the identity, interleaved launch by launch; checks that
 *                                     every order computes the same results
 *   both: --blocks B (default 396), --threads T (default 64), --shared BYTES dynamic shared
 *   memory per block, unused, which limits the blocks resident per SM (default 150000: one
 *   on an H100), --launches N, --seed S.
 *
 * Block costs, counted with the rules of examples/radix/radix_bb.cuh (PN_BLOCKS below; the
 * same table is regroup.blocks.csv):
 *   bb0 (once): arith 10, global 4 = tid= 3 (* + =), tid>=n 1, item= 1 (perm[] 1 global),
 *        cnt= 1 (iters[] global), k= 1 (kind[] global), x= 1 (seed[] global), y=1 1, i=0 1
 *   bb1 (per iteration): arith 4 = i<cnt 1, i++ 2, if (k) 1
 *   bb2 (iterations of kind-1 items): arith 24 = 8 x (x = x*a + b: * + =)
 *   bb3 (iterations of kind-0 items): arith 36 = 12 x (y = y*a + b)
 *   bb4 (once): arith 3, global 1 = failing i<cnt 1, out[item]= x + y (+ 1, = 1, global 1)
 */
#include "../common/pn_bench.cuh"

#define PN_NBB 5
static const struct { int arith, shared, global; } PN_BLOCKS[PN_NBB] __attribute__((unused)) = {
    { 10, 0, 4 }, { 4, 0, 0 }, { 24, 0, 0 }, { 36, 0, 0 }, { 3, 0, 1 } };

#ifdef PN_BBV
__device__ unsigned *pn_bbv; /* [PN_NBB][n] per-thread counters, thread = global id */
#define BB(id) (pn_bbv[(size_t)(id) * n + tid] += 1u)
#else
#define BB(id) ((void)0)
#endif

__global__ void divergent(const int *perm, const int *iters, const int *kind,
                          const float *seed, float *out, int n)
{
    extern __shared__ float pn_unused[];
    (void)pn_unused;
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= n) return;
    BB(0);
    int item = perm[tid];
    int cnt = iters[item];
    int k = kind[item];
    float x = seed[item], y = 1.0f;
    for (int i = 0; i < cnt; i++) {
        BB(1);
        if (k) {
            BB(2);
            x = x * 0.9990f + 0.0010f; x = x * 0.9991f + 0.0011f;
            x = x * 0.9992f + 0.0012f; x = x * 0.9993f + 0.0013f;
            x = x * 0.9994f + 0.0014f; x = x * 0.9995f + 0.0015f;
            x = x * 0.9996f + 0.0016f; x = x * 0.9997f + 0.0017f;
        } else {
            BB(3);
            y = y * 0.9990f + 0.0010f; y = y * 0.9991f + 0.0011f;
            y = y * 0.9992f + 0.0012f; y = y * 0.9993f + 0.0013f;
            y = y * 0.9994f + 0.0014f; y = y * 0.9995f + 0.0015f;
            y = y * 0.9996f + 0.0016f; y = y * 0.9997f + 0.0017f;
            y = y * 0.9998f + 0.0018f; y = y * 0.9999f + 0.0019f;
            y = y * 0.9989f + 0.0020f; y = y * 0.9988f + 0.0021f;
        }
    }
    BB(4);
    out[item] = x + y;
}

int main(int argc, char **argv)
{
    int blocks = 396, threads = 64, shared = 150000, launches = 30;
    uint64_t seed = 20261123ull;
    const char *bbv_path = nullptr;
    std::vector<const char *> perm_paths;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--blocks")) blocks = atoi(v);
        else if (!strcmp(a, "--threads")) threads = atoi(v);
        else if (!strcmp(a, "--shared")) shared = atoi(v);
        else if (!strcmp(a, "--launches")) launches = atoi(v);
        else if (!strcmp(a, "--seed")) seed = strtoull(v, nullptr, 10);
        else if (!strcmp(a, "--bbv")) bbv_path = v;
        else if (!strcmp(a, "--perm")) perm_paths.push_back(v);
        else { fprintf(stderr, "%s: unknown option %s\n", argv[0], a); return 2; }
    }
    const int n = blocks * threads;
    std::vector<int> iters(n), kind(n);
    std::vector<float> xs(n);
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        iters[i] = 1 + (int)(pn_rand64(&s) % 1024);     /* trip count 1..1024 */
        kind[i] = (int)(pn_rand64(&s) & 1);              /* which path */
        xs[i] = (float)(pn_rand64(&s) % 1000) / 1000.0f;
    }
    /* orders: identity first, then every column of every --perm file */
    std::vector<std::string> names{ "identity" };
    std::vector<std::vector<int>> perms(1, std::vector<int>(n));
    for (int i = 0; i < n; i++) perms[0][i] = i;
    for (const char *pp : perm_paths) {
        FILE *f = fopen(pp, "r");
        if (!f) { fprintf(stderr, "%s: cannot open\n", pp); return 2; }
        char line[4096];
        if (!fgets(line, sizeof line, f)) { fprintf(stderr, "%s: empty\n", pp); return 2; }
        std::vector<std::string> cols;
        for (char *t = strtok(line, ",\r\n"); t; t = strtok(nullptr, ",\r\n")) cols.push_back(t);
        size_t base = perms.size();
        for (size_t c = 1; c < cols.size(); c++) {
            names.push_back(cols[c]);
            perms.push_back(std::vector<int>(n, -1));
        }
        int row = 0;
        while (fgets(line, sizeof line, f)) {
            if (line[0] == '#' || line[0] == '\n') continue;
            size_t c = 0;
            for (char *t = strtok(line, ",\r\n"); t; t = strtok(nullptr, ",\r\n"), c++)
                if (c >= 1 && row < n) perms[base + c - 1][row] = atoi(t);
            row++;
        }
        fclose(f);
        if (row != n) { fprintf(stderr, "%s: %d rows, expected %d\n", pp, row, n); return 2; }
        for (size_t p = base; p < perms.size(); p++) {
            std::vector<char> seen(n, 0);
            for (int i = 0; i < n; i++) {
                int v = perms[p][i];
                if (v < 0 || v >= n || seen[v]) {
                    fprintf(stderr, "%s: column %s is not a permutation\n", pp,
                            names[p].c_str());
                    return 2;
                }
                seen[v] = 1;
            }
        }
    }
    int *d_perm, *d_iters, *d_kind;
    float *d_seed, *d_out;
    PN_CK(cudaMalloc(&d_perm, n * sizeof(int)));
    PN_CK(cudaMalloc(&d_iters, n * sizeof(int)));
    PN_CK(cudaMalloc(&d_kind, n * sizeof(int)));
    PN_CK(cudaMalloc(&d_seed, n * sizeof(float)));
    PN_CK(cudaMalloc(&d_out, n * sizeof(float)));
    PN_CK(cudaMemcpy(d_iters, iters.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    PN_CK(cudaMemcpy(d_kind, kind.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    PN_CK(cudaMemcpy(d_seed, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    PN_CK(cudaFuncSetAttribute(divergent, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    int occ = 0;
    PN_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, divergent, threads, shared));
    printf("# kernel divergent: %d blocks x %d threads = %d threads, dynamic shared %d B, "
           "%d resident blocks per SM, seed %llu\n", blocks, threads, n, shared, occ,
           (unsigned long long)seed);
#ifdef PN_BBV
    unsigned *d_bbv;
    PN_CK(cudaMalloc(&d_bbv, (size_t)PN_NBB * n * sizeof(unsigned)));
    PN_CK(cudaMemset(d_bbv, 0, (size_t)PN_NBB * n * sizeof(unsigned)));
    PN_CK(cudaMemcpyToSymbol(pn_bbv, &d_bbv, sizeof d_bbv));
    PN_CK(cudaMemcpy(d_perm, perms[0].data(), n * sizeof(int), cudaMemcpyHostToDevice));
    divergent<<<blocks, threads, shared>>>(d_perm, d_iters, d_kind, d_seed, d_out, n);
    PN_CK_LAUNCH();
    PN_CK(cudaDeviceSynchronize());
    std::vector<unsigned> h((size_t)PN_NBB * n);
    PN_CK(cudaMemcpy(h.data(), d_bbv, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    FILE *f = bbv_path ? fopen(bbv_path, "w") : nullptr;
    if (!f) { fprintf(stderr, "--bbv FILE is required and must be writable\n"); return 2; }
    fprintf(f, "thread");
    for (int b = 0; b < PN_NBB; b++) fprintf(f, ",bb%d", b);
    fprintf(f, "\n");
    for (int t = 0; t < n; t++) {
        fprintf(f, "%d", t);
        for (int b = 0; b < PN_NBB; b++) fprintf(f, ",%u", h[(size_t)b * n + t]);
        fprintf(f, "\n");
    }
    fclose(f);
    printf("# wrote %s\n", bbv_path);
    return 0;
#else
    (void)bbv_path;
    std::vector<float> ref(n), got(n);
    std::vector<std::vector<double>> us(perms.size());
    cudaEvent_t e0, e1;
    PN_CK(cudaEventCreate(&e0));
    PN_CK(cudaEventCreate(&e1));
    for (int r = 0; r < 3 + launches; r++)      /* 3 warm-up rounds */
        for (size_t p = 0; p < perms.size(); p++) {
            PN_CK(cudaMemcpy(d_perm, perms[p].data(), n * sizeof(int), cudaMemcpyHostToDevice));
            PN_CK(cudaMemset(d_out, 0, n * sizeof(float)));
            pn_spin<<<1, 1>>>(20000);
            PN_CK(cudaEventRecord(e0, 0));
            divergent<<<blocks, threads, shared>>>(d_perm, d_iters, d_kind, d_seed, d_out, n);
            PN_CK_LAUNCH();
            PN_CK(cudaEventRecord(e1, 0));
            PN_CK(cudaEventSynchronize(e1));
            float ms = 0.f;
            PN_CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 3) us[p].push_back(1000.0 * ms);
            if (r == 0) {
                PN_CK(cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
                if (p == 0) ref = got;
                else if (memcmp(ref.data(), got.data(), n * sizeof(float)) != 0) {
                    fprintf(stderr, "order %s computes different results\n", names[p].c_str());
                    return 1;
                }
            }
        }
    printf("order,median_us,p10_us,p90_us,launches,speedup_vs_identity\n");
    for (size_t p = 0; p < perms.size(); p++) std::sort(us[p].begin(), us[p].end());
    double base = pn_pct(us[0], 0.5);
    for (size_t p = 0; p < perms.size(); p++)
        printf("%s,%.3f,%.3f,%.3f,%zu,%.4f\n", names[p].c_str(), pn_pct(us[p], 0.5),
               pn_pct(us[p], 0.1), pn_pct(us[p], 0.9), us[p].size(),
               base / pn_pct(us[p], 0.5));
    return 0;
#endif
}
