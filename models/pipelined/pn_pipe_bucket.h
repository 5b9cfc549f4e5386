/* pn_pipe_bucket.h - the compiled pipelined engine's token buckets, refilled
 * lazily: a bucket keeps its level at one marking and the refills left
 * before it stops, so a step costs nothing for the buckets it does not touch
 * (pn_pipe_engine.c; the refill rule is models/pipelined/PIPELINED.md's). */
#ifndef PN_PIPE_BUCKET_H
#define PN_PIPE_BUCKET_H

#include <assert.h>
#include <stdint.h>

/* A bucket of capacity cap refilled by rate: at step s it refills when
 * cap - level(M_s) >= rate, after the step's takings. It holds lvl at the
 * marking M_at and refills in each of the next k steps in which nothing is
 * taken (k = floor((cap - lvl) / rate), then cap - level < rate); pend is
 * the refill of the step at - 1 when that step took from it (the level
 * within that step is lvl - pend). */
typedef struct pn_pipe_bucket {
    uint64_t lvl, at, k, pend;
    uint64_t cap, rate;
    uint64_t inv;                      /* ceil(2^64 / rate) for 2 <= rate < 2^32, else 0 */
} pn_pipe_bucket_t;

/* A full bucket at M_0. */
static inline void pn_pipe_bucket_init(pn_pipe_bucket_t *b, uint64_t cap, uint64_t rate)
{
    *b = (pn_pipe_bucket_t){ .lvl = cap, .cap = cap, .rate = rate,
                             .inv = rate >= 2 && rate >> 32 == 0 ? UINT64_MAX / rate + 1 : 0 };
}

/* floor(a / rate), rate >= 1: for a < 2^32 a multiplication by the
 * reciprocal, exact for 32-bit operands (Lemire, Kaser and Kurz, "Faster
 * remainder by direct computation", 2019), else a division. O(1). */
static inline uint64_t pn_pipe_bucket_div(const pn_pipe_bucket_t *b, uint64_t a)
{
#ifdef __SIZEOF_INT128__
    if (a >> 32 == 0 && b->inv) {
        __extension__ typedef unsigned __int128 u128;
        uint64_t q = (uint64_t)(((u128)b->inv * a) >> 64);
        assert(q == a / b->rate);
        return q;
    }
#endif
    return a / b->rate;
}

/* Refills in the steps at .. t - 1 (t >= at), none taken in them. O(1). */
static inline uint64_t pn_pipe_bucket_refills(const pn_pipe_bucket_t *b, uint64_t t)
{
    uint64_t d = t - b->at;
    return d < b->k ? d : b->k;
}

/* The level within step t (t + 1 >= at): M_t's, less what step t took. O(1). */
static inline uint64_t pn_pipe_bucket_now(const pn_pipe_bucket_t *b, uint64_t t)
{
    if (b->at == t + 1)
        return b->lvl - b->pend;
    return b->lvl + b->rate * pn_pipe_bucket_refills(b, t);
}

/* The level at M_{t+1}, after step t's takings and refills (t + 1 >= at). O(1). */
static inline uint64_t pn_pipe_bucket_next(const pn_pipe_bucket_t *b, uint64_t t)
{
    return b->lvl + b->rate * pn_pipe_bucket_refills(b, t + 1);
}

/* Take c units in step t (at most the level within it); the refill firings
 * of the steps up to t are added to *firings. O(1). */
static inline void pn_pipe_bucket_take(pn_pipe_bucket_t *b, uint64_t t, uint64_t c,
                                       uint64_t *firings)
{
    assert(b->rate > 0);
    if (b->at != t + 1) {               /* first taking in step t: its refill, on M_t */
        uint64_t j = pn_pipe_bucket_refills(b, t);
        uint64_t l = b->lvl + b->rate * j;
        b->pend = b->rate & -(uint64_t)(b->cap - l >= b->rate);
        *firings += j + (b->pend != 0);
        b->lvl = l + b->pend;
        b->at = t + 1;
    }
    assert(b->lvl - b->pend >= c);
    b->lvl -= c;
    b->k = pn_pipe_bucket_div(b, b->cap - b->lvl);
}

/* The refill firings left to count when the run ends after step t. */
static inline uint64_t pn_pipe_bucket_close(const pn_pipe_bucket_t *b, uint64_t t)
{
    return pn_pipe_bucket_refills(b, t + 1);
}

#endif
