/* pn_device.h - device profiles: hardware facts of one GPU model (per SM) and
 * its optional calibration, read from a YAML data file. */
#ifndef PN_DEVICE_H
#define PN_DEVICE_H

#include <stdint.h>

#include "pn_error.h"
#include "pn_occupancy.h"
#include "pn_pipe_profile.h"

typedef struct pn_device {
    char *name;                   /* "gtx960m" */
    char *description;            /* human-readable chip name, may be NULL */
    char *path;                   /* the profile file it was read from */
    uint32_t sms;                 /* streaming multiprocessors on the chip */
    uint32_t schedulers;          /* warp schedulers per SM: default tokens in p0 */
    uint32_t max_warps;           /* resident warps per SM */
    uint32_t max_threads_per_block;
    uint32_t warp_size;           /* 32 */
    uint32_t l1;                  /* default global latency, steps */
    uint32_t l2;                  /* default shared latency, steps */
    int calibrated;               /* 1 when us_per_step/us_offset are set */
    double us_per_step;           /* time_us = us_per_step * steps + us_offset */
    double us_offset;
    int has_pipe;                 /* a `pipelined:` section (model.net: pipelined) */
    pn_pipe_device_t pipe;        /* with pipe.calibrated from `pipelined_calibration:` */
    int has_occupancy;            /* an `occupancy:` section */
    pn_occ_rules_t occ;
} pn_device_t;

/* Directory of the built-in profiles (<dir>/<name>.yaml). Taken from the
 * environment variable PNSIM_DEVICE_DIR when set, else the build-time default.
 * Never NULL. */
const char *pn_device_dir(void);

/* Load a profile. `ref` is a built-in name (letters, digits, '-', '_') looked
 * up in pn_device_dir(), or a path (contains '/' or ends in .yaml) taken
 * relative to the directory of `from_file` when that is non-NULL. from_file,
 * line and col locate `ref` for error messages (line <= 0: no position).
 * On success dev owns its strings (pn_device_destroy); on error dev is left
 * destroyed-equivalent and err names the file, line and column: an unknown
 * name lists the built-in names found in pn_device_dir(); an unreadable
 * profile is PN_EIO "from_file:line:col: cannot read device profile P:
 * <strerror>" (without a position: "P: cannot read device profile: <strerror>");
 * a bad profile is reported at P's own line and column. */
pn_status_t pn_device_load(pn_device_t *dev, const char *ref, const char *from_file,
                           long line, long col, pn_error_t *err);

/* Free what dev owns; dev may be NULL or zeroed. */
void pn_device_destroy(pn_device_t *dev);

#endif
