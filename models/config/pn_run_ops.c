/* pn_run_ops.c - a kernel.sass config's time instruction by instruction: one
 * run of the sass engine that adds, per op, its issues and the steps its warps
 * waited to issue it (pn_sass_sim_run_ops), written as CSV. */
#include "pn_run_ops.h"

#include <stdlib.h>

#include "pn_report.h"
#include "pn_sass_sim.h"

pn_status_t pn_run_ops_check(const pn_model_t *m, pn_error_t *err)
{
    if (m->cfg.sass && m->kernel.net == PN_NET_PIPELINED)
        return PN_OK;
    return pn_error_set(err, PN_EINVAL, "%s: --ops needs a config whose warps run their SASS "
                        "(kernel.sass)", m->cfg.path);
}

pn_status_t pn_run_ops_write(FILE *out, const pn_model_t *m, uint64_t seed,
                             const pn_run_opts_t *o, pn_error_t *err)
{
    PN_CHECK(pn_run_ops_check(m, err));
    const pn_sass_prog_t *prog = m->cfg.sass;
    pn_sass_sim_t *sim;
    PN_CHECK(pn_kernel_net_sass_sim(&m->cfg, &m->kernel, 0, &sim, err));
    uint32_t n = pn_sass_sim_n_ops(sim);
    double *issued = calloc(n ? n : 1, sizeof *issued);
    double *cycles = calloc(n ? n : 1, sizeof *cycles);
    pn_status_t st = issued && cycles ? PN_OK : pn_error_set(err, PN_ENOMEM, "out of memory");
    pn_run_result_t r;
    if (st == PN_OK)
        st = pn_sass_sim_run_ops(sim, seed, o, &r, issued, cycles, err);
    if (st == PN_OK) {
        double total = 0;
        for (uint32_t i = 0; i < n; i++)
            total += cycles[i];
        fputs("offset,instruction,issued,cycles,cycles_per_issue,share\n", out);
        for (uint32_t i = 0; i < n && i < prog->n; i++) {
            fprintf(out, "0x%x,", prog->ops[i].offset);
            pn_csv_string(out, prog->ops[i].text);
            fprintf(out, ",%.0f,%.0f,%.2f,%.6f\n", issued[i], cycles[i],
                    issued[i] > 0 ? cycles[i] / issued[i] : 0.0,
                    total > 0 ? cycles[i] / total : 0.0);
        }
    }
    free(issued);
    free(cycles);
    pn_sass_sim_free(sim);
    return st;
}
