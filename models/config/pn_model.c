/* pn_model.c - a kernel config loaded down to its generated net. */
#include "pn_model.h"

#include <string.h>

pn_status_t pn_model_load_device(pn_device_t *dev, const pn_config_t *cfg,
                                 const char *device_override, pn_error_t *err)
{
    if (device_override)
        return pn_device_load(dev, device_override, NULL, 0, 0, err);
    return pn_device_load(dev, cfg->device, cfg->path, cfg->device_pos.line,
                          cfg->device_pos.col, err);
}

void pn_model_destroy(pn_model_t *m)
{
    pn_net_destroy(&m->net);
    pn_kernel_destroy(&m->kernel);
    pn_device_destroy(&m->dev);
    pn_config_destroy(&m->cfg);
    memset(m, 0, sizeof *m);
}

pn_status_t pn_model_load(pn_model_t *m, const char *path, const char *device_override,
                          uint32_t threads, pn_error_t *err)
{
    /* the fast engine reads the net: the full net */
    return pn_model_load_engine(m, path, device_override, threads, PN_ENGINE_FAST, err);
}

pn_status_t pn_model_load_engine(pn_model_t *m, const char *path, const char *device_override,
                                 uint32_t threads, pn_engine_kind_t kind, pn_error_t *err)
{
    memset(m, 0, sizeof *m);
    pn_net_init(&m->net);
    pn_status_t st = pn_config_load(&m->cfg, path, err);
    m->cfg.threads_override = threads;
    if (st == PN_OK)
        st = pn_model_load_device(&m->dev, &m->cfg, device_override, err);
    if (st == PN_OK)
        st = pn_kernel_resolve(&m->cfg, &m->dev, threads, NULL, &m->kernel, err);
    if (st == PN_OK) {
        pn_kernel_time_device(&m->kernel, &m->dev);
        st = pn_kernel_net_build_for(&m->cfg, &m->kernel, NULL, kind, &m->net, &m->layout,
                                     err);
    }
    if (st != PN_OK)
        pn_model_destroy(m);
    return st;
}
