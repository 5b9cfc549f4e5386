/* pn_sass_addr.c - what a memory instruction's address depends on (pn_sass_addr.h). */
#include "pn_sass_addr.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One bit per register unit (pn_sass_reg_unit). */
#define N_BITS PN_SASS_REG_UNITS
#define N_WORDS ((N_BITS + 63) / 64)

/* The sources (the PN_SASS_FROM_* bits, in order). */
#define N_SRC 5

/* A state: what each register may carry, per source (cta, load, thread, warp). */
typedef struct state {
    uint64_t w[N_SRC][N_WORDS];
} state_t;

static int get(const state_t *s, int src, int b)
{
    return b >= 0 && (s->w[src][b / 64] >> (b % 64) & 1);
}

static void put(state_t *s, int src, int b)
{
    if (b >= 0)
        s->w[src][b / 64] |= (uint64_t)1 << (b % 64);
}

static void clear(state_t *s, int b)
{
    if (b >= 0)
        for (int src = 0; src < N_SRC; src++)
            s->w[src][b / 64] &= ~((uint64_t)1 << (b % 64));
}

/* The sources register r (all its width) may carry in s, as PN_SASS_FROM_* bits. */
static uint8_t reg_from(const state_t *s, pn_sass_reg_t r)
{
    uint8_t m = 0;
    for (unsigned k = 0; k < r.width; k++)
        for (int src = 0; src < N_SRC; src++)
            if (get(s, src, pn_sass_reg_unit(r.file, r.index + k)))
                m |= (uint8_t)(1 << src);
    return m;
}

/* The registers of op's address: the last "[...]" group of its text (all its
 * groups with all: a cp.async copy's global address and its shared one), each
 * "R<n>" or "UR<n>" (2 wide with ".64"), as bits of one state's source 0
 * (cleared first). Has op an address? */
static bool address_regs(const pn_sass_op_t *op, state_t *regs, bool all)
{
    memset(regs, 0, sizeof *regs);
    const char *open = all ? strchr(op->text, '[') : strrchr(op->text, '['), *close;
    if (!(open && (close = strchr(open, ']'))))
        return false;
    if (all)
        close = strrchr(op->text, ']');
    for (const char *q = open + 1; q < close; q++) {
        if (isalnum((unsigned char)q[-1]) || q[-1] == '_')
            continue;
        pn_sass_file_t f = PN_SASS_R;
        const char *d = q + 1;
        if (q[0] == 'U' && q[1] == 'R')
            f = PN_SASS_UR, d = q + 2;
        else if (q[0] != 'R')
            continue;
        if (!isdigit((unsigned char)*d))
            continue;
        char *end;
        unsigned long idx = strtoul(d, &end, 10);
        pn_sass_reg_t r = { f, (uint16_t)(idx > 255 ? 255 : idx), 1 };
        if (!strncmp(end, ".64", 3))
            r.width = 2;
        for (unsigned k = 0; k < r.width; k++)
            put(regs, 0, pn_sass_reg_unit(r.file, r.index + k));
        q = end - 1;
    }
    return true;
}

int pn_sass_addr_base(const pn_sass_op_t *op)
{
    state_t regs;
    if (!address_regs(op, &regs, false))
        return -1;
    for (int b = 0; b < pn_sass_reg_unit(PN_SASS_P, 0); b++)   /* R and UR units */
        if (get(&regs, 0, b))
            return b;
    return -1;
}

/* The sources op's address registers may carry in s (*has: has it an address). */
static uint8_t address_from(const pn_sass_op_t *op, const state_t *s, bool *has)
{
    state_t regs;
    uint8_t m = 0;
    *has = address_regs(op, &regs, false);
    for (int b = 0; *has && b < N_BITS; b++)
        if (get(&regs, 0, b))
            for (int src = 0; src < N_SRC; src++)
                if (get(s, src, b))
                    m |= (uint8_t)(1 << src);
    return m;
}

