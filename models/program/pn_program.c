/* pn_program.c - a warp's program in program order: segments {repeat,
 * body}, their items, the counts they imply, and their text form. */
#include "pn_program.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* ---- programs ------------------------------------------------------------ */

static const char *const kind_names[PN_PROGRAM_KINDS] = {
    "arith", "shared", "global", "sync", "sfu", "shared_st", "global_st"
};

unsigned pn_program_paper_kind(unsigned k)
{
    switch (k) {
    case PN_PROGRAM_SFU:       return PN_KIND_ARITH;
    case PN_PROGRAM_SHARED_ST: return PN_KIND_SHARED;
    case PN_PROGRAM_GLOBAL_ST: return PN_KIND_GLOBAL;
    default:                   return k;
    }
}

const char *pn_program_kind_name(unsigned k)
{
    return k < PN_PROGRAM_KINDS ? kind_names[k] : "?";
}

uint64_t pn_program_syncs(const pn_program_t *p)
{
    uint64_t n = 0;
    for (uint32_t j = 0; j < p->n_segs; j++)
        for (uint32_t i = 0; i < p->segs[j].n_body; i++)
            n += p->segs[j].body[i].kind == PN_PROGRAM_SYNC ? p->segs[j].repeat : 0;
    return n;
}

void pn_program_init(pn_program_t *p)
{
    memset(p, 0, sizeof *p);
}

void pn_program_destroy(pn_program_t *p)
{
    if (!p)
        return;
    for (uint32_t j = 0; j < p->n_segs; j++)
        free(p->segs[j].body);
    free(p->segs);
    memset(p, 0, sizeof *p);
}

pn_status_t pn_program_add_segment(pn_program_t *p, uint64_t repeat,
                                   const pn_program_item_t *body, uint32_t n,
                                   pn_error_t *err)
{
    if (!p || (n && !body))
        return pn_error_set(err, PN_EINVAL, "pn_program_add_segment: NULL argument");
    if (n == 0)
        return pn_error_set(err, PN_EINVAL, "a program segment needs at least one instruction");
    if (repeat > PN_SM_MAX_COUNT)
        return pn_error_set(err, PN_EINVAL, "a segment's repeat must be at most %" PRIu64
                            ", got %" PRIu64, (uint64_t)PN_SM_MAX_COUNT, repeat);
    for (uint32_t i = 0; i < n; i++) {
        if (body[i].kind >= PN_PROGRAM_KINDS)
            return pn_error_set(err, PN_EINVAL, "unknown instruction kind %u", body[i].kind);
        if (body[i].mult < 1)
            return pn_error_set(err, PN_EINVAL, "an instruction's multiplier must be at "
                                "least 1, got 0");
        if (body[i].kind == PN_PROGRAM_SYNC && body[i].mult != 1)
            return pn_error_set(err, PN_EINVAL, "sync takes no multiplier");
    }
    if (p->n_segs == UINT32_MAX)
        return pn_error_set(err, PN_ELIMIT, "too many program segments");
    if (p->n_segs == p->cap) {
        uint32_t cap = p->cap ? (p->cap < UINT32_MAX / 2 ? 2 * p->cap : UINT32_MAX) : 4;
        pn_program_seg_t *s = realloc(p->segs, (size_t)cap * sizeof *s);
        if (!s)
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        p->segs = s;
        p->cap = cap;
    }
    pn_program_item_t *b = malloc((size_t)n * sizeof *b);
    if (!b)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    memcpy(b, body, (size_t)n * sizeof *b);
    p->segs[p->n_segs++] = (pn_program_seg_t){ repeat, b, n };
    return PN_OK;
}

pn_status_t pn_program_kind_counts(const pn_program_t *p, uint64_t n[PN_PROGRAM_KINDS],
                                   pn_error_t *err)
{
    memset(n, 0, PN_PROGRAM_KINDS * sizeof *n);
    for (uint32_t j = 0; j < p->n_segs; j++) {
        const pn_program_seg_t *s = &p->segs[j];
        uint64_t per[PN_PROGRAM_KINDS] = {0};
        if (s->repeat == 0)
            continue;
        /* n_body < 2^32 items of at most 2^32 each: no overflow in 64 bits */
        for (uint32_t i = 0; i < s->n_body; i++)
            if (s->body[i].kind < PN_PROGRAM_KINDS)
                per[s->body[i].kind] += s->body[i].mult;
        for (int k = 0; k < PN_PROGRAM_KINDS; k++) {
            if (per[k] && (per[k] > PN_SM_MAX_COUNT / s->repeat ||
                           n[k] + per[k] * s->repeat > PN_SM_MAX_COUNT))
                return pn_error_set(err, PN_ELIMIT, "the program runs more than %" PRIu64
                                    " %s instructions", (uint64_t)PN_SM_MAX_COUNT,
                                    kind_names[k]);
            n[k] += per[k] * s->repeat;
        }
    }
    return PN_OK;
}

pn_status_t pn_program_counts(const pn_program_t *p, pn_warp_counts_t *out, pn_error_t *err)
{
    uint64_t n[PN_PROGRAM_KINDS];
    PN_CHECK(pn_program_kind_counts(p, n, err));
    uint64_t sum[PN_KIND_COUNT] = { 0 };
    for (unsigned k = 0; k < PN_PROGRAM_KINDS; k++)
        if (k != PN_PROGRAM_SYNC)
            sum[pn_program_paper_kind(k)] += n[k];   /* each below 2^32: no overflow */
    for (int k = 0; k < PN_KIND_COUNT; k++)
        if (sum[k] > PN_SM_MAX_COUNT)
            return pn_error_set(err, PN_ELIMIT, "the program runs more than %" PRIu64
                                " %s instructions", (uint64_t)PN_SM_MAX_COUNT, kind_names[k]);
    out->arith = sum[0];
    out->shared = sum[1];
    out->global = sum[2];
    return PN_OK;
}

