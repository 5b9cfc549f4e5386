/* pn_program_order.c - the reordered programs `pnsim reorder` compares,
 * built from a warp's counts alone. */
#include "pn_program_order.h"

#include <inttypes.h>
#include <stdlib.h>

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
