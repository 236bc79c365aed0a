/*
 * h5md.h - H5MD 1.1 trajectory files: create, append frames, flush, close,
 * and read the last frame back for a restart. Only this module and its
 * test include <hdf5.h>; callers see an opaque handle.
 *
 * Layout (docs/h5md.md has the full tree):
 *   /h5md                      version = [1, 1]; author, creator, modules/units
 *   /particles/trajectory      box (dimension 3, boundary periodic x3,
 *                              edges [F][3][3]), position [F][N][3],
 *                              optional velocity, force, image; species [N],
 *                              mass [N]
 *   /observables/<name>        potential_energy, kinetic_energy,
 *                              total_energy (per particle), temperature,
 *                              pressure: value [F]
 *   /parameters                config (INI text), program, program_version;
 *                              units (the mapping to reduced units)
 * Every time-dependent element shares one `step` (int64) and one `time`
 * (double) dataset through hard links, as H5MD requires for image and box.
 *
 * Units (enum h5md_units, output.units): the engine's values are in
 * reduced LJ units and every frame, mass and observable handed to this
 * module is too; the file holds them either
 *   - H5MD_UNITS_LJ: as they are, with the reduced unit strings: length
 *     "sigma", time "tau", energy "epsilon", mass "m0", velocity
 *     "sigma tau-1", force "epsilon sigma-1", temperature "epsilon kB-1",
 *     pressure "epsilon sigma-3"; h5md/modules/units has system = "LJ".
 *     The attribute is the H5MD `unit` except on position, velocity and
 *     force `value` and on `time`, where it is called `reduced_unit`:
 *     MDAnalysis's H5MDReader (2.x) parses `unit` there and raises an
 *     error for any unit outside its own table, whatever convert_units
 *     says (read such files with convert_units=False);
 *   - H5MD_UNITS_ARGON: multiplied by the scale of their quantity, for
 *     argon (sigma = 3.405 Angstrom, epsilon/kB = 119.8 K, m = 39.948 u):
 *     "Angstrom", "ps", "kJ mol-1" (per particle: molar), "u",
 *     "Angstrom ps-1", "kJ mol-1 Angstrom-1", "K", "bar", all as `unit`;
 *     system = "SI". MDAnalysis opens such a file with no options.
 * Either way /parameters/units records the mapping: system = "lj" or
 * "argon" and, per quantity, the scale (value in the file = reduced value
 * x scale) and the unit string, so that readers (the restart among them)
 * go back to reduced units. Unit strings are variable-length strings:
 * h5py returns fixed-length ones as bytes, which MDAnalysis's unit table
 * does not match.
 *
 * Crash safety: files use HDF5 file format 2 (superblock v2, library
 * version bounds 1.8), whose readers do not refuse a file that a killed
 * writer left open (superblock v3, needed for SWMR, makes plain readers
 * fail with "file is already open for write"). Value datasets are chunked
 * one frame per chunk and bypass the chunk cache, so a frame's data reach
 * the file when it is appended and a flush writes metadata only; float
 * values have a NaN fill value, so a frame whose metadata a kill cut short
 * reads as NaN, never as plausible numbers, and readers skip it.
 *
 * Not thread-safe per handle: one thread uses a handle at a time.
 */
#ifndef MD_H5MD_H
#define MD_H5MD_H

#include <stddef.h>
#include "md.h"

typedef struct h5md_file h5md_file;

/* Units of a file; the order is that of output.units ("lj|argon"). */
enum h5md_units { H5MD_UNITS_LJ = 0, H5MD_UNITS_ARGON, H5MD_NUNITS };

/* Observables, sampled with every frame (index into h5md_frame.obs). */
enum { H5MD_OBS_PE = 0, H5MD_OBS_KE, H5MD_OBS_ETOT, H5MD_OBS_TEMP,
       H5MD_OBS_PRESS, H5MD_NOBS };

/* What a new file describes. Arrays are borrowed for the call only. */
typedef struct h5md_info {
	int n;			/* particles                               */
	unsigned fields;	/* MD_F_X (required) | MD_F_V | MD_F_F | MD_F_IMAGE */
	int compression;	/* shuffle + deflate the per-particle values */
	int units;		/* enum h5md_units of the file            */
	const int *species;	/* n species indices                       */
	double mass;		/* mass of every particle (reduced, m0)    */
	const double *type_mass;	/* or NULL; else mass of each species */
	const char *config_text; /* INI text of the run, "" allowed        */
	const char *creator_version;
} h5md_info;

