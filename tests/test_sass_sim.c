/* test_sass_sim.c - warps that run their SASS: the source-page reader and its
 * pairing with launches, program files, per-warp plans, and the dependency
 * rule's exact step counts on one warp: control flow, async copies, tensor
 * and branch pipes, per-op cycles (doc/dependencies.md). Its loads and the
 * memory behind them: test_sass_loads.c; the SM's pipes: test_sass_pipes.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pn_ncu_source.h"
#include "pn_sass_addr.h"
#include "pn_sass_lines.h"
#include "pn_sass_plan.h"
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"
#include "pn_test_sass.h"
#include "pn_test_sass_warp.h"

/* models/sass/pn_sass_run_i.h's PN_SASS_CAL (private to the engine) */
#define PN_SASS_TEST_CAL 1024

/* ---- the source page ---------------------------------------------------- */

#define HDR "\"Address\",\"Source\",\"Instructions Executed\",\"L2 Theoretical Sectors Global\"\n"
static const char page[] =
    "==PROF== Connected to process\n"
    "\"Kernel Name\",\"k(int)\",\n" HDR
    "\"0x7f00\",\"      LDG.E R2, desc[UR4][R2.64]\",\"8\",\"32\"\n"
    "\"0x7f10\",\"@P0   EXIT\",\"8\",\"-\"\n"
    "\"0x7f20\",\"      BRA 0x7f20\",\"0\",\"-\"\n"
    "\"Kernel Name\",\"k(int)\",\n" HDR
    "\"0x7f00\",\"      LDG.E R2, desc[UR4][R2.64]\",\"8\",\"32\"\n"
    "\"0x7f10\",\"@P0   EXIT\",\"8\",\"-\"\n"
    "\"0x7f20\",\"      BRA 0x7f20\",\"0\",\"-\"\n";

static void test_source_read(void **state)
{
    (void)state;
    pn_ncu_source_t s;
    pn_error_t err = { 0 };
    assert_int_equal(pn_ncu_source_parse(&s, page, strlen(page), "p.csv", &err), PN_OK);
    assert_int_equal(s.n_tables, 2);
    assert_string_equal(s.tables[0].kernel, "k(int)");
    assert_int_equal(s.tables[0].n_rows, 3);
    assert_int_equal(s.tables[1].line, 7);
    const pn_ncu_sass_row_t *r = &s.tables[0].rows[0];
    assert_int_equal(r->address, 0x7f00);
    assert_string_equal(r->source, "LDG.E R2, desc[UR4][R2.64]");
    assert_true(r->executed == 8 && r->sectors == 32 && s.tables[0].rows[1].sectors == 0);
    assert_true(s.tables[0].executed == 16);
    assert_int_equal(r->line, 4);
    assert_int_equal(r->source_col, 17);
    pn_ncu_source_destroy(&s);
}

static void expect_error(const char *text, const char *msg)
{
    pn_ncu_source_t s;
    pn_error_t err = { 0 };
    assert_int_equal(pn_ncu_source_parse(&s, text, strlen(text), "p.csv", &err), PN_EINVAL);
    if (!strstr(err.msg, msg))
        fail_msg("got '%s', want '%s'", err.msg, msg);
    assert_int_equal(s.n_tables, 0);
}

static void test_source_errors(void **state)
{
    (void)state;
    expect_error("\"Kernel Name\",\"k\",\n" HDR "\"0x10\",\"NOP\",\"x\",\"0\"\n",
                 "p.csv:3:15: Instructions Executed: expected a count >= 0, got 'x'");
    expect_error("\"Kernel Name\",\"k\",\n" HDR "\"0x10\",\"NOP\",\"1\",\"0\"\n\"0x10\",\"NOP\",\"1\",\"0\"\n",
                 "p.csv:4:2: Address 0x10 is not above the row before it (line 3)");
    expect_error("\"Kernel Name\",\"k\",\n" HDR "\"0x10\",\"NOP,\"1\",\"0\"\n",
                 "p.csv:3:");
    expect_error("\"Kernel Name\",\"k\",\n\"Address\",\"Executed\"\n\"0x10\",\"1\"\n",
                 "p.csv:2:1: missing column 'Source'");
    /* Address and Source without Instructions Executed: a table without counts
     * (ncu collected no SourceCounters for the launch), read as such */
    const char *bare = "\"Kernel Name\",\"k\",\n\"Address\",\"Source\"\n\"0x10\",\"NOP\"\n";
    pn_ncu_source_t s;
    pn_error_t err = { 0 };
    assert_int_equal(pn_ncu_source_parse(&s, bare, strlen(bare), "p.csv", &err), PN_OK);
    assert_int_equal(s.n_tables, 1);
    assert_true(s.tables[0].uncounted);
    assert_int_equal(s.tables[0].n_rows, 1);
    assert_true(s.tables[0].executed == 0);
    pn_ncu_source_destroy(&s);
    expect_error("\"Kernel Name\",\"k\",\n" HDR "\"10\",\"NOP\",\"1\",\"0\"\n",
                 "p.csv:3:2: Address: expected a hexadecimal address");
    expect_error("\"Kernel Name\",\"k\",\n" HDR "\"0x10\",\"NOP\",\"1\"\n",
                 "p.csv:3:1: row has 3 fields, the header of this table has 4");
    expect_error("ID,Kernel\n", "p.csv:1:1: not an Nsight Compute source page");
    expect_error("\"Kernel Name\",\"k\",\n" HDR, "p.csv:1:1: the table of kernel 'k' has no rows");
    expect_error("==ERROR== no report\n", "p.csv:1:1: ncu reported an error: ==ERROR== no report");
}

