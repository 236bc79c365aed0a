/*
 * gpu_neighbor.cu - cell list, spatial sort and neighbour list on the GPU:
 * the whole rebuild sequence as one cooperative launch a step
 * (k_rebuild_coop, the default), or one kernel per phase of
 * rebuild_phases.cuh (the conditional graph nodes' form, below).
 *
 * Every kernel here first reads the status block and returns at once unless
 * a rebuild is due (decided on the GPU by the integrator): outside a step
 * graph's conditional node the whole sequence is enqueued every step and
 * costs only a few empty launches when no rebuild is needed. (The list
 * build also counts its blocks while halted: k_build_list.)
 */
#include <cooperative_groups.h>
#include "gpu_common.cuh"
#include "rebuild_phases.cuh"
#include "verlet_step.cuh"

namespace cg = cooperative_groups;

static __device__ __forceinline__ bool rebuild_due(const gpu_sys &s)
{
	const volatile gpu_status *st = s.st;

	return st->rebuild && !st->halt;
}

/* thread index and count of a launch that covers its range once */
#define RB_T (blockIdx.x * blockDim.x + threadIdx.x)
#define RB_NT (gridDim.x * blockDim.x)
/* items a thread of k_bin and k_scan_add takes at once (a launch covers
 * its range in one round of U) */
#define RB_U 4

__global__ void k_request_rebuild(gpu_sys s)
{
	s.st->rebuild = 1;
}

__global__ void k_zero_counts(gpu_sys s)
{
	if (rebuild_due(s))
		rb_zero_counts(s, RB_T, RB_NT);
}

/* PRED: neighbor.predict (rb_ref): the persistent kernel's own builds
 * bin by x (its binning spilled more with it), which is as consistent:
 * each build sets xq0 and the lists together */
template <bool PRED>
__global__ void k_bin(gpu_sys s)
{
	if (rebuild_due(s))
		rb_bin<false, RB_U, PRED>(s, RB_T, RB_NT);
}

/* One warp per chunk of GPU_SCAN_CELLS cells. */
__global__ void k_scan_blocks(gpu_sys s)
{
	if (rebuild_due(s))
		rb_scan_chunks_phase<GPU_SCAN_CELLS / 32>(s, blockIdx.x, gridDim.x);
}

__global__ void k_scan_top(gpu_sys s)
{
	if (rebuild_due(s))
		rb_scan_top(s);
}

__global__ void k_scan_add(gpu_sys s)
{
	if (rebuild_due(s))
		rb_scan_add<RB_U>(s, RB_T, RB_NT);
}

/* The request becomes 2: sorted, the t arrays to be copied back by the
 * list build (k_build_list), which sets it to 0 (done) or 1 (halted). */
template <bool PRED>
__global__ void k_scatter(gpu_sys s)
{
	if (rebuild_due(s)) {
		rb_scatter<true, true, PRED>(s, RB_T, RB_NT);
		if (RB_T == 0)
			s.st->rebuild = 2;
	}
}

/*
 * One group of GPU_LIST_WARPS warps per block: the particles of its cells
 * copied back from the scatter's t arrays, and their lists built (rb_list,
 * rebuild_phases.cuh). The last block to finish
 * ends the rebuild (rb_done(), unless a list overflowed: the host then
 * grows the list and the request stands), so that the list build is the
 * rebuild's last launch. A graph launches it in every step, outside the
 * conditional node that holds the sort: compute-sanitizer's synccheck
 * reports every block barrier of a kernel inside a conditional node as
 * divergent (CUDA 13.0, bench/RESULTS.md), and this kernel needs them.
 *
 * s.xv_lazy (the register strategy's fused NVE steps): x and v are not
 * copied back. The last block sets st->xv_t, and the fused step that
 * follows reads them from the t arrays and writes them in place
 * (nve_kick_drift_lazy), or, halted by an overflow here, copies them
 * (xv_copy_back), so that after it they are in place as always; a launch
 * without a rebuild clears st->xv_t. That takes 128 of the copy's 168
 * bytes a particle out of a build (8M: 6.0 -> ~5.6 ms a list build;
 * steps/s 1M +1.2%, 8M +2.6%, RESULTS twenty-third session).
 */
