/* test_sass_addr.c - what a memory instruction's address depends on
 * (pn_sass_addr_sources): the block's index, loaded data, or neither, along
 * straight code, overwritten and guarded registers, loops and calls; and
 * whether a loop keeps it (pn_sass_addr_invariant), how far it moves a trip
 * (pn_sass_addr_steps), and the register it starts from (pn_sass_addr_base). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "pn_sass_addr.h"
#include "pn_sass_prog.h"

enum { CTA = PN_SASS_FROM_CTA, LOAD = PN_SASS_FROM_LOAD, THR = PN_SASS_FROM_THREAD,
       WARP = PN_SASS_FROM_WARP, LANE = PN_SASS_FROM_LANE };

/* 0: pn_sass_addr_sources (or _guards), 1: pn_sass_addr_lanes */
static int g_lanes;

/* The sources of the last op of lines (n of them, one every 16 bytes, each
 * executed once) that carries an address (guards 0) or a guard (guards 1). */
static uint8_t last_sources(const char *const *lines, int n, int guards)
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < n; i++)
        assert_int_equal(pn_sass_prog_add(&p, lines[i], (uint64_t)(16 * i), 0, 1, 0, 0, 0,
                                          i + 1, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    uint8_t *from = malloc(p.n), *guard = malloc(p.n);
    assert_true(from && guard);
    assert_int_equal(guards   ? pn_sass_addr_sources_guards(&p, from, guard, &err)
                     : g_lanes ? pn_sass_addr_lanes(&p, from, NULL, &err)
                               : pn_sass_addr_sources(&p, from, &err), PN_OK);
    uint8_t m = 0xff;
    for (size_t i = 0; i < p.n; i++)
        if (guards ? p.ops[i].in.guarded : strchr(p.ops[i].text, '[') != NULL)
            m = guards ? guard[i] : from[i];
    free(from), free(guard);
    pn_sass_prog_destroy(&p);
    return m;
}

static uint8_t last_from(const char *const *lines, int n)
{
    return last_sources(lines, n, 0);
}

#define LAST(...) last_from((const char *const[]){ __VA_ARGS__ }, \
                            (int)(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)))

/* pn_sass_addr_lanes: an index from SR_TID.X or the lane carries LANE too, one from
 * SR_TID.Y does not (dct8x8's table reads: threadIdx.x << 2, threadIdx.y << 2) */
static void test_lanes(void **state)
{
    (void)state;
    g_lanes = 1;
    assert_int_equal(LAST("S2R R4, SR_TID.X", "SHF.L.U32 R14, R4, 0x2, RZ",
                          "LDC R15, c[0x3][R14]", "EXIT"), THR | LANE);
    assert_int_equal(LAST("S2R R3, SR_TID.Y", "SHF.L.U32 R11, R3, 0x2, RZ",
                          "LDC R0, c[0x3][R11]", "EXIT"), THR | WARP);
    assert_int_equal(LAST("S2R R3, SR_LANEID", "LDC R0, c[0x3][R3]", "EXIT"), THR | LANE);
    assert_int_equal(LAST("S2R R3, SR_TID.Y", "S2R R4, SR_TID.X", "IADD3 R5, R3, R4, RZ",
                          "LDC R0, c[0x3][R5]", "EXIT"), THR | WARP | LANE);
    g_lanes = 0;
    /* without lanes: as before */
    assert_int_equal(LAST("S2R R4, SR_TID.X", "SHF.L.U32 R14, R4, 0x2, RZ",
                          "LDC R15, c[0x3][R14]", "EXIT"), THR);
}

