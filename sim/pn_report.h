/* pn_report.h - the outputs of `pnsim run`: text, JSON and CSV, as fixed by
 * ../shared/spec/config.md. */
#ifndef PN_REPORT_H
#define PN_REPORT_H

#include <stdio.h>

#include "pn_engine.h"
#include "pn_stats.h"

typedef enum pn_format { PN_FORMAT_TEXT = 0, PN_FORMAT_JSON, PN_FORMAT_CSV } pn_format_t;

/* Parse "text", "json" or "csv"; PN_EINVAL otherwise. */
pn_status_t pn_format_parse(const char *s, pn_format_t *fmt, pn_error_t *err);

/* One report's writer per format; each writes data to out. */
typedef struct pn_report_writers {
    void (*text)(FILE *out, const void *data);
    void (*json)(FILE *out, const void *data);
    void (*csv)(FILE *out, const void *data);
} pn_report_writers_t;

/* Write data to out with w's writer for fmt. Returns PN_EIO "write error on
 * <what>" when out reports an error. */
pn_status_t pn_report_write(FILE *out, pn_format_t fmt, const pn_report_writers_t *w,
                            const void *data, const char *what, pn_error_t *err);

/* Everything one `run` reports. Pointers are borrowed. */
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
} pn_run_report_t;

/* Write r to out in fmt. Output depends only on r (never on timing or the
 * number of CPU threads). Returns PN_EIO if out reports an error. */
pn_status_t pn_report_run(FILE *out, pn_format_t fmt, const pn_run_report_t *r,
                          pn_error_t *err);

/* Write `"key": {"mean": M, "sd": S, "min": m, "max": x}` (%.10g for the
 * doubles). */
void pn_json_summary(FILE *out, const char *key, const pn_summary_t *s);

/* Write s as a JSON string literal (quotes and escapes included). */
void pn_json_string(FILE *out, const char *s);

#endif
