/* cmd_import.c - `pnsim import PROF.csv`: a config of the pipelined net per
 * kernel launch that Nsight Compute profiled. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

#include "cmd_common.h"
#include "pn_commands.h"
#include "pn_ncu.h"
#include "pn_ncu_source.h"
#include "pn_sass_prog.h"

static const char import_usage[] =
    "usage: pnsim import [options] PROF.csv\n"
    "       pnsim import -O DIR --source SOURCE.csv RAW.csv\n"
    "       pnsim import --metrics\n"
    "\n"
    "Read the CSV of Nsight Compute,\n"
    "  ncu --csv --cache-control none --print-metric-instances details \\\n"
    "      --metrics $(pnsim import --metrics) ./app > PROF.csv\n"
    "and write one config of the pipelined net per kernel launch: grid, block,\n"
    "registers, shared bytes, per-warp counts by kind (from the SASS instruction\n"
    "counts and the per-opcode counts: BAR as barriers, MUFU and conversions as\n"
    "sfu), kernel.memory from the sector, request, hit-rate and wavefront metrics,\n"
    "and ncu's occupancy limits beside pnsim's in comments. Nothing is written\n"
    "when the CSV is malformed or a launch lacks a metric.\n"
    "\n"
    "With -O, a kernel profiled at several block sizes for the same number of\n"
    "threads also gets DIR/<kernel>-x<threads in all>.yaml: counts, registers,\n"
    "shared bytes and kernel.memory as expressions of threads through the profiled\n"
    "sizes (exact there), blocks = n / threads, and a sweep over the sizes.\n"
    "\n"
    "With --source (and -O), each launch's warps run its SASS: take one report,\n"
    "  ncu --section SourceCounters --metrics $(pnsim import --metrics) \\\n"
    "      --cache-control none --clock-control none -o REPORT ./app\n"
    "  ncu -i REPORT.ncu-rep --csv --page raw --print-metric-instances details \\\n"
    "      --print-units base --metrics $(pnsim import --metrics) > RAW.csv\n"
    "  ncu -i REPORT.ncu-rep --csv --page source --print-source sass > SOURCE.csv\n"
    "and each config gets kernel.sass, DIR/<kernel>-<threads>x<blocks>-<id>.sass:\n"
    "the launch's instructions with their executions and memory traffic\n"
    "(doc/import.md, doc/dependencies.md); a launch whose table has no\n"
    "Instructions Executed (ncu collected none for it) gets none, and a warning.\n"
    "That report suits a kernel timed launched again and again. For launches\n"
    "timed once each in a program's own flow add --replay-mode application to\n"
    "the first command (every pass runs the whole program, so it finds the\n"
    "caches as the program leaves them) and import with --flushed.\n"
    "\n"
    "Then `pnsim run DIR/<config>.yaml` predicts a launch (its time as CUDA\n"
    "events around it alone see it), and `pnsim compare TIMES.csv DIR` compares\n"
    "a table of measured times (kernel, size, threads, blocks, median_us) with\n"
    "the configs' predictions; add --durations when the times are kernel\n"
    "durations from a profiler (Nsight Systems, CUPTI).\n"
    "\n"
    "options:\n"
    "      --metrics         print the metric list for ncu --metrics and exit\n"
    "  -d, --device NAME     the configs' device (default h100)\n"
    "  -O, --output-dir DIR  write DIR/<kernel>-<threads>x<blocks>-<id>.yaml, one\n"
    "                        config per launch (without it: the configs one after\n"
    "                        another on standard output)\n"
    "  -o, --output FILE     write to FILE instead of standard output (only on\n"
    "                        success): the configs, or with -f the table\n"
    "  -f, --format FMT      yaml (default: the configs; with -O nothing), or csv\n"
    "                        or json: one row per launch (id, kernel, threads,\n"
    "                        blocks, registers, instructions, ncu's duration, the\n"
    "                        config written)\n"
    "  -S, --source FILE     the report's source page: warps run the SASS (needs -O)\n"
    "      --flushed[=HOW]   the launches' measured DRAM traffic is their own: they\n"
    "                        were profiled with ncu's --replay-mode application, or\n"
    "                        timed with the L2 flushed before each (profile those\n"
    "                        with --cache-control all); nothing of a launch's data is\n"
    "                        taken as left in L2 by the one before\n"
    "                        (kernel.memory.flushed). HOW: clean (the default:\n"
    "                        a program's own flow, ncu's own flush, a read of a\n"
    "                        large buffer) or dirty (a benchmark\n"
    "                        that scrubs the L2 by writing, as a memset of an\n"
    "                        L2-sized buffer: llm.c's, nvbench's; the launch writes\n"
    "                        the scrub's dirty lines back)\n"
    "      --warm IDS        with --flushed: these launches (ncu's IDs, as the config\n"
    "                        names end: 3,5,8-11) are timed after another launch of the\n"
    "                        same timed region left their data in L2, not right after\n"
    "                        the flush: their configs say nothing flushed\n"
    "  -h, --help            this help\n";

/* Walk list (--warm: ncu's IDs, comma-separated, a-b for a range): with ncu,
 * mark each ID's launch warm; without, only check the syntax. Returns 0 on a
 * list that is not one, -1 (err set) on an ID not in ncu's report, else 1. */
