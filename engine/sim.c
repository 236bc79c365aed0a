/*
 * sim.c - the run loop. Steps are handed to the backend in chunks that end
 * at thermo steps; a chunk is sized so that the progress line and signals
 * are looked at a few times a second.
 */
#include "sim.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "output.h"
#include "setup.h"
#include "thermo.h"
#include "thermostat.h"
#include "timer.h"
#include "../kernels/gpu.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	if (stop_signal) {	/* second signal: abort at once */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stop_signal = sig;
}

void md_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int md_stop_requested(void)
{
	return (int)stop_signal;
}

/*
 * The steps/s of a trial on backend b: 200 warm-up steps (as the
 * benchmark's rows at 1,000 steps; fewer where 0.3 s ends them first, as
 * on the CPU), then chunks of 50 until at least 200 steps and 0.3 s (at
 * most 5,000 steps or 3 s). < 0: the backend's error code, negated.
 */
static double trial_rate(md_thermostat *ts, md_backend *b)
{
	double t0 = md_now(), el = 0.0;
	long done = 0;
	int rc = 0;

	while (!rc && done < 200 && (done == 0 || md_now() - t0 < 0.3)) {
		rc = md_thermostat_run(ts, b, 20);	/* the warm-up */
		done += 20;
	}
	done = 0;
	t0 = md_now();
	while (!rc && (done < 200 || el < 0.3) && done < 5000 && el < 3.0) {
		rc = md_thermostat_run(ts, b, 50);	/* returns once the steps are done */
		done += 50;
		el = md_now() - t0;
	}
	return rc ? -(double)rc : done / el;
}

/*
 * Steps per second of skin c->skin (trial_rate): the backend set up from
 * the start state with the run's ensemble. < 0: the backend's error code,
 * negated. launch (GPU backend only, else NULL): no steps; the backend is
 * set up (its launch autotuner runs there) and launch gets the strategy
 * and launch parameters it chose; 0 or < 0. The backends copy st at
 * init and the trial downloads nothing, so st is not copied here (a copy
 * took 0.73 s at 16M particles on the 2-core CI machine: some 6 s a trial
 * at 133.5M).
 */
static double skin_rate(const md_backend_ops *ops, const md_config *c,
			const md_state *st, gpu_bench_desc *launch)
{
	md_backend b = { ops, NULL };
	md_thermostat ts;
	double r;
	int rc;

	/* with the run's thermostat: it sets the temperature, and so how often
	 * the list is rebuilt, and on the GPU it runs inside the steps */
	md_thermostat_init(&ts, c, st->n, st->step);
	rc = ops->init(&b, c, st);
	if (rc)
		r = -(double)rc;
	else if (launch) {
		gpu_bench_info(&b, launch);
		r = 0.0;
	} else {
		r = trial_rate(&ts, &b);
	}
	ops->destroy(&b);
	return r;
}

/* The skin search's state: the trials so far and the fastest. */
typedef struct skin_search {
	md_config c;		/* the trials' configuration */
	double skin0;		/* the configured skin */
	double lmin;		/* shortest box edge */
	double avail;		/* host bytes available (<= 0: unknown) */
	int cpu;		/* host memory of the CPU backend (cfg_host_bytes) */
	md_skin_rate_fn rate;
	void *ctx;
	FILE *out;		/* NULL: quiet */
	double tried[64], rate_of[64];	/* rate_of < 0: not run, or failed */
	int ntried;
	double best, best_rate;
} skin_search;

/*
 * One trial at skin (rounded to 4 decimals, so that the printed value
 * reruns the choice), unless tried before or the skin does not fit: the
 * box must hold twice cut-off + skin (the config check's rule), and a
 * skin larger than the configured one must leave the host memory check
 * passing. Returns the trial's steps/s, or < 0 where none ran now: a
 * skin tried before (the configured one, on the grid) returns < 0, so
 * that it cannot stop the grid's climb. It ran first, on a cold machine,
 * and can read low: in a CI run on 2 cores the configured 0.3 gave 130
 * steps/s against 145 for 0.2, and stopping on it skipped 0.4.
 */
