/*
 * xyz.c - XYZ reading and writing, and the O(N) overlap check used by the
 * reader and by random placement. Lines are read with getline (any
 * length); every message names file:line.
 */
#include "xyz.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "setup.h"

#define XYZ_MAX_N 500000000L
#define XYZ_MAX_SPECIES MD_MAX_TYPES

typedef struct xyz_in {
	FILE *fp, *err;
	const char *path;
	char *buf;
	size_t cap;
	int line;
} xyz_in;

static char *next_line(xyz_in *in)
{
	ssize_t len = getline(&in->buf, &in->cap, in->fp);

	if (len < 0)
		return NULL;
	in->line++;
	if (memchr(in->buf, '\0', (size_t)len))
		in->buf[0] = '\x01';	/* binary: fails every parse below */
	return in->buf;
}

/* Up to max whitespace-separated doubles; returns the count or -1. */
static int parse_doubles(const char *s, double *v, int max, const char **rest)
{
	int k = 0;

	while (k < max) {
		char *end;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		errno = 0;
		v[k] = strtod(s, &end);
		if (end == s || errno == ERANGE || !isfinite(v[k]) ||
		    (*end && !isspace((unsigned char)*end)))
			return -1;
		s = end;
		k++;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (rest)
		*rest = s;
	return k;
}

/* Box from Lattice="a b c d e f g h i" (orthorhombic only). */
static int parse_lattice(xyz_in *in, const char *comment, double box[3])
{
	const char *p = strstr(comment, "Lattice=\"");
	double m[9];

	if (!p) {
		fprintf(in->err, "mdsim: %s:%d: the comment line has no Lattice=\"Lx 0 0 0 Ly 0 0 0 Lz\" (the box)\n",
			in->path, in->line);
		return MD_EXIT_INPUT;
	}
	p += 9;
	{
		char tmp[512];
		const char *q = strchr(p, '"');
		size_t len = q ? (size_t)(q - p) : 0;

		if (!q || len >= sizeof(tmp) ||
		    (memcpy(tmp, p, len), tmp[len] = '\0',
		     parse_doubles(tmp, m, 9, NULL) != 9)) {
			fprintf(in->err, "mdsim: %s:%d: Lattice needs nine numbers in quotes\n",
				in->path, in->line);
			return MD_EXIT_INPUT;
		}
	}
	if (m[1] != 0 || m[2] != 0 || m[3] != 0 || m[5] != 0 || m[6] != 0 ||
	    m[7] != 0) {
		fprintf(in->err, "mdsim: %s:%d: only orthorhombic boxes are supported (off-diagonal Lattice entries must be 0)\n",
			in->path, in->line);
		return MD_EXIT_INPUT;
	}
	box[0] = m[0];
	box[1] = m[4];
	box[2] = m[8];
	return 0;
}

static int check_box(xyz_in *in, const double box[3])
{
	int d;

	for (d = 0; d < 3; d++)
		if (!(box[d] > 0.0) || box[d] > 1e9) {
			fprintf(in->err, "mdsim: %s:%d: box edge %c = %g must be in (0, 1e9]\n",
				in->path, in->line, "xyz"[d], box[d]);
			return MD_EXIT_INPUT;
		}
	return 0;
}

static int parse_count(xyz_in *in, const char *s, long *n)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	errno = 0;
	*n = strtol(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno == ERANGE || *n < 1 || *n > XYZ_MAX_N) {
		fprintf(in->err, "mdsim: %s:%d: expected the particle count (an integer in [1, %ld])\n",
			in->path, in->line, XYZ_MAX_N);
		return MD_EXIT_INPUT;
	}
	return 0;
}

/* Species token: an integer >= 0, or a name numbered by first appearance. */
static int species_id(const char *tok, size_t len, char names[][16], int *nnames)
{
	char *end;
	long v;
	int k;

	if (len == 0 || len >= 16)
		return -1;
	v = strtol(tok, &end, 10);
	if (end == tok + len)
		return v >= 0 && v < XYZ_MAX_SPECIES ? (int)v : -1;
	for (k = 0; k < *nnames; k++)
		if (strlen(names[k]) == len && !strncmp(names[k], tok, len))
			return k;
	if (*nnames >= XYZ_MAX_SPECIES)
		return -1;
	memcpy(names[*nnames], tok, len);
	names[*nnames][len] = '\0';
	return (*nnames)++;
}

