/* pn_config.c - the pnsim YAML configuration: strict reading with libyaml,
 * count expressions checked by a front end that mirrors libmatheval's grammar
 * and evaluated by libmatheval, and resolution against a device profile. */
#include "pn_config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <matheval.h>

#include "pn_yaml.h"

const char *const pn_kind_names[PN_KIND_COUNT] = {"arith", "shared", "global"};

/* Ranges of the config's integers (spec/config.md). */
#define MAX_RUNS       1000000u
#define MAX_THREADS    1048576u
#define MAX_WARP_INDEX (MAX_THREADS / 32u - 1u)
#define MAX_SCHEDULERS 64u
#define WARP_THREADS   32u
#define MAX_EXPR_LEN   1000u  /* keeps libmatheval's parser stack (10000) far away */
#define MAX_EXPR_DEPTH 200

#define DEFAULT_DEVICE    "gtx960m"
#define DEFAULT_RUNS      10u
#define DEFAULT_SEED      1u
#define DEFAULT_MAX_STEPS UINT64_C(100000000)

static const char *const top_keys[] = {"device", "model", "params", "kernel",
                                       "simulation", "sweep", NULL};
static const char *const model_keys[] = {"schedulers", "latency", "selection", NULL};
static const char *const latency_keys[] = {"global", "shared", NULL};
static const char *const kernel_keys[] = {"name", "threads", "counts", "program", "warps",
                                           NULL};
static const char *const counts_keys[] = {"arith", "shared", "global", NULL};
static const char *const override_keys[] = {"warp", "arith", "shared", "global", "program", NULL};
static const char *const segment_keys[] = {"repeat", "body", NULL};
static const char *const sim_keys[] = {"runs", "seed", "max_steps", NULL};
static const char *const selections[] = {"paper", NULL};

/* Names that expressions or sweeps give a meaning of their own. */
static const char *const reserved_names[] = {"threads", "warps", "warp", "schedulers",
                                             "global", "shared", NULL};

/* libmatheval 1.1.11's built-in constants and one-argument functions. */
static const char *const mv_constants[] = {"e", "log2e", "log10e", "ln2", "ln10", "pi",
                                           "pi_2", "pi_4", "1_pi", "2_pi", "2_sqrtpi",
                                           "sqrt2", "sqrt1_2", NULL};
static const char *const mv_functions[] = {
    "exp", "log", "sqrt", "sin", "cos", "tan", "cot", "sec", "csc", "asin", "acos",
    "atan", "acot", "asec", "acsc", "sinh", "cosh", "tanh", "coth", "sech", "csch",
    "asinh", "acosh", "atanh", "acoth", "asech", "acsch", "abs", "step", "delta",
    "nandelta", "erf", NULL};

static pthread_mutex_t mv_lock = PTHREAD_MUTEX_INITIALIZER;

static char var_threads[] = "threads";
static char var_warps[] = "warps";
static char var_warp[] = "warp";

static pn_pos_t pos_of(const yaml_node_t *n)
{
    pn_pos_t p = {pn_yaml_line(n), pn_yaml_col(n)};
    return p;
}

static int in_list(const char *const *list, const char *s, size_t n)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !strncmp(list[i], s, n))
            return 1;
    return 0;
}

/* ---- expression front end ------------------------------------------------
 * libmatheval's flex scanner echoes characters it cannot match to stdout and
 * its parser leaks on syntax errors, so every expression is tokenised and
 * parsed here first, with the same tokens and grammar:
 *   expr    := operand (('+'|'-'|'*'|'/'|'^') operand)*
 *   operand := '-'* primary
 *   primary := NUMBER | CONSTANT | VARIABLE | FUNCTION '(' expr ')' | '(' expr ')'
 * and only text accepted here reaches evaluator_create. */

enum tok { T_END, T_NUM, T_CONST, T_FUNC, T_VAR, T_BINOP, T_MINUS, T_LP, T_RP, T_BAD };

typedef struct lexer {
    const char *s;
    size_t i;          /* next character */
    enum tok t;        /* current token */
    size_t start, len; /* its text */
    int depth;
    char msg[160];     /* first syntax error */
    /* variable check */
    const pn_config_t *cfg;
    char unknown[64];  /* first unknown variable */
} lexer_t;

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

/* Length of libmatheval's {number} at s, 0 if none. */
static size_t number_len(const char *s)
{
    size_t j = 0, digits = 0;
    while (is_digit(s[j]))
        j++, digits++;
    if (s[j] == '.') {
        size_t k = j + 1;
        while (is_digit(s[k]))
            k++, digits++;
        if (digits)
            j = k;
    }
    if (!digits)
        return 0;
    if (s[j] == 'e' || s[j] == 'E') {
        size_t k = j + 1;
        if (s[k] == '+' || s[k] == '-')
            k++;
        if (is_digit(s[k])) {
            while (is_digit(s[k]))
                k++;
            j = k;
        }
    }
    return j;
}

static void lex_next(lexer_t *L)
{
    const char *s = L->s;
    while (s[L->i] == ' ' || s[L->i] == '\t')
        L->i++;
    L->start = L->i;
    char c = s[L->i];
    size_t n = 0;
    if (!c) {
        L->t = T_END;
    } else if (is_digit(c) || c == '.') {
        /* constants that start with a digit win over the number (longest match) */
        if (!strncmp(s + L->i, "2_sqrtpi", 8))
            n = 8, L->t = T_CONST;
        else if (!strncmp(s + L->i, "1_pi", 4) || !strncmp(s + L->i, "2_pi", 4))
            n = 4, L->t = T_CONST;
        else if ((n = number_len(s + L->i)) != 0)
            L->t = T_NUM;
        else
            n = 1, L->t = T_BAD;
    } else if (is_alpha(c)) {
        while (is_alpha(s[L->i + n]) || is_digit(s[L->i + n]))
            n++;
        if (in_list(mv_constants, s + L->i, n))
            L->t = T_CONST;
        else if (in_list(mv_functions, s + L->i, n))
            L->t = T_FUNC;
        else
            L->t = T_VAR;
    } else if (c == '+' || c == '*' || c == '/' || c == '^') {
        n = 1, L->t = T_BINOP;
    } else if (c == '-') {
        n = 1, L->t = T_MINUS;
    } else if (c == '(') {
        n = 1, L->t = T_LP;
    } else if (c == ')') {
        n = 1, L->t = T_RP;
    } else {
        n = 1, L->t = T_BAD;
    }
    L->len = n;
    L->i += n;
}

