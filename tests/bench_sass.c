/* bench_sass.c - `make bench`: warps that run their SASS. Nanoseconds per
 * warp-instruction of the sass engine on four kinds of program over a
 * 100k-block grid with the h100 profile (the SM's 758 blocks, 8 resident),
 * and the sass engine against the literal and fast engines on the net that
 * realises the same rule (pn_sass_net.c), on two blocks, in one process.
 * PN_BENCH_PROGRAM=i (0 to 3) runs the i-th program alone and PN_BENCH_RUNS=n
 * times n runs of it (default 2): what doc/hacking.md counts under cachegrind. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pn_device.h"
#include "pn_engine.h"
#include "pn_pipe_profile.h"
#include "pn_sass_net.h"
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One instruction: executions per warp, sectors, lines and wavefronts per
 * execution, its text (ops 16 bytes apart). */
typedef struct row {
    double ex, sectors, lines, wavefronts;
    const char *text;
} row_t;

typedef struct bprog {
    const char *name;
    const row_t *rows;
    int n;
    double l1_hit, l2_hit;
} bprog_t;

/* A grid-stride loop: two independent loads a trip, a dependent FMA. */
static const row_t stride[] = { { 1, 0, 0, 0, "S2R R0, SR_TID.X" },
                                { 1, 0, 0, 0, "MOV R1, RZ" },
                                { 16, 4, 1, 0, "LDG.E R2, desc[UR4][R4.64]" },
                                { 16, 4, 1, 0, "LDG.E R3, desc[UR4][R6.64]" },
                                { 16, 0, 0, 0, "IADD3 R4, R4, 0x80, RZ" },
                                { 16, 0, 0, 0, "FFMA R1, R2, R3, R1" },
                                { 16, 0, 0, 0, "ISETP.GE.AND P0, PT, R4, R0, PT" },
                                { 16, 0, 0, 0, "@!P0 BRA 0x20" },
                                { 1, 4, 1, 0, "STG.E desc[UR4][R8.64], R1" },
                                { 1, 0, 0, 0, "EXIT" } };

/* A tiled product: two shared loads and eight FMAs a trip, a barrier every trip. */
static const row_t tiled[] = { { 1, 0, 0, 0, "S2R R0, SR_TID.X" },
                               { 1, 0, 0, 0, "MOV R1, RZ" },
                               { 32, 0, 0, 1, "LDS R2, [R0]" },
                               { 32, 0, 0, 1, "LDS R3, [R0+0x80]" },
                               { 32, 0, 0, 0, "FFMA R1, R2, R3, R1" },
                               { 32, 0, 0, 0, "FFMA R5, R2, R3, R5" },
                               { 32, 0, 0, 0, "FFMA R6, R2, R3, R6" },
                               { 32, 0, 0, 0, "FFMA R7, R2, R3, R7" },
                               { 32, 0, 0, 0, "FFMA R8, R2, R3, R8" },
                               { 32, 0, 0, 0, "FFMA R9, R2, R3, R9" },
                               { 32, 0, 0, 0, "FFMA R10, R2, R3, R10" },
                               { 32, 0, 0, 0, "FFMA R11, R2, R3, R11" },
                               { 32, 0, 0, 0, "IADD3 R0, R0, 0x4, RZ" },
                               { 32, 0, 0, 0, "BAR.SYNC.DEFER_BLOCKING 0x0" },
                               { 32, 0, 0, 0, "ISETP.GE.AND P0, PT, R0, R12, PT" },
                               { 32, 0, 0, 0, "@!P0 BRA 0x20" },
                               { 1, 4, 1, 0, "STG.E desc[UR4][R14.64], R1" },
                               { 1, 0, 0, 0, "EXIT" } };

/* A copy: a load and a store per warp, DRAM-bound. */
static const row_t copy[] = { { 1, 0, 0, 0, "S2R R0, SR_TID.X" },
                              { 1, 0, 0, 0, "IMAD.WIDE R2, R0, 0x4, R4" },
                              { 1, 4, 1, 0, "LDG.E R6, desc[UR4][R2.64]" },
                              { 1, 0, 0, 0, "IMAD.WIDE R8, R0, 0x4, R10" },
                              { 1, 4, 1, 0, "STG.E desc[UR4][R8.64], R6" },
                              { 1, 0, 0, 0, "EXIT" } };

/* Scattered loads: 32 sectors in 32 lines each, a dependent chain. */
static const row_t scattered[] = { { 1, 0, 0, 0, "S2R R0, SR_TID.X" },
                                   { 8, 32, 32, 0, "LDG.E R2, desc[UR4][R4.64]" },
                                   { 8, 0, 0, 0, "IADD3 R4, R2, R4, RZ" },
                                   { 8, 0, 0, 0, "ISETP.GE.AND P0, PT, R4, R0, PT" },
                                   { 8, 0, 0, 0, "@!P0 BRA 0x10" },
                                   { 1, 0, 0, 0, "EXIT" } };

static int prog_of(pn_sass_prog_t *p, const bprog_t *b, double warps)
{
    pn_error_t err;
    if (pn_sass_prog_init(p, "bench.sass", b->name, warps, &err) != PN_OK)
        goto fail;
    for (int i = 0; i < b->n; i++) {
        const row_t *r = &b->rows[i];
        double ex = r->ex * warps;
        if (pn_sass_prog_add(p, r->text, (uint64_t)(16 * i), 0, ex, r->sectors * ex,
                             r->lines * ex, r->wavefronts * ex, i + 1, 1, &err) != PN_OK)
            goto fail;
    }
    if (pn_sass_prog_finish(p, &err) == PN_OK)
        return 0;
fail:
    fprintf(stderr, "bench: %s\n", err.msg);
    return -1;
}

