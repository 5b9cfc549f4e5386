/* pn_probe.c - a probe CSV turned into a profile's `pipelined:` section. */
#include "pn_probe.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_csv.h"
#include "pn_pipe.h"

const char *const pn_probe_names[PN_PROBE_COUNT] = {
    "clock_mhz", "lat_int", "lat_fp", "lat_sfu", "busy_sfu", "lat_shared_ld", "lat_shared_st",
    "lat_l1", "lat_l2", "lat_dram", "lat_global_st", "tput_lsu_sectors",
    "tput_shared_wavefronts", "tput_dram_sectors", "inflight_loads", "barrier_w1",
    "launch_overhead_us", "tput_int", "tput_fp", "block_launch", "dram_line_sectors",
    "tput_l2_ld4_sectors", "tput_l2_ld128_sectors", "tput_l2_st4_sectors",
    "tput_l2_st128_sectors", "tput_l2_red4_sectors", "tput_l2_read_sectors",
    "tput_l2_write_sectors", "atomic_line_1", "atomic_line_2", "atomic_line_4",
    "atomic_line_8", "atomic_line_16", "atomic_line_64", "atomic_line_256",
    "resident_copy_8", "resident_copy_16", "resident_copy_24", "resident_copy_32",
    "resident_copy_36", "resident_copy_40", "resident_copy_44", "resident_copy_48",
    "resident_copy_56", "resident_copy_64", "resident_copy_96", "pipe_iadd3", "pipe_imad",
    "tensor_m16n8k8_f32", "tensor_m16n8k16_f32", "lat_tensor_m16n8k8_f32",
    "lat_tensor_m16n8k16_f32", "pipe_dfma", "lat_dfma", "block_launch_1024"
};

/* The footprints (MiB) of probe resident_copy_F, in the order of their ids. */
static const double resident_mibs[] = { 8, 16, 24, 32, 36, 40, 44, 48, 56, 64, 96 };

/* The footprint (MiB) at which a copy launched again and again stops finding its
 * data in L2: each resident_copy_F row (sectors a cycle over a launch, the
 * launch overhead included) as a rate without the overhead; where the rates
 * past the best one cross halfway from the best to the largest footprint's,
 * interpolated linearly; 0 without two rows or a crossing. */
static double resident_mib(const pn_probe_t *pr)
{
    const double *v = pr->value;
    double F[11], eff[11];
    int n = 0, best = 0;
    for (int k = PN_PROBE_RESIDENT_COPY_8; k <= PN_PROBE_RESIDENT_COPY_LAST; k++) {
        if (!pr->line[k] || !(v[k] > 0))
            continue;
        double f = resident_mibs[k - PN_PROBE_RESIDENT_COPY_8];
        double sectors = f * 1048576 / 32, t = sectors / (v[k] * v[PN_PROBE_CLOCK_MHZ]);
        if (!(t > v[PN_PROBE_LAUNCH_OVERHEAD_US]))
            continue;
        F[n] = f;
        eff[n] = sectors / ((t - v[PN_PROBE_LAUNCH_OVERHEAD_US]) * v[PN_PROBE_CLOCK_MHZ]);
        best = eff[n] > eff[best] ? n : best;
        n++;
    }
    if (n < 2)
        return 0;
    double mid = (eff[best] + eff[n - 1]) / 2;
    for (int i = best + 1; i < n; i++)
        if (eff[i] < mid)
            return F[i - 1] + (F[i] - F[i - 1]) * (eff[i - 1] - mid) / (eff[i - 1] - eff[i]);
    return 0;
}

/* The lines of probe atomic_line_L, in the order of the PN_PROBE_ATOMIC_LINE ids. */
static const double atomic_lines[] = { 1, 2, 4, 8, 16, 64, 256 };


/* Copy the text after "# <key>" and ':' on a comment line into dst. */
static void comment_value(const char *text, const char *key, char *dst, size_t size)
{
    size_t kl = strlen(key);
    for (const char *s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
        if (s[0] != '#')
            continue;
        const char *p = s + 1;
        while (*p == ' ')
            p++;
        if (strncmp(p, key, kl) != 0)
            continue;
        const char *colon = strchr(p, ':'), *nl = strchr(p, '\n');
        if (!colon || (nl && colon > nl))
            continue;
        colon++;
        while (*colon == ' ')
            colon++;
        size_t n = nl ? (size_t)(nl - colon) : strlen(colon);
        if (n >= size)
            n = size - 1;
        memcpy(dst, colon, n);
        dst[n] = '\0';
        return;
    }
}

