/* pn_sass_sim.c - the dependency rule on the pipelined SM, simulated step by
 * step over the steps in which some warp can act (doc/dependencies.md). */
#include "pn_sass_sim.h"
#include "pn_sass_sim_i.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_rng.h"

typedef struct bucket {
    uint64_t level, at;         /* level at the start of step `at`, less its takes */
    uint32_t refill;            /* the refill decided at `at`, on the level before its takes */
} bucket_t;

typedef struct warp {
    uint32_t gw, pc, slot;
    int state;                  /* 0 running, 1 at a barrier, 2 done, 3 no block */
    uint64_t next_ok, drain, wake;
    pn_sass_levels_t lev;       /* its level pattern */
    uint64_t nload;             /* loads that took a level */
    uint64_t *k;                /* per branch: decisions taken */
    uint64_t *ldone;            /* per line record: when its leader's line arrives */
    uint64_t ready[N_REGS];
} warp_t;

typedef struct slot {
    uint32_t block, alive, arrived;
    uint64_t done_at;           /* when its last warp is done */
    uint64_t gone_at;           /* when its last exited warp is done */
    int busy;
} slot_t;

static uint16_t reg_id(pn_sass_reg_t r, int k)
{
    unsigned i = r.index + (unsigned)k;
    switch (r.file) {
    case PN_SASS_R: return (uint16_t)(i < 256 ? i : 255);
    case PN_SASS_UR: return (uint16_t)(256 + (i < 64 ? i : 63));
    case PN_SASS_P: return (uint16_t)(320 + (i < 8 ? i : 7));
    default: return (uint16_t)(328 + (i < 8 ? i : 7));
    }
}

static void add_reg(sop_t *o, pn_sass_reg_t r)
{
    for (int k = 0; k < r.width && o->n_regs < MAX_OP_REGS; k++)
        o->reg[o->n_regs++] = reg_id(r, k);
}

/* Opcodes of the FMA pipe, one cycle quicker than the other arithmetic. */
static int fma_pipe(const char *op)
{
    static const char *const f[] = { "FFMA", "FADD", "FMUL", "IMAD", "HFMA2", "HADD2", "HMUL2",
                                     "I2FP", NULL };
    for (int i = 0; f[i]; i++)
        if (!strcmp(op, f[i]))
            return 1;
    return 0;
}

static uint32_t units(double x)
{
    double u = round(x * PN_PIPE_UNIT);
    return u < 1 ? 1 : u > 4e9 ? 4000000000u : (uint32_t)u;
}

/* Does atomic op update a floating-point value (.F32, .F64, .F16x2, .BF16x2)? */
static int atomic_float(const pn_sass_op_t *op)
{
    return strstr(op->in.modifiers, ".F32") || strstr(op->in.modifiers, ".F64") ||
           strstr(op->in.modifiers, ".F16") || strstr(op->in.modifiers, ".BF16");
}

/* An access of sec sectors over `lines` lines in the units of the L2 pipe
 * (sectors of scattered loads, pd->l2_sectors a step): its sectors over the
 * rate for its sectors per line, between the one-sector and the whole-line
 * probes. what: 0 load, 1 store, 2 atomic. */
static double l2_cost(const pn_pipe_device_t *pd, int what, double sec, double lines)
{
    double one = what == 1 ? pd->l2_store_sectors : what == 2 ? pd->l2_atomic_sectors : 0;
    double full = what == 1 ? pd->l2_store_line_sectors : what == 0 ? pd->l2_line_sectors : 0;
    if (!(one > 0))
        one = pd->l2_sectors;
    if (!(full > 0))
        full = one;
    double k = lines > 0 ? sec / lines : 1;
    k = k < 1 ? 1 : k > 4 ? 4 : k;
    double rate = one + (full - one) * (k - 1) / 3;
    return pd->l2_sectors > 0 ? sec * pd->l2_sectors / rate : 0;
}

