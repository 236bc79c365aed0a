/*
 * strategies.h - the one table of force strategies (X-macro): name and
 * description. The CUDA backend binds each row to its launch function;
 * the engine uses the names for parsing and --list-strategies.
 * Adding a strategy: one row here, one file in kernels/.
 */
#ifndef MD_STRATEGIES_H
#define MD_STRATEGIES_H

#define MD_STRATEGY_TABLE(X) \
	X(global, "baseline: one thread per particle, neighbour indices and positions read from global memory") \
	X(shared, "a block stages its particles' neighbour positions in padded shared memory, then computes from there") \
	X(register, "several lanes per particle; own data in registers, neighbour data prefetched into registers, warp-shuffle reduction") \
	X(hybrid, "a fraction hybrid_ratio of the particles on the shared path, the rest on the register path, in one launch") \
	X(tiled, "all-pairs with shared-memory tiles (N-body tiling), no neighbour list: small systems and a GPU reference")

#endif
