/* pn_regroup_greedy.c - the divergence paper's Greedy regrouping (Algorithm
 * 1), over classes of identical BBVs (pn_regroup.c has Sorting, Greedy-Max
 * and the choice among them). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_regroup.h"
#include "pn_regroup_priv.h"

/* ---- Greedy (Algorithm 1) ---------------------------------------------------- */

/* Slots hold groups: slot i starts as thread i alone; a merge of slots m < n
 * leaves the union in m. best[i] is the partner of largest gain (ties: the
 * smaller slot); fresh[i] says whether best/bgain are exact, else bgain is an
 * upper bound of slot i's best gain (its partner's group shrank or went).
 * A slot's gains depend on its per-block minima and maxima alone: slots
 * holding only threads of one class (identical BBVs) share the class's key,
 * every other slot has a key of its own, and a scan computes the gain once
 * per key (the cache). live[0..n_live) lists the slots in ascending order,
 * the dead ones dropped at each full update.
 *
 * The fast path: merging two slots of one class into a slot of that class
 * (the common case: identical threads merge first) changes no slot's gains,
 * so no other slot's best changes except that those whose best was the
 * dead slot now have the merged one (alias[dead] = merged: best[] is read
 * through greedy_resolve), and the merged slot's exact best comes from the
 * first live slot of every class (in ord) and the slots that were ever
 * mixed or entered a class later (others): O(classes + others) instead of
 * O(slots). No slot's gain with a slot of class K exceeds K's gain with
 * itself (per block, 2 min - max <= K's count, and rounding is monotone), so
 * while K has another live slot s, only slots below s whose gain equals it
 * can win: those of the classes listed in eq[K] (computed with the initial
 * gains) and others. A tournament tree over the slots gives the top. */
typedef struct greedy {
    const pn_regroup_input_t *in;
    size_t n, nb, gs;
    uint64_t *mn, *mx;            /* per slot, nb each */
    uint32_t *head, *tail, *next, *size;
    uint8_t *alive, *fresh;
    uint32_t *best;
    double *bgain;
    uint32_t *out;
    size_t n_out;
    uint32_t *live, n_live;
    uint32_t *cls;                /* per thread: its class */
    size_t nc;                    /* classes; keys nc + i are slot i's own */
    uint32_t *key;                /* per slot */
    uint64_t *stamp, pass;        /* per key: the pass whose gain cache[key] holds */
    double *cache;
    size_t n_alive;
    uint32_t *alias;              /* per slot: the slot a fast merge put it into */
    const uint32_t *ord;          /* threads by class, each class in id order */
    const size_t *cstart;         /* class c at ord[cstart[c] .. cstart[c + 1]) */
    size_t *skip;                 /* per position of ord: the next that may hold its class */
    uint32_t *others, n_others;   /* slots that had an own key or entered a class after
                                   * the start (may hold dead ones) */
    uint8_t *in_others;
    double *self;                 /* per class: its gain with itself */
    size_t *eqoff;                /* class K's eq: eq[eqoff[K] .. eqoff[K + 1]) */
    uint32_t *eq;                 /* classes c != K whose gain with K equals self[K]
                                   * (NULL: too many, or no memory; no pruning) */
    uint32_t *tree;               /* tournament over the slots: tree[1] is the top */
    size_t leaves;                /* a power of two >= n */
} greedy_t;

/* The slot that holds the group of slot s now (s itself unless a fast merge
 * emptied it); UINT32_MAX stays. Compresses the path. */
static uint32_t greedy_resolve(greedy_t *g, uint32_t s)
{
    if (s == UINT32_MAX)
        return s;
    uint32_t r = s;
    while (g->alias[r] != UINT32_MAX)
        r = g->alias[r];
    while (g->alias[s] != UINT32_MAX && g->alias[s] != r) {
        uint32_t nx = g->alias[s];
        g->alias[s] = r;
        s = nx;
    }
    return r;
}

