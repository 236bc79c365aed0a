/*
 * test_setup.c - initial state: the fcc lattice (count, density, box,
 * nearest-neighbour geometry), the velocities (zero momentum, exact
 * temperature, reproducible from the seed) and the Philox4x32-10 generator
 * against the published Random123 known-answer vectors, plus the moments
 * of md_gauss4.
 */
#include "testutil.h"
#include "../kernels/md_rng.h"

/* fcc lattice of c0 x c1 x c2 cells at density rho (velocities untouched). */
static void make_lattice(md_config *cfg, md_state *st, double rho, int c0,
			 int c1, int c2)
{
	test_config(cfg, rho, c0, 1.0, 2.5, MD_SHIFT_NONE);
	cfg->cells[1] = c1;
	cfg->cells[2] = c2;
	ck_assert_int_eq(md_setup_lattice(cfg, st), 0);
}

static const int shapes[][3] = { { 1, 1, 1 }, { 2, 2, 2 }, { 3, 4, 5 }, { 6, 6, 6 } };
static const double rhos[] = { 0.8442, 0.5, 1.2 };

START_TEST(lattice_count_density_box)
{
	int s, k, i, d;

	for (s = 0; s < 4; s++)
		for (k = 0; k < 3; k++) {
			md_config cfg;
			md_state st;
			const int *c = shapes[s];
			double a = cbrt(4.0 / rhos[k]), vol;

			make_lattice(&cfg, &st, rhos[k], c[0], c[1], c[2]);
			ck_assert_int_eq(st.n, 4 * c[0] * c[1] * c[2]);
			for (d = 0; d < 3; d++)	/* edge = cells x lattice constant */
				ck_assert(fabs(st.box[d] - c[d] * a) <= 1e-14 * st.box[d]);
			vol = st.box[0] * st.box[1] * st.box[2];
			ck_assert_msg(fabs(st.n / vol - rhos[k]) <= 1e-12 * rhos[k],
				      "density %.17g, expected %.17g", st.n / vol, rhos[k]);
			for (i = 0; i < st.n; i++)
				for (d = 0; d < 3; d++) {
					ck_assert(st.x[3 * i + d] >= 0.0 &&
						  st.x[3 * i + d] < st.box[d]);
					ck_assert_int_eq(st.image[3 * i + d], 0);
				}
			ck_assert(st.step == 0);
			md_state_free(&st);
		}
}
END_TEST

/*
 * fcc geometry: every particle has exactly 12 nearest neighbours at
 * a / sqrt(2) and the next shell at a (6 of them), nothing closer; checked
 * by an O(N^2) minimum-image search (cells >= 2 so that the shells are
 * not folded onto themselves).
 */
START_TEST(lattice_fcc_geometry)
{
	md_config cfg;
	md_state st;
	double a = cbrt(4.0 / 0.8442), nn = a / sqrt(2.0), dmin = 1e300;
	int i, j;

	make_lattice(&cfg, &st, 0.8442, 3, 3, 3);
	for (i = 0; i < st.n; i++) {
		int n1 = 0, n2 = 0;

		for (j = 0; j < st.n; j++) {
			double r;

			if (j == i)
				continue;
			r = sqrt(test_min_image_r2(&st, i, j));
			dmin = r < dmin ? r : dmin;
			/* 1e-12: positions are products of a and halves */
			if (fabs(r - nn) < 1e-12 * a)
				n1++;
			else if (fabs(r - a) < 1e-12 * a)
				n2++;
			else
				ck_assert_msg(r > a, "pair %d %d at %.17g", i, j, r);
		}
		ck_assert_int_eq(n1, 12);
		ck_assert_int_eq(n2, 6);
	}
	ck_assert_msg(fabs(dmin - nn) <= 1e-12 * nn, "min distance %.17g, a/sqrt2 %.17g",
		      dmin, nn);
	md_state_free(&st);
}
END_TEST

