/*
 * cpu_backend.c - the CPU backend: the double-precision reference that
 * every GPU path is compared against, and a fast engine in its own right.
 *
 * Layout: structure of arrays, particles sorted by cell at every rebuild
 * (id[] maps back to the original order). Positions are wrapped into the
 * box only at rebuilds; between rebuilds they move less than skin/2 (when
 * `check` is on), and the pair loop applies the minimum image.
 * Neighbour list: full (each pair twice, i and j), fixed stride per
 * particle, grown and rebuilt on overflow. Threads: OpenMP over particles;
 * a full list needs no atomics, and the inner loop vectorises.
 */
#include "md.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "timer.h"
#include "cpu_backend.h"

typedef struct cpu_ctx {
	md_config cfg;
	int n;
	double box[3], ibox[3];
	md_lj_d lj;
	double mass;
	long step;
	/* particle data, sorted order */
	double *x[3], *v[3], *f[3], *x0[3];
	int *img[3], *id, *type;
	/* scratch for sorting */
	double *tmpd;
	int *tmpi, *cell_of, *order;
	/* cells */
	int nc[3], ncell;
	int *cell_start;	/* ncell + 1 */
	/* neighbour list */
	int *nl, *nn, maxnb;
	double rlist2;
	/* results of the last force call */
	double pe, virial;
	/* stats */
	long builds, since_build;
	double t[MD_T_COUNT];
} cpu_ctx;

static void *xalloc(size_t n)
{
	void *p = NULL;

	if (n == 0)
		n = 1;
	if (posix_memalign(&p, 64, n))
		return NULL;
	return p;
}

static void cpu_destroy(md_backend *b)
{
	cpu_ctx *c = b->ctx;
	int d;

	if (!c)
		return;
	for (d = 0; d < 3; d++) {
		free(c->x[d]); free(c->v[d]); free(c->f[d]);
		free(c->x0[d]); free(c->img[d]);
	}
	free(c->id); free(c->type); free(c->tmpd); free(c->tmpi);
	free(c->cell_of); free(c->order); free(c->cell_start); free(c->nl);
	free(c->nn);
	free(c);
	b->ctx = NULL;
}

/* Wrap positions into [0, L), count images; fail on a blown-up particle. */
static int wrap_positions(cpu_ctx *c)
{
	int i, d, bad = -1;

	for (d = 0; d < 3; d++) {
		double L = c->box[d], iL = c->ibox[d];
		double *x = c->x[d];
		int *im = c->img[d];

		for (i = 0; i < c->n; i++) {
			double s = floor(x[i] * iL);

			if (!(fabs(s) <= 1.0)) {	/* NaN or far outside */
				if (bad < 0)
					bad = i;
				continue;
			}
			x[i] -= s * L;
			if (x[i] >= L)	/* round-off at the upper edge */
				x[i] -= L;
			im[i] += (int)s;
		}
	}
	if (bad >= 0) {
		fprintf(stderr, "mdsim: step %ld: particle %d is %s (position %g %g %g, box %g %g %g); the simulation blew up (time step too large or overlapping particles?)\n",
			c->step, c->id[bad],
			isfinite(c->x[0][bad] + c->x[1][bad] + c->x[2][bad]) ?
			"more than one box length outside the box" : "not finite",
			c->x[0][bad], c->x[1][bad], c->x[2][bad],
			c->box[0], c->box[1], c->box[2]);
		return MD_EXIT_SIM;
	}
	return 0;
}

static inline int cell_coord(double x, double iL, int nc)
{
	int k = (int)(x * iL * nc);

	return k < 0 ? 0 : (k >= nc ? nc - 1 : k);
}

