/*
 * force_register.cu - strategy `register`: tpp lanes per particle with
 * register caching and prefetch (kernels/register_path.cuh), no shared
 * memory.
 */
#include "gpu_common.cuh"
#include "register_path.cuh"

/* Neighbours per lane and window, loaded as one vector (register_path.cuh) */
#define REG_BATCH 4

template <bool TYPED, bool FC, int OUT, int BATCH>
__global__ void k_force_register(gpu_sys s, int tpp)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	if (gpu_halted(s))
		return;
	if (OUT == GPU_F_KICK_DRIFT && t == 0) {	/* NVE: nobody reads them here */
		count_since(s);
		s.st->step++;
	}
	gpu_register_path<TYPED, OUT, BATCH, true, FC, true, true>(s, tpp, 0, t / tpp,
							     gridDim.x * blockDim.x / tpp);
}

template <int OUT, int BATCH>
static void launch(const gpu_sys *s, int grid, int block, int tpp,
		   cudaStream_t st)
{
	if (s->ntypes > 1)
		k_force_register<true, true, OUT, BATCH><<<grid, block, 0, st>>>(*s, tpp);
	else if (gpu_fc_free(s))
		k_force_register<false, false, OUT, BATCH><<<grid, block, 0, st>>>(*s, tpp);
	else
		k_force_register<false, true, OUT, BATCH><<<grid, block, 0, st>>>(*s, tpp);
}

template <int BATCH>
static void launch_out(const gpu_sys *s, int out, int grid, int block, int tpp,
		       cudaStream_t st)
{
	if (out == GPU_F_KICK_DRIFT)
		launch<GPU_F_KICK_DRIFT, BATCH>(s, grid, block, tpp, st);
	else if (out == GPU_F_ENERGY)
		launch<GPU_F_ENERGY, BATCH>(s, grid, block, tpp, st);
	else
		launch<GPU_F_FORCE, BATCH>(s, grid, block, tpp, st);
}

void gpu_force_register(const gpu_sys *s, const gpu_launch *l, int out,
			cudaStream_t st)
{
	long threads = (long)s->n * l->tpp;
	int grid = (int)((threads + l->block - 1) / l->block);

	launch_out<REG_BATCH>(s, out, grid, l->block, l->tpp, st);
	GPU_CHECK_LAUNCH();
}
