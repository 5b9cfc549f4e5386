/* cmd_compare.c - `pnsim compare TIMES.csv CONFIG_DIR`: measured kernel times
 * against the predictions of the configs `pnsim import -O` wrote. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "cmd_common.h"
#include "cmd_progress.h"
#include "pn_commands.h"
#include "pn_compare.h"
#include "pn_csv.h"
#include "pn_ncu.h"
#include "pn_kernel_net.h"
#include "pn_plot.h"
#include "pn_yaml.h"

static const char compare_usage[] =
    "usage: pnsim compare [options] TIMES.csv [MORE_TIMES.csv ...] CONFIG_DIR\n"
    "\n"
    "Predict every launch of TIMES.csv with its config in CONFIG_DIR and compare:\n"
    "per launch the measured and predicted time and the error, per kernel the\n"
    "MAPE, per sweep (a kernel at one size over several block sizes) the best\n"
    "block size measured and predicted and the regret (the measured time of the\n"
    "predicted one over the best; near: within 1 %), the worst launches, and an\n"
    "overall line. With the measured spread (columns p10_us and p90_us, one times\n"
    "file), the overall line also counts the sweeps whose best is clear of it\n"
    "(every other block size's p10 above the best's p90) and the right picks among\n"
    "them: where the spreads overlap, the measurement cannot tell the best (a\n"
    "wrong pick there is marked \"within the measured spread\").\n"
    "\n"
    "TIMES.csv has a header with the columns kernel, size, threads, blocks and\n"
    "median_us (p10_us and p90_us optional, more are ignored; '#' lines are\n"
    "comments), as examples/deps/measure.sh writes it; or it is the table of\n"
    "launches of `pnsim import -f csv` (kernel, threads, blocks, duration_ns: ncu's\n"
    "durations, taken at the clocks ncu locks, base by default; the size is a\n"
    "launch's threads in all); or the file examples/measure/pn_ktime.c writes\n"
    "(CUPTI durations: add --durations). Several times files of the same launches\n"
    "(runs of one program: the same rows, kernels, threads and blocks in the same\n"
    "order; up to 64) give each launch the median of its times.\n"
    "CONFIG_DIR holds the configs of\n"
    "`pnsim import -O CONFIG_DIR` (<kernel>-<threads>x<blocks>-<id>.yaml; a\n"
    "template kernel's name may carry a 'void ' prefix, as configs of older\n"
    "imports do). A row's kernel may be ncu's signature or a qualified name: it\n"
    "is the function's own name, as import names configs (DeviceReduceKernel for\n"
    "\"void cub::...::DeviceReduceKernel<...>(...)\"). A row takes the config of\n"
    "its kernel, threads and blocks; rows with the same three take those configs\n"
    "in the order of their launch IDs. A row without a config is listed, not\n"
    "counted. Times are mean predicted microseconds over the runs.\n"
    "\n"
    "options:\n"
    "  -r, --runs N          runs per config, 1 to 1000 (default 2)\n"
    "  -s, --seed S          seed of each config's first run (default 1)\n"
    "  -j, --jobs N          CPU threads, 1 to 1024 (default: all)\n"
    "  -f, --format FMT      text (default), json or csv\n"
    "  -o, --output FILE     write the comparison to FILE (written only on success)\n"
    "  -p, --plot FILE       draw predicted against measured microseconds, log-log,\n"
    "                        with y = x, +-20 % lines and the MAPE, into FILE.svg\n"
    "                        or FILE.png (needs gnuplot; written only on success)\n"
    "      --durations       the measured times are kernel durations as profilers\n"
    "                        report them (start to end on the GPU: CUPTI, Nsight\n"
    "                        Systems, ncu), not CUDA events around a launch alone:\n"
    "                        predictions add the profile's launch_duration_us in\n"
    "                        place of launch_us (for ncu's durations, where the\n"
    "                        profile gives it)\n"
    "      --versions        also rank kernels named FAMILY_VERSION at one size\n"
    "                        together: the fastest version and block size, regret\n"
    "      --roofline        also predict every launch by its roofline: the largest of\n"
    "                        the lower bounds `pnsim run` reports (issue, each pipe,\n"
    "                        L2, DRAM, launch), mapped to time as steps are; adds its\n"
    "                        time, error and binding bound per launch and its MAPE,\n"
    "                        the launches pnsim predicts nearer and its best block\n"
    "                        sizes to the overall line\n"
    "  -w, --worst N         list the N largest errors (default 5)\n"
    "  -q, --quiet           no progress line (shown only on a terminal, from 2 s on)\n"
    "  -h, --help            this help\n";

/* A config file of the directory: its kernel's own name (pn_ncu_kernel_name), threads,
 * blocks, id. */
