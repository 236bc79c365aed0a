/*
 * gpu_backend.cu - the CUDA backend table: device-resident state, the step
 * as a CUDA graph, the autotuner, and the only host<->device copies (all
 * through gpu_copy(), which counts them).
 *
 * State is uploaded once at init. A chunk of steps is integrate1, then
 * middle steps [rebuild if the GPU decided so (a conditional graph node),
 * force, kick-drift: in NVE with `register` one launch], then the last
 * step [rebuild?, force with energies, integrate2] (see enqueue_first).
 * In NVE with `register` and backend.persistent (auto: small systems) the
 * middle steps are one launch of the persistent kernel (persist.cu).
 * run() replays the step graphs and reads the status block once at
 * its end: that is where a neighbour-list overflow is recovered (list
 * grown, the halted step finished) and a blow-up reported.
 */
#include "gpu_common.cuh"
#include "list_build.cuh"	/* GPU_LIST_IDX */
#include "gpu.h"
extern "C" {
#include "../engine/setup.h"
}

#include <string.h>
#include <math.h>

#define GRAPH_STEPS 16		/* steps per replay of the multi-step graph */

static_assert(GPU_MAX_PARTICLES == MD_GPU_MAX_PARTICLES, "gpu.h and gpu_common.cuh agree");
static_assert(GPU_SCAN_CELLS % 32 == 0 && GPU_SCAN_CELLS <= 1024, "scan chunk: whole warps, one block");
/* gpu_nose_hoover copies nh_zeta, nh_eta (and nh_ke, nh_scale) as one block */
static_assert(offsetof(gpu_acc, nh_eta) == offsetof(gpu_acc, nh_zeta) + sizeof(double) &&
	      offsetof(gpu_acc, nh_ke) == offsetof(gpu_acc, nh_zeta) + 2 * sizeof(double) &&
	      offsetof(gpu_acc, nh_scale) == offsetof(gpu_acc, nh_zeta) + 3 * sizeof(double),
	      "gpu_acc: the NH fields are contiguous");

typedef struct gpu_ctx {
	md_config cfg;
	gpu_sys s;
	gpu_launch launch[MD_STRAT_COUNT];
	int strategy;
	double mass;
	cudaStream_t stream;
	cudaStream_t stream_body;	/* captures the conditional rebuild body */
	cudaStream_t stream_body2;	/* and the sort's IF node inside it */
	/* per parity of the fixed-point buffers at the graph's start */
	cudaGraphExec_t g_multi[2], g_one[2], g_last[2];
	int graphs_ok, use_cond;
	int4 *xqbuf[2];		/* s.xq = xqbuf[parity], s.xq_w the other */
	uint2 *xcbuf[2];	/* the same for s.xc, s.xc_w (NULL: off) */
	int persist_grid;	/* blocks of the persistent kernel, 0: off */
	int persist_tpp;	/* its lanes per particle (gpu_persist_tpp) */
	int parity;
	cudaGraphConditionalHandle pending_cond;	/* capture: next IF handle, 0: none */
	int *susp_buf;		/* the suspects (k_refine); s.susp while a
				 * fused step that records them is enqueued */
	int susp_on;		/* the refined rebuild check (k_refine) */
	int fused_timed;	/* launches the autotuner timed as fused
				 * NVE steps (tune_strategy)            */
	int retimed;		/* its finalists' timings as fused NVE
				 * steps, after those (tune_strategy)   */
	int coop;		/* k_rebuild_coop's blocks, 0: off, -1: not
				 * yet asked (coop_grid()) */
	gpu_status *h_status;	/* pinned */
	gpu_acc *h_acc;		/* pinned */
	double *d_fx, *d_fv, *d_ff;	/* a frame in host layout (lazy) */
	int *d_fimg, *d_ftype;
	cudaStream_t stream_copy;	/* frame copies to the host */
	cudaEvent_t ev_framed;		/* k_frame done: the copies may start */
	cudaEvent_t ev_copied[MD_DL_TAGS];	/* the copies of a tag landed */
	int dl_last;			/* tag of the last frame, -1: none */
	long long step0;	/* host step at init */
	md_stats stats;
	double t_prof[3];	/* sampled ms in neigh, pair, integrate */
	long prof_steps;
	int prof_fused;		/* the sampled steps were fused NVE steps */
	char gpu_name[256];
	double peak_bw;		/* bytes/s from the device properties */
	double nh_zeta, nh_eta;	/* the device's NH state as last known */
	int nh_known;
} gpu_ctx;

/*
 * A developer switch in the environment (MDSIM_NO_REFINE and the like):
 * on when set to anything but "" or "0", so that NAME=0 means off.
 */
static int env_switch(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/* --- copies (the one wrapper) -------------------------------------------- */

static void gpu_copy_on(gpu_ctx *c, cudaStream_t st, void *dst,
			const void *src, size_t bytes, cudaMemcpyKind kind)
{
	GPU_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, st));
	c->stats.copies++;
	if (kind == cudaMemcpyHostToDevice)
		c->stats.bytes_h2d += (double)bytes;
	else
		c->stats.bytes_d2h += (double)bytes;
}

static void gpu_copy(gpu_ctx *c, void *dst, const void *src, size_t bytes,
		     cudaMemcpyKind kind)
{
	gpu_copy_on(c, c->stream, dst, src, bytes, kind);
}

static void read_status(gpu_ctx *c)
{
	gpu_copy(c, c->h_status, c->s.st, sizeof(gpu_status),
		 cudaMemcpyDeviceToHost);
	GPU_CHECK(cudaStreamSynchronize(c->stream));
}

static void write_status(gpu_ctx *c)
{
	gpu_copy(c, c->s.st, c->h_status, sizeof(gpu_status),
		 cudaMemcpyHostToDevice);
}

/* --- probe ---------------------------------------------------------------- */

extern "C" int gpu_probe(int id, char *name, size_t len)
{
	int n = 0;
	cudaError_t e = cudaGetDeviceCount(&n);
	cudaDeviceProp p;

	if (e != cudaSuccess) {
		snprintf(name, len, "%s", cudaGetErrorString(e));
		cudaGetLastError();
		return 0;
	}
	if (id >= n) {
		snprintf(name, len, "device %d requested, %d present", id, n);
		return 0;
	}
	if (cudaGetDeviceProperties(&p, id) != cudaSuccess) {
		snprintf(name, len, "cannot query device %d", id);
		cudaGetLastError();
		return 0;
	}
	snprintf(name, len, "%s", p.name);
	return 1;
}

/* --- the step ------------------------------------------------------------- */

/* out: GPU_F_* (GPU_F_KICK_DRIFT only where the strategy's row allows) */
static void enqueue_force(gpu_ctx *c, int out)
{
	if (out == GPU_F_KICK_DRIFT && !gpu_strategies[c->strategy].kick_drift) {
		fprintf(stderr, "mdsim: internal error: %s cannot kick and drift\n",
			gpu_strategies[c->strategy].name);
		exit(MD_EXIT_SIM);
	}
	if (out == GPU_F_ENERGY)
		gpu_enqueue_zero_acc(&c->s, c->stream);
	gpu_strategies[c->strategy].launch(&c->s, &c->launch[c->strategy], out,
					   c->stream);
}

static void set_parity(gpu_ctx *c, int p)
{
	c->parity = p;
	c->s.xq = c->xqbuf[p];
	c->s.xq_w = c->xqbuf[1 - p];
	c->s.xc = c->xcbuf[p];
	c->s.xc_w = c->xcbuf[1 - p];
}

/*
 * Whether a middle step is one force launch that also kicks and drifts
 * (NVE on a strategy that can): the drifted positions go to the other
 * buffer, which the next step reads (the parity flips).
 */
static int fused_steps(const gpu_ctx *c)
{
	return gpu_strategies[c->strategy].kick_drift && !c->s.lgv_on && !c->s.nh_on;
}

/* A new IF handle in the graph being captured on stream (default 0). */
static cudaGraphConditionalHandle new_cond_on(cudaStream_t stream)
{
	cudaStreamCaptureStatus cs;
	cudaGraph_t graph;
	cudaGraphConditionalHandle h;

	GPU_CHECK(cudaStreamGetCaptureInfo(stream, &cs, NULL, &graph, NULL,
					   NULL, NULL));
	GPU_CHECK(cudaGraphConditionalHandleCreate(&h, graph, 0,
						   cudaGraphCondAssignDefault));
	return h;
}

static cudaGraphConditionalHandle new_cond(gpu_ctx *c)
{
	return new_cond_on(c->stream);
}

/*
 * An IF node on handle h after what the capture on `parent` holds so far,
 * its body captured on `body` until if_end().
 */
static cudaGraphNode_t if_begin(cudaStream_t parent, cudaStream_t body,
				cudaGraphConditionalHandle h)
{
	cudaStreamCaptureStatus cs;
	cudaGraph_t graph;
	const cudaGraphNode_t *deps;
	const cudaGraphEdgeData *edges;
	size_t nd;
	/* the params union has no default constructor in C++: zeroed bytes */
	union { cudaGraphNodeParams p; unsigned char raw[sizeof(cudaGraphNodeParams)]; } *u;
	unsigned char buf[sizeof(cudaGraphNodeParams)] __attribute__((aligned(16)));
	cudaGraphNode_t node;

	GPU_CHECK(cudaStreamGetCaptureInfo(parent, &cs, NULL, &graph, &deps,
					   &edges, &nd));
	memset(buf, 0, sizeof(buf));
	u = (decltype(u))buf;
	u->p.type = cudaGraphNodeTypeConditional;
	u->p.conditional.handle = h;
	u->p.conditional.type = cudaGraphCondTypeIf;
	u->p.conditional.size = 1;
	GPU_CHECK(cudaGraphAddNode(&node, graph, deps, edges, nd, &u->p));
	GPU_CHECK(cudaStreamBeginCaptureToGraph(body, u->p.conditional.phGraph_out[0],
						NULL, NULL, 0,
						cudaStreamCaptureModeThreadLocal));
	return node;
}

/* The body of if_begin()'s node is complete: `parent` goes on after it. */
static void if_end(cudaStream_t parent, cudaStream_t body, cudaGraphNode_t node)
{
	cudaGraph_t body_out;

	GPU_CHECK(cudaStreamEndCapture(body, &body_out));
	GPU_CHECK(cudaStreamUpdateCaptureDependencies(parent, &node, NULL, 1,
						      cudaStreamSetCaptureDependencies));
}

/*
 * Blocks of the one-launch rebuild (k_rebuild_coop, gpu_neighbor.cu), or 0:
 * the conditional nodes and per-phase kernels below (the `staged`
 * strategy's 16-bit list, a device without cooperative launches, or the
 * developer switch MDSIM_NO_COOP_REBUILD).
 */
