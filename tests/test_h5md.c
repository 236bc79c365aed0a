/*
 * test_h5md.c - the H5MD writer and reader checked with the HDF5 API
 * itself (not with the module's own reader): groups, datasets, shapes,
 * chunking, attributes and units of the H5MD 1.1 layout, the shared
 * step/time links, a bit-exact round trip of known positions, velocities
 * and images, append and restart reading (incomplete trailing frames
 * skipped), the [output] checks and the writer thread driven by the CPU
 * backend; files in argon units (output.units = argon) against scales
 * computed here from the argon parameters and the CODATA constants, their
 * conversion back for a restart, appends in other units and hostile unit
 * records refused. Files go to a fresh directory under $TMPDIR (or /tmp).
 */
#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "../engine/h5md.h"
#include "../engine/output.h"

#define TRAJ "particles/trajectory"
#define NP 5			/* particles of the hand-made frames */
#define NF 3			/* frames */

static char dir[256];

static void make_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_h5md.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void path_in_dir(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* Known frame k: positions, velocities, images that differ per frame. */
static void frame_data(int k, double *x, double *v, int *img)
{
	int i;

	for (i = 0; i < 3 * NP; i++) {
		x[i] = 0.1 + 0.37 * i + 0.001 * k + 1e-13 * i * k;	/* not round */
		v[i] = -1.0 + 0.25 * i - 0.5 * k;
		img[i] = i % 5 - 2 + k;
	}
}

static const int species[NP] = { 0, 1, 0, 1, 1 };

static h5md_file *write_file_units(const char *path, unsigned fields,
				   int frames, long step0, int units)
{
	char err[600];
	double x[3 * NP], v[3 * NP], f[3 * NP];
	int img[3 * NP], k;
	h5md_info info;
	h5md_file *h;

	memset(&info, 0, sizeof(info));
	info.n = NP;
	info.fields = fields;
	info.species = species;
	info.mass = 1.5;
	info.units = units;
	info.config_text = "[system]\ncells = 1 1 1\n";
	info.creator_version = MD_VERSION;
	h5md_quiet();
	h = h5md_create(path, &info, err, sizeof(err));
	ck_assert_msg(h != NULL, "create: %s", err);
	for (k = 0; k < frames; k++) {
		h5md_frame fr;

		frame_data(k, x, v, img);
		memset(f, 0, sizeof(f));
		memset(&fr, 0, sizeof(fr));
		fr.step = step0 + 10 * k;
		fr.time = 0.005 * fr.step;
		fr.box[0] = 3.0;
		fr.box[1] = 4.0;
		fr.box[2] = 5.0 + k;
		fr.x = x;
		fr.v = v;
		fr.f = f;
		fr.image = img;
		fr.obs[H5MD_OBS_PE] = -5.0 + k;
		fr.obs[H5MD_OBS_TEMP] = 1.5 * k;
		fr.obs[H5MD_OBS_PRESS] = 0.25 + k;
		ck_assert_msg(h5md_append(h, &fr, err, sizeof(err)) == 0, "append: %s", err);
	}
	return h;
}

static h5md_file *write_file(const char *path, unsigned fields, int frames,
			     long step0)
{
	return write_file_units(path, fields, frames, step0, H5MD_UNITS_LJ);
}

static void close_file(h5md_file *h)
{
	char err[600];

	ck_assert_msg(h5md_close(h, err, sizeof(err)) == 0, "close: %s", err);
}

/* ---- HDF5-API readers of the test ------------------------------------ */

static int exists(hid_t f, const char *path)
{
	return H5Lexists(f, path, H5P_DEFAULT) > 0;
}

/* Dims of dataset path; returns its rank. */
static int dims_of(hid_t f, const char *path, hsize_t *dims, hsize_t *maxd)
{
	hid_t d = H5Dopen2(f, path, H5P_DEFAULT), s;
	int rank;

	ck_assert_msg(d >= 0, "no dataset %s", path);
	s = H5Dget_space(d);
	rank = H5Sget_simple_extent_dims(s, dims, maxd);
	H5Sclose(s);
	H5Dclose(d);
	return rank;
}

/* String attribute (fixed or variable length) into buf; vl tells which. */
static void str_attr(hid_t f, const char *obj, const char *name, char *buf,
		     size_t len, int *vl)
{
	hid_t a = H5Aopen_by_name(f, obj, name, H5P_DEFAULT, H5P_DEFAULT);
	hid_t t, mt;

	ck_assert_msg(a >= 0, "no attribute %s of %s", name, obj);
	t = H5Aget_type(a);
	ck_assert_int_eq(H5Tget_class(t), H5T_STRING);
	*vl = H5Tis_variable_str(t) > 0;
	mt = H5Tcopy(H5T_C_S1);
	if (*vl) {
		char *s = NULL;

		H5Tset_size(mt, H5T_VARIABLE);
		ck_assert(H5Aread(a, mt, &s) >= 0);
		snprintf(buf, len, "%s", s);
		H5free_memory(s);
	} else {
		size_t n = H5Tget_size(t);

		ck_assert(n < len);
		H5Tset_size(mt, n + 1);
		ck_assert(H5Aread(a, mt, buf) >= 0);
		buf[n] = '\0';
	}
	H5Tclose(mt);
	H5Tclose(t);
	H5Aclose(a);
}

static void expect_unit(hid_t f, const char *obj, const char *name,
			const char *want)
{
	char buf[64];
	int vl;

	str_attr(f, obj, name, buf, sizeof(buf), &vl);
	ck_assert_msg(vl, "%s of %s is not a variable-length string", name, obj);
	ck_assert_str_eq(buf, want);
}

static void read_all(hid_t f, const char *path, hid_t memtype, void *buf)
{
	hid_t d = H5Dopen2(f, path, H5P_DEFAULT);

	ck_assert_msg(d >= 0, "no dataset %s", path);
	ck_assert(H5Dread(d, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
	H5Dclose(d);
}

/* Address of the object at path (hard links share it). */
static haddr_t addr_of(hid_t f, const char *path)
{
#if H5_VERSION_GE(1, 12, 0)
	H5O_info1_t oi;	/* 1.12 identifies objects by tokens; addresses stay */

	ck_assert(H5Oget_info_by_name1(f, path, &oi, H5P_DEFAULT) >= 0);
#else
	H5O_info_t oi;

	ck_assert(H5Oget_info_by_name(f, path, &oi, H5P_DEFAULT) >= 0);
#endif
	return oi.addr;
}

/* ---- tests ------------------------------------------------------------ */

START_TEST(layout_metadata_and_units)
{
	char path[300], buf[256];
	hsize_t dims[3], maxd[3];
	int ver[2], dim, vl, e;
	hid_t f, a, t;
	static const char *const obs[] = { "potential_energy", "kinetic_energy",
		"total_energy", "temperature", "pressure" };
	static const char *const obs_units[] = { "epsilon", "epsilon", "epsilon",
		"epsilon kB-1", "epsilon sigma-3" };

	make_dir();
	path_in_dir(path, sizeof(path), "layout.h5md");
	close_file(write_file(path, MD_F_X | MD_F_V | MD_F_IMAGE | MD_F_F, NF, 0));
	f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	ck_assert(f >= 0);

	/* h5md metadata */
	a = H5Aopen_by_name(f, "h5md", "version", H5P_DEFAULT, H5P_DEFAULT);
	ck_assert(a >= 0);
	ck_assert(H5Aread(a, H5T_NATIVE_INT, ver) >= 0);
	H5Aclose(a);
	ck_assert_int_eq(ver[0], 1);
	ck_assert_int_eq(ver[1], 1);
	str_attr(f, "h5md/author", "name", buf, sizeof(buf), &vl);
	ck_assert(strlen(buf) > 0 && !vl);
	str_attr(f, "h5md/creator", "name", buf, sizeof(buf), &vl);
	ck_assert_str_eq(buf, "mdsim");
	str_attr(f, "h5md/creator", "version", buf, sizeof(buf), &vl);
	ck_assert_str_eq(buf, MD_VERSION);
	expect_unit(f, "h5md/modules/units", "system", "LJ");

	/* box */
	a = H5Aopen_by_name(f, TRAJ "/box", "dimension", H5P_DEFAULT, H5P_DEFAULT);
	ck_assert(a >= 0 && H5Aread(a, H5T_NATIVE_INT, &dim) >= 0);
	H5Aclose(a);
	ck_assert_int_eq(dim, 3);
	a = H5Aopen_by_name(f, TRAJ "/box", "boundary", H5P_DEFAULT, H5P_DEFAULT);
	ck_assert(a >= 0);
	{
		hid_t s = H5Aget_space(a);
		hsize_t nb;
		char b[3][32];

		ck_assert_int_eq(H5Sget_simple_extent_dims(s, &nb, NULL), 1);
		ck_assert_int_eq(nb, 3);
		H5Sclose(s);
		t = H5Tcopy(H5T_C_S1);
		H5Tset_size(t, sizeof(b[0]));
		ck_assert(H5Aread(a, t, b) >= 0);
		H5Tclose(t);
		for (e = 0; e < 3; e++)
			ck_assert_str_eq(b[e], "periodic");
	}
	H5Aclose(a);
	ck_assert_int_eq(dims_of(f, TRAJ "/box/edges/value", dims, maxd), 3);
	ck_assert(dims[0] == NF && dims[1] == 3 && dims[2] == 3);
	ck_assert(maxd[0] == H5S_UNLIMITED);
	expect_unit(f, TRAJ "/box/edges/value", "unit", "sigma");

	/* time-dependent particle elements */
	ck_assert_int_eq(dims_of(f, TRAJ "/position/value", dims, maxd), 3);
	ck_assert(dims[0] == NF && dims[1] == NP && dims[2] == 3);
	ck_assert(maxd[0] == H5S_UNLIMITED && maxd[1] == NP && maxd[2] == 3);
	ck_assert_int_eq(dims_of(f, TRAJ "/position/step", dims, maxd), 1);
	ck_assert(dims[0] == NF && maxd[0] == H5S_UNLIMITED);
	ck_assert_int_eq(dims_of(f, TRAJ "/position/time", dims, maxd), 1);
	ck_assert(dims[0] == NF);
	{
		hid_t d = H5Dopen2(f, TRAJ "/position/step", H5P_DEFAULT);
		hid_t dt = H5Dget_type(d), pl = H5Dget_create_plist(d);

		ck_assert(H5Tget_class(dt) == H5T_INTEGER && H5Tget_size(dt) == 8);
		ck_assert(H5Pget_layout(pl) == H5D_CHUNKED);
		H5Pclose(pl);
		H5Tclose(dt);
		H5Dclose(d);
		d = H5Dopen2(f, TRAJ "/position/value", H5P_DEFAULT);
		pl = H5Dget_create_plist(d);
		ck_assert(H5Pget_layout(pl) == H5D_CHUNKED);
		ck_assert_int_eq(H5Pget_chunk(pl, 3, dims), 3);
		ck_assert(dims[0] == 1 && dims[1] == NP && dims[2] == 3);
		H5Pclose(pl);
		H5Dclose(d);
	}
	expect_unit(f, TRAJ "/position/value", "reduced_unit", "sigma");
	expect_unit(f, TRAJ "/position/time", "reduced_unit", "tau");
	expect_unit(f, TRAJ "/velocity/value", "reduced_unit", "sigma tau-1");
	expect_unit(f, TRAJ "/force/value", "reduced_unit", "epsilon sigma-1");
	/* MDAnalysis raises on units outside its table: none where it looks */
	ck_assert(H5Aexists_by_name(f, TRAJ "/position/value", "unit", H5P_DEFAULT) == 0);
	ck_assert(H5Aexists_by_name(f, TRAJ "/position/time", "unit", H5P_DEFAULT) == 0);
	ck_assert_int_eq(dims_of(f, TRAJ "/image/value", dims, maxd), 3);
	ck_assert(dims[0] == NF && dims[1] == NP);
	/* step and time: one dataset each, hard-linked (H5MD for image, box) */
	for (e = 0; e < 2; e++) {
		const char *w = e ? "time" : "step";
		char p1[128], p2[128];
		static const char *const others[] = { TRAJ "/velocity", TRAJ "/image",
			TRAJ "/force", TRAJ "/box/edges", "observables/pressure" };
		int o;

		snprintf(p1, sizeof(p1), TRAJ "/position/%s", w);
		for (o = 0; o < 5; o++) {
			snprintf(p2, sizeof(p2), "%s/%s", others[o], w);
			ck_assert_msg(addr_of(f, p1) == addr_of(f, p2),
				      "%s is not a hard link to %s", p2, p1);
		}
	}

	/* time-independent particle data */
	ck_assert_int_eq(dims_of(f, TRAJ "/species", dims, maxd), 1);
	ck_assert_int_eq(dims[0], NP);
	{
		int sp[NP];
		double m[NP];

		read_all(f, TRAJ "/species", H5T_NATIVE_INT, sp);
		read_all(f, TRAJ "/mass", H5T_NATIVE_DOUBLE, m);
		for (e = 0; e < NP; e++) {
			ck_assert_int_eq(sp[e], species[e]);
			ck_assert(m[e] == 1.5);
		}
	}
	expect_unit(f, TRAJ "/mass", "unit", "m0");

	/* observables: time-dependent, sampled with the positions */
	for (e = 0; e < 5; e++) {
		char p[128];

		snprintf(p, sizeof(p), "observables/%s/value", obs[e]);
		ck_assert_int_eq(dims_of(f, p, dims, maxd), 1);
		ck_assert_int_eq(dims[0], NF);
		expect_unit(f, p, "unit", obs_units[e]);
	}

	/* parameters */
	{
		hid_t d = H5Dopen2(f, "parameters/config", H5P_DEFAULT);
		char *text = NULL;

		ck_assert(d >= 0);
		t = H5Tcopy(H5T_C_S1);
		H5Tset_size(t, H5T_VARIABLE);
		ck_assert(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &text) >= 0);
		ck_assert_str_eq(text, "[system]\ncells = 1 1 1\n");
		H5free_memory(text);
		H5Tclose(t);
		H5Dclose(d);
	}
	expect_unit(f, "parameters", "program_version", MD_VERSION);
	H5Fclose(f);
	remove_dir();
}
END_TEST

START_TEST(round_trip_is_exact)
{
	char path[300];
	double x[NF][NP][3], v[NF][NP][3], edges[NF][3][3], t[NF], pe[NF], temp[NF];
	double ex[3 * NP], ev[3 * NP];
	long long step[NF];
	int img[NF][NP][3], eimg[3 * NP], k, i;
	hid_t f;

	make_dir();
	path_in_dir(path, sizeof(path), "rt.h5md");
	close_file(write_file(path, MD_F_X | MD_F_V | MD_F_IMAGE, NF, 100));
	f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	ck_assert(f >= 0);
	read_all(f, TRAJ "/position/value", H5T_NATIVE_DOUBLE, x);
	read_all(f, TRAJ "/velocity/value", H5T_NATIVE_DOUBLE, v);
	read_all(f, TRAJ "/image/value", H5T_NATIVE_INT, img);
	read_all(f, TRAJ "/box/edges/value", H5T_NATIVE_DOUBLE, edges);
	read_all(f, TRAJ "/position/step", H5T_NATIVE_LLONG, step);
	read_all(f, TRAJ "/position/time", H5T_NATIVE_DOUBLE, t);
	read_all(f, "observables/potential_energy/value", H5T_NATIVE_DOUBLE, pe);
	read_all(f, "observables/temperature/value", H5T_NATIVE_DOUBLE, temp);
	ck_assert(!exists(f, TRAJ "/force"));
	H5Fclose(f);
	for (k = 0; k < NF; k++) {
		frame_data(k, ex, ev, eimg);
		ck_assert_int_eq(step[k], 100 + 10 * k);
		ck_assert(t[k] == 0.005 * (100 + 10 * k));
		ck_assert(pe[k] == -5.0 + k && temp[k] == 1.5 * k);
		for (i = 0; i < 3 * NP; i++) {
			ck_assert(x[k][i / 3][i % 3] == ex[i]);	/* bit for bit */
			ck_assert(v[k][i / 3][i % 3] == ev[i]);
			ck_assert_int_eq(img[k][i / 3][i % 3], eimg[i]);
		}
		for (i = 0; i < 9; i++) {
			double want = i % 4 ? 0.0 : (i == 0 ? 3.0 : i == 4 ? 4.0 : 5.0 + k);

			ck_assert(edges[k][i / 3][i % 3] == want);
		}
	}
	remove_dir();
}
END_TEST

START_TEST(fields_select_elements)
{
	char path[300];
	hid_t f;

	make_dir();
	path_in_dir(path, sizeof(path), "pos.h5md");
	close_file(write_file(path, MD_F_X, 1, 0));
	f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	ck_assert(exists(f, TRAJ "/position/value"));
	ck_assert(!exists(f, TRAJ "/velocity"));
	ck_assert(!exists(f, TRAJ "/image"));
	ck_assert(!exists(f, TRAJ "/force"));
	ck_assert(exists(f, TRAJ "/box/edges/value"));
	ck_assert(exists(f, "observables/total_energy/value"));
	H5Fclose(f);
	remove_dir();
}
END_TEST

START_TEST(read_last_skips_incomplete_frame)
{
	char path[300], err[600];
	double x[3 * NP], v[3 * NP], t;
	int img[3 * NP], i;
	h5md_file *h;
	h5md_frame fr;
	md_state st;

	make_dir();
	path_in_dir(path, sizeof(path), "last.h5md");
	h = write_file(path, MD_F_X | MD_F_V | MD_F_IMAGE, NF, 0);
	/* a frame whose positions a killed writer never wrote reads as NaN */
	for (i = 0; i < 3 * NP; i++) {
		x[i] = NAN;
		v[i] = 0.0;
		img[i] = 0;
	}
	memset(&fr, 0, sizeof(fr));
	fr.step = 10 * NF;
	fr.box[0] = fr.box[1] = fr.box[2] = 1.0;
	fr.x = x;
	fr.v = v;
	fr.image = img;
	ck_assert(h5md_append(h, &fr, err, sizeof(err)) == 0);
	close_file(h);

	ck_assert_msg(h5md_read_last(path, MD_F_X | MD_F_V | MD_F_IMAGE, &st, &t,
				     err, sizeof(err)) == 0, "%s", err);
	frame_data(NF - 1, x, v, img);
	ck_assert_int_eq(st.n, NP);
	ck_assert_int_eq(st.step, 10 * (NF - 1));
	ck_assert(t == 0.005 * 10 * (NF - 1));
	ck_assert(st.box[0] == 3.0 && st.box[1] == 4.0 && st.box[2] == 5.0 + NF - 1);
	for (i = 0; i < 3 * NP; i++) {
		ck_assert(st.x[i] == x[i] && st.v[i] == v[i]);
		ck_assert_int_eq(st.image[i], img[i]);
	}
	for (i = 0; i < NP; i++)
		ck_assert_int_eq(st.type[i], species[i]);
	md_state_free(&st);
	remove_dir();
}
END_TEST

START_TEST(read_last_needs_velocity_and_image)
{
	char path[300], err[600];
	md_state st;
	double t;

	make_dir();
	path_in_dir(path, sizeof(path), "novel.h5md");
	close_file(write_file(path, MD_F_X, 2, 0));
	ck_assert_int_eq(h5md_read_last(path, MD_F_X | MD_F_V | MD_F_IMAGE, &st,
					&t, err, sizeof(err)), MD_EXIT_INPUT);
	ck_assert_msg(strstr(err, "restart") && strstr(err, "velocity"), "%s", err);
	path_in_dir(path, sizeof(path), "missing.h5md");
	ck_assert_int_eq(h5md_read_last(path, MD_F_X, &st, &t, err, sizeof(err)),
			 MD_EXIT_INPUT);
	path_in_dir(path, sizeof(path), "text.h5md");
	{
		FILE *fp = fopen(path, "w");

		fputs("not hdf5\n", fp);
		fclose(fp);
	}
	ck_assert_int_eq(h5md_read_last(path, MD_F_X, &st, &t, err, sizeof(err)),
			 MD_EXIT_INPUT);
	ck_assert_msg(strstr(err, "not an HDF5 file"), "%s", err);
	remove_dir();
}
END_TEST

START_TEST(append_continues_and_refuses)
{
	char path[300], err[600];
	double x[3 * NP], v[3 * NP];
	int img[3 * NP], bad;
	long last;
	h5md_info info;
	h5md_frame fr;
	h5md_file *h;
	hsize_t dims[3];
	long long step[NF + 1];
	hid_t f;

	make_dir();
	path_in_dir(path, sizeof(path), "app.h5md");
	close_file(write_file(path, MD_F_X | MD_F_V | MD_F_IMAGE, NF, 0));
	memset(&info, 0, sizeof(info));
	info.n = NP;
	info.fields = MD_F_X | MD_F_V | MD_F_IMAGE;
	info.species = species;
	info.mass = 1.5;
	info.config_text = "restarted";
	info.creator_version = MD_VERSION;

	/* steps must increase: no appending after an earlier step */
	ck_assert(h5md_open_append(path, &info, 10, &last, &bad, err, sizeof(err)) == NULL);
	ck_assert_int_eq(bad, 1);
	/* other fields or particle count: refused */
	info.fields = MD_F_X;
	ck_assert(h5md_open_append(path, &info, 20, &last, &bad, err, sizeof(err)) == NULL);
	ck_assert_int_eq(bad, 1);
	info.fields = MD_F_X | MD_F_V | MD_F_IMAGE;
	info.n = NP + 1;
	ck_assert(h5md_open_append(path, &info, 20, &last, &bad, err, sizeof(err)) == NULL);
	ck_assert_int_eq(bad, 1);
	info.n = NP;

	h = h5md_open_append(path, &info, 20, &last, &bad, err, sizeof(err));
	ck_assert_msg(h != NULL, "%s", err);
	ck_assert_int_eq(last, 20);
	ck_assert_int_eq(h5md_frames(h), NF);
	frame_data(NF, x, v, img);
	memset(&fr, 0, sizeof(fr));
	fr.step = 30;
	fr.box[0] = fr.box[1] = fr.box[2] = 2.0;
	fr.x = x;
	fr.v = v;
	fr.image = img;
	ck_assert(h5md_append(h, &fr, err, sizeof(err)) == 0);
	/* a frame that lacks a field of the file is refused, file unchanged */
	fr.v = NULL;
	fr.step = 40;
	ck_assert(h5md_append(h, &fr, err, sizeof(err)) != 0);
	ck_assert_int_eq(h5md_frames(h), NF + 1);
	close_file(h);

	f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	ck_assert_int_eq(dims_of(f, TRAJ "/position/value", dims, NULL), 3);
	ck_assert_int_eq(dims[0], NF + 1);
	ck_assert_int_eq(dims_of(f, TRAJ "/velocity/value", dims, NULL), 3);
	ck_assert_int_eq(dims[0], NF + 1);
	ck_assert_int_eq(dims_of(f, "observables/pressure/value", dims, NULL), 1);
	ck_assert_int_eq(dims[0], NF + 1);
	read_all(f, TRAJ "/position/step", H5T_NATIVE_LLONG, step);
	ck_assert(step[0] == 0 && step[NF - 1] == 20 && step[NF] == 30);
	ck_assert(exists(f, "parameters/config_from_step_20"));
	H5Fclose(f);
	remove_dir();
}
END_TEST

START_TEST(create_error_names_path_and_reason)
{
	char err[600];
	h5md_info info;
	h5md_file *h;

	memset(&info, 0, sizeof(info));
	info.n = NP;
	info.fields = MD_F_X;
	info.species = species;
	info.creator_version = MD_VERSION;
	h5md_quiet();
	h = h5md_create("/nonexistent-dir-of-mdsim/x.h5md", &info, err, sizeof(err));
	ck_assert(h == NULL);
	ck_assert_msg(strstr(err, "/nonexistent-dir-of-mdsim/x.h5md") &&
		      strstr(err, "No such file or directory"), "%s", err);
}
END_TEST

START_TEST(output_keys_checked_before_work)
{
	md_config cfg;
	unsigned fl;
	char bad[64], path[300];
	FILE *devnull = fopen("/dev/null", "w");

	ck_assert_int_eq(md_output_fields("position, velocity,image", &fl, bad, sizeof(bad)), 0);
	ck_assert_int_eq(fl, MD_F_X | MD_F_V | MD_F_IMAGE);
	ck_assert_int_eq(md_output_fields("position,force", &fl, bad, sizeof(bad)), 0);
	ck_assert_int_eq(fl, MD_F_X | MD_F_F);
	ck_assert_int_eq(md_output_fields("position,speed", &fl, bad, sizeof(bad)), -1);
	ck_assert_str_eq(bad, "speed");
	ck_assert_int_eq(md_output_fields("velocity", &fl, bad, sizeof(bad)), -1);

	make_dir();
	test_config(&cfg, 0.8442, 3, 1.0, 2.5, MD_SHIFT_NONE);
	path_in_dir(path, sizeof(path), "exists.h5md");
	snprintf(cfg.trajectory, sizeof(cfg.trajectory), "%s", path);
	ck_assert_int_eq(md_output_check(&cfg, devnull), 0);	/* new file */
	close_file(write_file(path, MD_F_X, 1, 0));
	ck_assert_int_eq(md_output_check(&cfg, devnull), MD_EXIT_INPUT);
	cfg.overwrite = 1;
	ck_assert_int_eq(md_output_check(&cfg, devnull), 0);
	cfg.overwrite = 0;
	cfg.append = 1;		/* appending needs a restart */
	ck_assert_int_eq(md_output_check(&cfg, devnull), MD_EXIT_INPUT);
	snprintf(cfg.restart, sizeof(cfg.restart), "%s", path);
	ck_assert_int_eq(md_output_check(&cfg, devnull), 0);
	snprintf(cfg.traj_fields, sizeof(cfg.traj_fields), "position,bogus");
	ck_assert_int_eq(md_output_check(&cfg, devnull), MD_EXIT_INPUT);
	fclose(devnull);
	remove_dir();
}
END_TEST

/* The writer thread fed by the CPU backend: frames at every 5th step. */
START_TEST(writer_thread_with_cpu_backend)
{
	md_config cfg;
	md_state st;
	md_backend be;
	md_output *o;
	char path[300];
	long done, steps[5];
	double x0[3 * 32], x[3 * 32], pe[5];
	hsize_t dims[3];
	hid_t f;
	int i;

	make_dir();
	test_config(&cfg, 0.8442, 2, 1.0, 1.2, MD_SHIFT_NONE);
	cfg.skin = 0.2;
	cfg.quiet = 1;
	path_in_dir(path, sizeof(path), "run.h5md");
	snprintf(cfg.trajectory, sizeof(cfg.trajectory), "%s", path);
	snprintf(cfg.traj_fields, sizeof(cfg.traj_fields), "position,velocity,image");
	cfg.traj_every = 5;
	cfg.flush_interval = 0.0;
	ck_assert_int_eq(md_setup_lattice(&cfg, &st), 0);
	md_setup_velocities(&cfg, &st);
	ck_assert_int_eq(st.n, 32);
	memcpy(x0, st.x, sizeof(x0));
	be.ops = &md_cpu_backend;
	be.ctx = NULL;
	ck_assert_int_eq(be.ops->init(&be, &cfg, &st), 0);
	ck_assert_int_eq(md_output_open(&o, &cfg, &st, &be), 0);
	for (done = 0; done < 20;) {
		long n = md_output_clip(o, done, 7);

		ck_assert(n >= 1 && n <= 5);
		ck_assert_int_eq(be.ops->run(&be, n), 0);
		done += n;
		ck_assert_int_eq(md_output_step(o, &be, done), 0);
	}
	ck_assert_int_eq(md_output_close(o, stdout), 0);
	be.ops->destroy(&be);
	md_state_free(&st);

	f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	ck_assert(f >= 0);
	ck_assert_int_eq(dims_of(f, TRAJ "/position/value", dims, NULL), 3);
	ck_assert_int_eq(dims[0], 5);
	read_all(f, TRAJ "/position/step", H5T_NATIVE_LONG, steps);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(steps[i], 5 * i);
	{	/* frame 0 is the lattice, exactly */
		hid_t d = H5Dopen2(f, TRAJ "/position/value", H5P_DEFAULT);
		hid_t fs = H5Dget_space(d), ms;
		hsize_t start[3] = { 0, 0, 0 }, count[3] = { 1, 32, 3 };

		H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
		ms = H5Screate_simple(3, count, NULL);
		ck_assert(H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, x) >= 0);
		H5Sclose(ms);
		H5Sclose(fs);
		H5Dclose(d);
		for (i = 0; i < 3 * 32; i++)
			ck_assert(x[i] == x0[i]);
	}
	read_all(f, "observables/potential_energy/value", H5T_NATIVE_DOUBLE, pe);
	for (i = 0; i < 5; i++)
		ck_assert(isfinite(pe[i]) && pe[i] < 0.0);
	H5Fclose(f);
	remove_dir();
}
END_TEST

/* ---- argon units ------------------------------------------------------ */

/*
 * The argon mapping, worked out here from its definition and not taken
 * from h5md.c: sigma = 3.405 Angstrom, epsilon/kB = 119.8 K, m = 39.948
 * g/mol, kB and NA of CODATA 2018; tau = sqrt(m sigma^2 / epsilon).
 */
typedef struct argon_ref {
	double length, time, velocity, force, energy, temp, press, mass;
} argon_ref;

static argon_ref argon(void)
{
	const double kb = 1.380649e-23, na = 6.02214076e23;
	const double sigma = 3.405e-10, eps = 119.8 * kb, m = 0.039948 / na;
	argon_ref r;

	r.length = 3.405;
	r.time = sqrt(m * sigma * sigma / eps) / 1e-12;
	r.velocity = r.length / r.time;
	r.energy = 119.8 * 8.31446261815324 / 1000.0;	/* R = kB NA, J/(mol K), exact */
	r.force = r.energy / r.length;
	r.temp = 119.8;
	r.press = eps / (sigma * sigma * sigma) / 1e5;
	r.mass = 39.948;
	return r;
}

static int close_rel(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static double dbl_attr(hid_t f, const char *obj, const char *name)
{
	hid_t a = H5Aopen_by_name(f, obj, name, H5P_DEFAULT, H5P_DEFAULT);
	double v = NAN;

	ck_assert_msg(a >= 0, "no attribute %s of %s", name, obj);
	ck_assert(H5Aread(a, H5T_NATIVE_DOUBLE, &v) >= 0);
	H5Aclose(a);
	return v;
}

START_TEST(argon_units_and_values)
{
	static const char *const q[] = { "length", "time", "velocity", "force",
		"energy", "temperature", "pressure", "mass" };
	static const char *const qu[] = { "Angstrom", "ps", "Angstrom ps-1",
		"kJ mol-1 Angstrom-1", "kJ mol-1", "K", "bar", "u" };
	argon_ref r = argon();
	const double want[] = { r.length, r.time, r.velocity, r.force, r.energy,
		r.temp, r.press, r.mass };
	double x[NF][NP][3], v[NF][NP][3], fo[NF][NP][3], edges[NF][3][3], t[NF];
	double pe[NF], temp[NF], pr[NF], m[NP], ex[3 * NP], ev[3 * NP];
	char path[300], name[64];
	int eimg[3 * NP], img[NF][NP][3], k, i;
	hid_t f;

	/* the textbook value, as a check of the reference itself */
	ck_assert_msg(fabs(r.time - 2.156) < 0.001, "tau = %g ps", r.time);
	make_dir();
	path_in_dir(path, sizeof(path), "argon.h5md");
	close_file(write_file_units(path, MD_F_X | MD_F_V | MD_F_IMAGE | MD_F_F,
				    NF, 100, H5MD_UNITS_ARGON));
	f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	ck_assert(f >= 0);

	/* what MDAnalysis parses: `unit` in its own table, no reduced_unit */
	expect_unit(f, "h5md/modules/units", "system", "SI");
	expect_unit(f, TRAJ "/position/value", "unit", "Angstrom");
	expect_unit(f, TRAJ "/position/time", "unit", "ps");
	expect_unit(f, TRAJ "/velocity/value", "unit", "Angstrom ps-1");
	expect_unit(f, TRAJ "/force/value", "unit", "kJ mol-1 Angstrom-1");
	expect_unit(f, TRAJ "/box/edges/value", "unit", "Angstrom");
	expect_unit(f, TRAJ "/mass", "unit", "u");
	expect_unit(f, "observables/potential_energy/value", "unit", "kJ mol-1");
	expect_unit(f, "observables/total_energy/value", "unit", "kJ mol-1");
	expect_unit(f, "observables/temperature/value", "unit", "K");
	expect_unit(f, "observables/pressure/value", "unit", "bar");
	ck_assert(H5Aexists_by_name(f, TRAJ "/position/value", "reduced_unit", H5P_DEFAULT) == 0);
	ck_assert(H5Aexists_by_name(f, TRAJ "/position/time", "reduced_unit", H5P_DEFAULT) == 0);
	ck_assert(H5Aexists_by_name(f, TRAJ "/image/value", "unit", H5P_DEFAULT) == 0);

	/* the recorded mapping back to reduced units */
	expect_unit(f, "parameters/units", "system", "argon");
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "%s_unit", q[i]);
		expect_unit(f, "parameters/units", name, qu[i]);
		ck_assert_msg(close_rel(dbl_attr(f, "parameters/units", q[i]), want[i], 1e-12),
			      "%s scale %.17g, expected %.17g", q[i],
			      dbl_attr(f, "parameters/units", q[i]), want[i]);
	}

	/* the values: reduced values times the scales */
	read_all(f, TRAJ "/position/value", H5T_NATIVE_DOUBLE, x);
	read_all(f, TRAJ "/velocity/value", H5T_NATIVE_DOUBLE, v);
	read_all(f, TRAJ "/force/value", H5T_NATIVE_DOUBLE, fo);
	read_all(f, TRAJ "/image/value", H5T_NATIVE_INT, img);
	read_all(f, TRAJ "/box/edges/value", H5T_NATIVE_DOUBLE, edges);
	read_all(f, TRAJ "/position/time", H5T_NATIVE_DOUBLE, t);
	read_all(f, TRAJ "/mass", H5T_NATIVE_DOUBLE, m);
	read_all(f, "observables/potential_energy/value", H5T_NATIVE_DOUBLE, pe);
	read_all(f, "observables/temperature/value", H5T_NATIVE_DOUBLE, temp);
	read_all(f, "observables/pressure/value", H5T_NATIVE_DOUBLE, pr);
	H5Fclose(f);
	for (i = 0; i < NP; i++)
		ck_assert(close_rel(m[i], 1.5 * r.mass, 1e-15));
	for (k = 0; k < NF; k++) {
		frame_data(k, ex, ev, eimg);
		ck_assert(close_rel(t[k], 0.005 * (100 + 10 * k) * r.time, 1e-13));
		ck_assert(close_rel(pe[k], (-5.0 + k) * r.energy, 1e-13));
		ck_assert(close_rel(pr[k], (0.25 + k) * r.press, 1e-13));
		ck_assert(temp[k] == 0.0 || close_rel(temp[k], 1.5 * k * r.temp, 1e-15));
		for (i = 0; i < 3 * NP; i++) {
			ck_assert(close_rel(x[k][i / 3][i % 3], ex[i] * 3.405, 1e-15));
			ck_assert(close_rel(v[k][i / 3][i % 3], ev[i] * r.velocity, 1e-13));
			ck_assert(fo[k][i / 3][i % 3] == 0.0);
			ck_assert_int_eq(img[k][i / 3][i % 3], eimg[i]);	/* no unit */
		}
		ck_assert(close_rel(edges[k][0][0], 3.0 * 3.405, 1e-15));
		ck_assert(close_rel(edges[k][2][2], (5.0 + k) * 3.405, 1e-15));
		ck_assert(edges[k][0][1] == 0.0 && edges[k][1][0] == 0.0);
	}
	remove_dir();
}
END_TEST

