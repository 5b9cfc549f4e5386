/* pn_yaml.c - strict, position-reporting helpers over libyaml's document API,
 * shared by the config reader (pn_config.c) and the device reader (pn_device.c). */
#include "pn_yaml.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SNIP 64

char *pn_yaml_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

const char *pn_yaml_strerror(int e)
{
    return pn_yaml_strerror_max(e, PN_YAML_FILE_MAX);
}

const char *pn_yaml_strerror_max(int e, size_t max)
{
    if (e == ENODEV)
        return "not a regular file";
    if (e == EFBIG) {
        static char msg[64];
        if (max % ((size_t)1 << 30) == 0)
            snprintf(msg, sizeof msg, "file larger than the %zu GiB limit", max >> 30);
        else
            snprintf(msg, sizeof msg, "file larger than the %zu MiB limit", max >> 20);
        return msg;
    }
    return strerror(e);
}

/* Close f and fail with errno e. */
static pn_status_t read_fail(FILE *f, char *buf, int e)
{
    free(buf);
    fclose(f);
    errno = e;
    return PN_EIO;
}

pn_status_t pn_yaml_read_file(const char *path, char **text, size_t *len)
{
    return pn_yaml_read_file_max(path, PN_YAML_FILE_MAX, text, len);
}

pn_status_t pn_yaml_read_file_max(const char *path, size_t max, char **text, size_t *len)
{
    struct stat sb;
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return PN_EIO;
    /* a directory, a device (/dev/zero), a socket: refused; a pipe (stdin,
     * process substitution) is read up to the limit */
    if (fstat(fileno(f), &sb) != 0)
        return read_fail(f, NULL, errno);
    if (!S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode))
        return read_fail(f, NULL, ENODEV);
    if (S_ISREG(sb.st_mode) && (uintmax_t)sb.st_size > max)
        return read_fail(f, NULL, EFBIG);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf)
        return read_fail(f, NULL, ENOMEM);
    for (;;) {
        if (cap - n < 2) {
            char *nb = realloc(buf, cap * 2);
            if (!nb)
                return read_fail(f, buf, ENOMEM);
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > max)
            return read_fail(f, buf, EFBIG);
        if (got == 0) {
            if (ferror(f))
                return read_fail(f, buf, errno ? errno : EIO);
            break;
        }
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return PN_OK;
}

/* Line and column (1-based) of byte offset off in text, for reader errors
 * that come without a mark. */
static void offset_pos(const char *text, size_t len, size_t off, long *line, long *col)
{
    long l = 1, c = 1;
    if (off > len)
        off = len;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

static pn_status_t parser_error(yaml_parser_t *p, const char *text, size_t len,
                                const char *file, pn_error_t *err)
{
    const char *problem = p->problem ? p->problem : "unknown error";
    long line, col;
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        return pn_error_at(err, PN_ENOMEM, file, 0, 0, "out of memory while reading YAML");
    case YAML_READER_ERROR:
        offset_pos(text, len, p->problem_offset, &line, &col);
        if (p->problem_value != -1)
            return pn_error_at(err, PN_ESYNTAX, file, line, col,
                               "invalid YAML: %s (byte #%X at offset %zu)", problem,
                               (unsigned)p->problem_value, p->problem_offset);
        return pn_error_at(err, PN_ESYNTAX, file, line, col, "invalid YAML: %s", problem);
    default:
        line = (long)p->problem_mark.line + 1;
        col = (long)p->problem_mark.column + 1;
        if (p->context)
            return pn_error_at(err, PN_ESYNTAX, file, line, col,
                               "invalid YAML: %s (%s at line %ld, column %ld)",
                               problem, p->context, (long)p->context_mark.line + 1,
                               (long)p->context_mark.column + 1);
        return pn_error_at(err, PN_ESYNTAX, file, line, col, "invalid YAML: %s", problem);
    }
}

/* A first pass over the events of text: YAML syntax errors, aliases (an
 * alias can stand for a whole tree, and aliases of aliases for exponentially
 * many nodes: "billion laughs") and nesting deeper than PN_YAML_MAX_DEPTH are
 * errors at their position. O(len). */
