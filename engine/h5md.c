/*
 * h5md.c - H5MD 1.1 files through the HDF5 C API (see h5md.h for the
 * layout, the units and why the file format is version 2, not the latest).
 *
 * Invariants of an open handle:
 *   - every time-dependent dataset (the values, `step`, `time`) has
 *     h->frames rows once h5md_append returns, whether it succeeded or not;
 *   - `step` and `time` live in particles/trajectory/position and every
 *     other element hard-links them, so one write per frame serves all;
 *   - value datasets are chunked one frame per chunk (never rewritten, so
 *     compression never moves a chunk that flushed metadata points to);
 *     `step`, `time`, edges and observables are uncompressed, so their
 *     chunks are rewritten in place.
 *   - h->scale[] is the file's mapping from reduced units (all 1 for lj):
 *     values are multiplied by it on writing and divided by it on reading,
 *     and nothing else converts units.
 * Errors: every HDF5 failure is turned into one line "what: why", where
 * "why" is the innermost HDF5 error (the errno text for I/O errors).
 */
#include "h5md.h"

#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>
#include "config.h"
#include "setup.h"

#define TRAJ "particles/trajectory"
#define NONE H5I_INVALID_HID

enum { K_VEC, K_IVEC, K_MAT, K_SCALAR };

/* Quantities with a unit; the names are those of /parameters/units. */
enum { Q_NONE = -1, Q_LENGTH = 0, Q_TIME, Q_MASS, Q_ENERGY, Q_VELOCITY,
       Q_FORCE, Q_TEMPERATURE, Q_PRESSURE, NQ };

static const char *const q_names[NQ] = { "length", "time", "mass", "energy",
	"velocity", "force", "temperature", "pressure" };

/* A unit system of the file (see h5md.h). physical: MDAnalysis knows the
 * unit strings of position, velocity, force and time, so they are written
 * as `unit` there (else as `reduced_unit`, which it ignores). */
typedef struct unit_system {
	const char *name;	/* output.units, /parameters/units system */
	const char *h5md;	/* h5md/modules/units system */
	int physical;
	const char *unit[NQ];
	const char *about;	/* /parameters/units description */
} unit_system;

static const unit_system systems[H5MD_NUNITS] = {
	{ "lj", "LJ", 0, { "sigma", "tau", "m0", "epsilon", "sigma tau-1",
	  "epsilon sigma-1", "epsilon kB-1", "epsilon sigma-3" },
	  "reduced Lennard-Jones units, as mdsim computes: every scale is 1" },
	{ "argon", "SI", 1, { "Angstrom", "ps", "u", "kJ mol-1", "Angstrom ps-1",
	  "kJ mol-1 Angstrom-1", "K", "bar" },
	  "argon: sigma = 3.405 Angstrom, epsilon/kB = 119.8 K, m = 39.948 u, "
	  "tau = sigma sqrt(m/epsilon), with kB = 1.380649e-23 J K-1 and "
	  "NA = 6.02214076e23 mol-1 (CODATA 2018); energies per particle in "
	  "kJ mol-1 (molar)" },
};

/*
 * The argon mapping: the Lennard-Jones parameters of argon that textbooks
 * and MD codes commonly use, the standard atomic weight of argon, and the
 * CODATA 2018 Boltzmann and Avogadro constants (exact in the SI since
 * 2019). tau = sigma sqrt(m / epsilon) comes out at 2.156 ps.
 */
#define AR_SIGMA_A	3.405		/* sigma, Angstrom */
#define AR_EPS_K	119.8		/* epsilon / kB, K */
#define AR_MASS_U	39.948		/* m, u (= g mol-1) */
#define CODATA_KB	1.380649e-23	/* Boltzmann constant, J K-1 */
#define CODATA_NA	6.02214076e23	/* Avogadro constant, mol-1 */

/* unit_scales - per quantity, the value in the file of one reduced unit:
 * file value = reduced value x s[q]. */
static void unit_scales(int units, double s[NQ])
{
	double sigma_m = AR_SIGMA_A * 1e-10, eps_j = AR_EPS_K * CODATA_KB;
	double m_kg = AR_MASS_U * 1e-3 / CODATA_NA;
	int q;

	for (q = 0; q < NQ; q++)
		s[q] = 1.0;
	if (units != H5MD_UNITS_ARGON)
		return;
	s[Q_LENGTH] = AR_SIGMA_A;
	s[Q_TIME] = sigma_m * sqrt(m_kg / eps_j) * 1e12;	/* ps */
	s[Q_MASS] = AR_MASS_U;
	s[Q_ENERGY] = eps_j * CODATA_NA * 1e-3;			/* kJ mol-1 */
	s[Q_VELOCITY] = s[Q_LENGTH] / s[Q_TIME];
	s[Q_FORCE] = s[Q_ENERGY] / s[Q_LENGTH];
	s[Q_TEMPERATURE] = AR_EPS_K;
	s[Q_PRESSURE] = eps_j / (sigma_m * sigma_m * sigma_m) * 1e-5;	/* bar */
}

const char *h5md_units_name(int units)
{
	return units >= 0 && units < H5MD_NUNITS ? systems[units].name : "?";
}

/* A time-dependent element: its group, the field that turns it on (0:
 * always there), the shape of one sample, the quantity of `value`, and
 * whether MDAnalysis parses its unit (see unit_system). */
typedef struct td_elem {
	const char *path;
	unsigned field;
	int kind, q, mda;
} td_elem;

enum { E_POS = 0, E_VEL, E_FORCE, E_IMAGE, E_EDGES, E_OBS,
       NELEM = E_OBS + H5MD_NOBS };

static const td_elem elems[NELEM] = {
	{ TRAJ "/position", MD_F_X, K_VEC, Q_LENGTH, 1 },
	{ TRAJ "/velocity", MD_F_V, K_VEC, Q_VELOCITY, 1 },
	{ TRAJ "/force", MD_F_F, K_VEC, Q_FORCE, 1 },
	{ TRAJ "/image", MD_F_IMAGE, K_IVEC, Q_NONE, 0 },
	{ TRAJ "/box/edges", 0, K_MAT, Q_LENGTH, 0 },
	{ "observables/potential_energy", 0, K_SCALAR, Q_ENERGY, 0 },
	{ "observables/kinetic_energy", 0, K_SCALAR, Q_ENERGY, 0 },
	{ "observables/total_energy", 0, K_SCALAR, Q_ENERGY, 0 },
	{ "observables/temperature", 0, K_SCALAR, Q_TEMPERATURE, 0 },
	{ "observables/pressure", 0, K_SCALAR, Q_PRESSURE, 0 },
};

struct h5md_file {
	hid_t file, step, time;
	hid_t val[NELEM];	/* NONE where the element is absent */
	int n;
	unsigned fields;
	long frames;
	int units;		/* enum h5md_units */
	double scale[NQ];	/* file value = reduced value x scale */
	double *scratch;	/* 3n doubles for a scaled row (not lj), or NULL */
	int broken;		/* a flush failed: the file is left alone */
	char why[256];		/* first HDF5 failure reason seen */
};

void h5md_quiet(void)
{
	/* After a failed flush HDF5 1.10 can crash in its exit-time clean-up
	 * of the abandoned file; our files are closed (or abandoned) by us. */
	static int first = 1;

	if (first)
		H5dont_atexit();
	first = 0;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *data)
{
	char *why = data;
	const char *p;

	(void)n;
	if (why[0] || !e->desc || !e->desc[0])
		return 0;
	p = strstr(e->desc, "error message = '");
	if (p) {
		p += strlen("error message = '");
		snprintf(why, 256, "%.*s", (int)strcspn(p, "'"), p);
	} else {
		snprintf(why, 256, "%s", e->desc);
	}
	return 0;
}

/* note - keep the innermost reason of the HDF5 call that just failed
 * (before any other HDF5 call clears the error stack). */
