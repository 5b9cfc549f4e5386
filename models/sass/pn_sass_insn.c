/* pn_sass_insn.c - parse one SASS instruction and classify its opcode.
 *
 * Kinds follow what `pnsim import` counts from ncu's per-opcode totals:
 * MUFU is sfu and conversions conv (both the config's sfu), BAR is barrier,
 * ATOMS a shared atomic, ATOMG/ATOM/RED global atomics. An opcode not in the
 * table is arith (the caller lists such opcodes in one warning). */
#include "pn_sass_insn.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *op;
    pn_sass_kind_t kind;
} table[] = {
    { "FFMA", PN_SASS_ARITH }, { "FADD", PN_SASS_ARITH }, { "FMUL", PN_SASS_ARITH },
    { "FMNMX", PN_SASS_ARITH }, { "FSETP", PN_SASS_ARITH }, { "FSEL", PN_SASS_ARITH },
    { "FCHK", PN_SASS_ARITH }, { "IMAD", PN_SASS_ARITH }, { "IADD3", PN_SASS_ARITH },
    { "IABS", PN_SASS_ARITH }, { "LOP3", PN_SASS_ARITH }, { "ISETP", PN_SASS_ARITH },
    { "MOV", PN_SASS_ARITH }, { "SHF", PN_SASS_ARITH }, { "LEA", PN_SASS_ARITH },
    { "SEL", PN_SASS_ARITH }, { "PRMT", PN_SASS_ARITH }, { "IMNMX", PN_SASS_ARITH },
    { "POPC", PN_SASS_ARITH }, { "FLO", PN_SASS_ARITH }, { "BREV", PN_SASS_ARITH },
    { "PLOP3", PN_SASS_ARITH }, { "P2R", PN_SASS_ARITH }, { "R2P", PN_SASS_ARITH },
    { "VOTE", PN_SASS_ARITH }, { "HFMA2", PN_SASS_ARITH }, { "HADD2", PN_SASS_ARITH },
    { "HMUL2", PN_SASS_ARITH }, { "IDP", PN_SASS_ARITH }, { "DFMA", PN_SASS_FP64 },
    { "DADD", PN_SASS_FP64 }, { "DMUL", PN_SASS_FP64 }, { "DSETP", PN_SASS_FP64 }, { "DMNMX", PN_SASS_FP64 },
    { "MUFU", PN_SASS_SFU }, { "F2I", PN_SASS_CONV }, { "I2F", PN_SASS_CONV },
    { "F2F", PN_SASS_CONV }, { "FRND", PN_SASS_CONV }, { "I2I", PN_SASS_CONV },
    { "SHFL", PN_SASS_SHUFFLE }, { "LDG", PN_SASS_GLOBAL_LD }, { "LD", PN_SASS_GLOBAL_LD },
    { "LDL", PN_SASS_GLOBAL_LD }, { "STG", PN_SASS_GLOBAL_ST }, { "ST", PN_SASS_GLOBAL_ST },
    { "STL", PN_SASS_GLOBAL_ST }, { "LDS", PN_SASS_SHARED_LD }, { "LDSM", PN_SASS_SHARED_LD },
    { "STS", PN_SASS_SHARED_ST }, { "ATOMG", PN_SASS_ATOM_GLOBAL },
    { "ATOM", PN_SASS_ATOM_GLOBAL }, { "RED", PN_SASS_ATOM_GLOBAL },
    { "REDG", PN_SASS_ATOM_GLOBAL }, { "ATOMS", PN_SASS_ATOM_SHARED },
    { "LDC", PN_SASS_CONST_LD }, { "ULDC", PN_SASS_CONST_LD }, { "S2R", PN_SASS_S2R },
    { "CS2R", PN_SASS_S2R }, { "S2UR", PN_SASS_S2R }, { "HMMA", PN_SASS_TENSOR },
    { "IMMA", PN_SASS_TENSOR }, { "HGMMA", PN_SASS_TENSOR }, { "DMMA", PN_SASS_TENSOR },
    { "BAR", PN_SASS_BARRIER }, { "BRA", PN_SASS_CONTROL }, { "BRX", PN_SASS_CONTROL },
    { "BSSY", PN_SASS_CONTROL }, { "BSYNC", PN_SASS_CONTROL }, { "WARPSYNC", PN_SASS_CONTROL },
    { "EXIT", PN_SASS_CONTROL }, { "RET", PN_SASS_CONTROL }, { "CALL", PN_SASS_CONTROL },
    { "NOP", PN_SASS_CONTROL }, { "YIELD", PN_SASS_CONTROL }, { "BPT", PN_SASS_CONTROL },
    { "BMOV", PN_SASS_CONTROL }, { "DEPBAR", PN_SASS_CONTROL }, { "MEMBAR", PN_SASS_CONTROL },
    /* Hopper (sm_90) */
    { "VIADD", PN_SASS_ARITH }, { "VIADDMNMX", PN_SASS_ARITH }, { "VIMNMX", PN_SASS_ARITH }, { "VIMNMX3", PN_SASS_ARITH },
    { "I2FP", PN_SASS_ARITH }, { "F2FP", PN_SASS_ARITH }, { "VOTEU", PN_SASS_UNIFORM },
    { "R2UR", PN_SASS_UNIFORM }, { "REDUX", PN_SASS_SHUFFLE }, { "FSWZADD", PN_SASS_ARITH },
    { "SGXT", PN_SASS_ARITH }, { "BMSK", PN_SASS_ARITH }, { "LEPC", PN_SASS_ARITH },
    { "IADD", PN_SASS_ARITH }, { "IMUL", PN_SASS_ARITH }, { "ISCADD", PN_SASS_ARITH },
    { "MATCH", PN_SASS_SHUFFLE }, { "NANOSLEEP", PN_SASS_CONTROL }, { "ERRBAR", PN_SASS_CONTROL },
    { "CCTL", PN_SASS_CONTROL }, { "JMP", PN_SASS_CONTROL }, { "LDGSTS", PN_SASS_GLOBAL_LD },
    { "LDGDEPBAR", PN_SASS_CONTROL }, { "ARRIVES", PN_SASS_CONTROL }, { "SYNCS", PN_SASS_CONTROL },
    { "ENDCOLLECTIVE", PN_SASS_CONTROL }, { "MOVM", PN_SASS_SHUFFLE },
    { "HSETP2", PN_SASS_ARITH }, { "HMNMX2", PN_SASS_ARITH }, { "MOV32I", PN_SASS_ARITH },
    { "F2IP", PN_SASS_ARITH },
    /* synchronisation of warpgroups, clusters and dependent launches: they wait
     * for no data a register carries (TMA copies, UTMALDG and UTMASTG, stay
     * unknown: their traffic is not on the page) */
    { "WARPGROUP", PN_SASS_CONTROL }, { "FENCE", PN_SASS_CONTROL },
    { "UCGABAR_ARV", PN_SASS_CONTROL }, { "UCGABAR_WAIT", PN_SASS_CONTROL },
    { "CGAERRBAR", PN_SASS_CONTROL }, { "USETMAXREG", PN_SASS_CONTROL },
    { "UTMACMDFLUSH", PN_SASS_CONTROL }, { "ACQBULK", PN_SASS_CONTROL },
    { "PREEXIT", PN_SASS_CONTROL },
    /* texture and surface accesses: through the L1 as loads and stores are (the
     * page gives them no sectors: a line each) */
    { "TEX", PN_SASS_GLOBAL_LD }, { "TLD", PN_SASS_GLOBAL_LD }, { "TLD4", PN_SASS_GLOBAL_LD },
    { "SULD", PN_SASS_GLOBAL_LD }, { "SUST", PN_SASS_GLOBAL_ST },
};

