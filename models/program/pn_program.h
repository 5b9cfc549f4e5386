/* pn_program.h - instruction streams in program order: a warp's program as
 * segments {repeat, body}, the SM net whose frame I is a sequencer that walks
 * the program (models/program/PROGRAM.md), and the reordered programs of `pnsim reorder`. */
#ifndef PN_PROGRAM_H
#define PN_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "pn_engine.h"
#include "pn_error.h"
#include "pn_net.h"
#include "pn_sm.h"

/* Largest multiplier of a body item (the largest count). */
#define PN_PROGRAM_MAX_MULT PN_SM_MAX_COUNT

/* The item kind of a barrier (`sync` in a body): every warp of the block
 * waits there until all have arrived (models/program/PROGRAM.md, barriers). */
#define PN_PROGRAM_SYNC 3

/* The name of item kind k: "arith", "shared", "global" or "sync". */
const char *pn_program_kind_name(unsigned k);

/* One body item: `kind` or `kind*mult`, mult consecutive instructions of a
 * kind, or `sync` (mult 1). */
typedef struct pn_program_item {
    uint8_t kind;                 /* PN_KIND_ARITH, _SHARED, _GLOBAL (pn_sm.h) or PN_PROGRAM_SYNC */
    uint32_t mult;                /* 1 .. PN_PROGRAM_MAX_MULT */
} pn_program_item_t;

/* One segment: body run `repeat` times (0: the segment is skipped). */
typedef struct pn_program_seg {
    uint64_t repeat;              /* 0 .. PN_SM_MAX_COUNT */
    pn_program_item_t *body;      /* n_body >= 1 items, owned */
    uint32_t n_body;
} pn_program_seg_t;

/* A warp's program: its segments in program order. */
typedef struct pn_program {
    pn_program_seg_t *segs;
    uint32_t n_segs;
    uint32_t cap;
} pn_program_t;

/* Initialise an empty program (it runs no instruction). Always succeeds;
 * pair with pn_program_destroy. */
void pn_program_init(pn_program_t *p);

/* Free what p owns and leave it empty; p may be NULL. */
void pn_program_destroy(pn_program_t *p);

/* Append a segment: body[0..n) (copied) run `repeat` times. Errors:
 * PN_EINVAL (n == 0, an unknown kind, a multiplier 0 or above
 * PN_PROGRAM_MAX_MULT, a sync with a multiplier, repeat above
 * PN_SM_MAX_COUNT), PN_ENOMEM; p is
 * unchanged on error. O(n) amortised. */
pn_status_t pn_program_add_segment(pn_program_t *p, uint64_t repeat,
                                   const pn_program_item_t *body, uint32_t n,
                                   pn_error_t *err);

/* The counts p executes: per kind, the sum over segments of repeat times the
 * multipliers of that kind in the body. PN_ELIMIT (naming the kind) when one
 * exceeds PN_SM_MAX_COUNT; *out is then unspecified. O(items). */
pn_status_t pn_program_counts(const pn_program_t *p, pn_warp_counts_t *out, pn_error_t *err);

/* Barriers p passes: the sum over segments of repeat times the sync items in
 * the body (at most 2^32 * 2^32: no overflow). O(items). */
uint64_t pn_program_syncs(const pn_program_t *p);

/* Parse one body item, s[0..len): "arith", "shared" or "global", optionally
 * followed by "*K" (spaces allowed around '*'), K a decimal integer literal
 * between 1 and PN_PROGRAM_MAX_MULT, or "sync" (no multiplier). Errors: PN_EINVAL with a message (no
 * position: the caller adds it) naming the item and what was expected. */
pn_status_t pn_program_parse_item(const char *s, size_t len, pn_program_item_t *out,
                                  pn_error_t *err);

/* Places and transitions of one warp's sub-net in pn_sm_build_program:
 * places = 16 + sum over segments with repeat >= 1 of (items + counted items +
 * sync items + 1), transitions = 12 + the same sum, where counted items are
 * those with mult >= 2.
 * O(items). */
void pn_program_warp_size(const pn_program_t *p, uint32_t *places, uint32_t *transitions);

/* Build the SM net of n_warps warps running programs[0..n_warps) into net,
 * which must be freshly initialised (pn_net_init) and is frozen on success:
 * the global part (p0 with `schedulers` tokens, pw, t0) and frames II-IV of
 * ../shared/spec/wpnm.md exactly as pn_sm_build makes them, frame I replaced
 * by the sequencer of models/program/PROGRAM.md (p5, p7, p9, t2, t3, t4 dropped,
 * t16 takes `end` instead of its inhibitors). Names as pn_sm_build's
 * ("w<i>.p<K>", "w<i>.t<K>") plus "w<i>.q<j>_<k>", "w<i>.r<j>_<k>",
 * "w<i>.c<j>", "w<i>.end", "w<i>.s<j>_<k>", "w<i>.s<j>_<k>_rep",
 * "w<i>.s<j>_<k>_loop", "w<i>.s<j>_<k>_exit" (j, k 1-based: segment and item
 * as written). layout (may be NULL) receives p0, pw, t0 and the ids of warp
 * 0's first place and transition (warps are not of equal size). Errors:
 * PN_EINVAL (schedulers 0, a latency outside 1..PN_SM_MAX_LATENCY, no warps,
 * a bad segment), PN_ELIMIT (a warp's counts above PN_SM_MAX_COUNT),
 * PN_ENOMEM; on error net holds a partial net that the caller destroys as
 * usual. O(warps + items). */
