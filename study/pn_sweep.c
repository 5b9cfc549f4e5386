/* pn_sweep.c - sweep points: layout, simulation on all cores, reports. */
#include "pn_sweep.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Points simulated together: bounds the memory held by their nets. */
#define PN_SWEEP_CHUNK 64

void pn_sweep_destroy(pn_sweep_t *sw)
{
    if (!sw)
        return;
    for (size_t i = 0; i < sw->n_points; i++) {
        free(sw->points[i].axis);
        free(sw->points[i].results);
    }
    free(sw->points);
    memset(sw, 0, sizeof *sw);
}

pn_status_t pn_sweep_init(pn_sweep_t *sw, const pn_config_t *cfg, const pn_device_t *dev,
                          uint32_t runs, uint64_t seed, uint64_t max_steps,
                          pn_engine_kind_t engine, pn_error_t *err)
{
    memset(sw, 0, sizeof *sw);
    sw->cfg = cfg;
    sw->dev = dev;
    sw->runs = runs;
    sw->seed = seed;
    sw->max_steps = max_steps;
    sw->engine = engine;
    sw->threads = cfg->threads;
    size_t n = 1;
    for (size_t a = 0; a < cfg->n_sweep; a++) {
        if (cfg->sweep[a].n_values == 0)
            return pn_error_at(err, PN_EINVAL, cfg->path, cfg->sweep[a].pos.line,
                               cfg->sweep[a].pos.col, "sweep axis '%s' has no values",
                               cfg->sweep[a].name);
        if (n > 1000000 / cfg->sweep[a].n_values)
            return pn_error_at(err, PN_ELIMIT, cfg->path, cfg->sweep[a].pos.line,
                               cfg->sweep[a].pos.col, "the sweep has more than 1000000 points");
        n *= cfg->sweep[a].n_values;
    }
    sw->points = calloc(n, sizeof *sw->points);
    if (!sw->points)
        return pn_error_set(err, PN_ENOMEM, "out of memory for %zu sweep points", n);
    sw->n_points = n;
    for (size_t i = 0; i < n; i++) {
        pn_sweep_point_t *pt = &sw->points[i];
        pt->axis = malloc((cfg->n_sweep ? cfg->n_sweep : 1) * sizeof *pt->axis);
        pt->results = calloc(runs ? runs : 1, sizeof *pt->results);
        if (!pt->axis || !pt->results) {
            pn_sweep_destroy(sw);
            return pn_error_set(err, PN_ENOMEM, "out of memory for %zu sweep points", n);
        }
        /* mixed radix: the last axis varies fastest */
        size_t rest = i;
        for (size_t a = cfg->n_sweep; a-- > 0;) {
            pt->axis[a] = cfg->sweep[a].values[rest % cfg->sweep[a].n_values];
            rest /= cfg->sweep[a].n_values;
        }
    }
    return PN_OK;
}

/* Build the net of point pt (its kernel resolved against the device) and
 * prepare its engine with options o, whose idle transition is set here. */
static pn_status_t build_point(const pn_sweep_t *sw, pn_sweep_point_t *pt, pn_net_t *net,
                               pn_run_opts_t *o, pn_prepared_t *prep, pn_error_t *err)
{
    const pn_config_t *cfg = sw->cfg;
    uint32_t threads = sw->threads;
    pn_net_init(net);                 /* destroyable whatever fails below */
    memset(prep, 0, sizeof *prep);
    int has_sched = 0, has_l1 = 0, has_l2 = 0;
    uint32_t sched = 0, l1 = 0, l2 = 0;
    pn_grid_override_t ov = { 0 };
    double *params;
    PN_CHECK(pn_config_param_values(cfg, &params, err));
    for (size_t a = 0; a < cfg->n_sweep; a++) {
        const char *name = cfg->sweep[a].name;
        double v = pt->axis[a];
        if (strcmp(name, "threads") == 0) {
            threads = (uint32_t)v;
        } else if (strcmp(name, "schedulers") == 0) {
            has_sched = 1;
            sched = (uint32_t)v;
        } else if (strcmp(name, "global") == 0) {
            has_l1 = 1;
            l1 = (uint32_t)v;
        } else if (strcmp(name, "shared") == 0) {
            has_l2 = 1;
            l2 = (uint32_t)v;
        } else if (strcmp(name, "blocks") == 0) {
            ov.has_blocks = 1;
            ov.blocks = (uint64_t)v;
        } else if (strcmp(name, "registers") == 0) {
            ov.has_registers = 1;
            ov.registers = (uint32_t)v;
        } else if (strcmp(name, "shared_bytes") == 0) {
            ov.has_shared_bytes = 1;
            ov.shared_bytes = (uint32_t)v;
        } else {
            for (size_t i = 0; i < cfg->n_params; i++)
                if (strcmp(cfg->params[i].name, name) == 0)
                    params[i] = v;
        }
    }
    pn_kernel_t k;
    pn_status_t st = pn_kernel_resolve_with(cfg, sw->dev, threads, params, &ov, &k, err);
    if (st != PN_OK) {
        free(params);
        return st;
    }
    if (has_sched)
        k.sm.schedulers = sched;
    if (has_l1)
        k.sm.l1 = l1;
    if (has_l2)
        k.sm.l2 = l2;
    pt->threads = k.threads;
    pt->warps = k.sm.n_warps;
    pt->schedulers = k.sm.schedulers;
    pt->l1 = k.sm.l1;
    pt->l2 = k.sm.l2;
    pn_sm_layout_t lay = { 0 };
    st = pn_kernel_net_check_steps(cfg, &k, sw->max_steps, sw->max_steps_given, &o->max_steps,
                                   err);
    if (st == PN_OK)
        st = pn_kernel_net_build_for(cfg, &k, params, sw->engine, net, &lay, err);
    o->idle_trans = lay.t0;
    if (st == PN_OK)
        st = pn_kernel_net_engine(prep, sw->engine, cfg, &k, net, o, err);
    pt->engine = pn_engine_prepared_name(prep);
    free(params);
    pn_kernel_destroy(&k);
    return st;
}

