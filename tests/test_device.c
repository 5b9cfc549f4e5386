/* test_device.c - unit tests of the device profiles (models/device/pn_device.c): the
 * built-in profiles' facts, lookup by name and by path, and the strict checks of
 * profile files with their exact "file:line:col:" positions. */
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

#include "pn_device.h"
#include "pn_pipe_profile.h"

static char tmpdir[64];

/* Write text to <tmpdir>/<name>; returns the path in a static buffer. */
static const char *write_tmp(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pnsim-test-device-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    return pn_test_chdir_root("tests/bad");
}

static const char *const tmp_files[] = {"a.yaml", "b-2.yaml", "not a name.yaml", "c.txt",
                                        "p.yaml", NULL};

static int teardown(void **state)
{
    (void)state;
    char path[256];
    for (int i = 0; tmp_files[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, tmp_files[i]);
        unlink(path);
    }
    return rmdir(tmpdir);
}

static void test_dir(void **state)
{
    (void)state;
    unsetenv("PNSIM_DEVICE_DIR");
    assert_string_equal(pn_device_dir(), PN_DEVICE_DIR_DEFAULT);
    setenv("PNSIM_DEVICE_DIR", "", 1);
    assert_string_equal(pn_device_dir(), PN_DEVICE_DIR_DEFAULT);
    setenv("PNSIM_DEVICE_DIR", "/somewhere/else", 1);
    assert_string_equal(pn_device_dir(), "/somewhere/else");
    unsetenv("PNSIM_DEVICE_DIR");
}

static void load_ok(pn_device_t *d, const char *name)
{
    pn_error_t err;
    pn_error_clear(&err);
    if (pn_device_load(d, name, NULL, 0, 0, &err) != PN_OK) {
        print_error("%s\n", err.msg);
        fail();
    }
}

static void test_gtx960m(void **state)
{
    (void)state;
    pn_device_t d;
    load_ok(&d, "gtx960m");
    assert_string_equal(d.name, "gtx960m");
    assert_non_null(strstr(d.description, "GM107"));
    assert_non_null(strstr(d.path, "/gtx960m.yaml"));
    assert_int_equal(d.sms, 5);
    assert_int_equal(d.schedulers, 4);
    assert_int_equal(d.max_warps, 64);
    assert_int_equal(d.max_threads_per_block, 1024);
    assert_int_equal(d.warp_size, 32);
    assert_int_equal(d.l1, 20);
    assert_int_equal(d.l2, 2);
    assert_int_equal(d.calibrated, 0);
    pn_device_destroy(&d);
    assert_null(d.name);
}

static void test_gtx480(void **state)
{
    (void)state;
    pn_device_t d;
    load_ok(&d, "gtx480");
    assert_string_equal(d.name, "gtx480");
    assert_non_null(strstr(d.description, "GF100"));
    assert_int_equal(d.sms, 15);
    assert_int_equal(d.schedulers, 2);
    assert_int_equal(d.max_warps, 48);
    assert_int_equal(d.max_threads_per_block, 1024);
    assert_int_equal(d.warp_size, 32);
    assert_int_equal(d.l1, 20);
    assert_int_equal(d.l2, 2);
    assert_int_equal(d.calibrated, 0);
    pn_device_destroy(&d);
}

static void test_h100(void **state)
{
    (void)state;
    pn_device_t d;
    load_ok(&d, "h100");
    assert_string_equal(d.name, "h100");
    assert_non_null(strstr(d.description, "GH100"));
    assert_int_equal(d.sms, 132);
    assert_int_equal(d.schedulers, 4);
    assert_int_equal(d.max_warps, 64);
    assert_int_equal(d.max_threads_per_block, 1024);
    assert_int_equal(d.warp_size, 32);
    /* calibrated on our H100 measurements (examples/data/h100/) */
    assert_int_equal(d.l1, 400);
    assert_int_equal(d.l2, 4);
    assert_int_equal(d.calibrated, 1);
    assert_true(d.us_per_step > 2.28e-4 && d.us_per_step < 2.29e-4);
    assert_true(d.us_offset > 3.43 && d.us_offset < 3.44);
    pn_device_destroy(&d);
}