/* Does special register text sr ("SR_...") read the same in every warp of a
 * block whose x is at most a warp (the same lanes' SR_TID.X)? */
static bool same_in_warps(const char *sr)
{
    static const char *const same[] = { "SR_TID.X", "SR_LANEID", "SR_EQMASK", "SR_LTMASK",
                                        "SR_LEMASK", "SR_GTMASK", "SR_GEMASK" };
    for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
        size_t l = strlen(same[k]);
        if (!strncmp(sr, same[k], l) && !isalnum((unsigned char)sr[l]) && sr[l] != '.' &&
            sr[l] != '_')
            return true;
    }
    return false;
}

/* The sources op's results carry: those of what it reads (and its guard), the
 * block's index for S2R of SR_CTAID / SR_SMID, a load's for what memory gives,
 * the thread's for any other special register (and the warp's unless it reads
 * alike in every warp of a narrow block: same_in_warps). */
static uint8_t result_from(const pn_sass_op_t *op, const state_t *s)
{
    uint8_t m = 0;
    for (int r = 0; r < op->in.n_reads; r++)
        m |= reg_from(s, op->in.reads[r]);
    if (op->in.guarded)
        m |= reg_from(s, op->in.guard);
    if ((op->in.kind == PN_SASS_S2R || !strncmp(op->in.opcode, "S2UR", 4) ||
         !strncmp(op->in.opcode, "CS2R", 4)) && strstr(op->text, "SR_"))
        m |= strstr(op->text, "SR_CTAID") || strstr(op->text, "SR_SMID") ||
                     strstr(op->text, "SR_CgaCtaId")
                 ? PN_SASS_FROM_CTA
                 : same_in_warps(strstr(op->text, "SR_"))
                     ? PN_SASS_FROM_THREAD | PN_SASS_FROM_LANE
                     : PN_SASS_FROM_THREAD | PN_SASS_FROM_WARP;
    switch (op->in.kind) {
    case PN_SASS_GLOBAL_LD: case PN_SASS_SHARED_LD: case PN_SASS_ATOM_GLOBAL:
    case PN_SASS_ATOM_SHARED:
        m |= PN_SASS_FROM_LOAD;
        break;
    default:
        break;
    }
    return m;
}

/* s after op: its writes carry m (added to what they carried under a guard). */
static void transfer(const pn_sass_op_t *op, state_t *s)
{
    uint8_t m = result_from(op, s);
    for (int r = 0; r < op->in.n_writes; r++) {
        pn_sass_reg_t w = op->in.writes[r];
        for (unsigned k = 0; k < w.width; k++) {
            int b = pn_sass_reg_unit(w.file, w.index + k);
            if (!op->in.guarded)
                clear(s, b);
            for (int src = 0; src < N_SRC; src++)
                if (m >> src & 1)
                    put(s, src, b);
        }
    }
}

/* Merge s into *into; did *into grow? */
static bool merge(state_t *into, const state_t *s)
{
    bool grew = false;
    for (int src = 0; src < N_SRC; src++)
        for (int k = 0; k < N_WORDS; k++) {
            uint64_t v = into->w[src][k] | s->w[src][k];
            grew |= v != into->w[src][k];
            into->w[src][k] = v;
        }
    return grew;
}

/* The data-flow to a fixed point: for every op, what each register may carry
 * on entry (in[i]), and whether a path reaches it (seen[i]). */
static void flow(const pn_sass_prog_t *p, state_t *in, bool *seen, bool *queued, size_t *queue)
{
    size_t n = p->n;
    size_t head = 0, count = 1;
    queue[0] = 0, queued[0] = seen[0] = true;
    while (count) {
        size_t i = queue[head];
        head = (head + 1) % n, count--;
        queued[i] = false;
        const pn_sass_op_t *op = &p->ops[i];
        state_t out = in[i];
        transfer(op, &out);
        size_t succ[2];
        int ns = pn_sass_prog_successors(p, i, succ);
        for (int k = 0; k < ns; k++) {
            size_t j = succ[k];
            if ((merge(&in[j], &out) || !seen[j]) && !queued[j]) {
                queue[(head + count) % n] = j, count++;
                queued[j] = true;
            }
            seen[j] = true;
        }
    }
}

