/* fuzz_ncu_source.c - fuzz target: Nsight Compute's source page
 * (pn_ncu_source_parse), then every table as pnsim import --source makes it a
 * SASS program (pn_sass_prog_add, pn_sass_prog_finish), written and read back
 * through a program file, and planned for 2 blocks of 2 warps. Oracle beyond
 * the sanitizers: one-line messages; a written program reads back with the
 * same instructions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pn_ncu_source.h"
#include "pn_sass_plan.h"
#include "pn_sass_prog.h"

static void program_of(const pn_ncu_sass_table_t *t)
{
    pn_error_t err;
    pn_sass_prog_t p, q;
    pn_error_clear(&err);
    if (pn_sass_prog_init(&p, "fuzz.csv", "k", 4, &err) != PN_OK)
        abort();
    pn_status_t st = PN_OK;
    for (size_t r = 0; r < t->n_rows && st == PN_OK; r++) {
        const pn_ncu_sass_row_t *row = &t->rows[r];
        st = pn_sass_prog_add(&p, row->source, row->address, t->rows[0].address, row->executed,
                              row->sectors, row->lines, row->wavefronts, row->line,
                              row->source_col, &err);
    }
    if (st == PN_OK)
        st = pn_sass_prog_finish(&p, &err);
    if (st != PN_OK) {
        pn_fuzz_check_error(st, &err);
        pn_sass_prog_destroy(&p);
        return;
    }
    pn_fuzz_sass_roundtrip(&p, &q);
    pn_sass_plan_t pl;
    pn_error_clear(&err);
    st = pn_sass_plan_build(&pl, &q, NULL, 2, 2, &err);
    if (st != PN_OK)
        pn_fuzz_check_error(st, &err);
    else
        pn_sass_plan_destroy(&pl);
    pn_sass_prog_destroy(&q);
    pn_sass_prog_destroy(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_error_t err;
    pn_ncu_source_t s;
    pn_error_clear(&err);
    pn_status_t st = pn_ncu_source_parse(&s, (const char *)data, size, "fuzz.csv", &err);
    if (st != PN_OK) {
        pn_fuzz_check_error(st, &err);
        return 0;
    }
    for (size_t i = 0; i < s.n_tables && i < 4; i++)
        program_of(&s.tables[i]);
    pn_ncu_source_destroy(&s);
    return 0;
}
