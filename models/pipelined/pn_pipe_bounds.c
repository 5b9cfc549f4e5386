/* pn_pipe_bounds.c - lower bounds of a pipelined net's steps (pn_pipe_bounds.h). */
#include "pn_pipe_bounds.h"

#include <stdlib.h>
#include <string.h>

const char *const pn_pipe_bound_names[PN_BOUNDS] = {
    "issue", "latency", "launch", "lsu", "shared", "dram", "sfu", "alu", "l2", "l2_write", "atomic",
    "constant", "texture",
};

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return b ? a / b + (a % b != 0) : 0;
}

void pn_pipe_bounds(const pn_pipe_params_t *p, pn_pipe_bounds_t *b)
{
    memset(b, 0, sizeof *b);
    uint32_t S = p->partitions ? p->partitions : 1, W = p->n_warps;
    uint64_t blocks = p->blocks ? p->blocks : 1, resident = p->resident ? p->resident : 1;
    if (resident > blocks)
        resident = blocks;
    /* units each pipe takes over the SM's blocks; per-partition pipes per
     * partition (warp i of a block on partition i mod S) */
    uint64_t sm_units[PN_PIPE_PIPES] = { 0 };
    uint64_t *part_units = calloc((size_t)S * PN_PIPE_PIPES, sizeof *part_units);
    uint64_t insts = 0, longest = 0;
    for (uint64_t blk = 0; blk < blocks; blk++) {
        for (uint32_t i = 0; i < W; i++) {
            const pn_pipe_counts_t *c = p->block_warps ? &p->block_warps[blk * W + i]
                                                       : &p->warps[i];
            uint64_t alone = 0;
            for (int k = 0; k < PN_PIPE_KINDS; k++) {
                insts += c->n[k];
                alone += c->n[k] * p->latency[k];
                for (int q = 0; q < PN_PIPE_PIPES; q++) {
                    uint64_t u = c->n[k] * p->cost[k][q];
                    if (PN_PIPE_PER_PARTITION(q) && part_units)
                        part_units[(size_t)(i % S) * PN_PIPE_PIPES + q] += u;
                    else
                        sm_units[q] += u;
                }
            }
            longest = alone > longest ? alone : longest;
        }
        if (!p->block_warps && blk == 0) {
            /* every block alike: the first block's sums times the blocks */
            insts *= blocks;
            for (int q = 0; q < PN_PIPE_PIPES; q++) {
                sm_units[q] *= blocks;
                for (uint32_t j = 0; part_units && j < S; j++)
                    part_units[(size_t)j * PN_PIPE_PIPES + q] *= blocks;
            }
            break;
        }
    }
    uint64_t issue = (uint64_t)S * (p->issue ? p->issue : 1);
    b->steps[PN_BOUND_ISSUE] = ceil_div(insts, issue);
    b->steps[PN_BOUND_LATENCY] = ceil_div(blocks, resident) * longest;
    /* block R starts as soon as a slot frees, each later one at least
     * block_launch after the one before: the last starts at >= (B - R - 1) G
     * (a kernel without instructions ends before any launch) */
    if (insts && blocks > resident + 1)
        b->steps[PN_BOUND_LAUNCH] = (blocks - resident - 1) * (p->block_launch ? p->block_launch : 1);
    for (int q = 0; q < PN_PIPE_PIPES; q++) {
        if (!p->rate[q])
            continue;
        uint64_t units = sm_units[q];
        for (uint32_t j = 0; PN_PIPE_PER_PARTITION(q) && part_units && j < S; j++)
            if (part_units[(size_t)j * PN_PIPE_PIPES + q] > units)
                units = part_units[(size_t)j * PN_PIPE_PIPES + q];
        uint64_t cap = pn_pipe_capacity(p, (pn_pipe_pipe_t)q);
        b->steps[PN_BOUND_PIPE0 + q] = units > cap ? (units - cap) / p->rate[q] : 0;
    }
    free(part_units);
    for (int i = 1; i < PN_BOUNDS; i++)
        if (b->steps[i] > b->steps[b->binding])
            b->binding = i;
}
