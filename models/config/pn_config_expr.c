/* pn_config_expr.c - count expressions of a config: a front end that mirrors
 * libmatheval's grammar checks them at load time, libmatheval evaluates them
 * per warp into counts and programs. */
#include "pn_config_expr.h"
#include "pn_config_i.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <matheval.h>

#include "pn_yaml.h"

#define MAX_EXPR_LEN   1000u  /* keeps libmatheval's parser stack (10000) far away */
#define MAX_EXPR_DEPTH 200

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
static char var_blocks[] = "blocks";
static char var_warp[] = "warp";


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
        if (pn_config_in_list(mv_constants, s + L->i, n))
            L->t = T_CONST;
        else if (pn_config_in_list(mv_functions, s + L->i, n))
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
        (n == 4 && !strncmp(s, "warp", 4)) || (n == 6 && !strncmp(s, "blocks", 6)))
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

int pn_config_i_is_identifier(const char *s)
{
    if (!is_alpha(*s))
        return 0;
    for (s++; *s; s++)
        if (!is_alpha(*s) && !is_digit(*s))
            return 0;
    return 1;
}

int pn_config_i_is_builtin(const char *s)
{
    return pn_config_in_list(mv_constants, s, strlen(s)) ||
           pn_config_in_list(mv_functions, s, strlen(s));
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
pn_status_t pn_config_i_expr_compile(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
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
pn_status_t pn_config_i_expr_check(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
                              pn_error_t *err)
{
    void *ev;
    char **names;
    int n;
    uint64_t dummy;
    PN_CHECK(pn_config_i_expr_compile(cfg, e, what, &ev, err));
    evaluator_get_variables(ev, &names, &n);
    pn_status_t st = PN_OK;
    if (n == 0)
        st = to_count(cfg, e, what, evaluator_evaluate(ev, 0, NULL, NULL), -1, 0, &dummy, err);
    evaluator_destroy(ev);
    return st;
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

/* The variables of count expressions for one block: params (param_values,
 * else cfg's), threads, warps, and warp last (vals[n-1], set per warp). */
typedef struct vars {
    uint32_t threads, warps;
    uint64_t blocks;
    int n;
    char **names;
    double *vals;
} vars_t;

static void vars_free(vars_t *v)
{
    free(v->names);
    free(v->vals);
}

/* Check threads (an error at kernel.threads) and set up v; fn names the
 * public function for a NULL argument. */
static pn_status_t vars_new(const pn_config_t *cfg, const void *out, const char *fn,
                            uint32_t threads, const double *param_values, vars_t *v,
                            pn_error_t *err)
{
    memset(v, 0, sizeof *v);
    if (!cfg || !out)
        return pn_error_set(err, PN_EINVAL, "%s: NULL argument", fn);
    if (threads < 1 || threads > PN_SM_MAX_THREADS)
        return pn_error_at(err, PN_EINVAL, cfg->path, cfg->threads_pos.line,
                           cfg->threads_pos.col,
                           "kernel.threads must be between 1 and %u, got %u", PN_SM_MAX_THREADS,
                           threads);
    v->threads = threads;
    v->warps = pn_sm_warps_of(threads);
    v->n = (int)cfg->n_params + 4;
    v->names = malloc((size_t)v->n * sizeof *v->names);
    v->vals = malloc((size_t)v->n * sizeof *v->vals);
    if (!v->names || !v->vals) {
        vars_free(v);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < cfg->n_params; i++) {
        v->names[i] = cfg->params[i].name;
        v->vals[i] = param_values ? param_values[i] : cfg->params[i].value;
    }
    v->names[v->n - 4] = var_blocks;
    v->vals[v->n - 4] = 1;
    v->names[v->n - 3] = var_threads;
    v->vals[v->n - 3] = (double)threads;
    v->names[v->n - 2] = var_warps;
    v->vals[v->n - 2] = (double)v->warps;
    v->names[v->n - 1] = var_warp;
    v->vals[v->n - 1] = 0;
    return PN_OK;
}

/* Evaluate the compiled expression ev of e for warp w into *out. */
static pn_status_t eval_warp(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
                             void *ev, int per_warp, uint32_t w, vars_t *v, uint64_t *out,
                             pn_error_t *err)
{
    v->vals[v->n - 1] = (double)w;
    return to_count(cfg, e, what, evaluator_evaluate(ev, v->n, v->names, v->vals),
                    per_warp ? (long)w : -1, v->threads, out, err);
}

/* Evaluate e for warps [w0, w1) into field `kind` of out. */
static pn_status_t eval_range(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
                              int kind, uint32_t w0, uint32_t w1, vars_t *v,
                              pn_counts_t *out, pn_error_t *err)
{
    void *ev;
    PN_CHECK(pn_config_i_expr_compile(cfg, e, what, &ev, err));
    int per_warp = uses_warp(ev);
    uint64_t cnt = 0;
    pn_status_t st = PN_OK;
    for (uint32_t w = w0; w < w1 && st == PN_OK; w++) {
        if (per_warp || w == w0)
            st = eval_warp(cfg, e, what, ev, per_warp, w, v, &cnt, err);
        out[w].n[kind] = cnt;
    }
    evaluator_destroy(ev);
    return st;
}

static pn_status_t override_missing(const pn_config_t *cfg, size_t i, const vars_t *v,
                                    pn_error_t *err)
{
    return pn_error_at(err, PN_EINVAL, cfg->path, cfg->overrides[i].pos.line,
                       cfg->overrides[i].pos.col,
                       "kernel.warps[%zu]: warp %u does not exist: %u threads make %u "
                       "warps (indices 0 to %u)", i, cfg->overrides[i].warp, v->threads,
                       v->warps, v->warps - 1);
}

/* Evaluate program src for warps [w0, w1): add each segment to progs[w] (when
 * progs is non-NULL) and its instructions to out[w], which the caller zeroed. */
static pn_status_t eval_program(const pn_config_t *cfg, const pn_prog_src_t *src,
                                const char *prefix, uint32_t w0, uint32_t w1, vars_t *v,
                                pn_program_t *progs, pn_counts_t *out, pn_error_t *err)
{
    pn_status_t st = PN_OK;
    char what[96];
    for (size_t j = 0; j < src->n_segs && st == PN_OK; j++) {
        const pn_prog_segment_src_t *seg = &src->segs[j];
        void *ev = NULL;
        int per_warp = 0;
        /* the count key of each item kind (sync: the barriers) */
        static const int key[PN_PROGRAM_KINDS] = {
            PN_CK_ARITH, PN_CK_SHARED, PN_CK_GLOBAL, PN_CK_BARRIERS,
            PN_CK_SFU, PN_CK_SHARED_ST, PN_CK_GLOBAL_ST
        };
        uint64_t rep = 1, per[PN_CK_COUNT] = {0}, syncs = 0;
        pn_pos_t at = seg->repeat.text ? seg->repeat.pos : seg->pos;
        snprintf(what, sizeof what, "%s[%zu]%s", prefix, j, seg->repeat.text ? ".repeat" : "");
        if (seg->repeat.text) {
            PN_CHECK(pn_config_i_expr_compile(cfg, &seg->repeat, what, &ev, err));
            per_warp = uses_warp(ev);
        }
        for (uint32_t i = 0; i < seg->n_body; i++) {
            if (seg->body[i].kind == PN_PROGRAM_SYNC)
                syncs++;
            else
                per[key[seg->body[i].kind % PN_PROGRAM_KINDS]] += seg->body[i].mult;
        }
        for (uint32_t w = w0; w < w1 && st == PN_OK; w++) {
            if (ev && (per_warp || w == w0)) {
                st = eval_warp(cfg, &seg->repeat, what, ev, per_warp, w, v, &rep, err);
                if (st != PN_OK)
                    break;
            }
            for (int k = 0; k < PN_CK_BARRIERS && st == PN_OK; k++) {
                uint64_t *sum = &out[w].n[k];
                if (!per[k] || !rep)
                    continue;
                if (per[k] > PN_SM_MAX_COUNT / rep ||
                    *sum + per[k] * rep > PN_SM_MAX_COUNT)
                    st = pn_error_at(err, PN_ELIMIT, cfg->path, at.line, at.col,
                                     "%s: repeat %llu makes warp %u run more than %llu %s "
                                     "instructions", what, (unsigned long long)rep, w,
                                     (unsigned long long)PN_SM_MAX_COUNT, pn_count_keys[k]);
                else
                    *sum += per[k] * rep;
            }
            /* sync items: the warp's barriers (n_body, rep < 2^32: no overflow) */
            out[w].n[PN_CK_BARRIERS] += syncs * rep;
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
static pn_status_t eval_programs(const pn_config_t *cfg, vars_t *v, pn_program_t *progs,
                                 pn_counts_t *out, pn_error_t *err)
{
    memset(out, 0, (size_t)v->warps * sizeof *out);
    PN_CHECK(eval_program(cfg, &cfg->program, "kernel.program", 0, v->warps, v, progs, out,
                          err));
    for (size_t i = 0; i < cfg->n_overrides; i++) {
        const pn_warp_override_t *o = &cfg->overrides[i];
        char prefix[64];
        if (o->warp >= v->warps)
            return override_missing(cfg, i, v, err);
        if (!o->program.segs)
            continue;
        memset(&out[o->warp], 0, sizeof out[o->warp]);
        if (progs) {
            pn_program_destroy(&progs[o->warp]);
            pn_program_init(&progs[o->warp]);
        }
        snprintf(prefix, sizeof prefix, "kernel.warps[%zu].program", i);
        PN_CHECK(eval_program(cfg, &o->program, prefix, o->warp, o->warp + 1, v, progs, out,
                              err));
    }
    return PN_OK;
}

pn_status_t pn_config_programs(const pn_config_t *cfg, uint32_t threads,
                               const double *param_values, pn_program_t *out,
                               pn_error_t *err)
{
    pn_counts_t *counts = NULL;           /* what the programs imply, unused here */
    vars_t v;
    PN_CHECK(vars_new(cfg, out, "pn_config_programs", threads, param_values, &v, err));
    for (uint32_t w = 0; w < v.warps; w++)
        pn_program_init(&out[w]);
    pn_status_t st = PN_OK;
    if (cfg->has_program) {
        counts = malloc((size_t)v.warps * sizeof *counts);
        st = counts ? eval_programs(cfg, &v, out, counts, err)
                    : pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    if (st != PN_OK)
        for (uint32_t w = 0; w < v.warps; w++)
            pn_program_destroy(&out[w]);
    free(counts);
    vars_free(&v);
    return st;
}

/* The counts of every warp from kernel.counts and the warps' overrides. */
static pn_status_t eval_counts(const pn_config_t *cfg, vars_t *v, pn_counts_t *out,
                               pn_error_t *err)
{
    pn_status_t st = PN_OK;
    memset(out, 0, (size_t)v->warps * sizeof *out);
    char what[64];
    for (int k = 0; k < PN_CK_COUNT && st == PN_OK; k++) {
        if (!cfg->count[k].text)
            continue;
        snprintf(what, sizeof what, "kernel.counts.%s", pn_count_keys[k]);
        st = eval_range(cfg, &cfg->count[k], what, k, 0, v->warps, v, out, err);
    }
    for (size_t i = 0; i < cfg->n_overrides && st == PN_OK; i++) {
        const pn_warp_override_t *o = &cfg->overrides[i];
        if (o->warp >= v->warps)
            return override_missing(cfg, i, v, err);
        for (int k = 0; k < PN_CK_COUNT && st == PN_OK; k++) {
            if (!o->count[k].text)
                continue;
            snprintf(what, sizeof what, "kernel.warps[%zu].%s", i, pn_count_keys[k]);
            st = eval_range(cfg, &o->count[k], what, k, o->warp, o->warp + 1, v, out, err);
        }
    }
    return st;
}

/* kernel.blocks for v (1 when absent). */
static pn_status_t eval_blocks(const pn_config_t *cfg, vars_t *v, uint64_t *out, pn_error_t *err)
{
    *out = 1;
    if (!cfg->blocks.text)
        return PN_OK;
    void *ev;
    PN_CHECK(pn_config_i_expr_compile(cfg, &cfg->blocks, "kernel.blocks", &ev, err));
    pn_status_t st = eval_warp(cfg, &cfg->blocks, "kernel.blocks", ev, 0, 0, v, out, err);
    evaluator_destroy(ev);
    if (st == PN_OK && *out < 1)
        st = pn_error_at(err, PN_EINVAL, cfg->path, cfg->blocks.pos.line, cfg->blocks.pos.col,
                         "kernel.blocks must be at least 1, got %llu", (unsigned long long)*out);
    return st;
}

pn_status_t pn_config_counts_full(const pn_config_t *cfg, uint32_t threads, uint64_t blocks,
                                  const double *param_values, pn_counts_t *out,
                                  pn_error_t *err)
{
    vars_t v;
    PN_CHECK(vars_new(cfg, out, "pn_config_counts", threads, param_values, &v, err));
    pn_status_t st = blocks ? PN_OK : eval_blocks(cfg, &v, &blocks, err);
    v.vals[v.n - 4] = (double)blocks;
    if (st == PN_OK)
        st = eval_counts(cfg, &v, out, err);
    if (st == PN_OK && cfg->has_program)
        st = eval_programs(cfg, &v, NULL, out, err);
    vars_free(&v);
    return st;
}

pn_status_t pn_config_counts(const pn_config_t *cfg, uint32_t threads,
                             const double *param_values, pn_warp_counts_t *out,
                             pn_error_t *err)
{
    if (!out)
        return pn_error_set(err, PN_EINVAL, "pn_config_counts: NULL argument");
    uint32_t warps = pn_sm_warps_of(threads);
    pn_counts_t *full = calloc(warps ? warps : 1, sizeof *full);
    if (!full)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    pn_status_t st = pn_config_counts_full(cfg, threads, 0, param_values, full, err);
    for (uint32_t w = 0; st == PN_OK && w < warps; w++) {
        const uint64_t *n = full[w].n;
        uint64_t c[3] = {n[PN_CK_ARITH] + n[PN_CK_SFU],
                         n[PN_CK_SHARED] + n[PN_CK_SHARED_LD] + n[PN_CK_SHARED_ST],
                         n[PN_CK_GLOBAL] + n[PN_CK_GLOBAL_LD] + n[PN_CK_GLOBAL_ST]};
        for (int k = 0; k < 3; k++)
            if (c[k] > PN_SM_MAX_COUNT)
                st = pn_error_at(err, PN_ELIMIT, cfg->path, cfg->kernel_pos.line,
                                 cfg->kernel_pos.col, "warp %u: %s instructions add up to more "
                                 "than %llu", w, pn_kind_names[k],
                                 (unsigned long long)PN_SM_MAX_COUNT);
        out[w].arith = c[0];
        out[w].shared = c[1];
        out[w].global = c[2];
    }
    free(full);
    return st;
}

pn_status_t pn_config_eval_kernel(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
                                  uint32_t threads, uint64_t blocks, const double *param_values,
                                  uint64_t lo, uint64_t hi, uint64_t *out, pn_error_t *err)
{
    vars_t v;
    PN_CHECK(vars_new(cfg, out, what, threads, param_values, &v, err));
    v.vals[v.n - 4] = (double)blocks;
    void *ev;
    pn_status_t st = pn_config_i_expr_compile(cfg, e, what, &ev, err);
    if (st == PN_OK) {
        st = eval_warp(cfg, e, what, ev, 0, 0, &v, out, err);
        evaluator_destroy(ev);
    }
    if (st == PN_OK && (*out < lo || *out > hi))
        st = pn_error_at(err, PN_EINVAL, cfg->path, e->pos.line, e->pos.col,
                         "%s must be between %llu and %llu, got %llu", what,
                         (unsigned long long)lo, (unsigned long long)hi,
                         (unsigned long long)*out);
    vars_free(&v);
    return st;
}

pn_status_t pn_config_memory(const pn_config_t *cfg, uint32_t threads, uint64_t blocks,
                             const double *param_values, pn_memory_t *out, pn_error_t *err)
{
    *out = cfg->memory;
    vars_t v;
    int any = 0;
    for (int i = 0; i < PN_MEMORY_KEYS; i++)
        any |= cfg->memory_expr[i].text != NULL;
    if (!any)
        return PN_OK;
    PN_CHECK(vars_new(cfg, out, "pn_config_memory", threads, param_values, &v, err));
    v.vals[v.n - 4] = (double)blocks;
    pn_status_t st = PN_OK;
    for (int i = 0; i < PN_MEMORY_KEYS && st == PN_OK; i++) {
        const pn_expr_t *e = &cfg->memory_expr[i];
        if (!e->text)
            continue;
        void *ev;
        st = pn_config_i_expr_compile(cfg, e, "kernel.memory", &ev, err);
        if (st != PN_OK)
            break;
        double x = evaluator_evaluate(ev, v.n, v.names, v.vals);
        evaluator_destroy(ev);
        if (!isfinite(x)) {
            char snip[80];
            pn_yaml_snippet(snip, sizeof snip, e->text, strlen(e->text));
            st = pn_error_at(err, PN_EINVAL, cfg->path, e->pos.line, e->pos.col,
                             "kernel.memory: '%s' evaluates to %g for threads %u", snip, x,
                             threads);
            break;
        }
        *pn_config_memory_field(out, i) = x;
        st = pn_config_memory_range(cfg->path, i, x, e->pos.line, e->pos.col, err);
    }
    vars_free(&v);
    return st;
}

pn_status_t pn_config_param_values(const pn_config_t *cfg, double **out, pn_error_t *err)
{
    double *v = malloc((cfg->n_params ? cfg->n_params : 1) * sizeof *v);
    *out = v;
    if (!v)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    for (size_t i = 0; i < cfg->n_params; i++)
        v[i] = cfg->params[i].value;
    return PN_OK;
}
