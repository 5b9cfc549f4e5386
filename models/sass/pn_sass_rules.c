/* pn_sass_rules.c - what the sass engine and the sass net share: levels of a
 * warp's loads, its branch decisions, an op's costs and latency
 * (pn_sass_sim_i.h). */
#include <math.h>

#include "pn_sass_sim_i.h"

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The level of run x (0 <= x < gb, phase applied) of pattern l. */
static int run_level(const pn_sass_levels_t *l, uint64_t x)
{
    uint64_t gb = l->gb;
    if (pn_sass_heavy(x, l->lvb[0], gb))
        return 0;
    /* the runs before x that are not at L1 */
    uint64_t j = x - (x * l->lvb[0] + gb - 1) / gb;
    return pn_sass_heavy(j, l->lvb[1], gb - l->lvb[0]) ? 1 : 2;
}

void pn_sass_warp_levels(const pn_sass_sim_t *s, uint32_t gw, pn_sass_levels_t *l)
{
    uint64_t g = gw < s->plan.n_warps ? s->plan.loads[gw] : 0;
    if (g == 0)
        g = 1;
    l->g = g;
    l->burst = s->burst < 1 ? 1 : s->burst > g ? g : s->burst;
    uint64_t gb = l->gb = (g + l->burst - 1) / l->burst;
    /* its runs at L1 and at L2: the hit rates' shares of its runs, rounded at
     * an offset of the warp's own (a low-discrepancy sequence, 1/2 for warp
     * 0), so that over the warps each level gets its share of the runs even
     * where a warp has one */
    double u1 = fmod(0.5 + (double)gw * 0.6180339887498949, 1.0);
    double u2 = fmod(0.5 + (double)gw * 0.7548776662466927, 1.0);
    uint64_t a = (uint64_t)floor((double)gb * s->l1_hit + u1);
    l->lvb[0] = a > gb ? gb : a;
    uint64_t b = (uint64_t)floor((double)(gb - l->lvb[0]) * s->l2_hit + u2);
    l->lvb[1] = b > gb - l->lvb[0] ? gb - l->lvb[0] : b;
    l->lvb[2] = gb - l->lvb[0] - l->lvb[1];
    /* warps start at different runs of the pattern (a multiplicative hash) */
    l->phase = (uint64_t)(((uint32_t)gw * 2654435761u) % (uint32_t)(gb < UINT32_MAX ? gb : UINT32_MAX));
    /* the loads at each level: whole runs, the last one (of g - (gb - 1) burst
     * loads) at the level of its run */
    for (int v = 0; v < 3; v++)
        l->lv[v] = l->lvb[v] * l->burst;
    l->lv[run_level(l, (gb - 1 + l->phase) % gb)] -= gb * l->burst - g;
}

int pn_sass_load_level(const pn_sass_levels_t *l, uint64_t k)
{
    return run_level(l, ((k % l->g) / l->burst + l->phase) % l->gb);
}

/* The branch's decisions for warp gw: v decisions, b of them both sides, h of
 * the others its busier side (the warp's own totals, else the launch's). */
static void decisions(const pn_sass_sim_t *s, uint32_t gw, const sop_t *o, uint64_t *h,
                      uint64_t *v, uint64_t *b)
{
    const pn_sass_branch_t *br = &s->br[o->branch];
    size_t nbr = s->plan.n_branches, x = (size_t)gw * nbr + o->branch;
    *v = gw < s->plan.n_warps ? s->plan.visits[x] : 0;
    *h = gw < s->plan.n_warps ? s->plan.heavy[x] : 0;
    *b = gw < s->plan.n_warps ? s->plan.both[x] : 0;
    if (*v == 0) {
        *v = (uint64_t)br->visits;
        *b = (uint64_t)br->both;
        *h = (uint64_t)pn_sass_branch_heavy(br);
        if (*v == 0)
            *v = 1;
    }
}

int pn_sass_decide(const pn_sass_sim_t *s, uint32_t gw, const sop_t *o, uint64_t k)
{
    uint64_t h, v, b;
    decisions(s, gw, o, &h, &v, &b);
    int d = pn_sass_heavy3(k, b, h, v);
    return d == 2 ? 2 : d == s->br[o->branch].heavy_taken;
}

uint64_t pn_sass_decide_period(const pn_sass_sim_t *s, uint32_t gw, const sop_t *o)
{
    uint64_t h, v, b;
    decisions(s, gw, o, &h, &v, &b);
    return h == 0 || h >= v ? 1 : v / gcd64(h, v);
}

int pn_sass_cost_level(const pn_sass_sim_t *s, const sop_t *o, int q)
{
    int gld = o->kind == K_GLD;
    if (!gld && o->kind != K_ATOMG)
        return 0;
    if ((q == P_DRAM || (q == P_L2W && gld)) && !(s->dram_all && gld))
        return 2;
    return q == P_L2 && !(s->l2_all && gld) ? 1 : 0;
}

uint32_t pn_sass_cost_at(const pn_sass_sim_t *s, const sop_t *o, int lvl, int q)
{
    return lvl < pn_sass_cost_level(s, o, q) ? 0 : o->cost[q];
}

uint32_t pn_sass_copies(const uint32_t block[3], uint32_t W)
{
    uint64_t x = block[0], n = (uint64_t)block[0] * block[1] * block[2];
    if (!x || (n + 31) / 32 != W || x >= n || (x < 32 ? 32 % x : x % 32))
        return 1;
    return W / (uint32_t)((x + 31) / 32);
}

/* pn_sass_latency_at but a texture fetch's extra steps. */
static uint32_t latency_at(const pn_sass_sim_t *s, const sop_t *o, int lvl)
{
    if (o->follow >= 0)
        return s->lat_l1;
    if (!pn_sass_op_levels(o))
        return o->lat;
    uint32_t miss = lvl <= 1 ? s->lat_l2 : s->lat_dram + o->dram_late;
    if (lvl > 0 || o->alike)
        return miss + o->spread;
    if (!(o->copied > 0))
        return s->lat_l1;
    /* a hit on a line in flight: the miss's level as the kernel's L2 hits have it */
    double h2 = s->l2_hit < 0 ? 0 : s->l2_hit > 1 ? 1 : s->l2_hit;
    double late = h2 * s->lat_l2 + (1 - h2) * (s->lat_dram + o->dram_late) + o->spread;
    return (uint32_t)llround(s->lat_l1 + o->copied * (late > s->lat_l1 ? late - s->lat_l1 : 0));
}

uint32_t pn_sass_latency_at(const pn_sass_sim_t *s, const sop_t *o, int lvl)
{
    return latency_at(s, o, lvl) + o->tex_extra;
}
