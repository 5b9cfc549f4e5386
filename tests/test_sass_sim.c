/* test_sass_sim.c - warps that run their SASS: the source-page reader and its
 * pairing with launches, program files, per-warp plans, and the dependency
 * rule's exact step counts on one warp (doc/dependencies.md). */
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
#include "pn_sass_lines.h"
#include "pn_sass_plan.h"
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"
#include "pn_test_sass.h"

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
    expect_error("\"Kernel Name\",\"k\",\n\"Address\",\"Source\"\n\"0x10\",\"NOP\"\n",
                 "p.csv:2:1: missing column 'Instructions Executed'");
    expect_error("\"Kernel Name\",\"k\",\n" HDR "\"10\",\"NOP\",\"1\",\"0\"\n",
                 "p.csv:3:2: Address: expected a hexadecimal address");
    expect_error("\"Kernel Name\",\"k\",\n" HDR "\"0x10\",\"NOP\",\"1\"\n",
                 "p.csv:3:1: row has 3 fields, the header of this table has 4");
    expect_error("ID,Kernel\n", "p.csv:1:1: not an Nsight Compute source page");
    expect_error("\"Kernel Name\",\"k\",\n" HDR, "p.csv:1:1: the table of kernel 'k' has no rows");
    expect_error("==ERROR== no report\n", "p.csv:1:1: ncu reported an error: ==ERROR== no report");
}

/* ---- programs ------------------------------------------------------------ */

static void add(pn_sass_prog_t *p, uint32_t off, double ex, const char *text)
{
    pn_error_t err = { 0 };
    pn_status_t st = pn_sass_prog_add(p, text, off, 0, ex, 4 * ex, ex, 0, (long)off, 1, &err);
    if (st != PN_OK)
        fail_msg("%s", err.msg);
}

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
    char path[] = "/tmp/pn_test_sass_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(pn_sass_prog_write(f, &p, "a comment\nof two lines", &err), PN_OK);
    fclose(f);
    assert_int_equal(pn_sass_prog_read(&q, path, &err), PN_OK);
    assert_string_equal(q.kernel, "loop");
    assert_true(q.warps == 2);
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
    assert_int_equal(pn_sass_plan_build(&pl, &q, 2, 1, &err), PN_OK);
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
    assert_int_equal(pn_sass_plan_build(&pl, &g, 4, 1, &err), PN_OK);
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

enum { LA = 5, LD = 30 };

/* The params of one warp in one block: 4 partitions, issue 1, every latency
 * LA, no pipes. */
static void one_warp_params(pn_pipe_params_t *pp)
{
    memset(pp, 0, sizeof *pp);
    pp->partitions = 4;
    pp->issue = 1;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        pp->latency[k] = LA;
    pp->n_warps = pp->blocks = pp->resident = 1;
}

/* The bounds of prog on pp, pd and mem. */
static void bounds_on(const pn_sass_prog_t *prog, const pn_pipe_params_t *pp,
                      const pn_pipe_device_t *pd, const pn_memory_t *mem, pn_pipe_bounds_t *b)
{
    pn_sass_sim_params_t sp = { pp, pd, mem, prog, 1, 0, 1 };
    pn_sass_sim_t *sim;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_sass_sim_bounds(sim, b);
    pn_sass_sim_free(sim);
}


/* A program of the n texts (op i at 16 i, executed once, with its sectors,
 * lines and wavefronts when sectors is not NULL), then EXIT. */
