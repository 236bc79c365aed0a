/*
 * test_pair.c - the LJ pair function of kernels/md_physics.h against the
 * textbook formulas, typed out independently here:
 *   V(r)  = 4 eps [(s/r)^12 - (s/r)^6]
 *   F(r)  = -dV/dr = 24 eps / r [2 (s/r)^12 - (s/r)^6]
 *   none:   V(r),                              F(r)
 *   energy: V(r) - V(rc),                      F(r)
 *   force:  V(r) - V(rc) + (r - rc) F(rc),     F(r) - F(rc)
 * and zero at r >= rc. md_lj_pair_d returns F/r and the energy; the float
 * twin md_lj_pair_f must agree with it to float precision.
 */
#include "testutil.h"

/* Parameter sets: reduced units, a "wide" and a "narrow" particle. */
static const double par[][3] = {	/* eps, sigma, rc */
	{ 1.0, 1.0, 2.5 },
	{ 0.7, 1.3, 3.2 },
	{ 2.0, 0.8, 1.5 },
};
#define NPAR ((int)(sizeof(par) / sizeof(par[0])))

static double ref_v(double eps, double s, double r)
{
	double sr6 = pow(s / r, 6.0);

	return 4.0 * eps * (sr6 * sr6 - sr6);
}

static double ref_f(double eps, double s, double r)
{
	double sr6 = pow(s / r, 6.0);

	return 24.0 * eps / r * (2.0 * sr6 * sr6 - sr6);
}

/* Reference energy and force of one shift mode, r < rc. */
static void ref_pair(int shift, double eps, double s, double rc, double r,
		     double *v, double *f)
{
	*v = ref_v(eps, s, r);
	*f = ref_f(eps, s, r);
	if (shift != MD_SHIFT_NONE)
		*v -= ref_v(eps, s, rc);
	if (shift == MD_SHIFT_FORCE) {
		*v += (r - rc) * ref_f(eps, s, rc);
		*f -= ref_f(eps, s, rc);
	}
}

/*
 * Size of the largest term in V and F at r: round-off of any correct
 * evaluation is a few ulps of this, whatever cancellation leaves over.
 */
static double scale_v(double eps, double s, double rc, double r)
{
	double sr6 = pow(s / r, 6.0);

	return 4.0 * eps * (sr6 * sr6 + sr6) + fabs(ref_v(eps, s, rc)) +
	       fabs(rc * ref_f(eps, s, rc)) + 1e-300;
}

static double scale_f(double eps, double s, double rc, double r)
{
	double sr6 = pow(s / r, 6.0);

	return 24.0 * eps / r * (2.0 * sr6 * sr6 + sr6) +
	       fabs(ref_f(eps, s, rc)) + 1e-300;
}

static double pair_v(const md_lj_d *c, double r, double *f)
{
	double e, fr = md_lj_pair_d(r * r, c, &e);

	*f = fr * r;
	return e;
}

START_TEST(analytic_all_shifts)
{
	int p, shift, k, n = 0;

	for (p = 0; p < NPAR; p++)
		for (shift = 0; shift < 3; shift++) {
			double eps = par[p][0], s = par[p][1], rc = par[p][2];
			md_lj_d c;

			md_lj_coeff_init_d(&c, eps, s, rc, shift);
			for (k = 0; k < 400; k++) {
				double r = (0.8 + (rc / s - 0.8) * (k + 0.5) / 400.0) * s;
				double v, f, vr, fref;

				v = pair_v(&c, r, &f);
				ref_pair(shift, eps, s, rc, r, &vr, &fref);
				/* 1e-13 of the largest term: a few double ulps
				 * times the ~10 operations of either formula */
				MD_CHECK(fabs(v - vr) <= 1e-13 * scale_v(eps, s, rc, r),
					      "V shift %d eps %g s %g rc %g r %.17g: %.17g vs %.17g",
					      shift, eps, s, rc, r, v, vr);
				MD_CHECK(fabs(f - fref) <= 1e-13 * scale_f(eps, s, rc, r),
					      "F shift %d eps %g s %g rc %g r %.17g: %.17g vs %.17g",
					      shift, eps, s, rc, r, f, fref);
				n++;
			}
		}
	ck_assert_int_eq(n, NPAR * 3 * 400);
}
END_TEST

