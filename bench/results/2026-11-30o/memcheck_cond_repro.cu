/*
 * memcheck_cond_repro.cu -- a STANDALONE reproducer, not part of mdsim's build.
 *
 * Tries to reproduce a suspected compute-sanitizer memcheck false positive seen
 * with mdsim on an H200 (CUDA 13.0): "Invalid __global__ atomic of size 4 bytes
 * ... out of bounds ... inside the nearest allocation ... of size 2,048 bytes"
 * from a binning kernel that runs inside a NESTED conditional IF node of a CUDA
 * graph (stream capture), then 'unspecified launch failure'. It mimics mdsim's
 * structure: per step k_decide sets the outer IF handle (rebuild every 3rd step,
 * from a device step counter) -- or the previous step's k_step sets it --; the
 * outer body is k_refine (sets the nested handle) + nested IF { k_zero, k_assign,
 * k_bin (atomicAdd on a 2048-byte count buffer), k_scan }; then k_force and
 * k_step. Graphs g_multi (8 steps), g_one (1 step), g_last (1 step + k_energy)
 * are launched back to back without host sync; between chunks: a plain kernel,
 * cudaMemcpyAsync to pinned memory and cudaStreamSynchronize.
 * k_bin never issues an atomic with an index outside [0,512) (it flags such an
 * index in the status word instead), so any memcheck report on its atomicAdd
 * with status 0 points at the tool, not at the index.
 *
 * Build:
 *   nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o /tmp/cond_repro memcheck_cond_repro.cu
 * Run:
 *   /tmp/cond_repro                          # conditional nodes (as mdsim)
 *   compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/cond_repro
 *   compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/cond_repro --nocond
 *   compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/cond_repro --nochain
 *   CUDA_LAUNCH_BLOCKING=1 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/cond_repro
 * (mdsim: reports with conditional nodes, intermittently; none with --nocond-like
 * graphs or with CUDA_LAUNCH_BLOCKING=1. Repeat each a few times.)
 * Options: --nocond   same kernels, no conditional nodes (kernels check a flag)
 *          --nochain  every step has its own k_decide (no handle set by k_step)
 *          --chunks N (default 20)   --steps S steps per chunk (default 40)
 * Exit: 0 PASS, 1 FAIL or CUDA error.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "CUDA error %s at %s:%d: %s: %s\n", cudaGetErrorName(e_), \
		__FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CKL() CK(cudaGetLastError())

enum { N = 2048, NCELL = 512, MULTI = 8, EVERY = 3, TPB = 128 };

/* Device state, copied to pinned memory per chunk: step counter (k_step), rebuild due
 * this step (k_decide or the previous k_step), nested condition (k_refine), rebuilds
 * done, sum of the counts and step at the last rebuild (k_scan), energy (k_energy). */
struct Dev { int step, want, want_sort, nrebuild, last_sum, last_rebuild_step; float energy; };
/* status word bits */
enum { ST_BADCELL = 1, ST_BADSUM = 2, ST_BODY_UNWANTED = 4 };

__host__ __device__ inline int due(int step) { return step % EVERY == 0; }
__host__ __device__ inline int cell_of(float4 p) {
	return ((int)floorf(p.x) & 7) + 8 * (((int)floorf(p.y) & 7) + 8 * ((int)floorf(p.z) & 7));
}

#define TID const int i = blockIdx.x * blockDim.x + threadIdx.x
#define GUARD if (guard && !d->want_sort) return	/* --nocond: the kernel checks itself */