static void rows_prog(pn_sass_prog_t *p, const char *const *text, int n, const double *sectors,
                      const double *lines, const double *wf)
{
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < n; i++)
        assert_int_equal(pn_sass_prog_add(p, text[i], (uint64_t)(16 * i), 0, 1,
                                          sectors ? sectors[i] : 0, lines ? lines[i] : 0,
                                          wf ? wf[i] : 0, i + 1, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_add(p, "EXIT", (uint64_t)(16 * n), 0, 1, 0, 0, 0, n + 1, 1,
                                      &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(p, &err), PN_OK);
}

/* The SMs one_warp_pd's run shares the device's L2 and DRAM with (busy_sms). */
static uint32_t g_busy = 1;

/* Steps of one warp (1 block) running prog with wide pipes: arith latency LA,
 * every load served at L1 with latency LD; the L2 pipe and the atomic unit
 * as pd (NULL: none) gives them. */
static uint64_t one_warp_pd(const pn_sass_prog_t *prog, const pn_pipe_device_t *pd_in)
{
    pn_pipe_params_t pp = { 0 };
    pp.partitions = 4;
    pp.issue = 1;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        pp.latency[k] = LA;
    pp.latency[PN_PIPE_LD_L1] = pp.latency[PN_PIPE_LD_L2] = pp.latency[PN_PIPE_LD_DRAM] = LD;
    pp.n_warps = 1;
    pp.blocks = 1;
    pp.resident = 1;
    pn_pipe_device_t pd = { 0 };
    if (pd_in)
        pd = *pd_in;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = 1;
    pn_sass_sim_params_t sp = { &pp, &pd, &mem, prog, g_busy, 0, 1 };
    pn_sass_sim_t *sim;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_run_opts_t o = { .max_steps = 1000000, .idle_trans = -1 };
    pn_run_result_t r, r2;
    assert_int_equal(pn_sass_sim_run(sim, 1, &o, &r, &err), PN_OK);
    assert_int_equal(pn_sass_sim_run(sim, 99, &o, &r2, &err), PN_OK);
    assert_int_equal(r.steps, r2.steps); /* one warp: no random choice matters */
    pn_sass_sim_free(sim);
    return r.steps;
}

/* The bounds of the run one_warp_pd makes. */
static void bounds_pd(const pn_sass_prog_t *prog, const pn_pipe_device_t *pd_in,
                      pn_pipe_bounds_t *b)
{
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = 1;
    bounds_on(prog, &pp, pd_in, &mem, b);
}

static uint64_t one_warp(const pn_sass_prog_t *prog)
{
    return one_warp_pd(prog, NULL);
}

static void prog_of(pn_sass_prog_t *p, const char *const *lines, int n)
{
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < n; i++)
        add(p, (uint32_t)(16 * i), 1, lines[i]);
    assert_int_equal(pn_sass_prog_finish(p, &err), PN_OK);
}

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
    assert_int_equal(pn_sass_plan_build(&pl, &p, 1, 1, &err), PN_OK);
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
    assert_int_equal(pn_sass_plan_build(&pl, &p, 1, 1, &err), PN_OK);
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
    assert_int_equal(pn_sass_plan_build(&pl, &p, 1, 1, &err), PN_OK);
    assert_true(pl.branches[0].both == 1);
    assert_int_equal(pl.insts[0], 6);
    pn_sass_plan_destroy(&pl);
    assert_int_equal(one_warp(&p), 4 + LA);
    pn_sass_prog_destroy(&p);
}

static uint64_t store_dram_bound(double sectors);

/* Steps of one warp running program p (destroyed after), with latencies arith
 * LA and pn_test_sass_params' (one warp), no profile keys and no hits: every
 * load at DRAM. */
static uint64_t missing_steps(pn_sass_prog_t *p)
{
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, 1, 1);
    pn_pipe_device_t pd = { 0 };
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    uint64_t steps = pn_test_sass_steps(p, &pp, &pd, &mem);
    pn_sass_prog_destroy(p);
    return steps;
}

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
 * an HMMA.884 (K 4, below the first row) 17; without the rows the SFU's
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

/* The L2 pipe and the atomic unit of one address (busy_sms 1: the SM has the
 * device to itself). Buckets start full (cost + 2 refills) and refill 1000
 * units a step. */
