/*
 * force_global.cu - strategy `global`, the baseline: one thread per
 * particle, neighbour indices and neighbour positions read straight from
 * global memory every step (no staging, no prefetch, no __ldg).
 */
#include "gpu_common.cuh"

template <bool TYPED>
__global__ void k_force_global(gpu_sys s, int eflag)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float3 f = make_float3(0.f, 0.f, 0.f);
	float e = 0.f, w = 0.f;

	if (gpu_halted(s))
		return;
	if (i < s.n) {
		const double4_32a xi = s.x[i];
		const int *row = s.nl + gpu_nl_row(s.stride, i);
		int k, nn = s.nn[i];

		for (k = 0; k < nn; k++) {
			double4_32a xj = s.x[row[gpu_nl_off(k)]];

			gpu_pair_accum<TYPED>(s, xi, xj.x, xj.y, xj.z, xj.w, f, e, w);
		}
		s.f[i] = make_float4(f.x, f.y, f.z, 0.f);
	}
	if (eflag)
		gpu_acc_thermo(s, e, w);
}

void gpu_force_global(const gpu_sys *s, const gpu_launch *l, int eflag,
		      cudaStream_t st)
{
	GPU_LAUNCH_TYPED(k_force_global, s, (s->n + l->block - 1) / l->block,
			 l->block, 0, st, *s, eflag);
}
