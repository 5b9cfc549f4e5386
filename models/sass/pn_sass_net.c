/* pn_sass_net.c - the dependency rule as a bounded inhibitor P/T net: a
 * control place per static instruction and warp, a scoreboard place per
 * register, delay lines for latencies, tapes for the planned branch decisions
 * and load levels, the pipelined net's buckets, schedulers, blocks and
 * barriers (doc/dependencies.md, "The net"). */
#include "pn_sass_net.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_sass_net_i.h"

/* A delay line of n >= 1 places named prefix.1..n, one step a place, and
 * its transition prefix.fin that takes the last: the places are consecutive
 * ids from *first (pn_net_add_place numbers them in order); *into_last is the
 * transition that moves into the last (NONE for n = 1). */
static pn_status_t add_line(nb_t *b, const char *prefix, uint32_t n, uint32_t *first,
                            uint32_t *fin, uint32_t *into_last)
{
    uint32_t id;
    *into_last = NONE;
    for (uint32_t k = 0; k < n; k++) {
        PN_CHECK(place(b, 0, &id, "%s.%u", prefix, k + 1));
        if (k == 0)
            *first = id;
    }
    for (uint32_t k = 0; k + 1 < n; k++) {
        uint32_t t;
        PN_CHECK(trans(b, &t, "%s.mv%u", prefix, k + 1));
        PN_CHECK(in(b, t, *first + k, 1));
        PN_CHECK(out(b, t, *first + k + 1, 1));
        *into_last = t;
    }
    PN_CHECK(trans(b, fin, "%s.fin", prefix));
    return in(b, *fin, *first + n - 1, 1);
}

/* ---- the global part ---------------------------------------------------- */

static pn_status_t add_global(nb_t *b)
{
    const pn_sass_sim_t *s = b->s;
    uint64_t warps = (uint64_t)s->blocks * s->W;
    PN_CHECK(place(b, 0, &b->done, "done"));
    PN_CHECK(place(b, 0, &b->pfin, "pfin"));
    uint32_t t_done, clk;
    PN_CHECK(trans(b, &t_done, "t_done"));
    PN_CHECK(in(b, t_done, b->pfin, (uint32_t)warps));
    PN_CHECK(out(b, t_done, b->done, 1));
    PN_CHECK(place(b, 1, &clk, "clock"));
    PN_CHECK(trans(b, &b->t0, "t0"));
    PN_CHECK(in(b, b->t0, clk, 1));
    PN_CHECK(out(b, b->t0, clk, 1));
    PN_CHECK(inh(b, b->t0, b->done));
    for (uint32_t j = 0; j < s->partitions; j++)
        PN_CHECK(place(b, s->issue, &b->q[j], "q%u", j));
    b->inflight = NONE;
    if (s->inflight)
        PN_CHECK(place(b, s->inflight, &b->inflight, "inflight"));
    static const char *const pipe[P_N] = { "alu", "sfu", "int", "fmah", "fp64", "lsu", "shared",
                                           "dram", "l2", "l2w", "atom", "const", "tex" };
    for (int q = 0; q < P_N; q++)
        for (uint32_t j = 0; j < (q < P_PER_PART ? s->partitions : 1); j++) {
            uint32_t i = pn_sass_bucket(s->partitions, q, j), refill;
            b->bucket[i] = b->room[i] = NONE;
            if (!s->rate[q])
                continue;
            char nm[32];
            snprintf(nm, sizeof nm, q < P_PER_PART ? "%s%u" : "%s", pipe[q], j);
            PN_CHECK(place(b, s->cap0[q], &b->bucket[i], "%s.bucket", nm));
            PN_CHECK(place(b, 0, &b->room[i], "%s.room", nm));
            PN_CHECK(trans(b, &refill, "%s.refill", nm));
            PN_CHECK(in(b, refill, b->room[i], s->rate[q]));
            PN_CHECK(out(b, refill, b->bucket[i], s->rate[q]));
            PN_CHECK(inh(b, refill, b->done));
        }
    /* the lines of code: a warp's fetch marks req and, code_fetch steps later, ok
     * with a token for every warp (issues read it side by side) */
    for (uint32_t l = 0; s->fetch && l < s->n_clines; l++) {
        uint32_t fin, into_last;
        char pre[32];
        PN_CHECK(place(b, 0, &b->code_req[l], "code%u.req", l));
        PN_CHECK(place(b, 0, &b->code_ok[l], "code%u.ok", l));
        b->code_line[l] = NONE;
        if (s->fetch < 2)
            continue;
        snprintf(pre, sizeof pre, "code%u.F", l);
        PN_CHECK(add_line(b, pre, s->fetch - 1, &b->code_line[l], &fin, &into_last));
        PN_CHECK(out(b, fin, b->code_ok[l], (uint32_t)warps));
    }
    b->slot = b->launch_a = b->launch_b = NONE;
    /* block 0 runs from step 0 as if started at step -1: the other resident
     * slots free, its launch gap counting (the sass engine's rule) */
    if (s->blocks > 1) {
        PN_CHECK(place(b, s->resident - 1, &b->slot, "slot"));
        if (s->launch > 2) {
            uint32_t tick;
            PN_CHECK(place(b, s->launch - 2, &b->launch_a, "launch.a"));
            PN_CHECK(place(b, 0, &b->launch_b, "launch.b"));
            PN_CHECK(trans(b, &tick, "launch.tick"));
            PN_CHECK(in(b, tick, b->launch_a, 1));
            PN_CHECK(out(b, tick, b->launch_b, 1));
        }
    }
    return PN_OK;
}

