/* pn_test_sass_warp.h - one warp's runs, bounds and programs that the SASS
 * engine's rule tests share (tests/test_sass_sim.c, tests/test_sass_loads.c,
 * tests/test_sass_pipes.c; include it after cmocka.h and pn_test_sass.h).
 * Arithmetic latency LA, loads served at L1 in LD. */
#ifndef PN_TEST_SASS_WARP_H
#define PN_TEST_SASS_WARP_H

#include <stdint.h>

#include "pn_pipe.h"
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"

/* Op `text` at offset off, executed ex times, 4 sectors in one line each. */
static inline void add(pn_sass_prog_t *p, uint32_t off, double ex, const char *text)
{
    pn_error_t err = { 0 };
    pn_status_t st = pn_sass_prog_add(p, text, off, 0, ex, 4 * ex, ex, 0, (long)off, 1, &err);
    if (st != PN_OK)
        fail_msg("%s", err.msg);
}

enum { LA = 5, LD = 30 };

/* The params of one warp in one block (pn_test_sass_params: 4 partitions,
 * issue 1, no pipes) with every latency LA. */
static inline void one_warp_params(pn_pipe_params_t *pp)
{
    pn_test_sass_params(pp, 1, 1);
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        pp->latency[k] = LA;
}

/* A program of the n texts (op i at 16 i, executed once, with its sectors,
 * lines and wavefronts when sectors is not NULL), then EXIT. */
static inline void rows_prog(pn_sass_prog_t *p, const char *const *text, int n,
                             const double *sectors, const double *lines, const double *wf)
{
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < n; i++)
        assert_int_equal(pn_sass_prog_add(p, text[i], (uint64_t)(16 * i), 0, 1,
                                          sectors ? sectors[i] : 0, lines ? lines[i] : 0,
                                          wf ? wf[i] : 0, i + 1, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_add(p, "EXIT", (uint64_t)(16 * n), 0, 1, 0, 0, 0, n + 1, 1,
                                      &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(p, &err), PN_OK);
}

/* The SMs one_warp_pd's run shares the device's L2 and DRAM with (busy_sms). */
static uint32_t g_busy = 1;

/* Steps of W warps of one block running prog with wide pipes: arith latency
 * LA, every load served at L1 with latency ld; the L2 pipe and the atomic
 * unit as pd (NULL: none) gives them. Seeds 1 and 99 must agree (the tests'
 * programs leave no random choice that matters). */
static inline uint64_t warps_pd(const pn_sass_prog_t *prog, const pn_pipe_device_t *pd_in,
                                uint32_t W, uint32_t ld)
{
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pp.n_warps = W;
    pp.latency[PN_PIPE_LD_L1] = pp.latency[PN_PIPE_LD_L2] = pp.latency[PN_PIPE_LD_DRAM] = ld;
    pn_pipe_device_t pd = { 0 };
    if (pd_in)
        pd = *pd_in;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = 1;
    pn_sass_sim_params_t sp = { &pp, &pd, &mem, prog, g_busy, 0, 1 };
    pn_sass_sim_t *sim;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_sim_new(&sp, &sim, &err), PN_OK);
    pn_run_opts_t o = { .max_steps = 1000000, .idle_trans = -1 };
    pn_run_result_t r, r2;
    assert_int_equal(pn_sass_sim_run(sim, 1, &o, &r, &err), PN_OK);
    assert_int_equal(pn_sass_sim_run(sim, 99, &o, &r2, &err), PN_OK);
    assert_int_equal(r.steps, r2.steps);
    pn_sass_sim_free(sim);
    return r.steps;
}

/* Steps of one warp (1 block) running prog: warps_pd with loads at LD. */
static inline uint64_t one_warp_pd(const pn_sass_prog_t *prog, const pn_pipe_device_t *pd_in)
{
    return warps_pd(prog, pd_in, 1, LD);
}

/* The bounds of the run one_warp_pd makes. */
static inline void bounds_pd(const pn_sass_prog_t *prog, const pn_pipe_device_t *pd_in,
                             pn_pipe_bounds_t *b)
{
    pn_pipe_params_t pp;
    one_warp_params(&pp);
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = 1;
    pn_test_sass_bounds(prog, &pp, pd_in, &mem, b);
}

static inline uint64_t one_warp(const pn_sass_prog_t *prog)
{
    return one_warp_pd(prog, NULL);
}

static inline void prog_of(pn_sass_prog_t *p, const char *const *lines, int n)
{
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < n; i++)
        add(p, (uint32_t)(16 * i), 1, lines[i]);
    assert_int_equal(pn_sass_prog_finish(p, &err), PN_OK);
}

/* Steps of one warp running the program of the n lines (one_warp_pd). */
static inline uint64_t text_steps(const char *const *lines, int n, const pn_pipe_device_t *pd)
{
    pn_sass_prog_t p;
    prog_of(&p, lines, n);
    uint64_t steps = one_warp_pd(&p, pd);
    pn_sass_prog_destroy(&p);
    return steps;
}

/* Steps of one warp running program p (destroyed after), with latencies arith
 * LA and pn_test_sass_params' (one warp), no profile keys and no hits: every
 * load at DRAM. */
static inline uint64_t missing_steps(pn_sass_prog_t *p)
{
    pn_pipe_params_t pp;
    pn_test_sass_params(&pp, 1, 1);
    pn_pipe_device_t pd = { 0 };
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.l1_hit = mem.l2_hit = 0;
    uint64_t steps = pn_test_sass_steps(p, &pp, &pd, &mem);
    pn_sass_prog_destroy(p);
    return steps;
}

#endif
