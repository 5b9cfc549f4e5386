/* pn_sass_addr_step.c - how far a load's address moves from one trip of its
 * loop to the next (pn_sass_addr.h: pn_sass_addr_steps). */
#include "pn_sass_addr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How deep an address is traced back through the registers it is made of. */
#define STEP_DEPTH 4

/* The operands of op's text after its opcode, split at commas: at most n,
 * each a pointer into buf (its spaces trimmed). Returns how many. */
static int operands(const pn_sass_op_t *op, char *buf, size_t size, char **tok, int n)
{
    const char *p = op->text;
    while (*p == '@' || *p == '!') {   /* a guard: "@!P0 " */
        while (*p && *p != ' ')
            p++;
        while (*p == ' ')
            p++;
    }
    while (*p && *p != ' ')   /* the opcode */
        p++;
    snprintf(buf, size, "%s", p);
    char *s = strchr(buf, ';');
    if (s)
        *s = 0;
    int k = 0;
    for (char *q = buf; k < n;) {
        while (*q == ' ')
            q++;
        tok[k++] = q;
        char *c = strchr(q, ',');
        char *e = c ? c : q + strlen(q);
        while (e > q && e[-1] == ' ')
            e--;
        *e = 0;
        if (!c)
            break;
        q = c + 1;
    }
    return k;
}

/* Is token t an immediate ("0x20", "-0x4", "16")? Its value into *v, as the
 * 32-bit ops read it (0xfffffffc is -4). */
static int immediate(const char *t, long *v)
{
    char *end;
    if (!*t || (*t != '-' && (*t < '0' || *t > '9')))
        return 0;
    long long x = strtoll(t, &end, 0);
    if (x >= 0x80000000LL && x <= 0xffffffffLL)
        x -= 0x100000000LL;
    *v = (long)x;
    return *end == 0;
}

/* The register a token names ("R12", "R16.64", "-R3", "UR6"): its unit
 * (pn_sass_reg_unit) into *r, or 0 (an immediate, RZ, URZ, a predicate, a
 * constant). */
static int reg_token(const char *t, int *r)
{
    pn_sass_reg_t x;
    bool none;
    if (*t == '-' || *t == '|')
        t++;
    if (!pn_sass_reg_at(t, &x, &none) || none || x.file > PN_SASS_UR)
        return 0;
    *r = pn_sass_reg_unit(x.file, x.index);
    return *r >= 0;
}

/* Is token t a zero register (RZ, URZ)? */
static int zero(const char *t)
{
    pn_sass_reg_t x;
    bool none;
    return pn_sass_reg_at(t, &x, &none) && none && x.file <= PN_SASS_UR;
}

/* Is token t a predicate (a carry out: P0, PT, UP1, UPT)? */
static int predicate(const char *t)
{
    pn_sass_reg_t x;
    bool none;
    return pn_sass_reg_at(t, &x, &none) && (x.file == PN_SASS_P || x.file == PN_SASS_UP);
}

/* Is opcode o (its uniform form too: UIADD3, UMOV, ...) the plain one p? */
static int is_op(const char *o, const char *p)
{
    return !strcmp(o, p) || (o[0] == 'U' && !strcmp(o + 1, p));
}

/* Does op write register unit r: 1 as its low or only word, -1 inside a
 * wider write (r the high word of a pair), 0 not at all. */
static int writes(const pn_sass_op_t *op, int r)
{
    for (int k = 0; k < op->in.n_writes; k++) {
        pn_sass_reg_t x = op->in.writes[k];
        int u = pn_sass_reg_unit(x.file, x.index);
        if (u >= 0 && r >= u && r < u + x.width)
            return u == r ? 1 : -1;
    }
    return 0;
}

/* The op of the loop t..j whose value of register unit r op `at` reads: the last
 * one before it in the body, else the last one from it on (the trip before);
 * -1 when the loop does not write r; -2 when it cannot tell (a CALL that ran
 * in the loop, r the high word of a wider write). *n: how many ops of the loop
 * write r. */
