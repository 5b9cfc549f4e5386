/* pn_run_ops.h - `pnsim run --ops FILE`: where a kernel.sass config's warps
 * spend their time, instruction by instruction (pn_run_ops.c). */
#ifndef PN_RUN_OPS_H
#define PN_RUN_OPS_H

#include <stdio.h>

#include "pn_engine.h"
#include "pn_model.h"

/* PN_OK when m's warps run their SASS (kernel.sass on the pipelined net), as
 * --ops needs; else PN_EINVAL naming the config. */
pn_status_t pn_run_ops_check(const pn_model_t *m, pn_error_t *err);

/* Run m (a config whose warps run their SASS: m->cfg.sass) once on the sass
 * engine with seed and o, and write to out one CSV row per instruction of its
 * program: offset (hex), instruction, issued (its issues on the simulated SM,
 * all its warps), cycles (the steps its issuing warps spent since their
 * previous issue or since they could first issue: time spent waiting to issue
 * it, as Nsight Compute's warp-state samples put a warp's waiting on the
 * instruction it waits to issue), cycles_per_issue and share (its cycles over
 * all ops'), after a header line. PN_EINVAL as pn_run_ops_check; else
 * the run's errors (PN_ELIMIT past o->max_steps, PN_ENOMEM). */
pn_status_t pn_run_ops_write(FILE *out, const pn_model_t *m, uint64_t seed,
                             const pn_run_opts_t *o, pn_error_t *err);

#endif
