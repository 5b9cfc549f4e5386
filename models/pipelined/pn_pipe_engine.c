/* pn_pipe_engine.c - the pipelined net compiled: an exact event-driven
 * simulation of the net pn_pipe_build makes (models/pipelined/PIPELINED.md), one state
 * machine per warp, buckets as numbers.
 *
 * Timeline of one instruction of kind k and latency L, acquired at step a:
 *   a        acq_k (resources taken from M_a, in a uniform random order
 *            among the warps whose acquisition is enabled at M_a)
 *   i >= a+1 iss_k: among the warps of a partition holding `go` in M_i, a
 *            uniform random subset of size `issue` issues
 *   i+L-1    r is back (fin_k at i+L-2 for L >= 3) and, for loads, the
 *            inflight token; frame I chose the next kind at a+1, so the
 *            next acquisition is tried at i+L-1
 * The first selection is at step 0, the first acquisition at step 1. A warp
 * with nothing left terminates at the step its r comes back (term), retires
 * at the next (retire, z held), and the run ends one step after the last
 * termination with t_done. t0 fires in the steps whose marking has pw >= 1
 * and no warp holding go or z. Buckets refill by R at step t when
 * cap - level(M_t) >= R. Only steps in which some warp acts are visited;
 * quiet stretches are jumped over with the buckets and t0 counted in closed
 * form. */
#include "pn_pipe_engine.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pn_pipe_plan.h"
#include "pn_rng.h"

/* ---- run state ---------------------------------------------------------------- */

typedef struct warp {
    uint64_t x[PN_PIPE_KINDS];
    uint64_t left;
    uint64_t bud;                      /* instructions left before the next barrier */
    uint64_t barl;                     /* barriers left */
    uint8_t kind;                      /* the kind selected next */
    uint8_t nk;                        /* kinds k with x[k] > 0 */
    uint8_t cr;                        /* the next event brings c and r (start, resume) */
    uint32_t part;
    uint32_t block, idx;
    /* program order: segment, item, instructions of the item done, repeats done */
    uint32_t pj, pi, pm;
    uint64_t pr;
} warp_t;

typedef struct bucket {
    uint64_t level, cap, rate;
} bucket_t;

/* Words of a bit set over the buckets. */
#define LOW_WORDS ((PN_PIPE_SFUP + 2 * PN_PIPE_MAX_PARTITIONS + 63) / 64)

typedef struct run {
    const pn_pipe_plan_t *pl;
    pn_rng_t rng;
    warp_t *w;
    /* calendar of the next RS steps (RS = plan's ring, a power of two):
     * ready[s], wake[s] list the warps whose r comes back / whose parked
     * acquisition may fit at the step s mod RS; lists linked through next[];
     * bits[] marks the slots where either list is non-empty */
    uint32_t *ready, *wake, *next;
    uint64_t *bits;
    uint64_t pending;                  /* warps in either list */
    uint64_t *need;                    /* n_buckets: scratch of the acquisition walk */
    /* the ready warps of other kinds wait in classes (kind, partition): the
     * members of a class take the same amounts from the same buckets, so
     * they fit or not together; cm[c][0 .. cn[c]) (unordered), cact[0 ..
     * n_cact) the classes with members */
    uint32_t **cm, *cn, *ccap, *cact, n_cact;
    uint32_t *en, *rem;                /* scratch: enabled classes, members left to draw */
    /* per bucket, the ready warps of simple kinds waiting for it: q[qoff[b] ..
     * qoff[b] + n_q[b]); active[0..n_active) lists the buckets with waiters */
    uint32_t *q, *qoff, *n_q, *active, n_active;
    uint32_t *acq, n_acq;              /* warps with r and a selection: try to acquire */
    uint32_t *go;                      /* per partition, warps holding go: go[j*W ..] */
    uint32_t *n_go;
    uint32_t go_total;
    uint32_t *fresh, n_fresh;          /* acquired this step: go from the next */
    bucket_t *bk;                      /* n_buckets: lsu, shared, dram, sfu0.. */
    uint64_t bqcost[PN_PIPE_SFUP + 2 * PN_PIPE_MAX_PARTITIONS]; /* per bucket: its pipe's
                                        * queue cost (plan's qcost) */
    uint64_t low[LOW_WORDS];           /* buckets with a rate below their cap: the only
                                        * ones that refill (a bit per bucket) */
    uint64_t inflight;                 /* free inflight tokens (UINT64_MAX: unlimited) */
    uint64_t idle, firings;
    uint32_t *arrived, *ended;         /* per block: warps at the barrier, terminated */
    uint32_t next_block;               /* the first block not started */
    uint64_t turn;                     /* first step at which the next block may start */
    uint64_t term_now;                 /* warps terminating in this step */
} run_t;

