/* pn_csv.c - a strict CSV reader: header row, comments, quotes, positions. */
#include "pn_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_yaml.h"

void pn_csv_destroy(pn_csv_t *csv)
{
    if (!csv)
        return;
    free(csv->path);
    free(csv->buf);
    free(csv->rows);
    free(csv->fields);
    memset(csv, 0, sizeof *csv);
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Growable arrays used while parsing; rows hold field indices until the end. */
typedef struct parse {
    pn_csv_t *csv;
    pn_csv_field_t *fields;
    size_t n_fields, cap_fields;
    pn_csv_row_t *rows;           /* rows[i].f is really an index: see row_first */
    size_t *row_first;
    size_t n_rows, cap_rows;
} parse_t;

static pn_status_t add_field(parse_t *p, const char *text, long col, pn_error_t *err)
{
    if (p->n_fields == p->cap_fields) {
        size_t nc = p->cap_fields ? p->cap_fields * 2 : 64;
        pn_csv_field_t *nf = realloc(p->fields, nc * sizeof *nf);
        if (!nf)
            return pn_error_set(err, PN_ENOMEM, "%s: out of memory", p->csv->path);
        p->fields = nf;
        p->cap_fields = nc;
    }
    p->fields[p->n_fields].text = text;
    p->fields[p->n_fields].col = col;
    p->n_fields++;
    return PN_OK;
}

static pn_status_t add_row(parse_t *p, long line, size_t first, size_t n, pn_error_t *err)
{
    if (p->n_rows == p->cap_rows) {
        size_t nc = p->cap_rows ? p->cap_rows * 2 : 64;
        pn_csv_row_t *nr = realloc(p->rows, nc * sizeof *nr);
        size_t *nf = nr ? realloc(p->row_first, nc * sizeof *nf) : NULL;
        if (nr)
            p->rows = nr;
        if (!nr || !nf)
            return pn_error_set(err, PN_ENOMEM, "%s: out of memory", p->csv->path);
        p->row_first = nf;
        p->cap_rows = nc;
    }
    p->rows[p->n_rows].line = line;
    p->rows[p->n_rows].n = n;
    p->rows[p->n_rows].f = NULL;
    p->row_first[p->n_rows] = first;
    p->n_rows++;
    return PN_OK;
}

/* Cut the fields of one line (NUL-terminated at its end, in the owned buffer)
 * out in place; *n receives their number. */
/* The first header field (index *dup, n when none) equal to an earlier one
 * (*first), among fields[base .. base + n). O(n log n). */
static pn_status_t header_duplicate(const parse_t *p, size_t base, size_t n, size_t *dup,
                                   size_t *first, pn_error_t *err)
{
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names)
        return pn_error_set(err, PN_ENOMEM, "out of memory for %zu columns", n);
    for (size_t i = 0; i < n; i++)
        names[i] = p->fields[base + i].text;
    pn_csv_names_t s;
    pn_status_t st = pn_csv_names_init(&s, names, n, err);
    if (st == PN_OK && !pn_csv_names_dup(&s, dup, first))
        *dup = n;
    pn_csv_names_destroy(&s);
    free(names);
    return st;
}

static pn_status_t split_line(parse_t *p, char *line, long lineno, size_t *n, pn_error_t *err)
{
    const char *file = p->csv->path;
    char *s = line;
    *n = 0;
    for (;;) {
        while (is_blank(*s))
            s++;
        long col = (long)(s - line) + 1;
        char *text = s;
        if (*s == '"') {
            char *dst = s;
            text = dst;
            s++;
            for (;;) {
                if (*s == '\0')
                    return pn_error_at(err, PN_ESYNTAX, file, lineno, col,
                                       "unterminated quoted field");
                if (*s == '"') {
                    if (s[1] == '"') {
                        *dst++ = '"';
                        s += 2;
                        continue;
                    }
                    s++;
                    break;
                }
                *dst++ = *s++;
            }
            while (is_blank(*s))
                s++;
            if (*s != ',' && *s != '\0')
                return pn_error_at(err, PN_ESYNTAX, file, lineno, (long)(s - line) + 1,
                                   "unexpected character '%c' after a quoted field", *s);
            char sep = *s;
            *dst = '\0';
            PN_CHECK(add_field(p, text, col, err));
            (*n)++;
            if (sep == '\0')
                return PN_OK;
            s++;
            continue;
        }
        char *end = s;
        while (*end != ',' && *end != '\0')
            end++;
        char sep = *end;
        char *t = end;
        while (t > s && is_blank(t[-1]))
            t--;
        *t = '\0';
        PN_CHECK(add_field(p, text, col, err));
        (*n)++;
        if (sep == '\0')
            return PN_OK;
        s = end + 1;
    }
}