static int lex_fail(lexer_t *L, const char *expected)
{
    if (L->msg[0])
        return 0;
    if (L->t == T_END) {
        snprintf(L->msg, sizeof L->msg, "expected %s at the end", expected);
    } else if (L->t == T_BAD) {
        unsigned char c = (unsigned char)L->s[L->start];
        if (c >= 0x20 && c < 0x7F)
            snprintf(L->msg, sizeof L->msg, "unexpected character '%c' at character %zu",
                     c, L->start + 1);
        else if (c < 0x20 || c == 0x7F)
            snprintf(L->msg, sizeof L->msg,
                     "unexpected control character 0x%02X at character %zu", c, L->start + 1);
        else
            snprintf(L->msg, sizeof L->msg,
                     "unexpected byte 0x%02X at character %zu (expressions are ASCII)", c,
                     L->start + 1);
    } else {
        int n = L->len > 40 ? 40 : (int)L->len;
        snprintf(L->msg, sizeof L->msg, "expected %s at character %zu, got '%.*s'", expected,
                 L->start + 1, n, L->s + L->start);
    }
    return 0;
}

static int is_known_var(const pn_config_t *cfg, const char *s, size_t n)
{
    if ((n == 7 && !strncmp(s, "threads", 7)) || (n == 5 && !strncmp(s, "warps", 5)) ||
        (n == 4 && !strncmp(s, "warp", 4)))
        return 1;
    for (size_t i = 0; i < cfg->n_params; i++)
        if (strlen(cfg->params[i].name) == n && !strncmp(cfg->params[i].name, s, n))
            return 1;
    return 0;
}

static int parse_expr(lexer_t *L);

/* '(' expr ')' with the current token at '('. */
static int parse_paren(lexer_t *L)
{
    if (++L->depth > MAX_EXPR_DEPTH) {
        snprintf(L->msg, sizeof L->msg, "parentheses nested deeper than %d", MAX_EXPR_DEPTH);
        return 0;
    }
    lex_next(L);
    if (!parse_expr(L))
        return 0;
    if (L->t != T_RP)
        return lex_fail(L, "an operator or ')'");
    L->depth--;
    lex_next(L);
    return 1;
}

static int parse_operand(lexer_t *L)
{
    size_t at, n;
    while (L->t == T_MINUS)
        lex_next(L);
    at = L->start;
    n = L->len;
    switch (L->t) {
    case T_NUM:
    case T_CONST:
        lex_next(L);
        return 1;
    case T_VAR:
        if (!L->unknown[0] && !is_known_var(L->cfg, L->s + at, n))
            snprintf(L->unknown, sizeof L->unknown, "%.*s",
                     (int)(n < sizeof L->unknown - 1 ? n : sizeof L->unknown - 1), L->s + at);
        lex_next(L);
        if (L->t == T_LP) {
            snprintf(L->msg, sizeof L->msg, "unknown function '%.*s' at character %zu",
                     (int)(n > 40 ? 40 : n), L->s + at, at + 1);
            return 0;
        }
        return 1;
    case T_FUNC:
        lex_next(L);
        if (L->t != T_LP) {
            snprintf(L->msg, sizeof L->msg,
                     "expected '(' after the function '%.*s' at character %zu", (int)n,
                     L->s + at, at + 1);
            return 0;
        }
        return parse_paren(L);
    case T_LP:
        return parse_paren(L);
    default:
        return lex_fail(L, "a number, a variable, a function or '('");
    }
}

static int parse_expr(lexer_t *L)
{
    if (!parse_operand(L))
        return 0;
    while (L->t == T_BINOP || L->t == T_MINUS) {
        lex_next(L);
        if (!parse_operand(L))
            return 0;
    }
    return 1;
}

/* Comma-separated names an expression may use, for messages. */
static void known_vars(const pn_config_t *cfg, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < cfg->n_params && o < size; i++)
        o += (size_t)snprintf(buf + o, size - o, "%s, ", cfg->params[i].name);
    if (o < size)
        snprintf(buf + o, size - o, "threads, warps, warp");
}

/* Check the syntax and the variables of e; on success *ev (when non-NULL)
 * receives a libmatheval evaluator that the caller destroys. */
static pn_status_t expr_compile(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
                                void **ev, pn_error_t *err)
{
    char snip[80];
    lexer_t L;

    if (ev)
        *ev = NULL;
    size_t len = strlen(e->text);
    pn_yaml_snippet(snip, sizeof snip, e->text, len);
    if (len > MAX_EXPR_LEN)
        return pn_error_at(err, PN_ESYNTAX, cfg->path, e->pos.line, e->pos.col,
                           "%s: expression '%s' is longer than %u characters", what, snip,
                           MAX_EXPR_LEN);
    memset(&L, 0, sizeof L);
    L.s = e->text;
    L.cfg = cfg;
    lex_next(&L);
    int ok = parse_expr(&L);
    if (ok && L.t != T_END)
        ok = lex_fail(&L, "an operator");
    if (!ok)
        return pn_error_at(err, PN_ESYNTAX, cfg->path, e->pos.line, e->pos.col,
                           "%s: invalid count expression '%s': %s", what, snip, L.msg);
    if (L.unknown[0]) {
        char known[512];
        known_vars(cfg, known, sizeof known);
        return pn_error_at(err, PN_EINVAL, cfg->path, e->pos.line, e->pos.col,
                           "%s: unknown variable '%s' in expression '%s' (expected one of: %s)",
                           what, L.unknown, snip, known);
    }
    if (!ev)
        return PN_OK;
    /* libmatheval's parser keeps its state in globals */
    pthread_mutex_lock(&mv_lock);
    *ev = evaluator_create(e->text);
    pthread_mutex_unlock(&mv_lock);
    if (!*ev)
        return pn_error_at(err, PN_ESYNTAX, cfg->path, e->pos.line, e->pos.col,
                           "%s: invalid count expression '%s'", what, snip);
    return PN_OK;
}

/* Round v to a count (halves away from zero). warp < 0: no warp in messages. */
static pn_status_t to_count(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
                            double v, long warp, uint32_t threads, uint64_t *out,
                            pn_error_t *err)
{
    double r = isfinite(v) ? round(v) : v;
    if (isfinite(r) && r >= 0 && r <= (double)PN_SM_MAX_COUNT) {
        *out = (uint64_t)r;
        return PN_OK;
    }
    char snip[80], where[64] = "";
    pn_yaml_snippet(snip, sizeof snip, e->text, strlen(e->text));
    if (warp >= 0)
        snprintf(where, sizeof where, " for warp %ld (threads %u)", warp, threads);
    return pn_error_at(err, isfinite(r) && r >= 0 ? PN_ELIMIT : PN_EINVAL, cfg->path,
                       e->pos.line, e->pos.col,
                       "%s: count '%s' evaluates to %.10g%s, expected a finite number between "
                       "0 and %llu", what, snip, v, where,
                       (unsigned long long)PN_SM_MAX_COUNT);
}

/* Load-time check of one expression: syntax, variables, and the value when it
 * is a constant. */
