/* pn_sass_addr.h - what a memory instruction's address depends on: the
 * block's index (SR_CTAID), a value loaded from memory, the thread's index,
 * or none of them (the same address in every thread at each trip: a kernel
 * parameter and a loop counter). A forward data-flow over the program's
 * control flow, register by register; it tells a histogram's merge (every
 * block adds into the same few lines) from a per-block result (each block
 * its own line), and a load every block makes alike (a loop over a table,
 * a table copied to shared memory) from one of the block's own. */
#ifndef PN_SASS_ADDR_H
#define PN_SASS_ADDR_H

#include <stdint.h>

#include "pn_error.h"
#include "pn_sass_prog.h"

/* Bits of what an address may depend on. */
enum {
    PN_SASS_FROM_CTA = 1,    /* S2R/S2UR of SR_CTAID (SR_SMID, SR_CgaCtaId), through any
                              * arithmetic */
    PN_SASS_FROM_LOAD = 2,   /* the result of a global or shared load or atomic */
    PN_SASS_FROM_THREAD = 4, /* any other special register: SR_TID, SR_LANEID, ... */
    PN_SASS_FROM_WARP = 8,   /* one that may differ between the warps of a block other
                              * than through SR_TID.X: SR_TID.Y, SR_TID.Z, SR_WARPID, ...
                              * (not SR_TID.X, SR_LANEID or the lane masks; with
                              * PN_SASS_FROM_THREAD) */
    PN_SASS_FROM_LANE = 16   /* SR_TID.X, SR_LANEID or a lane mask, which differ between
                              * the lanes of a warp whatever the block's shape (with
                              * PN_SASS_FROM_THREAD; pn_sass_addr_lanes only) */
};

/* For every op i of the finished program p, from[i] = the bits its address
 * operand (the registers of its last "[...]" group) may carry on some path
 * to it; 0 for an op without one. A register written under a guard keeps
 * what it carried before as well; a BRX or JMX continues only to the next
 * instruction. Errors: PN_ENOMEM. O(ops x registers x passes), the passes
 * bounded by the loops' nesting (a few). */
pn_status_t pn_sass_addr_sources(const pn_sass_prog_t *p, uint8_t *from, pn_error_t *err);

/* The same, and (guard not NULL) for every op i guard[i] = the bits its guard
 * predicate may carry (0 for an op without a guard): what decides a guarded
 * branch, a loop's back edge among them. */
pn_status_t pn_sass_addr_sources_guards(const pn_sass_prog_t *p, uint8_t *from, uint8_t *guard,
                                        pn_error_t *err);

/* pn_sass_addr_sources_guards with PN_SASS_FROM_LANE among the bits (always
 * with PN_SASS_FROM_THREAD, so a test of the other bits or of 0 reads the
 * same): an address without it but with PN_SASS_FROM_THREAD differs between
 * the lanes of a warp only through SR_TID.Y or SR_TID.Z, in blocks narrower
 * than a warp. guard may be NULL. */
pn_status_t pn_sass_addr_lanes(const pn_sass_prog_t *p, uint8_t *from, uint8_t *guard,
                               pn_error_t *err);

/* The register op's address starts from: the first R or UR register of its
 * last "[...]" group, as an index (UR ones past the 256 R ones); -1 without
 * one (a constant address, or no address). Loads from one base at different
 * offsets read one region (a row's unrolled chunks). */
int pn_sass_addr_base(const pn_sass_op_t *op);

/* For every op i of p, inv[i] = 1 when it has an address and lies in the body
 * of a loop (a backward branch's target up to the branch, without a call) that
 * writes none of its address registers: the same address every trip; else 0.
 * O(ops x loops). */
void pn_sass_addr_invariant(const pn_sass_prog_t *p, uint8_t *inv);

/* For every op i of p, moves[i] = how its address moves from one trip of its
 * innermost loop (the shortest backward branch's range that holds it) to the
 * next: 1 by a known step under a line (128 bytes: a warp walking its rows
 * meets its own lines again), 2 by a line or more or by a step it cannot
 * tell (a register's value, a loaded value, an op it does not follow), 0
 * otherwise (not in a loop, no address, the same address every trip, or an
 * address in uniform registers). Follows the address's base register back
 * through additions, IMAD, LEA, left shifts and moves, a few levels deep.
 * Without memory for its tables every op is left at 0. O(ops x loop length). */
void pn_sass_addr_steps(const pn_sass_prog_t *p, uint8_t *moves);

#endif
