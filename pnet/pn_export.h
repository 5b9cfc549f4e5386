/* pn_export.h - a net as an igraph graph (bipartite, directed, with
 * attributes) and its export to DOT and GraphML through igraph. */
#ifndef PN_EXPORT_H
#define PN_EXPORT_H

#include <stdio.h>

#include <igraph.h>

#include "pn_net.h"

typedef enum pn_export_format {
    PN_EXPORT_DOT = 0,
    PN_EXPORT_GRAPHML = 1,
    PN_EXPORT_PNML = 2        /* written with libxml2 (pn_pnml.h), not igraph */
} pn_export_format_t;

/* Parse "dot", "graphml" or "pnml"; returns PN_EINVAL for anything else. */
pn_status_t pn_export_format_parse(const char *s, pn_export_format_t *fmt, pn_error_t *err);

/* Build the frozen net as an igraph graph into *g (uninitialised on entry;
 * the caller igraph_destroy()s it on success). Vertices 0..n_places-1 are
 * the places, then the transitions. Vertex attributes: "name", "kind"
 * ("place"/"transition"), "marking" (initial tokens; 0 for transitions),
 * "label" and "shape" (for Graphviz). Edge attributes: "kind"
 * ("input"/"output"/"inhibitor"), "weight", "arrowhead" (Graphviz).
 * Installs igraph's C attribute table and a non-aborting error handler.
 * Errors: PN_EINVAL (net not frozen), PN_EEXTERNAL (igraph), PN_ENOMEM. O(nodes + arcs). */
pn_status_t pn_net_to_igraph(const pn_net_t *net, igraph_t *g, pn_error_t *err);

/* Write the net to out in fmt. Errors as pn_net_to_igraph, PN_EIO on a
 * failed write. */
pn_status_t pn_net_write(const pn_net_t *net, FILE *out, pn_export_format_t fmt,
                         pn_error_t *err);

/* Sizes of a GraphML file written by pn_net_write, read back with igraph. */
typedef struct pn_graph_summary {
    long places, transitions;
    long inputs, outputs, inhibitors;
    double tokens;            /* sum of the initial marking */
} pn_graph_summary_t;

/* Read GraphML from in and count its nodes and arcs by kind.
 * Errors: PN_ESYNTAX (igraph could not parse it, or attributes are missing). */
pn_status_t pn_graphml_summary(FILE *in, pn_graph_summary_t *s, pn_error_t *err);

/* Make igraph return error codes instead of aborting, and attach its C
 * attribute table. Idempotent; call before any other igraph use. */
void pn_igraph_setup(void);

#endif
