/* pn_model_engine.c - a generated net's engine, chosen by its model. */
#include "pn_model_engine.h"

#include <string.h>

pn_status_t pn_model_engine_prepare(pn_prepared_t *p, pn_engine_kind_t kind,
                                    const pn_model_engine_t *me, const void *params,
                                    const pn_net_t *net, const pn_run_opts_t *o,
                                    pn_error_t *err)
{
    memset(p, 0, sizeof *p);
    if (kind != PN_ENGINE_AUTO && kind != PN_ENGINE_COMPILED)
        return pn_engine_prepare(p, kind, net, o, err);
    if (!me->impl) {
        if (kind == PN_ENGINE_AUTO)
            return pn_engine_prepare(p, PN_ENGINE_FAST, net, o, err);
        return pn_error_set(err, PN_EINVAL, "the sm engine runs only nets whose model has a "
                            "compiled engine (the SM net of a kernel's counts), not %s; use "
                            "--engine fast", me->nets);
    }
    void *plan = NULL;
    PN_CHECK(me->plan_new(params, &plan, err));
    return pn_engine_prepare_compiled(p, me->impl, plan, o, err);
}
