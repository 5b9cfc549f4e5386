/* pn_engine.c - engine names, preparing an engine for a net, and the one
 * worker pool that runs seed-deterministic batches of runs. */
#include "pn_engine.h"

#include <assert.h>

#include <inttypes.h>
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
        *kind = PN_ENGINE_COMPILED;
        return PN_OK;
    }
    if (strcmp(s, "auto") == 0) {
        *kind = PN_ENGINE_AUTO;
        return PN_OK;
    }
    return pn_error_set(err, PN_EINVAL, "unknown engine '%s' (expected auto, sm, fast or "
                        "literal)", s);
}

const char *pn_engine_name(pn_engine_kind_t kind)
{
    switch (kind) {
    case PN_ENGINE_LITERAL:  return "literal";
    case PN_ENGINE_FAST:     return "fast";
    case PN_ENGINE_COMPILED: return "sm";
    case PN_ENGINE_AUTO:     return "auto";
    }
    return "?";
}

pn_status_t pn_engine_limit_error(const pn_run_opts_t *o, uint64_t seed, pn_error_t *err)
{
    return pn_error_set(err, PN_ELIMIT, "net '%s' (seed %" PRIu64 ") reached no dead marking "
                        "within max_steps = %" PRIu64 " steps",
                        o->net_name ? o->net_name : "?", seed, o->max_steps);
}

pn_status_t pn_engine_stop_error(pn_error_t *err)
{
    return pn_error_set(err, PN_EINTR, "interrupted");
}

unsigned pn_engine_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}

/* ---- the general engines as implementations --------------------------------- */

static pn_status_t literal_run(const void *plan, uint64_t seed, const pn_run_opts_t *o,
                               pn_run_result_t *res, pn_error_t *err)
{
    return pn_engine_literal_run(plan, seed, o, res, err);
}

static pn_status_t fast_run(const void *plan, uint64_t seed, const pn_run_opts_t *o,
                            pn_run_result_t *res, pn_error_t *err)
{
    return pn_engine_fast_run_plan(plan, seed, o, res, err);
}

static void fast_free(void *plan)
{
    pn_fast_plan_free(plan);
}

static const pn_engine_impl_t literal_impl = { "literal", literal_run, NULL };
static const pn_engine_impl_t fast_impl = { "fast", fast_run, fast_free };

pn_status_t pn_engine_prepare(pn_prepared_t *p, pn_engine_kind_t kind, const pn_net_t *net,
                              const pn_run_opts_t *o, pn_error_t *err)
{
    memset(p, 0, sizeof *p);
    p->opts = o;
    if (!net->frozen)
        return pn_error_set(err, PN_EINVAL, "cannot simulate a net that is not frozen");
    if (net->counting)
        return pn_error_set(err, PN_EINVAL, "cannot simulate a counting net (its size alone "
                            "was built)");
    switch (kind) {
    case PN_ENGINE_LITERAL:
        p->impl = &literal_impl;
        p->plan = (void *)net;            /* borrowed: literal_impl frees nothing */
        return PN_OK;
    case PN_ENGINE_FAST:
    case PN_ENGINE_AUTO: {
        pn_fast_plan_t *pl = NULL;
        pn_status_t st = pn_fast_plan_new(net, &pl, err);
        if (st == PN_OK) {
            p->impl = &fast_impl;
            p->plan = pl;
        }
        return st;
    }
    case PN_ENGINE_COMPILED:
        break;
    }
    return pn_error_set(err, PN_EINVAL, "the sm engine runs only nets generated from a model "
                        "that has a compiled engine (the SM net of a kernel's counts), and "
                        "this net has none; use --engine fast");
}

pn_status_t pn_engine_prepare_compiled(pn_prepared_t *p, const pn_engine_impl_t *impl,
                                       void *plan, const pn_run_opts_t *o, pn_error_t *err)
{
    memset(p, 0, sizeof *p);
    p->opts = o;
    if (!impl || !plan) {
        if (impl && impl->free_plan)
            impl->free_plan(plan);
        return pn_error_set(err, PN_EINVAL, "a compiled engine needs an implementation and "
                            "a plan");
    }
    p->impl = impl;
    p->plan = plan;
    return PN_OK;
}

void pn_engine_release(pn_prepared_t *p)
{
    if (!p)
        return;
    if (p->impl && p->impl->free_plan)
        p->impl->free_plan(p->plan);
    memset(p, 0, sizeof *p);
}

const char *pn_engine_prepared_name(const pn_prepared_t *p)
{
    return p && p->impl ? p->impl->name : "-";
}

