/* pn_exact.h - the exact distribution of a small net's number of steps under
 * the maximal-step semantics with randomized conflict resolution, by
 * enumeration: at every reachable marking, every permutation of the enabled
 * transitions, taken per conflict component (transitions that share no input
 * place cannot affect each other's firing, so the step's outcome is the
 * product of the components' outcomes). Test helper; include after
 * <cmocka.h>. */
#ifndef PN_EXACT_H
#define PN_EXACT_H

#include <stdlib.h>
#include <string.h>

#include "pn_net.h"

#define PN_EXACT_MAXSTEPS 256
#define PN_EXACT_MAXCOMP 8         /* largest conflict component enumerated */
#define PN_EXACT_BUCKETS 65521

typedef struct pn_exact_node {
    pn_tokens_t *m;
    double dist[PN_EXACT_MAXSTEPS];   /* probability of each number of steps left */
    struct pn_exact_node *next;
} pn_exact_node_t;

typedef struct pn_exact {
    const pn_net_t *net;
    pn_exact_node_t **table;
    size_t nodes;
} pn_exact_t;

/* One component's outcomes: fired subsets (bit i: the component's i-th
 * transition) and their probabilities. */
typedef struct pn_exact_comp {
    uint32_t t[PN_EXACT_MAXCOMP];
    uint32_t n;
    uint32_t set[1u << PN_EXACT_MAXCOMP];
    double prob[1u << PN_EXACT_MAXCOMP];
    uint32_t n_out;
} pn_exact_comp_t;

static inline const double *pn_exact_dist(pn_exact_t *x, const pn_tokens_t *m);

static inline void pn_exact_permute(const pn_net_t *net, const pn_tokens_t *m,
                                    pn_exact_comp_t *c, uint32_t *perm, uint32_t k, double prob)
{
    if (k == c->n) {
        pn_tokens_t *r = malloc(net->n_places * sizeof *r);
        assert_non_null(r);
        memcpy(r, m, net->n_places * sizeof *r);
        uint32_t set = 0;
        for (uint32_t i = 0; i < c->n; i++)
            if (pn_net_inputs_fit(net, r, c->t[perm[i]])) {
                pn_net_consume(net, r, c->t[perm[i]]);
                set |= 1u << perm[i];
            }
        free(r);
        for (uint32_t i = 0; i < c->n_out; i++)
            if (c->set[i] == set) {
                c->prob[i] += prob;
                return;
            }
        c->set[c->n_out] = set;
        c->prob[c->n_out++] = prob;
        return;
    }
    for (uint32_t i = k; i < c->n; i++) {
        uint32_t tmp = perm[k]; perm[k] = perm[i]; perm[i] = tmp;
        pn_exact_permute(net, m, c, perm, k + 1, prob / (c->n - k));
        tmp = perm[k]; perm[k] = perm[i]; perm[i] = tmp;
    }
}

/* Combine the components' outcomes from component ci on; `fired` collects
 * the transitions fired so far. */
static inline void pn_exact_combine(pn_exact_t *x, const pn_tokens_t *m, pn_exact_comp_t *comp,
                                    uint32_t n_comp, uint32_t ci, uint32_t *fired,
                                    uint32_t n_fired, double prob, double *dist)
{
    const pn_net_t *net = x->net;
    if (ci == n_comp) {
        pn_tokens_t *r = malloc(net->n_places * sizeof *r);
        assert_non_null(r);
        memcpy(r, m, net->n_places * sizeof *r);
        for (uint32_t i = 0; i < n_fired; i++)
            pn_net_consume(net, r, fired[i]);
        for (uint32_t i = 0; i < n_fired; i++)
            pn_net_produce(net, r, fired[i]);
        const double *d = pn_exact_dist(x, r);
        free(r);
        for (int s = 0; s + 1 < PN_EXACT_MAXSTEPS; s++)
            dist[s + 1] += prob * d[s];
        return;
    }
    const pn_exact_comp_t *c = &comp[ci];
    for (uint32_t o = 0; o < c->n_out; o++) {
        uint32_t nf = n_fired;
        for (uint32_t i = 0; i < c->n; i++)
            if (c->set[o] >> i & 1u)
                fired[nf++] = c->t[i];
        pn_exact_combine(x, m, comp, n_comp, ci + 1, fired, nf, prob * c->prob[o], dist);
    }
}

