/*
 * config.c - the key table and the INI reader (inih) of mdsim.
 *
 * Invariant: every key a user can write appears exactly once in cfg_keys[];
 * parsing, --set overrides, defaults, validation ranges and the README
 * reference all come from that table.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <ini.h>

enum cfg_type { T_DOUBLE, T_INT, T_LONG, T_U64, T_BOOL, T_ENUM, T_INT3, T_STR };

typedef struct cfg_key {
	const char *section, *key;
	enum cfg_type type;
	size_t off;
	const char *def;	/* default as text, NULL = required */
	double min, max;	/* inclusive range for numbers */
	const char *choices;	/* T_ENUM: "a|b|c", value = index (minus enum_base) */
	int enum_base;
	const char *unit, *help;
	size_t len;		/* T_STR: size of the char array */
} cfg_key;

#define OFF(f) offsetof(md_config, f)
#define STR(f) T_STR, OFF(f)
#define LEN(f) sizeof(((md_config *)0)->f)
#define BIG 1e300

/* "|global|shared|...": the enum string of backend.strategy, from the table */
#define MD_STRAT_ENUM_STR(name, desc, tune) "|" #name

static const cfg_key cfg_keys[] = {
	{ "system", "lattice", T_ENUM, OFF(lattice), "fcc", 0, 0, "fcc|xyz|random", 0, "",
	  "initial structure: fcc lattice (density, cells), an XYZ file (file) or random placement (density, particles, min_distance)", 0 },
	{ "system", "types", T_INT, OFF(ntypes), "1", 1, MD_MAX_TYPES, NULL, 0, "",
	  "number of particle types (mixtures: with fractions and the pair_* lists)", 0 },
	{ "system", "fractions", STR(fractions_text), "", 0, 0, NULL, 0, "",
	  "number fraction of each type, e.g. \"0.8 0.2\" (empty: one type); types are assigned by the seeded generator with exact counts",
	  LEN(fractions_text) },
	{ "system", "masses", STR(masses_text), "", 0, 0, NULL, 0, "m",
	  "mass of each type, e.g. \"1.0 2.0\" (empty: system.mass for every type)",
	  LEN(masses_text) },
	{ "system", "file", STR(structure_file), "", 0, 0, NULL, 0, "",
	  "lattice = xyz: extended XYZ (box in Lattice=\"...\") or plain \"Lx Ly Lz / N / type x y z [vx vy vz]\"; velocities, when given, are kept",
	  LEN(structure_file) },
	{ "system", "particles", T_LONG, OFF(particles), "0", 0, 2e9, NULL, 0, "",
	  "lattice = random: number of particles (cubic box from the density)", 0 },
	{ "system", "min_distance", T_DOUBLE, OFF(min_distance), "0.5", 0, 10, NULL, 0,
	  "sigma", "smallest allowed pair distance in an XYZ file or a random placement", 0 },
	{ "system", "density", T_DOUBLE, OFF(density), NULL, 1e-6, 5.0, NULL, 0,
	  "sigma^-3", "number density of the lattice", 0 },
	{ "system", "cells", T_INT3, OFF(cells), NULL, 1, 1000, NULL, 0, "",
	  "fcc unit cells along x y z (4 particles each)", 0 },
	{ "system", "temperature", T_DOUBLE, OFF(temperature), NULL, 0, 1e6, NULL, 0,
	  "eps/k_B", "start temperature (velocities scaled to it exactly)", 0 },
	{ "system", "seed", T_U64, OFF(seed), "12345", 0, 1.8e19, NULL, 0, "",
	  "seed of the counter-based velocity generator", 0 },
	{ "system", "mass", T_DOUBLE, OFF(mass), "1.0", 1e-6, 1e6, NULL, 0, "m",
	  "particle mass", 0 },
	{ "potential", "epsilon", T_DOUBLE, OFF(epsilon), "1.0", 1e-9, 1e6, NULL, 0,
	  "eps", "LJ well depth", 0 },
	{ "potential", "sigma", T_DOUBLE, OFF(sigma), "1.0", 1e-6, 1e3, NULL, 0,
	  "sigma", "LJ diameter", 0 },
	{ "potential", "cutoff", T_DOUBLE, OFF(cutoff), "2.5", 0.5, 100, NULL, 0,
	  "sigma", "cut-off radius rc", 0 },
	{ "potential", "pair_epsilon", STR(pair_text[0]), "", 0, 0, NULL, 0, "eps",
	  "per type pair, upper triangle row by row (2 types: \"AA AB BB\"); empty: epsilon for all pairs",
	  LEN(pair_text[0]) },
	{ "potential", "pair_sigma", STR(pair_text[1]), "", 0, 0, NULL, 0, "sigma",
	  "per type pair, as pair_epsilon; empty: sigma for all pairs", LEN(pair_text[1]) },
	{ "potential", "pair_cutoff", STR(pair_text[2]), "", 0, 0, NULL, 0, "sigma",
	  "per type pair, as pair_epsilon; empty: cutoff for all pairs (the neighbour list uses the largest)",
	  LEN(pair_text[2]) },
	{ "potential", "shift", T_ENUM, OFF(shift), "none", 0, 0,
	  "none|energy|force", 0, "",
	  "none: plain truncation (LAMMPS lj/cut); energy: V(rc) = 0; force: shifted force", 0 },
	{ "potential", "tail", T_BOOL, OFF(tail), "false", 0, 1, NULL, 0, "",
	  "add analytic tail corrections (uniform density beyond rc) to E_pair, TotEng and Press", 0 },
	{ "neighbor", "skin", T_DOUBLE, OFF(skin), "0.3", 0, 10, NULL, 0, "sigma",
	  "Verlet skin added to the cut-off", 0 },
	{ "neighbor", "every", T_INT, OFF(every), "0", 0, 1e9, NULL, 0, "steps",
	  "also rebuild every N steps (0: only when needed)", 0 },
	{ "neighbor", "check", T_BOOL, OFF(check), "true", 0, 1, NULL, 0, "",
	  "rebuild when a particle moved more than skin/2 since the last build (cuda NVE: when a pair near it may be missing); false: every `every` steps only, the summary counts dangerous builds", 0 },
	{ "neighbor", "predict", T_INT, OFF(predict), "8", 0, 1000, NULL, 0, "steps",
	  "cuda backend with check = true, not with the persistent kernel (backend.persistent on, or auto up to 180,000 particles): a build bins and lists each particle at its position this many steps ahead along its velocity (at most 0.95 skin/2 away), and the rebuild check measures from there, so that the lists last longer at the same length (1M LJ: 199 -> 149 builds in 3,000 steps); 0: at its position", 0 },
	{ "neighbor", "predict_accel", T_INT, OFF(predict_accel), "12", 0, 1000, NULL, 0, "steps",
	  "with neighbor.predict, after the register strategy's NVE steps: the build position also moves by a t^2 / 2, t this many steps and a the particle's acceleration at its last step (the same cap), so that it follows the particle's curving path (1M LJ: 162 -> 135 builds in 3,000 steps); 0: along the velocity only", 0 },
	{ "neighbor", "autotune_skin", T_BOOL, OFF(autotune_skin), "false", 0, 1, NULL,
	  0, "", "time neighbor.skin and the skins 0.2 to 0.8 in steps of 0.1 (up to the first past the fastest below 0.9 of its rate), each within 5% of the fastest grown to the largest skin with the same cell grid, then +-0.05 and +-0.025 around the fastest, each from the start state (each a set-up, up to 200 warm-up steps, then at least 200 steps and 0.3 s, stopped at 3 s: about 1 s at 1M particles, 13 s at 64M) and run with the fastest (printed)", 0 },
	{ "run", "steps", T_LONG, OFF(steps), NULL, 0, 1e15, NULL, 0, "steps",
	  "number of time steps", 0 },
	{ "run", "dt", T_DOUBLE, OFF(dt), "0.005", 1e-9, 1.0, NULL, 0, "tau",
	  "time step", 0 },
	{ "run", "ensemble", T_ENUM, OFF(ensemble), "nve", 0, 0,
	  "nve|langevin|nose-hoover", 0, "",
	  "nve, or NVT with a Langevin or a Nose-Hoover thermostat", 0 },
	{ "run", "temperature_end", T_DOUBLE, OFF(temperature_end), "-1", -1, 1e6,
	  NULL, 0, "eps/k_B",
	  "NVT: the target ramps linearly from system.temperature to this over the run (-1: no ramp)", 0 },
	{ "run", "gamma", T_DOUBLE, OFF(gamma), "1.0", 1e-6, 1e6, NULL, 0, "1/tau",
	  "Langevin friction coefficient", 0 },
	{ "run", "tau_t", T_DOUBLE, OFF(tau_t), "0.5", 1e-3, 1e6, NULL, 0, "tau",
	  "Nose-Hoover period (thermostat mass Q = dof T tau_t^2)", 0 },
	{ "run", "thermo_every", T_LONG, OFF(thermo_every), "100", 0, 1e15, NULL, 0,
	  "steps", "thermo line interval (0: first and last step only)", 0 },
	{ "run", "progress", T_ENUM, OFF(progress), "auto", 0, 0, "auto|off|on", -1,
	  "", "progress line with steps/s and ETA (auto: when stderr is a terminal)", 0 },
	{ "run", "max_temperature", T_DOUBLE, OFF(max_temperature), "0", 0, BIG,
	  NULL, 0, "eps/k_B", "stop with exit 3 when the temperature exceeds this "
	  "(checked after every chunk of steps; 0: no limit); non-finite energies always stop the run", 0 },
	{ "backend", "device", T_ENUM, OFF(device), "auto", 0, 0, "auto|cpu|cuda", 0,
	  "", "auto: the GPU when one is present, else the CPU", 0 },
	{ "backend", "strategy", T_ENUM, OFF(strategy), "auto", 0, 0,
	  "auto" MD_STRATEGY_TABLE(MD_STRAT_ENUM_STR), -1, "",
	  "GPU force strategy (auto: chosen by the autotuner)", 0 },
	{ "backend", "threads", T_INT, OFF(threads), "0", 0, 4096, NULL, 0, "",
	  "OpenMP threads of the CPU backend (0: OMP_NUM_THREADS or all cores)", 0 },
	{ "backend", "gpu_id", T_INT, OFF(gpu_id), "0", 0, 64, NULL, 0, "",
	  "CUDA device ordinal", 0 },
	{ "backend", "block_size", T_INT, OFF(block_size), "0", 0, 1024, NULL, 0, "",
	  "GPU threads per block (0: autotune)", 0 },
	{ "backend", "threads_per_particle", T_INT, OFF(threads_per_particle), "0",
	  0, 32, NULL, 0, "", "GPU lanes per particle, a power of two (0: autotune)", 0 },
	{ "backend", "hybrid_ratio", T_DOUBLE, OFF(hybrid_ratio), "0.8", 0, 1, NULL,
	  0, "", "hybrid strategy: fraction of particles on the shared-memory path", 0 },
	{ "backend", "autotune", T_BOOL, OFF(autotune), "true", 0, 1, NULL, 0, "",
	  "time the launch parameters at start-up", 0 },
	{ "backend", "persistent", T_ENUM, OFF(persistent), "auto", 0, 0, "auto|off|on", -1,
	  "", "NVE with the register strategy: run the steps between thermo outputs, rebuilds included, in one persistent GPU kernel (on; auto: up to 180,000 particles, where it measured faster; off: CUDA graphs)", 0 },
	{ "backend", "compact_positions", T_ENUM, OFF(compact), "auto", 0, 0, "auto|off|on", -1,
	  "", "register strategy: the force gathers read 8-byte positions (21 bits per axis, rounded by half a quantum: about 2e-6 sigma at rc 2.5 and skin 0.5 in a large box, up to 5e-6 in a small one; printed at start-up) instead of the 16-byte fixed-point ones (auto: from 200,000 particles, in the steps between thermo outputs, whose energies and pressures keep the exact positions; on: every force evaluation; off: never). Needs neighbor.check, at most two types, a box edge of at least 2.04 (rc + 2 skin) (more with the refined rebuild check) and the steps in graphs (backend.persistent off, or auto above 180,000 particles)", 0 },
	{ "output", "trajectory", STR(trajectory), "", 0, 0, NULL, 0, "",
	  "H5MD trajectory file (empty: none)", LEN(trajectory) },
	{ "output", "every", T_LONG, OFF(traj_every), "1000", 1, 1e15, NULL, 0,
	  "steps", "steps between trajectory frames", 0 },
	{ "output", "fields", STR(traj_fields), "position", 0, 0, NULL, 0, "",
	  "comma-separated: position, velocity, image, force", LEN(traj_fields) },
	{ "output", "compression", T_BOOL, OFF(compression), "false", 0, 1, NULL, 0,
	  "", "deflate-compress the frames", 0 },
	{ "output", "units", T_ENUM, OFF(traj_units), "lj", 0, 0, "lj|argon", 0, "",
	  "units of the trajectory file: lj (reduced, as computed) or argon (sigma = 3.405 Angstrom, epsilon/k_B = 119.8 K, m = 39.948 u: Angstrom, ps, kJ/mol, K, bar; MDAnalysis reads it without options)", 0 },
	{ "output", "flush_interval", T_DOUBLE, OFF(flush_interval), "10", 0, 1e9,
	  NULL, 0, "s", "flush after a frame once this long has passed since the last flush", 0 },
	{ "output", "overwrite", T_BOOL, OFF(overwrite), "false", 0, 1, NULL, 0, "",
	  "replace an existing trajectory file", 0 },
	{ "output", "append", T_BOOL, OFF(append), "false", 0, 1, NULL, 0, "",
	  "continue an existing trajectory file (with restart)", 0 },
	{ "output", "restart", STR(restart), "", 0, 0, NULL, 0, "",
	  "H5MD file whose last frame starts the run (empty: none)", LEN(restart) },
	{ "viz", "enabled", T_ENUM, OFF(viz), "off", 0, 0, "off|auto|on|offscreen",
	  0, "", "live window: auto opens one when a display is present", 0 },
	{ "viz", "width", T_INT, OFF(viz_width), "1024", 64, 16384, NULL, 0,
	  "pixels", "window width", 0 },
	{ "viz", "height", T_INT, OFF(viz_height), "768", 64, 16384, NULL, 0,
	  "pixels", "window height", 0 },
	{ "viz", "steps_per_frame", T_INT, OFF(steps_per_frame), "10", 1, 1e6, NULL,
	  0, "steps", "simulation steps between drawn frames", 0 },
	{ "viz", "max_particles", T_LONG, OFF(viz_max_particles), "1000000", 1000,
	  1e10, NULL, 0, "", "particle budget; larger systems are subsampled", 0 },
	{ "viz", "color", T_ENUM, OFF(viz_color), "type", 0, 0, "type|speed", 0, "",
	  "colour by particle type or by speed", 0 },
};
/* Names and descriptions of the force strategies, from the one table. */
const char *const md_strategy_names[MD_STRAT_COUNT] = {
#define NAME_ROW(name, desc, tune) #name,
	MD_STRATEGY_TABLE(NAME_ROW)
#undef NAME_ROW
};
const char *const md_strategy_descs[MD_STRAT_COUNT] = {
#define DESC_ROW(name, desc, tune) desc,
	MD_STRATEGY_TABLE(DESC_ROW)
#undef DESC_ROW
};
const int md_strategy_tune[MD_STRAT_COUNT] = {
#define TUNE_ROW(name, desc, tune) tune,
	MD_STRATEGY_TABLE(TUNE_ROW)
#undef TUNE_ROW
};

