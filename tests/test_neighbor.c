/*
 * test_neighbor.c - the CPU backend's cell list, neighbour list and forces
 * against O(N^2) references on random configurations (several box shapes,
 * boxes only just 2 (rc + skin) wide so that the cell stencil wraps onto
 * itself, particles on and next to the periodic boundaries, a clustered
 * system that overflows the first list guess), before and after moving;
 * and the perfect fcc lattice against its published energies, virial and
 * neighbour count.
 */
#include "testutil.h"
#include "../engine/cpu_backend.h"

#define RC 2.5

/* splitmix64: the test's own generator, unrelated to the engine's Philox. */
static uint64_t rng_state;

static double urand(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)(z >> 11) * (1.0 / 9007199254740992.0);	/* [0, 1) */
}

/*
 * n particles uniform in the box (restricted to [0, frac L) in every
 * direction when frac < 1), no two closer than dmin (minimum image). About a quarter of
 * the particles get one or more coordinates snapped onto or next to a
 * periodic boundary: 0, 1e-12, L - 1e-12, the largest double below L.
 */
static void random_state(md_state *st, const double box[3], int n, double dmin,
			 double frac)
{
	int i = 0, tries = 0, d;

	ck_assert_int_eq(md_state_alloc(st, n), 0);
	for (d = 0; d < 3; d++)
		st->box[d] = box[d];
	while (i < n) {
		int j, ok = 1;

		MD_CHECK(++tries < 1000 * n, "cannot place %d particles", n);
		for (d = 0; d < 3; d++) {
			double L = box[d] * frac;

			st->x[3 * i + d] = urand() * L;
			if (urand() < 0.1) {
				double edge[4] = { 0.0, 1e-12, box[d] - 1e-12,
						   nextafter(box[d], 0.0) };

				st->x[3 * i + d] = edge[(int)(urand() * 4)];
			}
		}
		for (j = 0; j < i && ok; j++)
			ok = test_min_image_r2(st, i, j) >= dmin * dmin;
		if (ok)
			i++;
	}
}

