/* pn_sass_net_i.h - private to models/sass: what the builder of the sass net
 * (pn_sass_net.c) shares with the part that builds its blocks' start, end and
 * turnover (pn_sass_net_blocks.c): the builder's state, a block's and a warp's
 * places, and the helpers that add places, transitions and arcs. */
#ifndef PN_SASS_NET_I_H
#define PN_SASS_NET_I_H

#include <stdarg.h>
#include <stdio.h>

#include "pn_sass_net.h"
#include "pn_sass_sim_i.h"

#define NONE UINT32_MAX
#define N_BUCKETS (P_PER_PART * PN_PIPE_MAX_PARTITIONS + (P_N - P_LSU))

/* An op's registers, each once: written ones are held until it completes. */
typedef struct opregs {
    uint16_t reg[MAX_OP_REGS];
    uint8_t written[MAX_OP_REGS];
    uint8_t n, n_written;
} opregs_t;

/* The builder: the net, its error, the plan and the places and transitions the
 * parts share. */
typedef struct nb {
    pn_net_t *net;
    pn_error_t *err;
    const pn_sass_sim_t *s;
    opregs_t *regs;               /* per op */
    int16_t slot_of[N_REGS];      /* register -> scoreboard index, -1 unused */
    uint32_t n_sb;
    uint64_t places;
    uint32_t done, pfin, inflight, slot, t0;
    uint32_t q[PN_PIPE_MAX_PARTITIONS];
    uint32_t bucket[N_BUCKETS], room[N_BUCKETS];
    uint32_t launch_a, launch_b;  /* the launch counter (NONE: blocks start back to back) */
    int has_bar;
    /* per line of code (s->fetch > 0): asked for, fetched, and the first place of
     * its fetch line (NONE: code_fetch 1, the fetch marks ok at once) */
    uint32_t *code_req, *code_ok, *code_line;
} nb_t;

/* One block's places. */
typedef struct blk {
    uint32_t pfin, arr, rel, live, gone, turn, lf;
} blk_t;

/* One warp's places. */
typedef struct wnet {
    uint32_t gw, part;
    const blk_t *blk;
    uint32_t *pc, *wait;          /* per op */
    uint32_t *sb;                 /* per scoreboard */
    uint32_t *la, *lp;            /* per line record: arrived, pending */
    uint32_t ex, out, iss;
    pn_sass_levels_t lev;
    uint32_t *ltape;              /* the level tape (lev.g places), NULL when g = 1 */
} wnet_t;

/* Add a place of initial marking m0 (its id in *id) or a transition, named as
 * printf formats it (no name in a counting net); PN_ELIMIT past
 * PN_SASS_NET_MAX_PLACES places. An input or output arc of weight w (none when w
 * is 0), an inhibitor arc. */
static inline pn_status_t place(nb_t *b, pn_tokens_t m0, uint32_t *id, const char *fmt, ...)
    PN_PRINTF(4, 5);
static inline pn_status_t trans(nb_t *b, uint32_t *id, const char *fmt, ...) PN_PRINTF(3, 4);

static inline pn_status_t place(nb_t *b, pn_tokens_t m0, uint32_t *id, const char *fmt, ...)
{
    char name[96] = "";
    if (++b->places > PN_SASS_NET_MAX_PLACES)
        return pn_error_set(b->err, PN_ELIMIT, "the sass net would exceed %u places (a "
                            "reference for small programs: run the sass engine, --engine auto)",
                            PN_SASS_NET_MAX_PLACES);
    if (!b->net->counting) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(name, sizeof name, fmt, ap);
        va_end(ap);
    }
    return pn_net_add_place(b->net, name, m0, id, b->err);
}

static inline pn_status_t trans(nb_t *b, uint32_t *id, const char *fmt, ...)
{
    char name[96] = "";
    if (!b->net->counting) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(name, sizeof name, fmt, ap);
        va_end(ap);
    }
    return pn_net_add_transition(b->net, name, id, b->err);
}

static inline pn_status_t in(nb_t *b, uint32_t t, uint32_t p, uint32_t w)
{
    return w ? pn_net_add_arc(b->net, PN_ARC_INPUT, t, p, w, b->err) : PN_OK;
}

static inline pn_status_t out(nb_t *b, uint32_t t, uint32_t p, uint32_t w)
{
    return w ? pn_net_add_arc(b->net, PN_ARC_OUTPUT, t, p, w, b->err) : PN_OK;
}

static inline pn_status_t inh(nb_t *b, uint32_t t, uint32_t p)
{
    return pn_net_add_arc(b->net, PN_ARC_INHIBITOR, t, p, 1, b->err);
}

/* Block k's places, its barrier release and its end with the turnover (bl filled). */
pn_status_t pn_sass_net_add_block(nb_t *b, uint32_t k, blk_t *bl);

/* Block k's launch gap: its lf mark, after the launch counter, marks block
 * k + 1's turn (launch >= 2, k + 1 < blocks). */
pn_status_t pn_sass_net_add_launched(nb_t *b, uint32_t k, blk_t *bls);

/* Block k's start (k >= 1): a free slot and its turn mark its warps' (ws) first
 * instructions, and the next block's turn. */
pn_status_t pn_sass_net_add_start(nb_t *b, uint32_t k, blk_t *bls, wnet_t *ws);

#endif