template <int SMALL, bool L16>
__global__ void __launch_bounds__(GPU_LIST_WARPS * 32, GPU_LIST_MINB)
k_build_list(gpu_sys s)
{
	__shared__ gpu_list_smem sm;
	__shared__ int due;	/* 1: a rebuild is due; | 2: copy back; | 4: build */
	const volatile gpu_status *st = s.st;

	/* one decision per block: the group barrier needs every warp, and
	 * another block's list overflow may set the halt while this one
	 * starts. The request itself stays set until every block has
	 * counted itself below. The copy back follows the scatter's mark
	 * (rebuild == 2, k_scatter), so it goes on in every block after
	 * another one's overflow (the host's recovery bins the particles
	 * again), and never without a scatter (a blow-up in the binning,
	 * the halted steps after an overflow: the last block below leaves
	 * the request at 1). */
	if (threadIdx.x == 0) {
		due = st->rebuild ? 1 | (st->rebuild == 2 ? 2 : 0) | (st->halt ? 0 : 4) : 0;
		if (!due && blockIdx.x == 0)
			rb_no_build(s);
	}
	__syncthreads();
	if (!due)
		return;
	if (due & 6)
		rb_list<SMALL, GPU_LIST_R, L16>(s, blockIdx.x, gridDim.x, threadIdx.x, sm, 1,
						due & 2, due & 4, !s.xv_lazy);
	__threadfence();	/* a halt this block set, before its count */
	__syncthreads();
	if (threadIdx.x == 0 &&
	    atomicAdd(&s.st->list_done, 1u) == gridDim.x - 1) {
		s.st->list_done = 0;
		rb_list_done(s, due & 2);	/* halted: the copy is done (of x
						 * and v too: the fused step's) */
	}
}

/*
 * The refined rebuild check. The drift requests a rebuild when a particle
 * has moved more than skin/2 since the build (then a pair within rc may
 * be missing from the lists, whose pairs were within rlist = rc + skin),
 * unless it is a suspect (record_suspect(), verlet_step.cuh): it moved
 * at most cap = a - rc - 1e-4 a (a: the shortest cell edge, >= rlist;
 * s.susp_cap2; on when cap > skin/2 and skin/2 > 1e-4 a). Then only
 * pairs with a suspect can be missing, and for a suspect i every particle
 * j within rc of it now was, at the build, within rc + d_j of where i is
 * now: less than a unless j is a suspect that moved more than a - rc
 * (none can: the cap), so j's build cell is one of the 27 around the
 * cell of i's present position (with a margin of at least 1e-4 a, or
 * skin/2 for a non-suspect j, against the rounding of either cell
 * computation); other suspects need no check of their own. For those
 * particles this kernel compares the distance now with rc, and at the
 * build with rlist: within rc now and not surely listed (r0 >= rlist,
 * with a 1e-4 margin on r^2 either way) requests the rebuild. (Until the
 * eighteenth session the 27 cells were those of i's build position,
 * which capped a suspect's displacement at a - rc - skin/2: 0.32 at 1M
 * and skin 0.5, against 0.57 now; RESULTS.)
 * A warp per suspect, its lanes over the 27 cells' particles as one
 * sequence (the 9 rows of 3 cells along x, each one range of the sorted
 * particles, or two where the row wraps), REFINE_U candidates a lane at
 * once, so that every suspect of a step is in flight together. (Until the
 * twenty-eighth session a block of 256 threads took a suspect, a thread a
 * slice of a cell: 528 suspects at a time on 132 SMs, each pass ~2.5 us
 * of dependent loads, and steps with ~5,900 suspects took ~30 us; a warp
 * walking the cells in turn before that waited ~35 us per suspect.) Any
 * thread that finds a pair requests the rebuild; the last warp out
 * zeroes the count, so each step records its own suspects, and opens the
 * sort's IF node (s.sort_cond) when a rebuild is due. Launched at the
 * start of the next step, in the IF node of its rebuild, which a suspect
 * or a request opens (outside a graph: every step, returning at once
 * when there are no suspects). No block barrier (see k_build_list on barriers in
 * conditional nodes).
 */
#define REFINE_BLOCK 256
#define REFINE_WARPS (REFINE_BLOCK / 32)
#ifndef REFINE_U
#define REFINE_U 4	/* candidates a lane loads at once */
#endif

