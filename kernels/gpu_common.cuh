/*
 * gpu_common.cuh - shared pieces of the CUDA backend: the device context,
 * error checking, the status block that lets the GPU decide (rebuild,
 * overflow, blow-up) without a host round trip, and small device helpers.
 *
 * Precision (mixed): positions and velocities are integrated in double;
 * the pair function runs in float and forces are float; energies and
 * virials are accumulated in double. A float copy of the absolute positions
 * was measured first: rounding coordinates of up to L = 34 to float puts
 * 3e-5 relative errors into the forces and triples the NVE energy drift
 * over 100,000 steps. So the separations come from either
 *  - the double positions x (global and tiled strategies), or
 *  - xq, fixed-point positions: x / L 2^32 wrapped to 32 bits per axis
 *    (register, hybrid and shared strategies, the list build). The separation is
 *    an integer difference, whose wrap-around is the minimum image in any
 *    box, converted to float and scaled by L / 2^32: the fixed-point
 *    quantum L / 2^32 per coordinate (4e-9 at L = 17, 5e-8 at L = 211, the
 *    8M-particle box), then rounded once to float (relative 6e-8) plus
 *    the float rounding of L / 2^32, against 2e-7 absolute for the
 *    cell-relative float positions that came before (bench/RESULTS.md);
 *    the quantum reaches that 2e-7 only at L = 860. Half the gather bytes of double positions, no
 *    fp64 and no periodic shift in the pair loop.
 * Particle order on the device is cell order (d_id maps to the original).
 * Neighbour list: full, up to `stride` entries per particle (a multiple of
 * 32), in blocks of 32 particles (layout below); an entry is the index j.
 * Mixtures: x.w is the type; with ntypes > 1 each pair reads its
 * coefficients from the table ljt and each particle its dt/(2 m) from
 * hdtm_t. ntypes == 1 takes the single-type values (lj, hdtm) instead.
 * The force kernels are templates on TYPED (ntypes > 1), so that the
 * one-type kernels keep the registers they had before mixtures existed
 * (the table load costs 8 to 14 registers); GPU_LAUNCH_TYPED picks the
 * instance.
 */
#ifndef MD_GPU_COMMON_CUH
#define MD_GPU_COMMON_CUH

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdio.h>
#include <stdlib.h>
#include "../engine/md.h"

