/*
 * bench.c - the strategy benchmark. One backend, one system: strategies
 * run one after the other on the same (evolving) liquid, each after a
 * warm-up, timed by wall clock around whole run() calls (which end in a
 * device synchronisation), at least run.steps steps and one second each
 * (at most 20 s: the O(N^2) `tiled` strategy on large systems gets fewer
 * steps, shown in the table).
 *
 * Bandwidth is a model, not a counter: the bytes one step must move at
 * least (integrator 272 B per particle: double position and velocity read
 * and written, float force and position; list strategies 36 B + 4 B per
 * neighbour; `shared` 32 B; `tiled` 32 B), divided by the measured time.
 *
 * FPS (render) is the live view's frame rate without a window: after each
 * row, viz.steps_per_frame steps + one position download + one offscreen
 * frame (viz/), repeated for at least 0.5 s.
 */
#include "bench.h"

#include <string.h>
#include "sim.h"
#include "timer.h"
#include "viz_loop.h"
#include "../kernels/gpu.h"

typedef struct bench_row {
	int strategy;		/* -1: CPU backend */
	char launch[96];
	long steps;
	double sps, ms[3], gbs, frac;
	double fps;		/* frames/s with offscreen rendering; < 0: not measured */
} bench_row;

static double model_bytes(int strategy, int n, double avg_nn)
{
	double integ = 272.0, force;

	if (strategy == MD_STRAT_shared || strategy == MD_STRAT_tiled)
		force = 32.0;
	else if (strategy == MD_STRAT_staged)	/* 16-bit list entries */
		force = 36.0 + 2.0 * avg_nn;
	else
		force = 36.0 + 4.0 * avg_nn;
	return (double)n * (integ + force);
}

/* Time run() until both min_steps and min_time are reached. */
static int timed_run(md_backend *b, long min_steps, long *steps, double *sec)
{
	double t0 = md_now(), el = 0.0;
	long done = 0, chunk = 1;
	int rc;

	while (done < min_steps || el < 1.0) {
		rc = b->ops->run(b, chunk);
		if (rc)
			return rc;
		done += chunk;
		el = md_now() - t0;
		if (el > 20.0)
			break;
		if (chunk < 100000)
			chunk *= 2;
	}
	*steps = done;
	*sec = el;
	return 0;
}

/* The launch parameters that strategy s actually uses. */
static void launch_text(char *buf, size_t n, int s, const gpu_bench_desc *d)
{
	int t = md_strategy_tune[s];

	if (s == MD_STRAT_shared)
		snprintf(buf, n, "warp per cell");
	else if (t & MD_TUNE_RATIO)
		snprintf(buf, n, "ratio %.2f tpp %d", d->hybrid_ratio, d->tpp);
	else if (t & MD_TUNE_TPP)
		snprintf(buf, n, "block %d tpp %d", d->block, d->tpp);
	else
		snprintf(buf, n, "block %d", d->block);
}

