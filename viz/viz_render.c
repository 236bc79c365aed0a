/*
 * viz_render.c - the software sphere renderer.
 *
 * Each drawn particle is projected once (perspective, camera from
 * viz_camera) to a screen disc: centre, radius in pixels, view depth of the
 * centre. Discs are put in front-to-back order (a bucket sort on depth) and
 * binned into horizontal bands of BAND rows; OpenMP threads take whole
 * bands, so no two threads write the same pixel. A band keeps, per tile of
 * TILE columns, the farthest depth drawn so far: a disc whose nearest
 * point lies behind that depth in every tile it touches is hidden and
 * skipped (exact, and most of a large system is hidden). Inside
 * a disc the pixel's sphere normal gives Lambert + Blinn-Phong shading and
 * the depth of the sphere surface, tested against a per-pixel depth buffer
 * (exact visibility for intersecting spheres, no sort needed). Depth cue:
 * colours fade towards the background with the distance across the box.
 * The box outline is drawn last, hidden where particles are in front.
 *
 * Invariants: depth holds view depths (sigma) of the nearest surface drawn
 * so far, FLT_MAX for background; proj has one entry per drawn particle
 * (rad <= 0: outside the view).
 */
#include "viz.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAND 16			/* rows per band                          */
#define TILE 16			/* columns per occlusion tile             */
#define DEPTH_BUCKETS 4096	/* front-to-back order resolution         */
#define NEAR 0.05		/* near plane, sigma                      */
#define RADIUS 0.5		/* sphere radius, sigma                   */

struct viz_proj {
	float sx, sy, rad, z;	/* screen centre and radius, view depth   */
	float a[3];		/* base colour times fog                   */
	float o[3];		/* fog colour times (1 - fog)              */
	float s;		/* specular strength times fog             */
};

/* what a band needs to test a disc for occlusion, read in sequence */
struct viz_ent {
	float sx, sy, rad, z;
	int k;			/* index into cv->sorted                   */
};

/* view transform: q = rows of m applied to (p - target); depth = dist - q.z */
typedef struct view {
	double m[3][3], t[3], dist, f, cx, cy;
} view;

static const float light[3] = { -0.4437f, 0.5423f, 0.7133f };	/* unit */
static const float half_v[3] = { -0.2397f, 0.2930f, 0.9256f };	/* (L+z)/|L+z| */
static const float fog_rgb[3] = { 12.0f, 14.0f, 22.0f };

static void make_view(view *v, const viz_camera *c, int w, int h)
{
	double cy = cos(c->yaw), sy = sin(c->yaw);
	double cp = cos(c->pitch), sp = sin(c->pitch);

	v->m[0][0] = cy;       v->m[0][1] = 0.0; v->m[0][2] = -sy;
	v->m[1][0] = -sp * sy; v->m[1][1] = cp;  v->m[1][2] = -sp * cy;
	v->m[2][0] = cp * sy;  v->m[2][1] = sp;  v->m[2][2] = cp * cy;
	memcpy(v->t, c->target, sizeof(v->t));
	v->dist = c->dist;
	v->f = 0.5 * h / tan(0.5 * c->fov);
	v->cx = 0.5 * w;
	v->cy = 0.5 * h;
}

/* view-space coordinates of world point p: q[0..1] lateral, q[2] depth */
static void to_view(const view *v, const double p[3], double q[3])
{
	double d[3] = { p[0] - v->t[0], p[1] - v->t[1], p[2] - v->t[2] };
	int k;

	for (k = 0; k < 3; k++)
		q[k] = v->m[k][0] * d[0] + v->m[k][1] * d[1] + v->m[k][2] * d[2];
	q[2] = v->dist - q[2];
}

int viz_canvas_init(viz_canvas *cv, int w, int h)
{
	memset(cv, 0, sizeof(*cv));
	return viz_canvas_resize(cv, w, h);
}

