/*
 * gpu.h - the only header through which engine/ reaches the GPU. Plain C
 * prototypes (extern "C" under nvcc); no CUDA type appears here.
 */
#ifndef MD_GPU_H
#define MD_GPU_H

#include <stddef.h>
#include "../engine/md.h"

/* Largest particle count + 1 of the cuda backend (int thread indices of up
 * to 16 lanes per particle). */
#define MD_GPU_MAX_PARTICLES (1 << 27)

#ifdef __cplusplus
extern "C" {
#endif

/*
 * gpu_probe - 1 when device `id` can run kernels (name gets its name),
 * 0 otherwise (name gets the reason: no driver, no device, CPU-only build).
 */
int gpu_probe(int id, char *name, size_t len);

/* gpu_backend_ops - the CUDA backend table, or NULL in a CPU-only build. */
const md_backend_ops *gpu_backend_ops(void);

/* Launch description of the current strategy (benchmark and HUD). */
typedef struct gpu_bench_desc {
	char gpu[256];
	double peak_bw;		/* bytes/s from the device properties */
	int strategy;		/* the one in use (the autotuner's choice for auto) */
	int persistent;		/* its middle steps in the persistent kernel, which
				 * picks its own lanes a particle unless
				 * backend.threads_per_particle is set */
	int block, tpp;
	float hybrid_ratio;
	int stride;		/* neighbour-list row length */
	long long builds;
} gpu_bench_desc;

/*
 * The following take a backend made from gpu_backend_ops(); in a CPU-only
 * build they return -1 / do nothing.
 * gpu_neighbors: neighbour list of original particle orig (original
 *   indices) into out (at most max); returns the full count or -1.
 * gpu_bench_phases: run nsteps without the graph, timed per phase;
 *   ms[0..2] = neighbour, force, integrate milliseconds per step.
 */
int gpu_neighbors(md_backend *b, int orig, int *out, int max);
int gpu_list_stride(md_backend *b);
void gpu_bench_info(md_backend *b, gpu_bench_desc *d);
int gpu_bench_phases(md_backend *b, long nsteps, double ms[3]);

/*
 * gpu_set_hybrid_ratio - the hybrid strategy's fraction of cells on the
 * shared path, from now on (clamped to [0, 1]; the step graph is captured
 * again). Returns the ratio in use, or -1 in a CPU-only build.
 */
double gpu_set_hybrid_ratio(md_backend *b, double ratio);

/*
 * gpu_test_shrink_list - test hook: cut the neighbour list to `stride`
 * entries per particle and request a rebuild at the next step, so that
 * the overflow detection and recovery path runs. Returns 0 or -1.
 */
int gpu_test_shrink_list(md_backend *b, int stride);

/*
 * gpu_test_list16_max - test hook: the largest cell neighbourhood a
 * 16-bit list (strategy `staged`) may index, from now on (1 ..
 * 65535), so that a switch to `staged` meets a neighbourhood too large
 * for it in a small system. Returns 0 or -1.
 */
int gpu_test_list16_max(md_backend *b, int max);

/*
 * gpu_test_list_idx_max - test hook: the largest octant reach the list
 * build sweeps as one compacted sequence (0 .. GPU_LIST_IDX; larger ones
 * run by run), then a rebuild with it. Returns 0 or -1.
 */
int gpu_test_list_idx_max(md_backend *b, int max);

/* gpu_test_compact - test hook: 1 if the register strategy's steps run on
 * the compact 8-byte positions (backend.compact_positions), else 0. */
int gpu_test_compact(md_backend *b);

/* gpu_test_coop_rebuild - test hook: 1 if a step's rebuild sequence is
 * one cooperative launch (k_rebuild_coop), 0 if the conditional graph
 * nodes and per-phase kernels (MDSIM_NO_COOP_REBUILD, `staged`, devices
 * without cooperative launches or 190 KB of shared memory a block). */
int gpu_test_coop_rebuild(md_backend *b);

/* gpu_test_fused_trials - test hook: how many launch candidates the
 * set-up's autotuner timed as fused NVE steps (on a copy of the state
 * with dt = 0, tune_strategy), and in *vw_nonzero the particles whose
 * velocity's w (the force halves that the register strategy's steps
 * leave for the next build, rb_ref) is not 0 now (-1: no memory); in
 * *retimed the finalists' fused timings after those (tune_strategy:
 * for each strategy tuned, 0 or the rounds times 2 or 3 finalists). */
int gpu_test_fused_trials(md_backend *b, long *vw_nonzero, int *retimed);

#ifdef __cplusplus
}
#endif

#endif
