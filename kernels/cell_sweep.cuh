/*
 * cell_sweep.cuh - one warp sweeps the 27-cell neighbourhood of one cell
 * with candidate positions staged in shared memory and computes the forces
 * on the cell's particles from them, without a neighbour list: the shared
 * and hybrid force strategies. Requires cells of edge >= rc + skin built
 * at the last rebuild (particles have moved less than skin/2 since). (The
 * neighbour list is built by list_build.cuh.)
 *
 * Candidates come from the fixed-point positions xq (type in w;
 * gpu_common.cuh), staged as they are (gpu_sep_q() per pair), so the pair
 * loop has no fp64 and no periodic shift.
 *
 * Shared memory comes from the caller: sp, this warp's 32 int4. Each lane
 * writes its own 16 bytes (a quarter-warp per wavefront, no conflicts);
 * in the loop every lane reads the same element (a broadcast), so the
 * layout is conflict-free.
 */
#ifndef MD_CELL_SWEEP_CUH
#define MD_CELL_SWEEP_CUH

#include "gpu_common.cuh"

/*
 * The chunk after (kc, t, te): candidates [t, min(t + 32, te)) of
 * neighbour cell kc, whose range lane kc holds in (cjs, cje); skips empty
 * cells; kc == ncj when none is left. Warp-uniform.
 */
static __device__ __forceinline__ void sweep_next(int &kc, int &t, int &te,
						  int ncj, int cjs, int cje)
{
	t += 32;
	while (t >= te) {
		if (++kc >= ncj)
			return;
		t = __shfl_sync(0xffffffffu, cjs, kc);
		te = __shfl_sync(0xffffffffu, cje, kc);
	}
}

template <bool TYPED>
static __device__ __forceinline__ void gpu_cell_sweep(const gpu_sys &s, int c,
						      int eflag, int4 *sp)
{
	const int lane = threadIdx.x & 31;
	const int first = s.cell_start[c], last = s.cell_start[c + 1];
	int cj = 0, cjs = 0, cje = 0;
	/* lane k < ncj loads the range of stencil cell k once: the sweep then
	 * has no dependent cell_start load per cell */
	const int ncj = gpu_stencil(s, c, lane, &cj);

	if (lane < ncj) {
		cjs = s.cell_start[cj];
		cje = s.cell_start[cj + 1];
	}
	for (int base = first; base < last; base += 32) {
		const int i = base + lane;
		const bool act = i < last;
		const int4 ci = s.xq[act ? i : first];
		float3 f = make_float3(0.f, 0.f, 0.f);
		float e = 0.f, w = 0.f;
		int kc = -1, t = -32, te = 0;
		int4 qn = ci;

		/* chunks of up to 32 candidates; the next chunk's positions are
		 * loaded before the current one is processed */
		sweep_next(kc, t, te, ncj, cjs, cje);
		if (kc < ncj && lane < te - t)
			qn = s.xq[t + lane];
		while (kc < ncj) {
			const int tc = t, m = min(32, te - t);
			const int4 qc = qn;

			sweep_next(kc, t, te, ncj, cjs, cje);
			if (kc < ncj && lane < te - t)
				qn = s.xq[t + lane];
			__syncwarp();
			if (lane < m)
				sp[lane] = qc;
			__syncwarp();
			if (!act)
				continue;
			for (int k = 0; k < m; k++) {
				float3 r;

				if (tc + k == i)
					continue;
				r = gpu_sep_q(s, ci, sp[k]);
				gpu_pair_eval<TYPED>(s, r.x, r.y, r.z, ci.w, sp[k].w,
						     f, e, w);
			}
		}
		if (act)
			s.f[i] = make_float4(f.x, f.y, f.z, 0.f);
		if (eflag)
			gpu_acc_thermo(s, e, w);
	}
}

#endif
