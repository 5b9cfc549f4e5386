/* pn_config.h - the pnsim YAML configuration (../shared/spec/config.md): read
 * and checked with libyaml (pn_config.c), count expressions checked and
 * evaluated with libmatheval (pn_config_expr.c), resolved against a device
 * profile into the generator's parameters (pn_config_resolve.c), and turned
 * into a net with its engine (pn_kernel_net.c). */
#ifndef PN_CONFIG_H
#define PN_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "pn_device.h"
#include "pn_engine.h"
#include "pn_error.h"
#include "pn_occupancy.h"
#include "pn_pipe.h"
#include "pn_pipe_profile.h"
#include "pn_program.h"
#include "pn_sm.h"

/* The count keys of kernel.counts and kernel.warps[i]: the paper's three
 * kinds first (as PN_KIND_*), then the finer kinds of the pipelined net and
 * the barriers. The paper net adds sfu to arith, shared_ld and shared_st to
 * shared, global_ld and global_st to global; the pipelined net reads shared
 * as shared_ld and global as global_ld. */
enum {
    PN_CK_ARITH = PN_KIND_ARITH,
    PN_CK_SHARED = PN_KIND_SHARED,
    PN_CK_GLOBAL = PN_KIND_GLOBAL,
    PN_CK_SFU = 3,
    PN_CK_SHARED_LD = 4,
    PN_CK_SHARED_ST = 5,
    PN_CK_GLOBAL_LD = 6,
    PN_CK_GLOBAL_ST = 7,
    PN_CK_BARRIERS = 8,
    PN_CK_COUNT = 9
};

/* "arith", "shared", "global", "sfu", "shared_ld", "shared_st", "global_ld",
 * "global_st", "barriers", NULL. */
extern const char *const pn_count_keys[PN_CK_COUNT + 1];

/* One warp's counts by count key. */
typedef struct pn_counts {
    uint64_t n[PN_CK_COUNT];
} pn_counts_t;

/* Which net a config simulates (model.net). */
typedef enum pn_net_kind {
    PN_NET_PAPER = 0,             /* spec/wpnm.md, the default */
    PN_NET_PIPELINED = 1          /* models/PIPELINED.md: one step per SM cycle */
} pn_net_kind_t;

/* Where a value stood in the file (1-based; 0 when absent). */
typedef struct pn_pos {
    long line;
    long col;
} pn_pos_t;

/* A count: the expression text as written (a number is an expression too). */
/* Keys of kernel.memory: l1_hit, l2_hit, sectors_ld, sectors_st,
 * shared_wavefronts, lines_ld, lines_st. */
#define PN_MEMORY_KEYS 7

typedef struct pn_expr {
    char *text;                   /* NULL when the key is absent (count 0) */
    pn_pos_t pos;
} pn_expr_t;

/* One segment of a program as written: {repeat: N, body: [kind, kind*K, ...]}. */
typedef struct pn_prog_segment_src {
    pn_expr_t repeat;             /* a count expression; text NULL: absent (1) */
    pn_program_item_t *body;      /* n_body >= 1 items */
    uint32_t n_body;
    pn_pos_t pos;                 /* of the segment */
} pn_prog_segment_src_t;

/* A program as written (kernel.program or kernel.warps[i].program). */
typedef struct pn_prog_src {
    pn_prog_segment_src_t *segs;  /* NULL when the key is absent */
    size_t n_segs;
    pn_pos_t pos;                 /* of the `program` key */
} pn_prog_src_t;

typedef struct pn_warp_override {
    uint32_t warp;                /* warp index */
    pn_pos_t pos;                 /* of the list item */
    pn_expr_t count[PN_CK_COUNT]; /* text NULL: not overridden */
    pn_prog_src_t program;        /* segs NULL: not overridden */
} pn_warp_override_t;

typedef struct pn_param {
    char *name;
    double value;
    pn_pos_t pos;
} pn_param_t;

/* A list of integers under sweep: (threads, schedulers, ...). */
typedef struct pn_sweep_axis {
    char *name;                   /* "threads", "schedulers", "global", "shared", or a params name */
    double *values;
    size_t n_values;
    pn_pos_t pos;
} pn_sweep_axis_t;

