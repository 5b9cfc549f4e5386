/* bench_pipe.c - `make bench`: the pipelined net's engines. Nanoseconds per
 * warp-instruction of the three engines on five kinds of kernel with the h100
 * profile's probed parameters (one run each, 64 warps or more; the compiled
 * engine's the fastest of three runs of the same seed, against the noise of
 * shared cores; fast and literal on shortened counts), the cost of each kind against the
 * arithmetic-bound one, the set-up of the counting net a compiled run builds
 * against the full net by grid size, and the three engines on one medium
 * net, all timed in the same process, as ratios. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pn_device.h"
#include "pn_engine.h"
#include "pn_pipe_engine.h"
#include "pn_pipe_profile.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct bcase {
    const char *name;
    uint32_t warps, blocks, resident;
    uint64_t barriers;
    pn_memory_t mem;
    uint64_t n[PN_PIPE_KINDS];
} bcase_t;

static void params_of(const pn_device_t *dev, const bcase_t *c, pn_pipe_counts_t *w,
                      pn_pipe_params_t *p)
{
    memset(p, 0, sizeof *p);
    pn_pipe_params_from(p, &dev->pipe, &c->mem, 1);
    for (uint32_t i = 0; i < c->warps; i++)
        memcpy(w[i].n, c->n, sizeof c->n);
    p->n_warps = c->warps;
    p->warps = w;
    p->blocks = c->blocks;
    p->resident = c->resident;
    p->barriers = c->barriers;
}

static uint64_t instructions(const bcase_t *c)
{
    uint64_t s = 0;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        s += c->n[k];
    return s * c->warps * (c->blocks ? c->blocks : 1);
}

/* Seconds per run of engine kind on p (net built for literal and fast):
 * `runs` runs of seeds 1, 2, ..., each the fastest of `tries` runs of its
 * seed. */
