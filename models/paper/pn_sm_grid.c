/* pn_sm_grid.c - the paper's SM net for a grid: the blocks the busiest SM
 * runs, R of them resident at once, and barriers (models/paper/GRID.md). */
#include <inttypes.h>
#include <stdio.h>

#include "pn_sm_grid.h"

/* Indices into pn_sm_trans_names (layout order) that the grid wires to. */
enum { G_T2 = 1, G_T3 = 2, G_T4 = 3, G_T16 = 14 };

/* What one block adds: its places, and its start transition (not resident
 * from the start) or UINT32_MAX. */
typedef struct block_nodes {
    uint32_t start;               /* b.start, or UINT32_MAX: resident at M0 */
    uint32_t pfin;                /* b.pfin (warps terminated), or UINT32_MAX */
    uint32_t arr, rel;            /* b.arr, b.rel (barriers), or UINT32_MAX */
} block_nodes_t;

#define ARC(kind, t, p, w) PN_CHECK(pn_net_add_arc(net, (kind), (t), (p), (w), err))

/* Block blk's own nodes: end (when blocks wait for a slot: it takes one of
 * the blocks - resident tokens of `need`, so that only the ends whose slot
 * a later block takes fire, and a run ends with its last warp), start (blk
 * >= resident: in block order, it takes *turn and passes the next one on)
 * and the barrier release. */
static pn_status_t add_block(pn_net_t *net, uint32_t blk, uint32_t blocks, uint32_t resident,
                             uint32_t W, uint64_t barriers, uint32_t slot, uint32_t need,
                             uint32_t *turn, block_nodes_t *bn, pn_error_t *err)
{
    uint32_t t;
    bn->start = bn->pfin = bn->arr = bn->rel = UINT32_MAX;
    if (blocks > resident) {
        PN_CHECK(pn_net_add_placef(net, 0, &bn->pfin, err, "b%u.pfin", blk));
        PN_CHECK(pn_net_add_transitionf(net, &t, err, "b%u.end", blk));
        ARC(PN_ARC_INPUT, t, bn->pfin, W);
        ARC(PN_ARC_INPUT, t, need, 1);
        ARC(PN_ARC_OUTPUT, t, slot, 1);
    }
    if (blk >= resident) {
        PN_CHECK(pn_net_add_transitionf(net, &bn->start, err, "b%u.start", blk));
        ARC(PN_ARC_INPUT, bn->start, slot, 1);
        ARC(PN_ARC_INPUT, bn->start, *turn, 1);
        uint32_t next = UINT32_MAX;
        if (blk + 1 < blocks) {
            PN_CHECK(pn_net_add_placef(net, 0, &next, err, "b%u.turn", blk + 1));
            ARC(PN_ARC_OUTPUT, bn->start, next, 1);
        }
        *turn = next;
    }
    if (barriers > 0) {
        PN_CHECK(pn_net_add_placef(net, 0, &bn->arr, err, "b%u.arr", blk));
        PN_CHECK(pn_net_add_placef(net, 0, &bn->rel, err, "b%u.rel", blk));
        PN_CHECK(pn_net_add_transitionf(net, &t, err, "b%u.release", blk));
        ARC(PN_ARC_INPUT, t, bn->arr, W);
        ARC(PN_ARC_OUTPUT, t, bn->rel, W);
    }
    return PN_OK;
}

/* Warp g (warp i of its block): the WPNM, started or waiting for its block's
 * start, reporting its end to the block, and its barrier phases. */
static pn_status_t add_grid_warp(pn_net_t *net, const pn_sm_layout_t *lay, const pn_sm_params_t *p,
                                 const pn_warp_counts_t *c, uint32_t g, uint64_t barriers,
                                 const block_nodes_t *bn, pn_error_t *err)
{
    pn_sm_warp_ids_t id;
    PN_CHECK(pn_sm_add_warp(net, lay, g, c, p->l1, p->l2, &id, err));
    if (bn->start != UINT32_MAX)
        for (int k = 1; k <= 3; k++) {
            PN_CHECK(pn_net_set_initial(net, id.p[k], 0, err));
            ARC(PN_ARC_OUTPUT, bn->start, id.p[k], 1);
        }
    if (bn->pfin != UINT32_MAX)
        ARC(PN_ARC_OUTPUT, id.t[G_T16], bn->pfin, 1);
    if (barriers == 0)
        return PN_OK;
    const uint64_t n = c->arith + c->shared + c->global;
    const uint64_t phase = n / (barriers + 1), last = n - barriers * phase;
    uint32_t bud, barl, wait, t;
    PN_CHECK(pn_net_add_placef(net, phase, &bud, err, "w%u.bud", g));
    PN_CHECK(pn_net_add_placef(net, barriers, &barl, err, "w%u.barl", g));
    PN_CHECK(pn_net_add_placef(net, 0, &wait, err, "w%u.wait", g));
    ARC(PN_ARC_INPUT, id.t[G_T2], bud, 1);
    ARC(PN_ARC_INPUT, id.t[G_T3], bud, 1);
    ARC(PN_ARC_INPUT, id.t[G_T4], bud, 1);
    ARC(PN_ARC_INHIBITOR, id.t[G_T16], barl, 1);
    /* arrive: the phase's instructions are done and the last one finished */
    PN_CHECK(pn_net_add_transitionf(net, &t, err, "w%u.arrive", g));
    ARC(PN_ARC_INPUT, t, id.p[2], 1);
    ARC(PN_ARC_INPUT, t, id.p[3], 1);
    ARC(PN_ARC_INPUT, t, barl, 1);
    ARC(PN_ARC_INHIBITOR, t, bud, 1);
    ARC(PN_ARC_OUTPUT, t, wait, 1);
    ARC(PN_ARC_OUTPUT, t, bn->arr, 1);
    /* resume with the next phase's budget; the last phase has the rest */
    PN_CHECK(pn_net_add_transitionf(net, &t, err, "w%u.resume", g));
    ARC(PN_ARC_INPUT, t, wait, 1);
    ARC(PN_ARC_INPUT, t, bn->rel, 1);
    ARC(PN_ARC_INPUT, t, barl, 1);
    ARC(PN_ARC_OUTPUT, t, barl, 1);
    ARC(PN_ARC_OUTPUT, t, id.p[2], 1);
    ARC(PN_ARC_OUTPUT, t, id.p[3], 1);
    if (phase > 0)
        ARC(PN_ARC_OUTPUT, t, bud, (uint32_t)phase);
    PN_CHECK(pn_net_add_transitionf(net, &t, err, "w%u.resume_last", g));
    ARC(PN_ARC_INPUT, t, wait, 1);
    ARC(PN_ARC_INPUT, t, bn->rel, 1);
    ARC(PN_ARC_INHIBITOR, t, barl, 1);
    ARC(PN_ARC_OUTPUT, t, id.p[2], 1);
    ARC(PN_ARC_OUTPUT, t, id.p[3], 1);
    if (last > 0)
        ARC(PN_ARC_OUTPUT, t, bud, (uint32_t)last);
    return PN_OK;
}