/* Of two slots (a < b, UINT32_MAX: none), the one of larger bgain, ties to a. */
static uint32_t tree_pick(const greedy_t *g, uint32_t a, uint32_t b)
{
    if (a == UINT32_MAX)
        return b;
    if (b == UINT32_MAX)
        return a;
    return g->bgain[b] > g->bgain[a] ? b : a;
}

/* Slot i's leaf changed (bgain or death): replay its matches. O(log n). */
static void tree_set(greedy_t *g, size_t i)
{
    size_t k = g->leaves + i;
    g->tree[k] = g->alive[i] ? (uint32_t)i : UINT32_MAX;
    for (k >>= 1; k >= 1; k >>= 1)
        g->tree[k] = tree_pick(g, g->tree[2 * k], g->tree[2 * k + 1]);
}

/* Every match replayed. O(n). */
static void tree_build(greedy_t *g)
{
    for (size_t i = 0; i < g->leaves; i++)
        g->tree[g->leaves + i] = i < g->n && g->alive[i] ? (uint32_t)i : UINT32_MAX;
    for (size_t k = g->leaves - 1; k >= 1; k--)
        g->tree[k] = tree_pick(g, g->tree[2 * k], g->tree[2 * k + 1]);
}

static double slot_gain(const greedy_t *g, size_t i, size_t j, uint64_t *mn, uint64_t *mx)
{
    const uint64_t *a0 = g->mn + i * g->nb, *a1 = g->mx + i * g->nb;
    const uint64_t *b0 = g->mn + j * g->nb, *b1 = g->mx + j * g->nb;
    double s = 0;
    for (size_t b = 0; b < g->nb; b++) {
        uint64_t lo = a0[b] < b0[b] ? a0[b] : b0[b], hi = a1[b] > b1[b] ? a1[b] : b1[b];
        s += g->in->lat[b] * (2.0 * (double)lo - (double)hi);
        if (mn) {
            mn[b] = lo;
            mx[b] = hi;
        }
    }
    return s;
}

/* Gain of slot i with slot j, through the cache of the current pass (j
 * fixed over a pass). */
static double cached_gain(greedy_t *g, size_t i, size_t j)
{
    uint32_t k = g->key[i];
    if (g->stamp[k] != g->pass) {
        g->stamp[k] = g->pass;
        g->cache[k] = slot_gain(g, i, j, NULL, NULL);
    }
    return g->cache[k];
}

/* Slot i's key: its class when its minima equal its maxima (all its
 * threads are of the class of its first), else its own. */
static void greedy_key(greedy_t *g, size_t i)
{
    g->key[i] = memcmp(g->mn + i * g->nb, g->mx + i * g->nb, g->nb * sizeof *g->mn) == 0
                ? g->cls[g->head[i]] : (uint32_t)(g->nc + i);
}

/* Exact best partner of slot i. O(slots * nb). */
static void greedy_refresh(greedy_t *g, size_t i)
{
    int any = 0;
    g->pass++;
    for (uint32_t k = 0; k < g->n_live; k++) {
        size_t j = g->live[k];
        if (j == i || !g->alive[j])
            continue;
        double v = cached_gain(g, j, i);
        if (!any || v > g->bgain[i]) {
            g->bgain[i] = v;
            g->best[i] = (uint32_t)j;
            any = 1;
        }
    }
    g->fresh[i] = 1;
}

/* Min and max of slot i from its members. */
static void greedy_bounds(greedy_t *g, size_t i)
{
    uint64_t *mn = g->mn + i * g->nb, *mx = g->mx + i * g->nb;
    const uint64_t *c = g->in->count + (size_t)g->head[i] * g->nb;
    memcpy(mn, c, g->nb * sizeof *mn);
    memcpy(mx, c, g->nb * sizeof *mx);
    for (uint32_t t = g->next[g->head[i]]; t != UINT32_MAX; t = g->next[t]) {
        c = g->in->count + (size_t)t * g->nb;
        for (size_t b = 0; b < g->nb; b++) {
            if (c[b] < mn[b])
                mn[b] = c[b];
            if (c[b] > mx[b])
                mx[b] = c[b];
        }
    }
}

