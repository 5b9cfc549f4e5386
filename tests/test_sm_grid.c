/* test_sm_grid.c - the paper net of a grid (models/paper/GRID.md): the plain case
 * is the spec's net, the sizes, the exact steps, idle steps and firings that
 * blocks one after another and barriers add (every engine), and the fast and
 * the compiled sm engines against the literal one on grid nets (two-sample
 * chi-square, fixed seeds). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pn_chi2.h"
#include "pn_test.h"
#include "pn_engine.h"
#include "pn_sm_engine.h"
#include "pn_sm_grid.h"

static int scaled(int runs)
{
    const char *full = getenv("PN_FULL");
    return full && *full == '1' ? 10 * runs : runs;
}

static void build(pn_net_t *net, pn_sm_layout_t *lay, uint32_t sched, uint32_t warps,
                  const pn_warp_counts_t *c, const pn_sm_grid_t *g)
{
    pn_sm_params_t p = { sched, 20, 2, warps, c };
    pn_net_init(net);
    pn_error_t err;
    if (pn_sm_build_grid(net, &p, g, lay, &err) != PN_OK)
        fail_msg("build: %s", err.msg);
}

static pn_run_result_t run(pn_engine_kind_t kind, const pn_net_t *net, uint32_t t0, uint64_t seed)
{
    pn_run_opts_t o = { .max_steps = 10000000, .idle_trans = t0, .net_name = "grid" };
    pn_run_result_t r;
    pn_error_t err;
    if (pn_engine_run(kind, net, seed, &o, &r, &err) != PN_OK)
        fail_msg("run: %s", err.msg);
    return r;
}

/* A run of the compiled engine (it plans from parameters, not from a net). */
static pn_run_result_t run_sm(uint32_t sched, uint32_t warps, const pn_warp_counts_t *c,
                              const pn_sm_grid_t *g, uint64_t seed)
{
    pn_sm_params_t p = { sched, 20, 2, warps, c };
    pn_net_t none;
    pn_net_init(&none);
    pn_run_opts_t o = { .max_steps = 10000000, .net_name = "grid" };
    pn_prepared_t prep;
    pn_run_result_t r;
    pn_error_t err;
    if (pn_sm_grid_engine_prepare(&prep, PN_ENGINE_COMPILED, &p, g, &none, &o, &err) != PN_OK ||
        pn_engine_run_prepared(&prep, seed, &r, &err) != PN_OK)
        fail_msg("sm run: %s", err.msg);
    assert_string_equal(pn_engine_prepared_name(&prep), "sm");
    pn_engine_release(&prep);
    return r;
}

/* One block, no barriers: exactly pn_sm_build's net. */
static void test_plain_is_spec_net(void **state)
{
    (void)state;
    pn_warp_counts_t c[3] = { { 10, 5, 5 }, { 4, 0, 2 }, { 0, 1, 0 } };
    pn_sm_grid_t one = { 1, 1, 0, NULL };
    pn_net_t a, b;
    pn_sm_layout_t la, lb;
    build(&a, &la, 2, 3, c, &one);
    pn_sm_params_t p = { 2, 20, 2, 3, c };
    pn_net_init(&b);
    assert_int_equal(pn_sm_build(&b, &p, &lb, NULL), PN_OK);
    assert_int_equal(a.n_places, 18 * 3 + 2);
    assert_int_equal(a.n_places, b.n_places);
    assert_int_equal(a.n_trans, b.n_trans);
    for (int k = 0; k < 3; k++)
        assert_int_equal(pn_net_n_arcs(&a, k), pn_net_n_arcs(&b, k));
    assert_memory_equal(a.m0, b.m0, a.n_places * sizeof *a.m0);
    assert_int_equal(la.warp_place0, lb.warp_place0);
    pn_net_destroy(&a);
    pn_net_destroy(&b);
}

