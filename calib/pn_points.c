/* pn_points.c - resolve measured points against a device and simulate them in
 * parallel, seed-deterministically. */
#include "pn_points.h"

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
    double *v;
    PN_CHECK(pn_config_param_values(cfg, &v, err));
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
        pn_kernel_t k;
        pn_status_t st = pn_kernel_resolve(cfg, dev, mp->threads, p->params, &k, err);
        if (st != PN_OK) {
            free(p->params);
            p->params = NULL;
            prefix_at(err, m->path, mp->line, 0);
            return st;
        }
        /* keep the scalars; the counts are resolved again to simulate */
        p->k = (pn_point_kernel_t){ k.threads, k.sm.n_warps, k.net,
                                    { k.sm.schedulers, k.sm.l1, k.sm.l2 } };
        p->cost = pn_baseline_roofline(k.sm.warps, k.sm.n_warps, k.sm.schedulers, k.sm.l1,
                                       k.sm.l2);
        pn_kernel_destroy(&k);
        s->n_points++;
        PN_CHECK(group_index(s, label, &p->group, err));
        p->fixed_l1 = cfg->has_l1;
        p->fixed_l2 = cfg->has_l2;
        p->runs = o && o->runs ? o->runs : cfg->runs;
        p->cost *= p->runs;
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
    s->stop = o ? o->stop : NULL;
    s->dev = dev;
    pn_status_t st = resolve_all(s, m, dev, o, err);
    if (st != PN_OK)
        pn_points_destroy(s);
    return st;
}

/* ---- simulation ------------------------------------------------------------ */

/* What the simulation of one point holds while its runs are in the pool. */
typedef struct point_sim {
    pn_net_t net;
    pn_kernel_t k;                /* the point's kernel at the latencies simulated */
    pn_run_opts_t opts;
    pn_prepared_t prep;
    pn_run_result_t *res;
    uint32_t done;                /* runs finished */
} point_sim_t;

typedef struct sim {
    pn_point_set_t *s;
    point_sim_t *ps;              /* per point */
    size_t *point_of;             /* per job: its point */
    size_t finished;              /* points whose runs are all done */
    FILE *progress;
} sim_t;

/* Build point p's net exactly as `pnsim run` builds its config's at the
 * row's threads and params (pn_kernel_net_build: the SM net of the counts,
 * or the program-order net), at latencies l1 and l2 where the config does not
 * fix them, and prepare the engine its model picks (pn_kernel_net_engine). */
static pn_status_t sim_prepare(const pn_point_set_t *s, pn_point_t *p, point_sim_t *q,
                               pn_engine_kind_t kind, uint32_t l1, uint32_t l2, pn_error_t *err)
{
    const pn_config_t *cfg = &s->configs[p->cfg];
    pn_net_init(&q->net);
    PN_CHECK(pn_point_kernel(s, (size_t)(p - s->points), &q->k, err));
    if (l1 && !p->fixed_l1)
        q->k.sm.l1 = l1;
    if (l2 && !p->fixed_l2)
        q->k.sm.l2 = l2;
    q->opts = (pn_run_opts_t){ .max_steps = p->max_steps, .net_name = s->groups[p->group],
                              .stop = s->stop };
    q->res = calloc(p->runs ? p->runs : 1, sizeof *q->res);
    if (!q->res)
        return pn_error_set(err, PN_ENOMEM, "out of memory for %u runs", p->runs);
    pn_sm_layout_t lay;
    PN_CHECK(pn_kernel_net_check_steps(cfg, &q->k, p->max_steps, p->max_steps != cfg->max_steps,
                                       &q->opts.max_steps, err));
    PN_CHECK(pn_kernel_net_build_for(cfg, &q->k, p->params, kind, &q->net, &lay, err));
    q->opts.idle_trans = lay.t0;
    pn_status_t st = pn_kernel_net_engine(&q->prep, kind, cfg, &q->k, &q->net, &q->opts,
                                              err);
    p->engine = pn_engine_prepared_name(&q->prep);
    p->l1 = q->k.sm.l1;
    p->l2 = q->k.sm.l2;
    return st;
}

/* The summaries of point i's finished runs. */
static pn_status_t sim_summarise(sim_t *j, size_t i, pn_error_t *err)
{
    pn_point_t *p = &j->s->points[i];
    pn_summary_t steps, idle;
    PN_CHECK(pn_summary_runs(j->ps[i].res, p->runs, &steps, &idle, err));
    p->steps_mean = steps.mean;
    p->steps_sd = steps.sd;
    p->idle_mean = idle.mean;
    return PN_OK;
}

