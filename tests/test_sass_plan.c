/* test_sass_plan.c - which branches a warp decides alike at every visit
 * (pn_sass_fixed_guards), how the plan gives such a branch's work to whole
 * warps (the warp holding thread 0 of each block, not a share of every
 * warp), a warp that diverges at a branch no BSSY region encloses, the
 * levels the warps' loads go to, and how far apart large blocks start. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "pn_sass_fixed.h"
#include "pn_sass_plan.h"
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"
#include "pn_test_sass.h"

/* A program of n lines, one every 16 bytes, line i executed ex[i] times (all
 * once when ex is NULL), over `warps` warps. */
static void prog_of(pn_sass_prog_t *p, const char *const *lines, int n, const double *ex,
                    double warps)
{
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(p, "t.sass", "t", warps, &err), PN_OK);
    for (int i = 0; i < n; i++)
        if (pn_sass_prog_add(p, lines[i], (uint64_t)(16 * i), 0, ex ? ex[i] : 1, 0, 0, 0,
                             i + 1, 1, &err) != PN_OK)
            fail_msg("%s", err.msg);
    if (pn_sass_prog_finish(p, &err) != PN_OK)
        fail_msg("%s", err.msg);
}

/* The program of prog_of (n lines, executions ex, W x blocks warps) into p
 * and its plan for `blocks` blocks of W warps into pl, with n_branches
 * branches; both for the caller to destroy. */
static void plan_of(pn_sass_prog_t *p, pn_sass_plan_t *pl, const char *const *lines, int n,
                    const double *ex, uint32_t W, uint32_t blocks, uint32_t n_branches)
{
    pn_error_t err = { 0 };
    prog_of(p, lines, n, ex, (double)W * blocks);
    assert_int_equal(pn_sass_plan_build(pl, p, NULL, W, blocks, &err), PN_OK);
    assert_int_equal(pl->n_branches, n_branches);
}

/* The plan of 9 lines with executions ex over 8 warps (2 blocks of 4): 3
 * branches; per warp the instructions it runs into insts[8]. The branches'
 * (visits, taken) into vt[3][2]. */
static void plan9(const char *const *lines, const double *ex, double vt[3][2], uint64_t *insts)
{
    pn_sass_prog_t p;
    pn_sass_plan_t pl;
    plan_of(&p, &pl, lines, 9, ex, 4, 2, 3);
    for (int b = 0; b < 3; b++)
        vt[b][0] = pl.branches[b].visits, vt[b][1] = pl.branches[b].taken;
    for (int w = 0; w < 8; w++)
        insts[w] = pl.insts[w];
    pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&p);
}

/* fixed[] of the guarded branch or exit at line `at` of lines. */
static int fixed_at(const char *const *lines, int n, int at)
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    prog_of(&p, lines, n, NULL, 1);
    uint8_t *fixed = malloc(p.n);
    assert_non_null(fixed);
    assert_int_equal(pn_sass_fixed_guards(&p, fixed, &err), PN_OK);
    int f = fixed[at];
    for (size_t i = 0; i < p.n; i++)
        if ((int)i != at)
            assert_int_equal(fixed[i], 0);   /* only guarded branches and exits */
    free(fixed);
    pn_sass_prog_destroy(&p);
    return f;
}

#define LINES(...) (const char *const[]){ __VA_ARGS__ }, \
                   (int)(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))

