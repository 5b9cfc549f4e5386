/* pn_sass_fixed.c - branches that decide alike at every visit of a warp
 * (pn_sass_fixed.h). */
#include "pn_sass_fixed.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define N_UNITS PN_SASS_REG_UNITS

/* What reaches a register: no definition yet, several, or op i (>= 0). */
#define DEF_NONE (-1)
#define DEF_MANY (-2)

static int32_t join(int32_t a, int32_t b)
{
    if (a == b || b == DEF_NONE)
        return a;
    return a == DEF_NONE ? b : DEF_MANY;
}

/* state after op i: its writes are reached by i alone; a guarded write keeps
 * what reached before as well. */
static void transfer(const pn_sass_op_t *op, int32_t i, int32_t *state)
{
    for (int r = 0; r < op->in.n_writes; r++) {
        pn_sass_reg_t w = op->in.writes[r];
        for (unsigned k = 0; k < w.width; k++) {
            int u = pn_sass_reg_unit(w.file, w.index + k);
            if (u >= 0)
                state[u] = op->in.guarded ? join(state[u], i) : i;
        }
    }
}

/* Does op's result change from visit to visit whatever it reads: memory
 * (loads, atomics, texture, surface, local), the clocks. */
static bool varies(const pn_sass_op_t *op)
{
    switch (op->in.kind) {
    case PN_SASS_GLOBAL_LD: case PN_SASS_SHARED_LD: case PN_SASS_ATOM_GLOBAL:
    case PN_SASS_ATOM_SHARED:
        return true;
    default:
        break;
    }
    return pn_sass_op_is_local(op) || pn_sass_op_is_texture(op) ||
           !strncmp(op->in.opcode, "SULD", 4) || strstr(op->text, "SR_CLOCK") ||
           strstr(op->text, "SR_GLOBALTIMER");
}

/* The units op reads, its guard last; returns how many (at most out's size). */
static int read_units(const pn_sass_op_t *op, int *out)
{
    int n = 0;
    for (int r = 0; r < op->in.n_reads; r++)
        for (unsigned k = 0; k < op->in.reads[r].width; k++) {
            int u = pn_sass_reg_unit(op->in.reads[r].file, op->in.reads[r].index + k);
            if (u >= 0)
                out[n++] = u;
        }
    if (op->in.guarded) {
        int u = pn_sass_reg_unit(op->in.guard.file, op->in.guard.index);
        if (u >= 0)
            out[n++] = u;
    }
    return n;
}

#define MAX_UNITS (PN_SASS_MAX_READS * 4 + 1)

/* The scratch of one analysis: nb blocks, n ops, `total` register reads. */
typedef struct scratch {
    int32_t *entry;               /* per block and unit: what reaches the block's entry */
    uint32_t *first, *queue;      /* per block: its first op; the work list */
    bool *seen, *queued;          /* per block: reached; in the work list */
    size_t *ro;                   /* per op: its reads' offset in rd (n + 1) */
    int32_t *rd;                  /* per read: what reaches it */
    uint8_t *fx;                  /* per op: a fixed definition */
    uint32_t *wait, *users;       /* per op: reads waiting; per read: the op reading */
    size_t *uo, *fill, *stack;    /* per op: its readers' offset in users (n + 1), ... */
} scratch_t;

static void scratch_free(scratch_t *w)
{
    free(w->entry), free(w->first), free(w->queue), free(w->seen), free(w->queued);
    free(w->ro), free(w->rd), free(w->fx), free(w->wait), free(w->users), free(w->uo);
    free(w->fill), free(w->stack);
}

/* The definitions reaching every block's entry, from the first op's block on
 * a work list of blocks until nothing grows (w->entry, w->seen). */
static void block_entries(const pn_sass_prog_t *p, scratch_t *w)
{
    size_t n = p->n, nb = p->n_blocks, head = 0, count = 1;
    int32_t state[N_UNITS];
    uint32_t b0 = (uint32_t)p->ops[0].block;
    w->queue[0] = b0, w->queued[b0] = w->seen[b0] = true;
    while (count) {
        uint32_t b = w->queue[head];
        head = (head + 1) % nb, count--;
        w->queued[b] = false;
        memcpy(state, w->entry + (size_t)b * N_UNITS, sizeof state);
        size_t i = w->first[b];
        for (; i < n && (uint32_t)p->ops[i].block == b; i++)
            transfer(&p->ops[i], (int32_t)i, state);
        size_t succ[2];
        int ns = pn_sass_prog_successors(p, i - 1, succ);
        for (int k = 0; k < ns; k++) {
            uint32_t t = (uint32_t)p->ops[succ[k]].block;
            int32_t *in = w->entry + (size_t)t * N_UNITS;
            bool grew = !w->seen[t];
            for (int u = 0; u < N_UNITS; u++) {
                int32_t v = join(in[u], state[u]);
                grew |= v != in[u];
                in[u] = v;
            }
            w->seen[t] = true;
            if (grew && !w->queued[t]) {
                w->queue[(head + count) % nb] = t, count++;
                w->queued[t] = true;
            }
        }
    }
}

