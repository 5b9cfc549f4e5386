/* pn_report.c - the output formats of every report (text, JSON, CSV) and
 * the JSON pieces they share; what a report says is its owner's. */
#include "pn_report.h"

#include <inttypes.h>
#include <string.h>

pn_status_t pn_format_parse(const char *s, pn_format_t *fmt, pn_error_t *err)
{
    if (strcmp(s, "text") == 0) *fmt = PN_FORMAT_TEXT;
    else if (strcmp(s, "json") == 0) *fmt = PN_FORMAT_JSON;
    else if (strcmp(s, "csv") == 0) *fmt = PN_FORMAT_CSV;
    else return pn_error_set(err, PN_EINVAL, "unknown format '%s' (expected text, json or csv)", s);
    return PN_OK;
}

pn_status_t pn_report_write(FILE *out, pn_format_t fmt, const pn_report_writers_t *w,
                            const void *data, const char *what, pn_error_t *err)
{
    switch (fmt) {
    case PN_FORMAT_TEXT: w->text(out, data); break;
    case PN_FORMAT_JSON: w->json(out, data); break;
    case PN_FORMAT_CSV:  w->csv(out, data); break;
    }
    if (ferror(out))
        return pn_error_set(err, PN_EIO, "write error on %s", what);
    return PN_OK;
}

void pn_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':  fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20) fprintf(out, "\\u%04x", *p);
            else fputc(*p, out);
        }
    }
    fputc('"', out);
}

void pn_csv_string(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void pn_json_summary(FILE *out, const char *key, const pn_summary_t *s)
{
    fprintf(out, "\"%s\": {\"mean\": %.10g, \"sd\": %.10g, \"min\": %" PRIu64
            ", \"max\": %" PRIu64 "}", key, s->mean, s->sd, s->min, s->max);
}
