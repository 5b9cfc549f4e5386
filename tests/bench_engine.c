/* bench_engine.c - `make bench`: wall time per run, steps/s and firings/s of
 * the engines on a radix-sort scale net (32 warps, ~30,000 instructions each). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pn_engine.h"
#include "pn_sm.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct bench_case {
    const char *name;
    uint32_t warps, schedulers, l1, l2;
    pn_warp_counts_t counts;
    uint32_t runs;
} bench_case_t;

static int bench(const bench_case_t *b, pn_engine_kind_t kind)
{
    pn_warp_counts_t *c = malloc(b->warps * sizeof *c);
    if (!c)
        return 1;
    for (uint32_t w = 0; w < b->warps; w++)
        c[w] = b->counts;
    pn_sm_params_t p = { b->schedulers, b->l1, b->l2, b->warps, c };
    pn_net_t net;
    pn_sm_layout_t lay;
    pn_error_t err;
    pn_net_init(&net);
    if (pn_sm_build(&net, &p, &lay, &err) != PN_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    pn_run_opts_t o = { .max_steps = UINT64_MAX, .idle_trans = lay.t0, .net_name = b->name };
    uint64_t steps = 0, firings = 0;
    double t0 = now();
    for (uint32_t r = 0; r < b->runs; r++) {
        pn_run_result_t res;
        if (pn_engine_run(kind, &net, 1 + r, &o, &res, &err) != PN_OK) {
            fprintf(stderr, "bench: %s\n", err.msg);
            return 1;
        }
        steps += res.steps;
        firings += res.firings;
    }
    double dt = now() - t0;
    uint64_t instr = b->counts.arith + b->counts.shared + b->counts.global;
    printf("%-28s %-8s %5u %8" PRIu64 " %4u %10.3f %12.0f %12.3e %12.3e\n", b->name,
           pn_engine_name(kind), b->warps, instr, b->runs, dt / b->runs,
           (double)steps / b->runs, (double)steps / dt, (double)firings / dt);
    pn_net_destroy(&net);
    free(c);
    return 0;
}

int main(void)
{
    static const bench_case_t cases[] = {
        { "radix-scale 32w x 30k", 32, 4, 20, 2, { 24000, 2000, 4000 }, 3 },
        { "64w x 100k l1=400 l2=30", 64, 4, 400, 30, { 80000, 10000, 10000 }, 1 },
    };
    printf("%-28s %-8s %5s %8s %4s %10s %12s %12s %12s\n", "case", "engine", "warps",
           "instr/w", "runs", "s/run", "steps/run", "steps/s", "firings/s");
    int rc = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int k = PN_ENGINE_FAST; k >= PN_ENGINE_LITERAL; k--)
            rc |= bench(&cases[i], (pn_engine_kind_t)k);
    return rc;
}
