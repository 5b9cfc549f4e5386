/* test_calib.c - unit tests of calib/: the step-to-time fit (exact recovery of
 * known coefficients), error metrics, Spearman and leave-one-kernel-out by
 * hand, the roofline bound, the CSV and measurements readers (every malformed
 * fixture tests/calib/{meas,points}-bad-*.csv with its exact file:line:col),
 * resolving and simulating points, the calibrated profile writer, and kernel
 * names from ncu's signatures. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pn_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pn_baseline.h"
#include "pn_calib.h"
#include "pn_csv.h"
#include "pn_measure.h"
#include "pn_ncu.h"
#include "pn_points.h"
#include "pn_profile.h"

#define EPS 1e-9

/* Run from the repository root (make check does; else find it from the
 * built-in device directory). */
static int setup(void **state)
{
    (void)state;
    return pn_test_chdir_root("tests/calib");
}

/* ---- fit ------------------------------------------------------------------ */

static void test_fit_exact(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3, 5, 8, 13, 21};
    double y[7];
    for (int i = 0; i < 7; i++)
        y[i] = 0.25 * x[i] - 3.5;
    pn_fit_t f;
    assert_int_equal(pn_calib_fit(x, y, NULL, 7, &f, NULL), PN_OK);
    assert_true(fabs(f.a - 0.25) < EPS);
    assert_true(fabs(f.b + 3.5) < EPS);
    assert_true(f.sumsq < 1e-18);
    assert_int_equal(f.n, 7);
    assert_true(fabs(pn_calib_predict(&f, 10) - (-1.0)) < EPS);

    /* steps-sized x, as the calibration sees them; weighted fit too */
    const double xs[] = {401, 4001, 701, 7001, 2501, 10001};
    double ys[6], w[6];
    for (int i = 0; i < 6; i++) {
        ys[i] = 0.01 * xs[i] + 2;
        w[i] = 1 / (ys[i] * ys[i]);
    }
    assert_int_equal(pn_calib_fit(xs, ys, NULL, 6, &f, NULL), PN_OK);
    assert_true(fabs(f.a - 0.01) < EPS && fabs(f.b - 2) < EPS);
    assert_int_equal(pn_calib_fit(xs, ys, w, 6, &f, NULL), PN_OK);
    assert_true(fabs(f.a - 0.01) < EPS && fabs(f.b - 2) < EPS);

    /* a noisy line: OLS by hand, x = {0,1,2,3}, y = {1,3,2,6}: a = 1.4, b = 0.9 */
    const double xn[] = {0, 1, 2, 3}, yn[] = {1, 3, 2, 6};
    assert_int_equal(pn_calib_fit(xn, yn, NULL, 4, &f, NULL), PN_OK);
    assert_true(fabs(f.a - 1.4) < EPS && fabs(f.b - 0.9) < EPS);
    /* residuals 0.1, 0.7, -1.7, 0.9 */
    assert_true(fabs(f.sumsq - (0.01 + 0.49 + 2.89 + 0.81)) < EPS);
}