/* Maxwell-Boltzmann-ish velocities at temperature T (m = 1), no momentum. */
static void random_velocities(md_state *st, double T)
{
	double p[3] = { 0 };
	int i, d;

	for (i = 0; i < st->n; i++)
		for (d = 0; d < 3; d++) {
			/* sum of 12 uniforms - 6: variance 1 */
			double g = -6.0;
			int k;

			for (k = 0; k < 12; k++)
				g += urand();
			st->v[3 * i + d] = sqrt(T) * g;
			p[d] += st->v[3 * i + d];
		}
	for (i = 0; i < st->n; i++)
		for (d = 0; d < 3; d++)
			st->v[3 * i + d] -= p[d] / st->n;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * (a) with fresh=1: the list of every particle is exactly the set of j
 *     with |r_ij| < rc + skin (minimum image), no duplicates, no self;
 * with fresh=0 (after steps without a rebuild): every j with |r_ij| < rc
 *     is in i's list (the Verlet invariant that makes the forces right).
 * Pairs within 1e-9 of the list radius are not judged (round-off).
 */
static void check_lists(md_backend *b, const md_state *st, double skin, int fresh)
{
	int n = st->n, i, j, k, cnt, *list = malloc(sizeof(int) * (size_t)n);
	double rl2 = (RC + skin) * (RC + skin), rc2 = RC * RC;
	char *in = malloc((size_t)n);

	ck_assert(list && in);
	for (i = 0; i < n; i++) {
		cnt = md_cpu_neighbors(b, i, list, n);
		MD_CHECK(cnt >= 0 && cnt < n, "particle %d: count %d", i, cnt);
		qsort(list, (size_t)cnt, sizeof(int), cmp_int);
		memset(in, 0, (size_t)n);
		for (k = 0; k < cnt; k++) {
			MD_CHECK(list[k] >= 0 && list[k] < n && list[k] != i,
				      "particle %d: bad entry %d", i, list[k]);
			MD_CHECK(k == 0 || list[k] != list[k - 1],
				      "particle %d: %d listed twice", i, list[k]);
			in[list[k]] = 1;
		}
		for (j = 0; j < n; j++) {
			double r2;

			if (j == i)
				continue;
			r2 = test_min_image_r2(st, i, j);
			if (fresh && fabs(r2 - rl2) > 1e-9)
				MD_CHECK(in[j] == (r2 < rl2),
					      "pair %d %d at r %.15g, list radius %g: %s",
					      i, j, sqrt(r2), RC + skin,
					      in[j] ? "listed but outside" : "missing");
			if (!fresh && r2 < rc2 - 1e-9)
				MD_CHECK(in[j], "pair %d %d at r %.15g < rc missing",
					      i, j, sqrt(r2));
		}
	}
	free(list);
	free(in);
}

/*
 * (b) forces, energy and virial of the backend (downloaded into st) against
 * test_brute_force at the same positions. Both sum the same pair terms in
 * a different order: round-off is ~1e-16 x (number of terms) x (largest
 * term), so 1e-10 of the largest force component, and of the sum of
 * |pair energies| for the totals, is generous yet would catch one missing
 * or doubled pair.
 */
static void check_forces(md_backend *b, md_state *st, const md_config *cfg)
{
	int n = st->n, i, j;
	double *f = malloc(sizeof(double) * 3 * (size_t)n), pe, w, fmax = 0.0;
	double eabs = 0.0, wabs = 0.0, ke = 0.0;
	md_lj_d lj;
	md_thermo th;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(b->ops->download(b, st, MD_F_X | MD_F_V | MD_F_F), 0);
	ck_assert_int_eq(b->ops->thermo(b, &th), 0);
	md_lj_coeff_init_d(&lj, cfg->epsilon, cfg->sigma, cfg->cutoff, cfg->shift);
	test_brute_force(st, &lj, f, &pe, &w);
	for (i = 0; i < 3 * n; i++)
		fmax = fabs(f[i]) > fmax ? fabs(f[i]) : fmax;
	for (i = 0; i < 3 * n; i++)
		MD_CHECK(fabs(st->f[i] - f[i]) <= 1e-10 * fmax + 1e-300,
			      "f[%d][%d] = %.15g, brute force %.15g", i / 3, i % 3,
			      st->f[i], f[i]);
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			double r2 = test_min_image_r2(st, i, j), e, fr;

			if (r2 < lj.rc2) {
				fr = md_lj_pair_d(r2, &lj, &e);
				eabs += fabs(e);
				wabs += fabs(r2 * fr);
			}
		}
		ke += 0.5 * cfg->mass * (st->v[3 * i] * st->v[3 * i] +
					 st->v[3 * i + 1] * st->v[3 * i + 1] +
					 st->v[3 * i + 2] * st->v[3 * i + 2]);
	}
	MD_CHECK(fabs(th.pe - pe) <= 1e-10 * eabs, "pe %.15g, brute force %.15g",
		      th.pe, pe);
	MD_CHECK(fabs(th.virial - w) <= 1e-10 * wabs, "W %.15g, brute force %.15g",
		      th.virial, w);
	MD_CHECK(fabs(th.ke - ke) <= 1e-12 * ke, "ke %.15g, from v %.15g", th.ke, ke);
	for (i = 0; i < 3 * n; i++) {
		int d = i % 3;

		MD_CHECK(st->x[i] >= 0.0 && st->x[i] < st->box[d],
			 "x[%d][%d] = %.17g outside [0, %.17g)", i / 3, d, st->x[i],
			 st->box[d]);
	}
	free(f);
}

/* Box shapes in units of the list radius rl = rc + skin. */
static const double shapes[][3] = {
	{ 2.01, 2.01, 2.01 },	/* 2 cells a side: stencil wraps onto itself */
	{ 2.02, 3.1, 4.3 },	/* 2, 3 and 4 cells */
	{ 3.05, 2.005, 5.2 },
};
static const double skins[] = { 0.0, 0.3, 1.0 };

static void random_case(int shape, int skin_i, int shift, double frac,
			int steps)
{
	double skin = skins[skin_i], rl = RC + skin, box[3], vol;
	md_config cfg;
	md_state st;
	md_backend b = { &md_cpu_backend, NULL };
	int d, n;

	rng_state = 1000u * (uint64_t)shape + 10u * (uint64_t)skin_i + (uint64_t)shift;
	for (d = 0; d < 3; d++)
		box[d] = shapes[shape][d] * rl;
	vol = box[0] * box[1] * box[2];
	/* density 0.6, or 1.0 inside the occupied corner of the box */
	n = frac < 1.0 ? (int)(vol * frac * frac * frac) : (int)(0.6 * vol);
	random_state(&st, box, n, 0.8, frac);
	random_velocities(&st, 2.0);	/* hot: lists age fast */
	test_config(&cfg, 0.6, 2, 1.0, RC, shift);
	cfg.skin = skin;
	cfg.dt = 0.002;
	/*
	 * Static cases use every core (the threaded build and force loops
	 * are what is compared); the moving ones take many short runs, where
	 * OpenMP barriers on cores shared with other jobs cost more than the
	 * work, so they use one thread.
	 */
	cfg.threads = steps ? 1 : 0;
	ck_assert_int_eq(md_cpu_backend.init(&b, &cfg, &st), 0);
	check_lists(&b, &st, skin, 1);
	check_forces(&b, &st, &cfg);
	if (steps) {
		/*
		 * move: particles cross the boundaries, lists age until a
		 * rebuild; the Verlet invariant must hold after every chunk
		 */
		int k;

		for (k = 0; k < steps; k += 5) {
			ck_assert_int_eq(b.ops->run(&b, 5), 0);
			ck_assert_int_eq(b.ops->download(&b, &st, MD_F_X), 0);
			check_lists(&b, &st, skin, 0);
		}
		check_forces(&b, &st, &cfg);
	}
	b.ops->destroy(&b);
	md_state_free(&st);
}

