/* cmd_calibrate.c - `pnsim calibrate --device NAME MEASUREMENTS.csv`: simulate
 * measured points, fit time = a * steps + b, judge it against two baselines
 * and write a calibrated device profile. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_calibrate.h"
#include "cmd_common.h"
#include "cmd_progress.h"
#include "pn_baseline.h"
#include "pn_calib.h"
#include "pn_commands.h"
#include "pn_engine.h"
#include "pn_measure.h"
#include "pn_points.h"
#include "pn_profile.h"
#include "pn_yaml.h"

static const char calibrate_usage[] =
    "usage: pnsim calibrate --device NAME [options] MEASUREMENTS.csv\n"
    "\n"
    "Simulate every measured point of MEASUREMENTS.csv (columns config, threads,\n"
    "params, median_us; see calib/README.md) on the device profile NAME, fit\n"
    "time_us = a * steps + b by least squares (GSL), and report R2, RMSE, MAPE\n"
    "and the geometric-mean error, per kernel the Spearman rank correlation and\n"
    "the leave-one-kernel-out error, the same for two baselines fitted the same\n"
    "way (a roofline-style bound and the BBV-weighted metric, in steps), and\n"
    "every point. With -o, write the profile with a calibration section.\n"
    "\n"
    "options:\n"
    "  -d, --device NAME     the device profile to calibrate (required; a name or a\n"
    "                        .yaml path); every point is simulated on it\n"
    "  -o, --output FILE     write the calibrated profile to FILE (only on success)\n"
    "  -f, --format FMT      the report on standard output: text (default), json, or\n"
    "                        csv (one row per point, as --points writes)\n"
    "  -P, --points FILE     write one CSV row per point (measured, steps, predictions)\n"
    "  -r, --runs N          runs per point, 1 to 1000000 (default: each config's\n"
    "                        simulation.runs)\n"
    "  -s, --seed S          seed of each point's first run (default: the config's)\n"
    "  -j, --jobs N          CPU threads, 1 to 1024 (default: all); results do not\n"
    "                        depend on it\n"
    "  -e, --engine NAME     auto (default: as `pnsim run`: sm), sm, fast or literal\n"
    "  -k, --kernels LIST    only the points of these kernels (comma-separated)\n"
    "      --weight MODE     none (default: ordinary least squares, gsl_fit_linear)\n"
    "                        or relative (gsl_fit_wlinear with weights 1/median_us^2:\n"
    "                        least squares of relative errors)\n"
    "      --search-latency  simulate every pair of a grid of global (l1) and shared\n"
    "                        (l2) latencies and keep the pair whose fit has the\n"
    "                        smallest residual sum of squares\n"
    "      --l1 LIST         the grid's global latencies (default 10,20,40,80,160)\n"
    "      --l2 LIST         the grid's shared latencies (default 1,2,4,8)\n"
    "      --source TEXT     calibration.source of the profile (default: a summary)\n"
    "      --max-steps N     abort a run after N steps (default: the config's)\n"
    "  -q, --quiet           no progress line (shown only on a terminal, from 2 s on:\n"
    "                        the runs done and an ETA)\n"
    "  -v, --verbose         a line per simulated point on standard error, also when\n"
    "                        it is not a terminal\n"
    "  -h, --help            this help\n";

/* Parse "10,20,40" into a newly allocated list of latencies. */
static pn_status_t parse_list(const char *opt, const char *s, uint32_t **out, size_t *n,
                              pn_error_t *err)
{
    size_t cap = 1;
    for (const char *c = s; *c; c++)
        cap += *c == ',';
    uint32_t *v = malloc(cap * sizeof *v);
    if (!v)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    *n = 0;
    const char *p = s;
    for (;;) {
        char item[32];
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        uint64_t u;
        if (l >= sizeof item) {
            free(v);
            return pn_error_set(err, PN_EINVAL, "%s expects a list of integers between 1 "
                                "and %u, got '%s'", opt, PN_SM_MAX_LATENCY, s);
        }
        memcpy(item, p, l);
        item[l] = '\0';
        if (pn_cli_parse_u64(opt, item, 1, PN_SM_MAX_LATENCY, &u, err) != PN_OK) {
            free(v);
            return pn_error_set(err, PN_EINVAL, "%s expects a list of integers between 1 "
                                "and %u, got '%s'", opt, PN_SM_MAX_LATENCY, s);
        }
        v[(*n)++] = (uint32_t)u;
        if (!e)
            break;
        p = e + 1;
    }
    *out = v;
    return PN_OK;
}

