/*
 * thermostat.c - Langevin and Nose-Hoover as velocity updates between
 * steps (see thermostat.h). Each step is one backend run(1) call, so NVT
 * costs a little more per step than NVE; the backend stays unaware. A
 * backend with the langevin and nose_hoover ops (CUDA) runs them inside its
 * own steps instead, with the same numbers (md_ramp, md_ou_noise,
 * md_gauss4, md_nh_half).
 */
#include "thermostat.h"

#include <math.h>
#include "setup.h"
#include "../kernels/md_physics.h"

void md_thermostat_init(md_thermostat *t, const md_config *cfg, int n,
			long step0)
{
	t->kind = cfg->ensemble;
	t->t_start = cfg->temperature;
	t->t_end = cfg->temperature_end >= 0.0 ? cfg->temperature_end : cfg->temperature;
	t->step0 = step0;
	t->nsteps = cfg->steps;
	t->gamma = cfg->gamma;
	t->tau = cfg->tau_t;
	t->zeta = 0.0;
	t->eta = 0.0;
	t->dof = md_dof(n);
	t->mass = cfg->mass;
	t->dt = cfg->dt;
	t->seed = cfg->seed ^ 0x5bd1e995u;	/* not the velocity stream */
	t->host_loop = 0;
}

double md_thermostat_target(const md_thermostat *t, long step)
{
	return md_ramp(t->t_start, t->t_end, t->step0, t->nsteps, step);
}

/* Half a Nose-Hoover step at temperature T. */
static int nh_half(md_thermostat *t, md_backend *b, double T)
{
	md_thermo th;
	md_vupdate u = { 1.0, 0.0, 0, 0, 0 };
	int rc = b->ops->thermo(b, &th);

	if (rc)
		return rc;
	u.scale = md_nh_half(&t->zeta, &t->eta, th.ke, T, t->dof, t->tau,
			     0.5 * t->dt);
	return b->ops->vupdate(b, &u);
}

/* Half a Langevin (Ornstein-Uhlenbeck) step; stream tells the halves apart. */
static int langevin_half(md_thermostat *t, md_backend *b, double T, long step,
			 uint32_t stream)
{
	double c = exp(-0.5 * t->gamma * t->dt);
	md_vupdate u;

	u.scale = c;
	u.noise = md_ou_noise(c, T, t->mass);
	u.seed = t->seed;
	u.stream = stream;
	u.step = step;
	return b->ops->vupdate(b, &u);
}

int md_thermostat_run(md_thermostat *t, md_backend *b, long nsteps)
{
	md_thermo th;
	long s;
	int rc;

	/* a backend running one of them inside its steps stops doing so
	 * unless it is this thermostat (the ops are no-ops when off) */
	if (b->ops->langevin && (t->kind != MD_ENS_LANGEVIN || t->host_loop))
		b->ops->langevin(b, NULL);
	if (b->ops->nose_hoover && (t->kind != MD_ENS_NOSE_HOOVER || t->host_loop))
		b->ops->nose_hoover(b, NULL, 1);
	if (t->kind == MD_ENS_NVE)
		return b->ops->run(b, nsteps);
	if (t->kind == MD_ENS_LANGEVIN && b->ops->langevin && !t->host_loop) {
		/* inside the backend's steps: no round trip per step */
		md_langevin p;

		p.c = exp(-0.5 * t->gamma * t->dt);
		p.t_start = t->t_start;
		p.t_end = t->t_end;
		p.step0 = t->step0;
		p.nsteps = t->nsteps;
		p.mass = t->mass;
		p.seed = t->seed;
		rc = b->ops->langevin(b, &p);
		return rc ? rc : b->ops->run(b, nsteps);
	}
	if (t->kind == MD_ENS_NOSE_HOOVER && b->ops->nose_hoover && !t->host_loop) {
		/* inside the backend's steps; zeta and eta come back after */
		md_nose_hoover p;

		p.t_start = t->t_start;
		p.t_end = t->t_end;
		p.step0 = t->step0;
		p.nsteps = t->nsteps;
		p.tau = t->tau;
		p.dof = t->dof;
		p.dt = t->dt;
		p.mass = t->mass;
		p.zeta = t->zeta;
		p.eta = t->eta;
		rc = b->ops->nose_hoover(b, &p, 1);
		if (!rc)
			rc = b->ops->run(b, nsteps);
		if (!rc)
			rc = b->ops->nose_hoover(b, &p, 0);
		if (!rc) {
			t->zeta = p.zeta;
			t->eta = p.eta;
		}
		return rc;
	}
	rc = b->ops->thermo(b, &th);	/* the current step */
	if (rc)
		return rc;
	for (s = 0; s < nsteps; s++) {
		long step = th.step + s;
		double T0 = md_thermostat_target(t, step);
		double T1 = md_thermostat_target(t, step + 1);

		rc = t->kind == MD_ENS_LANGEVIN ? langevin_half(t, b, T0, step, 2u) :
		     nh_half(t, b, T0);
		if (!rc)
			rc = b->ops->run(b, 1);
		if (!rc)
			rc = t->kind == MD_ENS_LANGEVIN ?
			     langevin_half(t, b, T1, step, 3u) : nh_half(t, b, T1);
		if (rc)
			return rc;
	}
	return 0;
}

double md_thermostat_energy(const md_thermostat *t, long step)
{
	double T = md_thermostat_target(t, step);

	if (t->kind != MD_ENS_NOSE_HOOVER)
		return 0.0;
	return 0.5 * t->dof * T * t->tau * t->tau * t->zeta * t->zeta +
	       t->dof * T * t->eta;
}
