/* pn_kernel_net.c - the net of one resolved config point and its engine:
 * counts give the paper's SM net (compiled engine: sm), a program gives the
 * program-order net (no compiled engine). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_kernel_net.h"
#include "pn_sm_engine.h"
#include "pn_pipe_engine.h"
#include "pn_program_net.h"
#include "pn_sass_net.h"
#include "pn_sass_sim.h"

pn_status_t pn_kernel_net_sass_sim(const pn_config_t *cfg, const pn_kernel_t *k, int bounds_only,
                                   pn_sass_sim_t **sim, pn_error_t *err)
{
    pn_sass_sim_params_t sp = { &k->pipe, &k->pdev, &k->mem, cfg->sass, k->busy_sms,
                                bounds_only, k->share };
    return pn_sass_sim_new(&sp, sim, err);
}

int pn_kernel_net_bounds(const pn_config_t *cfg, const pn_kernel_t *k, pn_pipe_bounds_t *b,
                         uint32_t *unsolved, double *covered, pn_error_t *err)
{
    memset(b, 0, sizeof *b);
    if (k->net != PN_NET_PIPELINED)
        return 0;
    if (!cfg->sass) {
        pn_pipe_bounds(&k->pipe, b);
        return 1;
    }
    /* warps that run their SASS: the bounds of their own instructions */
    pn_sass_sim_t *sim;
    if (pn_kernel_net_sass_sim(cfg, k, 1, &sim, err) != PN_OK)
        return 0;
    pn_sass_sim_bounds(sim, b);
    if (unsolved)
        *unsolved = pn_sass_sim_unsolved(sim);
    if (covered)
        *covered = pn_sass_sim_covered(sim);
    pn_sass_sim_free(sim);
    return 1;
}

pn_status_t pn_kernel_net_build(const pn_config_t *cfg, const pn_kernel_t *k,
                                const double *param_values, pn_net_t *net,
                                pn_sm_layout_t *lay, pn_error_t *err)
{
    pn_status_t st;
    if (k->net == PN_NET_PIPELINED && cfg->sass) {
        /* warps that run their SASS: the sass engine plans from the program;
         * a compiled run builds nothing (net stays empty), the literal and
         * fast engines run the net of models/sass/pn_sass_net.c */
        if (lay)
            memset(lay, 0xff, sizeof *lay);
        if (net->counting)
            return PN_OK;
        pn_sass_sim_t *sim;
        PN_CHECK(pn_kernel_net_sass_sim(cfg, k, 0, &sim, err));
        pn_sass_net_layout_t sl;
        st = pn_sass_net_build(net, sim, &sl, err);
        pn_sass_sim_free(sim);
        if (st != PN_OK)
            pn_error_prefix(err, cfg->path);
        else if (lay)
            lay->t0 = sl.t0;
        return st;
    }
    if (k->net == PN_NET_PIPELINED) {
        pn_pipe_layout_t pl;
        pn_pipe_params_t pp = k->pipe;
        pn_program_t *progs = NULL;
        uint32_t warps = k->sm.n_warps;
        if (cfg->has_program) {
            progs = calloc(warps, sizeof *progs);
            if (!progs)
                return pn_error_set(err, PN_ENOMEM, "out of memory for %u programs", warps);
            st = pn_config_programs(cfg, k->threads, param_values, progs, err);
            if (st != PN_OK) {
                free(progs);
                return st;
            }
            pp.programs = progs;
        }
        st = pn_pipe_build(net, &pp, &pl, err);
        if (st != PN_OK)
            pn_error_prefix(err, cfg->path);
        for (uint32_t w = 0; progs && w < warps; w++)
            pn_program_destroy(&progs[w]);
        free(progs);
        if (lay) {
            memset(lay, 0xff, sizeof *lay);
            lay->t0 = pl.t0;
            lay->pw = pl.pw;
        }
        return st;
    }
    if (!cfg->has_program) {
        st = pn_sm_build_grid(net, &k->sm, &k->sm_grid, lay, err);
        if (st != PN_OK)
            pn_error_prefix(err, cfg->path);
        return st;
    }
    uint32_t warps = k->sm.n_warps;
    pn_program_t *progs = calloc(warps, sizeof *progs);
    if (!progs)
        return pn_error_set(err, PN_ENOMEM, "out of memory for %u programs", warps);
    st = pn_config_programs(cfg, k->threads, param_values, progs, err);
    if (st == PN_OK) {
        st = pn_program_net_build(net, k->sm.schedulers, k->sm.l1, k->sm.l2, warps, progs, lay,
                                 err);
        if (st != PN_OK)
            pn_error_prefix(err, cfg->path);
        for (uint32_t w = 0; w < warps; w++)
            pn_program_destroy(&progs[w]);
    }
    free(progs);
    return st;
}

