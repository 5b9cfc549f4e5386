/* pn_run_report.c - the report of `pnsim run`: a model's runs in text, JSON
 * and CSV. */
#include "pn_run_report.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "pn_sass_sim.h"

/* The binding bound over the mean steps: how close the run is to the
 * roofline (1: at the bound). */
static double of_peak(const pn_run_report_t *r)
{
    return r->steps.mean > 0 ? (double)r->bounds.steps[r->bounds.binding] / r->steps.mean : 0;
}

/* The JSON report up to the runs' array, one run, and its end. */
static void json_head(FILE *out, const pn_run_report_t *r)
{
    fputs("{\n  \"kernel\": ", out);
    pn_json_string(out, r->kernel);
    fputs(",\n  \"device\": ", out);
    pn_json_string(out, r->device);
    fprintf(out, ",\n  \"threads\": %u,\n  \"warps\": %u,\n", r->threads, r->warps);
    if (r->has_bounds)            /* the pipelined net: its own parameters only */
        fprintf(out, "  \"model\": {%s},\n", r->model_json ? r->model_json : "");
    else
        fprintf(out, "  \"model\": {\"schedulers\": %u, \"latency\": {\"global\": %u, "
                "\"shared\": %u}, \"selection\": \"%s\"%s%s},\n", r->schedulers, r->l1, r->l2,
                r->selection, r->model_json && *r->model_json ? ", " : "",
                r->model_json ? r->model_json : "");
    fprintf(out, "  \"net\": {\"places\": %u, \"transitions\": %u, \"arcs\": %zu},\n",
            r->places, r->transitions, r->arcs);
    fprintf(out, "  \"engine\": \"%s\",\n", r->engine);
    fputs("  ", out);
    pn_json_summary(out, "steps", &r->steps);
    fputs(",\n  ", out);
    pn_json_summary(out, "idle_steps", &r->idle);
    fputs(",\n", out);
    if (r->calibrated)
        fprintf(out, "  \"time_us\": {\"mean\": %.10g, \"sd\": %.10g},\n",
                r->us_per_step * r->steps.mean + r->us_offset, r->us_per_step * r->steps.sd);
    if (r->has_bounds) {
        fputs("  \"bounds\": {", out);
        for (int i = 0; i < PN_BOUNDS; i++)
            if (r->bounds.steps[i] || i < PN_BOUND_PIPE0)
                fprintf(out, "\"%s\": %" PRIu64 ", ", pn_pipe_bound_names[i],
                        r->bounds.steps[i]);
        fprintf(out, "\"binding\": \"%s\", \"of_peak\": %.4g},\n",
                pn_pipe_bound_names[r->bounds.binding], of_peak(r));
    }
    fputs("  \"runs\": [", out);
}

static void json_run(FILE *out, uint64_t i, const pn_run_result_t *x)
{
    fprintf(out, "%s\n    {\"seed\": %" PRIu64 ", \"steps\": %" PRIu64
            ", \"idle_steps\": %" PRIu64 ", \"firings\": %" PRIu64 "}",
            i ? "," : "", x->seed, x->steps, x->idle_steps, x->firings);
}

static void json_tail(FILE *out)
{
    fputs("\n  ]\n}\n", out);
}

static void report_json(FILE *out, const void *data)
{
    const pn_run_report_t *r = data;
    json_head(out, r);
    for (uint32_t i = 0; i < r->runs; i++)
        json_run(out, i, &r->results[i]);
    json_tail(out);
}

static void csv_header(FILE *out, const pn_run_report_t *r)
{
    fputs("kernel,threads,warps,run,seed,steps,idle_steps,firings", out);
    fputs(r->calibrated ? ",time_us\n" : "\n", out);
}

static void csv_row(FILE *out, const pn_run_report_t *r, uint64_t i, const pn_run_result_t *x)
{
    fprintf(out, "%s,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, r->kernel,
            r->threads, r->warps, i, x->seed, x->steps, x->idle_steps, x->firings);
    if (r->calibrated)
        fprintf(out, ",%.6g", r->us_per_step * (double)x->steps + r->us_offset);
    fputc('\n', out);
}