/* ---- programs ------------------------------------------------------------ */

static void test_program_file(void **state)
{
    (void)state;
    pn_sass_prog_t p, q;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "x.sass", "loop", 2, &err), PN_OK);
    add(&p, 0x00, 2, "S2R R0, SR_TID.X");
    add(&p, 0x10, 256, "LDG.E R2, desc[UR4][R4.64]");
    add(&p, 0x20, 256, "FADD R3, R3, R2");
    add(&p, 0x30, 256, "ISETP.NE.AND P0, PT, R3, RZ, PT");
    add(&p, 0x40, 256, "@P0 BRA 0x10");
    add(&p, 0x50, 2, "EXIT");
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    assert_int_equal(p.n_blocks, 3);
    assert_int_equal(p.ops[4].target, 1);
    p.ops[1].threads = 8192; /* the optional threads column */
    p.block[0] = 32, p.block[1] = 2, p.block[2] = 1;   /* and the block's shape */
    char path[] = "/tmp/pn_test_sass_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(pn_sass_prog_write(f, &p, "a comment\nof two lines", &err), PN_OK);
    fclose(f);
    assert_int_equal(pn_sass_prog_read(&q, path, &err), PN_OK);
    assert_string_equal(q.kernel, "loop");
    assert_true(q.warps == 2);
    assert_true(q.block[0] == 32 && q.block[1] == 2 && q.block[2] == 1);
    assert_int_equal(q.n, p.n);
    for (size_t i = 0; i < p.n; i++) {
        assert_int_equal(q.ops[i].offset, p.ops[i].offset);
        assert_true(q.ops[i].executed == p.ops[i].executed);
        assert_true(q.ops[i].sectors == p.ops[i].sectors);
        assert_true(q.ops[i].threads == p.ops[i].threads);
        assert_string_equal(q.ops[i].text, p.ops[i].text);
        assert_int_equal(q.ops[i].target, p.ops[i].target);
    }
    /* the plan: 2 warps, 128 trips each (255 taken of 256 visits, busier first) */
    pn_sass_plan_t pl;
    assert_int_equal(pn_sass_plan_build(&pl, &q, NULL, 2, 1, &err), PN_OK);
    assert_int_equal(pl.n_branches, 1);
    assert_true(pl.branches[0].visits == 256 && pl.branches[0].taken == 254);
    assert_int_equal(pl.visits[0], 128);
    assert_int_equal(pl.visits[1], 128);
    assert_int_equal(pl.heavy[0], 127);
    /* the loop never writes R4: its load reads the same address every trip
     * (reused, not among the loads that go to a level) */
    assert_int_equal(pl.reuse[1], 1);
    assert_int_equal(pl.loads[0], 0);
    assert_int_equal(pl.reuse_loads[0], 128);
    assert_int_equal(pl.insts[1], 1 + 4 * 128 + 1);
    pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&q);
    /* a loop behind a guard (if (n > 0) for (...)): the counts give its entry
     * and its back edge one equation; the guard is taken as never taken, so
     * each of 4 warps runs 10 of the 40 trips (not half the warps skipping it
     * and the other half running the trips left) */
    pn_sass_prog_t g;
    assert_int_equal(pn_sass_prog_init(&g, "g.sass", "guard", 4, &err), PN_OK);
    add(&g, 0x00, 4, "ISETP.NE.AND P1, PT, R4, RZ, PT");
    add(&g, 0x10, 4, "@!P1 BRA 0x50");
    add(&g, 0x20, 40, "IADD3 R3, R3, 0x1, RZ");
    add(&g, 0x30, 40, "ISETP.NE.AND P0, PT, R3, R4, PT");
    add(&g, 0x40, 40, "@P0 BRA 0x20");
    add(&g, 0x50, 4, "EXIT");
    assert_int_equal(pn_sass_prog_finish(&g, &err), PN_OK);
    assert_int_equal(pn_sass_plan_build(&pl, &g, NULL, 4, 1, &err), PN_OK);
    assert_int_equal(pl.unsolved, 0);
    assert_true(pl.branches[0].taken == 0 && pl.branches[1].taken == 36);
    for (int w = 0; w < 4; w++)
        assert_int_equal(pl.insts[w], 2 + 3 * 10 + 1);
    pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&g);
    /* a count that disagrees inside a basic block, a target outside */
    p.ops[2].executed = 255;
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "x.sass:32:1: FADD at 0x20 executed 255 times, the "
                                    "instruction before it 256 times"));
    p.ops[2].executed = 256;
    p.ops[4].in.target = 0x90;
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "x.sass:64:1: branch target 0x90 is outside the kernel"));
    pn_sass_prog_destroy(&p);
    unlink(path);
    /* the threads of a warp may go on apart after a YIELD or NANOSLEEP (cuSOLVER's
     * polls): a count after one may differ from the one before; after a NOP it may not */
    static const char *const after[] = { "YIELD", "NANOSLEEP R0", "NOP" };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(pn_sass_prog_init(&g, "y.sass", "y", 4, &err), PN_OK);
        add(&g, 0x00, 8, "ISETP.NE.AND P0, PT, R0, RZ, PT");
        add(&g, 0x10, 8, after[i]);
        add(&g, 0x20, 6, "@P0 EXIT");
        add(&g, 0x30, 6, "EXIT");
        assert_int_equal(pn_sass_prog_finish(&g, &err), i < 2 ? PN_OK : PN_EINVAL);
        pn_sass_prog_destroy(&g);
    }
}

