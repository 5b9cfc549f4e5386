/* test_regroup.c - thread regrouping (calib/pn_regroup.c): the paper's
 * lexicographic example, grids whose best grouping is known, Greedy's merge
 * rule (and its cached implementation against a plain one of Algorithm 1),
 * Greedy-Max's rule, determinism, and the per-warp counts of a regrouped
 * grid. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pn_regroup.h"

static void run_alg(pn_regroup_alg_t a, const uint64_t *count, size_t n, size_t nb,
                    const double *lat, size_t gs, uint32_t *perm)
{
    pn_regroup_input_t in = { .n = n, .nb = nb, .count = count, .lat = lat };
    pn_error_t err;
    if (pn_regroup(a, &in, gs, perm, &err) != PN_OK)
        fail_msg("%s: %s", pn_regroup_alg_names[a], err.msg);
}

static void assert_perm(const uint32_t *perm, size_t n)
{
    uint8_t *seen = calloc(n, 1);
    for (size_t i = 0; i < n; i++) {
        assert_true(perm[i] < n);
        assert_false(seen[perm[i]]);
        seen[perm[i]] = 1;
    }
    free(seen);
}

/* Section V-A: BBV_t1 = {1, 20, 10, 20, 1} is smaller than {1, 30, 20, 30, 1}. */
static void test_sorting_paper_example(void **state)
{
    (void)state;
    static const uint64_t bbv[] = { 1, 30, 20, 30, 1,     /* thread 0: the paper's t2 */
                                    1, 20, 10, 20, 1,     /* thread 1: t1 */
                                    1, 20, 10, 20, 1,     /* thread 2: t1 again (stable) */
                                    1, 20, 10, 19, 9 };   /* thread 3: first difference at [3] */
    static const double lat[] = { 1, 1, 1, 1, 1 };
    uint32_t perm[4];
    run_alg(PN_REGROUP_SORTING, bbv, 4, 5, lat, 32, perm);
    assert_int_equal(perm[0], 3);
    assert_int_equal(perm[1], 1);
    assert_int_equal(perm[2], 2);
    assert_int_equal(perm[3], 0);
}

/* 64 threads alternating a heavy and a light BBV: the best warps of 32 are
 * one of each kind (activity 1); every algorithm finds it. */
static void test_known_optimum(void **state)
{
    (void)state;
    uint64_t bbv[64 * 3];
    for (int t = 0; t < 64; t++) {
        bbv[t * 3 + 0] = 1;
        bbv[t * 3 + 1] = t % 2 ? 3 : 100;          /* loop trips */
        bbv[t * 3 + 2] = t % 2 ? 3 : 0;            /* a branch of the light threads */
    }
    static const double lat[] = { 1, 10, 7 };
    for (int a = 0; a < PN_REGROUP_ALGS; a++) {
        uint32_t perm[64];
        run_alg((pn_regroup_alg_t)a, bbv, 64, 3, lat, 32, perm);
        assert_perm(perm, 64);
        for (int w = 0; w < 2; w++)
            for (int i = 1; i < 32; i++)
                assert_int_equal(perm[w * 32 + i] % 2, perm[w * 32] % 2);
        /* Greedy-Max and Greedy open with the heavy threads, Sorting with the light */
        assert_int_equal(perm[0] % 2, a == PN_REGROUP_SORTING ? 1 : 0);
    }
}

static void test_gain(void **state)
{
    (void)state;
    static const double lat[] = { 2, 3 };
    static const uint64_t mn[] = { 1, 4 }, mx[] = { 3, 4 };
    /* benefit 2*1 + 3*4 = 14, cost 2*(3-1) + 3*0 = 4 */
    assert_true(pn_regroup_gain(lat, 2, mn, mx) == 10.0);
}

/* Algorithm 1 with group size 3: pairs of identical threads merge first
 * (largest gain), then the two pairs: the union, first group's threads
 * first, gives its first 3 threads as a group and keeps the 4th. */
static void test_greedy_merge_rule(void **state)
{
    (void)state;
    static const uint64_t bbv[] = { 9, 8, 9, 8, 1 };
    static const double lat[] = { 1 };
    uint32_t perm[5];
    run_alg(PN_REGROUP_GREEDY, bbv, 5, 1, lat, 3, perm);
    /* (0,2) gain 9, (1,3) gain 8, then {0,2} + {1,3} gain 2*8-9 = 7: group [0,2,1],
     * remainder {3}, which merges with {4} */
    static const uint32_t want[] = { 0, 2, 1, 3, 4 };
    assert_memory_equal(perm, want, sizeof want);
    /* group size 2: (0,2) finishes the first group at once */
    run_alg(PN_REGROUP_GREEDY, bbv, 5, 1, lat, 2, perm);
    static const uint32_t want2[] = { 0, 2, 1, 3, 4 };
    assert_memory_equal(perm, want2, sizeof want2);
}

/* Algorithm 2: the largest latency opens a group (ties: smallest id), an
 * identical thread comes first, else the largest gain. */
