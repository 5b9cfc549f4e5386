/* test_occupancy.c - resident blocks per SM against values worked out from
 * cuda_occupancy.h's rules (register file split into sub-partitions,
 * per-warp allocation units, shared memory reserve and granularity). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pn_occupancy.h"

/* Compute capability 9.0 (H100, H200): CUDA C++ Programming Guide tables. */
static const pn_occ_rules_t cc90 = {
    .max_warps = 64, .max_blocks = 32, .regs_per_sm = 65536, .regs_per_block = 65536,
    .reg_unit = 256, .reg_partitions = 4, .max_regs_per_thread = 255,
    .shared_per_sm = 233472, .shared_per_block = 232448, .shared_unit = 128,
    .shared_reserve = 1024,
};

static pn_occupancy_t occ(const pn_occ_rules_t *r, uint32_t warps, uint32_t regs, uint32_t sh)
{
    pn_occupancy_t o;
    pn_error_t err;
    if (pn_occupancy(r, warps, regs, sh, &o, &err) != PN_OK)
        fail_msg("%s", err.msg);
    return o;
}

static void test_registers(void **state)
{
    (void)state;
    /* 128 regs, 2 warps: 4096 per warp, 16384 / 4096 = 4 warps per
     * sub-partition, 16 per SM: 8 blocks */
    assert_int_equal(occ(&cc90, 2, 128, 0).by_registers, 8);
    /* 40 regs, 1 warp: 1280 per warp, 12 per sub-partition: 48 */
    assert_int_equal(occ(&cc90, 1, 40, 0).by_registers, 48);
    /* 48 regs, 3 warps: 1536 per warp, 10 per sub-partition, 40 warps: 13
     * (the undivided register file would say 14) */
    assert_int_equal(occ(&cc90, 3, 48, 0).by_registers, 13);
    /* 32 regs, 8 warps: 16 warps per sub-partition: 8 blocks; warps limit 8 too */
    pn_occupancy_t o = occ(&cc90, 8, 32, 0);
    assert_int_equal(o.by_registers, 8);
    assert_int_equal(o.by_warps, 8);
    assert_int_equal(o.resident, 8);
    assert_int_equal(o.limiters, PN_OCC_WARPS | PN_OCC_REGISTERS);
    char buf[48];
    assert_string_equal(pn_occupancy_limiters(o.limiters, buf, sizeof buf), "warps+registers");
}

static void test_shared(void **state)
{
    (void)state;
    /* 40000 bytes + 1024 reserve = 41024, rounded to 41088: 233472 / 41088 = 5 */
    pn_occupancy_t o = occ(&cc90, 2, 32, 40000);
    assert_int_equal(o.by_shared, 5);
    assert_int_equal(o.resident, 5);
    assert_int_equal(o.limiters, PN_OCC_SHARED);
    assert_int_equal(o.shared_per_block, 41088);
    /* no shared memory: the reserve alone, 228 blocks */
    assert_int_equal(occ(&cc90, 1, 16, 0).by_shared, 228);
    assert_int_equal(occ(&cc90, 1, 16, 0).resident, 32);
}

static void test_fits_nowhere(void **state)
{
    (void)state;
    pn_occupancy_t o;
    pn_error_t err;
    assert_int_equal(pn_occupancy(&cc90, 32, 255, 0, &o, &err), PN_ELIMIT);
    assert_non_null(strstr(err.msg, "more registers than a block may use"));
    assert_int_equal(pn_occupancy(&cc90, 4, 32, 300000, &o, &err), PN_ELIMIT);
    assert_non_null(strstr(err.msg, "fits on no SM: more shared memory"));
    assert_int_equal(pn_occupancy(&cc90, 0, 32, 0, &o, &err), PN_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_shared),
        cmocka_unit_test(test_fits_nowhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