/* ---- the dependency rule, one warp -------------------------------------- */

static void test_dependencies(void **state)
{
    (void)state;
    pn_sass_prog_t p;
    /* independent loads issue one a step: a load and two dependent adds take
     * LD + 2 LA (+2: the warp terminates when its last result is back, the kernel
     * ends in the next step); four loads at steps 0..3, the
     * first add reads the loads of steps 0..2 (issues at 2 + LD), the second
     * its result and the fourth load: 2 + LD + 2 LA + 1, not 4 LD */
    static const char *loads[] = { "LDG.E R10, desc[UR4][R2.64]", "LDG.E R11, desc[UR4][R2.64]",
                                   "LDG.E R12, desc[UR4][R2.64]", "LDG.E R13, desc[UR4][R2.64]",
                                   "IADD3 R1, R10, R11, R12", "IADD3 R1, R1, R13, RZ", "EXIT" };
    static const char *one[] = { "LDG.E R10, desc[UR4][R2.64]", "IADD3 R1, R10, RZ, RZ",
                                 "IADD3 R1, R1, RZ, RZ", "EXIT" };
    prog_of(&p, one, 4);
    assert_int_equal(one_warp(&p), 0 + LD + 2 * LA + 2);
    pn_sass_prog_destroy(&p);
    prog_of(&p, loads, 7);
    assert_int_equal(one_warp(&p), 2 + LD + 2 * LA + 2);
    pn_sass_prog_destroy(&p);
    /* a chain of k dependent adds: k * LA */
    static const char *chain[] = { "IADD3 R1, R1, 1, RZ", "IADD3 R1, R1, 1, RZ",
                                   "IADD3 R1, R1, 1, RZ", "IADD3 R1, R1, 1, RZ",
                                   "IADD3 R1, R1, 1, RZ", "EXIT" };
    prog_of(&p, chain, 6);
    assert_int_equal(one_warp(&p), 5 * LA + 2);
    pn_sass_prog_destroy(&p);
    /* an add that does not read the pending load issues under it: the run
     * is the load's alone */
    static const char *under[] = { "LDG.E R10, desc[UR4][R2.64]", "IADD3 R1, R5, 1, RZ",
                                   "IADD3 R1, R1, 1, RZ", "EXIT" };
    prog_of(&p, under, 4);
    assert_int_equal(one_warp(&p), LD + 2);
    pn_sass_prog_destroy(&p);
}

/* cp.async: LDGSTS copies into the open group (no register: nothing reads
 * it), LDGDEPBAR commits the group, DEPBAR.LE SB0, N waits until all
 * committed groups but the newest N are in. Two groups, copies at steps 0 and
 * 2 (commits at 1 and 3), in at LD and 2 + LD; the wait at step 4 at the
 * earliest, then an add and EXIT. Waiting for both (N = 0): the wait at 2 +
 * LD, the add at 3 + LD, its result at 3 + LD + LA, +2: LD + LA + 5; for the
 * older (N = 1): the wait at LD, the add at LD + 1, done at LD + 1 + LA, and
 * the warp (held by the second copy until 2 + LD) ends LD + LA + 3; for none
 * (N = 2): the add at 5, the warp held by its copies, 2 + LD + 2. Without
 * the wait the add does not wait for the copies (5 + LA + 2 < LD). */
