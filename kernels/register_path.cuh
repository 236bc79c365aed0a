/*
 * register_path.cuh - the register-cached neighbour-list path: tpp lanes
 * (a power of two <= 32) share one particle; its own position lives in
 * registers, each lane walks its share of the neighbours in batches whose
 * loads are in flight together (the next batch's indices prefetched), and
 * the partial forces are summed with warp shuffles.
 * Used by the register strategy (first = 0; VEC: a lane takes whole
 * chunks), the hybrid strategy and the persistent kernel (every tpp-th
 * neighbour).
 */
#ifndef MD_REGISTER_PATH_CUH
#define MD_REGISTER_PATH_CUH

#include "gpu_common.cuh"
#include "verlet_step.cuh"

/*
 * BATCH: neighbours per lane whose loads are in flight together. The
 * loop loads BATCH positions at once and the next BATCH indices before
 * it computes. Measured on the H200 (force launch, ncu, bench/RESULTS.md):
 * 1M particles tpp 4 224 -> 199 us with BATCH 2, 201 with 4, 247 with 8
 * (80 registers); 32k 13.3 -> 11.5 us (2), 10.6 (4), 13.7 (8); below
 * tpp 4 (the autotuner's tpp 2 at 1M) 4 gained nothing over 2 (2,534
 * against 2,521 steps/s, seventh session). Hence 4 from tpp 4 up, else 2,
 * for the persistent kernel (persist.cu, the only caller; its tpp is at
 * least 4 unless backend.threads_per_particle sets it). The register
 * strategy's vector loads (VEC) take REG_BATCH (force_register.cu) at
 * every tpp; the hybrid strategy the default, 2.
 */
static __host__ __device__ constexpr int gpu_reg_batch(int tpp)
{
	return tpp >= 4 ? 4 : 2;
}

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

/*
 * The BATCH consecutive ints at p (16-byte aligned, BATCH a multiple of 4)
 * into v, as 16-byte loads.
 */
template <bool NC, int BATCH>
static __device__ __forceinline__ void reg_load_vec(const int *p, int *v)
{
	static_assert(BATCH % 4 == 0, "whole 16-byte vectors");
#pragma unroll
	for (int h = 0; h < BATCH / 4; h++) {
		const int4 a = reg_load<NC>((const int4 *)p + h);

		v[4 * h] = a.x; v[4 * h + 1] = a.y;
		v[4 * h + 2] = a.z; v[4 * h + 3] = a.w;
	}
}

/*
 * The positions the path gathers: xq (int4, C false) or the compact xc
 * (uint2, C true; gpu_xc()), and a gathered one's left-aligned fields.
 */
template <bool C> struct reg_pos {
	using T = int4;
	static __device__ __forceinline__ const T *base(const gpu_sys &s) { return s.xq; }
	static __device__ __forceinline__ int4 fields(const T &q) { return q; }
};
template <> struct reg_pos<true> {
	using T = uint2;
	static __device__ __forceinline__ const T *base(const gpu_sys &s) { return s.xc; }
	static __device__ __forceinline__ int4 fields(const T &c) { return gpu_xc_fields(c); }
};

/*
 * Particles [first, n): group g handles particle first + g, for
 * g = g0, g0 + gstride, ... (grid stride). All lanes of a warp iterate the
 * same number of times, so shuffles see full groups. OUT: GPU_F_* (with
 * GPU_F_KICK_DRIFT the particle's lane 0 kicks and drifts it with the
 * force in its registers; the caller advances the step counters). FC:
 * see gpu_pair_eval() (false only when gpu_fc_free()).
 *
 * The list is walked in windows of S = BATCH tpp entries: lane `sub`
 * takes entries w S + sub + u tpp, u < BATCH, or with VEC the BATCH
 * consecutive entries w S + sub BATCH + u, loaded as one vector. S and the
 * chunk of 8 are powers of two, so a window either lies inside one chunk
 * (S <= 8) or is whole chunks (S >= 8): the lane's entries sit at fixed
 * offsets from the window's start, which moves by one pointer step (the
 * old code recomputed each entry's 64-bit address: 9 instructions an
 * entry). An entry past the particle's count is replaced by the particle
 * itself and masked as a pair (gpu_pair_eval's valid), so there is no
 * branch per pair. Measured on the H200 (RESULTS, seventh session):
 * 17% fewer instructions at 1M; the time of a launch did not move (it is
 * bound by L1 traffic, 84%) until the positions were loaded a window
 * ahead: 178.6 -> 173.4 us at 1M, 14.1 -> 13.5 us at 32k (tpp 2). That
 * prefetch (8 registers a lane; the persistent kernel lost 7% with it)
 * went with VEC: BATCH 8 without it measured faster (force_register.cu).
 * VEC (tenth session): a lane's entries are loads of 16 bytes instead
 * of BATCH loads of 4 from the same sector, which cut the L1 throughput
 * of a 1M launch from 91% to 84% (tpp 2); with BATCH 4 the autotuner then
 * picks tpp 1, 2,881 -> 3,046 steps/s at 1M, 353 -> 376 at 8M. The
 * persistent kernel lost 1.5% with it at 32k and keeps the strided order.
 * Q: see gpu_pair_eval() (s.cubic_q). C: gather the compact positions
 * (reg_pos; the particle's own as well). XC: the drift writes the compact
 * positions when there are any (false: the persistent kernel, which runs
 * only without them; their code cost it spills, RESULTS seventeenth
 * session). LAZY: the kick-drift takes x and v from the t arrays after a
 * build that left them there (nve_kick_drift_lazy; the register strategy).
 */
