/* pn_engine.h - maximal-concurrent-step engines: run a frozen net from its
 * initial marking to the first dead marking, counting steps and idle steps. */
#ifndef PN_ENGINE_H
#define PN_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "pn_error.h"
#include "pn_net.h"

typedef enum pn_engine_kind {
    PN_ENGINE_LITERAL = 0,  /* full random permutation of all enabled transitions */
    PN_ENGINE_FAST = 1,     /* any net: incremental, conflict components, ticker jumps */
    PN_ENGINE_SM = 2,       /* SM nets only: compiled event-driven warps */
    PN_ENGINE_AUTO = 3      /* sm for SM nets, fast for any other net (default) */
} pn_engine_kind_t;

#define PN_ENGINE_DEFAULT PN_ENGINE_AUTO

/* Parse "auto", "sm", "fast" or "literal"; PN_EINVAL otherwise. */
pn_status_t pn_engine_parse(const char *s, pn_engine_kind_t *kind, pn_error_t *err);
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
} pn_run_opts_t;

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

/* The sm engine's view of a net: the SM parameters it was generated from. */
typedef struct pn_sm_plan pn_sm_plan_t;

/* Recover the pn_sm_params_t a net was built from and check, by rebuilding
 * it, that the net is exactly that SM net. Errors: PN_EINVAL naming what
 * differs (the net is not an SM net), PN_ENOMEM. O(net). */
pn_status_t pn_sm_plan_new(const pn_net_t *net, pn_sm_plan_t **out, pn_error_t *err);
void pn_sm_plan_free(pn_sm_plan_t *pl);

/* One run of the sm engine: the same distribution of steps and idle steps
 * as the literal engine (and the same firings), simulated as events of the
 * warps' state machines. Time O(selections + issues), independent of the
 * latencies; memory O(warps). on_step is not called. */
pn_status_t pn_engine_sm_run_plan(const pn_sm_plan_t *pl, uint64_t seed, const pn_run_opts_t *o,
                                  pn_run_result_t *res, pn_error_t *err);

/* The error every engine reports when a run reaches o->max_steps steps
 * without a dead marking; returns PN_ELIMIT. */
pn_status_t pn_engine_limit_error(const pn_run_opts_t *o, uint64_t seed, pn_error_t *err);

/* One run of engine `kind` (its plan made and freed for this run). */
pn_status_t pn_engine_run(pn_engine_kind_t kind, const pn_net_t *net, uint64_t seed,
                          const pn_run_opts_t *o, pn_run_result_t *res, pn_error_t *err);

/* An engine made ready for one net: the plan it needs, built once and then
 * shared read-only by any number of threads. kind is the engine chosen
 * (never PN_ENGINE_AUTO once prepared). */
typedef struct pn_prepared {
    pn_engine_kind_t kind;
    const pn_net_t *net;
    const pn_run_opts_t *opts;
    pn_fast_plan_t *fast;
    pn_sm_plan_t *sm;
} pn_prepared_t;

/* Prepare `kind` for net with options o (both borrowed: they must outlive
 * p). PN_ENGINE_AUTO picks sm when the net is an SM net, else fast. Errors:
 * as the plans'. Release with pn_engine_release, also after an error. */
pn_status_t pn_engine_prepare(pn_prepared_t *p, pn_engine_kind_t kind, const pn_net_t *net,
                              const pn_run_opts_t *o, pn_error_t *err);
void pn_engine_release(pn_prepared_t *p);

/* The engine PN_ENGINE_AUTO would choose for net (any other kind is
 * returned as it is). O(net). */
pn_engine_kind_t pn_engine_resolve(pn_engine_kind_t kind, const pn_net_t *net);

/* One run with a prepared engine. Thread-safe for a shared p. */
pn_status_t pn_engine_run_prepared(const pn_prepared_t *p, uint64_t seed, pn_run_result_t *res,
                                   pn_error_t *err);

/* A run to do: which prepared engine, which seed, where the result goes. */
typedef struct pn_job {
    const pn_prepared_t *engine;
    uint64_t seed;
    pn_run_result_t *result;
} pn_job_t;

/* Called, under a lock, each time a job finishes: done of total. */
typedef void (*pn_progress_fn)(void *ctx, size_t done, size_t total);

/* Run n jobs on up to `threads` threads (0: all processors). Every job's
 * result is the same whatever the number of threads. On error the error of
 * the lowest failing job index is returned; results are then unspecified.
 * progress (may be NULL) reports finished jobs. */
pn_status_t pn_engine_run_jobs(const pn_job_t *jobs, size_t n, unsigned threads,
                               pn_progress_fn progress, void *ctx, pn_error_t *err);

/* Run `runs` runs, run i seeded with seed + i, on up to `threads` threads
 * (0: all online processors). results[i] is run i's result whatever the
 * number of threads. On error, the error of the lowest failing run index is
 * reported and results are unspecified. */
pn_status_t pn_engine_run_many(pn_engine_kind_t kind, const pn_net_t *net, uint64_t seed,
                               uint32_t runs, unsigned threads, const pn_run_opts_t *o,
                               pn_run_result_t *results, pn_error_t *err);

/* Number of online processors (>= 1). */
unsigned pn_engine_cpu_count(void);

#endif
