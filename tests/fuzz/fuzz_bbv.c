/* fuzz_bbv.c - fuzz target: a per-thread BBV CSV (pn_bbv_load) from a
 * scratch file, then its per-warp counts derived against a fixed block
 * table of the block names the seeds use (bb0 .. bb15). */
#include <stdio.h>

#include "fuzz.h"
#include "pn_bbv.h"

#define NB 16

static char name_buf[NB][8];
static char *names[NB];
static long lines[NB];
static pn_warp_counts_t cost[NB];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char table[] = "blocks.csv";
    pn_block_table_t tab = { .path = table, .n = NB, .names = names, .lines = lines,
                             .cost = cost };
    pn_error_t err;
    pn_bbv_t bbv;
    pn_bbv_derived_t d;

    if (!names[0])
        for (int b = 0; b < NB; b++) {
            snprintf(name_buf[b], sizeof name_buf[b], "bb%d", b);
            names[b] = name_buf[b];
            lines[b] = b + 2;
            /* small costs, and one at the count limit so that sums overflow */
            cost[b] = (pn_warp_counts_t){ .arith = (uint64_t)(b % 5), .shared = (uint64_t)(b % 3),
                                          .global = b == NB - 1 ? 4294967295u : (uint64_t)(b % 2) };
        }
    pn_error_clear(&err);
    pn_status_t st = pn_bbv_load(&bbv, pn_fuzz_file(data, size, ".csv"), &err);
    if (st != PN_OK) {
        pn_fuzz_check_error(st, &err);
        return 0;
    }
    for (uint32_t ws = 1; ws <= 32; ws *= 32) {
        st = pn_bbv_derive(&bbv, &tab, ws, &d, &err);
        if (st != PN_OK)
            pn_fuzz_check_error(st, &err);
        pn_bbv_derived_destroy(&d);
    }
    pn_bbv_destroy(&bbv);
    return 0;
}
