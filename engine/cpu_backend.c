/*
 * cpu_backend.c - the CPU backend: the double-precision reference that
 * every GPU path is compared against, and a fast engine in its own right.
 *
 * Layout: structure of arrays. Owned particles 0..n-1 are sorted by cell at
 * every rebuild (id[] maps back to the original order); periodic images
 * ("ghosts", as in LAMMPS) of the owned particles that lie within
 * rl = cutoff + skin of the box follow them in the position arrays, at
 * n..n+ng-1, then one far-away sentinel. A ghost is its owner plus a fixed
 * multiple of the box, refreshed every step, so the pair loop needs no
 * minimum image: r_ij = x_i - x_j. Positions are wrapped into the box only
 * at rebuilds; between rebuilds they move less than skin/2 (when `check`
 * is on), and every image within rc of an owned particle then was within
 * rl of it at the rebuild, so it is in the list.
 *
 * Neighbour list: full (each pair twice, i and j), fixed stride per owned
 * particle, built from a cell grid over the box plus its ghost shell (cells
 * >= rl, 27-cell stencil whose x-rows are contiguous ranges of a binned
 * copy of the positions, tested 8 at a time with AVX-512 where available).
 * Rows are padded to a multiple of 8 with the sentinel, whose pairs give
 * exactly zero, so the pair loop has no remainder. Overflow grows the list
 * and builds again; it never truncates. Threads: OpenMP over owned
 * particles; a full list needs no atomics and the pair loop vectorises.
 *
 * Boxes: the config asks for edges >= 2 (cutoff + skin); then the list holds
 * exactly the minimum-image neighbours within rl. With edges between 2 rc and
 * 2 rl a neighbour may be listed through two images; only one of them can be
 * within rc, so forces stay the minimum-image ones (md_cpu_neighbors reports
 * each neighbour once). Below 2 rc every image within rc counts (LAMMPS).
 */
#include "md.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__AVX512F__) && defined(__AVX512VL__)
#include <immintrin.h>
#define CPU_AVX512 1
#else
#define CPU_AVX512 0
#endif
#include "timer.h"
#include "cpu_backend.h"

#define CPU_PAD 8		/* list rows are padded to this many entries */
#define CPU_MAX_IMAGES 16	/* ghost images per direction and sign       */

typedef struct cpu_ctx {
	md_config cfg;
	int n;
	double box[3], ibox[3];
	md_lj_d lj;
	double mass;
	long step;
	/* owned particles (sorted order) then ghosts then the sentinel (x) */
	double *x[3], *v[3], *f[3], *x0[3];
	int *img[3], *id, *type;
	int xcap;		/* capacity of x[]: n + ghosts + 1 */
	/* ghosts: x[d][n + g] = x[d][gown[g]] + gsh[d][g] */
	int ng;
	int *gown;
	double *gsh[3];
	int mimg[3];		/* largest image multiple per direction */
	/* binned copy of owned + ghost positions, sorted by cell */
	int bcap;
	double *bx[3];
	int *bidx, *bcell;
	/* scratch for sorting owned particles */
	double *tmpd;
	int *tmpi, *cell_of, *order;
	/* cells over [-rl, L + rl) per direction */
	int nc[3], ncell;
	double ich[3];		/* 1 / cell size */
	int *cell_start;	/* ncell + 1, into the binned copy */
	int *cnt;		/* ncell + 1, scratch */
	/* neighbour list */
	int *nl, *nn, maxnb, stride;
	double rl, rlist2;
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
		free(c->x0[d]); free(c->img[d]); free(c->gsh[d]);
		free(c->bx[d]);
	}
	free(c->id); free(c->type); free(c->tmpd); free(c->tmpi);
	free(c->cell_of); free(c->order); free(c->cell_start); free(c->cnt);
	free(c->nl); free(c->nn); free(c->gown); free(c->bidx);
	free(c->bcell);
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

/* Cell of a position in [-rl, L + rl) (clamped against round-off). */
static inline int cell_index(const cpu_ctx *c, double x, double y, double z)
{
	int k[3], d;
	double p[3] = { x, y, z };

	for (d = 0; d < 3; d++) {
		k[d] = (int)((p[d] + c->rl) * c->ich[d]);
		k[d] = k[d] < 0 ? 0 : (k[d] >= c->nc[d] ? c->nc[d] - 1 : k[d]);
	}
	return (k[2] * c->nc[1] + k[1]) * c->nc[0] + k[0];
}

