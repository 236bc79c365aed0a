/*
 * rebuild_phases.cuh - the phases of a neighbour-list rebuild as device
 * functions over a range of threads (t of nt) or warps (w of nw), so that
 * the same code runs as one kernel per phase (gpu_neighbor.cu, each launch
 * covering the whole range: the loops run once) and inside the persistent
 * step kernel (persist.cu, grid-stride with a grid barrier between phases).
 *
 * Sequence: bin (detect blow-ups, sub-cell index of the wrapped
 * position, rank in it) -> exclusive scan of the counts (chunks,
 * their totals, the add, which zeroes the counts for the next binning; a
 * forced rebuild zeroes them first; the persistent kernel still does at
 * each of its rebuilds, which is redundant: its removal was measured only
 * with the counts zeroed in the chunk scan, where 32,000 particles ran
 * slower without it, RESULTS twelfth session) -> scatter into sub-cell
 * order (cells in order, each cell's sub-cells in order; positions wrapped
 * into the box and images counted; the fixed-point positions xq, xq0
 * straight into place, the rest into the t arrays) ->
 * neighbour list (a group of warps per cell, list_build.cuh), each group
 * first copying its cells' particles back from the t arrays (with
 * s.xv_lazy their images and ids only: the fused step after the build
 * reads x and v from the t arrays, k_build_list) -> done.
 * Order within a sub-cell follows atomics, so GPU runs are reproducible to
 * round-off, not bit-for-bit.
 */
#ifndef MD_REBUILD_PHASES_CUH
#define MD_REBUILD_PHASES_CUH

#include "gpu_common.cuh"
#include "list_build.cuh"

/* Sub-cells: GPU_SUB per cell. */
static __host__ __device__ __forceinline__ int rb_nsub(const gpu_sys &s)
{
	return s.ncell * GPU_SUB;
}

static __device__ __forceinline__ void rb_zero_counts(const gpu_sys &s, int t, int nt)
{
	for (int c = t; c < rb_nsub(s); c += nt)
		s.cell_count[c] = 0;
}

/*
 * Coordinate p along axis d wrapped into the box, the images crossed
 * added to k; false (p unchanged) when it is not finite or more than a
 * box length outside. The binning and the scatter both call it on the
 * same p: the same bits.
 */
static __device__ __forceinline__ bool rb_wrap1(const gpu_sys &s, double &p, int &k, int d)
{
	double sh = floor(p * s.dibox[d]);

	if (!(fabs(sh) <= 1.0))	/* NaN or > one box outside */
		return false;
	p -= sh * s.dbox[d];
	if (p >= s.dbox[d]) {
		p -= s.dbox[d];
		sh += 1.0;
	}
	k += (int)sh;
	return true;
}

/*
 * neighbor.predict: the build position p of a particle at p (wrapped into
 * the box) with velocity v and dt/(2m) h, p + d with d = v pred_t + f 2h
 * pred_a (f: the force of its last step, gpu_f_unpack(v.w), so f 2h = a
 * dt; with neighbor.predict_accel, pred_a = t_a^2 / (2 dt): d = v t + a
 * t_a^2 / 2), d scaled down to s.pred_lim (0.95 skin/2) when longer,
 * wrapped into the box again. A build bins, sorts and lists the
 * particles by it, xq0 holds it, and the rebuild checks measure
 * displacements from it: whatever reads "the position at the last build"
 * reads this one. At the build every pair within rc is listed (each
 * particle is less than skin/2 from its build position, whatever d is),
 * and a particle moving along its path goes first towards its build
 * position and then away from it: the lists last longer at the same
 * length. The binning and the scatter compute it from the same bits.
 */
static __device__ __forceinline__ void rb_ref(const gpu_sys &s, double *p,
					      const double4_32a &v, double h)
{
	double d[3] = { v.x * s.pred_t, v.y * s.pred_t, v.z * s.pred_t };

	if (s.pred_a != 0.0) {
		const float3 f = gpu_f_unpack(v.w);
		const double k = 2.0 * h * s.pred_a;

		d[0] += f.x * k;
		d[1] += f.y * k;
		d[2] += f.z * k;
	}
	const double n2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
	const double k = n2 > s.pred_lim * s.pred_lim ? s.pred_lim / sqrt(n2) : 1.0;

	for (int a = 0; a < 3; a++) {
		p[a] += d[a] * k;
		if (p[a] < 0.0)
			p[a] += s.dbox[a];
		else if (p[a] >= s.dbox[a])
			p[a] -= s.dbox[a];
	}
}

