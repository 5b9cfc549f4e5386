/* pn_pipe_engine.h - the pipelined net compiled (pn_pipe_engine.c): an
 * event simulation of the net pn_pipe_build makes, with its distribution. */
#ifndef PN_PIPE_ENGINE_H
#define PN_PIPE_ENGINE_H

#include "pn_engine.h"
#include "pn_error.h"
#include "pn_model_engine.h"
#include "pn_net.h"
#include "pn_pipe.h"

/* The compiled engine's plan: the parameters, copied. */
typedef struct pn_pipe_plan pn_pipe_plan_t;

/* Make a plan from p (copied, checked). Errors as pn_pipe_check, PN_ENOMEM.
 * Free with pn_pipe_plan_free (NULL allowed). O(n_warps). */
pn_status_t pn_pipe_plan_new(const pn_pipe_params_t *p, pn_pipe_plan_t **out, pn_error_t *err);
void pn_pipe_plan_free(pn_pipe_plan_t *pl);

/* One run of the compiled engine for the net pn_pipe_build makes of the
 * plan's parameters: the same distribution of steps, idle steps and firings
 * as the literal engine, simulated as events of the warps (o->max_steps as
 * the engines take it: PN_ELIMIT through pn_engine_limit_error; on_step is
 * not called). Thread-safe for a shared plan. Time O(instructions + steps in
 * which some warp acts), independent of the latencies; memory O(warps of
 * every block + the longest latency). */
pn_status_t pn_pipe_run(const pn_pipe_plan_t *pl, uint64_t seed, const pn_run_opts_t *o,
                        pn_run_result_t *res, pn_error_t *err);

/* The compiled engine as sim/'s engines see it ("sm" on the command line),
 * and as the model describes it (pn_model_engine_prepare). */
extern const pn_engine_impl_t pn_pipe_engine;
extern const pn_model_engine_t pn_pipe_model_engine;

/* Program-order pipelined nets (p->programs): the same compiled engine, each
 * selection the warp's next item (a global item one of the levels it has
 * left, uniformly; a sync item a barrier), the programs copied into the
 * plan. */
extern const pn_model_engine_t pn_pipe_program_engine;

/* Prepare engine `kind` for the pipelined net of p: the compiled engine for
 * PN_ENGINE_AUTO and PN_ENGINE_COMPILED (net may then be NULL: a net of many
 * blocks need not be built), else pn_engine_prepare on net. Release with
 * pn_engine_release, also after an error. */
pn_status_t pn_pipe_engine_prepare(pn_prepared_t *prep, pn_engine_kind_t kind,
                                   const pn_pipe_params_t *p, const pn_net_t *net,
                                   const pn_run_opts_t *o, pn_error_t *err);

#endif
