/* test_sass_port.c - global accesses on the SM's load/store path: a store's
 * lines (the profile's store_line_cycles and store_narrow; doc/dependencies.md,
 * "A store's lines on the loads' path") and the loads' measured L1 wavefronts
 * (kernel.memory.l1_ld_wavefronts, "The loads' L1 wavefronts"): exact LSU
 * bounds on a program of one scattered load, scattered stores of 16 and 32
 * bits and a coalesced store (examples/probe/row_store.cu and row_mix.cu
 * measured the rules on an H100); and the L1's merge of a warp's partial
 * stores to the same sectors (store_merge, examples/probe/store_split.cu). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"
#include "pn_test_sass.h"
#include "pn_test_sass_warp.h"

/* One warp, one execution each: a load of 32 sectors over 32 lines, two
 * 16-bit stores and a 32-bit one of 32 sectors over 32 lines (a thread a
 * row), a store of 4 sectors in one line, one of 16 sectors over 8 lines,
 * a 16-bit store of 2 whole sectors in one line (coalesced), EXIT. */
static void port_prog(pn_sass_prog_t *p)
{
    static const struct { const char *text; double sectors, lines; } op[] = {
        { "LDG.E R5, desc[UR4][R2.64]", 32, 32 },
        { "STG.E.U16 desc[UR4][R6.64], R5", 32, 32 },
        { "STG.E.U16 desc[UR4][R6.64+0x2], R5", 32, 32 },
        { "STG.E desc[UR4][R8.64], R5", 32, 32 },
        { "STG.E desc[UR4][R10.64], R5", 4, 1 },
        { "STG.E desc[UR4][R12.64], R5", 16, 8 },
        { "STG.E.U16 desc[UR4][R14.64], R5", 2, 1 },
        { "EXIT", 0, 0 },
    };
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 8; i++)
        assert_int_equal(pn_sass_prog_add(p, op[i].text, (uint64_t)(16 * i), 0, 1, op[i].sectors,
                                          op[i].lines, 0, i + 1, 32, &err),
                         PN_OK);
    assert_int_equal(pn_sass_prog_finish(p, &err), PN_OK);
}

/* The LSU bound of port_prog, 4 sectors a step, with the keys as given, the
 * loads' measured wavefronts wf (< 0: not measured) and L1 hit rate hit. */
static uint64_t lsu_bound_wf(double line_cycles, double narrow, double wf, double hit)
{
    pn_sass_prog_t p;
    port_prog(&p);
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, 1, 1);
    pp.rate[PN_PIPE_LSU] = 4 * PN_PIPE_UNIT;
    pn_pipe_device_t pd = { 0 };
    pd.lsu_sectors = 4;
    pd.store_line_cycles = line_cycles;
    pd.store_narrow = narrow;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_ld_wf = wf;
    mem.l1_hit = hit;
    pn_pipe_bounds_t b;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    pn_sass_prog_destroy(&p);
    return b.steps[PN_BOUND_PIPE0 + PN_PIPE_LSU];
}

static uint64_t lsu_bound(double line_cycles, double narrow)
{
    return lsu_bound_wf(line_cycles, narrow, -1, 0);
}

/* Without the keys every access of 32 lines takes a cycle a line (128
 * sectors of the path), the whole line 4, the 8 half lines 32, the coalesced
 * 16-bit store's line 4: 552, less the bucket (the largest, 128, and two
 * steps, 8) over 4 a step: 104. With 2 cycles a line of one sector each
 * scattered store takes 32 x 2 x 4 = 256, the whole line still a cycle (4),
 * the half lines (128 bytes written of their 512) 8 x (1 + 1 x 2/3) x 4 =
 * 53.333, the coalesced 16-bit store (64 bytes fill its 2 sectors) its cycle,
 * 4: 957.333, less (256 + 8): 173 steps. With the 16-bit scattered ones 1.5
 * times dearer (384 each): 1213.333, less (384 + 8): 205. The load is not a
 * store: 128 throughout. */
static void test_store_port(void **state)
{
    (void)state;
    assert_int_equal(lsu_bound(0, 0), 104);
    assert_int_equal(lsu_bound(0, 1.5), 104);
    assert_int_equal(lsu_bound(2, 0), 173);
    assert_int_equal(lsu_bound(2, 1), 173);
    assert_int_equal(lsu_bound(2, 1.5), 205);
}

/* The load's measured wavefronts replace its cycle a line, but for a cycle
 * for each line that misses L1: all lines hitting, 8 a load (its one
 * execution) make its 128 sectors of the path 32, 552 - 96 = 456, less the
 * bucket (a store's 128 and 8) over 4: 80; 32 a load are its own 32 cycles,
 * 104 as without; 0 leave it nothing, 424 - 136: 72. With three lines in four
 * hitting, 0 and 4 a load leave it its 8 missing lines (32 sectors): 80.
 * With the stores at 2 cycles a line, 8 a load: 957.333 - 96, less 264: 149.
 * The stores keep theirs. */
