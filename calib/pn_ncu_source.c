/* pn_ncu_source.c - Nsight Compute's source page into tables of SASS rows. */
#include "pn_ncu_source.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_ncu.h"
#include "pn_sass_insn.h"
#include "pn_yaml.h"

/* Columns a table needs, and those it may have. */
enum { C_ADDR, C_SRC, C_EXEC, C_TEXEC, C_SECT, C_LINES, C_WAVES, C_SPACE, C_N };
static const char *const col_names[C_N] = {
    "Address", "Source", "Instructions Executed", "Thread Instructions Executed",
    "L2 Theoretical Sectors Global", "L1 Tag Requests Global", "L1 Wavefronts Shared",
    "Address Space"
};
#define C_REQUIRED 3

/* A line cut into fields in place: each field unquoted ("" -> "), its column. */
typedef struct fields {
    char **f;
    long *col;
    size_t n, cap;
} fields_t;

static int fields_push(fields_t *fs, char *f, long col)
{
    if (fs->n == fs->cap) {
        size_t cap = fs->cap ? 2 * fs->cap : 64;
        char **nf = realloc(fs->f, cap * sizeof *nf);
        if (!nf)
            return -1;
        fs->f = nf;
        long *nc = realloc(fs->col, cap * sizeof *nc);
        if (!nc)
            return -1;
        fs->col = nc;
        fs->cap = cap;
    }
    fs->f[fs->n] = f;
    fs->col[fs->n++] = col;
    return 0;
}

/* Split line [p, e) (every field quoted, separated by ','; a trailing ','
 * ends the line) into fs. Returns 0, or the 1-based column of a syntax error
 * (*what says which), or -1 when out of memory. */
static long split(char *p, char *e, fields_t *fs, const char **what)
{
    char *line = p;
    fs->n = 0;
    while (p < e) {
        if (*p != '"') {
            *what = "expected a quoted field";
            return p - line + 1;
        }
        char *start = ++p, *w = p;
        for (;;) {
            if (p >= e) {
                *what = "unterminated quoted field";
                return start - line;
            }
            if (*p == '"') {
                if (p + 1 < e && p[1] == '"') {
                    *w++ = '"';
                    p += 2;
                    continue;
                }
                break;
            }
            *w++ = *p++;
        }
        *w = '\0';
        if (fields_push(fs, start, start - line + 1) != 0)
            return -1;
        p++;                      /* the closing quote */
        if (p < e && *p != ',') {
            *what = "unexpected character after a quoted field";
            return p - line + 1;
        }
        if (p < e)
            p++;
    }
    return 0;
}

/* A count: digits with optional thousands separators and a fraction; "-" and
 * "" read 0 when dash_ok. 0 on success. */
static int count(const char *s, int dash_ok, double *out)
{
    if (dash_ok && (!*s || !strcmp(s, "-") || !strcmp(s, "n/a"))) {
        *out = 0;
        return 0;
    }
    char buf[64];
    size_t n = 0;
    for (; *s; s++)
        if (*s != ',') {
            if (n + 1 >= sizeof buf)
                return -1;
            buf[n++] = *s;
        }
    buf[n] = '\0';
    if (n == 0 || buf[0] == '-' || buf[0] == '+')
        return -1;
    char *end;
    errno = 0;
    *out = strtod(buf, &end);
    return *end || errno || !isfinite(*out) || *out < 0 ? -1 : 0;
}

void pn_ncu_source_destroy(pn_ncu_source_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_tables; i++)
        free(s->tables[i].rows);
    free(s->tables);
    free(s->buf);
    free(s->path);
    memset(s, 0, sizeof *s);
}

static pn_status_t add_table(pn_ncu_source_t *s, const char *kernel, long line, pn_error_t *err)
{
    pn_ncu_sass_table_t *nt = realloc(s->tables, (s->n_tables + 1) * sizeof *nt);
    if (!nt)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    s->tables = nt;
    memset(&nt[s->n_tables], 0, sizeof *nt);
    nt[s->n_tables].kernel = kernel;
    nt[s->n_tables++].line = line;
    return PN_OK;
}

