/* test_bbv.c - unit tests of calib/pn_bbv and the BBV metrics: per-warp counts
 * derived by hand on a 2-warp (64-thread) example, activity factor and memory
 * intensity, partial warps, overflow, the comparison with a config's counts,
 * the BBV-weighted(-scheduled) kernel estimates, and every malformed fixture
 * tests/calib/{bbv,blocks}-bad-*.csv with its exact file:line:col. */
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
#include "pn_bbv.h"
#include "pn_kernel_net.h"

#define EPS 1e-12

static int setup(void **state)
{
    (void)state;
    return pn_test_chdir_root("tests/calib");
}

/* Write text to a fresh temporary file; returns its path (static buffer). */
static const char *write_tmp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/pnsim-test-bbv-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* tests/calib/bbv64.csv with tests/calib/blocks.csv (bb0 2/0/1, bb1 1/1/0,
 * bb2 3/0/2; 3, 2 and 5 instructions):
 *   warp 0: max bb0 1, bb1 31, bb2 7  -> arith 2+31+21 = 54, shared 31, global 1+14 = 15
 *   warp 1: max bb0 1, bb1 2,  bb2 3  -> arith 2+2+9 = 13,   shared 2,  global 1+6 = 7
 * instructions of active threads: warp 0 32*3 + 496*2 + 7*5 = 1123,
 *   warp 1 32*3 + 64*2 + 48*5 = 464; warp instructions 100 + 22 = 122. */
static void test_derive_by_hand(void **state)
{
    (void)state;
    pn_bbv_t b;
    pn_block_table_t t;
    pn_bbv_derived_t d;
    pn_error_t err;
    assert_int_equal(pn_bbv_load(&b, "tests/calib/bbv64.csv", &err), PN_OK);
    assert_int_equal(b.n_threads, 64);
    assert_int_equal(b.n_blocks, 3);
    assert_string_equal(b.blocks[2], "bb2");
    assert_int_equal(b.count[5 * 3 + 2], 7);
    assert_int_equal(pn_block_table_load(&t, "tests/calib/blocks.csv", &err), PN_OK);
    assert_int_equal(t.n, 4);
    assert_int_equal(t.cost[2].global, 2);
    assert_int_equal(pn_bbv_derive(&b, &t, 32, &d, &err), PN_OK);
    assert_int_equal(d.threads, 64);
    assert_int_equal(d.warps, 2);
    assert_int_equal(d.warp[0].arith, 54);
    assert_int_equal(d.warp[0].shared, 31);
    assert_int_equal(d.warp[0].global, 15);
    assert_int_equal(d.warp[1].arith, 13);
    assert_int_equal(d.warp[1].shared, 2);
    assert_int_equal(d.warp[1].global, 7);
    assert_true(d.thread_inst == 1587);
    assert_true(d.warp_inst == 122);
    assert_true(fabs(d.activity_factor - 1587.0 / (32 * 122)) < EPS);
    assert_true(fabs(d.memory_intensity - 22.0 / 122) < EPS);

    /* the BBV-weighted block latency, l1 20, l2 2: T_0 = 4*54 + 7*31 + 25*15 + 1 = 809,
     * T_1 = 4*13 + 7*2 + 25*7 + 1 = 242 */
    assert_true(pn_baseline_bbv_weighted(d.warp, d.warps, 20, 2) == 809 + 242);
    pn_bbv_derived_destroy(&d);
    pn_bbv_derived_destroy(&d);

    /* warps of 16: four warps */
    assert_int_equal(pn_bbv_derive(&b, &t, 16, &d, &err), PN_OK);
    assert_int_equal(d.warps, 4);
    assert_int_equal(d.warp[0].shared, 15);         /* threads 0..15: max bb1 = 15 */
    assert_int_equal(d.warp[1].global, 1);          /* no bb2 in threads 16..31 */
    pn_bbv_derived_destroy(&d);
    pn_block_table_destroy(&t);
    pn_block_table_destroy(&t);
    pn_bbv_destroy(&b);
    pn_bbv_destroy(&b);
    pn_bbv_destroy(NULL);
}

