/* pn_pipe.c - the pipelined SM net of models/pipelined/PIPELINED.md, arc by arc. */
#include "pn_pipe.h"
#include "pn_program_net.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const pn_pipe_kind_names[PN_PIPE_KINDS] = {
    "arith", "sfu", "shared_ld", "shared_st", "ld_l1", "ld_l2", "ld_dram", "global_st"
};

const char *const pn_pipe_pipe_names[PN_PIPE_PIPES] = { "lsu", "shared", "dram", "sfu", "alu" };

static int is_load(int k)
{
    return k == PN_PIPE_LD_L1 || k == PN_PIPE_LD_L2 || k == PN_PIPE_LD_DRAM;
}

static uint32_t min_latency(int k)
{
    return is_load(k) ? 3u : 2u;
}

uint32_t pn_pipe_capacity(const pn_pipe_params_t *p, pn_pipe_pipe_t pipe)
{
    if (p->rate[pipe] == 0)
        return 0;
    uint32_t c = 0;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        if (p->cost[k][pipe] > c)
            c = p->cost[k][pipe];
    return c + 2 * p->rate[pipe];
}

/* Does a block of p pass barriers (counts' barriers, or programs' sync items)? */
static int has_barriers(const pn_pipe_params_t *p)
{
    return p->barriers > 0 || (p->programs && pn_program_syncs(&p->programs[0]) > 0);
}

pn_status_t pn_pipe_check(const pn_pipe_params_t *p, pn_error_t *err)
{
    if (p->partitions < 1 || p->partitions > PN_PIPE_MAX_PARTITIONS)
        return pn_error_set(err, PN_EINVAL, "partitions must be between 1 and %u, got %u",
                            PN_PIPE_MAX_PARTITIONS, p->partitions);
    if (p->issue < 1 || p->issue > PN_PIPE_MAX_ISSUE)
        return pn_error_set(err, PN_EINVAL, "issue must be between 1 and %u, got %u",
                            PN_PIPE_MAX_ISSUE, p->issue);
    for (int k = 0; k < PN_PIPE_KINDS; k++) {
        if (p->latency[k] < min_latency(k) || p->latency[k] > PN_PIPE_MAX_LATENCY)
            return pn_error_set(err, PN_EINVAL, "latency of %s must be between %u and %u, got %u",
                                pn_pipe_kind_names[k], min_latency(k), PN_PIPE_MAX_LATENCY,
                                p->latency[k]);
        for (int q = 0; q < PN_PIPE_PIPES; q++) {
            if (p->cost[k][q] > 0 && p->rate[q] == 0)
                return pn_error_set(err, PN_EINVAL,
                                    "%s takes %u units from the %s pipe, which has no rate",
                                    pn_pipe_kind_names[k], p->cost[k][q], pn_pipe_pipe_names[q]);
            if (p->cost[k][q] > 256u * PN_PIPE_UNIT)
                return pn_error_set(err, PN_EINVAL, "%s: cost on the %s pipe above %u units",
                                    pn_pipe_kind_names[k], pn_pipe_pipe_names[q],
                                    256u * PN_PIPE_UNIT);
        }
    }
    for (int q = 0; q < PN_PIPE_PIPES; q++)
        if (p->rate[q] > 1000u * PN_PIPE_UNIT)
            return pn_error_set(err, PN_EINVAL, "rate of the %s pipe above %u units per step",
                                pn_pipe_pipe_names[q], 1000u * PN_PIPE_UNIT);
    if (p->n_warps < 1 || !p->warps)
        return pn_error_set(err, PN_EINVAL, "a pipelined net needs at least one warp");
    if (p->programs && p->barriers > 0)
        return pn_error_set(err, PN_EINVAL, "with programs, barriers are the programs' sync "
                            "items (barriers must be 0)");
    for (uint32_t w = 0; p->programs && w < p->n_warps; w++) {
        if (pn_program_syncs(&p->programs[w]) != pn_program_syncs(&p->programs[0]))
            return pn_error_set(err, PN_EINVAL, "warp %u passes %" PRIu64 " barriers and warp 0 "
                                "%" PRIu64 "; every warp of a block passes the same barriers",
                                w, pn_program_syncs(&p->programs[w]),
                                pn_program_syncs(&p->programs[0]));
        uint64_t c[PN_PROGRAM_KINDS];
        const uint64_t *n = p->warps[w].n;
        PN_CHECK(pn_program_kind_counts(&p->programs[w], c, err));
        if (c[PN_KIND_ARITH] != n[PN_PIPE_ARITH] || c[PN_KIND_SHARED] != n[PN_PIPE_SHARED_LD] ||
            c[PN_KIND_GLOBAL] != n[PN_PIPE_LD_L1] + n[PN_PIPE_LD_L2] + n[PN_PIPE_LD_DRAM] ||
            c[PN_PROGRAM_SFU] != n[PN_PIPE_SFU] || c[PN_PROGRAM_SHARED_ST] != n[PN_PIPE_SHARED_ST] ||
            c[PN_PROGRAM_GLOBAL_ST] != n[PN_PIPE_GLOBAL_ST])
            return pn_error_set(err, PN_EINVAL, "warp %u: the counts are not those its program "
                                "implies", w);
    }
    if (p->barriers > PN_PIPE_MAX_COUNT)
        return pn_error_set(err, PN_ELIMIT, "barriers per warp exceed the limit %" PRIu64,
                            (uint64_t)PN_PIPE_MAX_COUNT);
    if (has_barriers(p) && (p->barrier_latency < PN_PIPE_MIN_BARRIER_LATENCY ||
                            p->barrier_latency > PN_PIPE_MAX_LATENCY))
        return pn_error_set(err, PN_EINVAL, "latency of barrier must be between %u and %u, got %u",
                            PN_PIPE_MIN_BARRIER_LATENCY, PN_PIPE_MAX_LATENCY,
                            p->barrier_latency);
    for (uint32_t w = 0; w < p->n_warps; w++)
        for (int k = 0; k < PN_PIPE_KINDS; k++)
            if (p->warps[w].n[k] > PN_PIPE_MAX_COUNT)
                return pn_error_set(err, PN_ELIMIT, "warp %u: count of %s exceeds the limit %" PRIu64,
                                    w, pn_pipe_kind_names[k], (uint64_t)PN_PIPE_MAX_COUNT);
    if (p->block_warps) {
        const uint64_t total = (uint64_t)(p->blocks ? p->blocks : 1) * p->n_warps;
        if (p->programs)
            return pn_error_set(err, PN_EINVAL, "per-block counts do not go with programs");
        for (uint64_t w = 0; w < total; w++)
            for (int k = 0; k < PN_PIPE_KINDS; k++)
                if (p->block_warps[w].n[k] > PN_PIPE_MAX_COUNT)
                    return pn_error_set(err, PN_ELIMIT, "block %" PRIu64 " warp %" PRIu64 ": "
                                        "count of %s exceeds the limit %" PRIu64,
                                        w / p->n_warps, w % p->n_warps, pn_pipe_kind_names[k],
                                        (uint64_t)PN_PIPE_MAX_COUNT);
    }
    return PN_OK;
}