START_TEST(force_is_minus_dv_dr)
{
	int p, shift, k;

	for (p = 0; p < NPAR; p++)
		for (shift = 0; shift < 3; shift++) {
			double eps = par[p][0], s = par[p][1], rc = par[p][2];
			md_lj_d c;

			md_lj_coeff_init_d(&c, eps, s, rc, shift);
			for (k = 0; k < 200; k++) {
				double r = (0.85 + (rc / s - 0.86) * k / 200.0) * s;
				double h = 1e-5 * r, f, dummy;
				double vp = pair_v(&c, r + h, &dummy);
				double vm = pair_v(&c, r - h, &dummy);
				double fd = -(vp - vm) / (2.0 * h);

				if (r + h >= rc)
					continue;
				pair_v(&c, r, &f);
				/*
				 * Central difference: truncation h^2 |V'''| / 6
				 * and round-off ~1e-16 |V| / h. For r >= 0.85 s,
				 * |V'''| <= ~1e5 eps/s^3 and |V| <= ~30 eps, so
				 * both stay below ~2e-6 eps/s in absolute terms
				 * and 1e-7 relative to the force scale.
				 */
				MD_CHECK(fabs(fd - f) <= 1e-6 * (eps / s) +
					      1e-7 * scale_f(eps, s, rc, r),
					      "shift %d r %.10g: F %.12g, -dV/dr %.12g",
					      shift, r, f, fd);
			}
		}
}
END_TEST

START_TEST(zero_beyond_cutoff)
{
	static const double fac[] = { 1.0, 1.0 + 1e-15, 1.001, 1.5, 10.0, 1e6 };
	int p, shift, k;

	for (p = 0; p < NPAR; p++)
		for (shift = 0; shift < 3; shift++) {
			md_lj_d c;
			md_lj_f cf;

			md_lj_coeff_init_d(&c, par[p][0], par[p][1], par[p][2], shift);
			md_lj_coeff_to_f(&cf, &c);
			for (k = 0; k < 6; k++) {
				double r2 = c.rc2 * fac[k], e = 1.0;
				float ef = 1.0f;
				double fr = md_lj_pair_d(r2, &c, &e);
				float frf = md_lj_pair_f(cf.rc2 * (float)fac[k], &cf, &ef);

				/* exactly zero, not small */
				MD_CHECK(fr == 0.0 && e == 0.0,
					      "shift %d r2 = rc2 * %g: F/r %g, V %g", shift,
					      fac[k], fr, e);
				MD_CHECK(frf == 0.0f && ef == 0.0f,
					      "float shift %d r2 = rc2 * %g: F/r %g, V %g",
					      shift, fac[k], frf, ef);
			}
		}
}
END_TEST

/* Continuity at rc of what each mode promises (approached from inside). */
START_TEST(continuity_at_cutoff)
{
	int p;

	for (p = 0; p < NPAR; p++) {
		double eps = par[p][0], s = par[p][1], rc = par[p][2];
		double r = rc * (1.0 - 1e-9), v, f;
		md_lj_d c;

		/* none: V(rc-) is the plain LJ value, not 0 */
		md_lj_coeff_init_d(&c, eps, s, rc, MD_SHIFT_NONE);
		v = pair_v(&c, r, &f);
		ck_assert(fabs(v - ref_v(eps, s, rc)) < 1e-6 * fabs(ref_v(eps, s, rc)));
		/* energy: V -> 0 like F(rc) (r - rc); F stays the LJ force */
		md_lj_coeff_init_d(&c, eps, s, rc, MD_SHIFT_ENERGY);
		v = pair_v(&c, r, &f);
		MD_CHECK(fabs(v) < 1e-8 * eps, "energy shift: V(rc-) = %g", v);
		ck_assert(fabs(f - ref_f(eps, s, rc)) < 1e-6 * fabs(ref_f(eps, s, rc)));
		/* force: V and F -> 0 (V quadratically) */
		md_lj_coeff_init_d(&c, eps, s, rc, MD_SHIFT_FORCE);
		v = pair_v(&c, r, &f);
		MD_CHECK(fabs(v) < 1e-12 * eps, "force shift: V(rc-) = %g", v);
		MD_CHECK(fabs(f) < 1e-7 * eps / s, "force shift: F(rc-) = %g", f);
	}
}
END_TEST

