/* pn_kernel_net.h - the net of a resolved point and its engine
 * (pn_kernel_net.c): which generator builds it, which engine runs it, and
 * the lower bound of its steps that refuses a run that cannot end. */
#ifndef PN_KERNEL_NET_H
#define PN_KERNEL_NET_H

#include <stdint.h>

#include "pn_engine.h"
#include "pn_kernel.h"
#include "pn_net.h"
#include "pn_pipe_bounds.h"
#include "pn_sass_sim.h"

/* Build into net (freshly initialised) the net of one resolved point k of
 * cfg: the paper's SM net from k's counts, or, when cfg has a program, the
 * program-order net of pn_program_net_build with k's schedulers and
 * latencies (threads and param_values as for pn_kernel_resolve); nothing for
 * a kernel.sass config (its engine plans from the program: net stays empty,
 * lay zeroed). Errors are
 * prefixed with the config's path when they have no position of their own.
 * On error net holds a partial net that the caller destroys. */
pn_status_t pn_kernel_net_build(const pn_config_t *cfg, const pn_kernel_t *k,
                                const double *param_values, pn_net_t *net,
                                pn_sm_layout_t *lay, pn_error_t *err);

/* The sass engine's plan of point k running cfg's program (cfg->sass; the
 * kernel's pipelined parameters, device, memory and busy SMs) into *sim, for
 * pn_sass_sim_free: as runs use it (bounds_only 0: the DRAM latency settled),
 * or for its bounds alone (1). */
pn_status_t pn_kernel_net_sass_sim(const pn_config_t *cfg, const pn_kernel_t *k, int bounds_only,
                                   pn_sass_sim_t **sim, pn_error_t *err);

/* The lower bounds of point k's steps (pn_pipe_bounds_t: issue, latency, launch, each
 * pipe, L2, DRAM; a roofline of the kernel) into *b: those of its SASS program when
 * cfg->sass, else those of the pipelined net pn_pipe_bounds reads. Returns 0 and leaves
 * *b zero for the paper net (no bounds) or a program whose plan fails (err set). */
int pn_kernel_net_bounds(const pn_config_t *cfg, const pn_kernel_t *k, pn_pipe_bounds_t *b,
                         uint32_t *unsolved, double *covered, pn_error_t *err);

/* 1 when engine `kind` runs a config's points on a compiled engine that
 * plans from parameters, not from the net: auto or compiled (every model has
 * one: counts or programs on either net, grids, kernel.sass). */
int pn_kernel_net_compiled(pn_engine_kind_t kind);

/* pn_kernel_net_build for a run on engine `kind`: where the engine plans
 * from parameters (pn_kernel_net_compiled), net is a counting net
 * (pn_net_set_counting: the same generator, its sizes alone, no names, no
 * arc lists), else the full net. tests/test_steps.c checks that the sizes
 * agree with the full net's. Errors as pn_kernel_net_build. */
pn_status_t pn_kernel_net_build_for(const pn_config_t *cfg, const pn_kernel_t *k,
                                    const double *param_values, pn_engine_kind_t kind,
                                    pn_net_t *net, pn_sm_layout_t *lay, pn_error_t *err);

/* Prepare engine `kind` for net, the net pn_kernel_net_build made of cfg's
 * point k (all borrowed, as o, and must outlive p). This is where the model
 * of a net picks its engine: PN_ENGINE_AUTO takes the model's compiled
 * engine where it has one (the sm engine for the paper's SM net of counts),
 * else fast (program-order nets); PN_ENGINE_COMPILED on a net without one
 * is PN_EINVAL; fast and literal run net. Release p with pn_engine_release,
 * also after an error. O(warps), or the fast plan's O(arcs log arcs). */
pn_status_t pn_kernel_net_engine(pn_prepared_t *p, pn_engine_kind_t kind,
                                     const pn_config_t *cfg, const pn_kernel_t *k,
                                     const pn_net_t *net, const pn_run_opts_t *o,
                                     pn_error_t *err);

/* A lower bound of the steps every run of k's net takes, whatever the seed
 * and engine (saturating at UINT64_MAX). Paper net: the longest warp alone
 * (4 x_a + (5+l1) x_g + (5+l2) x_s + 1; other warps only delay it), and the
 * scheduler tokens' occupation (3 steps per arithmetic instruction, 4+l2 per
 * shared access, 2 per global access) over the schedulers, for a grid
 * (k->sm_grid) the longest warp times ceil(blocks / resident) and the
 * occupation of every block's warps. Pipelined net:
 * the waves of blocks (at most `resident` at once) times the longest warp
 * alone (sum_k x_k L_k), and every instruction of the SM's blocks over the
 * partitions' issue slots. O(warps). */
uint64_t pn_kernel_net_min_steps(const pn_kernel_t *k);

/* An upper estimate of the steps a run of k's net takes: every instruction
 * of every warp of the SM's blocks run one after another, each with its
 * latency, the refill of every bucket it takes from and an inflight token
 * (pipelined), plus barriers and block launches (saturating at UINT64_MAX).
 * O(warps), O(blocks * warps) with per-block counts. */
uint64_t pn_kernel_net_max_steps(const pn_kernel_t *k);

/* The step limit of point k's runs into *limit, and whether they can end
 * within it. Without a user's cap (limit_given 0 and no
 * simulation.max_steps in cfg) the limit follows the kernel: the larger of
 * max_steps (the default), twice pn_kernel_net_max_steps(k) (for kernel.sass
 * also twice a generous estimate from the program: every instruction of the
 * SM's share after the last, each the longest latency plus a one-address
 * update by every lane of every busy SM) and the lower bound, so any finite
 * kernel runs. With a cap, *limit = max_steps, and a
 * point whose runs cannot end within it is refused before anything runs: PN_ELIMIT when pn_kernel_net_min_steps(k) > max_steps, naming the
 * estimate and how to raise the limit, at simulation.max_steps when the
 * limit came from there, else at kernel.counts (limit_given 0) or after
 * "path: " (a --max-steps option). O(warps). */
pn_status_t pn_kernel_net_check_steps(const pn_config_t *cfg, const pn_kernel_t *k,
                                      uint64_t max_steps, int limit_given, uint64_t *limit,
                                      pn_error_t *err);

/* Place a run error (such as reaching max_steps) in the config cfg: at its
 * simulation.max_steps when the limit came from there (limit_given 0 and
 * the key present), else after "path: ". */
void pn_kernel_net_locate_error(const pn_config_t *cfg, int limit_given, pn_error_t *err);


#endif