static double skin_try(skin_search *ss, double skin)
{
	md_config *c = &ss->c;
	double r;
	int k;

	skin = floor(skin * 1e4 + 0.5) / 1e4;
	for (k = 0; k < ss->ntried; k++)
		if (fabs(ss->tried[k] - skin) < 1e-6)
			return -1.0;
	if (skin <= 0.0 || ss->ntried == (int)(sizeof(ss->tried) / sizeof(ss->tried[0])))
		return -1.0;
	ss->rate_of[ss->ntried] = -1.0;
	ss->tried[ss->ntried++] = skin;
	c->skin = skin;
	if (!(ss->lmin >= 2.0 * (c->cutoff + c->skin)) ||
	    (ss->avail > 0.0 && c->skin > ss->skin0 &&
	     cfg_host_bytes(c, ss->cpu) > ss->avail))
		return -1.0;
	r = ss->rate(ss->ctx, c);
	ss->rate_of[ss->ntried - 1] = r;
	if (r < 0.0) {	/* e.g. GPU memory, or a trial blew up */
		if (ss->out)
			fprintf(ss->out, "autotune: skin %.6g skipped (its trial failed with exit code %d)\n",
				c->skin, (int)-r);
		return -1.0;
	}
	if (ss->out)
		fprintf(ss->out, "autotune: skin %.6g: %.1f steps/s\n", c->skin, r);
	if (r > ss->best_rate) {
		ss->best_rate = r;
		ss->best = c->skin;
	}
	return r;
}

/*
 * The largest skin with the same cell grid as skin: the cell grid of
 * cut-off + skin is floor(L / (rc + skin)) per axis, so every skin up to
 * L / that - rc has the same cells (the same candidates in the list
 * build) and rebuilds less often (32,000 LJ particles: 0.2 and 0.3 both
 * give 11 cells per edge of 3.05, 0.299 would give 12 of 2.8). Rounded
 * down to 4 decimals (the same cells); HUGE_VAL when no axis has a cell.
 */
static double skin_grown(const double box[3], double cutoff, double skin)
{
	double fit = HUGE_VAL;
	int d;

	for (d = 0; d < 3; d++) {
		double cells = floor(box[d] / (cutoff + skin));

		if (cells >= 1.0)
			fit = fmin(fit, box[d] / cells);
	}
	return isfinite(fit) ? floor((fit - cutoff) * 1e4) / 1e4 : HUGE_VAL;
}

/*
 * The search (sim.h): the configured skin; 0.2 to 0.8 in steps of 0.1,
 * up to the first past the fastest so far that runs below 0.9 of its
 * rate (the rate falls on past the best: 16M LJ particles 308 steps/s at
 * 0.3, 267 at 0.6, 244 at 0.8); each skin within 5% of the fastest rate
 * grown to the largest skin with the same cell grid; then the skins
 * +-0.05 and then +-0.025 around the fastest so far. A trial costs a
 * set-up and trial_rate's steps (about 13 s at 64M particles): 18
 * trials had become 11 at 16M (RESULTS, thirty-third session).
 */
double md_skin_search(const md_config *cfg, const double box[3], double host_avail,
		      int cpu, md_skin_rate_fn rate, void *ctx, FILE *out)
{
	static const double grid[] = { 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8 };
	const int ngrid = (int)(sizeof(grid) / sizeof(grid[0]));
	skin_search ss;
	int k, nbase;

	memset(&ss, 0, sizeof(ss));
	ss.c = *cfg;
	ss.skin0 = cfg->skin;
	ss.lmin = fmin(box[0], fmin(box[1], box[2]));
	ss.avail = host_avail;
	ss.cpu = cpu;
	ss.rate = rate;
	ss.ctx = ctx;
	ss.out = out;
	ss.best = cfg->skin;
	ss.best_rate = -1.0;

	skin_try(&ss, cfg->skin);
	for (k = 0; k < ngrid; k++) {
		const double r = skin_try(&ss, grid[k]);

		if (r >= 0.0 && grid[k] > ss.best && r < 0.9 * ss.best_rate)
			break;
	}
	for (k = 0, nbase = ss.ntried; k < nbase; k++) {
		const double base = ss.tried[k];
		const double g = skin_grown(box, cfg->cutoff, base);

		if (ss.best_rate >= 0.0 && ss.rate_of[k] >= 0.95 * ss.best_rate && g > base)
			skin_try(&ss, g);
	}
	if (ss.best_rate >= 0.0)
		for (double h = 0.05; h > 0.02; h *= 0.5) {
			const double b = ss.best;

			skin_try(&ss, b - h);
			skin_try(&ss, b + h);
		}
	if (out && ss.best_rate < 0.0)
		fprintf(out, "autotune: no skin trial ran; skin %.3g kept\n", ss.best);
	else if (out)
		fprintf(out, "autotune: skin %.6g chosen (fastest of the skins that fit the box)\n",
			ss.best);
	return ss.best;
}

