/* test_occupancy.c - resident blocks per SM against values worked out from
 * cuda_occupancy.h's rules (register file split into sub-partitions,
 * per-warp allocation units, shared memory reserve and granularity). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pn_device.h"
#include "pn_occupancy.h"
#include "pn_test.h"

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

/* Register counts that are not multiples of 8, on every profile's compute
 * capability, worked by hand with the CUDA occupancy calculator's rule
 * (cuda_occupancy.h): a warp's registers are regs * 32 rounded up to the
 * allocation unit; each of the SM's register sub-partitions
 * (regs_per_sm / partitions) holds floor(its registers / a warp's) warps;
 * blocks = floor(warps of all sub-partitions / warps per block). Each count
 * is chosen so that half the allocation unit gives another answer. */
static pn_occupancy_t profile_occ(const char *name, uint32_t warps, uint32_t regs)
{
    pn_device_t dev;
    pn_error_t err;
    memset(&dev, 0, sizeof dev);
    if (pn_device_load(&dev, name, NULL, 0, 0, &err) != PN_OK)
        fail_msg("%s", err.msg);
    pn_occupancy_t o = occ(&dev.occ, warps, regs, 0);
    pn_device_destroy(&dev);
    return o;
}

static void test_registers_by_hand(void **state)
{
    (void)state;
    /* CC 9.0 (h100): 33 regs -> 1056 -> unit 256: 1280 per warp; 65536 / 4 =
     * 16384 per sub-partition / 1280 = 12 warps, x 4 = 48 warps; blocks of
     * 8 warps: 6 (a unit of 128 gives 1152: 14 x 4 / 8 = 7) */
    assert_int_equal(profile_occ("h100", 8, 33).by_registers, 6);
    /* CC 5.0 (gtx960m): the same rule and sizes: 6 */
    assert_int_equal(profile_occ("gtx960m", 8, 33).by_registers, 6);
    /* CC 9.0, 75 regs, 4 warps: 2400 -> 2560; 16384 / 2560 = 6; 24 warps: 6
     * blocks */
    assert_int_equal(profile_occ("h100", 4, 75).by_registers, 6);
    /* CC 2.0 (gtx480): 25 regs -> 800 -> unit 64: 832 per warp; 32768 / 2 =
     * 16384 per sub-partition / 832 = 19 warps, x 2 = 38; blocks of 2 warps:
     * 19 (a unit of 32 gives 800: 20 x 2 / 2 = 20) */
    assert_int_equal(profile_occ("gtx480", 2, 25).by_registers, 19);
    /* CC 2.0, 35 regs, 8 warps: 1120 -> 1152; 16384 / 1152 = 14 x 2 = 28
     * warps: 3 blocks */
    assert_int_equal(profile_occ("gtx480", 8, 35).by_registers, 3);
}

int main(void)
{
    if (pn_test_chdir_root("models/devices/h100.yaml") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_registers_by_hand),
        cmocka_unit_test(test_shared),
        cmocka_unit_test(test_fits_nowhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
