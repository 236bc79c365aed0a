/*
 * test_mixture.c - particle mixtures: Kob-Andersen pair energies and
 * forces against values computed by hand from the definition (types and
 * coefficients typed here, not taken from the code), a random KA liquid
 * against an O(N^2) typed sum, exact type counts, and the list keys.
 */
#include "testutil.h"
#include "../engine/cpu_backend.h"
#include "../engine/thermo.h"
#include "../engine/thermostat.h"
#include <unistd.h>

/* Kob-Andersen: eps AA 1.0, AB 1.5, BB 0.5; sigma 1.0, 0.8, 0.88; rc 2.5 sigma */
static const double KE[2][2] = { { 1.0, 1.5 }, { 1.5, 0.5 } };
static const double KS[2][2] = { { 1.0, 0.8 }, { 0.8, 0.88 } };

static void ka_config(md_config *cfg, int shift)
{
	int a, b;

	test_config(cfg, 1.2, 5, 1.0, 2.5, shift);
	cfg->ntypes = 2;
	cfg->type_frac[0] = 0.8;
	cfg->type_frac[1] = 0.2;
	cfg->threads = 1;
	for (a = 0; a < 2; a++)
		for (b = 0; b < 2; b++) {
			cfg->pair_eps[a][b] = KE[a][b];
			cfg->pair_sigma[a][b] = KS[a][b];
			cfg->pair_rc[a][b] = 2.5 * KS[a][b];
		}
	cfg->cutoff = 2.5;
}

/* V(r) and -dV/dr / r by hand; shifted so that V(rc) = 0 when asked */
static double ka_pair(int a, int b, double r, int shifted, double *fr)
{
	double e = KE[a][b], s = KS[a][b], rc = 2.5 * s;
	double x6 = pow(s / r, 6.0), xc6 = pow(s / rc, 6.0);

	if (r >= rc) {
		*fr = 0.0;
		return 0.0;
	}
	*fr = 24.0 * e * (2.0 * x6 * x6 - x6) / (r * r);
	return 4.0 * e * (x6 * x6 - x6) - (shifted ? 4.0 * e * (xc6 * xc6 - xc6) : 0.0);
}

START_TEST(ka_three_particles)
{
	static const double pos[3][3] = { { 1, 1, 1 }, { 2.0, 1, 1 }, { 1, 2.1, 1 } };
	static const int typ[3] = { 0, 1, 1 };
	int shift, i, j, d;

	for (shift = MD_SHIFT_NONE; shift <= MD_SHIFT_ENERGY; shift++) {
		md_config cfg;
		md_state st;
		md_backend b = { &md_cpu_backend, NULL };
		md_thermo th;
		double pe = 0.0, f[3][3] = { { 0 } };

		ka_config(&cfg, shift);
		ck_assert_int_eq(md_state_alloc(&st, 3), 0);
		st.box[0] = st.box[1] = st.box[2] = 8.0;
		for (i = 0; i < 3; i++) {
			st.type[i] = typ[i];
			for (d = 0; d < 3; d++)
				st.x[3 * i + d] = pos[i][d];
		}
		for (i = 0; i < 3; i++)
			for (j = i + 1; j < 3; j++) {
				double r2 = 0.0, fr, r;

				for (d = 0; d < 3; d++)
					r2 += (pos[i][d] - pos[j][d]) * (pos[i][d] - pos[j][d]);
				r = sqrt(r2);
				pe += ka_pair(typ[i], typ[j], r, shift == MD_SHIFT_ENERGY, &fr);
				for (d = 0; d < 3; d++) {
					f[i][d] += fr * (pos[i][d] - pos[j][d]);
					f[j][d] -= fr * (pos[i][d] - pos[j][d]);
				}
			}
		ck_assert_int_eq(b.ops->init(&b, &cfg, &st), 0);
		b.ops->thermo(&b, &th);
		b.ops->download(&b, &st, MD_F_F);
		printf("  KA A-B-B, shift %d: E %.12f (by hand %.12f)\n", shift, th.pe, pe);
		ck_assert_msg(fabs(th.pe - pe) < 1e-12 * fabs(pe), "pe %.15g vs %.15g", th.pe, pe);
		for (i = 0; i < 3; i++)
			for (d = 0; d < 3; d++)
				ck_assert_msg(fabs(st.f[3 * i + d] - f[i][d]) < 1e-10 * (1.0 + fabs(f[i][d])),
					      "f[%d][%d] %g vs %g", i, d, st.f[3 * i + d], f[i][d]);
		b.ops->destroy(&b);
		md_state_free(&st);
	}
}
END_TEST