/* Per op, what reaches each unit it reads (w->rd; an op no path reaches:
 * several), replaying each block from its entry. */
static void reaching_reads(const pn_sass_prog_t *p, scratch_t *w)
{
    int32_t state[N_UNITS];
    int units[MAX_UNITS];
    for (uint32_t b = 0; b < p->n_blocks; b++) {
        memcpy(state, w->entry + (size_t)b * N_UNITS, sizeof state);
        for (size_t i = w->first[b]; i < p->n && (uint32_t)p->ops[i].block == b; i++) {
            int m = read_units(&p->ops[i], units);
            for (int k = 0; k < m; k++)
                w->rd[w->ro[i] + (size_t)k] = w->seen[b] ? state[units[k]] : DEF_MANY;
            transfer(&p->ops[i], (int32_t)i, state);
        }
    }
}

/* The fixed definitions (w->fx), grown from those that read nothing defined
 * (a definition that only reaches itself is never fixed): per op the reads
 * still waiting for a fixed definition, per definition the ops reading it. */
static void fixed_defs(const pn_sass_prog_t *p, scratch_t *w, size_t total)
{
    size_t n = p->n, top = 0;
    for (size_t k = 0; k < total; k++)
        if (w->rd[k] >= 0)
            w->uo[w->rd[k] + 1]++;
    for (size_t i = 0; i < n; i++)
        w->uo[i + 1] += w->uo[i];
    memcpy(w->fill, w->uo, n * sizeof *w->fill);
    for (size_t i = 0; i < n; i++) {
        bool never = varies(&p->ops[i]);
        for (size_t k = w->ro[i]; k < w->ro[i + 1]; k++) {
            never |= w->rd[k] == DEF_MANY;
            if (w->rd[k] >= 0) {
                w->users[w->fill[w->rd[k]]++] = (uint32_t)i;
                w->wait[i]++;
            }
        }
        if (never)
            w->wait[i] = UINT32_MAX;
        else if (!w->wait[i])
            w->fx[i] = 1, w->stack[top++] = i;
    }
    while (top) {
        size_t d = w->stack[--top];
        for (size_t k = w->uo[d]; k < w->uo[d + 1]; k++) {
            uint32_t u = w->users[k];
            if (w->wait[u] != UINT32_MAX && --w->wait[u] == 0)
                w->fx[u] = 1, w->stack[top++] = u;
        }
    }
}

pn_status_t pn_sass_fixed_guards(const pn_sass_prog_t *p, uint8_t *fixed, pn_error_t *err)
{
    size_t n = p->n, nb = p->n_blocks;
    memset(fixed, 0, n);
    if (!n || !nb || nb > PN_SASS_FIXED_MAX_BLOCKS)
        return PN_OK;
    scratch_t w = { 0 };
    w.ro = malloc((n + 1) * sizeof *w.ro);
    if (!w.ro)
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    size_t total = 0;
    int units[MAX_UNITS];
    for (size_t i = 0; i < n; i++) {
        w.ro[i] = total;
        total += (size_t)read_units(&p->ops[i], units);
    }
    w.ro[n] = total;
    size_t t1 = total ? total : 1;
    w.entry = malloc(nb * N_UNITS * sizeof *w.entry);
    w.first = malloc(nb * sizeof *w.first), w.queue = malloc(nb * sizeof *w.queue);
    w.seen = calloc(nb, sizeof *w.seen), w.queued = calloc(nb, sizeof *w.queued);
    w.rd = malloc(t1 * sizeof *w.rd), w.fx = calloc(n, 1);
    w.wait = calloc(n, sizeof *w.wait), w.users = malloc(t1 * sizeof *w.users);
    w.uo = calloc(n + 1, sizeof *w.uo), w.fill = malloc(n * sizeof *w.fill);
    w.stack = malloc(n * sizeof *w.stack);
    if (!w.entry || !w.first || !w.queue || !w.seen || !w.queued || !w.rd || !w.fx || !w.wait ||
        !w.users || !w.uo || !w.fill || !w.stack) {
        scratch_free(&w);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < nb * N_UNITS; k++)
        w.entry[k] = DEF_NONE;
    for (size_t i = n; i-- > 0;)
        w.first[p->ops[i].block] = (uint32_t)i;
    block_entries(p, &w);
    reaching_reads(p, &w);
    fixed_defs(p, &w, total);
    for (size_t i = 0; i < n; i++) {
        const pn_sass_op_t *op = &p->ops[i];
        if (!op->in.guarded || !(pn_sass_op_is_branch(op) || pn_sass_op_is_exit(op)) ||
            w.ro[i + 1] == w.ro[i])
            continue;
        int32_t g = w.rd[w.ro[i + 1] - 1];   /* the guard, last */
        fixed[i] = g == DEF_NONE || (g >= 0 && w.fx[g]);
    }
    scratch_free(&w);
    return PN_OK;
}