static void test_straight(void **state)
{
    (void)state;
    /* a histogram's merge: bins[threadIdx.x], the table's address a parameter */
    assert_int_equal(LAST("S2R R0, SR_TID.X", "S2R R5, SR_CTAID.X",
                          "LDC.64 R4, c[0x0][0x218]", "IMAD.WIDE R2, R0, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R7", "EXIT"), THR);
    /* out[blockIdx.x * blockDim.x + threadIdx.x], through a uniform register */
    assert_int_equal(LAST("S2R R0, SR_TID.X", "S2UR UR4, SR_CTAID.X",
                          "IMAD R0, R0, UR4, RZ", "IMAD.WIDE R2, R0, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R7", "EXIT"), CTA | THR);
    /* bins[in[i]]: the address from a load (of an address from the block) */
    assert_int_equal(LAST("S2R R0, SR_CTAID.X", "IMAD.WIDE R2, R0, 0x4, R4",
                          "LDG.E R6, desc[UR4][R2.64]", "IMAD.WIDE R8, R6, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R8.64], R7", "EXIT"), CTA | LOAD);
    assert_int_equal(LAST("S2R R0, SR_TID.X", "IMAD.WIDE R2, R0, 0x4, R4",
                          "LDG.E R6, desc[UR4][R2.64]", "IMAD.WIDE R8, R6, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R8.64], R7", "EXIT"), LOAD | THR);
    /* a 64-bit operand reads a register pair: R5, the block's index, is R4's upper half */
    assert_int_equal(LAST("S2R R0, SR_TID.X", "S2R R5, SR_CTAID.X",
                          "IMAD.WIDE R2, R0, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R7", "EXIT"), CTA | THR);
    /* the value added does not matter, only the address */
    assert_int_equal(LAST("S2R R7, SR_CTAID.X", "REDG.E.ADD.STRONG.GPU desc[UR6][R4.64], R7",
                          "EXIT"), 0);
    /* a register overwritten: R2 first held the block's address, then the bin's */
    assert_int_equal(LAST("S2R R0, SR_CTAID.X", "IMAD.WIDE R2, R0, 0x4, R4",
                          "LDG.E R6, desc[UR4][R2.64]", "S2R R1, SR_TID.X",
                          "IMAD.WIDE R2, R1, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R6", "EXIT"), THR);
    /* ... unless the overwrite is guarded: the old value may remain */
    assert_int_equal(LAST("S2R R0, SR_CTAID.X", "IMAD.WIDE R2, R0, 0x4, R4",
                          "S2R R1, SR_TID.X", "@P0 IMAD.WIDE R2, R1, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R6", "EXIT"), CTA | THR);
    /* a predicate computed from the block selects the address */
    assert_int_equal(LAST("S2R R0, SR_CTAID.X", "ISETP.GE.AND P0, PT, R0, 0x4, PT",
                          "SEL R1, R4, R5, P0", "IMAD.WIDE R2, R1, 0x4, R6",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R6", "EXIT"), CTA);
    /* what differs between the warps of a narrow block: SR_TID.Y and .Z, the
     * warp's id; not SR_TID.X, the lane's id or its masks */
    assert_int_equal(LAST("S2R R0, SR_TID.Y", "IMAD.WIDE R2, R0, 0x4, R4",
                          "LDG.E R6, desc[UR4][R2.64]", "EXIT"), THR | WARP);
    assert_int_equal(LAST("S2R R0, SR_TID.Z", "IMAD.WIDE R2, R0, 0x4, R4",
                          "LDG.E R6, desc[UR4][R2.64]", "EXIT"), THR | WARP);
    assert_int_equal(LAST("S2R R0, SR_WARPID", "IMAD.WIDE R2, R0, 0x4, R4",
                          "LDG.E R6, desc[UR4][R2.64]", "EXIT"), THR | WARP);
    assert_int_equal(LAST("S2R R0, SR_LANEID", "S2R R1, SR_LTMASK", "IADD3 R0, R0, R1, RZ",
                          "IMAD.WIDE R2, R0, 0x4, R4", "LDG.E R6, desc[UR4][R2.64]", "EXIT"),
                     THR);
    assert_int_equal(LAST("S2R R0, SR_TID.X", "S2R R1, SR_CTAID.Y", "IADD3 R0, R0, R1, RZ",
                          "IMAD.WIDE R2, R0, 0x4, R4", "LDG.E R6, desc[UR4][R2.64]", "EXIT"),
                     CTA | THR);
    /* an op with no address operand */
    assert_int_equal(LAST("S2R R0, SR_CTAID.X", "IADD3 R1, R0, R0, RZ", "EXIT"), 0xff);
}

static void test_flow(void **state)
{
    (void)state;
    /* a loop over the bins whose step comes from the block on its back edge:
     * the first trip is clean, the later ones are not */
    assert_int_equal(LAST("S2R R0, SR_TID.X", "S2R R9, SR_CTAID.X",
                          "IMAD.WIDE R2, R0, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R7",
                          "IADD3 R0, R0, R9, RZ", "ISETP.GE.AND P0, PT, R0, 0x100, PT",
                          "@!P0 BRA 0x20", "EXIT"), CTA | THR);
    /* the same loop stepping by a parameter stays clean */
    assert_int_equal(LAST("S2R R0, SR_TID.X", "S2R R9, SR_CTAID.X",
                          "IMAD.WIDE R2, R0, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R7",
                          "IADD3 R0, R0, UR8, RZ", "ISETP.GE.AND P0, PT, R0, 0x100, PT",
                          "@!P0 BRA 0x20", "EXIT"), THR);
    /* a branch around the block's address: either path reaches the atomic */
    assert_int_equal(LAST("S2R R0, SR_TID.X", "@P0 BRA 0x40", "S2R R0, SR_CTAID.X",
                          "NOP", "IMAD.WIDE R2, R0, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R7", "EXIT"), CTA | THR);
    /* an unconditional branch skips it */
    assert_int_equal(LAST("S2R R0, SR_TID.X", "BRA 0x40", "S2R R0, SR_CTAID.X",
                          "NOP", "IMAD.WIDE R2, R0, 0x4, R4",
                          "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R7", "EXIT"), THR);
    /* code no path reaches (past an EXIT, no branch into it): anything */
    assert_int_equal(LAST("EXIT", "REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R7", "EXIT"),
                      CTA | LOAD | THR | WARP);
    /* a loop over a table every thread reads alike (the points of a distance
     * loop): the address is a parameter plus the trip's offset, nothing else */
    assert_int_equal(LAST("LDC.64 R2, c[0x0][0x210]", "MOV R9, RZ",
                          "LDG.E.128.CONSTANT R8, desc[UR4][R2.64]", "IADD3 R2, P1, R2, 0x40, RZ",
                          "IADD3.X R3, RZ, R3, RZ, P1, !PT", "IADD3 R9, R9, 0x1, RZ",
                          "ISETP.NE.AND P2, PT, R9, 0x800, PT", "@P2 BRA 0x20", "EXIT"), 0);
    /* ... one the warp's lane picks is its own */
    assert_int_equal(LAST("LDC.64 R2, c[0x0][0x210]", "S2R R9, SR_LANEID",
                          "IMAD.WIDE R2, R9, 0x4, R2", "LDG.E R8, desc[UR4][R2.64]", "EXIT"),
                     THR);
}

/* Loads a loop keeps the address of (pn_sass_addr_invariant): in the loop at
 * 0x10..0x60, R4 is never written (op 1), R6 is (ops 2 and 4: a cp.async
 * copy's global address counts, not only its shared one); a load after the
 * loop (op 7) and ops without an address are not. */
/* The sources of the guard of the last guarded op in lines (n of them). */
static uint8_t last_guard(const char *const *lines, int n)
{
    return last_sources(lines, n, 1);
}

#define GUARD(...) last_guard((const char *const[]){ __VA_ARGS__ }, \
                              (int)(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)))

