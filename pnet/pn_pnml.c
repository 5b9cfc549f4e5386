/* pn_pnml.c - PNML output with libxml2's text writer; a reader that counts. */
#include "pn_pnml.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlwriter.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#define PNML_NS "http://www.pnml.org/version-2009/grammar/pnml"
#define PTNET "http://www.pnml.org/version-2009/grammar/ptnet"

/* <tag><text>value</text></tag> */
static int text_element(xmlTextWriterPtr w, const char *tag, const char *value)
{
    return xmlTextWriterStartElement(w, BAD_CAST tag) < 0 ||
           xmlTextWriterWriteElement(w, BAD_CAST "text", BAD_CAST value) < 0 ||
           xmlTextWriterEndElement(w) < 0;
}

/* One <arc>; kind 0 input (place -> t), 1 output (t -> place), 2 inhibitor. */
static int write_arc(xmlTextWriterPtr w, const pn_net_t *net, uint32_t t, uint32_t p,
                     uint32_t weight, int kind)
{
    static const char *const kind_name[] = { "in", "out", "inh" };
    const char *src = kind == 1 ? net->trans_name[t] : net->place_name[p];
    const char *dst = kind == 1 ? net->place_name[p] : net->trans_name[t];
    char id[512], wbuf[16];
    snprintf(id, sizeof id, "%s-%s-%s", kind_name[kind], net->trans_name[t], net->place_name[p]);
    snprintf(wbuf, sizeof wbuf, "%" PRIu32, weight);
    int bad = xmlTextWriterStartElement(w, BAD_CAST "arc") < 0 ||
              xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST id) < 0 ||
              xmlTextWriterWriteAttribute(w, BAD_CAST "source", BAD_CAST src) < 0 ||
              xmlTextWriterWriteAttribute(w, BAD_CAST "target", BAD_CAST dst) < 0;
    if (!bad && kind != 2)
        bad = text_element(w, "inscription", wbuf);
    if (!bad && kind == 2)
        bad = xmlTextWriterStartElement(w, BAD_CAST "type") < 0 ||
              xmlTextWriterWriteAttribute(w, BAD_CAST "value", BAD_CAST "inhibitor") < 0 ||
              xmlTextWriterEndElement(w) < 0;
    return bad || xmlTextWriterEndElement(w) < 0;
}

static int write_net(xmlTextWriterPtr w, const pn_net_t *net)
{
    char buf[32];
    if (xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ||
        xmlTextWriterSetIndent(w, 1) < 0 ||
        xmlTextWriterStartElement(w, BAD_CAST "pnml") < 0 ||
        xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns", BAD_CAST PNML_NS) < 0 ||
        xmlTextWriterStartElement(w, BAD_CAST "net") < 0 ||
        xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "pnsim") < 0 ||
        xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST PTNET) < 0 ||
        xmlTextWriterStartElement(w, BAD_CAST "page") < 0 ||
        xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "page") < 0)
        return 1;
    for (uint32_t p = 0; p < net->n_places; p++) {
        snprintf(buf, sizeof buf, "%" PRIu64, net->m0[p]);
        if (xmlTextWriterStartElement(w, BAD_CAST "place") < 0 ||
            xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST net->place_name[p]) < 0 ||
            text_element(w, "name", net->place_name[p]) ||
            (net->m0[p] && text_element(w, "initialMarking", buf)) ||
            xmlTextWriterEndElement(w) < 0)
            return 1;
    }
    for (uint32_t t = 0; t < net->n_trans; t++)
        if (xmlTextWriterStartElement(w, BAD_CAST "transition") < 0 ||
            xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST net->trans_name[t]) < 0 ||
            text_element(w, "name", net->trans_name[t]) || xmlTextWriterEndElement(w) < 0)
            return 1;
    for (uint32_t t = 0; t < net->n_trans; t++) {
        for (uint32_t i = net->in_off[t]; i < net->in_off[t + 1]; i++)
            if (write_arc(w, net, t, net->in[i].place, net->in[i].weight, 0))
                return 1;
        for (uint32_t i = net->out_off[t]; i < net->out_off[t + 1]; i++)
            if (write_arc(w, net, t, net->out[i].place, net->out[i].weight, 1))
                return 1;
        for (uint32_t i = net->inh_off[t]; i < net->inh_off[t + 1]; i++)
            if (write_arc(w, net, t, net->inh[i], 1, 2))
                return 1;
    }
    return xmlTextWriterEndDocument(w) < 0;
}