typedef struct pn_config {
    char *path;                   /* the file, as given */

    char *device;                 /* name or path; default "gtx960m" when absent */
    pn_pos_t device_pos;

    /* model: overrides of the device profile; has_* says whether given */
    int has_schedulers, has_l1, has_l2;
    uint32_t schedulers, l1, l2;
    pn_pos_t schedulers_pos, l1_pos, l2_pos;
    char *selection;              /* "paper" (the only one so far) */
    pn_pos_t selection_pos;
    pn_net_kind_t net;            /* model.net */
    pn_pos_t net_pos;
    pn_pipe_device_t pipe_over;   /* model: keys of the pipelined section (set says which) */
    pn_pos_t model_pos;

    pn_param_t *params;
    size_t n_params;

    char *kernel_name;            /* default: the file's base name without .yaml */
    uint32_t threads;             /* threads per block */
    pn_pos_t threads_pos;
    pn_pos_t kernel_pos;
    pn_expr_t count[PN_CK_COUNT];
    pn_memory_t memory;           /* kernel.memory, defaults filled in */
    pn_expr_t memory_expr[PN_MEMORY_KEYS]; /* a kernel.memory value given as an
                                            * expression (text NULL: a number) */
    pn_expr_t blocks;             /* kernel.blocks; text NULL: 1 */
    pn_expr_t registers;          /* kernel.registers per thread; text NULL: unknown */
    pn_expr_t shared_bytes;       /* kernel.shared_bytes per block; text NULL: 0 */
    pn_prog_src_t program;        /* kernel.program; exclusive with count */
    int has_program;              /* kernel.program or a warp's program is given */
    pn_warp_override_t *overrides;
    size_t n_overrides;

    /* simulation */
    uint32_t runs;                /* default 10 */
    uint64_t seed;                /* default 1 */
    uint64_t max_steps;           /* default 100000000 */
    pn_pos_t runs_pos, seed_pos, max_steps_pos;

    pn_sweep_axis_t *sweep;
    size_t n_sweep;
} pn_config_t;

/* Read and check the config at path. Every key is checked: unknown keys,
 * wrong types, out-of-range numbers (threads 0, latency 0, schedulers 0,
 * negative or huge integers), a missing `kernel` or `kernel.threads`, and
 * syntax errors in expressions (parsed here, evaluated later; their variables
 * are checked here too, and an expression without variables is evaluated and
 * range-checked here) are errors whose message is "path:line:col: ...". An
 * unreadable file is PN_EIO "path: cannot open: <strerror>". On success cfg
 * owns everything (pn_config_destroy); on error cfg is left empty and needs no
 * destroy (a destroy is harmless). */
pn_status_t pn_config_load(pn_config_t *cfg, const char *path, pn_error_t *err);

/* As pn_config_load, from a string in memory; `name` stands for the file in
 * messages. */
pn_status_t pn_config_load_string(pn_config_t *cfg, const char *text, size_t len,
                                  const char *name, pn_error_t *err);

/* Free what cfg owns; cfg may be NULL or zeroed. */
void pn_config_destroy(pn_config_t *cfg);

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

/* The resolved, checked parameters of one simulation point. */
typedef struct pn_kernel {
    uint32_t threads;
    pn_net_kind_t net;
    pn_sm_params_t sm;            /* sm.warps is owned: pn_kernel_destroy */
    pn_sm_grid_t sm_grid;         /* the paper net's blocks, resident and barriers */
    /* the grid: blocks in all, this (the busiest) SM's share, resident at once */
    uint64_t blocks;
    uint32_t sm_blocks, busy_sms;
    int has_occupancy;            /* the device has occupancy rules */
    pn_occupancy_t occ;           /* with registers and shared_bytes below */
    uint32_t registers, shared_bytes;
    uint32_t resident;            /* blocks resident on the SM at once */
    uint64_t waves;               /* ceil(sm_blocks / resident) */
    /* model.net: pipelined */
    pn_pipe_params_t pipe;        /* pipe.warps is owned */
    pn_pipe_device_t pdev;        /* the device's section with the config's overrides */
} pn_kernel_t;

/* How steps of point k become microseconds, time_us = *a * steps + *b, and
 * whether they do: the pipelined net always (its calibration, else a =
 * 1 / clock_mhz and b = launch_us), the paper net when dev is calibrated. */
int pn_kernel_time_coef(const pn_kernel_t *k, const pn_device_t *dev, double *a, double *b);

/* For a pipelined point k, make dev's linear time map (calibrated,
 * us_per_step, us_offset) the pipelined net's, so that every report prints
 * time_us; leave dev alone for the paper net. */
