/*
 * test_regression.c - configs/bench_lj.ini (LAMMPS bench/in.lj: 32,000 LJ
 * atoms, fcc at density 0.8442, T0 = 1.44, lj/cut 2.5, 100 steps of NVE)
 * through the public API (cfg_load, md_sim_init, the backend, the thermo
 * derivation) against the thermo LAMMPS printed for bench/in.lj, stored
 * with the command that produced it in data/lammps_in.lj.log.
 *
 * Step 0 depends only on the lattice, the potential and the exact initial
 * temperature: it must match LAMMPS to the 8 digits LAMMPS prints. After
 * step 0 the runs differ (LAMMPS and mdsim draw different initial
 * velocities), so steps 50 and 100 are compared with tolerances set by the
 * measured spread of LAMMPS itself over velocity seeds (see below).
 * Runs from the repository root (tests/run_all.sh does so).
 */
#include "testutil.h"

#include <unistd.h>
#include "../engine/sim.h"
#include "../engine/thermo.h"

typedef struct ref_row {
	long step;
	double temp, epair, etot, press;
} ref_row;

static ref_row lmp[3];		/* bench/in.lj as printed: steps 0, 50, 100 */
static ref_row gmean[3];	/* mean of the Gaussian-velocity LAMMPS runs */
static int ngauss;

static FILE *open_src(const char *rel)
{
	char p[512];
	FILE *f = fopen(rel, "r");

	if (!f) {
		snprintf(p, sizeof(p), "../%s", rel);
		f = fopen(p, "r");
	}
	return f;
}

static int step_index(long step)
{
	return step == 0 ? 0 : step == 50 ? 1 : step == 100 ? 2 : -1;
}

/* Read the reference file: the LAMMPS thermo block and the gaussian lines. */
static void load_reference(void)
{
	FILE *f = open_src("data/lammps_in.lj.log");
	char line[512];
	int in_thermo = 0, nrows = 0, k, cnt[3] = { 0 };

	ck_assert_msg(f != NULL, "data/lammps_in.lj.log not found (run from the repository root)");
	memset(gmean, 0, sizeof(gmean));
	while (fgets(line, sizeof(line), f)) {
		ref_row r;
		double emol;
		long seed;

		if (!strncmp(line, "Step Temp E_pair E_mol TotEng Press", 35)) {
			in_thermo = 1;
			continue;
		}
		if (in_thermo && sscanf(line, "%ld %lf %lf %lf %lf %lf", &r.step, &r.temp,
					&r.epair, &emol, &r.etot, &r.press) == 6) {
			k = step_index(r.step);
			ck_assert_int_ge(k, 0);
			lmp[k] = r;
			nrows++;
			continue;
		}
		in_thermo = 0;
		if (sscanf(line, "gaussian %ld %ld %lf %lf %lf %lf %lf", &seed, &r.step,
			   &r.temp, &r.epair, &emol, &r.etot, &r.press) == 7) {
			k = step_index(r.step);
			ck_assert_int_ge(k, 0);
			gmean[k].temp += r.temp;
			gmean[k].epair += r.epair;
			gmean[k].etot += r.etot;
			gmean[k].press += r.press;
			cnt[k]++;
		}
	}
	fclose(f);
	ck_assert_int_eq(nrows, 3);
	ck_assert_msg(cnt[1] >= 4 && cnt[1] == cnt[2], "gaussian runs: %d, %d", cnt[1], cnt[2]);
	ngauss = cnt[1];
	for (k = 0; k < 3; k++) {
		gmean[k].step = k * 50;
		gmean[k].temp /= cnt[k];
		gmean[k].epair /= cnt[k];
		gmean[k].etot /= cnt[k];
		gmean[k].press /= cnt[k];
	}
}

/*
 * Thermo of the current state, derived here from the totals (T = 2 KE /
 * (3N - 3), P = (2 KE + W) / (3V): LAMMPS's definitions), and checked
 * against what the engine prints (md_thermo_derive).
 */
static ref_row measure(md_sim *sim)
{
	md_thermo th;
	md_thermo_vals v;
	ref_row r;
	int n = sim->st.n;
	double vol = sim->st.box[0] * sim->st.box[1] * sim->st.box[2];

	ck_assert_int_eq(sim->be.ops->thermo(&sim->be, &th), 0);
	r.step = th.step;
	r.temp = 2.0 * th.ke / (3.0 * n - 3.0);
	r.epair = th.pe / n;
	r.etot = (th.pe + th.ke) / n;
	r.press = (2.0 * th.ke + th.virial) / (3.0 * vol);
	md_thermo_derive(&th, n, sim->st.box, &v);
	ck_assert(fabs(v.temp - r.temp) <= 1e-14 * r.temp);
	ck_assert(fabs(v.epair - r.epair) <= 1e-14 * fabs(r.epair));
	ck_assert(fabs(v.etot - r.etot) <= 1e-14 * fabs(r.etot));
	ck_assert(fabs(v.press - r.press) <= 1e-13 * fabs(r.press));
	return r;
}

static void start(md_sim *sim)
{
	md_config cfg;
	const char *path = access("configs/bench_lj.ini", R_OK) ?
		"../configs/bench_lj.ini" : "configs/bench_lj.ini";

	cfg_defaults(&cfg);
	ck_assert_int_eq(cfg_load(&cfg, path, stderr), 0);
	ck_assert_int_eq(cfg_set(&cfg, "backend.device=cpu", stderr), 0);
	ck_assert_int_eq(cfg_validate(&cfg, stderr), 0);
	cfg.quiet = 1;
	ck_assert_int_eq(md_sim_init(sim, &cfg, stdout), 0);
	ck_assert_int_eq(sim->st.n, 32000);
}

