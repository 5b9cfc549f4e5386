/* pn_engine_fast.c - the default engine: the same maximal-concurrent step
 * semantics as the literal engine, with the same probability distribution
 * of runs, computed incrementally.
 *
 * - Enabledness: every transition keeps the number of its conditions (input
 *   place holds >= weight, inhibitor place empty) that fail at the current
 *   marking; only the readers of places that changed are revisited, and
 *   consumers are sorted by weight so that only those whose condition flips
 *   are touched.
 * - Conflicts: a place is contested when its enabled consumers demand more
 *   tokens than it holds. Only enabled transitions linked through contested
 *   places can influence each other, so each such component is shuffled and
 *   walked on its own; every other enabled transition fires. The relative
 *   order inside disjoint sets of a uniform permutation is uniform and
 *   independent, so the fired set has the literal engine's distribution.
 * - Hubs: a place with many consumers (the SM's schedulers) does not flip its
 *   consumers' conditions on every change; a transition whose other
 *   conditions hold is "pre-enabled" and checks its hub inputs when a step
 *   needs it. Pre-enabled transitions that cannot fire may join a conflict
 *   component; that changes no probability, since they never fire.
 * - Tickers: a transition whose single input (weight 1) has it as only
 *   consumer, with no inhibitors and no shared output place, fires at every
 *   step until its input is empty (latency count-downs). It is not fired
 *   step by step: the places it moves are brought up to date when read, and
 *   an event is scheduled at the first step where a condition that reads
 *   them can flip. Steps in which only tickers and uncontested self-loops
 *   (the waiting transition) fire are jumped over in one move, their steps,
 *   idle steps and firings counted exactly.
 */
#include "pn_engine.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "pn_analysis.h"
#include "pn_rng.h"

#include "pn_engine_fast_i.h"

/* ---- run state ------------------------------------------------------------- */

typedef struct event {
    uint64_t step;
    uint32_t t;
    uint32_t ver;
} event_t;

typedef struct fast {
    const pn_net_t *net;
    const pn_fast_plan_t *pl;
    const pn_run_opts_t *o;
    pn_rng_t rng;
    uint64_t s;               /* steps executed = index of the current step */
    uint64_t idle, firings;

    pn_tokens_t *m;           /* marking (ticker places: as of the ticker's sigma) */
    pn_tokens_t *meval;       /* marking the conditions were last evaluated at */
    uint32_t *unsat;          /* failing conditions per transition */

    uint8_t *pre;             /* conditions hold, hubs aside; not a running ticker */
    uint32_t *act;            /* pre-enabled transitions without hub inputs */
    int32_t *act_pos;
    uint32_t n_act, n_act_moving;
    uint32_t *hl;             /* pre-enabled consumers of each hub, in the */
    uint32_t *hn;             /*   hub's segment of the consumer layout */
    uint32_t *hpos;           /* per input arc at a hub: position in that list */

    pn_tokens_t *dem;         /* demand of enabled consumers, shared places */
    uint32_t *con;            /* contested places */
    int32_t *con_pos;
    uint32_t n_con;

    uint8_t *running;         /* ticker fired lazily */
    uint64_t *sigma;          /* its places are current as of the start of this step */
    uint32_t *ver;
    int32_t *owner;           /* place -> running ticker, -1 */
    uint32_t n_running;
    event_t *heap;
    size_t n_heap, cap_heap;
    uint32_t *touched;        /* tickers synced during the step */
    uint8_t *is_touched;
    uint32_t n_touched;

    uint32_t *chg;            /* places changed since conditions were evaluated */
    uint8_t *is_chg;
    uint32_t n_chg;

    uint32_t *fired;
    uint32_t n_fired;
    uint32_t *members, *queue;
    uint64_t *tstamp, *pstamp, stamp;
} fast_t;

