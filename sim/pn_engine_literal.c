/* pn_engine_literal.c - the reference engine: a literal reading of the
 * maximal-concurrent step with randomized conflict resolution. */
#include "pn_engine.h"

#include <assert.h>
#include <stdlib.h>

#include "pn_rng.h"

pn_status_t pn_engine_literal_run(const pn_net_t *net, uint64_t seed, const pn_run_opts_t *o,
                                  pn_run_result_t *res, pn_error_t *err)
{
    if (!net->frozen)
        return pn_error_set(err, PN_EINVAL, "cannot simulate a net that is not frozen");
    pn_tokens_t *m = malloc(((size_t)net->n_places + 1) * sizeof *m);
    uint32_t *enabled = malloc(((size_t)net->n_trans + 1) * sizeof *enabled);
    uint32_t *fired = malloc(((size_t)net->n_trans + 1) * sizeof *fired);
    if (!m || !enabled || !fired) {
        free(m); free(enabled); free(fired);
        return pn_error_set(err, PN_ENOMEM, "out of memory for a run");
    }
    pn_rng_t rng;
    pn_rng_seed(&rng, seed);
    pn_net_initial_marking(net, m);
    uint64_t steps = 0, idle = 0, firings = 0;
    pn_status_t st = PN_OK;

    for (;;) {
        uint32_t n = 0;
        for (uint32_t t = 0; t < net->n_trans; t++)
            if (pn_net_enabled(net, m, t))
                enabled[n++] = t;
        if (n == 0)
            break;
        if (steps >= o->max_steps) {
            st = pn_engine_limit_error(o, seed, err);
            break;
        }
        if ((steps & (PN_ENGINE_STOP_EVERY - 1)) == 0 && pn_engine_poll(o, steps)) {
            st = pn_engine_stop_error(err);
            break;
        }
        pn_rng_shuffle_u32(&rng, enabled, n);
        /* inhibitors were read in M; only inputs compete inside the step */
        uint32_t f = 0;
        int idle_fired = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t t = enabled[i];
            if (pn_net_inputs_fit(net, m, t)) {
                pn_net_consume(net, m, t);
                fired[f++] = t;
                idle_fired |= (int64_t)t == o->idle_trans;
            }
        }
        /* maximality: the first transition of the order was enabled at M and
         * finds M untouched, so it fires */
        assert(f > 0);
        for (uint32_t i = 0; i < f; i++)
            pn_net_produce(net, m, fired[i]);
        steps++;
        idle += (uint64_t)idle_fired;
        firings += f;
        if (o->on_step)
            o->on_step(o->ctx, steps, m, fired, f);
    }
    res->seed = seed;
    res->steps = steps;
    res->idle_steps = idle;
    res->firings = firings;
    free(m);
    free(enabled);
    free(fired);
    return st;
}
