/* pn_pipe_profile.h - the device parameters of the pipelined net (a profile's
 * `pipelined:` section, or a config's overrides under `model:`), the
 * occupancy rules (a profile's `occupancy:` section), and how they and a
 * kernel's memory behaviour become the generator's pn_pipe_params_t. */
#ifndef PN_PIPE_PROFILE_H
#define PN_PIPE_PROFILE_H

#include <stdint.h>

#include "pn_error.h"
#include "pn_occupancy.h"
#include "pn_pipe.h"
#include "pn_yaml.h"

/* Keys of a `pipelined:` section; bits of pn_pipe_device_t.set. */
enum {
    PN_PD_PARTITIONS = 1 << 0,
    PN_PD_ISSUE = 1 << 1,
    PN_PD_CLOCK = 1 << 2,
    PN_PD_LAUNCH = 1 << 3,
    PN_PD_SFU_BUSY = 1 << 4,
    PN_PD_LSU = 1 << 5,
    PN_PD_SHARED = 1 << 6,
    PN_PD_DRAM = 1 << 7,
    PN_PD_INFLIGHT = 1 << 8,
    PN_PD_ARITH_BUSY = 1 << 9,
    PN_PD_BLOCK_LAUNCH = 1 << 10,
    PN_PD_LAT0 = 1 << 11,          /* latency key i: PN_PD_LAT0 << i (PN_PD_LAT_KEYS of them) */
    PN_PD_DRAM_LINE = 1 << 20,     /* dram_line_sectors: optional, not in PN_PD_ALL */
    /* optional, for the sass engine's L2 pipe and atomic unit (in this order) */
    PN_PD_L2 = 1 << 21,            /* l2_sectors */
    PN_PD_L2_LINE = 1 << 22,       /* l2_line_sectors */
    PN_PD_L2_STORE = 1 << 23,      /* l2_store_sectors */
    PN_PD_L2_STORE_LINE = 1 << 24, /* l2_store_line_sectors */
    PN_PD_L2_ATOMIC = 1 << 25,     /* l2_atomic_sectors */
    PN_PD_ATOMIC_SERIAL = 1 << 26, /* atomic_serial */
    PN_PD_ATOMIC_SERIAL_FLOAT = 1 << 27, /* atomic_serial_float */
    PN_PD_BANK_CONFLICT = 1 << 28, /* bank_conflict: optional, for the sass engine */
    PN_PD_ATOMIC_LINES = 1 << 29   /* atomic_lines: optional, for the sass engine */
};
/* optional, for the sass engine (past an enum's int range) */
#define PN_PD_L2_RESIDENT (UINT64_C(1) << 31)   /* l2_resident_mib */
#define PN_PD_DRAM_QUEUE (UINT64_C(1) << 32)    /* dram_queue */
#define PN_PD_DRAM_WRITE (UINT64_C(1) << 33)    /* dram_write_delay */
#define PN_PD_L2_SM_READ (UINT64_C(1) << 34)    /* l2_sm_read */
#define PN_PD_L2_SM_WRITE (UINT64_C(1) << 35)   /* l2_sm_write */
#define PN_PD_ALU_BUSY (UINT64_C(1) << 36)      /* alu_busy */
#define PN_PD_FMAHEAVY_BUSY (UINT64_C(1) << 37) /* fmaheavy_busy */
#define PN_PD_TENSOR_BUSY (UINT64_C(1) << 38)   /* tensor_busy */
#define PN_PD_TENSOR_LAT (UINT64_C(1) << 39)    /* tensor_latency */
#define PN_PD_BRANCH_BUSY (UINT64_C(1) << 40)   /* branch_busy */
#define PN_PD_DIVERGE_SWITCH (UINT64_C(1) << 41) /* diverge_switch */
#define PN_PD_FP64_BUSY (UINT64_C(1) << 42)     /* fp64_busy */
#define PN_PD_FP64_LAT (UINT64_C(1) << 43)      /* fp64_latency */
#define PN_PD_LAUNCH_DURATION (UINT64_C(1) << 44) /* launch_duration_us */
#define PN_PD_LINE_LATENCY (UINT64_C(1) << 45) /* line_latency */
#define PN_PD_STORE_ORDER (UINT64_C(1) << 46)  /* store_order */
#define PN_PD_BSYNC_HOLD (UINT64_C(1) << 47)   /* bsync_hold */
#define PN_PD_FP64_BANK (UINT64_C(1) << 48)    /* fp64_bank_conflict */
#define PN_PD_BRANCH_PRED (UINT64_C(1) << 49)  /* branch_pred */
#define PN_PD_BRANCH_TAKEN (UINT64_C(1) << 50) /* branch_taken */
#define PN_PD_CODE_FETCH (UINT64_C(1) << 51)   /* code_fetch */
#define PN_PD_STORE_SERIAL (UINT64_C(1) << 52) /* store_serial */
#define PN_PD_DRAM_JITTER (UINT64_C(1) << 53)  /* dram_jitter */
#define PN_PD_BLOCK_LAUNCH_1024 (UINT64_C(1) << 54) /* block_launch_1024 */
#define PN_PD_L2_FILL (UINT64_C(1) << 55)      /* l2_fill_sectors */
#define PN_PD_SCRUB_DIRTY (UINT64_C(1) << 56)  /* scrub_dirty_mib */
#define PN_PD_SCRUB_WB_LD (UINT64_C(1) << 57)  /* scrub_writeback_ld */
#define PN_PD_SCRUB_WB_ST (UINT64_C(1) << 58)  /* scrub_writeback_st */
#define PN_PD_STORE_LINE (UINT64_C(1) << 59)   /* store_line_cycles */
#define PN_PD_STORE_NARROW (UINT64_C(1) << 60) /* store_narrow */
#define PN_PD_DRAM_PARTIAL (UINT64_C(1) << 61) /* dram_partial_sectors */
#define PN_PD_ATOMIC_CAS (UINT64_C(1) << 62)   /* atomic_cas */
#define PN_PD_ATOMIC_RETURN (UINT64_C(1) << 63) /* atomic_return */
/* bits of pn_pipe_device_t.set2: the keys past set's 64 */
#define PN_PD2_CONST_INDEX (UINT64_C(1) << 0)  /* const_index_busy */
#define PN_PD2_BARRIER_STAGGER (UINT64_C(1) << 1) /* barrier_stagger */
#define PN_PD2_TEX_BUSY (UINT64_C(1) << 2)     /* tex_busy */
#define PN_PD2_TEX_LATENCY (UINT64_C(1) << 3)  /* tex_latency */
#define PN_PD2_BLOCK_TURN (UINT64_C(1) << 4)   /* block_turn */
#define PN_PD2_BLOCK_TURN_WARP (UINT64_C(1) << 5) /* block_turn_warp */
#define PN_PD2_STORES_POSTED (UINT64_C(1) << 6) /* stores_posted */
#define PN_PD2_BUDGET_DEPTH (UINT64_C(1) << 7) /* budget_depth */
#define PN_PD2_ATOMIC_SLICE_FILL (UINT64_C(1) << 8) /* atomic_slice_fill */
#define PN_PD2_STORE_MERGE (UINT64_C(1) << 9) /* store_merge */