static pn_status_t add_row(pn_ncu_sass_table_t *t, size_t *cap, const pn_ncu_sass_row_t *r,
                           pn_error_t *err)
{
    if (t->n_rows == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        pn_ncu_sass_row_t *nr = realloc(t->rows, nc * sizeof *nr);
        if (!nr)
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        t->rows = nr;
        *cap = nc;
    }
    t->rows[t->n_rows++] = *r;
    t->executed += r->executed;
    return PN_OK;
}

/* One data row of table t under header columns col[]. */
static pn_status_t parse_row(const pn_ncu_source_t *s, pn_ncu_sass_table_t *t, size_t *cap,
                             const fields_t *fs, const long col[C_N], size_t width, long line,
                             pn_error_t *err)
{
    if (fs->n != width)
        return pn_error_at(err, PN_EINVAL, s->path, line, 1,
                           "row has %zu fields, the header of this table has %zu", fs->n,
                           width);
    pn_ncu_sass_row_t r = { .line = line };
    const char *a = fs->f[col[C_ADDR]];
    char *end;
    errno = 0;
    r.address = strtoull(a, &end, 16);
    if (strncmp(a, "0x", 2) || end == a + 2 || *end || errno)
        return pn_error_at(err, PN_EINVAL, s->path, line, fs->col[col[C_ADDR]],
                           "Address: expected a hexadecimal address 0x..., got '%.40s'", a);
    if (t->n_rows > 0 && r.address <= t->rows[t->n_rows - 1].address)
        return pn_error_at(err, PN_EINVAL, s->path, line, fs->col[col[C_ADDR]],
                           "Address %s is not above the row before it (line %ld): the rows "
                           "of a table must be in address order", a,
                           t->rows[t->n_rows - 1].line);
    char *src = fs->f[col[C_SRC]];
    while (*src == ' ' || *src == '\t')
        src++;
    size_t sl = strlen(src);
    while (sl > 0 && (src[sl - 1] == ' ' || src[sl - 1] == '\t'))
        src[--sl] = '\0';
    r.source = src;
    r.source_col = fs->col[col[C_SRC]] + (src - fs->f[col[C_SRC]]);
    double *dst[C_SPACE] = { NULL, NULL, &r.executed, &r.thread_executed, &r.sectors, &r.lines,
                             &r.wavefronts };
    for (int c = C_EXEC; c < C_SPACE; c++)
        if (col[c] >= 0 && count(fs->f[col[c]], c != C_EXEC, dst[c]) != 0)
            return pn_error_at(err, PN_EINVAL, s->path, line, fs->col[col[c]],
                               "%s: expected a count >= 0, got '%.40s'", col_names[c],
                               fs->f[col[c]]);
    r.shared = col[C_SPACE] >= 0 && !strcmp(fs->f[col[C_SPACE]], "Shared");
    return add_row(t, cap, &r, err);
}

