/*
 * viz_loop.h - the run loop behind the live window and the offscreen
 * frame capture: it drives the backend (steps_per_frame steps between
 * frames), downloads positions once per frame into the host md_state,
 * hands them to viz/ to draw, and turns keys into pause, single steps,
 * strategy switches, screenshots and the strategy race. Thermo lines,
 * trajectory frames (output.h), SIGINT/SIGTERM and the summary behave as
 * in md_sim_run.
 */
#ifndef MD_VIZ_LOOP_H
#define MD_VIZ_LOOP_H

#include <stdio.h>
#include "md.h"

typedef struct md_viz_opts {
	long frames;		/* stop after this many frames (0: no limit);
				 * offscreen: PNG files written              */
	char frame_dir[512];	/* offscreen frames and screenshots; ""
				 * gives "frames" offscreen, "." in a window  */
	double race_s;		/* > 0: start with a strategy race, seconds
				 * per strategy                               */
} md_viz_opts;

/*
 * md_viz_main - run the simulation of cfg with cfg->viz: on (a window;
 * MD_EXIT_INPUT when none can be opened), auto (a window when a display is
 * present, else the plain md_sim_run; one line on out says which) or
 * offscreen (PNG frames into o->frame_dir). Ends at run.steps (offscreen),
 * on q/Esc/window close (window: at run.steps the run pauses), after
 * o->frames frames, or on SIGINT/SIGTERM (128 + signal, as md_sim_run).
 * The trajectory is closed and the summary printed in every case.
 * Returns 0 or an MD_EXIT_* code.
 */
int md_viz_main(const md_config *cfg, const md_viz_opts *o, FILE *out);

/* md_viz_usage - the window's controls, indented, for mdsim --help. */
void md_viz_usage(FILE *out);

/*
 * md_viz_bench_fps - frames per second of the offscreen renderer on a
 * running backend: viz.steps_per_frame steps, one download of the
 * positions into st, one frame of viz.width x viz.height, repeated for at
 * least 0.5 s and 3 frames (at most 5 s). Returns 0 with *fps, -1 when no
 * renderer is available (out of memory), or the backend's error.
 */
int md_viz_bench_fps(md_backend *be, md_state *st, const md_config *cfg,
		     double *fps);

#endif