/* Simulate at every (l1, l2) of the grid and keep the best fit's steps. */
static pn_status_t search_latency(calib_run_t *r, const uint32_t *l1s, size_t n1,
                                  const uint32_t *l2s, size_t n2, FILE *progress, FILE *out,
                                  pn_error_t *err)
{
    pn_point_set_t *s = r->set;
    size_t n = s->n_points;
    double *best = malloc(n * sizeof *best), *x = malloc(n * sizeof *x);
    double best_ss = INFINITY;
    if (!best || !x) {
        free(best);
        free(x);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    if (out)
        fprintf(out, "latency search (fit at each pair; kept: the smallest residual sum of "
                     "squares)\n%6s %6s %13s %11s %9s %10s %9s\n", "l1", "l2", "a", "b", "R2",
                "RMSE_us", "MAPE%");
    pn_status_t st = PN_OK;
    for (size_t i = 0; i < n1 && st == PN_OK; i++)
        for (size_t k = 0; k < n2 && st == PN_OK; k++) {
            if (progress)
                fprintf(progress, "latency l1 %u, l2 %u\n", l1s[i], l2s[k]);
            st = pn_points_simulate(s, r->engine, l1s[i], l2s[k], r->jobs, progress, err);
            if (st != PN_OK)
                break;
            for (size_t j = 0; j < n; j++)
                x[j] = s->points[j].steps_mean;
            pn_fit_t fit;
            st = pn_calib_fit(x, r->y, r->w, n, &fit, err);
            if (st != PN_OK)
                break;
            double *pred = malloc(n * sizeof *pred);
            if (!pred) {
                st = pn_error_set(err, PN_ENOMEM, "out of memory");
                break;
            }
            for (size_t j = 0; j < n; j++)
                pred[j] = pn_calib_predict(&fit, x[j]);
            pn_calib_metrics_t m;
            pn_calib_metrics(r->y, pred, n, &m);
            free(pred);
            char b[3][32];
            if (out) {
                fprintf(out, "%6u %6u %13.6g %11.5g %9s %10s %9s\n", l1s[i], l2s[k], fit.a,
                        fit.b, pn_calib_num(b[0], 32, "%.5f", m.r2), pn_calib_num(b[1], 32, "%.4g", m.rmse),
                        pn_calib_num(b[2], 32, "%.2f", m.mape));
                fflush(out);
            }
            if (fit.sumsq < best_ss) {
                best_ss = fit.sumsq;
                r->l1 = l1s[i];
                r->l2 = l2s[k];
                memcpy(best, x, n * sizeof *x);
            }
        }
    if (st == PN_OK) {
        if (out)
            fprintf(out, "kept       l1 %u, l2 %u\n\n", r->l1, r->l2);
        /* restore the chosen pair's steps and latencies */
        for (size_t j = 0; j < n; j++) {
            pn_point_t *p = &s->points[j];
            p->steps_mean = best[j];
            p->l1 = p->fixed_l1 ? p->k.sm.l1 : r->l1;
            p->l2 = p->fixed_l2 ? p->k.sm.l2 : r->l2;
        }
    }
    free(best);
    free(x);
    return st;
}

/* When every point simulates the pipelined net, the probed prediction of each
 * (steps / clock_mhz + launch_us of the device's own pipelined section) and
 * its errors, over all points and per kernel. Mixed nets: PN_EINVAL. */
static pn_status_t probe_pipelined(calib_run_t *r, pn_error_t *err)
{
    const pn_point_set_t *s = r->set;
    size_t np = 0;
    for (size_t i = 0; i < s->n_points; i++)
        np += s->points[i].k.net == PN_NET_PIPELINED;
    if (np == 0)
        return PN_OK;
    if (np != s->n_points)
        return pn_error_set(err, PN_EINVAL, "%s: %zu of %zu points simulate the pipelined net "
                            "and the others the paper net; calibrate one net at a time",
                            r->meas->path, np, s->n_points);
    r->pipelined = 1;
    r->clock_mhz = r->dev->pipe.clock_mhz;
    r->launch_us = r->dev->pipe.launch_us;
    r->probed = malloc(s->n_points * sizeof *r->probed);
    r->probed_group = calloc(s->n_groups, sizeof *r->probed_group);
    double *yy = malloc(s->n_points * sizeof *yy), *pp = malloc(s->n_points * sizeof *pp);
    if (!r->probed || !r->probed_group || !yy || !pp) {
        free(yy);
        free(pp);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < s->n_points; i++)
        r->probed[i] = s->points[i].steps_mean / r->clock_mhz + r->launch_us;
    pn_calib_metrics(r->y, r->probed, s->n_points, &r->probed_all);
    for (size_t g = 0; g < s->n_groups; g++) {
        size_t m = 0;
        for (size_t i = 0; i < s->n_points; i++)
            if (r->group[i] == g) {
                yy[m] = r->y[i];
                pp[m++] = r->probed[i];
            }
        pn_calib_metrics(yy, pp, m, &r->probed_group[g]);
    }
    free(yy);
    free(pp);
    return PN_OK;
}

/* Write the calibrated profile into o (opened on path) and check that it
 * loads; the caller commits or aborts o. */
static pn_status_t write_profile(const calib_run_t *r, pn_cli_out_t *o, const char *path,
                                 const char *source, pn_error_t *err)
{
    const pn_model_eval_t *e = &r->ev[MODEL_PNSIM];
    if (!(e->fit.a > 0))
        return pn_error_set(err, PN_EINVAL, "the fit gives us_per_step = %g, not > 0: no "
                            "profile written", e->fit.a);
    char *text;
    size_t len;
    if (pn_yaml_read_file(r->dev->path, &text, &len) != PN_OK)
        return pn_error_set(err, PN_EIO, "%s: cannot read device profile", r->dev->path);
    char src[1024], note[256];
    if (source)
        snprintf(src, sizeof src, "%s", source);
    else if (r->pipelined)
        snprintf(src, sizeof src, "pnsim calibrate on %s: %zu points of %zu kernels, %s fit, "
                 "engine %s, model.net pipelined; R2 %.4f, MAPE %.1f%%, leave-one-kernel-out "
                 "MAPE %.1f%%; probed (unfitted) MAPE %.1f%%", r->meas->path, r->set->n_points,
                 r->set->n_groups, r->weighted ? "relative" : "ordinary",
                 r->set->points[0].engine, e->all.r2, e->all.mape, e->loo.mape,
                 r->probed_all.mape);
    else
        snprintf(src, sizeof src, "pnsim calibrate on %s: %zu points of %zu kernels, %s fit, "
                 "engine %s, latency %u/%u; R2 %.4f, MAPE %.1f%%", r->meas->path,
                 r->set->n_points, r->set->n_groups, r->weighted ? "relative" : "ordinary",
                 r->set->points[0].engine, r->l1, r->l2, e->all.r2,
                 e->all.mape);
    snprintf(note, sizeof note, "fitted by pnsim calibrate --search-latency on %s",
             r->meas->path);
    pn_calibration_t c = { .us_per_step = e->fit.a, .us_offset = e->fit.b, .source = src,
                           .set_latency = r->searched, .l1 = r->l1, .l2 = r->l2,
                           .latency_note = note };
    pn_status_t st = pn_cli_out_open(o, path, err);
    if (st == PN_OK && r->pipelined) {
        char section[2048];
        char esc[1100];
        size_t k = 0;
        for (const char *q = src; *q && k + 2 < sizeof esc; q++) {
            if (*q == '"' || *q == '\\')
                esc[k++] = '\\';
            esc[k++] = *q;
        }
        esc[k] = '\0';
        snprintf(section, sizeof section,
                 "pipelined_calibration:      # time_us = us_per_step * steps + us_offset "
                 "(1 / clock_mhz = %.10g)\n  us_per_step: %.10g\n  us_offset: %.10g\n"
                 "  source: \"%s\"\n", 1.0 / r->clock_mhz, e->fit.a, e->fit.b, esc);
        st = pn_profile_replace(o->f, text, len, "pipelined_calibration", section, err);
    } else if (st == PN_OK) {
        st = pn_profile_write(o->f, text, len, &c, err);
    }
    if (st == PN_EIO)
        pn_error_prefix(err, path);
    free(text);
    if (st == PN_OK && o->tmp) {
        /* check that the result loads before it replaces anything */
        pn_device_t chk;
        char *p = malloc(strlen(o->tmp) + 3);
        if (fflush(o->f) != 0 || !p)
            st = pn_error_set(err, PN_EIO, "%s: cannot write", path);
        else {
            sprintf(p, "%s%s", strchr(o->tmp, '/') ? "" : "./", o->tmp);
            st = pn_device_load(&chk, p, NULL, 0, 0, err);
            pn_device_destroy(&chk);
        }
        free(p);
    }
    return st;
}

int pn_cmd_calibrate(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "device", required_argument, NULL, 'd' },
        { "output", required_argument, NULL, 'o' },
        { "format", required_argument, NULL, 'f' },
        { "points", required_argument, NULL, 'P' },
        { "runs", required_argument, NULL, 'r' },
        { "seed", required_argument, NULL, 's' },
        { "jobs", required_argument, NULL, 'j' },
        { "engine", required_argument, NULL, 'e' },
        { "kernels", required_argument, NULL, 'k' },
        { "weight", required_argument, NULL, 'W' },
        { "search-latency", no_argument, NULL, 'S' },
        { "l1", required_argument, NULL, '1' },
        { "l2", required_argument, NULL, '2' },
        { "source", required_argument, NULL, 'C' },
        { "max-steps", required_argument, NULL, 'M' },
        { "verbose", no_argument, NULL, 'v' },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    pn_error_t err;
    pn_error_clear(&err);
    const char *device = NULL, *output = NULL, *points_out = NULL, *source = NULL;
    uint64_t runs = 0, seed = 0, jobs = 0, max_steps = 0;
    int have_seed = 0, verbose = 0, quiet = 0, search = 0, weighted = 0;
    pn_format_t format = PN_FORMAT_TEXT;
    pn_engine_kind_t engine = PN_ENGINE_DEFAULT;
    pn_point_opts_t popts = { 0 };
    static const uint32_t def_l1[] = {10, 20, 40, 80, 160}, def_l2[] = {1, 2, 4, 8};
    uint32_t *l1s = NULL, *l2s = NULL;
    size_t n1 = 0, n2 = 0;
    int rc = 2, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":d:o:f:P:r:s:j:e:k:vqh", longopts, NULL)) != -1) {
        pn_status_t st = PN_OK;
        switch (c) {
        case 'd': device = optarg; break;
        case 'o': output = optarg; break;
        case 'f': st = pn_format_parse(optarg, &format, &err); break;
        case 'P': points_out = optarg; break;
        case 'r': st = pn_cli_parse_u64("--runs", optarg, 1, PN_CLI_MAX_RUNS, &runs, &err); break;
        case 's': st = pn_cli_parse_u64("--seed", optarg, 0, UINT64_MAX, &seed, &err); have_seed = 1; break;
        case 'j': st = pn_cli_parse_u64("--jobs", optarg, 1, PN_CLI_MAX_JOBS, &jobs, &err); break;
        case 'e': st = pn_engine_parse(optarg, &engine, &err); break;
        case 'k': popts.kernels = optarg; break;
        case 'W':
            if (!strcmp(optarg, "none"))
                weighted = 0;
            else if (!strcmp(optarg, "relative"))
                weighted = 1;
            else
                st = pn_error_set(&err, PN_EINVAL, "unknown --weight '%s' (expected none or "
                                  "relative)", optarg);
            break;
        case 'S': search = 1; break;
        case '1': free(l1s); l1s = NULL; st = parse_list("--l1", optarg, &l1s, &n1, &err); break;
        case '2': free(l2s); l2s = NULL; st = parse_list("--l2", optarg, &l2s, &n2, &err); break;
        case 'C': source = optarg; break;
        case 'M': st = pn_cli_parse_u64("--max-steps", optarg, 1, UINT64_MAX, &max_steps, &err); break;
        case 'v': verbose = 1; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(calibrate_usage, stdout); rc = 0; goto out_args;
        default:  rc = pn_cli_option_error("calibrate", c, argv); goto out_args;
        }
        if (st != PN_OK) {
            rc = pn_cli_value_error("calibrate", &err);
            goto out_args;
        }
    }
    if (optind != argc - 1) {
        rc = pn_cli_usage_error("calibrate", "expected one measurements file, got %d",
                                argc - optind);
        goto out_args;
    }
    if (!device) {
        rc = pn_cli_usage_error("calibrate", "--device NAME is required");
        goto out_args;
    }
    if ((l1s || l2s) && !search) {
        rc = pn_cli_usage_error("calibrate", "--l1 and --l2 need --search-latency");
        goto out_args;
    }
    popts.runs = (uint32_t)runs;
    popts.have_seed = have_seed;
    popts.seed = seed;
    popts.max_steps = max_steps;
    popts.stop = &pn_cli_stop;
    pn_cli_input(argv[optind]);
    if (pn_cli_out_check(output, &err) != PN_OK || pn_cli_out_check(points_out, &err) != PN_OK) {
        rc = pn_cli_fail("calibrate", &err);
        goto out_args;
    }

    pn_device_t dev = { 0 };
    pn_measure_t meas = { 0 };
    pn_point_set_t set = { 0 };
    calib_run_t r = { .dev = &dev, .meas = &meas, .set = &set, .engine = engine,
                      .weighted = weighted, .searched = search,
                      .jobs = jobs ? (unsigned)jobs : pn_engine_cpu_count() };
    pn_cli_out_t pout = { 0 }, prof = { 0 };
    /* progress: -v a line per point, anywhere; else on a terminal (unless -q)
     * one line rewritten in place with the runs done and an ETA */
    FILE *progress = verbose ? stderr : NULL;
    pn_cli_progress_t bar = { 0 };
    rc = 0;
    if (pn_device_load(&dev, device, NULL, 0, 0, &err) != PN_OK ||
        pn_measure_load(&meas, argv[optind], &err) != PN_OK ||
        pn_points_resolve(&set, &meas, &dev, &popts, &err) != PN_OK)
        goto fail;
    for (size_t i = 0; i < set.n_configs; i++)
        pn_cli_input(set.configs[i].path);    /* -o and -p must not replace them either */
    if (pn_cli_out_check(output, &err) != PN_OK || pn_cli_out_check(points_out, &err) != PN_OK)
        goto fail;
    size_t n = set.n_points;
    r.y = malloc(n * sizeof *r.y);
    r.w = weighted ? malloc(n * sizeof *r.w) : NULL;
    r.group = malloc(n * sizeof *r.group);
    for (int k = 0; k < N_MODELS; k++)
        r.x[k] = malloc(n * sizeof *r.x[k]);
    if (!r.y || (weighted && !r.w) || !r.group || !r.x[0] || !r.x[1] || !r.x[2]) {
        pn_error_set(&err, PN_ENOMEM, "out of memory for %zu points", n);
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        r.y[i] = set.points[i].m->median_us;
        if (r.w)
            r.w[i] = 1.0 / (r.y[i] * r.y[i]);
        r.group[i] = set.points[i].group;
        r.n_fixed += set.points[i].fixed_l1 || set.points[i].fixed_l2;
    }
    r.l1 = dev.l1;
    r.l2 = dev.l2;
    if (!verbose) {
        uint64_t total = 0;
        for (size_t i = 0; i < n; i++)
            total += set.points[i].runs;
        if (search)
            total *= (uint64_t)(l1s ? n1 : 5) * (l2s ? n2 : 4);
        pn_cli_progress_begin(&bar, "calibrate", total, 0, quiet);
        set.on_run = pn_cli_progress_one_more;
        set.on_run_ctx = &bar;
    }
    if (search) {
        if (search_latency(&r, l1s ? l1s : def_l1, l1s ? n1 : 5, l2s ? l2s : def_l2,
                           l2s ? n2 : 4, progress, format == PN_FORMAT_TEXT ? stdout : NULL,
                           &err) != PN_OK)
            goto fail;
    } else if (pn_points_simulate(&set, engine, 0, 0, r.jobs, progress, &err) != PN_OK) {
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        const pn_point_t *p = &set.points[i];
        pn_kernel_t k;                        /* the point's counts, resolved again */
        if (pn_point_kernel(&set, i, &k, &err) != PN_OK)
            goto fail;
        r.x[MODEL_PNSIM][i] = p->steps_mean;
        r.x[MODEL_ROOF][i] = pn_baseline_roofline(k.sm.warps, k.sm.n_warps, k.sm.schedulers,
                                                  p->l1, p->l2);
        r.x[MODEL_BBV][i] = pn_baseline_bbv_weighted(k.sm.warps, k.sm.n_warps, p->l1, p->l2);
        pn_kernel_destroy(&k);
    }
    for (int k = 0; k < N_MODELS; k++)
        if (pn_calib_evaluate(r.x[k], r.y, r.w, r.group, n, set.n_groups, &r.ev[k], &err) !=
            PN_OK) {
            pn_error_prefix(&err, pn_calib_model_names[k]);
            goto fail;
        }
    pn_cli_progress_end(&bar);
    if (probe_pipelined(&r, &err) != PN_OK)
        goto fail;
    if (format == PN_FORMAT_JSON) {
        pn_calib_report_json(stdout, &r);
    } else if (format == PN_FORMAT_CSV) {
        pn_calib_report_points(stdout, &r);
    } else {
        pn_calib_report_text(stdout, &r);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        pn_error_set(&err, PN_EIO, "write error on standard output");
        goto fail;
    }
    if (points_out) {
        if (pn_cli_out_open(&pout, points_out, &err) != PN_OK)
            goto fail;
        pn_calib_report_points(pout.f, &r);
    }
    if (output && write_profile(&r, &prof, output, source, &err) != PN_OK)
        goto fail;
    if ((points_out && pn_cli_out_commit(&pout, &err) != PN_OK) ||
        (output && pn_cli_out_commit(&prof, &err) != PN_OK))
        goto fail;
    goto done;
fail:
    pn_cli_progress_end(&bar);
    pn_cli_out_abort(&pout);
    pn_cli_out_abort(&prof);
    rc = pn_cli_fail("calibrate", &err);
done:
    for (int k = 0; k < N_MODELS; k++) {
        pn_model_eval_destroy(&r.ev[k]);
        free(r.x[k]);
    }
    free(r.y);
    free(r.w);
    free(r.group);
    free(r.probed);
    free(r.probed_group);
    pn_points_destroy(&set);
    pn_measure_destroy(&meas);
    pn_device_destroy(&dev);
out_args:
    free(l1s);
    free(l2s);
    return rc;
}
