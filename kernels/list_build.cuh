/*
 * list_build.cuh - the neighbour list of one cell, built by a group of
 * GPU_LIST_WARPS warps with the candidates on the lanes.
 *
 * The group stages the candidates of the cell's neighbourhood (the 27
 * cells around it, flattened in cell order: dz, dy, dx, then particle
 * order: the candidate's flat index) in shared memory, at most
 * GPU_LIST_CAP at a time (a batch); then each warp takes its share of the
 * cell's particles, up to R at a time, and sweeps the staged candidates 32
 * at a time, one per lane: the test, a ballot, and each hit stored as the
 * list entry of its rank among the hits (the hits of 32 candidates are
 * consecutive entries: one or two 32-byte sectors).
 *
 * An entry is the neighbour's index j, or (s.list16, the `staged`
 * strategy, force_staged.cu) its flat index as a 16-bit number: the force
 * kernel stages the same neighbourhood in the same order and reads the
 * position from shared memory.
 *
 * The earlier build (a lane per particle of the cell, the candidates
 * broadcast one by one) used 19 of 32 lanes at 1M particles and about 32
 * instructions per candidate and lane, and at 32,000 particles it had a
 * warp per cell doing 18,700 dependent instructions: 46 us, latency-bound
 * with 10 warps per SM (ncu, bench/RESULTS.md).
 *
 * Candidates are float positions relative to the cell's first particle
 * (the wrapped fixed-point difference, converted once when staged), with
 * the index j in w: they lie less than 2 cell edges from it (at a build
 * every particle is in its cell), so with 4 or more cells per edge their
 * integer differences do not wrap and the float difference is the minimum
 * image; SMALL (s.small_box: fewer along some edge) adds the float minimum
 * image. The test is r^2 < rlist^2 (1 + 1e-5) in float: a superset of the
 * pairs within rlist despite the float rounding (~3e-7 of the
 * coordinates), so the list is the CPU's plus pairs within 1.4e-5 of
 * rlist (tests/gpu_backend.c allows 1e-4); the force kernels test rc.
 */
#ifndef MD_LIST_BUILD_CUH
#define MD_LIST_BUILD_CUH

#include <type_traits>
#include "gpu_common.cuh"

#define GPU_LIST_WARPS 4	/* warps of a group (one cell at a time) */
#define GPU_LIST_CAP 1024	/* staged candidates per batch (a multiple of 32) */
/*
 * Particles per warp and sweep (at most 4): each staged candidate is read
 * once for R particles. Measured at 1M, skin 0.57 (RESULTS, eighth
 * session): a list build 1.16 ms with R = 1, 1.09 ms with 4 (hits stored
 * at once); 1.33 ms with 4 and the hits gathered in shared memory first
 * (fewer instructions per candidate, 72 registers: 7 blocks per SM).
 */
#define GPU_LIST_R 4

/* Shared memory of one group. */
typedef struct gpu_list_smem {
	float4 cand[GPU_LIST_CAP];	/* relative position, w: j (int bits) */
	int js[32];			/* neighbour cell k: first particle */
	int pre[33];			/* flat index of its first candidate */
} gpu_list_smem;

/*
 * Barrier of the group's threads (barrier id `bar`, 1..15: 0 is
 * __syncthreads'). barrier.sync, not bar.sync (= barrier.sync.aligned,
 * which requires every warp to arrive converged): compute-sanitizer
 * synccheck reported "divergent thread(s) in warp" at the aligned form
 * in list builds launched from the step graphs' conditional nodes.
 */
static __device__ __forceinline__ void list_group_sync(int bar)
{
	asm volatile("barrier.sync %0, %1;" ::"r"(bar), "r"(GPU_LIST_WARPS * 32)
		     : "memory");
}

/*
 * The neighbourhood of cell c, by one warp (the caller's first; lane 0 ..
 * 31): js[k], the first particle of stencil cell k, and pre[k], the flat
 * index of its first candidate (pre[ncj]: their number). Returns ncj.
 * The list build and the staged force kernel share it: the flat index is
 * the entry of a 16-bit list.
 */
static __device__ __forceinline__ int gpu_hood_ranges(const gpu_sys &s, int c,
						      int lane, bool writer,
						      int *js, int *pre)
{
	int cj = 0;
	const int ncj = gpu_stencil(s, c, lane, &cj);

	if (writer) {
		int j0 = 0, cnt = 0, incl;

		if (lane < ncj) {
			j0 = s.cell_start[cj];
			cnt = s.cell_start[cj + 1] - j0;
		}
		incl = warp_scan_incl(cnt);
		js[lane] = j0;
		pre[lane + 1] = incl;
		if (lane == 0)
			pre[0] = 0;
	}
	return ncj;
}

/*
 * Stage the flat candidates [b0, b0 + nb) of a neighbourhood (ranges js,
 * pre) into cand[f - b0]: the position relative to qref (gpu_sep_q), w:
 * the index j (TYPE false) or the type (TYPE true), as int bits. Thread
 * gt of nt (whole warps): warp gt / 32 copies cells gt / 32, + nt / 32, ...
 */
template <bool TYPE>
static __device__ __forceinline__ void gpu_hood_stage(const gpu_sys &s,
						      const int *js,
						      const int *pre, int ncj,
						      const int4 &qref, int b0,
						      int nb, float4 *cand,
						      int gt, int nt)
{
	const int lane = gt & 31;

	for (int k = gt >> 5; k < ncj; k += nt >> 5) {
		const int j0 = js[k], p0 = pre[k], p1 = pre[k + 1];
		const int lo_f = max(p0, b0), hi_f = min(p1, b0 + nb);

		for (int f = lo_f + lane; f < hi_f; f += 32) {
			const int j = j0 + (f - p0);
			const int4 q = s.xq[j];
			const float3 p = gpu_sep_q(s, q, qref);

			cand[f - b0] = make_float4(p.x, p.y, p.z,
						   __int_as_float(TYPE ? q.w : j));
		}
	}
}

