/*
 * test_nve.c - constant-energy runs of the CPU backend (velocity Verlet,
 * force-shifted LJ): the energy error scales as dt^2, stays bounded over
 * thousands of steps, momentum is conserved to round-off, and the
 * trajectory does not depend on when the neighbour list is rebuilt.
 *
 * System: 256 atoms (4 x 4 x 4 fcc cells) at density 0.8442, started at
 * T = 1.44 and melted for 1000 steps (5 tau) so that the tests start from
 * a liquid, not from the lattice transient. One OpenMP thread: the system
 * is too small to gain from more, and the numbers do not depend on the
 * machine's core count.
 */
#include "testutil.h"

static md_config base;
static md_state liquid;		/* melted state: x, v, image */

static void make_liquid(void)
{
	md_backend b = { &md_cpu_backend, NULL };

	test_config(&base, 0.8442, 4, 1.44, 2.5, MD_SHIFT_FORCE);
	base.threads = 1;
	base.seed = 2026;
	ck_assert_int_eq(md_setup_lattice(&base, &liquid), 0);
	md_setup_velocities(&base, &liquid);
	ck_assert_int_eq(md_cpu_backend.init(&b, &base, &liquid), 0);
	ck_assert_int_eq(b.ops->run(&b, 1000), 0);
	ck_assert_int_eq(b.ops->download(&b, &liquid, MD_F_X | MD_F_V | MD_F_IMAGE), 0);
	b.ops->destroy(&b);
	liquid.step = 0;
}

static void free_liquid(void)
{
	md_state_free(&liquid);
}

static double total_energy(md_backend *b)
{
	md_thermo th;

	ck_assert_int_eq(b->ops->thermo(b, &th), 0);
	return th.pe + th.ke;
}

/*
 * E(t) - E(0) at t = k * 0.005 (k = 1..m) for a run at time step dt
 * (0.005 / dt steps between samples).
 */
static void energy_series(double dt, int m, double *de)
{
	md_config cfg = base;
	md_backend b = { &md_cpu_backend, NULL };
	int k, per = (int)(0.005 / dt + 0.5);
	double e0;

	cfg.dt = dt;
	ck_assert_int_eq(md_cpu_backend.init(&b, &cfg, &liquid), 0);
	e0 = total_energy(&b);
	for (k = 0; k < m; k++) {
		ck_assert_int_eq(b.ops->run(&b, per), 0);
		de[k] = total_energy(&b) - e0;
	}
	b.ops->destroy(&b);
}

static double sd(const double *x, int m)
{
	double s = 0.0, s2 = 0.0;
	int k;

	for (k = 0; k < m; k++)
		s += x[k];
	s /= m;
	for (k = 0; k < m; k++)
		s2 += (x[k] - s) * (x[k] - s);
	return sqrt(s2 / m);
}

/*
 * Velocity Verlet is symplectic: it conserves a shadow Hamiltonian
 * H~ = H + dt^2 H2 + O(dt^4), so E(t) - E(0) = dt^2 [H2(0) - H2(t)] + ...:
 * halving dt divides the fluctuation by 4. Over the first tau the runs at
 * dt and dt/2 follow the same trajectory (they differ by O(dt^2) grown by
 * the Lyapunov factor, a few per tau), so the two series are the same
 * function scaled by 4 up to O((dt omega)^2) ~ 1e-3: ratio 4 within a few
 * per cent (measured 4.00-4.05 over five seeds). Over 2 tau the
 * trajectories decorrelate and the ratio is a ratio of two sampled
 * fluctuations (measured 3.8-4.4): [3, 5]. A first-order integrator gives
 * 2, an inconsistent half-kick or a force that is not -grad U gives an
 * error that does not shrink like dt^2.
 */
START_TEST(energy_error_scales_as_dt_squared)
{
	enum { M = 400 };	/* 2 tau in samples of 0.005 */
	double a[M], h[M], r1, r2;

	energy_series(0.005, M, a);
	energy_series(0.0025, M, h);
	r1 = sd(a, M / 2) / sd(h, M / 2);
	r2 = sd(a, M) / sd(h, M);
	ck_assert_msg(sd(a, M) > 0.0 && sd(h, M) > 0.0, "no fluctuation at all?");
	ck_assert_msg(r1 > 3.7 && r1 < 4.3, "fluctuation ratio over 1 tau: %g (sd %g, %g)",
		      r1, sd(a, M / 2), sd(h, M / 2));
	ck_assert_msg(r2 > 3.0 && r2 < 5.0, "fluctuation ratio over 2 tau: %g", r2);
}
END_TEST

