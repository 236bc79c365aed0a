/*
 * output.c - trajectory glue between the run loop and the H5MD writer:
 * a two-slot queue of host frames and one writer thread (see output.h).
 *
 * Ownership: the loop thread fills the slot after the queued ones without
 * the lock (the writer never looks at a slot that is not queued); the
 * writer only reads queued slots and frees them in order. HDF5 is called
 * by the loop thread before the writer starts and after it has been
 * joined, and by the writer in between, never by both at once.
 * The writer blocks SIGINT/SIGTERM so that the loop thread sees them.
 */
#include "output.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libgen.h>
#include <unistd.h>
#include "config.h"
#include "h5md.h"
#include "setup.h"
#include "thermo.h"
#include "timer.h"

#define NSLOT 2

/* slot i downloads with tag i; the last tag serves synchronous downloads */
typedef char nslot_fits_tags[NSLOT < MD_DL_TAGS ? 1 : -1];

/* output.units (config.c: "lj|argon") is passed on as an enum h5md_units */
typedef char units_keys_match[H5MD_UNITS_LJ == 0 && H5MD_UNITS_ARGON == 1 &&
			      H5MD_NUNITS == 2 ? 1 : -1];

typedef struct out_slot {
	md_state st;		/* downloaded fields, original order */
	double obs[H5MD_NOBS];
} out_slot;

struct md_output {
	char path[512];
	long every, step0, first_written;
	double dt, flush_interval;
	unsigned fields;
	int n, quiet, skip_first;
	double box[3];
	h5md_file *h;
	md_backend *be;		/* downloads into the slots, pinned */
	out_slot slot[NSLOT];
	int head, count;	/* queue: slots head .. head + count - 1 */
	int closing, failed, reported, thread_on;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char err[768];
	long written, flushes;
	double last_flush, writer_s, wait_s;
};

int md_output_fields(const char *list, unsigned *fields, char *bad,
		     size_t badlen)
{
	static const char *const names[] = { "position", "velocity", "force", "image" };
	static const unsigned bits[] = { MD_F_X, MD_F_V, MD_F_F, MD_F_IMAGE };
	const char *p = list;

	*fields = 0;
	while (*p) {
		size_t len;
		int i;

		p += strspn(p, " \t,");
		len = strcspn(p, " \t,");
		if (!len)
			break;
		for (i = 0; i < 4; i++)
			if (strlen(names[i]) == len && !strncmp(p, names[i], len))
				break;
		if (i == 4) {
			snprintf(bad, badlen, "%.*s", (int)len, p);
			return -1;
		}
		*fields |= bits[i];
		p += len;
	}
	if (!(*fields & MD_F_X)) {
		snprintf(bad, badlen, "(position missing)");
		return -1;
	}
	return 0;
}

int md_output_check(const md_config *cfg, FILE *err)
{
	struct stat sb;
	unsigned f;
	char bad[64], wt[600], wf[600], wa[600];
	char dir[sizeof(cfg->trajectory)];

	if (!cfg->trajectory[0])
		return 0;
	cfg_key_where(cfg, "output", "trajectory", wt, sizeof(wt));
	cfg_key_where(cfg, "output", "fields", wf, sizeof(wf));
	cfg_key_where(cfg, "output", "append", wa, sizeof(wa));
	if (md_output_fields(cfg->traj_fields, &f, bad, sizeof(bad))) {
		fprintf(err, "mdsim: %s: [output] fields: %s: expected a comma list of position (required), velocity, image, force\n",
			wf, bad);
		return MD_EXIT_INPUT;
	}
	if (stat(cfg->trajectory, &sb)) {
		/* a new file: its folder must exist and be writable, said before
		 * any work (creating it may still fail later: exit 4 then too) */
		snprintf(dir, sizeof(dir), "%s", cfg->trajectory);
		if (access(dirname(dir), W_OK | X_OK)) {
			fprintf(err, "mdsim: %s: [output] trajectory: cannot create %s: %s\n",
				wt, cfg->trajectory, strerror(errno));
			return MD_EXIT_IO;
		}
		return 0;
	}
	if (S_ISDIR(sb.st_mode)) {
		fprintf(err, "mdsim: %s: [output] trajectory: %s is a directory\n",
			wt, cfg->trajectory);
		return MD_EXIT_INPUT;
	}
	if (cfg->append) {
		if (cfg->restart[0])
			return 0;
		fprintf(err, "mdsim: %s: [output] append: continuing %s needs a restart (--restart FILE or output.restart): the run must start where the file ends\n",
			wa, cfg->trajectory);
		return MD_EXIT_INPUT;
	}
	if (cfg->overwrite)
		return 0;
	fprintf(err, "mdsim: %s: [output] trajectory: %s exists and is not overwritten (use --force or output.overwrite = true to replace it, or output.append = true with --restart to continue it)\n",
		wt, cfg->trajectory);
	return MD_EXIT_INPUT;
}