static void fast_free(fast_t *f)
{
    free(f->m); free(f->meval); free(f->unsat);
    free(f->pre); free(f->act); free(f->act_pos);
    free(f->hl); free(f->hn); free(f->hpos);
    free(f->dem); free(f->con); free(f->con_pos);
    free(f->running); free(f->sigma); free(f->ver); free(f->owner);
    free(f->heap); free(f->touched); free(f->is_touched);
    free(f->chg); free(f->is_chg);
    free(f->fired); free(f->members); free(f->queue);
    free(f->tstamp); free(f->pstamp);
}

static int fast_alloc(fast_t *f)
{
    size_t np = (size_t)f->net->n_places + 1, nt = (size_t)f->net->n_trans + 1;
    f->m = malloc(np * sizeof *f->m);
    f->meval = malloc(np * sizeof *f->meval);
    f->unsat = calloc(nt, sizeof *f->unsat);
    size_t na = (size_t)f->net->in_off[f->net->n_trans] + 1;
    f->pre = calloc(nt, 1);
    f->hl = malloc(na * sizeof *f->hl);
    f->hn = calloc(np, sizeof *f->hn);
    f->hpos = malloc(na * sizeof *f->hpos);
    f->act = malloc(nt * sizeof *f->act);
    f->act_pos = malloc(nt * sizeof *f->act_pos);
    f->dem = calloc(np, sizeof *f->dem);
    f->con = malloc(np * sizeof *f->con);
    f->con_pos = malloc(np * sizeof *f->con_pos);
    f->running = calloc(nt, 1);
    f->sigma = calloc(nt, sizeof *f->sigma);
    f->ver = calloc(nt, sizeof *f->ver);
    f->owner = malloc(np * sizeof *f->owner);
    f->cap_heap = 64;
    f->heap = malloc(f->cap_heap * sizeof *f->heap);
    f->touched = malloc(nt * sizeof *f->touched);
    f->is_touched = calloc(nt, 1);
    f->chg = malloc(np * sizeof *f->chg);
    f->is_chg = calloc(np, 1);
    f->fired = malloc(nt * sizeof *f->fired);
    f->members = malloc(nt * sizeof *f->members);
    f->queue = malloc(np * sizeof *f->queue);
    f->tstamp = calloc(nt, sizeof *f->tstamp);
    f->pstamp = calloc(np, sizeof *f->pstamp);
    if (!f->m || !f->meval || !f->unsat || !f->pre || !f->hl || !f->hn || !f->hpos ||
        !f->act || !f->act_pos || !f->dem || !f->con ||
        !f->con_pos || !f->running || !f->sigma || !f->ver || !f->owner || !f->heap ||
        !f->touched || !f->is_touched || !f->chg || !f->is_chg || !f->fired || !f->members ||
        !f->queue || !f->tstamp || !f->pstamp)
        return 0;
    for (size_t t = 0; t < nt; t++)
        f->act_pos[t] = -1;
    for (size_t p = 0; p < np; p++) {
        f->con_pos[p] = -1;
        f->owner[p] = -1;
    }
    return 1;
}

/* ---- events (binary min-heap on step) -------------------------------------- */

static int heap_push(fast_t *f, uint64_t step, uint32_t t)
{
    if (f->n_heap == f->cap_heap) {
        event_t *h = realloc(f->heap, 2 * f->cap_heap * sizeof *h);
        if (!h)
            return 0;
        f->heap = h;
        f->cap_heap *= 2;
    }
    size_t i = f->n_heap++;
    event_t e = { step, t, f->ver[t] };
    while (i > 0 && f->heap[(i - 1) / 2].step > step) {
        f->heap[i] = f->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    f->heap[i] = e;
    return 1;
}

static event_t heap_pop(fast_t *f)
{
    event_t top = f->heap[0], last = f->heap[--f->n_heap];
    size_t i = 0, n = f->n_heap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && f->heap[c + 1].step < f->heap[c].step)
            c++;
        if (f->heap[c].step >= last.step)
            break;
        f->heap[i] = f->heap[c];
        i = c;
    }
    if (n)
        f->heap[i] = last;
    return top;
}