static pn_status_t expr_check(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
                              pn_error_t *err)
{
    void *ev;
    char **names;
    int n;
    uint64_t dummy;
    PN_CHECK(expr_compile(cfg, e, what, &ev, err));
    evaluator_get_variables(ev, &names, &n);
    pn_status_t st = PN_OK;
    if (n == 0)
        st = to_count(cfg, e, what, evaluator_evaluate(ev, 0, NULL, NULL), -1, 0, &dummy, err);
    evaluator_destroy(ev);
    return st;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct reader {
    pn_yaml_t *y;
    pn_config_t *c;
    pn_error_t *err;
} reader_t;

/* The value of an optional section, NULL when absent or null. */
static yaml_node_t *section(reader_t *r, yaml_node_t *map, const char *key, yaml_node_t **k)
{
    yaml_node_t *v = pn_yaml_get(r->y, map, key, k);
    return pn_yaml_is_null(v) ? NULL : v;
}

static pn_status_t get_u32(reader_t *r, yaml_node_t *v, const char *what, uint32_t min,
                           uint32_t max, uint32_t *out, pn_pos_t *pos)
{
    uint64_t u;
    PN_CHECK(pn_yaml_uint(r->y, v, what, min, max, &u, r->err));
    *out = (uint32_t)u;
    if (pos)
        *pos = pos_of(v);
    return PN_OK;
}

static pn_status_t read_model(reader_t *r, yaml_node_t *m)
{
    pn_config_t *c = r->c;
    yaml_node_t *v;
    PN_CHECK(pn_yaml_expect(r->y, m, YAML_MAPPING_NODE, "model", r->err));
    PN_CHECK(pn_yaml_check_keys(r->y, m, "model", model_keys, r->err));
    if ((v = pn_yaml_get(r->y, m, "schedulers", NULL)) != NULL) {
        PN_CHECK(get_u32(r, v, "model.schedulers", 1, MAX_SCHEDULERS, &c->schedulers,
                         &c->schedulers_pos));
        c->has_schedulers = 1;
    }
    yaml_node_t *lat = section(r, m, "latency", NULL);
    if (lat) {
        PN_CHECK(pn_yaml_expect(r->y, lat, YAML_MAPPING_NODE, "model.latency", r->err));
        PN_CHECK(pn_yaml_check_keys(r->y, lat, "model.latency", latency_keys, r->err));
        if ((v = pn_yaml_get(r->y, lat, "global", NULL)) != NULL) {
            PN_CHECK(get_u32(r, v, "model.latency.global", 1, PN_SM_MAX_LATENCY, &c->l1,
                             &c->l1_pos));
            c->has_l1 = 1;
        }
        if ((v = pn_yaml_get(r->y, lat, "shared", NULL)) != NULL) {
            PN_CHECK(get_u32(r, v, "model.latency.shared", 1, PN_SM_MAX_LATENCY, &c->l2,
                             &c->l2_pos));
            c->has_l2 = 1;
        }
    }
    if ((v = pn_yaml_get(r->y, m, "selection", NULL)) != NULL) {
        char *s = NULL;
        PN_CHECK(pn_yaml_string(r->y, v, "model.selection", &s, r->err));
        if (!in_list(selections, s, strlen(s))) {
            char snip[64];
            pn_yaml_snippet(snip, sizeof snip, s, strlen(s));
            free(s);
            return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(v), pn_yaml_col(v),
                               "model.selection must be one of: paper, got '%s'", snip);
        }
        free(c->selection);
        c->selection = s;
        c->selection_pos = pos_of(v);
    }
    return PN_OK;
}

static int is_identifier(const char *s)
{
    if (!is_alpha(*s))
        return 0;
    for (s++; *s; s++)
        if (!is_alpha(*s) && !is_digit(*s))
            return 0;
    return 1;
}

static pn_status_t read_params(reader_t *r, yaml_node_t *m)
{
    pn_config_t *c = r->c;
    PN_CHECK(pn_yaml_expect(r->y, m, YAML_MAPPING_NODE, "params", r->err));
    PN_CHECK(pn_yaml_check_keys(r->y, m, "params", NULL, r->err));
    size_t n = pn_yaml_len(m);
    if (n == 0)
        return PN_OK;
    c->params = calloc(n, sizeof *c->params);
    if (!c->params)
        return pn_error_at(r->err, PN_ENOMEM, c->path, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *k = pn_yaml_pair_key(r->y, m, i), *v = pn_yaml_pair_value(r->y, m, i);
        pn_param_t *p = &c->params[i];
        const char *name = (const char *)k->data.scalar.value;
        char snip[64], what[96];
        pn_yaml_snippet(snip, sizeof snip, name, k->data.scalar.length);
        if (strlen(name) != k->data.scalar.length || !is_identifier(name))
            return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(k), pn_yaml_col(k),
                               "params name '%s' must be an identifier (letters, digits, "
                               "'_', not starting with a digit)", snip);
        if (in_list(reserved_names, name, strlen(name)))
            return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(k), pn_yaml_col(k),
                               "params name '%s' is reserved (threads, warps, warp, "
                               "schedulers, global, shared), choose another name", snip);
        if (in_list(mv_constants, name, strlen(name)) || in_list(mv_functions, name, strlen(name)))
            return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(k), pn_yaml_col(k),
                               "params name '%s' is a constant or function of the expression "
                               "language, choose another name", snip);
        snprintf(what, sizeof what, "params.%s", snip);
        PN_CHECK(pn_yaml_number(r->y, v, what, &p->value, r->err));
        p->name = pn_yaml_strdup(name);
        if (!p->name)
            return pn_error_at(r->err, PN_ENOMEM, c->path, 0, 0, "out of memory");
        p->pos = pos_of(k);
        c->n_params = i + 1;
    }
    return PN_OK;
}

/* A count value node into e (not yet checked). */
static pn_status_t read_expr(reader_t *r, yaml_node_t *v, const char *what, pn_expr_t *e)
{
    if (!v || v->type != YAML_SCALAR_NODE || pn_yaml_is_null(v) || v->data.scalar.length == 0)
        return pn_yaml_type_error(r->y, v, what, "a number or an expression", r->err);
    PN_CHECK(pn_yaml_string(r->y, v, what, &e->text, r->err));
    e->pos = pos_of(v);
    return PN_OK;
}

static pn_status_t read_counts(reader_t *r, yaml_node_t *m, pn_expr_t *count,
                               const char *prefix)
{
    char what[64];
    for (int k = 0; k < PN_KIND_COUNT; k++) {
        yaml_node_t *v = pn_yaml_get(r->y, m, pn_kind_names[k], NULL);
        if (!v)
            continue;
        snprintf(what, sizeof what, "%s.%s", prefix, pn_kind_names[k]);
        PN_CHECK(read_expr(r, v, what, &count[k]));
        PN_CHECK(expr_check(r->c, &count[k], what, r->err));
    }
    return PN_OK;
}

