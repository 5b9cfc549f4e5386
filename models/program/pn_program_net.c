/* pn_program_net.c - the paper's SM net with a sequencer in place of frame I
 * (models/program/PROGRAM.md): frames II-IV kept arc by arc, the warp walking
 * its program; the sequencer is shared with the pipelined net. */
#include "pn_program_net.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_model_engine.h"
#include "pn_sm_engine.h"

/* ---- the net -------------------------------------------------------------- */

typedef struct builder {
    pn_net_t *net;
    pn_error_t *err;
    uint32_t w;
    const pn_program_ports_t *ports;
} builder_t;

/* The transitions of one selection: one per alternative of the item's kind. */
typedef struct sel {
    uint32_t t[PN_PROGRAM_MAX_ALT];
    uint32_t n;
} sel_t;

static pn_status_t arc(builder_t *b, pn_arc_kind_t kind, uint32_t t, uint32_t p, uint32_t w)
{
    return pn_net_add_arc(b->net, kind, t, p, w, b->err);
}

/* The same arc on every transition of s. */
static pn_status_t sel_arc(builder_t *b, const sel_t *s, pn_arc_kind_t kind, uint32_t p,
                           uint32_t w)
{
    for (uint32_t i = 0; i < s->n; i++)
        PN_CHECK(arc(b, kind, s->t[i], p, w));
    return PN_OK;
}

/* Add the transitions "w<w>.s<j>_<i><suffix>" (with "_a<k>" per alternative
 * when the kind has several) taking the trigger and q, and, per alternative,
 * its count place, and marking `chosen` and the alternative's place. */
static pn_status_t selector(builder_t *b, uint32_t j, uint32_t i, const char *suffix,
                            uint32_t q, const pn_program_item_t *item, sel_t *s)
{
    const pn_program_ports_t *pp = b->ports;
    const uint32_t k = item->kind, n = pp->n_alt[k];
    char name[96];
    s->n = n;
    for (uint32_t a = 0; a < n; a++) {
        if (n > 1)
            snprintf(name, sizeof name, "w%u.s%u_%u%s_a%u", b->w, j + 1, i + 1, suffix, a + 1);
        else
            snprintf(name, sizeof name, "w%u.s%u_%u%s", b->w, j + 1, i + 1, suffix);
        PN_CHECK(pn_net_add_transition(b->net, name, &s->t[a], b->err));
        PN_CHECK(arc(b, PN_ARC_INPUT, s->t[a], pp->trigger, 1));
        PN_CHECK(arc(b, PN_ARC_INPUT, s->t[a], q, 1));
        if (pp->count[k][a] != UINT32_MAX)
            PN_CHECK(arc(b, PN_ARC_INPUT, s->t[a], pp->count[k][a], 1));
        if (pp->chosen != UINT32_MAX)
            PN_CHECK(arc(b, PN_ARC_OUTPUT, s->t[a], pp->chosen, 1));
        PN_CHECK(arc(b, PN_ARC_OUTPUT, s->t[a], pp->out[k][a], 1));
    }
    return PN_OK;
}

/* The transition "w<w>.s<j>_<i><suffix>" with which a warp waiting at sync
 * item (j, i) in place y goes on once its block is released: it gives the
 * trigger and `ready` back (the caller adds where control goes). */
static pn_status_t sync_resume(builder_t *b, uint32_t j, uint32_t i, const char *suffix,
                               uint32_t y, sel_t *s)
{
    const pn_program_ports_t *pp = b->ports;
    s->n = 1;
    PN_CHECK(pn_net_add_transitionf(b->net, &s->t[0], b->err, "w%u.s%u_%u%s", b->w, j + 1, i + 1,
                                    suffix));
    PN_CHECK(arc(b, PN_ARC_INPUT, s->t[0], y, 1));
    PN_CHECK(arc(b, PN_ARC_INPUT, s->t[0], pp->release, 1));
    PN_CHECK(arc(b, PN_ARC_OUTPUT, s->t[0], pp->trigger, 1));
    return arc(b, PN_ARC_OUTPUT, s->t[0], pp->ready, 1);
}

/* Sync item (j, i) at q: "w<w>.s<j>_<i>_arrive" takes the trigger, q and
 * `ready` and marks the block's `arrive` and y, where the warp waits. */