static long writer(const pn_sass_prog_t *p, size_t t, size_t j, int r, size_t at, int *n)
{
    long before = -1, after = -1;
    *n = 0;
    for (size_t i = t; i <= j; i++) {
        const pn_sass_op_t *op = &p->ops[i];
        if (!strncmp(op->in.opcode, "CALL", 4) && op->executed != 0)
            return -2;   /* a call that ran may write anything */
        int w = writes(op, r);
        if (w < 0)
            return -2;
        if (w > 0) {
            ++*n;
            if (i < at)
                before = (long)i;
            else
                after = (long)i;   /* at itself too: its write is the next trip's */
        }
    }
    return before >= 0 ? before : after;
}

/* A register's step a trip: a known number of bytes, a register's value (a
 * stride the loop adds: r += a * 32, r += n), or unknown. */
typedef struct step {
    enum { S_KNOWN, S_REG, S_UNKNOWN } kind;
    long v;
} step_t;

static const step_t UNKNOWN = { S_UNKNOWN, 0 }, FIXED = { S_KNOWN, 0 };

/* a + sign * b */
static step_t add(step_t a, step_t b, int sign)
{
    if (a.kind == S_UNKNOWN || b.kind == S_UNKNOWN)
        return UNKNOWN;
    if (a.kind == S_REG || b.kind == S_REG)
        return (step_t){ S_REG, 0 };
    return (step_t){ S_KNOWN, a.v + sign * b.v };
}

/* a x m (m a known factor) */
static step_t times(step_t a, long m)
{
    return a.kind == S_KNOWN ? (step_t){ S_KNOWN, a.v * m } : m == 0 ? FIXED : a;
}

static int is_fixed(step_t a)
{
    return a.kind == S_KNOWN && a.v == 0;
}

/* Is op a memory access or anything else whose result is not a function of
 * the registers it reads (a load, an atomic, a shuffle, a clock)? */
static int impure(const pn_sass_op_t *op)
{
    pn_sass_kind_t k = op->in.kind;
    return k == PN_SASS_GLOBAL_LD || k == PN_SASS_SHARED_LD || k == PN_SASS_ATOM_GLOBAL ||
           k == PN_SASS_ATOM_SHARED || k == PN_SASS_SHUFFLE || k == PN_SASS_S2R ||
           k == PN_SASS_TENSOR || pn_sass_opcode_apart(op->in.opcode) != PN_SASS_APART_NONE ||
           (k == PN_SASS_CONST_LD && op->in.n_reads > 0);   /* LDC c[0x3][R0]: a table */
}

static step_t step_of(const pn_sass_prog_t *p, size_t t, size_t j, int r, size_t at, int depth);

/* The step of the value of register token tok that op w reads (0 for RZ,
 * immediates and anything else that names no register). */
static step_t operand_step(const pn_sass_prog_t *p, size_t t, size_t j, const char *tok,
                           size_t w, int depth)
{
    int a;
    if (zero(tok) || !reg_token(tok, &a))
        return FIXED;
    return step_of(p, t, j, a, w, depth);
}

/* How far register unit r, as op `at` reads it, moves a trip of the loop t..j
 * (its writers in the loop traced back depth levels). A writer that reads its
 * own last value (r = r + imm: the step; r = r + a register's value or
 * r = a * b + r: a register's step) makes the recurrence; one that makes r
 * afresh moves it as its sources move: additions, IMAD (also .WIDE, .IADD,
 * .MOV), LEA, left shifts and moves by their operands, anything else that is
 * not a memory access not at all when none of its sources moves. */