static int coop_grid(gpu_ctx *c)
{
	if (c->coop < 0)
		c->coop = env_switch("MDSIM_NO_COOP_REBUILD") ? 0 : gpu_coop_grid(&c->s);
	return c->s.list16 ? 0 : c->coop;
}

/*
 * The rebuild sequence: one launch of k_rebuild_coop where it runs (it
 * decides on the device and returns at once when nothing is due). Else,
 * in a graph with conditional nodes, its binning and
 * sort are an IF node whose body runs only when a rebuild is due, and the
 * list build follows the node (one launch per step that returns at once
 * without a rebuild: k_build_list says why). The condition is set by
 * k_decide, or, when the previous step of the same graph made the handle
 * (c->pending_cond), by that step's kernels themselves (request_rebuild(),
 * record_suspect()). With the refined rebuild check (c->susp_on) the body
 * is k_refine, which decides, then the sort in a nested IF node (an IF
 * node of its own in every step cost 3.6 us a step at 1M and 256k
 * particles, RESULTS fourteenth session). Elsewhere the guarded kernels
 * are enqueued and return at once when no rebuild is due.
 */
static void enqueue_rebuild(gpu_ctx *c, int in_capture)
{
	cudaGraphConditionalHandle h;
	cudaGraphNode_t node;

	if (coop_grid(c)) {
		gpu_enqueue_rebuild_coop(&c->s, c->susp_on ? c->susp_buf : NULL,
					 coop_grid(c), c->stream);
		return;
	}
	if (!in_capture || !c->use_cond) {
		if (c->susp_on)
			gpu_enqueue_refine(&c->s, c->susp_buf, c->stream);
		gpu_enqueue_rebuild(&c->s, c->stream);
		return;
	}
	if (c->pending_cond) {
		h = c->pending_cond;
		c->pending_cond = 0;
	} else {
		h = new_cond(c);
		gpu_enqueue_decide(&c->s, h, c->stream);
	}
	node = if_begin(c->stream, c->stream_body, h);
	if (c->susp_on) {
		cudaGraphNode_t sort;

		c->s.sort_cond = new_cond_on(c->stream_body);
		gpu_enqueue_refine(&c->s, c->susp_buf, c->stream_body);
		sort = if_begin(c->stream_body, c->stream_body2, c->s.sort_cond);
		gpu_enqueue_rebuild_sort(&c->s, c->stream_body2);
		if_end(c->stream_body, c->stream_body2, sort);
		c->s.sort_cond = 0;
	} else {
		gpu_enqueue_rebuild_sort(&c->s, c->stream_body);
	}
	if_end(c->stream, c->stream_body, node);
	gpu_enqueue_rebuild_list(&c->s, c->stream);	/* see k_build_list */
}

/*
 * A chunk of n steps is: integrate1, then n - 1 "middle" steps
 * [rebuild?, force, kick-drift], then the last step [rebuild?, force with
 * energy, integrate2]: velocities are at full steps only at chunk ends.
 * With Nose-Hoover on the device the kick-drift is integrate2, k_nh and
 * integrate1 (the thermostat needs the kinetic energy between the kicks),
 * a chunk starts with k_nh (START) and ends with k_nh (END) and its scale.
 */
static void enqueue_first(gpu_ctx *c)
{
	if (c->s.nh_on)
		gpu_enqueue_nh(&c->s, GPU_NH_START, c->stream);
	gpu_enqueue_integrate1(&c->s, c->stream);
}

static void enqueue_kick_drift(gpu_ctx *c)
{
	if (c->s.nh_on) {
		gpu_enqueue_integrate2(&c->s, c->stream);
		gpu_enqueue_nh(&c->s, GPU_NH_MIDDLE, c->stream);
		gpu_enqueue_integrate1(&c->s, c->stream);
	} else {
		gpu_enqueue_kick_drift(&c->s, c->stream);
	}
}

/* Records event k of ev (if any) on the stream. */
static void record(gpu_ctx *c, const cudaEvent_t *ev, int k)
{
	if (ev)
		GPU_CHECK(cudaEventRecord(ev[k], c->stream));
}

/*
 * has_next: the captured graph goes on with another step. ev: NULL, or
 * four events recorded before the step, after its rebuild launch(es),
 * after its force launch and after the step (outside a capture: the
 * sampled steps, profiled_middle).
 */
static void enqueue_middle(gpu_ctx *c, int in_capture, int has_next,
			   cudaEvent_t *ev = NULL)
{
	/* a build leaves x and v to the fused step after it (xv_lazy:
	 * k_build_list, nve_kick_drift_lazy) */
	c->s.xv_lazy = fused_steps(c) && gpu_strategies[c->strategy].xv_lazy;
	record(c, ev, 0);
	enqueue_rebuild(c, in_capture);
	record(c, ev, 1);
	if (in_capture && has_next && c->use_cond && !coop_grid(c))
		c->s.next_cond = new_cond(c);
	if (fused_steps(c)) {
		/* the refined rebuild check: suspects go to the next step's
		 * k_refine (enqueue_rebuild), in the IF node that next_cond
		 * or, in the next graph, k_decide opens. Not with a 16-bit
		 * list (`staged`): its force kernel takes positions relative
		 * to a cell's first particle without a minimum image, which
		 * needs every particle within skin/2 of its build position */
		if (c->susp_on && !gpu_strategies[c->strategy].list16)
			c->s.susp = c->susp_buf;
		enqueue_force(c, GPU_F_KICK_DRIFT);
		record(c, ev, 2);
		c->s.susp = NULL;
		set_parity(c, 1 - c->parity);
	} else {
		enqueue_force(c, GPU_F_FORCE);
		record(c, ev, 2);
		enqueue_kick_drift(c);
	}
	record(c, ev, 3);
	c->s.xv_lazy = 0;
	c->pending_cond = c->s.next_cond;
	c->s.next_cond = 0;
}

static void enqueue_last(gpu_ctx *c, int in_capture)
{
	enqueue_rebuild(c, in_capture);
	/* the steps on the compact positions do not store xq
	 * (drift_and_check's XQ): the energy launch gathers it (auto), and
	 * after the run a strategy switch's force launch may (`shared`,
	 * `hybrid`), with either setting */
	if (c->s.xc)
		gpu_enqueue_xq_refresh(&c->s, c->stream);
	enqueue_force(c, 1);
	gpu_enqueue_integrate2(&c->s, c->stream);
	if (c->s.nh_on) {
		gpu_enqueue_nh(&c->s, GPU_NH_END, c->stream);
		gpu_enqueue_nh_apply(&c->s, c->stream);
	}
}

static void destroy_graphs(gpu_ctx *c)
{
	if (!c->graphs_ok)
		return;
	for (int p = 0; p < 2; p++) {
		cudaGraphExecDestroy(c->g_multi[p]);
		cudaGraphExecDestroy(c->g_one[p]);
		cudaGraphExecDestroy(c->g_last[p]);
	}
	c->graphs_ok = 0;
}

/*
 * The graph of nmiddle middle steps [and the last step] starting with the
 * fixed-point buffers at parity p; the host's parity is left as it was
 * (capturing runs nothing).
 */
static cudaGraphExec_t capture(gpu_ctx *c, int nmiddle, int last, int p)
{
	cudaGraph_t g;
	cudaGraphExec_t ex;
	const int p_host = c->parity;
	int k;

	set_parity(c, p);
	GPU_CHECK(cudaStreamBeginCapture(c->stream, cudaStreamCaptureModeThreadLocal));
	c->pending_cond = 0;
	for (k = 0; k < nmiddle; k++)
		enqueue_middle(c, 1, k + 1 < nmiddle || last);
	if (last)
		enqueue_last(c, 1);
	GPU_CHECK(cudaStreamEndCapture(c->stream, &g));
	GPU_CHECK(cudaGraphInstantiate(&ex, g, 0));
	GPU_CHECK(cudaGraphDestroy(g));
	set_parity(c, p_host);
	return ex;
}

/*
 * Whether middle steps run in the persistent kernel (persist.cu): fused
 * NVE steps of the register strategy, backend.persistent on, or auto and
 * at most GPU_PERSIST_AUTO_MAX particles, and a device that launches it.
 * Measured on the H200 (LJ, bench/RESULTS.md): persistent/graphs 1.11 at
 * 32,000 particles, 1.06 at 131,072, 0.93 at 256,000, 0.86 at 1M.
 */
#define GPU_PERSIST_AUTO_MAX 180000
/* backend.persistent asks for the persistent kernel at n particles */
static int persist_asked(int persistent, int n)
{
	return persistent == 1 || (persistent < 0 && n <= GPU_PERSIST_AUTO_MAX);
}

static int want_persist(const gpu_ctx *c)
{
	return c->strategy == MD_STRAT_register && persist_asked(c->cfg.persistent, c->s.n);
}

static int use_persist(const gpu_ctx *c)
{
	return c->persist_grid > 0 && fused_steps(c);
}

/* Graphs bake pointers, strides and launch parameters: rebuilt on change
 * (and so is the persistent kernel's grid). */
static void ensure_graphs(gpu_ctx *c)
{
	if (c->graphs_ok)
		return;
	c->persist_tpp = c->launch[c->strategy].tpp;
	if (want_persist(c) && !c->cfg.threads_per_particle)
		c->persist_tpp = gpu_persist_tpp(&c->s, c->persist_tpp);
	c->persist_grid = want_persist(c) ?
		gpu_persist_grid(&c->s, c->persist_tpp) : 0;
	coop_grid(c);	/* asked before the captures, not inside one */
	for (int p = 0; p < 2; p++) {
		c->g_multi[p] = capture(c, GRAPH_STEPS, 0, p);
		c->g_one[p] = capture(c, 1, 0, p);
		c->g_last[p] = capture(c, 0, 1, p);
	}
	c->graphs_ok = 1;
}

/*
 * (Re)allocates the neighbour list for `stride` entries per particle,
 * zeroed: the register path loads a lane's entries as one vector, which
 * may take slots past the particle's count that no build wrote (their
 * values are not used). The zeroing goes on c->stream, ahead of the build
 * that fills the list (the streams do not wait for the legacy one).
 */
static cudaError_t alloc_list(gpu_ctx *c, int stride)
{
	gpu_sys *s = &c->s;
	const size_t bytes = gpu_nl_ints(s->n, stride) * sizeof(int);
	cudaError_t e;

	cudaFree(s->nl);
	s->nl = NULL;
	e = cudaMalloc(&s->nl, bytes);
	return e == cudaSuccess ? cudaMemsetAsync(s->nl, 0, bytes, c->stream) : e;
}