/* ---- input that a signal can stop ------------------------------------------ */

static const volatile sig_atomic_t *load_stop;

void pn_yaml_set_stop(const volatile sig_atomic_t *stop)
{
    load_stop = stop;
}

/* The parser's input: the text, fed 64 KiB at a time, and nothing more once a
 * stop was requested (the parser then fails, and the caller reports
 * PN_EINTR). */
typedef struct feed {
    const unsigned char *p;
    size_t left;
} feed_t;

static int feed_read(void *data, unsigned char *buf, size_t size, size_t *got)
{
    feed_t *f = data;
    if (load_stop && *load_stop)
        return 0;
    size_t n = size < f->left ? size : f->left;
    if (n > 65536)
        n = 65536;
    memcpy(buf, f->p, n);
    f->p += n;
    f->left -= n;
    *got = n;
    return 1;
}

static pn_status_t stopped_error(const char *file, pn_error_t *err)
{
    return pn_error_at(err, PN_EINTR, file, 0, 0, "interrupted while reading");
}

static pn_status_t check_events(const char *text, size_t len, const char *file,
                                pn_error_t *err)
{
    yaml_parser_t parser;
    yaml_event_t ev;
    pn_status_t st = PN_OK;
    int depth = 0, done = 0;
    char snip[SNIP];

    if (!yaml_parser_initialize(&parser))
        return pn_error_at(err, PN_ENOMEM, file, 0, 0, "out of memory while reading YAML");
    feed_t feed = { (const unsigned char *)text, len };
    yaml_parser_set_input(&parser, feed_read, &feed);
    while (st == PN_OK && !done) {
        if (!yaml_parser_parse(&parser, &ev)) {
            st = load_stop && *load_stop ? stopped_error(file, err)
                                         : parser_error(&parser, text, len, file, err);
            break;
        }
        long line = (long)ev.start_mark.line + 1, col = (long)ev.start_mark.column + 1;
        switch (ev.type) {
        case YAML_ALIAS_EVENT:
            pn_yaml_snippet(snip, sizeof snip, (const char *)ev.data.alias.anchor,
                            strlen((const char *)ev.data.alias.anchor));
            st = pn_error_at(err, PN_ESYNTAX, file, line, col,
                             "YAML aliases are not supported (found '*%s'): write the value "
                             "out", snip);
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > PN_YAML_MAX_DEPTH)
                st = pn_error_at(err, PN_ESYNTAX, file, line, col,
                                 "YAML nested deeper than %d levels", PN_YAML_MAX_DEPTH);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    return st;
}

pn_status_t pn_yaml_load(pn_yaml_t *y, const char *text, size_t len, const char *file,
                         pn_error_t *err)
{
    memset(y, 0, sizeof *y);
    y->file = file;
    PN_CHECK(check_events(text, len, file, err));
    yaml_parser_t parser;
    pn_status_t st = PN_OK;

    if (!yaml_parser_initialize(&parser))
        return pn_error_at(err, PN_ENOMEM, file, 0, 0, "out of memory while reading YAML");
    feed_t feed = { (const unsigned char *)text, len };
    yaml_parser_set_input(&parser, feed_read, &feed);
    if (!yaml_parser_load(&parser, &y->doc)) {
        st = load_stop && *load_stop ? stopped_error(file, err)
                                     : parser_error(&parser, text, len, file, err);
        yaml_parser_delete(&parser);
        memset(&y->doc, 0, sizeof y->doc);
        return st;
    }
    y->loaded = 1;
    if (yaml_document_get_root_node(&y->doc)) {
        yaml_document_t second;
        if (!yaml_parser_load(&parser, &second)) {
            st = parser_error(&parser, text, len, file, err);
        } else {
            if (yaml_document_get_root_node(&second))
                st = pn_error_at(err, PN_ESYNTAX, file, (long)second.start_mark.line + 1,
                                 (long)second.start_mark.column + 1,
                                 "found a second YAML document, expected exactly one");
            yaml_document_delete(&second);
        }
    }
    yaml_parser_delete(&parser);
    if (st != PN_OK)
        pn_yaml_destroy(y);
    return st;
}

void pn_yaml_destroy(pn_yaml_t *y)
{
    if (!y)
        return;
    if (y->loaded)
        yaml_document_delete(&y->doc);
    memset(y, 0, sizeof *y);
}

yaml_node_t *pn_yaml_root(pn_yaml_t *y)
{
    return y->loaded ? yaml_document_get_root_node(&y->doc) : NULL;
}

long pn_yaml_line(const yaml_node_t *n)
{
    return n ? (long)n->start_mark.line + 1 : 0;
}

long pn_yaml_col(const yaml_node_t *n)
{
    return n ? (long)n->start_mark.column + 1 : 0;
}

char *pn_yaml_snippet(char *buf, size_t size, const char *s, size_t len)
{
    size_t o = 0, i = 0;
    /* room for one escape (4) plus "..." and NUL */
    while (i < len && o + 4 + 4 < size) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') {
            buf[o++] = '\\';
            buf[o++] = 'n';
        } else if (c == '\t') {
            buf[o++] = '\\';
            buf[o++] = 't';
        } else if (c < 0x20 || c == 0x7F) {
            o += (size_t)snprintf(buf + o, size - o, "\\x%02X", c);
        } else {
            buf[o++] = (char)c;
        }
        i++;
    }
    if (i < len) {
        /* do not end inside a UTF-8 sequence */
        while (o > 0 && ((unsigned char)buf[o - 1] & 0xC0) == 0x80)
            o--;
        if (o > 0 && ((unsigned char)buf[o - 1] & 0xC0) == 0xC0)
            o--;
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
    return buf;
}

