/* pn_interpolant.c - a piecewise-linear interpolant in `threads` as a
 * libmatheval expression (pnsim import's configs fitted across block sizes). */
#include "pn_interpolant.h"

#include <math.h>

/* The piecewise-linear interpolant through (x[i], y[i]), x increasing, as a
 * libmatheval expression in `threads` (exact at every x[i]; a number when
 * every y is the same). */
static void interpolant_text(FILE *out, const double *x, const double *y, size_t n)
{
    double s0 = (y[1] - y[0]) / (x[1] - x[0]);
    fprintf(out, "%.10g", y[0]);
    if (s0 != 0)
        fprintf(out, " %c %.10g * (threads - %.10g)", s0 < 0 ? '-' : '+', fabs(s0), x[0]);
    for (size_t i = 1; i + 1 < n; i++) {
        double si = (y[i + 1] - y[i]) / (x[i + 1] - x[i]), d = si - s0;
        if (d != 0)
            fprintf(out, " %c %.10g * (threads - %.10g + abs(threads - %.10g)) / 2",
                    d < 0 ? '-' : '+', fabs(d), x[i], x[i]);
        s0 = si;
    }
}

void pn_interpolant_write(FILE *out, const double *x, const double *y, size_t n, double lo,
                          double hi)
{
    int flat = 1;
    for (size_t i = 1; i < n; i++)
        flat &= y[i] == y[0];
    if (flat || x[n - 1] == x[0]) {
        fprintf(out, "%.10g", y[0]);
        return;
    }
    fputc('"', out);
    if (lo < hi) {
        fprintf(out, "(%.10g + abs(", lo + hi);
        interpolant_text(out, x, y, n);
        if (lo != 0)
            fprintf(out, " - %.10g", lo);
        fputs(") - abs(", out);
        interpolant_text(out, x, y, n);
        fprintf(out, " - %.10g)) / 2", hi);
    } else {
        interpolant_text(out, x, y, n);
    }
    fputc('"', out);
}