static void test_fixed_guards(void **state)
{
    (void)state;
    /* if (threadIdx.x != 0) inside a loop: the thread's index, defined once */
    assert_int_equal(fixed_at(LINES("S2R R7, SR_TID.X", "MOV R3, RZ",
                                     "ISETP.NE.AND P0, PT, R7, RZ, PT", "@P0 BRA 0x50",
                                     "FADD R5, R5, R6", "IADD3 R3, R3, 0x1, RZ",
                                     "ISETP.NE.AND P1, PT, R3, 0x8, PT", "@P1 BRA 0x20",
                                     "EXIT"), 3), 1);
    /* the loop's counter selects: its increment and its start both reach it */
    assert_int_equal(fixed_at(LINES("S2R R7, SR_TID.X", "MOV R3, RZ",
                                     "ISETP.NE.AND P0, PT, R3, 0x2, PT", "@P0 BRA 0x50",
                                     "FADD R5, R5, R6", "IADD3 R3, R3, 0x1, RZ",
                                     "ISETP.NE.AND P1, PT, R3, 0x8, PT", "@P1 BRA 0x20",
                                     "EXIT"), 3), 0);
    /* computed in the loop from the block's index and a parameter: fixed */
    assert_int_equal(fixed_at(LINES("S2R R7, SR_CTAID.X", "MOV R3, RZ",
                                     "IMAD R9, R7, c[0x0][0x0], 0x4",
                                     "ISETP.GE.AND P0, PT, R9, c[0x0][0x210], PT",
                                     "@P0 BRA 0x60", "FADD R5, R5, R6",
                                     "IADD3 R3, R3, 0x1, RZ", "ISETP.NE.AND P1, PT, R3, 0x8, PT",
                                     "@P1 BRA 0x20", "EXIT"), 4), 1);
    /* a loaded value (a flag polled): not fixed, nor what is computed from it */
    assert_int_equal(fixed_at(LINES("LDG.E R8, desc[UR4][R2.64]", "IADD3 R9, R8, 0x1, RZ",
                                     "ISETP.NE.AND P0, PT, R9, RZ, PT", "@P0 BRA 0x50",
                                     "FADD R5, R5, R6", "EXIT"), 3), 0);
    /* two definitions reach (one of them guarded): not fixed */
    assert_int_equal(fixed_at(LINES("S2R R7, SR_TID.X", "@P2 MOV R7, 0x3",
                                     "ISETP.NE.AND P0, PT, R7, RZ, PT", "@P0 BRA 0x50",
                                     "FADD R5, R5, R6", "EXIT"), 3), 0);
    /* the clock: not fixed */
    assert_int_equal(fixed_at(LINES("S2R R7, SR_CLOCKLO", "ISETP.NE.AND P0, PT, R7, RZ, PT",
                                     "@P0 EXIT", "EXIT"), 2), 0);
    /* a guarded exit on the thread's index: fixed */
    assert_int_equal(fixed_at(LINES("S2R R7, SR_TID.X", "ISETP.GT.AND P0, PT, R7, 0x1f, PT",
                                     "@P0 EXIT", "EXIT"), 2), 1);
}

/* The plan of `if (threadIdx.x == 0) work` in a loop of 8 trips, 2 blocks of
 * 4 warps: the guard from the thread's index (fixed) or from a loaded value
 * (guard_load); per warp, the body's trips into body[8]. */
static void body_trips(int guard_load, uint64_t *body)
{
    const char *lines[] = { "S2R R7, SR_TID.X", "LDG.E R9, desc[UR4][R2.64]",
                            guard_load ? "ISETP.NE.AND P0, PT, R9, RZ, PT"
                                       : "ISETP.NE.AND P0, PT, R7, RZ, PT",
                            "@P0 BRA 0x60", "FADD R5, R5, R6", "FADD R5, R5, R6",
                            "IADD3 R3, R3, 0x1, RZ", "ISETP.NE.AND P1, PT, R3, 0x8, PT",
                            "@P1 BRA 0x20", "EXIT" };
    const double ex[] = { 8, 8, 64, 64, 16, 16, 64, 64, 64, 8 };
    pn_sass_prog_t p;
    pn_sass_plan_t pl;
    plan_of(&p, &pl, lines, 10, ex, 4, 2, 2);
    assert_true(pl.branches[0].visits == 64 && pl.branches[0].taken == 48);
    assert_true(pl.covered == 1);
    for (int w = 0; w < 8; w++) {
        assert_int_equal(pl.visits[w * 2], 8);
        body[w] = pl.heavy[w * 2];
    }
    pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&p);
}

static void test_fixed_per_warp(void **state)
{
    (void)state;
    uint64_t body[8];
    /* the thread's index: warp 0 of each block runs all 8 trips of the body */
    body_trips(0, body);
    const uint64_t want[] = { 8, 0, 0, 0, 8, 0, 0, 0 };
    for (int w = 0; w < 8; w++)
        assert_int_equal(body[w], want[w]);
    /* a loaded value: every warp a quarter of its trips */
    body_trips(1, body);
    for (int w = 0; w < 8; w++)
        assert_int_equal(body[w], 2);
}

