/* pn_bbv.h - basic-block vectors (BBVs): read a per-thread BBV CSV and a
 * per-block instruction table, derive per-warp counts the way the divergence
 * paper does (per block, the maximum count over the warp's threads), and the
 * instrumentation paper's activity factor and memory intensity. */
#ifndef PN_BBV_H
#define PN_BBV_H

#include <stddef.h>
#include <stdint.h>

#include "pn_error.h"
#include "pn_sm.h"

/* A BBV file: header `thread,<block>,<block>,...`, one row per thread. */
typedef struct pn_bbv {
    char *path;
    size_t n_threads;
    size_t n_blocks;
    char **blocks;                /* block names, header order */
    long *block_cols;             /* their header columns (for messages) */
    long header_line;
    uint64_t *count;              /* count[t * n_blocks + b]: executions of b by thread t */
} pn_bbv_t;

/* Read a BBV CSV (pn_csv_read rules). The header's first column must be
 * `thread`, followed by at least one block name; row i must have thread = i
 * (rows list threads 0, 1, 2, ... in order) and non-negative integer counts.
 * Errors are "path:line:col: ..." at the offending field: "missing column
 * 'thread'", "expected thread 5, got 7 (rows must list threads 0, 1, 2, ...
 * in order)", a non-integer count, a wrong number of fields, an empty file,
 * "no threads" (header only). On success b owns everything (pn_bbv_destroy);
 * on error b is left zeroed. O(file size). */
pn_status_t pn_bbv_load(pn_bbv_t *b, const char *path, pn_error_t *err);

/* Free what b owns; b may be NULL or zeroed. */
void pn_bbv_destroy(pn_bbv_t *b);

/* A block table: header `block,arith,shared,global` (in any order; other
 * columns ignored), one row per block: the instructions of each kind ONE
 * execution of the block costs. */
typedef struct pn_block_table {
    char *path;
    size_t n;
    char **names;
    long *lines;                  /* line of each block's row */
    pn_warp_counts_t *cost;       /* per block: arith, shared, global */
} pn_block_table_t;

/* Read a block table (pn_csv_read rules). Errors "path:line:col: ...": a
 * missing column, an empty or duplicate block name, a cost that is not an
 * integer in 0..4294967295, an empty file, "no blocks". On success t owns
 * everything (pn_block_table_destroy); on error t is left zeroed. */
pn_status_t pn_block_table_load(pn_block_table_t *t, const char *path, pn_error_t *err);

/* Free what t owns; t may be NULL or zeroed. */
void pn_block_table_destroy(pn_block_table_t *t);

/* What pn_bbv_derive computes from one block of threads. */
typedef struct pn_bbv_derived {
    uint32_t threads;             /* = bbv->n_threads */
    uint32_t warps;               /* ceil(threads / warp_size) */
    pn_warp_counts_t *warp;       /* per-warp counts (owned) */
    double thread_inst;           /* sum_t sum_b BBV_t[b] * inst_b: instructions of active threads */
    double warp_inst;             /* sum_w sum_b max_{t in w} BBV_t[b] * inst_b: warp instructions */
    double activity_factor;       /* thread_inst / (warp_size * warp_inst); 1 = no divergence */
    double memory_intensity;      /* sum_w global_w / sum_w (arith_w + shared_w + global_w) */
} pn_bbv_derived_t;

/* Derive per-warp counts: for warp w (threads w*ws .. w*ws+ws-1, ws =
 * warp_size) and kind k, count_k(w) = sum over blocks b of
 * max_{t in w} BBV_t[b] * cost_k(b) (divergence paper, eq. 2-3: a divergent
 * warp runs each block as often as its busiest thread), inst_b = arith +
 * shared + global of b. Every BBV block must be in the table (else PN_EINVAL
 * "bbv:H:C: block 'bb7' is not in <table>", at the BBV header column); table
 * blocks absent from the BBV are ignored. A count above PN_SM_MAX_COUNT is
 * PN_ELIMIT naming the warp and kind. The activity factor counts
 * warp_size lanes per warp instruction (idle lanes of a partial last warp
 * count as inactive); both ratios are NaN when there are no instructions.
 * On success d owns d->warp (pn_bbv_derived_destroy); on error d is zeroed.
 * O(threads * blocks). */
pn_status_t pn_bbv_derive(const pn_bbv_t *bbv, const pn_block_table_t *t, uint32_t warp_size,
                          pn_bbv_derived_t *d, pn_error_t *err);

/* Free what d owns; d may be NULL or zeroed. */
void pn_bbv_derived_destroy(pn_bbv_derived_t *d);

/* Relative difference of a declared count from a derived one, in percent:
 * |declared - derived| / derived * 100; 0 when both are 0, +inf when only
 * derived is 0. */
double pn_bbv_rel_diff(uint64_t derived, uint64_t declared);

#endif
