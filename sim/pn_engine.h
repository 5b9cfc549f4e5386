/* pn_engine.h - maximal-concurrent-step engines: run a frozen net from its
 * initial marking to the first dead marking, counting steps and idle steps. */
#ifndef PN_ENGINE_H
#define PN_ENGINE_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "pn_error.h"
#include "pn_net.h"

/* Which engine runs a net. The literal and fast engines run any net; a
 * compiled engine runs the nets of one model from a plan that the model
 * builds from its own parameters (pn_engine_prepare_compiled): sim/ knows no
 * model, so only the layer that generated a net can choose one for it. */
typedef enum pn_engine_kind {
    PN_ENGINE_LITERAL = 0,  /* full random permutation of all enabled transitions */
    PN_ENGINE_FAST = 1,     /* any net: incremental, conflict components, ticker jumps */
    PN_ENGINE_COMPILED = 2, /* the net's model's compiled engine; named "sm" on the command line */
    PN_ENGINE_AUTO = 3      /* the compiled engine where the model has one, else fast (default) */
} pn_engine_kind_t;

#define PN_ENGINE_DEFAULT PN_ENGINE_AUTO

/* Parse "auto", "sm" (PN_ENGINE_COMPILED), "fast" or "literal"; PN_EINVAL
 * otherwise. */
pn_status_t pn_engine_parse(const char *s, pn_engine_kind_t *kind, pn_error_t *err);

/* The command-line name of kind: "auto", "sm", "fast" or "literal". */
const char *pn_engine_name(pn_engine_kind_t kind);

typedef struct pn_run_opts {
    uint64_t max_steps;       /* a run still alive after this many steps is an error */
    int64_t idle_trans;       /* steps in which this transition fires are idle; -1: none */
    const char *net_name;     /* names the net in error messages; may be NULL */
    /* Optional observer, called after each step with the marking M reached
     * and the transitions fired in the step (in firing order). The fast
     * engine passes m = NULL and is not called for the steps it jumps over
     * (those in which only tickers and uncontested self-loops fire). */
    void (*on_step)(void *ctx, uint64_t step, const pn_tokens_t *m,
                    const uint32_t *fired, uint32_t n_fired);
    void *ctx;
    /* Optional stop request (the library installs no signal handler; a
     * program's handler sets it): once *stop is non-zero, a run ends with
     * PN_EINTR within PN_ENGINE_STOP_EVERY of its loop iterations and the
     * worker pool starts no further run. NULL: never stops. */
    const volatile sig_atomic_t *stop;
    /* Optional progress: where a run publishes the step it has reached, at
     * each look at stop (relaxed atomic stores; runs on several threads
     * write the same place, a display shows one of them). NULL: none. */
    _Atomic uint64_t *at_step;
} pn_run_opts_t;

/* Loop iterations (steps or jumps) between two looks at pn_run_opts_t.stop:
 * a power of two, a few milliseconds of the slowest engine. */
#define PN_ENGINE_STOP_EVERY 4096u

/* Has a stop been requested for runs with options o? */
static inline int pn_engine_stopped(const pn_run_opts_t *o)
{
    return o->stop && *o->stop;
}

/* The look an engine takes every PN_ENGINE_STOP_EVERY iterations at step
 * `step` of its run: publish the step (o->at_step) and say whether a stop
 * has been requested. */
static inline int pn_engine_poll(const pn_run_opts_t *o, uint64_t step)
{
    if (o->at_step)
        atomic_store_explicit(o->at_step, step, memory_order_relaxed);
    return pn_engine_stopped(o);
}

/* The error a run or batch reports when stopped; returns PN_EINTR. */
pn_status_t pn_engine_stop_error(pn_error_t *err);

typedef struct pn_run_result {
    uint64_t seed;
    uint64_t steps;           /* steps executed until the dead marking */
    uint64_t idle_steps;      /* steps in which idle_trans fired */
    uint64_t firings;         /* transition firings over all steps */
} pn_run_result_t;

