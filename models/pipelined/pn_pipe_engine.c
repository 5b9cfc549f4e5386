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
 * cap - level(M_t) >= R, lazily (pn_pipe_bucket.h: a step costs nothing for
 * the buckets it does not take from). Only steps in which some warp acts are
 * visited; quiet stretches are jumped over with t0 counted in closed form.
 * The go warps of step t+1 are known at the end of step t (those
 * acquiring at t+1 hold go from t+2), so its issues are drawn then and t+1
 * is visited only when something else happens in it. */
#include "pn_pipe_engine.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pn_pipe_bucket.h"
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
    uint8_t km;                        /* those kinds, a bit each */
    uint8_t cr;                        /* the next event brings c and r (start, resume) */
    uint32_t part;
    uint32_t block, idx;
    /* program order: segment, item, instructions of the item done, repeats done */
    uint32_t pj, pi, pm;
    uint64_t pr;
} warp_t;

/* A group's waiting warps. */
typedef struct gstate {
    uint32_t *m;                       /* room for every warp resident at once */
    uint32_t n;
    uint64_t at;
} gstate_t;

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
    /* the warps waiting to acquire wait in their group (plan's groups):
     * gs[g].m[0 .. gs[g].n) (unordered); gact[0 .. n_gact) the groups with
     * members; gs[g].at: no member of g fits before that step (a lower
     * bound, exact when set: takes only lower the levels) */
    gstate_t *gs;
    uint32_t *gpool;                   /* the groups' members */
    uint32_t *gact, n_gact;
    int emptied;                       /* a group lost its last member this step */
    uint32_t *en;                      /* scratch: enabled groups */
    uint32_t *go;                      /* per partition, warps holding go: go[j*W ..] */
    uint32_t *n_go;
    uint64_t go_parts;                 /* partitions with go warps (a bit each) */
    uint32_t go_total;
    pn_pipe_bucket_t *bk;              /* n_buckets: lsu, shared, dram, sfu0.., alu0.. */
    uint64_t inflight;                 /* free inflight tokens (UINT64_MAX: unlimited) */
    uint64_t firings;                  /* but t0's: the idle steps, added at the end */
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

/* Position of the i-th set bit (i < 4) of a 4-bit mask, and its set bits. */
static const uint8_t nib_bit[16][4] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
    {1, 2, 0, 0}, {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
    {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}
};
static const uint8_t nib_pop[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };

/* Warp w takes one instruction of kind k. */
static void take_kind(warp_t *w, int k)
{
    w->kind = (uint8_t)k;
    if (--w->x[k] == 0) {
        w->nk--;
        w->km &= (uint8_t)~(1u << k);
    }
    w->left--;
}

/* Frame I: a uniform choice among the kinds the warp has left (the pick-th
 * of them in kind order). */
static void select_kind(run_t *r, warp_t *w)
{
    uint32_t pick = pn_rng_below(&r->rng, w->nk);
    uint32_t lo = w->km & 15u, c = nib_pop[lo];
    uint32_t hi = -(uint32_t)(pick >= c);         /* all ones: the upper nibble */
    uint32_t nib = lo ^ ((lo ^ ((uint32_t)w->km >> 4)) & hi);
    take_kind(w, (int)(nib_bit[nib][pick - (c & hi)] + (4 & hi)));
    w->bud--;
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
    take_kind(w, k);
}

/* a / b, in 32 bits when both fit (a faster division). */
static inline uint64_t div_fast(uint64_t a, uint64_t b)
{
    return (a | b) >> 32 ? a / b : (uint32_t)a / (uint32_t)b;
}

/* Can an acquisition of group g take its resources from the levels within
 * step t? */
static int fits(const run_t *r, const pn_pipe_group_t *g, uint64_t t)
{
    for (uint32_t i = 0; i < g->nb; i++)
        if (pn_pipe_bucket_now(&r->bk[g->b[i]], t) < g->c[i])
            return 0;
    return !(g->load && r->inflight == 0);
}

/* How many acquisitions of group g (alone on its buckets) fit together in
 * step t, at most n (n < 2^31). */
