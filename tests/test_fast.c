/* test_fast.c - the fast and sm engines are the same model as the literal one:
 * identical results where the model is deterministic, the same step
 * distribution where it is random (two-sample chi-square, fixed seeds), and
 * both match the exact distribution of a tiny net computed by enumerating
 * every permutation at every reachable marking. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "pn_chi2.h"
#include "pn_engine.h"
#include "pn_exact.h"
#include "pn_sm_engine.h"
#include "pn_rng.h"
#include "pn_sm.h"

/* Runs per sample: ten times more under `make check-full` (PN_FULL=1). */
static int scaled(int runs)
{
    const char *full = getenv("PN_FULL");
    return full && *full == '1' ? 10 * runs : runs;
}

/* The SM parameters each net that build() made was generated from (c is
 * borrowed from the caller), for the compiled engine. */
static struct {
    const pn_net_t *net;
    pn_sm_params_t p;
} built[8];

static void build(pn_net_t *net, pn_sm_layout_t *lay, uint32_t sched, uint32_t l1, uint32_t l2,
                  uint32_t warps, const pn_warp_counts_t *c)
{
    pn_sm_params_t p = { sched, l1, l2, warps, c };
    pn_net_init(net);
    assert_int_equal(pn_sm_build(net, &p, lay, NULL), PN_OK);
    size_t i = 0;
    while (i < 7 && built[i].net && built[i].net != net)
        i++;
    built[i].net = net;
    built[i].p = p;
}

/* The parameters build() made net from; NULL for any other net. */
static const pn_sm_params_t *params_of(const pn_net_t *net)
{
    for (size_t i = 0; i < 8; i++)
        if (built[i].net == net)
            return &built[i].p;
    return NULL;
}

/* One run of engine k; an SM net of build() runs through the models layer,
 * which plans the compiled engine from its parameters. */
static pn_status_t run_on(pn_engine_kind_t k, const pn_net_t *net, uint64_t seed,
                         const pn_run_opts_t *o, pn_run_result_t *r, pn_error_t *err)
{
    const pn_sm_params_t *p = params_of(net);
    return p ? pn_sm_engine_run(k, p, net, seed, o, r, err) : pn_engine_run(k, net, seed, o, r, err);
}

static pn_run_result_t run(pn_engine_kind_t k, const pn_net_t *net, int64_t idle, uint64_t seed)
{
    pn_run_opts_t o = { .max_steps = 100000000, .idle_trans = idle, .net_name = "t" };
    pn_run_result_t r;
    pn_error_t err;
    if (run_on(k, net, seed, &o, &r, &err) != PN_OK)
        fail_msg("run: %s", err.msg);
    return r;
}

/* One warp, any counts, latencies and schedulers: both engines give the
 * formula's steps and the very same idle steps and firings. */
static void test_deterministic_identical(void **state)
{
    (void)state;
    pn_rng_t r;
    pn_rng_seed(&r, 99);
    for (int i = 0; i < 200; i++) {
        pn_warp_counts_t c = { pn_rng_below(&r, 80), pn_rng_below(&r, 30), pn_rng_below(&r, 30) };
        uint32_t l1 = 1 + pn_rng_below(&r, 500), l2 = 1 + pn_rng_below(&r, 50);
        uint32_t sched = 1 + pn_rng_below(&r, 4);
        pn_net_t net;
        pn_sm_layout_t lay;
        build(&net, &lay, sched, l1, l2, 1, &c);
        pn_run_result_t a = run(PN_ENGINE_LITERAL, &net, lay.t0, (uint64_t)i);
        assert_int_equal(a.steps, pn_sm_single_warp_steps(&c, l1, l2));
        for (int k = PN_ENGINE_FAST; k <= PN_ENGINE_COMPILED; k++) {
            pn_run_result_t b = run((pn_engine_kind_t)k, &net, lay.t0, (uint64_t)i + 1000);
            assert_int_equal(b.steps, a.steps);
            assert_int_equal(b.idle_steps, a.idle_steps);
            assert_int_equal(b.firings, a.firings);
        }
        pn_net_destroy(&net);
    }
}

