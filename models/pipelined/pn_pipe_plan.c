/* pn_pipe_plan.c - the compiled pipelined engine's plan: the parameters
 * copied, the acquisition groups (what each kind takes on each
 * partition, deduplicated), the phases between barriers, the programs
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
        free(pl->groups);
        free(pl);
    }
}

/* The acquisition groups of pl (p, n_buckets and inflight_free set): one per
 * distinct (buckets, amounts, inflight token) among the (kind, partition)
 * pairs. 0, or -1 when out of memory. O(kinds^2 * partitions^2). */
static int make_groups(pn_pipe_plan_t *pl)
{
    const pn_pipe_params_t *p = &pl->p;
    const uint32_t S = p->partitions;
    pl->groups = calloc((size_t)PN_PIPE_KINDS * S, sizeof *pl->groups);
    if (!pl->groups)
        return -1;
    pl->n_groups = 0;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        for (uint32_t j = 0; j < S; j++) {
            pn_pipe_group_t g;
            memset(&g, 0, sizeof g);
            for (int q = 0; q < PN_PIPE_PIPES; q++)
                if (p->cost[k][q]) {
                    g.b[g.nb] = q == PN_PIPE_SFUP ? PN_PIPE_SFUP + j
                                : q == PN_PIPE_ALUP ? PN_PIPE_SFUP + S + j : (uint32_t)q;
                    g.c[g.nb++] = p->cost[k][q];
                }
            g.load = pn_pipe_is_load(k) && !pl->inflight_free;
            uint32_t i = 0;
            while (i < pl->n_groups && memcmp(&pl->groups[i], &g, sizeof g) != 0)
                i++;
            if (i == pl->n_groups)
                pl->groups[pl->n_groups++] = g;
            pl->gid[k][j] = (uint16_t)i;
        }
    /* alone: no bucket shared with another group, no inflight token */
    uint32_t users[PN_PIPE_SFUP + 2 * PN_PIPE_MAX_PARTITIONS] = { 0 };
    for (uint32_t i = 0; i < pl->n_groups; i++)
        for (uint32_t m = 0; m < pl->groups[i].nb; m++)
            users[pl->groups[i].b[m]]++;
    for (uint32_t i = 0; i < pl->n_groups; i++) {
        pn_pipe_group_t *g = &pl->groups[i];
        g->alone = !g->load;
        for (uint32_t m = 0; m < g->nb; m++)
            if (users[g->b[m]] > 1)
                g->alone = 0;
    }
    return 0;
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
    {
        uint64_t res = p->resident ? p->resident : 1, blk = p->blocks ? p->blocks : 1;
        pl->inflight_free = p->inflight == 0 ||
                            (uint64_t)p->inflight >= (res < blk ? res : blk) * p->n_warps;
    }
    if (make_groups(pl) != 0) {
        pn_pipe_plan_free(pl);
        return pn_error_set(err, PN_ENOMEM, "out of memory for a pipelined plan");
    }
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
