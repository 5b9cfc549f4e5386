/* test_config.c - unit tests of the config reader (models/config/pn_config.c): parsed
 * fields, defaults, count expressions and rounding, per-warp overrides, and
 * every error case of tests/bad/ with its exact "file:line:col:" prefix. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pn_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pn_kernel_net.h"
#include "pn_device.h"

/* Fail unless err's message starts with prefix and contains sub. */
/* Load text as file "t.yaml"; return the status, cfg filled on success. */
static pn_status_t load(pn_config_t *cfg, const char *text, pn_error_t *err)
{
    pn_error_clear(err);
    return pn_config_load_string(cfg, text, strlen(text), "t.yaml", err);
}

/* Load text and expect an error whose message starts with "t.yaml:prefix". */
static void load_fails(const char *text, const char *where, const char *sub)
{
    pn_config_t cfg;
    pn_error_t err;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "t.yaml:%s", where);
    assert_int_not_equal(load(&cfg, text, &err), PN_OK);
    pn_test_expect_msg(&err, prefix, sub);
    /* left empty */
    assert_null(cfg.path);
    assert_null(cfg.device);
    assert_null(cfg.params);
    pn_config_destroy(&cfg);
}

static int setup_cwd(void **state)
{
    (void)state;
    return pn_test_chdir_root("tests/bad");
}

/* ---- good configs ------------------------------------------------------- */

static void test_example_fields(void **state)
{
    (void)state;
    pn_config_t c;
    pn_error_t err;
    assert_int_equal(pn_config_load(&c, "tests/good/radix.yaml", &err), PN_OK);
    assert_string_equal(c.path, "tests/good/radix.yaml");
    assert_string_equal(c.device, "gtx960m");
    assert_int_equal(c.device_pos.line, 2);
    assert_int_equal(c.device_pos.col, 9);
    assert_true(c.has_schedulers && c.has_l1 && c.has_l2);
    assert_int_equal(c.schedulers, 4);
    assert_int_equal(c.l1, 20);
    assert_int_equal(c.l2, 2);
    assert_int_equal(c.l1_pos.line, 5);
    assert_int_equal(c.l1_pos.col, 21);
    assert_string_equal(c.selection, "paper");
    assert_int_equal(c.n_params, 1);
    assert_string_equal(c.params[0].name, "n");
    assert_true(c.params[0].value == 65536.0);
    assert_string_equal(c.kernel_name, "radix-global");
    assert_int_equal(c.threads, 256);
    assert_int_equal(c.threads_pos.line, 10);
    assert_int_equal(c.threads_pos.col, 12);
    assert_string_equal(c.count[PN_KIND_ARITH].text, "32 * (12 * n / threads + 40)");
    assert_int_equal(c.count[PN_KIND_ARITH].pos.line, 12);
    assert_int_equal(c.count[PN_KIND_ARITH].pos.col, 12);
    assert_string_equal(c.count[PN_KIND_SHARED].text, "0");
    assert_string_equal(c.count[PN_KIND_GLOBAL].text, "32 * (2 * n / threads)");
    assert_int_equal(c.n_overrides, 1);
    assert_int_equal(c.overrides[0].warp, 0);
    assert_int_equal(c.overrides[0].pos.line, 16);
    assert_int_equal(c.overrides[0].pos.col, 7);
    assert_string_equal(c.overrides[0].count[PN_KIND_ARITH].text,
                        "32 * (12 * n / threads + 40) + 9 * threads");
    assert_null(c.overrides[0].count[PN_KIND_SHARED].text);
    assert_null(c.overrides[0].count[PN_KIND_GLOBAL].text);
    assert_int_equal(c.runs, 10);
    assert_int_equal(c.seed, 1);
    assert_int_equal(c.max_steps, 100000000);
    assert_int_equal(c.n_sweep, 1);
    assert_string_equal(c.sweep[0].name, "threads");
    assert_int_equal(c.sweep[0].n_values, 5);
    assert_true(c.sweep[0].values[0] == 64 && c.sweep[0].values[4] == 1024);
    assert_int_equal(c.sweep[0].pos.line, 19);
    assert_int_equal(c.sweep[0].pos.col, 3);
    pn_config_destroy(&c);
    assert_null(c.path);
}

