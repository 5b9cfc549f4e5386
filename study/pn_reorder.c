/* pn_reorder.c - what-if reordering: a kernel's per-warp counts simulated in
 * several instruction orders with the same seeds, the band between the best
 * and the worst order, and the best order's gain, in text, JSON or CSV. */
#include "pn_reorder.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pn_sm_engine.h"
#include "pn_pipe_engine.h"
#include "pn_program_net.h"
#include "pn_program_order.h"

/* The pool's progress callback: one more run of an order done. */
static void run_done(void *ctx, size_t job, size_t done, size_t total)
{
    const pn_reorder_t *r = ctx;
    (void)job;
    (void)done;
    (void)total;
    r->on_run(r->ctx);
}

/* Which net a row simulates, and so which engine runs it. */
enum { NET_SM, NET_PROGRAM, NET_PIPE, NET_PIPE_PROGRAM };

/* Run `runs` runs of net on the chosen engine into the next row: net is the
 * point's net of kind `which` (NET_*). */
static pn_status_t simulate(pn_reorder_t *r, const pn_net_t *net, uint32_t t0, int which,
                            const pn_program_t *progs, const char *name,
                            pn_run_result_t *results, pn_error_t *err)
{
    pn_run_opts_t opts = {
        .max_steps = r->max_steps,
        .idle_trans = t0,
        .net_name = r->m->cfg.kernel_name,
        .stop = r->stop,
        .at_step = r->at_step,
    };
    pn_reorder_row_t *row = &r->rows[r->n_rows];
    pn_prepared_t prep;
    const pn_kernel_t *k = &r->m->kernel;
    pn_status_t st;
    if (which == NET_SM)
        st = pn_sm_engine_prepare(&prep, r->engine, &k->sm, net, &opts, err);
    else if (which == NET_PROGRAM)
        st = pn_program_net_engine(&prep, r->engine, &k->sm, progs, net, &opts, err);
    else if (which == NET_PIPE)
        st = pn_pipe_engine_prepare(&prep, r->engine, &k->pipe, net, &opts, err);
    else {
        pn_pipe_params_t pp = k->pipe;       /* the plan copies the programs */
        pp.programs = progs;
        pp.barriers = 0;                     /* the programs carry them as sync items */
        st = pn_model_engine_prepare(&prep, r->engine, &pn_pipe_program_engine, &pp, net, &opts,
                                     err);
    }
    if (st == PN_OK)
        st = pn_engine_run_batch_progress(&prep, r->seed, r->runs, r->jobs,
                                          r->on_run ? run_done : NULL, r, results, err);
    row->engine = pn_engine_prepared_name(&prep);
    pn_engine_release(&prep);
    if (st != PN_OK) {
        char what[64];
        snprintf(what, sizeof what, "order %s", name);
        pn_error_prefix(err, what);
        pn_kernel_net_locate_error(&r->m->cfg, r->max_steps_given, err);
        return err->code;
    }
    row->name = name;
    row->places = net->n_places;
    row->transitions = net->n_trans;
    st = pn_summary_runs(results, r->runs, &row->steps, &row->idle, err);
    if (st == PN_OK)
        r->n_rows++;
    return st;
}

/* Build the sequencer net of progs (one per warp) and simulate it. */
static pn_status_t simulate_programs(pn_reorder_t *r, const pn_program_t *progs, const char *name,
                                     pn_run_result_t *results, pn_error_t *err)
{
    const pn_kernel_t *k = &r->m->kernel;
    const pn_sm_params_t *sm = &k->sm;
    pn_net_t net;
    pn_net_init(&net);
    pn_status_t st;
    uint32_t t0 = 0;
    if (k->net == PN_NET_PIPELINED) {
        pn_pipe_params_t pp = k->pipe;
        pn_pipe_layout_t pl;
        pp.programs = progs;
        pp.barriers = 0;             /* the programs carry them as sync items */
        st = pn_pipe_build(&net, &pp, &pl, err);
        t0 = pl.t0;
    } else {
        pn_sm_layout_t lay;
        st = pn_program_net_build(&net, sm->schedulers, sm->l1, sm->l2, sm->n_warps, progs, &lay,
                                 err);
        t0 = lay.t0;
    }
    if (st != PN_OK)
        pn_error_prefix(err, r->m->cfg.path);
    else
        st = simulate(r, &net, t0, k->net == PN_NET_PIPELINED ? NET_PIPE_PROGRAM : NET_PROGRAM,
                      progs, name, results, err);
    pn_net_destroy(&net);
    return st;
}

