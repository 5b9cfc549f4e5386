/* pn_sm.h - the SM net generator: one SM place, one waiting transition and one
 * WPNM (warp sub-net) per warp, exactly as doc/paper-net.md fixes it. */
#ifndef PN_SM_H
#define PN_SM_H

#include <stdint.h>

#include "pn_error.h"
#include "pn_net.h"

/* The instruction kinds of the model, in this order everywhere: config keys,
 * program items, per-warp counts. */
typedef enum pn_kind {
    PN_KIND_ARITH = 0,
    PN_KIND_SHARED = 1,
    PN_KIND_GLOBAL = 2,
    PN_KIND_COUNT = 3
} pn_kind_t;

/* Names of the kinds as config keys and program items: "arith", "shared",
 * "global", then NULL (a key list for pn_yaml_check_keys). */
extern const char *const pn_kind_names[PN_KIND_COUNT + 1];

/* Per-warp instruction counts: the initial marking of p5, p7 and p9. */
typedef struct pn_warp_counts {
    uint64_t arith;
    uint64_t shared;
    uint64_t global;
} pn_warp_counts_t;

/* The count of kind k (PN_KIND_*) in c. O(1). */
static inline uint64_t *pn_warp_count(pn_warp_counts_t *c, int k)
{
    return k == PN_KIND_ARITH ? &c->arith : k == PN_KIND_SHARED ? &c->shared : &c->global;
}

/* Threads per warp: a block of T threads runs as ceil(T / 32) warps. */
#define PN_SM_WARP_THREADS 32u

/* Largest block, and most schedulers (tokens of p0), the model accepts. */
#define PN_SM_MAX_THREADS    1048576u
#define PN_SM_MAX_SCHEDULERS 64u

/* Warps of a block of `threads` threads: ceil(threads / PN_SM_WARP_THREADS). */
static inline uint32_t pn_sm_warps_of(uint32_t threads)
{
    return (uint32_t)(((uint64_t)threads + PN_SM_WARP_THREADS - 1) / PN_SM_WARP_THREADS);
}

/* Everything the generator needs. warps points at n_warps entries. */
typedef struct pn_sm_params {
    uint32_t schedulers;          /* tokens in p0, >= 1 */
    uint32_t l1;                  /* global latency in steps, >= 1 */
    uint32_t l2;                  /* shared latency in steps, >= 1 */
    uint32_t n_warps;             /* >= 1 */
    const pn_warp_counts_t *warps;
} pn_sm_params_t;

/* Largest accepted count per warp and kind, and largest latency. */
#define PN_SM_MAX_COUNT   UINT64_C(4294967295)
#define PN_SM_MAX_LATENCY 1000000u

/* Number of places and transitions per warp sub-net. */
#define PN_SM_WARP_PLACES 18
#define PN_SM_WARP_TRANS  15

/* Where the generator put the interesting nodes. Warp w's place pK (K = 1..18)
 * has id warp_place0 + w * 18 + (K - 1); its transitions are laid out in the
 * order of pn_sm_trans_names. */
typedef struct pn_sm_layout {
    uint32_t p0, pw, t0;
    uint32_t warp_place0;
    uint32_t warp_trans0;
} pn_sm_layout_t;

/* The 15 WPNM transition names in layout order: t1..t9, t11, t17, t12, t14, t15, t16. */
extern const char *const pn_sm_trans_names[PN_SM_WARP_TRANS];

/* Ids of one warp's places pK (index K = 1..18) and transitions (index as in
 * pn_sm_trans_names); UINT32_MAX for those a warp without frame I lacks. */
typedef struct pn_sm_warp_ids {
    uint32_t p[PN_SM_WARP_PLACES + 1];
    uint32_t t[PN_SM_WARP_TRANS];
} pn_sm_warp_ids_t;

/* Add the global part of an SM net to net: p0 with `schedulers` tokens, pw
 * with n_warps, t0 and its arcs to them; lay receives their ids and where
 * the warps start. O(1). */
pn_status_t pn_sm_add_global(pn_net_t *net, uint32_t schedulers, uint32_t n_warps,
                             pn_sm_layout_t *lay, pn_error_t *err);

/* Add warp w's sub-net, named "w<w>.pK" / "w<w>.tK", after pn_sm_add_global
 * (lay) and t0's inhibitor on its p2. With counts c: the WPNM of the spec,
 * p5/p7/p9 marked with c. With c NULL: frames II to IV only, for a caller
 * that supplies its own frame I (the program sequencer of pn_program): no
 * p5, p7, p9, t2, t3, t4 and no inhibitors on t16. ids (may be NULL)
 * receives the ids. O(1). */
pn_status_t pn_sm_add_warp(pn_net_t *net, const pn_sm_layout_t *lay, uint32_t w,
                           const pn_warp_counts_t *c, uint32_t l1, uint32_t l2,
                           pn_sm_warp_ids_t *ids, pn_error_t *err);

/* Validate p: returns PN_EINVAL with a message naming the bad field. */
pn_status_t pn_sm_check(const pn_sm_params_t *p, pn_error_t *err);

/* Build the SM net of p into net, which must be freshly initialised
 * (pn_net_init) and is frozen on success. Names: "p0", "pw", "t0", and
 * "w<i>.p<K>" / "w<i>.t<K>" per warp. layout (may be NULL) receives node ids.
 * On error net holds a partial net that the caller destroys as usual.
 * O(n_warps). */
pn_status_t pn_sm_build(pn_net_t *net, const pn_sm_params_t *p,
                        pn_sm_layout_t *layout, pn_error_t *err);

/* The exact number of steps a single warp needs (spec, conformance values):
 * 4*x_a + (5+l1)*x_g + (5+l2)*x_s + 1. Independent of the random choices. */
uint64_t pn_sm_single_warp_steps(const pn_warp_counts_t *c, uint32_t l1, uint32_t l2);

/* The exact number of idle steps (t0's firings) of a single warp on
 * `schedulers` schedulers: (l1 + 2) * x_g, plus 2*x_a + x_g + (l2 + 3)*x_s
 * when a second scheduler stays free while the warp holds one. Independent of
 * the random choices. O(1). */
uint64_t pn_sm_single_warp_idle(const pn_warp_counts_t *c, uint32_t l1, uint32_t l2,
                                uint32_t schedulers);

#endif
