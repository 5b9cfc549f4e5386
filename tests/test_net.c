/* test_net.c - pnet: building, freezing, enabledness with inhibitors, firing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "pn_net.h"

/* p_a(2) --2--> t_x --> p_b ; p_c -o t_x (inhibitor) ; t_y: p_b -> p_c */
static void build_small(pn_net_t *net)
{
    uint32_t pa, pb, pc, tx, ty;
    assert_int_equal(pn_net_add_place(net, "a", 2, &pa, NULL), PN_OK);
    assert_int_equal(pn_net_add_place(net, "b", 0, &pb, NULL), PN_OK);
    assert_int_equal(pn_net_add_place(net, "c", 0, &pc, NULL), PN_OK);
    assert_int_equal(pn_net_add_transition(net, "x", &tx, NULL), PN_OK);
    assert_int_equal(pn_net_add_transition(net, "y", &ty, NULL), PN_OK);
    assert_int_equal(pn_net_add_arc(net, PN_ARC_INPUT, tx, pa, 1, NULL), PN_OK);
    assert_int_equal(pn_net_add_arc(net, PN_ARC_INPUT, tx, pa, 1, NULL), PN_OK); /* merges to 2 */
    assert_int_equal(pn_net_add_arc(net, PN_ARC_OUTPUT, tx, pb, 1, NULL), PN_OK);
    assert_int_equal(pn_net_add_arc(net, PN_ARC_INHIBITOR, tx, pc, 1, NULL), PN_OK);
    assert_int_equal(pn_net_add_arc(net, PN_ARC_INHIBITOR, tx, pc, 1, NULL), PN_OK); /* kept once */
    assert_int_equal(pn_net_add_arc(net, PN_ARC_INPUT, ty, pb, 1, NULL), PN_OK);
    assert_int_equal(pn_net_add_arc(net, PN_ARC_OUTPUT, ty, pc, 1, NULL), PN_OK);
    assert_int_equal(pn_net_freeze(net, NULL), PN_OK);
}

static void test_layout(void **state)
{
    (void)state;
    pn_net_t net;
    pn_net_init(&net);
    build_small(&net);
    assert_int_equal(net.n_places, 3);
    assert_int_equal(net.n_trans, 2);
    assert_int_equal(pn_net_n_arcs(&net, PN_ARC_INPUT), 2);
    assert_int_equal(pn_net_n_arcs(&net, PN_ARC_OUTPUT), 2);
    assert_int_equal(pn_net_n_arcs(&net, PN_ARC_INHIBITOR), 1);
    assert_int_equal(net.in[net.in_off[0]].weight, 2);
    /* reverse indexes */
    assert_int_equal(net.cons_off[1] - net.cons_off[0], 1);   /* a consumed by x */
    assert_int_equal(net.inhby[net.inhby_off[2]], 0);          /* c inhibits x */
    assert_int_equal(net.prod[net.prod_off[2]], 1);            /* c produced by y */
    assert_int_equal(pn_net_find_place(&net, "c"), 2);
    assert_int_equal(pn_net_find_transition(&net, "y"), 1);
    assert_int_equal(pn_net_find_place(&net, "zz"), -1);
    pn_net_destroy(&net);
}

static void test_fire_and_dead(void **state)
{
    (void)state;
    pn_net_t net;
    pn_net_init(&net);
    build_small(&net);
    pn_tokens_t m[3];
    pn_net_initial_marking(&net, m);
    assert_true(pn_net_enabled(&net, m, 0));
    assert_false(pn_net_enabled(&net, m, 1));
    pn_net_fire(&net, m, 0);
    assert_int_equal(m[0], 0);
    assert_int_equal(m[1], 1);
    pn_net_fire(&net, m, 1);
    assert_int_equal(m[2], 1);
    assert_true(pn_net_is_dead(&net, m));
    /* the inhibitor alone disables x once a has tokens again */
    m[0] = 5;
    assert_false(pn_net_enabled(&net, m, 0));
    m[2] = 0;
    assert_true(pn_net_enabled(&net, m, 0));
    pn_net_destroy(&net);
}

static void test_errors(void **state)
{
    (void)state;
    pn_net_t net;
    pn_error_t err;
    pn_net_init(&net);
    uint32_t p, t;
    assert_int_equal(pn_net_add_place(&net, "", 0, &p, &err), PN_EINVAL);
    assert_int_equal(pn_net_add_place(&net, "p", 0, &p, &err), PN_OK);
    assert_int_equal(pn_net_add_transition(&net, "t", &t, &err), PN_OK);
    assert_int_equal(pn_net_add_arc(&net, PN_ARC_INPUT, t, p, 0, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "weight 0"));
    assert_int_equal(pn_net_add_arc(&net, PN_ARC_INPUT, t + 1, p, 1, &err), PN_EINVAL);
    assert_int_equal(pn_net_add_place(&net, "p", 0, NULL, &err), PN_OK);
    assert_int_equal(pn_net_freeze(&net, &err), PN_EINVAL);
    assert_string_equal(err.msg, "two places are named 'p'");
    assert_false(net.frozen);
    pn_net_destroy(&net);

    pn_net_init(&net);
    assert_int_equal(pn_net_add_transition(&net, "t", NULL, &err), PN_OK);
    assert_int_equal(pn_net_add_transition(&net, "t", NULL, &err), PN_OK);
    assert_int_equal(pn_net_freeze(&net, &err), PN_EINVAL);
    assert_string_equal(err.msg, "two transitions are named 't'");
    pn_net_destroy(&net);

    pn_net_init(&net);
    assert_int_equal(pn_net_add_place(&net, "p", 0, &p, &err), PN_OK);
    assert_int_equal(pn_net_freeze(&net, &err), PN_OK);
    assert_int_equal(pn_net_add_place(&net, "q", 0, &p, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "frozen"));
    pn_net_destroy(&net);
    pn_net_destroy(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_fire_and_dead),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests_name("net", tests, NULL, NULL);
}
