/*
 * md_physics.h - the pair physics of mdsim, written once.
 *
 * Compiled by gcc (CPU backend, double) and by nvcc (GPU strategies, float).
 * The body of the pair function lives in md_pair_impl.h, which this header
 * includes twice: once with MD_REAL = double (suffix _d), once with
 * MD_REAL = float (suffix _f). No strategy or backend retypes the formula.
 *
 * Units: reduced LJ units (sigma, epsilon, m, k_B = 1).
 * Pair potential: V(r) = 4 eps [(s/r)^12 - (s/r)^6] for r < rc, with a
 * cut-off mode:
 *   MD_SHIFT_NONE   plain truncation (LAMMPS lj/cut)
 *   MD_SHIFT_ENERGY V(r) - V(rc)                      (continuous energy)
 *   MD_SHIFT_FORCE  V(r) - V(rc) - (r - rc) V'(rc)    (continuous force)
 */
#ifndef MD_PHYSICS_H
#define MD_PHYSICS_H

/* MD_INLINE: a static function both compilers inline (host and device). */
#ifdef __CUDACC__
#define MD_INLINE __host__ __device__ __forceinline__
#else
#define MD_INLINE inline
#endif

#include <math.h>

#define MD_MAX_TYPES 4

enum md_shift { MD_SHIFT_NONE = 0, MD_SHIFT_ENERGY = 1, MD_SHIFT_FORCE = 2 };

/*
 * md_rcp_f - 1/x in float. On the device: the hardware reciprocal alone
 * (rcp.approx.ftz, relative error below 2^-23: within an ulp of 1.0f / x),
 * without the IEEE division's branch to its slow path for denormal or huge
 * x (those flush; x = 0 gives infinity) and, since the seventeenth session,
 * without the Newton step that made it round like the division: the
 * compact positions left the force launch bound by instruction issue,
 * where the step's two instructions per pair cost time (RESULTS). A pair's
 * r2 is never near those ranges; the branch cost six instructions per
 * pair.
 */
static MD_INLINE float md_rcp_f(float x)
{
#ifdef __CUDA_ARCH__
	float r;

	asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
	return r;
#else
	return 1.0f / x;
#endif
}

#define MD_REAL double
#define MD_SFX(name) name##_d
#define MD_SQRT sqrt
#define MD_RCP(x) (1.0 / (x))
#include "md_pair_impl.h"
#undef MD_REAL
#undef MD_SFX
#undef MD_SQRT
#undef MD_RCP

#define MD_REAL float
#define MD_SFX(name) name##_f
#define MD_SQRT sqrtf
#define MD_RCP(x) md_rcp_f(x)
#include "md_pair_impl.h"
#undef MD_REAL
#undef MD_SFX
#undef MD_SQRT
#undef MD_RCP

/*
 * md_lj_coeff_init_d - fill the coefficients of one type pair.
 * eps, sigma > 0, rc > 0; shift is an enum md_shift. Pure function.
 */
static inline void md_lj_coeff_init_d(md_lj_d *c, double eps, double sigma,
				      double rc, int shift)
{
	double s6 = sigma * sigma * sigma * sigma * sigma * sigma;
	double rc2 = rc * rc, ir6 = 1.0 / (rc2 * rc2 * rc2);

	c->lj1 = 48.0 * eps * s6 * s6;
	c->lj2 = 24.0 * eps * s6;
	c->lj3 = 4.0 * eps * s6 * s6;
	c->lj4 = 4.0 * eps * s6;
	c->rc2 = rc2;
	c->rc = rc;
	c->eshift = 0.0;
	c->fc = 0.0;
	if (shift != MD_SHIFT_NONE)
		c->eshift = ir6 * (c->lj3 * ir6 - c->lj4);
	if (shift == MD_SHIFT_FORCE)	/* -dV/dr at rc */
		c->fc = ir6 * (c->lj1 * ir6 - c->lj2) / rc;
}

/*
 * md_lj_tail - analytic tail corrections for LJ beyond rc, assuming a
 * uniform density rho there: energy per particle and pressure
 *   e = 8/3 pi rho eps s^3 [ (s/rc)^9 / 3 - (s/rc)^3 ]
 *   p = 16/3 pi rho^2 eps s^3 [ 2 (s/rc)^9 / 3 - (s/rc)^3 ]
 * (of the plain, unshifted potential, as LAMMPS's pair_modify tail).
 */
static inline void md_lj_tail(double rho, double eps, double sigma, double rc,
			      double *e, double *p)
{
	const double pi = 3.14159265358979323846;
	double s3 = sigma * sigma * sigma, x3 = s3 / (rc * rc * rc);
	double x9 = x3 * x3 * x3;

	*e = 8.0 / 3.0 * pi * rho * eps * s3 * (x9 / 3.0 - x3);
	*p = 16.0 / 3.0 * pi * rho * rho * eps * s3 * (2.0 * x9 / 3.0 - x3);
}

/*
 * Thermostat arithmetic, shared by the host loop (engine/thermostat.c) and
 * the GPU integrators so that both give the same doubles: nothing is
 * contracted into fused multiply-adds on either side (gcc in ISO C mode
 * does not contract; nvcc would, hence the _rn intrinsics).
 */
#ifdef __CUDA_ARCH__
#define MD_DMUL(a, b) __dmul_rn((a), (b))
#define MD_DADD(a, b) __dadd_rn((a), (b))
#else
#define MD_DMUL(a, b) ((a) * (b))
#define MD_DADD(a, b) ((a) + (b))
#endif

/* md_ramp - target temperature at step: t0 at step0 to t1 nsteps later. */
static MD_INLINE double md_ramp(double t0, double t1, long long step0,
				long long nsteps, long long step)
{
	double f = nsteps > 0 ? (double)(step - step0) / (double)nsteps : 0.0;

	f = f < 0.0 ? 0.0 : (f > 1.0 ? 1.0 : f);
	return MD_DADD(t0, MD_DMUL(t1 - t0, f));
}

/*
 * md_ou_noise - noise amplitude sqrt((1 - c^2) T / m) of the exact
 * Ornstein-Uhlenbeck step v <- c v + noise g (c = exp(-gamma dt / 2)).
 */
static MD_INLINE double md_ou_noise(double c, double T, double m)
{
	return sqrt(MD_DMUL(MD_DADD(1.0, -MD_DMUL(c, c)), T) / m);
}

/*
 * md_nh_half - half a Nose-Hoover step (h = dt/2) at temperature T for
 * kinetic energy ke, thermostat mass Q = dof T tau^2: updates zeta and eta,
 * returns the velocity scale s (the kinetic energy becomes ke s^2).
 */
static MD_INLINE double md_nh_half(double *zeta, double *eta, double ke,
				   double T, double dof, double tau, double h)
{
	double q = dof * T * tau * tau, s;

	*zeta += 0.5 * h * (2.0 * ke - dof * T) / q;
	s = exp(-*zeta * h);
	*eta += *zeta * h;
	ke *= s * s;
	*zeta += 0.5 * h * (2.0 * ke - dof * T) / q;
	return s;
}

/* md_lj_coeff_to_f - the same coefficients rounded to float (GPU use). */
static inline void md_lj_coeff_to_f(md_lj_f *out, const md_lj_d *in)
{
	out->lj1 = (float)in->lj1;
	out->lj2 = (float)in->lj2;
	out->lj3 = (float)in->lj3;
	out->lj4 = (float)in->lj4;
	out->rc2 = (float)in->rc2;
	out->rc = (float)in->rc;
	out->eshift = (float)in->eshift;
	out->fc = (float)in->fc;
}

#endif
