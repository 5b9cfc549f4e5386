/* pn_engine_sm.c - the SM net compiled: an exact event-driven simulation of
 * the net of ../shared/spec/wpnm.md, one state machine per warp.
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
#include "pn_engine.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pn_rng.h"
#include "pn_sm.h"

/* ---- recognising an SM net -------------------------------------------------- */

struct pn_sm_plan {
    pn_sm_params_t params;
    pn_warp_counts_t *warps;
};

void pn_sm_plan_free(pn_sm_plan_t *pl)
{
    if (pl) {
        free(pl->warps);
        free(pl);
    }
}

/* Same places, transitions, names, markings and arcs. */
static int same_net(const pn_net_t *a, const pn_net_t *b)
{
    if (a->n_places != b->n_places || a->n_trans != b->n_trans)
        return 0;
    for (uint32_t p = 0; p < a->n_places; p++)
        if (a->m0[p] != b->m0[p] || strcmp(a->place_name[p], b->place_name[p]) != 0)
            return 0;
    for (uint32_t t = 0; t < a->n_trans; t++)
        if (strcmp(a->trans_name[t], b->trans_name[t]) != 0)
            return 0;
    size_t ni = a->in_off[a->n_trans], no = a->out_off[a->n_trans], nh = a->inh_off[a->n_trans];
    return ni == b->in_off[b->n_trans] && no == b->out_off[b->n_trans] &&
           nh == b->inh_off[b->n_trans] &&
           memcmp(a->in_off, b->in_off, ((size_t)a->n_trans + 1) * sizeof *a->in_off) == 0 &&
           memcmp(a->out_off, b->out_off, ((size_t)a->n_trans + 1) * sizeof *a->out_off) == 0 &&
           memcmp(a->inh_off, b->inh_off, ((size_t)a->n_trans + 1) * sizeof *a->inh_off) == 0 &&
           memcmp(a->in, b->in, ni * sizeof *a->in) == 0 &&
           memcmp(a->out, b->out, no * sizeof *a->out) == 0 &&
           memcmp(a->inh, b->inh, nh * sizeof *a->inh) == 0;
}

static uint32_t out_weight(const pn_net_t *net, int64_t t, int64_t p)
{
    if (t < 0 || p < 0)
        return 0;
    for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1]; i++)
        if (net->out[i].place == (uint32_t)p)
            return net->out[i].weight;
    return 0;
}

pn_status_t pn_sm_plan_new(const pn_net_t *net, pn_sm_plan_t **out, pn_error_t *err)
{
    *out = NULL;
    const char *why = "its size is not 18 places and 15 transitions per warp plus 2 and 1";
    if (!net->frozen)
        return pn_error_set(err, PN_EINVAL, "cannot simulate a net that is not frozen");
    if (net->n_places < 20 || (net->n_places - 2) % 18 != 0 ||
        net->n_trans != (net->n_places - 2) / 18 * 15 + 1)
        goto not_sm;
    uint32_t warps = (net->n_places - 2) / 18;
    pn_sm_plan_t *pl = calloc(1, sizeof *pl);
    if (!pl || !(pl->warps = calloc(warps, sizeof *pl->warps))) {
        pn_sm_plan_free(pl);
        return pn_error_set(err, PN_ENOMEM, "out of memory planning an SM net");
    }
    int64_t p0 = pn_net_find_place(net, "p0");
    why = "it has no place p0 or no warp w0";
    pl->params.schedulers = p0 >= 0 && net->m0[p0] <= UINT32_MAX ? (uint32_t)net->m0[p0] : 0;
    pl->params.l1 = out_weight(net, pn_net_find_transition(net, "w0.t5"),
                               pn_net_find_place(net, "w0.p13"));
    pl->params.l2 = out_weight(net, pn_net_find_transition(net, "w0.t6"),
                               pn_net_find_place(net, "w0.p16"));
    pl->params.n_warps = warps;
    pl->params.warps = pl->warps;
    for (uint32_t w = 0; w < warps; w++) {
        /* layout of pn_sm_build: p0, pw, then 18 places per warp; p5, p7, p9 */
        uint32_t base = 2 + 18 * w;
        pl->warps[w] = (pn_warp_counts_t){ net->m0[base + 4], net->m0[base + 6], net->m0[base + 8] };
    }
    pn_net_t ref;
    pn_net_init(&ref);
    int same = pl->params.schedulers >= 1 && pl->params.l1 >= 1 && pl->params.l2 >= 1 &&
               pn_sm_build(&ref, &pl->params, NULL, NULL) == PN_OK && same_net(net, &ref);
    pn_net_destroy(&ref);
    why = "its arcs, names or markings differ from the net pn_sm_build makes";
    if (!same) {
        pn_sm_plan_free(pl);
        goto not_sm;
    }
    *out = pl;
    return PN_OK;
not_sm:
    return pn_error_set(err, PN_EINVAL, "the sm engine runs only SM nets generated from a "
                        "kernel config, and this net is not one (%s); use --engine fast", why);
}

