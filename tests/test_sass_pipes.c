/* test_sass_pipes.c - warps that run their SASS: exact step counts and bounds
 * of one warp on the SM's pipes: the L2 pipe and the atomic units, half-rate
 * and FP64 pipes, the constant cache, register bank conflicts (doc/dependencies.md). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pn_sass_lines.h"
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"
#include "pn_test_sass.h"
#include "pn_test_sass_warp.h"

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

/* The FMA-heavy pipe's 64-bit products and widened halves, and the bit ops of
 * the MUFU's pipe (examples/probe/alu_pipes.cu on the H100,
 * examples/data/h100/alu_ops.log): one warp, 8 independent ops, fmaheavy_busy
 * 2. IMAD.HI and IMAD.WIDE take 4 steps of it (a bucket of 4 + 2 refills,
 * refilled on its level before the step's takes: at 0, 3, then every 4, the
 * last at 27; FMA-pipe latency LA - 1), HADD2.F32 2 like an IMAD (0, 1, then
 * every 2: 13), a plain HADD2 none (every step: 7). POPC, FLO and BREV issue
 * to the MUFU's pipe, 4 steps an op here: at 0, 3, then every 4 (27; an ALU
 * op at 7 without that pipe). */
static void test_wide_pipes(void **state)
{
    (void)state;
    static const char *hi[] = { "IMAD.HI.U32 R10, R2, R3, RZ", "IMAD.HI.U32 R11, R2, R3, RZ",
                                "IMAD.HI.U32 R12, R2, R3, RZ", "IMAD.HI.U32 R13, R2, R3, RZ",
                                "IMAD.HI.U32 R14, R2, R3, RZ", "IMAD.HI.U32 R15, R2, R3, RZ",
                                "IMAD.HI.U32 R16, R2, R3, RZ", "IMAD.HI.U32 R17, R2, R3, RZ",
                                "EXIT" };
    static const char *wide[] = { "IMAD.WIDE R10, R2, 0x4, R4", "IMAD.WIDE R12, R2, 0x4, R4",
                                  "IMAD.WIDE R14, R2, 0x4, R4", "IMAD.WIDE R16, R2, 0x4, R4",
                                  "IMAD.WIDE.U32 R18, R2, 0x4, R4", "IMAD.WIDE R20, R2, 0x4, R4",
                                  "IMAD.WIDE R22, R2, 0x4, R4", "IMAD.WIDE R24, R2, 0x4, R4",
                                  "EXIT" };
    static const char *h2f[] = { "HADD2.F32 R10, -RZ, R2.H0_H0", "HADD2.F32 R11, -RZ, R2.H0_H0",
                                 "HADD2.F32 R12, -RZ, R2.H0_H0", "HADD2.F32 R13, -RZ, R2.H0_H0",
                                 "HADD2.F32 R14, -RZ, R2.H0_H0", "HADD2.F32 R15, -RZ, R2.H0_H0",
                                 "HADD2.F32 R16, -RZ, R2.H0_H0", "HADD2.F32 R17, -RZ, R2.H0_H0",
                                 "EXIT" };
    static const char *h2[] = { "HADD2 R10, R2, R3", "HADD2 R11, R2, R3", "HADD2 R12, R2, R3",
                                "HADD2 R13, R2, R3", "HADD2 R14, R2, R3", "HADD2 R15, R2, R3",
                                "HADD2 R16, R2, R3", "HADD2 R17, R2, R3", "EXIT" };
    static const char *bits[] = { "POPC R10, R2", "FLO.U32 R11, R2", "BREV R12, R2",
                                  "POPC R13, R2", "POPC R14, R2", "FLO.U32 R15, R2",
                                  "BREV R16, R2", "POPC R17, R2", "EXIT" };
    pn_sass_prog_t p;
    pn_pipe_device_t pd = { 0 };
    pd.fmaheavy_busy = 2;
    assert_int_equal(text_steps(hi, 9, &pd), 27 + LA - 1 + 2);
    assert_int_equal(text_steps(wide, 9, &pd), 27 + LA - 1 + 2);
    assert_int_equal(text_steps(h2f, 9, &pd), 13 + LA - 1 + 2);
    assert_int_equal(text_steps(h2, 9, &pd), 7 + LA - 1 + 2);
    /* the bit ops: on the ALU without a MUFU pipe, on it with one */
    prog_of(&p, bits, 9);
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pn_memory_t mem;
    pn_memory_default(&mem);
    assert_int_equal(pn_test_sass_steps(&p, &pp, &pd, &mem), 7 + LA + 2);
    pp.rate[PN_PIPE_SFUP] = PN_PIPE_UNIT / 4;
    assert_int_equal(pn_test_sass_steps(&p, &pp, &pd, &mem), 27 + LA + 2);
    pn_sass_prog_destroy(&p);
}

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
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 0);
    mem.atomic_ns = 10;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
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
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 58);
    pn_sass_prog_destroy(&p);
    /* a compare-and-swap over several sectors holds it atomic_cas times as long
     * (2: 20 steps each, 58 as above); one on one sector (a word: the one-address
     * rule's) and an add over several as measured (10 steps: 28) */
    static const char *cas[] = { "ATOMG.E.CAS.STRONG.GPU PT, R5, [R2], R6, R7",
                                 "ATOMG.E.CAS.STRONG.GPU PT, R5, [R2], R6, R7",
                                 "ATOMG.E.CAS.STRONG.GPU PT, R5, [R2], R6, R7",
                                 "ATOMG.E.CAS.STRONG.GPU PT, R5, [R2], R6, R7" };
    static const char *add[] = { "ATOMG.E.ADD.STRONG.GPU PT, R5, desc[UR4][R2.64], R7",
                                 "ATOMG.E.ADD.STRONG.GPU PT, R5, desc[UR4][R2.64], R7",
                                 "ATOMG.E.ADD.STRONG.GPU PT, R5, desc[UR4][R2.64], R7",
                                 "ATOMG.E.ADD.STRONG.GPU PT, R5, desc[UR4][R2.64], R7" };
    const double four[4] = { 4, 4, 4, 4 }, one[4] = { 1, 1, 1, 1 };
    pn_pipe_device_t pc = { 0 };
    pc.clock_mhz = 1000;
    pc.atomic_cas = 2;
    const struct { const char *const *text; const double *sec; uint64_t steps; } c[] = {
        { cas, four, 58 }, { cas, one, 28 }, { add, four, 28 },
    };
    for (int i = 0; i < 3; i++) {
        rows_prog(&p, c[i].text, 4, c[i].sec, one, NULL);
        pn_test_sass_bounds(&p, &pp, &pc, &mem, &b);
        assert_int_equal(b.steps[PN_BOUND_ATOMIC], c[i].steps);
        pn_sass_prog_destroy(&p);
    }
    pc.atomic_cas = 0;   /* without the key: as an add */
    rows_prog(&p, cas, 4, four, one, NULL);
    pn_test_sass_bounds(&p, &pp, &pc, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 28);
    pn_sass_prog_destroy(&p);
}

