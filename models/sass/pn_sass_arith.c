/* pn_sass_arith.c - which of a partition's pipes an arithmetic op takes, and
 * for how long, as examples/probe/alu_pipes.cu measured them on the H100
 * (pn_sass_sim_i.h). */
#include "pn_sass_sim_i.h"

#include <string.h>

/* pn_sass_sim_i.h */
int pn_sass_fma_pipe(const char *op)
{
    static const char *const f[] = { "FFMA", "FADD", "FMUL", "IMAD", "HFMA2", "HADD2", "HMUL2",
                                     "I2FP", NULL };
    for (int i = 0; f[i]; i++)
        if (!strcmp(op, f[i]))
            return 1;
    return 0;
}

/* pn_sass_sim_i.h */
int pn_sass_arith_pipe(const char *op)
{
    static const char *const in[] = { "IADD3", "IADD", "IADD32I", "LOP3", "LOP", "LOP32I",
                                      "ISETP", "FSETP", "PSETP", "FSEL", "SEL", "FSET", "ISET",
                                      "FMNMX", "IMNMX", "SHF", "SHL", "SHR", "LEA", "PRMT",
                                      "MOV", "MOV32I", "IABS", "PLOP3", "P2R", "R2P", "BMSK",
                                      "SGXT", "ISCADD", NULL };
    static const char *const heavy[] = { "IMAD", "IMUL", "IDP", "VIADD", NULL };
    for (int i = 0; in[i]; i++)
        if (!strcmp(op, in[i]))
            return P_INT;
    for (int i = 0; heavy[i]; i++)
        if (!strcmp(op, heavy[i]))
            return P_FMAH;
    return P_ALU;
}

/* pn_sass_sim_i.h */
int pn_sass_fmah_multiple(const pn_sass_insn_t *in)
{
    if (!strcmp(in->opcode, "IMAD") || !strcmp(in->opcode, "IMUL"))
        return strstr(in->modifiers, ".WIDE") || strstr(in->modifiers, ".HI") ? 2 : 0;
    return !strcmp(in->opcode, "HADD2") && strstr(in->modifiers, ".F32") ? 1 : 0;
}

/* pn_sass_sim_i.h */
int pn_sass_xu_arith(const pn_sass_insn_t *in)
{
    return !strcmp(in->opcode, "POPC") || !strcmp(in->opcode, "FLO") ||
           !strcmp(in->opcode, "BREV");
}
