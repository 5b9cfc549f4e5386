/* pn_grid.c - a grid of blocks with their own per-warp counts: every SM's
 * blocks simulated with the same seeds, the kernel as slow as its slowest
 * SM, run by run. */
#include "pn_grid.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pn_sm_engine.h"
#include "pn_pipe_engine.h"
#include "pn_pipe_profile.h"

/* Do two block lists hold blocks of the same counts, in the same order? */
static int same_list(const pn_warp_counts_t *warp, uint32_t warps, const uint32_t *x, uint32_t nx,
                     const uint32_t *y, uint32_t ny)
{
    if (nx != ny)
        return 0;
    for (uint32_t i = 0; i < nx; i++)
        if (x[i] != y[i] && memcmp(&warp[(size_t)x[i] * warps], &warp[(size_t)y[i] * warps],
                                   warps * sizeof *warp) != 0)
            return 0;
    return 1;
}

/* g->progress after one run of n blocks (a pn_progress_fn). */
typedef struct grid_tick {
    const pn_grid_sim_t *g;
    uint64_t n;
} grid_tick_t;

static void grid_tick(void *ctx, size_t job, size_t done, size_t total)
{
    const grid_tick_t *t = ctx;
    (void)job;
    (void)done;
    (void)total;
    t->g->progress(t->g->progress_ctx, t->n);
}

/* Runs of SM s into results: the n blocks list[0..n) in order on the
 * config's net. */
static pn_status_t run_sm(const pn_grid_sim_t *g, const pn_warp_counts_t *warp, uint32_t warps,
                          const uint32_t *list, uint32_t n, uint32_t s, pn_run_result_t *results,
                          const char **engine, pn_error_t *err)
{
    const pn_kernel_t *k = &g->m->kernel;
    pn_run_opts_t opts = { .max_steps = g->max_steps, .idle_trans = -1,
                           .net_name = g->m->cfg.kernel_name, .stop = g->stop,
                           .at_step = g->at_step };
    const int build = g->engine == PN_ENGINE_FAST || g->engine == PN_ENGINE_LITERAL;
    pn_prepared_t prep;
    pn_net_t net;
    pn_net_init(&net);
    pn_pipe_counts_t *pc = NULL;
    pn_warp_counts_t *bw = NULL;      /* the paper net's per-block counts */
    pn_status_t st;
    memset(&prep, 0, sizeof prep);
    if (k->net == PN_NET_PIPELINED) {
        pc = calloc((size_t)n * warps, sizeof *pc);
        if (!pc) {
            pn_net_destroy(&net);
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        }
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t w = 0; w < warps; w++) {
                const pn_warp_counts_t *c = &warp[(size_t)list[j] * warps + w];
                uint64_t *o = pc[(size_t)j * warps + w].n;
                o[PN_PIPE_ARITH] = c->arith;
                o[PN_PIPE_SHARED_LD] = c->shared;
                pn_memory_split(&g->m->cfg.memory, c->global, &o[PN_PIPE_LD_L1],
                                &o[PN_PIPE_LD_L2], &o[PN_PIPE_LD_DRAM]);
            }
        pn_pipe_params_t pp = k->pipe;
        pp.warps = pc;
        pp.block_warps = pc;
        pp.blocks = n;
        pp.resident = k->resident < n ? k->resident : n;
        pp.programs = NULL;
        pn_pipe_layout_t lay;
        st = build ? pn_pipe_build(&net, &pp, &lay, err) : PN_OK;
        if (st == PN_OK) {
            opts.idle_trans = build ? (int64_t)lay.t0 : -1;
            st = pn_pipe_engine_prepare(&prep, g->engine, &pp, build ? &net : NULL, &opts, err);
        }
    } else {
        /* the paper net: one block as the spec's net, several as its grid net
         * (models/paper/GRID.md) with each block's own counts */
        pn_sm_params_t sp = k->sm;
        sp.warps = &warp[(size_t)list[0] * warps];
        sp.n_warps = warps;
        pn_sm_grid_t gr = { n, k->resident < n ? k->resident : n, 0, NULL };
        if (n > 1) {
            bw = malloc((size_t)n * warps * sizeof *bw);
            if (!bw) {
                pn_net_destroy(&net);
                return pn_error_set(err, PN_ENOMEM, "out of memory");
            }
            for (uint32_t j = 0; j < n; j++)
                memcpy(&bw[(size_t)j * warps], &warp[(size_t)list[j] * warps],
                       warps * sizeof *bw);
            gr.block_warps = bw;
        }
        const int grid = !pn_sm_grid_is_plain(&gr);
        pn_sm_layout_t lay;
        st = build || grid ? pn_sm_build_grid(&net, &sp, &gr, &lay, err) : PN_OK;
        if (st == PN_OK) {
            opts.idle_trans = build || grid ? (int64_t)lay.t0 : -1;
            st = pn_sm_grid_engine_prepare(&prep, g->engine, &sp, &gr,
                                           build || grid ? &net : NULL, &opts, err);
        }
    }
    grid_tick_t tick = { g, n };
    if (st == PN_OK)
        st = pn_engine_run_batch_progress(&prep, g->seed, g->runs, g->jobs,
                                          g->progress ? grid_tick : NULL, &tick, results, err);
    *engine = pn_engine_prepared_name(&prep);
    pn_engine_release(&prep);
    pn_net_destroy(&net);
    free(pc);
    free(bw);
    if (st != PN_OK) {
        char what[32];
        snprintf(what, sizeof what, "SM %u", s);
        pn_error_prefix(err, what);
        pn_kernel_net_locate_error(&g->m->cfg, g->max_steps_given, err);
    }
    return st;
}

