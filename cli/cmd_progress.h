/* cmd_progress.h - the progress line of long jobs: on a terminal only (stderr),
 * from 2 s on, rewritten in place with the runs done, the step the running run
 * reached, the time spent and an ETA; nothing when stderr is not a terminal
 * or with -q. */
#ifndef CMD_PROGRESS_H
#define CMD_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pn_cli_progress {
    int on;                       /* a ticker thread runs */
    const char *cmd;              /* "run", "reorder", ... */
    const char *unit;             /* what total counts: "runs", "block runs" */
    uint64_t total;               /* runs in all */
    uint64_t est_steps;           /* steps one run is expected to take (0: unknown) */
    _Atomic uint64_t at_step;     /* where a running run is (pn_run_opts_t.at_step) */
    _Atomic uint64_t done;        /* runs finished */
    uint64_t base;                /* runs finished in earlier batches */
    double t0, after;             /* start, and when the line may first show */
    int shown;                    /* a line was printed: clear it at the end */
    pthread_t tid;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop;
} pn_cli_progress_t;

/* Start p for a job of `total` runs of about est_steps steps each (0:
 * unknown). With quiet, or when stderr is not a terminal, nothing is ever
 * printed (p still counts). Always succeeds; pair with pn_cli_progress_end. */
void pn_cli_progress_begin(pn_cli_progress_t *p, const char *cmd, uint64_t total,
                           uint64_t est_steps, int quiet);

/* pn_cli_progress_begin for a job of `total` units named unit ("block
 * runs": the line reads "3/10 block runs done"). */
void pn_cli_progress_begin_units(pn_cli_progress_t *p, const char *cmd, const char *unit,
                                 uint64_t total, uint64_t est_steps, int quiet);

/* k more units done (ctx is the pn_cli_progress_t); thread-safe. */
void pn_cli_progress_add(void *ctx, uint64_t k);

/* A pn_progress_fn: one more run done (ctx is the pn_cli_progress_t). */
void pn_cli_progress_run_done(void *ctx, size_t job, size_t done, size_t total);

/* One more run done (ctx is the pn_cli_progress_t): for callers that count
 * runs themselves across several batches. */
void pn_cli_progress_one_more(void *ctx);

/* Stop the ticker and clear its line; p may be zeroed (never begun). */
void pn_cli_progress_end(pn_cli_progress_t *p);

#endif
