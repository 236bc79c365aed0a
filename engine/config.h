/*
 * config.h - reading, overriding and validating the INI configuration.
 *
 * Every key lives in one table in config.c (section, key, type, default,
 * range, unit, help); the README reference and `mdsim --help-config` are
 * printed from it. Every error names file:line, section and key and makes
 * the caller exit with MD_EXIT_INPUT.
 */
#ifndef MD_CONFIG_H
#define MD_CONFIG_H

#include <stdio.h>
#include "md.h"

/* cfg_defaults - fill cfg with the default of every key. */
void cfg_defaults(md_config *cfg);

/*
 * cfg_load - parse the INI file at path into cfg (on top of what is there).
 * Returns 0, or MD_EXIT_INPUT after printing one message per error to err.
 */
int cfg_load(md_config *cfg, const char *path, FILE *err);

/*
 * cfg_set - apply one "section.key=value" override (from --set).
 * Returns 0 or MD_EXIT_INPUT after printing the error to err.
 */
int cfg_set(md_config *cfg, const char *assignment, FILE *err);

/*
 * cfg_validate - required keys present, cross-key consistency (box large
 * enough for the cut-off, ...). Returns 0 or MD_EXIT_INPUT.
 */
int cfg_validate(md_config *cfg, FILE *err);

/* cfg_print_reference - the key reference (markdown table) to out. */
void cfg_print_reference(FILE *out);

/* cfg_box - box edges implied by the lattice keys. */
void cfg_box(const md_config *cfg, double box[3]);

/* cfg_write - the effective configuration as INI text (for output files). */
void cfg_write(const md_config *cfg, FILE *out);

#endif