static int warm_ids(pn_ncu_t *ncu, const char *list, pn_error_t *err)
{
    const char *p = list;
    if (!*p)
        return 0;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p || a < 0 || *p == '-' || *p == '+')
            return 0;
        if (*end == '-') {
            p = end + 1;
            b = strtol(p, &end, 10);
            if (end == p || b < a || *p == '-' || *p == '+')
                return 0;
        }
        if (*end == ',' && end[1])
            end++;
        else if (*end)
            return 0;
        for (long id = a; ncu && id <= b; id++) {
            size_t i = 0;
            while (i < ncu->n_launches && ncu->launches[i].id != id)
                i++;
            if (i == ncu->n_launches) {
                pn_error_set(err, PN_EINVAL, "%s: no launch with ID %ld (--warm)", ncu->path,
                             id);
                return -1;
            }
            ncu->launches[i].warm = 1;
        }
        p = end;
    }
    return 1;
}

static int by_threads(const void *a, const void *b, void *ctx)
{
    const pn_ncu_t *ncu = ctx;
    uint32_t x = ncu->launches[*(const size_t *)a].threads;
    uint32_t y = ncu->launches[*(const size_t *)b].threads;
    return x < y ? -1 : x > y;
}

/* Group the launches by kernel and threads * blocks; write a fitted config
 * (to temporaries in *outs, committed by the caller) for each group of two
 * or more distinct block sizes. */
static pn_status_t write_fitted(const pn_ncu_t *ncu, const char *outdir, const char *device,
                                pn_cli_out_t **outs, size_t *n_outs, pn_error_t *err)
{
    size_t n = ncu->n_launches;
    char *done = calloc(n ? n : 1, 1);
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    *outs = calloc(n ? n : 1, sizeof **outs);
    pn_status_t st = done && idx && *outs ? PN_OK : pn_error_set(err, PN_ENOMEM, "out of memory");
    for (size_t i = 0; i < n && st == PN_OK; i++) {
        if (done[i])
            continue;
        const pn_ncu_launch_t *a = &ncu->launches[i];
        uint64_t total = (uint64_t)a->threads * a->blocks;
        size_t m = 0;
        for (size_t j = i; j < n; j++) {
            const pn_ncu_launch_t *b = &ncu->launches[j];
            if (done[j] || strcmp(a->kernel, b->kernel) || (uint64_t)b->threads * b->blocks != total)
                continue;
            int dup = 0;
            for (size_t q = 0; q < m; q++)
                dup |= ncu->launches[idx[q]].threads == b->threads;
            done[j] = 1;
            if (!dup)
                idx[m++] = j;
        }
        if (m < 2)
            continue;
        /* sort by threads (insertion: a handful of sizes) */
        for (size_t p = 1; p < m; p++)
            for (size_t q = p; q > 0 && by_threads(&idx[q - 1], &idx[q], (void *)ncu) > 0; q--) {
                size_t t = idx[q];
                idx[q] = idx[q - 1];
                idx[q - 1] = t;
            }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s-x%llu.yaml", outdir, a->kernel,
                 (unsigned long long)total);
        pn_cli_out_t *o = &(*outs)[*n_outs];
        st = pn_cli_out_open(o, path, err);
        if (st == PN_OK) {
            (*n_outs)++;
            st = pn_ncu_write_fitted(o->f, ncu, idx, m, device, err);
        }
    }
    free(done);
    free(idx);
    return st;
}

