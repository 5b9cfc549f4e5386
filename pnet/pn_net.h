/* pn_net.h - bounded place/transition nets with weighted arcs and inhibitor
 * arcs: building, flat (CSR) arc lists, enabledness, firing, dead markings.
 * Knows nothing about GPUs. */
#ifndef PN_NET_H
#define PN_NET_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pn_error.h"

typedef uint64_t pn_tokens_t;

/* One weighted arc between a transition and a place. */
typedef struct pn_arc {
    uint32_t place;
    uint32_t weight;
} pn_arc_t;

/* A net. Built with pn_net_add_*; pn_net_freeze then lays the arcs out in
 * flat arrays (compressed rows, sorted by place) that the engines read:
 *   inputs of t:      in[in_off[t] .. in_off[t+1])
 *   outputs of t:     out[out_off[t] .. out_off[t+1])
 *   inhibitors of t:  inh[inh_off[t] .. inh_off[t+1])  (place ids)
 *   consumers of p:   cons[cons_off[p] .. cons_off[p+1])  (transition ids)
 *   inhibited by p:   inhby[inhby_off[p] .. inhby_off[p+1])
 *   producers of p:   prod[prod_off[p] .. prod_off[p+1])
 * Fields are read-only for users; change a net only through the functions. */
typedef struct pn_net {
    uint32_t n_places;
    uint32_t n_trans;
    char **place_name;
    char **trans_name;
    pn_tokens_t *m0;              /* initial marking, n_places */
    bool frozen;

    uint32_t *in_off, *out_off, *inh_off;       /* n_trans + 1 */
    pn_arc_t *in, *out;
    uint32_t *inh;
    uint32_t *cons_off, *inhby_off, *prod_off;  /* n_places + 1 */
    uint32_t *cons, *inhby, *prod;

    /* building state: arcs in insertion order */
    struct pn_net_arc_rec *recs;
    size_t n_recs, cap_recs;
    uint32_t cap_places, cap_trans;

    /* a counting net (pn_net_set_counting): sizes only */
    bool counting;
    size_t n_counted[3];          /* arcs per kind */
} pn_net_t;

typedef enum pn_arc_kind {
    PN_ARC_INPUT = 0,      /* place -> transition, consumes weight tokens */
    PN_ARC_OUTPUT = 1,     /* transition -> place, produces weight tokens */
    PN_ARC_INHIBITOR = 2   /* place -o transition, requires the place empty */
} pn_arc_kind_t;

/* Initialise an empty net. Always succeeds; pair with pn_net_destroy. */
void pn_net_init(pn_net_t *net);

/* Free everything net owns and leave it empty. net may be NULL. */
void pn_net_destroy(pn_net_t *net);

/* Make the empty net `net` a counting net: places, transitions and arcs are
 * counted (ids assigned as usual, pn_net_n_arcs answers after the freeze)
 * but nothing is stored: no names (any name is accepted, unchecked), no
 * marking, no arc lists, so a generator run against it costs time in its
 * own loops alone. For a model whose compiled engine plans from parameters
 * and only reports the net's size. Arcs are counted as added: a generator
 * that adds the same (kind, transition, place) twice counts it twice where
 * the frozen net merges it (tests compare the two). Engines, exports and
 * analyses refuse a counting net. PN_EINVAL when net is not empty. */
pn_status_t pn_net_set_counting(pn_net_t *net, pn_error_t *err);

/* Where a counting net stands: its places, transitions and arcs by kind. */
typedef struct pn_net_count {
    uint32_t places, trans;
    size_t arcs[3];
} pn_net_count_t;

/* The counting net's sizes now, into *mark (for pn_net_count_repeat). */
void pn_net_count_mark(const pn_net_t *net, pn_net_count_t *mark);

/* Count what was added to the counting net since *mark `times` more times,
 * as if the generator had added it again (a stretch of alike nodes: a
 * grid's blocks), in O(1) whatever times. Errors: PN_EINVAL (not a counting
 * net being built, or a mark ahead of the net), PN_ELIMIT (places or
 * transitions past UINT32_MAX - 1, as pn_net_add_place); net unchanged on
 * error. */
pn_status_t pn_net_count_repeat(pn_net_t *net, const pn_net_count_t *mark, uint64_t times,
                                pn_error_t *err);

/* Add a place named `name` (copied; non-empty; names must be unique among
 * places, which pn_net_freeze checks for all of them at once) with initial
 * marking m0. *id (may be NULL) receives its id, assigned 0, 1, 2, ...
 * Errors: PN_EINVAL (frozen net, empty name), PN_ENOMEM; net unchanged on
 * error. O(1) amortised. */