/* ---- the simulation ----------------------------------------------------------- */

enum { EV_P0 = 1, EV_SEL = 2 };     /* a scheduler comes back; the warp selects */

typedef struct sm_event {
    uint64_t step;
    uint32_t warp;
    uint32_t what;
} sm_event_t;

typedef struct sm_run {
    sm_event_t *heap;
    size_t n_heap;
    uint32_t *sel, n_sel;         /* warps selecting at this step */
    uint32_t *ready, n_ready;     /* warps holding a selected instruction */
    uint8_t *kind;                /* per warp: the kind it selected */
    pn_warp_counts_t *left;       /* per warp: instructions still to select */
} sm_run_t;

static void ev_push(sm_run_t *r, uint64_t step, uint32_t warp, uint32_t what)
{
    size_t i = r->n_heap++;
    while (i > 0 && r->heap[(i - 1) / 2].step > step) {
        r->heap[i] = r->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->heap[i] = (sm_event_t){ step, warp, what };
}

static sm_event_t ev_pop(sm_run_t *r)
{
    sm_event_t top = r->heap[0], last = r->heap[--r->n_heap];
    size_t i = 0, n = r->n_heap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && r->heap[c + 1].step < r->heap[c].step)
            c++;
        if (r->heap[c].step >= last.step)
            break;
        r->heap[i] = r->heap[c];
        i = c;
    }
    if (n)
        r->heap[i] = last;
    return top;
}