int viz_canvas_resize(viz_canvas *cv, int w, int h)
{
	uint32_t *pix;
	float *depth, *tmax;
	unsigned char *dirty;
	int *start;
	int nb = (h + BAND - 1) / BAND, nt = (w + TILE - 1) / TILE;

	if (w < 1 || h < 1)
		return -1;
	if (cv->pix && cv->w == w && cv->h == h)
		return 0;
	pix = malloc((size_t)w * h * sizeof(*pix));
	depth = malloc((size_t)w * h * sizeof(*depth));
	start = malloc(((size_t)nb + 1) * sizeof(*start));
	tmax = malloc((size_t)nb * nt * sizeof(*tmax));
	dirty = malloc((size_t)nb * nt);
	if (!pix || !depth || !start || !tmax || !dirty)
		goto fail;
	free(cv->pix);
	free(cv->depth);
	free(cv->band_start);
	free(cv->tile_max);
	free(cv->tile_dirty);
	cv->pix = pix;
	cv->depth = depth;
	cv->band_start = start;
	cv->tile_max = tmax;
	cv->tile_dirty = dirty;
	cv->w = w;
	cv->h = h;
	cv->nbands = nb;
	cv->ntiles = nt;
	memset(pix, 0, (size_t)w * h * sizeof(*pix));
	return 0;
fail:
	free(pix);
	free(depth);
	free(start);
	free(tmax);
	free(dirty);
	return -1;
}

void viz_canvas_destroy(viz_canvas *cv)
{
	free(cv->pix);
	free(cv->depth);
	free(cv->proj);
	free(cv->band_ent);
	free(cv->band_start);
	free(cv->sorted);
	free(cv->tile_max);
	free(cv->tile_dirty);
	memset(cv, 0, sizeof(*cv));
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *q;

	if (need <= *cap)
		return 0;
	need += need / 2 + 16;
	q = realloc(*p, need * size);
	if (!q)
		return -1;
	*p = q;
	*cap = need;
	return 0;
}

static void type_color(int t, float c[3])
{
	static const float pal[6][3] = {
		{ 0.96f, 0.58f, 0.22f }, { 0.30f, 0.62f, 1.00f },
		{ 0.45f, 0.86f, 0.38f }, { 0.88f, 0.38f, 0.80f },
		{ 0.95f, 0.88f, 0.30f }, { 0.35f, 0.88f, 0.88f },
	};
	int k = t < 0 ? 0 : t % 6;

	memcpy(c, pal[k], 3 * sizeof(float));
}

/* speed ramp: blue, cyan, yellow, red for u in [0, 1] */
static void ramp_color(float u, float c[3])
{
	static const float stop[4][3] = {
		{ 0.18f, 0.30f, 1.00f }, { 0.10f, 0.85f, 0.90f },
		{ 0.98f, 0.90f, 0.20f }, { 1.00f, 0.20f, 0.12f },
	};
	float s;
	int k;

	if (u < 0.0f)
		u = 0.0f;
	if (u > 1.0f)
		u = 1.0f;
	s = u * 3.0f;
	k = (int)s;
	if (k > 2)
		k = 2;
	s -= (float)k;
	for (int d = 0; d < 3; d++)
		c[d] = stop[k][d] + s * (stop[k + 1][d] - stop[k][d]);
}

static void clear(viz_canvas *cv)
{
#pragma omp parallel for schedule(static)
	for (int y = 0; y < cv->h; y++) {
		float t = (float)y / (float)cv->h;
		uint32_t r = (uint32_t)(26.0f - 16.0f * t), g = (uint32_t)(30.0f - 19.0f * t);
		uint32_t b = (uint32_t)(44.0f - 28.0f * t);
		uint32_t c = 0xff000000u | r << 16 | g << 8 | b;
		uint32_t *row = cv->pix + (size_t)y * cv->w;
		float *dr = cv->depth + (size_t)y * cv->w;

		for (int x = 0; x < cv->w; x++) {
			row[x] = c;
			dr[x] = FLT_MAX;
		}
	}
}

/* depth range of the box corners, for the fog */
static void box_depths(const view *v, const double box[3], double *z0, double *z1)
{
	int k;

	*z0 = DBL_MAX;
	*z1 = -DBL_MAX;
	for (k = 0; k < 8; k++) {
		double p[3] = { k & 1 ? box[0] : 0.0, k & 2 ? box[1] : 0.0,
				k & 4 ? box[2] : 0.0 }, q[3];

		to_view(v, p, q);
		if (q[2] < *z0)
			*z0 = q[2];
		if (q[2] > *z1)
			*z1 = q[2];
	}
	if (*z0 < NEAR)
		*z0 = NEAR;
	if (*z1 < *z0 + 1.0)
		*z1 = *z0 + 1.0;
}