/* The most rows of a table key (atomic_lines, l2_sm_read, l2_sm_write). */
#define PN_PD_MAX_TABLE_ROWS 16

/* Latency keys: "arith", "sfu", "shared_ld", "shared_st", "l1", "l2", "dram",
 * "global_st" (the kinds of pn_pipe_kind_t, in order) and "barrier". */
#define PN_PD_LAT_KEYS 9
extern const char *const pn_pipe_latency_keys[PN_PD_LAT_KEYS];

/* The keys of a pipelined section, NULL-terminated: the PN_PD_REQUIRED_KEYS
 * every profile gives (partitions, issue, clock_mhz, launch_us, sfu_busy,
 * lsu_sectors, shared_wavefronts, dram_sectors, inflight, arith_busy,
 * block_launch, latency), then the optional ones; pn_pipe_device_parse reads
 * them all and a config's model section may give any of them. */
#define PN_PD_REQUIRED_KEYS 12
extern const char *const pn_pipe_device_keys[];

typedef struct pn_pipe_device {
    uint64_t set, set2;           /* which keys were given (set2: PN_PD2_*) */
    uint32_t partitions, issue;
    double clock_mhz;             /* steps per microsecond */
    double launch_us;             /* a launch's fixed cost, added to every time */
    double launch_duration_us;    /* the same as profilers time a kernel: start to end on
                                   * the GPU (CUPTI, Nsight Systems, ncu's
                                   * gpu__time_duration); optional */
    uint32_t latency[PN_PD_LAT_KEYS];
    double sfu_busy;              /* steps a partition's SFU pipe is busy per instruction */
    double arith_busy;            /* the same for its arithmetic pipes (1: issue-bound) */
    double block_launch;          /* steps between two block starts on an SM (>= 1) */
    double lsu_sectors;           /* per step, per SM */
    double shared_wavefronts;     /* per step, per SM */
    double dram_sectors;          /* per step, whole device */
    double dram_line_sectors;     /* DRAM sectors a load's line costs at least (0: none) */
    /* L2 sectors per step, whole device: loads of one sector per line (0: no L2
     * pipe), of whole lines; stores likewise; atomics (0: as the loads') */
    double l2_sectors, l2_line_sectors, l2_store_sectors, l2_store_line_sectors;
    double l2_atomic_sectors;
    double atomic_serial;         /* steps one address takes per integer update (0: not
                                   * modelled) */
    double atomic_serial_float;   /* the same for floating-point updates (0: atomic_serial) */
    double block_launch_1024;     /* steps between two block starts on an SM for blocks of
                                   * more than 512 threads (probed at 1024; 0: block_launch) */
    double dram_jitter;           /* the spread (standard deviation) of a DRAM load's
                                   * latency, in steps: loads a warp has in flight together
                                   * come back as the slowest of them (0: not modelled) */
    double store_serial;          /* steps of the same unit a warp-level store takes whose
                                   * address is the same in every thread and block (a flag
                                   * every warp sets; 0: not modelled) */
    double alu_busy;              /* steps a partition's integer and logic pipe (16 lanes:
                                   * IADD3, LOP3, ISETP, FSEL, ...) is busy per op (0: every
                                   * arithmetic op on the one arithmetic pipe) */
    double fmaheavy_busy;         /* the same for the FMA-heavy pipe, which alone runs IMAD
                                   * and VIADD (0: on the arithmetic pipe alone) */
    double fp64_busy;             /* steps a partition's FP64 pipe (DFMA, DADD, DMUL, DSETP)
                                   * is busy per op (0: FP64 ops take the arithmetic pipe
                                   * twice) */
    double fp64_latency;          /* steps from an FP64 op to its result (0: the arithmetic
                                   * latency) */
    double fp64_bank_conflict;    /* steps of its partition's FP64 pipe an FP64 op takes
                                   * whose 64-bit register sources read one bank three times
                                   * (three distinct pairs) within three ops of a writer of
                                   * one of them (0: fp64_busy) */
    double branch_busy;           /* steps a branch (BRA, BSYNC, ...) takes its partition's
                                   * integer pipe (0: none; needs alu_busy) */
    double diverge_switch;        /* steps a partition issues nothing after a diverged warp
                                   * turns to its waiting side (0: none) */
    double l2_fill_sectors;       /* sectors a cycle over the device the L2 takes in from
                                   * DRAM (fills) where the stores' writes into it take
                                   * l2_store_line_sectors: one budget (0: none) */
    double scrub_dirty_mib;       /* MiB of dirty lines a scrub by writing (a memset of an
                                   * L2-sized buffer) leaves in the L2 (0: none) */
    double scrub_writeback_ld;    /* such lines written back a sector a launch reads from
                                   * DRAM after the scrub */
    double scrub_writeback_st;    /* and a sector it stores */
    double store_line_cycles;     /* cycles the SM's load/store path takes per line of one
                                   * partly written sector a global store touches, loads
                                   * waiting behind it (0: a cycle a line, as loads) */
    double store_narrow;          /* that for a store of 8- or 16-bit lanes, times this
                                   * (0: as a 32-bit one) */
    double dram_partial_sectors;  /* DRAM sectors more that a partly written sector of a
                                   * contiguous store costs, once written back (0: none) */
    double atomic_cas;            /* times the measured atomic time per warp-level atomic
                                   * a compare-and-swap over several sectors takes (0: 1) */
    double atomic_return;         /* times a reduction's share of the L2's atomic budget an
                                   * atomic whose old value comes back takes (0: 1) */
    double const_index_busy;      /* steps of the SM's constant cache a load of a constant
                                   * at a register's index (LDC c[b][R]) takes (0: none) */
    double barrier_stagger;       /* steps warp i of a block leaves a barrier after warp
                                   * i - 1 (0: all at once) */
    double tex_busy;              /* steps of the SM's texture unit a texture fetch (TEX,
                                   * TLD, TLD4) of one or two components takes, twice that
                                   * for three or four (0: none) */
    double tex_latency;           /* steps a texture fetch that hits L1 takes (0 or below
                                   * the L1's latency: the L1's) */
    double block_turn;            /* steps a block's slot stays empty after its last warp
                                   * is done, before the SM starts the next block in it
                                   * (0: none; sass engine) */
    double block_turn_warp;       /* and this many steps more for each warp of the block */
    double stores_posted;         /* 1: a global store does not hold its warp once issued
                                   * (the SM hands it to the memory system; a warp whose
                                   * last op is a store is done the next step); 0: the
                                   * warp is done when its stores are written */
    double budget_depth;          /* steps of its rate the SM's share of the device's DRAM
                                   * and L2 budgets may bank once its first wave of blocks
                                   * is done (other SMs out of phase leave it room); below
                                   * 2 or not given: 2, as at the start */
    double atomic_slice_fill;     /* sectors a cycle (over the whole device) in which the
                                   * L2 slice holding a word every block updates takes in
                                   * its share of a launch's DRAM reads, beside its share
                                   * of the L2 reads and its atomics (0: its atomics alone) */
    double store_merge;           /* the share of the L2's write budget a partial store
                                   * pays when the warp's previous store of its group (same
                                   * address registers, same 128-byte window) wrote part of
                                   * the same sectors: the L1 merges them (0: 1, no merge) */
    double line_latency;          /* steps a global load served past L1 waits longer for
                                   * each line of it past its first (0: none) */
    double store_order;           /* steps a warp's global or local load waits after the
                                   * warp's last global or local store issued (0: none) */
    double bsync_hold;            /* steps from a warp's BSYNC to its next issue (below 2:
                                   * the next step) */
    double branch_pred;           /* steps from an op's issue until a branch may read the
                                   * predicate it writes (0: the op's latency) */
    double branch_taken;          /* steps from a taken branch to its target's issue (0: the
                                   * arithmetic latency) */
    double code_fetch;            /* steps a warp waits for a 128-byte line of code no warp
                                   * of its SM has asked for yet (0: none) */
    double bank_conflict;         /* steps of its partition's arithmetic pipe an op takes
                                   * whose register operands conflict (0: not modelled) */
    /* every block's warp-level atomics on distinct words of the same L lines:
     * the steps a line takes per access, rows [L, steps] by increasing L
     * (n_atomic_lines 0: not modelled) */
    double atomic_lines[PN_PD_MAX_TABLE_ROWS][2];
    int n_atomic_lines;
    /* what one SM moves to [0] and from [1] the L2 in whole lines while B SMs
     * are busy: rows [B, sectors per step per SM] by increasing B
     * (n_l2_sm[k] 0: only the device's budget) */
    double l2_sm[2][PN_PD_MAX_TABLE_ROWS][2];
    int n_l2_sm[2];
    /* a warp-level matrix multiply-accumulate (HMMA) of depth K: the steps it
     * takes its partition's tensor pipe [0] and until its result is ready [1],
     * rows [K, steps] by increasing K (n_tensor 0: HMMA is one SFU op) */
    double tensor[2][PN_PD_MAX_TABLE_ROWS][2];
    int n_tensor[2];
    double l2_resident_mib;       /* a launch's footprint (MiB) half of whose measured DRAM
                                   * traffic launches again and again pay (0: all of it) */
    double dram_queue;            /* steps a DRAM load waits at utilisation u: dram_queue
                                   * u / (1 - u) (0: none) */
    double dram_write_delay;      /* steps a DRAM load waits per sector written a step over
                                   * the device (0: none) */
    uint32_t inflight;            /* 0: no limit */
    int calibrated;               /* pipelined_calibration: time_us = a * steps + b */
    double us_per_step, us_offset;
} pn_pipe_device_t;

