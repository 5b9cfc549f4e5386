/* pn_test_program.h - what tests/test_program.c and tests/test_program_order.c
 * share: programs written as item lists, the sequencer net, one run, the
 * implied counts and the executed kinds (include it after cmocka.h). */
#ifndef PN_TEST_PROGRAM_H
#define PN_TEST_PROGRAM_H

#include <stdint.h>
#include <string.h>

#include "pn_engine.h"
#include "pn_program_net.h"
#include "pn_sm.h"

/* Append {repeat: rep, body: [items]} with items written "global*2 shared arith". */
static inline void seg(pn_program_t *p, uint64_t rep, const char *items)
{
    pn_program_item_t body[32];
    uint32_t n = 0;
    pn_error_t err;
    const char *s = items;
    while (*s) {
        size_t len = strcspn(s, " ");
        assert_true(n < 32);
        if (pn_program_parse_item(s, len, &body[n++], &err) != PN_OK)
            fail_msg("parse '%s': %s", s, err.msg);
        s += len;
        s += strspn(s, " ");
    }
    if (pn_program_add_segment(p, rep, body, n, &err) != PN_OK)
        fail_msg("add_segment: %s", err.msg);
}

/* The sequencer net of `warps` warps running progs into net (lay: its layout). */
static inline void build(pn_net_t *net, pn_sm_layout_t *lay, uint32_t sched, uint32_t l1, uint32_t l2,
                  uint32_t warps, const pn_program_t *progs)
{
    pn_error_t err;
    pn_net_init(net);
    if (pn_program_net_build(net, sched, l1, l2, warps, progs, lay, &err) != PN_OK)
        fail_msg("build: %s", err.msg);
}

/* One run of kind on net with idle transition t0 and seed. */
static inline pn_run_result_t run1(pn_engine_kind_t kind, const pn_net_t *net, uint32_t t0,
                            uint64_t seed)
{
    pn_run_opts_t o = { .max_steps = 100000000, .idle_trans = t0, .net_name = "t" };
    pn_run_result_t r;
    pn_error_t err;
    if (pn_engine_run(kind, net, seed, &o, &r, &err) != PN_OK)
        fail_msg("run: %s", err.msg);
    return r;
}

/* The counts p implies. */
static inline pn_warp_counts_t counts_of(const pn_program_t *p)
{
    pn_warp_counts_t c;
    pn_error_t err;
    if (pn_program_counts(p, &c, &err) != PN_OK)
        fail_msg("counts: %s", err.msg);
    return c;
}

/* The kinds p executes, in order, into out (at most cap); returns how many. */
static inline size_t expand(const pn_program_t *p, uint8_t *out, size_t cap)
{
    size_t n = 0;
    for (uint32_t j = 0; j < p->n_segs; j++)
        for (uint64_t r = 0; r < p->segs[j].repeat; r++)
            for (uint32_t i = 0; i < p->segs[j].n_body; i++)
                for (uint32_t k = 0; k < p->segs[j].body[i].mult; k++) {
                    assert_true(n < cap);
                    out[n++] = p->segs[j].body[i].kind;
                }
    return n;
}

#endif
