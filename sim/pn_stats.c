/* pn_stats.c - summary statistics over runs with GSL. */
#include "pn_stats.h"

#include <stdlib.h>

#include <gsl/gsl_statistics_double.h>

void pn_summary_of(const double *values, size_t n, pn_summary_t *s)
{
    s->n = n;
    s->mean = s->sd = 0;
    s->min = s->max = 0;
    if (n == 0)
        return;
    double lo, hi;
    gsl_stats_minmax(&lo, &hi, values, 1, n);
    s->min = (uint64_t)lo;
    s->max = (uint64_t)hi;
    s->mean = gsl_stats_mean(values, 1, n);
    s->sd = n > 1 ? gsl_stats_sd_m(values, 1, n, s->mean) : 0.0;
}

pn_status_t pn_summary_runs(const pn_run_result_t *r, size_t n, pn_summary_t *steps,
                            pn_summary_t *idle, pn_error_t *err)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return pn_error_set(err, PN_ENOMEM, "out of memory summarising %zu runs", n);
    for (size_t i = 0; i < n; i++) v[i] = (double)r[i].steps;
    pn_summary_of(v, n, steps);
    for (size_t i = 0; i < n; i++) v[i] = (double)r[i].idle_steps;
    pn_summary_of(v, n, idle);
    free(v);
    return PN_OK;
}