static float fog_keep(double z, double z0, double z1)
{
	double u = (z - z0) / (z1 - z0);

	if (u < 0.0)
		u = 0.0;
	if (u > 1.0)
		u = 1.0;
	return (float)(1.0 - 0.6 * u);
}

/* smoothed colour scale: twice the mean speed of the drawn particles */
static void update_speed_scale(viz_canvas *cv, const viz_particles *p, int stride)
{
	double sum = 0.0, s;
	long cnt = 0;

#pragma omp parallel for schedule(static) reduction(+:sum, cnt)
	for (int i = 0; i < p->n; i += stride) {
		const double *v = p->v + 3 * (size_t)i;

		sum += sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
		cnt++;
	}
	s = cnt ? 2.0 * sum / cnt : 1.0;
	if (s <= 0.0)
		s = 1.0;
	cv->speed_scale = cv->speed_scale > 0.0 ? 0.8 * cv->speed_scale + 0.2 * s : s;
}

static void project(viz_canvas *cv, const view *v, const viz_particles *p,
		    int color, int stride, double z0, double z1)
{
	long m = (p->n + stride - 1) / stride;
	float inv_scale = (float)(1.0 / cv->speed_scale);

#pragma omp parallel for schedule(static)
	for (long k = 0; k < m; k++) {
		size_t i = (size_t)k * stride;
		struct viz_proj *o = &cv->proj[k];
		double q[3], rad;
		float base[3], keep;

		to_view(v, p->x + 3 * i, q);
		o->rad = 0.0f;
		if (q[2] < NEAR + RADIUS)
			continue;
		rad = v->f * RADIUS / q[2];
		o->sx = (float)(v->cx + v->f * q[0] / q[2]);
		o->sy = (float)(v->cy - v->f * q[1] / q[2]);
		if (rad < 0.75)
			rad = 0.75;
		if (o->sx + rad < 0.0f || o->sx - rad > cv->w ||
		    o->sy + rad < 0.0f || o->sy - rad > cv->h)
			continue;
		o->rad = (float)rad;
		o->z = (float)q[2];
		if (color == VIZ_COLOR_SPEED && p->v) {
			const double *w = p->v + 3 * i;

			ramp_color((float)sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) *
				   inv_scale, base);
		} else {
			type_color(p->type ? p->type[i] : 0, base);
		}
		keep = fog_keep(q[2], z0, z1);
		for (int d = 0; d < 3; d++) {
			o->a[d] = 255.0f * base[d] * keep;
			o->o[d] = fog_rgb[d] * (1.0f - keep);
		}
		o->s = 120.0f * keep;
	}
}

/* Depth bucket of a disc at view depth z (fz0: nearest, s: buckets/depth). */
static int depth_bucket(float z, float fz0, float s)
{
	int b = (int)((z - fz0) * s);

	return b < 0 ? 0 : b >= DEPTH_BUCKETS ? DEPTH_BUCKETS - 1 : b;
}

/*
 * order - copy the visible discs into cv->sorted, nearest first: a counting
 * sort of their view depths (within the box's depth range z0..z1) into
 * DEPTH_BUCKETS buckets. A copy, not an index, so that the band loops read
 * memory in order. Returns how many are visible, or -1 when out of memory.
 */
static long order(viz_canvas *cv, long m, double z0, double z1)
{
	int cnt[DEPTH_BUCKETS + 1];	/* 16 KiB of stack */
	float s = (float)(DEPTH_BUCKETS / (z1 - z0)), fz0 = (float)z0;
	long k;

	if (grow((void **)&cv->sorted, &cv->sorted_cap, (size_t)m, sizeof(*cv->sorted)))
		return -1;
	memset(cnt, 0, sizeof(cnt));
	for (k = 0; k < m; k++) {
		const struct viz_proj *o = &cv->proj[k];

		if (o->rad > 0.0f)
			cnt[depth_bucket(o->z, fz0, s) + 1]++;
	}
	for (k = 0; k < DEPTH_BUCKETS; k++)
		cnt[k + 1] += cnt[k];
	for (k = 0; k < m; k++) {
		const struct viz_proj *o = &cv->proj[k];

		if (o->rad > 0.0f)
			cv->sorted[cnt[depth_bucket(o->z, fz0, s)]++] = *o;
	}
	return cnt[DEPTH_BUCKETS];
}

