/*
 * force_shared.cu - strategy `shared`: one warp per cell; the positions of
 * the 27 neighbouring cells are staged in shared memory (kernels/
 * cell_sweep.cuh) and each lane computes its particle against them. Reads
 * no neighbour list: more pair tests (the whole cell neighbourhood) but
 * every position comes from shared memory.
 */
#include "gpu_common.cuh"
#include "cell_sweep.cuh"

template <bool TYPED>
__global__ void __launch_bounds__(GPU_WARPS_PER_CELL_BLOCK * 32)
k_force_shared(gpu_sys s, int eflag)
{
	__shared__ int4 sp[GPU_WARPS_PER_CELL_BLOCK][32];
	int c = blockIdx.x * GPU_WARPS_PER_CELL_BLOCK + (threadIdx.x >> 5);

	if (gpu_halted(s) || c >= s.ncell)
		return;
	gpu_cell_sweep<TYPED>(s, c, eflag, sp[threadIdx.x >> 5]);
}

void gpu_force_shared(const gpu_sys *s, const gpu_launch *l, int eflag,
		      cudaStream_t st)
{
	(void)l;
	GPU_LAUNCH_TYPED(k_force_shared, s, gpu_cell_blocks(s),
			 GPU_WARPS_PER_CELL_BLOCK * 32, 0, st, *s, eflag);
}
