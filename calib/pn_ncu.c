/* pn_ncu.c - Nsight Compute CSV into launches, launches into configs. */
#include "pn_ncu.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_config_keys.h"
#include "pn_csv.h"
#include "pn_interpolant.h"
#include "pn_sass_insn.h"
#include "pn_sm.h"
#include "pn_yaml.h"

enum {
    M_BLOCK, M_GRID, M_REGS, M_SH_STATIC, M_SH_DYN, M_INST, M_GLD, M_GST, M_GATOM, M_GRED,
    M_SLD, M_SST, M_SATOM, M_SEC_LD, M_REQ_LD, M_SEC_ST, M_REQ_ST, M_L1HIT, M_L2HIT, M_WF_LD,
    M_WF_ST, M_OCC_BLOCKS, M_OCC_REGS, M_OCC_SHARED, M_OCC_WARPS, M_OPCODES, M_TIME, M_SMS,
    M_DRAM_RD, M_DRAM_WR, M_L2_RD, M_LSEC_LD, M_LREQ_LD, M_LSEC_ST, M_LREQ_ST, M_LHIT_LD,
    M_TSEC, M_TREQ, M_THIT, M_ATOM_MAX, M_LTS_CYC, M_WF_DATA_RD, M_WF_TAG_LD, M_IDC, M_COUNT
};

static const char *const metric_names[M_COUNT] = {
    "launch__block_size", "launch__grid_size", "launch__registers_per_thread",
    "launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic",
    "smsp__inst_executed.sum", "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum", "smsp__sass_inst_executed_op_global_atom.sum",
    "smsp__sass_inst_executed_op_global_red.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum", "smsp__sass_inst_executed_op_shared_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct",
    "lts__t_sector_op_read_hit_rate.pct",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "launch__occupancy_limit_blocks", "launch__occupancy_limit_registers",
    "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps",
    "sass__inst_executed_per_opcode", "gpu__time_duration.sum",
    "device__attribute_multiprocessor_count", "dram__sectors_read.sum", "dram__sectors_write.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
    "l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct",
    "l1tex__t_sectors_pipe_tex_mem_texture.sum",
    "l1tex__t_requests_pipe_tex_mem_texture.sum",
    "l1tex__t_sector_pipe_tex_mem_texture_hit_rate.pct",
    "lts__d_atomic_input_cycles_active.max", "lts__cycles_elapsed.avg",
    "l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum",
    "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum", "idc__requests.sum"
};

/* required per launch */
static const int required[] = { M_BLOCK, M_GRID, M_INST, M_GLD, M_GST, M_SLD, M_SST };

/* asked for beside the ones read: ncu's waves, carve-out and cycles, for a reader of the
 * report */
static const char *const extra_metrics[] = { "launch__waves_per_multiprocessor",
                                             "launch__shared_mem_config_size",
                                             "sm__cycles_elapsed.max" };

void pn_ncu_print_metric_list(FILE *out)
{
    for (int m = 0; m < M_COUNT; m++)
        fprintf(out, "%s%s", m ? "," : "", metric_names[m]);
    for (size_t i = 0; i < sizeof extra_metrics / sizeof extra_metrics[0]; i++)
        fprintf(out, ",%s", extra_metrics[i]);
    fputc('\n', out);
}

void pn_ncu_destroy(pn_ncu_t *ncu)
{
    if (!ncu)
        return;
    for (size_t i = 0; i < ncu->n_launches; i++) {
        free(ncu->launches[i].kernel);
        free(ncu->launches[i].value);
    }
    free(ncu->launches);
    free(ncu->path);
    memset(ncu, 0, sizeof *ncu);
}

/* A number with thousands separators ("3,248", "12.5"); 0 on success. */
static int number(const char *s, double *out)
{
    char buf[64];
    size_t n = 0;
    for (; *s && *s != ' ' && *s != '(' && *s != ';' && *s != ')'; s++)
        if (*s != ',' && n + 1 < sizeof buf)
            buf[n++] = *s;
    buf[n] = '\0';
    char *end;
    if (n == 0)
        return -1;
    *out = strtod(buf, &end);
    return *end || !isfinite(*out) ? -1 : 0;
}

/* "(64, 1, 1)" -> 64. */
static int dims(const char *s, uint32_t *out, uint32_t xyz[3])
{
    unsigned long a = 1, b = 1, c = 1;
    if (sscanf(s, " (%lu, %lu, %lu)", &a, &b, &c) < 1)
        return -1;
    unsigned long long p = (unsigned long long)a * b * c;
    if (p == 0 || p > UINT32_MAX)
        return -1;
    *out = (uint32_t)p;
    if (xyz) {
        xyz[0] = (uint32_t)a;
        xyz[1] = (uint32_t)b;
        xyz[2] = (uint32_t)c;
    }
    return 0;
}

