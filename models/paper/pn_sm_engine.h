/* pn_sm_engine.h - the sm engine: the SM net of pn_sm_build compiled into
 * one event-driven state machine per warp, plugged into sim/'s engines. */
#ifndef PN_ENGINE_SM_H
#define PN_ENGINE_SM_H

#include "pn_engine.h"
#include "pn_error.h"
#include "pn_model_engine.h"
#include "pn_net.h"
#include "pn_sm_grid.h"

/* The compiled engine of SM nets, named "sm". Its plan comes from
 * pn_sm_plan_new. A run has the literal engine's distribution of steps and
 * idle steps (and the same firings), simulated as the warps' selections and
 * issues: time O(selections + issues), independent of the latencies; memory
 * O(warps). on_step and idle_trans are not used (t0 is known). */
extern const pn_engine_impl_t pn_sm_engine;

/* Plan the sm engine for the net pn_sm_build makes from p: p is checked
 * (pn_sm_check's errors) and copied, so p need not outlive the plan. *plan
 * is freed by pn_sm_engine.free_plan (pn_engine_release does it).
 * Errors: PN_EINVAL, PN_ELIMIT, PN_ENOMEM. O(warps). */
pn_status_t pn_sm_plan_new(const pn_sm_params_t *p, void **plan, pn_error_t *err);

/* The SM net's model engine: pn_sm_engine, planned by pn_sm_plan_new from a
 * const pn_sm_params_t *. */
extern const pn_model_engine_t pn_sm_model_engine;

/* Prepare engine `kind` for net, the net pn_sm_build made from p (both
 * borrowed, as o): PN_ENGINE_AUTO and PN_ENGINE_COMPILED take the sm engine,
 * planned from p; fast and literal run net (pn_model_engine_prepare with
 * pn_sm_model_engine). Errors: the plan's. Release prep with
 * pn_engine_release, also after an error. */
pn_status_t pn_sm_engine_prepare(pn_prepared_t *prep, pn_engine_kind_t kind,
                                 const pn_sm_params_t *p, const pn_net_t *net,
                                 const pn_run_opts_t *o, pn_error_t *err);

/* Prepare engine `kind` for net, the net pn_sm_build_grid made from p and g
 * (all borrowed): auto and compiled take the sm engine, planned from p and g
 * (blocks in resident slots, barriers, block hand-overs: models/paper/GRID.md);
 * fast and literal run net. Release prep with pn_engine_release, also after
 * an error. */
pn_status_t pn_sm_grid_engine_prepare(pn_prepared_t *prep, pn_engine_kind_t kind,
                                      const pn_sm_params_t *p, const pn_sm_grid_t *g,
                                      const pn_net_t *net, const pn_run_opts_t *o,
                                      pn_error_t *err);

/* Warps in program order for the sm engine: per warp (seg_off[w] ..
 * seg_off[w + 1]) segments of items run `repeat` times (repeat >= 1), an
 * item `mult` consecutive instructions of a kind (PN_KIND_*) or a barrier
 * (PN_SM_SEQ_SYNC, mult 1). The program-order net's timing
 * (models/program/PROGRAM.md): a selection takes the next instruction
 * instead of a random kind, a barrier costs arrive, release and resume. */
#define PN_SM_SEQ_SYNC 3
typedef struct pn_sm_seq_item {
    uint8_t kind;
    uint32_t mult;
} pn_sm_seq_item_t;
typedef struct pn_sm_seq_seg {
    uint64_t repeat;
    uint32_t first, n;            /* items[first .. first + n) */
} pn_sm_seq_seg_t;
typedef struct pn_sm_seq {
    const uint32_t *seg_off;      /* n_warps + 1 */
    const pn_sm_seq_seg_t *segs;
    const pn_sm_seq_item_t *items;
} pn_sm_seq_t;

/* Prepare engine `kind` for the program-order net (net, borrowed) of p's
 * warps running seq (copied): auto and compiled take the sm engine, fast
 * and literal run net. p->warps must hold the counts seq implies (the
 * firings follow from them). Release prep with pn_engine_release, also
 * after an error. */
pn_status_t pn_sm_seq_engine_prepare(pn_prepared_t *prep, pn_engine_kind_t kind,
                                     const pn_sm_params_t *p, const pn_sm_seq_t *seq,
                                     const pn_net_t *net, const pn_run_opts_t *o,
                                     pn_error_t *err);

/* One run of engine `kind` on the SM net of p, as pn_sm_engine_prepare and
 * pn_engine_run_prepared. */
pn_status_t pn_sm_engine_run(pn_engine_kind_t kind, const pn_sm_params_t *p,
                             const pn_net_t *net, uint64_t seed, const pn_run_opts_t *o,
                             pn_run_result_t *res, pn_error_t *err);

#endif
