/*
 * test_nist_eos.c - a published equation-of-state point: the LJ fluid at
 * T* = 0.85, rho* = 0.776, rc = 3.0 (truncated, with tail corrections),
 * N = 500 has U/N = -5.5121 and P = 0.0067714 (NIST Standard Reference
 * Simulation Website, NVT Monte Carlo). An NVT (Langevin) run of 500
 * particles must land within 3 standard errors of its own block-averaged
 * estimate, and within 0.02 of U/N. About 20-40 s; also `make validate`.
 */
#include "testutil.h"
#include "../engine/thermostat.h"
#include "../engine/thermo.h"

#define NBLOCK 10

START_TEST(nist_lj_eos)
{
	const double u_ref = -5.5121, p_ref = 0.0067714;
	md_config cfg;
	md_state st;
	md_backend b = { &md_cpu_backend, NULL };
	md_thermostat ts;
	md_thermo th;
	md_thermo_vals tv;
	double bu[NBLOCK] = { 0 }, bp[NBLOCK] = { 0 }, u = 0.0, p = 0.0;
	double su = 0.0, sp = 0.0;
	const long equil = 6000, per = 20, samples = 5000;
	long k;
	int i;

	test_config(&cfg, 0.776, 5, 0.85, 3.0, MD_SHIFT_NONE);
	cfg.tail = 1;
	cfg.ensemble = MD_ENS_LANGEVIN;
	cfg.gamma = 1.0;
	cfg.seed = 2026;
	cfg.threads = 1;	/* 500 particles: OpenMP barriers cost more than they save */
	cfg.steps = equil + per * samples;
	md_thermo_configure(&cfg);
	ck_assert_int_eq(md_setup_lattice(&cfg, &st), 0);
	ck_assert_int_eq(st.n, 500);
	md_setup_velocities(&cfg, &st);
	ck_assert_int_eq(b.ops->init(&b, &cfg, &st), 0);
	md_thermostat_init(&ts, &cfg, st.n, 0);
	ck_assert_int_eq(md_thermostat_run(&ts, &b, equil), 0);
	for (k = 0; k < samples; k++) {
		ck_assert_int_eq(md_thermostat_run(&ts, &b, per), 0);
		b.ops->thermo(&b, &th);
		md_thermo_derive(&th, st.n, st.box, &tv);	/* with tails */
		bu[k * NBLOCK / samples] += tv.epair / (samples / NBLOCK);
		bp[k * NBLOCK / samples] += tv.press / (samples / NBLOCK);
	}
	for (i = 0; i < NBLOCK; i++) {
		u += bu[i] / NBLOCK;
		p += bp[i] / NBLOCK;
	}
	for (i = 0; i < NBLOCK; i++) {
		su += (bu[i] - u) * (bu[i] - u);
		sp += (bp[i] - p) * (bp[i] - p);
	}
	su = sqrt(su / (NBLOCK - 1) / NBLOCK);	/* standard error of the mean */
	sp = sqrt(sp / (NBLOCK - 1) / NBLOCK);
	printf("  LJ T*=0.85 rho*=0.776 rc=3 (+tail), N=500, %ld samples: U/N = %.4f +- %.4f (NIST %.4f), P = %.4f +- %.4f (NIST %.5f)\n",
	       samples, u, su, u_ref, p, sp, p_ref);
	ck_assert_msg(fabs(u - u_ref) < 0.02, "U/N %g vs %g", u, u_ref);
	ck_assert_msg(fabs(u - u_ref) <= 3.0 * su, "U/N %g +- %g vs %g", u, su, u_ref);
	ck_assert_msg(fabs(p - p_ref) <= 3.0 * sp, "P %g +- %g vs %g", p, sp, p_ref);
	b.ops->destroy(&b);
	md_state_free(&st);
	cfg.tail = 0;
	md_thermo_configure(&cfg);
}
END_TEST

static Suite *nist_suite(void)
{
	Suite *s = suite_create("nist_eos");
	TCase *t = tcase_create("lj");

	tcase_set_timeout(t, 600);
	tcase_add_test(t, nist_lj_eos);
	suite_add_tcase(s, t);
	return s;
}

MD_TEST_MAIN(nist_suite)
