/* pn_measure.c - reading the measurements CSV of `pnsim calibrate`. */
#include "pn_measure.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_csv.h"
#include "pn_sm.h"


void pn_measure_params_free(pn_measure_param_t *params, size_t n)
{
    if (!params)
        return;
    for (size_t i = 0; i < n; i++)
        free(params[i].name);
    free(params);
}

void pn_measure_destroy(pn_measure_t *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n_points; i++) {
        pn_measure_point_t *p = &m->points[i];
        free(p->config);
        free(p->config_path);
        free(p->kernel);
        pn_measure_params_free(p->params, p->n_params);
    }
    free(m->points);
    free(m->path);
    memset(m, 0, sizeof *m);
}

static int is_ident(const char *s, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return 0;
    return 1;
}

pn_status_t pn_measure_params_parse(const char *text, const char *file, long line, long col,
                                    pn_measure_param_t **params, size_t *n, pn_error_t *err)
{
    *params = NULL;
    *n = 0;
    size_t cap = 0;
    const char *s = text;
    pn_status_t st = PN_OK;
    while (*s) {
        const char *end = strchr(s, ';');
        if (!end)
            end = s + strlen(s);
        const char *a = s, *b = end;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        long pcol = col + (long)(a - text);
        if (a < b) {
            const char *eq = memchr(a, '=', (size_t)(b - a));
            if (!eq) {
                st = pn_error_at(err, PN_EINVAL, file, line, pcol,
                                 "params: expected k=v pairs separated by ';', got '%.*s'",
                                 (int)(b - a), a);
                goto fail;
            }
            const char *ke = eq;
            while (ke > a && (ke[-1] == ' ' || ke[-1] == '\t'))
                ke--;
            if (!is_ident(a, (size_t)(ke - a))) {
                st = pn_error_at(err, PN_EINVAL, file, line, pcol,
                                 "params: '%.*s' is not a parameter name (letters, digits, "
                                 "'_', not starting with a digit)", (int)(ke - a), a);
                goto fail;
            }
            const char *v = eq + 1;
            while (v < b && (*v == ' ' || *v == '\t'))
                v++;
            char num[128];
            size_t vl = (size_t)(b - v);
            double val = 0;
            char *vend = NULL;
            int ok = vl > 0 && vl < sizeof num;
            if (ok) {
                memcpy(num, v, vl);
                num[vl] = '\0';
                errno = 0;
                val = strtod(num, &vend);
                ok = *vend == '\0' && isfinite(val) && errno != ERANGE;
            }
            if (!ok) {
                st = pn_error_at(err, PN_EINVAL, file, line, col + (long)(v - text),
                                 "params: value of '%.*s' must be a finite number, got '%.*s'",
                                 (int)(ke - a), a, (int)vl, v);
                goto fail;
            }
            for (size_t i = 0; i < *n; i++)
                if (strlen((*params)[i].name) == (size_t)(ke - a) &&
                    !strncmp((*params)[i].name, a, (size_t)(ke - a))) {
                    st = pn_error_at(err, PN_EINVAL, file, line, pcol,
                                     "params: '%s' given twice", (*params)[i].name);
                    goto fail;
                }
            if (*n == cap) {
                size_t nc = cap ? cap * 2 : 4;
                pn_measure_param_t *np = realloc(*params, nc * sizeof *np);
                if (!np) {
                    st = pn_error_set(err, PN_ENOMEM, "out of memory");
                    goto fail;
                }
                *params = np;
                cap = nc;
            }
            pn_measure_param_t *p = &(*params)[*n];
            p->name = strndup(a, (size_t)(ke - a));
            p->value = val;
            p->col = pcol;
            if (!p->name) {
                st = pn_error_set(err, PN_ENOMEM, "out of memory");
                goto fail;
            }
            (*n)++;
        }
        s = *end ? end + 1 : end;
    }
    return PN_OK;
fail:
    pn_measure_params_free(*params, *n);
    *params = NULL;
    *n = 0;
    return st;
}

