/* fuzz_pnml.c - fuzz target: PNML read back by pn_pnml_summary (libxml2
 * and XPath), which the tests use to check the PNML export. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "pn_pnml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_error_t err;
    pn_graph_summary_t s;

    pn_error_clear(&err);
    FILE *in = fopen(pn_fuzz_file(data, size, ".pnml"), "rb");
    if (!in)
        abort();
    pn_status_t st = pn_pnml_summary(in, &s, &err);
    fclose(in);
    if (st != PN_OK)
        pn_fuzz_check_error(st, &err);
    return 0;
}