static uint64_t lines_run(const char *const *lines, int n)
{
    pn_sass_prog_t p;
    prog_of(&p, lines, n);
    uint64_t steps = one_warp(&p);
    pn_sass_prog_destroy(&p);
    return steps;
}

static uint64_t async_run(const char *wait)
{
    const char *lines[] = { "LDGSTS.E [R5], desc[UR4][R2.64]", "LDGDEPBAR",
                            "LDGSTS.E [R5+0x80], desc[UR4][R2.64+0x80]", "LDGDEPBAR", wait,
                            "IADD3 R1, R1, 1, RZ", "EXIT" };
    return lines_run(lines, 7);
}

static void test_async_copies(void **state)
{
    (void)state;
    assert_int_equal(async_run("DEPBAR.LE SB0, 0x0"), LD + LA + 5);
    assert_int_equal(async_run("DEPBAR.LE SB0, 0x1"), LD + LA + 3);
    assert_int_equal(async_run("DEPBAR.LE SB0, 0x2"), LD + 4);
    /* another scoreboard, and hex operands of control ops that are not code
     * addresses (no branch target outside the kernel) */
    assert_int_equal(async_run("DEPBAR.LE SB1, 0x0"), LD + 4);
    assert_int_equal(async_run("WARPSYNC 0xffffffff"), LD + 4);
    assert_int_equal(async_run("NANOSLEEP 0x20"), LD + 4);
}

/* A loop (behind a guard) whose threads leave at different trips: ncu counts its exit's
 * BSYNC once for each part of the warp that left (3 here), the warp goes on once. The
 * plan runs the body its 10 times (fewer before: the loop's flows solved from the
 * BSYNC's 3). */
static void test_divergent_loop_exit(void **state)
{
    (void)state;
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    add(&p, 0x00, 1, "BSSY B0, 0x50");
    add(&p, 0x10, 1, "@P1 BRA 0x40");
    add(&p, 0x20, 10, "IADD3 R1, R1, 1, RZ");
    add(&p, 0x30, 10, "@!P0 BRA 0x20");
    add(&p, 0x40, 3, "BSYNC B0");
    add(&p, 0x50, 1, "EXIT");
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_sass_plan_t pl;
    assert_int_equal(pn_sass_plan_build(&pl, &p, NULL, 1, 1, &err), PN_OK);
    assert_int_equal(pl.op_execs[2], 10);
    assert_int_equal(pl.op_execs[4], 1);
    pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&p);
}

/* A branch whose sides ran more often than it did diverged: one warp runs
 * both, the fall side first (BSSY at 0, the branch at 1, an add at 2, BRA to
 * the BSYNC at 3, the BSYNC at 3 + LA), then the taken side when the first
 * reconverges at the BSSY's target (its add at 4 + LA, the BSYNC again, EXIT
 * at 6 + LA), done when the add's result is back (4 + 2 LA), +2; the plan
 * walks the 8 instructions the counts give. */
static void test_divergence(void **state)
{
    (void)state;
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    add(&p, 0x00, 1, "BSSY B0, 0x60");
    add(&p, 0x10, 1, "@P0 BRA 0x40");
    add(&p, 0x20, 1, "IADD3 R1, R1, 1, RZ");
    add(&p, 0x30, 1, "BRA 0x50");
    add(&p, 0x40, 1, "IADD3 R2, R2, 1, RZ");
    add(&p, 0x50, 2, "BSYNC B0");
    add(&p, 0x60, 1, "EXIT");
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_sass_plan_t pl;
    assert_int_equal(pn_sass_plan_build(&pl, &p, NULL, 1, 1, &err), PN_OK);
    assert_int_equal(pl.n_branches, 1);
    assert_true(pl.branches[0].both == 1 && pl.branches[0].taken == 0);
    assert_int_equal(pl.branches[0].reconv, 6);
    assert_int_equal(pl.insts[0], 8);
    pn_sass_plan_destroy(&pl);
    assert_int_equal(one_warp(&p), 6 + 2 * LA);
    /* turning to the waiting side holds the partition diverge_switch (3) steps:
     * the taken side's add 3 steps later */
    pn_pipe_device_t pd = { 0 };
    pd.diverge_switch = 3;
    assert_int_equal(one_warp_pd(&p, &pd), 9 + 2 * LA);
    pn_sass_prog_destroy(&p);
    /* an if without an else: the branch jumps to the BSYNC its body falls into
     * (that block's other in-flow, 1, is known): the body at 2, the BSYNC at 3
     * and again at 4 for the waiting side, EXIT at 5; the add's result at 2 +
     * LA, +2 */
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    add(&p, 0x00, 1, "BSSY B0, 0x40");
    add(&p, 0x10, 1, "@P0 BRA 0x30");
    add(&p, 0x20, 1, "IADD3 R1, R1, 1, RZ");
    add(&p, 0x30, 2, "BSYNC B0");
    add(&p, 0x40, 1, "EXIT");
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    assert_int_equal(pn_sass_plan_build(&pl, &p, NULL, 1, 1, &err), PN_OK);
    assert_true(pl.branches[0].both == 1);
    assert_int_equal(pl.insts[0], 6);
    pn_sass_plan_destroy(&pl);
    assert_int_equal(one_warp(&p), 4 + LA);
    pn_sass_prog_destroy(&p);
}

