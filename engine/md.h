/*
 * md.h - core types shared by the engine and the backends: the run
 * configuration, the host copy of the particle state, thermo scalars,
 * timers and the backend table.
 *
 * Units are reduced LJ units throughout. Plain C99; included by CUDA
 * sources through kernels/gpu.h as extern "C".
 */
#ifndef MD_H
#define MD_H

#include <stddef.h>
#include <stdint.h>
#include "../kernels/md_physics.h"
#include "../kernels/strategies.h"

#define MD_VERSION "0.1.0"

/* Exit codes (also documented in --help and README). */
enum { MD_EXIT_OK = 0, MD_EXIT_INPUT = 2, MD_EXIT_SIM = 3, MD_EXIT_IO = 4 };

enum md_viz_mode { MD_VIZ_OFF = 0, MD_VIZ_AUTO, MD_VIZ_ON, MD_VIZ_OFFSCREEN };

enum md_ensemble { MD_ENS_NVE = 0, MD_ENS_LANGEVIN, MD_ENS_NOSE_HOOVER };

enum md_backend_kind { MD_BACKEND_AUTO = 0, MD_BACKEND_CPU, MD_BACKEND_CUDA };

/* Force strategies of the CUDA backend; the CPU backend ignores them. */
#define MD_STRAT_ENUM_ROW(name, desc, tune) MD_STRAT_##name,
enum md_strategy {
	MD_STRAT_AUTO = -1,
	MD_STRATEGY_TABLE(MD_STRAT_ENUM_ROW)
	MD_STRAT_COUNT
};
extern const char *const md_strategy_names[MD_STRAT_COUNT];
extern const char *const md_strategy_descs[MD_STRAT_COUNT];
extern const int md_strategy_tune[MD_STRAT_COUNT];	/* MD_TUNE_* flags */

/* The validated run configuration (see engine/config.c for every key). */
typedef struct md_config {
	/* [system] */
	char lattice[16];	/* "fcc", "xyz" or "random" */
	char structure_file[512];	/* lattice = xyz */
	long particles;		/* lattice = random */
	double min_distance;	/* sigma: XYZ check and random placement */
	double density;		/* number density, sigma^-3        */
	int cells[3];		/* fcc unit cells per direction    */
	double temperature;	/* start temperature, eps/k_B      */
	uint64_t seed;		/* velocity generator seed         */
	double mass;		/* particle mass, m                */
	int ntypes;		/* particle types (mixtures) */
	char fractions_text[128];	/* [system] fractions, as given */
	double type_frac[MD_MAX_TYPES];	/* number fraction of each type */
	char masses_text[128];	/* [system] masses, as given */
	double type_mass[MD_MAX_TYPES];	/* mass of each type (m) */
	/* [potential] */
	double epsilon, sigma, cutoff;	/* cutoff: the largest pair cut-off */
	char pair_text[3][160];	/* pair_epsilon, pair_sigma, pair_cutoff */
	/* per type pair (symmetric), from the pair_* lists or the scalars */
	double pair_eps[MD_MAX_TYPES][MD_MAX_TYPES];
	double pair_sigma[MD_MAX_TYPES][MD_MAX_TYPES];
	double pair_rc[MD_MAX_TYPES][MD_MAX_TYPES];
	int shift;		/* enum md_shift */
	int tail;		/* analytic tail corrections in thermo */
	/* [neighbor] */
	double skin;		/* sigma */
	int every;		/* force a rebuild every N steps (0: never) */
	int check;		/* rebuild when max displacement > skin/2
				 * (cuda NVE: refined, k_refine)       */
	int autotune_skin;	/* time candidate skins at start-up (sim.c) */
	int predict;		/* cuda: build positions this many steps
				 * ahead along v (gpu_backend.cu)      */
	int predict_accel;	/* ... plus a (this many steps)^2 / 2,
				 * a from the last kick (rb_ref)        */
	/* [run] */
	long steps;
	double dt;		/* tau */
	int ensemble;		/* enum md_ensemble */
	double temperature_end;	/* ramp target (< 0: system.temperature) */
	double gamma;		/* Langevin friction, 1/tau */
	double tau_t;		/* Nose-Hoover period, tau */
	long thermo_every;
	int progress;		/* -1 auto (terminal), 0 off, 1 on */
	double max_temperature;	/* stop (exit 3) above this; 0 = no limit */
	/* [backend] */
	int device;		/* enum md_viz_mode { MD_VIZ_OFF = 0, MD_VIZ_AUTO, MD_VIZ_ON, MD_VIZ_OFFSCREEN };

enum md_backend_kind */
	int strategy;		/* enum md_strategy */
	int threads;		/* OpenMP threads on the CPU, 0 = all */
	int gpu_id;
	int block_size;		/* 0 = autotune */
	int threads_per_particle; /* 0 = autotune */
	double hybrid_ratio;	/* fraction of cells on the shared path */
	int hybrid_ratio_given;	/* set by the user: the autotuner keeps it */
	int autotune;
	int persistent;		/* -1 auto, 0 off, 1 on: persistent NVE steps */
	int compact;		/* -1 auto, 0 off, 1 on: 8-byte positions in
				 * the register strategy's gathers */
	/* [output] */
	char trajectory[512];	/* H5MD file, "" = no trajectory */
	long traj_every;	/* steps between frames */
	char traj_fields[64];	/* comma list: position,velocity,image,force */
	int compression;	/* deflate frames */
	int traj_units;		/* output.units: 0 lj, 1 argon (enum h5md_units) */
	double flush_interval;	/* seconds; flush every frame or this, whichever is later */
	int overwrite;		/* replace an existing file */
	int append;		/* continue an existing trajectory (restart) */
	char restart[512];	/* H5MD file to restart from, "" = none */
	/* [viz] */
	int viz;		/* enum md_viz_mode */
	int viz_width, viz_height;
	int steps_per_frame;
	long viz_max_particles;	/* drawn particles above this are subsampled */
	int viz_color;		/* 0 type, 1 speed */
	/* bookkeeping: line where each table key was given (0: default,
	 * -1: --set), indexed like the key table in config.c */
	int given_line[64];
	/* command line only */
	int quiet;
	char path[512];		/* config file, for messages */
} md_config;