/* B blocks of W warps, R resident, k barriers: the node counts GRID.md gives. */
static void test_sizes(void **state)
{
    (void)state;
    const uint32_t W = 3, B = 5, R = 2;
    pn_warp_counts_t c[3] = { { 6, 1, 2 }, { 6, 1, 2 }, { 6, 1, 2 } };
    pn_sm_grid_t g = { B, R, 2, NULL };
    pn_net_t net;
    pn_sm_layout_t lay;
    build(&net, &lay, 4, W, c, &g);
    /* p0 pw; slots, need, b2.turn; per block pfin, arr, rel; turns b3, b4; per warp 18 + 3 */
    assert_int_equal(net.n_places, 2 + 3 + 3 * B + (B - R - 1) + (18 + 3) * W * B);
    /* t0; per block end, release; starts of b2..b4; per warp 15 + 3 */
    assert_int_equal(net.n_trans, 1 + 2 * B + (B - R) + (15 + 3) * W * B);
    assert_int_equal(net.m0[lay.pw], W * B);
    assert_int_equal(lay.warp_place0, UINT32_MAX);
    /* warps of blocks 0 and 1 start marked, those of block 2 wait */
    assert_int_equal(net.m0[pn_net_find_place(&net, "w5.p2")], 1);
    assert_int_equal(net.m0[pn_net_find_place(&net, "w6.p2")], 0);
    assert_int_equal(net.m0[pn_net_find_place(&net, "w6.p5")], 6);
    /* 9 instructions in 3 phases of 3 */
    assert_int_equal(net.m0[pn_net_find_place(&net, "w0.bud")], 3);
    assert_int_equal(net.m0[pn_net_find_place(&net, "w0.barl")], 2);
    assert_int_equal(net.m0[pn_net_find_place(&net, "b2.turn")], 1);
    assert_int_equal(net.m0[pn_net_find_place(&net, "need")], B - R);
    pn_net_destroy(&net);
}

/* A counting net has the full net's sizes, also where it counts the alike
 * blocks once (pn_net_count_repeat): blocks around resident + 2, barriers. */
static void test_counting_sizes(void **state)
{
    (void)state;
    pn_warp_counts_t c[2] = { { 6, 1, 2 }, { 3, 0, 4 } };
    static const pn_sm_grid_t grids[] = {
        { 2, 1, 0, NULL }, { 3, 1, 1, NULL }, { 4, 1, 0, NULL }, { 5, 2, 2, NULL },
        { 30, 4, 1, NULL }, { 31, 30, 0, NULL },
    };
    for (size_t i = 0; i < sizeof grids / sizeof *grids; i++) {
        pn_net_t full, cnt;
        pn_sm_layout_t lf, lc;
        build(&full, &lf, 4, 2, c, &grids[i]);
        pn_sm_params_t p = { 4, 20, 2, 2, c };
        pn_error_t err;
        pn_net_init(&cnt);
        assert_int_equal(pn_net_set_counting(&cnt, &err), PN_OK);
        if (pn_sm_build_grid(&cnt, &p, &grids[i], &lc, &err) != PN_OK)
            fail_msg("counting build: %s", err.msg);
        pn_test_same_sizes(&cnt, &full);
        pn_net_destroy(&full);
        pn_net_destroy(&cnt);
    }
}

/* One warp alone: every barrier adds 3 steps (arrive, release, resume), 2
 * of them idle, whatever the seed and the engine. */
static void test_barrier_steps(void **state)
{
    (void)state;
    pn_warp_counts_t c = { 10, 5, 5 };
    const uint64_t S = pn_sm_single_warp_steps(&c, 20, 2);
    assert_int_equal(S, 201);
    for (uint64_t k = 1; k <= 4; k++) {
        pn_sm_grid_t g = { 1, 1, k, NULL };
        pn_net_t net;
        pn_sm_layout_t lay;
        build(&net, &lay, 2, 1, &c, &g);
        for (uint64_t seed = 1; seed <= 5; seed++) {
            pn_run_result_t a = run(PN_ENGINE_LITERAL, &net, lay.t0, seed);
            pn_run_result_t b = run(PN_ENGINE_FAST, &net, lay.t0, seed);
            pn_run_result_t d = run_sm(2, 1, &c, &g, seed);
            assert_int_equal(a.steps, S + 3 * k);
            assert_int_equal(a.idle_steps, 160 + 2 * k);
            assert_int_equal(b.steps, a.steps);
            assert_int_equal(b.idle_steps, a.idle_steps);
            assert_int_equal(d.steps, a.steps);
            assert_int_equal(d.idle_steps, a.idle_steps);
            assert_int_equal(d.firings, a.firings);
        }
        pn_net_destroy(&net);
    }
}