/*
 * The pair (i, j): ci: i's position now, fixed-point or (C) compact
 * (gpu_xc_fields); q0i: at the build. C (s.xc set): the separation now
 * from the compact positions (the steps on them do not store xq:
 * drift_and_check's XQ; they are also what the force launch sees), else
 * from xq. The distance now is tested first (8 bytes a candidate with C),
 * the one at the build only for the ~10% within rc. The compact
 * separation is exact only below half their range along each axis, at
 * least 1.02 (rlist + 2 cap) (compact_units, gpu_backend.cu), and the 27
 * cells hold pairs farther apart: far2 = (rc_chk + 2 cap)^2 with a
 * margin. When k_refine checks, no particle has moved more than cap
 * since the build (one that did requested the rebuild, and the check is
 * skipped), so a pair within rc now was within far at the build, and
 * for a pair within far at the build every axis's separation now is
 * below about rc_chk + 4 cap (with the margins): an alias of it lies at
 * least about 2.04 (rc + skin + 2 cap) - (rc + 4 cap), over 1.03 rc,
 * away, beyond rc_chk. (Without far2 a 1M run built 326 times
 * in 3,000 steps instead of 199: aliased pairs, twenty-first session.)
 * The suspect is among its own candidates: at distance 0 at the build,
 * it never counts.
 */
template <bool C>
static __device__ __forceinline__ float refine_r2(const gpu_sys &s, const int4 &ci, int j)
{
	const float3 r = C ? gpu_sep_qu(make_float3(s.cunit[0], s.cunit[1], s.cunit[2]),
					   ci, gpu_xc_fields(s.xc[j])) :
				gpu_sep_q(s, ci, s.xq[j]);

	return r.x * r.x + r.y * r.y + r.z * r.z;
}

template <bool C>
static __device__ __forceinline__ bool refine_unlisted(const gpu_sys &s, const int4 &q0i,
						       int j, float far2)
{
	const float3 b = gpu_sep_q(s, q0i, s.xq0[j]);
	const float b2 = b.x * b.x + b.y * b.y + b.z * b.z;

	return b2 >= s.rlist_lo2 && (!C || b2 < far2);	/* not surely listed, not too far */
}

/*
 * The range of the sorted particles (first a, length len) that lane l of
 * a warp takes from the 27 cells around cc (every axis has 4 or more
 * cells: the check runs only then): row r = l % 9 (dy = r % 3 - 1, dz =
 * r / 3 - 1) of cells cc[0] - 1 .. cc[0] + 1 without the wrapped one (l <
 * 9), or that one (9 <= l < 18, where the row wraps); else empty.
 */
static __device__ __forceinline__ void refine_row(const gpu_sys &s, const int cc[3], int l,
						  int &a, int &len)
{
	int lo, hi;

	if (l < 9) {
		lo = max(cc[0] - 1, 0);
		hi = min(cc[0] + 1, s.nc[0] - 1);
	} else {	/* the wrapped cell, or none */
		lo = hi = cc[0] == 0 ? s.nc[0] - 1 : 0;
		if (cc[0] != 0 && cc[0] != s.nc[0] - 1)
			hi = -1;
	}
	a = len = 0;
	if (l < 18 && lo <= hi) {
		/* the row's first cell: its stencil cell dx = 0 (k = 3 r + 1)
		 * less cc[0] */
		const int row = gpu_cell_linear(s, cc, 3 * (l % 9) + 1) - cc[0];

		a = s.cell_start[row + lo];
		len = s.cell_start[row + hi + 1] - a;
	}
}

/*
 * Suspects 0 .. nk - 1 (of susp) by the nw warps of the caller (this
 * one: w, lane 0 .. 31): true (in some lane) if some pair with one of
 * them is within rc and was not surely listed. C: s.xc is set. Each
 * suspect by g = nw / nk warps (1 .. REFINE_G), each taking every g-th
 * round of 32 REFINE_U candidates: a step with few suspects waits for one
 * round of loads, not for all of a suspect's. The loads of a round are
 * unconditional (a candidate past the end reads the suspect itself), so
 * that they are in flight together: with the loads under their
 * conditions, ptxas branched around each and waited for it in turn.
 */
#define REFINE_G 8

