/* radix_global.cu - radix sort, implementation 1 of the Petri-net paper (section 5):
 * one block of T threads sorts n = T*memsize 32-bit words by LSD binary radix sort
 * (32 passes, one per bit); zeros/ones counts live in GLOBAL memory and phase two (the
 * prefix sums) is done by thread 0 alone, sequentially.
 *
 * Thread tid owns the memsize consecutive elements src[tid*memsize ...]. The paper's
 * threads first copy their part into registers; with memsize up to 1024 words that is not
 * possible, so here each thread reads its part from global memory in phase one and again
 * in phase three.
 *
 * Block costs (arith, shared, global per execution) follow the rules in radix_bb.cuh; the
 * comment at each BB(id) lists what is counted. Build with -DPN_BBV for the BBV counters.
 */
#include "radix_bb.cuh"

#define PN_KERNEL_NAME "radix_global"
#define PN_NBB 16

__global__ void pn_radix_global(unsigned *a, unsigned *b, unsigned *zeros, unsigned *ones,
                                int memsize)
{
    /* bb0 (once): arith 7 = tid= 1, nthreads= 1, src= 1, dst= 1, start=tid*memsize 2,
     * bit=0 1 */
    BB(0);
    int tid = threadIdx.x;
    int nthreads = blockDim.x;
    unsigned *src = a;
    unsigned *dst = b;
    int start = tid * memsize;
    int bit;
    for (bit = 0; bit < 32; bit++) {
        /* bb1 (32x): arith 5 = bit<32 1, bit++ 2, z=0 1, i=0 1 */
        BB(1);
        /* ---- phase 1: count the elements of my part whose bit `bit` is 0 ---- */
        unsigned z = 0;
        int i;
        for (i = 0; i < memsize; i++) {
            /* bb2 (32*memsize x): arith 8, global 1 = i<memsize 1, i++ 2,
             * x=src[start+i] (+ 1, = 1, global read 1), ((x>>bit)&1u)==0u 3 */
            BB(2);
            unsigned x = src[start + i];
            if (((x >> bit) & 1u) == 0u) {
                /* bb3 (once per zero bit, data dependent): arith 2 = z++ 2 */
                BB(3);
                z++;
            }
        }
        /* bb4 (32x): arith 5, global 2 = failing i<memsize 1, zeros[tid]=z (= 1, global
         * write 1), ones[tid]=memsize-z (- 1, = 1, global write 1), tid==0 1 */
        BB(4);
        zeros[tid] = z;
        ones[tid] = memsize - z;
        __syncthreads();
        /* ---- phase 2: thread 0 alone turns the counts into start positions ---- */
        if (tid == 0) {
            /* bb5 (32x, thread 0 only): arith 2 = sum=0 1, j=0 1 */
            BB(5);
            unsigned sum = 0;
            int j;
            for (j = 0; j < nthreads; j++) {
                /* bb6 (32*T x, thread 0 only): arith 7, global 2 = j<nthreads 1, j++ 2,
                 * c=zeros[j] (= 1, global read 1), zeros[j]=sum (= 1, global write 1),
                 * sum+=c 2 */
                BB(6);
                unsigned c = zeros[j];
                zeros[j] = sum; /* exclusive prefix sum of the zeros */
                sum += c;
            }
            /* bb7 (32x, thread 0 only): arith 2 = failing j<nthreads 1, j=0 1 */
            BB(7);
            for (j = 0; j < nthreads; j++) {
                /* bb8 (32*T x, thread 0 only): arith 7, global 2 = as bb6, on ones[] */
                BB(8);
                unsigned c = ones[j];
                ones[j] = sum; /* the ones start after all zeros */
                sum += c;
            }
            /* bb9 (32x, thread 0 only): arith 1 = failing j<nthreads */
            BB(9);
        }
        __syncthreads();
        /* ---- phase 3: stable scatter of my part into dst ---- */
        /* bb10 (32x): arith 3, global 2 = pz=zeros[tid] (= 1, global read 1),
         * po=ones[tid] (= 1, global read 1), i=0 1 */
        BB(10);
        unsigned pz = zeros[tid];
        unsigned po = ones[tid];
        for (i = 0; i < memsize; i++) {
            /* bb11 (32*memsize x): arith 8, global 1 = as bb2 */
            BB(11);
            unsigned x = src[start + i];
            if (((x >> bit) & 1u) == 0u) {
                /* bb12 (once per zero bit): arith 3, global 1 = dst[pz]=x (= 1, global
                 * write 1), pz++ 2 */
                BB(12);
                dst[pz] = x;
                pz++;
            } else {
                /* bb13 (once per one bit): arith 3, global 1 = dst[po]=x (= 1, global
                 * write 1), po++ 2 */
                BB(13);
                dst[po] = x;
                po++;
            }
        }
        /* bb14 (32x): arith 4 = failing i<memsize 1, t=src 1, src=dst 1, dst=t 1 */
        BB(14);
        unsigned *t = src;
        src = dst;
        dst = t;
        __syncthreads(); /* dst complete before the next pass reads it as src */
    }
    /* bb15 (once): arith 1 = failing bit<32. After 32 passes the result is back in a. */
    BB(15);
}

/* Cost of one execution of bb0..bb15: {arith, shared, global}, from the comments above. */
static const pn_block_cost PN_BLOCKS[PN_NBB] = {
    {7, 0, 0}, /* bb0  entry */
    {5, 0, 0}, /* bb1  pass head */
    {8, 0, 1}, /* bb2  phase 1 loop body */
    {2, 0, 0}, /* bb3  phase 1 zero bit: z++ */
    {5, 0, 2}, /* bb4  store counts, tid==0 */
    {2, 0, 0}, /* bb5  phase 2 head (thread 0) */
    {7, 0, 2}, /* bb6  phase 2 zeros loop body (thread 0) */
    {2, 0, 0}, /* bb7  between the two loops (thread 0) */
    {7, 0, 2}, /* bb8  phase 2 ones loop body (thread 0) */
    {1, 0, 0}, /* bb9  phase 2 tail (thread 0) */
    {3, 0, 2}, /* bb10 phase 3 head */
    {8, 0, 1}, /* bb11 phase 3 loop body */
    {3, 0, 1}, /* bb12 scatter a zero */
    {3, 0, 1}, /* bb13 scatter a one */
    {4, 0, 0}, /* bb14 pass tail: swap */
    {1, 0, 0}, /* bb15 exit */
};

static void pn_radix_launch(int T, unsigned *a, unsigned *b, unsigned *zeros, unsigned *ones,
                            int memsize)
{
    pn_radix_global<<<1, T>>>(a, b, zeros, ones, memsize);
}

#include "radix_host.cuh"
