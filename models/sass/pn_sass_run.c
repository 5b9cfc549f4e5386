/* pn_sass_run.c - the sass engine's runs: the dependency rule on the
 * pipelined SM, step by step over the steps in which some warp can act
 * (doc/dependencies.md); it plays the net of pn_sass_net.c.
 *
 * A running warp waits in a calendar (a bitmap of warps per step for the next
 * PN_SASS_CAL steps, a heap beyond) until the step its registers, its
 * previous issue and its branch or barrier latency allow (its wake), then in
 * the ready list of its partition and class (pn_sass_class_t: what its next
 * op takes). The warps that wake in a step join their lists in the order of
 * their numbers. In a step only the lists whose class the buckets and the
 * in-flight limit can pay are drawn from, one warp at a time with the weight
 * of their members, and rechecked after each issue (the issue's partition's,
 * and every partition's when it took from the SM's buckets): the warps of
 * the other lists would be refused whatever the order (a step's takes only
 * lower the levels), so leaving them out keeps the net's distribution, and a
 * step costs what it issues. The next step visited is the first at which a
 * warp wakes, a list could be paid by refills or returned slots, or a block
 * may start.
 *
 * What a run reads is tabled once (pn_sass_run_init.c): per list its buckets
 * and costs, per op its registers (only those the program uses) and
 * latencies. A step's bookkeeping avoids branches on data where it can (most
 * of its time went to mispredicted branches). Which warp a seed draws
 * depends on the lists' order (the warps' numbers, the lists by partition),
 * never on the number of threads. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "pn_rng.h"
#include "pn_sass_sim.h"
#include "pn_sass_sim_i.h"
#include "pn_sass_run_i.h"

/* The bucket's level at the start of step t >= its step `at`, as the net's
 * refill has it: in every step it refills by R when its room (cap - level)
 * at the start of the step, before the step's takes, holds at least R. So
 * from `at` on: the refill decided at `at`, then R in every quiet step in
 * which its room holds R. What an issue on a bucket with a debt gives back
 * at the end of its step rides with the step's refill. Without branches on
 * whether it moves (a pipe of rate 0 keeps its level). */
static inline uint64_t level_at(pn_sass_bk_t *b, uint64_t t)
{
    uint32_t rate = b->rate, cap = b->cap, mv = -(uint32_t)(t > b->at);
    uint64_t level = b->level + (b->refill & mv);
    uint64_t d = (t - b->at - 1) & (uint64_t)(int64_t)(int32_t)mv;  /* quiet steps */
    if (d > 0 && rate && cap - level >= rate) {
        uint64_t k = (cap - level) / rate;
        level += (uint64_t)rate * (k < d ? k : d);
    }
    uint32_t refill = cap - level >= rate ? rate : 0;
    b->refill = (refill & mv) | (b->refill & ~mv);
    b->level = level;
    b->at = t;
    return level;
}


/* The heap of the warps that wake past the calendar's reach. */
static void heap_push(pn_sass_run_t *r, uint64_t at, uint32_t wi)
{
    struct wakeup v = { at, wi };
    uint32_t i = r->n_wh++;
    while (i > 0 && r->wh[(i - 1) / 2].at > v.at) {
        r->wh[i] = r->wh[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->wh[i] = v;
}

static void heap_pop(pn_sass_run_t *r)
{
    struct wakeup v = r->wh[--r->n_wh];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= r->n_wh)
            break;
        c += c + 1 < r->n_wh && r->wh[c + 1].at < r->wh[c].at;
        if (r->wh[c].at >= v.at)
            break;
        r->wh[i] = r->wh[c];
        i = c;
    }
    r->wh[i] = v;
}

/* Warp wi wakes at step at, in the calendar from cal_cur on (at is never
 * earlier: one that is waits for the next step visited). */
static void cal_put(pn_sass_run_t *r, uint64_t at, uint32_t wi)
{
    uint32_t st = (uint32_t)(at & (PN_SASS_CAL - 1));
    r->cal[(size_t)st * r->cal_words + wi / 64] |= 1ull << (wi % 64);
    r->cal_sum[st / 64] |= 1ull << (st % 64);
}

