/* pn_sass_sim.c - the plan of a sass run: each op's kind, latency and costs
 * from its own row and the per-warp plan (doc/dependencies.md); the run's lower
 * bounds are in pn_sass_bounds.c, the runs themselves in pn_sass_run.c. */
#include "pn_sass_sim.h"
#include "pn_sass_addr.h"
#include "pn_sass_lines.h"
#include "pn_sass_sim_i.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* A warp's loads after its store wait for the store's order (the profile's
 * store_order; examples/probe/cold.cu): a global or local store writes REG_MEM
 * ready store_order steps after it issues, a load (not a cp.async copy) reads it. */
static void store_order(const pn_pipe_device_t *pd, sop_t *o)
{
    if (!(pd->store_order >= 1) || o->n_regs >= MAX_OP_REGS)
        return;
    if (o->kind == K_GST) {
        o->reg[o->n_regs++] = REG_MEM;
        uint32_t l = (uint32_t)llround(pd->store_order);
        o->lat = l > o->lat ? l : o->lat;
    } else if (o->kind == K_GLD && o->async != A_COPY) {
        memmove(o->reg + o->n_reads + 1, o->reg + o->n_reads,
                (size_t)(o->n_regs - o->n_reads) * sizeof *o->reg);
        o->reg[o->n_reads++] = REG_MEM;
        o->n_regs++;
    }
}

/* The sectors' worth of data a global access of op moves between the L1 and
 * its warp's registers per execution: its active threads times its width
 * (.64 two words, .128 four) over 32 bytes; 0 for 32 bits and less (the line
 * floor covers them). The L1's data path moves 128 bytes a cycle whatever the
 * addresses: a 128-bit load that every thread makes of the same address
 * takes it four cycles. */
static double reg_sectors(const pn_sass_op_t *op)
{
    double bytes = pn_sass_lane_bytes(op);
    if (bytes <= 4 || !(op->executed > 0))
        return 0;
    return pn_sass_lanes(op) * bytes / 32;
}

/* What a global access of op, sec sectors over `lines` lines an execution,
 * takes of the load/store pipe: its sectors, at least a cycle (4 sectors) a
 * line and its reg_sectors, in units. */
static uint32_t global_lsu_units(const pn_sass_op_t *op, double sec, double lines)
{
    return pn_sass_units(fmax(fmax(sec, 4 * lines), reg_sectors(op)));
}

/* Sectors and lines an execution of op, from its totals (4 sectors in a line
 * where the page has none). */
static void sectors_lines(const pn_sass_op_t *op, double *sec, double *lines)
{
    double ex = op->executed > 0 ? op->executed : 0;
    *sec = ex > 0 && op->sectors > 0 ? op->sectors / ex : 4;
    *lines = ex > 0 && op->lines > 0 ? op->lines / ex : ceil(*sec / 4);
}

/* Does op's L1 work show in the measured load wavefronts (kernel.memory.
 * l1_ld_wavefronts): a global or local load through the LSU, not a texture
 * load or a cp.async copy? */
static int l1_wavefront_load(const pn_sass_op_t *op)
{
    return op->in.kind == PN_SASS_GLOBAL_LD && !pn_sass_op_is_texture(op) &&
           !pn_sass_op_is_async_copy(op);
}

/* Is op guarded, executed, and counted on the page by its own columns (local
 * and texture accesses and cp.async copies have none of their own there)? */
static int guarded_own_counts(const pn_sass_op_t *op)
{
    return op->in.guarded && op->executed > 0 && !pn_sass_op_is_local(op) &&
           !pn_sass_op_is_texture(op) && !pn_sass_op_is_async_copy(op);
}

/* pn_sass_sim_i.h */
int pn_sass_predicated_off(const pn_sass_op_t *op)
{
    if (!guarded_own_counts(op))
        return 0;
    switch (op->in.kind) {
    case PN_SASS_GLOBAL_LD: case PN_SASS_GLOBAL_ST:
        return op->sectors == 0 || (op->lines > 0 ? op->lines : op->sectors) < 0.5 * op->executed;
    case PN_SASS_SHARED_LD: case PN_SASS_SHARED_ST: return op->wavefronts < 0.5 * op->executed;
    default: return 0;
    }
}

/* At most how many of op's executions had a thread on, as ncu's per-kind
 * counts count them: all of them, but for a guarded global load or store no
 * more than its requests (its lines: an execution with a thread on looks up
 * at least one; guarded_own_counts). */
static double executions_on(const pn_sass_op_t *op)
{
    if (guarded_own_counts(op) && op->lines > 0 && op->lines < op->executed)
        return op->lines;
    return op->executed;
}

/* Op's part in cp.async (sop_t's async, async_n): LDGSTS copies, LDGDEPBAR
 * commits, DEPBAR.LE SB0, N waits (N at most PN_SASS_ASYNC_GROUPS - 1; other
 * scoreboards and forms are plain control). */