/* Does src have a sync item (a barrier)? */
static int src_has_sync(const pn_prog_src_t *src)
{
    for (size_t j = 0; j < src->n_segs; j++)
        for (uint32_t i = 0; i < src->segs[j].n_body; i++)
            if (src->segs[j].body[i].kind == PN_PROGRAM_SYNC)
                return 1;
    return 0;
}

/* On the paper net the orders run one block without barriers: refuse the
 * rest with an error at the kernel (the pipelined net takes grids, and
 * barriers bound the phases its orders permute). */
static pn_status_t check_paper(const pn_config_t *cfg, const pn_kernel_t *k, pn_error_t *err)
{
    if (k->net == PN_NET_PIPELINED)
        return PN_OK;
    int sync = src_has_sync(&cfg->program);
    for (size_t i = 0; i < cfg->n_overrides; i++)
        sync |= src_has_sync(&cfg->overrides[i].program);
    if (sync || !pn_sm_grid_is_plain(&k->sm_grid))
        return pn_error_at(err, PN_EINVAL, cfg->path, cfg->kernel_pos.line, cfg->kernel_pos.col,
                           "reorder on the paper net compares orders of one block without "
                           "barriers: the kernel has %s (the pipelined net takes both)",
                           sync || k->sm_grid.barriers ? "barriers" : "several blocks on the SM");
    return PN_OK;
}

/* Warp w's program in `order`: from the paper net's counts, or from the
 * pipelined net's (global loads of every level, every kind, the barriers). */
static pn_status_t order_program(const pn_kernel_t *k, uint32_t w, pn_order_t order,
                                 pn_program_t *out, pn_error_t *err)
{
    if (k->net != PN_NET_PIPELINED)
        return pn_program_order(out, order, &k->sm.warps[w], err);
    const uint64_t *c = k->pipe.warps[w].n;
    uint64_t n[PN_PROGRAM_KINDS] = { 0 };
    n[PN_KIND_ARITH] = c[PN_PIPE_ARITH];
    n[PN_KIND_SHARED] = c[PN_PIPE_SHARED_LD];
    n[PN_KIND_GLOBAL] = c[PN_PIPE_LD_L1] + c[PN_PIPE_LD_L2] + c[PN_PIPE_LD_DRAM];
    n[PN_PROGRAM_SYNC] = k->pipe.barriers;
    n[PN_PROGRAM_SFU] = c[PN_PIPE_SFU];
    n[PN_PROGRAM_SHARED_ST] = c[PN_PIPE_SHARED_ST];
    n[PN_PROGRAM_GLOBAL_ST] = c[PN_PIPE_GLOBAL_ST];
    return pn_program_order_kinds(out, order, n, err);
}

pn_status_t pn_reorder_run(pn_reorder_t *r, pn_error_t *err)
{
    uint32_t warps = r->m->kernel.sm.n_warps;
    /* every order has the same counts, and so the same lower bound */
    PN_CHECK(pn_kernel_net_check_steps(&r->m->cfg, &r->m->kernel, r->max_steps, r->max_steps_given,
                                       &r->max_steps, err));
    pn_run_result_t *results = calloc(r->runs, sizeof *results);
    pn_program_t *progs = calloc(warps, sizeof *progs);
    pn_status_t st = PN_OK;
    if (!results || !progs) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
        goto done;
    }
    const pn_kernel_t *k = &r->m->kernel;
    const int pipe = k->net == PN_NET_PIPELINED;
    st = check_paper(&r->m->cfg, k, err);
    if (st == PN_OK && r->m->cfg.sass)
        st = pn_error_at(err, PN_EINVAL, r->m->cfg.path, r->m->cfg.kernel_pos.line,
                         r->m->cfg.kernel_pos.col, "reorder permutes counts or a program: "
                         "kernel.sass fixes the order of its instructions");
    /* the loaded net is the program-order net when the config has a program */
    if (st == PN_OK && r->m->cfg.has_program)
        st = simulate(r, &r->m->net, r->m->layout.t0, pipe ? NET_PIPE_PROGRAM : NET_PROGRAM,
                      r->m->kernel.programs, "program", results, err);
    if (st == PN_OK) {
        pn_net_t wpnm;
        pn_net_init(&wpnm);
        uint32_t t0 = 0;
        if (pipe) {
            pn_pipe_layout_t pl;
            st = pn_pipe_build(&wpnm, &k->pipe, &pl, err);
            t0 = pl.t0;
        } else {
            pn_sm_layout_t lay;
            st = pn_sm_build(&wpnm, &k->sm, &lay, err);
            t0 = lay.t0;
        }
        if (st == PN_OK)
            st = simulate(r, &wpnm, t0, pipe ? NET_PIPE : NET_SM, NULL, "random", results, err);
        pn_net_destroy(&wpnm);
    }
    for (int o = 0; o < PN_ORDER_COUNT && st == PN_OK; o++) {
        for (uint32_t w = 0; w < warps && st == PN_OK; w++)
            st = order_program(k, w, (pn_order_t)o, &progs[w], err);
        if (st == PN_OK)
            st = simulate_programs(r, progs, pn_program_order_name((pn_order_t)o), results, err);
        for (uint32_t w = 0; w < warps; w++)
            pn_program_destroy(&progs[w]);
    }
    if (st == PN_OK) {
        r->baseline = 0;
        r->best = r->worst = 0;
        for (size_t i = 1; i < r->n_rows; i++) {
            if (r->rows[i].steps.mean < r->rows[r->best].steps.mean)
                r->best = i;
            if (r->rows[i].steps.mean > r->rows[r->worst].steps.mean)
                r->worst = i;
        }
        double base = r->rows[r->baseline].steps.mean;
        r->gain_pct = base > 0 ? 100.0 * (base - r->rows[r->best].steps.mean) / base : 0.0;
    }
