/* pn_program.c - warp programs, the sequencer net of models/program/PROGRAM.md (frames
 * II-IV of ../shared/spec/wpnm.md kept arc by arc, frame I replaced), and the
 * reordered programs of `pnsim reorder`. */
#include "pn_program.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_model_engine.h"

/* ---- programs ------------------------------------------------------------ */

const char *pn_program_kind_name(unsigned k)
{
    return k < PN_KIND_COUNT ? pn_kind_names[k] : k == PN_PROGRAM_SYNC ? "sync" : "?";
}

uint64_t pn_program_syncs(const pn_program_t *p)
{
    uint64_t n = 0;
    for (uint32_t j = 0; j < p->n_segs; j++)
        for (uint32_t i = 0; i < p->segs[j].n_body; i++)
            n += p->segs[j].body[i].kind == PN_PROGRAM_SYNC ? p->segs[j].repeat : 0;
    return n;
}

void pn_program_init(pn_program_t *p)
{
    memset(p, 0, sizeof *p);
}

void pn_program_destroy(pn_program_t *p)
{
    if (!p)
        return;
    for (uint32_t j = 0; j < p->n_segs; j++)
        free(p->segs[j].body);
    free(p->segs);
    memset(p, 0, sizeof *p);
}

pn_status_t pn_program_add_segment(pn_program_t *p, uint64_t repeat,
                                   const pn_program_item_t *body, uint32_t n,
                                   pn_error_t *err)
{
    if (!p || (n && !body))
        return pn_error_set(err, PN_EINVAL, "pn_program_add_segment: NULL argument");
    if (n == 0)
        return pn_error_set(err, PN_EINVAL, "a program segment needs at least one instruction");
    if (repeat > PN_SM_MAX_COUNT)
        return pn_error_set(err, PN_EINVAL, "a segment's repeat must be at most %" PRIu64
                            ", got %" PRIu64, (uint64_t)PN_SM_MAX_COUNT, repeat);
    for (uint32_t i = 0; i < n; i++) {
        if (body[i].kind > PN_PROGRAM_SYNC)
            return pn_error_set(err, PN_EINVAL, "unknown instruction kind %u", body[i].kind);
        if (body[i].mult < 1)
            return pn_error_set(err, PN_EINVAL, "an instruction's multiplier must be at "
                                "least 1, got 0");
        if (body[i].kind == PN_PROGRAM_SYNC && body[i].mult != 1)
            return pn_error_set(err, PN_EINVAL, "sync takes no multiplier");
    }
    if (p->n_segs == UINT32_MAX)
        return pn_error_set(err, PN_ELIMIT, "too many program segments");
    if (p->n_segs == p->cap) {
        uint32_t cap = p->cap ? (p->cap < UINT32_MAX / 2 ? 2 * p->cap : UINT32_MAX) : 4;
        pn_program_seg_t *s = realloc(p->segs, (size_t)cap * sizeof *s);
        if (!s)
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        p->segs = s;
        p->cap = cap;
    }
    pn_program_item_t *b = malloc((size_t)n * sizeof *b);
    if (!b)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    memcpy(b, body, (size_t)n * sizeof *b);
    p->segs[p->n_segs++] = (pn_program_seg_t){ repeat, b, n };
    return PN_OK;
}

pn_status_t pn_program_counts(const pn_program_t *p, pn_warp_counts_t *out, pn_error_t *err)
{
    uint64_t sum[PN_KIND_COUNT] = {0, 0, 0};
    for (uint32_t j = 0; j < p->n_segs; j++) {
        const pn_program_seg_t *s = &p->segs[j];
        uint64_t per[PN_KIND_COUNT] = {0, 0, 0};
        if (s->repeat == 0)
            continue;
        /* n_body < 2^32 items of at most 2^32 each: no overflow in 64 bits */
        for (uint32_t i = 0; i < s->n_body; i++)
            if (s->body[i].kind < PN_KIND_COUNT)
                per[s->body[i].kind] += s->body[i].mult;
        for (int k = 0; k < PN_KIND_COUNT; k++) {
            if (per[k] && (per[k] > PN_SM_MAX_COUNT / s->repeat ||
                           sum[k] + per[k] * s->repeat > PN_SM_MAX_COUNT))
                return pn_error_set(err, PN_ELIMIT, "the program runs more than %" PRIu64
                                    " %s instructions", (uint64_t)PN_SM_MAX_COUNT,
                                    pn_kind_names[k]);
            sum[k] += per[k] * s->repeat;
        }
    }
    out->arith = sum[PN_KIND_ARITH];
    out->shared = sum[PN_KIND_SHARED];
    out->global = sum[PN_KIND_GLOBAL];
    return PN_OK;
}