uint64_t pn_pipe_phase(const pn_pipe_counts_t *c, uint64_t barriers)
{
    uint64_t n = 0;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        n += c->n[k];
    return n / (barriers + 1);
}

uint64_t pn_pipe_single_warp_steps(const pn_pipe_counts_t *c, const uint32_t *latency)
{
    uint64_t s = 3;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        s += c->n[k] * latency[k];
    return s;
}

uint64_t pn_pipe_single_warp_idle(const pn_pipe_counts_t *c, const uint32_t *latency)
{
    uint64_t s = 2;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        s += c->n[k] * (latency[k] - 1);
    return s;
}

/* ---- building ---------------------------------------------------------------- */

typedef struct builder {
    pn_net_t *net;
    pn_error_t *err;
    char name[96];
} builder_t;

static pn_status_t place(builder_t *b, pn_tokens_t m0, uint32_t *id, const char *fmt, ...)
    PN_PRINTF(4, 5);
static pn_status_t trans(builder_t *b, uint32_t *id, const char *fmt, ...) PN_PRINTF(3, 4);

static pn_status_t place(builder_t *b, pn_tokens_t m0, uint32_t *id, const char *fmt, ...)
{
    if (!b->net->counting) {   /* a counting net takes no names */
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b->name, sizeof b->name, fmt, ap);
        va_end(ap);
    }
    return pn_net_add_place(b->net, b->name, m0, id, b->err);
}

