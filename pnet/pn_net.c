/* pn_net.c - building and freezing bounded inhibitor place/transition nets. */
#include "pn_net.h"

#include <stdarg.h>
#include <stdio.h>
#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct pn_net_arc_rec {
    uint32_t t, p, weight;
    uint8_t kind;
};

void pn_net_init(pn_net_t *net)
{
    memset(net, 0, sizeof *net);
}

static void free_names(char **names, uint32_t n)
{
    if (!names)
        return;
    for (uint32_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static void free_layout(pn_net_t *net)
{
    free(net->in_off); free(net->out_off); free(net->inh_off);
    free(net->in); free(net->out); free(net->inh);
    free(net->cons_off); free(net->inhby_off); free(net->prod_off);
    free(net->cons); free(net->inhby); free(net->prod);
    net->in_off = net->out_off = net->inh_off = NULL;
    net->in = net->out = NULL;
    net->inh = NULL;
    net->cons_off = net->inhby_off = net->prod_off = NULL;
    net->cons = net->inhby = net->prod = NULL;
}

void pn_net_destroy(pn_net_t *net)
{
    if (!net)
        return;
    free_names(net->place_name, net->n_places);
    free_names(net->trans_name, net->n_trans);
    free(net->m0);
    free(net->recs);
    free_layout(net);
    pn_net_init(net);
}

pn_status_t pn_net_set_counting(pn_net_t *net, pn_error_t *err)
{
    if (net->frozen || net->n_places || net->n_trans || net->n_recs)
        return pn_error_set(err, PN_EINVAL, "only an empty net can become a counting net");
    net->counting = true;
    return PN_OK;
}

void pn_net_count_mark(const pn_net_t *net, pn_net_count_t *mark)
{
    mark->places = net->n_places;
    mark->trans = net->n_trans;
    for (int k = 0; k < 3; k++)
        mark->arcs[k] = net->n_counted[k];
}

/* *n + (*n - since) * times into *out, or PN_ELIMIT past UINT32_MAX - 1. */
static pn_status_t repeat_nodes(uint32_t n, uint32_t since, uint64_t times, const char *what,
                                uint32_t *out, pn_error_t *err)
{
    const uint64_t d = n - since;
    if (d && times > (UINT64_C(0xffffffff) - 1 - n) / d)
        return pn_error_set(err, PN_ELIMIT, "more than %u %s", UINT32_MAX - 1, what);
    *out = (uint32_t)(n + d * times);
    return PN_OK;
}

pn_status_t pn_net_count_repeat(pn_net_t *net, const pn_net_count_t *mark, uint64_t times,
                                pn_error_t *err)
{
    if (!net->counting || net->frozen || mark->places > net->n_places ||
        mark->trans > net->n_trans)
        return pn_error_set(err, PN_EINVAL, "repeating counts of a net being counted only");
    uint32_t places = 0, trans = 0;
    PN_CHECK(repeat_nodes(net->n_places, mark->places, times, "places", &places, err));
    PN_CHECK(repeat_nodes(net->n_trans, mark->trans, times, "transitions", &trans, err));
    net->n_places = places;
    net->n_trans = trans;
    for (int k = 0; k < 3; k++)
        net->n_counted[k] += (net->n_counted[k] - mark->arcs[k]) * times;
    return PN_OK;
}

static pn_status_t check_name(pn_net_t *net, const char *name, pn_error_t *err)
{
    if (net->frozen)
        return pn_error_set(err, PN_EINVAL, "net is frozen: cannot add '%s'", name ? name : "");
    if (!name || !*name)
        return pn_error_set(err, PN_EINVAL, "a place or transition needs a non-empty name");
    return PN_OK;
}

/* Grow an array of elem-sized items to hold at least need items. */
static pn_status_t grow(void **arr, uint32_t *cap, uint32_t need, size_t elem, pn_error_t *err)
{
    if (need <= *cap)
        return PN_OK;
    uint32_t ncap = *cap ? *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*arr, (size_t)ncap * elem);
    if (!p)
        return pn_error_set(err, PN_ENOMEM, "out of memory growing a net to %u nodes", need);
    *arr = p;
    *cap = ncap;
    return PN_OK;
}

/* A counting net's new place or transition: the next id of *n, nothing
 * stored. */
static pn_status_t count_node(uint32_t *n, const char *what, uint32_t *id, pn_error_t *err)
{
    if (*n == UINT32_MAX)
        return pn_error_set(err, PN_ELIMIT, "more than %u %s", UINT32_MAX - 1, what);
    if (id)
        *id = *n;
    (*n)++;
    return PN_OK;
}

pn_status_t pn_net_add_place(pn_net_t *net, const char *name, pn_tokens_t m0,
                             uint32_t *id, pn_error_t *err)
{
    if (net->counting && !net->frozen)
        return count_node(&net->n_places, "places", id, err);
    PN_CHECK(check_name(net, name, err));
    uint32_t need = net->n_places + 1, cap = net->cap_places;
    PN_CHECK(grow((void **)&net->place_name, &cap, need, sizeof(char *), err));
    cap = net->cap_places;
    PN_CHECK(grow((void **)&net->m0, &cap, need, sizeof(pn_tokens_t), err));
    net->cap_places = cap;
    char *copy = strdup(name);
    if (!copy)
        return pn_error_set(err, PN_ENOMEM, "out of memory adding place '%s'", name);
    net->place_name[net->n_places] = copy;
    net->m0[net->n_places] = m0;
    if (id)
        *id = net->n_places;
    net->n_places++;
    return PN_OK;
}

pn_status_t pn_net_add_placef(pn_net_t *net, pn_tokens_t m0, uint32_t *id, pn_error_t *err,
                              const char *fmt, ...)
{
    char name[128] = "";
    if (!net->counting) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(name, sizeof name, fmt, ap);
        va_end(ap);
    }
    return pn_net_add_place(net, name, m0, id, err);
}