/* Running warp wi, in no list, waits for its wake step. */
static void wake_push(pn_sass_run_t *r, uint32_t wi)
{
    uint64_t at = r->w[wi].wake > r->cal_cur ? r->w[wi].wake : r->cal_cur;
    if (at - r->cal_cur < PN_SASS_CAL)
        cal_put(r, at, wi);
    else
        heap_push(r, at, wi);
    r->w[wi].queued = 1;
}

/* The first step at which a waiting warp wakes, or UINT64_MAX: the first
 * step of the calendar's with warps, from cal_cur round, else the heap's. */
static uint64_t wake_first(const pn_sass_run_t *r)
{
    uint32_t st = (uint32_t)(r->cal_cur & (PN_SASS_CAL - 1)), n = PN_SASS_CAL / 64;
    uint64_t m = r->cal_sum[st / 64] >> (st % 64);
    if (m)
        return r->cal_cur + (uint64_t)__builtin_ctzll(m);
    for (uint32_t i = 1; i <= n; i++) {
        uint32_t q = (st / 64 + i) % n;
        if (r->cal_sum[q]) {
            uint32_t at = q * 64 + (uint32_t)__builtin_ctzll(r->cal_sum[q]);
            return r->cal_cur + ((at - st) & (PN_SASS_CAL - 1));
        }
    }
    return r->n_wh > 0 ? r->wh[0].at : UINT64_MAX;
}

/* The level warp w issues its next op o at: a load its pattern's next, an
 * atomic L2, anything else 0. */
static inline int level_of(const pn_sass_rop_t *ro, const pn_sass_warp_t *w)
{
    return (w->lvl & ro->lvmask) | ro->lvfix;
}

/* The list warp w's next op puts it in: its partition, and its class at the
 * level it issues at. */
static uint32_t list_of(const pn_sass_run_t *r, const pn_sass_warp_t *w)
{
    const sop_t *o = &r->s->ops[w->pc];
    return w->part * r->s->n_cls + o->cls[level_of(&r->rop[w->pc], w)];
}

/* The warps due at t join their lists, in the order of their numbers. No
 * warp waits for a step before t (t is never past the first wake): the
 * calendar moves on to cover t and the PN_SASS_CAL - 1 steps after it,
 * taking from the heap the warps that wake in them. */
static void wake_due(pn_sass_run_t *r, uint64_t t)
{
    assert(wake_first(r) >= t);
    r->cal_cur = t;
    while (r->n_wh > 0 && r->wh[0].at - t < PN_SASS_CAL) {
        cal_put(r, r->wh[0].at, r->wh[0].w);
        heap_pop(r);
    }
    uint32_t st = (uint32_t)(t & (PN_SASS_CAL - 1));
    uint64_t *due = r->cal + (size_t)st * r->cal_words;
    r->cal_sum[st / 64] &= ~(1ull << (st % 64));
    r->cal_cur = t + 1;
    for (uint32_t q = 0; q < r->cal_words; q++)
        while (due[q]) {
            uint32_t wi = q * 64 + (uint32_t)__builtin_ctzll(due[q]);
            due[q] &= due[q] - 1;
            pn_sass_warp_t *w = &r->w[wi];
            w->queued = 0;
            if (w->state != 0)
                continue;
            uint32_t k = list_of(r, w);
            /* an empty list joins act (without branches: act has a spare slot) */
            uint32_t first = -(uint32_t)(r->n_rd[k] == 0);
            r->act[r->n_act] = k;
            r->apos[k] = (r->n_act & first) | (r->apos[k] & ~first);
            r->ready_at[k] &= ~(uint64_t)(int64_t)(int32_t)first;
            r->n_act -= first;
            r->rd[(size_t)k * r->nw + r->n_rd[k]++] = wi;
        }
}

/* Take member u out of list k. */
static uint32_t list_take(pn_sass_run_t *r, uint32_t k, uint32_t u)
{
    uint32_t *rd = r->rd + (size_t)k * r->nw, wi = rd[u];
    rd[u] = rd[--r->n_rd[k]];
    /* an emptied list leaves act, the last one taking its place (without
     * branches: otherwise the last one stays where it is) */
    uint32_t gone = -(uint32_t)(r->n_rd[k] == 0), last = r->act[r->n_act - 1];
    uint32_t at = (r->apos[k] & gone) | ((r->n_act - 1) & ~gone);
    r->act[at] = last;
    r->apos[last] = at;
    r->n_act += gone;
    return wi;
}

