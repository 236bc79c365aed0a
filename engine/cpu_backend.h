/* cpu_backend.h - extras of the CPU backend used by tests. */
#ifndef MD_CPU_BACKEND_H
#define MD_CPU_BACKEND_H

#include "md.h"

/*
 * md_cpu_neighbors - the list of original particle orig (original indices)
 * into out (at most max). Returns the full count, or -1 for a bad index.
 */
int md_cpu_neighbors(md_backend *b, int orig, int *out, int max);

#endif
