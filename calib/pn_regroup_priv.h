/* pn_regroup_priv.h - what the regrouping algorithms' files share
 * (pn_regroup.c, pn_regroup_greedy.c); not a public interface. */
#ifndef PN_REGROUP_PRIV_H
#define PN_REGROUP_PRIV_H

#include "pn_regroup.h"

/* perm = the threads of in in lexicographic BBV order, ties by thread id (a
 * stable sort; the comparison's context is thread-local). O(n log n * nb). */
void pn_regroup_sort_threads(const pn_regroup_input_t *in, uint32_t *perm);

/* Greedy (Algorithm 1) on in with groups of gs threads: perm receives the
 * threads group by group. Errors: PN_ENOMEM. */
pn_status_t pn_regroup_greedy(const pn_regroup_input_t *in, size_t gs, uint32_t *perm,
                              pn_error_t *err);

#endif