void pn_sass_sim_free(pn_sass_sim_t *s)
{
    if (!s)
        return;
    free(s->ops);
    pn_sass_plan_destroy(&s->plan);
    free(s);
}

uint32_t pn_sass_sim_unsolved(const pn_sass_sim_t *s)
{
    return s->plan.unsolved;
}

pn_status_t pn_sass_sim_new(const pn_sass_sim_params_t *p, pn_sass_sim_t **out, pn_error_t *err)
{
    const pn_pipe_params_t *pp = p->pipe;
    const pn_sass_prog_t *prog = p->prog;
    *out = NULL;
    pn_sass_sim_t *s = calloc(1, sizeof *s);
    if (!s || !(s->ops = calloc(prog->n, sizeof *s->ops))) {
        free(s);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    s->n_ops = (uint32_t)prog->n;
    s->partitions = pp->partitions;
    s->issue = pp->issue;
    s->W = pp->n_warps;
    s->blocks = pp->blocks ? pp->blocks : 1;
    s->resident = pp->resident ? pp->resident : 1;
    if (s->resident > s->blocks)
        s->resident = s->blocks;
    s->launch = pp->block_launch ? pp->block_launch : 1;
    s->inflight = pp->inflight;
    s->lat_bar = pp->barrier_latency ? pp->barrier_latency : PN_PIPE_MIN_BARRIER_LATENCY;
    s->lat_l1 = pp->latency[PN_PIPE_LD_L1];
    s->lat_l2 = pp->latency[PN_PIPE_LD_L2];
    s->lat_dram = pp->latency[PN_PIPE_LD_DRAM];
    s->rate[P_ALU] = pp->rate[PN_PIPE_ALUP];
    s->rate[P_SFU] = pp->rate[PN_PIPE_SFUP];
    s->rate[P_LSU] = pp->rate[PN_PIPE_LSU];
    s->rate[P_SHARED] = pp->rate[PN_PIPE_SHMEM];
    s->rate[P_DRAM] = pp->rate[PN_PIPE_DRAM];
    const pn_pipe_device_t *pd = p->pdev;
    double busy = p->busy_sms ? p->busy_sms : 1;
    s->rate[P_L2] = pd->l2_sectors > 0 ? units(pd->l2_sectors / busy) : 0;
    s->rate[P_ATOM] = pd->atomic_serial > 0 || pd->atomic_serial_float > 0 ? PN_PIPE_UNIT : 0;
    s->l1_hit = p->mem->l1_hit;
    s->l2_hit = p->mem->l2_hit;
    double D = p->pdev->dram_line_sectors;
    /* measured DRAM traffic (kernel.memory.dram_ld/st_sectors, per warp-level access) as
     * DRAM sectors per requested sector of the program's loads and stores */
    double f_ld = -1, f_st = -1;
    {
        double n_ld = 0, s_ld = 0, n_st = 0, s_st = 0;
        for (size_t i = 0; i < prog->n; i++) {
            const pn_sass_op_t *op = &prog->ops[i];
            /* per warp-level access as pnsim import counts them: loads LDG + ATOMG,
             * stores STG + RED (the atomics' own traffic is left to the L2) */
            if (op->in.kind == PN_SASS_GLOBAL_LD)
                n_ld += op->executed, s_ld += op->sectors;
            else if (op->in.kind == PN_SASS_GLOBAL_ST)
                n_st += op->executed, s_st += op->sectors;
            else if (op->in.kind == PN_SASS_ATOM_GLOBAL && !strncmp(op->in.opcode, "RED", 3))
                n_st += op->executed;
            else if (op->in.kind == PN_SASS_ATOM_GLOBAL)
                n_ld += op->executed;
        }
        if (p->mem->dram_ld >= 0 && s_ld > 0)
            f_ld = p->mem->dram_ld * n_ld / s_ld;
        if (p->mem->dram_st >= 0 && s_st > 0)
            f_st = p->mem->dram_st * n_st / s_st;
    }
    s->dram_all = f_ld >= 0;
    pn_status_t st = pn_sass_plan_build(&s->plan, prog, s->W, s->blocks, err);
    if (st != PN_OK) {
        pn_sass_sim_free(s);
        return st;
    }
    s->br = s->plan.branches;
    for (uint32_t i = 0; i < s->n_ops; i++)
        s->ops[i].lead = s->ops[i].follow = -1;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        int32_t l = s->plan.leader[i];
        if (l < 0)
            continue;
        if (s->ops[l].lead < 0)
            s->ops[l].lead = (int32_t)s->n_lines++;
        s->ops[i].follow = s->ops[l].lead;
    }
    const uint32_t *L = pp->latency;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        const pn_sass_op_t *op = &prog->ops[i];
        sop_t *o = &s->ops[i];
        if (op->in.guarded)
            add_reg(o, op->in.guard);
        for (int r = 0; r < op->in.n_reads; r++)
            add_reg(o, op->in.reads[r]);
        o->n_reads = o->n_regs;
        for (int r = 0; r < op->in.n_writes; r++)
            add_reg(o, op->in.writes[r]);
        o->guarded = op->in.guarded;
        o->target = op->target;
        o->branch = s->plan.branch_of[i];
        double ex = op->executed > 0 ? op->executed : 0;
        double sec = ex > 0 && op->sectors > 0 ? op->sectors / ex : 4;
        double lines = ex > 0 && op->lines > 0 ? op->lines / ex : ceil(sec / 4);
        double wf = ex > 0 && op->wavefronts > 0 ? op->wavefronts / ex : 1;
        o->lat = L[PN_PIPE_ARITH];
        switch (op->in.kind) {
        case PN_SASS_ARITH: case PN_SASS_FP64:
            o->kind = K_ALU;
            o->cost[P_ALU] = units(op->in.kind == PN_SASS_FP64 ? 2 : 1);
            if (fma_pipe(op->in.opcode) && o->lat > 2)
                o->lat--; /* dependent FFMA/IMAD: 4.1 cycles, VIADD/LOP3 5.1 (H100 probes) */
            break;
        case PN_SASS_UNIFORM: o->kind = K_UNIFORM; break;
        case PN_SASS_SFU: case PN_SASS_CONV: case PN_SASS_TENSOR:
            o->kind = K_SFU;
            o->lat = L[PN_PIPE_SFU];
            o->cost[P_SFU] = units(1);
            break;
        case PN_SASS_S2R: o->kind = K_SFU; o->lat = L[PN_PIPE_SFU]; break;
        case PN_SASS_SHUFFLE:
            o->kind = K_SHFL;
            o->lat = L[PN_PIPE_SHARED_LD];
            o->cost[P_SHARED] = units(1);
            break;
        case PN_SASS_GLOBAL_LD: case PN_SASS_ATOM_GLOBAL:
            o->kind = op->in.kind == PN_SASS_GLOBAL_LD ? K_GLD : K_ATOMG;
            o->cost[P_LSU] = units(fmax(sec, 4 * lines));
            o->cost[P_DRAM] = op->in.kind == PN_SASS_GLOBAL_LD && f_ld >= 0
                                  ? (f_ld * sec > 0 ? units(f_ld * sec) : 0)
                                  : units(fmax(sec, D * lines));
            o->cost[P_L2] = units(l2_cost(pd, op->in.kind == PN_SASS_GLOBAL_LD ? 0 : 2, sec,
                                          lines));
            /* one sector an execution: every lane, and every warp, on one address (a
             * global accumulator); its unit takes the updates one by one */
            if (op->in.kind == PN_SASS_ATOM_GLOBAL && ex > 0 && op->sectors <= ex) {
                double lanes = op->threads > ex ? op->threads / ex : 1;
                double per = atomic_float(op) && pd->atomic_serial_float > 0
                                 ? pd->atomic_serial_float : pd->atomic_serial;
                if (per > 0)
                    o->cost[P_ATOM] = units(per * lanes * busy);
            }
            break;
        case PN_SASS_GLOBAL_ST:
            o->kind = K_GST;
            o->lat = L[PN_PIPE_GLOBAL_ST];
            o->cost[P_LSU] = units(fmax(sec, 4 * lines));
            o->cost[P_L2] = units(l2_cost(pd, 1, sec, lines));
            /* written back to DRAM: as measured, else as the reads miss L2 */
            if (f_st >= 0)
                o->cost[P_DRAM] = f_st * sec > 0 ? units(f_st * sec) : 0;
            else if (p->mem->l2_hit < 1)
                o->cost[P_DRAM] = units(sec * (1 - p->mem->l2_hit));
            break;
        case PN_SASS_SHARED_LD: case PN_SASS_ATOM_SHARED:
            o->kind = K_SLD;
            o->lat = L[PN_PIPE_SHARED_LD];
            o->cost[P_SHARED] = units(wf);
            break;
        case PN_SASS_SHARED_ST:
            o->kind = K_SST;
            o->lat = L[PN_PIPE_SHARED_ST];
            o->cost[P_SHARED] = units(wf);
            break;
        case PN_SASS_CONST_LD:
            o->kind = K_CONST;
            o->lat = op->in.opcode[0] == 'U' ? L[PN_PIPE_ARITH] : s->lat_l1;
            break;
        case PN_SASS_BARRIER:
            o->kind = !strncmp(op->in.modifiers, ".ARV", 4) ? K_CTRL : K_BAR;
            break;
        default:
            o->kind = pn_sass_op_is_exit(op) ? K_EXIT : pn_sass_op_is_branch(op) ? K_BRA : K_CTRL;
            break;
        }
    }
    for (int q = 0; q < P_N; q++) {
        uint32_t mx = 0;
        for (uint32_t i = 0; i < s->n_ops; i++)
            if (s->ops[i].cost[q] > mx)
                mx = s->ops[i].cost[q];
        if (s->rate[q] == 0)
            for (uint32_t i = 0; i < s->n_ops; i++)
                s->ops[i].cost[q] = 0;
        s->cap[q] = s->rate[q] ? mx + 2 * s->rate[q] : 0;
    }
    *out = s;
    return PN_OK;
}

