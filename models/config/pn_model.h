/* pn_model.h - a kernel config loaded down to its generated net: the config,
 * its device profile, the resolved point and the net `pnsim run` simulates. */
#ifndef PN_MODEL_H
#define PN_MODEL_H

#include <stdint.h>

#include "pn_kernel_net.h"
#include "pn_device.h"
#include "pn_error.h"
#include "pn_net.h"
#include "pn_sm.h"

/* A config resolved down to its generated net. */
typedef struct pn_model {
    pn_config_t cfg;
    pn_device_t dev;
    pn_kernel_t kernel;
    pn_net_t net;                 /* pn_kernel_net_build of kernel */
    pn_sm_layout_t layout;        /* layout.t0: the idle transition */
} pn_model_t;

/* Load into dev (zeroed by the caller or not yet used) the device of cfg:
 * device_override (a name or path, errors without a position) when non-NULL,
 * else cfg's `device` key (relative to cfg's file, errors at the key).
 * Errors: pn_device_load's. */
pn_status_t pn_model_load_device(pn_device_t *dev, const pn_config_t *cfg,
                                 const char *device_override, pn_error_t *err);

/* Load path, its device (device_override when non-NULL), resolve it for
 * `threads` threads per block (0: the config's) and build the net. On error
 * m is left destroyed and err holds a "file:line:col: ..." message. */
pn_status_t pn_model_load(pn_model_t *m, const char *path, const char *device_override,
                          uint32_t threads, pn_error_t *err);

/* As pn_model_load, for runs on engine `kind`: where that engine plans from
 * parameters the net is a counting net, its size alone
 * (pn_kernel_net_build_for); m->net is then good for the report's sizes, not
 * for an engine that reads nets. */
pn_status_t pn_model_load_engine(pn_model_t *m, const char *path, const char *device_override,
                                 uint32_t threads, pn_engine_kind_t kind, pn_error_t *err);

/* Free what m owns; m may be zeroed. */
void pn_model_destroy(pn_model_t *m);

#endif