/* The h200 profile carries the H100's values of the SM-side keys probed on the
 * H100 only (the same GH100 SM; models/devices/h200.yaml), and not its DRAM-side
 * dram_partial_sectors; its own DRAM rate stays its own. */
static void test_h200_carries(void **state)
{
    (void)state;
    pn_device_t a, b;
    load_ok(&a, "h100");
    load_ok(&b, "h200");
    const pn_pipe_device_t *h1 = &a.pipe, *h2 = &b.pipe;
    const uint64_t carried = PN_PD_BLOCK_LAUNCH_1024 | PN_PD_TENSOR_BUSY | PN_PD_TENSOR_LAT |
                             PN_PD_BRANCH_BUSY | PN_PD_DIVERGE_SWITCH |
                             PN_PD_ATOMIC_SERIAL_FLOAT | PN_PD_ATOMIC_CAS |
                             PN_PD_ATOMIC_RETURN | PN_PD_STORE_LINE | PN_PD_STORE_NARROW;
    assert_true((h2->set & carried) == carried);
    assert_true(h2->block_launch_1024 == h1->block_launch_1024 && h2->block_launch_1024 == 325);
    assert_true(h2->branch_busy == h1->branch_busy);
    assert_true(h2->diverge_switch == h1->diverge_switch);
    assert_true(h2->atomic_serial_float == h1->atomic_serial_float);
    assert_true(h2->atomic_cas == h1->atomic_cas && h2->atomic_return == h1->atomic_return);
    assert_true(h2->store_line_cycles == h1->store_line_cycles);
    assert_true(h2->store_narrow == h1->store_narrow);
    assert_true((h2->set2 & PN_PD2_CONST_INDEX) && (h1->set2 & PN_PD2_CONST_INDEX));
    assert_true(h2->const_index_busy == h1->const_index_busy && h1->const_index_busy == 2.08);
    assert_true((h2->set2 & PN_PD2_BARRIER_STAGGER) && h2->barrier_stagger == h1->barrier_stagger &&
                h1->barrier_stagger == 2.6);
    assert_int_equal(h2->n_tensor[0], h1->n_tensor[0]);
    assert_int_equal(h2->n_tensor[1], h1->n_tensor[1]);
    assert_memory_equal(h2->tensor, h1->tensor, sizeof h1->tensor);
    assert_false(h2->set & PN_PD_DRAM_PARTIAL);
    assert_true(h1->dram_partial_sectors == 1.9 && h2->dram_partial_sectors == 0);
    assert_true(h2->dram_sectors > 71 && h2->dram_sectors < 71.2 && h1->dram_sectors < 49);
    pn_device_destroy(&a);
    pn_device_destroy(&b);
}

static void test_paths(void **state)
{
    (void)state;
    pn_device_t d;
    pn_error_t err;
    /* relative to the config's directory */
    assert_int_equal(pn_device_load(&d, "devices/tiny.yaml", "tests/bad/x.yaml", 2, 9, &err),
                     PN_OK);
    assert_string_equal(d.path, "tests/bad/devices/tiny.yaml");
    assert_string_equal(d.name, "tiny");
    assert_int_equal(d.max_warps, 4);
    assert_int_equal(d.schedulers, 1);
    pn_device_destroy(&d);
    /* no from_file: relative to the working directory */
    assert_int_equal(pn_device_load(&d, "tests/good/devices/calibrated.yaml", NULL, 0, 0, &err),
                     PN_OK);
    assert_int_equal(d.calibrated, 1);
    assert_true(d.us_per_step == 0.0125);
    assert_true(d.us_offset == -1.5);
    assert_int_equal(d.max_threads_per_block, 256);
    assert_int_equal(d.l1, 30);
    assert_int_equal(d.l2, 3);
    pn_device_destroy(&d);
    /* a name with .yaml is a path, next to a config without directory */
    assert_int_equal(pn_device_load(&d, "tests/bad/devices/tiny.yaml", "cfg.yaml", 1, 1, &err),
                     PN_OK);
    pn_device_destroy(&d);
    /* absolute path */
    char abs[512];
    snprintf(abs, sizeof abs, "%s/h100.yaml", PN_DEVICE_DIR_DEFAULT);
    if (abs[0] == '/') {
        assert_int_equal(pn_device_load(&d, abs, "tests/good/radix.yaml", 1, 1, &err), PN_OK);
        assert_int_equal(d.sms, 132);
        pn_device_destroy(&d);
    }
}

