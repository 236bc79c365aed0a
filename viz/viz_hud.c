/*
 * viz_hud.c - overlays drawn on top of the particles: the HUD panel
 * (rates, strategy, thermo, particle counts), the key help and the bar
 * chart of the strategy race. Everything is text in the built-in font on
 * translucent panels; sizes follow viz_font_scale, so the overlays stay
 * readable from 320 to 4K pixels wide.
 */
#include "viz.h"

#include <stdio.h>
#include <string.h>

#define C_TEXT  0xe6eaf2u
#define C_DIM   0xa0a8b8u
#define C_GOOD  0x9fe870u
#define C_WARN  0xffc040u
#define C_FPS   0x7fd35au
#define C_SPS   0x58a6ffu

/* the key list shown by `?`; mdsim --help prints the same lines */
const char *const viz_controls[] = {
	"left drag   rotate          wheel       zoom",
	"right drag  pan             space       pause / resume",
	".           one step (paused)",
	"+ / -       steps per frame x2 / /2",
	"1 .. 5      force strategy: global shared register hybrid tiled",
	"[ / ]       hybrid ratio -/+ 0.05",
	"c           colour: type / speed",
	"h           HUD on / off    ?           this help",
	"s           screenshot (PNG)",
	"b           strategy race (bar chart, also on stdout)",
	"q / Esc     quit (trajectory closed, summary printed)",
	NULL
};

/* copy s into buf cut to at most max characters (max >= 4) */
static const char *fit(char *buf, size_t len, const char *s, int max)
{
	snprintf(buf, len, "%s", s);
	if (max >= 4 && (int)strlen(buf) > max) {
		buf[max - 3] = '\0';
		strcat(buf, "...");
	}
	return buf;
}

static void line(viz_canvas *cv, int x, int *y, int sc, uint32_t c, const char *s)
{
	viz_text(cv, x, *y, sc, c, s);
	*y += 10 * sc;
}

void viz_draw_hud(viz_canvas *cv, const viz_hud *h)
{
	int sc = viz_font_scale(cv->h), x = 8 * sc, y = 8 * sc;
	int maxc = (cv->w - 2 * x) / (6 * sc) - 1, nl = 8;
	char b[256], f[256];

	if (maxc > 64)
		maxc = 64;
	if (maxc < 8)
		return;
	nl += (h->strategy_note != NULL) + (h->ratio != NULL) + (h->device != NULL) +
	      (h->paused || h->finished);
	viz_fill_rect(cv, x - 4 * sc, y - 4 * sc, (maxc + 1) * 6 * sc, nl * 10 * sc + 6 * sc,
		      0x000000u, 120);

	snprintf(b, sizeof(b), "%.1f FPS  %.0f steps/s  %d steps/frame [+-]",
		 h->fps, h->sps, h->steps_per_frame);
	line(cv, x, &y, sc, C_GOOD, fit(f, sizeof(f), b, maxc));
	if (h->stride > 1)
		snprintf(b, sizeof(b), "N %d, drawn %d (every %d%s, viz.max_particles)",
			 h->n, h->drawn, h->stride,
			 h->stride == 2 ? "nd" : h->stride == 3 ? "rd" : "th");
	else
		snprintf(b, sizeof(b), "N %d, drawn %d", h->n, h->drawn);
	line(cv, x, &y, sc, C_TEXT, fit(f, sizeof(f), b, maxc));
	snprintf(b, sizeof(b), "backend %s", h->backend ? h->backend : "?");
	line(cv, x, &y, sc, C_TEXT, fit(f, sizeof(f), b, maxc));
	if (h->device)
		line(cv, x + 2 * 6 * sc, &y, sc, C_DIM, fit(f, sizeof(f), h->device, maxc - 2));
	snprintf(b, sizeof(b), "strategy %s [1-5]", h->strategy ? h->strategy : "?");
	line(cv, x, &y, sc, C_TEXT, fit(f, sizeof(f), b, maxc));
	if (h->strategy_note)
		line(cv, x + 2 * 6 * sc, &y, sc, C_WARN,
		     fit(f, sizeof(f), h->strategy_note, maxc - 2));
	if (h->ratio)
		line(cv, x, &y, sc, C_TEXT, fit(f, sizeof(f), h->ratio, maxc));
	snprintf(b, sizeof(b), "step %ld  T %.4f  E/N %.4f", h->step, h->temp, h->etot);
	line(cv, x, &y, sc, C_TEXT, fit(f, sizeof(f), b, maxc));
	if (h->color == VIZ_COLOR_SPEED)
		snprintf(b, sizeof(b), "colour: speed, blue 0 .. red %.2f [c]", h->speed_top);
	else
		snprintf(b, sizeof(b), "colour: type [c]");
	line(cv, x, &y, sc, C_TEXT, fit(f, sizeof(f), b, maxc));
	if (h->finished && h->paused)
		line(cv, x, &y, sc, C_WARN,
		     fit(f, sizeof(f), "run.steps done: space runs on, q quits", maxc));
	else if (h->paused)
		line(cv, x, &y, sc, C_WARN,
		     fit(f, sizeof(f), "PAUSED: space resumes, . steps", maxc));
	line(cv, x, &y, sc, C_DIM, fit(f, sizeof(f), "? keys  h hide  q quit", maxc));
	if (h->message && h->message[0]) {
		int my = cv->h - 14 * sc;

		viz_fill_rect(cv, 0, my - 4 * sc, cv->w, 14 * sc, 0x000000u, 140);
		viz_text(cv, x, my, sc, C_WARN, fit(f, sizeof(f), h->message, maxc * 2));
	}
}

