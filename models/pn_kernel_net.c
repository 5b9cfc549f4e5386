/* pn_kernel_net.c - the net of one resolved config point and its engine:
 * counts give the paper's SM net (compiled engine: sm), a program gives the
 * program-order net (no compiled engine). */
#include <stdlib.h>
#include <string.h>

#include "pn_config.h"
#include "pn_engine_sm.h"
#include "pn_pipe.h"
#include "pn_program.h"

pn_status_t pn_config_build_net(const pn_config_t *cfg, const pn_kernel_t *k,
                                const double *param_values, pn_net_t *net,
                                pn_sm_layout_t *lay, pn_error_t *err)
{
    pn_status_t st;
    if (k->net == PN_NET_PIPELINED) {
        pn_pipe_layout_t pl;
        pn_pipe_params_t pp = k->pipe;
        pn_program_t *progs = NULL;
        uint32_t warps = k->sm.n_warps;
        if (cfg->has_program) {
            progs = calloc(warps, sizeof *progs);
            if (!progs)
                return pn_error_set(err, PN_ENOMEM, "out of memory for %u programs", warps);
            st = pn_config_programs(cfg, k->threads, param_values, progs, err);
            if (st != PN_OK) {
                free(progs);
                return st;
            }
            pp.programs = progs;
        }
        st = pn_pipe_build(net, &pp, &pl, err);
        if (st != PN_OK)
            pn_error_prefix(err, cfg->path);
        for (uint32_t w = 0; progs && w < warps; w++)
            pn_program_destroy(&progs[w]);
        free(progs);
        if (lay) {
            memset(lay, 0xff, sizeof *lay);
            lay->t0 = pl.t0;
            lay->pw = pl.pw;
        }
        return st;
    }
    if (!cfg->has_program) {
        st = pn_sm_build_grid(net, &k->sm, &k->sm_grid, lay, err);
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

pn_status_t pn_config_prepare_engine(pn_prepared_t *p, pn_engine_kind_t kind,
                                     const pn_config_t *cfg, const pn_kernel_t *k,
                                     const pn_net_t *net, const pn_run_opts_t *o,
                                     pn_error_t *err)
{
    if (k->net == PN_NET_PIPELINED && cfg->has_program)
        return pn_model_engine_prepare(p, kind, &pn_pipe_program_engine, &k->pipe, net, o, err);
    if (k->net == PN_NET_PIPELINED)
        return pn_pipe_engine_prepare(p, kind, &k->pipe, net, o, err);
    if (!cfg->has_program && !pn_sm_grid_is_plain(&k->sm_grid))
        return pn_model_engine_prepare(p, kind, &pn_sm_grid_engine, &k->sm, net, o, err);
    if (!cfg->has_program)
        return pn_sm_engine_prepare(p, kind, &k->sm, net, o, err);
    return pn_program_engine_prepare(p, kind, net, o, err);
}

void pn_config_locate_run_error(const pn_config_t *cfg, int limit_given, pn_error_t *err)
{
    if (limit_given || cfg->max_steps_pos.line <= 0) {
        pn_error_prefix(err, cfg->path);
        return;
    }
    char msg[PN_ERROR_MSG_MAX];
    memcpy(msg, err->msg, sizeof msg);
    pn_error_at(err, err->code, cfg->path, cfg->max_steps_pos.line, cfg->max_steps_pos.col,
                "%s", msg);
}