static void test_unknown(void **state)
{
    (void)state;
    pn_device_t d;
    pn_error_t err;
    assert_int_equal(pn_device_load(&d, "gtx9999", "cfg.yaml", 2, 9, &err), PN_EINVAL);
    assert_string_equal(err.msg, "cfg.yaml:2:9: unknown device 'gtx9999' (expected a built-in "
                                 "name: gtx480, gtx960m, h100, h200; or a path to a .yaml profile)");
    assert_null(d.name);
    assert_int_equal(pn_device_load(&d, "gtx 960", "cfg.yaml", 3, 4, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "cfg.yaml:3:4: ", "unknown device 'gtx 960'");
    assert_int_equal(pn_device_load(&d, "", "cfg.yaml", 3, 4, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "cfg.yaml:3:4: ", "got an empty string");
    /* no position */
    assert_int_equal(pn_device_load(&d, "nope", NULL, 0, 0, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "unknown device 'nope'", NULL);
    /* the built-ins come from PNSIM_DEVICE_DIR */
    write_tmp("a.yaml", "x");
    write_tmp("b-2.yaml", "x");
    write_tmp("not a name.yaml", "x");
    write_tmp("c.txt", "x");
    setenv("PNSIM_DEVICE_DIR", tmpdir, 1);
    assert_int_equal(pn_device_load(&d, "gtx960m", "cfg.yaml", 2, 9, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "cfg.yaml:2:9: ", "(expected a built-in name: a, b-2; or a path");
    setenv("PNSIM_DEVICE_DIR", "/no/such/dir", 1);
    assert_int_equal(pn_device_load(&d, "gtx960m", "cfg.yaml", 2, 9, &err), PN_EINVAL);
    pn_test_expect_msg(&err, "cfg.yaml:2:9: ", "none: cannot open /no/such/dir: No such file");
    unsetenv("PNSIM_DEVICE_DIR");
}

static void test_unreadable(void **state)
{
    (void)state;
    pn_device_t d;
    pn_error_t err;
    assert_int_equal(pn_device_load(&d, "devices/absent.yaml", "tests/bad/x.yaml", 2, 9, &err),
                     PN_EIO);
    assert_string_equal(err.msg, "tests/bad/x.yaml:2:9: cannot read device profile "
                                 "tests/bad/devices/absent.yaml: No such file or directory");
    assert_int_equal(pn_device_load(&d, "tests/absent.yaml", NULL, 0, 0, &err), PN_EIO);
    assert_string_equal(err.msg,
                        "tests/absent.yaml: cannot read device profile: No such file or directory");
    assert_null(d.path);
}

/* A profile p.yaml with `body` must fail at <tmpdir>/p.yaml:<where> with sub. */
static void profile_fails(const char *body, const char *where, const char *sub)
{
    pn_device_t d;
    pn_error_t err;
    char prefix[300];
    const char *path = write_tmp("p.yaml", body);
    snprintf(prefix, sizeof prefix, "%s:%s", path, where);
    assert_int_not_equal(pn_device_load(&d, path, NULL, 0, 0, &err), PN_OK);
    pn_test_expect_msg(&err, prefix, sub);
    assert_null(d.name);
    assert_null(d.path);
}

#define GOOD_HEAD "name: g\nsms: 1\nschedulers: 4\nmax_warps: 64\nmax_threads_per_block: 1024\n"

static void test_bad_profiles(void **state)
{
    (void)state;
    pn_device_t d;
    pn_error_t err;
    /* the base is good */
    const char *path = write_tmp("p.yaml", GOOD_HEAD "warp_size: 32\nlatency: {global: 5, shared: 1}\n"
                                           "calibration: {us_per_step: 2e-3}\n");
    assert_int_equal(pn_device_load(&d, path, NULL, 0, 0, &err), PN_OK);
    assert_null(d.description);
    assert_int_equal(d.calibrated, 1);
    assert_true(d.us_per_step == 2e-3 && d.us_offset == 0);
    assert_int_equal(d.l1, 5);
    pn_device_destroy(&d);

    profile_fails("", "", "empty device profile");
    profile_fails("[1]\n", "1:1: ", "a device profile must be a mapping (name, sms, ...), got a list");
    profile_fails(GOOD_HEAD "warp_size: 32\nlatency: {global: 5, shared: 1}\ncolor: red\n",
                  "8:1: ", "unknown key 'color' in device profile (expected one of: name, "
                           "description, sms, schedulers, max_warps, max_threads_per_block, "
                           "warp_size, latency, calibration, pipelined, "
                           "pipelined_calibration, occupancy)");
    profile_fails(GOOD_HEAD "latency: {global: 5, shared: 1}\n", "1:1: ",
                  "device profile: missing key 'warp_size'");
    profile_fails("sms: 1\n", "1:1: ", "device profile: missing key 'name'");
    profile_fails(GOOD_HEAD "warp_size: 64\nlatency: {global: 5, shared: 1}\n", "6:12: ",
                  "warp_size must be an integer between 32 and 32, got 64");
    profile_fails("name: g\nsms: 1\nschedulers: 4\nmax_warps: 0\n", "4:12: ",
                  "max_warps must be an integer between 1 and 32768, got 0");
    profile_fails("name: g\nsms: 1\nschedulers: 4\nmax_warps: 4\nmax_threads_per_block: "
                  "\"1024\"\n", "5:24: ", "got quoted string '1024'");
    profile_fails(GOOD_HEAD "warp_size: 32\n", "1:1: ", "missing key 'latency'");
    profile_fails(GOOD_HEAD "warp_size: 32\nlatency: {global: 5}\n", "7:1: ",
                  "latency needs both 'global' and 'shared'");
    profile_fails(GOOD_HEAD "warp_size: 32\nlatency: {global: 5, shared: 0}\n", "7:30: ",
                  "latency.shared must be an integer between 1 and 1000000, got 0");
    profile_fails(GOOD_HEAD "warp_size: 32\nlatency: {global: 5, shared: 1}\n"
                            "calibration: {us_per_step: 0}\n", "8:28: ",
                  "calibration.us_per_step must be > 0, got 0");
    profile_fails(GOOD_HEAD "warp_size: 32\nlatency: {global: 5, shared: 1}\n"
                            "calibration: {us_offset: 1}\n", "8:1: ",
                  "calibration needs 'us_per_step'");
    profile_fails(GOOD_HEAD "warp_size: 32\nlatency: {global: 5, shared: 1}\n"
                            "calibration: {us_per_step: 1, us_offset: nan}\n", "8:42: ",
                  "calibration.us_offset must be a finite number, got scalar 'nan'");
    profile_fails(GOOD_HEAD "warp_size: 32\nlatency: {global: 5, shared: 1}\n"
                            "calibration: {us_per_step: 1, source: [a]}\n", "8:39: ",
                  "calibration.source must be a non-empty string, got a list");
    profile_fails(GOOD_HEAD "sms: 2\n", "6:1: ", "duplicate key 'sms' in device profile "
                                                 "(first at line 2, column 1)");
    profile_fails(GOOD_HEAD "warp_size: 32\nlatency: {global: 5, shared: 1\n", "8:1: ",
                  "invalid YAML: did not find expected ',' or '}'");
}

static void test_destroy(void **state)
{
    (void)state;
    pn_device_t d;
    memset(&d, 0, sizeof d);
    pn_device_destroy(NULL);
    pn_device_destroy(&d);
    pn_device_destroy(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dir),
        cmocka_unit_test(test_gtx960m),
        cmocka_unit_test(test_gtx480),
        cmocka_unit_test(test_h100),
        cmocka_unit_test(test_h200_carries),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_unreadable),
        cmocka_unit_test(test_bad_profiles),
        cmocka_unit_test(test_destroy),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
