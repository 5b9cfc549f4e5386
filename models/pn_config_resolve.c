/* pn_config_resolve.c - a config resolved against a device profile: threads
 * within the device's limits, schedulers and latencies from the model section
 * or the device, counts evaluated: the parameters of one simulation point. */
#include "pn_config.h"

#include <stdlib.h>
#include <string.h>

pn_status_t pn_config_param_values(const pn_config_t *cfg, double **out, pn_error_t *err)
{
    double *v = malloc((cfg->n_params ? cfg->n_params : 1) * sizeof *v);
    *out = v;
    if (!v)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    for (size_t i = 0; i < cfg->n_params; i++)
        v[i] = cfg->params[i].value;
    return PN_OK;
}

/* Position to blame for a threads value: the sweep axis when it came from there. */
static pn_pos_t threads_pos(const pn_config_t *cfg, uint32_t threads)
{
    if (threads != cfg->threads)
        for (size_t i = 0; i < cfg->n_sweep; i++)
            if (cfg->sweep[i].name && !strcmp(cfg->sweep[i].name, "threads"))
                return cfg->sweep[i].pos;
    return cfg->threads_pos;
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

pn_status_t pn_config_resolve(const pn_config_t *cfg, const pn_device_t *dev,
                              uint32_t threads, const double *param_values,
                              pn_kernel_t *k, pn_error_t *err)
{
    if (!k)
        return pn_error_set(err, PN_EINVAL, "pn_config_resolve: NULL argument");
    memset(k, 0, sizeof *k);
    if (!cfg || !dev)
        return pn_error_set(err, PN_EINVAL, "pn_config_resolve: NULL argument");
    if (threads == 0)
        threads = cfg->threads;
    pn_pos_t tp = threads_pos(cfg, threads);
    const char *dname = dev->name ? dev->name : "?";
    uint32_t tmax = dev->max_threads_per_block < PN_SM_MAX_THREADS ? dev->max_threads_per_block
                                                             : PN_SM_MAX_THREADS;
    if (threads < 1 || threads > tmax)
        return pn_error_at(err, PN_ELIMIT, cfg->path, tp.line, tp.col,
                           "threads must be between 1 and %u for device %s, got %u", tmax,
                           dname, threads);
    uint32_t warps = pn_sm_warps_of(threads);
    if (warps > dev->max_warps)
        return pn_error_at(err, PN_ELIMIT, cfg->path, tp.line, tp.col,
                           "threads %u make %u warps, more than the %u resident warps per SM "
                           "of device %s", threads, warps, dev->max_warps, dname);

    pn_kernel_t t;
    memset(&t, 0, sizeof t);
    PN_CHECK(pick(cfg, dev, cfg->has_schedulers, cfg->schedulers, cfg->schedulers_pos,
                  dev->schedulers, "schedulers", PN_SM_MAX_SCHEDULERS, &t.sm.schedulers, err));
    PN_CHECK(pick(cfg, dev, cfg->has_l1, cfg->l1, cfg->l1_pos, dev->l1, "latency.global",
                  PN_SM_MAX_LATENCY, &t.sm.l1, err));
    PN_CHECK(pick(cfg, dev, cfg->has_l2, cfg->l2, cfg->l2_pos, dev->l2, "latency.shared",
                  PN_SM_MAX_LATENCY, &t.sm.l2, err));

    pn_warp_counts_t *w = calloc(warps, sizeof *w);
    if (!w)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    pn_status_t st = pn_config_counts(cfg, threads, param_values, w, err);
    if (st != PN_OK) {
        free(w);
        return st;
    }
    t.threads = threads;
    t.sm.n_warps = warps;
    t.sm.warps = w;
    *k = t;
    return PN_OK;
}

void pn_kernel_destroy(pn_kernel_t *k)
{
    if (!k)
        return;
    free((void *)k->sm.warps);
    memset(k, 0, sizeof *k);
}
