/* pn_export.c - a net as an attributed igraph graph; DOT and GraphML output. */
#include "pn_export.h"

#include <inttypes.h>
#include <string.h>

#include "pn_pnml.h"

void pn_igraph_setup(void)
{
    igraph_set_error_handler(igraph_error_handler_ignore);
    igraph_set_warning_handler(igraph_warning_handler_ignore);
    igraph_set_attribute_table(&igraph_cattribute_table);
}

pn_status_t pn_export_format_parse(const char *s, pn_export_format_t *fmt, pn_error_t *err)
{
    if (strcmp(s, "dot") == 0)
        *fmt = PN_EXPORT_DOT;
    else if (strcmp(s, "graphml") == 0)
        *fmt = PN_EXPORT_GRAPHML;
    else if (strcmp(s, "pnml") == 0)
        *fmt = PN_EXPORT_PNML;
    else
        return pn_error_set(err, PN_EINVAL, "unknown export format '%s' (expected dot, graphml "
                            "or pnml)", s);
    return PN_OK;
}

static pn_status_t igraph_fail(pn_error_t *err, igraph_error_t e, const char *what)
{
    return pn_error_set(err, e == IGRAPH_ENOMEM ? PN_ENOMEM : PN_EEXTERNAL,
                        "igraph failed to %s: %s", what, igraph_strerror(e));
}

#define IG_TRY(expr, what)                          \
    do {                                            \
        igraph_error_t ig_e_ = (expr);              \
        if (ig_e_ != IGRAPH_SUCCESS) {              \
            st = igraph_fail(err, ig_e_, what);     \
            goto fail;                              \
        }                                           \
    } while (0)

/* Edge list, kinds and weights for the arcs of one kind. */
static igraph_error_t push_arcs(const pn_net_t *net, pn_arc_kind_t kind,
                                igraph_vector_int_t *edges, igraph_strvector_t *ekind,
                                igraph_vector_t *weight, igraph_strvector_t *head)
{
    static const char *const kind_name[] = { "input", "output", "inhibitor" };
    const uint32_t *off = kind == PN_ARC_INPUT ? net->in_off
                        : kind == PN_ARC_OUTPUT ? net->out_off : net->inh_off;
    for (uint32_t t = 0; t < net->n_trans; t++) {
        for (uint32_t i = off[t]; i < off[t + 1]; i++) {
            uint32_t p = kind == PN_ARC_INPUT ? net->in[i].place
                       : kind == PN_ARC_OUTPUT ? net->out[i].place : net->inh[i];
            uint32_t w = kind == PN_ARC_INPUT ? net->in[i].weight
                       : kind == PN_ARC_OUTPUT ? net->out[i].weight : 1;
            igraph_integer_t tv = (igraph_integer_t)net->n_places + t;
            igraph_integer_t from = kind == PN_ARC_OUTPUT ? tv : (igraph_integer_t)p;
            igraph_integer_t to = kind == PN_ARC_OUTPUT ? (igraph_integer_t)p : tv;
            IGRAPH_CHECK(igraph_vector_int_push_back(edges, from));
            IGRAPH_CHECK(igraph_vector_int_push_back(edges, to));
            IGRAPH_CHECK(igraph_strvector_push_back(ekind, kind_name[kind]));
            IGRAPH_CHECK(igraph_vector_push_back(weight, w));
            IGRAPH_CHECK(igraph_strvector_push_back(head, kind == PN_ARC_INHIBITOR ? "odot"
                                                                                    : "normal"));
        }
    }
    return IGRAPH_SUCCESS;
}

