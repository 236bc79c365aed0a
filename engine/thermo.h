/*
 * thermo.h - derived thermodynamic quantities and the LAMMPS-style thermo
 * and summary output.
 *
 * T = 2 KE / dof (dof = 3N - 3), P = (2 KE + W) / (3 V): the kinetic part
 * uses the same dof as T, as LAMMPS does (so that P at step 0 of bench/in.lj
 * is -5.0197073). Energies in thermo lines are per particle.
 */
#ifndef MD_THERMO_H
#define MD_THERMO_H

#include <stdio.h>
#include "md.h"

typedef struct md_thermo_vals {
	double temp, epair, ekin, etot, press;	/* per particle energies */
} md_thermo_vals;

/*
 * md_thermo_configure - the run's potential for the tail corrections
 * (potential.tail); called once per run before any thermo output.
 */
void md_thermo_configure(const md_config *cfg);

/* md_thermo_derive - T, per-particle energies, P (with tail corrections). */
void md_thermo_derive(const md_thermo *th, int n, const double box[3],
		      md_thermo_vals *out);
void md_thermo_header(FILE *out);
void md_thermo_line(FILE *out, const md_thermo *th, int n,
		    const double box[3]);

/*
 * md_summary - the final block: loop time, Performance line, timing
 * breakdown and neighbour statistics (a warning on stderr after dangerous
 * builds).
 */
void md_summary(FILE *out, double loop_s, long steps, int n, double dt,
		const md_stats *s);

#endif
