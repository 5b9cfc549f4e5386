/* test_sass_partial.c - what a contiguous store's partly written sectors cost
 * the DRAM in a sass run (the profile's dram_partial_sectors; doc/dependencies.md,
 * "Partly written sectors"): exact DRAM bounds on one warp's 8 stores of 32
 * lanes, aligned, a word past a line, scattered and of one lane
 * (examples/probe/unaligned.cu measured the rule on an H100). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"
#include "pn_test_sass.h"

/* The DRAM bound (one sector a step, every store written back: l2_hit 0) of
 * one warp's 8 stores of `text`, each execution of `lanes` threads over sec
 * sectors in `lines` lines, with dram_partial_sectors `extra` and the
 * launch's DRAM writes measured at dram_st sectors a store (< 0: not). */
static uint64_t store_bound(const char *text, double lanes, double sec, double lines,
                            double extra, double dram_st)
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 8; i++)
        assert_int_equal(pn_sass_prog_add(&p, text, (uint64_t)(16 * i), 0, 1, sec, lines, 0,
                                          i + 1, lanes, &err),
                         PN_OK);
    assert_int_equal(pn_sass_prog_add(&p, "EXIT", 128, 0, 1, 0, 0, 0, 9, lanes, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, 1, 1);
    pp.rate[PN_PIPE_DRAM] = PN_PIPE_UNIT;
    pn_pipe_device_t pd = { 0 };
    pd.dram_partial_sectors = extra;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    mem.dram_st = dram_st;
    pn_pipe_bounds_t b;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    pn_sass_prog_destroy(&p);
    return b.steps[PN_BOUND_PIPE0 + PN_PIPE_DRAM];
}

#define STG "STG.E desc[UR4][R2.64], R5"

/* 8 stores of 4 whole sectors: 32 steps less the full bucket (4 + 2): 26,
 * with the key or without. A word past a line, 5 sectors over 2 lines: 40
 * less (5 + 2), 33 without the key; with 1.9 its first and last sector cost
 * 1.9 more each, 8.8 a store: 70.4 less (8.8 + 2), 59. Half the executions
 * past a line (4.5 sectors an execution): one partly written sector, 6.4 a
 * store: 51.2 less 8.4, 42. */
static void test_partial_contiguous(void **state)
{
    (void)state;
    assert_int_equal(store_bound(STG, 32, 4, 1, 0, -1), 26);
    assert_int_equal(store_bound(STG, 32, 4, 1, 1.9, -1), 26);
    assert_int_equal(store_bound(STG, 32, 5, 2, 0, -1), 33);
    assert_int_equal(store_bound(STG, 32, 5, 2, 1.9, -1), 59);
    assert_int_equal(store_bound(STG, 32, 4.5, 2, 1.9, -1), 42);
    /* 16-byte lanes, 16 sectors of data: 17 over 5 lines, 8 x (17 + 3.8)
     * = 166.4 less 22.8: 143 (without the key 136 - 19 = 117) */
    assert_int_equal(store_bound("STG.E.128 desc[UR4][R2.64], R4", 32, 17, 5, 0, -1), 117);
    assert_int_equal(store_bound("STG.E.128 desc[UR4][R2.64], R4", 32, 17, 5, 1.9, -1), 143);
}

/* The launch's DRAM writes measured at 4 sectors a store of 5: each store
 * pays 0.8 of its 8.8, 7.04: 56.32 less 9.04, 47 (without the key 32 less 6,
 * 26). */
static void test_partial_measured(void **state)
{
    (void)state;
    assert_int_equal(store_bound(STG, 32, 5, 2, 0, 4), 26);
    assert_int_equal(store_bound(STG, 32, 5, 2, 1.9, 4), 47);
}

/* Left alone: scattered lanes (a thread a row, 32 sectors over 32 lines: 256
 * less 34, 222), a store of more than one sector past its data (8 sectors for
 * 4 of data), and one lane's word a warp (4 bytes: 8 less 3, 5). */
static void test_partial_left_alone(void **state)
{
    (void)state;
    assert_int_equal(store_bound(STG, 32, 32, 32, 1.9, -1), 222);
    assert_int_equal(store_bound(STG, 32, 8, 2, 1.9, -1), store_bound(STG, 32, 8, 2, 0, -1));
    assert_int_equal(store_bound(STG, 1, 1, 1, 1.9, -1), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partial_contiguous),
        cmocka_unit_test(test_partial_measured),
        cmocka_unit_test(test_partial_left_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
