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
    "  -r, --runs N          runs per point (default: simulation.runs, else 10)\n"
    "  -s, --seed S          seed of the first run (default: simulation.seed, else 1)\n"
    "  -f, --format FMT      text (default), json or csv\n"
    "  -o, --output FILE     write the table to FILE (written only on success)\n"
    "  -p, --plot FILE       draw steps against the first axis, with error bars,\n"
    "                        into FILE.svg or FILE.png (needs gnuplot)\n"
    "  -j, --jobs N          CPU threads for all runs of all points (default: all);\n"
    "                        results do not depend on it\n"
    "  -e, --engine NAME     auto (default), sm, fast or literal (see pnsim run -h)\n"
    "  -d, --device NAME     device profile, overriding the config's `device`\n"
    "      --max-steps N     abort a run after N steps (default: simulation.max_steps)\n"
    "  -q, --quiet           no progress line (it is shown only on a terminal)\n"
    "  -h, --help            this help\n";

typedef struct progress {
    int on;
    size_t last;
} progress_t;

static void show_progress(void *ctx, size_t done, size_t total)
{
    progress_t *p = ctx;
    size_t pct = total ? done * 100 / total : 100;
    if (!p->on || (pct == p->last && done != total))
        return;
    p->last = pct;
    fprintf(stderr, "\rpnsim sweep: %zu/%zu runs (%zu%%)%s", done, total, pct,
            done == total ? "\n" : "");
    fflush(stderr);
}

int pn_cmd_sweep(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "runs", required_argument, NULL, 'r' },
        { "seed", required_argument, NULL, 's' },
        { "format", required_argument, NULL, 'f' },
        { "output", required_argument, NULL, 'o' },
        { "plot", required_argument, NULL, 'p' },
        { "jobs", required_argument, NULL, 'j' },
        { "engine", required_argument, NULL, 'e' },
        { "device", required_argument, NULL, 'd' },
        { "max-steps", required_argument, NULL, 'M' },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    pn_error_t err;
    pn_error_clear(&err);
    uint64_t runs = 0, seed = 0, jobs = 0, max_steps = 0;
    int have_runs = 0, have_seed = 0, have_max = 0, quiet = 0;
    pn_format_t fmt = PN_FORMAT_TEXT;
    pn_engine_kind_t engine = PN_ENGINE_DEFAULT;
    const char *output = NULL, *device = NULL, *plot = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "r:s:f:o:p:j:e:d:qh", longopts, NULL)) != -1) {
        pn_status_t st = PN_OK;
        switch (c) {
        case 'r': st = pn_cli_parse_u64("--runs", optarg, 1, 1000000, &runs, &err); have_runs = 1; break;
        case 's': st = pn_cli_parse_u64("--seed", optarg, 0, UINT64_MAX, &seed, &err); have_seed = 1; break;
        case 'f': st = pn_format_parse(optarg, &fmt, &err); break;
        case 'o': output = optarg; break;
        case 'p': plot = optarg; break;
        case 'j': st = pn_cli_parse_u64("--jobs", optarg, 1, 4096, &jobs, &err); break;
        case 'e': st = pn_engine_parse(optarg, &engine, &err); break;
        case 'd': device = optarg; break;
        case 'M': st = pn_cli_parse_u64("--max-steps", optarg, 1, UINT64_MAX, &max_steps, &err); have_max = 1; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(sweep_usage, stdout); return 0;
        default:  fputs(sweep_usage, stderr); return 2;
        }
        if (st != PN_OK)
            return pn_cli_fail("sweep", &err);
    }
    if (optind != argc - 1) {
        fprintf(stderr, "pnsim sweep: expected one config file\n%s", sweep_usage);
        return 2;
    }
    if (plot) {
        size_t n = strlen(plot);
        if (n < 5 || (strcmp(plot + n - 4, ".svg") != 0 && strcmp(plot + n - 4, ".png") != 0)) {
            fprintf(stderr, "pnsim sweep: --plot %s: expected a .svg or .png file name\n", plot);
            return 2;
        }
    }
    pn_config_t cfg;
    pn_device_t dev;
    memset(&dev, 0, sizeof dev);
    if (pn_config_load(&cfg, argv[optind], &err) != PN_OK)
        return pn_cli_fail("sweep", &err);
    pn_status_t st = device ? pn_device_load(&dev, device, NULL, 0, 0, &err)
                            : pn_device_load(&dev, cfg.device, cfg.path, cfg.device_pos.line,
                                             cfg.device_pos.col, &err);
    pn_sweep_t sw;
    memset(&sw, 0, sizeof sw);
    pn_cli_out_t out = { 0 };
    progress_t prog = { !quiet && isatty(2), (size_t)-1 };
    if (st == PN_OK)
        st = pn_sweep_init(&sw, &cfg, &dev, have_runs ? (uint32_t)runs : cfg.runs,
                           have_seed ? seed : cfg.seed, have_max ? max_steps : cfg.max_steps,
                           engine, &err);
    if (st == PN_OK)
        st = pn_sweep_run(&sw, (unsigned)jobs, show_progress, &prog, &err);
    if (st == PN_OK && plot)
        st = pn_plot_sweep(&sw, plot, &err);
    if (st == PN_OK)
        st = pn_cli_out_open(&out, output, &err);
    if (st == PN_OK)
        st = pn_sweep_report(out.f, fmt, &sw, &err);
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
