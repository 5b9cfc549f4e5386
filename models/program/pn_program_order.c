/* pn_program_order.c - the reordered programs `pnsim reorder` compares,
 * built from a warp's counts alone: per barrier phase, memory first, memory
 * last, or memory spread evenly among the compute instructions. */
#include "pn_program_order.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *pn_program_order_name(pn_order_t order)
{
    switch (order) {
    case PN_ORDER_MEMORY_FIRST:  return "memory-first";
    case PN_ORDER_MEMORY_LAST:   return "memory-last";
    case PN_ORDER_MEMORY_SPREAD: return "memory-spread";
    case PN_ORDER_COUNT:         break;
    }
    return "?";
}

/* The memory kinds in the order they take the memory slots (the compute
 * slots take arith, then sfu). */
static const int mem_kinds[] = { PN_KIND_GLOBAL, PN_PROGRAM_GLOBAL_ST, PN_KIND_SHARED,
                                 PN_PROGRAM_SHARED_ST };
#define N_MEM (sizeof mem_kinds / sizeof mem_kinds[0])

/* Largest body a phase is flattened into, and largest program of explicit
 * phases, in items and segments. */
#define FLAT_MAX 4096u
#define SEGS_MAX 65536u

/* Append {repeat: n, body: [kind]} when n > 0. */
static pn_status_t add_run(pn_program_t *p, uint64_t n, int kind, pn_error_t *err)
{
    pn_program_item_t it = { (uint8_t)kind, 1 };
    return n ? pn_program_add_segment(p, n, &it, 1, err) : PN_OK;
}

/* Memory-spread chunks: m memory slots, compute C = A + F (A arith then F
 * sfu) with q = C / m, r = C % m; chunk c (0-based) holds compute slots
 * [s(c), s(c + 1)), s(c) = c q + min(c, r). */
typedef struct spread {
    uint64_t m, q, r, A, C;
    uint64_t mem_end[N_MEM];      /* chunk where each memory kind's slots end */
} spread_t;

static uint64_t chunk_start(const spread_t *s, uint64_t c)
{
    return c * s->q + (c < s->r ? c : s->r);
}

/* The body of chunk c into body (at most 3 items); returns its length. */
static uint32_t chunk_body(const spread_t *s, uint64_t c, pn_program_item_t *body)
{
    uint32_t n = 0;
    size_t k = 0;
    while (k + 1 < N_MEM && c >= s->mem_end[k])
        k++;
    body[n++] = (pn_program_item_t){ (uint8_t)mem_kinds[k], 1 };
    uint64_t lo = chunk_start(s, c), hi = chunk_start(s, c + 1);
    uint64_t a = hi <= s->A ? hi - lo : lo >= s->A ? 0 : s->A - lo;
    if (a)
        body[n++] = (pn_program_item_t){ PN_KIND_ARITH, (uint32_t)a };
    if (hi - lo - a)
        body[n++] = (pn_program_item_t){ PN_PROGRAM_SFU, (uint32_t)(hi - lo - a) };
    return n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Memory-spread of counts n: the chunks as segments, one per run of chunks
 * with the same body. */
static pn_status_t add_spread(pn_program_t *p, const uint64_t *n, pn_error_t *err)
{
    spread_t s = { 0 };
    for (size_t k = 0; k < N_MEM; k++) {
        s.m += n[mem_kinds[k]];
        s.mem_end[k] = s.m;
    }
    s.A = n[PN_KIND_ARITH];
    s.C = s.A + n[PN_PROGRAM_SFU];
    if (s.m == 0) {
        PN_CHECK(add_run(p, n[PN_KIND_ARITH], PN_KIND_ARITH, err));
        return add_run(p, n[PN_PROGRAM_SFU], PN_PROGRAM_SFU, err);
    }
    s.q = s.C / s.m;
    s.r = s.C % s.m;
    if (s.q + 1 > PN_PROGRAM_MAX_MULT)
        return pn_error_set(err, PN_EINVAL, "a count exceeds the limit %" PRIu64,
                            (uint64_t)PN_PROGRAM_MAX_MULT);
    /* c1: the first chunk not wholly arithmetic (s(c1) <= A < s(c1 + 1)) */
    uint64_t lo = 0, hi = s.m;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (chunk_start(&s, mid) <= s.A)
            lo = mid;
        else
            hi = mid - 1;
    }
    /* the body changes only at these chunks */
    uint64_t cut[N_MEM + 5];
    size_t nc = 0;
    for (size_t k = 0; k < N_MEM; k++)
        cut[nc++] = s.mem_end[k];
    cut[nc++] = 0;
    cut[nc++] = s.r;
    cut[nc++] = lo;
    cut[nc++] = lo + 1;
    qsort(cut, nc, sizeof *cut, cmp_u64);
    for (size_t i = 0; i + 1 < nc; i++) {
        uint64_t a = cut[i], b = cut[i + 1] < s.m ? cut[i + 1] : s.m;
        if (b <= a)
            continue;
        pn_program_item_t body[3];
        uint32_t len = chunk_body(&s, a, body);
        PN_CHECK(pn_program_add_segment(p, b - a, body, len, err));
    }
    return PN_OK;
}

/* One phase of counts n (instruction kinds; the sync slot is ignored) in
 * `order`, appended to p. */
