/*
 * xyz.h - particle structures as XYZ text: reading (extended XYZ with the
 * box in the comment line, or the plain "Lx Ly Lz / N / type x y z" form,
 * optional velocities) and writing (extended XYZ, round-trip exact).
 */
#ifndef MD_XYZ_H
#define MD_XYZ_H

#include <stdio.h>
#include "md.h"

/*
 * md_xyz_read - read path into st (allocated here, step 0, images 0).
 * Extended XYZ: line 1 the count N, line 2 a comment holding
 * Lattice="Lx 0 0 0 Ly 0 0 0 Lz" (orthorhombic), then N lines
 * "species x y z [vx vy vz]". Plain: line 1 "Lx Ly Lz", line 2 N, then N
 * lines "type x y z [vx vy vz]". Species are integers >= 0 or names
 * (numbered in order of appearance). Every particle must lie in [0, L)
 * and no two closer than min_dist (sigma). *has_v is set when every line
 * has velocities. Errors name the file and line; return MD_EXIT_INPUT.
 */
int md_xyz_read(const char *path, double min_dist, md_state *st, int *has_v,
		FILE *err);

/*
 * md_xyz_write - extended XYZ of st (positions wrapped, velocities) with
 * %.17g, so that reading it back gives identical doubles. 0 or MD_EXIT_IO.
 */
int md_xyz_write(const char *path, const md_state *st, FILE *err);

/*
 * md_min_distance_check - the first pair closer than dmin (minimum image):
 * returns 1 and sets *i, *j, *r, or 0 when there is none. Cell grid, O(N).
 */
int md_min_distance_check(const md_state *st, double dmin, int *i, int *j,
			  double *r);

#endif
