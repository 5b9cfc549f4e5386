/* pn_sass_costs.c - what an op of a sass run takes from the memory system's
 * budgets: the L2's paths, the L1's data path for shared accesses, the DRAM
 * traffic a launch pays launched again and again, and the atomic units
 * (pn_sass_sim_i.h; doc/dependencies.md). */
#include <math.h>
#include <string.h>

#include "pn_sass_addr.h"
#include "pn_sass_sim_i.h"

/* Does atomic op update a floating-point value (.F32, .F64, .F16x2, .BF16x2)? */
static int atomic_float(const pn_sass_op_t *op)
{
    return strstr(op->in.modifiers, ".F32") || strstr(op->in.modifiers, ".F64") ||
           strstr(op->in.modifiers, ".F16") || strstr(op->in.modifiers, ".BF16");
}

/* An access of sec sectors over `lines` lines in the units of the L2 pipe
 * (sectors of scattered loads, pd->l2_sectors a step): its sectors over the
 * rate for its sectors per line, between the one-sector and the whole-line
 * probes. what: 0 load, 1 store, 2 atomic. */
double pn_sass_l2_cost(const pn_pipe_device_t *pd, int what, double sec, double lines)
{
    double one = what == 1 ? pd->l2_store_sectors : what == 2 ? pd->l2_atomic_sectors : 0;
    double full = what == 1 ? pd->l2_store_line_sectors : what == 0 ? pd->l2_line_sectors : 0;
    if (!(one > 0))
        one = pd->l2_sectors;
    if (!(full > 0))
        full = one;
    double k = lines > 0 ? sec / lines : 1;
    k = k < 1 ? 1 : k > 4 ? 4 : k;
    double rate = one + (full - one) * (k - 1) / 3;
    return pd->l2_sectors > 0 ? sec * pd->l2_sectors / rate : 0;
}

/* What each DRAM sector Nsight Compute counts for a load of sec sectors over
 * `lines` lines costs the DRAM, in sectors of streaming reads, in a kernel of
 * measured memory m. The DRAM serves a line's sectors in 64-byte pairs and
 * counts a pair for a sector read alone (1.95 sectors a load:
 * examples/data/h100/dram_random_ncu.csv), but a line read for one pair costs
 * what pd->dram_line_sectors streaming sectors do (examples/probe/dram_random.cu).
 * So k = sec / lines sectors a line are counted as max(2, k) and cost max(D,
 * that): the factor max(1, D / max(2, k)), 1.52 for scattered words on the
 * H100, 1 for whole lines; 1 without the key. Also 1 where the kernel's
 * measured DRAM reads are no more than the L1's reads from L2 (no sector was
 * read alone: scattered accesses came back for the rest of their lines), and
 * the extra only on the share 1 - l1_hit of the sectors (the sectors of lines
 * the kernel's loads come back to reach the DRAM line after line). */
double pn_sass_dram_scatter(const pn_pipe_device_t *pd, const pn_memory_t *m, double sec,
                            double lines)
{
    double D = pd->dram_line_sectors, k = lines > 0 ? sec / lines : 4;
    if (!(D > 0) || (m->dram_ld >= 0 && m->l2_ld > 0 && m->dram_ld <= m->l2_ld))
        return 1;
    double f = D / (k > 2 ? k : 2);
    return f > 1 ? 1 + (f - 1) * (1 - m->l1_hit) : 1;
}

double pn_sass_lane_bytes(const pn_sass_op_t *op)
{
    const char *m = op->in.modifiers;
    return strstr(m, ".U8") || strstr(m, ".S8")     ? 1
           : strstr(m, ".U16") || strstr(m, ".S16") ? 2
           : strstr(m, ".128")                      ? 16
           : strstr(m, ".64")                       ? 8
                                                    : 4;
}

/* pn_sass_sim_i.h */
double pn_sass_lanes(const pn_sass_op_t *op)
{
    return op->threads > 0 && op->executed > 0 ? op->threads / op->executed : 32;
}

/* Does a store of op over sec sectors an execution write at most half the
 * bytes of those sectors (its lanes' bytes no more than 16 a sector)? */