/* bands [b0, b1] that disc o touches */
static void band_range(const viz_canvas *cv, const struct viz_proj *o, int *b0, int *b1)
{
	*b0 = (int)floorf((o->sy - o->rad) / BAND);
	*b1 = (int)floorf((o->sy + o->rad) / BAND);
	*b0 = *b0 < 0 ? 0 : *b0;
	*b1 = *b1 >= cv->nbands ? cv->nbands - 1 : *b1;
}

/* bin the visible discs (cv->sorted) by the bands they touch, keeping the
 * order within each band; -1 when out of memory */
static int bin(viz_canvas *cv, long nvis)
{
	int nb = cv->nbands, *start = cv->band_start, b0, b1;
	long k, total = 0;

	memset(start, 0, ((size_t)nb + 1) * sizeof(*start));
	for (k = 0; k < nvis; k++) {
		band_range(cv, &cv->sorted[k], &b0, &b1);
		for (int b = b0; b <= b1; b++)
			start[b + 1]++;
		total += b1 - b0 + 1;
	}
	if (grow((void **)&cv->band_ent, &cv->idx_cap, (size_t)total + 1,
		 sizeof(*cv->band_ent)))
		return -1;
	for (int b = 0; b < nb; b++)
		start[b + 1] += start[b];
	for (k = 0; k < nvis; k++) {
		const struct viz_proj *o = &cv->sorted[k];
		struct viz_ent e = { o->sx, o->sy, o->rad, o->z, (int)k };

		band_range(cv, o, &b0, &b1);
		for (int b = b0; b <= b1; b++)
			cv->band_ent[start[b]++] = e;
	}
	for (int b = nb; b > 0; b--)	/* start[b] was advanced to the end of b */
		start[b] = start[b - 1];
	start[0] = 0;
	return 0;
}

/*
 * hidden - 1 when every pixel that disc o could cover in band b (rows
 * y0..y1) already holds a surface nearer than the sphere's nearest point.
 * Tiles whose pixels changed since their last look are rescanned.
 */
static int hidden(viz_canvas *cv, const struct viz_ent *o, int b, int y0, int y1)
{
	int t0 = (int)floorf((o->sx - o->rad) / TILE), t1 = (int)floorf((o->sx + o->rad) / TILE);
	float znear = o->z - (float)RADIUS;
	float *tmax = cv->tile_max + (size_t)b * cv->ntiles;
	unsigned char *dirty = cv->tile_dirty + (size_t)b * cv->ntiles;

	t0 = t0 < 0 ? 0 : t0;
	t1 = t1 >= cv->ntiles ? cv->ntiles - 1 : t1;
	for (int t = t0; t <= t1; t++) {
		if (dirty[t]) {
			int x0 = t * TILE, nx = x0 + TILE > cv->w ? cv->w - x0 : TILE;
			float lane[TILE] = { 0.0f }, m = 0.0f;

			/* per-column maxima first: no loop-carried reduction, so
			 * the full-width case vectorises */
			for (int y = y0; y < y1; y++) {
				const float *d = cv->depth + (size_t)y * cv->w + x0;

				if (nx == TILE) {
					for (int x = 0; x < TILE; x++)
						lane[x] = d[x] > lane[x] ? d[x] : lane[x];
				} else {
					for (int x = 0; x < nx; x++)
						lane[x] = d[x] > lane[x] ? d[x] : lane[x];
				}
			}
			for (int x = 0; x < TILE; x++)
				m = lane[x] > m ? lane[x] : m;
			tmax[t] = m;
			dirty[t] = 0;
		}
		if (tmax[t] >= znear)
			return 0;
	}
	return 1;
}