pn_status_t pn_program_parse_item(const char *s, size_t len, pn_program_item_t *out,
                                  pn_error_t *err)
{
    char snip[48];
    size_t i = 0, n;
    int kind = -1;
    snprintf(snip, sizeof snip, "%.*s%s", (int)(len > 40 ? 40 : len), s, len > 40 ? "..." : "");
    for (size_t c = 0; c < strlen(snip); c++)
        if ((unsigned char)snip[c] < 0x20 || (unsigned char)snip[c] >= 0x7F)
            snip[c] = '?';
    while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
                       s[i] == '_' || (i > 0 && s[i] >= '0' && s[i] <= '9')))
        i++;
    for (int k = 0; k < 3; k++)
        if (i == strlen(pn_kind_names[k]) && !memcmp(s, pn_kind_names[k], i))
            kind = k;
    if (i == 4 && !memcmp(s, "sync", 4)) {
        size_t e = i;
        while (e < len && s[e] == ' ')
            e++;
        if (e != len)
            return pn_error_set(err, PN_EINVAL, "unexpected text after sync in '%s' (a barrier "
                                "takes no multiplier)", snip);
        out->kind = PN_PROGRAM_SYNC;
        out->mult = 1;
        return PN_OK;
    }
    if (kind < 0) {
        n = i ? i : (len ? 1 : 0);
        if (n == len)
            return pn_error_set(err, PN_EINVAL, "unknown instruction kind '%s' (expected "
                                "arith, shared or global, optionally followed by *K, or sync)",
                                snip);
        return pn_error_set(err, PN_EINVAL, "unknown instruction kind '%.*s' in '%s' (expected "
                            "arith, shared or global, optionally followed by *K, or sync)",
                            (int)(n > 40 ? 40 : n), snip, snip);
    }
    out->kind = (uint8_t)kind;
    out->mult = 1;
    while (i < len && s[i] == ' ')
        i++;
    if (i == len)
        return PN_OK;
    if (s[i] != '*')
        return pn_error_set(err, PN_EINVAL, "unexpected '%c' after the kind in '%s' (expected "
                            "a multiplier *K, K an integer between 1 and %" PRIu64 ")",
                            (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7F ? s[i] : '?',
                            snip, (uint64_t)PN_PROGRAM_MAX_MULT);
    i++;
    while (i < len && s[i] == ' ')
        i++;
    uint64_t v = 0;
    size_t d0 = i;
    while (i < len && s[i] >= '0' && s[i] <= '9' && v <= PN_PROGRAM_MAX_MULT)
        v = v * 10 + (uint64_t)(s[i++] - '0');
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    if (i == d0 || i != len || v < 1 || v > PN_PROGRAM_MAX_MULT)
        return pn_error_set(err, PN_EINVAL, "bad multiplier in '%s': expected *K with K an "
                            "integer literal between 1 and %" PRIu64, snip,
                            (uint64_t)PN_PROGRAM_MAX_MULT);
    out->mult = (uint32_t)v;
    return PN_OK;
}

void pn_program_warp_size(const pn_program_t *p, uint32_t *places, uint32_t *transitions)
{
    uint64_t extra = 0;
    for (uint32_t j = 0; j < p->n_segs; j++) {
        if (p->segs[j].repeat == 0)
            continue;
        extra += (uint64_t)p->segs[j].n_body + 1;
        for (uint32_t i = 0; i < p->segs[j].n_body; i++)
            extra += p->segs[j].body[i].mult >= 2 || p->segs[j].body[i].kind == PN_PROGRAM_SYNC;
    }
    if (extra > UINT32_MAX - 16)
        extra = UINT32_MAX - 16;
    if (places)
        *places = 16 + (uint32_t)extra;
    if (transitions)
        *transitions = 12 + (uint32_t)extra;
}

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