/* A remainder loop, then an unrolled loop behind a forward guard that no warp
 * passes (its block never executed: llm.c's layernorm mean_kernel at 1024
 * threads): the flows into and out of a block never executed are 0, so the
 * guard is always taken and no warp runs the unrolled loop (before, the guard
 * was taken as never taken, as for a loop whose entry the counts leave open,
 * and every warp ran the unrolled loop once). */
static void test_never_run_block(void **state)
{
    (void)state;
    const char *lines[] = { "ISETP.GE.U32.AND P0, PT, R10, 0x3, PT",
                            "LDG.E R15, desc[UR6][R12.64]", "FADD R8, R15, R8",
                            "ISETP.NE.AND P1, PT, R9, RZ, PT", "@P1 BRA 0x10",
                            "@!P0 BRA 0x80", "LDG.E R11, desc[UR6][R10.64]",
                            "@!P0 BRA 0x60", "EXIT" };
    const double ex[] = { 8, 8, 8, 8, 8, 8, 0, 0, 8 };
    double vt[3][2];
    uint64_t insts[8];
    plan9(lines, ex, vt, insts);
    /* the remainder loop's back edge: never taken (once a warp); the guard:
     * always taken; the unrolled loop's back edge: never visited */
    assert_true(vt[0][0] == 8 && vt[0][1] == 0);
    assert_true(vt[1][0] == 8 && vt[1][1] == 8);
    assert_true(vt[2][0] == 0);
    for (int w = 0; w < 8; w++)
        assert_int_equal(insts[w], 7);
}

/* A loop that runs once where it runs, behind a guard that a quarter of the
 * visits take, inside a loop of 4 trips (llm.c's fused_residual v6: a row's
 * chunks, one a lane): guard and back edge share one equation, and taking
 * the guard as never taken would send more warps into the body (32) than it
 * ran (24). No more go on than the body ran: the guard is taken 8 times, the
 * back edge never, and the plan runs the 224 instructions counted (before:
 * 8 more trips of the body). */
static void test_guard_not_all(void **state)
{
    (void)state;
    const char *lines[] = { "S2R R7, SR_TID.X", "ISETP.NE.AND P0, PT, R9, RZ, PT",
                            "@P0 BRA 0x50", "FADD R5, R5, R6", "@!P1 BRA 0x30",
                            "IADD3 R3, R3, 0x1, RZ", "ISETP.NE.AND P2, PT, R3, 0x4, PT",
                            "@P2 BRA 0x10", "EXIT" };
    const double ex[] = { 8, 32, 32, 24, 24, 32, 32, 32, 8 };
    double vt[3][2];
    uint64_t insts[8], all = 0;
    plan9(lines, ex, vt, insts);
    assert_true(vt[0][0] == 32 && vt[0][1] == 8);
    assert_true(vt[1][0] == 24 && vt[1][1] == 0);
    assert_true(vt[2][0] == 32 && vt[2][1] == 24);
    for (int w = 0; w < 8; w++)
        all += insts[w];
    assert_int_equal(all, 224);
}

/* A warp whose thread 0 alone runs the body, the sides joined by a WARPSYNC
 * (no BSSY region): ncu counts the WARPSYNC once for each side. The branch
 * took both sides once, the taken side waits after the WARPSYNC, and the plan
 * walks the 8 instructions the counts give (before: 6, the body never ran). */
static void test_divergence_without_region(void **state)
{
    (void)state;
    const char *lines[] = { "S2R R7, SR_TID.X", "ISETP.NE.AND P0, PT, R7, RZ, PT",
                            "@P0 BRA 0x50", "LDG.E.STRONG.SYS R8, desc[UR4][R2.64]",
                            "IADD3 R1, R1, 0x1, RZ", "WARPSYNC.ALL", "EXIT" };
    const double ex[] = { 1, 1, 1, 1, 1, 2, 1 };
    pn_sass_prog_t p;
    pn_sass_plan_t pl;
    plan_of(&p, &pl, lines, 7, ex, 1, 1, 1);
    assert_true(pl.branches[0].both == 1 && pl.branches[0].taken == 0);
    assert_int_equal(pl.branches[0].reconv, 6);
    assert_int_equal(pl.insts[0], 8);
    assert_int_equal(pl.op_execs[3], 1);
    assert_int_equal(pl.op_execs[5], 2);
    pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&p);
}