/* Every key of a complete `pipelined:` section. */
#define PN_PD_ALL ((unsigned)(PN_PD_LAT0 << PN_PD_LAT_KEYS) - 1u)

/* Read the keys of mapping `map` into d, OR-ing their bits into d->set. With
 * `complete`, every key must be there (a profile); otherwise any subset (a
 * config's model:, which may also hold `extra` keys, NULL-terminated, that
 * are skipped here). Ranges: partitions 1..64, issue 1..8, clock_mhz > 0,
 * launch_us >= 0, latencies 2..PN_PIPE_MAX_LATENCY (loads from 3, barrier
 * from 5), sfu_busy and arith_busy >= 1, rates > 0, inflight 0..1048576. Errors name file,
 * line and column. */
pn_status_t pn_pipe_device_parse(pn_yaml_t *y, yaml_node_t *map, const char *what,
                                 int complete, const char *const *extra,
                                 pn_pipe_device_t *d, pn_error_t *err);

/* Copy into d every key `over` has set. */
void pn_pipe_device_merge(pn_pipe_device_t *d, const pn_pipe_device_t *over);

/* Read a profile's `occupancy:` mapping (every key required). */
pn_status_t pn_occ_rules_parse(pn_yaml_t *y, yaml_node_t *map, pn_occ_rules_t *r,
                               pn_error_t *err);

