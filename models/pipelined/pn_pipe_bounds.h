/* pn_pipe_bounds.h - the lower bounds of a pipelined net's steps, as a
 * roofline names them: the issue slots, each throughput-limited pipe (DRAM
 * included), the block launches, and the longest warp alone; the largest
 * binds. Every run of the net takes at least that many steps (a test checks
 * it over the bundled configs and random ones). */
#ifndef PN_PIPE_BOUNDS_H
#define PN_PIPE_BOUNDS_H

#include <stdint.h>

#include "pn_pipe.h"

/* The bounds, in steps. */
enum {
    PN_BOUND_ISSUE = 0,           /* instructions over the partitions' issue slots */
    PN_BOUND_LATENCY = 1,         /* the waves of blocks times the longest warp alone */
    PN_BOUND_LAUNCH = 2,          /* blocks after the first wave, one every block_launch */
    PN_BOUND_PIPE0 = 3,           /* + pipe q (pn_pipe_pipe_t): units taken over its rate */
    PN_BOUND_L2 = PN_BOUND_PIPE0 + PN_PIPE_PIPES, /* the SM's share of the L2's reads (sass) */
    PN_BOUND_L2_WRITE,            /* the SM's share of the L2's writes (sass engine) */
    PN_BOUND_ATOMIC,              /* the SM's share of one address's atomic unit (sass) */
    PN_BOUND_CONST,               /* the SM's constant cache, indexed loads (sass) */
    PN_BOUND_TEX,                 /* the SM's texture unit, texture fetches (sass) */
    PN_BOUNDS
};

/* "issue", "latency", "launch", then the pipes' names ("lsu", "shared",
 * "dram", "sfu", "alu"), "l2", "l2_write", "atomic", "constant", "texture". */
extern const char *const pn_pipe_bound_names[PN_BOUNDS];

typedef struct pn_pipe_bounds {
    uint64_t steps[PN_BOUNDS];    /* 0 where a bound does not apply (an absent pipe) */
    int binding;                  /* the largest (first on ties) */
} pn_pipe_bounds_t;

/* The bounds of the net pn_pipe_build makes of p (checked by the caller).
 * A pipe's bound subtracts what its bucket holds at the start (it refills by
 * its rate each step from there), a per-partition pipe takes its busiest
 * partition. O(warps of every block). */
void pn_pipe_bounds(const pn_pipe_params_t *p, pn_pipe_bounds_t *b);

#endif
