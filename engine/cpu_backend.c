/*
 * cpu_backend.c - the CPU backend: the double-precision reference that
 * every GPU path is compared against, and a fast engine in its own right.
 *
 * Layout: x, v, f, x0 as arrays of 4 doubles per particle (x: x, y, z and
 * the type; v, f: 0 there, so the kick and drift leave the type alone), so
 * that one aligned 32-byte load fetches a neighbour (AVX-512 gathers are slow
 * on the CPUs we target). Owned particles 0..n-1 are sorted by cell at
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
 * >= rl/2, a 5x5x5 stencil whose x-rows are contiguous ranges of a binned
 * copy of the positions; cell by cell, each block of 8 candidates tested
 * against every particle of the cell, with AVX-512 where available).
 * Rows are padded to a multiple of 8 with the sentinel. Overflow grows the
 * list and builds again; it never truncates.
 *
 * Forces, per owned particle, in three passes: (1) the separations of the
 * listed neighbours into a small per-thread buffer (AVX-512: eight 32-byte
 * loads and a transpose per 8 neighbours); (2) the shared pair function
 * md_lj_pair_d over the buffer, a loop the compiler vectorises; (3) the
 * sums. Threads: OpenMP over owned particles; a full list needs no atomics,
 * and each particle's force is summed in the same order whatever the
 * thread count.
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
#include "../kernels/md_rng.h"
#include "setup.h"

#define CPU_PAD 8		/* list rows are padded to this many entries */
#define CPU_MAX_IMAGES 16	/* ghost images per direction and sign       */
#define CPU_CELL_DIV 2		/* cells are >= rl / CPU_CELL_DIV wide        */

typedef struct cpu_ctx {
	md_config cfg;
	int n;
	double box[3], ibox[3];
	md_lj_d lj;
	int ntypes;		/* > 1: per-pair coefficients from ljt */
	md_lj_d ljt[MD_MAX_TYPES][MD_MAX_TYPES];
	/*
	 * Unequal masses (varmass): f holds F_i m / m_i (m = system.mass), so
	 * that one kick factor dt / 2m serves every particle; thermo, download
	 * and the thermostat noise convert with tmass / fscale.
	 */
	int varmass;
	double tmass[MD_MAX_TYPES], fscale[MD_MAX_TYPES];
	double mass;
	long step;
	/*
	 * 4 doubles per particle (x, y, z, 0). x: owned particles (sorted
	 * order), then ghosts, then the sentinel; v, f, x0: owned only.
	 */
	double *x, *v, *f, *x0;
	int *img, *id, *type;	/* img: 3 per particle */
	int xcap;		/* capacity of x in particles */
	/* ghosts: x[n + g] = x[gown[g]] + gsh[g] */
	int ng;
	int *gown;
	double *gsh;		/* 4 per ghost */
	int mimg[3];		/* largest image multiple per direction */
	/* binned copy of owned + ghost positions, sorted by cell */
	int bcap;
	double *bx[3];
	int *bidx, *bcell;
	/* scratch for sorting owned particles: x goes through tmpd, the
	 * others into their *2 twins, which then swap places with them */
	double *tmpd, *v2, *f2;
	int *tmpi, *cell_of, *order, *img2, *id2, *type2, *cell_of2;
	/* cells over [-rl, L + rl) per direction */
	int nc[3], ncell;
	double ich[3];		/* 1 / cell size */
	int *cell_start;	/* ncell + 1, into the binned copy */
	int *ocell_start;	/* ncell + 1, into the owned particles */
	int *cnt;		/* ncell + 1, scratch */
	/* neighbour list */
	int *nl, *nn, maxnb, stride;
	double rl, rlist2;
	/* per-thread pair buffers: 7 arrays of bufn doubles each */
	double *pbuf;
	int pbuf_threads, bufn;
	/* results of the last force call */
	double pe, virial;
	/* stats */
	long builds, since_build;
	long dangerous;		/* see md_stats */
	double t[MD_T_COUNT];
} cpu_ctx;

static void *xalloc(size_t n)
{
	void *p = NULL;

	if (n == 0)
		n = 1;
	if (posix_memalign(&p, 64, n))
		return NULL;
	memset(p, 0, n);
	return p;
}

static void cpu_destroy(md_backend *b)
{
	cpu_ctx *c = b->ctx;
	int d;

	if (!c)
		return;
	for (d = 0; d < 3; d++)
		free(c->bx[d]);
	free(c->x); free(c->v); free(c->f); free(c->x0); free(c->img);
	free(c->id); free(c->type); free(c->tmpd); free(c->tmpi);
	free(c->v2); free(c->f2); free(c->img2); free(c->id2); free(c->type2);
	free(c->cell_of2);
	free(c->cell_of); free(c->order); free(c->cell_start); free(c->cnt);
	free(c->ocell_start);
	free(c->nl); free(c->nn); free(c->gown); free(c->gsh); free(c->bidx);
	free(c->bcell); free(c->pbuf);
	free(c);
	b->ctx = NULL;
}

/* Wrap positions into [0, L), count images; fail on a blown-up particle. */
static int wrap_positions(cpu_ctx *c)
{
	int i, d, bad = -1;

	for (i = 0; i < c->n; i++) {
		for (d = 0; d < 3; d++) {
			double L = c->box[d], *x = &c->x[4 * i + d];
			double s = floor(*x * c->ibox[d]);

			if (!(fabs(s) <= 1.0)) {	/* NaN or far outside */
				if (bad < 0)
					bad = i;
				continue;
			}
			*x -= s * L;
			if (*x >= L)	/* round-off at the upper edge */
				*x -= L;
			c->img[3 * i + d] += (int)s;
		}
	}
	if (bad >= 0) {
		const double *x = &c->x[4 * bad];

		fprintf(stderr, "mdsim: step %ld: particle %d is %s (position %g %g %g, box %g %g %g); the simulation blew up (time step too large or overlapping particles?)\n",
			c->step, c->id[bad],
			isfinite(x[0] + x[1] + x[2]) ?
			"more than one box length outside the box" : "not finite",
			x[0], x[1], x[2], c->box[0], c->box[1], c->box[2]);
		return MD_EXIT_SIM;
	}
	return 0;
}

