/*
 * cell_sweep.cuh - one warp sweeps the 27-cell neighbourhood of one cell
 * with candidate positions staged in shared memory. Used by the neighbour
 * build (GPU_SWEEP_LIST: append j within rc + skin) and by the shared and
 * hybrid force strategies (GPU_SWEEP_FORCE: forces from staged positions,
 * no neighbour list). Requires cells of edge >= rc + skin built at the last
 * rebuild (particles have moved less than skin/2 since).
 *
 * Candidates come from the fixed-point positions xq (type in w;
 * gpu_common.cuh), so the pair loop has no fp64 and no periodic shift.
 * The force mode stages them as they are (gpu_sep_q() per pair). The list
 * mode stages float positions relative to the cell's first particle (the
 * wrapped integer difference, converted once per staged candidate), so
 * that its candidate test is 3 float subtractions and the squared
 * distance; the ~3e-7 rounding of those coordinates is covered by the
 * test's margin below. Those coordinates lie less than 2 cell edges from
 * the reference (at a build every particle is in its cell), so with 4 or
 * more cells per edge their integer differences do not wrap and the float
 * difference is the minimum image; SMALL (s.small_box: fewer along some
 * edge) adds the float minimum image to it. The double minimum image in the loop (16 fp64
 * operations per candidate) made the build fp64-bound: 1.59 ms per build
 * of 1M particles before (bench/RESULTS.md).
 *
 * Shared layout: per warp, 32 int4 (force) or float4 (list). Each lane writes its own 16 bytes
 * (a quarter-warp per wavefront, no conflicts); in the loop every lane
 * reads the same element (a broadcast), so the layout is conflict-free.
 *
 * The list test compares with rlist^2 (1 + 1e-5) in float: a superset of
 * the pairs within rlist despite the float rounding (~1e-6 of the
 * separation), so the list is the CPU's plus pairs within 1.4e-5 of rlist
 * (tests/gpu_backend.c allows 1e-4). Extra pairs cost nothing in
 * accuracy: the force kernels test rc.
 */
#ifndef MD_CELL_SWEEP_CUH
#define MD_CELL_SWEEP_CUH

#include "gpu_common.cuh"

/*
 * List rows: each lane collects its particle's entries in shared memory, a
 * ring of 16 slots (slot k of lane l at [k][l]: the lanes' stores hit 32
 * different banks), and writes them 8 at a time, one 32-byte sector.
 * Single 4-byte stores made the build L2-bound: 82 million store requests,
 * one sector each, per build of 1M particles (ncu: L2 throughput 70%, DRAM
 * 9%; bench/RESULTS.md). Staging whole rows (66 KB per block) was slower
 * still: it cut the occupancy.
 *
 * The candidate loop is issue-bound at 1M particles (ncu: 0.9 instructions
 * issued per scheduler and cycle), so it is kept lean: candidates go in
 * groups of GPU_LIST_GROUP, unrolled; each entry is stored in the next
 * free slot whether or not it is a hit (a miss is overwritten later) and
 * the count advances by the hit; whether a sector is complete is asked once per
 * group (a group adds at most 8 entries, so at most one sector completes,
 * and the 16-slot ring still holds it). bench/RESULTS.md has the
 * steps from 50 instructions per candidate down.
 */
#define GPU_LIST_GROUP 4
static_assert(32 % GPU_LIST_GROUP == 0 && GPU_LIST_GROUP <= 8,
	      "a group stays inside the 32 staged candidates and adds at most 8 entries");

/* Writes 8 entries of a lane's ring (from slot `from`) as one sector: one
 * chunk of the list layout (gpu_common.cuh). */
static __device__ __forceinline__ void list_flush(int *dst, const int *slots,
						  int from)
{
	const int *q = slots + from * 32;
	int4 *d = (int4 *)dst;

	d[0] = make_int4(q[0], q[32], q[64], q[96]);
	d[1] = make_int4(q[128], q[160], q[192], q[224]);
}