/* Blocks of one warp, one resident: each runs alone, and handing the slot on
 * takes 2 steps (the block's end, the next one's start), both idle. */
static void test_blocks_in_turn(void **state)
{
    (void)state;
    pn_warp_counts_t c = { 10, 5, 5 };
    const uint64_t S = pn_sm_single_warp_steps(&c, 20, 2);
    for (uint32_t B = 2; B <= 5; B++) {
        pn_sm_grid_t g = { B, 1, 0, NULL };
        pn_net_t net;
        pn_sm_layout_t lay;
        build(&net, &lay, 1, 1, &c, &g);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            pn_run_result_t a = run(PN_ENGINE_LITERAL, &net, lay.t0, seed);
            pn_run_result_t b = run(PN_ENGINE_FAST, &net, lay.t0, seed);
            pn_run_result_t d = run_sm(1, 1, &c, &g, seed);
            assert_int_equal(a.steps, B * S + 2 * (B - 1));
            assert_int_equal(a.idle_steps, B * 110 + 2 * (B - 1));
            assert_int_equal(b.steps, a.steps);
            assert_int_equal(b.idle_steps, a.idle_steps);
            assert_int_equal(d.steps, a.steps);
            assert_int_equal(d.idle_steps, a.idle_steps);
            assert_int_equal(d.firings, a.firings);
        }
        pn_net_destroy(&net);
    }
}

/* Per-block counts: blocks of one warp run in turn, each with its own counts. */
static void test_block_counts(void **state)
{
    (void)state;
    pn_warp_counts_t bw[3] = { { 10, 5, 5 }, { 3, 0, 1 }, { 0, 2, 0 } };
    pn_sm_grid_t g = { 3, 1, 0, bw };
    assert_false(pn_sm_grid_is_plain(&g));
    pn_net_t net;
    pn_sm_layout_t lay;
    build(&net, &lay, 1, 1, &bw[0], &g);
    assert_int_equal(net.m0[pn_net_find_place(&net, "w1.p5")], 3);
    assert_int_equal(net.m0[pn_net_find_place(&net, "w2.p7")], 2);
    uint64_t want = 2 * 2;
    for (int b = 0; b < 3; b++)
        want += pn_sm_single_warp_steps(&bw[b], 20, 2);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pn_run_result_t a = run(PN_ENGINE_LITERAL, &net, lay.t0, seed);
        assert_int_equal(a.steps, want);
        assert_int_equal(run(PN_ENGINE_FAST, &net, lay.t0, seed).steps, want);
        pn_run_result_t d = run_sm(1, 1, &bw[0], &g, seed);
        assert_int_equal(d.steps, want);
        assert_int_equal(d.idle_steps, a.idle_steps);
        assert_int_equal(d.firings, a.firings);
    }
    pn_net_destroy(&net);
}

/* Random grids: the fast engine's distribution of steps and idle steps is
 * the literal one's; and the test sees a one-step shift (power control). */
enum { NBIN = 4096 };

/* The histograms of `runs` runs: of the sm engine on the parameters gc when
 * gc is non-NULL, else of engine kind on the net. */
typedef struct grid_case {
    uint32_t sched, warps;
    const pn_warp_counts_t *c;
    const pn_sm_grid_t *g;
} grid_case_t;