/* after drawing o in band b: its tiles must be rescanned */
static void touch(viz_canvas *cv, const struct viz_ent *o, int b)
{
	int t0 = (int)floorf((o->sx - o->rad) / TILE), t1 = (int)floorf((o->sx + o->rad) / TILE);
	unsigned char *dirty = cv->tile_dirty + (size_t)b * cv->ntiles;

	t0 = t0 < 0 ? 0 : t0;
	t1 = t1 >= cv->ntiles ? cv->ntiles - 1 : t1;
	for (int t = t0; t <= t1; t++)
		dirty[t] = 1;
}

static inline uint32_t pack(float r, float g, float b)
{
	uint32_t ir = r > 255.0f ? 255u : (uint32_t)r;
	uint32_t ig = g > 255.0f ? 255u : (uint32_t)g;
	uint32_t ib = b > 255.0f ? 255u : (uint32_t)b;

	return 0xff000000u | ir << 16 | ig << 8 | ib;
}

/*
 * draw disc o clipped to rows [y0, y1). The pixel loop has no branch: the
 * shade is computed for every pixel of the span and the depth test picks
 * old or new with selects, so that the compiler vectorises it (AVX2 /
 * AVX-512: 8 or 16 pixels at a time).
 */
static void draw_disc(viz_canvas *cv, const struct viz_proj *o, int y0, int y1)
{
	const float r = o->rad, inv_r = 1.0f / r, wr = RADIUS, oz = o->z, os = o->s;
	const float a0 = o->a[0], a1 = o->a[1], a2 = o->a[2];
	const float o0 = o->o[0], o1 = o->o[1], o2 = o->o[2];
	int ya = (int)ceilf(o->sy - r - 0.5f), yb = (int)floorf(o->sy + r - 0.5f);

	if (ya < y0)
		ya = y0;
	if (yb >= y1)
		yb = y1 - 1;
	for (int y = ya; y <= yb; y++) {
		float dy = (float)y + 0.5f - o->sy, half2 = r * r - dy * dy, half;
		float ny = -dy * inv_r, ny2 = ny * ny;
		float ldy = ny * light[1], hdy = ny * half_v[1];
		float x0 = o->sx - 0.5f;
		uint32_t *row;
		float *drow;
		int xa, xb;

		if (half2 < 0.0f)
			continue;
		half = sqrtf(half2);
		xa = (int)ceilf(o->sx - half - 0.5f);
		xb = (int)floorf(o->sx + half - 0.5f);
		if (xa < 0)
			xa = 0;
		if (xb >= cv->w)
			xb = cv->w - 1;
		row = cv->pix + (size_t)y * cv->w;
		drow = cv->depth + (size_t)y * cv->w;
		for (int x = xa; x <= xb; x++) {
			float nx = ((float)x - x0) * inv_r;
			float q = 1.0f - nx * nx - ny2, nz, z, dif, t, sh, cr, cg, cb;
			uint32_t c;

			q = q > 0.0f ? q : 0.0f;
			nz = sqrtf(q);
			z = oz - wr * nz;
			dif = nx * light[0] + ldy + nz * light[2];
			dif = dif > 0.0f ? dif : 0.0f;
			t = nx * half_v[0] + hdy + nz * half_v[2];
			t = t > 0.0f ? t : 0.0f;
			t *= t;		/* t^2 */
			t *= t;		/* t^4 */
			t *= t;		/* t^8 */
			t = t * t * t * os;	/* t^24, times the strength */
			sh = 0.20f + 0.80f * dif;
			cr = a0 * sh + t + o0;
			cg = a1 * sh + t + o1;
			cb = a2 * sh + t + o2;
			cr = cr < 255.0f ? cr : 255.0f;
			cg = cg < 255.0f ? cg : 255.0f;
			cb = cb < 255.0f ? cb : 255.0f;
			c = 0xff000000u | (uint32_t)(int)cr << 16 | (uint32_t)(int)cg << 8 |
			    (uint32_t)(int)cb;
			row[x] = z < drow[x] ? c : row[x];
			drow[x] = z < drow[x] ? z : drow[x];
		}
	}
}

