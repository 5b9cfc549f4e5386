/* test_sass_loads.c - warps that run their SASS: exact step counts and bounds
 * of one warp's global loads and stores against the DRAM, the L2 and the L1:
 * their scope, measured DRAM traffic, scattered sectors, jitter, the DRAM's
 * queue, an L2-resident footprint, the L1's data path, load levels and lines
 * already in flight (doc/dependencies.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_sass_addr.h"
#include "pn_sass_lines.h"
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"
#include "pn_sass_sim_i.h"
#include "pn_test_sass.h"
#include "pn_test_sass_warp.h"

static uint64_t store_dram_bound(double sectors);

/* Steps of one warp: a load (its text, `sectors` sectors in one line) and an add
 * that reads it (missing_steps). */
static uint64_t level_run(const char *load, double sectors)
{
    const char *t[2] = { load, "IADD3 R5, R4, 0x1, RZ" };
    double sec[2] = { sectors, 0 }, lines[2] = { sectors > 0 ? 1 : 0, 0 }, wf[2] = { 0, 0 };
    pn_sass_prog_t p;
    rows_prog(&p, t, 2, sec, lines, wf);
    return missing_steps(&p);
}

/* A load strong at the GPU's or system's scope (a flag other blocks write) is
 * served at L2 whatever the hit rates (DRAM here): 20 + LA + 2 against 40 + LA
 * + 2; one strong at the SM's scope takes its level as any load. A guarded
 * load that moved no sector in its executions (every thread predicated off)
 * went nowhere: LA + LA + 2; so did such a store. */
static void test_load_scope(void **state)
{
    (void)state;
    assert_int_equal(level_run("LDG.E R4, desc[UR4][R2.64]", 4), 40 + LA + 2);
    assert_int_equal(level_run("LDG.E.STRONG.GPU R4, desc[UR4][R2.64]", 4), 20 + LA + 2);
    assert_int_equal(level_run("LD.E.64.STRONG.SYS R4, desc[UR4][R2.64]", 4), 20 + LA + 2);
    assert_int_equal(level_run("LDG.E.STRONG.SM R4, desc[UR4][R2.64]", 4), 40 + LA + 2);
    assert_int_equal(level_run("@P0 LDG.E R4, desc[UR4][R2.64]", 0), LA + LA + 2);
    assert_int_equal(level_run("@P0 LDG.E R4, desc[UR4][R2.64]", 4), 40 + LA + 2);
    /* guarded stores: 8 of 4 sectors, 32 less the full bucket (4 + 2): 26; of no
     * sector, none (before: the default 4 sectors each) */
    assert_int_equal(store_dram_bound(4), 26);
    assert_int_equal(store_dram_bound(0), 0);
}

/* The DRAM bound of one warp's program p (destroyed) with the DRAM budget at
 * one sector a step, on pd and mem. */
static uint64_t prog_dram_bound(pn_sass_prog_t *p, const pn_memory_t *mem,
                                const pn_pipe_device_t *pd)
{
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pp.rate[PN_PIPE_DRAM] = PN_PIPE_UNIT;
    pn_pipe_bounds_t b;
    pn_test_sass_bounds(p, &pp, pd, mem, &b);
    pn_sass_prog_destroy(p);
    return b.steps[PN_BOUND_PIPE0 + PN_PIPE_DRAM];
}

/* As prog_dram_bound, every load past L1 and L2, the launch's DRAM reads
 * measured at 4 sectors a load. */
static uint64_t measured_dram_bound(pn_sass_prog_t *p)
{
    pn_pipe_device_t pd = { 0 };
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    mem.dram_ld = 4;
    return prog_dram_bound(p, &mem, &pd);
}

/* The DRAM bound of 8 copies of text, each an access of `sectors` sectors over
 * n_lines lines, DRAM one sector a step, on mem and pd. */
static uint64_t dram_bound_rows(const char *text, double sectors, double n_lines,
                                const pn_memory_t *mem, const pn_pipe_device_t *pd)
{
    const char *t[8];
    double sec[8], lines[8];
    for (int i = 0; i < 8; i++)
        t[i] = text, sec[i] = sectors, lines[i] = n_lines;
    pn_sass_prog_t p;
    rows_prog(&p, t, 8, sec, lines, NULL);
    return prog_dram_bound(&p, mem, pd);
}

/* As dram_bound_rows with 4 sectors an access. */
static uint64_t dram_bound_lines(const char *text, double n_lines, const pn_memory_t *mem,
                                 const pn_pipe_device_t *pd)
{
    return dram_bound_rows(text, 4, n_lines, mem, pd);
}

/* The DRAM bound of 8 guarded stores of `sectors` sectors each over the launch (0:
 * every thread predicated off), their DRAM sectors as they miss L2. */
static uint64_t store_dram_bound(double sectors)
{
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    pn_pipe_device_t pd = { 0 };
    return dram_bound_rows("@P0 STG.E desc[UR4][R2.64], R4", sectors, sectors > 0, &mem, &pd);
}

static uint64_t dram_bound_of(const char *text, const pn_memory_t *mem,
                              const pn_pipe_device_t *pd)
{
    return dram_bound_lines(text, 1, mem, pd);
}

/* A load's measured DRAM sectors cost more when it reads few sectors a line:
 * the DRAM counts a 64-byte pair for a sector read alone but spends
 * dram_line_sectors (here 3) on its line. 8 loads of 4 sectors, each in 4
 * lines, 8 DRAM sectors measured a load: 2 a sector, x 3 / 2, 12 a load: 96
 * steps less the full bucket (12 + 2): 82. The same sectors in 2 lines: x 3
 * / 2 again (a pair a line); in 1 line (whole lines): x 1, 64 - 10 = 54; 3
 * sectors a line: x 1 (4 measured a load: 26);
 * without the key: x 1; with the L2's reads measured at no less than the
 * DRAM's (no sector read alone): x 1; at an L1 hit rate h the extra on a share
 * 1 - h of the sectors. */