pn_status_t pn_net_add_transitionf(pn_net_t *net, uint32_t *id, pn_error_t *err,
                                   const char *fmt, ...)
{
    char name[128] = "";
    if (!net->counting) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(name, sizeof name, fmt, ap);
        va_end(ap);
    }
    return pn_net_add_transition(net, name, id, err);
}

pn_status_t pn_net_set_initial(pn_net_t *net, uint32_t p, pn_tokens_t m0, pn_error_t *err)
{
    if (net->frozen)
        return pn_error_set(err, PN_EINVAL, "net is frozen: cannot set the marking of place %u", p);
    if (p >= net->n_places)
        return pn_error_set(err, PN_EINVAL, "no place %u (the net has %u)", p, net->n_places);
    if (!net->counting)
        net->m0[p] = m0;
    return PN_OK;
}

pn_status_t pn_net_add_transition(pn_net_t *net, const char *name, uint32_t *id,
                                  pn_error_t *err)
{
    if (net->counting && !net->frozen)
        return count_node(&net->n_trans, "transitions", id, err);
    PN_CHECK(check_name(net, name, err));
    PN_CHECK(grow((void **)&net->trans_name, &net->cap_trans, net->n_trans + 1,
                  sizeof(char *), err));
    char *copy = strdup(name);
    if (!copy)
        return pn_error_set(err, PN_ENOMEM, "out of memory adding transition '%s'", name);
    net->trans_name[net->n_trans] = copy;
    if (id)
        *id = net->n_trans;
    net->n_trans++;
    return PN_OK;
}

pn_status_t pn_net_add_arc(pn_net_t *net, pn_arc_kind_t kind, uint32_t t, uint32_t p,
                           uint32_t weight, pn_error_t *err)
{
    if (net->frozen)
        return pn_error_set(err, PN_EINVAL, "net is frozen: cannot add an arc");
    if (t >= net->n_trans || p >= net->n_places)
        return pn_error_set(err, PN_EINVAL, "arc between unknown nodes (transition %u, place %u)",
                            t, p);
    if (kind > PN_ARC_INHIBITOR)
        return pn_error_set(err, PN_EINVAL, "unknown arc kind %d", (int)kind);
    if (kind == PN_ARC_INHIBITOR)
        weight = 1;
    else if (weight == 0 && net->counting)
        return pn_error_set(err, PN_EINVAL, "arc of transition %u %s place %u has weight 0 "
                            "(must be >= 1)", t, kind == PN_ARC_INPUT ? "<-" : "->", p);
    else if (weight == 0)
        return pn_error_set(err, PN_EINVAL, "arc %s %s %s has weight 0 (must be >= 1)",
                            net->trans_name[t], kind == PN_ARC_INPUT ? "<-" : "->",
                            net->place_name[p]);
    if (net->counting) {
        net->n_counted[kind]++;
        return PN_OK;
    }
    if (net->n_recs == net->cap_recs) {
        size_t ncap = net->cap_recs ? net->cap_recs * 2 : 64;
        void *q = realloc(net->recs, ncap * sizeof *net->recs);
        if (!q)
            return pn_error_set(err, PN_ENOMEM, "out of memory adding an arc");
        net->recs = q;
        net->cap_recs = ncap;
    }
    net->recs[net->n_recs++] = (struct pn_net_arc_rec){ t, p, weight, (uint8_t)kind };
    return PN_OK;
}

