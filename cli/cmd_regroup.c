/* cmd_regroup.c - `pnsim regroup BBV.csv --blocks B.csv -c CONFIG`: what-if
 * thread regrouping. The grid's threads are regrouped by their basic-block
 * vectors (Sorting, Greedy, Greedy-Max), and the original and regrouped
 * kernels are simulated with the same seeds on the config's net. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "cmd_progress.h"
#include "pn_baseline.h"
#include "pn_bbv.h"
#include "pn_commands.h"
#include "pn_grid.h"
#include "pn_regroup.h"

static const char regroup_usage[] =
    "usage: pnsim regroup [options] BBV.csv --blocks BLOCKS.csv -c CONFIG.yaml\n"
    "\n"
    "Would regrouping the kernel's threads pay, and with which algorithm? BBV.csv\n"
    "is the per-thread basic-block vector of the whole grid (header\n"
    "thread,bb0,bb1,...; row i is global thread i; block b holds threads\n"
    "b*T .. b*T+T-1, T = kernel.threads), BLOCKS.csv the instructions of one\n"
    "execution of each basic block (header block,arith,shared,global), CONFIG the\n"
    "kernel's config (its device, net, kernel.threads and kernel.blocks; its\n"
    "counts are replaced by the BBV's). Each algorithm of the divergence paper\n"
    "(section V) forms groups of --group-size threads:\n"
    "  sorting      the BBVs in lexicographic order\n"
    "  greedy       merge the two groups of largest gain = benefit - cost\n"
    "               (eq. 8-10) until groups are full\n"
    "  greedy-max   groups opened by the thread of largest latency (eq. 11), in\n"
    "               descending latency, filled with identical or max-gain threads\n"
    "The new order's per-warp counts are the largest count over the warp's\n"
    "threads per basic block (as `pnsim bbv`); the original and every regrouped\n"
    "kernel are simulated with the same seeds, every SM with its own blocks\n"
    "(see --assign), the kernel as slow as its slowest SM. Reported per\n"
    "kernel: warps, divergent warps, activity factor, steps, time, speed-up over\n"
    "the original, and the paper's BBV-weighted(-scheduled) estimates beside it.\n"
    "\n"
    "options:\n"
    "  -b, --blocks FILE     the per-block instruction table (required)\n"
    "  -c, --config FILE     the kernel's config (required)\n"
    "  -a, --algorithm NAME  sorting, greedy, greedy-max or all (default all)\n"
    "  -G, --group-size N    threads per group, a multiple of 32 (default 32)\n"
    "      --assign HOW      blocks to SMs: dynamic (default: the first SMs x resident\n"
    "                        blocks round robin, each later one to the SM that frees\n"
    "                        a slot first, by the block's steps alone on an SM) or\n"
    "                        static (block b to SM b mod SMs)\n"
    "  -o, --output FILE     write the thread permutation as CSV: header\n"
    "                        thread,<algorithm>,...; row i: the original thread\n"
    "                        whose work new thread i runs (written only on success)\n"
    "  -r, --runs N          runs per kernel (default: simulation.runs, else 10)\n"
    "  -s, --seed S          seed of the first run; run i uses S + i\n"
    "  -f, --format FMT      text (default), json or csv (the report, on stdout)\n"
    "  -j, --jobs N          CPU threads (default: all); results do not depend on it\n"
    "  -e, --engine NAME     auto (default), sm, fast or literal\n"
    "  -d, --device NAME     device profile, overriding the config's `device`\n"
    "      --max-steps N     abort a run after N steps (default: simulation.max_steps)\n"
    "  -q, --quiet           no progress line (shown only on a terminal, from 2 s on)\n"
    "  -h, --help            this help\n";

typedef struct regroup_row {
    const char *name;
    uint32_t *perm;                 /* NULL: the original order */
    pn_regroup_counts_t c;
    uint64_t divergent;             /* warps whose threads' BBVs differ */
    pn_grid_result_t g;
    double bbv_static, bbv_sched;
} regroup_row_t;

typedef struct regroup {
    const char *bbv_path, *blocks_path;
    const pn_model_t *m;
    const pn_bbv_t *bbv;
    uint64_t group_size, runs, seed;
    double lat_coef[3];             /* steps per arith, shared, global instruction */
    int has_time;
    double ta, tb;
    pn_grid_assign_t assign;
    regroup_row_t rows[1 + PN_REGROUP_ALGS];
    size_t n_rows, best;
} regroup_t;