/* 33 threads: the second warp has one thread; its 31 idle lanes are inactive. */
static void test_partial_warp(void **state)
{
    (void)state;
    char text[2048];
    size_t o = (size_t)snprintf(text, sizeof text, "thread,b\n");
    for (int i = 0; i < 33; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "%d,2\n", i);
    char p[64];
    snprintf(p, sizeof p, "%s", write_tmp(text));
    const char *q;
    pn_bbv_t b;
    pn_block_table_t t;
    pn_bbv_derived_t d;
    assert_int_equal(pn_bbv_load(&b, p, NULL), PN_OK);
    unlink(p);
    q = write_tmp("block,global,arith,shared\nb,1,0,0\n");
    assert_int_equal(pn_block_table_load(&t, q, NULL), PN_OK);
    unlink(q);
    assert_int_equal(pn_bbv_derive(&b, &t, 32, &d, NULL), PN_OK);
    assert_int_equal(d.warps, 2);
    assert_int_equal(d.warp[1].global, 2);
    assert_true(fabs(d.activity_factor - 66.0 / (32 * 4)) < EPS);
    assert_true(d.memory_intensity == 1);
    pn_bbv_derived_destroy(&d);

    /* no instructions at all: NaN ratios */
    t.cost[0].global = 0;
    assert_int_equal(pn_bbv_derive(&b, &t, 32, &d, NULL), PN_OK);
    assert_true(isnan(d.activity_factor) && isnan(d.memory_intensity));
    pn_bbv_derived_destroy(&d);

    /* a count beyond the model's limit */
    t.cost[0].arith = 4000000000u;
    pn_error_t err;
    assert_int_equal(pn_bbv_derive(&b, &t, 32, &d, &err), PN_ELIMIT);
    pn_test_expect_msg(&err, p, "warp 0: a derived count exceeds 4294967295 (block 'b' runs 2 times)");
    assert_null(d.warp);
    pn_block_table_destroy(&t);
    pn_bbv_destroy(&b);
}

static void test_rel_diff(void **state)
{
    (void)state;
    assert_true(pn_bbv_rel_diff(0, 0) == 0);
    assert_true(isinf(pn_bbv_rel_diff(0, 1)));
    assert_true(fabs(pn_bbv_rel_diff(54, 56) - 200.0 / 54) < EPS);
    assert_true(fabs(pn_bbv_rel_diff(54, 50) - 400.0 / 54) < EPS);
    assert_true(pn_bbv_rel_diff(100, 0) == 100);
}

/* Largest relative difference between the BBV's counts and a config's. */
static double worst_diff(const char *config)
{
    pn_bbv_t b;
    pn_block_table_t t;
    pn_bbv_derived_t d;
    pn_config_t cfg;
    pn_device_t dev;
    pn_kernel_t k;
    assert_int_equal(pn_bbv_load(&b, "tests/calib/bbv64.csv", NULL), PN_OK);
    assert_int_equal(pn_block_table_load(&t, "tests/calib/blocks.csv", NULL), PN_OK);
    assert_int_equal(pn_bbv_derive(&b, &t, 32, &d, NULL), PN_OK);
    assert_int_equal(pn_config_load(&cfg, config, NULL), PN_OK);
    assert_int_equal(pn_device_load(&dev, cfg.device, cfg.path, 0, 0, NULL), PN_OK);
    assert_int_equal(pn_kernel_resolve(&cfg, &dev, d.threads, NULL, &k, NULL), PN_OK);
    assert_int_equal(k.sm.n_warps, d.warps);
    double worst = 0;
    for (uint32_t w = 0; w < d.warps; w++) {
        double r[3] = {pn_bbv_rel_diff(d.warp[w].arith, k.sm.warps[w].arith),
                       pn_bbv_rel_diff(d.warp[w].shared, k.sm.warps[w].shared),
                       pn_bbv_rel_diff(d.warp[w].global, k.sm.warps[w].global)};
        for (int i = 0; i < 3; i++)
            worst = r[i] > worst ? r[i] : worst;
    }
    pn_kernel_destroy(&k);
    pn_device_destroy(&dev);
    pn_config_destroy(&cfg);
    pn_bbv_derived_destroy(&d);
    pn_block_table_destroy(&t);
    pn_bbv_destroy(&b);
    return worst;
}