static void test_load_wavefronts(void **state)
{
    (void)state;
    assert_int_equal(lsu_bound_wf(0, 0, 8, 1), 80);
    assert_int_equal(lsu_bound_wf(0, 0, 32, 1), 104);
    assert_int_equal(lsu_bound_wf(0, 0, 0, 1), 72);
    assert_int_equal(lsu_bound_wf(0, 0, 0, 0.75), 80);
    assert_int_equal(lsu_bound_wf(0, 0, 4, 0.75), 80);
    assert_int_equal(lsu_bound_wf(0, 0, 8, 0.75), 80);
    assert_int_equal(lsu_bound_wf(0, 0, 32, 0), 104);
    assert_int_equal(lsu_bound_wf(2, 1, 8, 1), 149);
}

/* A store's path time holds what comes after it: one warp, three stores of
 * 32 lines then a load of 32 lines, all at L1. Without the key each takes
 * 128 sectors of the path (a 136 bucket, 4 a step): after the first, each
 * waits 30 steps for its 128 (from 8): the load issues at 90. With 2 cycles
 * a line the stores take 256 each (a 264 bucket): the second and third wait
 * 62 steps each, the load 30: it issues at 154, 64 steps later. */
static void test_store_port_run(void **state)
{
    (void)state;
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    const char *ops[] = { "STG.E desc[UR4][R8.64], R5", "STG.E desc[UR4][R10.64], R5",
                          "STG.E desc[UR4][R12.64], R5", "LDG.E R5, desc[UR4][R2.64]", "EXIT" };
    for (int i = 0; i < 5; i++)
        assert_int_equal(pn_sass_prog_add(&p, ops[i], (uint64_t)(16 * i), 0, 1, i < 4 ? 32 : 0,
                                          i < 4 ? 32 : 0, 0, i + 1, 32, &err),
                         PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, 1, 1);
    pp.rate[PN_PIPE_LSU] = 4 * PN_PIPE_UNIT;
    pn_pipe_device_t pd = { 0 };
    pd.lsu_sectors = 4;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = 1;
    uint64_t plain = pn_test_sass_steps(&p, &pp, &pd, &mem);
    pd.store_line_cycles = 2;
    uint64_t port = pn_test_sass_steps(&p, &pp, &pd, &mem);
    assert_int_equal(port - plain, 64);
    pn_sass_prog_destroy(&p);
}

/* The L2 write bound of one warp's stores (texts, sectors and lines each, one
 * execution) at l2_sectors 1 and a line's rate of 1: a store of s sectors
 * costs s steps of the L2's write path; the bound is their sum less the full
 * bucket (the largest cost and two refills). */
static uint64_t l2w_bound(const char *const *text, const double *sec, const double *lines, int n,
                          double merge)
{
    pn_sass_prog_t p;
    rows_prog(&p, text, n, sec, lines, NULL);
    pn_pipe_device_t pd = { 0 };
    pd.l2_sectors = 1;
    pd.l2_store_sectors = pd.l2_store_line_sectors = 1;
    pd.store_merge = merge;
    pn_pipe_bounds_t b;
    bounds_pd(&p, &pd, &b);
    pn_sass_prog_destroy(&p);
    return b.steps[PN_BOUND_L2_WRITE];
}

/* A float4 a lane stored a word at a time (examples/probe/store_split.cu):
 * four 32-bit stores of 16 sectors over 4 lines at +0, +4, +8, +12 of one
 * address, then a 128-bit store of 16 sectors. In full: 80 steps less the
 * bucket's 18: 62. With store_merge 0.25 the three that follow the first
 * take 4 each: 44 - 18 = 26; the 128-bit store fills its sectors and pays in
 * full. Not merged: stores of one sector a line (a thread's row, 32 sectors
 * over 32 lines: 4 x 32 - 34 = 94 either way), local stores (a spill's STL)
 * and stores to another address register. */
static void test_store_merge(void **state)
{
    (void)state;
    static const char *split[] = { "STG.E desc[UR4][R2.64], R5", "STG.E desc[UR4][R2.64+0x4], R5",
                                   "STG.E desc[UR4][R2.64+0x8], R5", "STG.E desc[UR4][R2.64+0xc], R5",
                                   "STG.E.128 desc[UR4][R6.64], R8" };
    static const char *apart[] = { "STG.E desc[UR4][R2.64], R5", "STG.E desc[UR4][R4.64+0x4], R5",
                                   "STG.E desc[UR4][R6.64+0x8], R5", "STG.E desc[UR4][R8.64+0xc], R5",
                                   "STG.E.128 desc[UR4][R10.64], R12" };
    static const char *local[] = { "STL [R1], R5", "STL [R1+0x4], R5", "STL [R1+0x8], R5",
                                   "STL [R1+0xc], R5", "STL.128 [R1+0x40], R8" };
    static const double s16[] = { 16, 16, 16, 16, 16 }, l4[] = { 4, 4, 4, 4, 4 };
    static const double s32[] = { 32, 32, 32, 32 }, l32[] = { 32, 32, 32, 32 };
    assert_int_equal(l2w_bound(split, s16, l4, 5, 0), 62);
    assert_int_equal(l2w_bound(split, s16, l4, 5, 0.25), 26);
    assert_int_equal(l2w_bound(apart, s16, l4, 5, 0.25), 62);
    assert_int_equal(l2w_bound(local, s16, l4, 5, 0.25), 62);
    assert_int_equal(l2w_bound(split, s32, l32, 4, 0), 94);
    assert_int_equal(l2w_bound(split, s32, l32, 4, 0.25), 94);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_port),
        cmocka_unit_test(test_store_port_run),
        cmocka_unit_test(test_load_wavefronts),
        cmocka_unit_test(test_store_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