/*
 * R particles i0 .. i0 + R - 1 of the cell (one warp) against the staged
 * candidates [b0, b0 + nb): each candidate is read from shared memory
 * once for all R. Per particle: the test, a ballot, and each hit stored as
 * the entry of its rank among the hits: j, or with L16 the flat index.
 */
template <int SMALL, int R, bool L16>
static __device__ __forceinline__ void list_sweep(const gpu_sys &s,
						  const gpu_list_smem &sm,
						  const int4 &qref, int i0, int b0,
						  int nb, int nb32, int total,
						  int lane)
{
	typedef typename std::conditional<L16, unsigned short, int>::type entry;
	const unsigned below = (1u << lane) - 1u;
	float3 pi[R];
	entry *row[R];
	int cnt[R];

#pragma unroll
	for (int r = 0; r < R; r++) {
		pi[r] = gpu_sep_q(s, s.xq[i0 + r], qref);
		row[r] = (entry *)s.nl + gpu_nl_row(s.stride, i0 + r);
		cnt[r] = b0 > 0 ? s.nn[i0 + r] : 0;	/* resume after a batch */
	}
	for (int f = lane; f < nb32; f += 32) {
		const float4 p = sm.cand[f];
		const int j = __float_as_int(p.w);

#pragma unroll
		for (int r = 0; r < R; r++) {
			float rx = pi[r].x - p.x, ry = pi[r].y - p.y, rz = pi[r].z - p.z;

			if (SMALL) {
				rx -= s.box[0] * rintf(rx * s.ibox[0]);
				ry -= s.box[1] * rintf(ry * s.ibox[1]);
				rz -= s.box[2] * rintf(rz * s.ibox[2]);
			}
			const bool hit = (j != i0 + r) &
				(rx * rx + ry * ry + rz * rz < s.rlist2f);
			const unsigned bal = __ballot_sync(0xffffffffu, hit);
			const int e = cnt[r] + __popc(bal & below);

			if (hit && e < s.stride)
				row[r][gpu_nl_off(e)] = (entry)(L16 ? b0 + f : j);
			cnt[r] += __popc(bal);
		}
	}
	__syncwarp();
	if (lane < R) {
		int c = cnt[0];

#pragma unroll
		for (int r = 1; r < R; r++)
			if (lane == r)
				c = cnt[r];
		s.nn[i0 + lane] = c;
		if (b0 + nb == total && c > s.stride) {
			atomicMax(&s.st->max_nn, c);
			s.st->overflow = 1;
			s.st->halt = 1;
		}
	}
	__syncwarp();	/* nn read back by the next batch */
}

/*
 * The list of cell c. gt: this thread's index in the group (0 ..
 * GPU_LIST_WARPS * 32 - 1); all the group's threads call it with the same
 * c. bar: the group's barrier id. R: particles per sweep (1: the warps
 * take the particles in turn, for the persistent kernel's registers).
 */
template <int SMALL, int R = GPU_LIST_R, bool L16 = false>
static __device__ __forceinline__ void gpu_list_cell(const gpu_sys &s, int c,
						     gpu_list_smem &sm, int gt,
						     int bar)
{
	const int lane = gt & 31, wg = gt >> 5;
	const int first = s.cell_start[c], last = s.cell_start[c + 1];
	int ncj, total;

	if (first == last)
		return;
	ncj = gpu_hood_ranges(s, c, lane, wg == 0, sm.js, sm.pre);
	const int4 qref = s.xq[first];
	list_group_sync(bar);
	total = sm.pre[ncj];
	if (L16 && total > s.list16_max) {	/* beyond 16 bits: stop */
		if (gt == 0) {
			s.st->dense = 1;
			s.st->halt = 1;
		}
		list_group_sync(bar);	/* js, pre are rewritten next */
		return;
	}
	for (int b0 = 0; b0 < total; b0 += GPU_LIST_CAP) {
		const int nb = min(GPU_LIST_CAP, total - b0);
		const int nb32 = (nb + 31) & ~31;

		gpu_hood_stage<false>(s, sm.js, sm.pre, ncj, qref, b0, nb, sm.cand,
				      gt, GPU_LIST_WARPS * 32);
		/* pad to whole warps: NaN is never within reach, j = -1 */
		if (gt < nb32 - nb)
			sm.cand[nb + gt] = make_float4(__int_as_float(0x7fffffff), 0.f,
						       0.f, __int_as_float(-1));
		list_group_sync(bar);
		/* sweep: warp wg takes particles first + wg, + GPU_LIST_WARPS,
		 * ... (R = 1), or its share of them in runs of up to R */
		const int m = last - first;
		const int lo = R == 1 ? first + wg : first + wg * m / GPU_LIST_WARPS;
		const int hi = R == 1 ? last : first + (wg + 1) * m / GPU_LIST_WARPS;
		const int step = R == 1 ? GPU_LIST_WARPS : R;

		for (int i0 = lo; i0 < hi; i0 += step) {
#define SWEEP(q) list_sweep<SMALL, (R < q ? R : q), L16>(s, sm, qref, i0, b0, \
							 nb, nb32, total, lane)
			switch (R == 1 ? 1 : min(R, hi - i0)) {
			case 4: SWEEP(4); break;
			case 3: SWEEP(3); break;
			case 2: SWEEP(2); break;
			default: SWEEP(1); break;
			}
#undef SWEEP
		}
		list_group_sync(bar);	/* the candidates may be replaced */
	}
}

#endif