/* The sub-cell of cell cc, octant half (gpu_cell_of's halves per axis). */
static __device__ __forceinline__ int rb_sub_index(const gpu_sys &s, const int *cc,
						  const int *half)
{
	return ((cc[2] * s.nc[1] + cc[1]) * s.nc[0] + cc[0]) * GPU_SUB +
	       half[0] + 2 * half[1] + 4 * half[2];
}

/*
 * The sub-cell c of position x, which it wraps into the box (im: the
 * images crossed, added), or with PRED of its build position with
 * velocity v (rb_ref); false when x is not finite or more than a box
 * length outside.
 */
template <bool PRED>
static __device__ __forceinline__ bool rb_sub_cell(const gpu_sys &s, double4_32a &x,
						   int4 &im, int &c,
						   const double4_32a &v)
{
	double p[3] = { x.x, x.y, x.z };
	int k[3] = { im.x, im.y, im.z }, cc[3], half[3];

	for (int d = 0; d < 3; d++) {
		if (!rb_wrap1(s, p[d], k[d], d))
			return false;
		/* the cell of the wrapped position, and which half of it */
		if (!PRED)
			cc[d] = gpu_cell_of(s, p[d], d, &half[d]);
	}
	x = make_double4_32a(p[0], p[1], p[2], x.w);
	im = make_int4(k[0], k[1], k[2], 0);
	if (PRED) {
		rb_ref(s, p, v, gpu_hdtm_x(s, x));
		for (int d = 0; d < 3; d++)
			cc[d] = gpu_cell_of(s, p[d], d, &half[d]);
	}
	c = rb_sub_index(s, cc, half);
	return true;
}

/* A blow-up of particle i: the status says which (the first one). */
static __device__ __forceinline__ void rb_blowup(const gpu_sys &s, int i)
{
	if (atomicExch(&s.st->blowup, 1) == 0)
		s.st->bad_index = i;
	s.st->halt = 1;
}

/*
 * The persistent kernel's binning of particle i: the wrapped position and
 * images stored, and a slot in its sub-cell. Returns false after a
 * blow-up. (Written out, not through rb_sub_cell(): that form took the
 * persistent kernel's spills from 40 to 56 bytes.)
 */
static __device__ __forceinline__ bool rb_bin_one(const gpu_sys &s, int i)
{
	double x[3];
	int im[3], cc[3], half[3], d;
	const double4_32a xi = s.x[i];
	const int4 ii = s.img[i];

	x[0] = xi.x; x[1] = xi.y; x[2] = xi.z;
	im[0] = ii.x; im[1] = ii.y; im[2] = ii.z;
	for (d = 0; d < 3; d++) {
		if (!rb_wrap1(s, x[d], im[d], d)) {
			rb_blowup(s, i);
			return false;
		}
		/* the cell of the wrapped position, and which half of it */
		cc[d] = gpu_cell_of(s, x[d], d, &half[d]);
	}
	s.x[i] = make_double4_32a(x[0], x[1], x[2], xi.w);
	s.img[i] = make_int4(im[0], im[1], im[2], 0);
	{
		const int c = rb_sub_index(s, cc, half);

		s.cell[i] = c;
		s.slot[i] = atomicAdd(&s.cell_count[c], 1);
	}
	return true;
}

/*
 * With check = false (rebuilds every s.every steps only): is this build
 * dangerous, some particle more than skin/2 from its position at the last
 * build (xq0, still in the old order)? Sets st->danger unless it is -1
 * (the set-up build: no xq0 yet); rb_built() counts it. Before rb_bin(),
 * on the same particles per thread (the wrap does not change gpu_xq()).
 * Not inlined: the persistent kernel measured 1.2% slower at 32,000
 * particles with the test inlined in the binning (fifteenth session).
 */