#define NKEYS ((int)(sizeof(cfg_keys) / sizeof(cfg_keys[0])))

static const char *const cfg_sections[] = {
	"system", "potential", "neighbor", "run", "backend", "output", "viz"
};

/* Compile-time check that given_line[] is large enough. */
typedef char cfg_keys_fit[(sizeof(cfg_keys) / sizeof(cfg_keys[0])) <=
			  sizeof(((md_config *)0)->given_line) /
			  sizeof(int) ? 1 : -1];

static int find_key(const char *section, const char *key)
{
	int i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(cfg_keys[i].section, section) &&
		    !strcmp(cfg_keys[i].key, key))
			return i;
	return -1;
}

static int known_section(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(cfg_sections) / sizeof(cfg_sections[0]); i++)
		if (!strcmp(cfg_sections[i], s))
			return 1;
	return 0;
}

/* Location prefix for messages: "file:line" or "--set". */
static void where(char *buf, size_t n, const char *file, int line)
{
	if (line > 0)
		snprintf(buf, n, "%s:%d", file, line);
	else
		snprintf(buf, n, "--set");
}

static int parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(*out))
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -1 : 0;
}

/* Integers: plain decimal digits (an optional sign), no fraction. */
static int parse_long(const char *s, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	if (end == s || errno == ERANGE)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? -1 : 0;
}