done:
    free(results);
    free(progs);
    return st;
}

/* ---- reports ------------------------------------------------------------- */

static void report_json(FILE *out, const void *data)
{
    const pn_reorder_t *r = data;
    const pn_model_t *m = r->m;
    fputs("{\n  \"kernel\": ", out);
    pn_json_string(out, m->cfg.kernel_name);
    fputs(",\n  \"device\": ", out);
    pn_json_string(out, m->dev.name);
    fprintf(out, ",\n  \"threads\": %u,\n  \"warps\": %u,\n", m->kernel.threads,
            m->kernel.sm.n_warps);
    fprintf(out, "  \"model\": {\"schedulers\": %u, \"latency\": {\"global\": %u, "
            "\"shared\": %u}},\n", m->kernel.sm.schedulers, m->kernel.sm.l1, m->kernel.sm.l2);
    fprintf(out, "  \"runs\": %u,\n  \"seed\": %" PRIu64 ",\n  \"orders\": [", r->runs, r->seed);
    for (size_t i = 0; i < r->n_rows; i++) {
        const pn_reorder_row_t *o = &r->rows[i];
        fprintf(out, "%s\n    {\"name\": \"%s\", \"engine\": \"%s\", \"net\": {\"places\": %u, "
                "\"transitions\": %u}, ", i ? "," : "", o->name, o->engine,
                o->places, o->transitions);
        pn_json_summary(out, "steps", &o->steps);
        fputs(", ", out);
        pn_json_summary(out, "idle_steps", &o->idle);
        fputs(", ", out);
        if (m->dev.calibrated)
            fprintf(out, "\"time_us\": {\"mean\": %.10g, \"sd\": %.10g}, ",
                    m->dev.us_per_step * o->steps.mean + m->dev.us_offset,
                    m->dev.us_per_step * o->steps.sd);
        fprintf(out, "\"best\": %s}", i == r->best ? "true" : "false");
    }
    fprintf(out, "\n  ],\n  \"band\": {\"best\": %.10g, \"worst\": %.10g, \"best_order\": \"%s\", "
            "\"worst_order\": \"%s\"},\n", r->rows[r->best].steps.mean,
            r->rows[r->worst].steps.mean, r->rows[r->best].name, r->rows[r->worst].name);
    fprintf(out, "  \"baseline\": \"%s\",\n  \"gain_pct\": %.10g\n}\n", r->rows[r->baseline].name,
            r->gain_pct);
}