/* A global accumulator's slice serves the loads and stores as well (atomic_slice_fill):
 * four loads of 4 sectors that miss L1 and L2, then a one-lane RED to one word.
 * Each load takes its share of the L2 reads (4 sectors at l2_sectors 4: a step)
 * and of the DRAM fills (4 sectors at 2 a step: two) of the one-address unit,
 * 3 steps, the RED atomic_serial's one: 13000 units less the full bucket (3000
 * + 2 x 1000) at 1000 a step, 8. Without the key only the RED: none. Without
 * the RED the loads take no atomic unit. */
static void test_atomic_slice(void **state)
{
    (void)state;
    static const char *const text[] = { "LDG.E R2, desc[UR4][R10.64]", "LDG.E R3, desc[UR4][R12.64]",
                                        "LDG.E R4, desc[UR4][R14.64]", "LDG.E R5, desc[UR4][R16.64]",
                                        "RED.E.ADD.STRONG.GPU desc[UR4][R20.64], R5" };
    static const double sec[] = { 4, 4, 4, 4, 1 }, lines[] = { 1, 1, 1, 1, 1 };
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pn_pipe_device_t pd = { 0 };
    pd.l2_sectors = 4;
    pd.atomic_serial = 1;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    pn_pipe_bounds_t b;
    pn_sass_prog_t p;
    rows_prog(&p, text, 5, sec, lines, NULL);
    p.ops[4].threads = 1;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 0);
    pd.atomic_slice_fill = 2;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 8);
    assert_int_equal(b.binding, PN_BOUND_ATOMIC);
    /* half the loads hit L1: half of each share, 1.5 steps a load: 7000 - 3500 */
    mem.l1_hit = 0.5;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 3);
    pn_sass_prog_destroy(&p);
    rows_prog(&p, text, 4, sec, lines, NULL);
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 0);
    pn_sass_prog_destroy(&p);
    /* a float RED holds the unit atomic_serial_float (5) where the port takes
     * atomic_serial (1): the loads pass in the other 4 steps, 12 - 4 = 8 of
     * theirs left (2 a load): 13000 units again, less 5000 + 2000: 6 */
    const char *ftext[5];
    memcpy(ftext, text, sizeof ftext);
    ftext[4] = "RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R20.64], R5";
    mem.l1_hit = 0;
    pd.atomic_serial_float = 5;
    rows_prog(&p, ftext, 5, sec, lines, NULL);
    p.ops[4].threads = 1;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 6);
    /* at 20 the loads pass while it holds the unit: only its 20 - 22 */
    pd.atomic_serial_float = 20;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 0);
    pn_sass_prog_destroy(&p);
    /* four stores of 4 sectors beside an integer RED: each its 4 sectors at the
     * L2's write path (l2_fill_sectors 1), 4 steps: 17000 units less 4000 + 2000 */
    static const char *const stext[] = { "STG.E desc[UR4][R10.64], R2", "STG.E desc[UR4][R12.64], R3",
                                         "STG.E desc[UR4][R14.64], R4", "STG.E desc[UR4][R16.64], R5",
                                         "RED.E.ADD.STRONG.GPU desc[UR4][R20.64], R5" };
    pd.l2_fill_sectors = 1;
    rows_prog(&p, stext, 5, sec, lines, NULL);
    p.ops[4].threads = 1;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 11);
    pn_sass_prog_destroy(&p);
    /* three such stores beside a RED whose address comes from SR_CTAID.X (a word of
     * the block's own): no accumulator, so the stores take no share and the RED's
     * one step is under the full bucket: 0. With the RED on R22 (never written, the
     * same word in every block) the stores take 4 steps each: 13000 units less
     * 4000 + 2000, 7 */
    static const char *const btext[] = { "S2R R20, SR_CTAID.X", "STG.E desc[UR4][R10.64], R2",
                                         "STG.E desc[UR4][R12.64], R3", "STG.E desc[UR4][R14.64], R4",
                                         "RED.E.ADD.STRONG.GPU desc[UR4][R20.64], R5" };
    static const double bsec[] = { 0, 4, 4, 4, 1 }, blines[] = { 0, 1, 1, 1, 1 };
    rows_prog(&p, btext, 5, bsec, blines, NULL);
    p.ops[4].threads = 1;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 0);
    pn_sass_prog_destroy(&p);
    const char *wtext[5];
    memcpy(wtext, btext, sizeof wtext);
    wtext[4] = "RED.E.ADD.STRONG.GPU desc[UR4][R22.64], R5";
    rows_prog(&p, wtext, 5, bsec, blines, NULL);
    p.ops[4].threads = 1;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 7);
    pn_sass_prog_destroy(&p);
}