/* Is a hex literal of opcode (with its modifiers) a code address (a
 * branch's target, a reconvergence point, where a collective's emulation
 * goes on, a function called relative to the code)? Not DEPBAR's count, a
 * plain WARPSYNC's mask, NANOSLEEP's time, RET's operand, nor CALL.ABS's
 * absolute address (an external function). (A relative CALL past the code
 * the page lists is left without a target by pn_sass_prog.) */
static bool code_address(const char *opcode, const char *modifiers)
{
    static const char *const ops[] = { "BRA", "JMP", "BSSY", "SSY", "PBK", "PCNT" };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(opcode, ops[i]))
            return true;
    return (!strcmp(opcode, "WARPSYNC") && strstr(modifiers, ".COLLECTIVE")) ||
           (!strcmp(opcode, "CALL") && strstr(modifiers, ".REL"));
}

static const char *const kind_names[PN_SASS_N_KINDS] = {
    "arith", "fp64", "sfu", "conv", "shuffle", "global_ld", "global_st", "shared_ld",
    "shared_st", "atom_global", "atom_shared", "const_ld", "s2r", "uniform", "tensor",
    "barrier", "control"
};

const char *pn_sass_kind_name(pn_sass_kind_t k)
{
    return k < PN_SASS_N_KINDS ? kind_names[k] : "?";
}

