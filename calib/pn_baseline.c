/* pn_baseline.c - roofline-style and BBV-weighted estimates in model steps. */
#include "pn_baseline.h"

#include <stdlib.h>

double pn_baseline_warp_steps(const pn_warp_counts_t *c, uint32_t l1, uint32_t l2)
{
    return (double)pn_sm_single_warp_steps(c, l1, l2);
}

double pn_baseline_bbv_weighted(const pn_warp_counts_t *w, uint32_t n, uint32_t l1,
                                uint32_t l2)
{
    double s = 0;
    for (uint32_t i = 0; i < n; i++)
        s += pn_baseline_warp_steps(&w[i], l1, l2);
    return s;
}

double pn_baseline_roofline(const pn_warp_counts_t *w, uint32_t n, uint32_t schedulers,
                            uint32_t l1, uint32_t l2)
{
    double issue = 0, latency = 0;
    for (uint32_t i = 0; i < n; i++) {
        issue += PN_BASELINE_HOLD_ARITH * (double)w[i].arith +
                 (PN_BASELINE_HOLD_SHARED_BASE + (double)l2) * (double)w[i].shared +
                 PN_BASELINE_HOLD_GLOBAL * (double)w[i].global;
        double t = pn_baseline_warp_steps(&w[i], l1, l2);
        if (t > latency)
            latency = t;
    }
    issue /= schedulers ? schedulers : 1;
    return issue > latency ? issue : latency;
}

uint32_t pn_baseline_resident_blocks(uint32_t max_warps, uint32_t warps_per_block)
{
    uint32_t r = warps_per_block ? max_warps / warps_per_block : 1;
    return r ? r : 1;
}

double pn_baseline_static(const double *block_lat, size_t n, uint32_t sms)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += block_lat[i];
    return s / (sms ? sms : 1);
}

/* A min-heap of (free time, slot) pairs. */
typedef struct slot {
    double t;
    size_t id;
} slot_t;

static int slot_less(const slot_t *a, const slot_t *b)
{
    return a->t < b->t || (a->t == b->t && a->id < b->id);
}

static void sift_down(slot_t *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && slot_less(&h[l], &h[m]))
            m = l;
        if (r < n && slot_less(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        slot_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

double pn_baseline_scheduled(const double *block_lat, size_t n, size_t slots)
{
    if (n == 0)
        return 0;
    if (slots == 0)
        slots = 1;
    size_t k = slots < n ? slots : n;
    slot_t *h = malloc(k * sizeof *h);
    if (!h)
        return -1;
    double end = 0;
    for (size_t i = 0; i < k; i++) {
        h[i].t = block_lat[i];
        h[i].id = i;
        if (h[i].t > end)
            end = h[i].t;
    }
    for (size_t i = k / 2; i-- > 0;)
        sift_down(h, k, i);
    for (size_t i = k; i < n; i++) {
        h[0].t += block_lat[i];     /* the earliest-free slot takes the next block */
        if (h[0].t > end)
            end = h[0].t;
        sift_down(h, k, 0);
    }
    free(h);
    return end;
}
