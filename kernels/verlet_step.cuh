/*
 * verlet_step.cuh - the per-particle pieces of velocity Verlet that more
 * than one kernel runs: the drift with the rebuild check, the step counter
 * for the fixed-interval rebuild, and the NVE kick-drift between two
 * forces. Used by the integrators (gpu_integrate.cu) and by the register
 * force kernel when it completes the step itself (GPU_F_KICK_DRIFT).
 */
#ifndef MD_VERLET_STEP_CUH
#define MD_VERLET_STEP_CUH

#include "gpu_common.cuh"

/*
 * A rebuild before the next step: the status flag (s.req), and in a step graph
 * the next step's IF condition directly (its default is 0 at each graph
 * launch; any thread may set 1), so that step needs no k_decide launch.
 */
static __device__ __forceinline__ void request_rebuild(const gpu_sys &s)
{
	*s.req = 1;
	if (s.next_cond)
		GPU_SET_COND(s.next_cond, 1u);
}

/*
 * Particle i moved more than skin/2 since the build, but not more than
 * the refined check allows (s.susp_cap2): the next step's k_refine
 * decides whether its neighbourhood needs the rebuild (gpu_neighbor.cu).
 * Beyond s.susp_max suspects, the rebuild.
 */
static __device__ __forceinline__ void record_suspect(const gpu_sys &s, int i)
{
	const int k = atomicAdd(&s.st->nsusp, 1);

	if (k < s.susp_max)
		s.susp[k] = i;
	else
		request_rebuild(s);
	if (s.next_cond)	/* the next step's IF node runs k_refine
				 * (k_decide opens it in the next graph) */
		GPU_SET_COND(s.next_cond, 1u);
}

/*
 * Drift particle i, at x, with the kicked velocity v, store the
 * fixed-point copy for the force kernels into xq (w = 0: s.xq, or w = 1:
 * the other buffer, s.xq_w, when the force kernel itself drifts: it still
 * reads s.xq), and the compact copy into the xc buffer alongside (if any;
 * XC false: the persistent kernel, which runs only without them), and
 * decide on the rebuild (displacement since the last build). The displacement is that of the
 * fixed-point positions (gpu_sep_q: the minimum image, in float), so the
 * check reads 16 bytes a particle (xq0), not the 32 of a double copy; a
 * position that is not finite requests the rebuild, whose binning reports
 * the blow-up. The minimum image hides a jump of a whole box length in
 * one step (a blow-up that the next rebuild, or the temperature limit,
 * reports); testing x against [-L, 2L) here took the NVE kernel from 64
 * to 71 registers and 1M from 3,130 to 2,957 steps/s (tenth session).
 * Measured at 1M (RESULTS, tenth session): 3,067 -> 3,078 steps/s.
 * XQ false: xq is not stored (16 of the ~530 bytes a particle a step
 * moves at 1M). Only the register strategy's steps on the compact
 * positions pass it. Between them only k_refine would read xq, and it
 * reads xc and x instead; every run's last step stores xq again
 * (k_xq_refresh before its energy launch, gpu_backend.cu enqueue_last),
 * so that launch and anything after the run (a strategy switch's force
 * launch) see it current.
 */
template <bool XC = true, bool XQ = true>
static __device__ __forceinline__ void drift_and_check_x(const gpu_sys &s, int i,
							 double4_32a x, double4_32a v,
							 int w)
{
	int4 q;

	x.x += s.dt * v.x;
	x.y += s.dt * v.y;
	x.z += s.dt * v.z;
	s.x[i] = x;
	q = gpu_xq(s, x);
	if (XQ)
		(w ? s.xq_w : s.xq)[i] = q;
	if (XC && s.xc)
		(w ? s.xc_w : s.xc)[i] = gpu_xc(s, x);
	if (s.check) {
		const float3 d = gpu_sep_q(s, q, s.xq0[i]);
		const float r2 = d.x * d.x + d.y * d.y + d.z * d.z;

		if (!(r2 <= (float)s.skin_half2) || !isfinite(x.x + x.y + x.z)) {
			if (s.susp && r2 <= s.susp_cap2 && isfinite(x.x + x.y + x.z))
				record_suspect(s, i);
			else
				request_rebuild(s);
		}
	}
}

/* The same, particle i's position read from s.x. */
template <bool XC = true, bool XQ = true>
static __device__ __forceinline__ void drift_and_check(const gpu_sys &s, int i,
						       double4_32a v, int w)
{
	drift_and_check_x<XC, XQ>(s, i, s.x[i], v, w);
}

/* Counts steps since the last build for the fixed-interval rebuild. */
static __device__ __forceinline__ void count_since(const gpu_sys &s)
{
	long long since = ++s.st->since;

	if (s.every > 0 && since >= s.every)
		request_rebuild(s);
}

/* v + h f (h = dt/(2 m) for a half kick). */
static __device__ __forceinline__ double4_32a kick_f(double4_32a v, double h,
						     float4 f)
{
	v.x += h * f.x;
	v.y += h * f.y;
	v.z += h * f.z;
	return v;
}

/*
 * NVE: the second half kick of step k and the first of step k + 1 with
 * the same force f (one full kick), then the drift into buffer w
 * (drift_and_check). Completes step k for particle i. XQ false (the
 * register strategy's steps on the compact positions): the fixed-point
 * copy is not stored (see drift_and_check).
 */
template <bool XC = true, bool XQ = true>
static __device__ __forceinline__ void nve_kick_drift(const gpu_sys &s, int i,
						      float4 f, int w)
{
	double4_32a v = kick_f(s.v[i], 2.0 * gpu_hdtm(s, i), f);

	s.v[i] = v;
	drift_and_check<XC, XQ>(s, i, v, w);
}

/*
 * The same for a strategy whose step follows a list build that left x and
 * v in the scatter's t arrays (s.xv_lazy, st->xv_t set: k_build_list): x
 * and v read from there, and written in place as always, so that the
 * build need not copy them back (64 bytes a particle read and 64
 * written; RESULTS, twenty-third session). Not merged into
 * nve_kick_drift() as a flag: loading x first there changed the SASS of
 * the persistent kernel, the integrators and `staged`, whose speed
 * follows its register assignment (RESULTS, twenty-second session).
 * The force goes into v.w (gpu_f_pack) for the next build's predicted
 * position (neighbor.predict_accel, rb_ref): the register strategy's NVE
 * steps are the only caller.
 */
template <bool XC = true, bool XQ = true>
static __device__ __forceinline__ void nve_kick_drift_lazy(const gpu_sys &s, int i,
							   float4 f, int w)
{
	const bool t = s.xv_lazy && s.st->xv_t;
	const double4_32a x = (t ? s.xt : s.x)[i];
	const double h = gpu_hdtm_x(s, x);
	double4_32a v = kick_f((t ? s.vt : s.v)[i], 2.0 * h, f);

	v.w = gpu_f_pack(f);	/* for rb_ref */
	s.v[i] = v;
	drift_and_check_x<XC, XQ>(s, i, x, v, w);
}

/* Halted (gpu_halted()) after such a build: particle i's x and v back in
 * place, so that the host finds them where it looks (and bins them
 * again). */
static __device__ __forceinline__ void xv_copy_back(const gpu_sys &s, int i)
{
	if (s.xv_lazy && s.st->xv_t) {
		s.x[i] = s.xt[i];
		s.v[i] = s.vt[i];
	}
}

#endif