static pn_status_t sync_arrive(builder_t *b, uint32_t j, uint32_t i, uint32_t q, uint32_t y)
{
    const pn_program_ports_t *pp = b->ports;
    uint32_t t;
    PN_CHECK(pn_net_add_transitionf(b->net, &t, b->err, "w%u.s%u_%u_arrive", b->w, j + 1, i + 1));
    PN_CHECK(arc(b, PN_ARC_INPUT, t, pp->trigger, 1));
    PN_CHECK(arc(b, PN_ARC_INPUT, t, q, 1));
    PN_CHECK(arc(b, PN_ARC_INPUT, t, pp->ready, 1));
    PN_CHECK(arc(b, PN_ARC_OUTPUT, t, pp->arrive, 1));
    return arc(b, PN_ARC_OUTPUT, t, y, 1);
}

/* The transition(s) "w<w>.s<j>_<i><suffix>" that move control off item
 * (j, i) at q (the caller adds where it goes): for a sync item, the resume
 * from y once the block is released; otherwise a selection of the item,
 * inhibited by its counter r while the item repeats (r UINT32_MAX: none). */
static pn_status_t leave(builder_t *b, uint32_t j, uint32_t i, const char *suffix, uint32_t q,
                         uint32_t r, uint32_t y, const pn_program_item_t *it, sel_t *t)
{
    if (it->kind == PN_PROGRAM_SYNC)
        return sync_resume(b, j, i, suffix, y, t);
    PN_CHECK(selector(b, j, i, suffix, q, it, t));
    return r != UINT32_MAX ? sel_arc(b, t, PN_ARC_INHIBITOR, r, 1) : PN_OK;
}

/* Output arcs of transitions that move control to item `it` at place q;
 * r, its counter, is used only when the item is counted (mult >= 2). */
static pn_status_t enter(builder_t *b, const sel_t *s, uint32_t q, uint32_t r,
                         const pn_program_item_t *it)
{
    PN_CHECK(sel_arc(b, s, PN_ARC_OUTPUT, q, 1));
    if (it->mult >= 2)
        PN_CHECK(sel_arc(b, s, PN_ARC_OUTPUT, r, it->mult - 1));
    return PN_OK;
}

