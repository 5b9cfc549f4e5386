/* test_sass.c - the SASS instruction parser: guard predicates, opcode and
 * modifiers, registers written and read with their widths, branch targets,
 * kinds, an unknown opcode, and malformed text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "pn_sass_insn.h"

static pn_sass_insn_t parse(const char *text)
{
    pn_sass_insn_t in;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_insn_parse(&in, text, "t.csv", 3, 10, &err), PN_OK);
    return in;
}

static void assert_reg(pn_sass_reg_t r, pn_sass_file_t file, int index, int width)
{
    assert_int_equal(r.file, file);
    assert_int_equal(r.index, index);
    assert_int_equal(r.width, width);
}

static void test_guarded_load(void **state)
{
    (void)state;
    pn_sass_insn_t in = parse("@!P0 LDG.E.64 R4, desc[UR4][R2.64] ;");
    assert_true(in.guarded);
    assert_true(in.guard_negated);
    assert_reg(in.guard, PN_SASS_P, 0, 1);
    assert_string_equal(in.opcode, "LDG");
    assert_string_equal(in.modifiers, ".E.64");
    assert_int_equal(in.kind, PN_SASS_GLOBAL_LD);
    assert_true(in.known);
    assert_true(pn_sass_kind_variable(in.kind));
    assert_int_equal(in.n_writes, 1);
    assert_reg(in.writes[0], PN_SASS_R, 4, 2);
    assert_int_equal(in.n_reads, 2);
    assert_reg(in.reads[0], PN_SASS_UR, 4, 1);
    assert_reg(in.reads[1], PN_SASS_R, 2, 2);
    assert_false(in.has_target);
}

static void test_wide_and_setp(void **state)
{
    (void)state;
    pn_sass_insn_t in = parse("IMAD.WIDE R2, R7, 0x4, R2 ;");
    assert_false(in.guarded);
    assert_int_equal(in.kind, PN_SASS_ARITH);
    assert_false(pn_sass_kind_variable(in.kind));
    assert_int_equal(in.n_writes, 1);
    assert_reg(in.writes[0], PN_SASS_R, 2, 2);
    assert_int_equal(in.n_reads, 2);
    assert_reg(in.reads[0], PN_SASS_R, 7, 1);
    assert_reg(in.reads[1], PN_SASS_R, 2, 2);
    in = parse("ISETP.GE.AND P0, PT, R0, UR5, PT ;");
    assert_string_equal(in.modifiers, ".GE.AND");
    assert_int_equal(in.n_writes, 1);
    assert_reg(in.writes[0], PN_SASS_P, 0, 1);
    assert_int_equal(in.n_reads, 2);
    assert_reg(in.reads[0], PN_SASS_R, 0, 1);
    assert_reg(in.reads[1], PN_SASS_UR, 5, 1);
}

static void test_store_and_fp64(void **state)
{
    (void)state;
    pn_sass_insn_t in = parse("STG.E.128 desc[UR6][R2.64], R8 ;");
    assert_int_equal(in.kind, PN_SASS_GLOBAL_ST);
    assert_int_equal(in.n_writes, 0);
    assert_int_equal(in.n_reads, 3);
    assert_reg(in.reads[2], PN_SASS_R, 8, 4);
    in = parse("DFMA R4, R6, R8, RZ ;");
    assert_int_equal(in.kind, PN_SASS_FP64);
    assert_reg(in.writes[0], PN_SASS_R, 4, 2);
    assert_int_equal(in.n_reads, 2);
    assert_reg(in.reads[1], PN_SASS_R, 8, 2);
    in = parse("MOV R1, c[0x0][0x28] ;");
    assert_int_equal(in.n_writes, 1);
    assert_int_equal(in.n_reads, 0);
    /* a global atomic writes its predicate and its old value; a shared one only the
     * value; a reduction nothing */
    in = parse("ATOMG.E.CAS.STRONG.GPU PT, R5, [R2], R6, R7 ;");
    assert_int_equal(in.kind, PN_SASS_ATOM_GLOBAL);
    assert_int_equal(in.n_writes, 1);
    assert_reg(in.writes[0], PN_SASS_R, 5, 1);
    assert_int_equal(in.n_reads, 3);
    in = parse("ATOMG.E.ADD.STRONG.GPU P0, R9, desc[UR4][R2.64], R7 ;");
    assert_int_equal(in.n_writes, 2);
    assert_reg(in.writes[1], PN_SASS_R, 9, 1);
    in = parse("ATOMG.E.ADD.STRONG.GPU PT, RZ, desc[UR4][R2.64], R7 ;");
    assert_int_equal(in.n_writes, 0);
    in = parse("ATOMS.CAST.SPIN R7, [R4], R6, R7 ;");
    assert_int_equal(in.n_writes, 1);
    assert_reg(in.writes[0], PN_SASS_R, 7, 1);
    in = parse("RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5 ;");
    assert_int_equal(in.n_writes, 0);
    /* a shuffle's value beside its predicate; a carry out beside the sum */
    in = parse("SHFL.BFLY PT, R5, R2, 0x10, 0x1f ;");
    assert_int_equal(in.n_writes, 1);
    assert_reg(in.writes[0], PN_SASS_R, 5, 1);
    assert_int_equal(in.n_reads, 1);
    in = parse("IADD3 R4, P0, R2, R3, RZ ;");
    assert_int_equal(in.n_writes, 2);
    assert_reg(in.writes[1], PN_SASS_P, 0, 1);
    assert_int_equal(in.n_reads, 2);
    in = parse("IADD3.X R5, R3, R4, RZ, P0, !PT ;");
    assert_int_equal(in.n_writes, 1);
    assert_int_equal(in.n_reads, 3);
    in = parse("LOP3.LUT P0, RZ, R2, 0x1, RZ, 0xc0, !PT ;");
    assert_int_equal(in.n_writes, 1);
    assert_reg(in.writes[0], PN_SASS_P, 0, 1);
    /* a matrix load writes its tiles' registers; an MMA its accumulators */
    in = parse("LDSM.16.M88.4 R8, [R3] ;");
    assert_reg(in.writes[0], PN_SASS_R, 8, 4);
    in = parse("LDSM.16.MT88.2 R8, [R3+0x200] ;");
    assert_reg(in.writes[0], PN_SASS_R, 8, 2);
    in = parse("HMMA.16816.F32 R4, R8, R12, R4 ;");
    assert_reg(in.writes[0], PN_SASS_R, 4, 4);
    assert_int_equal(in.n_reads, 3);
    assert_reg(in.reads[2], PN_SASS_R, 4, 4);
    in = parse("HMMA.16816.F16 R4, R8, R12, R4 ;");
    assert_reg(in.writes[0], PN_SASS_R, 4, 2);
    /* conversions: a register pair on their 64-bit side */
    in = parse("F2F.F64.F32 R4, R2 ;");
    assert_reg(in.writes[0], PN_SASS_R, 4, 2);
    assert_reg(in.reads[0], PN_SASS_R, 2, 1);
    in = parse("F2F.FTZ.F32.F64 R2, R4 ;");
    assert_reg(in.writes[0], PN_SASS_R, 2, 1);
    assert_reg(in.reads[0], PN_SASS_R, 4, 2);
    in = parse("I2F.U64.RP R4, R2 ;");
    assert_reg(in.writes[0], PN_SASS_R, 4, 1);
    assert_reg(in.reads[0], PN_SASS_R, 2, 2);
    in = parse("F2I.F64.FLOOR R2, R4 ;");
    assert_reg(in.writes[0], PN_SASS_R, 2, 1);
    assert_reg(in.reads[0], PN_SASS_R, 4, 2);
}

