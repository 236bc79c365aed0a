/*
 * persist.cu - the persistent NVE step kernel: many middle steps of the
 * register strategy (force, kick and drift: GPU_F_KICK_DRIFT) and the
 * neighbour rebuilds between them in ONE cooperative launch, with a grid
 * barrier where a step graph has a kernel boundary.
 *
 * Why: at 32,000 particles a step's force launch works for about 13 us,
 * while the graph's kernel and conditional nodes and the rebuild's eight
 * launches add their latency on top (bench/RESULTS.md). Here a step is the
 * force phase and one grid barrier; a rebuild is the phases of
 * rebuild_phases.cuh with a barrier after each.
 *
 * Same results as the graph path: the same device functions in the same
 * order (the register path of register_path.cuh, the rebuild phases), the
 * fixed-point buffers swapped after every step as the parity flips there.
 * The launch is cooperative, so every block is resident and the barrier
 * cannot deadlock; its grid is at most what fits (gpu_persist_grid()).
 *
 * Status: the halt is read (one thread per block, shared with the block)
 * right after a barrier, and nothing sets it between that barrier and the
 * read, so all blocks take the same branch. A rebuild request is not like
 * that: a block that has read the flag goes on to the force phase, where
 * any particle may request the next rebuild while a slower block has not
 * read the flag yet. So requests go to three slots by step (st->req): step
 * k reads slot k mod 3, its force phase writes slot k + 1, and thread 0
 * clears slot k + 2 during step k (read by everyone at step k - 1, written
 * again only in step k + 1, both across a barrier). st->rebuild carries
 * the request in and out of the kernel for the graph path. A halt (blow-up
 * in the binning, list overflow) stops the kernel at the next barrier: the
 * host then finds the halt as after a halted graph (gpu_backend.cu:
 * recover(), which requests the rebuild again). The neighbour positions
 * are read with plain loads, not __ldg: this kernel writes them.
 */
#include <cooperative_groups.h>
#include "gpu_common.cuh"
#include "rebuild_phases.cuh"
#include "register_path.cuh"

namespace cg = cooperative_groups;

#ifndef GPU_PERSIST_BLOCK
#define GPU_PERSIST_BLOCK 1024
#endif
/* groups of the list phase per block, and their shared memory (dynamic) */
#define PERSIST_GROUPS (GPU_PERSIST_BLOCK / (GPU_LIST_WARPS * 32))
#define PERSIST_SMEM (PERSIST_GROUPS * sizeof(gpu_list_smem))
/* particles per list sweep (list_build.cuh): 2 here, within the
 * kernel's 64 registers (GPU_LIST_R = 4 spilled 16 to 56 bytes with the
 * quarter build). With the octant build (about 4 particles an octant at
 * 32,000, skin 0.7) 2 spills less than 1 in the instance LJ runs
 * (<false, false, 4>: 24 against 40 bytes; <false, true, 4> 104 against
 * 96) and ran 32,000 particles at 64,154 against 63,634 steps/s (eleventh
 * session) */
#define GPU_PERSIST_LIST_R 2
static_assert(GPU_PERSIST_BLOCK % (GPU_LIST_WARPS * 32) == 0 && PERSIST_GROUPS <= 15,
	      "whole list groups, a barrier id each (1..15)");
/* shared memory is this kernel's L1 too: beyond the 196 KiB carve-out
 * (with 1 KiB reserved and the static block flag) the next is 228 KiB,
 * which leaves its force phase 28 KiB of L1 instead of 60 (32,000
 * particles 5% slower, list_build.cuh: GPU_LIST_IDX) */
static_assert(PERSIST_SMEM <= 194 * 1024, "the persistent block's shared memory");

template <int SMALL>
static __device__ void persist_rebuild(const gpu_sys &s, cg::grid_group &g,
				       int t, int nt)
{
	extern __shared__ gpu_list_smem psm[];
	const int grp = threadIdx.x / (GPU_LIST_WARPS * 32);

	rb_zero_counts(s, t, nt);	/* redundant: rebuild_phases.cuh */
	g.sync();
	rb_bin<true>(s, t, nt);
	g.sync();
	if (block_flag(&s.st->halt))
		return;
	rb_scan_chunks_phase(s, t >> 5, nt >> 5);
	g.sync();
	if (t < 32)
		rb_scan_top(s);
	g.sync();
	rb_scan_add(s, t, nt);
	g.sync();
	rb_scatter<false, false>(s, t, nt);
	g.sync();
	/* every lane stores (list_store: the store predicated on the hit
	 * spilled more here) */
	rb_list<SMALL, GPU_PERSIST_LIST_R, false, true>(
		s, blockIdx.x * PERSIST_GROUPS + grp, gridDim.x * PERSIST_GROUPS,
		threadIdx.x % (GPU_LIST_WARPS * 32), psm[grp], 1 + grp, true, true);
	g.sync();
	if (t == 0 && !flag_set(&s.st->halt))	/* the flag: slots (below) */
		rb_built(s);
}