/* The sequencer of one warp. */
static pn_status_t build_sequencer(builder_t *b, const pn_program_t *prog)
{
    pn_net_t *net = b->net;
    char name[96];
    uint32_t n = prog->n_segs;
    /* per segment: first place id of its q/r block, its counter place */
    uint32_t *qbase = calloc(n ? n : 1, sizeof *qbase), *cpl = calloc(n ? n : 1, sizeof *cpl);
    pn_status_t st = PN_OK;
    int first = 1;
    if (!qbase || !cpl) {
        st = pn_error_set(b->err, PN_ENOMEM, "out of memory");
        goto done;
    }
    /* places: q<j>_<i> (and r<j>_<i> after it when mult >= 2, y<j>_<i> for a
     * sync), then c<j> */
    for (uint32_t j = 0; j < n && st == PN_OK; j++) {
        const pn_program_seg_t *s = &prog->segs[j];
        if (s->repeat == 0)
            continue;
        qbase[j] = net->n_places;
        for (uint32_t i = 0; i < s->n_body && st == PN_OK; i++) {
            const pn_program_item_t *it = &s->body[i];
            int start = first && i == 0;
            snprintf(name, sizeof name, "w%u.q%u_%u", b->w, j + 1, i + 1);
            st = pn_net_add_place(net, name, start ? 1 : 0, NULL, b->err);
            if (st == PN_OK && it->mult >= 2) {
                snprintf(name, sizeof name, "w%u.r%u_%u", b->w, j + 1, i + 1);
                st = pn_net_add_place(net, name, start ? it->mult - 1 : 0, NULL, b->err);
            }
            if (st == PN_OK && it->kind == PN_PROGRAM_SYNC) {
                snprintf(name, sizeof name, "w%u.y%u_%u", b->w, j + 1, i + 1);
                st = pn_net_add_place(net, name, 0, NULL, b->err);
            }
        }
        snprintf(name, sizeof name, "w%u.c%u", b->w, j + 1);
        if (st == PN_OK)
            st = pn_net_add_place(net, name, s->repeat - 1, &cpl[j], b->err);
        first = 0;
    }
    /* transitions, item by item */
    for (uint32_t j = 0; j < n && st == PN_OK; j++) {
        const pn_program_seg_t *s = &prog->segs[j];
        if (s->repeat == 0)
            continue;
        uint32_t next = j + 1;
        while (next < n && prog->segs[next].repeat == 0)
            next++;
        uint32_t p = qbase[j];
        for (uint32_t i = 0; i < s->n_body && st == PN_OK; i++) {
            const pn_program_item_t *it = &s->body[i];
            const int sync = it->kind == PN_PROGRAM_SYNC;
            /* r: the counter of a counted item; y: where a sync's warp waits */
            uint32_t q = p, r = it->mult >= 2 ? p + 1 : UINT32_MAX, y = sync ? p + 1 : UINT32_MAX;
            sel_t t;
            p += it->mult >= 2 || sync ? 2 : 1;
            if (sync) {
                /* arrive at the barrier; the warp leaves it (below) once released */
                st = sync_arrive(b, j, i, q, y);
            } else if (it->mult >= 2) {
                /* s_rep: the item again while its counter r holds tokens */
                st = selector(b, j, i, "_rep", q, it, &t);
                if (st == PN_OK) st = sel_arc(b, &t, PN_ARC_INPUT, r, 1);
                if (st == PN_OK) st = sel_arc(b, &t, PN_ARC_OUTPUT, q, 1);
            }
            if (st != PN_OK)
                break;
            if (i + 1 < s->n_body) {
                /* s: on to the next item */
                st = leave(b, j, i, "", q, r, y, it, &t);
                if (st == PN_OK) st = enter(b, &t, p, p + 1, &s->body[i + 1]);
                continue;
            }
            /* last item: loop back while c holds tokens, else exit */
            st = leave(b, j, i, "_loop", q, r, y, it, &t);
            if (st == PN_OK) st = sel_arc(b, &t, PN_ARC_INPUT, cpl[j], 1);
            if (st == PN_OK) st = enter(b, &t, qbase[j], qbase[j] + 1, &s->body[0]);
            if (st == PN_OK) st = leave(b, j, i, "_exit", q, r, y, it, &t);
            if (st == PN_OK) st = sel_arc(b, &t, PN_ARC_INHIBITOR, cpl[j], 1);
            if (st == PN_OK)
                st = next < n ? enter(b, &t, qbase[next], qbase[next] + 1,
                                      &prog->segs[next].body[0])
                              : sel_arc(b, &t, PN_ARC_OUTPUT, b->ports->end, 1);
        }
    }
done:
    free(qbase);
    free(cpl);
    return st;
}

pn_status_t pn_program_net_sequencer(pn_net_t *net, uint32_t w, const pn_program_t *prog,
                                     const pn_program_ports_t *ports, pn_error_t *err)
{
    for (int k = 0; k < PN_PROGRAM_KINDS; k++)
        if (ports->n_alt[k] > PN_PROGRAM_MAX_ALT)
            return pn_error_set(err, PN_EINVAL, "a program kind takes at most %d alternatives",
                                PN_PROGRAM_MAX_ALT);
    for (uint32_t j = 0; j < prog->n_segs; j++)
        for (uint32_t i = 0; i < prog->segs[j].n_body; i++) {
            unsigned k = prog->segs[j].body[i].kind;
            if (k >= PN_PROGRAM_KINDS || (k != PN_PROGRAM_SYNC && ports->n_alt[k] == 0))
                return pn_error_set(err, PN_EINVAL, "warp %u: segment %u, item %u: this net "
                                    "has no %s instructions", w, j + 1, i + 1,
                                    pn_program_kind_name(k));
        }
    if (pn_program_syncs(prog) > 0 && (ports->ready == UINT32_MAX ||
                                       ports->arrive == UINT32_MAX ||
                                       ports->release == UINT32_MAX))
        return pn_error_set(err, PN_EINVAL, "warp %u: sync in a program needs a net with "
                            "barriers", w);
    builder_t b = { .net = net, .err = err, .w = w, .ports = ports };
    return build_sequencer(&b, prog);
}