/* Grow the neighbour list to hold `need` per particle (never truncate). */
static int grow_list(gpu_ctx *c, int need)
{
	int stride = ((need + need / 5 + 8) + 31) / 32 * 32;

	if (alloc_list(c, stride) != cudaSuccess) {
		fprintf(stderr, "mdsim: step %lld: cannot grow the GPU neighbour list to %d per particle (%.1f GB)\n",
			c->h_status->step, stride,
			(double)c->s.n * stride * 4 / 1e9);
		return MD_EXIT_SIM;
	}
	c->s.stride = stride;
	destroy_graphs(c);
	return 0;
}

/*
 * After a halt: report a blow-up, or grow the list and finish the step.
 * The halted kernels did nothing, so the fixed-point buffer at the host's
 * parity may be stale (halted NVE steps flip the parity without drifting):
 * the forced rebuild regenerates it from the double positions
 * (rb_scatter) before any force reads it.
 */
static int recover(gpu_ctx *c, int finish_step)
{
	gpu_status *h = c->h_status;

	if (h->dense) {
		fprintf(stderr, "mdsim: step %lld: a cell's neighbourhood holds more than %d particles, beyond the 16-bit list of the %s strategy; use another strategy (register)\n",
			h->step, c->s.list16_max, gpu_strategies[c->strategy].name);
		return MD_EXIT_SIM;
	}
	if (h->blowup) {
		int id = -1;
		double4_32a x;

		gpu_copy(c, &id, c->s.id + h->bad_index, sizeof(int),
			 cudaMemcpyDeviceToHost);
		gpu_copy(c, &x, c->s.x + h->bad_index, sizeof(double4_32a),
			 cudaMemcpyDeviceToHost);
		GPU_CHECK(cudaStreamSynchronize(c->stream));
		fprintf(stderr, "mdsim: step %lld: particle %d is %s (position %g %g %g); the simulation blew up (time step too large or overlapping particles?)\n",
			h->step + 1, id,
			isfinite(x.x + x.y + x.z) ? "more than one box length outside the box" : "not finite",
			x.x, x.y, x.z);
		return MD_EXIT_SIM;
	}
	if (h->overflow) {
		int rc = grow_list(c, h->max_nn);

		if (rc)
			return rc;
		if (!c->cfg.quiet)
			fprintf(stderr, "mdsim: step %lld: neighbour list grown to %d per particle\n",
				h->step, c->s.stride);
		h->overflow = 0;
		h->halt = 0;
		h->max_nn = 0;
		h->rebuild = 1;
		write_status(c);
		if (finish_step) {	/* this step's drift already ran */
			enqueue_last(c, 0);
		} else {
			gpu_enqueue_rebuild(&c->s, c->stream);
			enqueue_force(c, 1);
		}
		read_status(c);
		if (h->halt)
			return recover(c, finish_step);
	}
	return 0;
}

/*
 * Middle steps run ungraphed with events between the phases, adding the
 * milliseconds to t_prof (neighbour, force, integrate). own (the run's
 * summary): the steps the graphs run (enqueue_middle: the one-launch
 * rebuild, the fused NVE step, whose integration is then counted in the
 * force phase). Else (the benchmark's ms/step, gpu_bench_phases): the
 * per-phase rebuild kernels, a force launch and the kick-drift launch.
 * The steps of a batch are enqueued at once and read after one
 * synchronisation. (The run's 32 sampled steps were the benchmark's kind,
 * each about 220 us longer than a graph step at 1M particles: 1.2% of a
 * 3,000-step run, 4,943 against 5,000 steps/s without them; RESULTS,
 * thirtieth session.)
 */
#define PROF_BATCH 32
static void profiled_middle(gpu_ctx *c, long nsteps, int own)
{
	cudaEvent_t ev[PROF_BATCH][4];
	int s, k;

	for (s = 0; s < PROF_BATCH; s++)
		for (k = 0; k < 4; k++)
			GPU_CHECK(cudaEventCreate(&ev[s][k]));
	for (long done = 0; done < nsteps; done += PROF_BATCH) {
		const int m = nsteps - done < PROF_BATCH ? (int)(nsteps - done) : PROF_BATCH;

		for (s = 0; s < m; s++) {
			if (own) {
				enqueue_middle(c, 0, 1, ev[s]);
				continue;
			}
			record(c, ev[s], 0);
			gpu_enqueue_rebuild(&c->s, c->stream);
			record(c, ev[s], 1);
			enqueue_force(c, 0);
			record(c, ev[s], 2);
			enqueue_kick_drift(c);
			record(c, ev[s], 3);
		}
		GPU_CHECK(cudaEventSynchronize(ev[m - 1][3]));
		for (s = 0; s < m; s++)
			for (k = 0; k < 3; k++) {
				float ms;

				cudaEventElapsedTime(&ms, ev[s][k], ev[s][k + 1]);
				c->t_prof[k] += ms;
			}
	}
	c->prof_steps += nsteps;
	if (own)
		c->prof_fused = fused_steps(c);
	for (s = 0; s < PROF_BATCH; s++)
		for (k = 0; k < 4; k++)
			cudaEventDestroy(ev[s][k]);
}