static double time_engine(pn_engine_kind_t kind, const pn_pipe_params_t *p, uint32_t runs,
                          uint32_t tries, uint64_t *steps)
{
    pn_net_t net;
    pn_pipe_layout_t lay = { 0 };
    pn_error_t err;
    pn_net_init(&net);
    if (kind != PN_ENGINE_COMPILED && pn_pipe_build(&net, p, &lay, &err) != PN_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    pn_run_opts_t o = { .max_steps = UINT64_MAX, .idle_trans = lay.t0, .net_name = "bench" };
    pn_prepared_t prep;
    if (pn_pipe_engine_prepare(&prep, kind, p, &net, &o, &err) != PN_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    double t = 0;
    *steps = 0;
    for (uint32_t i = 0; i < runs; i++) {
        double best = 0;
        for (uint32_t k = 0; k < tries; k++) {
            pn_run_result_t r;
            double t0 = now();
            if (pn_engine_run_prepared(&prep, 1 + i, &r, &err) != PN_OK) {
                fprintf(stderr, "bench: %s\n", err.msg);
                exit(1);
            }
            double dt = now() - t0;
            best = k == 0 || dt < best ? dt : best;
            if (k == 0)
                *steps += r.steps;
        }
        t += best;
    }
    t /= runs;
    pn_engine_release(&prep);
    pn_net_destroy(&net);
    return t;
}

int main(void)
{
    pn_device_t dev;
    pn_error_t err;
    if (pn_device_load(&dev, "h100", NULL, 0, 0, &err) != PN_OK || !dev.has_pipe) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    pn_memory_t coal, scat;
    pn_memory_default(&coal);
    coal.l1_hit = 0.5;
    coal.l2_hit = 0.9;
    scat = coal;
    scat.sectors_ld = scat.sectors_st = 30;
    scat.lines_ld = scat.lines_st = 30;
    static const bcase_t cases[] = {
        { .name = "arith-bound, 64 warps x 100k", .warps = 64, .blocks = 1, .resident = 1,
          .n = { 100000 } },
        { .name = "mixed, 64 warps x 96k, 100 barriers", .warps = 64, .blocks = 1,
          .resident = 1, .barriers = 100, .n = { 60000, 1000, 12000, 4000, 0, 0, 0, 2000 } },
        { .name = "scattered loads (radix-like), 32 warps x 115k", .warps = 32, .blocks = 1,
          .resident = 1, .n = { 80000, 0, 0, 0, 0, 0, 0, 15000 } },
        { .name = "grid: 64 blocks of 8 warps, 8 resident, x 20k", .warps = 8, .blocks = 64,
          .resident = 8, .barriers = 10, .n = { 12000, 200, 3000, 1000, 0, 0, 0, 800 } },
        /* a long kernel (issue 23): few warps, long loops, > 1e8 steps */
        { .name = "long: 2 warps x 3.8M, DRAM loads (1.5e8 steps)", .warps = 2, .blocks = 1,
          .resident = 1, .barriers = 40960,
          .n = { 3215360, 0, 245760, 81920, 0, 0, 163840, 81920 } },
    };
    printf("pipelined net, h100 profile (probed); compiled engine, one run each "
           "(the fastest of 3)\n");
    printf("%-48s %12s %12s %10s %14s\n", "case", "warp-instr", "steps", "seconds",
           "ns/warp-instr");
    /* every class on every engine: the compiled engine on the full kernel,
     * fast and literal on the same kernel with counts cut (per warp-instruction
     * costs hardly depend on the length) */
    static const uint32_t cut[3] = { 1, 200, 2000 };
    static const pn_engine_kind_t kinds[3] = { PN_ENGINE_COMPILED, PN_ENGINE_FAST,
                                               PN_ENGINE_LITERAL };
    double ns[sizeof cases / sizeof cases[0]][3];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int e = 0; e < 3; e++) {
            bcase_t c = cases[i];
            c.mem = i == 2 ? scat : coal;
            if (i == 1 || i == 3)
                c.n[PN_PIPE_LD_L1] = 2000, c.n[PN_PIPE_LD_L2] = 2000, c.n[PN_PIPE_LD_DRAM] = 1000;
            if (i == 2)
                c.n[PN_PIPE_LD_L1] = 13000, c.n[PN_PIPE_LD_L2] = 2000;
            if (e > 0 && i == 4)           /* the long kernel: compiled only */
                break;
            for (int k = 0; k < PN_PIPE_KINDS; k++)
                c.n[k] = (c.n[k] + cut[e] - 1) / cut[e];
            if (c.barriers)
                c.barriers = (c.barriers + cut[e] - 1) / cut[e];
            pn_pipe_counts_t *w = calloc(c.warps, sizeof *w);
            pn_pipe_params_t p;
            params_of(&dev, &c, w, &p);
            uint64_t steps;
            double t = time_engine(kinds[e], &p, 1, e == 0 ? 3 : 1, &steps);
            ns[i][e] = t * 1e9 / (double)instructions(&c);
            if (e == 0)
                printf("%-48s %12" PRIu64 " %12" PRIu64 " %10.3f %14.1f\n", c.name,
                       instructions(&c), steps, t, ns[i][e]);
            free(w);
        }
    }
    printf("\nns per warp-instruction by engine (fast: counts / %u, literal: counts / %u)\n",
           cut[1], cut[2]);
    printf("%-48s %10s %10s %10s %12s %12s\n", "case", "compiled", "fast", "literal",
           "vs arith", "lit/compiled");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (i == 4)
            printf("%-48s %10.1f %10s %10s %11.1fx %12s\n", cases[i].name, ns[i][0], "-", "-",
                   ns[i][0] / ns[0][0], "-");
        else
            printf("%-48s %10.1f %10.1f %10.1f %11.1fx %11.0fx\n", cases[i].name, ns[i][0],
                   ns[i][1], ns[i][2], ns[i][0] / ns[0][0], ns[i][2] / ns[i][0]);
    }
    /* set-up by grid size: the counting net a compiled run builds against the
     * full net the fast and literal engines read */
    printf("\nset-up by blocks on the SM (8 warps each, mixed counts): ms\n");
    printf("%10s %14s %14s %10s\n", "blocks", "counting net", "full net", "ratio");
    for (uint32_t blocks = 10; blocks <= 100000; blocks *= 10) {
        bcase_t c = { .name = "grid", .warps = 8, .blocks = blocks, .resident = 8,
                      .barriers = 2, .n = { 40, 2, 4, 2, 2, 1, 1, 1 } };
        c.mem = coal;
        pn_pipe_counts_t w[8];
        pn_pipe_params_t p;
        params_of(&dev, &c, w, &p);
        double t[2];
        for (int full = 0; full < 2; full++) {
            if (full && blocks > 10000) {
                t[1] = -1;                  /* minutes, and gigabytes */
                break;
            }
            pn_net_t net;
            pn_pipe_layout_t lay;
            pn_net_init(&net);
            double t0 = now();
            if ((!full && pn_net_set_counting(&net, &err) != PN_OK) ||
                pn_pipe_build(&net, &p, &lay, &err) != PN_OK) {
                fprintf(stderr, "bench: %s\n", err.msg);
                exit(1);
            }
            t[full] = (now() - t0) * 1e3;
            pn_net_destroy(&net);
        }
        if (t[1] < 0)
            printf("%10u %14.2f %14s %10s\n", blocks, t[0], "-", "-");
        else
            printf("%10u %14.2f %14.2f %9.0fx\n", blocks, t[0], t[1], t[1] / t[0]);
    }
    pn_device_destroy(&dev);
    return 0;
}
