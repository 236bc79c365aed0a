/*
 * force_tiled.cu - strategy `tiled`: all pairs, no neighbour list, the
 * classic N-body tiling: each block loads a tile of blockDim positions into
 * shared memory, every thread computes its particle against the tile
 * (minimum image, cut-off in the pair function). O(N^2): for small
 * systems and as an independent GPU reference.
 */
#include "gpu_common.cuh"

template <bool TYPED>
__global__ void k_force_tiled(gpu_sys s, int eflag)
{
	extern __shared__ double4_32a tile[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	const bool act = i < s.n;
	const double4_32a xi = s.x[act ? i : 0];
	float3 f = make_float3(0.f, 0.f, 0.f);
	float e = 0.f, w = 0.f;

	if (gpu_halted(s))
		return;
	for (int base = 0; base < s.n; base += blockDim.x) {
		int m = min((int)blockDim.x, s.n - base);

		gpu_block_sync();
		if ((int)threadIdx.x < m)
			tile[threadIdx.x] = s.x[base + threadIdx.x];
		gpu_block_sync();
		if (act)
			for (int k = 0; k < m; k++)
				if (base + k != i)
					gpu_pair_accum<TYPED>(s, xi, tile[k].x, tile[k].y,
						       tile[k].z, tile[k].w, f, e, w);
	}
	if (act)
		s.f[i] = make_float4(f.x, f.y, f.z, 0.f);
	if (eflag)
		gpu_acc_thermo(s, e, w);
}

void gpu_force_tiled(const gpu_sys *s, const gpu_launch *l, int eflag,
		     cudaStream_t st)
{
	GPU_LAUNCH_TYPED(k_force_tiled, s, (s->n + l->block - 1) / l->block,
			 l->block, l->block * sizeof(double4_32a), st, *s, eflag);
}