/* The accesses the source page gives no sectors: local loads (LDL), local
 * stores (STL) and texture loads (TEX, TLD, TLD4); -1 for any other op. */
enum { AP_LDL, AP_STL, AP_TEX, AP_N };
static int apart_class(const pn_sass_op_t *op)
{
    if (pn_sass_op_is_local(op))
        return op->in.kind == PN_SASS_GLOBAL_ST ? AP_STL : AP_LDL;
    return pn_sass_op_is_texture(op) ? AP_TEX : -1;
}

/* Program p's local and texture ops without sectors take launch l's sectors per
 * execution of their class (ncu's local-memory and texture sectors over the
 * program's executions of the class), their lines at 4 sectors a line; none
 * where ncu's metric is absent. The accesses the report has no metrics for
 * ("local", "texture", "atomic": global atomics without the L2 atomic unit's)
 * are added to missing. */
static void apart_sectors(const pn_ncu_launch_t *l, pn_sass_prog_t *p, char *missing,
                          size_t size)
{
    static const char *const word[AP_N] = { "local", "local", "texture" };
    static const char *const m[AP_N] = { "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
                                         "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
                                         "l1tex__t_sectors_pipe_tex_mem_texture.sum" };
    double ex[AP_N] = { 0 }, per[AP_N];
    for (size_t i = 0; i < p->n; i++) {
        int c = apart_class(&p->ops[i]);
        if (c >= 0)
            ex[c] += p->ops[i].executed;
    }
    for (int k = 0; k < AP_N; k++) {
        double sec = pn_ncu_metric(l, m[k]);
        per[k] = ex[k] > 0 && sec > 0 ? fmin(sec / ex[k], 32) : 0;
        if (ex[k] > 0 && isnan(sec))
            pn_sass_word_add(missing, size, word[k]);
    }
    double atomics = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->ops[i].in.kind == PN_SASS_ATOM_GLOBAL)
            atomics += p->ops[i].executed;
    if (atomics > 0 && isnan(pn_ncu_metric(l, "lts__d_atomic_input_cycles_active.max")))
        pn_sass_word_add(missing, size, "atomic");
    for (size_t i = 0; i < p->n; i++) {
        pn_sass_op_t *op = &p->ops[i];
        int c = apart_class(op);
        if (c >= 0 && op->sectors == 0 && per[c] > 0) {
            op->sectors = op->executed * per[c];
            op->lines = op->executed * ceil(per[c] / 4);
        }
    }
}

/* The SASS program of launch l from its source table t, written to a
 * temporary of DIR/name (committed by the caller); opcodes pnsim does not
 * know are added to unknown, accesses the report has no metrics for to
 * missing (apart_sectors). */
static pn_status_t write_program(pn_cli_out_t *o, const char *outdir, const char *name,
                                 const pn_ncu_source_t *src, const pn_ncu_sass_table_t *t,
                                 const pn_ncu_t *ncu, const pn_ncu_launch_t *l, char *unknown,
                                 size_t usize, char *missing, size_t msize, pn_error_t *err)
{
    pn_sass_prog_t p; /* named after the source page: errors point into it */
    double warps = (double)l->blocks * ((l->threads + 31) / 32);
    PN_CHECK(pn_sass_prog_init(&p, src->path, l->kernel, warps, err));
    memcpy(p.block, l->block, sizeof p.block);
    pn_status_t st = PN_OK;
    for (size_t r = 0; r < t->n_rows && st == PN_OK; r++) {
        const pn_ncu_sass_row_t *row = &t->rows[r];
        st = pn_sass_prog_add(&p, row->source, row->address, t->rows[0].address, row->executed,
                              row->sectors, row->lines, row->wavefronts, row->line,
                              row->source_col, err);
        if (st != PN_OK)
            break;
        p.ops[p.n - 1].threads = row->thread_executed;
        if (row->shared)
            p.ops[p.n - 1].shared = pn_sass_insn_to_shared(&p.ops[p.n - 1].in);
    }
    /* the page has no local or texture columns */
    if (st == PN_OK)
        apart_sectors(l, &p, missing, msize);
    if (st == PN_OK)
        st = pn_sass_prog_finish(&p, err);
    char path[8192], comment[1024];
    snprintf(path, sizeof path, "%s/%s", outdir, name);
    snprintf(comment, sizeof comment,
             "pnsim import: the SASS of launch %ld of %s (%s, line %ld of %s),\n"
             "grid %u x block %u threads; executed, sectors, lines and wavefronts are\n"
             "totals over the launch (doc/dependencies.md)", l->id, ncu->path, t->kernel,
             t->line, src->path, l->blocks, l->threads);
    if (st == PN_OK && (st = pn_cli_out_open(o, path, err)) == PN_OK)
        st = pn_sass_prog_write(o->f, &p, comment, err);
    if (st == PN_OK)
        for (char *tok = strtok(p.unknown, " "); tok; tok = strtok(NULL, " "))
            pn_sass_word_add(unknown, usize, tok);
    pn_sass_prog_destroy(&p);
    return st;
}

