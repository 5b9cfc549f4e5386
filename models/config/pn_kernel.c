/* pn_kernel_resolve.c - a config resolved against a device profile: threads
 * within the device's limits, schedulers and latencies from the model section
 * or the device, counts evaluated: the parameters of one simulation point. */
#include "pn_kernel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn_occupancy.h"

/* Position to blame for a threads value: the sweep axis when it came from there. */
/* Where a block size came from: the caller's override (cfg->threads_override:
 * the command line, line -1), kernel.threads, or the sweep's threads axis when
 * it lists the value; else kernel.threads (a measurement row's threads). */
static pn_pos_t threads_pos(const pn_config_t *cfg, uint32_t threads)
{
    if (cfg->threads_override && threads == cfg->threads_override)
        return (pn_pos_t){ -1, -1 };
    if (threads == cfg->threads)
        return cfg->threads_pos;
    for (size_t i = 0; i < cfg->n_sweep; i++)
        if (cfg->sweep[i].name && !strcmp(cfg->sweep[i].name, "threads"))
            for (size_t v = 0; v < cfg->sweep[i].n_values; v++)
                if (cfg->sweep[i].values[v] == (double)threads)
                    return cfg->sweep[i].pos;
    return cfg->threads_pos;
}

/* An error about the block size, blamed where it came from (threads_pos). */
static pn_status_t threads_error(pn_error_t *err, pn_status_t code, const pn_config_t *cfg,
                                 pn_pos_t tp, const char *msg)
{
    if (tp.line < 0)
        return pn_error_set(err, code, "%s (-t/--threads on the command line)", msg);
    return pn_error_at(err, code, cfg->path, tp.line, tp.col, "%s", msg);
}

static pn_status_t pick(const pn_config_t *cfg, const pn_device_t *dev, int has, uint32_t mine,
                        pn_pos_t pos, uint32_t devs, const char *what, uint32_t max,
                        uint32_t *out, pn_error_t *err)
{
    uint32_t v = has ? mine : devs;
    if (v >= 1 && v <= max) {
        *out = v;
        return PN_OK;
    }
    if (has)
        return pn_error_at(err, PN_EINVAL, cfg->path, pos.line, pos.col,
                           "model.%s must be between 1 and %u, got %u", what, max, v);
    return pn_error_at(err, PN_EINVAL, dev->path, 0, 0,
                       "%s must be between 1 and %u, got %u", what, max, v);
}

/* kernel.blocks, registers and shared_bytes, the occupancy and the busiest
 * SM's share of the grid. */
static pn_status_t resolve_grid(const pn_config_t *cfg, const pn_device_t *dev, uint32_t threads,
                                uint32_t warps, const double *pv, const pn_grid_override_t *ov,
                                pn_kernel_t *t, pn_error_t *err)
{
    uint64_t blocks = 1, regs = 0, shared = 0;
    if (ov && ov->has_blocks)
        blocks = ov->blocks;
    else if (cfg->blocks.text)
        PN_CHECK(pn_config_eval_kernel(cfg, &cfg->blocks, "kernel.blocks", threads, 0, pv, 1,
                                       UINT32_MAX, &blocks, err));
    if (ov && ov->has_registers)
        regs = ov->registers;
    else if (cfg->registers.text)
        PN_CHECK(pn_config_eval_kernel(cfg, &cfg->registers, "kernel.registers", threads,
                                       blocks, pv, 1, 255, &regs, err));
    if (ov && ov->has_shared_bytes)
        shared = ov->shared_bytes;
    else if (cfg->shared_bytes.text)
        PN_CHECK(pn_config_eval_kernel(cfg, &cfg->shared_bytes, "kernel.shared_bytes", threads,
                                       blocks, pv, 0, 16777216, &shared, err));
    t->blocks = blocks;
    t->registers = (uint32_t)regs;
    t->shared_bytes = (uint32_t)shared;
    t->resident = dev->max_warps / warps;
    if (dev->has_occupancy) {
        pn_status_t st = pn_occupancy(&dev->occ, warps, t->registers, t->shared_bytes, &t->occ,
                                      err);
        if (st != PN_OK) {
            pn_pos_t at = t->occ.by_shared == 0 && cfg->shared_bytes.text ? cfg->shared_bytes.pos
                          : t->occ.by_registers == 0 && cfg->registers.text ? cfg->registers.pos
                          : threads_pos(cfg, threads);
            char msg[PN_ERROR_MSG_MAX];
            snprintf(msg, sizeof msg, "%.900s (device %s)", err->msg,
                     dev->name ? dev->name : "?");
            return threads_error(err, st, cfg, at, msg);
        }
        t->has_occupancy = 1;
        t->resident = t->occ.resident;
    }
    if (t->resident < 1)
        t->resident = 1;
    t->busy_sms = blocks < dev->sms ? (uint32_t)blocks : dev->sms;
    t->sm_blocks = (uint32_t)((blocks + dev->sms - 1) / dev->sms);
    t->share = blocks > 0 ? (double)t->busy_sms * t->sm_blocks / (double)blocks : 1;
    t->waves = (t->sm_blocks + t->resident - 1) / t->resident;
    return PN_OK;
}

