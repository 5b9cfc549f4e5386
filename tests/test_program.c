/* test_program.c - instruction streams in program order (models/program/pn_program.c,
 * kernel.program in models/config/pn_config.c): parsing and implied counts, the
 * sequencer net's size and names, exact one-warp step counts on the literal
 * and fast engines, and barriers (the reordered programs of `pnsim reorder`:
 * tests/test_program_order.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_kernel_net.h"
#include "pn_engine.h"
#include "pn_program_net.h"
#include "pn_program_order.h"
#include "pn_rng.h"
#include "pn_sm.h"
#include "pn_stats.h"
#include "pn_test_program.h"

/* ---- helpers ------------------------------------------------------------- */

static pn_status_t load(pn_config_t *cfg, const char *text, pn_error_t *err)
{
    pn_error_clear(err);
    return pn_config_load_string(cfg, text, strlen(text), "t.yaml", err);
}

/* Load text (and evaluate its counts for `threads`) and expect an error whose
 * message starts with "t.yaml:where" and contains sub. */
static void config_fails(const char *text, uint32_t threads, const char *where, const char *sub)
{
    pn_config_t cfg;
    pn_error_t err;
    char prefix[64];
    pn_status_t st = load(&cfg, text, &err);
    if (st == PN_OK) {
        pn_warp_counts_t c[64];
        assert_true(threads <= 64 * 32);
        st = pn_config_counts(&cfg, threads, NULL, c, &err);
        pn_config_destroy(&cfg);
    }
    snprintf(prefix, sizeof prefix, "t.yaml:%s", where);
    if (st == PN_OK || strncmp(err.msg, prefix, strlen(prefix)) || !strstr(err.msg, sub))
        fail_msg("%s\ngot: %s\nexpected: %s ... %s", text, st == PN_OK ? "success" : err.msg,
                 prefix, sub);
}

/* ---- parsing --------------------------------------------------------------- */