/* A kernel's memory behaviour (`kernel.memory`), with the spec's defaults. */
typedef struct pn_memory {
    double l1_hit;                /* [0, 1], default 0 */
    double l2_hit;                /* [0, 1], default 1 */
    double sectors_ld;            /* [1, 32], default 4 */
    double sectors_st;            /* [1, 32], default 4 */
    double shared_wavefronts;     /* >= 1 (at most 32), default 1 */
    double lines_ld;              /* distinct 128-byte lines a warp load touches, [1, 32];
                                   * 0: sectors_ld / 4, at least 1 (coalesced) */
    double lines_st;              /* the same for stores */
    double dram_ld;               /* DRAM sectors read per warp-level global load, averaged
                                   * over all of them (measured; with kernel.sass per load
                                   * of the program, local and texture ones too); < 0: not
                                   * known */
    double dram_st;               /* DRAM sectors written per warp-level store; < 0: not known */
    double l2_ld;                 /* sectors the L1 read from L2 per warp-level global load,
                                   * averaged (measured; kernel.sass only); < 0: not known */
    double local_l1_hit;          /* L1 hit rate of the local loads (LDL: spilled registers,
                                   * local arrays), measured; kernel.sass only; < 0: not
                                   * known (they take l1_hit) */
    double texture_l1_hit;        /* the same for texture loads (TEX, TLD, TLD4) */
    double atomic_ns;             /* ns the busiest L2 slice's atomic unit is active per
                                   * warp-level global atomic or reduction (measured:
                                   * lts__d_atomic_input_cycles_active.max); kernel.sass
                                   * only; < 0: not known (the profile's rules) */
    double flushed;               /* 1: the launch is timed with the L2 flushed before it
                                   * (one-shot, ncu's --cache-control all), so nothing of
                                   * its footprint is left there by the launch before
                                   * (the profile's l2_resident_mib does not apply); 2:
                                   * the same after a scrub by writing (a memset of an
                                   * L2-sized buffer), whose dirty lines it writes back
                                   * (the profile's scrub_ keys); 0 (default): launched
                                   * again and again; kernel.sass only */
    double l1_ld_wf;              /* the L1's wavefronts per warp-level global load,
                                   * averaged (measured: the larger of the tag stage's
                                   * output and the data stage's reads of local and global
                                   * loads); kernel.sass only; < 0: not known (a load takes
                                   * its sectors, at least a cycle a line) */
    double const_req;             /* the indexed constant cache's requests per warp
                                   * (measured: idc__requests over the launch's warps; a
                                   * warp's LDC asks once for each distinct word its lanes
                                   * read); kernel.sass only; < 0: not known (an index a
                                   * load gave reads one word) */
} pn_memory_t;

