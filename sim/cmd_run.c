/* cmd_run.c - `pnsim run FILE`: simulate a config's net and report steps. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "pn_commands.h"
#include "pn_engine.h"
#include "pn_report.h"
#include "pn_stats.h"

static const char run_usage[] =
    "usage: pnsim run [options] CONFIG.yaml\n"
    "\n"
    "Simulate the SM Petri net of a kernel config to its dead marking, `runs`\n"
    "times with seeds seed, seed+1, ..., and report steps and idle steps\n"
    "(mean, sd, min, max) and each run.\n"
    "\n"
    "options:\n"
    "  -r, --runs N          number of runs (default: simulation.runs, else 10)\n"
    "  -s, --seed S          seed of the first run (default: simulation.seed, else 1)\n"
    "  -f, --format FMT      text (default), json or csv\n"
    "  -o, --output FILE     write the report to FILE (written only on success)\n"
    "  -j, --jobs N          CPU threads (default: all); results do not depend on it\n"
    "  -e, --engine NAME     auto (default: sm for SM nets, else fast), sm (the SM\n"
    "                        net compiled into warp events), fast (incremental, any\n"
    "                        net) or literal (the reference: a full random\n"
    "                        permutation of all enabled transitions at every step)\n"
    "  -d, --device NAME     device profile, overriding the config's `device`\n"
    "  -t, --threads T       threads per block, overriding kernel.threads\n"
    "      --max-steps N     abort a run after N steps (default: simulation.max_steps)\n"
    "  -h, --help            this help\n";

int pn_cmd_run(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "runs", required_argument, NULL, 'r' },
        { "seed", required_argument, NULL, 's' },
        { "format", required_argument, NULL, 'f' },
        { "output", required_argument, NULL, 'o' },
        { "jobs", required_argument, NULL, 'j' },
        { "engine", required_argument, NULL, 'e' },
        { "device", required_argument, NULL, 'd' },
        { "threads", required_argument, NULL, 't' },
        { "max-steps", required_argument, NULL, 'M' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    pn_error_t err;
    pn_error_clear(&err);
    uint64_t runs = 0, seed = 0, jobs = 0, threads = 0, max_steps = 0;
    int have_runs = 0, have_seed = 0, have_max = 0;
    pn_format_t fmt = PN_FORMAT_TEXT;
    pn_engine_kind_t engine = PN_ENGINE_DEFAULT;
    const char *output = NULL, *device = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "r:s:f:o:j:e:d:t:h", longopts, NULL)) != -1) {
        pn_status_t st = PN_OK;
        switch (c) {
        case 'r': st = pn_cli_parse_u64("--runs", optarg, 1, 1000000, &runs, &err); have_runs = 1; break;
        case 's': st = pn_cli_parse_u64("--seed", optarg, 0, UINT64_MAX, &seed, &err); have_seed = 1; break;
        case 'f': st = pn_format_parse(optarg, &fmt, &err); break;
        case 'o': output = optarg; break;
        case 'j': st = pn_cli_parse_u64("--jobs", optarg, 1, 4096, &jobs, &err); break;
        case 'e': st = pn_engine_parse(optarg, &engine, &err); break;
        case 'd': device = optarg; break;
        case 't': st = pn_cli_parse_u64("--threads", optarg, 1, 1048576, &threads, &err); break;
        case 'M': st = pn_cli_parse_u64("--max-steps", optarg, 1, UINT64_MAX, &max_steps, &err); have_max = 1; break;
        case 'h': fputs(run_usage, stdout); return 0;
        default:  fputs(run_usage, stderr); return 2;
        }
        if (st != PN_OK)
            return pn_cli_fail("run", &err);
    }
    if (optind != argc - 1) {
        fprintf(stderr, "pnsim run: expected one config file\n%s", run_usage);
        return 2;
    }
    pn_cli_model_t m;
    if (pn_cli_model_load(&m, argv[optind], device, (uint32_t)threads, &err) != PN_OK)
        return pn_cli_fail("run", &err);

    uint32_t n_runs = have_runs ? (uint32_t)runs : m.cfg.runs;
    pn_run_opts_t opts = {
        .max_steps = have_max ? max_steps : m.cfg.max_steps,
        .idle_trans = m.layout.t0,
        .net_name = m.cfg.kernel_name,
    };
    pn_run_result_t *results = calloc(n_runs, sizeof *results);
    int rc = 0;
    pn_cli_out_t out = { 0 };
    pn_run_report_t rep = { 0 };
    if (!results) {
        pn_error_set(&err, PN_ENOMEM, "out of memory for %u runs", n_runs);
        goto fail;
    }
    rep.seed = have_seed ? seed : m.cfg.seed;
    rep.jobs = jobs ? (unsigned)jobs : pn_engine_cpu_count();
    if (pn_engine_run_many(engine, &m.net, rep.seed, n_runs, rep.jobs, &opts, results,
                           &err) != PN_OK) {
        if (!have_max && m.cfg.max_steps_pos.line > 0) {
            char msg[PN_ERROR_MSG_MAX];
            memcpy(msg, err.msg, sizeof msg);
            pn_error_at(&err, err.code, m.cfg.path, m.cfg.max_steps_pos.line,
                        m.cfg.max_steps_pos.col, "%s", msg);
        } else
            pn_error_prefix(&err, m.cfg.path);
        goto fail;
    }
    rep.kernel = m.cfg.kernel_name;
    rep.config_path = m.cfg.path;
    rep.device = m.dev.name;
    rep.device_desc = m.dev.description;
    rep.threads = m.kernel.threads;
    rep.warps = m.kernel.sm.n_warps;
    rep.schedulers = m.kernel.sm.schedulers;
    rep.l1 = m.kernel.sm.l1;
    rep.l2 = m.kernel.sm.l2;
    rep.selection = m.cfg.has_program ? "program" : "paper";
    rep.places = m.net.n_places;
    rep.transitions = m.net.n_trans;
    rep.arcs = pn_net_n_arcs(&m.net, PN_ARC_INPUT) + pn_net_n_arcs(&m.net, PN_ARC_OUTPUT) +
               pn_net_n_arcs(&m.net, PN_ARC_INHIBITOR);
    rep.engine = pn_engine_name(pn_engine_resolve(engine, &m.net));
    rep.runs = n_runs;
    rep.results = results;
    rep.calibrated = m.dev.calibrated;
    rep.us_per_step = m.dev.us_per_step;
    rep.us_offset = m.dev.us_offset;
    if (pn_summary_runs(results, n_runs, &rep.steps, &rep.idle, &err) != PN_OK ||
        pn_cli_out_open(&out, output, &err) != PN_OK ||
        pn_report_run(out.f, fmt, &rep, &err) != PN_OK ||
        pn_cli_out_commit(&out, &err) != PN_OK)
        goto fail;
    goto done;
fail:
    pn_cli_out_abort(&out);
    rc = pn_cli_fail("run", &err);
done:
    free(results);
    pn_cli_model_destroy(&m);
    return rc;
}