/* Drop stale events from the top so that heap[0] is live (or the heap empty). */
static void heap_clean(fast_t *f)
{
    while (f->n_heap && (!f->running[f->heap[0].t] || f->heap[0].ver != f->ver[f->heap[0].t]))
        heap_pop(f);
}

/* ---- bookkeeping ------------------------------------------------------------ */

static inline void mark_changed(fast_t *f, uint32_t p)
{
    if (!f->is_chg[p]) {
        f->is_chg[p] = 1;
        f->chg[f->n_chg++] = p;
    }
}

static void con_update(fast_t *f, uint32_t p)
{
    const pn_fast_plan_t *pl = f->pl;
    /* demand counts pre-enabled consumers; at a hub none may fire when it
     * holds less than the lightest weight, and then there is no conflict */
    int contested = f->dem[p] > f->m[p] &&
                    (!pl->hub[p] || f->m[p] >= pl->cons[pl->cons_off[p]].w);
    if (contested && f->con_pos[p] < 0) {
        f->con_pos[p] = (int32_t)f->n_con;
        f->con[f->n_con++] = p;
    } else if (!contested && f->con_pos[p] >= 0) {
        uint32_t last = f->con[--f->n_con];
        f->con[f->con_pos[p]] = last;
        f->con_pos[last] = f->con_pos[p];
        f->con_pos[p] = -1;
    }
}

static void demand(fast_t *f, uint32_t t, int sign)
{
    const pn_net_t *net = f->net;
    if (f->pl->lonely[t])
        return;
    for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++) {
        uint32_t p = net->in[i].place;
        if (!f->pl->shared[p])
            continue;
        if (sign > 0) {
            f->dem[p] += net->in[i].weight;
        } else {
            assert(f->dem[p] >= net->in[i].weight);
            f->dem[p] -= net->in[i].weight;
        }
        con_update(f, p);
    }
}

/* Apply the ticks of ticker t up to the start of step x. */
static void sync(fast_t *f, uint32_t t, uint64_t x)
{
    const pn_net_t *net = f->net;
    uint64_t k = x - f->sigma[t];
    if (k == 0)
        return;
    uint32_t pin = net->in[net->in_off[t]].place;
    assert(f->m[pin] >= k);               /* a ticker never drives its place negative */
    f->m[pin] -= k;
    mark_changed(f, pin);
    for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1]; i++) {
        f->m[net->out[i].place] += k * net->out[i].weight;
        mark_changed(f, net->out[i].place);
    }
    f->firings += k;
    f->sigma[t] = x;
}

/* Bring place p up to date for reading or writing at the current step. */
static inline void touch(fast_t *f, uint32_t p)
{
    int32_t t = f->owner[p];
    if (t < 0)
        return;
    sync(f, (uint32_t)t, f->s);
    if (!f->is_touched[t]) {
        f->is_touched[t] = 1;
        f->touched[f->n_touched++] = (uint32_t)t;
    }
}

/* The first step at which a condition reading ticker t's places can flip. */
static int schedule(fast_t *f, uint32_t t)
{
    const pn_net_t *net = f->net;
    const pn_fast_plan_t *pl = f->pl;
    uint64_t ev = f->m[net->in[net->in_off[t]].place];   /* input exhausted */
    for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1] && ev > 1; i++) {
        uint32_t q = net->out[i].place;
        pn_tokens_t a = f->m[q], wq = net->out[i].weight;
        if (a == 0 && net->inhby_off[q + 1] > net->inhby_off[q])
            ev = 1;
        /* the lightest consumer still unsatisfied flips first */
        for (uint32_t j = pl->cons_off[q]; j < pl->cons_off[q + 1]; j++)
            if (pl->cons[j].w > a) {
                uint64_t k = (pl->cons[j].w - a + wq - 1) / wq;
                if (k < ev)
                    ev = k;
                break;
            }
    }
    f->ver[t]++;
    return heap_push(f, f->sigma[t] + ev, t);
}

