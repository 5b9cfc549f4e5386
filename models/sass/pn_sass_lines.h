/* pn_sass_lines.h - global loads that wait for a line an earlier load of the
 * same warp already fetches: the L1 merges a miss to a line in flight, so an
 * unrolled loop's loads of consecutive words ([R2.64], [R2.64+0x4], ...) cost
 * one trip to L2 or DRAM, not one each (doc/dependencies.md). */
#ifndef PN_SASS_LINES_H
#define PN_SASS_LINES_H

#include <stdint.h>

#include "pn_sass_prog.h"

/* For every op of p (finished) into leader[p->n]: the index of an earlier
 * unguarded global load of the same basic block that reads the same address
 * registers with an immediate offset in the same 128-byte window (offset /
 * 128 equal, same sign), no op between them writing one of those registers;
 * -1 for every other op (a leader included). Chains point at their first
 * load. Returns how many ops have a leader. O(n x basic block length). */
uint32_t pn_sass_line_leaders(const pn_sass_prog_t *p, int32_t *leader);

#endif