static pn_status_t trans(builder_t *b, uint32_t *id, const char *fmt, ...)
{
    if (!b->net->counting) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b->name, sizeof b->name, fmt, ap);
        va_end(ap);
    }
    return pn_net_add_transition(b->net, b->name, id, b->err);
}

static pn_status_t in(builder_t *b, uint32_t t, uint32_t p, uint32_t w)
{
    return pn_net_add_arc(b->net, PN_ARC_INPUT, t, p, w, b->err);
}

static pn_status_t out(builder_t *b, uint32_t t, uint32_t p, uint32_t w)
{
    return pn_net_add_arc(b->net, PN_ARC_OUTPUT, t, p, w, b->err);
}

static pn_status_t inh(builder_t *b, uint32_t t, uint32_t p)
{
    return pn_net_add_arc(b->net, PN_ARC_INHIBITOR, t, p, 1, b->err);
}

/* A token bucket: bucket (full), room (empty), refill R*room -> R*bucket
 * inhibited by done. */
typedef struct bucket {
    uint32_t bucket, room, refill;
    int present;
} bucket_t;

static pn_status_t add_bucket(builder_t *b, bucket_t *bk, const char *name, uint32_t cap,
                              uint32_t rate, uint32_t done)
{
    bk->present = rate > 0;
    if (!bk->present)
        return PN_OK;
    PN_CHECK(place(b, cap, &bk->bucket, "%s.bucket", name));
    PN_CHECK(place(b, 0, &bk->room, "%s.room", name));
    PN_CHECK(trans(b, &bk->refill, "%s.refill", name));
    PN_CHECK(in(b, bk->refill, bk->room, rate));
    PN_CHECK(out(b, bk->refill, bk->bucket, rate));
    return inh(b, bk->refill, done);
}

/* Warp-local place ids. */
typedef struct warp_places {
    uint32_t c, r, go, z, a, b, bud, barl, wait;
    uint32_t x[PN_PIPE_KINDS], s[PN_PIPE_KINDS], g[PN_PIPE_KINDS], f[PN_PIPE_KINDS];
} warp_places_t;

/* What a warp's sub-net connects to besides the global part. */
typedef struct warp_ctx {
    const bucket_t *sm_pipes, *sfu, *alu;
    uint32_t inflight;            /* place, or UINT32_MAX */
    uint32_t started;             /* 1: the block is resident from M0 */
    uint32_t start;               /* the block's start transition (not started) */
    uint32_t pfin_b;              /* the block's pfin, or UINT32_MAX */
    uint32_t arr_b, rel_b;        /* the block's barrier places, or UINT32_MAX */
} warp_ctx_t;

