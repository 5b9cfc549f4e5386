/* pn_config.h - the pnsim YAML configuration as read and checked
 * (pn_config.c, with libyaml): every key, its value and its position. The
 * config contract is doc/config.md. Evaluating its expressions is
 * pn_config_expr.h; resolving a point against a device, pn_kernel.h; the
 * point's net and engine, pn_kernel_net.h. */
#ifndef PN_CONFIG_H
#define PN_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "pn_config_keys.h"
#include "pn_error.h"
#include "pn_pipe_profile.h"
#include "pn_program.h"
#include "pn_sass_prog.h"
#include "pn_sm.h"

/* One warp's counts by count key. */
typedef struct pn_counts {
    uint64_t n[PN_CK_COUNT];
} pn_counts_t;

/* Which net a config simulates (model.net). */
typedef enum pn_net_kind {
    PN_NET_PAPER = 0,             /* doc/paper-net.md, the default */
    PN_NET_PIPELINED = 1          /* models/pipelined/PIPELINED.md: one step per SM cycle */
} pn_net_kind_t;

/* Where a value stood in the file (1-based; 0 when absent). */
typedef struct pn_pos {
    long line;
    long col;
} pn_pos_t;

/* A count: the expression text as written (a number is an expression too). */
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
    uint32_t threads_override;    /* a caller's -t (0: none): errors about it blame the
                                   * command line (pn_model_load sets it) */
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
    pn_sass_prog_t *sass;         /* kernel.sass: the program its warps run; NULL: none */
    pn_pos_t sass_pos;
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

#endif
