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
 * The particles of a cell are sorted by sub-cell (its octants, GPU_SUB).
 * In the common case (4 or more cells per edge, 32-bit entries, at most
 * GPU_LIST_CAP candidates) the group stages the neighbourhood as sub-cell
 * ranges in slab order (GPU_SUBHOOD), a thread per candidate
 * (gpu_subhood_stage), and warp w sweeps the particles of
 * sub-cells w and w + 4 against only the 125/216 of it within reach, as one
 * compacted sequence of candidates (up to s.list_idx = GPU_LIST_IDX of
 * them; a larger reach run by run).
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
 * Positions are the build positions, xq0 (with neighbor.predict ahead of
 * the particles along their velocities, rb_ref; the binning put each in
 * its cell by it). Candidates are float positions p relative to the cell's
 * first particle (the wrapped fixed-point difference, converted once when
 * staged), with
 * the index j in w (|p|^2 is computed once per candidate and sweep, for
 * its R particles): they lie less than 2 cell edges
 * from it (at a build every particle is in its cell), so with 4 or more
 * cells per edge their integer differences do not wrap and the float
 * difference is the minimum image; SMALL (s.small_box: fewer along some
 * edge) adds the float minimum image. The test is r^2 < rlist^2 (1 + 1e-5)
 * in float (SMALL), or |p|^2 - 2 p_i.p < rlist^2 (1 + 1e-5) (1 +
 * GPU_LIST_DOT_SLACK) - |p_i|^2 (three fused multiply-adds): a superset of
 * the pairs within rlist despite the rounding, so the list is the CPU's
 * plus pairs within ~3e-5 of rlist (tests/gpu_backend.c allows 1e-4); the
 * force kernels test rc.
 */
#ifndef MD_LIST_BUILD_CUH
#define MD_LIST_BUILD_CUH

#include <type_traits>
#include "gpu_common.cuh"

#define GPU_LIST_WARPS 4	/* warps of a group (one cell at a time) */
/*
 * Groups resident per SM that k_build_list (a group a block) is compiled
 * for: 8 at 64 registers. Left to itself the compiler took 80 with spills
 * after the sixteenth session's staging change (it had taken 64 before).
 * (The small-box 16-bit instance spills 12 bytes at this bound.)
 */
#define GPU_LIST_MINB 8
#define GPU_LIST_CAP 1024	/* staged candidates per batch (a multiple of 32) */
/*
 * Particles per warp and sweep (at most 4): each staged candidate is read
 * once for R particles. Measured at 1M, skin 0.57 (RESULTS, eighth
 * session): a list build 1.16 ms with R = 1, 1.09 ms with 4 (hits stored
 * at once); 1.33 ms with 4 and the hits gathered in shared memory first
 * (fewer instructions per candidate, 72 registers: 7 blocks per SM). The
 * quarter build took 72 registers (ninth session: 0.96 ms; capped at 64
 * for 8 blocks per SM, 1.00 ms); the octant build takes 64 without spills
 * (eleventh session: 0.83 ms at skin 0.5).
 */
#define GPU_LIST_R 4
/*
 * Extra relative margin of the dot-product test: its terms reach 20
 * rlist^2 (|p| < 2 cell edges per axis, an edge < 1.25 rlist with 4 or
 * more cells per edge) and each of its 4 roundings up to 2^-24 of 40
 * rlist^2, about 1e-5 rlist^2 in all: the margin covers that 3 times.
 */
#define GPU_LIST_DOT_SLACK 3e-5f

/*
 * The sub-cell neighbourhood (not SMALL, not L16): the 27 cells' octants
 * as GPU_SUBHOOD ranges in the order of the half-cell slabs, range k =
 * (fz 6 + fy) 6 + fx, where fx = 2 (dx + 1) + hx (dx = -1, 0, 1) counts
 * the slabs along x (0 .. 5), and fy, fz those along y and z. A particle
 * of octant (hx, hy, hz) of the centre cell (slabs 2 + hx, ...) lies a
 * whole cell edge (>= rlist) from any slab 3 away from its own: it needs
 * slabs hx .. hx + 4, hy .. hy + 4 and hz .. hz + 4 only, 125 of the 216
 * ranges. For each (fz, fy) these are GPU_SUB_SPAN consecutive ranges, a
 * run of candidates; the warp lists the runs' flat indices one after the
 * other (gpu_sub_reach) and sweeps them 32 at a time.
 *
 * History (RESULTS): the ninth session sorted by quarters (the halves
 * along y and z) and swept each quarter's 5 runs of 15 ranges (25/36 of
 * the tests): a 1M build 1.07 -> 1.03 ms, 0.96 ms with the test as a dot
 * product and the store predicated (list_sweep). A run of ~90 candidates
 * (skin 0.5) took 3 or 4 sweeps of 32 lanes.
 */
