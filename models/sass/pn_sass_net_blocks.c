/* pn_sass_net_blocks.c - the sass net's blocks (doc/dependencies.md, "The
 * net"): their barrier release, their end and the slot's turnover, the launch
 * gap between starts and a block's start. */
#include "pn_sass_net_i.h"

/* What block k's end (transition t) gives back: its slot, at once or, with a
 * turnover of T = s->turn steps, T steps later: T - 1 ticks of a counter
 * (b<k>.ta to b<k>.tb, one a step), then b<k>.freed (T = 1: b<k>.tz, then
 * b<k>.freed). Both stop once the kernel is done, so the last blocks'
 * turnovers do not keep the net alive. */
static pn_status_t add_turn(nb_t *b, uint32_t k, uint32_t t)
{
    uint32_t T = b->s->turn, ta, tb, tick, freed;
    if (T == 0)
        return out(b, t, b->slot, 1);
    PN_CHECK(trans(b, &freed, "b%u.freed", k));
    PN_CHECK(out(b, freed, b->slot, 1));
    PN_CHECK(inh(b, freed, b->done));   /* the kernel done: nothing left to start */
    if (T == 1) {
        PN_CHECK(place(b, 0, &ta, "b%u.tz", k));
        PN_CHECK(out(b, t, ta, 1));
        return in(b, freed, ta, 1);
    }
    PN_CHECK(place(b, 0, &ta, "b%u.ta", k));
    PN_CHECK(place(b, 0, &tb, "b%u.tb", k));
    PN_CHECK(trans(b, &tick, "b%u.tick", k));
    PN_CHECK(out(b, t, ta, T - 1));
    PN_CHECK(in(b, tick, ta, 1));
    PN_CHECK(out(b, tick, tb, 1));
    PN_CHECK(inh(b, tick, b->done));
    PN_CHECK(in(b, freed, tb, T - 1));
    return inh(b, freed, ta);
}

/* Block k's places; its barrier release (every live warp arrived) and its end
 * (a free slot) when needed. */
pn_status_t pn_sass_net_add_block(nb_t *b, uint32_t k, blk_t *bl)
{
    const pn_sass_sim_t *s = b->s;
    uint32_t W = s->W, t;
    bl->arr = bl->rel = bl->live = bl->gone = bl->turn = bl->lf = NONE;
    PN_CHECK(place(b, 0, &bl->pfin, "b%u.pfin", k));
    if (b->has_bar) {
        PN_CHECK(place(b, 0, &bl->arr, "b%u.arr", k));
        PN_CHECK(place(b, 0, &bl->rel, "b%u.rel", k));
        PN_CHECK(place(b, W, &bl->live, "b%u.live", k));
        PN_CHECK(place(b, 0, &bl->gone, "b%u.gone", k));
        /* with g warps gone (g < W), the W - g live ones arrived */
        for (uint32_t g = 0; g < W; g++) {
            PN_CHECK(trans(b, &t, "b%u.release%u", k, g));
            PN_CHECK(in(b, t, bl->arr, W - g));
            PN_CHECK(in(b, t, bl->live, W - g));
            PN_CHECK(out(b, t, bl->live, W - g));
            PN_CHECK(in(b, t, bl->gone, g));
            PN_CHECK(out(b, t, bl->gone, g));
            PN_CHECK(out(b, t, bl->rel, W - g));
        }
    }
    if (b->slot != NONE) {
        PN_CHECK(trans(b, &t, "b%u.end", k));
        PN_CHECK(in(b, t, bl->pfin, W));
        PN_CHECK(add_turn(b, k, t));
        if (k >= 1)   /* block 1's turn at once after block 0 with launch 1 */
            PN_CHECK(place(b, k == 1 && s->launch < 2, &bl->turn, "b%u.turn", k));
        if (k + 1 < s->blocks && s->launch >= 2)
            PN_CHECK(place(b, k == 0, &bl->lf, "b%u.lf", k));
    }
    return PN_OK;
}

/* Block k's launch gap (launch G >= 2, k + 1 < blocks): `launched` takes its
 * lf mark and, after G - 2 ticks of the counter, marks block k + 1's turn,
 * G steps after block k's start. */
pn_status_t pn_sass_net_add_launched(nb_t *b, uint32_t k, blk_t *bls)
{
    const pn_sass_sim_t *s = b->s;
    uint32_t l;
    PN_CHECK(trans(b, &l, "b%u.launched", k));
    PN_CHECK(in(b, l, bls[k].lf, 1));
    if (b->launch_a != NONE) {
        PN_CHECK(in(b, l, b->launch_b, s->launch - 2));
        PN_CHECK(inh(b, l, b->launch_a));
    }
    return out(b, l, bls[k + 1].turn, 1);
}

/* Block k's start (k >= 1): a free slot and its turn mark its warps' first
 * instructions and, G = launch steps later, the next block's turn. */
pn_status_t pn_sass_net_add_start(nb_t *b, uint32_t k, blk_t *bls, wnet_t *ws)
{
    const pn_sass_sim_t *s = b->s;
    blk_t *bl = &bls[k];
    uint32_t t;
    PN_CHECK(trans(b, &t, "b%u.start", k));
    PN_CHECK(in(b, t, b->slot, 1));
    PN_CHECK(in(b, t, bl->turn, 1));
    /* the first block past the first wave: the DRAM and L2 budgets' room
     * grows to their deeper caps */
    for (int q = P_DRAM; k == s->resident && q <= P_L2W; q++)
        if (s->rate[q] && s->cap[q] > s->cap0[q])
            PN_CHECK(out(b, t, b->room[pn_sass_bucket(s->partitions, q, 0)],
                         s->cap[q] - s->cap0[q]));
    for (uint32_t i = 0; i < s->W; i++)
        PN_CHECK(out(b, t, ws[i].pc[0], 1));
    if (k + 1 >= s->blocks)
        return PN_OK;
    if (bl->lf == NONE)
        return out(b, t, bls[k + 1].turn, 1);   /* launch 1: from the next step */
    PN_CHECK(out(b, t, bl->lf, 1));
    if (b->launch_a != NONE)
        PN_CHECK(out(b, t, b->launch_a, s->launch - 2));
    return pn_sass_net_add_launched(b, k, bls);
}
