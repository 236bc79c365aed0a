/*
 * test_thermostat.c - NVT: the Langevin thermostat holds the target
 * temperature with canonical fluctuations (<dT^2>/<T>^2 = 2/dof for the
 * kinetic temperature of dof degrees of freedom), gives the same trajectory
 * on 1 and 2 threads (counter-based noise), follows a ramp; Nose-Hoover
 * conserves its extended energy while the physical energy fluctuates.
 * References are these analytic results, not outputs of the code.
 */
#include "testutil.h"
#include "../engine/thermostat.h"
#include "../engine/cpu_backend.h"

/* 500 particles at density 0.8442, force-shifted LJ, one thread. */
static void nvt_setup_dt(md_config *cfg, md_state *st, md_backend *b, int ens,
			 double T, int threads, double dt)
{
	test_config(cfg, 0.8442, 5, T, 2.5, MD_SHIFT_FORCE);
	cfg->dt = dt;
	cfg->ensemble = ens;
	cfg->threads = threads;
	cfg->seed = 99;
	b->ops = &md_cpu_backend;
	b->ctx = NULL;
	ck_assert_int_eq(md_setup_lattice(cfg, st), 0);
	md_setup_velocities(cfg, st);
	ck_assert_int_eq(b->ops->init(b, cfg, st), 0);
}

static void nvt_setup(md_config *cfg, md_state *st, md_backend *b, int ens,
		      double T, int threads)
{
	nvt_setup_dt(cfg, st, b, ens, T, threads, 0.005);
}

START_TEST(langevin_canonical)
{
	md_config cfg;
	md_state st;
	md_backend b;
	md_thermostat ts;
	md_thermo th;
	double s1 = 0.0, s2 = 0.0, mean, var, want;
	long k, m = 0;

	nvt_setup(&cfg, &st, &b, MD_ENS_LANGEVIN, 1.0, 1);
	cfg.steps = 42000;
	md_thermostat_init(&ts, &cfg, st.n, 0);
	ck_assert_int_eq(md_thermostat_run(&ts, &b, 2000), 0);	/* equilibrate */
	for (k = 0; k < 4000; k++) {
		double T;

		ck_assert_int_eq(md_thermostat_run(&ts, &b, 10), 0);
		b.ops->thermo(&b, &th);
		T = 2.0 * th.ke / md_dof(st.n);
		s1 += T;
		s2 += T * T;
		m++;
	}
	mean = s1 / m;
	var = s2 / m - mean * mean;
	want = 2.0 / md_dof(st.n);
	printf("  Langevin N=%d: <T> = %.5f (target 1), <dT^2>/<T>^2 = %.5f (canonical %.5f)\n",
	       st.n, mean, var / (mean * mean), want);
	/* 40,000 steps with gamma = 1 are ~400 independent samples of a 3.6%
	 * spread: the mean is good to 0.2%, the variance to ~10%. The noise
	 * also heats the centre of mass, so 2 KE / (3N - 3) averages
	 * T 3N / (3N - 3). */
	ck_assert_msg(fabs(mean / (3.0 * st.n / md_dof(st.n)) - 1.0) < 0.01, "<T> = %g", mean);
	ck_assert_msg(fabs(var / (mean * mean) / want - 1.0) < 0.3,
		      "fluctuation %g, canonical %g", var / (mean * mean), want);
	b.ops->destroy(&b);
	md_state_free(&st);
}
END_TEST

START_TEST(langevin_thread_independent)
{
	md_config cfg;
	md_state s1, s2;
	md_backend b1, b2;
	md_thermostat t1, t2;
	int i;

	nvt_setup(&cfg, &s1, &b1, MD_ENS_LANGEVIN, 1.2, 1);
	cfg.steps = 300;
	md_thermostat_init(&t1, &cfg, s1.n, 0);
	ck_assert_int_eq(md_thermostat_run(&t1, &b1, 300), 0);
	nvt_setup(&cfg, &s2, &b2, MD_ENS_LANGEVIN, 1.2, 2);
	cfg.steps = 300;
	md_thermostat_init(&t2, &cfg, s2.n, 0);
	ck_assert_int_eq(md_thermostat_run(&t2, &b2, 300), 0);
	b1.ops->download(&b1, &s1, MD_F_X | MD_F_V);
	b2.ops->download(&b2, &s2, MD_F_X | MD_F_V);
	for (i = 0; i < 3 * s1.n; i++) {
		ck_assert_msg(s1.x[i] == s2.x[i], "x[%d] %.17g vs %.17g", i, s1.x[i], s2.x[i]);
		ck_assert(s1.v[i] == s2.v[i]);
	}
	b1.ops->destroy(&b1);
	b2.ops->destroy(&b2);
	md_state_free(&s1);
	md_state_free(&s2);
}
END_TEST