#define GPU_SUBHOOD 216		/* 6 z slabs x 6 y slabs x 6 x slabs */
#define GPU_SUB_RUNS 25		/* runs of an octant: 5 z slabs x 5 y slabs */
#define GPU_SUB_SPAN 5		/* ranges of a run: 5 x slabs */
/*
 * Candidates of one octant's reach that its warp lists compacted (flat
 * indices, 16 bits; s.list_idx, which a test lowers); a larger reach is
 * swept run by run (a reach is 58% of the staged candidates on average,
 * which number at most GPU_LIST_CAP = 1,024 on this path). Shared memory
 * is also the persistent kernel's L1 (persist.cu: 8 groups a block): with
 * the index j in the candidate's w (no array of its own, 4 KB) its 8
 * groups take 190 KB, within the 196 KB carve-out it had before the
 * octants, which leaves 60 KB of L1 to its force phase. (With 768 here
 * and the indices beside the candidates it took 223 KB, the 228 KB
 * carve-out, and 32,000 particles ran 5% slower: 65,070 -> 61,735
 * steps/s.)
 */
#define GPU_LIST_IDX 768

/* Shared memory of one group. */
typedef struct gpu_list_smem {
	float4 cand[GPU_LIST_CAP];	/* relative position p, w: j (int bits) */
	int js[GPU_SUBHOOD];		/* range k: first particle */
	int pre[GPU_SUBHOOD + 1];	/* flat index of its first candidate */
	union {
		/* the octants' reaches (gpu_sub_reach), while the warps sweep */
		unsigned short idx[GPU_LIST_WARPS][GPU_LIST_IDX];
		/* the quarter of each flat candidate, while the group stages
		 * the sub-cell neighbourhood (gpu_subhood_ranges) */
		unsigned char qid[GPU_LIST_CAP];
	};
} gpu_list_smem;

/*
 * The positions a list build lists (B0 true): the build positions, xq0
 * (rb_ref). B0 false: xq, the same values in the persistent kernel's own
 * builds (which bin by x), read there for its register assignment (its
 * speed follows it, RESULTS twenty-fourth session), and the current
 * positions that `staged` stages at its force launches.
 */
template <bool B0>
static __device__ __forceinline__ const int4 *gpu_build_pos(const gpu_sys &s)
{
	return B0 ? s.xq0 : s.xq;
}

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
 * The sub-cell neighbourhood of cell c (not SMALL: 27 distinct cells), by
 * one warp: js[k], pre[k] of its GPU_SUBHOOD ranges (see GPU_SUBHOOD),
 * and qid[f], the quarter of flat candidate f < GPU_LIST_CAP. A lane
 * takes a cell's two x-halves at once (ranges 2 m, 2 m + 1: quarter m,
 * consecutive particles). Returns the number of candidates.
 */
static __device__ __forceinline__ int gpu_subhood_ranges(const gpu_sys &s, int c,
							 int *js, int *pre,
							 unsigned char *qid)
{
	constexpr int M = GPU_SUBHOOD / 2;	/* quarters */
	constexpr int P = (M + 31) / 32;	/* passes of the warp */
	int cc[3], j0[P], j1[P], j2[P], carry = 0, lane;

	/* the lane anew, opaque to the compiler: otherwise it hoists what
	 * follows from it out of the caller's loop over cells and keeps it in
	 * registers, which took k_build_list from 64 to 80 of them (and
	 * spills) with gpu_subhood_stage() (sixteenth session) */
	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));

	gpu_cell_coords(s, c, cc);
	/* every pass's loads first, so that they are in flight together. The
	 * neighbour cell by a compare per axis, not gpu_stencil(): its
	 * divisions, four calls per lane while the group waits, made a 1M
	 * build 0.95 -> 1.05 ms (2% of the steps/s, ninth session) */
