/* fuzz_config.c - fuzz target: a config (YAML with count expressions) read
 * from memory, then resolved against the built-in h100 profile, which
 * evaluates its expressions. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "pn_kernel_net.h"

static pn_device_t dev;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_error_t err;
    pn_config_t cfg;
    pn_kernel_t k;

    if (!dev.name && pn_device_load(&dev, "h100", NULL, 0, 0, &err) != PN_OK) {
        fprintf(stderr, "pnsim fuzz: %s (set PNSIM_DEVICE_DIR)\n", err.msg);
        abort();
    }
    pn_error_clear(&err);
    pn_status_t st = pn_config_load_string(&cfg, (const char *)data, size, "fuzz.yaml", &err);
    if (st != PN_OK) {
        pn_fuzz_check_error(st, &err);
        return 0;
    }
    st = pn_kernel_resolve(&cfg, &dev, 0, NULL, &k, &err);
    if (st != PN_OK)
        pn_fuzz_check_error(st, &err);
    else
        pn_kernel_destroy(&k);
    pn_config_destroy(&cfg);
    return 0;
}
