/* cmd_run.c - `pnsim run FILE`: simulate a config's net and report steps. */
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "cmd_progress.h"
#include "pn_commands.h"
#include "pn_engine.h"
#include "pn_run_ops.h"
#include "pn_run_report.h"
#include "pn_stats.h"

static const char run_usage[] =
    "usage: pnsim run [options] CONFIG.yaml\n"
    "\n"
    "Simulate the SM Petri net of a kernel config to its dead marking, `runs`\n"
    "times with seeds seed, seed+1, ..., and report steps and idle steps\n"
    "(mean, sd, min, max) and each run.\n"
    "\n"
    "options:\n"
    "      --ops FILE        also write FILE: one more run (the first seed) of a\n"
    "                        kernel.sass config, instruction by instruction: its\n"
    "                        issues and the cycles its warps waited to issue it\n"
    "                        (CSV; written only on success)\n"
    PN_CLI_SIM_USAGE;

enum { OPT_OPS = 256 };

static int run_option(void *ctx, int c, const char *arg, pn_error_t *err)
{
    (void)err;
    if (c == OPT_OPS)
        *(const char **)ctx = arg;
    return 0;
}

/* Runs simulated and reported at a time (2 MB of results). */
#define RUN_CHUNK 65536u

int pn_cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "ops", required_argument, NULL, OPT_OPS },
        { NULL, 0, NULL, 0 }
    };
    const char *ops = NULL;
    const pn_cli_extra_t extra = { longopts, "", run_option, &ops };
    pn_cli_sim_opts_t o;
    pn_model_t m;
    int rc0 = pn_cli_sim_start(argc, argv, "run", run_usage, &extra, &o, &m);
    if (rc0 >= 0)
        return rc0;
    pn_error_t err;
    pn_error_clear(&err);
    pn_cli_out_t ops_out = { 0 };
    pn_cli_progress_t ops_prog = { 0 };
    uint32_t n_runs = (uint32_t)o.runs;
    pn_run_opts_t opts = {
        .max_steps = o.max_steps,
        .idle_trans = m.layout.t0,
        .net_name = m.cfg.kernel_name,
        .stop = &pn_cli_stop,
    };
    /* runs go in chunks to a streamed report: memory independent of --runs */
    uint32_t chunk = n_runs < RUN_CHUNK ? n_runs : RUN_CHUNK;
    pn_run_result_t *results = calloc(chunk, sizeof *results);
    pn_run_stream_t stream = { 0 };
    int rc = 0;
    pn_cli_out_t out = { 0 };
    pn_run_report_t rep = { 0 };
    pn_prepared_t prep = { 0 };
    pn_cli_progress_t prog;
    if (!results) {
        pn_error_set(&err, PN_ENOMEM, "out of memory for %u runs", n_runs);
        goto fail;
    }
    if (ops && pn_run_ops_check(&m, &err) != PN_OK)
        goto fail;
    if (ops && o.output && !strcmp(ops, o.output)) {
        pn_error_set(&err, PN_EINVAL, "--ops and --output name the same file '%s'", ops);
        goto fail;
    }
    if (ops && pn_cli_out_check(ops, &err) != PN_OK)
        goto fail;
    if (pn_kernel_net_check_steps(&m.cfg, &m.kernel, o.max_steps, o.have_max, &opts.max_steps,
                                  &err) != PN_OK)
        goto fail;
    if (pn_kernel_net_engine(&prep, o.engine, &m.cfg, &m.kernel, &m.net, &opts,
                                 &err) != PN_OK) {
        pn_error_prefix(&err, m.cfg.path);
        goto fail;
    }
    if (pn_run_report_fill(&rep, &m, &prep, NULL, n_runs, o.seed, (unsigned)o.jobs,
                           &err) != PN_OK ||
        pn_cli_out_open(&out, o.output, &err) != PN_OK ||
        pn_run_stream_begin(&stream, out.f, o.format, &rep, &err) != PN_OK)
        goto fail;
    pn_cli_progress_begin(&prog, "run", n_runs, pn_kernel_net_min_steps(&m.kernel), o.quiet);
    opts.at_step = &prog.at_step;
    pn_status_t st = PN_OK;
    for (uint32_t done = 0; done < n_runs && st == PN_OK; done += chunk) {
        uint32_t k = n_runs - done < chunk ? n_runs - done : chunk;
        prog.base = done;
        st = pn_engine_run_batch_progress(&prep, o.seed + done, k, (unsigned)o.jobs,
                                          pn_cli_progress_run_done, &prog, results, &err);
        if (st == PN_OK)
            st = pn_run_stream_runs(&stream, &rep, results, k, &err);
    }
    pn_cli_progress_end(&prog);
    if (st != PN_OK) {
        pn_kernel_net_locate_error(&m.cfg, o.have_max, &err);
        goto fail;
    }
    if (ops) {
        /* one run more, with its own progress line */
        pn_run_opts_t one = opts;
        pn_cli_progress_begin_units(&ops_prog, "run", "--ops runs", 1,
                                    pn_kernel_net_min_steps(&m.kernel), o.quiet);
        one.at_step = &ops_prog.at_step;
        if (pn_cli_out_open(&ops_out, ops, &err) != PN_OK ||
            pn_run_ops_write(ops_out.f, &m, o.seed, &one, &err) != PN_OK)
            goto fail;
        pn_cli_progress_one_more(&ops_prog);
        pn_cli_progress_end(&ops_prog);
    }
    if (pn_run_stream_end(&stream, &rep, &err) != PN_OK ||
        (ops && pn_cli_out_commit(&ops_out, &err) != PN_OK) ||
        pn_cli_out_commit(&out, &err) != PN_OK)
        goto fail;
    goto done;
fail:
    pn_cli_progress_end(&ops_prog);
    pn_run_stream_abort(&stream);
    pn_cli_out_abort(&ops_out);
    pn_cli_out_abort(&out);
    rc = pn_cli_fail("run", &err);
done:
    pn_engine_release(&prep);
    free(results);
    pn_model_destroy(&m);
    return rc;
}