/* Every warp of a block passes the same barriers. */
static pn_status_t check_barriers(const pn_config_t *cfg, const pn_counts_t *full,
                                  uint32_t warps, pn_error_t *err)
{
    for (uint32_t w = 1; w < warps; w++)
        if (full[w].n[PN_CK_BARRIERS] != full[0].n[PN_CK_BARRIERS]) {
            pn_pos_t at = cfg->has_program ? cfg->program.pos : cfg->count[PN_CK_BARRIERS].pos;
            for (size_t i = 0; i < cfg->n_overrides; i++) {
                const pn_warp_override_t *o = &cfg->overrides[i];
                if (o->count[PN_CK_BARRIERS].text)
                    at = o->count[PN_CK_BARRIERS].pos;
                else if (o->program.segs && (o->warp == w || at.line <= 0))
                    at = o->program.pos;    /* sync items of a warp's own program */
            }
            return pn_error_at(err, PN_EINVAL, cfg->path, at.line, at.col,
                               "barriers: warp %u passes %llu barriers and warp 0 %llu; every "
                               "warp of a block passes the same barriers", w,
                               (unsigned long long)full[w].n[PN_CK_BARRIERS],
                               (unsigned long long)full[0].n[PN_CK_BARRIERS]);
        }
    return PN_OK;
}

/* The pipelined net's parameters: the device's section with the config's
 * overrides, counts by pipelined kind, loads split by level. */