/* A program (list of segments {repeat: N, body: [kind, kind*K, ...]}) into p. */
static pn_status_t read_program(reader_t *r, yaml_node_t *list, yaml_node_t *key,
                                const char *what, pn_prog_src_t *p)
{
    pn_config_t *c = r->c;
    PN_CHECK(pn_yaml_expect(r->y, list, YAML_SEQUENCE_NODE, what, r->err));
    size_t n = pn_yaml_len(list);
    if (n == 0)
        return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(list), pn_yaml_col(list),
                           "%s must be a non-empty list of segments {repeat: N, body: "
                           "[arith, shared, global, ...]}", what);
    p->segs = calloc(n, sizeof *p->segs);
    if (!p->segs)
        return pn_error_at(r->err, PN_ENOMEM, c->path, 0, 0, "out of memory");
    p->pos = pos_of(key);
    for (size_t j = 0; j < n; j++) {
        yaml_node_t *seg = pn_yaml_item(r->y, list, j), *v;
        pn_prog_segment_src_t *s = &p->segs[j];
        char swhat[96], iwhat[160];
        p->n_segs = j + 1;
        snprintf(swhat, sizeof swhat, "%s[%zu]", what, j);
        PN_CHECK(pn_yaml_expect(r->y, seg, YAML_MAPPING_NODE, swhat, r->err));
        PN_CHECK(pn_yaml_check_keys(r->y, seg, swhat, segment_keys, r->err));
        s->pos = pos_of(seg);
        if ((v = pn_yaml_get(r->y, seg, "repeat", NULL)) != NULL) {
            snprintf(iwhat, sizeof iwhat, "%s.repeat", swhat);
            PN_CHECK(read_expr(r, v, iwhat, &s->repeat));
            PN_CHECK(expr_check(c, &s->repeat, iwhat, r->err));
        }
        yaml_node_t *body = pn_yaml_get(r->y, seg, "body", NULL);
        if (!body)
            return pn_error_at(r->err, PN_EINVAL, c->path, s->pos.line, s->pos.col,
                               "%s: missing key 'body' (a list of instruction kinds: arith, "
                               "shared, global, each optionally *K)", swhat);
        snprintf(iwhat, sizeof iwhat, "%s.body", swhat);
        PN_CHECK(pn_yaml_expect(r->y, body, YAML_SEQUENCE_NODE, iwhat, r->err));
        size_t nb = pn_yaml_len(body);
        if (nb == 0)
            return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(body),
                               pn_yaml_col(body), "%s must be a non-empty list of instruction "
                               "kinds (arith, shared, global, each optionally *K)", iwhat);
        if (nb > UINT32_MAX)
            return pn_error_at(r->err, PN_ELIMIT, c->path, pn_yaml_line(body),
                               pn_yaml_col(body), "%s is too long", iwhat);
        s->body = calloc(nb, sizeof *s->body);
        if (!s->body)
            return pn_error_at(r->err, PN_ENOMEM, c->path, 0, 0, "out of memory");
        for (size_t i = 0; i < nb; i++) {
            yaml_node_t *it = pn_yaml_item(r->y, body, i);
            char bwhat[192];
            snprintf(bwhat, sizeof bwhat, "%s[%zu]", iwhat, i);
            if (it->type != YAML_SCALAR_NODE || pn_yaml_is_null(it) ||
                it->data.scalar.length == 0)
                return pn_yaml_type_error(r->y, it, bwhat, "an instruction kind (arith, "
                                          "shared or global, optionally *K)", r->err);
            pn_error_t e;
            if (pn_program_parse_item((const char *)it->data.scalar.value,
                                      it->data.scalar.length, &s->body[i], &e) != PN_OK)
                return pn_error_at(r->err, e.code, c->path, pn_yaml_line(it), pn_yaml_col(it),
                                   "%s: %s", bwhat, e.msg);
            s->n_body = (uint32_t)(i + 1);
        }
    }
    return PN_OK;
}

/* Where the instructions are given: the first counts key and the first
 * program key in the file; both kinds at once is an error at the later. */
typedef struct mode_key {
    pn_pos_t pos;
    char what[64];
} mode_key_t;

static int pos_before(pn_pos_t a, pn_pos_t b)
{
    return a.line < b.line || (a.line == b.line && a.col < b.col);
}

static void mode_note(mode_key_t *m, yaml_node_t *key, const char *what)
{
    pn_pos_t p = pos_of(key);
    if (!key || (m->pos.line > 0 && !pos_before(p, m->pos)))
        return;
    m->pos = p;
    snprintf(m->what, sizeof m->what, "%s", what);
}

static pn_status_t read_overrides(reader_t *r, yaml_node_t *list)
{
    pn_config_t *c = r->c;
    PN_CHECK(pn_yaml_expect(r->y, list, YAML_SEQUENCE_NODE, "kernel.warps", r->err));
    size_t n = pn_yaml_len(list);
    if (n == 0)
        return PN_OK;
    c->overrides = calloc(n, sizeof *c->overrides);
    if (!c->overrides)
        return pn_error_at(r->err, PN_ENOMEM, c->path, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *item = pn_yaml_item(r->y, list, i), *v;
        pn_warp_override_t *o = &c->overrides[i];
        char what[64];
        uint32_t w;
        c->n_overrides = i + 1;
        snprintf(what, sizeof what, "kernel.warps[%zu]", i);
        PN_CHECK(pn_yaml_expect(r->y, item, YAML_MAPPING_NODE, what, r->err));
        PN_CHECK(pn_yaml_check_keys(r->y, item, what, override_keys, r->err));
        o->pos = pos_of(item);
        v = pn_yaml_get(r->y, item, "warp", NULL);
        if (!v)
            return pn_error_at(r->err, PN_EINVAL, c->path, o->pos.line, o->pos.col,
                               "%s: missing key 'warp' (the index of the warp to override)",
                               what);
        char wwhat[80];
        snprintf(wwhat, sizeof wwhat, "%s.warp", what);
        PN_CHECK(get_u32(r, v, wwhat, 0, MAX_WARP_INDEX, &w, NULL));
        for (size_t j = 0; j < i; j++)
            if (c->overrides[j].warp == w)
                return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(v),
                                   pn_yaml_col(v),
                                   "%s: warp %u is already overridden by kernel.warps[%zu] "
                                   "at line %ld", what, w, j, c->overrides[j].pos.line);
        o->warp = w;
        PN_CHECK(read_counts(r, item, o->count, what));
        yaml_node_t *pk;
        v = pn_yaml_get(r->y, item, "program", &pk);
        if (v) {
            char pwhat[80];
            snprintf(pwhat, sizeof pwhat, "%s.program", what);
            PN_CHECK(read_program(r, v, pk, pwhat, &o->program));
            c->has_program = 1;
        }
    }
    return PN_OK;
}