template <bool TYPED, int OUT, int BATCH = 2, bool NC = true, bool FC = true,
	  bool VEC = false, bool Q = false, bool C = false, bool XC = true,
	  bool LAZY = false>
static __device__ __forceinline__ void gpu_register_path(const gpu_sys &s,
							 int tpp, int first,
							 int g0, int gstride)
{
	const int sub = threadIdx.x & (tpp - 1);
	const int count = s.n - first;
	/* iterate in lock-step per warp: the bound is rounded up per warp */
	const int gpw = 32 / tpp;
	const bool EFLAG = OUT == GPU_F_ENERGY;
	const int S = BATCH * tpp;
	/* pointer steps of a window: S >= 8, whole chunks; else within one */
	const int big = S >= GPU_NL_CHUNK;
	const int wstep = big ? S / GPU_NL_CHUNK * (GPU_NL_BLOCK * GPU_NL_CHUNK) : S;
	const int cjump = GPU_NL_BLOCK * GPU_NL_CHUNK - GPU_NL_CHUNK;
	/* lane sub's slot u of a window: entry e_lane + u e_step from its start */
	const int e_lane = VEC ? sub * BATCH : sub, e_step = VEC ? 1 : tpp;
	unsigned off[BATCH];

#pragma unroll
	for (int u = 0; u < BATCH; u++)
		off[u] = gpu_nl_off(e_lane + u * e_step);

	for (int gbase = g0 - (g0 % gpw); gbase < count; gbase += gstride) {
		const int g = gbase + (g0 % gpw);
		const bool act = g < count;
		const int i = first + (act ? g : 0);
		const int4 qi = reg_pos<C>::fields(reg_pos<C>::base(s)[i]);
		const int nn = act ? s.nn[i] : 0;
		const int *p = s.nl + gpu_nl_row(s.stride, i);
		const typename reg_pos<C>::T *xq = reg_pos<C>::base(s);
		float3 f = make_float3(0.f, 0.f, 0.f);
		float e = 0.f, w = 0.f;
		int k0 = 0, en[BATCH];
		/* indices of the window starting at entry ka (p points there) */
		auto load_idx = [&](int ka) {
			const int e0 = ka + e_lane;

			if constexpr (VEC) {
				int v[BATCH];

				if (e0 < nn)
					reg_load_vec<NC, BATCH>(p + off[0], v);
#pragma unroll
				for (int u = 0; u < BATCH; u++)
					en[u] = e0 + u < nn ? v[u] : i;
			} else {
#pragma unroll
				for (int u = 0; u < BATCH; u++)
					en[u] = e0 + u * e_step < nn ? reg_load<NC>(p + off[u]) : i;
			}
		};
		/* p to the window starting at entry ka (> 0), then its indices */
		auto next_window = [&](int ka) {
			p += big || ka % GPU_NL_CHUNK ? wstep : wstep + cjump;
			load_idx(ka);
		};

		load_idx(0);
		while (k0 < nn) {
			typename reg_pos<C>::T qj[BATCH];

#pragma unroll
			for (int u = 0; u < BATCH; u++)
				qj[u] = reg_load<NC>(xq + en[u]);
			/* slots left in the particle's list from this lane's
			 * first: slot u is live if u e_step < rem (a compare
			 * with a constant per slot) */
			const int rem = nn - (k0 + e_lane);

			k0 += S;
			next_window(k0);
#pragma unroll
			for (int u = 0; u < BATCH; u++)
				gpu_pair_accum_q<TYPED, EFLAG, FC, Q, C>(
					s, qi, reg_pos<C>::fields(qj[u]), f, e, w,
					u * e_step < rem);
		}
		for (int o = tpp >> 1; o > 0; o >>= 1) {
			f.x += __shfl_xor_sync(0xffffffffu, f.x, o);
			f.y += __shfl_xor_sync(0xffffffffu, f.y, o);
			f.z += __shfl_xor_sync(0xffffffffu, f.z, o);
		}
		if (act && sub == 0) {
			const float4 fi = make_float4(f.x, f.y, f.z, 0.f);

			if (OUT == GPU_F_KICK_DRIFT && LAZY)	/* C: no xq (drift_and_check) */
				nve_kick_drift_lazy<XC, !C>(s, i, fi, 1);
			else if (OUT == GPU_F_KICK_DRIFT)
				nve_kick_drift<XC, !C>(s, i, fi, 1);
			else
				s.f[i] = fi;
		}
		if (EFLAG)
			gpu_acc_thermo(s, e, w);
	}
}

#endif
