/*
 * gpu_common.cuh - shared pieces of the CUDA backend: the device context,
 * error checking, the status block that lets the GPU decide (rebuild,
 * overflow, blow-up) without a host round trip, and small device helpers.
 *
 * Precision (mixed): positions and velocities are integrated in double;
 * the force kernels form the pair separation in double from the double
 * positions (x.w holds the type), then evaluate the pair function in
 * float and write float forces; energies and virials are accumulated in
 * double. A float copy of the positions was measured first: rounding
 * coordinates of up to L = 34 to float puts 3e-5 relative errors into the
 * forces and triples the NVE energy drift over 100,000 steps.
 * Particle order on the device is cell order (d_id maps to the original).
 * Neighbour list: full, row-major, row stride `stride` (a multiple of 32).
 * Mixtures: x.w is the type; with ntypes > 1 each pair reads its
 * coefficients from the table ljt and each particle its dt/(2 m) from
 * hdtm_t. ntypes == 1 takes the single-type values (lj, hdtm) instead.
 * The force kernels are templates on TYPED (ntypes > 1), so that the
 * one-type kernels keep the registers they had before mixtures existed
 * (the table load costs 8 registers); GPU_LAUNCH_TYPED picks the instance.
 */
#ifndef MD_GPU_COMMON_CUH
#define MD_GPU_COMMON_CUH

#include <cuda_runtime.h>
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

#define GPU_WARPS_PER_CELL_BLOCK 4	/* cell-sweep kernels: one warp per cell */

/* Written by the GPU, read by the host only at synchronisation points. */
typedef struct gpu_status {
	int rebuild;		/* a rebuild is due in this step        */
	int halt;		/* stop stepping until the host acts    */
	int overflow;		/* the neighbour list was too short     */
	int max_nn;		/* largest list length seen (overflow)  */
	int blowup;		/* a particle left the box or is NaN    */
	int bad_index;		/* sorted index of that particle        */
	long long step;		/* steps completed on the device        */
	long long since;	/* steps since the last build           */
	long long builds;	/* neighbour list builds                */
} gpu_status;

/* Double accumulators of the last energy step (and kinetic energy). */
typedef struct gpu_acc {
	double pe, virial, ke;
} gpu_acc;

/* Everything a kernel needs, passed by value (pointers are device). */
typedef struct gpu_sys {
	int n, ncell, nc[3], stride;
	float box[3], ibox[3];
	double dbox[3], dibox[3];
	double rlist2;
	double skin_half2;	/* (skin/2)^2 */
	long long every;
	int check;
	double dt, hdtm;	/* dt, dt/(2m) */
	md_lj_f lj;
	int ntypes;		/* 1: lj and hdtm serve every particle  */
	const float4 *ljt;	/* [ntypes^2][2]: md_lj_f of pair (a, b) */
	const double *mass_t;	/* [ntypes] masses                     */
	const double *hdtm_t;	/* [ntypes] dt/(2 m_a)                  */
	double4_32a *x, *v, *x0, *xt, *vt;
	float4 *f;
	int4 *img, *imgt;
	int *id, *idt, *cell, *slot, *cell_count, *cell_start, *block_sums;
	int *nl, *nn;
	gpu_status *st;
	gpu_acc *acc;
} gpu_sys;

/* Launch configuration of the force strategies. */
typedef struct gpu_launch {
	int block;		/* threads per block                    */
	int tpp;		/* lanes per particle (register paths)  */
	float hybrid_ratio;	/* fraction of cells on the shared path */
} gpu_launch;

/* A force strategy: launch on stream; eflag: accumulate pe and virial. */
typedef void (*gpu_force_fn)(const gpu_sys *s, const gpu_launch *l,
			     int eflag, cudaStream_t stream);

typedef struct gpu_strategy {
	const char *name;
	gpu_force_fn launch;
	int tune;		/* MD_TUNE_* flags                      */
} gpu_strategy;

extern const gpu_strategy gpu_strategies[MD_STRAT_COUNT];

/* Device helpers ---------------------------------------------------------- */

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

/* dt/(2 m) of particle i (reads its type only for mixtures). */
static __device__ __forceinline__ double gpu_hdtm(const gpu_sys &s, int i)
{
	return s.ntypes > 1 ? s.hdtm_t[(int)s.x[i].w] : s.hdtm;
}

/*
 * gpu_pair_accum - particle i (position and type xi) and a neighbour at
 * (xj, yj, zj) of type wj: minimum image in double, the shared pair
 * function in float, accumulation. The only place the kernels evaluate a
 * pair.
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
	float r2 = dx * dx + dy * dy + dz * dz;
	float en, fr;

	if (TYPED) {
		md_lj_f c = gpu_pair_coeff(s, (int)xi.w, (int)wj);

		fr = md_lj_pair_f(r2, &c, &en);
	} else {
		fr = md_lj_pair_f(r2, &s.lj, &en);
	}
	f.x += dx * fr;
	f.y += dy * fr;
	f.z += dz * fr;
	e += en;
	w += r2 * fr;
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

/* Cell coordinates of linear cell c and the stencil bounds. */
static __device__ __forceinline__ void gpu_cell_coords(const gpu_sys &s, int c,
						       int cc[3])
{
	cc[0] = c % s.nc[0];
	cc[1] = (c / s.nc[0]) % s.nc[1];
	cc[2] = c / (s.nc[0] * s.nc[1]);
}

/* Sweep modes of gpu_cell_sweep() (kernels/cell_sweep.cuh). */
enum { GPU_SWEEP_LIST = 0, GPU_SWEEP_FORCE = 1 };

/* Host side, implemented in gpu_neighbor.cu / gpu_integrate.cu. */
void gpu_enqueue_rebuild(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_integrate1(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_integrate2(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_kick_drift(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_decide(const gpu_sys *s, cudaGraphConditionalHandle h,
			cudaStream_t st);
void gpu_enqueue_zero_acc(const gpu_sys *s, cudaStream_t st);
void gpu_enqueue_kinetic(const gpu_sys *s, double mass, cudaStream_t st);
void gpu_enqueue_vupdate(const gpu_sys *s, const md_vupdate *u, double mass,
			 cudaStream_t st);
void gpu_enqueue_force_rebuild(const gpu_sys *s, cudaStream_t st);
void gpu_time_rebuild(const gpu_sys *s, cudaStream_t st, double ms[4]);
void gpu_enqueue_frame(const gpu_sys *s, unsigned fields, double *fx,
		       double *fv, double *ff, int *fimg, int *ftype,
		       cudaStream_t st);
int gpu_cell_blocks(const gpu_sys *s);

#endif
