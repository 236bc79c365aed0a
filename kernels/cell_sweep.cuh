/*
 * cell_sweep.cuh - one warp sweeps the 27-cell neighbourhood of one cell
 * with candidate positions staged in shared memory. Used by the neighbour
 * build (GPU_SWEEP_LIST: append j within rc + skin) and by the shared and
 * hybrid force strategies (GPU_SWEEP_FORCE: forces from staged positions,
 * no neighbour list). Requires cells of edge >= rc + skin built at the last
 * rebuild (particles have moved less than skin/2 since).
 *
 * Shared layout: per warp, SoA arrays of 32 doubles: x, y, z (and the type
 * for mixtures, forces only). Each lane writes its own word (no
 * conflicts); in the compute loop every lane reads the same word (a
 * broadcast), so the layout is conflict-free.
 *
 * The list test is in double, so the list is the CPU's set up to pairs
 * within round-off of rlist (tests/gpu_backend.c allows 1e-4). A float
 * test with a double re-check inside a band of 1e-3 rlist^2 (fp64 runs at
 * half the fp32 rate) was measured slower on the H200: 1.96 ms against
 * 1.59 ms per build of 1M particles (bench/RESULTS.md), and was removed.
 */
#ifndef MD_CELL_SWEEP_CUH
#define MD_CELL_SWEEP_CUH

#include "gpu_common.cuh"

/*
 * The list rows are written straight to global memory. Collecting them in
 * shared memory first and writing them out coalesced was measured slower on
 * the H200 (3.3 ms against 1.6 ms per build of 1M particles: 66 KB of
 * shared memory per block cut the occupancy), and was removed.
 */

template <bool TYPED, int MODE>
static __device__ __forceinline__ void gpu_cell_sweep(const gpu_sys &s, int c,
						      int eflag)
{
	__shared__ double sx[GPU_WARPS_PER_CELL_BLOCK][32];
	__shared__ double sy[GPU_WARPS_PER_CELL_BLOCK][32];
	__shared__ double sz[GPU_WARPS_PER_CELL_BLOCK][32];
	__shared__ double sw[GPU_WARPS_PER_CELL_BLOCK][32];	/* type */
	const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
	int cc[3], lo[3], hi[3], d;
	const int first = s.cell_start[c], last = s.cell_start[c + 1];

	gpu_cell_coords(s, c, cc);
	for (d = 0; d < 3; d++) {	/* no duplicate cells when nc < 3 */
		lo[d] = s.nc[d] >= 3 ? -1 : 0;
		hi[d] = s.nc[d] >= 2 ? 1 : 0;
	}
	for (int base = first; base < last; base += 32) {
		const int i = base + lane;
		const bool act = i < last;
		const double4_32a xi = s.x[act ? i : first];
		float3 f = make_float3(0.f, 0.f, 0.f);
		float e = 0.f, w = 0.f;
		int cnt = 0;
		int *row = s.nl + (size_t)(act ? i : 0) * s.stride;

		for (int dz = lo[2]; dz <= hi[2]; dz++)
		for (int dy = lo[1]; dy <= hi[1]; dy++)
		for (int dx = lo[0]; dx <= hi[0]; dx++) {
			int nx = (cc[0] + dx + s.nc[0]) % s.nc[0];
			int ny = (cc[1] + dy + s.nc[1]) % s.nc[1];
			int nz = (cc[2] + dz + s.nc[2]) % s.nc[2];
			int cj = (nz * s.nc[1] + ny) * s.nc[0] + nx;
			int js = s.cell_start[cj], je = s.cell_start[cj + 1];
			/* list entries carry the cell offset (gpu_common.cuh) */
			const int code = ((dx + 1) + 3 * (dy + 1) + 9 * (dz + 1))
					 << GPU_NL_SHIFT_BITS;

			for (int t = js; t < je; t += 32) {
				int m = min(32, je - t);

				__syncwarp();
				if (lane < m) {
					double4_32a p = s.x[t + lane];

					sx[warp][lane] = p.x;
					sy[warp][lane] = p.y;
					sz[warp][lane] = p.z;
					if (MODE == GPU_SWEEP_FORCE && TYPED)
						sw[warp][lane] = p.w;
				}
				__syncwarp();
				if (!act)
					continue;
				for (int k = 0; k < m; k++) {
					int j = t + k;

					if (j == i)
						continue;
					if (MODE == GPU_SWEEP_LIST) {
						double rx = gpu_min_image(xi.x - sx[warp][k], s.dbox[0], s.dibox[0]);
						double ry = gpu_min_image(xi.y - sy[warp][k], s.dbox[1], s.dibox[1]);
						double rz = gpu_min_image(xi.z - sz[warp][k], s.dbox[2], s.dibox[2]);

						if (rx * rx + ry * ry + rz * rz < s.rlist2) {
							if (cnt < s.stride)
								row[cnt] = j | code;
							cnt++;
						}
					} else {
						gpu_pair_accum<TYPED>(s, xi, sx[warp][k], sy[warp][k],
								      sz[warp][k],
								      TYPED ? sw[warp][k] : 0.0,
								      f, e, w);
					}
				}
			}
		}
		if (MODE == GPU_SWEEP_LIST) {
			if (act) {
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