/* Merge (Algorithm 1, MERGE): the union of m and n (m's threads first) in
 * slot m; when it holds group_size threads or more, its first group_size
 * threads are a finished group and the rest stays in m (m dies if none). */
static void greedy_merge(greedy_t *g, size_t m, size_t n)
{
    g->next[g->tail[m]] = g->head[n];
    g->tail[m] = g->tail[n];
    g->size[m] += g->size[n];
    g->alive[n] = 0;
    slot_gain(g, m, n, g->mn + m * g->nb, g->mx + m * g->nb);
    if (g->size[m] >= g->gs) {
        uint32_t t = g->head[m];
        for (size_t k = 0; k < g->gs; k++) {
            g->out[g->n_out++] = t;
            t = g->next[t];
        }
        g->size[m] -= (uint32_t)g->gs;
        if (t == UINT32_MAX) {
            g->alive[m] = 0;
            return;
        }
        g->head[m] = t;
        greedy_bounds(g, m);
    }
    greedy_key(g, m);
}

/* greedy_update's work on live slot i != m (m and n merged; m_alive: the
 * new m lives; *any: m has a partner yet). */
static void update_slot(greedy_t *g, size_t i, size_t m, size_t n, int m_alive, int *any)
{
    uint32_t bi = greedy_resolve(g, g->best[i]);
    int lost = bi == m || bi == n;
    if (!m_alive) {
        if (lost)
            g->fresh[i] = 0;
        return;
    }
    double v = cached_gain(g, i, m);
    if (!*any || v > g->bgain[m]) {
        g->bgain[m] = v;
        g->best[m] = (uint32_t)i;
        *any = 1;
    }
    if (lost) {
        if (v >= g->bgain[i] && g->fresh[i]) {
            g->bgain[i] = v;
            g->best[i] = (uint32_t)m;
        } else if (v > g->bgain[i]) {
            g->bgain[i] = v;
            g->best[i] = (uint32_t)m;
            g->fresh[i] = 1;
        } else {
            g->fresh[i] = 0;
        }
    } else if (v > g->bgain[i] || (v == g->bgain[i] && g->fresh[i] && m < bi)) {
        g->bgain[i] = v;
        g->best[i] = (uint32_t)m;
        g->fresh[i] = 1;
    }
}

/* After merging m and n: every other slot learns its gain with the new m,
 * slots whose best was m or n keep an upper bound unless the new m is at
 * least as good (then, as m <= their old partner, it is their exact best);
 * the new m gets its exact best; the dead slots leave live. O(slots) plus
 * O(nb) per key. */
static void greedy_update(greedy_t *g, size_t m, size_t n)
{
    int m_alive = g->alive[m], any = 0;
    uint32_t kept = 0;
    g->pass++;
    for (uint32_t k = 0; k < g->n_live; k++) {
        size_t i = g->live[k];
        if (!g->alive[i])
            continue;
        g->live[kept++] = (uint32_t)i;
        if (i == m)
            continue;
        double before = g->bgain[i];
        update_slot(g, i, m, n, m_alive, &any);
        if (g->bgain[i] != before)
            tree_set(g, i);
    }
    g->n_live = kept;
    if (m_alive) {
        g->fresh[m] = 1;
        if (!any)                       /* m is the last group */
            g->bgain[m] = -INFINITY;
    }
}

/* Does slot s hold class c now? */
static int in_class(const greedy_t *g, uint32_t s, size_t c)
{
    return g->alive[s] && g->key[s] == c;
}