/* Counting sort of all particle arrays by cell index. */
static void sort_by_cell(cpu_ctx *c)
{
	int n = c->n, i, d, k;
	int *cnt = c->cell_start;

	memset(cnt, 0, sizeof(int) * (size_t)(c->ncell + 1));
	for (i = 0; i < n; i++) {
		int cx = cell_coord(c->x[0][i], c->ibox[0], c->nc[0]);
		int cy = cell_coord(c->x[1][i], c->ibox[1], c->nc[1]);
		int cz = cell_coord(c->x[2][i], c->ibox[2], c->nc[2]);

		c->cell_of[i] = (cz * c->nc[1] + cy) * c->nc[0] + cx;
		cnt[c->cell_of[i] + 1]++;
	}
	for (k = 0; k < c->ncell; k++)
		cnt[k + 1] += cnt[k];
	for (i = 0; i < n; i++)		/* order[new] = old */
		c->order[cnt[c->cell_of[i]]++] = i;
	for (k = c->ncell; k > 0; k--)	/* restore starts */
		cnt[k] = cnt[k - 1];
	cnt[0] = 0;

#define PERMUTE(arr, tmp)						\
	do {								\
		for (i = 0; i < n; i++)					\
			(tmp)[i] = (arr)[c->order[i]];			\
		memcpy((arr), (tmp), sizeof(*(arr)) * (size_t)n);	\
	} while (0)
	for (d = 0; d < 3; d++) {
		PERMUTE(c->x[d], c->tmpd);
		PERMUTE(c->v[d], c->tmpd);
		PERMUTE(c->f[d], c->tmpd);
		PERMUTE(c->img[d], c->tmpi);
	}
	PERMUTE(c->id, c->tmpi);
	PERMUTE(c->type, c->tmpi);
#undef PERMUTE
}

/* Neighbour offsets along one dimension without duplicates (nc < 3). */
static void stencil_range(int nc, int *lo, int *hi)
{
	*lo = nc >= 3 ? -1 : 0;
	*hi = nc >= 2 ? 1 : 0;
}

/*
 * Build the full list from the sorted cells. Returns the largest count seen
 * (which may exceed maxnb: then the caller grows the list and builds again).
 */
static int build_list(cpu_ctx *c)
{
	int maxseen = 0;
	int lo[3], hi[3], d;

	for (d = 0; d < 3; d++)
		stencil_range(c->nc[d], &lo[d], &hi[d]);

#pragma omp parallel for schedule(static) reduction(max:maxseen)
	for (int ci = 0; ci < c->ncell; ci++) {
		int cx = ci % c->nc[0], cy = (ci / c->nc[0]) % c->nc[1];
		int cz = ci / (c->nc[0] * c->nc[1]);

		for (int i = c->cell_start[ci]; i < c->cell_start[ci + 1]; i++) {
			double xi = c->x[0][i], yi = c->x[1][i], zi = c->x[2][i];
			int *list = c->nl + (size_t)i * c->maxnb, cnt = 0;

			for (int dz = lo[2]; dz <= hi[2]; dz++)
			for (int dy = lo[1]; dy <= hi[1]; dy++)
			for (int dx = lo[0]; dx <= hi[0]; dx++) {
				int nx = (cx + dx + c->nc[0]) % c->nc[0];
				int ny = (cy + dy + c->nc[1]) % c->nc[1];
				int nz = (cz + dz + c->nc[2]) % c->nc[2];
				int cj = (nz * c->nc[1] + ny) * c->nc[0] + nx;

				for (int j = c->cell_start[cj]; j < c->cell_start[cj + 1]; j++) {
					double rx = xi - c->x[0][j];
					double ry = yi - c->x[1][j];
					double rz = zi - c->x[2][j];

					rx -= c->box[0] * nearbyint(rx * c->ibox[0]);
					ry -= c->box[1] * nearbyint(ry * c->ibox[1]);
					rz -= c->box[2] * nearbyint(rz * c->ibox[2]);
					if (rx * rx + ry * ry + rz * rz < c->rlist2 && j != i) {
						if (cnt < c->maxnb)
							list[cnt] = j;
						cnt++;
					}
				}
			}
			c->nn[i] = cnt;
			if (cnt > maxseen)
				maxseen = cnt;
		}
	}
	return maxseen;
}