/* A restart from an argon file gets the reduced state back (to round-off),
 * from an lj file exactly; both say which units the file had. */
START_TEST(argon_restart_reads_reduced_units)
{
	char path[300], err[600];
	double x[3 * NP], v[3 * NP], t;
	int img[3 * NP], i, units = -1;
	md_state st;

	make_dir();
	path_in_dir(path, sizeof(path), "ar.h5md");
	close_file(write_file_units(path, MD_F_X | MD_F_V | MD_F_IMAGE, NF, 0,
				    H5MD_UNITS_ARGON));
	ck_assert_msg(h5md_read_last_units(path, MD_F_X | MD_F_V | MD_F_IMAGE, &st,
					   &t, &units, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(units, H5MD_UNITS_ARGON);
	frame_data(NF - 1, x, v, img);
	ck_assert_int_eq(st.step, 10 * (NF - 1));
	ck_assert(close_rel(t, 0.005 * 10 * (NF - 1), 1e-15));
	ck_assert(close_rel(st.box[0], 3.0, 1e-15) && close_rel(st.box[1], 4.0, 1e-15) &&
		  close_rel(st.box[2], 5.0 + NF - 1, 1e-15));
	for (i = 0; i < 3 * NP; i++) {
		ck_assert_msg(close_rel(st.x[i], x[i], 1e-15), "x %d: %.17g %.17g", i,
			      st.x[i], x[i]);
		ck_assert(close_rel(st.v[i], v[i], 1e-15) || v[i] == 0.0);
		ck_assert_int_eq(st.image[i], img[i]);
	}
	md_state_free(&st);

	path_in_dir(path, sizeof(path), "lj.h5md");
	close_file(write_file(path, MD_F_X | MD_F_V | MD_F_IMAGE, NF, 0));
	ck_assert(h5md_read_last_units(path, MD_F_X | MD_F_V | MD_F_IMAGE, &st, &t,
				       &units, err, sizeof(err)) == 0);
	ck_assert_int_eq(units, H5MD_UNITS_LJ);
	for (i = 0; i < 3 * NP; i++)
		ck_assert(st.x[i] == x[i] && st.v[i] == v[i]);	/* bit for bit */
	md_state_free(&st);
	remove_dir();
}
END_TEST

/* Whole file into memory (to see that a refused append left it alone). */
static char *slurp(const char *path, long *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;

	ck_assert(fp != NULL);
	fseek(fp, 0, SEEK_END);
	*len = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)*len + 1);
	ck_assert(buf && fread(buf, 1, (size_t)*len, fp) == (size_t)*len);
	fclose(fp);
	return buf;
}