static int gpu_run(md_backend *b, long nsteps)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	long long target = c->h_status->step + nsteps;

	while (c->h_status->step < target) {
		long long left = target - c->h_status->step;
		int rc;

		enqueue_first(c);
		if (c->prof_steps < 32 && left > 1) {	/* sample phases once */
			long k = left - 1 < 32 ? left - 1 : 32;

			profiled_middle(c, k, 1);
			left -= k;
		}
		ensure_graphs(c);
		while (use_persist(c) && left > 1) {	/* all middle steps */
			int k = left - 1 < (1 << 30) ? (int)(left - 1) : 1 << 30;

			gpu_enqueue_persist(&c->s, c->persist_tpp, k,
					    c->persist_grid, c->stream);
			if (k & 1)
				set_parity(c, 1 - c->parity);
			left -= k;
		}
		static_assert(GRAPH_STEPS % 2 == 0, "g_multi keeps the parity");
		while (left > GRAPH_STEPS) {
			GPU_CHECK(cudaGraphLaunch(c->g_multi[c->parity], c->stream));
			left -= GRAPH_STEPS;
		}
		while (left > 1) {
			GPU_CHECK(cudaGraphLaunch(c->g_one[c->parity], c->stream));
			if (fused_steps(c))
				set_parity(c, 1 - c->parity);
			left--;
		}
		GPU_CHECK(cudaGraphLaunch(c->g_last[c->parity], c->stream));
		read_status(c);
		if (c->h_status->halt) {
			rc = recover(c, 1);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* --- autotuner ------------------------------------------------------------ */

/*
 * Median time (us) of one launch of strategy strat on s with launch
 * parameters l; out: GPU_F_FORCE, or GPU_F_KICK_DRIFT on a state whose
 * steps change nothing (tune_strategy's fused trials). After a warm-up,
 * one launch is timed alone (the probe): where it exceeds both cut and
 * GPU_TUNE_PRUNE_US the candidate is out of the race and the probe is
 * returned; else 5 rounds of up to 10 launches, as many as fit in
 * about 2 ms (10 for launches up to 200 us, such as register's at 1M LJ
 * particles; the probe is not one of them). Before, each of the 45
 * candidates took 51 launches at any size (shared at 16M particles:
 * 23 ms each), and the tuning, run for the skin trials and again for
 * the run, grew with N: a 16M row of `make bench-scaling` took 107 s,
 * 43 s with this and the shorter skin search (RESULTS, thirty-third
 * session).
 */
#define GPU_TUNE_PRUNE_US 1000.0

static double time_launch(gpu_ctx *c, const gpu_sys *s, int strat,
			  const gpu_launch *l, int out, double cut)
{
	cudaEvent_t a, z;
	double t[5], probe;
	float ms;
	int r, k, reps;

	GPU_CHECK(cudaEventCreate(&a));
	GPU_CHECK(cudaEventCreate(&z));
	gpu_strategies[strat].launch(s, l, out, c->stream);	/* warm-up */
	GPU_CHECK(cudaEventRecord(a, c->stream));
	gpu_strategies[strat].launch(s, l, out, c->stream);
	GPU_CHECK(cudaEventRecord(z, c->stream));
	GPU_CHECK(cudaEventSynchronize(z));
	cudaEventElapsedTime(&ms, a, z);
	probe = 1000.0 * ms;
	if (probe > cut && probe > GPU_TUNE_PRUNE_US) {
		cudaEventDestroy(a);
		cudaEventDestroy(z);
		return probe;
	}
	reps = probe > 200.0 ? (int)(2000.0 / probe) : 10;	/* NaN: 10 */
	reps = reps < 1 ? 1 : reps;
	for (r = 0; r < 5; r++) {
		GPU_CHECK(cudaEventRecord(a, c->stream));
		for (k = 0; k < reps; k++)
			gpu_strategies[strat].launch(s, l, out, c->stream);
		GPU_CHECK(cudaEventRecord(z, c->stream));
		GPU_CHECK(cudaEventSynchronize(z));
		cudaEventElapsedTime(&ms, a, z);
		t[r] = 1000.0 * ms / reps;
	}
	cudaEventDestroy(a);
	cudaEventDestroy(z);
	for (r = 1; r < 5; r++)		/* insertion sort, median */
		for (k = r; k > 0 && t[k] < t[k - 1]; k--) {
			double u = t[k];

			t[k] = t[k - 1];
			t[k - 1] = u;
		}
	return t[2];
}

/* Median time (us) of one force launch with launch parameters l. */
static double time_force(gpu_ctx *c, int strat, const gpu_launch *l, double cut)
{
	return time_launch(c, &c->s, strat, l, GPU_F_FORCE, cut);
}

/*
 * The state for timing strategy strat's fused NVE step (GPU_F_KICK_DRIFT)
 * without moving anything: a copy of c->s with dt = 0 (the kicks add
 * 0 f, the drifts 0 v: x and v keep their bits, and the fixed-point and
 * compact copies written into the other parity's buffers are those of
 * the same positions, which the next step overwrites before it reads
 * them). What the launches still change is put back by fused_trials_end:
 * the step and build counters, flags of the status block, and v.w (the
 * force halves, gpu_f_pack). *zeros: device memory for the per-type
 * dt/2m (freed by fused_trials_end). Returns 0 where strat's steps are
 * not fused in this run (not NVE, or no kick_drift in its row), or the
 * memory for the copy of v is not there.
 */
typedef struct fused_trials {
	gpu_sys s;
	gpu_status st;
	double4_32a *v;
	double *zeros;
} fused_trials;

static int fused_trials_begin(gpu_ctx *c, int strat, fused_trials *ft)
{
	const size_t nv = (size_t)c->s.n * sizeof(double4_32a);

	/* fused_steps()'s test for strat; its lgv_on / nh_on are set after
	 * gpu_init, so the configured ensemble stands for them here */
	if (!gpu_strategies[strat].kick_drift || c->cfg.ensemble != MD_ENS_NVE)
		return 0;
	ft->v = NULL;
	ft->zeros = NULL;
	if (cudaMalloc((void **)&ft->v, nv) != cudaSuccess ||
	    cudaMalloc((void **)&ft->zeros, MD_MAX_TYPES * sizeof(double)) != cudaSuccess) {
		cudaGetLastError();	/* the failed allocation's error */
		cudaFree(ft->v);
		return 0;
	}
	GPU_CHECK(cudaMemsetAsync(ft->zeros, 0, MD_MAX_TYPES * sizeof(double), c->stream));
	GPU_CHECK(cudaMemcpyAsync(ft->v, c->s.v, nv, cudaMemcpyDeviceToDevice,
				  c->stream));
	read_status(c);
	ft->st = *c->h_status;
	ft->s = c->s;
	ft->s.dt = 0.0;
	ft->s.hdtm = 0.0;
	ft->s.hdtm_t = ft->zeros;
	ft->s.xv_lazy = 0;
	ft->s.susp = NULL;
	ft->s.next_cond = 0;
	return 1;
}

static void fused_trials_end(gpu_ctx *c, fused_trials *ft)
{
	GPU_CHECK(cudaMemcpyAsync(c->s.v, ft->v, (size_t)c->s.n * sizeof(double4_32a),
				  cudaMemcpyDeviceToDevice, c->stream));
	*c->h_status = ft->st;
	write_status(c);
	GPU_CHECK(cudaStreamSynchronize(c->stream));
	cudaFree(ft->v);
	cudaFree(ft->zeros);
}

/*
 * Tune block size, lanes per particle and hybrid ratio of strategy strat
 * (only those its table row marks tunable and the config leaves at 0).
 * The candidates are timed as the run's middle steps will launch them:
 * the fused NVE step where those are fused (fused_trials_begin; the
 * force alone ranked block 128 and 256 at 1M within 0.7% either way,
 * the fused step runs ~2% faster with 128: RESULTS, thirty-second
 * session), else the force launch. Returns the force launch's time in us
 * with the chosen parameters (what autotune() compares across
 * strategies, fused or not). Neither changes the state. A candidate
 * slower than 1.5 times the best so far, or (candidates timed as force
 * launches) than the force launch of the best strategy timed before
 * (others; a huge value: none), is left after one timed launch where
 * that takes over 1 ms (time_launch). A fused step is not held against
 * another strategy's force launch: it does more.
 *
 * The candidates are timed one after the other while the clock moves
 * (the 700 W cap of the H200 at 1M particles and up), so two whose times
 * lie within the noise can come out in either order: the 1M row of
 * `make bench-scaling` chose block 64 over 128 in 2 of 5 runs, so the
 * choice depended on the order of the timings (given each, 128 ran
 * 0.2 to 0.5% faster at 1M, 4M and 8M; RESULTS, thirty-fourth
 * session). So the fastest GPU_TUNE_FINALISTS within GPU_TUNE_FINAL_REL
 * of the best are timed again, in turns (A B C, C B A, ...) for
 * GPU_TUNE_FINAL_ROUNDS rounds, and the least total wins. Not for a
 * strategy timed by its force launch that is already slower than
 * others: it cannot be chosen (and its candidates may all be pruned
 * probes, whose full timings would undo the pruning's bound).
 */
#define GPU_TUNE_FINALISTS 3
#define GPU_TUNE_FINAL_REL 1.03
#define GPU_TUNE_FINAL_ROUNDS 4

/* Keep l (time t) among the n fastest so far, fin[] in ascending time
 * (fin[0]: the best; of equal times the first timed). */
static void tune_keep_fastest(gpu_launch *fin, double *tfin, int *n,
			      gpu_launch l, double t)
{
	int k;

	if (t != t)	/* NaN: a failed timing */
		return;
	if (*n == GPU_TUNE_FINALISTS) {
		if (t >= tfin[GPU_TUNE_FINALISTS - 1])
			return;
		k = GPU_TUNE_FINALISTS - 1;
	} else {
		k = (*n)++;
	}
	for (; k > 0 && tfin[k - 1] > t; k--) {
		fin[k] = fin[k - 1];
		tfin[k] = tfin[k - 1];
	}
	fin[k] = l;
	tfin[k] = t;
}

static double tune_strategy(gpu_ctx *c, int strat, double others, int verbose)
{
	static const int blocks[] = { 64, 128, 256, 512 };
	static const int tpps[] = { 1, 2, 4, 8, 16 };
	static const float ratios[] = { 0.2f, 0.5f, 0.8f, 0.95f };
	const int tune = gpu_strategies[strat].tune;
	gpu_launch best = c->launch[strat], l;
	gpu_launch fin[GPU_TUNE_FINALISTS];
	double tbest = 1e30, tforce, tfin[GPU_TUNE_FINALISTS];
	int nb = 1, nt = 1, nr = 1, ib, it, ir, fused = 0, nfin = 0, k, r;
	fused_trials ft;

	if (c->cfg.autotune) {
		if ((tune & MD_TUNE_BLOCK) && !c->cfg.block_size)
			nb = 4;
		if ((tune & MD_TUNE_TPP) && !c->cfg.threads_per_particle)
			nt = 5;
		if ((tune & MD_TUNE_RATIO) && !c->cfg.hybrid_ratio_given)
			nr = 4;
	}
	if (strat == MD_STRAT_tiled && c->s.n > 65536)
		nb = 1;		/* O(N^2): one timing is expensive enough */
	if (nb * nt * nr > 1)
		fused = fused_trials_begin(c, strat, &ft);
	/* one candidate's time, as the run's steps will launch it */
	auto timed = [&](const gpu_launch *lc, double cut) {
		return fused ? time_launch(c, &ft.s, strat, lc, GPU_F_KICK_DRIFT, cut)
			     : time_force(c, strat, lc, cut);
	};
	for (ib = 0; ib < nb; ib++)
		for (it = 0; it < nt; it++)
			for (ir = 0; ir < nr; ir++) {
				const double tb = nfin ? tfin[0] : 1e30;	/* best so far */
				const double cut = 1.5 * (fused ? tb : fmin(tb, others));

				l = c->launch[strat];
				if (nb > 1)
					l.block = blocks[ib];
				if (nt > 1)
					l.tpp = tpps[it];
				if (nr > 1)
					l.hybrid_ratio = ratios[ir];
				if (strat == MD_STRAT_hybrid && l.tpp < 1)
					l.tpp = 1;
				tune_keep_fastest(fin, tfin, &nfin, l, timed(&l, cut));
				c->fused_timed += fused;
			}
	if (nfin) {	/* else every timing failed: the launch as it was */
		best = fin[0];
		tbest = tfin[0];
	}
	/* the finalists: the fastest within GPU_TUNE_FINAL_REL of the best */
	while (nfin > 1 && tfin[nfin - 1] > GPU_TUNE_FINAL_REL * tbest)
		nfin--;
	const bool again = nfin > 1 && (fused || tbest < others);

	if (again) {
		double sum[GPU_TUNE_FINALISTS] = { 0 };

		for (r = 0; r < GPU_TUNE_FINAL_ROUNDS; r++)
			for (k = 0; k < nfin; k++) {
				const int j = r % 2 ? nfin - 1 - k : k;

				sum[j] += timed(&fin[j], HUGE_VAL);
				c->retimed += fused;
			}
		int w = 0;	/* the least total */

		for (k = 1; k < nfin; k++)
			if (sum[k] < sum[w])
				w = k;
		best = fin[w];
		tbest = sum[w] / GPU_TUNE_FINAL_ROUNDS;
	}
	if (fused)
		fused_trials_end(c, &ft);
	c->launch[strat] = best;
	tforce = fused ? time_force(c, strat, &best, HUGE_VAL) : tbest;
	if (verbose) {
		printf("autotune: %-8s block %4d  tpp %2d  ratio %.2f  force %9.1f us",
		       gpu_strategies[strat].name, best.block, best.tpp,
		       best.hybrid_ratio, tforce);
		if (fused)
			printf("  fused NVE step %9.1f us (ranks them)", tbest);
		if (again)
			printf("  (%d within %.0f%% timed again)", nfin,
			       100.0 * (GPU_TUNE_FINAL_REL - 1.0));
		printf("\n");
	}
	return tforce;
}

/* A forced rebuild (graphs dropped), recovered: 0 or an exit code. */
static int forced_rebuild(gpu_ctx *c)
{
	destroy_graphs(c);
	gpu_enqueue_force_rebuild(&c->s, c->stream);
	read_status(c);
	while (c->h_status->halt) {
		int rc = recover(c, 0);

		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Make the list match strategy strat's format (16-bit entries for
 * `staged`, strategies.cu), with a forced rebuild when it changes; strat
 * becomes the current strategy (recover() computes its forces). Returns 0
 * or an exit code. A 16-bit list that cannot index some cell's
 * neighbourhood (recover() says so) is refused: the previous strategy and
 * its list come back, and the call returns MD_EXIT_INPUT.
 */
static int use_strategy(gpu_ctx *c, int strat)
{
	const int l16 = gpu_strategies[strat].list16, old = c->strategy;
	int rc;

	c->strategy = strat;
	if (c->s.list16 == l16)
		return 0;
	c->s.list16 = l16;
	rc = forced_rebuild(c);
	if (rc && c->h_status->dense && !gpu_strategies[old].list16) {
		c->h_status->dense = 0;
		c->h_status->halt = 0;
		write_status(c);
		c->strategy = old;
		c->s.list16 = 0;
		rc = forced_rebuild(c);
		if (!rc) {	/* the rebuild re-sorted: forces in the new order */
			enqueue_force(c, 1);
			read_status(c);
			rc = MD_EXIT_INPUT;
		}
	}
	return rc;
}

/*
 * The strategy and its launch parameters. gpu_init has built the list in
 * the format of c->strategy (the configured one, or `register` for auto),
 * and auto chooses among the strategies of that format only.
 */
static void autotune(gpu_ctx *c)
{
	int verbose = !c->cfg.quiet, s;

	if (c->cfg.strategy >= 0) {
		c->strategy = c->cfg.strategy;
		tune_strategy(c, c->strategy, HUGE_VAL, verbose);
	} else {
		double tbest = 1e30;

		for (s = 0; s < MD_STRAT_COUNT; s++) {
			double t;

			if (s == MD_STRAT_tiled && c->s.n > 65536)
				continue;	/* never the best there */
			/* `staged` (16-bit list): two more rebuilds to time it,
			 * and it measured slower than `register` at every size
			 * (force_staged.cu); chosen only by name */
			if (gpu_strategies[s].list16 != c->s.list16)
				continue;
			t = tune_strategy(c, s, tbest, verbose);
			if (t < tbest) {
				tbest = t;
				c->strategy = s;
			}
		}
		if (verbose)
			printf("autotune: strategy %s chosen\n",
			       gpu_strategies[c->strategy].name);
	}
}

/* --- table functions ------------------------------------------------------ */

static void gpu_destroy(md_backend *b)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	gpu_sys *s;

	if (!c)
		return;
	s = &c->s;
	destroy_graphs(c);
	cudaFree(s->x); cudaFree(s->v); cudaFree(s->xq0); cudaFree(s->xt);
	cudaFree(s->vt); cudaFree(s->f); cudaFree(s->img);
	cudaFree(c->xqbuf[0]); cudaFree(c->xqbuf[1]); cudaFree(c->susp_buf);
	cudaFree(c->xcbuf[0]); cudaFree(c->xcbuf[1]);
	cudaFree(s->imgt); cudaFree(s->id); cudaFree(s->idt); cudaFree(s->cell);
	cudaFree(s->slot); cudaFree(s->cell_count); cudaFree(s->cell_start);
	cudaFree(s->sub_start);
	cudaFree(s->block_sums); cudaFree(s->nl); cudaFree(s->nn);
	cudaFree(s->st); cudaFree(s->acc);
	if (c->h_status)
		cudaFreeHost(c->h_status);
	if (c->h_acc)
		cudaFreeHost(c->h_acc);
	cudaFree(c->d_fx);
	cudaFree(c->d_fv);
	cudaFree(c->d_ff);
	cudaFree((void *)c->s.ljt);
	cudaFree((void *)c->s.mass_t);
	cudaFree((void *)c->s.hdtm_t);
	cudaFree(c->d_fimg);
	cudaFree(c->d_ftype);
	if (c->stream)
		cudaStreamDestroy(c->stream);
	if (c->stream_body)
		cudaStreamDestroy(c->stream_body);
	if (c->stream_body2)
		cudaStreamDestroy(c->stream_body2);
	if (c->stream_copy)
		cudaStreamDestroy(c->stream_copy);
	if (c->ev_framed)
		cudaEventDestroy(c->ev_framed);
	for (int k = 0; k < MD_DL_TAGS; k++)
		if (c->ev_copied[k])
			cudaEventDestroy(c->ev_copied[k]);
	free(c);
	b->ctx = NULL;
}

#define DALLOC(ptr, count) \
	GPU_CHECK(cudaMalloc((void **)&(ptr), (size_t)(count) * sizeof(*(ptr))))

/*
 * Mixtures: the pair table (md_lj_f of every type pair as two float4, from
 * the same md_pair_coeff() and md_lj_coeff_init_d() as the CPU backend) and
 * the per-type masses. One type keeps ntypes = 1 and uses s->lj, s->hdtm.
 */
static int upload_types(gpu_ctx *c, const md_config *cfg)
{
	gpu_sys *s = &c->s;
	int nt = cfg->ntypes > 1 ? cfg->ntypes : 1, a, b;
	float4 tab[2 * MD_MAX_TYPES * MD_MAX_TYPES];
	double m[MD_MAX_TYPES], h[MD_MAX_TYPES];
	float4 *dt;
	double *dm, *dh;

	s->ntypes = nt;
	if (nt == 1)
		return 0;
	for (a = 0; a < nt; a++) {
		m[a] = md_type_mass(cfg, a);
		h[a] = 0.5 * cfg->dt / m[a];
		for (b = 0; b < nt; b++) {
			double eps, sig, rc;
			md_lj_d cd;
			md_lj_f cf;

			md_pair_coeff(cfg, a, b, &eps, &sig, &rc);
			md_lj_coeff_init_d(&cd, eps, sig, rc, cfg->shift);
			md_lj_coeff_to_f(&cf, &cd);
			tab[2 * (a * nt + b)] = make_float4(cf.lj1, cf.lj2, cf.lj3, cf.lj4);
			tab[2 * (a * nt + b) + 1] = make_float4(cf.rc2, cf.rc, cf.eshift, cf.fc);
		}
	}
	DALLOC(dt, 2 * nt * nt);
	DALLOC(dm, nt);
	DALLOC(dh, nt);
	s->ljt = dt;
	s->mass_t = dm;
	s->hdtm_t = dh;
	gpu_copy(c, dt, tab, sizeof(float4) * 2 * nt * nt, cudaMemcpyHostToDevice);
	gpu_copy(c, dm, m, sizeof(double) * nt, cudaMemcpyHostToDevice);
	gpu_copy(c, dh, h, sizeof(double) * nt, cudaMemcpyHostToDevice);
	return 0;
}

/*
 * backend.compact_positions = auto: from this many particles. Measured on
 * the H200 (RESULTS, seventeenth session; steps/s, on against off): LJ
 * 32,000 in graphs 39,509 against 41,957 and in the persistent kernel
 * 56,816 against 57,529 (the gathers cost more instructions, and a
 * latency-bound launch gains nothing from the fewer L1 wavefronts);
 * 131,072 in graphs 15,208 against 15,049; 256,000 and 500,000 within
 * 0.5%; 1M 3,525 against 3,459; 8M 455.5 against 443.8; Kob-Andersen
 * 256,000 6,774 against 6,393.
 */
#define GPU_COMPACT_AUTO_MIN 200000

/*
 * Units of the compact positions (gpu_xc(), gpu_common.cuh): the largest
 * k per axis whose half range L / (2 k) exceeds, with 2% to spare, the
 * longest listed pair a force launch meets: rlist plus twice the largest
 * displacement a particle makes before the check rebuilds (skin/2, or
 * the refined check's cap). Sets s->cscale, s->cunit (1 when off) and
 * s->xc_energy. Returns NULL when the compact positions are in use, else
 * why not.
 */
static const char *compact_units(gpu_ctx *c, const md_config *cfg, double rl)
{
	gpu_sys *s = &c->s;
	const double disp = c->susp_on ? sqrt((double)s->susp_cap2) : 0.5 * cfg->skin;
	const double half = 1.02 * (rl + 2.0 * disp);
	double k[3];
	int d;

	for (d = 0; d < 3; d++) {
		s->cscale[d] = 1.0;
		s->cunit[d] = 1.f;
		k[d] = floor(s->dbox[d] / (2.0 * half));
	}
	/* MDSIM_COMPACT_MIN: a developer switch, auto's threshold (the tests
	 * run auto's form, exact positions at the thermo steps, on small
	 * systems) */
	const char *amin = getenv("MDSIM_COMPACT_MIN");

	s->xc_energy = cfg->compact == 1;
	if (!cfg->compact)
		return "off";
	if (cfg->compact < 0 && s->n < (amin ? atol(amin) : GPU_COMPACT_AUTO_MIN))
		return "auto: fewer particles than it pays for";
	/* the persistent kernel neither reads nor writes them (register
	 * path's XC): compiled in, their code made it spill (RESULTS) */
	if (cfg->persistent == 1 || (cfg->persistent < 0 && s->n <= GPU_PERSIST_AUTO_MAX))
		return "the persistent kernel may run the steps (backend.persistent)";
	if (cfg->strategy >= 0 && cfg->strategy != MD_STRAT_register)
		return "not the register strategy";
	if (!cfg->check)
		return "neighbor.check = false leaves the displacements unbounded";
	if (s->ntypes > 2)
		return "more than two types";
	if (fmin(k[0], fmin(k[1], k[2])) < 1.0)
		return "the box is shorter than twice rc + 2 skin";
	for (d = 0; d < 3; d++) {
		s->cscale[d] = 2097152.0 * k[d] / s->dbox[d];
		s->cunit[d] = (float)(1.0 / (s->cscale[d] * 2048.0));
	}
	return NULL;
}

static int gpu_init(md_backend *b, const md_config *cfg, const md_state *st)
{
	gpu_ctx *c = (gpu_ctx *)calloc(1, sizeof(gpu_ctx));
	gpu_sys *s;
	md_lj_d ljd;
	double rl = cfg->cutoff + cfg->skin, vol, need_bytes;
	const char *xc_why;
	size_t free_b = 0, total_b = 0;
	int n = st->n, d, i, est;
	double4_32a *hx, *hv;
	int4 *himg;
	int *hid;
	cudaDeviceProp prop;

	b->ctx = c;
	if (!c)
		return MD_EXIT_SIM;
	s = &c->s;
	c->cfg = *cfg;
	c->mass = cfg->mass;
	GPU_CHECK(cudaSetDevice(cfg->gpu_id));
	GPU_CHECK(cudaGetDeviceProperties(&prop, cfg->gpu_id));
	snprintf(c->gpu_name, sizeof(c->gpu_name), "%s", prop.name);
	{
		int clk = 0, bus = 0;

		cudaDeviceGetAttribute(&clk, cudaDevAttrMemoryClockRate, cfg->gpu_id);
		cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, cfg->gpu_id);
		c->peak_bw = 2.0 * clk * 1e3 * (bus / 8.0);
	}
	GPU_CHECK(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
	GPU_CHECK(cudaStreamCreateWithFlags(&c->stream_body, cudaStreamNonBlocking));
	GPU_CHECK(cudaStreamCreateWithFlags(&c->stream_body2, cudaStreamNonBlocking));
	GPU_CHECK(cudaStreamCreateWithFlags(&c->stream_copy, cudaStreamNonBlocking));
	GPU_CHECK(cudaEventCreateWithFlags(&c->ev_framed, cudaEventDisableTiming));
	for (i = 0; i < MD_DL_TAGS; i++)
		GPU_CHECK(cudaEventCreateWithFlags(&c->ev_copied[i], cudaEventDisableTiming));
	c->dl_last = -1;
#ifdef MDSIM_NCU	/* GPU_SET_COND: no handle can be set */
	c->use_cond = 0;
#else
	c->use_cond = !env_switch("MDSIM_NO_COND_GRAPH");
#endif
	c->coop = -1;

	s->n = n;
	md_lj_coeff_init_d(&ljd, cfg->epsilon, cfg->sigma, cfg->cutoff, cfg->shift);
	md_lj_coeff_to_f(&s->lj, &ljd);
	s->rlist2 = rl * rl;
	s->rlist2f = (float)(s->rlist2 * (1.0 + 1e-5));
	s->skin_half2 = 0.25 * cfg->skin * cfg->skin;
	/* neighbor.predict (rb_ref): with the check only, so that the
	 * fixed-interval rebuilds count dangerous builds from positions, and
	 * not where the persistent kernel may run (backend.persistent on, or
	 * auto up to GPU_PERSIST_AUTO_MAX): its own builds bin by x, and
	 * 131,072 particles ran 11% slower in the run that measured it on
	 * (RESULTS, twenty-fourth session) */
	s->pred_t = cfg->check && !persist_asked(cfg->persistent, n) ?
		    cfg->predict * cfg->dt : 0.0;
	/* neighbor.predict_accel (rb_ref): d += a t_a^2 / 2 = (f 2h) pred_a,
	 * t_a = predict_accel dt, f 2h = a dt: pred_a = predict_accel^2 dt / 2 */
	s->pred_a = s->pred_t > 0.0 ?
		    0.5 * cfg->predict_accel * cfg->predict_accel * cfg->dt : 0.0;
	s->pred_lim = 0.95 * 0.5 * cfg->skin;
	s->every = cfg->every;
	s->check = cfg->check;
	s->dt = cfg->dt;
	s->hdtm = 0.5 * cfg->dt / cfg->mass;
	if (upload_types(c, cfg))
		return MD_EXIT_SIM;
	for (d = 0; d < 3; d++) {
		s->dbox[d] = st->box[d];
		s->dibox[d] = 1.0 / st->box[d];
		s->box[d] = (float)st->box[d];
		s->ibox[d] = (float)(1.0 / st->box[d]);
		s->nc[d] = (int)(st->box[d] / rl);
		if (s->nc[d] < 1)
			s->nc[d] = 1;
		s->qscale[d] = 4294967296.0 / st->box[d];
		s->qunit[d] = (float)(st->box[d] / 4294967296.0);
	}
	s->ncell = s->nc[0] * s->nc[1] * s->nc[2];
	s->small_box = s->nc[0] < 4 || s->nc[1] < 4 || s->nc[2] < 4;
	{	/* the refined rebuild check (k_refine, gpu_neighbor.cu) */
		double a = st->box[0] / s->nc[0], cap;

		for (d = 1; d < 3; d++)
			a = fmin(a, st->box[d] / s->nc[d]);
		cap = a - cfg->cutoff - 1e-4 * a;	/* k_refine says why */
		c->susp_on = cfg->check && !s->small_box && cap > 0.5 * cfg->skin &&
			     0.5 * cfg->skin > 1e-4 * a && !env_switch("MDSIM_NO_REFINE");
		s->susp_cap2 = (float)(cap * cap);
		/* builds at 1M and 8M came mostly from more than 4,096
		 * suspects; n / 64: 8M 522 -> 539 steps/s (RESULTS) */
		s->susp_max = n / 64 < GPU_SUSP_MIN ? GPU_SUSP_MIN :
			      n / 64 > GPU_SUSP_MAX ? GPU_SUSP_MAX : n / 64;
		s->rc_chk2 = (float)(cfg->cutoff * cfg->cutoff * (1.0 + 1e-4));
		s->rlist_lo2 = (float)(rl * rl * (1.0 - 1e-4));
	}
	xc_why = compact_units(c, cfg, rl);
	s->cubic_q = gpu_fc_free(s) && s->qunit[0] == s->qunit[1] &&
		     s->qunit[0] == s->qunit[2] && s->cunit[0] == s->cunit[1] &&
		     s->cunit[0] == s->cunit[2];
	for (d = 0; d < 2; d++) {
		const float u = d ? s->cunit[0] : s->qunit[0];

		s->qk[d].lj = s->lj;
		s->qk[d].lj.lj1 = s->lj.lj1 * u;
		s->qk[d].lj.lj2 = s->lj.lj2 * u;
		s->qk[d].u2 = u * u;
		s->qk[d].iu = 1.f / u;
	}
	if (n >= GPU_MAX_PARTICLES) {
		fprintf(stderr, "mdsim: %d particles: the cuda backend takes fewer than %d\n",
			n, GPU_MAX_PARTICLES);
		return MD_EXIT_INPUT;
	}
	vol = st->box[0] * st->box[1] * st->box[2];
	est = (int)(1.3 * 4.18879 * rl * rl * rl * n / vol) + 16;
	s->stride = (est + 31) / 32 * 32;

	/* memory estimate before allocating: say so instead of failing later.
	 * Per particle: x, v, xt, vt (double4); f (float4), 3 xq (int4); img, imgt
	 * (int4); id, idt, cell, slot, nn; the list row; 2 xc (uint2) when
	 * compact; the frame buffers of
	 * the first download (3 x 3 doubles, 3 + 1 ints). */
	need_bytes = (double)n * (4 * 32 + 4 * 16 + 2 * 16 + 5 * 4 + 88 + 4.0 * s->stride +
				  (xc_why ? 0 : 2 * 8)) +
		     (double)s->ncell * (8 + 8 * GPU_SUB);
	cudaMemGetInfo(&free_b, &total_b);
	if (need_bytes > 0.95 * (double)free_b) {
		fprintf(stderr, "mdsim: %d particles need about %.1f GB on the GPU; %.1f GB are free on %s\n",
			n, need_bytes / 1e9, free_b / 1e9, c->gpu_name);
		return MD_EXIT_INPUT;
	}
	DALLOC(s->x, n); DALLOC(s->v, n); DALLOC(s->xq0, n); DALLOC(s->xt, n);
	DALLOC(s->vt, n); DALLOC(s->f, n); DALLOC(s->img, n);
	DALLOC(c->xqbuf[0], n); DALLOC(c->xqbuf[1], n);
	if (!xc_why) {
		DALLOC(c->xcbuf[0], n); DALLOC(c->xcbuf[1], n);
	}
	set_parity(c, 0);
	DALLOC(s->imgt, n); DALLOC(s->id, n); DALLOC(s->idt, n); DALLOC(s->cell, n);
	DALLOC(s->slot, n); DALLOC(s->cell_count, s->ncell * GPU_SUB);
	DALLOC(s->cell_start, s->ncell + 1);
	DALLOC(s->sub_start, s->ncell * GPU_SUB + 1);
	DALLOC(s->block_sums, (s->ncell * GPU_SUB + GPU_SCAN_CELLS - 1) / GPU_SCAN_CELLS + 1);
	s->nl = NULL;
	GPU_CHECK(alloc_list(c, s->stride)); DALLOC(s->nn, n);
	DALLOC(s->st, 1); DALLOC(s->acc, 1); DALLOC(c->susp_buf, s->susp_max);
	s->req = &s->st->rebuild;	/* device address: request_rebuild() */
	/* thermo copies the whole block, the NH fields included */
	GPU_CHECK(cudaMemsetAsync(s->acc, 0, sizeof(gpu_acc), c->stream));
	GPU_CHECK(cudaMallocHost((void **)&c->h_status, sizeof(gpu_status)));
	GPU_CHECK(cudaMallocHost((void **)&c->h_acc, sizeof(gpu_acc)));

	/* upload once */
	hx = (double4_32a *)malloc(sizeof(double4_32a) * n);
	hv = (double4_32a *)malloc(sizeof(double4_32a) * n);
	himg = (int4 *)malloc(sizeof(int4) * n);
	hid = (int *)malloc(sizeof(int) * n);
	if (!hx || !hv || !himg || !hid) {
		free(hx); free(hv); free(himg); free(hid);
		fprintf(stderr, "mdsim: out of host memory\n");
		return MD_EXIT_SIM;
	}
	for (i = 0; i < n; i++) {
		hx[i] = make_double4_32a(st->x[3 * i], st->x[3 * i + 1], st->x[3 * i + 2],
				     (double)st->type[i]);
		hv[i] = make_double4_32a(st->v[3 * i], st->v[3 * i + 1], st->v[3 * i + 2], 0.0);
		himg[i] = make_int4(st->image[3 * i], st->image[3 * i + 1],
				    st->image[3 * i + 2], 0);
		hid[i] = i;
	}
	gpu_copy(c, s->x, hx, sizeof(double4_32a) * n, cudaMemcpyHostToDevice);
	gpu_copy(c, s->v, hv, sizeof(double4_32a) * n, cudaMemcpyHostToDevice);
	gpu_copy(c, s->img, himg, sizeof(int4) * n, cudaMemcpyHostToDevice);
	gpu_copy(c, s->id, hid, sizeof(int) * n, cudaMemcpyHostToDevice);
	memset(c->h_status, 0, sizeof(gpu_status));
	c->h_status->step = st->step;
	c->h_status->danger = -1;	/* the set-up build: no xq0 to compare with */
	write_status(c);
	GPU_CHECK(cudaStreamSynchronize(c->stream));
	free(hx); free(hv); free(himg); free(hid);

	for (i = 0; i < MD_STRAT_COUNT; i++) {
		c->launch[i].block = cfg->block_size ? cfg->block_size : 128;
		c->launch[i].tpp = cfg->threads_per_particle ? cfg->threads_per_particle : 4;
		c->launch[i].hybrid_ratio = (float)cfg->hybrid_ratio;
	}
	c->launch[MD_STRAT_global].tpp = 1;
	/* thread indices are int: n * tpp must stay below 2^31 (the autotuner
	 * tries up to 16 lanes, which n < 2^27 always allows) */
	if ((long long)n * c->launch[MD_STRAT_register].tpp >= (1LL << 31)) {
		fprintf(stderr, "mdsim: %s: [backend] threads_per_particle = %d with %d particles exceeds 2^31 GPU threads; use %lld or fewer\n",
			cfg->path, c->launch[MD_STRAT_register].tpp, n,
			((1LL << 31) - 1) / n);
		return MD_EXIT_INPUT;
	}
	c->strategy = cfg->strategy >= 0 ? cfg->strategy : MD_STRAT_register;
	s->list16 = gpu_strategies[c->strategy].list16;
	s->list16_max = GPU_LIST16_MAX;
	s->list_idx = GPU_LIST_IDX;

	/* first list and forces; grow the list if the guess was short */
	gpu_enqueue_force_rebuild(s, c->stream);
	read_status(c);
	while (c->h_status->halt) {
		int rc = recover(c, 0);

		if (rc)
			return rc;
	}
	autotune(c);
	if (c->xcbuf[0] && c->strategy != MD_STRAT_register) {
		cudaFree(c->xcbuf[0]); cudaFree(c->xcbuf[1]);
		c->xcbuf[0] = c->xcbuf[1] = NULL;
		set_parity(c, c->parity);
		xc_why = "the autotuner chose another strategy";
	}
	enqueue_force(c, 1);
	read_status(c);
	{
		int rc = c->h_status->halt ? recover(c, 0) : 0;

		if (rc)
			return rc;
	}
	c->h_status->builds = 0;	/* statistics cover the run */
	c->h_status->dangerous = 0;
	write_status(c);
	c->step0 = st->step;
	memset(&c->stats, 0, sizeof(c->stats));
	ensure_graphs(c);
	if (!cfg->quiet) {
		printf("GPU: %s, %d particles, %d x %d x %d cells, list stride %d, strategy %s (block %d, tpp %d, ratio %.2f)\n",
		       c->gpu_name, n, s->nc[0], s->nc[1], s->nc[2], s->stride,
		       gpu_strategies[c->strategy].name, c->launch[c->strategy].block,
		       c->launch[c->strategy].tpp, c->launch[c->strategy].hybrid_ratio);
		if (c->persist_grid)
			printf("GPU: NVE steps in one persistent kernel (%d blocks, %d lanes per particle; backend.persistent)\n",
			       c->persist_grid, c->persist_tpp);
		else if (cfg->persistent == 1)
			printf("GPU: backend.persistent = on needs the register strategy and a device with cooperative launch and %zu KiB of shared memory per block: steps run in graphs\n",
			       gpu_persist_smem() / 1024);
		if (!xc_why)
			printf("GPU: 8-byte positions in the register strategy's gathers%s: quantum %.2g, separations exact below %.3g (backend.compact_positions)\n",
			       s->xc_energy ? ", thermo steps included" : " between thermo steps",
			       1.0 / s->cscale[0], 0.5 * 2097152.0 / s->cscale[0]);
		else if (cfg->compact == 1)
			printf("GPU: backend.compact_positions = on: not used (%s)\n", xc_why);
		if (s->pred_t > 0.0) {
			printf("GPU: neighbour lists of the positions %d steps ahead along the velocities",
			       cfg->predict);
			if (s->pred_a > 0.0)
				printf(" plus a t^2 / 2 (t = %d steps, a of the last step)",
				       cfg->predict_accel);
			printf(", at most 0.95 skin/2 ahead (neighbor.predict%s)\n",
			       s->pred_a > 0.0 ? ", predict_accel" : "");
		}
	}
	return 0;
}

static int gpu_thermo(md_backend *b, md_thermo *th)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;

	GPU_CHECK(cudaMemsetAsync(&c->s.acc->ke, 0, sizeof(double), c->stream));
	gpu_enqueue_kinetic(&c->s, c->mass, c->stream);
	gpu_copy(c, c->h_acc, c->s.acc, sizeof(gpu_acc), cudaMemcpyDeviceToHost);
	GPU_CHECK(cudaStreamSynchronize(c->stream));
	th->step = c->h_status->step;
	th->pe = c->h_acc->pe;
	th->virial = c->h_acc->virial;
	th->ke = c->h_acc->ke;
	return 0;
}

/* Device buffers of a frame in host layout, allocated at the first download. */
static int ensure_frame_buffers(gpu_ctx *c)
{
	size_t n3 = 3 * (size_t)c->s.n;

	if (c->d_fx)
		return 0;
	if (cudaMalloc(&c->d_fx, n3 * sizeof(double)) != cudaSuccess ||
	    cudaMalloc(&c->d_fv, n3 * sizeof(double)) != cudaSuccess ||
	    cudaMalloc(&c->d_ff, n3 * sizeof(double)) != cudaSuccess ||
	    cudaMalloc(&c->d_fimg, n3 * sizeof(int)) != cudaSuccess ||
	    cudaMalloc(&c->d_ftype, (size_t)c->s.n * sizeof(int)) != cudaSuccess) {
		fprintf(stderr, "mdsim: cannot allocate %.1f MB of GPU memory for output frames\n",
			n3 * 40.0 / 1e6);
		return MD_EXIT_SIM;
	}
	return 0;
}

/*
 * The GPU wraps and reorders the frame (k_frame, on the main stream); the
 * copy stream then copies the requested fields into st (contiguous
 * arrays, pinned when the caller pinned them) while the main stream goes
 * on with the next steps. The frame buffers are reused: the next k_frame
 * waits for the previous frame's copies (long done at any sensible
 * output interval).
 */
static int gpu_download_start(md_backend *b, md_state *st, unsigned fields,
			      int tag)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	size_t n = (size_t)c->s.n, n3 = 3 * n;
	cudaStream_t cs = c->stream_copy;
	int rc = ensure_frame_buffers(c);

	if (rc)
		return rc;
	if (tag < 0 || tag >= MD_DL_TAGS)
		return MD_EXIT_SIM;
	if (c->dl_last >= 0)
		GPU_CHECK(cudaStreamWaitEvent(c->stream, c->ev_copied[c->dl_last], 0));
	gpu_enqueue_frame(&c->s, fields, c->d_fx, c->d_fv, c->d_ff, c->d_fimg,
			  c->d_ftype, c->stream);
	GPU_CHECK(cudaEventRecord(c->ev_framed, c->stream));
	GPU_CHECK(cudaStreamWaitEvent(cs, c->ev_framed, 0));
	if (st->type)
		gpu_copy_on(c, cs, st->type, c->d_ftype, n * sizeof(int), cudaMemcpyDeviceToHost);
	if (fields & MD_F_X)
		gpu_copy_on(c, cs, st->x, c->d_fx, n3 * sizeof(double), cudaMemcpyDeviceToHost);
	if (fields & MD_F_V)
		gpu_copy_on(c, cs, st->v, c->d_fv, n3 * sizeof(double), cudaMemcpyDeviceToHost);
	if (fields & MD_F_F)
		gpu_copy_on(c, cs, st->f, c->d_ff, n3 * sizeof(double), cudaMemcpyDeviceToHost);
	if (fields & MD_F_IMAGE)
		gpu_copy_on(c, cs, st->image, c->d_fimg, n3 * sizeof(int), cudaMemcpyDeviceToHost);
	GPU_CHECK(cudaEventRecord(c->ev_copied[tag], cs));
	c->dl_last = tag;
	st->step = c->h_status->step;	/* the host's step counter is current */
	return 0;
}

