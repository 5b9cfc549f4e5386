/* pn_sass_net.h - the Petri net that realises the dependency rule: warps
 * that run their SASS program in order, each waiting only for the
 * scoreboards of the registers its next instruction reads and writes, on the
 * pipelined SM (doc/dependencies.md, "The net", arc by arc). The literal and
 * fast engines run it; the sass engine (pn_sass_sim.c) plays the same net as
 * events. */
#ifndef PN_SASS_NET_H
#define PN_SASS_NET_H

#include "pn_net.h"
#include "pn_sass_sim.h"

/* Where the net's waiting transition and end place are. */
typedef struct pn_sass_net_layout {
    uint32_t t0;                  /* fires once per step in which no warp issued (and at step 0) */
    uint32_t done;                /* marked once every warp of every block terminated */
} pn_sass_net_layout_t;

/* The most places a sass net may have: the net unrolls every warp's
 * latencies, branch decisions and load levels, a reference for small
 * programs, not for imported kernels (their engine is the sass engine). */
#define PN_SASS_NET_MAX_PLACES 4000000u

/* Build into net (initialised, empty, not frozen; a counting net counts) the
 * net of the run s plans: every block of the SM with its warps, the pipes'
 * buckets, the schedulers, the in-flight limit, barriers and block launches;
 * then freeze it. One warp with wide pipes takes exactly the steps the sass
 * engine reports, for every program (tests/test_sass_net.c), and several
 * warps the same distribution. Errors: PN_ELIMIT when the net would exceed
 * PN_SASS_NET_MAX_PLACES places, PN_EINVAL for a load latency below 3 or a
 * barrier latency below 3, PN_ENOMEM; the net is then unusable (destroy it). */
pn_status_t pn_sass_net_build(pn_net_t *net, const pn_sass_sim_t *s, pn_sass_net_layout_t *lay,
                              pn_error_t *err);

#endif