static void test_dram_scattered(void **state)
{
    (void)state;
    const char *ldg = "LDG.E R5, desc[UR4][R2.64]";
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    mem.dram_ld = 8;
    pn_pipe_device_t pd = { 0 };
    assert_int_equal(dram_bound_lines(ldg, 4, &mem, &pd), 54);
    pd.dram_line_sectors = 3;
    assert_int_equal(dram_bound_lines(ldg, 4, &mem, &pd), 82);
    assert_int_equal(dram_bound_lines(ldg, 2, &mem, &pd), 82);
    assert_int_equal(dram_bound_lines(ldg, 1, &mem, &pd), 54);
    mem.dram_ld = 4; /* 3 sectors a line: counted as 3, x 1 */
    assert_int_equal(dram_bound_lines(ldg, 4.0 / 3, &mem, &pd), 26);
    /* measured DRAM reads no more than the L2 reads: no sector read alone, x 1 */
    mem.dram_ld = 8;
    mem.l2_ld = 8;
    assert_int_equal(dram_bound_lines(ldg, 4, &mem, &pd), 54);
    mem.l2_ld = 4;
    assert_int_equal(dram_bound_lines(ldg, 4, &mem, &pd), 82);
    /* a kernel whose loads hit L1 half the time comes back to its lines: the charge on
     * half its sectors, x (1 + 0.5 / 2), 10 a load: 80 less the full bucket (10 + 2) */
    mem.l1_hit = 0.5;
    assert_int_equal(dram_bound_lines(ldg, 4, &mem, &pd), 68);
}

/* Measured DRAM reads are per load as ncu counts them, which leaves out cp.async
 * copies (LDGSTS), whose sectors the DRAM reads all the same: 4 LDG and 4 LDGSTS
 * of 4 sectors, 4 DRAM sectors measured a load: 16 in all, 2 an op (the
 * copies counted as loads: 32, 4 an op), less the full bucket (2 + 2): 12. */
static void test_dram_async_copies(void **state)
{
    (void)state;
    const char *t[8];
    double sec[8], lines[8];
    for (int i = 0; i < 8; i++)
        t[i] = i < 4 ? "LDG.E R5, desc[UR4][R2.64]" : "LDGSTS.E [R6], desc[UR4][R2.64]",
        sec[i] = 4, lines[i] = 1;
    pn_sass_prog_t p;
    rows_prog(&p, t, 8, sec, lines, NULL);
    assert_int_equal(measured_dram_bound(&p), 12);
}

/* Measured DRAM reads are per load with a thread on, as ncu counts them: 4
 * LDG of 4 sectors and 4 guarded LDG that moved nothing (every thread
 * predicated off, so control), 4 DRAM sectors measured a load: 16 in all, 4
 * an op, less the full bucket (4 + 2): 10 (the off ones counted as loads: 32,
 * 8 an op, less 8 + 2: 22). */
static void test_dram_predicated_off(void **state)
{
    (void)state;
    const char *t[8];
    double sec[8], lines[8];
    for (int i = 0; i < 8; i++)
        t[i] = i < 4 ? "LDG.E R5, desc[UR4][R2.64]" : "@!P0 LDG.E R6, desc[UR4][R8.64]",
        sec[i] = i < 4 ? 4 : 0, lines[i] = i < 4 ? 1 : 0;
    pn_sass_prog_t p;
    rows_prog(&p, t, 8, sec, lines, NULL);
    assert_int_equal(measured_dram_bound(&p), 10);
}

/* And a guarded load with a thread on in no more executions than its
 * requests: a loop of 4 trips, an LDG of 4 sectors in 1 line and a guarded
 * one with 3 lines (12 sectors) over its 4 executions, so ncu counts 7 loads;
 * 4 DRAM sectors measured a load: 28 in all, 1 a sector (4 and 3 an
 * execution: 28 units), less the full bucket (4 + 2): 22 (all 8 executions
 * counted: 8 / 7 a sector, 32 units less 4.57 + 2: 25). */