START_TEST(langevin_ramp)
{
	md_config cfg;
	md_state st;
	md_backend b;
	md_thermostat ts;
	md_thermo th;
	double s = 0.0;
	int k;

	nvt_setup(&cfg, &st, &b, MD_ENS_LANGEVIN, 1.5, 1);
	cfg.steps = 8000;
	cfg.temperature_end = 0.5;
	cfg.gamma = 5.0;
	md_thermostat_init(&ts, &cfg, st.n, 0);
	ck_assert(fabs(md_thermostat_target(&ts, 4000) - 1.0) < 1e-12);
	ck_assert_int_eq(md_thermostat_run(&ts, &b, 7000), 0);
	for (k = 0; k < 100; k++) {	/* last 1000 steps: target 0.625 .. 0.5 */
		ck_assert_int_eq(md_thermostat_run(&ts, &b, 10), 0);
		b.ops->thermo(&b, &th);
		s += 2.0 * th.ke / md_dof(st.n);
	}
	printf("  ramp 1.5 -> 0.5: <T> over the last 1000 steps %.4f (target mean 0.5625)\n",
	       s / 100);
	ck_assert_msg(fabs(s / 100 - 0.5625) < 0.03, "<T> %g", s / 100);
	b.ops->destroy(&b);
	md_state_free(&st);
}
END_TEST

/*
 * Nose-Hoover over 80 tau after 20 tau of equilibration at time step dt:
 * largest |H(t) - H(t0)| per particle of the extended energy, the spread of
 * the physical total energy and the mean temperature.
 */
static void nh_run(double dt, double *hmax, double *espread, double *tmean)
{
	md_config cfg;
	md_state st;
	md_backend b;
	md_thermostat ts;
	md_thermo th;
	long per = (long)(0.5 / dt + 0.5);	/* samples every 0.5 tau */
	double h0 = 0.0, e1 = 0.0, e2 = 0.0, t1 = 0.0;
	int k, m = 0;

	nvt_setup_dt(&cfg, &st, &b, MD_ENS_NOSE_HOOVER, 1.0, 1, dt);
	cfg.steps = 200 * per;
	md_thermostat_init(&ts, &cfg, st.n, 0);
	ck_assert_int_eq(md_thermostat_run(&ts, &b, 40 * per), 0);
	*hmax = 0.0;
	for (k = 0; k <= 160; k++) {
		double h, e;

		if (k)
			ck_assert_int_eq(md_thermostat_run(&ts, &b, per), 0);
		b.ops->thermo(&b, &th);
		e = (th.pe + th.ke) / st.n;
		h = e + md_thermostat_energy(&ts, th.step) / st.n;
		if (k == 0)
			h0 = h;
		*hmax = fmax(*hmax, fabs(h - h0));
		e1 += e;
		e2 += e * e;
		t1 += 2.0 * th.ke / md_dof(st.n);
		m++;
	}
	e1 /= m;
	*espread = sqrt(e2 / m - e1 * e1);
	*tmean = t1 / m;
	b.ops->destroy(&b);
	md_state_free(&st);
}

START_TEST(nose_hoover_conserves)
{
	double h1, s1, t1, h2, s2, t2;

	nh_run(0.005, &h1, &s1, &t1);
	nh_run(0.0025, &h2, &s2, &t2);
	printf("  Nose-Hoover, 80 tau: max |dH|/N %.2e (dt 0.005), %.2e (dt 0.0025); TotEng/N spread %.2e; <T> %.4f\n",
	       h1, h2, s1, t1);
	/* the extended energy is conserved up to the splitting error, which is
	 * second order: halving dt divides it by ~4 (at least 3 here) */
	ck_assert_msg(h1 < 2e-3, "extended energy moves by %g", h1);
	ck_assert_msg(h1 / h2 > 3.0, "error ratio %g: not second order", h1 / h2);
	/* ...while the physical energy is exchanged with the thermostat */
	ck_assert_msg(s1 > 10.0 * h1, "thermostat inactive? spread %g", s1);
	ck_assert_msg(fabs(t1 - 1.0) < 0.03, "<T> %g", t1);
}
END_TEST

static Suite *thermostat_suite(void)
{
	Suite *s = suite_create("thermostat");
	TCase *t = tcase_create("nvt");

	tcase_set_timeout(t, 300);
	tcase_add_test(t, langevin_canonical);
	tcase_add_test(t, langevin_thread_independent);
	tcase_add_test(t, langevin_ramp);
	tcase_add_test(t, nose_hoover_conserves);
	suite_add_tcase(s, t);
	return s;
}

MD_TEST_MAIN(thermostat_suite)
