/* pn_config_expr.h - a config's expressions evaluated for one point:
 * per-warp counts, programs, kernel.blocks/registers/shared_bytes and
 * kernel.memory (pn_config_expr.c, with libmatheval). */
#ifndef PN_CONFIG_EXPR_H
#define PN_CONFIG_EXPR_H

#include <stdint.h>

#include "pn_config.h"

/* Evaluate the counts of every warp for a block of `threads` threads (warps =
 * ceil(threads / 32)). With a program (cfg->has_program) a warp's counts are
 * those its program implies (see pn_config_programs). Variables: every params name (with the value from
 * param_values[i] when param_values is non-NULL, else cfg's), threads, warps,
 * warp (the warp's index). Per-warp overrides replace the kind they name.
 * Values are rounded to the nearest integer, halves away from zero (C round():
 * 2.5 -> 3), and checked after rounding (-0.4 gives 0); a negative, non-finite
 * or above-PN_SM_MAX_COUNT value, or an unknown variable, is an error at the
 * expression's position; an override of a warp >= ceil(threads/32) is an error
 * at the override. out must hold ceil(threads/32) entries. O(warps). */
pn_status_t pn_config_counts(const pn_config_t *cfg, uint32_t threads,
                             const double *param_values, pn_warp_counts_t *out,
                             pn_error_t *err);

/* As pn_config_counts, every count key kept apart (the paper's kinds folded
 * by pn_config_counts): out must hold ceil(threads/32) entries. Variables
 * also include `blocks` (blocks; 0 takes kernel.blocks). O(warps). */
pn_status_t pn_config_counts_full(const pn_config_t *cfg, uint32_t threads, uint64_t blocks,
                                  const double *param_values, pn_counts_t *out,
                                  pn_error_t *err);

/* Evaluate one kernel-level expression e (kernel.blocks, kernel.registers,
 * kernel.shared_bytes) for a block of `threads` threads: variables params,
 * threads, warps and, unless e is kernel.blocks itself (blocks 0), blocks.
 * Rounded and checked as counts, then against [lo, hi]; errors at e. */
pn_status_t pn_config_eval_kernel(const pn_config_t *cfg, const pn_expr_t *e, const char *what,
                                  uint32_t threads, uint64_t blocks, const double *param_values,
                                  uint64_t lo, uint64_t hi, uint64_t *out, pn_error_t *err);

/* Evaluate the program of every warp (cfg->has_program) into out[0..warps),
 * which the function initialises: kernel.program, or a warp's
 * kernel.warps[i].program in its place, or the empty program for a warp that
 * has neither. Repeats are count expressions evaluated as in
 * pn_config_counts (same variables, rounding and range); errors at the
 * repeat's position, also when a warp's implied count of a kind exceeds
 * PN_SM_MAX_COUNT; an override of a warp >= ceil(threads/32) is an error at
 * the override. Without a program every warp gets the empty program. On
 * error out is left destroyed (the caller need not destroy it); on success
 * the caller destroys each entry (pn_program_destroy). O(warps * segments). */
pn_status_t pn_config_programs(const pn_config_t *cfg, uint32_t threads,
                               const double *param_values, pn_program_t *out,
                               pn_error_t *err);

/* A fresh array of cfg's params values, in cfg->params order (at least one
 * entry), for a caller to override some and pass as param_values; the
 * caller frees it. Errors: PN_ENOMEM. O(params). */
pn_status_t pn_config_param_values(const pn_config_t *cfg, double **out, pn_error_t *err);

/* kernel.memory for one point: cfg->memory with every value given as an
 * expression (over params, threads, warps and blocks) evaluated, in the
 * ranges of a number there. Errors at the expression's position: a value out
 * of range, not finite, an unknown variable. O(1). */
pn_status_t pn_config_memory(const pn_config_t *cfg, uint32_t threads, uint64_t blocks,
                             const double *param_values, pn_memory_t *out, pn_error_t *err);

#endif
