/* pn_report.h - output formats (text, JSON, CSV) and the writers of a
 * report in each; GPU-free: what a run of a kernel reports is
 * models/config/pn_run_report.h. */
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

/* Write `"key": {"mean": M, "sd": S, "min": m, "max": x}` (%.10g for the
 * doubles). */
void pn_json_summary(FILE *out, const char *key, const pn_summary_t *s);

/* Write s as a JSON string literal (quotes and escapes included). */
void pn_json_string(FILE *out, const char *s);

/* Write s as a CSV field: as it is, or in double quotes (a quote doubled) when
 * it holds a comma, a quote or a newline. */
void pn_csv_string(FILE *out, const char *s);

#endif
