/* radix_shared.cu - radix sort, implementation 3 of the Petri-net paper (section 5):
 * the same algorithm as radix_tree.cu (one block of T threads, LSD binary radix sort of
 * n = T*memsize words, phase two as the tree of partial sums of the paper's Figure 5 in
 * log2(T)+1 cycles), but the zeros/ones counts live in SHARED memory.
 *
 * Cycle c (c = 0..r-1, s = 2^c): the elements are cut into groups of 2s; each element of a
 * group's upper half (index 2s*k + u, s <= u < 2s) adds the group's lower-half last element
 * (index 2s*k + s - 1). After r = log2(T) cycles zeros[] and ones[] hold inclusive prefix
 * sums; the last cycle adds the total of the zeros to every ones[] entry.
 *
 * Thread tid owns the memsize consecutive elements src[tid*memsize ...], read from global
 * memory in phase one and again in phase three (see radix_global.cu).
 * Block costs follow the rules in radix_bb.cuh. Build with -DPN_BBV for the BBV counters.
 */
#include "radix_bb.cuh"

#define PN_KERNEL_NAME "radix_shared"
#define PN_NBB 15

__global__ void pn_radix_shared(unsigned *a, unsigned *b, int memsize)
{
    __shared__ unsigned zeros[1024]; /* per-thread counts, then prefix sums (T <= 1024) */
    __shared__ unsigned ones[1024];
    /* bb0 (once): arith 12 = tid= 1, nthreads= 1, src= 1, dst= 1, start=tid*memsize 2,
     * half=nthreads>>1 2, e=tid&(half-1) 3, bit=0 1 */
    BB(0);
    int tid = threadIdx.x;
    int nthreads = blockDim.x;
    unsigned *src = a;
    unsigned *dst = b;
    int start = tid * memsize;
    int half = nthreads >> 1;  /* T/2 additions per array and cycle */
    int e = tid & (half - 1);  /* my element among those T/2 (tid mod T/2) */
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
        /* bb4 (32x): arith 6, shared 2 = failing i<memsize 1, o=memsize-z 2,
         * zeros[tid]=z (= 1, shared write 1), ones[tid]=o (= 1, shared write 1), c=0 1 */
        BB(4);
        unsigned o = memsize - z;
        zeros[tid] = z;
        ones[tid] = o;
        __syncthreads();
        /* ---- phase 2: Figure 5, r = log2(T) cycles of partial sums ---- */
        int c;
        for (c = 0; (1 << c) < nthreads; c++) {
            /* bb5 (32*log2(T) x): arith 21 = (1<<c)<nthreads 2, c++ 2, s=1<<c 2,
             * k=e>>c 2, u=s+(e&(s-1)) 4, base=(k<<c)<<1 3, target=base+u 2,
             * source=base+s-1 3, tid<half 1 */
            BB(5);
            int s = 1 << c;                /* half the group size, 2^c */
            int k = e >> c;                /* my group */
            int u = s + (e & (s - 1));     /* my offset in the group's upper half */
            int base = (k << c) << 1;      /* first index of my group, 2s*k */
            int target = base + u;
            int source = base + s - 1;     /* last element of the lower half */
            if (tid < half) {
                /* bb6 (threads < T/2): arith 2, shared 3 = zeros[target]= (= 1, shared
                 * write 1) zeros[target]+zeros[source] (+ 1, shared reads 2) */
                BB(6);
                zeros[target] = zeros[target] + zeros[source];
            } else {
                /* bb7 (threads >= T/2): arith 2, shared 3 = as bb6, on ones[] */
                BB(7);
                ones[target] = ones[target] + ones[source];
            }
            __syncthreads();
        }
        /* bb8 (32x): arith 5, shared 3 = failing (1<<c)<nthreads 2; last cycle:
         * ones[tid]=ones[tid]+zeros[nthreads-1] (= 1, + 1, - 1, shared reads 2, shared
         * write 1) */
        BB(8);
        ones[tid] = ones[tid] + zeros[nthreads - 1]; /* the ones start after all zeros */
        __syncthreads();
        /* ---- phase 3: stable scatter of my part into dst ---- */
        /* bb9 (32x): arith 5, shared 2 = pz=zeros[tid]-z (- 1, = 1, shared read 1),
         * po=ones[tid]-o (- 1, = 1, shared read 1), i=0 1 */
        BB(9);
        unsigned pz = zeros[tid] - z; /* inclusive -> exclusive prefix sum */
        unsigned po = ones[tid] - o;
        for (i = 0; i < memsize; i++) {
            /* bb10 (32*memsize x): arith 8, global 1 = as bb2 */
            BB(10);
            unsigned x = src[start + i];
            if (((x >> bit) & 1u) == 0u) {
                /* bb11 (once per zero bit): arith 3, global 1 = dst[pz]=x (= 1, global
                 * write 1), pz++ 2 */
                BB(11);
                dst[pz] = x;
                pz++;
            } else {
                /* bb12 (once per one bit): arith 3, global 1 = dst[po]=x (= 1, global
                 * write 1), po++ 2 */
                BB(12);
                dst[po] = x;
                po++;
            }
        }
        /* bb13 (32x): arith 4 = failing i<memsize 1, t=src 1, src=dst 1, dst=t 1 */
        BB(13);
        unsigned *t = src;
        src = dst;
        dst = t;
        __syncthreads(); /* dst complete before the next pass reads it as src */
    }
    /* bb14 (once): arith 1 = failing bit<32. After 32 passes the result is back in a. */
    BB(14);
}

/* Cost of one execution of bb0..bb14: {arith, shared, global}, from the comments above. */
static const pn_block_cost PN_BLOCKS[PN_NBB] = {
    {12, 0, 0}, /* bb0  entry */
    {5, 0, 0},  /* bb1  pass head */
    {8, 0, 1},  /* bb2  phase 1 loop body */
    {2, 0, 0},  /* bb3  phase 1 zero bit: z++ */
    {6, 2, 0},  /* bb4  store counts */
    {21, 0, 0}, /* bb5  phase 2 cycle: indices */
    {2, 3, 0},  /* bb6  phase 2 addition on zeros[] */
    {2, 3, 0},  /* bb7  phase 2 addition on ones[] */
    {5, 3, 0},  /* bb8  last cycle: ones += total zeros */
    {5, 2, 0},  /* bb9  phase 3 head */
    {8, 0, 1},  /* bb10 phase 3 loop body */
    {3, 0, 1},  /* bb11 scatter a zero */
    {3, 0, 1},  /* bb12 scatter a one */
    {4, 0, 0},  /* bb13 pass tail: swap */
    {1, 0, 0},  /* bb14 exit */
};

static void pn_radix_launch(int T, unsigned *a, unsigned *b, unsigned *zeros, unsigned *ones,
                            int memsize)
{
    (void)zeros; /* the kernel keeps its counts in shared memory */
    (void)ones;
    pn_radix_shared<<<1, T>>>(a, b, memsize);
}

#include "radix_host.cuh"