void viz_draw_help(viz_canvas *cv, const char *const *lines)
{
	int sc = viz_font_scale(cv->h), n = 0, wmax = 0, x, y;

	for (n = 0; lines[n]; n++) {
		int w = viz_text_width(lines[n], 1);

		wmax = w > wmax ? w : wmax;
	}
	if (sc > 1 && (wmax + 16) * sc > cv->w)
		sc = 1;		/* a narrow window: small text */
	wmax *= sc;
	wmax += 16 * sc;
	x = (cv->w - wmax) / 2;
	y = (cv->h - (n + 2) * 10 * sc) / 2;
	if (x < 0)
		x = 0;
	if (y < 0)
		y = 0;
	viz_fill_rect(cv, x, y, wmax, (n + 2) * 10 * sc + 8 * sc, 0x101420u, 235);
	viz_text(cv, x + 8 * sc, y + 6 * sc, sc, C_GOOD, "mdsim controls  (? closes)");
	for (int k = 0; k < n; k++)
		viz_text(cv, x + 8 * sc, y + (k + 2) * 10 * sc + 2 * sc, sc, C_TEXT, lines[k]);
}

static void bar(viz_canvas *cv, int x, int y, int wmax, int h, double frac,
		uint32_t rgb)
{
	int w = (int)(frac * wmax + 0.5);

	if (frac > 0.0 && w < 1)
		w = 1;
	viz_fill_rect(cv, x, y, wmax, h, 0x303848u, 160);
	viz_fill_rect(cv, x, y, w, h, rgb, 255);
}

void viz_draw_race(viz_canvas *cv, const viz_race *r)
{
	int sc = viz_font_scale(cv->h), pw, ph, x, y, bw, k;
	double fmax = 0.0, smax = 0.0;
	char b[96];

	for (k = 0; k < r->nrows; k++) {
		if (r->rows[k].state == 0)
			continue;
		fmax = r->rows[k].fps > fmax ? r->rows[k].fps : fmax;
		smax = r->rows[k].sps > smax ? r->rows[k].sps : smax;
	}
	pw = 52 * 6 * sc;
	if (pw > cv->w - 8 * sc)
		pw = cv->w - 8 * sc;
	ph = (4 + 2 * r->nrows) * 10 * sc + 4 * sc;
	x = cv->w - pw - 4 * sc;
	y = cv->h - ph - 20 * sc;
	if (y < 0)
		y = 0;
	viz_fill_rect(cv, x, y, pw, ph, 0x0c1018u, 200);
	viz_text(cv, x + 6 * sc, y + 6 * sc, sc, C_TEXT, "strategy race");
	viz_text(cv, x + 6 * sc + viz_text_width("strategy race  ", sc), y + 6 * sc, sc,
		 C_FPS, "FPS");
	viz_text(cv, x + 6 * sc + viz_text_width("strategy race  FPS  ", sc), y + 6 * sc,
		 sc, C_SPS, "steps/s");
	if (r->note)
		viz_text(cv, x + 6 * sc, y + 16 * sc, sc, C_WARN, r->note);
	y += 30 * sc;
	bw = pw - 6 * sc - 9 * 6 * sc - 12 * 6 * sc;
	for (k = 0; k < r->nrows; k++) {
		const viz_race_row *row = &r->rows[k];
		int bx = x + 6 * sc + 9 * 6 * sc;
		uint32_t nc = row->state == 1 ? C_WARN : row->state == 2 ? C_TEXT : C_DIM;

		viz_text(cv, x + 6 * sc, y + 4 * sc, sc, nc, row->name);
		if (row->state) {
			bar(cv, bx, y, bw, 8 * sc, fmax > 0.0 ? row->fps / fmax : 0.0, C_FPS);
			bar(cv, bx, y + 10 * sc, bw, 8 * sc, smax > 0.0 ? row->sps / smax : 0.0,
			    C_SPS);
			snprintf(b, sizeof(b), "%.1f", row->fps);
			viz_text(cv, bx + bw + 4 * sc, y, sc, C_FPS, b);
			snprintf(b, sizeof(b), "%.0f", row->sps);
			viz_text(cv, bx + bw + 4 * sc, y + 10 * sc, sc, C_SPS, b);
			if (row->state == 1) {
				int pwid = (int)(row->progress * bw);

				viz_fill_rect(cv, bx, y + 18 * sc, pwid, sc, C_WARN, 255);
			}
		}
		y += 20 * sc;
	}
}