static int match_choice(const char *choices, const char *v)
{
	size_t len = strlen(v);
	const char *p = choices;
	int idx = 0;

	while (*p) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		if (n == len && !strncmp(p, v, n))
			return idx;
		idx++;
		p += n + (bar ? 1 : 0);
	}
	return -1;
}

static int range_err(FILE *err, const char *loc, const cfg_key *k,
		     const char *v)
{
	fprintf(err, "mdsim: %s: [%s] %s: value %s is out of range [%g, %g]\n",
		loc, k->section, k->key, v, k->min, k->max);
	return MD_EXIT_INPUT;
}

/* set_value - convert v for key k and store it in cfg. */
static int set_value(md_config *cfg, const cfg_key *k, const char *v,
		     const char *loc, FILE *err)
{
	char *base = (char *)cfg + k->off;
	double d;
	long long l;

	switch (k->type) {
	case T_DOUBLE:
		if (parse_double(v, &d)) {
			fprintf(err, "mdsim: %s: [%s] %s: expected a finite number in [%g, %g], got \"%s\"\n",
				loc, k->section, k->key, k->min, k->max, v);
			return MD_EXIT_INPUT;
		}
		if (d < k->min || d > k->max)
			return range_err(err, loc, k, v);
		*(double *)base = d;
		return 0;
	case T_U64: {
		char *end;
		unsigned long long u;
		const char *p = v;

		while (isspace((unsigned char)*p))
			p++;
		errno = 0;
		u = strtoull(p, &end, 10);
		while (isspace((unsigned char)*end))
			end++;
		if (*p == '-')
			return range_err(err, loc, k, v);
		if (*p == '+' || end == p || *end || errno == ERANGE) {
			fprintf(err, "mdsim: %s: [%s] %s: expected an integer in [0, 2^64), got \"%s\"\n",
				loc, k->section, k->key, v);
			return MD_EXIT_INPUT;
		}
		*(uint64_t *)base = (uint64_t)u;
		return 0;
	}
	case T_INT:
	case T_LONG:
		if (parse_long(v, &l)) {
			fprintf(err, "mdsim: %s: [%s] %s: expected an integer in [%g, %g], got \"%s\"\n",
				loc, k->section, k->key, k->min, k->max, v);
			return MD_EXIT_INPUT;
		}
		if ((double)l < k->min || (double)l > k->max)
			return range_err(err, loc, k, v);
		if (k->type == T_INT)
			*(int *)base = (int)l;
		else
			*(long *)base = (long)l;
		return 0;
	case T_BOOL:
		if (!strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "on") ||
		    !strcmp(v, "1"))
			*(int *)base = 1;
		else if (!strcmp(v, "false") || !strcmp(v, "no") ||
			 !strcmp(v, "off") || !strcmp(v, "0"))
			*(int *)base = 0;
		else {
			fprintf(err, "mdsim: %s: [%s] %s: expected true or false, got \"%s\"\n",
				loc, k->section, k->key, v);
			return MD_EXIT_INPUT;
		}
		return 0;
	case T_ENUM: {
		int idx = match_choice(k->choices, v);

		if (idx < 0) {
			fprintf(err, "mdsim: %s: [%s] %s: \"%s\" is not one of %s\n",
				loc, k->section, k->key, v, k->choices);
			return MD_EXIT_INPUT;
		}
		if (k->off == OFF(lattice))
			snprintf(cfg->lattice, sizeof(cfg->lattice), "%s", v);
		else
			*(int *)base = idx + k->enum_base;
		return 0;
	}
	case T_INT3: {
		int *a = (int *)base, i;
		const char *p = v;

		for (i = 0; i < 3; i++) {
			char *end;
			long x;

			errno = 0;
			x = strtol(p, &end, 10);
			if (end == p || errno == ERANGE ||
			    (*end && !isspace((unsigned char)*end))) {
				fprintf(err, "mdsim: %s: [%s] %s: expected three integers in [%g, %g], got \"%s\"\n",
					loc, k->section, k->key, k->min, k->max, v);
				return MD_EXIT_INPUT;
			}
			if (x < k->min || x > k->max)
				return range_err(err, loc, k, v);
			a[i] = (int)x;
			p = end;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p) {
			fprintf(err, "mdsim: %s: [%s] %s: expected three integers in [%g, %g], got \"%s\"\n",
				loc, k->section, k->key, k->min, k->max, v);
			return MD_EXIT_INPUT;
		}
		return 0;
	}
	case T_STR:
		if (strlen(v) >= k->len) {
			fprintf(err, "mdsim: %s: [%s] %s: value is longer than %zu characters\n",
				loc, k->section, k->key, k->len - 1);
			return MD_EXIT_INPUT;
		}
		memcpy(base, v, strlen(v) + 1);
		return 0;
	}
	return MD_EXIT_INPUT;
}