static const char *scalar(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

int pn_yaml_is_null(const yaml_node_t *n)
{
    if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    const char *s = scalar(n);
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
           !strcmp(s, "NULL");
}

/* "scalar '5'", "quoted string '5'", "null", "a list", "a mapping" */
static const char *describe(const yaml_node_t *n, char *buf, size_t size)
{
    char snip[SNIP];
    if (!n)
        return "nothing";
    switch (n->type) {
    case YAML_MAPPING_NODE:
        return "a mapping";
    case YAML_SEQUENCE_NODE:
        return "a list";
    case YAML_SCALAR_NODE:
        if (pn_yaml_is_null(n))
            return "null";
        pn_yaml_snippet(snip, sizeof snip, scalar(n), n->data.scalar.length);
        snprintf(buf, size, "%s '%s'",
                 n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? "scalar" : "quoted string",
                 snip);
        return buf;
    default:
        return "nothing";
    }
}

static const char *type_name(yaml_node_type_t t)
{
    switch (t) {
    case YAML_MAPPING_NODE:  return "a mapping";
    case YAML_SEQUENCE_NODE: return "a list";
    default:                 return "a scalar";
    }
}

pn_status_t pn_yaml_type_error(pn_yaml_t *y, yaml_node_t *n, const char *what,
                               const char *expected, pn_error_t *err)
{
    char buf[SNIP + 32];
    return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(n), pn_yaml_col(n),
                       "%s must be %s, got %s", what, expected, describe(n, buf, sizeof buf));
}

pn_status_t pn_yaml_expect(pn_yaml_t *y, yaml_node_t *n, yaml_node_type_t type,
                           const char *what, pn_error_t *err)
{
    if (n && n->type == type)
        return PN_OK;
    return pn_yaml_type_error(y, n, what, type_name(type), err);
}