#define GPU_CHECK(call)							\
	do {								\
		cudaError_t e_ = (call);				\
		if (e_ != cudaSuccess) {				\
			fprintf(stderr, "mdsim: CUDA error in %s at %s:%d: %s\n", \
				#call, __FILE__, __LINE__, cudaGetErrorString(e_)); \
			exit(MD_EXIT_SIM);				\
		}							\
	} while (0)

#define GPU_CHECK_LAUNCH() GPU_CHECK(cudaGetLastError())

/*
 * A graph's conditional handle set from a kernel, or (MDSIM_NCU, the
 * profiling build `make NCU=1`) nothing: Nsight Compute profiles no kernel
 * node of a graph that holds a kernel able to set a conditional handle,
 * and the fused step and the rebuild kernel can; that build captures its
 * step graphs without conditional nodes (gpu_backend.cu, use_cond), so the
 * handles are never set anyway, and ncu times each kernel node.
 */
#ifdef MDSIM_NCU
#define GPU_SET_COND(h, v) ((void)(h), (void)(v))
#else
#define GPU_SET_COND(h, v) cudaGraphSetConditional((h), (v))
#endif

#define GPU_WARPS_PER_CELL_BLOCK 4	/* cell-sweep kernels: one warp per cell */
#define GPU_SCAN_CELLS 256		/* sub-cells per chunk of the count scan */
/*
 * Sub-cells per cell: its octants, the halves along x, y and z (index
 * hx + 2 hy + 4 hz). The sort orders the particles of a cell by sub-cell,
 * so that the list build can leave out the parts of the neighbourhood
 * beyond reach of a sub-cell (list_build.cuh). The two x-halves of a cell
 * with the same hy, hz are consecutive: together they are that cell's
 * quarter (the halves along y and z), one range of particles.
 */
#define GPU_SUB 8

/* Particle count limit: thread indices of up to 16 lanes per particle fit
 * an int (the hybrid launch also clamps its grid). */
#define GPU_MAX_PARTICLES (1 << 27)

/*
 * Neighbour-list layout: blocks of GPU_NL_BLOCK = 32 particles, chunks of
 * GPU_NL_CHUNK = 8 entries; entry k of particle i is at
 *   nl[(i / 32) 32 stride + (k / 8) 256 + (i % 32) 8 + k % 8],
 * i.e. within a block of 32 particles the first 8 entries (one 32-byte
 * sector) of each particle in turn, then the next 8 of each, and so on.
 * A warp reading entries k..k+tpp-1 of 32/tpp consecutive particles then
 * touches 1 or 2 cache lines instead of 32/tpp rows (tpp 4: 8 sectors of 8
 * lines before), and the build still writes whole sectors. The register
 * strategy's lanes read whole chunks (two 16-byte loads each; at tpp 1 a
 * warp's window is 32 consecutive sectors of a block). The allocation holds the
 * particle count rounded up to a block.
 */
#define GPU_NL_BLOCK 32
#define GPU_NL_CHUNK 8
#define GPU_LIST16_MAX 65535	/* flat indices of a 16-bit list (s.list16) */
#define GPU_SUSP_MIN 4096	/* suspects a step may record, at least */
#define GPU_SUSP_MAX 65536	/* ... and at most (s.susp_max)         */

/* Written by the GPU, read by the host only at synchronisation points. */
typedef struct gpu_status {
	int rebuild;		/* a rebuild is due in this step (2: the
				 * scatter ran, k_build_list copies back) */
	int halt;		/* stop stepping until the host acts    */
	int overflow;		/* the neighbour list was too short     */
	int max_nn;		/* largest list length seen (overflow)  */
	int dense;		/* a 16-bit list cannot index a cell's
				 * neighbourhood (list_build.cuh)       */
	int blowup;		/* a particle left the box or is NaN    */
	int bad_index;		/* sorted index of that particle        */
	int danger;		/* this rebuild: 1 dangerous, 0 not (yet),
				 * -1 unchecked (the set-up build: gpu_init) */
	long long step;		/* steps completed on the device        */
	long long since;	/* steps since the last build           */
	long long builds;	/* neighbour list builds                */
	long long dangerous;	/* of them, too late (md_stats): with
				 * check = false, a particle had moved more
				 * than skin/2 (rb_danger(), rb_built()) */
	unsigned blocks_done;	/* integrators: blocks finished (gpu_finish_step) */
	unsigned list_done;	/* list build: blocks finished (k_build_list) */
	int req[3];		/* persistent kernel: rebuild requests,
				 * by step mod 3 (persist.cu)          */
	int nsusp;		/* suspects of this step (k_refine)     */
	unsigned susp_done;	/* k_refine: warps finished             */
	int xv_t;		/* 1: the last list build left x and v in
				 * the scatter's xt, vt (s.xv_lazy), and
				 * the fused step reads them there      */
} gpu_status;

/*
 * Double accumulators of the last energy step (and kinetic energy), and
 * the Nose-Hoover state when it runs on the device (gpu_integrate.cu).
 */
typedef struct gpu_acc {
	double pe, virial, ke;
	double nh_zeta, nh_eta;	/* thermostat variables */
	double nh_ke;		/* kinetic energy summed for k_nh    */
	double nh_scale;	/* velocity scale k_nh decided       */
} gpu_acc;

/* Everything a kernel needs, passed by value (pointers are device). */
typedef struct gpu_sys {
	int n, ncell, nc[3], stride;
	float box[3], ibox[3];
	double dbox[3], dibox[3];
	double rlist2;
	float rlist2f;		/* float list test: rlist2 (1 + 1e-5)    */
	double qscale[3];	/* 2^32 / L: fixed-point positions xq   */
	float qunit[3];		/* L / 2^32 in float                    */
	/* cubic box (one qunit q), one type, no force shift: the register
	 * strategy's pairs in fixed-point units (gpu_pair_eval's Q) */
	int cubic_q;
	/* Q's constants per unit u: [0] xq's L / 2^32, [1] xc's cunit */
	struct { md_lj_f lj; float u2, iu; } qk[2];	/* lj1, lj2 times u; u^2; 1/u */
	double skin_half2;	/* (skin/2)^2 */
	/* neighbor.predict: a build bins and lists each particle at x + v t
	 * + f (dt/2m) pred_a, at most pred_lim from x (rb_ref), f the force
	 * of its last step (gpu_f_unpack(v.w)); pred_t 0: at x */
	double pred_t, pred_a, pred_lim;
	long long every;
	int check;
	double dt, hdtm;	/* dt, dt/(2m) */
	md_lj_f lj;
	int ntypes;		/* 1: lj and hdtm serve every particle  */
	const float4 *ljt;	/* [ntypes^2][2]: md_lj_f of pair (a, b) */
	const double *mass_t;	/* [ntypes] masses                     */
	const double *hdtm_t;	/* [ntypes] dt/(2 m_a)                  */
	double4_32a *x, *v, *xt, *vt;
	int4 *xq;		/* fixed-point position, w: type        */
	int4 *xq0;		/* xq at the last build (rebuild check) */
	int4 *xq_w;		/* the other buffer: a GPU_F_KICK_DRIFT
				 * force kernel drifts into it          */
	/* compact positions (gpu_xc()), NULL when off: written by every
	 * drift (xc_w with xq_w) and the scatter; the register strategy's
	 * steps on them store no xq (drift_and_check's XQ); read by its
	 * gathers and k_refine */
	uint2 *xc, *xc_w;
	int xc_energy;		/* thermo launches read xc too (on), not
				 * only the steps between them (auto)   */
	double cscale[3];	/* 2^21 k / L: compact units per length */
	float cunit[3];		/* L / (2^21 k) / 2^11: a left-aligned
				 * compact difference's unit            */
	int small_box;		/* some nc < 4 (list_build.cuh)         */
	/* set for a rebuild and the fused step after it (a strategy's
	 * xv_lazy): the list build leaves x and v in the scatter's t arrays
	 * and the fused step, which reads and writes them anyway, takes them
	 * from there (st->xv_t; k_build_list) */
	int xv_lazy;
	/*
	 * The refined rebuild check (k_refine, gpu_neighbor.cu): while susp is
	 * set (fused NVE steps of a strategy with 32-bit lists, 4 or more
	 * cells per edge), a particle that
	 * moved more than skin/2 but at most sqrt(susp_cap2) since the build
	 * is recorded in susp[] (susp_max of them) instead of requesting the
	 * rebuild, and sets next_cond, so that the next step's k_refine runs;
	 * rc_chk2 and rlist_lo2 are its thresholds, sort_cond the
	 * IF handle of the sort after it (0: none).
	 */
	int *susp;
	float susp_cap2, rc_chk2, rlist_lo2;
	int susp_max;		/* n / 64 within [GPU_SUSP_MIN, GPU_SUSP_MAX] */
	cudaGraphConditionalHandle sort_cond;
	/* in a step graph: the IF handle of the next step's rebuild, which
	 * request_rebuild() sets (0: none, k_decide sets it) */
	cudaGraphConditionalHandle next_cond;
	/* the flag request_rebuild() sets: &st->rebuild, or in the persistent
	 * kernel the next step's slot of st->req */
	int *req;
	float4 *f;
	int4 *img, *imgt;
	/* cell: a particle's sub-cell (GPU_SUB per cell) at the last
	 * binning; cell_count: per sub-cell; sub_start[GPU_SUB ncell + 1]:
	 * first particle of each sub-cell, cell_start[c] = sub_start[GPU_SUB c] */
	int *id, *idt, *cell, *slot, *cell_count, *cell_start, *block_sums;
	int *sub_start;
	int *nl, *nn;
	int list16;		/* entries: 16-bit flat indices into the
				 * cell's staged neighbourhood (strategy
				 * `staged`), not j (list_build.cuh)    */
	int list16_max;		/* largest neighbourhood it indexes:
				 * GPU_LIST16_MAX (a test lowers it)    */
	int list_idx;		/* largest octant reach the list build
				 * compacts: GPU_LIST_IDX (a test
				 * lowers it, list_build.cuh)           */
	gpu_status *st;
	gpu_acc *acc;
	int lgv_on;		/* Langevin inside the integrators      */
	md_langevin lgv;
	int nh_on;		/* Nose-Hoover inside the step          */
	md_nose_hoover nh;	/* parameters (zeta, eta live in acc)   */
} gpu_sys;

/* Entry 0 of particle i's list (see the layout above). */
static __host__ __device__ __forceinline__ size_t gpu_nl_row(int stride, int i)
{
	return (size_t)((unsigned)i / GPU_NL_BLOCK) * GPU_NL_BLOCK * stride +
	       (size_t)((unsigned)i % GPU_NL_BLOCK) * GPU_NL_CHUNK;
}

/* Offset of entry k >= 0 from entry 0 of its particle. */
static __host__ __device__ __forceinline__ unsigned gpu_nl_off(int k)
{
	return ((unsigned)k / GPU_NL_CHUNK) * (GPU_NL_BLOCK * GPU_NL_CHUNK) +
	       (unsigned)k % GPU_NL_CHUNK;
}

/* Ints in a list of n particles of `stride` entries (whole blocks). */
static inline size_t gpu_nl_ints(int n, int stride)
{
	return (size_t)(n + GPU_NL_BLOCK - 1) / GPU_NL_BLOCK * GPU_NL_BLOCK * stride;
}

/* Launch configuration of the force strategies. */
typedef struct gpu_launch {
	int block;		/* threads per block                    */
	int tpp;		/* lanes per particle (register paths)  */
	float hybrid_ratio;	/* fraction of cells on the shared path */
} gpu_launch;

/*
 * What a force launch produces: forces (GPU_F_FORCE), forces and the pe
 * and virial sums (GPU_F_ENERGY, a thermo step), or (GPU_F_KICK_DRIFT,
 * NVE, strategies whose table row says so) no stored forces but the NVE
 * kick-drift that completes the step, the drifted fixed-point positions
 * going to s.xq_w while s.xq is read: one launch per middle step.
 */
enum { GPU_F_FORCE = 0, GPU_F_ENERGY = 1, GPU_F_KICK_DRIFT = 2 };

/* A force strategy: launch on stream; out: GPU_F_*. */
typedef void (*gpu_force_fn)(const gpu_sys *s, const gpu_launch *l,
			     int out, cudaStream_t stream);

typedef struct gpu_strategy {
	const char *name;
	gpu_force_fn launch;
	int tune;		/* MD_TUNE_* flags                      */
	int kick_drift;		/* takes GPU_F_KICK_DRIFT               */
	int list16;		/* reads a 16-bit list (s.list16)       */
	int xv_lazy;		/* its fused step reads x and v from the
				 * t arrays after a build (s.xv_lazy)   */
} gpu_strategy;

extern const gpu_strategy gpu_strategies[MD_STRAT_COUNT];

/* Device helpers ---------------------------------------------------------- */

/*
 * Block barrier for code where a warp may have diverged before it (a lane
 * test, a shorter loop): the warp reconverges first. Not required since
 * Volta; added while chasing a compute-sanitizer synccheck report, which
 * it did not change (bench/RESULTS.md). Every thread of the block must
 * call it.
 */
static __device__ __forceinline__ void gpu_block_sync(void)
{
	__syncwarp();
	__syncthreads();
}

static __device__ __forceinline__ bool gpu_halted(const gpu_sys &s)
{
	return *(volatile int *)&s.st->halt != 0;
}

/* Minimum-image separation along one axis, in double. */
static __device__ __forceinline__ double gpu_min_image(double d, double L,
						       double iL)
{
	return d - L * rint(d * iL);
}

/* Position of particle j through the read-only cache (two 16-byte loads). */
static __device__ __forceinline__ double4_32a gpu_load_x(const gpu_sys &s, int j)
{
	const double2 *p = (const double2 *)(s.x + j);
	double2 a = __ldg(p), b = __ldg(p + 1);

	return make_double4_32a(a.x, a.y, b.x, b.y);
}

/* Full-list pair loops count each pair twice: halve energy and virial. */
static __device__ __forceinline__ void gpu_acc_thermo(const gpu_sys &s,
						      float e, float w)
{
	double de = 0.5 * (double)e, dw = 0.5 * (double)w;
	unsigned m = __activemask();
	int k;

	for (k = 16; k > 0; k >>= 1) {
		de += __shfl_xor_sync(m, de, k);
		dw += __shfl_xor_sync(m, dw, k);
	}
	if ((threadIdx.x & 31) == __ffs(m) - 1) {
		atomicAdd(&s.acc->pe, de);
		atomicAdd(&s.acc->virial, dw);
	}
}

/* Coefficients of the type pair (a, b) from the mixture table. */
static __device__ __forceinline__ md_lj_f gpu_pair_coeff(const gpu_sys &s,
							 int a, int b)
{
	const float4 *p = s.ljt + 2 * (a * s.ntypes + b);
	float4 u = __ldg(p), v = __ldg(p + 1);
	md_lj_f c;

	c.lj1 = u.x; c.lj2 = u.y; c.lj3 = u.z; c.lj4 = u.w;
	c.rc2 = v.x; c.rc = v.y; c.eshift = v.z; c.fc = v.w;
	return c;
}

/* dt/(2 m) of a particle at x (its type in x.w, read only for mixtures). */
static __device__ __forceinline__ double gpu_hdtm_x(const gpu_sys &s, const double4_32a &x)
{
	return s.ntypes > 1 ? s.hdtm_t[(int)x.w] : s.hdtm;
}

/*
 * The force f of a particle's last step, carried in the unused w of its
 * velocity (written by the register strategy's NVE steps,
 * nve_kick_drift_lazy; 0 from the upload): three halves in the low 48
 * bits (two conversions), so that the double is a subnormal or zero,
 * never NaN, and moves with v wherever v goes (the scatter) at no extra
 * byte. A build reads it to bend its predicted positions (rb_ref). Not
 * finite (a half's range is 65,504): (0, 0, 0).
 */
static __device__ __forceinline__ double gpu_f_pack(float4 f)
{
	const __half2 xy = __floats2half2_rn(f.x, f.y);
	const unsigned lo = (unsigned)__half_as_ushort(__low2half(xy)) |
			    (unsigned)__half_as_ushort(__high2half(xy)) << 16;

	return __hiloint2double((int)__half_as_ushort(__float2half_rn(f.z)), (int)lo);
}

static __device__ __forceinline__ float3 gpu_f_unpack(double w)
{
	const unsigned lo = (unsigned)__double2loint(w), hi = (unsigned)__double2hiint(w);
	const float3 d = make_float3(__half2float(__ushort_as_half((unsigned short)lo)),
				     __half2float(__ushort_as_half((unsigned short)(lo >> 16))),
				     __half2float(__ushort_as_half((unsigned short)hi)));

	return isfinite(d.x + d.y + d.z) ? d : make_float3(0.f, 0.f, 0.f);
}

/* dt/(2 m) of particle i (reads its type only for mixtures). */
static __device__ __forceinline__ double gpu_hdtm(const gpu_sys &s, int i)
{
	return s.ntypes > 1 ? s.hdtm_t[(int)s.x[i].w] : s.hdtm;
}

/*
 * gpu_pair_eval - the pair at float separation (dx, dy, dz) between
 * particles of types ti and tj (used only when TYPED): the shared pair
 * function in float, accumulated into f, e, w (e and w only with EFLAG:
 * without, the compiler drops the energy terms). FC = false: the caller
 * knows that no pair is force-shifted (gpu_fc_free()), and the test per
 * pair goes. valid = false: a slot past the particle's list (the particle
 * itself, r2 = 0), which contributes nothing (md_lj_pair_fs's live: one
 * predicate with the cut-off test, no branch). Q (s.cubic_q only; 1: xq's
 * units, 2: xc's): the separation is in fixed-point units u, d / u: r^2
 * takes one multiply by u^2 instead of a multiply per axis, and
 * s.qk[Q - 1].lj's force coefficients carry the u that turns F/r into the
 * factor of d / u, so the force sum is unchanged; two instructions fewer
 * per pair. The only place the kernels evaluate a pair.
 */
template <bool TYPED, bool EFLAG = true, bool FC = true, int Q = 0>
static __device__ __forceinline__ void gpu_pair_eval(const gpu_sys &s, float dx,
						     float dy, float dz, int ti,
						     int tj, float3 &f, float &e,
						     float &w, bool valid = true)
{
	static_assert(!Q || (!TYPED && !FC), "Q: one type, no force shift");
	constexpr int QI = Q ? Q - 1 : 0;	/* s.qk's entry */
	float r2 = dx * dx + dy * dy + dz * dz;
	float en, fr;

	if (Q)
		r2 *= s.qk[QI].u2;
	if (TYPED) {
		md_lj_f c = gpu_pair_coeff(s, ti, tj);

		fr = md_lj_pair_fs_f(r2, &c, &en, FC, valid);
	} else {
		fr = md_lj_pair_fs_f(r2, Q ? &s.qk[QI].lj : &s.lj, &en, FC, valid);
	}
	f.x += dx * fr;
	f.y += dy * fr;
	f.z += dz * fr;
	if (EFLAG) {
		e += en;
		w += Q ? r2 * fr * s.qk[QI].iu : r2 * fr;
	}
}

/* No pair of the system is force-shifted: kernels may use FC = false. */
static inline bool gpu_fc_free(const gpu_sys *s)
{
	return s->ntypes == 1 && s->lj.fc == 0.f;
}

/*
 * gpu_pair_accum - particle i (double position and type xi) and a
 * neighbour at (xj, yj, zj) of type wj: minimum image in double, then
 * gpu_pair_eval().
 */
template <bool TYPED>
static __device__ __forceinline__ void gpu_pair_accum(const gpu_sys &s,
						      const double4_32a &xi,
						      double xj, double yj,
						      double zj, double wj,
						      float3 &f, float &e,
						      float &w)
{
	float dx = (float)gpu_min_image(xi.x - xj, s.dbox[0], s.dibox[0]);
	float dy = (float)gpu_min_image(xi.y - yj, s.dbox[1], s.dibox[1]);
	float dz = (float)gpu_min_image(xi.z - zj, s.dbox[2], s.dibox[2]);

	gpu_pair_eval<TYPED>(s, dx, dy, dz, (int)xi.w, (int)wj, f, e, w);
}

/*
 * gpu_dq - the wrapped integer difference qi - qj of two fixed-point
 * positions (the minimum image: |d| < L/2), rounded to float, in units
 * of L / 2^32; or of two compact positions' fields (gpu_xc_fields), in
 * units of s.cunit.
 */
static __device__ __forceinline__ float3 gpu_dq(const int4 &qi, const int4 &qj)
{
	return make_float3((float)(int)((unsigned)qi.x - (unsigned)qj.x),
			   (float)(int)((unsigned)qi.y - (unsigned)qj.y),
			   (float)(int)((unsigned)qi.z - (unsigned)qj.z));
}

/*
 * gpu_sep_q - the separation qi - qj in length units: gpu_dq() times
 * L / 2^32 (qu: s.qunit; gpu_sep_qu for code that has no gpu_sys).
 */
static __device__ __forceinline__ float3 gpu_sep_qu(float3 qu, const int4 &qi,
						    const int4 &qj)
{
	const float3 d = gpu_dq(qi, qj);

	return make_float3(d.x * qu.x, d.y * qu.y, d.z * qu.z);
}

static __device__ __forceinline__ float3 gpu_sep_q(const gpu_sys &s,
						   const int4 &qi,
						   const int4 &qj)
{
	return gpu_sep_qu(make_float3(s.qunit[0], s.qunit[1], s.qunit[2]), qi, qj);
}

/*
 * gpu_pair_accum_q - the pair of fixed-point positions qi, qj, or with C
 * of two compact positions' fields (gpu_xc_fields): the separation in
 * length units (the units qunit or cunit), or with Q the wrapped
 * differences unscaled (gpu_pair_eval's Q 1 or 2), then gpu_pair_eval().
 */
template <bool TYPED, bool EFLAG = true, bool FC = true, bool Q = false, bool C = false>
static __device__ __forceinline__ void gpu_pair_accum_q(const gpu_sys &s,
							const int4 &qi,
							const int4 &qj,
							float3 &f, float &e,
							float &w, bool valid = true)
{
	const float *u = C ? s.cunit : s.qunit;
	const float3 d = Q ? gpu_dq(qi, qj) :
		gpu_sep_qu(make_float3(u[0], u[1], u[2]), qi, qj);

	gpu_pair_eval<TYPED, EFLAG, FC, Q ? 1 + C : 0>(s, d.x, d.y, d.z, qi.w, qj.w,
						       f, e, w, valid);
}

/*
 * Compact positions (xc, 8 bytes): the register strategy's gathers. The
 * force launch at 1M particles is bound by the L1 data pipe, at about ten
 * wavefronts per 16-byte gather of a warp; with 8 bytes the same gathers
 * took 41% fewer wavefronts (RESULTS, seventeenth session). Per axis, 21
 * bits: X = x 2^21 k / L mod 2^21 (rounded down along x and z, to the
 * nearest along y) for an integer k >= 1, so that x + L gives the same X
 * (the period L is k whole ranges of 2^21), and the difference of two X
 * taken mod 2^21 is the separation in units of L / (2^21 k) as long as it
 * is shorter than half the range, L / (2 k): the backend picks the
 * largest k whose half range exceeds the longest listed pair that a force
 * launch can meet (rlist plus the two particles' largest displacements
 * between builds), gpu_init. The quantum L / (2^21 k) is then 4 to 5e-6
 * sigma at rc 2.5 and skin 0.5 in a large box, up to 1e-5 in a small one
 * (k = 1): the rounding of float coordinates near 30 to 120 sigma (xq's
 * quantum is L / 2^32).
 *
 * Layout of the 64 bits (lo, hi): lo = X << 11 | type << 10 | Z >> 11
 * (the type 0 or 1: two types at most), hi = (Z & 0x7FF) << 21 | Y. So
 * lo is X left-aligned as it stands, hi << 11 is Y, and the 64-bit funnel
 * shift of (lo, hi) by 22 is Z: each axis comes out left-aligned in a
 * 32-bit word in at most one instruction (gpu_xc_fields), and the integer
 * difference (gpu_dq) of two of them is the wrapped separation times
 * 2^11. The 11 bits below X and below Z are not cleared: they are the
 * particle's own other bits (g_x = type << 10 | Z >> 11, g_z = Y >> 10),
 * so each particle sits at X + g_x / 2^11, Y, Z + g_z / 2^11 in every
 * pair it is in: the same position from either side (the forces stay
 * antisymmetric), within one quantum of the exact one (X, Z rounded down,
 * g / 2^11 in [0, 1)). Converted to float, a difference of up to 32
 * significant bits is rounded to 24: at most 2^-4 of a quantum off at
 * the half range. With the fields masked the loop
 * spent four instructions a pair on them, now two (twenty-first
 * session).
 */
static __device__ __forceinline__ uint2 gpu_xc(const gpu_sys &s,
					       const double4_32a &x)
{
	const unsigned m = 0x1FFFFFu;
	const unsigned X = (unsigned)(unsigned long long)__double2ll_rd(x.x * s.cscale[0]) & m;
	const unsigned Y = (unsigned)(unsigned long long)__double2ll_rn(x.y * s.cscale[1]) & m;
	const unsigned Z = (unsigned)(unsigned long long)__double2ll_rd(x.z * s.cscale[2]) & m;

	return make_uint2(X << 11 | ((unsigned)x.w & 1u) << 10 | Z >> 11,
			  (Z & 0x7FFu) << 21 | Y);
}

/* The axes of c left-aligned (below them the particle's own bits), type
 * in w. */
static __device__ __forceinline__ int4 gpu_xc_fields(const uint2 &c)
{
	return make_int4((int)c.x, (int)(c.y << 11), (int)__funnelshift_l(c.y, c.x, 22),
			 (int)(c.x >> 10 & 1u));
}

/*
 * Cell coordinate along d of a wrapped position (as the binning does);
 * *half (if given): 1 if x lies in the cell's upper half along d.
 */
static __device__ __forceinline__ int gpu_cell_of(const gpu_sys &s, double x,
						  int d, int *half = nullptr)
{
	const double t = x * s.dibox[d] * s.nc[d];
	const int c = min(max((int)t, 0), s.nc[d] - 1);

	if (half)
		*half = t - c >= 0.5;
	return c;
}

/*
 * Fixed-point position of x: x / L 2^32 per axis, wrapped to 32 bits (so
 * every periodic image of x gives the same), type in w. qs: s.qscale.
 */
static __device__ __forceinline__ int4 gpu_xq_qs(double3 qs, const double4_32a &x)
{
	return make_int4((int)(unsigned)(unsigned long long)__double2ll_rn(x.x * qs.x),
			 (int)(unsigned)(unsigned long long)__double2ll_rn(x.y * qs.y),
			 (int)(unsigned)(unsigned long long)__double2ll_rn(x.z * qs.z),
			 (int)x.w);
}

static __device__ __forceinline__ int4 gpu_xq(const gpu_sys &s,
					      const double4_32a &x)
{
	return gpu_xq_qs(make_double3(s.qscale[0], s.qscale[1], s.qscale[2]), x);
}

/* Launches kernel<TYPED> with TYPED = s->ntypes > 1 (s: const gpu_sys *). */
#define GPU_LAUNCH_TYPED(kernel, s, grid, block, shm, stream, ...)	\
	do {								\
		if ((s)->ntypes > 1)					\
			kernel<true><<<grid, block, shm, stream>>>(__VA_ARGS__); \
		else							\
			kernel<false><<<grid, block, shm, stream>>>(__VA_ARGS__); \
		GPU_CHECK_LAUNCH();					\
	} while (0)

/* kernel<TYPED, second> with TYPED = s->ntypes > 1 (no launch check). */
#define GPU_LAUNCH_TYPED_1(kernel, second, s, grid, block, shm, stream, ...) \
	do {								\
		if ((s)->ntypes > 1)					\
			kernel<true, second><<<grid, block, shm, stream>>>(__VA_ARGS__); \
		else							\
			kernel<false, second><<<grid, block, shm, stream>>>(__VA_ARGS__); \
	} while (0)

/*
 * The same for kernels templated on <TYPED, EFLAG> (EFLAG: the launch
 * accumulates energy and virial; eflag is an int).
 */
#define GPU_LAUNCH_TYPED_E(kernel, s, eflag, grid, block, shm, stream, ...) \
	do {								\
		if (eflag)						\
			GPU_LAUNCH_TYPED_1(kernel, true, s, grid, block, shm, stream, __VA_ARGS__); \
		else							\
			GPU_LAUNCH_TYPED_1(kernel, false, s, grid, block, shm, stream, __VA_ARGS__); \
		GPU_CHECK_LAUNCH();					\
	} while (0)

/* The same for kernels templated on <TYPED, int OUT> (out: GPU_F_*). */
#define GPU_LAUNCH_TYPED_OUT(kernel, s, out, grid, block, shm, stream, ...) \
	do {								\
		if ((out) == GPU_F_KICK_DRIFT)				\
			GPU_LAUNCH_TYPED_1(kernel, GPU_F_KICK_DRIFT, s, grid, block, shm, stream, __VA_ARGS__); \
		else if ((out) == GPU_F_ENERGY)				\
			GPU_LAUNCH_TYPED_1(kernel, GPU_F_ENERGY, s, grid, block, shm, stream, __VA_ARGS__); \
		else							\
			GPU_LAUNCH_TYPED_1(kernel, GPU_F_FORCE, s, grid, block, shm, stream, __VA_ARGS__); \
		GPU_CHECK_LAUNCH();					\
	} while (0)

/* Cell coordinates of linear cell c. */
static __host__ __device__ __forceinline__ void gpu_cell_coords(const gpu_sys &s, int c,
						       int cc[3])
{
	cc[0] = c % s.nc[0];
	cc[1] = (c / s.nc[0]) % s.nc[1];
	cc[2] = c / (s.nc[0] * s.nc[1]);
}

/*
 * The stencil of cell c: returns its number of distinct cells (27, fewer
 * when some axis has fewer than 3 cells: no cell twice) and, for k below
 * that, sets *cj to the linear index of stencil cell k (x fastest, from
 * dz, dy, dx = -1 up). The list build and the cell sweep give one lane
 * each stencil cell.
 */
static __host__ __device__ __forceinline__ int gpu_stencil(const gpu_sys &s, int c,
						  int k, int *cj)
{
	int cc[3], lo[3], wd[3], d;

	gpu_cell_coords(s, c, cc);
	for (d = 0; d < 3; d++) {
		lo[d] = s.nc[d] >= 3 ? -1 : 0;
		wd[d] = (s.nc[d] >= 2 ? 1 : 0) - lo[d] + 1;
	}
	if (k < wd[0] * wd[1] * wd[2]) {
		const int nx = (cc[0] + lo[0] + k % wd[0] + s.nc[0]) % s.nc[0];
		const int ny = (cc[1] + lo[1] + k / wd[0] % wd[1] + s.nc[1]) % s.nc[1];
		const int nz = (cc[2] + lo[2] + k / (wd[0] * wd[1]) + s.nc[2]) % s.nc[2];

		*cj = (nz * s.nc[1] + ny) * s.nc[0] + nx;
	}
	return wd[0] * wd[1] * wd[2];
}

/*
 * Stencil cell k (0 .. 26, x fastest, from dz, dy, dx = -1) of the cell
 * with coordinates cc, every axis having 3 or more cells: gpu_stencil()
 * without its cases for fewer. (gpu_subhood_ranges, list_build.cuh, keeps
 * the same compare per axis inline: calling this there changed the list
 * build's SASS, which this session could not measure on the GPU.)
 */
static __device__ __forceinline__ int gpu_cell_linear(const gpu_sys &s, const int cc[3],
						      int k)
{
	int nx = cc[0] + k % 3 - 1, ny = cc[1] + k / 3 % 3 - 1, nz = cc[2] + k / 9 - 1;

	nx += nx < 0 ? s.nc[0] : nx >= s.nc[0] ? -s.nc[0] : 0;
	ny += ny < 0 ? s.nc[1] : ny >= s.nc[1] ? -s.nc[1] : 0;
	nz += nz < 0 ? s.nc[2] : nz >= s.nc[2] ? -s.nc[2] : 0;
	return (nz * s.nc[1] + ny) * s.nc[0] + nx;
}

/* Inclusive scan of one value per lane across the warp (shuffles only). */
static __device__ __forceinline__ int warp_scan_incl(int v)
{
	int lane = threadIdx.x & 31, k;

	for (k = 1; k < 32; k <<= 1) {	/* a select, not a branch */
		int u = __shfl_up_sync(0xffffffffu, v, k);

		v += lane >= k ? u : 0;
	}
	return v;
}


/* Host side, implemented in gpu_neighbor.cu / gpu_integrate.cu. */
void gpu_enqueue_rebuild(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_rebuild_sort(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_rebuild_list(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_refine(const gpu_sys *s, const int *susp, cudaStream_t st);
int gpu_coop_resident(const void *fn, int block, size_t smem);
int gpu_coop_grid(const gpu_sys *s);
void gpu_enqueue_rebuild_coop(const gpu_sys *s, const int *susp, int grid,
			      cudaStream_t st);
int gpu_sm_count(void);
void gpu_enqueue_integrate1(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_integrate2(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_xq_refresh(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_kick_drift(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_decide(const gpu_sys *s, cudaGraphConditionalHandle h,
			cudaStream_t st);
void gpu_enqueue_zero_acc(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_kinetic(const gpu_sys *s, double mass, cudaStream_t st);
/* Nose-Hoover on the device: k_nh's modes (gpu_integrate.cu) */
enum { GPU_NH_START = 0, GPU_NH_MIDDLE = 1, GPU_NH_END = 2 };
void gpu_enqueue_nh(const gpu_sys *s, int mode, cudaStream_t st);
void gpu_enqueue_nh_apply(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_vupdate(const gpu_sys *s, const md_vupdate *u, double mass,
			 cudaStream_t st);
void gpu_enqueue_force_rebuild(const gpu_sys *s, cudaStream_t st);
void gpu_time_rebuild(const gpu_sys *s, cudaStream_t st, double ms[4]);
void gpu_enqueue_frame(const gpu_sys *s, unsigned fields, double *fx,
		       double *fv, double *ff, int *fimg, int *ftype,
		       cudaStream_t st);
int gpu_cell_blocks(const gpu_sys *s);
int gpu_persist_grid(const gpu_sys *s, int tpp);
size_t gpu_persist_smem(void);
int gpu_persist_tpp(const gpu_sys *s, int tpp);
void gpu_enqueue_persist(const gpu_sys *s, int tpp, int nsteps, int grid,
			 cudaStream_t st);

#endif