pn_status_t pn_program_add_sequencer(pn_net_t *net, uint32_t w, const pn_program_t *prog,
                                     const pn_program_ports_t *ports, pn_error_t *err)
{
    for (int k = 0; k < 3; k++)
        if (ports->n_alt[k] < 1 || ports->n_alt[k] > PN_PROGRAM_MAX_ALT)
            return pn_error_set(err, PN_EINVAL, "a program kind needs 1 to %d alternatives",
                                PN_PROGRAM_MAX_ALT);
    if (pn_program_syncs(prog) > 0 && (ports->ready == UINT32_MAX ||
                                       ports->arrive == UINT32_MAX ||
                                       ports->release == UINT32_MAX))
        return pn_error_set(err, PN_EINVAL, "warp %u: sync in a program needs a net with "
                            "barriers", w);
    builder_t b = { .net = net, .err = err, .w = w, .ports = ports };
    return build_sequencer(&b, prog);
}

/* Is every segment of prog repeated 0 times (the warp runs nothing)? */
int pn_program_is_empty(const pn_program_t *prog)
{
    for (uint32_t j = 0; j < prog->n_segs; j++)
        if (prog->segs[j].repeat > 0)
            return 0;
    return 1;
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
                if (s->body[i].kind > PN_PROGRAM_SYNC || s->body[i].mult < 1)
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

pn_status_t pn_sm_build_program(pn_net_t *net, uint32_t schedulers, uint32_t l1, uint32_t l2,
                                uint32_t n_warps, const pn_program_t *programs,
                                pn_sm_layout_t *layout, pn_error_t *err)
{
    if (!net)
        return pn_error_set(err, PN_EINVAL, "pn_sm_build_program: NULL net");
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
                                  .n_alt = { 1, 1, 1 }, .ready = ids.p[2], .arrive = arr,
                                  .release = rel };
        pp.out[PN_KIND_ARITH][0] = ids.p[6];
        pp.out[PN_KIND_SHARED][0] = ids.p[8];
        pp.out[PN_KIND_GLOBAL][0] = ids.p[10];
        for (int k = 0; k < 3; k++)
            pp.count[k][0] = UINT32_MAX;
        /* t16 ends the warp once the sequencer has reached `end` */
        snprintf(name, sizeof name, "w%u.end", w);
        PN_CHECK(pn_net_add_place(net, name, pn_program_is_empty(prog) ? 1 : 0, &pp.end, err));
        PN_CHECK(pn_net_add_arc(net, PN_ARC_INPUT, ids.t[PN_SM_WARP_TRANS - 1], pp.end, 1, err));
        PN_CHECK(pn_program_add_sequencer(net, w, prog, &pp, err));
    }
    PN_CHECK(pn_net_freeze(net, err));
    if (layout)
        *layout = lay;
    return PN_OK;
}

/* ---- reordered programs ----------------------------------------------------- */

const char *pn_order_name(pn_order_t order)
{
    switch (order) {
    case PN_ORDER_MEMORY_FIRST:  return "memory-first";
    case PN_ORDER_MEMORY_LAST:   return "memory-last";
    case PN_ORDER_MEMORY_SPREAD: return "memory-spread";
    case PN_ORDER_COUNT:         break;
    }
    return "?";
}

/* Append {repeat: n, body: [kind]} when n > 0. */
static pn_status_t add_run(pn_program_t *p, uint64_t n, int kind, pn_error_t *err)
{
    pn_program_item_t it = { (uint8_t)kind, 1 };
    return n ? pn_program_add_segment(p, n, &it, 1, err) : PN_OK;
}

/* Chunks [lo, hi) (1-based chunk c: memory kind global when c <= g, else
 * shared; q + 1 arithmetic when c <= r, else q) as one segment. */
static pn_status_t add_chunks(pn_program_t *p, uint64_t lo, uint64_t hi, uint64_t g,
                              uint64_t r, uint64_t q, pn_error_t *err)
{
    if (hi <= lo)
        return PN_OK;
    pn_program_item_t body[2];
    uint64_t arith = lo < r ? q + 1 : q;   /* chunk lo + 1 <= r */
    uint32_t n = 0;
    body[n++] = (pn_program_item_t){ lo < g ? PN_KIND_GLOBAL : PN_KIND_SHARED, 1 };
    if (arith)
        body[n++] = (pn_program_item_t){ PN_KIND_ARITH, (uint32_t)arith };
    return pn_program_add_segment(p, hi - lo, body, n, err);
}

