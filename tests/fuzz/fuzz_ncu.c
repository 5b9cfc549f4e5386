/* fuzz_ncu.c - fuzz target: Nsight Compute's CSV of pnsim import
 * (pn_ncu_read) from a scratch file; then, as pnsim import does, a config
 * written for every launch and a fitted one for the launches of the first
 * launch's kernel and size at distinct block sizes. Oracle beyond the
 * sanitizers: every written config must read back (pn_config_load_string). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pn_kernel_net.h"
#include "pn_ncu.h"

/* Read back the config in buf[0..len) that a writer returned st for. */
static void check_written(pn_status_t st, const pn_error_t *werr, char *buf, size_t len)
{
    pn_error_t err;
    pn_config_t cfg;
    if (st != PN_OK) {
        pn_fuzz_check_error(st, werr);
        return;
    }
    pn_error_clear(&err);
    if (pn_config_load_string(&cfg, buf, len, "written.yaml", &err) != PN_OK) {
        fprintf(stderr, "pnsim fuzz: pnsim import wrote a config it cannot read: %s\n%s",
                err.msg, buf);
        abort();
    }
    pn_config_destroy(&cfg);
}

static void write_one(const pn_ncu_t *ncu, const size_t *idx, size_t n)
{
    pn_error_t err;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        abort();
    pn_error_clear(&err);
    pn_status_t st = n ? pn_ncu_write_fitted(out, ncu, idx, n, "h100", &err)
                       : pn_ncu_write_config(out, ncu, &ncu->launches[idx[0]], "h100", NULL, NULL, &err);
    if (fclose(out) != 0)
        abort();
    check_written(st, &err, buf, len);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pn_error_t err;
    pn_ncu_t ncu;

    pn_error_clear(&err);
    pn_status_t st = pn_ncu_read(&ncu, pn_fuzz_file(data, size, ".csv"), &err);
    if (st != PN_OK) {
        pn_fuzz_check_error(st, &err);
        return 0;
    }
    size_t *idx = malloc((ncu.n_launches ? ncu.n_launches : 1) * sizeof *idx);
    if (!idx)
        abort();
    for (size_t i = 0; i < ncu.n_launches; i++) {
        double occ[4];
        pn_ncu_occupancy(&ncu.launches[i], occ);
        write_one(&ncu, &i, 0);
    }
    /* the first launch's kernel and threads * blocks, distinct threads, sorted */
    size_t n = 0;
    if (ncu.n_launches) {
        const pn_ncu_launch_t *a = &ncu.launches[0];
        uint64_t total = (uint64_t)a->threads * a->blocks;
        for (size_t j = 0; j < ncu.n_launches; j++) {
            const pn_ncu_launch_t *b = &ncu.launches[j];
            int dup = 0;
            if (strcmp(a->kernel, b->kernel) || (uint64_t)b->threads * b->blocks != total)
                continue;
            for (size_t q = 0; q < n; q++)
                dup |= ncu.launches[idx[q]].threads == b->threads;
            if (dup)
                continue;
            size_t q = n++;
            for (; q > 0 && ncu.launches[idx[q - 1]].threads > b->threads; q--)
                idx[q] = idx[q - 1];
            idx[q] = j;
        }
    }
    if (n >= 2)
        write_one(&ncu, idx, n);
    free(idx);
    pn_ncu_destroy(&ncu);
    return 0;
}