__global__ void k_decide(cudaGraphConditionalHandle h, Dev *d, int use_cond) {
	const int w = due(d->step);
	d->want = w;
	if (use_cond) cudaGraphSetConditional(h, w ? 1u : 0u);
}
__global__ void k_refine(cudaGraphConditionalHandle h2, Dev *d, int *status, int use_cond) {
	if (use_cond && !d->want) atomicOr(status, ST_BODY_UNWANTED);	/* body ran, handle meant 0 */
	d->want_sort = d->want;
	if (use_cond) cudaGraphSetConditional(h2, 1u);
}
__global__ void k_zero(int *count, const Dev *d, int guard) {
	GUARD; TID;
	if (i < NCELL) count[i] = 0;
}
__global__ void k_assign(const float4 *pos, int *cell, const Dev *d, int guard) {
	GUARD; TID;
	if (i < N) cell[i] = cell_of(pos[i]);
}
__global__ void k_bin(const int *cell, int *count, int *status, const Dev *d, int guard) {
	GUARD; TID;
	if (i >= N) return;
	const int c = cell[i];
	if ((unsigned)c >= (unsigned)NCELL) { atomicOr(status, ST_BADCELL); return; }	/* never used */
	atomicAdd(&count[c], 1);		/* the access memcheck flagged in mdsim */
}
__global__ void k_scan(const int *count, Dev *d, int *status, int guard) {	/* 1 block of NCELL */
	__shared__ int s[NCELL];
	GUARD;
	const int t = threadIdx.x;
	s[t] = count[t];
	__syncthreads();
	for (int off = 1; off < NCELL; off <<= 1) {	/* inclusive scan */
		const int v = t >= off ? s[t - off] : 0;
		__syncthreads(); s[t] += v; __syncthreads();
	}
	if (t == NCELL - 1) {
		d->last_sum = s[t]; d->nrebuild++; d->last_rebuild_step = d->step;
		if (s[t] != N) atomicOr(status, ST_BADSUM);
	}
}
__global__ void k_force(const float4 *pos, const int *cell, float4 *force) {
	TID;
	if (i >= N) return;
	const float4 p = pos[i], q = pos[(i + 1) % N];
	force[i] = make_float4(0.5f * (q.x - p.x), 0.5f * (q.y - p.y), 0.5f * (q.z - p.z), (float)cell[i]);
}
__global__ void k_step(cudaGraphConditionalHandle next, Dev *d, int chain, int use_cond) {
	const int s = ++d->step;
	if (chain) {			/* this step decides the next one's rebuild */
		d->want = due(s);
		if (use_cond) cudaGraphSetConditional(next, due(s) ? 1u : 0u);
	}
}
__global__ void k_energy(const float4 *force, Dev *d) {	/* 1 block of 256 */
	__shared__ float s[256];
	float e = 0.f;
	for (int i = threadIdx.x; i < N; i += 256) { const float4 f = force[i]; e += f.x * f.x + f.y * f.y + f.z * f.z; }
	s[threadIdx.x] = e;
	__syncthreads();
	for (int h = 128; h > 0; h >>= 1) { if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h]; __syncthreads(); }
	if (threadIdx.x == 0) d->energy = s[0];
}
__global__ void k_kick(float4 *pos) {	/* the plain (non-graph) launch between chunks */
	TID;
	if (i >= N) return;
	float4 p = pos[i];
	p.x = fmodf(p.x + 0.61f + 0.013f * (i & 7), 8.f);
	p.y = fmodf(p.y + 0.37f + 0.029f * (i & 3), 8.f);
	pos[i] = p;
}

struct Ctx {
	cudaStream_t s, sb, sb2;	/* parent, outer body, nested body */
	int *count, *cell, *status; float4 *pos, *force; Dev *dev;
	int use_cond, chain;
};

/* A new IF handle (default 0, reset every launch) in the graph captured on st. */
static cudaGraphConditionalHandle new_cond_on(cudaStream_t st) {
	cudaStreamCaptureStatus cs; cudaGraph_t g; cudaGraphConditionalHandle h;
	CK(cudaStreamGetCaptureInfo(st, &cs, NULL, &g, NULL, NULL, NULL));
	CK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
	return h;
}
/* An IF node after what parent's capture holds; its body captured on body. */
static cudaGraphNode_t if_begin(cudaStream_t parent, cudaStream_t body, cudaGraphConditionalHandle h) {
	cudaStreamCaptureStatus cs; cudaGraph_t g; const cudaGraphNode_t *deps;
	const cudaGraphEdgeData *edges; size_t nd; cudaGraphNode_t node;
	/* the params union has a deleted default constructor: zeroed bytes */
	alignas(cudaGraphNodeParams) unsigned char raw[sizeof(cudaGraphNodeParams)] = {};
	cudaGraphNodeParams &p = *reinterpret_cast<cudaGraphNodeParams *>(raw);
	CK(cudaStreamGetCaptureInfo(parent, &cs, NULL, &g, &deps, &edges, &nd));
	p.type = cudaGraphNodeTypeConditional;
	p.conditional.handle = h; p.conditional.type = cudaGraphCondTypeIf; p.conditional.size = 1;
	CK(cudaGraphAddNode(&node, g, deps, edges, nd, &p));
	CK(cudaStreamBeginCaptureToGraph(body, p.conditional.phGraph_out[0], NULL, NULL, 0,
					 cudaStreamCaptureModeThreadLocal));
	return node;
}
static void if_end(cudaStream_t parent, cudaStream_t body, cudaGraphNode_t node) {
	cudaGraph_t out;
	CK(cudaStreamEndCapture(body, &out));
	CK(cudaStreamUpdateCaptureDependencies(parent, &node, NULL, 1, cudaStreamSetCaptureDependencies));
}
static void enqueue_sort(Ctx &c, cudaStream_t st, int guard) {
	k_zero<<<(NCELL + TPB - 1) / TPB, TPB, 0, st>>>(c.count, c.dev, guard); CKL();
	k_assign<<<N / TPB, TPB, 0, st>>>(c.pos, c.cell, c.dev, guard); CKL();
	k_bin<<<N / TPB, TPB, 0, st>>>(c.cell, c.count, c.status, c.dev, guard); CKL();
	k_scan<<<1, NCELL, 0, st>>>(c.count, c.dev, c.status, guard); CKL();
}
/* One step. chained: the previous step's k_step set this step's condition
 * (pending: its handle). has_next: this step's k_step sets the next one's. */
