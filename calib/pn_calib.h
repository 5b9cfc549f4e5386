/* pn_calib.h - mapping simulation steps to time: the linear fit time = a * x + b
 * (GSL least squares), its error metrics, rank correlation and
 * leave-one-group-out prediction. */
#ifndef PN_CALIB_H
#define PN_CALIB_H

#include <stddef.h>

#include "pn_error.h"

/* A fitted line y = a * x + b. */
typedef struct pn_fit {
    double a;                     /* slope (us per step) */
    double b;                     /* intercept (us) */
    double cov00, cov01, cov11;   /* covariance of (b, a), as GSL returns it */
    double sumsq;                 /* residual sum of squares (weighted: chi^2) */
    size_t n;                     /* points fitted */
} pn_fit_t;

/* Fit y = a*x + b to n points by least squares: gsl_fit_linear when w is NULL,
 * gsl_fit_wlinear with weights w[i] > 0 otherwise. Needs n >= 2, finite
 * values and at least two distinct x; otherwise PN_EINVAL naming the
 * problem ("need at least 2 points with different x, got ..."). O(n). */
pn_status_t pn_calib_fit(const double *x, const double *y, const double *w, size_t n,
                         pn_fit_t *fit, pn_error_t *err);

/* a * x + b. */
double pn_calib_predict(const pn_fit_t *fit, double x);

/* How well predictions yhat match measurements y (all y > 0). */
typedef struct pn_calib_metrics {
    size_t n;
    double r2;                    /* 1 - SSE/SST; NaN when n < 2 or all y equal */
    double rmse;                  /* sqrt(SSE / n), units of y */
    double mape;                  /* mean |yhat - y| / y, percent */
    double max_ape;               /* largest |yhat - y| / y, percent */
    double geo;                   /* geometric-mean error, percent: exp(mean |ln(yhat/y)|) - 1;
                                     NaN when some yhat <= 0 */
    size_t n_nonpos;              /* predictions <= 0 */
} pn_calib_metrics_t;

/* Metrics of n predictions (n == 0: zeros and NaNs; NaN predictions make
 * every metric NaN). Uses gsl_stats_tss for SST. O(n). */
void pn_calib_metrics(const double *y, const double *yhat, size_t n, pn_calib_metrics_t *m);

/* Spearman rank correlation of a and b (gsl_stats_spearman; ties get mean
 * ranks). NaN when n < 2 or when either is constant. Returns NaN as well
 * when scratch memory cannot be allocated. O(n log n). */
double pn_calib_spearman(const double *a, const double *b, size_t n);

/* Leave-one-group-out prediction: for each group g in 0..n_groups-1, fit
 * (as pn_calib_fit, with weights w or NULL) on the points whose group[i] != g
 * and predict the points of g into pred[i]. A group whose complement cannot be
 * fitted (fewer than two distinct x) gets NaN predictions. Returns PN_ENOMEM
 * or PN_EINVAL (a group index >= n_groups); pred is then unspecified.
 * O(n_groups * n). */
pn_status_t pn_calib_loo(const double *x, const double *y, const double *w,
                         const size_t *group, size_t n, size_t n_groups, double *pred,
                         pn_error_t *err);

/* One group's (kernel's) share of a model evaluation. */
typedef struct pn_group_eval {
    size_t n;
    pn_calib_metrics_t fit;       /* its points predicted by the fit on all points */
    pn_calib_metrics_t loo;       /* predicted by the fit on the other groups */
    double spearman;              /* rank correlation of x and y inside the group */
} pn_group_eval_t;

/* A predictor x of the measurements y, fitted and judged. */
typedef struct pn_model_eval {
    pn_fit_t fit;                 /* on all points */
    size_t n;
    double *pred;                 /* n in-sample predictions (owned) */
    double *loo_pred;             /* n leave-one-group-out predictions (owned) */
    pn_calib_metrics_t all;       /* of pred */
    pn_calib_metrics_t loo;       /* of loo_pred */
    double spearman;              /* rank correlation of x and y over all points */
    pn_group_eval_t *groups;      /* n_groups (owned) */
    size_t n_groups;
} pn_model_eval_t;

/* Fit y = a*x + b on all n points (weights w or NULL, as pn_calib_fit),
 * predict every point, predict each group from the fit on the others
 * (pn_calib_loo), and compute the metrics overall and per group. Errors are
 * those of pn_calib_fit on all points, and PN_ENOMEM; on error e is left
 * destroyed. On success e owns its arrays (pn_model_eval_destroy).
 * O(n_groups * n + n log n). */
pn_status_t pn_calib_evaluate(const double *x, const double *y, const double *w,
                              const size_t *group, size_t n, size_t n_groups,
                              pn_model_eval_t *e, pn_error_t *err);

/* Free what e owns; e may be NULL or zeroed. */
void pn_model_eval_destroy(pn_model_eval_t *e);

#endif
