/* pn_kernel.h - a config resolved against a device for one point: the
 * checked parameters of the net (pn_kernel.c), its grid and occupancy, and
 * how its steps become microseconds. */
#ifndef PN_KERNEL_H
#define PN_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "pn_config_expr.h"
#include "pn_device.h"
#include "pn_occupancy.h"
#include "pn_pipe.h"
#include "pn_sm_grid.h"

/* The resolved, checked parameters of one simulation point. */
typedef struct pn_kernel {
    uint32_t threads;
    pn_net_kind_t net;
    pn_sm_params_t sm;            /* sm.warps is owned: pn_kernel_destroy */
    pn_sm_grid_t sm_grid;         /* the paper net's blocks, resident and barriers */
    /* the grid: blocks in all, this (the busiest) SM's share, resident at once */
    uint64_t blocks;
    uint32_t sm_blocks, busy_sms;
    /* the busiest SM's blocks over the busy SMs' mean, busy_sms sm_blocks /
     * blocks (>= 1): its share of the device's DRAM and L2 budgets is scaled by
     * it, as the SMs that finish first leave theirs to the others */
    double share;
    int has_occupancy;            /* the device has occupancy rules */
    pn_occupancy_t occ;           /* with registers and shared_bytes below */
    uint32_t registers, shared_bytes;
    uint32_t resident;            /* blocks resident on the SM at once */
    uint64_t waves;               /* ceil(sm_blocks / resident) */
    /* model.net: pipelined */
    pn_pipe_params_t pipe;        /* pipe.warps is owned */
    pn_pipe_device_t pdev;        /* the device's section with the config's overrides */
    pn_memory_t mem;              /* kernel.memory at this point */
    /* kernel.program: the warps' programs at this point (sm.n_warps, owned),
     * or NULL */
    struct pn_program *programs;
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
void pn_kernel_config_time_device(const pn_config_t *cfg, pn_device_t *dev);

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
pn_status_t pn_kernel_resolve(const pn_config_t *cfg, const pn_device_t *dev,
                              uint32_t threads, const double *param_values,
                              pn_kernel_t *k, pn_error_t *err);

/* Values that replace kernel.blocks, kernel.registers and kernel.shared_bytes
 * (a sweep's axes); has_* says which. */
typedef struct pn_grid_override {
    int has_blocks, has_registers, has_shared_bytes;
    uint64_t blocks;
    uint32_t registers, shared_bytes;
} pn_grid_override_t;

/* As pn_kernel_resolve, with the grid values of ov (NULL: none) in place of
 * the config's expressions. */
pn_status_t pn_kernel_resolve_with(const pn_config_t *cfg, const pn_device_t *dev,
                                   uint32_t threads, const double *param_values,
                                   const pn_grid_override_t *ov, pn_kernel_t *k,
                                   pn_error_t *err);

/* Free what k owns; k may be NULL or zeroed. */
void pn_kernel_destroy(pn_kernel_t *k);

#endif
