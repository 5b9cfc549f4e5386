/* cmd_bbv.c - `pnsim bbv BBV.csv --blocks BLOCKS.csv`: per-warp counts from a
 * basic-block vector, divergence and memory metrics, and a check of a
 * config's declared counts against them. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_common.h"
#include "pn_baseline.h"
#include "pn_bbv.h"
#include "pn_commands.h"

static const char bbv_usage[] =
    "usage: pnsim bbv [options] BBV.csv --blocks BLOCKS.csv\n"
    "\n"
    "Derive per-warp instruction counts from a per-thread basic-block vector\n"
    "(BBV.csv: header thread,bb0,bb1,...; row i is thread i) and a per-block\n"
    "instruction table (BLOCKS.csv: header block,arith,shared,global) as the\n"
    "divergence paper does: per warp and block, the largest count over the\n"
    "warp's 32 threads times the block's instructions of each kind, summed over\n"
    "the blocks. Write them as a config fragment (kernel.threads, kernel.warps),\n"
    "headed by comments with the activity factor, the memory intensity and the\n"
    "BBV-weighted and BBV-weighted-scheduled estimates.\n"
    "\n"
    "options:\n"
    "  -b, --blocks FILE     the per-block instruction table (required)\n"
    "  -c, --check CONFIG    compare the derived counts with those CONFIG declares,\n"
    "                        per warp and kind; print the table instead of the\n"
    "                        fragment; exit 1 when one differs by more than the\n"
    "                        tolerance\n"
    "  -t, --threads T       threads per block for --check (default and only\n"
    "                        accepted value: the BBV's threads)\n"
    "      --tolerance P     --check: largest accepted difference in percent of\n"
    "                        the derived count (default 5)\n"
    "  -d, --device NAME     device profile of the estimates (SMs, resident warps,\n"
    "                        latencies; default: CONFIG's device with --check,\n"
    "                        else gtx960m)\n"
    "  -g, --grid N          blocks in the grid, all with this BBV (default 1, at\n"
    "                        most 1000000)\n"
    "  -o, --output FILE     write the fragment to FILE (written only on success)\n"
    "  -f, --format FMT      the fragment's format: yaml (default; text is the same),\n"
    "                        json (the metrics and per-warp counts, keyed) or csv\n"
    "                        (warp,arith,shared,global)\n"
    "  -h, --help            this help\n";

/* The BBV-weighted estimates of a grid of `grid` blocks with this BBV. */
typedef struct estimates {
    double block;                 /* steps of one block: the sum of its warps' T_w */
    uint32_t resident;            /* resident blocks per SM */
    double stat, sched;           /* BBV-weighted and -scheduled steps (-1: no memory) */
} estimates_t;

static void estimate(const pn_bbv_derived_t *d, const pn_device_t *dev, uint32_t l1,
                     uint32_t l2, uint64_t grid, estimates_t *e)
{
    e->block = pn_baseline_bbv_weighted(d->warp, d->warps, l1, l2);
    e->resident = pn_baseline_resident_blocks(dev->max_warps, d->warps);
    e->stat = e->sched = -1;
    double *lat = malloc((size_t)grid * sizeof *lat);
    if (lat) {
        for (uint64_t i = 0; i < grid; i++)
            lat[i] = e->block;
        e->stat = pn_baseline_static(lat, (size_t)grid, dev->sms);
        e->sched = pn_baseline_scheduled(lat, (size_t)grid, (size_t)dev->sms * e->resident);
        free(lat);
    }
}

