/*
 * test_config.c - cfg_load, cfg_set and cfg_validate on temporary files:
 * a valid file, then every class of input error. Each error must make the
 * call return MD_EXIT_INPUT (2) and print a message that says where
 * (file:line, or --set) and which key.
 */
#include "testutil.h"

#include <dirent.h>
#include <stdint.h>
#include <unistd.h>

static char tmpdir[256];
static int nfile;

static void make_tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/mdsim_cfg_XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		exit(1);
	}
}

static void remove_tmpdir(void)
{
	DIR *dir = opendir(tmpdir);
	struct dirent *e;
	char p[600];

	while (dir && (e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", tmpdir, e->d_name);
		unlink(p);
	}
	if (dir)
		closedir(dir);
	rmdir(tmpdir);
}

/* Write text to a new file in tmpdir; its path goes to path. */
static void write_ini(char *path, size_t n, const char *text)
{
	FILE *f;

	snprintf(path, n, "%s/c%d.ini", tmpdir, nfile++);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* Messages of one call: an in-memory FILE, read back as a string. */
typedef struct capture {
	FILE *f;
	char *buf;
	size_t len;
} capture;

static void cap_open(capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->f);
}

static const char *cap_text(capture *c)
{
	fflush(c->f);
	return c->buf ? c->buf : "";
}

static void cap_close(capture *c)
{
	fclose(c->f);
	free(c->buf);
}

/* The required keys and a header that every valid file below starts with. */
#define REQ \
	"[system]\n"			/* 1 */ \
	"density = 0.8442\n"		/* 2 */ \
	"cells = 5 5 5\n"		/* 3 */ \
	"temperature = 1.44\n"		/* 4 */ \
	"[run]\n"			/* 5 */ \
	"steps = 100\n"			/* 6 */

/*
 * Write text to a file, load and validate it; expect rc 2 and a message
 * containing "<path>:<line>" (line > 0), or the path alone (line 0),
 * and every string of want[] (NULL-terminated).
 */
static void expect_error(const char *text, int line, const char *const want[])
{
	char path[400], loc[450];
	md_config cfg;
	capture c;
	int rc, i;

	write_ini(path, sizeof(path), text);
	cfg_defaults(&cfg);
	cap_open(&c);
	rc = cfg_load(&cfg, path, c.f);
	if (rc == 0)
		rc = cfg_validate(&cfg, c.f);
	ck_assert_msg(rc == MD_EXIT_INPUT, "rc %d for:\n%s", rc, text);
	if (line > 0)
		snprintf(loc, sizeof(loc), "%s:%d:", path, line);
	else
		snprintf(loc, sizeof(loc), "%s", path);
	ck_assert_msg(strstr(cap_text(&c), loc) != NULL,
		      "message does not say \"%s\": %s", loc, cap_text(&c));
	for (i = 0; want && want[i]; i++)
		ck_assert_msg(strstr(cap_text(&c), want[i]) != NULL,
			      "message does not contain \"%s\": %s", want[i],
			      cap_text(&c));
	cap_close(&c);
}

START_TEST(valid_file)
{
	char path[400];
	md_config cfg;
	capture c;

	write_ini(path, sizeof(path),
		  "; a comment\n"
		  "[system]\n"
		  "lattice = fcc\n"
		  "density = 0.8442\n"
		  "cells = 6 7 8\n"
		  "temperature = 1.44\n"
		  "seed = 87287\n"
		  "mass = 2.0\n"
		  "\n"
		  "[potential]\n"
		  "epsilon = 1.5\n"
		  "sigma = 1.1\n"
		  "cutoff = 2.75\n"
		  "shift = force\n"
		  "[neighbor]\n"
		  "skin = 0.4\n"
		  "every = 10\n"
		  "check = no\n"
		  "[run]\n"
		  "steps = 12345678901\n"
		  "dt = 0.002\n"
		  "thermo_every = 50\n"
		  "progress = off\n"
		  "[backend]\n"
		  "device = cpu\n"
		  "strategy = hybrid\n"
		  "hybrid_ratio = 0.25\n"
		  "[output]\n"
		  "trajectory = traj.h5\n"
		  "fields = position,velocity\n"
		  "[viz]\n"
		  "enabled = offscreen\n");
	cfg_defaults(&cfg);
	cap_open(&c);
	ck_assert_int_eq(cfg_load(&cfg, path, c.f), 0);
	ck_assert_int_eq(cfg_validate(&cfg, c.f), 0);
	ck_assert_str_eq(cap_text(&c), "");	/* nothing to say */
	cap_close(&c);
	ck_assert_str_eq(cfg.lattice, "fcc");
	ck_assert(cfg.density == 0.8442);	/* strtod of the same text */
	ck_assert(cfg.cells[0] == 6 && cfg.cells[1] == 7 && cfg.cells[2] == 8);
	ck_assert(cfg.temperature == 1.44 && cfg.mass == 2.0);
	ck_assert(cfg.seed == 87287u);
	ck_assert(cfg.epsilon == 1.5 && cfg.sigma == 1.1 && cfg.cutoff == 2.75);
	ck_assert_int_eq(cfg.shift, MD_SHIFT_FORCE);
	ck_assert(cfg.skin == 0.4 && cfg.every == 10 && cfg.check == 0);
	ck_assert(cfg.steps == 12345678901L && cfg.dt == 0.002 && cfg.thermo_every == 50);
	ck_assert_int_eq(cfg.progress, 0);
	ck_assert_int_eq(cfg.device, MD_BACKEND_CPU);
	ck_assert_int_eq(cfg.strategy, MD_STRAT_hybrid);
	ck_assert(cfg.hybrid_ratio == 0.25);
	ck_assert_str_eq(cfg.trajectory, "traj.h5");
	ck_assert_str_eq(cfg.traj_fields, "position,velocity");
	ck_assert_int_eq(cfg.viz, MD_VIZ_OFFSCREEN);
	/* untouched keys keep their documented defaults */
	ck_assert(cfg.traj_every == 1000 && cfg.autotune == 1);
}
END_TEST

START_TEST(defaults_and_required_only)
{
	char path[400];
	md_config cfg;

	write_ini(path, sizeof(path), REQ);
	cfg_defaults(&cfg);
	ck_assert_int_eq(cfg_load(&cfg, path, stderr), 0);
	ck_assert_int_eq(cfg_validate(&cfg, stderr), 0);
	/* DESIGN.md defaults: dt 0.005, rc 2.5, skin 0.3, plain cut-off */
	ck_assert(cfg.dt == 0.005 && cfg.cutoff == 2.5 && cfg.skin == 0.3);
	ck_assert(cfg.epsilon == 1.0 && cfg.sigma == 1.0 && cfg.mass == 1.0);
	ck_assert_int_eq(cfg.shift, MD_SHIFT_NONE);
	ck_assert_int_eq(cfg.check, 1);
}
END_TEST

START_TEST(unknown_section)
{
	const char *const w[] = { "sytem", "density", NULL };
	const char *const w2[] = { "mass", NULL };

	expect_error(REQ "[sytem]\n"		/* 7 */
		     "density = 0.8\n", 8, w);	/* 8 */
	/* a key before any section header */
	expect_error("mass = 1.0\n" REQ, 1, w2);
}
END_TEST

START_TEST(unknown_key)
{
	const char *const w[] = { "densty", "unknown key", NULL };
	const char *const w2[] = { "cutof", NULL };

	expect_error(REQ "[system]\n"		/* 7 */
		     "densty = 0.8\n", 8, w);	/* 8 */
	/* a key that exists, but in another section */
	expect_error(REQ "[potential]\ncutof = 2.5\n", 8, w2);
}
END_TEST

START_TEST(missing_required_key)
{
	static const char *const line[4] = {
		"density = 0.8442\n", "cells = 5 5 5\n", "temperature = 1.44\n",
		"steps = 100\n"
	};
	static const char *const key[4][2] = {
		{ "[system] density", NULL }, { "[system] cells", NULL },
		{ "[system] temperature", NULL }, { "[run] steps", NULL }
	};
	int miss, i;

	for (miss = 0; miss < 4; miss++) {
		char text[512] = "";

		for (i = 0; i < 4; i++) {
			if (i == 0)
				strcat(text, "[system]\n");
			if (i == 3)
				strcat(text, "[run]\n");
			if (i != miss)
				strcat(text, line[i]);
		}
		/* no line to point at: the message names the file and key */
		expect_error(text, 0, key[miss]);
	}
}
END_TEST

START_TEST(all_required_missing_all_reported)
{
	char path[400];
	md_config cfg;
	capture c;

	write_ini(path, sizeof(path), "[potential]\nshift = energy\n");
	cfg_defaults(&cfg);
	cap_open(&c);
	ck_assert_int_eq(cfg_load(&cfg, path, c.f), 0);
	ck_assert_int_eq(cfg_validate(&cfg, c.f), MD_EXIT_INPUT);
	ck_assert(strstr(cap_text(&c), "density") && strstr(cap_text(&c), "cells") &&
		  strstr(cap_text(&c), "temperature") && strstr(cap_text(&c), "steps"));
	cap_close(&c);
}
END_TEST

/*
 * A valid file with key = value in section: in place of the required
 * key's line when it is one (same line number), else appended as line 8.
 * *line gets the line number of the key.
 */
static void build(char *text, size_t n, const char *section, const char *key,
		  const char *value, int *line)
{
	static const char *const base[6][2] = {
		{ NULL, "system" }, { "density", "0.8442" }, { "cells", "5 5 5" },
		{ "temperature", "1.44" }, { NULL, "run" }, { "steps", "100" },
	};
	const char *sec = "";
	size_t len = 0;
	int i, found = 0;

	text[0] = '\0';
	for (i = 0; i < 6; i++) {
		if (!base[i][0]) {
			sec = base[i][1];
			len += snprintf(text + len, n - len, "[%s]\n", sec);
		} else if (!strcmp(sec, section) && !strcmp(base[i][0], key)) {
			len += snprintf(text + len, n - len, "%s = %s\n", key, value);
			*line = i + 1;
			found = 1;
		} else {
			len += snprintf(text + len, n - len, "%s = %s\n", base[i][0],
					base[i][1]);
		}
	}
	if (!found) {
		snprintf(text + len, n - len, "[%s]\n%s = %s\n", section, key, value);
		*line = 8;
	}
}

START_TEST(malformed_numbers)
{
	static const char *const bad[][3] = {	/* section, key, value */
		{ "system", "density", "0.8x" },
		{ "system", "density", "abc" },
		{ "system", "density", "" },
		{ "system", "density", "1e" },
		{ "system", "density", "nan" },
		{ "system", "density", "inf" },
		{ "system", "density", "0.8 0.9" },
		{ "system", "temperature", "1,44" },
		{ "system", "cells", "4 4" },
		{ "system", "cells", "4 4 4 4" },
		{ "system", "cells", "4.5 4 4" },
		{ "system", "cells", "a b c" },
		{ "system", "seed", "12ab" },
		{ "run", "steps", "10.5" },
		{ "run", "steps", "100x" },
		{ "run", "dt", "0.005s" },
		{ "potential", "cutoff", "2.5.1" },
		{ "neighbor", "every", "ten" },
		{ "neighbor", "check", "maybe" },
		{ "backend", "autotune", "2" },
	};
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		char text[600], quoted[64];
		const char *w[3] = { bad[k][1], NULL, NULL };
		int line;

		build(text, sizeof(text), bad[k][0], bad[k][1], bad[k][2], &line);
		if (*bad[k][2]) {	/* the offending text is quoted back */
			snprintf(quoted, sizeof(quoted), "\"%s\"", bad[k][2]);
			w[1] = quoted;
		}
		expect_error(text, line, w);
	}
}
END_TEST