/*
 * LAMMPS prints 8 significant digits: the stored values are rounded by at
 * most 5e-8 here; 1e-7 absolute is "equal to the printed digits".
 */
START_TEST(step0_matches_lammps)
{
	md_sim sim;
	ref_row r;

	load_reference();
	start(&sim);
	r = measure(&sim);
	ck_assert_int_eq(r.step, 0);
	ck_assert_msg(fabs(r.epair - lmp[0].epair) <= 1e-7, "E_pair %.10f, LAMMPS %.8f",
		      r.epair, lmp[0].epair);
	ck_assert_msg(fabs(r.press - lmp[0].press) <= 1e-7, "Press %.10f, LAMMPS %.8f",
		      r.press, lmp[0].press);
	ck_assert_msg(fabs(r.temp - lmp[0].temp) <= 1e-7, "Temp %.10f", r.temp);
	ck_assert_msg(fabs(r.etot - lmp[0].etot) <= 1e-7, "TotEng %.10f, LAMMPS %.8f",
		      r.etot, lmp[0].etot);
	/* the published values of DESIGN.md, independently of the file */
	ck_assert(fabs(r.epair - -6.7733681) <= 1e-7);
	ck_assert(fabs(r.press - -5.0197073) <= 1e-7);
	md_sim_destroy(&sim);
}
END_TEST

/*
 * Steps 50 and 100. The system melts from the lattice: T falls from 1.44
 * to ~0.74-0.76 and the trajectory is chaotic, so only the macroscopic
 * path is reproducible, with finite-size noise of 32,000 atoms. Measured
 * with LAMMPS itself (data/lammps_in.lj.log): over 13 velocity seeds the
 * single-run standard deviations are Temp 0.3%, E_pair 0.06%, TotEng 2e-5
 * relative, Press 0.015 absolute. The difference of two independent runs
 * has sqrt(2) times that. On top, LAMMPS draws UNIFORM initial velocities
 * (velocity create's default) while mdsim draws Gaussian ones: the
 * Gaussian LAMMPS runs shift Press by +0.04 at step 100 and TotEng by
 * +3e-4 at step 50 (6e-5 relative). Hence, against bench/in.lj as printed:
 *   Temp 2% (~4.5 sd of a difference), E_pair 0.5% (~6 sd),
 *   TotEng 0.05% (the 6e-5 shift plus 15 sd: TotEng is not conserved by
 *   the plain cut-off, it falls by 0.2% over the run from pairs crossing
 *   rc, so this checks that drift too), Press 0.1 (the 0.04 shift plus
 *   ~3 sd: 0.05 would reject a correct engine on a fair fraction of seeds).
 * Against the mean of the Gaussian-velocity LAMMPS runs (same velocity
 * distribution, noise of one run plus that of the mean):
 *   Temp 1% (~4 sd), E_pair 0.25% (~5 sd), TotEng 0.02% (~7 sd),
 *   Press 0.05 (~3.5 sd).
 */
START_TEST(steps_50_100_within_chaos_and_noise)
{
	md_sim sim;
	int k;

	load_reference();
	start(&sim);
	for (k = 1; k <= 2; k++) {
		ref_row r;

		ck_assert_int_eq(sim.be.ops->run(&sim.be, 50), 0);
		r = measure(&sim);
		ck_assert_int_eq(r.step, 50 * k);
		printf("step %ld: Temp %.6f E_pair %.6f TotEng %.6f Press %.4f "
		       "(LAMMPS %.6f %.6f %.6f %.4f; gaussian mean of %d %.6f %.6f %.6f %.4f)\n",
		       r.step, r.temp, r.epair, r.etot, r.press, lmp[k].temp,
		       lmp[k].epair, lmp[k].etot, lmp[k].press, ngauss, gmean[k].temp,
		       gmean[k].epair, gmean[k].etot, gmean[k].press);
		ck_assert_msg(fabs(r.temp / lmp[k].temp - 1.0) < 0.02, "step %ld Temp %g vs %g",
			      r.step, r.temp, lmp[k].temp);
		ck_assert_msg(fabs(r.epair / lmp[k].epair - 1.0) < 0.005,
			      "step %ld E_pair %g vs %g", r.step, r.epair, lmp[k].epair);
		ck_assert_msg(fabs(r.etot / lmp[k].etot - 1.0) < 0.0005,
			      "step %ld TotEng %g vs %g", r.step, r.etot, lmp[k].etot);
		ck_assert_msg(fabs(r.press - lmp[k].press) < 0.1, "step %ld Press %g vs %g",
			      r.step, r.press, lmp[k].press);

		ck_assert_msg(fabs(r.temp / gmean[k].temp - 1.0) < 0.01,
			      "step %ld Temp %g vs gaussian %g", r.step, r.temp, gmean[k].temp);
		ck_assert_msg(fabs(r.epair / gmean[k].epair - 1.0) < 0.0025,
			      "step %ld E_pair %g vs gaussian %g", r.step, r.epair,
			      gmean[k].epair);
		ck_assert_msg(fabs(r.etot / gmean[k].etot - 1.0) < 0.0002,
			      "step %ld TotEng %g vs gaussian %g", r.step, r.etot,
			      gmean[k].etot);
		ck_assert_msg(fabs(r.press - gmean[k].press) < 0.05,
			      "step %ld Press %g vs gaussian %g", r.step, r.press,
			      gmean[k].press);
	}
	md_sim_destroy(&sim);
}
END_TEST

static Suite *regression_suite(void)
{
	Suite *s = suite_create("regression");
	TCase *tc = tcase_create("bench_lj");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, step0_matches_lammps);
	tcase_add_test(tc, steps_50_100_within_chaos_and_noise);
	suite_add_tcase(s, tc);
	return s;
}

MD_TEST_MAIN(regression_suite)
