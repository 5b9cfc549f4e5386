/* pn_pipe.h - the pipelined SM net (model.net: pipelined): one step is one SM
 * cycle, warps bound to partition schedulers, per-kind latencies and
 * token-bucket pipes, arc by arc as models/pipelined/PIPELINED.md documents it. */
#ifndef PN_PIPE_H
#define PN_PIPE_H

#include <stdint.h>

#include "pn_engine.h"
#include "pn_error.h"
#include "pn_model_engine.h"
#include "pn_net.h"

/* The instruction kinds of the pipelined net: the count kinds of a config,
 * with global loads split by the level that serves them. */
typedef enum pn_pipe_kind {
    PN_PIPE_ARITH = 0,
    PN_PIPE_SFU = 1,
    PN_PIPE_SHARED_LD = 2,
    PN_PIPE_SHARED_ST = 3,
    PN_PIPE_LD_L1 = 4,
    PN_PIPE_LD_L2 = 5,
    PN_PIPE_LD_DRAM = 6,
    PN_PIPE_GLOBAL_ST = 7,
    PN_PIPE_KINDS = 8
} pn_pipe_kind_t;

/* The throughput-limited pipes, each a token bucket (PIPELINED.md). The SFU
 * and arithmetic pipes exist once per partition, the others once per SM. */
typedef enum pn_pipe_pipe {
    PN_PIPE_LSU = 0,      /* load/store pipe: sectors of global accesses */
    PN_PIPE_SHMEM = 1,    /* shared-memory pipe: wavefronts */
    PN_PIPE_DRAM = 2,     /* this SM's share of DRAM: sectors of DRAM loads */
    PN_PIPE_SFUP = 3,     /* one partition's SFU pipe: warp instructions */
    PN_PIPE_ALUP = 4,     /* one partition's arithmetic pipes: warp instructions */
    PN_PIPE_PIPES = 5
} pn_pipe_pipe_t;

/* Bucket units per sector, wavefront or SFU instruction: costs and rates are
 * rounded to 1/PN_PIPE_UNIT. */
#define PN_PIPE_UNIT 1000u

/* Largest latency, partitions and issue width accepted. */
#define PN_PIPE_MAX_LATENCY   1000000u
#define PN_PIPE_MAX_PARTITIONS 64u
#define PN_PIPE_MAX_ISSUE      8u

/* Short names of the kinds ("arith", "sfu", "shared_ld", "shared_st",
 * "ld_l1", "ld_l2", "ld_dram", "global_st") and pipes ("lsu", "shared",
 * "dram", "sfu", "alu"). */

/* Is pipe q one of a partition's own (sfu, alu)? */
#define PN_PIPE_PER_PARTITION(q) ((q) == PN_PIPE_SFUP || (q) == PN_PIPE_ALUP)
extern const char *const pn_pipe_kind_names[PN_PIPE_KINDS];
extern const char *const pn_pipe_pipe_names[PN_PIPE_PIPES];

/* Per-warp instruction counts by pipelined kind. */
typedef struct pn_pipe_counts {
    uint64_t n[PN_PIPE_KINDS];
} pn_pipe_counts_t;

/* Everything the generator needs; the net is a pure function of it.
 * rate[p] == 0 leaves pipe p out (unlimited); cost[k][p] is what an
 * instruction of kind k takes from pipe p's bucket (0: nothing). */
