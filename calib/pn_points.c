/* pn_points.c - resolve measured points against a device and simulate them in
 * parallel, seed-deterministically. */
#include "pn_points.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_baseline.h"
#include "pn_stats.h"

void pn_points_destroy(pn_point_set_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_points; i++) {
        pn_kernel_destroy(&s->points[i].k);
        free(s->points[i].params);
    }
    free(s->points);
    for (size_t i = 0; i < s->n_configs; i++)
        pn_config_destroy(&s->configs[i]);
    free(s->configs);
    if (s->groups)
        for (size_t i = 0; i < s->n_groups; i++)
            free(s->groups[i]);
    free(s->groups);
    memset(s, 0, sizeof *s);
}

/* Prefix err's message with "csv:line: " (or "csv:line:col: " when col > 0). */
static void prefix_at(pn_error_t *err, const char *csv, long line, long col)
{
    char pre[PN_ERROR_MSG_MAX];
    if (col > 0)
        snprintf(pre, sizeof pre, "%s:%ld:%ld", csv ? csv : "?", line, col);
    else
        snprintf(pre, sizeof pre, "%s:%ld", csv ? csv : "?", line);
    pn_error_prefix(err, pre);
}

/* Is `label` one of the comma-separated names in list? */
static int in_list(const char *list, const char *label)
{
    size_t n = strlen(label);
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t l = e ? (size_t)(e - s) : strlen(s);
        if (l == n && !strncmp(s, label, n))
            return 1;
        s += l + (e ? 1 : 0);
    }
    return 0;
}

static pn_status_t config_index(pn_point_set_t *s, const pn_measure_t *m,
                                const pn_measure_point_t *mp, size_t *idx, pn_error_t *err)
{
    for (size_t i = 0; i < s->n_configs; i++)
        if (!strcmp(s->configs[i].path, mp->config_path)) {
            *idx = i;
            return PN_OK;
        }
    pn_config_t *c = &s->configs[s->n_configs];
    pn_status_t st = pn_config_load(c, mp->config_path, err);
    if (st != PN_OK) {
        prefix_at(err, m->path, mp->line, mp->config_col);
        return st;
    }
    *idx = s->n_configs++;
    return PN_OK;
}

static pn_status_t group_index(pn_point_set_t *s, const char *label, size_t *idx,
                               pn_error_t *err)
{
    for (size_t i = 0; i < s->n_groups; i++)
        if (!strcmp(s->groups[i], label)) {
            *idx = i;
            return PN_OK;
        }
    s->groups[s->n_groups] = strdup(label);
    if (!s->groups[s->n_groups])
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    *idx = s->n_groups++;
    return PN_OK;
}

/* The params of cfg with the row's overrides applied; caller frees. */
static pn_status_t param_values(const pn_config_t *cfg, const pn_measure_t *m,
                                const pn_measure_point_t *mp, double **out, pn_error_t *err)
{
    double *v = malloc((cfg->n_params ? cfg->n_params : 1) * sizeof *v);
    if (!v)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    for (size_t i = 0; i < cfg->n_params; i++)
        v[i] = cfg->params[i].value;
    for (size_t j = 0; j < mp->n_params; j++) {
        size_t i = 0;
        while (i < cfg->n_params && strcmp(cfg->params[i].name, mp->params[j].name) != 0)
            i++;
        if (i == cfg->n_params) {
            char names[512] = "";
            size_t o = 0;
            for (size_t k = 0; k < cfg->n_params && o < sizeof names; k++)
                o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", k ? ", " : "",
                                      cfg->params[k].name);
            free(v);
            return pn_error_at(err, PN_EINVAL, m->path, mp->line, mp->params[j].col,
                               "params: config %s defines no parameter '%s' (its params: %s)",
                               mp->config, mp->params[j].name,
                               cfg->n_params ? names : "none");
        }
        v[i] = mp->params[j].value;
    }
    *out = v;
    return PN_OK;
}

