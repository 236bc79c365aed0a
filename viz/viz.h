/*
 * viz.h - the drawing side of the live view: a software renderer that turns
 * particle positions into shaded, depth-tested spheres on a pixel canvas,
 * the orbit camera, HUD text (own 5x7 bitmap font), the help overlay, the
 * strategy-race bar chart, and PNG files.
 *
 * viz/ never sees the simulation: it is handed positions (and velocities
 * for speed colouring), species, the box and a HUD info struct, all read
 * only during the call and never kept. Lengths are in sigma; a particle is
 * drawn as a sphere of diameter 1 sigma.
 *
 * Pixels are 32-bit 0xAARRGGBB (SDL_PIXELFORMAT_ARGB8888), row-major, top
 * row first, stride = w. The renderer is plain C (OpenMP over screen
 * bands), so that the same pictures come out under a window, under Xvfb
 * (no GPU needed) and with no display at all.
 */
#ifndef VIZ_H
#define VIZ_H

#include <stddef.h>
#include <stdint.h>

/* What one frame draws; arrays belong to the caller. */
typedef struct viz_particles {
	int n;
	const double *x;	/* 3n, interleaved x,y,z                  */
	const double *v;	/* 3n or NULL (speed colour needs it)     */
	const int *type;	/* n or NULL (all of type 0)              */
	double box[3];		/* periodic box edges, origin at 0        */
} viz_particles;

/* Orbit camera around target; perspective with vertical field of view. */
typedef struct viz_camera {
	double yaw, pitch;	/* radians; pitch within +-89 degrees     */
	double dist;		/* eye to target, sigma                   */
	double target[3];	/* orbit centre, sigma                    */
	double fov;		/* vertical field of view, radians        */
} viz_camera;

/* viz_camera_fit - look at the whole box from a three-quarter view. */
void viz_camera_fit(viz_camera *c, const double box[3]);
/* Mouse gestures in pixels (rotate, pan) and wheel clicks (zoom in > 0). */
void viz_camera_rotate(viz_camera *c, double dx, double dy);
void viz_camera_pan(viz_camera *c, double dx, double dy, int height);
void viz_camera_zoom(viz_camera *c, double clicks);

enum viz_color { VIZ_COLOR_TYPE = 0, VIZ_COLOR_SPEED = 1 };

struct viz_proj;
struct viz_ent;

/*
 * A canvas: the pixels, a depth buffer and the renderer's scratch arrays.
 * init/resize return 0, or -1 when out of memory (the canvas is then
 * empty but destroy is still safe).
 */
typedef struct viz_canvas {
	int w, h;
	uint32_t *pix;		/* w*h pixels                             */
	float *depth;		/* w*h view depths, sigma                 */
	struct viz_proj *proj;	/* projected particles                    */
	struct viz_proj *sorted; /* the visible ones, nearest first       */
	struct viz_ent *band_ent; /* per band: its discs, nearest first   */
	int *band_start;
	float *tile_max;	/* per band and 16-pixel column: farthest depth */
	unsigned char *tile_dirty; /* tile_max to recompute                */
	size_t proj_cap, idx_cap, sorted_cap;
	int nbands, ntiles;	/* bands; tiles per band                   */
	double speed_scale;	/* speed of the top of the colour ramp    */
} viz_canvas;

int viz_canvas_init(viz_canvas *cv, int w, int h);
int viz_canvas_resize(viz_canvas *cv, int w, int h);
void viz_canvas_destroy(viz_canvas *cv);

/*
 * viz_render - clear cv and draw every stride-th particle of p (stride >= 1)
 * as a shaded sphere seen through cam, darkened with depth (fog), and the
 * box outline, hidden where particles cover it. color: enum viz_color
 * (speed falls back to type without velocities). Returns the number of
 * particles drawn (inside the view).
 */
int viz_render(viz_canvas *cv, const viz_camera *cam, const viz_particles *p,
	       int color, int stride);

/* What the HUD shows; strings may be NULL (line left out). */
typedef struct viz_hud {
	double fps, sps;	/* frames/s, steps/s                      */
	int steps_per_frame;
	const char *strategy;	/* current force strategy                 */
	const char *strategy_note; /* e.g. "no effect on the cpu backend" */
	const char *ratio;	/* hybrid ratio line                      */
	long step;
	double temp, etot;	/* temperature, total energy per particle */
	int n, drawn, stride;	/* particles, drawn, subsampling stride   */
	const char *backend;	/* "cpu" | "cuda"                         */
	const char *device;	/* GPU name or CPU description            */
	int paused, finished, color;
	double speed_top;	/* speed at the top of the colour ramp    */
	const char *message;	/* transient line at the bottom, or NULL  */
} viz_hud;

/* One row of the strategy race. */
typedef struct viz_race_row {
	const char *name;
	double fps, sps;
	int state;		/* 0 waiting, 1 running, 2 done           */
	double progress;	/* 0..1 of its time, while running        */
} viz_race_row;

#define VIZ_RACE_MAX 8

typedef struct viz_race {
	int nrows;
	viz_race_row rows[VIZ_RACE_MAX];
	const char *note;	/* one line under the title, or NULL      */
} viz_race;

/* The key list (NULL-terminated lines) that `?` shows and --help prints. */
extern const char *const viz_controls[];

/* Overlays, drawn after viz_render. Each clips to the canvas. */
void viz_draw_hud(viz_canvas *cv, const viz_hud *h);
void viz_draw_help(viz_canvas *cv, const char *const *lines);
void viz_draw_race(viz_canvas *cv, const viz_race *r);

/* Text in the built-in 5x7 font (cell 6x9 pixels times scale); returns
 * the width drawn. Characters outside printable ASCII draw as '?'. */
int viz_text(viz_canvas *cv, int x, int y, int scale, uint32_t rgb,
	     const char *s);
int viz_text_width(const char *s, int scale);
/* viz_font_scale - text scale that suits a canvas of this height. */
int viz_font_scale(int h);
/* Blend a rectangle of colour rgb with opacity alpha (0..255). */
void viz_fill_rect(viz_canvas *cv, int x, int y, int w, int h, uint32_t rgb,
		   int alpha);

/*
 * viz_png_write - write the canvas as an 8-bit RGB PNG (libpng). Returns 0,
 * or -1 with a reason in err (the file may be left incomplete).
 */
int viz_png_write(const viz_canvas *cv, const char *path, char *err,
		  size_t errlen);

#endif
