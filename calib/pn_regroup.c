/* pn_regroup.c - the divergence paper's thread regrouping algorithms (Sorting,
 * Greedy, Greedy-Max) over per-thread BBVs, and the per-warp counts of a
 * regrouped grid. */
#include "pn_regroup.h"
#include "pn_regroup_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const pn_regroup_alg_names[PN_REGROUP_ALGS] = { "sorting", "greedy", "greedy-max" };

double pn_regroup_gain(const double *lat, size_t nb, const uint64_t *mn, const uint64_t *mx)
{
    double g = 0;
    for (size_t b = 0; b < nb; b++)
        g += lat[b] * (2.0 * (double)mn[b] - (double)mx[b]);
    return g;
}

/* ---- Sorting --------------------------------------------------------------- */

static _Thread_local const pn_regroup_input_t *sort_in; /* qsort has no context argument */

/* Lexicographic order of the BBVs, then thread id (a stable sort). */
static int cmp_bbv(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const uint64_t *u = sort_in->count + (size_t)x * sort_in->nb;
    const uint64_t *v = sort_in->count + (size_t)y * sort_in->nb;
    for (size_t k = 0; k < sort_in->nb; k++)
        if (u[k] != v[k])
            return u[k] < v[k] ? -1 : 1;
    return x < y ? -1 : x > y;
}

void pn_regroup_sort_threads(const pn_regroup_input_t *in, uint32_t *perm)
{
    for (size_t i = 0; i < in->n; i++)
        perm[i] = (uint32_t)i;
    sort_in = in;
    qsort(perm, in->n, sizeof *perm, cmp_bbv);
    sort_in = NULL;
}

/* ---- Greedy-Max (Algorithm 2) ------------------------------------------------- */

/* Threads with identical BBVs form a class; a class's members are taken in
 * id order, so only its first remaining member (head) matters: the gain of
 * a thread and the identity test depend on its BBV alone. */
