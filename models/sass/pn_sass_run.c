/* pn_sass_run.c - the sass engine's runs: the dependency rule on the
 * pipelined SM, step by step over the steps in which some warp can act
 * (doc/dependencies.md); it plays the net of pn_sass_net.c. */
#include <stdlib.h>
#include <string.h>

#include "pn_rng.h"
#include "pn_sass_sim.h"
#include "pn_sass_sim_i.h"

typedef struct bucket {
    uint64_t level, at;         /* level at the start of step `at`, less its takes */
    uint32_t refill;            /* the refill decided at `at`, on the level before its takes */
} bucket_t;

typedef struct warp {
    uint32_t gw, pc, slot;
    int state;                  /* 0 running, 1 at a barrier, 2 done, 3 no block */
    uint64_t next_ok, drain, wake;
    pn_sass_levels_t lev;       /* its level pattern */
    uint64_t nload;             /* loads that took a level */
    uint64_t *k;                /* per branch: decisions taken */
    uint64_t *ldone;            /* per line record: when its leader's line arrives */
    uint64_t ready[N_REGS];
} warp_t;

typedef struct slot {
    uint32_t block, alive, arrived;
    uint64_t done_at;           /* when its last warp is done */
    uint64_t gone_at;           /* when its last exited warp is done */
    int busy;
} slot_t;

/* The bucket's level at the start of step t, as the net's refill has it: in
 * every step it refills by R when its room (cap - level) at the start of the
 * step, before the step's takes, holds at least R. */
static uint64_t level_at(bucket_t *b, uint64_t t, uint32_t rate, uint32_t cap)
{
    if (t > b->at && rate) {
        b->level += b->refill;
        uint64_t room = cap > b->level ? cap - b->level : 0;
        uint64_t k = room / rate, d = t - b->at - 1;
        b->level += (uint64_t)rate * (k < d ? k : d);
        b->at = t;
        b->refill = cap - b->level >= rate ? rate : 0;
    }
    return b->level;
}

typedef struct run {
    const pn_sass_sim_t *s;
    pn_rng_t rng;
    warp_t *w;                  /* resident * W */
    slot_t *slot;
    bucket_t *bk;               /* per partition alu, sfu; then lsu, shared, dram, l2, atom */
    uint64_t *inflight;         /* completion steps of outstanding loads (a heap) */
    uint32_t n_inflight;
    uint32_t next_block, blocks_done;
    uint64_t launch_ok, issued;  /* the next block may start from launch_ok */
} run_t;

static void heap_push(uint64_t *h, uint32_t *n, uint64_t v)
{
    uint32_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] > v) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

