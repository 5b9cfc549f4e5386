/* pn_model_engine.h - how a model picks the engine for the nets it generates:
 * its compiled engine, if it has one, for auto; the general engines on the
 * net otherwise. Each model with a compiled engine describes it once here. */
#ifndef PN_MODEL_ENGINE_H
#define PN_MODEL_ENGINE_H

#include "pn_engine.h"
#include "pn_error.h"
#include "pn_net.h"

/* A model's engine: its compiled engine and the planner that builds the
 * engine's plan from the parameters the model generated a net from. */
typedef struct pn_model_engine {
    const char *nets;             /* the nets it runs, for messages: "the SM net of ..." */
    const pn_engine_impl_t *impl; /* the compiled engine; NULL: the model has none */
    /* Build *plan (freed by impl->free_plan) from the model's parameters;
     * errors as the model defines them. */
    pn_status_t (*plan_new)(const void *params, void **plan, pn_error_t *err);
} pn_model_engine_t;

/* Prepare engine `kind` for net, a net that model me generated from params
 * (net, params and o borrowed: they must outlive p). PN_ENGINE_AUTO and
 * PN_ENGINE_COMPILED take me's compiled engine, planned from params; where
 * me has none, auto takes the fast engine and PN_ENGINE_COMPILED is
 * PN_EINVAL naming me->nets ("... use --engine fast"); fast and literal run
 * net (pn_engine_prepare). This is the one place where `auto` is resolved
 * for generated nets. Release p with
 * pn_engine_release, also after an error. */
pn_status_t pn_model_engine_prepare(pn_prepared_t *p, pn_engine_kind_t kind,
                                    const pn_model_engine_t *me, const void *params,
                                    const pn_net_t *net, const pn_run_opts_t *o,
                                    pn_error_t *err);

#endif