static void test_parse_item(void **state)
{
    (void)state;
    static const struct { const char *s; int kind; uint32_t mult; } good[] = {
        { "arith", PN_KIND_ARITH, 1 }, { "shared", PN_KIND_SHARED, 1 },
        { "global", PN_KIND_GLOBAL, 1 }, { "arith*8", PN_KIND_ARITH, 8 },
        { "global * 3", PN_KIND_GLOBAL, 3 }, { "shared*1", PN_KIND_SHARED, 1 },
        { "arith*4294967295", PN_KIND_ARITH, 4294967295u }, { "arith*007", 0, 7 },
        { "sfu", PN_PROGRAM_SFU, 1 }, { "shared_st*2", PN_PROGRAM_SHARED_ST, 2 },
        { "global_st", PN_PROGRAM_GLOBAL_ST, 1 },
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        pn_program_item_t it;
        pn_error_t err;
        assert_int_equal(pn_program_parse_item(good[i].s, strlen(good[i].s), &it, &err), PN_OK);
        assert_int_equal(it.kind, good[i].kind);
        assert_int_equal(it.mult, good[i].mult);
    }
    static const struct { const char *s, *msg; } bad[] = {
        { "mul", "unknown instruction kind 'mul' (expected arith, shared, global, sfu, "
                 "shared_st or global_st" },
        { "global_ld", "unknown instruction kind 'global_ld'" },
        { "Arith", "unknown instruction kind 'Arith'" },
        { "arith2", "unknown instruction kind 'arith2'" },
        { "*3", "unknown instruction kind '*' in '*3'" },
        { "", "unknown instruction kind ''" },
        { "arith*0", "bad multiplier in 'arith*0'" },
        { "arith*", "bad multiplier in 'arith*'" },
        { "arith*-2", "bad multiplier" },
        { "arith*2.5", "bad multiplier" },
        { "arith*4294967296", "between 1 and 4294967295" },
        { "arith*99999999999999999999999", "bad multiplier" },
        { "arith*x", "bad multiplier" },
        { "arith 3", "unexpected '3' after the kind in 'arith 3'" },
        { "arith+3", "unexpected '+'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pn_program_item_t it;
        pn_error_t err;
        assert_int_equal(pn_program_parse_item(bad[i].s, strlen(bad[i].s), &it, &err), PN_EINVAL);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("'%s': got '%s', expected '%s'", bad[i].s, err.msg, bad[i].msg);
    }
}

static void test_config_program(void **state)
{
    (void)state;
    pn_config_t c;
    pn_error_t err;
    assert_int_equal(load(&c,
                          "params: {tiles: 3}\n"
                          "kernel:\n"
                          "  threads: 96\n"
                          "  program:\n"
                          "    - {repeat: tiles, body: [global*2, shared, arith*8]}\n"
                          "    - {repeat: \"warp + 1\", body: [arith]}\n"
                          "    - {repeat: 0, body: [global*1000]}\n"
                          "    - body: [shared, shared]\n"
                          "  warps:\n"
                          "    - {warp: 2, program: [{repeat: 5, body: [global]}]}\n", &err),
                     PN_OK);
    assert_true(c.has_program);
    assert_int_equal(c.program.n_segs, 4);
    assert_int_equal(c.program.segs[0].n_body, 3);
    assert_int_equal(c.program.segs[0].body[0].kind, PN_KIND_GLOBAL);
    assert_int_equal(c.program.segs[0].body[0].mult, 2);
    assert_int_equal(c.program.segs[0].repeat.pos.line, 5);
    assert_int_equal(c.program.segs[0].repeat.pos.col, 16);
    assert_null(c.program.segs[3].repeat.text);        /* absent: once */
    assert_int_equal(c.n_overrides, 1);
    assert_non_null(c.overrides[0].program.segs);

    /* counts: 3 * (8 arith, 1 shared, 2 global) + (warp + 1) arith + 2 shared */
    pn_warp_counts_t w[3];
    assert_int_equal(pn_config_counts(&c, 96, NULL, w, &err), PN_OK);
    assert_int_equal(w[0].arith, 25);
    assert_int_equal(w[0].shared, 5);
    assert_int_equal(w[0].global, 6);
    assert_int_equal(w[1].arith, 26);
    assert_int_equal(w[1].shared, 5);
    assert_int_equal(w[2].arith, 0);
    assert_int_equal(w[2].shared, 0);
    assert_int_equal(w[2].global, 5);
    /* params given per call, as a sweep does */
    double tiles = 10;
    assert_int_equal(pn_config_counts(&c, 96, &tiles, w, &err), PN_OK);
    assert_int_equal(w[1].arith, 82);

    pn_program_t p[3];
    assert_int_equal(pn_config_programs(&c, 96, NULL, p, &err), PN_OK);
    assert_int_equal(p[0].n_segs, 4);
    assert_int_equal(p[0].segs[0].repeat, 3);
    assert_int_equal(p[1].segs[1].repeat, 2);
    assert_int_equal(p[0].segs[2].repeat, 0);
    assert_int_equal(p[0].segs[3].repeat, 1);
    assert_int_equal(p[2].n_segs, 1);
    assert_int_equal(p[2].segs[0].repeat, 5);
    for (int i = 0; i < 3; i++) {
        pn_warp_counts_t pc = counts_of(&p[i]);
        pn_config_counts(&c, 96, NULL, w, &err);
        assert_memory_equal(&pc, &w[i], sizeof pc);
        pn_program_destroy(&p[i]);
    }
    char buf[256];
    assert_int_equal(pn_config_programs(&c, 32, NULL, p, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "t.yaml:10:7: kernel.warps[0]: warp 2 does not exist"));
    pn_config_destroy(&c);

    /* overrides alone: the other warps run nothing */
    assert_int_equal(load(&c, "kernel: {threads: 64, warps: [{warp: 1, program: "
                              "[{repeat: 2, body: [arith*3]}]}]}\n", &err), PN_OK);
    assert_true(c.has_program);
    assert_int_equal(pn_config_counts(&c, 64, NULL, w, &err), PN_OK);
    assert_int_equal(w[0].arith, 0);
    assert_int_equal(w[1].arith, 6);
    assert_int_equal(pn_config_programs(&c, 64, NULL, p, &err), PN_OK);
    assert_int_equal(p[0].n_segs, 0);
    assert_string_equal(pn_program_format(&p[1], buf, sizeof buf),
                        "[{repeat: 2, body: [arith*3]}]");
    pn_program_destroy(&p[0]);
    pn_program_destroy(&p[1]);
    pn_config_destroy(&c);

    /* counts configs: no program, empty programs */
    assert_int_equal(load(&c, "kernel: {threads: 32, counts: {arith: 4}}\n", &err), PN_OK);
    assert_false(c.has_program);
    assert_int_equal(pn_config_programs(&c, 32, NULL, p, &err), PN_OK);
    assert_int_equal(p[0].n_segs, 0);
    pn_program_destroy(&p[0]);
    pn_config_destroy(&c);
}

static void test_config_errors(void **state)
{
    (void)state;
    config_fails("kernel:\n  threads: 32\n  counts: {arith: 1}\n  program: [{body: [arith]}]\n",
                 32, "4:3: ", "kernel.program cannot be given together with kernel.counts "
                 "(line 3, column 3)");
    config_fails("kernel:\n  threads: 32\n  program: [{body: [arith]}]\n  counts: {arith: 1}\n",
                 32, "4:3: ", "kernel.counts cannot be given together with kernel.program");
    config_fails("kernel:\n  threads: 64\n  program: [{body: [arith]}]\n"
                 "  warps: [{warp: 1, shared: 3}]\n", 64, "4:21: ",
                 "kernel.warps[0].shared cannot be given together with kernel.program");
    config_fails("kernel:\n  threads: 64\n  counts: {arith: 1}\n"
                 "  warps: [{warp: 1, program: [{body: [arith]}]}]\n", 64, "4:21: ",
                 "kernel.warps[0].program cannot be given together with kernel.counts");
    config_fails("kernel:\n  threads: 64\n"
                 "  warps: [{warp: 1, program: [{body: [arith]}], arith: 2}]\n", 64, "3:49: ",
                 "kernel.warps[0].arith cannot be given together with kernel.warps[0].program");
    config_fails("kernel: {threads: 32, program: {repeat: 1}}\n", 32, "1:32: ",
                 "kernel.program must be a list, got a mapping");
    config_fails("kernel: {threads: 32, program: []}\n", 32, "1:32: ",
                 "kernel.program must be a non-empty list of segments");
    config_fails("kernel: {threads: 32, program: [arith]}\n", 32, "1:33: ",
                 "kernel.program[0] must be a mapping, got scalar 'arith'");
    config_fails("kernel: {threads: 32, program: [{repeat: 2}]}\n", 32, "1:33: ",
                 "kernel.program[0]: missing key 'body'");
    config_fails("kernel: {threads: 32, program: [{body: arith}]}\n", 32, "1:40: ",
                 "kernel.program[0].body must be a list, got scalar 'arith'");
    config_fails("kernel: {threads: 32, program: [{body: []}]}\n", 32, "1:40: ",
                 "kernel.program[0].body must be a non-empty list of instruction kinds");
    config_fails("kernel: {threads: 32, program: [{body: [arith, ~]}]}\n", 32, "1:48: ",
                 "kernel.program[0].body[1] must be an instruction kind");
    config_fails("kernel: {threads: 32, program: [{body: [arith, {a: 1}]}]}\n", 32, "1:48: ",
                 "kernel.program[0].body[1] must be an instruction kind");
    config_fails("kernel: {threads: 32, program: [{body: [fma]}]}\n", 32, "1:41: ",
                 "kernel.program[0].body[0]: unknown instruction kind 'fma'");
    config_fails("kernel: {threads: 32, program: [{body: [arith*0]}]}\n", 32, "1:41: ",
                 "kernel.program[0].body[0]: bad multiplier in 'arith*0'");
    config_fails("kernel: {threads: 32, program: [{body: [arith], times: 2}]}\n", 32, "1:49: ",
                 "unknown key 'times' in kernel.program[0] (expected one of: repeat, body)");
    config_fails("kernel: {threads: 32, program: [{repeat: -2, body: [arith]}]}\n", 32, "1:42: ",
                 "kernel.program[0].repeat: count '-2' evaluates to -2");
    config_fails("kernel: {threads: 32, program: [{repeat: 1e10, body: [arith]}]}\n", 32,
                 "1:42: ", "kernel.program[0].repeat: count '1e10' evaluates to 1e+10");
    config_fails("kernel: {threads: 32, program: [{repeat: 2 * q, body: [arith]}]}\n", 32,
                 "1:42: ", "kernel.program[0].repeat: unknown variable 'q'");
    config_fails("kernel: {threads: 32, program: [{repeat: \"2 +\", body: [arith]}]}\n", 32,
                 "1:42: ", "invalid count expression '2 +'");
    config_fails("kernel: {threads: 32, program: [{repeat: ~, body: [arith]}]}\n", 32,
                 "1:42: ", "kernel.program[0].repeat must be a number or an expression");
    /* evaluated per warp: the warp is named */
    config_fails("kernel: {threads: 64, program: [{repeat: \"1 - warp * 2\", body: [arith]}]}\n",
                 64, "1:42: ", "evaluates to -1 for warp 1 (threads 64)");
    /* the implied counts must stay within the limit */
    config_fails("kernel: {threads: 32, program: [{repeat: 3, body: [global*2000000000]}]}\n",
                 32, "1:42: ", "kernel.program[0].repeat: repeat 3 makes warp 0 run more than "
                 "4294967295 global instructions");
    config_fails("kernel: {threads: 32, program: [{repeat: 4294967295, body: [arith]},"
                 " {body: [arith]}]}\n", 32, "1:70: ",
                 "kernel.program[1]: repeat 1 makes warp 0 run more than 4294967295 arith");
    config_fails("kernel: {threads: 32, warps: [{warp: 0, program: [{repeat: -1, body: "
                 "[arith]}]}]}\n", 32, "1:60: ", "kernel.warps[0].program[0].repeat: count");
    config_fails("kernel: {threads: 32, warps: [{warp: 0, program: []}]}\n", 32, "1:50: ",
                 "kernel.warps[0].program must be a non-empty list");
    /* unknown keys: program is among the expected ones */
    config_fails("kernel: {threads: 32, programme: []}\n", 32, "1:23: ",
                 "unknown key 'programme' in kernel (expected one of: name, threads, counts, "
                 "program, warps, memory, blocks, registers, shared_bytes, sass)");
    config_fails("kernel: {threads: 32, warps: [{warp: 0, prog: []}]}\n", 32, "1:41: ",
                 "unknown key 'prog' in kernel.warps[0] (expected one of: warp, arith, shared, "
                 "global, sfu, shared_ld, shared_st, global_ld, global_st, barriers, program)");
    config_fails("kernel: {threads: 32, program: [{body: [arith]}], program: []}\n", 32,
                 "1:51: ", "duplicate key 'program' in kernel (first at line 1, column 23)");
    config_fails("kernel: {threads: 32, [a]: 1, program: []}\n", 32, "1:23: ",
                 "in kernel: a key must be a plain name");
}

/* ---- the net ------------------------------------------------------------- */

static void test_net_size(void **state)
{
    (void)state;
    /* the same text with repeats and multipliers of any size > 1: one size */
    static const uint64_t reps[] = { 1, 2, 7, 1000, 4294967295u / 4000 };
    static const char *const texts[][2] = {
        { "global*2 shared arith*8", "arith" },
        { "global*9 shared arith*1000", "arith" },
    };
    for (size_t t = 0; t < 2; t++)
        for (size_t i = 0; i < sizeof reps / sizeof reps[0]; i++) {
            pn_program_t p[3];
            pn_net_t net;
            pn_sm_layout_t lay;
            for (int w = 0; w < 3; w++) {
                pn_program_init(&p[w]);
                seg(&p[w], reps[i], texts[t][0]);
                seg(&p[w], reps[(i + w) % 5], texts[t][1]);
            }
            uint32_t pl, tr;
            pn_program_warp_size(&p[0], &pl, &tr);
            /* items 3 + 1, counted items 2, segments 2: 16 + 8 and 12 + 8 */
            assert_int_equal(pl, 24);
            assert_int_equal(tr, 20);
            build(&net, &lay, 4, 20, 2, 3, p);
            assert_int_equal(net.n_places, 2 + 3 * 24);
            assert_int_equal(net.n_trans, 1 + 3 * 20);
            /* arcs (models/program/PROGRAM.md): inputs 21 + (2*3+3) + (2*1+3) + 3*2, outputs
             * 17 + (3*3+3) + (3*1+3) + 3*2 + 2 (K-1 into r1_1 by the loop, into
             * r1_3 by s1_2), inhibitors 3 + 2 + 1 + 2 per warp; t0 2 + 2 */
            assert_int_equal(pn_net_n_arcs(&net, PN_ARC_INPUT), 2 + 3 * 41);
            assert_int_equal(pn_net_n_arcs(&net, PN_ARC_OUTPUT), 2 + 3 * 43);
            assert_int_equal(pn_net_n_arcs(&net, PN_ARC_INHIBITOR), 3 * 8);
            assert_int_equal(lay.p0, 0);
            assert_int_equal(lay.pw, 1);
            assert_int_equal(lay.t0, 0);
            assert_int_equal(lay.warp_place0, 2);
            assert_int_equal(lay.warp_trans0, 1);
            pn_net_destroy(&net);
            for (int w = 0; w < 3; w++)
                pn_program_destroy(&p[w]);
        }

    /* multipliers of 1 everywhere: places 16 + sum(k_j + 1), transitions
     * 12 + sum(k_j + 1); arcs 21 + sum(2 k_j + 3) inputs, 17 + sum(3 k_j + 3)
     * outputs, 2 + 1 + (segments) inhibitors per warp, t0's 2 + 2 */
    static const uint32_t shapes[][4] = { { 1 }, { 3 }, { 1, 1 }, { 2, 5, 1 }, { 4, 4, 4, 4 } };
    static const uint32_t n_shape[] = { 1, 1, 2, 3, 4 };
    for (size_t s = 0; s < 5; s++) {
        pn_program_t p[2];
        uint32_t sumk = 0;
        for (int w = 0; w < 2; w++) {
            pn_program_init(&p[w]);
            for (uint32_t j = 0; j < n_shape[s]; j++) {
                char body[128] = "";
                for (uint32_t i = 0; i < shapes[s][j]; i++)
                    strcat(body, i % 3 == 0 ? "arith " : i % 3 == 1 ? "global " : "shared ");
                body[strlen(body) - 1] = '\0';
                seg(&p[w], 3 + j + (uint32_t)w * 100, body);
                if (w == 0)
                    sumk += shapes[s][j];
            }
        }
        uint32_t nj = n_shape[s];
        pn_net_t net;
        pn_sm_layout_t lay;
        build(&net, &lay, 2, 5, 3, 2, p);
        assert_int_equal(net.n_places, 2 + 2 * (16 + sumk + nj));
        assert_int_equal(net.n_trans, 1 + 2 * (12 + sumk + nj));
        assert_int_equal(pn_net_n_arcs(&net, PN_ARC_INPUT), 2 + 2 * (21 + 2 * sumk + 3 * nj));
        assert_int_equal(pn_net_n_arcs(&net, PN_ARC_OUTPUT), 2 + 2 * (17 + 3 * sumk + 3 * nj));
        assert_int_equal(pn_net_n_arcs(&net, PN_ARC_INHIBITOR), 2 * (3 + nj));
        pn_net_destroy(&net);
        pn_program_destroy(&p[0]);
        pn_program_destroy(&p[1]);
    }

    /* a counted first item after a segment: entered by the previous exit and its loop */
    {
        pn_program_t q;
        pn_net_t net;
        pn_sm_layout_t lay;
        pn_program_init(&q);
        seg(&q, 2, "arith");
        seg(&q, 5, "global*3 arith");
        build(&net, &lay, 1, 3, 3, 1, &q);
        assert_int_equal(net.n_places, 2 + 16 + 2 + 4);
        assert_int_equal(net.n_trans, 1 + 12 + 2 + 4);
        assert_int_equal(pn_net_n_arcs(&net, PN_ARC_INPUT), 2 + 21 + 5 + 7 + 3);
        assert_int_equal(pn_net_n_arcs(&net, PN_ARC_OUTPUT), 2 + 17 + 6 + 9 + 3 + 2);
        assert_int_equal(pn_net_n_arcs(&net, PN_ARC_INHIBITOR), 3 + 2 + 1);
        pn_net_destroy(&net);
        pn_program_destroy(&q);
    }

    /* a segment repeated 0 times is dropped; an empty program is frame II-IV only */
    pn_program_t p[2];
    pn_program_init(&p[0]);
    pn_program_init(&p[1]);
    seg(&p[0], 0, "global*5 arith");
    seg(&p[0], 2, "arith");
    uint32_t pl, tr;
    pn_program_warp_size(&p[0], &pl, &tr);
    assert_int_equal(pl, 16 + 2);
    assert_int_equal(tr, 12 + 2);
    pn_program_warp_size(&p[1], &pl, &tr);
    assert_int_equal(pl, 16);
    assert_int_equal(tr, 12);
    pn_net_t net;
    pn_sm_layout_t lay;
    build(&net, &lay, 1, 1, 1, 2, p);
    assert_int_equal(net.n_places, 2 + 18 + 16);
    assert_int_equal(net.n_trans, 1 + 14 + 12);
    pn_net_destroy(&net);
    pn_program_destroy(&p[0]);
}

static uint64_t m0_of(const pn_net_t *net, const char *name)
{
    int64_t id = pn_net_find_place(net, name);
    if (id < 0)
        fail_msg("no place %s", name);
    return net->m0[id];
}

static void test_names_and_marking(void **state)
{
    (void)state;
    pn_program_t p[2];
    pn_program_init(&p[0]);
    pn_program_init(&p[1]);
    seg(&p[0], 0, "global");
    seg(&p[0], 4, "arith*3 global shared*2");
    seg(&p[0], 1, "arith");
    seg(&p[1], 3, "shared");
    pn_net_t net;
    pn_sm_layout_t lay;
    build(&net, &lay, 4, 20, 2, 2, p);
    /* frame I is gone, frames II-IV stay */
    static const char *const gone[] = { "w0.p5", "w0.p7", "w0.p9", "w1.p5" };
    for (size_t i = 0; i < 4; i++)
        assert_true(pn_net_find_place(&net, gone[i]) < 0);
    assert_true(pn_net_find_transition(&net, "w0.t2") < 0);
    assert_true(pn_net_find_transition(&net, "w0.t4") < 0);
    static const char *const kept[] = { "w0.t1", "w0.t5", "w0.t6", "w0.t7", "w0.t8", "w0.t9",
                                        "w0.t11", "w0.t12", "w0.t14", "w0.t15", "w0.t16",
                                        "w0.t17", "w1.t16" };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        assert_true(pn_net_find_transition(&net, kept[i]) >= 0);
    /* segment 1 (repeat 0) dropped; segment 2 starts, its counters set */
    assert_true(pn_net_find_place(&net, "w0.q1_1") < 0);
    assert_true(pn_net_find_place(&net, "w0.c1") < 0);
    assert_int_equal(m0_of(&net, "w0.q2_1"), 1);
    assert_int_equal(m0_of(&net, "w0.r2_1"), 2);
    assert_int_equal(m0_of(&net, "w0.q2_2"), 0);
    assert_true(pn_net_find_place(&net, "w0.r2_2") < 0);
    assert_int_equal(m0_of(&net, "w0.r2_3"), 0);
    assert_int_equal(m0_of(&net, "w0.c2"), 3);
    assert_int_equal(m0_of(&net, "w0.q3_1"), 0);
    assert_int_equal(m0_of(&net, "w0.c3"), 0);
    assert_int_equal(m0_of(&net, "w0.end"), 0);
    assert_int_equal(m0_of(&net, "w1.q1_1"), 1);
    assert_int_equal(m0_of(&net, "w1.c1"), 2);
    assert_int_equal(m0_of(&net, "w0.p1"), 1);
    assert_int_equal(m0_of(&net, "w0.p3"), 1);
    assert_int_equal(m0_of(&net, "p0"), 4);
    assert_int_equal(m0_of(&net, "pw"), 2);
    static const char *const trans[] = { "w0.s2_1_rep", "w0.s2_1", "w0.s2_2", "w0.s2_3_rep",
                                         "w0.s2_3_loop", "w0.s2_3_exit", "w0.s3_1_loop",
                                         "w0.s3_1_exit", "w1.s1_1_loop", "w1.s1_1_exit" };
    for (size_t i = 0; i < sizeof trans / sizeof trans[0]; i++)
        if (pn_net_find_transition(&net, trans[i]) < 0)
            fail_msg("no transition %s", trans[i]);
    assert_true(pn_net_find_transition(&net, "w0.s2_2_rep") < 0);
    /* s2_1 enters item 2, s2_3_exit enters segment 3, s3_1_exit ends; the
     * loop refills r2_1 with 2 tokens; t16 needs end */
    int64_t loop = pn_net_find_transition(&net, "w0.s2_3_loop");
    int64_t r21 = pn_net_find_place(&net, "w0.r2_1");
    int found = 0;
    for (uint32_t i = net.out_off[loop]; i < net.out_off[loop + 1]; i++)
        found |= net.out[i].place == (uint32_t)r21 && net.out[i].weight == 2;
    assert_true(found);
    int64_t t16 = pn_net_find_transition(&net, "w0.t16");
    int64_t end = pn_net_find_place(&net, "w0.end");
    assert_int_equal(net.inh_off[t16 + 1] - net.inh_off[t16], 0);
    found = 0;
    for (uint32_t i = net.in_off[t16]; i < net.in_off[t16 + 1]; i++)
        found |= net.in[i].place == (uint32_t)end;
    assert_true(found);

    /* the sm engine runs program order (auto, compiled); fast runs the net */
    pn_prepared_t prep;
    pn_error_t err;
    pn_run_opts_t o = { .max_steps = 1000, .idle_trans = lay.t0 };
    pn_warp_counts_t wc[2] = { counts_of(&p[0]), counts_of(&p[1]) };
    pn_sm_params_t smp = { 4, 20, 2, 2, wc };
    assert_int_equal(pn_program_net_engine(&prep, PN_ENGINE_AUTO, &smp, p, &net, &o, &err),
                     PN_OK);
    assert_string_equal(pn_engine_prepared_name(&prep), "sm");
    pn_engine_release(&prep);
    assert_int_equal(pn_program_net_engine(&prep, PN_ENGINE_FAST, &smp, p, &net, &o, &err),
                     PN_OK);
    assert_string_equal(pn_engine_prepared_name(&prep), "fast");
    pn_engine_release(&prep);
    pn_net_destroy(&net);

    /* an empty program starts with end marked */
    pn_program_destroy(&p[0]);
    build(&net, &lay, 4, 20, 2, 1, p);
    assert_int_equal(m0_of(&net, "w0.end"), 1);
    pn_net_destroy(&net);
    pn_program_destroy(&p[1]);
}

/* ---- timing ---------------------------------------------------------------- */

/* A run of the sm engine on `warps` warps running progs (it plans from the
 * parameters and the programs, not from a net). */
static pn_run_result_t run_sm(uint32_t sched, uint32_t l1, uint32_t l2, uint32_t warps,
                              const pn_program_t *progs, uint64_t seed)
{
    pn_warp_counts_t c[8];
    assert_true(warps <= 8);
    for (uint32_t w = 0; w < warps; w++)
        c[w] = counts_of(&progs[w]);
    pn_sm_params_t sp = { sched, l1, l2, warps, c };
    pn_net_t none;
    pn_net_init(&none);
    pn_run_opts_t o = { .max_steps = 100000000, .net_name = "t" };
    pn_prepared_t prep;
    pn_run_result_t r;
    pn_error_t err;
    if (pn_program_net_engine(&prep, PN_ENGINE_COMPILED, &sp, progs, &none, &o, &err) != PN_OK ||
        pn_engine_run_prepared(&prep, seed, &r, &err) != PN_OK)
        fail_msg("sm: %s", err.msg);
    assert_string_equal(pn_engine_prepared_name(&prep), "sm");
    pn_engine_release(&prep);
    return r;
}

/* One warp: steps = 4 x_a + (5+l1) x_g + (5+l2) x_s + 1 and the idle steps of
 * the standard WPNM of its counts, whatever the order, on literal and fast. */
static void check_one_warp(const pn_program_t *p, uint32_t sched, uint32_t l1, uint32_t l2)
{
    pn_warp_counts_t c = counts_of(p);
    pn_net_t net, ref;
    pn_sm_layout_t lay, rlay;
    build(&net, &lay, sched, l1, l2, 1, p);
    pn_sm_params_t sp = { sched, l1, l2, 1, &c };
    pn_net_init(&ref);
    assert_int_equal(pn_sm_build(&ref, &sp, &rlay, NULL), PN_OK);
    pn_run_result_t want = run1(PN_ENGINE_LITERAL, &ref, rlay.t0, 1);
    assert_int_equal(want.steps, pn_sm_single_warp_steps(&c, l1, l2));
    for (uint64_t seed = 1; seed <= 2; seed++) {
        pn_run_result_t a = run1(PN_ENGINE_LITERAL, &net, lay.t0, seed);
        pn_run_result_t b = run1(PN_ENGINE_FAST, &net, lay.t0, seed);
        pn_run_result_t d = run_sm(sched, l1, l2, 1, p, seed);
        if (a.steps != want.steps || b.steps != want.steps || a.idle_steps != want.idle_steps ||
            b.idle_steps != want.idle_steps || d.steps != want.steps ||
            d.idle_steps != want.idle_steps || d.firings != want.firings) {
            char buf[512];
            fail_msg("%s, S=%u l1=%u l2=%u: literal %" PRIu64 "/%" PRIu64 ", fast %" PRIu64
                     "/%" PRIu64 ", sm %" PRIu64 "/%" PRIu64 ", expected %" PRIu64 "/%" PRIu64,
                     pn_program_format(p, buf, sizeof buf), sched, l1, l2, a.steps,
                     a.idle_steps, b.steps, b.idle_steps, d.steps, d.idle_steps, want.steps,
                     want.idle_steps);
        }
        /* firings: the WPNM's, as one sequencer transition replaces each t2/t3/t4 */
        assert_int_equal(a.firings, want.firings);
    }
    pn_net_destroy(&net);
    pn_net_destroy(&ref);
}

static void test_one_warp_formula(void **state)
{
    (void)state;
    static const uint32_t lat[][3] = { { 4, 20, 2 }, { 1, 1, 1 }, { 2, 7, 13 }, { 1, 300, 40 } };
    for (int v = 0; v < 8; v++)
        for (size_t l = 0; l < 4; l++) {
            pn_program_t p;
            pn_program_init(&p);
            switch (v) {
            case 0: seg(&p, 3, "global*2 shared arith*8"); seg(&p, 5, "arith"); break;
            case 1: seg(&p, 100, "arith"); break;
            case 2: seg(&p, 10, "global"); break;
            case 3: seg(&p, 1, "arith*10"); seg(&p, 1, "shared*5 global*5"); break;
            case 4: seg(&p, 7, "shared global arith"); break;
            case 5: seg(&p, 4, "arith*3 global arith*2"); seg(&p, 0, "shared"); seg(&p, 2, "global*2"); break;
            case 6: break;                                        /* empty: t16 at step 1 */
            case 7: seg(&p, 0, "arith"); seg(&p, 0, "global"); break;
            }
            check_one_warp(&p, lat[l][0], lat[l][1], lat[l][2]);
            pn_program_destroy(&p);
        }
    /* random programs */
    pn_rng_t r;
    pn_rng_seed(&r, 77);
    static const char *const kinds[] = { "arith", "shared", "global" };
    for (int i = 0; i < 40; i++) {
        pn_program_t p;
        pn_program_init(&p);
        uint32_t ns = 1 + pn_rng_below(&r, 3);
        for (uint32_t j = 0; j < ns; j++) {
            char body[256] = "";
            uint32_t k = 1 + pn_rng_below(&r, 4);
            for (uint32_t t = 0; t < k; t++) {
                uint32_t mult = pn_rng_below(&r, 3) ? 1 : 2 + pn_rng_below(&r, 4);
                char item[32];
                snprintf(item, sizeof item, mult > 1 ? "%s*%u " : "%s ",
                         kinds[pn_rng_below(&r, 3)], mult);
                strcat(body, item);
            }
            body[strlen(body) - 1] = '\0';
            seg(&p, pn_rng_below(&r, 5), body);
        }
        check_one_warp(&p, 1 + pn_rng_below(&r, 4), 1 + pn_rng_below(&r, 60),
                       1 + pn_rng_below(&r, 10));
        pn_program_destroy(&p);
    }
}

/* Fixed programs on an SM with a scheduler for every warp: no conflicts, so
 * literal and fast give the same run for every seed. With fewer schedulers
 * the warps compete at random: same distribution (means within 4 standard
 * errors over fixed seeds). */
static void test_literal_equals_fast(void **state)
{
    (void)state;
    pn_program_t p[4];
    for (int w = 0; w < 4; w++)
        pn_program_init(&p[w]);
    seg(&p[0], 6, "global*2 arith*5");
    seg(&p[1], 3, "shared arith global");
    seg(&p[1], 2, "arith*7");
    seg(&p[2], 9, "global");
    seg(&p[2], 1, "shared*4 arith*3");
    seg(&p[3], 20, "arith");
    pn_net_t net;
    pn_sm_layout_t lay;
    build(&net, &lay, 4, 20, 2, 4, p);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        pn_run_result_t a = run1(PN_ENGINE_LITERAL, &net, lay.t0, seed);
        pn_run_result_t b = run1(PN_ENGINE_FAST, &net, lay.t0, seed);
        pn_run_result_t d = run_sm(4, 20, 2, 4, p, seed);
        assert_int_equal(a.steps, b.steps);
        assert_int_equal(a.idle_steps, b.idle_steps);
        assert_int_equal(a.firings, b.firings);
        assert_int_equal(d.steps, a.steps);
        assert_int_equal(d.idle_steps, a.idle_steps);
        assert_int_equal(d.firings, a.firings);
    }
    pn_net_destroy(&net);

    build(&net, &lay, 1, 20, 2, 4, p);
    enum { N = 200 };
    uint64_t sa[N], sb[N], sd[N];
    for (int i = 0; i < N; i++) {
        sa[i] = run1(PN_ENGINE_LITERAL, &net, lay.t0, (uint64_t)i + 1).steps;
        sb[i] = run1(PN_ENGINE_FAST, &net, lay.t0, (uint64_t)i + 1).steps;
        sd[i] = run_sm(1, 20, 2, 4, p, (uint64_t)i + 1).steps;
    }
    pn_summary_t a, b, d;
    pn_summary_of(sa, N, &a);
    pn_summary_of(sb, N, &b);
    pn_summary_of(sd, N, &d);
    double se = sqrt((a.sd * a.sd + b.sd * b.sd) / N);
    assert_true(a.sd > 0);                      /* genuinely random */
    if (fabs(a.mean - b.mean) > 4 * se + 1e-9)
        fail_msg("literal mean %.2f, fast mean %.2f, se %.2f", a.mean, b.mean, se);
    se = sqrt((a.sd * a.sd + d.sd * d.sd) / N);
    if (fabs(a.mean - d.mean) > 4 * se + 1e-9)
        fail_msg("literal mean %.2f, sm mean %.2f, se %.2f", a.mean, d.mean, se);
    pn_net_destroy(&net);
    for (int w = 0; w < 4; w++)
        pn_program_destroy(&p[w]);
}

