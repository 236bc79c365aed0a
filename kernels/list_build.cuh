/*
 * list_build.cuh - the neighbour list of one cell, built by a group of
 * GPU_LIST_WARPS warps with the candidates on the lanes.
 *
 * The group stages the candidates of the cell's neighbourhood (the 27
 * cells around it, flattened in cell order: dz, dy, dx, then particle
 * order) in shared memory, at most GPU_LIST_CAP at a time (a batch); then
 * each warp takes the cell's particles in turn and sweeps the staged
 * candidates 32 at a time, one per lane: the test, a ballot, and each hit
 * stored as the list entry of its rank among the hits (the hits of 32
 * candidates are consecutive entries: one or two 32-byte sectors).
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

#include "gpu_common.cuh"

#define GPU_LIST_WARPS 4	/* warps of a group (one cell at a time) */
#define GPU_LIST_CAP 1024	/* staged candidates per batch (a multiple of 32) */

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
 * The list of cell c. gt: this thread's index in the group (0 ..
 * GPU_LIST_WARPS * 32 - 1); all the group's threads call it with the same
 * c. bar: the group's barrier id.
 */
template <int SMALL>
static __device__ __forceinline__ void gpu_list_cell(const gpu_sys &s, int c,
						     gpu_list_smem &sm, int gt,
						     int bar)
{
	const int lane = gt & 31, wg = gt >> 5;
	const int first = s.cell_start[c], last = s.cell_start[c + 1];
	const unsigned below = (1u << lane) - 1u;
	int cj = 0, ncj, total;

	if (first == last)
		return;
	ncj = gpu_stencil(s, c, lane, &cj);
	const int4 qref = s.xq[first];
	if (wg == 0) {	/* the stencil cells' ranges and flat offsets */
		int js = 0, cnt = 0, incl;

		if (lane < ncj) {
			js = s.cell_start[cj];
			cnt = s.cell_start[cj + 1] - js;
		}
		incl = warp_scan_incl(cnt);
		sm.js[lane] = js;
		sm.pre[lane + 1] = incl;
		if (lane == 0)
			sm.pre[0] = 0;
	}
	list_group_sync(bar);
	total = sm.pre[ncj];
	for (int b0 = 0; b0 < total; b0 += GPU_LIST_CAP) {
		const int nb = min(GPU_LIST_CAP, total - b0);
		const int nb32 = (nb + 31) & ~31;

		/* stage the flat window [b0, b0 + nb): warp wg copies cells wg,
		 * wg + GPU_LIST_WARPS, ... */
		for (int k = wg; k < ncj; k += GPU_LIST_WARPS) {
			const int js = sm.js[k], p0 = sm.pre[k], p1 = sm.pre[k + 1];
			const int lo_f = max(p0, b0), hi_f = min(p1, b0 + nb);

			for (int f = lo_f + lane; f < hi_f; f += 32) {
				const int j = js + (f - p0);
				const float3 p = gpu_sep_q(s, s.xq[j], qref);

				sm.cand[f - b0] = make_float4(p.x, p.y, p.z,
							      __int_as_float(j));
			}
		}
		/* pad to whole warps: NaN is never within reach, j = -1 */
		if (gt < nb32 - nb)
			sm.cand[nb + gt] = make_float4(__int_as_float(0x7fffffff), 0.f,
						       0.f, __int_as_float(-1));
		list_group_sync(bar);
		/* sweep: warp wg takes particles first + wg, + GPU_LIST_WARPS, ... */
		for (int i = first + wg; i < last; i += GPU_LIST_WARPS) {
			const float3 pi = gpu_sep_q(s, s.xq[i], qref);
			int *row = s.nl + gpu_nl_row(s.stride, i);
			int cnt = b0 > 0 ? s.nn[i] : 0;	/* resume after a batch */

			for (int f = lane; f < nb32; f += 32) {
				const float4 p = sm.cand[f];
				const int j = __float_as_int(p.w);
				float rx = pi.x - p.x, ry = pi.y - p.y, rz = pi.z - p.z;

				if (SMALL) {
					rx -= s.box[0] * rintf(rx * s.ibox[0]);
					ry -= s.box[1] * rintf(ry * s.ibox[1]);
					rz -= s.box[2] * rintf(rz * s.ibox[2]);
				}
				const bool hit = (j != i) &
					(rx * rx + ry * ry + rz * rz < s.rlist2f);
				const unsigned bal = __ballot_sync(0xffffffffu, hit);
				const int e = cnt + __popc(bal & below);

				/* the hits of a chunk are consecutive entries:
				 * one or two sectors per store */
				if (hit && e < s.stride)
					row[gpu_nl_off(e)] = j;
				cnt += __popc(bal);
			}
			__syncwarp();
			if (lane == 0) {
				s.nn[i] = cnt;
				if (b0 + nb == total && cnt > s.stride) {
					atomicMax(&s.st->max_nn, cnt);
					s.st->overflow = 1;
					s.st->halt = 1;
				}
			}
			__syncwarp();	/* nn read back by the next batch */
		}
		list_group_sync(bar);	/* the candidates may be replaced */
	}
}

#endif
