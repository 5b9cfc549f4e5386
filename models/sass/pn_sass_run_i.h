/* pn_sass_run_i.h - private to models/sass: the state of one run of the
 * sass engine (pn_sass_run.c) and the tables it reads, built by
 * pn_sass_run_init.c. */
#ifndef PN_SASS_RUN_I_H
#define PN_SASS_RUN_I_H

#include <stdint.h>

#include "pn_error.h"
#include "pn_rng.h"
#include "pn_sass_sim_i.h"

typedef struct pn_sass_bk {
    uint64_t level, at;         /* level at the start of step `at`, less its takes */
    uint32_t refill;            /* what it gains at the end of step `at`: the refill decided
                                 * then, on the level before its takes, and what those
                                 * takes give back (a pipe that serves in order:
                                 * pn_sass_check) */
    uint32_t rate, cap;         /* its pipe's */
} pn_sass_bk_t;

typedef struct pn_sass_warp {
    uint32_t gw, pc, slot, part;
    int state;                  /* 0 running, 1 at a barrier, 2 done, 3 no block */
    int queued;                 /* in the wake-up calendar or heap */
    uint64_t next_ok, drain, wake;
    uint64_t last;              /* its previous issue, or when it could first issue */
    pn_sass_levels_t lev;       /* its level pattern */
    uint64_t nload;             /* loads that took a level */
    int lvl;                    /* the level of its load number nload */
    uint64_t *k;                /* per branch: decisions taken */
    uint64_t *ldone;            /* per line record: when its leader's line arrives */
    uint64_t *ready;            /* per register the program uses: when it is ready */
    /* cp.async: when the open group's copies are in, the committed groups' (the
     * newest PN_SASS_ASYNC_GROUPS, n_grp of them committed so far), and the
     * latest of those older */
    uint64_t grp_open, grp_old, grp[PN_SASS_ASYNC_GROUPS];
    uint32_t n_grp;
    uint32_t calls[PN_SASS_CALL_DEPTH], depth;  /* open calls: where their RETs go */
    /* diverged: the sides waiting (their first op) and where each takes its
     * turn (the op its region reconverges at), innermost last */
    uint32_t pend_to[PN_SASS_DIV_DEPTH], pend_at[PN_SASS_DIV_DEPTH], n_pend;
} pn_sass_warp_t;

typedef struct pn_sass_slot {
    uint32_t block, alive, arrived;
    uint64_t done_at;           /* when its last warp is done */
    uint64_t gone_at;           /* when its last exited warp is done */
    uint64_t free_from;         /* free: the first step it may take a block */
    int busy;
} pn_sass_slot_t;

/* An op as the run reads it: its registers as indices of those the program
 * uses, the ones it waits for (all) padded to a multiple of 4 with one never
 * written, the ones it writes padded to a multiple of 2 with one never read
 * (but its predicates as branches read them: wbr, ready lat_br after it
 * issues); the level it issues at as (warp's next load level & lvmask) | lvfix. */
#define PN_SASS_CAL 1024        /* steps the wake-up calendar holds, a power of 2 */
#define PN_SASS_RUN_REGS 24     /* MAX_OP_REGS, a multiple of 4 */
typedef struct pn_sass_rop {
    uint16_t rreg[PN_SASS_RUN_REGS], wreg[PN_SASS_RUN_REGS], wbr[REG_MEM - REG_PRED];
    uint8_t n_rreg, n_wreg, n_wbr, lvmask, lvfix;
    uint8_t async, async_n;     /* sop_t's */
} pn_sass_rop_t;

/* A ready list's class as the engine reads it: its partition, the buckets it
 * takes from with their costs, the in-flight slot, and the mask of both
 * (bit = bucket index mod 63; the top bit, the in-flight slots). */