/* Warps of the order perm whose threads do not all have the same BBV. */
static uint64_t divergent_warps(const pn_bbv_t *bbv, const uint32_t *perm, uint32_t threads)
{
    uint64_t d = 0;
    size_t nb = bbv->n_blocks;
    for (size_t b0 = 0; b0 < bbv->n_threads; b0 += threads)
        for (size_t t0 = b0; t0 < b0 + threads; t0 += PN_SM_WARP_THREADS) {
            size_t t1 = t0 + PN_SM_WARP_THREADS < b0 + threads ? t0 + PN_SM_WARP_THREADS
                                                                : b0 + threads;
            const uint64_t *a = bbv->count + (size_t)(perm ? perm[t0] : t0) * nb;
            for (size_t t = t0 + 1; t < t1; t++)
                if (memcmp(a, bbv->count + (size_t)(perm ? perm[t] : t) * nb, nb * sizeof *a)) {
                    d++;
                    break;
                }
        }
    return d;
}

static double speedup(double base, double v)
{
    return v > 0 ? base / v : NAN;
}

static void report_text(FILE *out, const void *data)
{
    const regroup_t *r = data;
    const pn_model_t *m = r->m;
    const pn_kernel_t *k = &m->kernel;
    const char *desc = m->dev.description;
    fprintf(out, "kernel   %s (%s)\n", m->cfg.kernel_name, m->cfg.path);
    fprintf(out, "device   %s%s%s%s\n", m->dev.name, desc ? " (" : "", desc ? desc : "",
            desc ? ")" : "");
    fprintf(out, "grid     %u blocks x %u threads = %zu threads (%s), %u warps per block\n",
            r->rows[0].c.blocks, k->threads, r->bbv->n_threads, r->bbv_path, k->sm.n_warps);
    char mtext[512], mjson[512];
    pn_kernel_describe(k, mtext, sizeof mtext, mjson, sizeof mjson);
    if (mtext[0])
        fprintf(out, "model    %s\n", mtext);
    else
        fprintf(out, "model    %u schedulers, global latency %u, shared latency %u\n",
                k->sm.schedulers, k->sm.l1, k->sm.l2);
    fprintf(out, "regroup  groups of %" PRIu64 " threads; lat[b] = %.4g arith + %.4g shared + "
            "%.4g global steps (%s)\n", r->group_size, r->lat_coef[0], r->lat_coef[1],
            r->lat_coef[2], r->blocks_path);
    fprintf(out, "runs     %" PRIu64 " per kernel (seeds %" PRIu64 "..%" PRIu64 ", the same for "
            "every kernel); %u SMs with blocks, assigned %s\n\n", r->runs, r->seed,
            r->seed + r->runs - 1, r->rows[0].g.sms,
            r->m->kernel.net != PN_NET_PIPELINED ? "one block per SM"
            : r->m->kernel.blocks <= (uint64_t)r->m->dev.sms * r->m->kernel.resident
            ? "all at once (blocks <= SMs x resident)"
            : r->assign == PN_GRID_STATIC ? "statically (block b to SM b mod SMs)"
            : "dynamically (to the SM that frees a slot first)");
    fprintf(out, "%48s%-30s%s\n", "", "predicted (net)", "BBV-weighted (paper)");
    fprintf(out, "  %-11s %7s %9s %8s  %11s %8s %9s %8s  %11s %11s %8s\n", "kernel", "warps",
            "divergent", "activity", "steps mean", "sd", r->has_time ? "time_us" : "", "speed-up",
            "static", "scheduled", "speed-up");
    const regroup_row_t *o = &r->rows[0];
    for (size_t i = 0; i < r->n_rows; i++) {
        const regroup_row_t *w = &r->rows[i];
        char tbuf[32] = "";
        if (r->has_time)
            snprintf(tbuf, sizeof tbuf, "%.3f", r->ta * w->g.steps.mean + r->tb);
        fprintf(out, "%c %-11s %7llu %9" PRIu64 " %8.4f  %11.1f %8.1f %9s %7.3fx  %11.4g %11.4g "
                "%7.3fx\n", i == r->best ? '*' : ' ', w->name,
                (unsigned long long)w->c.blocks * w->c.warps, w->divergent,
                w->c.activity_factor, w->g.steps.mean, w->g.steps.sd, tbuf,
                speedup(o->g.steps.mean, w->g.steps.mean), w->bbv_static, w->bbv_sched,
                speedup(o->bbv_sched, w->bbv_sched));
    }
    const regroup_row_t *b = &r->rows[r->best];
    if (r->best == 0)
        fprintf(out, "\nbest     none: no regrouping beats the original order\n");
    else
        fprintf(out, "\nbest     %s: %.3fx predicted by the net (%.1f -> %.1f steps), %.3fx by "
                "BBV-weighted-scheduled\n", b->name, speedup(o->g.steps.mean, b->g.steps.mean),
                o->g.steps.mean, b->g.steps.mean, speedup(o->bbv_sched, b->bbv_sched));
}