/*
 * Called from the trajectory writer's thread too: it selects the run's
 * device (a thread starts on device 0) and reports a CUDA error as a
 * return code instead of exiting from under the main thread.
 */
static int gpu_download_wait(md_backend *b, int tag)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	cudaError_t e;

	if (tag < 0 || tag >= MD_DL_TAGS)
		return MD_EXIT_SIM;
	e = cudaSetDevice(c->cfg.gpu_id);
	if (e == cudaSuccess)
		e = cudaEventSynchronize(c->ev_copied[tag]);
	if (e != cudaSuccess) {
		fprintf(stderr, "mdsim: CUDA error while waiting for a frame copy: %s\n",
			cudaGetErrorString(e));
		return MD_EXIT_SIM;
	}
	return 0;
}

/* Synchronous download: the last tag, started and waited for. */
static int gpu_download(md_backend *b, md_state *st, unsigned fields)
{
	int rc = gpu_download_start(b, st, fields, MD_DL_TAGS - 1);

	return rc ? rc : gpu_download_wait(b, MD_DL_TAGS - 1);
}

/* Page-locks a download target; on failure the copy is staged instead. */
static void gpu_pin(md_backend *b, void *p, size_t bytes)
{
	(void)b;
	if (p && bytes && cudaHostRegister(p, bytes, cudaHostRegisterDefault) != cudaSuccess)
		(void)cudaGetLastError();
}

