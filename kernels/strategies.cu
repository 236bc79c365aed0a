/*
 * strategies.cu - binds each row of the strategy table (strategies.h) to
 * its launch function. Indexed by enum md_strategy.
 */
#include "gpu_common.cuh"

void gpu_force_global(const gpu_sys *, const gpu_launch *, int, cudaStream_t);
void gpu_force_shared(const gpu_sys *, const gpu_launch *, int, cudaStream_t);
void gpu_force_register(const gpu_sys *, const gpu_launch *, int, cudaStream_t);
void gpu_force_hybrid(const gpu_sys *, const gpu_launch *, int, cudaStream_t);
void gpu_force_tiled(const gpu_sys *, const gpu_launch *, int, cudaStream_t);

#define GPU_STRATEGY_ROW(name, desc, tune) { #name, gpu_force_##name, tune },
const gpu_strategy gpu_strategies[MD_STRAT_COUNT] = {
	MD_STRATEGY_TABLE(GPU_STRATEGY_ROW)
};