typedef struct pn_pipe_params {
    uint32_t partitions;                    /* S >= 1: warp w on partition w mod S */
    uint32_t issue;                         /* instructions a partition issues per step, >= 1 */
    uint32_t latency[PN_PIPE_KINDS];        /* >= 2; loads (l1, l2, dram) >= 3 */
    uint32_t rate[PN_PIPE_PIPES];           /* bucket refill per step, units */
    uint32_t cost[PN_PIPE_KINDS][PN_PIPE_PIPES]; /* units taken at acquisition */
    uint32_t inflight;                      /* global loads outstanding per SM; 0: unlimited */
    uint32_t n_warps;                       /* warps per block, >= 1 */
    const pn_pipe_counts_t *warps;          /* n_warps entries: warp i of every block */
    /* per-block counts: NULL, or blocks * n_warps entries, warp i of block b
     * at [b * n_warps + i], which replace warps (still required: a block's
     * shape; pn_pipe_check validates both); programs must then be NULL */
    const pn_pipe_counts_t *block_warps;
    uint64_t barriers;                      /* barriers per warp (every warp the same) */
    uint32_t barrier_latency;               /* >= 5 when barriers > 0 */
    uint32_t blocks;                        /* blocks this SM runs; 0 is taken as 1 */
    uint32_t resident;                      /* blocks resident at once; 0 is taken as 1 */
    uint32_t block_launch;                  /* steps between two block starts on the SM
                                             * (after the first wave); 0 is taken as 1 */
    /* program order (PIPELINED.md): NULL, or n_warps programs (items arith,
     * shared, global) that replace frame I; warps[i] must hold the counts
     * they imply: arith, shared_ld = shared items, ld_l1 + ld_l2 + ld_dram =
     * global items (the level of each global item is chosen among the levels
     * left); barriers must be 0 */
    const struct pn_program *programs;
} pn_pipe_params_t;

/* Smallest barrier latency (PIPELINED.md, barriers). */
#define PN_PIPE_MIN_BARRIER_LATENCY 5u

/* A bucket's capacity: the largest cost any kind takes from it plus two
 * steps' refill (PIPELINED.md: with less, a full bucket alternates between a
 * step that takes and a step that refills, and sustains only half its rate).
 * 0 for an absent pipe. */
uint32_t pn_pipe_capacity(const pn_pipe_params_t *p, pn_pipe_pipe_t pipe);

/* Validate p: PN_EINVAL naming the bad field (latency below its minimum or
 * above PN_PIPE_MAX_LATENCY, partitions or issue out of range, a cost on an
 * absent pipe, no warps), PN_ELIMIT for a count above PN_PIPE_MAX_COUNT. */
pn_status_t pn_pipe_check(const pn_pipe_params_t *p, pn_error_t *err);

/* Largest count per warp and kind. */
#define PN_PIPE_MAX_COUNT UINT64_C(4294967295)

/* Instructions of warp counts c before its first barrier (and between two):
 * floor(n / (barriers + 1)); the last phase has the rest. */
uint64_t pn_pipe_phase(const pn_pipe_counts_t *c, uint64_t barriers);

/* Where the generator put the global nodes. */
typedef struct pn_pipe_layout {
    uint32_t pw, t0, pfin, done, t_done;
    uint32_t sched0;              /* partition j's scheduler place: sched0 + j */
    uint32_t warp_place0;         /* warp 0's first place */
    uint32_t warp_trans0;         /* warp 0's first transition */
} pn_pipe_layout_t;

/* Build the pipelined net of p into net, which must be freshly initialised
 * (pn_net_init) and is frozen on success. Names: "pw", "pfin", "done", "t0",
 * "t_done", "q<j>" (schedulers), "<pipe>.bucket", "<pipe>.room",
 * "<pipe>.refill" (sfu pipes as "sfu<j>.*"), "inflight", and per warp
 * "w<i>.<place>" / "w<i>.<transition>" as PIPELINED.md lists them. On error
 * net holds a partial net that the caller destroys as usual. O(n_warps). */
pn_status_t pn_pipe_build(pn_net_t *net, const pn_pipe_params_t *p, pn_pipe_layout_t *layout,
                          pn_error_t *err);

/* Steps a single warp alone needs when no pipe makes it wait:
 * sum_k x_k * L_k + 3, whatever the random choices (PIPELINED.md). */
uint64_t pn_pipe_single_warp_steps(const pn_pipe_counts_t *c, const uint32_t *latency);

/* Firings of transition t0 (idle steps) in that same single-warp run:
 * sum_k x_k * (L_k - 1) + 2. */
uint64_t pn_pipe_single_warp_idle(const pn_pipe_counts_t *c, const uint32_t *latency);

#endif