pn_status_t pn_engine_run_prepared(const pn_prepared_t *p, uint64_t seed, pn_run_result_t *res,
                                   pn_error_t *err)
{
    pn_status_t st = p->impl->run(p->plan, seed, p->opts, res, err);
    /* every engine's contract: t0 fires at most once a step, and a step
     * fires at least one transition (steps are maximal, the run stops at
     * the first dead marking) */
    assert(st != PN_OK || res->idle_steps <= res->steps);
    assert(st != PN_OK || res->firings >= res->steps);
    return st;
}

pn_status_t pn_engine_run(pn_engine_kind_t kind, const pn_net_t *net, uint64_t seed,
                          const pn_run_opts_t *o, pn_run_result_t *res, pn_error_t *err)
{
    pn_prepared_t p;
    pn_status_t st = pn_engine_prepare(&p, kind, net, o, err);
    if (st == PN_OK)
        st = pn_engine_run_prepared(&p, seed, res, err);
    pn_engine_release(&p);
    return st;
}

/* ---- the worker pool ---------------------------------------------------------- */

typedef struct batch {
    const pn_job_t *jobs;
    size_t n;
    pn_progress_fn progress;
    void *ctx;
    pthread_mutex_t lock;
    size_t next;              /* next job to hand out */
    size_t done;              /* jobs finished */
    size_t first_failed;      /* lowest failing job index, n if none */
    pn_error_t first_err;
} batch_t;

static void *batch_worker(void *arg)
{
    batch_t *b = arg;
    pn_error_t err;
    for (;;) {
        pthread_mutex_lock(&b->lock);
        size_t i = b->next < b->first_failed ? b->next++ : b->n;
        pthread_mutex_unlock(&b->lock);
        if (i >= b->n)
            return NULL;
        pn_error_clear(&err);
        const pn_job_t *j = &b->jobs[i];
        pn_status_t st = j->engine->opts && pn_engine_stopped(j->engine->opts)
                         ? pn_engine_stop_error(&err)
                         : pn_engine_run_prepared(j->engine, j->seed, j->result, &err);
        pthread_mutex_lock(&b->lock);
        if (st != PN_OK && i < b->first_failed) {
            b->first_failed = i;
            b->first_err = err;
            b->first_err.code = st;
        }
        b->done++;
        if (b->progress && st == PN_OK)
            b->progress(b->ctx, i, b->done, b->n);
        pthread_mutex_unlock(&b->lock);
    }
}

pn_status_t pn_engine_run_jobs(const pn_job_t *jobs, size_t n, unsigned threads,
                               pn_progress_fn progress, void *ctx, size_t *failed,
                               pn_error_t *err)
{
    if (threads == 0)
        threads = pn_engine_cpu_count();
    if (threads > n)
        threads = n ? (unsigned)n : 1;
    batch_t b = { .jobs = jobs, .n = n, .progress = progress, .ctx = ctx, .next = 0,
                  .done = 0, .first_failed = n };
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
    pthread_mutex_destroy(&b.lock);
    if (failed)
        *failed = b.first_failed;
    if (b.first_failed < n) {
        if (err)
            *err = b.first_err;
        return b.first_err.code;
    }
    return PN_OK;
}

pn_status_t pn_engine_run_batch(const pn_prepared_t *p, uint64_t seed, uint32_t runs,
                                unsigned threads, pn_run_result_t *results, pn_error_t *err)
{
    return pn_engine_run_batch_progress(p, seed, runs, threads, NULL, NULL, results, err);
}

pn_status_t pn_engine_run_batch_progress(const pn_prepared_t *p, uint64_t seed, uint32_t runs,
                                         unsigned threads, pn_progress_fn progress, void *ctx,
                                         pn_run_result_t *results, pn_error_t *err)
{
    pn_job_t *jobs = calloc(runs ? runs : 1, sizeof *jobs);
    if (!jobs)
        return pn_error_set(err, PN_ENOMEM, "out of memory for %u runs", runs);
    for (uint32_t i = 0; i < runs; i++)
        jobs[i] = (pn_job_t){ p, seed + i, &results[i] };
    pn_status_t st = pn_engine_run_jobs(jobs, runs, threads, progress, ctx, NULL, err);
    free(jobs);
    return st;
}

pn_status_t pn_engine_run_many(pn_engine_kind_t kind, const pn_net_t *net, uint64_t seed,
                               uint32_t runs, unsigned threads, const pn_run_opts_t *o,
                               pn_run_result_t *results, pn_error_t *err)
{
    pn_prepared_t prep;
    pn_status_t st = pn_engine_prepare(&prep, kind, net, o, err);
    if (st == PN_OK)
        st = pn_engine_run_batch(&prep, seed, runs, threads, results, err);
    pn_engine_release(&prep);
    return st;
}
