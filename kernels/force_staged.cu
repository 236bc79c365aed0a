/*
 * force_staged.cu - strategy `staged`: a block per cell stages the
 * positions of the cell's 27-cell neighbourhood in shared memory (the
 * list build's staging, list_build.cuh), then the cell's particles walk
 * their neighbour lists, whose entries are 16-bit indices into that staged
 * block (s.list16): every neighbour position comes from shared memory and
 * a list entry is 2 bytes instead of 4.
 *
 * Why: at 1M particles the register path's force kernel is bound by L1
 * traffic (84-88%: a 16-byte gather from global memory per pair, ncu in
 * bench/RESULTS.md) and reads 4 bytes of list per pair from DRAM.
 * Measured on the H200 (RESULTS, eighth session): slower than `register`
 * at every size, 37,071 against 65,053 steps/s at 32k, 1,634 against
 * 2,790 at 1M (force launch 0.39 to 0.45 ms against 0.17), 203 against
 * 364 at 8M. ncu at 1M: latency-bound (13 cycles per issued instruction,
 * 49% occupancy, L1 45%): each block waits for its 660 staged positions
 * (27 cells, each staged again by 27 blocks) before any pair, where the
 * register path's gathers hit L1 without a barrier. Kept as a measured
 * alternative in the strategy comparison; strategy = auto leaves it out.
 *
 * Lanes per particle: L = 128 / (particles in the cell), any count (a
 * cell of 24 gets 5 lanes each, 120 of 128 threads busy; a power of two
 * would leave 32 slots for 24 particles). Lane sub of a particle takes
 * entries sub, sub + L, ..., four at a time (their index loads in flight
 * together); the partial forces meet in shared memory and the particle's
 * first thread adds them in lane order (deterministic).
 *
 * Candidates are float positions relative to the cell's first particle
 * (gpu_hood_stage): the pair separation is their difference, exact to the
 * float rounding of each (~5e-7 at 2 cell edges), with the float minimum
 * image in small boxes (SMALL, as the list build). A neighbourhood larger
 * than GPU_STAGED_CAP reads the rest from global memory (BIG).
 */
#include "gpu_common.cuh"
#include "list_build.cuh"
#include "verlet_step.cuh"

#define GPU_STAGED_THREADS 128	/* 256 measured slower: 533 us at 1M */
#define GPU_STAGED_CAP 1536	/* staged candidates (24 KiB) */
#define GPU_STAGED_BATCH 4	/* entries per lane in flight together */
#define GPU_STAGED_MINB 8	/* blocks per SM (registers: 64) */

/* Candidate f of the neighbourhood: staged, or (BIG, f >= the cap) read
 * from global memory through the ranges js, pre. */
template <bool BIG>
static __device__ __forceinline__ float4 staged_cand(const gpu_sys &s,
						     const float4 *cand,
						     const int *js, const int *pre,
						     int ncj, const int4 &qref,
						     int f)
{
	if (!BIG || f < GPU_STAGED_CAP)
		return cand[f];
	int k = 0;

	while (k + 1 < ncj && pre[k + 1] <= f)
		k++;
	const int4 q = s.xq[js[k] + f - pre[k]];
	const float3 p = gpu_sep_q(s, q, qref);

	return make_float4(p.x, p.y, p.z, __int_as_float(q.w));
}

/*
 * Lane sub (of L) of particle i: its share of i's list, into f, e, w.
 * pi: i's staged-frame position, ti: its type.
 */
template <bool TYPED, bool EFLAG, bool FC, int SMALL, bool BIG>
static __device__ __forceinline__ void staged_walk(const gpu_sys &s, int i,
						   float3 pi, int ti, int sub,
						   int L, const float4 *cand,
						   const int *js, const int *pre,
						   int ncj, const int4 &qref,
						   float3 &f, float &e, float &w)
{
	const unsigned short *row =
		(const unsigned short *)s.nl + gpu_nl_row(s.stride, i);
	const int nn = s.nn[i];

	/* opaque to the compiler: it recomputed the row's 64-bit address
	 * for every entry (15 instructions) to save two registers */
	asm("" : "+l"(row));

	for (int k0 = sub; k0 < nn; k0 += GPU_STAGED_BATCH * L) {
		int fi[GPU_STAGED_BATCH];
		bool ok[GPU_STAGED_BATCH];

#pragma unroll
		for (int u = 0; u < GPU_STAGED_BATCH; u++) {
			const int k = k0 + u * L;

			ok[u] = k < nn;
			fi[u] = ok[u] ? __ldg(row + gpu_nl_off(k)) : 0;
		}
#pragma unroll
		for (int u = 0; u < GPU_STAGED_BATCH; u++) {
			const float4 q = staged_cand<BIG>(s, cand, js, pre, ncj,
							   qref, fi[u]);
			float dx = pi.x - q.x, dy = pi.y - q.y, dz = pi.z - q.z;

			if (SMALL) {
				dx -= s.box[0] * rintf(dx * s.ibox[0]);
				dy -= s.box[1] * rintf(dy * s.ibox[1]);
				dz -= s.box[2] * rintf(dz * s.ibox[2]);
			}
			gpu_pair_eval<TYPED, EFLAG, FC>(s, dx, dy, dz, ti,
							__float_as_int(q.w), f, e,
							w, ok[u]);
		}
	}
}

