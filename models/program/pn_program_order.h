/* pn_program_order.h - the instruction orders `pnsim reorder` compares,
 * each a program built from a warp's counts alone. */
#ifndef PN_PROGRAM_ORDER_H
#define PN_PROGRAM_ORDER_H

#include "pn_error.h"
#include "pn_program.h"
#include "pn_sm.h"

/* The instruction orders `pnsim reorder` compares, built from counts alone. */
typedef enum pn_order {
    PN_ORDER_MEMORY_FIRST = 0,    /* all global accesses, then all shared, then arithmetic */
    PN_ORDER_MEMORY_LAST = 1,     /* arithmetic, then global, then shared */
    PN_ORDER_MEMORY_SPREAD = 2,   /* each memory access followed by an even share of arithmetic */
    PN_ORDER_COUNT = 3
} pn_order_t;

/* "memory-first", "memory-last", "memory-spread"; "?" for anything else. */
const char *pn_program_order_name(pn_order_t order);

/* Write into out (initialised, empty) the program of `order` for a warp of
 * counts c. memory-spread: with m = global + shared and arith = q*m + r,
 * r chunks [mem, arith*(q+1)] then m - r chunks [mem, arith*q], the memory
 * slots taking the global accesses first, then the shared ones, as at most 3
 * segments (m = 0: arith alone). Every program has exactly the counts c.
 * Errors: PN_EINVAL (bad order, a count above PN_SM_MAX_COUNT), PN_ENOMEM;
 * out is left empty on error. O(1). */
pn_status_t pn_program_order(pn_program_t *out, pn_order_t order, const pn_warp_counts_t *c,
                             pn_error_t *err);

/* As pn_program_order for counts of every item kind (n[k], k below
 * PN_PROGRAM_KINDS, n[PN_PROGRAM_SYNC] the barriers b): a barrier bounds what
 * may move, so each kind's count is divided into b + 1 phases, floor(n / (b +
 * 1)) before each barrier and the rest after the last, and each phase is
 * ordered on its own. Memory kinds take the memory slots in the order global,
 * global_st, shared, shared_st; compute kinds, arith then sfu: memory-first
 * runs memory kinds then compute kinds, memory-last compute then memory,
 * memory-spread gives each memory instruction an even share of the compute
 * ones (q or q + 1, the first r chunks the larger). The b phases before the
 * last barrier are one segment {repeat: b, body: [phase..., sync]} when a
 * phase flattens into 4096 items, else written out (PN_ELIMIT past 65536
 * segments). With no pipelined kinds and no barrier the program is
 * pn_program_order's. Errors as pn_program_order; out is empty on error.
 * O(size of the program). */
pn_status_t pn_program_order_kinds(pn_program_t *out, pn_order_t order,
                                   const uint64_t n[PN_PROGRAM_KINDS], pn_error_t *err);

#endif