START_TEST(random_lists_and_forces)
{
	int shape, skin_i;

	for (shape = 0; shape < 3; shape++)
		for (skin_i = 0; skin_i < 3; skin_i++)
			random_case(shape, skin_i, shape, 1.0, 0);
}
END_TEST

START_TEST(random_after_moving)
{
	int shape, skin_i;

	for (shape = 0; shape < 3; shape++)
		for (skin_i = 0; skin_i < 3; skin_i++)
			random_case(shape, skin_i, (shape + skin_i) % 3, 1.0, 150);
}
END_TEST

/*
 * All particles in one corner (a few on the far boundaries): the list,
 * sized from the mean density, must grow (never truncate) to the local one.
 */
START_TEST(clustered_overflow)
{
	random_case(1, 2, MD_SHIFT_NONE, 0.4, 0);
	random_case(2, 1, MD_SHIFT_FORCE, 0.4, 20);
}
END_TEST

START_TEST(bad_index)
{
	md_config cfg;
	md_state st;
	md_backend b = { &md_cpu_backend, NULL };
	int out[4];

	test_config(&cfg, 0.8442, 4, 1.0, RC, MD_SHIFT_NONE);
	ck_assert_int_eq(md_setup_lattice(&cfg, &st), 0);
	ck_assert_int_eq(md_cpu_backend.init(&b, &cfg, &st), 0);
	ck_assert_int_eq(md_cpu_neighbors(&b, -1, out, 4), -1);
	ck_assert_int_eq(md_cpu_neighbors(&b, st.n, out, 4), -1);
	/* max smaller than the count: count still full, no overrun */
	ck_assert_int_gt(md_cpu_neighbors(&b, 0, out, 4), 4);
	b.ops->destroy(&b);
	md_state_free(&st);
}
END_TEST

/*
 * Perfect fcc at density 0.8442, rc 2.5 (DESIGN.md reference values):
 * U/N = -6.7733680533 (plain), -6.3328119926 (energy-shifted), W/(3V) =
 * -6.2353172701, 54 neighbours inside rc. The references are given to 11
 * digits; 1e-9 relative leaves room for their rounding and nothing else.
 * The force-shifted energy has no published value: it is summed here over
 * the infinite fcc lattice, shell by shell, from the textbook formula.
 */
static double fcc_lattice_sum_sf(double rho, double rc)
{
	double a = cbrt(4.0 / rho), sum = 0.0, vc, fc;
	int m = (int)(rc / a) + 2, i, j, k;

	vc = 4.0 * (pow(rc, -12) - pow(rc, -6));
	fc = 24.0 / rc * (2.0 * pow(rc, -12) - pow(rc, -6));
	/* fcc = simple cubic points (i, j, k) a/2 with i + j + k even */
	for (i = -2 * m; i <= 2 * m; i++)
		for (j = -2 * m; j <= 2 * m; j++)
			for (k = -2 * m; k <= 2 * m; k++) {
				double r;

				if ((i + j + k) % 2 || (!i && !j && !k))
					continue;
				r = 0.5 * a * sqrt((double)(i * i + j * j + k * k));
				if (r < rc)
					sum += 4.0 * (pow(r, -12) - pow(r, -6)) - vc +
					       (r - rc) * fc;
			}
	return 0.5 * sum;
}

