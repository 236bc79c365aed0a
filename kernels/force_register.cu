/*
 * force_register.cu - strategy `register`: tpp lanes per particle with
 * register caching and prefetch (kernels/register_path.cuh), no shared
 * memory.
 */
#include "gpu_common.cuh"
#include "register_path.cuh"

/*
 * Neighbours per lane and window, loaded as vectors (register_path.cuh's
 * VEC). Measured at 1M, tpp 1 (RESULTS, tenth session): 4 with the
 * positions prefetched a window ahead 3,085 steps/s, 8 without 3,132 (64
 * registers; 8 with the prefetch takes 87 and ran 2,906-2,925, 4 without
 * 2,865), so the prefetch is gone.
 */
#define REG_BATCH 8

/* Q: pairs in fixed-point units (gpu_pair_eval, s.cubic_q); C: gathers of
 * the compact positions (gpu_xc) */
template <bool TYPED, bool FC, bool Q, int OUT, bool C>
__global__ void k_force_register(gpu_sys s, int tpp)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	if (gpu_halted(s))
		return;
	if (OUT == GPU_F_KICK_DRIFT && t == 0) {	/* NVE: nobody reads them here */
		count_since(s);
		s.st->step++;
	}
	gpu_register_path<TYPED, OUT, REG_BATCH, true, FC, true, Q, C>(
		s, tpp, 0, t / tpp, gridDim.x * blockDim.x / tpp);
}

template <int OUT, bool C>
static void launch_c(const gpu_sys *s, int grid, int block, int tpp,
		     cudaStream_t st)
{
	if (s->ntypes > 1)
		k_force_register<true, true, false, OUT, C><<<grid, block, 0, st>>>(*s, tpp);
	else if (s->cubic_q)
		k_force_register<false, false, true, OUT, C><<<grid, block, 0, st>>>(*s, tpp);
	else if (gpu_fc_free(s))
		k_force_register<false, false, false, OUT, C><<<grid, block, 0, st>>>(*s, tpp);
	else
		k_force_register<false, true, false, OUT, C><<<grid, block, 0, st>>>(*s, tpp);
}

/* the compact positions when there are any (thermo launches: only with
 * s->xc_energy, backend.compact_positions = on) */
template <int OUT>
static void launch(const gpu_sys *s, int grid, int block, int tpp,
		   cudaStream_t st)
{
	if (s->xc && (OUT != GPU_F_ENERGY || s->xc_energy))
		launch_c<OUT, true>(s, grid, block, tpp, st);
	else
		launch_c<OUT, false>(s, grid, block, tpp, st);
}

void gpu_force_register(const gpu_sys *s, const gpu_launch *l, int out,
			cudaStream_t st)
{
	long threads = (long)s->n * l->tpp;
	int grid = (int)((threads + l->block - 1) / l->block);

	if (out == GPU_F_KICK_DRIFT)
		launch<GPU_F_KICK_DRIFT>(s, grid, l->block, l->tpp, st);
	else if (out == GPU_F_ENERGY)
		launch<GPU_F_ENERGY>(s, grid, l->block, l->tpp, st);
	else
		launch<GPU_F_FORCE>(s, grid, l->block, l->tpp, st);
	GPU_CHECK_LAUNCH();
}
