/* pn_interpolant.h - a piecewise-linear interpolant in `threads` as a
 * libmatheval expression, for configs fitted across block sizes. */
#ifndef PN_INTERPOLANT_H
#define PN_INTERPOLANT_H

#include <stddef.h>
#include <stdio.h>

/* Write the interpolant through (x[i], y[i]), i < n (n >= 1, x increasing), as
 * a YAML value: a number when every y is the same (or every x), else a quoted
 * expression in `threads`, exact at every x[i]; with lo < hi, clamped to
 * [lo, hi] (clamp(v) = (lo + hi + |v - lo| - |v - hi|) / 2), so that block
 * sizes beyond the profiled ones stay in range. */
void pn_interpolant_write(FILE *out, const double *x, const double *y, size_t n, double lo,
                          double hi);

#endif