/* A row sm_l2_read_B or sm_l2_write_B (name in column cp, value in cv) into
 * pr's tables, kept sorted by B; other sm_l2_ names are ignored. */
static pn_status_t sm_l2_row(pn_probe_t *pr, const pn_csv_t *csv, const pn_csv_row_t *row,
                             long cp, long cv, const char *path, pn_error_t *err)
{
    const char *name = row->f[cp].text, *tail;
    int w;
    if (!strncmp(name + 6, "read_", 5))
        w = 0, tail = name + 11;
    else if (!strncmp(name + 6, "write_", 6))
        w = 1, tail = name + 12;
    else
        return PN_OK;
    char *end;
    long b = strtol(tail, &end, 10);
    if (end == tail || *end || b < 1 || b > 100000)
        return pn_error_at(err, PN_EINVAL, path, row->line, row->f[cp].col,
                           "probe '%s': expected sm_l2_%s_B with B busy SMs from 1 to 100000",
                           name, w ? "write" : "read");
    double v;
    PN_CHECK(pn_csv_double(csv, row, (size_t)cv, name, 0, &v, err));
    double (*t)[2] = pr->sm_l2[w];
    int n = pr->n_sm_l2[w], at = 0;
    while (at < n && t[at][0] < (double)b)
        at++;
    if (at < n && t[at][0] == (double)b)
        return pn_error_at(err, PN_EINVAL, path, row->line, row->f[cp].col,
                           "probe '%s' given twice", name);
    if (n == PN_PD_MAX_TABLE_ROWS)
        return pn_error_at(err, PN_EINVAL, path, row->line, row->f[cp].col,
                           "probe '%s': at most %d sm_l2_%s_B rows", name, PN_PD_MAX_TABLE_ROWS,
                           w ? "write" : "read");
    memmove(t[at + 1], t[at], (size_t)(n - at) * sizeof t[0]);
    t[at][0] = (double)b, t[at][1] = v;
    pr->n_sm_l2[w] = n + 1;
    return PN_OK;
}

pn_status_t pn_probe_read(pn_probe_t *pr, const char *path, pn_error_t *err)
{
    memset(pr, 0, sizeof *pr);
    pn_csv_t csv;
    PN_CHECK(pn_csv_read(&csv, path, err));
    FILE *f = fopen(path, "rb");
    if (f) {
        char head[8192];
        size_t n = fread(head, 1, sizeof head - 1, f);
        head[n] = '\0';
        fclose(f);
        comment_value(head, "gpu", pr->gpu, sizeof pr->gpu);
        comment_value(head, "date", pr->date, sizeof pr->date);
    }
    const char *expected = "probe,value,unit,detail";
    long cp, cv;
    pn_status_t st = pn_csv_require(&csv, "probe", expected, &cp, err);
    if (st == PN_OK)
        st = pn_csv_require(&csv, "value", expected, &cv, err);
    for (size_t i = 0; st == PN_OK && i < csv.n_rows; i++) {
        const pn_csv_row_t *row = &csv.rows[i];
        const char *name = row->f[cp].text;
        if (!strncmp(name, "sm_l2_", 6)) {
            st = sm_l2_row(pr, &csv, row, cp, cv, path, err);
            continue;
        }
        for (int k = 0; k < PN_PROBE_COUNT; k++) {
            if (strcmp(name, pn_probe_names[k]) != 0)
                continue;
            if (pr->line[k]) {
                st = pn_error_at(err, PN_EINVAL, path, row->line, row->f[cp].col,
                                 "probe '%s' given twice (first on line %ld)", name, pr->line[k]);
                break;
            }
            st = pn_csv_double(&csv, row, (size_t)cv, name, 0, &pr->value[k], err);
            pr->line[k] = row->line;
            break;
        }
    }
    for (int k = 0; st == PN_OK && k < PN_PROBE_REQUIRED; k++)
        if (!pr->line[k])
            st = pn_error_at(err, PN_EINVAL, path, csv.header.line, 1,
                             "missing probe '%s' (the probe suite writes every one: "
                             "examples/probe/README.md)", pn_probe_names[k]);
    pn_csv_destroy(&csv);
    return st;
}

static unsigned steps(double cycles, unsigned lo)
{
    double r = round(cycles);
    return r < lo ? lo : (unsigned)r;
}

/* One line "<indent><key>: <value>" padded to a column, then "# <note>". */
static void line(FILE *out, const char *indent, const char *key, const char *value,
                 const char *note)
{
    char buf[640];
    snprintf(buf, sizeof buf, "%s%s: %s", indent, key, value);
    fprintf(out, "%-27s # %s\n", buf, note);
}