/* ---- a warp ------------------------------------------------------------- */

/* Where warp w goes after op i when it does not jump. */
static uint32_t next_of(const nb_t *b, const wnet_t *w, uint32_t i)
{
    return i + 1 < b->s->n_ops ? w->pc[i + 1] : w->ex;
}

/* What op i's completion gives back: its written registers' scoreboards (not
 * its predicates as branches read them: those at lat_br), the in-flight slot
 * of a load, and the warp's outstanding count. */
static pn_status_t completion_arcs(nb_t *b, const wnet_t *w, uint32_t i, uint32_t t)
{
    const sop_t *o = &b->s->ops[i];
    const opregs_t *rg = &b->regs[i];
    for (uint32_t r = 0; r < rg->n; r++)
        if (rg->written[r] && rg->reg[r] < REG_BR)
            PN_CHECK(out(b, t, w->sb[b->slot_of[rg->reg[r]]], 1));
    if (pn_sass_op_levels(o) && b->inflight != NONE)
        PN_CHECK(out(b, t, b->inflight, 1));
    return pn_sass_op_drains(o) ? in(b, t, w->out, 1) : PN_OK;
}

/* Does op i need a completion line (something comes back after it: a posted
 * store's store_order register too)? */
static int completes(const nb_t *b, uint32_t i)
{
    const sop_t *o = &b->s->ops[i];
    return pn_sass_op_drains(o) || o->n_regs > o->n_reads ||
           (pn_sass_op_levels(o) && b->inflight != NONE);
}

/* The completion line of op i at latency L >= 2 (L - 1 places ending in a
 * fin that gives back what completion_arcs says); a line leader's line, when
 * the line arrives, turns its record from pending to arrived one step before
 * the op completes. Returns its first place. */
static pn_status_t add_completion(nb_t *b, const wnet_t *w, uint32_t i, const char *tag,
                                  uint32_t L, uint32_t *first)
{
    const sop_t *o = &b->s->ops[i];
    uint32_t into_last, fin;
    char pre[64];
    snprintf(pre, sizeof pre, "w%u.i%u.%s", w->gw, i, tag);
    PN_CHECK(add_line(b, pre, L - 1, first, &fin, &into_last));
    if (o->lead >= 0) {
        if (into_last == NONE)
            return pn_error_set(b->err, PN_EINVAL, "a load latency below 3");
        PN_CHECK(in(b, into_last, w->lp[o->lead], 1));
        PN_CHECK(out(b, into_last, w->la[o->lead], 1));
    }
    return completion_arcs(b, w, i, fin);
}

