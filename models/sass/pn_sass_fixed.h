/* pn_sass_fixed.h - which branches of a SASS program decide the same way at
 * every visit of a warp: those whose guard predicate is computed only from
 * the thread's and the block's indices, kernel parameters, constants and
 * immediates, through definitions that reach it alone ("if (threadIdx.x ==
 * 0)" inside a loop: the warp holding thread 0 takes it every trip, the
 * others never). A forward data-flow over the basic blocks that tracks, per
 * register, the one definition reaching a point (or several). */
#ifndef PN_SASS_FIXED_H
#define PN_SASS_FIXED_H

#include <stdint.h>

#include "pn_error.h"
#include "pn_sass_prog.h"

/* For every op i of the finished program p, fixed[i] = 1 when op i is a
 * guarded BRA or EXIT whose guard holds the same value at every visit of a
 * warp, else 0. A value is fixed when its definition is not a load, an
 * atomic, a texture or local access or a clock read, and every register (and
 * guard) it reads is undefined at entry or reached by exactly one
 * definition, itself fixed; a loop counter (reached by its initial value and
 * by its own increment) is not. A program of more than PN_SASS_FIXED_MAX_BLOCKS
 * basic blocks gets none (the analysis keeps a state per block and register).
 * Errors: PN_ENOMEM. O(blocks x registers x passes + ops), the passes bounded
 * by the loops' nesting. */
#define PN_SASS_FIXED_MAX_BLOCKS 65536u

pn_status_t pn_sass_fixed_guards(const pn_sass_prog_t *p, uint8_t *fixed, pn_error_t *err);

#endif