static void test_dram_partly_on(void **state)
{
    (void)state;
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    static const struct {
        const char *t;
        double ex, sec, lines;
    } r[] = {
        { "S2R R0, SR_TID.X", 1, 0, 0 },
        { "LDG.E R5, desc[UR4][R2.64]", 4, 16, 4 },
        { "@!P0 LDG.E R6, desc[UR4][R8.64]", 4, 12, 3 },
        { "ISETP.NE.AND P1, PT, R0, RZ, PT", 4, 0, 0 },
        { "@P1 BRA 0x10", 4, 0, 0 },
        { "EXIT", 1, 0, 0 },
    };
    for (int i = 0; i < 6; i++)
        assert_int_equal(pn_sass_prog_add(&p, r[i].t, (uint64_t)(16 * i), 0, r[i].ex, r[i].sec,
                                          r[i].lines, 0, i + 1, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    assert_int_equal(measured_dram_bound(&p), 22);
}

/* Steps of one warp's program texts[0..n) at DRAM level (every load misses L1
 * and L2) with the profile's dram_jitter sd, each access of L lines (a sector
 * each; 4 sectors in one line for L = 1). */
static uint64_t jitter_lines_steps(const char *const *texts, int n, double sd, double L)
{
    double sec[8], lines[8];
    for (int i = 0; i < n; i++)
        sec[i] = L > 1 ? L : 4, lines[i] = L;
    pn_sass_prog_t p;
    rows_prog(&p, texts, n, sec, lines, NULL);
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pp.latency[PN_PIPE_DRAM] = 100;
    pn_pipe_device_t pd = { 0 };
    pd.dram_jitter = sd;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    uint64_t st = pn_test_sass_steps(&p, &pp, &pd, &mem);
    pn_sass_prog_destroy(&p);
    return st;
}

static uint64_t jitter_steps(const char *const *texts, int n, double sd)
{
    return jitter_lines_steps(texts, n, sd, 1);
}

/* A load of many lines waits for the slowest of them: one load of 32 lines
 * and an add of it, round(50 x 2.0697) = 103 steps more with sd 50 (the
 * expected largest of 32 standard normal draws); a chain of four loads of 8
 * lines each, each a group of its own, round(50 x 1.4236) = 71 each, 284; and
 * two independent loads of 8 lines, the second the slowest of 16 lines,
 * round(50 x 1.7660) = 88. */
static void test_dram_jitter_lines(void **state)
{
    (void)state;
    static const char *const one[] = { "LDG.E R2, desc[UR4][R10.64]", "IADD3 R6, R2, RZ, RZ" };
    static const char *const two[] = { "LDG.E R2, desc[UR4][R10.64]",
                                       "LDG.E R3, desc[UR4][R12.64]", "IADD3 R6, R2, R3, RZ" };
    static const char *const chain[] = { "LDG.E R2, desc[UR4][R10.64]",
                                         "LDG.E R4, desc[UR4][R2.64]",
                                         "LDG.E R6, desc[UR4][R4.64]",
                                         "LDG.E R8, desc[UR4][R6.64]",
                                         "IADD3 R9, R8, RZ, RZ" };
    assert_int_equal(jitter_lines_steps(one, 2, 50, 32) - jitter_lines_steps(one, 2, 0, 32), 103);
    assert_int_equal(jitter_lines_steps(chain, 5, 50, 8) - jitter_lines_steps(chain, 5, 0, 8),
                     284);
    assert_int_equal(jitter_lines_steps(two, 3, 50, 8) - jitter_lines_steps(two, 3, 0, 8), 88);
}

/* A warp's loads in flight together come back as the slowest of them
 * (dram_jitter): four independent loads and adds of all four, the last
 * load's first, wait round(50 x 1.0294) = 51 steps more with sd 50 (the
 * fourth load's lateness: the expected largest of 4 standard normal draws;
 * the others' 28 and 42 are past by then); a chain, each load's
 * address the one before's value, has one load in flight at a time and waits
 * no more. */
static void test_dram_jitter(void **state)
{
    (void)state;
    static const char *const wide[] = { "LDG.E R2, desc[UR4][R10.64]",
                                         "LDG.E R3, desc[UR4][R12.64]",
                                         "LDG.E R4, desc[UR4][R14.64]",
                                         "LDG.E R5, desc[UR4][R16.64]",
                                         "IADD3 R6, R5, R4, R3",
                                         "IADD3 R7, R6, R2, RZ" };
    static const char *const chain[] = { "LDG.E R2, desc[UR4][R10.64]",
                                         "LDG.E R4, desc[UR4][R2.64]",
                                         "LDG.E R6, desc[UR4][R4.64]",
                                         "LDG.E R8, desc[UR4][R6.64]",
                                         "IADD3 R9, R8, RZ, RZ" };
    assert_int_equal(jitter_steps(wide, 6, 50) - jitter_steps(wide, 6, 0), 51);
    assert_int_equal(jitter_steps(chain, 5, 50), jitter_steps(chain, 5, 0));
}

/* The DRAM bound of 8 loads of 4 sectors (32 B each: a footprint of 1 KiB),
 * the launch's measured DRAM reads 4 sectors a load, at l2_resident_mib K
 * (0: no key), launched again and again or with the L2 flushed before it. */
static uint64_t resident_dram_bound(double K, int flushed)
{
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.flushed = flushed;
    mem.l1_hit = 0;
    mem.l2_hit = 0;
    mem.dram_ld = 4;
    pn_pipe_device_t pd = { 0 };
    pd.l2_resident_mib = K;
    return dram_bound_of("LDG.E R5, desc[UR4][R2.64]", &mem, &pd);
}

/* Shared loads and global loads take one data path (one 128-byte wavefront a
 * cycle, the LSU pipe's 4 sectors): 8 LDS of one wavefront and 8 LDG of one
 * line are 16 cycles of it, 64000 units less the full bucket (4000 + 2 x
 * 4000) at 4000 a step: 13; nothing on the shared pipe. */
static void test_l1_data_path(void **state)
{
    (void)state;
    const char *t[16];
    double sec[16], lines[16], wf[16];
    for (int i = 0; i < 16; i++) {
        t[i] = i % 2 ? "LDS R5, [R2]" : "LDG.E R6, desc[UR4][R8.64]";
        sec[i] = i % 2 ? 0 : 4, lines[i] = i % 2 ? 0 : 1, wf[i] = i % 2 ? 1 : 0;
    }
    pn_sass_prog_t p;
    rows_prog(&p, t, 16, sec, lines, wf);
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pp.rate[PN_PIPE_LSU] = 4 * PN_PIPE_UNIT;
    pp.rate[PN_PIPE_SHMEM] = PN_PIPE_UNIT;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = 1;
    pn_pipe_device_t pd = { 0 };
    pn_pipe_bounds_t b;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_PIPE0 + PN_PIPE_LSU], 13);
    assert_int_equal(b.steps[PN_BOUND_PIPE0 + PN_PIPE_SHMEM], 0);
    pn_sass_prog_destroy(&p);
    /* 16 loads of one sector that every thread makes of the same address: a
     * 32-bit one takes the path a cycle (4 sectors' worth: 16 x 4 less the
     * full bucket, 4 + 2 x 4, at 4 a step: 13), a 128-bit one four (its 512
     * bytes to the registers: 16 x 16 less 16 + 8, at 4 a step: 58) */
    for (int wide = 0; wide < 2; wide++) {
        for (int i = 0; i < 16; i++) {
            t[i] = wide ? "LDG.E.128.CONSTANT R8, desc[UR4][R2.64]" : "LDG.E.CONSTANT R8, desc[UR4][R2.64]";
            sec[i] = 1, lines[i] = 1;
        }
        rows_prog(&p, t, 16, sec, lines, NULL);
        pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
        assert_int_equal(b.steps[PN_BOUND_PIPE0 + PN_PIPE_LSU], wide ? 58 : 13);
        pn_sass_prog_destroy(&p);
    }
}