static int half_written(const pn_sass_op_t *op, double sec)
{
    return pn_sass_lanes(op) * pn_sass_lane_bytes(op) <= 16 * sec;
}

/* The SM hands a store's sectors to the L2 one after another on the path its
 * loads take too: examples/probe/row_store.cu, where 8 SMs of 32 warps store
 * rows a thread each (every warp store 32 lines, one sector of each, 4 or 2
 * bytes of it written) at 65.7 cycles a warp store for 32-bit lanes and 80.2
 * for 16-bit, and a copy of those rows takes the loads' 32.6 cycles more
 * (examples/memory's mm_rowcp, examples/probe/row_mix.cu). A store that
 * writes at most half the bytes of the sectors it touches takes
 * store_line_cycles a line of one such sector (times store_narrow for narrow
 * lanes), a cycle a whole line, linearly between by sectors a line; one that
 * fills its sectors (coalesced, any width: not measured) its cycle a line. */
double pn_sass_store_port(const pn_pipe_device_t *pd, const pn_sass_op_t *op, double sec,
                          double lines)
{
    if (!(pd->store_line_cycles > 0) || !(lines > 0) || !(sec > 0))
        return 0;
    if (!half_written(op, sec))
        return 0;
    double bytes = pn_sass_lane_bytes(op);
    double w = bytes < 4 && pd->store_narrow > 0 ? pd->store_narrow : 1;
    double k = sec / lines;
    k = k < 1 ? 1 : k > 4 ? 4 : k;
    double per = 1 + (pd->store_line_cycles * w - 1) * (4 - k) / 3;
    return lines * per * pd->lsu_sectors;
}

/* pn_sass_sim_i.h */
double pn_sass_store_merged(const pn_pipe_device_t *pd, const pn_sass_op_t *op, double sec,
                            double lines, int follows)
{
    if (!follows || !(pd->store_merge > 0) || !(sec > 0) || sec < 4 * lines ||
        !half_written(op, sec))
        return 1;
    return pd->store_merge;
}

/* The sectors of a contiguous store written in part, per execution: a warp
 * access of B >= 64 bytes over sec sectors spans at most B / 32 + 1 of them
 * when its lanes are side by side, and then its first and last sector are
 * partly written when they are more than B / 32 (a row of a length that is not
 * a multiple of 8 words). Scattered lanes (more sectors than that) and a few
 * lanes (one lane's result a warp) are left alone: whether the rest of their
 * sectors comes from the same warp's next store (unrolled stores at +0x10,
 * +0x20, ...) or the next warp's the source page does not tell. */
double pn_sass_partial_sectors(const pn_sass_op_t *op, double sec)
{
    double bytes = pn_sass_lanes(op) * pn_sass_lane_bytes(op), extra = sec - bytes / 32;
    if (bytes < 64 || !(extra > 0) || extra > 1 + 1e-9)
        return 0;
    return 2 * extra < sec ? 2 * extra : sec;
}

/* A shared access of wf wavefronts takes the L1's data path, which global
 * loads take too (one 128-byte wavefront a cycle; measured on the H100:
 * examples/probe/l1_mix.cu): wf cycles of the LSU pipe, in its units, and
 * no shared pipe; without an LSU pipe, the shared one. */
void pn_sass_shared_on_l1(const pn_pipe_params_t *pp, sop_t *o, double wf)
{
    if (pp->rate[PN_PIPE_LSU] && pp->rate[PN_PIPE_SHMEM])
        o->cost[P_LSU] = pn_sass_units(wf * (double)pp->rate[PN_PIPE_LSU] / pp->rate[PN_PIPE_SHMEM]);
    else
        o->cost[P_SHARED] = pn_sass_units(wf);
}

void pn_sass_lsu_order(pn_sass_sim_t *s, uint32_t mx)
{
    uint32_t mn = mx;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        const sop_t *o = &s->ops[i];
        if ((o->kind == K_SLD || o->kind == K_SST) && o->cost[P_LSU] && o->cost[P_LSU] < mn)
            mn = o->cost[P_LSU];
    }
    if (!s->rate[P_LSU] || mn >= mx)
        return;
    s->least[P_LSU] = mn;
    s->debt[P_LSU] = mx - mn;
    s->cap0[P_LSU] = s->cap[P_LSU] += s->debt[P_LSU];
}