/* When warp w's committed cp.async groups but the newest n are in. */
static uint64_t groups_in(const pn_sass_warp_t *w, uint32_t n)
{
    uint64_t t = w->grp_old;
    uint32_t lo = w->n_grp > PN_SASS_ASYNC_GROUPS ? w->n_grp - PN_SASS_ASYNC_GROUPS : 0;
    for (uint32_t g = lo; g + n < w->n_grp; g++)
        t = w->grp[g % PN_SASS_ASYNC_GROUPS] > t ? w->grp[g % PN_SASS_ASYNC_GROUPS] : t;
    return t;
}

/* The earliest step warp w's next op may issue, registers alone (and, for a
 * DEPBAR on cp.async, the groups it waits for; for an op a warp enters a line
 * of code at, the line: the first warp to come asks for it, code_fetch steps). */
static void rewake(pn_sass_run_t *r, pn_sass_warp_t *w)
{
    const pn_sass_rop_t *ro = &r->rop[w->pc];
    uint64_t t = w->next_ok;
    if (r->code_ok && r->s->ops[w->pc].entry) {
        uint64_t *ok = &r->code_ok[r->s->ops[w->pc].cline];
        if (*ok == 0)
            *ok = t + r->s->fetch;
        t = *ok > t ? *ok : t;
    }
    if (ro->async == A_WAIT) {
        uint64_t g = groups_in(w, ro->async_n);
        t = g > t ? g : t;
    }
    for (uint32_t i = 0; i < ro->n_rreg; i += 4) {
        uint64_t a = w->ready[ro->rreg[i]], b = w->ready[ro->rreg[i + 1]];
        uint64_t c = w->ready[ro->rreg[i + 2]], d = w->ready[ro->rreg[i + 3]];
        a = a > b ? a : b;
        c = c > d ? c : d;
        a = a > c ? a : c;
        t = a > t ? a : t;
    }
    w->wake = t;
}

/* Block next_block starts in slot sl at t: its warps issue from t (block 0,
 * at step 0) or from t + 1. */
static void start_block(pn_sass_run_t *r, uint32_t sl, uint64_t t, int first)
{
    const pn_sass_sim_t *s = r->s;
    pn_sass_slot_t *b = &r->slot[sl];
    b->block = r->next_block++;
    /* the first wave done: the DRAM and L2 budgets may bank deeper from the
     * next step on (the refill decided for this one stands) */
    if (b->block == s->resident)   /* resident >= 1: never block 0 */
        for (int q = P_DRAM; q <= P_L2W; q++) {
            pn_sass_bk_t *k = &r->bk[pn_sass_bucket(s->partitions, q, 0)];
            if (s->cap[q] > s->cap0[q]) {
                assert(k->at <= t);
                level_at(k, t);
                k->cap = s->cap[q];
            }
        }
    b->alive = s->W;
    b->arrived = 0;
    b->busy = 1;
    b->gone_at = 0;
    if (!first) {
        r->n_free--;
        r->launch_ok = t + (s->launch > 1 ? s->launch : 1);
        r->free_at = UINT64_MAX;
        for (uint32_t i = 0; i < s->resident; i++)
            if (!r->slot[i].busy && r->slot[i].free_from < r->free_at)
                r->free_at = r->slot[i].free_from;
    }
    size_t nbr = s->plan.n_branches ? s->plan.n_branches : 1;
    for (uint32_t i = 0; i < s->W; i++) {
        pn_sass_warp_t *w = &r->w[sl * s->W + i];
        uint64_t *k = w->k, *ld = w->ldone, *rd = w->ready;
        memset(w, 0, sizeof *w);
        w->k = k;
        w->ldone = ld;
        w->ready = rd;
        memset(k, 0, nbr * sizeof *k);
        memset(ld, 0, (s->n_lines ? s->n_lines : 1) * sizeof *ld);
        w->gw = b->block * s->W + i;
        w->slot = sl;
        w->part = pn_sass_partition(s, b->block, i);
        w->next_ok = first ? t : t + 1;
        w->last = w->next_ok;
        for (uint32_t q = 0; q < r->nreg; q++)
            w->ready[q] = t;
        pn_sass_warp_levels(s, w->gw, &w->lev);
        w->lvl = pn_sass_load_level(&w->lev, 0);
        rewake(r, w);
        wake_push(r, sl * s->W + i);
    }
}