static int rebuild(cpu_ctx *c)
{
	double t0 = md_now();
	int rc, d, maxseen;

	rc = wrap_positions(c);
	if (rc)
		return rc;
	sort_by_cell(c);
	for (;;) {
		maxseen = build_list(c);
		if (maxseen <= c->maxnb)
			break;
		/* overflow: grow (never truncate) and build again */
		free(c->nl);
		c->maxnb = maxseen + maxseen / 4 + 8;
		c->nl = xalloc(sizeof(int) * (size_t)c->n * (size_t)c->maxnb);
		if (!c->nl) {
			fprintf(stderr, "mdsim: step %ld: cannot grow the neighbour list to %d per particle\n",
				c->step, c->maxnb);
			return MD_EXIT_SIM;
		}
	}
	for (d = 0; d < 3; d++)
		memcpy(c->x0[d], c->x[d], sizeof(double) * (size_t)c->n);
	c->builds++;
	c->since_build = 0;
	c->t[MD_T_NEIGH] += md_now() - t0;
	return 0;
}

/* Forces, energy and virial from the neighbour list. */
static void compute_forces(cpu_ctx *c)
{
	double t0 = md_now(), pe = 0.0, w = 0.0;
	const md_lj_d lj = c->lj;
	const double Lx = c->box[0], Ly = c->box[1], Lz = c->box[2];
	const double iLx = c->ibox[0], iLy = c->ibox[1], iLz = c->ibox[2];
	const double *restrict X = c->x[0], *restrict Y = c->x[1];
	const double *restrict Z = c->x[2];

#pragma omp parallel for schedule(static) reduction(+:pe,w)
	for (int i = 0; i < c->n; i++) {
		const int *restrict list = c->nl + (size_t)i * c->maxnb;
		const double xi = X[i], yi = Y[i], zi = Z[i];
		double fx = 0.0, fy = 0.0, fz = 0.0, ei = 0.0, wi = 0.0;
		const int nn = c->nn[i];

#pragma omp simd reduction(+:fx,fy,fz,ei,wi)
		for (int k = 0; k < nn; k++) {
			const int j = list[k];
			double rx = xi - X[j], ry = yi - Y[j], rz = zi - Z[j];
			double e, fr, r2;

			rx -= Lx * nearbyint(rx * iLx);
			ry -= Ly * nearbyint(ry * iLy);
			rz -= Lz * nearbyint(rz * iLz);
			r2 = rx * rx + ry * ry + rz * rz;
			fr = md_lj_pair_d(r2, &lj, &e);
			fx += rx * fr;
			fy += ry * fr;
			fz += rz * fr;
			ei += e;
			wi += r2 * fr;
		}
		c->f[0][i] = fx;
		c->f[1][i] = fy;
		c->f[2][i] = fz;
		pe += ei;
		w += wi;
	}
	c->pe = 0.5 * pe;	/* each pair counted twice */
	c->virial = 0.5 * w;
	c->t[MD_T_PAIR] += md_now() - t0;
}

static int need_rebuild(cpu_ctx *c)
{
	double lim = 0.25 * c->cfg.skin * c->cfg.skin, mx = 0.0;

	if (c->cfg.every > 0 && c->since_build >= c->cfg.every)
		return 1;
	if (!c->cfg.check)
		return 0;
#pragma omp parallel for schedule(static) reduction(max:mx)
	for (int i = 0; i < c->n; i++) {
		double dx = c->x[0][i] - c->x0[0][i];
		double dy = c->x[1][i] - c->x0[1][i];
		double dz = c->x[2][i] - c->x0[2][i];
		double r2 = dx * dx + dy * dy + dz * dz;

		mx = r2 > mx ? r2 : mx;
	}
	return !(mx <= lim);	/* NaN also triggers a rebuild (and its check) */
}