static void gpu_unpin(md_backend *b, void *p)
{
	(void)b;
	if (p && cudaHostUnregister(p) != cudaSuccess)
		(void)cudaGetLastError();	/* was not pinned */
}

static int gpu_set_strategy(md_backend *b, int strategy)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;

	if (strategy < 0 || strategy >= MD_STRAT_COUNT)
		return MD_EXIT_INPUT;
	if (strategy == c->strategy)
		return 0;
	{
		int rc = use_strategy(c, strategy);

		if (rc)
			return rc;
	}
	destroy_graphs(c);
	/* forces of the current positions with the new strategy (idempotent) */
	enqueue_force(c, 1);
	GPU_CHECK(cudaStreamSynchronize(c->stream));
	return 0;
}

static void gpu_stats(md_backend *b, md_stats *out)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	const gpu_launch *l = &c->launch[c->strategy];
	int *nn = (int *)malloc(sizeof(int) * c->s.n);
	double tot = 0.0, tp;
	long i;

	*out = c->stats;
	read_status(c);
	out->builds = c->h_status->builds;
	out->dangerous = c->h_status->dangerous;
	if (nn) {
		gpu_copy(c, nn, c->s.nn, sizeof(int) * c->s.n, cudaMemcpyDeviceToHost);
		GPU_CHECK(cudaStreamSynchronize(c->stream));
		for (i = 0; i < c->s.n; i++)
			tot += nn[i];
		free(nn);
	}
	out->avg_neighbors = tot / c->s.n;
	/* the summary splits the loop time by the sampled phase fractions */
	tp = c->t_prof[0] + c->t_prof[1] + c->t_prof[2];
	if (tp > 0.0) {
		out->t[MD_T_NEIGH] = c->t_prof[0] / tp;
		out->t[MD_T_PAIR] = c->t_prof[1] / tp;
		out->t[MD_T_INTEGRATE] = c->t_prof[2] / tp;
		out->t_fractions = 1;
		out->t_fused = c->prof_fused;
	}
	snprintf(out->desc, sizeof(out->desc),
		 "cuda on %.60s, strategy %s (block %d, tpp %d, hybrid ratio %.2f), list stride %d, %d x %d x %d cells",
		 c->gpu_name, gpu_strategies[c->strategy].name, l->block, l->tpp,
		 l->hybrid_ratio, c->s.stride, c->s.nc[0], c->s.nc[1], c->s.nc[2]);
}