static void print_metrics(FILE *out, const char *bbv_path, const char *blocks_path,
                          const pn_bbv_t *bbv, const pn_bbv_derived_t *d,
                          const pn_device_t *dev, uint32_t l1, uint32_t l2, uint64_t grid)
{
    estimates_t e;
    estimate(d, dev, l1, l2, grid, &e);
    fprintf(out, "# pnsim bbv: %s with %s\n", bbv_path, blocks_path);
    fprintf(out, "# threads %u, warps %u, blocks %zu (per warp and block: the largest count "
                 "over the warp's threads x the block's instructions)\n",
            d->threads, d->warps, bbv->n_blocks);
    fprintf(out, "# activity factor        %.6f  (instructions of active threads / (32 x warp "
                 "instructions))\n", d->activity_factor);
    fprintf(out, "# memory intensity       %.6f  (global / all warp instructions)\n",
            d->memory_intensity);
    fprintf(out, "# device %s: %u SMs, %u resident warps per SM -> %u resident blocks of %u "
                 "warps; latency global %u, shared %u\n",
            dev->name, dev->sms, dev->max_warps, e.resident, d->warps, l1, l2);
    fprintf(out, "# warp latency T_w = 4 arith + (5+l2) shared + (5+l1) global + 1 steps "
                 "(one warp alone in the net); block = sum of T_w = %.0f steps\n", e.block);
    fprintf(out, "# BBV-weighted           %.6g steps  (%llu block%s x %.0f steps / %u SMs)\n",
            e.stat, (unsigned long long)grid, grid == 1 ? "" : "s", e.block, dev->sms);
    fprintf(out, "# BBV-weighted-scheduled %.6g steps  (dynamic round robin of %llu block%s "
                 "over %u SMs x %u resident blocks)\n", e.sched, (unsigned long long)grid,
            grid == 1 ? "" : "s", dev->sms, e.resident);
}

static void print_fragment(FILE *out, const pn_bbv_derived_t *d)
{
    fprintf(out, "kernel:\n  threads: %u\n  warps:\n", d->threads);
    for (uint32_t w = 0; w < d->warps; w++)
        fprintf(out, "    - {warp: %u, arith: %llu, shared: %llu, global: %llu}\n", w,
                (unsigned long long)d->warp[w].arith, (unsigned long long)d->warp[w].shared,
                (unsigned long long)d->warp[w].global);
}

/* The metrics and the per-warp counts as one JSON object. */
static void print_json(FILE *out, const char *bbv_path, const char *blocks_path,
                       const pn_bbv_t *bbv, const pn_bbv_derived_t *d, const pn_device_t *dev,
                       uint32_t l1, uint32_t l2, uint64_t grid)
{
    estimates_t e;
    estimate(d, dev, l1, l2, grid, &e);
    fputs("{\n  \"bbv\": ", out);
    pn_json_string(out, bbv_path);
    fputs(",\n  \"blocks\": ", out);
    pn_json_string(out, blocks_path);
    fprintf(out, ",\n  \"threads\": %u,\n  \"warps\": %u,\n  \"basic_blocks\": %zu,\n"
            "  \"activity_factor\": %.10g,\n  \"memory_intensity\": %.10g,\n  \"device\": ",
            d->threads, d->warps, bbv->n_blocks, d->activity_factor, d->memory_intensity);
    pn_json_string(out, dev->name);
    fprintf(out, ",\n  \"latency\": {\"global\": %u, \"shared\": %u},\n  \"grid\": %llu,\n"
            "  \"resident_blocks\": %u,\n  \"block_steps\": %.10g,\n", l1, l2,
            (unsigned long long)grid, e.resident, e.block);
    fprintf(out, "  \"bbv_weighted_steps\": %.10g,\n  \"bbv_weighted_scheduled_steps\": "
            "%.10g,\n  \"counts\": [", e.stat, e.sched);
    for (uint32_t w = 0; w < d->warps; w++)
        fprintf(out, "%s\n    {\"warp\": %u, \"arith\": %llu, \"shared\": %llu, "
                "\"global\": %llu}", w ? "," : "", w, (unsigned long long)d->warp[w].arith,
                (unsigned long long)d->warp[w].shared, (unsigned long long)d->warp[w].global);
    fputs("\n  ]\n}\n", out);
}

/* One CSV row per warp. */
static void print_csv(FILE *out, const pn_bbv_derived_t *d)
{
    fputs("warp,arith,shared,global\n", out);
    for (uint32_t w = 0; w < d->warps; w++)
        fprintf(out, "%u,%llu,%llu,%llu\n", w, (unsigned long long)d->warp[w].arith,
                (unsigned long long)d->warp[w].shared, (unsigned long long)d->warp[w].global);
}

/* The derived counts in format fmt (text: the YAML fragment with its
 * metrics as comments). */