static void async_role(const pn_sass_op_t *op, sop_t *o)
{
    const char *c = op->in.opcode, *sb;
    if (pn_sass_op_is_async_copy(op))
        o->async = A_COPY;
    else if (!strcmp(c, "LDGDEPBAR"))
        o->async = A_COMMIT;
    else if (!strcmp(c, "DEPBAR") && !strcmp(op->in.modifiers, ".LE") &&
             (sb = strstr(op->text, "SB0")) && (sb = strchr(sb, ','))) {
        unsigned long n = strtoul(sb + 1, NULL, 0);
        o->async = A_WAIT;
        o->async_n = (uint8_t)(n < PN_SASS_ASYNC_GROUPS ? n : PN_SASS_ASYNC_GROUPS - 1);
    }
}

void pn_sass_sim_free(pn_sass_sim_t *s)
{
    if (!s)
        return;
    free(s->ops);
    free(s->cls);
    pn_sass_plan_destroy(&s->plan);
    free(s);
}

double pn_sass_sim_covered(const pn_sass_sim_t *s)
{
    return s->plan.covered;
}

uint32_t pn_sass_sim_unsolved(const pn_sass_sim_t *s)
{
    return s->plan.unsolved;
}

/* The reads of the busier register bank (index mod 2) op i makes when it
 * follows within three ops one that writes one of its sources, 0 when none
 * does: then it stalls for that source, the operand reuse cache cannot serve
 * it, and each distinct source register takes a cycle of its bank. Only
 * 32-bit sources count, unless wide: then a 64-bit pair reads both banks. */
static int bank_reads(const pn_sass_prog_t *prog, size_t i, int wide)
{
    const pn_sass_insn_t *in = &prog->ops[i].in;
    int bank[2] = { 0, 0 }, dep = 0;
    uint16_t seen[PN_SASS_MAX_READS];
    int n = 0;
    for (int r = 0; r < in->n_reads; r++) {
        pn_sass_reg_t g = in->reads[r];
        if (g.file != PN_SASS_R || (g.width != 1 && !(wide && g.width == 2)))
            continue;
        int dup = 0;
        for (int k = 0; k < n; k++)
            dup |= seen[k] == g.index;
        if (dup)
            continue;
        seen[n++] = g.index;
        bank[g.index % 2]++;
        if (g.width == 2)
            bank[(g.index + 1) % 2]++;
        for (size_t back = 1; back <= 3 && back <= i; back++) {
            const pn_sass_insn_t *prev = &prog->ops[i - back].in;
            for (int w = 0; w < prev->n_writes; w++)
                dep |= prev->writes[w].file == PN_SASS_R && prev->writes[w].index == g.index;
        }
    }
    return dep ? (bank[0] > bank[1] ? bank[0] : bank[1]) : 0;
}

/* Does op i read two 32-bit registers of one bank right after a writer of
 * one? Its operands take two cycles of the register file (FFMA R0, R0, R4, R5
 * in a dependent chain: half the FMA rate on the H100). */
static int bank_conflict(const pn_sass_prog_t *prog, size_t i)
{
    return bank_reads(prog, i, 0) >= 2;
}

/* A branch reads its guard predicate branch_pred steps after the op that
 * writes it issued (examples/probe/loop_branch.cu: a loop's ISETP to its
 * BRA, 13 cycles on the H100, where an FSEL reads the same predicate after
 * about 4): a guarded branch or EXIT reads its guard as REG_BR + p, and every
 * writer of such a predicate writes that register too, ready lat_br =
 * max(latency, branch_pred) steps after it issues. */
static void branch_preds(pn_sass_sim_t *s, const pn_pipe_device_t *pd)
{
    if (!(pd->branch_pred >= 1))
        return;
    uint32_t L = (uint32_t)llround(pd->branch_pred);
    uint8_t read[REG_MEM - REG_PRED] = { 0 };
    for (uint32_t i = 0; i < s->n_ops; i++) {
        sop_t *o = &s->ops[i];
        int branch = o->kind == K_BRA || o->kind == K_EXIT || o->branch >= 0;
        /* a guard is the op's first register (pn_sass_sim_new adds it first) */
        if (branch && o->guarded && o->n_reads > 0 && o->reg[0] >= REG_PRED &&
            o->reg[0] < REG_MEM) {
            read[o->reg[0] - REG_PRED] = 1;
            o->reg[0] = (uint16_t)(REG_BR + o->reg[0] - REG_PRED);
        }
    }
    for (uint32_t i = 0; i < s->n_ops; i++) {
        sop_t *o = &s->ops[i];
        for (int j = o->n_reads, n = o->n_regs; j < n && o->n_regs < MAX_OP_REGS; j++)
            if (o->reg[j] >= REG_PRED && o->reg[j] < REG_MEM && read[o->reg[j] - REG_PRED]) {
                o->reg[o->n_regs++] = (uint16_t)(REG_BR + o->reg[j] - REG_PRED);
                o->lat_br = L > o->lat ? L : o->lat;
            }
    }
}

/* The lines of code (PN_SASS_CODE_LINE bytes) the ops lie in, numbered in
 * order, and the ops a warp may enter a line at; the profile's code_fetch
 * (examples/probe/icache.cu: straight-line code an SM has not run takes a
 * warp 2.31 cycles an instruction on the H100 and the H200, 1.18 once
 * fetched: 9 cycles a line) is the wait for a line no warp asked for yet. */