static void hist(pn_engine_kind_t kind, const pn_net_t *net, uint32_t t0,
                 const grid_case_t *gc, int runs, uint64_t seed0, uint64_t lo, int shift,
                 double *s, double *i)
{
    memset(s, 0, NBIN * sizeof *s);
    memset(i, 0, NBIN * sizeof *i);
    for (int r = 0; r < runs; r++) {
        pn_run_result_t a = gc ? run_sm(gc->sched, gc->warps, gc->c, gc->g, seed0 + (uint64_t)r)
                               : run(kind, net, t0, seed0 + (uint64_t)r);
        uint64_t st = a.steps + (uint64_t)shift;
        assert_true(st >= lo && st - lo < NBIN && a.idle_steps < NBIN);
        s[st - lo]++;
        i[a.idle_steps]++;
    }
}

static void test_fast_matches_literal(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint32_t sched, warps;
        pn_warp_counts_t c;
        pn_sm_grid_t g;
    } cases[] = {
        { "5 blocks of 2 warps, 2 resident, 2 barriers", 2, 2, { 8, 2, 3 }, { 5, 2, 2, NULL } },
        { "4 blocks of 3 warps, 3 resident", 2, 3, { 6, 1, 2 }, { 4, 3, 0, NULL } },
        { "1 block of 4 warps, 3 barriers", 1, 4, { 5, 3, 2 }, { 1, 1, 3, NULL } },
    };
    const int runs = scaled(600);
    static double sa[NBIN], ia[NBIN], sb[NBIN], ib[NBIN];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        pn_warp_counts_t c[4] = { cases[k].c, cases[k].c, cases[k].c, cases[k].c };
        pn_net_t net;
        pn_sm_layout_t lay;
        build(&net, &lay, cases[k].sched, cases[k].warps, c, &cases[k].g);
        hist(PN_ENGINE_LITERAL, &net, lay.t0, NULL, runs, 1, 0, 0, sa, ia);
        hist(PN_ENGINE_FAST, &net, lay.t0, NULL, runs, 100001, 0, 0, sb, ib);
        double ps = pn_chi2_p(sa, sb, NBIN, 0, 10), pi = pn_chi2_p(ia, ib, NBIN, 0, 10);
        if (ps < 1e-3 || pi < 1e-3)
            fail_msg("%s: fast and literal differ (p = %g steps, %g idle)", cases[k].name, ps,
                     pi);
        /* the compiled engine on the same parameters */
        const grid_case_t gc = { cases[k].sched, cases[k].warps, c, &cases[k].g };
        hist(PN_ENGINE_COMPILED, NULL, 0, &gc, runs, 200001, 0, 0, sb, ib);
        ps = pn_chi2_p(sa, sb, NBIN, 0, 10);
        pi = pn_chi2_p(ia, ib, NBIN, 0, 10);
        if (ps < 1e-3 || pi < 1e-3)
            fail_msg("%s: sm and literal differ (p = %g steps, %g idle)", cases[k].name, ps,
                     pi);
        if (k == 1) {
            /* power control: a 2-step shift is seen (measured p about 3e-6) */
            hist(PN_ENGINE_FAST, &net, lay.t0, NULL, runs, 100001, 0, 2, sb, ib);
            assert_true(pn_chi2_p(sa, sb, NBIN, 0, 10) < 1e-3);
        }
        pn_net_destroy(&net);
    }
}

/* Too many warps for one net: a clear error, nothing built. */
static void test_limits(void **state)
{
    (void)state;
    pn_warp_counts_t c[32];
    memset(c, 0, sizeof c);
    pn_sm_params_t p = { 4, 20, 2, 32, c };
    pn_sm_grid_t g = { 200000, 2, 0, NULL };
    pn_net_t net;
    pn_error_t err;
    pn_net_init(&net);
    assert_int_equal(pn_sm_build_grid(&net, &p, &g, NULL, &err), PN_ELIMIT);
    assert_non_null(strstr(err.msg, "200000 blocks of 32 warps on one SM"));
    pn_net_destroy(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_is_spec_net),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_counting_sizes),
        cmocka_unit_test(test_barrier_steps),
        cmocka_unit_test(test_blocks_in_turn),
        cmocka_unit_test(test_block_counts),
        cmocka_unit_test(test_fast_matches_literal),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