/* counts and program are exclusive, in the kernel and in every override. */
static pn_status_t check_modes(reader_t *r, yaml_node_t *kernel, yaml_node_t *warps)
{
    mode_key_t cm, pm;
    yaml_node_t *k;
    char what[64];
    memset(&cm, 0, sizeof cm);
    memset(&pm, 0, sizeof pm);
    if (section(r, kernel, "counts", &k))
        mode_note(&cm, k, "kernel.counts");
    if (pn_yaml_get(r->y, kernel, "program", &k))
        mode_note(&pm, k, "kernel.program");
    for (size_t i = 0; warps && i < pn_yaml_len(warps); i++) {
        yaml_node_t *item = pn_yaml_item(r->y, warps, i);
        for (int kind = 0; kind < PN_KIND_COUNT; kind++)
            if (pn_yaml_get(r->y, item, pn_kind_names[kind], &k)) {
                snprintf(what, sizeof what, "kernel.warps[%zu].%s", i, pn_kind_names[kind]);
                mode_note(&cm, k, what);
            }
        if (pn_yaml_get(r->y, item, "program", &k)) {
            snprintf(what, sizeof what, "kernel.warps[%zu].program", i);
            mode_note(&pm, k, what);
        }
    }
    if (!cm.pos.line || !pm.pos.line)
        return PN_OK;
    const mode_key_t *later = pos_before(cm.pos, pm.pos) ? &pm : &cm;
    const mode_key_t *first = later == &pm ? &cm : &pm;
    return pn_error_at(r->err, PN_EINVAL, r->c->path, later->pos.line, later->pos.col,
                       "%s cannot be given together with %s (line %ld, column %ld): give the "
                       "instructions either as counts or as a program", later->what,
                       first->what, first->pos.line, first->pos.col);
}

static pn_status_t read_kernel(reader_t *r, yaml_node_t *m, yaml_node_t *key)
{
    pn_config_t *c = r->c;
    yaml_node_t *v;
    PN_CHECK(pn_yaml_expect(r->y, m, YAML_MAPPING_NODE, "kernel", r->err));
    PN_CHECK(pn_yaml_check_keys(r->y, m, "kernel", kernel_keys, r->err));
    c->kernel_pos = pos_of(key);
    if ((v = pn_yaml_get(r->y, m, "name", NULL)) != NULL) {
        char *s = NULL;
        PN_CHECK(pn_yaml_string(r->y, v, "kernel.name", &s, r->err));
        free(c->kernel_name);
        c->kernel_name = s;
    }
    v = pn_yaml_get(r->y, m, "threads", NULL);
    if (!v)
        return pn_error_at(r->err, PN_EINVAL, c->path, c->kernel_pos.line, c->kernel_pos.col,
                           "kernel: missing key 'threads' (threads per block, 1 to %u)",
                           MAX_THREADS);
    PN_CHECK(get_u32(r, v, "kernel.threads", 1, MAX_THREADS, &c->threads, &c->threads_pos));
    yaml_node_t *counts = section(r, m, "counts", NULL);
    if (counts) {
        PN_CHECK(pn_yaml_expect(r->y, counts, YAML_MAPPING_NODE, "kernel.counts", r->err));
        PN_CHECK(pn_yaml_check_keys(r->y, counts, "kernel.counts", counts_keys, r->err));
        PN_CHECK(read_counts(r, counts, c->count, "kernel.counts"));
    }
    yaml_node_t *pk, *prog = pn_yaml_get(r->y, m, "program", &pk);
    if (prog) {
        PN_CHECK(read_program(r, prog, pk, "kernel.program", &c->program));
        c->has_program = 1;
    }
    yaml_node_t *warps = section(r, m, "warps", NULL);
    if (warps)
        PN_CHECK(read_overrides(r, warps));
    return check_modes(r, m, warps);
}

static pn_status_t read_simulation(reader_t *r, yaml_node_t *m)
{
    pn_config_t *c = r->c;
    yaml_node_t *v;
    PN_CHECK(pn_yaml_expect(r->y, m, YAML_MAPPING_NODE, "simulation", r->err));
    PN_CHECK(pn_yaml_check_keys(r->y, m, "simulation", sim_keys, r->err));
    if ((v = pn_yaml_get(r->y, m, "runs", NULL)) != NULL)
        PN_CHECK(get_u32(r, v, "simulation.runs", 1, MAX_RUNS, &c->runs, &c->runs_pos));
    if ((v = pn_yaml_get(r->y, m, "seed", NULL)) != NULL) {
        PN_CHECK(pn_yaml_uint(r->y, v, "simulation.seed", 0, UINT64_MAX, &c->seed, r->err));
        c->seed_pos = pos_of(v);
    }
    if ((v = pn_yaml_get(r->y, m, "max_steps", NULL)) != NULL) {
        PN_CHECK(pn_yaml_uint(r->y, v, "simulation.max_steps", 1, UINT64_MAX, &c->max_steps,
                              r->err));
        c->max_steps_pos = pos_of(v);
    }
    return PN_OK;
}

static pn_status_t read_sweep(reader_t *r, yaml_node_t *m)
{
    pn_config_t *c = r->c;
    PN_CHECK(pn_yaml_expect(r->y, m, YAML_MAPPING_NODE, "sweep", r->err));
    PN_CHECK(pn_yaml_check_keys(r->y, m, "sweep", NULL, r->err));
    size_t n = pn_yaml_len(m);
    if (n == 0)
        return PN_OK;
    c->sweep = calloc(n, sizeof *c->sweep);
    if (!c->sweep)
        return pn_error_at(r->err, PN_ENOMEM, c->path, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *k = pn_yaml_pair_key(r->y, m, i), *list = pn_yaml_pair_value(r->y, m, i);
        pn_sweep_axis_t *a = &c->sweep[i];
        const char *name = (const char *)k->data.scalar.value;
        size_t nlen = k->data.scalar.length;
        uint64_t min = 0, max = 0;
        int integer = 1;
        char what[96], snip[64];
        pn_yaml_snippet(snip, sizeof snip, name, nlen);
        if (nlen == 7 && !strcmp(name, "threads"))
            min = 1, max = MAX_THREADS;
        else if (nlen == 10 && !strcmp(name, "schedulers"))
            min = 1, max = MAX_SCHEDULERS;
        else if (in_list(latency_keys, name, nlen))
            min = 1, max = PN_SM_MAX_LATENCY;
        else {
            size_t p = 0;
            while (p < c->n_params && strcmp(c->params[p].name, name))
                p++;
            if (p == c->n_params || strlen(name) != nlen) {
                char known[512];
                size_t o = (size_t)snprintf(known, sizeof known,
                                            "threads, schedulers, global, shared");
                for (p = 0; p < c->n_params && o < sizeof known; p++)
                    o += (size_t)snprintf(known + o, sizeof known - o, ", %s",
                                          c->params[p].name);
                return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(k), pn_yaml_col(k),
                                   "unknown sweep axis '%s' (expected one of: %s)", snip,
                                   known);
            }
            integer = 0;
        }
        snprintf(what, sizeof what, "sweep.%s", snip);
        PN_CHECK(pn_yaml_expect(r->y, list, YAML_SEQUENCE_NODE, what, r->err));
        size_t nv = pn_yaml_len(list);
        if (nv == 0)
            return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(list),
                               pn_yaml_col(list), "%s must be a non-empty list of numbers",
                               what);
        a->name = pn_yaml_strdup(name);
        a->values = malloc(nv * sizeof *a->values);
        c->n_sweep = i + 1;
        if (!a->name || !a->values)
            return pn_error_at(r->err, PN_ENOMEM, c->path, 0, 0, "out of memory");
        a->pos = pos_of(k);
        for (size_t j = 0; j < nv; j++) {
            yaml_node_t *v = pn_yaml_item(r->y, list, j);
            char iwhat[128];
            snprintf(iwhat, sizeof iwhat, "%s[%zu]", what, j);
            if (integer) {
                uint64_t u;
                PN_CHECK(pn_yaml_uint(r->y, v, iwhat, min, max, &u, r->err));
                a->values[j] = (double)u;
            } else {
                PN_CHECK(pn_yaml_number(r->y, v, iwhat, &a->values[j], r->err));
            }
            a->n_values = j + 1;
        }
    }
    return PN_OK;
}

