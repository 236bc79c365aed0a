/*
 * register_path.cuh - the register-cached neighbour-list path: tpp lanes
 * (a power of two <= 32) share one particle; its own position lives in
 * registers, each lane walks every tpp-th neighbour in batches whose
 * loads are in flight together (the next batch's indices prefetched), and
 * the partial forces are summed with warp shuffles.
 * Used by the register strategy (first = 0) and the hybrid strategy.
 */
#ifndef MD_REGISTER_PATH_CUH
#define MD_REGISTER_PATH_CUH

#include "gpu_common.cuh"
#include "verlet_step.cuh"

/*
 * BATCH: neighbours per lane whose loads are in flight together. The
 * loop loads BATCH positions at once and the next BATCH indices before
 * it computes, instead of one position ahead: about one list chunk (8
 * entries) per particle in flight. Measured on the H200 (force launch,
 * ncu, bench/RESULTS.md): 1M particles tpp 4 224 -> 199 us with BATCH 2,
 * 201 with 4, 247 with 8 (80 registers); 32k 13.3 -> 11.5 us (2), 10.6
 * (4), 13.7 (8); end to end the autotuned tpp 2 at 1M is 3.5% faster
 * with 2 than with 4. Hence gpu_reg_batch(): 4 from tpp 4 up, else 2.
 */
static __host__ __device__ constexpr int gpu_reg_batch(int tpp)
{
	return tpp >= 4 ? 4 : 2;
}

/*
 * Particles [first, n): group g handles particle first + g, for
 * g = g0, g0 + gstride, ... (grid stride). All lanes of a warp iterate the
 * same number of times, so shuffles see full groups. OUT: GPU_F_* (with
 * GPU_F_KICK_DRIFT the particle's lane 0 kicks and drifts it with the
 * force in its registers; the caller advances the step counters).
 */
/*
 * NC: loads through the read-only path (__ldg). Only for data that no
 * thread writes while the kernel runs: the persistent kernel (persist.cu)
 * rewrites xq every step and the list at its rebuilds, so it passes false
 * (plain loads, which the grid barrier's fences order).
 */
template <bool NC, typename T>
static __device__ __forceinline__ T reg_load(const T *p)
{
	return NC ? __ldg(p) : *p;
}

template <bool TYPED, int OUT, int BATCH = 2, bool NC = true>
static __device__ __forceinline__ void gpu_register_path(const gpu_sys &s,
							 int tpp, int first,
							 int g0, int gstride)
{
	const int sub = threadIdx.x & (tpp - 1);
	const int count = s.n - first;
	/* iterate in lock-step per warp: the bound is rounded up per warp */
	const int gpw = 32 / tpp;
	const bool EFLAG = OUT == GPU_F_ENERGY;

	for (int gbase = g0 - (g0 % gpw); gbase < count; gbase += gstride) {
		const int g = gbase + (g0 % gpw);
		const bool act = g < count;
		const int i = first + (act ? g : 0);
		const int4 qi = s.xq[i];
		const int nn = act ? s.nn[i] : 0;
		const int *row = s.nl + gpu_nl_row(s.stride, i);
		const int4 *xq = s.xq;
		float3 f = make_float3(0.f, 0.f, 0.f);
		float e = 0.f, w = 0.f;
		int k0 = sub, en[BATCH];

#pragma unroll
		for (int u = 0; u < BATCH; u++) {
			const int k = k0 + u * tpp;

			en[u] = k < nn ? reg_load<NC>(row + gpu_nl_off(k)) : i;
		}
		while (k0 < nn) {
			int4 qj[BATCH];

#pragma unroll
			for (int u = 0; u < BATCH; u++)
				qj[u] = reg_load<NC>(xq + en[u]);
			const int kb = k0;

			k0 += BATCH * tpp;
#pragma unroll
			for (int u = 0; u < BATCH; u++) {	/* the next batch's indices */
				const int k = k0 + u * tpp;

				en[u] = k < nn ? reg_load<NC>(row + gpu_nl_off(k)) : i;
			}
#pragma unroll
			for (int u = 0; u < BATCH; u++)
				if (kb + u * tpp < nn)
					gpu_pair_accum_q<TYPED, EFLAG>(s, qi, qj[u], f, e, w);
		}
		for (int o = tpp >> 1; o > 0; o >>= 1) {
			f.x += __shfl_xor_sync(0xffffffffu, f.x, o);
			f.y += __shfl_xor_sync(0xffffffffu, f.y, o);
			f.z += __shfl_xor_sync(0xffffffffu, f.z, o);
		}
		if (act && sub == 0) {
			const float4 fi = make_float4(f.x, f.y, f.z, 0.f);

			if (OUT == GPU_F_KICK_DRIFT)
				nve_kick_drift(s, i, fi, s.xq_w);
			else
				s.f[i] = fi;
		}
		if (EFLAG)
			gpu_acc_thermo(s, e, w);
	}
}

#endif