/* The defaults above. */
void pn_memory_default(pn_memory_t *m);

/* Split g global loads by level with rounding that keeps the sum:
 * l1 = round(g * l1_hit), l2 = round((g - l1) * l2_hit), dram = the rest. */
void pn_memory_split(const pn_memory_t *m, uint64_t g, uint64_t *l1, uint64_t *l2,
                     uint64_t *dram);

/* Fill the device part of p (partitions, issue, latencies, rates, costs,
 * inflight, barrier latency) from d and mem, the DRAM pipe getting
 * dram_sectors / busy_sms per step. Units: PN_PIPE_UNIT per sector,
 * wavefront or SFU instruction, rounded; a rate that rounds to 0 becomes 1.
 * A global access takes max(sectors, 4 * lines) sectors of the load/store
 * pipe (its L1 handles one 128-byte line of 4 sectors at a time), a DRAM
 * load its sectors of the DRAM pipe (at least dram_line_sectors a line), or,
 * when mem->dram_ld >= 0 (measured), every load dram_ld sectors; a store
 * mem->dram_st sectors of the DRAM pipe, or when not measured sectors_st x
 * (1 - l2_hit) (written back). Leaves warps, blocks and barriers alone. */
void pn_pipe_params_from(pn_pipe_params_t *p, const pn_pipe_device_t *d, const pn_memory_t *mem,
                         uint32_t busy_sms);

/* Microseconds of `steps` steps: a * steps + b when calibrated, else
 * steps / clock_mhz + launch_us. */
double pn_pipe_time_us(const pn_pipe_device_t *d, double steps);

#endif