/*
 * Thermostats: the velocity update on the device (k_vupdate), the same
 * numbers as cpu_vupdate(); tested against the CPU in tests/gpu_backend.c.
 */
static int gpu_vupdate(md_backend *b, const md_vupdate *u)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;

	gpu_enqueue_vupdate(&c->s, u, c->mass, c->stream);
	return 0;
}

/*
 * Langevin inside the integrators (k_integrate1, k_kick_drift,
 * k_integrate2): no host round trip per step, so NVT runs at the speed of
 * NVE. The parameters are baked into the step graphs: captured again when
 * they change.
 */
static int gpu_langevin(md_backend *b, const md_langevin *p)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	int on = p != NULL;

	if (on == c->s.lgv_on && (!on || !memcmp(p, &c->s.lgv, sizeof(*p))))
		return 0;
	c->s.lgv_on = on;
	if (on)
		c->s.lgv = *p;
	destroy_graphs(c);
	return 0;
}

/*
 * Nose-Hoover inside the step (enqueue_first, enqueue_kick_drift,
 * enqueue_last): no host round trip per step. zeta and eta live in the
 * device's accumulator block; they are uploaded only when the host's
 * values differ from the ones last read back (a restart, a test), so a
 * steady run copies 16 bytes per chunk (the read-back) and nothing to the
 * device. That cache assumes every Nose-Hoover run() is followed by the
 * read-back, as md_thermostat_run does (nothing else turns the thermostat
 * on). Parameters are baked into the graphs: captured again on change.
 */