/* Steps of one warp: 8 independent loads of 4 sectors from DRAM (latency
 * 100), DRAM one sector a step, then an add of the last; dram_queue q. */
static uint64_t queued_run(double q)
{
    const char *t[9] = { "LDG.E R10, desc[UR4][R2.64]", "LDG.E R11, desc[UR4][R2.64+0x80]",
                         "LDG.E R12, desc[UR4][R2.64+0x100]", "LDG.E R13, desc[UR4][R2.64+0x180]",
                         "LDG.E R14, desc[UR4][R2.64+0x200]", "LDG.E R15, desc[UR4][R2.64+0x280]",
                         "LDG.E R16, desc[UR4][R2.64+0x300]", "LDG.E R17, desc[UR4][R2.64+0x380]",
                         "IADD3 R5, R17, 1, RZ" };
    const double sec[9] = { 4, 4, 4, 4, 4, 4, 4, 4, 0 }, lines[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 0 };
    pn_sass_prog_t p;
    rows_prog(&p, t, 9, sec, lines, NULL);
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pp.latency[PN_PIPE_LD_DRAM] = 100;
    pp.rate[PN_PIPE_DRAM] = PN_PIPE_UNIT;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    pn_pipe_device_t pd = { 0 };
    pd.dram_queue = q;
    pd.dram_sectors = 1;
    uint64_t steps = pn_test_sass_steps(&p, &pp, &pd, &mem);
    pn_sass_prog_destroy(&p);
    return steps;
}

/* The DRAM latency under the launch's own load: a run with the unloaded
 * latency, its DRAM utilisation u (32 sectors over its steps), the latency
 * set to 100 + q u / (1 - u), then twice half way to the new target (or
 * until a step leaves it as it was). The
 * loads issue at the DRAM budget's pace whatever the latency, so a run
 * takes a fixed t plus the latency: the same iteration here by hand. */
static void test_dram_queue(void **state)
{
    (void)state;
    uint64_t base = queued_run(0);
    double t = (double)base - 100, L = 100;
    for (int it = 0; it < 3; it++) {
        double was = (double)llround(L), u = 32 / (t + was), target = 100 + 60 * u / (1 - u);
        L = it == 0 ? target : (L + target) / 2;
        if ((double)llround(L) == was)
            break; /* settled: the engine stops there too */
    }
    assert_int_equal(queued_run(60), (uint64_t)(t + (double)llround(L)));
    assert_true(queued_run(60) > base + 10);
}

/* A launch writes back to DRAM at most the sectors it writes: a profile's 8
 * DRAM sectors written a 4-sector store (other launches' dirty lines) count
 * as 4. 8 stores: 32 steps of DRAM less the full bucket (4 + 2): 26. */
static void test_dram_writes_capped(void **state)
{
    (void)state;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.dram_st = 8;
    pn_pipe_device_t pd = { 0 };
    assert_int_equal(dram_bound_of("STG.E desc[UR4][R2.64], R5", &mem, &pd), 26);
}

/* Measured DRAM traffic is paid by a footprint past what stays in L2 from one
 * launch to the next: all of it from 1.125 K, none up to 0.875 K, half at K;
 * all of it when the L2 is flushed before the launch. */
static void test_l2_resident(void **state)
{
    (void)state;
    const double kib = 1.0 / 1024; /* MiB */
    /* 8 loads x 4 sectors: 32 steps of DRAM less the full bucket (4 + 2) */
    assert_int_equal(resident_dram_bound(0, 0), 26);
    assert_int_equal(resident_dram_bound(0.5 * kib, 0), 26);
    assert_int_equal(resident_dram_bound(kib / 1.125, 0), 26);
    /* half: 2 sectors a load, 16 steps less a bucket of 2 + 2 */
    assert_int_equal(resident_dram_bound(kib, 0), 12);
    assert_int_equal(resident_dram_bound(kib / 0.875, 0), 0);
    assert_int_equal(resident_dram_bound(1, 0), 0);
    /* timed with the L2 flushed before it (kernel.memory.flushed): nothing stays */
    assert_int_equal(resident_dram_bound(kib, 1), 26);
    assert_int_equal(resident_dram_bound(1, 1), 26);
}

/* Steps of one warp running the n lines, load latencies 10 (L1), 50 (L2) and
 * 100 (DRAM), at hit rates l1 and l2; arithmetic (and S2R) LA. */
static uint64_t levels_run_w(const char *const *lines, int n, double l1, double l2,
                             double local_l1, uint32_t warps);

static uint64_t levels_run(const char *const *lines, int n, double l1, double l2)
{
    return levels_run_w(lines, n, l1, l2, -1, 1);
}

