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