static void print_output(FILE *out, pn_format_t fmt, const char *bbv_path,
                         const char *blocks_path, const pn_bbv_t *bbv, const pn_bbv_derived_t *d,
                         const pn_device_t *dev, uint32_t l1, uint32_t l2, uint64_t grid)
{
    if (fmt == PN_FORMAT_JSON) {
        print_json(out, bbv_path, blocks_path, bbv, d, dev, l1, l2, grid);
    } else if (fmt == PN_FORMAT_CSV) {
        print_csv(out, d);
    } else {
        print_metrics(out, bbv_path, blocks_path, bbv, d, dev, l1, l2, grid);
        print_fragment(out, d);
    }
}

/* Print the comparison table; returns the number of counts beyond tol. */
static size_t print_check(FILE *out, const char *cfg_path, const pn_bbv_derived_t *d,
                          const pn_kernel_t *k, double tol, double *worst, uint32_t *worst_w,
                          int *worst_kind)
{
    size_t bad = 0;
    *worst = 0;
    *worst_w = 0;
    *worst_kind = 0;
    fprintf(out, "check %s: %u threads, %u warps, tolerance %g%%\n", cfg_path, d->threads,
            d->warps, tol);
    fprintf(out, "%5s  %-6s  %12s  %12s  %9s\n", "warp", "kind", "derived", "declared",
            "diff%");
    for (uint32_t w = 0; w < d->warps; w++) {
        pn_warp_counts_t dw = d->warp[w], cw = k->sm.warps[w];
        for (int i = 0; i < PN_KIND_COUNT; i++) {
            uint64_t dv = *pn_warp_count(&dw, i), cv = *pn_warp_count(&cw, i);
            double r = pn_bbv_rel_diff(dv, cv);
            int over = r > tol;
            bad += over;
            if (r > *worst) {
                *worst = r;
                *worst_w = w;
                *worst_kind = i;
            }
            fprintf(out, "%5u  %-6s  %12llu  %12llu  %9.3f%s\n", w, pn_kind_names[i],
                    (unsigned long long)dv, (unsigned long long)cv, r,
                    over ? "  > tolerance" : "");
        }
    }
    return bad;
}