START_TEST(out_of_range)
{
	static const char *const bad[][3] = {
		{ "system", "density", "10" },
		{ "system", "density", "0" },
		{ "system", "density", "-0.8442" },
		{ "system", "cells", "0 5 5" },
		{ "system", "cells", "5 5 1001" },
		{ "system", "temperature", "-1" },
		{ "run", "steps", "-5" },
		{ "potential", "cutoff", "0.1" },
		{ "potential", "epsilon", "0" },
		{ "potential", "sigma", "-1" },
		{ "neighbor", "skin", "-0.1" },
		{ "neighbor", "every", "-1" },
		{ "run", "dt", "2" },
		{ "run", "dt", "0" },
		{ "run", "thermo_every", "-5" },
		{ "system", "mass", "0" },
		{ "system", "seed", "-1" },
		{ "backend", "threads", "-1" },
		{ "backend", "hybrid_ratio", "1.5" },
		{ "viz", "width", "10" },
	};
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		char text[600];
		const char *const w[] = { bad[k][1], "out of range", NULL };
		int line;

		build(text, sizeof(text), bad[k][0], bad[k][1], bad[k][2], &line);
		expect_error(text, line, w);
	}
}
END_TEST

/*
 * The seed is documented as an unsigned 64-bit integer with range
 * [0, 1.8e19]; a value in that range must be accepted and stored exactly.
 */