static pn_status_t parse_all(parse_t *p, pn_error_t *err)
{
    pn_csv_t *csv = p->csv;
    char *s = csv->buf;
    /* a UTF-8 byte-order mark (spreadsheets write one) is no part of the
     * first column's name */
    if (!strncmp(s, "\xEF\xBB\xBF", 3))
        s += 3;
    long lineno = 0;
    int have_header = 0;
    size_t header_n = 0;
    while (*s) {
        char *nl = strchr(s, '\n');
        char *next = nl ? nl + 1 : s + strlen(s);
        lineno++;
        if (nl) {
            *nl = '\0';
            if (nl > s && nl[-1] == '\r')
                nl[-1] = '\0';
        } else {
            size_t l = strlen(s);
            if (l && s[l - 1] == '\r')
                s[l - 1] = '\0';
        }
        char *q = s;
        while (is_blank(*q))
            q++;
        if (*q != '\0' && *q != '#') {
            size_t first = p->n_fields, n;
            PN_CHECK(split_line(p, s, lineno, &n, err));
            if (!have_header) {
                have_header = 1;
                header_n = n;
                csv->header.line = lineno;
                csv->header.n = n;
                size_t dup = n, dup_first = 0;
                PN_CHECK(header_duplicate(p, first, n, &dup, &dup_first, err));
                for (size_t i = 0; i < n; i++) {
                    const pn_csv_field_t *f = &p->fields[first + i];
                    if (!f->text[0])
                        return pn_error_at(err, PN_ESYNTAX, csv->path, lineno, f->col,
                                           "empty header column %zu", i + 1);
                    if (i == dup)
                        return pn_error_at(err, PN_ESYNTAX, csv->path, lineno, f->col,
                                           "duplicate header column '%s'", f->text);
                }
                PN_CHECK(add_row(p, lineno, first, n, err));
            } else {
                if (n != header_n) {
                    long col = n > header_n ? p->fields[first + header_n].col : 1;
                    return pn_error_at(err, PN_ESYNTAX, csv->path, lineno, col,
                                       "row has %zu field%s, the header (line %ld) has %zu",
                                       n, n == 1 ? "" : "s", csv->header.line, header_n);
                }
                PN_CHECK(add_row(p, lineno, first, n, err));
            }
        }
        s = next;
    }
    if (!have_header)
        return pn_error_at(err, PN_ESYNTAX, csv->path, 1, 1,
                           "empty file, expected a header row");
    return PN_OK;
}

pn_status_t pn_csv_parse(pn_csv_t *csv, const char *text, size_t len, const char *name,
                         pn_error_t *err)
{
    if (!csv)
        return pn_error_set(err, PN_EINVAL, "pn_csv_parse: csv is NULL");
    memset(csv, 0, sizeof *csv);
    const char *nm = name ? name : "<csv>";
    csv->path = strdup(nm);
    csv->buf = malloc(len + 1);
    if (!csv->path || !csv->buf) {
        pn_csv_destroy(csv);
        return pn_error_set(err, PN_ENOMEM, "%s: out of memory", nm);
    }
    memcpy(csv->buf, text, len);
    csv->buf[len] = '\0';
    if (memchr(text, '\0', len)) {
        long line = 1;
        for (const char *c = text; *c; c++)
            line += *c == '\n';
        pn_status_t st = pn_error_at(err, PN_ESYNTAX, nm, line, 0,
                                     "NUL byte in the file (not a text CSV file)");
        pn_csv_destroy(csv);
        return st;
    }
    parse_t p = { .csv = csv };
    pn_status_t st = parse_all(&p, err);
    if (st != PN_OK) {
        free(p.fields);
        free(p.rows);
        free(p.row_first);
        pn_csv_destroy(csv);
        return st;
    }
    /* rows[0] is the header */
    csv->fields = p.fields;
    csv->header.f = p.fields + p.row_first[0];
    csv->n_rows = p.n_rows - 1;
    for (size_t i = 1; i < p.n_rows; i++) {
        p.rows[i].f = p.fields + p.row_first[i];
        p.rows[i - 1] = p.rows[i];
    }
    csv->rows = p.rows;
    free(p.row_first);
    return PN_OK;
}

pn_status_t pn_csv_read(pn_csv_t *csv, const char *path, pn_error_t *err)
{
    char *text;
    size_t len;
    if (!csv)
        return pn_error_set(err, PN_EINVAL, "pn_csv_read: csv is NULL");
    memset(csv, 0, sizeof *csv);
    if (pn_yaml_read_file(path, &text, &len) != PN_OK)
        return pn_error_at(err, PN_EIO, path, 0, 0, "cannot open: %s", pn_yaml_strerror(errno));
    pn_status_t st = pn_csv_parse(csv, text, len, path, err);
    free(text);
    return st;
}

long pn_csv_column(const pn_csv_t *csv, const char *name)
{
    for (size_t i = 0; i < csv->header.n; i++)
        if (!strcmp(csv->header.f[i].text, name))
            return (long)i;
    return -1;
}