static void report_csv(FILE *out, const void *data)
{
    const pn_run_report_t *r = data;
    csv_header(out, r);
    for (uint32_t i = 0; i < r->runs; i++)
        csv_row(out, r, i, &r->results[i]);
}

static void text_row(FILE *out, const char *name, const pn_summary_t *s)
{
    fprintf(out, "  %-12s %12.1f %10.1f %10" PRIu64 " %10" PRIu64 "\n", name, s->mean, s->sd,
            s->min, s->max);
}

static void report_text(FILE *out, const void *data)
{
    const pn_run_report_t *r = data;
    fprintf(out, "kernel   %s (%s)\n", r->kernel, r->config_path);
    fprintf(out, "device   %s%s%s%s\n", r->device, r->device_desc ? " (" : "",
            r->device_desc ? r->device_desc : "", r->device_desc ? ")" : "");
    fprintf(out, "block    %u threads = %u warps\n", r->threads, r->warps);
    if (r->model_text && *r->model_text)
        fprintf(out, "model    %s\n", r->model_text);
    else
        fprintf(out, "model    %u schedulers, global latency %u, shared latency %u, selection %s\n",
                r->schedulers, r->l1, r->l2, r->selection);
    if (!r->places && r->has_sass)
        fputs("net      none: the warps run their SASS program on the sass engine\n", out);
    else
        fprintf(out, "net      %u places, %u transitions, %zu arcs\n", r->places,
                r->transitions, r->arcs);
    if (r->unsolved)
        fprintf(out, "plan     %u backward branch%s whose split the counts do not give, taken "
                "on half their visits (doc/dependencies.md, \"Per-warp shape\")\n", r->unsolved,
                r->unsolved == 1 ? "" : "es");
    if (r->has_sass && (r->covered < 0.97 || r->covered > 1.03))
        fprintf(out, "plan     the warps run %.0f %% of the instructions the program counts "
                "(control flow the plan does not follow; doc/dependencies.md)\n",
                100 * r->covered);
    fprintf(out, "runs     %u (seeds %" PRIu64 "..%" PRIu64 "), engine %s\n\n", r->runs, r->seed,
            r->seed + r->runs - 1, r->engine);
    fprintf(out, "  %-12s %12s %10s %10s %10s\n", "", "mean", "sd", "min", "max");
    text_row(out, "steps", &r->steps);
    text_row(out, "idle steps", &r->idle);
    if (r->calibrated)
        fprintf(out, "  %-12s %12.3f %10.3f\n", "time (us)",
                r->us_per_step * r->steps.mean + r->us_offset, r->us_per_step * r->steps.sd);
    if (r->has_bounds) {
        fputs("\nbounds  ", out);
        for (int i = 0, first = 1; i < PN_BOUNDS; i++) {
            if (!r->bounds.steps[i] && i >= PN_BOUND_PIPE0)
                continue;
            fprintf(out, "%s%s %" PRIu64, first ? " " : ", ", pn_pipe_bound_names[i],
                    r->bounds.steps[i]);
            first = 0;
        }
        fprintf(out, " steps\n        %s-bound, at %.0f %% of its peak (the bound over the mean steps)\n",
                pn_pipe_bound_names[r->bounds.binding], 100 * of_peak(r));
    }
    else
        fprintf(out, "\n(device %s is not calibrated: no time prediction)\n", r->device);
}

pn_status_t pn_run_report_write(FILE *out, pn_format_t fmt, const pn_run_report_t *r,
                                pn_error_t *err)
{
    static const pn_report_writers_t writers = { report_text, report_json, report_csv };
    return pn_report_write(out, fmt, &writers, r, "the report", err);
}

