/* test_compare.c - pnsim compare's verdicts: per kernel MAPE, the best block
 * size of a sweep with its regret and the near count, and whether the
 * measured spread tells its best apart, in text and JSON; the roofline beside
 * pnsim (--roofline) in text, JSON and CSV. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_compare.h"

/* What pn_compare_write writes of c in fmt, NUL-terminated (free it). */
static char *written(const pn_compare_t *c, pn_format_t fmt)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    pn_error_t err = { 0 };
    assert_int_equal(pn_compare_write(f, fmt, c, 0, 2, &err), PN_OK);
    long n = ftell(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static void expect_in(const char *text, const char *want)
{
    if (!strstr(text, want))
        fail_msg("'%s' not in:\n%s", want, text);
}

static void test_sweeps(void **state)
{
    (void)state;
    pn_compare_t c;
    pn_compare_init(&c);
    pn_error_t err = { 0 };
    /* sweep a: measured best 128 (10.0), predicted best 256 (10.05 measured):
     * wrong, regret 1.005, near; sweep b: right (regret 1); sweep c: predicted
     * 64, measured 12.0 against 10.0: regret 1.2, not near */
    static const struct { const char *k, *size; unsigned t; double m, p; } rows[] = {
        { "a", "1", 128, 10.0, 9.0 }, { "a", "1", 256, 10.05, 8.0 },
        { "b", "1", 64, 5.0, 5.5 },   { "b", "1", 128, 6.0, 6.6 },
        { "c", "1", 64, 12.0, 1.0 },  { "c", "1", 128, 10.0, 2.0 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_int_equal(pn_compare_add(&c, rows[i].k, rows[i].size, rows[i].t, 4, rows[i].m,
                                        rows[i].p, "x.yaml", &err), PN_OK);
    char *t = written(&c, PN_FORMAT_TEXT);
    expect_in(t, "  a                         1 measured  128 predicted  256, regret 1.005  "
                 "(wrong)\n");
    expect_in(t, "  b                         1 measured   64 predicted   64, regret 1.000\n");
    expect_in(t, "  c                         1 measured  128 predicted   64, regret 1.200  "
                 "(wrong)\n");
    expect_in(t, "best block size right in 1 of 3 sweeps (2 within 1 % of the best measured "
                 "time, mean regret 1.068)");
    free(t);
    char *j = written(&c, PN_FORMAT_JSON);
    expect_in(j, "{\"kernel\": \"a\", \"size\": \"1\", \"best_measured\": 128, "
                 "\"best_predicted\": 256, \"regret\": 1.005}");
    expect_in(j, "\"sweeps\": 3, \"sweeps_right\": 1, \"sweeps_near\": 2, "
                 "\"sweep_regret\": 1.06833");
    free(j);
    pn_compare_destroy(&c);
}

/* A sweep is clear of its spread when every other block size's p10 lies above
 * the best's p90: a (best 10.0 up to 10.2, the other from 10.5) is, b (the
 * other from 10.1) is not; c has a row without its spread, d none at all, so
 * they are not counted. Right among the clear: a's pick. */
static void test_sweep_spread(void **state)
{
    (void)state;
    pn_compare_t c;
    pn_compare_init(&c);
    pn_error_t err = { 0 };
    static const struct { const char *k; unsigned t; double m, p, p10, p90; } rows[] = {
        { "a", 128, 10.0, 9.0, 9.9, 10.2 },  { "a", 256, 11.0, 9.5, 10.5, 11.5 },
        { "b", 128, 10.0, 9.0, 9.9, 10.2 },  { "b", 256, 10.3, 8.0, 10.1, 10.4 },
        { "c", 128, 10.0, 9.0, 9.9, 10.2 },  { "c", 256, 11.0, 9.5, -1, -1 },
        { "d", 128, 10.0, 9.0, -1, -1 },     { "d", 256, 11.0, 9.5, -1, -1 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        assert_int_equal(pn_compare_add(&c, rows[i].k, "1", rows[i].t, 4, rows[i].m, rows[i].p,
                                        "x.yaml", &err), PN_OK);
        if (rows[i].p10 >= 0)
            pn_compare_spread(&c, rows[i].p10, rows[i].p90);
    }
    char *t = written(&c, PN_FORMAT_TEXT);
    expect_in(t, "  b                         1 measured  128 predicted  256, regret 1.030  "
                 "(wrong, within the measured spread)\n");
    expect_in(t, "best block size right in 3 of 4 sweeps (3 within 1 % of the best measured "
                 "time, mean regret 1.008); of the 2 sweeps with their spread, 1 clear of it "
                 "(every other block size's p10 above the best's p90), right in 1\n");
    free(t);
    char *j = written(&c, PN_FORMAT_JSON);
    expect_in(j, "{\"kernel\": \"a\", \"size\": \"1\", \"best_measured\": 128, "
                 "\"best_predicted\": 128, \"regret\": 1, \"clear\": true}");
    expect_in(j, "{\"kernel\": \"b\", \"size\": \"1\", \"best_measured\": 128, "
                 "\"best_predicted\": 256, \"regret\": 1.03, \"clear\": false}");
    expect_in(j, "{\"kernel\": \"c\", \"size\": \"1\", \"best_measured\": 128, "
                 "\"best_predicted\": 128, \"regret\": 1}");
    expect_in(j, "\"sweeps_clear\": 1, \"sweeps_clear_right\": 1}");
    free(j);
    pn_compare_destroy(&c);
}

/* The roofline beside pnsim: per launch its time, error and bound; over the launches it
 * predicts its MAPE, its median error and the launches pnsim predicts nearer. */
static void test_roofline(void **state)
{
    (void)state;
    pn_compare_t c;
    pn_compare_init(&c);
    pn_error_t err = { 0 };
    /* errors, pnsim / roofline: -10 / -50 %, +5 / -20 %, -1 / +0.5 %; a row without one */
    static const struct { unsigned t; double m, p, r; } rows[] = {
        { 64, 10.0, 9.0, 5.0 }, { 128, 20.0, 21.0, 16.0 }, { 256, 100.0, 99.0, 100.5 },
        { 512, 8.0, 8.0, -1 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        assert_int_equal(pn_compare_add(&c, "k", "1", rows[i].t, 4, rows[i].m, rows[i].p,
                                        "x.yaml", &err), PN_OK);
        if (rows[i].r >= 0)
            pn_compare_roofline(&c, rows[i].r, i == 2 ? "issue" : "dram");
    }
    char *t = written(&c, PN_FORMAT_TEXT);
    expect_in(t, "measured_us predicted_us    error  roofline_us    error  bound\n");
    expect_in(t, "      10.000        9.000   -10.0%        5.000   -50.0%  dram\n");
    expect_in(t, "     100.000       99.000    -1.0%      100.500    +0.5%  issue\n");
    expect_in(t, "       8.000        8.000    +0.0%\n");
    /* one sweep (64 to 512 threads): best measured 512 (8.0), pnsim's 512 (8.0), the
     * roofline's 64 (5.0) among the rows that have one: not counted, 512 has none */
    expect_in(t, "; roofline (the largest lower bound) over 3 launches: MAPE 23.5 %, median "
                 "error 20.0 %, pnsim nearer in 2\n");
    free(t);
    char *j = written(&c, PN_FORMAT_JSON);
    expect_in(j, "\"roofline_us\": 16, \"roofline_error\": -0.2, \"bound\": \"dram\"}");
    expect_in(j, "\"roofline_launches\": 3, \"roofline_mape\": 0.235, "
                 "\"roofline_median_error\": 0.2, \"pnsim_nearer\": 2, "
                 "\"roofline_sweeps_right\": 0, \"roofline_sweeps_near\": 0}");
    free(j);
    char *v = written(&c, PN_FORMAT_CSV);
    expect_in(v, "kernel,size,threads,blocks,measured_us,predicted_us,error,config,roofline_us,"
                 "roofline_error,bound\n");
    expect_in(v, "k,1,256,4,100,99,-0.01,x.yaml,100.5,0.005,issue\n");
    expect_in(v, "k,1,512,4,8,8,0,x.yaml,,,\n");
    free(v);
    /* with the last row's roofline too, the sweep counts: the roofline picks 64 (5.0,
     * measured 10.0 against the best 8.0), wrong and not near */
    pn_compare_roofline(&c, 7.0, "dram");
    t = written(&c, PN_FORMAT_TEXT);
    expect_in(t, "pnsim nearer in 3, its best block size right in 0 of 1 sweeps (0 within 1 %)\n");
    free(t);
    /* a roofline that ranks as the measurement does */
    c.rows[0].roofline_us = 9.5;
    c.rows[1].roofline_us = 19.0;
    c.rows[2].roofline_us = 99.0;
    t = written(&c, PN_FORMAT_TEXT);
    expect_in(t, "its best block size right in 1 of 1 sweeps (1 within 1 %)\n");
    free(t);
    pn_compare_destroy(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweeps),
        cmocka_unit_test(test_sweep_spread),
        cmocka_unit_test(test_roofline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
