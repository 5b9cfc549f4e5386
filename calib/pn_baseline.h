/* pn_baseline.h - simple estimates of a block's run time from the same per-warp
 * counts the net gets, in model steps: a roofline-style bound and the
 * BBV-weighted metrics of the divergence paper (eq. 2-5, dynamic round-robin
 * block scheduling). Used as baselines in `pnsim calibrate` and `pnsim bbv`. */
#ifndef PN_BASELINE_H
#define PN_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "pn_sm.h"

/* Steps one issue holds a warp scheduler (a token of p0) in the net: arith 3
 * (t1, t7, t15), shared 4 + l2 (t1, t6, l2 ticks of t17, t12, t14), global 2
 * (t1, t5 gives it back). */
#define PN_BASELINE_HOLD_ARITH 3u
#define PN_BASELINE_HOLD_GLOBAL 2u
#define PN_BASELINE_HOLD_SHARED_BASE 4u

/* The divergence paper's warp latency T_w (eq. 3) with the net's own
 * instruction latencies: arith 4, shared 5 + l2, global 5 + l1 steps, plus one
 * step of termination: exactly the steps of the warp alone
 * (pn_sm_single_warp_steps). */
double pn_baseline_warp_steps(const pn_warp_counts_t *c, uint32_t l1, uint32_t l2);

/* BBV-weighted block latency (eq. 4): the sum of T_w over the n warps. O(n). */
double pn_baseline_bbv_weighted(const pn_warp_counts_t *w, uint32_t n, uint32_t l1,
                                uint32_t l2);

/* Roofline-style bound: max(issue bound, latency bound) where the issue bound
 * is the scheduler-steps all warps need divided by the schedulers,
 * sum_w (3*x_a + (4+l2)*x_s + 2*x_g) / schedulers, and the latency bound is the
 * slowest warp alone, max_w T_w. Every run of the net takes at least about
 * this many steps. schedulers >= 1. O(n). */
double pn_baseline_roofline(const pn_warp_counts_t *w, uint32_t n, uint32_t schedulers,
                            uint32_t l1, uint32_t l2);

/* Resident blocks per SM by the warp limit alone (the occupancy calculator
 * without registers and shared memory): floor(max_warps / warps_per_block),
 * at least 1. */
uint32_t pn_baseline_resident_blocks(uint32_t max_warps, uint32_t warps_per_block);

/* Kernel time of the BBV-weighted metric (eq. 5): the sum of the n block
 * latencies divided by the number of SMs (static round robin, equal blocks). */
double pn_baseline_static(const double *block_lat, size_t n, uint32_t sms);

/* Kernel time of the BBV-weighted-scheduled metric: dynamic round robin of
 * the n blocks, in order, over `slots` = SMs * resident blocks per SM: the
 * first `slots` blocks start at 0, each later block starts on the slot that
 * frees first (lowest slot on ties); the result is the last finish time
 * (0 for n == 0). Returns -1 when scratch memory cannot be allocated.
 * O(n log slots). */
double pn_baseline_scheduled(const double *block_lat, size_t n, size_t slots);

#endif