static __device__ __noinline__ void rb_danger(volatile gpu_status *st,
					      const double4_32a *x, const int4 *xq0,
					      int n, int t, int nt, double3 qs,
					      float3 qu, float lim2)
{
	if (st->danger != 0)
		return;
	for (int i = t; i < n; i += nt) {
		const float3 d = gpu_sep_qu(qu, gpu_xq_qs(qs, x[i]), xq0[i]);

		if (!(d.x * d.x + d.y * d.y + d.z * d.z <= lim2)) {
			st->danger = 1;
			return;
		}
	}
}

/*
 * The binning: particles t, t + nt, ... STORE (the persistent kernel):
 * the wrapped positions and images stored here, a particle at a time.
 * Else U particles a round, their loads and then their atomics in flight
 * together, and only the sub-cell and the slot stored: the scatter, which
 * reads and writes every particle anyway, wraps them (rb_scatter's WRAP).
 * The twentieth session (RESULTS): without the stores 1M k_bin 58 ->
 * 39.5 us; with U = 4 (one particle a thread had waited on its load and
 * its atomic in turn, in ~4 waves of resident threads) 25 us. The
 * persistent kernel spilled more with either change.
 */
template <bool STORE, int U = 1, bool PRED = false>
static __device__ __forceinline__ void rb_bin(const gpu_sys &s, int t, int nt)
{
	static_assert(!STORE || U == 1, "the persistent kernel's binning");
	static_assert(!STORE || !PRED, "the persistent kernel bins by x");
	/* arguments by value: a reference to s would put it on the stack */
	if (!s.check && s.every > 0)
		rb_danger(s.st, s.x, s.xq0, s.n, t, nt,
			  make_double3(s.qscale[0], s.qscale[1], s.qscale[2]),
			  make_float3(s.qunit[0], s.qunit[1], s.qunit[2]),
			  (float)s.skin_half2);
	if constexpr (STORE) {
		for (int i = t; i < s.n; i += nt)
			if (!rb_bin_one(s, i))
				return;
	} else {
		for (int i0 = t; i0 < s.n; i0 += U * nt) {
			double4_32a x[U], v[U];
			int c[U], slot[U];

#pragma unroll
			for (int u = 0; u < U; u++)
				if (i0 + u * nt < s.n) {
					x[u] = s.x[i0 + u * nt];
					v[u] = PRED ? s.v[i0 + u * nt] : x[u];
				}
#pragma unroll
			for (int u = 0; u < U; u++) {
				int4 im = make_int4(0, 0, 0, 0);

				c[u] = -1;
				if (i0 + u * nt < s.n &&
				    !rb_sub_cell<PRED>(s, x[u], im, c[u], v[u])) {
					rb_blowup(s, i0 + u * nt);
					return;
				}
			}
#pragma unroll
			for (int u = 0; u < U; u++)
				if (c[u] >= 0)
					slot[u] = atomicAdd(&s.cell_count[c[u]], 1);
#pragma unroll
			for (int u = 0; u < U; u++)
				if (c[u] >= 0) {
					s.cell[i0 + u * nt] = c[u];
					s.slot[i0 + u * nt] = slot[u];
				}
		}
	}
}

/*
 * Exclusive scan of in[0, count) into out (in == out allowed: each lane
 * reads its elements before writing them), one warp, 32 elements per pass
 * with the carry in a register; returns the total. No shared memory and
 * no block barrier: compute-sanitizer synccheck flagged the barrier of a
 * block-wide scan inside the conditional graph node. B: passes whose
 * loads are issued together (the stores of a pass keep the compiler from
 * moving the next pass's load above them: with B = 1 each pass waits for
 * its load; k_scan_blocks takes a chunk's 8 passes at once, 8M 18 -> 13
 * us, RESULTS twentieth session). The top scan keeps 1: with 8 it still
 * waited on each pass's shuffles (8M 48 us either way); the persistent
 * kernel, for its registers.
 */