static void report_json(FILE *out, const void *data)
{
    const regroup_t *r = data;
    const pn_model_t *m = r->m;
    const regroup_row_t *o = &r->rows[0];
    fputs("{\n  \"kernel\": ", out);
    pn_json_string(out, m->cfg.kernel_name);
    fputs(",\n  \"device\": ", out);
    pn_json_string(out, m->dev.name);
    fputs(",\n  \"bbv\": ", out);
    pn_json_string(out, r->bbv_path);
    fprintf(out, ",\n  \"blocks\": %u,\n  \"threads\": %u,\n  \"warps_per_block\": %u,\n"
            "  \"group_size\": %" PRIu64 ",\n  \"runs\": %" PRIu64 ",\n  \"seed\": %" PRIu64
            ",\n  \"sms\": %u,\n  \"assign\": \"%s\",\n  \"lat\": {\"arith\": %.10g, \"shared\": %.10g, \"global\": "
            "%.10g},\n  \"kernels\": [", o->c.blocks, m->kernel.threads, m->kernel.sm.n_warps,
            r->group_size, r->runs, r->seed, o->g.sms,
            r->assign == PN_GRID_STATIC ? "static" : "dynamic", r->lat_coef[0], r->lat_coef[1],
            r->lat_coef[2]);
    for (size_t i = 0; i < r->n_rows; i++) {
        const regroup_row_t *w = &r->rows[i];
        fprintf(out, "%s\n    {\"name\": \"%s\", \"warps\": %llu, \"divergent_warps\": %" PRIu64
                ", \"activity_factor\": %.10g, \"engine\": \"%s\", \"simulated_sms\": %u, "
                "\"slowest_sm\": %u, ", i ? "," : "", w->name,
                (unsigned long long)w->c.blocks * w->c.warps, w->divergent, w->c.activity_factor,
                w->g.engine ? w->g.engine : "", w->g.simulated, w->g.slowest_sm);
        pn_json_summary(out, "steps", &w->g.steps);
        fputs(", ", out);
        pn_json_summary(out, "idle_steps", &w->g.idle);
        if (r->has_time)
            fprintf(out, ", \"time_us\": {\"mean\": %.10g, \"sd\": %.10g}",
                    r->ta * w->g.steps.mean + r->tb, r->ta * w->g.steps.sd);
        fprintf(out, ", \"speedup\": %.10g, \"bbv_weighted\": {\"static\": %.10g, \"scheduled\": "
                "%.10g, \"speedup_static\": %.10g, \"speedup_scheduled\": %.10g}, \"best\": %s}",
                speedup(o->g.steps.mean, w->g.steps.mean), w->bbv_static, w->bbv_sched,
                speedup(o->bbv_static, w->bbv_static), speedup(o->bbv_sched, w->bbv_sched),
                i == r->best ? "true" : "false");
    }
    fprintf(out, "\n  ],\n  \"best\": \"%s\"\n}\n", r->rows[r->best].name);
}