/* The share of a launch's measured DRAM traffic that launches of it again and
 * again pay, by its footprint (bytes: the sectors it reads from L2 and writes
 * over the launch): none while the footprint stays in L2 from one launch to
 * the next, all once it does not, half at pd->l2_resident_mib, linear over a
 * quarter of it around there (the probe's copy fell from its L2 rate to its
 * DRAM rate between about 0.85 and 1.15 of it). 1 without the key. */
double pn_sass_resident_share(const pn_pipe_device_t *pd, double bytes)
{
    double K = pd->l2_resident_mib;
    if (!(K > 0))
        return 1;
    double g = (bytes / 1048576.0 - K) / (K / 4) + 0.5;
    return g < 0 ? 0 : g > 1 ? 1 : g;
}

double pn_sass_scrub_writebacks(const pn_pipe_device_t *pd, double s_ld, double s_st,
                                double *f_ld, double *f_st)
{
    double wl = pd->scrub_writeback_ld, ws = pd->scrub_writeback_st;
    double cap = pd->scrub_dirty_mib * 1048576.0 / 32;
    if (!(cap > 0) || !(wl > 0 || ws > 0))
        return 0;
    double fills = *f_ld > 0 ? *f_ld * s_ld : 0, want = wl * fills + ws * s_st;
    double scale = want > cap ? cap / want : 1;
    if (s_st > 0)
        *f_st = (*f_st > 0 ? *f_st : 0) + ws * scale;
    if (!(*f_ld > 0))
        return 0;
    *f_ld *= 1 + wl * scale;
    return wl * scale / (1 + wl * scale);
}

/* Table rows r[n][2] at x: interpolated between the rows around it, linearly
 * in x and y, or in log x and log y (logs), the first row's below it and the
 * last row's above it. */
static double table_at(const double (*r)[2], int n, double x, int logs)
{
    if (x <= r[0][0])
        return r[0][1];
    for (int k = 0; k + 1 < n; k++)
        if (x <= r[k + 1][0]) {
            if (!logs)
                return r[k][1] + (x - r[k][0]) / (r[k + 1][0] - r[k][0]) * (r[k + 1][1] - r[k][1]);
            double t = log(x / r[k][0]) / log(r[k + 1][0] / r[k][0]);
            return exp(log(r[k][1]) + t * (log(r[k + 1][1]) - log(r[k][1])));
        }
    return r[n - 1][1];
}

/* The depth K of a matrix op's shape modifier m as written: .MNK with M 16 or
 * 8 and N 8 (HMMA.16816: 16, .1688: 8, .884: 4, IMMA.16832: 32), or .MxNxK
 * (HGMMA); 0 when it has none. m starts with its '.'. */
static double mma_depth_of(const char *m)
{
    const char *d = m + 1, *x = strchr(d, 'x');
    if (x && x < d + strcspn(d, "."))
        return atof(strchr(x + 1, 'x') ? strchr(x + 1, 'x') + 1 : "0");
    if (!strncmp(d, "16", 2))
        d += 2;
    else if (*d == '8')
        d++;
    else
        return 0;
    if (*d != '8')
        return 0;
    return atof(d + 1);
}

/* The depth the profile's tensor rows take for modifiers m (0: none): a TF32
 * op's counts twice, its 4-byte elements taking the tensor pipe as long as
 * twice as many FP16 ones (examples/probe/tensor.cu, examples/data/h100/
 * tensor_tf32.log: HMMA.1684.F32.TF32 4.04 cycles a partition and 17 to its
 * result, as HMMA.1688.F32; HMMA.1688.F32.TF32 6.00 and 24, as HMMA.16816.F32). */
static double mma_depth(const char *m)
{
    if (*m != '.')
        return 0;
    return (strstr(m, ".TF32") ? 2 : 1) * mma_depth_of(m);
}

/* The width N of a warpgroup matrix op's .MxNxK shape (HGMMA.64x128x16: 128); 0 for
 * any other shape. */
static double mma_width(const char *m)
{
    if (*m != '.')
        return 0;
    const char *x = strchr(m + 1, 'x');
    return x && x < m + 1 + strcspn(m + 1, ".") ? atof(x + 1) : 0;
}