/* Inside a BSSY region, thread 0 alone polls and the other lanes jump to the
 * WARPSYNC.ALL before the block's barrier (examples/robust/robust2.cu's
 * r2_spin): ncu counts the WARPSYNC once for each side and the barrier once,
 * so the sides join after the WARPSYNC. The taken side waits there and the
 * plan walks the 10 instructions the counts give, the barrier once (before:
 * at the region's end, 12, the barrier twice: the warp's second arrival waited
 * for the block's other warps to exit). */
static void test_divergence_warpsync_in_region(void **state)
{
    (void)state;
    const char *lines[] = { "S2R R8, SR_TID.X", "BSSY B0, 0x80", "ISETP.NE.AND P0, PT, R8, RZ, PT",
                            "@P0 BRA 0x50", "LDG.E.STRONG.SYS R0, desc[UR6][R2.64]",
                            "WARPSYNC.ALL", "BAR.SYNC.DEFER_BLOCKING 0x0", "BSYNC B0", "EXIT" };
    const double ex[] = { 1, 1, 1, 1, 1, 2, 1, 1, 1 };
    pn_sass_prog_t p;
    pn_sass_plan_t pl;
    plan_of(&p, &pl, lines, 9, ex, 1, 1, 1);
    assert_true(pl.branches[0].both == 1 && pl.branches[0].taken == 0);
    assert_int_equal(pl.branches[0].reconv, 6);
    assert_int_equal(pl.insts[0], 10);
    assert_int_equal(pl.op_execs[5], 2);
    assert_int_equal(pl.op_execs[6], 1);
    pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&p);
}

/* A warp-aggregated atomic (CUDA samples' warpAggregatedAtomicsCG): the other
 * lanes leave for the region's BSYNC at a branch that diverges, the leader lane
 * alone does the atomic and jumps there too; ncu counts the BSYNC once for
 * each. The leader's branch does not diverge (its fall side never ran), so the
 * plan walks the 8 instructions the counts give, not the scan that never ran
 * (before: both sides of it, 11, and the second atomic). */
static void test_divergence_one_side(void **state)
{
    (void)state;
    const char *lines[] = { "BSSY B1, 0x90", "@P1 BRA 0x80", "POPC R13, R11",
                            "@!P1 ATOMG.E.ADD.STRONG.GPU PT, R12, desc[UR6][R6.64], R13",
                            "@!P1 BRA 0x80", "SHFL.UP P1, R12, R13, 0x1, RZ",
                            "@P2 ATOMG.E.ADD.STRONG.GPU PT, R6, desc[UR6][R6.64], R15",
                            "MOV R15, R13", "BSYNC B1", "EXIT" };
    const double ex[] = { 1, 1, 1, 1, 1, 0, 0, 0, 2, 1 };
    pn_sass_prog_t p;
    pn_sass_plan_t pl;
    plan_of(&p, &pl, lines, 10, ex, 1, 1, 2);
    assert_true(pl.branches[0].both == 1 && pl.branches[0].taken == 0);
    assert_true(pl.branches[1].both == 0 && pl.branches[1].taken == 1);
    assert_int_equal(pl.insts[0], 8);
    assert_int_equal(pl.op_execs[6], 0);
    assert_int_equal(pl.op_execs[8], 2);
    pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&p);
}

/* Steps of seed 1 of W warps of one block running the n ops `lines` (each
 * executed W times, a global load 4 sectors in one line), then EXIT, on
 * pn_test_sass_params; the loads' hit rates l1 and l2. */
