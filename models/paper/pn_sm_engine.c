/* pn_sm_engine.c - the SM net compiled: an exact event-driven simulation of
 * the net of doc/paper-net.md, one state machine per warp.
 *
 * In that net a warp's sub-net holds one control token. Between two
 * selections everything it does is forced, with fixed durations; the only
 * random events are the choice in frame I (uniform among the kinds left) and
 * the competition of ready warps for the schedulers in p0 (a uniform subset
 * of the ready warps, as large as the free schedulers, issues). The waiting
 * transition t0 fires exactly in the steps in which no warp holds p2 (none
 * selecting or ready), a scheduler is free and a warp is alive. Simulating
 * those events alone gives runs with the literal engine's distribution of
 * steps and idle steps; firings follow from the counts. Work is done only at
 * steps where a warp selects or ready warps meet a free scheduler; all other
 * steps are jumped over.
 *
 * Timeline of one instruction, selection at step k (tested against the net):
 *   arith : k select, k+1 issue (t1), k+2 t7, k+3 t15 -> p0 back and next
 *           selection at k+4
 *   global: k+1 issue, k+2 t5 -> p0 back from k+3, k+3..k+2+l1 t8 ticks,
 *           t9, t11 -> next selection at k+5+l1
 *   shared: k+1 issue, k+2 t6, l2 ticks of t17, t12, t14 -> p0 back and
 *           next selection at k+5+l2
 *   a warp with nothing left terminates (t16) at its selection step.
 */
#include "pn_sm_engine.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "pn_rng.h"

/* ---- the plan: the SM parameters, copied ---------------------------------------- */

typedef struct sm_plan {
    pn_sm_params_t params;
    pn_warp_counts_t *warps;      /* params.warps points here */
    /* the grid (models/paper/GRID.md): B blocks, R resident, k barriers a
     * warp; per-block counts (B * W) or NULL; the plain net is 1, 1, 0 */
    uint32_t blocks, resident;
    uint64_t barriers;
    pn_warp_counts_t *block_warps;
    uint64_t *phase, *last;       /* per counts entry: instructions per phase */
    /* program order: the warps' streams (copies), or seg_off NULL */
    uint32_t *seg_off;
    pn_sm_seq_seg_t *segs;
    pn_sm_seq_item_t *items;
} sm_plan_t;

static void sm_plan_free(void *plan)
{
    sm_plan_t *pl = plan;
    if (pl) {
        free(pl->warps);
        free(pl->block_warps);
        free(pl->phase);
        free(pl->last);
        free(pl->seg_off);
        free(pl->segs);
        free(pl->items);
        free(pl);
    }
}

pn_status_t pn_sm_plan_new(const pn_sm_params_t *p, void **out, pn_error_t *err)
{
    *out = NULL;
    PN_CHECK(pn_sm_check(p, err));
    sm_plan_t *pl = calloc(1, sizeof *pl);
    if (!pl || !(pl->warps = malloc((size_t)p->n_warps * sizeof *pl->warps))) {
        sm_plan_free(pl);
        return pn_error_set(err, PN_ENOMEM, "out of memory planning an SM net");
    }
    memcpy(pl->warps, p->warps, (size_t)p->n_warps * sizeof *pl->warps);
    pl->params = *p;
    pl->params.warps = pl->warps;
    pl->blocks = pl->resident = 1;
    *out = pl;
    return PN_OK;
}

/* Instructions of counts c before each of k barriers: floor(n / (k + 1)). */
static uint64_t phase_of(const pn_warp_counts_t *c, uint64_t k)
{
    return (c->arith + c->shared + c->global) / (k + 1);
}

/* The plan of p's warps in program order (a copy of p and seq). */
static pn_status_t sm_seq_plan_new(const pn_sm_params_t *p, const pn_sm_seq_t *seq, void **out,
                                   pn_error_t *err)
{
    PN_CHECK(pn_sm_plan_new(p, out, err));
    sm_plan_t *pl = *out;
    const uint32_t W = p->n_warps, ns = seq->seg_off[W];
    uint32_t ni = 0;
    for (uint32_t j = 0; j < ns; j++)
        ni = seq->segs[j].first + seq->segs[j].n > ni ? seq->segs[j].first + seq->segs[j].n : ni;
    if (!(pl->seg_off = malloc(((size_t)W + 1) * sizeof *pl->seg_off)) ||
        !(pl->segs = malloc(((size_t)ns + 1) * sizeof *pl->segs)) ||
        !(pl->items = malloc(((size_t)ni + 1) * sizeof *pl->items))) {
        sm_plan_free(pl);
        *out = NULL;
        return pn_error_set(err, PN_ENOMEM, "out of memory planning programs");
    }
    memcpy(pl->seg_off, seq->seg_off, ((size_t)W + 1) * sizeof *pl->seg_off);
    memcpy(pl->segs, seq->segs, (size_t)ns * sizeof *pl->segs);
    memcpy(pl->items, seq->items, (size_t)ni * sizeof *pl->items);
    return PN_OK;
}