static pn_status_t add_warp(builder_t *b, const pn_pipe_params_t *p, uint32_t w, uint32_t i,
                            const pn_pipe_layout_t *lay, const warp_ctx_t *cx)
{
    const pn_pipe_counts_t *cnt = p->block_warps ? &p->block_warps[w] : &p->warps[i];
    const uint32_t part = i % p->partitions;
    const uint64_t k_bar = p->barriers;
    uint64_t n = 0;
    for (int k = 0; k < PN_PIPE_KINDS; k++)
        n += cnt->n[k];
    const uint64_t phase = pn_pipe_phase(cnt, k_bar), last = n - k_bar * phase;
    warp_places_t wp;
    PN_CHECK(place(b, cx->started, &wp.c, "w%u.c", w));
    PN_CHECK(place(b, cx->started, &wp.r, "w%u.r", w));
    PN_CHECK(place(b, 0, &wp.go, "w%u.go", w));
    PN_CHECK(place(b, 0, &wp.z, "w%u.z", w));
    PN_CHECK(place(b, 0, &wp.a, "w%u.a", w));
    PN_CHECK(place(b, 0, &wp.b, "w%u.b", w));
    for (int k = 0; k < PN_PIPE_KINDS; k++) {
        const char *kn = pn_pipe_kind_names[k];
        PN_CHECK(place(b, cnt->n[k], &wp.x[k], "w%u.x_%s", w, kn));
        PN_CHECK(place(b, 0, &wp.s[k], "w%u.s_%s", w, kn));
        PN_CHECK(place(b, 0, &wp.g[k], "w%u.g_%s", w, kn));
        PN_CHECK(place(b, 0, &wp.f[k], "w%u.f_%s", w, kn));
    }
    if (k_bar > 0) {
        PN_CHECK(place(b, phase, &wp.bud, "w%u.bud", w));
        PN_CHECK(place(b, k_bar, &wp.barl, "w%u.barl", w));
        PN_CHECK(place(b, 0, &wp.wait, "w%u.wait", w));
    }
    uint32_t t;
    if (!cx->started) {
        PN_CHECK(out(b, cx->start, wp.c, 1));
        PN_CHECK(out(b, cx->start, wp.r, 1));
    }
    for (int k = 0; k < PN_PIPE_KINDS; k++) {
        const char *kn = pn_pipe_kind_names[k];
        const uint32_t L = p->latency[k];
        /* frame I: select kind k while the previous instruction is in flight */
        if (!p->programs) {
            PN_CHECK(trans(b, &t, "w%u.sel_%s", w, kn));
            PN_CHECK(in(b, t, wp.c, 1));
            PN_CHECK(in(b, t, wp.x[k], 1));
            if (k_bar > 0)
                PN_CHECK(in(b, t, wp.bud, 1));
            PN_CHECK(out(b, t, wp.s[k], 1));
        }
        /* acquire: the warp is ready, its pipes have room; frame I goes on */
        PN_CHECK(trans(b, &t, "w%u.acq_%s", w, kn));
        PN_CHECK(in(b, t, wp.r, 1));
        PN_CHECK(in(b, t, wp.s[k], 1));
        for (int q = 0; q < PN_PIPE_PIPES; q++) {
            uint32_t cost = p->cost[k][q];
            if (cost == 0)
                continue;
            const bucket_t *bk = q == PN_PIPE_SFUP ? &cx->sfu[part]
                                 : q == PN_PIPE_ALUP ? &cx->alu[part] : &cx->sm_pipes[q];
            PN_CHECK(in(b, t, bk->bucket, cost));
            PN_CHECK(out(b, t, bk->room, cost));
        }
        if (is_load(k) && p->inflight > 0)
            PN_CHECK(in(b, t, cx->inflight, 1));
        PN_CHECK(out(b, t, wp.g[k], 1));
        PN_CHECK(out(b, t, wp.go, 1));
        PN_CHECK(out(b, t, wp.c, 1));
        /* issue: one step on the partition's scheduler */
        PN_CHECK(trans(b, &t, "w%u.iss_%s", w, kn));
        PN_CHECK(in(b, t, wp.g[k], 1));
        PN_CHECK(in(b, t, wp.go, 1));
        PN_CHECK(in(b, t, lay->sched0 + part, 1));
        PN_CHECK(out(b, t, lay->sched0 + part, 1));
        if (L == 2) {
            PN_CHECK(out(b, t, wp.r, 1));
            continue;
        }
        PN_CHECK(out(b, t, wp.f[k], 1));
        if (L > 3)
            PN_CHECK(out(b, t, wp.a, L - 3));
        /* finish: the latency counted down, the warp is ready */
        PN_CHECK(trans(b, &t, "w%u.fin_%s", w, kn));
        PN_CHECK(in(b, t, wp.f[k], 1));
        if (L > 3)
            PN_CHECK(in(b, t, wp.b, L - 3));
        PN_CHECK(inh(b, t, wp.a));
        PN_CHECK(out(b, t, wp.r, 1));
        if (is_load(k) && p->inflight > 0)
            PN_CHECK(out(b, t, cx->inflight, 1));
    }
    /* tick: one step of latency */
    PN_CHECK(trans(b, &t, "w%u.tick", w));
    PN_CHECK(in(b, t, wp.a, 1));
    PN_CHECK(out(b, t, wp.b, 1));
    if (k_bar > 0) {
        /* arrive at a barrier: the phase's instructions are done */
        PN_CHECK(trans(b, &t, "w%u.arrive", w));
        PN_CHECK(in(b, t, wp.c, 1));
        PN_CHECK(in(b, t, wp.r, 1));
        PN_CHECK(in(b, t, wp.barl, 1));
        PN_CHECK(inh(b, t, wp.bud));
        PN_CHECK(out(b, t, wp.wait, 1));
        PN_CHECK(out(b, t, cx->arr_b, 1));
        /* go on after the block's release, with the next phase's budget */
        PN_CHECK(trans(b, &t, "w%u.resume", w));
        PN_CHECK(in(b, t, wp.wait, 1));
        PN_CHECK(in(b, t, cx->rel_b, 1));
        PN_CHECK(in(b, t, wp.barl, 1));
        PN_CHECK(out(b, t, wp.barl, 1));
        PN_CHECK(out(b, t, wp.c, 1));
        PN_CHECK(out(b, t, wp.r, 1));
        if (phase > 0)
            PN_CHECK(out(b, t, wp.bud, (uint32_t)phase));
        PN_CHECK(trans(b, &t, "w%u.resume_last", w));
        PN_CHECK(in(b, t, wp.wait, 1));
        PN_CHECK(in(b, t, cx->rel_b, 1));
        PN_CHECK(inh(b, t, wp.barl));
        PN_CHECK(out(b, t, wp.c, 1));
        PN_CHECK(out(b, t, wp.r, 1));
        if (last > 0)
            PN_CHECK(out(b, t, wp.bud, (uint32_t)last));
    }
    /* terminate: nothing left, last instruction done */
    PN_CHECK(trans(b, &t, "w%u.term", w));
    PN_CHECK(in(b, t, wp.c, 1));
    PN_CHECK(in(b, t, wp.r, 1));
    if (p->programs) {
        /* frame I is the program's sequencer: it marks `end` after the last item */
        const pn_program_t *prog = &p->programs[i];
        /* one alternative per kind but global loads (one per level), and
         * the item kind each pipe kind is */
        static const struct { int item, pipe; } single[] = {
            { PN_KIND_ARITH, PN_PIPE_ARITH }, { PN_KIND_SHARED, PN_PIPE_SHARED_LD },
            { PN_PROGRAM_SFU, PN_PIPE_SFU }, { PN_PROGRAM_SHARED_ST, PN_PIPE_SHARED_ST },
            { PN_PROGRAM_GLOBAL_ST, PN_PIPE_GLOBAL_ST },
        };
        pn_program_ports_t pp = { .trigger = wp.c, .chosen = UINT32_MAX,
                                  .ready = wp.r, .arrive = cx->arr_b, .release = cx->rel_b };
        for (size_t a = 0; a < sizeof single / sizeof single[0]; a++) {
            pp.n_alt[single[a].item] = 1;
            pp.out[single[a].item][0] = wp.s[single[a].pipe];
            pp.count[single[a].item][0] = UINT32_MAX;
        }
        pp.n_alt[PN_KIND_GLOBAL] = 3;
        for (int a = 0; a < 3; a++) {
            pp.out[PN_KIND_GLOBAL][a] = wp.s[PN_PIPE_LD_L1 + a];
            pp.count[PN_KIND_GLOBAL][a] = wp.x[PN_PIPE_LD_L1 + a];
        }
        PN_CHECK(place(b, pn_program_is_empty(prog) ? 1 : 0, &pp.end, "w%u.end", w));
        PN_CHECK(in(b, t, pp.end, 1));
        PN_CHECK(pn_program_net_sequencer(b->net, w, prog, &pp, b->err));
    } else {
        for (int k = 0; k < PN_PIPE_KINDS; k++)
            PN_CHECK(inh(b, t, wp.x[k]));
    }
    if (k_bar > 0)
        PN_CHECK(inh(b, t, wp.barl));
    PN_CHECK(out(b, t, wp.z, 1));
    PN_CHECK(out(b, t, lay->pfin, 1));
    if (cx->pfin_b != UINT32_MAX)
        PN_CHECK(out(b, t, cx->pfin_b, 1));
    /* retire: leave pw */
    PN_CHECK(trans(b, &t, "w%u.retire", w));
    PN_CHECK(in(b, t, wp.z, 1));
    PN_CHECK(in(b, t, lay->pw, 1));
    /* t0 waits only while no warp is about to issue or retire */
    PN_CHECK(inh(b, lay->t0, wp.go));
    return inh(b, lay->t0, wp.z);
}

