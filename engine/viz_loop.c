/*
 * viz_loop.c - the run loop of the live window and of offscreen capture
 * (see viz_loop.h).
 *
 * One iteration: events -> steps_per_frame steps through ops->run (split
 * at thermo and trajectory steps, as md_sim_run does) -> one download of
 * the positions (velocities in speed colour) -> render -> show or write.
 * Rendering never holds the simulation back beyond that one download: the
 * backend runs its whole chunk of steps before a frame is drawn, and while
 * the run is paused only the picture is redrawn.
 *
 * Timing: the summary's loop time counts the iterations that advanced the
 * simulation (paused time is left out); their download + render + show
 * time is the Viz line of the breakdown, thermo and trajectory the Output
 * line.
 */
#include "viz_loop.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "output.h"
#include "setup.h"
#include "sim.h"
#include "thermo.h"
#include "thermostat.h"
#include "timer.h"
#include "../kernels/gpu.h"
#include "../viz/viz.h"
#include "../viz/viz_window.h"

typedef struct vl {
	md_sim *sim;
	const md_config *cfg;
	const md_viz_opts *opt;
	FILE *out;
	viz_window *win;	/* NULL: offscreen */
	viz_canvas cv;
	viz_camera cam;
	md_output *traj;
	int paused, finished, free_run, quit, hud, help, color, spf, strategy;
	int stride, drawn, cpu, shot_req, msg_drawn;
	long done, frames, shots, step_req;
	double t_active, t_viz, t_out;
	double meter_t0, fps, sps;	/* rates over the last half second */
	long meter_frames, meter_steps;
	int racing, race_k, race_warm, race_paused;
	double race_t0, race_s;
	long race_frames, race_steps0;
	viz_race race;
	md_thermo_vals th;
	char msg[800];
	double msg_until;
	char device[256], ratio[96], dir[512];
} vl;

void md_viz_usage(FILE *out)
{
	for (int k = 0; viz_controls[k]; k++)
		fprintf(out, "    %s\n", viz_controls[k]);
}

static void say(vl *v, const char *m)
{
	snprintf(v->msg, sizeof(v->msg), "%s", m);
	v->msg_until = md_now() + 4.0;
	if (!v->cfg->quiet) {
		fprintf(v->out, "viz: %s\n", m);
		fflush(v->out);	/* seen at once, also when stdout is a file */
	}
}

/* mkdir -p; 0 or -1 (errno set) */
static int make_dir(const char *path)
{
	char p[512];
	size_t k;

	snprintf(p, sizeof(p), "%s", path);
	for (k = 1; p[k]; k++) {
		if (p[k] != '/')
			continue;
		p[k] = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			return -1;
		p[k] = '/';
	}
	if (mkdir(p, 0777) && errno != EEXIST)
		return -1;
	return 0;
}

/* the current strategy: the config's, else the one the backend names */
static int current_strategy(const md_config *c, const char *desc)
{
	const char *p = strstr(desc, "strategy ");
	int s;

	if (c->strategy >= 0)
		return c->strategy;
	if (!p)
		return -1;
	p += strlen("strategy ");
	for (s = 0; s < MD_STRAT_COUNT; s++) {
		size_t len = strlen(md_strategy_names[s]);

		if (!strncmp(p, md_strategy_names[s], len) &&
		    (p[len] == ' ' || p[len] == ',' || p[len] == '\0'))
			return s;
	}
	return -1;
}