/* Barriers (sync items): one warp loses 3 steps per barrier (arrive, release,
 * resume), 2 of them idle, on both engines; two warps wait for each other. */
static void test_sync(void **state)
{
    (void)state;
    pn_program_t p[2], q;
    pn_program_init(&p[0]);
    pn_program_init(&q);
    seg(&p[0], 3, "global*2 sync shared arith*8");
    seg(&p[0], 2, "sync");
    seg(&q, 3, "global*2 shared arith*8");
    assert_int_equal(pn_program_syncs(&p[0]), 5);
    pn_warp_counts_t c = counts_of(&p[0]);
    assert_int_equal(c.arith, 24);
    assert_int_equal(c.global, 6);
    uint32_t places, trans;
    pn_program_warp_size(&p[0], &places, &trans);
    /* items + counted items + sync items + 1 per segment */
    assert_int_equal(places, 16 + (4 + 2 + 1 + 1) + (1 + 0 + 1 + 1));
    assert_int_equal(trans, places - 4);
    pn_net_t net, ref;
    pn_sm_layout_t lay, lr;
    build(&net, &lay, 2, 20, 2, 1, p);
    build(&ref, &lr, 2, 20, 2, 1, &q);
    assert_int_equal(net.n_places, 2 + places + 2);      /* b0.arr, b0.rel */
    char buf[160];
    assert_string_equal(pn_program_format(&p[0], buf, sizeof buf),
                        "[{repeat: 3, body: [global*2, sync, shared, arith*8]}, "
                        "{repeat: 2, body: [sync]}]");
    pn_run_result_t r0 = run1(PN_ENGINE_LITERAL, &ref, lr.t0, 1);
    assert_int_equal(r0.steps, pn_sm_single_warp_steps(&c, 20, 2));
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pn_run_result_t a = run1(PN_ENGINE_LITERAL, &net, lay.t0, seed);
        pn_run_result_t b = run1(PN_ENGINE_FAST, &net, lay.t0, seed);
        pn_run_result_t d = run_sm(2, 20, 2, 1, p, seed);
        assert_int_equal(a.steps, r0.steps + 3 * 5);
        assert_int_equal(a.idle_steps, r0.idle_steps + 2 * 5);
        assert_int_equal(b.steps, a.steps);
        assert_int_equal(b.idle_steps, a.idle_steps);
        assert_int_equal(d.steps, a.steps);
        assert_int_equal(d.idle_steps, a.idle_steps);
        assert_int_equal(d.firings, a.firings);
    }
    pn_net_destroy(&net);
    pn_net_destroy(&ref);
    /* A: global, sync, arith; B: arith, sync, global. Alone each takes 25 + 4 + 1
     * (+3) steps; together B's global waits for A's: 25 + 3 + 25 + 1 = 54 */
    pn_program_t ab[2];
    pn_program_init(&ab[0]);
    pn_program_init(&ab[1]);
    seg(&ab[0], 1, "global sync arith");
    seg(&ab[1], 1, "arith sync global");
    build(&net, &lay, 4, 20, 2, 2, ab);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        assert_int_equal(run1(PN_ENGINE_LITERAL, &net, lay.t0, seed).steps, 54);
        assert_int_equal(run1(PN_ENGINE_FAST, &net, lay.t0, seed).steps, 54);
        assert_int_equal(run_sm(4, 20, 2, 2, ab, seed).steps, 54);
    }
    pn_net_destroy(&net);
    /* warps passing different numbers of barriers would deadlock: refused */
    pn_program_t bad[2];
    pn_program_init(&bad[0]);
    pn_program_init(&bad[1]);
    seg(&bad[0], 2, "arith sync");
    seg(&bad[1], 1, "arith sync");
    pn_error_t err;
    pn_net_init(&net);
    assert_int_equal(pn_program_net_build(&net, 2, 20, 2, 2, bad, NULL, &err), PN_EINVAL);
    assert_string_equal(err.msg, "warp 1 passes 1 barriers and warp 0 2; every warp of a block "
                                 "passes the same barriers");
    pn_net_destroy(&net);
    pn_program_item_t it;
    assert_int_equal(pn_program_parse_item("sync*2", 6, &it, &err), PN_EINVAL);
    assert_string_equal(err.msg, "unexpected text after sync in 'sync*2' (a barrier takes no "
                                 "multiplier)");
    for (int w = 0; w < 2; w++) {
        pn_program_destroy(&ab[w]);
        pn_program_destroy(&bad[w]);
    }
    pn_program_destroy(&p[0]);
    pn_program_destroy(&q);
}