/* Every warp of slot sl waiting at its barrier goes on at its wait after t
 * (pn_sass_bar_wait: the barrier latency, warp i bar_stagger i steps later),
 * or after the last of its exited warps is done. */
static void release_barrier(pn_sass_run_t *r, uint32_t sl, uint64_t t)
{
    const pn_sass_sim_t *s = r->s;
    if (r->slot[sl].gone_at > t)
        t = r->slot[sl].gone_at;
    for (uint32_t i = 0; i < s->W; i++) {
        pn_sass_warp_t *x = &r->w[sl * s->W + i];
        if (x->state == 1) {
            x->state = 0;
            x->next_ok = t + pn_sass_bar_wait(s, i);
            rewake(r, x);
            wake_push(r, sl * s->W + i);
        }
    }
    r->slot[sl].arrived = 0;
}

/* A warp of slot sl is done at t: free the slot when it was the last, and
 * release a barrier that only waited for it. */
static void warp_done(pn_sass_run_t *r, pn_sass_warp_t *w, uint64_t t)
{
    pn_sass_slot_t *b = &r->slot[w->slot];
    w->state = 2;
    if (t > b->done_at)
        b->done_at = t;
    if (t > r->last_done)
        r->last_done = t;
    if (t > b->gone_at)
        b->gone_at = t;
    if (--b->alive == 0) {
        b->busy = 0;
        b->free_from = b->done_at + 2 + r->s->turn;
        r->n_free++;
        if (b->free_from < r->free_at)
            r->free_at = b->free_from;
        r->blocks_done++;
        return;
    }
    if (b->arrived > 0 && b->arrived == b->alive)
        release_barrier(r, w->slot, t);
}

/* Issue warp w's op at step t on its partition, which has a slot left. Its
 * list's check (list_wait) made sure its pipes and an in-flight slot can pay. */