pn_status_t pn_net_add_place(pn_net_t *net, const char *name, pn_tokens_t m0,
                             uint32_t *id, pn_error_t *err);

/* pn_net_add_place and pn_net_add_transition with the name formatted from
 * fmt (printf; names longer than 127 bytes are cut). Errors as theirs. */
pn_status_t pn_net_add_placef(pn_net_t *net, pn_tokens_t m0, uint32_t *id, pn_error_t *err,
                              const char *fmt, ...) PN_PRINTF(5, 6);
pn_status_t pn_net_add_transitionf(pn_net_t *net, uint32_t *id, pn_error_t *err,
                                   const char *fmt, ...) PN_PRINTF(4, 5);

/* Set the initial marking of place p to m0 before the net is frozen (a
 * generator that decides late whether a place starts marked). Errors:
 * PN_EINVAL (frozen net, bad id); net unchanged on error. O(1). */
pn_status_t pn_net_set_initial(pn_net_t *net, uint32_t p, pn_tokens_t m0, pn_error_t *err);

/* Add a transition, as pn_net_add_place (unique among transitions). */
pn_status_t pn_net_add_transition(pn_net_t *net, const char *name, uint32_t *id,
                                  pn_error_t *err);

/* Add an arc of `kind` between transition t and place p. Weights of repeated
 * input (or output) arcs between the same pair add up; a repeated inhibitor
 * is kept once. Weight must be >= 1 (ignored for inhibitors).
 * Errors: PN_EINVAL (frozen, bad ids, weight 0), PN_ENOMEM. */
pn_status_t pn_net_add_arc(pn_net_t *net, pn_arc_kind_t kind, uint32_t t, uint32_t p,
                           uint32_t weight, pn_error_t *err);

/* Check that no two places and no two transitions share a name, lay the
 * arcs out in the flat arrays and forbid further changes. Errors: PN_EINVAL
 * "two places are named 'x'" (or transitions), PN_EINVAL (a merged weight
 * overflows 32 bits), PN_ENOMEM; the net is then left unfrozen. O(arcs log
 * arcs + nodes log nodes). */
pn_status_t pn_net_freeze(pn_net_t *net, pn_error_t *err);

/* Id of the place / transition called name, or -1. O(n). */
int64_t pn_net_find_place(const pn_net_t *net, const char *name);
int64_t pn_net_find_transition(const pn_net_t *net, const char *name);

/* Number of arcs of each kind (frozen nets). */
size_t pn_net_n_arcs(const pn_net_t *net, pn_arc_kind_t kind);

/* True when t is enabled at marking m: every input place holds at least the
 * arc weight and every inhibitor place is empty. Frozen nets. O(arcs of t). */
static inline bool pn_net_enabled(const pn_net_t *net, const pn_tokens_t *m, uint32_t t)
{
    for (uint32_t i = net->inh_off[t]; i < net->inh_off[t + 1]; i++)
        if (m[net->inh[i]] != 0)
            return false;
    for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++)
        if (m[net->in[i].place] < net->in[i].weight)
            return false;
    return true;
}

/* True when m holds the inputs of t (inhibitors not looked at). */
static inline bool pn_net_inputs_fit(const pn_net_t *net, const pn_tokens_t *m, uint32_t t)
{
    for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++)
        if (m[net->in[i].place] < net->in[i].weight)
            return false;
    return true;
}

/* Remove t's input tokens from m (caller checked they fit: a marking never
 * goes negative, which an assertion guards). */
static inline void pn_net_consume(const pn_net_t *net, pn_tokens_t *m, uint32_t t)
{
    for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++) {
        assert(m[net->in[i].place] >= net->in[i].weight);
        m[net->in[i].place] -= net->in[i].weight;
    }
}

/* Add t's output tokens to m. */
static inline void pn_net_produce(const pn_net_t *net, pn_tokens_t *m, uint32_t t)
{
    for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1]; i++)
        m[net->out[i].place] += net->out[i].weight;
}

/* Fire the single enabled transition t in m (interleaving semantics). */
void pn_net_fire(const pn_net_t *net, pn_tokens_t *m, uint32_t t);

/* True when no transition is enabled at m. O(arcs). */
bool pn_net_is_dead(const pn_net_t *net, const pn_tokens_t *m);

/* Copy the initial marking into m (n_places entries). */
void pn_net_initial_marking(const pn_net_t *net, pn_tokens_t *m);

#endif
