/* pn_sass_dram.c - the DRAM's latency in a sass run (pn_sass_sim_i.h): under
 * the launch's own load, and its spread over the loads a warp has in flight
 * together (doc/dependencies.md). */
#include <math.h>
#include <string.h>

#include "pn_sass_sim_i.h"

/* The expected largest of n standard normal draws (0 for one): a table for
 * whole n to 16, else the integral of x n phi(x) Phi(x)^(n - 1). */
static double normal_max(double n)
{
    static const double c[] = { 0, 0.5642, 0.8463, 1.0294, 1.1630, 1.2672, 1.3522, 1.4236,
                                1.4850, 1.5388, 1.5864, 1.6292, 1.6680, 1.7034, 1.7359, 1.7660 };
    if (n <= 1)
        return 0;
    if (n <= 16 && n == floor(n))
        return c[(int)n - 1];
    double sum = 0, h = 0.005;
    for (double x = -8; x < 8; x += h) {
        double pdf = exp(-0.5 * x * x) * 0.3989422804014327;
        double cdf = 0.5 * erfc(-x * 0.7071067811865476);
        sum += x * n * pdf * pow(cdf, n - 1) * h;
    }
    return sum;
}

/* Loads a warp has in flight together come back as the slowest of them: the
 * DRAM's latency varies from line to line with spread sd (the profile's
 * dram_jitter; examples/probe/stream_latency.cu). A basic block's global
 * loads whose results no op has read since the first of them: a load whose
 * group has n lines so far, its own included (its lines an execution), is late
 * by sd x the expected largest of n standard normal draws, so an op that reads
 * them all waits the largest. A read of any of them starts a new group. */
void pn_sass_dram_late(pn_sass_sim_t *s, const pn_sass_prog_t *prog, double sd)
{
    uint8_t pend[N_REGS];
    double k = 0;       /* lines of the group's loads before this one */
    memset(pend, 0, sizeof pend);
    for (uint32_t i = 0; i < s->n_ops; i++) {
        sop_t *o = &s->ops[i];
        int waits = i && prog->ops[i].block != prog->ops[i - 1].block;
        for (int j = 0; j < o->n_reads && !waits; j++)
            waits = o->reg[j] < N_REGS && pend[o->reg[j]];
        if (waits) {
            memset(pend, 0, sizeof pend);
            k = 0;
        }
        if (o->kind != K_GLD || !pn_sass_op_levels(o) || o->reuse || o->pinned || o->follow >= 0)
            continue;
        const pn_sass_op_t *op = &prog->ops[i];
        double lines = op->executed > 0 && op->lines > 0 ? op->lines / op->executed : 1;
        lines = lines < 1 ? 1 : lines;
        o->dram_late = (uint32_t)llround(sd * normal_max(fmin(k + lines, 1024)));
        k += lines;
        for (int j = o->n_reads; j < o->n_regs; j++)
            if (o->reg[j] < REG_PRED)
                pend[o->reg[j]] = 1;
    }
}

/* The DRAM latency under the launch's own load: run seed 1, take the DRAM
 * budget's utilisation u (its units over the run's, at most 0.95) and the
 * sectors the stores write a step over the device w, and set the latency to
 * lat_dram + dram_write_delay w + dram_queue u / (1 - u): once at that
 * value, then twice half way from the last to the new one (the longer
 * latency slows the run, which lowers u), stopping early when a step leaves
 * it as it was. Runs and nets made of s use it. */
pn_status_t pn_sass_dram_settle(pn_sass_sim_t *s, const pn_pipe_device_t *pd, pn_error_t *err)
{
    double L0 = s->lat_dram, L = L0, written = 0;
    for (uint32_t i = 0; i < s->n_ops; i++)
        if (s->ops[i].kind == K_GST)
            written += (double)s->plan.op_execs[i] * s->ops[i].cost[P_DRAM];
        else if (s->ops[i].kind == K_GLD) /* a scrub's lines it writes back */
            written += (double)s->plan.op_execs[i] * s->ops[i].cost[P_DRAM] * s->wb_ld;
    pn_pipe_bounds_t b;
    pn_sass_sim_bounds(s, &b);
    double all = (double)b.steps[PN_BOUND_PIPE0 + PN_PIPE_DRAM] * s->rate[P_DRAM] + s->cap0[P_DRAM];
    if (!(all > s->cap0[P_DRAM]))
        return PN_OK; /* the DRAM budget never runs dry: no queue */
    for (int it = 0; it < 3; it++) {
        pn_run_opts_t o = { .max_steps = UINT64_MAX / 4, .idle_trans = -1 };
        pn_run_result_t r;
        PN_CHECK(pn_sass_sim_run(s, 1, &o, &r, err));
        double per = (double)s->rate[P_DRAM] * (double)(r.steps ? r.steps : 1);
        double u = all / per, w = written / per * pd->dram_sectors;
        u = u > 0.95 ? 0.95 : u;
        double target = L0 + pd->dram_write_delay * w + pd->dram_queue * u / (1 - u);
        L = it == 0 ? target : (L + target) / 2;
        uint32_t was = s->lat_dram;
        s->lat_dram = L > PN_PIPE_MAX_LATENCY ? PN_PIPE_MAX_LATENCY : (uint32_t)llround(L);
        if (s->lat_dram == was)
            break; /* settled: the next run would be this one */
    }
    return PN_OK;
}