/* "dir/radix.yaml" -> "radix" */
static char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    if (n == 0)
        b = "kernel", n = 6;
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, b, n);
        s[n] = '\0';
    }
    return s;
}

static pn_status_t read_config(reader_t *r)
{
    pn_config_t *c = r->c;
    yaml_node_t *root = pn_yaml_root(r->y), *v, *k;

    c->runs = DEFAULT_RUNS;
    c->seed = DEFAULT_SEED;
    c->max_steps = DEFAULT_MAX_STEPS;
    c->device = pn_yaml_strdup(DEFAULT_DEVICE);
    c->selection = pn_yaml_strdup(selections[0]);
    c->kernel_name = base_name(c->path);
    if (!c->device || !c->selection || !c->kernel_name)
        return pn_error_at(r->err, PN_ENOMEM, c->path, 0, 0, "out of memory");

    if (!root)
        return pn_error_at(r->err, PN_EINVAL, c->path, 0, 0,
                           "the config is empty, expected a mapping with at least "
                           "kernel: {threads: N}");
    PN_CHECK(pn_yaml_expect(r->y, root, YAML_MAPPING_NODE, "the config", r->err));
    PN_CHECK(pn_yaml_check_keys(r->y, root, NULL, top_keys, r->err));

    if ((v = pn_yaml_get(r->y, root, "device", NULL)) != NULL) {
        char *s = NULL;
        PN_CHECK(pn_yaml_string(r->y, v, "device", &s, r->err));
        free(c->device);
        c->device = s;
        c->device_pos = pos_of(v);
    }
    if ((v = section(r, root, "model", NULL)) != NULL)
        PN_CHECK(read_model(r, v));
    if ((v = section(r, root, "params", NULL)) != NULL)
        PN_CHECK(read_params(r, v));
    v = pn_yaml_get(r->y, root, "kernel", &k);
    if (!k)
        return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(root), pn_yaml_col(root),
                           "missing key 'kernel' (expected kernel: {threads: N, counts: "
                           "{arith: ..., shared: ..., global: ...}})");
    PN_CHECK(read_kernel(r, v, k));
    if ((v = section(r, root, "simulation", NULL)) != NULL)
        PN_CHECK(read_simulation(r, v));
    if ((v = section(r, root, "sweep", NULL)) != NULL)
        PN_CHECK(read_sweep(r, v));
    return PN_OK;
}

pn_status_t pn_config_load_string(pn_config_t *cfg, const char *text, size_t len,
                                  const char *name, pn_error_t *err)
{
    pn_config_t tmp;
    pn_yaml_t y;
    pn_status_t st;

    if (!cfg || (!text && len))
        return pn_error_set(err, PN_EINVAL, "pn_config_load_string: NULL argument");
    memset(cfg, 0, sizeof *cfg);
    memset(&tmp, 0, sizeof tmp);
    tmp.path = pn_yaml_strdup(name ? name : "<string>");
    if (!tmp.path)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    st = pn_yaml_load(&y, text ? text : "", len, tmp.path, err);
    if (st == PN_OK) {
        reader_t r = {&y, &tmp, err};
        st = read_config(&r);
        pn_yaml_destroy(&y);
    }
    if (st != PN_OK) {
        pn_config_destroy(&tmp);
        return st;
    }
    *cfg = tmp;
    return PN_OK;
}

pn_status_t pn_config_load(pn_config_t *cfg, const char *path, pn_error_t *err)
{
    char *text;
    size_t len;
    if (!cfg || !path)
        return pn_error_set(err, PN_EINVAL, "pn_config_load: NULL argument");
    memset(cfg, 0, sizeof *cfg);
    if (pn_yaml_read_file(path, &text, &len) != PN_OK)
        return pn_error_at(err, PN_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    pn_status_t st = pn_config_load_string(cfg, text, len, path, err);
    free(text);
    return st;
}

static void expr_free(pn_expr_t *e)
{
    free(e->text);
    e->text = NULL;
}

static void prog_src_free(pn_prog_src_t *p)
{
    for (size_t j = 0; j < p->n_segs; j++) {
        expr_free(&p->segs[j].repeat);
        free(p->segs[j].body);
    }
    free(p->segs);
    memset(p, 0, sizeof *p);
}

void pn_config_destroy(pn_config_t *cfg)
{
    if (!cfg)
        return;
    free(cfg->path);
    free(cfg->device);
    free(cfg->selection);
    for (size_t i = 0; i < cfg->n_params; i++)
        free(cfg->params[i].name);
    free(cfg->params);
    free(cfg->kernel_name);
    for (int k = 0; k < PN_KIND_COUNT; k++)
        expr_free(&cfg->count[k]);
    prog_src_free(&cfg->program);
    for (size_t i = 0; i < cfg->n_overrides; i++) {
        for (int k = 0; k < PN_KIND_COUNT; k++)
            expr_free(&cfg->overrides[i].count[k]);
        prog_src_free(&cfg->overrides[i].program);
    }
    free(cfg->overrides);
    for (size_t i = 0; i < cfg->n_sweep; i++) {
        free(cfg->sweep[i].name);
        free(cfg->sweep[i].values);
    }
    free(cfg->sweep);
    memset(cfg, 0, sizeof *cfg);
}

/* ---- evaluation --------------------------------------------------------- */

static int uses_warp(void *ev)
{
    char **names;
    int n;
    evaluator_get_variables(ev, &names, &n);
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], var_warp))
            return 1;
    return 0;
}