static int cpu_run(md_backend *b, long nsteps)
{
	cpu_ctx *c = b->ctx;
	const double dt = c->cfg.dt, hdtm = 0.5 * dt / c->mass;
	long s;
	int rc;

	for (s = 0; s < nsteps; s++) {
		double t0 = md_now();

#pragma omp parallel for schedule(static)
		for (int i = 0; i < c->n; i++) {
			for (int d = 0; d < 3; d++) {
				c->v[d][i] += hdtm * c->f[d][i];
				c->x[d][i] += dt * c->v[d][i];
			}
		}
		c->step++;
		c->since_build++;
		c->t[MD_T_INTEGRATE] += md_now() - t0;
		t0 = md_now();
		if (need_rebuild(c)) {
			c->t[MD_T_NEIGH] += md_now() - t0;
			rc = rebuild(c);
			if (rc)
				return rc;
		} else {
			c->t[MD_T_NEIGH] += md_now() - t0;
		}
		compute_forces(c);
		t0 = md_now();
#pragma omp parallel for schedule(static)
		for (int i = 0; i < c->n; i++)
			for (int d = 0; d < 3; d++)
				c->v[d][i] += hdtm * c->f[d][i];
		c->t[MD_T_INTEGRATE] += md_now() - t0;
	}
	return 0;
}

static int cpu_init(md_backend *b, const md_config *cfg, const md_state *st)
{
	cpu_ctx *c = calloc(1, sizeof(*c));
	double rl, vol_nb;
	int d, i, n = st->n;

	b->ctx = c;
	if (!c)
		goto nomem;
	c->cfg = *cfg;
	c->n = n;
	c->mass = cfg->mass;
	c->step = st->step;
#ifdef _OPENMP
	if (cfg->threads > 0)
		omp_set_num_threads(cfg->threads);
#endif
	md_lj_coeff_init_d(&c->lj, cfg->epsilon, cfg->sigma, cfg->cutoff,
			   cfg->shift);
	rl = cfg->cutoff + cfg->skin;
	c->rlist2 = rl * rl;
	for (d = 0; d < 3; d++) {
		c->box[d] = st->box[d];
		c->ibox[d] = 1.0 / st->box[d];
		c->nc[d] = (int)(st->box[d] / rl);
		if (c->nc[d] < 1)
			c->nc[d] = 1;
		if (c->nc[d] > 1024)
			c->nc[d] = 1024;
	}
	c->ncell = c->nc[0] * c->nc[1] * c->nc[2];
	for (d = 0; d < 3; d++) {
		c->x[d] = xalloc(sizeof(double) * n);
		c->v[d] = xalloc(sizeof(double) * n);
		c->f[d] = xalloc(sizeof(double) * n);
		c->x0[d] = xalloc(sizeof(double) * n);
		c->img[d] = xalloc(sizeof(int) * n);
		if (!c->x[d] || !c->v[d] || !c->f[d] || !c->x0[d] || !c->img[d])
			goto nomem;
	}
	c->id = xalloc(sizeof(int) * n);
	c->type = xalloc(sizeof(int) * n);
	c->tmpd = xalloc(sizeof(double) * n);
	c->tmpi = xalloc(sizeof(int) * n);
	c->cell_of = xalloc(sizeof(int) * n);
	c->order = xalloc(sizeof(int) * n);
	c->cell_start = xalloc(sizeof(int) * (size_t)(c->ncell + 1));
	c->nn = xalloc(sizeof(int) * n);
	/* first guess from the density; grown on overflow */
	vol_nb = 4.18879020478639 * rl * rl * rl;
	c->maxnb = (int)(1.3 * vol_nb * n / (c->box[0] * c->box[1] * c->box[2])) + 16;
	c->nl = xalloc(sizeof(int) * (size_t)n * (size_t)c->maxnb);
	if (!c->id || !c->type || !c->tmpd || !c->tmpi || !c->cell_of ||
	    !c->order || !c->cell_start || !c->nn || !c->nl)
		goto nomem;
	for (i = 0; i < n; i++) {
		for (d = 0; d < 3; d++) {
			c->x[d][i] = st->x[3 * i + d];
			c->v[d][i] = st->v[3 * i + d];
			c->f[d][i] = 0.0;
			c->img[d][i] = st->image[3 * i + d];
		}
		c->id[i] = i;
		c->type[i] = st->type[i];
	}
	{
		int rc = rebuild(c);

		if (rc)
			return rc;
	}
	compute_forces(c);
	/* statistics cover the run, not the set-up */
	memset(c->t, 0, sizeof(c->t));
	c->builds = 0;
	return 0;
nomem:
	fprintf(stderr, "mdsim: out of host memory for %d particles\n", n);
	return MD_EXIT_SIM;
}

