/* pn_sass_insn.h - one SASS instruction as Nsight Compute's source page
 * prints it ("@!P0 LDG.E.64 R4, desc[UR4][R2.64] ;"): guard predicate,
 * opcode and modifiers, the registers it writes and reads, a branch target,
 * and its kind (which pipe executes it; see pn_sass_insn.c for the table). */
#ifndef PN_SASS_INSN_H
#define PN_SASS_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pn_error.h"

typedef enum pn_sass_kind {
    PN_SASS_ARITH, PN_SASS_FP64, PN_SASS_SFU, PN_SASS_CONV, PN_SASS_SHUFFLE,
    PN_SASS_GLOBAL_LD, PN_SASS_GLOBAL_ST, PN_SASS_SHARED_LD, PN_SASS_SHARED_ST,
    PN_SASS_ATOM_GLOBAL, PN_SASS_ATOM_SHARED, PN_SASS_CONST_LD, PN_SASS_S2R,
    PN_SASS_UNIFORM, PN_SASS_TENSOR, PN_SASS_BARRIER, PN_SASS_CONTROL, PN_SASS_N_KINDS
} pn_sass_kind_t;

/* A register file: R, UR, P, UP. */
typedef enum pn_sass_file { PN_SASS_R, PN_SASS_UR, PN_SASS_P, PN_SASS_UP } pn_sass_file_t;

/* Registers index .. index + width - 1 of a file. */
typedef struct pn_sass_reg {
    pn_sass_file_t file;
    uint16_t index;
    uint8_t width;
} pn_sass_reg_t;

#define PN_SASS_MAX_WRITES 4
#define PN_SASS_MAX_READS 12

typedef struct pn_sass_insn {
    bool guarded, guard_negated; /* "@P0" / "@!P0"; an @PT guard is no guard */
    pn_sass_reg_t guard;
    char opcode[16];             /* "LDG" */
    char modifiers[48];          /* ".E.64", "" */
    pn_sass_kind_t kind;
    bool known;                  /* false: not in the table, kind is arith */
    pn_sass_reg_t writes[PN_SASS_MAX_WRITES];
    int n_writes;
    pn_sass_reg_t reads[PN_SASS_MAX_READS];
    int n_reads;
    int components;              /* a texture fetch's (TEX, TLD, TLD4): the bits of its
                                  * write mask, the last operand (1 without one); else 0 */
    bool has_target;             /* BRA, BSSY, CALL, ...: an address operand */
    uint64_t target;
} pn_sass_insn_t;

/* The registers as one range of units: R0-R255 0..255, UR0-UR63 256..319,
 * P0-P7 320..327, UP0-UP7 328..335. */
#define PN_SASS_REG_UNITS (256 + 64 + 8 + 8)

/* The unit of register index i of file f, or -1 past the file's range. */
static inline int pn_sass_reg_unit(pn_sass_file_t f, unsigned i)
{
    static const unsigned base[] = { 0, 256, 320, 328 }, size[] = { 256, 64, 8, 8 };
    return i < size[f] ? (int)(base[f] + i) : -1;
}

/* The register token at s ("R12", "UR4", "P0", "UP1", "RZ", "PT"; "R2.64"
 * reads as R2): its length, 0 if s does not start with one; its file and
 * index (width 1) into *r, *none true for RZ, PT, URZ and UPT (no
 * dependency). */
size_t pn_sass_reg_at(const char *s, pn_sass_reg_t *r, bool *none);

/* Parse text (one instruction, a trailing " ;" optional) into in. RZ, PT,
 * URZ and UPT are no dependency and not listed; a .64 / .128 modifier of a
 * memory opcode makes its data register 2 / 4 wide, an address register
 * "R2.64" is 2 wide, .WIDE makes the destination and the addend 2 wide and
 * fp64 opcodes use register pairs. Stores, branches and barriers write no
 * register; a *SETP writes its first two operands, and so does any op whose
 * first two operands are a predicate and a register ("SHFL.BFLY PT, R5, ...",
 * "ATOMG... PT, R5, [R2], ...", "IADD3 R4, P0, ...": a carry out). An error is
 * "path:line:col+k: ..." with k the offset in text. O(length of text). */
pn_status_t pn_sass_insn_parse(pn_sass_insn_t *in, const char *text, const char *path,
                               long line, long col, pn_error_t *err);

/* The kind's name ("global_ld") and whether its result arrives after a
 * variable latency (memory, sfu, conversions, shuffles, tensor, s2r). */
const char *pn_sass_kind_name(pn_sass_kind_t k);
bool pn_sass_kind_variable(pn_sass_kind_t k);

/* The kind of an opcode without modifiers; *known false (kind arith) if the
 * opcode is not in the table. */
pn_sass_kind_t pn_sass_kind_of(const char *opcode, bool *known);

/* The memory accesses ncu counts apart from the global ones (and the source
 * page gives no sectors): local (LDL, STL), texture (TEX, TLD, TLD4) and
 * surface (SULD, SUST) ones; NONE for any other opcode (without modifiers). */
typedef enum {
    PN_SASS_APART_NONE, PN_SASS_APART_LOCAL, PN_SASS_APART_TEXTURE, PN_SASS_APART_SURFACE
} pn_sass_apart_t;
pn_sass_apart_t pn_sass_opcode_apart(const char *opcode);

/* A generic access (LD, ST, ATOM: the address space known only at run time)
 * that the source page's Address Space column says went to shared memory:
 * make in the shared load, store or atomic it runs as (wmma's fragment loads
 * from shared memory compile to LD.E). Returns true when in was such an op,
 * false (in unchanged) for any other opcode. */
bool pn_sass_insn_to_shared(pn_sass_insn_t *in);

/* Is in a global load strong at the GPU's or the system's scope (.STRONG.GPU,
 * .STRONG.SYS: coherent at L2, as a flag or a status other blocks write is
 * read)? */
bool pn_sass_insn_strong_beyond_sm(const pn_sass_insn_t *in);

#endif
