/*
 * force_register.cu - strategy `register`: tpp lanes per particle with
 * register caching and prefetch (kernels/register_path.cuh), no shared
 * memory.
 */
#include "gpu_common.cuh"
#include "register_path.cuh"

template <bool TYPED, int OUT>
__global__ void k_force_register(gpu_sys s, int tpp)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	if (gpu_halted(s))
		return;
	if (OUT == GPU_F_KICK_DRIFT && t == 0) {	/* NVE: nobody reads them here */
		count_since(s);
		s.st->step++;
	}
	gpu_register_path<TYPED, OUT>(s, tpp, 0, t / tpp,
				      gridDim.x * blockDim.x / tpp);
}

void gpu_force_register(const gpu_sys *s, const gpu_launch *l, int out,
			cudaStream_t st)
{
	long threads = (long)s->n * l->tpp;

	GPU_LAUNCH_TYPED_OUT(k_force_register, s, out,
			     (int)((threads + l->block - 1) / l->block), l->block, 0,
			     st, *s, l->tpp);
}