int pn_kernel_net_compiled(pn_engine_kind_t kind)
{
    return kind == PN_ENGINE_AUTO || kind == PN_ENGINE_COMPILED;
}

pn_status_t pn_kernel_net_build_for(const pn_config_t *cfg, const pn_kernel_t *k,
                                    const double *param_values, pn_engine_kind_t kind,
                                    pn_net_t *net, pn_sm_layout_t *lay, pn_error_t *err)
{
    if (pn_kernel_net_compiled(kind))
        PN_CHECK(pn_net_set_counting(net, err));
    return pn_kernel_net_build(cfg, k, param_values, net, lay, err);
}

pn_status_t pn_kernel_net_engine(pn_prepared_t *p, pn_engine_kind_t kind,
                                     const pn_config_t *cfg, const pn_kernel_t *k,
                                     const pn_net_t *net, const pn_run_opts_t *o,
                                     pn_error_t *err)
{
    if (k->net == PN_NET_PIPELINED && cfg->sass) {
        if (!pn_kernel_net_compiled(kind))
            return pn_engine_prepare(p, kind, net, o, err);
        pn_sass_sim_t *sim;
        PN_CHECK(pn_kernel_net_sass_sim(cfg, k, 0, &sim, err));
        return pn_engine_prepare_compiled(p, &pn_sass_engine, sim, o, err);
    }
    if (k->net == PN_NET_PIPELINED && cfg->has_program) {
        pn_pipe_params_t pp = k->pipe;       /* the plan copies the programs */
        pp.programs = k->programs;
        return pn_model_engine_prepare(p, kind, &pn_pipe_program_engine, &pp, net, o, err);
    }
    if (k->net == PN_NET_PIPELINED)
        return pn_pipe_engine_prepare(p, kind, &k->pipe, net, o, err);
    if (!cfg->has_program)
        return pn_sm_grid_engine_prepare(p, kind, &k->sm, &k->sm_grid, net, o, err);
    return pn_program_net_engine(p, kind, &k->sm, k->programs, net, o, err);
}

void pn_kernel_net_locate_error(const pn_config_t *cfg, int limit_given, pn_error_t *err)
{
    if (err->code == PN_ELIMIT && strstr(err->msg, "within max_steps") &&
        strlen(err->msg) + 80 < sizeof err->msg)
        strcat(err->msg, limit_given || cfg->max_steps_pos.line > 0
                             ? " (a cap you set: raise it, or leave it out and the limit "
                               "follows the kernel)"
                             : "");
    if (limit_given || cfg->max_steps_pos.line <= 0) {
        pn_error_prefix(err, cfg->path);
        return;
    }
    char msg[PN_ERROR_MSG_MAX];
    memcpy(msg, err->msg, sizeof msg);
    pn_error_at(err, err->code, cfg->path, cfg->max_steps_pos.line, cfg->max_steps_pos.col,
                "%s", msg);
}

/* ---- steps a run needs at least ------------------------------------------------ */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return b ? a / b + (a % b != 0) : a;
}

