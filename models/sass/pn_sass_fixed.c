/* pn_sass_fixed.c - branches that decide alike at every visit of a warp
 * (pn_sass_fixed.h). */
#include "pn_sass_fixed.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Register units: R0-R255, UR0-UR63, P0-P7, UP0-UP7. */
#define N_UNITS (256 + 64 + 8 + 8)

/* What reaches a register: no definition yet, several, or op i (>= 0). */
#define DEF_NONE (-1)
#define DEF_MANY (-2)

/* The unit of register index i of file f, or -1 past the file's range. */
static int unit_of(pn_sass_file_t f, unsigned i)
{
    static const unsigned base[] = { 0, 256, 320, 328 }, size[] = { 256, 64, 8, 8 };
    return i < size[f] ? (int)(base[f] + i) : -1;
}

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
            int u = unit_of(w.file, w.index + k);
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
            int u = unit_of(op->in.reads[r].file, op->in.reads[r].index + k);
            if (u >= 0)
                out[n++] = u;
        }
    if (op->in.guarded) {
        int u = unit_of(op->in.guard.file, op->in.guard.index);
        if (u >= 0)
            out[n++] = u;
    }
    return n;
}

#define MAX_UNITS (PN_SASS_MAX_READS * 4 + 1)

pn_status_t pn_sass_fixed_guards(const pn_sass_prog_t *p, uint8_t *fixed, pn_error_t *err)
{
    size_t n = p->n, nb = p->n_blocks;
    memset(fixed, 0, n);
    if (!n || !nb || nb > PN_SASS_FIXED_MAX_BLOCKS)
        return PN_OK;
    int32_t *entry = malloc(nb * N_UNITS * sizeof *entry);
    uint32_t *first = malloc(nb * sizeof *first), *queue = malloc(nb * sizeof *queue);
    bool *seen = calloc(nb, sizeof *seen), *queued = calloc(nb, sizeof *queued);
    size_t *ro = malloc((n + 1) * sizeof *ro);
    uint8_t *fx = calloc(n, 1);
    if (!entry || !first || !queue || !seen || !queued || !ro || !fx) {
        free(entry), free(first), free(queue), free(seen), free(queued), free(ro), free(fx);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < nb * N_UNITS; k++)
        entry[k] = DEF_NONE;
    for (size_t i = n; i-- > 0;)
        first[p->ops[i].block] = (uint32_t)i;
    /* the definitions reaching every block's entry */
    int32_t state[N_UNITS];
    size_t head = 0, count = 1;
    uint32_t b0 = (uint32_t)p->ops[0].block;
    queue[0] = b0, queued[b0] = seen[b0] = true;
    while (count) {
        uint32_t b = queue[head];
        head = (head + 1) % nb, count--;
        queued[b] = false;
        memcpy(state, entry + (size_t)b * N_UNITS, sizeof state);
        size_t i = first[b];
        for (; i < n && (uint32_t)p->ops[i].block == b; i++)
            transfer(&p->ops[i], (int32_t)i, state);
        size_t succ[2];
        int ns = pn_sass_prog_successors(p, i - 1, succ);
        for (int s = 0; s < ns; s++) {
            uint32_t t = (uint32_t)p->ops[succ[s]].block;
            int32_t *in = entry + (size_t)t * N_UNITS;
            bool grew = !seen[t];
            for (int u = 0; u < N_UNITS; u++) {
                int32_t v = join(in[u], state[u]);
                grew |= v != in[u];
                in[u] = v;
            }
            seen[t] = true;
            if (grew && !queued[t]) {
                queue[(head + count) % nb] = t, count++;
                queued[t] = true;
            }
        }
    }
    /* per op, what reaches each unit it reads (an op no path reaches: several) */
    size_t total = 0;
    int units[MAX_UNITS];
    for (size_t i = 0; i < n; i++) {
        ro[i] = total;
        total += (size_t)read_units(&p->ops[i], units);
    }
    ro[n] = total;
    int32_t *rd = malloc((total ? total : 1) * sizeof *rd);
    if (!rd) {
        free(entry), free(first), free(queue), free(seen), free(queued), free(ro), free(fx);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    for (uint32_t b = 0; b < nb; b++) {
        memcpy(state, entry + (size_t)b * N_UNITS, sizeof state);
        for (size_t i = first[b]; i < n && (uint32_t)p->ops[i].block == b; i++) {
            int m = read_units(&p->ops[i], units);
            for (int k = 0; k < m; k++)
                rd[ro[i] + (size_t)k] = seen[b] ? state[units[k]] : DEF_MANY;
            transfer(&p->ops[i], (int32_t)i, state);
        }
    }
    /* fixed definitions, grown from those that read nothing defined (a
     * definition that only reaches itself is never fixed): per op the reads
     * still waiting for a fixed definition, per definition the ops reading it */
    uint32_t *wait = calloc(n, sizeof *wait), *users = malloc((total ? total : 1) * sizeof *users);
    size_t *uo = calloc(n + 1, sizeof *uo);
    if (!wait || !users || !uo) {
        free(entry), free(first), free(queue), free(seen), free(queued), free(ro), free(fx);
        free(rd), free(wait), free(users), free(uo);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < total; k++)
        if (rd[k] >= 0)
            uo[rd[k] + 1]++;
    for (size_t i = 0; i < n; i++)
        uo[i + 1] += uo[i];
    size_t *fill = malloc((n ? n : 1) * sizeof *fill), *stack = malloc(n * sizeof *stack), top = 0;
    if (!fill || !stack) {
        free(entry), free(first), free(queue), free(seen), free(queued), free(ro), free(fx);
        free(rd), free(wait), free(users), free(uo), free(fill), free(stack);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    memcpy(fill, uo, n * sizeof *fill);
    for (size_t i = 0; i < n; i++) {
        bool never = varies(&p->ops[i]);
        for (size_t k = ro[i]; k < ro[i + 1]; k++) {
            never |= rd[k] == DEF_MANY;
            if (rd[k] >= 0) {
                users[fill[rd[k]]++] = (uint32_t)i;
                wait[i]++;
            }
        }
        if (never)
            wait[i] = UINT32_MAX;
        else if (!wait[i])
            fx[i] = 1, stack[top++] = i;
    }
    while (top) {
        size_t d = stack[--top];
        for (size_t k = uo[d]; k < uo[d + 1]; k++) {
            uint32_t u = users[k];
            if (wait[u] != UINT32_MAX && --wait[u] == 0)
                fx[u] = 1, stack[top++] = u;
        }
    }
    free(wait), free(users), free(uo), free(fill), free(stack);
    for (size_t i = 0; i < n; i++) {
        const pn_sass_op_t *op = &p->ops[i];
        if (!op->in.guarded || !(pn_sass_op_is_branch(op) || pn_sass_op_is_exit(op)) ||
            ro[i + 1] == ro[i])
            continue;
        int32_t g = rd[ro[i + 1] - 1];   /* the guard, last */
        fixed[i] = g == DEF_NONE || (g >= 0 && fx[g]);
    }
    free(entry), free(first), free(queue), free(seen), free(queued), free(ro), free(fx), free(rd);
    return PN_OK;
}
