/* pn_test_sass.h - the pipelined parameters and the run the SASS engine's
 * unit tests share (tests/test_sass_*.c; include it after cmocka.h and
 * pn_sass_sim.h). */
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

/* Steps of seed 1's run of prog on pp, pd and mem (at most a million). */
static inline uint64_t pn_test_sass_steps(const pn_sass_prog_t *prog, const pn_pipe_params_t *pp,
                                          const pn_pipe_device_t *pd, const pn_memory_t *mem)
{
    pn_sass_sim_params_t sp = { pp, pd, mem, prog, 1, 0, 1 };
    pn_sass_sim_t *sim;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_run_opts_t o = { .max_steps = 1000000, .idle_trans = -1 };
    pn_run_result_t r;
    assert_int_equal(pn_sass_sim_run(sim, 1, &o, &r, &err), PN_OK);
    pn_sass_sim_free(sim);
    return r.steps;
}

/* The bounds of prog on pp, pd and mem. */
static inline void pn_test_sass_bounds(const pn_sass_prog_t *prog, const pn_pipe_params_t *pp,
                                       const pn_pipe_device_t *pd, const pn_memory_t *mem,
                                       pn_pipe_bounds_t *b)
{
    pn_sass_sim_params_t sp = { pp, pd, mem, prog, 1, 0, 1 };
    pn_sass_sim_t *sim;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_sass_sim_bounds(sim, b);
    pn_sass_sim_free(sim);
}

#endif