/* The pairs of an instanced per-opcode value "N (IMAD: 1,024; BAR: 8; ...)". */
static void opcodes(const char *s, pn_ncu_launch_t *l)
{
    const char *p = strchr(s, '(');
    while (p && *p) {
        p++;
        while (*p == ' ')
            p++;
        const char *colon = strchr(p, ':');
        if (!colon)
            break;
        char op[32];
        size_t n = (size_t)(colon - p) < sizeof op - 1 ? (size_t)(colon - p) : sizeof op - 1;
        memcpy(op, p, n);
        op[n] = '\0';
        double v = 0;
        if (number(colon + 1 + strspn(colon + 1, " "), &v) == 0) {
            if (!strcmp(op, "MUFU"))
                l->mufu += v;
            else if (!strcmp(op, "F2I") || !strcmp(op, "I2F") || !strcmp(op, "F2F") ||
                     !strcmp(op, "FRND"))
                l->conv += v;
            else if (!strcmp(op, "BAR"))
                l->bar += v;
            else if (!strcmp(op, "ATOMS"))
                l->atoms += v;
            else if (!strcmp(op, "ATOMG") || !strcmp(op, "ATOM"))
                l->atomg += v;
            else if (!strcmp(op, "REDG") || !strcmp(op, "RED"))
                l->redg += v;
            else if (pn_sass_opcode_apart(op) != PN_SASS_APART_NONE) {
                bool known;
                if (pn_sass_kind_of(op, &known) == PN_SASS_GLOBAL_ST)
                    l->apart_st += v;
                else
                    l->apart_ld += v;
            }
        }
        p = strchr(colon, ';');
    }
}

enum { K_ARITH, K_SFU, K_SLD, K_SST, K_GLD, K_GST, K_BAR, K_N };
static const char *const kind_keys[K_N] = { "arith", "sfu", "shared_ld", "shared_st",
                                            "global_ld", "global_st", "barriers" };
static void totals(const pn_ncu_launch_t *l, double tot[K_N]);

/* The length of k[0..n) without the group of `open` ... `close` that ends it
 * (nested; a '>' after '-' is an arrow, no bracket); n when k[0..n) does not
 * end in such a group. */
static size_t before_group(const char *k, size_t n, char open, char close)
{
    if (n == 0 || k[n - 1] != close)
        return n;
    size_t depth = 0, i = n;
    while (i-- > 0) {
        depth += k[i] == close && !(close == '>' && i > 0 && k[i - 1] == '-');
        depth -= k[i] == open;
        if (depth == 0)
            break;
    }
    return depth == 0 ? i : n;
}

const char *pn_ncu_kernel_name(const char *k, size_t *len)
{
    size_t n = strlen(k);
    while (n > 0 && k[n - 1] == ' ')
        n--;
    n = before_group(k, n, '(', ')');   /* the parameters */
    while (n > 0 && k[n - 1] == ' ')
        n--;
    n = before_group(k, n, '<', '>');   /* the template arguments */
    /* the last part of the qualified name: after a return type, namespaces, classes */
    size_t b = n;
    while (b > 0 && k[b - 1] != ':' && k[b - 1] != ' ')
        b--;
    if (b == n)
        b = 0;
    *len = n - b;
    return k + b;
}

/* A kernel name pnsim import can write as kernel.name and into a file name:
 * letters, digits, '_', ':' and inner spaces, not a word YAML reads as null
 * (pn_ncu_kernel_name leaves no return type, namespace or template). */
static int kernel_name_ok(const char *k)
{
    if (!*k || *k == ' ' || k[strlen(k) - 1] == ' ' || !strcmp(k, "null") ||
        !strcmp(k, "Null") || !strcmp(k, "NULL"))
        return 0;
    for (; *k; k++)
        if (!(*k >= 'a' && *k <= 'z') && !(*k >= 'A' && *k <= 'Z') &&
            !(*k >= '0' && *k <= '9') && *k != '_' && *k != ':' && *k != ' ')
            return 0;
    return 1;
}

/* The checks of a launch whose required metrics are there: sizes, registers
 * and shared bytes in range, at most PN_SM_MAX_COUNT instructions of a kind
 * per warp (what a config accepts). */