/* One simulation job: the blocks list[0..n) on SM s into results. */
typedef struct sm_job {
    const uint32_t *list;
    uint32_t n, s;
    pn_run_result_t *results;
    const char *engine;
    pn_status_t st;
    pn_error_t err;
} sm_job_t;

typedef struct pool {
    const pn_grid_sim_t *g;
    const pn_warp_counts_t *warp;
    uint32_t warps;
    sm_job_t *jobs;
    size_t n, next;
    unsigned inner;                   /* threads per job's runs */
    pthread_mutex_t lock;
} pool_t;

static void *pool_worker(void *arg)
{
    pool_t *p = arg;
    pn_grid_sim_t g1 = *p->g;
    g1.jobs = p->inner;               /* the parallelism is across SMs first */
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        sm_job_t *j = &p->jobs[i];
        j->st = run_sm(&g1, p->warp, p->warps, j->list, j->n, j->s, j->results, &j->engine,
                       &j->err);
    }
}

/* Run the n jobs on g->jobs threads (0: all processors); the status is that
 * of the first failing job in job order, whatever the threads. */
static pn_status_t run_jobs(const pn_grid_sim_t *g, const pn_warp_counts_t *warp, uint32_t warps,
                            sm_job_t *jobs, size_t n, const char **engine, pn_error_t *err)
{
    pool_t p = { .g = g, .warp = warp, .warps = warps, .jobs = jobs, .n = n };
    size_t nt = g->jobs ? g->jobs : pn_engine_cpu_count();
    p.inner = n && nt / n > 1 ? (unsigned)(nt / n) : 1;
    if (nt > n)
        nt = n;
    for (size_t i = 0; i < n; i++) {
        jobs[i].st = PN_OK;
        pn_error_clear(&jobs[i].err);
    }
    pthread_t th[64];
    size_t started = 0;
    if (nt > 64)
        nt = 64;
    if (nt > 1 && pthread_mutex_init(&p.lock, NULL) == 0) {
        for (; started < nt; started++)
            if (pthread_create(&th[started], NULL, pool_worker, &p) != 0)
                break;
        if (started == 0)
            pool_worker(&p);
        for (size_t i = 0; i < started; i++)
            pthread_join(th[i], NULL);
        pthread_mutex_destroy(&p.lock);
    } else {
        pthread_mutex_init(&p.lock, NULL);
        pool_worker(&p);
        pthread_mutex_destroy(&p.lock);
    }
    for (size_t i = 0; i < n; i++) {
        if (jobs[i].engine)
            *engine = jobs[i].engine;
        if (jobs[i].st != PN_OK) {
            *err = jobs[i].err;
            return jobs[i].st;
        }
    }
    return PN_OK;
}

/* Dynamic assignment: each block's mean steps alone on an SM (blocks with
 * the same counts share), then list scheduling over SMs x resident slots:
 * block b < slots to SM b mod SMs, each later one to the slot that frees
 * first (ties: the lowest slot, slot i on SM i mod SMs). sm_of[b] receives
 * the SM, order[] the blocks by start time (ties: block order). */