/* What decides a guarded branch: a loop's exit on the thread's index and a
 * counter (a triangular loop), on a loaded value (a search), on neither. */
static void test_guards(void **state)
{
    (void)state;
    assert_int_equal(GUARD("S2R R0, SR_TID.X", "IADD3 R1, R1, 0x1, RZ",
                           "ISETP.GE.AND P0, PT, R1, R0, PT", "@!P0 BRA 0x10", "EXIT"), THR);
    assert_int_equal(GUARD("S2R R0, SR_TID.X", "LDG.E R2, desc[UR4][R4.64]",
                           "IADD3 R1, R1, 0x1, RZ", "ISETP.GE.AND P0, PT, R1, R2, PT",
                           "@!P0 BRA 0x20", "EXIT"), LOAD);
    assert_int_equal(GUARD("IADD3 R1, R1, 0x1, RZ", "ISETP.GE.AND P0, PT, R1, 0x10, PT",
                           "@!P0 BRA 0x0", "EXIT"), 0);
    assert_int_equal(GUARD("S2R R0, SR_CTAID.X", "ISETP.GE.AND P1, PT, R0, 0x4, PT",
                           "@P1 EXIT", "EXIT"), CTA);
}

static void test_invariant(void **state)
{
    (void)state;
    static const char *const lines[] = { "S2R R0, SR_TID.X",
                                          "LDG.E R2, desc[UR4][R4.64]",
                                          "LDG.E R3, desc[UR4][R6.64]",
                                          "IADD3 R6, R6, 0x80, RZ",
                                          "LDGSTS.E.BYPASS.128 desc[UR6][R6.64], [R13]",
                                          "ISETP.GE.AND P0, PT, R6, R0, PT",
                                          "@!P0 BRA 0x10",
                                          "LDG.E R8, desc[UR4][R4.64]",
                                          "EXIT" };
    static const uint8_t want[] = { 0, 1, 0, 0, 0, 0, 0, 0, 0 };
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < 9; i++)
        assert_int_equal(pn_sass_prog_add(&p, lines[i], (uint64_t)(16 * i), 0, 1, 0, 0, 0,
                                          i + 1, 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    uint8_t inv[9];
    pn_sass_addr_invariant(&p, inv);
    assert_memory_equal(inv, want, sizeof want);
    pn_sass_prog_destroy(&p);
}

/* How far loads move a trip (pn_sass_addr_steps) of the n lines, into moves. */
static void steps_of(const char *const *lines, int n, uint8_t *moves)
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    for (int i = 0; i < n; i++)
        assert_int_equal(pn_sass_prog_add(&p, lines[i], (uint64_t)(16 * i), 0,
                                          strncmp(lines[i], "CALL", 4) ? 1 : 0, 0, 0, 0, i + 1, 1,
                                          &err), PN_OK);
    assert_int_equal(pn_sass_prog_finish(&p, &err), PN_OK);
    pn_sass_addr_steps(&p, moves);
    pn_sass_prog_destroy(&p);
}

