/* pn_config_keys.c - the key tables of a config shared by its reader
 * (pn_config.c) and its expressions (pn_config_expr.c). */
#include "pn_config_keys.h"

#include <string.h>

const char *const pn_count_keys[PN_CK_COUNT + 1] = {
    "arith", "shared", "global", "sfu", "shared_ld", "shared_st", "global_ld", "global_st",
    "barriers", NULL
};

const char *const pn_memory_keys[PN_MEMORY_KEYS + 1] = {
    "l1_hit", "l2_hit", "sectors_ld", "sectors_st", "shared_wavefronts", "lines_ld", "lines_st",
    "dram_ld_sectors", "dram_st_sectors", "l2_ld_sectors", "local_l1_hit",
    "texture_l1_hit", "atomic_ns", "flushed", "l1_ld_wavefronts", "const_requests", NULL};

/* The ranges of the kernel.memory keys, pn_memory_keys order. */
static const double memory_lo[PN_MEMORY_KEYS] = {0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                    memory_hi[PN_MEMORY_KEYS] = {1, 1, 32, 32, 32, 32, 32, 256, 256, 256, 1, 1,
                                                 1e6, 2, 256, 1e9};

int pn_config_memory_bounds(const char *name, double *lo, double *hi)
{
    for (int i = 0; i < PN_MEMORY_KEYS; i++)
        if (!strcmp(pn_memory_keys[i], name)) {
            *lo = memory_lo[i];
            *hi = memory_hi[i];
            return 1;
        }
    return 0;
}

/* The value of kernel.memory key i (memory_keys order) in m. */
double *pn_config_memory_field(pn_memory_t *m, int i)
{
    double *f[PN_MEMORY_KEYS] = {&m->l1_hit, &m->l2_hit, &m->sectors_ld, &m->sectors_st,
                                 &m->shared_wavefronts, &m->lines_ld, &m->lines_st,
                                 &m->dram_ld, &m->dram_st, &m->l2_ld, &m->local_l1_hit,
                                 &m->texture_l1_hit, &m->atomic_ns, &m->flushed,
                                 &m->l1_ld_wf, &m->const_req};
    return f[i];
}

pn_status_t pn_config_memory_range(const char *path, int i, double v, long line, long col,
                                   pn_error_t *err)
{
    static const char *const expect[] = {
        "a fraction between 0 and 1", "a fraction between 0 and 1",
        "a number of sectors between 1 and 32", "a number of sectors between 1 and 32",
        "a number of wavefronts between 1 and 32", "a number of lines between 1 and 32",
        "a number of lines between 1 and 32",
        "a number of DRAM sectors between 0 and 256", "a number of DRAM sectors between 0 and 256",
        "a number of L2 sectors between 0 and 256", "a fraction between 0 and 1",
        "a fraction between 0 and 1", "a time in ns between 0 and 1e6", "0, 1 or 2",
        "a number of wavefronts between 0 and 256",
        "a number of constant-cache requests a warp between 0 and 1e9"};
    int flag = !strcmp(pn_memory_keys[i], "flushed");   /* 0, 1 or 2, nothing between */
    if (v >= memory_lo[i] && v <= memory_hi[i] && (!flag || v == 0 || v == 1 || v == 2))
        return PN_OK;
    return pn_error_at(err, PN_EINVAL, path, line, col,
                       "kernel.memory.%s must be %s, got %g", pn_memory_keys[i], expect[i], v);
}

/* Is s[0..n) one of the NULL-terminated list? */
int pn_config_in_list(const char *const *list, const char *s, size_t n)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !strncmp(list[i], s, n))
            return 1;
    return 0;
}
