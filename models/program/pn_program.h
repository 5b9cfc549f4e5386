/* pn_program.h - instruction streams in program order: a warp's program as
 * segments {repeat, body} of items (models/program/PROGRAM.md). The net that
 * runs them is pn_program_net.h; the reordered programs, pn_program_order.h. */
#ifndef PN_PROGRAM_H
#define PN_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "pn_error.h"
#include "pn_sm.h"
/* Largest multiplier of a body item (the largest count). */
#define PN_PROGRAM_MAX_MULT PN_SM_MAX_COUNT

/* The item kind of a barrier (`sync` in a body): every warp of the block
 * waits there until all have arrived (models/program/PROGRAM.md, barriers). */
#define PN_PROGRAM_SYNC 3

/* Item kinds the pipelined net alone knows (models/pipelined/PIPELINED.md,
 * program order): special-function, shared-store and global-store
 * instructions. Every kind below PN_PROGRAM_KINDS but sync counts
 * instructions. */
#define PN_PROGRAM_SFU 4
#define PN_PROGRAM_SHARED_ST 5
#define PN_PROGRAM_GLOBAL_ST 6
#define PN_PROGRAM_KINDS 7

/* The paper net's kind of item kind k: sfu runs as arith, shared_st as
 * shared, global_st as global (as the config folds counts for the paper
 * net); the paper's three kinds and sync are themselves. */
unsigned pn_program_paper_kind(unsigned k);

/* The name of item kind k: "arith", "shared", "global", "sync", "sfu",
 * "shared_st" or "global_st" ("?" past them). */
const char *pn_program_kind_name(unsigned k);

/* One body item: `kind` or `kind*mult`, mult consecutive instructions of a
 * kind, or `sync` (mult 1). */
typedef struct pn_program_item {
    uint8_t kind;                 /* PN_KIND_ARITH, _SHARED, _GLOBAL (pn_sm.h), PN_PROGRAM_SYNC,
                                   * or PN_PROGRAM_SFU, _SHARED_ST, _GLOBAL_ST */
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
 * exceeds PN_SM_MAX_COUNT; *out is then unspecified. The paper's three kinds:
 * sfu items count as arith, shared_st as shared, global_st as global (as the
 * config folds its counts for the paper net). O(items). */
pn_status_t pn_program_counts(const pn_program_t *p, pn_warp_counts_t *out, pn_error_t *err);

/* As pn_program_counts, for every item kind: n[k] the instructions of kind k
 * (n[PN_PROGRAM_SYNC]: the barriers passed). O(items). */
pn_status_t pn_program_kind_counts(const pn_program_t *p, uint64_t n[PN_PROGRAM_KINDS],
                                   pn_error_t *err);

/* Barriers p passes: the sum over segments of repeat times the sync items in
 * the body (at most 2^32 * 2^32: no overflow). O(items). */
uint64_t pn_program_syncs(const pn_program_t *p);

/* Parse one body item, s[0..len): "arith", "shared", "global", "sfu",
 * "shared_st" or "global_st", optionally followed by "*K" (spaces allowed around '*'), K a decimal integer literal
 * between 1 and PN_PROGRAM_MAX_MULT, or "sync" (no multiplier). Errors: PN_EINVAL with a message (no
 * position: the caller adds it) naming the item and what was expected. */
pn_status_t pn_program_parse_item(const char *s, size_t len, pn_program_item_t *out,
                                  pn_error_t *err);

/* Places and transitions of one warp's sub-net in pn_program_net_build:
 * places = 16 + sum over segments with repeat >= 1 of (items + counted items +
 * sync items + 1), transitions = 12 + the same sum, where counted items are
 * those with mult >= 2.
 * O(items). */
void pn_program_warp_size(const pn_program_t *p, uint32_t *places, uint32_t *transitions);

/* 1 when no segment of prog is repeated (the warp runs no instruction). */
int pn_program_is_empty(const pn_program_t *prog);

/* Write p as YAML flow text, "[{repeat: 2, body: [global, arith*4]}]", into
 * buf (size >= 4), shortened with "..." when it does not fit; returns buf. */
char *pn_program_format(const pn_program_t *p, char *buf, size_t size);

#endif