/* Steps of one warp running the n ops t (sectors sec and lines ln a row, no
 * wavefronts) with pn_test_sass_params' latencies (one warp), the profile pd,
 * and the loads' L1 hit rate l1 (their L2 hits all). */
static uint64_t levels_steps(const char *const *t, int n, const double *sec, const double *ln,
                             const pn_pipe_device_t *pd, double l1)
{
    double wf[8] = { 0 };
    assert_true(n <= 8);
    pn_sass_prog_t p;
    rows_prog(&p, t, n, sec, ln, wf);
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, 1, 1);
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = l1;
    mem.l2_hit = 1;
    uint64_t steps = pn_test_sass_steps(&p, &pp, pd, &mem);
    pn_sass_prog_destroy(&p);
    return steps;
}

/* Steps of one warp: its block's index, a load of 32 sectors over `lines` lines
 * from it and an add that reads the load, latencies as level_run's, all its
 * loads L1 hits (l1 1) or L2 hits (l1 0), and the profile's line_latency ll. */
static uint64_t spread_run(double lines, int l1, double ll)
{
    const char *t[3] = { "S2R R2, SR_CTAID.X", "LDG.E R4, desc[UR4][R2.64]",
                         "IADD3 R5, R4, 0x1, RZ" };
    double sec[3] = { 0, 32, 0 }, ln[3] = { 0, lines, 0 };
    pn_pipe_device_t pd = { 0 };
    pd.line_latency = ll;
    return levels_steps(t, 3, sec, ln, &pd, l1);
}

/* A load's lines come back one after another past L1: its result waits
 * line_latency (2.5) a line past its first, rounded (8 lines: 17.5 -> 18;
 * issued when the S2R's result is back, LA); one line, L1 hits or no
 * line_latency: the level's latency alone. */
static void test_line_spread(void **state)
{
    (void)state;
    assert_int_equal(spread_run(8, 0, 0), LA + 20 + LA + 2);
    assert_int_equal(spread_run(8, 0, 2.5), LA + 20 + 18 + LA + 2);
    assert_int_equal(spread_run(32, 0, 2.5), LA + 20 + 78 + LA + 2);
    assert_int_equal(spread_run(1, 0, 2.5), LA + 20 + LA + 2);
    assert_int_equal(spread_run(8, 1, 2.5), LA + 10 + LA + 2);
}

/* Steps of one warp: a store of its block's index, then (after 1) or before (after
 * 0) it a load and an add that reads the load, all L1 hits (10), latencies LA
 * otherwise, and the profile's store_order so. */
static uint64_t order_run(int after, double so)
{
    const char *ld = "LDG.E R4, desc[UR4][R2.64]", *st = "STG.E desc[UR4][R2.64], R2";
    const char *t[4] = { "S2R R2, SR_CTAID.X", after ? st : ld, after ? ld : st,
                         "IADD3 R5, R4, 0x1, RZ" };
    double sec[4] = { 0, 4, 4, 0 }, ln[4] = { 0, 1, 1, 0 };
    pn_pipe_device_t pd = { 0 };
    pd.store_order = so;
    return levels_steps(t, 4, sec, ln, &pd, 1);
}

/* A warp's load after its store waits store_order (30) from the store's issue
 * (at LA, when the S2R's result is back): the add's result at LA + 30 + 10 + LA
 * against LA + 1 + 10 + LA without the rule. A load before the store does not
 * wait (at LA; the add at LA + 10, done at LA + 10 + LA), but the store, issued
 * at LA + 1, holds the warp until LA + 1 + 30. */