/* One run of the literal engine with PCG32 seeded by `seed` (pn_rng_seed).
 * Each step: the transitions enabled at M (inputs fit, inhibitors empty in M)
 * are shuffled uniformly; walking that order, each whose inputs still fit in
 * what is left of M fires; outputs are added after the walk.
 * Errors: PN_ELIMIT when max_steps steps pass without a dead marking,
 * PN_ENOMEM. O(steps * (arcs + transitions)) time, O(places + transitions)
 * memory. */
pn_status_t pn_engine_literal_run(const pn_net_t *net, uint64_t seed, const pn_run_opts_t *o,
                                  pn_run_result_t *res, pn_error_t *err);

/* What the fast engine derives from a net once (weight-sorted consumers,
 * shared places, self-loops, tickers, igraph conflict groups); read-only
 * while runs use it, so one plan serves many threads. */
typedef struct pn_fast_plan pn_fast_plan_t;

/* Plan a frozen net; *out is freed with pn_fast_plan_free. O(arcs log arcs). */
pn_status_t pn_fast_plan_new(const pn_net_t *net, pn_fast_plan_t **out, pn_error_t *err);
void pn_fast_plan_free(pn_fast_plan_t *pl);

/* One run of the fast engine. Same semantics, errors and result
 * distribution as pn_engine_literal_run (a given seed gives a different run).
 * Time O(firings of non-ticker transitions + changed-place readers), jumps
 * over stretches where only tickers and uncontested self-loops fire; memory
 * O(places + transitions). */
pn_status_t pn_engine_fast_run_plan(const pn_fast_plan_t *pl, uint64_t seed,
                                    const pn_run_opts_t *o, pn_run_result_t *res,
                                    pn_error_t *err);

/* The error every engine reports when a run reaches o->max_steps steps
 * without a dead marking; returns PN_ELIMIT. */
pn_status_t pn_engine_limit_error(const pn_run_opts_t *o, uint64_t seed, pn_error_t *err);

/* An engine's implementation: how to run a plan and free it. The literal and
 * fast engines have theirs here. A model with a compiled engine (next to its
 * generator in models/, as models/paper/pn_sm_engine.c) provides
 *   - a `const pn_engine_impl_t` with its name, run and free_plan,
 *   - a planner that builds the plan from the parameters the model generated
 *     the net from (never by recognising the net),
 * describes both in a pn_model_engine_t (models/common/pn_model_engine.h), whose
 * pn_model_engine_prepare resolves auto and hands impl and plan to
 * pn_engine_prepare_compiled. run must be thread-safe for a shared,
 * read-only plan and keep the contract of pn_engine_literal_run (steps, idle
 * steps, firings, PN_ELIMIT through pn_engine_limit_error). free_plan accepts
 * NULL; it is NULL itself when the plan is borrowed. */
typedef struct pn_engine_impl {
    const char *name;             /* as reports print it: "literal", "fast", "sm", ... */
    pn_status_t (*run)(const void *plan, uint64_t seed, const pn_run_opts_t *o,
                       pn_run_result_t *res, pn_error_t *err);
    void (*free_plan)(void *plan);
} pn_engine_impl_t;

/* An engine made ready for one net: its implementation and the plan it
 * needs, built once and then shared read-only by any number of threads. */
typedef struct pn_prepared {
    const pn_engine_impl_t *impl; /* the engine that runs; NULL before preparing */
    void *plan;                   /* owned (impl->free_plan), or the borrowed net */
    const pn_run_opts_t *opts;    /* borrowed */
} pn_prepared_t;

/* Prepare a general engine for net with options o (both borrowed: they must
 * outlive p): PN_ENGINE_LITERAL, or PN_ENGINE_FAST (also for PN_ENGINE_AUTO,
 * since a net alone has no model and so no compiled engine). Errors:
 * PN_EINVAL for a net that is not frozen and for PN_ENGINE_COMPILED (only
 * the layer that generated a net can plan its compiled engine), the fast
 * plan's errors. Release with pn_engine_release, also after an error.
 * O(arcs log arcs). */