/* Cell of a position in [-rl, L + rl) (clamped against round-off). */
static inline int cell_index(const cpu_ctx *c, const double *p)
{
	int k[3], d;

	for (d = 0; d < 3; d++) {
		k[d] = (int)((p[d] + c->rl) * c->ich[d]);
		k[d] = k[d] < 0 ? 0 : (k[d] >= c->nc[d] ? c->nc[d] - 1 : k[d]);
	}
	return (k[2] * c->nc[1] + k[1]) * c->nc[0] + k[0];
}

/*
 * Counting sort of the owned particle arrays by cell index (cell indices
 * and the permutation in parallel, the histogram serial).
 */
static void sort_by_cell(cpu_ctx *c)
{
	const int n = c->n;
	int *cnt = c->cnt, *order = c->order, *cell_of = c->cell_of, i, k;
	double *td = c->tmpd;

#pragma omp parallel for schedule(static)
	for (int q = 0; q < n; q++)
		cell_of[q] = cell_index(c, &c->x[4 * q]);
	memset(cnt, 0, sizeof(int) * (size_t)(c->ncell + 1));
	for (i = 0; i < n; i++)
		cnt[cell_of[i] + 1]++;
	for (k = 0; k < c->ncell; k++)
		cnt[k + 1] += cnt[k];
	memcpy(c->ocell_start, cnt, sizeof(int) * (size_t)(c->ncell + 1));
	/* order[new] = old, by cell and within a cell by original index: the
	 * order (and with it every force sum) depends on the positions only,
	 * not on the history, which makes restarts exact */
	for (i = 0; i < n; i++)
		c->tmpi[c->id[i]] = i;
	for (k = 0; k < n; k++) {
		i = c->tmpi[k];
		order[cnt[cell_of[i]]++] = i;
	}

	/* gather into the twins (x: scratch), swap, copy x back */
#pragma omp parallel
	{
#pragma omp for schedule(static)
		for (int q = 0; q < n; q++) {
			int o = order[q];

			for (int d = 0; d < 4; d++) {
				td[4 * q + d] = c->x[4 * o + d];
				c->v2[4 * q + d] = c->v[4 * o + d];
				c->f2[4 * q + d] = c->f[4 * o + d];
			}
			for (int d = 0; d < 3; d++)
				c->img2[3 * q + d] = c->img[3 * o + d];
			c->id2[q] = c->id[o];
			c->type2[q] = c->type[o];
			c->cell_of2[q] = cell_of[o];
		}
#pragma omp for schedule(static)
		for (int q = 0; q < 4 * n; q++)
			c->x[q] = td[q];
	}
#define SWAP(a, b) do { void *t_ = (a); (a) = (b); (b) = t_; } while (0)
	SWAP(c->v, c->v2);
	SWAP(c->f, c->f2);
	SWAP(c->img, c->img2);
	SWAP(c->id, c->id2);
	SWAP(c->type, c->type2);
	SWAP(c->cell_of, c->cell_of2);
#undef SWAP
}

/* Grow the position array (owned part kept) and the ghost and bin arrays. */
static int grow_ghosts(cpu_ctx *c, int ng)
{
	int d, cap = c->n + ng + ng / 8 + 64;
	double *nx;

	/* the binned copy has >= 16 entries of slack: the list build reads
	 * whole 8-wide blocks past the end of a range */
	if (c->n + ng + 16 <= c->xcap && c->bx[0])
		return 0;
	nx = xalloc(sizeof(double) * 4 * (size_t)cap);
	if (!nx)
		return -1;
	memcpy(nx, c->x, sizeof(double) * 4 * (size_t)c->n);
	free(c->x);
	c->x = nx;
	for (d = 0; d < 3; d++) {
		free(c->bx[d]);
		c->bx[d] = xalloc(sizeof(double) * (size_t)cap);
		if (!c->bx[d])
			return -1;
	}
	free(c->gsh); free(c->gown); free(c->bidx); free(c->bcell);
	c->gsh = xalloc(sizeof(double) * 4 * (size_t)cap);
	c->gown = xalloc(sizeof(int) * (size_t)cap);
	c->bidx = xalloc(sizeof(int) * (size_t)cap);
	c->bcell = xalloc(sizeof(int) * (size_t)cap);
	if (!c->gsh || !c->gown || !c->bidx || !c->bcell)
		return -1;
	c->xcap = c->bcap = cap;
	return 0;
}

/*
 * Images of owned particle i within the ghost shell, per direction: the
 * shifts m L (m != 0 allowed) with x + m L in [-rl, L + rl). Returns the
 * number of ghosts of i; with at >= 0, stores them as ghosts at, at + 1, ...
 */
static int ghosts_of(cpu_ctx *c, int i, int at)
{
	double sh[3][2 * CPU_MAX_IMAGES + 1];
	int ns[3], d, a, b, e, cnt = 0;

	for (d = 0; d < 3; d++) {
		double x = c->x[4 * i + d], L = c->box[d];

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
		if (a == 0 && b == 0 && e == 0)
			continue;
		if (at >= 0) {
			int g = at + cnt;

			c->gown[g] = i;
			c->gsh[4 * g + 0] = sh[0][a];
			c->gsh[4 * g + 1] = sh[1][b];
			c->gsh[4 * g + 2] = sh[2][e];
			c->gsh[4 * g + 3] = 0.0;
		}
		cnt++;
	}
	return cnt;
}

/* Positions of the ghosts from their owners. */
static void update_ghosts(cpu_ctx *c)
{
	const int ng = c->ng;
	double *restrict xg = c->x + 4 * (size_t)c->n;
	const double *restrict x = c->x, *restrict sh = c->gsh;
	const int *restrict own = c->gown;

#pragma omp parallel for schedule(static)
	for (int g = 0; g < ng; g++)
		for (int d = 0; d < 4; d++)
			xg[4 * g + d] = x[4 * own[g] + d] + sh[4 * g + d];
}

