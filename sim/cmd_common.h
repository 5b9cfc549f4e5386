/* cmd_common.h - pieces shared by the pnsim commands: loading a config into
 * a generated net, numeric option parsing, all-or-nothing output files. */
#ifndef PN_CMD_COMMON_H
#define PN_CMD_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include "pn_config.h"
#include "pn_device.h"
#include "pn_error.h"
#include "pn_net.h"
#include "pn_sm.h"

/* A config resolved down to its generated SM net. */
typedef struct pn_cli_model {
    pn_config_t cfg;
    pn_device_t dev;
    pn_kernel_t kernel;
    pn_net_t net;
    pn_sm_layout_t layout;
} pn_cli_model_t;

/* Load path, its device (device_override when non-NULL), resolve it for
 * `threads` threads per block (0: the config's) and build the net. On error
 * m is left destroyed and err holds a "file:line:col: ..." message. */
pn_status_t pn_cli_model_load(pn_cli_model_t *m, const char *path, const char *device_override,
                              uint32_t threads, pn_error_t *err);

/* Free what m owns; m may be zeroed. */
void pn_cli_model_destroy(pn_cli_model_t *m);

/* Parse an unsigned decimal integer in [lo, hi] given to option `opt`. */
pn_status_t pn_cli_parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi,
                             uint64_t *out, pn_error_t *err);

/* An output that appears only when complete: a temporary file beside `path`,
 * renamed over it on commit; "-" or NULL means stdout. */
typedef struct pn_cli_out {
    FILE *f;
    char *path;
    char *tmp;
} pn_cli_out_t;

/* Open the output. Errors: PN_EIO naming the file. */
pn_status_t pn_cli_out_open(pn_cli_out_t *o, const char *path, pn_error_t *err);

/* Flush and close; for a file, rename it into place. On failure nothing is
 * left at path. */
pn_status_t pn_cli_out_commit(pn_cli_out_t *o, pn_error_t *err);

/* Discard the output (removes the temporary file). Safe after commit. */
void pn_cli_out_abort(pn_cli_out_t *o);

/* Print err's message as one line on stderr, prefixed by "pnsim CMD: " unless
 * it already names a file position. Returns the process exit status (1). */
int pn_cli_fail(const char *cmd, const pn_error_t *err);

#endif