static void enqueue_step(Ctx &c, int &chained, cudaGraphConditionalHandle &pending, int has_next) {
	cudaGraphConditionalHandle next = 0;
	if (c.use_cond) {
		cudaGraphConditionalHandle h = chained ? pending : new_cond_on(c.s);
		if (!chained) { k_decide<<<1, 1, 0, c.s>>>(h, c.dev, 1); CKL(); }
		cudaGraphNode_t outer = if_begin(c.s, c.sb, h);
		cudaGraphConditionalHandle h2 = new_cond_on(c.sb);
		k_refine<<<1, 1, 0, c.sb>>>(h2, c.dev, c.status, 1); CKL();
		cudaGraphNode_t inner = if_begin(c.sb, c.sb2, h2);
		enqueue_sort(c, c.sb2, 0);
		if_end(c.sb, c.sb2, inner);
		if_end(c.s, c.sb, outer);
		if (has_next) next = new_cond_on(c.s);
	} else {
		if (!chained) { k_decide<<<1, 1, 0, c.s>>>(0, c.dev, 0); CKL(); }
		k_refine<<<1, 1, 0, c.s>>>(0, c.dev, c.status, 0); CKL();
		enqueue_sort(c, c.s, 1);
	}
	k_force<<<N / TPB, TPB, 0, c.s>>>(c.pos, c.cell, c.force); CKL();
	k_step<<<1, 1, 0, c.s>>>(next, c.dev, has_next, c.use_cond); CKL();
	chained = has_next; pending = next;
}
static cudaGraphExec_t capture(Ctx &c, int nsteps, int last) {
	cudaGraph_t g; cudaGraphExec_t ex;
	int chained = 0; cudaGraphConditionalHandle pending = 0;
	CK(cudaStreamBeginCapture(c.s, cudaStreamCaptureModeThreadLocal));
	for (int k = 0; k < nsteps; k++)
		enqueue_step(c, chained, pending, c.chain && k + 1 < nsteps);
	if (last) { k_energy<<<1, 256, 0, c.s>>>(c.force, c.dev); CKL(); }
	CK(cudaStreamEndCapture(c.s, &g)); CK(cudaGraphInstantiate(&ex, g, 0)); CK(cudaGraphDestroy(g));
	return ex;
}