template <bool C>
static __device__ __forceinline__ bool refine_scan(const gpu_sys &s, const int *susp,
						   int w, int nw, int nk, int lane)
{
	const float far = sqrtf(s.rc_chk2) + 2.f * sqrtf(s.susp_cap2);
	const float far2 = 1.001f * far * far;	/* refine_unlisted */
	const int g = nk > 0 ? min(max(nw / nk, 1), REFINE_G) : 1;
	bool bad = false;

	for (int it = w; it < nk * g; it += nw) {
		const int i = susp[it / g];
		/* with C the steps store no xq: i's position from x */
		const int4 qi = C ? gpu_xq(s, s.x[i]) : s.xq[i], q0i = s.xq0[i];
		const int4 ci = C ? gpu_xc_fields(s.xc[i]) : qi;
		const unsigned uq[3] = { (unsigned)qi.x, (unsigned)qi.y, (unsigned)qi.z };
		int cc[3], a, len;	/* cc: the cell of i's present position */

		for (int d = 0; d < 3; d++)
			cc[d] = min((int)((double)uq[d] * s.nc[d] * (1.0 / 4294967296.0)),
				    s.nc[d] - 1);
		refine_row(s, cc, lane, a, len);
		/* candidate v of the sequence is in lane r's range when
		 * incl_r - len_r <= v < incl_r (lanes past 17: empty ranges) */
		const int incl = warp_scan_incl(len), exc = incl - len;
		const int total = __shfl_sync(0xffffffffu, incl, 31);

		for (int v0 = it % g * 32 * REFINE_U; v0 < total; v0 += g * 32 * REFINE_U) {
			int j[REFINE_U];
			bool near[REFINE_U];

#pragma unroll
			for (int u = 0; u < REFINE_U; u++) {
				const int v = v0 + 32 * u + lane;
				int r = 0;	/* the first lane whose incl exceeds v */

#pragma unroll
				for (int b = 16; b > 0; b >>= 1)
					if (__shfl_sync(0xffffffffu, incl, r + b - 1) <= v)
						r += b;
				j[u] = __shfl_sync(0xffffffffu, a, r) + v -
				       __shfl_sync(0xffffffffu, exc, r);
				near[u] = v < total;
				j[u] = near[u] ? j[u] : i;
			}
			/* (& below, not &&: no condition around a load) */
#pragma unroll
			for (int u = 0; u < REFINE_U; u++)
				near[u] = near[u] & (refine_r2<C>(s, ci, j[u]) < s.rc_chk2);
#pragma unroll
			for (int u = 0; u < REFINE_U; u++)
				bad |= near[u] & refine_unlisted<C>(s, q0i, near[u] ? j[u] : i, far2);
		}
	}
	return bad;
}

/* susp: the suspects (s.susp is set only while their steps record them);
 * C: s.xc is set (refine_r2) */
template <bool C>
__global__ void __launch_bounds__(REFINE_BLOCK) k_refine(gpu_sys s, const int *susp)
{
	volatile gpu_status *st = s.st;
	const int ns = st->nsusp, nk = min(ns, s.susp_max);
	const int t = threadIdx.x;
	int nb;

	if (ns == 0) {	/* a rebuild requested, no suspects */
		if (s.sort_cond && blockIdx.x == 0 && t == 0 && st->rebuild)
			GPU_SET_COND(s.sort_cond, 1u);
		return;
	}
	/* the blocks past the suspects leave at once, uncounted: one
	 * count per warp of the whole grid cost 256k particles 3% */
	nb = min((int)gridDim.x, (nk + REFINE_WARPS - 1) / REFINE_WARPS);
	if ((int)blockIdx.x >= nb)
		return;
	/* a rebuild already due (too many suspects, one past the cap):
	 * nothing to check, only the count and the sort's IF node */
	if (!st->rebuild &&
	    refine_scan<C>(s, susp, blockIdx.x * REFINE_WARPS + (t >> 5), nb * REFINE_WARPS,
			   nk, t & 31)) {
		request_rebuild(s);
		__threadfence();	/* before the count below */
	}
	__syncwarp();
	if ((t & 31) == 0) {
		__threadfence();
		if (atomicAdd(&s.st->susp_done, 1u) ==
		    nb * REFINE_WARPS - 1) {
			__threadfence();	/* the other warps' requests */
			st->susp_done = 0;
			st->nsusp = 0;
			if (s.sort_cond && st->rebuild)
				GPU_SET_COND(s.sort_cond, 1u);
		}
	}
}