/* An atomic whose old value comes back (ATOMG) takes atomic_return times a
 * reduction's (RED's) share of the L2's atomic budget: 4 of 8 sectors over 8
 * lines at l2_sectors 1 and l2_atomic_sectors 1 cost 8 steps each, 32 less the
 * full bucket (8 + 2): 22; at atomic_return 1.5 each ATOMG costs 12, 48 less
 * (12 + 2): 34; the REDs keep 22, and so do ATOMGs into RZ (nothing comes
 * back); without the key, 22. */
static void test_atomic_return(void **state)
{
    (void)state;
    static const char *atom[] = { "ATOMG.E.ADD.STRONG.GPU PT, R5, desc[UR4][R2.64], R7",
                                  "ATOMG.E.ADD.STRONG.GPU PT, R6, desc[UR4][R2.64], R7",
                                  "ATOMG.E.ADD.STRONG.GPU PT, R8, desc[UR4][R2.64], R7",
                                  "ATOMG.E.ADD.STRONG.GPU PT, R9, desc[UR4][R2.64], R7" };
    static const char *red[] = { "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R7",
                                 "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R7",
                                 "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R7",
                                 "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R7" };
    static const char *rz[] = { "ATOMG.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R7",
                                "ATOMG.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R7",
                                "ATOMG.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R7",
                                "ATOMG.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R7" };
    const double eight[4] = { 8, 8, 8, 8 };
    pn_pipe_device_t pd = { 0 };
    pd.l2_sectors = 1;
    pd.l2_atomic_sectors = 1;
    const struct { const char *const *text; double key; uint64_t steps; } c[] = {
        { atom, 0, 22 }, { atom, 1.5, 34 }, { red, 1.5, 22 }, { rz, 1.5, 22 },
    };
    for (int i = 0; i < 4; i++) {
        pn_sass_prog_t p;
        rows_prog(&p, c[i].text, 4, eight, eight, NULL);
        pd.atomic_return = c[i].key;
        pn_pipe_bounds_t b;
        bounds_pd(&p, &pd, &b);
        assert_int_equal(b.steps[PN_BOUND_L2], c[i].steps);
        pn_sass_prog_destroy(&p);
    }
}

