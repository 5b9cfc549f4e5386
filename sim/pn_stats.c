/* pn_stats.c - summary statistics over runs from exact integer sums. */
#include "pn_stats.h"

#include <math.h>
#include <stdlib.h>

#define PN_STATS_EXACT_MAX (UINT64_C(1) << 40)

void pn_summary_of(const uint64_t *values, size_t n, pn_summary_t *s)
{
    s->n = n;
    s->mean = s->sd = 0;
    s->min = s->max = 0;
    if (n == 0)
        return;
    unsigned __int128 sum = 0, sum2 = 0;
    s->min = s->max = values[0];
    for (size_t i = 0; i < n; i++) {
        uint64_t x = values[i];
        s->min = x < s->min ? x : s->min;
        s->max = x > s->max ? x : s->max;
        sum += x;
        sum2 += (unsigned __int128)x * x;
    }
    s->mean = (double)sum / (double)n;
    if (n < 2)
        return;
    if (s->max <= PN_STATS_EXACT_MAX && n <= (size_t)1 << 40) {
        unsigned __int128 num = (unsigned __int128)n * sum2 - sum * sum;   /* >= 0 */
        s->sd = sqrt((double)num / ((double)n * (double)(n - 1)));
    } else {
        double ss = 0;
        for (size_t i = 0; i < n; i++)
            ss += ((double)values[i] - s->mean) * ((double)values[i] - s->mean);
        s->sd = sqrt(ss / (double)(n - 1));
    }
}

pn_status_t pn_summary_runs(const pn_run_result_t *r, size_t n, pn_summary_t *steps,
                            pn_summary_t *idle, pn_error_t *err)
{
    uint64_t *v = calloc(n ? n : 1, sizeof *v);   /* zeroed: quiets -Wmaybe-uninitialized under sanitizers */
    if (!v)
        return pn_error_set(err, PN_ENOMEM, "out of memory summarising %zu runs", n);
    for (size_t i = 0; i < n; i++) v[i] = r[i].steps;
    pn_summary_of(v, n, steps);
    for (size_t i = 0; i < n; i++) v[i] = r[i].idle_steps;
    pn_summary_of(v, n, idle);
    free(v);
    return PN_OK;
}
