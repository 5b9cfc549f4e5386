/* fuzz_sass_prog.c - fuzz target: a SASS program file, as kernel.sass names
 * it and a user may edit it (pn_sass_prog_read), planned for 2 blocks of 2
 * warps and run once on the sass engine with small pipes and a step cap.
 * Oracle beyond the sanitizers: one-line messages; a program that reads is
 * written and reads back with the same instructions; a run ends (its steps,
 * or the cap's one-line error). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pn_sass_plan.h"
#include "pn_sass_prog.h"
#include "pn_sass_sim.h"

/* Run p on 2 blocks of 2 warps, one resident, with every latency 5 and
 * loads 20, an FP64 pipe, a measured atomic unit, the local and texture
 * loads' own hit rates, and narrow LSU, shared and DRAM pipes (a global
 * request among shared ones may leave the LSU owing: pn_sass_lsu_order). */
static void run_once(const pn_sass_prog_t *p)
{
    pn_pipe_params_t pp = { 0 };
    pp.partitions = 2;
    pp.issue = 1;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        pp.latency[k] = 5;
    pp.latency[PN_PIPE_LD_L1] = pp.latency[PN_PIPE_LD_L2] = pp.latency[PN_PIPE_LD_DRAM] = 20;
    pp.n_warps = 2;
    pp.blocks = 2;
    pp.resident = 1;
    pp.rate[PN_PIPE_LSU] = 2 * PN_PIPE_UNIT;
    pp.rate[PN_PIPE_SHMEM] = PN_PIPE_UNIT;
    pp.rate[PN_PIPE_DRAM] = PN_PIPE_UNIT / 2;
    pn_pipe_device_t pd = { 0 };
    pd.clock_mhz = 1000;
    pd.fp64_busy = 2;
    pd.fp64_latency = 8;
    pn_memory_t mem;
    pn_memory_default(&mem);
    mem.local_l1_hit = 0.5;
    mem.texture_l1_hit = 0.25;
    mem.atomic_ns = 3;
    pn_sass_sim_params_t sp = { &pp, &pd, &mem, p, 1, 0, 1.5 };
    pn_sass_sim_t *sim;
    pn_error_t err;
    pn_error_clear(&err);
    pn_status_t st = pn_sass_sim_new(&sp, &sim, &err);
    if (st != PN_OK) {
        pn_fuzz_check_error(st, &err);
        return;
    }
    pn_run_opts_t o = { .max_steps = 200000, .idle_trans = -1, .net_name = "fuzz" };
    pn_run_result_t r;
    st = pn_sass_sim_run(sim, 1, &o, &r, &err);
    if (st != PN_OK)
        pn_fuzz_check_error(st, &err);
    pn_sass_sim_free(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_error_t err;
    pn_sass_prog_t p, q;
    pn_error_clear(&err);
    const char *path = pn_fuzz_file(data, size, ".sass");
    pn_status_t st = pn_sass_prog_read(&p, path, &err);
    if (st != PN_OK) {
        pn_fuzz_check_error(st, &err);
        return 0;
    }
    /* what reads back writes and reads again alike */
    pn_fuzz_sass_roundtrip(&p, &q);
    if (p.n <= 256)
        run_once(&p);
    pn_sass_prog_destroy(&q);
    pn_sass_prog_destroy(&p);
    return 0;
}