pn_status_t pn_csv_require(const pn_csv_t *csv, const char *name, const char *expected,
                           long *idx, pn_error_t *err)
{
    *idx = pn_csv_column(csv, name);
    if (*idx < 0)
        return pn_error_at(err, PN_EINVAL, csv->path, csv->header.line, 1,
                           "missing column '%s' in the header (expected columns: %s)", name,
                           expected);
    return PN_OK;
}

pn_status_t pn_csv_u64(const pn_csv_t *csv, const pn_csv_row_t *row, size_t col,
                       const char *what, uint64_t lo, uint64_t hi, uint64_t *out,
                       pn_error_t *err)
{
    const pn_csv_field_t *f = &row->f[col];
    const char *s = f->text;
    uint64_t v = 0;
    int ok = *s != '\0';
    for (; ok && *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (d > 9 || v > (UINT64_MAX - d) / 10)
            ok = 0;
        else
            v = v * 10 + d;
    }
    if (!ok || v < lo || v > hi)
        return pn_error_at(err, PN_EINVAL, csv->path, row->line, f->col,
                           "%s: expected an integer between %llu and %llu, got '%s'", what,
                           (unsigned long long)lo, (unsigned long long)hi, f->text);
    *out = v;
    return PN_OK;
}

pn_status_t pn_csv_double(const pn_csv_t *csv, const pn_csv_row_t *row, size_t col,
                          const char *what, double above, double *out, pn_error_t *err)
{
    const pn_csv_field_t *f = &row->f[col];
    char *end;
    errno = 0;
    double v = f->text[0] ? strtod(f->text, &end) : 0;
    int ok = f->text[0] && *end == '\0' && isfinite(v) && errno != ERANGE;
    if (ok && above > -HUGE_VAL && !(v > above))
        ok = 0;
    if (!ok) {
        if (above > -HUGE_VAL)
            return pn_error_at(err, PN_EINVAL, csv->path, row->line, f->col,
                               "%s: expected a number greater than %g, got '%s'", what,
                               above, f->text);
        return pn_error_at(err, PN_EINVAL, csv->path, row->line, f->col,
                           "%s: expected a finite number, got '%s'", what, f->text);
    }
    *out = v;
    return PN_OK;
}

char *pn_csv_resolve_path(const char *path, const char *rel)
{
    if (rel[0] == '/')
        return strdup(rel);
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    if (slash && dlen == 0)
        dlen = 1;                 /* "/x.csv": the root directory */
    size_t rlen = strlen(rel);
    char *p = malloc(dlen + 1 + rlen + 1);
    if (!p)
        return NULL;
    if (!slash) {
        memcpy(p, rel, rlen + 1);   /* relative to the current directory */
        return p;
    }
    memcpy(p, path, dlen);
    if (p[dlen - 1] != '/')
        p[dlen++] = '/';
    memcpy(p + dlen, rel, rlen + 1);
    return p;
}

/* ---- sorted names ------------------------------------------------------------ */

/* qsort has no context argument: the names being sorted (one sort at a time
 * per thread). */
static _Thread_local const char *const *sort_names;

static int cmp_name_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strcmp(sort_names[x], sort_names[y]);
    return c ? c : (x > y) - (x < y);
}

pn_status_t pn_csv_names_init(pn_csv_names_t *s, const char *const *names, size_t n,
                              pn_error_t *err)
{
    s->names = names;
    s->n = n;
    s->order = malloc((n ? n : 1) * sizeof *s->order);
    if (!s->order)
        return pn_error_set(err, PN_ENOMEM, "out of memory for %zu names", n);
    for (size_t i = 0; i < n; i++)
        s->order[i] = i;
    sort_names = names;
    qsort(s->order, n, sizeof *s->order, cmp_name_index);
    sort_names = NULL;
    return PN_OK;
}

void pn_csv_names_destroy(pn_csv_names_t *s)
{
    if (s)
        free(s->order);
}

int pn_csv_names_dup(const pn_csv_names_t *s, size_t *dup, size_t *first)
{
    int found = 0;
    for (size_t a = 1; a < s->n; a++) {
        size_t i = s->order[a], j = s->order[a - 1];
        if (strcmp(s->names[i], s->names[j]))
            continue;
        /* j is earlier than i; the run's first member is the earliest */
        size_t r = a - 1;
        while (r > 0 && !strcmp(s->names[s->order[r - 1]], s->names[i]))
            r--;
        if (!found || i < *dup) {
            *dup = i;
            *first = s->order[r];
            found = 1;
        }
        while (a + 1 < s->n && !strcmp(s->names[s->order[a + 1]], s->names[i]))
            a++;
    }
    return found;
}

size_t pn_csv_names_find(const pn_csv_names_t *s, const char *key)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(s->names[s->order[mid]], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n && !strcmp(s->names[s->order[lo]], key) ? s->order[lo] : (size_t)-1;
}