/* Block b's own nodes: its start (b >= resident), completion (when blocks
 * wait for a slot) and barrier release (barriers > 0); cx receives them. */
/* The launch countdown shared by the block starts: la ticks to lb. */
typedef struct launch_cd {
    uint32_t la, lb;
} launch_cd_t;

static pn_status_t add_block(builder_t *b, const pn_pipe_params_t *p, uint32_t blk,
                             uint32_t blocks, uint32_t resident, uint32_t slot, uint32_t *turn,
                             const launch_cd_t *cd, warp_ctx_t *cx)
{
    const uint32_t W = p->n_warps;
    uint32_t t;
    cx->started = blk < resident;
    cx->pfin_b = UINT32_MAX;
    if (blocks > resident) {
        PN_CHECK(place(b, 0, &cx->pfin_b, "b%u.pfin", blk));
        PN_CHECK(trans(b, &t, "b%u.end", blk));
        PN_CHECK(in(b, t, cx->pfin_b, W));
        PN_CHECK(out(b, t, slot, 1));
    }
    if (!cx->started) {
        /* start in program order: block blk takes turn_blk and passes it on */
        uint32_t next = UINT32_MAX;
        if (blk + 1 < blocks)
            PN_CHECK(place(b, 0, &next, "b%u.turn", blk + 1));
        PN_CHECK(trans(b, &cx->start, "b%u.start", blk));
        PN_CHECK(in(b, cx->start, slot, 1));
        PN_CHECK(in(b, cx->start, *turn, 1));
        const uint32_t G = p->block_launch ? p->block_launch : 1;
        if (next != UINT32_MAX && G == 1) {
            PN_CHECK(out(b, cx->start, next, 1));
        } else if (next != UINT32_MAX) {
            /* the next block may start G steps after this one */
            uint32_t lf, lfin;
            PN_CHECK(place(b, 0, &lf, "b%u.lf", blk));
            PN_CHECK(out(b, cx->start, lf, 1));
            if (G > 2)
                PN_CHECK(out(b, cx->start, cd->la, G - 2));
            PN_CHECK(trans(b, &lfin, "b%u.launched", blk));
            PN_CHECK(in(b, lfin, lf, 1));
            if (G > 2) {
                PN_CHECK(in(b, lfin, cd->lb, G - 2));
                PN_CHECK(inh(b, lfin, cd->la));
            }
            PN_CHECK(out(b, lfin, next, 1));
        }
        *turn = next;
    }
    if (has_barriers(p)) {
        const uint32_t Lb = p->barrier_latency;
        PN_CHECK(place(b, 0, &cx->arr_b, "b%u.arr", blk));
        PN_CHECK(place(b, 0, &cx->rel_b, "b%u.rel", blk));
        PN_CHECK(trans(b, &t, "b%u.release", blk));
        PN_CHECK(in(b, t, cx->arr_b, W));
        if (Lb == PN_PIPE_MIN_BARRIER_LATENCY)
            return out(b, t, cx->rel_b, W);
        uint32_t f, a, bb, fin, tick;
        PN_CHECK(place(b, 0, &f, "b%u.f", blk));
        PN_CHECK(place(b, 0, &a, "b%u.a", blk));
        PN_CHECK(place(b, 0, &bb, "b%u.b", blk));
        PN_CHECK(out(b, t, f, 1));
        if (Lb > 6)
            PN_CHECK(out(b, t, a, Lb - 6));
        PN_CHECK(trans(b, &tick, "b%u.tick", blk));
        PN_CHECK(in(b, tick, a, 1));
        PN_CHECK(out(b, tick, bb, 1));
        PN_CHECK(trans(b, &fin, "b%u.fin", blk));
        PN_CHECK(in(b, fin, f, 1));
        if (Lb > 6)
            PN_CHECK(in(b, fin, bb, Lb - 6));
        PN_CHECK(inh(b, fin, a));
        PN_CHECK(out(b, fin, cx->rel_b, W));
    }
    return PN_OK;
}