size_t pn_yaml_len(const yaml_node_t *n)
{
    if (!n)
        return 0;
    if (n->type == YAML_SEQUENCE_NODE)
        return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (n->type == YAML_MAPPING_NODE)
        return (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
    return 0;
}

yaml_node_t *pn_yaml_item(pn_yaml_t *y, yaml_node_t *seq, size_t i)
{
    if (!seq || seq->type != YAML_SEQUENCE_NODE || i >= pn_yaml_len(seq))
        return NULL;
    return yaml_document_get_node(&y->doc, seq->data.sequence.items.start[i]);
}

yaml_node_t *pn_yaml_pair_key(pn_yaml_t *y, yaml_node_t *map, size_t i)
{
    if (!map || map->type != YAML_MAPPING_NODE || i >= pn_yaml_len(map))
        return NULL;
    return yaml_document_get_node(&y->doc, map->data.mapping.pairs.start[i].key);
}

yaml_node_t *pn_yaml_pair_value(pn_yaml_t *y, yaml_node_t *map, size_t i)
{
    if (!map || map->type != YAML_MAPPING_NODE || i >= pn_yaml_len(map))
        return NULL;
    return yaml_document_get_node(&y->doc, map->data.mapping.pairs.start[i].value);
}

static int key_is(const yaml_node_t *k, const char *key)
{
    return k && k->type == YAML_SCALAR_NODE && strlen(key) == k->data.scalar.length &&
           !memcmp(k->data.scalar.value, key, k->data.scalar.length);
}

/* One key of a mapping, for sorting: its bytes and its index. */
typedef struct key_ref {
    const unsigned char *v;
    size_t len, i;
} key_ref_t;

static int cmp_key_ref(const void *a, const void *b)
{
    const key_ref_t *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    int c = memcmp(x->v, y->v, x->len);
    if (c)
        return c;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* *out[i] = the index of the first key of map equal to key i (i itself when
 * none before it), for the scalar keys before the first key that is not a
 * scalar (the others are i). O(n log n): sorted by bytes, then index.
 * PN_ENOMEM, *out NULL, when memory runs out. */
static pn_status_t first_occurrences(pn_yaml_t *y, yaml_node_t *map, size_t n, size_t **out)
{
    key_ref_t *refs = malloc(n * sizeof *refs);
    size_t *first = malloc(n * sizeof *first);
    if (!refs || !first) {
        free(refs);
        free(first);
        *out = NULL;
        return PN_ENOMEM;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        first[i] = i;
        yaml_node_t *k = pn_yaml_pair_key(y, map, i);
        if (!k || k->type != YAML_SCALAR_NODE)
            break;
        refs[m++] = (key_ref_t){ k->data.scalar.value, k->data.scalar.length, i };
    }
    qsort(refs, m, sizeof *refs, cmp_key_ref);
    for (size_t a = 1; a < m; a++)
        if (refs[a].len == refs[a - 1].len && !memcmp(refs[a].v, refs[a - 1].v, refs[a].len))
            first[refs[a].i] = first[refs[a - 1].i];
    free(refs);
    *out = first;
    return PN_OK;
}

pn_status_t pn_yaml_check_keys(pn_yaml_t *y, yaml_node_t *map, const char *what,
                               const char *const *allowed, pn_error_t *err)
{
    char snip[SNIP];
    size_t n = pn_yaml_len(map);
    size_t *first = NULL;
    if (n > 1 && first_occurrences(y, map, n, &first) != PN_OK)
        return pn_error_set(err, PN_ENOMEM, "%s: out of memory for %zu keys", y->file, n);
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *k = pn_yaml_pair_key(y, map, i);
        if (!k || k->type != YAML_SCALAR_NODE || pn_yaml_is_null(k)) {
            char buf[SNIP + 32];
            free(first);
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(k), pn_yaml_col(k),
                               "%s%s: a key must be a plain name, got %s",
                               what ? "in " : "", what ? what : "top level",
                               describe(k, buf, sizeof buf));
        }
        pn_yaml_snippet(snip, sizeof snip, scalar(k), k->data.scalar.length);
        if (first && first[i] != i) {
            yaml_node_t *o = pn_yaml_pair_key(y, map, first[i]);
            free(first);
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(k), pn_yaml_col(k),
                               "duplicate key '%s'%s%s (first at line %ld, column %ld)",
                               snip, what ? " in " : "", what ? what : "",
                               pn_yaml_line(o), pn_yaml_col(o));
        }
        if (!allowed)
            continue;
        size_t a = 0;
        while (allowed[a] && !key_is(k, allowed[a]))
            a++;
        if (allowed[a])
            continue;
        char list[1024];
        size_t o = 0;
        list[0] = '\0';
        for (a = 0; allowed[a] && o < sizeof list; a++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", a ? ", " : "", allowed[a]);
        free(first);
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(k), pn_yaml_col(k),
                           "unknown key '%s'%s%s (expected one of: %s)", snip,
                           what ? " in " : "", what ? what : "", list);
    }
    free(first);
    return PN_OK;
}