START_TEST(seed_full_u64_range)
{
	char path[400];
	md_config cfg;
	capture c;
	int rc;

	write_ini(path, sizeof(path), REQ "[system]\n" "seed = 10000000000000000000\n");
	cfg_defaults(&cfg);
	cap_open(&c);
	/* written as two [system] sections: allowed, not a duplicate key */
	rc = cfg_load(&cfg, path, c.f);
	ck_assert_msg(rc == 0, "seed 1e19 (inside the documented range) rejected: %s",
		      cap_text(&c));
	ck_assert_msg(cfg.seed == UINT64_C(10000000000000000000), "seed %llu",
		      (unsigned long long)cfg.seed);
	cap_close(&c);
}
END_TEST

START_TEST(line_too_long)
{
	char text[1200], pad[400];
	const char *const w[] = { "long", NULL };

	memset(pad, 'x', 300);
	pad[300] = '\0';
	/* a 300-character comment on line 7 (inih's buffer holds 200) */
	snprintf(text, sizeof(text), REQ "; %s\n", pad);
	expect_error(text, 7, w);
	/* lines after a long line keep their numbers */
	{
		const char *const w2[] = { "densty", NULL };

		snprintf(text, sizeof(text), REQ "; %s\n[system]\ndensty = 1\n", pad);
		expect_error(text, 9, w2);
	}
}
END_TEST