pn_status_t pn_program_order(pn_program_t *out, pn_order_t order, const pn_warp_counts_t *c,
                             pn_error_t *err)
{
    if (!out || !c)
        return pn_error_set(err, PN_EINVAL, "pn_program_order: NULL argument");
    pn_program_init(out);
    if (c->arith > PN_SM_MAX_COUNT || c->shared > PN_SM_MAX_COUNT ||
        c->global > PN_SM_MAX_COUNT)
        return pn_error_set(err, PN_EINVAL, "a count exceeds the limit %" PRIu64,
                            (uint64_t)PN_SM_MAX_COUNT);
    pn_status_t st = PN_OK;
    switch (order) {
    case PN_ORDER_MEMORY_FIRST:
        st = add_run(out, c->global, PN_KIND_GLOBAL, err);
        if (st == PN_OK) st = add_run(out, c->shared, PN_KIND_SHARED, err);
        if (st == PN_OK) st = add_run(out, c->arith, PN_KIND_ARITH, err);
        break;
    case PN_ORDER_MEMORY_LAST:
        st = add_run(out, c->arith, PN_KIND_ARITH, err);
        if (st == PN_OK) st = add_run(out, c->global, PN_KIND_GLOBAL, err);
        if (st == PN_OK) st = add_run(out, c->shared, PN_KIND_SHARED, err);
        break;
    case PN_ORDER_MEMORY_SPREAD: {
        uint64_t g = c->global, m = c->global + c->shared;
        if (m == 0) {
            st = add_run(out, c->arith, PN_KIND_ARITH, err);
            break;
        }
        uint64_t q = c->arith / m, r = c->arith % m;
        /* the kind changes after chunk g, the arithmetic share after chunk r */
        uint64_t b1 = g < r ? g : r, b2 = g < r ? r : g;
        st = add_chunks(out, 0, b1, g, r, q, err);
        if (st == PN_OK) st = add_chunks(out, b1, b2, g, r, q, err);
        if (st == PN_OK) st = add_chunks(out, b2, m, g, r, q, err);
        break;
    }
    default:
        st = pn_error_set(err, PN_EINVAL, "unknown instruction order %d", (int)order);
    }
    if (st != PN_OK)
        pn_program_destroy(out);
    return st;
}

char *pn_program_format(const pn_program_t *p, char *buf, size_t size)
{
    size_t o = 0;
    int full = 0;
    char item[96];
#define PUT(s)                                                   \
    do {                                                         \
        size_t l_ = strlen(s);                                   \
        if (o + l_ + 4 >= size) { full = 1; goto out; }          \
        memcpy(buf + o, s, l_);                                  \
        o += l_;                                                 \
    } while (0)
    PUT("[");
    for (uint32_t j = 0; j < p->n_segs; j++) {
        snprintf(item, sizeof item, "%s{repeat: %" PRIu64 ", body: [", j ? ", " : "",
                 p->segs[j].repeat);
        PUT(item);
        for (uint32_t i = 0; i < p->segs[j].n_body; i++) {
            const pn_program_item_t *it = &p->segs[j].body[i];
            if (it->mult == 1)
                snprintf(item, sizeof item, "%s%s", i ? ", " : "", pn_program_kind_name(it->kind));
            else
                snprintf(item, sizeof item, "%s%s*%u", i ? ", " : "", pn_program_kind_name(it->kind),
                         it->mult);
            PUT(item);
        }
        PUT("]}");
    }
    PUT("]");
out:
#undef PUT
    /* PUT keeps o + 4 < size */
    memcpy(buf + o, full ? "..." : "", full ? 4 : 1);
    return buf;
}

/* Program-order nets have no compiled engine. */
static const pn_model_engine_t program_engine = {
    "a program-order net (kernel.program)", NULL, NULL
};

pn_status_t pn_program_engine_prepare(pn_prepared_t *p, pn_engine_kind_t kind,
                                      const pn_net_t *net, const pn_run_opts_t *o,
                                      pn_error_t *err)
{
    return pn_model_engine_prepare(p, kind, &program_engine, NULL, net, o, err);
}