static uint64_t fit_count(const run_t *r, const pn_pipe_group_t *g, uint64_t t, uint64_t n)
{
    uint64_t k = n;
    for (uint32_t i = 0; i < g->nb; i++) {
        uint64_t l = pn_pipe_bucket_now(&r->bk[g->b[i]], t), c = g->c[i];
        if (l < c)
            return 0;
        if (l < k * c)                  /* floor(l / c) < k; mostly no division */
            k = l < 2 * c ? 1 : div_fast(l, c);
    }
    return k;
}

/* Steps from M_{t+1} until an acquisition of group g fits, counting refills
 * only; UINT64_MAX when it waits for an inflight token (an event brings it). */
static uint64_t wait_for(const run_t *r, const pn_pipe_group_t *g, uint64_t t)
{
    if (g->load && r->inflight == 0)
        return UINT64_MAX;
    uint64_t m = 0;
    for (uint32_t i = 0; i < g->nb; i++) {
        const pn_pipe_bucket_t *b = &r->bk[g->b[i]];
        uint64_t level = pn_pipe_bucket_next(b, t);
        if (level < g->c[i]) {
            uint64_t d = g->c[i] - level;
            uint64_t need = d <= b->rate ? 1 : pn_pipe_bucket_div(b, d + b->rate - 1);
            if (need > m)
                m = need;
        }
    }
    return m;
}

/* Warp wi waits in the group of its kind and partition from step t (a
 * group holds at most the warps resident at once). O(1). */
static void group_push(run_t *r, uint32_t wi, uint64_t t)
{
    const warp_t *w = &r->w[wi];
    uint32_t g = r->pl->gid[w->kind][w->part];
    gstate_t *s = &r->gs[g];
    if (s->n == 0) {
        r->gact[r->n_gact++] = g;
        s->at = t;                      /* a group's bound holds while it has members */
    }
    s->m[s->n++] = wi;
}

/* Warp wi acquired: it holds go from the next step, after its partition's
 * go warps. */
static void go_push(run_t *r, uint32_t wi)
{
    uint32_t j = r->w[wi].part;
    r->go[(size_t)j * r->pl->total + r->n_go[j]++] = wi;
    r->go_parts |= UINT64_C(1) << j;
    r->go_total++;
}

/* Member j of group g acquires in step t: take its resources, go from the
 * next step. */
static void group_take(run_t *r, uint32_t g, uint32_t j, uint64_t t)
{
    const pn_pipe_group_t *gr = &r->pl->groups[g];
    for (uint32_t i = 0; i < gr->nb; i++)
        pn_pipe_bucket_take(&r->bk[gr->b[i]], t, gr->c[i], &r->firings);
    if (gr->load && r->inflight != UINT64_MAX) {
        assert(r->inflight > 0);
        r->inflight--;
    }
    go_push(r, r->gs[g].m[j]);
    r->gs[g].m[j] = r->gs[g].m[--r->gs[g].n];
    r->emptied |= r->gs[g].n == 0;
}

/* Every member of group g (alone on its buckets, all fitting) acquires in
 * step t, the last first (as group_take one at a time). */
static void group_take_all(run_t *r, uint32_t g, uint64_t t)
{
    const pn_pipe_group_t *gr = &r->pl->groups[g];
    gstate_t *s = &r->gs[g];
    for (uint32_t i = 0; i < gr->nb; i++)
        pn_pipe_bucket_take(&r->bk[gr->b[i]], t, (uint64_t)gr->c[i] * s->n, &r->firings);
    assert(!gr->load);
    for (uint32_t j = s->n; j-- > 0;)
        go_push(r, s->m[j]);
    s->n = 0;
    r->emptied = 1;
}

/* An inflight token came back: the groups that wait for one look again at t. */
static void inflight_back(run_t *r, uint64_t t)
{
    for (uint32_t a = 0; a < r->n_gact; a++) {
        uint32_t g = r->gact[a];
        if (r->pl->groups[g].load && r->gs[g].at > t)
            r->gs[g].at = t;
    }
}

