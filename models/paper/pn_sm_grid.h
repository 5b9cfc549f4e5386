/* pn_sm_grid.h - the paper net of a grid (pn_sm_grid.c): the blocks the
 * busiest SM runs, R resident at once, and barriers (models/paper/GRID.md). */
#ifndef PN_SM_GRID_H
#define PN_SM_GRID_H

#include <stdint.h>

#include "pn_error.h"
#include "pn_net.h"
#include "pn_sm.h"

/* The grid part of the paper net (models/paper/GRID.md): the
 * blocks the simulated SM runs one after another, how many are resident at
 * once, and the barriers every warp passes. All zero: one block, no
 * barriers, the net of doc/paper-net.md exactly. */
typedef struct pn_sm_grid {
    uint32_t blocks;              /* blocks this SM runs; 0 is taken as 1 */
    uint32_t resident;            /* blocks resident at once; 0 is taken as 1 */
    uint64_t barriers;            /* barriers per warp, the same for every warp */
    /* NULL: warp i of every block has p->warps[i]'s counts; else blocks *
     * n_warps entries, warp i of block b at block_warps[b * n_warps + i] */
    const pn_warp_counts_t *block_warps;
} pn_sm_grid_t;

/* Is g the plain net of doc/paper-net.md (one block, no barriers)? */
static inline int pn_sm_grid_is_plain(const pn_sm_grid_t *g)
{
    return !g || (g->blocks <= 1 && g->barriers == 0 && !g->block_warps);
}

/* Build the SM net of p for grid g into a fresh net (frozen on success).
 * With pn_sm_grid_is_plain(g) this is pn_sm_build exactly. Otherwise the
 * SM holds blocks * n_warps warps ("w<b*n_warps+i>.pK", warp i of block b
 * with p->warps[i]'s counts, or g->block_warps' when given) in blocks "b<b>.*": blocks 0..resident-1 start
 * marked; block b >= resident starts (b<b>.start: takes a free slot and its
 * turn, marks its warps' p1, p2, p3) once a resident block has ended
 * (b<b>.end: all its warps terminated, gives the slot back), in block
 * order. With barriers k > 0 a warp's instructions run in k + 1 phases of
 * floor(n / (k + 1)) (the last has the rest; frames I take a budget token
 * "w.bud"); at the end of a phase it arrives (w.arrive: p2, p3 -> b.arr),
 * the block is released once all its warps have arrived (b.release), and
 * each warp resumes with the next phase's budget (w.resume / w.resume_last).
 * models/paper/GRID.md documents the arcs and the steps they add. Errors:
 * pn_sm_check's, PN_ELIMIT (more than PN_SM_MAX_GRID_WARPS warps, or more
 * than PN_SM_MAX_COUNT barriers or instructions per warp with barriers).
 * resident 0 is taken as 1, above blocks as blocks. layout->warp_place0 and
 * warp_trans0 are UINT32_MAX for a grid (blocks interleave with warps).
 * O(blocks * n_warps). */
pn_status_t pn_sm_build_grid(pn_net_t *net, const pn_sm_params_t *p, const pn_sm_grid_t *g,
                             pn_sm_layout_t *layout, pn_error_t *err);

/* Most warps (blocks * warps per block) one grid net may hold. */
#define PN_SM_MAX_GRID_WARPS 4194304u

#endif