void cfg_defaults(md_config *cfg)
{
	int i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < NKEYS; i++)
		if (cfg_keys[i].def)
			set_value(cfg, &cfg_keys[i], cfg_keys[i].def, "default",
				  stderr);
}

/* Parse state shared by the line reader and the inih handler. */
typedef struct cfg_parse {
	md_config *cfg;
	FILE *fp, *err;
	const char *path;
	int line, errors;
	char *buf;		/* whole current line */
	size_t cap;
} cfg_parse;

/*
 * Line reader for ini_parse_stream: counts lines (inih gives the handler
 * no line number) and rejects lines longer than inih's buffer instead of
 * letting inih split them.
 */
static char *cfg_reader(char *str, int num, void *stream)
{
	cfg_parse *p = stream;
	ssize_t len = getline(&p->buf, &p->cap, p->fp);

	if (len < 0)
		return NULL;
	p->line++;
	if (memchr(p->buf, '\0', (size_t)len)) {	/* inih would cut it there */
		fprintf(p->err, "mdsim: %s:%d: line contains a NUL byte (not a text file?)\n",
			p->path, p->line);
		p->errors++;
		str[0] = '\n';
		str[1] = '\0';
		return str;
	}
	if (len > num - 3) {
		const char *eq = strchr(p->buf, '=');
		const char *k = p->buf;
		int klen;

		while (isspace((unsigned char)*k))
			k++;
		klen = eq ? (int)(eq - k) : 0;
		while (klen > 0 && isspace((unsigned char)k[klen - 1]))
			klen--;
		if (klen > 64)
			klen = 64;
		fprintf(p->err, "mdsim: %s:%d: %s%.*s%sline is %zd characters long; the limit is %d\n",
			p->path, p->line, klen ? "key " : "", klen, k,
			klen ? ": " : "", len, num - 3);
		p->errors++;
		str[0] = '\n';
		str[1] = '\0';
		return str;
	}
	memcpy(str, p->buf, (size_t)len + 1);
	return str;
}