/* Momentum, temperature (with m != 1 too), computed here from v. */
START_TEST(velocities_momentum_temperature)
{
	static const double T[] = { 1.44, 0.1, 3.0 }, mass[] = { 1.0, 1.0, 2.5 };
	int k, i, d;

	for (k = 0; k < 3; k++) {
		md_config cfg;
		md_state st;
		double p[3] = { 0 }, pabs[3] = { 0 }, ke = 0.0;

		make_lattice(&cfg, &st, 0.8442, 4, 5, 6);
		cfg.temperature = T[k];
		cfg.mass = mass[k];
		md_setup_velocities(&cfg, &st);
		for (i = 0; i < st.n; i++)
			for (d = 0; d < 3; d++) {
				double v = st.v[3 * i + d];

				p[d] += cfg.mass * v;
				pabs[d] += fabs(cfg.mass * v);
				ke += 0.5 * cfg.mass * v * v;
			}
		/*
		 * The mean is subtracted in double: what is left is round-off
		 * of a sum of n terms, ~n * 1e-16 of sum |p|; 1e-10 is far
		 * above that and far below any real net momentum (~sqrt(n)).
		 */
		for (d = 0; d < 3; d++)
			ck_assert_msg(fabs(p[d]) <= 1e-10 * pabs[d],
				      "P_%d = %g (sum |p| %g)", d, p[d], pabs[d]);
		/* 2 KE / (3N - 3) = T: one scaling step, a few ulps */
		ck_assert_msg(fabs(2.0 * ke / (3.0 * st.n - 3.0) - T[k]) <= 1e-12 * T[k],
			      "T = %.17g, expected %.17g", 2.0 * ke / (3.0 * st.n - 3.0), T[k]);
		/* the scaling must not be a gross distortion: each component
		 * has variance T/m up to the 1/sqrt(3N) noise of the sample */
		for (d = 0; d < 3; d++) {
			double s2 = 0.0;

			for (i = 0; i < st.n; i++)
				s2 += st.v[3 * i + d] * st.v[3 * i + d];
			s2 /= st.n;
			ck_assert_msg(fabs(s2 * cfg.mass / T[k] - 1.0) < 5.0 * sqrt(2.0 / st.n),
				      "<v_%d^2> m / T = %g", d, s2 * cfg.mass / T[k]);
		}
		md_state_free(&st);
	}
}
END_TEST

START_TEST(velocities_seeded)
{
	md_config cfg;
	md_state a, b, c;
	int i, same = 0, diff = 0;

	make_lattice(&cfg, &a, 0.8442, 3, 3, 3);
	make_lattice(&cfg, &b, 0.8442, 3, 3, 3);
	make_lattice(&cfg, &c, 0.8442, 3, 3, 3);
	cfg.seed = 87287;
	md_setup_velocities(&cfg, &a);
	md_setup_velocities(&cfg, &b);
	cfg.seed = 87288;
	md_setup_velocities(&cfg, &c);
	for (i = 0; i < 3 * a.n; i++) {
		ck_assert_msg(a.v[i] == b.v[i], "same seed, v[%d] %.17g vs %.17g", i,
			      a.v[i], b.v[i]);
		if (a.v[i] == c.v[i])
			same++;
		else
			diff++;
	}
	/* a neighbouring seed must give unrelated numbers, not a few changes */
	ck_assert_int_eq(same, 0);
	ck_assert_int_eq(diff, 3 * a.n);
	md_state_free(&a);
	md_state_free(&b);
	md_state_free(&c);
}
END_TEST

/*
 * Random123 known-answer vectors (kat_vectors, philox4x32 with 10 rounds):
 * counter words 0..3, key words 0..1, expected output. md_philox takes the
 * key as one uint64 with key word 0 in the low 32 bits.
 */
START_TEST(philox_known_answers)
{
	static const uint32_t kat[3][10] = {
		{ 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u,
		  0x00000000u, 0x00000000u,
		  0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u },
		{ 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
		  0xffffffffu, 0xffffffffu,
		  0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu },
		{ 0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u,
		  0xa4093822u, 0x299f31d0u,
		  0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u },
	};
	int k, w;

	for (k = 0; k < 3; k++) {
		md_u4 ctr, out;
		uint64_t key = (uint64_t)kat[k][4] | ((uint64_t)kat[k][5] << 32);

		for (w = 0; w < 4; w++)
			ctr.v[w] = kat[k][w];
		out = md_philox(ctr, key);
		for (w = 0; w < 4; w++)
			ck_assert_msg(out.v[w] == kat[k][6 + w],
				      "KAT %d word %d: 0x%08x, expected 0x%08x", k, w,
				      out.v[w], kat[k][6 + w]);
	}
}
END_TEST

