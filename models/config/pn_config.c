/* pn_config.c - reading a pnsim YAML configuration with libyaml: the tree
 * walked, every key and value checked, positions kept for messages. */
#include "pn_config.h"
#include "pn_config_i.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_yaml.h"

/* Ranges of the config's integers (doc/config.md). */
#define MAX_RUNS       1000000u
#define MAX_WARP_INDEX (PN_SM_MAX_THREADS / PN_SM_WARP_THREADS - 1u)

#define DEFAULT_DEVICE    "gtx960m"
#define DEFAULT_RUNS      10u
#define DEFAULT_SEED      1u
#define DEFAULT_MAX_STEPS UINT64_C(100000000)

static const char *const top_keys[] = {"device", "model", "params", "kernel",
                                       "simulation", "sweep", NULL};
/* model's own keys; the pipelined section's (pn_pipe_device_keys) follow them */
static const char *const model_keys[] = {"schedulers", "latency", "selection", "net", NULL};
/* keys of model: and model.latency that pn_pipe_device_parse leaves alone */
static const char *const paper_model_keys[] = {"schedulers", "selection", "net", "global",
                                               "shared", NULL};
static const char *const latency_keys[] = {"global", "shared", NULL};
static const char *const kernel_keys[] = {"name", "threads", "counts", "program", "warps",
                                          "memory", "blocks", "registers", "shared_bytes",
                                          "sass", NULL};
static const char *const override_keys[] = {"warp", "arith", "shared", "global", "sfu",
                                            "shared_ld", "shared_st", "global_ld", "global_st",
                                            "barriers", "program", NULL};
static const char *const nets[] = {"paper", "pipelined", NULL};

static const char *const segment_keys[] = {"repeat", "body", NULL};
static const char *const sim_keys[] = {"runs", "seed", "max_steps", NULL};
static const char *const selections[] = {"paper", NULL};

/* Names that expressions or sweeps give a meaning of their own. */
static const char *const reserved_names[] = {"threads", "warps", "warp", "schedulers",
                                             "global", "shared", "blocks", "registers",
                                             "shared_bytes", NULL};