typedef struct entry {
    char *path;
    char *name;
    uint32_t threads;
    uint64_t blocks;
    long id;
    int used;
} entry_t;

/* Parse "<name>-<T>x<B>-<id>.yaml" into e (name and path allocated); 0 if it
 * is not such a name. */
static int parse_name(const char *dir, const char *file, entry_t *e)
{
    size_t len = strlen(file);
    if (len < 6 || strcmp(file + len - 5, ".yaml"))
        return 0;
    const char *dash2 = NULL, *dash1 = NULL;
    for (const char *p = file + len - 5; p-- > file;)
        if (*p == '-') {
            if (!dash2)
                dash2 = p;
            else {
                dash1 = p;
                break;
            }
        }
    if (!dash1)
        return 0;
    char *end;
    long id = strtol(dash2 + 1, &end, 10);
    if (end != file + len - 5 || id < 0)
        return 0;
    unsigned long t = strtoul(dash1 + 1, &end, 10);
    if (*end != 'x' || end == dash1 + 1)
        return 0;
    unsigned long long b = strtoull(end + 1, &end, 10);
    if (end != dash2 || t == 0 || b == 0)
        return 0;
    /* the kernel's own name, as the times' kernel column is reduced (an older
     * import's config may carry a template's 'void ' prefix) */
    e->name = malloc((size_t)(dash1 - file) + 1);
    e->path = malloc(strlen(dir) + len + 2);
    if (!e->name || !e->path) {
        free(e->name), free(e->path);
        return -1;
    }
    memcpy(e->name, file, (size_t)(dash1 - file));
    e->name[dash1 - file] = '\0';
    size_t kl;
    const char *k = pn_ncu_kernel_name(e->name, &kl);
    memmove(e->name, k, kl);
    e->name[kl] = '\0';
    sprintf(e->path, "%s/%s", dir, file);
    e->threads = (uint32_t)t;
    e->blocks = b;
    e->id = id;
    e->used = 0;
    return 1;
}

static pn_status_t scan_dir(const char *dir, entry_t **out, size_t *n, pn_error_t *err)
{
    DIR *d = opendir(dir);
    *out = NULL;
    *n = 0;
    if (!d)
        return pn_error_set(err, PN_EIO, "%s: cannot open the config folder: %s", dir,
                            pn_yaml_strerror(errno));
    size_t cap = 0;
    struct dirent *de;
    pn_status_t st = PN_OK;
    while ((de = readdir(d)) != NULL && st == PN_OK) {
        entry_t e;
        int r = parse_name(dir, de->d_name, &e);
        if (r < 0)
            st = pn_error_set(err, PN_ENOMEM, "out of memory");
        if (r <= 0)
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            entry_t *ne = realloc(*out, cap * sizeof *ne);
            if (!ne) {
                free(e.name), free(e.path);
                st = pn_error_set(err, PN_ENOMEM, "out of memory");
                break;
            }
            *out = ne;
        }
        (*out)[(*n)++] = e;
    }
    closedir(d);
    return st;
}

/* Times files a comparison takes the median of. */
#define MAX_TIMES 64

/* Times file path, one more run of the launches of first (read from
 * first_path): read into m, its columns in mcol; it must have the columns of a
 * times table and as many rows. */
static pn_status_t read_more(pn_csv_t *m, const char *path, const pn_csv_t *first,
                             const char *first_path, long *mcol, pn_error_t *err)
{
    static const char *const cols[5] = { "kernel", "size", "threads", "blocks", "median_us" };
    PN_CHECK(pn_csv_read(m, path, err));
    for (int k = 0; k < 5; k++)
        PN_CHECK(pn_csv_require(m, cols[k], "kernel, size, threads, blocks, median_us",
                                &mcol[k], err));
    if (m->n_rows != first->n_rows)
        return pn_error_set(err, PN_EINVAL, "%s: %zu launches, %s has %zu: several times files "
                            "must time the same launches", path, m->n_rows, first_path,
                            first->n_rows);
    return PN_OK;
}

/* The median over the times files of row i: first's value us (its row checked
 * against the others: the same kernel, threads and blocks) and each of the n
 * files of more (columns mcol). */