static int cfg_handler(void *user, const char *section, const char *name,
		       const char *value)
{
	cfg_parse *p = user;
	char loc[600];
	int k;

	where(loc, sizeof(loc), p->path, p->line);
	if (!known_section(section)) {
		fprintf(p->err, "mdsim: %s: unknown section [%s] (key %s)\n", loc,
			section, name);
		p->errors++;
		return 1;
	}
	k = find_key(section, name);
	if (k < 0) {
		fprintf(p->err, "mdsim: %s: [%s] %s: unknown key\n", loc, section, name);
		p->errors++;
		return 1;
	}
	if (p->cfg->given_line[k] > 0) {
		fprintf(p->err, "mdsim: %s: [%s] %s: given twice (first on line %d)\n",
			loc, section, name, p->cfg->given_line[k]);
		p->errors++;
		return 1;
	}
	if (set_value(p->cfg, &cfg_keys[k], value, loc, p->err))
		p->errors++;
	else
		p->cfg->given_line[k] = p->line;
	return 1;
}

int cfg_load_stream(md_config *cfg, FILE *fp, const char *name, FILE *err)
{
	cfg_parse p;
	int rc;

	memset(&p, 0, sizeof(p));
	p.cfg = cfg;
	p.fp = fp;
	p.err = err;
	p.path = name;
	snprintf(cfg->path, sizeof(cfg->path), "%s", name);
	ini_allow_multiline = false;
	rc = ini_parse_stream(cfg_reader, &p, cfg_handler, &p);
	free(p.buf);
	if (ferror(fp)) {	/* getline failed: a directory, an I/O error */
		fprintf(err, "mdsim: %s:%d: cannot read: %s\n", name, p.line + 1,
			strerror(errno));
		return MD_EXIT_INPUT;
	}
	if (rc > 0 && !p.errors)	/* a syntax error inih found itself */
		fprintf(err, "mdsim: %s:%d: syntax error (expected [section] or key = value)\n",
			name, rc);
	if (rc != 0 || p.errors)
		return MD_EXIT_INPUT;
	return 0;
}

int cfg_load(md_config *cfg, const char *path, FILE *err)
{
	FILE *fp = fopen(path, "r");
	int rc;

	if (!fp) {
		snprintf(cfg->path, sizeof(cfg->path), "%s", path);
		fprintf(err, "mdsim: %s: cannot open: %s\n", path, strerror(errno));
		return MD_EXIT_INPUT;
	}
	rc = cfg_load_stream(cfg, fp, path, err);
	fclose(fp);
	return rc;
}

int cfg_set(md_config *cfg, const char *a, FILE *err)
{
	char sec[64], key[64];
	const char *dot = strchr(a, '.'), *eq = strchr(a, '=');
	int k;

	if (!dot || !eq || dot > eq || dot - a >= (long)sizeof(sec) ||
	    eq - dot - 1 >= (long)sizeof(key) || dot == a || eq == dot + 1) {
		fprintf(err, "mdsim: --set: expected section.key=value, got \"%s\"\n", a);
		return MD_EXIT_INPUT;
	}
	memcpy(sec, a, (size_t)(dot - a));
	sec[dot - a] = '\0';
	memcpy(key, dot + 1, (size_t)(eq - dot - 1));
	key[eq - dot - 1] = '\0';
	if (!known_section(sec)) {
		fprintf(err, "mdsim: --set: unknown section [%s] (key %s)\n", sec, key);
		return MD_EXIT_INPUT;
	}
	k = find_key(sec, key);
	if (k < 0) {
		fprintf(err, "mdsim: --set: [%s] %s: unknown key\n", sec, key);
		return MD_EXIT_INPUT;
	}
	if (set_value(cfg, &cfg_keys[k], eq + 1, "--set", err))
		return MD_EXIT_INPUT;
	cfg->given_line[k] = -1;
	return 0;
}

