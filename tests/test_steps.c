/* test_steps.c - the step bounds of a point (models/config/pn_kernel_net.c):
 * the lower bound refuses runs that cannot end, the upper estimate gives the
 * default step limit (issue 23: any finite kernel runs). Every run of every
 * bundled config must lie between the two. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pn_engine.h"
#include "pn_kernel_net.h"
#include "pn_model.h"
#include "pn_pipe_bounds.h"
#include "pn_rng.h"
#include "pn_sass_sim.h"
#include "pn_test.h"

/* Run `runs` runs of the config at path and check min <= steps <= max. */
static void check_config(const char *path, uint32_t runs)
{
    pn_model_t m;
    pn_error_t err;
    pn_error_clear(&err);
    if (pn_model_load(&m, path, NULL, 0, &err) != PN_OK)
        fail_msg("%s", err.msg);
    uint64_t lo = pn_kernel_net_min_steps(&m.kernel);
    uint64_t hi = pn_kernel_net_max_steps(&m.kernel);
    uint64_t limit = 0;
    assert_int_equal(pn_kernel_net_check_steps(&m.cfg, &m.kernel, m.cfg.max_steps, 0, &limit,
                                               &err), PN_OK);
    assert_true(lo <= hi);
    assert_true(limit >= lo);
    pn_run_opts_t o = { .max_steps = limit, .idle_trans = m.layout.t0, .net_name = path };
    pn_prepared_t prep;
    pn_run_result_t res[4];
    assert_true(runs <= 4);
    assert_int_equal(pn_kernel_net_engine(&prep, PN_ENGINE_AUTO, &m.cfg, &m.kernel, &m.net, &o,
                                          &err), PN_OK);
    assert_int_equal(pn_engine_run_batch(&prep, 1, runs, 1, res, &err), PN_OK);
    /* the pipelined net's roofline bounds hold: no run beats the largest
     * (warps that run their SASS: the bounds of their instructions) */
    pn_pipe_bounds_t b;
    if (m.kernel.net == PN_NET_PIPELINED) {
        if (m.cfg.sass) {
            pn_sass_sim_t *sim;
            pn_sass_sim_params_t sp = { &m.kernel.pipe, &m.kernel.pdev, &m.kernel.mem,
                                        m.cfg.sass, m.kernel.busy_sms, 0, m.kernel.share };
            assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
            pn_sass_sim_bounds(sim, &b);
            pn_sass_sim_free(sim);
        } else {
            pn_pipe_bounds(&m.kernel.pipe, &b);
        }
        for (uint32_t i = 0; i < runs; i++)
            if (res[i].steps < b.steps[b.binding])
                fail_msg("%s: run of %llu steps below its %s bound %llu", path,
                         (unsigned long long)res[i].steps, pn_pipe_bound_names[b.binding],
                         (unsigned long long)b.steps[b.binding]);
    }
    /* the step estimates follow counts (a kernel.sass config may have none):
     * for SASS the limit, from the program, covers every run */
    for (uint32_t i = 0; i < runs && m.cfg.sass; i++)
        if (res[i].steps > limit / 2)
            fail_msg("%s: run of %llu steps above half its limit %llu", path,
                     (unsigned long long)res[i].steps, (unsigned long long)limit);
    for (uint32_t i = 0; i < runs && !m.cfg.sass; i++) {
        if (res[i].steps < lo || res[i].steps > hi)
            fail_msg("%s: run of %llu steps outside [%llu, %llu]", path,
                     (unsigned long long)res[i].steps, (unsigned long long)lo,
                     (unsigned long long)hi);
    }
    pn_engine_release(&prep);
    /* the counting net the compiled engine's runs build has the full net's size */
    pn_model_t c;
    if (pn_model_load_engine(&c, path, NULL, 0, PN_ENGINE_AUTO, &err) != PN_OK)
        fail_msg("%s", err.msg);
    if (!c.net.counting)
        fail_msg("%s: a run on the compiled engine built the full net", path);
    if (m.cfg.sass) {
        /* the sass engine plans from the program: no net, not even counted */
        assert_int_equal(c.net.n_places, 0);
        assert_true(m.net.n_places > 0);
        pn_model_destroy(&c);
        pn_model_destroy(&m);
        return;
    }
    assert_int_equal(c.net.n_places, m.net.n_places);
    assert_int_equal(c.net.n_trans, m.net.n_trans);
    for (int k = PN_ARC_INPUT; k <= PN_ARC_INHIBITOR; k++)
        if (pn_net_n_arcs(&c.net, (pn_arc_kind_t)k) != pn_net_n_arcs(&m.net, (pn_arc_kind_t)k))
            fail_msg("%s: %zu arcs of kind %d counted, %zu in the net", path,
                     pn_net_n_arcs(&c.net, (pn_arc_kind_t)k), k,
                     pn_net_n_arcs(&m.net, (pn_arc_kind_t)k));
    pn_model_destroy(&c);
    pn_model_destroy(&m);
}

