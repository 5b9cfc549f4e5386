/* pn_pnml.h - a net as PNML (ISO/IEC 15909-2, place/transition net grammar),
 * written and summarised with libxml2. */
#ifndef PN_PNML_H
#define PN_PNML_H

#include <stdio.h>

#include "pn_export.h"
#include "pn_net.h"

/* Write the frozen net to out as a PNML document: one <net> of type
 * http://www.pnml.org/version-2009/grammar/ptnet on one <page>, places with
 * <name> and <initialMarking>, transitions with <name>, arcs with
 * <inscription> (their weight). PNML P/T nets have no inhibitor arcs: an
 * inhibitor arc is written as an arc place -> transition carrying
 * <type value="inhibitor"/>, the convention of PIPE-style tools, which
 * other tools ignore. Ids are the node names. Errors: PN_EINVAL (not
 * frozen), PN_EEXTERNAL (libxml2), PN_EIO (write error). O(nodes + arcs). */
pn_status_t pn_net_write_pnml(const pn_net_t *net, FILE *out, pn_error_t *err);

/* Parse PNML from in with libxml2 and count places, transitions and arcs by
 * kind (inhibitor: an arc with <type value="inhibitor"/>; input: from a
 * place; output: to a place), and the tokens of the initial markings.
 * Errors: PN_ESYNTAX naming what libxml2 or the structure check found. */
pn_status_t pn_pnml_summary(FILE *in, pn_graph_summary_t *s, pn_error_t *err);

#endif
