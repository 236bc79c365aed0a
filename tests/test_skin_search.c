/*
 * test_skin_search.c - neighbor.autotune_skin's search (md_skin_search)
 * on made-up rate curves instead of timed trials, so that which skins it
 * tries, in which order, and which it keeps can be checked exactly. The
 * expected lists are worked out by hand below from the rules in sim.c:
 * the configured skin; 0.2 ... 0.8 up to the first past the fastest at
 * under 0.9 of its rate; the skins within 5% of the fastest grown to the
 * largest skin of their cell grid (floor(L / (rc + s)) cells, so the
 * skin L / cells - rc); then +-0.05 and +-0.025 around the fastest.
 */
#include "testutil.h"
#include "../engine/config.h"
#include "../engine/sim.h"

typedef struct curve {
	double a;		/* rate 1000 - a (s - 0.34)^2; 0: every trial fails */
	double fail;		/* a skin whose trial fails (-1: none) */
	double calls[64];
	int ncalls;
} curve;

/* a = 4000: 0.3 993.6, 0.2 921.6, 0.4 985.6, 0.5 897.6, 0.6 729.6,
 * 0.25 967.6, 0.35 999.6, 0.325 999.1, 0.375 995.1;
 * a = 2500: 0.3 996, 0.2 951, 0.4 991, 0.5 936, 0.6 831, 0.2727 988.7,
 * 0.5499 889.9, 0.25 979.8, 0.35 999.8;
 * a = 8000: 0.5 795.2, 0.2 843.2, 0.3 987.2, 0.4 971.2, 0.6 459.2, 0.5499 647.5,
 * 0.25 935.2, 0.35 999.2, 0.325 998.2, 0.375 990.2 */
static double rate(void *ctx, const md_config *c)
{
	curve *k = (curve *)ctx;
	const double d = c->skin - 0.34;

	ck_assert_int_lt(k->ncalls, 64);
	k->calls[k->ncalls++] = c->skin;
	if (k->a == 0.0 || fabs(c->skin - k->fail) < 1e-9)
		return -3.0;
	return 1000.0 - k->a * d * d;
}

/*
 * md_skin_search on the cubic box edge L, rc 2.5, configured skin skin0,
 * with curve k (calls empty) and host memory avail (<= 0: unlimited);
 * the trials must be want[0..n) (to 2e-4: the grown skins are rounded
 * down to 4 decimals, 30.5 / 10 - 2.5 gives 0.5499) and the choice
 * `chosen`.
 */
static void check_search(double L, double skin0, curve k, double avail, const double *want,
			 int n, double chosen)
{
	const double box[3] = { L, L, L };
	char got[1024] = "";
	md_config cfg;
	double s;
	int i;

	test_config(&cfg, 0.8442, 10, 1.0, 2.5, MD_SHIFT_NONE);
	cfg.skin = skin0;
	s = md_skin_search(&cfg, box, avail, 1, rate, &k, NULL);
	for (i = 0; i < k.ncalls; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), " %.4f", k.calls[i]);
	ck_assert_msg(k.ncalls == n, "%d trials, expected %d:%s", k.ncalls, n, got);
	for (i = 0; i < n; i++)
		ck_assert_msg(fabs(k.calls[i] - want[i]) < 2e-4,
			      "trial %d at %.4f, expected %.4f:%s", i, k.calls[i], want[i], got);
	ck_assert_msg(fabs(s - chosen) < 1e-9, "chose %g, expected %g:%s", s, chosen, got);
}

#define NWANT(w) ((int)(sizeof(w) / sizeof((w)[0])))

/*
 * Box 30.5, rc 2.5, configured skin 0.3, a = 4000. Grid: 0.3 (993.6),
 * 0.2, 0.4, 0.5 (897.6 >= 0.9 x 993.6 = 894.2: on), 0.6 (729.6: stop;
 * 0.7 and 0.8 not tried). Within 5% of 993.6: 0.3 and 0.4, both 10 cells
 * (30.5 / 2.8 and / 2.9) of 3.05: 0.55 (once). Not 0.2 (11 cells:
 * 0.2727), 0.5 or 0.6 (9 cells: 0.8888). Then 0.25, 0.35 (999.6, the
 * fastest), 0.325, 0.375.
 */
START_TEST(search_order)
{
	const double want[] = { 0.3, 0.2, 0.4, 0.5, 0.6, 0.55, 0.25, 0.35, 0.325, 0.375 };
	const curve k = { 4000.0, -1.0, { 0 }, 0 };

	check_search(30.5, 0.3, k, -1.0, want, NWANT(want), 0.35);
}
END_TEST

