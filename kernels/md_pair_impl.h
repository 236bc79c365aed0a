/*
 * md_pair_impl.h - body of the LJ pair function; included only by
 * md_physics.h, with MD_REAL, MD_SFX, MD_SQRT and MD_RCP defined (no include
 * guard on purpose).
 */

/* Coefficients of one type pair, precomputed by md_lj_coeff_init_d(). */
typedef struct MD_SFX(md_lj) {
	MD_REAL lj1, lj2;	/* 48 eps s^12, 24 eps s^6: force      */
	MD_REAL lj3, lj4;	/*  4 eps s^12,  4 eps s^6: energy     */
	MD_REAL rc2, rc;	/* squared cut-off, cut-off            */
	MD_REAL eshift;		/* V(rc) when shifted, else 0          */
	MD_REAL fc;		/* -V'(rc) when force-shifted, else 0  */
} MD_SFX(md_lj);

/*
 * md_lj_pair_fs - LJ interaction of one pair at squared distance r2.
 * Returns F/r (so that F_vec = r_vec * result, r_vec = r_i - r_j, and the
 * pair virial is r2 * result); stores the pair energy in *e. Both are 0 at
 * r2 >= rc2, and when live is 0 (a slot that holds no pair: r2 may then
 * be anything, 0 included). Written without branches on r2 so that it
 * vectorises on the CPU and does not diverge on the GPU: the results are
 * selected, not multiplied by a 0/1 factor, so that an infinite or NaN
 * value of a dead slot does not leak (and on the GPU the two tests are one
 * predicate, seventeenth session). fshift = 0 tells it that no pair is
 * force-shifted (c->fc == 0 for all), so that a caller with that constant
 * drops the test; md_lj_pair() passes 1.
 */
static MD_INLINE MD_REAL MD_SFX(md_lj_pair_fs)(MD_REAL r2,
						 const MD_SFX(md_lj) *c,
						 MD_REAL *e, int fshift,
						 int live)
{
	const int in = live & (r2 < c->rc2);
	MD_REAL ir2 = MD_RCP(r2);
	MD_REAL ir6 = ir2 * ir2 * ir2;
	MD_REAL fr = ir6 * (c->lj1 * ir6 - c->lj2) * ir2;
	MD_REAL en = ir6 * (c->lj3 * ir6 - c->lj4) - c->eshift;

	if (fshift && c->fc != (MD_REAL)0) {	/* same for all pairs of a type pair */
		MD_REAL ir = MD_SQRT(ir2);
		MD_REAL r = r2 * ir;
		fr -= c->fc * ir;
		en += c->fc * (r - c->rc);
	}
	*e = in ? en : (MD_REAL)0;
	return in ? fr : (MD_REAL)0;
}

/* md_lj_pair - md_lj_pair_fs() for any cut-off mode. */
static MD_INLINE MD_REAL MD_SFX(md_lj_pair)(MD_REAL r2,
					      const MD_SFX(md_lj) *c,
					      MD_REAL *e)
{
	return MD_SFX(md_lj_pair_fs)(r2, c, e, 1, 1);
}