/* The same with kernel.memory.local_l1_hit local_l1 (< 0: not known). */
static uint64_t levels_run_local(const char *const *lines, int n, double l1, double l2,
                                 double local_l1)
{
    return levels_run_w(lines, n, l1, l2, local_l1, 1);
}

static uint64_t levels_run_shape(const char *const *lines, int n, double l1, double l2,
                                 double local_l1, uint32_t warps, const uint32_t block[3]);

/* The same with a block of `warps` warps, one a partition (at most 4): each
 * runs as one warp alone would, but the SM is not the warp's alone. */
static uint64_t levels_run_w(const char *const *lines, int n, double l1, double l2,
                             double local_l1, uint32_t warps)
{
    return levels_run_shape(lines, n, l1, l2, local_l1, warps, NULL);
}

/* The steps of finished program p (destroyed after) run by `warps` warps of
 * one block, with the loads' latencies 10, 50 and 100 and the kernel's hit
 * rates l1, l2 and local_l1 (< 0: not known). */
static uint64_t finished_run(pn_sass_prog_t *p, uint32_t warps, double l1, double l2,
                             double local_l1)
{
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pp.n_warps = warps;
    pp.latency[PN_PIPE_LD_L1] = 10;
    pp.latency[PN_PIPE_LD_L2] = 50;
    pp.latency[PN_PIPE_LD_DRAM] = 100;
    pn_pipe_device_t pd = { 0 };
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = l1;
    mem.l2_hit = l2;
    mem.local_l1_hit = local_l1;
    uint64_t steps = pn_test_sass_steps(p, &pp, &pd, &mem);
    pn_sass_prog_destroy(p);
    return steps;
}

/* The same with the program's block shape (NULL: not known). */
static uint64_t levels_run_shape(const char *const *lines, int n, double l1, double l2,
                                 double local_l1, uint32_t warps, const uint32_t block[3])
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_true(warps >= 1 && warps <= 4);
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", warps, &err), PN_OK);
    if (block)
        memcpy(p.block, block, sizeof p.block);
    for (int i = 0; i < n; i++)
        add(&p, (uint32_t)(16 * i), warps, lines[i]);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    return finished_run(&p, warps, l1, l2, local_l1);
}

/* A load of a line an earlier load of the warp fetches waits for that line
 * (an L1 hit when it arrives), and takes no level of its own. Every load
 * misses to DRAM. */
static uint64_t merge_run(const char *second)
{
    const char *lines[] = { "LDG.E R10, desc[UR4][R2.64]", "IADD3 R1, R1, 1, RZ",
                            "IADD3 R1, R1, 1, RZ", "IADD3 R1, R1, 1, RZ", second,
                            "IADD3 R5, R11, R10, RZ", "EXIT" };
    return levels_run(lines, 7, 0, 0);
}

/* Loads of one basic block on one base register share a level (a run of
 * burst loads, burst the most such loads of a block; tests/test_sass_plan.c
 * has loads from two bases): two blocks of two loads each, half the loads
 * at L1, the rest at DRAM (100): one block's pair hits, the other's misses,
 * and only one add waits for DRAM (alternating levels: each block has a
 * miss, 215 steps). The loads' addresses are the same in every block, so
 * their L1 level takes the L2's latency (50). */
static void test_load_runs(void **state)
{
    (void)state;
    const char *two[] = { "LDG.E R10, desc[UR4][R2.64+0x10]", "LDG.E R11, desc[UR4][R2.64+0x90]",
                          "IADD3 R5, R10, R11, RZ", "BRA 0x40",
                          "LDG.E R12, desc[UR4][R6.64+0x10]", "LDG.E R13, desc[UR4][R6.64+0x90]",
                          "IADD3 R5, R12, R13, RZ", "EXIT" };
    /* the pair at 0, 1 misses (101), the add at 101, the branch at 102 (the next
     * op LA later), the second pair at 107 and 108 (158), the add at 158, its
     * result at 158 + LA */
    assert_int_equal(levels_run_w(two, 8, 0.5, 0, -1, 2), 158 + LA + 2);
}

/* Local loads (LDL) hit L1 at their own rate when it is known: the loads'
 * levels take the execution-weighted mean of both rates. A local address is the
 * warp's own (never the same in every block): its L1 level keeps the L1's
 * latency (10), not the L2's as a global load from the same register would. */
static void test_local_loads(void **state)
{
    (void)state;
    const char *ldl[] = { "LDL R10, [R1]", "IADD3 R5, R10, R10, RZ", "EXIT" };
    assert_int_equal(levels_run_local(ldl, 3, 1, 0, -1), 10 + LA + 2);
    assert_int_equal(levels_run_local(ldl, 3, 1, 0, 0), 100 + LA + 2);
    assert_int_equal(levels_run_local(ldl, 3, 0, 0, 1), 10 + LA + 2);
    const char *ldg[] = { "LDG.E R10, desc[UR4][R2.64]", "IADD3 R5, R10, R10, RZ", "EXIT" };
    assert_int_equal(levels_run_w(ldg, 3, 1, 0, 0, 2), 50 + LA + 2);
}

/* A load whose address is the same in every block (no block index and no
 * loaded value in it: pn_sass_addr.h) is an L1 hit only on a line in flight:
 * it takes the L2's latency at the L1 level. One whose address carries the
 * block's index keeps the L1's, and so does any load of a warp alone on the
 * SM (two warps here, one a partition, each as it would run alone). */