int pn_cmd_bbv(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "blocks", required_argument, NULL, 'b' },
        { "check", required_argument, NULL, 'c' },
        { "threads", required_argument, NULL, 't' },
        { "tolerance", required_argument, NULL, 'T' },
        { "device", required_argument, NULL, 'd' },
        { "grid", required_argument, NULL, 'g' },
        { "output", required_argument, NULL, 'o' },
        { "format", required_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    pn_error_t err;
    pn_error_clear(&err);
    const char *blocks_path = NULL, *check = NULL, *device = NULL, *output = NULL;
    uint64_t threads = 0, grid = 1;
    double tol = 5.0;
    pn_format_t fmt = PN_FORMAT_TEXT;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":b:c:t:d:g:o:f:h", longopts, NULL)) != -1) {
        pn_status_t st = PN_OK;
        switch (c) {
        case 'b': blocks_path = optarg; break;
        case 'c': check = optarg; break;
        case 't': st = pn_cli_parse_u64("--threads", optarg, 1, PN_SM_MAX_THREADS, &threads, &err); break;
        case 'T': {
            char *end;
            tol = strtod(optarg, &end);
            if (!*optarg || *end || !(tol >= 0) || !isfinite(tol))
                st = pn_error_set(&err, PN_EINVAL,
                                  "--tolerance expects a percentage >= 0, got '%s'", optarg);
            break;
        }
        case 'd': device = optarg; break;
        case 'g': st = pn_cli_parse_u64("--grid", optarg, 1, 1000000, &grid, &err); break;
        case 'o': output = optarg; break;
        case 'f':   /* yaml is the text format here: the fragment */
            st = strcmp(optarg, "yaml") == 0 ? (fmt = PN_FORMAT_TEXT, PN_OK)
                                             : pn_format_parse(optarg, &fmt, &err);
            if (st != PN_OK)
                pn_error_set(&err, PN_EINVAL, "unknown format '%s' (expected yaml, json or "
                             "csv)", optarg);
            break;
        case 'h': fputs(bbv_usage, stdout); return 0;
        default:  return pn_cli_option_error("bbv", c, argv);
        }
        if (st != PN_OK)
            return pn_cli_value_error("bbv", &err);
    }
    if (optind != argc - 1)
        return pn_cli_usage_error("bbv", "expected one BBV file, got %d", argc - optind);
    if (!blocks_path)
        return pn_cli_usage_error("bbv", "--blocks BLOCKS.csv is required");
    const char *bbv_path = argv[optind];
    pn_cli_input(bbv_path);
    pn_cli_input(blocks_path);
    pn_cli_input(check);
    pn_bbv_t bbv = { 0 };
    pn_block_table_t tab = { 0 };
    pn_bbv_derived_t d = { 0 };
    pn_config_t cfg = { 0 };
    pn_device_t dev = { 0 };
    pn_kernel_t k = { 0 };
    pn_cli_out_t out = { 0 };
    int rc = 0;
    if (pn_bbv_load(&bbv, bbv_path, &err) != PN_OK ||
        pn_block_table_load(&tab, blocks_path, &err) != PN_OK ||
        pn_bbv_derive(&bbv, &tab, PN_SM_WARP_THREADS, &d, &err) != PN_OK)
        goto fail;
    if (check) {
        if (threads && threads != d.threads) {
            pn_error_set(&err, PN_EINVAL, "--threads %llu: the BBV %s has %u threads; "
                         "--check compares blocks of the same size",
                         (unsigned long long)threads, bbv_path, d.threads);
            goto fail;
        }
        if (pn_config_load(&cfg, check, &err) != PN_OK)
            goto fail;
        if (pn_model_load_device(&dev, &cfg, device, &err) != PN_OK)
            goto fail;
        if (pn_kernel_resolve(&cfg, &dev, d.threads, NULL, &k, &err) != PN_OK)
            goto fail;
    } else if (pn_device_load(&dev, device ? device : "gtx960m", NULL, 0, 0, &err) != PN_OK) {
        goto fail;
    }
    uint32_t l1 = check ? k.sm.l1 : dev.l1, l2 = check ? k.sm.l2 : dev.l2;
    if (check) {
        double worst;
        uint32_t worst_w;
        int worst_kind;
        print_metrics(stdout, bbv_path, blocks_path, &bbv, &d, &dev, l1, l2, grid);
        size_t bad = print_check(stdout, check, &d, &k, tol, &worst, &worst_w, &worst_kind);
        if (bad == 0)
            printf("check %s: all %u counts within %g%% of the BBV's\n", check, 3 * d.warps,
                   tol);
        if (output) {
            if (pn_cli_out_open(&out, output, &err) != PN_OK)
                goto fail;
            print_output(out.f, fmt, bbv_path, blocks_path, &bbv, &d, &dev, l1, l2, grid);
            if (pn_cli_out_commit(&out, &err) != PN_OK)
                goto fail;
        }
        if (fflush(stdout) != 0) {
            pn_error_set(&err, PN_EIO, "write error on standard output");
            goto fail;
        }
        if (bad) {
            fprintf(stderr, "%s: %zu of %u counts differ from the BBV's by more than %g%% "
                            "(largest: warp %u %s, %.3f%%)\n", check, bad, 3 * d.warps, tol,
                    worst_w, pn_kind_names[worst_kind], worst);
            rc = 1;
        }
        goto done;
    }
    if (pn_cli_out_open(&out, output, &err) != PN_OK)
        goto fail;
    print_output(out.f, fmt, bbv_path, blocks_path, &bbv, &d, &dev, l1, l2, grid);
    if (pn_cli_out_commit(&out, &err) != PN_OK)
        goto fail;
    goto done;
fail:
    pn_cli_out_abort(&out);
    rc = pn_cli_fail("bbv", &err);
done:
    pn_kernel_destroy(&k);
    pn_device_destroy(&dev);
    pn_config_destroy(&cfg);
    pn_bbv_derived_destroy(&d);
    pn_block_table_destroy(&tab);
    pn_bbv_destroy(&bbv);
    return rc;
}