/*
 * k_rebuild_coop - a step's whole rebuild sequence as ONE cooperative
 * launch, a grid barrier where the graph path has a kernel boundary: the
 * refined check of the suspects (k_refine's), then, if a rebuild is due,
 * the binning, scans, scatter and list build of the per-phase kernels
 * (the same phases, k_bin to k_build_list). Launched in every step, it
 * returns at once when there is neither a request nor a suspect. It
 * replaces the step graph's conditional node and the list launch after
 * it: at 1M particles the IF node cost 6.7 us a step when it did not run
 * its body and the list launch 1.6 us; with this kernel 1M ran 4,825 to
 * 4,832 steps/s against 4,670 to 4,673, 256,000 16,126 to 16,137
 * against 14,090 to 14,154 (bench/RESULTS.md, twenty-fifth session).
 * Blocks of COOP_GROUPS list groups (as the persistent kernel's,
 * persist.cu), one per SM (gpu_coop_grid()): the list phase runs as
 * k_build_list does (8 groups of 4 warps per SM, 0.749 against 0.756 ms
 * at 1M), the bulk phases with half the warps of their own launches
 * (the scatter at 8M 0.81 against 0.47 ms).
 *
 * Every block takes the same branches: it enters when the request or a
 * suspect count is set, which nothing clears before the first barrier
 * (k_refine's requests only set it); whether to rebuild is read after
 * that barrier, and the halt after the binning's. SMALL: s.small_box;
 * PRED: s.pred_t > 0 (k_bin); C: s.xc set (k_refine). susp: NULL
 * without the refined check.
 */
#define COOP_GROUPS 8
/* particles a thread bins at once: k_bin's RB_U = 4 spilled 120 bytes in
 * the 64 registers here; 2 spilled 32 and ran 1M at 4,780 steps/s
 * against 4,840 with 1 (twenty-fifth session) */
#ifndef COOP_BIN_U
#define COOP_BIN_U 1
#endif
#define COOP_BLOCK (COOP_GROUPS * GPU_LIST_WARPS * 32)
#define COOP_SMEM (COOP_GROUPS * sizeof(gpu_list_smem))
static_assert(COOP_GROUPS <= 15, "a barrier id per list group (1..15)");

template <int SMALL, bool PRED, bool C>
__global__ void __launch_bounds__(COOP_BLOCK, 1)
k_rebuild_coop(gpu_sys s, const int *susp)
{
	extern __shared__ gpu_list_smem csm[];
	__shared__ int flag;
	cg::grid_group g = cg::this_grid();
	volatile gpu_status *st = s.st;
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	const int nt = gridDim.x * blockDim.x;
	const int grp = threadIdx.x / (GPU_LIST_WARPS * 32);

	if (threadIdx.x == 0) {
		flag = !st->halt && (st->rebuild || (susp && st->nsusp > 0));
		if (!flag && blockIdx.x == 0)
			rb_no_build(s);
	}
	__syncthreads();
	if (!flag)
		return;
	if (susp) {	/* as k_refine, a warp a suspect */
		const int nk = min(st->nsusp, s.susp_max);

		if (!st->rebuild &&
		    refine_scan<C>(s, susp, t >> 5, nt >> 5, nk, threadIdx.x & 31))
			request_rebuild(s);
	}
	g.sync();
	if (!block_flag(&s.st->rebuild)) {
		if (t == 0) {	/* every block has read the count */
			st->nsusp = 0;
			rb_no_build(s);
		}
		return;
	}
	if (t == 0)
		st->nsusp = 0;
	rb_bin<false, COOP_BIN_U, PRED>(s, t, nt);
	g.sync();
	if (block_flag(&s.st->halt))
		return;	/* a blow-up: the host's recovery */
	rb_scan_chunks_phase<GPU_SCAN_CELLS / 32>(s, t >> 5, nt >> 5);
	g.sync();
	if (t < 32)
		rb_scan_top(s);
	g.sync();
	rb_scan_add<RB_U>(s, t, nt);
	g.sync();
	rb_scatter<true, true, PRED>(s, t, nt);
	g.sync();
	rb_list<SMALL, GPU_LIST_R, false>(s, blockIdx.x * COOP_GROUPS + grp,
					  gridDim.x * COOP_GROUPS,
					  threadIdx.x % (GPU_LIST_WARPS * 32), csm[grp],
					  1 + grp, true, true, !s.xv_lazy);
	g.sync();
	if (t == 0)
		rb_list_done(s, true);
}

