/* pn_compare.h - measured against predicted kernel times: per launch errors,
 * per kernel MAPE, the best block size of every sweep (a kernel at one size
 * over several block sizes), versions of one computation ranked together, the
 * worst launches; written as text, JSON or CSV (`pnsim compare`). */
#ifndef PN_COMPARE_H
#define PN_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pn_error.h"
#include "pn_report.h"

/* A sweep's pick is near the best when its measured time is within this
 * fraction of the least measured time (the sweeps_near count). */
#define PN_COMPARE_NEAR 0.01

typedef struct pn_compare_row {
    char *kernel;                 /* as the times file names it */
    char *size;                   /* its size column, as text */
    uint32_t threads;
    uint64_t blocks;
    double measured_us, predicted_us; /* predicted < 0: no config matched */
    double p10_us, p90_us;        /* the measured spread (< 0: not given) */
    char *config;                 /* the config that predicted it (NULL: none) */
    double roofline_us;           /* the config's largest lower bound as time (< 0: not asked) */
    const char *bound;            /* its name (static: pn_pipe_bound_names), or NULL */
} pn_compare_row_t;

typedef struct pn_compare {
    pn_compare_row_t *rows;
    size_t n, cap;
} pn_compare_t;

/* An empty comparison; pair with pn_compare_destroy. */
void pn_compare_init(pn_compare_t *c);
void pn_compare_destroy(pn_compare_t *c);

/* Append a row (strings copied; config may be NULL). PN_ENOMEM. */
pn_status_t pn_compare_add(pn_compare_t *c, const char *kernel, const char *size,
                           uint32_t threads, uint64_t blocks, double measured_us,
                           double predicted_us, const char *config, pn_error_t *err);

/* The last row's measured spread: its 10th and 90th percentiles of time. */
void pn_compare_spread(pn_compare_t *c, double p10_us, double p90_us);

/* The last row's roofline: the time of its config's largest lower bound (issue, a pipe,
 * L2, DRAM, launch: `pnsim run`'s bounds, mapped to time as its steps are) and that
 * bound's name (a static string). With it in any row, pn_compare_write adds the roofline's
 * columns and errors beside pnsim's. */
void pn_compare_roofline(pn_compare_t *c, double roofline_us, const char *bound);

/* Write the comparison: text (a table, per kernel MAPE, sweeps, with versions
 * the version groups, the `worst` largest errors, the overall line), json (the
 * same as one object) or csv (one row per launch). A sweep is the rows of one
 * kernel and size with two or more block sizes; its verdict compares the block
 * size of the least measured and of the least predicted time, its regret is
 * the measured time of the predicted pick over the least measured (near:
 * within PN_COMPARE_NEAR; the overall line counts them and means the
 * regrets). A sweep whose rows all have their spread is clear when every
 * other block size's 10th percentile lies above the best's 90th: the
 * measurement tells its best apart (the overall line counts those and the
 * right picks among them; a wrong pick in a sweep that is not clear is marked
 * as within the measured spread). With versions,
 * kernels named FAMILY_VERSION at one size are one group: the fastest
 * (version, block size) measured and predicted, and the regret (measured time
 * of the predicted pick over the measured best). Errors are
 * (predicted - measured) / measured. Rows with a roofline (pn_compare_roofline) add
 * roofline_us, its error and its bound per launch, and the overall line the roofline's
 * MAPE, median error, the launches pnsim predicts nearer than it and, over the sweeps
 * whose rows all have one, the roofline's right and near picks (its least time, the first
 * row on ties). PN_EIO on a write
 * error. */
pn_status_t pn_compare_write(FILE *out, pn_format_t fmt, const pn_compare_t *c, int versions,
                             size_t worst, pn_error_t *err);

/* The mean |error| over the rows with a prediction (0 when none); their
 * count goes to *n. O(rows). */
double pn_compare_mape(const pn_compare_t *c, size_t *n);

/* Whether row r has a prediction to compare (a config matched, measured > 0). */
int pn_compare_has_prediction(const pn_compare_row_t *r);

/* Length of the family of kernel name k: up to its first '_', all of it when
 * it has none (the FAMILY_VERSION grouping of --versions). */
size_t pn_compare_family_len(const char *k);

#endif