static int try_arm(fast_t *f, uint32_t t)
{
    const pn_net_t *net = f->net;
    if (!f->pl->tickable[t])
        return 0;
    uint32_t pin = net->in[net->in_off[t]].place;
    if (f->owner[pin] >= 0)
        return 0;
    for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1]; i++)
        if (f->owner[net->out[i].place] >= 0)
            return 0;
    f->owner[pin] = (int32_t)t;
    for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1]; i++)
        f->owner[net->out[i].place] = (int32_t)t;
    f->running[t] = 1;
    f->sigma[t] = f->s;
    f->n_running++;
    return 1;
}

static void disarm(fast_t *f, uint32_t t)
{
    const pn_net_t *net = f->net;
    f->owner[net->in[net->in_off[t]].place] = -1;
    for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1]; i++)
        f->owner[net->out[i].place] = -1;
    f->running[t] = 0;
    f->ver[t]++;
    f->n_running--;
}

/* Index of t's input arc from place p. */
static uint32_t in_arc(const pn_net_t *net, uint32_t t, uint32_t p)
{
    uint32_t i = net->in_off[t];
    while (net->in[i].place != p)
        i++;
    return i;
}

static int enable(fast_t *f, uint32_t t)
{
    const pn_net_t *net = f->net;
    const pn_fast_plan_t *pl = f->pl;
    if (try_arm(f, t))
        return schedule(f, t);
    f->pre[t] = 1;
    if (pl->has_hub[t]) {
        for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++) {
            uint32_t p = net->in[i].place;
            if (pl->hub[p]) {
                f->hpos[i] = f->hn[p];
                f->hl[pl->cons_off[p] + f->hn[p]++] = t;
            }
        }
    } else {
        f->act_pos[t] = (int32_t)f->n_act;
        f->act[f->n_act++] = t;
        f->n_act_moving += !pl->selfloop[t];
    }
    demand(f, t, +1);
    return 1;
}

static void disable(fast_t *f, uint32_t t)
{
    const pn_net_t *net = f->net;
    const pn_fast_plan_t *pl = f->pl;
    if (f->running[t]) {
        disarm(f, t);
        return;
    }
    f->pre[t] = 0;
    if (pl->has_hub[t]) {
        for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++) {
            uint32_t p = net->in[i].place;
            if (!pl->hub[p])
                continue;
            uint32_t *list = f->hl + pl->cons_off[p];
            uint32_t last = list[--f->hn[p]];
            list[f->hpos[i]] = last;
            f->hpos[in_arc(net, last, p)] = f->hpos[i];
        }
    } else {
        uint32_t last = f->act[--f->n_act];
        f->act[f->act_pos[t]] = last;
        f->act_pos[last] = f->act_pos[t];
        f->act_pos[t] = -1;
        f->n_act_moving -= !pl->selfloop[t];
    }
    demand(f, t, -1);
}

static inline int adjust(fast_t *f, uint32_t t, int satisfied)
{
    if (satisfied) {
        if (--f->unsat[t] == 0)
            return enable(f, t);
    } else if (f->unsat[t]++ == 0) {
        disable(f, t);
    }
    return 1;
}

