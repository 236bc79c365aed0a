/*
 * gpu_integrate.cu - velocity Verlet in double on the GPU, the rebuild
 * decision (max displacement > skin/2, refined by k_refine in fused NVE
 * steps, or a fixed interval), and the
 * kinetic-energy reduction (double accumulation), and the thermostats'
 * velocity update, between steps or (Langevin) inside the integrators.
 * Masses per type for mixtures (gpu_hdtm).
 */
#include "gpu_common.cuh"
#include "md_rng.h"
#include "verlet_step.cuh"

static __device__ __forceinline__ double4_32a kick(const gpu_sys &s, int i,
						   double4_32a v, double h)
{
	return kick_f(v, h, s.f[i]);
}

/*
 * v <- scale v + noise sqrt(mass / m_i) g, g from the counter-based
 * generator keyed by the original index: the numbers of the CPU backend's
 * cpu_vupdate() to round-off (fused multiply-adds, device log/sin/cos)
 * whatever the particle order. The thermostats' velocity update, by
 * k_vupdate and inside the integrators (Langevin).
 */
static __device__ __forceinline__ double4_32a ou_update(const gpu_sys &s, int i,
							double4_32a v, double scale,
							double noise, double mass,
							uint64_t seed, uint32_t stream,
							long long step)
{
	double g[4] = { 0.0, 0.0, 0.0, 0.0 };
	double nz = noise;

	if (noise != 0.0)
		md_gauss4(seed, (uint32_t)s.id[i], stream, (uint32_t)step, g);
	if (s.ntypes > 1)
		nz *= sqrt(mass / s.mass_t[(int)s.x[i].w]);
	v.x = scale * v.x + nz * g[0];
	v.y = scale * v.y + nz * g[1];
	v.z = scale * v.z + nz * g[2];
	return v;
}

/*
 * The Langevin half step of md_langevin (gpu_sys.lgv): stream 2 before
 * step n at T(n), stream 3 after it at T(n + 1).
 */
static __device__ __forceinline__ double4_32a langevin(const gpu_sys &s, int i,
						       double4_32a v, long long n,
						       uint32_t stream)
{
	const md_langevin &p = s.lgv;
	double T = md_ramp(p.t_start, p.t_end, p.step0, p.nsteps,
			   stream == 2u ? n : n + 1);

	return ou_update(s, i, v, p.c, md_ou_noise(p.c, T, p.mass), p.mass,
			 p.seed, stream, n);
}

/* m_i |v_i|^2 with m_i the type's mass, or 1 in one-type systems. */
static __device__ __forceinline__ double mv2(const gpu_sys &s, int i,
					     double4_32a v)
{
	double m = s.ntypes > 1 ? s.mass_t[(int)s.x[i].w] : 1.0;

	return m * (v.x * v.x + v.y * v.y + v.z * v.z);
}

/*
 * Adds the block's sum of x times scale to *dst (double atomics; the order
 * of the blocks varies). Every thread of the block calls it.
 */
static __device__ __forceinline__ void block_sum_add(double x, double scale,
						     double *dst)
{
	__shared__ double part[32];
	int k;

	for (k = 16; k > 0; k >>= 1)
		x += __shfl_xor_sync(0xffffffffu, x, k);
	if ((threadIdx.x & 31) == 0)
		part[threadIdx.x >> 5] = x;
	gpu_block_sync();
	if (threadIdx.x == 0) {
		double t = 0.0;

		for (k = 0; k < (int)(blockDim.x >> 5); k++)
			t += part[k];
		atomicAdd(dst, scale * t);
	}
}

/*
 * Advances the step counter. With Langevin every thread reads it (the
 * noise key), so it advances only when the whole grid is through: the
 * last block to pass here increments it (each block's reads precede its
 * barrier; no fence is needed, no data of other blocks is read). Every
 * thread of the block calls this. Without Langevin nobody reads it.
 */
static __device__ __forceinline__ void finish_step(const gpu_sys &s)
{
	if (!s.lgv_on) {
		if (blockIdx.x == 0 && threadIdx.x == 0)
			s.st->step++;
		return;
	}
	__syncthreads();
	if (threadIdx.x == 0 &&
	    atomicAdd(&s.st->blocks_done, 1u) == gridDim.x - 1) {
		s.st->blocks_done = 0;
		s.st->step++;
	}
}

/*
 * First half of velocity Verlet: [NH scale or O,] half kick, drift (starts
 * a chunk; with Nose-Hoover it also follows k_nh in every step).
 */