/* A follower's two lines (op i, L1 latency L >= 3): arrived (its line is
 * here: L - 1 steps) and pending (it moves while the line is on its way,
 * switches to the arrived line when it comes, and waits at its end for it). */
static pn_status_t add_follower_lines(nb_t *b, const wnet_t *w, uint32_t i, uint32_t L,
                                      uint32_t *arrived, uint32_t *pending)
{
    const sop_t *o = &b->s->ops[i];
    uint32_t n = L - 1, la = w->la[o->follow], lp = w->lp[o->follow], t, fin, id;
    char pre[64];
    snprintf(pre, sizeof pre, "w%u.i%u.A", w->gw, i);
    PN_CHECK(add_line(b, pre, n, arrived, &fin, &t));
    PN_CHECK(completion_arcs(b, w, i, fin));
    snprintf(pre, sizeof pre, "w%u.i%u.P", w->gw, i);
    for (uint32_t k = 0; k < n; k++) {
        PN_CHECK(place(b, 0, &id, "%s.%u", pre, k + 1));
        if (k == 0)
            *pending = id;
    }
    uint32_t A = *arrived, P = *pending;   /* both lines are consecutive ids */
    for (uint32_t k = 0; k + 1 < n; k++) {
        PN_CHECK(trans(b, &t, "%s.mv%u", pre, k + 1));
        PN_CHECK(in(b, t, P + k, 1));
        PN_CHECK(out(b, t, P + k + 1, 1));
        PN_CHECK(inh(b, t, la));
        PN_CHECK(trans(b, &t, "%s.sw%u", pre, k + 1));
        PN_CHECK(in(b, t, P + k, 1));
        PN_CHECK(out(b, t, A + k + 1, 1));
        PN_CHECK(inh(b, t, lp));
    }
    PN_CHECK(trans(b, &t, "%s.fin", pre));
    PN_CHECK(in(b, t, P + n - 1, 1));
    PN_CHECK(inh(b, t, lp));
    return completion_arcs(b, w, i, t);
}

/* The places an issue of op i leads to, built once per op and warp. */
typedef struct opnet {
    uint32_t done_at[3];          /* completion line per level (NONE: none) */
    uint32_t arrived, pending;    /* a follower's lines */
    uint32_t jump;                /* a taken branch's first place, or its target's pc */
    uint32_t hold;                /* an op that holds its warp (sop_t.hold >= 2): the first
                                   * place of its line to the next op (NONE: none) */
    uint32_t br;                  /* a writer of predicates a branch reads (lat_br >= 2):
                                   * the first place of the line that gives them back */
} opnet_t;

static pn_status_t add_jump(nb_t *b, const wnet_t *w, uint32_t i, opnet_t *on)
{
    const sop_t *o = &b->s->ops[i];
    uint32_t target = w->pc[o->target], fin, into_last;
    if (o->lat < 2) {
        on->jump = target;
        return PN_OK;
    }
    char pre[64];
    snprintf(pre, sizeof pre, "w%u.i%u.J", w->gw, i);
    PN_CHECK(add_line(b, pre, o->lat - 1, &on->jump, &fin, &into_last));
    return out(b, fin, target, 1);
}

/* Op i holds its warp hold >= 2 steps: its issue leads to a line whose end
 * gives the warp its next op. */
static pn_status_t add_hold(nb_t *b, const wnet_t *w, uint32_t i, opnet_t *on)
{
    uint32_t fin, into_last;
    char pre[64];
    snprintf(pre, sizeof pre, "w%u.i%u.H", w->gw, i);
    PN_CHECK(add_line(b, pre, b->s->ops[i].hold - 1, &on->hold, &fin, &into_last));
    return out(b, fin, next_of(b, w, i), 1);
}

/* Warp w at op i, where it may enter a line of code no warp asked for yet:
 * it asks (the line is there code_fetch steps later). */
