/*
 * test_tail.c - tail corrections against an independent numerical
 * integration of the definitions, for several cut-offs and densities:
 *   e_tail = 2 pi rho Int_rc^inf r^2 V(r) dr
 *   p_tail = -2/3 pi rho^2 Int_rc^inf r^3 V'(r) dr
 * (V the plain LJ potential, typed here), and their use in the thermo
 * output (E_pair and Press shift by exactly these amounts).
 */
#include "testutil.h"
#include "../engine/thermo.h"

static double lj(double r, double eps, double s)
{
	double x6 = pow(s / r, 6.0);

	return 4.0 * eps * (x6 * x6 - x6);
}

static double dlj(double r, double eps, double s)
{
	double x6 = pow(s / r, 6.0);

	return -24.0 * eps * (2.0 * x6 * x6 - x6) / r;
}

/* Int_rc^inf f(r) dr with r = rc / u, u in (0, 1]: Simpson, 20000 panels */
static double integrate(double rc, double eps, double s, int pressure)
{
	const int m = 20000;
	double h = 1.0 / m, sum = 0.0;
	int k;

	for (k = 1; k <= m; k++) {	/* f(u -> 0) -> 0: start at u = h */
		double u0 = (k - 1) * h, um = u0 + 0.5 * h, u1 = k * h, a = 0.0;
		double us[3] = { u0, um, u1 }, w[3] = { 1.0, 4.0, 1.0 };
		int q;

		for (q = 0; q < 3; q++) {
			double u = us[q], r, f;

			if (u == 0.0)
				continue;
			r = rc / u;
			f = pressure ? r * r * r * dlj(r, eps, s) : r * r * lj(r, eps, s);
			a += w[q] * f * rc / (u * u);	/* dr = rc / u^2 du */
		}
		sum += a * h / 6.0;
	}
	return sum;
}

START_TEST(tail_vs_integral)
{
	const double rcs[] = { 2.5, 3.0, 4.0 }, rhos[] = { 0.3, 0.776, 1.2 };
	const double pi = 3.14159265358979323846;
	int a, b;

	for (a = 0; a < 3; a++)
		for (b = 0; b < 3; b++) {
			double eps = 1.3, s = 0.9, e, p;
			double ei = 2.0 * pi * rhos[b] * integrate(rcs[a], eps, s, 0);
			double pi_ = -2.0 / 3.0 * pi * rhos[b] * rhos[b] *
				     integrate(rcs[a], eps, s, 1);

			md_lj_tail(rhos[b], eps, s, rcs[a], &e, &p);
			ck_assert_msg(fabs(e - ei) < 1e-9 * fabs(ei), "e %g vs %g", e, ei);
			ck_assert_msg(fabs(p - pi_) < 1e-9 * fabs(pi_), "p %g vs %g", p, pi_);
		}
}
END_TEST

/* The thermo output adds exactly the analytic amounts. */
START_TEST(tail_in_thermo)
{
	md_config cfg;
	md_thermo th = { 0, -5000.0, 1500.0, -3000.0 };
	md_thermo_vals off, on;
	double box[3] = { 10.0, 11.0, 12.0 }, e, p;
	int n = 1000;

	test_config(&cfg, 0.8, 5, 1.0, 3.0, MD_SHIFT_NONE);
	md_thermo_configure(&cfg);
	md_thermo_derive(&th, n, box, &off);
	cfg.tail = 1;
	md_thermo_configure(&cfg);
	md_thermo_derive(&th, n, box, &on);
	md_lj_tail(n / (box[0] * box[1] * box[2]), 1.0, 1.0, 3.0, &e, &p);
	ck_assert(fabs(on.epair - off.epair - e) < 1e-12);
	ck_assert(fabs(on.etot - off.etot - e) < 1e-12);
	ck_assert(fabs(on.press - off.press - p) < 1e-12);
	ck_assert(on.temp == off.temp && on.ekin == off.ekin);
	cfg.tail = 0;
	md_thermo_configure(&cfg);
}
END_TEST

static Suite *tail_suite(void)
{
	Suite *s = suite_create("tail");
	TCase *t = tcase_create("tail");

	tcase_add_test(t, tail_vs_integral);
	tcase_add_test(t, tail_in_thermo);
	suite_add_tcase(s, t);
	return s;
}

MD_TEST_MAIN(tail_suite)
