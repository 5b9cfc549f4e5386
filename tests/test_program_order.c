/* test_program_order.c - the reordered programs of `pnsim reorder`
 * (models/program/pn_program_order.c): what each order keeps of a program's
 * counts and barriers, and what the orders do to a memory-bound kernel. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_kernel_net.h"
#include "pn_engine.h"
#include "pn_program_net.h"
#include "pn_program_order.h"
#include "pn_rng.h"
#include "pn_sm.h"
#include "pn_stats.h"
#include "pn_test_program.h"

/* ---- orders ----------------------------------------------------------------- */

static void test_orders_counts(void **state)
{
    (void)state;
    pn_rng_t r;
    pn_rng_seed(&r, 5);
    pn_warp_counts_t cases[60] = {
        { 0, 0, 0 }, { 5, 0, 0 }, { 0, 3, 0 }, { 0, 0, 4 }, { 3, 5, 7 }, { 100, 3, 4 },
        { 7, 0, 3 }, { 10, 2, 3 }, { 11, 1, 4 }, { 1, 1, 1 }, { 64, 0, 32 }, { 9, 4, 0 },
    };
    for (int i = 12; i < 60; i++)
        cases[i] = (pn_warp_counts_t){ pn_rng_below(&r, 200), pn_rng_below(&r, 30),
                                       pn_rng_below(&r, 30) };
    static uint8_t seq[4096];
    for (int i = 0; i < 60; i++) {
        const pn_warp_counts_t *c = &cases[i];
        for (int o = 0; o < PN_ORDER_COUNT; o++) {
            pn_program_t p;
            pn_error_t err;
            assert_int_equal(pn_program_order(&p, (pn_order_t)o, c, &err), PN_OK);
            pn_warp_counts_t got = counts_of(&p);
            assert_memory_equal(&got, c, sizeof got);
            assert_true(p.n_segs <= 3);
            size_t n = expand(&p, seq, sizeof seq);
            assert_int_equal(n, c->arith + c->shared + c->global);
            uint64_t m = c->shared + c->global;
            size_t k = 0;
            if (o == PN_ORDER_MEMORY_FIRST || o == PN_ORDER_MEMORY_LAST) {
                static const uint8_t first[] = { PN_KIND_GLOBAL, PN_KIND_SHARED,
                                                 PN_KIND_ARITH };
                static const uint8_t last[] = { PN_KIND_ARITH, PN_KIND_GLOBAL,
                                                PN_KIND_SHARED };
                const uint8_t *ord = o == PN_ORDER_MEMORY_FIRST ? first : last;
                for (int g = 0; g < 3; g++) {
                    uint64_t cnt = ord[g] == PN_KIND_ARITH ? c->arith
                                 : ord[g] == PN_KIND_SHARED ? c->shared : c->global;
                    for (uint64_t x = 0; x < cnt; x++)
                        assert_int_equal(seq[k++], ord[g]);
                }
            } else if (m == 0) {
                for (uint64_t x = 0; x < c->arith; x++)
                    assert_int_equal(seq[k++], PN_KIND_ARITH);
            } else {
                /* chunk j: one memory access (globals first), then q or q + 1 arith */
                uint64_t q = c->arith / m, rem = c->arith % m;
                for (uint64_t j = 0; j < m; j++) {
                    assert_int_equal(seq[k++], j < c->global ? PN_KIND_GLOBAL
                                                             : PN_KIND_SHARED);
                    for (uint64_t x = 0; x < q + (j < rem); x++)
                        assert_int_equal(seq[k++], PN_KIND_ARITH);
                }
            }
            assert_int_equal(k, n);
            pn_program_destroy(&p);
        }
    }
    /* huge counts: the programs stay small (counters, not copies) */
    pn_warp_counts_t big = { 4000000000u, 3, 1000 };
    for (int o = 0; o < PN_ORDER_COUNT; o++) {
        pn_program_t p;
        uint32_t pl, tr;
        assert_int_equal(pn_program_order(&p, (pn_order_t)o, &big, NULL), PN_OK);
        pn_warp_counts_t got = counts_of(&p);
        assert_memory_equal(&got, &big, sizeof got);
        pn_program_warp_size(&p, &pl, &tr);
        assert_true(pl <= 16 + 3 * 4 && tr <= 12 + 3 * 4);
        pn_program_destroy(&p);
    }
    pn_program_t p;
    pn_warp_counts_t over = { PN_SM_MAX_COUNT + 1, 0, 0 };
    pn_error_t err;
    assert_int_equal(pn_program_order(&p, PN_ORDER_MEMORY_FIRST, &over, &err), PN_EINVAL);
    assert_int_equal(pn_program_order(&p, PN_ORDER_COUNT, &big, &err), PN_EINVAL);
    assert_int_equal(p.n_segs, 0);
    assert_string_equal(pn_program_order_name(PN_ORDER_MEMORY_SPREAD), "memory-spread");
    assert_string_equal(pn_program_order_name(PN_ORDER_COUNT), "?");
}

