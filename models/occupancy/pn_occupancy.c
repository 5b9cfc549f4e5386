/* pn_occupancy.c - resident blocks per SM from the occupancy rules. */
#include "pn_occupancy.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

static uint64_t round_up(uint64_t x, uint64_t unit)
{
    return (x + unit - 1) / unit * unit;
}

pn_status_t pn_occupancy(const pn_occ_rules_t *r, uint32_t warps, uint32_t regs, uint32_t shared,
                         pn_occupancy_t *out, pn_error_t *err)
{
    memset(out, 0, sizeof *out);
    if (warps == 0)
        return pn_error_set(err, PN_EINVAL, "a block needs at least one warp");
    if (!r->max_warps || !r->max_blocks || !r->reg_unit || !r->reg_partitions ||
        !r->shared_unit || !r->regs_per_sm)
        return pn_error_set(err, PN_EINVAL, "occupancy rules with a zero unit or limit");
    out->by_warps = r->max_warps / warps;
    out->by_blocks = r->max_blocks;

    uint64_t per_warp = round_up((uint64_t)regs * 32u, r->reg_unit);
    uint64_t assumed = per_warp * round_up(warps, r->reg_partitions);
    out->regs_per_block = (uint32_t)(per_warp * warps);
    if (regs > r->max_regs_per_thread || assumed > r->regs_per_block ||
        per_warp * warps > r->regs_per_block)
        out->by_registers = 0;
    else if (per_warp == 0)
        out->by_registers = UINT32_MAX;
    else
        out->by_registers = (uint32_t)((r->regs_per_sm / r->reg_partitions) / per_warp *
                                       r->reg_partitions / warps);

    uint64_t alloc = round_up((uint64_t)shared + r->shared_reserve, r->shared_unit);
    out->shared_per_block = (uint32_t)alloc;
    if ((uint64_t)shared > r->shared_per_block)
        out->by_shared = 0;
    else if (alloc == 0)
        out->by_shared = UINT32_MAX;
    else
        out->by_shared = (uint32_t)(r->shared_per_sm / alloc);

    uint32_t m = out->by_warps;
    if (out->by_blocks < m) m = out->by_blocks;
    if (out->by_registers < m) m = out->by_registers;
    if (out->by_shared < m) m = out->by_shared;
    out->resident = m;
    /* what the contract promises of a block that fits: R blocks stay within
     * the SM's warps, blocks, registers and shared memory */
    assert(m == 0 || ((uint64_t)m * warps <= r->max_warps && m <= r->max_blocks &&
                      (out->by_registers == UINT32_MAX ||
                       (uint64_t)m * per_warp * warps <= r->regs_per_sm) &&
                      (out->by_shared == UINT32_MAX || (uint64_t)m * alloc <= r->shared_per_sm)));
    out->limiters = (out->by_warps == m ? PN_OCC_WARPS : 0) |
                    (out->by_blocks == m ? PN_OCC_BLOCKS : 0) |
                    (out->by_registers == m ? PN_OCC_REGISTERS : 0) |
                    (out->by_shared == m ? PN_OCC_SHARED : 0);
    if (m == 0)
        return pn_error_set(err, PN_ELIMIT,
                            "a block of %u warps with %u registers per thread and %u bytes of "
                            "shared memory fits on no SM:%s%s%s",
                            warps, regs, shared,
                            out->by_warps == 0 ? " more warps than an SM holds" : "",
                            out->by_registers == 0 ? " more registers than a block may use" : "",
                            out->by_shared == 0 ? " more shared memory than a block may use"
                                                : "");
    return PN_OK;
}

const char *pn_occupancy_limiters(unsigned limiters, char *buf, unsigned size)
{
    static const char *const names[] = { "warps", "blocks", "registers", "shared" };
    buf[0] = '\0';
    for (int i = 0; i < 4; i++)
        if (limiters & (1u << i)) {
            if (buf[0])
                strncat(buf, "+", size - strlen(buf) - 1);
            strncat(buf, names[i], size - strlen(buf) - 1);
        }
    return buf;
}