static pn_status_t add_fetch(nb_t *b, const wnet_t *w, uint32_t i)
{
    uint32_t l = b->s->ops[i].cline, t;
    PN_CHECK(trans(b, &t, "w%u.i%u.fetch", w->gw, i));
    PN_CHECK(in(b, t, w->pc[i], 1));
    PN_CHECK(out(b, t, w->pc[i], 1));
    PN_CHECK(inh(b, t, b->code_req[l]));
    PN_CHECK(out(b, t, b->code_req[l], 1));
    if (b->code_line[l] != NONE)
        return out(b, t, b->code_line[l], 1);
    return out(b, t, b->code_ok[l], b->s->blocks * b->s->W);
}

/* Op i writes predicates a branch reads, ready lat_br >= 2 steps after its
 * issue: a line whose end gives back their REG_BR scoreboards. */
static pn_status_t add_branch_preds(nb_t *b, const wnet_t *w, uint32_t i, opnet_t *on)
{
    const opregs_t *rg = &b->regs[i];
    uint32_t fin, into_last;
    char pre[64];
    snprintf(pre, sizeof pre, "w%u.i%u.PB", w->gw, i);
    PN_CHECK(add_line(b, pre, b->s->ops[i].lat_br - 1, &on->br, &fin, &into_last));
    for (uint32_t r = 0; r < rg->n; r++)
        if (rg->written[r] && rg->reg[r] >= REG_BR)
            PN_CHECK(out(b, fin, w->sb[b->slot_of[rg->reg[r]]], 1));
    return PN_OK;
}

/* BAR op i: the warp waits in wait[i]; once released it takes a release
 * token and comes back its wait (pn_sass_bar_wait) less 3 steps later. */
static pn_status_t add_barrier_wait(nb_t *b, wnet_t *w, uint32_t i)
{
    uint32_t m = pn_sass_bar_wait(b->s, w->gw % b->s->W) - 3, take, first, fin, into_last;
    char pre[64];
    snprintf(pre, sizeof pre, "w%u.i%u.B", w->gw, i);
    PN_CHECK(place(b, 0, &w->wait[i], "w%u.i%u.wait", w->gw, i));
    PN_CHECK(trans(b, &take, "%s.take", pre));
    PN_CHECK(in(b, take, w->wait[i], 1));
    PN_CHECK(in(b, take, w->blk->rel, 1));
    if (m == 0)
        return out(b, take, next_of(b, w, i), 1);
    PN_CHECK(add_line(b, pre, m, &first, &fin, &into_last));
    PN_CHECK(out(b, take, first, 1));
    return out(b, fin, next_of(b, w, i), 1);
}

/* One issue transition of op i for warp w: lvl its level (loads; else 0),
 * tape_in/tape_out the tape token it moves (NONE: none), taken its branch
 * decision, follow 1 (line arrived) or 2 (pending) for a follower. */