void pn_kernel_time_device(const pn_kernel_t *k, pn_device_t *dev);

/* The same from the config alone (every point of a config has the same time
 * map): for model.net: pipelined and a device with a pipelined section. */
void pn_config_time_device(const pn_config_t *cfg, pn_device_t *dev);

/* One line describing point k's model and grid for a report ("pipelined: 4
 * partitions, ..., 4096 blocks: 32 on this SM, 8 resident (warps), 4
 * waves"), and the same as JSON members ("\"net\": \"pipelined\", ...",
 * without braces). For the paper net with one block: text and json empty. */
void pn_kernel_describe(const pn_kernel_t *k, char *text, size_t tsize, char *json,
                        size_t jsize);

/* Resolve cfg against dev for `threads` threads per block (0: cfg->threads)
 * and optional param_values (as in pn_config_counts): schedulers and latencies
 * from the model section or else the device, counts evaluated. Errors at the
 * offending key: threads above dev->max_threads_per_block, more warps than
 * dev->max_warps, schedulers or latency of 0 (a threads value other than
 * cfg->threads is blamed on the sweep's threads axis when there is one).
 * On error k is left empty. */
pn_status_t pn_config_resolve(const pn_config_t *cfg, const pn_device_t *dev,
                              uint32_t threads, const double *param_values,
                              pn_kernel_t *k, pn_error_t *err);

/* Values that replace kernel.blocks, kernel.registers and kernel.shared_bytes
 * (a sweep's axes); has_* says which. */
typedef struct pn_grid_override {
    int has_blocks, has_registers, has_shared_bytes;
    uint64_t blocks;
    uint32_t registers, shared_bytes;
} pn_grid_override_t;

/* As pn_config_resolve, with the grid values of ov (NULL: none) in place of
 * the config's expressions. */
pn_status_t pn_config_resolve_with(const pn_config_t *cfg, const pn_device_t *dev,
                                   uint32_t threads, const double *param_values,
                                   const pn_grid_override_t *ov, pn_kernel_t *k,
                                   pn_error_t *err);

/* Free what k owns; k may be NULL or zeroed. */
void pn_kernel_destroy(pn_kernel_t *k);

/* Build into net (freshly initialised) the net of one resolved point k of
 * cfg: the paper's SM net from k's counts, or, when cfg has a program, the
 * program-order net of pn_sm_build_program with k's schedulers and
 * latencies (threads and param_values as for pn_config_resolve). Errors are
 * prefixed with the config's path when they have no position of their own.
 * On error net holds a partial net that the caller destroys. */
pn_status_t pn_config_build_net(const pn_config_t *cfg, const pn_kernel_t *k,
                                const double *param_values, pn_net_t *net,
                                pn_sm_layout_t *lay, pn_error_t *err);

/* Prepare engine `kind` for net, the net pn_config_build_net made of cfg's
 * point k (all borrowed, as o, and must outlive p). This is where the model
 * of a net picks its engine: PN_ENGINE_AUTO takes the model's compiled
 * engine where it has one (the sm engine for the paper's SM net of counts),
 * else fast (program-order nets); PN_ENGINE_COMPILED on a net without one
 * is PN_EINVAL; fast and literal run net. Release p with pn_engine_release,
 * also after an error. O(warps), or the fast plan's O(arcs log arcs). */
pn_status_t pn_config_prepare_engine(pn_prepared_t *p, pn_engine_kind_t kind,
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
uint64_t pn_kernel_min_steps(const pn_kernel_t *k);

/* Refuse, before anything runs, a point whose runs cannot end within
 * max_steps: PN_ELIMIT when pn_kernel_min_steps(k) > max_steps, naming the
 * estimate and how to raise the limit, at simulation.max_steps when the
 * limit came from there, else at kernel.counts (limit_given 0) or after
 * "path: " (a --max-steps option). O(warps). */
pn_status_t pn_config_check_steps(const pn_config_t *cfg, const pn_kernel_t *k,
                                  uint64_t max_steps, int limit_given, pn_error_t *err);

/* Place a run error (such as reaching max_steps) in the config cfg: at its
 * simulation.max_steps when the limit came from there (limit_given 0 and
 * the key present), else after "path: ". */
void pn_config_locate_run_error(const pn_config_t *cfg, int limit_given, pn_error_t *err);

#endif