static void test_check_configs(void **state)
{
    (void)state;
    assert_true(fabs(worst_diff("tests/calib/bbv64-ok.yaml") - 200.0 / 54) < EPS);  /* 3.7% */
    assert_true(fabs(worst_diff("tests/calib/bbv64-off.yaml") - 400.0 / 54) < EPS); /* 7.4% */
}

static void test_schedule(void **state)
{
    (void)state;
    /* 2 slots: blocks 5 and 3 start at 0; 4 goes to slot 1 (free at 3, ends 7); 2 to
     * slot 0 (free at 5, ends 7); 6 to slot 0 (both free at 7: lowest) -> 13 */
    const double lat[] = {5, 3, 4, 2, 6};
    assert_true(pn_baseline_scheduled(lat, 5, 2) == 13);
    assert_true(pn_baseline_scheduled(lat, 5, 10) == 6);     /* every block on its own slot */
    assert_true(pn_baseline_scheduled(lat, 5, 1) == 20);
    assert_true(pn_baseline_scheduled(lat, 0, 3) == 0);
    assert_true(pn_baseline_static(lat, 5, 4) == 5);
    const double same[7] = {10, 10, 10, 10, 10, 10, 10};
    assert_true(pn_baseline_scheduled(same, 7, 3) == 30);    /* ceil(7/3) rounds */
    assert_int_equal(pn_baseline_resident_blocks(64, 2), 32);
    assert_int_equal(pn_baseline_resident_blocks(64, 24), 2);
    assert_int_equal(pn_baseline_resident_blocks(48, 64), 1);
}

/* Load a BBV and derive it with tests/calib/blocks.csv. */
static pn_status_t load_bbv(const char *path, pn_error_t *err)
{
    pn_bbv_t b;
    pn_block_table_t t;
    pn_bbv_derived_t d;
    pn_status_t st = pn_bbv_load(&b, path, err);
    if (st != PN_OK) {
        assert_null(b.count);
        return st;
    }
    assert_int_equal(pn_block_table_load(&t, "tests/calib/blocks.csv", NULL), PN_OK);
    st = pn_bbv_derive(&b, &t, 32, &d, err);
    pn_bbv_derived_destroy(&d);
    pn_block_table_destroy(&t);
    pn_bbv_destroy(&b);
    return st;
}

static pn_status_t load_blocks(const char *path, pn_error_t *err)
{
    pn_block_table_t t;
    pn_status_t st = pn_block_table_load(&t, path, err);
    assert_null(t.cost);
    return st;
}

static void test_bad_files(void **state)
{
    (void)state;
    assert_true(pn_test_bad_fixtures("tests/calib", "bbv-bad-", ".csv", load_bbv) >= 2);
    assert_true(pn_test_bad_fixtures("tests/calib", "blocks-bad-", ".csv", load_blocks) >= 2);
    pn_error_t err;
    const char *p = write_tmp("");
    char want[128];
    assert_int_equal(load_bbv(p, &err), PN_ESYNTAX);
    snprintf(want, sizeof want, "%s:1:1: empty file, expected a header row", p);
    pn_test_expect_msg(&err, want, NULL);
    assert_int_equal(load_blocks(p, &err), PN_ESYNTAX);
    pn_test_expect_msg(&err, want, NULL);
    unlink(p);
    assert_int_equal(load_bbv("tests/calib/nope.csv", &err), PN_EIO);
    pn_test_expect_msg(&err, "tests/calib/nope.csv: cannot open: No such file or directory", NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_derive_by_hand),
        cmocka_unit_test(test_partial_warp),
        cmocka_unit_test(test_rel_diff),
        cmocka_unit_test(test_check_configs),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