static pn_status_t resolve_pipelined(const pn_config_t *cfg, const pn_device_t *dev,
                                     const double *param_values,
                                     const pn_counts_t *full, pn_kernel_t *t, pn_error_t *err)
{
    if (!dev->has_pipe)
        return pn_error_at(err, PN_EINVAL, cfg->path, cfg->net_pos.line, cfg->net_pos.col,
                           "model.net: pipelined needs the device profile's pipelined "
                           "section, and %s (%s) has none (pnsim probe writes one)",
                           dev->name ? dev->name : "?", dev->path ? dev->path : "?");
    t->pdev = dev->pipe;
    pn_pipe_device_merge(&t->pdev, &cfg->pipe_over);
    if (cfg->pipe_over.set || cfg->pipe_over.set2)
        t->pdev.calibrated = 0;      /* a calibration holds for the profile's own values */
    pn_memory_t mem;
    PN_CHECK(pn_config_memory(cfg, t->threads, t->blocks, param_values, &mem, err));
    t->mem = mem;
    const uint32_t warps = t->sm.n_warps;
    pn_pipe_counts_t *pc = calloc(warps, sizeof *pc);
    if (!pc)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    for (uint32_t w = 0; w < warps; w++) {
        const uint64_t *n = full[w].n;
        uint64_t *o = pc[w].n;
        o[PN_PIPE_ARITH] = n[PN_CK_ARITH];
        o[PN_PIPE_SFU] = n[PN_CK_SFU];
        o[PN_PIPE_SHARED_LD] = n[PN_CK_SHARED] + n[PN_CK_SHARED_LD];
        o[PN_PIPE_SHARED_ST] = n[PN_CK_SHARED_ST];
        pn_memory_split(&mem, n[PN_CK_GLOBAL] + n[PN_CK_GLOBAL_LD], &o[PN_PIPE_LD_L1],
                        &o[PN_PIPE_LD_L2], &o[PN_PIPE_LD_DRAM]);
        o[PN_PIPE_GLOBAL_ST] = n[PN_CK_GLOBAL_ST];
        for (int k = 0; k < PN_PIPE_KINDS; k++)
            if (o[k] > PN_PIPE_MAX_COUNT) {
                free(pc);
                return pn_error_at(err, PN_ELIMIT, cfg->path, cfg->kernel_pos.line,
                                   cfg->kernel_pos.col, "warp %u: %s instructions exceed %llu",
                                   w, pn_pipe_kind_names[k],
                                   (unsigned long long)PN_PIPE_MAX_COUNT);
            }
    }
    pn_pipe_params_from(&t->pipe, &t->pdev, &mem, t->busy_sms);
    /* a DRAM-bound launch takes its sectors over the device's rate: the busiest
     * SM, with more than the mean of blocks, draws more than an even share */
    if (t->share > 1)
        t->pipe.rate[PN_PIPE_DRAM] = (uint32_t)llround(t->pipe.rate[PN_PIPE_DRAM] * t->share);
    t->pipe.n_warps = warps;
    t->pipe.warps = pc;
    /* with programs, the barriers are their sync items (pipe.programs) */
    t->pipe.barriers = cfg->has_program ? 0 : full[0].n[PN_CK_BARRIERS];
    t->pipe.blocks = t->sm_blocks;
    t->pipe.resident = t->resident < t->sm_blocks ? t->resident : t->sm_blocks;
    pn_status_t st = pn_pipe_check(&t->pipe, err);
    if (st != PN_OK)
        pn_error_prefix(err, cfg->path);
    return st;
}

pn_status_t pn_kernel_resolve(const pn_config_t *cfg, const pn_device_t *dev,
                              uint32_t threads, const double *param_values,
                              pn_kernel_t *k, pn_error_t *err)
{
    return pn_kernel_resolve_with(cfg, dev, threads, param_values, NULL, k, err);
}