pn_status_t pn_ncu_source_parse(pn_ncu_source_t *s, const char *text, size_t len,
                                const char *name, pn_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->path = pn_yaml_strdup(name);
    s->buf = malloc(len + 1);
    if (!s->path || !s->buf) {
        pn_ncu_source_destroy(s);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    memcpy(s->buf, text, len);
    s->buf[len] = '\0';
    fields_t fs = { 0 };
    long col[C_N], line = 0;
    size_t width = 0, cap = 0;
    int want_header = 0;
    pn_status_t st = PN_OK;
    for (char *p = s->buf, *end = s->buf + len; p < end && st == PN_OK;) {
        char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        line++;
        char *le = e > p && e[-1] == '\r' ? e - 1 : e;
        char *next = e < end ? e + 1 : end;
        if (!strncmp(p, "==ERROR==", 9) || !strncmp(p, "==ERR==", 7)) {
            char snip[120];
            pn_yaml_snippet(snip, sizeof snip, p, (size_t)(le - p));
            st = pn_error_at(err, PN_EINVAL, s->path, line, 1, "ncu reported an error: %s",
                             snip);
            break;
        }
        if (le == p || *p != '"') { /* blank, or ncu's own ==PROF== / ==WARNING== lines */
            if (le != p && strncmp(p, "==", 2) && s->n_tables == 0 && !want_header) {
                st = pn_error_at(err, PN_EINVAL, s->path, line, 1,
                                 "not an Nsight Compute source page: expected a line "
                                 "\"Kernel Name\",\"...\" (ncu -i REPORT --csv --page source "
                                 "--print-source sass)");
                break;
            }
            p = next;
            continue;
        }
        const char *what = "";
        long bad = split(p, le, &fs, &what);
        if (bad < 0) {
            st = pn_error_set(err, PN_ENOMEM, "out of memory");
            break;
        }
        if (bad > 0) {
            st = pn_error_at(err, PN_EINVAL, s->path, line, bad, "%s", what);
            break;
        }
        if (fs.n >= 1 && !strcmp(fs.f[0], "Kernel Name")) {
            if (want_header || (s->n_tables > 0 && s->tables[s->n_tables - 1].n_rows == 0)) {
                st = pn_error_at(err, PN_EINVAL, s->path, line, 1,
                                 "a new table starts before the table of line %ld has rows",
                                 s->tables[s->n_tables - 1].line);
                break;
            }
            if (fs.n < 2 || !*fs.f[1]) {
                st = pn_error_at(err, PN_EINVAL, s->path, line, 1,
                                 "\"Kernel Name\" without a name");
                break;
            }
            st = add_table(s, fs.f[1], line, err);
            want_header = 1;
            cap = 0;
        } else if (want_header) {
            for (int c = 0; c < C_N; c++)
                col[c] = -1;
            for (size_t i = 0; i < fs.n; i++)
                for (int c = 0; c < C_N; c++)
                    if (col[c] < 0 && !strcmp(fs.f[i], col_names[c]))
                        col[c] = (long)i;
            /* a table without counts: the page of a launch ncu collected no
             * SourceCounters for; its launch gets a counts-only config */
            pn_ncu_sass_table_t *t = &s->tables[s->n_tables - 1];
            t->uncounted = col[C_ADDR] >= 0 && col[C_SRC] >= 0 && col[C_EXEC] < 0;
            for (int c = 0; c < C_REQUIRED && st == PN_OK; c++)
                if (col[c] < 0 && !(c == C_EXEC && t->uncounted))
                    st = pn_error_at(err, PN_EINVAL, s->path, line, 1,
                                     "missing column '%s' in the header of the table of "
                                     "line %ld (expected Address, Source, Instructions "
                                     "Executed)", col_names[c], t->line);
            width = fs.n;
            want_header = 0;
        } else if (s->n_tables == 0) {
            st = pn_error_at(err, PN_EINVAL, s->path, line, 1,
                             "not an Nsight Compute source page: a row before any "
                             "\"Kernel Name\" line (ncu -i REPORT --csv --page source "
                             "--print-source sass)");
        } else {
            st = parse_row(s, &s->tables[s->n_tables - 1], &cap, &fs, col, width, line, err);
        }
        p = next;
    }
    free(fs.f);
    free(fs.col);
    if (st == PN_OK && s->n_tables == 0)
        st = pn_error_at(err, PN_EINVAL, s->path, line > 0 ? line : 1, 1,
                         "no \"Kernel Name\" table: not a source page of ncu -i REPORT --csv "
                         "--page source --print-source sass");
    if (st == PN_OK && (want_header || s->tables[s->n_tables - 1].n_rows == 0))
        st = pn_error_at(err, PN_EINVAL, s->path, s->tables[s->n_tables - 1].line, 1,
                         "the table of kernel '%.60s' has no rows",
                         s->tables[s->n_tables - 1].kernel);
    if (st != PN_OK)
        pn_ncu_source_destroy(s);
    return st;
}

pn_status_t pn_ncu_source_read(pn_ncu_source_t *s, const char *path, pn_error_t *err)
{
    memset(s, 0, sizeof *s);
    char *text;
    size_t len;
    if (pn_yaml_read_file_max(path, PN_NCU_FILE_MAX, &text, &len) != PN_OK)
        return pn_error_at(err, PN_EIO, path, 0, 0, "cannot open the source page: %s",
                           pn_yaml_strerror_max(errno, PN_NCU_FILE_MAX));
    pn_status_t st = pn_ncu_source_parse(s, text, len, path, err);
    free(text);
    return st;
}

/* Tables a and b hold the same kernel and rows. */
static int same_table(const pn_ncu_sass_table_t *a, const pn_ncu_sass_table_t *b)
{
    if (strcmp(a->kernel, b->kernel) || a->n_rows != b->n_rows)
        return 0;
    for (size_t i = 0; i < a->n_rows; i++) {
        const pn_ncu_sass_row_t *x = &a->rows[i], *y = &b->rows[i];
        if (x->address != y->address || x->executed != y->executed ||
            x->sectors != y->sectors || x->wavefronts != y->wavefronts ||
            strcmp(x->source, y->source))
            return 0;
    }
    return 1;
}

/* The memory kinds whose warp-level instructions ncu counts per launch, the
 * SASS kind each is, and its metrics (summed). */
static const struct {
    const char *name;
    pn_sass_kind_t kind;
    const char *metric[2];
} kind_checks[] = {
    { "global loads", PN_SASS_GLOBAL_LD, { "smsp__sass_inst_executed_op_global_ld.sum" } },
    { "global stores", PN_SASS_GLOBAL_ST, { "smsp__sass_inst_executed_op_global_st.sum" } },
    { "global atomics and reductions", PN_SASS_ATOM_GLOBAL,
      { "smsp__sass_inst_executed_op_global_atom.sum",
        "smsp__sass_inst_executed_op_global_red.sum" } },
    { "shared loads", PN_SASS_SHARED_LD, { "smsp__sass_inst_executed_op_shared_ld.sum" } },
    { "shared stores", PN_SASS_SHARED_ST, { "smsp__sass_inst_executed_op_shared_st.sum" } },
    { "shared atomics", PN_SASS_ATOM_SHARED, { "smsp__sass_inst_executed_op_shared_atom.sum" } },
};
#define N_KIND_CHECKS (sizeof kind_checks / sizeof kind_checks[0])

/* Does ncu's per-kind count of op's kind perhaps leave op out? Local (LDL,
 * STL) and generic (LD, ST, ATOM) accesses, which ncu counts by their own
 * address space, the async copy LDGSTS (counted as an op of its own), the
 * matrix loads and stores of shared memory (LDSM, STSM) and texture and
 * surface accesses (TEX, TLD, TLD4, SULD, SUST). */
static int maybe_counted(const char *opcode)
{
    if (pn_sass_opcode_apart(opcode) != PN_SASS_APART_NONE)
        return 1;
    static const char *const ops[] = { "LD", "ST", "ATOM", "LDGSTS", "LDSM", "STSM" };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(opcode, ops[i]))
            return 1;
    return 0;
}