START_TEST(append_refuses_other_units)
{
	char path[300], err[600], *before, *after;
	long len0, len1, last;
	int bad, u;
	h5md_info info;
	h5md_file *h;

	make_dir();
	memset(&info, 0, sizeof(info));
	info.n = NP;
	info.fields = MD_F_X | MD_F_V | MD_F_IMAGE;
	info.species = species;
	info.mass = 1.5;
	info.config_text = "restarted";
	info.creator_version = MD_VERSION;
	for (u = 0; u < 2; u++) {
		int file_units = u ? H5MD_UNITS_LJ : H5MD_UNITS_ARGON;

		path_in_dir(path, sizeof(path), u ? "lj.h5md" : "ar.h5md");
		close_file(write_file_units(path, info.fields, NF, 0, file_units));
		before = slurp(path, &len0);
		info.units = u ? H5MD_UNITS_ARGON : H5MD_UNITS_LJ;
		h = h5md_open_append(path, &info, 20, &last, &bad, err, sizeof(err));
		ck_assert(h == NULL);
		ck_assert_int_eq(bad, 1);
		ck_assert_msg(strstr(err, u ? "in lj units" : "in argon units") &&
			      strstr(err, "output.units"), "%s", err);
		after = slurp(path, &len1);
		ck_assert(len0 == len1 && !memcmp(before, after, (size_t)len0));
		free(before);
		free(after);
		/* the file's own units: accepted */
		info.units = file_units;
		h = h5md_open_append(path, &info, 20, &last, &bad, err, sizeof(err));
		ck_assert_msg(h != NULL, "%s", err);
		close_file(h);
	}
	remove_dir();
}
END_TEST