pn_status_t pn_run_report_fill(pn_run_report_t *r, const pn_model_t *m,
                               const pn_prepared_t *prep, const pn_run_result_t *results,
                               uint32_t runs, uint64_t seed, unsigned jobs, pn_error_t *err)
{
    memset(r, 0, sizeof *r);
    r->seed = seed;
    r->jobs = jobs;
    r->kernel = m->cfg.kernel_name;
    r->config_path = m->cfg.path;
    r->device = m->dev.name;
    r->device_desc = m->dev.description;
    r->threads = m->kernel.threads;
    r->warps = m->kernel.sm.n_warps;
    r->schedulers = m->kernel.sm.schedulers;
    r->l1 = m->kernel.sm.l1;
    r->l2 = m->kernel.sm.l2;
    r->selection = m->cfg.has_program ? "program" : "paper";
    r->places = m->net.n_places;
    r->transitions = m->net.n_trans;
    r->arcs = pn_net_n_arcs(&m->net, PN_ARC_INPUT) + pn_net_n_arcs(&m->net, PN_ARC_OUTPUT) +
              pn_net_n_arcs(&m->net, PN_ARC_INHIBITOR);
    r->engine = pn_engine_prepared_name(prep);
    r->runs = runs;
    r->results = results;
    r->calibrated = m->dev.calibrated;
    r->us_per_step = m->dev.us_per_step;
    r->us_offset = m->dev.us_offset;
    pn_kernel_describe(&m->kernel, r->model_text_buf, sizeof r->model_text_buf,
                       r->model_json_buf, sizeof r->model_json_buf);
    r->model_text = r->model_text_buf;
    r->model_json = r->model_json_buf;
    pn_error_t e2;
    r->has_bounds = pn_kernel_net_bounds(&m->cfg, &m->kernel, &r->bounds, &r->unsolved,
                                         &r->covered, &e2);
    r->has_sass = r->has_bounds && m->cfg.sass;
    return results ? pn_summary_runs(results, runs, &r->steps, &r->idle, err) : PN_OK;
}

/* ---- streamed: runs written as they come, memory independent of their number ---- */

pn_status_t pn_run_stream_begin(pn_run_stream_t *s, FILE *out, pn_format_t fmt,
                                const pn_run_report_t *r, pn_error_t *err)
{
    memset(s, 0, sizeof *s);
    s->out = out;
    s->fmt = fmt;
    pn_summary_acc_init(&s->steps);
    pn_summary_acc_init(&s->idle);
    (void)r;
    if (fmt != PN_FORMAT_TEXT && !(s->tmp = tmpfile()))
        return pn_error_set(err, PN_EIO, "cannot create a temporary file for the runs: %s",
                            strerror(errno));
    return PN_OK;
}

pn_status_t pn_run_stream_runs(pn_run_stream_t *s, const pn_run_report_t *r,
                               const pn_run_result_t *res, size_t n, pn_error_t *err)
{
    for (size_t i = 0; i < n; i++, s->written++) {
        pn_summary_acc_add(&s->steps, res[i].steps);
        pn_summary_acc_add(&s->idle, res[i].idle_steps);
        if (s->fmt == PN_FORMAT_CSV)
            csv_row(s->tmp, r, s->written, &res[i]);
        else if (s->fmt == PN_FORMAT_JSON)
            json_run(s->tmp, s->written, &res[i]);
    }
    if (s->tmp && ferror(s->tmp))
        return pn_error_set(err, PN_EIO, "write error: %s", strerror(errno ? errno : EIO));
    return PN_OK;
}

pn_status_t pn_run_stream_end(pn_run_stream_t *s, pn_run_report_t *r, pn_error_t *err)
{
    pn_summary_acc_get(&s->steps, &r->steps);
    pn_summary_acc_get(&s->idle, &r->idle);
    pn_status_t st = PN_OK;
    if (s->fmt == PN_FORMAT_TEXT) {
        st = pn_run_report_write(s->out, s->fmt, r, err);
    } else {
        if (s->fmt == PN_FORMAT_JSON)
            json_head(s->out, r);
        else
            csv_header(s->out, r);
        char buf[65536];
        size_t n;
        rewind(s->tmp);
        while ((n = fread(buf, 1, sizeof buf, s->tmp)) > 0)
            fwrite(buf, 1, n, s->out);
        if (ferror(s->tmp))
            st = pn_error_set(err, PN_EIO, "cannot read back the runs: %s", strerror(errno));
        if (s->fmt == PN_FORMAT_JSON)
            json_tail(s->out);
    }
    if (st == PN_OK && ferror(s->out))
        st = pn_error_set(err, PN_EIO, "write error on the report");
    pn_run_stream_abort(s);
    return st;
}

void pn_run_stream_abort(pn_run_stream_t *s)
{
    if (s && s->tmp) {
        fclose(s->tmp);
        s->tmp = NULL;
    }
}