/*
 * Host copy of the particle state, in the original particle order.
 * Arrays of 3n are interleaved x,y,z. Positions are wrapped into
 * [0, box); image counts how many box lengths were removed.
 */
typedef struct md_state {
	int n;
	double box[3];
	double *x, *v, *f;
	int *image;
	int *type;
	long step;
} md_state;

/* Totals (not per particle) of the current state. */
typedef struct md_thermo {
	long step;
	double pe, ke, virial;	/* virial W = sum r_ij . F_ij */
} md_thermo;

/* Timer slots for the timing breakdown (CoMD style). */
enum md_timer { MD_T_PAIR = 0, MD_T_NEIGH, MD_T_INTEGRATE, MD_T_OUTPUT,
		MD_T_VIZ, MD_T_OTHER, MD_T_COUNT };

typedef struct md_stats {
	long builds;		/* neighbour list builds            */
	long dangerous;		/* of them, builds that neighbor.every
				 * made after a particle had moved more
				 * than skin/2 (only with check = false) */
	double avg_neighbors;	/* average full-list length, last build */
	double t[MD_T_COUNT];	/* seconds spent per timer slot     */
	int t_fractions;	/* t[] holds fractions of the loop time (GPU:
				 * sampled with events) instead of seconds */
	int t_fused;		/* the sampled steps integrate inside the
				 * force kernel: Integrate is in Pair  */
	double bytes_h2d, bytes_d2h; /* host<->device bytes (CUDA)  */
	long copies;
	char desc[256];		/* one line: device, strategy, launch params */
} md_stats;

/*
 * A velocity update between two steps (thermostats): for every particle
 * v <- scale * v + noise * g, g standard normal from
 * md_gauss4(seed, original index, stream, step): the same numbers whatever
 * the thread layout or particle order. noise = 0: plain scaling.
 */
typedef struct md_vupdate {
	double scale, noise;
	uint64_t seed;
	uint32_t stream;
	long step;
} md_vupdate;

/*
 * A Langevin thermostat run by the backend inside its steps (the optional
 * langevin op): step n (steps completed before it) is
 *   O(n, 2, T(n)) B A B O(n, 3, T(n + 1)),
 * O(n, stream, T) the md_vupdate with scale c, noise md_ou_noise(c, T,
 * mass), that seed, stream and step n; T(k) = md_ramp(t_start, t_end,
 * step0, nsteps, k). The numbers of md_thermostat_run's host loop.
 */