/* The acquisitions of step t, from the marking's levels (the warps that may
 * acquire in it are in their groups: group_push). The net fires the
 * enabled acquisitions in a uniform random order, each that still fits.
 * Only groups whose bound is reached are looked at (takes only lower
 * the levels, so a bound stays one); a group alone on its buckets that
 * holds k of its cost lets a uniform k-subset of its members acquire; the
 * others are drawn one at a time, a uniform member among the groups that
 * still fit (a group that no longer fits leaves the draw: all its members
 * would fail, which changes no other outcome's probability). Groups left
 * waiting keep a bound <= t until group_next sets it.
 * O(groups with members + acquisitions x enabled groups). */
static void acquire(run_t *r, uint64_t t)
{
    const pn_pipe_plan_t *pl = r->pl;
    uint32_t ne = 0;
    uint64_t N = 0;
    for (uint32_t a = 0; a < r->n_gact; a++) {
        uint32_t g = r->gact[a];
        if (r->gs[g].at > t)
            continue;
        const pn_pipe_group_t *gr = &pl->groups[g];
        if (gr->alone) {                /* no inflight token: fits iff k > 0 */
            uint32_t n = r->gs[g].n;
            uint64_t k = fit_count(r, gr, t, n);
            if (k == 0) {
                continue;               /* left waiting: bound in group_next */
            } else if (k >= n) {
                group_take_all(r, g, t);
            } else {
                for (uint64_t i = 0; i < k; i++)
                    group_take(r, g, pn_rng_below(&r->rng, r->gs[g].n), t);
            }
        } else if (fits(r, gr, t)) {
            r->en[ne++] = g;
            N += r->gs[g].n;
        }
    }
    if (ne > 0) {
        int all_fit = 1;
        if (N > 1) {
            uint64_t *need = r->need, loads = 0;  /* need: zero but in this block */
            uint32_t used[PN_PIPE_SFUP + 2 * PN_PIPE_MAX_PARTITIONS], nu = 0;
            for (uint32_t e = 0; e < ne; e++) {
                const pn_pipe_group_t *gr = &pl->groups[r->en[e]];
                for (uint32_t i = 0; i < gr->nb; i++) {
                    if (need[gr->b[i]] == 0)
                        used[nu++] = gr->b[i];
                    need[gr->b[i]] += (uint64_t)gr->c[i] * r->gs[r->en[e]].n;
                }
                loads += gr->load ? r->gs[r->en[e]].n : 0;
            }
            for (uint32_t i = 0; i < nu; i++) {
                all_fit &= need[used[i]] <= pn_pipe_bucket_now(&r->bk[used[i]], t);
                need[used[i]] = 0;
            }
            if (r->inflight != UINT64_MAX && loads > r->inflight)
                all_fit = 0;
        }
        if (all_fit) {
            for (uint32_t e = 0; e < ne; e++)
                while (r->gs[r->en[e]].n)
                    group_take(r, r->en[e], r->gs[r->en[e]].n - 1, t);
        } else {
            while (ne > 0) {
                uint64_t u = pn_rng_below(&r->rng, (uint32_t)N);   /* N <= warps < 2^31 */
                uint32_t e = 0;
                while (u >= r->gs[r->en[e]].n)
                    u -= r->gs[r->en[e++]].n;
                group_take(r, r->en[e], (uint32_t)u, t);
                N--;
                for (e = 0; e < ne;) {
                    uint32_t g = r->en[e];
                    if (r->gs[g].n && fits(r, &pl->groups[g], t)) {
                        e++;
                        continue;
                    }
                    N -= r->gs[g].n;
                    r->en[e] = r->en[--ne];
                }
            }
        }
    }
    if (r->emptied) {
        for (uint32_t a = 0; a < r->n_gact;) {
            if (r->gs[r->gact[a]].n == 0)
                r->gact[a] = r->gact[--r->n_gact];
            else
                a++;
        }
    }
    r->emptied = 0;
}