/* One frame, in reduced units (the file's units are applied on writing).
 * Arrays hold 3n values interleaved x,y,z in particle order; those whose
 * field is not in the file's fields are not read. */
typedef struct h5md_frame {
	long step;
	double time;		/* tau                                     */
	double box[3];		/* cuboid edges, sigma                     */
	const double *x, *v, *f;
	const int *image;
	double obs[H5MD_NOBS];	/* energies per particle, T, P             */
} h5md_frame;

/* h5md_quiet - silence HDF5's own error stack printing in this thread
 * (the first call, before any other HDF5 call, also turns off HDF5's
 * exit-time clean-up: see h5md_flush). */
void h5md_quiet(void);

/*
 * h5md_create - create (truncate) path with the layout above and no frames.
 * Returns the handle, or NULL with a message in err (I/O failure).
 */
h5md_file *h5md_create(const char *path, const h5md_info *info, char *err,
		       size_t errlen);

/*
 * h5md_open_append - open an existing mdsim H5MD file to append frames
 * after step `after`. Trailing frames that a killed writer left incomplete
 * are cut off; *last_step gets the step of the last frame kept (-1: none).
 * The file must hold n particles, exactly the fields of info, be written
 * in info->units (its /parameters/units; a file without it is in lj
 * units) and have no complete frame after step `after` (steps must keep
 * increasing); else NULL with *bad_input = 1 and the file unchanged. The INI text of info is stored as
 * /parameters/config_from_step_<after>.
 * Returns the handle, or NULL with a message in err.
 */
h5md_file *h5md_open_append(const char *path, const h5md_info *info,
			    long after, long *last_step, int *bad_input,
			    char *err, size_t errlen);

/*
 * h5md_append - extend every time-dependent dataset by one frame and write
 * fr. Returns 0 or -1 with err set: a frame lacking data for a field of
 * the file is refused untouched; a write error (disk full, ...) breaks the
 * handle (see h5md_flush): the file keeps what the last flush wrote.
 */
int h5md_append(h5md_file *h, const h5md_frame *fr, char *err, size_t errlen);

/*
 * h5md_flush - what was appended goes to the file: H5Dflush of every
 * element's values, position last, then of time and step, then H5Fflush
 * (see flush_ordered in h5md.c).
 * 0 or -1. After a failure the handle is broken: HDF5 1.10 cannot be
 * trusted with that file any more ("slist already enabled?" on close, a
 * crash at exit), so nothing touches it again; it stays as the last
 * successful flush left it, with at most the frame of the failed flush
 * incomplete.
 */
int h5md_flush(h5md_file *h, char *err, size_t errlen);

/* h5md_frames - frames in the file (appended ones included). */
long h5md_frames(const h5md_file *h);

/*
 * h5md_close - flush and close; NULL is a no-op. Returns 0 or -1 (the
 * handle is freed either way; a broken one without touching the file).
 */
int h5md_close(h5md_file *h, char *err, size_t errlen);

/* h5md_units_name - "lj" or "argon" (the output.units value), "?" else. */
const char *h5md_units_name(int units);

/*
 * h5md_read_last - the last complete frame of path, for a restart:
 * allocates st (md_state_alloc) with positions, velocities, images,
 * species, box (diagonal of edges) and step; *time gets its time. Values
 * come back in reduced units whatever the file's units (detected from its
 * /parameters/units, not from any config): an argon file is divided by
 * its recorded scales, so its state equals the written one to round-off
 * (one multiplication and one division), an lj file bit for bit.
 * need: MD_F_* fields the restart requires (velocity and image).
 * The file is read by a forked child: a corrupt file that crashes HDF5
 * becomes an input error (see h5md.c).
 * Returns 0, or MD_EXIT_INPUT (not an H5MD trajectory, a field missing, no
 * complete frame, units that cannot be taken back to reduced ones) /
 * MD_EXIT_IO (read error) with a message in err.
 */
int h5md_read_last(const char *path, unsigned need, md_state *st,
		   double *time, char *err, size_t errlen);

/* h5md_read_last_units - h5md_read_last, and *units gets the file's
 * enum h5md_units (unchanged on failure). */
int h5md_read_last_units(const char *path, unsigned need, md_state *st,
			 double *time, int *units, char *err, size_t errlen);

#endif
