/* radix_bb.cuh - basic-block counters for the radix-sort examples (the BBV build).
 *
 * Built with -DPN_BBV, BB(id) adds one to thread threadIdx.x's counter of source basic
 * block `id` in a global array laid out [block][thread] (pn_bbv, set by the host before the
 * launch). Without PN_BBV, BB(id) compiles to nothing, so the timed kernels are the plain
 * ones. The host writes the counters as bbv/<kernel>-<T>.csv (thread,bb0,bb1,...).
 *
 * Each kernel file also holds PN_BLOCKS, the cost of one execution of each block, counted
 * the way the Petri-net paper counts (section 5):
 *   arith  - every assignment (a declaration with an initialiser included), every
 *            arithmetic, bitwise, shift, relational and logical operator: 1 each; a
 *            compound assignment (a += b) or an increment (a++) is 2 (operation + assignment);
 *            a subscript of an array held in registers would be 1 (these kernels have none).
 *   global - every read or write of an element of an array in global memory: 1 each.
 *   shared - every read or write of an element of an array in shared memory: 1 each.
 * Operators inside a subscript expression are counted (start + i is one addition); the
 * subscript of a global or shared array itself is not. Reading a variable, a constant, a
 * kernel parameter or threadIdx.x / blockDim.x is free; __syncthreads() is not counted.
 * A for loop: its initial assignment belongs to the block before the loop, its test and
 * increment to the loop body's first block (once per iteration), and the final, failing
 * test to the block after the loop. An if's condition belongs to the block evaluating it.
 */
#ifndef RADIX_BB_CUH
#define RADIX_BB_CUH

#ifdef PN_BBV
__device__ unsigned *pn_bbv; /* [PN_NBB][blockDim.x] per-thread execution counters */
#define BB(id) (pn_bbv[(id) * blockDim.x + threadIdx.x] += 1u)
#else
#define BB(id) ((void)0)
#endif

/* Cost of one execution of a basic block: arithmetic instructions, shared accesses,
 * global accesses. */
struct pn_block_cost {
    int arith, shared, global;
};

#endif /* RADIX_BB_CUH */