/* Append the row [x, y] to the table text s (of size bytes, "[" when empty). */
static void add_row(char *s, size_t size, double x, double y)
{
    size_t at = strlen(s);
    snprintf(s + at, size - at, "%s[%g, %.4g]", at > 1 ? ", " : "", x, y);
}

/* PN_EINVAL when a probe that becomes a number of steps gives more than the
 * profile accepts (and more than an unsigned holds). */
static pn_status_t check_steps(const pn_probe_t *pr, const char *source, pn_error_t *err)
{
    static const struct { int probe; double max; } lim[] = {
        { PN_PROBE_LAT_INT, PN_PIPE_MAX_LATENCY }, { PN_PROBE_LAT_FP, PN_PIPE_MAX_LATENCY },
        { PN_PROBE_LAT_SFU, PN_PIPE_MAX_LATENCY }, { PN_PROBE_LAT_SHARED_LD, PN_PIPE_MAX_LATENCY },
        { PN_PROBE_LAT_SHARED_ST, PN_PIPE_MAX_LATENCY }, { PN_PROBE_LAT_L1, PN_PIPE_MAX_LATENCY },
        { PN_PROBE_LAT_L2, PN_PIPE_MAX_LATENCY }, { PN_PROBE_LAT_DRAM, PN_PIPE_MAX_LATENCY },
        { PN_PROBE_LAT_GLOBAL_ST, PN_PIPE_MAX_LATENCY },
        { PN_PROBE_BARRIER_W1, PN_PIPE_MAX_LATENCY - 1 }, { PN_PROBE_INFLIGHT_LOADS, 1048576 },
    };
    for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
        if (round(pr->value[lim[i].probe]) > lim[i].max)
            return pn_error_at(err, PN_EINVAL, source, pr->line[lim[i].probe], 0,
                               "probe %s: %.6g is above %.0f, the most a profile accepts",
                               pn_probe_names[lim[i].probe], pr->value[lim[i].probe],
                               lim[i].max);
    return PN_OK;
}