static pn_status_t assign_dynamic(const pn_grid_sim_t *g, const pn_warp_counts_t *warp,
                                  uint32_t blocks, uint32_t warps, uint32_t S, uint32_t resident,
                                  uint32_t *sm_of, uint32_t *order, const char **engine,
                                  pn_error_t *err)
{
    double *dur = malloc(blocks * sizeof *dur), *start = malloc(blocks * sizeof *start);
    size_t slots = (size_t)S * resident;
    double *free_at = calloc(slots, sizeof *free_at);
    pn_status_t st = PN_OK;
    if (!dur || !start || !free_at) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    uint32_t *same = malloc(blocks * sizeof *same);
    sm_job_t *jobs = calloc(blocks, sizeof *jobs);
    pn_run_result_t *rr = calloc((size_t)blocks * g->runs, sizeof *rr);
    uint32_t *ids = malloc(blocks * sizeof *ids);
    size_t nj = 0;
    if (!same || !jobs || !rr || !ids) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
    } else {
        for (uint32_t b = 0; b < blocks; b++) {
            ids[b] = b;
            same[b] = b;
            for (uint32_t a = 0; a < b && same[b] == b; a++)
                if (same[a] == a && memcmp(&warp[(size_t)a * warps], &warp[(size_t)b * warps],
                                           warps * sizeof *warp) == 0)
                    same[b] = a;
            if (same[b] == b)
                jobs[nj++] = (sm_job_t){ .list = &ids[b], .n = 1, .s = b % S,
                                         .results = &rr[(size_t)b * g->runs] };
            else if (g->progress)
                g->progress(g->progress_ctx, g->runs);
        }
        st = run_jobs(g, warp, warps, jobs, nj, engine, err);
    }
    for (uint32_t b = 0; b < blocks && st == PN_OK; b++) {
        dur[b] = 0;
        for (uint32_t i = 0; i < g->runs; i++)
            dur[b] += (double)rr[(size_t)same[b] * g->runs + i].steps / g->runs;
    }
    free(same);
    free(jobs);
    free(rr);
    free(ids);
    for (uint32_t b = 0; b < blocks && st == PN_OK; b++) {
        size_t slot = b;
        if (b >= slots)
            for (size_t i = slot = 0; i < slots; i++)
                if (free_at[i] < free_at[slot])
                    slot = i;
        start[b] = b < slots ? 0 : free_at[slot];
        free_at[slot] = start[b] + dur[b];
        sm_of[b] = (uint32_t)(slot % S);
        order[b] = b;
    }
    /* blocks by start time, then id (insertion sort: starts mostly rise) */
    for (uint32_t i = 1; i < blocks && st == PN_OK; i++) {
        uint32_t v = order[i], j = i;
        while (j > 0 && start[order[j - 1]] > start[v]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
done:
    free(dur);
    free(start);
    free(free_at);
    return st;
}

uint64_t pn_grid_block_runs(const pn_grid_sim_t *g, uint32_t blocks)
{
    const pn_kernel_t *k = &g->m->kernel;
    const uint64_t S = g->m->dev.sms ? g->m->dev.sms : 1, resident = k->resident ? k->resident : 1;
    const int dyn = g->assign == PN_GRID_DYNAMIC && blocks > S * resident;
    return (uint64_t)g->runs * blocks * (dyn ? 2 : 1);
}

pn_status_t pn_grid_run(const pn_grid_sim_t *g, const pn_warp_counts_t *warp, uint32_t blocks,
                        uint32_t warps, pn_grid_result_t *res, pn_error_t *err)
{
    memset(res, 0, sizeof *res);
    const pn_kernel_t *k = &g->m->kernel;
    const uint32_t S = g->m->dev.sms ? g->m->dev.sms : 1;
    if (warps != k->sm.n_warps || blocks != k->blocks || blocks == 0 || g->runs == 0)
        return pn_error_set(err, PN_EINVAL, "pn_grid_run: %u blocks of %u warps, the config's "
                            "kernel has %llu of %u", blocks, warps,
                            (unsigned long long)k->blocks, k->sm.n_warps);
    const uint32_t sms = blocks < S ? blocks : S;
    const uint32_t resident = k->resident ? k->resident : 1;
    uint32_t *owner = malloc(sms * sizeof *owner);          /* SM whose runs SM s shares */
    uint32_t *sm_of = malloc(blocks * sizeof *sm_of), *order = malloc(blocks * sizeof *order);
    uint32_t *list = malloc(blocks * sizeof *list), *lstart = calloc(sms + 1, sizeof *lstart);
    pn_run_result_t *r = calloc((size_t)sms * g->runs, sizeof *r);
    double *mean = calloc(sms, sizeof *mean);
    pn_run_result_t *kr = calloc(g->runs, sizeof *kr);
    pn_status_t st = PN_OK;
    if (!owner || !sm_of || !order || !list || !lstart || !r || !mean || !kr) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    if (g->assign == PN_GRID_DYNAMIC && blocks > S * resident) {
        st = assign_dynamic(g, warp, blocks, warps, S, resident, sm_of, order, &res->engine,
                            err);
    } else {
        for (uint32_t b = 0; b < blocks; b++) {
            sm_of[b] = b % S;
            order[b] = b;
        }
    }
    if (st != PN_OK)
        goto done;
    /* each SM's blocks in start order: list[lstart[s] .. lstart[s + 1]) */
    for (uint32_t b = 0; b < blocks; b++)
        lstart[sm_of[b] + 1]++;
    for (uint32_t s = 0; s < sms; s++)
        lstart[s + 1] += lstart[s];
    {
        uint32_t *fill = malloc((sms + 1) * sizeof *fill);
        if (!fill) {
            st = pn_error_set(err, PN_ENOMEM, "out of memory");
            goto done;
        }
        memcpy(fill, lstart, (sms + 1) * sizeof *fill);
        for (uint32_t i = 0; i < blocks; i++)
            list[fill[sm_of[order[i]]]++] = order[i];
        free(fill);
    }
    {
        sm_job_t *jobs = calloc(sms, sizeof *jobs);
        size_t nj = 0;
        if (!jobs) {
            st = pn_error_set(err, PN_ENOMEM, "out of memory");
            goto done;
        }
        for (uint32_t s = 0; s < sms; s++) {
            owner[s] = s;
            const uint32_t *ls = &list[lstart[s]];
            uint32_t ns = lstart[s + 1] - lstart[s];
            if (ns > res->sm_blocks)
                res->sm_blocks = ns;
            for (uint32_t o = 0; o < s; o++)
                if (owner[o] == o && same_list(warp, warps, &list[lstart[o]],
                                               lstart[o + 1] - lstart[o], ls, ns)) {
                    owner[s] = o;
                    break;
                }
            if (owner[s] == s)
                jobs[nj++] = (sm_job_t){ .list = ls, .n = ns, .s = s,
                                         .results = &r[(size_t)s * g->runs] };
            else if (g->progress)
                g->progress(g->progress_ctx, (uint64_t)g->runs * ns);
        }
        res->simulated = (uint32_t)nj;
        st = run_jobs(g, warp, warps, jobs, nj, &res->engine, err);
        free(jobs);
    }
    for (uint32_t s = 0; s < sms && st == PN_OK; s++) {
        if (owner[s] != s)
            memcpy(&r[(size_t)s * g->runs], &r[(size_t)owner[s] * g->runs],
                   g->runs * sizeof *r);
        for (uint32_t i = 0; i < g->runs; i++)
            mean[s] += (double)r[(size_t)s * g->runs + i].steps;
    }
    if (st != PN_OK)
        goto done;
    res->sms = sms;
    for (uint32_t s = 1; s < sms; s++)
        if (mean[s] > mean[res->slowest_sm])
            res->slowest_sm = s;
    for (uint32_t i = 0; i < g->runs; i++) {
        kr[i] = r[i];
        for (uint32_t s = 1; s < sms; s++)
            if (r[(size_t)s * g->runs + i].steps > kr[i].steps)
                kr[i] = r[(size_t)s * g->runs + i];
    }
    st = pn_summary_runs(kr, g->runs, &res->steps, &res->idle, err);
done:
    free(owner);
    free(sm_of);
    free(order);
    free(list);
    free(lstart);
    free(r);
    free(mean);
    free(kr);
    return st;
}