pn_status_t pn_engine_prepare(pn_prepared_t *p, pn_engine_kind_t kind, const pn_net_t *net,
                              const pn_run_opts_t *o, pn_error_t *err);

/* Prepare the compiled engine impl with plan (made by the model; owned by p
 * from here on, freed by pn_engine_release, also when this fails) and
 * options o (borrowed). Errors: PN_EINVAL when impl or plan is NULL. O(1). */
pn_status_t pn_engine_prepare_compiled(pn_prepared_t *p, const pn_engine_impl_t *impl,
                                       void *plan, const pn_run_opts_t *o, pn_error_t *err);

/* Free what p owns and leave it zeroed; p may be NULL or zeroed. */
void pn_engine_release(pn_prepared_t *p);

/* The name of the engine p runs ("-" when p is not prepared). */
const char *pn_engine_prepared_name(const pn_prepared_t *p);

/* One run with a prepared engine. Thread-safe for a shared p. */
pn_status_t pn_engine_run_prepared(const pn_prepared_t *p, uint64_t seed, pn_run_result_t *res,
                                   pn_error_t *err);

/* One run of the general engine `kind` on net (prepared and released for
 * this run), as pn_engine_prepare. */
pn_status_t pn_engine_run(pn_engine_kind_t kind, const pn_net_t *net, uint64_t seed,
                          const pn_run_opts_t *o, pn_run_result_t *res, pn_error_t *err);

/* A run to do: which prepared engine, which seed, where the result goes. */
typedef struct pn_job {
    const pn_prepared_t *engine;
    uint64_t seed;
    pn_run_result_t *result;
} pn_job_t;

/* Called, under a lock, each time a job succeeds: the job's index, and done
 * of total jobs finished. */
typedef void (*pn_progress_fn)(void *ctx, size_t job, size_t done, size_t total);

/* The worker pool: run n jobs on up to `threads` threads (0: all
 * processors), handed out in index order. Every job's result is the same
 * whatever the number of threads. On error the error of the lowest failing
 * job index is returned (deterministic: no job after a failure is started,
 * every job before it runs) and *failed (when non-NULL) receives that index;
 * results are then unspecified. A job whose engine's options ask to stop
 * (pn_run_opts_t.stop) is not started and fails with PN_EINTR. progress
 * (may be NULL) reports finished jobs. */
pn_status_t pn_engine_run_jobs(const pn_job_t *jobs, size_t n, unsigned threads,
                               pn_progress_fn progress, void *ctx, size_t *failed,
                               pn_error_t *err);

/* Run `runs` runs of the prepared engine p, run i seeded with seed + i, on
 * up to `threads` threads (0: all online processors). results[i] is run i's
 * result whatever the number of threads. On error, the error of the lowest
 * failing run index is reported and results are unspecified. */
pn_status_t pn_engine_run_batch(const pn_prepared_t *p, uint64_t seed, uint32_t runs,
                                unsigned threads, pn_run_result_t *results, pn_error_t *err);

/* pn_engine_run_batch, calling progress (NULL: none) after each run that
 * ends well, as pn_engine_run_jobs does. */
pn_status_t pn_engine_run_batch_progress(const pn_prepared_t *p, uint64_t seed, uint32_t runs,
                                         unsigned threads, pn_progress_fn progress, void *ctx,
                                         pn_run_result_t *results, pn_error_t *err);

/* pn_engine_run_batch with the general engine `kind` prepared for net
 * (pn_engine_prepare) for these runs. */
pn_status_t pn_engine_run_many(pn_engine_kind_t kind, const pn_net_t *net, uint64_t seed,
                               uint32_t runs, unsigned threads, const pn_run_opts_t *o,
                               pn_run_result_t *results, pn_error_t *err);

/* Number of online processors (>= 1). */
unsigned pn_engine_cpu_count(void);

#endif
