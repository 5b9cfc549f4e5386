/* pn_compare.c - measured against predicted kernel times (pn_compare.h). */
#include "pn_compare.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_yaml.h"

void pn_compare_init(pn_compare_t *c)
{
    memset(c, 0, sizeof *c);
}

void pn_compare_destroy(pn_compare_t *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->rows[i].kernel);
        free(c->rows[i].size);
        free(c->rows[i].config);
    }
    free(c->rows);
    memset(c, 0, sizeof *c);
}

pn_status_t pn_compare_add(pn_compare_t *c, const char *kernel, const char *size,
                           uint32_t threads, uint64_t blocks, double measured_us,
                           double predicted_us, const char *config, pn_error_t *err)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        pn_compare_row_t *r = realloc(c->rows, cap * sizeof *r);
        if (!r)
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        c->rows = r;
        c->cap = cap;
    }
    pn_compare_row_t *r = &c->rows[c->n];
    r->kernel = pn_yaml_strdup(kernel);
    r->size = pn_yaml_strdup(size);
    r->config = config ? pn_yaml_strdup(config) : NULL;
    if (!r->kernel || !r->size || (config && !r->config)) {
        free(r->kernel), free(r->size), free(r->config);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    r->threads = threads;
    r->blocks = blocks;
    r->measured_us = measured_us;
    r->predicted_us = predicted_us;
    r->p10_us = r->p90_us = -1;
    r->roofline_us = -1;
    r->bound = NULL;
    c->n++;
    return PN_OK;
}

void pn_compare_spread(pn_compare_t *c, double p10_us, double p90_us)
{
    assert(c->n > 0);
    c->rows[c->n - 1].p10_us = p10_us;
    c->rows[c->n - 1].p90_us = p90_us;
}

void pn_compare_roofline(pn_compare_t *c, double roofline_us, const char *bound)
{
    assert(c->n > 0);
    c->rows[c->n - 1].roofline_us = roofline_us;
    c->rows[c->n - 1].bound = bound;
}

static int has_pred(const pn_compare_row_t *r)
{
    return r->predicted_us >= 0 && r->measured_us > 0;
}

int pn_compare_has_prediction(const pn_compare_row_t *r)
{
    return has_pred(r);
}

static double err_of(const pn_compare_row_t *r)
{
    return (r->predicted_us - r->measured_us) / r->measured_us;
}

/* A row the roofline predicts too (its config gave bounds), and its error. */
static int has_roof(const pn_compare_row_t *r)
{
    return has_pred(r) && r->roofline_us >= 0;
}

static double roof_err(const pn_compare_row_t *r)
{
    return (r->roofline_us - r->measured_us) / r->measured_us;
}

/* Length of kernel's family (up to its first '_'; all of it when none). */
static size_t family_len(const char *k)
{
    const char *u = strchr(k, '_');
    return u ? (size_t)(u - k) : strlen(k);
}

size_t pn_compare_family_len(const char *k)
{
    return family_len(k);
}

double pn_compare_mape(const pn_compare_t *c, size_t *n)
{
    double sum = 0;
    *n = 0;
    for (size_t i = 0; i < c->n; i++)
        if (has_pred(&c->rows[i])) {
            sum += fabs(err_of(&c->rows[i]));
            (*n)++;
        }
    return *n ? sum / (double)*n : 0;
}

/* A group of rows: a kernel's (kernel), a sweep's (kernel and size) or a
 * version group's (family and size). */
typedef struct group {
    size_t first;                 /* a row of it, for its names */
    size_t n;                     /* rows with a prediction */
    double abs_err;               /* sum of |error| */
    size_t best_m, best_p;        /* rows of the least measured, least predicted time */
    size_t best_r;                /* the row of the least roofline time (first on ties) */
    int roof;                     /* every row with a prediction has a roofline */
    int distinct;                 /* more than one block size (sweeps), kernel (versions) */
    int spread, clear;            /* sweeps: every row has its spread; the best's lies
                                   * below every other's (pn_compare_write) */
} group_t;