/* Re-evaluate the conditions that read place p (meval[p] -> m[p]). */
static int place_update(fast_t *f, uint32_t p)
{
    const pn_net_t *net = f->net;
    const pn_fast_plan_t *pl = f->pl;
    pn_tokens_t a = f->meval[p], b = f->m[p];
    if (a == b)
        return 1;
    f->meval[p] = b;
    pn_tokens_t lo = a < b ? a : b, hi = a < b ? b : a;
    /* consumers with lo < w <= hi flip; binary search the first w > lo */
    uint32_t i = pl->cons_off[p], end = pl->hub[p] ? i : pl->cons_off[p + 1];
    uint32_t l = i, r = end;
    while (l < r) {
        uint32_t mid = l + (r - l) / 2;
        if (pl->cons[mid].w <= lo) l = mid + 1; else r = mid;
    }
    for (i = l; i < end && pl->cons[i].w <= hi; i++)
        if (!adjust(f, pl->cons[i].t, b > a))
            return 0;
    if ((a == 0) != (b == 0))
        for (uint32_t j = net->inhby_off[p]; j < net->inhby_off[p + 1]; j++)
            if (!adjust(f, net->inhby[j], b == 0))
                return 0;
    if (pl->shared[p])
        con_update(f, p);
    return 1;
}

/* Re-evaluate every changed place; re-schedule the tickers synced meanwhile. */
static int settle(fast_t *f)
{
    for (uint32_t i = 0; i < f->n_chg; i++) {
        uint32_t p = f->chg[i];
        f->is_chg[p] = 0;
        if (!place_update(f, p))
            return 0;
    }
    f->n_chg = 0;
    for (uint32_t i = 0; i < f->n_touched; i++) {
        uint32_t t = f->touched[i];
        f->is_touched[t] = 0;
        if (f->running[t] && !schedule(f, t))
            return 0;
    }
    f->n_touched = 0;
    return 1;
}

/* ---- one step --------------------------------------------------------------- */

static inline int inputs_fit(fast_t *f, uint32_t t)
{
    const pn_net_t *net = f->net;
    for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++) {
        touch(f, net->in[i].place);
        if (f->m[net->in[i].place] < net->in[i].weight)
            return 0;
    }
    return 1;
}

static inline void consume(fast_t *f, uint32_t t)
{
    const pn_net_t *net = f->net;
    for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++) {
        uint32_t p = net->in[i].place;
        touch(f, p);
        assert(f->m[p] >= net->in[i].weight);   /* markings never go negative */
        f->m[p] -= net->in[i].weight;
        mark_changed(f, p);
    }
    f->fired[f->n_fired++] = t;
}

/* True when the hub inputs of pre-enabled transition t hold its weights. */
static inline int hubs_ok(const fast_t *f, uint32_t t)
{
    const pn_net_t *net = f->net;
    if (!f->pl->has_hub[t])
        return 1;
    for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++)
        if (f->pl->hub[net->in[i].place] && f->m[net->in[i].place] < net->in[i].weight)
            return 0;
    return 1;
}

/* Shuffle and walk the enabled transitions linked to contested place p0. */
static void resolve_component(fast_t *f, uint32_t p0)
{
    const pn_net_t *net = f->net;
    const pn_fast_plan_t *pl = f->pl;
    uint32_t nq = 0, nm = 0;
    f->pstamp[p0] = f->stamp;
    f->queue[nq++] = p0;
    for (uint32_t qi = 0; qi < nq; qi++) {
        uint32_t p = f->queue[qi];
        int hub = pl->hub[p];
        uint32_t lo = pl->cons_off[p], hi = hub ? lo + f->hn[p] : pl->cons_off[p + 1];
        for (uint32_t j = lo; j < hi; j++) {
            uint32_t t = hub ? f->hl[j] : pl->cons[j].t;
            if (!f->pre[t] || f->tstamp[t] == f->stamp)
                continue;
            f->tstamp[t] = f->stamp;
            f->members[nm++] = t;
            for (uint32_t i = pl->shin_off[t]; i < pl->shin_off[t + 1]; i++) {
                uint32_t r = pl->shin[i];
                if (f->con_pos[r] >= 0 && f->pstamp[r] != f->stamp) {
                    f->pstamp[r] = f->stamp;
                    f->queue[nq++] = r;
                }
            }
        }
    }
    (void)net;
    /* Draw the walk order one member at a time (a Fisher-Yates shuffle from
     * the front). When p0 is the only contested place, every member consumes
     * p0, and p0 has less left than its lightest consumer needs, no later
     * member can fire: the rest of the order does not matter. */
    pn_tokens_t minw = pl->cons[pl->cons_off[p0]].w;
    for (uint32_t i = 0; i < nm; i++) {
        if (nq == 1 && f->m[p0] < minw)
            break;
        uint32_t j = i + pn_rng_below(&f->rng, nm - i);
        uint32_t t = f->members[j];
        f->members[j] = f->members[i];
        f->members[i] = t;
        if (inputs_fit(f, t))
            consume(f, t);
    }
}

