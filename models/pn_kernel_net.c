/* pn_kernel_net.c - the net of one resolved config point: counts give the
 * paper's SM net, a program gives the program-order net. */
#include <stdlib.h>

#include "pn_config.h"
#include "pn_program.h"

pn_status_t pn_config_build_net(const pn_config_t *cfg, const pn_kernel_t *k,
                                const double *param_values, pn_net_t *net,
                                pn_sm_layout_t *lay, pn_error_t *err)
{
    pn_status_t st;
    if (!cfg->has_program) {
        st = pn_sm_build(net, &k->sm, lay, err);
        if (st != PN_OK)
            pn_error_prefix(err, cfg->path);
        return st;
    }
    uint32_t warps = k->sm.n_warps;
    pn_program_t *progs = calloc(warps, sizeof *progs);
    if (!progs)
        return pn_error_set(err, PN_ENOMEM, "out of memory for %u programs", warps);
    st = pn_config_programs(cfg, k->threads, param_values, progs, err);
    if (st == PN_OK) {
        st = pn_sm_build_program(net, k->sm.schedulers, k->sm.l1, k->sm.l2, warps, progs, lay,
                                 err);
        if (st != PN_OK)
            pn_error_prefix(err, cfg->path);
        for (uint32_t w = 0; w < warps; w++)
            pn_program_destroy(&progs[w]);
    }
    free(progs);
    return st;
}