static pn_pos_t pos_of(const yaml_node_t *n)
{
    pn_pos_t p = {pn_yaml_line(n), pn_yaml_col(n)};
    return p;
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
    const char *keys[96];
    size_t n = 0;
    for (size_t i = 0; model_keys[i]; i++)
        keys[n++] = model_keys[i];
    for (size_t i = 0; pn_pipe_device_keys[i]; i++)
        if (strcmp(pn_pipe_device_keys[i], "latency")) {
            assert(n + 1 < sizeof keys / sizeof keys[0]);
            keys[n++] = pn_pipe_device_keys[i];
        }
    keys[n] = NULL;
    PN_CHECK(pn_yaml_check_keys(r->y, m, "model", keys, r->err));
    c->model_pos = pos_of(m);
    if ((v = pn_yaml_get(r->y, m, "net", NULL)) != NULL) {
        char *s = NULL;
        PN_CHECK(pn_yaml_string(r->y, v, "model.net", &s, r->err));
        int known = pn_config_in_list(nets, s, strlen(s));
        c->net = !strcmp(s, "pipelined") ? PN_NET_PIPELINED : PN_NET_PAPER;
        if (!known) {
            char snip[64];
            pn_yaml_snippet(snip, sizeof snip, s, strlen(s));
            free(s);
            return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(v), pn_yaml_col(v),
                               "model.net must be one of: paper, pipelined, got '%s'", snip);
        }
        free(s);
        c->net_pos = pos_of(v);
    }
    PN_CHECK(pn_pipe_device_parse(r->y, m, "model", 0, paper_model_keys, &c->pipe_over, r->err));
    if ((c->pipe_over.set || c->pipe_over.set2) && c->net != PN_NET_PIPELINED)
        return pn_error_at(r->err, PN_EINVAL, c->path, c->model_pos.line, c->model_pos.col,
                           "model: the keys of the pipelined net (partitions, issue, "
                           "clock_mhz, launch_us, sfu_busy, lsu_sectors, shared_wavefronts, "
                           "dram_sectors, inflight, latency.arith, ...) need model.net: "
                           "pipelined");
    if ((v = pn_yaml_get(r->y, m, "schedulers", NULL)) != NULL) {
        PN_CHECK(get_u32(r, v, "model.schedulers", 1, PN_SM_MAX_SCHEDULERS, &c->schedulers,
                         &c->schedulers_pos));
        c->has_schedulers = 1;
    }
    yaml_node_t *lat = section(r, m, "latency", NULL);
    if (lat) {
        PN_CHECK(pn_yaml_expect(r->y, lat, YAML_MAPPING_NODE, "model.latency", r->err));
        PN_CHECK(pn_yaml_check_keys(r->y, lat, "model.latency", NULL, r->err));
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
    if (c->net == PN_NET_PIPELINED && (c->has_schedulers || c->has_l1 || c->has_l2)) {
        pn_pos_t at = c->has_schedulers ? c->schedulers_pos : c->has_l1 ? c->l1_pos : c->l2_pos;
        return pn_error_at(r->err, PN_EINVAL, c->path, at.line, at.col,
                           "model.schedulers and model.latency.global/shared belong to the "
                           "paper net; with model.net: pipelined use partitions and "
                           "latency.arith, sfu, shared_ld, shared_st, l1, l2, dram, "
                           "global_st, barrier");
    }
    if ((v = pn_yaml_get(r->y, m, "selection", NULL)) != NULL) {
        char *s = NULL;
        PN_CHECK(pn_yaml_string(r->y, v, "model.selection", &s, r->err));
        if (!pn_config_in_list(selections, s, strlen(s))) {
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

/* Reads entry i (at `entry`) of a read_named mapping: key k, value v. */
typedef pn_status_t (*entry_fn)(reader_t *r, yaml_node_t *k, yaml_node_t *v, void *entry,
                                size_t i);

/* A mapping whose keys the user names (params, sweep): checked to be a
 * mapping without repeated keys, *out allocated with one zeroed entry of
 * `size` bytes per key (NULL for an empty mapping), then each entry read by
 * fn in order. *out is set also on error: the caller owns it. */
static pn_status_t read_named(reader_t *r, yaml_node_t *m, const char *what, size_t size,
                              void **out, entry_fn fn)
{
    *out = NULL;
    PN_CHECK(pn_yaml_expect(r->y, m, YAML_MAPPING_NODE, what, r->err));
    PN_CHECK(pn_yaml_check_keys(r->y, m, what, NULL, r->err));
    size_t n = pn_yaml_len(m);
    if (n && !(*out = calloc(n, size)))
        return pn_error_at(r->err, PN_ENOMEM, r->c->path, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++)
        PN_CHECK(fn(r, pn_yaml_pair_key(r->y, m, i), pn_yaml_pair_value(r->y, m, i),
                    (char *)*out + i * size, i));
    return PN_OK;
}

/* params.NAME: VALUE, entry i. */
static pn_status_t read_param(reader_t *r, yaml_node_t *k, yaml_node_t *v, void *entry,
                              size_t i)
{
    pn_config_t *c = r->c;
    pn_param_t *p = entry;
    const char *name = (const char *)k->data.scalar.value;
    char snip[64], what[96];
    pn_yaml_snippet(snip, sizeof snip, name, k->data.scalar.length);
    if (strlen(name) != k->data.scalar.length || !pn_config_i_is_identifier(name))
        return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(k), pn_yaml_col(k),
                           "params name '%s' must be an identifier (letters, digits, "
                           "'_', not starting with a digit)", snip);
    if (pn_config_in_list(reserved_names, name, strlen(name)))
        return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(k), pn_yaml_col(k),
                           "params name '%s' is reserved (threads, warps, warp, "
                           "schedulers, global, shared), choose another name", snip);
    if (pn_config_i_is_builtin(name))
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
    for (int k = 0; k < PN_CK_COUNT; k++) {
        yaml_node_t *v = pn_yaml_get(r->y, m, pn_count_keys[k], NULL);
        if (!v)
            continue;
        snprintf(what, sizeof what, "%s.%s", prefix, pn_count_keys[k]);
        PN_CHECK(read_expr(r, v, what, &count[k]));
        PN_CHECK(pn_config_i_expr_check(r->c, &count[k], what, r->err));
    }
    return PN_OK;
}

/* kernel.memory: how the kernel's accesses behave (PIPELINED.md); a value is
 * a number, or an expression evaluated per point (pn_config_memory). */
static pn_status_t read_memory(reader_t *r, yaml_node_t *m)
{
    pn_config_t *c = r->c;
    PN_CHECK(pn_yaml_expect(r->y, m, YAML_MAPPING_NODE, "kernel.memory", r->err));
    PN_CHECK(pn_yaml_check_keys(r->y, m, "kernel.memory", pn_memory_keys, r->err));
    for (int i = 0; pn_memory_keys[i]; i++) {
        yaml_node_t *v = pn_yaml_get(r->y, m, pn_memory_keys[i], NULL);
        char what[64];
        if (!v)
            continue;
        snprintf(what, sizeof what, "kernel.memory.%s", pn_memory_keys[i]);
        if (v->type == YAML_SCALAR_NODE && !pn_yaml_is_decimal(v)) {
            /* an expression: checked now, evaluated per point (pn_config_memory) */
            PN_CHECK(read_expr(r, v, what, &c->memory_expr[i]));
            PN_CHECK(pn_config_i_expr_compile(c, &c->memory_expr[i], what, NULL, r->err));
            continue;
        }
        double *dst = pn_config_memory_field(&c->memory, i);
        PN_CHECK(pn_yaml_number(r->y, v, what, dst, r->err));
        pn_pos_t vp = pos_of(v);
        PN_CHECK(pn_config_memory_range(c->path, i, *dst, vp.line, vp.col, r->err));
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
            PN_CHECK(pn_config_i_expr_check(c, &s->repeat, iwhat, r->err));
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
                               "kinds (arith, shared, global, sfu, shared_st, global_st, each "
                               "optionally *K)", iwhat);
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
                                          "shared, global, sfu, shared_st or global_st, "
                                          "optionally *K)", r->err);
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
        for (int kind = 0; kind < PN_CK_COUNT; kind++)
            if (kind != PN_CK_BARRIERS && pn_yaml_get(r->y, item, pn_count_keys[kind], &k)) {
                snprintf(what, sizeof what, "kernel.warps[%zu].%s", i, pn_count_keys[kind]);
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

static pn_status_t read_sass(reader_t *r, yaml_node_t *v);

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
                           PN_SM_MAX_THREADS);
    PN_CHECK(get_u32(r, v, "kernel.threads", 1, PN_SM_MAX_THREADS, &c->threads, &c->threads_pos));
    yaml_node_t *counts = section(r, m, "counts", NULL);
    if (counts) {
        PN_CHECK(pn_yaml_expect(r->y, counts, YAML_MAPPING_NODE, "kernel.counts", r->err));
        PN_CHECK(pn_yaml_check_keys(r->y, counts, "kernel.counts", pn_count_keys, r->err));
        PN_CHECK(read_counts(r, counts, c->count, "kernel.counts"));
    }
    yaml_node_t *mem = section(r, m, "memory", NULL);
    if (mem)
        PN_CHECK(read_memory(r, mem));
    static const char *const scalars[] = {"blocks", "registers", "shared_bytes"};
    pn_expr_t *dst[] = {&c->blocks, &c->registers, &c->shared_bytes};
    for (int i = 0; i < 3; i++) {
        char what[48];
        if ((v = pn_yaml_get(r->y, m, scalars[i], NULL)) == NULL)
            continue;
        snprintf(what, sizeof what, "kernel.%s", scalars[i]);
        PN_CHECK(read_expr(r, v, what, dst[i]));
        PN_CHECK(pn_config_i_expr_check(c, dst[i], what, r->err));
        if (i == 0 && strstr(c->blocks.text, "blocks"))
            return pn_error_at(r->err, PN_EINVAL, c->path, c->blocks.pos.line,
                               c->blocks.pos.col, "kernel.blocks cannot use the variable "
                               "blocks (it defines it)");
    }
    yaml_node_t *pk, *prog = pn_yaml_get(r->y, m, "program", &pk);
    if (prog) {
        PN_CHECK(read_program(r, prog, pk, "kernel.program", &c->program));
        c->has_program = 1;
    }
    yaml_node_t *warps = section(r, m, "warps", NULL);
    if (warps)
        PN_CHECK(read_overrides(r, warps));
    if ((v = pn_yaml_get(r->y, m, "sass", NULL)) != NULL)
        PN_CHECK(read_sass(r, v));
    return check_modes(r, m, warps);
}

