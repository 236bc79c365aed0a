/*
 * md_rng.h - counter-based random numbers (Philox4x32-10, Salmon et al.,
 * SC'11), identical on the host and on the GPU: the numbers depend only on
 * (seed, particle index, stream, step), never on thread layout.
 */
#ifndef MD_RNG_H
#define MD_RNG_H

#include <stdint.h>
#include <math.h>
#include "md_physics.h"		/* MD_INLINE */

typedef struct md_u4 { uint32_t v[4]; } md_u4;

static MD_INLINE uint32_t md_mulhilo32(uint32_t a, uint32_t b, uint32_t *hi)
{
	uint64_t p = (uint64_t)a * (uint64_t)b;
	*hi = (uint32_t)(p >> 32);
	return (uint32_t)p;
}

/* md_philox - 10 rounds of Philox4x32 on counter ctr with a 64-bit key. */
static MD_INLINE md_u4 md_philox(md_u4 ctr, uint64_t key64)
{
	uint32_t k0 = (uint32_t)key64, k1 = (uint32_t)(key64 >> 32);
	int r;

	for (r = 0; r < 10; r++) {
		uint32_t hi0, hi1;
		uint32_t lo0 = md_mulhilo32(0xD2511F53u, ctr.v[0], &hi0);
		uint32_t lo1 = md_mulhilo32(0xCD9E8D57u, ctr.v[2], &hi1);
		md_u4 n;

		n.v[0] = hi1 ^ ctr.v[1] ^ k0;
		n.v[1] = lo1;
		n.v[2] = hi0 ^ ctr.v[3] ^ k1;
		n.v[3] = lo0;
		ctr = n;
		k0 += 0x9E3779B9u;
		k1 += 0xBB67AE85u;
	}
	return ctr;
}

/* md_u01 - uniform double in (0, 1] from 32 bits (never 0: safe for log). */
static MD_INLINE double md_u01(uint32_t u)
{
	return ((double)u + 1.0) * (1.0 / 4294967296.0);
}

/*
 * md_gauss4 - four standard normal numbers for (seed, a, b, c) by
 * Box-Muller on one Philox block. a is typically the particle index,
 * b a stream id, c the step.
 */
static MD_INLINE void md_gauss4(uint64_t seed, uint32_t a, uint32_t b,
				   uint32_t c, double g[4])
{
	md_u4 ctr = { { a, b, c, 0x6d647369u } };
	md_u4 r = md_philox(ctr, seed);
	const double twopi = 6.283185307179586;
	double r0 = sqrt(-2.0 * log(md_u01(r.v[0])));
	double r1 = sqrt(-2.0 * log(md_u01(r.v[2])));

	g[0] = r0 * cos(twopi * md_u01(r.v[1]));
	g[1] = r0 * sin(twopi * md_u01(r.v[1]));
	g[2] = r1 * cos(twopi * md_u01(r.v[3]));
	g[3] = r1 * sin(twopi * md_u01(r.v[3]));
}

#endif
