/* pn_occupancy.h - resident blocks per SM, as the CUDA occupancy calculator
 * (cuda_occupancy.h) computes them: warps, blocks, registers (allocated per
 * warp in units, per sub-partition) and shared memory (per block, rounded up,
 * plus the driver's per-block reserve). */
#ifndef PN_OCCUPANCY_H
#define PN_OCCUPANCY_H

#include <stdint.h>

#include "pn_error.h"

/* The occupancy rules of one compute capability (a device profile's
 * `occupancy:` section). */
typedef struct pn_occ_rules {
    uint32_t max_warps;           /* resident warps per SM */
    uint32_t max_blocks;          /* resident blocks per SM */
    uint32_t regs_per_sm;         /* 32-bit registers per SM */
    uint32_t regs_per_block;      /* largest register file one block may use */
    uint32_t reg_unit;            /* registers are allocated per warp in units of this */
    uint32_t reg_partitions;      /* sub-partitions the register file is split into */
    uint32_t max_regs_per_thread;
    uint32_t shared_per_sm;       /* bytes of shared memory per SM (largest carveout) */
    uint32_t shared_per_block;    /* largest shared memory one block may use */
    uint32_t shared_unit;         /* allocation granularity, bytes */
    uint32_t shared_reserve;      /* bytes the driver reserves per block (CC >= 8.0) */
} pn_occ_rules_t;

/* What limits the resident blocks: bits of pn_occupancy_t.limiters. */
enum {
    PN_OCC_WARPS = 1,
    PN_OCC_BLOCKS = 2,
    PN_OCC_REGISTERS = 4,
    PN_OCC_SHARED = 8
};

typedef struct pn_occupancy {
    uint32_t by_warps, by_blocks, by_registers, by_shared;  /* each limit */
    uint32_t resident;            /* min of the four: blocks resident per SM */
    unsigned limiters;            /* PN_OCC_* of the limits equal to resident */
    uint32_t regs_per_block;      /* registers allocated to a block */
    uint32_t shared_per_block;    /* shared bytes allocated to a block */
} pn_occupancy_t;

/* Compute the occupancy of blocks of `warps` warps using `regs` registers per
 * thread and `shared` bytes of shared memory per block (static + dynamic)
 * under rules r. Register limit as cudaOccMaxBlocksPerSMRegsLimit (registers
 * per warp rounded up to reg_unit; warps per sub-partition =
 * (regs_per_sm / reg_partitions) / that; times reg_partitions, divided by the
 * block's warps; 0 when the block's registers, with its warps rounded up to
 * reg_partitions, exceed regs_per_block, or regs > max_regs_per_thread);
 * shared limit = shared_per_sm / roundup(shared + reserve, shared_unit), 0
 * above shared_per_block + reserve; no shared memory and no reserve: no limit
 * (UINT32_MAX). Errors: PN_ELIMIT "a block of ... fits on no SM: ..." when
 * resident is 0, naming each limit that is 0; PN_EINVAL for warps 0 or rules
 * with a zero field that is a divisor. O(1). */
pn_status_t pn_occupancy(const pn_occ_rules_t *r, uint32_t warps, uint32_t regs, uint32_t shared,
                         pn_occupancy_t *out, pn_error_t *err);

/* The limiters as text: "warps", "registers+shared", ... (buf of >= 40). */
const char *pn_occupancy_limiters(unsigned limiters, char *buf, unsigned size);

#endif
