/* fuzz_measure.c - fuzz target: the measurements CSV of pnsim calibrate
 * (pn_measure_parse, through pn_csv_parse), read from memory. */
#include "fuzz.h"
#include "pn_measure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_error_t err;
    pn_measure_t m;

    pn_error_clear(&err);
    pn_status_t st = pn_measure_parse(&m, (const char *)data, size, "fuzz.csv", &err);
    if (st != PN_OK)
        pn_fuzz_check_error(st, &err);
    pn_measure_destroy(&m);
    return 0;
}