/* The bucket's level at the start of step t, as the net's refill has it: in
 * every step it refills by R when its room (cap - level) at the start of the
 * step, before the step's takes, holds at least R. */
static uint64_t level_at(bucket_t *b, uint64_t t, uint32_t rate, uint32_t cap)
{
    if (t > b->at && rate) {
        b->level += b->refill;
        uint64_t room = cap > b->level ? cap - b->level : 0;
        uint64_t k = room / rate, d = t - b->at - 1;
        b->level += (uint64_t)rate * (k < d ? k : d);
        b->at = t;
        b->refill = cap - b->level >= rate ? rate : 0;
    }
    return b->level;
}

typedef struct run {
    const pn_sass_sim_t *s;
    pn_rng_t rng;
    warp_t *w;                  /* resident * W */
    slot_t *slot;
    bucket_t *bk;               /* per partition alu, sfu; then lsu, shared, dram, l2, atom */
    uint64_t *inflight;         /* completion steps of outstanding loads (a heap) */
    uint32_t n_inflight;
    uint32_t next_block, blocks_done;
    uint64_t launch_ok, issued;  /* the next block may start from launch_ok */
} run_t;

static void heap_push(uint64_t *h, uint32_t *n, uint64_t v)
{
    uint32_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] > v) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

static void heap_pop(uint64_t *h, uint32_t *n)
{
    uint64_t v = h[--*n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

/* The earliest step warp w's next op may issue, registers alone. */
static void rewake(const pn_sass_sim_t *s, warp_t *w)
{
    const sop_t *o = &s->ops[w->pc];
    uint64_t t = w->next_ok;
    for (int i = 0; i < o->n_regs; i++)
        if (w->ready[o->reg[i]] > t)
            t = w->ready[o->reg[i]];
    w->wake = t;
}

/* Block next_block starts in slot sl at t: its warps issue from t (the first
 * resident blocks, at step 0) or from t + 1. */
static void start_block(run_t *r, uint32_t sl, uint64_t t, int first)
{
    const pn_sass_sim_t *s = r->s;
    slot_t *b = &r->slot[sl];
    b->block = r->next_block++;
    b->alive = s->W;
    b->arrived = 0;
    b->busy = 1;
    b->gone_at = 0;
    if (!first)
        r->launch_ok = t + (s->launch > 1 ? s->launch : 1);
    size_t nbr = s->plan.n_branches ? s->plan.n_branches : 1;
    for (uint32_t i = 0; i < s->W; i++) {
        warp_t *w = &r->w[sl * s->W + i];
        uint64_t *k = w->k, *ld = w->ldone;
        memset(w, 0, sizeof *w);
        w->k = k;
        w->ldone = ld;
        memset(k, 0, nbr * sizeof *k);
        memset(ld, 0, (s->n_lines ? s->n_lines : 1) * sizeof *ld);
        w->gw = b->block * s->W + i;
        w->slot = sl;
        w->next_ok = first ? t : t + 1;
        for (int q = 0; q < N_REGS; q++)
            w->ready[q] = t;
        pn_sass_warp_levels(s, w->gw, &w->lev);
        rewake(s, w);
    }
}

/* Every warp of slot sl waiting at its barrier goes on at the barrier
 * latency after t, or after the last of its exited warps is done. */
static void release_barrier(run_t *r, uint32_t sl, uint64_t t)
{
    const pn_sass_sim_t *s = r->s;
    if (r->slot[sl].gone_at > t)
        t = r->slot[sl].gone_at;
    for (uint32_t i = 0; i < s->W; i++) {
        warp_t *x = &r->w[sl * s->W + i];
        if (x->state == 1) {
            x->state = 0;
            x->next_ok = t + s->lat_bar;
            rewake(s, x);
        }
    }
    r->slot[sl].arrived = 0;
}

/* A warp of slot sl is done at t: free the slot when it was the last, and
 * release a barrier that only waited for it. */
static void warp_done(run_t *r, warp_t *w, uint64_t t)
{
    slot_t *b = &r->slot[w->slot];
    w->state = 2;
    if (t > b->done_at)
        b->done_at = t;
    if (t > b->gone_at)
        b->gone_at = t;
    if (--b->alive == 0) {
        b->busy = 0;
        r->blocks_done++;
        return;
    }
    if (b->arrived > 0 && b->arrived == b->alive)
        release_barrier(r, w->slot, t);
}

/* Try to issue warp w's op at step t; 1 if it issued. */
/* The first step after t at which a warp refused at t because pipe q holds
 * `have` units and its op needs c could issue: when refills alone bring q to c
 * (takes only lower the levels). Skipping the steps in between changes no
 * outcome: in them it would be refused whatever the order of the candidates. */
static uint64_t refused_until(const pn_sass_sim_t *s, uint64_t t, int q, uint32_t c,
                              uint64_t have)
{
    uint64_t need = c - have, rate = s->rate[q];
    return t + (need <= rate ? 1 : (need + rate - 1) / rate);
}

static int try_issue(run_t *r, warp_t *w, uint64_t t, uint32_t *slots_left)
{
    const pn_sass_sim_t *s = r->s;
    const sop_t *o = &s->ops[w->pc];
    uint32_t part = (w->gw % s->W) % s->partitions;
    if (slots_left[part] == 0)
        return 0;
    int lvl = 0;
    if (pn_sass_op_levels(o)) {
        while (r->n_inflight > 0 && r->inflight[0] <= t)
            heap_pop(r->inflight, &r->n_inflight);
        if (s->inflight && r->n_inflight >= s->inflight) {
            w->wake = r->inflight[0] > t ? r->inflight[0] : t + 1;
            return 0;
        }
        lvl = o->kind == K_ATOMG ? 1 : pn_sass_load_level(&w->lev, w->nload);
    }
    bucket_t *bk[P_N];
    bk[P_ALU] = &r->bk[2 * part];
    bk[P_SFU] = &r->bk[2 * part + 1];
    for (int q = P_LSU; q < P_N; q++)
        bk[q] = &r->bk[2 * s->partitions + (q - P_LSU)];
    uint32_t c[P_N];
    for (int q = 0; q < P_N; q++) {
        c[q] = pn_sass_cost_at(s, o, lvl, q);
        if (c[q] && level_at(bk[q], t, s->rate[q], s->cap[q]) < c[q]) {
            w->wake = s->rate[q] ? refused_until(s, t, q, c[q], bk[q]->level) : t + 1;
            return 0;
        }
    }
    for (int q = 0; q < P_N; q++)
        bk[q]->level -= c[q];
    slots_left[part]--;
    r->issued++;
    uint64_t lat = pn_sass_latency_at(s, o, lvl);
    if (o->follow >= 0) {
        uint64_t at = w->ldone[o->follow];
        if (at > t + lat)
            lat = at - t;
    } else if (pn_sass_op_levels(o)) {
        if (o->kind == K_GLD)
            w->nload++;
        if (s->inflight)
            heap_push(r->inflight, &r->n_inflight, t + lat);
        if (o->lead >= 0)
            w->ldone[o->lead] = t + lat;
    }
    for (int i = o->n_reads; i < o->n_regs; i++)
        w->ready[o->reg[i]] = t + lat;
    /* the warp is done once its results and stores are */
    if (pn_sass_op_drains(o) && t + lat > w->drain)
        w->drain = t + lat;
    w->next_ok = t + 1;
    uint32_t pc = w->pc;
    if (o->branch >= 0) {
        int taken = pn_sass_decide(s, w->gw, o, w->k[o->branch]++);
        if (taken && o->kind == K_EXIT) {
            warp_done(r, w, w->drain > t + 1 ? w->drain : t + 1);
            return 1;
        }
        pc = taken ? (uint32_t)o->target : pc + 1;
        w->next_ok = t + (taken ? o->lat : 1);
    } else if (o->kind == K_EXIT) {
        warp_done(r, w, w->drain > t + 1 ? w->drain : t + 1);
        return 1;
    } else if (o->kind == K_BRA && o->target >= 0) {
        pc = (uint32_t)o->target;
        w->next_ok = t + o->lat;
    } else
        pc++;
    if (pc >= s->n_ops) {
        warp_done(r, w, w->drain > t + 1 ? w->drain : t + 1);
        return 1;
    }
    w->pc = pc;
    if (o->kind == K_BAR) {
        slot_t *b = &r->slot[w->slot];
        w->state = 1;
        if (++b->arrived == b->alive)
            release_barrier(r, w->slot, t);
        return 1;
    }
    rewake(s, w);
    return 1;
}

pn_status_t pn_sass_sim_run(const pn_sass_sim_t *s, uint64_t seed, const pn_run_opts_t *o,
                            pn_run_result_t *res, pn_error_t *err)
{
    memset(res, 0, sizeof *res);
    res->seed = seed;
    run_t r = { .s = s };
    pn_rng_seed(&r.rng, seed);
    uint32_t nw = s->resident * s->W, nbk = 2 * s->partitions + (P_N - P_LSU);
    size_t nbr = s->plan.n_branches ? s->plan.n_branches : 1;
    r.w = calloc(nw, sizeof *r.w);
    r.slot = calloc(s->resident, sizeof *r.slot);
    r.bk = calloc(nbk, sizeof *r.bk);
    r.inflight = calloc(s->inflight ? s->inflight : 1, sizeof *r.inflight);
    uint64_t *kbuf = calloc((size_t)nw * nbr, sizeof *kbuf);
    size_t nln = s->n_lines ? s->n_lines : 1;
    uint64_t *lbuf = calloc((size_t)nw * nln, sizeof *lbuf);
    uint32_t *cand = malloc(nw * sizeof *cand);
    uint32_t *slots_left = malloc(s->partitions * sizeof *slots_left);
    pn_status_t st = PN_OK;
    if (!r.w || !r.slot || !r.bk || !r.inflight || !kbuf || !lbuf || !cand || !slots_left) {
        st = pn_error_set(err, PN_ENOMEM, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < nw; i++)
        r.w[i].k = kbuf + (size_t)i * nbr, r.w[i].ldone = lbuf + (size_t)i * nln,
        r.w[i].state = 3;
    for (uint32_t p = 0; p < s->partitions; p++) {
        r.bk[2 * p].level = s->cap[P_ALU];
        r.bk[2 * p + 1].level = s->cap[P_SFU];
    }
    for (int q = P_LSU; q < P_N; q++)
        r.bk[2 * s->partitions + (q - P_LSU)].level = s->cap[q];
    for (uint32_t b = 0; b < s->resident; b++)
        start_block(&r, b, 0, 1);
    uint64_t t = 0, busy_steps = 0, end = 0;
    unsigned poll = 0;
    while (r.blocks_done < s->blocks) {
        if (++poll % PN_ENGINE_STOP_EVERY == 0 && pn_engine_poll(o, t)) {
            st = pn_engine_stop_error(err);
            goto out;
        }
        if (t > o->max_steps) {
            st = pn_engine_limit_error(o, seed, err);
            goto out;
        }
        /* free slots take the next blocks, one every `launch` steps */
        for (uint32_t b = 0; b < s->resident && r.next_block < s->blocks; b++)
            if (!r.slot[b].busy && r.slot[b].done_at + 2 <= t &&
                t >= r.launch_ok) {
                start_block(&r, b, t, 0);
                break;
            }
        uint32_t nc = 0;
        for (uint32_t i = 0; i < nw; i++)
            if (r.w[i].state == 0 && r.w[i].wake <= t)
                cand[nc++] = i;
        int issued = 0;
        if (nc > 0) {
            pn_rng_shuffle_u32(&r.rng, cand, nc);
            for (uint32_t p = 0; p < s->partitions; p++)
                slots_left[p] = s->issue;
            /* once every partition's slots are taken the rest would be
             * refused before anything else: stop there */
            const uint64_t slots = (uint64_t)s->partitions * s->issue;
            for (uint32_t c = 0; c < nc && (uint64_t)issued < slots; c++)
                issued += try_issue(&r, &r.w[cand[c]], t, slots_left);
        }
        if (issued) {
            busy_steps++;
            if (t + 1 > end)
                end = t + 1;
        }
        for (uint32_t b = 0; b < s->resident; b++)
            if (r.slot[b].done_at > end)
                end = r.slot[b].done_at;
        /* the next step at which anything can happen */
        uint64_t next = UINT64_MAX;
        int stuck = 0;
        for (uint32_t i = 0; i < nw; i++)
            if (r.w[i].state == 0) {
                if (r.w[i].wake <= t)
                    stuck = 1;
                else if (r.w[i].wake < next)
                    next = r.w[i].wake;
            }
        if (r.next_block < s->blocks)
            for (uint32_t b = 0; b < s->resident; b++)
                if (!r.slot[b].busy) {
                    uint64_t at = r.slot[b].done_at + 2;
                    if (at < r.launch_ok)
                        at = r.launch_ok;
                    if (at < next)
                        next = at;
                }
        if (stuck || next <= t)
            next = t + 1;
        if (next == UINT64_MAX)
            break;
        t = next;
    }
    if (end < t)
        end = end > 0 ? end : t;
    /* as the net counts them: its last warp terminates at `end`, the kernel
     * ends in the next step and the marking after it is dead */
    res->steps = end + 2;
    res->idle_steps = res->steps > busy_steps ? res->steps - busy_steps : 0;
    res->firings = r.issued + res->idle_steps; /* issues, and t0 in the idle steps */
out:
    free(r.w);
    free(r.slot);
    free(r.bk);
    free(r.inflight);
    free(kbuf);
    free(lbuf);
    free(cand);
    free(slots_left);
    return st;
}

static pn_status_t engine_run(const void *plan, uint64_t seed, const pn_run_opts_t *o,
                              pn_run_result_t *res, pn_error_t *err)
{
    return pn_sass_sim_run(plan, seed, o, res, err);
}

static void engine_free(void *plan)
{
    pn_sass_sim_free(plan);
}

const pn_engine_impl_t pn_sass_engine = { "sass", engine_run, engine_free };

void pn_sass_sim_bounds(const pn_sass_sim_t *s, pn_pipe_bounds_t *b)
{
    memset(b, 0, sizeof *b);
    const pn_sass_plan_t *pl = &s->plan;
    uint32_t S = s->partitions ? s->partitions : 1;
    uint64_t part[PN_PIPE_MAX_PARTITIONS] = { 0 }, insts = 0, longest = 0, lv[3] = { 0 };
    for (uint32_t w = 0; w < pl->n_warps; w++) {
        part[(w % s->W) % S] += pl->insts[w];
        insts += pl->insts[w];
        longest = pl->insts[w] > longest ? pl->insts[w] : longest;
        if (pl->loads[w] > 0) {
            pn_sass_levels_t l;
            pn_sass_warp_levels(s, w, &l);
            lv[1] += l.lv[1], lv[2] += l.lv[2];
        }
    }
    uint64_t issue = 0;
    for (uint32_t j = 0; j < S; j++)
        issue = part[j] > issue ? part[j] : issue;
    uint64_t per = s->issue ? s->issue : 1;
    b->steps[PN_BOUND_ISSUE] = issue / per + (issue % per != 0);
    b->steps[PN_BOUND_LATENCY] = longest;
    if (insts && s->blocks > s->resident + 1)
        b->steps[PN_BOUND_LAUNCH] = (uint64_t)(s->blocks - s->resident - 1) * s->launch;
    /* units per pipe; loads whose DRAM or L2 budget follows the level drawn count
     * the cheapest such op times the loads drawn at that level */
    double units[P_N] = { 0 }, min_dram = -1, min_l2 = -1;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        const sop_t *o = &s->ops[i];
        double n = (double)pl->op_execs[i];
        for (int q = 0; q < P_N; q++) {
            if (!o->cost[q])
                continue;
            if (o->kind == K_GLD && q == P_DRAM && !s->dram_all) {
                if (o->follow < 0 && (min_dram < 0 || o->cost[q] < min_dram))
                    min_dram = o->cost[q];
            } else if (o->kind == K_GLD && q == P_L2) {
                if (o->follow < 0 && (min_l2 < 0 || o->cost[q] < min_l2))
                    min_l2 = o->cost[q];
            } else if (o->kind == K_ATOMG && q == P_DRAM) {
                continue; /* served at L2 */
            } else
                units[q] += n * o->cost[q];
        }
    }
    if (min_dram > 0)
        units[P_DRAM] += (double)lv[2] * min_dram;
    if (min_l2 > 0)
        units[P_L2] += (double)(lv[1] + lv[2]) * min_l2;
    units[P_ALU] /= S; /* the busiest partition takes at least the average */
    units[P_SFU] /= S;
    static const int slot[P_N] = { PN_BOUND_PIPE0 + PN_PIPE_ALUP, PN_BOUND_PIPE0 + PN_PIPE_SFUP,
                                   PN_BOUND_PIPE0 + PN_PIPE_LSU, PN_BOUND_PIPE0 + PN_PIPE_SHMEM,
                                   PN_BOUND_PIPE0 + PN_PIPE_DRAM, PN_BOUND_L2, PN_BOUND_ATOMIC };
    for (int q = 0; q < P_N; q++)
        if (s->rate[q] && units[q] > s->cap[q])
            b->steps[slot[q]] = (uint64_t)((units[q] - s->cap[q]) / s->rate[q]);
    for (int i = 1; i < PN_BOUNDS; i++)
        if (b->steps[i] > b->steps[b->binding])
            b->binding = i;
}
