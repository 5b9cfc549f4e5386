// alu_pipes.cu - the issue cost of one arithmetic opcode at a time: which ops share a pipe
// narrower than the scheduler (16 lanes: a warp instruction every 2 cycles) and which issue
// every cycle. One block of 32 warps (8 a partition), every thread 8 independent chains of
// the one op, 64 ops a trip; the slope of block 0's clock64 between two trip counts over the
// warp instructions a partition issued is the cycles a partition spends per instruction.
//   ffma fmul fadd       fma.rn / mul.rn / add.rn .f32        (FFMA, FMUL, FADD)
//   imad                 mad.lo.u32                            (IMAD)
//   viadd                add.u32 of two registers              (VIADD / IADD3)
//   iadd3                add.u32 of three registers            (IADD3)
//   lop3                 xor.b32 (of the next chain: no folding) (LOP3.LUT)
//   fsel                 selp.f32 on a loop-invariant predicate (FSEL)
//   fsetp                setp.lt.and.f32 chained through the predicate (FSETP)
//   isetp                setp.lt.and.s32 chained through the predicate (ISETP)
//   fset                 set.lt.f32.f32                        (FSET)
//   fmnmx                min.f32                               (FMNMX)
//   shf                  shf.l.wrap.b32                        (SHF)
//   mix_fma_alu          ffma and lop3 alternating
//   imad_hi              mul.hi.u32                            (IMAD.HI.U32)
//   imad_wide            mad.wide.u32 into a 64-bit chain      (IMAD.WIDE.U32)
//   i2f_rp               cvt.rp.f32.u32, the bits the next input (I2F.U32.RP)
//   i2f_s8, i2f_s16      cvt.rn.f32.s8 / .s16 of the low byte / half (I2F.S8, I2F.S16)
//   hadd2_f32            cvt.f32.f16 of the low half            (HADD2.F32)
//   hadd2                add.f16x2                             (HADD2)
//   prmt                 prmt.b32                              (PRMT)
//   iabs                 abs.s32                               (IABS)
//   popc, flo, brev      popc.b32, bfind.u32, brev.b32          (POPC, FLO, BREV)
//   mix_popc_mufu        popc and rsqrt.approx alternating      (POPC, MUFU.RSQ: one pipe?)
//   mix_h2f_imad         cvt.f32.f16 and mad.lo alternating     (HADD2.F32, IMAD)
//   mix_h2f_lop3         cvt.f32.f16 and xor alternating        (HADD2.F32, LOP3)
//   mix_h2f_ffma         cvt.f32.f16 and fma alternating        (HADD2.F32, FFMA)
//   mix_hi_imad          mul.hi and mad.lo alternating          (IMAD.HI, IMAD)
//   wide_lop3            mad.wide.u32, then the xor of its halves (IMAD.WIDE.U32 + LOP3)
// Prints CSV rows `probe,value,unit,detail`: pipe_<op>, cycles a partition per warp
// instruction. Usage: alu_pipes (no arguments). The SASS of the loop (cuobjdump -sass) shows
// which opcode each op became.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../common/pn_bench.cuh"

#define CH 8
#define PER 8 /* ops a chain a trip */