static void test_control(void **state)
{
    (void)state;
    pn_sass_insn_t in = parse("@P1 BRA 0x7f3a00000120 ;");
    assert_true(in.guarded);
    assert_false(in.guard_negated);
    assert_reg(in.guard, PN_SASS_P, 1, 1);
    assert_int_equal(in.kind, PN_SASS_CONTROL);
    assert_true(in.has_target);
    assert_true(in.target == 0x7f3a00000120ull);
    assert_int_equal(in.n_writes, 0);
    in = parse("BSSY B0, 0x1f0 ;");
    assert_true(in.has_target);
    assert_true(in.target == 0x1f0);
    assert_int_equal(in.n_reads + in.n_writes, 0);
    in = parse("EXIT ;");
    assert_string_equal(in.opcode, "EXIT");
    assert_false(in.has_target);
    in = parse("@PT BAR.SYNC.DEFER_BLOCKING 0x0 ;");
    assert_false(in.guarded);
    assert_int_equal(in.kind, PN_SASS_BARRIER);
}

/* A branch whose condition is its first operand (sm_90 code of recent compilers, cuBLAS's
 * nvjet kernels) is guarded as "@!P0 BRA" is. */
static void test_predicate_operand(void **state)
{
    (void)state;
    pn_sass_insn_t in = parse("BRA !P0, 0x3fa0 ;");
    assert_true(in.guarded);
    assert_true(in.guard_negated);
    assert_reg(in.guard, PN_SASS_P, 0, 1);
    assert_true(in.has_target);
    assert_int_equal(in.target, 0x3fa0);
    assert_int_equal(in.n_reads, 0);
    in = parse("BRA.U UP1, 0x100 ;");
    assert_true(in.guarded);
    assert_false(in.guard_negated);
    assert_reg(in.guard, PN_SASS_UP, 1, 1);
    assert_int_equal(in.target, 0x100);
    in = parse("BRA 0x280 ;");
    assert_false(in.guarded);
    assert_int_equal(in.target, 0x280);
}

