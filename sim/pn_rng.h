/* pn_rng.h - inline PCG32 (XSH-RR 64/32), stream-for-stream identical to
 * igraph's igraph_rngtype_pcg32 and its igraph_rng_get_integer(0, n-1);
 * tests/test_rng.c pins both bit for bit. */
#ifndef PN_RNG_H
#define PN_RNG_H

#include <stdint.h>

typedef struct pn_rng {
    uint64_t state;
    uint64_t inc;
} pn_rng_t;

#define PN_RNG_MULT       UINT64_C(6364136223846793005)
#define PN_RNG_INIT_STATE UINT64_C(0x853c49e6748fea9b)
#define PN_RNG_INIT_INC   UINT64_C(0xda3e39cb94b95bdb)

/* Next 32 random bits. O(1). */
static inline uint32_t pn_rng_next(pn_rng_t *r)
{
    uint64_t old = r->state;
    r->state = old * PN_RNG_MULT + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* Seed as igraph_rng_seed does for PCG32: the seed selects the stream (seed 0
 * selects igraph's default stream); the state starts from PCG's initializer. */
static inline void pn_rng_seed(pn_rng_t *r, uint64_t seed)
{
    uint64_t seq = seed ? seed : (PN_RNG_INIT_INC >> 1);
    r->state = 0;
    r->inc = (seq << 1u) | 1u;
    pn_rng_next(r);
    r->state += PN_RNG_INIT_STATE;
    pn_rng_next(r);
}

/* Uniform integer in [0, range), range >= 1: Lemire's debiased multiply, as
 * igraph_rng_get_integer(rng, 0, range - 1); draws nothing when range == 1.
 * The rejection threshold (a division) is computed only when the low half
 * falls below range, the only case it can reject (it is < range): the same
 * draws and results as computing it first. */
static inline uint32_t pn_rng_below(pn_rng_t *r, uint32_t range)
{
    if (range <= 1)
        return 0;
    uint64_t m = (uint64_t)pn_rng_next(r) * range;
    if ((uint32_t)m < range) {
        uint32_t t = (uint32_t)(-range) % range;
        while ((uint32_t)m < t)
            m = (uint64_t)pn_rng_next(r) * range;
    }
    return (uint32_t)(m >> 32);
}

/* Shuffle a[0..n) uniformly, in igraph_vector_int_shuffle's order of draws
 * (i from n-1 down to 1, swap a[i] with a[below(i+1)]). O(n). */
static inline void pn_rng_shuffle_u32(pn_rng_t *r, uint32_t *a, uint32_t n)
{
    for (uint32_t i = n; i-- > 1;) {
        uint32_t j = pn_rng_below(r, i + 1);
        uint32_t tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }
}

#endif
