/* pn_sass_sim_i.h - private to models/sass: the planned ops of a SASS run
 * and the rules that the sass engine (pn_sass_sim.c) and the net that
 * realises it (pn_sass_net.c) must share exactly: each op's kind, latency and
 * costs, the level of a warp's k-th global load and the side of its k-th
 * decision at a branch (doc/dependencies.md). */
#ifndef PN_SASS_SIM_I_H
#define PN_SASS_SIM_I_H

#include <math.h>
#include <stdint.h>

#include "pn_sass_plan.h"
#include "pn_sass_sim.h"

#define N_REGS 353              /* R0-255, UR0-63, P0-7, UP0-7, the memory order, and
                                 * P0-7, UP0-7 as branches read them */
#define REG_MEM 336             /* written by a global or local store, read by a load
                                 * (the profile's store_order) */
#define REG_PRED 320            /* P0: the predicates P0-7, UP0-7 are 320..335 */
#define REG_BR 337              /* P0 as a branch reads it (REG_BR + p - REG_PRED for
                                 * predicate p: the profile's branch_pred) */
#define MAX_OP_REGS 24

/* What issuing an op does. */
enum { K_ALU, K_SFU, K_SHFL, K_GLD, K_GST, K_ATOMG, K_SLD, K_SST, K_CONST, K_BAR, K_BRA,
       K_EXIT, K_CTRL, K_UNIFORM };
/* Pipes: per partition alu (the FP32 pipes, FMA heavy and lite together; every
 * arithmetic op without the profile's alu_busy), sfu, int (the 16-lane
 * integer and logic pipe), fmah (FMA heavy, which alone runs IMAD) and fp64
 * (DFMA, DADD, DMUL, DSETP with the profile's fp64_busy); per
 * SM lsu, shared, and its shares of the device's dram, the l2's reads (loads,
 * atomics) and writes (stores), the atomic unit of one address, the
 * constant cache (indexed LDC) and the texture unit (TEX, TLD, TLD4). */
enum { P_ALU, P_SFU, P_INT, P_FMAH, P_FP64, P_LSU, P_SHARED, P_DRAM, P_L2, P_L2W, P_ATOM, P_CONST,
       P_TEX, P_N };
/* The pipes each partition has its own of (P_ALU .. P_FP64). */
#define P_PER_PART 5

typedef struct sop {
    uint16_t reg[MAX_OP_REGS];  /* reads first, then writes */
    uint8_t n_reads, n_regs;
    uint8_t kind, guarded;
    uint8_t reuse;              /* a global load whose address a loop keeps: at L1
                                 * (plan.reuse, when the measured hits cover it) */
    uint8_t alike;              /* a global load of the same addresses in every block:
                                 * its L1 level takes the L2's latency */
    uint8_t pinned;             /* a load of one address in every thread and block that
                                 * issues at the L1 level (pn_sass_share_l1_hits) */
    float copied;               /* a global load that several warps of a block make alike
                                 * (pn_sass_copies): the share of its L1 hits that wait
                                 * for a line another warp's miss brings */
    uint32_t lat;               /* fixed latency; loads take their level's */
    uint32_t dram_late;         /* a global load's steps past the DRAM latency at DRAM
                                 * level: the slowest of its warp's loads in flight */
    uint32_t spread;            /* a global load's steps from its first line to its last
                                 * past L1 (pd->line_latency a line past its first) */
    uint32_t tex_extra;         /* a texture fetch's steps past a global load's latency at
                                 * its level (pd->tex_latency over the L1's) */
    uint32_t cost[P_N];         /* units; a load's DRAM cost only at DRAM level, its L2
                                 * cost only past L1 */
    int32_t target, branch;
    int32_t lead, follow;       /* line records: the slot a leader writes, a follower reads */
    uint32_t cls[3];            /* its class at each level (one level: cls[0]) */
    uint8_t async, async_n;     /* cp.async: A_COPY, A_COMMIT, A_WAIT (for all but the
                                 * newest async_n committed groups), or 0 */
    uint32_t hold;              /* steps before the warp's next issue (0: 1) */
    uint32_t cline;             /* its 128-byte line of code, numbered densely */
    uint8_t entry;              /* a warp may come to it from another line (the first
                                 * op, a line's first, a jump target, a call's return) */
    uint32_t lat_br;            /* it writes a predicate a branch reads: steps until the
                                 * branch may (its REG_BR registers), else 0 */
    uint8_t call, ret;          /* a CALL in the code (K_BRA to the function), a RET
                                 * (K_EXIT: back after the last open call, if any) */
    uint8_t posted;             /* a global store that does not hold its warp
                                 * (pd->stores_posted) */
} sop_t;

/* cp.async (doc/dependencies.md): LDGSTS copies into the warp's open group,
 * LDGDEPBAR commits it, DEPBAR.LE SB0, N waits for all committed groups but
 * the newest N (at most PN_SASS_ASYNC_GROUPS - 1). */
enum { A_COPY = 1, A_COMMIT, A_WAIT };
#define PN_SASS_ASYNC_GROUPS 8

/* What an issue takes: a cost per pipe (its partition's alu and sfu, the
 * SM's others) and an in-flight slot or not. Warps whose next ops share a
 * class and a partition fit or not together. */
typedef struct pn_sass_class {
    uint32_t cost[P_N];
    uint8_t inflight;
    uint8_t n_pipes, pipe[P_N];   /* the pipes it takes from (filled after the dedup) */
} pn_sass_class_t;

struct pn_sass_sim {
    sop_t *ops;
    uint32_t n_ops;
    pn_sass_plan_t plan;
    pn_sass_branch_t *br;       /* plan.branches */
    uint32_t n_lines;           /* leaders with followers: a completion record each */
    int dram_all;               /* measured DRAM reads: every load takes its share */
    int l2_all;                 /* measured L2 reads: the same for the L2 pipe */
    double wb_ld;               /* the share of a global load's DRAM cost that writes a
                                 * scrub's dirty line back (pn_sass_scrub_writebacks) */
    uint32_t partitions, issue, W, blocks, resident, launch, inflight, lat_bar;
    double bar_stagger;         /* steps warp i of a block leaves a barrier after warp i - 1
                                 * (pd->barrier_stagger; examples/probe/bar_phase.cu) */
    uint32_t burst;             /* the most loads taking a level in one basic block
                                 * on one base register */
    uint32_t fetch, n_clines;   /* pd->code_fetch (0: none); lines of code (sop_t.cline) */
    uint32_t switch_stall;      /* steps a partition issues nothing after a diverged warp
                                 * turns to its waiting side (pd->diverge_switch) */
    uint32_t lat_l1, lat_l2, lat_dram;
    uint32_t rate[P_N], cap[P_N];
    uint32_t debt[P_N];         /* a pipe that serves its requests in order (the LSU): the
                                 * most an issue may leave it owing, its bucket that
                                 * much deeper (pn_sass_check); 0: none */
    uint32_t least[P_N];        /* such a pipe's request that sets the pace (pn_sass_lsu_order) */
    uint32_t cap0[P_N];         /* a bucket's level at the start and its cap until block
                                 * `resident` starts (the first wave); cap[] from then on
                                 * (deeper for the DRAM and L2 budgets: pd->budget_depth) */
    uint32_t turn;              /* steps a slot stays empty after its block is done
                                 * (pd->block_turn + W pd->block_turn_warp) */
    uint64_t floor;             /* the largest of the plan's lower bounds (pn_sass_sim_bounds) */
    double l1_hit, l2_hit;
    pn_sass_class_t *cls;       /* the ops' distinct classes */
    uint32_t n_cls;
};

/* The index of pipe q's bucket for partition part among an SM's buckets: the
 * per-partition pipes first (P_PER_PART part + q), then the SM's lsu, shared,
 * dram, l2, l2w, atom, const and tex (P_PER_PART partitions + q - P_LSU). */
static inline uint32_t pn_sass_bucket(uint32_t partitions, int q, uint32_t part)
{
    return q < P_PER_PART ? P_PER_PART * part + (uint32_t)q
                          : P_PER_PART * partitions + (uint32_t)(q - P_LSU);
}

/* The partition of warp i of block k: warps take an SM's warp slots in
 * order and a slot's partition is its number mod S (measured on the H100:
 * blocks of one warp, four to an SM, run on four partitions); block k takes
 * the slots of block k mod resident. */
static inline uint32_t pn_sass_partition(const pn_sass_sim_t *s, uint64_t k, uint32_t i)
{
    uint32_t S = s->partitions ? s->partitions : 1;
    return (uint32_t)(((k % s->resident) * s->W + i) % S);
}

/* x units of a pipe (PN_PIPE_UNIT a step), at least 1 and at most 4e9. */
static inline uint32_t pn_sass_units(double x)
{
    double u = round(x * PN_PIPE_UNIT);
    return u < 1 ? 1 : u > 4e9 ? 4000000000u : (uint32_t)u;
}

/* pn_sass_costs.c: an access of sec sectors over `lines` lines in the units of
 * the L2 pipes (what: 0 load, 1 store, 2 atomic); a shared access's wf
 * wavefronts on the L1's data path (op o's LSU cost, or its shared one
 * without an LSU pipe); the share of measured DRAM traffic a footprint of
 * `bytes` pays launched again and again; a global atomic's units of the
 * atomic unit an execution (from: its address's sources, grid: the launch's
 * blocks, busy: the SMs at once); the share of the L2's read (w 0) or write
 * (w 1) budget that busy SMs reach together. */
double pn_sass_l2_cost(const pn_pipe_device_t *pd, int what, double sec, double lines);
double pn_sass_dram_scatter(const pn_pipe_device_t *pd, const pn_memory_t *m, double sec,
                            double lines);
void pn_sass_shared_on_l1(const pn_pipe_params_t *pp, sop_t *o, double wf);
double pn_sass_resident_share(const pn_pipe_device_t *pd, double bytes);

/* pn_sass_costs.c: the threads an execution of op runs, threads over executed
 * (32 where the page does not say). */
double pn_sass_lanes(const pn_sass_op_t *op);

/* pn_sass_arith.c: is op an opcode of the FMA pipe, one cycle quicker than
 * the other arithmetic? */
int pn_sass_fma_pipe(const char *op);

/* pn_sass_arith.c: which of a partition's arithmetic pipes opcode op takes:
 * P_INT (the 16-lane integer, logic, compare, select and move pipe), P_FMAH
 * (FMA heavy: the integer multiply-adds and VIADD) or P_ALU (FP32 and the
 * rest). Measured on the H100 (examples/probe/alu_pipes.cu): IADD3, LOP3, FSEL,
 * FSETP, ISETP + SEL, FSET, FMNMX, SHF and IMAD a warp instruction every other
 * cycle, FFMA, FADD, FMUL every cycle, IMAD.IADD and IADD3 alternating every
 * cycle. */
int pn_sass_arith_pipe(const char *op);

/* pn_sass_arith.c: the multiple of fmaheavy_busy that arithmetic op `in` takes
 * of the FMA-heavy pipe where its opcode alone does not tell: 2 for a 64-bit
 * product or its high half (IMAD.WIDE, IMAD.HI, IMUL.WIDE, IMUL.HI: 4.0 cycles
 * a partition against IMAD's 2.0, and 3.0 alternating with IMAD, one pipe;
 * IMAD.WIDE.U32 with its IMAD.X, IADD3 and LOP3 6.6), 1 for a half-precision
 * operand widened to FP32 (HADD2.F32: 2.0 cycles, 2.0 alternating with IMAD,
 * 1.07 with LOP3), 0 for any other op. examples/probe/alu_pipes.cu on the H100,
 * examples/data/h100/alu_ops.log. */
int pn_sass_fmah_multiple(const pn_sass_insn_t *in);

/* pn_sass_arith.c: is arithmetic op `in` served by the SM's transcendental and
 * conversion unit, the MUFU's pipe? POPC, FLO and BREV take 8.0 cycles a
 * partition and 8.0 alternating with MUFU.RSQ (examples/probe/alu_pipes.cu on
 * the H100). */
int pn_sass_xu_arith(const pn_sass_insn_t *in);

/* pn_sass_costs.c: the bytes a lane of memory op moves: 1 or 2 for 8- and
 * 16-bit lanes (.U8, .S8, .U16, .S16), 8 and 16 for .64 and .128, else 4. */
double pn_sass_lane_bytes(const pn_sass_op_t *op);

/* pn_sass_costs.c: what a global store of sec sectors over `lines` lines an
 * execution takes of the SM's load/store path, in sectors of it (lsu_sectors a
 * cycle), when its lanes write at most half the bytes of those sectors: the
 * profile's store_line_cycles a line of one sector (store_narrow times that
 * for 8- and 16-bit lanes), a cycle a whole line, linearly between; 0 for a
 * store that fills its sectors, or without the key. */
double pn_sass_store_port(const pn_pipe_device_t *pd, const pn_sass_op_t *op, double sec,
                          double lines);

/* pn_sass_costs.c: the share of its sectors' L2 write cost a global store of
 * sec sectors over `lines` lines an execution pays: the profile's store_merge
 * when it follows a store of its group (follows: pn_sass_store_leaders), its
 * lanes write at most half the bytes of its sectors and it touches the four
 * sectors of each of its lines (the L1 merges it with that store's sectors:
 * examples/probe/store_split.cu, 16-byte lanes), else 1. A store of one
 * sector a line after the store of the words before it in the same sectors
 * pays in full (examples/probe/row_store.cu: a lane's row stored in order
 * took 1.16 times the same stores in a spread order), and so do stores of
 * two or three sectors a line, which no probe measured. */
double pn_sass_store_merged(const pn_pipe_device_t *pd, const pn_sass_op_t *op, double sec,
                            double lines, int follows);

/* A launch timed after a scrub that leaves the L2 dirty (kernel.memory.flushed
 * 2: a memset of an L2-sized buffer before each launch, as llm.c's and
 * nvbench's harnesses do): the lines its DRAM reads and its stores bring into
 * the L2 displace the scrub's dirty lines, which go back to DRAM. Given the
 * launch's requested load and store sectors (s_ld, s_st) and the DRAM sectors
 * each requested one costs (*f_ld, *f_st; -1: not measured), adds the write-
 * backs: pd->scrub_writeback_ld a sector read from DRAM, pd->scrub_writeback_st
 * a sector stored, at most pd->scrub_dirty_mib over the launch
 * (examples/probe/cold_stream.cu). Returns the share of a load's DRAM cost
 * that is write-backs; unchanged and 0 without the keys. */
double pn_sass_scrub_writebacks(const pn_pipe_device_t *pd, double s_ld, double s_st,
                                double *f_ld, double *f_st);
uint32_t pn_sass_atomic_cost(const pn_pipe_device_t *pd, const pn_sass_op_t *op, uint8_t from,
                             double grid, double busy);
/* The steps of the device's atomic unit a global atomic op takes from a measured
 * ns per warp-level atomic (kernel.memory.atomic_ns: the busiest L2 slice's input
 * cycles, which count an update once): ns at the profile's clock, times
 * atomic_serial_float / atomic_serial for a floating-point update (the unit holds
 * one that much longer: the profile's one-address rates). */
double pn_sass_atomic_measured(const pn_pipe_device_t *pd, const pn_sass_op_t *op, double ns);
/* The factor on a global atomic's share of the L2's atomic budget: the profile's
 * atomic_return for one whose old value comes back (ATOMG), 1 for a reduction
 * (RED), anything else, or without the key. */
double pn_sass_atomic_return(const pn_pipe_device_t *pd, const pn_sass_op_t *op);
/* The partly written sectors an execution of global store op has over sec
 * sectors: 2 (sec - B / 32) for a contiguous store of B >= 64 bytes of its lanes
 * whose sectors exceed B / 32 by at most one, else 0 (the profile's
 * dram_partial_sectors prices them at DRAM). */
double pn_sass_partial_sectors(const pn_sass_op_t *op, double sec);
/* The units of the device's one-address unit a global store op takes an
 * execution, from busy SMs at once: store_serial steps for a store of one
 * sector an execution whose address carries none of the PN_SASS_FROM_* sources
 * (from 0: the same word in every thread and block, a flag every warp sets);
 * 0 for any other store or without the key. */
uint32_t pn_sass_store_cost(const pn_pipe_device_t *pd, const pn_sass_op_t *op, uint8_t from,
                            double busy);

/* Is op a global accumulator: an atomic of one sector an execution whose
 * address (from: pn_sass_addr_lanes) carries neither the block's index nor a
 * loaded value, the same word in every block? Its L2 slice serves the launch's
 * loads and stores too (examples/probe/red_stream.cu). */
int pn_sass_accumulator(const pn_sass_op_t *op, uint8_t from);
/* The steps over the launch in which accumulator op holds its slice beyond what
 * an integer update takes (atomic_serial_float - atomic_serial a lane, a float
 * update; 0 for an integer one or without the keys): the slice's port is free
 * for the loads and stores then (examples/ml's rd_shfl, one float RED a block,
 * costs what its REDs do; pn_reduce, one integer RED a block, the sum of its
 * REDs and its loads' share). */
double pn_sass_slice_slack(const pn_pipe_device_t *pd, const pn_sass_op_t *op);
/* The steps of an accumulator's slice, over the whole device, that an
 * execution of global load or store o takes: its share of the launch's L2
 * reads, DRAM fills or stores (sec sectors an execution; f_ld the measured DRAM
 * reads per requested sector, < 0 when not measured); 0 without the profile's
 * atomic_slice_fill. o's other costs are set. */
double pn_sass_op_slice(const pn_pipe_device_t *pd, const pn_sass_sim_t *s, const sop_t *o,
                        double sec, double f_ld);
/* Give each op i with share[i] > 0 (busy SMs' slice steps an execution) that
 * share of the one-address unit, scaled by what is left of the launch's slice
 * steps after the float updates' slack: (slice - slack) / slice, none when the
 * slack covers them. */
void pn_sass_slice_apply(pn_sass_sim_t *s, const double *share, double slice, double slack);

/* The words a warp's indexed constant load reads where the index comes from
 * memory (from[i] with PN_SASS_FROM_LOAD: a table looked up by the data), as
 * measured: the launch's constant-cache requests (m->const_req per warp, the
 * program's warps) less one for each other LDC execution (the words of those
 * at an index of the thread's, pn_sass_const_cost's rule), over those loads'
 * executions, in [1, 32]; 1 without the measure, the key or such loads.
 * O(ops). */
double pn_sass_const_loaded_words(const pn_pipe_device_t *pd, const pn_sass_prog_t *prog,
                                  const uint8_t *from, const pn_memory_t *m);

/* The units of the SM's constant cache an indexed constant load (LDC c[b][R])
 * takes: const_index_busy for every distinct word its lanes read, by what the
 * index comes from (from: pn_sass_addr_lanes; examples/probe/const_index.cu),
 * `loaded` words (pn_sass_const_loaded_words) where memory gave it; 0 for any
 * other op or without the key. */
uint32_t pn_sass_const_cost(const pn_pipe_device_t *pd, const pn_sass_prog_t *prog,
                            const pn_sass_op_t *op, uint8_t from, double loaded);
double pn_sass_l2_busy_share(const pn_pipe_device_t *pd, int w, double busy);
/* A matrix op's (HMMA, IMMA, ...) steps on its partition's tensor pipe (w 0)
 * or until its result is ready (w 1): the profile's tensor_busy /
 * tensor_latency rows at its depth K (the shape modifier's: .16816 16, .1688
 * 8), linear between rows, the first row's below and the last one's above; 0
 * without the rows or a shape. */
double pn_sass_tensor_steps(const pn_pipe_device_t *pd, const pn_sass_op_t *op, int w);

/* Does op o take a level of its own (a global load or atomic that waits for
 * no line already on its way)? */
static inline int pn_sass_op_levels(const sop_t *o)
{
    return (o->kind == K_GLD || o->kind == K_ATOMG) && o->follow < 0;
}

/* Does op o hold its warp until it completes (it writes a register, or it is
 * a global store not posted, a shared store, an atomic or a cp.async copy)? */
static inline int pn_sass_op_drains(const sop_t *o)
{
    if (o->kind == K_GST)
        return !o->posted;   /* its store_order register too (pn_sass_sim.c) */
    return o->n_regs > o->n_reads || o->kind == K_SST || o->kind == K_ATOMG ||
           o->async == A_COPY;
}

/* Steps after a barrier's release that warp i of its block (0 .. W - 1) issues again: the
 * barrier's latency, and the warps leave it one after another, bar_stagger apart. */
static inline uint32_t pn_sass_bar_wait(const pn_sass_sim_t *s, uint32_t i)
{
    return s->lat_bar + (uint32_t)llround(s->bar_stagger * i);
}

/* A warp's level pattern: its g loads that take a level (g >= 1) go in runs
 * of `burst` (the last run shorter), and a run's loads share a level: of the
 * gb runs lvb[0] at L1, lvb[1] at L2 and lvb[2] at DRAM (the kernel's hit
 * rates applied to the runs, rounded at an offset of the warp's own),
 * starting at run `phase`.
 * lv[] counts the loads at each level. */
typedef struct pn_sass_levels {
    uint64_t lv[3], g, phase;
    uint64_t burst, gb, lvb[3];
} pn_sass_levels_t;

/* The pattern of planned warp gw (gw < plan.n_warps; a warp with no planned
 * loads takes the hit rates over one load). */
void pn_sass_warp_levels(const pn_sass_sim_t *s, uint32_t gw, pn_sass_levels_t *l);

/* The level (0 L1, 1 L2, 2 DRAM) of a warp's k-th load that takes a level
 * (K_GLD without a leader; atomics are served at L2 and take no turn): that of
 * its run, the pattern's lvb[0] L1 runs spread evenly over its gb, then its
 * lvb[1] L2 runs evenly over the rest. Periodic in k with period l->g. */
int pn_sass_load_level(const pn_sass_levels_t *l, uint64_t k);

/* The share of global load op's draws at the L1 level that wait for the
 * misses' level (sop_t's `copied`; o's kind, alike and reuse set): the
 * c - 1 of c warps of a narrow block that read its lines together (copies c,
 * pn_sass_copies), 1 for a loop's load of PN_SASS_WALK_LINES or more lines an
 * execution that moves a line or more a trip (moves 2, pn_sass_addr_steps)
 * and 1 - l1^(lines - 1) for a load of a byte a lane on as many lines; 0 for
 * any other op, a local load, or a kernel without L1 hits. from: its address's
 * sources (pn_sass_addr.h). pn_sass_shares.c. */
float pn_sass_waiting_hits(const pn_sass_sim_t *s, const pn_sass_op_t *op, const sop_t *o,
                           uint8_t from, uint8_t moves, uint32_t copies, double lines);

/* Does planned warp gw take branch op o's branch at its k-th visit: 1 yes, 0
 * no, 2 both sides (a divergent visit: the fall side first, the taken one
 * when the first reconverges; pn_sass_plan)? Without divergent visits
 * periodic in k with the period pn_sass_decide_period gives. */
int pn_sass_decide(const pn_sass_sim_t *s, uint32_t gw, const sop_t *o, uint64_t k);
uint64_t pn_sass_decide_period(const pn_sass_sim_t *s, uint32_t gw, const sop_t *o);

/* The lowest level (0 L1, 1 L2, 2 DRAM) at which op o pays pipe q: a global
 * load or atomic its DRAM cost (and a load the L2's fill of it) only at DRAM,
 * unless measured DRAM reads spread over every load; its L2 cost only past L1,
 * unless measured L2 reads do; anything else at every level (0). */
int pn_sass_cost_level(const pn_sass_sim_t *s, const sop_t *o, int q);

/* Units op o takes from pipe q at level lvl: its cost from
 * pn_sass_cost_level's level on, else 0 (a follower is an L1 hit). */
uint32_t pn_sass_cost_at(const pn_sass_sim_t *s, const sop_t *o, int lvl, int q);

/* Set each global load's dram_late, s's ops and prog (the program s was made
 * of, whose basic blocks they follow) at spread sd > 0 (pn_sass_dram.c). */
void pn_sass_dram_late(pn_sass_sim_t *s, const pn_sass_prog_t *prog, double sd);
/* Settle s->lat_dram at the DRAM latency under the launch's own load, by up
 * to three runs of seed 1 (pn_sass_dram.c). PN_OK, or a run's error. */
pn_status_t pn_sass_dram_settle(pn_sass_sim_t *s, const pn_pipe_device_t *pd, pn_error_t *err);

/* pn_sass_sim.c: were the threads of guarded memory op `op` predicated off in
 * most of its executions: a global load or store whose requests (its lines,
 * else its sectors) are fewer than half its executions, a shared one whose
 * wavefronts are (an execution with a thread on makes at least one)? Such an
 * op is taken as control: what the few executions with a thread on move is
 * left out with their waits. */
int pn_sass_predicated_off(const pn_sass_op_t *op);

/* Loads whose address a loop around them keeps (plan.reuse) find their line in
 * L1 from the trip before: they take L1 every time when the kernel's measured
 * L1 hits cover them (l1_hit of the loads that go to a level, over the launch:
 * the busiest SM may hold the only warps that loop), and the other loads the
 * rest of the hits; else they go to a level like the others. The
 * share of the program's load sectors they read (0 without them), over the
 * loads the measured traffic is per (not predicated off): the measured L2
 * and DRAM reads are the other loads'.
 * (pn_sass_shares.c; s's plan built, its ops' lead and follow not yet set) */
double pn_sass_reuse_in_l1(pn_sass_sim_t *s, const pn_sass_prog_t *prog);

/* The kernel's measured L1 hits, shared out sector for sector (ncu's hit rate
 * counts sectors): the sectors of loads that wait for a line an earlier load
 * of the warp fetches (followers, served as hits) are hits first; then loads of
 * one address in every thread of every block, most lanes on (no block index,
 * thread index or loaded value in it: a vector's element every thread
 * multiplies its row by, pn_sass_addr.h), which read a line every warp on the
 * SM reads, a few times over before the next: when the hits left cover at
 * least half their sectors, each is pinned at the L1 level (o->pinned: it
 * keeps its turn in the warp's level pattern but issues at L1, at the L2's
 * latency when other warps ask alike). The other loads that take a level share
 * what is left (s->l1_hit). PolyBench's bicg_kernel1 reads a column of the
 * matrix, a miss every trip, beside r[i], 16 loads unrolled of which 15 follow
 * the first: at 19.7 % hits in all, a fifth of its matrix loads were L1 hits
 * before, none now.
 * (pn_sass_shares.c; after pn_sass_reuse_in_l1; from: pn_sass_addr_sources) */
void pn_sass_share_l1_hits(pn_sass_sim_t *s, const pn_sass_prog_t *prog, const uint8_t *from);

/* Loops whose lanes leave one by one, by the thread's index: a triangular loop
 * (`for (j2 = j1 + 1; j2 < M; j2++)`, j1 the thread's) gives each warp fewer
 * trips than the one before, and the SM with the first blocks the most work,
 * where the source page's totals give every warp the mean. The signal is the
 * threads column: in a loop whose exit depends on the thread's or block's
 * index and on no loaded value (its back edge's guard, pn_sass_addr.h), a
 * share 1 - a of the lanes is off where the loop's preheader had them on. If
 * the trips fall linearly with the thread's index x, T(x) = T0 - b x, a warp
 * runs its first lane's trips and its lanes average 15.5 b fewer: b = (1 - a)
 * T / 15.5 with T the mean trips. The busiest SM, with blocks 0, S, 2S, ... (S
 * the SMs in use), has its warps Delta = W (S - 1) / 2 warps before the mean,
 * 32 b Delta more trips: its loop runs f = 1 + 32 (1 - a) Delta / 15.5 times
 * the mean, at most 2 (a triangle's first block). Only where the lanes that
 * drop out sum to 16 or more a warp (a grid-stride loop's last, partial trip
 * does not count). On success *out is prog with the executions of each such
 * (outermost) loop's ops scaled by its f, or ops NULL when no loop qualifies;
 * PN_ENOMEM. PolyBench's corr_kernel: 4 blocks, a = 0.9706, f = 1.71.
 * (pn_sass_shares.c; guard: pn_sass_addr_sources_guards; busy: the SMs that
 * share the launch; the caller frees out->ops) */
pn_status_t pn_sass_triangle(const pn_sass_prog_t *prog, const uint8_t *guard, uint32_t W,
                             double busy, pn_sass_prog_t *out);

/* Grid barriers: a loop entered by falling into it, with no other way in or
 * out, whose body polls the word a global atomic just before it updated (a
 * load past the SM's cache, .STRONG.GPU or .STRONG.SYS, of the atomic's
 * memory operand: a block arrives, then waits for the others to) makes at
 * most two trips each time a warp enters it (the first poll finds the others
 * still coming, the second finds them in). Its trips on the source page are
 * those of ncu's pass, whose instrumented code ran the blocks unevenly: they
 * say nothing of the wait when the grid runs as timed and its blocks arrive
 * together (a cooperative grid's sync: CUDA samples' reductionMultiBlockCG
 * polls 418 times a block on the page; robust2's r2_gridsync 1.7, kept).
 * A poll of a flag another block sets (cuSOLVER's domino kernels, a split-K
 * GEMM's semaphore) is a real wait and keeps its trips. The
 * loop's ops (the op before it runs `entries`) take their executions times
 * 2 entries over its first op's, with their traffic; out holds the program
 * pn_sass_triangle made (ops NULL: prog itself), and gets a copy of prog's
 * ops when a loop qualifies and it had none. PN_OK or PN_ENOMEM.
 * (pn_sass_shares.c) */
pn_status_t pn_sass_polls(const pn_sass_prog_t *prog, pn_sass_prog_t *out);

/* The warps of a block that make the same global accesses when an address
 * carries nothing that differs between them but SR_TID.X (no
 * PN_SASS_FROM_WARP): a block of x <= 32 threads across (a multiple of x in a
 * warp) or a multiple of 32, W warps of blocks (x, y, z) ((0, 0, 0): not
 * known); 1 when they differ. */
uint32_t pn_sass_copies(const uint32_t block[3], uint32_t W);

/* The L1's data path takes shared and global requests in order: where some
 * global request costs it more than the smallest shared one (mx: the most an
 * op costs it), a request is accepted once the pipe could accept that shared
 * one, and the pipe owes the rest (s->least, s->debt; its bucket's caps debt
 * deeper; pn_sass_check). Global requests alone keep the bucket's rule: a
 * second uncoalesced load waits for the first's lines. (pn_sass_costs.c; the
 * ops' costs and the caps set) */
void pn_sass_lsu_order(pn_sass_sim_t *s, uint32_t mx);

/* The level pipe q's bucket must hold for an issue that takes c > 0 of its
 * units: c, or, for a pipe that serves its requests in order (s->debt[q] > 0),
 * its pacing request's cost at most (s->least[q]: the pipe accepts a request
 * once it could accept that one, then owes the rest) over the debt[q] its
 * bucket holds in reserve. The
 * issue holds that level through its step and gives back all but c at the
 * step's end (the net: an input arc of this weight, an output arc of it less
 * c). A large request among many small ones then waits its turn instead of
 * for a bucket they never let fill (CUDA samples' histogram64: a 16-sector
 * load among byte-wide shared updates on the L1's data path). */
static inline uint32_t pn_sass_check(const pn_sass_sim_t *s, int q, uint32_t c)
{
    return s->debt[q] ? (c < s->least[q] ? c : s->least[q]) + s->debt[q] : c;
}

/* Latency of op o issued at level lvl (a follower's is the L1's, or longer
 * when its line comes later). */
uint32_t pn_sass_latency_at(const pn_sass_sim_t *s, const sop_t *o, int lvl);

#endif