static pn_status_t check_launch(const char *path, pn_ncu_launch_t *l, pn_error_t *err)
{
    if (l->threads > PN_SM_MAX_THREADS)
        return pn_error_at(err, PN_EINVAL, path, l->line, 0,
                           "launch %ld (%s): %u threads per block, above the limit %u", l->id,
                           l->kernel, l->threads, PN_SM_MAX_THREADS);
    static const int u32[] = { M_REGS, M_SH_STATIC, M_SH_DYN };
    for (size_t i = 0; i < sizeof u32 / sizeof u32[0]; i++) {
        double v = l->value[u32[i]];
        if (!isnan(v) && !(v >= 0 && v <= UINT32_MAX))
            return pn_error_at(err, PN_EINVAL, path, l->line, 0,
                               "launch %ld (%s): metric %s: %.10g is not between 0 and "
                               "4294967295", l->id, l->kernel, metric_names[u32[i]], v);
    }
    double tot[K_N], warps = (double)l->blocks * ((l->threads + 31) / 32);
    totals(l, tot);
    for (int k = 0; k < K_N; k++)
        if (!(tot[k] >= 0))
            return pn_error_at(err, PN_EINVAL, path, l->line, 0,
                               "launch %ld (%s): %.10g %s instructions in all, expected a "
                               "count >= 0", l->id, l->kernel, tot[k], kind_keys[k]);
        else if (!(tot[k] / warps + 1 <= (double)PN_SM_MAX_COUNT))
            return pn_error_at(err, PN_EINVAL, path, l->line, 0,
                               "launch %ld (%s): %.10g instructions per warp, above the "
                               "limit %llu of a config", l->id, l->kernel, tot[k] / warps,
                               (unsigned long long)PN_SM_MAX_COUNT);
    l->registers = isnan(l->value[M_REGS]) ? 0 : (uint32_t)l->value[M_REGS];
    double sh = (isnan(l->value[M_SH_STATIC]) ? 0 : l->value[M_SH_STATIC]) +
                (isnan(l->value[M_SH_DYN]) ? 0 : l->value[M_SH_DYN]);
    if (sh > UINT32_MAX)
        return pn_error_at(err, PN_EINVAL, path, l->line, 0,
                           "launch %ld (%s): %.10g shared bytes per block, above 4294967295",
                           l->id, l->kernel, sh);
    l->shared_bytes = (uint32_t)llround(sh);
    return PN_OK;
}

/* Columns of the CSV that name a launch, and of the one-row-per-metric layout. */
typedef struct cols {
    long id, kern, block, grid, name, value, cc;
} cols_t;

/* Factor from a unit of the raw page's units row to the unit pnsim keeps
 * (nanoseconds, bytes); 1 for counts and unknown units. Only the part before
 * a '/' counts: ncu writes shared memory per block as "Kbyte/block" (decimal
 * kilobytes: 32 KiB prints as 32.77). */
static double unit_scale(const char *u)
{
    static const struct { const char *u; double f; } t[] = {
        { "s", 1e9 }, { "second", 1e9 }, { "ms", 1e6 }, { "msecond", 1e6 }, { "us", 1e3 },
        { "usecond", 1e3 }, { "Kbyte", 1e3 }, { "Mbyte", 1e6 }, { "Gbyte", 1e9 }, { "KB", 1e3 },
        { "MB", 1e6 }, { "GB", 1e9 },
    };
    size_t n = strcspn(u, "/");
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strlen(t[i].u) == n && !strncmp(u, t[i].u, n))
            return t[i].f;
    return 1;
}

/* The factor for one value of the raw page. ncu scales each value to its own
 * magnitude but writes one unit per column: in a "Kbyte/block" column a
 * launch with 128 bytes of shared memory shows "128", one with 1 KiB "1.02".
 * So a byte unit applies to values with a fractional part only; a whole
 * number in such a column is bytes. `ncu --print-units base` avoids the
 * question (doc/import.md). */
static double value_scale(const char *unit, const char *value)
{
    double f = unit_scale(unit);
    if (f != 1 && strstr(unit, "byte") && !strchr(value, '.') && !strpbrk(value, "eE"))
        return 1;
    return f;
}

/* The launch a row belongs to: found by ID among those read, or added (a
 * second row of a launch in the one-row-per-launch layout is an error). */
static pn_status_t launch_of(pn_ncu_t *ncu, long **seen, const pn_csv_t *csv,
                             const pn_csv_row_t *row, const cols_t *c, int wide,
                             pn_ncu_launch_t **out, pn_error_t *err)
{
    const char *path = csv->path;
    long id = strtol(row->f[c->id].text, NULL, 10);
    for (size_t i = ncu->n_launches; i-- > 0;)
        if (ncu->launches[i].id == id) {
            if (wide)
                return pn_error_at(err, PN_EINVAL, path, row->line, row->f[c->id].col,
                                   "launch %ld appears twice (first at line %ld)", id,
                                   ncu->launches[i].line);
            *out = &ncu->launches[i];
            return PN_OK;
        }
    pn_ncu_launch_t *nl = realloc(ncu->launches, (ncu->n_launches + 1) * sizeof *nl);
    if (!nl)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    ncu->launches = nl;
    long *ns = realloc(*seen, (ncu->n_launches + 1) * M_COUNT * sizeof *ns);
    if (!ns)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    *seen = ns;
    memset(ns + ncu->n_launches * M_COUNT, 0, M_COUNT * sizeof *ns);
    pn_ncu_launch_t *l = &nl[ncu->n_launches++];
    memset(l, 0, sizeof *l);
    *out = l;
    l->id = id;
    l->line = row->line;
    const char *sig = row->f[c->kern].text, *k;
    size_t kl;
    k = pn_ncu_kernel_name(sig, &kl);
    l->kernel = malloc(kl + 1);
    l->value = malloc(M_COUNT * sizeof *l->value);
    if (!l->kernel || !l->value)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    memcpy(l->kernel, k, kl);
    l->kernel[kl] = '\0';
    if (!kernel_name_ok(l->kernel)) {
        char snip[64];
        pn_yaml_snippet(snip, sizeof snip, sig, strlen(sig));
        return pn_error_at(err, PN_EINVAL, path, row->line, row->f[c->kern].col,
                           "launch %ld: kernel name '%s' is not a C++ name (letters, "
                           "digits, '_', ':', spaces) before its arguments", id, snip);
    }
    for (int m = 0; m < M_COUNT; m++)
        l->value[m] = NAN;
    if (c->cc >= 0)
        snprintf(l->cc, sizeof l->cc, "%.7s", row->f[c->cc].text);
    if (dims(row->f[c->block].text, &l->threads, l->block) ||
        dims(row->f[c->grid].text, &l->blocks, NULL))
        return pn_error_at(err, PN_EINVAL, path, row->line, row->f[c->block].col,
                           "launch %ld: block or grid size '%s' / '%s' is not (x, y, z)", id,
                           row->f[c->block].text, row->f[c->grid].text);
    return PN_OK;
}

