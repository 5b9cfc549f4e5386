/* pn_measure.h - the measurements CSV that `pnsim calibrate` reads: one row per
 * measured kernel configuration (config, threads, params, median_us; format in
 * calib/README.md). */
#ifndef PN_MEASURE_H
#define PN_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "pn_error.h"

/* One `k=v` of the params column. */
typedef struct pn_measure_param {
    char *name;
    double value;
    long col;                     /* where the pair starts in the file */
} pn_measure_param_t;

/* One measured point (one data row). */
typedef struct pn_measure_point {
    long line;                    /* its line in the CSV */
    char *config;                 /* the config path as written */
    char *config_path;            /* the same, relative to the CSV's directory */
    long config_col;
    char *kernel;                 /* the optional `kernel` column; NULL when absent or empty */
    uint32_t threads;             /* 0: the config's kernel.threads (empty field) */
    long threads_col;
    pn_measure_param_t *params;
    size_t n_params;
    long params_col;
    double median_us;             /* > 0 */
} pn_measure_point_t;

typedef struct pn_measure {
    char *path;                   /* the CSV file as given */
    pn_measure_point_t *points;
    size_t n_points;
} pn_measure_t;

/* Columns of the measurements CSV, for messages. */
#define PN_MEASURE_COLUMNS "config, threads, params, median_us (optional: kernel)"

/* Read the measurements CSV at path (pn_csv_read rules: header row, '#'
 * comments, quotes). Required header columns: config, threads, median_us;
 * optional: params, kernel; other columns are ignored. Per row: config
 * non-empty; threads empty (the config's) or an integer in 1..1048576;
 * params empty or `k=v;k=v` with identifier keys, finite numeric values, no
 * key twice; median_us a finite number > 0. Every error is one line
 * "path:line:col: ..." at the offending field (a missing column at the
 * header's line). A file with a header and no rows is PN_EINVAL "path:H:1: no
 * measurements". On success m owns everything (pn_measure_destroy); on error
 * m is left zeroed. O(file size). */
pn_status_t pn_measure_load(pn_measure_t *m, const char *path, pn_error_t *err);

/* As pn_measure_load, from text in memory; `name` stands for the file (and
 * configs are taken relative to its directory). */
pn_status_t pn_measure_parse(pn_measure_t *m, const char *text, size_t len, const char *name,
                             pn_error_t *err);

/* Free what m owns; m may be NULL or zeroed. */
void pn_measure_destroy(pn_measure_t *m);

/* Parse a params field "k=v;k=v" (blanks around keys and values allowed,
 * empty pairs skipped) into *params / *n (caller frees with
 * pn_measure_params_free). file, line and col (the field's) locate errors:
 * "file:line:col': params: ..." with col' the offending pair's column. */
pn_status_t pn_measure_params_parse(const char *text, const char *file, long line, long col,
                                    pn_measure_param_t **params, size_t *n, pn_error_t *err);

/* Free n params (and the array); params may be NULL. */
void pn_measure_params_free(pn_measure_param_t *params, size_t n);

#endif