/* Same file? (paths may differ: ./a.h5md, a link, ...) */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int md_output_restart(const md_config *cfg, md_state *st, FILE *out)
{
	char err[1024];
	double t, box[3];
	long n = cfg_particles(cfg);
	int rc, d, i, units = H5MD_UNITS_LJ;

	h5md_quiet();
	rc = h5md_read_last_units(cfg->restart, MD_F_X | MD_F_V | MD_F_IMAGE, st,
				  &t, &units, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "mdsim: restart: %s\n", err);
		return rc;
	}
	/* continuing the restart file in other units: refused before any work
	 * (h5md_open_append checks any appended file again) */
	if (cfg->append && cfg->trajectory[0] && units != cfg->traj_units &&
	    same_file(cfg->trajectory, cfg->restart)) {
		fprintf(stderr, "mdsim: %s: [output] units: cannot append to %s: it is written in %s units, but output.units = %s; set output.units = %s to continue it, or write a new file\n",
			cfg->path, cfg->trajectory, h5md_units_name(units),
			h5md_units_name(cfg->traj_units), h5md_units_name(units));
		md_state_free(st);
		return MD_EXIT_INPUT;
	}
	cfg_box(cfg, box);
	if (n < 0) {	/* the config reads an XYZ file: take the restart's own */
		n = st->n;
		memcpy(box, st->box, sizeof(box));
	}
	for (d = 0; d < 3 && st->n == n; d++)
		if (fabs(st->box[d] - box[d]) > 1e-9 * box[d])
			break;
	if (st->n != n || d < 3) {
		fprintf(stderr, "mdsim: restart: %s holds %d particles in a %.10g x %.10g x %.10g box, but the [system] of %s describes %ld in %.10g x %.10g x %.10g: restart with the config of the run that wrote it\n",
			cfg->restart, st->n, st->box[0], st->box[1], st->box[2],
			cfg->path, n, box[0], box[1], box[2]);
		md_state_free(st);
		return MD_EXIT_INPUT;
	}
	for (i = 0; i < st->n; i++)
		if (st->type[i] < 0 || st->type[i] >= MD_MAX_TYPES) {
			fprintf(stderr, "mdsim: restart: %s: particle %d has species %d (0..%d expected)\n",
				cfg->restart, i, st->type[i], MD_MAX_TYPES - 1);
			md_state_free(st);
			return MD_EXIT_INPUT;
		}
	if (!cfg->quiet)
		fprintf(out, "Restart from %s: step %ld (time %g tau), %d particles%s\n",
			cfg->restart, st->step, t, st->n,
			units == H5MD_UNITS_LJ ? "" :
			" (file in argon units, converted to reduced units)");
	return 0;
}

/* Host buffers of one slot: only the downloaded fields (and species). */
static int slot_alloc(out_slot *s, int n, unsigned fields, const double box[3])
{
	size_t n3 = 3 * (size_t)n;

	memset(s, 0, sizeof(*s));
	s->st.n = n;
	memcpy(s->st.box, box, sizeof(s->st.box));
	s->st.x = malloc(sizeof(double) * n3);
	s->st.type = malloc(sizeof(int) * (size_t)n);
	if (fields & MD_F_V)
		s->st.v = malloc(sizeof(double) * n3);
	if (fields & MD_F_F)
		s->st.f = malloc(sizeof(double) * n3);
	if (fields & MD_F_IMAGE)
		s->st.image = malloc(sizeof(int) * n3);
	if (!s->st.x || !s->st.type || (fields & MD_F_V && !s->st.v) ||
	    (fields & MD_F_F && !s->st.f) || (fields & MD_F_IMAGE && !s->st.image))
		return -1;
	return 0;
}