pn_status_t pn_sm_build_program(pn_net_t *net, uint32_t schedulers, uint32_t l1, uint32_t l2,
                                uint32_t n_warps, const pn_program_t *programs,
                                pn_sm_layout_t *layout, pn_error_t *err);

/* Prepare engine `kind` for net, a net of pn_sm_build_program (borrowed, as
 * o). Program-order nets have no compiled engine: PN_ENGINE_AUTO takes the
 * fast engine and PN_ENGINE_COMPILED is PN_EINVAL; fast and literal as
 * pn_engine_prepare. Release p with pn_engine_release, also after an error. */
pn_status_t pn_program_engine_prepare(pn_prepared_t *p, pn_engine_kind_t kind,
                                      const pn_net_t *net, const pn_run_opts_t *o,
                                      pn_error_t *err);

/* Where a warp's sequencer connects to the net around it. Per item kind
 * (PN_KIND_ARITH, _SHARED, _GLOBAL), 1 to PN_PROGRAM_MAX_ALT alternatives: a
 * selection of that kind marks out[kind][a] and, when count[kind][a] is not
 * UINT32_MAX, takes a token from it; the alternatives of one selection
 * conflict, so the net picks one of those whose count is left, uniformly. */
#define PN_PROGRAM_MAX_ALT 3
typedef struct pn_program_ports {
    uint32_t trigger;             /* the place every selection takes (p3, or c) */
    uint32_t chosen;              /* marked by every selection (p4), or UINT32_MAX */
    uint32_t n_alt[3];
    uint32_t out[3][PN_PROGRAM_MAX_ALT];
    uint32_t count[3][PN_PROGRAM_MAX_ALT];
    uint32_t end;                 /* marked when the program has run (models/program/PROGRAM.md) */
    /* barriers (sync items), UINT32_MAX where the net has none: a sync takes
     * the trigger and `ready` and marks `arrive` (the block's arrivals); it
     * goes on, giving both back, with a token of `release` */
    uint32_t ready, arrive, release;
} pn_program_ports_t;

/* Add warp w's sequencer of prog to net (names "w<w>.q..", "w<w>.s.." as
 * pn_sm_build_program's, with "_a<k>" per alternative when a kind has
 * several), wired to ports; a sync item adds "w<w>.y<j>_<i>" (arrived, waiting)
 * and the transitions "w<w>.s<j>_<i>_arrive" and, like any item, the one(s)
 * that go on. PN_EINVAL for a kind without alternatives, or a sync item
 * where ports has no barrier places; PN_ENOMEM. O(items * alternatives). */
pn_status_t pn_program_add_sequencer(pn_net_t *net, uint32_t w, const pn_program_t *prog,
                                     const pn_program_ports_t *ports, pn_error_t *err);

/* 1 when no segment of prog is repeated (the warp runs no instruction). */
int pn_program_is_empty(const pn_program_t *prog);

/* The instruction orders `pnsim reorder` compares, built from counts alone. */
typedef enum pn_order {
    PN_ORDER_MEMORY_FIRST = 0,    /* all global accesses, then all shared, then arithmetic */
    PN_ORDER_MEMORY_LAST = 1,     /* arithmetic, then global, then shared */
    PN_ORDER_MEMORY_SPREAD = 2,   /* each memory access followed by an even share of arithmetic */
    PN_ORDER_COUNT = 3
} pn_order_t;

/* "memory-first", "memory-last", "memory-spread"; "?" for anything else. */
const char *pn_order_name(pn_order_t order);

/* Write into out (initialised, empty) the program of `order` for a warp of
 * counts c. memory-spread: with m = global + shared and arith = q*m + r,
 * r chunks [mem, arith*(q+1)] then m - r chunks [mem, arith*q], the memory
 * slots taking the global accesses first, then the shared ones, as at most 3
 * segments (m = 0: arith alone). Every program has exactly the counts c.
 * Errors: PN_EINVAL (bad order, a count above PN_SM_MAX_COUNT), PN_ENOMEM;
 * out is left empty on error. O(1). */
pn_status_t pn_program_order(pn_program_t *out, pn_order_t order, const pn_warp_counts_t *c,
                             pn_error_t *err);

/* Write p as YAML flow text, "[{repeat: 2, body: [global, arith*4]}]", into
 * buf (size >= 4), shortened with "..." when it does not fit; returns buf. */
char *pn_program_format(const pn_program_t *p, char *buf, size_t size);

#endif
