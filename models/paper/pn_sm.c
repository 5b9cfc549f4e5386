/* pn_sm.c - the SM net of doc/paper-net.md, arc by arc. */
#include "pn_sm.h"

#include <assert.h>

#include <inttypes.h>
#include <stdio.h>

const char *const pn_kind_names[PN_KIND_COUNT + 1] = {"arith", "shared", "global", NULL};

const char *const pn_sm_trans_names[PN_SM_WARP_TRANS] = {
    "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9",
    "t11", "t17", "t12", "t14", "t15", "t16"
};

/* One arc of the WPNM table: transition, place (1..18; 0 = p0, -1 = pw),
 * weight (0 means l1, -2 means l2), kind. */
typedef struct wpnm_arc {
    uint8_t t;          /* index into pn_sm_trans_names */
    int8_t place;
    int8_t weight;
    uint8_t kind;
} wpnm_arc_t;

enum { T1, T2, T3, T4, T5, T6, T7, T8, T9, T11, T17, T12, T14, T15, T16 };
enum { P_SM = 0, P_W = -1, W_L1 = -1, W_L2 = -2 };
#define IN(t, p, w)  { t, p, w, PN_ARC_INPUT }
#define OUT(t, p, w) { t, p, w, PN_ARC_OUTPUT }
#define INH(t, p)    { t, p, 1, PN_ARC_INHIBITOR }

/* The WPNM transitions table of the spec, row by row. */
static const wpnm_arc_t wpnm_arcs[] = {
    /* t1  issue: p0, p2, p4 -> p11 */
    IN(T1, P_SM, 1), IN(T1, 2, 1), IN(T1, 4, 1), OUT(T1, 11, 1),
    /* t2  select arithmetic: p3, p5 -> p4, p6 */
    IN(T2, 3, 1), IN(T2, 5, 1), OUT(T2, 4, 1), OUT(T2, 6, 1),
    /* t3  select shared: p3, p7 -> p4, p8 */
    IN(T3, 3, 1), IN(T3, 7, 1), OUT(T3, 4, 1), OUT(T3, 8, 1),
    /* t4  select global: p3, p9 -> p4, p10 */
    IN(T4, 3, 1), IN(T4, 9, 1), OUT(T4, 4, 1), OUT(T4, 10, 1),
    /* t5  execute global, give the SM back: p11, p10 -> p0, l1*p13 */
    IN(T5, 11, 1), IN(T5, 10, 1), OUT(T5, P_SM, 1), OUT(T5, 13, W_L1),
    /* t6  execute shared, keep the SM: p11, p8 -> l2*p16 */
    IN(T6, 11, 1), IN(T6, 8, 1), OUT(T6, 16, W_L2),
    /* t7  execute arithmetic: p11, p6 -> p12 */
    IN(T7, 11, 1), IN(T7, 6, 1), OUT(T7, 12, 1),
    /* t8  wait for global memory: p13 -> p14 */
    IN(T8, 13, 1), OUT(T8, 14, 1),
    /* t9  access global memory: l1*p14 -> p15, inhibited by p13 */
    IN(T9, 14, W_L1), OUT(T9, 15, 1), INH(T9, 13),
    /* t11 global access finished: p15 -> p2, p3 */
    IN(T11, 15, 1), OUT(T11, 2, 1), OUT(T11, 3, 1),
    /* t17 wait for shared memory: p16 -> p17 */
    IN(T17, 16, 1), OUT(T17, 17, 1),
    /* t12 access shared memory: l2*p17 -> p18, inhibited by p16 */
    IN(T12, 17, W_L2), OUT(T12, 18, 1), INH(T12, 16),
    /* t14 shared access finished, give the SM back: p18 -> p0, p2, p3 */
    IN(T14, 18, 1), OUT(T14, P_SM, 1), OUT(T14, 2, 1), OUT(T14, 3, 1),
    /* t15 calculation finished, give the SM back: p12 -> p0, p2, p3 */
    IN(T15, 12, 1), OUT(T15, P_SM, 1), OUT(T15, 2, 1), OUT(T15, 3, 1),
    /* t16 termination: p1, p2, p3, pw ->, inhibited by p5, p7, p9 */
    IN(T16, 1, 1), IN(T16, 2, 1), IN(T16, 3, 1), IN(T16, P_W, 1),
    INH(T16, 5), INH(T16, 7), INH(T16, 9),
};

pn_status_t pn_sm_check(const pn_sm_params_t *p, pn_error_t *err)
{
    if (p->schedulers < 1)
        return pn_error_set(err, PN_EINVAL, "schedulers must be at least 1, got %u", p->schedulers);
    if (p->l1 < 1 || p->l1 > PN_SM_MAX_LATENCY)
        return pn_error_set(err, PN_EINVAL, "global latency l1 must be between 1 and %u, got %u",
                            PN_SM_MAX_LATENCY, p->l1);
    if (p->l2 < 1 || p->l2 > PN_SM_MAX_LATENCY)
        return pn_error_set(err, PN_EINVAL, "shared latency l2 must be between 1 and %u, got %u",
                            PN_SM_MAX_LATENCY, p->l2);
    if (p->n_warps < 1 || !p->warps)
        return pn_error_set(err, PN_EINVAL, "an SM net needs at least one warp");
    for (uint32_t w = 0; w < p->n_warps; w++) {
        const pn_warp_counts_t *c = &p->warps[w];
        if (c->arith > PN_SM_MAX_COUNT || c->shared > PN_SM_MAX_COUNT ||
            c->global > PN_SM_MAX_COUNT)
            return pn_error_set(err, PN_ELIMIT, "warp %u: a count exceeds the limit %" PRIu64,
                                w, (uint64_t)PN_SM_MAX_COUNT);
    }
    return PN_OK;
}

