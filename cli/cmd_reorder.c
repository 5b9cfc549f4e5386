/* cmd_reorder.c - `pnsim reorder FILE`: what-if instruction reordering. The
 * same per-warp counts are simulated in several instruction orders (the
 * program as written, the paper's random selection, memory-first,
 * memory-last, memory-spread) with the same seeds; each order's steps and
 * idle steps, the best/worst band and the best order's gain are reported. */
#include "cmd_common.h"
#include "cmd_progress.h"
#include "pn_commands.h"
#include "pn_reorder.h"

static const char reorder_usage[] =
    "usage: pnsim reorder [options] CONFIG.yaml\n"
    "\n"
    "Simulate the kernel's per-warp instruction counts in several orders, each\n"
    "`runs` times with the same seeds seed, seed+1, ..., and report every\n"
    "order's steps and idle steps (mean, sd, min, max), the band between the\n"
    "best and the worst order, and the gain of the best order over the\n"
    "baseline (program when the config has one, else random), in % of the\n"
    "baseline's mean steps. Orders:\n"
    "  program        kernel.program as written (only when the config has one)\n"
    "  random         the paper's random choice of the next kind\n"
    "  memory-first   per warp: all global accesses, then shared, then arithmetic\n"
    "  memory-last    arithmetic, then global, then shared\n"
    "  memory-spread  memory accesses (global first) spread evenly over the arithmetic\n"
    "With the default engine (auto) the random order runs on the sm engine and the\n"
    "program orders on the fast one (their nets are sequencers, models/program/PROGRAM.md).\n"
    "\n"
    "options (runs and seeds per order):\n"
    PN_CLI_SIM_USAGE;

int pn_cmd_reorder(int argc, char **argv)
{
    pn_reorder_t r = { .m = NULL };
    pn_cli_sim_opts_t o;
    pn_model_t m;
    int rc0 = pn_cli_sim_start(argc, argv, "reorder", reorder_usage, NULL, &o, &m);
    if (rc0 >= 0)
        return rc0;
    r = (pn_reorder_t){ .m = &m, .runs = (uint32_t)o.runs, .seed = o.seed,
                        .jobs = (unsigned)o.jobs, .max_steps = o.max_steps,
                        .max_steps_given = o.have_max, .stop = &pn_cli_stop,
                        .engine = o.engine };
    pn_error_t err;
    pn_error_clear(&err);
    int rc = 0;
    pn_cli_out_t out = { 0 };
    /* progress over every order's runs (the program when written, random, three orders) */
    pn_cli_progress_t prog;
    uint64_t orders = 1 + PN_ORDER_COUNT + (m.cfg.has_program != 0);
    pn_cli_progress_begin(&prog, "reorder", (uint64_t)o.runs * orders,
                          pn_kernel_net_min_steps(&m.kernel), o.quiet);
    r.on_run = pn_cli_progress_one_more;
    r.ctx = &prog;
    r.at_step = &prog.at_step;
    pn_status_t st = pn_reorder_run(&r, &err);
    pn_cli_progress_end(&prog);
    if (st != PN_OK || pn_cli_out_open(&out, o.output, &err) != PN_OK ||
        pn_reorder_report(out.f, o.format, &r, &err) != PN_OK ||
        pn_cli_out_commit(&out, &err) != PN_OK) {
        pn_cli_out_abort(&out);
        rc = pn_cli_fail("reorder", &err);
    }
    pn_model_destroy(&m);
    return rc;
}