/* Counting sort of the owned particle arrays by cell index. */
static void sort_by_cell(cpu_ctx *c)
{
	int n = c->n, i, d, k;
	int *cnt = c->cnt;

	memset(cnt, 0, sizeof(int) * (size_t)(c->ncell + 1));
	for (i = 0; i < n; i++) {
		c->cell_of[i] = cell_index(c, c->x[0][i], c->x[1][i], c->x[2][i]);
		cnt[c->cell_of[i] + 1]++;
	}
	for (k = 0; k < c->ncell; k++)
		cnt[k + 1] += cnt[k];
	for (i = 0; i < n; i++)		/* order[new] = old */
		c->order[cnt[c->cell_of[i]]++] = i;

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
	PERMUTE(c->cell_of, c->tmpi);
#undef PERMUTE
}

/* Grow the position arrays (owned part kept) and the binned copy. */
static int grow_ghosts(cpu_ctx *c, int ng)
{
	int d, cap = c->n + ng + ng / 8 + 64;

	if (c->n + ng + 1 <= c->xcap)
		return 0;
	for (d = 0; d < 3; d++) {
		double *nx = xalloc(sizeof(double) * (size_t)cap);

		if (!nx)
			return -1;
		memcpy(nx, c->x[d], sizeof(double) * (size_t)c->n);
		free(c->x[d]);
		c->x[d] = nx;
		free(c->gsh[d]);
		free(c->bx[d]);
		c->gsh[d] = xalloc(sizeof(double) * (size_t)cap);
		c->bx[d] = xalloc(sizeof(double) * (size_t)cap);
		if (!c->gsh[d] || !c->bx[d])
			return -1;
	}
	free(c->gown); free(c->bidx); free(c->bcell);
	c->gown = xalloc(sizeof(int) * (size_t)cap);
	c->bidx = xalloc(sizeof(int) * (size_t)cap);
	c->bcell = xalloc(sizeof(int) * (size_t)cap);
	if (!c->gown || !c->bidx || !c->bcell)
		return -1;
	c->xcap = c->bcap = cap;
	return 0;
}

/*
 * Images of owned particle i within the ghost shell, per direction: the
 * shifts m L (m != 0 allowed) with x + m L in [-rl, L + rl). Returns the
 * number of ghosts of i; with store set, appends them at c->ng.
 */
static int ghosts_of(cpu_ctx *c, int i, int store)
{
	double sh[3][2 * CPU_MAX_IMAGES + 1];
	int ns[3], d, a, b, e, cnt = 0;

	for (d = 0; d < 3; d++) {
		double x = c->x[d][i], L = c->box[d];

		sh[d][0] = 0.0;
		ns[d] = 1;
		if (x >= c->rl && x < L - c->rl)	/* the usual case */
			continue;
		for (int m = -c->mimg[d]; m <= c->mimg[d]; m++) {
			double xm = x + m * L;

			if (m != 0 && xm >= -c->rl && xm < L + c->rl)
				sh[d][ns[d]++] = m * L;
		}
	}
	for (e = 0; e < ns[2]; e++)
	for (b = 0; b < ns[1]; b++)
	for (a = 0; a < ns[0]; a++) {
		int g;

		if (a == 0 && b == 0 && e == 0)
			continue;
		if (store) {
			g = c->ng++;
			c->gown[g] = i;
			c->gsh[0][g] = sh[0][a];
			c->gsh[1][g] = sh[1][b];
			c->gsh[2][g] = sh[2][e];
		}
		cnt++;
	}
	return cnt;
}

/* Positions of the ghosts (and of the sentinel) from their owners. */
static void update_ghosts(cpu_ctx *c)
{
	const int n = c->n, ng = c->ng;

#pragma omp parallel for schedule(static)
	for (int g = 0; g < ng; g++) {
		int o = c->gown[g];

		c->x[0][n + g] = c->x[0][o] + c->gsh[0][g];
		c->x[1][n + g] = c->x[1][o] + c->gsh[1][g];
		c->x[2][n + g] = c->x[2][o] + c->gsh[2][g];
	}
}

