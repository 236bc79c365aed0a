/*
 * sim.h - one simulation: configuration, host state, the chosen backend,
 * and the run loop with thermo output, progress line and signal handling.
 * The loop knows nothing about which backend runs.
 */
#ifndef MD_SIM_H
#define MD_SIM_H

#include <stdio.h>
#include "md.h"
#include "thermostat.h"

typedef struct md_sim {
	md_config cfg;
	md_state st;
	md_backend be;
	int backend_kind;	/* MD_BACKEND_CPU or MD_BACKEND_CUDA */
	long steps_done;
	double loop_s;
	md_thermo last;
	md_thermostat ts;	/* NVT; plain steps for NVE */
} md_sim;

/*
 * md_sim_init - set up the state from cfg and start the backend
 * (auto: CUDA when a GPU is usable, else CPU, said in one line on out).
 * Returns 0 or an MD_EXIT_* code; md_sim_destroy is safe afterwards.
 */
int md_sim_init(md_sim *sim, const md_config *cfg, FILE *out);

/*
 * md_sim_run - run cfg.steps steps with thermo output and, on a terminal,
 * a progress line; stops early (returning 130 or 143) on SIGINT/SIGTERM
 * after the current chunk of steps. Prints the summary.
 */
int md_sim_run(md_sim *sim, FILE *out);

void md_sim_destroy(md_sim *sim);

/*
 * md_skin_search - neighbor.autotune_skin's choice of skin (sim.c says
 * which skins it times, in which order): rate(ctx, c) runs a trial at
 * c->skin, c being cfg with the skin changed, and returns its steps/s
 * (< 0: the trial failed, minus an exit code). Skins that do not fit
 * box (twice cut-off + skin) are not tried, nor, where host_avail > 0,
 * skins above cfg->skin whose cfg_host_bytes(c, cpu) exceed it. out: a
 * line per trial and the choice (NULL: quiet). Returns the fastest skin,
 * or cfg->skin when no trial ran.
 */
typedef double (*md_skin_rate_fn)(void *ctx, const md_config *c);
double md_skin_search(const md_config *cfg, const double box[3], double host_avail,
		      int cpu, md_skin_rate_fn rate, void *ctx, FILE *out);

/* md_install_signals - SIGINT/SIGTERM request a clean stop. */
void md_install_signals(void);

/* md_stop_requested - the signal that asked for a clean stop, or 0 (for
 * loops other than md_sim_run, such as the viz loop). */
int md_stop_requested(void);

#endif