template <int B = 1>
static __device__ __forceinline__ int warp_scan_excl(const int *in, int *out,
						     int count)
{
	const int lane = threadIdx.x & 31;
	int carry = 0;

	for (int base = 0; base < count; base += 32 * B) {
		int v[B];

#pragma unroll
		for (int p = 0; p < B; p++) {
			const int k = base + 32 * p + lane;

			v[p] = k < count ? in[k] : 0;
		}
#pragma unroll
		for (int p = 0; p < B; p++) {
			const int k = base + 32 * p + lane;
			const int incl = warp_scan_incl(v[p]);

			if (k < count)
				out[k] = carry + incl - v[p];
			carry += __shfl_sync(0xffffffffu, incl, 31);
		}
	}
	return carry;
}

/* Chunks of GPU_SCAN_CELLS sub-cells in the scan. */
static __host__ __device__ __forceinline__ int rb_scan_chunks(const gpu_sys &s)
{
	return (rb_nsub(s) + GPU_SCAN_CELLS - 1) / GPU_SCAN_CELLS;
}

/* Warp w of nw: scan of chunks w, w + nw, ..., each chunk's total saved. */
template <int B = 1>
static __device__ __forceinline__ void rb_scan_chunks_phase(const gpu_sys &s, int w, int nw)
{
	for (int b = w; b < rb_scan_chunks(s); b += nw) {
		const int c0 = b * GPU_SCAN_CELLS;
		int tot = warp_scan_excl<B>(s.cell_count + c0, s.sub_start + c0,
					    min(GPU_SCAN_CELLS, rb_nsub(s) - c0));

		if ((threadIdx.x & 31) == 0)
			s.block_sums[b] = tot;
	}
}

/* One warp: exclusive scan of the chunk totals in place. */
static __device__ __forceinline__ void rb_scan_top(const gpu_sys &s)
{
	warp_scan_excl(s.block_sums, s.block_sums, rb_scan_chunks(s));
}

/*
 * The chunk offsets added: sub_start, and cell_start from it. The counts,
 * read by now, are zeroed for the next binning (a forced rebuild zeroes
 * them first, rb_zero_counts), so that the step's rebuild needs no launch
 * for it (RESULTS, twelfth session).
 */
template <int U = 1>	/* U: sub-cells a round, their loads first */
static __device__ __forceinline__ void rb_scan_add(const gpu_sys &s, int t, int nt)
{
	for (int c0 = t; c0 < rb_nsub(s); c0 += U * nt) {
		int v[U];

#pragma unroll
		for (int u = 0; u < U; u++) {
			const int c = c0 + u * nt;

			v[u] = c < rb_nsub(s) ? s.sub_start[c] + s.block_sums[c / GPU_SCAN_CELLS] : 0;
		}
#pragma unroll
		for (int u = 0; u < U; u++) {
			const int c = c0 + u * nt;

			if (c < rb_nsub(s)) {
				s.cell_count[c] = 0;
				s.sub_start[c] = v[u];
				if (c % GPU_SUB == 0)
					s.cell_start[c / GPU_SUB] = v[u];
			}
		}
	}
	if (t == 0) {
		s.sub_start[rb_nsub(s)] = s.n;
		s.cell_start[s.ncell] = s.n;
	}
}

/*
 * The list build reads only xq (and the cell ranges): it goes to its
 * place here, so that the copy back of the rest (rb_copy_cell) can run
 * inside the list build instead of as a launch of its own between the two
 * (the sixteenth session: 1M ~58 us a rebuild, RESULTS).
 */
template <bool XC, bool WRAP, bool PRED = false>	/* XC false: no xc (the persistent
				 * kernel); WRAP: after rb_bin<false>; PRED: after
				 * rb_bin<false, U, true> (rb_ref) */
static __device__ __forceinline__ void rb_scatter(const gpu_sys &s, int t, int nt)
{
	for (int i = t; i < s.n; i += nt) {
		const int k = s.sub_start[s.cell[i]] + s.slot[i];
		double4_32a x = s.x[i];
		int4 im = s.img[i];

		if (WRAP) {	/* true: the binning checked it */
			rb_wrap1(s, x.x, im.x, 0);
			rb_wrap1(s, x.y, im.y, 1);
			rb_wrap1(s, x.z, im.z, 2);
		}
		const int4 q = gpu_xq(s, x);

		s.xq[k] = q;
		if (PRED) {	/* the build position */
			double p[3] = { x.x, x.y, x.z };

			rb_ref(s, p, s.v[i], gpu_hdtm_x(s, x));
			s.xq0[k] = gpu_xq(s, make_double4_32a(p[0], p[1], p[2], x.w));
		} else {
			s.xq0[k] = q;
		}
		if (XC && s.xc)
			s.xc[k] = gpu_xc(s, x);
		s.xt[k] = x;
		s.vt[k] = s.v[i];
		s.imgt[k] = im;
		s.idt[k] = s.id[i];
	}
}