/* Make the ghosts and the binned copy of owned + ghost positions. */
static int make_ghosts(cpu_ctx *c)
{
	int n = c->n, i, d, k, total = 0, nb;

	for (i = 0; i < n; i++)
		total += ghosts_of(c, i, 0);
	if (grow_ghosts(c, total))
		return -1;
	c->ng = 0;
	for (i = 0; i < n; i++)
		ghosts_of(c, i, 1);
	update_ghosts(c);
	/* sentinel: far from everything, its pairs are exactly zero */
	for (d = 0; d < 3; d++)
		c->x[d][n + c->ng] = -1000.0 - 2.0 * c->box[d];

	/* counting sort of owned + ghosts into the binned copy */
	nb = n + c->ng;
	memset(c->cnt, 0, sizeof(int) * (size_t)(c->ncell + 1));
	for (i = 0; i < nb; i++) {
		c->bcell[i] = i < n ? c->cell_of[i] :
			cell_index(c, c->x[0][i], c->x[1][i], c->x[2][i]);
		c->cnt[c->bcell[i] + 1]++;
	}
	for (k = 0; k < c->ncell; k++)
		c->cnt[k + 1] += c->cnt[k];
	memcpy(c->cell_start, c->cnt, sizeof(int) * (size_t)(c->ncell + 1));
	for (i = 0; i < nb; i++) {
		int p = c->cnt[c->bcell[i]]++;

		c->bidx[p] = i;
		c->bx[0][p] = c->x[0][i];
		c->bx[1][p] = c->x[1][i];
		c->bx[2][p] = c->x[2][i];
	}
	return 0;
}

/*
 * Candidates [s, e) of the binned copy within rl of (xi, yi, zi), other than
 * i itself, appended to list at cnt. Entries are stored while they fit in
 * the row (stride); the count goes on, so that overflow can be detected.
 * Returns the new count.
 */
static inline int scan_range(const cpu_ctx *c, int i, double xi, double yi,
			     double zi, int s, int e, int *list, int cnt)
{
	const double *bx = c->bx[0], *by = c->bx[1], *bz = c->bx[2];
	const int *bidx = c->bidx;
#if CPU_AVX512
	const __m512d X = _mm512_set1_pd(xi), Y = _mm512_set1_pd(yi);
	const __m512d Z = _mm512_set1_pd(zi), R = _mm512_set1_pd(c->rlist2);
	const __m256i I = _mm256_set1_epi32(i);
	const int lim = c->stride - 8;

	for (int j = s; j < e; j += 8) {
		__mmask8 m = e - j >= 8 ? 0xff : (__mmask8)((1u << (e - j)) - 1);
		__m512d dx = _mm512_sub_pd(X, _mm512_maskz_loadu_pd(m, bx + j));
		__m512d dy = _mm512_sub_pd(Y, _mm512_maskz_loadu_pd(m, by + j));
		__m512d dz = _mm512_sub_pd(Z, _mm512_maskz_loadu_pd(m, bz + j));
		__m512d r2 = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(dx, dx),
							 _mm512_mul_pd(dy, dy)),
					   _mm512_mul_pd(dz, dz));
		__m256i idx = _mm256_maskz_loadu_epi32(m, bidx + j);
		__mmask8 k = _mm512_mask_cmp_pd_mask(m, r2, R, _CMP_LT_OQ);

		k &= _mm256_cmpneq_epi32_mask(idx, I);
		if (cnt <= lim)
			_mm256_storeu_si256((__m256i *)(list + cnt),
					    _mm256_maskz_compress_epi32(k, idx));
		cnt += __builtin_popcount(k);
	}
#else
	for (int j = s; j < e; j++) {
		double dx = xi - bx[j], dy = yi - by[j], dz = zi - bz[j];

		if (dx * dx + dy * dy + dz * dz < c->rlist2 && bidx[j] != i) {
			if (cnt < c->stride)
				list[cnt] = bidx[j];
			cnt++;
		}
	}
#endif
	return cnt;
}

/*
 * Build the full list of every owned particle from the binned copy. Returns
 * the largest count seen (which may exceed maxnb: then the caller grows the
 * list and builds again).
 */