static pn_status_t add_issue(nb_t *b, wnet_t *w, uint32_t i, const opnet_t *on, const char *tag,
                             int lvl, uint32_t tape_in, uint32_t tape_out, int taken, int follow)
{
    const pn_sass_sim_t *s = b->s;
    const sop_t *o = &s->ops[i];
    const opregs_t *rg = &b->regs[i];
    uint32_t t;
    PN_CHECK(trans(b, &t, "w%u.i%u.issue%s", w->gw, i, tag));
    PN_CHECK(in(b, t, w->pc[i], 1));
    if (s->fetch && o->entry) {   /* its line of code is here */
        PN_CHECK(in(b, t, b->code_ok[o->cline], 1));
        PN_CHECK(out(b, t, b->code_ok[o->cline], 1));
    }
    PN_CHECK(in(b, t, b->q[w->part], 1));
    PN_CHECK(out(b, t, b->q[w->part], 1));
    PN_CHECK(out(b, t, w->iss, 1));
    for (uint32_t r = 0; r < rg->n; r++) {
        uint32_t sb = w->sb[b->slot_of[rg->reg[r]]];
        PN_CHECK(in(b, t, sb, 1));
        if (!rg->written[r])
            PN_CHECK(out(b, t, sb, 1));
    }
    for (int q = 0; q < P_N; q++) {
        uint32_t c = pn_sass_cost_at(s, o, lvl, q);
        if (c) {
            uint32_t k = pn_sass_bucket(s->partitions, q, w->part), h = pn_sass_check(s, q, c);
            PN_CHECK(in(b, t, b->bucket[k], h));
            if (h > c)
                PN_CHECK(out(b, t, b->bucket[k], h - c));
            PN_CHECK(out(b, t, b->room[k], c));
        }
    }
    if (pn_sass_op_levels(o) && b->inflight != NONE)
        PN_CHECK(in(b, t, b->inflight, 1));
    if (tape_in != NONE) {
        PN_CHECK(in(b, t, tape_in, 1));
        PN_CHECK(out(b, t, tape_out, 1));
    }
    if (o->lead >= 0) {
        PN_CHECK(in(b, t, w->la[o->lead], 1));
        PN_CHECK(out(b, t, w->lp[o->lead], 1));
    }
    /* what comes back, and when */
    if (follow) {
        PN_CHECK(inh(b, t, follow == 1 ? w->lp[o->follow] : w->la[o->follow]));
        PN_CHECK(out(b, t, follow == 1 ? on->arrived : on->pending, 1));
        if (pn_sass_op_drains(o))
            PN_CHECK(out(b, t, w->out, 1));
    } else if (completes(b, i) && pn_sass_latency_at(s, o, lvl) >= 2) {
        PN_CHECK(out(b, t, on->done_at[lvl], 1));
        if (pn_sass_op_drains(o))
            PN_CHECK(out(b, t, w->out, 1));
    } else {
        for (uint32_t r = 0; r < rg->n; r++)
            if (rg->written[r] && rg->reg[r] < REG_BR)
                PN_CHECK(out(b, t, w->sb[b->slot_of[rg->reg[r]]], 1));
    }
    /* predicates as branches read them: at lat_br */
    if (on->br != NONE)
        PN_CHECK(out(b, t, on->br, 1));
    else
        for (uint32_t r = 0; r < rg->n; r++)
            if (rg->written[r] && rg->reg[r] >= REG_BR)
                PN_CHECK(out(b, t, w->sb[b->slot_of[rg->reg[r]]], 1));
    /* where the warp goes */
    uint32_t to;
    if (o->kind == K_BAR && i + 1 < s->n_ops) {
        PN_CHECK(out(b, t, w->blk->arr, 1));
        to = w->wait[i];
    } else if (o->branch >= 0)
        to = !taken ? next_of(b, w, i) : o->kind == K_EXIT ? w->ex : on->jump;
    else if (o->kind == K_EXIT)
        to = w->ex;
    else if (o->kind == K_BRA && o->target >= 0)
        to = on->jump;
    else
        to = on->hold != NONE ? on->hold : next_of(b, w, i);
    return out(b, t, to, 1);
}

/* The level global load o of warp w issues at in its k-th turn of the warp's
 * level tape: the tape's, or L1 for a pinned load (pn_sass_share_l1_hits). */
static int tape_level(const sop_t *o, const wnet_t *w, uint64_t k)
{
    return o->pinned ? 0 : pn_sass_load_level(&w->lev, k);
}

/* Op i of warp w: its lines, then an issue transition per level-tape or
 * branch-tape position (or follower case). */