static pn_status_t read_rows(pn_measure_t *m, const pn_csv_t *csv, pn_error_t *err)
{
    long c_config, c_threads, c_median;
    PN_CHECK(pn_csv_require(csv, "config", PN_MEASURE_COLUMNS, &c_config, err));
    PN_CHECK(pn_csv_require(csv, "threads", PN_MEASURE_COLUMNS, &c_threads, err));
    PN_CHECK(pn_csv_require(csv, "median_us", PN_MEASURE_COLUMNS, &c_median, err));
    long c_params = pn_csv_column(csv, "params");
    long c_kernel = pn_csv_column(csv, "kernel");
    if (csv->n_rows == 0)
        return pn_error_at(err, PN_EINVAL, csv->path, csv->header.line, 1,
                           "no measurements: the header is not followed by any row");
    m->points = calloc(csv->n_rows, sizeof *m->points);
    if (!m->points)
        return pn_error_set(err, PN_ENOMEM, "%s: out of memory", csv->path);
    for (size_t i = 0; i < csv->n_rows; i++) {
        const pn_csv_row_t *row = &csv->rows[i];
        pn_measure_point_t *p = &m->points[i];
        m->n_points = i + 1;
        p->line = row->line;
        const pn_csv_field_t *cf = &row->f[c_config];
        if (!cf->text[0])
            return pn_error_at(err, PN_EINVAL, csv->path, row->line, cf->col,
                               "config: expected the path of a pnsim config, got an empty "
                               "field");
        p->config = strdup(cf->text);
        p->config_path = pn_csv_resolve_path(csv->path, cf->text);
        p->config_col = cf->col;
        if (!p->config || !p->config_path)
            return pn_error_set(err, PN_ENOMEM, "%s: out of memory", csv->path);
        p->threads_col = row->f[c_threads].col;
        if (row->f[c_threads].text[0]) {
            uint64_t t;
            PN_CHECK(pn_csv_u64(csv, row, (size_t)c_threads, "threads", 1, PN_SM_MAX_THREADS, &t,
                                err));
            p->threads = (uint32_t)t;
        }
        PN_CHECK(pn_csv_double(csv, row, (size_t)c_median, "median_us", 0.0, &p->median_us,
                               err));
        if (c_params >= 0) {
            const pn_csv_field_t *f = &row->f[c_params];
            p->params_col = f->col;
            PN_CHECK(pn_measure_params_parse(f->text, csv->path, row->line, f->col,
                                             &p->params, &p->n_params, err));
        }
        if (c_kernel >= 0 && row->f[c_kernel].text[0]) {
            p->kernel = strdup(row->f[c_kernel].text);
            if (!p->kernel)
                return pn_error_set(err, PN_ENOMEM, "%s: out of memory", csv->path);
        }
    }
    return PN_OK;
}

static pn_status_t finish(pn_measure_t *m, pn_csv_t *csv, pn_status_t st, pn_error_t *err)
{
    if (st == PN_OK) {
        m->path = strdup(csv->path);
        if (!m->path)
            st = pn_error_set(err, PN_ENOMEM, "out of memory");
        else
            st = read_rows(m, csv, err);
    }
    pn_csv_destroy(csv);
    if (st != PN_OK)
        pn_measure_destroy(m);
    return st;
}

pn_status_t pn_measure_load(pn_measure_t *m, const char *path, pn_error_t *err)
{
    pn_csv_t csv;
    if (!m)
        return pn_error_set(err, PN_EINVAL, "pn_measure_load: m is NULL");
    memset(m, 0, sizeof *m);
    return finish(m, &csv, pn_csv_read(&csv, path, err), err);
}

pn_status_t pn_measure_parse(pn_measure_t *m, const char *text, size_t len, const char *name,
                             pn_error_t *err)
{
    pn_csv_t csv;
    if (!m)
        return pn_error_set(err, PN_EINVAL, "pn_measure_parse: m is NULL");
    memset(m, 0, sizeof *m);
    return finish(m, &csv, pn_csv_parse(&csv, text, len, name, err), err);
}
