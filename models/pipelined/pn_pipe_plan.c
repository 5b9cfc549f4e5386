/* pn_pipe_plan.c - the compiled pipelined engine's plan: the parameters
 * copied, per kind the pipes it takes from, the queue costs of the pipes
 * only one-pipe kinds use, the phases between barriers, the programs
 * flattened, and the calendar's size (pn_pipe_engine.c runs it). */
#include "pn_pipe_plan.h"

#include <stdlib.h>
#include <string.h>

void pn_pipe_plan_free(pn_pipe_plan_t *pl)
{
    if (pl) {
        free(pl->warps);
        free(pl->phase);
        free(pl->last);
        free(pl->seg_off);
        free(pl->segs);
        free(pl->items);
        free(pl);
    }
}

pn_status_t pn_pipe_plan_new(const pn_pipe_params_t *p, pn_pipe_plan_t **out, pn_error_t *err)
{
    *out = NULL;
    PN_CHECK(pn_pipe_check(p, err));
    const uint64_t n_cnt = p->block_warps ? (uint64_t)(p->blocks ? p->blocks : 1) * p->n_warps
                                          : p->n_warps;
    if (n_cnt > UINT32_MAX / 2)
        return pn_error_set(err, PN_ELIMIT, "%u blocks of %u warps: too many warps for one SM",
                            p->blocks, p->n_warps);
    const pn_pipe_counts_t *src = p->block_warps ? p->block_warps : p->warps;
    pn_pipe_plan_t *pl = calloc(1, sizeof *pl);
    if (!pl || !(pl->warps = malloc((size_t)n_cnt * sizeof *pl->warps)) ||
        !(pl->phase = malloc((size_t)n_cnt * sizeof *pl->phase)) ||
        !(pl->last = malloc((size_t)n_cnt * sizeof *pl->last))) {
        pn_pipe_plan_free(pl);
        return pn_error_set(err, PN_ENOMEM, "out of memory for a pipelined plan");
    }
    pl->p = *p;
    pl->p.programs = NULL;             /* flattened below */
    if (p->programs) {
        size_t ns = 0, ni = 0;
        for (uint32_t w = 0; w < p->n_warps; w++)
            for (uint32_t j = 0; j < p->programs[w].n_segs; j++)
                if (p->programs[w].segs[j].repeat > 0) {
                    ns++;
                    ni += p->programs[w].segs[j].n_body;
                }
        pl->seg_off = malloc(((size_t)p->n_warps + 1) * sizeof *pl->seg_off);
        pl->segs = malloc((ns + 1) * sizeof *pl->segs);
        pl->items = malloc((ni + 1) * sizeof *pl->items);
        if (!pl->seg_off || !pl->segs || !pl->items || ns > UINT32_MAX || ni > UINT32_MAX) {
            pn_pipe_plan_free(pl);
            return pn_error_set(err, PN_ENOMEM, "out of memory for a pipelined plan");
        }
        ns = ni = 0;
        for (uint32_t w = 0; w < p->n_warps; w++) {
            pl->seg_off[w] = (uint32_t)ns;
            for (uint32_t j = 0; j < p->programs[w].n_segs; j++) {
                const pn_program_seg_t *sg = &p->programs[w].segs[j];
                if (sg->repeat == 0)
                    continue;
                pl->segs[ns].repeat = sg->repeat;
                pl->segs[ns].first = (uint32_t)ni;
                pl->segs[ns++].n = sg->n_body;
                memcpy(pl->items + ni, sg->body, sg->n_body * sizeof *pl->items);
                ni += sg->n_body;
            }
        }
        pl->seg_off[p->n_warps] = (uint32_t)ns;
    }
    memcpy(pl->warps, src, (size_t)n_cnt * sizeof *pl->warps);
    pl->per_block = p->block_warps != NULL;
    if (pl->per_block) {
        pl->p.block_warps = pl->warps;
        pl->p.warps = pl->warps;       /* block 0's: the shape */
    } else {
        pl->p.warps = pl->warps;
    }
    for (int q = 0; q < PN_PIPE_PIPES; q++)
        pl->cap[q] = pn_pipe_capacity(p, (pn_pipe_pipe_t)q);
    pl->n_buckets = PN_PIPE_SFUP + 2 * p->partitions;
    pl->blocks = p->blocks ? p->blocks : 1;
    pl->resident = p->resident ? p->resident : 1;
    pl->total = (uint64_t)pl->blocks * p->n_warps;
    if (pl->total > UINT32_MAX / 2) {
        uint32_t blocks = pl->blocks;
        pn_pipe_plan_free(pl);
        return pn_error_set(err, PN_ELIMIT, "%u blocks of %u warps: too many warps for one SM",
                            blocks, p->n_warps);
    }
    for (uint64_t i = 0; i < n_cnt; i++) {
        uint64_t n = 0;
        for (int k = 0; k < PN_PIPE_KINDS; k++)
            n += src[i].n[k];
        pl->phase[i] = pn_pipe_phase(&src[i], p->barriers);
        pl->last[i] = p->barriers ? n - p->barriers * pl->phase[i] : n;
    }
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        for (int q = 0; q < PN_PIPE_PIPES; q++)
            if (p->cost[k][q]) {
                pl->cost_pipe[k][pl->n_cost[k]] = (uint8_t)q;
                pl->cost[k][pl->n_cost[k]++] = p->cost[k][q];
            }
    {
        uint64_t res = p->resident ? p->resident : 1, blk = p->blocks ? p->blocks : 1;
        pl->inflight_free = p->inflight == 0 ||
                            (uint64_t)p->inflight >= (res < blk ? res : blk) * p->n_warps;
    }
    for (int q = 0; q < PN_PIPE_PIPES; q++) {
        int ok = p->rate[q] > 0;
        uint32_t c = 0;
        for (int k = 0; k < PN_PIPE_KINDS && ok; k++) {
            if (!p->cost[k][q])
                continue;
            if (pl->n_cost[k] != 1 || (pn_pipe_is_load(k) && !pl->inflight_free) ||
                (c && c != p->cost[k][q]))
                ok = 0;
            c = p->cost[k][q];
        }
        pl->qcost[q] = ok ? c : 0;
    }
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        pl->simple[k] = pl->n_cost[k] == 1 && pl->qcost[pl->cost_pipe[k][0]] != 0;
    /* horizon: a latency, or a parked acquisition's wait for a full bucket */
    uint64_t h = 2 + p->barrier_latency +
                 ((uint64_t)(p->resident ? p->resident : 1) + 1) *
                     (p->block_launch ? p->block_launch : 1) + 4;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        if (p->latency[k] > h)
            h = p->latency[k];
    for (int q = 0; q < PN_PIPE_PIPES; q++)
        if (p->rate[q] && pl->cap[q] / p->rate[q] + 2 > h)
            h = pl->cap[q] / p->rate[q] + 2;
    pl->ring = 64;
    while (pl->ring <= h)
        pl->ring *= 2;
    *out = pl;
    return PN_OK;
}