/* The particles of cell c back from the t arrays (thread gt of nt); xv
 * false: their images and ids only (s.xv_lazy, k_build_list). */
static __device__ __forceinline__ void rb_copy_cell(const gpu_sys &s, int c, int gt, int nt,
						    bool xv = true)
{
	const int last = s.cell_start[c + 1];

	for (int i = s.cell_start[c] + gt; i < last; i += nt) {
		if (xv) {
			s.x[i] = s.xt[i];
			s.v[i] = s.vt[i];
		}
		s.img[i] = s.imgt[i];
		s.id[i] = s.idt[i];
	}
}

/*
 * Group g of ng (groups of GPU_LIST_WARPS warps, list_build.cuh): cells g,
 * g + ng, ...: their particles copied back (copy: after the scatter) and
 * their lists built (build; SMALL = s.small_box); gt: the thread's index
 * in its group, sm: the group's shared memory, bar: its barrier id. R:
 * particles per sweep; L16: 16-bit entries (s.list16); EVERY: every lane
 * stores (list_store); xv: the copy includes x and v (rb_copy_cell).
 */
template <int SMALL, int R = GPU_LIST_R, bool L16 = false, bool EVERY = false>
static __device__ __forceinline__ void rb_list(const gpu_sys &s, int g, int ng,
					       int gt, gpu_list_smem &sm, int bar,
					       bool copy, bool build, bool xv = true)
{
	for (int c = g; c < s.ncell; c += ng) {
		if (copy)
			rb_copy_cell(s, c, gt, GPU_LIST_WARPS * 32, xv);
		if (build)
			gpu_list_cell<SMALL, R, L16, EVERY>(s, c, sm, gt, bar);
	}
}

static __device__ __forceinline__ bool flag_set(const int *p)
{
	return *(const volatile int *)p != 0;
}

/*
 * A status flag for the whole block: thread 0 reads it (past L1, which is
 * not coherent within a kernel) and shares it. Every thread reading it
 * would put thousands of loads of one L2 line into each step. (The
 * persistent kernel and k_rebuild_coop, between their grid barriers.)
 */
static __device__ __forceinline__ bool block_flag(const int *p)
{
	__shared__ int v;

	__syncthreads();	/* the last value has been read */
	if (threadIdx.x == 0)
		v = flag_set(p);
	__syncthreads();
	return v != 0;
}

/* One thread, after the phases: a build was made. */
static __device__ __forceinline__ void rb_built(const gpu_sys &s)
{
	volatile gpu_status *st = s.st;

	if (st->danger > 0)
		st->dangerous++;
	st->danger = 0;
	s.st->since = 0;
	s.st->builds++;
}

/* The same, and the request served (the per-phase kernels' flag). */
static __device__ __forceinline__ void rb_done(const gpu_sys &s)
{
	s.st->rebuild = 0;
	rb_built(s);
}

/*
 * One thread, after a graph step's list build (k_build_list,
 * k_rebuild_coop): with s.xv_lazy x and v stay in the t arrays when the
 * particles were copied back (copied), and the fused step takes them
 * from there, or, halted, copies them back (st->xv_t); the request is
 * served, or after an overflow it stands.
 */
static __device__ __forceinline__ void rb_list_done(const gpu_sys &s, bool copied)
{
	s.st->xv_t = s.xv_lazy && copied;
	if (!((volatile gpu_status *)s.st)->halt)
		rb_done(s);
	else
		s.st->rebuild = 1;
}

/* One thread, in a graph step without a build: the fused step after the
 * last one has put x and v back in place (st->xv_t, rb_list_done). */
static __device__ __forceinline__ void rb_no_build(const gpu_sys &s)
{
	if (((volatile gpu_status *)s.st)->xv_t)
		s.st->xv_t = 0;
}

#endif