static void test_example_counts(void **state)
{
    (void)state;
    pn_config_t c;
    pn_error_t err;
    pn_warp_counts_t w[8];
    assert_int_equal(pn_config_load(&c, "tests/good/radix.yaml", &err), PN_OK);
    assert_int_equal(pn_config_counts(&c, 256, NULL, w, &err), PN_OK);
    /* 32 * (12 * 65536 / 256 + 40) = 32 * 3112 = 99584; warp 0 adds 9 * 256 */
    assert_int_equal(w[0].arith, 99584 + 2304);
    for (int i = 1; i < 8; i++)
        assert_int_equal(w[i].arith, 99584);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(w[i].shared, 0);
        assert_int_equal(w[i].global, 16384);   /* 32 * (2 * 65536 / 256) */
    }
    /* another block size: 128 threads, 4 warps */
    assert_int_equal(pn_config_counts(&c, 128, NULL, w, &err), PN_OK);
    assert_int_equal(w[1].arith, 32 * (12 * 65536 / 128 + 40));
    assert_int_equal(w[0].arith, 32 * (12 * 65536 / 128 + 40) + 9 * 128);
    assert_int_equal(w[3].global, 32 * (2 * 65536 / 128));
    /* params from the caller */
    double n = 131072;
    assert_int_equal(pn_config_counts(&c, 256, &n, w, &err), PN_OK);
    assert_int_equal(w[5].arith, 32 * (12 * 131072 / 256 + 40));
    assert_int_equal(w[5].global, 32 * (2 * 131072 / 256));
    pn_config_destroy(&c);
}

static void test_example_resolve(void **state)
{
    (void)state;
    pn_config_t c;
    pn_device_t d;
    pn_kernel_t k;
    pn_error_t err;
    assert_int_equal(pn_config_load(&c, "tests/good/radix.yaml", &err), PN_OK);
    assert_int_equal(pn_device_load(&d, c.device, c.path, c.device_pos.line, c.device_pos.col,
                                    &err), PN_OK);
    assert_int_equal(pn_kernel_resolve(&c, &d, 0, NULL, &k, &err), PN_OK);
    assert_int_equal(k.threads, 256);
    assert_int_equal(k.sm.n_warps, 8);
    assert_int_equal(k.sm.schedulers, 4);
    assert_int_equal(k.sm.l1, 20);
    assert_int_equal(k.sm.l2, 2);
    assert_int_equal(k.sm.warps[0].arith, 101888);
    assert_int_equal(k.sm.warps[7].arith, 99584);
    assert_int_equal(k.sm.warps[7].global, 16384);
    pn_kernel_destroy(&k);
    assert_null(k.sm.warps);
    /* a sweep point: 1024 threads = 32 warps */
    assert_int_equal(pn_kernel_resolve(&c, &d, 1024, NULL, &k, &err), PN_OK);
    assert_int_equal(k.threads, 1024);
    assert_int_equal(k.sm.n_warps, 32);
    assert_int_equal(k.sm.warps[31].arith, 32 * (12 * 65536 / 1024 + 40));
    pn_kernel_destroy(&k);
    /* 33 threads -> 2 warps */
    assert_int_equal(pn_kernel_resolve(&c, &d, 33, NULL, &k, &err), PN_OK);
    assert_int_equal(k.sm.n_warps, 2);
    pn_kernel_destroy(&k);
    pn_device_destroy(&d);
    pn_config_destroy(&c);
}

static void test_defaults(void **state)
{
    (void)state;
    pn_config_t c;
    pn_error_t err;
    pn_warp_counts_t w[4];
    assert_int_equal(pn_config_load(&c, "tests/good/minimal.yaml", &err), PN_OK);
    assert_string_equal(c.device, "gtx960m");
    assert_int_equal(c.device_pos.line, 0);
    assert_string_equal(c.kernel_name, "minimal");
    assert_string_equal(c.selection, "paper");
    assert_false(c.has_schedulers || c.has_l1 || c.has_l2);
    assert_int_equal(c.n_params, 0);
    assert_int_equal(c.threads, 100);
    assert_int_equal(c.runs, 10);
    assert_int_equal(c.seed, 1);
    assert_int_equal(c.max_steps, 100000000);
    assert_int_equal(c.n_overrides, 0);
    assert_int_equal(c.n_sweep, 0);
    for (int i = 0; i < PN_KIND_COUNT; i++)
        assert_null(c.count[i].text);
    /* missing counts are 0 */
    memset(w, 0xff, sizeof w);
    assert_int_equal(pn_config_counts(&c, 100, NULL, w, &err), PN_OK);
    for (int i = 0; i < 4; i++)
        assert_true(w[i].arith == 0 && w[i].shared == 0 && w[i].global == 0);
    pn_config_destroy(&c);

    /* kernel name from a name without directory or extension; null sections */
    const char *text = "model:\nkernel: {threads: 1}\n";
    assert_int_equal(pn_config_load_string(&c, text, strlen(text), "some/dir/k.v2.yaml", &err),
                     PN_OK);
    assert_string_equal(c.kernel_name, "k.v2");
    assert_string_equal(c.path, "some/dir/k.v2.yaml");
    pn_config_destroy(&c);
}