static void test_store_order(void **state)
{
    (void)state;
    assert_int_equal(order_run(1, 0), LA + 1 + 10 + LA + 2);
    assert_int_equal(order_run(1, 30), LA + 30 + 10 + LA + 2);
    assert_int_equal(order_run(0, 0), LA + 10 + LA + 2);
    assert_int_equal(order_run(0, 30), LA + 1 + 30 + 2);
}

/* A loop of 4 trips whose guarded load feeds an add: with a request every
 * trip (4 lines) the add waits for it each time; with 1 line in 4 executions
 * its threads were off in most of them, and it runs as one that moved
 * nothing (0 lines and sectors): a control op, nothing waits. Each trip's
 * wait for a DRAM load (40, no hits) instead of an op's (LA): 4 (40 - LA). */
static uint64_t guarded_loop(double lines)
{
    static const char *const text[] = { "MOV R1, RZ", "@P1 LDG.E R4, desc[UR4][R2.64]",
                                        "IADD3 R5, R4, 0x1, RZ",
                                        "ISETP.GE.AND P0, PT, R5, 0x10, PT", "@!P0 BRA 0x10",
                                        "EXIT" };
    static const double ex[] = { 1, 4, 4, 4, 4, 1 };
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 6; i++)
        assert_int_equal(pn_sass_prog_add(&p, text[i], (uint64_t)(16 * i), 0, ex[i],
                                          i == 1 ? 4 * lines : 0, i == 1 ? lines : 0, 0, i + 1,
                                          1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    return missing_steps(&p);
}

static void test_mostly_off(void **state)
{
    (void)state;
    assert_int_equal(guarded_loop(1), guarded_loop(0));
    assert_int_equal(guarded_loop(4), guarded_loop(0) + 4 * (40 - LA));
    assert_int_equal(guarded_loop(2), guarded_loop(0) + 4 * (40 - LA));   /* half: on */
}

/* Matrix ops (HMMA) take the profile's tensor rows at their depth K: two
 * dependent HMMA.16816 wait 24 each (the row of K 16), two HMMA.1688 17 (K 8),
 * an HMMA.884 (K 4, below the first row) 17, a TF32 op at twice its depth;
 * without the rows the SFU's
 * latency (LA). A warpgroup's HGMMA.64xNxK, N/8 of them back to back. */
static uint64_t mma_run(const char *op, int rows)
{
    const char *lines[] = { op, op, "EXIT" };
    pn_sass_prog_t p;
    prog_of(&p, lines, 3);
    pn_pipe_device_t pd = { 0 };
    if (rows) {
        double busy[2][2] = { { 8, 4 }, { 16, 6 } }, lat[2][2] = { { 8, 17 }, { 16, 24 } };
        memcpy(pd.tensor[0], busy, sizeof busy);
        memcpy(pd.tensor[1], lat, sizeof lat);
        pd.n_tensor[0] = pd.n_tensor[1] = 2;
    }
    uint64_t steps = one_warp_pd(&p, &pd);
    pn_sass_prog_destroy(&p);
    return steps;
}

static void test_tensor(void **state)
{
    (void)state;
    assert_int_equal(mma_run("HMMA.16816.F32 R4, R8, R12, R4", 1), 2 * 24 + 2);
    assert_int_equal(mma_run("HMMA.1688.F32 R4, R8, R12, R4", 1), 2 * 17 + 2);
    assert_int_equal(mma_run("HMMA.884.F32 R4, R8, R12, R4", 1), 2 * 17 + 2);
    /* TF32's depth counts twice: .1684 as K 8 (17), .1688 as K 16 (24) */
    assert_int_equal(mma_run("HMMA.1684.F32.TF32 R4, R8, R12, R4", 1), 2 * 17 + 2);
    assert_int_equal(mma_run("HMMA.1688.F32.TF32 R4, R8, R12, R4", 1), 2 * 24 + 2);
    assert_int_equal(mma_run("HMMA.16816.F32 R4, R8, R12, R4", 0), 2 * LA + 2);
    /* a warpgroup's HGMMA.64x128x16: each warp's 16x128x16 share, 16 HMMA.16816's
     * worth back to back: 16 x 6 busy, 24 + 15 x 6 = 114 to its result */
    assert_int_equal(mma_run("HGMMA.64x128x16.F32 R24, gdesc[UR16], R24", 1), 2 * 114 + 2);
    assert_int_equal(mma_run("HGMMA.64x64x16.F32 R24, gdesc[UR16], R24", 1), 2 * 66 + 2);
}

/* Branches take the 16-lane integer pipe branch_busy steps each (with
 * alu_busy): a chain of taken BRAs, one every LA steps alone; at 8 steps a
 * branch the pipe's bucket (8 + 2 refills) pays the first at 0, then one
 * every 8 steps from the second at 7 (its 8 units back from the 2 left, the
 * refill decided a step ahead): the eighth at 55, EXIT at 60, +3. */
static uint64_t branch_run(double busy)
{
    const char *lines[] = { "BRA 0x10", "BRA 0x20", "BRA 0x30", "BRA 0x40", "BRA 0x50",
                            "BRA 0x60", "BRA 0x70", "BRA 0x80", "EXIT" };
    pn_sass_prog_t p;
    prog_of(&p, lines, 9);
    pn_pipe_device_t pd = { 0 };
    pd.alu_busy = 2;
    pd.branch_busy = busy;
    uint64_t steps = one_warp_pd(&p, &pd);
    pn_sass_prog_destroy(&p);
    return steps;
}

static void test_branch_pipe(void **state)
{
    (void)state;
    assert_int_equal(branch_run(0), 8 * LA + 3);
    assert_int_equal(branch_run(1), 8 * LA + 3);
    assert_int_equal(branch_run(8), 63);
}

/* A relative CALL jumps into the function and its RET comes back after it;
 * the same RET with no call open ends the warp, and a CALL.ABS (an external
 * function) is a plain control op. */
static uint64_t call_run(const char *call)
{
    const char *lines[] = { "IADD3 R1, R1, 1, RZ", call, "IADD3 R1, R1, 1, RZ", "EXIT",
                            "IADD3 R2, R2, 1, RZ", "IADD3 R2, R2, 1, RZ",
                            "RET.REL.NODEC R20 0x0" };
    return lines_run(lines, 7);
}

static void test_calls(void **state)
{
    (void)state;
    /* the add at 0, the call at 1 (the function from 1 + LA), its dependent adds
     * at 1 + LA and 1 + 2 LA, RET at 2 + 2 LA (back from 2 + 3 LA), the add
     * after the call there, EXIT next: its result at 2 + 4 LA, +2 */
    assert_int_equal(call_run("CALL.REL.NOINC 0x40"), 4 + 4 * LA);
    /* no call: the second add waits for the first's R1 (LA), EXIT next: its
     * result at 2 LA, +2 */
    assert_int_equal(call_run("CALL.ABS.NOINC 0x0"), 2 + 2 * LA);
    assert_int_equal(call_run("NOP"), 2 + 2 * LA);
}

/* pn_sass_sim_run_ops: per op its issues and the steps its warp waited since
 * its previous issue. One warp: a load (DRAM, 100), an add that reads it, an
 * add that reads the first, EXIT: issues at 0, 100, 100 + LA and the step
 * after (the warp ends when the add's result is back, at 100 + 2 LA); two
 * runs add up. */
static void test_run_ops(void **state)
{
    (void)state;
    const char *t[] = { "LDG.E R10, desc[UR4][R2.64]", "IADD3 R1, R10, 1, RZ",
                        "IADD3 R1, R1, 1, RZ", "EXIT" };
    pn_sass_prog_t p;
    prog_of(&p, t, 4);
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pp.latency[PN_PIPE_LD_DRAM] = 100;
    pn_pipe_device_t pd = { 0 };
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    pn_sass_sim_params_t sp = { &pp, &pd, &mem, &p, 1, 0, 1 };
    pn_sass_sim_t *sim;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    assert_int_equal(pn_sass_sim_n_ops(sim), 4);
    double issued[4] = { 0 }, cycles[4] = { 0 };
    pn_run_opts_t o = { .max_steps = 1000000, .idle_trans = -1 };
    pn_run_result_t r;
    for (int k = 0; k < 2; k++)
        assert_int_equal(pn_sass_sim_run_ops(sim, 1, &o, &r, issued, cycles, &err), PN_OK);
    static const double want_c[4] = { 0, 2 * 100, 2 * LA, 2 };
    for (int i = 0; i < 4; i++) {
        assert_true(issued[i] == 2);
        assert_true(cycles[i] == want_c[i]);
    }
    assert_int_equal(r.steps, 100 + 2 * LA + 2);
    pn_sass_sim_free(sim);
    pn_sass_prog_destroy(&p);
}

/* Warps that wake past the engine's calendar (PN_SASS_CAL steps) wait in its
 * heap and come back at their step: a load and a dependent add take LD + LA
 * (+2) at any latency, around and far beyond the calendar's reach; two
 * chained loads 2 LD; 8 warps, two a partition, as many steps more than
 * their latency whatever it is. */
static void test_far_wakes(void **state)
{
    (void)state;
    static const char *one[] = { "LDG.E R10, desc[UR4][R2.64]", "IADD3 R1, R10, RZ, RZ", "EXIT" };
    static const char *chain[] = { "LDG.E R10, desc[UR4][R2.64]", "LDG.E R11, desc[UR4][R10.64]",
                                   "IADD3 R1, R11, RZ, RZ", "EXIT" };
    static const uint32_t lds[] = { 10, PN_SASS_TEST_CAL - 1, PN_SASS_TEST_CAL,
                                    PN_SASS_TEST_CAL + 1, 5000, 100000 };
    pn_sass_prog_t p, c, p8;
    prog_of(&p, one, 3);
    prog_of(&c, chain, 4);
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p8, "t.sass", "t", 8, &err), PN_OK);
    for (int i = 0; i < 3; i++)
        add(&p8, (uint32_t)(16 * i), 8, one[i]);
    assert_int_equal(pn_sass_prog_finish(&p8, &err), PN_OK);
    for (size_t i = 0; i < sizeof lds / sizeof lds[0]; i++) {
        uint64_t ld = lds[i];
        assert_int_equal(warps_pd(&p, NULL, 1, lds[i]), ld + LA + 2);
        assert_int_equal(warps_pd(&c, NULL, 1, lds[i]), 2 * ld + LA + 2);
        assert_int_equal(warps_pd(&p8, NULL, 8, lds[i]) - ld, warps_pd(&p8, NULL, 8, 10) - 10);
    }
    pn_sass_prog_destroy(&p8);
    pn_sass_prog_destroy(&p);
    pn_sass_prog_destroy(&c);
}