/* device line and hybrid ratio line of the HUD (after a switch, too) */
static void refresh_backend_text(vl *v)
{
	md_backend *be = &v->sim->be;
	md_stats s;

	be->ops->stats(be, &s);
	if (v->cpu) {
		snprintf(v->device, sizeof(v->device), "%s", s.desc);
		snprintf(v->ratio, sizeof(v->ratio), "hybrid ratio [ ]: n/a on the cpu backend");
	} else {
		gpu_bench_desc d;

		memset(&d, 0, sizeof(d));
		gpu_bench_info(be, &d);
		snprintf(v->device, sizeof(v->device), "%s", d.gpu[0] ? d.gpu : s.desc);
		snprintf(v->ratio, sizeof(v->ratio), "hybrid ratio %.2f [ ]",
			 d.hybrid_ratio);
	}
	if (v->strategy < 0)
		v->strategy = current_strategy(v->cfg, s.desc);
}

/*
 * advance - n steps, split so that thermo lines and trajectory frames land
 * on their steps (the same rules as md_sim_run).
 */
static int advance(vl *v, long n)
{
	md_backend *be = &v->sim->be;
	const md_config *c = v->cfg;
	long every = c->thermo_every;
	int rc;

	while (n > 0) {
		long k = n;
		double to;

		if (every > 0 && k > (v->done / every + 1) * every - v->done)
			k = (v->done / every + 1) * every - v->done;
		k = md_output_clip(v->traj, v->done, k);
		rc = md_thermostat_run(&v->sim->ts, be, k);	/* plain run for NVE */
		if (rc)
			return rc;
		v->done += k;
		n -= k;
		to = md_now();
		if (every > 0 && v->done % every == 0 && !c->quiet) {
			be->ops->thermo(be, &v->sim->last);
			md_thermo_line(v->out, &v->sim->last, v->sim->st.n, v->sim->st.box);
		}
		rc = md_output_step(v->traj, be, v->done);
		v->t_out += md_now() - to;
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * frame_positions - bring the positions (and velocities for speed colour)
 * to the host for drawing: one download per frame. This is the hook for
 * CUDA-OpenGL interop: a mapped vertex buffer filled on the device would
 * replace this copy (viz_render would then read the mapped buffer).
 */
static int frame_positions(vl *v)
{
	md_backend *be = &v->sim->be;
	md_thermo th;
	int rc;

	rc = be->ops->download(be, &v->sim->st,
			       MD_F_X | (v->color == VIZ_COLOR_SPEED ? MD_F_V : 0u));
	if (!rc)
		rc = be->ops->thermo(be, &th);
	if (!rc)
		md_thermo_derive(&th, v->sim->st.n, v->sim->st.box, &v->th);
	return rc;
}

static void set_strategy(vl *v, int s)
{
	md_backend *be = &v->sim->be;
	char m[200];

	if (s >= MD_STRAT_COUNT)
		return;
	if (v->racing) {
		say(v, "strategy race running (b stops it)");
		return;
	}
	if (be->ops->set_strategy(be, s)) {
		snprintf(m, sizeof(m), "strategy %s refused by the %s backend",
			 md_strategy_names[s], be->ops->name);
		say(v, m);
		return;
	}
	v->strategy = s;
	refresh_backend_text(v);
	snprintf(m, sizeof(m), "strategy %s at step %ld%s", md_strategy_names[s],
		 v->done, v->cpu ? " (cpu backend: accepted, forces unchanged)" : "");
	say(v, m);
}

static void screenshot(vl *v)
{
	char path[700], err[300], m[760];

	snprintf(path, sizeof(path), "%s/mdsim_step%08ld_%03ld.png",
		 v->dir[0] ? v->dir : ".", v->done, v->shots++);
	if (viz_png_write(&v->cv, path, err, sizeof(err)))
		snprintf(m, sizeof(m), "screenshot failed: %s", err);
	else
		snprintf(m, sizeof(m), "screenshot %s", path);
	say(v, m);
}

static void race_start(vl *v)
{
	int k;

	memset(&v->race, 0, sizeof(v->race));
	for (k = 0; k < MD_STRAT_COUNT && k < VIZ_RACE_MAX; k++)
		v->race.rows[k].name = md_strategy_names[k];
	v->race.nrows = k;
	v->race.note = v->cpu ? "cpu backend: strategies accepted, same code runs" : NULL;
	v->race_k = 0;
	v->race_paused = v->paused;
	v->paused = 0;
	v->racing = 1;
	say(v, "strategy race started");
}

static void race_print(vl *v)
{
	FILE *o = v->out;
	int k;

	fprintf(o, "viz race: %d particles (%d drawn), %d steps/frame, %.1f s per strategy, backend %s%s\n",
		v->sim->st.n, v->drawn, v->spf, v->race_s, v->sim->be.ops->name,
		v->cpu ? " (strategies have no effect on the cpu backend)" : "");
	fprintf(o, "%-9s %9s %11s\n", "strategy", "FPS", "steps/s");
	for (k = 0; k < v->race.nrows; k++)
		fprintf(o, "%-9s %9.2f %11.1f\n", v->race.rows[k].name,
			v->race.rows[k].fps, v->race.rows[k].sps);
	fflush(o);
}

/* the last row is done: table on stdout, the strategy from before back */
static int race_end(vl *v)
{
	md_backend *be = &v->sim->be;
	int rc = 0;

	v->racing = 0;
	v->paused = v->race_paused;
	race_print(v);
	if (v->strategy >= 0)
		rc = be->ops->set_strategy(be, v->strategy);
	say(v, "strategy race done (table on stdout)");
	return rc;
}

/* after each raced frame: measure, move on to the next strategy */
static int race_tick(vl *v)
{
	md_backend *be = &v->sim->be;
	viz_race_row *row = &v->race.rows[v->race_k];
	double now = md_now(), el;
	int rc;

	if (row->state == 0 && v->race_k == MD_STRAT_tiled && !v->cpu &&
	    v->sim->st.n > 100000) {
		row->state = 2;	/* all pairs: minutes per frame at this size */
		v->race.note = "tiled skipped: all pairs, O(N^2), above 100000 particles";
		if (++v->race_k < v->race.nrows)
			return 0;
		return race_end(v);
	}
	if (row->state == 0) {
		rc = be->ops->set_strategy(be, v->race_k);
		if (rc)
			return rc;
		row->state = 1;
		v->race_warm = 1;	/* first frame pays for graph capture */
		return 0;
	}
	if (v->race_warm) {
		v->race_warm = 0;
		v->race_t0 = now;
		v->race_frames = 0;
		v->race_steps0 = v->done;
		return 0;
	}
	v->race_frames++;
	el = now - v->race_t0;
	row->fps = v->race_frames / el;
	row->sps = (v->done - v->race_steps0) / el;
	row->progress = el / v->race_s;
	if (el < v->race_s)
		return 0;
	row->state = 2;
	if (++v->race_k < v->race.nrows)
		return 0;
	return race_end(v);
}

static void action(vl *v, int a)
{
	char m[160];

	switch (a) {
	case VIZ_ACT_QUIT:
		v->quit = 1;
		break;
	case VIZ_ACT_PAUSE:
		if (v->racing)
			break;
		v->paused = !v->paused;
		if (v->finished && !v->paused)
			v->free_run = 1;	/* past run.steps */
		say(v, v->paused ? "paused" : "running");
		break;
	case VIZ_ACT_STEP:
		if (v->paused && !v->racing)
			v->step_req++;
		break;
	case VIZ_ACT_SPF_UP:
	case VIZ_ACT_SPF_DOWN:
		if (v->racing)
			break;
		v->spf = a == VIZ_ACT_SPF_UP ? (v->spf < 500000 ? 2 * v->spf : v->spf) :
			 (v->spf > 1 ? v->spf / 2 : 1);
		snprintf(m, sizeof(m), "%d steps per frame", v->spf);
		say(v, m);
		break;
	case VIZ_ACT_RATIO_DOWN:
	case VIZ_ACT_RATIO_UP:
		if (v->cpu) {
			say(v, "hybrid ratio: n/a on the cpu backend");
		} else {
			gpu_bench_desc d;
			double r;

			memset(&d, 0, sizeof(d));
			gpu_bench_info(&v->sim->be, &d);
			r = gpu_set_hybrid_ratio(&v->sim->be, d.hybrid_ratio +
						 (a == VIZ_ACT_RATIO_UP ? 0.05 : -0.05));
			snprintf(m, sizeof(m), "hybrid ratio %.2f", r);
			say(v, m);
			refresh_backend_text(v);
		}
		break;
	case VIZ_ACT_COLOR:
		v->color = v->color == VIZ_COLOR_TYPE ? VIZ_COLOR_SPEED : VIZ_COLOR_TYPE;
		say(v, v->color == VIZ_COLOR_SPEED ? "colour by speed" : "colour by type");
		break;
	case VIZ_ACT_HUD:
		v->hud = !v->hud;
		break;
	case VIZ_ACT_HELP:
		v->help = !v->help;
		break;
	case VIZ_ACT_REDRAW:
		break;
	case VIZ_ACT_SHOT:
		v->shot_req = 1;	/* taken once the next frame is drawn */
		break;
	case VIZ_ACT_RACE:
		if (v->racing) {
			v->racing = 0;
			v->paused = v->race_paused;
			if (v->strategy >= 0)
				v->sim->be.ops->set_strategy(&v->sim->be, v->strategy);
			say(v, "strategy race stopped");
		} else {
			race_start(v);
		}
		break;
	default:
		if (a >= VIZ_ACT_STRATEGY)
			set_strategy(v, a - VIZ_ACT_STRATEGY);
		break;
	}
}

static void draw(vl *v)
{
	const md_state *st = &v->sim->st;
	viz_particles p = { st->n, st->x, st->v, st->type,
			    { st->box[0], st->box[1], st->box[2] } };
	viz_hud h;

	if (v->color != VIZ_COLOR_SPEED)
		p.v = NULL;
	v->msg_drawn = md_now() < v->msg_until;
	v->drawn = viz_render(&v->cv, &v->cam, &p, v->color, v->stride);
	if (v->racing || (v->race.nrows && v->hud))
		viz_draw_race(&v->cv, &v->race);	/* h hides a finished race */
	if (v->hud) {
		memset(&h, 0, sizeof(h));
		h.fps = v->fps;
		h.sps = v->sps;
		h.steps_per_frame = v->spf;
		h.strategy = v->strategy >= 0 ? md_strategy_names[v->strategy] : "auto";
		h.strategy_note = v->cpu ? "cpu backend: accepted, no effect" : NULL;
		h.ratio = v->ratio;
		h.step = st->step;
		h.temp = v->th.temp;
		h.etot = v->th.etot;
		h.n = st->n;
		h.drawn = v->drawn;
		h.stride = v->stride;
		h.backend = v->sim->be.ops->name;
		h.device = v->device;
		h.paused = v->paused && !v->racing;
		h.finished = v->finished;
		h.color = v->color;
		h.speed_top = v->cv.speed_scale;
		h.message = v->msg_drawn ? v->msg : NULL;
		viz_draw_hud(&v->cv, &h);
	}
	if (v->help)
		viz_draw_help(&v->cv, viz_controls);
}

static void meter(vl *v, long steps)
{
	double now = md_now(), el = now - v->meter_t0;
	char t[200];

	v->meter_frames++;
	v->meter_steps += steps;
	if (el < 0.5 && (v->fps > 0.0 || v->meter_frames < 2))
		return;		/* the first value comes after two frames */
	v->fps = v->meter_frames / el;
	v->sps = v->meter_steps / el;
	v->meter_t0 = now;
	v->meter_frames = 0;
	v->meter_steps = 0;
	if (v->win) {
		snprintf(t, sizeof(t), "mdsim: %d particles, %.1f FPS, %.0f steps/s, %s (%s)",
			 v->sim->st.n, v->fps, v->sps,
			 v->strategy >= 0 ? md_strategy_names[v->strategy] : "auto",
			 v->sim->be.ops->name);
		viz_window_title(v->win, t);
	}
}

/* write the frame of an offscreen run; 0 or MD_EXIT_IO */
static int write_frame(vl *v)
{
	char path[700], err[300];

	snprintf(path, sizeof(path), "%s/frame_%06ld.png", v->dir, v->frames);
	if (viz_png_write(&v->cv, path, err, sizeof(err))) {
		fprintf(stderr, "mdsim: viz: %s\n", err);
		return MD_EXIT_IO;
	}
	return 0;
}

/* n steps for this iteration: steps_per_frame, a single step, or none */
static long steps_now(vl *v, int first)
{
	long n = 0, left = v->cfg->steps - v->done;

	if (first)
		return 0;
	if (v->racing || !v->paused) {
		n = v->spf;
	} else if (v->step_req) {
		n = 1;
		v->step_req--;
	}
	if (!v->free_run && !v->racing && n > left)
		n = left > 0 ? left : 0;
	return n;
}

/* the run reached run.steps: last thermo line; a window pauses */
static void finish(vl *v)
{
	md_backend *be = &v->sim->be;
	long every = v->cfg->thermo_every;
	char m[160];

	v->finished = 1;
	if (!v->cfg->quiet && (every <= 0 || v->done % every)) {
		be->ops->thermo(be, &v->sim->last);
		md_thermo_line(v->out, &v->sim->last, v->sim->st.n, v->sim->st.box);
	}
	if (v->win) {
		v->paused = 1;
		snprintf(m, sizeof(m), "run.steps (%ld) done: paused; space runs on, q quits",
			 v->cfg->steps);
		say(v, m);
	}
}

static int loop(vl *v)
{
	int rc = 0, first = 1, warned = 0;

	v->meter_t0 = md_now();
	while (!v->quit && !md_stop_requested()) {
		double it0 = md_now(), tv;
		int acts[32], na = 0, k;
		long n;

		if (v->win) {
			int idle = v->paused && !v->racing && !v->step_req && !first;
			int w, h;

			na = viz_window_poll(v->win, &v->cam, acts, 32, idle ? 30 : 0);
			for (k = 0; k < na; k++)
				action(v, acts[k]);
			if (v->quit)
				break;
			viz_window_size(v->win, &w, &h);
			if (viz_canvas_resize(&v->cv, w, h)) {
				fprintf(stderr, "mdsim: viz: out of memory for a %dx%d canvas\n", w, h);
				return MD_EXIT_SIM;
			}
		}
		n = steps_now(v, first);
		if (n > 0) {
			rc = advance(v, n);
			if (rc)
				break;
		}
		if (!v->free_run && !v->racing && !v->finished && v->done >= v->cfg->steps)
			finish(v);
		if (!first && n == 0 && na == 0 && !v->shot_req &&
		    v->msg_drawn == (md_now() < v->msg_until))
			continue;	/* paused and nothing changed */
		tv = md_now();
		if (n > 0 || first) {
			rc = frame_positions(v);
			if (rc)
				break;
		}
		draw(v);
		if (v->win && viz_window_show(v->win, &v->cv) && !warned) {
			fprintf(stderr, "mdsim: viz: cannot show the frame (SDL)\n");
			warned = 1;
		}
		if (v->shot_req) {
			v->shot_req = 0;
			screenshot(v);
		}
		if (!v->win && !v->racing) {
			rc = write_frame(v);
			if (rc)
				break;
		}
		if (!v->racing)
			v->frames++;
		if (n > 0) {
			v->t_viz += md_now() - tv;
			v->t_active += md_now() - it0;
		}
		meter(v, n);
		if (v->racing) {
			rc = race_tick(v);
			if (rc)
				break;
		}
		first = 0;
		if (v->opt->frames > 0 && v->frames >= v->opt->frames)
			break;
		if (!v->win && v->finished && !v->racing)
			break;
	}
	return rc;
}

/* open the window (on, auto) or the frame folder (offscreen); 0, 1 when
 * auto found no display, or an MD_EXIT_* code */
static int open_view(vl *v, const md_config *cfg, const md_viz_opts *o, FILE *out)
{
	char drv[64] = "", err[300] = "";
	int ok;

	if (cfg->viz == MD_VIZ_OFFSCREEN) {
		snprintf(v->dir, sizeof(v->dir), "%s", o->frame_dir[0] ? o->frame_dir : "frames");
		if (make_dir(v->dir)) {
			fprintf(stderr, "mdsim: viz: cannot create %s: %s\n", v->dir, strerror(errno));
			return MD_EXIT_IO;
		}
		if (!cfg->quiet)
			fprintf(out, "viz: offscreen %dx%d, frames to %s/frame_NNNNNN.png\n",
				cfg->viz_width, cfg->viz_height, v->dir);
		return 0;
	}
	ok = !viz_window_open(&v->win, cfg->viz_width, cfg->viz_height, "mdsim", drv,
			      sizeof(drv), err, sizeof(err));
	if (ok && cfg->viz == MD_VIZ_AUTO &&
	    (!strcmp(drv, "dummy") || !strcmp(drv, "offscreen"))) {
		snprintf(err, sizeof(err), "SDL video driver %s has no screen", drv);
		viz_window_close(v->win);
		v->win = NULL;
		ok = 0;
	}
	if (!ok && cfg->viz == MD_VIZ_ON) {
		fprintf(stderr, "mdsim: viz: cannot open a window (%s); --viz=offscreen writes frames without a display\n",
			err);
		return MD_EXIT_INPUT;
	}
	if (!ok) {
		if (!cfg->quiet)
			fprintf(out, "viz: no display (%s): running headless\n", err);
		return 1;
	}
	if (!cfg->quiet)
		fprintf(out, "viz: window %dx%d (SDL video driver %s); press ? for the keys\n",
			cfg->viz_width, cfg->viz_height, drv);
	fflush(out);
	snprintf(v->dir, sizeof(v->dir), "%s", o->frame_dir);
	if (v->dir[0] && make_dir(v->dir)) {
		fprintf(stderr, "mdsim: viz: cannot create %s: %s\n", v->dir, strerror(errno));
		return MD_EXIT_IO;
	}
	return 0;
}

/* as the end of md_sim_run: signal message, trajectory closed, summary */
static int end_run(vl *v, int rc)
{
	md_sim *sim = v->sim;
	md_stats s;
	int sig = md_stop_requested(), orc;

	sim->loop_s = v->t_active;
	sim->steps_done = v->done;
	if (!rc && sig) {
		fprintf(stderr, "mdsim: %s received: stopped cleanly after step %ld\n",
			sig == SIGINT ? "SIGINT" : "SIGTERM", v->done);
		rc = 128 + sig;
	}
	if (!v->cfg->quiet) {
		if (v->win)
			fprintf(v->out, "viz: window closed after %ld frames at step %ld\n",
				v->frames, sim->st.step);
		else
			fprintf(v->out, "viz: wrote %ld frames to %s\n", v->frames, v->dir);
	}
	orc = md_output_close(v->traj, v->out);
	v->traj = NULL;
	if (orc && (rc == 0 || rc > 128))
		rc = orc;
	sim->be.ops->stats(&sim->be, &s);
	s.t[MD_T_OUTPUT] += v->t_out;
	s.t[MD_T_VIZ] += v->t_viz;
	fprintf(v->out, "\n");
	md_summary(v->out, sim->loop_s, v->done, sim->st.n, v->cfg->dt, &s);
	return rc;
}

int md_viz_main(const md_config *cfg, const md_viz_opts *o, FILE *out)
{
	md_sim sim;
	vl v;
	long max = cfg->viz_max_particles > 0 ? cfg->viz_max_particles : 1;
	int rc;

	memset(&sim, 0, sizeof(sim));
	memset(&v, 0, sizeof(v));
	v.sim = &sim;
	v.cfg = cfg;
	v.opt = o;
	v.out = out;
	rc = open_view(&v, cfg, o, out);
	if (rc == 1) {		/* auto without a display: the plain run */
		rc = md_sim_init(&sim, cfg, out);
		if (!rc)
			rc = md_sim_run(&sim, out);
		goto done;
	}
	if (rc)
		goto done;
	rc = md_sim_init(&sim, cfg, out);
	if (rc)
		goto done;
	if (viz_canvas_init(&v.cv, cfg->viz_width, cfg->viz_height)) {
		fprintf(stderr, "mdsim: viz: out of memory for a %dx%d canvas\n",
			cfg->viz_width, cfg->viz_height);
		rc = MD_EXIT_SIM;
		goto done;
	}
	v.cpu = sim.backend_kind == MD_BACKEND_CPU;
	v.spf = cfg->steps_per_frame;
	v.color = cfg->viz_color ? VIZ_COLOR_SPEED : VIZ_COLOR_TYPE;
	v.hud = 1;
	v.strategy = -1;
	v.stride = sim.st.n > max ? (int)((sim.st.n + max - 1) / max) : 1;
	v.free_run = o->frames > 0;	/* --frames, not run.steps, ends the run */
	v.race_s = o->race_s > 0.0 ? o->race_s : 2.0;
	refresh_backend_text(&v);
	viz_camera_fit(&v.cam, sim.st.box);
	if (!cfg->quiet) {
		sim.be.ops->thermo(&sim.be, &sim.last);
		md_thermo_header(out);
		md_thermo_line(out, &sim.last, sim.st.n, sim.st.box);
	}
	rc = md_output_open(&v.traj, &sim.cfg, &sim.st, &sim.be);	/* first frame; the tuned skin */
	if (rc)
		goto done;
	if (o->race_s > 0.0)
		race_start(&v);
	md_state_pin(&sim.be, &sim.st, 1);	/* the per-frame download target */
	rc = end_run(&v, loop(&v));
	md_state_pin(&sim.be, &sim.st, 0);
done:
	viz_window_close(v.win);
	viz_canvas_destroy(&v.cv);
	md_sim_destroy(&sim);
	return rc;
}

int md_viz_bench_fps(md_backend *be, md_state *st, const md_config *cfg,
		     double *fps)
{
	viz_canvas cv;
	viz_camera cam;
	long max = cfg->viz_max_particles > 0 ? cfg->viz_max_particles : 1, frames = 0;
	int stride = st->n > max ? (int)((st->n + max - 1) / max) : 1, rc = 0;
	double t0, el = 0.0;

	*fps = 0.0;
	if (viz_canvas_init(&cv, cfg->viz_width, cfg->viz_height)) {
		viz_canvas_destroy(&cv);
		return -1;
	}
	viz_camera_fit(&cam, st->box);
	md_state_pin(be, st, 1);
	t0 = md_now();
	while (frames < 3 || el < 0.5) {
		viz_particles p = { st->n, st->x, NULL, st->type,
				    { st->box[0], st->box[1], st->box[2] } };

		rc = be->ops->run(be, cfg->steps_per_frame);
		if (!rc)
			rc = be->ops->download(be, st, MD_F_X);
		if (rc)
			break;
		viz_render(&cv, &cam, &p, VIZ_COLOR_TYPE, stride);
		frames++;
		el = md_now() - t0;
		if (el > 5.0)
			break;
	}
	md_state_pin(be, st, 0);
	if (el > 0.0)
		*fps = frames / el;
	viz_canvas_destroy(&cv);
	return rc;
}