/* Tamper with attribute name of obj in path: a string, a double or an
 * int (kind 's', 'd', 'i'), or delete it ('x'). */
static void tamper(const char *path, const char *obj, const char *name,
		   int kind, const char *sval, double dval)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), o, s, t, a;
	int ival = (int)dval;

	ck_assert(f >= 0);
	o = H5Oopen(f, obj, H5P_DEFAULT);
	ck_assert(o >= 0);
	if (H5Aexists(o, name) > 0)
		ck_assert(H5Adelete(o, name) >= 0);
	if (kind != 'x') {
		s = H5Screate(H5S_SCALAR);
		if (kind == 's') {
			t = H5Tcopy(H5T_C_S1);
			H5Tset_size(t, H5T_VARIABLE);
			a = H5Acreate2(o, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
			ck_assert(a >= 0 && H5Awrite(a, t, &sval) >= 0);
			H5Tclose(t);
		} else if (kind == 'd') {
			a = H5Acreate2(o, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT);
			ck_assert(a >= 0 && H5Awrite(a, H5T_NATIVE_DOUBLE, &dval) >= 0);
		} else {
			a = H5Acreate2(o, name, H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT);
			ck_assert(a >= 0 && H5Awrite(a, H5T_NATIVE_INT, &ival) >= 0);
		}
		H5Aclose(a);
		H5Sclose(s);
	}
	H5Oclose(o);
	H5Fclose(f);
}

