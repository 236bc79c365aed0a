/*
 * force_hybrid.cu - strategy `hybrid`: in one launch, the first
 * hybrid_ratio of the cells run the shared-memory path (warp per cell) and
 * the particles of the remaining cells run the register path. Both paths
 * are the same device functions as the `shared` and `register` strategies.
 * The split is by cells (particles are in cell order), so the shared part
 * covers particles [0, cell_start[split]) and the register part the rest.
 */
#include <limits.h>
#include "gpu_common.cuh"
#include "cell_sweep.cuh"
#include "register_path.cuh"

#define HYB_BLOCK (GPU_WARPS_PER_CELL_BLOCK * 32)

template <bool TYPED, bool EFLAG>
__global__ void __launch_bounds__(HYB_BLOCK)
k_force_hybrid(gpu_sys s, int split_cell, int shared_blocks, int tpp)
{
	__shared__ int4 sp[GPU_WARPS_PER_CELL_BLOCK][32];

	if (gpu_halted(s))
		return;
	if ((int)blockIdx.x < shared_blocks) {
		int c = blockIdx.x * GPU_WARPS_PER_CELL_BLOCK + (threadIdx.x >> 5);

		if (c < split_cell)
			gpu_cell_sweep<TYPED>(s, c, EFLAG, sp[threadIdx.x >> 5]);
	} else {
		int t = (blockIdx.x - shared_blocks) * blockDim.x + threadIdx.x;
		int nthreads = (gridDim.x - shared_blocks) * blockDim.x;

		gpu_register_path<TYPED, EFLAG ? GPU_F_ENERGY : GPU_F_FORCE>(
			s, tpp, s.cell_start[split_cell], t / tpp, nthreads / tpp);
	}
}

void gpu_force_hybrid(const gpu_sys *s, const gpu_launch *l, int eflag,
		      cudaStream_t st)
{
	int split = (int)(l->hybrid_ratio * s->ncell + 0.5f);
	int sb = (split + GPU_WARPS_PER_CELL_BLOCK - 1) / GPU_WARPS_PER_CELL_BLOCK;
	/* register part: enough blocks for its share (grid-stride covers more) */
	long rest = (long)((1.0f - l->hybrid_ratio) * s->n * 1.1f) + 32;
	int rb = (int)((rest * l->tpp + HYB_BLOCK - 1) / HYB_BLOCK);

	if (split > s->ncell)
		split = s->ncell;
	if (rb > INT_MAX / HYB_BLOCK - sb)	/* thread indices are int (grid-stride covers the rest) */
		rb = INT_MAX / HYB_BLOCK - sb;
	GPU_LAUNCH_TYPED_E(k_force_hybrid, s, eflag, sb + rb, HYB_BLOCK, 0, st, *s,
			   split, sb, l->tpp);
}