yaml_node_t *pn_yaml_get(pn_yaml_t *y, yaml_node_t *map, const char *key,
                         yaml_node_t **key_node)
{
    size_t n = pn_yaml_len(map);
    if (key_node)
        *key_node = NULL;
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *k = pn_yaml_pair_key(y, map, i);
        if (key_is(k, key)) {
            if (key_node)
                *key_node = k;
            return pn_yaml_pair_value(y, map, i);
        }
    }
    return NULL;
}

pn_status_t pn_yaml_uint(pn_yaml_t *y, yaml_node_t *n, const char *what, uint64_t min,
                         uint64_t max, uint64_t *out, pn_error_t *err)
{
    char expected[96];
    snprintf(expected, sizeof expected, "an integer between %llu and %llu",
             (unsigned long long)min, (unsigned long long)max);
    if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return pn_yaml_type_error(y, n, what, expected, err);
    const char *s = scalar(n);
    int neg = 0, over = 0;
    size_t i = 0;
    uint64_t v = 0;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        i = 1;
    }
    if (s[i] < '0' || s[i] > '9')
        return pn_yaml_type_error(y, n, what, expected, err);
    for (; s[i]; i++) {
        if (s[i] < '0' || s[i] > '9')
            return pn_yaml_type_error(y, n, what, expected, err);
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            over = 1;
        else
            v = v * 10 + d;
    }
    if (over || (neg && v != 0) || v < min || v > max) {
        char snip[SNIP];
        pn_yaml_snippet(snip, sizeof snip, s, n->data.scalar.length);
        return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(n), pn_yaml_col(n),
                           "%s must be %s, got %s", what, expected, snip);
    }
    *out = v;
    return PN_OK;
}

int pn_yaml_is_decimal(const yaml_node_t *n)
{
    if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
        n->data.scalar.length == 0)
        return 0;
    for (size_t i = 0; i < n->data.scalar.length; i++)
        if (!n->data.scalar.value[i] || !strchr("0123456789+-.eE", n->data.scalar.value[i]))
            return 0;
    return 1;
}

pn_status_t pn_yaml_number(pn_yaml_t *y, yaml_node_t *n, const char *what, double *out,
                           pn_error_t *err)
{
    const char *expected = "a finite number";
    /* decimal syntax only: strtod would also take hex, inf and nan */
    if (!pn_yaml_is_decimal(n))
        return pn_yaml_type_error(y, n, what, expected, err);
    const char *s = scalar(n);
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || end == s || *end || !isfinite(v) || errno == ERANGE)
        return pn_yaml_type_error(y, n, what, expected, err);
    *out = v;
    return PN_OK;
}

pn_status_t pn_yaml_string(pn_yaml_t *y, yaml_node_t *n, const char *what, char **out,
                           pn_error_t *err)
{
    if (!n || n->type != YAML_SCALAR_NODE || pn_yaml_is_null(n) || n->data.scalar.length == 0)
        return pn_yaml_type_error(y, n, what, "a non-empty string", err);
    for (size_t i = 0; i < n->data.scalar.length; i++) {
        unsigned char c = n->data.scalar.value[i];
        if ((c < 0x20 && c != '\t') || c == 0x7F)
            return pn_error_at(err, PN_EINVAL, y->file, pn_yaml_line(n), pn_yaml_col(n),
                               "%s must be a single line of text, got the control character "
                               "0x%02X at character %zu", what, c, i + 1);
    }
    char *d = pn_yaml_strdup(scalar(n));
    if (!d)
        return pn_error_at(err, PN_ENOMEM, y->file, pn_yaml_line(n), pn_yaml_col(n),
                           "out of memory");
    *out = d;
    return PN_OK;
}