#pragma unroll
	for (int p = 0; p < P; p++) {
		const int m = p * 32 + lane;
		const int fy = m / 3 % 6, fz = m / 18;
		int nx = cc[0] + m % 3 - 1, ny = cc[1] + fy / 2 - 1, nz = cc[2] + fz / 2 - 1;

		nx += nx < 0 ? s.nc[0] : nx >= s.nc[0] ? -s.nc[0] : 0;
		ny += ny < 0 ? s.nc[1] : ny >= s.nc[1] ? -s.nc[1] : 0;
		nz += nz < 0 ? s.nc[2] : nz >= s.nc[2] ? -s.nc[2] : 0;
		j0[p] = j1[p] = j2[p] = 0;
		if (m < M) {
			const int q = ((nz * s.nc[1] + ny) * s.nc[0] + nx) * GPU_SUB +
				      2 * (fy % 2) + 4 * (fz % 2);

			j0[p] = s.sub_start[q];
			j1[p] = s.sub_start[q + 1];
			j2[p] = s.sub_start[q + 2];
		}
	}
	if (lane == 0)
		pre[0] = 0;
#pragma unroll
	for (int p = 0; p < P; p++) {
		const int m = p * 32 + lane;
		const int incl = carry + warp_scan_incl(j2[p] - j0[p]);

		if (m < M) {
			js[2 * m] = j0[p];
			js[2 * m + 1] = j1[p];
			pre[2 * m + 1] = incl - (j2[p] - j1[p]);
			pre[2 * m + 2] = incl;
			for (int f = incl - (j2[p] - j0[p]); f < min(incl, GPU_LIST_CAP); f++)
				qid[f] = (unsigned char)m;
		}
		carry = __shfl_sync(0xffffffffu, incl, 31);
	}
	return carry;
}

/*
 * The reach of octant `sub` of the staged sub-cell neighbourhood, by one
 * warp: lane t < GPU_SUB_RUNS holds run t (its slabs fz = hz + t / 5, fy =
 * hy + t % 5, fx = hx .. hx + 4: flat candidates [a, a + len)). If they
 * number at most lim (s.list_idx: compact), idx lists their flat indices
 * run after run, in flat order.
 */
struct list_reach {
	int a, len;			/* this lane's run */
	int total;			/* candidates of the reach; compact
					 * (<= s.list_idx): idx[0 .. total) of
					 * the warp (gpu_list_smem) holds them */
};

static __device__ __forceinline__ list_reach gpu_sub_reach(const gpu_list_smem &sm,
							   int sub, int lane, int lim,
							   unsigned short *idx)
{
	const int hx = sub & 1, hy = (sub >> 1) & 1, hz = sub >> 2;
	list_reach r;

	r.a = r.len = 0;
	if (lane < GPU_SUB_RUNS) {
		const int k = ((hz + lane / GPU_SUB_SPAN) * 6 + hy + lane % GPU_SUB_SPAN) * 6 + hx;

		r.a = sm.pre[k];
		r.len = sm.pre[k + GPU_SUB_SPAN] - r.a;
	}
	const int incl = warp_scan_incl(r.len);

	r.total = __shfl_sync(0xffffffffu, incl, 31);
	if (r.total <= lim) {
		const int off = incl - r.len;

		for (int u = 0; u < r.len; u++)
			idx[off + u] = (unsigned short)(r.a + u);
		__syncwarp();
	}
	return r;
}

/*
 * Stage the flat candidates [b0, b0 + nb) of a neighbourhood (ranges js,
 * pre) into cand[f - b0]: the position p relative to qref (gpu_sep_q), w:
 * as int bits the type (TYPE true) or the index j (TYPE false: the list
 * build), from the positions gpu_build_pos<B0>. Thread gt of nt (whole
 * warps): warp gt / 32 copies the ranges gt / 32, + nt / 32, ... (a cell
 * of the 27-cell neighbourhood each).
 */
template <bool TYPE, bool B0 = !TYPE>
static __device__ __forceinline__ void gpu_hood_stage(const gpu_sys &s,
						      const int *js,
						      const int *pre, int ncj,
						      const int4 &qref, int b0,
						      int nb, float4 *cand, int gt,
						      int nt)
{
	const int lane = gt & 31;

	for (int k = gt >> 5; k < ncj; k += nt >> 5) {
		const int lo_f = max(pre[k], b0), hi_f = min(pre[k + 1], b0 + nb);

		for (int f = lo_f + lane; f < hi_f; f += 32) {
			const int j = js[k] + (f - pre[k]);
			const int4 q = gpu_build_pos<B0>(s)[j];
			const float3 p = gpu_sep_q(s, q, qref);

			cand[f - b0] = make_float4(p.x, p.y, p.z, __int_as_float(TYPE ? q.w : j));
		}
	}
}