static pn_status_t check_programs(uint32_t schedulers, uint32_t l1, uint32_t l2,
                                  uint32_t n_warps, const pn_program_t *programs,
                                  pn_error_t *err)
{
    if (schedulers < 1)
        return pn_error_set(err, PN_EINVAL, "schedulers must be at least 1, got %u", schedulers);
    if (l1 < 1 || l1 > PN_SM_MAX_LATENCY)
        return pn_error_set(err, PN_EINVAL, "global latency l1 must be between 1 and %u, got %u",
                            PN_SM_MAX_LATENCY, l1);
    if (l2 < 1 || l2 > PN_SM_MAX_LATENCY)
        return pn_error_set(err, PN_EINVAL, "shared latency l2 must be between 1 and %u, got %u",
                            PN_SM_MAX_LATENCY, l2);
    if (n_warps < 1 || !programs)
        return pn_error_set(err, PN_EINVAL, "an SM net needs at least one warp");
    for (uint32_t w = 0; w < n_warps; w++) {
        const pn_program_t *p = &programs[w];
        pn_warp_counts_t c;
        if (p->n_segs && !p->segs)
            return pn_error_set(err, PN_EINVAL, "warp %u: program without segments", w);
        for (uint32_t j = 0; j < p->n_segs; j++) {
            const pn_program_seg_t *s = &p->segs[j];
            if (s->n_body == 0 || !s->body)
                return pn_error_set(err, PN_EINVAL, "warp %u: segment %u has an empty body",
                                    w, j + 1);
            if (s->repeat > PN_SM_MAX_COUNT)
                return pn_error_set(err, PN_ELIMIT, "warp %u: segment %u repeats more than "
                                    "%" PRIu64 " times", w, j + 1, (uint64_t)PN_SM_MAX_COUNT);
            for (uint32_t i = 0; i < s->n_body; i++)
                if (s->body[i].kind >= PN_PROGRAM_KINDS || s->body[i].mult < 1)
                    return pn_error_set(err, PN_EINVAL, "warp %u: segment %u, item %u: bad "
                                        "kind or multiplier", w, j + 1, i + 1);
        }
        pn_status_t st = pn_program_counts(p, &c, err);
        if (st != PN_OK) {
            char who[32];
            snprintf(who, sizeof who, "warp %u", w);
            pn_error_prefix(err, who);
            return st;
        }
        if (pn_program_syncs(p) != pn_program_syncs(&programs[0]))
            return pn_error_set(err, PN_EINVAL, "warp %u passes %" PRIu64 " barriers and warp 0 "
                                "%" PRIu64 "; every warp of a block passes the same barriers", w,
                                pn_program_syncs(p), pn_program_syncs(&programs[0]));
    }
    return PN_OK;
}