/* Seconds per run and warp-instructions per run of the sass engine, or of
 * kind on the net (net != NULL). */
static double time_runs(const pn_sass_sim_t *sim, const pn_net_t *net, int64_t t0,
                        pn_engine_kind_t kind, uint32_t runs, double *insts)
{
    pn_run_opts_t o = { .max_steps = UINT64_MAX / 2, .idle_trans = t0, .net_name = "bench" };
    pn_run_result_t r;
    pn_error_t err;
    double t = now(), n = 0;
    for (uint32_t i = 0; i < runs; i++) {
        pn_status_t st = net ? pn_engine_run(kind, net, 1 + i, &o, &r, &err)
                             : pn_sass_sim_run(sim, 1 + i, &o, &r, &err);
        if (st != PN_OK) {
            fprintf(stderr, "bench: %s\n", err.msg);
            exit(1);
        }
        n += (double)(r.firings - r.idle_steps);
    }
    *insts = n / runs;
    return (now() - t) / runs;
}

int main(void)
{
    pn_device_t dev;
    pn_error_t err;
    if (pn_device_load(&dev, "h100", NULL, 0, 0, &err) != PN_OK || !dev.has_pipe) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    static const bprog_t progs[] = {
        { "grid-stride loop, 2 loads a trip", stride, 10, 0.5, 0.5 },
        { "tiled FMA, shared loads and barriers", tiled, 18, 0.5, 0.5 },
        { "copy, DRAM-bound", copy, 6, 0, 0 },
        { "scattered loads, dependent", scattered, 6, 0.2, 0.5 },
    };
    const uint32_t sms = 132, blocks = 100000, W = 8;
    const char *only = getenv("PN_BENCH_PROGRAM"), *nr = getenv("PN_BENCH_RUNS");
    uint32_t runs = nr && atoi(nr) > 0 ? (uint32_t)atoi(nr) : 2;
    printf("warps that run their SASS, h100 profile: %u blocks of %u warps over %u SMs "
           "(%u on the SM, 8 resident); sass engine, %u runs\n", blocks, W, sms,
           (blocks + sms - 1) / sms, runs);
    printf("%-40s %14s %12s %10s %12s\n", "program", "warp-instr", "steps", "s/run",
           "ns/instr");
    for (size_t c = 0; c < sizeof progs / sizeof progs[0]; c++) {
        if (only && (size_t)atoi(only) != c)
            continue;
        pn_memory_t mem;
        pn_memory_default(&mem);
        mem.l1_hit = progs[c].l1_hit;
        mem.l2_hit = progs[c].l2_hit;
        pn_pipe_params_t pp;
        memset(&pp, 0, sizeof pp);
        pn_pipe_params_from(&pp, &dev.pipe, &mem, sms);
        pp.n_warps = W;
        pp.blocks = (blocks + sms - 1) / sms;
        pp.resident = 8;
        pn_sass_prog_t prog;
        if (prog_of(&prog, &progs[c], (double)blocks * W) != 0)
            return 1;
        pn_sass_sim_params_t sp = { &pp, &dev.pipe, &mem, &prog, sms, 0, 1 };
        pn_sass_sim_t *sim;
        if (pn_sass_sim_new(&sp, &sim, &err) != PN_OK) {
            fprintf(stderr, "bench: %s\n", err.msg);
            return 1;
        }
        double insts, s = time_runs(sim, NULL, -1, PN_ENGINE_AUTO, runs, &insts);
        pn_run_opts_t o = { .max_steps = UINT64_MAX / 2, .idle_trans = -1 };
        pn_run_result_t r;
        pn_sass_sim_run(sim, 1, &o, &r, &err);
        printf("%-40s %14.0f %12" PRIu64 " %10.3f %12.1f\n", progs[c].name, insts, r.steps, s,
               1e9 * s / insts);
        pn_sass_sim_free(sim);
        pn_sass_prog_destroy(&prog);
    }
    if (only)
        return 0;
    /* the engines side by side on two blocks of the grid-stride loop */
    printf("\nthe same rule on its net: 2 blocks of 8 warps, grid-stride loop (ns/instr)\n");
    printf("%12s %12s %12s %14s %14s\n", "sass", "fast", "literal", "fast / sass",
           "literal / sass");
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0.5;
    pn_pipe_params_t pp;
    memset(&pp, 0, sizeof pp);
    pn_pipe_params_from(&pp, &dev.pipe, &mem, sms);
    pp.n_warps = W;
    pp.blocks = 2;
    pp.resident = 2;
    pn_sass_prog_t prog;
    if (prog_of(&prog, &progs[0], 2.0 * W) != 0)
        return 1;
    pn_sass_sim_params_t sp = { &pp, &dev.pipe, &mem, &prog, sms, 0, 1 };
    pn_sass_sim_t *sim;
    pn_net_t net;
    pn_sass_net_layout_t lay;
    pn_net_init(&net);
    if (pn_sass_sim_new(&sp, &sim, &err) != PN_OK ||
        pn_sass_net_build(&net, sim, &lay, &err) != PN_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    double i0, i1, i2;
    double a = time_runs(sim, NULL, -1, PN_ENGINE_AUTO, 200, &i0) / i0;
    double f = time_runs(sim, &net, lay.t0, PN_ENGINE_FAST, 20, &i1) / i1;
    double l = time_runs(sim, &net, lay.t0, PN_ENGINE_LITERAL, 5, &i2) / i2;
    printf("%12.1f %12.1f %12.1f %13.0fx %13.0fx\n", 1e9 * a, 1e9 * f, 1e9 * l, f / a, l / a);
    pn_net_destroy(&net);
    pn_sass_sim_free(sim);
    pn_sass_prog_destroy(&prog);
    pn_device_destroy(&dev);
    return 0;
}