typedef struct md_langevin {
	double c;		/* exp(-gamma dt / 2) */
	double t_start, t_end;
	long step0, nsteps;
	double mass;		/* the noise is given for this mass */
	uint64_t seed;
} md_langevin;

/*
 * A Nose-Hoover thermostat run by the backend inside its steps (the
 * optional nose_hoover op): step n is NH(T(n)) B A B NH(T(n + 1)), NH the
 * half step md_nh_half (h = dt/2, Q = dof T tau^2) with the kinetic energy
 * 0.5 sum m_i v_i^2 (mass: of one-type systems; mixtures use their type
 * masses), T(k) = md_ramp(t_start, t_end, step0, nsteps, k).
 */
typedef struct md_nose_hoover {
	double t_start, t_end;
	long step0, nsteps;
	double tau, dof, dt, mass;
	double zeta, eta;	/* the thermostat's state */
} md_nose_hoover;

/* Fields for md_backend_ops.download. */
enum { MD_F_X = 1, MD_F_V = 2, MD_F_F = 4, MD_F_IMAGE = 8 };

typedef struct md_backend md_backend;

/*
 * A backend is this table plus its private context. Every function returns
 * 0 on success and an MD_EXIT_* code on failure, after printing a message.
 *   init:     take a copy of cfg and of the state (uploaded once); compute
 *             the forces of the initial positions.
 *   run:      advance nsteps velocity-Verlet steps (rebuilds included).
 *   thermo:   pe, ke, virial of the current state.
 *   download: copy the requested fields into st (original particle order).
 *   vupdate:  apply a md_vupdate to the velocities (thermostats).
 *   reset:    rebuild every neighbour structure from the current positions
 *             and recompute the forces, as init does: afterwards the run
 *             depends only on the state (positions, velocities, images,
 *             step). Called at trajectory frames so that a restart from a
 *             frame continues exactly (bit-for-bit on the CPU backend).
 *   stats:    neighbour statistics and timers.
 *   destroy:  free everything; safe on a partially initialised backend.
 *   download_start: download, but asynchronous where the backend can be
 *             (CUDA: the frame is copied on a copy stream while later
 *             steps run): st's buffers stay in use until
 *             download_wait(tag). tag < MD_DL_TAGS names the buffer set;
 *             one copy per tag in flight.
 *   download_wait: the copy started with tag has landed (callable from
 *             another thread, e.g. the trajectory writer).
 *   pin, unpin: page-lock (and release) host memory that downloads go to,
 *             so that the copies are truly asynchronous; no-ops on the CPU.
 *             A failed pin is not an error (the copy then goes through a
 *             staging buffer).
 *   langevin: optional (NULL: thermostat.c applies Langevin with vupdate
 *             between steps of one): from now on every step of run() is
 *             a Langevin step (md_langevin); NULL turns it off.
 *   nose_hoover: optional, likewise: load = 1: from now on every step of
 *             run() is a Nose-Hoover step (md_nose_hoover), starting from
 *             p->zeta and p->eta (p = NULL turns it off); load = 0:
 *             p->zeta and p->eta receive the current state.
 */
typedef struct md_backend_ops {
	const char *name;
	int (*init)(md_backend *b, const md_config *cfg, const md_state *st);
	int (*run)(md_backend *b, long nsteps);
	int (*thermo)(md_backend *b, md_thermo *th);
	int (*download)(md_backend *b, md_state *st, unsigned fields);
	int (*set_strategy)(md_backend *b, int strategy);
	int (*vupdate)(md_backend *b, const md_vupdate *u);
	int (*reset)(md_backend *b);
	void (*stats)(md_backend *b, md_stats *s);
	void (*destroy)(md_backend *b);
	int (*download_start)(md_backend *b, md_state *st, unsigned fields,
			      int tag);
	int (*download_wait)(md_backend *b, int tag);
	void (*pin)(md_backend *b, void *p, size_t bytes);
	void (*unpin)(md_backend *b, void *p);
	int (*langevin)(md_backend *b, const md_langevin *p);
	int (*nose_hoover)(md_backend *b, md_nose_hoover *p, int load);
} md_backend_ops;

/* Buffer sets that may have an asynchronous download in flight. */
#define MD_DL_TAGS 4

struct md_backend {
	const md_backend_ops *ops;
	void *ctx;
};

extern const md_backend_ops md_cpu_backend;

#endif
