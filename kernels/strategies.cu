/*
 * strategies.cu - binds each row of the strategy table (strategies.h) to
 * its launch function, and says which launches can also complete an NVE
 * step (GPU_F_KICK_DRIFT), which read a 16-bit list (s.list16,
 * list_build.cuh) and which take x and v from the t arrays after a build
 * (s.xv_lazy). Indexed by enum md_strategy.
 */
#include "gpu_common.cuh"

void gpu_force_global(const gpu_sys *, const gpu_launch *, int, cudaStream_t);
void gpu_force_shared(const gpu_sys *, const gpu_launch *, int, cudaStream_t);
void gpu_force_register(const gpu_sys *, const gpu_launch *, int, cudaStream_t);
void gpu_force_hybrid(const gpu_sys *, const gpu_launch *, int, cudaStream_t);
void gpu_force_tiled(const gpu_sys *, const gpu_launch *, int, cudaStream_t);
void gpu_force_staged(const gpu_sys *, const gpu_launch *, int, cudaStream_t);

#define GPU_KICK_DRIFT_global   0
#define GPU_KICK_DRIFT_shared   0
#define GPU_KICK_DRIFT_register 1
#define GPU_KICK_DRIFT_hybrid   0
#define GPU_KICK_DRIFT_tiled    0
#define GPU_KICK_DRIFT_staged   1

#define GPU_LIST16_global   0
#define GPU_LIST16_shared   0
#define GPU_LIST16_register 0
#define GPU_LIST16_hybrid   0
#define GPU_LIST16_tiled    0
#define GPU_LIST16_staged   1

/* the fused step reads x and v from the scatter's t arrays after a build
 * (s.xv_lazy, k_build_list) */
#define GPU_XV_LAZY_global   0
#define GPU_XV_LAZY_shared   0
#define GPU_XV_LAZY_register 1
#define GPU_XV_LAZY_hybrid   0
#define GPU_XV_LAZY_tiled    0
#define GPU_XV_LAZY_staged   0

#define GPU_STRATEGY_ROW(name, desc, tune) \
	{ #name, gpu_force_##name, tune, GPU_KICK_DRIFT_##name, GPU_LIST16_##name, \
	  GPU_XV_LAZY_##name },
const gpu_strategy gpu_strategies[MD_STRAT_COUNT] = {
	MD_STRATEGY_TABLE(GPU_STRATEGY_ROW)
};
