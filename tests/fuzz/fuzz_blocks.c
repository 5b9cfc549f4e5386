/* fuzz_blocks.c - fuzz target: a block table CSV (pn_block_table_load) from
 * a scratch file. */
#include "fuzz.h"
#include "pn_bbv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_error_t err;
    pn_block_table_t t;

    pn_error_clear(&err);
    pn_status_t st = pn_block_table_load(&t, pn_fuzz_file(data, size, ".csv"), &err);
    if (st != PN_OK)
        pn_fuzz_check_error(st, &err);
    pn_block_table_destroy(&t);
    return 0;
}