/* kernel.sass: a program file, relative to the config's folder, read now
 * (its errors name its own lines). */
static pn_status_t read_sass(reader_t *r, yaml_node_t *v)
{
    pn_config_t *c = r->c;
    char *name = NULL;
    PN_CHECK(pn_yaml_string(r->y, v, "kernel.sass", &name, r->err));
    c->sass_pos = pos_of(v);
    const char *slash = strrchr(c->path, '/');
    size_t dl = name[0] != '/' && slash ? (size_t)(slash - c->path) + 1 : 0;
    char *path = malloc(dl + strlen(name) + 1);
    if (!path) {
        free(name);
        return pn_error_set(r->err, PN_ENOMEM, "out of memory");
    }
    memcpy(path, c->path, dl);
    strcpy(path + dl, name);
    free(name);
    c->sass = calloc(1, sizeof *c->sass);
    pn_status_t st = c->sass ? pn_sass_prog_read(c->sass, path, r->err)
                             : pn_error_set(r->err, PN_ENOMEM, "out of memory");
    if (st != PN_OK && st != PN_ENOMEM) { /* the key that names it, then the program's place */
        char msg[PN_ERROR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", r->err->msg);
        pn_error_at(r->err, st, c->path, c->sass_pos.line, c->sass_pos.col,
                    "kernel.sass: %s", msg);
    }
    free(path);
    if (st != PN_OK) {
        free(c->sass);
        c->sass = NULL;
    }
    return st;
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

/* sweep.AXIS: [values], entry i. */
static pn_status_t read_axis(reader_t *r, yaml_node_t *k, yaml_node_t *list, void *entry,
                             size_t i)
{
    pn_sweep_axis_t *a = entry;
    pn_config_t *c = r->c;
    const char *name = (const char *)k->data.scalar.value;
    size_t nlen = k->data.scalar.length;
    uint64_t min = 0, max = 0;
    int integer = 1;
    char what[96], snip[64];
    pn_yaml_snippet(snip, sizeof snip, name, nlen);
    if (nlen == 7 && !strcmp(name, "threads"))
        min = 1, max = PN_SM_MAX_THREADS;
    else if (nlen == 10 && !strcmp(name, "schedulers"))
        min = 1, max = PN_SM_MAX_SCHEDULERS;
    else if (pn_config_in_list(latency_keys, name, nlen))
        min = 1, max = PN_SM_MAX_LATENCY;
    else if (nlen == 6 && !strcmp(name, "blocks"))
        min = 1, max = UINT32_MAX;
    else if (nlen == 9 && !strcmp(name, "registers"))
        min = 1, max = 255;
    else if (nlen == 12 && !strcmp(name, "shared_bytes"))
        min = 0, max = 16777216;
    else {
        size_t p = 0;
        while (p < c->n_params && strcmp(c->params[p].name, name))
            p++;
        if (p == c->n_params || strlen(name) != nlen) {
            char known[512];
            size_t o = (size_t)snprintf(known, sizeof known,
                                        "threads, schedulers, global, shared, blocks, "
                                        "registers, shared_bytes");
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
    void *named = NULL;
    if ((v = section(r, root, "params", NULL)) != NULL) {
        pn_status_t st = read_named(r, v, "params", sizeof *c->params, &named, read_param);
        c->params = named;
        PN_CHECK(st);
    }
    v = pn_yaml_get(r->y, root, "kernel", &k);
    if (!k)
        return pn_error_at(r->err, PN_EINVAL, c->path, pn_yaml_line(root), pn_yaml_col(root),
                           "missing key 'kernel' (expected kernel: {threads: N, counts: "
                           "{arith: ..., shared: ..., global: ...}})");
    PN_CHECK(read_kernel(r, v, k));
    if (c->sass && (c->net != PN_NET_PIPELINED || c->has_program))
        return pn_error_at(r->err, PN_EINVAL, c->path, c->sass_pos.line, c->sass_pos.col,
                           "kernel.sass runs on the pipelined net (model: {net: pipelined}) "
                           "and replaces kernel.program: give one of them");
    if ((v = section(r, root, "simulation", NULL)) != NULL)
        PN_CHECK(read_simulation(r, v));
    if ((v = section(r, root, "sweep", NULL)) != NULL) {
        pn_status_t st = read_named(r, v, "sweep", sizeof *c->sweep, &named, read_axis);
        c->sweep = named;
        PN_CHECK(st);
    }
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
    pn_memory_default(&tmp.memory);
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
        return pn_error_at(err, PN_EIO, path, 0, 0, "cannot open: %s", pn_yaml_strerror(errno));
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
    if (cfg->sass) {
        pn_sass_prog_destroy(cfg->sass);
        free(cfg->sass);
        cfg->sass = NULL;
    }
    free(cfg->path);
    free(cfg->device);
    free(cfg->selection);
    for (size_t i = 0; i < cfg->n_params; i++)
        free(cfg->params[i].name);
    free(cfg->params);
    free(cfg->kernel_name);
    for (int k = 0; k < PN_CK_COUNT; k++)
        expr_free(&cfg->count[k]);
    expr_free(&cfg->blocks);
    expr_free(&cfg->registers);
    expr_free(&cfg->shared_bytes);
    for (int i = 0; i < PN_MEMORY_KEYS; i++)
        expr_free(&cfg->memory_expr[i]);
    prog_src_free(&cfg->program);
    for (size_t i = 0; i < cfg->n_overrides; i++) {
        for (int k = 0; k < PN_CK_COUNT; k++)
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