static void test_device_relative_and_calibrated(void **state)
{
    (void)state;
    pn_config_t c;
    pn_device_t d;
    pn_kernel_t k;
    pn_error_t err;
    assert_int_equal(pn_config_load(&c, "tests/good/calibrated.yaml", &err), PN_OK);
    assert_int_equal(c.n_params, 2);
    assert_string_equal(c.params[1].name, "k");
    assert_true(c.params[1].value == 2.5);
    assert_int_equal(c.runs, 3);
    assert_true(c.seed == UINT64_MAX);
    assert_int_equal(c.max_steps, 5000);
    assert_int_equal(c.n_sweep, 3);
    assert_string_equal(c.sweep[0].name, "n");
    assert_true(c.sweep[0].values[1] == 2048.5);
    assert_string_equal(c.sweep[2].name, "global");
    assert_int_equal(c.sweep[2].n_values, 3);
    assert_string_equal(c.overrides[0].count[PN_KIND_GLOBAL].text, "0");
    assert_int_equal(pn_device_load(&d, c.device, c.path, c.device_pos.line, c.device_pos.col,
                                    &err), PN_OK);
    assert_string_equal(d.name, "testgpu");
    assert_string_equal(d.path, "tests/good/devices/calibrated.yaml");
    assert_int_equal(pn_kernel_resolve(&c, &d, 0, NULL, &k, &err), PN_OK);
    assert_int_equal(k.sm.n_warps, 3);
    assert_int_equal(k.sm.schedulers, 2);   /* from the device */
    assert_int_equal(k.sm.l1, 30);
    assert_int_equal(k.sm.l2, 3);
    /* arith = 2.5 * warp + 1: 1, 3.5 -> 4, 6; global = warps; warp 2 overridden */
    assert_int_equal(k.sm.warps[0].arith, 1);
    assert_int_equal(k.sm.warps[1].arith, 4);
    assert_int_equal(k.sm.warps[2].arith, 6);
    assert_int_equal(k.sm.warps[0].global, 3);
    assert_int_equal(k.sm.warps[1].global, 3);
    assert_int_equal(k.sm.warps[2].global, 0);
    assert_int_equal(k.sm.warps[1].shared, 0);
    assert_int_equal(k.sm.warps[2].shared, 7);
    pn_kernel_destroy(&k);
    /* sweep point n = 2048.5: arith = 2.5 * warp + 2.0004... */
    double pv[2] = {2048.5, 2.5};
    assert_int_equal(pn_kernel_resolve(&c, &d, 0, pv, &k, &err), PN_OK);
    assert_int_equal(k.sm.warps[0].arith, 2);
    assert_int_equal(k.sm.warps[1].arith, 5);
    assert_int_equal(k.sm.warps[2].arith, 7);
    pn_kernel_destroy(&k);
    /* above the device's 256 threads per block */
    assert_int_equal(pn_kernel_resolve(&c, &d, 512, NULL, &k, &err), PN_ELIMIT);
    pn_test_expect_msg(&err, "tests/good/calibrated.yaml:5:12: ",
               "threads must be between 1 and 256 for device testgpu, got 512");
    assert_null(k.sm.warps);
    pn_device_destroy(&d);
    pn_config_destroy(&c);
}