/* The spec's conformance values through the fast engine. */
static void test_conformance_fast(void **state)
{
    (void)state;
    static const struct {
        pn_warp_counts_t c;
        uint32_t sched;
        uint64_t steps, idle;
    } cases[] = {
        { { 100, 0, 0 }, 1, 401, 0 }, { { 100, 0, 0 }, 2, 401, 200 },
        { { 0, 0, 10 }, 2, 251, 230 }, { { 10, 5, 5 }, 1, 201, 110 },
        { { 10, 5, 5 }, 2, 201, 160 }, { { 10, 5, 5 }, 4, 201, 160 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pn_net_t net;
        pn_sm_layout_t lay;
        build(&net, &lay, cases[i].sched, 20, 2, 1, &cases[i].c);
        for (int k = PN_ENGINE_FAST; k <= PN_ENGINE_COMPILED; k++) {
            pn_run_result_t r = run((pn_engine_kind_t)k, &net, lay.t0, 7);
            assert_int_equal(r.steps, cases[i].steps);
            assert_int_equal(r.idle_steps, cases[i].idle);
        }
        pn_net_destroy(&net);
    }
}

/* ---- chi-square tests on step distributions ------------------------------- */

typedef struct hist {
    uint64_t lo;
    size_t n;
    double *count;
} hist_t;

static void histogram(pn_engine_kind_t k, const pn_net_t *net, int64_t idle, int runs,
                      uint64_t seed, uint64_t lo, size_t n, double *steps, double *idles)
{
    memset(steps, 0, n * sizeof *steps);
    memset(idles, 0, n * sizeof *idles);
    for (int i = 0; i < runs; i++) {
        pn_run_result_t r = run(k, net, idle, seed + (uint64_t)i);
        assert_true(r.steps >= lo && r.steps - lo < n);
        steps[r.steps - lo]++;
        assert_true(r.idle_steps < n);
        idles[r.idle_steps]++;
    }
}

/* Several small nets: the two engines' step and idle distributions agree. */
static void test_two_sample(void **state)
{
    (void)state;
    static const struct {
        uint32_t warps, sched, l1, l2;
        pn_warp_counts_t c;
    } nets[] = {
        { 4, 2, 20, 2, { 50, 5, 10 } },     /* the spec's multi-warp case */
        { 3, 1, 7, 3, { 20, 3, 5 } },       /* one scheduler, all kinds */
        { 8, 4, 30, 4, { 12, 4, 6 } },      /* a hub: 8 warps share p0 */
        { 6, 2, 3, 1, { 0, 10, 10 } },      /* memory only, short latency */
    };
    const int runs = scaled(1500);
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        pn_warp_counts_t c[8];
        for (uint32_t w = 0; w < nets[k].warps; w++)
            c[w] = nets[k].c;
        pn_net_t net;
        pn_sm_layout_t lay;
        build(&net, &lay, nets[k].sched, nets[k].l1, nets[k].l2, nets[k].warps, c);
        enum { N = 4096 };
        static double sa[N], ia[N], sb[N], ib[N];
        histogram(PN_ENGINE_LITERAL, &net, lay.t0, runs, 1, 0, N, sa, ia);
        for (int e = PN_ENGINE_FAST; e <= PN_ENGINE_COMPILED; e++) {
            histogram((pn_engine_kind_t)e, &net, lay.t0, runs, 100001, 0, N, sb, ib);
            double ps = pn_chi2_p(sa, sb, N, 0, 10), pi = pn_chi2_p(ia, ib, N, 0, 10);
            if (ps < 0.001 || pi < 0.001)
                fail_msg("net %zu, %s engine: steps p = %g, idle p = %g", k,
                         pn_engine_name((pn_engine_kind_t)e), ps, pi);
        }
        if (k == 0) {
            /* the test has power: one more step of global latency is rejected */
            pn_net_t other;
            pn_sm_layout_t lay2;
            build(&other, &lay2, nets[k].sched, nets[k].l1 + 1, nets[k].l2, nets[k].warps, c);
            histogram(PN_ENGINE_FAST, &other, lay2.t0, runs, 100001, 0, N, sb, ib);
            assert_true(pn_chi2_p(sa, sb, N, 0, 10) < 1e-6);
            pn_net_destroy(&other);
        }
        pn_net_destroy(&net);
    }
}

/* ---- exact distribution by enumeration ------------------------------------ */