typedef struct pn_sass_lrec {
    uint64_t mask;
    uint32_t part;
    uint32_t memo_rd, memo_wr;  /* a class of the SM's buckets only (every partition's
                                 * list of it waits alike), of two or an in-flight
                                 * slot: its memo; others read n_cls (never
                                 * written) and write n_cls + 1 */
    uint8_t n, inflight;
    uint8_t b[P_N];
    uint32_t need[P_N];
    uint32_t chk[P_N];          /* the level its bucket must hold (pn_sass_check) */
} pn_sass_lrec_t;

typedef struct pn_sass_run {
    const pn_sass_sim_t *s;
    pn_rng_t rng;
    pn_sass_warp_t *w;          /* resident * W */
    uint64_t *kbuf;             /* the warps' decisions, line records and registers */
    pn_sass_slot_t *slot;
    pn_sass_bk_t *bk;           /* per partition alu, sfu; then lsu, shared, dram, l2, atom */
    /* completion steps of outstanding loads: a queue per latency, each in
     * the order of issue and so of completion */
    struct ifq { uint64_t *at; uint32_t head, len, lat; } *ifq;
    uint32_t n_ifq, n_inflight;
    uint64_t if_first;          /* the first completion (when some are in flight) */
    uint32_t *lq;               /* per op and level: its queue */
    uint32_t next_block, blocks_done;
    uint64_t launch_ok, issued;  /* the next block may start from launch_ok */
    uint64_t stall[PN_PIPE_MAX_PARTITIONS]; /* no issue on a partition before its step */
    int switched;               /* the last issue turned a warp to its waiting side */
    uint64_t last_done;         /* the latest step a warp is done at */
    uint32_t n_free;            /* slots without a block */
    uint64_t free_at;           /* the first step a slot without a block may take one
                                 * (its last warp done 2 steps before); UINT64_MAX: none */
    /* the wake-up calendar: per step of the PN_SASS_CAL from cal_cur on, a
     * bitmap of the warps that wake then (cal_words words a step) and one bit
     * a step in cal_sum when it has some; warps that wake later wait in the
     * heap wh */
    uint64_t *cal, *cal_sum, cal_cur;
    uint32_t cal_words;
    struct wakeup { uint64_t at; uint32_t w; } *wh;
    uint32_t n_wh, nw;
    uint32_t *rd, *n_rd;        /* list k (partition * classes + class) at rd[k * nw] */
    uint32_t *act, *apos, n_act; /* the lists with members, and each list's place there */
    uint32_t *elig;             /* a step's lists that can be paid, partition p's from
                                 * elig[p * n_cls] */
    uint64_t *ready_at;         /* per list: no step before can pay its class (takes only
                                 * lower the levels, so an earlier answer stays a bound) */
    pn_sass_lrec_t *lr;         /* per list: its class, read for the engine */
    uint64_t sm_mask;           /* the lists' mask bits of the SM's buckets and the
                                 * in-flight slots */
    uint64_t stamp;             /* changes with t and with every issue */
    uint64_t *memo_at, *memo_m; /* per class of the SM's buckets only: the stamp of
                                 * its last list_wait and the answer */
    uint32_t *lat;              /* per op and level: pn_sass_latency_at */
    pn_sass_rop_t *rop;         /* per op: what the run reads of it */
    uint32_t nreg;              /* registers the program uses, and two more: one never
                                 * written (reads' padding), one never read (writes') */
    double *op_n, *op_cyc;      /* pn_sass_sim_run_ops' issues and steps per op, or NULL */
    uint64_t *code_ok;          /* per line of code (s->fetch > 0): the step a warp may
                                 * issue from it, 0 while no warp asked for it */
} pn_sass_run_t;

/* Set up run r of s with the given seed: every table, the warps' buffers,
 * the buckets full, no block started. Returns PN_OK, or PN_ENOMEM with err
 * set; either way r is left for pn_sass_run_destroy. O(ops + lists + resident
 * warps x (branches + line records + registers)). */
pn_status_t pn_sass_run_init(pn_sass_run_t *r, const pn_sass_sim_t *s, uint64_t seed,
                             pn_error_t *err);

/* Free what run r holds (r itself is the caller's); r may be partly set up. */
void pn_sass_run_destroy(pn_sass_run_t *r);

#endif