static int cpu_thermo(md_backend *b, md_thermo *th)
{
	cpu_ctx *c = b->ctx;
	double ke = 0.0;

#pragma omp parallel for schedule(static) reduction(+:ke)
	for (int i = 0; i < c->n; i++)
		ke += c->v[0][i] * c->v[0][i] + c->v[1][i] * c->v[1][i] +
		      c->v[2][i] * c->v[2][i];
	th->step = c->step;
	th->pe = c->pe;
	th->ke = 0.5 * c->mass * ke;
	th->virial = c->virial;
	return 0;
}

static int cpu_download(md_backend *b, md_state *st, unsigned fields)
{
	cpu_ctx *c = b->ctx;

	st->step = c->step;
	for (int i = 0; i < c->n; i++) {
		int o = c->id[i];

		st->type[o] = c->type[i];
		for (int d = 0; d < 3; d++) {
			double L = c->box[d], x = c->x[d][i];
			int im = c->img[d][i];
			double s = floor(x / L);

			if (fields & (MD_F_X | MD_F_IMAGE)) {
				x -= s * L;
				im += (int)s;
				if (x >= L) {
					x -= L;
					im++;
				}
			}
			if (fields & MD_F_X)
				st->x[3 * o + d] = x;
			if (fields & MD_F_IMAGE)
				st->image[3 * o + d] = im;
			if (fields & MD_F_V)
				st->v[3 * o + d] = c->v[d][i];
			if (fields & MD_F_F)
				st->f[3 * o + d] = c->f[d][i];
		}
	}
	return 0;
}

static int cpu_set_strategy(md_backend *b, int strategy)
{
	(void)b;
	(void)strategy;
	return 0;
}

static void cpu_stats(md_backend *b, md_stats *s)
{
	cpu_ctx *c = b->ctx;
	long tot = 0;
	int i, nth = 1;

	for (i = 0; i < c->n; i++)
		tot += c->nn[i];
	memset(s, 0, sizeof(*s));
	s->builds = c->builds;
	s->avg_neighbors = c->n ? (double)tot / c->n : 0.0;
	memcpy(s->t, c->t, sizeof(s->t));
#ifdef _OPENMP
	nth = omp_get_max_threads();
#endif
	snprintf(s->desc, sizeof(s->desc),
		 "cpu, %d OpenMP thread%s, full neighbour list, %d x %d x %d cells",
		 nth, nth == 1 ? "" : "s", c->nc[0], c->nc[1], c->nc[2]);
}

int md_cpu_neighbors(md_backend *b, int orig, int *out, int max)
{
	cpu_ctx *c = b->ctx;
	int i, k, cnt = 0;

	for (i = 0; i < c->n && c->id[i] != orig; i++)
		;
	if (i == c->n)
		return -1;
	for (k = 0; k < c->nn[i]; k++) {
		if (cnt < max)
			out[cnt] = c->id[c->nl[(size_t)i * c->maxnb + k]];
		cnt++;
	}
	return cnt;
}

const md_backend_ops md_cpu_backend = {
	"cpu", cpu_init, cpu_run, cpu_thermo, cpu_download, cpu_set_strategy,
	cpu_stats, cpu_destroy
};
