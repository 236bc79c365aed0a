/*
 * test_xyz.c - XYZ structures: write then read gives identical doubles;
 * malformed files give exit 2 with a message naming the file and line;
 * random placement keeps the minimum distance (checked by brute force).
 */
#include "testutil.h"
#include "../engine/xyz.h"

static char tmpdir[] = "/tmp/mdsim_xyz_XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Reads text; expects failure whose message holds ":LINE:" and frag. */
static void expect_error(const char *text, int line, const char *frag)
{
	const char *path = write_file("bad.xyz", text);
	char *msg = NULL, want[32];
	size_t len = 0;
	FILE *err = open_memstream(&msg, &len);
	md_state st;
	int has_v, rc;

	rc = md_xyz_read(path, 0.5, &st, &has_v, err);
	fclose(err);
	ck_assert_msg(rc == MD_EXIT_INPUT, "rc %d for:\n%s", rc, text);
	snprintf(want, sizeof(want), ":%d:", line);
	ck_assert_msg(strstr(msg, want), "no line %d in: %s", line, msg);
	ck_assert_msg(strstr(msg, frag), "no \"%s\" in: %s", frag, msg);
	ck_assert_msg(strstr(msg, path), "no file name in: %s", msg);
	free(msg);
}

START_TEST(round_trip)
{
	md_config cfg;
	md_state a, b;
	int has_v, i;
	const char *path;

	test_config(&cfg, 0.8442, 3, 1.5, 2.5, MD_SHIFT_NONE);
	ck_assert_int_eq(md_setup_lattice(&cfg, &a), 0);
	md_setup_velocities(&cfg, &a);
	for (i = 0; i < 3 * a.n; i++)	/* values that need all 17 digits */
		a.x[i] = fmod(a.x[i] + 0.1 + 1e-13 * i, a.box[i % 3]);
	path = write_file("rt.xyz", "");
	ck_assert_int_eq(md_xyz_write(path, &a, stderr), 0);
	ck_assert_int_eq(md_xyz_read(path, 0.5, &b, &has_v, stderr), 0);
	ck_assert_int_eq(b.n, a.n);
	ck_assert_int_eq(has_v, 1);
	for (i = 0; i < 3; i++)
		ck_assert(b.box[i] == a.box[i]);
	for (i = 0; i < 3 * a.n; i++) {
		ck_assert_msg(b.x[i] == a.x[i], "x[%d] %.17g != %.17g", i, b.x[i], a.x[i]);
		ck_assert(b.v[i] == a.v[i]);
	}
	md_state_free(&a);
	md_state_free(&b);
}
END_TEST

START_TEST(plain_format)
{
	const char *path = write_file("plain.xyz",
		"10 11 12\n2\n0 1 2 3\n0 5 6 7\n");
	md_state st;
	int has_v;

	ck_assert_int_eq(md_xyz_read(path, 0.5, &st, &has_v, stderr), 0);
	ck_assert_int_eq(st.n, 2);
	ck_assert_int_eq(has_v, 0);
	ck_assert(st.box[0] == 10.0 && st.box[1] == 11.0 && st.box[2] == 12.0);
	ck_assert(st.x[3] == 5.0 && st.x[4] == 6.0 && st.x[5] == 7.0);
	md_state_free(&st);
}
END_TEST

START_TEST(malformed)
{
	const char *lat = "Lattice=\"10 0 0 0 10 0 0 0 10\"\n";
	char t[512];

	snprintf(t, sizeof(t), "3\n%sAr 1 1 1\nAr 3 3 3\n", lat);
	expect_error(t, 4, "ends after 2 of 3");
	snprintf(t, sizeof(t), "2\n%sAr 1 1 1\nAr 3 3 3\nAr 5 5 5\n", lat);
	expect_error(t, 5, "more particle lines");
	snprintf(t, sizeof(t), "2\n%sAr 1 1 1\nAr 3 x 3\n", lat);
	expect_error(t, 4, "expected");
	snprintf(t, sizeof(t), "2\n%sAr 1 1 1\nAr 3 3 nan\n", lat);
	expect_error(t, 4, "expected");
	snprintf(t, sizeof(t), "2\n%sAr 1 1 1\nAr 3 10.5 3\n", lat);
	expect_error(t, 4, "outside the box");
	snprintf(t, sizeof(t), "2\n%sAr 1 1 1\nAr -0.1 3 3\n", lat);
	expect_error(t, 4, "outside the box");
	snprintf(t, sizeof(t), "3\n%sAr 1 1 1\nAr 5 5 5\nAr 1.3 1 1\n", lat);
	expect_error(t, 5, "closer than 0.5");
	/* across the periodic boundary: 0.2 and 9.9 are 0.3 apart */
	snprintf(t, sizeof(t), "2\n%sAr 0.2 5 5\nAr 9.9 5 5\n", lat);
	expect_error(t, 4, "closer than 0.5");
	expect_error("x\nLattice=\"10 0 0 0 10 0 0 0 10\"\n", 1, "particle count");
	expect_error("2\nno box here\nAr 1 1 1\nAr 2 2 2\n", 2, "Lattice");
	expect_error("1\nLattice=\"10 1 0 0 10 0 0 0 10\"\nAr 1 1 1\n", 2, "orthorhombic");
	expect_error("10 10 -1\n1\n0 1 1 1\n", 1, "box edge");
	snprintf(t, sizeof(t), "2\n%sAr 1 1 1 0 0 0\nAr 3 3 3\n", lat);
	expect_error(t, 4, "velocities");
	expect_error("99999999999\nLattice=\"10 0 0 0 10 0 0 0 10\"\n", 1, "particle count");
	/* a huge but legal count in a tiny file: refused before allocating */
	expect_error("11 12 01\n 254444444\n", 2, "can hold at most");
}
END_TEST

START_TEST(random_placement)
{
	md_config cfg;
	md_state st;
	double dmin = 1e9;
	int i, j, d;

	test_config(&cfg, 0.3, 1, 1.0, 2.5, MD_SHIFT_NONE);
	snprintf(cfg.lattice, sizeof(cfg.lattice), "random");
	cfg.particles = 700;
	cfg.min_distance = 0.9;
	ck_assert_int_eq(md_setup_initial(&cfg, &st, NULL), 0);
	ck_assert_int_eq(st.n, 700);
	ck_assert(fabs(st.n / (st.box[0] * st.box[1] * st.box[2]) - 0.3) < 1e-12);
	for (i = 0; i < st.n; i++)
		for (j = i + 1; j < st.n; j++) {
			double r2 = 0.0;

			for (d = 0; d < 3; d++) {
				double u = st.x[3 * i + d] - st.x[3 * j + d];

				u -= st.box[d] * nearbyint(u / st.box[d]);
				r2 += u * u;
			}
			dmin = fmin(dmin, sqrt(r2));
		}
	ck_assert_msg(dmin >= 0.9, "closest pair %g", dmin);
	for (i = 0; i < 3 * st.n; i++)
		ck_assert(st.x[i] >= 0.0 && st.x[i] < st.box[i % 3]);
	md_state_free(&st);
}
END_TEST

static Suite *xyz_suite(void)
{
	Suite *s = suite_create("xyz");
	TCase *t = tcase_create("xyz");

	if (!mkdtemp(tmpdir))	/* in the parent: forked tests share it */
		abort();
	tcase_add_test(t, round_trip);
	tcase_add_test(t, plain_format);
	tcase_add_test(t, malformed);
	tcase_add_test(t, random_placement);
	suite_add_tcase(s, t);
	return s;
}

MD_TEST_MAIN(xyz_suite)
