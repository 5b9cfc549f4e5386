/* pn_engine.c - engine dispatch and parallel, seed-deterministic batches of runs. */
#include "pn_engine.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

pn_status_t pn_engine_parse(const char *s, pn_engine_kind_t *kind, pn_error_t *err)
{
    if (strcmp(s, "literal") == 0) {
        *kind = PN_ENGINE_LITERAL;
        return PN_OK;
    }
    if (strcmp(s, "fast") == 0) {
        *kind = PN_ENGINE_FAST;
        return PN_OK;
    }
    if (strcmp(s, "sm") == 0) {
        *kind = PN_ENGINE_SM;
        return PN_OK;
    }
    return pn_error_set(err, PN_EINVAL, "unknown engine '%s' (expected sm, fast or literal)", s);
}

const char *pn_engine_name(pn_engine_kind_t kind)
{
    switch (kind) {
    case PN_ENGINE_LITERAL: return "literal";
    case PN_ENGINE_FAST:    return "fast";
    case PN_ENGINE_SM:      return "sm";
    }
    return "?";
}

pn_status_t pn_engine_run(pn_engine_kind_t kind, const pn_net_t *net, uint64_t seed,
                          const pn_run_opts_t *o, pn_run_result_t *res, pn_error_t *err)
{
    switch (kind) {
    case PN_ENGINE_LITERAL:
        return pn_engine_literal_run(net, seed, o, res, err);
    case PN_ENGINE_FAST:
        return pn_engine_fast_run(net, seed, o, res, err);
    case PN_ENGINE_SM:
        return pn_engine_sm_run(net, seed, o, res, err);
    }
    return pn_error_set(err, PN_EINVAL, "unknown engine %d", (int)kind);
}

unsigned pn_engine_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}

typedef struct batch {
    pn_engine_kind_t kind;
    const pn_net_t *net;
    uint64_t seed;
    uint32_t runs;
    const pn_run_opts_t *opts;
    const pn_fast_plan_t *plan;   /* the fast engine's plan, shared */
    const pn_sm_plan_t *sm_plan;  /* the sm engine's plan, shared */
    pn_run_result_t *results;
    pthread_mutex_t lock;
    uint32_t next;            /* next run index to hand out */
    uint32_t first_failed;    /* lowest failing run index, runs if none */
    pn_error_t first_err;
} batch_t;

static void *batch_worker(void *arg)
{
    batch_t *b = arg;
    pn_error_t err;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        uint32_t i = b->next < b->first_failed ? b->next++ : b->runs;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->runs)
            return NULL;
        pn_error_clear(&err);
        pn_status_t st =
            b->plan ? pn_engine_fast_run_plan(b->plan, b->seed + i, b->opts, &b->results[i], &err)
            : b->sm_plan ? pn_engine_sm_run_plan(b->sm_plan, b->seed + i, b->opts,
                                                 &b->results[i], &err)
            : pn_engine_run(b->kind, b->net, b->seed + i, b->opts, &b->results[i], &err);
        if (st != PN_OK) {
            pthread_mutex_lock(&b->lock);
            if (i < b->first_failed) {
                b->first_failed = i;
                b->first_err = err;
                b->first_err.code = st;
            }
            pthread_mutex_unlock(&b->lock);
        }
    }
}

pn_status_t pn_engine_run_many(pn_engine_kind_t kind, const pn_net_t *net, uint64_t seed,
                               uint32_t runs, unsigned threads, const pn_run_opts_t *o,
                               pn_run_result_t *results, pn_error_t *err)
{
    if (threads == 0)
        threads = pn_engine_cpu_count();
    if (threads > runs)
        threads = runs ? runs : 1;
    pn_fast_plan_t *plan = NULL;
    pn_sm_plan_t *sm_plan = NULL;
    if (kind == PN_ENGINE_FAST)
        PN_CHECK(pn_fast_plan_new(net, &plan, err));
    if (kind == PN_ENGINE_SM)
        PN_CHECK(pn_sm_plan_new(net, &sm_plan, err));
    batch_t b = { .kind = kind, .net = net, .seed = seed, .runs = runs, .opts = o,
                  .plan = plan, .sm_plan = sm_plan, .results = results, .next = 0,
                  .first_failed = runs };
    pn_error_clear(&b.first_err);
    pthread_mutex_init(&b.lock, NULL);
    pthread_t *tid = threads > 1 ? calloc(threads - 1, sizeof *tid) : NULL;
    unsigned started = 0;
    if (tid)
        for (; started < threads - 1; started++)
            if (pthread_create(&tid[started], NULL, batch_worker, &b) != 0)
                break;
    batch_worker(&b);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    pn_fast_plan_free(plan);
    pn_sm_plan_free(sm_plan);
    pthread_mutex_destroy(&b.lock);
    if (b.first_failed < runs) {
        if (err)
            *err = b.first_err;
        return b.first_err.code;
    }
    return PN_OK;
}