static void test_exact_distribution(void **state)
{
    (void)state;
    /* two warps, one scheduler: they compete for the SM and for nothing else */
    pn_warp_counts_t c[2] = { { 2, 1, 1 }, { 1, 1, 1 } };
    pn_net_t net;
    pn_sm_layout_t lay;
    build(&net, &lay, 1, 3, 1, 2, c);
    pn_exact_t x;
    memset(&x, 0, sizeof x);
    x.net = &net;
    const double *exact = pn_exact_dist(&x, net.m0);
    double total = 0, support = 0;
    for (int s = 0; s < PN_EXACT_MAXSTEPS; s++) {
        total += exact[s];
        support += exact[s] > 0;
    }
    assert_true(total > 1 - 1e-9 && total < 1 + 1e-9);
    assert_true(support >= 3);                  /* genuinely random */
    assert_true(x.nodes > 50);
    const int runs = scaled(4000);
    static double sa[PN_EXACT_MAXSTEPS], ia[PN_EXACT_MAXSTEPS];
    for (int k = PN_ENGINE_LITERAL; k <= PN_ENGINE_COMPILED; k++) {
        histogram((pn_engine_kind_t)k, &net, lay.t0, runs, 5 + 77777 * (uint64_t)k, 0,
                  PN_EXACT_MAXSTEPS, sa, ia);
        double p = pn_chi2_p(sa, exact, PN_EXACT_MAXSTEPS, 1, 10);
        if (p < 0.001)
            fail_msg("%s engine: p = %g against the exact distribution",
                     pn_engine_name((pn_engine_kind_t)k), p);
    }
    /* and a distribution that is off by one step is rejected */
    double shifted[PN_EXACT_MAXSTEPS] = { 0 };
    for (int s = 0; s + 1 < PN_EXACT_MAXSTEPS; s++)
        shifted[s + 1] = exact[s];
    histogram(PN_ENGINE_FAST, &net, lay.t0, runs, 5, 0, PN_EXACT_MAXSTEPS, sa, ia);
    assert_true(pn_chi2_p(sa, shifted, PN_EXACT_MAXSTEPS, 1, 10) < 1e-6);
    pn_exact_free(&x);
    pn_net_destroy(&net);
}

/* A net that is not an SM net: weighted arcs, an inhibitor, a hub of eight
 * consumers, a self-loop and a ticker feeding a weighted consumer. */
static void build_generic(pn_net_t *net, int64_t *idle)
{
    pn_net_init(net);
    uint32_t hub, cnt, done, gate, t;
    pn_net_add_place(net, "hub", 3, &hub, NULL);
    pn_net_add_place(net, "count", 0, &cnt, NULL);
    pn_net_add_place(net, "done", 0, &done, NULL);
    pn_net_add_place(net, "gate", 0, &gate, NULL);
    for (int i = 0; i < 8; i++) {
        char name[32];
        uint32_t pi;
        snprintf(name, sizeof name, "src%d", i);
        pn_net_add_place(net, name, 2 + (uint64_t)(i % 3), &pi, NULL);
        snprintf(name, sizeof name, "take%d", i);
        pn_net_add_transition(net, name, &t, NULL);
        /* take: hub + src_i -> count (x2), hub comes back through release */
        pn_net_add_arc(net, PN_ARC_INPUT, t, hub, 1 + (uint32_t)(i % 2), NULL);
        pn_net_add_arc(net, PN_ARC_INPUT, t, pi, 1, NULL);
        pn_net_add_arc(net, PN_ARC_OUTPUT, t, cnt, 2, NULL);
        pn_net_add_arc(net, PN_ARC_OUTPUT, t, done, 1 + (uint32_t)(i % 2), NULL);
    }
    /* tick: count -> gate one token a step (a ticker) */
    pn_net_add_transition(net, "tick", &t, NULL);
    pn_net_add_arc(net, PN_ARC_INPUT, t, cnt, 1, NULL);
    pn_net_add_arc(net, PN_ARC_OUTPUT, t, gate, 1, NULL);
    /* release: 3 gate tokens and no count left -> done tokens back to hub */
    pn_net_add_transition(net, "release", &t, NULL);
    pn_net_add_arc(net, PN_ARC_INPUT, t, gate, 3, NULL);
    pn_net_add_arc(net, PN_ARC_INPUT, t, done, 1, NULL);
    pn_net_add_arc(net, PN_ARC_OUTPUT, t, hub, 1, NULL);
    pn_net_add_arc(net, PN_ARC_INHIBITOR, t, cnt, 1, NULL);
    /* wait: a self-loop on the hub while count is being ticked down */
    uint32_t busy;
    pn_net_add_place(net, "busy", 1, &busy, NULL);
    pn_net_add_transition(net, "wait", &t, NULL);
    pn_net_add_arc(net, PN_ARC_INPUT, t, busy, 1, NULL);
    pn_net_add_arc(net, PN_ARC_OUTPUT, t, busy, 1, NULL);
    pn_net_add_arc(net, PN_ARC_INHIBITOR, t, gate, 1, NULL);
    pn_net_add_arc(net, PN_ARC_INHIBITOR, t, done, 1, NULL);
    *idle = t;
    assert_int_equal(pn_net_freeze(net, NULL), PN_OK);
}