/*
 * Bounded energy error over 5000 steps (25 tau) at dt = 0.005.
 * The shadow-Hamiltonian term is dt^2/24 <2 v.Hess(U).v - |F|^2/m>-like;
 * by equipartition both parts are ~ T <lap U> ~ T * 3 omega_E^2 ~ 150 per
 * particle here (T ~ 0.7, Einstein frequency^2 ~ 70), so the energy
 * oscillates by at most ~ dt^2/12 * 150 ~ 3e-4 per particle around a
 * constant (measured: sd 1.1e-4, max 2.9e-4 per particle). The
 * force-shifted potential has no jumps at rc, so nothing accumulates:
 * |E(t) - E(0)| / N < 1e-3 leaves a factor ~3 over the worst expected
 * excursion, while a drift (a missed pair, a list used past its skin, an
 * energy jump at the cut-off of ~1.6e-2 per crossing for plain truncation)
 * grows past it within the run.
 */
START_TEST(energy_bounded_long_run)
{
	md_backend b = { &md_cpu_backend, NULL };
	double e0, worst = 0.0, p[3] = { 0 }, vsum = 0.0;
	int k, i, d, n = liquid.n;
	md_state st;
	md_stats s;

	ck_assert_int_eq(md_cpu_backend.init(&b, &base, &liquid), 0);
	e0 = total_energy(&b);
	for (k = 0; k < 100; k++) {	/* 100 x 50 steps */
		double de;

		ck_assert_int_eq(b.ops->run(&b, 50), 0);
		de = fabs(total_energy(&b) - e0) / n;
		worst = de > worst ? de : worst;
		ck_assert_msg(de < 1e-3, "step %d: |E - E0| / N = %g", 50 * (k + 1), de);
	}
	/* the run did rebuild its lists (the test exercised them) */
	b.ops->stats(&b, &s);
	ck_assert_int_gt(s.builds, 10);
	/*
	 * Momentum: each pair force enters i and j with opposite signs, so
	 * the total stays at its initial round-off level (~1e-13); 1e-10
	 * sqrt(N) in units of m sigma/tau allows the round-off of 5000 steps
	 * of sums and would catch one unpaired force of 1e-10.
	 */
	ck_assert_int_eq(md_state_alloc(&st, n), 0);
	ck_assert_int_eq(b.ops->download(&b, &st, MD_F_V), 0);
	for (i = 0; i < n; i++)
		for (d = 0; d < 3; d++) {
			p[d] += base.mass * st.v[3 * i + d];
			vsum += fabs(st.v[3 * i + d]);
		}
	ck_assert(vsum > 100.0);	/* the atoms do move */
	for (d = 0; d < 3; d++)
		ck_assert_msg(fabs(p[d]) < 1e-10 * sqrt((double)n), "P_%d = %g", d, p[d]);
	md_state_free(&st);
	b.ops->destroy(&b);
}
END_TEST

/* Unwrapped positions and velocities after nsteps with given rebuild keys. */
static void trajectory(int every, int check, long nsteps, md_state *out, long *builds)
{
	md_config cfg = base;
	md_backend b = { &md_cpu_backend, NULL };
	md_stats s;
	int i, d;

	cfg.every = every;
	cfg.check = check;
	ck_assert_int_eq(md_state_alloc(out, liquid.n), 0);
	ck_assert_int_eq(md_cpu_backend.init(&b, &cfg, &liquid), 0);
	ck_assert_int_eq(b.ops->run(&b, nsteps), 0);
	ck_assert_int_eq(b.ops->download(&b, out, MD_F_X | MD_F_V | MD_F_IMAGE), 0);
	for (i = 0; i < liquid.n; i++)
		for (d = 0; d < 3; d++)
			out->x[3 * i + d] += out->image[3 * i + d] * liquid.box[d];
	b.ops->stats(&b, &s);
	*builds = s.builds;
	b.ops->destroy(&b);
}

/*
 * Forces do not depend on when a valid list was built: rebuilding every
 * step, on the skin/2 check, or every 5 steps without checking (valid
 * here: relative displacement 2 v_max 5 dt < 0.3 for v_max < 6, while the
 * fastest of 256 atoms at T ~ 0.7 moves at ~3.5) give the same trajectory
 * up to the round-off of a different summation order, ~1e-16 grown by the
 * Lyapunov factor over 200 steps (1 tau) to ~1e-14: compared to 1e-10.
 */
