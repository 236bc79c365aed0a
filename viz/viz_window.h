/*
 * viz_window.h - the SDL2 window: opening it, turning keys and mouse
 * gestures into actions and camera moves, showing a canvas, the title.
 *
 * The window owns no simulation data: the caller renders into a canvas
 * of the window's size (viz_window_size) and hands it to viz_window_show.
 * SDL's own SIGINT/SIGTERM handlers are switched off so that the caller's
 * handlers stay in charge of a clean stop.
 */
#ifndef VIZ_WINDOW_H
#define VIZ_WINDOW_H

#include <stddef.h>
#include "viz.h"

typedef struct viz_window viz_window;

/* What a key asks for; strategy k (0-based) is VIZ_ACT_STRATEGY + k. */
enum viz_action {
	VIZ_ACT_NONE = 0, VIZ_ACT_QUIT, VIZ_ACT_PAUSE, VIZ_ACT_STEP,
	VIZ_ACT_SPF_UP, VIZ_ACT_SPF_DOWN, VIZ_ACT_RATIO_DOWN, VIZ_ACT_RATIO_UP,
	VIZ_ACT_COLOR, VIZ_ACT_HUD, VIZ_ACT_HELP, VIZ_ACT_SHOT, VIZ_ACT_RACE,
	VIZ_ACT_REDRAW,		/* the camera moved or the window needs paint */
	VIZ_ACT_STRATEGY = 100
};

/*
 * viz_window_open - initialise SDL video and open a resizable window of
 * w x h pixels. Returns 0 (*out set), or -1 with the reason in err (no
 * display, no video driver): nothing is left open then. driver gets the
 * SDL video driver's name ("x11", "wayland", "dummy", ...).
 */
int viz_window_open(viz_window **out, int w, int h, const char *title,
		    char *driver, size_t dlen, char *err, size_t elen);

/*
 * viz_window_poll - handle the pending events, waiting up to wait_ms for
 * the first one (0: do not wait). Mouse gestures move cam; keys become
 * actions, at most max of them in act. Returns the number of actions.
 */
int viz_window_poll(viz_window *w, viz_camera *cam, int *act, int max,
		    int wait_ms);

/* viz_window_size - the drawable size in pixels (changes on resize). */
void viz_window_size(viz_window *w, int *width, int *height);

/* viz_window_show - put the canvas on the screen; 0, or -1 on an SDL error. */
int viz_window_show(viz_window *w, const viz_canvas *cv);

void viz_window_title(viz_window *w, const char *title);

/* viz_window_close - close the window and SDL video; NULL is a no-op. */
void viz_window_close(viz_window *w);

#endif