static void report_csv(FILE *out, const void *data)
{
    const regroup_t *r = data;
    const regroup_row_t *o = &r->rows[0];
    fputs("kernel,order,blocks,threads,group_size,warps,divergent_warps,activity_factor,runs,"
          "steps_mean,steps_sd,steps_min,steps_max,idle_mean,speedup,bbv_weighted,"
          "bbv_weighted_scheduled,bbv_speedup_static,bbv_speedup_scheduled,best", out);
    fputs(r->has_time ? ",time_us_mean,time_us_sd\n" : "\n", out);
    for (size_t i = 0; i < r->n_rows; i++) {
        const regroup_row_t *w = &r->rows[i];
        fprintf(out, "%s,%s,%u,%u,%" PRIu64 ",%llu,%" PRIu64 ",%.10g,%" PRIu64 ",%.10g,%.10g,%"
                PRIu64 ",%" PRIu64 ",%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%d",
                r->m->cfg.kernel_name, w->name, w->c.blocks, r->m->kernel.threads, r->group_size,
                (unsigned long long)w->c.blocks * w->c.warps, w->divergent, w->c.activity_factor,
                r->runs, w->g.steps.mean, w->g.steps.sd, w->g.steps.min, w->g.steps.max,
                w->g.idle.mean, speedup(o->g.steps.mean, w->g.steps.mean), w->bbv_static,
                w->bbv_sched, speedup(o->bbv_static, w->bbv_static),
                speedup(o->bbv_sched, w->bbv_sched), i == r->best);
        if (r->has_time)
            fprintf(out, ",%.10g,%.10g", r->ta * w->g.steps.mean + r->tb, r->ta * w->g.steps.sd);
        fputc('\n', out);
    }
}

/* Steps of one arith, shared and global instruction of a warp alone: the
 * paper net's 4, 5 + l2, 5 + l1; the pipelined net's latencies, a global
 * load weighted by kernel.memory's hit fractions. */
static void lat_coefs(const pn_model_t *m, double c[3])
{
    const pn_kernel_t *k = &m->kernel;
    if (k->net == PN_NET_PIPELINED) {
        const uint32_t *L = k->pipe.latency;
        double h1 = m->cfg.memory.l1_hit, h2 = m->cfg.memory.l2_hit;
        c[0] = L[PN_PIPE_ARITH];
        c[1] = L[PN_PIPE_SHARED_LD];
        c[2] = h1 * L[PN_PIPE_LD_L1] + (1 - h1) * (h2 * L[PN_PIPE_LD_L2] +
                                                   (1 - h2) * L[PN_PIPE_LD_DRAM]);
    } else {
        c[0] = 4;
        c[1] = 5.0 + k->sm.l2;
        c[2] = 5.0 + k->sm.l1;
    }
}

static pn_status_t write_perm(const char *path, const regroup_t *r, pn_error_t *err)
{
    pn_cli_out_t out = { 0 };
    PN_CHECK(pn_cli_out_open(&out, path, err));
    fputs("thread", out.f);
    for (size_t i = 1; i < r->n_rows; i++)
        fprintf(out.f, ",%s", r->rows[i].name);
    fputc('\n', out.f);
    for (size_t t = 0; t < r->bbv->n_threads; t++) {
        fprintf(out.f, "%zu", t);
        for (size_t i = 1; i < r->n_rows; i++)
            fprintf(out.f, ",%" PRIu32, r->rows[i].perm[t]);
        fputc('\n', out.f);
    }
    pn_status_t st = pn_cli_out_commit(&out, err);
    if (st != PN_OK)
        pn_cli_out_abort(&out);
    return st;
}

