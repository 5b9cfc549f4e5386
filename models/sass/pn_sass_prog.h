/* pn_sass_prog.h - a kernel's SASS program as one launch ran it: its static
 * instructions in address order, each with its executions and its own memory
 * traffic over the launch (from Nsight Compute's source page), branch targets
 * resolved. Read from and written to a program file (doc/dependencies.md
 * gives its format). */
#ifndef PN_SASS_PROG_H
#define PN_SASS_PROG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pn_error.h"
#include "pn_sass_insn.h"

/* The largest program (static instructions) accepted. */
#define PN_SASS_MAX_OPS 1000000u

typedef struct pn_sass_op {
    pn_sass_insn_t in;            /* target: an offset from the first instruction */
    char *text;                   /* the instruction, its target written as that offset */
    uint32_t offset;              /* bytes from the kernel's first instruction */
    double executed;              /* warp-level executions over the launch */
    double sectors, lines;        /* global accesses: sectors, cache lines (totals) */
    double wavefronts;            /* shared accesses: wavefronts (total) */
    double threads;               /* thread-level executions (total); 0: not known */
    bool shared;                  /* a generic access of shared memory (the program
                                   * file's `shared` column, pn_sass_insn_to_shared) */
    long line;                    /* where it was read (source page or program file) */
    int32_t target;               /* index of the branch target's op; -1: none */
    int32_t block;                /* basic block (pn_sass_prog_finish) */
} pn_sass_op_t;

typedef struct pn_sass_prog {
    char *path;                   /* the file it was read from, for messages */
    char *kernel;                 /* the kernel's name up to its arguments */
    double warps;                 /* warps that ran the launch: blocks x warps per block */
    uint32_t block[3];            /* the block's x, y and z threads; 0 0 0: not known */
    pn_sass_op_t *ops;
    size_t n, cap;
    uint32_t n_blocks;            /* basic blocks, after pn_sass_prog_finish */
    char unknown[256];            /* opcodes not in the kind table, space-separated */
} pn_sass_prog_t;

/* Start an empty program of kernel (copied) for messages naming path. */
pn_status_t pn_sass_prog_init(pn_sass_prog_t *p, const char *path, const char *kernel,
                              double warps, pn_error_t *err);
void pn_sass_prog_destroy(pn_sass_prog_t *p);

/* Append the instruction `text` (parsed by pn_sass_insn_parse; errors at
 * line:col) at run-time address `address` of a kernel whose first
 * instruction is at `base`, with its totals over the launch. An opcode not
 * in the kind table is taken as arith and added to p->unknown. */
pn_status_t pn_sass_prog_add(pn_sass_prog_t *p, const char *text, uint64_t address,
                             uint64_t base, double executed, double sectors, double lines,
                             double wavefronts, long line, long col, pn_error_t *err);

/* Resolve branch targets and cut basic blocks: a block starts at the first
 * instruction, at every branch target and after every BRA, BRX, JMP, EXIT,
 * RET, CALL or guarded instruction that may leave (a guarded EXIT); every
 * instruction of a block must have the same executions. Errors (PN_EINVAL at
 * the instruction's line): "branch target 0x.. is outside the kernel",
 * "... executed N times, the instruction before it M times in one basic
 * block". O(n log n). */
pn_status_t pn_sass_prog_finish(pn_sass_prog_t *p, pn_error_t *err);

/* Write p as a program file (its kernel, warps and block shape when known,
 * then one line per instruction: offset, executed, sectors, lines,
 * wavefronts, threads, '|', the instruction); `comment` (may be NULL) goes
 * first as '#' lines. */
pn_status_t pn_sass_prog_write(FILE *out, const pn_sass_prog_t *p, const char *comment,
                               pn_error_t *err);

/* Read a program file into p and finish it; errors "path:L:C: ...". */
pn_status_t pn_sass_prog_read(pn_sass_prog_t *p, const char *path, pn_error_t *err);

/* Add word to the space-separated list (size bytes with its NUL) unless it
 * is there already or would not fit. O(length of list). */
void pn_sass_word_add(char *list, size_t size, const char *word);

/* The ops control may go to after op i of finished program p, into succ
 * (at most 2; returns how many): a branch's or CALL's target, and the next op
 * unless op i leaves for good (an unguarded EXIT or BRA). A BRX or JMX, whose
 * targets are not known, goes on to the next op only. */
int pn_sass_prog_successors(const pn_sass_prog_t *p, size_t i, size_t succ[2]);

/* Is op a global load / an instruction that leaves the warp's straight line? */
int pn_sass_op_is_exit(const pn_sass_op_t *op);
int pn_sass_op_is_branch(const pn_sass_op_t *op);
/* Is op a CALL of a function in the kernel's code (its target there)? RET
 * returns from it (pn_sass_op_is_exit: RET with no call open ends the warp). */
int pn_sass_op_is_call(const pn_sass_op_t *op);
int pn_sass_op_is_ret(const pn_sass_op_t *op);
/* Is op a local-memory access (LDL, STL: spilled registers, local arrays)? A
 * texture load (TEX, TLD, TLD4)? ncu counts both apart from global loads and
 * stores, and the source page gives them no sectors. */
int pn_sass_op_is_local(const pn_sass_op_t *op);
int pn_sass_op_is_texture(const pn_sass_op_t *op);
/* Is op a cp.async copy (LDGSTS: global to shared, no register written)? ncu
 * counts it apart from global loads, and the page gives it sectors. */
int pn_sass_op_is_async_copy(const pn_sass_op_t *op);

#endif