#define PN_SASS_CODE_LINE 128
static void code_lines(pn_sass_sim_t *s, const pn_sass_prog_t *prog,
                       const pn_pipe_device_t *pd)
{
    s->fetch = pd->code_fetch >= 1 ? (uint32_t)llround(pd->code_fetch) : 0;
    s->n_clines = 0;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        sop_t *o = &s->ops[i];
        uint32_t line = prog->ops[i].offset / PN_SASS_CODE_LINE;
        int first = i == 0 || line != prog->ops[i - 1].offset / PN_SASS_CODE_LINE;
        s->n_clines += (uint32_t)first;
        o->cline = s->n_clines - 1;
        o->entry |= (uint8_t)first;
        if (o->target >= 0 && (uint32_t)o->target < s->n_ops)
            s->ops[o->target].entry = 1;
        if (o->call && i + 1 < s->n_ops)
            s->ops[i + 1].entry = 1;
    }
}

/* The distinct classes of the ops at each level they may issue at. */
static pn_status_t build_classes(pn_sass_sim_t *s)
{
    s->cls = malloc(3 * (size_t)(s->n_ops ? s->n_ops : 1) * sizeof *s->cls);
    if (!s->cls)
        return PN_ENOMEM;
    for (uint32_t i = 0; i < s->n_ops; i++) {
        sop_t *o = &s->ops[i];
        for (int l = 0; l < 3; l++) {
            pn_sass_class_t c;
            memset(&c, 0, sizeof c);
            for (int q = 0; q < P_N; q++)
                c.cost[q] = pn_sass_cost_at(s, o, l, q);
            c.inflight = pn_sass_op_levels(o) && s->inflight > 0;
            uint32_t k = 0;
            while (k < s->n_cls && memcmp(&s->cls[k], &c, sizeof c))
                k++;
            if (k == s->n_cls)
                s->cls[s->n_cls++] = c;
            o->cls[l] = k;
        }
    }
    for (uint32_t k = 0; k < s->n_cls; k++)
        for (int q = 0; q < P_N; q++)
            if (s->cls[k].cost[q])
                s->cls[k].pipe[s->cls[k].n_pipes++] = (uint8_t)q;
    return PN_OK;
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
    /* blocks of more than 512 threads start further apart (the empty-block
     * probe at 1024 threads: examples/probe/block_launch.cu) */
    if (s->W > 16 && p->pdev->block_launch_1024 >= 1)
        s->launch = (uint32_t)llround(p->pdev->block_launch_1024);
    s->switch_stall = (uint32_t)llround(p->pdev->diverge_switch);
    s->turn = (uint32_t)llround(p->pdev->block_turn + p->pdev->block_turn_warp * s->W);
    s->inflight = pp->inflight;
    s->lat_bar = pp->barrier_latency ? pp->barrier_latency : PN_PIPE_MIN_BARRIER_LATENCY;
    s->bar_stagger = p->pdev->barrier_stagger;
    s->lat_l1 = pp->latency[PN_PIPE_LD_L1];
    s->lat_l2 = pp->latency[PN_PIPE_LD_L2];
    s->lat_dram = pp->latency[PN_PIPE_LD_DRAM];
    s->rate[P_ALU] = pp->rate[PN_PIPE_ALUP];
    s->rate[P_SFU] = pp->rate[PN_PIPE_SFUP];
    s->rate[P_INT] = p->pdev->alu_busy > 0 ? PN_PIPE_UNIT : 0;
    s->rate[P_FMAH] = p->pdev->fmaheavy_busy > 0 ? PN_PIPE_UNIT : 0;
    s->rate[P_FP64] = p->pdev->fp64_busy > 0 ? PN_PIPE_UNIT : 0;
    s->rate[P_LSU] = pp->rate[PN_PIPE_LSU];
    s->rate[P_SHARED] = pp->rate[PN_PIPE_SHMEM];
    s->rate[P_DRAM] = pp->rate[PN_PIPE_DRAM];
    const pn_pipe_device_t *pd = p->pdev;
    double busy = p->busy_sms ? p->busy_sms : 1, share = p->share > 1 ? p->share : 1;
    /* each path's costs in the same units (pn_sass_l2_cost); a few busy SMs reach
     * less than the device's budget */
    s->rate[P_L2] = pd->l2_sectors > 0
                        ? pn_sass_units(share * pd->l2_sectors / busy *
                                        pn_sass_l2_busy_share(pd, 0, busy))
                        : 0;
    s->rate[P_L2W] = pd->l2_sectors > 0
                        ? pn_sass_units(share * pd->l2_sectors / busy *
                                        pn_sass_l2_busy_share(pd, 1, busy))
                        : 0;
    s->rate[P_ATOM] = pd->atomic_serial > 0 || pd->atomic_serial_float > 0 || pd->store_serial > 0 ||
                              pd->n_atomic_lines > 0 || p->mem->atomic_ns > 0 ? PN_PIPE_UNIT : 0;
    s->rate[P_CONST] = pd->const_index_busy > 0 ? PN_PIPE_UNIT : 0;
    s->rate[P_TEX] = pd->tex_busy > 0 ? PN_PIPE_UNIT : 0;
    s->l1_hit = p->mem->l1_hit;
    s->l2_hit = p->mem->l2_hit;
    double D = p->pdev->dram_line_sectors;
    /* measured DRAM traffic (kernel.memory.dram_ld/st_sectors, per warp-level access) as
     * DRAM sectors per requested sector of the program's loads and stores */
    double f_ld = -1, f_st = -1, f_l2 = -1, f_wf = -1;
    {
        double n_ld = 0, s_ld = 0, n_st = 0, s_st = 0, n_loc = 0, n_tex = 0, c_ld = 0;
        for (size_t i = 0; i < prog->n; i++) {
            const pn_sass_op_t *op = &prog->ops[i];
            /* per warp-level access of the program as pnsim import counts them for
             * a kernel.sass config: loads LDG, LDL, TEX, ... + ATOMG, stores STG, STL,
             * SUST + RED (the atomics' own traffic is left to the L2) */
            int local = pn_sass_op_is_local(op), tex = pn_sass_op_is_texture(op);
            /* cp.async copies (LDGSTS) are no loads ncu counts, but the L2 and
             * DRAM read their sectors: in the sectors, not the accesses
             * (cuSOLVER's split-K SGEMM: 14 times its L2 reads otherwise) */
            int copy = pn_sass_op_is_async_copy(op);
            /* ncu's per-kind counts, which the measured traffic is per, leave
             * out executions with no thread on; an op that had none in most of
             * its executions runs as control (cuBLAS's transpose: half its
             * unrolled loads and stores, which had doubled the others' share);
             * the others count those that may have had one (executions_on) */
            if (pn_sass_predicated_off(op))
                continue;
            double on = executions_on(op);
            if (p->mem->l1_ld_wf >= 0 && l1_wavefront_load(op) && s->rate[P_LSU] > 0) {
                double sec, lines;
                sectors_lines(op, &sec, &lines);
                c_ld += on * global_lsu_units(op, sec, lines) / s->rate[P_LSU];
            }
            if (op->in.kind == PN_SASS_GLOBAL_LD)
                n_ld += copy ? 0 : on, s_ld += op->sectors,
                n_loc += local ? op->executed : 0, n_tex += tex ? op->executed : 0;
            else if (op->in.kind == PN_SASS_GLOBAL_ST)
                n_st += on, s_st += op->sectors;
            else if (op->in.kind == PN_SASS_ATOM_GLOBAL && !strncmp(op->in.opcode, "RED", 3))
                n_st += op->executed;
            else if (op->in.kind == PN_SASS_ATOM_GLOBAL)
                n_ld += op->executed;
        }
        if (p->mem->dram_ld >= 0 && s_ld > 0)
            f_ld = p->mem->dram_ld * n_ld / s_ld;
        if (p->mem->dram_st >= 0 && s_st > 0)
            f_st = p->mem->dram_st * n_st / s_st;
        /* launched again and again, a launch writes back at most what it writes:
         * more in the profile is other launches' dirty lines (Nsight Compute's
         * replay passes) */
        if (f_st > 1)
            f_st = 1;
        if (p->mem->l2_ld >= 0 && s_ld > 0)
            f_l2 = p->mem->l2_ld * n_ld / s_ld;
        /* measured L1 wavefronts of the loads: their cycles of the LSU over the
         * program's (an access's sectors, at least a cycle a line), every load
         * its share (rows a thread each whose lanes sit in different banks take
         * a third of their lines; rows a multiple of 128 bytes apart, all in one
         * bank, one a line: examples/probe/row_mix.cu) */
        if (p->mem->l1_ld_wf >= 0 && c_ld > 0)
            f_wf = p->mem->l1_ld_wf * n_ld / c_ld;
        /* the loads' levels: global, local and texture loads at their own hit rates */
        double n_glob = n_ld - (p->mem->local_l1_hit >= 0 ? n_loc : 0) -
                        (p->mem->texture_l1_hit >= 0 ? n_tex : 0);
        if (n_ld > 0 && n_glob < n_ld)
            s->l1_hit = (n_glob * s->l1_hit +
                         (p->mem->local_l1_hit >= 0 ? n_loc * p->mem->local_l1_hit : 0) +
                         (p->mem->texture_l1_hit >= 0 ? n_tex * p->mem->texture_l1_hit : 0)) /
                        n_ld;
        /* what stays in L2 from one launch to the next costs no DRAM there
         * (launched again and again; nothing stays when the L2 is flushed) */
        double g = p->mem->flushed > 0
                       ? 1
                       : pn_sass_resident_share(pd, 32 * ((f_l2 >= 0 ? f_l2 : 1 - s->l1_hit) * s_ld + s_st));
        if (f_ld > 0)
            f_ld *= g;
        if (f_st > 0)
            f_st *= g;
        if (p->mem->flushed > 1)
            s->wb_ld = pn_sass_scrub_writebacks(pd, s_ld, s_st, &f_ld, &f_st);
    }
    s->dram_all = f_ld >= 0;
    s->l2_all = f_l2 >= 0;
    uint8_t *from = malloc(prog->n ? prog->n : 1), *guard = malloc(prog->n ? prog->n : 1);
    double *slice_of = calloc(prog->n ? prog->n : 1, sizeof *slice_of);
    pn_status_t st = PN_ENOMEM;
    if (!from || !guard || !slice_of || (st = pn_sass_addr_lanes(prog, from, guard, err)) != PN_OK) {
        free(from), free(guard), free(slice_of);
        pn_sass_sim_free(s);
        return st == PN_ENOMEM ? pn_error_set(err, PN_ENOMEM, "out of memory") : st;
    }
    /* a global accumulator's slice serves the loads and stores too: their share of
     * it (slice_of, busy SMs' steps an execution; slice, the steps over the launch)
     * less what its float updates leave free (slack) */
    double slice = 0, slack = 0;
    int hot = 0;
    for (size_t i = 0; i < prog->n; i++)
        if (pn_sass_accumulator(&prog->ops[i], from[i]))
            hot = 1, slack += pn_sass_slice_slack(pd, &prog->ops[i]);
    pn_sass_prog_t busiest;
    st = pn_sass_triangle(prog, guard, s->W, busy, &busiest);
    if (st == PN_OK)
        st = pn_sass_polls(prog, &busiest);
    if (st == PN_OK)
        st = pn_sass_plan_build(&s->plan, busiest.ops ? &busiest : prog, guard, s->W, s->blocks,
                                err);
    else
        pn_error_set(err, PN_ENOMEM, "out of memory");
    free(guard);
    free(busiest.ops);
    if (st != PN_OK) {
        free(from), free(slice_of);
        pn_sass_sim_free(s);
        return st;
    }
    s->br = s->plan.branches;
    double grid = prog->warps > 0 && s->W ? prog->warps / s->W : 1;
    uint32_t copies = pn_sass_copies(prog->block, s->W);
    for (uint32_t i = 0; i < s->n_ops; i++)
        s->ops[i].lead = s->ops[i].follow = -1;
    double reused = pn_sass_reuse_in_l1(s, prog);
    if (reused > 0 && reused < 1) {
        f_ld = f_ld > 0 ? f_ld / (1 - reused) : f_ld;
        f_l2 = f_l2 > 0 ? f_l2 / (1 - reused) : f_l2;
    }
    pn_sass_share_l1_hits(s, prog, from);
    for (uint32_t i = 0; i < s->n_ops; i++) {
        int32_t l = s->plan.leader[i];
        if (l < 0)
            continue;
        if (s->ops[l].lead < 0)
            s->ops[l].lead = (int32_t)s->n_lines++;
        s->ops[i].follow = s->ops[l].lead;
    }
    const uint32_t *L = pp->latency;
    /* the words an indexed constant read at an index memory gave, as measured */
    double loaded_words = pn_sass_const_loaded_words(pd, prog, from, p->mem);
    /* stores the L1 merges with the warp's store before them (NULL: none) */
    int32_t *merged = NULL;
    if (pd->store_merge > 0) {
        if (!(merged = malloc((prog->n ? prog->n : 1) * sizeof *merged))) {
            free(from), free(slice_of);
            pn_sass_sim_free(s);
            return pn_error_set(err, PN_ENOMEM, "out of memory");
        }
        pn_sass_store_leaders(prog, merged);
    }
    /* how the loads' addresses move a trip (NULL: no table, no moves known) */
    uint8_t *moves = malloc(prog->n ? prog->n : 1);
    if (moves)
        pn_sass_addr_steps(prog, moves);
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
        double sec, lines;
        sectors_lines(op, &sec, &lines);
        double ex = op->executed > 0 ? op->executed : 0;
        double wf = ex > 0 && op->wavefronts > 0 ? op->wavefronts / ex : 1;
        o->lat = L[PN_PIPE_ARITH];
        /* nothing went to memory: a control op (the switch's default) */
        switch (pn_sass_predicated_off(op) ? PN_SASS_CONTROL : op->in.kind) {
        case PN_SASS_ARITH: case PN_SASS_FP64:
            o->kind = K_ALU;
            o->cost[P_ALU] = pn_sass_units(op->in.kind == PN_SASS_FP64 ? 2 : 1);
            /* its operands take two register-file cycles: bank_conflict steps of
             * the pipe, whose rate is 1 / arith_busy a step */
            if (pd->bank_conflict > 0 && pp->rate[PN_PIPE_ALUP] > 0 && bank_conflict(prog, i))
                o->cost[P_ALU] = pn_sass_units(pd->bank_conflict * pp->rate[PN_PIPE_ALUP] /
                                       PN_PIPE_UNIT);
            if (pn_sass_fma_pipe(op->in.opcode) && o->lat > 2)
                o->lat--; /* dependent FFMA/IMAD: 4.1 cycles, VIADD/LOP3 5.1 (H100 probes) */
            /* FP64 ops on their own pipe, at their own latency, as the profile has them
             * (examples/probe/fp64.cu: DFMA, DADD, DMUL 2 cycles a partition, 8 to the
             * result; FFMA and DFMA alternating issue every cycle) */
            if (op->in.kind == PN_SASS_FP64 && pd->fp64_busy > 0) {
                o->cost[P_ALU] = 0;
                o->cost[P_FP64] = pn_sass_units(pd->fp64_busy);
                /* three distinct 64-bit sources after a writer of one: three
                 * register-file cycles (examples/probe/fp64_operands.cu) */
                if (pd->fp64_bank_conflict > pd->fp64_busy && bank_reads(prog, i, 1) >= 3)
                    o->cost[P_FP64] = pn_sass_units(pd->fp64_bank_conflict);
            }
            if (op->in.kind == PN_SASS_FP64 && pd->fp64_latency >= 1)
                o->lat = (uint32_t)llround(pd->fp64_latency);
            if (op->in.kind == PN_SASS_ARITH) {
                /* the 16-lane pipes: an integer or logic op takes its pipe alone,
                 * an IMAD the FMA-heavy half and its share of the FP32 pipes */
                int q = pn_sass_arith_pipe(op->in.opcode), m = pn_sass_fmah_multiple(&op->in);
                if (q == P_INT && pd->alu_busy > 0) {
                    o->cost[P_INT] = pn_sass_units(pd->alu_busy);
                    o->cost[P_ALU] = 0;
                } else if ((q == P_FMAH || m) && pd->fmaheavy_busy > 0)
                    o->cost[P_FMAH] = pn_sass_units(pd->fmaheavy_busy * (m ? m : 1));
                if (pn_sass_xu_arith(&op->in) && pp->rate[PN_PIPE_SFUP] > 0) {
                    o->kind = K_SFU;
                    o->lat = L[PN_PIPE_SFU];
                    o->cost[P_ALU] = 0;
                    o->cost[P_SFU] = pn_sass_units(1);
                }
            }
            break;
        case PN_SASS_UNIFORM: o->kind = K_UNIFORM; break;
        case PN_SASS_SFU: case PN_SASS_CONV: case PN_SASS_TENSOR:
            o->kind = K_SFU;
            o->lat = L[PN_PIPE_SFU];
            o->cost[P_SFU] = pn_sass_units(1);
            /* a matrix op as the tensor probes measured it, on the SFU's pipe */
            if (op->in.kind == PN_SASS_TENSOR) {
                double tb = pn_sass_tensor_steps(pd, op, 0), lat = pn_sass_tensor_steps(pd, op, 1);
                if (tb > 0 && pp->rate[PN_PIPE_SFUP] > 0)
                    o->cost[P_SFU] = pn_sass_units(tb * pp->rate[PN_PIPE_SFUP] / PN_PIPE_UNIT);
                if (lat >= 1)
                    o->lat = (uint32_t)llround(lat);
            }
            break;
        case PN_SASS_S2R: o->kind = K_SFU; o->lat = L[PN_PIPE_SFU]; break;
        case PN_SASS_SHUFFLE:
            o->kind = K_SHFL;
            o->lat = L[PN_PIPE_SHARED_LD];
            o->cost[P_SHARED] = pn_sass_units(1);
            break;
        case PN_SASS_GLOBAL_LD: case PN_SASS_ATOM_GLOBAL:
            /* a load strong at the GPU's or system's scope (a flag, a look-back
             * status, a volatile) reads what other SMs write: at L2, where their
             * writes land, as an atomic does (.STRONG.SM loads stay in the L1) */
            o->kind = op->in.kind == PN_SASS_GLOBAL_LD && !pn_sass_insn_strong_beyond_sm(&op->in)
                          ? K_GLD
                          : K_ATOMG;
            /* the same addresses in every block (no block index, no loaded value in
             * them): the warps of every block on the SM ask for its lines at about
             * the same time, so its L1 hits are hits on a line in flight; a warp
             * alone on the SM finds its hits there (examples/probe/loop_branch.cu's
             * searches) */
            o->alike = (uint64_t)s->W * s->resident > 1 && op->in.kind == PN_SASS_GLOBAL_LD &&
                       !pn_sass_op_is_local(op) &&
                       !(from[i] & (PN_SASS_FROM_CTA | PN_SASS_FROM_LOAD));
            /* L1 hits that wait for a line in flight: other warps', or its own
             * lanes' (pn_sass_waiting_hits) */
            o->copied = pn_sass_waiting_hits(s, op, o, from[i], moves ? moves[i] : 0, copies,
                                             lines);
            o->cost[P_LSU] = global_lsu_units(op, sec, lines);
            /* a texture fetch takes the SM's texture unit, and its latency is the
             * texture path's (examples/probe/tex_rate.cu) */
            if (pn_sass_opcode_apart(op->in.opcode) == PN_SASS_APART_TEXTURE) {
                if (s->rate[P_TEX])
                    o->cost[P_TEX] = pn_sass_units(pd->tex_busy * (op->in.components > 2 ? 2 : 1));
                if (pd->tex_latency > s->lat_l1)
                    o->tex_extra = (uint32_t)llround(pd->tex_latency) - s->lat_l1;
            }
            /* at least a cycle for each line that misses L1 (its request to L2) */
            if (f_wf >= 0 && l1_wavefront_load(op))
                o->cost[P_LSU] = pn_sass_units(fmax(f_wf * o->cost[P_LSU] / PN_PIPE_UNIT,
                                                    4 * lines * (1 - s->l1_hit)));
            /* its lines come back one after another: its last one later by
             * line_latency a line (examples/probe/line_latency.cu) */
            if (o->kind == K_GLD && lines > 1 && pd->line_latency > 0)
                o->spread = (uint32_t)llround(pd->line_latency * (lines - 1));
            /* measured DRAM sectors, dearer for a few sectors a line; else
             * the line's floor */
            double scat = pn_sass_dram_scatter(pd, p->mem, sec, lines);
            o->cost[P_DRAM] = op->in.kind == PN_SASS_GLOBAL_LD && f_ld >= 0
                                  ? (f_ld * sec > 0 ? pn_sass_units(f_ld * sec * scat) : 0)
                                  : pn_sass_units(fmax(sec, D * lines));
            o->cost[P_L2] = pn_sass_units(pn_sass_l2_cost(pd, op->in.kind == PN_SASS_GLOBAL_LD ? 0 : 2, sec,
                                          lines) * pn_sass_atomic_return(pd, op));
            /* measured L2 reads: every load its share of them, whatever its level */
            if (op->in.kind == PN_SASS_GLOBAL_LD && f_l2 >= 0)
                o->cost[P_L2] = f_l2 > 0 ? pn_sass_units(f_l2 * pn_sass_l2_cost(pd, 0, sec, lines)) : 0;
            if (op->in.kind == PN_SASS_ATOM_GLOBAL && ex > 0)
                o->cost[P_ATOM] = pn_sass_atomic_cost(pd, op, from[i], grid, busy);
            /* measured: the busiest L2 slice's atomic unit, every SM's atomics in
             * turn; at least what the one-address rule gives (the lines rule
             * guesses how many lines the blocks share: the measure knows) */
            if (op->in.kind == PN_SASS_ATOM_GLOBAL && p->mem->atomic_ns > 0 && pd->clock_mhz > 0) {
                uint32_t m = pn_sass_units(pn_sass_atomic_measured(pd, op, p->mem->atomic_ns) *
                                           busy);
                /* lanes on one sector that the measure shows going through at once
                 * (under two one-lane turns): different words of it, a warp-aggregated
                 * atomic's leaders (CUDA samples' warpAggregatedAtomicsCG, 5 such
                 * lanes an execution, +352 % when they took a turn each), one turn */
                double lanes = op->threads > ex ? op->threads / ex : 1;
                if (op->sectors <= ex && lanes > 1 && m < 2 * o->cost[P_ATOM] / lanes)
                    o->cost[P_ATOM] = (uint32_t)(o->cost[P_ATOM] / lanes);
                o->cost[P_ATOM] = m > o->cost[P_ATOM] || op->sectors > ex ? m : o->cost[P_ATOM];
            }
            /* what it reads from DRAM comes into the L2 on the budget the stores
             * write it on (examples/probe/cold_stream.cu) */
            if (o->kind == K_GLD && pd->l2_fill_sectors > 0 && pd->l2_sectors > 0) {
                double fill = f_ld >= 0 ? f_ld * sec : sec;
                o->cost[P_L2W] =
                    fill > 0 ? pn_sass_units(fill * pd->l2_sectors / pd->l2_fill_sectors) : 0;
            }
            if (o->reuse)   /* its line in L1: no L2 or DRAM reads */
                o->cost[P_DRAM] = o->cost[P_L2] = o->cost[P_L2W] = 0;
            if (hot && o->kind == K_GLD && s->rate[P_ATOM] && !o->reuse) {
                double hs = pn_sass_op_slice(pd, s, o, sec, f_ld);
                slice_of[i] = busy * hs, slice += ex * hs;
            }
            break;
        case PN_SASS_GLOBAL_ST:
            o->kind = K_GST;
            o->posted = pd->stores_posted > 0;
            o->lat = L[PN_PIPE_GLOBAL_ST];
            o->cost[P_LSU] = global_lsu_units(op, sec, lines);
            /* its partly written sectors handed to the L2 on the loads' path */
            double port = pn_sass_store_port(pd, op, sec, lines);
            if (port > 0)
                o->cost[P_LSU] = (uint32_t)fmax(o->cost[P_LSU], pn_sass_units(port));
            o->cost[P_L2W] = pn_sass_units(pn_sass_l2_cost(pd, 1, sec, lines) *
                                           pn_sass_store_merged(pd, op, sec, lines,
                                                                merged && merged[i] >= 0));
            o->cost[P_ATOM] = pn_sass_store_cost(pd, op, from[i], busy);
            if (hot && s->rate[P_ATOM] && !o->cost[P_ATOM]) {   /* not a flag's store */
                double hs = pn_sass_op_slice(pd, s, o, sec, f_ld);
                slice_of[i] = busy * hs, slice += ex * hs;
            }
            /* its partly written sectors cost the DRAM more once written back
             * (examples/probe/unaligned.cu) */
            double wb = sec + pd->dram_partial_sectors * pn_sass_partial_sectors(op, sec);
            /* written back to DRAM: as measured, else as the reads miss L2 */
            if (f_st >= 0)
                o->cost[P_DRAM] = f_st * sec > 0 ? pn_sass_units(f_st * wb) : 0;
            else if (p->mem->l2_hit < 1)
                o->cost[P_DRAM] = pn_sass_units(wb * (1 - p->mem->l2_hit));
            break;
        case PN_SASS_SHARED_LD: case PN_SASS_ATOM_SHARED:
            o->kind = K_SLD;
            o->lat = L[PN_PIPE_SHARED_LD];
            pn_sass_shared_on_l1(pp, o, wf);
            break;
        case PN_SASS_SHARED_ST:
            o->kind = K_SST;
            o->lat = L[PN_PIPE_SHARED_ST];
            pn_sass_shared_on_l1(pp, o, wf);
            break;
        case PN_SASS_CONST_LD:
            o->kind = K_CONST;
            o->lat = op->in.opcode[0] == 'U' ? L[PN_PIPE_ARITH] : s->lat_l1;
            /* a constant at a register's index takes the SM's constant cache
             * (examples/probe/const_index.cu) */
            if (s->rate[P_CONST])
                o->cost[P_CONST] = pn_sass_const_cost(pd, prog, op, from[i], loaded_words);
            break;
        case PN_SASS_BARRIER:
            o->kind = !strncmp(op->in.modifiers, ".ARV", 4) ? K_CTRL : K_BAR;
            break;
        default:
            o->kind = pn_sass_op_is_exit(op)                              ? K_EXIT
                      : pn_sass_op_is_branch(op) || pn_sass_op_is_call(op) ? K_BRA
                                                                            : K_CTRL;
            o->call = (uint8_t)pn_sass_op_is_call(op);
            o->ret = (uint8_t)pn_sass_op_is_ret(op);
            /* a taken branch's target issues branch_taken steps later
             * (examples/probe/loop_branch.cu) */
            if (o->kind == K_BRA && pd->branch_taken >= 1)
                o->lat = (uint32_t)llround(pd->branch_taken);
            /* branches and reconvergence take the 16-lane integer pipe (fitted to
             * examples/probe/diverge.cu's 8-way switch) */
            if (pd->branch_busy > 0 && pd->alu_busy > 0 &&
                (o->kind == K_BRA || !strcmp(op->in.opcode, "BSYNC")))
                o->cost[P_INT] = pn_sass_units(pd->branch_busy);
            /* the warp's next op waits for the reconvergence (examples/probe/cold.cu) */
            if (pd->bsync_hold >= 2 && !strcmp(op->in.opcode, "BSYNC"))
                o->hold = (uint32_t)llround(pd->bsync_hold);
            break;
        }
        async_role(op, o);
        store_order(pd, o);
    }
    free(merged);
    free(moves);
    free(from);
    branch_preds(s, pd);
    code_lines(s, prog, pd);
    pn_sass_slice_apply(s, slice_of, slice, slack);
    free(slice_of);
    if (pd->dram_jitter > 0)
        pn_sass_dram_late(s, prog, pd->dram_jitter);
    /* loads issued together from one region share a level: a basic block's
     * loads on one base address register (a row's unrolled chunks, at
     * offsets from one register); one from another base starts a run of its
     * own (a stencil's rows above and below). The largest such run. */
    s->burst = 1;
    int base = -1;
    for (uint32_t i = 0, run = 0; i < s->n_ops; i++) {
        if (i && prog->ops[i].block != prog->ops[i - 1].block)
            run = 0, base = -1;
        if (s->ops[i].kind == K_GLD && pn_sass_op_levels(&s->ops[i]) && !s->ops[i].reuse) {
            int b = pn_sass_addr_base(&prog->ops[i]);
            if (b != base || b < 0)
                run = 0;
            base = b;
            if (++run > s->burst)
                s->burst = run;
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
        s->cap0[q] = s->cap[q] = s->rate[q] ? mx + 2 * s->rate[q] : 0;
        if (q == P_LSU)
            pn_sass_lsu_order(s, mx);
        if ((q == P_DRAM || q == P_L2 || q == P_L2W) && s->rate[q] && pd->budget_depth > 2)
            s->cap[q] = (uint32_t)fmin(mx + pd->budget_depth * s->rate[q], 4e9);
        if (s->resident >= s->blocks)   /* one wave: never deeper */
            s->cap[q] = s->cap0[q];
    }
    if (build_classes(s) != PN_OK) {
        pn_sass_sim_free(s);
        return pn_error_set(err, PN_ENOMEM, "out of memory");
    }
    pn_pipe_bounds_t bd;
    pn_sass_sim_bounds(s, &bd);
    s->floor = bd.steps[bd.binding];
    if ((pd->dram_queue > 0 || pd->dram_write_delay > 0) && s->rate[P_DRAM] && !p->bounds_only &&
        (st = pn_sass_dram_settle(s, pd, err)) != PN_OK) {
        pn_sass_sim_free(s);
        return st;
    }
    *out = s;
    return PN_OK;
}
