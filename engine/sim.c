/*
 * sim.c - the run loop. Steps are handed to the backend in chunks that end
 * at thermo steps; a chunk is sized so that the progress line and signals
 * are looked at a few times a second.
 */
#include "sim.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "output.h"
#include "setup.h"
#include "thermo.h"
#include "timer.h"
#include "../kernels/gpu.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	if (stop_signal) {	/* second signal: abort at once */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stop_signal = sig;
}

void md_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int md_sim_init(md_sim *sim, const md_config *cfg, FILE *out)
{
	const md_backend_ops *ops = &md_cpu_backend;
	char gpu[256];
	int rc, kind = cfg->device;

	memset(sim, 0, sizeof(*sim));
	sim->cfg = *cfg;
	rc = md_output_check(cfg, stderr);	/* before any work */
	if (!rc)
		rc = cfg->restart[0] ? md_output_restart(cfg, &sim->st, out) :
			md_setup_lattice(cfg, &sim->st);
	if (rc)
		return rc;
	if (!cfg->restart[0])
		md_setup_velocities(cfg, &sim->st);

	if (kind != MD_BACKEND_CPU) {
		int ok = gpu_backend_ops() && gpu_probe(cfg->gpu_id, gpu, sizeof(gpu));

		if (!ok && !gpu_backend_ops())
			gpu_probe(cfg->gpu_id, gpu, sizeof(gpu));
		if (ok) {
			ops = gpu_backend_ops();
			kind = MD_BACKEND_CUDA;
		} else if (kind == MD_BACKEND_CUDA) {
			fprintf(stderr, "mdsim: backend cuda requested but no GPU is usable: %s\n",
				gpu);
			return MD_EXIT_INPUT;
		} else {
			kind = MD_BACKEND_CPU;
			if (!cfg->quiet)
				fprintf(out, "No usable GPU (%s): running on the CPU backend.\n",
					gpu);
		}
	} else {
		kind = MD_BACKEND_CPU;
	}
	sim->backend_kind = kind;
	sim->be.ops = ops;
	return ops->init(&sim->be, &sim->cfg, &sim->st);
}

void md_sim_destroy(md_sim *sim)
{
	if (sim->be.ops && sim->be.ops->destroy)
		sim->be.ops->destroy(&sim->be);
	md_state_free(&sim->st);
}

static void progress(FILE *err, long done, long total, double el)
{
	double rate = el > 0.0 ? done / el : 0.0;
	double eta = rate > 0.0 ? (total - done) / rate : 0.0;

	fprintf(err, "\r  step %ld/%ld  %.1f%%  %.1f steps/s  ETA %.0f s   ",
		done, total, 100.0 * done / (total ? total : 1), rate, eta);
	fflush(err);
}

int md_sim_run(md_sim *sim, FILE *out)
{
	const md_config *c = &sim->cfg;
	md_backend *be = &sim->be;
	long total = c->steps, every = c->thermo_every, done = 0, chunk = 1;
	int show = c->progress < 0 ? isatty(STDERR_FILENO) : c->progress;
	int rc = 0, quiet = c->quiet, progress_on = 0;
	double t0, last_prog, tout = 0.0;
	md_output *traj = NULL;

	if (quiet)
		show = 0;
	if (!quiet) {
		be->ops->thermo(be, &sim->last);
		md_thermo_header(out);
		md_thermo_line(out, &sim->last, sim->st.n, sim->st.box);
	}
	rc = md_output_open(&traj, c, &sim->st, be);	/* frame of the first step */
	if (rc)
		return rc;
	t0 = md_now();
	last_prog = t0;
	while (done < total && !stop_signal) {
		long next = every > 0 ? (done / every + 1) * every : total;
		long n = next - done;
		double tc;

		if (next > total)
			n = total - done;
		if (n > chunk)
			n = chunk;
		n = md_output_clip(traj, done, n);	/* end on frame steps */
		tc = md_now();
		rc = be->ops->run(be, n);
		if (rc)
			break;
		done += n;
		tc = md_now() - tc;
		if (tc < 0.1 && chunk < (1L << 30))
			chunk *= 2;
		else if (tc > 0.4 && chunk > 1)
			chunk /= 2;
		if ((every > 0 && done % every == 0) || done == total) {
			double to = md_now();

			if (progress_on) {
				fprintf(stderr, "\r%78s\r", "");
				progress_on = 0;
			}
			if (!quiet) {
				be->ops->thermo(be, &sim->last);
				md_thermo_line(out, &sim->last, sim->st.n, sim->st.box);
			}
			tout += md_now() - to;
		}
		if (traj) {
			double to = md_now();

			rc = md_output_step(traj, be, done);
			tout += md_now() - to;
			if (rc)
				break;
		}
		if (show && md_now() - last_prog > 0.5 && done < total) {
			last_prog = md_now();
			progress(stderr, done, total, last_prog - t0);
			progress_on = 1;
		}
	}
	sim->loop_s = md_now() - t0;
	sim->steps_done = done;
	if (progress_on)
		fprintf(stderr, "\r%78s\r", "");
	if (!rc && stop_signal) {
		fprintf(stderr, "mdsim: %s received: stopped cleanly after step %ld\n",
			stop_signal == SIGINT ? "SIGINT" : "SIGTERM", done);
		rc = 128 + stop_signal;
	}
	{	/* queued frames written, file flushed and closed */
		int orc = md_output_close(traj, out);

		if (orc && (rc == 0 || rc > 128))
			rc = orc;
	}
	{
		md_stats s;

		be->ops->stats(be, &s);
		s.t[MD_T_OUTPUT] += tout;
		fprintf(out, "\n");
		md_summary(out, sim->loop_s, done, sim->st.n, c->dt, &s);
	}
	return rc;
}