/*
 * Make the ghosts and the binned copy of owned + ghost positions. Ghost
 * counts, ghosts and cell indices in parallel; the bin histogram and the
 * scatter serial. Ghosts come in owner order.
 */
static int make_ghosts(cpu_ctx *c)
{
	const int n = c->n;
	int *goff = c->tmpi;	/* n + 1 offsets (sort_by_cell is done) */
	int i, d, k, total = 0, nb;

#pragma omp parallel for schedule(static)
	for (int q = 0; q < n; q++)
		goff[q] = ghosts_of(c, q, -1);
	for (i = 0; i < n; i++) {	/* exclusive prefix sum */
		int g = goff[i];

		goff[i] = total;
		total += g;
	}
	if (grow_ghosts(c, total))
		return -1;
	c->ng = total;
#pragma omp parallel for schedule(static)
	for (int q = 0; q < n; q++)
		ghosts_of(c, q, goff[q]);
	update_ghosts(c);
	/* sentinel: far from everything, never within rc of anyone */
	for (d = 0; d < 3; d++)
		c->x[4 * (n + c->ng) + d] = -1000.0 - 2.0 * c->box[d];
	c->x[4 * (n + c->ng) + 3] = 0.0;	/* a valid type for mixtures */

	/* counting sort of owned + ghosts into the binned copy */
	nb = n + c->ng;
#pragma omp parallel for schedule(static)
	for (int q = n; q < nb; q++)
		c->bcell[q] = cell_index(c, &c->x[4 * q]);
	memcpy(c->bcell, c->cell_of, sizeof(int) * (size_t)n);
	memset(c->cnt, 0, sizeof(int) * (size_t)(c->ncell + 1));
	for (i = 0; i < nb; i++)
		c->cnt[c->bcell[i] + 1]++;
	for (k = 0; k < c->ncell; k++)
		c->cnt[k + 1] += c->cnt[k];
	memcpy(c->cell_start, c->cnt, sizeof(int) * (size_t)(c->ncell + 1));
	for (i = 0; i < nb; i++) {
		int p = c->cnt[c->bcell[i]]++;

		c->bidx[p] = i;
		c->bx[0][p] = c->x[4 * i + 0];
		c->bx[1][p] = c->x[4 * i + 1];
		c->bx[2][p] = c->x[4 * i + 2];
	}
	return 0;
}

#if CPU_AVX512
/*
 * Left-packing permutations for 8 lanes, one per mask (vpermd with a row
 * of this table does what vpcompressd does, several times faster on AMD
 * Zen 4). Filled by the first cpu_init (backends are created from one
 * thread), read-only afterwards.
 */
static int32_t pack_lut[256][8] __attribute__((aligned(32)));

static void pack_lut_init(void)
{
	static int done;

	if (done)	/* later backends only read it */
		return;
	for (int m = 0; m < 256; m++) {
		int k = 0;

		for (int b = 0; b < 8; b++)
			if (m >> b & 1)
				pack_lut[m][k++] = b;
		while (k < 8)
			pack_lut[m][k++] = 0;
	}
	done = 1;
}
#endif

/*
 * The lists of the owned particles ib..ib+ni-1 (ni <= 4, all in one cell):
 * the binned particles in the ranges [rs[r], re[r]) (the rows of the
 * cell's stencil) within rl, other than the particle itself. Each 8-wide
 * block of candidates is loaded once and tested against every particle of
 * the group. Entries are stored while they fit in the row (stride); the
 * count goes on, so that overflow can be detected. Counts go to cnt[].
 * Inlined with a constant ni (scan_group), so that the counts stay in
 * registers: through memory they chain every block to the previous one.
 */
static inline __attribute__((always_inline))
void scan_rows(const cpu_ctx *c, int ib, const int ni, const int *rs,
	       const int *re, int nrow, int *cnt_out)
{
	int cnt[4];

	const double *restrict bx = c->bx[0], *restrict by = c->bx[1];
	const double *restrict bz = c->bx[2];
	const int *restrict bidx = c->bidx;
	const double *restrict xi = c->x + 4 * (size_t)ib;
	int *restrict nl = c->nl + (size_t)ib * c->stride;
	const int stride = c->stride;

	for (int t = 0; t < ni; t++)
		cnt[t] = 0;
#if CPU_AVX512
	const __m512d R = _mm512_set1_pd(c->rlist2);
	const int lim = stride - 8;

	for (int r = 0; r < nrow; r++) {
		const int e = re[r];

		for (int j = rs[r]; j < e; j += 8) {
			/* plain loads (the arrays have slack): masked loads would
			 * wait for the addresses of the earlier list stores */
			const __mmask8 m = (__mmask8)_bzhi_u32(0xff, (unsigned)(e - j));
			const __m512d px = _mm512_loadu_pd(bx + j);
			const __m512d py = _mm512_loadu_pd(by + j);
			const __m512d pz = _mm512_loadu_pd(bz + j);
			const __m256i idx = _mm256_loadu_si256((const __m256i *)(bidx + j));

			for (int t = 0; t < ni; t++) {
				__m512d dx = _mm512_sub_pd(_mm512_set1_pd(xi[4 * t]), px);
				__m512d dy = _mm512_sub_pd(_mm512_set1_pd(xi[4 * t + 1]), py);
				__m512d dz = _mm512_sub_pd(_mm512_set1_pd(xi[4 * t + 2]), pz);
				__m512d r2 = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(dx, dx),
									 _mm512_mul_pd(dy, dy)),
							   _mm512_mul_pd(dz, dz));
				__mmask8 k = _mm512_mask_cmp_pd_mask(m, r2, R, _CMP_LT_OQ);

				k &= _mm256_cmpneq_epi32_mask(idx, _mm256_set1_epi32(ib + t));
				if (cnt[t] <= lim)
					_mm256_storeu_si256((__m256i *)(nl + (size_t)t * stride + cnt[t]),
						_mm256_permutevar8x32_epi32(idx,
							_mm256_load_si256((const __m256i *)pack_lut[k])));
				cnt[t] += __builtin_popcount(k);
			}
		}
	}