/* Evaluate e for warps [w0, w1) into field `kind` of out. vals[n-1] is warp. */
static pn_status_t eval_range(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
                              int kind, uint32_t w0, uint32_t w1, uint32_t threads, int n,
                              char **names, double *vals, pn_warp_counts_t *out,
                              pn_error_t *err)
{
    void *ev;
    PN_CHECK(expr_compile(cfg, e, what, &ev, err));
    int per_warp = uses_warp(ev);
    uint64_t cnt = 0;
    pn_status_t st = PN_OK;
    for (uint32_t w = w0; w < w1 && st == PN_OK; w++) {
        if (per_warp || w == w0) {
            vals[n - 1] = (double)w;
            st = to_count(cfg, e, what, evaluator_evaluate(ev, n, names, vals),
                          per_warp ? (long)w : -1, threads, &cnt, err);
        }
        if (kind == PN_KIND_ARITH)
            out[w].arith = cnt;
        else if (kind == PN_KIND_SHARED)
            out[w].shared = cnt;
        else
            out[w].global = cnt;
    }
    evaluator_destroy(ev);
    return st;
}

/* The variables of count expressions: params (param_values, else cfg's),
 * threads, warps, and warp last (vals[n-1], set per warp). */
static pn_status_t vars_new(const pn_config_t *cfg, uint32_t threads, const double *param_values,
                            char ***names_out, double **vals_out, int *n_out, pn_error_t *err)
{
    uint32_t warps = (threads + WARP_THREADS - 1) / WARP_THREADS;
    int n = (int)cfg->n_params + 3;
    char **names = malloc((size_t)n * sizeof *names);
    double *vals = malloc((size_t)n * sizeof *vals);
    if (!names || !vals) {
        free(names);
        free(vals);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < cfg->n_params; i++) {
        names[i] = cfg->params[i].name;
        vals[i] = param_values ? param_values[i] : cfg->params[i].value;
    }
    names[n - 3] = var_threads;
    vals[n - 3] = (double)threads;
    names[n - 2] = var_warps;
    vals[n - 2] = (double)warps;
    names[n - 1] = var_warp;
    vals[n - 1] = 0;
    *names_out = names;
    *vals_out = vals;
    *n_out = n;
    return PN_OK;
}

static pn_status_t override_missing(const pn_config_t *cfg, size_t i, uint32_t threads,
                                    uint32_t warps, pn_error_t *err)
{
    return pn_error_at(err, PN_EINVAL, cfg->path, cfg->overrides[i].pos.line,
                       cfg->overrides[i].pos.col,
                       "kernel.warps[%zu]: warp %u does not exist: %u threads make %u "
                       "warps (indices 0 to %u)", i, cfg->overrides[i].warp, threads, warps,
                       warps - 1);
}

/* Evaluate program src for warps [w0, w1): add each segment to progs[w] (when
 * progs is non-NULL) and its instructions to out[w], which the caller zeroed.
 * vals[n-1] is warp. */
static pn_status_t eval_program(const pn_config_t *cfg, const pn_prog_src_t *src,
                                const char *prefix, uint32_t w0, uint32_t w1, uint32_t threads,
                                int n, char **names, double *vals, pn_program_t *progs,
                                pn_warp_counts_t *out, pn_error_t *err)
{
    pn_status_t st = PN_OK;
    char what[96];
    for (size_t j = 0; j < src->n_segs && st == PN_OK; j++) {
        const pn_prog_segment_src_t *seg = &src->segs[j];
        void *ev = NULL;
        int per_warp = 0;
        uint64_t rep = 1, per[PN_KIND_COUNT] = {0, 0, 0};
        pn_pos_t at = seg->repeat.text ? seg->repeat.pos : seg->pos;
        snprintf(what, sizeof what, "%s[%zu]%s", prefix, j, seg->repeat.text ? ".repeat" : "");
        if (seg->repeat.text) {
            PN_CHECK(expr_compile(cfg, &seg->repeat, what, &ev, err));
            per_warp = uses_warp(ev);
        }
        for (uint32_t i = 0; i < seg->n_body; i++)
            per[seg->body[i].kind % PN_KIND_COUNT] += seg->body[i].mult;
        for (uint32_t w = w0; w < w1 && st == PN_OK; w++) {
            if (ev && (per_warp || w == w0)) {
                vals[n - 1] = (double)w;
                st = to_count(cfg, &seg->repeat, what, evaluator_evaluate(ev, n, names, vals),
                              per_warp ? (long)w : -1, threads, &rep, err);
                if (st != PN_OK)
                    break;
            }
            uint64_t *sum[PN_KIND_COUNT] = {&out[w].arith, &out[w].shared, &out[w].global};
            for (int k = 0; k < PN_KIND_COUNT && st == PN_OK; k++) {
                if (!per[k] || !rep)
                    continue;
                if (per[k] > PN_SM_MAX_COUNT / rep ||
                    *sum[k] + per[k] * rep > PN_SM_MAX_COUNT)
                    st = pn_error_at(err, PN_ELIMIT, cfg->path, at.line, at.col,
                                     "%s: repeat %llu makes warp %u run more than %llu %s "
                                     "instructions", what, (unsigned long long)rep, w,
                                     (unsigned long long)PN_SM_MAX_COUNT, pn_kind_names[k]);
                else
                    *sum[k] += per[k] * rep;
            }
            if (st == PN_OK && progs) {
                st = pn_program_add_segment(&progs[w], rep, seg->body, seg->n_body, err);
                if (st != PN_OK)
                    pn_error_prefix(err, cfg->path);
            }
        }
        if (ev)
            evaluator_destroy(ev);
    }
    return st;
}

/* The programs (progs may be NULL) and their counts (out) of every warp. */
static pn_status_t eval_programs(const pn_config_t *cfg, uint32_t warps, uint32_t threads,
                                 int n, char **names, double *vals, pn_program_t *progs,
                                 pn_warp_counts_t *out, pn_error_t *err)
{
    memset(out, 0, (size_t)warps * sizeof *out);
    PN_CHECK(eval_program(cfg, &cfg->program, "kernel.program", 0, warps, threads, n, names,
                          vals, progs, out, err));
    for (size_t i = 0; i < cfg->n_overrides; i++) {
        const pn_warp_override_t *o = &cfg->overrides[i];
        char prefix[64];
        if (o->warp >= warps)
            return override_missing(cfg, i, threads, warps, err);
        if (!o->program.segs)
            continue;
        memset(&out[o->warp], 0, sizeof out[o->warp]);
        if (progs) {
            pn_program_destroy(&progs[o->warp]);
            pn_program_init(&progs[o->warp]);
        }
        snprintf(prefix, sizeof prefix, "kernel.warps[%zu].program", i);
        PN_CHECK(eval_program(cfg, &o->program, prefix, o->warp, o->warp + 1, threads, n, names,
                              vals, progs, out, err));
    }
    return PN_OK;
}