/* A skin trial of tune_skin: the backend set up from the start state. */
typedef struct skin_trial {
	const md_backend_ops *ops;
	const md_state *st;
} skin_trial;

static double skin_trial_rate(void *ctx, const md_config *c)
{
	const skin_trial *t = (const skin_trial *)ctx;

	return skin_rate(t->ops, c, t->st, NULL);
}

/*
 * neighbor.autotune_skin: times skins on backends set up from the
 * start state (md_skin_search) and keeps the fastest in sim->cfg.skin
 * (the configured one when every trial fails). The trials run the run's
 * own strategy and launch: with the launch autotuner on, the backend is
 * first set up once at the configured skin and its choice fixed for the
 * trials, their autotuner off (with the backend's defaults instead, 4
 * lanes a particle, 1M particles ran the trials at ~3,700 steps/s against
 * ~4,900 with the 1 lane the run takes, and they favoured a larger skin,
 * 0.4 against 0.37: RESULTS, 2026-12-02). Only with neighbor.check on: with
 * fixed-interval rebuilds alone a smaller skin would miss pairs. The
 * run's state is not touched; the choice and the rates are printed. The
 * trajectory of the run depends on the skin only through the order of
 * the force sums (round-off), so a bit-for-bit rerun needs the printed
 * skin set explicitly.
 */
static int tune_skin(md_sim *sim, const md_backend_ops *ops, FILE *out)
{
	skin_trial t = { ops, &sim->st };
	md_config c = sim->cfg;

	if (!sim->cfg.check) {	/* fixed-interval rebuilds: a smaller skin misses pairs */
		if (!sim->cfg.quiet)
			fprintf(out, "autotune: skin not tuned: neighbor.check = false (rebuilds every neighbor.every steps need the configured skin); skin %.3g kept\n",
				sim->cfg.skin);
		return 0;
	}
	c.quiet = 1;
	if (ops != &md_cpu_backend && sim->cfg.autotune) {
		gpu_bench_desc l;

		memset(&l, 0, sizeof(l));
		if (skin_rate(ops, &c, &sim->st, &l) == 0.0 && l.block > 0) {
			c.strategy = l.strategy;
			c.block_size = l.block;
			if (!l.persistent)
				c.threads_per_particle = l.tpp;
			if (l.strategy == MD_STRAT_hybrid) {
				c.hybrid_ratio = l.hybrid_ratio;
				c.hybrid_ratio_given = 1;
			}
			if (!sim->cfg.quiet)
				fprintf(out, "autotune: skin trials with strategy %s, block %d, %s (the launch chosen at skin %g)\n",
					md_strategy_names[l.strategy], l.block,
					l.persistent ? "the persistent kernel's own lanes a particle" :
					l.tpp == 1 ? "1 lane a particle" : "several lanes a particle",
					sim->cfg.skin);
		}
	}
	c.autotune = 0;
	sim->cfg.skin = md_skin_search(&c, sim->st.box, cfg_host_available(),
				       ops == &md_cpu_backend, skin_trial_rate, &t,
				       sim->cfg.quiet ? NULL : out);
	return 0;
}

