/*
 * main.c - the mdsim command line: options, config loading, exit codes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "sim.h"
#include "bench.h"
#include "viz_loop.h"

static void usage(FILE *out)
{
	fprintf(out,
"usage: mdsim CONFIG.ini [options]\n"
"\n"
"Run the Lennard-Jones simulation described by CONFIG.ini (see README.md for\n"
"every key) and print LAMMPS-style thermo lines and a performance summary.\n"
"\n"
"options:\n"
"  --steps N              run N steps (overrides run.steps)\n"
"  --backend B            auto | cpu | cuda (overrides backend.device)\n"
"  --strategy S           GPU force strategy (overrides backend.strategy)\n"
"  --set SECTION.KEY=VAL  override any config key (repeatable)\n"
"  --quiet                no thermo lines or progress, only the summary\n"
"  --restart FILE.h5md    continue from the last frame of an H5MD trajectory\n"
"                         (overrides output.restart; runs run.steps more steps)\n"
"  --force                replace an existing trajectory (output.overwrite)\n"
"  --bench                benchmark every force strategy on this system\n"
"                         (run.steps = minimum timed steps per strategy)\n"
"  --csv FILE             with --bench: also write the table as CSV\n"
"  --strategies A,B       with --bench: only these strategies\n"
"  --viz[=MODE]           live SDL2 window (viz.enabled; --viz alone is on):\n"
"                         on | auto (window when a display is present) |\n"
"                         offscreen (PNG frames, no display) | off\n"
"  --viz-race[=SECONDS]   start with a strategy race (default 2 s each): bar\n"
"                         chart of FPS and steps/s, table on stdout (implies --viz)\n"
"  --frames N             stop after N frames (offscreen: N PNG files; implies\n"
"                         --viz=offscreen without --viz)\n"
"  --frame-dir DIR        offscreen frames and screenshots (default frames/\n"
"                         offscreen, . in a window)\n"
"  --list-strategies      describe the GPU force strategies\n"
"  --help-config          print the config key reference\n"
"  --help                 this text\n"
"  --version              program version\n"
"\n"
"exit codes: 0 success, 2 bad input, 3 simulation failure, 4 I/O failure,\n"
"            130/143 stopped by SIGINT/SIGTERM (summary printed)\n"
"\n"
"window controls (--viz; docs/viz.md):\n");
	md_viz_usage(out);
}

static int list_strategies(void)
{
	int s;

	for (s = 0; s < MD_STRAT_COUNT; s++)
		printf("%-9s %s\n", md_strategy_names[s], md_strategy_descs[s]);
	return 0;
}

/* Turn an option into a --set assignment; 0 or MD_EXIT_INPUT. */
static int set_opt(md_config *cfg, const char *key, const char *val)
{
	char buf[600];

	snprintf(buf, sizeof(buf), "%s=%s", key, val ? val : "");
	return cfg_set(cfg, buf, stderr);
}