/* One step; 0 when nothing fired and no ticker runs: the marking is dead (a
 * contested place whose pre-enabled consumers all wait for hubs that stay
 * empty would otherwise repeat empty steps), and the step is not counted. */
static int step(fast_t *f)
{
    const pn_net_t *net = f->net;
    f->n_fired = 0;
    f->stamp++;
    for (uint32_t i = 0; i < f->n_con; i++)
        if (f->pstamp[f->con[i]] != f->stamp)
            resolve_component(f, f->con[i]);
    for (uint32_t i = 0; i < f->n_act; i++)
        if (f->tstamp[f->act[i]] != f->stamp)
            consume(f, f->act[i]);
    /* Uncontested hubs: every pre-enabled consumer whose hubs hold its
     * weights fires. Tokens taken earlier in the step do not change that:
     * an uncontested hub holds what all its enabled consumers need. */
    const pn_fast_plan_t *pl = f->pl;
    for (uint32_t h = 0; h < pl->n_hubs; h++) {
        uint32_t p = pl->hubs[h];
        if (f->hn[p] == 0 || f->con_pos[p] >= 0 || f->m[p] < pl->cons[pl->cons_off[p]].w)
            continue;
        for (uint32_t j = pl->cons_off[p]; j < pl->cons_off[p] + f->hn[p]; j++) {
            uint32_t t = f->hl[j];
            if (f->tstamp[t] != f->stamp && hubs_ok(f, t)) {
                f->tstamp[t] = f->stamp;
                consume(f, t);
            }
        }
    }
    if (f->n_fired == 0 && f->n_running == 0)
        return 0;
    int idle = 0;
    for (uint32_t k = 0; k < f->n_fired; k++) {
        uint32_t t = f->fired[k];
        idle |= (int64_t)t == f->o->idle_trans;
        for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1]; i++) {
            uint32_t p = net->out[i].place;
            touch(f, p);
            f->m[p] += net->out[i].weight;
            mark_changed(f, p);
        }
    }
    f->s++;
    f->idle += (uint64_t)idle;
    f->firings += f->n_fired;
    /* the step's own ticks of the tickers whose places it read or wrote */
    for (uint32_t i = 0; i < f->n_touched; i++)
        sync(f, f->touched[i], f->s);
    return 1;
}

/* With no contested place: true when no transition that changes the marking
 * can fire, so that the next steps repeat until an event. *loops receives
 * the number of self-loops that fire at each of them, *idle_on whether the
 * idle transition is one of them. O(1) unless hub-blocked transitions wait. */
static int quiet(fast_t *f, uint32_t *loops, int *idle_on)
{
    const pn_fast_plan_t *pl = f->pl;
    if (f->n_act_moving > 0)
        return 0;
    *loops = f->n_act;
    *idle_on = f->o->idle_trans >= 0 && f->act_pos[f->o->idle_trans] >= 0;
    f->stamp++;
    for (uint32_t h = 0; h < pl->n_hubs; h++) {
        uint32_t p = pl->hubs[h];
        if (f->hn[p] == 0 || f->m[p] < pl->cons[pl->cons_off[p]].w)
            continue;
        for (uint32_t j = pl->cons_off[p]; j < pl->cons_off[p] + f->hn[p]; j++) {
            uint32_t t = f->hl[j];
            if (f->tstamp[t] == f->stamp || !hubs_ok(f, t))
                continue;
            if (!pl->selfloop[t])
                return 0;
            f->tstamp[t] = f->stamp;
            (*loops)++;
            *idle_on |= (int64_t)t == f->o->idle_trans;
        }
    }
    return 1;
}