/* The plan of the grid net of p and g (a copy of both). */
static pn_status_t sm_grid_plan_new(const pn_sm_params_t *p, const pn_sm_grid_t *g, void **out,
                                    pn_error_t *err)
{
    PN_CHECK(pn_sm_plan_new(p, out, err));
    sm_plan_t *pl = *out;
    pl->blocks = g->blocks ? g->blocks : 1;
    pl->resident = g->resident ? g->resident : 1;
    if (pl->resident > pl->blocks)
        pl->resident = pl->blocks;
    pl->barriers = g->barriers;
    const size_t n = g->block_warps ? (size_t)pl->blocks * p->n_warps : p->n_warps;
    if ((g->block_warps && !(pl->block_warps = malloc(n * sizeof *pl->block_warps))) ||
        !(pl->phase = malloc(n * sizeof *pl->phase)) || !(pl->last = malloc(n * sizeof *pl->last))) {
        sm_plan_free(pl);
        *out = NULL;
        return pn_error_set(err, PN_ENOMEM, "out of memory planning an SM grid");
    }
    if (g->block_warps)
        memcpy(pl->block_warps, g->block_warps, n * sizeof *pl->block_warps);
    for (size_t i = 0; i < n; i++) {
        const pn_warp_counts_t *c = g->block_warps ? &pl->block_warps[i] : &pl->warps[i];
        uint64_t all = c->arith + c->shared + c->global;
        pl->phase[i] = pl->barriers ? phase_of(c, pl->barriers) : UINT64_MAX;
        pl->last[i] = pl->barriers ? all - pl->barriers * pl->phase[i] : UINT64_MAX;
    }
    return PN_OK;
}

/* ---- the simulation ----------------------------------------------------------- */

/* Pending events in a calendar ring: an event is never more than
 * max(l1, l2) + 4 steps ahead, so with ring >= that, bucket step % ring holds
 * exactly the events of one step, and a bitmap of non-empty buckets finds
 * the next event in O(ring / 64). Pushing and popping are O(1). */
typedef struct sm_run {
    uint64_t ring;                /* a power of two above every event's delay */
    int32_t *head;                /* ring buckets: first event, -1 when empty */
    uint64_t *bits;               /* non-empty buckets */
    int32_t *next;                /* per warp: the chain of its bucket */
    uint32_t *back;               /* per bucket: schedulers coming back */
    uint32_t *sel;                /* warps selecting at this step */
    uint32_t *ready;              /* warps holding a selected instruction */
    uint8_t *kind;                /* per warp: the kind it selected */
    pn_warp_counts_t *left;       /* per warp: instructions still to select */
    /* grids: per resident warp its phase budget and barriers left, per slot
     * (resident block) its block, warps alive and warps arrived */
    uint64_t *bud, *barl;
    uint32_t *blk, *blk_alive, *arrived;
    /* program order: per warp its segment, repeats done, item, instructions
     * of the item done */
    uint32_t *cj, *ci, *cm;
    uint64_t *cr;
} sm_run_t;

/* The next item of warp w's program (a kind, PN_SM_SEQ_SYNC), or -1 at its
 * end; advances the cursor. */
static int seq_next(sm_run_t *r, const sm_plan_t *pl, uint32_t w, uint32_t end)
{
    while (r->cj[w] < end) {
        const pn_sm_seq_seg_t *sg = &pl->segs[r->cj[w]];
        const pn_sm_seq_item_t *it = &pl->items[sg->first + r->ci[w]];
        if (r->cm[w] < it->mult) {
            r->cm[w]++;
            return it->kind;
        }
        r->cm[w] = 0;
        if (++r->ci[w] == sg->n) {
            r->ci[w] = 0;
            if (++r->cr[w] == sg->repeat) {
                r->cr[w] = 0;
                r->cj[w]++;
            }
        }
    }
    return -1;
}