/* Put warp w into the list `lists` (ready or wake) at step `time` (> now,
 * < now + ring). O(1). */
static void cal_push(run_t *r, uint32_t *lists, uint64_t time, uint32_t w)
{
    uint64_t slot = time & (r->pl->ring - 1);
    r->next[w] = lists[slot];
    lists[slot] = w;
    r->bits[slot >> 6] |= UINT64_C(1) << (slot & 63);
    r->pending++;
}

/* The first step after `now` with a non-empty slot (pending > 0). O(ring / 64). */
static uint64_t cal_next(const run_t *r, uint64_t now)
{
    const uint64_t mask = r->pl->ring - 1, words = r->pl->ring >> 6;
    uint64_t s = (now + 1) & mask, wi = s >> 6;
    uint64_t word = r->bits[wi] & (~UINT64_C(0) << (s & 63));
    for (uint64_t i = 0; i <= words; i++) {
        if (word) {
            uint64_t slot = (wi << 6) + (uint64_t)__builtin_ctzll(word);
            return now + 1 + ((slot - ((now + 1) & mask)) & mask);
        }
        wi = (wi + 1) % words;
        word = r->bits[wi];
    }
    return UINT64_MAX;
}

/* Frame I: a uniform choice among the kinds the warp has left. */
static void select_kind(run_t *r, warp_t *w)
{
    uint32_t pick = pn_rng_below(&r->rng, w->nk);
    for (int k = 0; k < PN_PIPE_KINDS; k++) {
        if (w->x[k] == 0)
            continue;
        if (pick-- == 0) {
            w->kind = (uint8_t)k;
            if (--w->x[k] == 0)
                w->nk--;
            w->left--;
            w->bud--;
            return;
        }
    }
}

/* The next item kind of warp w's program (PN_KIND_*, PN_PROGRAM_*), or -1
 * at its end; advances its cursor. */
static int prog_next(const pn_pipe_plan_t *pl, warp_t *w)
{
    const uint32_t end = pl->seg_off[w->idx + 1];
    while (w->pj < end) {
        const pn_program_item_t *it = &pl->items[pl->segs[w->pj].first + w->pi];
        if (w->pm < it->mult) {
            w->pm++;
            return it->kind;
        }
        w->pm = 0;
        if (++w->pi == pl->segs[w->pj].n) {
            w->pi = 0;
            if (++w->pr == pl->segs[w->pj].repeat) {
                w->pr = 0;
                w->pj++;
            }
        }
    }
    return -1;
}

/* Frame I in program order: the item's kind; a global load takes one of the
 * levels it has left, uniformly (the three alternatives conflict). */
static void select_item(run_t *r, warp_t *w, int item)
{
    int k;
    switch (item) {
    case PN_KIND_ARITH:         k = PN_PIPE_ARITH; break;
    case PN_KIND_SHARED:        k = PN_PIPE_SHARED_LD; break;
    case PN_PROGRAM_SFU:        k = PN_PIPE_SFU; break;
    case PN_PROGRAM_SHARED_ST:  k = PN_PIPE_SHARED_ST; break;
    case PN_PROGRAM_GLOBAL_ST:  k = PN_PIPE_GLOBAL_ST; break;
    default: {                  /* global: a level with loads left */
        uint32_t m = 0;
        for (int l = PN_PIPE_LD_L1; l <= PN_PIPE_LD_DRAM; l++)
            m += w->x[l] > 0;
        uint32_t pick = m > 1 ? pn_rng_below(&r->rng, m) : 0;
        for (k = PN_PIPE_LD_L1; k < PN_PIPE_LD_DRAM; k++)
            if (w->x[k] > 0 && pick-- == 0)
                break;
    }
    }
    assert(w->x[k] > 0);
    w->kind = (uint8_t)k;
    if (--w->x[k] == 0)
        w->nk--;
    w->left--;
}

/* Index of the bucket of pipe q for a warp on partition part. */
static uint32_t bucket_index_of(const pn_pipe_plan_t *pl, int q, uint32_t part)
{
    return q == PN_PIPE_SFUP ? PN_PIPE_SFUP + part
           : q == PN_PIPE_ALUP ? PN_PIPE_SFUP + pl->p.partitions + part : (uint32_t)q;
}
#define bucket_index(q, part) bucket_index_of(pl, (q), (part))

/* Bucket i was taken from: mark it low when below its cap. */
static void bk_mark(run_t *r, uint32_t i)
{
    const bucket_t *b = &r->bk[i];
    if (b->rate && b->level < b->cap)
        r->low[i >> 6] |= UINT64_C(1) << (i & 63);
}

