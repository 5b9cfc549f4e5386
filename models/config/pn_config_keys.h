/* pn_config_keys.h - the key tables the config reader and the expression
 * evaluator share: count keys, kernel.memory keys and their ranges. */
#ifndef PN_CONFIG_KEYS_H
#define PN_CONFIG_KEYS_H

#include <stddef.h>

#include "pn_error.h"
#include "pn_pipe_profile.h"
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


/* Keys of kernel.memory: l1_hit, l2_hit, sectors_ld, sectors_st,
 * shared_wavefronts, lines_ld, lines_st, the measured dram_ld_sectors,
 * dram_st_sectors, l2_ld_sectors, local_l1_hit, texture_l1_hit, atomic_ns,
 * flushed, l1_ld_wavefronts, const_requests (pn_memory_keys, NULL-terminated). */
#define PN_MEMORY_KEYS 16
extern const char *const pn_memory_keys[PN_MEMORY_KEYS + 1];

/* The field of kernel.memory key i (pn_memory_keys order) in m. */
double *pn_config_memory_field(pn_memory_t *m, int i);

/* The range of kernel.memory key `name` in *lo, *hi (what
 * pn_config_memory_range accepts); 0 for a name that is not a key. */
int pn_config_memory_bounds(const char *name, double *lo, double *hi);

/* PN_OK when v is in the range of kernel.memory key i, else PN_EINVAL at
 * path:line:col ("kernel.memory.l1_hit must be a fraction between 0 and 1,
 * got 2"). */
pn_status_t pn_config_memory_range(const char *path, int i, double v, long line, long col,
                                   pn_error_t *err);

/* Is s[0..n) one of the NULL-terminated list? */
int pn_config_in_list(const char *const *list, const char *s, size_t n);

#endif