static pn_status_t add_op(nb_t *b, wnet_t *w, uint32_t i)
{
    const pn_sass_sim_t *s = b->s;
    const sop_t *o = &s->ops[i];
    opnet_t on;
    memset(&on, 0xff, sizeof on);
    char tag[48];
    if (o->kind == K_BAR && i + 1 < s->n_ops)
        PN_CHECK(add_barrier_wait(b, w, i));
    if (o->kind == K_BRA && o->target >= 0)
        PN_CHECK(add_jump(b, w, i, &on));
    if (o->hold >= 2 && o->kind != K_BAR && o->kind != K_BRA && o->kind != K_EXIT &&
        o->branch < 0)
        PN_CHECK(add_hold(b, w, i, &on));
    if (o->lat_br >= 2)
        PN_CHECK(add_branch_preds(b, w, i, &on));
    if (s->fetch && o->entry)
        PN_CHECK(add_fetch(b, w, i));
    if (o->follow >= 0) {
        PN_CHECK(add_follower_lines(b, w, i, s->lat_l1, &on.arrived, &on.pending));
        PN_CHECK(add_issue(b, w, i, &on, ".arrived", 0, NONE, NONE, 0, 1));
        return add_issue(b, w, i, &on, ".pending", 0, NONE, NONE, 0, 2);
    }
    if (o->kind == K_GLD && !o->reuse) {
        int need[3] = { 0 };
        for (uint64_t k = 0; k < w->lev.g; k++)
            need[tape_level(o, w, k)] = 1;
        for (int l = 0; l < 3; l++) {
            uint32_t L = pn_sass_latency_at(s, o, l);
            if (need[l] && completes(b, i) && L >= 2) {
                static const char *const lname[3] = { "L1", "L2", "DRAM" };
                PN_CHECK(add_completion(b, w, i, lname[l], L, &on.done_at[l]));
            }
        }
        if (!w->ltape)
            return add_issue(b, w, i, &on, "", tape_level(o, w, 0), NONE, NONE, 0, 0);
        for (uint64_t k = 0; k < w->lev.g; k++) {
            snprintf(tag, sizeof tag, ".k%" PRIu64, k);
            PN_CHECK(add_issue(b, w, i, &on, tag, tape_level(o, w, k), w->ltape[k],
                               w->ltape[(k + 1) % w->lev.g], 0, 0));
        }
        return PN_OK;
    }
    int lvl = o->kind == K_ATOMG ? 1 : 0;
    uint32_t L = pn_sass_latency_at(s, o, lvl);
    if (completes(b, i) && L >= 2)
        PN_CHECK(add_completion(b, w, i, "C", L, &on.done_at[lvl]));
    if (o->branch < 0)
        return add_issue(b, w, i, &on, "", lvl, NONE, NONE, 0, 0);
    uint64_t period = pn_sass_decide_period(s, w->gw, o);
    if (period == 1)
        return add_issue(b, w, i, &on, "", lvl, NONE, NONE, pn_sass_decide(s, w->gw, o, 0), 0);
    if (period > PN_SASS_NET_MAX_PLACES)
        return pn_error_set(b->err, PN_ELIMIT, "the sass net would exceed %u places (a "
                            "branch's decisions repeat every %" PRIu64 ")",
                            PN_SASS_NET_MAX_PLACES, period);
    uint32_t *tape = malloc(period * sizeof *tape);
    if (!tape)
        return pn_error_set(b->err, PN_ENOMEM, "out of memory");
    pn_status_t st = PN_OK;
    for (uint64_t k = 0; k < period && st == PN_OK; k++)
        st = place(b, k == 0, &tape[k], "w%u.i%u.d%" PRIu64, w->gw, i, k);
    for (uint64_t k = 0; k < period && st == PN_OK; k++) {
        snprintf(tag, sizeof tag, ".d%" PRIu64, k);
        st = add_issue(b, w, i, &on, tag, lvl, tape[k], tape[(k + 1) % period],
                       pn_sass_decide(s, w->gw, o, k), 0);
    }
    free(tape);
    return st;
}

