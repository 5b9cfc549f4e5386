/* pn_sass_plan.c - branch totals and per-warp paths of a SASS program. */
#include "pn_sass_plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_sass_addr.h"
#include "pn_sass_fixed.h"
#include "pn_sass_lines.h"

void pn_sass_plan_destroy(pn_sass_plan_t *pl)
{
    if (!pl)
        return;
    free(pl->branches);
    free(pl->branch_of);
    free(pl->visits);
    free(pl->heavy);
    free(pl->both);
    free(pl->loads);
    free(pl->leader);
    free(pl->reuse);
    free(pl->reuse_loads);
    free(pl->insts);
    free(pl->op_execs);
    memset(pl, 0, sizeof *pl);
}

/* An edge of the control-flow graph between basic blocks. */
typedef struct edge {
    int32_t from, to;             /* blocks; to -1: leaves the kernel */
    double value;                 /* NAN: unknown */
} edge_t;

/* A branch some of whose executions fall through: a guarded one, a BRA.DIV
 * (taken where the warp has diverged) and a WARPSYNC.COLLECTIVE (where the
 * collective's emulation goes on). */
static int is_cond(const pn_sass_op_t *op)
{
    return (op->in.guarded && (pn_sass_op_is_branch(op) || pn_sass_op_is_exit(op))) ||
           (pn_sass_op_is_branch(op) && (strstr(op->in.modifiers, ".DIV") ||
                                        strstr(op->in.modifiers, ".COLLECTIVE")));
}

/* Solve unknown edges by flow conservation: a block's executions equal its
 * inflow (plus the warps for block 0) and its outflow. Flows are never
 * negative, so where the known ones already make up a block's executions
 * (a block never executed, say) every unknown one of its edges is 0. */
static void solve(const pn_sass_prog_t *p, const double *count, edge_t *e, size_t ne)
{
    uint32_t nb = p->n_blocks;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int dir = 0; dir < 2; dir++)
            for (uint32_t b = 0; b < nb; b++) {
                double known = dir == 0 && b == 0 ? p->warps : 0;
                long unknown = -1, n_unknown = 0, any = 0;
                for (size_t i = 0; i < ne; i++) {
                    if ((dir == 0 ? e[i].to : e[i].from) != (int32_t)b)
                        continue;
                    any = 1;
                    if (isnan(e[i].value)) {
                        n_unknown++;
                        unknown = (long)i;
                    } else
                        known += e[i].value;
                }
                if (any && n_unknown == 1) {
                    double v = count[b] - known;
                    e[unknown].value = v < 0 ? 0 : v;
                    changed = 1;
                } else if (any && n_unknown > 1 && count[b] - known <= 0) {
                    for (size_t i = 0; i < ne; i++)
                        if ((dir == 0 ? e[i].to : e[i].from) == (int32_t)b &&
                            isnan(e[i].value))
                            e[i].value = 0;
                    changed = 1;
                }
            }
    }
}

/* Per op, the op where the innermost BSSY region around it reconverges (the
 * BSSY's target: after its BSYNC), -1 outside every region. Regions nest in
 * address order. NULL when out of memory. */
static int32_t *reconvergence(const pn_sass_prog_t *p)
{
    size_t n = p->n;
    int32_t *rc = malloc((n ? n : 1) * sizeof *rc), *open = malloc((n ? n : 1) * sizeof *open);
    if (!rc || !open) {
        free(rc), free(open);
        return NULL;
    }
    size_t depth = 0;
    for (size_t i = 0; i < n; i++) {
        while (depth && (int32_t)i >= open[depth - 1])
            depth--;
        rc[i] = depth ? open[depth - 1] : -1;
        const pn_sass_op_t *op = &p->ops[i];
        if (!strcmp(op->in.opcode, "BSSY") && op->target > (int32_t)i)
            open[depth++] = op->target;
    }
    free(open);
    return rc;
}

/* The executions of block `to` that came from block `from`: its count less
 * the flows of its other in-edges, NAN when one of those is unknown. */
static double inflow_from(const double *count, const edge_t *e, size_t ne, int32_t from,
                          int32_t to)
{
    double v = count[to];
    for (size_t i = 0; i < ne; i++)
        if (e[i].to == to && e[i].from != from)
            v -= e[i].value;   /* NAN stays NAN */
    return v;
}

/* Does the WARPSYNC at op i join the sides of a diverged warp: a plain one
 * (no target, not .COLLECTIVE) that ran more often than the op after it, ncu
 * counting it once for each side and what follows once a warp? (robust2's
 * r2_spin: lane 0 polls a flag inside a BSSY region, the other lanes jump to
 * the WARPSYNC.ALL before the block's barrier: 655 against 524.) */
