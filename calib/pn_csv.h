/* pn_csv.h - strict reading of small CSV files with a header row (measurements,
 * BBVs, block tables): '#' comment lines, blank lines, optional double quotes,
 * and every field located by file, line and column for error messages. */
#ifndef PN_CSV_H
#define PN_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "pn_error.h"

typedef struct pn_csv_field {
    const char *text;             /* NUL-terminated, unquoted, blanks around it trimmed */
    long col;                     /* 1-based byte column where the field starts */
} pn_csv_field_t;

typedef struct pn_csv_row {
    long line;                    /* 1-based line in the file */
    size_t n;                     /* fields in the row */
    pn_csv_field_t *f;
} pn_csv_row_t;

typedef struct pn_csv {
    char *path;                   /* the file as given: names it in messages */
    char *buf;                    /* the text, fields cut out of it in place */
    pn_csv_row_t header;
    pn_csv_row_t *rows;           /* data rows, in file order */
    size_t n_rows;
    pn_csv_field_t *fields;       /* storage of every row's fields */
} pn_csv_t;

/* Read the CSV file at path. Lines whose first non-blank character is '#' and
 * blank lines are skipped; the first other line is the header; every later
 * line is a data row that must have as many fields as the header. Fields are
 * separated by ',', may be enclosed in double quotes ("" inside stands for
 * one quote; a quoted field cannot span lines), and lose the spaces and tabs
 * around them; "\r\n" line ends are accepted. Errors, all one line:
 * PN_EIO "path: cannot open: <strerror>"; PN_ESYNTAX "path:1:1: empty file,
 * expected a header row" (no header: only comments or blank lines);
 * "path:L:C: row has N fields, the header (line H) has M"; "path:L:C:
 * unterminated quoted field" and "path:L:C: unexpected character after a
 * quoted field"; "path:L:C: empty header column" and "path:L:C: duplicate
 * header column 'x'". On success csv owns everything (pn_csv_destroy); on
 * error csv is left zeroed. O(file size). */
pn_status_t pn_csv_read(pn_csv_t *csv, const char *path, pn_error_t *err);

/* As pn_csv_read, from len bytes of text in memory; `name` stands for the file
 * in messages. */
pn_status_t pn_csv_parse(pn_csv_t *csv, const char *text, size_t len, const char *name,
                         pn_error_t *err);

/* Free what csv owns; csv may be NULL or zeroed. */
void pn_csv_destroy(pn_csv_t *csv);

/* Index of the header column `name` (exact match), or -1. O(columns). */
long pn_csv_column(const pn_csv_t *csv, const char *name);

/* As pn_csv_column, but a missing column is PN_EINVAL "path:H:1: missing
 * column 'name' in the header (expected columns: <expected>)", H being the
 * header's line. */
pn_status_t pn_csv_require(const pn_csv_t *csv, const char *name, const char *expected,
                           long *idx, pn_error_t *err);

/* Field `col` of `row` as an unsigned decimal integer (digits only) in
 * [lo, hi]; otherwise PN_EINVAL "path:L:C: <what>: expected an integer between
 * lo and hi, got 'text'". */
pn_status_t pn_csv_u64(const pn_csv_t *csv, const pn_csv_row_t *row, size_t col,
                       const char *what, uint64_t lo, uint64_t hi, uint64_t *out,
                       pn_error_t *err);

/* Field `col` of `row` as a finite number (strtod syntax, nothing after it)
 * greater than `above` (-HUGE_VAL: any finite number); otherwise PN_EINVAL
 * "path:L:C: <what>: expected a number [greater than X], got 'text'". */
pn_status_t pn_csv_double(const pn_csv_t *csv, const pn_csv_row_t *row, size_t col,
                          const char *what, double above, double *out, pn_error_t *err);

/* `rel` taken relative to the directory of the file `path`: "a/b.csv" and
 * "c.yaml" give "a/c.yaml"; a path without '/' gives rel unchanged; an
 * absolute rel is returned as is. Caller frees; NULL when out of memory. */
char *pn_csv_resolve_path(const char *path, const char *rel);

/* Names, sorted for finding: the indexes of names[0..n) in the order of
 * strcmp (ties by index). pn_csv_names_dup and pn_csv_names_find use it. */
typedef struct pn_csv_names {
    const char *const *names;
    size_t n;
    size_t *order;
} pn_csv_names_t;

/* Sort names[0..n) (borrowed: they must outlive s) into s. PN_ENOMEM.
 * O(n log n). Free with pn_csv_names_destroy. */
pn_status_t pn_csv_names_init(pn_csv_names_t *s, const char *const *names, size_t n,
                              pn_error_t *err);
void pn_csv_names_destroy(pn_csv_names_t *s);

/* The first name in order i that equals an earlier one: returns 1 with
 * *dup = i and *first = the earliest equal index, else 0. O(n). */
int pn_csv_names_dup(const pn_csv_names_t *s, size_t *dup, size_t *first);

/* The earliest index of a name equal to key, or (size_t)-1. O(log n). */
size_t pn_csv_names_find(const pn_csv_names_t *s, const char *key);

#endif
