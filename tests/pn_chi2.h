/* pn_chi2.h - the chi-square test the statistical engine tests share: a
 * two-sample test of homogeneity or a goodness of fit, with adjacent values
 * pooled into bins of a minimum expected count. Include after <cmocka.h>. */
#ifndef PN_CHI2_H
#define PN_CHI2_H

#include <stddef.h>

#include <gsl/gsl_cdf.h>

/* Chi-square p-value of counts a[0..n) against b: a second sample (b_is_prob
 * 0, two-sample test of homogeneity) or probabilities (b_is_prob 1,
 * goodness of fit). Adjacent values are pooled into bins whose expected
 * counts are at least minexp; what is left at the end joins the last bin.
 * Never NaN (a NaN fails the calling test). */
static inline double pn_chi2_p(const double *a, const double *b, size_t n, int b_is_prob,
                               double minexp)
{
    double na = 0, nb = 0;
    for (size_t i = 0; i < n; i++) {
        na += a[i];
        nb += b[i];
    }
    enum { MAXBINS = 4096 };
    static double ba[MAXBINS], bb[MAXBINS];
    size_t bins = 0;
    double ca = 0, cb = 0;
    for (size_t i = 0; i < n; i++) {
        ca += a[i];
        cb += b[i];
        double expect = b_is_prob ? na * cb / nb : (ca + cb) * na / (na + nb);
        if (expect >= minexp && bins < MAXBINS) {
            ba[bins] = ca;
            bb[bins] = cb;
            bins++;
            ca = cb = 0;
        }
    }
    if (bins == 0)
        return 1.0;
    ba[bins - 1] += ca;
    bb[bins - 1] += cb;
    double chi2 = 0;
    for (size_t k = 0; k < bins; k++) {
        if (b_is_prob) {
            double e = na * bb[k] / nb;
            chi2 += (ba[k] - e) * (ba[k] - e) / e;
        } else {
            double ea = (ba[k] + bb[k]) * na / (na + nb), eb = (ba[k] + bb[k]) * nb / (na + nb);
            chi2 += (ba[k] - ea) * (ba[k] - ea) / ea + (bb[k] - eb) * (bb[k] - eb) / eb;
        }
    }
    double p = bins < 2 ? 1.0 : gsl_cdf_chisq_Q(chi2, (double)bins - 1);
    assert_false(p != p);
    return p;
}

#endif