#else
	for (int r = 0; r < nrow; r++)
		for (int j = rs[r]; j < re[r]; j++)
			for (int t = 0; t < ni; t++) {
				double dx = xi[4 * t] - bx[j], dy = xi[4 * t + 1] - by[j];
				double dz = xi[4 * t + 2] - bz[j];

				if (dx * dx + dy * dy + dz * dz < c->rlist2 &&
				    bidx[j] != ib + t) {
					if (cnt[t] < stride)
						nl[(size_t)t * stride + cnt[t]] = bidx[j];
					cnt[t]++;
				}
			}
#endif
	for (int t = 0; t < ni; t++)
		cnt_out[t] = cnt[t];
}

static void scan_group(const cpu_ctx *c, int ib, int ni, const int *rs,
		       const int *re, int nrow, int *cnt)
{
	switch (ni) {
	case 1: scan_rows(c, ib, 1, rs, re, nrow, cnt); break;
	case 2: scan_rows(c, ib, 2, rs, re, nrow, cnt); break;
	case 3: scan_rows(c, ib, 3, rs, re, nrow, cnt); break;
	default: scan_rows(c, ib, 4, rs, re, nrow, cnt); break;
	}
}

/*
 * Build the full list of every owned particle, cell by cell. Returns the
 * largest count seen (which may exceed maxnb: then the caller grows the
 * list and builds again).
 */
static int build_list(cpu_ctx *c)
{
	int maxseen = 0;
	const int sentinel = c->n + c->ng, S = CPU_CELL_DIV;
	const int nx = c->nc[0], ny = c->nc[1], nz = c->nc[2];

#pragma omp parallel for schedule(dynamic, 32) reduction(max:maxseen)
	for (int cell = 0; cell < c->ncell; cell++) {
		int i0 = c->ocell_start[cell], i1 = c->ocell_start[cell + 1];
		int kx = cell % nx, ky = (cell / nx) % ny, kz = cell / (nx * ny);
		int rs[(2 * CPU_CELL_DIV + 1) * (2 * CPU_CELL_DIV + 1)];
		int re[(2 * CPU_CELL_DIV + 1) * (2 * CPU_CELL_DIV + 1)];
		int nrow = 0, cnt[4];

		if (i0 == i1)
			continue;
		for (int z = kz - S; z <= kz + S; z++) {
			if (z < 0 || z >= nz)
				continue;
			for (int y = ky - S; y <= ky + S; y++) {
				int row = (z * ny + y) * nx;

				if (y < 0 || y >= ny)
					continue;
				rs[nrow] = c->cell_start[row + (kx - S > 0 ? kx - S : 0)];
				re[nrow] = c->cell_start[row + (kx + S < nx - 1 ? kx + S : nx - 1) + 1];
				nrow++;
			}
		}
		for (int ib = i0; ib < i1; ib += 4) {
			int ni = i1 - ib < 4 ? i1 - ib : 4;

			scan_group(c, ib, ni, rs, re, nrow, cnt);
			for (int t = 0; t < ni; t++) {
				int *list = c->nl + (size_t)(ib + t) * c->stride;

				c->nn[ib + t] = cnt[t];
				if (cnt[t] > maxseen)
					maxseen = cnt[t];
				if (cnt[t] <= c->maxnb)	/* pad to a multiple of CPU_PAD */
					for (int k = cnt[t]; k % CPU_PAD; k++)
						list[k] = sentinel;
			}
		}
	}
	return maxseen;
}

static int rebuild(cpu_ctx *c)
{
	double t0 = md_now();
	int rc, maxseen;

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
	memcpy(c->x0, c->x, sizeof(double) * 4 * (size_t)c->n);
	c->builds++;
	c->since_build = 0;
	c->t[MD_T_NEIGH] += md_now() - t0;
	return 0;
}

/*
 * Pass 1 of the forces of owned particle i: the separations r_i - r_j and
 * r2 of its listed neighbours (the padded row: the sentinel's r2 is far
 * beyond rc2, so its pairs add exactly nothing) into dx, dy, dz, r2, in no
 * particular order. Returns the padded count, a multiple of 8. Pairs beyond
 * rc stay in: the pair function zeroes them, which costs less than
 * compressing them out here.
 */
