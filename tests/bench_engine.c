/* bench_engine.c - `make bench`: both engines on the cases of issue 5, in one
 * process: (a) the paper-scale radix config at 1024 threads, (b) 64 warps of
 * 100,000 instructions with l1 = 400, l2 = 30, (c) the whole radix sweep
 * (3 implementations x 5 thread counts x 10 runs, on all cores), and the
 * radix-scale case of issue 2 (32 warps x 30,000 instructions). Prints wall
 * time, steps/s and firings/s per engine and the fast/literal ratio.
 * PN_BENCH_QUICK=1 skips the literal engine where it takes minutes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pn_kernel_net.h"
#include "pn_engine.h"
#include "pn_sm_engine.h"
#include "pn_sm.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct timing {
    double wall;
    uint64_t runs, steps, firings;
} timing_t;

/* An SM net and the parameters it was built from (the compiled engine's plan). */
typedef struct sm_case {
    pn_net_t net;
    pn_sm_layout_t lay;
    pn_sm_params_t p;
    pn_warp_counts_t *w;          /* p.warps, owned */
} sm_case_t;

static void case_destroy(sm_case_t *c)
{
    pn_net_destroy(&c->net);
    free(c->w);
    memset(c, 0, sizeof *c);
}

/* Build c from p (copied). */
static int case_build(sm_case_t *c, const pn_sm_params_t *p)
{
    pn_error_t err;
    memset(c, 0, sizeof *c);
    pn_net_init(&c->net);
    c->w = malloc(p->n_warps * sizeof *c->w);
    if (!c->w)
        return 0;
    memcpy(c->w, p->warps, p->n_warps * sizeof *c->w);
    c->p = *p;
    c->p.warps = c->w;
    if (pn_sm_build(&c->net, &c->p, &c->lay, &err) != PN_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 0;
    }
    return 1;
}

/* Build the net of a config at `threads` threads per block. */
static int load(const char *path, uint32_t threads, sm_case_t *c)
{
    pn_config_t cfg;
    pn_device_t dev;
    pn_kernel_t k;
    pn_error_t err;
    memset(&dev, 0, sizeof dev);
    memset(&k, 0, sizeof k);
    memset(c, 0, sizeof *c);
    int ok = pn_config_load(&cfg, path, &err) == PN_OK &&
             pn_device_load(&dev, cfg.device, cfg.path, 0, 0, &err) == PN_OK &&
             pn_kernel_resolve(&cfg, &dev, threads, NULL, &k, &err) == PN_OK;
    if (!ok)
        fprintf(stderr, "bench: %s\n", err.msg);
    ok = ok && case_build(c, &k.sm);
    pn_kernel_destroy(&k);
    pn_device_destroy(&dev);
    pn_config_destroy(&cfg);
    return ok;
}

static int synthetic(uint32_t warps, uint32_t sched, uint32_t l1, uint32_t l2,
                     pn_warp_counts_t cnt, sm_case_t *c)
{
    pn_warp_counts_t *w = malloc(warps * sizeof *w);
    if (!w)
        return 0;
    for (uint32_t i = 0; i < warps; i++)
        w[i] = cnt;
    pn_sm_params_t p = { sched, l1, l2, warps, w };
    int ok = case_build(c, &p);
    free(w);
    return ok;
}

static int time_runs(pn_engine_kind_t kind, const sm_case_t *c, uint32_t runs, unsigned jobs,
                     timing_t *tm)
{
    pn_run_opts_t o = { .max_steps = UINT64_MAX, .idle_trans = c->lay.t0, .net_name = "bench" };
    pn_run_result_t *r = calloc(runs, sizeof *r);
    pn_error_t err;
    if (!r)
        return 0;
    double t0 = now();
    pn_prepared_t prep;
    int ok = pn_sm_engine_prepare(&prep, kind, &c->p, &c->net, &o, &err) == PN_OK &&
             pn_engine_run_batch(&prep, 1, runs, jobs, r, &err) == PN_OK;
    pn_engine_release(&prep);
    tm->wall += now() - t0;
    if (!ok)
        fprintf(stderr, "bench: %s\n", err.msg);
    for (uint32_t i = 0; i < runs && ok; i++) {
        tm->steps += r[i].steps;
        tm->firings += r[i].firings;
    }
    tm->runs += runs;
    free(r);
    return ok;
}

static void row(const char *name, const char *engine, const timing_t *t)
{
    printf("%-34s %-8s %5" PRIu64 " %10.3f %10.4f %12.0f %11.3e %11.3e\n", name, engine, t->runs,
           t->wall, t->wall / (double)t->runs, (double)t->steps / (double)t->runs,
           (double)t->steps / t->wall, (double)t->firings / t->wall);
}

static void ratios(const timing_t *t, const timing_t *lit)
{
    if (!lit->runs)
        return;
    double per_lit = lit->wall / (double)lit->runs;
    printf("%-34s %-8s", "", "vs lit.");
    for (int k = PN_ENGINE_COMPILED; k >= PN_ENGINE_FAST; k--)
        if (t[k].runs)
            printf("  %s %.1fx", pn_engine_name((pn_engine_kind_t)k),
                   per_lit / (t[k].wall / (double)t[k].runs));
    printf("  (time per run, literal / engine)\n");
}

