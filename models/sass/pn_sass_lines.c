/* pn_sass_lines.c - loads of a line already in flight (pn_sass_lines.h). */
#include "pn_sass_lines.h"

#include <stdlib.h>
#include <string.h>

/* The address operand of a memory instruction's text: the last "[...]"
 * group, split into its registers (*base, *blen: the text before a '+' or
 * '-' offset) and its immediate offset. 0 when there is none. */
static int address_of(const char *text, const char **base, size_t *blen, long *off)
{
    const char *open = strrchr(text, '['), *close;
    if (!open || !(close = strchr(open, ']')))
        return 0;
    const char *p = open + 1, *sign = NULL;
    for (const char *q = p; q < close; q++)
        if ((*q == '+' || *q == '-') && q > p)
            sign = q;
    *base = p;
    *blen = (size_t)((sign ? sign : close) - p);
    *off = 0;
    if (sign) {
        char *end;
        long v = strtol(sign + 1, &end, 16);
        if (end != close)
            return 0; /* an offset register, not an immediate */
        *off = *sign == '-' ? -v : v;
    }
    return 1;
}

static int overlaps(pn_sass_reg_t a, pn_sass_reg_t b)
{
    return a.file == b.file && a.index < b.index + b.width && b.index < a.index + a.width;
}

/* Does op w write a register op r reads? */
static int clobbers(const pn_sass_op_t *w, const pn_sass_op_t *r)
{
    for (int i = 0; i < w->in.n_writes; i++)
        for (int j = 0; j < r->in.n_reads; j++)
            if (overlaps(w->in.writes[i], r->in.reads[j]))
                return 1;
    return 0;
}

/* Is op one of kind k that leaders group: any of the kind, or (global 0) not
 * a local access? */
static int grouped(const pn_sass_op_t *op, pn_sass_kind_t k, int local)
{
    return op->in.kind == k && !op->in.guarded && (local || !pn_sass_op_is_local(op));
}

/* The ops of kind k leaders group, local accesses too where `local`
 * (pn_sass_line_leaders, pn_sass_store_leaders). */
static uint32_t leaders_of(const pn_sass_prog_t *p, int32_t *leader, pn_sass_kind_t k, int local)
{
    uint32_t n = 0;
    for (size_t i = 0; i < p->n; i++) {
        leader[i] = -1;
        const pn_sass_op_t *op = &p->ops[i];
        const char *b;
        size_t bl;
        long off;
        if (!grouped(op, k, local) || !address_of(op->text, &b, &bl, &off))
            continue;
        for (size_t j = i; j-- > 0;) {
            const pn_sass_op_t *q = &p->ops[j];
            if (q->block != op->block || clobbers(q, op))
                break;
            const char *qb;
            size_t qbl;
            long qoff;
            if (!grouped(q, k, local) || !address_of(q->text, &qb, &qbl, &qoff))
                continue;
            if (qbl == bl && !strncmp(qb, b, bl) && qoff / 128 == off / 128 &&
                (qoff < 0) == (off < 0)) {
                leader[i] = leader[j] >= 0 ? leader[j] : (int32_t)j;
                n++;
                break;
            }
        }
    }
    return n;
}

uint32_t pn_sass_line_leaders(const pn_sass_prog_t *p, int32_t *leader)
{
    return leaders_of(p, leader, PN_SASS_GLOBAL_LD, 1);
}

uint32_t pn_sass_store_leaders(const pn_sass_prog_t *p, int32_t *leader)
{
    return leaders_of(p, leader, PN_SASS_GLOBAL_ST, 0);
}
