/*
 * force_register.cu - strategy `register`: tpp lanes per particle with
 * register caching and prefetch (kernels/register_path.cuh), no shared
 * memory.
 */
#include "gpu_common.cuh"
#include "register_path.cuh"

/*
 * Neighbours per lane and window, loaded as vectors (register_path.cuh's
 * VEC). Measured at 1M, tpp 1 (RESULTS, tenth session): 4 with the
 * positions prefetched a window ahead 3,085 steps/s, 8 without 3,132 (64
 * registers; 8 with the prefetch takes 87 and ran 2,906-2,925, 4 without
 * 2,865), so the prefetch is gone.
 */
#define REG_BATCH 8

/* Q: pairs in fixed-point units (gpu_pair_eval, s.cubic_q); C: gathers of
 * the compact positions (gpu_xc) */
template <bool TYPED, bool FC, bool Q, int OUT, bool C>
static __device__ __forceinline__ void force_register(const gpu_sys &s, int tpp)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	if (gpu_halted(s)) {
		if (OUT == GPU_F_KICK_DRIFT)	/* after a build that left them */
			for (int i = t; i < s.n; i += gridDim.x * blockDim.x)
				xv_copy_back(s, i);
		return;
	}
	if (OUT == GPU_F_KICK_DRIFT && t == 0) {	/* NVE: nobody reads them here */
		count_since(s);
		s.st->step++;
	}
	gpu_register_path<TYPED, OUT, REG_BATCH, true, FC, true, Q, C, true,
			  OUT == GPU_F_KICK_DRIFT>(
		s, tpp, 0, t / tpp, gridDim.x * blockDim.x / tpp);
}

/* Forces only, or with the energies (OUT: GPU_F_FORCE, GPU_F_ENERGY). */
template <bool TYPED, bool FC, bool Q, int OUT, bool C>
__global__ void k_force_register(gpu_sys s, int tpp)
{
	force_register<TYPED, FC, Q, OUT, C>(s, tpp);
}

/*
 * The fused NVE step (GPU_F_KICK_DRIFT) on the compact positions, at most
 * 56 registers a thread. Left to itself ptxas gave the mixture's instance
 * (TYPED) 74, 6 blocks of 128 threads per SM; capped, 9 stay resident and
 * it spills 8 bytes outside its loop. Measured on the H200 (RESULTS,
 * twenty-first session, steps/s): Kob-Andersen 256,000 7,260 / 7,243 ->
 * 8,623 / 8,637 (the same at 64; at 48 it spills in the loop: 8,173),
 * 1,048,576 2,481 -> 2,686; force-shifted LJ at 1M (66 registers) 3,276
 * -> 3,475; the LJ instance of the 1M and 8M runs takes 55 and is
 * unchanged. Without the compact positions the cap cost LJ at 256,000
 * 3.6% (62 registers), and on the other launches it made ptxas take more
 * registers than without one (the compact force-only instance 48 -> 61),
 * so they have none. (__maxnreg__: CUDA 12.4 on.)
 */
#if defined(__CUDACC_VER_MAJOR__) && \
	(__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define REG_NVE_MAXNREG __maxnreg__(56)
#else
#define REG_NVE_MAXNREG
#endif

template <bool TYPED, bool FC, bool Q>
__global__ void REG_NVE_MAXNREG k_force_register_nve(gpu_sys s, int tpp)
{
	force_register<TYPED, FC, Q, GPU_F_KICK_DRIFT, true>(s, tpp);
}

/* k_force_register, or k_force_register_nve for GPU_F_KICK_DRIFT with C */
template <bool TYPED, bool FC, bool Q, int OUT, bool C>
static void launch_one(const gpu_sys *s, int grid, int block, int tpp,
		       cudaStream_t st)
{
	if constexpr (OUT == GPU_F_KICK_DRIFT && C)
		k_force_register_nve<TYPED, FC, Q><<<grid, block, 0, st>>>(*s, tpp);
	else
		k_force_register<TYPED, FC, Q, OUT, C><<<grid, block, 0, st>>>(*s, tpp);
}

template <int OUT, bool C>
static void launch_c(const gpu_sys *s, int grid, int block, int tpp,
		     cudaStream_t st)
{
	if (s->ntypes > 1)
		launch_one<true, true, false, OUT, C>(s, grid, block, tpp, st);
	else if (s->cubic_q)
		launch_one<false, false, true, OUT, C>(s, grid, block, tpp, st);
	else if (gpu_fc_free(s))
		launch_one<false, false, false, OUT, C>(s, grid, block, tpp, st);
	else
		launch_one<false, true, false, OUT, C>(s, grid, block, tpp, st);
}

/* the compact positions when there are any (thermo launches: only with
 * s->xc_energy, backend.compact_positions = on) */
template <int OUT>
static void launch(const gpu_sys *s, int grid, int block, int tpp,
		   cudaStream_t st)
{
	if (s->xc && (OUT != GPU_F_ENERGY || s->xc_energy))
		launch_c<OUT, true>(s, grid, block, tpp, st);
	else
		launch_c<OUT, false>(s, grid, block, tpp, st);
}

void gpu_force_register(const gpu_sys *s, const gpu_launch *l, int out,
			cudaStream_t st)
{
	long threads = (long)s->n * l->tpp;
	int grid = (int)((threads + l->block - 1) / l->block);

	if (out == GPU_F_KICK_DRIFT)
		launch<GPU_F_KICK_DRIFT>(s, grid, l->block, l->tpp, st);
	else if (out == GPU_F_ENERGY)
		launch<GPU_F_ENERGY>(s, grid, l->block, l->tpp, st);
	else
		launch<GPU_F_FORCE>(s, grid, l->block, l->tpp, st);
	GPU_CHECK_LAUNCH();
}