/* A column walked down (attention's V: an index 32 a trip, 4 bytes an
 * element: 128 bytes), a row walked by a register's stride, a pointer a word
 * a trip (a thread's row: its own lines again), an index a word a trip
 * through LEA, a load that overwrites its address register from a pointer
 * the loop steps 16 bytes, one 256 bytes, a load the loop keeps the address
 * of, one after the loop, a pointer chased; a pointer an unrolled loop steps
 * through a copy, one a uniform register steps past a call that never ran,
 * an address made afresh every trip from a parameter and an index, and a
 * pointer 4 bytes down a trip (0xfffffffc). */
static void test_steps(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "LDC.64 R8, c[0x0][0x218]",                   /* 0 */
        "IMAD.MOV.U32 R15, RZ, RZ, R10",              /* 1 */
        "IMAD.WIDE R16, R15, 0x4, R8",                /* 2: the loop 0x20..0x150 */
        "LDG.E R16, desc[UR6][R16.64]",               /* 3: 2 (128 bytes a trip) */
        "IMAD.WIDE R18, R12, 0x4, R6",                /* 4 */
        "LDG.E R19, desc[UR6][R18.64]",               /* 5: 2 (R12 += R5 * 32) */
        "IADD3 R2, P0, R2, 0x4, RZ",                  /* 6 */
        "IADD3.X R3, RZ, R3, RZ, P0, !PT",            /* 7 */
        "LDG.E R20, desc[UR4][R2.64]",                /* 8: 1 (4 bytes) */
        "LEA R22, R14, R24, 0x2",                     /* 9 */
        "LDG.E R21, desc[UR4][R22.64]",               /* 10: 1 (R14 + 1, 4 bytes) */
        "LDG.E.U8 R26, desc[UR4][R26.64+0x8]",        /* 11: 1 (R26 from R28 + 0x10) */
        "LDG.E R25, desc[UR4][R30.64]",               /* 12: 2 (R30 + 0x100) */
        "LDG.E R27, desc[UR4][R4.64]",                /* 13: 0 (kept) */
        "IADD3 R15, R15, 0x20, RZ",                   /* 14 */
        "IMAD R12, R5, 0x20, R12",                    /* 15 */
        "IADD3 R14, R14, 0x1, RZ",                    /* 16 */
        "IADD3 R28, R28, 0x10, RZ",                   /* 17 */
        "IMAD.MOV.U32 R26, RZ, RZ, R28",              /* 18 */
        "VIADD R30, R30, 0x100",                      /* 19 */
        "ISETP.GE.AND P1, PT, R15, R4, PT",           /* 20 */
        "@!P1 BRA 0x20",                              /* 21 */
        "LDG.E R2, desc[UR4][R8.64]",                 /* 22: 0 (no loop) */
        "LDG.E R9, desc[UR4][R16.64]",                /* 23 */
        "IADD3 R6, R6, 0x4, RZ",                      /* 24: the loop 0x170..0x1a0 */
        "LDG.E.64 R10, desc[UR4][R10.64]",            /* 25: 0 (a pointer chased: */
                                                      /*   cannot tell) */
        "LDG.E R31, desc[UR4][R6.64]",                /* 26: 1 */
        "@P1 BRA 0x180",                              /* 27 */
        "LDG.E R13, desc[UR4][R4.64+-0x8]",           /* 28: 1 (the loop 0x1c0..0x220: */
        "IADD3 R12, P2, R4, 0x10, RZ",                /* 29     R4 = R12 = R4 + 0x10) */
        "IMAD.MOV.U32 R4, RZ, RZ, R12",               /* 30 */
        "IADD3 R32, P0, R18, UR6, RZ",                /* 31 */
        "LDG.E R33, desc[UR4][R32.64]",               /* 32: 1 (UR6 + 0x10) */
        "@!P3 BRA 0x230",                             /* 33 */
        "CALL.REL.NOINC 0x250",                       /* 34: never runs */
        "UIADD3 UR6, UP0, UR6, 0x10, URZ",            /* 35 */
        "@P0 BRA 0x1c0",                              /* 36 */
        "LDC.64 R2, c[0x0][0x210]",                   /* 37: the loop 0x250..0x2b0 */
        "IMAD.WIDE.U32 R2, R0, 0x30, R2",             /* 38: made afresh each trip */
        "IMAD.WIDE R6, R14, 0x4, R2",                 /* 39 */
        "LDG.E R16, desc[UR6][R6.64+0x4]",            /* 40: 1 (R14 + 1: 4 bytes) */
        "IADD3 R14, R14, 0x1, RZ",                    /* 41 */
        "@P0 BRA 0x250",                              /* 42 */
        "LDG.E R17, desc[UR6][R34.64]",               /* 43: 1 (the loop 0x2b0..0x2d0: */
        "VIADD R34, R34, 0xfffffffc",                 /* 44    4 bytes down a trip) */
        "@P0 BRA 0x2b0",                              /* 45 */
        "EXIT",
    };
    enum { N = sizeof lines / sizeof lines[0] };
    uint8_t moves[N], want[N] = { 0 };
    want[3] = want[5] = want[12] = 2;
    want[8] = want[10] = want[11] = want[26] = want[28] = want[32] = want[40] = want[43] = 1;
    steps_of(lines, N, moves);
    assert_memory_equal(moves, want, N);
}