static void test_kinds(void **state)
{
    (void)state;
    bool known;
    assert_int_equal(pn_sass_kind_of("MUFU", &known), PN_SASS_SFU);
    assert_int_equal(pn_sass_kind_of("I2F", &known), PN_SASS_CONV);
    assert_int_equal(pn_sass_kind_of("ATOMS", &known), PN_SASS_ATOM_SHARED);
    /* an mbarrier op (arrive, poll, init) waits for no other warp: not a barrier */
    assert_int_equal(pn_sass_kind_of("SYNCS", &known), PN_SASS_CONTROL);
    assert_int_equal(pn_sass_kind_of("BAR", &known), PN_SASS_BARRIER);
    /* what ncu counts apart from the global accesses */
    assert_int_equal(pn_sass_opcode_apart("LDL"), PN_SASS_APART_LOCAL);
    assert_int_equal(pn_sass_opcode_apart("STL"), PN_SASS_APART_LOCAL);
    assert_int_equal(pn_sass_opcode_apart("TLD"), PN_SASS_APART_TEXTURE);
    assert_int_equal(pn_sass_opcode_apart("TLD4"), PN_SASS_APART_TEXTURE);
    assert_int_equal(pn_sass_opcode_apart("SUST"), PN_SASS_APART_SURFACE);
    assert_int_equal(pn_sass_opcode_apart("LDG"), PN_SASS_APART_NONE);
    assert_int_equal(pn_sass_opcode_apart("LD"), PN_SASS_APART_NONE);
    assert_int_equal(pn_sass_kind_of("UIADD3", &known), PN_SASS_UNIFORM);
    assert_true(known);
    assert_int_equal(pn_sass_kind_of("ULDC", &known), PN_SASS_CONST_LD);
    assert_int_equal(pn_sass_kind_of("FOOBAR", &known), PN_SASS_ARITH);
    assert_false(known);
    pn_sass_insn_t in = parse("FOOBAR.X R1, R2 ;");
    assert_false(in.known);
    assert_int_equal(in.kind, PN_SASS_ARITH);
    assert_string_equal(pn_sass_kind_name(PN_SASS_ATOM_GLOBAL), "atom_global");
}

/* Texture fetches write their first two operands, register pairs past one
 * component (the write mask); a generic access the source page places in
 * shared memory becomes the shared kind of its operation. */
static void test_texture_and_generic(void **state)
{
    (void)state;
    pn_sass_insn_t in = parse("TEX.LL RZ, R10, R10, R2, UR4, 0x0, 2D, 0x1 ;");
    assert_int_equal(in.components, 1);
    assert_int_equal(in.n_writes, 1);
    assert_reg(in.writes[0], PN_SASS_R, 10, 1);
    in = parse("TEX.LL R20, R10, R2, R3, UR4, 0x0, 2D, 0xf");
    assert_int_equal(in.components, 4);
    assert_int_equal(in.n_writes, 2);
    assert_reg(in.writes[0], PN_SASS_R, 20, 2);
    assert_reg(in.writes[1], PN_SASS_R, 10, 2);
    assert_int_equal(parse("LDG.E R2, desc[UR4][R4.64]").components, 0);
    static const struct {
        const char *text;
        bool generic;
        pn_sass_kind_t kind;
    } sp[] = { { "LD.E R88, desc[UR10][R124.64+0x10]", true, PN_SASS_SHARED_LD },
               { "ST.E desc[UR4][R2.64], R5", true, PN_SASS_SHARED_ST },
               { "ATOM.E.ADD.STRONG.GPU PT, R3, desc[UR4][R4.64], R5", true,
                 PN_SASS_ATOM_SHARED },
               { "LDG.E R2, desc[UR4][R4.64]", false, PN_SASS_GLOBAL_LD },
               { "LDS R2, [R4]", false, PN_SASS_SHARED_LD } };
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) {
        in = parse(sp[i].text);
        assert_int_equal(pn_sass_insn_to_shared(&in), sp[i].generic);
        assert_int_equal(in.kind, sp[i].kind);
    }
}

static void test_errors(void **state)
{
    (void)state;
    pn_sass_insn_t in;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_insn_parse(&in, "@R1 MOV R1, R2 ;", "t.csv", 3, 10, &err),
                     PN_EINVAL);
    assert_non_null(strstr(err.msg, "t.csv:3:10: guard '@R1 MOV R1,"));
    assert_int_equal(pn_sass_insn_parse(&in, "  ;", "t.csv", 3, 10, &err), PN_EINVAL);
    assert_non_null(strstr(err.msg, "t.csv:3:12: expected a SASS opcode"));
    assert_int_equal(pn_sass_insn_parse(&in, "LDG.E R4, [R2 ;", "t.csv", 3, 10, &err),
                     PN_EINVAL);
    assert_non_null(strstr(err.msg, "t.csv:3:20: unbalanced"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guarded_load), cmocka_unit_test(test_wide_and_setp),
        cmocka_unit_test(test_store_and_fp64), cmocka_unit_test(test_control),
        cmocka_unit_test(test_kinds), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_predicate_operand), cmocka_unit_test(test_texture_and_generic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