static void note(h5md_file *h)
{
	if (!h->why[0])
		H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk_cb, h->why);
	if (!h->why[0])
		snprintf(h->why, sizeof(h->why), "HDF5 error");
}

#define CK(h, expr)					\
	do {						\
		if ((expr) < 0) {			\
			note(h);			\
			goto fail;			\
		}					\
	} while (0)

static h5md_file *handle_new(void)
{
	h5md_file *h = calloc(1, sizeof(*h));
	int e;

	if (!h)
		return NULL;
	h->file = h->step = h->time = NONE;
	for (e = 0; e < NELEM; e++)
		h->val[e] = NONE;
	unit_scales(H5MD_UNITS_LJ, h->scale);
	return h;
}

static void close_id(hid_t *id)
{
	if (*id >= 0) {
		H5Oclose(*id);	/* groups and datasets alike */
		*id = NONE;
	}
}

/*
 * cork - keep (on = 1) or release the metadata of every time-dependent
 * dataset in the metadata cache. Corked, nothing of them is evicted to
 * the file between two flushes (an eviction could write a chunk index
 * entry pointing past the end of the file that the superblock on disk
 * knows); H5Fflush still writes them.
 */
static void cork(h5md_file *h, int on)
{
	int e;

	for (e = -2; e < NELEM; e++) {
		hid_t d = e == -2 ? h->step : e == -1 ? h->time : h->val[e];
		hbool_t corked = 0;

		if (d < 0 || H5Oare_mdc_flushes_disabled(d, &corked) < 0 ||
		    !corked == !on)
			continue;
		if (on)
			H5Odisable_mdc_flushes(d);
		else
			H5Oenable_mdc_flushes(d);
	}
}

/* Dataset ids, then the file, then h; returns 0 or -1 (the close failed;
 * the reason goes to why[256] when why is not NULL). */
static int handle_free(h5md_file *h, char *why)
{
	int e, rc = 0;

	if (!h)
		return 0;
	free(h->scratch);
	if (h->broken) {	/* closing would flush again (and may crash) */
		if (why)
			memcpy(why, h->why, sizeof(h->why));
		free(h);
		return -1;
	}
	cork(h, 0);
	for (e = 0; e < NELEM; e++)
		close_id(&h->val[e]);
	close_id(&h->step);
	close_id(&h->time);
	if (h->file >= 0 && H5Fclose(h->file) < 0) {
		note(h);
		rc = -1;
	}
	if (why)
		memcpy(why, h->why, sizeof(h->why));
	free(h);
	return rc;
}

/* File access: format version 2 (see h5md.h) and, where the library has
 * it, file locking that does not fail on file systems without locks. */
static hid_t file_access(void)
{
	hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);

	if (fapl < 0)
		return NONE;
	H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18);
#if H5_VERSION_GE(1, 10, 7)
	H5Pset_file_locking(fapl, 1, 1);
#endif
	return fapl;
}

/* attr_str - scalar string attribute: variable length (vl) or fixed. */
static int attr_str(hid_t loc, const char *name, const char *val, int vl)
{
	hid_t t = H5Tcopy(H5T_C_S1), s = H5Screate(H5S_SCALAR), a = NONE;
	herr_t rc = -1;

	if (t < 0 || s < 0)
		goto out;
	if (H5Tset_size(t, vl ? H5T_VARIABLE : strlen(val) + 1) < 0 ||
	    H5Tset_cset(t, H5T_CSET_ASCII) < 0)
		goto out;
	a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
	if (a >= 0)
		rc = vl ? H5Awrite(a, t, &val) : H5Awrite(a, t, val);
out:
	if (a >= 0)
		H5Aclose(a);
	if (s >= 0)
		H5Sclose(s);
	if (t >= 0)
		H5Tclose(t);
	return rc < 0 ? -1 : 0;
}

/* attr_ints - integer attribute: scalar when count == 0, else [count]. */
static int attr_ints(hid_t loc, const char *name, const int *v, hsize_t count)
{
	hid_t s = count ? H5Screate_simple(1, &count, NULL) : H5Screate(H5S_SCALAR);
	hid_t a = NONE;
	herr_t rc = -1;

	if (s < 0)
		return -1;
	a = H5Acreate2(loc, name, H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT);
	if (a >= 0)
		rc = H5Awrite(a, H5T_NATIVE_INT, v);
	if (a >= 0)
		H5Aclose(a);
	H5Sclose(s);
	return rc < 0 ? -1 : 0;
}

/* attr_double - scalar float64 attribute. */
static int attr_double(hid_t loc, const char *name, double v)
{
	hid_t s = H5Screate(H5S_SCALAR), a = NONE;
	herr_t rc = -1;

	if (s < 0)
		return -1;
	a = H5Acreate2(loc, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT);
	if (a >= 0)
		rc = H5Awrite(a, H5T_NATIVE_DOUBLE, &v);
	if (a >= 0)
		H5Aclose(a);
	H5Sclose(s);
	return rc < 0 ? -1 : 0;
}

/*
 * attr_read_str - the string attribute name of obj (variable or fixed
 * length, one element) into buf (len bytes). Returns 0, or -1 when it is
 * missing, not a single string or does not fit (hostile files: nothing is
 * trusted).
 */
static int attr_read_str(hid_t obj, const char *name, char *buf, size_t len)
{
	hid_t a, t = NONE, s = NONE, mt = NONE;
	int rc = -1;

	buf[0] = '\0';
	if (H5Aexists(obj, name) <= 0)
		return -1;
	a = H5Aopen(obj, name, H5P_DEFAULT);
	if (a < 0)
		return -1;
	t = H5Aget_type(a);
	s = H5Aget_space(a);
	mt = H5Tcopy(H5T_C_S1);
	if (t < 0 || s < 0 || mt < 0 || H5Tget_class(t) != H5T_STRING ||
	    H5Sget_simple_extent_npoints(s) != 1 ||
	    H5Tset_cset(mt, H5Tget_cset(t)) < 0)	/* h5py writes UTF-8 */
		goto out;
	if (H5Tis_variable_str(t) > 0) {
		char *v = NULL;

		if (H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Aread(a, mt, &v) >= 0 &&
		    v && strlen(v) < len) {
			memcpy(buf, v, strlen(v) + 1);
			rc = 0;
		}
		if (v)
			H5free_memory(v);
	} else {
		size_t n = H5Tget_size(t);

		if (n > 0 && n < len && H5Tset_size(mt, n + 1) >= 0 &&
		    H5Aread(a, mt, buf) >= 0) {
			buf[n] = '\0';
			rc = 0;
		}
	}
out:
	if (rc)
		buf[0] = '\0';
	if (mt >= 0)
		H5Tclose(mt);
	if (s >= 0)
		H5Sclose(s);
	if (t >= 0)
		H5Tclose(t);
	H5Aclose(a);
	return rc;
}

/* attr_read_double - a numeric attribute of one element as a double;
 * 0 or -1 (missing, not a number, not one element). */
static int attr_read_double(hid_t obj, const char *name, double *v)
{
	hid_t a, t = NONE, s = NONE;
	H5T_class_t c;
	int rc = -1;

	if (H5Aexists(obj, name) <= 0)
		return -1;
	a = H5Aopen(obj, name, H5P_DEFAULT);
	if (a < 0)
		return -1;
	t = H5Aget_type(a);
	s = H5Aget_space(a);
	c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
	if (s >= 0 && (c == H5T_FLOAT || c == H5T_INTEGER) &&
	    H5Sget_simple_extent_npoints(s) == 1 &&
	    H5Aread(a, H5T_NATIVE_DOUBLE, v) >= 0)
		rc = 0;
	if (s >= 0)
		H5Sclose(s);
	if (t >= 0)
		H5Tclose(t);
	H5Aclose(a);
	return rc;
}