START_TEST(minimum_at_two_to_one_sixth)
{
	int p, shift;

	for (p = 0; p < NPAR; p++)
		for (shift = 0; shift < 2; shift++) {	/* F unshifted */
			double eps = par[p][0], s = par[p][1], rc = par[p][2];
			double rmin = pow(2.0, 1.0 / 6.0) * s, f, fl, fr, v, vl, vr;
			double vmin = -eps - (shift ? ref_v(eps, s, rc) : 0.0);
			md_lj_d c;

			if (rmin >= rc)
				continue;
			md_lj_coeff_init_d(&c, eps, s, rc, shift);
			v = pair_v(&c, rmin, &f);
			vl = pair_v(&c, rmin * 0.999, &fl);
			vr = pair_v(&c, rmin * 1.001, &fr);
			/* F(rmin) = 0 up to round-off of terms of size 48 eps/s */
			MD_CHECK(fabs(f) < 1e-13 * 48.0 * eps / s, "F(rmin) = %g", f);
			MD_CHECK(fabs(v - vmin) < 1e-14 * 8.0 * eps,
				      "V(rmin) = %.17g, expected %.17g", v, vmin);
			ck_assert(fl > 0.0 && fr < 0.0);	/* repulsive inside */
			ck_assert(vl > v && vr > v);
		}
}
END_TEST

/*
 * The float twin (GPU path): coefficients rounded to float, same r2.
 * Float carries 6e-8 relative; ~10 operations give a few 1e-7 of the
 * largest term. Where the force is not itself a small difference of
 * large terms (at least half the largest term), that is ~1e-6 relative.
 */
START_TEST(float_agrees_with_double)
{
	int p, shift, k;
	double worst = 0.0;

	for (p = 0; p < NPAR; p++)
		for (shift = 0; shift < 3; shift++) {
			double eps = par[p][0], s = par[p][1], rc = par[p][2];
			md_lj_d c;
			md_lj_f cf;

			md_lj_coeff_init_d(&c, eps, s, rc, shift);
			md_lj_coeff_to_f(&cf, &c);
			for (k = 0; k < 500; k++) {
				float r2f = (float)(pow((0.85 + (rc / s - 0.851) * k / 500.0) * s, 2));
				double r2 = r2f, r = sqrt(r2), e, fr;
				float ef, frf;

				fr = md_lj_pair_d(r2, &c, &e);
				frf = md_lj_pair_f(r2f, &cf, &ef);
				MD_CHECK(fabs(frf - fr) * r <= 2e-6 * scale_f(eps, s, rc, r),
					      "F/r shift %d r %.8g: float %.9g double %.17g",
					      shift, r, frf, fr);
				MD_CHECK(fabs(ef - e) <= 2e-6 * scale_v(eps, s, rc, r),
					      "V shift %d r %.8g: float %.9g double %.17g",
					      shift, r, ef, e);
				/* no cancellation worth a factor > 2 here */
				if (fabs(fr) * r > 0.5 * scale_f(eps, s, rc, r)) {
					double rel = fabs(frf - fr) / fabs(fr);

					worst = rel > worst ? rel : worst;
					MD_CHECK(rel <= 1e-6, "F/r relative %g at r %g", rel, r);
				}
			}
		}
	ck_assert(worst > 0.0);	/* the float path really is float */
}
END_TEST

/* Coefficients: F/r and V at the pair's own sigma and at rc. */
START_TEST(coefficients)
{
	md_lj_d c;
	double e, fr;

	md_lj_coeff_init_d(&c, 1.5, 1.2, 3.0, MD_SHIFT_NONE);
	ck_assert(fabs(c.rc2 - 9.0) < 1e-15 && c.eshift == 0.0 && c.fc == 0.0);
	fr = md_lj_pair_d(1.44, &c, &e);	/* r = sigma: V = 0, F = 24 eps / s */
	MD_CHECK(fabs(e) < 1e-14, "V(sigma) = %g", e);
	MD_CHECK(fabs(fr * 1.2 - 24.0 * 1.5 / 1.2) < 1e-12, "F(sigma) = %g", fr * 1.2);
}
END_TEST

static Suite *pair_suite(void)
{
	Suite *s = suite_create("pair");
	TCase *tc = tcase_create("lj");

	tcase_add_test(tc, analytic_all_shifts);
	tcase_add_test(tc, force_is_minus_dv_dr);
	tcase_add_test(tc, zero_beyond_cutoff);
	tcase_add_test(tc, continuity_at_cutoff);
	tcase_add_test(tc, minimum_at_two_to_one_sixth);
	tcase_add_test(tc, float_agrees_with_double);
	tcase_add_test(tc, coefficients);
	suite_add_tcase(s, tc);
	return s;
}

MD_TEST_MAIN(pair_suite)