/* Constants at a register's index (LDC c[0x3][R2]) take the SM's constant
 * cache const_index_busy steps each (examples/probe/const_index.cu); a
 * kernel parameter's LDC c[0x0][0x28] and a ULDC take nothing. One warp, 4
 * independent loads of latency LD: without the key at steps 0..3, done
 * 3 + LD + 2; at 4 steps a load (a bucket of 6 steps' units, refilled one a
 * step from the first step it has room) at 0, 3, 7 and 11: 11 + LD + 2. The
 * constant bound: 16 steps of units less the bucket's 6. */
static void test_const_index(void **state)
{
    (void)state;
    static const char *idx[] = { "LDC R5, c[0x3][R2]", "LDC R6, c[0x3][R2+0x4]",
                                 "LDC R7, c[0x3][R2+0x8]", "LDC R8, c[0x3][R2+0xc]" };
    static const char *imm[] = { "LDC R5, c[0x0][0x28]", "LDC R6, c[0x0][0x2c]",
                                 "ULDC UR5, c[0x3][UR4]", "LDC R8, c[0x0][0x30]" };
    pn_pipe_device_t pd = { 0 };
    pn_pipe_bounds_t b;
    pn_sass_prog_t p;
    rows_prog(&p, idx, 4, NULL, NULL, NULL);
    assert_int_equal(one_warp_pd(&p, &pd), 3 + LD + 2);
    pd.const_index_busy = 4;
    assert_int_equal(one_warp_pd(&p, &pd), 11 + LD + 2);
    bounds_pd(&p, &pd, &b);
    assert_int_equal(b.steps[PN_BOUND_CONST], 10);
    assert_int_equal(b.binding, PN_BOUND_CONST);
    pn_sass_prog_destroy(&p);
    rows_prog(&p, imm, 4, NULL, NULL, NULL);
    bounds_pd(&p, &pd, &b);
    assert_int_equal(b.steps[PN_BOUND_CONST], 0);
    pn_sass_prog_destroy(&p);
}

/* A constant at an index memory gave (a table looked up by the data) reads as
 * many words as the launch's measured constant-cache requests leave it: one
 * warp, a parameter's LDC (one request) and 4 LDC at a loaded index; 33
 * requests a warp leave those 8 words each, 8 x 4 = 32 steps of the cache at
 * const_index_busy 4: 128 less the bucket (32 + 2): 94. Unmeasured, one word
 * each: 16 - 6 = 10; a measure of 4 requests or fewer, still one word. */
static uint64_t loaded_const_bound(double req)
{
    static const char *lines[] = { "LDC R1, c[0x0][0x28]", "S2R R3, SR_TID.X",
                                   "IMAD.WIDE R4, R3, 0x4, R6", "LDG.E R2, desc[UR4][R4.64]",
                                   "LDC R5, c[0x3][R2]", "LDC R7, c[0x3][R2+0x4]",
                                   "LDC R8, c[0x3][R2+0x8]", "LDC R9, c[0x3][R2+0xc]" };
    pn_sass_prog_t p;
    rows_prog(&p, lines, 8, NULL, NULL, NULL);
    p.block[0] = 32, p.block[1] = p.block[2] = 1;
    pn_pipe_device_t pd = { 0 };
    pd.const_index_busy = 4;
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = 1;
    mem.const_req = req;
    pn_pipe_bounds_t b;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    pn_sass_prog_destroy(&p);
    return b.steps[PN_BOUND_CONST];
}

static void test_const_measured(void **state)
{
    (void)state;
    assert_int_equal(loaded_const_bound(33), 94);
    assert_int_equal(loaded_const_bound(-1), 10);
    assert_int_equal(loaded_const_bound(4), 10);
}

/* Lanes of one sector an execution (5 of 32 here) take a turn each of the
 * one-address rule (atomic_serial 3: 15 steps an execution) unless the
 * measured atomic_ns shows them going through at once, under two one-lane
 * turns (4 ns at 1000 MHz, 4 steps < 6: different words of the sector, a
 * warp-aggregated atomic's leaders): then one turn, at least the measure (4).
 * 4 REDs, a bucket of the largest cost and 2 steps: 60000 - 17000 units at
 * 1000 a step without the measure, 16000 - 6000 with 4 ns, and 160000 -
 * 42000 with 40 ns (the lanes' turns shown, the measure above the rule). */