pn_status_t pn_program_net_build(pn_net_t *net, uint32_t schedulers, uint32_t l1, uint32_t l2,
                                uint32_t n_warps, const pn_program_t *programs,
                                pn_sm_layout_t *layout, pn_error_t *err)
{
    if (!net)
        return pn_error_set(err, PN_EINVAL, "pn_program_net_build: NULL net");
    PN_CHECK(check_programs(schedulers, l1, l2, n_warps, programs, err));
    pn_sm_layout_t lay;
    char name[64];
    PN_CHECK(pn_sm_add_global(net, schedulers, n_warps, &lay, err));
    /* barriers (sync items): the block's arrivals, released all at once */
    uint32_t arr = UINT32_MAX, rel = UINT32_MAX, release;
    if (pn_program_syncs(&programs[0]) > 0) {
        PN_CHECK(pn_net_add_place(net, "b0.arr", 0, &arr, err));
        PN_CHECK(pn_net_add_place(net, "b0.rel", 0, &rel, err));
        PN_CHECK(pn_net_add_transition(net, "b0.release", &release, err));
        PN_CHECK(pn_net_add_arc(net, PN_ARC_INPUT, release, arr, n_warps, err));
        PN_CHECK(pn_net_add_arc(net, PN_ARC_OUTPUT, release, rel, n_warps, err));
        lay.warp_place0 = net->n_places;
        lay.warp_trans0 = net->n_trans;
    }
    for (uint32_t w = 0; w < n_warps; w++) {
        const pn_program_t *prog = &programs[w];
        pn_sm_warp_ids_t ids;
        PN_CHECK(pn_sm_add_warp(net, &lay, w, NULL, l1, l2, &ids, err));
        /* selections take p3 and mark p4 and p6, p8 or p10 */
        pn_program_ports_t pp = { .trigger = ids.p[3], .chosen = ids.p[4],
                                  .ready = ids.p[2], .arrive = arr,
                                  .release = rel };
        /* sfu runs as arith, stores as their space's accesses (the paper's
         * three kinds, as the config folds counts) */
        const uint32_t kind_place[PN_KIND_COUNT] = { ids.p[6], ids.p[8], ids.p[10] };
        for (unsigned k = 0; k < PN_PROGRAM_KINDS; k++) {
            pp.n_alt[k] = k != PN_PROGRAM_SYNC;
            if (pp.n_alt[k])
                pp.out[k][0] = kind_place[pn_program_paper_kind(k)];
            pp.count[k][0] = UINT32_MAX;
        }
        /* t16 ends the warp once the sequencer has reached `end` */
        snprintf(name, sizeof name, "w%u.end", w);
        PN_CHECK(pn_net_add_place(net, name, pn_program_is_empty(prog) ? 1 : 0, &pp.end, err));
        PN_CHECK(pn_net_add_arc(net, PN_ARC_INPUT, ids.t[PN_SM_WARP_TRANS - 1], pp.end, 1, err));
        PN_CHECK(pn_program_net_sequencer(net, w, prog, &pp, err));
    }
    PN_CHECK(pn_net_freeze(net, err));
    if (layout)
        *layout = lay;
    return PN_OK;
}

/* a sync item passes to the sm engine as it is */
_Static_assert(PN_SM_SEQ_SYNC == PN_PROGRAM_SYNC, "the sm engine's barrier item is sync");

pn_status_t pn_program_net_engine(pn_prepared_t *p, pn_engine_kind_t kind,
                                  const pn_sm_params_t *sm, const pn_program_t *programs,
                                  const pn_net_t *net, const pn_run_opts_t *o,
                                  pn_error_t *err)
{
    memset(p, 0, sizeof *p);
    const uint32_t W = sm->n_warps;
    size_t ns = 0, ni = 0;
    for (uint32_t w = 0; w < W; w++)
        for (uint32_t j = 0; j < programs[w].n_segs; j++)
            if (programs[w].segs[j].repeat > 0) {
                ns++;
                ni += programs[w].segs[j].n_body;
            }
    if (ns > UINT32_MAX || ni > UINT32_MAX)
        return pn_error_set(err, PN_ELIMIT, "programs too long for the sm engine");
    uint32_t *off = malloc(((size_t)W + 1) * sizeof *off);
    pn_sm_seq_seg_t *segs = malloc((ns + 1) * sizeof *segs);
    pn_sm_seq_item_t *items = malloc((ni + 1) * sizeof *items);
    pn_status_t st = PN_OK;
    if (!off || !segs || !items) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory for %u programs", W);
        goto done;
    }
    ns = ni = 0;
    for (uint32_t w = 0; w < W; w++) {
        off[w] = (uint32_t)ns;
        for (uint32_t j = 0; j < programs[w].n_segs; j++) {
            const pn_program_seg_t *sg = &programs[w].segs[j];
            if (sg->repeat == 0)
                continue;
            segs[ns++] = (pn_sm_seq_seg_t){ sg->repeat, (uint32_t)ni, sg->n_body };
            for (uint32_t i = 0; i < sg->n_body; i++)
                items[ni++] = (pn_sm_seq_item_t){
                    (uint8_t)pn_program_paper_kind(sg->body[i].kind), sg->body[i].mult };
        }
    }
    off[W] = (uint32_t)ns;
    const pn_sm_seq_t seq = { off, segs, items };
    st = pn_sm_seq_engine_prepare(p, kind, sm, &seq, net, o, err);
done:
    free(off);
    free(segs);
    free(items);
    return st;
}