static void test_generic_net(void **state)
{
    (void)state;
    pn_net_t net;
    int64_t idle;
    build_generic(&net, &idle);
    enum { N = 512 };
    static double sa[N], ia[N], sb[N], ib[N];
    histogram(PN_ENGINE_LITERAL, &net, idle, scaled(2000), 1, 0, N, sa, ia);
    histogram(PN_ENGINE_FAST, &net, idle, scaled(2000), 500001, 0, N, sb, ib);
    double ps = pn_chi2_p(sa, sb, N, 0, 10), pi = pn_chi2_p(ia, ib, N, 0, 10);
    if (ps < 0.001 || pi < 0.001)
        fail_msg("generic net: steps p = %g, idle p = %g", ps, pi);
    /* the net is random: more than one step count occurs */
    int support = 0;
    for (int s = 0; s < N; s++)
        support += sa[s] > 0;
    assert_true(support >= 2);
    pn_net_destroy(&net);
}

/* The fast engine honours max_steps exactly like the literal one, including
 * when the limit falls inside a jumped-over stretch. */
static void test_max_steps_fast(void **state)
{
    (void)state;
    pn_warp_counts_t c = { 0, 0, 3 };
    pn_net_t net;
    pn_sm_layout_t lay;
    build(&net, &lay, 2, 100, 2, 1, &c);     /* 3 * 105 + 1 = 316 steps */
    pn_run_opts_t o = { .max_steps = 200, .idle_trans = lay.t0, .net_name = "k" };
    pn_run_result_t r;
    pn_error_t err;
    assert_int_equal(pn_engine_run(PN_ENGINE_FAST, &net, 1, &o, &r, &err), PN_ELIMIT);
    assert_string_equal(err.msg, "net 'k' (seed 1) reached no dead marking within "
                                 "max_steps = 200 steps");
    o.max_steps = 316;
    assert_int_equal(pn_engine_run(PN_ENGINE_FAST, &net, 1, &o, &r, &err), PN_OK);
    assert_int_equal(r.steps, 316);
    o.max_steps = 315;
    assert_int_equal(pn_engine_run(PN_ENGINE_FAST, &net, 1, &o, &r, &err), PN_ELIMIT);
    assert_int_equal(pn_engine_literal_run(&net, 1, &o, &r, &err), PN_ELIMIT);
    assert_int_equal(run_on(PN_ENGINE_COMPILED, &net, 1, &o, &r, &err), PN_ELIMIT);
    o.max_steps = 316;
    assert_int_equal(run_on(PN_ENGINE_COMPILED, &net, 1, &o, &r, &err), PN_OK);
    assert_int_equal(r.steps, 316);
    pn_net_destroy(&net);
}

/* A net alone has no compiled engine: only its model can plan one. */
static void test_compiled_needs_a_model(void **state)
{
    (void)state;
    pn_net_t net;
    int64_t idle;
    build_generic(&net, &idle);
    pn_run_opts_t o = { .max_steps = 1000, .idle_trans = idle };
    pn_run_result_t r;
    pn_error_t err;
    assert_int_equal(pn_engine_run(PN_ENGINE_COMPILED, &net, 1, &o, &r, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "use --engine fast"));
    /* auto on a bare net is the fast engine */
    pn_prepared_t prep;
    assert_int_equal(pn_engine_prepare(&prep, PN_ENGINE_AUTO, &net, &o, &err), PN_OK);
    assert_string_equal(pn_engine_prepared_name(&prep), "fast");
    pn_engine_release(&prep);
    pn_net_destroy(&net);
    /* the SM net's model plans the sm engine from its parameters, checked */
    pn_warp_counts_t c[2] = { { 3, 1, 1 }, { 2, 2, 2 } };
    pn_sm_params_t p = { 2, 20, 2, 2, c };
    pn_net_init(&net);
    assert_int_equal(pn_sm_build(&net, &p, NULL, NULL), PN_OK);
    assert_int_equal(pn_sm_engine_prepare(&prep, PN_ENGINE_AUTO, &p, &net, &o, &err), PN_OK);
    assert_string_equal(pn_engine_prepared_name(&prep), "sm");
    pn_engine_release(&prep);
    p.schedulers = 0;
    assert_int_equal(pn_sm_engine_prepare(&prep, PN_ENGINE_COMPILED, &p, &net, &o, &err),
                     PN_EINVAL);
    pn_engine_release(&prep);
    pn_net_destroy(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic_identical),
        cmocka_unit_test(test_conformance_fast),
        cmocka_unit_test(test_two_sample),
        cmocka_unit_test(test_exact_distribution),
        cmocka_unit_test(test_generic_net),
        cmocka_unit_test(test_max_steps_fast),
        cmocka_unit_test(test_compiled_needs_a_model),
    };
    return cmocka_run_group_tests_name("fast", tests, NULL, NULL);
}