static void test_greedy_max_rule(void **state)
{
    (void)state;
    static const uint64_t bbv[] = { 1, 5, 3, 5, 4, 2 };
    static const double lat[] = { 1 };
    uint32_t perm[6];
    run_alg(PN_REGROUP_GREEDY_MAX, bbv, 6, 1, lat, 2, perm);
    /* {1, 3} (identical), {4, then gains 2*1-4, 2*3-4, 2*2-4: 2}, {5, 0} */
    static const uint32_t want[] = { 1, 3, 4, 2, 5, 0 };
    assert_memory_equal(perm, want, sizeof want);
}

/* A plain Algorithm 1: all pair gains every iteration (O(n^3)), the same
 * tie rule: the pair of slots (i < j) of largest gain, smallest i, then j. */
static void greedy_reference(const uint64_t *bbv, size_t n, size_t nb, const double *lat,
                             size_t gs, uint32_t *perm)
{
    uint32_t **mem = calloc(n, sizeof *mem);
    size_t *size = calloc(n, sizeof *size), n_out = 0;
    uint64_t *mn = malloc(nb * sizeof *mn), *mx = malloc(nb * sizeof *mx);
    for (size_t i = 0; i < n; i++) {
        mem[i] = malloc(n * sizeof **mem);
        mem[i][0] = (uint32_t)i;
        size[i] = 1;
    }
    for (;;) {
        size_t bi = SIZE_MAX, bj = SIZE_MAX, alive = 0, last = 0;
        double best = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            if (!size[i])
                continue;
            alive++;
            last = i;
            for (size_t j = i + 1; j < n; j++) {
                if (!size[j])
                    continue;
                for (size_t b = 0; b < nb; b++) {
                    mn[b] = UINT64_MAX;
                    mx[b] = 0;
                }
                for (int s = 0; s < 2; s++) {
                    size_t g = s ? j : i;
                    for (size_t k = 0; k < size[g]; k++)
                        for (size_t b = 0; b < nb; b++) {
                            uint64_t v = bbv[mem[g][k] * nb + b];
                            if (v < mn[b])
                                mn[b] = v;
                            if (v > mx[b])
                                mx[b] = v;
                        }
                }
                double v = pn_regroup_gain(lat, nb, mn, mx);
                if (bi == SIZE_MAX || v > best) {
                    best = v;
                    bi = i;
                    bj = j;
                }
            }
        }
        if (alive <= 1) {
            if (alive)
                for (size_t k = 0; k < size[last]; k++)
                    perm[n_out++] = mem[last][k];
            break;
        }
        memcpy(mem[bi] + size[bi], mem[bj], size[bj] * sizeof **mem);
        size[bi] += size[bj];
        size[bj] = 0;
        if (size[bi] >= gs) {
            memcpy(perm + n_out, mem[bi], gs * sizeof *perm);
            n_out += gs;
            memmove(mem[bi], mem[bi] + gs, (size[bi] - gs) * sizeof **mem);
            size[bi] -= gs;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(mem[i]);
    free(mem);
    free(size);
    free(mn);
    free(mx);
}

/* Greedy on bbv gives a permutation, the plain Algorithm 1's. */
static void check_greedy(const uint64_t *bbv, size_t n, size_t nb, const double *lat, size_t gs)
{
    uint32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    run_alg(PN_REGROUP_GREEDY, bbv, n, nb, lat, gs, a);
    greedy_reference(bbv, n, nb, lat, gs, b);
    assert_perm(a, n);
    assert_memory_equal(a, b, n * sizeof *a);
    free(a);
    free(b);
}

/* The cached Greedy equals the plain one on random BBVs full of ties. */
static void test_greedy_against_reference(void **state)
{
    (void)state;
    uint64_t s = 12345;
    for (int trial = 0; trial < 12; trial++) {
        size_t n = 20 + (size_t)trial * 5, nb = 1 + trial % 4, gs = 2 + trial % 7;
        uint64_t *bbv = malloc(n * nb * sizeof *bbv);
        double lat[4] = { 1, 2.5, 3, 0.5 };
        for (size_t i = 0; i < n * nb; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            bbv[i] = (s >> 33) % (trial % 2 ? 3 : 40);
        }
        check_greedy(bbv, n, nb, lat, gs);
        free(bbv);
    }
}

/* The same on BBVs drawn from a few prototypes (classes of identical
 * threads, which Greedy's fast path merges) with some counts changed, and
 * latencies of 0 (gains that tie across different BBVs). */
static void test_greedy_classes_against_reference(void **state)
{
    (void)state;
    uint64_t s = 777;
    for (int trial = 0; trial < 24; trial++) {
        size_t n = 30 + (size_t)trial * 4, nb = 1 + trial % 4, gs = 2 + trial % 11;
        size_t protos = 1 + (size_t)trial % 6;
        uint64_t *bbv = malloc(n * nb * sizeof *bbv);
        double lat[4] = { trial % 3 ? 1 : 0, 0, 2.5, trial % 2 ? 0 : 4 };
        for (size_t i = 0; i < n; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            size_t p = (s >> 33) % protos;
            for (size_t b = 0; b < nb; b++) {
                s = s * 6364136223846793005ull + 1442695040888963407ull;
                bbv[i * nb + b] = (s >> 36) % 7 == 0 ? (s >> 40) % 9 : (p * 5 + b * 3) % 9;
            }
        }
        check_greedy(bbv, n, nb, lat, gs);
        free(bbv);
    }
}

/* Same input, same order; every result is a permutation. */
static void test_determinism(void **state)
{
    (void)state;
    size_t n = 300, nb = 4;
    uint64_t *bbv = malloc(n * nb * sizeof *bbv), s = 7;
    for (size_t i = 0; i < n * nb; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        bbv[i] = (s >> 40) % 16;
    }
    static const double lat[] = { 4, 1, 9, 2 };
    for (int a = 0; a < PN_REGROUP_ALGS; a++) {
        uint32_t p1[300], p2[300];
        run_alg((pn_regroup_alg_t)a, bbv, n, nb, lat, 32, p1);
        run_alg((pn_regroup_alg_t)a, bbv, n, nb, lat, 32, p2);
        assert_perm(p1, n);
        assert_memory_equal(p1, p2, sizeof p1);
    }
    free(bbv);
    pn_regroup_input_t in = { .n = n, .nb = nb, .count = NULL, .lat = lat };
    uint32_t p[300];
    pn_error_t err;
    assert_int_equal(pn_regroup(PN_REGROUP_SORTING, &in, 32, p, &err), PN_EINVAL);
}

/* Per-warp counts of a 2-block grid of 40 threads (2 warps per block, the
 * second of 8 threads), identity and reversed orders. */
static void test_counts(void **state)
{
    (void)state;
    pn_bbv_t bbv = { 0 };
    char *names[2] = { "bb0", "bb1" };
    long cols[2] = { 2, 3 };
    uint64_t count[80 * 2];
    for (int t = 0; t < 80; t++) {
        count[t * 2] = 1;
        count[t * 2 + 1] = (uint64_t)t;                /* thread t loops t times */
    }
    bbv.path = "g.csv";
    bbv.n_threads = 80;
    bbv.n_blocks = 2;
    bbv.blocks = names;
    bbv.block_cols = cols;
    bbv.count = count;
    pn_block_table_t tab = { 0 };
    char *tnames[2] = { "bb1", "bb0" };
    pn_warp_counts_t cost[2] = { { 2, 0, 1 }, { 5, 1, 0 } };
    tab.path = "b.csv";
    tab.n = 2;
    tab.names = tnames;
    tab.cost = cost;
    size_t map[2];
    pn_error_t err;
    assert_int_equal(pn_regroup_map_blocks(&bbv, &tab, map, &err), PN_OK);
    assert_int_equal(map[0], 1);
    assert_int_equal(map[1], 0);
    double lat[2] = { 10, 1 };
    pn_regroup_counts_t c;
    assert_int_equal(pn_regroup_counts(&bbv, &tab, map, lat, NULL, 40, 32, &c, &err), PN_OK);
    assert_int_equal(c.blocks, 2);
    assert_int_equal(c.warps, 2);
    /* block 1 warp 1: threads 72..79: bb1 max 79 -> arith 5 + 2*79, shared 1, global 79 */
    assert_int_equal(c.warp[3].arith, 5 + 2 * 79);
    assert_int_equal(c.warp[3].shared, 1);
    assert_int_equal(c.warp[3].global, 79);
    assert_true(c.warp_lat[3] == 10 + 79);
    assert_true(c.block_lat[0] == (10 + 31) + (10 + 39));
    pn_regroup_counts_destroy(&c);
    uint32_t rev[80];
    for (int i = 0; i < 80; i++)
        rev[i] = (uint32_t)(79 - i);
    assert_int_equal(pn_regroup_counts(&bbv, &tab, map, lat, rev, 40, 32, &c, &err), PN_OK);
    assert_int_equal(c.warp[0].global, 79);               /* threads 79..48 */
    assert_int_equal(c.warp[3].global, 7);                /* threads 7..0 */
    assert_true(c.activity_factor > 0 && c.activity_factor < 1);
    pn_regroup_counts_destroy(&c);
    assert_int_equal(pn_regroup_counts(&bbv, &tab, map, lat, NULL, 30, 32, &c, &err), PN_EINVAL);
    tnames[0] = "bbX";
    assert_int_equal(pn_regroup_map_blocks(&bbv, &tab, map, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "block 'bb1' is not in b.csv"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sorting_paper_example),
        cmocka_unit_test(test_known_optimum),
        cmocka_unit_test(test_gain),
        cmocka_unit_test(test_greedy_merge_rule),
        cmocka_unit_test(test_greedy_max_rule),
        cmocka_unit_test(test_greedy_against_reference),
        cmocka_unit_test(test_greedy_classes_against_reference),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_counts),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