uint64_t pn_kernel_net_min_steps(const pn_kernel_t *k)
{
    uint64_t longest = 0, busy = 0;
    if (k->net == PN_NET_PIPELINED) {
        const pn_pipe_params_t *p = &k->pipe;
        for (uint32_t w = 0; w < p->n_warps; w++) {
            uint64_t s = 0, n = 0;
            for (int i = 0; i < PN_PIPE_KINDS; i++) {
                s = sat_add(s, sat_mul(p->warps[w].n[i], p->latency[i]));
                n = sat_add(n, p->warps[w].n[i]);
            }
            longest = s > longest ? s : longest;
            busy = sat_add(busy, n);
        }
        uint64_t blocks = p->blocks ? p->blocks : 1, resident = p->resident ? p->resident : 1;
        uint64_t waves = sat_mul(ceil_div(blocks, resident), longest);
        uint64_t issue = ceil_div(sat_mul(busy, blocks),
                                  (uint64_t)(p->partitions ? p->partitions : 1) *
                                  (p->issue ? p->issue : 1));
        return waves > issue ? waves : issue;
    }
    const pn_sm_params_t *p = &k->sm;
    for (uint32_t w = 0; w < p->n_warps; w++) {
        const pn_warp_counts_t *c = &p->warps[w];
        uint64_t s = sat_add(sat_add(sat_mul(4, c->arith), sat_mul(5 + (uint64_t)p->l1, c->global)),
                             sat_add(sat_mul(5 + (uint64_t)p->l2, c->shared), 1));
        longest = s > longest ? s : longest;
        busy = sat_add(busy, sat_add(sat_add(sat_mul(3, c->arith), sat_mul(2, c->global)),
                                     sat_mul(4 + (uint64_t)p->l2, c->shared)));
    }
    /* a grid (models/paper/GRID.md): every block's warps hold the schedulers, and
     * some slot runs ceil(B / R) blocks one after another */
    const pn_sm_grid_t *g = &k->sm_grid;
    uint64_t blocks = g->blocks ? g->blocks : 1, resident = g->resident ? g->resident : 1;
    uint64_t sched = ceil_div(sat_mul(busy, blocks), p->schedulers ? p->schedulers : 1);
    longest = sat_mul(longest, ceil_div(blocks, resident));
    return longest > sched ? longest : sched;
}

/* Steps one instruction of pipelined kind i can take at most when it runs
 * alone after every other (selection, acquisition, waiting for each bucket
 * to refill its cost, for an inflight token, and its latency). */
static uint64_t pipe_serial_cost(const pn_pipe_params_t *p, int i)
{
    uint64_t c = (uint64_t)p->latency[i] + 2;
    for (int q = 0; q < PN_PIPE_PIPES; q++)
        if (p->cost[i][q] && p->rate[q])
            c += ceil_div(p->cost[i][q], p->rate[q]) + 1;
    if (p->inflight && (i == PN_PIPE_LD_L1 || i == PN_PIPE_LD_L2 || i == PN_PIPE_LD_DRAM))
        c += p->latency[PN_PIPE_LD_DRAM];
    return c;
}

uint64_t pn_kernel_net_max_steps(const pn_kernel_t *k)
{
    uint64_t total = 3;
    if (k->net == PN_NET_PIPELINED) {
        const pn_pipe_params_t *p = &k->pipe;
        uint64_t blocks = p->blocks ? p->blocks : 1;
        uint64_t cost[PN_PIPE_KINDS];
        for (int i = 0; i < PN_PIPE_KINDS; i++)
            cost[i] = pipe_serial_cost(p, i);
        for (uint64_t b = 0; b < (p->block_warps ? blocks : 1); b++) {
            uint64_t block = 0;
            for (uint32_t w = 0; w < p->n_warps; w++) {
                const pn_pipe_counts_t *c = p->block_warps ? &p->block_warps[b * p->n_warps + w]
                                                           : &p->warps[w];
                for (int i = 0; i < PN_PIPE_KINDS; i++)
                    block = sat_add(block, sat_mul(c->n[i], cost[i]));
                block = sat_add(block, sat_mul(p->barriers, (uint64_t)p->barrier_latency + 3));
            }
            total = sat_add(total, sat_mul(block, p->block_warps ? 1 : blocks));
        }
        return sat_add(total, sat_mul(blocks, (uint64_t)p->block_launch + 4));
    }
    const pn_sm_params_t *p = &k->sm;
    const pn_sm_grid_t *g = &k->sm_grid;
    uint64_t blocks = g->blocks ? g->blocks : 1;
    for (uint64_t b = 0; b < (g->block_warps ? blocks : 1); b++) {
        uint64_t block = 0;
        for (uint32_t w = 0; w < p->n_warps; w++) {
            const pn_warp_counts_t *c = g->block_warps ? &g->block_warps[b * p->n_warps + w]
                                                       : &p->warps[w];
            block = sat_add(block, sat_add(sat_add(sat_mul(4, c->arith),
                                                   sat_mul(5 + (uint64_t)p->l1, c->global)),
                                           sat_add(sat_mul(5 + (uint64_t)p->l2, c->shared),
                                                   sat_mul(4, g->barriers) + 1)));
        }
        total = sat_add(total, sat_mul(block, g->block_warps ? 1 : blocks));
    }
    return sat_add(total, sat_mul(blocks, 4));
}

