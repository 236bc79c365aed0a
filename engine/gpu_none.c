/*
 * gpu_none.c - linked instead of kernels/ when mdsim is built without nvcc
 * (CUDA=0 or no toolkit): there is no GPU backend, and auto picks the CPU.
 */
#include <stdio.h>
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