static pn_status_t greedy_max(const pn_regroup_input_t *in, size_t gs, uint32_t *perm,
                              pn_error_t *err)
{
    size_t n = in->n, nb = in->nb;
    uint32_t *ord = malloc(n * sizeof *ord);       /* threads by class, each class by id */
    size_t *cstart = malloc((n + 1) * sizeof *cstart), *chead = malloc(n * sizeof *chead);
    double *clat = malloc(n * sizeof *clat);
    uint8_t *ing = calloc(n, 1);
    size_t *gcls = malloc(n * sizeof *gcls);
    uint64_t *mn = malloc((nb ? nb : 1) * sizeof *mn), *mx = malloc((nb ? nb : 1) * sizeof *mx);
    uint64_t *tmn = malloc((nb ? nb : 1) * sizeof *tmn), *tmx = malloc((nb ? nb : 1) * sizeof *tmx);
    pn_status_t st = PN_OK;
    if (!ord || !cstart || !chead || !clat || !ing || !gcls || !mn || !mx || !tmn || !tmx) {
        st = pn_error_set(err, PN_ENOMEM, "greedy-max regrouping of %zu threads: out of memory",
                          n);
        goto done;
    }
    pn_regroup_sort_threads(in, ord);
    size_t nc = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || memcmp(in->count + (size_t)ord[i] * nb, in->count + (size_t)ord[i - 1] * nb,
                             nb * sizeof *in->count) != 0)
            cstart[nc++] = i;
    }
    cstart[nc] = n;
    for (size_t c = 0; c < nc; c++) {
        chead[c] = cstart[c];
        const uint64_t *v = in->count + (size_t)ord[cstart[c]] * nb;
        double l = 0;
        for (size_t b = 0; b < nb; b++)
            l += in->lat[b] * (double)v[b];           /* Lat_t, eq. 11 */
        clat[c] = l;
    }
    size_t done_n = 0;
    while (done_n < n) {
        /* the thread of largest latency (ties: smallest id) opens a group */
        size_t top = SIZE_MAX;
        for (size_t c = 0; c < nc; c++)
            if (chead[c] < cstart[c + 1] &&
                (top == SIZE_MAX || clat[c] > clat[top] ||
                 (clat[c] == clat[top] && ord[chead[c]] < ord[chead[top]])))
                top = c;
        size_t ng = 0, size = 0;
        memcpy(mn, in->count + (size_t)ord[chead[top]] * nb, nb * sizeof *mn);
        memcpy(mx, mn, nb * sizeof *mx);
        size_t pick = top;
        for (;;) {
            perm[done_n++] = ord[chead[pick]++];
            size++;
            if (!ing[pick]) {
                ing[pick] = 1;
                gcls[ng++] = pick;
                const uint64_t *v = in->count + (size_t)ord[cstart[pick]] * nb;
                for (size_t b = 0; b < nb; b++) {
                    if (v[b] < mn[b])
                        mn[b] = v[b];
                    if (v[b] > mx[b])
                        mx[b] = v[b];
                }
            }
            if (size == gs || done_n == n)
                break;
            /* a thread identical to one in g: the first in id order */
            pick = SIZE_MAX;
            for (size_t k = 0; k < ng; k++) {
                size_t c = gcls[k];
                if (chead[c] < cstart[c + 1] &&
                    (pick == SIZE_MAX || ord[chead[c]] < ord[chead[pick]]))
                    pick = c;
            }
            if (pick != SIZE_MAX)
                continue;
            /* else the thread of maximal gain with g (ties: the first in id order) */
            double bestv = -INFINITY;
            for (size_t c = 0; c < nc; c++) {
                if (chead[c] >= cstart[c + 1])
                    continue;
                const uint64_t *v = in->count + (size_t)ord[cstart[c]] * nb;
                for (size_t b = 0; b < nb; b++) {
                    tmn[b] = v[b] < mn[b] ? v[b] : mn[b];
                    tmx[b] = v[b] > mx[b] ? v[b] : mx[b];
                }
                double gv = pn_regroup_gain(in->lat, nb, tmn, tmx);
                if (pick == SIZE_MAX || gv > bestv ||
                    (gv == bestv && ord[chead[c]] < ord[chead[pick]])) {
                    bestv = gv;
                    pick = c;
                }
            }
        }
        for (size_t k = 0; k < ng; k++)
            ing[gcls[k]] = 0;
    }
done:
    free(ord);
    free(cstart);
    free(chead);
    free(clat);
    free(ing);
    free(gcls);
    free(mn);
    free(mx);
    free(tmn);
    free(tmx);
    return st;
}

pn_status_t pn_regroup(pn_regroup_alg_t alg, const pn_regroup_input_t *in, size_t group_size,
                       uint32_t *perm, pn_error_t *err)
{
    if (!in || !perm || (in->n && (!in->count || (in->nb && !in->lat))))
        return pn_error_set(err, PN_EINVAL, "pn_regroup: NULL argument");
    if (group_size == 0)
        return pn_error_set(err, PN_EINVAL, "group size must be >= 1");
    if (in->n > UINT32_MAX - 1)
        return pn_error_set(err, PN_ELIMIT, "too many threads to regroup (%zu)", in->n);
    if (in->n == 0)
        return PN_OK;
    switch (alg) {
    case PN_REGROUP_SORTING:
        pn_regroup_sort_threads(in, perm);
        return PN_OK;
    case PN_REGROUP_GREEDY:
        return pn_regroup_greedy(in, group_size, perm, err);
    case PN_REGROUP_GREEDY_MAX:
        return greedy_max(in, group_size, perm, err);
    default:
        return pn_error_set(err, PN_EINVAL, "unknown regrouping algorithm %d", (int)alg);
    }
}

/* ---- per-warp counts of a regrouped grid -------------------------------------- */

pn_status_t pn_regroup_map_blocks(const pn_bbv_t *bbv, const pn_block_table_t *t, size_t *map,
                                  pn_error_t *err)
{
    for (size_t b = 0; b < bbv->n_blocks; b++) {
        size_t k = 0;
        while (k < t->n && strcmp(t->names[k], bbv->blocks[b]) != 0)
            k++;
        if (k == t->n)
            return pn_error_at(err, PN_EINVAL, bbv->path, bbv->header_line, bbv->block_cols[b],
                               "block '%s' is not in %s", bbv->blocks[b], t->path);
        map[b] = k;
    }
    return PN_OK;
}