static pn_status_t sources(const pn_sass_prog_t *p, uint8_t *from, uint8_t *guard, int lanes,
                           pn_error_t *err);

pn_status_t pn_sass_addr_sources(const pn_sass_prog_t *p, uint8_t *from, pn_error_t *err)
{
    return sources(p, from, NULL, 0, err);
}

pn_status_t pn_sass_addr_lanes(const pn_sass_prog_t *p, uint8_t *from, uint8_t *guard,
                               pn_error_t *err)
{
    return sources(p, from, guard, 1, err);
}

pn_status_t pn_sass_addr_sources_guards(const pn_sass_prog_t *p, uint8_t *from, uint8_t *guard,
                                        pn_error_t *err)
{
    return sources(p, from, guard, 0, err);
}

/* The three above: lanes 0 leaves PN_SASS_FROM_LANE out of from and guard. */
static pn_status_t sources(const pn_sass_prog_t *p, uint8_t *from, uint8_t *guard, int lanes,
                           pn_error_t *err)
{
    size_t n = p->n;
    if (!n)
        return PN_OK;
    state_t *in = calloc(n, sizeof *in);
    bool *seen = calloc(n, sizeof *seen), *queued = calloc(n, sizeof *queued);
    size_t *queue = malloc(n * sizeof *queue);
    if (!in || !seen || !queued || !queue) {
        free(in), free(seen), free(queued), free(queue);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    flow(p, in, seen, queued, queue);
    const uint8_t keep = lanes ? 0xff : (uint8_t)~PN_SASS_FROM_LANE;
    const uint8_t any = (PN_SASS_FROM_CTA | PN_SASS_FROM_LOAD | PN_SASS_FROM_THREAD |
                         PN_SASS_FROM_WARP | PN_SASS_FROM_LANE) & keep;
    for (size_t i = 0; guard && i < n; i++)
        guard[i] = !p->ops[i].in.guarded ? 0
                   : seen[i]                ? reg_from(&in[i], p->ops[i].in.guard) & keep
                                            : any;
    for (size_t i = 0; i < n; i++) {
        bool has;
        uint8_t m = address_from(&p->ops[i], &in[i], &has);
        /* an instruction no path reaches (a callee the flow missed): anything */
        from[i] = !has ? 0 : seen[i] ? m & keep : any;
    }
    free(in), free(seen), free(queued), free(queue);
    return PN_OK;
}

void pn_sass_addr_invariant(const pn_sass_prog_t *p, uint8_t *inv)
{
    size_t n = p->n;
    memset(inv, 0, n);
    for (size_t j = 0; j < n; j++) {
        const pn_sass_op_t *br = &p->ops[j];
        if (!pn_sass_op_is_branch(br) || br->target < 0 || (size_t)br->target > j)
            continue;
        size_t t = (size_t)br->target;
        /* the registers the loop's body t..j writes (a call in it: any) */
        state_t wr;
        memset(&wr, 0, sizeof wr);
        bool calls = false;
        for (size_t i = t; i <= j; i++) {
            calls |= !strncmp(p->ops[i].in.opcode, "CALL", 4);   /* any callee, any target */
            for (int r = 0; r < p->ops[i].in.n_writes; r++) {
                pn_sass_reg_t w = p->ops[i].in.writes[r];
                for (unsigned k = 0; k < w.width; k++)
                    put(&wr, 0, pn_sass_reg_unit(w.file, w.index + k));
            }
        }
        for (size_t i = t; i <= j && !calls; i++) {
            state_t regs;
            if (!address_regs(&p->ops[i], &regs, true))
                continue;
            bool same = true;
            for (int k = 0; k < N_WORDS; k++)
                same &= (regs.w[0][k] & wr.w[0][k]) == 0;
            inv[i] |= same;
        }
    }
}