static int cmp_rec(const void *a, const void *b)
{
    const struct pn_net_arc_rec *x = a, *y = b;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->p != y->p) return x->p < y->p ? -1 : 1;
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Report the first name that occurs twice among names, if any. */
static pn_status_t check_unique(char **names, uint32_t n, const char *what, pn_error_t *err)
{
    if (n < 2)
        return PN_OK;
    char **sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return pn_error_set(err, PN_ENOMEM, "out of memory checking %s names", what);
    memcpy(sorted, names, (size_t)n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_name);
    pn_status_t st = PN_OK;
    for (uint32_t i = 1; i < n && st == PN_OK; i++)
        if (strcmp(sorted[i - 1], sorted[i]) == 0)
            st = pn_error_set(err, PN_EINVAL, "two %ss are named '%s'", what, sorted[i]);
    free(sorted);
    return st;
}

/* Build CSR offsets+targets of (key -> value) pairs taken from recs[lo..hi). */
static pn_status_t build_index(const struct pn_net_arc_rec *recs, size_t lo, size_t hi,
                               uint32_t n_keys, int key_is_place,
                               uint32_t **off_out, uint32_t **val_out)
{
    uint32_t *off = calloc((size_t)n_keys + 1, sizeof *off);
    uint32_t *val = malloc((hi - lo ? hi - lo : 1) * sizeof *val);
    if (!off || !val) {
        free(off); free(val);
        return PN_ENOMEM;
    }
    for (size_t i = lo; i < hi; i++)
        off[(key_is_place ? recs[i].p : recs[i].t) + 1]++;
    for (uint32_t k = 0; k < n_keys; k++)
        off[k + 1] += off[k];
    uint32_t *fill = malloc(((size_t)n_keys + 1) * sizeof *fill);
    if (!fill) {
        free(off); free(val);
        return PN_ENOMEM;
    }
    memcpy(fill, off, ((size_t)n_keys + 1) * sizeof *fill);
    for (size_t i = lo; i < hi; i++) {
        uint32_t key = key_is_place ? recs[i].p : recs[i].t;
        val[fill[key]++] = key_is_place ? recs[i].t : recs[i].p;
    }
    free(fill);
    *off_out = off;
    *val_out = val;
    return PN_OK;
}

/* CSR by transition with weights, from the sorted, merged recs[lo..hi). */
static pn_status_t build_arcs(const struct pn_net_arc_rec *recs, size_t lo, size_t hi,
                              uint32_t n_trans, uint32_t **off_out, pn_arc_t **arcs_out)
{
    uint32_t *off = calloc((size_t)n_trans + 1, sizeof *off);
    pn_arc_t *arcs = malloc((hi - lo ? hi - lo : 1) * sizeof *arcs);
    if (!off || !arcs) {
        free(off); free(arcs);
        return PN_ENOMEM;
    }
    for (size_t i = lo; i < hi; i++) {
        off[recs[i].t + 1]++;
        arcs[i - lo] = (pn_arc_t){ recs[i].p, recs[i].weight };
    }
    for (uint32_t k = 0; k < n_trans; k++)
        off[k + 1] += off[k];
    *off_out = off;
    *arcs_out = arcs;
    return PN_OK;
}