static void every_config_between_bounds(void **state)
{
    (void)state;
    static const char *const configs[] = {
        "configs/example.yaml", "configs/pipelined-example.yaml", "configs/matmul.yaml",
        "configs/micro-fp-fma.yaml", "configs/micro-global-ld-dram.yaml",
        "configs/micro-global-ld-l2.yaml", "configs/micro-int-alu.yaml",
        "configs/micro-mix-g1a8-dep.yaml", "configs/micro-mix-g1a8-ind.yaml",
        "configs/micro-mix-s1a4-dep.yaml", "configs/micro-shared-ld.yaml",
        "configs/micro-shared-st.yaml", "configs/reorder-example.yaml",
        "tests/good/minimal.yaml", "tests/good/program_sync.yaml", "tests/good/radix.yaml",
    };
    for (size_t i = 0; i < sizeof configs / sizeof *configs; i++)
        check_config(configs[i], 2);
}

/* One warp alone takes exactly its single-warp count: the lower bound is
 * reached and the upper estimate stays within a small factor of it. */
static void one_warp_exact(void **state)
{
    (void)state;
    static const char cfg_text[] =
        "kernel: {name: one, threads: 32, counts: {arith: 1000, shared: 100, global: 100}}\n";
    pn_model_t m;
    pn_error_t err;
    pn_error_clear(&err);
    FILE *f = fopen("build/test_steps_one.yaml", "w");
    assert_non_null(f);
    fputs(cfg_text, f);
    fclose(f);
    assert_int_equal(pn_model_load(&m, "build/test_steps_one.yaml", NULL, 0, &err), PN_OK);
    /* 4 * 1000 + (5 + 20) * 100 + (5 + 2) * 100 + 1 = 7201 (doc/paper-net.md) */
    assert_int_equal(pn_kernel_net_min_steps(&m.kernel), 7201);
    uint64_t hi = pn_kernel_net_max_steps(&m.kernel);
    assert_true(hi >= 7201 && hi <= 2 * 7201);
    pn_model_destroy(&m);
    remove("build/test_steps_one.yaml");
}

/* A cap the user set stays the limit; without one the limit is never
 * below the default and covers twice the upper estimate. */
static void limit_follows_kernel(void **state)
{
    (void)state;
    pn_model_t m;
    pn_error_t err;
    pn_error_clear(&err);
    assert_int_equal(pn_model_load(&m, "configs/pipelined-example.yaml", NULL, 0, &err), PN_OK);
    uint64_t limit = 0, hi = pn_kernel_net_max_steps(&m.kernel);
    assert_int_equal(pn_kernel_net_check_steps(&m.cfg, &m.kernel, 100000000, 0, &limit, &err),
                     PN_OK);
    assert_true(limit == (2 * hi > 100000000 ? 2 * hi : 100000000));
    assert_int_equal(pn_kernel_net_check_steps(&m.cfg, &m.kernel, 5000000, 1, &limit, &err),
                     PN_OK);
    assert_int_equal(limit, 5000000);
    assert_int_equal(pn_kernel_net_check_steps(&m.cfg, &m.kernel, 10, 1, &limit, &err),
                     PN_ELIMIT);
    pn_model_destroy(&m);
}

/* Property: over random pipelined kernels (fixed seed), no run is below the
 * largest roofline bound, nor above the upper estimate. */
static void random_kernels_respect_bounds(void **state)
{
    (void)state;
    pn_rng_t rng;
    pn_rng_seed(&rng, 2026);
    char path[64];
    for (int t = 0; t < 40; t++) {
        snprintf(path, sizeof path, "build/test_steps_rand%d.yaml", t);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "device: h100\nmodel: {net: pipelined}\nkernel:\n  name: r%d\n"
                "  threads: %u\n  blocks: %u\n"
                "  counts: {arith: %u, sfu: %u, shared_ld: %u, shared_st: %u, global_ld: %u, "
                "global_st: %u, barriers: %u}\n"
                "  memory: {l1_hit: %.2f, l2_hit: %.2f, sectors_ld: %u, sectors_st: %u}\n"
                "simulation: {runs: 2}\n", t, 32 * (1 + pn_rng_below(&rng, 16)),
                1 + pn_rng_below(&rng, 600), pn_rng_below(&rng, 300), pn_rng_below(&rng, 30),
                pn_rng_below(&rng, 40), pn_rng_below(&rng, 12), pn_rng_below(&rng, 40),
                pn_rng_below(&rng, 12), t % 3 == 0 ? 1 + t / 3 % 4 : 0,
                pn_rng_below(&rng, 100) / 100.0,
                pn_rng_below(&rng, 101) / 100.0, 1 + pn_rng_below(&rng, 32),
                1 + pn_rng_below(&rng, 32));
        fclose(f);
        check_config(path, 2);
        remove(path);
    }
}