/* The first position q >= p of class c (positions before end) whose slot
 * holds c, else end. The positions passed over are skipped for good: a slot
 * that comes back to a class is in others. */
static size_t class_find(greedy_t *g, size_t p, size_t end, size_t c)
{
    size_t q = p;
    while (q < end && !in_class(g, g->ord[q], c))
        q = g->skip[q];
    while (p < q) {
        size_t nx = g->skip[p];
        g->skip[p] = q;
        p = nx;
    }
    return q;
}

/* The fast path's exact best of slot m (of class key[m]): over the first
 * live slot of every class other than m, and others; ties to the smaller
 * slot. O(classes + others) gains. */
/* Of the others (dropping the dead), the best for m (with below, only
 * those below *bj): bv, bj updated (ties to the smaller slot); *any set when
 * one was seen. */
static void others_best(greedy_t *g, size_t m, int below, double *bv, uint32_t *bj, int *any)
{
    uint32_t kept = 0;
    for (uint32_t k = 0; k < g->n_others; k++) {
        uint32_t s = g->others[k];
        if (!g->alive[s]) {
            g->in_others[s] = 0;
            continue;
        }
        g->others[kept++] = s;
        if (s == m || (below && s > *bj))
            continue;
        double v = slot_gain(g, s, m, NULL, NULL);
        if (!*any || v > *bv || (v == *bv && s < *bj)) {
            *bv = v;
            *bj = s;
            *any = 1;
        }
    }
    g->n_others = kept;
}

static void greedy_best_by_key(greedy_t *g, size_t m)
{
    int any = 0;
    double bv = -INFINITY;
    uint32_t bj = UINT32_MAX;
    size_t K = g->key[m];
    if (g->eq) {
        size_t end = g->cstart[K + 1], q = class_find(g, g->cstart[K], end, K);
        if (q < end && g->ord[q] == m)
            q = class_find(g, q + 1, end, K);
        if (q < end) {
            /* m's class has another slot: only equal gains below it compete */
            bv = g->self[K];
            bj = g->ord[q];
            any = 1;
            for (size_t e = g->eqoff[K]; e < g->eqoff[K + 1]; e++) {
                size_t c = g->eq[e], ce = g->cstart[c + 1];
                size_t qc = class_find(g, g->cstart[c], ce, c);
                if (qc == ce || g->ord[qc] > bj)
                    continue;
                uint32_t s = g->ord[qc];
                double v = slot_gain(g, s, m, NULL, NULL);
                if (v > bv || (v == bv && s < bj)) {
                    bv = v;
                    bj = s;
                }
            }
            others_best(g, m, 1, &bv, &bj, &any);
            g->fresh[m] = 1;
            g->bgain[m] = bv;
            g->best[m] = bj;
            return;
        }
    }
    for (size_t c = 0; c < g->nc; c++) {
        size_t end = g->cstart[c + 1], q = class_find(g, g->cstart[c], end, c);
        if (q < end && g->ord[q] == m)
            q = class_find(g, q + 1, end, c);
        if (q == end)
            continue;
        uint32_t s = g->ord[q];
        double v = slot_gain(g, s, m, NULL, NULL);
        if (!any || v > bv || (v == bv && s < bj)) {
            bv = v;
            bj = s;
            any = 1;
        }
    }
    others_best(g, m, 0, &bv, &bj, &any);
    g->fresh[m] = 1;
    if (any) {
        g->bgain[m] = bv;
        g->best[m] = bj;
    } else {
        g->bgain[m] = -INFINITY;        /* m is the last group */
    }
}

/* The initial best partners, as if every pair were compared (slot i's best
 * over all j != i, ties to the smaller j), from the gains between classes:
 * thread i of class a has as candidates the first thread of every other
 * class and the first other thread of a. ord/cstart: the threads by class
 * (pn_regroup_sort_threads), each class in id order. O(classes^2 * nb + n). */