static void issue(pn_sass_run_t *r, pn_sass_warp_t *w, uint32_t k, uint64_t t)
{
    const pn_sass_sim_t *s = r->s;
    const sop_t *o = &s->ops[w->pc];
    assert(!(pn_sass_op_levels(o) && s->inflight && r->n_inflight >= s->inflight));
    if (r->op_n) {
        r->op_n[w->pc] += 1;
        r->op_cyc[w->pc] += (double)(t - w->last);
        w->last = t;
    }
    const pn_sass_rop_t *ro = &r->rop[w->pc];
    int lvl = level_of(ro, w);
    assert(k == w->part * s->n_cls + o->cls[lvl]);
    const pn_sass_lrec_t *L = &r->lr[k];
    /* list_wait brought its buckets to t */
    for (uint32_t i = 0; i < L->n; i++) {
        pn_sass_bk_t *b = &r->bk[L->b[i]];
        assert(b->at == t || !b->rate);
        assert(b->level >= L->chk[i]);
        b->level -= L->chk[i];
        b->refill += L->chk[i] - L->need[i];   /* given back at the step's end */
    }
    r->issued++;
    uint64_t lat = r->lat[3 * (size_t)w->pc + (uint32_t)lvl];
    if (o->follow >= 0) {
        uint64_t at = w->ldone[o->follow];
        if (at > t + lat)
            lat = at - t;
    } else if (pn_sass_op_levels(o)) {
        if (o->kind == K_GLD && !o->reuse)
            w->lvl = pn_sass_load_level(&w->lev, ++w->nload);
        if (s->inflight) {
            struct ifq *q = &r->ifq[r->lq[3 * (size_t)w->pc + (uint32_t)lvl]];
            uint32_t i = q->head + q->len++;
            q->at[i >= s->inflight ? i - s->inflight : i] = t + lat;
            r->n_inflight++;
            r->if_first = t + lat < r->if_first ? t + lat : r->if_first;
        }
        if (o->lead >= 0)
            w->ldone[o->lead] = t + lat;
    }
    for (uint32_t i = 0; i < ro->n_wreg; i += 2) {
        w->ready[ro->wreg[i]] = t + lat;
        w->ready[ro->wreg[i + 1]] = t + lat;
    }
    for (uint32_t i = 0; i < ro->n_wbr; i++)
        w->ready[ro->wbr[i]] = t + (o->lat_br > lat ? o->lat_br : lat);
    if (ro->async == A_COPY && t + lat > w->grp_open)
        w->grp_open = t + lat;
    else if (ro->async == A_COMMIT) {
        uint64_t *g = &w->grp[w->n_grp % PN_SASS_ASYNC_GROUPS];
        if (w->n_grp >= PN_SASS_ASYNC_GROUPS && *g > w->grp_old)
            w->grp_old = *g;   /* its slot's group leaves the ring */
        *g = w->grp_open;
        w->n_grp++;
        w->grp_open = 0;
    }
    /* the warp is done once its results and stores are */
    if (pn_sass_op_drains(o) && t + lat > w->drain)
        w->drain = t + lat;
    w->next_ok = t + (o->hold ? o->hold : 1);
    uint32_t pc = w->pc;
    if (o->branch >= 0) {
        int taken = pn_sass_decide(s, w->gw, o, w->k[o->branch]++);
        if (taken == 2) {
            /* diverged: the fall side now, the taken one at reconvergence */
            if (w->n_pend < PN_SASS_DIV_DEPTH) {
                w->pend_to[w->n_pend] = (uint32_t)o->target;
                w->pend_at[w->n_pend++] = (uint32_t)s->br[o->branch].reconv;
            }
            taken = 0;
        }
        if (taken && o->kind == K_EXIT && !(o->ret && w->depth)) {
            warp_done(r, w, w->drain > t + 1 ? w->drain : t + 1);
            return;
        }
        pc = !taken ? pc + 1 : o->kind == K_EXIT ? w->calls[--w->depth] : (uint32_t)o->target;
        w->next_ok = t + (taken ? o->lat : 1);
    } else if (o->kind == K_EXIT && o->ret && w->depth) {
        pc = w->calls[--w->depth];   /* back after the call */
        w->next_ok = t + o->lat;
    } else if (o->kind == K_EXIT) {
        warp_done(r, w, w->drain > t + 1 ? w->drain : t + 1);
        return;
    } else if (o->kind == K_BRA && o->target >= 0) {
        if (o->call && w->depth < PN_SASS_CALL_DEPTH)
            w->calls[w->depth++] = pc + 1;
        pc = (uint32_t)o->target;
        w->next_ok = t + o->lat;
    } else
        pc++;
    while (w->n_pend && w->pend_at[w->n_pend - 1] == pc) {
        pc = w->pend_to[--w->n_pend];   /* a diverged warp's waiting side */
        r->switched = 1;
    }
    if (pc >= s->n_ops) {
        warp_done(r, w, w->drain > t + 1 ? w->drain : t + 1);
        return;
    }
    w->pc = pc;
    if (o->kind == K_BAR) {
        pn_sass_slot_t *b = &r->slot[w->slot];
        w->state = 1;
        if (++b->arrived == b->alive)
            release_barrier(r, w->slot, t);
        return;
    }
    rewake(r, w);
    return;
}

/* Steps from t until list k's class could be paid: refills bring its
 * partition's and the SM's buckets to its costs, and for a load an in-flight
 * slot is back (0: it can be paid at t). */
static inline uint64_t list_wait(pn_sass_run_t *r, uint32_t k, uint64_t t)
{
    const pn_sass_lrec_t *L = &r->lr[k];
    if (r->memo_at[L->memo_rd] == r->stamp)
        return r->memo_m[L->memo_rd];
    uint64_t m = 0;
    for (uint32_t i = 0; i < L->n; i++) {
        pn_sass_bk_t *b = &r->bk[L->b[i]];
        uint32_t need = L->chk[i];
        uint64_t have = level_at(b, t);
        if (need > have) {
            /* what the step's takes give back comes at its end, with its refill */
            uint64_t h = have + b->refill;
            uint64_t n = need > h ? (need - h + b->rate - 1) / b->rate : 1;
            m = n > m ? n : m;
        }
    }
    if (L->inflight && r->n_inflight >= r->s->inflight) {
        if (r->if_first > t + m)
            m = r->if_first - t;
    }
    r->memo_at[L->memo_wr] = r->stamp;
    r->memo_m[L->memo_wr] = m;
    return m;
}

/* Step t's issues (the file's comment): returns the instructions issued,
 * and in *next the first step after t at which a list may be paid. */