/* Property: over random SASS programs (fixed seed: straight-line mixes of
 * arithmetic, special functions, shared and global loads and stores, global
 * reductions and atomics, on a few registers so that some depend, with
 * random sectors, lines and thread counts) run as kernel.sass on the h100
 * profile's pipelined net at random grids, no run is below the largest of
 * the program's own bounds. */
static void random_sass_respect_bounds(void **state)
{
    (void)state;
    static const char *const ops[] = {
        "FFMA R%u, R%u, R%u, R%u", "IADD3 R%u, R%u, R%u, RZ", "MUFU.EX2 R%u, R%u",
        "LDG.E R%u, desc[UR4][R%u.64]", "STG.E desc[UR4][R%u.64], R%u",
        "LDS R%u, [R%u]", "STS [R%u], R%u", "REDG.E.ADD.STRONG.GPU desc[UR6][R%u.64], R%u",
        "ATOMG.E.ADD.STRONG.GPU PT, R%u, desc[UR6][R%u.64], R%u",
        "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR6][R%u.64], R%u",
    };
    pn_rng_t rng;
    pn_rng_seed(&rng, 2027);
    char path[64], prog_path[64], text[96];
    for (int t = 0; t < 30; t++) {
        uint32_t threads = 32 * (1 + pn_rng_below(&rng, 8)), blocks = 1 + pn_rng_below(&rng, 900);
        double warps = (double)blocks * (threads / 32);
        pn_sass_prog_t p;
        pn_error_t err = { 0 };
        snprintf(prog_path, sizeof prog_path, "build/test_steps_sass%d.sass", t);
        assert_int_equal(pn_sass_prog_init(&p, prog_path, "k", warps, &err), PN_OK);
        uint32_t n = 4 + pn_rng_below(&rng, 40), i;
        for (i = 0; i < n; i++) {
            uint32_t k = pn_rng_below(&rng, sizeof ops / sizeof *ops);
            uint32_t r[4];
            for (int j = 0; j < 4; j++)
                r[j] = 2 * pn_rng_below(&rng, 6);        /* R0..R10: some depend */
            snprintf(text, sizeof text, ops[k], r[0], r[1], r[2], r[3]);
            double sec = k >= 3 ? (1 + pn_rng_below(&rng, 32)) * warps : 0;
            double lines = sec > 0 ? (1 + pn_rng_below(&rng, 8)) * warps : 0;
            if (lines > sec)
                lines = sec;
            double wf = k == 5 || k == 6 ? (1 + pn_rng_below(&rng, 4)) * warps : 0;
            if (pn_sass_prog_add(&p, text, 16 * i, 0, warps, sec, lines, wf, i + 1, 1, &err) !=
                PN_OK)
                fail_msg("%s: %s", text, err.msg);
            p.ops[p.n - 1].threads = 1 + pn_rng_below(&rng, 32);
        }
        assert_int_equal(pn_sass_prog_add(&p, "EXIT", 16 * i, 0, warps, 0, 0, 0, i + 1, 1, &err),
                         PN_OK);
        assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
        FILE *f = fopen(prog_path, "w");
        assert_non_null(f);
        assert_int_equal(pn_sass_prog_write(f, &p, NULL, &err), PN_OK);
        fclose(f);
        pn_sass_prog_destroy(&p);
        snprintf(path, sizeof path, "build/test_steps_sass%d.yaml", t);
        f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "device: h100\nmodel: {net: pipelined}\nkernel:\n  name: k\n"
                "  threads: %u\n  blocks: %u\n  sass: test_steps_sass%d.sass\n"
                "  memory: {l1_hit: %.2f, l2_hit: %.2f}\nsimulation: {runs: 2}\n", threads,
                blocks, t, pn_rng_below(&rng, 100) / 100.0, pn_rng_below(&rng, 101) / 100.0);
        fclose(f);
        check_config(path, 2);
        remove(path);
        remove(prog_path);
    }
}

int main(void)
{
    if (pn_test_chdir_root("configs/example.yaml") != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_config_between_bounds),
        cmocka_unit_test(one_warp_exact),
        cmocka_unit_test(limit_follows_kernel),
        cmocka_unit_test(random_kernels_respect_bounds),
        cmocka_unit_test(random_sass_respect_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
