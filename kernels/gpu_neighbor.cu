/*
 * gpu_neighbor.cu - cell list, spatial sort and neighbour list on the GPU.
 *
 * Every kernel here first reads the status block and returns at once unless
 * a rebuild is due (decided on the GPU by the integrator): the whole
 * sequence is enqueued (or captured in the step graph) every step and costs
 * only a few empty launches when no rebuild is needed.
 *
 * Sequence: zero counts -> bin (wrap into the box, count images, detect
 * blow-ups, cell index, rank in cell) -> exclusive scan of the counts ->
 * scatter into cell order -> copy back (and the fixed-point
 * positions) -> neighbour list (warp per cell,
 * staged in shared memory) -> done. Order within a cell follows atomics,
 * so GPU runs are reproducible to round-off, not bit-for-bit.
 */
#include "gpu_common.cuh"
#include "cell_sweep.cuh"

static __device__ __forceinline__ bool rebuild_due(const gpu_sys &s)
{
	const volatile gpu_status *st = s.st;

	return st->rebuild && !st->halt;
}

__global__ void k_request_rebuild(gpu_sys s)
{
	s.st->rebuild = 1;
}

__global__ void k_zero_counts(gpu_sys s)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;

	if (!rebuild_due(s))
		return;
	if (c < s.ncell)
		s.cell_count[c] = 0;
}

__global__ void k_bin(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	double x[3];
	int im[3], cc[3], d;
	double4_32a xi;
	int4 ii;

	if (!rebuild_due(s) || i >= s.n)
		return;
	xi = s.x[i];
	ii = s.img[i];
	x[0] = xi.x; x[1] = xi.y; x[2] = xi.z;
	im[0] = ii.x; im[1] = ii.y; im[2] = ii.z;
	for (d = 0; d < 3; d++) {
		double sh = floor(x[d] * s.dibox[d]);

		if (!(fabs(sh) <= 1.0)) {	/* NaN or > one box outside */
			if (atomicExch(&s.st->blowup, 1) == 0)
				s.st->bad_index = i;
			s.st->halt = 1;
			return;
		}
		x[d] -= sh * s.dbox[d];
		if (x[d] >= s.dbox[d]) {
			x[d] -= s.dbox[d];
			sh += 1.0;
		}
		im[d] += (int)sh;
		cc[d] = gpu_cell_of(s, x[d], d);	/* the cell of the wrapped position */
	}
	s.x[i] = make_double4_32a(x[0], x[1], x[2], xi.w);
	s.img[i] = make_int4(im[0], im[1], im[2], 0);
	{
		int c = (cc[2] * s.nc[1] + cc[1]) * s.nc[0] + cc[0];

		s.cell[i] = c;
		s.slot[i] = atomicAdd(&s.cell_count[c], 1);
	}
}

/* Inclusive scan of one value per lane across the warp (shuffles only). */
static __device__ __forceinline__ int warp_scan_incl(int v)
{
	int lane = threadIdx.x & 31, k;

	for (k = 1; k < 32; k <<= 1) {	/* a select, not a branch */
		int u = __shfl_up_sync(0xffffffffu, v, k);

		v += lane >= k ? u : 0;
	}
	return v;
}

/*
 * Exclusive scan of in[0, count) into out (in == out allowed: each lane
 * reads its element before writing it), one warp, 32 elements per pass
 * with the carry in a register; returns the total. No shared memory and
 * no block barrier: compute-sanitizer synccheck flagged the barrier of a
 * block-wide scan inside the conditional graph node.
 */
static __device__ __forceinline__ int warp_scan_excl(const int *in, int *out,
						     int count)
{
	const int lane = threadIdx.x & 31;
	int carry = 0;

	for (int base = 0; base < count; base += 32) {
		int k = base + lane;
		int v = k < count ? in[k] : 0;
		int incl = warp_scan_incl(v);

		if (k < count)
			out[k] = carry + incl - v;
		carry += __shfl_sync(0xffffffffu, incl, 31);
	}
	return carry;
}

/* One warp per chunk of GPU_SCAN_CELLS cells: scan, chunk total saved. */
__global__ void k_scan_blocks(gpu_sys s)
{
	const int c0 = blockIdx.x * GPU_SCAN_CELLS;
	int tot;

	if (!rebuild_due(s))
		return;
	tot = warp_scan_excl(s.cell_count + c0, s.cell_start + c0,
			     min(GPU_SCAN_CELLS, s.ncell - c0));
	if ((threadIdx.x & 31) == 0)
		s.block_sums[blockIdx.x] = tot;
}