pn_status_t pn_sm_build_grid(pn_net_t *net, const pn_sm_params_t *p, const pn_sm_grid_t *g,
                             pn_sm_layout_t *layout, pn_error_t *err)
{
    if (pn_sm_grid_is_plain(g))
        return pn_sm_build(net, p, layout, err);
    PN_CHECK(pn_sm_check(p, err));
    const uint32_t blocks = g->blocks ? g->blocks : 1;
    const uint32_t resident = g->resident == 0 ? 1 : g->resident < blocks ? g->resident : blocks;
    const uint64_t total = (uint64_t)blocks * p->n_warps;
    if (total > PN_SM_MAX_GRID_WARPS)
        return pn_error_set(err, PN_ELIMIT, "%u blocks of %u warps on one SM: more than the %u "
                            "warps one net may hold", blocks, p->n_warps, PN_SM_MAX_GRID_WARPS);
    if (g->barriers > PN_SM_MAX_COUNT)
        return pn_error_set(err, PN_ELIMIT, "barriers per warp exceed the limit %" PRIu64,
                            (uint64_t)PN_SM_MAX_COUNT);
    const pn_warp_counts_t *counts = g->block_warps ? g->block_warps : p->warps;
    const uint64_t n_counts = g->block_warps ? total : p->n_warps;
    for (uint64_t i = 0; i < n_counts; i++) {
        const pn_warp_counts_t *c = &counts[i];
        if (g->block_warps && (c->arith > PN_SM_MAX_COUNT || c->shared > PN_SM_MAX_COUNT ||
                               c->global > PN_SM_MAX_COUNT))
            return pn_error_set(err, PN_ELIMIT, "block %" PRIu64 ", warp %" PRIu64 ": a count "
                                "exceeds the limit %" PRIu64, i / p->n_warps, i % p->n_warps,
                                (uint64_t)PN_SM_MAX_COUNT);
        if (g->barriers > 0 && c->arith + c->shared + c->global > PN_SM_MAX_COUNT)
            return pn_error_set(err, PN_ELIMIT, "warp %" PRIu64 ": more than %" PRIu64
                                " instructions with barriers", i, (uint64_t)PN_SM_MAX_COUNT);
    }
    pn_sm_layout_t lay;
    PN_CHECK(pn_sm_add_global(net, p->schedulers, (uint32_t)total, &lay, err));
    uint32_t slot = UINT32_MAX, need = UINT32_MAX, turn = UINT32_MAX;
    if (blocks > resident) {
        PN_CHECK(pn_net_add_place(net, "slots", 0, &slot, err));
        PN_CHECK(pn_net_add_place(net, "need", blocks - resident, &need, err));
        PN_CHECK(pn_net_add_placef(net, 1, &turn, err, "b%u.turn", resident));
    }
    /* blocks resident .. blocks - 2 are alike (not started, one after them,
     * the same warps): a counting net builds the first and counts it again */
    const uint32_t alike = net->counting && !g->block_warps && blocks > resident + 2
                           ? blocks - 1 - resident : 0;
    for (uint32_t blk = 0; blk < blocks; blk++) {
        block_nodes_t bn;
        pn_net_count_t mark;
        pn_net_count_mark(net, &mark);
        PN_CHECK(add_block(net, blk, blocks, resident, p->n_warps, g->barriers, slot, need, &turn,
                           &bn, err));
        for (uint32_t i = 0; i < p->n_warps; i++) {
            const uint32_t w = blk * p->n_warps + i;
            PN_CHECK(add_grid_warp(net, &lay, p, g->block_warps ? &counts[w] : &counts[i], w,
                                   g->barriers, &bn, err));
        }
        if (alike && blk == resident) {
            PN_CHECK(pn_net_count_repeat(net, &mark, alike - 1, err));
            blk = blocks - 2;                   /* the last block next */
        }
    }
    PN_CHECK(pn_net_freeze(net, err));
    lay.warp_place0 = lay.warp_trans0 = UINT32_MAX;
    if (layout)
        *layout = lay;
    return PN_OK;
}