static uint32_t issue_step(pn_sass_run_t *r, uint64_t t, uint64_t *next)
{
    uint64_t nx = UINT64_MAX;
    const pn_sass_sim_t *s = r->s;
    uint32_t left[PN_PIPE_MAX_PARTITIONS], issued = 0, total = 0;
    if (r->n_inflight > 0 && r->if_first <= t) {
        r->if_first = UINT64_MAX;
        for (uint32_t i = 0; i < r->n_ifq; i++) {
            struct ifq *q = &r->ifq[i];
            while (q->len > 0 && q->at[q->head] <= t) {
                q->head = q->head + 1 == s->inflight ? 0 : q->head + 1;
                q->len--;
                r->n_inflight--;
            }
            if (q->len > 0 && q->at[q->head] < r->if_first)
                r->if_first = q->at[q->head];
        }
    }
    /* the lists that can be paid, partition p's at elig[p * n_cls], gn[p] of
     * them with gt[p] members */
    uint32_t C = s->n_cls, gn[PN_PIPE_MAX_PARTITIONS], gt[PN_PIPE_MAX_PARTITIONS];
    for (uint32_t p = 0; p < s->partitions; p++) {
        left[p] = s->issue;
        gn[p] = gt[p] = 0;
    }
    r->stamp++;
    for (uint32_t a = 0; a < r->n_act; a++) {
        uint32_t k = r->act[a];
        if (r->ready_at[k] > t) {
            nx = r->ready_at[k] < nx ? r->ready_at[k] : nx;
            continue;
        }
        uint32_t p = r->lr[k].part;
        if (r->stall[p] > t) {
            nx = r->stall[p] < nx ? r->stall[p] : nx;
            continue;
        }
        uint64_t m = list_wait(r, k, t);
        if (m == 0) {
            r->elig[p * C + gn[p]++] = k;
            gt[p] += r->n_rd[k];
            total += r->n_rd[k];
        } else
            nx = t + m < nx ? t + m : nx;
        r->ready_at[k] = t + (m ? m : 1);
    }
    while (total > 0) {
        uint32_t u = pn_rng_below(&r->rng, total), pw = 0, e = 0;
        while (u >= gt[pw])
            u -= gt[pw++];
        uint32_t *seg = r->elig + pw * C;
        while (u >= r->n_rd[seg[e]])
            u -= r->n_rd[seg[e++]];
        uint32_t kk = seg[e];
        uint64_t took = r->lr[kk].mask;
        uint32_t wi = list_take(r, kk, u);
        pn_sass_warp_t *w = &r->w[wi];
        issue(r, w, kk, t);
        if (r->switched) {
            /* turning to a waiting side holds its partition's issue */
            r->switched = 0;
            if (s->switch_stall) {
                r->stall[pw] = t + 1 + s->switch_stall;
                left[pw] = 1;
            }
        }
        r->stamp++;
        issued++;
        total--;
        gt[pw]--;
        if (w->state == 0 && !w->queued)
            wake_push(r, wi);
        if (--left[pw] == 0) {
            /* its partition is done for the step: its lists that still have
             * members try again at the next */
            if (gt[pw] > 0)
                nx = t + 1 < nx ? t + 1 : nx;
            total -= gt[pw];
            gt[pw] = gn[pw] = 0;
        } else if (r->n_rd[kk] == 0)
            seg[e] = seg[--gn[pw]];
        /* recheck the lists that may have lost their units: those sharing a
         * bucket with the issue, of its partition, or of every partition when
         * it took from the SM's buckets or an in-flight slot */
        uint32_t all = (took & r->sm_mask) != 0;
        uint32_t q1 = all ? s->partitions : pw + 1;
        for (uint32_t q = all ? 0 : pw; q < q1; q++) {
            uint32_t *sg = r->elig + q * C, n = 0;
            for (uint32_t i = 0; i < gn[q]; i++) {
                uint32_t k = sg[i], keep = 1;
                if (r->lr[k].mask & took) {
                    uint64_t m = list_wait(r, k, t);
                    if (m > 0) {
                        r->ready_at[k] = t + m;
                        nx = t + m < nx ? t + m : nx;
                        gt[q] -= r->n_rd[k];
                        total -= r->n_rd[k];
                        keep = 0;
                    }
                }
                sg[n] = k;
                n += keep;
            }
            gn[q] = n;
        }
    }
    *next = nx;
    return issued;
}