static pn_status_t add_phase(pn_program_t *p, pn_order_t order, const uint64_t *n,
                             pn_error_t *err)
{
    static const int first[] = { PN_KIND_GLOBAL, PN_PROGRAM_GLOBAL_ST, PN_KIND_SHARED,
                                 PN_PROGRAM_SHARED_ST, PN_KIND_ARITH, PN_PROGRAM_SFU };
    static const int last[] = { PN_KIND_ARITH, PN_PROGRAM_SFU, PN_KIND_GLOBAL,
                                PN_PROGRAM_GLOBAL_ST, PN_KIND_SHARED, PN_PROGRAM_SHARED_ST };
    switch (order) {
    case PN_ORDER_MEMORY_FIRST:
    case PN_ORDER_MEMORY_LAST:
        for (size_t i = 0; i < sizeof first / sizeof first[0]; i++) {
            int k = order == PN_ORDER_MEMORY_FIRST ? first[i] : last[i];
            PN_CHECK(add_run(p, n[k], k, err));
        }
        return PN_OK;
    case PN_ORDER_MEMORY_SPREAD:
        return add_spread(p, n, err);
    default:
        return pn_error_set(err, PN_EINVAL, "unknown instruction order %d", (int)order);
    }
}

/* Append p's segments to out. */
static pn_status_t append(pn_program_t *out, const pn_program_t *p, pn_error_t *err)
{
    for (uint32_t j = 0; j < p->n_segs; j++)
        PN_CHECK(pn_program_add_segment(out, p->segs[j].repeat, p->segs[j].body,
                                        p->segs[j].n_body, err));
    return PN_OK;
}

/* The k phases before the last barrier, each phase then a barrier: one
 * segment {repeat: k, body: [phase..., sync]} when the phase flattens into
 * FLAT_MAX items, else the phases written out. */
static pn_status_t add_phases(pn_program_t *out, const pn_program_t *phase, uint64_t k,
                              pn_error_t *err)
{
    static const pn_program_item_t sync = { PN_PROGRAM_SYNC, 1 };
    /* a segment of one item flattens into that item times its repeat */
    uint64_t items = 1;
    for (uint32_t j = 0; j < phase->n_segs && items <= FLAT_MAX; j++)
        items += phase->segs[j].n_body == 1 ? 1 : phase->segs[j].repeat * phase->segs[j].n_body;
    if (items <= FLAT_MAX) {
        pn_program_item_t *body = malloc(items * sizeof *body);
        if (!body)
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        uint32_t n = 0;
        for (uint32_t j = 0; j < phase->n_segs; j++) {
            const pn_program_seg_t *s = &phase->segs[j];
            if (s->n_body == 1) {   /* repeat * mult <= a count <= PN_PROGRAM_MAX_MULT */
                body[n] = s->body[0];
                body[n++].mult = (uint32_t)(s->repeat * s->body[0].mult);
                continue;
            }
            for (uint64_t r = 0; r < s->repeat; r++) {
                memcpy(body + n, s->body, s->n_body * sizeof *body);
                n += s->n_body;
            }
        }
        body[n++] = sync;
        pn_status_t st = pn_program_add_segment(out, k, body, n, err);
        free(body);
        return st;
    }
    if (k > SEGS_MAX / (phase->n_segs + 1))
        return pn_error_set(err, PN_ELIMIT, "%" PRIu64 " barriers with phases of %u segments "
                            "make a program of more than %u segments", k, phase->n_segs,
                            SEGS_MAX);
    for (uint64_t i = 0; i < k; i++) {
        PN_CHECK(append(out, phase, err));
        PN_CHECK(pn_program_add_segment(out, 1, &sync, 1, err));
    }
    return PN_OK;
}

pn_status_t pn_program_order_kinds(pn_program_t *out, pn_order_t order,
                                   const uint64_t n[PN_PROGRAM_KINDS], pn_error_t *err)
{
    if (!out || !n)
        return pn_error_set(err, PN_EINVAL, "pn_program_order_kinds: NULL argument");
    pn_program_init(out);
    if (order < 0 || order >= PN_ORDER_COUNT)
        return pn_error_set(err, PN_EINVAL, "unknown instruction order %d", (int)order);
    for (int k = 0; k < PN_PROGRAM_KINDS; k++)
        if (n[k] > PN_SM_MAX_COUNT)
            return pn_error_set(err, PN_EINVAL, "a count exceeds the limit %" PRIu64,
                                (uint64_t)PN_SM_MAX_COUNT);
    const uint64_t bars = n[PN_PROGRAM_SYNC];
    uint64_t each[PN_PROGRAM_KINDS] = { 0 }, rest[PN_PROGRAM_KINDS] = { 0 };
    for (int k = 0; k < PN_PROGRAM_KINDS; k++)
        if (k != PN_PROGRAM_SYNC) {
            each[k] = n[k] / (bars + 1);
            rest[k] = n[k] - bars * each[k];
        }
    pn_status_t st = PN_OK;
    if (bars > 0) {
        pn_program_t phase;
        pn_program_init(&phase);
        st = add_phase(&phase, order, each, err);
        if (st == PN_OK)
            st = add_phases(out, &phase, bars, err);
        pn_program_destroy(&phase);
    }
    if (st == PN_OK)
        st = add_phase(out, order, rest, err);
    if (st != PN_OK)
        pn_program_destroy(out);
    return st;
}

pn_status_t pn_program_order(pn_program_t *out, pn_order_t order, const pn_warp_counts_t *c,
                             pn_error_t *err)
{
    if (!out || !c)
        return pn_error_set(err, PN_EINVAL, "pn_program_order: NULL argument");
    uint64_t n[PN_PROGRAM_KINDS] = { 0 };
    n[PN_KIND_ARITH] = c->arith;
    n[PN_KIND_SHARED] = c->shared;
    n[PN_KIND_GLOBAL] = c->global;
    return pn_program_order_kinds(out, order, n, err);
}