void cfg_box(const md_config *cfg, double box[3])
{
	double a = cbrt(4.0 / cfg->density);
	int d;

	for (d = 0; d < 3; d++)	/* random: a cube holding N at the density */
		box[d] = !strcmp(cfg->lattice, "random") ?
			 cbrt(cfg->particles / cfg->density) : a * cfg->cells[d];
}

/* cfg_key_where: see config.h. */
void cfg_key_where(const md_config *cfg, const char *section,
		   const char *key, char *buf, size_t n)
{
	int k = find_key(section, key), line = k < 0 ? 0 : cfg->given_line[k];

	if (line < 0)
		snprintf(buf, n, "--set");
	else if (line > 0)
		snprintf(buf, n, "%s:%d", cfg->path, line);
	else
		snprintf(buf, n, "%s", cfg->path);
}

double cfg_host_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	double kb = -1.0;

	if (!f)
		return -1.0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
			break;
	fclose(f);
	return kb > 0.0 ? kb * 1024.0 : -1.0;
}

long cfg_particles(const md_config *cfg)
{
	if (!strcmp(cfg->lattice, "xyz"))
		return -1;
	if (!strcmp(cfg->lattice, "random"))
		return cfg->particles;
	return 4L * cfg->cells[0] * cfg->cells[1] * cfg->cells[2];
}

double cfg_host_bytes(const md_config *cfg, int cpu)
{
	double n = cfg_particles(cfg) > 0 ? (double)cfg_particles(cfg) : 0.0;
	double rl = cfg->cutoff + cfg->skin;
	/* md_state: x, v, f, image, type */
	double per = 3 * 8 * 3 + 3 * 4 + 4;

	if (cfg->trajectory[0])	/* two frame buffers, every field */
		per += 2.0 * (3 * 8 * 3 + 3 * 4 + 4);
	if (cpu) {
		/* cpu_backend.c: 4-double particle arrays (x, v, f, x0, tmp,
		 * v2, f2), ints (images, ids, cells, ...), and the full list:
		 * 1.3 x the neighbours within rl, padded; 10% for ghosts */
		double nb = 1.3 * 4.18879020478639 * rl * rl * rl * cfg->density + 40.0;

		per += 1.1 * (7 * 32 + 2 * 12 + 9 * 4 + 4.0 * nb);
	} else {
		per += 3 * 8 * 3;	/* pinned download buffers */
	}
	return n * per;
}

int cfg_check_memory(const md_config *cfg, int cpu, FILE *err)
{
	double need = cfg_host_bytes(cfg, cpu), avail = cfg_host_available();
	char loc[600];

	if (avail < 0.0 || need <= avail)
		return 0;
	if (!strcmp(cfg->lattice, "fcc")) {
		cfg_key_where(cfg, "system", "cells", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [system] cells: %d x %d x %d cells (%.0f particles) need about %.3g GiB of host memory%s (an estimate), but only %.3g GiB are available; use fewer cells\n",
			loc, cfg->cells[0], cfg->cells[1], cfg->cells[2],
			4.0 * cfg->cells[0] * cfg->cells[1] * cfg->cells[2],
			need / 1073741824.0, cpu ? " on the CPU backend" : "",
			avail / 1073741824.0);
		return MD_EXIT_INPUT;
	}
	cfg_key_where(cfg, "system", "particles", loc, sizeof(loc));
	fprintf(err, "mdsim: %s: [system] particles: %ld particles need about %.3g GiB of host memory%s (an estimate), but only %.3g GiB are available; use fewer particles\n",
		loc, cfg_particles(cfg), need / 1073741824.0,
		cpu ? " on the CPU backend" : "", avail / 1073741824.0);
	return MD_EXIT_INPUT;
}

/*
 * Numbers of a list key into v (at most max); returns the count, or -1
 * after a message naming the key when a token is not a finite number.
 */
static int parse_list(md_config *cfg, const char *sec, const char *key,
		      const char *text, double *v, int max, FILE *err)
{
	const char *p = text;
	int k = 0;
	char loc[600];

	while (*p) {
		char *end;
		double d;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		errno = 0;
		d = strtod(p, &end);
		if (end == p || errno == ERANGE || !isfinite(d) ||
		    (*end && !isspace((unsigned char)*end)) || k >= max) {
			cfg_key_where(cfg, sec, key, loc, sizeof(loc));
			fprintf(err, "mdsim: %s: [%s] %s: expected at most %d numbers, got \"%s\"\n",
				loc, sec, key, max, text);
			return -1;
		}
		v[k++] = d;
		p = end;
	}
	return k;
}

/*
 * Types, fractions and the per-pair tables from the list keys; the
 * cut-off becomes the largest pair cut-off (neighbour lists use it).
 */