/* Warp w selects at `step` (a warp has one selection pending at most). */
static void ev_push(sm_run_t *r, uint64_t step, uint32_t w)
{
    uint64_t b = step & (r->ring - 1);
    r->next[w] = r->head[b];
    r->head[b] = (int32_t)w;
    r->bits[b >> 6] |= UINT64_C(1) << (b & 63);
}

/* A scheduler comes back at `step`: counted, not a warp's event. */
static void ev_back(sm_run_t *r, uint64_t step)
{
    uint64_t b = step & (r->ring - 1);
    r->back[b]++;
    r->bits[b >> 6] |= UINT64_C(1) << (b & 63);
}

/* Steps from s to the next pending event, 0 when none is pending. */
static uint64_t ev_next(const sm_run_t *r, uint64_t s)
{
    uint64_t b = s & (r->ring - 1), words = r->ring >> 6;
    uint64_t w = b >> 6;
    uint64_t bits = r->bits[w] & (~UINT64_C(0) << (b & 63));
    for (uint64_t k = 0; k <= words; k++) {
        if (bits) {
            uint64_t found = (w << 6) + (uint64_t)__builtin_ctzll(bits);
            return (found - b) & (r->ring - 1);
        }
        w = (w + 1) % words;
        bits = r->bits[w];
    }
    return 0;
}

/* Block b takes slot sl: its warps' counts, budgets and barriers. */
static void load_block(sm_run_t *r, const sm_plan_t *pl, uint32_t sl, uint32_t b)
{
    const uint32_t W = pl->params.n_warps;
    r->blk[sl] = b;
    r->blk_alive[sl] = W;
    r->arrived[sl] = 0;
    for (uint32_t i = 0; i < W; i++) {
        const size_t ci = pl->block_warps ? (size_t)b * W + i : i;
        const uint32_t w = sl * W + i;
        r->left[w] = pl->block_warps ? pl->block_warps[ci] : pl->warps[i];
        r->bud[w] = pl->phase ? pl->phase[ci] : UINT64_MAX;
        r->barl[w] = pl->barriers;
    }
}

/* A warp of slot sl arrives at its barrier at step s; the block's last one
 * releases it (release at s + 1, resume at s + 2): every warp selects at
 * s + 3, in counts mode with its next phase's budget. */
static void arrive(sm_run_t *r, const sm_plan_t *pl, uint32_t sl, uint64_t s)
{
    const uint32_t W = pl->params.n_warps;
    if (++r->arrived[sl] < W)
        return;
    r->arrived[sl] = 0;
    for (uint32_t v = sl * W; v < (sl + 1) * W; v++) {
        if (pl->phase) {
            const size_t ci = pl->block_warps ? (size_t)r->blk[sl] * W + (v - sl * W)
                                              : v - sl * W;
            r->bud[v] = r->barl[v] ? pl->phase[ci] : pl->last[ci];
        }
        ev_push(r, s + 3, v);
    }
}

/* The last warp alive selecting at step *s, no scheduler out (so no event
 * pending: a warp's scheduler comes back before its next selection): the
 * rest is a single warp's run, whose steps and idle steps do not depend on
 * its choices (pn_sm_single_warp_steps and _idle), so it is added at once
 * and the run ends at *s. Only for counts without
 * barriers left; returns 0 (nothing changed) where the run would pass
 * max_steps, which the step loop then reports. The random draws skipped
 * would decide nothing: the same results. */
static int tail(const sm_run_t *r, const sm_plan_t *pl, uint64_t *s, uint64_t *idle,
                uint64_t max_steps)
{
    const uint32_t w = r->sel[0];
    if (r->barl[w] > 0)
        return 0;
    const pn_sm_params_t *p = &pl->params;
    /* the single warp's run counts its terminating selection as one step */
    uint64_t end = *s + pn_sm_single_warp_steps(&r->left[w], p->l1, p->l2);
    if (end > max_steps)
        return 0;
    *s = end;
    *idle += pn_sm_single_warp_idle(&r->left[w], p->l1, p->l2, p->schedulers);
    return 1;
}