pn_status_t pn_net_write_pnml(const pn_net_t *net, FILE *out, pn_error_t *err)
{
    if (!net->frozen)
        return pn_error_set(err, PN_EINVAL, "cannot export a net that is not frozen");
    xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(out, NULL);
    xmlTextWriterPtr w = buf ? xmlNewTextWriter(buf) : NULL;   /* w owns buf */
    if (!w) {
        if (buf)
            xmlOutputBufferClose(buf);
        return pn_error_set(err, PN_EEXTERNAL, "libxml2 could not start a PNML writer");
    }
    int bad = write_net(w, net);
    xmlFreeTextWriter(w);
    if (bad)
        return pn_error_set(err, PN_EEXTERNAL, "libxml2 failed to write PNML");
    if (fflush(out) != 0 || ferror(out))
        return pn_error_set(err, PN_EIO, "cannot write the net: write error");
    return PN_OK;
}

/* Number of nodes an XPath expression selects (-1 on error). */
static long count(xmlXPathContextPtr ctx, const char *expr)
{
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    long n = r && r->nodesetval ? r->nodesetval->nodeNr : r ? 0 : -1;
    xmlXPathFreeObject(r);
    return n;
}

pn_status_t pn_pnml_summary(FILE *in, pn_graph_summary_t *s, pn_error_t *err)
{
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[8192];
    while ((got = fread(chunk, 1, sizeof chunk, in)) > 0) {
        if (len + got > cap) {
            cap = (len + got) * 2;
            char *q = realloc(text, cap);
            if (!q) {
                free(text);
                return pn_error_set(err, PN_ENOMEM, "out of memory reading PNML");
            }
            text = q;
        }
        memcpy(text + len, chunk, got);
        len += got;
    }
    xmlDocPtr doc = len ? xmlReadMemory(text, (int)len, "pnml", NULL,
                                        XML_PARSE_NONET | XML_PARSE_NOERROR |
                                        XML_PARSE_NOWARNING) : NULL;
    free(text);
    if (!doc)
        return pn_error_set(err, PN_ESYNTAX, "libxml2 could not parse the PNML");
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    pn_status_t st = PN_OK;
    memset(s, 0, sizeof *s);
    if (!ctx || xmlXPathRegisterNs(ctx, BAD_CAST "p", BAD_CAST PNML_NS) != 0) {
        st = pn_error_set(err, PN_EEXTERNAL, "libxml2 could not evaluate XPath");
    } else {
        s->places = count(ctx, "//p:place");
        s->transitions = count(ctx, "//p:transition");
        s->inhibitors = count(ctx, "//p:arc[p:type/@value='inhibitor']");
        s->inputs = count(ctx, "//p:arc[not(p:type) and @source = //p:place/@id]");
        s->outputs = count(ctx, "//p:arc[not(p:type) and @target = //p:place/@id]");
        xmlXPathObjectPtr r = xmlXPathEvalExpression(
            BAD_CAST "sum(//p:place/p:initialMarking/p:text)", ctx);
        s->tokens = r ? r->floatval : -1;
        xmlXPathFreeObject(r);
        if (s->places <= 0 || s->transitions < 0 || s->inputs < 0 || s->outputs < 0 ||
            s->inhibitors < 0 || s->tokens < 0)
            st = pn_error_set(err, PN_ESYNTAX, "not a PNML P/T net with places");
    }
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return st;
}