static void test_alike_loads(void **state)
{
    (void)state;
    /* S2R at 0; the load at 1 (it reads no S2R result), back at 1 + 50; the
     * add at 51, its result at 51 + LA, the run 2 more */
    const char *uni[] = { "S2R R7, SR_TID.X", "LDG.E R10, desc[UR4][R2.64]",
                          "IADD3 R5, R10, 1, RZ", "EXIT" };
    assert_int_equal(levels_run_w(uni, 4, 1, 1, -1, 2), 51 + LA + 2);
    /* alone on the SM: back at 1 + 10 */
    assert_int_equal(levels_run(uni, 4, 1, 1), 11 + LA + 2);
    /* the same load at L2 and DRAM levels: 50 and 100 as before */
    assert_int_equal(levels_run_w(uni, 4, 0, 1, -1, 2), 51 + LA + 2);
    assert_int_equal(levels_run_w(uni, 4, 0, 0, -1, 2), 101 + LA + 2);
    /* its address from the thread's index: the same in every block, likewise:
     * issued when the S2R's result is back (LA), 50 later */
    const char *tid[] = { "S2R R2, SR_TID.X", "LDG.E R10, desc[UR4][R2.64]",
                          "IADD3 R5, R10, 1, RZ", "EXIT" };
    assert_int_equal(levels_run_w(tid, 4, 1, 1, -1, 2), LA + 50 + LA + 2);
    /* from the block's index: an L1 hit 10 later */
    const char *cta[] = { "S2R R2, SR_CTAID.X", "LDG.E R10, desc[UR4][R2.64]",
                          "IADD3 R5, R10, 1, RZ", "EXIT" };
    assert_int_equal(levels_run_w(cta, 4, 1, 1, -1, 2), LA + 10 + LA + 2);
}

/* Warps of a block that read the same lines together (a block of 32 x 4, an
 * address of the block's index and SR_TID.X alone): of each 4, one misses
 * and 3 wait for its line where ncu counts hits, so an L1 hit takes the L1's
 * latency plus (3 / 4) / l1 of the way to its misses' (L2 here): 10 + 0.75 x
 * 40 = 40. Not so when the address carries SR_TID.Y, in blocks of 128 x 1,
 * or without the shape. */
static void test_copied_loads(void **state)
{
    (void)state;
    const uint32_t narrow[3] = { 32, 4, 1 }, wide[3] = { 128, 1, 1 };
    /* the S2Rs at 0 and 1, the IMAD at LA + 1 (LA + 2 with the IADD), the load
     * at LA + 1 + LA, the add when its value is back, then LA and 2 more */
    const char *x[] = { "S2R R0, SR_TID.X", "S2R R1, SR_CTAID.X", "IMAD R2, R1, 0x20, R0",
                        "LDG.E R10, desc[UR4][R2.64]", "IADD3 R5, R10, 1, RZ", "EXIT" };
    uint64_t base = levels_run_shape(x, 6, 1, 1, -1, 4, NULL);
    assert_int_equal(levels_run_shape(x, 6, 1, 1, -1, 4, narrow), base + 30);
    assert_int_equal(levels_run_shape(x, 6, 1, 1, -1, 4, wide), base);
    /* the misses half at L2, half at DRAM: 10 + 0.75 x (75 - 10), rounded */
    assert_int_equal(levels_run_shape(x, 6, 1, 0.5, -1, 4, narrow), base + 49);
    const char *y[] = { "S2R R0, SR_TID.Y", "S2R R1, SR_CTAID.X", "IMAD R2, R1, 0x20, R0",
                        "LDG.E R10, desc[UR4][R2.64]", "IADD3 R5, R10, 1, RZ", "EXIT" };
    assert_int_equal(levels_run_shape(y, 6, 1, 1, -1, 4, narrow), base);
    /* the rule's count of warps alike */
    assert_int_equal(pn_sass_copies(narrow, 4), 4);
    assert_int_equal(pn_sass_copies(wide, 4), 1);
    assert_int_equal(pn_sass_copies((const uint32_t[3]){ 16, 16, 1 }, 8), 8);
    assert_int_equal(pn_sass_copies((const uint32_t[3]){ 64, 4, 1 }, 8), 4);
    assert_int_equal(pn_sass_copies((const uint32_t[3]){ 48, 4, 1 }, 6), 1);  /* warps straddle rows */
    assert_int_equal(pn_sass_copies((const uint32_t[3]){ 32, 4, 1 }, 8), 1);  /* not this block */
    assert_int_equal(pn_sass_copies((const uint32_t[3]){ 0, 0, 0 }, 8), 1);
}

/* One warp's loop of 4 trips around a load of `lines` lines (8 sectors a line)
 * an execution whose address moves `step` a trip (an IADD3 of the register
 * pair), every load an L1 hit (l2 1): its steps. */
static uint64_t walk_run(const char *step, double lines)
{
    char bump[64];
    snprintf(bump, sizeof bump, "IADD3 R2, P0, R2, %s, RZ", step);
    const char *text[] = { "S2R R0, SR_CTAID.X", "IMAD.WIDE R2, R0, 0x4, R8",
                           "LDG.E R10, desc[UR4][R2.64]", bump,
                           "IADD3.X R3, RZ, R3, RZ, P0, !PT", "IADD3 R5, R10, R5, RZ",
                           "ISETP.NE.AND P1, PT, R2, R9, PT", "@P1 BRA 0x20", "EXIT" };
    const double ex[] = { 1, 1, 4, 4, 4, 4, 4, 4, 1 };
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 9; i++) {
        double l = i == 2 ? lines * ex[i] : 0;
        assert_int_equal(pn_sass_prog_add(&p, text[i], (uint64_t)(16 * i), 0, ex[i], 8 * l, l, 0,
                                          i + 1, 1, &err), PN_OK);
    }
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    return finished_run(&p, 1, 1, 1, -1);
}

