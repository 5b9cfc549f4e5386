/* pn_sweep.h - sweeps: every combination of the values of a config's sweep
 * axes (threads, schedulers, latencies, params), simulated point by point. */
#ifndef PN_SWEEP_H
#define PN_SWEEP_H

#include <stdio.h>

#include "pn_kernel_net.h"
#include "pn_device.h"
#include "pn_engine.h"
#include "pn_report.h"
#include "pn_stats.h"

/* One point of a sweep and what its runs gave. */
typedef struct pn_sweep_point {
    double *axis;                 /* one value per sweep axis, in axis order */
    uint32_t threads, warps, schedulers, l1, l2;
    const char *engine;           /* the engine that ran it (a static name) */
    pn_run_result_t *results;     /* runs entries */
    pn_summary_t steps, idle;
} pn_sweep_point_t;

typedef struct pn_sweep {
    const pn_config_t *cfg;       /* borrowed */
    const pn_device_t *dev;       /* borrowed */
    uint32_t runs;
    uint64_t seed;                /* run i of every point uses seed + i */
    uint64_t max_steps;
    int max_steps_given;          /* max_steps came from the command line, not the config */
    const volatile sig_atomic_t *stop; /* pn_run_opts_t.stop of every run; may be NULL */
    pn_engine_kind_t engine;
    uint32_t threads;             /* threads per block where threads is no axis */
    pn_sweep_point_t *points;
    size_t n_points;
    size_t best;                  /* index of the point with the fewest mean steps */
} pn_sweep_t;

/* Lay out the points of cfg's sweep axes (first axis varies slowest; a
 * config without axes has the single point of its own values). Nothing is
 * simulated yet. On error sw is left empty. */
pn_status_t pn_sweep_init(pn_sweep_t *sw, const pn_config_t *cfg, const pn_device_t *dev,
                          uint32_t runs, uint64_t seed, uint64_t max_steps,
                          pn_engine_kind_t engine, pn_error_t *err);

/* Simulate every point: build its net, run its runs; jobs of all points
 * share `jobs` threads (0: all processors). Results do not depend on jobs.
 * progress (may be NULL) is told of finished runs out of all. On error (a
 * point outside the device's limits) err names the config file and the
 * point; a run that reaches max_steps is placed as pn_kernel_net_locate_error
 * places it (at simulation.max_steps unless sw->max_steps_given).
 * O(points * runs * run). */
pn_status_t pn_sweep_run(pn_sweep_t *sw, unsigned jobs, pn_progress_fn progress, void *ctx,
                         pn_error_t *err);

/* Free what sw owns. sw may be zeroed. */
void pn_sweep_destroy(pn_sweep_t *sw);

/* Write the sweep's table (one row per point, the best one marked) in fmt.
 * Returns PN_EIO when out reports an error. */
pn_status_t pn_sweep_report(FILE *out, pn_format_t fmt, const pn_sweep_t *sw, pn_error_t *err);

#endif