static step_t step_of(const pn_sass_prog_t *p, size_t t, size_t j, int r, size_t at, int depth)
{
    int nw, a;
    long w = writer(p, t, j, r, at, &nw), v;
    if (w == -1)
        return FIXED;
    if (w < 0 || depth == 0)
        return UNKNOWN;
    const pn_sass_op_t *op = &p->ops[w];
    const char *opc = op->in.opcode;
    char buf[160], *tok[6];
    int n = operands(op, buf, sizeof buf, tok, 6);
    /* does op read its own value of r (the one it wrote a trip before)? */
    int self = writer(p, t, j, r, (size_t)w, &nw) == w;
    int reads_r = 0;
    for (int k = 1; k < n; k++)
        reads_r |= reg_token(tok[k], &a) && a == r;
    self &= reads_r;
    if ((is_op(opc, "IADD3") || !strcmp(opc, "VIADD") || !strcmp(opc, "IADD")) &&
        strncmp(op->in.modifiers, ".X", 2)) {
        /* a carry out ("IADD3 R2, P0, R2, 0x10, RZ") comes before the addends */
        int f = n > 1 && predicate(tok[1]) ? 2 : 1;
        step_t s = FIXED;
        for (int k = f; k < n; k++) {
            if (zero(tok[k]))
                continue;
            if (immediate(tok[k], &v)) {
                if (self)   /* r = r + imm: the step; else an offset */
                    s = add(s, (step_t){ S_KNOWN, v }, 1);
                continue;
            }
            if (!reg_token(tok[k], &a))
                return UNKNOWN;
            if (self && a == r)
                continue;
            if (self)
                return nw > 1 ? UNKNOWN : (step_t){ S_REG, 0 };   /* r += a register */
            s = add(s, step_of(p, t, j, a, (size_t)w, depth - 1), tok[k][0] == '-' ? -1 : 1);
        }
        return self && nw > 1 ? UNKNOWN : s;
    }
    if (is_op(opc, "IMAD") && n == 4) {
        if (self)
            return nw > 1 ? UNKNOWN : (step_t){ S_REG, 0 };   /* r += a * b */
        step_t c = operand_step(p, t, j, tok[3], (size_t)w, depth - 1);
        if (zero(tok[1]) || zero(tok[2]))
            return c;   /* IMAD.MOV */
        step_t sa = operand_step(p, t, j, tok[1], (size_t)w, depth - 1);
        if (immediate(tok[2], &v))
            return add(times(sa, v), c, 1);
        step_t sb = operand_step(p, t, j, tok[2], (size_t)w, depth - 1);
        return is_fixed(sa) && is_fixed(sb) ? c : UNKNOWN;
    }
    if (is_op(opc, "LEA") && !strstr(op->in.modifiers, ".HI") && n >= 4 &&
        immediate(tok[3], &v) && v >= 0 && v < 32) {
        if (self)
            return nw > 1 ? UNKNOWN : (step_t){ S_REG, 0 };
        return add(times(operand_step(p, t, j, tok[1], (size_t)w, depth - 1), 1L << v),
                   operand_step(p, t, j, tok[2], (size_t)w, depth - 1), 1);
    }
    if (is_op(opc, "SHF") && !strncmp(op->in.modifiers, ".L", 2) &&
        !strstr(op->in.modifiers, ".HI") && n == 4 && immediate(tok[2], &v) && v >= 0 && v < 32 &&
        zero(tok[3]) && !self)
        return times(operand_step(p, t, j, tok[1], (size_t)w, depth - 1), 1L << v);
    if (is_op(opc, "MOV") && n == 2 && !self)
        return operand_step(p, t, j, tok[1], (size_t)w, depth - 1);
    /* anything else: fixed when none of what it reads moves */
    if (impure(op) || self)
        return UNKNOWN;
    for (int k = 0; k < op->in.n_reads; k++) {
        pn_sass_reg_t x = op->in.reads[k];
        for (unsigned q = 0; q < x.width; q++) {
            int u = pn_sass_reg_unit(x.file, x.index + q);
            if (u >= 0 && x.file <= PN_SASS_UR && !is_fixed(step_of(p, t, j, u, (size_t)w, depth - 1)))
                return UNKNOWN;
        }
    }
    return FIXED;
}

