/* test_sass_net.c - the dependency rule as a Petri net: the literal engine
 * on pn_sass_net_build's net against the sass engine, exactly on one warp
 * (steps and idle steps, every program below) and in distribution on several
 * warps, blocks and partitions (two-sample chi-square, with a power control),
 * and the net's limits (doc/dependencies.md, "The net"). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_chi2.h"
#include "pn_engine.h"
#include "pn_sass_net.h"
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"

static int scaled(int runs)
{
    const char *full = getenv("PN_FULL");
    return full && *full == '1' ? 10 * runs : runs;
}

/* One instruction of a test program: executions, sectors, lines and
 * wavefronts over the launch, and its text (ops sit 16 bytes apart, so
 * `BRA 0x20` jumps to the third). */
typedef struct row {
    double ex, sectors, lines, wavefronts;
    const char *text;
} row_t;

/* The block's shape the next programs get (0 0 0: not known). */
static uint32_t g_block[3];

static void prog_of(pn_sass_prog_t *p, const row_t *rows, int n, double warps)
{
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(p, "t.sass", "t", warps, &err), PN_OK);
    for (int i = 0; i < n; i++)
        if (pn_sass_prog_add(p, rows[i].text, (uint64_t)(16 * i), 0, rows[i].ex, rows[i].sectors,
                             rows[i].lines, rows[i].wavefronts, i + 1, 1, &err) != PN_OK)
            fail_msg("%s", err.msg);
    if (pn_sass_prog_finish(p, &err) != PN_OK)
        fail_msg("%s", err.msg);
    memcpy(p->block, g_block, sizeof g_block);
}

/* A small imaginary SM: latencies arith 4, sfu 9, shared 6 / 3, loads
 * 8 / 15 / 30, stores 3; wide pipes unless a test narrows them. */
typedef struct sm {
    pn_pipe_params_t pp;
    pn_pipe_device_t pd;
    pn_memory_t mem;
    uint32_t busy;
} sm_t;

static void small_sm(sm_t *m, uint32_t warps, uint32_t blocks, uint32_t resident)
{
    static const uint32_t lat[PN_PIPE_KINDS] = { 4, 9, 6, 3, 8, 15, 30, 3 };
    memset(m, 0, sizeof *m);
    m->pp.partitions = 2;
    m->pp.issue = 1;
    memcpy(m->pp.latency, lat, sizeof lat);
    m->pp.n_warps = warps;
    m->pp.blocks = blocks;
    m->pp.resident = resident;
    m->pp.barrier_latency = 6;
    pn_memory_default(&m->mem);
    m->busy = 1;
}

typedef struct pair {
    pn_sass_sim_t *sim;
    pn_net_t net;
    pn_sass_net_layout_t lay;
} pair_t;

static void pair_new(pair_t *x, const sm_t *m, const pn_sass_prog_t *prog)
{
    pn_sass_sim_params_t sp = { &m->pp, &m->pd, &m->mem, prog, m->busy, 0, 1 };
    pn_error_t err = { 0 };
    if (pn_sass_sim_new(&sp, &x->sim, &err) != PN_OK)
        fail_msg("sim: %s", err.msg);
    pn_net_init(&x->net);
    if (pn_sass_net_build(&x->net, x->sim, &x->lay, &err) != PN_OK)
        fail_msg("net: %s", err.msg);
}

static void pair_free(pair_t *x)
{
    pn_net_destroy(&x->net);
    pn_sass_sim_free(x->sim);
}

static pn_run_result_t run_net(const pair_t *x, uint64_t seed)
{
    pn_run_opts_t o = { .max_steps = 1000000, .idle_trans = x->lay.t0, .net_name = "t" };
    pn_run_result_t r;
    pn_error_t err = { 0 };
    if (pn_engine_literal_run(&x->net, seed, &o, &r, &err) != PN_OK)
        fail_msg("literal: %s", err.msg);
    return r;
}

static pn_run_result_t run_sim(const pair_t *x, uint64_t seed)
{
    pn_run_opts_t o = { .max_steps = 1000000, .idle_trans = -1, .net_name = "t" };
    pn_run_result_t r;
    pn_error_t err = { 0 };
    if (pn_sass_sim_run(x->sim, seed, &o, &r, &err) != PN_OK)
        fail_msg("sass: %s", err.msg);
    return r;
}

/* One warp (or m's warps and blocks, no choice among them mattering): both
 * engines give the same steps and idle steps for two seeds; returns the
 * steps. */
static uint64_t same_one_warp(const sm_t *m, const row_t *rows, int n)
{
    pn_sass_prog_t p;
    prog_of(&p, rows, n, (double)m->pp.n_warps * m->pp.blocks);
    pair_t x;
    pair_new(&x, m, &p);
    pn_run_result_t a = run_sim(&x, 1), b = run_net(&x, 1), c = run_net(&x, 2);
    /* the fast engine too (its dead-marking test once missed these nets: a
     * contested scheduler whose waiting consumers all lack their program
     * counter repeated empty steps forever) */
    pn_run_opts_t o = { .max_steps = 100000, .idle_trans = x.lay.t0, .net_name = "t" };
    pn_run_result_t f;
    assert_int_equal(pn_engine_run(PN_ENGINE_FAST, &x.net, 3, &o, &f, NULL), PN_OK);
    assert_int_equal(f.steps, b.steps);
    assert_int_equal(f.idle_steps, b.idle_steps);
    assert_int_equal(f.firings, b.firings);
    if (a.steps != b.steps || a.idle_steps != b.idle_steps || b.steps != c.steps ||
        b.idle_steps != c.idle_steps)
        fail_msg("%s: sass %" PRIu64 "/%" PRIu64 ", net %" PRIu64 "/%" PRIu64 " and %" PRIu64
                 "/%" PRIu64 " (steps/idle)", rows[0].text, a.steps, a.idle_steps, b.steps,
                 b.idle_steps, c.steps, c.idle_steps);
    pair_free(&x);
    pn_sass_prog_destroy(&p);
    return a.steps;
}

/* The store's order (store_order 12): a load after a store issues 12 steps after
 * it (a DRAM load, 30, then the add, 4: done at 46, dead at 48; 37 without the
 * rule), on the net as in the sass engine. */
