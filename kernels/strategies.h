/*
 * strategies.h - the one table of force strategies (X-macro): name and
 * description. The CUDA backend binds each row to its launch function;
 * the engine uses the names for parsing and --list-strategies.
 * Adding a strategy: one row here, one file in kernels/.
 */
#ifndef MD_STRATEGIES_H
#define MD_STRATEGIES_H

/* Tunable launch parameters of a strategy (third column). */
#define MD_TUNE_BLOCK 1		/* threads per block          */
#define MD_TUNE_TPP   2		/* lanes per particle         */
#define MD_TUNE_RATIO 4		/* hybrid_ratio               */

#define MD_STRATEGY_TABLE(X) \
	X(global, "baseline: one thread per particle, neighbour indices and positions read from global memory", \
	  MD_TUNE_BLOCK) \
	X(shared, "one warp per cell stages the positions of the 27 neighbouring cells in shared memory and computes from there (no list)", \
	  0) \
	X(register, "tpp lanes per particle; own data in registers, the next neighbours prefetched into registers, warp-shuffle reduction", \
	  MD_TUNE_BLOCK | MD_TUNE_TPP) \
	X(hybrid, "a fraction hybrid_ratio of the cells on the shared path, the rest on the register path, in one launch", \
	  MD_TUNE_TPP | MD_TUNE_RATIO) \
	X(tiled, "all pairs with shared-memory tiles (N-body tiling), no neighbour list: small systems and a GPU reference", \
	  MD_TUNE_BLOCK) \
	X(staged, "a block per cell stages the 27 cells' positions in shared memory; the particles walk a 16-bit list of indices into them, 128/occupancy lanes each", \
	  0)

#endif
