/* pn_sass_shares.c - launch totals shared out where the source page cannot
 * tell: the kernel's L1 hits among its loads (loads a loop keeps the address
 * of, a line's followers, broadcast loads, the rest), which of a load's hits
 * wait for a line in flight, and a triangular loop's trips among the SMs
 * (doc/dependencies.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_sass_addr.h"
#include "pn_sass_sim_i.h"

/* pn_sass_sim_i.h */
double pn_sass_reuse_in_l1(pn_sass_sim_t *s, const pn_sass_prog_t *prog)
{
    pn_sass_plan_t *pl = &s->plan;
    double all = 0, re = 0;
    for (uint32_t i = 0; i < s->n_ops; i++)
        if (prog->ops[i].in.kind == PN_SASS_GLOBAL_LD && pl->leader[i] < 0) {
            double ex = prog->ops[i].executed > 0 ? prog->ops[i].executed : 0;
            all += ex;
            re += pl->reuse[i] ? ex : 0;
        }
    if (!(re > 0))
        return 0;
    if (s->l1_hit * all < re * (1 - 1e-9)) {
        pn_sass_plan_drop_reuse(pl, s->n_ops);
        return 0;
    }
    s->l1_hit = all > re ? fmin(1, fmax(0, (s->l1_hit * all - re) / (all - re))) : 0;
    double sec = 0, sec_re = 0;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        s->ops[i].reuse = pl->reuse[i];
        if (prog->ops[i].in.kind == PN_SASS_GLOBAL_LD && !pn_sass_predicated_off(&prog->ops[i]))
            sec += prog->ops[i].sectors, sec_re += pl->reuse[i] ? prog->ops[i].sectors : 0;
    }
    return sec > 0 ? sec_re / sec : 0;
}

/* Ops t..j of out (a copy of prog's ops made when out has none) run f times
 * as often, with their traffic: whole executions, at least one for an op that
 * ran. PN_OK or PN_ENOMEM. */
static pn_status_t scale_loop(const pn_sass_prog_t *prog, pn_sass_prog_t *out, size_t t, size_t j,
                              double f)
{
    if (!out->ops) {
        if (!(out->ops = malloc(prog->n * sizeof *out->ops)))
            return PN_ENOMEM;
        memcpy(out->ops, prog->ops, prog->n * sizeof *out->ops);
    }
    for (size_t i = t; i <= j; i++) {
        pn_sass_op_t *op = &out->ops[i];
        op->executed = fmax(round(op->executed * f), op->executed > 0 ? 1 : 0);
        op->threads *= f;
        op->sectors *= f;
        op->lines *= f;
        op->wavefronts *= f;
    }
    return PN_OK;
}

/* pn_sass_sim_i.h */
pn_status_t pn_sass_triangle(const pn_sass_prog_t *prog, const uint8_t *guard, uint32_t W,
                             double busy, pn_sass_prog_t *out)
{
    *out = *prog;
    out->ops = NULL;
    double S = fmax(1, fmin(busy, W ? ceil(prog->warps / W) : 1));
    size_t done = 0;   /* ops below `done` lie in a loop already scaled */
    for (size_t j = 0; j < prog->n; j++) {
        const pn_sass_op_t *br = &prog->ops[j];
        if (!pn_sass_op_is_branch(br) || br->target < 0 || (size_t)br->target > j ||
            br->target == 0 || !br->in.guarded ||
            !(guard[j] & (PN_SASS_FROM_THREAD | PN_SASS_FROM_CTA)) ||
            (guard[j] & PN_SASS_FROM_LOAD))
            continue;
        size_t t = (size_t)br->target;
        const pn_sass_op_t *pre = &prog->ops[t - 1], *head = &prog->ops[t];
        /* the loop's first op runs once a trip, as its back edge does (not where
         * the warp runs the loop diverged, its sides apart) */
        if (t < done || !(head->executed > 0) || !(head->threads > 0) ||
            !(pre->executed > 0) || !(pre->threads > 0) ||
            fabs(br->executed - head->executed) > 0.01 * head->executed)
            continue;
        double a0 = pn_sass_lanes(pre) / 32, a = pn_sass_lanes(head) / 32;
        double T = head->executed / pre->executed, off = 1 - a / a0;
        if (!(off > 0) || off * 32 * T < 16)
            continue;
        /* a triangle over the grid's N threads loses a lane a warp every 31 / N of
         * the trips (T0 = b N): lanes that leave much faster leave for another
         * reason (cuRAND's skip-ahead, a loop over the bits of the thread's index:
         * 2.5 trips, a fifth of the lanes gone, 9000 times a triangle's share) */
        if (off * prog->warps * 32 / 31 > 4)
            continue;
        /* lanes gone stay gone: no op of the loop runs them all (a warp that
         * runs part of a trip diverged, its sides apart, has ops that do) */
        double amax = 0;
        for (size_t i = t; i <= j; i++)
            if (prog->ops[i].executed > 0 && prog->ops[i].threads > 0)
                amax = fmax(amax, pn_sass_lanes(&prog->ops[i]) / 32);
        if (amax > a0 * (1 - off / 2))
            continue;
        double f = fmin(2, 1 + 32 * off * W * (S - 1) / 2 / 15.5);
        if (!(f > 1.01))
            continue;
        if (scale_loop(prog, out, t, j, f) != PN_OK)
            return PN_ENOMEM;
        done = j + 1;
    }
    return PN_OK;
}

