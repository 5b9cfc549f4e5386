/* pn_grid.c - a grid of blocks with their own per-warp counts: every SM's
 * blocks simulated with the same seeds, the kernel as slow as its slowest
 * SM, run by run. */
#include "pn_grid.h"

#include <stdlib.h>
#include <string.h>

#include "pn_engine_sm.h"
#include "pn_pipe.h"
#include "pn_pipe_profile.h"

/* Do two block lists hold blocks of the same counts, in the same order? */
static int same_list(const pn_warp_counts_t *warp, uint32_t warps, const uint32_t *x, uint32_t nx,
                     const uint32_t *y, uint32_t ny)
{
    if (nx != ny)
        return 0;
    for (uint32_t i = 0; i < nx; i++)
        if (x[i] != y[i] && memcmp(&warp[(size_t)x[i] * warps], &warp[(size_t)y[i] * warps],
                                   warps * sizeof *warp) != 0)
            return 0;
    return 1;
}

/* Runs of SM s into results: the n blocks list[0..n) in order on the
 * config's net. */
static pn_status_t run_sm(const pn_grid_sim_t *g, const pn_warp_counts_t *warp, uint32_t warps,
                          const uint32_t *list, uint32_t n, uint32_t s, pn_run_result_t *results,
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
        pc = calloc((size_t)n * warps, sizeof *pc);
        if (!pc) {
            pn_net_destroy(&net);
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        }
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t w = 0; w < warps; w++) {
                const pn_warp_counts_t *c = &warp[(size_t)list[j] * warps + w];
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
        sp.warps = &warp[(size_t)list[0] * warps];
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

/* Dynamic assignment: each block's mean steps alone on an SM (blocks with
 * the same counts share), then list scheduling over SMs x resident slots:
 * block b < slots to SM b mod SMs, each later one to the slot that frees
 * first (ties: the lowest slot, slot i on SM i mod SMs). sm_of[b] receives
 * the SM, order[] the blocks by start time (ties: block order). */
static pn_status_t assign_dynamic(const pn_grid_sim_t *g, const pn_warp_counts_t *warp,
                                  uint32_t blocks, uint32_t warps, uint32_t S, uint32_t resident,
                                  uint32_t *sm_of, uint32_t *order, const char **engine,
                                  pn_error_t *err)
{
    double *dur = malloc(blocks * sizeof *dur), *start = malloc(blocks * sizeof *start);
    size_t slots = (size_t)S * resident;
    double *free_at = calloc(slots, sizeof *free_at);
    pn_run_result_t *r = calloc(g->runs, sizeof *r);
    pn_status_t st = PN_OK;
    if (!dur || !start || !free_at || !r) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    for (uint32_t b = 0; b < blocks && st == PN_OK; b++) {
        uint32_t same = b;
        for (uint32_t a = 0; a < b && same == b; a++)
            if (memcmp(&warp[(size_t)a * warps], &warp[(size_t)b * warps],
                       warps * sizeof *warp) == 0)
                same = a;
        if (same != b) {
            dur[b] = dur[same];
            continue;
        }
        st = run_sm(g, warp, warps, &b, 1, b % S, r, engine, err);
        dur[b] = 0;
        for (uint32_t i = 0; i < g->runs && st == PN_OK; i++)
            dur[b] += (double)r[i].steps / g->runs;
    }
    for (uint32_t b = 0; b < blocks && st == PN_OK; b++) {
        size_t slot = b;
        if (b >= slots)
            for (size_t i = slot = 0; i < slots; i++)
                if (free_at[i] < free_at[slot])
                    slot = i;
        start[b] = b < slots ? 0 : free_at[slot];
        free_at[slot] = start[b] + dur[b];
        sm_of[b] = (uint32_t)(slot % S);
        order[b] = b;
    }
    /* blocks by start time, then id (insertion sort: starts mostly rise) */
    for (uint32_t i = 1; i < blocks && st == PN_OK; i++) {
        uint32_t v = order[i], j = i;
        while (j > 0 && start[order[j - 1]] > start[v]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
done:
    free(dur);
    free(start);
    free(free_at);
    free(r);
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
    const uint32_t resident = k->resident ? k->resident : 1;
    uint32_t *owner = malloc(sms * sizeof *owner);          /* SM whose runs SM s shares */
    uint32_t *sm_of = malloc(blocks * sizeof *sm_of), *order = malloc(blocks * sizeof *order);
    uint32_t *list = malloc(blocks * sizeof *list), *lstart = calloc(sms + 1, sizeof *lstart);
    pn_run_result_t *r = calloc((size_t)sms * g->runs, sizeof *r);
    double *mean = calloc(sms, sizeof *mean);
    pn_run_result_t *kr = calloc(g->runs, sizeof *kr);
    pn_status_t st = PN_OK;
    if (!owner || !sm_of || !order || !list || !lstart || !r || !mean || !kr) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    if (g->assign == PN_GRID_DYNAMIC && k->net == PN_NET_PIPELINED && blocks > S * resident) {
        st = assign_dynamic(g, warp, blocks, warps, S, resident, sm_of, order, &res->engine,
                            err);
    } else {
        for (uint32_t b = 0; b < blocks; b++) {
            sm_of[b] = b % S;
            order[b] = b;
        }
    }
    if (st != PN_OK)
        goto done;
    /* each SM's blocks in start order: list[lstart[s] .. lstart[s + 1]) */
    for (uint32_t b = 0; b < blocks; b++)
        lstart[sm_of[b] + 1]++;
    for (uint32_t s = 0; s < sms; s++)
        lstart[s + 1] += lstart[s];
    {
        uint32_t *fill = malloc((sms + 1) * sizeof *fill);
        if (!fill) {
            st = pn_error_set(err, PN_ENOMEM, "out of memory");
            goto done;
        }
        memcpy(fill, lstart, (sms + 1) * sizeof *fill);
        for (uint32_t i = 0; i < blocks; i++)
            list[fill[sm_of[order[i]]]++] = order[i];
        free(fill);
    }
    for (uint32_t s = 0; s < sms && st == PN_OK; s++) {
        owner[s] = s;
        const uint32_t *ls = &list[lstart[s]];
        uint32_t ns = lstart[s + 1] - lstart[s];
        if (ns > res->sm_blocks)
            res->sm_blocks = ns;
        for (uint32_t o = 0; o < s; o++)
            if (owner[o] == o && same_list(warp, warps, &list[lstart[o]],
                                           lstart[o + 1] - lstart[o], ls, ns)) {
                owner[s] = o;
                break;
            }
        if (owner[s] != s) {
            memcpy(&r[(size_t)s * g->runs], &r[(size_t)owner[s] * g->runs],
                   g->runs * sizeof *r);
        } else {
            st = run_sm(g, warp, warps, ls, ns, s, &r[(size_t)s * g->runs], &res->engine, err);
            res->simulated++;
        }
        for (uint32_t i = 0; i < g->runs; i++)
            mean[s] += (double)r[(size_t)s * g->runs + i].steps;
    }
    if (st != PN_OK)
        goto done;
    res->sms = sms;
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
    free(sm_of);
    free(order);
    free(list);
    free(lstart);
    free(r);
    free(mean);
    free(kr);
    return st;
}