static pn_status_t resolve_all(pn_point_set_t *s, const pn_measure_t *m, const pn_device_t *dev,
                               const pn_point_opts_t *o, pn_error_t *err)
{
    size_t n = m->n_points;
    s->configs = calloc(n, sizeof *s->configs);
    s->groups = calloc(n, sizeof *s->groups);
    s->points = calloc(n, sizeof *s->points);
    if (!s->configs || !s->groups || !s->points)
        return pn_error_set(err, PN_ENOMEM, "out of memory for %zu points", n);
    for (size_t i = 0; i < n; i++) {
        const pn_measure_point_t *mp = &m->points[i];
        size_t ci;
        PN_CHECK(config_index(s, m, mp, &ci, err));
        const pn_config_t *cfg = &s->configs[ci];
        const char *label = mp->kernel ? mp->kernel : cfg->kernel_name;
        if (o && o->kernels && !in_list(o->kernels, label))
            continue;
        pn_point_t *p = &s->points[s->n_points];
        p->m = mp;
        p->cfg = ci;
        PN_CHECK(param_values(cfg, m, mp, &p->params, err));
        pn_status_t st = pn_config_resolve(cfg, dev, mp->threads, p->params, &p->k, err);
        if (st != PN_OK) {
            free(p->params);
            p->params = NULL;
            prefix_at(err, m->path, mp->line, 0);
            return st;
        }
        s->n_points++;
        PN_CHECK(group_index(s, label, &p->group, err));
        p->fixed_l1 = cfg->has_l1;
        p->fixed_l2 = cfg->has_l2;
        p->runs = o && o->runs ? o->runs : cfg->runs;
        p->seed = o && o->have_seed ? o->seed : cfg->seed;
        p->max_steps = o && o->max_steps ? o->max_steps : cfg->max_steps;
        p->l1 = p->k.sm.l1;
        p->l2 = p->k.sm.l2;
    }
    if (o && o->kernels) {
        for (const char *q = o->kernels; *q;) {
            const char *e = strchr(q, ',');
            size_t l = e ? (size_t)(e - q) : strlen(q);
            size_t g = 0;
            while (g < s->n_groups && !(strlen(s->groups[g]) == l && !strncmp(s->groups[g], q, l)))
                g++;
            if (g == s->n_groups)
                return pn_error_set(err, PN_EINVAL, "--kernels: no point of %s has kernel "
                                    "'%.*s'", m->path, (int)l, q);
            q += l + (e ? 1 : 0);
        }
    }
    if (s->n_points == 0)
        return pn_error_set(err, PN_EINVAL, "%s: no points selected", m->path);
    return PN_OK;
}

pn_status_t pn_points_resolve(pn_point_set_t *s, const pn_measure_t *m, const pn_device_t *dev,
                              const pn_point_opts_t *o, pn_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->csv_path = m->path;
    pn_status_t st = resolve_all(s, m, dev, o, err);
    if (st != PN_OK)
        pn_points_destroy(s);
    return st;
}

/* ---- simulation ------------------------------------------------------------ */

typedef struct sim {
    pn_point_set_t *s;
    pn_engine_kind_t kind;
    uint32_t l1, l2;
    unsigned inner;               /* threads per point */
    size_t *order;                /* points, costliest first */
    size_t next;
    size_t done;
    size_t first_failed;          /* lowest failing point index, n_points if none */
    pn_error_t first_err;
    FILE *progress;
    pthread_mutex_t lock;
} sim_t;

/* Simulate point p exactly as `pnsim run` simulates its config at the row's
 * threads and params: the config's own net (pn_config_build_net: the SM net
 * of the counts, or the program-order net) on the engine the model picks. */
static pn_status_t sim_point(sim_t *j, pn_point_t *p, pn_error_t *err)
{
    const pn_config_t *cfg = &j->s->configs[p->cfg];
    pn_kernel_t k = p->k;                 /* shallow: the counts stay p's */
    if (j->l1 && !p->fixed_l1)
        k.sm.l1 = j->l1;
    if (j->l2 && !p->fixed_l2)
        k.sm.l2 = j->l2;
    pn_sm_params_t sm = k.sm;
    pn_net_t net;
    pn_sm_layout_t lay = { 0 };
    pn_net_init(&net);
    pn_prepared_t prep = { 0 };
    pn_run_opts_t o = { .max_steps = p->max_steps, .net_name = j->s->groups[p->group] };
    pn_run_result_t *res = calloc(p->runs, sizeof *res);
    pn_status_t st = res ? pn_config_build_net(cfg, &k, p->params, &net, &lay, err)
                         : pn_error_set(err, PN_ENOMEM, "out of memory for %u runs", p->runs);
    o.idle_trans = lay.t0;
    if (st == PN_OK)
        st = pn_config_prepare_engine(&prep, j->kind, cfg, &k, &net, &o, err);
    p->engine = pn_engine_prepared_name(&prep);
    if (st == PN_OK)
        st = pn_engine_run_batch(&prep, p->seed, p->runs, j->inner, res, err);
    pn_engine_release(&prep);
    if (st == PN_OK) {
        pn_summary_t steps, idle;
        st = pn_summary_runs(res, p->runs, &steps, &idle, err);
        p->steps_mean = steps.mean;
        p->steps_sd = steps.sd;
        p->idle_mean = idle.mean;
        p->l1 = sm.l1;
        p->l2 = sm.l2;
    }
    free(res);
    pn_net_destroy(&net);
    return st;
}