double pn_sass_tensor_steps(const pn_pipe_device_t *pd, const pn_sass_op_t *op, int w)
{
    double k = mma_depth(op->in.modifiers);
    if (pd->n_tensor[w] < 1 || !(k > 0))
        return 0;
    double v = table_at((const double (*)[2])pd->tensor[w], pd->n_tensor[w], k, 0);
    /* a warpgroup's 64xNxK op (HGMMA): each of its four warps takes a 16xNxK
     * share, N/8 HMMA.168K's worth of its partition, back to back */
    double n = mma_width(op->in.modifiers);
    if (n >= 8) {
        double busy = table_at((const double (*)[2])pd->tensor[0], pd->n_tensor[0], k, 0);
        v = w == 0 ? busy * n / 8 : v + busy * (n / 8 - 1);
    }
    return v;
}

/* The steps a line takes per warp-level access when every block works on the
 * same F lines: the profile's atomic_lines rows, interpolated linearly in
 * log F and log steps between them. */
static double line_steps(const pn_pipe_device_t *pd, double F)
{
    return table_at((const double (*)[2])pd->atomic_lines, pd->n_atomic_lines, F, 1);
}

/* The share of the L2's budget (pd->l2_line_sectors for reads, w 0, or
 * pd->l2_store_line_sectors for writes, w 1, over the whole device) that busy
 * SMs reach together: what the profile's l2_sm_read / l2_sm_write rows give
 * one SM at that many busy SMs (interpolated linearly), busy times over, at
 * most 1. A few busy SMs meet their own ports before the device's budget. 1
 * without the table. */
double pn_sass_l2_busy_share(const pn_pipe_device_t *pd, int w, double busy)
{
    double full = w ? pd->l2_store_line_sectors : pd->l2_line_sectors;
    if (pd->n_l2_sm[w] < 1 || !(full > 0))
        return 1;
    double g = busy * table_at((const double (*)[2])pd->l2_sm[w], pd->n_l2_sm[w], busy, 0) / full;
    return g < 1 ? g : 1;
}

double pn_sass_atomic_measured(const pn_pipe_device_t *pd, const pn_sass_op_t *op, double ns)
{
    double steps = ns * pd->clock_mhz / 1000;
    if (atomic_float(op) && pd->atomic_serial > 0 && pd->atomic_serial_float > pd->atomic_serial)
        steps *= pd->atomic_serial_float / pd->atomic_serial;
    /* a compare-and-swap carries two values a lane: over several words of a line it
     * holds the unit twice as long as the input cycles counted (examples/probe/cas.cu);
     * on one word its lanes queue as any atomic's (the one-address rule) */
    if (pd->atomic_cas > 1 && strstr(op->in.modifiers, ".CAS") && op->sectors > op->executed)
        steps *= pd->atomic_cas;
    return steps;
}

/* An atomic whose old value comes back to the warp (ATOMG: an add, exchange or
 * CAS whose result is used) sends its sectors back as a load does: on addresses
 * spread over the L2 it takes atomic_return times a reduction's (RED's) share
 * of the atomic budget (examples/probe/cas.cu: 0.955 against 0.716 cycles a
 * warp-level atomic of 32 lines). 1 for anything else (a RED, an ATOMG into
 * RZ) or without the key. */
double pn_sass_atomic_return(const pn_pipe_device_t *pd, const pn_sass_op_t *op)
{
    if (op->in.kind != PN_SASS_ATOM_GLOBAL || !(pd->atomic_return > 1) ||
        !strncmp(op->in.opcode, "RED", 3))
        return 1;
    for (int r = 0; r < op->in.n_writes; r++)
        if (op->in.writes[r].file == PN_SASS_R)
            return pd->atomic_return;
    return 1;   /* its old value into RZ: nothing comes back */
}

/* The lanes of a warp-level atomic of one sector an execution that update its
 * word in turn (its threads an execution; 1 when the counts tell none). */
static double word_lanes(const pn_sass_op_t *op)
{
    double ex = op->executed;
    return op->threads > ex ? op->threads / ex : 1;
}

