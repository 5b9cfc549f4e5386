/* fuzz_sass_insn.c - fuzz target: the SASS instruction parser
 * (pn_sass_insn_parse) on every line of the input. Oracle beyond the
 * sanitizers: a refused line gets a one-line message; a parsed one has an
 * opcode, a kind in range, and register widths of 1, 2 or 4. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pn_sass_insn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char line[512];
    size_t i = 0;
    long no = 1;
    while (i < size) {
        size_t n = 0;
        while (i < size && data[i] != '\n') {
            if (n + 1 < sizeof line)
                line[n++] = data[i] ? (char)data[i] : ' ';
            i++;
        }
        i++;
        line[n] = '\0';
        pn_error_t err;
        pn_sass_insn_t in;
        pn_error_clear(&err);
        pn_status_t st = pn_sass_insn_parse(&in, line, "fuzz.csv", no++, 1, &err);
        if (st != PN_OK) {
            pn_fuzz_check_error(st, &err);
            continue;
        }
        if (!in.opcode[0] || in.kind >= PN_SASS_N_KINDS || in.n_writes > PN_SASS_MAX_WRITES ||
            in.n_reads > PN_SASS_MAX_READS)
            abort();
        for (int k = 0; k < in.n_writes + in.n_reads; k++) {
            const pn_sass_reg_t *r = k < in.n_writes ? &in.writes[k] : &in.reads[k - in.n_writes];
            if (r->width != 1 && r->width != 2 && r->width != 4)
                abort();
        }
    }
    return 0;
}
