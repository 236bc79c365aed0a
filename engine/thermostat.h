/*
 * thermostat.h - NVT for any backend, as velocity updates between
 * velocity-Verlet steps (Trotter splitting around each step):
 *   langevin:    O(dt/2) B A B O(dt/2), O the exact Ornstein-Uhlenbeck
 *                update v <- c v + sqrt((1 - c^2) T/m) g, c = exp(-gamma dt/2),
 *                noise from the counter-based generator (seed, particle, step);
 *   nose-hoover: NH(dt/2) B A B NH(dt/2), one thermostat variable zeta with
 *                mass Q = dof T tau^2; conserved: KE + PE + Q zeta^2/2 + dof T eta.
 * The target temperature ramps linearly from system.temperature to
 * run.temperature_end over the run. A backend with the langevin and
 * nose_hoover ops (CUDA) runs the splitting inside its own steps with the
 * same numbers (md.h); otherwise each step is one run(1) between updates.
 */
#ifndef MD_THERMOSTAT_H
#define MD_THERMOSTAT_H

#include "md.h"

typedef struct md_thermostat {
	int kind;		/* enum md_ensemble */
	double t_start, t_end;	/* target temperature ramp */
	long step0, nsteps;	/* the ramp spans [step0, step0 + nsteps] */
	double gamma, tau;	/* Langevin friction (1/tau); NH period (tau) */
	double zeta, eta;	/* Nose-Hoover variables */
	double dof, mass, dt;
	uint64_t seed;
	int host_loop;		/* 1: vupdate between steps even when the
				 * backend has the langevin or nose_hoover
				 * op (tests) */
} md_thermostat;

/* md_thermostat_init - from cfg, for n particles, a run starting at step0. */
void md_thermostat_init(md_thermostat *t, const md_config *cfg, int n,
			long step0);

/* md_thermostat_target - the target temperature at step. */
double md_thermostat_target(const md_thermostat *t, long step);

/*
 * md_thermostat_run - nsteps steps of the backend with the thermostat
 * (plain ops->run for NVE). Returns 0 or an MD_EXIT_* code.
 */
int md_thermostat_run(md_thermostat *t, md_backend *b, long nsteps);

/* md_thermostat_energy - the NH thermostat's energy (0 for the others). */
double md_thermostat_energy(const md_thermostat *t, long step);

#endif