static void test_atomic_lanes(void **state)
{
    (void)state;
    static const char *red[] = { "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5",
                                 "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5",
                                 "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5",
                                 "RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5" };
    static const double one[] = { 1, 1, 1, 1 };
    pn_sass_prog_t p;
    rows_prog(&p, red, 4, one, one, NULL);
    for (int i = 0; i < 4; i++)
        p.ops[i].threads = 5;
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pn_pipe_device_t pd = { 0 };
    pd.clock_mhz = 1000;
    pd.atomic_serial = 3;
    pn_memory_t mem;
    pn_memory_default(&mem);
    pn_pipe_bounds_t b;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 43);
    mem.atomic_ns = 4;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 10);
    mem.atomic_ns = 40;
    pn_test_sass_bounds(&p, &pp, &pd, &mem, &b);
    assert_int_equal(b.steps[PN_BOUND_ATOMIC], 118);
    pn_sass_prog_destroy(&p);
}

/* Texture fetches (TEX, TLD, TLD4) take the SM's texture unit tex_busy steps
 * each, twice that for 3 or 4 components (the write mask, the last operand),
 * and wait tex_latency where that is above the L1's (examples/probe/
 * tex_rate.cu). One warp, 4 independent fetches that hit L1 (LD): without the
 * keys at steps 0..3, done 3 + LD + 2; at 4 steps a fetch (a bucket of 6
 * steps' units) at 0, 3, 7, 11 as test_const_index's; with 4 components 8
 * steps (a bucket of 10) at 0, 7, 15, 23; tex_latency LD + 10 adds 10 to the
 * last. The texture bound: the units less the bucket's. */
static void test_tex_pipe(void **state)
{
    (void)state;
    static const char *one[] = { "TEX.LL RZ, R10, R2, R3, UR4, 0x0, 2D, 0x1",
                                 "TEX.LL RZ, R11, R4, R3, UR4, 0x0, 2D, 0x1",
                                 "TEX.LL RZ, R12, R5, R3, UR4, 0x0, 2D, 0x1",
                                 "TLD.LZ RZ, R13, R6, UR4, 0x0, 2D, 0x1" };
    static const char *four[] = { "TEX.LL R20, R10, R2, R3, UR4, 0x0, 2D, 0xf",
                                  "TEX.LL R22, R12, R4, R3, UR4, 0x0, 2D, 0xf",
                                  "TEX.LL R24, R14, R5, R3, UR4, 0x0, 2D, 0xf",
                                  "TEX.LL R26, R16, R6, R3, UR4, 0x0, 2D, 0xf" };
    static const double sec[] = { 4, 4, 4, 4 }, lines[] = { 1, 1, 1, 1 };
    pn_pipe_device_t pd = { 0 };
    pn_pipe_bounds_t b;
    pn_sass_prog_t p;
    rows_prog(&p, one, 4, sec, lines, NULL);
    assert_int_equal(one_warp_pd(&p, &pd), 3 + LD + 2);
    pd.tex_busy = 4;
    assert_int_equal(one_warp_pd(&p, &pd), 11 + LD + 2);
    bounds_pd(&p, &pd, &b);
    assert_int_equal(b.steps[PN_BOUND_TEX], 10);
    assert_int_equal(b.binding, PN_BOUND_TEX);
    pd.tex_latency = LD + 10;
    assert_int_equal(one_warp_pd(&p, &pd), 11 + LD + 10 + 2);
    pn_sass_prog_destroy(&p);
    pd.tex_latency = 0;
    rows_prog(&p, four, 4, sec, lines, NULL);
    assert_int_equal(one_warp_pd(&p, &pd), 23 + LD + 2);
    bounds_pd(&p, &pd, &b);
    assert_int_equal(b.steps[PN_BOUND_TEX], 22);
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

/* The arithmetic pipe's bound of 8 warps of one partition running lines
 * (16 times over, then EXIT) with the pipe at one op a step: register
 * operands that conflict (two of one bank, index mod 2, within three ops of
 * a writer of one of them) take bank_conflict steps of it. */
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
    pn_pipe_bounds_t b;
    pn_test_sass_bounds(&p, &pp, pd, &mem, &b);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_pipes),
        cmocka_unit_test(test_half_rate_pipes),
        cmocka_unit_test(test_wide_pipes),
        cmocka_unit_test(test_atomic_measured),
        cmocka_unit_test(test_atomic_slice),
        cmocka_unit_test(test_atomic_return),
        cmocka_unit_test(test_const_index),
        cmocka_unit_test(test_const_measured),
        cmocka_unit_test(test_tex_pipe),
        cmocka_unit_test(test_atomic_lanes),
        cmocka_unit_test(test_fp64_pipe),
        cmocka_unit_test(test_bank_conflicts),
        cmocka_unit_test(test_fp64_bank_conflicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
