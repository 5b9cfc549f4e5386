/* pn_regroup.h - thread regrouping by basic-block vectors (divergence paper,
 * section V): Sorting, Greedy (gain = benefit - cost, eq. 8-10) and
 * Greedy-Max (groups in descending thread latency, eq. 11), and the per-warp
 * counts of a kernel whose threads run in a regrouped order. */
#ifndef PN_REGROUP_H
#define PN_REGROUP_H

#include <stddef.h>
#include <stdint.h>

#include "pn_bbv.h"
#include "pn_error.h"
#include "pn_sm.h"

typedef enum pn_regroup_alg {
    PN_REGROUP_SORTING = 0,
    PN_REGROUP_GREEDY = 1,
    PN_REGROUP_GREEDY_MAX = 2,
    PN_REGROUP_ALGS = 3
} pn_regroup_alg_t;

/* "sorting", "greedy", "greedy-max". */
extern const char *const pn_regroup_alg_names[PN_REGROUP_ALGS];

/* The threads' BBVs as the algorithms see them: n threads x nb blocks,
 * count[t * nb + b], and lat[b], the latency of one execution of block b
 * (>= 0, finite). Borrowed. */
typedef struct pn_regroup_input {
    size_t n, nb;
    const uint64_t *count;
    const double *lat;
} pn_regroup_input_t;

/* Gain of merging two groups whose per-block minima and maxima over their
 * union are mn and mx (eq. 8-10): sum_b lat[b] * (2 mn[b] - mx[b]), i.e.
 * Benefit - Cost. O(nb). */
double pn_regroup_gain(const double *lat, size_t nb, const uint64_t *mn, const uint64_t *mx);

/* Regroup the threads of in with algorithm alg into groups of group_size
 * threads (>= 1; the command takes multiples of the warp size) and write the
 * new order to perm[0..n): new thread i runs the work of original thread
 * perm[i]; group k is perm[k * group_size ..], the last one possibly
 * smaller. Ties are broken toward smaller thread ids (Sorting: a stable
 * sort; Greedy: of the edges of maximal gain, the one whose smaller group
 * slot is smallest, then the smaller other slot, a group keeping the slot of
 * its first thread; Greedy-Max: the first thread in id order). The order
 * depends only on the input. Errors: PN_EINVAL (group_size 0, NULL
 * arguments), PN_ENOMEM. Time: Sorting O(n log n * nb); Greedy O(c^2 * nb)
 * to start (c the distinct BBVs), then O(n * nb) per merge that changes a
 * group's per-block bounds (it is compared with the others) and about
 * O(c * nb) per merge of identical threads, at worst O(n^2 * nb);
 * Greedy-Max O(n * c * nb). Memory O(n * nb). */
pn_status_t pn_regroup(pn_regroup_alg_t alg, const pn_regroup_input_t *in, size_t group_size,
                       uint32_t *perm, pn_error_t *err);

/* Per-warp counts of a grid whose threads run in the order perm (NULL: the
 * identity): bbv holds the n = blocks * threads threads of the grid (thread
 * ids global, block b has threads b*threads ..), block costs from t. */
typedef struct pn_regroup_counts {
    uint32_t blocks, threads, warps;    /* warps per block: ceil(threads / warp_size) */
    pn_warp_counts_t *warp;             /* blocks * warps entries, warp w of block b at
                                         * [b * warps + w]: per BBV block, the largest count
                                         * over the warp's threads times its costs (owned) */
    double *warp_lat;                   /* the same entries: T_w = sum_b lat[b] * max_t
                                         * BBV_t[b] (eq. 2-3) (owned) */
    double *block_lat;                  /* per block: sum of its T_w (eq. 4) (owned) */
    double thread_inst, warp_inst;      /* as pn_bbv_derived_t, over the grid */
    double activity_factor;             /* thread_inst / (warp_size * warp_inst) */
} pn_regroup_counts_t;

/* Map the BBV's block columns to rows of t: map[b] = row of BBV block b.
 * A BBV block absent from t is PN_EINVAL "bbv:H:C: block 'x' is not in
 * <table>". map must hold bbv->n_blocks entries. O(blocks * rows). */
pn_status_t pn_regroup_map_blocks(const pn_bbv_t *bbv, const pn_block_table_t *t, size_t *map,
                                  pn_error_t *err);

/* Derive c from bbv, t (map as pn_regroup_map_blocks made it), lat (per BBV
 * block), perm and a block size of `threads`; bbv->n_threads must be a
 * multiple of threads (else PN_EINVAL). A count above PN_SM_MAX_COUNT is
 * PN_ELIMIT naming the block and warp. On success c owns its arrays
 * (pn_regroup_counts_destroy); on error c is zeroed. O(n * blocks). */
pn_status_t pn_regroup_counts(const pn_bbv_t *bbv, const pn_block_table_t *t, const size_t *map,
                              const double *lat, const uint32_t *perm, uint32_t threads,
                              uint32_t warp_size, pn_regroup_counts_t *c, pn_error_t *err);

/* Free what c owns; c may be NULL or zeroed. */
void pn_regroup_counts_destroy(pn_regroup_counts_t *c);

#endif
