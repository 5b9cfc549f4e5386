/* cmd_sweep.c - `pnsim sweep FILE`: every point of the config's sweep axes. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_common.h"
#include "pn_commands.h"
#include "pn_plot.h"
#include "pn_sweep.h"

static const char sweep_usage[] =
    "usage: pnsim sweep [options] CONFIG.yaml\n"
    "\n"
    "Simulate every combination of the values listed under the config's `sweep:`\n"
    "(threads, schedulers, global and shared latencies, any params variable), with\n"
    "the counts evaluated anew at each point, and report one row per point: mean,\n"
    "sd, min and max of steps and idle steps (and the predicted time when the\n"
    "device is calibrated). The point with the fewest mean steps is marked best.\n"
    "Every point runs with the same seeds, so a point's row equals `pnsim run`\n"
    "with that point's values.\n"
    "\n"
    "options:\n"
    PN_CLI_SIM_USAGE
    "  -p, --plot FILE       draw the predicted time in microseconds (steps where the\n"
    "                        model gives no time) against the first axis, with\n"
    "                        error bars, into FILE.svg or FILE.png (needs gnuplot)\n"

    "\n"
    "Runs and seeds are per point; --jobs spreads the runs of all points.\n";

typedef struct progress {
    int on;
    size_t last;
} progress_t;

static void show_progress(void *ctx, size_t job, size_t done, size_t total)
{
    progress_t *p = ctx;
    (void)job;
    size_t pct = total ? done * 100 / total : 100;
    if (!p->on || (pct == p->last && done != total))
        return;
    p->last = pct;
    fprintf(stderr, "\rpnsim sweep: %zu/%zu runs (%zu%%)%s", done, total, pct,
            done == total ? "\n" : "");
    fflush(stderr);
}

typedef struct sweep_extra {
    const char *plot;
} sweep_extra_t;

static int sweep_option(void *ctx, int c, const char *arg, pn_error_t *err)
{
    sweep_extra_t *x = ctx;
    (void)err;
    if (c == 'p')
        x->plot = arg;
    return 0;
}

int pn_cmd_sweep(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "plot", required_argument, NULL, 'p' },
        { NULL, 0, NULL, 0 }
    };
    sweep_extra_t x = { NULL };
    const pn_cli_extra_t extra = { longopts, "p:", sweep_option, &x };
    pn_cli_sim_opts_t o;
    const char *file;
    int rc0 = pn_cli_sim_parse(argc, argv, "sweep", sweep_usage, &extra, &o, &file);
    if (rc0 >= 0)
        return rc0;
    const char *plot = x.plot;
    int quiet = o.quiet;
    pn_error_t err;
    pn_error_clear(&err);
    if (plot && !pn_plot_name_ok(plot))
        return pn_cli_usage_error("sweep", "--plot %s: expected a .svg or .png file name", plot);
    pn_config_t cfg;
    pn_device_t dev;
    memset(&dev, 0, sizeof dev);
    pn_cli_input(file);
    if (pn_cli_out_check(o.output, &err) != PN_OK)
        return pn_cli_fail("sweep", &err);
    if (pn_config_load(&cfg, file, &err) != PN_OK)
        return pn_cli_fail("sweep", &err);
    pn_status_t st = pn_model_load_device(&dev, &cfg, o.device, &err);
    if (st == PN_OK)
        pn_kernel_config_time_device(&cfg, &dev);
    pn_sweep_t sw;
    memset(&sw, 0, sizeof sw);
    pn_cli_out_t out = { 0 };
    progress_t prog = { !quiet && isatty(2), (size_t)-1 };
    if (st == PN_OK)
        st = pn_cli_sim_defaults(&o, &cfg, &err);
    if (st == PN_OK)
        st = pn_sweep_init(&sw, &cfg, &dev, (uint32_t)o.runs, o.seed, o.max_steps, o.engine,
                           &err);
    if (st == PN_OK && o.threads) {
        /* -t sets the block size of every point; a threads axis would
         * replace it at every point, so the two together are refused */
        for (size_t a = 0; a < cfg.n_sweep; a++)
            if (!strcmp(cfg.sweep[a].name, "threads")) {
                int rc = pn_cli_usage_error("sweep", "--threads %llu: %s:%ld sweeps threads "
                                            "already (drop -t, or the axis)",
                                            (unsigned long long)o.threads, file,
                                            cfg.sweep[a].pos.line);
                pn_sweep_destroy(&sw);
                pn_config_destroy(&cfg);
                pn_device_destroy(&dev);
                return rc;
            }
        sw.threads = (uint32_t)o.threads;
    }
    sw.max_steps_given = o.have_max;
    sw.stop = &pn_cli_stop;
    if (st == PN_OK)
        st = pn_sweep_run(&sw, (unsigned)o.jobs, show_progress, &prog, &err);
    if (st == PN_OK && plot)
        st = pn_plot_sweep(&sw, plot, &err);
    if (st == PN_OK)
        st = pn_cli_out_open(&out, o.output, &err);
    if (st == PN_OK)
        st = pn_sweep_report(out.f, o.format, &sw, &err);
    if (st == PN_OK)
        st = pn_cli_out_commit(&out, &err);
    int rc = 0;
    if (st != PN_OK) {
        if (prog.on && prog.last != (size_t)-1)
            fputc('\n', stderr);
        pn_cli_out_abort(&out);
        rc = pn_cli_fail("sweep", &err);
    }
    pn_sweep_destroy(&sw);
    pn_device_destroy(&dev);
    pn_config_destroy(&cfg);
    return rc;
}