void pn_regroup_counts_destroy(pn_regroup_counts_t *c)
{
    if (!c)
        return;
    free(c->warp);
    free(c->warp_lat);
    free(c->block_lat);
    memset(c, 0, sizeof *c);
}

/* *acc += m * k, failing beyond PN_SM_MAX_COUNT. */
static int add_product(uint64_t *acc, uint64_t m, uint64_t k)
{
    if (k && m > PN_SM_MAX_COUNT / k)
        return 0;
    if (m * k > PN_SM_MAX_COUNT - *acc)
        return 0;
    *acc += m * k;
    return 1;
}

pn_status_t pn_regroup_counts(const pn_bbv_t *bbv, const pn_block_table_t *t, const size_t *map,
                              const double *lat, const uint32_t *perm, uint32_t threads,
                              uint32_t warp_size, pn_regroup_counts_t *c, pn_error_t *err)
{
    memset(c, 0, sizeof *c);
    if (threads == 0 || warp_size == 0 || bbv->n_threads % threads != 0)
        return pn_error_set(err, PN_EINVAL, "%s: %zu threads are not whole blocks of %u",
                            bbv->path, bbv->n_threads, threads);
    size_t nb = bbv->n_blocks;
    c->threads = threads;
    c->blocks = (uint32_t)(bbv->n_threads / threads);
    c->warps = (threads + warp_size - 1) / warp_size;
    size_t nw = (size_t)c->blocks * c->warps;
    c->warp = calloc(nw, sizeof *c->warp);
    c->warp_lat = calloc(nw, sizeof *c->warp_lat);
    c->block_lat = calloc(c->blocks, sizeof *c->block_lat);
    if (!c->warp || !c->warp_lat || !c->block_lat) {
        pn_regroup_counts_destroy(c);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    double ti = 0, wi = 0;
    for (uint32_t blk = 0; blk < c->blocks; blk++)
        for (uint32_t w = 0; w < c->warps; w++) {
            size_t t0 = (size_t)blk * threads + (size_t)w * warp_size;
            size_t t1 = (size_t)blk * threads + ((size_t)(w + 1) * warp_size < threads
                                                 ? (size_t)(w + 1) * warp_size : threads);
            size_t i = (size_t)blk * c->warps + w;
            for (size_t b = 0; b < nb; b++) {
                const pn_warp_counts_t *k = &t->cost[map[b]];
                uint64_t mx = 0;
                double sum = 0;
                for (size_t th = t0; th < t1; th++) {
                    uint64_t v = bbv->count[(size_t)(perm ? perm[th] : th) * nb + b];
                    sum += (double)v;
                    if (v > mx)
                        mx = v;
                }
                double inst = (double)k->arith + (double)k->shared + (double)k->global;
                ti += sum * inst;
                wi += (double)mx * inst;
                c->warp_lat[i] += lat[b] * (double)mx;
                if (!add_product(&c->warp[i].arith, mx, k->arith) ||
                    !add_product(&c->warp[i].shared, mx, k->shared) ||
                    !add_product(&c->warp[i].global, mx, k->global)) {
                    pn_regroup_counts_destroy(c);
                    return pn_error_set(err, PN_ELIMIT, "%s: block %u warp %u: a derived count "
                                        "exceeds %llu (basic block '%s' runs %llu times)",
                                        bbv->path, blk, w, (unsigned long long)PN_SM_MAX_COUNT,
                                        bbv->blocks[b], (unsigned long long)mx);
                }
            }
            c->block_lat[blk] += c->warp_lat[i];
        }
    c->thread_inst = ti;
    c->warp_inst = wi;
    c->activity_factor = wi > 0 ? ti / ((double)warp_size * wi) : NAN;
    return PN_OK;
}
