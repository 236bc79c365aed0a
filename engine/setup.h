/*
 * setup.h - initial particle state: fcc lattice, Maxwell-Boltzmann
 * velocities from the counter-based generator, zero momentum, exact T.
 */
#ifndef MD_SETUP_H
#define MD_SETUP_H

#include <stdio.h>
#include "md.h"

/* md_state_alloc - allocate the arrays for n particles (zeroed); 0 or -1. */
int md_state_alloc(md_state *st, int n);
void md_state_free(md_state *st);

/* md_state_copy - dst: new arrays holding src's box, positions, velocities,
 * images, types and step (forces zero); 0 or -1 (out of memory). */
int md_state_copy(md_state *dst, const md_state *src);

/*
 * md_state_pin - page-lock (pin != 0) or release the allocated arrays of
 * st through the backend (be->ops->pin/unpin: CUDA host registration, so
 * that downloads into st are asynchronous copies; nothing on the CPU).
 * Release before md_state_free and before the backend is destroyed.
 */
void md_state_pin(md_backend *be, md_state *st, int pin);

/*
 * md_setup_lattice - fcc lattice with cfg->cells unit cells of edge
 * (4/density)^(1/3); allocates st. Returns 0 or MD_EXIT_INPUT/SIM.
 */
int md_setup_lattice(const md_config *cfg, md_state *st);

/*
 * md_setup_velocities - v_i ~ N(0, T/m) from Philox(seed, i), then net
 * momentum removed and scaled so that 2 KE / (3N - 3) = T exactly.
 */
void md_setup_velocities(const md_config *cfg, md_state *st);

/*
 * md_setup_initial - the initial state the [system] keys describe: fcc
 * lattice, XYZ file (velocities kept when the file has them) or random
 * placement; velocities drawn at system.temperature otherwise.
 * Returns 0 or an MD_EXIT_* code after a message naming the input.
 */
int md_setup_initial(const md_config *cfg, md_state *st, FILE *out);

/*
 * md_setup_types - types 0 .. ntypes-1 with exact counts round(f_a N)
 * (the last type takes the rest), placed by a seeded random permutation.
 */
void md_setup_types(const md_config *cfg, md_state *st);

/*
 * md_pair_coeff - epsilon, sigma and cut-off of type pair (a, b): the
 * pair tables of a validated config, or the scalar keys for one type.
 */
void md_pair_coeff(const md_config *cfg, int a, int b, double *eps,
		   double *sigma, double *rc);

/* md_type_mass - mass of a type (system.masses, else system.mass). */
double md_type_mass(const md_config *cfg, int type);

/* md_kinetic_cfg - 0.5 sum m_i v_i^2 with the masses of the types. */
double md_kinetic_cfg(const md_state *st, const md_config *cfg);


/* md_dof - degrees of freedom used for the temperature: 3N - 3. */
double md_dof(int n);

#endif