static void test_fit_errors(void **state)
{
    (void)state;
    pn_error_t err;
    pn_fit_t f;
    const double x[] = {5, 5, 5}, y[] = {1, 2, 3}, x2[] = {1, NAN}, w[] = {1, 0, 1};
    assert_int_equal(pn_calib_fit(x, y, NULL, 1, &f, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "fit: need at least 2 points with different x, got 1 point with 1 "
                     "distinct x", NULL);
    assert_int_equal(pn_calib_fit(x, y, NULL, 3, &f, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "fit: need at least 2 points with different x, got 3 points with 1 "
                     "distinct x", NULL);
    assert_int_equal(pn_calib_fit(x2, y, NULL, 2, &f, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "fit: point 1 is not finite", NULL);
    const double x3[] = {1, 2, 3};
    assert_int_equal(pn_calib_fit(x3, y, w, 3, &f, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "fit: point 1 is not finite", "weight <= 0");
}

/* ---- metrics --------------------------------------------------------------- */

static void test_metrics_by_hand(void **state)
{
    (void)state;
    const double y[] = {1, 2, 4}, p[] = {1.1, 1.8, 4.4};
    pn_calib_metrics_t m;
    pn_calib_metrics(y, p, 3, &m);
    /* SSE = 0.01 + 0.04 + 0.16 = 0.21; SST = 16/9 + 1/9 + 25/9 = 42/9 */
    assert_true(fabs(m.r2 - (1 - 0.21 / (42.0 / 9))) < EPS);
    assert_true(fabs(m.rmse - sqrt(0.07)) < EPS);
    assert_true(fabs(m.mape - 10) < EPS);
    assert_true(fabs(m.max_ape - 10) < EPS);
    double geo = (exp((2 * log(1.1) - log(0.9)) / 3) - 1) * 100;
    assert_true(fabs(m.geo - geo) < EPS);
    assert_int_equal(m.n_nonpos, 0);

    /* a prediction <= 0: no geometric error */
    const double p2[] = {-1, 2, 4};
    pn_calib_metrics(y, p2, 3, &m);
    assert_true(isnan(m.geo));
    assert_int_equal(m.n_nonpos, 1);
    assert_true(fabs(m.mape - 200.0 / 3) < EPS);
    assert_true(fabs(m.max_ape - 200) < EPS);

    /* one point: no R2 */
    pn_calib_metrics(y, p, 1, &m);
    assert_true(isnan(m.r2));
    assert_true(fabs(m.mape - 10) < EPS);
}

static void test_spearman_by_hand(void **state)
{
    (void)state;
    /* ranks of b: 1, 2, 3.5, 5, 3.5; Pearson of the ranks = 8 / sqrt(10 * 9.5) */
    const double a[] = {1, 2, 3, 4, 5}, b[] = {5, 6, 7, 8, 7};
    assert_true(fabs(pn_calib_spearman(a, b, 5) - 8 / sqrt(95)) < EPS);
    const double c[] = {50, 40, 30, 20, 10};
    assert_true(fabs(pn_calib_spearman(a, c, 5) + 1) < EPS);
    const double k[] = {3, 3, 3, 3, 3};
    assert_true(isnan(pn_calib_spearman(a, k, 5)));
    assert_true(isnan(pn_calib_spearman(a, b, 1)));
}

/* ---- leave one kernel out -------------------------------------------------- */

/* Three kernels A, B, C of two points each. By hand:
 *   without A: x {3,4,5,6}, y {7,8,9,13}: a = 9.5/5 = 1.9, b = 9.25 - 1.9*4.5 = 0.7
 *              A's predictions 2.6 and 4.5
 *   without B: x {1,2,5,6}, y {2,4,9,13}: a = 35/17, b = 7 - 3.5*35/17 = -3.5/17
 *              B's predictions 101.5/17 and 136.5/17
 *   without C: x {1,2,3,4}, y {2,4,7,8}: a = 10.5/5 = 2.1, b = 0
 *              C's predictions 10.5 and 12.6 */
static const double loo_x[] = {1, 2, 3, 4, 5, 6}, loo_y[] = {2, 4, 7, 8, 9, 13};
static const size_t loo_g[] = {0, 0, 1, 1, 2, 2};

static void test_loo_by_hand(void **state)
{
    (void)state;
    double pred[6];
    assert_int_equal(pn_calib_loo(loo_x, loo_y, NULL, loo_g, 6, 3, pred, NULL), PN_OK);
    const double want[] = {2.6, 4.5, 101.5 / 17, 136.5 / 17, 10.5, 12.6};
    for (int i = 0; i < 6; i++)
        assert_true(fabs(pred[i] - want[i]) < EPS);

    pn_model_eval_t e;
    assert_int_equal(pn_calib_evaluate(loo_x, loo_y, NULL, loo_g, 6, 3, &e, NULL), PN_OK);
    assert_int_equal(e.n_groups, 3);
    /* A: |2.6-2|/2 = 30%, |4.5-4|/4 = 12.5% */
    assert_true(fabs(e.groups[0].loo.mape - 21.25) < EPS);
    /* C: |10.5-9|/9, |12.6-13|/13 */
    assert_true(fabs(e.groups[2].loo.mape - (1.5 / 9 + 0.4 / 13) / 2 * 100) < EPS);
    double all = 0;
    for (int i = 0; i < 6; i++)
        all += fabs(want[i] - loo_y[i]) / loo_y[i];
    assert_true(fabs(e.loo.mape - all / 6 * 100) < EPS);
    /* the fit on all six points: x mean 3.5, y mean 43/6; Sxx 17.5, Sxy 35.5 */
    assert_true(fabs(e.fit.a - 35.5 / 17.5) < EPS);
    assert_true(fabs(e.fit.b - (43.0 / 6 - 3.5 * 35.5 / 17.5)) < EPS);
    assert_true(fabs(e.pred[0] - (e.fit.a + e.fit.b)) < EPS);
    assert_int_equal(e.groups[1].n, 2);
    assert_true(fabs(e.groups[0].spearman - 1) < EPS);
    assert_true(fabs(e.spearman - 1) < EPS);
    pn_model_eval_destroy(&e);
    pn_model_eval_destroy(&e);    /* harmless twice */

    /* two groups, one of them all at one x: the other cannot be predicted */
    const double x2[] = {1, 1, 2, 3}, y2[] = {1, 2, 3, 4};
    const size_t g2[] = {0, 0, 1, 1};
    assert_int_equal(pn_calib_loo(x2, y2, NULL, g2, 4, 2, pred, NULL), PN_OK);
    assert_true(isnan(pred[2]) && isnan(pred[3]));
    assert_false(isnan(pred[0]));
    pn_error_t err;
    const size_t g3[] = {0, 0, 5, 1};
    assert_int_equal(pn_calib_loo(x2, y2, NULL, g3, 4, 2, pred, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "loo: point 2 has group 5 of 2", NULL);
}

/* ---- baselines ---------------------------------------------------------- */

static void test_roofline(void **state)
{
    (void)state;
    /* warp 0: 100 arith (401 steps alone); warp 1: 10/5/5 (201 steps alone). l1 20, l2 2.
     * issue: 3*100 + (3*10 + 6*5 + 2*5) = 370 scheduler-steps */
    const pn_warp_counts_t w[2] = {{100, 0, 0}, {10, 5, 5}};
    assert_true(fabs(pn_baseline_warp_steps(&w[1], 20, 2) - 201) < EPS);
    assert_true(fabs(pn_baseline_roofline(w, 2, 2, 20, 2) - 401) < EPS);   /* latency bound */
    assert_true(fabs(pn_baseline_bbv_weighted(w, 2, 20, 2) - 602) < EPS);
    const pn_warp_counts_t many[8] = {{100, 0, 0}, {100, 0, 0}, {100, 0, 0}, {100, 0, 0},
                                      {100, 0, 0}, {100, 0, 0}, {100, 0, 0}, {100, 0, 0}};
    assert_true(fabs(pn_baseline_roofline(many, 8, 1, 20, 2) - 2400) < EPS); /* issue bound */
    assert_true(fabs(pn_baseline_roofline(many, 8, 4, 20, 2) - 600) < EPS);
}

/* ---- CSV and measurements ------------------------------------------------- */

static void test_csv_parse(void **state)
{
    (void)state;
    static const char text[] =
        "# comment\r\n"
        "\n"
        "  a , \"b,c\" ,d\r\n"
        "   # indented comment\n"
        "1,\"say \"\"hi\"\"\",  \n"
        " x ,, \"\"";
    pn_csv_t c;
    assert_int_equal(pn_csv_parse(&c, text, sizeof text - 1, "mem.csv", NULL), PN_OK);
    assert_int_equal(c.header.line, 3);
    assert_int_equal(c.header.n, 3);
    assert_string_equal(c.header.f[1].text, "b,c");
    assert_int_equal(c.header.f[1].col, 7);
    assert_int_equal(pn_csv_column(&c, "d"), 2);
    assert_int_equal(pn_csv_column(&c, "b"), -1);
    assert_int_equal(c.n_rows, 2);
    assert_int_equal(c.rows[0].line, 5);
    assert_string_equal(c.rows[0].f[1].text, "say \"hi\"");
    assert_string_equal(c.rows[0].f[2].text, "");
    assert_string_equal(c.rows[1].f[0].text, "x");
    assert_int_equal(c.rows[1].f[0].col, 2);
    assert_string_equal(c.rows[1].f[2].text, "");
    pn_csv_destroy(&c);
    pn_csv_destroy(&c);
    pn_csv_destroy(NULL);

    pn_error_t err;
    assert_int_equal(pn_csv_parse(&c, "a,b\n1\0", 6, "nul.csv", &err), PN_ESYNTAX);
    pn_test_expect_msg(&err, "nul.csv:2: NUL byte", NULL);
    assert_null(c.buf);
    assert_int_equal(pn_csv_parse(&c, "", 0, "e.csv", &err), PN_ESYNTAX);
    pn_test_expect_msg(&err, "e.csv:1:1: empty file, expected a header row", NULL);

    char *p = pn_csv_resolve_path("a/b/m.csv", "c.yaml");
    assert_string_equal(p, "a/b/c.yaml");
    free(p);
    p = pn_csv_resolve_path("m.csv", "../c.yaml");
    assert_string_equal(p, "../c.yaml");
    free(p);
    p = pn_csv_resolve_path("/m.csv", "c.yaml");
    assert_string_equal(p, "/c.yaml");
    free(p);
    p = pn_csv_resolve_path("a/m.csv", "/abs/c.yaml");
    assert_string_equal(p, "/abs/c.yaml");
    free(p);
}

static void test_measure_good(void **state)
{
    (void)state;
    pn_measure_t m;
    pn_error_t err;
    assert_int_equal(pn_measure_load(&m, "tests/calib/meas-good.csv", &err), PN_OK);
    assert_int_equal(m.n_points, 6);
    assert_string_equal(m.path, "tests/calib/meas-good.csv");
    const pn_measure_point_t *p = &m.points[0];
    assert_int_equal(p->line, 4);
    assert_string_equal(p->config, "k-arith.yaml");
    assert_string_equal(p->config_path, "tests/calib/k-arith.yaml");
    assert_string_equal(p->kernel, "k_arith");
    assert_int_equal(p->threads, 32);
    assert_int_equal(p->n_params, 1);
    assert_string_equal(p->params[0].name, "K");
    assert_true(p->params[0].value == 100);
    assert_true(p->median_us == 6.01);
    assert_int_equal(m.points[1].threads, 0);         /* empty: the config's */
    assert_string_equal(m.points[3].config, "k-shared.yaml");   /* was quoted */
    assert_int_equal(m.points[3].n_params, 1);        /* " K = 1000 " */
    assert_true(m.points[3].params[0].value == 1000);
    assert_int_equal(m.points[5].n_params, 1);        /* "K=400;" */
    pn_measure_destroy(&m);
    pn_measure_destroy(&m);

    pn_measure_param_t *ps;
    size_t n;
    assert_int_equal(pn_measure_params_parse("a=1; b_2 = -2.5e3 ;;", "f", 1, 10, &ps, &n, &err),
                     PN_OK);
    assert_int_equal(n, 2);
    assert_string_equal(ps[1].name, "b_2");
    assert_true(ps[1].value == -2500);
    assert_int_equal(ps[1].col, 15);
    pn_measure_params_free(ps, n);
    assert_int_equal(pn_measure_params_parse("", "f", 1, 1, &ps, &n, &err), PN_OK);
    assert_int_equal(n, 0);
    assert_int_equal(pn_measure_params_parse("a=inf", "f", 2, 3, &ps, &n, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "f:2:5: params: value of 'a' must be a finite number, got 'inf'", NULL);
}

static pn_status_t load_meas(const char *path, pn_error_t *err)
{
    pn_measure_t m;
    pn_status_t st = pn_measure_load(&m, path, err);
    assert_null(m.points);        /* left zeroed on error */
    pn_measure_destroy(&m);
    return st;
}

static pn_status_t load_points(const char *path, pn_error_t *err)
{
    pn_measure_t m;
    pn_device_t dev;
    pn_point_set_t s;
    assert_int_equal(pn_device_load(&dev, "tests/calib/devices/h100-uncal.yaml", NULL, 0, 0, NULL), PN_OK);
    assert_int_equal(pn_measure_load(&m, path, NULL), PN_OK);
    pn_status_t st = pn_points_resolve(&s, &m, &dev, NULL, err);
    assert_int_equal(s.n_points, 0);
    pn_points_destroy(&s);
    pn_measure_destroy(&m);
    pn_device_destroy(&dev);
    return st;
}

static void test_measure_bad(void **state)
{
    (void)state;
    assert_true(pn_test_bad_fixtures("tests/calib", "meas-bad-", ".csv", load_meas) >= 2);
    assert_true(pn_test_bad_fixtures("tests/calib", "points-bad-", ".csv", load_points) >= 2);

    /* an empty file and a missing file */
    char path[] = "/tmp/pnsim-test-calib-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    pn_error_t err;
    char want[128];
    assert_int_equal(load_meas(path, &err), PN_ESYNTAX);
    snprintf(want, sizeof want, "%s:1:1: empty file, expected a header row", path);
    pn_test_expect_msg(&err, want, NULL);
    unlink(path);
    assert_int_equal(load_meas(path, &err), PN_EIO);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    pn_test_expect_msg(&err, want, NULL);
    assert_int_equal(load_meas("tests/calib", &err), PN_EIO);
    pn_test_expect_msg(&err, "tests/calib: cannot open: not a regular file", NULL);
}

/* ---- points --------------------------------------------------------------- */

static void test_points(void **state)
{
    (void)state;
    pn_measure_t m;
    pn_device_t dev;
    pn_point_set_t s;
    pn_error_t err;
    assert_int_equal(pn_device_load(&dev, "tests/calib/devices/h100-uncal.yaml", NULL, 0, 0, NULL), PN_OK);
    assert_int_equal(pn_measure_load(&m, "tests/calib/meas-good.csv", NULL), PN_OK);
    pn_point_opts_t o = { .runs = 3 };
    assert_int_equal(pn_points_resolve(&s, &m, &dev, &o, &err), PN_OK);
    assert_int_equal(s.n_points, 6);
    assert_int_equal(s.n_configs, 3);
    assert_int_equal(s.n_groups, 3);
    assert_string_equal(s.groups[1], "k_shared");
    assert_int_equal(s.points[1].k.threads, 32);      /* empty threads: the config's */
    pn_kernel_t k1, k2;                                /* counts resolved again */
    assert_int_equal(pn_point_kernel(&s, 1, &k1, &err), PN_OK);
    assert_int_equal(pn_point_kernel(&s, 2, &k2, &err), PN_OK);
    assert_int_equal(k1.sm.warps[0].arith, 1000);
    assert_int_equal(k2.sm.warps[0].shared, 100);
    pn_kernel_destroy(&k1);
    pn_kernel_destroy(&k2);
    assert_int_equal(s.points[2].runs, 3);
    assert_int_equal(s.points[2].seed, 1);

    /* one warp: the steps are exact, whatever the jobs */
    const double k[6] = {100, 1000, 100, 1000, 100, 400};
    const double per[3] = {4, 7, 25};
    for (unsigned jobs = 1; jobs <= 4; jobs += 3) {
        assert_int_equal(pn_points_simulate(&s, PN_ENGINE_DEFAULT, 0, 0, jobs, NULL, &err),
                         PN_OK);
        for (int i = 0; i < 6; i++) {
            assert_true(s.points[i].steps_mean == per[i / 2] * k[i] + 1);
            assert_true(s.points[i].steps_sd == 0);
        }
    }
    assert_int_equal(pn_points_simulate(&s, PN_ENGINE_LITERAL, 40, 5, 2, NULL, &err), PN_OK);
    assert_true(s.points[5].steps_mean == 45 * 400 + 1);
    assert_true(s.points[3].steps_mean == 10 * 1000 + 1);
    assert_int_equal(s.points[5].l1, 40);
    pn_points_destroy(&s);

    o.kernels = "k_global,k_arith";
    assert_int_equal(pn_points_resolve(&s, &m, &dev, &o, &err), PN_OK);
    assert_int_equal(s.n_points, 4);
    assert_int_equal(s.n_groups, 2);
    assert_string_equal(s.groups[0], "k_arith");
    pn_points_destroy(&s);
    o.kernels = "k_arith,nosuch";
    assert_int_equal(pn_points_resolve(&s, &m, &dev, &o, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "--kernels: no point of tests/calib/meas-good.csv has kernel 'nosuch'",
               NULL);

    /* max_steps reached: blamed on the point's line */
    o.kernels = NULL;
    o.max_steps = 50;
    assert_int_equal(pn_points_resolve(&s, &m, &dev, &o, &err), PN_OK);
    assert_int_equal(pn_points_simulate(&s, PN_ENGINE_DEFAULT, 0, 0, 1, NULL, &err),
                     PN_ELIMIT);
    pn_test_expect_msg(&err, "tests/calib/meas-good.csv:", "max_steps = 50");
    pn_points_destroy(&s);
    pn_measure_destroy(&m);
    pn_device_destroy(&dev);
}

/* ---- profile writer ------------------------------------------------------- */

/* Kernel names as ncu prints them on its raw page (abbreviated) and source page (in full),
 * from the H100 profiles of examples/library: both give the function's own name. */
static void test_kernel_name(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        { "dp_serial(const float *, float *, long)", "dp_serial" },
        { "void dp_serial<(int)4>(const float *, float *)", "dp_serial" },
        { "void reduce::DeviceReduceKernel<reduce::policy_hub<float, unsigned int, "
          "cuda::plus<void>>::Policy1000, float *, unsigned int>(T2, T5 *, T3)",
          "DeviceReduceKernel" },
        { "void cub::CUB_300001_SM_900::detail::reduce::DeviceReduceKernel<cub::CUB_300001_"
          "SM_900::detail::reduce::policy_hub<float, unsigned int, cuda::std::__4::plus<void>>"
          "::Policy1000, float *>(T2, T5 *, T3, cub::CUB_300001_SM_900::GridEvenShare<T3>)",
          "DeviceReduceKernel" },
        { "std::enable_if<!T7, void>::type internal::gemvx::kernel<int, int, float, (bool)0, "
          "cublasGemvParamsEx<int, float>>(T13)", "kernel" },
        { "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3", "sm80_xmma_gemm_f32f32_"
          "f32f32_f32_nn_n_tilesize128x64x8_stage3" },
        { "void at::native::(anonymous namespace)::softmax_warp_forward<float, float, float, 10, "
          "false, false>(T2 *, const T1 *, int, int, int, const bool *, int, bool)",
          "softmax_warp_forward" },
        { "void f<(lambda [](int)->float)>(int) ", "f" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        const char *k = pn_ncu_kernel_name(cases[i][0], &len);
        char got[256];
        snprintf(got, sizeof got, "%.*s", (int)len, k);
        assert_string_equal(got, cases[i][1]);
    }
}

static void test_profile_write(void **state)
{
    (void)state;
    static const char in[] =
        "# a profile\n"
        "name: x\n"
        "latency:\n"
        "  global: 20   # l1\n"
        "  shared: 2\n"
        "\n"
        "calibration: {us_per_step: 1,\n"
        "  us_offset: 2}\n"
        "# trailing comment\n"
        "sms: 4";
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    pn_calibration_t c = { .us_per_step = 0.000125, .us_offset = -1.5,
                           .source = "fit \"x\" \\ y", .set_latency = 1, .l1 = 200,
                           .l2 = 12, .latency_note = "searched" };
    assert_int_equal(pn_profile_write(f, in, sizeof in - 1, &c, NULL), PN_OK);
    fclose(f);
    assert_string_equal(buf,
        "# a profile\n"
        "name: x\n"
        "latency:                    # searched\n"
        "  global: 200\n"
        "  shared: 12\n"
        "\n"
        "# trailing comment\n"
        "sms: 4\n"
        "calibration:                # time_us = us_per_step * steps + us_offset\n"
        "  us_per_step: 0.000125\n"
        "  us_offset: -1.5\n"
        "  source: \"fit \\\"x\\\" \\\\ y\"\n");
    free(buf);

    pn_error_t err;
    f = open_memstream(&buf, &len);
    c.us_per_step = 0;
    assert_int_equal(pn_profile_write(f, in, sizeof in - 1, &c, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "calibration: us_per_step must be a finite number > 0", NULL);
    c.us_per_step = 1;
    assert_int_equal(pn_profile_write(f, "name: x\n", 8, &c, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "device profile has no top-level 'latency:' key to replace", NULL);
    fclose(f);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_exact),
        cmocka_unit_test(test_fit_errors),
        cmocka_unit_test(test_metrics_by_hand),
        cmocka_unit_test(test_spearman_by_hand),
        cmocka_unit_test(test_loo_by_hand),
        cmocka_unit_test(test_roofline),
        cmocka_unit_test(test_csv_parse),
        cmocka_unit_test(test_measure_good),
        cmocka_unit_test(test_measure_bad),
        cmocka_unit_test(test_points),
        cmocka_unit_test(test_profile_write),
        cmocka_unit_test(test_kernel_name),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