/* The memory operand of op's text ("[R2.64+0x4]" of "LD.E.STRONG.GPU R0,
 * desc[UR6][R2.64+0x4]"), its length in *n; NULL without one. */
static const char *mem_operand(const pn_sass_op_t *op, size_t *n)
{
    const char *a = strrchr(op->text, '[');
    const char *b = a ? strchr(a, ']') : NULL;
    if (!b)
        return NULL;
    *n = (size_t)(b - a + 1);
    return a;
}

/* Is op a poll of the word a global atomic among the 16 ops before op t updated
 * (a load past the SM's cache, .STRONG.GPU or .STRONG.SYS, of the same memory
 * operand): a warp that arrived (the atomic) and waits for the others? */
static int polls_arrival(const pn_sass_prog_t *prog, size_t t, const pn_sass_op_t *op)
{
    size_t n, m;
    const char *at = mem_operand(op, &n);
    if (!pn_sass_insn_strong_beyond_sm(&op->in) || !at)
        return 0;
    for (size_t i = t > 16 ? t - 16 : 0; i < t; i++) {
        const char *a = mem_operand(&prog->ops[i], &m);
        if (prog->ops[i].in.kind == PN_SASS_ATOM_GLOBAL && a && m == n && !strncmp(a, at, n))
            return 1;
    }
    return 0;
}

/* pn_sass_sim_i.h */
pn_status_t pn_sass_polls(const pn_sass_prog_t *prog, pn_sass_prog_t *out)
{
    for (size_t j = 0; j < prog->n; j++) {
        const pn_sass_op_t *br = &prog->ops[j];
        if (!pn_sass_op_is_branch(br) || br->target <= 0 || (size_t)br->target > j)
            continue;
        size_t t = (size_t)br->target;
        const pn_sass_op_t *src = out->ops ? out->ops : prog->ops;
        const pn_sass_op_t *pre = &src[t - 1], *head = &src[t];
        /* entered by falling into it: what the op before it ran */
        if (pn_sass_op_is_exit(pre) || (pn_sass_op_is_branch(pre) && !pre->in.guarded) ||
            !(pre->executed > 0) || !(head->executed > pre->executed))
            continue;
        int poll = 0, simple = 1;
        for (size_t i = t; i <= j; i++) {
            const pn_sass_op_t *op = &prog->ops[i];
            poll = poll || polls_arrival(prog, t, op);
            /* one way out, its back edge's fall-through: no exit, call or jump
             * out of the body before it */
            if (i < j && (pn_sass_op_is_exit(op) || pn_sass_op_is_call(op) ||
                          (pn_sass_op_is_branch(op) &&
                           (op->target < (int32_t)t || op->target > (int32_t)j))))
                simple = 0;
        }
        if (!poll || !simple)
            continue;
        /* one way in, falling into its first op: no jump from elsewhere into it */
        for (size_t i = 0; i < prog->n && simple; i++)
            if ((i < t || i > j) && pn_sass_op_is_branch(&prog->ops[i]) &&
                prog->ops[i].target >= (int32_t)t && prog->ops[i].target <= (int32_t)j)
                simple = 0;
        if (!simple)
            continue;
        /* at most two trips an entry: the first poll finds the others still
         * coming, the second finds them in */
        double f = 2 * pre->executed / head->executed;
        if (!(f < 1))
            continue;
        if (scale_loop(prog, out, t, j, f) != PN_OK)
            return PN_ENOMEM;
    }
    return PN_OK;
}

/* Does global load i count in the kernel's L1 hits that pn_sass_share_l1_hits
 * shares out (not a load a loop keeps the address of, not local, not
 * predicated off, some sectors)? */
