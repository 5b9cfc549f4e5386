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

/* Pending events in a calendar ring: an event is never more than
 * max(l1, l2) + 4 steps ahead, so with ring >= that, bucket step % ring holds
 * exactly the events of one step, and a bitmap of non-empty buckets finds
 * the next event in O(ring / 64). Pushing and popping are O(1). */
typedef struct sm_run {
    uint64_t ring;                /* a power of two above every event's delay */
    int32_t *head;                /* ring buckets: first event, -1 when empty */
    uint64_t *bits;               /* non-empty buckets */
    int32_t *next;                /* per event slot (2 per warp): the chain */
    uint32_t *what;
    size_t n_events;
    uint32_t *sel, n_sel;         /* warps selecting at this step */
    uint32_t *ready, n_ready;     /* warps holding a selected instruction */
    uint8_t *kind;                /* per warp: the kind it selected */
    pn_warp_counts_t *left;       /* per warp: instructions still to select */
} sm_run_t;

/* Event slot 2w is warp w's scheduler return, 2w+1 its next selection. */
static void ev_push(sm_run_t *r, uint64_t step, uint32_t warp, uint32_t what)
{
    int32_t slot = (int32_t)(2 * warp + (what == EV_SEL));
    uint64_t b = step & (r->ring - 1);
    r->what[slot] = what;
    r->next[slot] = r->head[b];
    r->head[b] = slot;
    r->bits[b >> 6] |= UINT64_C(1) << (b & 63);
    r->n_events++;
}

/* Steps from s to the next pending event (there is one). */
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

pn_status_t pn_engine_sm_run_plan(const pn_sm_plan_t *pl, uint64_t seed, const pn_run_opts_t *o,
                                  pn_run_result_t *res, pn_error_t *err)
{
    const pn_sm_params_t *p = &pl->params;
    uint32_t W = p->n_warps;
    sm_run_t r;
    memset(&r, 0, sizeof r);
    uint64_t delay = 4 + (uint64_t)(p->l1 > p->l2 ? p->l1 : p->l2);
    for (r.ring = 64; r.ring <= delay; r.ring *= 2)
        ;
    r.head = malloc(r.ring * sizeof *r.head);
    r.bits = calloc(r.ring / 64, sizeof *r.bits);
    r.next = malloc(2 * (size_t)W * sizeof *r.next);
    r.what = malloc(2 * (size_t)W * sizeof *r.what);
    r.sel = malloc((size_t)W * sizeof *r.sel);
    r.ready = malloc((size_t)W * sizeof *r.ready);
    r.kind = malloc(W);
    r.left = malloc((size_t)W * sizeof *r.left);
    pn_status_t st = PN_OK;
    if (!r.head || !r.bits || !r.next || !r.what || !r.sel || !r.ready || !r.kind || !r.left) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory for a run");
        goto done;
    }
    memcpy(r.left, p->warps, (size_t)W * sizeof *r.left);
    for (uint64_t b = 0; b < r.ring; b++)
        r.head[b] = -1;
    pn_rng_t rng;
    pn_rng_seed(&rng, seed);
    uint64_t s = 0, idle = 0;
    uint64_t free_sched = p->schedulers;
    uint32_t alive = W;
    for (uint32_t w = 0; w < W; w++)
        r.sel[r.n_sel++] = w;                    /* p2 and p3 start marked */

    while (alive > 0) {
        uint64_t b = s & (r.ring - 1);
        for (int32_t e = r.head[b]; e >= 0; e = r.next[e]) {
            if (r.what[e] & EV_P0)
                free_sched++;
            if (r.what[e] & EV_SEL)
                r.sel[r.n_sel++] = (uint32_t)e / 2;
            r.n_events--;
        }
        r.head[b] = -1;
        r.bits[b >> 6] &= ~(UINT64_C(1) << (b & 63));
        if (r.n_sel == 0 && (r.n_ready == 0 || free_sched == 0)) {
            /* nothing but forced moves until the next event */
            uint64_t k = r.n_events ? ev_next(&r, s) : 0;
            if (k == 0 || s + k > o->max_steps) {
                st = PN_ELIMIT;
                break;
            }
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
        /* drop the issued front: the last entries fill their slots, O(issued);
         * the order of the ready list never matters, the draws are uniform */
        uint32_t keep = r.n_ready - n_issue;
        for (uint32_t i = 0; i < n_issue && i < keep; i++)
            r.ready[i] = r.ready[r.n_ready - 1 - i];
        r.n_ready = keep;
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
        pn_engine_limit_error(o, seed, err);
    res->seed = seed;
    res->steps = s;
    res->idle_steps = idle;
    /* every instruction completes with a fixed number of firings */
    res->firings = idle;
    for (uint32_t w = 0; w < W; w++)
        res->firings += 4 * p->warps[w].arith + (5 + (uint64_t)p->l1) * p->warps[w].global +
                        (5 + (uint64_t)p->l2) * p->warps[w].shared + 1;
done:
    free(r.head);
    free(r.bits);
    free(r.next);
    free(r.what);
    free(r.sel);
    free(r.ready);
    free(r.kind);
    free(r.left);
    return st;
}
