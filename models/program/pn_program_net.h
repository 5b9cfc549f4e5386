/* pn_program_net.h - the SM net whose frame I is a sequencer walking each
 * warp's program (models/program/PROGRAM.md), and the sequencer alone for
 * other nets (the pipelined net's program order). */
#ifndef PN_PROGRAM_NET_H
#define PN_PROGRAM_NET_H

#include <stdint.h>

#include "pn_engine.h"
#include "pn_error.h"
#include "pn_net.h"
#include "pn_program.h"
#include "pn_sm.h"

/* Build the SM net of n_warps warps running programs[0..n_warps) into net,
 * which must be freshly initialised (pn_net_init) and is frozen on success:
 * the global part (p0 with `schedulers` tokens, pw, t0) and frames II-IV of
 * doc/paper-net.md exactly as pn_sm_build makes them, frame I replaced
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
pn_status_t pn_program_net_build(pn_net_t *net, uint32_t schedulers, uint32_t l1, uint32_t l2,
                                uint32_t n_warps, const pn_program_t *programs,
                                pn_sm_layout_t *layout, pn_error_t *err);

/* Prepare engine `kind` for net, the net pn_program_net_build made of sm's
 * schedulers, latencies and warps running programs (all borrowed, as o):
 * auto and compiled take the sm engine, planned from sm (whose warps hold
 * the counts the programs imply) and the programs (pn_sm_seq_engine_prepare;
 * sfu, shared_st and global_st items run as arith, shared and global); fast
 * and literal run net. Release p with pn_engine_release, also after an
 * error. */
pn_status_t pn_program_net_engine(pn_prepared_t *p, pn_engine_kind_t kind,
                                  const pn_sm_params_t *sm, const pn_program_t *programs,
                                  const pn_net_t *net, const pn_run_opts_t *o,
                                  pn_error_t *err);

/* Where a warp's sequencer connects to the net around it. Per item kind
 * (PN_KIND_ARITH, _SHARED, _GLOBAL, PN_PROGRAM_SFU, _SHARED_ST, _GLOBAL_ST;
 * the sync slot is unused), 0 (the net does not know the kind) to
 * PN_PROGRAM_MAX_ALT alternatives: a
 * selection of that kind marks out[kind][a] and, when count[kind][a] is not
 * UINT32_MAX, takes a token from it; the alternatives of one selection
 * conflict, so the net picks one of those whose count is left, uniformly. */
#define PN_PROGRAM_MAX_ALT 3
typedef struct pn_program_ports {
    uint32_t trigger;             /* the place every selection takes (p3, or c) */
    uint32_t chosen;              /* marked by every selection (p4), or UINT32_MAX */
    uint32_t n_alt[PN_PROGRAM_KINDS];
    uint32_t out[PN_PROGRAM_KINDS][PN_PROGRAM_MAX_ALT];
    uint32_t count[PN_PROGRAM_KINDS][PN_PROGRAM_MAX_ALT];
    uint32_t end;                 /* marked when the program has run (models/program/PROGRAM.md) */
    /* barriers (sync items), UINT32_MAX where the net has none: a sync takes
     * the trigger and `ready` and marks `arrive` (the block's arrivals); it
     * goes on, giving both back, with a token of `release` */
    uint32_t ready, arrive, release;
} pn_program_ports_t;

/* Add warp w's sequencer of prog to net (names "w<w>.q..", "w<w>.s.." as
 * pn_program_net_build's, with "_a<k>" per alternative when a kind has
 * several), wired to ports; a sync item adds "w<w>.y<j>_<i>" (arrived, waiting)
 * and the transitions "w<w>.s<j>_<i>_arrive" and, like any item, the one(s)
 * that go on. PN_EINVAL for an item of a kind without alternatives (naming
 * the item), more than PN_PROGRAM_MAX_ALT alternatives, or a sync item
 * where ports has no barrier places; PN_ENOMEM. O(items * alternatives). */
pn_status_t pn_program_net_sequencer(pn_net_t *net, uint32_t w, const pn_program_t *prog,
                                     const pn_program_ports_t *ports, pn_error_t *err);

#endif
