/* fuzz_probe.c - fuzz target: the probe suite's CSV (pn_probe_read) from a
 * scratch file, then the pipelined section written from it. */
#include "fuzz.h"
#include "pn_probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_error_t err;
    pn_probe_t pr;

    pn_error_clear(&err);
    pn_status_t st = pn_probe_read(&pr, pn_fuzz_file(data, size, ".csv"), &err);
    if (st != PN_OK) {
        pn_fuzz_check_error(st, &err);
        return 0;
    }
    st = pn_probe_write_section(pn_fuzz_sink(), &pr, 4, "fuzz.csv", &err);
    if (st != PN_OK)
        pn_fuzz_check_error(st, &err);
    return 0;
}