__global__ void k_integrate1(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (gpu_halted(s))
		return;
	if (i == 0)
		count_since(s);
	if (i < s.n) {
		double4_32a v = s.v[i];

		if (s.nh_on) {	/* the NH half step(s) k_nh decided */
			const double f = s.acc->nh_scale;

			v.x *= f;
			v.y *= f;
			v.z *= f;
		}
		if (s.lgv_on)
			v = langevin(s, i, v, s.st->step, 2u);
		v = kick(s, i, v, gpu_hdtm(s, i));
		s.v[i] = v;
		drift_and_check(s, i, v, 0);
	}
}

/*
 * Second half of step k fused with the first half of step k+1: the two
 * half kicks with the same force become one full kick (with Langevin: half
 * kick, O after step k, O before step k+1, half kick), then the drift.
 * Completes step k. Used between steps whose velocities nobody reads.
 */
__global__ void k_kick_drift(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (gpu_halted(s))
		return;
	if (i == 0)
		count_since(s);
	if (i < s.n) {
		double4_32a v = s.v[i];
		const double h = gpu_hdtm(s, i);

		if (s.lgv_on) {
			const long long n = s.st->step;

			v = kick(s, i, v, h);
			v = langevin(s, i, v, n, 3u);
			v = langevin(s, i, v, n + 1, 2u);
			v = kick(s, i, v, h);
			s.v[i] = v;
			drift_and_check(s, i, v, 0);
		} else {
			nve_kick_drift(s, i, s.f[i], 0);
		}
	}
	finish_step(s);
}

/*
 * Second half kick [, O] (ends a chunk: velocities at full steps again).
 * With Nose-Hoover it ends every step and sums the kinetic energy for
 * k_nh, which then completes the step.
 */
__global__ void k_integrate2(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	double e = 0.0;

	if (gpu_halted(s))
		return;
	if (i < s.n) {
		double4_32a v = kick(s, i, s.v[i], gpu_hdtm(s, i));

		if (s.lgv_on)
			v = langevin(s, i, v, s.st->step, 3u);
		s.v[i] = v;
		if (s.nh_on)
			e = mv2(s, i, v);
	}
	if (s.nh_on)
		block_sum_add(e, 0.5 * (s.ntypes > 1 ? 1.0 : s.nh.mass), &s.acc->nh_ke);
	else
		finish_step(s);
}

/*
 * Nose-Hoover on the device, one thread, with the kinetic energy summed by
 * k_integrate2 (or k_kinetic): START: the half step before step n at
 * T(n); END: the half step after step n at T(n + 1), which completes the
 * step; MIDDLE: END and then START of step n + 1 (the kinetic energy in
 * between is ke s^2). The scale goes to k_integrate1 or k_nh_apply.
 */
__global__ void k_nh(gpu_sys s, int mode)
{
	const md_nose_hoover &p = s.nh;
	gpu_acc *a = s.acc;
	const long long n = s.st->step;
	const double h = 0.5 * p.dt;
	double ke = a->nh_ke, scale = 1.0, zeta = a->nh_zeta, eta = a->nh_eta;

	if (gpu_halted(s))
		return;
	a->nh_ke = 0.0;
	if (mode != GPU_NH_START) {
		double T = md_ramp(p.t_start, p.t_end, p.step0, p.nsteps, n + 1);
		double f = md_nh_half(&zeta, &eta, ke, T, p.dof, p.tau, h);

		scale *= f;
		ke *= f * f;
		s.st->step = n + 1;
	}
	if (mode != GPU_NH_END) {
		double T = md_ramp(p.t_start, p.t_end, p.step0, p.nsteps,
				   mode == GPU_NH_START ? n : n + 1);

		scale *= md_nh_half(&zeta, &eta, ke, T, p.dof, p.tau, h);
	}
	a->nh_zeta = zeta;
	a->nh_eta = eta;
	a->nh_scale = scale;
}

/* v <- nh_scale v: the last NH half step of a chunk. */
__global__ void k_nh_apply(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	const double f = s.acc->nh_scale;
	double4_32a v;

	if (gpu_halted(s) || i >= s.n)
		return;
	v = s.v[i];
	v.x *= f;
	v.y *= f;
	v.z *= f;
	s.v[i] = v;
}