/* pn_sass_sim_i.h */
int pn_sass_accumulator(const pn_sass_op_t *op, uint8_t from)
{
    return op->in.kind == PN_SASS_ATOM_GLOBAL && op->executed > 0 && op->sectors <= op->executed &&
           !pn_sass_predicated_off(op) && !(from & (PN_SASS_FROM_CTA | PN_SASS_FROM_LOAD));
}

/* pn_sass_sim_i.h */
double pn_sass_slice_slack(const pn_pipe_device_t *pd, const pn_sass_op_t *op)
{
    if (!(pd->atomic_serial > 0) || !(pd->atomic_serial_float > pd->atomic_serial) ||
        !atomic_float(op))
        return 0;
    return op->executed * word_lanes(op) * (pd->atomic_serial_float - pd->atomic_serial);
}

/* pn_sass_sim_i.h: a load's L2 reads (its L2 pipe units, every execution's
 * expected share where they are paid at L2 and DRAM only) at the device's L2
 * rate and its DRAM fills (measured, else its expected misses) at
 * atomic_slice_fill; a store's sectors at the L2's write path, l2_fill_sectors
 * (examples/probe/red_stream.cu). */
double pn_sass_op_slice(const pn_pipe_device_t *pd, const pn_sass_sim_t *s, const sop_t *o,
                        double sec, double f_ld)
{
    if (!(pd->atomic_slice_fill > 0) || !(pd->l2_sectors > 0))
        return 0;
    if (o->kind == K_GST)
        return pd->l2_fill_sectors > 0 ? sec / pd->l2_fill_sectors : 0;
    double miss = 1 - fmin(fmax(s->l1_hit, 0), 1);
    double l2 = (double)o->cost[P_L2] / PN_PIPE_UNIT * (s->l2_all ? 1 : miss);
    double fill = f_ld >= 0 ? f_ld * sec : sec * miss * (1 - fmin(fmax(s->l2_hit, 0), 1));
    return l2 / pd->l2_sectors + (fill > 0 ? fill / pd->atomic_slice_fill : 0);
}

/* pn_sass_sim_i.h */
void pn_sass_slice_apply(pn_sass_sim_t *s, const double *share, double slice, double slack)
{
    if (!(slice > slack))
        return; /* the float updates leave the slice free long enough: no share */
    for (uint32_t i = 0; i < s->n_ops; i++)
        if (share[i] > 0)
            s->ops[i].cost[P_ATOM] = pn_sass_units(share[i] * (slice - slack) / slice);
}

/* A store every warp makes to one word (pn_sass_sim_i.h): examples/probe/bfs_flag.cu. */
uint32_t pn_sass_store_cost(const pn_pipe_device_t *pd, const pn_sass_op_t *op, uint8_t from,
                            double busy)
{
    if (!(pd->store_serial > 0) || from != 0 || !(op->executed > 0) || op->sectors > op->executed)
        return 0;
    return pn_sass_units(pd->store_serial * busy);
}

/* What global atomic op takes of the device's atomic unit, in units, per
 * execution, from busy SMs at once; 0: only the L2 budget. from: what its
 * address depends on (pn_sass_addr_sources); grid: the launch's blocks.
 * - One sector an execution (a global accumulator): every lane's update in
 *   turn, atomic_serial steps each (atomic_serial_float for a float), every
 *   block on the same address, even one computed from the block's index (a
 *   modulo of a run-time bin count is 0 for one bin; a counter per block
 *   would be served at once, the rarer case).
 * - Several sectors an execution, the same addresses in every block (a
 *   histogram merged into the same bins by every block): each of its lines
 *   takes the steps the profile's atomic_lines give for the F lines one
 *   block touches, F of them at once.
 * - Anything else (each block its own address, or addresses taken from
 *   memory over many lines) is spread over the L2: no unit. */
