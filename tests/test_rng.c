/* test_rng.c - the inline PCG32 is igraph's igraph_rngtype_pcg32, bit for bit:
 * raw 32-bit outputs and bounded integers (igraph_rng_get_integer). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <igraph.h>

#include "pn_rng.h"

static const uint64_t seeds[] = { 0, 1, 2, 42, 12345, UINT64_C(0xfedcba9876543210) };

static void test_raw_stream(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        igraph_rng_t ig;
        assert_int_equal(igraph_rng_init(&ig, &igraph_rngtype_pcg32), IGRAPH_SUCCESS);
        assert_int_equal(igraph_rng_seed(&ig, seeds[s]), IGRAPH_SUCCESS);
        pn_rng_t r;
        pn_rng_seed(&r, seeds[s]);
        for (int i = 0; i < 10000; i++)
            assert_int_equal(pn_rng_next(&r), (uint32_t)igraph_rngtype_pcg32.get(ig.state));
        igraph_rng_destroy(&ig);
    }
}

static void test_bounded(void **state)
{
    (void)state;
    static const uint32_t ranges[] = { 1, 2, 3, 5, 7, 16, 100, 1000, 65537, 3000000000u };
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        igraph_rng_t ig;
        igraph_rng_init(&ig, &igraph_rngtype_pcg32);
        igraph_rng_seed(&ig, seeds[s]);
        pn_rng_t r;
        pn_rng_seed(&r, seeds[s]);
        for (int i = 0; i < 20000; i++) {
            uint32_t n = ranges[(size_t)i % (sizeof ranges / sizeof ranges[0])];
            uint32_t mine = pn_rng_below(&r, n);
            igraph_integer_t theirs = igraph_rng_get_integer(&ig, 0, (igraph_integer_t)n - 1);
            assert_int_equal(mine, (uint32_t)theirs);
        }
        /* both streams are still in step afterwards */
        assert_int_equal(pn_rng_next(&r), (uint32_t)igraph_rngtype_pcg32.get(ig.state));
        igraph_rng_destroy(&ig);
    }
}

static void test_shuffle_matches_igraph(void **state)
{
    (void)state;
    igraph_rng_t ig;
    igraph_rng_init(&ig, &igraph_rngtype_pcg32);
    igraph_rng_seed(&ig, 7);
    igraph_rng_t *old = igraph_rng_default();
    igraph_rng_t saved = *old;
    igraph_rng_set_default(&ig);
    pn_rng_t r;
    pn_rng_seed(&r, 7);
    for (int round = 0; round < 50; round++) {
        uint32_t n = (uint32_t)(round % 17) + 1;
        uint32_t a[32];
        igraph_vector_int_t v;
        igraph_vector_int_init(&v, n);
        for (uint32_t i = 0; i < n; i++) {
            a[i] = i;
            VECTOR(v)[i] = i;
        }
        pn_rng_shuffle_u32(&r, a, n);
        igraph_vector_int_shuffle(&v);
        for (uint32_t i = 0; i < n; i++)
            assert_int_equal(a[i], VECTOR(v)[i]);
        igraph_vector_int_destroy(&v);
    }
    igraph_rng_set_default(&saved);
    igraph_rng_destroy(&ig);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_stream),
        cmocka_unit_test(test_bounded),
        cmocka_unit_test(test_shuffle_matches_igraph),
    };
    return cmocka_run_group_tests_name("rng", tests, NULL, NULL);
}
