/* cmd_calibrate_report.c - the report of `pnsim calibrate`: text, JSON, and
 * the CSV of its points. */
#include <math.h>
#include <stdlib.h>

#include "cmd_calibrate.h"
#include "pn_report.h"

const char *const pn_calib_model_names[N_MODELS] = {"pnsim steps", "roofline bound",
                                                   "bbv-weighted"};

const char *pn_calib_num(char *buf, size_t size, const char *fmt, double v)
{
    if (isnan(v))
        snprintf(buf, size, "n/a");
    else
        snprintf(buf, size, fmt, v);
    return buf;
}

/* "k=v;k=v" of a point's params (the measured row's overrides). */
static void params_str(const pn_measure_point_t *m, char *buf, size_t size)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < m->n_params && o < size; i++)
        o += (size_t)snprintf(buf + o, size - o, "%s%s=%g", i ? ";" : "", m->params[i].name,
                              m->params[i].value);
}


static void print_metrics_line(FILE *out, const pn_calib_metrics_t *m)
{
    char b[5][32];
    fprintf(out, "R2 %s  RMSE %s us  MAPE %s%%  geo-mean error %s%%  max error %s%%",
            pn_calib_num(b[0], 32, "%.5f", m->r2), pn_calib_num(b[1], 32, "%.4g", m->rmse),
            pn_calib_num(b[2], 32, "%.2f", m->mape), pn_calib_num(b[3], 32, "%.2f", m->geo),
            pn_calib_num(b[4], 32, "%.1f", m->max_ape));
    if (m->n_nonpos)
        fprintf(out, " (%zu predictions <= 0)", m->n_nonpos);
    fputc('\n', out);
}