/* Table t against launch l, kind by kind: the executions of t's instructions
 * of each memory kind equal ncu's count, up to the executions of guarded ones
 * (ncu counts a guarded instruction only in warps where a thread is
 * predicated on; the source page counts every warp that reaches it), of
 * those ncu may count elsewhere (maybe_counted), PN_NCU_SOURCE_KIND_SLACK of
 * the count and the instructions the whole launch ran more or less on the page
 * than ncu counted. Rows that do not parse are left to pn_sass_prog_add. */
static pn_status_t check_kinds(const pn_ncu_sass_table_t *t, const pn_ncu_launch_t *l,
                               const char *path, const char *raw, pn_error_t *err)
{
    double got[N_KIND_CHECKS] = { 0 }, guarded[N_KIND_CHECKS] = { 0 };
    double maybe[N_KIND_CHECKS] = { 0 };
    /* what the whole launch ran more or less on the page than in the metrics' pass */
    double moved = fabs(t->executed - pn_ncu_inst_executed(l));
    for (size_t r = 0; r < t->n_rows; r++) {
        pn_sass_insn_t in;
        pn_error_t e;
        if (pn_sass_insn_parse(&in, t->rows[r].source, path, t->rows[r].line, 1, &e) != PN_OK)
            continue;
        if (t->rows[r].shared)
            pn_sass_insn_to_shared(&in);
        /* a generic access the page gives several spaces ("Local,Shared": the
         * address decides at run time) ncu may count as shared too */
        pn_sass_insn_t sh = in;
        int generic = !t->rows[r].shared && pn_sass_insn_to_shared(&sh);
        for (size_t k = 0; k < N_KIND_CHECKS; k++)
            if ((in.kind == kind_checks[k].kind && maybe_counted(in.opcode)) ||
                (generic && sh.kind == kind_checks[k].kind))
                maybe[k] += t->rows[r].executed;
            else if (in.kind == kind_checks[k].kind) {
                got[k] += t->rows[r].executed;
                guarded[k] += in.guarded ? t->rows[r].executed : 0;
            }
    }
    for (size_t k = 0; k < N_KIND_CHECKS; k++) {
        double want = 0;
        int have = 0;
        for (int m = 0; m < 2 && kind_checks[k].metric[m]; m++) {
            double v = pn_ncu_metric(l, kind_checks[k].metric[m]);
            if (!isnan(v))
                want += v, have = 1;
        }
        if (!have)
            continue;
        double slack = 0.5 + PN_NCU_SOURCE_KIND_SLACK * want + moved;
        if (got[k] + maybe[k] + slack < want || got[k] > want + guarded[k] + slack)
            return pn_error_at(err, PN_EINVAL, path, t->line, 1, "the source table of launch "
                               "%ld (%s) executes %.0f warp-level %s (%.0f of them guarded), "
                               "ncu counted %.0f in %s: not the same launch, or a SASS kind "
                               "pnsim reads differently", l->id, l->kernel, got[k],
                               kind_checks[k].name, guarded[k], want, raw);
    }
    return PN_OK;
}

