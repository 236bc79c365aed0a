/*
 * force_register.cu - strategy `register`: tpp lanes per particle with
 * register caching and prefetch (kernels/register_path.cuh), no shared
 * memory.
 */
#include "gpu_common.cuh"
#include "register_path.cuh"

template <bool TYPED>
__global__ void k_force_register(gpu_sys s, int tpp, int eflag)
{
	__shared__ float4 sh[27];
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	if (gpu_halted(s))
		return;
	gpu_stage_shifts(s, sh);
	gpu_register_path<TYPED>(s, tpp, 0, t / tpp, gridDim.x * blockDim.x / tpp,
				 sh, eflag);
}

void gpu_force_register(const gpu_sys *s, const gpu_launch *l, int eflag,
			cudaStream_t st)
{
	long threads = (long)s->n * l->tpp;

	GPU_LAUNCH_TYPED(k_force_register, s, (int)((threads + l->block - 1) / l->block),
			 l->block, 0, st, *s, l->tpp, eflag);
}