/* Warp i of block k: its places, ops and termination. */
static pn_status_t add_warp(nb_t *b, uint32_t k, uint32_t i, const blk_t *bl, wnet_t *w)
{
    const pn_sass_sim_t *s = b->s;
    uint32_t n = s->n_ops, t;
    w->gw = k * s->W + i;
    w->part = pn_sass_partition(s, k, i);
    w->blk = bl;
    pn_sass_warp_levels(s, w->gw, &w->lev);
    int started = k == 0;
    for (uint32_t j = 0; j < n; j++)
        PN_CHECK(place(b, started && j == 0, &w->pc[j], "w%u.pc%u", w->gw, j));
    PN_CHECK(place(b, 0, &w->ex, "w%u.ex", w->gw));
    PN_CHECK(place(b, 0, &w->out, "w%u.out", w->gw));
    PN_CHECK(place(b, 0, &w->iss, "w%u.iss", w->gw));
    for (uint32_t r = 0; r < N_REGS; r++)
        if (b->slot_of[r] >= 0)
            PN_CHECK(place(b, 1, &w->sb[b->slot_of[r]], "w%u.sb%u", w->gw, r));
    for (uint32_t l = 0; l < s->n_lines; l++) {
        PN_CHECK(place(b, 1, &w->la[l], "w%u.line%u.arrived", w->gw, l));
        PN_CHECK(place(b, 0, &w->lp[l], "w%u.line%u.pending", w->gw, l));
    }
    w->ltape = NULL;
    int varies = 0;   /* a tape only when the levels of its loads differ */
    for (uint64_t j = 1; j < w->lev.g && !varies; j++)
        varies = pn_sass_load_level(&w->lev, j) != pn_sass_load_level(&w->lev, 0);
    if (varies) {
        for (uint32_t j = 0; j < n && !w->ltape; j++)
            if (s->ops[j].kind == K_GLD && s->ops[j].follow < 0) {
                if (w->lev.g > PN_SASS_NET_MAX_PLACES)
                    return pn_error_set(b->err, PN_ELIMIT, "the sass net would exceed %u "
                                        "places (%" PRIu64 " loads a warp)",
                                        PN_SASS_NET_MAX_PLACES, w->lev.g);
                if (!(w->ltape = malloc(w->lev.g * sizeof *w->ltape)))
                    return pn_error_set(b->err, PN_ENOMEM, "out of memory");
            }
        for (uint64_t j = 0; w->ltape && j < w->lev.g; j++)
            PN_CHECK(place(b, j == 0, &w->ltape[j], "w%u.level%" PRIu64, w->gw, j));
    }
    PN_CHECK(trans(b, &t, "w%u.clear", w->gw));
    PN_CHECK(in(b, t, w->iss, 1));
    PN_CHECK(inh(b, b->t0, w->iss));
    for (uint32_t j = 0; j < n; j++)
        PN_CHECK(add_op(b, w, j));
    PN_CHECK(trans(b, &t, "w%u.term", w->gw));
    PN_CHECK(in(b, t, w->ex, 1));
    PN_CHECK(inh(b, t, w->out));
    PN_CHECK(out(b, t, b->pfin, 1));
    PN_CHECK(out(b, t, bl->pfin, 1));
    if (b->has_bar) {
        PN_CHECK(in(b, t, bl->live, 1));
        PN_CHECK(out(b, t, bl->gone, 1));
    }
    return PN_OK;
}

/* Each op's registers once, and the scoreboards the program needs. */
static void collect_regs(nb_t *b)
{
    const pn_sass_sim_t *s = b->s;
    memset(b->slot_of, 0xff, sizeof b->slot_of);
    for (uint32_t i = 0; i < s->n_ops; i++) {
        const sop_t *o = &s->ops[i];
        opregs_t *rg = &b->regs[i];
        for (int k = 0; k < o->n_regs; k++) {
            uint32_t r = 0;
            while (r < rg->n && rg->reg[r] != o->reg[k])
                r++;
            if (r == rg->n) {
                rg->reg[rg->n++] = o->reg[k];
                rg->written[r] = 0;
            }
            if (k >= o->n_reads && !rg->written[r]) {
                rg->written[r] = 1;
                rg->n_written++;
            }
            if (b->slot_of[o->reg[k]] < 0)
                b->slot_of[o->reg[k]] = (int16_t)b->n_sb++;
        }
        if (o->kind == K_BAR)
            b->has_bar = 1;
    }
}