int main(int argc, char **argv)
{
	md_config cfg;
	md_sim sim;
	const char *path = NULL, *csv = NULL, *only = NULL;
	int i, rc, quiet = 0, bench = 0;
	md_viz_opts vo;
	char *end;

	/* informational options first, then the config, then overrides */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--version")) {
			printf("mdsim %s\n", MD_VERSION);
			return 0;
		}
		if (!strcmp(argv[i], "--list-strategies"))
			return list_strategies();
		if (!strcmp(argv[i], "--help-config")) {
			cfg_print_reference(stdout);
			return 0;
		}
	}
	cfg_defaults(&cfg);
	memset(&vo, 0, sizeof(vo));
	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-') {
			if (path) {
				fprintf(stderr, "mdsim: more than one config file (%s, %s)\n",
					path, argv[i]);
				return MD_EXIT_INPUT;
			}
			path = argv[i];
		} else if (!strcmp(argv[i], "--quiet")) {
			quiet = 1;
		} else if (!strcmp(argv[i], "--force")) {
			;	/* applied in the second pass */
		} else if (!strcmp(argv[i], "--bench")) {
			bench = 1;
		} else if (!strcmp(argv[i], "--viz") || !strncmp(argv[i], "--viz=", 6)) {
			;	/* applied in the second pass */
		} else if (!strcmp(argv[i], "--viz-race") || !strncmp(argv[i], "--viz-race=", 11)) {
			vo.race_s = argv[i][10] ? strtod(argv[i] + 11, &end) : 2.0;
			if (argv[i][10] && (*end || !(vo.race_s > 0.0 && vo.race_s <= 3600.0))) {
				fprintf(stderr, "mdsim: --viz-race=%s: seconds per strategy in (0, 3600] expected\n",
					argv[i] + 11);
				return MD_EXIT_INPUT;
			}
		} else if (!strcmp(argv[i], "--frames") || !strcmp(argv[i], "--frame-dir")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "mdsim: %s needs a value\n", argv[i]);
				return MD_EXIT_INPUT;
			}
			if (!strcmp(argv[i++], "--frames")) {
				vo.frames = strtol(argv[i], &end, 10);
				if (*end || vo.frames < 1) {
					fprintf(stderr, "mdsim: --frames %s: a positive number expected\n",
						argv[i]);
					return MD_EXIT_INPUT;
				}
			} else if (snprintf(vo.frame_dir, sizeof(vo.frame_dir), "%s", argv[i]) >=
				   (int)sizeof(vo.frame_dir) || !argv[i][0]) {
				fprintf(stderr, "mdsim: --frame-dir: empty or longer than %d characters\n",
					(int)sizeof(vo.frame_dir) - 1);
				return MD_EXIT_INPUT;
			}
		} else if (!strcmp(argv[i], "--csv") || !strcmp(argv[i], "--strategies")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "mdsim: %s needs a value\n", argv[i]);
				return MD_EXIT_INPUT;
			}
			if (!strcmp(argv[i], "--csv"))
				csv = argv[++i];
			else
				only = argv[++i];
		} else if (!strcmp(argv[i], "--steps") || !strcmp(argv[i], "--backend") ||
			   !strcmp(argv[i], "--strategy") || !strcmp(argv[i], "--set") ||
			   !strcmp(argv[i], "--restart")) {
			i++;	/* value checked in the second pass */
			if (i >= argc) {
				fprintf(stderr, "mdsim: %s needs a value\n", argv[i - 1]);
				return MD_EXIT_INPUT;
			}
		} else {
			fprintf(stderr, "mdsim: unknown option %s (see mdsim --help)\n",
				argv[i]);
			return MD_EXIT_INPUT;
		}
	}
	if (!path) {
		usage(stderr);
		return MD_EXIT_INPUT;
	}
	rc = cfg_load(&cfg, path, stderr);
	if (rc)
		return rc;
	for (i = 1; i < argc; i++) {
		rc = 0;
		if (!strcmp(argv[i], "--steps"))
			rc = set_opt(&cfg, "run.steps", argv[++i]);
		else if (!strcmp(argv[i], "--backend"))
			rc = set_opt(&cfg, "backend.device", argv[++i]);
		else if (!strcmp(argv[i], "--strategy"))
			rc = set_opt(&cfg, "backend.strategy", argv[++i]);
		else if (!strcmp(argv[i], "--set"))
			rc = cfg_set(&cfg, argv[++i], stderr);
		else if (!strcmp(argv[i], "--restart"))
			rc = set_opt(&cfg, "output.restart", argv[++i]);
		else if (!strcmp(argv[i], "--force"))
			rc = set_opt(&cfg, "output.overwrite", "true");
		else if (!strcmp(argv[i], "--viz") || !strncmp(argv[i], "--viz=", 6))
			rc = set_opt(&cfg, "viz.enabled", argv[i][5] ? argv[i] + 6 : "on");
		else if (!strcmp(argv[i], "--frames") || !strcmp(argv[i], "--frame-dir"))
			i++;	/* taken in the first pass */
		if (rc)
			return rc;
	}
	cfg.quiet = quiet;
	rc = cfg_validate(&cfg, stderr);
	if (rc)
		return rc;

	if (bench)
		return md_bench(&cfg, only, csv, stdout);
	/* race or frames without a view mode: a window, resp. offscreen PNGs */
	if (cfg.viz == MD_VIZ_OFF && (vo.race_s > 0.0 || vo.frames || vo.frame_dir[0]))
		cfg.viz = vo.frames || vo.frame_dir[0] ? MD_VIZ_OFFSCREEN : MD_VIZ_ON;
	md_install_signals();
	if (cfg.viz != MD_VIZ_OFF)
		return md_viz_main(&cfg, &vo, stdout);
	rc = md_sim_init(&sim, &cfg, stdout);
	if (!rc)
		rc = md_sim_run(&sim, stdout);
	md_sim_destroy(&sim);
	return rc;
}