template <int SMALL, bool PRED>
static const void *coop_fn_p(const gpu_sys *s)
{
	return s->xc ? (const void *)k_rebuild_coop<SMALL, PRED, true>
		     : (const void *)k_rebuild_coop<SMALL, PRED, false>;
}

static const void *coop_fn(const gpu_sys *s)
{
	if (s->small_box)
		return s->pred_t > 0.0 ? coop_fn_p<1, true>(s) : coop_fn_p<1, false>(s);
	return s->pred_t > 0.0 ? coop_fn_p<0, true>(s) : coop_fn_p<0, false>(s);
}

/*
 * Blocks of kernel fn (block threads, smem bytes of dynamic shared memory)
 * resident at once for a cooperative launch, or 0 where the device cannot
 * launch it: no cooperative launch, or less shared memory per block (the
 * persistent kernel, k_rebuild_coop).
 */
int gpu_coop_resident(const void *fn, int block, size_t smem)
{
	int dev, coop = 0, optin = 0, per_sm = 0;

	GPU_CHECK(cudaGetDevice(&dev));
	GPU_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
	GPU_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
	if (!coop || optin < (int)smem)
		return 0;
	if (cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
				 (int)smem) != cudaSuccess ||
	    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, block, smem) !=
		    cudaSuccess || per_sm < 1) {
		cudaGetLastError();	/* not sticky: clear it */
		return 0;
	}
	return gpu_sm_count() * per_sm;
}

/* Blocks of k_rebuild_coop for s (one per SM), or 0 where the device
 * cannot launch it. Not for a 16-bit list (`staged`: the per-phase
 * kernels). */
int gpu_coop_grid(const gpu_sys *s)
{
	return gpu_coop_resident(coop_fn(s), COOP_BLOCK, COOP_SMEM);
}

/* The step's rebuild sequence as one launch of grid blocks (gpu_coop_grid()). */
void gpu_enqueue_rebuild_coop(const gpu_sys *s, const int *susp, int grid,
			      cudaStream_t st)
{
	gpu_sys a = *s;
	void *args[] = { &a, &susp };

	GPU_CHECK(cudaLaunchCooperativeKernel(coop_fn(s), grid, COOP_BLOCK, args,
					      COOP_SMEM, st));
}

/* The device's SM count (the current device's, asked once). */
int gpu_sm_count(void)
{
	static int sms;

	if (!sms) {
		int dev;

		GPU_CHECK(cudaGetDevice(&dev));
		GPU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	}
	return sms;
}

/* Blocks of `block` threads of kernel fn resident at once on the device. */
static int resident_blocks(const void *fn, int block)
{
	int per_sm = 0;

	GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, block, 0));
	return gpu_sm_count() * (per_sm > 0 ? per_sm : 1);
}

/*
 * As many blocks as are resident at once, each taking suspects in turn
 * (k_refine): a suspect's cells are a few passes of dependent loads, so
 * suspects in flight side by side, not one after the other per SM (a block
 * per SM: 256k particles lost 8% when the refined check's cap grew and
 * the suspects with it, RESULTS eighteenth session).
 */
void gpu_enqueue_refine(const gpu_sys *s, const int *susp, cudaStream_t st)
{
	static int resident;

	if (!resident)	/* both forms: 31 and 32 registers */
		resident = resident_blocks((const void *)k_refine<true>, REFINE_BLOCK);
	if (s->xc)
		k_refine<true><<<resident, REFINE_BLOCK, 0, st>>>(*s, susp);
	else
		k_refine<false><<<resident, REFINE_BLOCK, 0, st>>>(*s, susp);
	GPU_CHECK_LAUNCH();
}

int gpu_cell_blocks(const gpu_sys *s)
{
	return (s->ncell + GPU_WARPS_PER_CELL_BLOCK - 1) / GPU_WARPS_PER_CELL_BLOCK;
}

/*
 * Blocks of the list build: a cell per block up to what is resident at
 * once, then grid-stride (a launch of one block per cell costs 67 us at
 * 1M particles even when no rebuild is due and every block returns).
 */
static int list_grid(const gpu_sys *s)
{
	static int resident;

	if (!resident)
		resident = resident_blocks((const void *)k_build_list<0, false>,
					   GPU_LIST_WARPS * 32);
	return s->ncell < resident ? s->ncell : resident;
}