/* text_dataset - scalar variable-length string dataset name = text. */
static int text_dataset(hid_t loc, const char *name, const char *text)
{
	hid_t t = H5Tcopy(H5T_C_S1), s = H5Screate(H5S_SCALAR), d = NONE;
	herr_t rc = -1;

	if (t < 0 || s < 0 || H5Tset_size(t, H5T_VARIABLE) < 0)
		goto out;
	d = H5Dcreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (d >= 0)
		rc = H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, &text);
out:
	if (d >= 0)
		H5Dclose(d);
	if (s >= 0)
		H5Sclose(s);
	if (t >= 0)
		H5Tclose(t);
	return rc < 0 ? -1 : 0;
}

/* Group at path, intermediate groups created. */
static hid_t make_group(hid_t file, const char *path)
{
	hid_t lcpl = H5Pcreate(H5P_LINK_CREATE), g;

	if (lcpl < 0)
		return NONE;
	H5Pset_create_intermediate_group(lcpl, 1);
	g = H5Gcreate2(file, path, lcpl, H5P_DEFAULT, H5P_DEFAULT);
	H5Pclose(lcpl);
	return g;
}

/* Shape of one sample of kind (rank includes the frame dimension). */
static int sample_shape(int kind, int n, hsize_t dims[3])
{
	dims[0] = 1;
	switch (kind) {
	case K_VEC:
	case K_IVEC:
		dims[1] = (hsize_t)n;
		dims[2] = 3;
		return 3;
	case K_MAT:
		dims[1] = dims[2] = 3;
		return 3;
	default:
		return 1;
	}
}

/* Access properties of value datasets: no chunk cache for per-particle
 * data, so a frame is written when appended, not at the next flush. */
static hid_t value_access(int kind)
{
	hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);

	if (dapl >= 0 && (kind == K_VEC || kind == K_IVEC))
		H5Pset_chunk_cache(dapl, H5D_CHUNK_CACHE_NSLOTS_DEFAULT, 0, 1.0);
	return dapl;
}

/* td_dataset - an empty, extendible dataset `name` in grp for kind (step
 * and time use K_SCALAR with their own types). */
static hid_t td_dataset(hid_t grp, const char *name, int kind, hid_t type,
			int n, int compress)
{
	hsize_t dims[3], maxd[3], chunk[3];
	hid_t space = NONE, dcpl = NONE, dapl = NONE, d = NONE;
	double nan_fill = NAN;
	long long step_fill = -1;
	int image_fill = INT_MIN, rank = sample_shape(kind, n, chunk), i;

	for (i = 0; i < rank; i++)
		dims[i] = maxd[i] = chunk[i];
	dims[0] = 0;
	maxd[0] = H5S_UNLIMITED;
	if (kind == K_VEC || kind == K_IVEC) {
		if (chunk[1] > (1u << 20))	/* keep chunks below 24 MiB */
			chunk[1] = 1u << 20;
	} else {
		chunk[0] = kind == K_MAT ? 128 : 1024;
	}
	space = H5Screate_simple(rank, dims, maxd);
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	dapl = value_access(kind);
	if (space < 0 || dcpl < 0 || dapl < 0 || H5Pset_chunk(dcpl, rank, chunk) < 0)
		goto out;
	if (H5Tequal(type, H5T_STD_I64LE) > 0)
		H5Pset_fill_value(dcpl, H5T_NATIVE_LLONG, &step_fill);
	else if (H5Tequal(type, H5T_STD_I32LE) > 0)
		H5Pset_fill_value(dcpl, H5T_NATIVE_INT, &image_fill);
	else
		H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &nan_fill);
	if (compress && (kind == K_VEC || kind == K_IVEC) &&
	    H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
		H5Pset_shuffle(dcpl);
		H5Pset_deflate(dcpl, 4);
	}
	d = H5Dcreate2(grp, name, type, space, H5P_DEFAULT, dcpl, dapl);
out:
	if (dapl >= 0)
		H5Pclose(dapl);
	if (dcpl >= 0)
		H5Pclose(dcpl);
	if (space >= 0)
		H5Sclose(space);
	return d;
}