/* A chain of copies and additions of immediates that comes back to itself
 * (an unrolled loop's pointer: R12 = R4 + 0x10 ... R4 = R12): from register
 * unit r at op `at`, its definitions back, hop by hop, over the trip's end until the
 * first one comes again. Its immediates' sum into *step; 0 when some
 * definition is anything else, or the chain leaves the loop. */
static int chain(const pn_sass_prog_t *p, size_t t, size_t j, int r, size_t at, long *step)
{
    long first = -1, sum = 0;
    for (int hop = 0; hop < 8; hop++) {
        int nw, a, f, regs = 0;
        long w = writer(p, t, j, r, at, &nw), v;
        if (w < 0)
            return 0;
        if (w == first) {
            *step = sum;
            return 1;
        }
        if (first < 0)
            first = w;
        const pn_sass_op_t *op = &p->ops[w];
        char buf[160], *tok[6];
        int n = operands(op, buf, sizeof buf, tok, 6), next = -1;
        const char *opc = op->in.opcode;
        if (is_op(opc, "MOV") && n == 2 && reg_token(tok[1], &a))
            next = a;
        else if (is_op(opc, "IMAD") && !strncmp(op->in.modifiers, ".MOV", 4) && n == 4 &&
                 zero(tok[1]) && reg_token(tok[3], &a))
            next = a;
        else if ((is_op(opc, "IADD3") || !strcmp(opc, "VIADD")) &&
                 strncmp(op->in.modifiers, ".X", 2)) {
            f = n > 1 && predicate(tok[1]) ? 2 : 1;
            for (int k = f; k < n; k++) {
                if (zero(tok[k]))
                    continue;
                if (immediate(tok[k], &v))
                    sum += v;
                else if (tok[k][0] != '-' && reg_token(tok[k], &a) && !regs++)
                    next = a;
                else
                    return 0;
            }
        }
        if (next < 0)
            return 0;
        r = next;
        at = (size_t)w;
    }
    return 0;
}

void pn_sass_addr_steps(const pn_sass_prog_t *p, uint8_t *moves)
{
    size_t n = p->n;
    memset(moves, 0, n);
    /* the innermost loop of each op: the shortest backward branch range */
    size_t *lo = malloc((n ? n : 1) * sizeof *lo), *hi = malloc((n ? n : 1) * sizeof *hi);
    if (!lo || !hi) {
        free(lo), free(hi);
        return;   /* no steps known: every op left at 0 */
    }
    for (size_t i = 0; i < n; i++)
        lo[i] = 1, hi[i] = 0;
    for (size_t j = 0; j < n; j++) {
        const pn_sass_op_t *br = &p->ops[j];
        if (!pn_sass_op_is_branch(br) || br->target < 0 || (size_t)br->target > j)
            continue;
        size_t t = (size_t)br->target;
        for (size_t i = t; i <= j; i++)
            if (lo[i] > hi[i] || j - t < hi[i] - lo[i])
                lo[i] = t, hi[i] = j;
    }
    for (size_t i = 0; i < n; i++) {
        const pn_sass_op_t *op = &p->ops[i];
        int base = pn_sass_addr_base(op);
        if (lo[i] > hi[i] || base < 0)
            continue;   /* not in a loop, or no address */
        step_t s = { S_KNOWN, 0 };
        if (!chain(p, lo[i], hi[i], base, i, &s.v))
            s = step_of(p, lo[i], hi[i], base, i, STEP_DEPTH);
        if (s.kind == S_REG || (s.kind == S_KNOWN && (s.v <= -128 || s.v >= 128)))
            moves[i] = 2;
        else if (s.kind == S_KNOWN && s.v != 0)
            moves[i] = 1;
    }
    free(lo), free(hi);
}