static pn_status_t sm_run(const void *plan, uint64_t seed, const pn_run_opts_t *o,
                          pn_run_result_t *res, pn_error_t *err)
{
    const sm_plan_t *pl = plan;
    const pn_sm_params_t *p = &pl->params;
    const uint32_t W = p->n_warps, R = pl->resident, B = pl->blocks;
    const uint32_t RW = R * W;                   /* resident warps: slot sl holds sl*W .. */
    sm_run_t r;
    memset(&r, 0, sizeof r);
    /* an event is at most max(l1, l2) + 4 steps ahead, a block start R + 3 */
    uint64_t delay = 4 + (uint64_t)(p->l1 > p->l2 ? p->l1 : p->l2);
    if ((uint64_t)R + 4 > delay)
        delay = (uint64_t)R + 4;
    for (r.ring = 64; r.ring <= delay; r.ring *= 2)
        ;
    r.head = malloc(r.ring * sizeof *r.head);
    r.bits = calloc(r.ring / 64, sizeof *r.bits);
    r.next = malloc((size_t)RW * sizeof *r.next);
    r.back = calloc(r.ring, sizeof *r.back);
    r.sel = malloc((size_t)RW * sizeof *r.sel);
    r.ready = malloc((size_t)RW * sizeof *r.ready);
    r.kind = malloc(RW);
    r.left = malloc((size_t)RW * sizeof *r.left);
    r.bud = malloc((size_t)RW * sizeof *r.bud);
    r.barl = malloc((size_t)RW * sizeof *r.barl);
    r.blk = malloc((size_t)R * sizeof *r.blk);
    r.blk_alive = malloc((size_t)R * sizeof *r.blk_alive);
    r.arrived = malloc((size_t)R * sizeof *r.arrived);
    if (pl->seg_off) {
        r.cj = malloc((size_t)RW * sizeof *r.cj);
        r.ci = calloc(RW, sizeof *r.ci);
        r.cm = calloc(RW, sizeof *r.cm);
        r.cr = calloc(RW, sizeof *r.cr);
    }
    pn_status_t st = PN_OK;
    if (!r.head || !r.bits || !r.next || !r.back || !r.sel || !r.ready || !r.kind || !r.left ||
        !r.bud || !r.barl || !r.blk || !r.blk_alive || !r.arrived ||
        (pl->seg_off && (!r.cj || !r.ci || !r.cm || !r.cr))) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory for a run");
        goto done;
    }
    for (uint64_t b = 0; b < r.ring; b++)
        r.head[b] = -1;
    for (uint32_t sl = 0; sl < R; sl++)
        load_block(&r, pl, sl, sl);
    for (uint32_t w = 0; pl->seg_off && w < RW; w++)
        r.cj[w] = pl->seg_off[w];
    uint32_t next_block = R;
    uint64_t last_start = 0;
    int started = 0;                             /* a block started after the first R */
    pn_rng_t rng;
    pn_rng_seed(&rng, seed);
    uint64_t s = 0, idle = 0;
    uint64_t free_sched = p->schedulers;
    uint64_t held = 0;                           /* schedulers issued, not yet back */
    uint64_t alive = (uint64_t)B * W;            /* warps not terminated, all blocks */
    uint32_t n_sel = 0, n_ready = 0;
    /* per kind (arith, shared, global), from the issue step: the scheduler
     * back (t7/t15, t12/t14, t5) and the next selection */
    const uint64_t d_back[PN_KIND_COUNT] = { 3, 4 + (uint64_t)p->l2, 2 };
    const uint64_t d_sel[PN_KIND_COUNT] = { 3, 4 + (uint64_t)p->l2, 4 + (uint64_t)p->l1 };
    for (uint32_t w = 0; w < RW; w++)
        r.sel[n_sel++] = w;                      /* p2 and p3 start marked */
    /* the last warp's rest in one move (tail): counts, the last block */
    const int tail_ok = !pl->seg_off;

    for (uint32_t iter = 1; alive > 0; iter++) {
        if ((iter & (PN_ENGINE_STOP_EVERY - 1)) == 0 && pn_engine_poll(o, s)) {
            st = PN_EINTR;
            break;
        }
        uint64_t b = s & (r.ring - 1);
        for (int32_t e = r.head[b]; e >= 0; e = r.next[e])
            r.sel[n_sel++] = (uint32_t)e;
        assert(held >= r.back[b]);
        held -= r.back[b];
        free_sched += r.back[b];
        r.back[b] = 0;
        r.head[b] = -1;
        r.bits[b >> 6] &= ~(UINT64_C(1) << (b & 63));
        if (n_sel == 0 && (n_ready == 0 || free_sched == 0)) {
            /* nothing but forced moves until the next event */
            uint64_t k = ev_next(&r, s);
            if (k == 0 || s + k > o->max_steps) {
                st = PN_ELIMIT;
                break;
            }
            if (n_ready == 0 && free_sched > 0)
                idle += k;                       /* t0: nobody holds p2 */
            s += k;
            continue;
        }
        if (s >= o->max_steps) {
            st = PN_ELIMIT;
            break;
        }
        if (alive == 1 && n_sel == 1 && held == 0 && tail_ok &&
            tail(&r, pl, &s, &idle, o->max_steps))
            break;
        /* issue: the ready warps compete for the free schedulers */
        uint32_t n_issue = n_ready <= free_sched ? n_ready : (uint32_t)free_sched;
        for (uint32_t i = 0; i < n_issue; i++) {
            uint32_t j = n_issue == n_ready ? i : i + pn_rng_below(&rng, n_ready - i);
            uint32_t w = r.ready[j];
            r.ready[j] = r.ready[i];
            r.ready[i] = w;
            ev_back(&r, s + d_back[r.kind[w]]);
            ev_push(&r, s + d_sel[r.kind[w]], w);
        }
        free_sched -= n_issue;
        held += n_issue;
        /* the tokens of p0 are conserved: free or held by an issued warp */
        assert(free_sched + held == p->schedulers);
        /* drop the issued front: the last entries fill their slots, O(issued);
         * the order of the ready list never matters, the draws are uniform */
        uint32_t keep = n_ready - n_issue;
        for (uint32_t i = 0; i < n_issue && i < keep; i++)
            r.ready[i] = r.ready[n_ready - 1 - i];
        n_ready = keep;
        /* select: uniform among the kinds left; or arrive at a barrier; or
         * terminate */
        for (uint32_t i = 0; i < n_sel; i++) {
            uint32_t w = r.sel[i];
            pn_warp_counts_t *c = &r.left[w];
            int item = pl->seg_off ? seq_next(&r, pl, w, pl->seg_off[w + 1]) : 0;
            if (item == PN_SM_SEQ_SYNC || (r.bud[w] == 0 && r.barl[w] > 0)) {
                /* a program's sync item, or a phase's end: arrive now */
                if (item != PN_SM_SEQ_SYNC)
                    r.barl[w]--;
                arrive(&r, pl, w / W, s);
                continue;
            }
            const uint32_t fa = c->arith > 0, fs = c->shared > 0;
            uint32_t n_kinds = pl->seg_off ? item >= 0 : fa + fs + (c->global > 0);
            if (n_kinds == 0) {
                /* t16 now; the block's last warp: its slot goes to the next
                 * block (b.end at s + 1, b.start at s + 2 or when the block
                 * before it has started), whose warps select a step later */
                const uint32_t sl = w / W;
                alive--;
                if (--r.blk_alive[sl] == 0 && next_block < B) {
                    uint64_t at = s + 2;
                    if (started && last_start + 1 > at)
                        at = last_start + 1;
                    last_start = at;
                    started = 1;
                    load_block(&r, pl, sl, next_block++);
                    for (uint32_t v = sl * W; v < (sl + 1) * W; v++)
                        ev_push(&r, at + 1, v);
                }
                continue;
            }
            uint8_t k = 0;
            if (pl->seg_off) {
                k = (uint8_t)item;               /* the program's next instruction */
            } else {
                /* the pick-th kind with instructions left, without branches */
                uint32_t pick = pn_rng_below(&rng, n_kinds);
                k = (uint8_t)((fa <= pick) + (fa + fs <= pick));
            }
            assert(k < PN_KIND_COUNT);
            (*pn_warp_count(c, k))--;
            r.bud[w]--;
            r.kind[w] = k;
            r.ready[n_ready++] = w;
        }
        n_sel = 0;
        s++;
    }
    if (st == PN_ELIMIT)
        pn_engine_limit_error(o, seed, err);
    else if (st == PN_EINTR)
        pn_engine_stop_error(err);
    res->seed = seed;
    res->steps = s;
    res->idle_steps = idle;
    /* every instruction completes with a fixed number of firings; a grid adds
     * per warp and barrier an arrive and a resume, per block and barrier a
     * release, and the B - R block ends and starts */
    res->firings = idle;
    for (uint64_t g = 0; g < (pl->block_warps ? (uint64_t)B * W : W); g++)
        res->firings += pn_sm_single_warp_steps(pl->block_warps ? &pl->block_warps[g]
                                                                : &p->warps[g], p->l1, p->l2) *
                        (pl->block_warps ? 1 : B);
    res->firings += (uint64_t)B * pl->barriers * (2 * (uint64_t)W + 1) + 2 * (uint64_t)(B - R);
    if (pl->seg_off) {                           /* a program's syncs: as barriers */
        uint64_t syncs = 0;
        for (uint32_t j = pl->seg_off[0]; j < pl->seg_off[1]; j++)
            for (uint32_t i = 0; i < pl->segs[j].n; i++)
                syncs += pl->items[pl->segs[j].first + i].kind == PN_SM_SEQ_SYNC
                             ? pl->segs[j].repeat : 0;
        res->firings += syncs * (2 * (uint64_t)W + 1);
    }