/* " threads = 256, schedulers = 2": the point's value on every axis. */
static void axis_values(const pn_sweep_t *sw, const pn_sweep_point_t *pt, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t a = 0; a < sw->cfg->n_sweep && n < size; a++)
        n += (size_t)snprintf(buf + n, size - n, "%s %s = %g", a ? "," : "",
                              sw->cfg->sweep[a].name, pt->axis[a]);
}

/* Name the point in err's message: "at threads = 256, schedulers = 2: ...". */
static void point_context(const pn_sweep_t *sw, const pn_sweep_point_t *pt, pn_error_t *err)
{
    if (!err || sw->cfg->n_sweep == 0)
        return;
    char values[224], ctx[256];
    axis_values(sw, pt, values, sizeof values);
    snprintf(ctx, sizeof ctx, "at sweep point%s", values);
    char msg[PN_ERROR_MSG_MAX];
    memcpy(msg, err->msg, sizeof msg);
    /* keep a leading "file:line:col: " in front */
    const char *body = msg;
    const char *colon = strstr(msg, ": ");
    size_t head = 0;
    if (colon && strncmp(msg, sw->cfg->path, strlen(sw->cfg->path)) == 0) {
        head = (size_t)(colon - msg) + 2;
        body = msg + head;
    }
    int w = snprintf(err->msg, sizeof err->msg, "%.*s%s: ", (int)head, msg, ctx);
    if (w > 0 && (size_t)w < sizeof err->msg)
        memcpy(err->msg + w, body, strnlen(body, sizeof err->msg - (size_t)w - 1) + 1);
    err->msg[sizeof err->msg - 1] = '\0';
}

/* "kernel at threads = 256, schedulers = 2" (the kernel alone without axes) */
static void point_name(const pn_sweep_t *sw, const pn_sweep_point_t *pt, char *buf, size_t size)
{
    char values[224];
    axis_values(sw, pt, values, sizeof values);
    int n = snprintf(buf, size, "%s%s%s", sw->cfg->kernel_name, sw->cfg->n_sweep ? " at" : "",
                     values);
    if (n < 0 || (size_t)n >= size)     /* a long name is cut; it only labels errors */
        buf[size - 1] = '\0';
}

