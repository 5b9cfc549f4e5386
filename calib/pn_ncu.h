/* pn_ncu.h - Nsight Compute's CSV (`ncu --csv --print-metric-instances details
 * --metrics LIST`) read into launches, and each launch turned into a pnsim
 * config of the pipelined net (`pnsim import`). */
#ifndef PN_NCU_H
#define PN_NCU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pn_error.h"
#include "pn_occupancy.h"

/* Print the metrics pnsim import reads (and three more of ncu's launch facts),
 * comma-separated, for ncu --metrics, and a newline. */
void pn_ncu_print_metric_list(FILE *out);

/* One profiled kernel launch. */
typedef struct pn_ncu_launch {
    char *kernel;                 /* the name up to its argument list */
    long id;                      /* ncu's ID */
    long line;                    /* first CSV line of the launch */
    uint32_t threads, blocks;     /* block and grid size, x*y*z */
    uint32_t block[3];            /* the block's x, y and z */
    uint32_t registers, shared_bytes;
    double *value;                /* per metric pnsim import reads; NaN: absent */
    /* per-opcode counts of sass__inst_executed_per_opcode */
    double mufu, conv, bar, atoms, atomg, redg;
    /* loads and stores ncu counts apart from global ones: LDL + TEX + TLD + TLD4 +
     * SULD, and STL + SUST */
    double apart_ld, apart_st;
    char cc[8];                   /* the CC column ("9.0"); "" when absent */
    int warm;                     /* timed after another launch left its data in L2, not
                                   * after the flush (pnsim import --warm): no flushed key;
                                   * 0 after pn_ncu_read */
} pn_ncu_launch_t;

typedef struct pn_ncu {
    char *path;
    pn_ncu_launch_t *launches;
    size_t n_launches;
    int flushed;                /* the launches are timed with the L2 flushed before each
                                 * (pnsim import --flushed): their configs say
                                 * kernel.memory.flushed 1 (clean) or 2 (dirty); 0
                                 * after pn_ncu_read */
} pn_ncu_t;

/* Read an ncu CSV: lines before the header and ncu's "==PROF==" or
 * "==WARNING==" lines are skipped; an "==ERROR==" line is an error at its
 * line. Values lose thousands separators; an instanced value "TOTAL (K: V;
 * ...)" gives TOTAL, and for sass__inst_executed_per_opcode its pairs.
 * Every launch needs launch__block_size, launch__grid_size,
 * smsp__inst_executed.sum and the global and shared ld/st instruction
 * counts: a missing one is "path:L: launch ID (kernel): missing metric 'm'";
 * a launch without instructions is an error too, as is a negative value, a
 * metric pnsim reads that appears twice in one launch (a repeated launch or a
 * conflicting row: "path:L:C: launch ID: metric m appears twice (first at
 * line F)[ with a different value]", never summed nor first-wins), and
 * so is what pnsim import could not write as a config that reads back: a
 * kernel name (up to its arguments) other than letters, digits, '_', ':' and
 * inner spaces, more than 1048576 threads per block, registers or shared
 * bytes outside 0..4294967295, a negative count or more than 4294967295
 * instructions of a kind per warp. On error ncu is left
 * empty. O(file size). */
pn_status_t pn_ncu_read(pn_ncu_t *ncu, const char *path, pn_error_t *err);

void pn_ncu_destroy(pn_ncu_t *ncu);

/* The value of metric `name` (one pnsim import reads) in launch l, in base
 * units; NaN when the launch lacks it or pnsim does not read it. O(metrics). */
double pn_ncu_metric(const pn_ncu_launch_t *l, const char *name);

/* The launches as a table, one row (CSV, with a header) or object (JSON, an
 * array) per launch: id, kernel, line, cc, threads, blocks, registers,
 * shared_bytes, warp_instructions, global_ld, global_st, shared_ld,
 * shared_st (launch totals of warp-level instructions), duration_ns (ncu's
 * gpu__time_duration; empty or null when absent) and config: configs[i], the
 * file launch i was written to (empty or null when configs or configs[i] is
 * NULL). csv non-zero: CSV, else JSON. O(launches). */
void pn_ncu_write_table(FILE *out, int csv, const pn_ncu_t *ncu, char *const *configs);

/* Write the config of launch l (the pipelined net on `device`) to out: per
 * warp counts of every kind (global_ld, global_st with global atomics and
 * reductions, shared_ld with shared atomics, shared_st, sfu from MUFU and
 * conversions, barriers from BAR, arith the rest), spread over the warps of
 * a block so that a block's totals are exact, and kernel.memory from the
 * sector, request, hit-rate and wavefront metrics; ncu's occupancy limits and
 * rules' (when rules is non-NULL) in comments; with sass non-NULL,
 * kernel.sass names that program file (warps then run its SASS). */
pn_status_t pn_ncu_write_config(FILE *out, const pn_ncu_t *ncu, const pn_ncu_launch_t *l,
                                const char *device, const pn_occ_rules_t *rules,
                                const char *sass, pn_error_t *err);

/* Write one config for the launches idx[0..n) of one kernel at n block sizes
 * (sorted by threads, the same threads * blocks): counts per warp, registers
 * and shared bytes as piecewise-linear expressions of threads through the
 * profiled sizes (exact there, before rounding), blocks = n / threads,
 * kernel.memory the mean of the launches', and a sweep over the sizes. */
pn_status_t pn_ncu_write_fitted(FILE *out, const pn_ncu_t *ncu, const size_t *idx, size_t n,
                                const char *device, pn_error_t *err);

/* The launch's warp-level instructions executed (smsp__inst_executed.sum). */
double pn_ncu_inst_executed(const pn_ncu_launch_t *l);

/* The kernel's name in ncu's demangled signature k: the function's own name,
 * without its parameters, its template arguments, a return type ("void ",
 * "std::enable_if<...>::type ") and the namespaces and classes it is in (the
 * raw page prints "void reduce::DeviceReduceKernel<...>(...)" where the
 * source page prints "void cub::CUB_300001_SM_900::detail::reduce::
 * DeviceReduceKernel<...>(...)"; both give DeviceReduceKernel); a signature
 * without parameters is a name as it is (cuBLAS's "sm80_xmma_gemm_..."). The
 * name is a substring of k; its length in *len. */
const char *pn_ncu_kernel_name(const char *k, size_t *len);

/* ncu's resident-block limits of l: blocks, registers, shared, warps (NaN if absent). */
void pn_ncu_occupancy(const pn_ncu_launch_t *l, double out[4]);

#endif
