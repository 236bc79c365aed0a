/*
 * gpu.h - the only header through which engine/ reaches the GPU. Plain C
 * prototypes (extern "C" under nvcc); no CUDA type appears here.
 */
#ifndef MD_GPU_H
#define MD_GPU_H

#include <stddef.h>
#include "../engine/md.h"

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

#ifdef __cplusplus
}
#endif

#endif