/*
 * Stage the sub-cell neighbourhood's candidates [0, total) (total <=
 * GPU_LIST_CAP) into cand like gpu_hood_stage(), a thread per candidate:
 * its quarter from qid (gpu_subhood_ranges), whose two ranges are
 * consecutive particles. (The sixteenth session's change: before, a warp
 * took a row of 6 ranges, ~18 particles, on its 32 lanes, and found each
 * candidate's range by comparisons; a 1M build ran 562M instructions in
 * ~815 us, now 502M in ~737 us, RESULTS.)
 */
template <bool B0 = true>
static __device__ __forceinline__ void gpu_subhood_stage(const gpu_sys &s,
							 gpu_list_smem &sm,
							 const int4 &qref, int total,
							 int gt, int nt)
{
	for (int f = gt; f < total; f += nt) {
		const int m2 = 2 * sm.qid[f];
		const int j = sm.js[m2] + (f - sm.pre[m2]);
		const float3 p = gpu_sep_q(s, gpu_build_pos<B0>(s)[j], qref);

		sm.cand[f] = make_float4(p.x, p.y, p.z, __int_as_float(j));
	}
}

/*
 * row[gpu_nl_off(e)] = v if hit and e < lim, as one predicated store:
 * written in C the compiler branched around it (BSSY, BRA, BSYNC at every
 * test). The pointer is a global one (cudaMalloc), as st.global needs.
 * EVERY (the persistent kernel's build): every lane stores if e < lim, a
 * lane without a hit into the slot after the hits (its e from the mask ~0,
 * list_sweep), beyond the count or taken by a later hit: the form all
 * builds had until the twenty-second session. Predicated on the hit, a 1M
 * list build takes 0.78-0.79 ms against 0.79-0.81 (one select fewer per
 * particle and sweep; 1M and 8M +0.3 to 0.5%, RESULTS). In the persistent
 * kernel it spilled more (32,000 particles -0.8%), and merely a flag with
 * the hit set true there gave a different register assignment, -3%: with
 * EVERY the PTX is the old one, and so is that kernel's SASS. (The
 * sixteenth session's form, the whole test, ballot and store in one PTX
 * block, ran 40% slower.)
 */
template <bool EVERY, typename T>
static __device__ __forceinline__ void list_store(T *row, int e, int lim,
						  bool hit, T v)
{
	/* gpu_nl_off(e) as e + (e / 8) 248, and the address as one wide
	 * multiply-add on the row's 64-bit pointer: written as row +
	 * gpu_nl_off(e) the compiler rebuilt it from the list's base per
	 * store, 9 instructions (a third of a test's, SASS, eleventh session) */
	static_assert(GPU_NL_CHUNK == 8, "e / 8 below");
	const unsigned off = (unsigned)e + ((unsigned)e >> 3) *
			     (GPU_NL_BLOCK * GPU_NL_CHUNK - GPU_NL_CHUNK);
	/* the predicate q: e < lim, and (not EVERY) the hit */
#define LIST_Q_EVERY "setp.lt.s32 q, %1, %2;"
#define LIST_Q_HIT "setp.ne.s32 h, %5, 0; setp.lt.and.s32 q, %1, %2, h;"
#define LIST_ST(Q, B, W) "{ .reg .pred h, q; .reg .u64 a; " Q \
	" mad.wide.u32 a, %3, " B ", %0; @q st.global.b" W " [a], %4; }"

	if (sizeof(T) == 4 && EVERY)
		asm volatile(LIST_ST(LIST_Q_EVERY, "4", "32")
			     :: "l"(row), "r"(e), "r"(lim), "r"(off), "r"((int)v), "r"((int)hit));
	else if (sizeof(T) == 4)
		asm volatile(LIST_ST(LIST_Q_HIT, "4", "32")
			     :: "l"(row), "r"(e), "r"(lim), "r"(off), "r"((int)v), "r"((int)hit));
	else if (EVERY)
		asm volatile(LIST_ST(LIST_Q_EVERY, "2", "16")
			     :: "l"(row), "r"(e), "r"(lim), "r"(off), "h"((unsigned short)v),
				"r"((int)hit));
	else
		asm volatile(LIST_ST(LIST_Q_HIT, "2", "16")
			     :: "l"(row), "r"(e), "r"(lim), "r"(off), "h"((unsigned short)v),
				"r"((int)hit));
#undef LIST_ST
#undef LIST_Q_HIT
#undef LIST_Q_EVERY
}

