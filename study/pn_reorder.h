/* pn_reorder.h - what-if reordering (`pnsim reorder`): the same per-warp
 * counts simulated in several instruction orders with the same seeds. */
#ifndef PN_REORDER_H
#define PN_REORDER_H

#include <stdint.h>
#include <stdio.h>

#include "pn_engine.h"
#include "pn_model.h"
#include "pn_program.h"
#include "pn_program_order.h"
#include "pn_report.h"
#include "pn_stats.h"

/* One order's outcome. */
typedef struct pn_reorder_row {
    const char *name;             /* "program", "random", or pn_program_order_name's */
    const char *engine;           /* the engine that ran it (a static name) */
    uint32_t places, transitions;
    pn_summary_t steps, idle;
} pn_reorder_row_t;

#define PN_REORDER_MAX_ROWS (2 + PN_ORDER_COUNT)

/* A reordering study: what to simulate (set by the caller) and what came of
 * it (set by pn_reorder_run). */
typedef struct pn_reorder {
    const pn_model_t *m;          /* borrowed: the config's model and its net */
    uint32_t runs;                /* per order */
    uint64_t seed;                /* run i of every order uses seed + i */
    unsigned jobs;                /* CPU threads (0: all) */
    uint64_t max_steps;
    int max_steps_given;          /* max_steps came from the command line */
    const volatile sig_atomic_t *stop; /* pn_run_opts_t.stop of every run; may be NULL */
    pn_engine_kind_t engine;      /* as chosen; auto picks per order's net */
    /* optional progress: on_run(ctx) after each run that ends well, and
     * at_step as pn_run_opts_t's; NULL: none */
    void (*on_run)(void *ctx);
    void *ctx;
    _Atomic uint64_t *at_step;
    pn_reorder_row_t rows[PN_REORDER_MAX_ROWS];
    size_t n_rows;
    size_t best, worst, baseline; /* row indices */
    double gain_pct;              /* of the best row over the baseline, in % of its steps */
} pn_reorder_t;

/* Simulate the orders: the program as written (when m's config has one: its
 * own net), the paper's random selection (the SM net of m's counts), then
 * memory-first, memory-last and memory-spread (pn_program_order), each
 * `runs` runs on the engine the order's net picks for r->engine; fill the
 * rows, best, worst, baseline (row 0) and gain_pct. Errors are prefixed
 * with "order NAME: " and placed in the config as
 * pn_kernel_net_locate_error places them. O(orders * runs * run). */
pn_status_t pn_reorder_run(pn_reorder_t *r, pn_error_t *err);

/* Write r's table in fmt (text, JSON or CSV, as README describes). Returns
 * PN_EIO when out reports an error. */
pn_status_t pn_reorder_report(FILE *out, pn_format_t fmt, const pn_reorder_t *r,
                              pn_error_t *err);

#endif
