/* pn_stats.h - summary statistics over runs: exact, reproducible bit for bit. */
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

/* Summary of n integer values (n == 0 gives all zeros). The mean is the exact
 * sum over n and the variance (n*sum(x^2) - sum(x)^2) / (n*(n-1)) from exact
 * 128-bit integer sums, each rounded once: the same bits on every machine and
 * under valgrind (whose emulation of x87 long doubles changes accumulations
 * such as GSL's). Values above 2^40 fall back to a two-pass double
 * computation. O(n). */
void pn_summary_of(const uint64_t *values, size_t n, pn_summary_t *s);

/* A summary built one value at a time, with the same exact integer sums as
 * pn_summary_of: for values up to 2^40 the result is pn_summary_of's to the
 * bit, whatever the order of the values. */
typedef struct pn_summary_acc {
    size_t n;
    unsigned __int128 sum, sum2;
    uint64_t min, max;
    long double lsum, lsum2;      /* for values above 2^40 */
} pn_summary_acc_t;

/* Start an empty accumulator. */
void pn_summary_acc_init(pn_summary_acc_t *a);

/* Add one value. O(1). */
void pn_summary_acc_add(pn_summary_acc_t *a, uint64_t x);

/* The summary of the values added (above 2^40, the variance comes from long
 * double sums rather than pn_summary_of's second pass). */
void pn_summary_acc_get(const pn_summary_acc_t *a, pn_summary_t *s);

/* Summaries of the steps and idle steps of n run results. Returns PN_ENOMEM
 * if a scratch array cannot be allocated. */
pn_status_t pn_summary_runs(const pn_run_result_t *r, size_t n, pn_summary_t *steps,
                            pn_summary_t *idle, pn_error_t *err);

#endif