START_TEST(fcc_reference_values)
{
	static const int cells[][3] = { { 4, 4, 4 }, { 5, 5, 5 }, { 4, 5, 6 } };
	static const double ref_pe[3] = { -6.7733680533, -6.3328119926, 0.0 };
	const double ref_pw = -6.2353172701;
	int c, shift;

	for (c = 0; c < 3; c++)
		for (shift = 0; shift < 3; shift++) {
			md_config cfg;
			md_state st;
			md_backend b = { &md_cpu_backend, NULL };
			md_thermo th;
			double vol, ref = shift == MD_SHIFT_FORCE ?
				fcc_lattice_sum_sf(0.8442, RC) : ref_pe[shift];
			int i;

			test_config(&cfg, 0.8442, 4, 1.0, RC, shift);
			cfg.cells[0] = cells[c][0];
			cfg.cells[1] = cells[c][1];
			cfg.cells[2] = cells[c][2];
			ck_assert_int_eq(md_setup_lattice(&cfg, &st), 0);
			ck_assert_int_eq(md_cpu_backend.init(&b, &cfg, &st), 0);
			ck_assert_int_eq(b.ops->thermo(&b, &th), 0);
			vol = st.box[0] * st.box[1] * st.box[2];
			MD_CHECK(fabs(th.pe / st.n - ref) <= 1e-9 * fabs(ref),
				      "shift %d cells %d: U/N %.12f, expected %.12f",
				      shift, c, th.pe / st.n, ref);
			if (shift != MD_SHIFT_FORCE)
				MD_CHECK(fabs(th.virial / (3.0 * vol) - ref_pw) <=
					      1e-9 * fabs(ref_pw),
					      "W/3V %.12f, expected %.12f",
					      th.virial / (3.0 * vol), ref_pw);
			/* perfect lattice: no net force on any particle */
			ck_assert_int_eq(b.ops->download(&b, &st, MD_F_F), 0);
			for (i = 0; i < 3 * st.n; i++)
				MD_CHECK(fabs(st.f[i]) < 1e-10, "f[%d] = %g", i,
					      st.f[i]);
			b.ops->destroy(&b);
			md_state_free(&st);
		}
	/* the lattice sum itself reproduces the published plain value */
	{
		double a = cbrt(4.0 / 0.8442), s = 0.0;
		int i, j, k, m = 5;

		for (i = -2 * m; i <= 2 * m; i++)
			for (j = -2 * m; j <= 2 * m; j++)
				for (k = -2 * m; k <= 2 * m; k++) {
					double r = 0.5 * a * sqrt((double)(i * i + j * j + k * k));

					if ((i + j + k) % 2 == 0 && (i || j || k) && r < RC)
						s += 4.0 * (pow(r, -12) - pow(r, -6));
				}
		ck_assert(fabs(0.5 * s - ref_pe[0]) <= 1e-9 * fabs(ref_pe[0]));
	}
}
END_TEST

/* 54 neighbours inside rc (skin 0); 78 inside rc + 0.3 (shells to 2.66). */
START_TEST(fcc_neighbor_counts)
{
	static const struct { double skin; int count; } k[] = { { 0.0, 54 }, { 0.3, 78 } };
	int t, i, list[200];

	for (t = 0; t < 2; t++) {
		md_config cfg;
		md_state st;
		md_backend b = { &md_cpu_backend, NULL };
		md_stats s;

		test_config(&cfg, 0.8442, 5, 1.0, RC, MD_SHIFT_NONE);
		cfg.skin = k[t].skin;
		ck_assert_int_eq(md_setup_lattice(&cfg, &st), 0);
		ck_assert_int_eq(md_cpu_backend.init(&b, &cfg, &st), 0);
		for (i = 0; i < st.n; i++) {
			int cnt = md_cpu_neighbors(&b, i, list, 200), j, within = 0;

			MD_CHECK(cnt == k[t].count, "particle %d: %d neighbours, expected %d",
				 i, cnt, k[t].count);
			for (j = 0; j < cnt; j++)
				within += test_min_image_r2(&st, i, list[j]) < RC * RC;
			MD_CHECK(within == 54, "particle %d: %d inside rc", i, within);
		}
		b.ops->stats(&b, &s);
		ck_assert(fabs(s.avg_neighbors - k[t].count) < 1e-12);
		b.ops->destroy(&b);
		md_state_free(&st);
	}
}
END_TEST

static Suite *neighbor_suite(void)
{
	Suite *s = suite_create("neighbor");
	TCase *rnd = tcase_create("random"), *fcc = tcase_create("fcc");

	tcase_set_timeout(rnd, 60);
	tcase_add_test(rnd, random_lists_and_forces);
	tcase_add_test(rnd, random_after_moving);
	tcase_add_test(rnd, clustered_overflow);
	tcase_add_test(rnd, bad_index);
	tcase_add_test(fcc, fcc_reference_values);
	tcase_add_test(fcc, fcc_neighbor_counts);
	suite_add_tcase(s, rnd);
	suite_add_tcase(s, fcc);
	return s;
}

MD_TEST_MAIN(neighbor_suite)
