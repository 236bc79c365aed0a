/*
 * testutil.h - shared helpers of the Check test programs: a main() that
 * runs one suite, a default configuration, a brute-force reference, and
 * GPU detection for suites that must skip without a GPU.
 */
#ifndef MD_TESTUTIL_H
#define MD_TESTUTIL_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../engine/md.h"
#include "../engine/config.h"
#include "../engine/setup.h"
#include "../kernels/gpu.h"

/* MD_TEST_MAIN(fn) - main() running the suite fn() returns; exit 1 on failure. */
#define MD_TEST_MAIN(suite_fn)						\
	int main(void)							\
	{								\
		SRunner *sr = srunner_create(suite_fn());		\
		int nf;							\
		srunner_run_all(sr, CK_NORMAL);				\
		nf = srunner_ntests_failed(sr);				\
		srunner_free(sr);					\
		return nf ? 1 : 0;					\
	}

/* Squared minimum-image distance of particles i and j of st (double). */
static inline double test_min_image_r2(const md_state *st, int i, int j)
{
	double r2 = 0.0;

	for (int d = 0; d < 3; d++) {
		double r = st->x[3 * i + d] - st->x[3 * j + d];

		r -= st->box[d] * nearbyint(r / st->box[d]);
		r2 += r * r;
	}
	return r2;
}

/* A valid configuration: fcc at density rho with c^3 cells, T, rc, shift. */
static inline void test_config(md_config *cfg, double rho, int c, double T,
			       double rc, int shift)
{
	cfg_defaults(cfg);
	cfg->density = rho;
	cfg->cells[0] = cfg->cells[1] = cfg->cells[2] = c;
	cfg->temperature = T;
	cfg->cutoff = rc;
	cfg->shift = shift;
	cfg->steps = 0;
	cfg->quiet = 1;
	cfg->device = MD_BACKEND_CPU;
	snprintf(cfg->path, sizeof(cfg->path), "test");
}

/*
 * test_brute_force - O(N^2) minimum-image LJ forces, energy and virial of
 * st, straight from the definition (no cells, no lists): the reference the
 * backends are compared with. f is 3n doubles (overwritten).
 */
static inline void test_brute_force(const md_state *st, const md_lj_d *lj,
				    double *f, double *pe, double *w)
{
	int i, j, d;

	memset(f, 0, sizeof(double) * 3 * (size_t)st->n);
	*pe = *w = 0.0;
	for (i = 0; i < st->n; i++)
		for (j = i + 1; j < st->n; j++) {
			double r[3], r2 = 0.0, e, fr;

			for (d = 0; d < 3; d++) {
				r[d] = st->x[3 * i + d] - st->x[3 * j + d];
				r[d] -= st->box[d] * nearbyint(r[d] / st->box[d]);
				r2 += r[d] * r[d];
			}
			if (r2 >= lj->rc2)
				continue;
			fr = md_lj_pair_d(r2, lj, &e);
			*pe += e;
			*w += r2 * fr;
			for (d = 0; d < 3; d++) {
				f[3 * i + d] += r[d] * fr;
				f[3 * j + d] -= r[d] * fr;
			}
		}
}

/*
 * test_dangerous - dangerous builds with check = false: runs nchunks
 * chunks of `chunk` steps on backend b (st: the box of the state b was
 * initialised with; its positions and images are overwritten), each ended
 * by a build: chunk = cfg->every (the fixed-interval rebuilds), or a
 * shorter chunk and reset (a CPU reset rebuilds). The reference is computed here from the
 * downloaded positions and images: a chunk is dangerous when some
 * particle's unwrapped displacement over it exceeds skin/2. *expected gets
 * that count, and the return value is the backend's own (md_stats).
 */
static inline long test_dangerous(md_backend *b, const md_config *cfg,
				  md_state *st, int nchunks, long chunk,
				  int reset, long *expected)
{
	const int n = st->n;
	double *u0 = calloc(3 * (size_t)n, sizeof(double)), lim = 0.25 * cfg->skin * cfg->skin;
	md_stats stats;

	ck_assert_ptr_nonnull(u0);
	ck_assert(st->box[0] > 0.0 && st->box[1] > 0.0 && st->box[2] > 0.0);
	*expected = 0;
	for (int k = 0; k <= nchunks; k++) {
		double mx = 0.0;

		if (k > 0)
			ck_assert_int_eq(b->ops->run(b, chunk), 0);
		if (k > 0 && reset)
			ck_assert_int_eq(b->ops->reset(b), 0);
		b->ops->download(b, st, MD_F_X | MD_F_IMAGE);
		for (int i = 0; i < n; i++) {
			double d2 = 0.0;

			for (int d = 0; d < 3; d++) {
				double u = st->x[3 * i + d] + st->image[3 * i + d] * st->box[d];

				d2 += (u - u0[3 * i + d]) * (u - u0[3 * i + d]);
				u0[3 * i + d] = u;
			}
			if (d2 > mx)
				mx = d2;
		}
		if (k > 0 && mx > lim)
			++*expected;
	}
	free(u0);
	b->ops->stats(b, &stats);
	return stats.dangerous;
}

/* test_gpu_present - 1 when a GPU backend is built and a device usable. */
static inline int test_gpu_present(void)
{
	char why[256] = "this build has no CUDA backend";

	if (gpu_backend_ops() && gpu_probe(0, why, sizeof(why)))
		return 1;
	printf("SKIP: no GPU (%s): GPU suite not run\n", why);
	return 0;
}

#endif

/*
 * MD_CHECK(cond, fmt, ...) - ck_assert_msg for inner loops: a passing check
 * costs nothing, where every passing ck_assert_* writes a checkpoint to the
 * parent process (millions of write() calls over an O(N^2) comparison).
 * A failing check reports fmt and the file:line like ck_abort_msg.
 */
#ifndef MD_CHECK
#define MD_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			ck_abort_msg(__VA_ARGS__);			\
	} while (0)
#endif