pn_status_t pn_net_freeze(pn_net_t *net, pn_error_t *err)
{
    if (net->frozen)
        return PN_OK;
    if (net->counting) {
        net->frozen = true;
        return PN_OK;
    }
    PN_CHECK(check_unique(net->place_name, net->n_places, "place", err));
    PN_CHECK(check_unique(net->trans_name, net->n_trans, "transition", err));

    /* sort by kind, transition, place; merge repeated pairs */
    if (net->n_recs > 1)
        qsort(net->recs, net->n_recs, sizeof *net->recs, cmp_rec);
    size_t w = 0;
    for (size_t r = 0; r < net->n_recs; r++) {
        struct pn_net_arc_rec *cur = &net->recs[r];
        if (w > 0 && cmp_rec(&net->recs[w - 1], cur) == 0) {
            struct pn_net_arc_rec *prev = &net->recs[w - 1];
            if (cur->kind == PN_ARC_INHIBITOR)
                continue;
            if (prev->weight > UINT32_MAX - cur->weight)
                return pn_error_set(err, PN_EINVAL, "merged arc weight between %s and %s "
                                    "exceeds %u", net->trans_name[cur->t],
                                    net->place_name[cur->p], UINT32_MAX);
            prev->weight += cur->weight;
            continue;
        }
        net->recs[w++] = *cur;
    }
    net->n_recs = w;

    size_t bound[4] = { 0, 0, 0, w };
    for (size_t r = 0, k = 0; k < 3; k++) {
        bound[k] = r;
        while (r < w && net->recs[r].kind == k)
            r++;
    }
    /* bound[k]..bound[k+1] are the arcs of kind k */
    pn_status_t st = PN_OK;
    if (build_arcs(net->recs, bound[0], bound[1], net->n_trans, &net->in_off, &net->in) ||
        build_arcs(net->recs, bound[1], bound[2], net->n_trans, &net->out_off, &net->out) ||
        build_index(net->recs, bound[2], bound[3], net->n_trans, 0, &net->inh_off, &net->inh) ||
        build_index(net->recs, bound[0], bound[1], net->n_places, 1, &net->cons_off, &net->cons) ||
        build_index(net->recs, bound[1], bound[2], net->n_places, 1, &net->prod_off, &net->prod) ||
        build_index(net->recs, bound[2], bound[3], net->n_places, 1, &net->inhby_off, &net->inhby))
        st = pn_error_set(err, PN_ENOMEM, "out of memory laying out a net of %u places and "
                          "%u transitions", net->n_places, net->n_trans);
    if (st != PN_OK) {
        free_layout(net);
        return st;
    }
    free(net->recs);
    net->recs = NULL;
    net->n_recs = net->cap_recs = 0;
    net->frozen = true;
    return PN_OK;
}

int64_t pn_net_find_place(const pn_net_t *net, const char *name)
{
    for (uint32_t i = 0; i < net->n_places; i++)
        if (strcmp(net->place_name[i], name) == 0)
            return i;
    return -1;
}

int64_t pn_net_find_transition(const pn_net_t *net, const char *name)
{
    for (uint32_t i = 0; i < net->n_trans; i++)
        if (strcmp(net->trans_name[i], name) == 0)
            return i;
    return -1;
}

size_t pn_net_n_arcs(const pn_net_t *net, pn_arc_kind_t kind)
{
    if (!net->frozen)
        return 0;
    if (net->counting)
        return kind <= PN_ARC_INHIBITOR ? net->n_counted[kind] : 0;
    switch (kind) {
    case PN_ARC_INPUT:     return net->in_off[net->n_trans];
    case PN_ARC_OUTPUT:    return net->out_off[net->n_trans];
    case PN_ARC_INHIBITOR: return net->inh_off[net->n_trans];
    }
    return 0;
}

void pn_net_fire(const pn_net_t *net, pn_tokens_t *m, uint32_t t)
{
    assert(net->frozen && t < net->n_trans);
    pn_net_consume(net, m, t);
    pn_net_produce(net, m, t);
}

bool pn_net_is_dead(const pn_net_t *net, const pn_tokens_t *m)
{
    for (uint32_t t = 0; t < net->n_trans; t++)
        if (pn_net_enabled(net, m, t))
            return false;
    return true;
}

void pn_net_initial_marking(const pn_net_t *net, pn_tokens_t *m)
{
    memcpy(m, net->m0, (size_t)net->n_places * sizeof *m);
}