template <int OP>
__global__ void __launch_bounds__(1024) pn_pipe(int trips, float fy, unsigned uy, long long *cyc,
                                                float *sinkf, unsigned *sinku)
{
    float f[CH];
    unsigned u[CH];
    unsigned long long w[CH];
    unsigned t = threadIdx.x;
    bool q = (t & 1) != 0;
#pragma unroll
    for (int c = 0; c < CH; c++) {
        f[c] = (float)(t + c);
        u[c] = t * 7 + c;
        w[c] = t * 5ull + c;
    }
    __syncthreads();
    long long t0 = clock64();
    for (int k = 0; k < trips; k++) {
#pragma unroll
        for (int r = 0; r < PER; r++) {
#pragma unroll
            for (int c = 0; c < CH; c++) {
                if (OP == 0) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(f[c]) : "f"(fy));
                else if (OP == 1) asm volatile("mul.rn.f32 %0, %0, %1;" : "+f"(f[c]) : "f"(fy));
                else if (OP == 2) asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(f[c]) : "f"(fy));
                else if (OP == 3) asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(u[c]) : "r"(uy));
                else if (OP == 4) asm volatile("add.u32 %0, %0, %1;" : "+r"(u[c]) : "r"(u[(c + 1) % CH]));
                else if (OP == 5) asm volatile("{ .reg .u32 s; add.u32 s, %0, %1; add.u32 %0, s, %2; }"
                                               : "+r"(u[c]) : "r"(uy), "r"(u[(c + 1) % CH]));
                else if (OP == 6) asm volatile("xor.b32 %0, %0, %1;" : "+r"(u[c]) : "r"(u[(c + 1) % CH]));
                else if (OP == 7) asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; selp.f32 %0, %0, %1, p; }"
                                               : "+f"(f[c]) : "f"(fy), "r"((unsigned)q));
                else if (OP == 8) asm volatile("{ .reg .pred p; setp.ne.b32 p, %0, 0; setp.lt.and.f32 p, %1, %2, p; selp.u32 %0, 1, 0, p; }"
                                               : "+r"(u[c]) : "f"(f[c]), "f"(fy));
                else if (OP == 9) asm volatile("{ .reg .pred p; setp.ne.b32 p, %0, 0; setp.lt.and.s32 p, %0, %1, p; selp.u32 %0, 1, 0, p; }"
                                               : "+r"(u[c]) : "r"(uy));
                else if (OP == 10) asm volatile("set.lt.f32.f32 %0, %0, %1;" : "+f"(f[c]) : "f"(fy));
                else if (OP == 11) asm volatile("min.f32 %0, %0, %1;" : "+f"(f[c]) : "f"(fy));
                else if (OP == 12) asm volatile("shf.l.wrap.b32 %0, %0, %0, %1;" : "+r"(u[c]) : "r"(uy));
                else if (OP == 13) {
                    if (c & 1) asm volatile("xor.b32 %0, %0, %1;" : "+r"(u[c]) : "r"(u[(c + 2) % CH]));
                    else asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(f[c]) : "f"(fy));
                }
                else if (OP == 14) asm volatile("mul.hi.u32 %0, %0, %1;" : "+r"(u[c]) : "r"(uy));
                else if (OP == 15) asm volatile("{ .reg .u32 lo, hi; mov.b64 {lo, hi}, %0; mad.wide.u32 %0, lo, %1, %0; }"
                                                : "+l"(w[c]) : "r"(uy));
                else if (OP == 16) asm volatile("{ .reg .f32 t; cvt.rp.f32.u32 t, %0; mov.b32 %0, t; }" : "+r"(u[c]));
                else if (OP == 17) asm volatile("{ .reg .s8 b; .reg .f32 t; cvt.s8.s32 b, %0; cvt.rn.f32.s8 t, b; mov.b32 %0, t; }" : "+r"(u[c]));
                else if (OP == 18) asm volatile("{ .reg .s16 b; .reg .f32 t; cvt.s16.s32 b, %0; cvt.rn.f32.s16 t, b; mov.b32 %0, t; }" : "+r"(u[c]));
                else if (OP == 19) asm volatile("{ .reg .b16 l, h; .reg .f32 t; mov.b32 {l, h}, %0; cvt.f32.f16 t, l; mov.b32 %0, t; }" : "+r"(u[c]));
                else if (OP == 20) asm volatile("add.rn.f16x2 %0, %0, %1;" : "+r"(u[c]) : "r"(uy));
                else if (OP == 21) asm volatile("prmt.b32 %0, %0, %1, 0x1032;" : "+r"(u[c]) : "r"(u[(c + 1) % CH]));
                else if (OP == 22) asm volatile("abs.s32 %0, %0;" : "+r"(u[c]));
                else if (OP == 23) asm volatile("popc.b32 %0, %0;" : "+r"(u[c]));
                else if (OP == 24) asm volatile("bfind.u32 %0, %0;" : "+r"(u[c]));
                else if (OP == 25) asm volatile("brev.b32 %0, %0;" : "+r"(u[c]));
                else if (OP == 26) {
                    if (c & 1) asm volatile("popc.b32 %0, %0;" : "+r"(u[c]));
                    else asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(f[c]));
                } else if (OP >= 27 && OP <= 29) {
                    if (c & 1) asm volatile("{ .reg .b16 l, h; .reg .f32 t; mov.b32 {l, h}, %0; cvt.f32.f16 t, l; mov.b32 %0, t; }" : "+r"(u[c]));
                    else if (OP == 27) asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(u[c]) : "r"(uy));
                    else if (OP == 28) asm volatile("xor.b32 %0, %0, %1;" : "+r"(u[c]) : "r"(u[(c + 2) % CH]));
                    else asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(f[c]) : "f"(fy));
                } else if (OP == 30) {
                    if (c & 1) asm volatile("mul.hi.u32 %0, %0, %1;" : "+r"(u[c]) : "r"(uy));
                    else asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(u[c]) : "r"(uy));
                } else if (OP == 31)
                    asm volatile("{ .reg .u64 d; .reg .u32 lo, hi; mad.wide.u32 d, %0, %1, %2; mov.b64 {lo, hi}, d; xor.b32 %0, lo, hi; }"
                                 : "+r"(u[c]) : "r"(uy), "l"(w[c]));
            }
        }
    }
    long long t1 = clock64();
    float sf = 0;
    unsigned su = 0;
