/* pn_grid.h - simulate a whole grid whose blocks have their own per-warp
 * counts (a regrouped kernel, `pnsim regroup`): every SM that receives
 * blocks is simulated with its own blocks, and the kernel takes as long as
 * its slowest SM, run by run. */
#ifndef PN_GRID_H
#define PN_GRID_H

#include <stdint.h>

#include "pn_engine.h"
#include "pn_model.h"
#include "pn_stats.h"

/* How blocks go to SMs. */
typedef enum pn_grid_assign {
    PN_GRID_DYNAMIC = 0,          /* the next block to the SM whose slot frees first */
    PN_GRID_STATIC = 1            /* block b to SM b mod SMs */
} pn_grid_assign_t;

/* What to simulate: the config's model (its device, net and grid shape) and
 * the runs; the counts come with each call. */
typedef struct pn_grid_sim {
    const pn_model_t *m;          /* borrowed */
    uint32_t runs;                /* per SM */
    uint64_t seed;                /* run i of every SM uses seed + i */
    unsigned jobs;                /* CPU threads (0: all); results do not depend on it */
    uint64_t max_steps;
    int max_steps_given;
    pn_engine_kind_t engine;
    pn_grid_assign_t assign;
    const volatile sig_atomic_t *stop; /* pn_run_opts_t.stop of every run; may be NULL */
    _Atomic uint64_t *at_step;    /* pn_run_opts_t.at_step of every run; may be NULL */
    /* Optional progress: after each run of one SM's (or one block's)
     * blocks, progress(progress_ctx, k), k the blocks that run simulated;
     * the runs one SM or block shares with another are reported as they are
     * shared. Called from the worker threads, one call at a time per batch
     * but batches concurrently. NULL: none. */
    void (*progress)(void *ctx, uint64_t block_runs);
    void *progress_ctx;
} pn_grid_sim_t;

/* The outcome: per run i, the largest steps over the simulated SMs. */
typedef struct pn_grid_result {
    pn_summary_t steps, idle;     /* over the runs: kernel steps, the slowest SM's idle */
    uint32_t sms;                 /* SMs that received blocks */
    uint32_t simulated;           /* of which simulated (SMs with the same counts share) */
    uint32_t slowest_sm;          /* SM of the largest mean steps (ties: the smallest) */
    uint32_t sm_blocks;           /* most blocks one SM received */
    const char *engine;           /* the engine that ran (a static name) */
} pn_grid_result_t;

/* Simulate the grid of `blocks` blocks of `warps` warps each, warp w of
 * block b with counts warp[b * warps + w]. Blocks go to SMs (README,
 * "What-if thread regrouping") statically (block b to SM b mod SMs) or, with
 * g->assign dynamic and more blocks than SMs x resident, as the hardware's
 * dynamic round robin would: the first SMs x resident blocks round robin,
 * each later block to the slot that frees first, by each block's mean steps
 * alone on an SM (simulated on the same net and seeds; blocks with the same
 * counts share); each SM then runs its blocks in start order,
 * at most the config's resident blocks at once: on the pipelined net
 * (model.net: pipelined) as one net with per-block counts
 * (pn_pipe_params_t.block_warps), on the paper net one block per SM (more
 * blocks than SMs is PN_EINVAL: the paper net has no grids). Global loads
 * split by level as the config's kernel.memory says; shared counts are
 * shared loads. Run i of every SM uses seed + i; the kernel's steps in run
 * i are the largest over the SMs. blocks and warps must be those of the
 * config's kernel (warps per block; blocks = kernel.blocks), else
 * PN_EINVAL. Errors of a run are prefixed with "SM s: ". O(SMs * runs *
 * run). */
/* What pn_grid_run(g, .., blocks, ..) reports through g->progress in all:
 * runs x blocks, twice when blocks are assigned dynamically (each block's
 * runs alone first). O(1). */
uint64_t pn_grid_block_runs(const pn_grid_sim_t *g, uint32_t blocks);

pn_status_t pn_grid_run(const pn_grid_sim_t *g, const pn_warp_counts_t *warp, uint32_t blocks,
                        uint32_t warps, pn_grid_result_t *res, pn_error_t *err);

#endif