static void test_store_order_exact(void **state)
{
    (void)state;
    sm_t m;
    small_sm(&m, 1, 1, 1);
    m.mem.l1_hit = 0;
    m.mem.l2_hit = 0;
    static const row_t prog[] = { { 1, 4, 1, 0, "STG.E desc[UR4][R2.64], R5" },
                                  { 1, 4, 1, 0, "LDG.E R10, desc[UR4][R6.64]" },
                                  { 1, 0, 0, 0, "IADD3 R1, R10, 0x1, RZ" },
                                  { 1, 0, 0, 0, "EXIT" } };
    assert_int_equal(same_one_warp(&m, prog, 4), 1 + 30 + 4 + 2);
    m.pd.store_order = 12;
    assert_int_equal(same_one_warp(&m, prog, 4), 12 + 30 + 4 + 2);
}

/* A BSYNC holds its warp bsync_hold (7) steps: the add after it issues at 1 + 7
 * and is done at 8 + 4 (dead at 14); without the hold at 2 + 4 (dead at 8). */
static void test_bsync_hold_exact(void **state)
{
    (void)state;
    sm_t m;
    small_sm(&m, 1, 1, 1);
    static const row_t prog[] = { { 1, 0, 0, 0, "BSSY B0, 0x30" },
                                  { 1, 0, 0, 0, "BSYNC B0" },
                                  { 1, 0, 0, 0, "IADD3 R1, R2, 0x1, RZ" },
                                  { 1, 0, 0, 0, "EXIT" } };
    assert_int_equal(same_one_warp(&m, prog, 4), 2 + 4 + 2);
    m.pd.bsync_hold = 7;
    assert_int_equal(same_one_warp(&m, prog, 4), 1 + 7 + 4 + 2);
}

/* A branch reads its predicate branch_pred (9) steps after the ISETP that
 * writes it, and its target issues branch_taken (6) steps after it: the BRA at
 * 9, the add at 15, done at 19 (dead at 21); without the keys the BRA at 4
 * (the ISETP's latency), the add at 8 (the arithmetic latency), dead at 14.
 * An SEL reads the predicate at the ISETP's latency either way. */
static void test_branch_exact(void **state)
{
    (void)state;
    sm_t m;
    small_sm(&m, 1, 1, 1);
    static const row_t jump[] = { { 1, 0, 0, 0, "ISETP.GE.AND P0, PT, R1, R2, PT" },
                                  { 1, 0, 0, 0, "@P0 BRA 0x30" },
                                  { 0, 0, 0, 0, "IADD3 R3, R3, 0x1, RZ" },
                                  { 1, 0, 0, 0, "IADD3 R1, R2, 0x1, RZ" },
                                  { 1, 0, 0, 0, "EXIT" } };
    static const row_t sel[] = { { 1, 0, 0, 0, "ISETP.GE.AND P0, PT, R1, R2, PT" },
                                 { 1, 0, 0, 0, "SEL R4, R5, R6, P0" },
                                 { 1, 0, 0, 0, "EXIT" } };
    assert_int_equal(same_one_warp(&m, jump, 5), 8 + 4 + 2);
    assert_int_equal(same_one_warp(&m, sel, 3), 4 + 4 + 2);
    m.pd.branch_pred = 9;
    m.pd.branch_taken = 6;
    assert_int_equal(same_one_warp(&m, jump, 5), 9 + 6 + 4 + 2);
    assert_int_equal(same_one_warp(&m, sel, 3), 4 + 4 + 2);
    /* a write of the predicate waits until branches may read the last one */
    static const row_t twice[] = { { 1, 0, 0, 0, "ISETP.GE.AND P0, PT, R1, R2, PT" },
                                   { 1, 0, 0, 0, "ISETP.GE.AND P0, PT, R1, R3, PT" },
                                   { 1, 0, 0, 0, "@P0 BRA 0x40" },
                                   { 0, 0, 0, 0, "IADD3 R3, R3, 0x1, RZ" },
                                   { 1, 0, 0, 0, "IADD3 R1, R2, 0x1, RZ" },
                                   { 1, 0, 0, 0, "EXIT" } };
    assert_int_equal(same_one_warp(&m, twice, 6), 9 + 9 + 6 + 4 + 2);
}

/* Lines of code (128 bytes, 8 ops): a warp waits code_fetch (5) steps at an op
 * of a line no warp of the SM asked for yet. Ten independent adds and EXIT,
 * ops 0-7 in line 0, 8-10 in line 1: the first add at 5, the eighth at 12,
 * the ninth asks for line 1 at 13 and issues at 18, the tenth at 19, done at
 * 23 (dead at 25); without the key 9 + 4 + 2. Two warps of a block (one a
 * partition) ask for each line together: the same steps. A second block,
 * after the first, finds both lines there: 10 steps more only once. */
static void test_code_fetch_exact(void **state)
{
    (void)state;
    row_t prog[11];
    static char text[10][40];
    for (int i = 0; i < 10; i++) {
        snprintf(text[i], sizeof text[i], "IADD3 R%d, R20, 0x1, RZ", i + 1);
        prog[i] = (row_t){ 1, 0, 0, 0, text[i] };
    }
    prog[10] = (row_t){ 1, 0, 0, 0, "EXIT" };
    sm_t m;
    small_sm(&m, 1, 1, 1);
    assert_int_equal(same_one_warp(&m, prog, 11), 9 + 4 + 2);
    m.pd.code_fetch = 5;
    assert_int_equal(same_one_warp(&m, prog, 11), 19 + 4 + 2);
    small_sm(&m, 2, 1, 1);
    m.pd.code_fetch = 5;
    assert_int_equal(same_one_warp(&m, prog, 11), 19 + 4 + 2);
    small_sm(&m, 1, 2, 1);
    uint64_t two = same_one_warp(&m, prog, 11);
    m.pd.code_fetch = 5;
    assert_int_equal(same_one_warp(&m, prog, 11), two + 10);
}

/* Stores every warp makes to one word (R4 never written; store_serial 2): the
 * device's one-address unit takes 2 steps a store, so four stores of a sector
 * issue at 0, 1 (the full bucket), 3 and 5 and the warp is done with the last
 * (global_st latency 3): 5 + 3 + 2; without the key 3 + 3 + 2. Two warps of a
 * block (one a partition) share the unit: eight stores, two at 0 (the full
 * bucket; no refill the step after, which started full), then 3, 5, ..., 13:
 * 13 + 3 + 2. */