int md_xyz_read(const char *path, double min_dist, md_state *st, int *has_v,
		FILE *err)
{
	xyz_in in = { NULL, err, path, NULL, 0, 0 };
	char names[XYZ_MAX_SPECIES][16];
	double box[3], v[6];
	long n = 0, i, fsize = 0;
	int nnames = 0, nv = -1, rc = MD_EXIT_INPUT, d, a, b;
	char *l;
	double r;

	memset(st, 0, sizeof(*st));
	*has_v = 0;
	in.fp = fopen(path, "r");
	if (!in.fp) {
		fprintf(err, "mdsim: %s: cannot open: %s\n", path, strerror(errno));
		return MD_EXIT_INPUT;
	}
	if (fseek(in.fp, 0, SEEK_END) == 0) {
		fsize = ftell(in.fp);
		rewind(in.fp);
	}
	l = next_line(&in);
	if (!l) {
		fprintf(err, "mdsim: %s: the file is empty\n", path);
		goto out;
	}
	if (parse_doubles(l, v, 3, NULL) == 3) {	/* plain: box, then N */
		box[0] = v[0]; box[1] = v[1]; box[2] = v[2];
		if (check_box(&in, box))
			goto out;
		if (!(l = next_line(&in))) {
			fprintf(err, "mdsim: %s:%d: the file ends before the particle count\n",
				path, in.line);
			goto out;
		}
		if (parse_count(&in, l, &n))
			goto out;
	} else {				/* extended: N, comment */
		if (parse_count(&in, l, &n))
			goto out;
		if (!(l = next_line(&in))) {
			fprintf(err, "mdsim: %s:%d: the file ends before the comment line\n",
				path, in.line);
			goto out;
		}
		if (parse_lattice(&in, l, box) || check_box(&in, box))
			goto out;
	}
	/* a particle line has at least 8 bytes ("0 1 2 3\n"): never allocate
	 * for more particles than the file can hold (found by fuzzing) */
	if (n > fsize / 8 + 1) {
		fprintf(err, "mdsim: %s:%d: %ld particles announced, but the file (%ld bytes) can hold at most %ld\n",
			path, in.line, n, fsize, fsize / 8);
		goto out;
	}
	if (md_state_alloc(st, (int)n)) {
		fprintf(err, "mdsim: %s: cannot allocate %ld particles\n", path, n);
		goto out;
	}
	memcpy(st->box, box, sizeof(box));
	for (i = 0; i < n; i++) {
		const char *s, *rest;
		size_t len;
		int k, sp;

		if (!(l = next_line(&in))) {
			fprintf(err, "mdsim: %s:%d: the file ends after %ld of %ld particles\n",
				path, in.line, i, n);
			goto out;
		}
		s = l;
		while (isspace((unsigned char)*s))
			s++;
		len = strcspn(s, " \t\r\n");
		sp = species_id(s, len, names, &nnames);
		if (sp < 0) {
			fprintf(err, "mdsim: %s:%d: bad particle type \"%.*s\" (an integer in [0, %d) or a name; at most %d types)\n",
				path, in.line, (int)(len < 32 ? len : 32), s,
				XYZ_MAX_SPECIES, XYZ_MAX_SPECIES);
			goto out;
		}
		k = parse_doubles(s + len, v, 6, &rest);
		if ((k != 3 && k != 6) || *rest) {
			fprintf(err, "mdsim: %s:%d: expected \"type x y z\" or \"type x y z vx vy vz\" (numbers)\n",
				path, in.line);
			goto out;
		}
		if (nv < 0)
			nv = k;
		if (k != nv) {
			fprintf(err, "mdsim: %s:%d: %s velocities, unlike the first particle line\n",
				path, in.line, k == 6 ? "has" : "lacks");
			goto out;
		}
		for (d = 0; d < 3; d++) {
			if (v[d] < 0.0 || v[d] >= box[d]) {
				fprintf(err, "mdsim: %s:%d: particle %ld is outside the box: %c = %.10g not in [0, %.10g)\n",
					path, in.line, i + 1, "xyz"[d], v[d], box[d]);
				goto out;
			}
			st->x[3 * i + d] = v[d];
			if (k == 6)
				st->v[3 * i + d] = v[3 + d];
		}
		st->type[i] = sp;
	}
	while ((l = next_line(&in))) {
		const char *s = l;

		while (isspace((unsigned char)*s))
			s++;
		if (*s) {
			fprintf(err, "mdsim: %s:%d: more particle lines than the count %ld\n",
				path, in.line, n);
			goto out;
		}
	}
	/* particle k is on line 3 + k in both formats (two header lines) */
	if (min_dist > 0.0 && md_min_distance_check(st, min_dist, &a, &b, &r)) {
		fprintf(err, "mdsim: %s:%d: particles %d and %d (lines %d and %d) are %.4g apart, closer than %g sigma\n",
			path, 3 + b, a + 1, b + 1, 3 + a, 3 + b, r, min_dist);
		goto out;
	}
	*has_v = nv == 6;
	rc = 0;
out:
	if (rc)
		md_state_free(st);
	free(in.buf);
	fclose(in.fp);
	return rc;
}

