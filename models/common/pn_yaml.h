/* pn_yaml.h - strict reading of small YAML files (configs, device profiles)
 * through libyaml's document tree: typed getters that check keys, types and
 * ranges and report errors as "file:line:col: ..." (1-based positions). */
#ifndef PN_YAML_H
#define PN_YAML_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include "pn_error.h"

/* One loaded document. `file` names the source in messages (not owned; it
 * must outlive the pn_yaml_t). */
typedef struct pn_yaml {
    yaml_document_t doc;
    int loaded;
    const char *file;
} pn_yaml_t;

/* The largest file pn_yaml_read_file reads (configs, profiles, CSVs). */
#define PN_YAML_FILE_MAX ((size_t)64 << 20)
/* The largest Nsight Compute page pnsim import reads (a report of a few hundred
 * launches prints a source page of a few hundred MiB). */
#define PN_NCU_FILE_MAX ((size_t)1 << 30)

/* The deepest nesting of mappings and sequences pn_yaml_load accepts. */
#define PN_YAML_MAX_DEPTH 64

/* Read the whole file at path into a NUL-terminated buffer (*text, *len; the
 * caller frees *text). A regular file or a pipe (stdin, <(...)) is read; a
 * directory, a device or a socket is refused with errno ENODEV, a file of
 * more than PN_YAML_FILE_MAX bytes with EFBIG (a regular file by its size,
 * before reading; a pipe once that much has come). On failure returns PN_EIO
 * with errno set and nothing allocated; err is not touched (the caller words
 * the message with pn_yaml_strerror). O(file size). */
pn_status_t pn_yaml_read_file(const char *path, char **text, size_t *len);

/* The same with a limit of max bytes (PN_YAML_FILE_MAX or PN_NCU_FILE_MAX). */
pn_status_t pn_yaml_read_file_max(const char *path, size_t max, char **text, size_t *len);

/* The reason for errno e of pn_yaml_read_file, for messages: "not a regular
 * file" (ENODEV), "file larger than the 64 MiB limit" (EFBIG), else
 * strerror(e). */
const char *pn_yaml_strerror(int e);

/* The same for a read with limit max: "file larger than the N GiB limit" (or
 * N MiB when max is no whole number of GiB), in a static buffer. */
const char *pn_yaml_strerror_max(int e, size_t max);

/* Parse text (len bytes) as exactly one YAML document. A syntax error (bytes
 * that are not UTF-8 included), a second document, an alias ("*name": refused,
 * so that no input expands beyond its size) or nesting deeper than
 * PN_YAML_MAX_DEPTH is PN_ESYNTAX at its position. On success y owns the
 * document (pn_yaml_destroy); on error y is left destroyed. */
pn_status_t pn_yaml_load(pn_yaml_t *y, const char *text, size_t len, const char *file,
                         pn_error_t *err);

/* Make every later pn_yaml_load stop reading once *stop is non-zero (a
 * program's signal handler sets it): the load then fails with PN_EINTR
 * "file: interrupted while reading". NULL: loads run to the end. Not
 * thread-safe; call it once at start-up. */
void pn_yaml_set_stop(const volatile sig_atomic_t *stop);

/* Free the document; y may be NULL or zeroed. */
void pn_yaml_destroy(pn_yaml_t *y);

/* The root node, or NULL for an empty document. */
yaml_node_t *pn_yaml_root(pn_yaml_t *y);

/* 1-based line and column of a node (0 for NULL). */
long pn_yaml_line(const yaml_node_t *n);
long pn_yaml_col(const yaml_node_t *n);

/* Write a printable, single-line, possibly shortened copy of s[0..len) into
 * buf (size >= 8) for use inside messages; returns buf. */
char *pn_yaml_snippet(char *buf, size_t size, const char *s, size_t len);

/* 1 when n is a plain scalar written with decimal-number characters only
 * (digits, sign, '.', 'e'/'E'): what pn_yaml_number reads, valid or not. */
int pn_yaml_is_decimal(const yaml_node_t *n);

/* 1 when n is a null scalar: empty plain, "~", "null", "Null", "NULL". */
int pn_yaml_is_null(const yaml_node_t *n);

/* Check that n is a node of the given type; else PN_EINVAL at n:
 * "<what> must be a mapping, got scalar '5'". */
pn_status_t pn_yaml_expect(pn_yaml_t *y, yaml_node_t *n, yaml_node_type_t type,
                           const char *what, pn_error_t *err);

/* PN_EINVAL at n: "<what> must be <expected>, got <what n is>". */
pn_status_t pn_yaml_type_error(pn_yaml_t *y, yaml_node_t *n, const char *what,
                               const char *expected, pn_error_t *err);

/* Check the keys of mapping map: each a distinct, non-null scalar and,
 * when allowed (NULL-terminated) is non-NULL, one of allowed. `what` names
 * the mapping in messages (NULL at the top level). Errors point at the key.
 * O(n^2) in the number of keys. */
pn_status_t pn_yaml_check_keys(pn_yaml_t *y, yaml_node_t *map, const char *what,
                               const char *const *allowed, pn_error_t *err);

/* The value under key in mapping map, or NULL when absent; *key_node (when
 * key_node is non-NULL) receives the key node or NULL. */
yaml_node_t *pn_yaml_get(pn_yaml_t *y, yaml_node_t *map, const char *key,
                         yaml_node_t **key_node);

/* Node of a sequence item or a mapping pair (NULL when out of range). */
yaml_node_t *pn_yaml_item(pn_yaml_t *y, yaml_node_t *seq, size_t i);
size_t pn_yaml_len(const yaml_node_t *n);   /* items, pairs, or 0 for scalars */
yaml_node_t *pn_yaml_pair_key(pn_yaml_t *y, yaml_node_t *map, size_t i);
yaml_node_t *pn_yaml_pair_value(pn_yaml_t *y, yaml_node_t *map, size_t i);

/* A plain (unquoted) decimal integer scalar [+-]?[0-9]+ within [min, max];
 * else PN_EINVAL at n: "<what> must be an integer between min and max, got X". */
pn_status_t pn_yaml_uint(pn_yaml_t *y, yaml_node_t *n, const char *what, uint64_t min,
                         uint64_t max, uint64_t *out, pn_error_t *err);

/* A plain scalar that is a finite decimal number (strtod syntax, no
 * inf/nan); else PN_EINVAL at n. */
pn_status_t pn_yaml_number(pn_yaml_t *y, yaml_node_t *n, const char *what, double *out,
                           pn_error_t *err);

/* A non-null, non-empty scalar without control characters (tab allowed),
 * copied into *out (caller frees); else PN_EINVAL (PN_ENOMEM) at n and *out
 * untouched. */
pn_status_t pn_yaml_string(pn_yaml_t *y, yaml_node_t *n, const char *what, char **out,
                           pn_error_t *err);

/* strdup that returns NULL on NULL input or allocation failure. */
char *pn_yaml_strdup(const char *s);

#endif