/* The h5md metadata group: version, author, creator, units module. */
static int write_meta(h5md_file *h, const h5md_info *info)
{
	static const int version[2] = { 1, 1 }, units_version[2] = { 1, 0 };
	char author[128] = "unknown";
	struct passwd *pw = getpwuid(getuid());
	hid_t g = NONE, sub = NONE;

	if (pw && pw->pw_gecos && pw->pw_gecos[0] && pw->pw_gecos[0] != ',')
		snprintf(author, sizeof(author), "%.*s",
			 (int)strcspn(pw->pw_gecos, ","), pw->pw_gecos);
	else if (pw && pw->pw_name)
		snprintf(author, sizeof(author), "%s", pw->pw_name);
	CK(h, g = make_group(h->file, "h5md"));
	CK(h, attr_ints(g, "version", version, 2));
	CK(h, sub = H5Gcreate2(g, "author", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
	CK(h, attr_str(sub, "name", author, 0));
	close_id(&sub);
	CK(h, sub = H5Gcreate2(g, "creator", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
	CK(h, attr_str(sub, "name", "mdsim", 0));
	CK(h, attr_str(sub, "version", info->creator_version, 0));
	close_id(&sub);
	CK(h, sub = make_group(g, "modules/units"));
	CK(h, attr_ints(sub, "version", units_version, 2));
	CK(h, attr_str(sub, "system", systems[h->units].h5md, 1));
	close_id(&sub);
	close_id(&g);
	return 0;
fail:
	close_id(&sub);
	close_id(&g);
	return -1;
}

/* box attributes, species and mass of particles/trajectory. */
static int write_particles(h5md_file *h, const h5md_info *info)
{
	hsize_t n = (hsize_t)info->n, three = 3;
	hid_t g = NONE, s = NONE, d = NONE, t = NONE, a = NONE;
	const char periodic[3][9] = { "periodic", "periodic", "periodic" };
	const int dim = 3;
	double *mass = NULL;
	hsize_t i;

	CK(h, g = make_group(h->file, TRAJ "/box"));
	CK(h, attr_ints(g, "dimension", &dim, 0));
	CK(h, t = H5Tcopy(H5T_C_S1));
	CK(h, H5Tset_size(t, sizeof(periodic[0])));
	CK(h, s = H5Screate_simple(1, &three, NULL));
	CK(h, a = H5Acreate2(g, "boundary", t, s, H5P_DEFAULT, H5P_DEFAULT));
	CK(h, H5Awrite(a, t, periodic));
	H5Aclose(a);
	a = NONE;
	H5Sclose(s);
	H5Tclose(t);
	t = NONE;
	close_id(&g);

	CK(h, s = H5Screate_simple(1, &n, NULL));
	CK(h, d = H5Dcreate2(h->file, TRAJ "/species", H5T_STD_I32LE, s,
			     H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
	CK(h, H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT,
		       info->species));
	close_id(&d);
	mass = malloc(sizeof(double) * (n ? n : 1));
	if (!mass) {
		snprintf(h->why, sizeof(h->why), "out of memory");
		goto fail;
	}
	for (i = 0; i < n; i++)
		mass[i] = (info->type_mass ? info->type_mass[info->species[i]] :
			   info->mass) * h->scale[Q_MASS];
	CK(h, d = H5Dcreate2(h->file, TRAJ "/mass", H5T_IEEE_F64LE, s,
			     H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
	CK(h, H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, mass));
	CK(h, attr_str(d, "unit", systems[h->units].unit[Q_MASS], 1));
	close_id(&d);
	H5Sclose(s);
	free(mass);
	return 0;
fail:
	free(mass);
	if (a >= 0)
		H5Aclose(a);
	if (t >= 0)
		H5Tclose(t);
	if (s >= 0)
		H5Sclose(s);
	close_id(&d);
	close_id(&g);
	return -1;
}

/* The time-dependent elements of info->fields, with their units. */
static int write_elements(h5md_file *h, const h5md_info *info)
{
	const unit_system *u = &systems[h->units];
	const char *mda_attr = u->physical ? "unit" : "reduced_unit";
	hid_t g = NONE;
	int e;

	for (e = 0; e < NELEM; e++) {
		const td_elem *el = &elems[e];
		hid_t type = el->kind == K_IVEC ? H5T_STD_I32LE : H5T_IEEE_F64LE;

		if (el->field && !(info->fields & el->field))
			continue;
		CK(h, g = make_group(h->file, el->path));
		CK(h, h->val[e] = td_dataset(g, "value", el->kind, type, info->n,
					     info->compression));
		if (el->q != Q_NONE)
			CK(h, attr_str(h->val[e], el->mda ? mda_attr : "unit",
				       u->unit[el->q], 1));
		if (e == E_POS) {
			CK(h, h->step = td_dataset(g, "step", K_SCALAR,
						   H5T_STD_I64LE, 0, 0));
			CK(h, h->time = td_dataset(g, "time", K_SCALAR,
						   H5T_IEEE_F64LE, 0, 0));
			CK(h, attr_str(h->time, mda_attr, u->unit[Q_TIME], 1));
		} else {
			CK(h, H5Lcreate_hard(h->file, TRAJ "/position/step", g,
					     "step", H5P_DEFAULT, H5P_DEFAULT));
			CK(h, H5Lcreate_hard(h->file, TRAJ "/position/time", g,
					     "time", H5P_DEFAULT, H5P_DEFAULT));
		}
		close_id(&g);
	}
	return 0;
fail:
	close_id(&g);
	return -1;
}

/* /parameters/units: the mapping from reduced units (see h5md.h). */
static int write_units(h5md_file *h, hid_t params)
{
	const unit_system *u = &systems[h->units];
	char name[32];
	hid_t g = NONE;
	int q;

	CK(h, g = H5Gcreate2(params, "units", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
	CK(h, attr_str(g, "system", u->name, 1));
	CK(h, attr_str(g, "description", u->about, 1));
	CK(h, attr_str(g, "rule", "value in this file = value in reduced LJ units x <quantity>, in <quantity>_unit", 1));
	for (q = 0; q < NQ; q++) {
		snprintf(name, sizeof(name), "%s_unit", q_names[q]);
		CK(h, attr_double(g, q_names[q], h->scale[q]));
		CK(h, attr_str(g, name, u->unit[q], 1));
	}
	close_id(&g);
	return 0;
fail:
	close_id(&g);
	return -1;
}

static int write_parameters(h5md_file *h, const h5md_info *info)
{
	hid_t g = NONE;

	CK(h, g = make_group(h->file, "parameters"));
	CK(h, attr_str(g, "program", "mdsim", 1));
	CK(h, attr_str(g, "program_version", info->creator_version, 1));
	CK(h, text_dataset(g, "config", info->config_text ? info->config_text : ""));
	CK(h, write_units(h, g));
	close_id(&g);
	return 0;
fail:
	close_id(&g);
	return -1;
}

/* set_units - the handle writes in units: scales and the scratch row. */
static int set_units(h5md_file *h, int units)
{
	h->units = units;
	unit_scales(units, h->scale);
	if (units == H5MD_UNITS_LJ)
		return 0;
	h->scratch = malloc(sizeof(double) * 3 * (size_t)(h->n > 0 ? h->n : 1));
	return h->scratch ? 0 : -1;
}

h5md_file *h5md_create(const char *path, const h5md_info *info, char *err,
		       size_t errlen)
{
	h5md_file *h = handle_new();
	hid_t fapl = file_access(), fcpl = H5Pcreate(H5P_FILE_CREATE);

	/* wider chunk-index B-tree nodes (256 entries, about 12 KiB, instead
	 * of 64): a node splits every 128 frames instead of every 32; a split
	 * moves older entries, and a kill inside that flush can cost them
	 * (docs/h5md.md) */
	if (fcpl >= 0)
		H5Pset_istore_k(fcpl, 128);
	if (!h || fapl < 0 || fcpl < 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	h->n = info->n;
	h->fields = info->fields | MD_F_X;
	if (info->units < 0 || info->units >= H5MD_NUNITS) {
		snprintf(err, errlen, "%s: unknown units %d", path, info->units);
		goto fail;
	}
	if (set_units(h, info->units)) {
		snprintf(err, errlen, "%s: out of memory", path);
		goto fail;
	}
	h->file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
	if (h->file < 0) {
		note(h);
		snprintf(err, errlen, "cannot create %s: %s", path, h->why);
		goto fail;
	}
	if (write_meta(h, info) || write_particles(h, info) ||
	    write_elements(h, info) || write_parameters(h, info) ||
	    H5Fflush(h->file, H5F_SCOPE_LOCAL) < 0) {
		note(h);
		snprintf(err, errlen, "cannot write the H5MD layout to %s: %s",
			 path, h->why);
		goto fail;
	}
	cork(h, 1);
	H5Pclose(fcpl);
	H5Pclose(fapl);
	return h;
fail:
	if (fcpl >= 0)
		H5Pclose(fcpl);
	if (fapl >= 0)
		H5Pclose(fapl);
	if (h && h->file >= 0) {
		handle_free(h, NULL);
		unlink(path);	/* a half-made layout is of no use */
	} else {
		handle_free(h, NULL);
	}
	return NULL;
}

/* write_row - extend d to k + 1 frames and write sample k from buf. */
static int write_row(h5md_file *h, hid_t d, int kind, hsize_t k,
		     hid_t memtype, const void *buf)
{
	hsize_t count[3], start[3] = { k, 0, 0 }, dims[3];
	int rank = sample_shape(kind, h->n, count), i;
	hid_t fs = NONE, ms = NONE;
	herr_t rc = -1;

	for (i = 0; i < rank; i++)
		dims[i] = count[i];
	dims[0] = k + 1;
	if (H5Dset_extent(d, dims) < 0)
		goto out;
	fs = H5Dget_space(d);
	ms = H5Screate_simple(rank, count, NULL);
	if (fs < 0 || ms < 0 ||
	    H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0)
		goto out;
	rc = H5Dwrite(d, memtype, ms, fs, H5P_DEFAULT, buf);
out:
	if (rc < 0)
		note(h);
	if (ms >= 0)
		H5Sclose(ms);
	if (fs >= 0)
		H5Sclose(fs);
	return rc < 0 ? -1 : 0;
}

/* set_frames - every time-dependent dataset to k frames (cut or grow). */
static int set_frames(h5md_file *h, hsize_t k)
{
	int e, rc = 0;

	for (e = -2; e < NELEM; e++) {
		hid_t d = e == -2 ? h->step : e == -1 ? h->time : h->val[e];
		hsize_t dims[3];
		int rank;

		if (d < 0)
			continue;
		rank = sample_shape(e < 0 ? K_SCALAR : elems[e].kind, h->n, dims);
		dims[0] = k;
		if (rank && H5Dset_extent(d, dims) < 0) {
			note(h);
			rc = -1;
		}
	}
	return rc;
}

/*
 * in_file_units - src (count doubles of quantity q) as the file stores it:
 * src itself when the scale is 1 (lj: the values go out bit for bit),
 * else each value times the scale, in buf.
 */
static const void *in_file_units(const h5md_file *h, int q, const void *src,
				 double *buf, size_t count)
{
	const double *a = src;
	size_t i;

	if (q == Q_NONE || h->scale[q] == 1.0)
		return src;
	for (i = 0; i < count; i++)
		buf[i] = a[i] * h->scale[q];
	return buf;
}

int h5md_append(h5md_file *h, const h5md_frame *fr, char *err, size_t errlen)
{
	double edges[9] = { 0 }, small[9], time;
	const void *src[NELEM];
	hsize_t k = (hsize_t)h->frames;
	int e;

	edges[0] = fr->box[0] * h->scale[Q_LENGTH];
	edges[4] = fr->box[1] * h->scale[Q_LENGTH];
	edges[8] = fr->box[2] * h->scale[Q_LENGTH];
	time = fr->time * h->scale[Q_TIME];
	src[E_POS] = fr->x;
	src[E_VEL] = fr->v;
	src[E_FORCE] = fr->f;
	src[E_IMAGE] = fr->image;
	src[E_EDGES] = edges;
	for (e = 0; e < H5MD_NOBS; e++)
		src[E_OBS + e] = &fr->obs[e];
	h->why[0] = '\0';
	for (e = 0; e < NELEM; e++)
		if (h->val[e] >= 0 && !src[e]) {	/* caller's error: file untouched */
			snprintf(err, errlen, "frame of step %ld has no data for %s",
				 fr->step, elems[e].path);
			return -1;
		}
	if (h->broken) {
		snprintf(h->why, sizeof(h->why), "an earlier write failed");
		goto fail;
	}
	/* in flush_ordered's order (position last, then time and step), in
	 * case a metadata eviction ever wrote one before a kill: readers that
	 * count frames by position and stop where step ends (MDAnalysis) must
	 * not see a frame that other datasets do not hold yet */
	for (int q = 0; q < NELEM; q++) {
		const td_elem *el;
		const void *row;

		e = q == NELEM - 1 ? E_POS : (q < E_POS ? q : q + 1);
		if (h->val[e] < 0)
			continue;
		el = &elems[e];
		if (el->kind == K_VEC)	/* edges are scaled above */
			row = in_file_units(h, el->q, src[e], h->scratch, 3 * (size_t)h->n);
		else if (el->kind == K_SCALAR)
			row = in_file_units(h, el->q, src[e], small, 1);
		else
			row = src[e];
		if (write_row(h, h->val[e], el->kind, k,
			      el->kind == K_IVEC ? H5T_NATIVE_INT :
			      H5T_NATIVE_DOUBLE, row))
			goto fail;
	}
	if (write_row(h, h->time, K_SCALAR, k, H5T_NATIVE_DOUBLE, &time) ||
	    write_row(h, h->step, K_SCALAR, k, H5T_NATIVE_LONG, &fr->step))
		goto fail;
	h->frames++;
	return 0;
fail:
	snprintf(err, errlen, "cannot write frame %ld (step %ld): %s",
		 h->frames, fr->step, h->why);
	/* Nothing of this frame's metadata reached the file (corked); leave
	 * the file as the last flush wrote it rather than flush after a write
	 * error (a flush could now claim space that was never written). */
	set_frames(h, k);
	h->broken = 1;
	return -1;
}

/*
 * flush_ordered - dataset by dataset: the other elements, then position,
 * then the shared time and step, then H5Fflush (the superblock with the
 * end of allocation goes last of all). A write error stops before the
 * superblock claims space that was never written (a file-size limit would
 * leave a file that readers refuse as truncated). The order is what a
 * writer killed inside the flush leaves readable: MDAnalysis counts
 * frames by position and ends its iteration where `step` ends, so a frame
 * is in `step` only when every element holds it (step flushed before
 * position left step one frame longer than position: an IndexError at the
 * end of the iteration, 2 kills in 120 in tests/h5md_test.sh).
 */
static int flush_ordered(h5md_file *h)
{
	int e;

	if (h->broken)
		return -1;
	for (e = 0; e < NELEM; e++)
		if (h->val[e] >= 0 && e != E_POS && H5Dflush(h->val[e]) < 0)
			goto fail;
	if (H5Dflush(h->val[E_POS]) < 0 || H5Dflush(h->time) < 0 ||
	    H5Dflush(h->step) < 0 || H5Fflush(h->file, H5F_SCOPE_LOCAL) < 0)
		goto fail;
	return 0;
fail:
	note(h);
	h->broken = 1;
	return -1;
}

int h5md_flush(h5md_file *h, char *err, size_t errlen)
{
	h->why[0] = '\0';
	if (flush_ordered(h)) {
		snprintf(err, errlen, "cannot flush the trajectory: %s",
			 h->why[0] ? h->why : "an earlier write failed");
		return -1;
	}
	return 0;
}

long h5md_frames(const h5md_file *h)
{
	return h->frames;
}

int h5md_close(h5md_file *h, char *err, size_t errlen)
{
	char why[256];
	int rc;

	if (!h)
		return 0;
	if (h->broken) {
		handle_free(h, NULL);
		snprintf(err, errlen, "left as its last successful flush wrote it");
		return -1;
	}
	h->why[0] = '\0';
	rc = flush_ordered(h);
	if (rc) {	/* leave the file alone, as after any write error */
		snprintf(err, errlen, "cannot flush the trajectory at close: %s", h->why);
		handle_free(h, NULL);
		return -1;
	}
	if (handle_free(h, why)) {
		snprintf(err, errlen, "cannot close the trajectory: %s", why);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Reading existing files: restart and append.                         */

/* read_row - sample k of d into buf. */
static int read_row(h5md_file *h, hid_t d, int kind, hsize_t k,
		    hid_t memtype, void *buf)
{
	hsize_t count[3], start[3] = { k, 0, 0 };
	int rank = sample_shape(kind, h->n, count);
	hid_t fs = H5Dget_space(d), ms = H5Screate_simple(rank, count, NULL);
	herr_t rc = -1;

	if (fs >= 0 && ms >= 0 &&
	    H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0)
		rc = H5Dread(d, memtype, ms, fs, H5P_DEFAULT, buf);
	if (rc < 0)
		note(h);
	if (ms >= 0)
		H5Sclose(ms);
	if (fs >= 0)
		H5Sclose(fs);
	return rc < 0 ? -1 : 0;
}

/* Frames of d (first dimension), -1 on error. */
static long frames_of(hid_t d)
{
	hsize_t dims[3] = { 0, 0, 0 };
	hid_t s = H5Dget_space(d);
	int rank = s >= 0 ? H5Sget_simple_extent_dims(s, dims, NULL) : -1;

	if (s >= 0)
		H5Sclose(s);
	return rank >= 1 && rank <= 3 ? (long)dims[0] : -1;
}

/*
 * open_existing - open path (rdwr or read-only) and every element in it;
 * sets n, fields and frames (the fewest rows of any time-dependent
 * dataset). Returns 0, or MD_EXIT_INPUT / MD_EXIT_IO with err set.
 */
static int open_existing(h5md_file *h, const char *path, int rdwr, char *err,
			 size_t errlen)
{
	hid_t fapl = file_access();
	hsize_t dims[3] = { 0, 0, 0 };
	hid_t s;
	long f;
	int e;

	if (H5Fis_hdf5(path) <= 0) {
		H5Pclose(fapl);
		if (access(path, R_OK))
			snprintf(err, errlen, "cannot open %s: no such readable file", path);
		else
			snprintf(err, errlen, "%s is not an HDF5 file", path);
		return MD_EXIT_INPUT;
	}
	h->file = H5Fopen(path, rdwr ? H5F_ACC_RDWR : H5F_ACC_RDONLY, fapl);
	H5Pclose(fapl);
	if (h->file < 0) {
		note(h);
		snprintf(err, errlen, "cannot open %s%s: %s", path,
			 rdwr ? " for appending" : "", h->why);
		return MD_EXIT_IO;
	}
	/* A writer killed inside H5Fflush can leave data past the end of
	 * allocation stored in the superblock (readers then refuse it as "addr
	 * overflow"): take what the file holds as allocated (in memory only
	 * for a read-only open; the superblock is rewritten when appending). */
	if (H5Fincrement_filesize(h->file, 0) < 0) {
		note(h);
		snprintf(err, errlen, "cannot open %s: %s", path, h->why);
		return MD_EXIT_IO;
	}
	if (H5Lexists(h->file, "h5md", H5P_DEFAULT) <= 0 ||
	    H5Lexists(h->file, "particles", H5P_DEFAULT) <= 0 ||
	    H5Lexists(h->file, TRAJ, H5P_DEFAULT) <= 0 ||
	    H5Lexists(h->file, TRAJ "/position", H5P_DEFAULT) <= 0) {
		snprintf(err, errlen, "%s is not an H5MD trajectory of mdsim (no /h5md or /%s/position)",
			 path, TRAJ);
		return MD_EXIT_INPUT;
	}
	for (e = 0; e < NELEM; e++) {
		char name[128];
		hid_t dapl;
		htri_t ok;

		snprintf(name, sizeof(name), "%s/value", elems[e].path);
		ok = H5Lexists(h->file, elems[e].path, H5P_DEFAULT) > 0 ?
			H5Lexists(h->file, name, H5P_DEFAULT) : 0;
		if (ok <= 0)
			continue;
		dapl = value_access(elems[e].kind);
		h->val[e] = H5Dopen2(h->file, name, dapl);
		H5Pclose(dapl);
		if (h->val[e] < 0)
			goto bad;
		h->fields |= elems[e].field;
	}
	h->step = H5Dopen2(h->file, TRAJ "/position/step", H5P_DEFAULT);
	h->time = H5Dopen2(h->file, TRAJ "/position/time", H5P_DEFAULT);
	if (h->val[E_POS] < 0 || h->val[E_EDGES] < 0 || h->step < 0 || h->time < 0)
		goto bad;
	s = H5Dget_space(h->val[E_POS]);
	if (s < 0 || H5Sget_simple_extent_ndims(s) != 3)
		goto bad;
	H5Sget_simple_extent_dims(s, dims, NULL);
	H5Sclose(s);
	if (dims[2] != 3 || dims[1] < 1 || dims[1] > INT_MAX)
		goto bad;
	h->n = (int)dims[1];
	h->frames = frames_of(h->step);
	for (e = -1; e < NELEM; e++) {
		hid_t d = e < 0 ? h->time : h->val[e];

		if (d < 0)
			continue;
		f = frames_of(d);
		if (f < 0)
			goto bad;
		if (f < h->frames)
			h->frames = f;
	}
	return 0;
bad:
	snprintf(err, errlen, "%s: unexpected layout of the H5MD elements (not written by mdsim?)",
		 path);
	return MD_EXIT_INPUT;
}

/*
 * unit_agrees - does dataset d carry the unit attributes that units say?
 * Physical systems: `unit` = want; lj: no `unit` (a reduced file has
 * `reduced_unit`). *got gets the `unit` found ("" when none).
 */
static int unit_agrees(hid_t d, int units, const char *want, char *got,
		       size_t len)
{
	int has = H5Aexists(d, "unit") > 0;

	got[0] = '\0';
	if (has && attr_read_str(d, "unit", got, len))
		snprintf(got, len, "(unreadable)");
	if (!systems[units].physical)
		return !has;
	return has && !strcmp(got, want);
}

/*
 * read_units - the units of an open file, from /parameters/units (written
 * by mdsim since output.units exists; a file without it is in lj units)
 * into h->units and h->scale. The unit attributes of position, velocity,
 * force and time must agree with it, else nothing could take the values
 * back to reduced units. Returns 0 or MD_EXIT_INPUT with err set.
 */
static int read_units(h5md_file *h, const char *path, char *err, size_t errlen)
{
	char name[32], got[64];
	hid_t g = NONE;
	int u, q, e, rc = MD_EXIT_INPUT, mapped = 0;

	h->units = H5MD_UNITS_LJ;
	unit_scales(H5MD_UNITS_LJ, h->scale);
	if (H5Lexists(h->file, "parameters", H5P_DEFAULT) > 0 &&
	    H5Lexists(h->file, "parameters/units", H5P_DEFAULT) > 0) {
		g = H5Gopen2(h->file, "parameters/units", H5P_DEFAULT);
		if (g < 0 || attr_read_str(g, "system", name, sizeof(name))) {
			snprintf(err, errlen, "%s: /parameters/units has no readable system attribute",
				 path);
			goto out;
		}
		for (u = 0; u < H5MD_NUNITS && strcmp(name, systems[u].name); u++)
			;
		if (u == H5MD_NUNITS) {
			snprintf(err, errlen, "%s: /parameters/units: system \"%s\" is not one mdsim knows (lj, argon)",
				 path, name);
			goto out;
		}
		h->units = u;
		mapped = 1;
		for (q = 0; q < NQ; q++)
			if (attr_read_double(g, q_names[q], &h->scale[q]) ||
			    !isfinite(h->scale[q]) || !(h->scale[q] > 0.0)) {
				snprintf(err, errlen, "%s: /parameters/units: the %s scale is missing or not a positive number",
					 path, q_names[q]);
				goto out;
			}
	}
	for (e = 0; e <= E_IMAGE; e++) {	/* position, velocity, force, time */
		hid_t d = e == E_IMAGE ? h->time : h->val[e];
		int q = e == E_IMAGE ? Q_TIME : elems[e].q;
		const unit_system *u = &systems[h->units];

		if (d < 0 || unit_agrees(d, h->units, u->unit[q], got, sizeof(got)))
			continue;
		snprintf(err, errlen, "%s: %s/%s has unit \"%s\", but %s %s units (%s%s%s): cannot take it back to reduced units",
			 path, e == E_IMAGE ? "position" : elems[e].path + strlen(TRAJ "/"),
			 e == E_IMAGE ? "time" : "value", got,
			 mapped ? "the file's /parameters/units says" :
			 "the file has no /parameters/units, so mdsim takes it as", u->name,
			 u->physical ? "expected \"" : "reduced values carry no unit attribute there",
			 u->physical ? u->unit[q] : "", u->physical ? "\"" : "");
		goto out;
	}
	rc = 0;
out:
	close_id(&g);
	return rc;
}

/* Is every value finite? (a frame cut short by a kill reads as NaN) */
static int all_finite(const double *a, long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (!isfinite(a[i]))
			return 0;
	return 1;
}

/*
 * last_complete - index of the last complete frame: its step, positions
 * and (when stored) velocities and images read back, the floats finite;
 * -1 when there is none (h->why then says why the last frame failed).
 * A kill inside H5Fflush can leave the frame being flushed as NaN fill
 * values or pointing past the stored end of the file ("addr overflow"):
 * such frames are skipped. *step_out gets the step. buf holds 3n doubles.
 */
static long last_complete(h5md_file *h, double *buf, long *step_out,
			  long max_back)
{
	long k;

	/* max_back > 0: a restart looks at that many frames at most (a
	 * hostile extent of 1e15 empty frames would otherwise keep it busy
	 * for ever; a killed writer leaves one or two incomplete frames) */
	for (k = h->frames - 1; k >= 0 && (max_back <= 0 || k >= h->frames - max_back); k--) {
		long long step;

		if (read_row(h, h->step, K_SCALAR, (hsize_t)k, H5T_NATIVE_LLONG, &step) ||
		    read_row(h, h->val[E_POS], K_VEC, (hsize_t)k, H5T_NATIVE_DOUBLE, buf))
			continue;
		if (step < 0 || !all_finite(buf, 3L * h->n))
			continue;
		if (h->val[E_VEL] >= 0 &&
		    (read_row(h, h->val[E_VEL], K_VEC, (hsize_t)k, H5T_NATIVE_DOUBLE, buf) ||
		     !all_finite(buf, 3L * h->n)))
			continue;
		if (h->val[E_IMAGE] >= 0 &&
		    read_row(h, h->val[E_IMAGE], K_IVEC, (hsize_t)k, H5T_NATIVE_INT, buf))
			continue;	/* 3n ints fit in 3n doubles */
		*step_out = (long)step;
		return k;
	}
	return -1;
}

/* Comma list of the fields in f, for messages. */
static void fields_text(unsigned f, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", f & MD_F_X ? "position" : "",
		 f & MD_F_V ? ",velocity" : "", f & MD_F_IMAGE ? ",image" : "",
		 f & MD_F_F ? ",force" : "");
}

/*
 * to_reduced - the frame just read, from the file's units back to reduced
 * ones: positions, velocities, edges and time divided by their scales
 * (not touched for lj). Division is monotonic, so positions written in
 * [0, L) come back in [0, L]; one that lands on L is wrapped (image + 1),
 * as the engine keeps positions in [0, L). Returns 0, or -1
 * when a value overflows (a hostile scale).
 */
static int to_reduced(const h5md_file *h, md_state *st, double edges[9],
		      double *time)
{
	size_t i, n3 = 3 * (size_t)st->n;

	if (h->units == H5MD_UNITS_LJ)
		return 0;
	for (i = 0; i < n3; i++) {
		st->x[i] /= h->scale[Q_LENGTH];
		st->v[i] /= h->scale[Q_VELOCITY];
	}
	for (i = 0; i < 9; i++)
		edges[i] /= h->scale[Q_LENGTH];
	*time /= h->scale[Q_TIME];
	if (!all_finite(st->x, (long)n3) || !all_finite(st->v, (long)n3) ||
	    !all_finite(edges, 9) || !isfinite(*time))
		return -1;
	for (i = 0; i < n3; i++)
		if (st->x[i] == edges[4 * (i % 3)] && st->image[i] < INT_MAX) {
			st->x[i] -= edges[4 * (i % 3)];
			st->image[i]++;
		}
	return 0;
}

/* The in-process reader; h5md_read_last runs it in a child process. */
static int read_last_direct(const char *path, unsigned need, md_state *st,
			    double *time, int *units, char *err, size_t errlen)
{
	h5md_file *h = handle_new();
	double edges[9];
	long k, step = 0;
	int rc, d;

	memset(st, 0, sizeof(*st));
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return MD_EXIT_IO;
	}
	rc = open_existing(h, path, 0, err, errlen);
	if (!rc)
		rc = read_units(h, path, err, errlen);
	if (rc)
		goto out;
	if ((need & h->fields) != need) {
		char have[64];

		fields_text(h->fields, have, sizeof(have));
		snprintf(err, errlen, "%s has %s but a restart needs position, velocity and image: write the trajectory with output.fields = position,velocity,image when a restart is meant",
			 path, have);
		rc = MD_EXIT_INPUT;
		goto out;
	}
	rc = MD_EXIT_IO;
	/* a hostile particle count: calloc may succeed (overcommit) and the
	 * read then gets the process killed for memory */
	if ((double)h->n * 200.0 > cfg_host_available() && cfg_host_available() > 0.0) {
		snprintf(err, errlen, "%s claims %d particles: more than fits in the available host memory",
			 path, h->n);
		rc = MD_EXIT_INPUT;
		goto out;
	}
	if (md_state_alloc(st, h->n)) {
		snprintf(err, errlen, "out of memory for %d particles", h->n);
		goto out;
	}
	k = last_complete(h, st->x, &step, 64);
	if (k < 0) {
		snprintf(err, errlen, "%s has no complete frame to restart from%s%s",
			 path, h->why[0] ? ": " : "", h->why);
		rc = MD_EXIT_INPUT;
		goto out;
	}
	if (read_row(h, h->val[E_POS], K_VEC, (hsize_t)k, H5T_NATIVE_DOUBLE, st->x) ||
	    (h->val[E_VEL] >= 0 &&
	     read_row(h, h->val[E_VEL], K_VEC, (hsize_t)k, H5T_NATIVE_DOUBLE, st->v)) ||
	    (h->val[E_IMAGE] >= 0 &&
	     read_row(h, h->val[E_IMAGE], K_IVEC, (hsize_t)k, H5T_NATIVE_INT, st->image)) ||
	    read_row(h, h->val[E_EDGES], K_MAT, (hsize_t)k, H5T_NATIVE_DOUBLE, edges) ||
	    read_row(h, h->time, K_SCALAR, (hsize_t)k, H5T_NATIVE_DOUBLE, time)) {
		snprintf(err, errlen, "cannot read frame %ld of %s: %s", k, path, h->why);
		goto out;
	}
	if (to_reduced(h, st, edges, time)) {
		snprintf(err, errlen, "%s: frame %ld is not finite in reduced units (the /parameters/units scales are wrong)",
			 path, k);
		rc = MD_EXIT_INPUT;
		goto out;
	}
	if (H5Lexists(h->file, TRAJ "/species", H5P_DEFAULT) > 0) {
		hid_t ds = H5Dopen2(h->file, TRAJ "/species", H5P_DEFAULT);

		if (ds < 0 || frames_of(ds) != h->n ||
		    H5Dread(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			    st->type) < 0) {
			if (ds >= 0)
				H5Dclose(ds);
			snprintf(err, errlen, "cannot read %s/species of %s", TRAJ, path);
			goto out;
		}
		H5Dclose(ds);
	}
	for (d = 0; d < 3; d++) {
		st->box[d] = edges[4 * d];
		if (!(st->box[d] > 0.0) || edges[(d + 1) % 3 + 3 * d] != 0.0 ||
		    edges[(d + 2) % 3 + 3 * d] != 0.0) {
			snprintf(err, errlen, "%s: frame %ld: box/edges is not a cuboid box with positive edges",
				 path, k);
			rc = MD_EXIT_INPUT;
			goto out;
		}
	}
	st->step = step;
	*units = h->units;
	rc = 0;
out:
	handle_free(h, NULL);
	if (rc)
		md_state_free(st);
	return rc;
}

/* same_units - does the open file use units, with this program's scales
 * (to 1e-12: a file of another mapping must not get frames of ours)? */
static int same_units(const h5md_file *h, int units)
{
	double s[NQ];
	int q;

	if (units < 0 || units >= H5MD_NUNITS || h->units != units)
		return 0;
	unit_scales(units, s);
	for (q = 0; q < NQ; q++)
		if (fabs(h->scale[q] - s[q]) > 1e-12 * s[q])
			return 0;
	return 1;
}

h5md_file *h5md_open_append(const char *path, const h5md_info *info,
			    long after, long *last_step, int *bad_input,
			    char *err, size_t errlen)
{
	h5md_file *h = handle_new();
	double *buf = NULL;
	char name[64], have[64], want[64];
	long k, step = -1;
	hid_t g = NONE;
	int rc;

	*bad_input = 0;
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	rc = open_existing(h, path, 1, err, errlen);
	if (!rc)
		rc = read_units(h, path, err, errlen);
	if (rc) {
		*bad_input = rc == MD_EXIT_INPUT;
		goto fail;
	}
	if (!same_units(h, info->units)) {
		snprintf(err, errlen, "cannot append to %s: it is written in %s units (positions in %s), but this run asks for output.units = %s (%s): set output.units = %s to continue it, or write a new file",
			 path, systems[h->units].name, systems[h->units].unit[Q_LENGTH],
			 h5md_units_name(info->units),
			 info->units >= 0 && info->units < H5MD_NUNITS ?
			 systems[info->units].unit[Q_LENGTH] : "?",
			 systems[h->units].name);
		*bad_input = 1;
		goto fail;
	}
	if (set_units(h, info->units)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	fields_text(h->fields, have, sizeof(have));
	fields_text(info->fields | MD_F_X, want, sizeof(want));
	if (h->n != info->n || h->fields != (info->fields | MD_F_X)) {
		snprintf(err, errlen, "cannot append to %s: it holds %d particles with %s; this run writes %d with %s",
			 path, h->n, have, info->n, want);
		*bad_input = 1;
		goto fail;
	}
	buf = malloc(sizeof(double) * 3 * (size_t)h->n);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	k = last_complete(h, buf, &step, 0);
	h->why[0] = '\0';
	if (k >= 0 && step > after) {
		snprintf(err, errlen, "cannot append to %s: it has frames up to step %ld, after the restart step %ld (steps must increase; restart from its last frame or write a new file)",
			 path, step, after);
		*bad_input = 1;
		goto fail;
	}
	h->frames = k + 1;
	snprintf(name, sizeof(name), "config_from_step_%ld", after);
	if (set_frames(h, (hsize_t)h->frames) ||
	    (g = H5Gopen2(h->file, "parameters", H5P_DEFAULT)) < 0 ||
	    (H5Lexists(g, name, H5P_DEFAULT) > 0 && H5Ldelete(g, name, H5P_DEFAULT) < 0) ||
	    text_dataset(g, name, info->config_text ? info->config_text : "") ||
	    H5Fflush(h->file, H5F_SCOPE_LOCAL) < 0) {
		note(h);
		snprintf(err, errlen, "cannot prepare %s for appending: %s", path, h->why);
		goto fail;
	}
	close_id(&g);
	free(buf);
	cork(h, 1);
	*last_step = k >= 0 ? step : -1;
	return h;
fail:
	close_id(&g);
	free(buf);
	handle_free(h, NULL);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Restart reads in a child process.                                   */
/*
 * HDF5 1.10 trusts sizes and addresses stored in the file: a corrupt or
 * hostile file can make it read out of bounds and crash (found by
 * tests/fuzz/fuzz_restart.c: a SEGV in H5D__contig_read / H5VM_memcpyvv).
 * No check of ours can rule that out, so the restart file is read by a
 * forked child that sends the state back through a pipe; a child killed
 * by a signal becomes an input error. MDSIM_RESTART_IN_PROCESS=1 reads in
 * process (the fuzzer, which needs the coverage of the reading code).
 */
typedef struct rl_head {
	int rc, n, units;
	long step;
	double time, box[3];
	char err[1024];
} rl_head;

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t r = read(fd, p, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

static void child_read(int fd, const char *path, unsigned need)
{
	rl_head hd;
	md_state st;
	size_t n3;

	memset(&hd, 0, sizeof(hd));
	hd.rc = read_last_direct(path, need, &st, &hd.time, &hd.units, hd.err,
				 sizeof(hd.err));
	if (!hd.rc) {
		hd.n = st.n;
		hd.step = st.step;
		memcpy(hd.box, st.box, sizeof(hd.box));
	}
	n3 = 3 * (size_t)hd.n;
	if (write_all(fd, &hd, sizeof(hd)) ||
	    (!hd.rc && (write_all(fd, st.x, n3 * sizeof(double)) ||
			write_all(fd, st.v, n3 * sizeof(double)) ||
			write_all(fd, st.image, n3 * sizeof(int)) ||
			write_all(fd, st.type, (size_t)hd.n * sizeof(int)))))
		_exit(1);
	_exit(0);
}

/*
 * reader_deadline - seconds the restart reader may take: HDF5 can loop
 * forever on a corrupt file (the restart fuzzer found such files), so the
 * parent gives up after 60 s plus 1 s per 50 MB of file (a slow disk
 * reading a huge last frame), or MDSIM_RESTART_TIMEOUT seconds if set.
 */
static double reader_deadline(const char *path)
{
	const char *e = getenv("MDSIM_RESTART_TIMEOUT");
	struct stat sb;
	double t = e ? atof(e) : 0.0;

	if (t > 0.0)
		return t;
	return 60.0 + (stat(path, &sb) ? 0.0 : (double)sb.st_size / 50e6);
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/*
 * wait_readable - 1 when fd has data (or EOF) within `secs`, 0 when the
 * time ran out.
 */
static int wait_readable(int fd, double secs)
{
	double end = mono_now() + secs, left;
	struct pollfd p = { fd, POLLIN, 0 };

	while ((left = end - mono_now()) > 0.0) {
		int r = poll(&p, 1, left > 1000.0 ? 1000000 : (int)(left * 1000.0) + 1);

		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return 1;	/* let the read report it */
	}
	return 0;
}

int h5md_read_last(const char *path, unsigned need, md_state *st,
		   double *time, char *err, size_t errlen)
{
	int units;

	return h5md_read_last_units(path, need, st, time, &units, err, errlen);
}

int h5md_read_last_units(const char *path, unsigned need, md_state *st,
			 double *time, int *units, char *err, size_t errlen)
{
	const char *inproc = getenv("MDSIM_RESTART_IN_PROCESS");
	int fd[2], status = 0, rc, got = -1;
	double limit = reader_deadline(path);
	rl_head hd;
	pid_t pid;

	memset(st, 0, sizeof(*st));
	if (inproc && inproc[0] == '1')
		return read_last_direct(path, need, st, time, units, err, errlen);
	if (pipe(fd)) {
		snprintf(err, errlen, "cannot read %s: pipe: %s", path, strerror(errno));
		return MD_EXIT_IO;
	}
	fflush(NULL);	/* nothing buffered is written twice */
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot read %s: fork: %s", path, strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return MD_EXIT_IO;
	}
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };

		/* a crash leaves no core file in the user's directory */
		setrlimit(RLIMIT_CORE, &nocore);
#ifdef __linux__
		/* the reader ends with mdsim (a second SIGINT while it loops) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
		close(fd[0]);
		signal(SIGPIPE, SIG_DFL);
		child_read(fd[1], path, need);
	}
	close(fd[1]);
	rc = MD_EXIT_IO;
	memset(&hd, 0, sizeof(hd));
	if (!wait_readable(fd[0], limit)) {
		kill(pid, SIGKILL);
		close(fd[0]);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		snprintf(err, errlen, "%s is corrupt or unreadable: the HDF5 library did not finish reading it in %.0f s (MDSIM_RESTART_TIMEOUT sets the limit)",
			 path, limit);
		return MD_EXIT_INPUT;
	}
	if (read_all(fd[0], &hd, sizeof(hd)) == 0) {
		hd.err[sizeof(hd.err) - 1] = '\0';
		got = 0;
		rc = hd.rc;
		if (rc) {
			snprintf(err, errlen, "%s", hd.err);
		} else if (hd.n < 1 || md_state_alloc(st, hd.n)) {
			snprintf(err, errlen, "out of memory for %d particles", hd.n);
			rc = MD_EXIT_IO;
		} else if (read_all(fd[0], st->x, 3 * (size_t)hd.n * sizeof(double)) ||
			   read_all(fd[0], st->v, 3 * (size_t)hd.n * sizeof(double)) ||
			   read_all(fd[0], st->image, 3 * (size_t)hd.n * sizeof(int)) ||
			   read_all(fd[0], st->type, (size_t)hd.n * sizeof(int))) {
			got = -1;
			rc = MD_EXIT_IO;
		} else if (hd.units < 0 || hd.units >= H5MD_NUNITS) {
			snprintf(err, errlen, "cannot read %s: the reader process sent units %d",
				 path, hd.units);
			rc = MD_EXIT_IO;
		} else {
			st->step = hd.step;
			memcpy(st->box, hd.box, sizeof(st->box));
			*time = hd.time;
			*units = hd.units;
		}
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status) || (got < 0 && WIFEXITED(status) && WEXITSTATUS(status))) {
		/* killed by a signal, or (a sanitizer build) exited after one */
		if (WIFSIGNALED(status))
			snprintf(err, errlen, "%s is corrupt: the HDF5 library crashed reading it (signal %d in the reader process)",
				 path, WTERMSIG(status));
		else
			snprintf(err, errlen, "%s is corrupt: the HDF5 library crashed reading it (the reader process exited with %d)",
				 path, WEXITSTATUS(status));
		rc = MD_EXIT_INPUT;
	} else if (got < 0) {
		snprintf(err, errlen, "cannot read %s: the reader process ended early",
			 path);
		rc = MD_EXIT_IO;
	}
	if (rc)
		md_state_free(st);
	return rc;
}