static void print_report(FILE *out, const calib_run_t *r)
{
    const pn_point_set_t *s = r->set;
    const pn_model_eval_t *e = &r->ev[MODEL_PNSIM];
    char b[8][32];
    uint32_t runs_min = UINT32_MAX, runs_max = 0;
    for (size_t i = 0; i < s->n_points; i++) {
        if (s->points[i].runs < runs_min) runs_min = s->points[i].runs;
        if (s->points[i].runs > runs_max) runs_max = s->points[i].runs;
    }
    fprintf(out, "calibrate  %s (%s) on %s\n", r->dev->name,
            r->dev->description ? r->dev->description : r->dev->path, r->meas->path);
    fprintf(out, "points     %zu in %zu kernel%s; runs per point %u", s->n_points, s->n_groups,
            s->n_groups == 1 ? "" : "s", runs_min);
    if (runs_max != runs_min)
        fprintf(out, "..%u", runs_max);
    fprintf(out, "; engine %s; fit %s\n", s->points[0].engine,
            r->weighted ? "weighted least squares, weights 1/median_us^2"
                        : "ordinary least squares");
    if (r->pipelined)
        fprintf(out, "net        pipelined: one step is one SM cycle (device profile's pipelined "
                "section)");
    else
        fprintf(out, "latency    global %u, shared %u (%s)", r->l1, r->l2,
                r->searched ? "grid search" : "device profile");
    if (r->n_fixed)
        fprintf(out, "; %zu point%s keep the latency their config sets", r->n_fixed,
                r->n_fixed == 1 ? "" : "s");
    fputc('\n', out);
    if (r->pipelined) {
        fprintf(out, "\nprobed     time_us = steps / %.6g MHz + %.4g us (the pipelined net's steps are "
                "cycles; nothing fitted)\n           ", r->clock_mhz, r->launch_us);
        print_metrics_line(out, &r->probed_all);
        fputc('\n', out);
    }
    fprintf(out, "\nfit        time_us = %.6g * steps %c %.6g\n", e->fit.a,
            e->fit.b < 0 ? '-' : '+', fabs(e->fit.b));
    if (r->pipelined)
        fprintf(out, "           a = %.6g us per step against 1 / clock_mhz = %.6g: ratio %.4f\n",
                e->fit.a, 1.0 / r->clock_mhz, e->fit.a * r->clock_mhz);
    fprintf(out, "           ");
    print_metrics_line(out, &e->all);
    fprintf(out, "           Spearman %s; leave-one-kernel-out: MAPE %s%%, geo-mean error "
                 "%s%%\n", pn_calib_num(b[0], 32, "%.4f", e->spearman), pn_calib_num(b[1], 32, "%.2f", e->loo.mape),
            pn_calib_num(b[2], 32, "%.2f", e->loo.geo));

    fprintf(out, "\nper kernel (pnsim steps unless named; LOO = predicted by the fit on the "
                 "other kernels)\n");
    fprintf(out, "%-18s %4s %9s %9s %9s %10s %9s %10s %10s\n", "kernel", "n", "MAPE%", "geo%",
            "spearman", "LOO MAPE%", "LOO geo%", "roof MAPE%", "bbv MAPE%");
    for (size_t g = 0; g < s->n_groups; g++) {
        const pn_group_eval_t *ge = &e->groups[g];
        fprintf(out, "%-18s %4zu %9s %9s %9s %10s %9s %10s %10s\n", s->groups[g], ge->n,
                pn_calib_num(b[0], 32, "%.2f", ge->fit.mape), pn_calib_num(b[1], 32, "%.2f", ge->fit.geo),
                pn_calib_num(b[2], 32, "%.4f", ge->spearman), pn_calib_num(b[3], 32, "%.2f", ge->loo.mape),
                pn_calib_num(b[4], 32, "%.2f", ge->loo.geo),
                pn_calib_num(b[5], 32, "%.2f", r->ev[MODEL_ROOF].groups[g].fit.mape),
                pn_calib_num(b[6], 32, "%.2f", r->ev[MODEL_BBV].groups[g].fit.mape));
    }

    fprintf(out, "\nmodels (each fitted as time_us = a * x + b on the same points)\n");
    fprintf(out, "%-15s %12s %10s %9s %10s %8s %8s %9s %10s %9s\n", "model", "a", "b", "R2",
            "RMSE_us", "MAPE%", "geo%", "spearman", "LOO MAPE%", "LOO geo%");
    for (int k = 0; k < N_MODELS; k++) {
        const pn_model_eval_t *m = &r->ev[k];
        fprintf(out, "%-15s %12.5g %10.4g %9s %10s %8s %8s %9s %10s %9s\n", pn_calib_model_names[k],
                m->fit.a, m->fit.b, pn_calib_num(b[0], 32, "%.5f", m->all.r2),
                pn_calib_num(b[1], 32, "%.4g", m->all.rmse), pn_calib_num(b[2], 32, "%.2f", m->all.mape),
                pn_calib_num(b[3], 32, "%.2f", m->all.geo), pn_calib_num(b[4], 32, "%.4f", m->spearman),
                pn_calib_num(b[5], 32, "%.2f", m->loo.mape), pn_calib_num(b[6], 32, "%.2f", m->loo.geo));
    }

    fprintf(out, "\npoints (err%% = (predicted - measured) / measured)\n");
    fprintf(out, "%5s %-16s %7s %-24s %11s %13s %11s %8s %8s %11s %8s %11s %8s\n", "line",
            "kernel", "threads", "params", "measured_us", "steps", "pnsim_us", "err%",
            "LOO%", "roofline_us", "err%", "bbv_us", "err%");
    for (size_t i = 0; i < s->n_points; i++) {
        const pn_point_t *p = &s->points[i];
        char ps[256];
        params_str(p->m, ps, sizeof ps);
        double y = r->y[i];
        fprintf(out, "%5ld %-16s %7u %-24s %11.4g %13.1f %11.4g %8.2f %8s %11.4g %8.2f %11.4g "
                     "%8.2f\n", p->m->line, s->groups[p->group], p->k.threads,
                ps[0] ? ps : "-", y, p->steps_mean, r->ev[MODEL_PNSIM].pred[i],
                (r->ev[MODEL_PNSIM].pred[i] - y) / y * 100,
                pn_calib_num(b[0], 32, "%.2f", (r->ev[MODEL_PNSIM].loo_pred[i] - y) / y * 100),
                r->ev[MODEL_ROOF].pred[i], (r->ev[MODEL_ROOF].pred[i] - y) / y * 100,
                r->ev[MODEL_BBV].pred[i], (r->ev[MODEL_BBV].pred[i] - y) / y * 100);
    }
}