/* A loop's load whose lanes read 8 lines or more an execution and that moves
 * a line or more a trip (pn_sass_addr_steps) finds its L1 hits on lines other
 * warps bring: each of the 4 trips waits the L2's 50 steps for its load, not
 * the L1's 10 (4 x 40 = 160 more). One that moves less than a line (its own
 * lines again), or a coalesced one (4 lines), keeps the L1's. */
static void test_walking_loads(void **state)
{
    (void)state;
    uint64_t near = walk_run("0x4", 32);
    assert_int_equal(walk_run("0x1000", 32), near + 160);
    assert_int_equal(walk_run("0x80", 8), near + 160);
    assert_int_equal(walk_run("0x7c", 32), near);
    assert_int_equal(walk_run("0x1000", 4), near);
}

/* One warp's single load `text` of `lines` lines (one sector a line), then its
 * use: its steps with the kernel's L1 hit rate l1 (the load at the L1 level:
 * warp 0's one run rounds 0.9 up) and every miss at L2. */
static uint64_t bytes_run(const char *text, double lines, double l1)
{
    const char *t[] = { "S2R R2, SR_CTAID.X", text, "IADD3 R5, R10, 1, RZ", "EXIT" };
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(pn_sass_prog_add(&p, t[i], (uint64_t)(16 * i), 0, 1, i == 1 ? lines : 0,
                                          i == 1 ? lines : 0, 0, i + 1, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    return finished_run(&p, 1, l1, 1, -1);
}

/* A load of a byte a lane on 16 lines finds them all in L1 0.9^16 of the time
 * where ncu counts 0.9 of its sectors as hits: at the L1 level it waits
 * 1 - 0.9^15 = 0.794 of the way to its misses' latency, 10 + 0.794 x 40 = 42
 * steps, 32 more than the L1's 10. A word a lane, or bytes on 4 lines, keep
 * the L1's latency; so do bytes that all hit. */
static void test_byte_lanes(void **state)
{
    (void)state;
    uint64_t word = bytes_run("LDG.E R10, desc[UR4][R2.64]", 16, 0.9);
    assert_int_equal(bytes_run("LDG.E.U8 R10, desc[UR4][R2.64]", 16, 0.9), word + 32);
    assert_int_equal(bytes_run("LDG.E.S8 R10, desc[UR4][R2.64]", 16, 0.9), word + 32);
    assert_int_equal(bytes_run("LDG.E.U8 R10, desc[UR4][R2.64]", 4, 0.9), word);
    assert_int_equal(bytes_run("LDG.E.U8 R10, desc[UR4][R2.64]", 16, 1),
                     bytes_run("LDG.E R10, desc[UR4][R2.64]", 16, 1));
}

/* ncu's L1 hit rate counts sectors, those of loads that find their line on the
 * way (followers: hits) and of loads of one address in every thread and block
 * (a vector element every row multiplies by: pinned at the L1 level) among
 * them; the other loads take the hits left. Loads of 4 sectors each. */
static void test_hits_left(void **state)
{
    (void)state;
    /* a leader and its follower at 0.5: the follower's 4 sectors are the hits,
     * the leader goes to L2 (50), the add when both are back */
    const char *fol[] = { "LDG.E R10, desc[UR4][R2.64]", "LDG.E R11, desc[UR4][R2.64+0x4]",
                          "IADD3 R5, R10, R11, RZ", "EXIT" };
    assert_int_equal(levels_run(fol, 4, 0.5, 1), 50 + LA + 2);
    /* a broadcast load (R2 a parameter: no block, thread or loaded value) and
     * the thread's own at 0.5: the broadcast one at L1 (10, from step 1), the
     * thread's at L2 (issued at LA, when its address is back: LA + 50) */
    const char *pin[] = { "S2R R0, SR_TID.X", "LDG.E R10, desc[UR4][R2.64]",
                          "LDG.E R11, desc[UR4][R0.64]", "IADD3 R5, R10, R11, RZ", "EXIT" };
    assert_int_equal(levels_run(pin, 5, 0.5, 1), LA + 50 + LA + 2);
    /* every hit to spare: both at L1, the thread's back at LA + 10 */
    assert_int_equal(levels_run(pin, 5, 1, 1), LA + 10 + LA + 2);
}

static void test_line_merge(void **state)
{
    (void)state;
    /* the second load issues at 12 (after three dependent adds at 1, 6, 11) on the
     * first one's line ([R2.64+0x4]): it completes with that line at 100,
     * the last add issues at 100 and its result is back at 100 + LA; on
     * another register, or in another 128-byte window, the load misses to
     * DRAM itself and completes at 112. A run lasts its last completion + 2. */
    assert_int_equal(merge_run("LDG.E R11, desc[UR4][R2.64+0x4]"), 100 + LA + 2);
    assert_int_equal(merge_run("LDG.E R11, desc[UR4][R6.64+0x4]"), 112 + LA + 2);
    assert_int_equal(merge_run("LDG.E R11, desc[UR4][R2.64+0x80]"), 112 + LA + 2);
    /* leaders found: same registers, same window, no write between */
    const char *lines[] = { "LDG.E R10, desc[UR4][R2.64]", "LDG.E R11, desc[UR4][R2.64+0x7c]",
                            "LDG.E R12, desc[UR4][R2.64+0x8]", "IADD3 R2, R2, 0x80, RZ",
                            "LDG.E R13, desc[UR4][R2.64+0x4]", "LDG.E R14, desc[UR4][R2.64]",
                            "EXIT" };
    pn_sass_prog_t p;
    prog_of(&p, lines, 7);
    int32_t leader[7];
    assert_int_equal(pn_sass_line_leaders(&p, leader), 3);
    assert_int_equal(leader[0], -1);
    assert_int_equal(leader[1], 0);
    assert_int_equal(leader[2], 0);
    assert_int_equal(leader[4], -1); /* R2 was written */
    assert_int_equal(leader[5], 4);
    pn_sass_prog_destroy(&p);
}

/* A grid barrier's polls: a warp that updated a word with a global atomic and
 * polls it (.STRONG.GPU, the same memory operand) in a loop it falls into
 * makes at most two trips an entry: 10 trips on the page, 1 entry, 2 trips,
 * the traffic with them. A poll of another word, or a loop entered by a jump,
 * keeps its trips (pn_sass_polls leaves out NULL). */
static void test_grid_barrier_polls(void **state)
{
    (void)state;
    static const struct {
        double ex;
        const char *text;
    } rows[] = { { 1, "ATOM.E.ADD.STRONG.GPU PT, R9, desc[UR6][R2.64+0x4], R9" },
                 { 1, "IMAD R5, R5, R4, R0" },
                 { 10, "LD.E.STRONG.GPU R0, desc[UR6][R2.64+0x4]" },
                 { 10, "ISETP.GT.AND P1, PT, R0, -0x1, PT" },
                 { 10, "@P1 BRA 0x20" },
                 { 1, "EXIT" } };
    for (int variant = 0; variant < 3; variant++) {
        pn_sass_prog_t p;
        pn_error_t err = { 0 };
        assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
        for (int i = 0; i < 6; i++) {
            const char *text = rows[i].text;
            if (variant == 1 && i == 2)
                text = "LD.E.STRONG.GPU R0, desc[UR6][R2.64+0x8]";   /* another word */
            if (variant == 2 && i == 1)
                text = "BRA 0x20";                                    /* jumps in */
            assert_int_equal(pn_sass_prog_add(&p, text, (uint64_t)(16 * i), 0, rows[i].ex,
                                              i == 2 ? 4 * rows[i].ex : 0, 0, 0, i + 1, 1, &err),
                             PN_OK);
        }
        assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
        pn_sass_prog_t out = p;
        out.ops = NULL;
        assert_int_equal(pn_sass_polls(&p, &out), PN_OK);
        if (variant == 0) {
            assert_non_null(out.ops);
            for (int i = 2; i < 5; i++)
                assert_true(out.ops[i].executed == 2);
            assert_true(out.ops[2].sectors == 8);
            assert_true(out.ops[1].executed == 1 && out.ops[5].executed == 1);
        } else
            assert_null(out.ops);
        free(out.ops);
        pn_sass_prog_destroy(&p);
    }
}

/* A triangular loop (lanes leave it one by one by the thread's index): 64 warps
 * (16 blocks of 4, 16 SMs), 100 trips a warp with 97 % of the lanes on against
 * all before it: a lane a warp every 31 / 2048 of the trips, a grid triangle's,
 * and the busiest SM's warps run it f = 2 times the mean (the cap). A loop of
 * 2.5 trips that loses a fifth of its lanes (cuRAND's skip-ahead over the bits
 * of the thread's index) loses them 13 times faster than a triangle over 2048
 * threads would: left as it is (pn_sass_triangle leaves out NULL). */
static void test_triangle_loops(void **state)
{
    (void)state;
    static const char *text[] = { "MOV R1, RZ", "IADD3 R1, R1, 0x1, RZ",
                                  "ISETP.GE.AND P0, PT, R1, R0, PT", "@!P0 BRA 0x10", "EXIT" };
    static const double trips[] = { 100, 2.5 }, on[] = { 0.97, 0.8 };
    uint8_t guard[5] = { 0, 0, 0, PN_SASS_FROM_THREAD, 0 };
    for (int c = 0; c < 2; c++) {
        pn_sass_prog_t p;
        pn_error_t err = { 0 };
        assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 64, &err), PN_OK);
        for (int i = 0; i < 5; i++) {
            double ex = i >= 1 && i <= 3 ? 64 * trips[c] : 64;
            assert_int_equal(pn_sass_prog_add(&p, text[i], (uint64_t)(16 * i), 0, ex, 0, 0, 0,
                                              i + 1, 1, &err), PN_OK);
            p.ops[i].threads = ex * 32 * (i >= 1 && i <= 3 ? on[c] : 1);
        }
        assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
        pn_sass_prog_t out;
        assert_int_equal(pn_sass_triangle(&p, guard, 4, 132, &out), PN_OK);
        if (c == 0) {
            assert_non_null(out.ops);
            assert_true(out.ops[1].executed == 12800 && out.ops[3].executed == 12800);
            assert_true(out.ops[0].executed == 64 && out.ops[4].executed == 64);
        } else
            assert_null(out.ops);
        free(out.ops);
        pn_sass_prog_destroy(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_scope),
        cmocka_unit_test(test_dram_scattered),
        cmocka_unit_test(test_dram_async_copies),
        cmocka_unit_test(test_dram_predicated_off),
        cmocka_unit_test(test_dram_partly_on),
        cmocka_unit_test(test_dram_jitter),
        cmocka_unit_test(test_dram_jitter_lines),
        cmocka_unit_test(test_l1_data_path),
        cmocka_unit_test(test_dram_queue),
        cmocka_unit_test(test_dram_writes_capped),
        cmocka_unit_test(test_l2_resident),
        cmocka_unit_test(test_load_runs),
        cmocka_unit_test(test_local_loads),
        cmocka_unit_test(test_alike_loads),
        cmocka_unit_test(test_copied_loads),
        cmocka_unit_test(test_walking_loads),
        cmocka_unit_test(test_byte_lanes),
        cmocka_unit_test(test_hits_left),
        cmocka_unit_test(test_line_merge),
        cmocka_unit_test(test_grid_barrier_polls),
        cmocka_unit_test(test_triangle_loops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