template <bool TYPED, bool FC, int OUT, int SMALL>
__global__ void __launch_bounds__(GPU_STAGED_THREADS, GPU_STAGED_MINB)
k_force_staged(gpu_sys s)
{
	__shared__ float4 cand[GPU_STAGED_CAP];
	__shared__ float4 red[GPU_STAGED_THREADS];
	__shared__ int js[32], pre[33];
	__shared__ int halted;
	const bool EFLAG = OUT == GPU_F_ENERGY;
	const int c = blockIdx.x, t = threadIdx.x;
	const int first = s.cell_start[c], last = s.cell_start[c + 1];
	const int m = last - first;
	float e = 0.f, w = 0.f;

	if (t == 0) {
		halted = gpu_halted(s);
		if (!halted && OUT == GPU_F_KICK_DRIFT && c == 0) {
			count_since(s);	/* NVE: nobody reads them here */
			s.st->step++;
		}
	}
	__syncthreads();
	if (halted || m == 0)
		return;
	const int ncj = gpu_hood_ranges(s, c, t & 31, t < 32, js, pre);
	const int4 qref = s.xq[first];
	__syncthreads();
	const int total = pre[ncj];
	const bool big = total > GPU_STAGED_CAP;

	gpu_hood_stage<true>(s, js, pre, ncj, qref, 0, min(total, GPU_STAGED_CAP),
			     cand, t, GPU_STAGED_THREADS);
	__syncthreads();

	const int L = max(1, GPU_STAGED_THREADS / m);	/* lanes per particle */
	const int P = GPU_STAGED_THREADS / L;		/* particles per pass */
	const int p = t / L, sub = t - p * L;

	for (int p0 = 0; p0 < m; p0 += P) {
		float3 f = make_float3(0.f, 0.f, 0.f);

		if (p < P && p0 + p < m) {
			const int i = first + p0 + p;
			const int4 qi = s.xq[i];
			const float3 pi = gpu_sep_q(s, qi, qref);

			if (big)
				staged_walk<TYPED, EFLAG, FC, SMALL, true>(
					s, i, pi, qi.w, sub, L, cand, js, pre, ncj,
					qref, f, e, w);
			else
				staged_walk<TYPED, EFLAG, FC, SMALL, false>(
					s, i, pi, qi.w, sub, L, cand, js, pre, ncj,
					qref, f, e, w);
		}
		red[t] = make_float4(f.x, f.y, f.z, 0.f);
		__syncthreads();
		if (t < P && p0 + t < m) {
			const int i = first + p0 + t;
			float4 fi = red[t * L];

			for (int u = 1; u < L; u++) {
				const float4 r = red[t * L + u];

				fi.x += r.x;
				fi.y += r.y;
				fi.z += r.z;
			}
			if (OUT == GPU_F_KICK_DRIFT)
				nve_kick_drift(s, i, fi, 1);
			else
				s.f[i] = fi;
		}
		__syncthreads();	/* red is written again */
	}
	if (EFLAG)
		gpu_acc_thermo(s, e, w);
}

template <bool TYPED, bool FC, int OUT>
static void launch_small(const gpu_sys *s, cudaStream_t st)
{
	if (s->small_box)
		k_force_staged<TYPED, FC, OUT, 1><<<s->ncell, GPU_STAGED_THREADS, 0, st>>>(*s);
	else
		k_force_staged<TYPED, FC, OUT, 0><<<s->ncell, GPU_STAGED_THREADS, 0, st>>>(*s);
}

template <int OUT>
static void launch_out(const gpu_sys *s, cudaStream_t st)
{
	if (s->ntypes > 1)
		launch_small<true, true, OUT>(s, st);
	else if (gpu_fc_free(s))
		launch_small<false, false, OUT>(s, st);
	else
		launch_small<false, true, OUT>(s, st);
}

void gpu_force_staged(const gpu_sys *s, const gpu_launch *l, int out,
		      cudaStream_t st)
{
	(void)l;
	if (out == GPU_F_KICK_DRIFT)
		launch_out<GPU_F_KICK_DRIFT>(s, st);
	else if (out == GPU_F_ENERGY)
		launch_out<GPU_F_ENERGY>(s, st);
	else
		launch_out<GPU_F_FORCE>(s, st);
	GPU_CHECK_LAUNCH();
}
