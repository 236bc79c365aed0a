/*
 * viz_window.c - the SDL2 window (see viz_window.h). The canvas is copied
 * to the window surface (SDL_BlitSurface converts the pixel format when the
 * surface is not XRGB8888); no OpenGL context is needed, so the window
 * works the same on a desktop, under Xvfb (Mesa or not) and over ssh -X.
 *
 * Keys come as SDL_TEXTINPUT characters, so '?', '+' and '[' work on any
 * keyboard layout; Escape, the keypad and the arrow-less keys that make no
 * text come as SDL_KEYDOWN.
 */
#define SDL_MAIN_HANDLED
#include "viz_window.h"

#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct viz_window {
	SDL_Window *win;
	SDL_Surface *src;	/* wraps the last canvas shown */
	const uint32_t *src_pix;
	int src_w, src_h;
};

int viz_window_open(viz_window **out, int w, int h, const char *title,
		    char *driver, size_t dlen, char *err, size_t elen)
{
	viz_window *vw = NULL;
	const char *drv;

	*out = NULL;
	/* keep mdsim's SIGINT/SIGTERM handlers (clean stop, summary) */
	SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
	/* the canvas is made on the CPU: the native framebuffer (XShm on X11)
	 * takes it in one copy; an accelerated one would upload it as a
	 * texture (measured under Xvfb/llvmpipe: 0.4 ms vs 4.9 ms per frame at
	 * 1024x768). The environment variable still wins. */
	SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
	if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
		snprintf(err, elen, "SDL video: %s", SDL_GetError());
		return -1;
	}
	drv = SDL_GetCurrentVideoDriver();
	snprintf(driver, dlen, "%s", drv ? drv : "?");
	vw = calloc(1, sizeof(*vw));
	if (!vw) {
		snprintf(err, elen, "out of memory");
		goto fail;
	}
	vw->win = SDL_CreateWindow(title, SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
				   w, h, SDL_WINDOW_RESIZABLE | SDL_WINDOW_SHOWN);
	if (!vw->win) {
		snprintf(err, elen, "SDL window: %s", SDL_GetError());
		goto fail;
	}
	SDL_StartTextInput();
	*out = vw;
	return 0;
fail:
	free(vw);
	SDL_QuitSubSystem(SDL_INIT_VIDEO);
	return -1;
}

static int key_action(SDL_Keycode k)
{
	switch (k) {
	case SDLK_ESCAPE:
		return VIZ_ACT_QUIT;
	case SDLK_KP_PLUS:
		return VIZ_ACT_SPF_UP;
	case SDLK_KP_MINUS:
		return VIZ_ACT_SPF_DOWN;
	case SDLK_F1:
		return VIZ_ACT_HELP;
	default:
		return VIZ_ACT_NONE;
	}
}

static int char_action(char c)
{
	switch (c) {
	case 'q': case 'Q':
		return VIZ_ACT_QUIT;
	case ' ':
		return VIZ_ACT_PAUSE;
	case '.':
		return VIZ_ACT_STEP;
	case '+': case '=':
		return VIZ_ACT_SPF_UP;
	case '-': case '_':
		return VIZ_ACT_SPF_DOWN;
	case '[':
		return VIZ_ACT_RATIO_DOWN;
	case ']':
		return VIZ_ACT_RATIO_UP;
	case 'c': case 'C':
		return VIZ_ACT_COLOR;
	case 'h': case 'H':
		return VIZ_ACT_HUD;
	case '?': case '/':
		return VIZ_ACT_HELP;
	case 's': case 'S':
		return VIZ_ACT_SHOT;
	case 'b': case 'B':
		return VIZ_ACT_RACE;
	default:
		if (c >= '1' && c <= '9')
			return VIZ_ACT_STRATEGY + (c - '1');
		return VIZ_ACT_NONE;
	}
}