int pn_ncu_source_inst_apart(double got, double inst)
{
    return fabs(got - inst) > 0.5 + PN_NCU_SOURCE_INST_SLACK * inst;
}

/* Is table t one of launch l's kernel (the same name up to the arguments)? */
static int table_is(const pn_ncu_sass_table_t *t, const pn_ncu_launch_t *l)
{
    size_t kl;
    const char *tk = pn_ncu_kernel_name(t->kernel, &kl);
    return kl == strlen(l->kernel) && !strncmp(tk, l->kernel, kl);
}

/* Pair every launch with its kernel's table and, where the next one repeats
 * it, that one too, so that all tables are taken: table_of[i]. Tables printed
 * once and twice mix (cuBLAS's have no line
 * information), and launches of one kernel in a row have equal tables, so a
 * repeat is told from the next launch's table by what follows: ok[i][d] says
 * whether launches i.. can take the tables from i + d on, d repeats taken
 * before i; the walk takes a repeat where that still works out. PN_EINVAL
 * when no pairing does (the caller then reports where the first reading fails),
 * PN_ENOMEM. O(launches x repeats + rows). */
static pn_status_t pair_launches(const pn_ncu_source_t *s, const pn_ncu_t *ncu,
                                 size_t *table_of)
{
    size_t n = ncu->n_launches, D = s->n_tables - n, w = D + 1;
    if (s->n_tables < n || D > n)
        return PN_EINVAL;
    unsigned char *ok = calloc((n + 1) * w, 1), *eq = calloc(s->n_tables + 1, 1);
    if (!ok || !eq) {
        free(ok);
        free(eq);
        return PN_ENOMEM;
    }
    for (size_t t = 0; t + 1 < s->n_tables; t++)
        eq[t] = (unsigned char)same_table(&s->tables[t], &s->tables[t + 1]);
    ok[n * w + D] = 1;
    for (size_t i = n; i-- > 0;)
        for (size_t d = 0; d <= D; d++) {
            size_t t = i + d;
            if (t >= s->n_tables || !table_is(&s->tables[t], &ncu->launches[i]))
                continue;
            ok[i * w + d] = ok[(i + 1) * w + d] || (d < D && eq[t] && ok[(i + 1) * w + d + 1]);
        }
    pn_status_t st = ok[0] ? PN_OK : PN_EINVAL;
    for (size_t i = 0, d = 0; st == PN_OK && i < n; i++) {
        table_of[i] = i + d;
        if (d < D && eq[i + d] && ok[(i + 1) * w + d + 1])
            d++;
    }
    free(ok);
    free(eq);
    return st;
}

