/* pn_stats.h - summary statistics over runs (GSL). */
#ifndef PN_STATS_H
#define PN_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "pn_engine.h"

typedef struct pn_summary {
    double mean;
    double sd;          /* sample standard deviation (n - 1); 0 for one value */
    uint64_t min;
    uint64_t max;
    size_t n;
} pn_summary_t;

/* Summary of n integral values held as doubles (n == 0 gives all zeros). O(n). */
void pn_summary_of(const double *values, size_t n, pn_summary_t *s);

/* Summaries of the steps and idle steps of n run results. Returns PN_ENOMEM
 * if a scratch array cannot be allocated. */
pn_status_t pn_summary_runs(const pn_run_result_t *r, size_t n, pn_summary_t *steps,
                            pn_summary_t *idle, pn_error_t *err);

#endif