static uint64_t warps_steps(const char *const *lines, int n, uint32_t W, double l1, double l2)
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", W, &err), PN_OK);
    for (int i = 0; i <= n; i++) {
        const char *t = i < n ? lines[i] : "EXIT";
        int ld = !strncmp(t, "LDG", 3);
        assert_int_equal(pn_sass_prog_add(&p, t, (uint64_t)(16 * i), 0, W, ld ? 4.0 * W : 0,
                                          ld ? W : 0, 0, i + 1, 1, &err), PN_OK);
    }
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, W, 1);
    pn_pipe_device_t pd = { 0 };
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = l1;
    mem.l2_hit = l2;
    pn_sass_sim_params_t sp = { &pp, &pd, &mem, &p, 1, 0, 1 };
    pn_sass_sim_t *sim;
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_run_opts_t o = { .max_steps = 100000, .idle_trans = -1 };
    pn_run_result_t r;
    assert_int_equal(pn_sass_sim_run(sim, 1, &o, &r, &err), PN_OK);
    pn_sass_sim_free(sim);
    pn_sass_prog_destroy(&p);
    return r.steps;
}

/* W warps of a load and an add that reads it (warps_steps). */
static uint64_t one_load_warps(uint32_t W, double l1, double l2)
{
    const char *lines[] = { "LDG.E R4, desc[UR4][R2.64]", "IADD3 R5, R4, 0x1, RZ" };
    return warps_steps(lines, 2, W, l1, l2);
}

/* A warp of one load rounds its hit rate to one level: each warp at an offset
 * of its own (1/2 for warp 0), so that half the warps' loads hit L1 at an L1
 * hit rate of 0.5 and the others go to DRAM (l2 0): the block waits for
 * DRAM's 40. Rounded alike, every warp hit L1 and the block was done after
 * L1's 10. One warp: L1, as before. */
static void test_level_shares(void **state)
{
    (void)state;
    uint64_t one = one_load_warps(1, 0.5, 0), two = one_load_warps(2, 0.5, 0);
    assert_int_equal(one, 10 + 5 + 2);
    assert_int_equal(two, 40 + 5 + 2);
    /* eight warps (two a partition, the loads' pipe shared): 29 steps all at
     * L1, 49 all at DRAM; half at L1, the others' loads at DRAM: 48 (29
     * rounded alike) */
    assert_int_equal(one_load_warps(8, 1, 0), 29);
    assert_int_equal(one_load_warps(8, 0, 0), 49);
    assert_int_equal(one_load_warps(8, 0.5, 0), 48);
}

/* Loads issued together share a level when they read one region, on one base
 * register: one warp, two loads and an add of both, an L1 hit rate of 0.5 and
 * no L2 hits. From one base at two offsets, one run that rounds to L1: the
 * second load issues at 1, its result at 11, the add at 11, +5, +2. From two
 * bases (rows apart), two runs, one at L1 and one at DRAM: the second load's
 * result at 41, the add at 41, +5, +2. */
static void test_level_regions(void **state)
{
    (void)state;
    const char *one[] = { "LDG.E R4, desc[UR4][R2.64]", "LDG.E R5, desc[UR4][R2.64+0x4000]",
                          "IADD3 R6, R4, R5, RZ" };
    const char *two[] = { "LDG.E R4, desc[UR4][R2.64]", "LDG.E R5, desc[UR4][R8.64]",
                          "IADD3 R6, R4, R5, RZ" };
    assert_int_equal(warps_steps(one, 3, 1, 0.5, 0), 11 + 5 + 2);
    assert_int_equal(warps_steps(two, 3, 1, 0.5, 0), 41 + 5 + 2);
}

/* The launch bound of 4 blocks of W warps (one resident) of a one-op program:
 * block k starts no earlier than k launches - 1; block_launch 100, and
 * block_launch_1024 (0: none) for blocks of more than 16 warps. */