/* One case: the engines on one net, one thread; runs[k] runs of engine k. */
static int bench_net(const char *name, const sm_case_t *c, const uint32_t runs[3])
{
    timing_t t[3] = { { 0 } };
    for (int k = PN_ENGINE_COMPILED; k >= PN_ENGINE_LITERAL; k--) {
        if (!runs[k])
            continue;
        if (!time_runs((pn_engine_kind_t)k, c, runs[k], 1, &t[k]))
            return 1;
        row(name, pn_engine_name((pn_engine_kind_t)k), &t[k]);
    }
    ratios(t, &t[PN_ENGINE_LITERAL]);
    return 0;
}

static const char *const radix[] = { "configs/radix-global.yaml", "configs/radix-tree.yaml",
                                     "configs/radix-shared.yaml" };
static const uint32_t sweep_threads[] = { 64, 128, 256, 512, 1024 };

/* (c): every radix config at every thread count, 10 runs each, all cores. */
static int bench_sweep(pn_engine_kind_t kind, unsigned jobs, timing_t *tm)
{
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 5; j++) {
            sm_case_t c;
            double t0 = now();
            if (!load(radix[i], sweep_threads[j], &c))
                return 1;
            tm->wall += now() - t0;   /* building the nets is part of a sweep */
            int ok = time_runs(kind, &c, 10, jobs, tm);
            case_destroy(&c);
            if (!ok)
                return 1;
        }
    return 0;
}

/* Time per run against instructions per warp (32 warps) and against warps
 * (25,000 instructions each), mix 80 % arith / 10 % shared / 10 % global,
 * l1 = 400, l2 = 30: the per-instruction cost column stays flat when time
 * grows linearly. */
static int scaling(void)
{
    static const struct { uint32_t warps, instr; } pts[] = {
        { 32, 12500 }, { 32, 25000 }, { 32, 50000 }, { 32, 100000 },
        { 8, 25000 }, { 16, 25000 }, { 64, 25000 },
    };
    printf("\nscaling (l1=400 l2=30, 4 schedulers)  engine   warps  instr/w      s/run"
           "   ns per warp-instruction\n");
    for (int k = PN_ENGINE_COMPILED; k >= PN_ENGINE_FAST; k--)
        for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
            uint32_t n = pts[i].instr;
            sm_case_t c;
            if (!synthetic(pts[i].warps, 4, 400, 30,
                           (pn_warp_counts_t){ n * 8 / 10, n / 10, n / 10 }, &c))
                return 1;
            timing_t t = { 0 };
            uint32_t runs = k == PN_ENGINE_COMPILED ? 5 : 1;
            int ok = time_runs((pn_engine_kind_t)k, &c, runs, 1, &t);
            case_destroy(&c);
            if (!ok)
                return 1;
            double per = t.wall / runs;
            printf("%-36s %-8s %5u %8u %10.4f %12.2f\n", "", pn_engine_name((pn_engine_kind_t)k),
                   pts[i].warps, n, per, 1e9 * per / ((double)pts[i].warps * n));
        }
    return 0;
}

int main(void)
{
    int quick = getenv("PN_BENCH_QUICK") && *getenv("PN_BENCH_QUICK") == '1';
    unsigned cpus = pn_engine_cpu_count();
    printf("%-34s %-8s %5s %10s %10s %12s %11s %11s\n", "case", "engine", "runs", "wall s",
           "s/run", "steps/run", "steps/s", "firings/s");
    int rc = 0;
    sm_case_t c;

    if (load("configs/radix-global.yaml", 1024, &c)) {
        const uint32_t runs[3] = { quick ? 0 : 1, 3, 10 };
        rc |= bench_net("(a) radix-global, 1024 threads", &c, runs);
        case_destroy(&c);
    } else {
        rc = 1;
    }
    if (synthetic(64, 4, 400, 30, (pn_warp_counts_t){ 80000, 10000, 10000 }, &c)) {
        const uint32_t runs[3] = { quick ? 0 : 1, 1, 5 };
        rc |= bench_net("(b) 64 warps x 100k, l1=400 l2=30", &c, runs);
        case_destroy(&c);
    } else {
        rc = 1;
    }
    timing_t t[3] = { { 0 } };
    char name[64];
    snprintf(name, sizeof name, "(c) radix sweep 3x5x10, %u cores", cpus);
    for (int k = PN_ENGINE_COMPILED; k >= PN_ENGINE_LITERAL; k--) {
        if (quick && k != PN_ENGINE_COMPILED)
            continue;
        rc |= bench_sweep((pn_engine_kind_t)k, cpus, &t[k]);
        row(name, pn_engine_name((pn_engine_kind_t)k), &t[k]);
    }
    ratios(t, &t[PN_ENGINE_LITERAL]);
    if (synthetic(32, 4, 20, 2, (pn_warp_counts_t){ 24000, 2000, 4000 }, &c)) {
        const uint32_t runs[3] = { quick ? 0 : 3, 3, 10 };
        rc |= bench_net("radix-scale 32 warps x 30k", &c, runs);
        case_destroy(&c);
    } else {
        rc = 1;
    }
    rc |= scaling();
    return rc;
}
