/* pn_calib.c - the step-to-time fit and its error metrics, with GSL. */
#include "pn_calib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>

pn_status_t pn_calib_fit(const double *x, const double *y, const double *w, size_t n,
                         pn_fit_t *fit, pn_error_t *err)
{
    memset(fit, 0, sizeof *fit);
    size_t distinct = n ? 1 : 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i]) || (w && !(w[i] > 0 && isfinite(w[i]))))
            return pn_error_set(err, PN_EINVAL,
                                "fit: point %zu is not finite (x = %g, y = %g%s)", i, x[i],
                                y[i], w && !(w[i] > 0) ? ", weight <= 0" : "");
        if (x[i] != x[0])
            distinct = 2;
    }
    if (n < 2 || distinct < 2)
        return pn_error_set(err, PN_EINVAL,
                            "fit: need at least 2 points with different x, got %zu point%s "
                            "with %zu distinct x", n, n == 1 ? "" : "s", distinct);
    int rc = w ? gsl_fit_wlinear(x, 1, w, 1, y, 1, n, &fit->b, &fit->a, &fit->cov00,
                                 &fit->cov01, &fit->cov11, &fit->sumsq)
               : gsl_fit_linear(x, 1, y, 1, n, &fit->b, &fit->a, &fit->cov00, &fit->cov01,
                                &fit->cov11, &fit->sumsq);
    if (rc != 0 || !isfinite(fit->a) || !isfinite(fit->b))
        return pn_error_set(err, PN_EEXTERNAL, "fit: GSL least squares failed (status %d)",
                            rc);
    fit->n = n;
    return PN_OK;
}

double pn_calib_predict(const pn_fit_t *fit, double x)
{
    return fit->a * x + fit->b;
}

void pn_calib_metrics(const double *y, const double *yhat, size_t n, pn_calib_metrics_t *m)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->r2 = m->geo = NAN;
    if (n == 0) {
        m->rmse = m->mape = m->max_ape = NAN;
        return;
    }
    double sse = 0, ape = 0, lsum = 0;
    for (size_t i = 0; i < n; i++) {
        double e = yhat[i] - y[i];
        double a = fabs(e) / y[i] * 100.0;
        sse += e * e;
        ape += a;
        if (a > m->max_ape || isnan(a))
            m->max_ape = a;
        if (yhat[i] > 0)
            lsum += fabs(log(yhat[i] / y[i]));
        else if (!isnan(yhat[i]))
            m->n_nonpos++;
        else
            lsum = NAN;
    }
    m->rmse = sqrt(sse / (double)n);
    m->mape = ape / (double)n;
    if (m->n_nonpos == 0)
        m->geo = (exp(lsum / (double)n) - 1.0) * 100.0;
    if (n >= 2) {
        double sst = gsl_stats_tss(y, 1, n);
        if (sst > 0)
            m->r2 = 1.0 - sse / sst;
    }
}

double pn_calib_spearman(const double *a, const double *b, size_t n)
{
    if (n < 2)
        return NAN;
    int const_a = 1, const_b = 1;
    for (size_t i = 1; i < n; i++) {
        const_a &= a[i] == a[0];
        const_b &= b[i] == b[0];
    }
    if (const_a || const_b)
        return NAN;
    double *work = malloc(2 * n * sizeof *work);
    if (!work)
        return NAN;
    double r = gsl_stats_spearman(a, 1, b, 1, n, work);
    free(work);
    return r;
}

pn_status_t pn_calib_loo(const double *x, const double *y, const double *w,
                         const size_t *group, size_t n, size_t n_groups, double *pred,
                         pn_error_t *err)
{
    for (size_t i = 0; i < n; i++)
        if (group[i] >= n_groups)
            return pn_error_set(err, PN_EINVAL, "loo: point %zu has group %zu of %zu", i,
                                group[i], n_groups);
    double *buf = malloc((3 * n + 1) * sizeof *buf);
    if (!buf)
        return pn_error_set(err, PN_ENOMEM, "out of memory for %zu points", n);
    double *xs = buf, *ys = buf + n, *ws = buf + 2 * n;
    for (size_t g = 0; g < n_groups; g++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (group[i] != g) {
                xs[k] = x[i];
                ys[k] = y[i];
                if (w)
                    ws[k] = w[i];
                k++;
            }
        pn_fit_t fit;
        int ok = pn_calib_fit(xs, ys, w ? ws : NULL, k, &fit, NULL) == PN_OK;
        for (size_t i = 0; i < n; i++)
            if (group[i] == g)
                pred[i] = ok ? pn_calib_predict(&fit, x[i]) : NAN;
    }
    free(buf);
    return PN_OK;
}

void pn_model_eval_destroy(pn_model_eval_t *e)
{
    if (!e)
        return;
    free(e->pred);
    free(e->loo_pred);
    free(e->groups);
    memset(e, 0, sizeof *e);
}

pn_status_t pn_calib_evaluate(const double *x, const double *y, const double *w,
                              const size_t *group, size_t n, size_t n_groups,
                              pn_model_eval_t *e, pn_error_t *err)
{
    memset(e, 0, sizeof *e);
    PN_CHECK(pn_calib_fit(x, y, w, n, &e->fit, err));
    e->n = n;
    e->n_groups = n_groups;
    e->pred = malloc(n * sizeof *e->pred);
    e->loo_pred = malloc(n * sizeof *e->loo_pred);
    e->groups = calloc(n_groups ? n_groups : 1, sizeof *e->groups);
    double *gy = malloc(4 * n * sizeof *gy);
    pn_status_t st = PN_OK;
    if (!e->pred || !e->loo_pred || !e->groups || !gy) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory for %zu points", n);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        e->pred[i] = pn_calib_predict(&e->fit, x[i]);
    st = pn_calib_loo(x, y, w, group, n, n_groups, e->loo_pred, err);
    if (st != PN_OK)
        goto done;
    pn_calib_metrics(y, e->pred, n, &e->all);
    pn_calib_metrics(y, e->loo_pred, n, &e->loo);
    e->spearman = pn_calib_spearman(x, y, n);
    double *gx = gy + n, *gp = gy + 2 * n, *gl = gy + 3 * n;
    for (size_t g = 0; g < n_groups; g++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (group[i] == g) {
                gy[k] = y[i];
                gx[k] = x[i];
                gp[k] = e->pred[i];
                gl[k] = e->loo_pred[i];
                k++;
            }
        e->groups[g].n = k;
        pn_calib_metrics(gy, gp, k, &e->groups[g].fit);
        pn_calib_metrics(gy, gl, k, &e->groups[g].loo);
        e->groups[g].spearman = pn_calib_spearman(gx, gy, k);
    }
done:
    free(gy);
    if (st != PN_OK)
        pn_model_eval_destroy(e);
    return st;
}