pn_status_t pn_pipe_build(pn_net_t *net, const pn_pipe_params_t *p, pn_pipe_layout_t *layout,
                          pn_error_t *err)
{
    PN_CHECK(pn_pipe_check(p, err));
    builder_t b = { .net = net, .err = err };
    pn_pipe_layout_t lay;
    const uint32_t blocks = p->blocks ? p->blocks : 1, resident = p->resident ? p->resident : 1;
    const uint64_t total = (uint64_t)blocks * p->n_warps;
    if (total > UINT32_MAX)
        return pn_error_set(err, PN_ELIMIT, "%u blocks of %u warps: too many warps for one net",
                            blocks, p->n_warps);
    PN_CHECK(place(&b, total, &lay.pw, "pw"));
    PN_CHECK(place(&b, 0, &lay.pfin, "pfin"));
    PN_CHECK(place(&b, 0, &lay.done, "done"));
    for (uint32_t j = 0; j < p->partitions; j++) {
        uint32_t id;
        PN_CHECK(place(&b, p->issue, &id, "q%u", j));
        if (j == 0)
            lay.sched0 = id;
    }
    PN_CHECK(trans(&b, &lay.t0, "t0"));
    PN_CHECK(in(&b, lay.t0, lay.pw, 1));
    PN_CHECK(out(&b, lay.t0, lay.pw, 1));
    PN_CHECK(trans(&b, &lay.t_done, "t_done"));
    PN_CHECK(in(&b, lay.t_done, lay.pfin, (uint32_t)total));
    PN_CHECK(out(&b, lay.t_done, lay.done, 1));

    bucket_t sm_pipes[PN_PIPE_PIPES];
    memset(sm_pipes, 0, sizeof sm_pipes);
    for (int q = 0; q < PN_PIPE_SFUP; q++)
        PN_CHECK(add_bucket(&b, &sm_pipes[q], pn_pipe_pipe_names[q],
                            pn_pipe_capacity(p, (pn_pipe_pipe_t)q), p->rate[q], lay.done));
    bucket_t sfu[PN_PIPE_MAX_PARTITIONS], alu[PN_PIPE_MAX_PARTITIONS];
    for (uint32_t j = 0; j < p->partitions; j++) {
        char nm[16];
        snprintf(nm, sizeof nm, "sfu%u", j);
        PN_CHECK(add_bucket(&b, &sfu[j], nm, pn_pipe_capacity(p, PN_PIPE_SFUP),
                            p->rate[PN_PIPE_SFUP], lay.done));
    }
    for (uint32_t j = 0; j < p->partitions; j++) {
        char nm[16];
        snprintf(nm, sizeof nm, "alu%u", j);
        PN_CHECK(add_bucket(&b, &alu[j], nm, pn_pipe_capacity(p, PN_PIPE_ALUP),
                            p->rate[PN_PIPE_ALUP], lay.done));
    }
    uint32_t inflight = UINT32_MAX;
    if (p->inflight > 0)
        PN_CHECK(place(&b, p->inflight, &inflight, "inflight"));

    uint32_t slot = UINT32_MAX, turn = UINT32_MAX;
    launch_cd_t cd = { UINT32_MAX, UINT32_MAX };
    if (blocks > resident) {
        PN_CHECK(place(&b, 0, &slot, "slot"));
        PN_CHECK(place(&b, 1, &turn, "b%u.turn", resident));
        if (p->block_launch > 2) {
            uint32_t lt;
            PN_CHECK(place(&b, 0, &cd.la, "launch.a"));
            PN_CHECK(place(&b, 0, &cd.lb, "launch.b"));
            PN_CHECK(trans(&b, &lt, "launch.tick"));
            PN_CHECK(in(&b, lt, cd.la, 1));
            PN_CHECK(out(&b, lt, cd.lb, 1));
        }
    }
    lay.warp_place0 = net->n_places;
    lay.warp_trans0 = net->n_trans;
    warp_ctx_t cx = { .sm_pipes = sm_pipes, .sfu = sfu, .alu = alu, .inflight = inflight,
                      .arr_b = UINT32_MAX, .rel_b = UINT32_MAX };
    /* blocks resident .. blocks - 2 are alike (not started, one after them,
     * the same warps): a counting net builds the first and counts it again */
    const uint32_t alike = net->counting && !p->block_warps && blocks > resident + 2
                           ? blocks - 1 - resident : 0;
    for (uint32_t blk = 0; blk < blocks; blk++) {
        pn_net_count_t mark;
        pn_net_count_mark(net, &mark);
        PN_CHECK(add_block(&b, p, blk, blocks, resident, slot, &turn, &cd, &cx));
        for (uint32_t i = 0; i < p->n_warps; i++)
            PN_CHECK(add_warp(&b, p, blk * p->n_warps + i, i, &lay, &cx));
        if (alike && blk == resident) {
            PN_CHECK(pn_net_count_repeat(net, &mark, alike - 1, err));
            blk = blocks - 2;                   /* the last block next */
        }
    }
    PN_CHECK(pn_net_freeze(net, err));
    if (layout)
        *layout = lay;
    return PN_OK;
}