pn_status_t pn_sass_net_build(pn_net_t *net, const pn_sass_sim_t *s, pn_sass_net_layout_t *lay,
                              pn_error_t *err)
{
    nb_t b = { .net = net, .err = err, .s = s };
    if (s->lat_l1 < 3 || s->lat_l2 < 3 || s->lat_dram < 3)
        return pn_error_set(err, PN_EINVAL, "the sass net needs load latencies of at least 3");
    if (s->lat_bar < 3)
        return pn_error_set(err, PN_EINVAL, "the sass net needs a barrier latency of at least 3");
    for (uint32_t i = 0; i < s->plan.n_branches; i++)
        if (s->plan.branches[i].both > 0)
            return pn_error_set(err, PN_EINVAL, "the sass net does not realise divergent "
                                "branches (both sides of a branch in one warp): run the "
                                "program on the sass engine (-e sm)");
    for (uint32_t i = 0; i < s->n_ops; i++)
        if (s->ops[i].call)
            return pn_error_set(err, PN_EINVAL, "the sass net does not realise calls (CALL, "
                                "RET): run the program on the sass engine (-e sm)");
    for (uint32_t i = 0; i < s->n_ops; i++)
        if (s->ops[i].async)
            return pn_error_set(err, PN_EINVAL, "the sass net does not realise cp.async's groups "
                                "(LDGSTS, LDGDEPBAR, DEPBAR SB0): run the program on the sass "
                                "engine (-e sm)");
    uint32_t W = s->W, B = s->blocks, n = s->n_ops, nl = s->n_clines ? s->n_clines : 1;
    b.regs = calloc(n ? n : 1, sizeof *b.regs);
    b.code_req = malloc(nl * sizeof *b.code_req);
    b.code_ok = malloc(nl * sizeof *b.code_ok);
    b.code_line = malloc(nl * sizeof *b.code_line);
    blk_t *bls = calloc(B, sizeof *bls);
    wnet_t *ws = calloc((size_t)B * W, sizeof *ws);
    uint32_t *ids = NULL;
    pn_status_t st = PN_ENOMEM;
    if (!b.regs || !bls || !ws || !b.code_req || !b.code_ok || !b.code_line)
        goto nomem;
    collect_regs(&b);
    size_t per = 2 * (size_t)n + b.n_sb + 2 * (size_t)s->n_lines;
    if (!(ids = malloc((size_t)B * W * (per ? per : 1) * sizeof *ids)))
        goto nomem;
    for (size_t w = 0; w < (size_t)B * W; w++) {
        uint32_t *p = ids + w * per;
        ws[w].pc = p, ws[w].wait = p + n, ws[w].sb = p + 2 * n;
        ws[w].la = p + 2 * n + b.n_sb, ws[w].lp = ws[w].la + s->n_lines;
    }
    if ((st = add_global(&b)) != PN_OK)
        goto out;
    for (uint32_t k = 0; k < B && st == PN_OK; k++)
        st = pn_sass_net_add_block(&b, k, &bls[k]);
    for (uint32_t k = 0; k < B && st == PN_OK; k++)
        for (uint32_t i = 0; i < W && st == PN_OK; i++)
            st = add_warp(&b, k, i, &bls[k], &ws[(size_t)k * W + i]);
    if (B > 1 && bls[0].lf != NONE && st == PN_OK)
        st = pn_sass_net_add_launched(&b, 0, bls);
    for (uint32_t k = 1; k < B && st == PN_OK; k++)
        st = pn_sass_net_add_start(&b, k, bls, ws + (size_t)k * W);
    if (st == PN_OK && (st = pn_net_freeze(net, err)) == PN_OK && lay) {
        lay->t0 = b.t0;
        lay->done = b.done;
    }
    goto out;
nomem:
    st = pn_error_set(err, PN_ENOMEM, "out of memory for the sass net");
out:
    for (size_t w = 0; ws && w < (size_t)B * W; w++)
        free(ws[w].ltape);
    free(ids);
    free(ws);
    free(bls);
    free(b.regs);
    free(b.code_req);
    free(b.code_ok);
    free(b.code_line);
    return st;
}