static inline size_t pn_exact_hash(const pn_tokens_t *m, uint32_t np)
{
    uint64_t h = 1469598103934665603u;
    for (uint32_t i = 0; i < np; i++)
        h = (h ^ m[i]) * 1099511628211u;
    return (size_t)(h % PN_EXACT_BUCKETS);
}

/* The distribution of the number of steps from marking m to the dead
 * marking (index s: probability of s steps), memoised in x. */
static inline const double *pn_exact_dist(pn_exact_t *x, const pn_tokens_t *m)
{
    const pn_net_t *net = x->net;
    if (!x->table) {
        x->table = calloc(PN_EXACT_BUCKETS, sizeof *x->table);
        assert_non_null(x->table);
    }
    size_t h = pn_exact_hash(m, net->n_places);
    for (pn_exact_node_t *nd = x->table[h]; nd; nd = nd->next)
        if (memcmp(nd->m, m, net->n_places * sizeof *m) == 0)
            return nd->dist;
    pn_exact_node_t *nd = calloc(1, sizeof *nd);
    assert_non_null(nd);
    nd->m = malloc(net->n_places * sizeof *m);
    assert_non_null(nd->m);
    memcpy(nd->m, m, net->n_places * sizeof *m);
    /* enabled transitions, grouped by shared input places (union-find) */
    uint32_t *e = malloc(net->n_trans * sizeof *e), *root = malloc(net->n_trans * sizeof *root);
    assert_true(e && root);
    uint32_t n = 0;
    for (uint32_t t = 0; t < net->n_trans; t++)
        if (pn_net_enabled(net, m, t))
            e[n++] = t;
    for (uint32_t i = 0; i < n; i++)
        root[i] = i;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            int share = 0;
            for (uint32_t a = net->in_off[e[i]]; a < net->in_off[e[i] + 1] && !share; a++)
                for (uint32_t b = net->in_off[e[j]]; b < net->in_off[e[j] + 1] && !share; b++)
                    share = net->in[a].place == net->in[b].place;
            if (share) {
                uint32_t ri = i, rj = j;
                while (root[ri] != ri) ri = root[ri];
                while (root[rj] != rj) rj = root[rj];
                root[ri > rj ? ri : rj] = ri < rj ? ri : rj;
            }
        }
    pn_exact_comp_t *comp = calloc(n ? n : 1, sizeof *comp);
    uint32_t *cid = malloc((n ? n : 1) * sizeof *cid), n_comp = 0;
    assert_true(comp && cid);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = i;
        while (root[r] != r) r = root[r];
        if (r == i)
            cid[i] = n_comp++;
        else
            cid[i] = cid[r];
        pn_exact_comp_t *c = &comp[cid[i]];
        assert_true(c->n < PN_EXACT_MAXCOMP);
        c->t[c->n++] = e[i];
    }
    if (n == 0) {
        nd->dist[0] = 1.0;                       /* dead: no step left */
    } else {
        for (uint32_t ci = 0; ci < n_comp; ci++) {
            uint32_t perm[PN_EXACT_MAXCOMP];
            for (uint32_t i = 0; i < comp[ci].n; i++)
                perm[i] = i;
            pn_exact_permute(net, m, &comp[ci], perm, 0, 1.0);
        }
        uint32_t *fired = malloc(n * sizeof *fired);
        assert_non_null(fired);
        pn_exact_combine(x, m, comp, n_comp, 0, fired, 0, 1.0, nd->dist);
        free(fired);
    }
    free(e);
    free(root);
    free(comp);
    free(cid);
    nd->next = x->table[h];
    x->table[h] = nd;
    x->nodes++;
    return nd->dist;
}

/* Free everything x memoised. */
static inline void pn_exact_free(pn_exact_t *x)
{
    if (!x->table)
        return;
    for (size_t i = 0; i < PN_EXACT_BUCKETS; i++)
        for (pn_exact_node_t *nd = x->table[i], *nx; nd; nd = nx) {
            nx = nd->next;
            free(nd->m);
            free(nd);
        }
    free(x->table);
    x->table = NULL;
}

#endif