int md_sim_init(md_sim *sim, const md_config *cfg, FILE *out)
{
	const md_backend_ops *ops = &md_cpu_backend;
	char gpu[256];
	int rc, kind = cfg->device;

	memset(sim, 0, sizeof(*sim));
	sim->cfg = *cfg;
	md_thermo_configure(cfg);
	rc = md_output_check(cfg, stderr);	/* before any work */
	if (!rc)
		rc = cfg->restart[0] ? md_output_restart(cfg, &sim->st, out) :
			md_setup_initial(cfg, &sim->st, out);
	if (rc)
		return rc;

	if (cfg->ntypes > 1 && !cfg->quiet) {	/* per-type counts */
		long cnt[MD_MAX_TYPES] = { 0 };
		int i, a;

		for (i = 0; i < sim->st.n; i++)
			if (sim->st.type[i] >= 0 && sim->st.type[i] < MD_MAX_TYPES)
				cnt[sim->st.type[i]]++;
		fprintf(out, "Types:");
		for (a = 0; a < cfg->ntypes; a++)
			fprintf(out, " %d: %ld%s", a + 1, cnt[a], a + 1 < cfg->ntypes ? "," : "");
		fprintf(out, " particles\n");
	}
	if (kind != MD_BACKEND_CPU && sim->st.n >= MD_GPU_MAX_PARTICLES) {
		if (kind == MD_BACKEND_CUDA) {
			fprintf(stderr, "mdsim: %s: [system] %d particles: the cuda backend takes at most %d\n",
				cfg->path, sim->st.n, MD_GPU_MAX_PARTICLES - 1);
			return MD_EXIT_INPUT;
		}
		kind = MD_BACKEND_CPU;
		if (!cfg->quiet)
			fprintf(out, "%d particles: more than the cuda backend takes (%d): running on the CPU backend.\n",
				sim->st.n, MD_GPU_MAX_PARTICLES - 1);
	}
	if (kind != MD_BACKEND_CPU) {
		int ok = gpu_backend_ops() && gpu_probe(cfg->gpu_id, gpu, sizeof(gpu));

		if (!ok && !gpu_backend_ops())
			gpu_probe(cfg->gpu_id, gpu, sizeof(gpu));
		if (ok) {
			ops = gpu_backend_ops();
			kind = MD_BACKEND_CUDA;
		} else if (kind == MD_BACKEND_CUDA) {
			fprintf(stderr, "mdsim: backend cuda requested but no GPU is usable: %s\n",
				gpu);
			return MD_EXIT_INPUT;
		} else {
			kind = MD_BACKEND_CPU;
			if (!cfg->quiet)
				fprintf(out, "No usable GPU (%s): running on the CPU backend.\n",
					gpu);
		}
	} else {
		kind = MD_BACKEND_CPU;
	}
	/* auto fell back to the CPU: its arrays were not estimated yet */
	if (kind == MD_BACKEND_CPU && cfg->device != MD_BACKEND_CPU) {
		rc = cfg_check_memory(cfg, 1, stderr);
		if (rc)
			return rc;
	}
	sim->backend_kind = kind;
	sim->be.ops = ops;
	if (cfg->autotune_skin) {
		rc = tune_skin(sim, ops, out);
		if (rc)
			return rc;
	}
	md_thermostat_init(&sim->ts, cfg, sim->st.n, sim->st.step);
	return ops->init(&sim->be, &sim->cfg, &sim->st);
}

void md_sim_destroy(md_sim *sim)
{
	if (sim->be.ops && sim->be.ops->destroy)
		sim->be.ops->destroy(&sim->be);
	md_state_free(&sim->st);
}

/*
 * blew_up - after a chunk of steps: the thermo totals of the current state
 * into *th, and MD_EXIT_SIM after a message naming the step and a particle
 * when an energy is not finite or the temperature is above
 * run.max_temperature (the backend itself reports non-finite and escaped
 * positions at its rebuilds). The particle: the first one with a
 * non-finite position or velocity, else the fastest.
 */
static int blew_up(md_sim *sim, md_thermo *th)
{
	const md_config *c = &sim->cfg;
	md_backend *be = &sim->be;
	md_state *st = &sim->st;
	md_thermo_vals tv;
	double vmax = -1.0;
	int rc, i, who = -1, nonfinite = 0;

	rc = be->ops->thermo(be, th);
	if (rc)
		return rc;
	md_thermo_derive(th, st->n, st->box, &tv);
	if (isfinite(th->pe) && isfinite(th->ke) && isfinite(th->virial) &&
	    !(c->max_temperature > 0.0 && tv.temp > c->max_temperature))
		return 0;
	/* the failure path: one download to name a particle */
	if (be->ops->download(be, st, MD_F_X | MD_F_V) == 0)
		for (i = 0; i < st->n && !nonfinite; i++) {
			const double *x = &st->x[3 * i], *v = &st->v[3 * i];
			double v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];

			if (!isfinite(x[0] + x[1] + x[2] + v2)) {
				who = i;
				nonfinite = 1;
			} else if (v2 > vmax) {
				vmax = v2;
				who = i;
			}
		}
	fprintf(stderr, "mdsim: step %ld: the simulation blew up: ", th->step);
	if (!isfinite(th->pe) || !isfinite(th->ke) || !isfinite(th->virial))
		fprintf(stderr, "non-finite energy (E_pair %g, E_kin %g, virial %g per particle)",
			tv.epair, tv.ekin, th->virial / st->n);
	else
		fprintf(stderr, "temperature %g is above run.max_temperature = %g",
			tv.temp, c->max_temperature);
	if (who >= 0)
		fprintf(stderr, "; particle %d %s (position %g %g %g, velocity %g %g %g)",
			who, nonfinite ? "is not finite" : "is the fastest",
			st->x[3 * who], st->x[3 * who + 1], st->x[3 * who + 2],
			st->v[3 * who], st->v[3 * who + 1], st->v[3 * who + 2]);
	fprintf(stderr, ". Checked after every chunk of steps, so it may have started earlier; time step too large, particles overlapping or temperature too high?\n");
	return MD_EXIT_SIM;
}