/* Is in the compare-and-swap of a loop that retries until no other thread
 * got in between (an atomic float add emulated: ATOMS.CAST.SPIN, ATOMG.E.CAS,
 * ATOM.E.CAS)? */
static int cas_loop(const pn_sass_insn_t *in)
{
    return (!strcmp(in->opcode, "ATOMS") || !strcmp(in->opcode, "ATOMG") ||
            !strcmp(in->opcode, "ATOM")) &&
           (strstr(in->modifiers, ".CAS") != NULL);
}

int pn_ncu_table_waits(const pn_ncu_sass_table_t *t, const char *path)
{
    for (size_t r = 0; r < t->n_rows; r++) {
        pn_sass_insn_t in;
        pn_error_t e;
        if (!(t->rows[r].executed > 0) ||
            pn_sass_insn_parse(&in, t->rows[r].source, path, t->rows[r].line, 1, &e) != PN_OK)
            continue;
        if (!strcmp(in.opcode, "YIELD") || !strcmp(in.opcode, "NANOSLEEP") ||
            pn_sass_insn_strong_beyond_sm(&in) || cas_loop(&in))
            return 1;
    }
    return 0;
}

pn_status_t pn_ncu_source_pair(const pn_ncu_source_t *s, const pn_ncu_t *ncu,
                               size_t *table_of, pn_error_t *err)
{
    size_t n = ncu->n_launches, j = 0;
    if (s->n_tables < n)
        return pn_error_at(err, PN_EINVAL, s->path, s->n_tables ? s->tables[0].line : 1, 1,
                           "%zu source tables for the %zu launches of %s: not the same "
                           "report?", s->n_tables, n, ncu->path);
    /* launch i takes the next table, and the one after it when that repeats it;
     * where launches of one kernel follow each other with equal tables, which
     * ones repeat is what lets every launch find its kernel's table
     * (pair_launches); failing that, the first reading, whose checks below say
     * where the page and the metrics part */
    pn_status_t st = pair_launches(s, ncu, table_of);
    if (st == PN_ENOMEM)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    if (st == PN_OK)
        j = s->n_tables;
    else
        for (size_t i = 0; i < n; i++) {
            table_of[i] = j++;
            if (j < s->n_tables && s->n_tables - j - 1 >= n - i - 1 &&
                same_table(&s->tables[j - 1], &s->tables[j]))
                j++;
        }
    if (j < s->n_tables)
        return pn_error_at(err, PN_EINVAL, s->path, s->tables[j].line, 1,
                           "%zu source tables for the %zu launches of %s, and this one is "
                           "left over (no repeat of the table before it): not the same "
                           "report?", s->n_tables, n, ncu->path);
    for (size_t i = 0; i < n; i++) {
        const pn_ncu_sass_table_t *t = &s->tables[table_of[i]];
        const pn_ncu_launch_t *l = &ncu->launches[i];
        size_t kl;
        const char *tk = pn_ncu_kernel_name(t->kernel, &kl);
        double inst = pn_ncu_inst_executed(l);
        if (!table_is(t, l))
            return pn_error_at(err, PN_EINVAL, s->path, t->line, 1,
                               "the source table of kernel '%.*s' is not launch %ld (%s) of %s: "
                               "not the same report, or launches in another order", (int)kl,
                               tk, l->id, l->kernel, ncu->path);
        if (t->uncounted)
            continue;                   /* nothing to check: a counts-only config */
        int waits = pn_ncu_table_waits(t, s->path);
        if (pn_ncu_source_inst_apart(t->executed, inst) && !waits)
            return pn_error_at(err, PN_EINVAL, s->path, t->line, 1,
                               "the source table of %.*s executed %.0f warp instructions, "
                               "launch %ld of %s %.0f (smsp__inst_executed.sum): not the same "
                               "launch, or a kernel whose work differs from run to run",
                               (int)kl, tk, t->executed, l->id, ncu->path, inst);
        /* a wait's loop runs as long as the others take, its loads and
         * atomics as many times */
        if (!waits)
            PN_CHECK(check_kinds(t, l, s->path, ncu->path, err));
    }
    return PN_OK;
}