/* The instructions of each of the 16 warps (2 a block, 8 blocks) the plan
 * gives the SM of a launch of 64 warps whose first 8 pass a bound that
 * `check` computes ("ISETP.GE.AND P0, PT, R0, 0x100, PT" of R0, then an EXIT
 * under it) and run 2 more instructions. */
static void bound_plan(const char *check, uint64_t insts[16])
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 64, &err), PN_OK);
    add(&p, 0x00, 64, "S2R R0, SR_CTAID.X");
    add(&p, 0x10, 64, "S2R R3, SR_TID.X");
    add(&p, 0x20, 64, check);
    add(&p, 0x30, 64, "ISETP.GE.AND P0, PT, R0, 0x100, PT");
    add(&p, 0x40, 64, "@P0 EXIT");
    add(&p, 0x50, 8, "FFMA R5, R5, R5, R5");
    add(&p, 0x60, 8, "EXIT");
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    p.block[0] = 64, p.block[1] = p.block[2] = 1;
    uint8_t from[7], guard[7];
    assert_int_equal(pn_sass_addr_sources_guards(&p, from, guard, &err), PN_OK);
    pn_sass_plan_t pl;
    assert_int_equal(pn_sass_plan_build(&pl, &p, guard, 2, 8, &err), PN_OK);
    for (int w = 0; w < 16; w++)
        insts[w] = pl.insts[w];
    pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&p);
}