bool pn_sass_kind_variable(pn_sass_kind_t k)
{
    switch (k) {
    case PN_SASS_SFU: case PN_SASS_CONV: case PN_SASS_SHUFFLE: case PN_SASS_GLOBAL_LD:
    case PN_SASS_GLOBAL_ST: case PN_SASS_SHARED_LD: case PN_SASS_SHARED_ST:
    case PN_SASS_ATOM_GLOBAL: case PN_SASS_ATOM_SHARED: case PN_SASS_CONST_LD:
    case PN_SASS_S2R: case PN_SASS_TENSOR:
        return true;
    default:
        return false;
    }
}

pn_sass_kind_t pn_sass_kind_of(const char *opcode, bool *known)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].op, opcode)) {
            *known = true;
            return table[i].kind;
        }
    /* the uniform datapath: UIADD3, UMOV, ULOP3, ... (ULDC is const_ld above) */
    if (opcode[0] == 'U' && opcode[1]) {
        bool k2;
        pn_sass_kind_of(opcode + 1, &k2);
        if (k2) {
            *known = true;
            return PN_SASS_UNIFORM;
        }
    }
    *known = false;
    return PN_SASS_ARITH;
}

pn_sass_apart_t pn_sass_opcode_apart(const char *opcode)
{
    static const struct {
        const char *op;
        pn_sass_apart_t apart;
    } apart[] = { { "LDL", PN_SASS_APART_LOCAL },     { "STL", PN_SASS_APART_LOCAL },
                  { "TEX", PN_SASS_APART_TEXTURE },   { "TLD", PN_SASS_APART_TEXTURE },
                  { "TLD4", PN_SASS_APART_TEXTURE },  { "SULD", PN_SASS_APART_SURFACE },
                  { "SUST", PN_SASS_APART_SURFACE } };
    for (size_t i = 0; i < sizeof apart / sizeof apart[0]; i++)
        if (!strcmp(opcode, apart[i].op))
            return apart[i].apart;
    return PN_SASS_APART_NONE;
}

bool pn_sass_insn_to_shared(pn_sass_insn_t *in)
{
    static const struct {
        const char *op;
        pn_sass_kind_t kind;
    } generic[] = { { "LD", PN_SASS_SHARED_LD }, { "ST", PN_SASS_SHARED_ST },
                    { "ATOM", PN_SASS_ATOM_SHARED } };
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; i++)
        if (!strcmp(in->opcode, generic[i].op)) {
            in->kind = generic[i].kind;
            return true;
        }
    return false;
}