int pn_cmd_import(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "metrics", no_argument, NULL, 'm' },
        { "device", required_argument, NULL, 'd' },
        { "output-dir", required_argument, NULL, 'O' },
        { "output", required_argument, NULL, 'o' },
        { "format", required_argument, NULL, 'f' },
        { "source", required_argument, NULL, 'S' },
        { "flushed", optional_argument, NULL, 'F' },
        { "warm", required_argument, NULL, 'W' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const char *device = "h100", *outdir = NULL, *source = NULL, *output = NULL;
    pn_format_t fmt = PN_FORMAT_TEXT;       /* text: the configs as YAML */
    int flushed = 0;
    const char *warm = NULL;
    pn_error_t err;
    pn_error_clear(&err);
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":d:O:o:f:S:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': pn_ncu_print_metric_list(stdout); return 0;
        case 'd': device = optarg; break;
        case 'O': outdir = optarg; break;
        case 'o': output = optarg; break;
        case 'f':
            /* yaml (text is the same): the configs */
            if (strcmp(optarg, "yaml") != 0 && pn_format_parse(optarg, &fmt, &err) != PN_OK)
                return pn_cli_usage_error("import", "unknown format '%s' (expected yaml, "
                                          "csv or json)", optarg);
            break;
        case 'S': source = optarg; break;
        case 'F':
            if (!optarg || !strcmp(optarg, "clean"))
                flushed = 1;
            else if (!strcmp(optarg, "dirty"))
                flushed = 2;
            else
                return pn_cli_usage_error("import", "--flushed=%s: expected clean or dirty",
                                          optarg);
            break;
        case 'W':
            if (!warm_ids(NULL, optarg, NULL))
                return pn_cli_usage_error("import", "--warm '%s': expected launch IDs as "
                                          "3,5,8-11", optarg);
            warm = optarg;
            break;
        case 'h': fputs(import_usage, stdout); return 0;
        default:
            return pn_cli_option_error("import", c, argv);
        }
    }
    if (optind != argc - 1)
        return pn_cli_usage_error("import", "expected exactly one PROF.csv, got %d",
                                  argc - optind);
    if (warm && !flushed)
        return pn_cli_usage_error("import", "--warm names launches timed after another: "
                                  "give --flushed too");
    if (source && !outdir)
        return pn_cli_usage_error("import", "--source writes program files: give -O DIR");
    struct stat sb;
    if (output && strcmp(output, "-") && stat(output, &sb) == 0 && S_ISDIR(sb.st_mode))
        return pn_cli_usage_error("import", "-o %s: a directory; -o takes a file, -O DIR "
                                  "writes the configs into a folder", output);
    if (output && outdir && fmt == PN_FORMAT_TEXT)
        return pn_cli_usage_error("import", "with -O the configs go to the folder: -o writes "
                                  "the table of launches, give -f csv or json");
    pn_ncu_t ncu;
    pn_ncu_source_t src = { 0 };
    size_t *table_of = NULL;
    pn_cli_out_t *progs = NULL;
    pn_device_t dev = { 0 };
    int rc = 0;
    pn_cli_out_t *outs = NULL, *fitted = NULL, main_out = { 0 };
    char **written = NULL;
    size_t n_fitted = 0;
    pn_cli_input(argv[optind]);
    pn_cli_input(source);
    if (pn_cli_out_check(output, &err) != PN_OK)
        return pn_cli_fail("import", &err);
    if (pn_device_load(&dev, device, NULL, 0, 0, &err) != PN_OK ||
        pn_ncu_read(&ncu, argv[optind], &err) != PN_OK) {
        pn_device_destroy(&dev);
        return pn_cli_fail("import", &err);
    }
    ncu.flushed = flushed;
    if (warm && warm_ids(&ncu, warm, &err) < 0) {
        pn_ncu_destroy(&ncu);
        pn_device_destroy(&dev);
        return pn_cli_fail("import", &err);
    }
    /* a profile of another compute capability than the device's: say so once
     * (the configs predict the device named, not the GPU that was profiled) */
    const char *cap = dev.description ? strstr(dev.description, "compute capability ") : NULL;
    int warned = 0;
    for (size_t i = 0; cap && i < ncu.n_launches; i++) {
        const char *have = cap + strlen("compute capability ");
        const char *cc = ncu.launches[i].cc;
        if (cc[0] && strncmp(have, cc, strlen(cc))) {
            fprintf(stderr, "pnsim import: warning: %s was profiled on a GPU of compute "
                    "capability %s, device %s is %.*s: the configs predict %s\n", argv[optind],
                    cc, device, (int)strspn(have, "0123456789."), have, device);
            warned = 1;
            break;
        }
    }
    /* the same architecture with another number of SMs (an H100 PCIe's 114 against
     * the SXM's 132): its own profile predicts it, this one the device named */
    for (size_t i = 0; !warned && i < ncu.n_launches; i++) {
        double sms = pn_ncu_metric(&ncu.launches[i], "device__attribute_multiprocessor_count");
        if (isfinite(sms) && sms >= 1 && fabs(sms - dev.sms) > 0.5) {
            fprintf(stderr, "pnsim import: warning: %s was profiled on a GPU of %.0f SMs, "
                    "device %s has %u: the configs predict %s (a profile of that GPU: "
                    "examples/probe/README.md)\n", argv[optind], sms, device, dev.sms, device);
            break;
        }
    }
    if (source) {
        table_of = calloc(ncu.n_launches, sizeof *table_of);
        progs = calloc(ncu.n_launches, sizeof *progs);
        if (!table_of || !progs) {
            pn_error_set(&err, PN_ENOMEM, "out of memory");
            goto fail;
        }
        if (pn_ncu_source_read(&src, source, &err) != PN_OK ||
            pn_ncu_source_pair(&src, &ncu, table_of, &err) != PN_OK)
            goto fail;
        for (size_t i = 0; i < ncu.n_launches; i++) {
            if (src.tables[table_of[i]].uncounted) {
                fprintf(stderr, "pnsim import: warning: the source table of launch %ld (%s) has "
                        "no Instructions Executed (ncu collected no SourceCounters for it): "
                        "a counts-only config, without its SASS program\n",
                        ncu.launches[i].id, ncu.launches[i].kernel);
                continue;
            }
            double got = src.tables[table_of[i]].executed;
            double inst = pn_ncu_inst_executed(&ncu.launches[i]);
            /* beyond the slack only a kernel that waits for other blocks pairs */
            int polls = pn_ncu_source_inst_apart(got, inst);
            if (fabs(got - inst) > 0.5)
                fprintf(stderr, "pnsim import: warning: the source table of launch %ld (%s) "
                        "executed %.0f warp instructions, ncu counted %.0f (%+.1f %%): "
                        "simulated as the table has them%s\n", ncu.launches[i].id,
                        ncu.launches[i].kernel, got, inst, 100 * (inst - got) / got,
                        polls ? "; it waits for other blocks, and the one SM simulated "
                                "replays the polls of ncu's pass, which cannot tell how long "
                                "they take when it runs alone" : "");
        }
    }
    if (outdir && mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        pn_error_set(&err, PN_EIO, "%s: cannot create the directory", outdir);
        goto fail;
    }
    outs = calloc(ncu.n_launches, sizeof *outs);
    written = calloc(ncu.n_launches ? ncu.n_launches : 1, sizeof *written);
    if (!outs || !written) {
        pn_error_set(&err, PN_ENOMEM, "out of memory");
        goto fail;
    }
    if (pn_cli_out_open(&main_out, output, &err) != PN_OK)
        goto fail;
    char unknown[256] = "", missing[64] = "";
    size_t n_progs = 0;                     /* configs with a SASS program */
    /* all files written to temporaries first: all or nothing */
    for (size_t i = 0; i < ncu.n_launches; i++) {
        const pn_ncu_launch_t *l = &ncu.launches[i];
        char path[4096], sass[4096];
        if (outdir)
            snprintf(path, sizeof path, "%s/%s-%ux%u-%ld.yaml", outdir, l->kernel, l->threads,
                     l->blocks, l->id);
        snprintf(sass, sizeof sass, "%s-%ux%u-%ld.sass", l->kernel, l->threads, l->blocks,
                 l->id);
        int has_prog = source && !src.tables[table_of[i]].uncounted;
        n_progs += (size_t)has_prog;
        if (has_prog && write_program(&progs[i], outdir, sass, &src, &src.tables[table_of[i]],
                                      &ncu, l, unknown, sizeof unknown, missing, sizeof missing,
                                      &err) != PN_OK)
            goto fail;
        if (!outdir && fmt != PN_FORMAT_TEXT)
            continue;                       /* the table alone */
        FILE *f = main_out.f;
        if (outdir) {
            if (pn_cli_out_open(&outs[i], path, &err) != PN_OK)
                goto fail;
            f = outs[i].f;
            written[i] = strdup(path);
        }
        if (pn_ncu_write_config(f, &ncu, l, device, dev.has_occupancy ? &dev.occ : NULL,
                                has_prog ? sass : NULL, &err) != PN_OK)
            goto fail;
    }
    if (fmt != PN_FORMAT_TEXT)
        pn_ncu_write_table(main_out.f, fmt == PN_FORMAT_CSV, &ncu, written);
    /* a kernel profiled at several block sizes (the same threads in all): one
     * config fitted through them, with a sweep */
    if (outdir && write_fitted(&ncu, outdir, device, &fitted, &n_fitted, &err) != PN_OK)
        goto fail;
    for (size_t i = 0; outdir && i < ncu.n_launches; i++)
        if (pn_cli_out_commit(&outs[i], &err) != PN_OK ||
            (source && pn_cli_out_commit(&progs[i], &err) != PN_OK))
            goto fail;
    for (size_t i = 0; i < n_fitted; i++)
        if (pn_cli_out_commit(&fitted[i], &err) != PN_OK)
            goto fail;
    if (pn_cli_out_commit(&main_out, &err) != PN_OK)
        goto fail;
    if (*unknown)
        fprintf(stderr, "pnsim import: warning: opcodes pnsim does not know, simulated as "
                "arithmetic (doc/dependencies.md): %s\n", unknown);
    if (*missing)
        fprintf(stderr, "pnsim import: warning: the report lacks ncu's metrics for the %s "
                "accesses of some programs, which then take defaults: profile with "
                "$(pnsim import --metrics) of this pnsim (doc/import.md)\n", missing);
    if (outdir) {
        int one = ncu.n_launches == 1;
        if (!source || n_progs == ncu.n_launches)
            fprintf(stderr, "pnsim import: %zu config%s%s in %s, and %zu fitted across block "
                    "sizes\n", ncu.n_launches, one ? "" : "s",
                    !source ? "" : one ? " with its SASS program" : " with their SASS programs",
                    outdir, n_fitted);
        else
            fprintf(stderr, "pnsim import: %zu config%s in %s (%zu with a SASS program), and %zu "
                    "fitted across block sizes\n", ncu.n_launches, one ? "" : "s", outdir, n_progs,
                    n_fitted);
    }
    goto done;
fail:
    for (size_t i = 0; outs && i < ncu.n_launches; i++)
        pn_cli_out_abort(&outs[i]);
    for (size_t i = 0; progs && i < ncu.n_launches; i++)
        pn_cli_out_abort(&progs[i]);
    for (size_t i = 0; i < n_fitted; i++)
        pn_cli_out_abort(&fitted[i]);
    pn_cli_out_abort(&main_out);
    rc = pn_cli_fail("import", &err);
done:
    for (size_t i = 0; written && i < ncu.n_launches; i++)
        free(written[i]);
    free(written);
    free(outs);
    free(fitted);
    free(progs);
    free(table_of);
    pn_ncu_source_destroy(&src);
    pn_ncu_destroy(&ncu);
    pn_device_destroy(&dev);
    return rc;
}