static inline int pair_pack(const cpu_ctx *c, int i, double *restrict bdx,
			    double *restrict bdy, double *restrict bdz,
			    double *restrict br2, double *restrict bt)
{
	const int *restrict list = c->nl + (size_t)i * c->stride;
	const int nn = (c->nn[i] + CPU_PAD - 1) & ~(CPU_PAD - 1);
	const double *restrict x = c->x;
#if CPU_AVX512
	const __m512d XI = _mm512_set1_pd(x[4 * i]);
	const __m512d YI = _mm512_set1_pd(x[4 * i + 1]);
	const __m512d ZI = _mm512_set1_pd(x[4 * i + 2]);

	for (int k = 0; k < nn; k += 8) {
		const int *l = list + k;
		/* rows (x y z 0) of neighbours 0..7, two per register */
		__m512d t0 = _mm512_insertf64x4(_mm512_castpd256_pd512(
			_mm256_load_pd(x + 4 * (size_t)l[0])),
			_mm256_load_pd(x + 4 * (size_t)l[4]), 1);
		__m512d t1 = _mm512_insertf64x4(_mm512_castpd256_pd512(
			_mm256_load_pd(x + 4 * (size_t)l[1])),
			_mm256_load_pd(x + 4 * (size_t)l[5]), 1);
		__m512d t2 = _mm512_insertf64x4(_mm512_castpd256_pd512(
			_mm256_load_pd(x + 4 * (size_t)l[2])),
			_mm256_load_pd(x + 4 * (size_t)l[6]), 1);
		__m512d t3 = _mm512_insertf64x4(_mm512_castpd256_pd512(
			_mm256_load_pd(x + 4 * (size_t)l[3])),
			_mm256_load_pd(x + 4 * (size_t)l[7]), 1);
		/* transpose: lanes in the order 0 1 4 5 2 3 6 7 */
		__m512d u0 = _mm512_unpacklo_pd(t0, t1);  /* x0 x1 z0 z1 x4 x5 z4 z5 */
		__m512d u1 = _mm512_unpackhi_pd(t0, t1);  /* y0 y1 .. .. y4 y5 .. .. */
		__m512d u2 = _mm512_unpacklo_pd(t2, t3);
		__m512d u3 = _mm512_unpackhi_pd(t2, t3);
		__m512d dx = _mm512_sub_pd(XI, _mm512_shuffle_f64x2(u0, u2, 0x88));
		__m512d dy = _mm512_sub_pd(YI, _mm512_shuffle_f64x2(u1, u3, 0x88));
		__m512d dz = _mm512_sub_pd(ZI, _mm512_shuffle_f64x2(u0, u2, 0xdd));
		__m512d r2 = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(dx, dx),
							 _mm512_mul_pd(dy, dy)),
					   _mm512_mul_pd(dz, dz));

		_mm512_store_pd(bdx + k, dx);
		_mm512_store_pd(bdy + k, dy);
		_mm512_store_pd(bdz + k, dz);
		_mm512_store_pd(br2 + k, r2);
		if (bt)		/* the fourth row entry: the type (mixtures) */
			_mm512_store_pd(bt + k, _mm512_shuffle_f64x2(u1, u3, 0xdd));
	}
#else
	const double xi = x[4 * i], yi = x[4 * i + 1], zi = x[4 * i + 2];

	for (int k = 0; k < nn; k++) {
		const double *xj = x + 4 * (size_t)list[k];
		double dx = xi - xj[0], dy = yi - xj[1], dz = zi - xj[2];

		bdx[k] = dx;
		bdy[k] = dy;
		bdz[k] = dz;
		br2[k] = dx * dx + dy * dy + dz * dz;
		if (bt)
			bt[k] = xj[3];
	}
#endif
	return nn;
}

#if CPU_AVX512
/* (sum of a, sum of b, sum of c, 0) */
static inline __m256d hsum3(__m512d a, __m512d b, __m512d c)
{
	__m256d a4 = _mm256_add_pd(_mm512_castpd512_pd256(a), _mm512_extractf64x4_pd(a, 1));
	__m256d b4 = _mm256_add_pd(_mm512_castpd512_pd256(b), _mm512_extractf64x4_pd(b, 1));
	__m256d c4 = _mm256_add_pd(_mm512_castpd512_pd256(c), _mm512_extractf64x4_pd(c, 1));
	__m256d ab = _mm256_hadd_pd(a4, b4);	/* a01 b01 a23 b23 */
	__m256d c0 = _mm256_hadd_pd(c4, _mm256_setzero_pd());	/* c01 0 c23 0 */

	return _mm256_add_pd(_mm256_permute2f128_pd(ab, c0, 0x20),
			     _mm256_permute2f128_pd(ab, c0, 0x31));
}
#endif

/*
 * Forces of the owned particles of this thread's share (an orphaned omp
 * for), energy and virial sums added to *pe, *w. Per particle: pass 1
 * (pair_pack); pass 2, the shared pair function over the buffer, a plain
 * loop the compiler vectorises; pass 3, the sums (vector accumulators, one
 * horizontal sum per particle: the compiler's own reduction epilogue went
 * through the stack). Inlined with a constant `shifted`, so that the
 * force-shift branch of md_lj_pair_d disappears when it is not needed.
 */
static inline __attribute__((always_inline))
void pair_rows(cpu_ctx *c, int shifted, double *buf, double *pe, double *w)
{
	md_lj_d lj = c->lj;
	const int n = c->n, bn = c->bufn;
	double *restrict bdx = buf, *restrict bdy = buf + bn;
	double *restrict bdz = buf + 2 * bn, *restrict br2 = buf + 3 * bn;
	double *restrict bfr = buf + 4 * (size_t)bn, *restrict be = buf + 5 * (size_t)bn;
	double *restrict bt = c->ntypes > 1 ? buf + 6 * (size_t)bn : NULL;
	double *restrict f = c->f;
#if CPU_AVX512
	__m512d ae = _mm512_setzero_pd(), aw = _mm512_setzero_pd();
#else
	double spe = 0.0, sw = 0.0;
#endif

	if (!shifted)
		lj.fc = 0.0;
#pragma omp for schedule(static) nowait
	for (int i = 0; i < n; i++) {
		const int m = pair_pack(c, i, bdx, bdy, bdz, br2, bt);

		if (bt) {	/* mixture: the pair's own coefficients */
			const md_lj_d *row = c->ljt[(int)c->x[4 * (size_t)i + 3]];

			for (int k = 0; k < m; k++) {
				double e;

				bfr[k] = md_lj_pair_d(br2[k], &row[(int)bt[k]], &e);
				be[k] = e;
			}
		} else {
#pragma omp simd
			for (int k = 0; k < m; k++) {
				double e;

				bfr[k] = md_lj_pair_d(br2[k], &lj, &e);
				be[k] = e;
			}
		}
#if CPU_AVX512
		{
			__m512d ax = _mm512_setzero_pd(), ay = ax, az = ax;

			for (int k = 0; k < m; k += 8) {
				const __m512d fr = _mm512_load_pd(bfr + k);

				ax = _mm512_add_pd(ax, _mm512_mul_pd(_mm512_load_pd(bdx + k), fr));
				ay = _mm512_add_pd(ay, _mm512_mul_pd(_mm512_load_pd(bdy + k), fr));
				az = _mm512_add_pd(az, _mm512_mul_pd(_mm512_load_pd(bdz + k), fr));
				ae = _mm512_add_pd(ae, _mm512_load_pd(be + k));
				aw = _mm512_add_pd(aw, _mm512_mul_pd(_mm512_load_pd(br2 + k), fr));
			}
			if (c->varmass)
				_mm256_store_pd(f + 4 * (size_t)i, _mm256_mul_pd(hsum3(ax, ay, az),
						_mm256_set1_pd(c->fscale[c->type[i]])));
			else
				_mm256_store_pd(f + 4 * (size_t)i, hsum3(ax, ay, az));
		}
#else
		{
			double fx = 0.0, fy = 0.0, fz = 0.0;

			for (int k = 0; k < m; k++) {
				fx += bdx[k] * bfr[k];
				fy += bdy[k] * bfr[k];
				fz += bdz[k] * bfr[k];
				spe += be[k];
				sw += br2[k] * bfr[k];
			}
			if (c->varmass) {
				fx *= c->fscale[c->type[i]];
				fy *= c->fscale[c->type[i]];
				fz *= c->fscale[c->type[i]];
			}
			f[4 * i + 0] = fx;
			f[4 * i + 1] = fy;
			f[4 * i + 2] = fz;
		}
#endif
	}
#if CPU_AVX512
	*pe += _mm512_reduce_add_pd(ae);
	*w += _mm512_reduce_add_pd(aw);
#else
	*pe += spe;
	*w += sw;
#endif
}

