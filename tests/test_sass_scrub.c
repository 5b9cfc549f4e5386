/* test_sass_scrub.c - what a launch timed cold pays the L2 and the DRAM in a
 * sass run (doc/dependencies.md, "Cold launches"): its DRAM reads come into
 * the L2 on the stores' write budget (the profile's l2_fill_sectors), and
 * after a scrub that leaves the L2 dirty (kernel.memory.flushed 2) it writes
 * the scrub's lines back (scrub_dirty_mib, scrub_writeback_ld/_st). Exact
 * bounds on an 8-load, 8-store program (examples/probe/cold_stream.cu
 * measured the rules on an H100). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"
#include "pn_test_sass.h"

/* One warp: 8 loads (each from a base register of its own: a level drawn
 * each) then 8 stores of 4 sectors in one line each, EXIT. */
static void copy_prog(pn_sass_prog_t *p)
{
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 16; i++) {
        char ldg[64];
        snprintf(ldg, sizeof ldg, "LDG.E R5, desc[UR4][R%d.64]", 10 + 2 * i);
        assert_int_equal(pn_sass_prog_add(p, i < 8 ? ldg : "STG.E desc[UR4][R6.64], R7",
                                          (uint64_t)(16 * i), 0, 1, 4, 1, 0, i + 1, 1, &err),
                         PN_OK);
    }
    assert_int_equal(pn_sass_prog_add(p, "EXIT", 256, 0, 1, 0, 0, 0, 17, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(p, &err), PN_OK);
}

/* The bounds of copy_prog with DRAM one sector a step, on pd and mem. */
static void copy_bounds(const pn_pipe_device_t *pd, const pn_memory_t *mem, pn_pipe_bounds_t *b)
{
    pn_sass_prog_t p;
    copy_prog(&p);
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, 1, 1);
    pp.rate[PN_PIPE_DRAM] = PN_PIPE_UNIT;
    pn_test_sass_bounds(&p, &pp, pd, mem, b);
    pn_sass_prog_destroy(&p);
}

/* Every access past L1 and L2; the loads' DRAM reads measured at dram_ld
 * sectors a load (< 0: not measured), the stores' writes at none. */
static void cold_memory(pn_memory_t *mem, double dram_ld, int flushed)
{
    pn_memory_default(mem);
    mem->l1_hit = mem->l2_hit = 0;
    mem->dram_ld = dram_ld;
    mem->dram_st = 0;
    mem->flushed = flushed;
}

/* The L2's write budget one sector a step (l2_sectors 1, whole-line stores at
 * 1): a store of 4 sectors takes 4 steps of it, so 8 take 32 less the full
 * bucket (4 + 2): 26. With l2_fill_sectors 2 each load's 4 DRAM sectors take
 * 2 steps more of it: 48 less the bucket (4 + 2): 42, measured or drawn at
 * the DRAM level; a load served at L2 (l2_hit 1, not measured) fills
 * nothing. */
static void test_l2_fill(void **state)
{
    (void)state;
    pn_pipe_device_t pd = { 0 };
    pd.l2_sectors = 1;
    pd.l2_store_line_sectors = 1;
    pn_memory_t mem;
    pn_pipe_bounds_t b;
    cold_memory(&mem, 4, 1);
    copy_bounds(&pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_L2_WRITE], 26);
    pd.l2_fill_sectors = 2;
    copy_bounds(&pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_L2_WRITE], 42);
    assert_int_equal(b.binding, PN_BOUND_L2_WRITE);
    cold_memory(&mem, -1, 0); /* not measured: every load drawn at DRAM (l2_hit 0) */
    copy_bounds(&pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_L2_WRITE], 42);
    mem.l2_hit = 1;
    copy_bounds(&pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_L2_WRITE], 26);
}

/* The DRAM bound of copy_prog, its loads' reads measured at 4 sectors a load,
 * flushed as given, with write-backs wl a sector read and ws a sector stored
 * up to cap_mib MiB. */
static uint64_t scrub_dram_bound(int flushed, double wl, double ws, double cap_mib)
{
    pn_pipe_device_t pd = { 0 };
    pd.scrub_writeback_ld = wl;
    pd.scrub_writeback_st = ws;
    pd.scrub_dirty_mib = cap_mib;
    pn_memory_t mem;
    cold_memory(&mem, 4, flushed);
    pn_pipe_bounds_t b;
    copy_bounds(&pd, &mem, &b);
    return b.steps[PN_BOUND_PIPE0 + PN_PIPE_DRAM];
}

/* 8 loads of 4 DRAM sectors: 32 steps less the full bucket (4 + 2): 26, the
 * stores none (their lines stay in L2). After a dirty scrub, write-backs of
 * 0.5 a sector read and 0.25 a sector stored: loads 6 sectors each, stores 1:
 * 56 less (6 + 2): 48. At most 8 sectors of them (2^-12 MiB) where 24 were
 * asked: a third each, loads 4 + 2/3, stores 1/3 (4667 and 333 units): 40000
 * less (4667 + 2000) at 1000 a step: 33. Nothing without the keys, or for a
 * launch flushed cleanly or launched again and again. */
static void test_scrub_writebacks(void **state)
{
    (void)state;
    assert_int_equal(scrub_dram_bound(1, 0, 0, 0), 26);
    assert_int_equal(scrub_dram_bound(2, 0.5, 0.25, 1), 48);
    assert_int_equal(scrub_dram_bound(2, 0.5, 0.25, 1.0 / 4096), 33);
    assert_int_equal(scrub_dram_bound(2, 0.5, 0.25, 0), 26);
    assert_int_equal(scrub_dram_bound(1, 0.5, 0.25, 1), 26);
    assert_int_equal(scrub_dram_bound(0, 0.5, 0.25, 1), 26);
    /* stores alone write back: 32 + 8 less (4 + 2) */
    assert_int_equal(scrub_dram_bound(2, 0, 0.25, 1), 34);
}

/* Steps of copy_prog's run (seed 1) with loads' DRAM latency 40 settled
 * under the launch's own load (dram_queue 10), flushed as given with
 * write-backs 0.5 a sector read (none stored), and dram_write_delay wd. */
static uint64_t scrub_steps(int flushed, double wd)
{
    pn_sass_prog_t p;
    copy_prog(&p);
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, 1, 1);
    pp.rate[PN_PIPE_DRAM] = PN_PIPE_UNIT;
    pn_pipe_device_t pd = { 0 };
    pd.dram_sectors = 1;
    pd.dram_queue = 10;
    pd.dram_write_delay = wd;
    pd.scrub_writeback_ld = 0.5;
    pd.scrub_dirty_mib = 1;
    pn_memory_t mem;
    cold_memory(&mem, 4, flushed);
    uint64_t steps = pn_test_sass_steps(&p, &pp, &pd, &mem);
    pn_sass_prog_destroy(&p);
    return steps;
}

/* The write-backs are DRAM writes, which lengthen the DRAM's latency under
 * load (dram_write_delay): after a dirty scrub the write delay slows the run;
 * flushed cleanly, with nothing written to DRAM, it changes nothing. */
static void test_scrub_latency(void **state)
{
    (void)state;
    assert_int_equal(scrub_steps(1, 50), scrub_steps(1, 0));
    assert_true(scrub_steps(2, 50) > scrub_steps(2, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_l2_fill),
        cmocka_unit_test(test_scrub_writebacks),
        cmocka_unit_test(test_scrub_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
