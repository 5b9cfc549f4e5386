/* pn_sass_lines.h - global loads that wait for a line an earlier load of the
 * same warp already fetches: the L1 merges a miss to a line in flight, so an
 * unrolled loop's loads of consecutive words ([R2.64], [R2.64+0x4], ...) cost
 * one trip to L2 or DRAM, not one each; and global stores the L1 merges with
 * the warp's store before them (doc/dependencies.md). */
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

/* The same for global stores (not local ones: a spill's or a local array's
 * STL): leader[i] is the first of the unguarded global
 * stores of op i's basic block to the same address registers in the same
 * 128-byte window before it (a float4 written a word at a time: [R2.64],
 * [R2.64+0x4], [R2.64+0x8], [R2.64+0xc]); the L1 merges a warp's stores to
 * sectors its earlier store wrote part of before they reach the L2
 * (examples/probe/store_split.cu: four 32-bit stores of 16-byte lanes take
 * 1.66 times the L2 time of the one 128-bit store, where they touch four
 * times its sectors). Returns how many ops have a leader. */
uint32_t pn_sass_store_leaders(const pn_sass_prog_t *p, int32_t *leader);

#endif