static pn_status_t sim_run(const pn_sass_sim_t *s, uint64_t seed, const pn_run_opts_t *o,
                           pn_run_result_t *res, double *issued, double *cycles, pn_error_t *err)
{
    memset(res, 0, sizeof *res);
    res->seed = seed;
    /* r's address stays in this file (the compiler may keep its fields in
     * registers across the calls out of it): set up and freed through a copy */
    pn_sass_run_t io, r;
    pn_status_t st = pn_sass_run_init(&io, s, seed, err);
    io.op_n = issued;
    io.op_cyc = cycles;
    r = io;
    if (st != PN_OK)
        goto out;
    /* every block takes its turn of the SM's block launches, the first wave's
     * too (the empty-block probe's time over blocks starts at the launch's
     * fixed cost): block 0 runs from step 0, as if started at step -1, so the
     * next may start at launch - 1, in any slot still free */
    start_block(&r, 0, 0, 1);
    for (uint32_t b = 1; b < s->resident; b++) {
        r.slot[b].busy = 0;
        r.slot[b].free_from = 0;
        r.n_free++;
        r.free_at = 0;
    }
    r.launch_ok = s->launch > 1 ? s->launch - 1 : 0;
    uint64_t t = 0, busy_steps = 0, end = 0;
    unsigned poll = 0;
    while (r.blocks_done < s->blocks) {
        if (++poll % PN_ENGINE_STOP_EVERY == 0 && pn_engine_poll(o, t)) {
            st = pn_engine_stop_error(err);
            goto out;
        }
        if (t > o->max_steps) {
            st = pn_engine_limit_error(o, seed, err);
            goto out;
        }
        /* free slots take the next blocks, one every `launch` steps */
        if (r.n_free > 0 && r.next_block < s->blocks && t >= r.free_at && t >= r.launch_ok)
            for (uint32_t b = 0; b < s->resident; b++)
                if (!r.slot[b].busy && r.slot[b].free_from <= t) {
                    start_block(&r, b, t, 0);
                    break;
                }
        wake_due(&r, t);
        uint64_t next;
        if (issue_step(&r, t, &next) > 0) {
            busy_steps++;
            if (t + 1 > end)
                end = t + 1;
        }
        if (r.last_done > end)
            end = r.last_done;
        /* the next step at which anything can happen */
        uint64_t wake = wake_first(&r);
        if (wake < next)
            next = wake;
        if (r.next_block < s->blocks && r.n_free > 0) {
            uint64_t at = r.free_at > r.launch_ok ? r.free_at : r.launch_ok;
            if (at < next)
                next = at;
        }
        if (next <= t)
            next = t + 1;
        if (next == UINT64_MAX)
            break;
        t = next;
    }
    if (end < t)
        end = end > 0 ? end : t;
    /* as the net counts them: its last warp terminates at `end`, the kernel
     * ends in the next step and the marking after it is dead */
    res->steps = end + 2;
    /* never below a lower bound of the plan: a run whose warps left it (control
     * flow it could not follow, doc/dependencies.md) ends there */
    if (res->steps < s->floor)
        res->steps = s->floor;
    res->idle_steps = res->steps > busy_steps ? res->steps - busy_steps : 0;
    res->firings = r.issued + res->idle_steps; /* issues, and t0 in the idle steps */
out:
    io = r;
    pn_sass_run_destroy(&io);
    return st;
}

pn_status_t pn_sass_sim_run(const pn_sass_sim_t *s, uint64_t seed, const pn_run_opts_t *o,
                            pn_run_result_t *res, pn_error_t *err)
{
    return sim_run(s, seed, o, res, NULL, NULL, err);
}

pn_status_t pn_sass_sim_run_ops(const pn_sass_sim_t *s, uint64_t seed, const pn_run_opts_t *o,
                                pn_run_result_t *res, double *issued, double *cycles,
                                pn_error_t *err)
{
    return sim_run(s, seed, o, res, issued, cycles, err);
}

uint32_t pn_sass_sim_n_ops(const pn_sass_sim_t *s)
{
    return s->n_ops;
}

static pn_status_t engine_run(const void *plan, uint64_t seed, const pn_run_opts_t *o,
                              pn_run_result_t *res, pn_error_t *err)
{
    return pn_sass_sim_run(plan, seed, o, res, err);
}

static void engine_free(void *plan)
{
    pn_sass_sim_free(plan);
}

const pn_engine_impl_t pn_sass_engine = { "sass", engine_run, engine_free };