pn_status_t pn_engine_sm_run_plan(const pn_sm_plan_t *pl, uint64_t seed, const pn_run_opts_t *o,
                                  pn_run_result_t *res, pn_error_t *err)
{
    const pn_sm_params_t *p = &pl->params;
    uint32_t W = p->n_warps;
    sm_run_t r;
    memset(&r, 0, sizeof r);
    r.heap = malloc(2 * (size_t)W * sizeof *r.heap + sizeof *r.heap);
    r.sel = malloc((size_t)W * sizeof *r.sel);
    r.ready = malloc((size_t)W * sizeof *r.ready);
    r.kind = malloc(W);
    r.left = malloc((size_t)W * sizeof *r.left);
    pn_status_t st = PN_OK;
    if (!r.heap || !r.sel || !r.ready || !r.kind || !r.left) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory for a run");
        goto done;
    }
    memcpy(r.left, p->warps, (size_t)W * sizeof *r.left);
    pn_rng_t rng;
    pn_rng_seed(&rng, seed);
    uint64_t s = 0, idle = 0;
    uint64_t free_sched = p->schedulers;
    uint32_t alive = W;
    for (uint32_t w = 0; w < W; w++)
        r.sel[r.n_sel++] = w;                    /* p2 and p3 start marked */

    while (alive > 0) {
        while (r.n_heap && r.heap[0].step <= s) {
            sm_event_t e = ev_pop(&r);
            if (e.what & EV_P0)
                free_sched++;
            if (e.what & EV_SEL)
                r.sel[r.n_sel++] = e.warp;
        }
        if (r.n_sel == 0 && (r.n_ready == 0 || free_sched == 0)) {
            /* nothing but forced moves until the next event */
            if (r.n_heap == 0 || r.heap[0].step > o->max_steps) {
                st = PN_ELIMIT;
                break;
            }
            uint64_t k = r.heap[0].step - s;
            if (r.n_ready == 0 && free_sched > 0)
                idle += k;                       /* t0: nobody holds p2 */
            s += k;
            continue;
        }
        if (s >= o->max_steps) {
            st = PN_ELIMIT;
            break;
        }
        /* issue: the ready warps compete for the free schedulers */
        uint32_t n_issue = r.n_ready <= free_sched ? r.n_ready : (uint32_t)free_sched;
        for (uint32_t i = 0; i < n_issue; i++) {
            uint32_t j = n_issue == r.n_ready ? i : i + pn_rng_below(&rng, r.n_ready - i);
            uint32_t w = r.ready[j];
            r.ready[j] = r.ready[i];
            r.ready[i] = w;
            switch (r.kind[w]) {
            case 0:  ev_push(&r, s + 3, w, EV_P0 | EV_SEL); break;
            case 1:  ev_push(&r, s + 4 + p->l2, w, EV_P0 | EV_SEL); break;
            default: ev_push(&r, s + 2, w, EV_P0);
                     ev_push(&r, s + 4 + p->l1, w, EV_SEL); break;
            }
        }
        free_sched -= n_issue;
        if (n_issue && n_issue < r.n_ready)
            memmove(r.ready, r.ready + n_issue, (r.n_ready - n_issue) * sizeof *r.ready);
        r.n_ready -= n_issue;
        /* select: uniform among the kinds left, or terminate */
        for (uint32_t i = 0; i < r.n_sel; i++) {
            uint32_t w = r.sel[i];
            pn_warp_counts_t *c = &r.left[w];
            uint32_t n_kinds = (c->arith > 0) + (c->shared > 0) + (c->global > 0);
            if (n_kinds == 0) {
                alive--;
                continue;
            }
            uint32_t pick = pn_rng_below(&rng, n_kinds);
            uint8_t k = 0;
            uint64_t *cnt[3] = { &c->arith, &c->shared, &c->global };
            for (k = 0; k < 3; k++)
                if (*cnt[k] > 0 && pick-- == 0)
                    break;
            (*cnt[k])--;
            r.kind[w] = k;
            r.ready[r.n_ready++] = w;
        }
        r.n_sel = 0;
        s++;
    }
    if (st == PN_ELIMIT)
        pn_error_set(err, PN_ELIMIT, "net '%s' (seed %" PRIu64 ") reached no dead marking "
                     "within max_steps = %" PRIu64 " steps",
                     o->net_name ? o->net_name : "?", seed, o->max_steps);
    res->seed = seed;
    res->steps = s;
    res->idle_steps = idle;
    /* every instruction completes with a fixed number of firings */
    res->firings = idle;
    for (uint32_t w = 0; w < W; w++)
        res->firings += 4 * p->warps[w].arith + (5 + (uint64_t)p->l1) * p->warps[w].global +
                        (5 + (uint64_t)p->l2) * p->warps[w].shared + 1;
done:
    free(r.heap);
    free(r.sel);
    free(r.ready);
    free(r.kind);
    free(r.left);
    return st;
}

pn_status_t pn_engine_sm_run(const pn_net_t *net, uint64_t seed, const pn_run_opts_t *o,
                             pn_run_result_t *res, pn_error_t *err)
{
    pn_sm_plan_t *pl;
    PN_CHECK(pn_sm_plan_new(net, &pl, err));
    pn_status_t st = pn_engine_sm_run_plan(pl, seed, o, res, err);
    pn_sm_plan_free(pl);
    return st;
}