/*
 * Moments of md_gauss4 over M = 4 x 2^18 numbers. For a standard normal
 * sample: mean has sd 1/sqrt(M), variance sd sqrt(2/M), fourth moment
 * (3) sd sqrt(96/M), the product of two independent lanes sd 1/sqrt(M).
 * Each is asserted within 5 sd (a false alarm is a 6e-7 event, and the
 * seed is fixed, so the test is deterministic anyway).
 */
START_TEST(gauss4_moments)
{
	const uint32_t nblk = 1u << 18;
	double s1[4] = { 0 }, s2[4] = { 0 }, s4[4] = { 0 }, c01 = 0.0, c02 = 0.0;
	double m = nblk, mean, var, m4;
	long tail = 0;
	uint32_t i;
	int l;

	for (i = 0; i < nblk; i++) {
		double g[4];

		/* vary all of the counter words the engine uses */
		md_gauss4(2026u, i & 0xffffu, 7u, i >> 16, g);
		for (l = 0; l < 4; l++) {
			s1[l] += g[l];
			s2[l] += g[l] * g[l];
			s4[l] += g[l] * g[l] * g[l] * g[l];
			tail += fabs(g[l]) > 2.0;
		}
		c01 += g[0] * g[1];
		c02 += g[0] * g[2];
	}
	for (l = 0; l < 4; l++) {	/* each lane on its own, m numbers */
		mean = s1[l] / m;
		var = s2[l] / m - mean * mean;
		m4 = s4[l] / m;
		ck_assert_msg(fabs(mean) < 5.0 / sqrt(m), "lane %d mean %g", l, mean);
		ck_assert_msg(fabs(var - 1.0) < 5.0 * sqrt(2.0 / m), "lane %d var %g", l, var);
		ck_assert_msg(fabs(m4 - 3.0) < 5.0 * sqrt(96.0 / m), "lane %d <g^4> %g", l, m4);
	}
	ck_assert_msg(fabs(c01 / m) < 5.0 / sqrt(m), "<g0 g1> = %g", c01 / m);
	ck_assert_msg(fabs(c02 / m) < 5.0 / sqrt(m), "<g0 g2> = %g", c02 / m);
	/* P(|g| > 2) = 0.0455003; binomial sd sqrt(p (1 - p) / 4m) */
	ck_assert_msg(fabs(tail / (4.0 * m) - 0.0455003) <
		      5.0 * sqrt(0.0455 * 0.9545 / (4.0 * m)),
		      "P(|g| > 2) = %g", tail / (4.0 * m));
}
END_TEST

/* Different stream/step words give different numbers (no aliasing). */
START_TEST(gauss4_counter_words)
{
	double g[4][4];
	int a, b, l;

	md_gauss4(5u, 1u, 0u, 0u, g[0]);
	md_gauss4(5u, 0u, 1u, 0u, g[1]);
	md_gauss4(5u, 0u, 0u, 1u, g[2]);
	md_gauss4(5u | (1ull << 40), 1u, 0u, 0u, g[3]);	/* high key word */
	for (a = 0; a < 4; a++)
		for (b = a + 1; b < 4; b++)
			for (l = 0; l < 4; l++)
				ck_assert(g[a][l] != g[b][l]);
}
END_TEST

static Suite *setup_suite(void)
{
	Suite *s = suite_create("setup");
	TCase *lat = tcase_create("lattice"), *vel = tcase_create("velocities");
	TCase *rng = tcase_create("rng");

	tcase_add_test(lat, lattice_count_density_box);
	tcase_add_test(lat, lattice_fcc_geometry);
	tcase_add_test(vel, velocities_momentum_temperature);
	tcase_add_test(vel, velocities_seeded);
	tcase_add_test(rng, philox_known_answers);
	tcase_add_test(rng, gauss4_moments);
	tcase_add_test(rng, gauss4_counter_words);
	suite_add_tcase(s, lat);
	suite_add_tcase(s, vel);
	suite_add_tcase(s, rng);
	return s;
}

MD_TEST_MAIN(setup_suite)