/*
 * R particles i0 .. i0 + R - 1 of the cell (one warp) against staged
 * candidates: each candidate is read from shared memory once for all R.
 * Per particle: the test, a ballot, and each hit stored as the entry of
 * its rank among the hits: j, or with L16 the flat index b0 + f.
 * SUB false: the candidates [0, nb) of batch b0 (of total). SUB true: the
 * reach rch of an octant of the sub-cell neighbourhood, staged whole:
 * compacted in idx (the warp's row of sm.idx), or its runs one by one.
 * EVERY: every lane stores (list_store).
 */
template <int SMALL, int R, bool L16, bool SUB, bool EVERY>
static __device__ __forceinline__ void list_sweep(const gpu_sys &s,
						  const gpu_list_smem &sm,
						  const int4 &qref, int i0, int b0,
						  int nb, int total,
						  const list_reach &rch,
						  const unsigned short *idx, int lane)
{
	typedef typename std::conditional<L16, unsigned short, int>::type entry;
	const unsigned below = (1u << lane) - 1u;
	float3 pi[R];	/* SMALL: p_i; else -2 p_i */
	float thr[R];	/* not SMALL: the threshold of the dot product */
	entry *row[R];
	int cnt[R];

#pragma unroll
	for (int r = 0; r < R; r++) {
		const float3 p = gpu_sep_q(s, gpu_build_pos<!EVERY>(s)[i0 + r], qref);

		pi[r] = SMALL ? p : make_float3(-2.f * p.x, -2.f * p.y, -2.f * p.z);
		thr[r] = s.rlist2f * (1.f + GPU_LIST_DOT_SLACK) -
			 (p.x * p.x + p.y * p.y + p.z * p.z);
		row[r] = (entry *)s.nl + gpu_nl_row(s.stride, i0 + r);
		cnt[r] = !SUB && b0 > 0 ? s.nn[i0 + r] : 0;	/* resume after a batch */
	}
	const bool direct = !SUB || rch.total > s.list_idx;	/* f = v */

	for (int run = 0; run < (SUB && direct ? GPU_SUB_RUNS : 1); run++) {
		int lo = 0, hi = nb;

		if (SUB && direct) {
			lo = __shfl_sync(0xffffffffu, rch.a, run);
			hi = lo + __shfl_sync(0xffffffffu, rch.len, run);
		} else if (SUB) {
			hi = rch.total;
		}
		for (int v0 = lo; v0 < hi; v0 += 32) {
			const int v = v0 + lane;
			const bool in = v < hi;
			const int f = direct ? (in ? v : lo) : idx[in ? v : lo];
			const float4 p = sm.cand[f];
			const int j = __float_as_int(p.w);
			/* |p|^2, once for the R particles */
			const float pp = SMALL ? 0.f : fmaf(p.x, p.x, fmaf(p.y, p.y, p.z * p.z));

#pragma unroll
			for (int r = 0; r < R; r++) {
				bool near;

				if (SMALL) {	/* the float minimum image */
					float rx = pi[r].x - p.x, ry = pi[r].y - p.y,
					      rz = pi[r].z - p.z;

					rx -= s.box[0] * rintf(rx * s.ibox[0]);
					ry -= s.box[1] * rintf(ry * s.ibox[1]);
					rz -= s.box[2] * rintf(rz * s.ibox[2]);
					near = rx * rx + ry * ry + rz * rz < s.rlist2f;
				} else {	/* |p_i - p|^2 < rl2 as |p|^2 - 2 p_i.p < rl2 - |p_i|^2 */
					near = fmaf(pi[r].x, p.x, fmaf(pi[r].y, p.y,
						    fmaf(pi[r].z, p.z, pp))) < thr[r];
				}
				const bool hit = in & (j != i0 + r) & near;
				const unsigned bal = __ballot_sync(0xffffffffu, hit);
				/* a hit: its rank among the hits (EVERY: the
				 * others, the slot after them) */
				const int e = cnt[r] + __popc(bal & (EVERY && !hit ? ~0u : below));

				list_store<EVERY, entry>(row[r], e, s.stride, hit,
							 (entry)(L16 ? b0 + f : j));
				cnt[r] += __popc(bal);
			}
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
		if ((SUB || b0 + nb == total) && c > s.stride) {
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
 * c. bar: the group's barrier id. R: particles per sweep (the persistent
 * kernel takes 2 for its registers; 1: on the 27-cell path the warps take
 * the particles in turn). EVERY: every lane stores (list_store; the
 * persistent kernel).
 * Not SMALL and not L16, with the sub-cell neighbourhood within
 * GPU_LIST_CAP: staged whole, warp w sweeps the particles of octants w
 * and w + 4, each against that octant's reach. Otherwise the 27-cell neighbourhood in
 * batches, the cell's particles shared out among the warps.
 */
template <int SMALL, int R = GPU_LIST_R, bool L16 = false, bool EVERY = false>
static __device__ __forceinline__ void gpu_list_cell(const gpu_sys &s, int c,
						     gpu_list_smem &sm, int gt,
						     int bar)
{
	static_assert(2 * GPU_LIST_WARPS == GPU_SUB, "a warp per two octants");
	const int lane = gt & 31, wg = gt >> 5;
	const int first = s.cell_start[c], last = s.cell_start[c + 1];
	int ncj, total;
	list_reach rch = {};

	if (first == last)
		return;
	const int4 qref = gpu_build_pos<!EVERY>(s)[first];	/* EVERY: the persistent kernel */
#define SWEEP(q, SUB) list_sweep<SMALL, (R < q ? R : q), L16, SUB, EVERY>(		\
		s, sm, qref, i0, b0, nb, total, rch, sm.idx[wg], lane)
#define SWEEPS(n, SUB) do {						\
		switch (n) {						\
		case 4: SWEEP(4, SUB); break;				\
		case 3: SWEEP(3, SUB); break;				\
		case 2: SWEEP(2, SUB); break;				\
		default: SWEEP(1, SUB); break;				\
		}							\
	} while (0)
	if (!SMALL && !L16) {
		if (wg == 0)
			gpu_subhood_ranges(s, c, sm.js, sm.pre, sm.qid);
		list_group_sync(bar);
		total = sm.pre[GPU_SUBHOOD];
		if (total <= GPU_LIST_CAP) {
			const int b0 = 0, nb = total;

			/* qid, which shares idx's memory, was written before
			 * the barrier above (after the previous cell's last
			 * one) and is read only until the next */
			gpu_subhood_stage<!EVERY>(s, sm, qref, total, gt, GPU_LIST_WARPS * 32);
			list_group_sync(bar);
			for (int sub = wg; sub < GPU_SUB; sub += GPU_LIST_WARPS) {
				const int lo = s.sub_start[c * GPU_SUB + sub];
				const int hi = s.sub_start[c * GPU_SUB + sub + 1];

				if (lo == hi)
					continue;
				/* the idx of the warp's last octant has been
				 * read: list_sweep ends with __syncwarp() */
				rch = gpu_sub_reach(sm, sub, lane, s.list_idx, sm.idx[wg]);
				for (int i0 = lo; i0 < hi; i0 += R)
					SWEEPS(R == 1 ? 1 : min(R, hi - i0), true);
			}
			list_group_sync(bar);	/* the candidates may be replaced */
			return;
		}
		list_group_sync(bar);	/* js, pre are rewritten next */
	}
	ncj = gpu_hood_ranges(s, c, lane, wg == 0, sm.js, sm.pre);
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

		gpu_hood_stage<false, !EVERY>(s, sm.js, sm.pre, ncj, qref, b0, nb, sm.cand,
				      gt, GPU_LIST_WARPS * 32);
		list_group_sync(bar);
		/* sweep: warp wg takes particles first + wg, + GPU_LIST_WARPS,
		 * ... (R = 1), or its share of them in runs of up to R */
		const int m = last - first;
		const int lo = R == 1 ? first + wg : first + wg * m / GPU_LIST_WARPS;
		const int hi = R == 1 ? last : first + (wg + 1) * m / GPU_LIST_WARPS;
		const int step = R == 1 ? GPU_LIST_WARPS : R;

		for (int i0 = lo; i0 < hi; i0 += step)
			SWEEPS(R == 1 ? 1 : min(R, hi - i0), false);
		list_group_sync(bar);	/* the candidates may be replaced */
	}
#undef SWEEPS
#undef SWEEP
}

#endif