/* What an item may be, for the parser's messages. */
#define KINDS_EXPECTED "arith, shared, global, sfu, shared_st or global_st, optionally " \
    "followed by *K, or sync)"

pn_status_t pn_program_parse_item(const char *s, size_t len, pn_program_item_t *out,
                                  pn_error_t *err)
{
    char snip[48];
    size_t i = 0, n;
    int kind = -1;
    snprintf(snip, sizeof snip, "%.*s%s", (int)(len > 40 ? 40 : len), s, len > 40 ? "..." : "");
    for (size_t c = 0; c < strlen(snip); c++)
        if ((unsigned char)snip[c] < 0x20 || (unsigned char)snip[c] >= 0x7F)
            snip[c] = '?';
    while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
                       s[i] == '_' || (i > 0 && s[i] >= '0' && s[i] <= '9')))
        i++;
    for (int k = 0; k < PN_PROGRAM_KINDS; k++)
        if (k != PN_PROGRAM_SYNC && i == strlen(kind_names[k]) && !memcmp(s, kind_names[k], i))
            kind = k;
    if (i == 4 && !memcmp(s, "sync", 4)) {
        size_t e = i;
        while (e < len && s[e] == ' ')
            e++;
        if (e != len)
            return pn_error_set(err, PN_EINVAL, "unexpected text after sync in '%s' (a barrier "
                                "takes no multiplier)", snip);
        out->kind = PN_PROGRAM_SYNC;
        out->mult = 1;
        return PN_OK;
    }
    if (kind < 0) {
        n = i ? i : (len ? 1 : 0);
        if (n == len)
            return pn_error_set(err, PN_EINVAL, "unknown instruction kind '%s' (expected "
                                KINDS_EXPECTED, snip);
        return pn_error_set(err, PN_EINVAL, "unknown instruction kind '%.*s' in '%s' (expected "
                            KINDS_EXPECTED,
                            (int)(n > 40 ? 40 : n), snip, snip);
    }
    out->kind = (uint8_t)kind;
    out->mult = 1;
    while (i < len && s[i] == ' ')
        i++;
    if (i == len)
        return PN_OK;
    if (s[i] != '*')
        return pn_error_set(err, PN_EINVAL, "unexpected '%c' after the kind in '%s' (expected "
                            "a multiplier *K, K an integer between 1 and %" PRIu64 ")",
                            (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7F ? s[i] : '?',
                            snip, (uint64_t)PN_PROGRAM_MAX_MULT);
    i++;
    while (i < len && s[i] == ' ')
        i++;
    uint64_t v = 0;
    size_t d0 = i;
    while (i < len && s[i] >= '0' && s[i] <= '9' && v <= PN_PROGRAM_MAX_MULT)
        v = v * 10 + (uint64_t)(s[i++] - '0');
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    if (i == d0 || i != len || v < 1 || v > PN_PROGRAM_MAX_MULT)
        return pn_error_set(err, PN_EINVAL, "bad multiplier in '%s': expected *K with K an "
                            "integer literal between 1 and %" PRIu64, snip,
                            (uint64_t)PN_PROGRAM_MAX_MULT);
    out->mult = (uint32_t)v;
    return PN_OK;
}

void pn_program_warp_size(const pn_program_t *p, uint32_t *places, uint32_t *transitions)
{
    uint64_t extra = 0;
    for (uint32_t j = 0; j < p->n_segs; j++) {
        if (p->segs[j].repeat == 0)
            continue;
        extra += (uint64_t)p->segs[j].n_body + 1;
        for (uint32_t i = 0; i < p->segs[j].n_body; i++)
            extra += p->segs[j].body[i].mult >= 2 || p->segs[j].body[i].kind == PN_PROGRAM_SYNC;
    }
    if (extra > UINT32_MAX - 16)
        extra = UINT32_MAX - 16;
    if (places)
        *places = 16 + (uint32_t)extra;
    if (transitions)
        *transitions = 12 + (uint32_t)extra;
}

/* Is every segment of prog repeated 0 times (the warp runs nothing)? */
int pn_program_is_empty(const pn_program_t *prog)
{
    for (uint32_t j = 0; j < prog->n_segs; j++)
        if (prog->segs[j].repeat > 0)
            return 0;
    return 1;
}

char *pn_program_format(const pn_program_t *p, char *buf, size_t size)
{
    size_t o = 0;
    int full = 0;
    char item[96];
#define PUT(s)                                                   \
    do {                                                         \
        size_t l_ = strlen(s);                                   \
        if (o + l_ + 4 >= size) { full = 1; goto out; }          \
        memcpy(buf + o, s, l_);                                  \
        o += l_;                                                 \
    } while (0)
    PUT("[");
    for (uint32_t j = 0; j < p->n_segs; j++) {
        snprintf(item, sizeof item, "%s{repeat: %" PRIu64 ", body: [", j ? ", " : "",
                 p->segs[j].repeat);
        PUT(item);
        for (uint32_t i = 0; i < p->segs[j].n_body; i++) {
            const pn_program_item_t *it = &p->segs[j].body[i];
            if (it->mult == 1)
                snprintf(item, sizeof item, "%s%s", i ? ", " : "", pn_program_kind_name(it->kind));
            else
                snprintf(item, sizeof item, "%s%s*%u", i ? ", " : "", pn_program_kind_name(it->kind),
                         it->mult);
            PUT(item);
        }
        PUT("]}");
    }
    PUT("]");
out:
#undef PUT
    /* PUT keeps o + 4 < size */
    memcpy(buf + o, full ? "..." : "", full ? 4 : 1);
    return buf;
}