static void greedy_init_best(greedy_t *g, const uint32_t *ord, const size_t *cstart)
{
    size_t nc = g->nc, n_eq = 0, cap = 4 * g->n + 64;
    g->self = malloc(nc * sizeof *g->self);
    g->eqoff = malloc((nc + 1) * sizeof *g->eqoff);
    g->eq = malloc(cap * sizeof *g->eq);
    if (!g->self || !g->eqoff || !g->eq) {
        free(g->eq);
        g->eq = NULL;
    }
    for (size_t a = 0; a < nc; a++) {
        size_t ra = ord[cstart[a]];
        double self = slot_gain(g, ra, ra, NULL, NULL);
        if (g->eq) {
            g->self[a] = self;
            g->eqoff[a] = n_eq;
        }
        /* the best other class: largest gain, ties to the smaller first thread */
        double bv = -INFINITY;
        uint32_t bj = UINT32_MAX;
        for (size_t c = 0; c < nc; c++) {
            if (c == a)
                continue;
            uint32_t rc = ord[cstart[c]];
            double v = slot_gain(g, ra, rc, NULL, NULL);
            if (bj == UINT32_MAX || v > bv || (v == bv && rc < bj)) {
                bv = v;
                bj = rc;
            }
            if (g->eq && v >= self) {
                if (n_eq == cap) {      /* degenerate ties: no pruning */
                    free(g->eq);
                    g->eq = NULL;
                } else {
                    g->eq[n_eq++] = (uint32_t)c;
                }
            }
        }
        for (size_t p = cstart[a]; p < cstart[a + 1]; p++) {
            uint32_t i = ord[p];
            double v = bv;
            uint32_t j = bj;
            if (cstart[a + 1] - cstart[a] >= 2) {
                uint32_t o = ord[p == cstart[a] ? cstart[a] + 1 : cstart[a]];
                if (j == UINT32_MAX || self > v || (self == v && o < j)) {
                    v = self;
                    j = o;
                }
            }
            g->bgain[i] = v;
            g->best[i] = j;
        }
    }
    if (g->eq)
        g->eqoff[nc] = n_eq;
}