START_TEST(rebuild_policy_does_not_change_trajectory)
{
	md_state a, c, e;
	long ba, bc, be;
	int i;
	double dx = 0.0, dv = 0.0, moved = 0.0;

	trajectory(1, 1, 200, &a, &ba);
	trajectory(0, 1, 200, &c, &bc);
	trajectory(5, 0, 200, &e, &be);
	ck_assert_int_eq(ba, 200);		/* every = 1: each step */
	ck_assert_int_eq(be, 40);		/* every = 5, no check */
	ck_assert_msg(bc > 1 && bc < 100, "check-based builds: %ld", bc);
	for (i = 0; i < 3 * liquid.n; i++) {
		double x0 = liquid.x[i] + liquid.image[i] * liquid.box[i % 3];

		dx = fmax(dx, fmax(fabs(a.x[i] - c.x[i]), fabs(a.x[i] - e.x[i])));
		dv = fmax(dv, fmax(fabs(a.v[i] - c.v[i]), fabs(a.v[i] - e.v[i])));
		moved = fmax(moved, fabs(a.x[i] - x0));
	}
	ck_assert_msg(dx < 1e-10, "positions differ by %g", dx);
	ck_assert_msg(dv < 1e-10, "velocities differ by %g", dv);
	ck_assert_msg(moved > 0.3, "max displacement only %g", moved);	/* > skin */
	md_state_free(&a);
	md_state_free(&c);
	md_state_free(&e);
}
END_TEST

/*
 * Dangerous builds (check = false): the backend counts a fixed-interval
 * build after which some particle had moved more than skin/2 since the
 * previous one; test_dangerous() recomputes that from the downloaded
 * unwrapped positions. Every 2 steps nothing moves that far (0 expected);
 * every 20 steps (0.1 tau) the fast particles do; every 10 is in between.
 * Then every 40 with a reset (a trajectory frame's rebuild) after each 10
 * steps: the resets' builds are checked too (every 40 never comes).
 */
START_TEST(dangerous_builds_counted)
{
	static const int every[] = { 2, 10, 20, 40 };
	long got[4], want[4];

	for (int k = 0; k < 4; k++) {
		md_config cfg = base;
		md_backend b = { &md_cpu_backend, NULL };
		md_state st;

		cfg.every = every[k];
		cfg.check = 0;
		ck_assert_int_eq(md_state_alloc(&st, liquid.n), 0);
		memcpy(st.box, liquid.box, sizeof(st.box));
		ck_assert_int_eq(md_cpu_backend.init(&b, &cfg, &liquid), 0);
		got[k] = k < 3 ? test_dangerous(&b, &cfg, &st, 8, every[k], 0, &want[k])
			       : test_dangerous(&b, &cfg, &st, 8, 10, 1, &want[k]);
		printf("  every %2d%s, check false: %ld dangerous builds of 8 (reference %ld)\n",
		       every[k], k < 3 ? "" : ", reset every 10", got[k], want[k]);
		ck_assert_int_eq(got[k], want[k]);
		b.ops->destroy(&b);
		md_state_free(&st);
	}
	ck_assert_int_eq(want[0], 0);
	ck_assert_int_gt(want[2], 0);
	ck_assert_int_gt(want[3], 0);
}
END_TEST

/* run(a) then run(b) is the same as run(a + b): no state lost between calls. */
START_TEST(chunked_runs_equal_one_run)
{
	md_backend b1 = { &md_cpu_backend, NULL }, b2 = { &md_cpu_backend, NULL };
	md_state s1, s2;
	int i;

	ck_assert_int_eq(md_state_alloc(&s1, liquid.n), 0);
	ck_assert_int_eq(md_state_alloc(&s2, liquid.n), 0);
	ck_assert_int_eq(md_cpu_backend.init(&b1, &base, &liquid), 0);
	ck_assert_int_eq(md_cpu_backend.init(&b2, &base, &liquid), 0);
	ck_assert_int_eq(b1.ops->run(&b1, 150), 0);
	for (i = 0; i < 15; i++)
		ck_assert_int_eq(b2.ops->run(&b2, 10), 0);
	ck_assert_int_eq(b1.ops->download(&b1, &s1, MD_F_X | MD_F_V | MD_F_IMAGE), 0);
	ck_assert_int_eq(b2.ops->download(&b2, &s2, MD_F_X | MD_F_V | MD_F_IMAGE), 0);
	ck_assert_int_eq(s1.step, 150);
	for (i = 0; i < 3 * liquid.n; i++) {
		/* same operations in the same order: bitwise equal */
		MD_CHECK(s1.x[i] == s2.x[i] && s1.v[i] == s2.v[i] &&
			 s1.image[i] == s2.image[i], "component %d differs", i);
	}
	b1.ops->destroy(&b1);
	b2.ops->destroy(&b2);
	md_state_free(&s1);
	md_state_free(&s2);
}
END_TEST