/* A too-long key = value line: the message must also name the key. */
START_TEST(line_too_long_names_key)
{
	char text[1200], pad[400];
	const char *const w[] = { "trajectory", NULL };

	memset(pad, 'a', 250);
	pad[250] = '\0';
	snprintf(text, sizeof(text), REQ "[output]\ntrajectory = %s.h5\n", pad);
	expect_error(text, 8, w);
}
END_TEST

START_TEST(long_line_below_limit_ok)
{
	char text[1200], pad[400], path[400];
	md_config cfg;

	memset(pad, 'y', 150);	/* well below inih's 200 */
	pad[150] = '\0';
	snprintf(text, sizeof(text), REQ "; %s\n[output]\ntrajectory = %.120s.h5\n", pad, pad);
	write_ini(path, sizeof(path), text);
	cfg_defaults(&cfg);
	ck_assert_int_eq(cfg_load(&cfg, path, stderr), 0);
	ck_assert_int_eq((int)strlen(cfg.trajectory), 123);
}
END_TEST

START_TEST(duplicate_key)
{
	const char *const w[] = { "density", "line 2", NULL };
	const char *const w2[] = { "steps", "line 6", NULL };

	/* the second density, on line 8, repeats line 2 */
	expect_error(REQ "[system]\n" "density = 0.9\n", 8, w);
	/* a repeated key in a repeated section */
	expect_error(REQ "[system]\nmass = 1\n[run]\nsteps = 5\n", 10, w2);
}
END_TEST

START_TEST(bad_enum)
{
	static const char *const bad[][3] = {
		{ "[potential]\nshift = forces\n", "shift", "none|energy|force" },
		{ "[potential]\nshift = Force\n", "shift", "\"Force\"" },
		{ "[backend]\ndevice = gpu\n", "device", "auto|cpu|cuda" },
		{ "[backend]\nstrategy = fast\n", "strategy", "global" },
		{ "[viz]\ncolor = red\n", "color", "type|speed" },
		{ "[system]\nlattice = bcc\n", "lattice", "fcc" },
	};
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		char text[600];
		const char *const w[] = { bad[k][1], bad[k][2], NULL };

		snprintf(text, sizeof(text), "%s%s", REQ, bad[k][0]);
		expect_error(text, 8, w);
	}
}
END_TEST

START_TEST(syntax_error)
{
	const char *const w[] = { NULL };

	expect_error(REQ "this line is not ini\n", 7, w);
	expect_error(REQ "[system\n", 7, w);
}
END_TEST

START_TEST(several_errors_each_reported)
{
	char path[400], l8[450], l10[450];
	md_config cfg;
	capture c;

	write_ini(path, sizeof(path), REQ "[system]\nmass = x\n[run]\ndt = -1\n");
	cfg_defaults(&cfg);
	cap_open(&c);
	ck_assert_int_eq(cfg_load(&cfg, path, c.f), MD_EXIT_INPUT);
	snprintf(l8, sizeof(l8), "%s:8:", path);
	snprintf(l10, sizeof(l10), "%s:10:", path);
	ck_assert_msg(strstr(cap_text(&c), l8) && strstr(cap_text(&c), "mass"),
		      "%s", cap_text(&c));
	ck_assert_msg(strstr(cap_text(&c), l10) && strstr(cap_text(&c), "dt"),
		      "%s", cap_text(&c));
	cap_close(&c);
}
END_TEST