static void test_warp_variable(void **state)
{
    (void)state;
    pn_config_t c;
    pn_error_t err;
    pn_warp_counts_t w[4];
    assert_int_equal(load(&c,
                          "kernel:\n"
                          "  threads: 100\n"
                          "  counts: {arith: \"warp * 10 + 1\", shared: warps,"
                          " global: threads / 32}\n"
                          "  warps:\n"
                          "    - {warp: 3, arith: \"warp * 1000\", shared: 0}\n",
                          &err), PN_OK);
    assert_int_equal(pn_config_counts(&c, 100, NULL, w, &err), PN_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(w[i].arith, (uint64_t)(i * 10 + 1));
        assert_int_equal(w[i].shared, 4);
        assert_int_equal(w[i].global, 3);   /* 3.125 */
    }
    assert_int_equal(w[3].arith, 3000);
    assert_int_equal(w[3].shared, 0);
    assert_int_equal(w[3].global, 3);     /* not overridden */
    pn_config_destroy(&c);
}

/* Counts are rounded to nearest with halves away from zero (C round()). */
static void test_rounding(void **state)
{
    (void)state;
    pn_config_t c;
    pn_error_t err;
    pn_warp_counts_t w[5];
    assert_int_equal(load(&c,
                          "kernel:\n"
                          "  threads: 160\n"
                          "  counts: {arith: 2.5, shared: \"threads / 64\", global: \"-0.4\"}\n"
                          "  warps:\n"
                          "    - {warp: 1, arith: 3.5, shared: 0.49999, global: 1e3}\n"
                          "    - {warp: 2, arith: \"2.4999\", shared: \"0.5\","
                          " global: \"4294967295.4\"}\n"
                          "    - {warp: 3, arith: \"sqrt(threads) * pi\", shared: \"2 ^ -1\","
                          " global: \"--(1_pi * 0 + 2^3)\"}\n",
                          &err), PN_OK);
    assert_int_equal(pn_config_counts(&c, 160, NULL, w, &err), PN_OK);
    assert_int_equal(w[0].arith, 3);      /* 2.5 -> 3 */
    assert_int_equal(w[0].shared, 3);     /* 160 / 64 = 2.5 -> 3 */
    assert_int_equal(w[0].global, 0);     /* -0.4 -> -0 = 0 */
    assert_int_equal(w[1].arith, 4);      /* 3.5 -> 4 */
    assert_int_equal(w[1].shared, 0);
    assert_int_equal(w[1].global, 1000);
    assert_int_equal(w[2].arith, 2);
    assert_int_equal(w[2].shared, 1);     /* 0.5 -> 1 */
    assert_int_equal(w[2].global, 4294967295u);
    assert_int_equal(w[3].arith, 40);     /* sqrt(160) * pi = 39.74 */
    assert_int_equal(w[3].shared, 1);     /* 0.5 */
    assert_int_equal(w[3].global, 8);
    assert_int_equal(w[4].shared, 3);
    /* 224 threads: 3.5 -> 4 */
    pn_warp_counts_t w7[7];
    assert_int_equal(pn_config_counts(&c, 224, NULL, w7, &err), PN_OK);
    assert_int_equal(w7[0].shared, 4);
    assert_int_equal(w7[6].shared, 4);
    pn_config_destroy(&c);
}