static void test_memory_pipes(void **state)
{
    (void)state;
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    /* 8 stores of 4 sectors over 4 lines (one sector a line): at l2_sectors 1
     * and l2_store_sectors 0.5 each costs 8 steps of the L2; the first finds
     * the bucket full (10000 units), the second waits to step 7 (the refill
     * of a step is decided on its level before its takes, as in the net: none
     * at step 0), then one every 8 steps: the last at 7 + 8 * 6 = 55,
     * complete at 55 + LA (its
     * latency); a run lasts the step of the last completion + 2. Without the
     * L2 pipe: stores at 0..7, complete at 7 + LA. */
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 8; i++)
        assert_int_equal(pn_sass_prog_add(&p, "STG.E desc[UR4][R2.64], R5", (uint64_t)(16 * i),
                                          0, 1, 4, 4, 0, i + 1, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_add(&p, "EXIT", 128, 0, 1, 0, 0, 0, 9, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_pipe_device_t pd = { 0 };
    assert_int_equal(one_warp_pd(&p, &pd), 7 + LA + 2);
    pd.l2_sectors = 1;
    pd.l2_store_sectors = 0.5;
    assert_int_equal(one_warp_pd(&p, &pd), 55 + LA + 2);
    /* its bound: 8 stores x 8000 units less the full bucket (10000) at 1000 a
     * step, on the L2's write path (the read path has nothing to do) */
    pn_pipe_bounds_t b;
    bounds_pd(&p, &pd, &b);
    assert_int_equal(b.steps[PN_BOUND_L2_WRITE], 54);
    assert_int_equal(b.steps[PN_BOUND_L2], 0);
    assert_int_equal(b.binding, PN_BOUND_L2_WRITE);
    assert_int_equal(b.steps[PN_BOUND_ISSUE], 9);
    /* the busiest SM with twice the mean of blocks (share 2) draws twice the
     * even share of the L2: 8 x 8000 units less the full bucket (8000 + 2 x
     * 2000) at 2000 a step */
    {
        pn_pipe_params_t pp;
        one_warp_params(&pp);
        pn_memory_t mem;
        pn_memory_default(&mem);
        mem.l1_hit = 1;
        pn_sass_sim_params_t sp = { &pp, &pd, &mem, &p, 1, 0, 2.0 };
        pn_sass_sim_t *sim;
        assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
        pn_pipe_bounds_t b2;
        pn_sass_sim_bounds(sim, &b2);
        assert_int_equal(b2.steps[PN_BOUND_L2_WRITE], 26);
        pn_sass_sim_free(sim);
    }
    /* whole lines (4 sectors in 1 line) at l2_store_line_sectors 2: 2 steps
     * each; the bucket (full at 4000) lets stores go at 0 and 1, then one
     * every 2 steps: the last at 13 */
    for (size_t i = 0; i < 8; i++)
        p.ops[i].lines = 1;
    pd.l2_store_line_sectors = 2;
    assert_int_equal(one_warp_pd(&p, &pd), 13 + LA + 2);
    /* an SM alone writes at most what l2_sm_write gives it: at 0.25 sectors a
     * step a store of 4 sectors takes 16 steps (the bucket, full at 2250
     * units, lets the first go at 0, the second at 15, then one every 16: the
     * last at 15 + 16 * 6 = 111); at 4 sectors a step the device's budget (2
     * a step) binds as before */
    pd.n_l2_sm[1] = 1;
    pd.l2_sm[1][0][0] = 1, pd.l2_sm[1][0][1] = 0.25;
    assert_int_equal(one_warp_pd(&p, &pd), 111 + LA + 2);
    pd.l2_sm[1][0][1] = 4;
    assert_int_equal(one_warp_pd(&p, &pd), 13 + LA + 2);
    /* rows interpolated linearly in the busy SMs: two SMs busy between rows
     * [1, 0.5] and [3, 0.1] reach 0.3 sectors a step each, 0.6 of the
     * device's 2: a store every 4 / 0.3 = 13.3 steps */
    pd.n_l2_sm[1] = 2;
    pd.l2_sm[1][0][1] = 0.5;
    pd.l2_sm[1][1][0] = 3, pd.l2_sm[1][1][1] = 0.1;
    g_busy = 2;
    assert_int_equal(one_warp_pd(&p, &pd), 93 + LA + 2);
    g_busy = 1;
    pn_sass_prog_destroy(&p);
    /* 4 REDs whose 32 lanes share one address (1 sector, 32 threads an
     * execution): at atomic_serial 2 each holds the address 64 steps; served
     * at L2 (latency LD here): REDs at 0, 63, 127, 191, complete at 191 + LD.
     * One thread an execution: 2 steps each, REDs at 0, 1 (the full bucket),
     * 3 and 5. A float RED takes atomic_serial_float (4): at 0, 3, 7, 11. */
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pn_sass_prog_add(&p, "REDG.E.ADD.STRONG.GPU desc[UR6][R4.64], R3",
                                          (uint64_t)(16 * i), 0, 1, 1, 1, 0, i + 1, 1, &err),
                         PN_OK);
        p.ops[i].threads = 32;
    }
    assert_int_equal(pn_sass_prog_add(&p, "EXIT", 64, 0, 1, 0, 0, 0, 5, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_pipe_device_t pa = { 0 };
    assert_int_equal(one_warp_pd(&p, &pa), 3 + LD + 2);
    pa.atomic_serial = 2;
    assert_int_equal(one_warp_pd(&p, &pa), 191 + LD + 2);
    for (int i = 0; i < 4; i++)
        p.ops[i].threads = 1;
    assert_int_equal(one_warp_pd(&p, &pa), 5 + LD + 2);
    pn_sass_prog_destroy(&p);
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(pn_sass_prog_add(&p, "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU "
                                              "desc[UR6][R4.64], R3",
                                          (uint64_t)(16 * i), 0, 1, 1, 1, 0, i + 1, 1, &err),
                         PN_OK);
    assert_int_equal(pn_sass_prog_add(&p, "EXIT", 64, 0, 1, 0, 0, 0, 5, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pa.atomic_serial_float = 4;
    assert_int_equal(one_warp_pd(&p, &pa), 11 + LD + 2);
    pn_sass_prog_destroy(&p);
    /* 4 REDs, each to 4 whole lines (16 sectors) an execution, on the same
     * addresses in every block (R4 is never written): F = 4 lines a block; a
     * RED takes each of its lines the steps atomic_lines give for F, F lines
     * at once: rows [1, 2], [4, 8]: 8 steps a RED (4 lines x 8 / 4: at 0, 7,
     * 15, 23, as above); [1, 2], [16, 8]: at 4 lines half way in logs, 4
     * steps (0, 3, 7, 11); [1, 2] alone: its steps past it, 2 (0, 1, 3, 5).
     * Without rows only the L2 budget. */
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(pn_sass_prog_add(&p, "REDG.E.ADD.STRONG.GPU desc[UR6][R4.64], R3",
                                          (uint64_t)(16 * i), 0, 1, 16, 4, 0, i + 1, 1, &err),
                         PN_OK);
    assert_int_equal(pn_sass_prog_add(&p, "EXIT", 64, 0, 1, 0, 0, 0, 5, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_pipe_device_t pl = { 0 };
    pl.n_atomic_lines = 2;
    pl.atomic_lines[0][0] = 1, pl.atomic_lines[0][1] = 2;
    pl.atomic_lines[1][0] = 4, pl.atomic_lines[1][1] = 8;
    assert_int_equal(one_warp_pd(&p, &pl), 23 + LD + 2);
    pl.atomic_lines[1][0] = 16;
    assert_int_equal(one_warp_pd(&p, &pl), 11 + LD + 2);
    pl.n_atomic_lines = 1;
    assert_int_equal(one_warp_pd(&p, &pl), 5 + LD + 2);
    pl.n_atomic_lines = 0;
    assert_int_equal(one_warp_pd(&p, &pl), 3 + LD + 2);
    pl.n_atomic_lines = 2, pl.atomic_lines[1][0] = 4;
    bounds_pd(&p, &pl, &b);
    assert_int_equal(b.binding, PN_BOUND_ATOMIC);
    pn_sass_prog_destroy(&p);
    /* 4 plain stores of one sector an execution to the word R4 holds, never
     * written (the same word in every thread and block: a flag every warp
     * sets): store_serial 2 holds the device's one-address unit 2 steps a
     * store, so they issue at 0, 1 (the full bucket), 3 and 5 and the warp is
     * done when the last is (latency LA): 5 + LA + 2; without the key at 0..3,
     * 3 + LA + 2. The same stores to R4 = the thread's index are not held.
     * The atomic bound: 4 x 2 steps less the bucket's 4 (its cost and 2 steps). */
    for (int tid = 0; tid < 2; tid++) {
        assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
        if (tid)
            assert_int_equal(pn_sass_prog_add(&p, "S2R R4, SR_TID.X", 0, 0, 1, 0, 0, 0, 1, 1,
                                              &err), PN_OK);
        for (int i = 0; i < 4; i++)
            assert_int_equal(pn_sass_prog_add(&p, "STG.E desc[UR6][R4.64], R3",
                                              (uint64_t)(16 * (i + 1)), 0, 1, 1, 1, 0, i + 2, 1,
                                              &err), PN_OK);
        assert_int_equal(pn_sass_prog_add(&p, "EXIT", 80, 0, 1, 0, 0, 0, 6, 1, &err), PN_OK);
        assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
        pn_pipe_device_t ps = { 0 };
        uint64_t t0 = tid ? LA : 0;   /* the stores wait for S2R's result */
        assert_int_equal(one_warp_pd(&p, &ps), t0 + 3 + LA + 2);
        ps.store_serial = 2;
        assert_int_equal(one_warp_pd(&p, &ps), t0 + (tid ? 3 : 5) + LA + 2);
        if (!tid) {
            bounds_pd(&p, &ps, &b);
            assert_int_equal(b.steps[PN_BOUND_ATOMIC], 4); /* 8 steps of units, 4 in the bucket */
        }
        pn_sass_prog_destroy(&p);
    }
}

/* The 16-lane pipes of a partition (alu_busy, fmaheavy_busy): one warp, 8
 * independent ops. */
static void test_half_rate_pipes(void **state)
{
    (void)state;
    static const char *iadd[] = { "IADD3 R10, R2, R3, RZ", "IADD3 R11, R2, R3, RZ",
                                  "IADD3 R12, R2, R3, RZ", "IADD3 R13, R2, R3, RZ",
                                  "IADD3 R14, R2, R3, RZ", "IADD3 R15, R2, R3, RZ",
                                  "IADD3 R16, R2, R3, RZ", "IADD3 R17, R2, R3, RZ", "EXIT" };
    static const char *imad[] = { "IMAD R10, R2, R3, RZ", "IMAD R11, R2, R3, RZ",
                                  "IMAD R12, R2, R3, RZ", "IMAD R13, R2, R3, RZ",
                                  "IMAD R14, R2, R3, RZ", "IMAD R15, R2, R3, RZ",
                                  "IMAD R16, R2, R3, RZ", "IMAD R17, R2, R3, RZ", "EXIT" };
    static const char *mix[] = { "IADD3 R10, R2, R3, RZ", "IMAD R11, R2, R3, RZ",
                                 "IADD3 R12, R2, R3, RZ", "IMAD R13, R2, R3, RZ",
                                 "IADD3 R14, R2, R3, RZ", "IMAD R15, R2, R3, RZ",
                                 "FFMA R16, R2, R3, R4", "FFMA R17, R2, R3, R4", "EXIT" };
    pn_sass_prog_t p;
    pn_pipe_device_t pd = { 0 };
    /* without the keys every op issues a step after the other: the last at 7 */
    prog_of(&p, iadd, 9);
    assert_int_equal(one_warp_pd(&p, &pd), 7 + LA + 2);
    /* alu_busy 2: the pipe's bucket (full at 2 + 2 refills) lets the first two
     * go at 0 and 1, then one every 2 steps: the last at 1 + 2 * 6 = 13; the
     * FMA-heavy pipe does not slow them */
    pd.alu_busy = 2;
    pd.fmaheavy_busy = 2;
    assert_int_equal(one_warp_pd(&p, &pd), 13 + LA + 2);
    pn_sass_prog_destroy(&p);
    /* IMAD on the FMA-heavy pipe alike (an FMA-pipe op's latency is LA - 1) */
    prog_of(&p, imad, 9);
    assert_int_equal(one_warp_pd(&p, &pd), 13 + LA - 1 + 2);
    pd.fmaheavy_busy = 0;
    assert_int_equal(one_warp_pd(&p, &pd), 7 + LA - 1 + 2);
    pn_sass_prog_destroy(&p);
    /* IADD3 and IMAD alternating, FFMA on neither: each pipe takes every other
     * op, one a step, as the H100 ran IADD3 and IMAD.IADD together */
    pd.fmaheavy_busy = 2;
    prog_of(&p, mix, 9);
    assert_int_equal(one_warp_pd(&p, &pd), 7 + LA - 1 + 2);
    pn_sass_prog_destroy(&p);
    /* the bound of 40 IADD3: the busiest partition takes at least the average
     * (40 x 2 steps over 4 partitions), less the full bucket (4 steps): 16 */
    const char *many[41];
    for (int i = 0; i < 40; i++)
        many[i] = iadd[i % 8];
    many[40] = "EXIT";
    prog_of(&p, many, 41);
    pn_pipe_bounds_t b;
    bounds_pd(&p, &pd, &b);
    assert_int_equal(b.steps[PN_BOUND_PIPE0 + PN_PIPE_ALUP], 16);
    pn_sass_prog_destroy(&p);
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
    bounds_on(p, &pp, pd, mem, &b);
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
 * DRAM's (no sector read alone): x 1. */
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
 * and L2) with the profile's dram_jitter sd. */
static uint64_t jitter_steps(const char *const *texts, int n, double sd)
{
    double sec[8], lines[8];
    for (int i = 0; i < n; i++)
        sec[i] = 4, lines[i] = 1;
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
    bounds_on(&p, &pp, &pd, &mem, &b);
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
        bounds_on(&p, &pp, &pd, &mem, &b);
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

/* The same with a block of `warps` warps, one a partition (at most 4): each
 * runs as one warp alone would, but the SM is not the warp's alone. */
static uint64_t levels_run_w(const char *const *lines, int n, double l1, double l2,
                             double local_l1, uint32_t warps)
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_true(warps >= 1 && warps <= 4);
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", warps, &err), PN_OK);
    for (int i = 0; i < n; i++)
        add(&p, (uint32_t)(16 * i), warps, lines[i]);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
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
    uint64_t steps = pn_test_sass_steps(&p, &pp, &pd, &mem);
    pn_sass_prog_destroy(&p);
    return steps;
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

/* The arithmetic pipe's bound of 8 warps of one partition running lines
 * (16 times over, then EXIT) with the pipe at one op a step: register
 * operands that conflict (two of one bank, index mod 2, within three ops of
 * a writer of one of them) take bank_conflict steps of it. */
/* A measured atomic_ns (the busiest L2 slice's atomic unit per warp-level atomic)
 * makes each global atomic or reduction take that long of the atomic unit, at the
 * profile's clock: 10 ns at 1000 MHz, 10 steps. 4 REDs: 40000 units less the full
 * bucket (10000 + 2 x 1000) at 1000 a step; without it, no atomic unit. */
static void test_atomic_measured(void **state)
{
    (void)state;
    static const char *red[] = { "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5",
                                 "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5",
                                 "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5",
                                 "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5", "EXIT" };
    pn_sass_prog_t p;
    prog_of(&p, red, 5);
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pn_pipe_device_t pd = { 0 };
    pd.clock_mhz = 1000;
    pn_memory_t mem;
    pn_memory_default(&mem);
    pn_pipe_bounds_t b;
    bounds_on(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 0);
    mem.atomic_ns = 10;
    bounds_on(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 28);
    assert_int_equal(b.binding, PN_BOUND_ATOMIC);
    pn_sass_prog_destroy(&p);
    /* a float update holds the unit atomic_serial_float / atomic_serial times as
     * long: 20 steps each (the profile's one-address rule, 2 steps, is less):
     * 80000 units less (20000 + 2000) */
    static const char *fred[] = { "RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5",
                                  "RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5",
                                  "RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5",
                                  "RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5", "EXIT" };
    prog_of(&p, fred, 5);
    pd.atomic_serial = 1;
    pd.atomic_serial_float = 2;
    bounds_on(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 58);
    pn_sass_prog_destroy(&p);
}

/* FP64 ops (DFMA, DADD, DMUL) on a pipe of their own per partition at the
 * profile's fp64_busy and fp64_latency (the H100: 2 steps an op, 8 to the
 * result; FFMA and DFMA alternating issue every cycle). */
static void test_fp64_pipe(void **state)
{
    (void)state;
    static const char *dfma[] = { "DFMA R10, R2, R4, R6", "DFMA R12, R2, R4, R6",
                                  "DFMA R14, R2, R4, R6", "DFMA R16, R2, R4, R6",
                                  "DFMA R18, R2, R4, R6", "DFMA R20, R2, R4, R6",
                                  "DFMA R22, R2, R4, R6", "DFMA R24, R2, R4, R6", "EXIT" };
    static const char *mix[] = { "DFMA R10, R2, R4, R6", "FFMA R30, R2, R3, R4",
                                 "DFMA R12, R2, R4, R6", "FFMA R31, R2, R3, R4",
                                 "DFMA R14, R2, R4, R6", "FFMA R32, R2, R3, R4",
                                 "DADD R16, R2, R4", "FFMA R33, R2, R3, R4", "EXIT" };
    pn_sass_prog_t p;
    pn_pipe_device_t pd = { 0 };
    /* without the keys: one a step on the (here unlimited) arithmetic pipe, the
     * arithmetic latency */
    prog_of(&p, dfma, 9);
    assert_int_equal(one_warp_pd(&p, &pd), 7 + LA + 2);
    /* fp64_busy 2: the first two at 0 and 1, then one every 2 steps (the last
     * at 13), each result 8 steps later */
    pd.fp64_busy = 2;
    pd.fp64_latency = 8;
    assert_int_equal(one_warp_pd(&p, &pd), 13 + 8 + 2);
    /* the FP32 pipes' keys do not slow them */
    pd.alu_busy = pd.fmaheavy_busy = 2;
    assert_int_equal(one_warp_pd(&p, &pd), 13 + 8 + 2);
    pn_sass_prog_destroy(&p);
    /* FFMA between them: one a step, the last DADD at 6 (its result at 14) */
    prog_of(&p, mix, 9);
    assert_int_equal(one_warp_pd(&p, &pd), 6 + 8 + 2);
    pn_sass_prog_destroy(&p);
}

static uint64_t alu_bound(const char *const *lines, int n, const pn_pipe_device_t *pd)
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 8, &err), PN_OK);
    uint32_t off = 0;
    for (int r = 0; r < 16; r++)
        for (int i = 0; i < n; i++, off += 16)
            add(&p, off, 8, lines[i]);
    add(&p, off, 8, "EXIT");
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_pipe_params_t pp = { 0 };
    pp.partitions = 1;
    pp.issue = 1;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        pp.latency[k] = LA;
    pp.rate[PN_PIPE_ALUP] = 1000;
    pp.n_warps = 8;
    pp.blocks = pp.resident = 1;
    pn_memory_t mem;
    pn_memory_default(&mem);
    pn_sass_sim_params_t sp = { &pp, pd, &mem, &p, 1, 0, 1 };
    pn_sass_sim_t *sim;
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_pipe_bounds_t b;
    pn_sass_sim_bounds(sim, &b);
    pn_sass_sim_free(sim);
    pn_sass_prog_destroy(&p);
    return b.steps[PN_BOUND_PIPE0 + PN_PIPE_ALUP];
}

static void test_bank_conflicts(void **state)
{
    (void)state;
    /* 8 warps x 16 ops at 1000 units (2000 conflicting), less the bucket's
     * start-up (the largest cost plus two refills) */
    static const char *chain[] = { "FFMA R0, R0, R4, R5" };
    pn_pipe_device_t pd = { 0 };
    assert_int_equal(alu_bound(chain, 1, &pd), 128 - 3);
    pd.bank_conflict = 2;
    assert_int_equal(alu_bound(chain, 1, &pd), 256 - 8 - 4); /* the first follows no writer */
    /* an immediate or a uniform operand: one register of each bank */
    static const char *imm[] = { "FFMA R0, R0, 2, R5" };
    assert_int_equal(alu_bound(imm, 1, &pd), 128 - 3);
    /* sources no op of the last three writes: the reuse cache serves them */
    static const char *ind[] = { "FFMA R0, R2, R4, R6", "FFMA R1, R2, R4, R6",
                                 "FFMA R3, R2, R4, R6", "FFMA R5, R2, R4, R6" };
    assert_int_equal(alu_bound(ind, 4, &pd), 512 - 3);
    /* 64-bit sources do not count for it */
    static const char *dfma[] = { "DFMA R12, R12, R6, R8" };
    pd.fp64_busy = 2;
    pd.fp64_latency = 8;
    assert_int_equal(alu_bound(dfma, 1, &pd), 256 - 4);
}

/* FP64 ops on their pipe (fp64_busy 2, 8 warps x 16 ops less the bucket's
 * start-up): a 64-bit pair reads both banks, so three distinct pairs right
 * after a writer of one read each bank three times and take
 * fp64_bank_conflict steps of the pipe (examples/probe/fp64_operands.cu). */
static void test_fp64_bank_conflicts(void **state)
{
    (void)state;
    pn_pipe_device_t pd = { 0 };
    pd.fp64_busy = 2;
    pd.fp64_latency = 8;
    static const char *chain[] = { "DFMA R12, R12, R6, R8" };
    assert_int_equal(alu_bound(chain, 1, &pd), 256 - 4);
    pd.fp64_bank_conflict = 3;
    /* the first of each warp follows no writer: 2 steps */
    assert_int_equal(alu_bound(chain, 1, &pd), 384 - 8 - 5);
    /* two distinct pairs (each bank read twice), an immediate, a DADD: fp64_busy */
    static const char *two[] = { "DFMA R12, R12, R6, R6" };
    assert_int_equal(alu_bound(two, 1, &pd), 256 - 4);
    static const char *imm[] = { "DFMA R12, R12, R6, 1" };
    assert_int_equal(alu_bound(imm, 1, &pd), 256 - 4);
    static const char *dadd[] = { "DADD R12, R12, R6" };
    assert_int_equal(alu_bound(dadd, 1, &pd), 256 - 4);
    /* sources no op of the last three writes */
    static const char *ind[] = { "DFMA R10, R2, R4, R6", "DFMA R12, R2, R4, R6",
                                 "DFMA R14, R2, R4, R6", "DFMA R16, R2, R4, R6" };
    assert_int_equal(alu_bound(ind, 4, &pd), 1024 - 4);
    /* a key below fp64_busy changes nothing */
    pd.fp64_bank_conflict = 1;
    assert_int_equal(alu_bound(chain, 1, &pd), 256 - 4);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_read), cmocka_unit_test(test_source_errors),
        cmocka_unit_test(test_program_file), cmocka_unit_test(test_dependencies),
        cmocka_unit_test(test_memory_pipes), cmocka_unit_test(test_line_merge),
        cmocka_unit_test(test_bank_conflicts), cmocka_unit_test(test_fp64_bank_conflicts),
        cmocka_unit_test(test_run_ops),
        cmocka_unit_test(test_l2_resident),
        cmocka_unit_test(test_l1_data_path),
        cmocka_unit_test(test_dram_queue),
        cmocka_unit_test(test_dram_writes_capped),
        cmocka_unit_test(test_dram_scattered),
        cmocka_unit_test(test_load_scope),
        cmocka_unit_test(test_mostly_off),
        cmocka_unit_test(test_line_spread),
        cmocka_unit_test(test_store_order),
        cmocka_unit_test(test_dram_async_copies),
        cmocka_unit_test(test_dram_predicated_off),
        cmocka_unit_test(test_dram_partly_on),
        cmocka_unit_test(test_dram_jitter),
        cmocka_unit_test(test_divergent_loop_exit),
        cmocka_unit_test(test_async_copies),
        cmocka_unit_test(test_calls),
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_tensor),
        cmocka_unit_test(test_branch_pipe),
        cmocka_unit_test(test_alike_loads),
        cmocka_unit_test(test_load_runs),
        cmocka_unit_test(test_local_loads),
        cmocka_unit_test(test_fp64_pipe),
        cmocka_unit_test(test_atomic_measured),
        cmocka_unit_test(test_half_rate_pipes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