/* Forces, energy and virial from the neighbour list. */
static int compute_forces(cpu_ctx *c)
{
	double t0 = md_now(), pe = 0.0, w = 0.0;
	const int shifted = c->lj.fc != 0.0;
	int nth = 1, bufn = c->stride;

#ifdef _OPENMP
	nth = omp_get_max_threads();
#endif
	if (nth > c->pbuf_threads || bufn > c->bufn) {
		free(c->pbuf);
		c->pbuf = xalloc(sizeof(double) * 7 * (size_t)bufn * (size_t)nth);
		if (!c->pbuf) {
			fprintf(stderr, "mdsim: out of host memory for pair buffers\n");
			return MD_EXIT_SIM;
		}
		c->pbuf_threads = nth;
		c->bufn = bufn;
	}
#pragma omp parallel reduction(+:pe,w)
	{
		int t = 0;
		double *buf;

#ifdef _OPENMP
		t = omp_get_thread_num();
#endif
		buf = c->pbuf + 7 * (size_t)c->bufn * (size_t)t;
		if (shifted)
			pair_rows(c, 1, buf, &pe, &w);
		else
			pair_rows(c, 0, buf, &pe, &w);
	}
	c->pe = 0.5 * pe;	/* each pair counted twice */
	c->virial = 0.5 * w;
	c->t[MD_T_PAIR] += md_now() - t0;
	return 0;
}

/*
 * Kick(s) and drift of owned particle i; returns its squared displacement
 * since the last build. d = 3 is the zero fourth component.
 */
static inline double kick_one(double *restrict x, double *restrict v,
			      const double *restrict f,
			      const double *restrict x0, int i, int kick2,
			      double hdtm, double dt)
{
	double d2 = 0.0;

	for (int d = 0; d < 4; d++) {
		double vv = v[4 * i + d], xx;

		if (kick2)
			vv += hdtm * f[4 * i + d];
		vv += hdtm * f[4 * i + d];
		v[4 * i + d] = vv;
		xx = x[4 * i + d] + dt * vv;
		x[4 * i + d] = xx;
		xx -= x0[4 * i + d];
		d2 += xx * xx;
	}
	return d2;
}

/*
 * One pass over the owned particles: with `kick2`, the second half kick of
 * the previous step (v += dt/2m f); then the first half kick of this step
 * and the drift; the largest squared displacement since the last build
 * decides the rebuild (as before: skin/2, or every `every` steps; and
 * always when a displacement is not finite, so that the rebuild reports
 * the blown-up particle). Then, unless a rebuild comes, the ghost
 * positions, in the same parallel region. Each element sees the same
 * operations in the same order as with separate loops.
 */