/* After step t's refills: the first step after t at which some group may
 * fit, UINT64_MAX if none. The groups looked at in step t and left waiting
 * (bound <= t) get their bound from the levels of M_{t+1}, up to the first
 * that may fit at t+1 (a bound <= t stays a bound). O(groups with members). */
static uint64_t group_next(run_t *r, uint64_t t)
{
    uint64_t best = UINT64_MAX;
    for (uint32_t a = 0; a < r->n_gact; a++) {
        uint32_t g = r->gact[a];
        if (r->gs[g].at <= t) {
            uint64_t m = wait_for(r, &r->pl->groups[g], t);
            r->gs[g].at = m == UINT64_MAX ? UINT64_MAX : t + 1 + m;
        }
        if (r->gs[g].at < best && (best = r->gs[g].at) == t + 1)
            break;                      /* the rest keep bounds <= t + 1 */
    }
    return best;
}

/* The issues of one step at time t: per partition, a uniform subset of the
 * warps holding go, as large as the issue width. */
static void issue(run_t *r, uint64_t t)
{
    const pn_pipe_params_t *p = &r->pl->p;
    for (uint64_t parts = r->go_parts; parts; parts &= parts - 1) {
        uint32_t j = (uint32_t)__builtin_ctzll(parts);
        uint32_t n = r->n_go[j];
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
        if (m == n)
            r->go_parts &= ~(UINT64_C(1) << j);
    }
}

