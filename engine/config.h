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
 * cfg_load_stream - cfg_load on an open stream (a file or a memory
 * buffer: the fuzz harness); name stands for the file in messages. The
 * stream is read to its end and left open. Returns 0 or MD_EXIT_INPUT.
 */
int cfg_load_stream(md_config *cfg, FILE *fp, const char *name, FILE *err);

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

/*
 * cfg_host_bytes - estimated host memory of a run of cfg: the particle
 * state and trajectory buffers, plus the CPU backend's arrays and
 * neighbour list when cpu is non-zero (else the GPU's host buffers).
 */
double cfg_host_bytes(const md_config *cfg, int cpu);

/*
 * cfg_check_memory - compare cfg_host_bytes with the available host memory
 * (MemAvailable of /proc/meminfo; no check when unknown) before anything
 * is allocated. Returns 0 or MD_EXIT_INPUT after a message naming
 * [system] cells, the estimate and what is available.
 */
int cfg_check_memory(const md_config *cfg, int cpu, FILE *err);

/* cfg_host_available - MemAvailable of /proc/meminfo in bytes, or -1. */
double cfg_host_available(void);

/* cfg_print_reference - the key reference (markdown table) to out. */
void cfg_print_reference(FILE *out);

/*
 * cfg_key_where - where section.key was given, for messages: "file:line",
 * "file" (a default) or "--set"; written into buf (n bytes).
 */
void cfg_key_where(const md_config *cfg, const char *section,
		   const char *key, char *buf, size_t n);

/* cfg_particles - particle count the [system] keys give (-1: from the file). */
long cfg_particles(const md_config *cfg);

/* cfg_box - box edges implied by the lattice keys. */
void cfg_box(const md_config *cfg, double box[3]);

/* cfg_write - the effective configuration as INI text (for output files). */
void cfg_write(const md_config *cfg, FILE *out);

#endif