/* ev: NULL, or GPU_REBUILD_STAGES + 1 events recorded around the stages */
#define STAGE(k) do { if (ev) GPU_CHECK(cudaEventRecord(ev[k], st)); } while (0)

/* Binning and sort: stages 0 to 3 (kernels with no block barrier). */
static void enqueue_sort(const gpu_sys *s, cudaStream_t st, cudaEvent_t *ev)
{
	int nb = (s->n + 255) / 256;
	int nbu = (s->n + 256 * RB_U - 1) / (256 * RB_U);
	int cbu = (rb_nsub(*s) + 256 * RB_U - 1) / (256 * RB_U);
	int sb = rb_scan_chunks(*s);

	STAGE(0);
	if (s->pred_t > 0.0)	/* counts zeroed by the last scan */
		k_bin<true><<<nbu, 256, 0, st>>>(*s);
	else
		k_bin<false><<<nbu, 256, 0, st>>>(*s);
	STAGE(1);
	k_scan_blocks<<<sb, 32, 0, st>>>(*s);
	k_scan_top<<<1, 32, 0, st>>>(*s);
	k_scan_add<<<cbu, 256, 0, st>>>(*s);
	STAGE(2);
	if (s->pred_t > 0.0)
		k_scatter<true><<<nb, 256, 0, st>>>(*s);
	else
		k_scatter<false><<<nb, 256, 0, st>>>(*s);
	STAGE(3);
	GPU_CHECK_LAUNCH();
}

/* The list build, which ends the rebuild: stage 4. */
static void enqueue_list(const gpu_sys *s, cudaStream_t st, cudaEvent_t *ev)
{
	const int g = list_grid(s), b = GPU_LIST_WARPS * 32;

	if (s->small_box && s->list16)
		k_build_list<1, true><<<g, b, 0, st>>>(*s);
	else if (s->small_box)
		k_build_list<1, false><<<g, b, 0, st>>>(*s);
	else if (s->list16)
		k_build_list<0, true><<<g, b, 0, st>>>(*s);
	else
		k_build_list<0, false><<<g, b, 0, st>>>(*s);
	STAGE(4);
	GPU_CHECK_LAUNCH();
}
#undef STAGE

static void enqueue_rebuild_ev(const gpu_sys *s, cudaStream_t st, cudaEvent_t *ev)
{
	enqueue_sort(s, st, ev);
	enqueue_list(s, st, ev);
}

void gpu_enqueue_rebuild(const gpu_sys *s, cudaStream_t st)
{
	enqueue_rebuild_ev(s, st, NULL);
}

/*
 * The rebuild in two parts, each kernel guarded by the request, so that a
 * graph can put the sort in a conditional node and launch the list build
 * in every step (k_build_list says why).
 */
void gpu_enqueue_rebuild_sort(const gpu_sys *s, cudaStream_t st)
{
	enqueue_sort(s, st, NULL);
}

void gpu_enqueue_rebuild_list(const gpu_sys *s, cudaStream_t st)
{
	enqueue_list(s, st, NULL);
}

/* Times the stages of one forced rebuild: bin, scan, sort, list (ms). */
void gpu_time_rebuild(const gpu_sys *s, cudaStream_t st, double ms[4])
{
	cudaEvent_t ev[5];
	int k;

	for (k = 0; k < 5; k++)
		GPU_CHECK(cudaEventCreate(&ev[k]));
	k_request_rebuild<<<1, 1, 0, st>>>(*s);
	enqueue_rebuild_ev(s, st, ev);
	GPU_CHECK(cudaEventSynchronize(ev[4]));
	for (k = 0; k < 4; k++) {
		float t;

		cudaEventElapsedTime(&t, ev[k], ev[k + 1]);
		ms[k] = t;
	}
	for (k = 0; k < 5; k++)
		cudaEventDestroy(ev[k]);
}

void gpu_enqueue_force_rebuild(const gpu_sys *s, cudaStream_t st)
{
	k_request_rebuild<<<1, 1, 0, st>>>(*s);
	/* the counts, which the scan zeroes, after an allocation or a halt */
	k_zero_counts<<<(rb_nsub(*s) + 255) / 256, 256, 0, st>>>(*s);
	gpu_enqueue_rebuild(s, st);
}