START_TEST(missing_file)
{
	md_config cfg;
	capture c;
	char path[400];

	snprintf(path, sizeof(path), "%s/does_not_exist.ini", tmpdir);
	cfg_defaults(&cfg);
	cap_open(&c);
	ck_assert_int_eq(cfg_load(&cfg, path, c.f), MD_EXIT_INPUT);
	ck_assert_msg(strstr(cap_text(&c), path) != NULL, "%s", cap_text(&c));
	cap_close(&c);
}
END_TEST

START_TEST(set_bad_syntax)
{
	static const char *const bad[] = {
		"system.density", "density=0.8", ".density=0.8", "system.=0.8",
		"=0.8", "", "system density=0.8", "system:density=1",
	};
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		md_config cfg;
		capture c;

		cfg_defaults(&cfg);
		cap_open(&c);
		ck_assert_msg(cfg_set(&cfg, bad[k], c.f) == MD_EXIT_INPUT,
			      "--set \"%s\" accepted", bad[k]);
		ck_assert_msg(strstr(cap_text(&c), "--set") != NULL, "%s", cap_text(&c));
		if (*bad[k])	/* the text the user typed is quoted back */
			ck_assert_msg(strstr(cap_text(&c), bad[k]) != NULL, "%s",
				      cap_text(&c));
		cap_close(&c);
	}
}
END_TEST

START_TEST(set_bad_key_or_value)
{
	static const char *const bad[][2] = {
		{ "system.densty=0.8", "densty" },
		{ "sytem.density=0.8", "sytem" },
		{ "system.density=0.8x", "density" },
		{ "system.density=50", "density" },
		{ "potential.shift=smooth", "shift" },
		{ "system.cells=4 4", "cells" },
	};
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		md_config cfg;
		capture c;

		cfg_defaults(&cfg);
		cap_open(&c);
		ck_assert_int_eq(cfg_set(&cfg, bad[k][0], c.f), MD_EXIT_INPUT);
		ck_assert_msg(strstr(cap_text(&c), "--set") &&
			      strstr(cap_text(&c), bad[k][1]), "%s", cap_text(&c));
		cap_close(&c);
	}
}
END_TEST

START_TEST(set_overrides_file)
{
	char path[400];
	md_config cfg;

	write_ini(path, sizeof(path), REQ "[potential]\nshift = energy\n[output]\ntrajectory = a.h5\n");
	cfg_defaults(&cfg);
	ck_assert_int_eq(cfg_load(&cfg, path, stderr), 0);
	ck_assert(cfg.density == 0.8442 && cfg.shift == MD_SHIFT_ENERGY);
	ck_assert_int_eq(cfg_set(&cfg, "system.density=0.9", stderr), 0);
	ck_assert_int_eq(cfg_set(&cfg, "system.cells=7 8 9", stderr), 0);
	ck_assert_int_eq(cfg_set(&cfg, "potential.shift=force", stderr), 0);
	ck_assert_int_eq(cfg_set(&cfg, "run.steps=42", stderr), 0);
	/* the value may contain '.' and '=' */
	ck_assert_int_eq(cfg_set(&cfg, "output.trajectory=run.1=b.h5", stderr), 0);
	/* a later --set of the same key wins (no duplicate error) */
	ck_assert_int_eq(cfg_set(&cfg, "run.steps=43", stderr), 0);
	ck_assert_int_eq(cfg_validate(&cfg, stderr), 0);
	ck_assert(cfg.density == 0.9);
	ck_assert(cfg.cells[0] == 7 && cfg.cells[1] == 8 && cfg.cells[2] == 9);
	ck_assert_int_eq(cfg.shift, MD_SHIFT_FORCE);
	ck_assert_int_eq(cfg.steps, 43);
	ck_assert_str_eq(cfg.trajectory, "run.1=b.h5");
}
END_TEST

START_TEST(set_supplies_required_key)
{
	char path[400];
	md_config cfg;

	write_ini(path, sizeof(path), "[system]\ndensity = 0.8442\ncells = 5 5 5\ntemperature = 1\n");
	cfg_defaults(&cfg);
	ck_assert_int_eq(cfg_load(&cfg, path, stderr), 0);
	ck_assert_int_eq(cfg_set(&cfg, "run.steps=10", stderr), 0);
	ck_assert_int_eq(cfg_validate(&cfg, stderr), 0);
	ck_assert_int_eq(cfg.steps, 10);
}
END_TEST

