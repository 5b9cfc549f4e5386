/* pn_pipe_plan.h - the compiled pipelined engine's plan, shared by its
 * planner (pn_pipe_plan.c) and its runs (pn_pipe_engine.c); not a public
 * interface: users see pn_pipe_plan_t as opaque (pn_pipe_engine.h). */
#ifndef PN_PIPE_PLAN_H
#define PN_PIPE_PLAN_H

#include "pn_pipe_engine.h"
#include "pn_program.h"

/* Is pipelined kind k a global load (it takes an inflight token)? */
static inline int pn_pipe_is_load(int k)
{
    return k == PN_PIPE_LD_L1 || k == PN_PIPE_LD_L2 || k == PN_PIPE_LD_DRAM;
}

/* What an acquisition of a group takes. */
typedef struct pn_pipe_group {
    uint8_t nb;                        /* buckets taken from, 0 .. PN_PIPE_PIPES */
    uint8_t load;                      /* takes an inflight token (the limit binds) */
    uint8_t alone;                     /* no other group takes from its buckets nor an
                                        * inflight token: k that fit take k at once */
    uint32_t b[PN_PIPE_PIPES];         /* bucket indices (the engine's: lsu, shared, dram,
                                        * sfu of partition j at 3 + j, alu at 3 + S + j) */
    uint32_t c[PN_PIPE_PIPES];         /* amounts */
} pn_pipe_group_t;

struct pn_pipe_plan {
    pn_pipe_params_t p;
    pn_pipe_counts_t *warps;
    uint32_t cap[PN_PIPE_PIPES];
    uint32_t n_buckets;                /* 3 SM pipes + partitions SFU + partitions ALU pipes */
    uint64_t ring;                     /* calendar slots: a power of two > every horizon */
    uint32_t blocks, resident;         /* B >= 1, R >= 1 */
    uint64_t total;                    /* B * warps per block */
    uint64_t *phase, *last;            /* per counts entry: budgets between barriers */
    int per_block;                     /* warps, phase, last: one entry per warp of every
                                        * block (block_warps), else per warp of a block */
    int inflight_free;                 /* inflight >= warps ever resident: it never binds */
    /* acquisition groups: the (kind, partition) pairs that take the same
     * amounts from the same buckets (and an inflight token alike), so that
     * their waiting warps fit or not together; group gid[k][j] for kind k on
     * partition j, n_groups <= kinds * partitions */
    uint32_t n_groups;
    pn_pipe_group_t *groups;
    uint16_t gid[PN_PIPE_KINDS][PN_PIPE_MAX_PARTITIONS];
    /* program order: warp i's segments seg_off[i] .. seg_off[i + 1] (repeat
     * >= 1) of items, copied from p->programs; seg_off NULL: counts */
    uint32_t *seg_off;
    struct { uint64_t repeat; uint32_t first, n; } *segs;
    pn_program_item_t *items;
};

#endif