/* A generous upper estimate of the steps warps that run SASS program prog
 * take on point k's SM: every instruction of the SM's share of the launch
 * after the last, each as long as the longest latency plus an update of one
 * address by every lane of every busy SM, and the block starts. */
static uint64_t sass_max_steps(const pn_sass_prog_t *prog, const pn_kernel_t *k)
{
    double insts = 0, lat = 0;
    for (size_t i = 0; i < prog->n; i++)
        insts += prog->ops[i].executed;
    if (k->blocks > 0)
        insts *= (double)k->sm_blocks / (double)k->blocks;
    for (int i = 0; i < PN_PIPE_KINDS; i++)
        lat = k->pipe.latency[i] > lat ? k->pipe.latency[i] : lat;
    double serial = k->pdev.atomic_serial > k->pdev.atomic_serial_float
                        ? k->pdev.atomic_serial : k->pdev.atomic_serial_float;
    double per = lat + 64 + 32 * serial * (k->busy_sms ? k->busy_sms : 1);
    double total = insts * per + (double)k->sm_blocks * (k->pipe.block_launch + 4.0) + 3;
    return total >= 1.8e19 ? UINT64_MAX : (uint64_t)total;
}

/* A lower bound on the steps of warps that run SASS program prog on point
 * k's SM: its average share of the launch's instructions over its issue
 * slots (the SM simulated holds the launch's first blocks, which the plan
 * gives the busier side: never less than the average). Counts are no bound
 * here: a warp's instructions overlap. */
static uint64_t sass_min_steps(const pn_sass_prog_t *prog, const pn_kernel_t *k)
{
    double insts = 0;
    for (size_t i = 0; i < prog->n; i++)
        insts += prog->ops[i].executed;
    if (k->blocks > 0)
        insts *= (double)k->sm_blocks / (double)k->blocks;
    double slots = (double)(k->pipe.partitions ? k->pipe.partitions : 1) *
                   (k->pipe.issue ? k->pipe.issue : 1);
    double need = floor(insts / slots);
    return need >= 1.8e19 ? UINT64_MAX : (uint64_t)need;
}

pn_status_t pn_kernel_net_check_steps(const pn_config_t *cfg, const pn_kernel_t *k,
                                      uint64_t max_steps, int limit_given, uint64_t *limit,
                                      pn_error_t *err)
{
    uint64_t need = cfg->sass && k->net == PN_NET_PIPELINED ? sass_min_steps(cfg->sass, k)
                                                           : pn_kernel_net_min_steps(k);
    *limit = max_steps;
    if (!limit_given && cfg->max_steps_pos.line <= 0) {
        /* no cap from the user: the bound follows the kernel, so that any
         * finite kernel runs (twice the serial upper estimate, and never
         * below the default) */
        uint64_t upper = sat_mul(2, pn_kernel_net_max_steps(k));
        if (cfg->sass && k->net == PN_NET_PIPELINED) {
            uint64_t su = sat_mul(2, sass_max_steps(cfg->sass, k));
            upper = su > upper ? su : upper;
        }
        if (upper > *limit)
            *limit = upper;
        if (need > *limit)
            *limit = need;
        return PN_OK;
    }
    if (need <= max_steps)
        return PN_OK;
    pn_pos_t at = { 0, 0 };
    if (!limit_given && cfg->max_steps_pos.line > 0)
        at = cfg->max_steps_pos;
    for (int i = 0; !limit_given && at.line <= 0 && i < PN_CK_COUNT; i++)
        if (cfg->count[i].text)
            at = cfg->count[i].pos;
    if (!limit_given && at.line <= 0)
        at = cfg->kernel_pos;
    char est[32];
    if (need == UINT64_MAX)
        snprintf(est, sizeof est, "more than %" PRIu64, need - 1);
    else
        snprintf(est, sizeof est, "%" PRIu64, need);
    return pn_error_at(err, PN_ELIMIT, cfg->path, at.line, at.col,
                       "net '%s' needs at least %s steps (a lower bound from its %s), more "
                       "than max_steps = %" PRIu64 ": refused before it runs; "
                       "raise simulation.max_steps or --max-steps to run it, or leave both "
                       "out and the limit follows the kernel",
                       cfg->kernel_name, est,
                       cfg->sass ? "program's instructions and issue slots"
                                 : "counts and latencies",
                       max_steps);
}
