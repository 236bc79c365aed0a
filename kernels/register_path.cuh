/*
 * register_path.cuh - the register-cached neighbour-list path: tpp lanes
 * (a power of two <= 32) share one particle; its own position lives in
 * registers, each lane walks every tpp-th neighbour with the next
 * neighbour's index and position prefetched into registers one iteration
 * ahead, and the partial forces are summed with warp shuffles.
 * Used by the register strategy (first = 0) and the hybrid strategy.
 */
#ifndef MD_REGISTER_PATH_CUH
#define MD_REGISTER_PATH_CUH

#include "gpu_common.cuh"
#include "verlet_step.cuh"

/*
 * Particles [first, n): group g handles particle first + g, for
 * g = g0, g0 + gstride, ... (grid stride). All lanes of a warp iterate the
 * same number of times, so shuffles see full groups. OUT: GPU_F_* (with
 * GPU_F_KICK_DRIFT the particle's lane 0 kicks and drifts it with the
 * force in its registers; the caller advances the step counters).
 */
template <bool TYPED, int OUT>
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
		int k = sub;
		int en = k < nn ? __ldg(row + gpu_nl_off(k)) : i;
		int4 qn = __ldg(xq + en);

		while (k < nn) {
			const int4 qj = qn;

			k += tpp;
			if (k < nn) {	/* prefetch the next neighbour */
				en = __ldg(row + gpu_nl_off(k));
				qn = __ldg(xq + en);
			}
			gpu_pair_accum_q<TYPED, EFLAG>(s, qi, qj, f, e, w);
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