static int gpu_nose_hoover(md_backend *b, md_nose_hoover *p, int load)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	gpu_acc *h = c->h_acc;
	md_nose_hoover q;
	int on = p != NULL;

	if (!load) {
		if (!on || !c->s.nh_on)
			return 0;
		gpu_copy(c, &h->nh_zeta, &c->s.acc->nh_zeta, 2 * sizeof(double),
			 cudaMemcpyDeviceToHost);
		GPU_CHECK(cudaStreamSynchronize(c->stream));
		p->zeta = c->nh_zeta = h->nh_zeta;
		p->eta = c->nh_eta = h->nh_eta;
		return 0;
	}
	if (on) {
		q = *p;
		q.zeta = q.eta = 0.0;	/* the parameters only */
	}
	if (on != c->s.nh_on || (on && memcmp(&q, &c->s.nh, sizeof(q)))) {
		c->s.nh_on = on;
		if (on)
			c->s.nh = q;
		c->nh_known = 0;
		destroy_graphs(c);
	}
	if (on && (!c->nh_known || p->zeta != c->nh_zeta || p->eta != c->nh_eta)) {
		h->nh_zeta = p->zeta;
		h->nh_eta = p->eta;
		h->nh_ke = 0.0;
		h->nh_scale = 1.0;
		gpu_copy(c, &c->s.acc->nh_zeta, &h->nh_zeta, 4 * sizeof(double),
			 cudaMemcpyHostToDevice);
		GPU_CHECK(cudaStreamSynchronize(c->stream));
		c->nh_zeta = p->zeta;
		c->nh_eta = p->eta;
		c->nh_known = 1;
	}
	return 0;
}

/*
 * Nothing to do: the order within a GPU cell follows atomics, so GPU
 * restarts reproduce a run to round-off, never bit-for-bit, and a rebuild
 * per frame would only cost time.
 */
static int gpu_reset(md_backend *b)
{
	(void)b;
	return 0;
}

static const md_backend_ops gpu_ops = {
	"cuda", gpu_init, gpu_run, gpu_thermo, gpu_download, gpu_set_strategy,
	gpu_vupdate, gpu_reset, gpu_stats, gpu_destroy, gpu_download_start,
	gpu_download_wait, gpu_pin, gpu_unpin, gpu_langevin, gpu_nose_hoover
};

extern "C" const md_backend_ops *gpu_backend_ops(void)
{
	return &gpu_ops;
}

/* --- extras for tests and the benchmark ---------------------------------- */

extern "C" int gpu_neighbors(md_backend *b, int orig, int *out, int max)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	int n = c->s.n, i, k, nn;
	int *id = (int *)malloc(sizeof(int) * n), *row;

	if (!id)
		return -1;
	gpu_copy(c, id, c->s.id, sizeof(int) * n, cudaMemcpyDeviceToHost);
	GPU_CHECK(cudaStreamSynchronize(c->stream));
	for (i = 0; i < n && id[i] != orig; i++)
		;
	if (i == n) {
		free(id);
		return -1;
	}
	gpu_copy(c, &nn, c->s.nn + i, sizeof(int), cudaMemcpyDeviceToHost);
	/* the whole block of 32 particles holding i's entries (of 4 or, with
	 * list16, 2 bytes) */
	row = (int *)malloc(sizeof(int) * GPU_NL_BLOCK * c->s.stride);
	if (!row) {
		free(id);
		return -1;
	}
	if (c->s.list16)
		gpu_copy(c, row, (unsigned short *)c->s.nl +
			 gpu_nl_row(c->s.stride, i - i % GPU_NL_BLOCK),
			 sizeof(unsigned short) * GPU_NL_BLOCK * c->s.stride,
			 cudaMemcpyDeviceToHost);
	else
		gpu_copy(c, row, c->s.nl + gpu_nl_row(c->s.stride, i - i % GPU_NL_BLOCK),
			 sizeof(int) * GPU_NL_BLOCK * c->s.stride, cudaMemcpyDeviceToHost);
	GPU_CHECK(cudaStreamSynchronize(c->stream));
	if (c->s.list16) {	/* flat indices into i's cell's neighbourhood */
		int *cs = (int *)malloc(sizeof(int) * (c->s.ncell + 1));
		int cell = 0, ncj, js[32], pre[33], q;
		const unsigned short *r16 = (const unsigned short *)row +
			gpu_nl_row(c->s.stride, i % GPU_NL_BLOCK);

		if (!cs) {
			free(row);
			free(id);
			return -1;
		}
		gpu_copy(c, cs, c->s.cell_start, sizeof(int) * (c->s.ncell + 1),
			 cudaMemcpyDeviceToHost);
		GPU_CHECK(cudaStreamSynchronize(c->stream));
		while (cs[cell + 1] <= i)
			cell++;
		ncj = gpu_stencil(c->s, cell, 0, &q);
		pre[0] = 0;
		for (q = 0; q < ncj; q++) {
			int cj = 0;

			gpu_stencil(c->s, cell, q, &cj);
			js[q] = cs[cj];
			pre[q + 1] = pre[q] + cs[cj + 1] - cs[cj];
		}
		for (k = 0; k < nn && k < max && k < c->s.stride; k++) {
			const int f = r16[gpu_nl_off(k)];

			for (q = 0; q + 1 < ncj && pre[q + 1] <= f; q++)
				;
			out[k] = id[js[q] + f - pre[q]];
		}
		free(cs);
	} else {
		for (k = 0; k < nn && k < max && k < c->s.stride; k++)
			out[k] = id[row[gpu_nl_row(c->s.stride, i % GPU_NL_BLOCK) + gpu_nl_off(k)]];
	}
	free(row);
	free(id);
	return nn;
}

extern "C" int gpu_list_stride(md_backend *b)
{
	return ((gpu_ctx *)b->ctx)->s.stride;
}

extern "C" void gpu_bench_info(md_backend *b, gpu_bench_desc *d)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	const gpu_launch *l = &c->launch[c->strategy];

	snprintf(d->gpu, sizeof(d->gpu), "%.200s", c->gpu_name);
	d->peak_bw = c->peak_bw;
	d->strategy = c->strategy;
	d->persistent = want_persist(c);
	d->block = l->block;
	d->tpp = l->tpp;
	d->hybrid_ratio = c->launch[MD_STRAT_hybrid].hybrid_ratio;	/* the hybrid's */
	d->stride = c->s.stride;
	d->builds = c->h_status->builds;
}

/*
 * gpu_bench_phases - run nsteps ungraphed with events between the phases;
 * ms[0..2] get neighbour, force and integrate milliseconds per step.
 */
extern "C" int gpu_bench_phases(md_backend *b, long nsteps, double ms[3])
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	double save[3];
	long save_n = c->prof_steps;
	int d;

	for (d = 0; d < 3; d++) {
		save[d] = c->t_prof[d];
		c->t_prof[d] = 0.0;
	}
	enqueue_first(c);
	profiled_middle(c, nsteps, 0);
	enqueue_last(c, 0);
	read_status(c);
	if (!c->h_status->halt && env_switch("MDSIM_PROFILE_REBUILD")) {
		double t[4];

		gpu_time_rebuild(&c->s, c->stream, t);
		enqueue_force(c, 1);	/* forces of the re-sorted particles */
		read_status(c);
		printf("rebuild stages (ms): bin %.4f  scan %.4f  sort %.4f  list %.4f\n",
		       t[0], t[1], t[2], t[3]);
	}
	for (d = 0; d < 3; d++) {
		ms[d] = c->t_prof[d] / nsteps;
		c->t_prof[d] = save[d];
	}
	c->prof_steps = save_n;
	if (c->h_status->halt)
		return recover(c, 1);
	return 0;
}

extern "C" int gpu_test_shrink_list(md_backend *b, int stride)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;

	if (stride < 32 || stride % 32)	/* rows are written in 32-byte sectors */
		return MD_EXIT_INPUT;
	read_status(c);
	GPU_CHECK(alloc_list(c, stride));
	c->s.stride = stride;
	destroy_graphs(c);
	c->h_status->rebuild = 1;	/* the list is invalid now */
	write_status(c);
	return 0;
}

extern "C" int gpu_test_list16_max(md_backend *b, int max)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;

	if (max < 1 || max > GPU_LIST16_MAX)
		return -1;
	c->s.list16_max = max;
	destroy_graphs(c);	/* they hold the old value */
	return 0;
}

extern "C" int gpu_test_compact(md_backend *b)
{
	return ((gpu_ctx *)b->ctx)->s.xc != NULL;
}

extern "C" int gpu_test_coop_rebuild(md_backend *b)
{
	return coop_grid((gpu_ctx *)b->ctx) > 0;
}

extern "C" int gpu_test_fused_trials(md_backend *b, long *vw_nonzero, int *retimed)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;
	const size_t n = (size_t)c->s.n;
	double4_32a *v = (double4_32a *)malloc(n * sizeof(*v));

	*vw_nonzero = -1;
	if (v) {
		gpu_copy(c, v, c->s.v, n * sizeof(*v), cudaMemcpyDeviceToHost);
		GPU_CHECK(cudaStreamSynchronize(c->stream));
		*vw_nonzero = 0;
		for (size_t i = 0; i < n; i++)
			*vw_nonzero += v[i].w != 0.0;
		free(v);
	}
	*retimed = c->retimed;
	return c->fused_timed;
}

extern "C" int gpu_test_list_idx_max(md_backend *b, int max)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;

	if (max < 0 || max > GPU_LIST_IDX)
		return -1;
	c->s.list_idx = max;
	if (forced_rebuild(c))	/* the graphs hold the old value */
		return -1;
	/* forces in the new order, as after a strategy switch */
	enqueue_force(c, 1);
	GPU_CHECK(cudaStreamSynchronize(c->stream));
	return 0;
}

extern "C" double gpu_set_hybrid_ratio(md_backend *b, double ratio)
{
	gpu_ctx *c = (gpu_ctx *)b->ctx;

	ratio = ratio < 0.0 ? 0.0 : (ratio > 1.0 ? 1.0 : ratio);
	c->launch[MD_STRAT_hybrid].hybrid_ratio = (float)ratio;
	if (c->strategy == MD_STRAT_hybrid) {
		destroy_graphs(c);	/* the split is baked into the graph */
		enqueue_force(c, 1);	/* forces of this state, new split */
		GPU_CHECK(cudaStreamSynchronize(c->stream));
	}
	return ratio;
}