/* Orders of every item kind with barriers: each phase holds floor(n / (b +
 * 1)) of each kind (the last the rest), ordered as the order says. */
static void test_orders_kinds(void **state)
{
    (void)state;
    static const int first[] = { PN_KIND_GLOBAL, PN_PROGRAM_GLOBAL_ST, PN_KIND_SHARED,
                                 PN_PROGRAM_SHARED_ST, PN_KIND_ARITH, PN_PROGRAM_SFU };
    static const int last[] = { PN_KIND_ARITH, PN_PROGRAM_SFU, PN_KIND_GLOBAL,
                                PN_PROGRAM_GLOBAL_ST, PN_KIND_SHARED, PN_PROGRAM_SHARED_ST };
    static const int mem[] = { PN_KIND_GLOBAL, PN_PROGRAM_GLOBAL_ST, PN_KIND_SHARED,
                               PN_PROGRAM_SHARED_ST };
    static uint8_t seq[1 << 16];
    pn_rng_t r;
    pn_rng_seed(&r, 11);
    for (int i = 0; i < 200; i++) {
        uint64_t n[PN_PROGRAM_KINDS];
        for (int k = 0; k < PN_PROGRAM_KINDS; k++)
            n[k] = pn_rng_below(&r, 4) ? pn_rng_below(&r, k == PN_KIND_ARITH ? 300 : 40) : 0;
        n[PN_PROGRAM_SYNC] = pn_rng_below(&r, 3) ? pn_rng_below(&r, 6) : 0;
        const uint64_t b = n[PN_PROGRAM_SYNC];
        for (int o = 0; o < PN_ORDER_COUNT; o++) {
            pn_program_t p;
            pn_error_t err;
            uint64_t got[PN_PROGRAM_KINDS];
            assert_int_equal(pn_program_order_kinds(&p, (pn_order_t)o, n, &err), PN_OK);
            assert_int_equal(pn_program_kind_counts(&p, got, &err), PN_OK);
            assert_memory_equal(got, n, sizeof got);
            size_t len = expand(&p, seq, sizeof seq), k = 0;
            for (uint64_t ph = 0; ph <= b; ph++) {
                uint64_t c[PN_PROGRAM_KINDS], m = 0, comp;
                for (int x = 0; x < PN_PROGRAM_KINDS; x++)
                    c[x] = ph < b ? n[x] / (b + 1) : n[x] - b * (n[x] / (b + 1));
                for (int x = 0; x < 4; x++)
                    m += c[mem[x]];
                comp = c[PN_KIND_ARITH] + c[PN_PROGRAM_SFU];
                if (o != PN_ORDER_MEMORY_SPREAD || m == 0) {
                    const int *ord = o == PN_ORDER_MEMORY_FIRST ? first : last;
                    for (int g = 0; g < 6; g++)
                        for (uint64_t x = 0; x < c[ord[g]]; x++)
                            assert_int_equal(seq[k++], ord[g]);
                } else {
                    /* chunk j: one memory access, then q or q + 1 compute
                     * (arith first, then sfu) */
                    uint64_t q = comp / m, rem = comp % m, done = 0, mk = 0, used = 0;
                    for (uint64_t j = 0; j < m; j++) {
                        while (used == c[mem[mk]]) {
                            mk++;
                            used = 0;
                        }
                        assert_int_equal(seq[k++], mem[mk]);
                        used++;
                        for (uint64_t x = 0; x < q + (j < rem); x++, done++)
                            assert_int_equal(seq[k++], done < c[PN_KIND_ARITH] ? PN_KIND_ARITH
                                                                             : PN_PROGRAM_SFU);
                    }
                }
                if (ph < b)
                    assert_int_equal(seq[k++], PN_PROGRAM_SYNC);
            }
            assert_int_equal(k, len);
            pn_program_destroy(&p);
        }
    }
    /* without the pipelined kinds and barriers: pn_program_order's programs */
    char a[512], bb[512];
    pn_warp_counts_t c = { 10, 2, 3 };
    uint64_t n[PN_PROGRAM_KINDS] = { 10, 2, 3, 0, 0, 0, 0 };
    for (int o = 0; o < PN_ORDER_COUNT; o++) {
        pn_program_t p, q;
        assert_int_equal(pn_program_order(&p, (pn_order_t)o, &c, NULL), PN_OK);
        assert_int_equal(pn_program_order_kinds(&q, (pn_order_t)o, n, NULL), PN_OK);
        assert_string_equal(pn_program_format(&p, a, sizeof a), pn_program_format(&q, bb, sizeof bb));
        pn_program_destroy(&p);
        pn_program_destroy(&q);
    }
    /* a worked example: m = 4 slots, 5 arith + 3 sfu, q = 2 */
    uint64_t w[PN_PROGRAM_KINDS] = { 5, 1, 2, 0, 3, 0, 1 };
    pn_program_t p;
    assert_int_equal(pn_program_order_kinds(&p, PN_ORDER_MEMORY_SPREAD, w, NULL), PN_OK);
    assert_string_equal(pn_program_format(&p, a, sizeof a),
                        "[{repeat: 2, body: [global, arith*2]}, {repeat: 1, body: [global_st, "
                        "arith, sfu]}, {repeat: 1, body: [shared, sfu*2]}]");
    pn_program_destroy(&p);
    /* with 2 barriers: two flattened phases, then the rest */
    uint64_t wb[PN_PROGRAM_KINDS] = { 7, 0, 2, 2, 0, 0, 0 };
    assert_int_equal(pn_program_order_kinds(&p, PN_ORDER_MEMORY_FIRST, wb, NULL), PN_OK);
    assert_string_equal(pn_program_format(&p, a, sizeof a),
                        "[{repeat: 2, body: [arith*2, sync]}, {repeat: 2, body: [global]}, "
                        "{repeat: 3, body: [arith]}]");
    pn_program_destroy(&p);
    /* many barriers around phases too long to flatten: an error, not a huge program */
    uint64_t huge[PN_PROGRAM_KINDS] = { 0 };
    huge[PN_KIND_ARITH] = 3000000000u;
    huge[PN_KIND_GLOBAL] = 3000000000u;
    huge[PN_PROGRAM_SYNC] = 100000;
    pn_error_t err;
    assert_int_equal(pn_program_order_kinds(&p, PN_ORDER_MEMORY_FIRST, huge, &err), PN_OK);
    pn_program_destroy(&p);
    assert_int_equal(pn_program_order_kinds(&p, PN_ORDER_MEMORY_SPREAD, huge, &err), PN_ELIMIT);
    assert_non_null(strstr(err.msg, "100000 barriers"));
    assert_int_equal(p.n_segs, 0);
}