enum { G_KERNEL, G_SWEEP, G_VERSION };

static int same(const pn_compare_row_t *a, const pn_compare_row_t *b, int kind)
{
    if (kind == G_KERNEL)
        return !strcmp(a->kernel, b->kernel);
    if (strcmp(a->size, b->size))
        return 0;
    if (kind == G_SWEEP)
        return !strcmp(a->kernel, b->kernel);
    size_t la = family_len(a->kernel);
    return la == family_len(b->kernel) && !strncmp(a->kernel, b->kernel, la);
}

/* The groups of `kind` in order of first appearance (caller frees). */
static group_t *groups(const pn_compare_t *c, int kind, size_t *ng)
{
    group_t *g = calloc(c->n ? c->n : 1, sizeof *g);
    size_t *of = malloc((c->n ? c->n : 1) * sizeof *of);
    *ng = 0;
    if (!g || !of) {
        free(g), free(of);
        return NULL;
    }
    for (size_t i = 0; i < c->n; i++) {
        size_t k = 0;
        while (k < *ng && !same(&c->rows[g[k].first], &c->rows[i], kind))
            k++;
        if (k == *ng)
            g[(*ng)++].first = i;
        of[i] = k;
    }
    for (size_t i = 0; i < c->n; i++) {
        const pn_compare_row_t *r = &c->rows[i];
        group_t *x = &g[of[i]];
        if (!has_pred(r))
            continue;
        if (x->n == 0) {
            x->best_m = x->best_p = x->best_r = i;
            x->roof = 1;
        } else {
            const pn_compare_row_t *f = &c->rows[x->best_m];
            if (kind == G_SWEEP ? f->threads != r->threads : strcmp(f->kernel, r->kernel))
                x->distinct = 1;
            if (r->measured_us < c->rows[x->best_m].measured_us)
                x->best_m = i;
            if (r->predicted_us < c->rows[x->best_p].predicted_us)
                x->best_p = i;
            if (r->roofline_us < c->rows[x->best_r].roofline_us)
                x->best_r = i;
        }
        x->roof &= has_roof(r);
        x->n++;
        x->abs_err += fabs(err_of(r));
    }
    for (size_t k = 0; k < *ng; k++)
        g[k].spread = g[k].clear = kind == G_SWEEP && g[k].distinct;
    for (size_t i = 0; i < c->n && kind == G_SWEEP; i++) {
        const pn_compare_row_t *r = &c->rows[i], *b = &c->rows[g[of[i]].best_m];
        if (!has_pred(r))
            continue;
        g[of[i]].spread &= r->p10_us >= 0 && r->p90_us >= 0;
        g[of[i]].clear &= i == g[of[i]].best_m || r->p10_us > b->p90_us;
    }
    for (size_t k = 0; k < *ng; k++)
        g[k].clear &= g[k].spread;
    free(of);
    return g;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Overall MAPE, median |error| and the worst rows (indices, largest |error| first). */
typedef struct overall {
    size_t n;
    double mape, median, worst_kernel;
    size_t *worst, n_worst;
    /* the roofline's, over the rows it predicts (n_roof 0: none asked) */
    size_t n_roof, nearer;        /* nearer: rows pnsim's |error| is below the roofline's */
    double roof_mape, roof_median;
} overall_t;

static double median_of(double *e, size_t n)
{
    qsort(e, n, sizeof *e, cmp_double);
    return n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
}

static int overall_of(const pn_compare_t *c, const group_t *kg, size_t nk, size_t worst,
                      overall_t *o)
{
    memset(o, 0, sizeof *o);
    double *e = malloc((c->n ? c->n : 1) * sizeof *e);
    o->worst = malloc((worst ? worst : 1) * sizeof *o->worst);
    if (!e || !o->worst) {
        free(e);
        free(o->worst);
        return -1;
    }
    double sum = 0;
    for (size_t i = 0; i < c->n; i++)
        if (has_pred(&c->rows[i])) {
            e[o->n++] = fabs(err_of(&c->rows[i]));
            sum += e[o->n - 1];
        }
    if (o->n) {
        o->mape = sum / o->n;
        o->median = median_of(e, o->n);
    }
    sum = 0;
    for (size_t i = 0; i < c->n; i++)
        if (has_roof(&c->rows[i])) {
            e[o->n_roof++] = fabs(roof_err(&c->rows[i]));
            sum += e[o->n_roof - 1];
            o->nearer += fabs(err_of(&c->rows[i])) < e[o->n_roof - 1];
        }
    if (o->n_roof) {
        o->roof_mape = sum / o->n_roof;
        o->roof_median = median_of(e, o->n_roof);
    }
    for (size_t k = 0; k < nk; k++)
        if (kg[k].n && kg[k].abs_err / kg[k].n > o->worst_kernel)
            o->worst_kernel = kg[k].abs_err / kg[k].n;
    /* the worst rows: repeated selection (worst is small) */
    for (size_t w = 0; w < worst && w < o->n; w++) {
        size_t pick = SIZE_MAX;
        for (size_t i = 0; i < c->n; i++) {
            if (!has_pred(&c->rows[i]))
                continue;
            int taken = 0;
            for (size_t j = 0; j < o->n_worst; j++)
                taken |= o->worst[j] == i;
            if (!taken && (pick == SIZE_MAX ||
                           fabs(err_of(&c->rows[i])) > fabs(err_of(&c->rows[pick]))))
                pick = i;
        }
        if (pick != SIZE_MAX)
            o->worst[o->n_worst++] = pick;
    }
    free(e);
    return 0;
}

/* The sweeps' totals: the right and near picks of pnsim and, over the sweeps whose rows
 * all have one, of the roofline; the mean regret; the sweeps with their spread, clear of
 * it, and the right picks among those. */
typedef struct sweep_totals {
    size_t n, right, near, spread, clear, clear_right;
    size_t roof_n, roof_right, roof_near;
    double regret;                /* sum of the regrets */
} sweep_totals_t;

static void sweeps_of(const pn_compare_t *c, const group_t *sg, size_t ns, sweep_totals_t *t)
{
    memset(t, 0, sizeof *t);
    for (size_t k = 0; k < ns; k++)
        if (sg[k].distinct) {
            const pn_compare_row_t *m = &c->rows[sg[k].best_m], *p = &c->rows[sg[k].best_p];
            const pn_compare_row_t *q = &c->rows[sg[k].best_r];
            t->n++;
            t->right += m->threads == p->threads;
            t->near += p->measured_us <= (1 + PN_COMPARE_NEAR) * m->measured_us;
            t->regret += p->measured_us / m->measured_us;
            t->spread += (size_t)sg[k].spread;
            t->clear += (size_t)sg[k].clear;
            t->clear_right += (size_t)sg[k].clear && m->threads == p->threads;
            t->roof_n += (size_t)sg[k].roof;
            t->roof_right += sg[k].roof && q->threads == m->threads;
            t->roof_near += sg[k].roof && q->measured_us <= (1 + PN_COMPARE_NEAR) * m->measured_us;
        }
}

static void write_text(FILE *out, const pn_compare_t *c, const group_t *kg, size_t nk,
                       const group_t *sg, size_t ns, const group_t *vg, size_t nv,
                       const overall_t *o)
{
    fprintf(out, "%-16s %10s %7s %9s %12s %12s %8s", "kernel", "size", "threads", "blocks",
            "measured_us", "predicted_us", "error");
    if (o->n_roof)
        fprintf(out, " %12s %8s  %s", "roofline_us", "error", "bound");
    fputc('\n', out);
    for (size_t i = 0; i < c->n; i++) {
        const pn_compare_row_t *r = &c->rows[i];
        fprintf(out, "%-16s %10s %7u %9llu %12.3f ", r->kernel, r->size, r->threads,
                (unsigned long long)r->blocks, r->measured_us);
        if (has_pred(r))
            fprintf(out, "%12.3f %+7.1f%%", r->predicted_us, 100 * err_of(r));
        else
            fprintf(out, "%12s %8s", "-", "no config");
        if (has_roof(r))
            fprintf(out, " %12.3f %+7.1f%%  %s", r->roofline_us, 100 * roof_err(r), r->bound);
        fputc('\n', out);
    }
    fputs("\nper kernel\n", out);
    for (size_t k = 0; k < nk; k++)
        if (kg[k].n)
            fprintf(out, "  %-16s MAPE %6.1f %% over %zu launches\n",
                    c->rows[kg[k].first].kernel, 100 * kg[k].abs_err / kg[k].n, kg[k].n);
    sweep_totals_t st;
    sweeps_of(c, sg, ns, &st);
    if (st.n)
        fputs("\nsweeps (a kernel at one size): the best block size, and the regret "
              "(measured time of the predicted one over the best)\n", out);
    for (size_t k = 0; k < ns; k++)
        if (sg[k].distinct) {
            const pn_compare_row_t *m = &c->rows[sg[k].best_m], *p = &c->rows[sg[k].best_p];
            fprintf(out, "  %-16s %10s measured %4u predicted %4u, regret %.3f%s\n", m->kernel,
                    m->size, m->threads, p->threads, p->measured_us / m->measured_us,
                    m->threads == p->threads ? ""
                    : sg[k].spread && !sg[k].clear ? "  (wrong, within the measured spread)"
                                                   : "  (wrong)");
        }
    size_t groups_v = 0, right_v = 0, right_pair = 0;
    double regret = 0;
    for (size_t k = 0; vg && k < nv; k++)
        if (vg[k].distinct) {
            const pn_compare_row_t *m = &c->rows[vg[k].best_m], *p = &c->rows[vg[k].best_p];
            if (!groups_v++)
                fputs("\nversions (FAMILY_VERSION kernels at one size): the fastest\n", out);
            right_v += !strcmp(m->kernel, p->kernel);
            right_pair += !strcmp(m->kernel, p->kernel) && m->threads == p->threads;
            regret += p->measured_us / m->measured_us;
            fprintf(out, "  %-.*s %10s measured %s@%u predicted %s@%u, regret %.2f\n",
                    (int)family_len(m->kernel), m->kernel, m->size, m->kernel, m->threads,
                    p->kernel, p->threads, p->measured_us / m->measured_us);
        }
    if (o->n_worst) {
        fputs("\nworst launches\n", out);
        for (size_t j = 0; j < o->n_worst; j++) {
            const pn_compare_row_t *r = &c->rows[o->worst[j]];
            fprintf(out, "  %-16s %10s %7u %+7.1f%%  %s\n", r->kernel, r->size, r->threads,
                    100 * err_of(r), r->config ? r->config : "");
        }
    }
    fprintf(out, "\noverall: %zu of %zu launches predicted, MAPE %.1f %%, median error %.1f %%, "
            "worst kernel %.1f %%", o->n, c->n, 100 * o->mape, 100 * o->median,
            100 * o->worst_kernel);
    if (st.n)
        fprintf(out, ", best block size right in %zu of %zu sweeps (%zu within %g %% of the "
                "best measured time, mean regret %.3f)", st.right, st.n, st.near,
                100 * PN_COMPARE_NEAR, st.regret / st.n);
    if (st.spread)
        fprintf(out, "; of the %zu sweeps with their spread, %zu clear of it (every other "
                "block size's p10 above the best's p90), right in %zu", st.spread, st.clear,
                st.clear_right);
    if (groups_v)
        fprintf(out, "; fastest version right in %zu of %zu groups, with its block size in "
                "%zu, mean regret %.2f", right_v, groups_v, right_pair, regret / groups_v);
    if (o->n_roof)
        fprintf(out, "; roofline (the largest lower bound) over %zu launches: MAPE %.1f %%, "
                "median error %.1f %%, pnsim nearer in %zu", o->n_roof, 100 * o->roof_mape,
                100 * o->roof_median, o->nearer);
    if (st.roof_n)
        fprintf(out, ", its best block size right in %zu of %zu sweeps (%zu within %g %%)",
                st.roof_right, st.roof_n, st.roof_near, 100 * PN_COMPARE_NEAR);
    fputc('\n', out);
}

static void json_row(FILE *out, const pn_compare_row_t *r)
{
    fputs("{\"kernel\": ", out);
    pn_json_string(out, r->kernel);
    fputs(", \"size\": ", out);
    pn_json_string(out, r->size);
    fprintf(out, ", \"threads\": %u, \"blocks\": %llu, \"measured_us\": %.10g", r->threads,
            (unsigned long long)r->blocks, r->measured_us);
    if (has_pred(r)) {
        fprintf(out, ", \"predicted_us\": %.10g, \"error\": %.6g, \"config\": ", r->predicted_us,
                err_of(r));
        pn_json_string(out, r->config ? r->config : "");
    } else
        fputs(", \"predicted_us\": null, \"error\": null, \"config\": null", out);
    if (has_roof(r)) {
        fprintf(out, ", \"roofline_us\": %.10g, \"roofline_error\": %.6g, \"bound\": ",
                r->roofline_us, roof_err(r));
        pn_json_string(out, r->bound);
    }
    fputc('}', out);
}

static void write_json(FILE *out, const pn_compare_t *c, const group_t *kg, size_t nk,
                       const group_t *sg, size_t ns, const group_t *vg, size_t nv,
                       const overall_t *o)
{
    fputs("{\n  \"launches\": [", out);
    for (size_t i = 0; i < c->n; i++) {
        fputs(i ? ",\n    " : "\n    ", out);
        json_row(out, &c->rows[i]);
    }
    fputs("\n  ],\n  \"kernels\": [", out);
    int first = 1;
    for (size_t k = 0; k < nk; k++)
        if (kg[k].n) {
            fputs(first ? "\n    {\"kernel\": " : ",\n    {\"kernel\": ", out);
            first = 0;
            pn_json_string(out, c->rows[kg[k].first].kernel);
            fprintf(out, ", \"launches\": %zu, \"mape\": %.6g}", kg[k].n,
                    kg[k].abs_err / kg[k].n);
        }
    fputs("\n  ],\n  \"sweeps\": [", out);
    first = 1;
    sweep_totals_t st;
    sweeps_of(c, sg, ns, &st);
    for (size_t k = 0; k < ns; k++)
        if (sg[k].distinct) {
            const pn_compare_row_t *m = &c->rows[sg[k].best_m], *p = &c->rows[sg[k].best_p];
            fputs(first ? "\n    {\"kernel\": " : ",\n    {\"kernel\": ", out);
            first = 0;
            pn_json_string(out, m->kernel);
            fputs(", \"size\": ", out);
            pn_json_string(out, m->size);
            fprintf(out, ", \"best_measured\": %u, \"best_predicted\": %u, \"regret\": %.6g",
                    m->threads, p->threads, p->measured_us / m->measured_us);
            if (sg[k].spread)
                fprintf(out, ", \"clear\": %s", sg[k].clear ? "true" : "false");
            fputc('}', out);
        }
    fputs("\n  ],\n  \"versions\": [", out);
    first = 1;
    for (size_t k = 0; vg && k < nv; k++)
        if (vg[k].distinct) {
            const pn_compare_row_t *m = &c->rows[vg[k].best_m], *p = &c->rows[vg[k].best_p];
            fputs(first ? "\n    {\"size\": " : ",\n    {\"size\": ", out);
            first = 0;
            pn_json_string(out, m->size);
            fputs(", \"fastest_measured\": ", out);
            pn_json_string(out, m->kernel);
            fprintf(out, ", \"threads_measured\": %u, \"fastest_predicted\": ", m->threads);
            pn_json_string(out, p->kernel);
            fprintf(out, ", \"threads_predicted\": %u, \"regret\": %.6g}", p->threads,
                    p->measured_us / m->measured_us);
        }
    fputs("\n  ],\n  \"worst\": [", out);
    for (size_t j = 0; j < o->n_worst; j++)
        fprintf(out, "%s%zu", j ? ", " : "", o->worst[j]);
    fprintf(out, "],\n  \"overall\": {\"launches\": %zu, \"predicted\": %zu, \"mape\": %.6g, "
            "\"median_error\": %.6g, \"worst_kernel_mape\": %.6g, \"sweeps\": %zu, "
            "\"sweeps_right\": %zu, \"sweeps_near\": %zu, \"sweep_regret\": %.6g, "
            "\"sweeps_clear\": %zu, \"sweeps_clear_right\": %zu", c->n, o->n, o->mape,
            o->median, o->worst_kernel, st.n, st.right, st.near, st.n ? st.regret / st.n : 0,
            st.clear, st.clear_right);
    if (o->n_roof)
        fprintf(out, ", \"roofline_launches\": %zu, \"roofline_mape\": %.6g, "
                "\"roofline_median_error\": %.6g, \"pnsim_nearer\": %zu, "
                "\"roofline_sweeps_right\": %zu, \"roofline_sweeps_near\": %zu", o->n_roof,
                o->roof_mape, o->roof_median, o->nearer, st.roof_right, st.roof_near);
    fputs("}\n}\n", out);
}

static void write_csv(FILE *out, const pn_compare_t *c, const overall_t *o)
{
    fputs("kernel,size,threads,blocks,measured_us,predicted_us,error,config", out);
    fputs(o->n_roof ? ",roofline_us,roofline_error,bound\n" : "\n", out);
    for (size_t i = 0; i < c->n; i++) {
        const pn_compare_row_t *r = &c->rows[i];
        fprintf(out, "%s,%s,%u,%llu,%.10g,", r->kernel, r->size, r->threads,
                (unsigned long long)r->blocks, r->measured_us);
        if (has_pred(r))
            fprintf(out, "%.10g,%.6g,%s", r->predicted_us, err_of(r),
                    r->config ? r->config : "");
        else
            fputs(",,", out);
        if (has_roof(r))
            fprintf(out, ",%.10g,%.6g,%s", r->roofline_us, roof_err(r), r->bound);
        else if (o->n_roof)
            fputs(",,,", out);
        fputc('\n', out);
    }
}

pn_status_t pn_compare_write(FILE *out, pn_format_t fmt, const pn_compare_t *c, int versions,
                             size_t worst, pn_error_t *err)
{
    size_t nk, ns, nv = 0;
    group_t *kg = groups(c, G_KERNEL, &nk), *sg = groups(c, G_SWEEP, &ns);
    group_t *vg = versions ? groups(c, G_VERSION, &nv) : NULL;
    overall_t o;
    if (!kg || !sg || (versions && !vg) || overall_of(c, kg, nk, worst, &o) != 0) {
        free(kg), free(sg), free(vg);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    if (fmt == PN_FORMAT_JSON)
        write_json(out, c, kg, nk, sg, ns, vg, nv, &o);
    else if (fmt == PN_FORMAT_CSV)
        write_csv(out, c, &o);
    else
        write_text(out, c, kg, nk, sg, ns, vg, nv, &o);
    free(kg), free(sg), free(vg), free(o.worst);
    if (ferror(out))
        return pn_error_set(err, PN_EIO, "write error: %s", strerror(errno ? errno : EIO));
    return PN_OK;
}