/* The register an address starts from (pn_sass_addr_base). */
static int base_of(const char *text)
{
    pn_sass_prog_t p;
    pn_error_t err = { 0 };
    assert_int_equal(pn_sass_prog_init(&p, "t.sass", "t", 1, &err), PN_OK);
    assert_int_equal(pn_sass_prog_add(&p, text, 0, 0, 1, 0, 0, 0, 1, 1, &err), PN_OK);
    int b = pn_sass_addr_base(&p.ops[0]);
    pn_sass_prog_destroy(&p);
    return b;
}

static void test_base(void **state)
{
    (void)state;
    assert_int_equal(base_of("LDG.E R4, desc[UR4][R2.64]"), 2);
    assert_int_equal(base_of("LDG.E R5, desc[UR4][R2.64+0x4000]"), 2);
    assert_int_equal(base_of("LDG.E.128 R4, desc[UR6][R12.64+-0x80]"), 12);
    assert_int_equal(base_of("LDS R4, [UR5+0x40]"), 256 + 5);
    assert_int_equal(base_of("STG.E desc[UR4][R16.64+0x500], R25"), 16);
    assert_int_equal(base_of("LDG.E R4, desc[UR4][0x100]"), -1);
    assert_int_equal(base_of("IADD3 R6, R4, R5, RZ"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight),
        cmocka_unit_test(test_lanes),
        cmocka_unit_test(test_flow),
        cmocka_unit_test(test_guards),
        cmocka_unit_test(test_invariant),
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_base),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