/* The probed prediction's errors per kernel (pipelined points). */
static void print_probed_groups(FILE *out, const calib_run_t *r)
{
    char b[3][32];
    fprintf(out, "\nprobed, per kernel (steps / clock_mhz + launch_us, nothing fitted)\n");
    fprintf(out, "%-20s %3s %9s %9s %9s\n", "kernel", "n", "MAPE%", "geo%", "max%");
    for (size_t g = 0; g < r->set->n_groups; g++) {
        const pn_calib_metrics_t *m = &r->probed_group[g];
        fprintf(out, "%-20s %3zu %9s %9s %9s\n", r->set->groups[g], m->n,
                pn_calib_num(b[0], 32, "%.2f", m->mape), pn_calib_num(b[1], 32, "%.2f", m->geo),
                pn_calib_num(b[2], 32, "%.1f", m->max_ape));
    }
}

void pn_calib_report_points(FILE *out, const calib_run_t *r)
{
    const pn_point_set_t *s = r->set;
    fprintf(out, "line,kernel,config,threads,params,median_us,l1,l2,runs,steps_mean,steps_sd,"
                 "idle_mean,pnsim_us,pnsim_err_pct,pnsim_loo_us,roofline_steps,roofline_us,"
                 "roofline_err_pct,bbv_steps,bbv_us,bbv_err_pct\n");
    for (size_t i = 0; i < s->n_points; i++) {
        const pn_point_t *p = &s->points[i];
        char ps[256];
        params_str(p->m, ps, sizeof ps);
        double y = r->y[i];
        fprintf(out, "%ld,%s,%s,%u,%s,%.10g,%u,%u,%u,%.10g,%.10g,%.10g,%.10g,%.4f,%.10g,"
                     "%.10g,%.10g,%.4f,%.10g,%.10g,%.4f\n",
                p->m->line, s->groups[p->group], p->m->config, p->k.threads, ps, y, p->l1,
                p->l2, p->runs, p->steps_mean, p->steps_sd, p->idle_mean,
                r->ev[MODEL_PNSIM].pred[i], (r->ev[MODEL_PNSIM].pred[i] - y) / y * 100,
                r->ev[MODEL_PNSIM].loo_pred[i], r->x[MODEL_ROOF][i], r->ev[MODEL_ROOF].pred[i],
                (r->ev[MODEL_ROOF].pred[i] - y) / y * 100, r->x[MODEL_BBV][i],
                r->ev[MODEL_BBV].pred[i], (r->ev[MODEL_BBV].pred[i] - y) / y * 100);
    }
}

/* A JSON number, null when not finite. */
static void json_num(FILE *out, const char *key, double v)
{
    if (isfinite(v))
        fprintf(out, "\"%s\": %.10g", key, v);
    else
        fprintf(out, "\"%s\": null", key);
}

/* {"n": .., "r2": .., ...} of metrics m. */
static void json_metrics(FILE *out, const pn_calib_metrics_t *m)
{
    fprintf(out, "{\"n\": %zu, ", m->n);
    json_num(out, "r2", m->r2);
    fputs(", ", out);
    json_num(out, "rmse_us", m->rmse);
    fputs(", ", out);
    json_num(out, "mape_pct", m->mape);
    fputs(", ", out);
    json_num(out, "geo_pct", m->geo);
    fputs(", ", out);
    json_num(out, "max_pct", m->max_ape);
    fprintf(out, ", \"nonpositive\": %zu}", m->n_nonpos);
}

/* "key": metrics, "spearman": .., "leave_one_kernel_out": metrics: a fit's
 * evaluation (a model's over all points, or one kernel's). */
static void json_eval(FILE *out, const char *key, const pn_calib_metrics_t *fit,
                      double spearman, const pn_calib_metrics_t *loo)
{
    fprintf(out, "\"%s\": ", key);
    json_metrics(out, fit);
    fputs(", ", out);
    json_num(out, "spearman", spearman);
    fputs(", \"leave_one_kernel_out\": ", out);
    json_metrics(out, loo);
}