static uint64_t launch_bound(uint32_t W, double b1024)
{
    const char *lines[] = { "IADD3 R5, R4, 0x1, RZ" };
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 4.0 * W, &err), PN_OK);
    assert_int_equal(pn_sass_prog_add(&p, lines[0], 0, 0, 4.0 * W, 0, 0, 0, 1, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_add(&p, "EXIT", 16, 0, 4.0 * W, 0, 0, 0, 2, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, W, 4);
    pp.block_launch = 100;
    pn_pipe_device_t pd = { 0 };
    pd.block_launch_1024 = b1024;
    pn_memory_t mem;
    pn_memory_default(&mem);
    pn_pipe_bounds_t b;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    pn_sass_prog_destroy(&p);
    return b.steps[PN_BOUND_LAUNCH];
}

/* Blocks of 1024 threads start block_launch_1024 apart (3 x 300 - 1), those
 * of 512 threads or without the key block_launch apart (3 x 100 - 1). */
static void test_block_launch_1024(void **state)
{
    (void)state;
    assert_int_equal(launch_bound(32, 300), 899);
    assert_int_equal(launch_bound(16, 300), 299);
    assert_int_equal(launch_bound(32, 0), 299);
}

/* Steps of seed 1's run of a loop of 100 trips a warp over 4 one-warp blocks
 * on `busy` SMs, the busiest SM's block alone; `lanes` threads a trip on
 * average (of 32) where the preheader runs all 32, the exit decided by the
 * thread's index (R0) or, with loaded, by a loaded value (R2). */
static uint64_t loop_steps(double lanes, uint32_t busy, int loaded)
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 4, &err), PN_OK);
    const char *lines[] = { "S2R R0, SR_TID.X", "LDG.E R2, desc[UR4][R4.64]",
                            "IADD3 R1, R1, 0x1, RZ",
                            loaded ? "ISETP.GE.AND P0, PT, R1, R2, PT"
                                   : "ISETP.GE.AND P0, PT, R1, R0, PT",
                            "@!P0 BRA 0x20", "EXIT" };
    const double ex[] = { 4, 4, 400, 400, 400, 4 };
    for (int i = 0; i < 6; i++) {
        assert_int_equal(pn_sass_prog_add(&p, lines[i], (uint64_t)(16 * i), 0, ex[i], 0, 0, 0,
                                          i + 1, 1, &err), PN_OK);
        p.ops[i].threads = 32 * ex[i] * (i >= 2 && i <= 4 ? lanes / 32 : 1);
    }
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, 1, 1);
    pn_pipe_device_t pd = { 0 };
    pn_memory_t mem;
    pn_memory_default(&mem);
    pn_sass_sim_params_t sp = { &pp, &pd, &mem, &p, busy, 0, 1 };
    pn_sass_sim_t *sim;
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_run_opts_t o = { .max_steps = 1000000, .idle_trans = -1 };
    pn_run_result_t r;
    assert_int_equal(pn_sass_sim_run(sim, 1, &o, &r, &err), PN_OK);
    pn_sass_sim_free(sim);
    pn_sass_prog_destroy(&p);
    return r.steps;
}

/* A loop whose lanes leave one by one (a triangular loop): 28.8 of 32 lanes a
 * trip, 1 - a = 0.1, the trips falling with the thread's index: the busiest
 * of 4 SMs holds the first block, 1 + 32 x 0.1 x (4 - 1) / 2 / 15.5 = 1.31
 * times the mean trips (131 here, 15 steps a trip: the add, the compare and
 * the branch, 5 each). One SM alone, all lanes on, or an exit a loaded value
 * decides: the mean (100). */
static void test_triangular_loop(void **state)
{
    (void)state;
    uint64_t mean = loop_steps(28.8, 1, 0);
    assert_int_equal(mean, 100 * 15 + 1);
    assert_int_equal(loop_steps(32, 4, 0), mean);
    assert_int_equal(loop_steps(28.8, 4, 1), loop_steps(28.8, 1, 1));
    uint64_t busiest = loop_steps(28.8, 4, 0);
    assert_int_equal(busiest - mean, 31 * 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_guards),
        cmocka_unit_test(test_never_run_block),
        cmocka_unit_test(test_guard_not_all),
        cmocka_unit_test(test_fixed_per_warp),
        cmocka_unit_test(test_divergence_without_region),
        cmocka_unit_test(test_divergence_one_side),
        cmocka_unit_test(test_divergence_warpsync_in_region),
        cmocka_unit_test(test_level_shares),
        cmocka_unit_test(test_level_regions),
        cmocka_unit_test(test_block_launch_1024),
        cmocka_unit_test(test_triangular_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
