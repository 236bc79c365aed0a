/*
 * bench.h - `mdsim --bench`: every force strategy on the same system in
 * the same process; steps/s, atom-steps/s, ms/step per phase, modelled
 * memory bandwidth, speed-up over `global`; a table and optional CSV.
 */
#ifndef MD_BENCH_H
#define MD_BENCH_H

#include <stdio.h>
#include "md.h"

/*
 * md_bench - run the benchmark for cfg (run.steps = minimum timed steps
 * per strategy). only: comma list of strategies or NULL for all.
 * csv: file to write or NULL. Returns 0 or an MD_EXIT_* code.
 */
int md_bench(const md_config *cfg, const char *only, const char *csv,
	     FILE *out);

#endif