static int kick_drift(cpu_ctx *c, int kick2, int *rebuild_now)
{
	const double dt = c->cfg.dt, hdtm = 0.5 * dt / c->mass;
	const double lim = 0.25 * c->cfg.skin * c->cfg.skin;
	const int n = c->n, ng = c->ng;
	double *restrict x = c->x, *restrict v = c->v;
	const double *restrict f = c->f, *restrict x0 = c->x0;
	const double *restrict sh = c->gsh;
	const int *restrict own = c->gown;
	double mx = 0.0, t0 = md_now(), t1 = t0;
	int every = c->cfg.every > 0 && c->since_build + 1 >= c->cfg.every;
	int check = c->cfg.check, now = every, bad = 0;

#pragma omp parallel
	{
#if CPU_AVX512
		/*
		 * Two particles per register. The displacement sum per
		 * particle, (d0^2 + d1^2) + (d2^2 + 0), rounds as kick_one's
		 * does (d3 is exactly 0).
		 */
		__m512d vmx = _mm512_setzero_pd();
		const __m512d H = _mm512_set1_pd(hdtm), DT = _mm512_set1_pd(dt);
		__mmask8 nan = 0;

#pragma omp for schedule(static) nowait
		for (int p = 0; p < n / 2; p++) {
			__m512d ff = _mm512_load_pd(f + 8 * (size_t)p);
			__m512d vv = _mm512_load_pd(v + 8 * (size_t)p), xx, dd;

			if (kick2)
				vv = _mm512_add_pd(vv, _mm512_mul_pd(H, ff));
			vv = _mm512_add_pd(vv, _mm512_mul_pd(H, ff));
			_mm512_store_pd(v + 8 * (size_t)p, vv);
			xx = _mm512_add_pd(_mm512_load_pd(x + 8 * (size_t)p),
					   _mm512_mul_pd(DT, vv));
			_mm512_store_pd(x + 8 * (size_t)p, xx);
			dd = _mm512_sub_pd(xx, _mm512_load_pd(x0 + 8 * (size_t)p));
			dd = _mm512_mul_pd(dd, dd);
			dd = _mm512_add_pd(dd, _mm512_permute_pd(dd, 0x55));
			dd = _mm512_add_pd(dd, _mm512_permutex_pd(dd, 0x4e));
			vmx = _mm512_max_pd(vmx, dd);
			nan |= _mm512_cmp_pd_mask(dd, dd, _CMP_UNORD_Q);
		}
#pragma omp critical
		{
			double m8 = _mm512_reduce_max_pd(vmx);

			mx = m8 > mx ? m8 : mx;
			bad |= nan != 0;
		}
#pragma omp single
		if (n & 1) {
			double d2 = kick_one(x, v, f, x0, n - 1, kick2, hdtm, dt);

			mx = d2 > mx ? d2 : mx;
			bad |= d2 != d2;
		}
		/* implied barrier: mx and bad are complete */
#else
#pragma omp for schedule(static) reduction(max:mx) reduction(|:bad)
		for (int i = 0; i < n; i++) {
			double d2 = kick_one(x, v, f, x0, i, kick2, hdtm, dt);

			mx = d2 > mx ? d2 : mx;
			bad |= d2 != d2;
		}
		/* implied barrier: mx and bad are complete */
#endif
#pragma omp single
		{
			t1 = md_now();
			if (bad || (check && !(mx <= lim)))
				now = 1;
			else if (every && !(mx <= lim))
				c->dangerous++;	/* check = false: too late */
		}
		if (!now) {
#pragma omp for schedule(static) nowait
			for (int g = 0; g < ng; g++)
				for (int d = 0; d < 4; d++)
					x[4 * (n + g) + d] = x[4 * own[g] + d] + sh[4 * g + d];
		}
	}
	c->step++;
	c->since_build++;
	c->t[MD_T_INTEGRATE] += t1 - t0;
	c->t[MD_T_NEIGH] += md_now() - t1;
	*rebuild_now = now;
	return 0;
}

static int cpu_run(md_backend *b, long nsteps)
{
	cpu_ctx *c = b->ctx;
	const double hdtm = 0.5 * c->cfg.dt / c->mass;
	const int n4 = 4 * c->n;
	long s;
	int rc, now;

	for (s = 0; s < nsteps; s++) {
		kick_drift(c, s > 0, &now);
		if (now) {
			rc = rebuild(c);
			if (rc)
				return rc;
		}
		rc = compute_forces(c);
		if (rc)
			return rc;
	}
	if (nsteps > 0) {	/* the second half kick of the last step */
		double t0 = md_now();
		double *restrict v = c->v;
		const double *restrict f = c->f;

#pragma omp parallel for simd schedule(static)
		for (int k = 0; k < n4; k++)
			v[k] += hdtm * f[k];
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
#if CPU_AVX512
	pack_lut_init();
#endif
	c->cfg = *cfg;
	c->n = n;
	c->mass = cfg->mass;
	c->step = st->step;
#ifdef _OPENMP
	if (cfg->threads > 0)
		omp_set_num_threads(cfg->threads);
#endif
	c->ntypes = cfg->ntypes > 1 ? cfg->ntypes : 1;
	c->varmass = 0;
	for (int a = 0; a < c->ntypes; a++) {
		c->tmass[a] = md_type_mass(cfg, a);
		c->fscale[a] = cfg->mass / c->tmass[a];
		c->varmass |= c->tmass[a] != cfg->mass;
	}
	for (int a = 0; a < c->ntypes; a++)
		for (int b2 = 0; b2 < c->ntypes; b2++) {
			double e, s, r;

			md_pair_coeff(cfg, a, b2, &e, &s, &r);
			md_lj_coeff_init_d(&c->ljt[a][b2], e, s, r, cfg->shift);
		}
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
		c->nc[d] = (int)(ext * CPU_CELL_DIV / rl);
		if (c->nc[d] < 1)
			c->nc[d] = 1;
		if (c->nc[d] > 1024)
			c->nc[d] = 1024;
		c->ich[d] = c->nc[d] / ext;
	}
	c->ncell = c->nc[0] * c->nc[1] * c->nc[2];
	c->x = xalloc(sizeof(double) * 4 * (size_t)(n + 1));
	c->v = xalloc(sizeof(double) * 4 * (size_t)n);
	c->f = xalloc(sizeof(double) * 4 * (size_t)n);
	c->x0 = xalloc(sizeof(double) * 4 * (size_t)n);
	c->img = xalloc(sizeof(int) * 3 * (size_t)n);
	c->xcap = n + 1;
	c->id = xalloc(sizeof(int) * n);
	c->type = xalloc(sizeof(int) * n);
	c->tmpd = xalloc(sizeof(double) * 4 * (size_t)n);
	c->tmpi = xalloc(sizeof(int) * (size_t)(n + 1));
	c->v2 = xalloc(sizeof(double) * 4 * (size_t)n);
	c->f2 = xalloc(sizeof(double) * 4 * (size_t)n);
	c->img2 = xalloc(sizeof(int) * 3 * (size_t)n);
	c->id2 = xalloc(sizeof(int) * n);
	c->type2 = xalloc(sizeof(int) * n);
	c->cell_of2 = xalloc(sizeof(int) * n);
	c->cell_of = xalloc(sizeof(int) * n);
	c->order = xalloc(sizeof(int) * n);
	c->cell_start = xalloc(sizeof(int) * (size_t)(c->ncell + 1));
	c->cnt = xalloc(sizeof(int) * (size_t)(c->ncell + 1));
	c->ocell_start = xalloc(sizeof(int) * (size_t)(c->ncell + 1));
	c->nn = xalloc(sizeof(int) * n);
	/* first guess from the density; grown on overflow */
	vol_nb = 4.18879020478639 * rl * rl * rl;
	c->maxnb = (int)(1.3 * vol_nb * n / (c->box[0] * c->box[1] * c->box[2])) + 16;
	c->stride = (c->maxnb + 8 + 15) & ~15;
	c->nl = xalloc(sizeof(int) * (size_t)n * (size_t)c->stride);
	if (!c->x || !c->v || !c->f || !c->x0 || !c->img || !c->id ||
	    !c->type || !c->tmpd || !c->tmpi || !c->cell_of || !c->order ||
	    !c->v2 || !c->f2 || !c->img2 || !c->id2 || !c->type2 || !c->cell_of2 ||
	    !c->cell_start || !c->cnt || !c->ocell_start || !c->nn || !c->nl)
		goto nomem;
	for (i = 0; i < n; i++) {
		for (d = 0; d < 3; d++) {
			c->x[4 * i + d] = st->x[3 * i + d];
			c->v[4 * i + d] = st->v[3 * i + d];
			c->img[3 * i + d] = st->image[3 * i + d];
		}
		c->x[4 * i + 3] = (double)st->type[i];	/* read by pair_pack */
		c->id[i] = i;
		c->type[i] = st->type[i];
	}
	{
		int rc = rebuild(c);

		if (!rc)
			rc = compute_forces(c);
		if (rc)
			return rc;
	}
	/* statistics cover the run, not the set-up */
	memset(c->t, 0, sizeof(c->t));
	c->builds = 0;
	c->dangerous = 0;
	return 0;
nomem:
	fprintf(stderr, "mdsim: out of host memory for %d particles\n", n);
	return MD_EXIT_SIM;
}