/* Metric m of launch l from field `vcol` of row (times scale); a metric twice
 * in one launch is an error (a repeated or conflicting row, never summed). */
static pn_status_t set_metric(pn_ncu_t *ncu, pn_ncu_launch_t *l, long *seen, int m,
                              const pn_csv_row_t *row, long ncol, long vcol, double scale,
                              pn_error_t *err)
{
    const char *path = ncu->path, *val = row->f[vcol].text, *name = metric_names[m];
    long *at = &seen[(size_t)(l - ncu->launches) * M_COUNT + m];
    double again;
    if (*at)
        return pn_error_at(err, PN_EINVAL, path, row->line, row->f[ncol].col,
                           "launch %ld: metric %s appears twice (first at line %ld)%s", l->id,
                           name, *at,
                           number(val, &again) == 0 && again * scale == l->value[m]
                               ? "" : " with a different value");
    *at = row->line;
    if (number(val, &l->value[m]) != 0 || l->value[m] < 0)
        return pn_error_at(err, PN_EINVAL, path, row->line, row->f[vcol].col,
                           "launch %ld: metric %s: expected a number >= 0, got '%s'", l->id,
                           name, val);
    l->value[m] *= scale;
    if (m == M_OPCODES)
        opcodes(val, l);
    return PN_OK;
}