static int warpsync_joins(const pn_sass_prog_t *p, const double *count, int32_t i)
{
    const pn_sass_op_t *op = &p->ops[i];
    if (strcmp(op->in.opcode, "WARPSYNC") || op->in.has_target ||
        strstr(op->in.modifiers, ".COLLECTIVE") || (size_t)i + 1 >= p->n)
        return 0;
    return count[p->ops[i + 1].block] < count[op->block];
}

/* Branch br (its op a guarded forward BRA inside a BSSY region reconverging
 * at op rc, or in none: rc < 0) diverges when its sides ran more often than
 * it did: a warp whose threads disagree runs both, one after the other
 * (doc/dependencies.md). Each side's executions are its block's less its
 * other in-flows (all known: an if without an else jumps to the BSYNC that
 * its body falls into); both = taken + fall - visits of them take both
 * sides, and br->taken keeps the visits that take the taken side alone.
 * Outside a region (an if without an else that the compiler closes with a
 * WARPSYNC, or with nothing) the sides join at the branch's target: the
 * taken side waits there, or after it where it is a WARPSYNC or BSYNC, which
 * ncu counts once for each side. Inside a region, a target that is a
 * WARPSYNC joining the sides (warpsync_joins) is where they meet too: the
 * taken side waits after it. */
static void diverge(const pn_sass_prog_t *p, pn_sass_branch_t *br, const double *count,
                    const edge_t *e, size_t ne, int32_t rc)
{
    const pn_sass_op_t *op = &p->ops[br->op];
    int32_t wait = rc;   /* where the taken side waits */
    if (rc >= 0 && op->target > (int32_t)br->op && op->target + 1 < rc &&
        warpsync_joins(p, count, op->target))
        wait = op->target + 1;
    else if (rc < 0 && op->target > (int32_t)br->op) {
        /* the sides join at the target; a WARPSYNC or BSYNC there runs once a side */
        const char *j = p->ops[op->target].in.opcode;
        wait = op->target + (!strcmp(j, "WARPSYNC") || !strcmp(j, "BSYNC"));
        if ((size_t)wait >= p->n)
            wait = op->target;
        rc = op->target + 1;
    }
    if (rc < 0 || !op->in.guarded || !pn_sass_op_is_branch(op) || op->target <= (int32_t)br->op ||
        op->target >= rc || br->op + 1 >= p->n)
        return;
    int32_t b = op->block, tb = p->ops[op->target].block, fb = p->ops[br->op + 1].block;
    if (tb == fb)
        return;
    double t = inflow_from(count, e, ne, b, tb), f = inflow_from(count, e, ne, b, fb);
    if (isnan(t) || isnan(f))
        return;
    /* no more than either side ran: a side that never ran was never taken (a
     * warp-aggregated atomic's leader, one lane, after the other lanes left at a
     * branch before it that diverged, into the same target: ncu counts the
     * target once for each, and the flow that this branch seems to add to it is
     * the other's) */
    double both = fmin(round(t + f - br->visits), fmin(t, f));
    if (!(both >= 1))
        return;
    if (both > br->visits)
        both = br->visits;
    br->both = both;
    br->taken = fmax(0, fmin(br->visits - both, round(t - both)));
    br->reconv = wait;
}

