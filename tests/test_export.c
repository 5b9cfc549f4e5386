/* test_export.c - the net as an igraph graph, DOT and GraphML output, and a
 * GraphML round trip that keeps every size. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_export.h"
#include "pn_pnml.h"
#include "pn_sm.h"

static void build(pn_net_t *net, uint32_t warps)
{
    pn_warp_counts_t c[8];
    for (uint32_t i = 0; i < warps; i++)
        c[i] = (pn_warp_counts_t){ 10 + i, 2, 3 };
    pn_sm_params_t p = { 4, 20, 2, warps, c };
    pn_net_init(net);
    assert_int_equal(pn_sm_build(net, &p, NULL, NULL), PN_OK);
}

static void test_igraph_graph(void **state)
{
    (void)state;
    pn_net_t net;
    build(&net, 3);
    igraph_t g;
    assert_int_equal(pn_net_to_igraph(&net, &g, NULL), PN_OK);
    assert_int_equal(igraph_vcount(&g), 18 * 3 + 2 + 15 * 3 + 1);
    assert_int_equal(igraph_ecount(&g), (26 + 23 + 6) * 3 + 4);
    igraph_bool_t bip;
    igraph_vector_bool_t types;
    igraph_vector_bool_init(&types, 0);
    assert_int_equal(igraph_is_bipartite(&g, &bip, &types), IGRAPH_SUCCESS);
    assert_true(bip);
    igraph_vector_bool_destroy(&types);
    assert_string_equal(VAS(&g, "name", 0), "p0");
    assert_string_equal(VAS(&g, "kind", 0), "place");
    assert_true(VAN(&g, "marking", 0) == 4.0);
    assert_string_equal(VAS(&g, "kind", net.n_places), "transition");
    assert_string_equal(VAS(&g, "name", net.n_places), "t0");
    igraph_destroy(&g);
    pn_net_destroy(&net);
}

static void test_graphml_round_trip(void **state)
{
    (void)state;
    for (uint32_t w = 1; w <= 8; w += 7) {
        pn_net_t net;
        build(&net, w);
        FILE *f = tmpfile();
        assert_non_null(f);
        assert_int_equal(pn_net_write(&net, f, PN_EXPORT_GRAPHML, NULL), PN_OK);
        rewind(f);
        pn_graph_summary_t s;
        pn_error_t err;
        assert_int_equal(pn_graphml_summary(f, &s, &err), PN_OK);
        fclose(f);
        assert_int_equal(s.places, 18 * w + 2);
        assert_int_equal(s.transitions, 15 * w + 1);
        assert_int_equal(s.inputs, 26 * w + 2);
        assert_int_equal(s.outputs, 23 * w + 2);
        assert_int_equal(s.inhibitors, 6 * w);
        double tokens = 4 + w;   /* p0 and pw */
        for (uint32_t i = 0; i < w; i++)
            tokens += 3 + (10 + i) + 2 + 3;   /* p1..p3, p5, p7, p9 */
        assert_true(s.tokens == tokens);
        pn_net_destroy(&net);
    }
}

static void test_pnml_round_trip(void **state)
{
    (void)state;
    for (uint32_t w = 1; w <= 8; w += 7) {
        pn_net_t net;
        build(&net, w);
        FILE *f = tmpfile();
        assert_non_null(f);
        assert_int_equal(pn_net_write(&net, f, PN_EXPORT_PNML, NULL), PN_OK);
        rewind(f);
        pn_graph_summary_t s;
        pn_error_t err;
        if (pn_pnml_summary(f, &s, &err) != PN_OK)
            fail_msg("%s", err.msg);
        fclose(f);
        assert_int_equal(s.places, 18 * w + 2);
        assert_int_equal(s.transitions, 15 * w + 1);
        assert_int_equal(s.inputs, 26 * w + 2);
        assert_int_equal(s.outputs, 23 * w + 2);
        assert_int_equal(s.inhibitors, 6 * w);
        double tokens = 4 + w;
        for (uint32_t i = 0; i < w; i++)
            tokens += 3 + (10 + i) + 2 + 3;
        assert_true(s.tokens == tokens);
        pn_net_destroy(&net);
    }
    /* not PNML at all, and XML that is no P/T net */
    pn_graph_summary_t s;
    pn_error_t err;
    FILE *f = tmpfile();
    fputs("<pnml", f);
    rewind(f);
    assert_int_equal(pn_pnml_summary(f, &s, &err), PN_ESYNTAX);
    fclose(f);
    f = tmpfile();
    fputs("<graph/>", f);
    rewind(f);
    assert_int_equal(pn_pnml_summary(f, &s, &err), PN_ESYNTAX);
    fclose(f);
}

static void test_dot(void **state)
{
    (void)state;
    pn_net_t net;
    build(&net, 1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(pn_net_write(&net, f, PN_EXPORT_DOT, NULL), PN_OK);
    fclose(f);
    assert_non_null(strstr(buf, "digraph"));
    assert_non_null(strstr(buf, "w0.t16"));
    assert_non_null(strstr(buf, "odot"));      /* inhibitor arcs are drawn as such */
    assert_non_null(strstr(buf, "shape=box"));
    free(buf);
    pn_net_destroy(&net);
}

static void test_errors(void **state)
{
    (void)state;
    pn_export_format_t fmt;
    pn_error_t err;
    assert_int_equal(pn_export_format_parse("graphml", &fmt, &err), PN_OK);
    assert_int_equal(fmt, PN_EXPORT_GRAPHML);
    assert_int_equal(pn_export_format_parse("pnml", &fmt, &err), PN_OK);
    assert_int_equal(fmt, PN_EXPORT_PNML);
    assert_int_equal(pn_export_format_parse("gml", &fmt, &err), PN_EINVAL);
    assert_string_equal(err.msg, "unknown export format 'gml' (expected dot, graphml or pnml)");
    pn_net_t net;
    pn_net_init(&net);
    igraph_t g;
    assert_int_equal(pn_net_to_igraph(&net, &g, &err), PN_EINVAL);
    FILE *f = tmpfile();
    fputs("<not graphml", f);
    rewind(f);
    pn_graph_summary_t s;
    assert_int_equal(pn_graphml_summary(f, &s, &err), PN_ESYNTAX);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_igraph_graph),
        cmocka_unit_test(test_graphml_round_trip),
        cmocka_unit_test(test_pnml_round_trip),
        cmocka_unit_test(test_dot),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests_name("export", tests, NULL, NULL);
}
