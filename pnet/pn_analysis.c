/* pn_analysis.c - structural conflict groups of a net with igraph. */
#include "pn_analysis.h"

#include <igraph.h>
#include <pthread.h>

#include "pn_export.h"

/* Debian's igraph keeps its error state (the "finally stack") in globals:
 * callers on several threads (engines prepared in parallel) take turns. */
static pthread_mutex_t igraph_lock = PTHREAD_MUTEX_INITIALIZER;

static pn_status_t conflict_groups(const pn_net_t *net, uint32_t *group, uint32_t *group_size,
                                   uint32_t *n_groups, pn_error_t *err);

pn_status_t pn_net_conflict_groups(const pn_net_t *net, uint32_t *group, uint32_t *group_size,
                                   uint32_t *n_groups, pn_error_t *err)
{
    if (!net->frozen)
        return pn_error_set(err, PN_EINVAL, "conflict groups need a frozen net");
    pthread_mutex_lock(&igraph_lock);
    pn_status_t st = conflict_groups(net, group, group_size, n_groups, err);
    pthread_mutex_unlock(&igraph_lock);
    return st;
}

static pn_status_t conflict_groups(const pn_net_t *net, uint32_t *group, uint32_t *group_size,
                                   uint32_t *n_groups, pn_error_t *err)
{
    pn_igraph_setup();
    igraph_vector_int_t edges, membership;
    igraph_t g;
    igraph_integer_t no = 0;
    igraph_error_t e = igraph_vector_int_init(&edges, 0);
    if (e != IGRAPH_SUCCESS)
        return pn_error_set(err, PN_ENOMEM, "out of memory for conflict groups");
    /* a star per shared place: its first consumer joined to every other one */
    for (uint32_t p = 0; p < net->n_places && e == IGRAPH_SUCCESS; p++)
        for (uint32_t i = net->cons_off[p] + 1; i < net->cons_off[p + 1] && e == IGRAPH_SUCCESS; i++) {
            e = igraph_vector_int_push_back(&edges, net->cons[net->cons_off[p]]);
            if (e == IGRAPH_SUCCESS)
                e = igraph_vector_int_push_back(&edges, net->cons[i]);
        }
    int have_graph = 0, have_memb = 0;
    if (e == IGRAPH_SUCCESS) {
        e = igraph_create(&g, &edges, net->n_trans, IGRAPH_UNDIRECTED);
        have_graph = e == IGRAPH_SUCCESS;
    }
    if (e == IGRAPH_SUCCESS) {
        e = igraph_vector_int_init(&membership, 0);
        have_memb = e == IGRAPH_SUCCESS;
    }
    if (e == IGRAPH_SUCCESS)
        e = igraph_connected_components(&g, &membership, NULL, &no, IGRAPH_WEAK);
    pn_status_t st = PN_OK;
    if (e != IGRAPH_SUCCESS) {
        st = pn_error_set(err, e == IGRAPH_ENOMEM ? PN_ENOMEM : PN_EEXTERNAL,
                          "igraph failed to find conflict groups: %s", igraph_strerror(e));
    } else {
        /* igraph numbers components in order of first vertex already */
        for (uint32_t t = 0; t < net->n_trans; t++)
            group[t] = (uint32_t)VECTOR(membership)[t];
        if (group_size) {
            for (uint32_t k = 0; k < (uint32_t)no; k++)
                group_size[k] = 0;
            for (uint32_t t = 0; t < net->n_trans; t++)
                group_size[group[t]]++;
        }
        *n_groups = (uint32_t)no;
    }
    if (have_memb)
        igraph_vector_int_destroy(&membership);
    if (have_graph)
        igraph_destroy(&g);
    igraph_vector_int_destroy(&edges);
    return st;
}
