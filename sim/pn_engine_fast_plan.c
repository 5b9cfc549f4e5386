/* pn_engine_fast_plan.c - what the fast engine derives from a frozen net
 * once (consumers sorted by weight, hubs, tickers, conflict groups), shared
 * read-only by every run (pn_engine_fast.c explains the engine). */
#include "pn_engine_fast_i.h"

#include <stdlib.h>
#include <string.h>

#include "pn_analysis.h"

static int cmp_reader(const void *a, const void *b)
{
    const reader_t *x = a, *y = b;
    if (x->w != y->w) return x->w < y->w ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

static uint32_t arc_weight(const pn_net_t *net, uint32_t t, uint32_t p)
{
    for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++)
        if (net->in[i].place == p)
            return net->in[i].weight;
    return 0;
}

void pn_fast_plan_free(pn_fast_plan_t *pl)
{
    if (!pl)
        return;
    free(pl->cons_off);
    free(pl->cons);
    free(pl->shared);
    free(pl->selfloop);
    free(pl->tickable);
    free(pl->lonely);
    free(pl->hub);
    free(pl->has_hub);
    free(pl->hubs);
    free(pl->shin_off);
    free(pl->shin);
    free(pl);
}

pn_status_t pn_fast_plan_new(const pn_net_t *net, pn_fast_plan_t **out, pn_error_t *err)
{
    *out = NULL;
    if (!net->frozen)
        return pn_error_set(err, PN_EINVAL, "cannot simulate a net that is not frozen");
    uint32_t np = net->n_places, nt = net->n_trans;
    pn_fast_plan_t *pl = calloc(1, sizeof *pl);
    uint32_t *group = malloc(((size_t)nt + 1) * sizeof *group);
    uint32_t *gsize = malloc(((size_t)nt + 1) * sizeof *gsize);
    if (!pl || !group || !gsize)
        goto nomem;
    pl->net = net;
    size_t n_in = net->in_off[nt];
    pl->cons_off = malloc(((size_t)np + 1) * sizeof *pl->cons_off);
    pl->cons = malloc((n_in ? n_in : 1) * sizeof *pl->cons);
    pl->shared = calloc((size_t)np + 1, 1);
    pl->selfloop = calloc((size_t)nt + 1, 1);
    pl->tickable = calloc((size_t)nt + 1, 1);
    pl->lonely = calloc((size_t)nt + 1, 1);
    pl->hub = calloc((size_t)np + 1, 1);
    pl->has_hub = calloc((size_t)nt + 1, 1);
    pl->hubs = malloc(((size_t)np + 1) * sizeof *pl->hubs);
    pl->shin_off = calloc((size_t)nt + 1, sizeof *pl->shin_off);
    pl->shin = malloc((n_in ? n_in : 1) * sizeof *pl->shin);
    if (!pl->cons_off || !pl->cons || !pl->shared || !pl->selfloop || !pl->tickable ||
        !pl->lonely || !pl->hub || !pl->has_hub || !pl->hubs || !pl->shin_off || !pl->shin)
        goto nomem;

    for (uint32_t p = 0; p <= np; p++)
        pl->cons_off[p] = net->cons_off[p];
    for (uint32_t p = 0; p < np; p++) {
        uint32_t lo = net->cons_off[p], hi = net->cons_off[p + 1];
        for (uint32_t i = lo; i < hi; i++)
            pl->cons[i] = (reader_t){ net->cons[i], arc_weight(net, net->cons[i], p) };
        qsort(pl->cons + lo, hi - lo, sizeof *pl->cons, cmp_reader);
        pl->shared[p] = hi - lo >= 2;
        pl->hub[p] = hi - lo >= PN_HUB_MIN;
        if (pl->hub[p])
            pl->hubs[pl->n_hubs++] = p;
        for (uint32_t i = lo; i < hi && pl->hub[p]; i++)
            pl->has_hub[net->cons[i]] = 1;
    }
    for (uint32_t t = 0, k = 0; t < nt; t++) {
        pl->shin_off[t] = k;
        for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++)
            if (pl->shared[net->in[i].place])
                pl->shin[k++] = net->in[i].place;
        pl->shin_off[t + 1] = k;
    }

    pn_status_t st = pn_net_conflict_groups(net, group, gsize, &pl->n_groups, err);
    if (st != PN_OK) {
        free(group);
        free(gsize);
        pn_fast_plan_free(pl);
        return st;
    }
    for (uint32_t t = 0; t < nt; t++) {
        uint32_t ni = net->in_off[t + 1] - net->in_off[t];
        uint32_t no = net->out_off[t + 1] - net->out_off[t];
        pl->lonely[t] = gsize[group[t]] == 1;
        /* arcs are sorted by place: equal lists mean a pure self-loop */
        pl->selfloop[t] = ni == no && ni > 0 &&
            memcmp(net->in + net->in_off[t], net->out + net->out_off[t],
                   ni * sizeof(pn_arc_t)) == 0;
        if (ni != 1 || net->inh_off[t + 1] != net->inh_off[t])
            continue;
        pn_arc_t a = net->in[net->in_off[t]];
        if (a.weight != 1 || pl->shared[a.place] || no == 0)
            continue;
        int ok = 1;
        for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1]; i++)
            if (net->out[i].place == a.place || pl->shared[net->out[i].place])
                ok = 0;
        pl->tickable[t] = (uint8_t)ok;
    }
    free(group);
    free(gsize);
    *out = pl;
    return PN_OK;
nomem:
    free(group);
    free(gsize);
    pn_fast_plan_free(pl);
    return pn_error_set(err, PN_ENOMEM, "out of memory planning a net of %u places and %u "
                        "transitions", np, nt);
}
