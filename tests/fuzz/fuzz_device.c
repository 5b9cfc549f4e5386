/* fuzz_device.c - fuzz target: a device profile (pn_device_load), with its
 * pipelined and occupancy sections, read from a scratch file. */
#include "fuzz.h"
#include "pn_device.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_error_t err;
    pn_device_t dev;

    pn_error_clear(&err);
    pn_status_t st = pn_device_load(&dev, pn_fuzz_file(data, size, ".yaml"), NULL, 0, 0, &err);
    if (st != PN_OK)
        pn_fuzz_check_error(st, &err);
    pn_device_destroy(&dev);
    return 0;
}