template <bool TYPED, int MODE, int SMALL = 0>
static __device__ __forceinline__ void gpu_cell_sweep(const gpu_sys &s, int c,
						      int eflag)
{
	__shared__ int4 sp[GPU_WARPS_PER_CELL_BLOCK][32];
	float4 *spf = reinterpret_cast<float4 *>(sp[threadIdx.x >> 5]);	/* list mode */
	/* list mode: each lane's ring of entries */
	__shared__ int sbuf[GPU_WARPS_PER_CELL_BLOCK][16][32];
	const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
	int cc[3], lo[3], hi[3], d;
	const int first = s.cell_start[c], last = s.cell_start[c + 1];
	int *slots = &sbuf[warp][0][lane];

	gpu_cell_coords(s, c, cc);
	for (d = 0; d < 3; d++) {	/* no duplicate cells when nc < 3 */
		lo[d] = s.nc[d] >= 3 ? -1 : 0;
		hi[d] = s.nc[d] >= 2 ? 1 : 0;
	}
	for (int base = first; base < last; base += 32) {
		const int i = base + lane;
		const bool act = i < last;
		const int4 ci = s.xq[act ? i : first];
		const int4 qref = s.xq[first];
		const float3 pi = gpu_sep_q(s, ci, qref);
		float3 f = make_float3(0.f, 0.f, 0.f);
		float e = 0.f, w = 0.f;
		int cnt = 0;
		int *row = s.nl + gpu_nl_row(s.stride, act ? i : 0);

		for (int dz = lo[2]; dz <= hi[2]; dz++)
		for (int dy = lo[1]; dy <= hi[1]; dy++)
		for (int dx = lo[0]; dx <= hi[0]; dx++) {
			int nx = (cc[0] + dx + s.nc[0]) % s.nc[0];
			int ny = (cc[1] + dy + s.nc[1]) % s.nc[1];
			int nz = (cc[2] + dz + s.nc[2]) % s.nc[2];
			int cj = (nz * s.nc[1] + ny) * s.nc[0] + nx;
			int js = s.cell_start[cj], je = s.cell_start[cj + 1];

			for (int t = js; t < je; t += 32) {
				int m = min(32, je - t);

				__syncwarp();
				if (lane < m && MODE == GPU_SWEEP_FORCE)
					sp[warp][lane] = s.xq[t + lane];
				if (lane < m && MODE == GPU_SWEEP_LIST) {
					const float3 p = gpu_sep_q(s, s.xq[t + lane], qref);

					spf[lane] = make_float4(p.x, p.y, p.z, 0.f);
				}
				__syncwarp();
				if (!act)
					continue;
				if (MODE == GPU_SWEEP_FORCE) {
					for (int k = 0; k < m; k++) {
						float3 r;

						if (t + k == i)
							continue;
						r = gpu_sep_q(s, ci, sp[warp][k]);
						gpu_pair_eval<TYPED>(s, r.x, r.y, r.z, ci.w,
								     sp[warp][k].w, f, e, w);
					}
				} else {
					/* list: groups of candidates; beyond m they are stale
					 * slots of sp (k < 32), never hits */
					for (int k0 = 0; k0 < m; k0 += GPU_LIST_GROUP) {
						const int c0 = cnt;

#pragma unroll
						for (int u = 0; u < GPU_LIST_GROUP; u++) {
							const int k = k0 + u, j = t + k;
							const float4 p = spf[k];
							float rx = pi.x - p.x, ry = pi.y - p.y,
							      rz = pi.z - p.z;

							if (SMALL) {
								rx -= s.box[0] * rintf(rx * s.ibox[0]);
								ry -= s.box[1] * rintf(ry * s.ibox[1]);
								rz -= s.box[2] * rintf(rz * s.ibox[2]);
							}
							/* & not &&: no branch around the test */
							const bool hit = (j != i) & (k < m) &
								(rx * rx + ry * ry + rz * rz < s.rlist2f);

							slots[(cnt & 15) * 32] = j;
							cnt += hit;
						}
						/* a sector complete? */
						if ((cnt ^ c0) & ~7 && c0 < s.stride)
							list_flush(row + gpu_nl_off(c0 & ~7), slots, c0 & 8);
					}
				}
			}
		}
		if (MODE == GPU_SWEEP_LIST) {
			if (act) {
				/* the partial last sector; rows hold a multiple of 32 */
				if ((cnt & 7) && cnt < s.stride)
					list_flush(row + gpu_nl_off(cnt & ~7), slots, cnt & 8);
				s.nn[i] = cnt;
				if (cnt > s.stride) {
					atomicMax(&s.st->max_nn, cnt);
					s.st->overflow = 1;
					s.st->halt = 1;
				}
			}
		} else {
			if (act)
				s.f[i] = make_float4(f.x, f.y, f.z, 0.f);
			if (eflag)
				gpu_acc_thermo(s, e, w);
		}
	}
}

#endif