/* A KA liquid (from the lattice, 200 steps) against an O(N^2) typed sum. */
START_TEST(ka_liquid_brute_force)
{
	md_config cfg;
	md_state st, g;
	md_backend b = { &md_cpu_backend, NULL };
	md_thermo th;
	double pe = 0.0, w = 0.0, *f;
	int i, j, d, n;

	ka_config(&cfg, MD_SHIFT_NONE);
	ck_assert_int_eq(md_setup_lattice(&cfg, &st), 0);
	md_setup_types(&cfg, &st);
	md_setup_velocities(&cfg, &st);
	ck_assert_int_eq(b.ops->init(&b, &cfg, &st), 0);
	ck_assert_int_eq(b.ops->run(&b, 200), 0);
	n = st.n;
	ck_assert_int_eq(md_state_alloc(&g, n), 0);
	g.box[0] = st.box[0]; g.box[1] = st.box[1]; g.box[2] = st.box[2];
	b.ops->download(&b, &g, MD_F_X | MD_F_F);
	b.ops->thermo(&b, &th);
	f = calloc(3 * (size_t)n, sizeof(double));
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double r[3], r2 = 0.0, fr;

			for (d = 0; d < 3; d++) {
				r[d] = g.x[3 * i + d] - g.x[3 * j + d];
				r[d] -= g.box[d] * nearbyint(r[d] / g.box[d]);
				r2 += r[d] * r[d];
			}
			pe += ka_pair(g.type[i], g.type[j], sqrt(r2), 0, &fr);
			w += fr * r2;
			for (d = 0; d < 3; d++) {
				f[3 * i + d] += fr * r[d];
				f[3 * j + d] -= fr * r[d];
			}
		}
	ck_assert_msg(fabs(th.pe - pe) < 1e-10 * fabs(pe), "pe %.15g vs %.15g", th.pe, pe);
	ck_assert_msg(fabs(th.virial - w) < 1e-9 * fabs(w) + 1e-9, "W %.15g vs %.15g", th.virial, w);
	for (i = 0; i < 3 * n; i++)
		ck_assert_msg(fabs(g.f[i] - f[i]) < 1e-9 * (1.0 + fabs(f[i])), "f[%d] %g vs %g",
			      i, g.f[i], f[i]);
	free(f);
	b.ops->destroy(&b);
	md_state_free(&st);
	md_state_free(&g);
}
END_TEST

START_TEST(type_counts)
{
	md_config cfg;
	md_state st;
	int i, na = 0, diff = 0, *t1;

	ka_config(&cfg, MD_SHIFT_NONE);
	cfg.cells[0] = cfg.cells[1] = cfg.cells[2] = 10;
	ck_assert_int_eq(md_setup_lattice(&cfg, &st), 0);
	md_setup_types(&cfg, &st);
	for (i = 0; i < st.n; i++)
		na += st.type[i] == 0;
	ck_assert_int_eq(st.n, 4000);
	ck_assert_int_eq(na, 3200);
	t1 = malloc(sizeof(int) * (size_t)st.n);
	memcpy(t1, st.type, sizeof(int) * (size_t)st.n);
	cfg.seed++;
	md_setup_types(&cfg, &st);
	for (i = 0; i < st.n; i++)
		diff += t1[i] != st.type[i];
	ck_assert_msg(diff > 500, "another seed changes %d types", diff);
	free(t1);
	md_state_free(&st);
}
END_TEST

/* The list keys through the config reader. */
START_TEST(list_keys)
{
	char path[] = "/tmp/mdsim_mix_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w"), *err = fopen("/dev/null", "w");
	md_config cfg;

	fputs("[system]\ndensity = 1.2\ncells = 6 6 6\ntemperature = 1\ntypes = 2\nfractions = 0.8 0.2\n"
	      "[potential]\npair_epsilon = 1.0 1.5 0.5\npair_sigma = 1.0 0.8 0.88\npair_cutoff = 2.5 2.0 2.2\n"
	      "[run]\nsteps = 1\n", f);
	fclose(f);
	cfg_defaults(&cfg);
	ck_assert_int_eq(cfg_load(&cfg, path, err), 0);
	ck_assert_int_eq(cfg_validate(&cfg, err), 0);
	ck_assert(cfg.pair_eps[0][1] == 1.5 && cfg.pair_eps[1][0] == 1.5);
	ck_assert(cfg.pair_sigma[1][1] == 0.88 && cfg.pair_rc[0][1] == 2.0);
	ck_assert(cfg.cutoff == 2.5 && cfg.type_frac[1] == 0.2);
	ck_assert_int_eq(cfg_set(&cfg, "potential.pair_sigma=1.0 0.8", err), 0);
	ck_assert_int_eq(cfg_validate(&cfg, err), MD_EXIT_INPUT);	/* 3 needed */
	ck_assert_int_eq(cfg_set(&cfg, "potential.pair_sigma=1.0 0.8 0.88", err), 0);
	ck_assert_int_eq(cfg_set(&cfg, "system.fractions=0.7 0.2", err), 0);
	ck_assert_int_eq(cfg_validate(&cfg, err), MD_EXIT_INPUT);	/* sum 0.9 */
	fclose(err);
	unlink(path);
}
END_TEST

