/*
 * cell_sweep.cuh - one warp sweeps the 27-cell neighbourhood of one cell
 * with candidate positions staged in shared memory. Used by the neighbour
 * build (GPU_SWEEP_LIST: append j within rc + skin) and by the shared and
 * hybrid force strategies (GPU_SWEEP_FORCE: forces from staged positions,
 * no neighbour list). Requires cells of edge >= rc + skin built at the last
 * rebuild (particles have moved less than skin/2 since).
 *
 * Shared layout: per warp, SoA arrays of 32 words: float x, y, z for the
 * list test, double x, y, z (and the type for mixtures) for forces. Each
 * lane writes its own word (no conflicts); in the compute loop every lane
 * reads the same word (a broadcast), so the layout is conflict-free.
 *
 * The list test runs in float: the build is ~500 candidates per particle
 * and fp64 runs at half the fp32 rate on the H200, which made the double
 * test the bound of the build. Float coordinates and the float box edge L
 * are each off by up to L * 2^-24, so r^2 is off by far less than
 * GPU_LIST_BAND * rlist^2 for any box that fits in memory (L = 500: about
 * 1e-4 in r, 6e-4 in r^2 against a band of 8e-3 at rlist = 2.8); candidates
 * inside the band are decided again in double from the double positions.
 * The list is therefore exactly the set of pairs with r < rlist in double,
 * as on the CPU.
 */
#ifndef MD_CELL_SWEEP_CUH
#define MD_CELL_SWEEP_CUH

#include "gpu_common.cuh"

#define GPU_LIST_BAND 1e-3	/* relative band of r^2 re-decided in double */

/*
 * The list rows are written straight to global memory. Collecting them in
 * shared memory first and writing them out coalesced was measured slower on
 * the H200 (3.3 ms against 1.6 ms per build of 1M particles: 66 KB of
 * shared memory per block cut the occupancy), and was removed.
 */

/* Is j (float separation r2f) within rlist of particle i at xi? */
static __device__ __forceinline__ bool gpu_list_test(const gpu_sys &s,
						     const double4_32a &xi, int j,
						     float r2f, float lo, float hi)
{
	double4_32a xj;
	double rx, ry, rz;

	if (r2f < lo)
		return true;
	if (r2f >= hi)
		return false;
	xj = s.x[j];			/* rare: within the band */
	rx = gpu_min_image(xi.x - xj.x, s.dbox[0], s.dibox[0]);
	ry = gpu_min_image(xi.y - xj.y, s.dbox[1], s.dibox[1]);
	rz = gpu_min_image(xi.z - xj.z, s.dbox[2], s.dibox[2]);
	return rx * rx + ry * ry + rz * rz < s.rlist2;
}

template <bool TYPED, int MODE>
static __device__ __forceinline__ void gpu_cell_sweep(const gpu_sys &s, int c,
						      int eflag)
{
	__shared__ float fx[GPU_WARPS_PER_CELL_BLOCK][32];
	__shared__ float fy[GPU_WARPS_PER_CELL_BLOCK][32];
	__shared__ float fz[GPU_WARPS_PER_CELL_BLOCK][32];
	__shared__ double sx[GPU_WARPS_PER_CELL_BLOCK][32];
	__shared__ double sy[GPU_WARPS_PER_CELL_BLOCK][32];
	__shared__ double sz[GPU_WARPS_PER_CELL_BLOCK][32];
	__shared__ double sw[GPU_WARPS_PER_CELL_BLOCK][32];	/* type */
	const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
	const float lo2 = (float)(s.rlist2 * (1.0 - GPU_LIST_BAND));
	const float hi2 = (float)(s.rlist2 * (1.0 + GPU_LIST_BAND));
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
		const float xf = (float)xi.x, yf = (float)xi.y, zf = (float)xi.z;
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

			for (int t = js; t < je; t += 32) {
				int m = min(32, je - t);

				__syncwarp();
				if (lane < m) {
					double4_32a p = s.x[t + lane];

					if (MODE == GPU_SWEEP_LIST) {
						fx[warp][lane] = (float)p.x;
						fy[warp][lane] = (float)p.y;
						fz[warp][lane] = (float)p.z;
					} else {
						sx[warp][lane] = p.x;
						sy[warp][lane] = p.y;
						sz[warp][lane] = p.z;
						if (TYPED)
							sw[warp][lane] = p.w;
					}
				}
				__syncwarp();
				if (!act)
					continue;
				for (int k = 0; k < m; k++) {
					int j = t + k;

					if (j == i)
						continue;
					if (MODE == GPU_SWEEP_LIST) {
						float rx = xf - fx[warp][k];
						float ry = yf - fy[warp][k];
						float rz = zf - fz[warp][k];

						rx -= s.box[0] * rintf(rx * s.ibox[0]);
						ry -= s.box[1] * rintf(ry * s.ibox[1]);
						rz -= s.box[2] * rintf(rz * s.ibox[2]);
						if (gpu_list_test(s, xi, j, rx * rx + ry * ry + rz * rz,
								  lo2, hi2)) {
							if (cnt < s.stride)
								row[cnt] = j;
							cnt++;
						}
					} else {
						gpu_pair_accum<TYPED>(s, xi, sx[warp][k], sy[warp][k],
								      sz[warp][k], sw[warp][k],
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
