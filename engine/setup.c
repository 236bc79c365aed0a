/*
 * setup.c - initial state. Positions are in [0, box) and images are zero;
 * velocities depend only on (seed, particle index), so a GPU backend could
 * produce the same numbers with the same md_gauss4().
 */
#include "setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "../kernels/md_rng.h"

int md_state_alloc(md_state *st, int n)
{
	memset(st, 0, sizeof(*st));
	st->n = n;
	st->x = calloc((size_t)3 * n, sizeof(double));
	st->v = calloc((size_t)3 * n, sizeof(double));
	st->f = calloc((size_t)3 * n, sizeof(double));
	st->image = calloc((size_t)3 * n, sizeof(int));
	st->type = calloc((size_t)n, sizeof(int));
	if (!st->x || !st->v || !st->f || !st->image || !st->type) {
		md_state_free(st);
		return -1;
	}
	return 0;
}

void md_state_free(md_state *st)
{
	free(st->x);
	free(st->v);
	free(st->f);
	free(st->image);
	free(st->type);
	memset(st, 0, sizeof(*st));
}

double md_dof(int n)
{
	return n > 1 ? 3.0 * n - 3.0 : 3.0 * n;
}

int md_setup_lattice(const md_config *cfg, md_state *st)
{
	static const double basis[4][3] = {
		{ 0.0, 0.0, 0.0 }, { 0.5, 0.5, 0.0 },
		{ 0.5, 0.0, 0.5 }, { 0.0, 0.5, 0.5 }
	};
	double a = cbrt(4.0 / cfg->density);
	long n = 4L * cfg->cells[0] * cfg->cells[1] * cfg->cells[2];
	long i = 0;
	int cx, cy, cz, b;

	if (n > 2000000000L || md_state_alloc(st, (int)n)) {
		fprintf(stderr, "mdsim: cannot allocate %ld particles on the host\n", n);
		return MD_EXIT_SIM;
	}
	cfg_box(cfg, st->box);
	for (cz = 0; cz < cfg->cells[2]; cz++)
		for (cy = 0; cy < cfg->cells[1]; cy++)
			for (cx = 0; cx < cfg->cells[0]; cx++)
				for (b = 0; b < 4; b++, i++) {
					st->x[3 * i + 0] = (cx + basis[b][0]) * a;
					st->x[3 * i + 1] = (cy + basis[b][1]) * a;
					st->x[3 * i + 2] = (cz + basis[b][2]) * a;
				}
	return 0;
}

double md_kinetic(const md_state *st, double mass)
{
	double s = 0.0;
	long i;

	for (i = 0; i < 3L * st->n; i++)
		s += st->v[i] * st->v[i];
	return 0.5 * mass * s;
}

void md_setup_velocities(const md_config *cfg, md_state *st)
{
	double p[3] = { 0.0, 0.0, 0.0 }, sd = sqrt(cfg->temperature / cfg->mass);
	double ke, scale;
	long i;
	int d;

	for (i = 0; i < st->n; i++) {
		double g[4];

		md_gauss4(cfg->seed, (uint32_t)i, 0u, 0u, g);
		for (d = 0; d < 3; d++) {
			st->v[3 * i + d] = sd * g[d];
			p[d] += st->v[3 * i + d];
		}
	}
	if (st->n > 1)
		for (i = 0; i < st->n; i++)
			for (d = 0; d < 3; d++)
				st->v[3 * i + d] -= p[d] / st->n;
	ke = md_kinetic(st, cfg->mass);
	scale = ke > 0.0 ? sqrt(0.5 * md_dof(st->n) * cfg->temperature / ke) : 0.0;
	for (i = 0; i < 3L * st->n; i++)
		st->v[i] *= scale;
}