/* Sets the graph's IF condition for the rebuild body. */
__global__ void k_decide(gpu_sys s, cudaGraphConditionalHandle h)
{
	const volatile gpu_status *st = s.st;

	/* a rebuild due, or suspects for k_refine (gpu_neighbor.cu) */
	GPU_SET_COND(h, (st->rebuild || st->nsusp) && !st->halt ? 1u : 0u);
}

__global__ void k_zero_acc(gpu_sys s)
{
	s.acc->pe = 0.0;
	s.acc->virial = 0.0;
	s.acc->ke = 0.0;
}

/* Kinetic energy into *dst (which the caller zeroes first). */
__global__ void k_kinetic(gpu_sys s, double mass, double *dst)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	double v2 = 0.0;

	for (; i < s.n; i += gridDim.x * blockDim.x)
		v2 += mv2(s, i, s.v[i]);
	block_sum_add(v2, 0.5 * (s.ntypes > 1 ? 1.0 : mass), dst);
}

/* A thermostat's velocity update between steps (ou_update). */
__global__ void k_vupdate(gpu_sys s, md_vupdate u, double mass)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= s.n)
		return;
	s.v[i] = ou_update(s, i, s.v[i], u.scale, u.noise, mass, u.seed,
			   u.stream, u.step);
}

void gpu_enqueue_integrate1(const gpu_sys *s, cudaStream_t st)
{
	k_integrate1<<<(s->n + 255) / 256, 256, 0, st>>>(*s);
	GPU_CHECK_LAUNCH();
}

void gpu_enqueue_kick_drift(const gpu_sys *s, cudaStream_t st)
{
	k_kick_drift<<<(s->n + 255) / 256, 256, 0, st>>>(*s);
	GPU_CHECK_LAUNCH();
}

void gpu_enqueue_decide(const gpu_sys *s, cudaGraphConditionalHandle h,
			cudaStream_t st)
{
	k_decide<<<1, 1, 0, st>>>(*s, h);
	GPU_CHECK_LAUNCH();
}

/*
 * xq from x, for the launches that read it after steps that did not store
 * it (drift_and_check's XQ: the register strategy's steps on the compact
 * positions).
 */
__global__ void k_xq_refresh(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < s.n && !gpu_halted(s))
		s.xq[i] = gpu_xq(s, s.x[i]);
}

void gpu_enqueue_xq_refresh(const gpu_sys *s, cudaStream_t st)
{
	k_xq_refresh<<<(s->n + 255) / 256, 256, 0, st>>>(*s);
	GPU_CHECK_LAUNCH();
}

void gpu_enqueue_integrate2(const gpu_sys *s, cudaStream_t st)
{
	k_integrate2<<<(s->n + 255) / 256, 256, 0, st>>>(*s);
	GPU_CHECK_LAUNCH();
}

void gpu_enqueue_zero_acc(const gpu_sys *s, cudaStream_t st)
{
	k_zero_acc<<<1, 1, 0, st>>>(*s);
	GPU_CHECK_LAUNCH();
}

/* Kinetic energy into *dst (which the caller zeroes first). */
static void enqueue_kinetic(const gpu_sys *s, double mass, double *dst,
			    cudaStream_t st)
{
	int nb = (s->n + 255) / 256;

	if (nb > 1024)
		nb = 1024;
	k_kinetic<<<nb, 256, 0, st>>>(*s, mass, dst);
	GPU_CHECK_LAUNCH();
}

/* Kinetic energy into acc->ke (which the caller zeroes first). */
void gpu_enqueue_kinetic(const gpu_sys *s, double mass, cudaStream_t st)
{
	enqueue_kinetic(s, mass, &s->acc->ke, st);
}

/* START: the kinetic energy of the current velocities first. */
void gpu_enqueue_nh(const gpu_sys *s, int mode, cudaStream_t st)
{
	if (mode == GPU_NH_START)
		enqueue_kinetic(s, s->nh.mass, &s->acc->nh_ke, st);
	k_nh<<<1, 1, 0, st>>>(*s, mode);
	GPU_CHECK_LAUNCH();
}

void gpu_enqueue_nh_apply(const gpu_sys *s, cudaStream_t st)
{
	k_nh_apply<<<(s->n + 255) / 256, 256, 0, st>>>(*s);
	GPU_CHECK_LAUNCH();
}

void gpu_enqueue_vupdate(const gpu_sys *s, const md_vupdate *u, double mass,
			 cudaStream_t st)
{
	k_vupdate<<<(s->n + 255) / 256, 256, 0, st>>>(*s, *u, mass);
	GPU_CHECK_LAUNCH();
}