/* One warp: exclusive scan of the chunk totals in place. */
__global__ void k_scan_top(gpu_sys s, int nblocks)
{
	if (!rebuild_due(s))
		return;
	warp_scan_excl(s.block_sums, s.block_sums, nblocks);
}

__global__ void k_scan_add(gpu_sys s)
{
	int c = blockIdx.x * GPU_SCAN_CELLS + threadIdx.x;

	if (!rebuild_due(s))
		return;
	if (c < s.ncell)
		s.cell_start[c] += s.block_sums[blockIdx.x];
	if (c == 0)
		s.cell_start[s.ncell] = s.n;
}

__global__ void k_scatter(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, k;

	if (!rebuild_due(s) || i >= s.n)
		return;
	k = s.cell_start[s.cell[i]] + s.slot[i];
	s.xt[k] = s.x[i];
	s.vt[k] = s.v[i];
	s.imgt[k] = s.img[i];
	s.idt[k] = s.id[i];
}

__global__ void k_copy_back(gpu_sys s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	double4_32a x;

	if (!rebuild_due(s) || i >= s.n)
		return;
	x = s.xt[i];
	s.x[i] = x;
	s.x0[i] = x;
	s.xq[i] = gpu_xq(s, x);
	s.v[i] = s.vt[i];
	s.img[i] = s.imgt[i];
	s.id[i] = s.idt[i];
}

/* SMALL = s.small_box, a template so that the candidate loop has no test */
template <int SMALL>
__global__ void __launch_bounds__(GPU_WARPS_PER_CELL_BLOCK * 32)
k_build_list(gpu_sys s)
{
	int c = blockIdx.x * GPU_WARPS_PER_CELL_BLOCK + (threadIdx.x >> 5);

	if (!rebuild_due(s) || c >= s.ncell)
		return;
	gpu_cell_sweep<false, GPU_SWEEP_LIST, SMALL>(s, c, 0);
}

__global__ void k_rebuild_done(gpu_sys s)
{
	if (!rebuild_due(s))
		return;
	s.st->rebuild = 0;
	s.st->since = 0;
	s.st->builds++;
}

int gpu_cell_blocks(const gpu_sys *s)
{
	return (s->ncell + GPU_WARPS_PER_CELL_BLOCK - 1) / GPU_WARPS_PER_CELL_BLOCK;
}

/* ev: NULL, or GPU_REBUILD_STAGES + 1 events recorded around the stages */
static void enqueue_rebuild_ev(const gpu_sys *s, cudaStream_t st, cudaEvent_t *ev)
{
	int nb = (s->n + 255) / 256;
	int cb = (s->ncell + 255) / 256;
	int sb = (s->ncell + GPU_SCAN_CELLS - 1) / GPU_SCAN_CELLS;

#define STAGE(k) do { if (ev) GPU_CHECK(cudaEventRecord(ev[k], st)); } while (0)
	STAGE(0);
	k_zero_counts<<<cb, 256, 0, st>>>(*s);
	k_bin<<<nb, 256, 0, st>>>(*s);
	STAGE(1);
	k_scan_blocks<<<sb, 32, 0, st>>>(*s);
	k_scan_top<<<1, 32, 0, st>>>(*s, sb);
	k_scan_add<<<sb, GPU_SCAN_CELLS, 0, st>>>(*s);
	STAGE(2);
	k_scatter<<<nb, 256, 0, st>>>(*s);
	k_copy_back<<<nb, 256, 0, st>>>(*s);
	STAGE(3);
	if (s->small_box)
		k_build_list<1><<<gpu_cell_blocks(s), GPU_WARPS_PER_CELL_BLOCK * 32, 0, st>>>(*s);
	else
		k_build_list<0><<<gpu_cell_blocks(s), GPU_WARPS_PER_CELL_BLOCK * 32, 0, st>>>(*s);
	STAGE(4);
	k_rebuild_done<<<1, 1, 0, st>>>(*s);
#undef STAGE
	GPU_CHECK_LAUNCH();
}

void gpu_enqueue_rebuild(const gpu_sys *s, cudaStream_t st)
{
	enqueue_rebuild_ev(s, st, NULL);
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
	gpu_enqueue_rebuild(s, st);
}