pn_status_t pn_regroup_greedy(const pn_regroup_input_t *in, size_t gs, uint32_t *perm,
                              pn_error_t *err)
{
    greedy_t g = { .in = in, .n = in->n, .nb = in->nb, .gs = gs, .out = perm };
    size_t n = in->n, nb = in->nb ? in->nb : 1;
    g.mn = malloc(n * nb * sizeof *g.mn);
    g.mx = malloc(n * nb * sizeof *g.mx);
    g.head = malloc(n * sizeof *g.head);
    g.tail = malloc(n * sizeof *g.tail);
    g.next = malloc(n * sizeof *g.next);
    g.size = malloc(n * sizeof *g.size);
    g.alive = malloc(n);
    g.fresh = malloc(n);
    g.best = malloc(n * sizeof *g.best);
    g.bgain = malloc(n * sizeof *g.bgain);
    g.live = malloc(n * sizeof *g.live);
    g.cls = malloc(n * sizeof *g.cls);
    g.key = malloc(n * sizeof *g.key);
    g.stamp = calloc(2 * n, sizeof *g.stamp);
    g.cache = malloc(2 * n * sizeof *g.cache);
    uint32_t *ord = malloc(n * sizeof *ord);
    size_t *cstart = malloc((n + 1) * sizeof *cstart);
    for (g.leaves = 1; g.leaves < n; g.leaves *= 2)
        ;
    g.alias = malloc(n * sizeof *g.alias);
    g.skip = malloc(n * sizeof *g.skip);
    g.others = malloc(n * sizeof *g.others);
    g.in_others = calloc(n, 1);
    g.tree = malloc(2 * g.leaves * sizeof *g.tree);
    pn_status_t st = PN_OK;
    if (!g.mn || !g.mx || !g.head || !g.tail || !g.next || !g.size || !g.alive || !g.fresh ||
        !g.best || !g.bgain || !g.live || !g.cls || !g.key || !g.stamp || !g.cache || !ord ||
        !cstart || !g.alias || !g.skip || !g.others || !g.in_others || !g.tree) {
        st = pn_error_set(err, PN_ENOMEM, "greedy regrouping of %zu threads: out of memory", n);
        goto done;
    }
    memcpy(g.mn, in->count, n * in->nb * sizeof *g.mn);
    memcpy(g.mx, in->count, n * in->nb * sizeof *g.mx);
    for (size_t i = 0; i < n; i++) {
        g.head[i] = g.tail[i] = (uint32_t)i;
        g.next[i] = UINT32_MAX;
        g.size[i] = 1;
        g.alive[i] = 1;
        g.bgain[i] = -INFINITY;
        g.best[i] = UINT32_MAX;
        g.fresh[i] = 1;
        g.live[i] = (uint32_t)i;
        g.alias[i] = UINT32_MAX;
        g.skip[i] = i + 1;
    }
    g.n_live = (uint32_t)n;
    g.n_alive = n;
    if (gs == 1) {
        for (size_t i = 0; i < n; i++)
            perm[i] = (uint32_t)i;
        goto done;
    }
    /* the classes of identical BBVs, each in id order */
    pn_regroup_sort_threads(in, ord);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || memcmp(in->count + (size_t)ord[i] * in->nb,
                             in->count + (size_t)ord[i - 1] * in->nb,
                             in->nb * sizeof *in->count) != 0)
            cstart[g.nc++] = i;
        g.cls[ord[i]] = (uint32_t)(g.nc - 1);
    }
    cstart[g.nc] = n;
    for (size_t i = 0; i < n; i++)
        g.key[i] = g.cls[i];
    g.ord = ord;
    g.cstart = cstart;
    greedy_init_best(&g, ord, cstart);
    tree_build(&g);
    for (;;) {
        /* the edge of maximal gain: the smallest slot among the largest
         * bounds, made exact first */
        uint32_t top = g.tree[1];
        if (g.n_alive <= 1) {
            if (top != UINT32_MAX)   /* the last group: what is left */
                for (uint32_t t = g.head[top]; t != UINT32_MAX; t = g.next[t])
                    g.out[g.n_out++] = t;
            break;
        }
        if (!g.fresh[top]) {
            greedy_refresh(&g, top);
            tree_set(&g, top);
            continue;
        }
        size_t a = top, b = greedy_resolve(&g, g.best[top]);
        size_t m = a < b ? a : b, o = a < b ? b : a;
        uint32_t km = g.key[m], ko = g.key[o];
        greedy_merge(&g, m, o);
        g.n_alive -= 1 + !g.alive[m];
        uint32_t kn = g.key[m];
        int same = km < g.nc && km == ko && kn == km;
        if (g.alive[m] && !same && !g.in_others[m]) {
            g.in_others[m] = 1;         /* mixed, or entered a class */
            g.others[g.n_others++] = (uint32_t)m;
        }
        if (same && g.alive[m]) {
            g.alias[o] = (uint32_t)m;
            greedy_best_by_key(&g, m);
        } else {
            greedy_update(&g, m, o);
        }
        tree_set(&g, o);
        tree_set(&g, m);
    }
done:
    free(g.mn);
    free(g.mx);
    free(g.head);
    free(g.tail);
    free(g.next);
    free(g.size);
    free(g.alive);
    free(g.fresh);
    free(g.best);
    free(g.bgain);
    free(g.live);
    free(g.cls);
    free(g.key);
    free(g.stamp);
    free(g.cache);
    free(ord);
    free(cstart);
    free(g.alias);
    free(g.skip);
    free(g.others);
    free(g.in_others);
    free(g.tree);
    free(g.self);
    free(g.eqoff);
    free(g.eq);
    return st;
}