pn_status_t pn_kernel_resolve_with(const pn_config_t *cfg, const pn_device_t *dev,
                                   uint32_t threads, const double *param_values,
                                   const pn_grid_override_t *ov, pn_kernel_t *k,
                                   pn_error_t *err)
{
    if (!k)
        return pn_error_set(err, PN_EINVAL, "pn_kernel_resolve: NULL argument");
    memset(k, 0, sizeof *k);
    if (!cfg || !dev)
        return pn_error_set(err, PN_EINVAL, "pn_kernel_resolve: NULL argument");
    if (threads == 0)
        threads = cfg->threads;
    pn_pos_t tp = threads_pos(cfg, threads);
    const char *dname = dev->name ? dev->name : "?";
    uint32_t tmax = dev->max_threads_per_block < PN_SM_MAX_THREADS ? dev->max_threads_per_block
                                                             : PN_SM_MAX_THREADS;
    char msg[256];
    if (threads < 1 || threads > tmax) {
        snprintf(msg, sizeof msg, "threads must be between 1 and %u for device %s, got %u",
                 tmax, dname, threads);
        return threads_error(err, PN_ELIMIT, cfg, tp, msg);
    }
    uint32_t warps = pn_sm_warps_of(threads);
    if (warps > dev->max_warps) {
        snprintf(msg, sizeof msg, "threads %u make %u warps, more than the %u resident warps "
                 "per SM of device %s", threads, warps, dev->max_warps, dname);
        return threads_error(err, PN_ELIMIT, cfg, tp, msg);
    }

    pn_kernel_t t;
    memset(&t, 0, sizeof t);
    t.net = cfg->net;
    PN_CHECK(pick(cfg, dev, cfg->has_schedulers, cfg->schedulers, cfg->schedulers_pos,
                  dev->schedulers, "schedulers", PN_SM_MAX_SCHEDULERS, &t.sm.schedulers, err));
    PN_CHECK(pick(cfg, dev, cfg->has_l1, cfg->l1, cfg->l1_pos, dev->l1, "latency.global",
                  PN_SM_MAX_LATENCY, &t.sm.l1, err));
    PN_CHECK(pick(cfg, dev, cfg->has_l2, cfg->l2, cfg->l2_pos, dev->l2, "latency.shared",
                  PN_SM_MAX_LATENCY, &t.sm.l2, err));
    t.threads = threads;
    PN_CHECK(resolve_grid(cfg, dev, threads, warps, param_values, ov, &t, err));

    pn_counts_t *full = calloc(warps, sizeof *full);
    pn_warp_counts_t *w = calloc(warps, sizeof *w);
    if (!w || !full) {
        free(w);
        free(full);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    t.sm.n_warps = warps;
    t.sm.warps = w;
    pn_status_t st = pn_config_counts(cfg, threads, param_values, w, err);
    if (st == PN_OK)
        st = pn_config_counts_full(cfg, threads, t.blocks, param_values, full, err);
    if (st == PN_OK)
        st = check_barriers(cfg, full, warps, err);
    if (st == PN_OK && cfg->net == PN_NET_PIPELINED)
        st = resolve_pipelined(cfg, dev, param_values, full, &t, err);
    else if (st == PN_OK) {
        t.sm_grid.blocks = t.sm_blocks;
        t.sm_grid.resident = t.resident < t.sm_blocks ? t.resident : t.sm_blocks;
        t.sm_grid.barriers = cfg->has_program ? 0 : full[0].n[PN_CK_BARRIERS];
        if (cfg->has_program && !pn_sm_grid_is_plain(&t.sm_grid))
            st = pn_error_at(err, PN_EINVAL, cfg->path, cfg->kernel_pos.line,
                             cfg->kernel_pos.col, "kernel.program on the paper net runs one "
                             "block: %u blocks on the SM need counts, or model.net: pipelined",
                             t.sm_blocks);
    }
    free(full);
    if (st == PN_OK && cfg->has_program) {
        t.programs = calloc(warps, sizeof *t.programs);
        st = t.programs ? pn_config_programs(cfg, threads, param_values, t.programs, err)
                        : pn_error_set(err, PN_ENOMEM, "out of memory for %u programs", warps);
        if (st != PN_OK) {
            free(t.programs);
            t.programs = NULL;
        }
    }
    if (st != PN_OK) {
        pn_kernel_destroy(&t);
        return st;
    }
    *k = t;
    return PN_OK;
}

void pn_kernel_destroy(pn_kernel_t *k)
{
    if (!k)
        return;
    for (uint32_t w = 0; k->programs && w < k->sm.n_warps; w++)
        pn_program_destroy(&k->programs[w]);
    free(k->programs);
    free((void *)k->sm.warps);
    free((void *)k->pipe.warps);
    memset(k, 0, sizeof *k);
}

int pn_kernel_time_coef(const pn_kernel_t *k, const pn_device_t *dev, double *a, double *b)
{
    if (k->net == PN_NET_PIPELINED) {
        *a = k->pdev.calibrated ? k->pdev.us_per_step : 1.0 / k->pdev.clock_mhz;
        *b = k->pdev.calibrated ? k->pdev.us_offset : k->pdev.launch_us;
        return 1;
    }
    *a = dev->us_per_step;
    *b = dev->us_offset;
    return dev->calibrated;
}

void pn_kernel_time_device(const pn_kernel_t *k, pn_device_t *dev)
{
    double a, b;
    if (k->net != PN_NET_PIPELINED || !pn_kernel_time_coef(k, dev, &a, &b))
        return;
    dev->calibrated = 1;
    dev->us_per_step = a;
    dev->us_offset = b;
}

void pn_kernel_config_time_device(const pn_config_t *cfg, pn_device_t *dev)
{
    if (cfg->net != PN_NET_PIPELINED || !dev->has_pipe)
        return;
    pn_kernel_t k;
    memset(&k, 0, sizeof k);
    k.net = PN_NET_PIPELINED;
    k.pdev = dev->pipe;
    pn_pipe_device_merge(&k.pdev, &cfg->pipe_over);
    if (cfg->pipe_over.set || cfg->pipe_over.set2)
        k.pdev.calibrated = 0;
    pn_kernel_time_device(&k, dev);
}

void pn_kernel_describe(const pn_kernel_t *k, char *text, size_t tsize, char *json,
                        size_t jsize)
{
    char lim[48] = "warps";
    text[0] = json[0] = '\0';
    if (k->has_occupancy)
        pn_occupancy_limiters(k->occ.limiters, lim, sizeof lim);
    if (k->net == PN_NET_PIPELINED) {
        const pn_pipe_device_t *d = &k->pdev;
        snprintf(text, tsize, "pipelined: %u partitions, clock %.6g MHz, latency arith %u, "
                 "shared %u, l1 %u, l2 %u, dram %u; %llu block%s: %u on this SM, %u resident "
                 "(%s), %llu wave%s; %s", d->partitions, d->clock_mhz, d->latency[0],
                 d->latency[2], d->latency[4], d->latency[5], d->latency[6],
                 (unsigned long long)k->blocks, k->blocks == 1 ? "" : "s", k->sm_blocks,
                 k->resident, lim, (unsigned long long)k->waves,
                 k->waves == 1 ? "" : "s", d->calibrated ? "calibrated" : "time = steps / clock + launch");
        char lat[256] = "";
        size_t o = 0;
        for (int i = 0; i < PN_PD_LAT_KEYS && o < sizeof lat; i++)
            o += (size_t)snprintf(lat + o, sizeof lat - o, "%s\"%s\": %u", i ? ", " : "",
                                  pn_pipe_latency_keys[i], d->latency[i]);
        snprintf(json, jsize, "\"net\": \"pipelined\", \"partitions\": %u, \"clock_mhz\": %.10g, "
                 "\"latency\": {%s}, \"grid\": {\"blocks\": %llu, \"sm_blocks\": %u, "
                 "\"resident\": %u, \"limiter\": \"%s\", \"waves\": %llu}", d->partitions,
                 d->clock_mhz, lat, (unsigned long long)k->blocks, k->sm_blocks, k->resident,
                 lim, (unsigned long long)k->waves);
    } else if (k->blocks > 1 || k->sm_grid.barriers > 0) {
        snprintf(text, tsize, "%llu block%s: %u on this SM, %u resident (%s), %llu wave%s; "
                 "%llu barrier%s per warp", (unsigned long long)k->blocks,
                 k->blocks == 1 ? "" : "s", k->sm_blocks, k->resident, lim,
                 (unsigned long long)k->waves, k->waves == 1 ? "" : "s",
                 (unsigned long long)k->sm_grid.barriers, k->sm_grid.barriers == 1 ? "" : "s");
        snprintf(json, jsize, "\"grid\": {\"blocks\": %llu, \"sm_blocks\": %u, "
                 "\"resident\": %u, \"limiter\": \"%s\", \"waves\": %llu, \"barriers\": %llu}",
                 (unsigned long long)k->blocks, k->sm_blocks, k->resident, lim,
                 (unsigned long long)k->waves, (unsigned long long)k->sm_grid.barriers);
    }
}