static void report_csv(FILE *out, const void *data)
{
    const pn_reorder_t *r = data;
    const pn_model_t *m = r->m;
    fputs("kernel,threads,warps,order,engine,places,transitions,runs,steps_mean,steps_sd,"
          "steps_min,steps_max,idle_mean,idle_sd,idle_min,idle_max,best,baseline,gain_pct", out);
    fputs(m->dev.calibrated ? ",time_us_mean,time_us_sd\n" : "\n", out);
    double base = r->rows[r->baseline].steps.mean;
    for (size_t i = 0; i < r->n_rows; i++) {
        const pn_reorder_row_t *o = &r->rows[i];
        double gain = base > 0 ? 100.0 * (base - o->steps.mean) / base : 0.0;
        fprintf(out, "%s,%u,%u,%s,%s,%u,%u,%u,%.10g,%.10g,%" PRIu64 ",%" PRIu64 ",%.10g,%.10g,"
                "%" PRIu64 ",%" PRIu64 ",%d,%d,%.10g", m->cfg.kernel_name, m->kernel.threads,
                m->kernel.sm.n_warps, o->name, o->engine, o->places,
                o->transitions, r->runs, o->steps.mean, o->steps.sd, o->steps.min, o->steps.max,
                o->idle.mean, o->idle.sd, o->idle.min, o->idle.max, i == r->best,
                i == r->baseline, gain);
        if (m->dev.calibrated)
            fprintf(out, ",%.10g,%.10g", m->dev.us_per_step * o->steps.mean + m->dev.us_offset,
                    m->dev.us_per_step * o->steps.sd);
        fputc('\n', out);
    }
}

static void report_text(FILE *out, const void *data)
{
    const pn_reorder_t *r = data;
    const pn_model_t *m = r->m;
    const char *desc = m->dev.description;
    fprintf(out, "kernel   %s (%s)\n", m->cfg.kernel_name, m->cfg.path);
    fprintf(out, "device   %s%s%s%s\n", m->dev.name, desc ? " (" : "", desc ? desc : "",
            desc ? ")" : "");
    fprintf(out, "block    %u threads = %u warps\n", m->kernel.threads, m->kernel.sm.n_warps);
    char mtext[512], mjson[512];
    pn_kernel_describe(&m->kernel, mtext, sizeof mtext, mjson, sizeof mjson);
    if (mtext[0])
        fprintf(out, "model    %s\n", mtext);
    else
        fprintf(out, "model    %u schedulers, global latency %u, shared latency %u\n",
                m->kernel.sm.schedulers, m->kernel.sm.l1, m->kernel.sm.l2);
    fprintf(out, "runs     %u per order (seeds %" PRIu64 "..%" PRIu64 ", the same for every "
            "order)\n\n", r->runs, r->seed, r->seed + r->runs - 1);
    fprintf(out, "%41s%-39s%s\n", "", "steps", "idle steps");
    fprintf(out, "  %-14s %-6s %6s %6s  %10s %8s %8s %8s  %10s %8s %8s %8s\n", "order", "engine",
            "places", "trans", "mean", "sd", "min", "max", "mean", "sd", "min", "max");
    for (size_t i = 0; i < r->n_rows; i++) {
        const pn_reorder_row_t *o = &r->rows[i];
        fprintf(out, "%c %-14s %-6s %6u %6u  %10.1f %8.1f %8" PRIu64 " %8" PRIu64 "  %10.1f %8.1f %8"
                PRIu64 " %8" PRIu64 "\n", i == r->best ? '*' : ' ', o->name,
                o->engine, o->places, o->transitions, o->steps.mean, o->steps.sd,
                o->steps.min, o->steps.max, o->idle.mean, o->idle.sd, o->idle.min, o->idle.max);
    }
    const pn_reorder_row_t *b = &r->rows[r->best], *w = &r->rows[r->worst];
    fprintf(out, "\nband     %.1f .. %.1f mean steps (best %s, worst %s)\n", b->steps.mean,
            w->steps.mean, b->name, w->name);
    if (m->dev.calibrated)
        fprintf(out, "time     %.3f .. %.3f us (time_us = %.6g * steps + %.6g)\n",
                m->dev.us_per_step * b->steps.mean + m->dev.us_offset,
                m->dev.us_per_step * w->steps.mean + m->dev.us_offset, m->dev.us_per_step,
                m->dev.us_offset);
    if (r->best == r->baseline)
        fprintf(out, "gain     none: the baseline %s (*) is the best order\n", b->name);
    else
        fprintf(out, "gain     %.2f%% fewer steps with %s (*) than the baseline %s (%.1f)\n",
                r->gain_pct, b->name, r->rows[r->baseline].name,
                r->rows[r->baseline].steps.mean);
}

pn_status_t pn_reorder_report(FILE *out, pn_format_t fmt, const pn_reorder_t *r,
                              pn_error_t *err)
{
    static const pn_report_writers_t writers = { report_text, report_json, report_csv };
    return pn_report_write(out, fmt, &writers, r, "the report", err);
}