static void *sim_worker(void *arg)
{
    sim_t *j = arg;
    pn_error_t err;
    for (;;) {
        pthread_mutex_lock(&j->lock);
        size_t k = j->first_failed == j->s->n_points ? j->next++ : j->s->n_points;
        pthread_mutex_unlock(&j->lock);
        if (k >= j->s->n_points)
            return NULL;
        size_t i = j->order[k];
        pn_point_t *p = &j->s->points[i];
        pn_error_clear(&err);
        pn_status_t st = sim_point(j, p, &err);
        pthread_mutex_lock(&j->lock);
        if (st != PN_OK) {
            if (i < j->first_failed) {
                j->first_failed = i;
                j->first_err = err;
                j->first_err.code = st;
            }
        } else if (j->progress) {
            j->done++;
            fprintf(j->progress, "[%zu/%zu] %s threads %u (line %ld): %.1f steps\n", j->done,
                    j->s->n_points, j->s->groups[p->group], p->k.threads, p->m->line,
                    p->steps_mean);
            fflush(j->progress);
        }
        pthread_mutex_unlock(&j->lock);
    }
}

/* Costliest first (roofline steps times runs), then file order. */
typedef struct task {
    double cost;
    size_t i;
} task_t;

static int by_cost(const void *a, const void *b)
{
    const task_t *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

pn_status_t pn_points_simulate(pn_point_set_t *s, pn_engine_kind_t kind, uint32_t l1,
                               uint32_t l2, unsigned jobs, FILE *progress, pn_error_t *err)
{
    size_t n = s->n_points;
    if (n == 0)
        return PN_OK;
    if (jobs == 0)
        jobs = pn_engine_cpu_count();
    uint32_t max_runs = 1;
    for (size_t i = 0; i < n; i++)
        if (s->points[i].runs > max_runs)
            max_runs = s->points[i].runs;
    unsigned outer = jobs / max_runs;
    if (outer < 1)
        outer = 1;
    if (outer > n)
        outer = (unsigned)n;
    sim_t j = { .s = s, .kind = kind, .l1 = l1, .l2 = l2, .first_failed = n,
                .progress = progress };
    j.inner = jobs / outer ? jobs / outer : 1;
    j.order = malloc(n * sizeof *j.order);
    task_t *tasks = malloc(n * sizeof *tasks);
    if (!j.order || !tasks) {
        free(j.order);
        free(tasks);
        return pn_error_set(err, PN_ENOMEM, "out of memory for %zu points", n);
    }
    for (size_t i = 0; i < n; i++) {
        const pn_point_t *p = &s->points[i];
        tasks[i].cost = pn_baseline_roofline(p->k.sm.warps, p->k.sm.n_warps,
                                             p->k.sm.schedulers, l1 ? l1 : p->k.sm.l1,
                                             l2 ? l2 : p->k.sm.l2) * p->runs;
        tasks[i].i = i;
    }
    qsort(tasks, n, sizeof *tasks, by_cost);
    for (size_t i = 0; i < n; i++)
        j.order[i] = tasks[i].i;
    free(tasks);
    pn_error_clear(&j.first_err);
    pthread_mutex_init(&j.lock, NULL);
    pthread_t *tid = outer > 1 ? calloc(outer - 1, sizeof *tid) : NULL;
    unsigned started = 0;
    if (tid)
        for (; started < outer - 1; started++)
            if (pthread_create(&tid[started], NULL, sim_worker, &j) != 0)
                break;
    sim_worker(&j);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    free(j.order);
    pthread_mutex_destroy(&j.lock);
    if (j.first_failed < n) {
        if (err) {
            *err = j.first_err;
            prefix_at(err, s->csv_path, s->points[j.first_failed].m->line, 0);
        }
        return j.first_err.code;
    }
    return PN_OK;
}