/*
 * Box edge = cells * (4 / density)^(1/3) must be >= 2 (cutoff + skin) for
 * the minimum image to see every pair once. At density 0.8442 the lattice
 * constant is 1.6796: 3 cells = 5.04 < 5.6 = 2 (2.5 + 0.3); 4 cells = 6.72.
 */
START_TEST(box_too_small)
{
	const char *const w[] = { "cells", NULL };
	const char *const wz[] = { "cells", "z", NULL };

	expect_error("[system]\ndensity = 0.8442\ncells = 3 3 3\ntemperature = 1\n[run]\nsteps = 1\n",
		     3, w);
	expect_error("[system]\ndensity = 0.8442\ncells = 4 4 3\ntemperature = 1\n[run]\nsteps = 1\n",
		     3, wz);
	/* rc 3.5: 2 (3.5 + 0.3) = 7.6 > 6.72 */
	expect_error("[system]\ndensity = 0.8442\ncells = 4 4 4\ntemperature = 1\n[run]\nsteps = 1\n"
		     "[potential]\ncutoff = 3.5\n", 3, w);
}
END_TEST

START_TEST(box_limit_follows_skin)
{
	char path[400];
	md_config cfg;
	capture c;

	write_ini(path, sizeof(path),
		  "[system]\ndensity = 0.8442\ncells = 4 4 4\ntemperature = 1\n[run]\nsteps = 1\n");
	cfg_defaults(&cfg);
	ck_assert_int_eq(cfg_load(&cfg, path, stderr), 0);
	ck_assert_int_eq(cfg_validate(&cfg, stderr), 0);	/* 6.72 >= 5.6 */
	/* skin 1.0: 2 (2.5 + 1.0) = 7.0 > 6.72 */
	ck_assert_int_eq(cfg_set(&cfg, "neighbor.skin=1.0", stderr), 0);
	cap_open(&c);
	ck_assert_int_eq(cfg_validate(&cfg, c.f), MD_EXIT_INPUT);
	ck_assert_msg(strstr(cap_text(&c), "cells"), "%s", cap_text(&c));
	cap_close(&c);
	/* skin 0.85: 2 (2.5 + 0.85) = 6.7 < 6.72: fits */
	ck_assert_int_eq(cfg_set(&cfg, "neighbor.skin=0.85", stderr), 0);
	ck_assert_int_eq(cfg_validate(&cfg, stderr), 0);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *ok = tcase_create("valid"), *bad = tcase_create("errors");
	TCase *set = tcase_create("set");

	/* one temporary directory for the whole run, made and removed by
	 * the parent process, so that failing tests leave nothing behind */
	tcase_add_unchecked_fixture(ok, make_tmpdir, NULL);
	tcase_add_unchecked_fixture(set, NULL, remove_tmpdir);
	tcase_add_test(ok, valid_file);
	tcase_add_test(ok, defaults_and_required_only);
	tcase_add_test(ok, long_line_below_limit_ok);
	tcase_add_test(ok, seed_full_u64_range);
	tcase_add_test(bad, unknown_section);
	tcase_add_test(bad, unknown_key);
	tcase_add_test(bad, missing_required_key);
	tcase_add_test(bad, all_required_missing_all_reported);
	tcase_add_test(bad, malformed_numbers);
	tcase_add_test(bad, out_of_range);
	tcase_add_test(bad, line_too_long);
	tcase_add_test(bad, line_too_long_names_key);
	tcase_add_test(bad, duplicate_key);
	tcase_add_test(bad, bad_enum);
	tcase_add_test(bad, syntax_error);
	tcase_add_test(bad, several_errors_each_reported);
	tcase_add_test(bad, missing_file);
	tcase_add_test(bad, box_too_small);
	tcase_add_test(bad, box_limit_follows_skin);
	tcase_add_test(set, set_bad_syntax);
	tcase_add_test(set, set_bad_key_or_value);
	tcase_add_test(set, set_overrides_file);
	tcase_add_test(set, set_supplies_required_key);
	suite_add_tcase(s, ok);
	suite_add_tcase(s, bad);
	suite_add_tcase(s, set);
	return s;
}

MD_TEST_MAIN(config_suite)