pn_status_t pn_config_counts(const pn_config_t *cfg, uint32_t threads,
                             const double *param_values, pn_warp_counts_t *out,
                             pn_error_t *err)
{
    if (!cfg || !out)
        return pn_error_set(err, PN_EINVAL, "pn_config_counts: NULL argument");
    if (threads < 1 || threads > MAX_THREADS)
        return pn_error_at(err, PN_EINVAL, cfg->path, cfg->threads_pos.line,
                           cfg->threads_pos.col,
                           "kernel.threads must be between 1 and %u, got %u", MAX_THREADS,
                           threads);
    uint32_t warps = (threads + WARP_THREADS - 1) / WARP_THREADS;
    int n;
    char **names;
    double *vals;
    PN_CHECK(vars_new(cfg, threads, param_values, &names, &vals, &n, err));
    pn_status_t st = PN_OK;

    memset(out, 0, (size_t)warps * sizeof *out);
    char what[64];
    for (int k = 0; k < PN_KIND_COUNT && st == PN_OK; k++) {
        if (!cfg->count[k].text)
            continue;
        snprintf(what, sizeof what, "kernel.counts.%s", pn_kind_names[k]);
        st = eval_range(cfg, &cfg->count[k], what, k, 0, warps, threads, n, names, vals, out,
                        err);
    }
    for (size_t i = 0; i < cfg->n_overrides && st == PN_OK; i++) {
        const pn_warp_override_t *o = &cfg->overrides[i];
        if (o->warp >= warps) {
            st = override_missing(cfg, i, threads, warps, err);
            break;
        }
        for (int k = 0; k < PN_KIND_COUNT && st == PN_OK; k++) {
            if (!o->count[k].text)
                continue;
            snprintf(what, sizeof what, "kernel.warps[%zu].%s", i, pn_kind_names[k]);
            st = eval_range(cfg, &o->count[k], what, k, o->warp, o->warp + 1, threads, n,
                            names, vals, out, err);
        }
    }
    if (st == PN_OK && cfg->has_program)
        st = eval_programs(cfg, warps, threads, n, names, vals, NULL, out, err);
    free(names);
    free(vals);
    return st;
}

pn_status_t pn_config_programs(const pn_config_t *cfg, uint32_t threads,
                               const double *param_values, pn_program_t *out,
                               pn_error_t *err)
{
    if (!cfg || !out)
        return pn_error_set(err, PN_EINVAL, "pn_config_programs: NULL argument");
    if (threads < 1 || threads > MAX_THREADS)
        return pn_error_at(err, PN_EINVAL, cfg->path, cfg->threads_pos.line,
                           cfg->threads_pos.col,
                           "kernel.threads must be between 1 and %u, got %u", MAX_THREADS,
                           threads);
    uint32_t warps = (threads + WARP_THREADS - 1) / WARP_THREADS;
    for (uint32_t w = 0; w < warps; w++)
        pn_program_init(&out[w]);
    if (!cfg->has_program)
        return PN_OK;
    int n;
    char **names;
    double *vals;
    PN_CHECK(vars_new(cfg, threads, param_values, &names, &vals, &n, err));
    pn_warp_counts_t *counts = malloc((size_t)warps * sizeof *counts);
    pn_status_t st = counts ? eval_programs(cfg, warps, threads, n, names, vals, out, counts, err)
                            : pn_error_set(err, PN_ENOMEM, "out of memory");
    if (st != PN_OK)
        for (uint32_t w = 0; w < warps; w++)
            pn_program_destroy(&out[w]);
    free(counts);
    free(names);
    free(vals);
    return st;
}

/* Position to blame for a threads value: the sweep axis when it came from there. */
static pn_pos_t threads_pos(const pn_config_t *cfg, uint32_t threads)
{
    if (threads != cfg->threads)
        for (size_t i = 0; i < cfg->n_sweep; i++)
            if (cfg->sweep[i].name && !strcmp(cfg->sweep[i].name, "threads"))
                return cfg->sweep[i].pos;
    return cfg->threads_pos;
}

static pn_status_t pick(const pn_config_t *cfg, const pn_device_t *dev, int has, uint32_t mine,
                        pn_pos_t pos, uint32_t devs, const char *what, uint32_t max,
                        uint32_t *out, pn_error_t *err)
{
    uint32_t v = has ? mine : devs;
    if (v >= 1 && v <= max) {
        *out = v;
        return PN_OK;
    }
    if (has)
        return pn_error_at(err, PN_EINVAL, cfg->path, pos.line, pos.col,
                           "model.%s must be between 1 and %u, got %u", what, max, v);
    return pn_error_at(err, PN_EINVAL, dev->path, 0, 0,
                       "%s must be between 1 and %u, got %u", what, max, v);
}

pn_status_t pn_config_resolve(const pn_config_t *cfg, const pn_device_t *dev,
                              uint32_t threads, const double *param_values,
                              pn_kernel_t *k, pn_error_t *err)
{
    if (!k)
        return pn_error_set(err, PN_EINVAL, "pn_config_resolve: NULL argument");
    memset(k, 0, sizeof *k);
    if (!cfg || !dev)
        return pn_error_set(err, PN_EINVAL, "pn_config_resolve: NULL argument");
    if (threads == 0)
        threads = cfg->threads;
    pn_pos_t tp = threads_pos(cfg, threads);
    const char *dname = dev->name ? dev->name : "?";
    uint32_t tmax = dev->max_threads_per_block < MAX_THREADS ? dev->max_threads_per_block
                                                             : MAX_THREADS;
    if (threads < 1 || threads > tmax)
        return pn_error_at(err, PN_ELIMIT, cfg->path, tp.line, tp.col,
                           "threads must be between 1 and %u for device %s, got %u", tmax,
                           dname, threads);
    uint32_t warps = (threads + WARP_THREADS - 1) / WARP_THREADS;
    if (warps > dev->max_warps)
        return pn_error_at(err, PN_ELIMIT, cfg->path, tp.line, tp.col,
                           "threads %u make %u warps, more than the %u resident warps per SM "
                           "of device %s", threads, warps, dev->max_warps, dname);

    pn_kernel_t t;
    memset(&t, 0, sizeof t);
    PN_CHECK(pick(cfg, dev, cfg->has_schedulers, cfg->schedulers, cfg->schedulers_pos,
                  dev->schedulers, "schedulers", MAX_SCHEDULERS, &t.sm.schedulers, err));
    PN_CHECK(pick(cfg, dev, cfg->has_l1, cfg->l1, cfg->l1_pos, dev->l1, "latency.global",
                  PN_SM_MAX_LATENCY, &t.sm.l1, err));
    PN_CHECK(pick(cfg, dev, cfg->has_l2, cfg->l2, cfg->l2_pos, dev->l2, "latency.shared",
                  PN_SM_MAX_LATENCY, &t.sm.l2, err));

    pn_warp_counts_t *w = calloc(warps, sizeof *w);
    if (!w)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    pn_status_t st = pn_config_counts(cfg, threads, param_values, w, err);
    if (st != PN_OK) {
        free(w);
        return st;
    }
    t.threads = threads;
    t.sm.n_warps = warps;
    t.sm.warps = w;
    *k = t;
    return PN_OK;
}

void pn_kernel_destroy(pn_kernel_t *k)
{
    if (!k)
        return;
    free((void *)k->sm.warps);
    memset(k, 0, sizeof *k);
}
