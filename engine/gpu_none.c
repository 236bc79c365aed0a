/*
 * gpu_none.c - linked instead of kernels/ when mdsim is built without nvcc
 * (CUDA=0 or no toolkit): there is no GPU backend, and auto picks the CPU.
 */
#include <stdio.h>
#include <string.h>
#include "../kernels/gpu.h"

int gpu_probe(int id, char *name, size_t len)
{
	(void)id;
	snprintf(name, len, "this mdsim was built without CUDA");
	return 0;
}

const md_backend_ops *gpu_backend_ops(void)
{
	return NULL;
}

int gpu_neighbors(md_backend *b, int orig, int *out, int max)
{
	(void)b; (void)orig; (void)out; (void)max;
	return -1;
}

int gpu_list_stride(md_backend *b)
{
	(void)b;
	return -1;
}

void gpu_bench_info(md_backend *b, gpu_bench_desc *d)
{
	(void)b;
	memset(d, 0, sizeof(*d));
}

double gpu_set_hybrid_ratio(md_backend *b, double ratio)
{
	(void)b; (void)ratio;
	return -1.0;
}

int gpu_test_shrink_list(md_backend *b, int stride)
{
	(void)b; (void)stride;
	return -1;
}

int gpu_test_list16_max(md_backend *b, int max)
{
	(void)b;
	(void)max;
	return -1;
}

int gpu_test_list_idx_max(md_backend *b, int max)
{
	(void)b;
	(void)max;
	return -1;
}

int gpu_test_compact(md_backend *b)
{
	(void)b;
	return 0;
}

int gpu_test_coop_rebuild(md_backend *b)
{
	(void)b;
	return 0;
}

int gpu_test_fused_trials(md_backend *b, long *vw_nonzero, int *retimed)
{
	(void)b;
	*vw_nonzero = -1;
	*retimed = 0;
	return 0;
}

int gpu_bench_phases(md_backend *b, long nsteps, double ms[3])
{
	(void)b; (void)nsteps;
	ms[0] = ms[1] = ms[2] = 0.0;
	return -1;
}