#pragma unroll
    for (int c = 0; c < CH; c++) {
        sf += f[c];
        su ^= u[c] ^ (unsigned)w[c];
    }
    if (sf == 1234.5f) sinkf[0] = sf;
    if (su == 0x12345u) sinku[0] = su;
    if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

typedef void (*kfn)(int, float, unsigned, long long *, float *, unsigned *);

int main()
{
    static const char *const name[] = { "ffma", "fmul", "fadd", "imad", "viadd", "iadd3", "lop3",
                                        "fsel", "fsetp", "isetp", "fset", "fmnmx", "shf", "mix_fma_alu",
                                        "imad_hi", "imad_wide", "i2f_rp", "i2f_s8", "i2f_s16", "hadd2_f32",
                                        "hadd2", "prmt", "iabs", "popc", "flo", "brev", "mix_popc_mufu",
                                        "mix_h2f_imad", "mix_h2f_lop3", "mix_h2f_ffma", "mix_hi_imad",
                                        "wide_lop3" };
    kfn fns[] = { pn_pipe<0>, pn_pipe<1>, pn_pipe<2>, pn_pipe<3>, pn_pipe<4>, pn_pipe<5>, pn_pipe<6>,
                  pn_pipe<7>, pn_pipe<8>, pn_pipe<9>, pn_pipe<10>, pn_pipe<11>, pn_pipe<12>, pn_pipe<13>,
                  pn_pipe<14>, pn_pipe<15>, pn_pipe<16>, pn_pipe<17>, pn_pipe<18>, pn_pipe<19>,
                  pn_pipe<20>, pn_pipe<21>, pn_pipe<22>, pn_pipe<23>, pn_pipe<24>, pn_pipe<25>,
                  pn_pipe<26>, pn_pipe<27>, pn_pipe<28>, pn_pipe<29>, pn_pipe<30>, pn_pipe<31> };
    long long *cyc;
    float *sf;
    unsigned *su;
    PN_CK(cudaMalloc(&cyc, sizeof *cyc));
    PN_CK(cudaMalloc(&sf, sizeof *sf));
    PN_CK(cudaMalloc(&su, sizeof *su));
    const int block = 1024, A = 64, B = 256;
    for (int op = 0; op < (int)(sizeof fns / sizeof fns[0]); op++) {
        double c[2];
        int trips[2] = { A, B };
        for (int i = 0; i < 2; i++)
            c[i] = pn_clock_median(cyc, 7, [&] {
                fns[op]<<<1, block>>>(trips[i], 1.0001f, 3u, cyc, sf, su);
            });
        /* warp instructions a partition issued per trip: 8 warps x CH chains x PER */
        double per = (c[1] - c[0]) / ((double)(B - A) * (block / 32 / 4) * CH * PER);
        printf("pipe_%s,%.4f,cycles,\"1 block of 32 warps x %d independent chains of %s, %d a "
               "chain a trip; block 0's clock64, slope %d vs %d trips (medians of 7: %.0f, %.0f "
               "cycles); cycles a partition per warp instruction\"\n",
               name[op], per, CH, name[op], PER, A, B, c[0], c[1]);
    }
    return 0;
}