pn_status_t pn_sm_add_global(pn_net_t *net, uint32_t schedulers, uint32_t n_warps,
                             pn_sm_layout_t *lay, pn_error_t *err)
{
    PN_CHECK(pn_net_add_place(net, "p0", schedulers, &lay->p0, err));
    PN_CHECK(pn_net_add_place(net, "pw", n_warps, &lay->pw, err));
    PN_CHECK(pn_net_add_transition(net, "t0", &lay->t0, err));
    PN_CHECK(pn_net_add_arc(net, PN_ARC_INPUT, lay->t0, lay->p0, 1, err));
    PN_CHECK(pn_net_add_arc(net, PN_ARC_INPUT, lay->t0, lay->pw, 1, err));
    PN_CHECK(pn_net_add_arc(net, PN_ARC_OUTPUT, lay->t0, lay->p0, 1, err));
    PN_CHECK(pn_net_add_arc(net, PN_ARC_OUTPUT, lay->t0, lay->pw, 1, err));
    lay->warp_place0 = net->n_places;
    lay->warp_trans0 = net->n_trans;
    return PN_OK;
}

/* Frame I: p5, p7, p9, t2, t3, t4 and t16's inhibitors. */
static int in_frame1_place(int k)
{
    return k == 5 || k == 7 || k == 9;
}

static int in_frame1_trans(int k)
{
    return k == T2 || k == T3 || k == T4;
}

pn_status_t pn_sm_add_warp(pn_net_t *net, const pn_sm_layout_t *lay, uint32_t w,
                           const pn_warp_counts_t *c, uint32_t l1, uint32_t l2,
                           pn_sm_warp_ids_t *ids, pn_error_t *err)
{
    pn_sm_warp_ids_t local;
    pn_sm_warp_ids_t *id = ids ? ids : &local;
    char name[64] = "";
    for (int k = 0; k <= PN_SM_WARP_PLACES; k++)
        id->p[k] = UINT32_MAX;
    for (int k = 0; k < PN_SM_WARP_TRANS; k++)
        id->t[k] = UINT32_MAX;
    for (int k = 1; k <= PN_SM_WARP_PLACES; k++) {
        if (!c && in_frame1_place(k))
            continue;
        pn_tokens_t m0 = k <= 3 ? 1 : !c ? 0
                       : k == 5 ? c->arith : k == 7 ? c->shared : k == 9 ? c->global : 0;
        if (!net->counting)
            snprintf(name, sizeof name, "w%u.p%d", w, k);
        PN_CHECK(pn_net_add_place(net, name, m0, &id->p[k], err));
    }
    for (int k = 0; k < PN_SM_WARP_TRANS; k++) {
        if (!c && in_frame1_trans(k))
            continue;
        if (!net->counting)
            snprintf(name, sizeof name, "w%u.%s", w, pn_sm_trans_names[k]);
        PN_CHECK(pn_net_add_transition(net, name, &id->t[k], err));
    }
    for (size_t i = 0; i < sizeof wpnm_arcs / sizeof wpnm_arcs[0]; i++) {
        const wpnm_arc_t *a = &wpnm_arcs[i];
        if (id->t[a->t] == UINT32_MAX || (a->place > 0 && id->p[a->place] == UINT32_MAX))
            continue;                               /* frame I, left to the caller */
        uint32_t place = a->place == P_SM ? lay->p0 : a->place == P_W ? lay->pw
                       : id->p[a->place];
        uint32_t weight = a->weight == W_L1 ? l1 : a->weight == W_L2 ? l2 : (uint32_t)a->weight;
        PN_CHECK(pn_net_add_arc(net, (pn_arc_kind_t)a->kind, id->t[a->t], place, weight, err));
    }
    /* t0 waits only while no warp is ready: inhibited by every p2 */
    return pn_net_add_arc(net, PN_ARC_INHIBITOR, lay->t0, id->p[2], 1, err);
}

pn_status_t pn_sm_build(pn_net_t *net, const pn_sm_params_t *p, pn_sm_layout_t *layout,
                        pn_error_t *err)
{
    PN_CHECK(pn_sm_check(p, err));
    pn_sm_layout_t lay;
    PN_CHECK(pn_sm_add_global(net, p->schedulers, p->n_warps, &lay, err));
    for (uint32_t w = 0; w < p->n_warps; w++)
        PN_CHECK(pn_sm_add_warp(net, &lay, w, &p->warps[w], p->l1, p->l2, NULL, err));
    PN_CHECK(pn_net_freeze(net, err));
    /* the size doc/paper-net.md fixes: 18 W + 2 places, 15 W + 1 transitions */
    assert(net->n_places == PN_SM_WARP_PLACES * p->n_warps + 2 &&
           net->n_trans == PN_SM_WARP_TRANS * p->n_warps + 1);
    if (layout)
        *layout = lay;
    return PN_OK;
}

uint64_t pn_sm_single_warp_steps(const pn_warp_counts_t *c, uint32_t l1, uint32_t l2)
{
    return 4 * c->arith + (5 + (uint64_t)l1) * c->global + (5 + (uint64_t)l2) * c->shared + 1;
}

uint64_t pn_sm_single_warp_idle(const pn_warp_counts_t *c, uint32_t l1, uint32_t l2,
                                uint32_t schedulers)
{
    uint64_t idle = (2 + (uint64_t)l1) * c->global;
    if (schedulers > 1)
        idle += 2 * c->arith + c->global + (3 + (uint64_t)l2) * c->shared;
    return idle;
}