pn_status_t pn_ncu_read(pn_ncu_t *ncu, const char *path, pn_error_t *err)
{
    memset(ncu, 0, sizeof *ncu);
    char *text;
    size_t len;
    if (pn_yaml_read_file_max(path, PN_NCU_FILE_MAX, &text, &len) != PN_OK)
        return pn_error_at(err, PN_EIO, path, 0, 0, "cannot open the ncu CSV: %s",
                           pn_yaml_strerror_max(errno, PN_NCU_FILE_MAX));
    /* keep the CSV lines (they start with a quote) and blank out ncu's own
     * lines, so that line numbers stay those of the file */
    long line = 1, first_other = 0;
    int any_quoted = 0;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        if (!strncmp(text + i, "==ERROR==", 9) || !strncmp(text + i, "==ERR==", 7)) {
            char snip[120];
            pn_yaml_snippet(snip, sizeof snip, text + i, e - i);
            free(text);
            return pn_error_at(err, PN_EINVAL, path, line, 1, "ncu reported an error: %s", snip);
        }
        if (text[i] == '"')
            any_quoted = 1;
        else if (!first_other && e > i && strncmp(text + i, "==", 2))
            first_other = line;
        if (text[i] != '"')
            for (size_t k = i; k < e; k++)
                text[k] = ' ';
        i = e + 1;
        line++;
    }
    if (!any_quoted) {
        /* no line of ncu's CSV (every field quoted): say what was expected */
        free(text);
        return pn_error_at(err, PN_EINVAL, path, first_other ? first_other : 1, 1,
                           "not an Nsight Compute CSV: expected a header row of quoted fields "
                           "\"ID\",\"Process ID\",...,\"Metric Name\",\"Metric Unit\","
                           "\"Metric Value\" (ncu --csv --print-metric-instances details; "
                           "see pnsim import --help)");
    }
    pn_csv_t csv;
    pn_status_t st = pn_csv_parse(&csv, text, len, path, err);
    free(text);
    PN_CHECK(st);
    cols_t c = { .cc = -1, .name = -1, .value = -1 };
    for (size_t i = 0; i < csv.header.n; i++)   /* optional: the compute capability */
        if (!strcmp(csv.header.f[i].text, "CC"))
            c.cc = (long)i;
    /* two layouts: one row per metric (ncu --csv --print-metric-instances
     * details) or one row per launch (ncu -i REPORT --csv --page raw) */
    int wide = pn_csv_column(&csv, "Metric Name") < 0 && pn_csv_column(&csv, "ID") >= 0 &&
               pn_csv_column(&csv, metric_names[M_INST]) >= 0;
    const char *expect = "ID, Kernel Name, Block Size, Grid Size, Metric Name, Metric Value "
                         "(ncu --csv), or one column per metric (ncu -i REPORT --csv --page raw)";
    if ((st = pn_csv_require(&csv, "ID", expect, &c.id, err)) != PN_OK ||
        (st = pn_csv_require(&csv, "Kernel Name", expect, &c.kern, err)) != PN_OK ||
        (st = pn_csv_require(&csv, "Block Size", expect, &c.block, err)) != PN_OK ||
        (st = pn_csv_require(&csv, "Grid Size", expect, &c.grid, err)) != PN_OK ||
        (!wide && (st = pn_csv_require(&csv, "Metric Name", expect, &c.name, err)) != PN_OK) ||
        (!wide && (st = pn_csv_require(&csv, "Metric Value", expect, &c.value, err)) != PN_OK)) {
        pn_csv_destroy(&csv);
        return st;
    }
    ncu->path = pn_yaml_strdup(path);
    long *seen = NULL; /* per launch and metric: the line of its row, 0 if none yet */
    long mcol[M_COUNT];
    for (int m = 0; m < M_COUNT; m++)
        mcol[m] = wide ? pn_csv_column(&csv, metric_names[m]) : -1;
    const pn_csv_row_t *units = NULL;
    for (size_t r = 0; r < csv.n_rows && st == PN_OK; r++) {
        const pn_csv_row_t *row = &csv.rows[r];
        if (wide && !*row->f[c.id].text) { /* the units row under the header */
            units = row;
            continue;
        }
        pn_ncu_launch_t *l = NULL;
        if ((st = launch_of(ncu, &seen, &csv, row, &c, wide, &l, err)) != PN_OK)
            break;
        if (!wide) {
            const char *name = row->f[c.name].text;
            for (int m = 0; m < M_COUNT && st == PN_OK; m++)
                if (!strcmp(name, metric_names[m])) {
                    st = set_metric(ncu, l, seen, m, row, c.name, c.value, 1, err);
                    break;
                }
            continue;
        }
        for (int m = 0; m < M_COUNT && st == PN_OK; m++)
            if (mcol[m] >= 0 && strcmp(row->f[mcol[m]].text, "n/a") && *row->f[mcol[m]].text)
                st = set_metric(ncu, l, seen, m, row, mcol[m], mcol[m],
                                units ? value_scale(units->f[mcol[m]].text,
                                                    row->f[mcol[m]].text) : 1, err);
    }
    for (size_t i = 0; i < ncu->n_launches && st == PN_OK; i++) {
        pn_ncu_launch_t *l = &ncu->launches[i];
        for (size_t q = 0; q < sizeof required / sizeof required[0] && st == PN_OK; q++)
            if (isnan(l->value[required[q]]))
                st = pn_error_at(err, PN_EINVAL, path, l->line, 0,
                                 "launch %ld (%s): missing metric '%s' (pnsim import --metrics "
                                 "lists what ncu must collect)", l->id, l->kernel,
                                 metric_names[required[q]]);
        if (st == PN_OK && !(l->value[M_INST] > 0))
            st = pn_error_at(err, PN_EINVAL, path, l->line, 0,
                             "launch %ld (%s): no instruction executed", l->id, l->kernel);
        if (st == PN_OK)
            st = check_launch(path, l, err);
    }
    if (st == PN_OK && ncu->n_launches == 0)
        st = pn_error_at(err, PN_EINVAL, path, csv.header.line, 1, "no kernel launch in the file");
    free(seen);
    pn_csv_destroy(&csv);
    if (st != PN_OK)
        pn_ncu_destroy(ncu);
    return st;
}

void pn_ncu_occupancy(const pn_ncu_launch_t *l, double out[4])
{
    out[0] = l->value[M_OCC_BLOCKS];
    out[1] = l->value[M_OCC_REGS];
    out[2] = l->value[M_OCC_SHARED];
    out[3] = l->value[M_OCC_WARPS];
}

double pn_ncu_inst_executed(const pn_ncu_launch_t *l)
{
    return l->value[M_INST];
}

static double v0(const pn_ncu_launch_t *l, int m)
{
    return isnan(l->value[m]) ? 0 : l->value[m];
}