/* Mean steps of `runs` fast runs of every warp running order o of counts c. */
static double order_mean(pn_order_t o, const pn_warp_counts_t *c, uint32_t warps,
                         uint32_t sched, uint32_t l1, uint32_t runs)
{
    pn_program_t *p = calloc(warps, sizeof *p);
    pn_run_result_t *res = calloc(runs, sizeof *res);
    assert_non_null(p);
    assert_non_null(res);
    for (uint32_t w = 0; w < warps; w++)
        assert_int_equal(pn_program_order(&p[w], o, c, NULL), PN_OK);
    pn_net_t net;
    pn_sm_layout_t lay;
    build(&net, &lay, sched, l1, 2, warps, p);
    pn_run_opts_t opts = { .max_steps = 100000000, .idle_trans = lay.t0, .net_name = "t" };
    assert_int_equal(pn_engine_run_many(PN_ENGINE_FAST, &net, 1, runs, 2, &opts, res, NULL),
                     PN_OK);
    double sum = 0;
    for (uint32_t i = 0; i < runs; i++)
        sum += (double)res[i].steps;
    pn_net_destroy(&net);
    for (uint32_t w = 0; w < warps; w++)
        pn_program_destroy(&p[w]);
    free(p);
    free(res);
    return sum / runs;
}

/* A memory-bound kernel (latency l1 = 200 dominates: per warp 32 global
 * accesses of 205 steps against 64 arithmetic instructions of 4), 16 warps on
 * 2 schedulers. memory-first runs every warp's globals, then every warp's
 * arithmetic, which holds a scheduler 3 steps each: it cannot end before
 * g (5 + l1) + W a 3 / S = 6560 + 1536 steps. memory-spread hides the
 * arithmetic behind the other warps' latencies and ends near one warp's own
 * path, 4 a + (5 + l1) g + 1 = 6817 steps, well below that bound. */
static void test_memory_bound_theory(void **state)
{
    (void)state;
    pn_warp_counts_t c = { 64, 0, 32 };
    const uint32_t W = 16, S = 2, l1 = 200;
    double first = order_mean(PN_ORDER_MEMORY_FIRST, &c, W, S, l1, 8);
    double spread = order_mean(PN_ORDER_MEMORY_SPREAD, &c, W, S, l1, 8);
    double bound_first = (double)(c.global * (5 + l1)) + (double)(W * c.arith * 3) / S;
    double path = (double)pn_sm_single_warp_steps(&c, l1, 2);
    if (!(first >= bound_first && spread < bound_first && spread >= path &&
          spread < 1.05 * path))
        fail_msg("memory-first %.1f (bound %.1f), memory-spread %.1f (path %.1f)", first,
                 bound_first, spread, path);
    assert_true(first > 1.15 * spread);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orders_counts),
        cmocka_unit_test(test_orders_kinds),
        cmocka_unit_test(test_memory_bound_theory),
    };
    return cmocka_run_group_tests_name("program orders", tests, NULL, NULL);
}