static void heap_pop(uint64_t *h, uint32_t *n)
{
    uint64_t v = h[--*n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

/* The earliest step warp w's next op may issue, registers alone. */
static void rewake(const pn_sass_sim_t *s, warp_t *w)
{
    const sop_t *o = &s->ops[w->pc];
    uint64_t t = w->next_ok;
    for (int i = 0; i < o->n_regs; i++)
        if (w->ready[o->reg[i]] > t)
            t = w->ready[o->reg[i]];
    w->wake = t;
}

/* Block next_block starts in slot sl at t: its warps issue from t (the first
 * resident blocks, at step 0) or from t + 1. */
static void start_block(run_t *r, uint32_t sl, uint64_t t, int first)
{
    const pn_sass_sim_t *s = r->s;
    slot_t *b = &r->slot[sl];
    b->block = r->next_block++;
    b->alive = s->W;
    b->arrived = 0;
    b->busy = 1;
    b->gone_at = 0;
    if (!first)
        r->launch_ok = t + (s->launch > 1 ? s->launch : 1);
    size_t nbr = s->plan.n_branches ? s->plan.n_branches : 1;
    for (uint32_t i = 0; i < s->W; i++) {
        warp_t *w = &r->w[sl * s->W + i];
        uint64_t *k = w->k, *ld = w->ldone;
        memset(w, 0, sizeof *w);
        w->k = k;
        w->ldone = ld;
        memset(k, 0, nbr * sizeof *k);
        memset(ld, 0, (s->n_lines ? s->n_lines : 1) * sizeof *ld);
        w->gw = b->block * s->W + i;
        w->slot = sl;
        w->next_ok = first ? t : t + 1;
        for (int q = 0; q < N_REGS; q++)
            w->ready[q] = t;
        pn_sass_warp_levels(s, w->gw, &w->lev);
        rewake(s, w);
    }
}

/* Every warp of slot sl waiting at its barrier goes on at the barrier
 * latency after t, or after the last of its exited warps is done. */
static void release_barrier(run_t *r, uint32_t sl, uint64_t t)
{
    const pn_sass_sim_t *s = r->s;
    if (r->slot[sl].gone_at > t)
        t = r->slot[sl].gone_at;
    for (uint32_t i = 0; i < s->W; i++) {
        warp_t *x = &r->w[sl * s->W + i];
        if (x->state == 1) {
            x->state = 0;
            x->next_ok = t + s->lat_bar;
            rewake(s, x);
        }
    }
    r->slot[sl].arrived = 0;
}

/* A warp of slot sl is done at t: free the slot when it was the last, and
 * release a barrier that only waited for it. */
static void warp_done(run_t *r, warp_t *w, uint64_t t)
{
    slot_t *b = &r->slot[w->slot];
    w->state = 2;
    if (t > b->done_at)
        b->done_at = t;
    if (t > b->gone_at)
        b->gone_at = t;
    if (--b->alive == 0) {
        b->busy = 0;
        r->blocks_done++;
        return;
    }
    if (b->arrived > 0 && b->arrived == b->alive)
        release_barrier(r, w->slot, t);
}

/* Try to issue warp w's op at step t; 1 if it issued. */
/* The first step after t at which a warp refused at t because pipe q holds
 * `have` units and its op needs c could issue: when refills alone bring q to c
 * (takes only lower the levels). Skipping the steps in between changes no
 * outcome: in them it would be refused whatever the order of the candidates. */
static uint64_t refused_until(const pn_sass_sim_t *s, uint64_t t, int q, uint32_t c,
                              uint64_t have)
{
    uint64_t need = c - have, rate = s->rate[q];
    return t + (need <= rate ? 1 : (need + rate - 1) / rate);
}

static int try_issue(run_t *r, warp_t *w, uint64_t t, uint32_t *slots_left)
{
    const pn_sass_sim_t *s = r->s;
    const sop_t *o = &s->ops[w->pc];
    uint32_t part = (w->gw % s->W) % s->partitions;
    if (slots_left[part] == 0)
        return 0;
    int lvl = 0;
    if (pn_sass_op_levels(o)) {
        while (r->n_inflight > 0 && r->inflight[0] <= t)
            heap_pop(r->inflight, &r->n_inflight);
        if (s->inflight && r->n_inflight >= s->inflight) {
            w->wake = r->inflight[0] > t ? r->inflight[0] : t + 1;
            return 0;
        }
        lvl = o->kind == K_ATOMG ? 1 : pn_sass_load_level(&w->lev, w->nload);
    }
    bucket_t *bk[P_N];
    bk[P_ALU] = &r->bk[2 * part];
    bk[P_SFU] = &r->bk[2 * part + 1];
    for (int q = P_LSU; q < P_N; q++)
        bk[q] = &r->bk[2 * s->partitions + (q - P_LSU)];
    uint32_t c[P_N];
    for (int q = 0; q < P_N; q++) {
        c[q] = pn_sass_cost_at(s, o, lvl, q);
        if (c[q] && level_at(bk[q], t, s->rate[q], s->cap[q]) < c[q]) {
            w->wake = s->rate[q] ? refused_until(s, t, q, c[q], bk[q]->level) : t + 1;
            return 0;
        }
    }
    for (int q = 0; q < P_N; q++)
        bk[q]->level -= c[q];
    slots_left[part]--;
    r->issued++;
    uint64_t lat = pn_sass_latency_at(s, o, lvl);
    if (o->follow >= 0) {
        uint64_t at = w->ldone[o->follow];
        if (at > t + lat)
            lat = at - t;
    } else if (pn_sass_op_levels(o)) {
        if (o->kind == K_GLD)
            w->nload++;
        if (s->inflight)
            heap_push(r->inflight, &r->n_inflight, t + lat);
        if (o->lead >= 0)
            w->ldone[o->lead] = t + lat;
    }
    for (int i = o->n_reads; i < o->n_regs; i++)
        w->ready[o->reg[i]] = t + lat;
    /* the warp is done once its results and stores are */
    if (pn_sass_op_drains(o) && t + lat > w->drain)
        w->drain = t + lat;
    w->next_ok = t + 1;
    uint32_t pc = w->pc;
    if (o->branch >= 0) {
        int taken = pn_sass_decide(s, w->gw, o, w->k[o->branch]++);
        if (taken && o->kind == K_EXIT) {
            warp_done(r, w, w->drain > t + 1 ? w->drain : t + 1);
            return 1;
        }
        pc = taken ? (uint32_t)o->target : pc + 1;
        w->next_ok = t + (taken ? o->lat : 1);
    } else if (o->kind == K_EXIT) {
        warp_done(r, w, w->drain > t + 1 ? w->drain : t + 1);
        return 1;
    } else if (o->kind == K_BRA && o->target >= 0) {
        pc = (uint32_t)o->target;
        w->next_ok = t + o->lat;
    } else
        pc++;
    if (pc >= s->n_ops) {
        warp_done(r, w, w->drain > t + 1 ? w->drain : t + 1);
        return 1;
    }
    w->pc = pc;
    if (o->kind == K_BAR) {
        slot_t *b = &r->slot[w->slot];
        w->state = 1;
        if (++b->arrived == b->alive)
            release_barrier(r, w->slot, t);
        return 1;
    }
    rewake(s, w);
    return 1;
}

pn_status_t pn_sass_sim_run(const pn_sass_sim_t *s, uint64_t seed, const pn_run_opts_t *o,
                            pn_run_result_t *res, pn_error_t *err)
{
    memset(res, 0, sizeof *res);
    res->seed = seed;
    run_t r = { .s = s };
    pn_rng_seed(&r.rng, seed);
    uint32_t nw = s->resident * s->W, nbk = 2 * s->partitions + (P_N - P_LSU);
    size_t nbr = s->plan.n_branches ? s->plan.n_branches : 1;
    r.w = calloc(nw, sizeof *r.w);
    r.slot = calloc(s->resident, sizeof *r.slot);
    r.bk = calloc(nbk, sizeof *r.bk);
    r.inflight = calloc(s->inflight ? s->inflight : 1, sizeof *r.inflight);
    uint64_t *kbuf = calloc((size_t)nw * nbr, sizeof *kbuf);
    size_t nln = s->n_lines ? s->n_lines : 1;
    uint64_t *lbuf = calloc((size_t)nw * nln, sizeof *lbuf);
    uint32_t *cand = malloc(nw * sizeof *cand);
    uint32_t *slots_left = malloc(s->partitions * sizeof *slots_left);
    pn_status_t st = PN_OK;
    if (!r.w || !r.slot || !r.bk || !r.inflight || !kbuf || !lbuf || !cand || !slots_left) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < nw; i++)
        r.w[i].k = kbuf + (size_t)i * nbr, r.w[i].ldone = lbuf + (size_t)i * nln,
        r.w[i].state = 3;
    for (uint32_t p = 0; p < s->partitions; p++) {
        r.bk[2 * p].level = s->cap[P_ALU];
        r.bk[2 * p + 1].level = s->cap[P_SFU];
    }
    for (int q = P_LSU; q < P_N; q++)
        r.bk[2 * s->partitions + (q - P_LSU)].level = s->cap[q];
    for (uint32_t b = 0; b < s->resident; b++)
        start_block(&r, b, 0, 1);
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
        for (uint32_t b = 0; b < s->resident && r.next_block < s->blocks; b++)
            if (!r.slot[b].busy && r.slot[b].done_at + 2 <= t &&
                t >= r.launch_ok) {
                start_block(&r, b, t, 0);
                break;
            }
        uint32_t nc = 0;
        for (uint32_t i = 0; i < nw; i++)
            if (r.w[i].state == 0 && r.w[i].wake <= t)
                cand[nc++] = i;
        int issued = 0;
        if (nc > 0) {
            pn_rng_shuffle_u32(&r.rng, cand, nc);
            for (uint32_t p = 0; p < s->partitions; p++)
                slots_left[p] = s->issue;
            /* once every partition's slots are taken the rest would be
             * refused before anything else: stop there */
            const uint64_t slots = (uint64_t)s->partitions * s->issue;
            for (uint32_t c = 0; c < nc && (uint64_t)issued < slots; c++)
                issued += try_issue(&r, &r.w[cand[c]], t, slots_left);
        }
        if (issued) {
            busy_steps++;
            if (t + 1 > end)
                end = t + 1;
        }
        for (uint32_t b = 0; b < s->resident; b++)
            if (r.slot[b].done_at > end)
                end = r.slot[b].done_at;
        /* the next step at which anything can happen */
        uint64_t next = UINT64_MAX;
        int stuck = 0;
        for (uint32_t i = 0; i < nw; i++)
            if (r.w[i].state == 0) {
                if (r.w[i].wake <= t)
                    stuck = 1;
                else if (r.w[i].wake < next)
                    next = r.w[i].wake;
            }
        if (r.next_block < s->blocks)
            for (uint32_t b = 0; b < s->resident; b++)
                if (!r.slot[b].busy) {
                    uint64_t at = r.slot[b].done_at + 2;
                    if (at < r.launch_ok)
                        at = r.launch_ok;
                    if (at < next)
                        next = at;
                }
        if (stuck || next <= t)
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
    res->idle_steps = res->steps > busy_steps ? res->steps - busy_steps : 0;
    res->firings = r.issued + res->idle_steps; /* issues, and t0 in the idle steps */
out:
    free(r.w);
    free(r.slot);
    free(r.bk);
    free(r.inflight);
    free(kbuf);
    free(lbuf);
    free(cand);
    free(slots_left);
    return st;
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