pn_status_t pn_sass_plan_build(pn_sass_plan_t *pl, const pn_sass_prog_t *p,
                               const uint8_t *guard, uint32_t warps_per_block, uint32_t blocks,
                               pn_error_t *err)
{
    memset(pl, 0, sizeof *pl);
    uint32_t nb = p->n_blocks;
    size_t n = p->n;
    double *count = calloc(nb, sizeof *count);
    uint32_t *first = calloc(nb, sizeof *first), *last = calloc(nb, sizeof *last);
    /* calls: a RET's block may return to the block after every CALL */
    size_t n_calls = 0, n_rets = 0;
    for (size_t i = 0; i < n; i++) {
        n_calls += pn_sass_op_is_call(&p->ops[i]) && i + 1 < n;
        n_rets += pn_sass_op_is_ret(&p->ops[i]);
    }
    if (!n_calls)
        n_rets = 0;
    edge_t *e = calloc(2 * nb + 1 + n_calls * n_rets, sizeof *e);
    pl->branch_of = malloc(n * sizeof *pl->branch_of);
    pl->branches = calloc(nb, sizeof *pl->branches);
    if (!count || !first || !last || !e || !pl->branch_of || !pl->branches) {
        free(count), free(first), free(last), free(e);
        pn_sass_plan_destroy(pl);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    for (size_t i = n; i-- > 0;) {
        first[p->ops[i].block] = (uint32_t)i;
        pl->branch_of[i] = -1;
    }
    for (size_t i = 0; i < n; i++) {
        last[p->ops[i].block] = (uint32_t)i;
        count[p->ops[i].block] = p->ops[i].executed;
    }
    /* a loop's exit into a BSYNC: ncu counts the BSYNC once for every part of a
     * warp that left the loop on its own (threads leaving at different trips),
     * the warp goes on once, as the block after it counts */
    for (uint32_t b = 0; b + 1 < nb; b++) {
        const pn_sass_op_t *op = &p->ops[first[b]];
        if (first[b] == 0 || first[b] != last[b] || strcmp(op->in.opcode, "BSYNC"))
            continue;
        const pn_sass_op_t *prev = &p->ops[first[b] - 1];
        if (prev->in.guarded && pn_sass_op_is_branch(prev) && prev->in.target <= prev->offset &&
            count[b + 1] < count[b])
            count[b] = count[b + 1];
    }
    int32_t *reconv_of = reconvergence(p);
    if (!reconv_of) {
        free(count), free(first), free(last), free(e);
        pn_sass_plan_destroy(pl);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    /* edges: per block, its successors; a conditional block two (taken first) */
    size_t ne = 0;
    int32_t *taken_edge = malloc(nb * sizeof *taken_edge), *fall_edge = malloc(nb * sizeof *fall_edge);
    if (!taken_edge || !fall_edge) {
        free(count), free(first), free(last), free(e), free(taken_edge), free(fall_edge);
        free(reconv_of);
        pn_sass_plan_destroy(pl);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    for (uint32_t b = 0; b < nb; b++) {
        const pn_sass_op_t *op = &p->ops[last[b]];
        int32_t next = last[b] + 1 < n ? p->ops[last[b] + 1].block : -1;
        taken_edge[b] = fall_edge[b] = -1;
        int cond = is_cond(op);
        if (n_rets && pn_sass_op_is_ret(op)) {
            /* back to after a CALL: known when there is one of each */
            for (size_t i = 0; i + 1 < n; i++)
                if (pn_sass_op_is_call(&p->ops[i]))
                    e[ne++] = (edge_t){ (int32_t)b, p->ops[i + 1].block,
                                        n_calls == 1 && n_rets == 1 ? count[b] : NAN };
        } else if (pn_sass_op_is_exit(op)) {
            if (cond) {
                taken_edge[b] = (int32_t)ne;
                e[ne++] = (edge_t){ (int32_t)b, -1, NAN };
                fall_edge[b] = (int32_t)ne;
                e[ne++] = (edge_t){ (int32_t)b, next, NAN };
            }
        } else if (pn_sass_op_is_branch(op) && op->target >= 0) {
            taken_edge[b] = (int32_t)ne;
            e[ne++] = (edge_t){ (int32_t)b, p->ops[op->target].block, cond ? NAN : count[b] };
            if (cond) {
                fall_edge[b] = (int32_t)ne;
                e[ne++] = (edge_t){ (int32_t)b, next, NAN };
            }
        } else if (pn_sass_op_is_call(op)) {
            e[ne++] = (edge_t){ (int32_t)b, p->ops[op->target].block, count[b] };
        } else if (next >= 0) {
            fall_edge[b] = (int32_t)ne;
            e[ne++] = (edge_t){ (int32_t)b, next, count[b] };
        }
    }
    solve(p, count, e, ne);
    /* The counts do not tell every branch: a loop behind a guard ("if (n > 0)",
     * which compilers put before a loop of a run-time trip count) gives its
     * entry and its back edge one equation. The first conditional forward
     * branch left unknown (in address order) is taken as never taken: every
     * warp that reaches it goes on, the work it leads to spread over all of
     * them; but no more go on than the block they go on to ran (a loop that
     * runs once where it runs, behind a guard some warps take: its entries
     * are its trips); then the flows are solved again and the next one taken. One pass
     * does: a branch passed over was solved or is backward, and solving more
     * edges cannot make it unknown again. Backward branches still unknown
     * take half their visits (below). */
    for (uint32_t b = 0; b < nb; b++) {
        const pn_sass_op_t *op = &p->ops[last[b]];
        if (!is_cond(op) || taken_edge[b] < 0 || fall_edge[b] < 0 ||
            !isnan(e[taken_edge[b]].value) || !isnan(e[fall_edge[b]].value) ||
            (pn_sass_op_is_branch(op) && op->in.target <= op->offset))
            continue;
        int32_t to = e[fall_edge[b]].to;
        double over = to >= 0 ? count[b] - count[to] : 0;
        e[taken_edge[b]].value = over > 0 ? over : 0;
        solve(p, count, e, ne);
    }
    for (uint32_t b = 0; b < nb; b++) {
        const pn_sass_op_t *op = &p->ops[last[b]];
        if (!is_cond(op) || taken_edge[b] < 0 || fall_edge[b] < 0)
            continue;
        pn_sass_branch_t *br = &pl->branches[pl->n_branches];
        br->op = last[b];
        br->visits = op->executed;
        double t = e[taken_edge[b]].value, f = e[fall_edge[b]].value;
        if (isnan(t) && !isnan(f))
            t = br->visits - f;
        if (isnan(t)) {
            t = br->visits / 2;
            pl->unsolved++;
        }
        br->taken = t < 0 ? 0 : t > br->visits ? br->visits : round(t);
        /* the busier side: staying in a loop (a backward branch taken), else
         * going on (a forward branch or an exit not taken) */
        br->heavy_taken = pn_sass_op_is_branch(op) && op->in.target <= op->offset;
        br->reconv = -1;
        diverge(p, br, count, e, ne, reconv_of[last[b]]);
        pl->branch_of[last[b]] = (int32_t)pl->n_branches++;
    }
    free(count), free(first), free(last), free(e), free(taken_edge), free(fall_edge);
    free(reconv_of);

    /* walk every warp */
    uint64_t nw = (uint64_t)warps_per_block * blocks;
    pl->n_warps = (uint32_t)nw;
    size_t nbr = pl->n_branches ? pl->n_branches : 1;
    pl->visits = calloc(nw * nbr, sizeof *pl->visits);
    pl->heavy = calloc(nw * nbr, sizeof *pl->heavy);
    pl->both = calloc(nw * nbr, sizeof *pl->both);
    pl->loads = calloc(nw, sizeof *pl->loads);
    pl->insts = calloc(nw, sizeof *pl->insts);
    pl->leader = malloc((n ? n : 1) * sizeof *pl->leader);
    pl->reuse = calloc(n ? n : 1, 1);
    pl->reuse_loads = calloc(nw, sizeof *pl->reuse_loads);
    pl->op_execs = calloc(n ? n : 1, sizeof *pl->op_execs);
    uint64_t *k = calloc(nbr, sizeof *k), *kw = calloc(nbr, sizeof *kw);
    uint8_t *fixed = calloc(n ? n : 1, 1), *flow = malloc(n ? n : 1);
    pn_status_t st;
    if (!pl->visits || !pl->heavy || !pl->both || !pl->loads || !pl->insts || !pl->leader ||
        !pl->reuse || !pl->reuse_loads || !pl->op_execs || !k || !kw || !fixed || !flow)
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
    else
        st = pn_sass_fixed_guards(p, fixed, err);
    if (st != PN_OK) {
        free(k), free(kw), free(fixed), free(flow);
        pn_sass_plan_destroy(pl);
        return st;
    }
    /* a forward branch or exit whose guard a warp holds fixed is decided once
     * per warp: on its first visit, as the k-th warp to reach it (2: a bounds
     * check on the grid's index, the launch's first warps going on) */
    for (size_t i = 0; i < n; i++) {
        fixed[i] = fixed[i] && !(pn_sass_op_is_branch(&p->ops[i]) &&
                                 p->ops[i].in.target <= p->ops[i].offset);
        if (fixed[i] && guard && (guard[i] & PN_SASS_FROM_CTA) &&
            (guard[i] & PN_SASS_FROM_THREAD) && !(guard[i] & PN_SASS_FROM_LOAD))
            fixed[i] = 2;
    }
    pl->n_followers = pn_sass_line_leaders(p, pl->leader);
    pn_sass_addr_invariant(p, pl->reuse);
    for (size_t i = 0; i < n; i++)
        pl->reuse[i] = pl->reuse[i] && p->ops[i].in.kind == PN_SASS_GLOBAL_LD &&
                       pl->leader[i] < 0 && !pn_sass_insn_strong_beyond_sm(&p->ops[i].in);
    double total = 0, want = 0;
    for (size_t i = 0; i < n; i++) {
        total += p->ops[i].executed;
        want += p->ops[i].executed > 0 ? p->ops[i].executed : 0;
    }
    uint64_t cap = (uint64_t)fmin(4e12, 2 * total + 16 * (double)n + 1000);
    /* per op: 1 an exit, 2 a branch, 3 a call, 4 a RET (the walk below visits ops
     * millions of times) */
    for (size_t i = 0; i < n; i++)
        flow[i] = pn_sass_op_is_ret(&p->ops[i])       ? 4
                  : pn_sass_op_is_exit(&p->ops[i])    ? 1
                  : pn_sass_op_is_branch(&p->ops[i])  ? 2
                  : pn_sass_op_is_call(&p->ops[i])    ? 3
                                                       : 0;
    for (uint64_t w = 0; w < nw; w++) {
        size_t pc = 0;
        uint64_t steps = 0;
        uint32_t calls[PN_SASS_CALL_DEPTH], depth = 0;
        uint32_t pend_to[PN_SASS_DIV_DEPTH], pend_at[PN_SASS_DIV_DEPTH], n_pend = 0;
        while (pc < n) {
            /* a diverged warp's waiting side runs when the first one reconverges */
            while (n_pend && pend_at[n_pend - 1] == pc)
                pc = pend_to[--n_pend];
            const pn_sass_op_t *op = &p->ops[pc];
            if (++steps > cap) {
                free(k), free(kw), free(fixed), free(flow);
                pn_sass_plan_destroy(pl);
                return pn_error_at(err, PN_EINVAL, p->path, op->line, 1,
                                   "warp %llu of the plan does not reach EXIT within %llu "
                                   "instructions (the launch ran %.0f)",
                                   (unsigned long long)w, (unsigned long long)cap, total);
            }
            pl->insts[w]++;
            pl->op_execs[pc]++;
            /* atomics are served at L2; a load of a line in flight waits for it */
            if (op->in.kind == PN_SASS_GLOBAL_LD && pl->leader[pc] < 0) {
                if (pl->reuse[pc])
                    pl->reuse_loads[w]++;
                else
                    pl->loads[w]++;
            }
            int32_t bi = pl->branch_of[pc];
            if (bi >= 0) {
                pn_sass_branch_t *br = &pl->branches[bi];
                uint64_t v = (uint64_t)br->visits, b2 = (uint64_t)br->both;
                uint64_t h = (uint64_t)pn_sass_branch_heavy(br);
                size_t at = w * nbr + bi;
                int d;
                if (!fixed[pc])
                    d = pn_sass_heavy3(k[bi]++, b2, h, v);
                else if (pl->visits[at] == 0 && fixed[pc] == 2)
                    d = pn_sass_prefix3(kw[bi]++, b2, h, p->warps, (double)nw);
                else if (pl->visits[at] == 0)
                    d = pn_sass_heavy3(kw[bi]++, b2, h, v);   /* the warp's first visit */
                else
                    d = pl->both[at] ? 2 : pl->heavy[at] ? 1 : 0;
                pl->visits[at]++;
                if (d == 2) {
                    pl->both[w * nbr + bi]++;
                    if (n_pend < PN_SASS_DIV_DEPTH) {
                        pend_to[n_pend] = (uint32_t)op->target;
                        pend_at[n_pend++] = (uint32_t)br->reconv;
                    }
                    pc++;
                    continue;
                }
                int heavy = d;
                pl->heavy[w * nbr + bi] += (uint64_t)heavy;
                int taken = heavy == br->heavy_taken;
                if (taken && flow[pc] == 4 && depth)
                    pc = calls[--depth];
                else if (taken)
                    pc = flow[pc] == 1 || flow[pc] == 4 ? n : (size_t)op->target;
                else
                    pc++;
                continue;
            }
            if (flow[pc] == 3) {
                if (depth < PN_SASS_CALL_DEPTH)
                    calls[depth++] = (uint32_t)pc + 1;
                pc = (size_t)op->target;
                continue;
            }
            if (flow[pc] == 4 && !op->in.guarded && depth) {
                pc = calls[--depth];
                continue;
            }
            if ((flow[pc] == 1 || flow[pc] == 4) && !op->in.guarded)
                break;
            if (flow[pc] == 2 && op->target >= 0 && !op->in.guarded) {
                pc = (size_t)op->target;
                continue;
            }
            pc++;
        }
    }
    free(k), free(kw), free(fixed), free(flow);
    double got = 0;
    for (size_t i = 0; i < n; i++)
        got += (double)pl->op_execs[i];
    want *= p->warps > 0 ? (double)nw / p->warps : 0;
    pl->covered = want > 0 ? got / want : 1;
    return PN_OK;
}

void pn_sass_plan_drop_reuse(pn_sass_plan_t *pl, size_t n_ops)
{
    for (uint32_t w = 0; w < pl->n_warps; w++) {
        pl->loads[w] += pl->reuse_loads[w];
        pl->reuse_loads[w] = 0;
    }
    memset(pl->reuse, 0, n_ops ? n_ops : 1);
}