static int shares_hits(const pn_sass_sim_t *s, const pn_sass_op_t *op, uint32_t i)
{
    return op->in.kind == PN_SASS_GLOBAL_LD && !s->ops[i].reuse && !pn_sass_op_is_local(op) &&
           !pn_sass_predicated_off(op) && op->sectors > 0;
}

/* Most lanes on and one address in every thread and block (one thread's serial
 * loop streams its data: no broadcast). */
static int broadcast(const pn_sass_op_t *op, uint8_t from)
{
    return from == 0 && !pn_sass_insn_strong_beyond_sm(&op->in) && pn_sass_lanes(op) >= 16;
}

/* pn_sass_sim_i.h */
void pn_sass_share_l1_hits(pn_sass_sim_t *s, const pn_sass_prog_t *prog, const uint8_t *from)
{
    double all = 0, pin = 0, fol = 0;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        const pn_sass_op_t *op = &prog->ops[i];
        if (!shares_hits(s, op, i))
            continue;
        if (s->plan.leader[i] >= 0) {
            fol += op->sectors;
            continue;
        }
        all += op->sectors;
        if (broadcast(op, from[i]))
            pin += op->sectors;
    }
    double hits = s->l1_hit * (all + fol) - fol;
    if (!(pin > 0) || pin >= all || hits < 0.5 * pin) {
        if (all > 0)
            s->l1_hit = fmax(0, hits) / all;
        return;
    }
    for (uint32_t i = 0; i < s->n_ops; i++)
        s->ops[i].pinned = shares_hits(s, &prog->ops[i], i) && s->plan.leader[i] < 0 &&
                           broadcast(&prog->ops[i], from[i]);
    s->l1_hit = fmax(0, hits - pin) / (all - pin);
}


/* Does global load op read a byte a lane (.U8, .S8)? */
static int byte_lanes(const pn_sass_op_t *op)
{
    return strstr(op->in.modifiers, ".U8") || strstr(op->in.modifiers, ".S8");
}

/* The lines an execution of a load must read, at least, for its L1 hits to be
 * taken for other warps' lines in flight when it moves a line or more a trip
 * of its loop, or to wait for its own lanes' misses when it reads bytes
 * (doc/dependencies.md, "Loads that walk past their lines", "Bytes a lane"). */
#define PN_SASS_WALK_LINES 8

/* pn_sass_sim_i.h */
float pn_sass_waiting_hits(const pn_sass_sim_t *s, const pn_sass_op_t *op, const sop_t *o,
                           uint8_t from, uint8_t moves, uint32_t copies, double lines)
{
    if (o->kind != K_GLD || o->alike || o->reuse || pn_sass_op_is_local(op) || !(s->l1_hit > 0))
        return 0;
    /* the same addresses in c warps of the block (a block narrower than
     * its warps across, an address of SR_TID.X alone): the warps ask for
     * its lines together, one misses and ncu counts the c - 1 others as
     * hits, which wait for the line it brings (PolyBench's atax_kernel2,
     * doitgen_kernel1: 8 warps of 32 x 8 blocks): (c - 1) / c of the
     * accesses, all of the hits at most. The leader's own hits (a line
     * it read before) would wait for nothing, but the kernel-wide hit
     * rate cannot tell them from the copies' (atax_kernel2's row loads,
     * which never hit on their own, take 1271 us for 1545 measured when
     * they count; 1475 when they do not) */
    float share = 0;
    if (copies > 1 && !(from & (PN_SASS_FROM_LOAD | PN_SASS_FROM_WARP)))
        share = (float)fmin(1, (copies - 1.0) / copies / s->l1_hit);
    /* a loop's load whose lanes read lines of their own (8 or more an
     * execution: a column walked down) and that moves a line or more a
     * trip never meets its lines again in the loop: the hits ncu counts
     * for it are lines the block's other warps read, which ask for them at
     * about the same time, so they wait for the line in flight. A
     * coalesced walk (1-4 lines) is left: its warp may have read them in
     * a loop before (softmax's passes over its row) */
    if (moves == 2 && lines >= PN_SASS_WALK_LINES && !(from & PN_SASS_FROM_LOAD))
        return 1;
    /* a load of bytes whose lanes read lines of their own (8 or more an
     * execution: packed records of any length, keys or strings a lane each)
     * crosses into new sectors lane by lane, at loads of their own: it is done
     * from L1 only when all its lines hit, l1^lines of the time where the
     * kernel's hit rate counts l1 (its other hits wait for the lanes that
     * missed) */
    if (!(share > 0) && lines >= PN_SASS_WALK_LINES && byte_lanes(op) && s->l1_hit < 1)
        share = (float)(1 - pow(s->l1_hit, lines - 1));
    return share;
}