static int selected(const char *only, const char *name)
{
	const char *p = only;
	size_t len = strlen(name);

	if (!only)
		return 1;
	while ((p = strstr(p, name))) {
		if ((p == only || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return 1;
		p += len;
	}
	return 0;
}

/*
 * FPS column: frames of viz.width x viz.height drawn by the offscreen
 * renderer (viz/), viz.steps_per_frame steps and one download each; not
 * measured (-1) for skip or when no renderer is available.
 */
static int render_fps(md_sim *sim, const md_config *cfg, bench_row *r, int skip)
{
	int rc = skip ? 0 : md_viz_bench_fps(&sim->be, &sim->st, cfg, &r->fps);

	if (skip || rc < 0)
		r->fps = -1.0;
	return rc > 0 ? rc : 0;
}

static void print_row(FILE *out, const bench_row *r, int n, double base)
{
	char fps[16] = "-";

	if (r->fps >= 0.0)
		snprintf(fps, sizeof(fps), "%.1f", r->fps);
	fprintf(out, "%-9s %-30s %7ld %10.1f %8s %10.3g %8.4f %8.4f %8.4f %8.1f %6.1f%% %7.2fx\n",
		r->strategy < 0 ? "cpu" : md_strategy_names[r->strategy],
		r->launch, r->steps, r->sps, fps, r->sps * n, r->ms[0], r->ms[1],
		r->ms[2], r->gbs, 100.0 * r->frac, base > 0.0 ? r->sps / base : 0.0);
}

int md_bench(const md_config *cfg_in, const char *only, const char *csv,
	     FILE *out)
{
	md_config cfg = *cfg_in;
	md_sim sim;
	bench_row rows[MD_STRAT_COUNT + 1];
	int nrows = 0, rc, s, n;
	double base = 0.0;
	long warm = cfg.steps / 5 > 50 ? cfg.steps / 5 : 50;
	FILE *fc = NULL;

	cfg.trajectory[0] = '\0';	/* a benchmark writes no trajectory */
	if (csv) {
		fc = fopen(csv, "w");
		if (!fc) {
			perror(csv);
			return MD_EXIT_IO;
		}
	}
	rc = md_sim_init(&sim, &cfg, out);
	if (rc)
		goto done;
	n = sim.st.n;
	if (sim.backend_kind == MD_BACKEND_CPU) {
		bench_row *r = &rows[nrows++];
		md_stats st;

		memset(r, 0, sizeof(*r));
		r->strategy = -1;
		snprintf(r->launch, sizeof(r->launch), "OpenMP");
		rc = sim.be.ops->run(&sim.be, warm);
		if (!rc)
			rc = timed_run(&sim.be, cfg.steps, &r->steps, &r->ms[0]);
		if (rc)
			goto done;
		r->sps = r->steps / r->ms[0];
		sim.be.ops->stats(&sim.be, &st);
		r->ms[0] = 1e3 * st.t[MD_T_NEIGH] / r->steps;
		r->ms[1] = 1e3 * st.t[MD_T_PAIR] / r->steps;
		r->ms[2] = 1e3 * st.t[MD_T_INTEGRATE] / r->steps;
		r->gbs = model_bytes(MD_STRAT_global, n, st.avg_neighbors) * r->sps / 1e9;
		base = r->sps;
		rc = render_fps(&sim, &cfg, r, 0);
		if (rc)
			goto done;
	} else {
		for (s = 0; s < MD_STRAT_COUNT; s++) {
			bench_row *r;
			md_stats st;
			gpu_bench_desc d;
			double sec;

			if (!selected(only, md_strategy_names[s]))
				continue;
			r = &rows[nrows++];
			memset(r, 0, sizeof(*r));
			r->strategy = s;
			rc = sim.be.ops->set_strategy(&sim.be, s);
			if (!rc)
				rc = sim.be.ops->run(&sim.be, s == MD_STRAT_tiled && n > 100000 ? 2 : warm);
			if (!rc)
				rc = timed_run(&sim.be, cfg.steps, &r->steps, &sec);
			if (!rc)
				rc = gpu_bench_phases(&sim.be, s == MD_STRAT_tiled && n > 100000 ? 2 : 50, r->ms);
			if (rc)
				goto done;
			r->sps = r->steps / sec;
			sim.be.ops->stats(&sim.be, &st);
			gpu_bench_info(&sim.be, &d);
			launch_text(r->launch, sizeof(r->launch), s, &d);
			r->gbs = model_bytes(s, n, st.avg_neighbors) * r->sps / 1e9;
			r->frac = d.peak_bw > 0.0 ? r->gbs * 1e9 / d.peak_bw : 0.0;
			rc = render_fps(&sim, &cfg, r, s == MD_STRAT_tiled && n > 100000);
			if (rc)
				goto done;
			if (s == MD_STRAT_global)
				base = r->sps;
			if (nrows == 1)
				fprintf(out, "GPU: %s, peak bandwidth %.2f TB/s (device properties)\n",
					d.gpu, d.peak_bw / 1e12);
		}
	}
	fprintf(out, "Benchmark: %d particles, density %.4g, rc %.3g, skin %.4g, dt %.4g, backend %s\n",
		n, cfg.density, cfg.cutoff, sim.cfg.skin, cfg.dt,
		sim.backend_kind == MD_BACKEND_CPU ? "cpu" : "cuda");
	fprintf(out, "%-9s %-30s %7s %10s %8s %10s %8s %8s %8s %8s %7s %8s\n",
		"strategy", "launch", "steps", "steps/s", "FPS", "atom-st/s", "neigh", "force",
		"integr", "GB/s", "peak", "speedup");
	fprintf(out, "%-9s %-30s %7s %10s %8s %10s %8s %8s %8s %8s %7s %8s\n", "", "",
		"", "", "(render)", "", "ms/step", "ms/step", "ms/step", "(model)", "", "vs glob");
	for (s = 0; s < nrows; s++)
		print_row(out, &rows[s], n, base);
	if (fc) {
		fprintf(fc, "strategy,launch,particles,steps,steps_per_s,atom_steps_per_s,neigh_ms,force_ms,integrate_ms,model_GBps,peak_fraction,speedup_vs_global,fps_render\n");
		for (s = 0; s < nrows; s++) {
			const bench_row *r = &rows[s];

			fprintf(fc, "%s,%s,%d,%ld,%.3f,%.6g,%.6f,%.6f,%.6f,%.3f,%.5f,%.4f,%.2f\n",
				r->strategy < 0 ? "cpu" : md_strategy_names[r->strategy],
				r->launch, n, r->steps, r->sps, r->sps * n, r->ms[0],
				r->ms[1], r->ms[2], r->gbs, r->frac,
				base > 0.0 ? r->sps / base : 0.0, r->fps);
		}
	}
done:
	if (fc && fclose(fc) && !rc) {
		perror(csv);
		rc = MD_EXIT_IO;
	}
	md_sim_destroy(&sim);
	return rc;
}