/* A bounds check on the thread's index in the grid (blockIdx.x * 64 +
 * threadIdx.x >= n: the guard carries the block's index): the launch's first
 * warps go on, so the SM's share of them (8 x 16 / 64 = 2) are its first two
 * warps, 7 instructions each; the others leave at the EXIT (5). A bound on the
 * thread's index alone, or on the block's alone (a range of blocks), is
 * spread: warps 0 and 8. */
static void test_bounds_check_plan(void **state)
{
    (void)state;
    uint64_t n[16];
    bound_plan("IMAD R0, R0, 0x40, R3", n);
    for (int w = 0; w < 16; w++)
        assert_int_equal(n[w], w < 2 ? 7 : 5);
    bound_plan("IMAD R0, R3, 0x40, RZ", n);
    for (int w = 0; w < 16; w++)
        assert_int_equal(n[w], w == 0 || w == 8 ? 7 : 5);
    bound_plan("IMAD R0, R0, 0x40, RZ", n);
    for (int w = 0; w < 16; w++)
        assert_int_equal(n[w], w == 0 || w == 8 ? 7 : 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_read), cmocka_unit_test(test_source_errors),
        cmocka_unit_test(test_program_file), cmocka_unit_test(test_dependencies),
        cmocka_unit_test(test_run_ops),
        cmocka_unit_test(test_mostly_off),
        cmocka_unit_test(test_line_spread),
        cmocka_unit_test(test_store_order),
        cmocka_unit_test(test_divergent_loop_exit),
        cmocka_unit_test(test_async_copies),
        cmocka_unit_test(test_calls),
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_tensor),
        cmocka_unit_test(test_branch_pipe),
        cmocka_unit_test(test_far_wakes),
        cmocka_unit_test(test_bounds_check_plan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
