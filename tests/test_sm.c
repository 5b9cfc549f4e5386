/* test_sm.c - the SM net generator against doc/paper-net.md: sizes,
 * arcs, and the exact conformance values of one-warp nets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pn_engine.h"
#include "pn_rng.h"
#include "pn_sm.h"

typedef struct sm_case {
    pn_net_t net;
    pn_sm_layout_t lay;
} sm_case_t;

static void build(sm_case_t *c, uint32_t sched, uint32_t l1, uint32_t l2, uint32_t warps,
                  const pn_warp_counts_t *counts)
{
    pn_sm_params_t p = { sched, l1, l2, warps, counts };
    pn_error_t err;
    pn_net_init(&c->net);
    pn_status_t st = pn_sm_build(&c->net, &p, &c->lay, &err);
    if (st != PN_OK)
        fail_msg("build: %s", err.msg);
}

static pn_run_result_t run1(sm_case_t *c, uint64_t seed)
{
    pn_run_opts_t o = { .max_steps = 100000000, .idle_trans = c->lay.t0, .net_name = "t" };
    pn_run_result_t r;
    assert_int_equal(pn_engine_literal_run(&c->net, seed, &o, &r, NULL), PN_OK);
    return r;
}

static void test_sizes(void **state)
{
    (void)state;
    pn_warp_counts_t counts[64];
    memset(counts, 0, sizeof counts);
    for (uint32_t w = 1; w <= 64; w++) {
        sm_case_t c;
        build(&c, 4, 20, 2, w, counts);
        assert_int_equal(c.net.n_places, 18 * w + 2);
        assert_int_equal(c.net.n_trans, 15 * w + 1);
        /* per warp (spec table): 26 inputs, 23 outputs, 5 inhibitors + 1 on t0;
         * t0 itself: 2 inputs, 2 outputs */
        assert_int_equal(pn_net_n_arcs(&c.net, PN_ARC_INPUT), 26 * w + 2);
        assert_int_equal(pn_net_n_arcs(&c.net, PN_ARC_OUTPUT), 23 * w + 2);
        assert_int_equal(pn_net_n_arcs(&c.net, PN_ARC_INHIBITOR), 6 * w);
        pn_net_destroy(&c.net);
    }
}

static void test_names_and_marking(void **state)
{
    (void)state;
    pn_warp_counts_t counts[2] = { { 7, 8, 9 }, { 1, 2, 3 } };
    sm_case_t c;
    build(&c, 4, 20, 2, 2, counts);
    assert_int_equal(c.net.m0[pn_net_find_place(&c.net, "p0")], 4);
    assert_int_equal(c.net.m0[pn_net_find_place(&c.net, "pw")], 2);
    assert_int_equal(c.net.m0[pn_net_find_place(&c.net, "w0.p5")], 7);
    assert_int_equal(c.net.m0[pn_net_find_place(&c.net, "w0.p7")], 8);
    assert_int_equal(c.net.m0[pn_net_find_place(&c.net, "w1.p9")], 3);
    assert_int_equal(c.net.m0[pn_net_find_place(&c.net, "w1.p1")], 1);
    assert_int_equal(c.net.m0[pn_net_find_place(&c.net, "w1.p4")], 0);
    assert_true(pn_net_find_transition(&c.net, "w1.t17") >= 0);
    assert_true(pn_net_find_transition(&c.net, "w0.t10") < 0);
    /* t5 puts l1 tokens into p13, t9 takes l1 from p14 and is inhibited by p13 */
    int64_t t5 = pn_net_find_transition(&c.net, "w0.t5");
    int64_t p13 = pn_net_find_place(&c.net, "w0.p13");
    int found = 0;
    for (uint32_t i = c.net.out_off[t5]; i < c.net.out_off[t5 + 1]; i++)
        if (c.net.out[i].place == (uint32_t)p13 && c.net.out[i].weight == 20)
            found = 1;
    assert_true(found);
    int64_t t9 = pn_net_find_transition(&c.net, "w0.t9");
    assert_int_equal(c.net.inh_off[t9 + 1] - c.net.inh_off[t9], 1);
    assert_int_equal(c.net.inh[c.net.inh_off[t9]], (uint32_t)p13);
    pn_net_destroy(&c.net);
}

