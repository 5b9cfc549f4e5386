/* pn_grid.c - a grid of blocks with their own per-warp counts: every SM's
 * blocks simulated with the same seeds, the kernel as slow as its slowest
 * SM, run by run. */
#include "pn_grid.h"

#include <stdlib.h>
#include <string.h>

#include "pn_engine_sm.h"
#include "pn_pipe.h"
#include "pn_pipe_profile.h"

/* Do SMs a and b (of S) receive blocks with the same counts, in order? */
static int same_sm(const pn_warp_counts_t *warp, uint32_t blocks, uint32_t warps, uint32_t S,
                   uint32_t a, uint32_t b)
{
    for (uint32_t x = a, y = b;; x += S, y += S) {
        int ex = x >= blocks, ey = y >= blocks;
        if (ex || ey)
            return ex && ey;
        if (memcmp(&warp[(size_t)x * warps], &warp[(size_t)y * warps],
                   warps * sizeof *warp) != 0)
            return 0;
    }
}

/* Runs of SM s into results: its blocks s, s + S, ... on the config's net. */
static pn_status_t run_sm(const pn_grid_sim_t *g, const pn_warp_counts_t *warp, uint32_t blocks,
                          uint32_t warps, uint32_t S, uint32_t s, pn_run_result_t *results,
                          const char **engine, pn_error_t *err)
{
    const pn_kernel_t *k = &g->m->kernel;
    pn_run_opts_t opts = { .max_steps = g->max_steps, .idle_trans = -1,
                           .net_name = g->m->cfg.kernel_name };
    const int build = g->engine == PN_ENGINE_FAST || g->engine == PN_ENGINE_LITERAL;
    pn_prepared_t prep;
    pn_net_t net;
    pn_net_init(&net);
    pn_pipe_counts_t *pc = NULL;
    pn_status_t st;
    memset(&prep, 0, sizeof prep);
    if (k->net == PN_NET_PIPELINED) {
        uint32_t n = (blocks - s + S - 1) / S;
        pc = calloc((size_t)n * warps, sizeof *pc);
        if (!pc) {
            pn_net_destroy(&net);
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        }
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t w = 0; w < warps; w++) {
                const pn_warp_counts_t *c = &warp[((size_t)s + (size_t)j * S) * warps + w];
                uint64_t *o = pc[(size_t)j * warps + w].n;
                o[PN_PIPE_ARITH] = c->arith;
                o[PN_PIPE_SHARED_LD] = c->shared;
                pn_memory_split(&g->m->cfg.memory, c->global, &o[PN_PIPE_LD_L1],
                                &o[PN_PIPE_LD_L2], &o[PN_PIPE_LD_DRAM]);
            }
        pn_pipe_params_t pp = k->pipe;
        pp.warps = pc;
        pp.block_warps = pc;
        pp.blocks = n;
        pp.resident = k->resident < n ? k->resident : n;
        pp.programs = NULL;
        pn_pipe_layout_t lay;
        st = build ? pn_pipe_build(&net, &pp, &lay, err) : PN_OK;
        if (st == PN_OK) {
            opts.idle_trans = build ? (int64_t)lay.t0 : -1;
            st = pn_pipe_engine_prepare(&prep, g->engine, &pp, build ? &net : NULL, &opts, err);
        }
    } else {
        pn_sm_params_t sp = k->sm;
        sp.warps = &warp[(size_t)s * warps];
        sp.n_warps = warps;
        pn_sm_layout_t lay;
        st = build ? pn_sm_build(&net, &sp, &lay, err) : PN_OK;
        if (st == PN_OK) {
            opts.idle_trans = build ? (int64_t)lay.t0 : -1;
            st = pn_sm_engine_prepare(&prep, g->engine, &sp, build ? &net : NULL, &opts, err);
        }
    }
    if (st == PN_OK)
        st = pn_engine_run_batch(&prep, g->seed, g->runs, g->jobs, results, err);
    *engine = pn_engine_prepared_name(&prep);
    pn_engine_release(&prep);
    pn_net_destroy(&net);
    free(pc);
    if (st != PN_OK) {
        char what[32];
        snprintf(what, sizeof what, "SM %u", s);
        pn_error_prefix(err, what);
        pn_config_locate_run_error(&g->m->cfg, g->max_steps_given, err);
    }
    return st;
}

pn_status_t pn_grid_run(const pn_grid_sim_t *g, const pn_warp_counts_t *warp, uint32_t blocks,
                        uint32_t warps, pn_grid_result_t *res, pn_error_t *err)
{
    memset(res, 0, sizeof *res);
    const pn_kernel_t *k = &g->m->kernel;
    const uint32_t S = g->m->dev.sms ? g->m->dev.sms : 1;
    if (warps != k->sm.n_warps || blocks != k->blocks || blocks == 0 || g->runs == 0)
        return pn_error_set(err, PN_EINVAL, "pn_grid_run: %u blocks of %u warps, the config's "
                            "kernel has %llu of %u", blocks, warps,
                            (unsigned long long)k->blocks, k->sm.n_warps);
    if (k->net != PN_NET_PIPELINED && blocks > S)
        return pn_error_set(err, PN_EINVAL, "%u blocks on %u SMs: the paper net runs one block "
                            "per SM (use model.net: pipelined)", blocks, S);
    const uint32_t sms = blocks < S ? blocks : S;
    uint32_t *owner = malloc(sms * sizeof *owner);          /* SM whose runs SM s shares */
    pn_run_result_t *r = calloc((size_t)sms * g->runs, sizeof *r);
    double *mean = calloc(sms, sizeof *mean);
    pn_run_result_t *kr = calloc(g->runs, sizeof *kr);
    pn_status_t st = PN_OK;
    if (!owner || !r || !mean || !kr) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    for (uint32_t s = 0; s < sms && st == PN_OK; s++) {
        owner[s] = s;
        for (uint32_t o = 0; o < s; o++)
            if (owner[o] == o && same_sm(warp, blocks, warps, S, o, s)) {
                owner[s] = o;
                break;
            }
        if (owner[s] != s) {
            memcpy(&r[(size_t)s * g->runs], &r[(size_t)owner[s] * g->runs],
                   g->runs * sizeof *r);
        } else {
            st = run_sm(g, warp, blocks, warps, S, s, &r[(size_t)s * g->runs], &res->engine,
                        err);
            res->simulated++;
        }
        for (uint32_t i = 0; i < g->runs; i++)
            mean[s] += (double)r[(size_t)s * g->runs + i].steps;
    }
    if (st != PN_OK)
        goto done;
    res->sms = sms;
    res->sm_blocks = (blocks + S - 1) / S;
    for (uint32_t s = 1; s < sms; s++)
        if (mean[s] > mean[res->slowest_sm])
            res->slowest_sm = s;
    for (uint32_t i = 0; i < g->runs; i++) {
        kr[i] = r[i];
        for (uint32_t s = 1; s < sms; s++)
            if (r[(size_t)s * g->runs + i].steps > kr[i].steps)
                kr[i] = r[(size_t)s * g->runs + i];
    }
    st = pn_summary_runs(kr, g->runs, &res->steps, &res->idle, err);
done:
    free(owner);
    free(r);
    free(mean);
    free(kr);
    return st;
}