static pn_status_t median_of(const pn_csv_t *first, const pn_csv_t *more, long (*mcol)[5], int n,
                             size_t i, const long *col, double us, double *out, pn_error_t *err)
{
    double v[MAX_TIMES];
    v[0] = us;
    const pn_csv_row_t *a = &first->rows[i];
    for (int k = 0; k < n; k++) {
        const pn_csv_row_t *b = &more[k].rows[i];
        for (int c = 0; c < 4; c++)
            if (c != 1 && strcmp(a->f[col[c]].text, b->f[mcol[k][c]].text))
                return pn_error_at(err, PN_EINVAL, more[k].path, b->line, b->f[mcol[k][c]].col,
                                   "%s '%s', but line %ld of %s has '%s': several times files "
                                   "must time the same launches in the same order",
                                   c == 0 ? "kernel" : c == 2 ? "threads" : "blocks",
                                   b->f[mcol[k][c]].text, a->line, first->path,
                                   a->f[col[c]].text);
        PN_CHECK(pn_csv_double(&more[k], b, (size_t)mcol[k][4], "median_us", 0, &v[k + 1], err));
    }
    gsl_sort(v, 1, (size_t)n + 1);
    *out = gsl_stats_median_from_sorted_data(v, 1, (size_t)n + 1);
    return PN_OK;
}

/* The unused config of (kernel, threads, blocks) with the lowest id, or NULL. */
static entry_t *take(entry_t *e, size_t n, const char *kernel, uint32_t t, uint64_t b)
{
    entry_t *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (!e[i].used && e[i].threads == t && e[i].blocks == b && !strcmp(e[i].name, kernel) &&
            (!best || e[i].id < best->id))
            best = &e[i];
    if (best)
        best->used = 1;
    return best;
}

/* Mean predicted time of config path over runs (seeds seed...); with durations 1 the
 * launch costs launch_duration_us (an error without it), with 2 where the profile has it.
 * With roof non-NULL also the time of the config's largest lower bound (-1 where it has
 * none: the paper net) and the bound's name in *bound. */
static pn_status_t predict(const char *path, uint64_t runs, uint64_t seed, unsigned jobs,
                           int durations, double *us, double *roof, const char **bound,
                           pn_error_t *err)
{
    pn_model_t m;
    PN_CHECK(pn_model_load_engine(&m, path, NULL, 0, PN_ENGINE_AUTO, err));
    pn_run_opts_t opts = { .idle_trans = m.layout.t0, .net_name = m.cfg.kernel_name,
                           .stop = &pn_cli_stop };
    pn_prepared_t prep = { 0 };
    pn_run_result_t *res = calloc(runs, sizeof *res);
    pn_status_t st = res ? PN_OK : pn_error_set(err, PN_ENOMEM, "out of memory");
    double a, b;
    if (st == PN_OK && !pn_kernel_time_coef(&m.kernel, &m.dev, &a, &b))
        st = pn_error_set(err, PN_EINVAL, "%s: the config gives steps only (a paper-net "
                          "config on an uncalibrated device): no time to compare", path);
    /* a launch's cost as profilers time a kernel: durations 1 needs it, 2 takes it if there */
    const int have = m.kernel.net == PN_NET_PIPELINED && !m.kernel.pdev.calibrated &&
                     (m.kernel.pdev.set & PN_PD_LAUNCH_DURATION);
    if (st == PN_OK && (durations == 1 || (durations == 2 && have))) {
        if (!have)
            st = pn_error_set(err, PN_EINVAL, "%s: kernel durations need a pipelined config "
                              "whose device profile gives launch_duration_us (device %s)",
                              path, m.dev.name);
        else
            b = m.kernel.pdev.launch_duration_us;
    }
    if (st == PN_OK)
        st = pn_kernel_net_check_steps(&m.cfg, &m.kernel, m.cfg.max_steps, 0, &opts.max_steps,
                                       err);
    if (st == PN_OK && (st = pn_kernel_net_engine(&prep, PN_ENGINE_AUTO, &m.cfg, &m.kernel,
                                                  &m.net, &opts, err)) != PN_OK)
        pn_error_prefix(err, path);
    if (st == PN_OK)
        st = pn_engine_run_batch(&prep, seed, (uint32_t)runs, jobs, res, err);
    if (st == PN_OK) {
        double s = 0;
        for (uint64_t i = 0; i < runs; i++)
            s += (double)res[i].steps;
        *us = a * s / (double)runs + b;
        pn_pipe_bounds_t bd;
        pn_error_t e2;
        if (roof && pn_kernel_net_bounds(&m.cfg, &m.kernel, &bd, NULL, NULL, &e2)) {
            *roof = a * (double)bd.steps[bd.binding] + b;
            *bound = pn_pipe_bound_names[bd.binding];
        } else if (roof)
            *roof = -1;
    }
    pn_engine_release(&prep);
    free(res);
    pn_model_destroy(&m);
    return st;
}

