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
#include "xyz.h"

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

int md_state_copy(md_state *dst, const md_state *src)
{
	size_t n = (size_t)src->n;

	if (md_state_alloc(dst, src->n))
		return -1;
	memcpy(dst->box, src->box, sizeof(src->box));
	memcpy(dst->x, src->x, 3 * n * sizeof(double));
	memcpy(dst->v, src->v, 3 * n * sizeof(double));
	memcpy(dst->image, src->image, 3 * n * sizeof(int));
	memcpy(dst->type, src->type, n * sizeof(int));
	dst->step = src->step;
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

void md_state_pin(md_backend *be, md_state *st, int pin)
{
	size_t n = (size_t)st->n, d3 = 3 * n * sizeof(double);
	void *p[5] = { st->x, st->v, st->f, st->image, st->type };
	size_t bytes[5] = { d3, d3, d3, 3 * n * sizeof(int), n * sizeof(int) };

	for (int k = 0; k < 5; k++) {
		if (!p[k])
			continue;
		if (pin)
			be->ops->pin(be, p[k], bytes[k]);
		else
			be->ops->unpin(be, p[k]);
	}
}

double md_dof(int n)
{
	return n > 1 ? 3.0 * n - 3.0 : 3.0 * n;
}

/*
 * Random placement: particles one by one at uniform positions (Philox
 * stream 7), each redrawn until it is at least min_distance from all
 * placed ones (a cell grid keeps the test local).
 */
static int setup_random(const md_config *cfg, md_state *st)
{
	double box[3], dmin = cfg->min_distance, d2 = dmin * dmin;
	long n = cfg->particles, i, ncell = 1;
	int nc[3], d, *head = NULL, *next = NULL, rc = MD_EXIT_INPUT;
	uint32_t draw = 0;

	cfg_box(cfg, box);
	if (md_state_alloc(st, (int)n)) {
		fprintf(stderr, "mdsim: cannot allocate %ld particles on the host\n", n);
		return MD_EXIT_SIM;
	}
	memcpy(st->box, box, sizeof(box));
	for (d = 0; d < 3; d++) {
		nc[d] = dmin > 0.0 ? (int)(box[d] / dmin) : 1;
		nc[d] = nc[d] < 1 ? 1 : (nc[d] > 512 ? 512 : nc[d]);
		ncell *= nc[d];
	}
	head = malloc(sizeof(int) * (size_t)ncell);
	next = malloc(sizeof(int) * (size_t)n);
	if (!head || !next)
		goto out;
	for (i = 0; i < ncell; i++)
		head[i] = -1;
	for (i = 0; i < n; i++) {
		long tries;

		for (tries = 0; tries < 100000; tries++) {
			md_u4 ctr = { { (uint32_t)i, 7u, draw++, 0u } };
			md_u4 r = md_philox(ctr, cfg->seed);
			double p[3];
			int cc[3], ok = 1, dx, dy, dz;

			for (d = 0; d < 3; d++) {
				p[d] = (md_u01(r.v[d]) - 1.0 / 4294967296.0) * box[d];
				cc[d] = (int)(p[d] / box[d] * nc[d]) % nc[d];
			}
			for (dz = -1; dz <= 1 && ok; dz++)
			for (dy = -1; dy <= 1 && ok; dy++)
			for (dx = -1; dx <= 1 && ok; dx++) {
				long c = ((long)((cc[2] + dz + nc[2]) % nc[2]) * nc[1] +
					  (cc[1] + dy + nc[1]) % nc[1]) * nc[0] +
					 (cc[0] + dx + nc[0]) % nc[0];
				int j;

				for (j = head[c]; j >= 0 && ok; j = next[j]) {
					double r2 = 0.0;

					for (d = 0; d < 3; d++) {
						double u = p[d] - st->x[3 * j + d];

						u -= box[d] * nearbyint(u / box[d]);
						r2 += u * u;
					}
					ok = r2 >= d2;
				}
			}
			if (ok) {
				long c = ((long)cc[2] * nc[1] + cc[1]) * nc[0] + cc[0];

				for (d = 0; d < 3; d++)
					st->x[3 * i + d] = p[d];
				next[i] = head[c];
				head[c] = (int)i;
				break;
			}
		}
		if (tries == 100000) {
			fprintf(stderr, "mdsim: %s: [system] min_distance: could not place particle %ld of %ld at least %g apart after 100000 tries; lower the density or min_distance\n",
				cfg->path, i + 1, n, dmin);
			goto out;
		}
	}
	rc = 0;
out:
	free(head);
	free(next);
	if (rc)
		md_state_free(st);
	return rc;
}

int md_setup_initial(const md_config *cfg, md_state *st, FILE *out)
{
	int rc, has_v = 0, d;

	if (!strcmp(cfg->lattice, "xyz")) {
		rc = md_xyz_read(cfg->structure_file, cfg->min_distance, st, &has_v,
				 stderr);
		if (rc)
			return rc;
		for (d = 0; d < 3; d++)
			if (st->box[d] < 2.0 * (cfg->cutoff + cfg->skin)) {
				fprintf(stderr, "mdsim: %s: box edge %c = %.4g is shorter than 2 x (cutoff + skin) = %.4g\n",
					cfg->structure_file, "xyz"[d], st->box[d],
					2.0 * (cfg->cutoff + cfg->skin));
				md_state_free(st);
				return MD_EXIT_INPUT;
			}
		for (d = 0; d < st->n; d++)
			if (st->type[d] >= (cfg->ntypes > 0 ? cfg->ntypes : 1)) {
				fprintf(stderr, "mdsim: %s:%d: particle %d has type %d, but [system] types = %d\n",
					cfg->structure_file, 3 + d, d + 1, st->type[d] + 1,
					cfg->ntypes);
				md_state_free(st);
				return MD_EXIT_INPUT;
			}
		if (!cfg->quiet && out)
			fprintf(out, "Read %d particles from %s (box %g x %g x %g, %s)\n",
				st->n, cfg->structure_file, st->box[0], st->box[1],
				st->box[2], has_v ? "with velocities" : "velocities from the temperature");
	} else if (!strcmp(cfg->lattice, "random")) {
		rc = setup_random(cfg, st);
		if (rc)
			return rc;
	} else {
		rc = md_setup_lattice(cfg, st);
		if (rc)
			return rc;
	}
	if (strcmp(cfg->lattice, "xyz"))
		md_setup_types(cfg, st);
	if (!has_v)
		md_setup_velocities(cfg, st);
	return 0;
}

void md_setup_types(const md_config *cfg, md_state *st)
{
	long n = st->n, i, start = 0, cnt;
	int a;

	for (i = 0; i < n; i++)
		st->type[i] = 0;
	if (cfg->ntypes <= 1)
		return;
	/* a random permutation (Fisher-Yates, Philox stream 9) ... */
	for (i = 0; i < n; i++)
		st->type[i] = (int)i;	/* temporarily: indices */
	for (i = n - 1; i > 0; i--) {
		md_u4 ctr = { { (uint32_t)i, 9u, 0u, 0u } };
		md_u4 r = md_philox(ctr, cfg->seed);
		long j = (long)(((uint64_t)r.v[0] << 32 | r.v[1]) % (uint64_t)(i + 1));
		int t = st->type[i];

		st->type[i] = st->type[j];
		st->type[j] = t;
	}
	/* ... whose first round(f_0 N) entries get type 0, and so on; the
	 * last type takes the rest, so the counts are exact */
	{
		int *perm = malloc(sizeof(int) * (size_t)n);

		if (!perm)
			return;
		memcpy(perm, st->type, sizeof(int) * (size_t)n);
		for (a = 0; a < cfg->ntypes; a++) {
			cnt = a == cfg->ntypes - 1 ? n - start :
			      (long)floor(cfg->type_frac[a] * n + 0.5);
			if (start + cnt > n)
				cnt = n - start;
			for (i = start; i < start + cnt; i++)
				st->type[perm[i]] = a;
			start += cnt;
		}
		free(perm);
	}
}

void md_pair_coeff(const md_config *cfg, int a, int b, double *eps,
		   double *sigma, double *rc)
{
	if (cfg->ntypes <= 1) {
		*eps = cfg->epsilon;
		*sigma = cfg->sigma;
		*rc = cfg->cutoff;
		return;
	}
	*eps = cfg->pair_eps[a][b];
	*sigma = cfg->pair_sigma[a][b];
	*rc = cfg->pair_rc[a][b];
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

double md_type_mass(const md_config *cfg, int type)
{
	return cfg->ntypes > 1 && type >= 0 && type < cfg->ntypes &&
	       cfg->type_mass[type] > 0.0 ? cfg->type_mass[type] : cfg->mass;
}

double md_kinetic_cfg(const md_state *st, const md_config *cfg)
{
	double s = 0.0;
	long i;

	for (i = 0; i < st->n; i++) {
		const double *v = &st->v[3 * i];

		s += md_type_mass(cfg, st->type[i]) * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	}
	return 0.5 * s;
}

void md_setup_velocities(const md_config *cfg, md_state *st)
{
	double p[3] = { 0.0, 0.0, 0.0 }, mtot = 0.0;
	double ke, scale;
	long i;
	int d;

	for (i = 0; i < st->n; i++) {
		double g[4], m = md_type_mass(cfg, st->type[i]);
		double sd = sqrt(cfg->temperature / m);

		md_gauss4(cfg->seed, (uint32_t)i, 0u, 0u, g);
		for (d = 0; d < 3; d++) {
			st->v[3 * i + d] = sd * g[d];
			p[d] += m * st->v[3 * i + d];
		}
		mtot += m;
	}
	if (st->n > 1)	/* zero total momentum (mass-weighted) */
		for (i = 0; i < st->n; i++)
			for (d = 0; d < 3; d++)
				st->v[3 * i + d] -= p[d] / mtot;
	ke = md_kinetic_cfg(st, cfg);
	scale = ke > 0.0 ? sqrt(0.5 * md_dof(st->n) * cfg->temperature / ke) : 0.0;
	for (i = 0; i < 3L * st->n; i++)
		st->v[i] *= scale;
}