static int build_list(cpu_ctx *c)
{
	int maxseen = 0;
	const int n = c->n, nx = c->nc[0], ny = c->nc[1], nz = c->nc[2];
	const int sentinel = n + c->ng;

#pragma omp parallel for schedule(static) reduction(max:maxseen)
	for (int i = 0; i < n; i++) {
		int ci = c->cell_of[i];
		int cx = ci % nx, cy = (ci / nx) % ny, cz = ci / (nx * ny);
		int xlo = cx > 0 ? cx - 1 : 0, xhi = cx < nx - 1 ? cx + 1 : cx;
		int *list = c->nl + (size_t)i * c->stride, cnt = 0;
		double xi = c->x[0][i], yi = c->x[1][i], zi = c->x[2][i];

		for (int z = cz - 1; z <= cz + 1; z++) {
			if (z < 0 || z >= nz)
				continue;
			for (int y = cy - 1; y <= cy + 1; y++) {
				int row = (z * ny + y) * nx;

				if (y < 0 || y >= ny)
					continue;
				cnt = scan_range(c, i, xi, yi, zi,
						 c->cell_start[row + xlo],
						 c->cell_start[row + xhi + 1],
						 list, cnt);
			}
		}
		c->nn[i] = cnt;
		if (cnt > maxseen)
			maxseen = cnt;
		if (cnt <= c->maxnb)	/* pad to a multiple of CPU_PAD */
			for (int k = cnt; k % CPU_PAD; k++)
				list[k] = sentinel;
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
	if (make_ghosts(c)) {
		fprintf(stderr, "mdsim: step %ld: out of host memory for %d ghost particles\n",
			c->step, c->ng);
		return MD_EXIT_SIM;
	}
	for (;;) {
		maxseen = build_list(c);
		if (maxseen <= c->maxnb)
			break;
		/* overflow: grow (never truncate) and build again */
		free(c->nl);
		c->maxnb = maxseen + maxseen / 4 + 8;
		c->stride = (c->maxnb + 8 + 15) & ~15;
		c->nl = xalloc(sizeof(int) * (size_t)c->n * (size_t)c->stride);
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

/*
 * Forces of the owned particles of this thread's share (an orphaned omp
 * for), energy and virial sums added to *pe, *w. Inlined with a constant
 * `shifted`, so that the force-shift branch of md_lj_pair_d disappears from
 * the loop when the cut-off is not force-shifted.
 */
static inline __attribute__((always_inline))
void pair_rows(cpu_ctx *c, int shifted, double *pe, double *w)
{
	md_lj_d lj = c->lj;
	const double *restrict X = c->x[0], *restrict Y = c->x[1];
	const double *restrict Z = c->x[2];
	double *restrict FX = c->f[0], *restrict FY = c->f[1];
	double *restrict FZ = c->f[2];
	const int *restrict NL = c->nl, *restrict NN = c->nn;
	const int n = c->n, stride = c->stride;
	double spe = 0.0, sw = 0.0;

	if (!shifted)
		lj.fc = 0.0;
#pragma omp for schedule(static) nowait
	for (int i = 0; i < n; i++) {
		const int *restrict list = NL + (size_t)i * stride;
		const double xi = X[i], yi = Y[i], zi = Z[i];
		const int nn = (NN[i] + CPU_PAD - 1) & ~(CPU_PAD - 1);
		double fx = 0.0, fy = 0.0, fz = 0.0, ei = 0.0, wi = 0.0;

#pragma omp simd reduction(+:fx,fy,fz,ei,wi)
		for (int k = 0; k < nn; k++) {
			const int j = list[k];
			const double rx = xi - X[j], ry = yi - Y[j];
			const double rz = zi - Z[j];
			const double r2 = rx * rx + ry * ry + rz * rz;
			double e, fr;

			fr = md_lj_pair_d(r2, &lj, &e);
			fx += rx * fr;
			fy += ry * fr;
			fz += rz * fr;
			ei += e;
			wi += r2 * fr;
		}
		FX[i] = fx;
		FY[i] = fy;
		FZ[i] = fz;
		spe += ei;
		sw += wi;
	}
	*pe += spe;
	*w += sw;
}

/* Forces, energy and virial from the neighbour list. */
static void compute_forces(cpu_ctx *c)
{
	double t0 = md_now(), pe = 0.0, w = 0.0;
	const int shifted = c->lj.fc != 0.0;

#pragma omp parallel reduction(+:pe,w)
	{
		if (shifted)
			pair_rows(c, 1, &pe, &w);
		else
			pair_rows(c, 0, &pe, &w);
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
			update_ghosts(c);
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
	c->rl = rl;
	c->rlist2 = rl * rl;
	for (d = 0; d < 3; d++) {
		double ext = st->box[d] + 2.0 * rl;

		c->box[d] = st->box[d];
		c->ibox[d] = 1.0 / st->box[d];
		c->mimg[d] = (int)ceil(rl / st->box[d]);
		if (c->mimg[d] > CPU_MAX_IMAGES) {
			fprintf(stderr, "mdsim: box edge %c = %g is too short for cutoff + skin = %g\n",
				"xyz"[d], st->box[d], rl);
			return MD_EXIT_INPUT;
		}
		c->nc[d] = (int)(ext / rl);
		if (c->nc[d] < 1)
			c->nc[d] = 1;
		if (c->nc[d] > 1024)
			c->nc[d] = 1024;
		c->ich[d] = c->nc[d] / ext;
	}
	c->ncell = c->nc[0] * c->nc[1] * c->nc[2];
	for (d = 0; d < 3; d++) {
		c->x[d] = xalloc(sizeof(double) * (n + 1));
		c->v[d] = xalloc(sizeof(double) * n);
		c->f[d] = xalloc(sizeof(double) * n);
		c->x0[d] = xalloc(sizeof(double) * n);
		c->img[d] = xalloc(sizeof(int) * n);
		if (!c->x[d] || !c->v[d] || !c->f[d] || !c->x0[d] || !c->img[d])
			goto nomem;
	}
	c->xcap = n + 1;
	c->id = xalloc(sizeof(int) * n);
	c->type = xalloc(sizeof(int) * n);
	c->tmpd = xalloc(sizeof(double) * n);
	c->tmpi = xalloc(sizeof(int) * n);
	c->cell_of = xalloc(sizeof(int) * n);
	c->order = xalloc(sizeof(int) * n);
	c->cell_start = xalloc(sizeof(int) * (size_t)(c->ncell + 1));
	c->cnt = xalloc(sizeof(int) * (size_t)(c->ncell + 1));
	c->nn = xalloc(sizeof(int) * n);
	/* first guess from the density; grown on overflow */
	vol_nb = 4.18879020478639 * rl * rl * rl;
	c->maxnb = (int)(1.3 * vol_nb * n / (c->box[0] * c->box[1] * c->box[2])) + 16;
	c->stride = (c->maxnb + 8 + 15) & ~15;
	c->nl = xalloc(sizeof(int) * (size_t)n * (size_t)c->stride);
	if (!c->id || !c->type || !c->tmpd || !c->tmpi || !c->cell_of ||
	    !c->order || !c->cell_start || !c->cnt || !c->nn || !c->nl)
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
		 "cpu, %d OpenMP thread%s, full neighbour list, ghost images, %d x %d x %d cells%s",
		 nth, nth == 1 ? "" : "s", c->nc[0], c->nc[1], c->nc[2],
		 CPU_AVX512 ? ", AVX-512 list build" : "");
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
		int j = c->nl[(size_t)i * c->stride + k], dup = 0;

		if (j >= c->n)		/* a ghost: its owner */
			j = c->gown[j - c->n];
		if (j == i)		/* own image (box shorter than rl) */
			continue;
		/* one entry per neighbour even when two images are listed */
		for (int q = 0; q < k && !dup; q++) {
			int p = c->nl[(size_t)i * c->stride + q];

			dup = (p >= c->n ? c->gown[p - c->n] : p) == j;
		}
		if (dup)
			continue;
		if (cnt < max)
			out[cnt] = c->id[j];
		cnt++;
	}
	return cnt;
}

const md_backend_ops md_cpu_backend = {
	"cpu", cpu_init, cpu_run, cpu_thermo, cpu_download, cpu_set_strategy,
	cpu_stats, cpu_destroy
};