/*
 * The flatter curve (a = 2500): 0.6 at 0.83 of the fastest stops the
 * grid (0.7 not tried), and 0.2 (951 >= 0.95 x 996) is grown as well: 11
 * cells of 2.7727, 0.2727, after 0.3's 0.55 (0.4's 0.55 again is not
 * rerun).
 */
START_TEST(search_stop_and_grow)
{
	const double want[] = { 0.3, 0.2, 0.4, 0.5, 0.6, 0.55, 0.2727, 0.25, 0.35, 0.325, 0.375 };
	const curve k = { 2500.0, -1.0, { 0 }, 0 };

	check_search(30.5, 0.3, k, -1.0, want, NWANT(want), 0.35);
}
END_TEST

/*
 * As search_stop_and_grow, but the trial at 0.2 fails: it is not grown
 * (no 0.2727), and the rest is unchanged.
 */
START_TEST(search_failed_not_grown)
{
	const double want[] = { 0.3, 0.2, 0.4, 0.5, 0.6, 0.55, 0.25, 0.35, 0.325, 0.375 };
	const curve k = { 2500.0, 0.2, { 0 }, 0 };

	check_search(30.5, 0.3, k, -1.0, want, NWANT(want), 0.35);
}
END_TEST

/*
 * The configured skin on the grid: 0.5 (795.2) first, then 0.2, 0.3
 * (987.2), 0.4; 0.5 is not run again, and though its first rate is below
 * 0.9 x 987.2 it does not stop the climb (it ran first, cold); 0.6
 * (459.2) does. 0.3 and 0.4 grow to 0.55; then 0.25, 0.35 (999.2),
 * 0.325, 0.375.
 */
START_TEST(search_configured_on_grid)
{
	const double want[] = { 0.5, 0.2, 0.3, 0.4, 0.6, 0.55, 0.25, 0.35, 0.325, 0.375 };
	const curve k = { 8000.0, -1.0, { 0 }, 0 };

	check_search(30.5, 0.5, k, -1.0, want, NWANT(want), 0.35);
}
END_TEST

/*
 * Every trial fails (a GPU out of memory, say): all grid skins that fit
 * the box 8.4 (2 (2.5 + s) <= 8.4 for all of 0.2 ... 0.8) are tried, no
 * grown or neighbouring skin (nothing is fastest), and the configured
 * skin comes back.
 */
START_TEST(search_all_fail)
{
	const double want[] = { 0.3, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8 };
	const curve k = { 0.0, -1.0, { 0 }, 0 };

	check_search(8.4, 0.3, k, -1.0, want, NWANT(want), 0.3);
}
END_TEST

/*
 * Host memory for the configured skin only (cfg_host_bytes grows with the
 * skin on the CPU backend's list): no skin above 0.3 runs. 0.3 and 0.2;
 * 0.2 (921.6) is not within 5% of 993.6, so its grown 0.2727 is not
 * tried; then 0.25 (967.6), 0.35 refused, 0.275 (983.1), 0.325 refused:
 * 0.3 stays the fastest.
 */
START_TEST(search_host_memory)
{
	const double want[] = { 0.3, 0.2, 0.25, 0.275 };
	const curve k = { 4000.0, -1.0, { 0 }, 0 };
	md_config cfg;
	double avail;

	test_config(&cfg, 0.8442, 10, 1.0, 2.5, MD_SHIFT_NONE);
	cfg.skin = 0.3;
	avail = cfg_host_bytes(&cfg, 1);
	cfg.skin = 0.31;
	ck_assert(cfg_host_bytes(&cfg, 1) > avail);	/* the premise */
	check_search(30.5, 0.3, k, avail, want, NWANT(want), 0.3);
}
END_TEST

static Suite *skin_search_suite(void)
{
	Suite *s = suite_create("skin_search");
	TCase *t = tcase_create("skin_search");

	tcase_add_test(t, search_order);
	tcase_add_test(t, search_stop_and_grow);
	tcase_add_test(t, search_failed_not_grown);
	tcase_add_test(t, search_configured_on_grid);
	tcase_add_test(t, search_all_fail);
	tcase_add_test(t, search_host_memory);
	suite_add_tcase(s, t);
	return s;
}

MD_TEST_MAIN(skin_search_suite)
