/* pn_ncu_source.h - Nsight Compute's source page (`ncu -i REPORT --csv --page
 * source --print-source sass`): per profiled launch, one table of the kernel's
 * SASS instructions with their execution counts and memory traffic. */
#ifndef PN_NCU_SOURCE_H
#define PN_NCU_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "pn_error.h"
#include "pn_ncu.h"

/* One instruction row of a table. */
typedef struct pn_ncu_sass_row {
    long line, source_col;        /* where it is in the file, and its Source field */
    uint64_t address;             /* run-time address (Address) */
    const char *source;           /* the instruction text, blanks trimmed (Source) */
    double executed;              /* warp-level executions (Instructions Executed) */
    double thread_executed;       /* Thread Instructions Executed; 0 when absent */
    double sectors;               /* L2 Theoretical Sectors Global; 0 when absent or '-' */
    double lines;                 /* L1 Tag Requests Global: cache lines looked up */
    double wavefronts;            /* L1 Wavefronts Shared */
    int shared;                   /* Address Space is "Shared": a generic access (LD, ST,
                                   * ATOM) of shared memory (pn_sass_insn_to_shared) */
} pn_ncu_sass_row_t;

/* One table: a launch's kernel and its instructions in address order. */
typedef struct pn_ncu_sass_table {
    const char *kernel;           /* as printed: the demangled name with its arguments */
    long line;                    /* the "Kernel Name" line */
    pn_ncu_sass_row_t *rows;
    size_t n_rows;
    double executed;              /* the sum of the rows' executions */
    int uncounted;                /* no Instructions Executed column: ncu collected no
                                   * SourceCounters for it (a library kernel it may not
                                   * instrument); its rows have only address and source */
} pn_ncu_sass_table_t;

typedef struct pn_ncu_source {
    char *path;
    char *buf;                    /* the text; fields point into it */
    pn_ncu_sass_table_t *tables;  /* in file order */
    size_t n_tables;
} pn_ncu_source_t;

/* Read a source page: lines '"Kernel Name","<name>",' each start a table,
 * whose next line is its header (columns Address, Source and Instructions
 * Executed required, the memory columns optional: absent or "-" reads 0) and
 * whose rows follow; every field quoted. ncu's "==PROF==" / "==WARNING=="
 * lines and blank lines are skipped; "==ERROR==" is an error at its line.
 * Errors, one line each, "path:L:C: ...": an unterminated quote, a row of
 * another width than its header, a missing column, an address that is not
 * hexadecimal or not above the one before, a count that is not a number >= 0,
 * a table without rows, no table. On error s is left zeroed. O(file size). */
pn_status_t pn_ncu_source_read(pn_ncu_source_t *s, const char *path, pn_error_t *err);

/* As pn_ncu_source_read from len bytes of text (copied); `name` names the
 * file in messages. */
pn_status_t pn_ncu_source_parse(pn_ncu_source_t *s, const char *text, size_t len,
                                const char *name, pn_error_t *err);

void pn_ncu_source_destroy(pn_ncu_source_t *s);

/* How far a source table's sum of Instructions Executed may be from the
 * launch's smsp__inst_executed.sum, as a share of it: the page leaves out a
 * few executions of some code (warp-synchronous collectives: WARPSYNC.
 * COLLECTIVE, ENDCOLLECTIVE; 2 % of a warp-reduction kernel of
 * examples/robust), and the page and the metrics come from different replay
 * passes, in which a kernel that spins waiting for other blocks runs its loop
 * a different number of times (cub::DeviceScan on 2^24 ints: 5.6 % more on
 * the page; examples/library, H100). cmd_import warns when they differ. */
#define PN_NCU_SOURCE_INST_SLACK 0.25

/* Are a table's got warp instructions further from the launch's inst than
 * PN_NCU_SOURCE_INST_SLACK allows? */
int pn_ncu_source_inst_apart(double got, double inst);

/* How far a launch's executions of a memory kind on the source page may be
 * from ncu's count of them beyond what guarded and apart-counted accesses
 * explain: this share of the count, plus the instructions the whole launch ran
 * more or less on the page than in the metrics. The page and the metrics come
 * from different replay passes, and a kernel that waits for other blocks in a
 * spin loop (CUB's decoupled look-back scans and sorts) runs it a different
 * number of times in each: cub::DeviceScan on 2^24 ints had 6 % fewer global
 * loads on the page than ncu counted and 0.4 % more instructions; a
 * DeviceRadixSortOnesweepKernel 20 % fewer loads and 4.8 % fewer
 * instructions (H100). cmd_import warns when the instruction totals differ. */
#define PN_NCU_SOURCE_KIND_SLACK 0.05

/* Does table t (read from path) wait for other blocks or threads: a load
 * strong at the GPU's or the system's scope, a YIELD, a NANOSLEEP or a
 * compare-and-swap (the retry loop of an emulated atomic: ATOMS.CAST.SPIN,
 * HeCBench's expdist) that ran? Such a kernel polls or retries as long as the
 * others take, so each of ncu's replay passes runs it a different number of
 * times (the source page's pass, instrumented, longer). O(rows). */
int pn_ncu_table_waits(const pn_ncu_sass_table_t *t, const char *path);

/* Pair the tables of s with the launches of ncu (the raw or metric page of
 * the same report): table_of[i] = the table of launch i. ncu prints the
 * tables in profiling order, one per launch, and (ncu 2025.3) most of them
 * twice in a row (not those of kernels built without line information, as
 * cuBLAS's): launch i takes the next table, and the one after it when that
 * one is equal to it; which equal tables are repeats (launches of one kernel
 * in a row have equal tables) is what lets every launch take a table of its
 * own kernel and all tables be taken. Where no pairing does, launch i takes
 * the next table and skips an equal one after it while the tables left still
 * cover the launches left, and the checks below say where that fails; a
 * table left over, or too few, is PN_EINVAL "path:L: N source tables for the
 * M launches ...". Each pair must agree: the kernel name up to its
 * arguments, and the sum of Instructions Executed equal to the launch's
 * smsp__inst_executed.sum (within PN_NCU_SOURCE_INST_SLACK, unless the table
 * waits for other blocks: pn_ncu_table_waits; cuSOLVER's one-launch
 * Cholesky polled 2.3 times as much on the page as in the metrics' pass), and,
 * but in a table that waits, per memory kind (global loads, stores, atomics
 * and reductions; shared loads, stores, atomics) the executions of the
 * table's instructions of that kind equal ncu's smsp__sass_inst_executed_op_*
 * count, exceeding it by at most the executions of guarded ones (ncu counts
 * those only where a thread is predicated on) and short of it by at most
 * those of the local, generic, async-copy and shared-matrix accesses (which
 * ncu may count apart; a generic one the page gives several spaces, as
 * "Local,Shared", in the shared kind too), either way with the slack of
 * PN_NCU_SOURCE_KIND_SLACK; otherwise PN_EINVAL
 * "path:L: the source table of ... is not launch ID (...)" or "... executes
 * N warp-level global loads ..., ncu counted M"; PN_ENOMEM. O(launches x
 * repeated tables + rows). */
pn_status_t pn_ncu_source_pair(const pn_ncu_source_t *s, const pn_ncu_t *ncu,
                               size_t *table_of, pn_error_t *err);

#endif