pn_status_t pn_probe_write_section(FILE *out, const pn_probe_t *pr, unsigned partitions,
                                   const char *source, pn_error_t *err)
{
    const double *v = pr->value;
    char val[64], note[160];
    PN_CHECK(check_steps(pr, source, err));
    fprintf(out, "%-28s# pnsim probe %s%s%s%s%s%s\n", "pipelined:", source, pr->gpu[0] ? " (" : "",
            pr->gpu, pr->date[0] ? ", " : "", pr->date, pr->gpu[0] ? ")" : "");
    snprintf(val, sizeof val, "%.6g", v[PN_PROBE_CLOCK_MHZ]);
    line(out, "  ", "clock_mhz", val, "probe clock_mhz");
    snprintf(val, sizeof val, "%u", partitions);
    line(out, "  ", "partitions", val, "documentation: warp schedulers per SM (the profile's)");
    line(out, "  ", "issue", "1", "documentation: one instruction per scheduler and cycle");
    snprintf(val, sizeof val, "%.6g", v[PN_PROBE_LAUNCH_OVERHEAD_US]);
    line(out, "  ", "launch_us", val, "probe launch_overhead_us");
    fprintf(out, "  latency:\n");
    static const struct { const char *key; int probe; unsigned lo; } lat[] = {
        { "sfu", PN_PROBE_LAT_SFU, 2 }, { "shared_ld", PN_PROBE_LAT_SHARED_LD, 2 },
        { "shared_st", PN_PROBE_LAT_SHARED_ST, 2 }, { "l1", PN_PROBE_LAT_L1, 3 },
        { "l2", PN_PROBE_LAT_L2, 3 }, { "dram", PN_PROBE_LAT_DRAM, 3 },
        { "global_st", PN_PROBE_LAT_GLOBAL_ST, 2 },
    };
    snprintf(val, sizeof val, "%u", steps((v[PN_PROBE_LAT_INT] + v[PN_PROBE_LAT_FP]) / 2, 2));
    snprintf(note, sizeof note, "probes lat_int %.4g, lat_fp %.4g (their mean)",
             v[PN_PROBE_LAT_INT], v[PN_PROBE_LAT_FP]);
    line(out, "    ", "arith", val, note);
    for (size_t i = 0; i < sizeof lat / sizeof lat[0]; i++) {
        snprintf(val, sizeof val, "%u", steps(v[lat[i].probe], lat[i].lo));
        snprintf(note, sizeof note, "probe %s %.4g", pn_probe_names[lat[i].probe],
                 v[lat[i].probe]);
        line(out, "    ", lat[i].key, val, note);
    }
    /* a barrier alone costs L_bar - 1 steps to one warp (PIPELINED.md) */
    snprintf(val, sizeof val, "%u", steps(v[PN_PROBE_BARRIER_W1] + 1, 5));
    snprintf(note, sizeof note, "probe barrier_w1 %.4g + 1 (one warp loses L_bar - 1 a barrier)",
             v[PN_PROBE_BARRIER_W1]);
    line(out, "    ", "barrier", val, note);
    static const struct { const char *key; int probe; const char *what; } tput[] = {
        { "sfu_busy", PN_PROBE_BUSY_SFU, "" },
        { "lsu_sectors", PN_PROBE_TPUT_LSU_SECTORS, "" },
        { "shared_wavefronts", PN_PROBE_TPUT_SHARED_WAVEFRONTS, "" },
        { "dram_sectors", PN_PROBE_TPUT_DRAM_SECTORS, " (whole device)" },
    };
    for (size_t i = 0; i < sizeof tput / sizeof tput[0]; i++) {
        snprintf(val, sizeof val, "%.4g", v[tput[i].probe]);
        snprintf(note, sizeof note, "probe %s%s", pn_probe_names[tput[i].probe], tput[i].what);
        line(out, "  ", tput[i].key, val, note);
    }
    double alu = (v[PN_PROBE_TPUT_INT] + v[PN_PROBE_TPUT_FP]) / 2;
    snprintf(val, sizeof val, "%.4g", partitions / alu < 1 ? 1.0 : partitions / alu);
    snprintf(note, sizeof note, "partitions / mean of probes tput_int %.4g, tput_fp %.4g",
             v[PN_PROBE_TPUT_INT], v[PN_PROBE_TPUT_FP]);
    line(out, "  ", "arith_busy", val, note);
    snprintf(val, sizeof val, "%.4g", v[PN_PROBE_BLOCK_LAUNCH]);
    line(out, "  ", "block_launch", val, "probe block_launch (examples/probe/block_launch.cu)");
    if (pr->line[PN_PROBE_BLOCK_LAUNCH_1024]) {
        snprintf(val, sizeof val, "%.4g", v[PN_PROBE_BLOCK_LAUNCH_1024]);
        line(out, "  ", "block_launch_1024", val,
             "probe block_launch_1024 (the same probe, empty blocks of 1024 threads; blocks of "
             "more than 512 threads)");
    }
    snprintf(val, sizeof val, "%u", steps(v[PN_PROBE_INFLIGHT_LOADS], 1));
    line(out, "  ", "inflight", val, "probe inflight_loads");
    if (pr->line[PN_PROBE_DRAM_LINE_SECTORS]) {
        snprintf(val, sizeof val, "%.4g", v[PN_PROBE_DRAM_LINE_SECTORS] > 32
                                              ? 32.0 : v[PN_PROBE_DRAM_LINE_SECTORS]);
        line(out, "  ", "dram_line_sectors", val,
             "probe dram_line_sectors (examples/probe/dram_random.cu)");
    }
    /* whole lines: the streaming probes (rw_mix.cu) where present */
    int rd = pr->line[PN_PROBE_L2_READ] ? PN_PROBE_L2_READ : PN_PROBE_L2_LD128;
    int wr = pr->line[PN_PROBE_L2_WRITE] ? PN_PROBE_L2_WRITE : PN_PROBE_L2_ST128;
    const struct { const char *key; int probe; } l2[] = {
        { "l2_sectors", PN_PROBE_L2_LD4 },
        { "l2_line_sectors", rd },
        { "l2_store_sectors", PN_PROBE_L2_ST4 },
        { "l2_store_line_sectors", wr },
        { "l2_atomic_sectors", PN_PROBE_L2_RED4 },
    };
    /* reads in whole lines: the per-SM probe's rate on its most SMs (sm_l2.cu,
     * launches of half a millisecond) times those SMs where that is more than the
     * streaming probe's (a 43 us launch, its ramp and tail included) */
    double all_read = 0;
    if (pr->n_sm_l2[0] > 0)
        all_read = pr->sm_l2[0][pr->n_sm_l2[0] - 1][0] * pr->sm_l2[0][pr->n_sm_l2[0] - 1][1];
    for (size_t i = 0; i < sizeof l2 / sizeof l2[0]; i++)
        if (pr->line[l2[i].probe]) {
            snprintf(val, sizeof val, "%.4g", v[l2[i].probe]);
            snprintf(note, sizeof note, "probe %s (whole device; examples/probe/%s)",
                     pn_probe_names[l2[i].probe],
                     l2[i].probe >= PN_PROBE_L2_READ ? "rw_mix.cu" : "l2_access.cu");
            if (l2[i].probe == rd && all_read > v[rd]) {
                snprintf(val, sizeof val, "%.4g", all_read);
                snprintf(note, sizeof note, "probes sm_l2_read_%.0f x %.0f SMs "
                         "(examples/probe/sm_l2.cu; %s %.4g in a short launch)",
                         pr->sm_l2[0][pr->n_sm_l2[0] - 1][0], pr->sm_l2[0][pr->n_sm_l2[0] - 1][0],
                         pn_probe_names[rd], v[rd]);
            }
            line(out, "  ", l2[i].key, val, note);
        }
    char rows[256] = "[";
    for (int k = PN_PROBE_ATOMIC_LINE_1; k <= PN_PROBE_ATOMIC_LINE_LAST; k++)
        if (pr->line[k])
            add_row(rows, sizeof rows, atomic_lines[k - PN_PROBE_ATOMIC_LINE_1], v[k]);
    if (strlen(rows) > 1) {
        strcat(rows, "]");
        line(out, "  ", "atomic_lines", rows,
             "probes atomic_line_L: [L, cycles a line per access] (examples/probe/rw_mix.cu)");
    }
    /* HMMA by its depth K: the probes' m16n8k8 and m16n8k16 (FP32 accumulators) */
    for (int tl = 0; tl < 2; tl++) {
        int k8 = tl ? PN_PROBE_LAT_TENSOR_K8 : PN_PROBE_TENSOR_K8;
        char t[128] = "[";
        for (int k = 0; k < 2; k++)
            if (pr->line[k8 + k])
                add_row(t, sizeof t, k ? 16 : 8, v[k8 + k]);
        if (strlen(t) > 1) {
            strcat(t, "]");
            line(out, "  ", tl ? "tensor_latency" : "tensor_busy", t,
                 tl ? "probes lat_tensor_m16n8k8_f32, _k16_f32: [K, cycles an HMMA to its "
                       "result] (examples/probe/tensor.cu)"
                     : "probes tensor_m16n8k8_f32, _k16_f32: [K, cycles a partition per HMMA] "
                       "(examples/probe/tensor.cu)");
        }
    }
    for (int w = 0; w < 2; w++) {
        if (pr->n_sm_l2[w] < 1)
            continue;
        char sm[512] = "[";
        for (int k = 0; k < pr->n_sm_l2[w]; k++)
            add_row(sm, sizeof sm, pr->sm_l2[w][k][0], pr->sm_l2[w][k][1]);
        strcat(sm, "]");
        line(out, "  ", w ? "l2_sm_write" : "l2_sm_read", sm,
             w ? "probes sm_l2_write_B: the same for writes (examples/probe/sm_l2.cu)"
               : "probes sm_l2_read_B: [busy SMs, sectors a cycle an SM reads from L2 in "
                 "whole lines] (examples/probe/sm_l2.cu)");
    }
    /* steps of a pipe (at least 1), or a latency in whole steps */
    static const struct { const char *key, *file; int probe, whole; } busy[] = {
        { "alu_busy", "alu_pipes", PN_PROBE_PIPE_IADD3, 0 },
        { "fmaheavy_busy", "alu_pipes", PN_PROBE_PIPE_IMAD, 0 },
        { "fp64_busy", "fp64", PN_PROBE_PIPE_DFMA, 0 },
        { "fp64_latency", "fp64", PN_PROBE_LAT_DFMA, 1 },
    };
    for (size_t i = 0; i < sizeof busy / sizeof busy[0]; i++)
        if (pr->line[busy[i].probe]) {
            double b = v[busy[i].probe];
            b = b < 1 ? 1.0 : b;
            snprintf(val, sizeof val, busy[i].whole ? "%.0f" : "%.4g", busy[i].whole ? round(b) : b);
            snprintf(note, sizeof note, "probe %s (examples/probe/%s.cu)",
                     pn_probe_names[busy[i].probe], busy[i].file);
            line(out, "  ", busy[i].key, val, note);
        }
    double keep = resident_mib(pr);
    if (keep > 0) {
        snprintf(val, sizeof val, "%.3g", keep);
        line(out, "  ", "l2_resident_mib", val,
             "probes resident_copy_8..96: halfway from L2 to DRAM (examples/probe/rw_mix.cu)");
    }
    if (ferror(out))
        return pn_error_set(err, PN_EIO, "write error: %s", strerror(errno ? errno : EIO));
    return PN_OK;
}
