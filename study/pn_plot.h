/* pn_plot.h - pictures of sweeps through gnuplot. */
#ifndef PN_PLOT_H
#define PN_PLOT_H

#include "pn_sweep.h"

/* Draw the sweep's mean steps (error bars: one sample standard deviation)
 * against its first axis, one curve per combination of the other axes, the
 * best point marked, with a log2 x axis for threads. The format follows the
 * extension of path: .svg or .png. gnuplot writes a temporary file that is
 * renamed to path only when it succeeded. Errors: PN_EINVAL (extension),
 * PN_EIO (gnuplot missing or failing: its first message line is quoted). */
pn_status_t pn_plot_sweep(const pn_sweep_t *sw, const char *path, pn_error_t *err);

#endif