/* The report as one JSON object: what the text report says, keyed. */
void pn_calib_report_json(FILE *out, const calib_run_t *r)
{
    const pn_point_set_t *s = r->set;
    fputs("{\n  \"device\": ", out);
    pn_json_string(out, r->dev->name);
    fputs(",\n  \"measurements\": ", out);
    pn_json_string(out, r->meas->path);
    fprintf(out, ",\n  \"n_points\": %zu,\n  \"n_kernels\": %zu,\n  \"engine\": ", s->n_points,
            s->n_groups);
    pn_json_string(out, s->points[0].engine);
    fprintf(out, ",\n  \"weighting\": \"%s\",\n  \"net\": \"%s\",\n",
            r->weighted ? "relative" : "none", r->pipelined ? "pipelined" : "paper");
    if (!r->pipelined)
        fprintf(out, "  \"latency\": {\"global\": %u, \"shared\": %u, \"searched\": %s},\n",
                r->l1, r->l2, r->searched ? "true" : "false");
    if (r->pipelined) {
        fprintf(out, "  \"probed\": {\"clock_mhz\": %.10g, \"launch_us\": %.10g, \"all\": ",
                r->clock_mhz, r->launch_us);
        json_metrics(out, &r->probed_all);
        fputs("},\n", out);
    }
    fputs("  \"models\": [", out);
    for (int k = 0; k < N_MODELS; k++) {
        const pn_model_eval_t *m = &r->ev[k];
        fprintf(out, "%s\n    {\"model\": \"%s\", ", k ? "," : "", pn_calib_model_names[k]);
        json_num(out, "a", m->fit.a);
        fputs(", ", out);
        json_num(out, "b", m->fit.b);
        fputs(", ", out);
        json_eval(out, "all", &m->all, m->spearman, &m->loo);
        fputs("}", out);
    }
    fputs("\n  ],\n  \"per_kernel\": [", out);
    for (size_t g = 0; g < s->n_groups; g++) {
        const pn_group_eval_t *ge = &r->ev[MODEL_PNSIM].groups[g];
        fprintf(out, "%s\n    {\"kernel\": ", g ? "," : "");
        pn_json_string(out, s->groups[g]);
        fputs(", ", out);
        json_eval(out, "fit", &ge->fit, ge->spearman, &ge->loo);
        fputs(", ", out);
        json_num(out, "roofline_mape_pct", r->ev[MODEL_ROOF].groups[g].fit.mape);
        fputs(", ", out);
        json_num(out, "bbv_mape_pct", r->ev[MODEL_BBV].groups[g].fit.mape);
        if (r->pipelined) {
            fputs(", \"probed\": ", out);
            json_metrics(out, &r->probed_group[g]);
        }
        fputs("}", out);
    }
    fputs("\n  ],\n  \"points\": [", out);
    for (size_t i = 0; i < s->n_points; i++) {
        const pn_point_t *p = &s->points[i];
        char ps[256];
        params_str(p->m, ps, sizeof ps);
        fprintf(out, "%s\n    {\"line\": %ld, \"kernel\": ", i ? "," : "", p->m->line);
        pn_json_string(out, s->groups[p->group]);
        fputs(", \"config\": ", out);
        pn_json_string(out, p->m->config);
        fprintf(out, ", \"threads\": %u, \"params\": ", p->k.threads);
        pn_json_string(out, ps);
        fprintf(out, ", \"measured_us\": %.10g, \"runs\": %u, \"steps_mean\": %.10g, "
                "\"steps_sd\": %.10g, ", r->y[i], p->runs, p->steps_mean, p->steps_sd);
        json_num(out, "pnsim_us", r->ev[MODEL_PNSIM].pred[i]);
        fputs(", ", out);
        json_num(out, "pnsim_loo_us", r->ev[MODEL_PNSIM].loo_pred[i]);
        if (r->pipelined) {
            fputs(", ", out);
            json_num(out, "probed_us", r->probed[i]);
        }
        fputs(", ", out);
        json_num(out, "roofline_us", r->ev[MODEL_ROOF].pred[i]);
        fputs(", ", out);
        json_num(out, "bbv_us", r->ev[MODEL_BBV].pred[i]);
        fputs("}", out);
    }
    fputs("\n  ]\n}\n", out);
}

void pn_calib_report_text(FILE *out, const calib_run_t *r)
{
    print_report(out, r);
    if (r->pipelined)
        print_probed_groups(out, r);
}