/* ---- the run ---------------------------------------------------------------- */

pn_status_t pn_engine_fast_run_plan(const pn_fast_plan_t *pl, uint64_t seed,
                                    const pn_run_opts_t *o, pn_run_result_t *res,
                                    pn_error_t *err)
{
    const pn_net_t *net = pl->net;
    fast_t f;
    memset(&f, 0, sizeof f);
    f.net = net;
    f.pl = pl;
    f.o = o;
    pn_status_t st = PN_OK;
    if (!fast_alloc(&f)) {
        fast_free(&f);
        return pn_error_set(err, PN_ENOMEM, "out of memory for a run");
    }
    pn_rng_seed(&f.rng, seed);
    pn_net_initial_marking(net, f.m);
    memcpy(f.meval, f.m, (size_t)net->n_places * sizeof *f.m);
    int ok = 1;
    for (uint32_t t = 0; t < net->n_trans && ok; t++) {
        for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++)
            f.unsat[t] += !pl->hub[net->in[i].place] && f.m[net->in[i].place] < net->in[i].weight;
        for (uint32_t i = net->inh_off[t]; i < net->inh_off[t + 1]; i++)
            f.unsat[t] += f.m[net->inh[i]] != 0;
        if (f.unsat[t] == 0)
            ok = enable(&f, t);
    }
    if (ok)
        for (uint32_t p = 0; p < net->n_places; p++)
            if (pl->shared[p])
                con_update(&f, p);

    for (uint32_t iter = 1; ok; iter++) {
        if ((iter & (PN_ENGINE_STOP_EVERY - 1)) == 0 && pn_engine_poll(o, f.s)) {
            st = pn_engine_stop_error(err);
            break;
        }
        /* events due now: tickers whose places a condition reads */
        heap_clean(&f);
        while (f.n_heap && f.heap[0].step <= f.s) {
            event_t e = heap_pop(&f);
            sync(&f, e.t, f.s);
            if (!f.is_touched[e.t]) {
                f.is_touched[e.t] = 1;
                f.touched[f.n_touched++] = e.t;
            }
            heap_clean(&f);
        }
        if (f.n_chg || f.n_touched) {
            ok = settle(&f);
            continue;
        }
        uint32_t loops;
        int idle_on;
        if (f.n_con == 0 && quiet(&f, &loops, &idle_on)) {
            if (loops == 0 && f.n_running == 0)
                break;                               /* dead marking */
            /* only tickers and uncontested self-loops fire until the next event */
            if (f.n_heap == 0 || f.heap[0].step > o->max_steps) {
                st = pn_engine_limit_error(o, seed, err);
                break;
            }
            uint64_t k = f.heap[0].step - f.s;
            f.idle += idle_on ? k : 0;
            f.firings += k * loops;
            f.s += k;
            continue;
        }
        if (f.s >= o->max_steps) {
            st = pn_engine_limit_error(o, seed, err);
            break;
        }
        if (!step(&f))
            break;                                   /* dead marking */
        if (o->on_step)
            o->on_step(o->ctx, f.s, NULL, f.fired, f.n_fired);
        ok = settle(&f);
    }
    if (!ok && st == PN_OK)
        st = pn_error_set(err, PN_ENOMEM, "out of memory during a run");
    res->seed = seed;
    res->steps = f.s;
    res->idle_steps = f.idle;
    res->firings = f.firings;
    fast_free(&f);
    return st;
}