/*
 * Unequal masses (A 1, B 4): the total momentum sum m v stays zero in NVE,
 * and under Langevin NVT each type carries 3/2 T per particle
 * (equipartition), whatever its mass.
 */
START_TEST(unequal_masses)
{
	static const double mass[2] = { 1.0, 4.0 };
	md_config cfg;
	md_state st;
	md_backend b = { &md_cpu_backend, NULL };
	md_thermostat ts;
	double ke[2] = { 0, 0 }, p[3];
	long cnt[2] = { 0, 0 };
	int i, d, k;

	ka_config(&cfg, MD_SHIFT_FORCE);
	cfg.type_mass[0] = mass[0];
	cfg.type_mass[1] = mass[1];
	cfg.temperature = 1.0;
	ck_assert_int_eq(md_setup_lattice(&cfg, &st), 0);
	md_setup_types(&cfg, &st);
	md_setup_velocities(&cfg, &st);
	ck_assert(fabs(2.0 * md_kinetic_cfg(&st, &cfg) / md_dof(st.n) - 1.0) < 1e-12);
	ck_assert_int_eq(b.ops->init(&b, &cfg, &st), 0);
	ck_assert_int_eq(b.ops->run(&b, 1000), 0);	/* NVE */
	b.ops->download(&b, &st, MD_F_V);
	p[0] = p[1] = p[2] = 0.0;
	for (i = 0; i < st.n; i++)
		for (d = 0; d < 3; d++)
			p[d] += mass[st.type[i]] * st.v[3 * i + d];
	ck_assert_msg(fabs(p[0]) + fabs(p[1]) + fabs(p[2]) < 1e-10 * st.n,
		      "momentum %g %g %g", p[0], p[1], p[2]);
	b.ops->destroy(&b);

	cfg.ensemble = MD_ENS_LANGEVIN;
	cfg.steps = 40000;
	b.ctx = NULL;
	ck_assert_int_eq(b.ops->init(&b, &cfg, &st), 0);
	md_thermostat_init(&ts, &cfg, st.n, 0);
	ck_assert_int_eq(md_thermostat_run(&ts, &b, 2000), 0);
	for (k = 0; k < 300; k++) {
		ck_assert_int_eq(md_thermostat_run(&ts, &b, 100), 0);
		b.ops->download(&b, &st, MD_F_V);
		for (i = 0; i < st.n; i++) {
			const double *v = &st.v[3 * i];

			ke[st.type[i]] += 0.5 * mass[st.type[i]] *
					  (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
			cnt[st.type[i]]++;
		}
	}
	printf("  masses 1 and 4, Langevin T = 1: 2 KE / 3 per particle: A %.4f, B %.4f\n",
	       2.0 * ke[0] / (3.0 * cnt[0]), 2.0 * ke[1] / (3.0 * cnt[1]));
	/* 300 samples 0.5 tau apart of 400 A and 100 B particles: the B mean
	 * is good to ~1% (1.5 sigma of 2/(3 * 100) per sample) */
	ck_assert_msg(fabs(2.0 * ke[0] / (3.0 * cnt[0]) - 1.0) < 0.03, "A");
	ck_assert_msg(fabs(2.0 * ke[1] / (3.0 * cnt[1]) - 1.0) < 0.05, "B");
	b.ops->destroy(&b);
	md_state_free(&st);
}
END_TEST

static Suite *mixture_suite(void)
{
	Suite *s = suite_create("mixture");
	TCase *t = tcase_create("ka");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, ka_three_particles);
	tcase_add_test(t, ka_liquid_brute_force);
	tcase_add_test(t, type_counts);
	tcase_add_test(t, list_keys);
	tcase_add_test(t, unequal_masses);
	suite_add_tcase(s, t);
	return s;
}

MD_TEST_MAIN(mixture_suite)