/* ---- argument errors --------------------------------------------------------- */

static void test_bad_args(void **state)
{
    (void)state;
    pn_program_t p;
    pn_error_t err;
    pn_program_item_t it = { PN_KIND_ARITH, 1 }, bad_kind = { PN_PROGRAM_KINDS, 1 }, zero = { 0, 0 };
    pn_program_item_t sync2 = { PN_PROGRAM_SYNC, 2 };
    pn_program_init(&p);
    assert_int_equal(pn_program_add_segment(&p, 1, &it, 0, &err), PN_EINVAL);
    assert_int_equal(pn_program_add_segment(&p, 1, &bad_kind, 1, &err), PN_EINVAL);
    assert_int_equal(pn_program_add_segment(&p, 1, &zero, 1, &err), PN_EINVAL);
    assert_int_equal(pn_program_add_segment(&p, 1, &sync2, 1, &err), PN_EINVAL);
    assert_string_equal(err.msg, "sync takes no multiplier");
    assert_int_equal(pn_program_add_segment(&p, PN_SM_MAX_COUNT + 1, &it, 1, &err), PN_EINVAL);
    assert_int_equal(p.n_segs, 0);
    for (int i = 0; i < 10; i++)          /* grows */
        assert_int_equal(pn_program_add_segment(&p, 1, &it, 1, &err), PN_OK);
    assert_int_equal(p.n_segs, 10);
    char buf[32];
    assert_string_equal(pn_program_format(&p, buf, sizeof buf), "[{repeat: 1, body: [arith]}...");
    pn_program_destroy(&p);
    pn_program_destroy(NULL);

    /* counts above the limit */
    pn_program_item_t huge = { PN_KIND_SHARED, 4000000000u };
    pn_warp_counts_t c;
    assert_int_equal(pn_program_add_segment(&p, 2, &huge, 1, &err), PN_OK);
    assert_int_equal(pn_program_counts(&p, &c, &err), PN_ELIMIT);
    assert_non_null(strstr(err.msg, "shared"));
    pn_net_t net;
    pn_net_init(&net);
    assert_int_equal(pn_program_net_build(&net, 1, 1, 1, 1, &p, NULL, &err), PN_ELIMIT);
    assert_non_null(strstr(err.msg, "warp 0: "));
    pn_program_destroy(&p);
    assert_int_equal(pn_program_net_build(&net, 0, 1, 1, 1, &p, NULL, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "schedulers"));
    assert_int_equal(pn_program_net_build(&net, 1, 0, 1, 1, &p, NULL, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "l1"));
    assert_int_equal(pn_program_net_build(&net, 1, 1, 0, 1, &p, NULL, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "l2"));
    assert_int_equal(pn_program_net_build(&net, 1, 1, 1, 0, &p, NULL, &err), PN_EINVAL);
    assert_int_equal(pn_program_net_build(&net, 1, 1, 1, 1, NULL, NULL, &err), PN_EINVAL);
    assert_int_equal(net.n_places, 0);
    pn_net_destroy(&net);
    assert_string_equal(pn_program_format(&p, buf, sizeof buf), "[]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_item),
        cmocka_unit_test(test_config_program),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_net_size),
        cmocka_unit_test(test_names_and_marking),
        cmocka_unit_test(test_one_warp_formula),
        cmocka_unit_test(test_literal_equals_fast),
        cmocka_unit_test(test_sync),
        cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests_name("program", tests, NULL, NULL);
}