static int mixture_validate(md_config *cfg, FILE *err)
{
	static const char *names[3] = { "pair_epsilon", "pair_sigma", "pair_cutoff" };
	static const double lo[3] = { 1e-9, 1e-6, 0.5 }, hi[3] = { 1e6, 1e3, 100.0 };
	const double scalar[3] = { cfg->epsilon, cfg->sigma, cfg->cutoff };
	double (*tab[3])[MD_MAX_TYPES] = { cfg->pair_eps, cfg->pair_sigma, cfg->pair_rc };
	int nt = cfg->ntypes, npair = nt * (nt + 1) / 2, a, b, q, k, m;
	double v[MD_MAX_TYPES * MD_MAX_TYPES], sum = 0.0, rcmax = 0.0;
	char loc[600];

	m = parse_list(cfg, "system", "fractions", cfg->fractions_text, v, MD_MAX_TYPES, err);
	if (m < 0)
		return MD_EXIT_INPUT;
	if (m == 0 && nt == 1)
		v[m++] = 1.0;
	for (k = 0; k < m; k++)
		sum += v[k];
	if (m != nt || fabs(sum - 1.0) > 1e-9) {
		cfg_key_where(cfg, "system", "fractions", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [system] fractions: %d types need %d fractions >= 0 summing to 1, got \"%s\"\n",
			loc, nt, nt, cfg->fractions_text);
		return MD_EXIT_INPUT;
	}
	for (k = 0; k < nt; k++) {
		if (v[k] < 0.0) {
			cfg_key_where(cfg, "system", "fractions", loc, sizeof(loc));
			fprintf(err, "mdsim: %s: [system] fractions: %g is negative\n", loc, v[k]);
			return MD_EXIT_INPUT;
		}
		cfg->type_frac[k] = v[k];
	}
	m = parse_list(cfg, "system", "masses", cfg->masses_text, v, MD_MAX_TYPES, err);
	if (m < 0)
		return MD_EXIT_INPUT;
	if (m != 0 && m != nt) {
		cfg_key_where(cfg, "system", "masses", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [system] masses: %d types need %d masses, got \"%s\"\n",
			loc, nt, nt, cfg->masses_text);
		return MD_EXIT_INPUT;
	}
	for (k = 0; k < nt; k++) {
		cfg->type_mass[k] = m ? v[k] : cfg->mass;
		if (!(cfg->type_mass[k] >= 1e-6 && cfg->type_mass[k] <= 1e6)) {
			cfg_key_where(cfg, "system", "masses", loc, sizeof(loc));
			fprintf(err, "mdsim: %s: [system] masses: %g is out of range [1e-06, 1e+06]\n",
				loc, cfg->type_mass[k]);
			return MD_EXIT_INPUT;
		}
	}
	for (q = 0; q < 3; q++) {
		m = parse_list(cfg, "potential", names[q], cfg->pair_text[q], v,
			       MD_MAX_TYPES * MD_MAX_TYPES, err);
		if (m < 0)
			return MD_EXIT_INPUT;
		if (m != 0 && m != npair) {
			cfg_key_where(cfg, "potential", names[q], loc, sizeof(loc));
			fprintf(err, "mdsim: %s: [potential] %s: %d types need %d values (upper triangle: 11 12 .. 22 ..), got %d\n",
				loc, names[q], nt, npair, m);
			return MD_EXIT_INPUT;
		}
		for (a = 0, k = 0; a < nt; a++)
			for (b = a; b < nt; b++, k++) {
				double x = m ? v[k] : scalar[q];

				if (x < lo[q] || x > hi[q]) {
					cfg_key_where(cfg, "potential", names[q], loc, sizeof(loc));
					fprintf(err, "mdsim: %s: [potential] %s: value %g for pair %d-%d is out of range [%g, %g]\n",
						loc, names[q], x, a + 1, b + 1, lo[q], hi[q]);
					return MD_EXIT_INPUT;
				}
				tab[q][a][b] = tab[q][b][a] = x;
			}
	}
	for (a = 0; a < nt; a++)
		for (b = 0; b < nt; b++)
			rcmax = fmax(rcmax, cfg->pair_rc[a][b]);
	cfg->cutoff = rcmax;
	return 0;
}

/* Keys required only by some initial structures. */
static int lattice_exempt(const md_config *cfg, const cfg_key *k)
{
	if (!strcmp(cfg->lattice, "xyz"))
		return k->off == OFF(density) || k->off == OFF(cells);
	if (!strcmp(cfg->lattice, "random"))
		return k->off == OFF(cells);
	return 0;
}