done:
    free(r.head);
    free(r.bits);
    free(r.next);
    free(r.back);
    free(r.sel);
    free(r.ready);
    free(r.kind);
    free(r.left);
    free(r.bud);
    free(r.barl);
    free(r.blk);
    free(r.blk_alive);
    free(r.arrived);
    free(r.cj);
    free(r.ci);
    free(r.cm);
    free(r.cr);
    return st;
}

const pn_engine_impl_t pn_sm_engine = { "sm", sm_run, sm_plan_free };

static pn_status_t sm_plan_of(const void *params, void **plan, pn_error_t *err)
{
    return pn_sm_plan_new(params, plan, err);
}

const pn_model_engine_t pn_sm_model_engine = {
    "the SM net of a kernel's counts", &pn_sm_engine, sm_plan_of
};

/* What the grid and program-order preparations hand to the plan: the SM,
 * and a grid or the warps' programs. */
typedef struct sm_args {
    const pn_sm_params_t *p;
    const pn_sm_grid_t *g;        /* or NULL */
    const pn_sm_seq_t *seq;       /* or NULL */
} sm_args_t;

static pn_status_t sm_args_plan_of(const void *params, void **plan, pn_error_t *err)
{
    const sm_args_t *a = params;
    return a->g ? sm_grid_plan_new(a->p, a->g, plan, err)
                : sm_seq_plan_new(a->p, a->seq, plan, err);
}