/* A unit record that cannot take the values back to reduced units is an
 * input error of the restart (never a crash, never a silent misread). */
START_TEST(restart_refuses_bad_unit_records)
{
	static const struct {
		int argon;
		const char *obj, *name;
		int kind;
		const char *s;
		double d;
		const char *says;
	} cases[] = {
		{ 1, "parameters/units", "system", 's', "furlong", 0, "furlong" },
		{ 1, "parameters/units", "system", 'i', NULL, 7, "system" },
		{ 1, "parameters/units", "system", 'x', NULL, 0, "system" },
		{ 1, "parameters/units", "length", 'd', NULL, 0.0, "length scale" },
		{ 1, "parameters/units", "length", 'd', NULL, -3.405, "length scale" },
		{ 1, "parameters/units", "velocity", 'd', NULL, NAN, "velocity scale" },
		{ 1, "parameters/units", "time", 's', "2.156", 0, "time scale" },
		{ 1, "parameters/units", "length", 'd', NULL, 1e-320, "not finite" },
		{ 1, TRAJ "/position/value", "unit", 's', "nm", 0, "nm" },
		{ 1, TRAJ "/velocity/value", "unit", 'x', NULL, 0, "velocity" },
		{ 0, TRAJ "/position/value", "unit", 's', "nm", 0, "nm" },
		{ 0, "parameters/units", "system", 's', "argon", 0, "says argon units" },
	};
	char path[300], err[600], name[32];
	md_state st;
	double t;
	int c, units;

	make_dir();
	for (c = 0; c < (int)(sizeof(cases) / sizeof(cases[0])); c++) {
		snprintf(name, sizeof(name), "case%d.h5md", c);
		path_in_dir(path, sizeof(path), name);
		close_file(write_file_units(path, MD_F_X | MD_F_V | MD_F_IMAGE, 2, 0,
					    cases[c].argon ? H5MD_UNITS_ARGON :
					    H5MD_UNITS_LJ));
		tamper(path, cases[c].obj, cases[c].name, cases[c].kind, cases[c].s,
		       cases[c].d);
		err[0] = '\0';
		ck_assert_msg(h5md_read_last_units(path, MD_F_X | MD_F_V | MD_F_IMAGE,
						   &st, &t, &units, err, sizeof(err)) ==
			      MD_EXIT_INPUT, "case %d accepted", c);
		ck_assert_msg(strstr(err, cases[c].says), "case %d: %s", c, err);
	}
	/* a file written before /parameters/units existed is in lj units */
	path_in_dir(path, sizeof(path), "old.h5md");
	close_file(write_file(path, MD_F_X | MD_F_V | MD_F_IMAGE, 2, 0));
	{
		hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);

		ck_assert(H5Ldelete(f, "parameters/units", H5P_DEFAULT) >= 0);
		H5Fclose(f);
	}
	ck_assert(h5md_read_last_units(path, MD_F_X | MD_F_V | MD_F_IMAGE, &st, &t,
				       &units, err, sizeof(err)) == 0);
	ck_assert_int_eq(units, H5MD_UNITS_LJ);
	md_state_free(&st);
	/* but positions in Angstrom without the mapping cannot be taken back */
	path_in_dir(path, sizeof(path), "nomap.h5md");
	close_file(write_file_units(path, MD_F_X | MD_F_V | MD_F_IMAGE, 2, 0,
				    H5MD_UNITS_ARGON));
	{
		hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);

		ck_assert(H5Ldelete(f, "parameters/units", H5P_DEFAULT) >= 0);
		H5Fclose(f);
	}
	ck_assert_int_eq(h5md_read_last_units(path, MD_F_X | MD_F_V | MD_F_IMAGE, &st,
					      &t, &units, err, sizeof(err)), MD_EXIT_INPUT);
	ck_assert_msg(strstr(err, "Angstrom"), "%s", err);
	remove_dir();
}
END_TEST

static Suite *h5md_suite(void)
{
	Suite *s = suite_create("h5md");
	TCase *tc = tcase_create("h5md");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, layout_metadata_and_units);
	tcase_add_test(tc, round_trip_is_exact);
	tcase_add_test(tc, fields_select_elements);
	tcase_add_test(tc, read_last_skips_incomplete_frame);
	tcase_add_test(tc, read_last_needs_velocity_and_image);
	tcase_add_test(tc, append_continues_and_refuses);
	tcase_add_test(tc, create_error_names_path_and_reason);
	tcase_add_test(tc, output_keys_checked_before_work);
	tcase_add_test(tc, writer_thread_with_cpu_backend);
	tcase_add_test(tc, argon_units_and_values);
	tcase_add_test(tc, argon_restart_reads_reduced_units);
	tcase_add_test(tc, append_refuses_other_units);
	tcase_add_test(tc, restart_refuses_bad_unit_records);
	suite_add_tcase(s, tc);
	return s;
}

MD_TEST_MAIN(h5md_suite)