static void run_free(run_t *r)
{
    free(r->w);
    free(r->ready);
    free(r->next);
    free(r->bits);
    free(r->wake);
    free(r->gs);
    free(r->gpool);
    free(r->gact);
    free(r->en);
    free(r->need);
    free(r->go);
    free(r->n_go);
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
        w->nk = w->km = 0;
        for (int k = 0; k < PN_PIPE_KINDS; k++) {
            w->left += w->x[k];
            w->nk += w->x[k] > 0;
            w->km |= (uint8_t)((w->x[k] > 0) << k);
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
    if (r->inflight != UINT64_MAX && !cr && pn_pipe_is_load(w->kind) && r->inflight++ == 0)
        inflight_back(r, t);
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
                group_push(r, wi, t);
        }
        return;
    }
    if (w->left && w->bud) {
        select_kind(r, w);
        if (cr)
            cal_push(r, r->wake, t + 1, wi);     /* selected now, acquires next step */
        else
            group_push(r, wi, t);                /* selected earlier, acquires now */
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
    r.wake = malloc(pl->ring * sizeof *r.wake);
    const uint32_t G = pl->n_groups;
    r.gs = calloc(G, sizeof *r.gs);
    const uint64_t live = (uint64_t)(pl->blocks < pl->resident ? pl->blocks : pl->resident) *
                          p->n_warps;
    r.gpool = malloc((size_t)(G * live) * sizeof *r.gpool);
    for (uint32_t g = 0; r.gs && r.gpool && g < G; g++)
        r.gs[g].m = r.gpool + (size_t)g * live;
    r.gact = malloc(G * sizeof *r.gact);
    r.en = malloc(G * sizeof *r.en);
    r.need = calloc(pl->n_buckets, sizeof *r.need);
    r.go = malloc((size_t)T * p->partitions * sizeof *r.go);
    r.n_go = calloc(p->partitions, sizeof *r.n_go);
    r.bk = calloc(pl->n_buckets, sizeof *r.bk);
    r.arrived = calloc(pl->blocks, sizeof *r.arrived);
    r.ended = calloc(pl->blocks, sizeof *r.ended);
    if (!r.w || !r.ready || !r.next || !r.bits || !r.go || !r.n_go ||
        !r.bk || !r.wake || !r.gs || !r.gpool || !r.gact || !r.en ||
        !r.need || !r.arrived || !r.ended) {
        run_free(&r);
        return pn_error_set(err, PN_ENOMEM, "out of memory for a pipelined run");
    }
    pn_rng_seed(&r.rng, seed);
    memset(r.ready, 0xff, pl->ring * sizeof *r.ready);
    memset(r.wake, 0xff, pl->ring * sizeof *r.wake);
    for (uint32_t i = 0; i < pl->n_buckets; i++) {
        int q = i < PN_PIPE_SFUP ? (int)i
                : i < PN_PIPE_SFUP + p->partitions ? PN_PIPE_SFUP : PN_PIPE_ALUP;
        pn_pipe_bucket_init(&r.bk[i], pl->cap[q], p->rate[q]);
    }
    r.inflight = p->inflight && !pl->inflight_free ? p->inflight : UINT64_MAX;
    /* step 0: the resident blocks' warps select (acquire from step 1),
     * arrive at a barrier or terminate */
    uint64_t pw = T, pfin = 0, z_now = 0;
    r.next_block = pl->blocks < pl->resident ? pl->blocks : pl->resident;
    for (uint32_t b = 0; b < r.next_block; b++)
        init_block(&r, b);
    for (uint32_t wi = 0; wi < r.next_block * p->n_warps; wi++)
        on_event(&r, wi, 0);
    uint64_t idle = 1;                 /* t0 at step 0 */
    r.firings += r.term_now;
    uint64_t t = 0, t_last = UINT64_MAX;   /* t_last: the last step played, if not t */
    pn_status_t st = PN_OK;
    for (uint32_t iter = 1;; iter++) {
        if ((iter & (PN_ENGINE_STOP_EVERY - 1)) == 0 && pn_engine_poll(o, t)) {
            st = pn_engine_stop_error(err);
            break;
        }
        /* end of step t: retire, terminate (the warps that acquired in it
         * joined their partition's go warps: group_take) */
        pw -= z_now;
        r.firings += z_now;
        if (pfin == T) {               /* t_done fired at t: M_{t+1} is dead */
            r.firings++;
            break;
        }
        pfin += r.term_now;
        z_now = r.term_now;
        r.term_now = 0;
        /* the issues of step t+1 now: its go warps are known (those that
         * acquire at t+1 hold go from t+2), so t+1 need not be visited */
        const int go_next = r.go_total > 0;
        issue(&r, t + 1);

        /* next step in which something happens */
        uint64_t next = t + 1;
        if (r.go_total == 0 && z_now == 0 && pfin != T) {
            const uint64_t s1 = (t + 1) & (pl->ring - 1);
            next = r.bits[s1 >> 6] >> (s1 & 63) & 1 ? t + 1 : group_next(&r, t);
            if (next > t + 1 && r.pending) {
                uint64_t c = cal_next(&r, t);
                next = c < next ? c : next;
            }
            if (next == UINT64_MAX) {
                st = pn_error_set(err, PN_EINVAL, "pipelined run (seed %" PRIu64 ") is stuck "
                                  "at step %" PRIu64 ": no warp can go on", seed, t);
                break;
            }
        }
        if (next >= max_steps) {
            st = pn_engine_limit_error(o, seed, err);
            t_last = t;
            t = max_steps - 1;
            break;
        }
        /* steps t+1 .. next-1: quiet; M_{t+1} is where the buckets stand */
        if (next > t + 1) {
            uint64_t gap = next - t - 1;
            if (pw >= 1)                /* t0, but not at t+1 when a warp held go */
                idle += gap - (uint64_t)go_next;
        }
        const int go_now = go_next && next == t + 1;
        t = next;

        /* step t, from M_t */
        const uint64_t slot = t & (pl->ring - 1);
        for (uint32_t wi = r.wake[slot]; wi != UINT32_MAX; wi = r.next[wi]) {
            group_push(&r, wi, t);
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
        if (pw >= 1 && !go_now && z_now == 0)
            idle++;
        /* the buckets refill lazily: decided on M_t when first taken from */
        acquire(&r, t);
    }
    if (t_last == UINT64_MAX)
        t_last = t;
    for (uint32_t i = 0; i < pl->n_buckets; i++)   /* refills up to the last step */
        r.firings += pn_pipe_bucket_close(&r.bk[i], t_last);
    res->seed = seed;
    res->steps = t + 1;
    res->idle_steps = idle;
    r.firings += idle;
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