int pn_cmd_regroup(int argc, char **argv)
{
    static const struct option mine[] = {
        { "blocks", required_argument, NULL, 'b' },
        { "config", required_argument, NULL, 'c' },
        { "algorithm", required_argument, NULL, 'a' },
        { "group-size", required_argument, NULL, 'G' },
        { "assign", required_argument, NULL, 'A' },
    };
    static const struct option shared[] = { PN_CLI_SIM_LONGOPTS };
    enum { NS = sizeof shared / sizeof shared[0], NM = sizeof mine / sizeof mine[0] };
    struct option longopts[NS + NM + 1];
    memcpy(longopts, shared, sizeof shared);
    memcpy(longopts + NS, mine, sizeof mine);
    memset(&longopts[NS + NM], 0, sizeof longopts[0]);
    pn_error_t err;
    pn_error_clear(&err);
    pn_cli_sim_opts_t o;
    pn_cli_sim_opts_init(&o);
    const char *blocks_path = NULL, *cfg_path = NULL;
    int algs[PN_REGROUP_ALGS] = { 1, 1, 1 };
    uint64_t gs = PN_SM_WARP_THREADS;
    pn_grid_assign_t assign = PN_GRID_DYNAMIC;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":" PN_CLI_SIM_SHORTOPTS "b:c:a:G:", longopts, NULL)) != -1) {
        pn_status_t st = PN_OK;
        if (c == 't') {
            return pn_cli_usage_error("regroup", "--threads: the config's kernel.threads and "
                                      "the BBV fix the block size");
        }
        if (pn_cli_sim_option(&o, c, optarg, &st, &err)) {
            if (st != PN_OK)
                return pn_cli_value_error("regroup", &err);
            continue;
        }
        switch (c) {
        case 'h': fputs(regroup_usage, stdout); return 0;
        case 'b': blocks_path = optarg; break;
        case 'c': cfg_path = optarg; break;
        case 'a': {
            int all = !strcmp(optarg, "all"), found = all;
            for (int a = 0; a < PN_REGROUP_ALGS; a++) {
                algs[a] = all || !strcmp(optarg, pn_regroup_alg_names[a]);
                found |= algs[a];
            }
            if (!found)
                st = pn_error_set(&err, PN_EINVAL, "--algorithm expects sorting, greedy, "
                                  "greedy-max or all, got '%s'", optarg);
            break;
        }
        case 'G':
            st = pn_cli_parse_u64("--group-size", optarg, PN_SM_WARP_THREADS, 1u << 30, &gs,
                                  &err);
            if (st == PN_OK && gs % PN_SM_WARP_THREADS)
                st = pn_error_set(&err, PN_EINVAL, "--group-size expects a multiple of %u "
                                  "(whole warps), got %" PRIu64, PN_SM_WARP_THREADS, gs);
            break;
        case 'A':
            if (!strcmp(optarg, "dynamic"))
                assign = PN_GRID_DYNAMIC;
            else if (!strcmp(optarg, "static"))
                assign = PN_GRID_STATIC;
            else
                st = pn_error_set(&err, PN_EINVAL, "--assign expects dynamic or static, got "
                                  "'%s'", optarg);
            break;
        default: return pn_cli_option_error("regroup", c, argv);
        }
        if (st != PN_OK)
            return pn_cli_value_error("regroup", &err);
    }
    if (optind != argc - 1)
        return pn_cli_usage_error("regroup", "expected one BBV file, got %d", argc - optind);
    if (!blocks_path || !cfg_path)
        return pn_cli_usage_error("regroup", "%s is required",
                                  !blocks_path ? "--blocks BLOCKS.csv" : "-c/--config CONFIG.yaml");
    /* no output (-o, the permutations) may replace an input */
    pn_cli_input(argv[optind]);
    pn_cli_input(blocks_path);
    pn_cli_input(cfg_path);
    regroup_t r = { .bbv_path = argv[optind], .blocks_path = blocks_path, .group_size = gs,
                    .assign = assign };
    pn_bbv_t bbv = { 0 };
    pn_block_table_t tab = { 0 };
    pn_model_t m;
    memset(&m, 0, sizeof m);
    size_t *map = NULL;
    double *lat = NULL;
    pn_cli_out_t out = { 0 };
    pn_cli_progress_t prog = { 0 };
    int rc = 0;
    if (pn_bbv_load(&bbv, r.bbv_path, &err) != PN_OK ||
        pn_block_table_load(&tab, blocks_path, &err) != PN_OK ||
        pn_model_load(&m, cfg_path, o.device, 0, &err) != PN_OK ||
        pn_cli_sim_defaults(&o, &m.cfg, &err) != PN_OK)
        goto fail;
    r.m = &m;
    r.bbv = &bbv;
    r.runs = o.runs;
    r.seed = o.seed;
    const pn_kernel_t *k = &m.kernel;
    if ((uint64_t)bbv.n_threads != k->blocks * k->threads) {
        const pn_pos_t *bp = m.cfg.blocks.text ? &m.cfg.blocks.pos : &m.cfg.kernel_pos;
        pn_error_at(&err, PN_EINVAL, r.bbv_path, bbv.header_line, 1,
                    "%zu threads (rows 0..%zu), but the grid of %s is %llu blocks x %u threads "
                    "= %llu (kernel.blocks at %s:%ld:%ld)", bbv.n_threads, bbv.n_threads - 1,
                    cfg_path, (unsigned long long)k->blocks, k->threads,
                    (unsigned long long)(k->blocks * k->threads), cfg_path, bp->line, bp->col);
        goto fail;
    }
    r.has_time = pn_kernel_time_coef(k, &m.dev, &r.ta, &r.tb);
    lat_coefs(&m, r.lat_coef);
    map = malloc(bbv.n_blocks * sizeof *map);
    lat = malloc(bbv.n_blocks * sizeof *lat);
    if (!map || !lat) {
        pn_error_set(&err, PN_ENOMEM, "out of memory");
        goto fail;
    }
    if (pn_regroup_map_blocks(&bbv, &tab, map, &err) != PN_OK)
        goto fail;
    for (size_t b = 0; b < bbv.n_blocks; b++) {
        const pn_warp_counts_t *cb = &tab.cost[map[b]];
        lat[b] = r.lat_coef[0] * (double)cb->arith + r.lat_coef[1] * (double)cb->shared +
                 r.lat_coef[2] * (double)cb->global;
    }
    pn_regroup_input_t in = { .n = bbv.n_threads, .nb = bbv.n_blocks, .count = bbv.count,
                              .lat = lat };
    pn_grid_sim_t gsim = { .m = &m, .runs = (uint32_t)o.runs, .seed = o.seed,
                           .jobs = (unsigned)o.jobs, .max_steps = o.max_steps,
                           .max_steps_given = o.have_max, .engine = o.engine,
                           .assign = assign, .stop = &pn_cli_stop,
                           .progress = pn_cli_progress_add, .progress_ctx = &prog };
    {
        /* the progress line counts the block runs of every kernel */
        size_t kernels = 1;
        for (int a = 0; a < PN_REGROUP_ALGS; a++)
            kernels += algs[a] != 0;
        pn_cli_progress_begin_units(&prog, "regroup", "block runs",
                                    kernels * pn_grid_block_runs(&gsim, (uint32_t)k->blocks), 0,
                                    o.quiet);
        gsim.at_step = &prog.at_step;
    }
    r.rows[r.n_rows++].name = "original";
    for (int a = 0; a < PN_REGROUP_ALGS; a++) {
        if (!algs[a])
            continue;
        regroup_row_t *w = &r.rows[r.n_rows++];
        w->name = pn_regroup_alg_names[a];
        w->perm = malloc(bbv.n_threads * sizeof *w->perm);
        if (!w->perm) {
            pn_error_set(&err, PN_ENOMEM, "out of memory");
            goto fail;
        }
        if (pn_regroup((pn_regroup_alg_t)a, &in, gs, w->perm, &err) != PN_OK)
            goto fail;
    }
    uint32_t slots = (uint32_t)(m.dev.sms * (uint64_t)k->resident);
    for (size_t i = 0; i < r.n_rows; i++) {
        regroup_row_t *w = &r.rows[i];
        if (pn_regroup_counts(&bbv, &tab, map, lat, w->perm, k->threads, PN_SM_WARP_THREADS,
                              &w->c, &err) != PN_OK)
            goto fail;
        w->divergent = divergent_warps(&bbv, w->perm, k->threads);
        w->bbv_static = pn_baseline_static(w->c.block_lat, w->c.blocks, m.dev.sms);
        w->bbv_sched = pn_baseline_scheduled(w->c.block_lat, w->c.blocks, slots);
        if (pn_grid_run(&gsim, w->c.warp, w->c.blocks, w->c.warps, &w->g, &err) != PN_OK) {
            char what[64];
            snprintf(what, sizeof what, "%s kernel", w->name);
            pn_error_prefix(&err, what);
            goto fail;
        }
        if (w->g.steps.mean < r.rows[r.best].g.steps.mean)
            r.best = i;
    }
    pn_cli_progress_end(&prog);
    if (pn_cli_out_open(&out, NULL, &err) != PN_OK)
        goto fail;
    /* the permutation first: a report on stdout promises a written file */
    if (o.output && write_perm(o.output, &r, &err) != PN_OK)
        goto fail;
    {
        static const pn_report_writers_t writers = { report_text, report_json, report_csv };
        if (pn_report_write(out.f, o.format, &writers, &r, "the report", &err) != PN_OK ||
            pn_cli_out_commit(&out, &err) != PN_OK)
            goto fail;
    }
    goto done;
fail:
    pn_cli_progress_end(&prog);
    pn_cli_out_abort(&out);
    rc = pn_cli_fail("regroup", &err);
done:
    for (size_t i = 0; i < r.n_rows; i++) {
        free(r.rows[i].perm);
        pn_regroup_counts_destroy(&r.rows[i].c);
    }
    free(map);
    free(lat);
    pn_model_destroy(&m);
    pn_block_table_destroy(&tab);
    pn_bbv_destroy(&bbv);
    return rc;
}