pn_status_t pn_net_to_igraph(const pn_net_t *net, igraph_t *g, pn_error_t *err)
{
    if (!net->frozen)
        return pn_error_set(err, PN_EINVAL, "cannot export a net that is not frozen");
    pn_igraph_setup();
    pn_status_t st = PN_OK;
    igraph_integer_t nv = (igraph_integer_t)net->n_places + net->n_trans;
    igraph_vector_int_t edges;
    igraph_strvector_t vname, vkind, vlabel, vshape, ekind, ehead;
    igraph_vector_t vmark, eweight;
    igraph_strvector_t *strs[] = { &vname, &vkind, &vlabel, &vshape, &ekind, &ehead };
    igraph_vector_t *nums[] = { &vmark, &eweight };
    enum { N_STRS = sizeof strs / sizeof strs[0], N_NUMS = sizeof nums / sizeof nums[0] };
    size_t n_strs = 0, n_nums = 0;    /* initialised so far: destroyed at the end */
    int have_edges = 0, have_graph = 0;
    IG_TRY(igraph_vector_int_init(&edges, 0), "set up the arcs");
    have_edges = 1;
    for (; n_strs < N_STRS; n_strs++)
        IG_TRY(igraph_strvector_init(strs[n_strs], 0), "set up the attributes");
    for (; n_nums < N_NUMS; n_nums++)
        IG_TRY(igraph_vector_init(nums[n_nums], 0), "set up the attributes");

    char label[512];
    for (uint32_t p = 0; p < net->n_places; p++) {
        snprintf(label, sizeof label, "%s\n%" PRIu64, net->place_name[p], net->m0[p]);
        IG_TRY(igraph_strvector_push_back(&vname, net->place_name[p]), "add a place");
        IG_TRY(igraph_strvector_push_back(&vkind, "place"), "add a place");
        IG_TRY(igraph_strvector_push_back(&vlabel, label), "add a place");
        IG_TRY(igraph_strvector_push_back(&vshape, "circle"), "add a place");
        IG_TRY(igraph_vector_push_back(&vmark, (double)net->m0[p]), "add a place");
    }
    for (uint32_t t = 0; t < net->n_trans; t++) {
        IG_TRY(igraph_strvector_push_back(&vname, net->trans_name[t]), "add a transition");
        IG_TRY(igraph_strvector_push_back(&vkind, "transition"), "add a transition");
        IG_TRY(igraph_strvector_push_back(&vlabel, net->trans_name[t]), "add a transition");
        IG_TRY(igraph_strvector_push_back(&vshape, "box"), "add a transition");
        IG_TRY(igraph_vector_push_back(&vmark, 0), "add a transition");
    }
    for (int k = PN_ARC_INPUT; k <= PN_ARC_INHIBITOR; k++)
        IG_TRY(push_arcs(net, (pn_arc_kind_t)k, &edges, &ekind, &eweight, &ehead), "add arcs");

    IG_TRY(igraph_empty(g, nv, IGRAPH_DIRECTED), "create a graph");
    have_graph = 1;
    IG_TRY(igraph_add_edges(g, &edges, NULL), "add edges");
    IG_TRY(igraph_cattribute_VAS_setv(g, "name", &vname), "set names");
    IG_TRY(igraph_cattribute_VAS_setv(g, "kind", &vkind), "set kinds");
    IG_TRY(igraph_cattribute_VAN_setv(g, "marking", &vmark), "set markings");
    IG_TRY(igraph_cattribute_VAS_setv(g, "label", &vlabel), "set labels");
    IG_TRY(igraph_cattribute_VAS_setv(g, "shape", &vshape), "set shapes");
    IG_TRY(igraph_cattribute_EAS_setv(g, "kind", &ekind), "set arc kinds");
    IG_TRY(igraph_cattribute_EAN_setv(g, "weight", &eweight), "set weights");
    IG_TRY(igraph_cattribute_EAS_setv(g, "arrowhead", &ehead), "set arrowheads");
    goto done;
fail:
    if (have_graph)
        igraph_destroy(g);
done:
    if (have_edges)
        igraph_vector_int_destroy(&edges);
    for (size_t i = 0; i < n_strs; i++)
        igraph_strvector_destroy(strs[i]);
    for (size_t i = 0; i < n_nums; i++)
        igraph_vector_destroy(nums[i]);
    return st;
}

pn_status_t pn_net_write(const pn_net_t *net, FILE *out, pn_export_format_t fmt,
                         pn_error_t *err)
{
    if (fmt == PN_EXPORT_PNML)
        return pn_net_write_pnml(net, out, err);
    igraph_t g;
    PN_CHECK(pn_net_to_igraph(net, &g, err));
    pn_status_t st = PN_OK;
    igraph_error_t e = fmt == PN_EXPORT_DOT ? igraph_write_graph_dot(&g, out)
                                            : igraph_write_graph_graphml(&g, out, false);
    if (e != IGRAPH_SUCCESS)
        st = igraph_fail(err, e, "write the net");
    else if (fflush(out) != 0 || ferror(out))
        st = pn_error_set(err, PN_EIO, "cannot write the net: write error");
    igraph_destroy(&g);
    return st;
}

pn_status_t pn_graphml_summary(FILE *in, pn_graph_summary_t *s, pn_error_t *err)
{
    pn_igraph_setup();
    igraph_t g;
    igraph_error_t e = igraph_read_graph_graphml(&g, in, 0);
    if (e != IGRAPH_SUCCESS)
        return pn_error_set(err, PN_ESYNTAX, "igraph could not read GraphML: %s",
                            igraph_strerror(e));
    memset(s, 0, sizeof *s);
    pn_status_t st = PN_OK;
    if (!igraph_cattribute_has_attr(&g, IGRAPH_ATTRIBUTE_VERTEX, "kind") ||
        !igraph_cattribute_has_attr(&g, IGRAPH_ATTRIBUTE_EDGE, "kind") ||
        !igraph_cattribute_has_attr(&g, IGRAPH_ATTRIBUTE_VERTEX, "marking")) {
        st = pn_error_set(err, PN_ESYNTAX, "GraphML lacks the pnsim 'kind'/'marking' attributes");
    } else {
        for (igraph_integer_t v = 0; v < igraph_vcount(&g); v++) {
            const char *k = VAS(&g, "kind", v);
            if (strcmp(k, "place") == 0) {
                s->places++;
                s->tokens += VAN(&g, "marking", v);
            } else {
                s->transitions++;
            }
        }
        for (igraph_integer_t ed = 0; ed < igraph_ecount(&g); ed++) {
            const char *k = EAS(&g, "kind", ed);
            if (strcmp(k, "input") == 0) s->inputs++;
            else if (strcmp(k, "output") == 0) s->outputs++;
            else s->inhibitors++;
        }
    }
    igraph_destroy(&g);
    return st;
}