static void progress(FILE *err, long done, long total, double el)
{
	double rate = el > 0.0 ? done / el : 0.0;
	double eta = rate > 0.0 ? (total - done) / rate : 0.0;

	fprintf(err, "\r  step %ld/%ld  %.1f%%  %.1f steps/s  ETA %.0f s   ",
		done, total, 100.0 * done / (total ? total : 1), rate, eta);
	fflush(err);
}

int md_sim_run(md_sim *sim, FILE *out)
{
	const md_config *c = &sim->cfg;
	md_backend *be = &sim->be;
	long total = c->steps, every = c->thermo_every, done = 0, chunk = 1;
	int show = c->progress < 0 ? isatty(STDERR_FILENO) : c->progress;
	int rc = 0, quiet = c->quiet, progress_on = 0;
	double t0, last_prog, tout = 0.0;
	md_output *traj = NULL;

	if (quiet)
		show = 0;
	rc = blew_up(sim, &sim->last);	/* a start state that is already lost */
	if (!rc && !quiet) {
		md_thermo_header(out);
		md_thermo_line(out, &sim->last, sim->st.n, sim->st.box);
	}
	if (!rc)
		rc = md_output_open(&traj, c, &sim->st, be);	/* frame of the first step */
	if (rc)
		return rc;
	t0 = md_now();
	last_prog = t0;
	while (done < total && !stop_signal) {
		long next = every > 0 ? (done / every + 1) * every : total;
		long n = next - done;
		double tc;

		if (next > total)
			n = total - done;
		if (n > chunk)
			n = chunk;
		n = md_output_clip(traj, done, n);	/* end on frame steps */
		tc = md_now();
		rc = md_thermostat_run(&sim->ts, be, n);
		if (rc)
			break;
		done += n;
		rc = blew_up(sim, &sim->last);	/* sim->last: the thermo line too */
		if (rc)
			break;
		tc = md_now() - tc;
		if (tc < 0.1 && chunk < (1L << 30))
			chunk *= 2;
		else if (tc > 0.4 && chunk > 1)
			chunk /= 2;
		if ((every > 0 && done % every == 0) || done == total) {
			double to = md_now();

			if (progress_on) {
				fprintf(stderr, "\r%78s\r", "");
				progress_on = 0;
			}
			if (!quiet)
				md_thermo_line(out, &sim->last, sim->st.n, sim->st.box);
			tout += md_now() - to;
		}
		if (traj) {
			double to = md_now();

			rc = md_output_step(traj, be, done);
			tout += md_now() - to;
			if (rc)
				break;
		}
		if (show && md_now() - last_prog > 0.5 && done < total) {
			last_prog = md_now();
			progress(stderr, done, total, last_prog - t0);
			progress_on = 1;
		}
	}
	sim->loop_s = md_now() - t0;
	sim->steps_done = done;
	if (progress_on)
		fprintf(stderr, "\r%78s\r", "");
	if (!rc && stop_signal) {
		fprintf(stderr, "mdsim: %s received: stopped cleanly after step %ld\n",
			stop_signal == SIGINT ? "SIGINT" : "SIGTERM", done);
		rc = 128 + stop_signal;
	}
	{	/* queued frames written, file flushed and closed */
		int orc = md_output_close(traj, out);

		if (orc && (rc == 0 || rc > 128))
			rc = orc;
	}
	{
		md_stats s;

		be->ops->stats(be, &s);
		s.t[MD_T_OUTPUT] += tout;
		fprintf(out, "\n");
		md_summary(out, sim->loop_s, done, sim->st.n, c->dt, &s);
	}
	return rc;
}