static void *writer_main(void *arg)
{
	md_output *o = arg;
	char err[600];

	h5md_quiet();
	pthread_mutex_lock(&o->mu);
	for (;;) {
		out_slot *s;
		h5md_frame fr;
		double t0;
		int rc;

		while (!o->count && !o->closing)
			pthread_cond_wait(&o->cv, &o->mu);
		if (!o->count)
			break;
		s = &o->slot[o->head];
		pthread_mutex_unlock(&o->mu);

		t0 = md_now();
		/* the frame's copy from the GPU may still be in flight */
		if (o->be->ops->download_wait(o->be, o->head)) {
			pthread_mutex_lock(&o->mu);
			snprintf(o->err, sizeof(o->err), "the download of step %ld failed",
				 s->st.step);
			o->failed = 1;
			pthread_cond_broadcast(&o->cv);
			break;
		}
		memset(&fr, 0, sizeof(fr));
		fr.step = s->st.step;
		fr.time = (double)s->st.step * o->dt;
		memcpy(fr.box, o->box, sizeof(fr.box));
		fr.x = s->st.x;
		fr.v = s->st.v;
		fr.f = s->st.f;
		fr.image = s->st.image;
		memcpy(fr.obs, s->obs, sizeof(fr.obs));
		rc = h5md_append(o->h, &fr, err, sizeof(err));
		if (!rc && (o->flush_interval <= 0.0 || !o->flushes ||
			    md_now() - o->last_flush >= o->flush_interval)) {
			rc = h5md_flush(o->h, err, sizeof(err));
			if (!rc) {
				o->flushes++;
				o->last_flush = md_now();
			}
		}

		pthread_mutex_lock(&o->mu);
		o->writer_s += md_now() - t0;
		if (rc) {
			snprintf(o->err, sizeof(o->err), "%s", err);
			o->failed = 1;
			pthread_cond_broadcast(&o->cv);
			break;
		}
		o->written++;
		o->head = (o->head + 1) % NSLOT;
		o->count--;
		pthread_cond_broadcast(&o->cv);
	}
	pthread_mutex_unlock(&o->mu);
	return NULL;
}

static void report(md_output *o)
{
	if (o->failed && !o->reported) {
		fprintf(stderr, "mdsim: trajectory %s: %s; stopping the run (frames written before stay readable)\n",
			o->path, o->err);
		o->reported = 1;
	}
}

/* stop_writer - let the writer finish the queued frames and join it. */
static void stop_writer(md_output *o)
{
	if (!o->thread_on)
		return;
	pthread_mutex_lock(&o->mu);
	o->closing = 1;
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
	pthread_join(o->thread, NULL);
	o->thread_on = 0;
}

/* free_output - join the writer if running, close the file, free. */
static int free_output(md_output *o)
{
	char err[600];
	int rc = 0, i;

	stop_writer(o);
	report(o);
	if (o->h && h5md_close(o->h, err, sizeof(err))) {
		fprintf(stderr, "mdsim: trajectory %s: %s\n", o->path, err);
		rc = MD_EXIT_IO;
	}
	o->h = NULL;
	if (o->failed)
		rc = MD_EXIT_IO;
	pthread_mutex_destroy(&o->mu);
	pthread_cond_destroy(&o->cv);
	for (i = 0; i < NSLOT; i++) {
		/* a failed writer may leave a copy into this slot in flight */
		if (o->be && o->slot[i].st.x) {
			(void)o->be->ops->download_wait(o->be, i);
			md_state_pin(o->be, &o->slot[i].st, 0);
		}
		md_state_free(&o->slot[i].st);
	}
	free(o);
	return rc;
}