/* nsteps middle steps from the buffers s.xq (read) and s.xq_w (written) */
template <bool TYPED, bool FC, int BATCH>
__global__ void __launch_bounds__(GPU_PERSIST_BLOCK)
k_persist_nve(gpu_sys s, int tpp, int nsteps)
{
	cg::grid_group g = cg::this_grid();
	const int t = blockIdx.x * blockDim.x + threadIdx.x;
	const int nt = gridDim.x * blockDim.x;

	if (t == 0) {	/* the pending request is step 0's slot */
		s.st->req[0] = s.st->rebuild;
		s.st->req[1] = 0;
		s.st->req[2] = 0;
	}
	g.sync();
	for (int k = 0; k < nsteps; k++) {
		const int slot = k % 3;
		int4 *tmp;

		if (block_flag(&s.st->halt))
			return;
		if (block_flag(&s.st->req[slot])) {
			if (s.small_box)
				persist_rebuild<1>(s, g, t, nt);
			else
				persist_rebuild<0>(s, g, t, nt);
			if (block_flag(&s.st->halt))
				return;
		}
		/* this step's requests go to the next slot */
		s.req = &s.st->req[(slot + 1) % 3];
		if (t == 0) {
			s.st->req[(slot + 2) % 3] = 0;	/* read at step k - 1 */
			count_since(s);
			s.st->step++;
		}
		gpu_register_path<TYPED, GPU_F_KICK_DRIFT, BATCH, false, FC,
				  false, false, false, false>(s, tpp, 0, t / tpp, nt / tpp);
		tmp = s.xq;
		s.xq = s.xq_w;
		s.xq_w = tmp;
		g.sync();
	}
	/* the graph path's flag: the request for the next step (after a halt
	 * the kernel returned above without it: recover() requests the
	 * rebuild itself, and a blow-up ends the run) */
	if (t == 0)
		s.st->rebuild = flag_set(&s.st->req[nsteps % 3]);
}

/* The instance for the system and tpp (as gpu_force_register picks). */
template <bool TYPED, bool FC>
static const void *persist_fn_b(int tpp)
{
	return gpu_reg_batch(tpp) == 4 ? (const void *)k_persist_nve<TYPED, FC, 4>
				       : (const void *)k_persist_nve<TYPED, FC, 2>;
}

static const void *persist_fn(const gpu_sys *s, int tpp)
{
	if (s->ntypes > 1)
		return persist_fn_b<true, true>(tpp);
	return gpu_fc_free(s) ? persist_fn_b<false, false>(tpp)
			      : persist_fn_b<false, true>(tpp);
}

/* Blocks of the cooperative launch: all resident, no more than the
 * particles' lane groups need; 0 when the device cannot launch it (GPUs
 * with less shared memory per block, about 100 KB on consumer parts, or
 * without cooperative launch run the steps in graphs). */
int gpu_persist_grid(const gpu_sys *s, int tpp)
{
	const long need = ((long)s->n * tpp + GPU_PERSIST_BLOCK - 1) / GPU_PERSIST_BLOCK;
	const long fit = gpu_coop_resident(persist_fn(s, tpp), GPU_PERSIST_BLOCK, PERSIST_SMEM);

	return (int)(need < fit ? need : fit);
}

/* Shared memory of a persistent block: its groups' list-build staging. */
size_t gpu_persist_smem(void)
{
	return PERSIST_SMEM;
}

/*
 * Lanes per particle for the persistent kernel: the force launch's tpp
 * (what the autotuner timed), at least 4, doubled, up to 32, while the doubled grid
 * still has a block per particle group on every SM at once: one
 * 1024-thread block per SM runs (190 KiB of shared memory each), and a
 * grid of fewer blocks than SMs leaves SMs idle. Measured on the H200
 * (bench/RESULTS.md, seventh session; steps/s at skin 0.7): 4,000
 * particles tpp 8 91,994, 16 109,300, 32 118,771 (125 blocks); 16,384
 * tpp 4 67,640 (64 blocks), 8 87,946 (128), 16 77,252 (grid-stride
 * over 132); 32,000 tpp 4 65,383 (125), 8 60,296. The floor of 4: the
 * register strategy's own kernel (vector loads, tenth session) times best
 * at tpp 1 from 131,072 particles, and the persistent kernel (strided
 * order, at most 4 per lane) ran 131,072 at 13,789 steps/s with tpp 1
 * against 18,694 with 4.
 */
int gpu_persist_tpp(const gpu_sys *s, int tpp)
{
	const int sms = gpu_sm_count();

	tpp = tpp < 4 ? 4 : tpp;
	while (tpp < 32 && (long)s->n * tpp * 2 <= (long)sms * GPU_PERSIST_BLOCK)
		tpp *= 2;
	return tpp;
}

/* nsteps middle steps in one launch of `grid` blocks (gpu_persist_grid()). */
void gpu_enqueue_persist(const gpu_sys *s, int tpp, int nsteps, int grid,
			 cudaStream_t st)
{
	gpu_sys a = *s;
	void *args[] = { &a, &tpp, &nsteps };

	GPU_CHECK(cudaLaunchCooperativeKernel(persist_fn(s, tpp), grid,
					      GPU_PERSIST_BLOCK, args,
					      PERSIST_SMEM, st));
}
