/* pn_run_report.h - what `pnsim run` reports of a kernel's runs: the kernel,
 * its device and model, the net, the steps, idle steps and time, in text,
 * JSON or CSV (pn_run_report.c). */
#ifndef PN_RUN_REPORT_H
#define PN_RUN_REPORT_H

#include <stdio.h>

#include "pn_engine.h"
#include "pn_model.h"
#include "pn_pipe_bounds.h"
#include "pn_report.h"
#include "pn_stats.h"

/* Everything one `run` reports (doc/config.md fixes its JSON and CSV
 * keys). Pointers are borrowed, from the model and the results. */
typedef struct pn_run_report {
    const char *kernel;
    const char *config_path;
    const char *device;           /* profile name */
    const char *device_desc;      /* may be NULL */
    uint32_t threads, warps;
    uint32_t schedulers, l1, l2;
    const char *selection;        /* "paper" (random frame I) or "program" */
    uint32_t places, transitions;
    size_t arcs;
    const char *engine;
    uint32_t runs;
    uint64_t seed;                /* seed of run 0; run i uses seed + i */
    unsigned jobs;                /* CPU threads used (not printed in JSON/CSV) */
    pn_summary_t steps, idle;
    const pn_run_result_t *results;
    int calibrated;
    double us_per_step, us_offset;
    /* optional, from the model that made the net: a text line replacing the
     * "model" line, and JSON members added to the "model" object; NULL or
     * "": the fields above alone */
    const char *model_text, *model_json;
    char model_text_buf[512], model_json_buf[512];   /* pn_run_report_fill's */
    /* the pipelined net's lower bounds (roofline): has_bounds 0 for the paper net */
    int has_bounds;
    pn_pipe_bounds_t bounds;
    uint32_t unsolved;            /* sass: branches the counts do not split (halved) */
    int has_sass;                 /* the warps run a SASS program */
    double covered;               /* sass: pn_sass_sim_covered */
} pn_run_report_t;

/* Fill r from the model m that ran (its config, device, resolved kernel and
 * net), the engine prep that ran it, and the runs' results[0..runs) from
 * seed on, on `jobs` CPU threads; steps and idle are summarised here.
 * Everything but the summaries is borrowed: m, prep and results must
 * outlive r. Errors: pn_summary_runs' (PN_EINVAL for no runs). O(runs). */
/* (results NULL: the summaries are left to a stream, pn_run_stream_end.) */
pn_status_t pn_run_report_fill(pn_run_report_t *r, const pn_model_t *m,
                               const pn_prepared_t *prep, const pn_run_result_t *results,
                               uint32_t runs, uint64_t seed, unsigned jobs, pn_error_t *err);

/* Write r to out in fmt. Output depends only on r (never on timing or the
 * number of CPU threads). Returns PN_EIO if out reports an error. */
pn_status_t pn_run_report_write(FILE *out, pn_format_t fmt, const pn_run_report_t *r,
                                pn_error_t *err);

/* A report streamed as its runs come (pnsim run of many runs): the runs'
 * CSV rows or JSON entries go to a temporary file, the summaries accumulate,
 * and the report is written at the end (nothing on out before, so a failed
 * run prints nothing): memory O(1) in the number of runs, disk O(runs). The
 * output is byte for byte pn_run_report_write's. */
typedef struct pn_run_stream {
    FILE *out, *tmp;
    pn_format_t fmt;
    uint64_t written;             /* runs written so far (the next run's index) */
    pn_summary_acc_t steps, idle;
} pn_run_stream_t;

/* Start the report of r (filled, summaries not needed) for out: the
 * temporary file of the CSV or JSON runs (PN_EIO when it cannot be made). */
pn_status_t pn_run_stream_begin(pn_run_stream_t *s, FILE *out, pn_format_t fmt,
                                const pn_run_report_t *r, pn_error_t *err);

/* The next n runs, in run order. PN_EIO on a write error. O(n). */
pn_status_t pn_run_stream_runs(pn_run_stream_t *s, const pn_run_report_t *r,
                               const pn_run_result_t *res, size_t n, pn_error_t *err);

/* Set r's summaries from the runs streamed and write the rest of the report
 * (the text report, or the JSON with its runs); frees s. PN_EIO. */
pn_status_t pn_run_stream_end(pn_run_stream_t *s, pn_run_report_t *r, pn_error_t *err);

/* Free s after an error (NULL or ended: nothing). */
void pn_run_stream_abort(pn_run_stream_t *s);

#endif
