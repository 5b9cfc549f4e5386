/* pn_sass_sim.h - warps that run their SASS on the pipelined SM: in-order
 * issue, a warp waiting only for the registers and predicates its next
 * instruction reads or writes (a scoreboard per register), each instruction
 * charged its own memory cost; the pipes, schedulers, in-flight limit, blocks
 * and barriers of the pipelined net (doc/dependencies.md). */
#ifndef PN_SASS_SIM_H
#define PN_SASS_SIM_H

#include "pn_engine.h"
#include "pn_error.h"
#include "pn_model_engine.h"
#include "pn_pipe.h"
#include "pn_pipe_bounds.h"
#include "pn_pipe_profile.h"
#include "pn_sass_plan.h"
#include "pn_sass_prog.h"

/* What a run needs: the pipelined parameters of the point (partitions,
 * issue, latencies, rates, in-flight limit, warps per block, blocks on the
 * SM, resident blocks, block launch, barrier latency), the device section
 * (dram_line_sectors, the L2 rates, atomic_serial), the kernel's memory (l1_hit,
 * l2_hit), the program, and the SMs that share DRAM and L2. */
typedef struct pn_sass_sim_params {
    const pn_pipe_params_t *pipe;
    const pn_pipe_device_t *pdev;
    const pn_memory_t *mem;
    const pn_sass_prog_t *prog;
    uint32_t busy_sms;            /* SMs that share the device's DRAM and L2 (0: 1) */
    int bounds_only;              /* 1: for pn_sass_sim_bounds only (no DRAM latency settled) */
    double share;                 /* the L2's budget per SM scaled by this (the busiest SM's
                                   * blocks over the mean: pn_kernel_t's share; 0: 1) */
} pn_sass_sim_params_t;

typedef struct pn_sass_sim pn_sass_sim_t;

/* Plan a run: per-op latencies and costs, the per-warp plan
 * (pn_sass_plan_build for pipe->blocks blocks of pipe->n_warps warps).
 * Everything is copied. With the profile's dram_queue or dram_write_delay
 * (and not bounds_only) the DRAM latency is settled on the launch's own load
 * first: up to three runs of seed 1 (doc/dependencies.md). Errors as
 * pn_sass_plan_build, PN_ENOMEM. */
pn_status_t pn_sass_sim_new(const pn_sass_sim_params_t *p, pn_sass_sim_t **out,
                            pn_error_t *err);
void pn_sass_sim_free(pn_sass_sim_t *s);

/* One run with seed: steps until the last warp of the last block is done,
 * idle steps (no warp issues), firings = instructions issued. Thread-safe for
 * a shared plan. PN_ELIMIT through pn_engine_limit_error past o->max_steps. */
pn_status_t pn_sass_sim_run(const pn_sass_sim_t *s, uint64_t seed, const pn_run_opts_t *o,
                            pn_run_result_t *res, pn_error_t *err);

/* The same run, adding per op i (the program's op i; pn_sass_sim_n_ops of
 * them) its issues to issued[i] and to cycles[i] the steps each issuing warp
 * spent since its previous issue (or since it could first issue): where the
 * warps' time goes, op by op, as Nsight Compute's warp-state samples put a
 * warp's waiting on the op it waits to issue. */
pn_status_t pn_sass_sim_run_ops(const pn_sass_sim_t *s, uint64_t seed, const pn_run_opts_t *o,
                                pn_run_result_t *res, double *issued, double *cycles,
                                pn_error_t *err);

/* The ops of s's program (the length of pn_sass_sim_run_ops' arrays). */
uint32_t pn_sass_sim_n_ops(const pn_sass_sim_t *s);

/* Lower bounds on the steps of every run of s, as pn_pipe_bounds names them,
 * from the planned warps' own instructions and costs: issue slots (the busiest
 * partition), the longest warp (one instruction a step), block launches, each
 * pipe (alu and sfu: their partitions' average), the L2 and the atomic unit; a
 * load whose budget depends on the level drawn counts the levels' cheapest
 * ops. Each bucket's start-up capacity is subtracted. */
void pn_sass_sim_bounds(const pn_sass_sim_t *s, pn_pipe_bounds_t *b);

/* The plan's branches it could not solve (a note for reports). */
uint32_t pn_sass_sim_unsolved(const pn_sass_sim_t *s);

/* The instructions the planned warps run over those the program's counts
 * give them (its executions times the planned share of its warps); below 1
 * where the plan does not follow the control flow (a note for reports). 1 for
 * a program without executions. */
double pn_sass_sim_covered(const pn_sass_sim_t *s);

/* The engine as sim/ sees it ("sass"). */
extern const pn_engine_impl_t pn_sass_engine;

#endif
