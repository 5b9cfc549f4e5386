/* pn_sass_bounds.c - the lower bounds of a sass run (pn_sass_sim_bounds):
 * issue, the longest warp, the block launches, and each pipe's units over its
 * rate, loads counted at the levels their warps' patterns draw. */
#include "pn_sass_sim.h"
#include "pn_sass_sim_i.h"

#include <string.h>

void pn_sass_sim_bounds(const pn_sass_sim_t *s, pn_pipe_bounds_t *b)
{
    memset(b, 0, sizeof *b);
    const pn_sass_plan_t *pl = &s->plan;
    uint32_t S = s->partitions ? s->partitions : 1;
    uint64_t part[PN_PIPE_MAX_PARTITIONS] = { 0 }, insts = 0, longest = 0, lv[3] = { 0 };
    for (uint32_t w = 0; w < pl->n_warps; w++) {
        part[pn_sass_partition(s, w / s->W, w % s->W)] += pl->insts[w];
        insts += pl->insts[w];
        longest = pl->insts[w] > longest ? pl->insts[w] : longest;
        if (pl->loads[w] > 0) {
            pn_sass_levels_t l;
            pn_sass_warp_levels(s, w, &l);
            lv[1] += l.lv[1], lv[2] += l.lv[2];
        }
    }
    uint64_t issue = 0;
    for (uint32_t j = 0; j < S; j++)
        issue = part[j] > issue ? part[j] : issue;
    uint64_t per = s->issue ? s->issue : 1;
    b->steps[PN_BOUND_ISSUE] = issue / per + (issue % per != 0);
    b->steps[PN_BOUND_LATENCY] = longest;
    /* block k starts no earlier than k launch - 1 (block 0 from step 0) */
    if (insts && s->blocks > 1)
        b->steps[PN_BOUND_LAUNCH] = (uint64_t)(s->blocks - 1) * s->launch - 1;
    /* units per pipe; loads whose DRAM or L2 budget follows the level drawn count
     * the cheapest such op times the loads drawn at that level */
    double units[P_N] = { 0 }, least[P_N];
    int from[P_N] = { 0 };   /* the level a load's cost of the pipe starts at */
    for (int q = 0; q < P_N; q++)
        least[q] = -1;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        const sop_t *o = &s->ops[i];
        double n = (double)pl->op_execs[i];
        for (int q = 0; q < P_N; q++) {
            if (!o->cost[q])
                continue;
            int lvl = pn_sass_cost_level(s, o, q);
            if (o->kind == K_GLD && lvl > 0) {
                from[q] = lvl;
                if (o->follow < 0 && (least[q] < 0 || o->cost[q] < least[q]))
                    least[q] = o->cost[q];
            } else if (o->kind == K_ATOMG && q == P_DRAM) {
                continue; /* served at L2 */
            } else
                units[q] += n * o->cost[q];
        }
    }
    for (int q = 0; q < P_N; q++)
        if (least[q] > 0)
            units[q] += (double)(lv[2] + (from[q] < 2 ? lv[1] : 0)) * least[q];
    for (int q = 0; q < P_PER_PART; q++)
        units[q] /= S; /* the busiest partition takes at least the average */
    /* the arithmetic pipes (FP32, integer, FMA heavy, FP64) bound as one: the largest */
    static const int slot[P_N] = { PN_BOUND_PIPE0 + PN_PIPE_ALUP, PN_BOUND_PIPE0 + PN_PIPE_SFUP,
                                   PN_BOUND_PIPE0 + PN_PIPE_ALUP, PN_BOUND_PIPE0 + PN_PIPE_ALUP,
                                   PN_BOUND_PIPE0 + PN_PIPE_ALUP, PN_BOUND_PIPE0 + PN_PIPE_LSU,
                                   PN_BOUND_PIPE0 + PN_PIPE_SHMEM,
                                   PN_BOUND_PIPE0 + PN_PIPE_DRAM, PN_BOUND_L2, PN_BOUND_L2_WRITE,
                                   PN_BOUND_ATOMIC, PN_BOUND_CONST, PN_BOUND_TEX };
    for (int q = 0; q < P_N; q++)
        if (s->rate[q] && units[q] > s->cap0[q]) {
            uint64_t v = (uint64_t)((units[q] - s->cap0[q]) / s->rate[q]);
            if (v > b->steps[slot[q]])
                b->steps[slot[q]] = v;
        }
    for (int i = 1; i < PN_BOUNDS; i++)
        if (b->steps[i] > b->steps[b->binding])
            b->binding = i;
}