/* Called by the pool, under its lock, as each run finishes. */
static void sim_progress(void *ctx, size_t job, size_t done, size_t total)
{
    sim_t *j = ctx;
    size_t i = j->point_of[job];
    pn_point_t *p = &j->s->points[i];
    (void)done;
    (void)total;
    if (j->s->on_run)
        j->s->on_run(j->s->on_run_ctx);
    if (++j->ps[i].done < p->runs || sim_summarise(j, i, NULL) != PN_OK)
        return;
    j->finished++;
    if (!j->progress)
        return;
    fprintf(j->progress, "[%zu/%zu] %s threads %u (line %ld): %.1f steps\n", j->finished,
            j->s->n_points, j->s->groups[p->group], p->k.threads, p->m->line, p->steps_mean);
    fflush(j->progress);
}

/* Costliest first (roofline steps at the resolved latencies times runs),
 * then file order: it orders the work, not the results. */
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

/* Point indices, costliest first; caller frees. */
static size_t *cost_order(const pn_point_set_t *s)
{
    size_t n = s->n_points;
    size_t *order = malloc(n * sizeof *order);
    task_t *tasks = malloc(n * sizeof *tasks);
    if (!order || !tasks) {
        free(order);
        free(tasks);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        tasks[i].cost = s->points[i].cost;
        tasks[i].i = i;
    }
    qsort(tasks, n, sizeof *tasks, by_cost);
    for (size_t i = 0; i < n; i++)
        order[i] = tasks[i].i;
    free(tasks);
    return order;
}

/* Points prepared (nets built, engines planned) and simulated at a time:
 * memory follows the window, not the measurements file. */
#define SIM_WINDOW 256

pn_status_t pn_points_simulate(pn_point_set_t *s, pn_engine_kind_t kind, uint32_t l1,
                               uint32_t l2, unsigned jobs, FILE *progress, pn_error_t *err)
{
    size_t n = s->n_points;
    if (n == 0)
        return PN_OK;
    uint32_t most_runs = 0;
    for (size_t i = 0; i < n; i++)
        most_runs = s->points[i].runs > most_runs ? s->points[i].runs : most_runs;
    size_t max_jobs = (size_t)SIM_WINDOW * most_runs;
    sim_t j = { .s = s, .progress = progress };
    j.ps = calloc(n, sizeof *j.ps);
    j.point_of = malloc((max_jobs ? max_jobs : 1) * sizeof *j.point_of);
    pn_job_t *job = malloc((max_jobs ? max_jobs : 1) * sizeof *job);
    size_t *order = cost_order(s);
    size_t failed = n;
    pn_status_t st = PN_OK;
    if (!j.ps || !j.point_of || !job || !order)
        st = pn_error_set(err, PN_ENOMEM, "out of memory for %zu points", n);
    /* the points in windows of SIM_WINDOW, costliest first; the runs of a
     * window's points in one pool */
    for (size_t w0 = 0; w0 < n && st == PN_OK; w0 += SIM_WINDOW) {
        size_t w1 = w0 + SIM_WINDOW < n ? w0 + SIM_WINDOW : n, prepared = 0, nj = 0;
        for (size_t k = w0; k < w1 && st == PN_OK; k++) {
            size_t i = order[k];
            pn_point_t *p = &s->points[i];
            prepared++;
            st = sim_prepare(s, p, &j.ps[i], kind, l1, l2, err);
            if (st != PN_OK) {
                failed = i;
                break;
            }
            for (uint32_t r = 0; r < p->runs; r++, nj++) {
                job[nj] = (pn_job_t){ &j.ps[i].prep, p->seed + r, &j.ps[i].res[r] };
                j.point_of[nj] = i;
            }
        }
        if (st == PN_OK) {
            size_t bad;
            st = pn_engine_run_jobs(job, nj, jobs, progress || s->on_run ? sim_progress : NULL,
                                    &j, &bad, err);
            if (st != PN_OK)
                failed = j.point_of[bad];
        }
        for (size_t k = w0; k < w1 && st == PN_OK; k++)
            st = sim_summarise(&j, order[k], err);
        for (size_t k = w0; k < w0 + prepared; k++) {
            point_sim_t *q = &j.ps[order[k]];
            pn_engine_release(&q->prep);
            pn_net_destroy(&q->net);
            pn_kernel_destroy(&q->k);
            free(q->res);
            q->res = NULL;
        }
    }
    if (st != PN_OK && failed < n)
        prefix_at(err, s->csv_path, s->points[failed].m->line, 0);
    free(order);
    free(job);
    free(j.point_of);
    free(j.ps);
    return st;
}

pn_status_t pn_point_kernel(const pn_point_set_t *s, size_t i, pn_kernel_t *k, pn_error_t *err)
{
    const pn_point_t *p = &s->points[i];
    return pn_kernel_resolve(&s->configs[p->cfg], s->dev, p->m->threads, p->params, k, err);
}