int pn_cmd_compare(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "runs", required_argument, NULL, 'r' },   { "seed", required_argument, NULL, 's' },
        { "jobs", required_argument, NULL, 'j' },   { "format", required_argument, NULL, 'f' },
        { "output", required_argument, NULL, 'o' }, { "versions", no_argument, NULL, 'V' },
        { "worst", required_argument, NULL, 'w' },  { "quiet", no_argument, NULL, 'q' },
        { "plot", required_argument, NULL, 'p' },   { "help", no_argument, NULL, 'h' },
        { "durations", no_argument, NULL, 'D' },   { "roofline", no_argument, NULL, 'R' },
        { NULL, 0, NULL, 0 }
    };
    uint64_t runs = 2, seed = 1, jobs = 0, worst = 5;
    pn_format_t fmt = PN_FORMAT_TEXT;
    const char *output = NULL, *plot = NULL;
    int versions = 0, quiet = 0, durations = 0, roofline = 0, c;
    pn_error_t err;
    pn_error_clear(&err);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":r:s:j:f:o:p:w:qh", longopts, NULL)) != -1) {
        pn_status_t st = PN_OK;
        switch (c) {
        case 'r': st = pn_cli_parse_u64("--runs", optarg, 1, 1000, &runs, &err); break;
        case 's': st = pn_cli_parse_u64("--seed", optarg, 0, UINT64_MAX / 2, &seed, &err); break;
        case 'j': st = pn_cli_parse_u64("--jobs", optarg, 1, 1024, &jobs, &err); break;
        case 'w': st = pn_cli_parse_u64("--worst", optarg, 0, 1000, &worst, &err); break;
        case 'f': st = pn_format_parse(optarg, &fmt, &err); break;
        case 'o': output = optarg; break;
        case 'p': plot = optarg; break;
        case 'V': versions = 1; break;
        case 'D': durations = 1; break;
        case 'R': roofline = 1; break;
        case 'q': quiet = 1; break;
        case 'h': fputs(compare_usage, stdout); return 0;
        default: return pn_cli_option_error("compare", c, argv);
        }
        if (st != PN_OK)
            return pn_cli_value_error("compare", &err);
    }
    if (optind > argc - 2)
        return pn_cli_usage_error("compare", "expected TIMES.csv and CONFIG_DIR, got %d "
                                  "operands", argc - optind);
    const int n_times = argc - optind - 1;
    if (n_times > MAX_TIMES)
        return pn_cli_usage_error("compare", "%d times files: at most %d", n_times, MAX_TIMES);
    if (plot && !pn_plot_name_ok(plot))
        return pn_cli_usage_error("compare", "--plot %s: expected a .svg or .png file name",
                                  plot);
    const char *times = argv[optind], *dir = argv[argc - 1];
    for (int k = 0; k < n_times; k++)
        pn_cli_input(argv[optind + k]);
    pn_csv_t csv = { 0 }, more[MAX_TIMES - 1];
    long mcol[MAX_TIMES - 1][5];
    memset(more, 0, sizeof more);
    entry_t *ents = NULL;
    size_t n_ents = 0;
    pn_compare_t cmp;
    pn_compare_init(&cmp);
    pn_cli_out_t out = { 0 };
    pn_cli_progress_t prog = { 0 };
    int rc = 0;
    long col[5];
    static const char *const cols[5] = { "kernel", "size", "threads", "blocks", "median_us" };
    if (pn_cli_out_check(output, &err) != PN_OK || pn_csv_read(&csv, times, &err) != PN_OK)
        goto fail;
    /* import's table of launches (pnsim import -f csv): ncu's durations, the
     * size a launch's threads in all */
    const int ncu_times = pn_csv_column(&csv, "median_us") < 0 &&
                          pn_csv_column(&csv, "duration_ns") >= 0;
    for (int k = 0; k < 5; k++) {
        const char *name = ncu_times && k == 4 ? "duration_ns" : cols[k];
        if (ncu_times && k == 1) {
            col[1] = -1;
            continue;
        }
        if (pn_csv_require(&csv, name, ncu_times ? "kernel, threads, blocks, duration_ns"
                                                 : "kernel, size, threads, blocks, median_us",
                           &col[k], &err) != PN_OK)
            goto fail;
    }
    /* the measured spread, from one times file with p10_us and p90_us */
    const long c10 = pn_csv_column(&csv, "p10_us"), c90 = pn_csv_column(&csv, "p90_us");
    const int spread = !ncu_times && n_times == 1 && c10 >= 0 && c90 >= 0;
    if (ncu_times && n_times > 1) {
        pn_error_set(&err, PN_EINVAL, "%s: ncu's table of launches (duration_ns) cannot be "
                     "one of several times files: give tables with median_us", times);
        goto fail;
    }
    for (int k = 1; k < n_times; k++)
        if (read_more(&more[k - 1], argv[optind + k], &csv, times, mcol[k - 1], &err) != PN_OK)
            goto fail;
    if (ncu_times)
        fprintf(stderr, "pnsim compare: %s: measured times are ncu's gpu__time_duration; ncu "
                "locks the clocks to base while it profiles (--clock-control base), so they "
                "may run longer than at the clock the device profile predicts\n", times);
    if (scan_dir(dir, &ents, &n_ents, &err) != PN_OK)
        goto fail;
    if (!jobs)
        jobs = pn_engine_cpu_count();
    pn_cli_progress_begin(&prog, "compare", csv.n_rows, 0, quiet);
    for (size_t i = 0; i < csv.n_rows; i++) {
        const pn_csv_row_t *row = &csv.rows[i];
        uint64_t t, b;
        double us, pred = -1, roof = -1;
        const char *bound = NULL;
        if (pn_csv_u64(&csv, row, (size_t)col[2], "threads", 1, 1024, &t, &err) != PN_OK ||
            pn_csv_u64(&csv, row, (size_t)col[3], "blocks", 1, UINT32_MAX, &b, &err) != PN_OK ||
            pn_csv_double(&csv, row, (size_t)col[4], ncu_times ? "duration_ns" : "median_us", 0,
                          &us, &err) != PN_OK ||
            (n_times > 1 && median_of(&csv, more, mcol, n_times - 1, i, col, us, &us, &err) !=
                                PN_OK))
            goto fail;
        char size[32];
        if (ncu_times) {
            us /= 1000;                       /* ns */
            snprintf(size, sizeof size, "%llu", (unsigned long long)(t * b));
        }
        /* ncu's signature or a qualified name: the kernel's own name, as import names configs */
        size_t kl;
        const char *ks = pn_ncu_kernel_name(row->f[col[0]].text, &kl);
        char kernel[512];
        snprintf(kernel, sizeof kernel, "%.*s", (int)kl, ks);
        entry_t *e = take(ents, n_ents, kernel, (uint32_t)t, b);
        if (e && predict(e->path, runs, seed, (unsigned)jobs, durations ? 1 : ncu_times ? 2 : 0,
                         &pred, roofline ? &roof : NULL, &bound, &err) != PN_OK)
            goto fail;
        if (pn_compare_add(&cmp, kernel, ncu_times ? size : row->f[col[1]].text, (uint32_t)t, b,
                           us, pred,
                           e ? e->path : NULL, &err) != PN_OK)
            goto fail;
        if (roof >= 0)
            pn_compare_roofline(&cmp, roof, bound);
        if (spread) {
            double p10, p90;
            if (pn_csv_double(&csv, row, (size_t)c10, "p10_us", 0, &p10, &err) != PN_OK ||
                pn_csv_double(&csv, row, (size_t)c90, "p90_us", 0, &p90, &err) != PN_OK)
                goto fail;
            pn_compare_spread(&cmp, p10, p90);
        }
        pn_cli_progress_one_more(&prog);
        if (pn_cli_stop) {
            pn_error_set(&err, PN_EINTR, "interrupted");
            goto fail;
        }
    }
    pn_cli_progress_end(&prog);
    if (plot && pn_plot_compare(&cmp, plot, &pn_cli_stop, &err) != PN_OK)
        goto fail;
    if (pn_cli_out_open(&out, output, &err) != PN_OK ||
        pn_compare_write(out.f, fmt, &cmp, versions, (size_t)worst, &err) != PN_OK ||
        pn_cli_out_commit(&out, &err) != PN_OK)
        goto fail;
    goto done;
fail:
    pn_cli_progress_end(&prog);
    pn_cli_out_abort(&out);
    rc = pn_cli_fail("compare", &err);
done:
    for (size_t i = 0; i < n_ents; i++)
        free(ents[i].name), free(ents[i].path);
    free(ents);
    pn_compare_destroy(&cmp);
    pn_csv_destroy(&csv);
    for (int k = 0; k + 1 < n_times; k++)
        pn_csv_destroy(&more[k]);
    return rc;
}
