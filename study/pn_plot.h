/* pn_plot.h - pictures of sweeps and comparisons through gnuplot. */
#ifndef PN_PLOT_H
#define PN_PLOT_H

#include "pn_compare.h"
#include "pn_sweep.h"

/* Whether path names a picture pn_plot_* can draw: a .svg or .png file
 * with a name before the extension. */
int pn_plot_name_ok(const char *path);

/* Draw the sweep against its first axis (x labelled with the axis name), one
 * curve per combination of the other axes, the best point marked, with a log2
 * x axis for threads: the predicted time in microseconds where sw->dev maps
 * steps to time (calibrated; a pipelined config's device after
 * pn_kernel_config_time_device), mean steps otherwise; error bars of one
 * sample standard deviation, the y axis from 0 (log when the curves are
 * decades apart). The format follows the extension of path: .svg or .png.
 * gnuplot writes a temporary file that is renamed to path only when it is
 * whole. Errors: PN_EINVAL (extension), PN_EIO (gnuplot missing or failing:
 * its first message line is quoted), PN_EINTR (*sw->stop set). */
pn_status_t pn_plot_sweep(const pn_sweep_t *sw, const char *path, pn_error_t *err);

/* Draw the comparison as a log-log scatter of predicted against measured
 * microseconds, one colour and mark per kernel family (pn_compare_family_len),
 * with the line y = x and dashed lines at +-20 %, titled with the MAPE and the
 * number of launches; rows without a prediction (or predicted 0) are left
 * out. Path, temporary file and errors as pn_plot_sweep, with stop (may be
 * NULL) for *sw->stop, and PN_EINVAL when no row can be drawn. */
pn_status_t pn_plot_compare(const pn_compare_t *c, const char *path,
                            const volatile sig_atomic_t *stop, pn_error_t *err);

#endif