int md_xyz_write(const char *path, const md_state *st, FILE *err)
{
	FILE *fp = fopen(path, "w");
	int i, bad;

	if (!fp) {
		fprintf(err, "mdsim: %s: cannot write: %s\n", path, strerror(errno));
		return MD_EXIT_IO;
	}
	fprintf(fp, "%d\nLattice=\"%.17g 0 0 0 %.17g 0 0 0 %.17g\" Properties=species:I:1:pos:R:3:vel:R:3 pbc=\"T T T\" step=%ld\n",
		st->n, st->box[0], st->box[1], st->box[2], st->step);
	for (i = 0; i < st->n; i++)
		fprintf(fp, "%d %.17g %.17g %.17g %.17g %.17g %.17g\n", st->type[i],
			st->x[3 * i], st->x[3 * i + 1], st->x[3 * i + 2],
			st->v[3 * i], st->v[3 * i + 1], st->v[3 * i + 2]);
	bad = ferror(fp);
	if (fclose(fp) || bad) {
		fprintf(err, "mdsim: %s: write failed: %s\n", path, strerror(errno));
		return MD_EXIT_IO;
	}
	return 0;
}

int md_min_distance_check(const md_state *st, double dmin, int *pi, int *pj,
			  double *pr)
{
	int nc[3], d, found = 0;
	long ncell = 1, c, i;
	int *head = NULL, *next = NULL;

	for (d = 0; d < 3; d++) {
		nc[d] = (int)(st->box[d] / dmin);
		if (nc[d] < 1)
			nc[d] = 1;
		if (nc[d] > 256)
			nc[d] = 256;
		ncell *= nc[d];
	}
	head = malloc(sizeof(int) * (size_t)ncell);
	next = malloc(sizeof(int) * (size_t)st->n);
	if (!head || !next)
		goto out;
	for (c = 0; c < ncell; c++)
		head[c] = -1;
	for (i = 0; i < st->n; i++) {
		int cc[3], dx, dy, dz;

		for (d = 0; d < 3; d++) {
			double s = st->x[3 * i + d] / st->box[d];

			cc[d] = (int)((s - floor(s)) * nc[d]) % nc[d];
		}
		for (dz = -1; dz <= 1 && !found; dz++)
		for (dy = -1; dy <= 1 && !found; dy++)
		for (dx = -1; dx <= 1 && !found; dx++) {
			int x = (cc[0] + dx + nc[0]) % nc[0];
			int y = (cc[1] + dy + nc[1]) % nc[1];
			int z = (cc[2] + dz + nc[2]) % nc[2];
			int j;

			for (j = head[((long)z * nc[1] + y) * nc[0] + x]; j >= 0; j = next[j]) {
				double r2 = 0.0;

				for (d = 0; d < 3; d++) {
					double u = st->x[3 * i + d] - st->x[3 * j + d];

					u -= st->box[d] * nearbyint(u / st->box[d]);
					r2 += u * u;
				}
				if (r2 < dmin * dmin) {
					*pi = j;
					*pj = (int)i;
					*pr = sqrt(r2);
					found = 1;
					break;
				}
			}
		}
		if (found)
			break;
		c = ((long)cc[2] * nc[1] + cc[1]) * nc[0] + cc[0];
		next[i] = head[c];
		head[c] = (int)i;
	}
out:
	free(head);
	free(next);
	return found;
}