int cfg_validate(md_config *cfg, FILE *err)
{
	double box[3];
	char loc[600];
	int i, bad = 0;

	for (i = 0; i < NKEYS; i++)
		if (!cfg_keys[i].def && !cfg->given_line[i] &&
		    !lattice_exempt(cfg, &cfg_keys[i])) {
			fprintf(err, "mdsim: %s: [%s] %s: required key is missing\n",
				cfg->path, cfg_keys[i].section, cfg_keys[i].key);
			bad = 1;
		}
	if (bad)
		return MD_EXIT_INPUT;
	cfg->hybrid_ratio_given = cfg->given_line[find_key("backend", "hybrid_ratio")] != 0;
	if (mixture_validate(cfg, err))
		return MD_EXIT_INPUT;
	if (!cfg->check && cfg->every == 0) {
		cfg_key_where(cfg, "neighbor", "check", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [neighbor] check: with check = false, every must be > 0 (the list would never be rebuilt)\n",
			loc);
		return MD_EXIT_INPUT;
	}
	if (!strcmp(cfg->lattice, "xyz") && !cfg->structure_file[0]) {
		cfg_key_where(cfg, "system", "lattice", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [system] file: lattice = xyz needs the structure file\n", loc);
		return MD_EXIT_INPUT;
	}
	if (!strcmp(cfg->lattice, "random") && cfg->particles < 2) {
		cfg_key_where(cfg, "system", "lattice", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [system] particles: lattice = random needs particles >= 2\n", loc);
		return MD_EXIT_INPUT;
	}
	cfg_box(cfg, box);
	for (i = 0; i < 3 && strcmp(cfg->lattice, "xyz"); i++)
		if (!(box[i] >= 2.0 * (cfg->cutoff + cfg->skin))) {
			cfg_key_where(cfg, "system", "cells", loc, sizeof(loc));
			fprintf(err, "mdsim: %s: [system] cells: box edge %c = %.4g is shorter than 2 x (cutoff + skin) = %.4g; use more cells\n",
				loc, "xyz"[i], box[i], 2.0 * (cfg->cutoff + cfg->skin));
			return MD_EXIT_INPUT;
		}
	if ((double)cfg->cells[0] * cfg->cells[1] * cfg->cells[2] * 4.0 > 2.0e9) {
		cfg_key_where(cfg, "system", "cells", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [system] cells: %d x %d x %d cells is more than 2e9 particles (the accepted maximum)\n",
			loc, cfg->cells[0], cfg->cells[1], cfg->cells[2]);
		return MD_EXIT_INPUT;
	}
	if (cfg->threads_per_particle &&
	    (cfg->threads_per_particle & (cfg->threads_per_particle - 1))) {
		cfg_key_where(cfg, "backend", "threads_per_particle", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [backend] threads_per_particle: %d is not a power of two (accepted: 0, 1, 2, 4, 8, 16, 32)\n",
			loc, cfg->threads_per_particle);
		return MD_EXIT_INPUT;
	}
	if (cfg->block_size && cfg->block_size % 32) {
		cfg_key_where(cfg, "backend", "block_size", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [backend] block_size: %d is not a multiple of 32 (accepted: 0 or 32, 64, ..., 1024)\n",
			loc, cfg->block_size);
		return MD_EXIT_INPUT;
	}
	if (cfg->max_temperature > 0.0 && !cfg->restart[0] &&
	    cfg->temperature > cfg->max_temperature) {
		cfg_key_where(cfg, "run", "max_temperature", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [run] max_temperature: %g is below the start temperature %g (accepted: 0 = no limit, or >= system.temperature)\n",
			loc, cfg->max_temperature, cfg->temperature);
		return MD_EXIT_INPUT;
	}
	if (cfg->append && !cfg->trajectory[0]) {
		cfg_key_where(cfg, "output", "append", loc, sizeof(loc));
		fprintf(err, "mdsim: %s: [output] append: append = true needs output.trajectory (the file to continue)\n",
			loc);
		return MD_EXIT_INPUT;
	}
	/* the host state is needed by every backend; the CPU backend's own
	 * arrays are checked here when it is asked for, else by the run once
	 * it falls back to the CPU (engine/sim.c) */
	return cfg_check_memory(cfg, cfg->device == MD_BACKEND_CPU, err);
}

static void value_text(const md_config *cfg, const cfg_key *k, char *buf,
		       size_t n)
{
	const char *base = (const char *)cfg + k->off;

	switch (k->type) {
	case T_DOUBLE: snprintf(buf, n, "%.17g", *(const double *)base); break;
	case T_INT: snprintf(buf, n, "%d", *(const int *)base); break;
	case T_LONG: snprintf(buf, n, "%ld", *(const long *)base); break;
	case T_U64: snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)base); break;
	case T_BOOL: snprintf(buf, n, "%s", *(const int *)base ? "true" : "false"); break;
	case T_INT3: {
		const int *a = (const int *)base;
		snprintf(buf, n, "%d %d %d", a[0], a[1], a[2]);
		break;
	}
	case T_ENUM: {
		int idx = k->off == OFF(lattice) ? match_choice(k->choices, cfg->lattice) :
			  *(const int *)base - k->enum_base;
		const char *p = k->choices;

		while (idx-- > 0 && strchr(p, '|'))
			p = strchr(p, '|') + 1;
		snprintf(buf, n, "%.*s", (int)strcspn(p, "|"), p);
		break;
	}
	case T_STR: snprintf(buf, n, "%s", base); break;
	}
}

void cfg_write(const md_config *cfg, FILE *out)
{
	const char *sec = "";
	char buf[128];
	int i;

	for (i = 0; i < NKEYS; i++) {
		if (strcmp(sec, cfg_keys[i].section)) {
			sec = cfg_keys[i].section;
			fprintf(out, "%s[%s]\n", i ? "\n" : "", sec);
		}
		value_text(cfg, &cfg_keys[i], buf, sizeof(buf));
		fprintf(out, "%s = %s\n", cfg_keys[i].key, buf);
	}
}

void cfg_print_reference(FILE *out)
{
	int i;

	fprintf(out, "| key | default | unit | meaning |\n| --- | --- | --- | --- |\n");
	for (i = 0; i < NKEYS; i++) {
		const cfg_key *k = &cfg_keys[i];

		fprintf(out, "| `%s.%s` | %s | %s | %s", k->section, k->key,
			k->def ? (*k->def ? k->def : "(empty)") : "**required**",
			k->unit, k->help);
		if (k->type == T_ENUM)
			fprintf(out, " (`%s`)", k->choices);
		else if (k->type != T_BOOL && k->type != T_STR)
			fprintf(out, "; range [%g, %g]", k->min, k->max);
		fprintf(out, " |\n");
	}
}