pn_status_t pn_sweep_run(pn_sweep_t *sw, unsigned jobs, pn_progress_fn progress, void *ctx,
                         pn_error_t *err)
{
    pn_net_t nets[PN_SWEEP_CHUNK];
    pn_run_opts_t opts[PN_SWEEP_CHUNK];
    pn_prepared_t preps[PN_SWEEP_CHUNK];
    char names[PN_SWEEP_CHUNK][160];
    pn_job_t *job = calloc((size_t)PN_SWEEP_CHUNK * (sw->runs ? sw->runs : 1), sizeof *job);
    if (!job)
        return pn_error_set(err, PN_ENOMEM, "out of memory for the sweep's runs");
    pn_status_t st = PN_OK;
    for (size_t lo = 0; lo < sw->n_points && st == PN_OK; lo += PN_SWEEP_CHUNK) {
        size_t hi = lo + PN_SWEEP_CHUNK < sw->n_points ? lo + PN_SWEEP_CHUNK : sw->n_points;
        size_t built = 0, nj = 0;
        for (size_t i = lo; i < hi && st == PN_OK; i++, built++) {
            pn_sweep_point_t *pt = &sw->points[i];
            size_t c = i - lo;
            point_name(sw, pt, names[c], sizeof names[c]);
            opts[c] = (pn_run_opts_t){ .max_steps = sw->max_steps, .net_name = names[c],
                                       .stop = sw->stop };
            st = build_point(sw, pt, &nets[c], &opts[c], &preps[c], err);
            if (st != PN_OK) {
                point_context(sw, pt, err);
                pn_engine_release(&preps[c]);
                pn_net_destroy(&nets[c]);
                break;
            }
            for (uint32_t r = 0; r < sw->runs; r++)
                job[nj++] = (pn_job_t){ &preps[c], sw->seed + r, &pt->results[r] };
        }
        if (st == PN_OK) {
            st = pn_engine_run_jobs(job, nj, jobs, progress, ctx, NULL, err);
            if (st != PN_OK)
                pn_kernel_net_locate_error(sw->cfg, sw->max_steps_given, err);
        }
        for (size_t c = 0; c < built; c++) {
            pn_engine_release(&preps[c]);
            pn_net_destroy(&nets[c]);
        }
    }
    free(job);
    if (st != PN_OK)
        return st;
    sw->best = 0;
    for (size_t i = 0; i < sw->n_points; i++) {
        pn_sweep_point_t *pt = &sw->points[i];
        PN_CHECK(pn_summary_runs(pt->results, sw->runs, &pt->steps, &pt->idle, err));
        if (pt->steps.mean < sw->points[sw->best].steps.mean)
            sw->best = i;
    }
    return PN_OK;
}

/* ---- reports ---------------------------------------------------------------- */

/* Is axis a one of the columns every report has anyway (threads)? */
static int is_threads(const pn_sweep_t *sw, size_t a)
{
    return strcmp(sw->cfg->sweep[a].name, "threads") == 0;
}

static double time_us(const pn_sweep_t *sw, double steps)
{
    return sw->dev->us_per_step * steps + sw->dev->us_offset;
}

static void report_csv(FILE *out, const void *data)
{
    const pn_sweep_t *sw = data;
    fputs("threads,warps", out);
    for (size_t a = 0; a < sw->cfg->n_sweep; a++)
        if (!is_threads(sw, a))
            fprintf(out, ",%s", sw->cfg->sweep[a].name);
    /* the paper net's schedulers and latencies; the pipelined net names itself
     * (its parameters are the device's, the same at every point) */
    int pipe = sw->cfg->net == PN_NET_PIPELINED;
    fputs(pipe ? ",net" : ",schedulers,l1,l2", out);
    fputs(",runs,steps_mean,steps_sd,steps_min,steps_max,idle_mean,idle_sd,idle_min,idle_max",
          out);
    if (sw->dev->calibrated)
        fputs(",time_us_mean,time_us_sd", out);
    fputs(",best\n", out);
    for (size_t i = 0; i < sw->n_points; i++) {
        const pn_sweep_point_t *p = &sw->points[i];
        fprintf(out, "%u,%u", p->threads, p->warps);
        for (size_t a = 0; a < sw->cfg->n_sweep; a++)
            if (!is_threads(sw, a))
                fprintf(out, ",%.10g", p->axis[a]);
        if (pipe)
            fputs(",pipelined", out);
        else
            fprintf(out, ",%u,%u,%u", p->schedulers, p->l1, p->l2);
        fprintf(out, ",%u,%.10g,%.10g,%" PRIu64 ",%" PRIu64 ",%.10g,%.10g,%" PRIu64 ",%" PRIu64,
                sw->runs, p->steps.mean, p->steps.sd, p->steps.min, p->steps.max, p->idle.mean,
                p->idle.sd, p->idle.min, p->idle.max);
        if (sw->dev->calibrated)
            fprintf(out, ",%.6g,%.6g", time_us(sw, p->steps.mean),
                    sw->dev->us_per_step * p->steps.sd);
        fprintf(out, ",%d\n", i == sw->best);
    }
}

