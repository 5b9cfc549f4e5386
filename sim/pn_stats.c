/* pn_stats.c - summary statistics over runs from exact integer sums. */
#include "pn_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void pn_summary_acc_init(pn_summary_acc_t *a)
{
    memset(a, 0, sizeof *a);
}

void pn_summary_acc_add(pn_summary_acc_t *a, uint64_t x)
{
    if (a->n == 0 || x < a->min)
        a->min = x;
    if (a->n == 0 || x > a->max)
        a->max = x;
    a->n++;
    a->sum += x;
    a->sum2 += (unsigned __int128)x * x;
    a->lsum += (long double)x;
    a->lsum2 += (long double)x * (long double)x;
}

void pn_summary_acc_get(const pn_summary_acc_t *a, pn_summary_t *s)
{
    s->n = a->n;
    s->mean = s->sd = 0;
    s->min = s->max = 0;
    if (a->n == 0)
        return;
    s->min = a->min;
    s->max = a->max;
    s->mean = (double)a->sum / (double)a->n;
    if (a->n < 2)
        return;
    if (a->max <= PN_STATS_EXACT_MAX && a->n <= (size_t)1 << 40) {
        unsigned __int128 num = (unsigned __int128)a->n * a->sum2 - a->sum * a->sum;
        s->sd = sqrt((double)num / ((double)a->n * (double)(a->n - 1)));
    } else {
        long double n = (long double)a->n, var = (a->lsum2 - a->lsum * a->lsum / n) / (n - 1);
        s->sd = var > 0 ? (double)sqrtl(var) : 0;
    }
}