/* The effective configuration as INI text (malloc'ed), or NULL. */
static char *config_text(const md_config *cfg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	cfg_write(cfg, f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int md_output_open(md_output **out, const md_config *cfg, const md_state *st,
		   md_backend *be)
{
	md_output *o;
	h5md_info info;
	sigset_t block, old;
	struct stat sb;
	char err[1024], bad[64], *text;
	int rc = MD_EXIT_IO, i;

	*out = NULL;
	if (!cfg->trajectory[0])
		return 0;
	o = calloc(1, sizeof(*o));
	if (!o) {
		fprintf(stderr, "mdsim: out of memory for the trajectory writer\n");
		return MD_EXIT_IO;
	}
	pthread_mutex_init(&o->mu, NULL);
	pthread_cond_init(&o->cv, NULL);
	snprintf(o->path, sizeof(o->path), "%s", cfg->trajectory);
	o->every = cfg->traj_every;
	o->step0 = st->step;
	o->dt = cfg->dt;
	o->flush_interval = cfg->flush_interval;
	o->n = st->n;
	o->quiet = cfg->quiet;
	memcpy(o->box, st->box, sizeof(o->box));
	if (md_output_fields(cfg->traj_fields, &o->fields, bad, sizeof(bad))) {
		fprintf(stderr, "mdsim: %s: [output] fields: %s\n", cfg->path, bad);
		free_output(o);
		return MD_EXIT_INPUT;
	}
	o->be = be;
	for (i = 0; i < NSLOT; i++) {
		if (slot_alloc(&o->slot[i], o->n, o->fields, o->box)) {
			fprintf(stderr, "mdsim: out of memory for trajectory buffers of %d particles\n",
				o->n);
			free_output(o);
			return MD_EXIT_IO;
		}
		md_state_pin(be, &o->slot[i].st, 1);
	}

	text = config_text(cfg);
	memset(&info, 0, sizeof(info));
	info.n = st->n;
	info.fields = o->fields;
	info.compression = cfg->compression;
	info.units = cfg->traj_units;
	info.species = st->type;
	info.mass = cfg->mass;
	info.type_mass = cfg->ntypes > 1 ? cfg->type_mass : NULL;
	info.config_text = text ? text : "";
	info.creator_version = MD_VERSION;
	h5md_quiet();
	if (cfg->append && !stat(cfg->trajectory, &sb)) {
		long last = -1;
		int bad_input = 0;

		o->h = h5md_open_append(o->path, &info, st->step, &last, &bad_input,
					err, sizeof(err));
		if (!o->h && bad_input)
			rc = MD_EXIT_INPUT;
		o->skip_first = last == st->step;
	} else {
		o->h = h5md_create(o->path, &info, err, sizeof(err));
	}
	free(text);
	if (!o->h) {
		fprintf(stderr, "mdsim: trajectory: %s\n", err);
		free_output(o);
		return rc;
	}
	o->first_written = h5md_frames(o->h);

	/* the writer inherits this mask: signals stay with the loop thread */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = pthread_create(&o->thread, NULL, writer_main, o);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		fprintf(stderr, "mdsim: cannot start the trajectory writer thread: %s\n",
			strerror(rc));
		free_output(o);
		return MD_EXIT_IO;
	}
	o->thread_on = 1;
	rc = md_output_step(o, be, 0);
	if (rc) {
		free_output(o);
		return rc;
	}
	*out = o;
	return 0;
}

long md_output_clip(const md_output *o, long done, long n)
{
	long step, to_next;

	if (!o)
		return n;
	step = o->step0 + done;
	to_next = o->every - step % o->every;
	return n > to_next ? to_next : n;
}

int md_output_step(md_output *o, md_backend *be, long done)
{
	out_slot *s;
	md_thermo th;
	md_thermo_vals tv;
	unsigned dl;
	double t0;
	int rc, i;

	if (!o || (o->step0 + done) % o->every || (done == 0 && o->skip_first))
		return 0;
	t0 = md_now();
	pthread_mutex_lock(&o->mu);
	while (o->count == NSLOT && !o->failed)
		pthread_cond_wait(&o->cv, &o->mu);
	pthread_mutex_unlock(&o->mu);
	o->wait_s += md_now() - t0;
	if (o->failed) {
		report(o);
		return MD_EXIT_IO;
	}
	i = (o->head + o->count) % NSLOT;
	s = &o->slot[i];
	dl = o->fields | MD_F_X;
	rc = be->ops->reset(be);	/* the frame's state is a restart point */
	if (!rc)	/* asynchronous: the writer waits for it (tag i) */
		rc = be->ops->download_start(be, &s->st, dl, i);
	if (!rc)
		rc = be->ops->thermo(be, &th);
	if (rc)
		return rc;
	md_thermo_derive(&th, o->n, o->box, &tv);
	s->st.step = th.step;
	s->obs[H5MD_OBS_PE] = tv.epair;
	s->obs[H5MD_OBS_KE] = tv.ekin;
	s->obs[H5MD_OBS_ETOT] = tv.etot;
	s->obs[H5MD_OBS_TEMP] = tv.temp;
	s->obs[H5MD_OBS_PRESS] = tv.press;
	pthread_mutex_lock(&o->mu);
	o->count++;
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
	return 0;
}

int md_output_close(md_output *o, FILE *log)
{
	long written;
	int rc;

	if (!o)
		return 0;
	stop_writer(o);	/* the queued frames are written first */
	written = o->written;
	if (!o->quiet)
		fprintf(log, "Trajectory %s: %ld frames written (%ld in the file), %ld flushes + 1 at close; writer busy %.3f s, loop waited %.3f s for it\n",
			o->path, written, o->first_written + written, o->flushes,
			o->writer_s, o->wait_s);
	rc = free_output(o);
	return rc;
}
