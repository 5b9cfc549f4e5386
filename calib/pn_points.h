/* pn_points.h - the measured points of a calibration, resolved against one
 * device profile (configs loaded once, params overridden, counts evaluated)
 * and simulated in parallel: mean steps per point at given latencies. */
#ifndef PN_POINTS_H
#define PN_POINTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pn_kernel_net.h"
#include "pn_device.h"
#include "pn_engine.h"
#include "pn_error.h"
#include "pn_measure.h"

/* One measured point, resolved. */
/* What a point keeps of its resolved kernel between resolving and
 * simulating: the scalars reports need. The counts are resolved again when
 * the point is simulated (pn_point_kernel), so memory does not grow with the
 * warps of every row. */
typedef struct pn_point_kernel {
    uint32_t threads, n_warps;
    pn_net_kind_t net;
    struct { uint32_t schedulers, l1, l2; } sm;   /* the paper net's, resolved */
} pn_point_kernel_t;

typedef struct pn_point {
    const pn_measure_point_t *m;  /* its row (borrowed from the pn_measure_t) */
    size_t cfg;                   /* index into set->configs */
    size_t group;                 /* index into set->groups */
    pn_point_kernel_t k;          /* threads, warps, net, schedulers, l1, l2 */
    double cost;                  /* roofline steps at the resolved latencies, times runs */
    double *params;               /* the config's params with the row's values (owned) */
    int fixed_l1, fixed_l2;       /* the config's model section sets the latency */
    uint32_t runs;
    uint64_t seed;
    uint64_t max_steps;
    /* filled by pn_points_simulate: */
    uint32_t l1, l2;              /* latencies of the last simulation */
    const char *engine;           /* the engine that ran it (a static name) */
    double steps_mean, steps_sd, idle_mean;
} pn_point_t;

typedef struct pn_point_set {
    const char *csv_path;         /* the measurements file (borrowed), for messages */
    pn_config_t *configs;         /* each distinct config file, loaded once */
    size_t n_configs;
    char **groups;                /* kernel labels, in order of first appearance */
    size_t n_groups;
    pn_point_t *points;
    size_t n_points;
    const volatile sig_atomic_t *stop; /* from pn_point_opts_t */
    /* called (under the pool's lock) as each run of pn_points_simulate
     * finishes, when set: a progress line counts runs */
    void (*on_run)(void *ctx);
    void *on_run_ctx;
    const pn_device_t *dev;       /* resolved against (borrowed) */
} pn_point_set_t;

typedef struct pn_point_opts {
    uint32_t runs;                /* 0: each config's simulation.runs */
    int have_seed;
    uint64_t seed;                /* seed of run 0 when have_seed, else each config's */
    uint64_t max_steps;           /* 0: each config's simulation.max_steps */
    const char *kernels;          /* comma-separated labels to keep; NULL: all */
    const volatile sig_atomic_t *stop; /* pn_run_opts_t.stop of every run; may be NULL */
} pn_point_opts_t;

/* Resolve every row of m against dev: load each distinct config once
 * (pn_config_load; its errors are prefixed with "csv:line:col: ", the
 * position of the row's config field), override its params with the row's (a
 * name the config does not define is PN_EINVAL "csv:line:col: params: config
 * C defines no parameter 'x' (its params: ...)"), and resolve counts for the
 * row's threads (pn_kernel_resolve; its errors are prefixed with
 * "csv:line: "). The config's
 * own `device` key is ignored: every point uses dev. A point's label (its
 * group) is the row's kernel column, else the config's kernel name. With
 * o->kernels, only points whose label is listed are kept; a listed label that
 * no point has is PN_EINVAL. On success s owns everything
 * (pn_points_destroy); on error s is left destroyed. */
pn_status_t pn_points_resolve(pn_point_set_t *s, const pn_measure_t *m, const pn_device_t *dev,
                              const pn_point_opts_t *o, pn_error_t *err);

/* Free what s owns; s may be NULL or zeroed. */
void pn_points_destroy(pn_point_set_t *s);

/* Resolve point i of s again into k (as pn_points_resolve did: the row's
 * threads and params against s->dev); the caller destroys k
 * (pn_kernel_destroy). Errors: pn_kernel_resolve's. O(warps). */
pn_status_t pn_point_kernel(const pn_point_set_t *s, size_t i, pn_kernel_t *k, pn_error_t *err);

/* Simulate every point with engine `kind` at global latency l1 and shared
 * latency l2 (0: keep the resolved value; a config that sets a latency in
 * its model section always keeps its own) and store the mean and sample sd of
 * the steps and the mean idle steps. A point simulates exactly what `pnsim
 * run` simulates for its config at its threads and params: the config's own
 * net (pn_kernel_net_build) on the engine its model picks for `kind`
 * (pn_kernel_net_engine). The runs of all points share one worker pool
 * of up to `jobs` threads (pn_engine_run_jobs; 0: all processors), the
 * costliest points (pn_baseline_roofline) first. Results depend only on the
 * points, seeds and latencies, never on jobs. When progress is non-NULL, one
 * line per finished point is written to it. After a failure no further run
 * is started; the error is that of the first failing point in that order,
 * prefixed with "csv:line: "; or PN_ENOMEM. Memory: every point's net and
 * plan at once. */
pn_status_t pn_points_simulate(pn_point_set_t *s, pn_engine_kind_t kind, uint32_t l1,
                               uint32_t l2, unsigned jobs, FILE *progress, pn_error_t *err);

#endif
