/* pn_test_sass.h - the pipelined parameters the SASS engine's unit tests
 * share (tests/test_sass_sim.c, tests/test_sass_plan.c). */
#ifndef PN_TEST_SASS_H
#define PN_TEST_SASS_H

#include <stdint.h>
#include <string.h>

#include "pn_pipe.h"

/* W warps a block, `blocks` blocks of which one resident: 4 partitions,
 * issue 1, every latency 5, loads at L1 10, L2 20 and DRAM 40, no pipes. */
static inline void pn_test_sass_params(pn_pipe_params_t *pp, uint32_t W, uint32_t blocks)
{
    memset(pp, 0, sizeof *pp);
    pp->partitions = 4;
    pp->issue = 1;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        pp->latency[k] = 5;
    pp->latency[PN_PIPE_LD_L1] = 10;
    pp->latency[PN_PIPE_LD_L2] = 20;
    pp->latency[PN_PIPE_LD_DRAM] = 40;
    pp->n_warps = W;
    pp->blocks = blocks;
    pp->resident = 1;
}

#endif