int main(int argc, char **argv) {
	Ctx c = {}; int chunks = 20, steps = 40, fail = 0;
	c.use_cond = 1; c.chain = 1;
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--nocond")) c.use_cond = 0;
		else if (!strcmp(argv[a], "--nochain")) c.chain = 0;
		else if (!strcmp(argv[a], "--chunks") && a + 1 < argc) chunks = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--steps") && a + 1 < argc) steps = atoi(argv[++a]);
		else { fprintf(stderr, "usage: %s [--nocond] [--nochain] [--chunks N] [--steps S]\n", argv[0]); return 1; }
	}
	if (chunks < 1 || steps < 1) { fprintf(stderr, "chunks, steps >= 1\n"); return 1; }
	printf("cond_repro: %s, %s, %d chunks x %d steps, n=%d, %d cells (%zu-byte count buffer)\n",
	       c.use_cond ? "conditional IF nodes (nested)" : "no conditional nodes",
	       c.chain ? "chained handles" : "k_decide every step", chunks, steps, N, NCELL, NCELL * sizeof(int));

	std::vector<float4> hpos(N);
	for (int i = 0; i < N; i++) {	/* deterministic positions in the 8x8x8 box */
		const unsigned r = 2654435761u * (unsigned)(i + 1);
		hpos[i] = make_float4((r & 1023) / 128.f, ((r >> 10) & 1023) / 128.f, ((r >> 20) & 1023) / 128.f, 0.f);
	}
	for (cudaStream_t *st : {&c.s, &c.sb, &c.sb2}) CK(cudaStreamCreateWithFlags(st, cudaStreamNonBlocking));
	CK(cudaMalloc(&c.count, NCELL * sizeof(int)));	/* 2048 bytes, never freed until the end */
	CK(cudaMalloc(&c.cell, N * sizeof(int))); CK(cudaMalloc(&c.pos, N * sizeof(float4)));
	CK(cudaMalloc(&c.force, N * sizeof(float4))); CK(cudaMalloc(&c.status, sizeof(int)));
	CK(cudaMalloc(&c.dev, sizeof(Dev)));
	CK(cudaMemcpy(c.pos, hpos.data(), N * sizeof(float4), cudaMemcpyHostToDevice));
	CK(cudaMemset(c.count, 0, NCELL * sizeof(int))); CK(cudaMemset(c.cell, 0, N * sizeof(int)));
	CK(cudaMemset(c.status, 0, sizeof(int))); CK(cudaMemset(c.dev, 0, sizeof(Dev)));
	CK(cudaDeviceSynchronize());

	cudaGraphExec_t g_multi = capture(c, MULTI, 0), g_one = capture(c, 1, 0), g_last = capture(c, 1, 1);
	Dev *hd; int *hst;
	CK(cudaMallocHost(&hd, sizeof(Dev))); CK(cudaMallocHost(&hst, sizeof(int)));	/* pinned */

	int total = 0;
	for (int ch = 0; ch < chunks; ch++) {
		int left = steps - 1, launches = 0;
		k_kick<<<N / TPB, TPB, 0, c.s>>>(c.pos); CKL();
		for (; left >= MULTI; left -= MULTI, launches++) CK(cudaGraphLaunch(g_multi, c.s));
		for (; left > 0; left--, launches++) CK(cudaGraphLaunch(g_one, c.s));
		CK(cudaGraphLaunch(g_last, c.s)); launches++;
		CK(cudaMemcpyAsync(hd, c.dev, sizeof(Dev), cudaMemcpyDeviceToHost, c.s));
		CK(cudaMemcpyAsync(hst, c.status, sizeof(int), cudaMemcpyDeviceToHost, c.s));
		const cudaError_t e = cudaStreamSynchronize(c.s);
		if (e != cudaSuccess) {	/* e.g. 'unspecified launch failure' after a memcheck report */
			fprintf(stderr, "chunk %d: cudaStreamSynchronize: %s: %s\nFAIL\n", ch, cudaGetErrorName(e), cudaGetErrorString(e));
			return 1;
		}
		total += steps;
		int want_rb = (total + EVERY - 1) / EVERY;
		int ok = hd->step == total && hd->nrebuild == want_rb && hd->last_sum == N && *hst == 0;
		printf("chunk %3d: %2d graph launches, step %6d, rebuilds %5d (want %5d), last rebuild at %6d, "
		       "sum %d, status %d, energy %.6g %s\n", ch, launches, hd->step, hd->nrebuild, want_rb,
		       hd->last_rebuild_step, hd->last_sum, *hst, hd->energy, ok ? "ok" : "MISMATCH");
		fail |= !ok;
	}

	/* the counts must be the histogram of the cells, the cells those of the positions */
	std::vector<int> hcount(NCELL), hcell(N), hist(NCELL, 0);
	CK(cudaMemcpy(hcount.data(), c.count, NCELL * sizeof(int), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(hcell.data(), c.cell, N * sizeof(int), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(hpos.data(), c.pos, N * sizeof(float4), cudaMemcpyDeviceToHost));
	int sum = 0, badcell = 0, badhist = 0;
	for (int i = 0; i < N; i++) {
		if (hcell[i] < 0 || hcell[i] >= NCELL) { badcell++; continue; }
		hist[hcell[i]]++;
		if (hd->last_rebuild_step >= total - steps && hcell[i] != cell_of(hpos[i])) badcell++;
	}
	for (int k = 0; k < NCELL; k++) { sum += hcount[k]; badhist += hcount[k] != hist[k]; }
	printf("final: sum of counts %d (want %d), %d cells wrong, %d counts wrong\n", sum, N, badcell, badhist);
	fail |= sum != N || badcell || badhist;

	CK(cudaGraphExecDestroy(g_multi)); CK(cudaGraphExecDestroy(g_one)); CK(cudaGraphExecDestroy(g_last));
	CK(cudaFreeHost(hd)); CK(cudaFreeHost(hst));
	for (void *p : {(void *)c.count, (void *)c.cell, (void *)c.pos, (void *)c.force, (void *)c.status, (void *)c.dev})
		CK(cudaFree(p));
	for (cudaStream_t st : {c.s, c.sb, c.sb2}) CK(cudaStreamDestroy(st));
	printf("%s\n", fail ? "FAIL" : "PASS");
	return fail ? 1 : 0;
}