/* one box edge from a to b (world), clipped to the near plane */
static void draw_edge(viz_canvas *cv, const view *v, const double a[3],
		      const double b[3], double z0, double z1)
{
	double qa[3], qb[3], xa, ya, xb, yb, len;
	int steps;

	to_view(v, a, qa);
	to_view(v, b, qb);
	if (qa[2] < NEAR && qb[2] < NEAR)
		return;
	if (qa[2] < NEAR || qb[2] < NEAR) {	/* cut at the near plane */
		double *in = qa[2] < NEAR ? qb : qa, *out = qa[2] < NEAR ? qa : qb;
		double s = (NEAR - in[2]) / (out[2] - in[2]);

		for (int d = 0; d < 3; d++)
			out[d] = in[d] + s * (out[d] - in[d]);
	}
	xa = v->cx + v->f * qa[0] / qa[2];
	ya = v->cy - v->f * qa[1] / qa[2];
	xb = v->cx + v->f * qb[0] / qb[2];
	yb = v->cy - v->f * qb[1] / qb[2];
	len = fabs(xb - xa) > fabs(yb - ya) ? fabs(xb - xa) : fabs(yb - ya);
	if (len > 1e5)
		return;		/* degenerate, nearly edge-on to the eye */
	steps = (int)len + 1;
	for (int k = 0; k <= steps; k++) {
		double s = (double)k / steps, z = qa[2] + s * (qb[2] - qa[2]);
		int x = (int)floor(xa + s * (xb - xa)), y = (int)floor(ya + s * (yb - ya));
		float keep;
		size_t i;

		if (x < 0 || y < 0 || x >= cv->w || y >= cv->h)
			continue;
		i = (size_t)y * cv->w + x;
		if (cv->depth[i] < z - 0.3)
			continue;	/* a particle is in front */
		keep = fog_keep(z, z0, z1);
		cv->pix[i] = pack(175.0f * keep + fog_rgb[0] * (1.0f - keep),
				  185.0f * keep + fog_rgb[1] * (1.0f - keep),
				  205.0f * keep + fog_rgb[2] * (1.0f - keep));
	}
}

static void draw_box(viz_canvas *cv, const view *v, const double box[3],
		     double z0, double z1)
{
	int k, d;

	for (k = 0; k < 8; k++) {
		double a[3] = { k & 1 ? box[0] : 0.0, k & 2 ? box[1] : 0.0,
				k & 4 ? box[2] : 0.0 };

		for (d = 0; d < 3; d++) {
			double b[3] = { a[0], a[1], a[2] };

			if (k & (1 << d))
				continue;	/* each edge once, from its low end */
			b[d] = box[d];
			draw_edge(cv, v, a, b, z0, z1);
		}
	}
}

int viz_render(viz_canvas *cv, const viz_camera *cam, const viz_particles *p,
	       int color, int stride)
{
	view v;
	double z0, z1;
	long m, k, nvis;
	int drawn = 0;

	if (stride < 1)
		stride = 1;
	make_view(&v, cam, cv->w, cv->h);
	box_depths(&v, p->box, &z0, &z1);
	clear(cv);
	m = p->n > 0 ? (p->n + stride - 1) / stride : 0;
	if (m > 0 && !grow((void **)&cv->proj, &cv->proj_cap, (size_t)m,
			   sizeof(struct viz_proj))) {
		if (color == VIZ_COLOR_SPEED && p->v)
			update_speed_scale(cv, p, stride);
		else if (cv->speed_scale <= 0.0)
			cv->speed_scale = 1.0;
		project(cv, &v, p, color, stride, z0, z1);
		nvis = order(cv, m, z0, z1);
		if (nvis >= 0 && !bin(cv, nvis)) {
			for (k = 0; k < (long)cv->nbands * cv->ntiles; k++) {
				cv->tile_max[k] = FLT_MAX;	/* background: nothing hides */
				cv->tile_dirty[k] = 0;
			}
#pragma omp parallel for schedule(dynamic, 1)
			for (int b = 0; b < cv->nbands; b++) {
				int y0 = b * BAND, y1 = y0 + BAND > cv->h ? cv->h : y0 + BAND;

				for (int j = cv->band_start[b]; j < cv->band_start[b + 1]; j++) {
					const struct viz_ent *e = &cv->band_ent[j];

					if (hidden(cv, e, b, y0, y1))
						continue;
					draw_disc(cv, &cv->sorted[e->k], y0, y1);
					touch(cv, e, b);
				}
			}
			drawn = (int)nvis;
		}
	}
	draw_box(cv, &v, p->box, z0, z1);
	return drawn;
}
