/* pn_analysis.h - structural analysis of a frozen net: conflict groups
 * (transitions linked by shared input places) through igraph. */
#ifndef PN_ANALYSIS_H
#define PN_ANALYSIS_H

#include <stdint.h>

#include "pn_error.h"
#include "pn_net.h"

/* Structural conflict groups: the connected components of the graph whose
 * vertices are the transitions and whose edges join two transitions that
 * consume from a common place. Transitions of different groups can never
 * compete for a token. group[t] (n_trans entries, caller-allocated) receives
 * the group of t, numbered 0..*n_groups-1 in order of first transition;
 * group_size (may be NULL; n_trans entries) receives each group's size.
 * Errors: PN_EINVAL (not frozen), PN_EEXTERNAL/PN_ENOMEM (igraph).
 * Thread-safe: calls from several threads take turns (igraph's error state
 * is global).
 * O(places + arcs) plus igraph's O(V + E). */
pn_status_t pn_net_conflict_groups(const pn_net_t *net, uint32_t *group, uint32_t *group_size,
                                   uint32_t *n_groups, pn_error_t *err);

#endif