/* Errors found while evaluating, at the expression's or the override's position. */
static void test_count_errors(void **state)
{
    (void)state;
    pn_config_t c;
    pn_device_t d;
    pn_kernel_t k;
    pn_error_t err;
    pn_warp_counts_t w[32];
    assert_int_equal(load(&c,
                          "params: {n: 10}\n"
                          "kernel:\n"
                          "  threads: 256\n"
                          "  counts: {arith: \"n - warp\", global: \"1 / (threads - 64)\"}\n"
                          "  warps:\n"
                          "    - {warp: 5, shared: 1}\n"
                          "sweep: {threads: [64, 2048]}\n",
                          &err), PN_OK);
    /* warp 10 of 32: 10 - 11 < 0 */
    assert_int_equal(pn_config_counts(&c, 1024, NULL, w, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "t.yaml:4:19: ",
               "kernel.counts.arith: count 'n - warp' evaluates to -1 for warp 11 "
               "(threads 1024)");
    /* 1 / 0 */
    assert_int_equal(pn_config_counts(&c, 64, NULL, w, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "t.yaml:4:39: ", "count '1 / (threads - 64)' evaluates to inf");
    /* the override's warp does not exist in a 4-warp block */
    assert_int_equal(pn_config_counts(&c, 128, NULL, w, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "t.yaml:6:7: ", "kernel.warps[0]: warp 5 does not exist: 128 threads "
                                    "make 4 warps (indices 0 to 3)");
    assert_int_equal(pn_config_counts(&c, 0, NULL, w, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "t.yaml:3:12: ", "got 0");
    /* huge param */
    double big = 1e300;
    assert_int_equal(pn_config_counts(&c, 256, &big, w, &err), PN_ELIMIT);
    pn_test_expect_msg(&err, "t.yaml:4:19: ", "evaluates to 1e+300 for warp 0");
    /* a swept threads value above the device limit points at the sweep axis */
    assert_int_equal(pn_device_load(&d, "gtx960m", NULL, 0, 0, &err), PN_OK);
    assert_int_equal(pn_kernel_resolve(&c, &d, 2048, NULL, &k, &err), PN_ELIMIT);
    pn_test_expect_msg(&err, "t.yaml:7:9: ", "threads must be between 1 and 1024 for device gtx960m, "
                                    "got 2048");
    assert_null(k.sm.warps);
    /* count errors come back from resolve too */
    assert_int_equal(pn_kernel_resolve(&c, &d, 64, NULL, &k, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "t.yaml:4:39: ", "inf");
    assert_null(k.sm.warps);
    pn_device_destroy(&d);
    pn_config_destroy(&c);
}

static void test_model_overrides_device(void **state)
{
    (void)state;
    pn_config_t c;
    pn_device_t d;
    pn_kernel_t k;
    pn_error_t err;
    assert_int_equal(load(&c,
                          "device: gtx480\n"
                          "model: {latency: {shared: 7}}\n"
                          "kernel: {threads: 1024, counts: {arith: 1}}\n", &err), PN_OK);
    assert_int_equal(pn_device_load(&d, c.device, c.path, c.device_pos.line, c.device_pos.col,
                                    &err), PN_OK);
    assert_int_equal(pn_kernel_resolve(&c, &d, 0, NULL, &k, &err), PN_OK);
    assert_int_equal(k.sm.n_warps, 32);
    assert_int_equal(k.sm.schedulers, 2);  /* gtx480 */
    assert_int_equal(k.sm.l1, 20);         /* gtx480 */
    assert_int_equal(k.sm.l2, 7);          /* model */
    pn_kernel_destroy(&k);
    pn_device_destroy(&d);
    pn_config_destroy(&c);
}

/* ---- bad inputs --------------------------------------------------------- */

/* What `pnsim run FILE` does before simulating: load, device, resolve. */
static pn_status_t run_pipeline(const char *path, pn_error_t *err)
{
    pn_config_t c;
    pn_device_t d;
    pn_kernel_t k;
    pn_status_t st = pn_config_load(&c, path, err);
    if (st != PN_OK)
        return st;
    st = pn_device_load(&d, c.device, c.path, c.device_pos.line, c.device_pos.col, err);
    if (st == PN_OK) {
        st = pn_kernel_resolve(&c, &d, 0, NULL, &k, err);
        pn_kernel_destroy(&k);
        pn_device_destroy(&d);
    }
    pn_config_destroy(&c);
    return st;
}

static void test_bad_files(void **state)
{
    (void)state;
    assert_true(pn_test_bad_fixtures("tests/bad", "", ".yaml", run_pipeline) >= 40);
}

static void test_inline_errors(void **state)
{
    (void)state;
    load_fails("- a\n- b\n", "1:1: ", "the config must be a mapping, got a list");
    load_fails("", "", "the config is empty");
    load_fails("# only a comment\n", "", "the config is empty");
    load_fails("kernel:\n", "1:8: ", "kernel must be a mapping, got null");
    load_fails("kernel: {threads: 1}\n[a]: 1\n", "2:1: ", "a key must be a plain name, got a list");
    load_fails("kernel: {threads: 1048577}\n", "1:19: ", "between 1 and 1048576, got 1048577");
    load_fails("kernel: {threads: 0x10}\n", "1:19: ", "got scalar '0x10'");
    load_fails("kernel: {threads: 1, name: \"\"}\n", "1:28: ",
               "kernel.name must be a non-empty string");
    load_fails("kernel: {threads: 1, warps: {warp: 1}}\n", "1:29: ",
               "kernel.warps must be a list, got a mapping");
    load_fails("kernel: {threads: 1, warps: [3]}\n", "1:30: ",
               "kernel.warps[0] must be a mapping, got scalar '3'");
    load_fails("kernel: {threads: 1, warps: [{warp: 32768}]}\n", "1:37: ",
               "kernel.warps[0].warp must be an integer between 0 and 32767");
    load_fails("kernel: {threads: 1, warps: [{warp: 0, local: 1}]}\n", "1:40: ",
               "unknown key 'local' in kernel.warps[0] (expected one of: warp, arith, shared, "
               "global, sfu, shared_ld, shared_st, global_ld, global_st, barriers, program)");
    load_fails("kernel: {threads: 1, warps: [{warp: 0, arith: \"q\"}]}\n", "1:47: ",
               "kernel.warps[0].arith: unknown variable 'q' in expression 'q' (expected one "
               "of: threads, warps, warp)");
    load_fails("kernel: {threads: 1, counts: {arith: sin}}\n", "1:38: ",
               "expected '(' after the function 'sin' at character 1");
    load_fails("kernel: {threads: 1, counts: {arith: \"2 3\"}}\n", "1:38: ",
               "expected an operator at character 3, got '3'");
    load_fails("kernel: {threads: 1, counts: {arith: \"+3\"}}\n", "1:38: ",
               "expected a number, a variable, a function or '(' at character 1, got '+'");
    load_fails("kernel: {threads: 1, counts: {arith: \"()\"}}\n", "1:38: ",
               "at character 2, got ')'");
    load_fails("kernel: {threads: 1, counts: {arith: \"a\\nb\"}}\n", "1:38: ",
               "kernel.counts.arith must be a single line of text, got the control character "
               "0x0A at character 2");
    load_fails("kernel: {threads: 1, counts: {arith: \"2 * \\u00e9\"}}\n", "1:38: ",
               "unexpected byte 0xC3 at character 5");
    load_fails("kernel: {threads: 1, counts: {arith: ~}}\n", "1:38: ",
               "kernel.counts.arith must be a number or an expression, got null");
    load_fails("kernel: {threads: 1, counts: 3}\n", "1:30: ", "kernel.counts must be a mapping");
    load_fails("kernel: {threads: 1, counts: {arith: 1, arith: 2}}\n", "1:41: ",
               "duplicate key 'arith' in kernel.counts (first at line 1, column 31)");
    load_fails("params: {2x: 1}\nkernel: {threads: 1}\n", "1:10: ",
               "params name '2x' must be an identifier");
    load_fails("params: {pi: 3}\nkernel: {threads: 1}\n", "1:10: ",
               "params name 'pi' is a constant or function of the expression language");
    load_fails("params: {warp: 3}\nkernel: {threads: 1}\n", "1:10: ", "is reserved");
    load_fails("params: {n: .inf}\nkernel: {threads: 1}\n", "1:13: ",
               "params.n must be a finite number, got scalar '.inf'");
    load_fails("params: {n: \"5\"}\nkernel: {threads: 1}\n", "1:13: ",
               "params.n must be a finite number, got quoted string '5'");
    load_fails("params: {n: 1e999}\nkernel: {threads: 1}\n", "1:13: ",
               "must be a finite number");
    load_fails("device: \"\"\nkernel: {threads: 1}\n", "1:9: ", "device must be a non-empty string");
    load_fails("device: [a]\nkernel: {threads: 1}\n", "1:9: ", "device must be a non-empty string, got a list");
    load_fails("kernel: {threads: 1}\nsimulation: {max_steps: 0}\n", "2:25: ",
               "simulation.max_steps must be an integer between 1 and 18446744073709551615, got 0");
    load_fails("kernel: {threads: 1}\nsimulation: {runs: 1000001}\n", "2:20: ",
               "between 1 and 1000000, got 1000001");
    load_fails("kernel: {threads: 1}\nsimulation: {runs: 1, steps: 3}\n", "2:23: ",
               "unknown key 'steps' in simulation (expected one of: runs, seed, max_steps)");
    load_fails("kernel: {threads: 1}\nsweep: {threads: 64}\n", "2:18: ",
               "sweep.threads must be a list, got scalar '64'");
    load_fails("kernel: {threads: 1}\nsweep: {threads: []}\n", "2:18: ",
               "sweep.threads must be a non-empty list of numbers");
    load_fails("kernel: {threads: 1}\nsweep: {schedulers: [65]}\n", "2:22: ",
               "sweep.schedulers[0] must be an integer between 1 and 64, got 65");
    load_fails("kernel: {threads: 1}\nsweep: {shared: [1.5]}\n", "2:18: ",
               "sweep.shared[0] must be an integer between 1 and 1000000");
    load_fails("params: {n: 1}\nkernel: {threads: 1}\nsweep: {n: [1, x]}\n", "3:16: ",
               "sweep.n[1] must be a finite number, got scalar 'x'");
    load_fails("kernel: {threads: 1}\nmodel: {selection: 3}\n", "2:20: ",
               "model.selection must be one of: paper, got '3'");
    load_fails("kernel: {threads: 1}\nmodel: {latency: 5}\n", "2:18: ",
               "model.latency must be a mapping, got scalar '5'");
    load_fails("kernel: {threads: 1}\nkernel: {threads: 2}\n", "2:1: ",
               "duplicate key 'kernel' (first at line 1, column 1)");
    load_fails("kernel: {threads: 1}\nmodel: {schedulers: 65}\n", "2:21: ",
               "model.schedulers must be an integer between 1 and 64, got 65");
    load_fails("kernel: {threads: 1}\nmodel: {latency: {global: 1000001}}\n", "2:27: ",
               "between 1 and 1000000, got 1000001");
    load_fails("kernel: &a {threads: 1}\nother: *b\n", "2:8: ",
               "YAML aliases are not supported (found '*b'): write the value out");
    load_fails("kernel: {threads: 1}\n---\n[\n", "4:1: ", "invalid YAML");
    /* billion laughs: refused at the first alias, before anything expands */
    load_fails("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a]\n"
               "c: &c [*b, *b, *b, *b, *b, *b]\nkernel: {threads: *c}\n", "2:8: ",
               "YAML aliases are not supported (found '*a'): write the value out");
    load_fails("base: &m {threads: 32}\nkernel: {<<: *m}\n", "2:14: ",
               "YAML aliases are not supported (found '*m')");
    /* nesting: PN_YAML_MAX_DEPTH levels (the top mapping and 63 brackets)
     * reach the config's own checks, one more is refused where it opens */
    for (int depth = PN_YAML_MAX_DEPTH; depth <= PN_YAML_MAX_DEPTH + 1; depth++) {
        char text[256];
        int n = snprintf(text, sizeof text, "kernel: {threads: 1}\nparams: ");
        for (int i = 1; i < depth; i++)
            text[n++] = '[';
        for (int i = 1; i < depth; i++)
            text[n++] = ']';
        snprintf(text + n, sizeof text - (size_t)n, "\n");
        if (depth == PN_YAML_MAX_DEPTH)
            load_fails(text, "2:9: ", "params must be a mapping");
        else
            load_fails(text, "2:72: ", "YAML nested deeper than 64 levels");
    }
    load_fails("kernel: {threads: 1, name: \"a\\rb\"}\n", "1:28: ",
               "kernel.name must be a single line of text, got the control character 0x0D");
    load_fails("kernel: {threads: 1}\n\xff\n", "2:1: ", "invalid YAML");

    /* a long expression and deep nesting stay within libmatheval's parser */
    char text[4096];
    size_t o = (size_t)snprintf(text, sizeof text, "kernel: {threads: 1, counts: {arith: \"");
    for (int i = 0; i < 201; i++)
        text[o++] = '(';
    text[o++] = '1';
    for (int i = 0; i < 201; i++)
        text[o++] = ')';
    snprintf(text + o, sizeof text - o, "\"}}\n");
    load_fails(text, "1:38: ", "parentheses nested deeper than 200");
    o = (size_t)snprintf(text, sizeof text, "kernel: {threads: 1, counts: {arith: \"");
    for (int i = 0; i < 501; i++) {
        text[o++] = '1';
        text[o++] = '+';
    }
    snprintf(text + o, sizeof text - o, "1\"}}\n");
    load_fails(text, "1:38: ", "is longer than 1000 characters");
}

static void test_cannot_open(void **state)
{
    (void)state;
    pn_config_t c;
    pn_error_t err;
    assert_int_equal(pn_config_load(&c, "tests/no/such.yaml", &err), PN_EIO);
    assert_string_equal(err.msg, "tests/no/such.yaml: cannot open: No such file or directory");
    assert_null(c.path);
    pn_config_destroy(&c);
    assert_int_equal(pn_config_load(&c, "tests", &err), PN_EIO);
    assert_string_equal(err.msg, "tests: cannot open: not a regular file");
}

/* kernel.memory values may be expressions of threads (and params, blocks):
 * evaluated per point, range-checked at their position; and the h100
 * profile's dram_line_sectors makes a scattered DRAM load cost at least
 * 3.04 sectors a line. */
static void test_memory_expressions(void **state)
{
    (void)state;
    static const char text[] =
        "device: h100\n"
        "model: {net: pipelined}\n"
        "kernel:\n"
        "  threads: 64\n"
        "  counts: {arith: 4, global_ld: 2}\n"
        "  memory:\n"
        "    l1_hit: \"threads / 1024\"\n"
        "    l2_hit: 0\n"
        "    sectors_ld: \"8 + blocks\"\n"
        "    lines_ld: 9\n";
    pn_config_t c;
    pn_error_t err;
    assert_int_equal(load(&c, text, &err), PN_OK);
    assert_non_null(c.memory_expr[0].text);
    assert_null(c.memory_expr[1].text);
    pn_memory_t m;
    assert_int_equal(pn_config_memory(&c, 256, 3, NULL, &m, &err), PN_OK);
    assert_true(m.l1_hit == 0.25 && m.l2_hit == 0 && m.sectors_ld == 11 && m.lines_ld == 9);
    assert_int_equal(pn_config_memory(&c, 2048, 1, NULL, &m, &err), PN_EINVAL);
    assert_string_equal(err.msg, "t.yaml:7:13: kernel.memory.l1_hit must be a fraction between "
                                 "0 and 1, got 2");
    /* resolved: l1 hits at 64 threads round(2 * 1/16) = 0, the rest from DRAM at
     * max(9 sectors, 3.04 x 9 lines) = 27.36 sectors */
    pn_device_t dev;
    assert_int_equal(pn_device_load(&dev, "h100", NULL, 0, 0, &err), PN_OK);
    assert_true(dev.pipe.dram_line_sectors > 3.03 && dev.pipe.dram_line_sectors < 3.05);
    pn_kernel_t k;
    assert_int_equal(pn_kernel_resolve(&c, &dev, 64, NULL, &k, &err), PN_OK);
    assert_int_equal(k.pipe.warps[0].n[PN_PIPE_LD_DRAM], 2);
    assert_int_equal(k.pipe.cost[PN_PIPE_LD_DRAM][PN_PIPE_DRAM], 27360);
    pn_kernel_destroy(&k);
    pn_device_destroy(&dev);
    pn_config_destroy(&c);
    load_fails("model: {net: pipelined}\nkernel:\n  threads: 64\n  memory: {l2_hit: \"hits\"}\n",
               "4:20:", "unknown variable 'hits'");
}

static void test_destroy_null(void **state)
{
    (void)state;
    pn_config_t c;
    pn_kernel_t k;
    memset(&c, 0, sizeof c);
    memset(&k, 0, sizeof k);
    pn_config_destroy(NULL);
    pn_config_destroy(&c);
    pn_config_destroy(&c);
    pn_kernel_destroy(NULL);
    pn_kernel_destroy(&k);
    assert_string_equal(pn_kind_names[PN_KIND_ARITH], "arith");
    assert_string_equal(pn_kind_names[PN_KIND_SHARED], "shared");
    assert_string_equal(pn_kind_names[PN_KIND_GLOBAL], "global");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_fields),
        cmocka_unit_test(test_example_counts),
        cmocka_unit_test(test_example_resolve),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_device_relative_and_calibrated),
        cmocka_unit_test(test_warp_variable),
        cmocka_unit_test(test_rounding),
        cmocka_unit_test(test_count_errors),
        cmocka_unit_test(test_model_overrides_device),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_inline_errors),
        cmocka_unit_test(test_cannot_open),
        cmocka_unit_test(test_destroy_null),
        cmocka_unit_test(test_memory_expressions),
    };
    return cmocka_run_group_tests(tests, setup_cwd, NULL);
}