static void test_store_serial_exact(void **state)
{
    (void)state;
    static const row_t flag[] = { { 1, 1, 1, 0, "STG.E desc[UR4][R4.64], R3" },
                                  { 1, 1, 1, 0, "STG.E desc[UR4][R4.64], R3" },
                                  { 1, 1, 1, 0, "STG.E desc[UR4][R4.64], R3" },
                                  { 1, 1, 1, 0, "STG.E desc[UR4][R4.64], R3" },
                                  { 1, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 1, 1, 1);
    assert_int_equal(same_one_warp(&m, flag, 5), 3 + 3 + 2);
    m.pd.store_serial = 2;
    assert_int_equal(same_one_warp(&m, flag, 5), 5 + 3 + 2);
    small_sm(&m, 2, 1, 1);
    m.pd.store_serial = 2;
    assert_int_equal(same_one_warp(&m, flag, 5), 13 + 3 + 2);
}

/* Constants at a register's index (const_index_busy 4: the SM's constant
 * cache 4 steps a load, a bucket of 6 steps' units): four independent loads
 * (l1 latency 8) issue at 0, 3, 7 and 11, done 11 + 8 + 2 (without the key at
 * 0..3: 3 + 8 + 2); two warps share the cache, eight loads one at a time: 27 +
 * 8 + 2. On the net as on the engine. */
static void test_const_index_exact(void **state)
{
    (void)state;
    static const row_t idx[] = { { 1, 0, 0, 0, "LDC R5, c[0x3][R2]" },
                                 { 1, 0, 0, 0, "LDC R6, c[0x3][R2+0x4]" },
                                 { 1, 0, 0, 0, "LDC R7, c[0x3][R2+0x8]" },
                                 { 1, 0, 0, 0, "LDC R8, c[0x3][R2+0xc]" },
                                 { 1, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 1, 1, 1);
    assert_int_equal(same_one_warp(&m, idx, 5), 3 + 8 + 2);
    m.pd.const_index_busy = 4;
    assert_int_equal(same_one_warp(&m, idx, 5), 11 + 8 + 2);
    small_sm(&m, 2, 1, 1);
    m.pd.const_index_busy = 4;
    assert_int_equal(same_one_warp(&m, idx, 5), 27 + 8 + 2);
}

/* The same four loads at an index from the thread, in a block of 8 x 4 (one
 * warp): at SR_TID.Y the warp's lanes read 4 words (one a row), at SR_TID.X 8
 * (one an x), at the block's index 1, so a load takes the cache 16, 32 or 4
 * steps (const_index_busy 4 a word). A load of cost c waits c - 1 steps for
 * the first after it and c for the others: the last issues 3c - 1 after the
 * first, 36 and 84 steps later than at the block's index. */
static void test_const_lanes_exact(void **state)
{
    (void)state;
    static const char *const sr[] = { "S2R R2, SR_CTAID.X", "S2R R2, SR_TID.Y",
                                      "S2R R2, SR_TID.X" };
    uint64_t steps[3];
    for (int k = 0; k < 3; k++) {
        const row_t idx[] = { { 1, 0, 0, 0, sr[k] },
                              { 1, 0, 0, 0, "LDC R5, c[0x3][R2]" },
                              { 1, 0, 0, 0, "LDC R6, c[0x3][R2+0x4]" },
                              { 1, 0, 0, 0, "LDC R7, c[0x3][R2+0x8]" },
                              { 1, 0, 0, 0, "LDC R8, c[0x3][R2+0xc]" },
                              { 1, 0, 0, 0, "EXIT" } };
        sm_t m;
        small_sm(&m, 1, 1, 1);
        m.pd.const_index_busy = 4;
        g_block[0] = 8, g_block[1] = 4, g_block[2] = 1;
        steps[k] = same_one_warp(&m, idx, 6);
        memset(g_block, 0, sizeof g_block);
    }
    assert_int_equal(steps[1], steps[0] + 36);
    assert_int_equal(steps[2], steps[0] + 84);
}

/* Texture fetches on the SM's texture unit (tex_busy 4, as test_const_index_exact's
 * constants: 0, 3, 7, 11) and its latency (tex_latency 16, 8 above the L1's: the last
 * result 16 steps after it issues), every fetch an L1 hit; on the net as on the engine,
 * one and two warps (8 fetches: the last at 27; their coordinates, the same in every
 * warp, make them loads alike, which wait the L2's latency, 15). */
static void test_tex_exact(void **state)
{
    (void)state;
    static const row_t tex[] = { { 1, 4, 1, 0, "TEX.LL RZ, R10, R2, R3, UR4, 0x0, 2D, 0x1" },
                                 { 1, 4, 1, 0, "TEX.LL RZ, R11, R4, R3, UR4, 0x0, 2D, 0x1" },
                                 { 1, 4, 1, 0, "TEX.LL RZ, R12, R5, R3, UR4, 0x0, 2D, 0x1" },
                                 { 1, 4, 1, 0, "TEX.LL RZ, R13, R6, R3, UR4, 0x0, 2D, 0x1" },
                                 { 1, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 1, 1, 1);
    m.mem.l1_hit = 1;   /* every fetch an L1 hit */
    m.pd.tex_busy = 4;
    assert_int_equal(same_one_warp(&m, tex, 5), 11 + 8 + 2);
    m.pd.tex_latency = 16;
    assert_int_equal(same_one_warp(&m, tex, 5), 11 + 16 + 2);
    small_sm(&m, 2, 1, 1);
    m.mem.l1_hit = 1;
    m.pd.tex_busy = 4;
    assert_int_equal(same_one_warp(&m, tex, 5), 27 + 15 + 2);
}

/* Warps leave a barrier one after another (barrier_stagger 5: warp i of the block i x 5
 * steps after warp 0): the second warp's add after the barrier issues 5 steps later, and
 * the block is done 5 steps later than without the key; on the net as on the engine (two
 * warps, one a partition: no choice among them matters). */
static void test_barrier_stagger_exact(void **state)
{
    (void)state;
    static const row_t bar[] = { { 1, 0, 0, 0, "BAR.SYNC.DEFER_BLOCKING 0x0" },
                                 { 1, 0, 0, 0, "IADD3 R1, R2, 0x1, RZ" },
                                 { 1, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 2, 1, 1);
    uint64_t at_once = same_one_warp(&m, bar, 3);
    m.pd.barrier_stagger = 5;
    assert_int_equal(same_one_warp(&m, bar, 3), at_once + 5);
}

/* Two independent loads at DRAM level (30) and an add of both: with
 * dram_jitter 10 the second comes back round(10 x 0.5642) = 6 steps later
 * (the expected larger of two draws), on the net as on the engine: the add
 * at 1 + 36 instead of 1 + 30. */
static void test_dram_jitter_exact(void **state)
{
    (void)state;
    static const row_t two[] = { { 1, 4, 1, 0, "LDG.E R2, desc[UR4][R10.64]" },
                                 { 1, 4, 1, 0, "LDG.E R3, desc[UR4][R12.64]" },
                                 { 1, 0, 0, 0, "IADD3 R4, R3, R2, RZ" },
                                 { 1, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 1, 1, 1);
    m.mem.l1_hit = m.mem.l2_hit = 0;
    uint64_t plain = same_one_warp(&m, two, 4);
    m.pd.dram_jitter = 10;
    assert_int_equal(same_one_warp(&m, two, 4), plain + 6);
}

/* A block's turnover (block_turn 10 + block_turn_warp 2 a warp): three blocks of
 * one warp take one slot in turn, and each of the two handovers waits 12 steps
 * more, on the net as in the sass engine. */
static void test_block_turn_exact(void **state)
{
    (void)state;
    static const row_t add[] = { { 3, 0, 0, 0, "IADD3 R1, R2, 0x1, RZ" },
                                 { 3, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 1, 3, 1);
    uint64_t none = same_one_warp(&m, add, 2);
    m.pd.block_turn = 10;
    m.pd.block_turn_warp = 2;
    assert_int_equal(same_one_warp(&m, add, 2), none + 2 * 12);
}

/* A warp whose last op is a store (latency 20): it is done when the store is
 * written, at 20 (dead at 22); with stores_posted once the EXIT issues, at 2
 * (dead at 4). */
static void test_stores_posted_exact(void **state)
{
    (void)state;
    static const row_t st[] = { { 1, 4, 1, 0, "STG.E desc[UR4][R2.64], R5" },
                                { 1, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 1, 1, 1);
    m.pp.latency[PN_PIPE_GLOBAL_ST] = 20;
    assert_int_equal(same_one_warp(&m, st, 2), 22);
    m.pd.stores_posted = 1;
    assert_int_equal(same_one_warp(&m, st, 2), 4);
}

/* A global accumulator's slice serves the loads too (atomic_slice_fill): four
 * blocks of one warp, each four loads of 4 sectors that miss L1 and L2 and a
 * one-lane RED to one word (atomic_serial 1). Without the key the RED alone takes
 * the unit and nothing waits for it; with it each load takes its share of the
 * L2 reads (a step at l2_sectors 4) and of the DRAM fills (2 at 2 a step), 3
 * steps of the unit: the unit's bucket (5 steps deep) pays a block's first two
 * loads at once and the third and fourth 3 steps apart, so the blocks end
 * later (231 -> 243 steps), on the net as in the sass engine. */
static void test_atomic_slice_exact(void **state)
{
    (void)state;
    static const row_t red[] = { { 4, 16, 4, 0, "LDG.E R2, desc[UR4][R10.64]" },
                                 { 4, 16, 4, 0, "LDG.E R3, desc[UR4][R12.64]" },
                                 { 4, 16, 4, 0, "LDG.E R4, desc[UR4][R14.64]" },
                                 { 4, 16, 4, 0, "LDG.E R5, desc[UR4][R16.64]" },
                                 { 4, 0, 0, 0, "IADD3 R6, R2, R3, R4" },
                                 { 4, 0, 0, 0, "IADD3 R7, R6, R5, RZ" },
                                 { 4, 4, 4, 0, "RED.E.ADD.STRONG.GPU desc[UR4][R20.64], R7" },
                                 { 4, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 1, 4, 1);
    m.mem.l1_hit = m.mem.l2_hit = 0;
    m.pd.l2_sectors = 4;
    m.pd.atomic_serial = 1;
    uint64_t plain = same_one_warp(&m, red, 8);
    m.pd.atomic_slice_fill = 2;
    uint64_t sliced = same_one_warp(&m, red, 8);
    assert_int_equal(plain, 231);
    assert_int_equal(sliced, 243);
}

/* Blocks of one warp, one at a time, each with four DRAM loads of 4 sectors on
 * a budget of 0.5 sectors a step (its level at most 5 sectors) and a 40-step
 * turnover: each block's loads wait for the budget in turn, about 100 steps a
 * block. With budget_depth 100 the budget may bank up to 54 sectors once block
 * 1 starts: block 1 still finds the level block 0 left (two blocks: 159 -> 158
 * steps, its last load a step sooner), and the budget refills past 5 sectors
 * while block 1's loads and turnover run, so blocks 2 and 3 wait less (four
 * blocks: 359 -> 324). */
static void test_budget_depth_exact(void **state)
{
    (void)state;
    for (int blocks = 2; blocks <= 4; blocks += 2) {
        double b = blocks;
        const row_t ld[] = { { b, 4 * b, b, 0, "LDG.E R2, desc[UR4][R10.64]" },
                             { b, 4 * b, b, 0, "LDG.E R3, desc[UR4][R12.64]" },
                             { b, 4 * b, b, 0, "LDG.E R4, desc[UR4][R14.64]" },
                             { b, 4 * b, b, 0, "LDG.E R5, desc[UR4][R16.64]" },
                             { b, 0, 0, 0, "IADD3 R6, R2, R3, R4" },
                             { b, 0, 0, 0, "IADD3 R7, R6, R5, RZ" },
                             { b, 0, 0, 0, "EXIT" } };
        sm_t m;
        small_sm(&m, 1, (uint32_t)blocks, 1);
        m.mem.l1_hit = m.mem.l2_hit = 0;
        m.pp.rate[PN_PIPE_DRAM] = PN_PIPE_UNIT / 2;   /* 0.5 sectors a step */
        m.pd.block_turn = 40;
        uint64_t shallow = same_one_warp(&m, ld, 7);
        m.pd.budget_depth = 100;
        uint64_t deep = same_one_warp(&m, ld, 7);
        assert_int_equal(shallow, blocks == 2 ? 159 : 359);
        assert_int_equal(deep, blocks == 2 ? 158 : 324);
    }
}

/* A loop whose first load reads the same address every trip (R4, never
 * written) and whose second streams (R6 += 0x80): with the kernel's L1 hits
 * (0.5 of 16 loads) covering the 8 reused ones, those take L1 (8) every trip
 * and the other loads the rest, none: L2 (15). A trip: the loads at t, t + 1,
 * the add that reads both at t + 16, the compare at t + 20, the branch at
 * t + 24, the next trip at t + 28 (a taken branch's arithmetic latency); the
 * eighth trip's branch falls through at 7 x 28 + 24 = 220, EXIT at 221: 221 +
 * 1 + 2. Misses to DRAM (30, l2_hit 0): the add at t + 31, a trip 43 steps,
 * 7 x 43 + 39 + 1 + 1 + 2; with fewer hits measured (0.4) than reused loads
 * the rule is off, and both loads of a trip draw one level from the pattern
 * (3 trips of 8 at L1): faster. */
static void test_reused_load_exact(void **state)
{
    (void)state;
    static const row_t loop[] = { { 8, 4, 1, 0, "LDG.E R2, desc[UR4][R4.64]" },
                                  { 8, 4, 1, 0, "LDG.E R3, desc[UR4][R6.64]" },
                                  { 8, 0, 0, 0, "IADD3 R6, R6, 0x80, RZ" },
                                  { 8, 0, 0, 0, "IADD3 R1, R2, R3, RZ" },
                                  { 8, 0, 0, 0, "ISETP.GE.AND P0, PT, R1, 0x10, PT" },
                                  { 8, 0, 0, 0, "@!P0 BRA 0x0" },
                                  { 1, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 1, 1, 1);
    m.mem.l1_hit = 0.5;
    m.mem.l2_hit = 1;
    assert_int_equal(same_one_warp(&m, loop, 7), 7 * 28 + 24 + 1 + 1 + 2);
    m.mem.l2_hit = 0;
    assert_int_equal(same_one_warp(&m, loop, 7), 7 * 43 + 39 + 1 + 1 + 2);
    m.mem.l1_hit = 0.4;
    assert_true(same_one_warp(&m, loop, 7) < 7 * 43 + 39 + 1 + 1 + 2);
}

/* The L1's data path serves its requests in order (pn_sass_check): a 16-sector
 * load, a one-wavefront shared store, another 16-sector load, on an LSU of
 * one sector (or shared wavefront) a step. The bucket holds 16 + 2 at the
 * start; the first load leaves 2, the store 1. The pipe accepts the second
 * load once it could accept the program's smallest request (the store) and
 * owes the rest: at step 2, not at step 16 when the bucket would hold all
 * 16. Loads at DRAM (30 steps): the add at 32, done at 36, dead 2 later;
 * before: 46 + 4 + 2. Global requests alone keep the bucket's rule. */
static void test_lsu_in_order_exact(void **state)
{
    (void)state;
    static const row_t ld[] = { { 1, 16, 4, 0, "LDG.E.128 R4, desc[UR4][R10.64]" },
                                { 1, 0, 0, 1, "STS [R0], R2" },
                                { 1, 16, 4, 0, "LDG.E.128 R12, desc[UR4][R20.64]" },
                                { 1, 0, 0, 0, "IADD3 R9, R4, R12, RZ" },
                                { 1, 0, 0, 0, "EXIT" } };
    sm_t m;
    small_sm(&m, 1, 1, 1);
    m.mem.l1_hit = m.mem.l2_hit = 0;
    m.pp.rate[PN_PIPE_LSU] = PN_PIPE_UNIT;
    m.pp.rate[PN_PIPE_SHMEM] = PN_PIPE_UNIT;
    assert_int_equal(same_one_warp(&m, ld, 5), 32 + 4 + 2);
    /* without the shared store the two loads keep the bucket's rule: the
     * second waits for 16 sectors, from the 2 left at step 1 to step 15 */
    static const row_t glob[] = { { 1, 16, 4, 0, "LDG.E.128 R4, desc[UR4][R10.64]" },
                                  { 1, 16, 4, 0, "LDG.E.128 R12, desc[UR4][R20.64]" },
                                  { 1, 0, 0, 0, "IADD3 R9, R4, R12, RZ" },
                                  { 1, 0, 0, 0, "EXIT" } };
    assert_int_equal(same_one_warp(&m, glob, 4), 45 + 4 + 2);
}

static void test_one_warp_exact(void **state)
{
    (void)state;
    sm_t m;
    small_sm(&m, 1, 1, 1);
    m.mem.l1_hit = 0;
    m.mem.l2_hit = 0;
    /* k independent loads overlap: four loads at 0..3 (DRAM, 30), the first
     * add at 2 + 30 (it reads the third), the second at 32 + 4; done at 40,
     * the kernel ends at 41, dead at 42 */
    static const row_t loads[] = { { 1, 4, 1, 0, "LDG.E R10, desc[UR4][R2.64]" },
                                   { 1, 4, 1, 0, "LDG.E R11, desc[UR4][R6.64]" },
                                   { 1, 4, 1, 0, "LDG.E R12, desc[UR4][R8.64]" },
                                   { 1, 4, 1, 0, "LDG.E R13, desc[UR4][R14.64]" },
                                   { 1, 0, 0, 0, "IADD3 R1, R10, R11, R12" },
                                   { 1, 0, 0, 0, "IADD3 R1, R1, R13, RZ" },
                                   { 1, 0, 0, 0, "EXIT" } };
    assert_int_equal(same_one_warp(&m, loads, 7), 2 + 30 + 2 * 4 + 2);
    /* a chain of dependent adds: k * L */
    static const row_t chain[] = { { 1, 0, 0, 0, "IADD3 R1, R1, 1, RZ" },
                                   { 1, 0, 0, 0, "IADD3 R1, R1, 1, RZ" },
                                   { 1, 0, 0, 0, "IADD3 R1, R1, 1, RZ" },
                                   { 1, 0, 0, 0, "EXIT" } };
    assert_int_equal(same_one_warp(&m, chain, 4), 3 * 4 + 2);
    /* an add that does not read the pending load issues under it */
    static const row_t under[] = { { 1, 4, 1, 0, "LDG.E R10, desc[UR4][R2.64]" },
                                   { 1, 0, 0, 0, "IADD3 R1, R5, 1, RZ" },
                                   { 1, 0, 0, 0, "EXIT" } };
    assert_int_equal(same_one_warp(&m, under, 3), 30 + 2);
    /* a loop of 8 trips (a load, a dependent add, the compare, the back
     * branch: taken branches wait the arithmetic latency), a store after */
    static const row_t loop[] = { { 1, 0, 0, 0, "MOV R1, RZ" },
                                  { 8, 32, 8, 0, "LDG.E R2, desc[UR4][R4.64]" },
                                  { 8, 0, 0, 0, "IADD3 R1, R1, R2, RZ" },
                                  { 8, 0, 0, 0, "ISETP.GE.AND P0, PT, R1, 0x10, PT" },
                                  { 8, 0, 0, 0, "@!P0 BRA 0x10" },
                                  { 1, 4, 1, 0, "STG.E desc[UR4][R4.64], R1" },
                                  { 1, 0, 0, 0, "EXIT" } };
    m.mem.l1_hit = 0.5;
    m.mem.l2_hit = 0.5;
    same_one_warp(&m, loop, 7);
    /* a guarded exit that one warp of two takes, shared memory, MUFU */
    static const row_t misc[] = { { 2, 0, 0, 0, "S2R R0, SR_TID.X" },
                                  { 2, 0, 0, 0, "ISETP.GT.AND P0, PT, R0, 0x20, PT" },
                                  { 2, 0, 0, 0, "@P0 EXIT" },
                                  { 1, 0, 0, 2, "LDS R3, [R0]" },
                                  { 1, 0, 0, 0, "MUFU.EX2 R4, R3" },
                                  { 1, 0, 0, 1, "STS [R0], R4" },
                                  { 1, 0, 0, 0, "EXIT" } };
    same_one_warp(&m, misc, 7);
    /* a barrier alone: its latency after the arrival */
    static const row_t bar[] = { { 1, 0, 0, 0, "IADD3 R1, R1, 1, RZ" },
                                 { 1, 0, 0, 0, "BAR.SYNC.DEFER_BLOCKING 0x0" },
                                 { 1, 0, 0, 0, "IADD3 R1, R1, 1, RZ" },
                                 { 1, 0, 0, 0, "EXIT" } };
    assert_int_equal(same_one_warp(&m, bar, 4), 1 + 6 + 4 + 2);
    /* a load on a line already on its way waits for that line */
    static const row_t merge[] = { { 1, 4, 1, 0, "LDG.E R10, desc[UR4][R2.64]" },
                                   { 1, 0, 0, 0, "IADD3 R1, R1, 1, RZ" },
                                   { 1, 4, 1, 0, "LDG.E R11, desc[UR4][R2.64+0x4]" },
                                   { 1, 0, 0, 0, "IADD3 R5, R11, R10, RZ" },
                                   { 1, 0, 0, 0, "EXIT" } };
    m.mem.l1_hit = 0;
    m.mem.l2_hit = 0;
    assert_int_equal(same_one_warp(&m, merge, 5), 30 + 4 + 2);
    /* narrow pipes: 8 stores through an L2 of one sector a step */
    static const row_t stores[] = { { 1, 4, 4, 0, "STG.E desc[UR4][R2.64], R5" },
                                    { 1, 4, 4, 0, "STG.E desc[UR4][R2.64+0x100], R5" },
                                    { 1, 4, 4, 0, "STG.E desc[UR4][R2.64+0x200], R5" },
                                    { 1, 4, 4, 0, "STG.E desc[UR4][R2.64+0x300], R5" },
                                    { 1, 0, 0, 0, "EXIT" } };
    m.pd.l2_sectors = 1;
    m.pd.l2_store_sectors = 0.5;
    /* 8000 units each from a bucket of 10000 refilled by 1000: at 0, 7, 15, 23 */
    assert_int_equal(same_one_warp(&m, stores, 5), 23 + 3 + 2);
    /* the 16-lane pipes: IADD3 on the integer pipe, IMAD on FMA heavy, two
     * steps each: alone one every 2 steps after the bucket's first two (the
     * last of 6 at 1 + 2 * 4 = 9), alternating one a step (the last at 5;
     * IMAD's latency is one less) */
    static const row_t ints[] = { { 1, 0, 0, 0, "IADD3 R10, R2, R3, RZ" },
                                  { 1, 0, 0, 0, "IADD3 R11, R2, R3, RZ" },
                                  { 1, 0, 0, 0, "IADD3 R12, R2, R3, RZ" },
                                  { 1, 0, 0, 0, "IADD3 R13, R2, R3, RZ" },
                                  { 1, 0, 0, 0, "IADD3 R14, R2, R3, RZ" },
                                  { 1, 0, 0, 0, "IADD3 R15, R2, R3, RZ" },
                                  { 1, 0, 0, 0, "EXIT" } };
    static const row_t alt[] = { { 1, 0, 0, 0, "IADD3 R10, R2, R3, RZ" },
                                 { 1, 0, 0, 0, "IMAD R11, R2, R3, RZ" },
                                 { 1, 0, 0, 0, "IADD3 R12, R2, R3, RZ" },
                                 { 1, 0, 0, 0, "IMAD R13, R2, R3, RZ" },
                                 { 1, 0, 0, 0, "IADD3 R14, R2, R3, RZ" },
                                 { 1, 0, 0, 0, "IMAD R15, R2, R3, RZ" },
                                 { 1, 0, 0, 0, "EXIT" } };
    m.pd.alu_busy = 2;
    m.pd.fmaheavy_busy = 2;
    assert_int_equal(same_one_warp(&m, ints, 7), 9 + 4 + 2);
    assert_int_equal(same_one_warp(&m, alt, 7), 5 + 3 + 2);
}

#define NBIN 4096

/* Histograms of steps (from lo) and idle steps of `runs` runs of each
 * engine; the two-sample p-values. */
static void compare(const char *name, const sm_t *m, const row_t *rows, int n, double warps,
                    int runs, int64_t shift, double *p_steps, double *p_idle)
{
    pn_sass_prog_t p;
    prog_of(&p, rows, n, warps);
    pair_t x;
    pair_new(&x, m, &p);
    static double sa[NBIN], sb[NBIN], ia[NBIN], ib[NBIN];
    memset(sa, 0, sizeof sa);
    memset(sb, 0, sizeof sb);
    memset(ia, 0, sizeof ia);
    memset(ib, 0, sizeof ib);
    uint64_t lo = run_sim(&x, 12345).steps;
    lo = lo > NBIN / 2 ? lo - NBIN / 2 : 0;
    for (int r = 0; r < runs; r++) {
        pn_run_result_t a = run_sim(&x, 1000 + (uint64_t)r), b = run_net(&x, 900000 + (uint64_t)r);
        uint64_t as = a.steps + (uint64_t)shift;
        if (as < lo || as - lo >= NBIN || b.steps < lo || b.steps - lo >= NBIN ||
            a.idle_steps >= NBIN || b.idle_steps >= NBIN)
            fail_msg("%s: steps out of the histogram (%" PRIu64 ", %" PRIu64 ")", name,
                     a.steps, b.steps);
        sa[as - lo]++;
        sb[b.steps - lo]++;
        ia[a.idle_steps]++;
        ib[b.idle_steps]++;
    }
    *p_steps = pn_chi2_p(sa, sb, NBIN, 0, 10);
    *p_idle = pn_chi2_p(ia, ib, NBIN, 0, 10);
    pair_free(&x);
    pn_sass_prog_destroy(&p);
}

/* A grid-stride loop: two independent loads a trip, a dependent FMA, a
 * store at the end (4 warps: 64 loads each). */
static const row_t stride[] = { { 4, 0, 0, 0, "S2R R0, SR_TID.X" },
                                { 4, 0, 0, 0, "MOV R1, RZ" },
                                { 32, 128, 32, 0, "LDG.E R2, desc[UR4][R4.64]" },
                                { 32, 256, 64, 0, "LDG.E R3, desc[UR4][R6.64]" },
                                { 32, 0, 0, 0, "IADD3 R4, R4, 0x80, RZ" },
                                { 32, 0, 0, 0, "FFMA R1, R2, R3, R1" },
                                { 32, 0, 0, 0, "ISETP.GE.AND P0, PT, R4, R0, PT" },
                                { 32, 0, 0, 0, "@!P0 BRA 0x20" },
                                { 4, 16, 4, 0, "STG.E desc[UR4][R8.64], R1" },
                                { 4, 0, 0, 0, "EXIT" } };

/* Shared memory between barriers, an exit that some warps take before the
 * second barrier, a line follower. */
static const row_t tiles[] = { { 4, 0, 0, 0, "S2R R0, SR_TID.X" },
                               { 4, 16, 4, 0, "LDG.E R2, desc[UR4][R4.64]" },
                               { 4, 16, 4, 0, "LDG.E R3, desc[UR4][R4.64+0x40]" },
                               { 4, 0, 0, 4, "STS [R0], R2" },
                               { 4, 0, 0, 0, "BAR.SYNC.DEFER_BLOCKING 0x0" },
                               { 4, 0, 0, 4, "LDS R6, [R0+0x4]" },
                               { 4, 0, 0, 0, "FADD R6, R6, R3" },
                               { 4, 0, 0, 0, "ISETP.GT.AND P0, PT, R0, 0x40, PT" },
                               { 4, 0, 0, 0, "@P0 EXIT" },
                               { 2, 0, 0, 0, "BAR.SYNC.DEFER_BLOCKING 0x0" },
                               { 2, 0, 0, 0, "MUFU.RCP R7, R6" },
                               { 2, 8, 2, 0, "STG.E desc[UR4][R8.64], R7" },
                               { 2, 0, 0, 0, "EXIT" } };

/* The stride loop ending in a reduction on one address, through the L2 */
static const row_t reduce[] = { { 4, 0, 0, 0, "S2R R0, SR_TID.X" },
                                { 4, 0, 0, 0, "MOV R1, RZ" },
                                { 32, 128, 32, 0, "LDG.E R2, desc[UR4][R4.64]" },
                                { 32, 256, 64, 0, "LDG.E R3, desc[UR4][R6.64]" },
                                { 32, 0, 0, 0, "IADD3 R4, R4, 0x80, RZ" },
                                { 32, 0, 0, 0, "FFMA R1, R2, R3, R1" },
                                { 32, 0, 0, 0, "ISETP.GE.AND P0, PT, R4, R0, PT" },
                                { 32, 0, 0, 0, "@!P0 BRA 0x20" },
                                { 4, 4, 4, 0, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R8.64], R1" },
                                { 4, 8, 4, 0, "ATOMG.E.ADD.STRONG.GPU PT, R9, desc[UR4][R10.64], R1" },
                                { 4, 0, 0, 0, "IADD3 R9, R9, 1, RZ" },
                                { 4, 0, 0, 0, "EXIT" } };

static void narrow(sm_t *m)
{
    m->pp.rate[PN_PIPE_LSU] = 2000;
    m->pp.rate[PN_PIPE_DRAM] = 1000;
    m->pp.rate[PN_PIPE_SHMEM] = 1000;
    m->pp.rate[PN_PIPE_SFUP] = 250;
    m->pp.rate[PN_PIPE_ALUP] = 500;
    m->pp.inflight = 3;
    m->mem.l1_hit = 0.25;
    m->mem.l2_hit = 0.5;
}

/* Blocks of one warp take consecutive warp slots, so their warps run on
 * different partitions (slot mod S; measured on the H100): two resident
 * blocks of one warp, each 8 independent adds, on the small SM's 2
 * partitions issue side by side, not one partition's 16 issues. */
static void test_slot_partitions(void **state)
{
    (void)state;
    sm_t m;
    small_sm(&m, 1, 2, 2);
    row_t adds[9];
    static const char *const text[] = {
        "IADD3 R10, R2, R3, RZ", "IADD3 R11, R2, R3, RZ", "IADD3 R12, R2, R3, RZ",
        "IADD3 R13, R2, R3, RZ", "IADD3 R14, R2, R3, RZ", "IADD3 R15, R2, R3, RZ",
        "IADD3 R16, R2, R3, RZ", "IADD3 R17, R2, R3, RZ", "EXIT" };
    for (int i = 0; i < 9; i++)
        adds[i] = (row_t){ 2, 0, 0, 0, text[i] };
    /* block 0's warp issues at 0..7; block 1 starts at step 0 (launch 1:
     * right after block 0, which counts as started at step -1) and issues
     * from the next step, 1..8, on the other partition (on one partition the
     * 16 issues would take to step 15): the last result at 8 + 4, the run 2
     * more */
    assert_int_equal(same_one_warp(&m, adds, 9), 8 + 4 + 2);
    /* three blocks, two slots, a block launch every 5 steps: block 1 starts at
     * 5 - 1 = 4 (issues 5..12), block 2 when block 0's slot frees, two steps
     * after its last result (7 + 4 + 2 = 13; its launch turn came at 9), and
     * issues 14..21 */
    small_sm(&m, 1, 3, 2);
    m.pp.block_launch = 5;
    assert_int_equal(same_one_warp(&m, adds, 9), 21 + 4 + 2);
}

static void test_distributions(void **state)
{
    (void)state;
    const int runs = scaled(300);
    sm_t m;
    double ps, pi;
    /* four warps of one block, narrow pipes, three in-flight loads */
    small_sm(&m, 4, 1, 1);
    narrow(&m);
    compare("stride", &m, stride, 10, 4, runs, 0, &ps, &pi);
    if (ps < 1e-3 || pi < 1e-3)
        fail_msg("stride: the net and the sass engine differ (p = %g steps, %g idle)", ps, pi);
    /* the same with the L2 and the atomic unit of one address */
    m.pd.l2_sectors = 2;
    m.pd.l2_store_sectors = 1;
    m.pd.atomic_serial = 1;
    m.pd.atomic_serial_float = 3;
    compare("reduce", &m, reduce, 12, 4, runs, 0, &ps, &pi);
    if (ps < 1e-3 || pi < 1e-3)
        fail_msg("reduce: the net and the sass engine differ (p = %g steps, %g idle)", ps, pi);
    /* three blocks of two warps, one resident at a time (launch 7), barriers */
    small_sm(&m, 2, 3, 1);
    narrow(&m);
    m.pp.block_launch = 7;
    compare("tiles", &m, tiles, 13, 4, runs, 0, &ps, &pi);
    if (ps < 1e-3 || pi < 1e-3)
        fail_msg("tiles: the net and the sass engine differ (p = %g steps, %g idle)", ps, pi);
    /* two blocks resident of three, issue 2 per partition */
    small_sm(&m, 2, 3, 2);
    narrow(&m);
    m.pp.issue = 2;
    m.pp.block_launch = 3;
    compare("tiles2", &m, tiles, 13, 4, runs, 0, &ps, &pi);
    if (ps < 1e-3 || pi < 1e-3)
        fail_msg("tiles2: the net and the sass engine differ (p = %g steps, %g idle)", ps, pi);
}

/* Power control: the test sees a one-step shift of the sass engine on the
 * two-block net (steps sd about 2.4) and a six-step one on the stride loop
 * (sd about 11). */
static void test_power(void **state)
{
    (void)state;
    sm_t m;
    double ps, pi;
    small_sm(&m, 2, 3, 2);
    narrow(&m);
    m.pp.issue = 2;
    m.pp.block_launch = 3;
    compare("tiles2+1", &m, tiles, 13, 4, scaled(300), 1, &ps, &pi);
    if (!(ps < 1e-6))
        fail_msg("a one-step shift went unseen (p = %g)", ps);
    small_sm(&m, 4, 1, 1);
    narrow(&m);
    compare("stride+6", &m, stride, 10, 4, scaled(300), 6, &ps, &pi);
    if (!(ps < 1e-3))
        fail_msg("a six-step shift went unseen (p = %g)", ps);
}

/* The limits: a load latency below 3, and a net too large to unroll. */
static void test_limits(void **state)
{
    (void)state;
    sm_t m;
    small_sm(&m, 1, 1, 1);
    pn_sass_prog_t p;
    prog_of(&p, stride, 10, 1);
    pn_sass_sim_params_t sp = { &m.pp, &m.pd, &m.mem, &p, 1, 0, 1 };
    pn_sass_sim_t *sim;
    pn_error_t err = { 0 };
    m.pp.latency[PN_PIPE_LD_L1] = 2;
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_net_t net;
    pn_net_init(&net);
    assert_int_equal(pn_sass_net_build(&net, sim, NULL, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "load latencies of at least 3"));
    pn_net_destroy(&net);
    pn_sass_sim_free(sim);
    pn_sass_prog_destroy(&p);
    /* 32000 warps of a 1000-step latency: 32 million places */
    static const row_t add[] = { { 32000, 0, 0, 0, "IADD3 R1, R1, 1, RZ" },
                                 { 32000, 0, 0, 0, "EXIT" } };
    prog_of(&p, add, 2, 32000);
    small_sm(&m, 32, 1000, 1);
    m.pp.latency[PN_PIPE_ARITH] = 1000;
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_net_init(&net);
    assert_int_equal(pn_net_set_counting(&net, &err), PN_OK);
    assert_int_equal(pn_sass_net_build(&net, sim, NULL, &err), PN_ELIMIT);
    assert_non_null(strstr(err.msg, "would exceed"));
    pn_net_destroy(&net);
    pn_sass_sim_free(sim);
    pn_sass_prog_destroy(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_warp_exact),
        cmocka_unit_test(test_store_order_exact),
        cmocka_unit_test(test_bsync_hold_exact), cmocka_unit_test(test_branch_exact),
        cmocka_unit_test(test_code_fetch_exact),
        cmocka_unit_test(test_store_serial_exact),
        cmocka_unit_test(test_const_index_exact),
        cmocka_unit_test(test_const_lanes_exact),
        cmocka_unit_test(test_barrier_stagger_exact),
        cmocka_unit_test(test_tex_exact),
        cmocka_unit_test(test_dram_jitter_exact),
        cmocka_unit_test(test_block_turn_exact),
        cmocka_unit_test(test_stores_posted_exact),
        cmocka_unit_test(test_budget_depth_exact),
        cmocka_unit_test(test_atomic_slice_exact),
        cmocka_unit_test(test_reused_load_exact),
        cmocka_unit_test(test_lsu_in_order_exact),
        cmocka_unit_test(test_slot_partitions),
        cmocka_unit_test(test_distributions),
        cmocka_unit_test(test_power),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
