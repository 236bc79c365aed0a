/* thermo.c - thermo lines and the end-of-run summary (LAMMPS layout). */
#include "thermo.h"

#include "setup.h"

/* The potential of the tail corrections; off unless configured. */
static struct {
	int on, ntypes;
	double frac[MD_MAX_TYPES];
	double eps[MD_MAX_TYPES][MD_MAX_TYPES], sigma[MD_MAX_TYPES][MD_MAX_TYPES];
	double rc[MD_MAX_TYPES][MD_MAX_TYPES];
} tail;

void md_thermo_configure(const md_config *cfg)
{
	int a, b;

	tail.on = cfg->tail;
	tail.ntypes = cfg->ntypes > 1 ? cfg->ntypes : 1;
	for (a = 0; a < tail.ntypes; a++) {
		tail.frac[a] = tail.ntypes > 1 ? cfg->type_frac[a] : 1.0;
		for (b = 0; b < tail.ntypes; b++)
			md_pair_coeff(cfg, a, b, &tail.eps[a][b], &tail.sigma[a][b],
				      &tail.rc[a][b]);
	}
}

void md_thermo_derive(const md_thermo *th, int n, const double box[3],
		      md_thermo_vals *o)
{
	double vol = box[0] * box[1] * box[2], et = 0.0, pt = 0.0;

	/* mixtures: sum over type pairs of x_a x_b times the one-type tail */
	for (int a = 0; tail.on && a < tail.ntypes; a++)
		for (int b = 0; b < tail.ntypes; b++) {
			double e, p, w = tail.frac[a] * tail.frac[b];

			md_lj_tail(n / vol, tail.eps[a][b], tail.sigma[a][b],
				   tail.rc[a][b], &e, &p);
			et += w * e;
			pt += w * p;
		}
	o->temp = 2.0 * th->ke / md_dof(n);
	o->epair = th->pe / n + et;
	o->ekin = th->ke / n;
	o->etot = (th->pe + th->ke) / n + et;
	o->press = (2.0 * th->ke + th->virial) / (3.0 * vol) + pt;
}

void md_thermo_header(FILE *out)
{
	fprintf(out, "%10s %14s %14s %14s %14s %14s\n", "Step", "Temp", "E_pair",
		"E_kin", "TotEng", "Press");
}

void md_thermo_line(FILE *out, const md_thermo *th, int n, const double box[3])
{
	md_thermo_vals v;

	md_thermo_derive(th, n, box, &v);
	fprintf(out, "%10ld %14.8g %14.8g %14.8g %14.8g %14.8g\n", th->step,
		v.temp, v.epair, v.ekin, v.etot, v.press);
	fflush(out);
}

void md_summary(FILE *out, double loop_s, long steps, int n, double dt,
		const md_stats *s)
{
	static const char *names[MD_T_COUNT] = {
		"Pair", "Neigh", "Integrate", "Output", "Viz", "Other"
	};
	double rate = loop_s > 0.0 ? steps / loop_s : 0.0;
	double accounted = 0.0, t_in[MD_T_COUNT];
	int k;

	/* GPU phases are fractions of the GPU time (all but output and viz) */
	for (k = 0; k < MD_T_COUNT; k++)
		t_in[k] = s->t[k];
	if (s->t_fractions) {
		double gpu = loop_s - s->t[MD_T_OUTPUT] - s->t[MD_T_VIZ];

		t_in[MD_T_PAIR] *= gpu;
		t_in[MD_T_NEIGH] *= gpu;
		t_in[MD_T_INTEGRATE] *= gpu;
	}

	fprintf(out, "Loop time of %g s for %ld steps with %d atoms\n\n", loop_s,
		steps, n);
	fprintf(out, "Performance: %.3f tau/day, %.3f timesteps/s, %.3f Matom-step/s\n",
		rate * dt * 86400.0, rate, rate * n * 1e-6);
	fprintf(out, "Backend: %s\n\n", s->desc);
	if (s->t_fractions)
		fprintf(out, "(GPU phases split by event timing of sampled steps%s)\n",
			s->t_fused ? "; the fused NVE steps integrate inside the force kernel: Pair includes it" : "");
	fprintf(out, "Section   |  time (s)  | %%total\n");
	fprintf(out, "----------+------------+-------\n");
	for (k = 0; k < MD_T_COUNT; k++)
		if (k != MD_T_OTHER)
			accounted += t_in[k];
	for (k = 0; k < MD_T_COUNT; k++) {
		double t = k == MD_T_OTHER ? loop_s - accounted + t_in[k] : t_in[k];

		if (t < 0.0)
			t = 0.0;
		fprintf(out, "%-9s | %10.4f | %6.2f\n", names[k], t,
			loop_s > 0.0 ? 100.0 * t / loop_s : 0.0);
	}
	fprintf(out, "\nNeighbor list builds = %ld\n", s->builds);
	fprintf(out, "Dangerous builds = %ld\n", s->dangerous);
	if (s->dangerous > 0)
		fprintf(stderr, "mdsim: warning: %ld of %ld neighbour list builds came after a particle had moved more than skin/2 since the previous one: pairs within the cut-off may have been missed in between (set neighbor.check = true, or a smaller neighbor.every)\n",
			s->dangerous, s->builds);
	fprintf(out, "Average neighbors per atom = %.2f (full list, cut-off + skin)\n",
		s->avg_neighbors);
	if (s->copies || s->bytes_h2d > 0.0 || s->bytes_d2h > 0.0)
		fprintf(out, "Host-device copies = %ld, %.0f bytes to device, %.0f bytes to host (%.1f bytes/step)\n",
			s->copies, s->bytes_h2d, s->bytes_d2h,
			steps > 0 ? (s->bytes_h2d + s->bytes_d2h) / steps : 0.0);
	fflush(out);
}