/* Bucket i refilled: unmark it when full. */
static void bk_unmark_full(run_t *r, uint32_t i)
{
    if (r->bk[i].level == r->bk[i].cap)
        r->low[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

/* Can warp w's acquisition take its resources from the levels now? */
static int fits(const run_t *r, const warp_t *w)
{
    const pn_pipe_plan_t *pl = r->pl;
    for (uint32_t i = 0; i < pl->n_cost[w->kind]; i++)
        if (r->bk[bucket_index(pl->cost_pipe[w->kind][i], w->part)].level < pl->cost[w->kind][i])
            return 0;
    return !(pn_pipe_is_load(w->kind) && r->inflight == 0);
}

static void take(run_t *r, const warp_t *w)
{
    const pn_pipe_plan_t *pl = r->pl;
    for (uint32_t i = 0; i < pl->n_cost[w->kind]; i++) {
        uint32_t bi = bucket_index(pl->cost_pipe[w->kind][i], w->part);
        bucket_t *b = &r->bk[bi];
        assert(b->level >= pl->cost[w->kind][i]);
        b->level -= pl->cost[w->kind][i];
        bk_mark(r, bi);
    }
    if (pn_pipe_is_load(w->kind) && r->inflight != UINT64_MAX) {
        assert(r->inflight > 0);
        r->inflight--;
    }
}

/* Steps from the marking in which the buckets hold their current levels until
 * warp w's acquisition fits, counting refills only; UINT64_MAX when it waits
 * for an inflight token (an event brings it). */
static uint64_t wait_for(const run_t *r, const warp_t *w)
{
    const pn_pipe_plan_t *pl = r->pl;
    if (pn_pipe_is_load(w->kind) && r->inflight == 0)
        return UINT64_MAX;
    uint64_t m = 0;
    for (uint32_t i = 0; i < pl->n_cost[w->kind]; i++) {
        uint32_t c = pl->cost[w->kind][i];
        const bucket_t *b = &r->bk[bucket_index(pl->cost_pipe[w->kind][i], w->part)];
        if (b->level < c) {
            uint64_t need = (c - b->level + b->rate - 1) / b->rate;
            if (need > m)
                m = need;
        }
    }
    return m;
}

/* Advance every bucket over n steps in which nothing is taken. */
static void refill_quiet(run_t *r, uint64_t n)
{
    for (uint32_t wd = 0; wd < LOW_WORDS; wd++)
        for (uint64_t bits = r->low[wd]; bits; bits &= bits - 1) {
            uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(bits);
            bucket_t *b = &r->bk[i];
            if (b->cap - b->level < b->rate)
                continue;
            uint64_t k = (b->cap - b->level) / b->rate;
            if (k > n)
                k = n;
            b->level += k * b->rate;
            r->firings += k;
            bk_unmark_full(r, i);
        }
}

/* The acquisitions of one step, from the marking's levels. */
/* Warp wi (of a simple kind) waits in its pipe's queue. */
static void queue_push(run_t *r, uint32_t wi)
{
    const pn_pipe_plan_t *pl = r->pl;
    const warp_t *w = &r->w[wi];
    uint32_t b = bucket_index(pl->cost_pipe[w->kind][0], w->part);
    if (r->n_q[b]++ == 0)
        r->active[r->n_active++] = b;
    r->q[r->qoff[b] + r->n_q[b] - 1] = wi;
}

/* The acquisitions of the queued warps: a bucket that holds k of its cost
 * lets k of its waiters acquire, a uniform random subset (the first k of the
 * uniform random order of the step's walk; no other transition takes from
 * the bucket). Losers wait on in the queue. */
static void acquire_queued(run_t *r)
{
    for (uint32_t a = 0; a < r->n_active;) {
        uint32_t b = r->active[a], n = r->n_q[b];
        uint64_t cost = r->bqcost[b], lvl = r->bk[b].level;
        uint32_t *g = &r->q[r->qoff[b]];
        if (n == 1) {                   /* one waiter: it acquires when the bucket holds one */
            if (lvl < cost) {
                a++;
                continue;
            }
            r->fresh[r->n_fresh++] = g[0];
            r->bk[b].level -= cost;
            bk_mark(r, b);
            r->n_q[b] = 0;
            r->active[a] = r->active[--r->n_active];
            continue;
        }
        uint64_t k = lvl < cost ? 0 : lvl < 2 * cost ? 1 : lvl / cost;
        if (k > n)
            k = n;
        if (k < n)
            for (uint32_t i = 0; i < k; i++) {
                uint32_t j = i + pn_rng_below(&r->rng, n - i), tmp = g[i];
                g[i] = g[j];
                g[j] = tmp;
            }
        for (uint32_t i = 0; i < k; i++)
            r->fresh[r->n_fresh++] = g[i];
        r->bk[b].level -= k * cost;
        bk_mark(r, b);
        if (k && k < n)
            memmove(g, g + k, (size_t)(n - k) * sizeof *g);
        r->n_q[b] = n - (uint32_t)k;
        if (r->n_q[b] == 0)
            r->active[a] = r->active[--r->n_active];
        else
            a++;
    }
}

/* Steps after the marking of the buckets' current levels until some queue's
 * bucket holds its cost (refills alone); UINT64_MAX without queues. */
static uint64_t queue_wait(const run_t *r)
{
    uint64_t best = UINT64_MAX;
    for (uint32_t a = 0; a < r->n_active; a++) {
        uint32_t b = r->active[a];
        const bucket_t *bk = &r->bk[b];
        uint64_t m = bk->level >= r->bqcost[b] ? 0
                     : (r->bqcost[b] - bk->level + bk->rate - 1) / bk->rate;
        if (m < best)
            best = m;
    }
    return best;
}

/* The class of warp w: its kind on its partition. */
static uint32_t class_of(const run_t *r, const warp_t *w)
{
    return (uint32_t)w->kind * r->pl->p.partitions + w->part;
}

/* Warp wi (of a kind that is not simple) waits in its class. 0, or -1 when
 * out of memory. */
static int class_push(run_t *r, uint32_t wi)
{
    uint32_t c = class_of(r, &r->w[wi]);
    if (r->cn[c] == r->ccap[c]) {
        uint32_t cap = r->ccap[c] ? 2 * r->ccap[c] : 16;
        uint32_t *m = realloc(r->cm[c], (size_t)cap * sizeof *m);
        if (!m)
            return -1;
        r->cm[c] = m;
        r->ccap[c] = cap;
    }
    if (r->cn[c] == 0)
        r->cact[r->n_cact++] = c;
    r->cm[c][r->cn[c]++] = wi;
    return 0;
}

/* Warp j of class c acquires: take its resources, go from the next step. */
static void class_take(run_t *r, uint32_t c, uint32_t j)
{
    uint32_t wi = r->cm[c][j];
    take(r, &r->w[wi]);
    r->fresh[r->n_fresh++] = wi;
    r->cm[c][j] = r->cm[c][--r->cn[c]];
}

/* Steps after the marking of the buckets' current levels until some class's
 * members fit (refills alone); UINT64_MAX when none waits or every class
 * waits for an inflight token (its return is an event). */
static uint64_t class_wait(const run_t *r)
{
    uint64_t best = UINT64_MAX;
    for (uint32_t a = 0; a < r->n_cact; a++) {
        uint32_t c = r->cact[a];
        uint64_t m = wait_for(r, &r->w[r->cm[c][0]]);
        if (m < best)
            best = m;
    }
    return best;
}

/* The acquisitions of one step, from the marking's levels. Simple kinds wait
 * in their pipe's queue (acquire_queued); the others in their class. The net
 * fires the enabled acquisitions in a uniform random order, each that still
 * fits: drawn here one at a time, a class with the weight of its members
 * left and a uniform member of it; when a member does not fit, none of its
 * class will in this step (takes only lower the levels), so the class
 * leaves the draw, which changes no other outcome's probability. When all
 * enabled ones fit together, all acquire. O(classes + acquisitions). */
static int acquire(run_t *r)
{
    const pn_pipe_plan_t *pl = r->pl;
    for (uint32_t i = 0; i < r->n_acq; i++) {
        uint32_t wi = r->acq[i];
        if (pl->simple[r->w[wi].kind])
            queue_push(r, wi);
        else if (class_push(r, wi) != 0)
            return -1;
    }
    r->n_acq = 0;
    acquire_queued(r);
    uint32_t ne = 0;
    uint64_t N = 0;
    for (uint32_t a = 0; a < r->n_cact; a++) {
        uint32_t c = r->cact[a];
        if (fits(r, &r->w[r->cm[c][0]])) {
            r->en[ne++] = c;
            N += r->cn[c];
        }
    }
    if (ne == 0)
        return 0;
    int all_fit = 1;
    if (N > 1) {
        uint64_t *need = r->need, loads = 0;
        memset(need, 0, pl->n_buckets * sizeof *need);
        for (uint32_t e = 0; e < ne; e++) {
            uint32_t c = r->en[e];
            const warp_t *w = &r->w[r->cm[c][0]];
            for (uint32_t k = 0; k < pl->n_cost[w->kind]; k++)
                need[bucket_index(pl->cost_pipe[w->kind][k], w->part)] +=
                    (uint64_t)pl->cost[w->kind][k] * r->cn[c];
            loads += pn_pipe_is_load(w->kind) ? r->cn[c] : 0;
        }
        for (uint32_t i = 0; i < pl->n_buckets && all_fit; i++)
            all_fit = need[i] <= r->bk[i].level;
        if (r->inflight != UINT64_MAX && loads > r->inflight)
            all_fit = 0;
    }
    if (all_fit) {
        for (uint32_t e = 0; e < ne; e++)
            while (r->cn[r->en[e]])
                class_take(r, r->en[e], r->cn[r->en[e]] - 1);
    } else {
        for (uint32_t e = 0; e < ne; e++)
            r->rem[e] = r->cn[r->en[e]];
        while (N > 0) {
            uint64_t u = pn_rng_below(&r->rng, (uint32_t)N);   /* N <= warps < 2^31 */
            uint32_t e = 0;
            while (u >= r->rem[e])
                u -= r->rem[e++];
            uint32_t c = r->en[e];
            if (fits(r, &r->w[r->cm[c][0]])) {
                class_take(r, c, (uint32_t)u);
                r->rem[e]--;
                N--;
            } else {
                N -= r->rem[e];
                r->rem[e] = 0;
            }
        }
    }
    for (uint32_t a = 0; a < r->n_cact;)
        if (r->cn[r->cact[a]] == 0)
            r->cact[a] = r->cact[--r->n_cact];
        else
            a++;
    return 0;
}

/* The issues of one step at time t: per partition, a uniform subset of the
 * warps holding go, as large as the issue width. */
static void issue(run_t *r, uint64_t t)
{
    const pn_pipe_params_t *p = &r->pl->p;
    if (r->go_total == 0)
        return;
    for (uint32_t j = 0; j < p->partitions; j++) {
        uint32_t n = r->n_go[j];
        if (n == 0)
            continue;
        uint32_t *g = &r->go[(size_t)j * r->pl->total];
        uint32_t m = n < p->issue ? n : p->issue;
        if (m < n)
            for (uint32_t i = 0; i < m; i++) {
                uint32_t s = i + pn_rng_below(&r->rng, n - i);
                uint32_t tmp = g[i];
                g[i] = g[s];
                g[s] = tmp;
            }
        for (uint32_t i = 0; i < m; i++) {
            const warp_t *w = &r->w[g[i]];
            uint32_t L = p->latency[w->kind];
            cal_push(r, r->ready, t + L - 1, g[i]);
            r->firings += (uint64_t)L + 1;   /* sel, acq, iss, ticks, fin */
        }
        if (m < n)
            memmove(g, g + m, (size_t)(n - m) * sizeof *g);
        r->n_go[j] = n - m;
        r->go_total -= m;
    }
}

static void run_free(run_t *r)
{
    free(r->w);
    free(r->ready);
    free(r->next);
    free(r->bits);
    free(r->acq);
    free(r->wake);
    for (uint32_t c = 0; r->cm && c < (uint32_t)PN_PIPE_KINDS * r->pl->p.partitions; c++)
        free(r->cm[c]);
    free(r->cm);
    free(r->cn);
    free(r->ccap);
    free(r->cact);
    free(r->en);
    free(r->rem);
    free(r->need);
    free(r->q);
    free(r->qoff);
    free(r->n_q);
    free(r->active);
    free(r->go);
    free(r->n_go);
    free(r->fresh);
    free(r->bk);
    free(r->arrived);
    free(r->ended);
}

/* The warps of block b take their counts. */
static void init_block(run_t *r, uint32_t b)
{
    const pn_pipe_plan_t *pl = r->pl;
    const pn_pipe_params_t *p = &pl->p;
    for (uint32_t i = 0; i < p->n_warps; i++) {
        warp_t *w = &r->w[(size_t)b * p->n_warps + i];
        const size_t ci = pl->per_block ? (size_t)b * p->n_warps + i : i;
        memcpy(w->x, pl->warps[ci].n, sizeof w->x);
        w->left = 0;
        w->nk = 0;
        for (int k = 0; k < PN_PIPE_KINDS; k++) {
            w->left += w->x[k];
            w->nk += w->x[k] > 0;
        }
        w->part = i % p->partitions;
        w->block = b;
        w->idx = i;
        w->bud = p->barriers ? pl->phase[ci] : UINT64_MAX;
        w->barl = p->barriers;
        w->cr = 1;
        if (pl->seg_off) {
            w->pj = pl->seg_off[i];
            w->pi = w->pm = 0;
            w->pr = 0;
        }
    }
}

static void on_event(run_t *r, uint32_t wi, uint64_t t);

/* Warp w arrives at its block's barrier at step t; the last arrival
 * releases the block: its warps get c and r back at t + L_bar - 2. */
static void arrive(run_t *r, warp_t *w, uint64_t t)
{
    const pn_pipe_plan_t *pl = r->pl;
    const pn_pipe_params_t *p = &pl->p;
    if (!pl->seg_off)
        w->barl--;                     /* a program's sync items count themselves */
    r->firings++;
    if (++r->arrived[w->block] < p->n_warps)
        return;
    r->arrived[w->block] = 0;
    uint32_t Lb = p->barrier_latency;
    r->firings += 1 + (Lb > 5 ? Lb - 5 : 0) + p->n_warps;   /* release, ticks, fin, resumes */
    for (uint32_t i = 0; i < p->n_warps; i++) {
        uint32_t wi = w->block * p->n_warps + i;
        warp_t *v = &r->w[wi];
        const size_t ci = pl->per_block ? wi : i;
        v->bud = pl->seg_off ? UINT64_MAX : v->barl ? pl->phase[ci] : pl->last[ci];
        v->cr = 1;
        cal_push(r, r->ready, t + Lb - 2, wi);
    }
}

/* Warp w terminates at step t; the block's last one frees its slot at t + 2,
 * where the next block starts (blocks start in order, one per step). */
static void terminate(run_t *r, warp_t *w, uint64_t t)
{
    const pn_pipe_plan_t *pl = r->pl;
    const uint32_t W = pl->p.n_warps;
    r->term_now++;
    if (pl->blocks <= pl->resident || ++r->ended[w->block] < W)
        return;
    r->firings++;                                  /* end_b at t + 1 */
    if (r->next_block >= pl->blocks)
        return;
    uint64_t v = t + 2 > r->turn ? t + 2 : r->turn;
    const uint64_t G = pl->p.block_launch ? pl->p.block_launch : 1;
    r->turn = v + G;
    r->firings++;                                  /* start at v */
    uint32_t b = r->next_block++;
    if (G > 1 && r->next_block < pl->blocks)
        r->firings += G - 1;                       /* countdown ticks, launched */
    init_block(r, b);
    for (uint32_t i = 0; i < W; i++)
        cal_push(r, r->ready, v + 1, b * W + i);
}

/* Warp wi's r is marked at step t (with c, when w->cr). */
static void on_event(run_t *r, uint32_t wi, uint64_t t)
{
    warp_t *w = &r->w[wi];
    int cr = w->cr;
    w->cr = 0;
    if (!cr && pn_pipe_is_load(w->kind) && r->inflight != UINT64_MAX)
        r->inflight++;                      /* the classes waiting for it look again */
    if (r->pl->seg_off) {
        int item = prog_next(r->pl, w);
        if (item < 0) {
            terminate(r, w, t);
        } else if (item == PN_PROGRAM_SYNC) {
            arrive(r, w, t);
        } else {
            select_item(r, w, item);
            if (cr)
                cal_push(r, r->wake, t + 1, wi);
            else
                r->acq[r->n_acq++] = wi;
        }
        return;
    }
    if (w->left && w->bud) {
        select_kind(r, w);
        if (cr)
            cal_push(r, r->wake, t + 1, wi);     /* selected now, acquires next step */
        else
            r->acq[r->n_acq++] = wi;             /* selected earlier, acquires now */
    } else if (w->barl) {
        arrive(r, w, t);
    } else {
        terminate(r, w, t);
    }
}

pn_status_t pn_pipe_run(const pn_pipe_plan_t *pl, uint64_t seed, const pn_run_opts_t *o,
                        pn_run_result_t *res, pn_error_t *err)
{
    const uint64_t max_steps = o->max_steps;
    const pn_pipe_params_t *p = &pl->p;
    const uint32_t T = (uint32_t)pl->total;
    run_t r = { .pl = pl };
    r.w = calloc(T, sizeof *r.w);
    r.ready = malloc(pl->ring * sizeof *r.ready);
    r.next = malloc((size_t)T * sizeof *r.next);
    r.bits = calloc(pl->ring / 64, sizeof *r.bits);
    r.acq = malloc((size_t)T * sizeof *r.acq);
    r.wake = malloc(pl->ring * sizeof *r.wake);
    const uint32_t n_cls = (uint32_t)PN_PIPE_KINDS * p->partitions;
    r.cm = calloc(n_cls, sizeof *r.cm);
    r.cn = calloc(n_cls, sizeof *r.cn);
    r.ccap = calloc(n_cls, sizeof *r.ccap);
    r.cact = malloc(n_cls * sizeof *r.cact);
    r.en = malloc(n_cls * sizeof *r.en);
    r.rem = malloc(n_cls * sizeof *r.rem);
    r.need = malloc((size_t)pl->n_buckets * sizeof *r.need);
    r.go = malloc((size_t)T * p->partitions * sizeof *r.go);
    r.n_go = calloc(p->partitions, sizeof *r.n_go);
    r.fresh = malloc((size_t)T * sizeof *r.fresh);
    r.bk = calloc(pl->n_buckets, sizeof *r.bk);
    r.arrived = calloc(pl->blocks, sizeof *r.arrived);
    r.qoff = calloc(pl->n_buckets, sizeof *r.qoff);
    r.n_q = calloc(pl->n_buckets, sizeof *r.n_q);
    r.active = calloc(pl->n_buckets, sizeof *r.active);
    r.q = malloc(((size_t)T * 3 + 1) * sizeof *r.q);
    r.ended = calloc(pl->blocks, sizeof *r.ended);
    if (!r.w || !r.ready || !r.next || !r.bits || !r.acq || !r.go || !r.n_go || !r.fresh ||
        !r.bk || !r.wake || !r.cm || !r.cn || !r.ccap || !r.cact || !r.en || !r.rem ||
        !r.need || !r.arrived || !r.ended ||
        !r.qoff || !r.n_q || !r.active || !r.q) {
        run_free(&r);
        return pn_error_set(err, PN_ENOMEM, "out of memory for a pipelined run");
    }
    pn_rng_seed(&r.rng, seed);
    memset(r.ready, 0xff, pl->ring * sizeof *r.ready);
    memset(r.wake, 0xff, pl->ring * sizeof *r.wake);
    for (uint32_t i = 0; i < pl->n_buckets; i++) {
        int q = i < PN_PIPE_SFUP ? (int)i
                : i < PN_PIPE_SFUP + p->partitions ? PN_PIPE_SFUP : PN_PIPE_ALUP;
        r.bk[i] = (bucket_t){ pl->cap[q], pl->cap[q], p->rate[q] };
        r.bqcost[i] = pl->qcost[q];
    }
    r.inflight = p->inflight && !pl->inflight_free ? p->inflight : UINT64_MAX;
    {
        /* queue segments: the shared pipe may hold every warp, a partition's
         * pipes the warps of that partition */
        uint32_t off = 0;
        for (uint32_t b = 0; b < pl->n_buckets; b++) {
            r.qoff[b] = off;
            if (b == PN_PIPE_SHMEM)
                off += T;
            else if (b >= PN_PIPE_SFUP) {
                uint32_t j = (b - PN_PIPE_SFUP) % p->partitions;
                off += (T / (uint32_t)pl->blocks) / p->partitions * pl->blocks +
                       ((T / (uint32_t)pl->blocks) % p->partitions > j ? pl->blocks : 0);
            }
        }
        assert(off <= (size_t)T * 3 + 1);
    }

    /* step 0: the resident blocks' warps select (acquire from step 1),
     * arrive at a barrier or terminate */
    uint64_t pw = T, pfin = 0, z_now = 0;
    r.next_block = pl->blocks < pl->resident ? pl->blocks : pl->resident;
    for (uint32_t b = 0; b < r.next_block; b++)
        init_block(&r, b);
    for (uint32_t wi = 0; wi < r.next_block * p->n_warps; wi++)
        on_event(&r, wi, 0);
    r.idle = 1;                        /* t0 at step 0 */
    r.firings += 1 + r.term_now;
    uint64_t t = 0;
    pn_status_t st = PN_OK;
    for (uint32_t iter = 1;; iter++) {
        if ((iter & (PN_ENGINE_STOP_EVERY - 1)) == 0 && pn_engine_poll(o, t)) {
            st = pn_engine_stop_error(err);
            break;
        }
        /* end of step t: retire, terminate, fresh acquisitions */
        pw -= z_now;
        r.firings += z_now;
        if (pfin == T) {               /* t_done fired at t: M_{t+1} is dead */
            r.firings++;
            break;
        }
        pfin += r.term_now;
        z_now = r.term_now;
        r.term_now = 0;
        for (uint32_t i = 0; i < r.n_fresh; i++) {
            uint32_t wi = r.fresh[i], j = r.w[wi].part;
            r.go[(size_t)j * T + r.n_go[j]++] = wi;
        }
        r.go_total += r.n_fresh;
        r.n_fresh = 0;

        /* next step in which something happens */
        uint64_t next = t + 1;
        if (r.go_total == 0 && z_now == 0 && pfin != T) {
            next = r.pending ? cal_next(&r, t) : UINT64_MAX;
            uint64_t qw = queue_wait(&r), cw = class_wait(&r);
            if (qw != UINT64_MAX && t + 1 + qw < next)
                next = t + 1 + qw;
            if (cw != UINT64_MAX && t + 1 + cw < next)
                next = t + 1 + cw;
            if (next == UINT64_MAX) {
                st = pn_error_set(err, PN_EINVAL, "pipelined run (seed %" PRIu64 ") is stuck "
                                  "at step %" PRIu64 ": no warp can go on", seed, t);
                break;
            }
        }
        if (next >= max_steps) {
            st = pn_engine_limit_error(o, seed, err);
            t = max_steps - 1;
            break;
        }
        /* steps t+1 .. next-1: quiet; M_{t+1} is where the buckets stand */
        if (next > t + 1) {
            uint64_t gap = next - t - 1;
            if (pw >= 1)
                r.idle += gap, r.firings += gap;
            refill_quiet(&r, gap);
        }
        t = next;

        /* step t, from M_t */
        const uint64_t slot = t & (pl->ring - 1);
        for (uint32_t wi = r.wake[slot]; wi != UINT32_MAX; wi = r.next[wi]) {
            r.acq[r.n_acq++] = wi;
            r.pending--;
        }
        uint32_t first = r.ready[slot];
        r.wake[slot] = r.ready[slot] = UINT32_MAX;
        r.bits[slot >> 6] &= ~(UINT64_C(1) << (slot & 63));
        for (uint32_t wi = first, nx; wi != UINT32_MAX; wi = nx) {
            nx = r.next[wi];
            r.pending--;
            on_event(&r, wi, t);
        }
        r.firings += r.term_now;
        if (pw >= 1 && r.go_total == 0 && z_now == 0)
            r.idle++, r.firings++;
        /* refills decided on M_t, applied after the step's takings */
        uint32_t refill[PN_PIPE_SFUP + 2 * PN_PIPE_MAX_PARTITIONS], n_refill = 0;
        for (uint32_t wd = 0; wd < LOW_WORDS; wd++)
            for (uint64_t bits = r.low[wd]; bits; bits &= bits - 1) {
                uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(bits);
                if (r.bk[i].cap - r.bk[i].level >= r.bk[i].rate)
                    refill[n_refill++] = i;
            }
        issue(&r, t);
        if (acquire(&r) != 0) {
            st = pn_error_set(err, PN_ENOMEM, "out of memory for a pipelined run");
            break;
        }
        for (uint32_t k = 0; k < n_refill; k++) {
            bucket_t *b = &r.bk[refill[k]];
            b->level += b->rate;
            r.firings++;
            assert(b->level <= b->cap);
            bk_unmark_full(&r, refill[k]);
        }
    }
    res->seed = seed;
    res->steps = t + 1;
    res->idle_steps = r.idle;
    res->firings = r.firings;
    run_free(&r);
    return st;
}

static pn_status_t pipe_run(const void *plan, uint64_t seed, const pn_run_opts_t *o,
                            pn_run_result_t *res, pn_error_t *err)
{
    return pn_pipe_run(plan, seed, o, res, err);
}

static void pipe_plan_free(void *plan)
{
    pn_pipe_plan_free(plan);
}

const pn_engine_impl_t pn_pipe_engine = { "sm", pipe_run, pipe_plan_free };

static pn_status_t pipe_plan_of(const void *params, void **plan, pn_error_t *err)
{
    pn_pipe_plan_t *pl = NULL;
    pn_status_t st = pn_pipe_plan_new(params, &pl, err);
    *plan = pl;
    return st;
}

const pn_model_engine_t pn_pipe_model_engine = {
    "the pipelined net", &pn_pipe_engine, pipe_plan_of
};

/* program order: the same engine, each selection the program's next item */
const pn_model_engine_t pn_pipe_program_engine = {
    "the pipelined net of a program", &pn_pipe_engine, pipe_plan_of
};

pn_status_t pn_pipe_engine_prepare(pn_prepared_t *prep, pn_engine_kind_t kind,
                                   const pn_pipe_params_t *p, const pn_net_t *net,
                                   const pn_run_opts_t *o, pn_error_t *err)
{
    return pn_model_engine_prepare(prep, kind, p->programs ? &pn_pipe_program_engine
                                                           : &pn_pipe_model_engine,
                                   p, net, o, err);
}
