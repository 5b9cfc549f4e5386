/* pn_engine_fast_i.h - the fast engine's plan, shared by its planner
 * (pn_engine_fast_plan.c) and its runs (pn_engine_fast.c); not public. */
#ifndef PN_ENGINE_FAST_I_H
#define PN_ENGINE_FAST_I_H

#include <stdint.h>

#include "pn_engine.h"
#include "pn_net.h"

/* ---- plan: what the engine derives from the net once --------------------- */

typedef struct reader {
    uint32_t t;
    uint32_t w;
} reader_t;

struct pn_fast_plan {
    const pn_net_t *net;
    uint32_t *cons_off;       /* consumers of each place, sorted by weight */
    reader_t *cons;
    uint8_t *shared;          /* place has two or more consumers */
    uint8_t *selfloop;        /* transition leaves the marking unchanged */
    uint8_t *tickable;        /* transition qualifies as a ticker */
    uint8_t *lonely;          /* transition's conflict group has one member */
    uint8_t *hub;             /* place with PN_HUB_MIN or more consumers */
    uint8_t *has_hub;         /* transition consumes from a hub */
    uint32_t *hubs, n_hubs;   /* the hub places */
    uint32_t *shin_off;       /* shared input places of each transition */
    uint32_t *shin;
    uint32_t n_groups;
};

/* Places with at least this many consumers are hubs. */
#define PN_HUB_MIN 6

#endif