/* Paper nets of several blocks or with barriers, and in program order: the
 * same engine, planned with the grid or the programs. */
static const pn_model_engine_t sm_grid_engine = {
    "the paper net of several blocks or with barriers", &pn_sm_engine, sm_args_plan_of
};
static const pn_model_engine_t sm_seq_engine = {
    "the paper net in program order", &pn_sm_engine, sm_args_plan_of
};

pn_status_t pn_sm_engine_prepare(pn_prepared_t *prep, pn_engine_kind_t kind,
                                 const pn_sm_params_t *p, const pn_net_t *net,
                                 const pn_run_opts_t *o, pn_error_t *err)
{
    return pn_model_engine_prepare(prep, kind, &pn_sm_model_engine, p, net, o, err);
}

pn_status_t pn_sm_grid_engine_prepare(pn_prepared_t *prep, pn_engine_kind_t kind,
                                      const pn_sm_params_t *p, const pn_sm_grid_t *g,
                                      const pn_net_t *net, const pn_run_opts_t *o,
                                      pn_error_t *err)
{
    if (pn_sm_grid_is_plain(g))
        return pn_sm_engine_prepare(prep, kind, p, net, o, err);
    const sm_args_t a = { p, g, NULL };
    return pn_model_engine_prepare(prep, kind, &sm_grid_engine, &a, net, o, err);
}

pn_status_t pn_sm_seq_engine_prepare(pn_prepared_t *prep, pn_engine_kind_t kind,
                                     const pn_sm_params_t *p, const pn_sm_seq_t *seq,
                                     const pn_net_t *net, const pn_run_opts_t *o,
                                     pn_error_t *err)
{
    const sm_args_t a = { p, NULL, seq };
    return pn_model_engine_prepare(prep, kind, &sm_seq_engine, &a, net, o, err);
}

pn_status_t pn_sm_engine_run(pn_engine_kind_t kind, const pn_sm_params_t *p,
                             const pn_net_t *net, uint64_t seed, const pn_run_opts_t *o,
                             pn_run_result_t *res, pn_error_t *err)
{
    pn_prepared_t prep;
    pn_status_t st = pn_sm_engine_prepare(&prep, kind, p, net, o, err);
    if (st == PN_OK)
        st = pn_engine_run_prepared(&prep, seed, res, err);
    pn_engine_release(&prep);
    return st;
}