/*
 * Mass enters only through time: m x'' = F(x) with t = sqrt(m) s is
 * x'' = F(x) in s. Velocity Verlet keeps that exactly: one step of mass m,
 * step dt, velocity v is algebraically the step of mass 1, step
 * dt / sqrt(m), velocity sqrt(m) v. So the two runs below follow the same
 * positions up to round-off (grown over 1 tau to ~1e-13; compared to
 * 1e-9) with velocities in the ratio sqrt(m), and the same energies.
 */
START_TEST(mass_rescales_time)
{
	const double m = 2.0, sq = sqrt(2.0);
	md_config ca = base, cb = base;
	md_backend ba = { &md_cpu_backend, NULL }, bb = { &md_cpu_backend, NULL };
	md_state sa, sb, vb;
	md_thermo ta, tb;
	int i;
	double dx = 0.0, dv = 0.0;

	ca.mass = m;
	cb.dt = base.dt / sq;
	ck_assert_int_eq(md_state_alloc(&vb, liquid.n), 0);
	memcpy(vb.x, liquid.x, sizeof(double) * 3 * (size_t)liquid.n);
	memcpy(vb.image, liquid.image, sizeof(int) * 3 * (size_t)liquid.n);
	memcpy(vb.box, liquid.box, sizeof(vb.box));
	for (i = 0; i < 3 * liquid.n; i++)
		vb.v[i] = sq * liquid.v[i];
	ck_assert_int_eq(md_cpu_backend.init(&ba, &ca, &liquid), 0);
	ck_assert_int_eq(md_cpu_backend.init(&bb, &cb, &vb), 0);
	ck_assert_int_eq(ba.ops->run(&ba, 200), 0);
	ck_assert_int_eq(bb.ops->run(&bb, 200), 0);
	ck_assert_int_eq(md_state_alloc(&sa, liquid.n), 0);
	ck_assert_int_eq(md_state_alloc(&sb, liquid.n), 0);
	ck_assert_int_eq(ba.ops->download(&ba, &sa, MD_F_X | MD_F_V | MD_F_IMAGE), 0);
	ck_assert_int_eq(bb.ops->download(&bb, &sb, MD_F_X | MD_F_V | MD_F_IMAGE), 0);
	for (i = 0; i < 3 * liquid.n; i++) {
		double L = liquid.box[i % 3];

		dx = fmax(dx, fabs((sa.x[i] + sa.image[i] * L) - (sb.x[i] + sb.image[i] * L)));
		dv = fmax(dv, fabs(sq * sa.v[i] - sb.v[i]));
	}
	ck_assert_msg(dx < 1e-9, "positions differ by %g", dx);
	ck_assert_msg(dv < 1e-9, "sqrt(m) v differs by %g", dv);
	ck_assert_int_eq(ba.ops->thermo(&ba, &ta), 0);
	ck_assert_int_eq(bb.ops->thermo(&bb, &tb), 0);
	/* KE = m v^2 / 2 is the same in both: the thermo uses the mass */
	ck_assert_msg(fabs(ta.ke - tb.ke) < 1e-9 * tb.ke, "KE %.15g vs %.15g", ta.ke, tb.ke);
	ck_assert_msg(fabs(ta.pe - tb.pe) < 1e-9 * fabs(tb.pe), "PE %.15g vs %.15g", ta.pe,
		      tb.pe);
	ba.ops->destroy(&ba);
	bb.ops->destroy(&bb);
	md_state_free(&sa);
	md_state_free(&sb);
	md_state_free(&vb);
}
END_TEST

static Suite *nve_suite(void)
{
	Suite *s = suite_create("nve");
	TCase *tc = tcase_create("nve");

	tcase_add_unchecked_fixture(tc, make_liquid, free_liquid);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, energy_error_scales_as_dt_squared);
	tcase_add_test(tc, energy_bounded_long_run);
	tcase_add_test(tc, rebuild_policy_does_not_change_trajectory);
	tcase_add_test(tc, chunked_runs_equal_one_run);
	tcase_add_test(tc, dangerous_builds_counted);
	tcase_add_test(tc, mass_rescales_time);
	suite_add_tcase(s, tc);
	return s;
}

MD_TEST_MAIN(nve_suite)