bool pn_sass_insn_strong_beyond_sm(const pn_sass_insn_t *in)
{
    return in->kind == PN_SASS_GLOBAL_LD &&
           (strstr(in->modifiers, ".STRONG.GPU") || strstr(in->modifiers, ".STRONG.SYS"));
}

/* pn_sass_insn.h */
size_t pn_sass_reg_at(const char *s, pn_sass_reg_t *r, bool *none)
{
    size_t n = 0;
    if (s[0] == 'U' && s[1] == 'R') {
        r->file = PN_SASS_UR;
        n = 2;
    } else if (s[0] == 'U' && s[1] == 'P') {
        r->file = PN_SASS_UP;
        n = 2;
    } else if (s[0] == 'R') {
        r->file = PN_SASS_R;
        n = 1;
    } else if (s[0] == 'P') {
        r->file = PN_SASS_P;
        n = 1;
    } else
        return 0;
    *none = false;
    if ((s[n] == 'Z' && (r->file == PN_SASS_R || r->file == PN_SASS_UR)) ||
        (s[n] == 'T' && (r->file == PN_SASS_P || r->file == PN_SASS_UP))) {
        if (isalnum((unsigned char)s[n + 1]) || s[n + 1] == '_')
            return 0;
        *none = true;
        return n + 1;
    }
    if (!isdigit((unsigned char)s[n]))
        return 0;
    unsigned long v = strtoul(s + n, NULL, 10);
    size_t d = strspn(s + n, "0123456789");
    if (v > 65535 || isalpha((unsigned char)s[n + d]) || s[n + d] == '_')
        return 0;
    r->index = (uint16_t)v;
    r->width = 1;
    return n + d;
}

static void add(pn_sass_reg_t *list, int *n, int max, pn_sass_reg_t r)
{
    if (*n < max)
        list[(*n)++] = r;
}