static int cpu_thermo(md_backend *b, md_thermo *th)
{
	cpu_ctx *c = b->ctx;
	const double *v = c->v;
	double ke = 0.0;

#pragma omp parallel for schedule(static) reduction(+:ke)
	for (int i = 0; i < c->n; i++)
		ke += (v[4 * i] * v[4 * i] + v[4 * i + 1] * v[4 * i + 1] +
		       v[4 * i + 2] * v[4 * i + 2]) *
		      (c->varmass ? c->tmass[c->type[i]] / c->mass : 1.0);
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
			double L = c->box[d], x = c->x[4 * i + d];
			int im = c->img[3 * i + d];
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
				st->v[3 * o + d] = c->v[4 * i + d];
			if (fields & MD_F_F)
				st->f[3 * o + d] = c->varmass ? c->f[4 * i + d] /
						   c->fscale[c->type[i]] : c->f[4 * i + d];
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

/* Largest squared displacement since the last build. */
static double max_disp2(const cpu_ctx *c)
{
	double mx = 0.0;

#pragma omp parallel for schedule(static) reduction(max:mx)
	for (int i = 0; i < c->n; i++) {
		double d2 = 0.0;

		for (int d = 0; d < 3; d++) {
			double u = c->x[4 * i + d] - c->x0[4 * i + d];

			d2 += u * u;
		}
		mx = d2 > mx ? d2 : mx;
	}
	return mx;
}

/*
 * The build of a reset (each trajectory frame: a restart point) is
 * dangerous like a scheduled one when the lists were not checked.
 */
static int cpu_reset(md_backend *b)
{
	cpu_ctx *c = b->ctx;
	int rc;

	if (!c->cfg.check && max_disp2(c) > 0.25 * c->cfg.skin * c->cfg.skin)
		c->dangerous++;
	rc = rebuild(c);

	return rc ? rc : compute_forces(c);
}

static int cpu_vupdate(md_backend *b, const md_vupdate *u)
{
	cpu_ctx *c = b->ctx;

#pragma omp parallel for schedule(static)
	for (int i = 0; i < c->n; i++) {
		double g[4] = { 0.0, 0.0, 0.0, 0.0 };

		if (u->noise != 0.0)
			md_gauss4(u->seed, (uint32_t)c->id[i], u->stream,
				  (uint32_t)u->step, g);
		/* the noise is given for mass m; sqrt(m / m_i) for this type */
		double nz = c->varmass ? u->noise * sqrt(c->fscale[c->type[i]]) : u->noise;

		for (int d = 0; d < 3; d++)
			c->v[4 * i + d] = u->scale * c->v[4 * i + d] + nz * g[d];
	}
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
	s->dangerous = c->dangerous;
	s->avg_neighbors = c->n ? (double)tot / c->n : 0.0;
	memcpy(s->t, c->t, sizeof(s->t));
#ifdef _OPENMP
	nth = omp_get_max_threads();
#endif
	snprintf(s->desc, sizeof(s->desc),
		 "cpu, %d OpenMP thread%s, full neighbour list, ghost images, %d x %d x %d cells%s",
		 nth, nth == 1 ? "" : "s", c->nc[0], c->nc[1], c->nc[2],
		 CPU_AVX512 ? ", AVX-512" : "");
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

/* The CPU's download is complete when it returns; nothing to pin. */
static int cpu_download_start(md_backend *b, md_state *st, unsigned fields,
			      int tag)
{
	(void)tag;
	return cpu_download(b, st, fields);
}

static int cpu_download_wait(md_backend *b, int tag)
{
	(void)b;
	(void)tag;
	return 0;
}

static void cpu_pin(md_backend *b, void *p, size_t bytes)
{
	(void)b;
	(void)p;
	(void)bytes;
}

static void cpu_unpin(md_backend *b, void *p)
{
	(void)b;
	(void)p;
}

const md_backend_ops md_cpu_backend = {
	"cpu", cpu_init, cpu_run, cpu_thermo, cpu_download, cpu_set_strategy,
	cpu_vupdate, cpu_reset, cpu_stats, cpu_destroy, cpu_download_start,
	cpu_download_wait, cpu_pin, cpu_unpin,
	NULL, NULL	/* langevin, nose_hoover: thermostat.c's loop of run(1)
			 * costs nothing here */
};