static void report_json(FILE *out, const void *data)
{
    const pn_sweep_t *sw = data;
    fputs("{\n  \"kernel\": ", out);
    pn_json_string(out, sw->cfg->kernel_name);
    fputs(",\n  \"device\": ", out);
    pn_json_string(out, sw->dev->name);
    fputs(",\n  \"axes\": [", out);
    for (size_t a = 0; a < sw->cfg->n_sweep; a++) {
        fputs(a ? ", " : "", out);
        pn_json_string(out, sw->cfg->sweep[a].name);
    }
    fprintf(out, "],\n  \"runs\": %u,\n  \"seed\": %" PRIu64 ",\n  \"best\": %zu,\n"
            "  \"points\": [", sw->runs, sw->seed, sw->best);
    for (size_t i = 0; i < sw->n_points; i++) {
        const pn_sweep_point_t *p = &sw->points[i];
        fprintf(out, "%s\n    {\"threads\": %u, \"warps\": %u", i ? "," : "", p->threads,
                p->warps);
        for (size_t a = 0; a < sw->cfg->n_sweep; a++)
            if (!is_threads(sw, a)) {
                fputs(", ", out);
                pn_json_string(out, sw->cfg->sweep[a].name);
                fprintf(out, ": %.10g", p->axis[a]);
            }
        if (sw->cfg->net == PN_NET_PIPELINED)
            fprintf(out, ", \"net\": \"pipelined\", \"engine\": \"%s\"", p->engine);
        else
            fprintf(out, ", \"schedulers\": %u, \"latency\": {\"global\": %u, "
                    "\"shared\": %u}, \"engine\": \"%s\"", p->schedulers, p->l1, p->l2,
                    p->engine);
        fputs(", ", out);
        pn_json_summary(out, "steps", &p->steps);
        fputs(", ", out);
        pn_json_summary(out, "idle_steps", &p->idle);
        if (sw->dev->calibrated)
            fprintf(out, ", \"time_us\": {\"mean\": %.10g, \"sd\": %.10g}",
                    time_us(sw, p->steps.mean), sw->dev->us_per_step * p->steps.sd);
        fprintf(out, ", \"best\": %s}", i == sw->best ? "true" : "false");
    }
    fputs("\n  ]\n}\n", out);
}

static void report_text(FILE *out, const void *data)
{
    const pn_sweep_t *sw = data;
    const pn_config_t *cfg = sw->cfg;
    fprintf(out, "kernel   %s (%s)\n", cfg->kernel_name, cfg->path);
    fprintf(out, "device   %s%s%s%s\n", sw->dev->name, sw->dev->description ? " (" : "",
            sw->dev->description ? sw->dev->description : "", sw->dev->description ? ")" : "");
    fprintf(out, "sweep    %zu point%s x %u runs (seeds %" PRIu64 "..%" PRIu64 "), engine %s\n",
            sw->n_points, sw->n_points == 1 ? "" : "s", sw->runs, sw->seed,
            sw->seed + sw->runs - 1, sw->n_points ? sw->points[0].engine : "-");
    for (size_t a = 0; a < cfg->n_sweep; a++) {
        fprintf(out, "         %s:", cfg->sweep[a].name);
        for (size_t v = 0; v < cfg->sweep[a].n_values; v++)
            fprintf(out, " %g", cfg->sweep[a].values[v]);
        fputc('\n', out);
    }
    fputc('\n', out);
    fprintf(out, "  %7s %5s", "threads", "warps");
    for (size_t a = 0; a < cfg->n_sweep; a++)
        if (!is_threads(sw, a))
            fprintf(out, " %10s", cfg->sweep[a].name);
    fprintf(out, " %13s %10s %11s %11s %11s", "steps mean", "sd", "min", "max", "idle mean");
    if (sw->dev->calibrated)
        fprintf(out, " %11s", "time (us)");
    fputc('\n', out);
    for (size_t i = 0; i < sw->n_points; i++) {
        const pn_sweep_point_t *p = &sw->points[i];
        fprintf(out, "%c %7u %5u", i == sw->best ? '*' : ' ', p->threads, p->warps);
        for (size_t a = 0; a < cfg->n_sweep; a++)
            if (!is_threads(sw, a))
                fprintf(out, " %10g", p->axis[a]);
        fprintf(out, " %13.1f %10.1f %11" PRIu64 " %11" PRIu64 " %11.1f", p->steps.mean,
                p->steps.sd, p->steps.min, p->steps.max, p->idle.mean);
        if (sw->dev->calibrated)
            fprintf(out, " %11.2f", time_us(sw, p->steps.mean));
        fputc('\n', out);
    }
    if (sw->n_points) {
        const pn_sweep_point_t *b = &sw->points[sw->best];
        fprintf(out, "\n* best: threads = %u", b->threads);
        for (size_t a = 0; a < cfg->n_sweep; a++)
            if (!is_threads(sw, a))
                fprintf(out, ", %s = %g", cfg->sweep[a].name, b->axis[a]);
        fprintf(out, " (%.1f steps", b->steps.mean);
        if (sw->dev->calibrated)
            fprintf(out, ", %.2f us", time_us(sw, b->steps.mean));
        fputs(")\n", out);
    }
}

pn_status_t pn_sweep_report(FILE *out, pn_format_t fmt, const pn_sweep_t *sw, pn_error_t *err)
{
    static const pn_report_writers_t writers = { report_text, report_json, report_csv };
    return pn_report_write(out, fmt, &writers, sw, "the sweep report", err);
}