static void handle(viz_window *w, const SDL_Event *e, viz_camera *cam, int *act,
		   int max, int *n)
{
	int a = VIZ_ACT_NONE, wh = 1;

	SDL_GetWindowSize(w->win, NULL, &wh);
	switch (e->type) {
	case SDL_QUIT:
		a = VIZ_ACT_QUIT;
		break;
	case SDL_KEYDOWN:
		/* keys that make text arrive again as SDL_TEXTINPUT */
		a = key_action(e->key.keysym.sym);
		break;
	case SDL_TEXTINPUT:
		for (const char *c = e->text.text; *c; c++) {
			int ca = char_action(*c);

			if (ca != VIZ_ACT_NONE && *n < max)
				act[(*n)++] = ca;
		}
		break;
	case SDL_MOUSEMOTION:
		if (e->motion.state & SDL_BUTTON_LMASK) {
			viz_camera_rotate(cam, e->motion.xrel, e->motion.yrel);
			a = VIZ_ACT_REDRAW;
		} else if (e->motion.state & (SDL_BUTTON_RMASK | SDL_BUTTON_MMASK)) {
			viz_camera_pan(cam, e->motion.xrel, e->motion.yrel, wh);
			a = VIZ_ACT_REDRAW;
		}
		break;
	case SDL_MOUSEWHEEL:
		viz_camera_zoom(cam, e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ?
				-e->wheel.preciseY : e->wheel.preciseY);
		a = VIZ_ACT_REDRAW;
		break;
	case SDL_WINDOWEVENT:
		a = VIZ_ACT_REDRAW;
		break;
	default:
		break;
	}
	if (a != VIZ_ACT_NONE && *n < max)
		act[(*n)++] = a;
	else if (a == VIZ_ACT_QUIT && max > 0)	/* a full list never drops a quit */
		act[max - 1] = a;
}

/*
 * Waiting (paused) polls every 10 ms instead of SDL_WaitEventTimeout: while
 * SDL waits, each event it queues makes it send a wake-up event to the
 * window over its second X connection, and when that request reaches the
 * X server after the window is gone (q pressed while paused), the
 * BadWindow error ends the process with status 1 in Xlib's default
 * handler at SDL_Quit (tests/viz_test.sh failed so, rarely, under load).
 */
int viz_window_poll(viz_window *w, viz_camera *cam, int *act, int max,
		    int wait_ms)
{
	SDL_Event e;
	int n = 0, t;

	for (t = 0; t < wait_ms; t += 10) {
		if (SDL_PollEvent(&e)) {
			handle(w, &e, cam, act, max, &n);
			break;
		}
		SDL_Delay(10);
	}
	while (SDL_PollEvent(&e))
		handle(w, &e, cam, act, max, &n);
	return n;
}

void viz_window_size(viz_window *w, int *width, int *height)
{
	SDL_Surface *s = SDL_GetWindowSurface(w->win);

	if (s) {
		*width = s->w;
		*height = s->h;
	} else {
		SDL_GetWindowSize(w->win, width, height);
	}
}

int viz_window_show(viz_window *w, const viz_canvas *cv)
{
	SDL_Surface *dst = SDL_GetWindowSurface(w->win);

	if (!dst)
		return -1;
	if (!w->src || w->src_pix != cv->pix || w->src_w != cv->w || w->src_h != cv->h) {
		SDL_FreeSurface(w->src);
		w->src = SDL_CreateRGBSurfaceWithFormatFrom(cv->pix, cv->w, cv->h, 32,
							    4 * cv->w,
							    SDL_PIXELFORMAT_ARGB8888);
		if (!w->src)
			return -1;
		w->src_pix = cv->pix;
		w->src_w = cv->w;
		w->src_h = cv->h;
		SDL_SetSurfaceBlendMode(w->src, SDL_BLENDMODE_NONE);
	}
	if (SDL_BlitSurface(w->src, NULL, dst, NULL))
		return -1;
	return SDL_UpdateWindowSurface(w->win) ? -1 : 0;
}

void viz_window_title(viz_window *w, const char *title)
{
	SDL_SetWindowTitle(w->win, title);
}

void viz_window_close(viz_window *w)
{
	if (!w)
		return;
	SDL_FreeSurface(w->src);
	if (w->win)
		SDL_DestroyWindow(w->win);
	free(w);
	SDL_QuitSubSystem(SDL_INIT_VIDEO);
	if (!SDL_WasInit(SDL_INIT_EVERYTHING))
		SDL_Quit();	/* also shuts down SDL's D-Bus connection */
}