static double clampd(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* Lines per access from sectors per access: a mixture of coalesced 4-byte
 * accesses (4 sectors in 1 line) and scattered ones (32 in 32). */
static double lines_of(double spr)
{
    return spr > 4 ? clampd(1 + 31 * (spr - 4) / 28, 1, 32) : 1;
}


/* The launch's instructions by kind, over the whole grid. */
static void totals(const pn_ncu_launch_t *l, double tot[K_N])
{
    tot[K_GLD] = v0(l, M_GLD) + l->atomg;
    tot[K_GST] = v0(l, M_GST) + l->redg + (v0(l, M_GATOM) + v0(l, M_GRED) - l->atomg - l->redg > 0
                                               ? v0(l, M_GATOM) + v0(l, M_GRED) - l->atomg - l->redg
                                               : 0);
    tot[K_SLD] = v0(l, M_SLD) + v0(l, M_SATOM);
    tot[K_SST] = v0(l, M_SST);
    tot[K_SFU] = l->mufu + l->conv;
    tot[K_BAR] = l->bar;
    tot[K_ARITH] = v0(l, M_INST) - tot[K_GLD] - tot[K_GST] - tot[K_SLD] - tot[K_SST] -
                   tot[K_SFU] - tot[K_BAR];
    if (tot[K_ARITH] < 0)
        tot[K_ARITH] = 0;
}

/* How the launch's accesses behave: l1_hit, l2_hit, sectors_ld, sectors_st,
 * lines_ld, lines_st, shared_wavefronts, the DRAM sectors it read per global
 * load and wrote per global store, and the sectors the L1 read from L2 per
 * global load (NAN when not measured; with `sass`, per load or store of the
 * program: the local, texture and surface ones too), and the L1 hit rates of
 * local and texture loads (NAN when not measured or the launch has none), and
 * the nanoseconds the busiest L2 slice's atomic unit is active per warp-level
 * global atomic or reduction (NAN when not measured or none ran), and flushed 1
 * or 2 for launches timed with the L2 flushed before each, cleanly or by a
 * scrub that leaves it dirty (flushed; NAN when 0 or the launch is warm), and
 * with `sass` the L1's wavefronts per global load (l1_ld_wavefronts) and the
 * indexed constant cache's requests per warp (const_requests; NAN when not
 * measured). */
enum { MEM_L1, MEM_L2, MEM_SLD, MEM_SST, MEM_LLD, MEM_LST, MEM_WF, MEM_DLD, MEM_DST, MEM_L2LD,
       MEM_LOCAL_L1, MEM_TEX_L1, MEM_ATOM_NS, MEM_FLUSHED, MEM_LD_WF, MEM_CONST, MEM_N };
static const char *const mem_keys[MEM_N] = { "l1_hit", "l2_hit", "sectors_ld", "sectors_st",
                                             "lines_ld", "lines_st", "shared_wavefronts",
                                             "dram_ld_sectors", "dram_st_sectors",
                                             "l2_ld_sectors", "local_l1_hit",
                                             "texture_l1_hit", "atomic_ns", "flushed",
                                             "l1_ld_wavefronts", "const_requests" };

static void memory_of(const pn_ncu_launch_t *l, int sass, int flushed, double m[MEM_N])
{
    m[MEM_FLUSHED] = flushed && !l->warm ? flushed : NAN;
    double sec_ld = v0(l, M_SEC_LD), req_ld = v0(l, M_REQ_LD), sec_st = v0(l, M_SEC_ST);
    double req_st = v0(l, M_REQ_ST) > 0 ? v0(l, M_REQ_ST) : v0(l, M_GST);
    double sld = v0(l, M_SLD) + v0(l, M_SST) + v0(l, M_SATOM);
    m[MEM_SLD] = req_ld > 0 ? clampd(sec_ld / req_ld, 1, 32) : 4;
    m[MEM_SST] = req_st > 0 && sec_st > 0 ? clampd(sec_st / req_st, 1, 32) : 4;
    m[MEM_L1] = isnan(l->value[M_L1HIT]) ? 0 : clampd(l->value[M_L1HIT] / 100, 0, 1);
    m[MEM_L2] = isnan(l->value[M_L2HIT]) ? 1 : clampd(l->value[M_L2HIT] / 100, 0, 1);
    m[MEM_WF] = sld > 0 && !isnan(l->value[M_WF_LD])
                    ? clampd((v0(l, M_WF_LD) + v0(l, M_WF_ST)) / sld, 1, 32) : 1;
    m[MEM_LLD] = lines_of(m[MEM_SLD]);
    m[MEM_LST] = lines_of(m[MEM_SST]);
    double tot[K_N];
    totals(l, tot);
    if (sass)
        tot[K_GLD] += l->apart_ld, tot[K_GST] += l->apart_st;
    m[MEM_DLD] = !isnan(l->value[M_DRAM_RD]) && tot[K_GLD] > 0
                     ? clampd(l->value[M_DRAM_RD] / tot[K_GLD], 0, 256) : NAN;
    m[MEM_DST] = !isnan(l->value[M_DRAM_WR]) && tot[K_GST] > 0
                     ? clampd(l->value[M_DRAM_WR] / tot[K_GST], 0, 256) : NAN;
    m[MEM_L2LD] = !isnan(l->value[M_L2_RD]) && tot[K_GLD] > 0
                      ? clampd(l->value[M_L2_RD] / tot[K_GLD], 0, 256) : NAN;
    /* the loads' L2 hit rate can be no higher than the DRAM reads allow */
    if (!isnan(m[MEM_DLD]) && !isnan(m[MEM_L2LD]) && m[MEM_L2LD] > 0)
        m[MEM_L2] = fmin(m[MEM_L2], clampd(1 - m[MEM_DLD] / m[MEM_L2LD], 0, 1));
    m[MEM_LOCAL_L1] = !isnan(l->value[M_LHIT_LD]) && v0(l, M_LREQ_LD) > 0
                          ? clampd(l->value[M_LHIT_LD] / 100, 0, 1) : NAN;
    m[MEM_TEX_L1] = !isnan(l->value[M_THIT]) && v0(l, M_TREQ) > 0
                        ? clampd(l->value[M_THIT] / 100, 0, 1) : NAN;
    /* the slice's active cycles at the L2's clock: the launch's L2 cycles over its time */
    double n_atom = v0(l, M_GATOM) + v0(l, M_GRED);
    m[MEM_ATOM_NS] = n_atom > 0 && v0(l, M_ATOM_MAX) > 0 && v0(l, M_LTS_CYC) > 0 &&
                             v0(l, M_TIME) > 0
                         ? clampd(v0(l, M_ATOM_MAX) * v0(l, M_TIME) / v0(l, M_LTS_CYC) / n_atom,
                                  0, 1e6)
                         : NAN;
    /* the L1's cycles for the loads: the busier of its tag stage (the wavefronts it
     * puts out for global loads) and its data stage (the wavefronts that read for
     * local and global loads), per warp-level load as the DRAM reads are */
    m[MEM_LD_WF] = sass && !isnan(l->value[M_WF_DATA_RD]) && !isnan(l->value[M_WF_TAG_LD]) &&
                           tot[K_GLD] > 0
                       ? clampd(fmax(l->value[M_WF_DATA_RD], l->value[M_WF_TAG_LD]) / tot[K_GLD],
                                0, 256)
                       : NAN;
    /* the indexed constant cache's requests: one for each distinct word a warp's
     * LDC reads, per warp of the launch */
    double warps = (double)l->blocks * ((l->threads + 31) / 32);
    m[MEM_CONST] = sass && !isnan(l->value[M_IDC]) && warps > 0
                       ? clampd(l->value[M_IDC] / warps, 0, 1e9)
                       : NAN;
}

static void write_memory(FILE *out, const double m[MEM_N])
{
    fputs("  memory: {", out);
    for (int i = 0; i < MEM_N; i++)
        if (!isnan(m[i]))
            fprintf(out, "%s%s: %.4g", i ? ", " : "", mem_keys[i], m[i]);
    fputs("}\n", out);
}

pn_status_t pn_ncu_write_config(FILE *out, const pn_ncu_t *ncu, const pn_ncu_launch_t *l,
                                const char *device, const pn_occ_rules_t *rules,
                                const char *sass, pn_error_t *err)
{
    const uint32_t W = (l->threads + 31) / 32, B = l->blocks;
    double tot[K_N];
    totals(l, tot);
    /* per block, then over its warps with the remainder on the first warps */
    uint64_t base[K_N], rem[K_N];
    for (int k = 0; k < K_N; k++) {
        uint64_t per_block = (uint64_t)llround(tot[k] / B);
        base[k] = per_block / W;
        rem[k] = per_block % W;
    }
    /* barriers: the same for every warp of a block */
    base[K_BAR] = (uint64_t)llround(tot[K_BAR] / ((double)B * W));
    rem[K_BAR] = 0;
    double mem[MEM_N];
    memory_of(l, sass != NULL, ncu->flushed, mem);
    fprintf(out, "# pnsim import %s: launch %ld of %s, grid %u x block %u threads\n",
            ncu->path, l->id, l->kernel, B, l->threads);
    fprintf(out, "# ncu: %.0f warp instructions, %u registers, %u shared bytes; occupancy "
            "limits blocks %.0f, registers %.0f, shared %.0f, warps %.0f; %.0f ns\n",
            v0(l, M_INST), l->registers, l->shared_bytes, l->value[M_OCC_BLOCKS],
            l->value[M_OCC_REGS], l->value[M_OCC_SHARED], l->value[M_OCC_WARPS],
            l->value[M_TIME]);
    if (rules) {
        pn_occupancy_t o;
        pn_error_t e2;
        if (pn_occupancy(rules, W, l->registers, l->shared_bytes, &o, &e2) == PN_OK)
            fprintf(out, "# pnsim occupancy: limits blocks %u, registers %u, shared %u, warps "
                    "%u: %u resident\n", o.by_blocks, o.by_registers,
                    o.by_shared == UINT32_MAX ? 0 : o.by_shared, o.by_warps, o.resident);
    }
    fprintf(out, "# per warp: global_ld = LDG + ATOMG, global_st = STG + REDG, shared_ld = LDS + "
            "ATOMS, sfu = MUFU + F2I/I2F/F2F/FRND, barriers = BAR, arith = the rest\n");
    fprintf(out, "device: %s\nmodel: {net: pipelined}\nkernel:\n  name: %s\n  threads: %u\n"
            "  blocks: %u\n", device, l->kernel, l->threads, B);
    if (l->registers)
        fprintf(out, "  registers: %u\n", l->registers);
    if (sass)
        fprintf(out, "  sass: %s\n", sass);
    fprintf(out, "  shared_bytes: %u\n  counts: {", l->shared_bytes);
    for (int k = 0; k < K_N; k++)
        fprintf(out, "%s%s: %llu", k ? ", " : "", kind_keys[k], (unsigned long long)base[k]);
    fputs("}\n", out);
    write_memory(out, mem);
    int any = 0;
    for (uint32_t w = 0; w < W; w++) {
        int first = 1;
        for (int k = 0; k < K_N; k++) {
            if (w >= rem[k])
                continue;
            if (!any)
                fputs("  warps:\n", out);
            any = 1;
            if (first)
                fprintf(out, "    - {warp: %u", w);
            first = 0;
            fprintf(out, ", %s: %llu", kind_keys[k], (unsigned long long)(base[k] + 1));
        }
        if (!first)
            fputs("}\n", out);
    }
    fputs("simulation: {runs: 5, seed: 1}\n", out);
    if (ferror(out))
        return pn_error_set(err, PN_EIO, "write error: %s", strerror(errno ? errno : EIO));
    return PN_OK;
}

pn_status_t pn_ncu_write_fitted(FILE *out, const pn_ncu_t *ncu, const size_t *idx, size_t n,
                                const char *device, pn_error_t *err)
{
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    const pn_ncu_launch_t *l0 = &ncu->launches[idx[0]];
    uint64_t total = (uint64_t)l0->threads * l0->blocks;
    fprintf(out, "# pnsim import %s: %s profiled at %zu block sizes with %llu threads in all "
            "(launches", ncu->path, l0->kernel, n, (unsigned long long)total);
    for (size_t i = 0; i < n; i++)
        fprintf(out, " %ld", ncu->launches[idx[i]].id);
    fprintf(out, ")\n# per-warp counts, registers, shared bytes and kernel.memory: "
            "piecewise-linear in threads through the profiled sizes (exact there; memory clamped "
            "to its range)\n");
    fprintf(out, "device: %s\nmodel: {net: pipelined}\nparams: {n: %llu}\nkernel:\n  name: %s\n"
            "  threads: %u\n  blocks: \"n / threads\"\n", device, (unsigned long long)total,
            l0->kernel, l0->threads);
    for (size_t i = 0; i < n; i++)
        x[i] = ncu->launches[idx[i]].threads;
    static const char *const res_keys[2] = { "registers", "shared_bytes" };
    for (int r = 0; r < 2; r++) {
        for (size_t i = 0; i < n; i++)
            y[i] = r ? ncu->launches[idx[i]].shared_bytes : ncu->launches[idx[i]].registers;
        fprintf(out, "  %s: ", res_keys[r]);
        pn_interpolant_write(out, x, y, n, 0, 0);
        fputc('\n', out);
    }
    fputs("  counts:\n", out);
    for (int k = 0; k < K_N; k++) {
        for (size_t i = 0; i < n; i++) {
            const pn_ncu_launch_t *l = &ncu->launches[idx[i]];
            double tot[K_N];
            totals(l, tot);
            y[i] = tot[k] / ((double)l->blocks * ((l->threads + 31) / 32));
        }
        fprintf(out, "    %s: ", kind_keys[k]);
        pn_interpolant_write(out, x, y, n, 0, 0);
        fputc('\n', out);
    }
    fputs("  memory:\n", out);
    for (int q = 0; q < MEM_N; q++) {
        int known = 1;
        for (size_t i = 0; i < n; i++) {
            double m[MEM_N];
            memory_of(&ncu->launches[idx[i]], 0, ncu->flushed, m);
            y[i] = m[q];
            known = known && !isnan(m[q]);
        }
        if (!known)
            continue;
        double lo = 0, hi = 0;
        pn_config_memory_bounds(mem_keys[q], &lo, &hi);
        fprintf(out, "    %s: ", mem_keys[q]);
        pn_interpolant_write(out, x, y, n, lo, hi);
        fputc('\n', out);
    }
    fputs("simulation: {runs: 5, seed: 1}\nsweep:\n  threads: [", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%.0f", i ? ", " : "", x[i]);
    fputs("]\n", out);
    free(x);
    free(y);
    if (ferror(out))
        return pn_error_set(err, PN_EIO, "write error: %s", strerror(errno ? errno : EIO));
    return PN_OK;
}

double pn_ncu_metric(const pn_ncu_launch_t *l, const char *name)
{
    for (int m = 0; m < M_COUNT; m++)
        if (!strcmp(metric_names[m], name))
            return l->value[m];
    return NAN;
}