/* The spec's conformance values, for several seeds and scheduler counts. */
static void test_conformance(void **state)
{
    (void)state;
    static const struct {
        pn_warp_counts_t c;
        uint32_t l1, l2, sched;
        uint64_t steps, idle;
    } cases[] = {
        { { 100, 0, 0 }, 20, 2, 1, 401, 0 },
        { { 100, 0, 0 }, 20, 2, 2, 401, 200 },
        { { 100, 0, 0 }, 20, 2, 4, 401, 200 },
        { { 0, 0, 10 }, 20, 2, 2, 251, 230 },
        { { 10, 5, 5 }, 20, 2, 1, 201, 110 },
        { { 10, 5, 5 }, 20, 2, 2, 201, 160 },
        { { 10, 5, 5 }, 20, 2, 4, 201, 160 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sm_case_t c;
        build(&c, cases[i].sched, cases[i].l1, cases[i].l2, 1, &cases[i].c);
        assert_int_equal(pn_sm_single_warp_steps(&cases[i].c, cases[i].l1, cases[i].l2),
                         cases[i].steps);
        assert_int_equal(pn_sm_single_warp_idle(&cases[i].c, cases[i].l1, cases[i].l2,
                                                cases[i].sched),
                         cases[i].idle);
        for (uint64_t seed = 0; seed < 5; seed++) {
            pn_run_result_t r = run1(&c, seed);
            assert_int_equal(r.steps, cases[i].steps);
            assert_int_equal(r.idle_steps, cases[i].idle);
        }
        pn_net_destroy(&c.net);
    }
}

/* One warp of any counts and latencies runs exactly the formulas' steps and
 * idle steps. */
static void test_single_warp_formula(void **state)
{
    (void)state;
    pn_rng_t r;
    pn_rng_seed(&r, 2024);
    for (int i = 0; i < 60; i++) {
        pn_warp_counts_t c = { pn_rng_below(&r, 60), pn_rng_below(&r, 20), pn_rng_below(&r, 20) };
        uint32_t l1 = 1 + pn_rng_below(&r, 400), l2 = 1 + pn_rng_below(&r, 40);
        uint32_t sched = 1 + pn_rng_below(&r, 4);
        sm_case_t sc;
        build(&sc, sched, l1, l2, 1, &c);
        pn_run_result_t res = run1(&sc, (uint64_t)i);
        assert_int_equal(res.steps, pn_sm_single_warp_steps(&c, l1, l2));
        assert_int_equal(res.idle_steps, pn_sm_single_warp_idle(&c, l1, l2, sched));
        pn_net_destroy(&sc.net);
    }
}

/* Four warps of (50, 5, 10), 2 schedulers, l1 = 20, l2 = 2: the spec reports
 * runs between 560 and 580 steps in a literal implementation. */
static void test_four_warps_band(void **state)
{
    (void)state;
    pn_warp_counts_t counts[4];
    for (int i = 0; i < 4; i++)
        counts[i] = (pn_warp_counts_t){ 50, 5, 10 };
    sm_case_t c;
    build(&c, 2, 20, 2, 4, counts);
    double sum = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    const int n = 400;
    for (int s = 1; s <= n; s++) {
        pn_run_result_t r = run1(&c, (uint64_t)s);
        sum += (double)r.steps;
        lo = r.steps < lo ? r.steps : lo;
        hi = r.steps > hi ? r.steps : hi;
        /* the critical path of one warp bounds every run from below */
        assert_true(r.steps >= 486);
    }
    double mean = sum / n;
    assert_true(mean >= 560.0 && mean <= 580.0);
    assert_true(lo < 570 && hi > 578);   /* genuinely random, not a constant */
    pn_net_destroy(&c.net);
}

static void test_bad_params(void **state)
{
    (void)state;
    pn_warp_counts_t c = { 1, 1, 1 };
    pn_error_t err;
    pn_sm_params_t p = { 0, 20, 2, 1, &c };
    pn_net_t net;
    pn_net_init(&net);
    assert_int_equal(pn_sm_build(&net, &p, NULL, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "schedulers"));
    p.schedulers = 2;
    p.l1 = 0;
    assert_int_equal(pn_sm_build(&net, &p, NULL, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "l1"));
    p.l1 = 20;
    p.l2 = 0;
    assert_int_equal(pn_sm_build(&net, &p, NULL, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "l2"));
    p.l2 = 2;
    c.global = PN_SM_MAX_COUNT + 1;
    assert_int_equal(pn_sm_build(&net, &p, NULL, &err), PN_ELIMIT);
    pn_net_destroy(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_names_and_marking),
        cmocka_unit_test(test_conformance),
        cmocka_unit_test(test_single_warp_formula),
        cmocka_unit_test(test_four_warps_band),
        cmocka_unit_test(test_bad_params),
    };
    return cmocka_run_group_tests_name("sm", tests, NULL, NULL);
}