uint32_t pn_sass_atomic_cost(const pn_pipe_device_t *pd, const pn_sass_op_t *op, uint8_t from,
                            double grid, double busy)
{
    double ex = op->executed;
    if (op->sectors <= ex) {
        double lanes = word_lanes(op);
        double per = atomic_float(op) && pd->atomic_serial_float > 0 ? pd->atomic_serial_float
                                                                     : pd->atomic_serial;
        return per > 0 ? pn_sass_units(per * lanes * busy) : 0;
    }
    if ((from & (PN_SASS_FROM_CTA | PN_SASS_FROM_LOAD)) || pd->n_atomic_lines < 1)
        return 0;
    double lines = op->lines > 0 ? op->lines : ceil(op->sectors / 4);
    double F = lines / (grid > 1 ? grid : 1);
    return pn_sass_units((lines / ex) * busy * line_steps(pd, F < 1 ? 1 : F) / (F < 1 ? 1 : F));
}

/* Is op a load of a constant at a register's index (LDC c[0x3][R0+0x4])? A
 * kernel parameter's LDC c[0x0][0x28] reads no register, a ULDC a uniform one. */
static int const_indexed(const pn_sass_op_t *op)
{
    if (strcmp(op->in.opcode, "LDC"))
        return 0;
    for (int j = 0; j < op->in.n_reads; j++)
        if (op->in.reads[j].file == PN_SASS_R)
            return 1;
    return 0;
}

/* The distinct words the lanes of a warp read with an indexed constant load
 * whose index carries bits (pn_sass_addr_lanes), taking the index to differ
 * wherever the thread index it comes from does: from SR_TID.X (or the lane)
 * alone, one word for each x a warp spans, min(x, 32); from SR_TID.Y or
 * SR_TID.Z alone, one for each row of x threads a warp spans (blocks narrower
 * than a warp); from both, 32. A warp-uniform index, one memory decides (not
 * known from the program: HeCBench's popcount pc5, its bytes looked up in a
 * table, reads about 30 words a load, CUDA samples' dxtc, a palette index of 2
 * bits, far fewer; pn_sass_const_loaded_words gives it from the measured
 * requests) or a block of unknown shape: 1. CUDA samples' dct8x8 reads its 8 x 8 table
 * at threadIdx.y and at threadIdx.x in blocks of 8 x 8: 4 and 8 words. */
static uint32_t const_words(const pn_sass_prog_t *prog, uint8_t bits)
{
    uint64_t x = prog->block[0], rows = (uint64_t)prog->block[1] * prog->block[2];
    int lane = (bits & PN_SASS_FROM_LANE) != 0, warp = (bits & PN_SASS_FROM_WARP) != 0;
    if (!(bits & PN_SASS_FROM_THREAD) || (bits & PN_SASS_FROM_LOAD) || !x)
        return 1;
    uint64_t span = x >= 32 ? 1 : 32 % x ? 1 : 32 / x;   /* rows a warp spans */
    if (span > rows)
        span = rows;
    uint64_t d = lane && warp ? x * span : lane ? x : warp ? span : 1;
    return (uint32_t)(d < 32 ? d : 32);
}

/* pn_sass_sim_i.h */
uint32_t pn_sass_const_cost(const pn_pipe_device_t *pd, const pn_sass_prog_t *prog,
                            const pn_sass_op_t *op, uint8_t from, double loaded)
{
    if (!(pd->const_index_busy > 0) || !const_indexed(op))
        return 0;
    double words = (from & PN_SASS_FROM_LOAD) && loaded > 1 ? loaded : const_words(prog, from);
    return pn_sass_units(pd->const_index_busy * words);
}

/* pn_sass_sim_i.h */
double pn_sass_const_loaded_words(const pn_pipe_device_t *pd, const pn_sass_prog_t *prog,
                                  const uint8_t *from, const pn_memory_t *m)
{
    if (!(m->const_req >= 0) || !(pd->const_index_busy > 0))
        return 1;
    double known = 0, loaded = 0;
    for (size_t i = 0; i < prog->n; i++) {
        const pn_sass_op_t *op = &prog->ops[i];
        double ex = op->executed > 0 ? op->executed : 0;
        if (strcmp(op->in.opcode, "LDC"))
            continue;
        if (const_indexed(op) && (from[i] & PN_SASS_FROM_LOAD))
            loaded += ex;
        else
            known += ex * (const_indexed(op) ? const_words(prog, from[i]) : 1);
    }
    if (!(loaded > 0))
        return 1;
    double w = (m->const_req * prog->warps - known) / loaded;
    return w < 1 ? 1 : w > 32 ? 32 : w;
}
