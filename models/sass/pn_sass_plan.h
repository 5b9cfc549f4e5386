/* pn_sass_plan.h - what each warp of the simulated SM runs of a SASS
 * program: the program's branches with their taken totals (solved from the
 * basic blocks' executions), and per warp how often it reaches each branch
 * and takes its busier side, so that one warp's serial work stays on one warp
 * (doc/dependencies.md, "Per-warp shape"). */
#ifndef PN_SASS_PLAN_H
#define PN_SASS_PLAN_H

#include <stdint.h>

#include "pn_error.h"
#include "pn_sass_prog.h"

/* The calls a warp keeps open (a CALL past them jumps but is not returned
 * from: its RET ends the warp). */
#define PN_SASS_CALL_DEPTH 8

typedef struct pn_sass_branch {
    uint32_t op;                  /* the guarded BRA or EXIT */
    double visits, taken;         /* over the launch; taken: one side alone */
    int heavy_taken;              /* the busier side is the taken one (a loop's back edge) */
    double both;                  /* visits that take both sides (a warp diverges) */
    int32_t reconv;               /* with both: the op where the taken side waits its turn
                                   * (the enclosing BSSY's target), else -1 */
} pn_sass_branch_t;

/* The paths a warp keeps waiting at once (a divergence past them takes its
 * fall side alone). */
#define PN_SASS_DIV_DEPTH 16

typedef struct pn_sass_plan {
    uint32_t n_branches;
    pn_sass_branch_t *branches;
    int32_t *branch_of;           /* per op: its branch index, -1 */
    uint32_t n_warps;             /* blocks x warps per block of the SM */
    /* per warp w and branch b, at [w * n_branches + b]: decisions and busier ones */
    uint64_t *visits, *heavy, *both;
    uint64_t *loads;              /* per warp: global loads on its path that go to a
                                   * level (those without a line leader, not reused) */
    int32_t *leader;              /* per op: pn_sass_line_leaders */
    uint8_t *reuse;               /* per op: a global load without a line leader, not
                                   * strong beyond the SM, whose address a loop around it
                                   * keeps (pn_sass_addr_invariant): its line is in L1
                                   * from the trip before */
    uint64_t *reuse_loads;        /* per warp: executions of such loads on its path (not
                                   * in loads) */
    uint32_t n_followers;         /* ops with a leader */
    uint64_t *insts;              /* per warp: instructions on its path */
    uint64_t *op_execs;           /* per op: executions over all the planned warps */
    uint32_t unsolved;            /* branches whose taken share could not be solved (halved) */
    double covered;               /* the instructions the planned warps run over those the
                                   * counts give them (their share of the launch's warps);
                                   * away from 1 where the walk does not follow the control
                                   * flow, 1 without executions */
} pn_sass_plan_t;

/* Plan prog (finished) for `blocks` blocks of `warps_per_block` warps, the
 * first of the launch in order: branch totals from flow conservation over the
 * basic blocks; then each warp walks the control flow, and the k-th decision
 * of a branch among all the SM's warps (in warp order) takes the busier side
 * iff ceil((k+1) h / V) > ceil(k h / V) (h busier decisions of V): busier
 * first, spread evenly; a forward branch or exit whose guard a warp holds
 * fixed (pn_sass_fixed_guards) is decided so once per warp, k the warp's rank
 * among those reaching it, and kept at its later visits. Where that guard
 * carries the block's and the thread's index and no loaded value (guard[i],
 * the bits of pn_sass_addr_sources_guards; guard may be NULL) it is a bounds
 * check on the thread's index in the grid ("if (i >= n) return;"): the warps
 * that go on are the launch's first, so the SM's are its first warps, not
 * spread (pn_sass_prefix3). A guard of the block's index alone (a range of
 * blocks, cuSOLVER's ipiv_lower_diag) stays spread. A walk longer than the
 * launch's instructions is PN_EINVAL ("does not reach EXIT"). O(n_ops + the
 * warps' paths). */
pn_status_t pn_sass_plan_build(pn_sass_plan_t *pl, const pn_sass_prog_t *prog,
                               const uint8_t *guard, uint32_t warps_per_block, uint32_t blocks,
                               pn_error_t *err);
void pn_sass_plan_destroy(pn_sass_plan_t *pl);

/* Take plan pl's reused loads (pl->reuse) as loads that go to a level like
 * the others: counted in loads, none flagged. n_ops: the program's ops. */
void pn_sass_plan_drop_reuse(pn_sass_plan_t *pl, size_t n_ops);

/* The visits of branch br (over the launch) that take its busier side alone. */
static inline double pn_sass_branch_heavy(const pn_sass_branch_t *br)
{
    return br->heavy_taken ? br->taken : br->visits - br->both - br->taken;
}

/* Is the k-th of v decisions, h of them busier, a busier one? */
static inline int pn_sass_heavy(uint64_t k, uint64_t h, uint64_t v)
{
    if (v == 0)
        return h > 0;
    k %= v;
    return ((k + 1) * h + v - 1) / v > (k * h + v - 1) / v;
}

/* The k-th of v decisions of a branch, b of them both sides (spread as
 * pn_sass_heavy spreads them) and h of the other v - b its busier side: 2
 * both, 1 the busier side, 0 the other. */
static inline int pn_sass_heavy3(uint64_t k, uint64_t b, uint64_t h, uint64_t v)
{
    if (b == 0)
        return pn_sass_heavy(k, h, v);
    if (pn_sass_heavy(k, b, v))
        return 2;
    uint64_t before = v ? (k / v) * b + ((k % v) * b + v - 1) / v : 0;
    return pn_sass_heavy(k - before, h, v > b ? v - b : 0);
}

/* The decision of the k-th of the SM's warps to reach a bounds check whose
 * decisions over the launch's `warps` warps hold b both sides and h the
 * busier side alone, the SM holding sm_warps of the launch's warps: the
 * launch's first warps take the busier side, then those that hold the bound
 * (both), then the rest. The SM's k-th warp stands at k warps / sm_warps of
 * the launch's (its first at 0: a bound only the launch's first warp passes
 * still has it there). 2 both, 1 the busier side, 0 the other. O(1). */
static inline int pn_sass_prefix3(uint64_t k, uint64_t b, uint64_t h, double warps,
                                  double sm_warps)
{
    double x = sm_warps > 0 ? (double)k * warps / sm_warps : 0;
    return x < (double)h ? 1 : x < (double)(h + b) ? 2 : 0;
}

#endif