pn_status_t pn_sass_insn_parse(pn_sass_insn_t *in, const char *text, const char *path,
                               long line, long col, pn_error_t *err)
{
    memset(in, 0, sizeof *in);
    const char *p = text + strspn(text, " \t");
    if (*p == '@') {
        const char *g = p + 1;
        if (*g == '!') {
            in->guard_negated = true;
            g++;
        }
        bool none;
        size_t n = pn_sass_reg_at(g, &in->guard, &none);
        if (!n || (in->guard.file != PN_SASS_P && in->guard.file != PN_SASS_UP))
            return pn_error_at(err, PN_EINVAL, path, line, col + (p - text),
                               "guard '%.12s' is not a predicate", p);
        in->guarded = !none || in->guard_negated;
        p = g + n + strspn(g + n, " \t");
    }
    size_t on = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    if (on == 0 || on >= sizeof in->opcode)
        return pn_error_at(err, PN_EINVAL, path, line, col + (p - text),
                           "expected a SASS opcode, got '%.16s'", p);
    memcpy(in->opcode, p, on);
    p += on;
    size_t mn = strcspn(p, " \t;");
    if (mn >= sizeof in->modifiers)
        return pn_error_at(err, PN_EINVAL, path, line, col + (p - text),
                           "opcode modifiers longer than %zu characters",
                           sizeof in->modifiers - 1);
    memcpy(in->modifiers, p, mn);
    p += mn;
    in->kind = pn_sass_kind_of(in->opcode, &in->known);
    /* a branch whose condition is its first operand ("BRA !P0, 0x3fa0", "BRA.U UP1,
     * 0x100": sm_90 code of recent compilers) is guarded as "@!P0 BRA 0x3fa0" is */
    if (!in->guarded && !strcmp(in->opcode, "BRA")) {
        const char *g = p + strspn(p, " \t");
        bool neg = *g == '!', none;
        pn_sass_reg_t pr;
        size_t n = pn_sass_reg_at(g + neg, &pr, &none);
        const char *after = g + neg + n;
        if (n && (pr.file == PN_SASS_P || pr.file == PN_SASS_UP) &&
            after[strspn(after, " \t")] == ',') {
            in->guard = pr;
            in->guard_negated = neg;
            in->guarded = !none || neg;
            p = after + strspn(after, " \t") + 1;
        }
    }
    const char *m = in->modifiers;
    pn_sass_kind_t k = in->kind;
    bool memory = k >= PN_SASS_GLOBAL_LD && k <= PN_SASS_CONST_LD;
    int data_w = strstr(m, ".128") ? 4 : strstr(m, ".64") && memory ? 2 : 1;
    /* a matrix load of 4 or 2 8x8 tiles ("LDSM.16.M88.4 R8, [R3]": R8-R11) */
    size_t ml = strlen(m);
    if (!strcmp(in->opcode, "LDSM") && ml >= 2 && m[ml - 2] == '.' &&
        (m[ml - 1] == '4' || m[ml - 1] == '2'))
        data_w = m[ml - 1] - '0';
    /* an MMA's accumulators: 4 registers of FP32 (m16n8k8, m16n8k16), 2 of FP16 */
    int mma_w = k == PN_SASS_TENSOR && !strcmp(in->opcode, "HMMA")
                    ? (strstr(m, ".F32") ? 4 : 2)
                    : 0;
    /* conversions with a 64-bit side: F2F.<to>.<from>, I2F[.F64][.S64/.U64],
     * F2I[.S64/.U64][.F64] (a register pair on that side) */
    int conv_dst = 1, conv_src = 1;
    if (!strcmp(in->opcode, "F2F")) {
        int nt = 0; /* the float types in order: the result's, then the source's */
        for (const char *t = strchr(m, '.'); t && nt < 2; t = strchr(t + 1, '.')) {
            int bf = t[1] == 'B' && t[2] == 'F';   /* .BF16 */
            if ((t[1] == 'F' || bf) && isdigit((unsigned char)t[2 + bf])) {
                int w = !strncmp(t, ".F64", 4) && (t[4] == '.' || t[4] == '\0') ? 2 : 1;
                if (nt++ == 0)
                    conv_dst = w;
                else
                    conv_src = w;
            }
        }
    } else if (!strcmp(in->opcode, "I2F")) {
        conv_dst = strstr(m, ".F64") ? 2 : 1;
        conv_src = strstr(m, ".S64") || strstr(m, ".U64") ? 2 : 1;
    } else if (!strcmp(in->opcode, "F2I")) {
        conv_dst = strstr(m, ".S64") || strstr(m, ".U64") ? 2 : 1;
        conv_src = strstr(m, ".F64") ? 2 : 1;
    }
    bool wide = strstr(m, ".WIDE") != NULL, fp64 = k == PN_SASS_FP64;
    bool no_dest = k == PN_SASS_GLOBAL_ST || k == PN_SASS_SHARED_ST || k == PN_SASS_CONTROL ||
                   k == PN_SASS_BARRIER || !strcmp(in->opcode, "RED") ||
                   !strcmp(in->opcode, "REDG");
    size_t oplen = strlen(in->opcode);
    int n_dest = no_dest ? 0 : oplen > 4 && !strcmp(in->opcode + oplen - 4, "SETP") ? 2 : 1;
    /* a texture fetch writes its first two operands ("TEX.LL RZ, R10, R10, R2, UR4, 0x0, 2D,
     * 0x1": R10; the second pair, RZ, for 3 or 4 components), pairs past one component */
    if (pn_sass_opcode_apart(in->opcode) == PN_SASS_APART_TEXTURE) {
        const char *c = strrchr(p, ',');
        unsigned long mask = c && strstr(c, "0x") ? strtoul(c + 1, NULL, 16) : 0;
        in->components = 0;
        for (unsigned long b = mask & 15; b; b >>= 1)
            in->components += (int)(b & 1);
        if (in->components == 0)
            in->components = 1;
        n_dest = 2;
        data_w = in->components > 1 ? 2 : 1;
    }
    /* a predicate written beside a register: "SHFL.BFLY PT, R5, R2, 0x10, 0x1f",
     * "ATOMG.E.CAS.STRONG.GPU PT, R5, [R2], R6, R7", "LOP3.LUT P0, R3, ..." (a
     * predicate, then the value), "IADD3 R4, P0, R2, R3, RZ", "LEA R2, P0, R3, R4,
     * 0x2" (the value, then a carry out): both are written */
    if (n_dest == 1) {
        pn_sass_reg_t r0, r1;
        bool none;
        const char *g = p + strspn(p, " \t");
        size_t n0 = pn_sass_reg_at(g, &r0, &none);
        const char *h = n0 ? g + n0 + strspn(g + n0, " \t") : NULL;
        if (h && *h == ',') {
            h += 1 + strspn(h + 1, " \t");
            size_t n1 = pn_sass_reg_at(h, &r1, &none);
            const char *after = h + n1 + strspn(h + n1, " \t");
            if (n1 && *after == ',' &&
                ((r0.file == PN_SASS_P && r1.file == PN_SASS_R) ||
                 (r0.file == PN_SASS_R && r1.file == PN_SASS_P)))
                n_dest = 2;
        }
    }
    /* operands, split at top-level commas */
    int idx = 0, n_ops = 0;
    const char *q = p;
    for (const char *s = q; *s && *s != ';'; s++)
        if (*s == ',')
            n_ops++;
    if (strcspn(q, ";") > strspn(q, " \t"))
        n_ops++;
    else
        n_ops = 0;
    while (*q && *q != ';') {
        q += strspn(q, " \t");
        const char *start = q;
        int depth = 0;
        while (*q && *q != ';' && !(*q == ',' && depth == 0)) {
            if (*q == '[')
                depth++;
            else if (*q == ']' && --depth < 0)
                break;
            q++;
        }
        if (depth != 0)
            return pn_error_at(err, PN_EINVAL, path, line, col + (start - text),
                               "unbalanced '[' ']' in operand '%.24s'", start);
        bool dest = idx < n_dest;
        bool addend = wide && idx == n_ops - 1;
        for (const char *s = start; s < q;) {
            if (s > start && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '.')) {
                s++;
                continue;
            }
            if (s[0] == '0' && s[1] == 'x' && in->kind == PN_SASS_CONTROL &&
                code_address(in->opcode, in->modifiers)) {
                in->has_target = true;
                in->target = strtoull(s, NULL, 16);
                s += 2;
                continue;
            }
            pn_sass_reg_t r;
            bool none;
            size_t n = pn_sass_reg_at(s, &r, &none);
            if (!n) {
                s++;
                continue;
            }
            bool in_addr = depth > 0;
            for (const char *b = start; b < s; b++)
                in_addr = in_addr || *b == '[';
            if (r.file == PN_SASS_R || r.file == PN_SASS_UR) {
                if (!strncmp(s + n, ".64", 3))
                    r.width = 2;
                else if (fp64 || (wide && (dest || addend)))
                    r.width = 2;
                else if (mma_w && (dest || idx == n_ops - 1))
                    r.width = (uint8_t)mma_w;
                else if (!in_addr && (dest ? conv_dst : conv_src) > 1)
                    r.width = 2;
                else if (!in_addr && memory)
                    r.width = (uint8_t)data_w;
            }
            if (!none) {
                if (dest && !in_addr)
                    add(in->writes, &in->n_writes, PN_SASS_MAX_WRITES, r);
                else
                    add(in->reads, &in->n_reads, PN_SASS_MAX_READS, r);
            }
            s += n;
        }
        idx++;
        if (*q == ',')
            q++;
    }
    return PN_OK;
}
