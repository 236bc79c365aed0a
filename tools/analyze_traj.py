#!/usr/bin/python3
"""analyze_traj.py - radial distribution function, mean-squared displacement
and energies of an mdsim H5MD trajectory.

    /usr/bin/python3 tools/analyze_traj.py traj.h5md [--out PREFIX]
        [--start S] [--rmax R] [--bins N] [--skip K] [--max-ref M]
        [--check-mdanalysis]

Reads the file with h5py (reduced LJ units: lengths in sigma, time in tau,
energies per particle in epsilon) and writes PREFIX.png (g(r), MSD, energies
and temperature), PREFIX_rdf.csv and PREFIX_msd.csv; PREFIX defaults to the
trajectory name without its extension. A summary goes to stdout.

g(r) and MSD use the frames from index S on (--start, default 0: give the
equilibration a few frames, the fcc start has a g(r) of delta peaks).
  g(r)  minimum-image pair distances in the orthorhombic box, averaged over
        frames (every K-th with --skip), up to half the shortest box edge;
        at most M reference particles per frame (default 2000) against all.
  MSD   <|r(t0 + t) - r(t0)|^2> over particles and time origins, from
        positions unwrapped with `image` (or, without images, by following
        each particle across the periodic boundaries between frames);
        D from a straight-line fit MSD = 6 D t + c over its second half.
--check-mdanalysis also computes g(r) with MDAnalysis's InterRDF and prints
the largest difference (MDAnalysis reads positions as float32).

Files written with output.units = argon are converted back to reduced units
with the scales in their /parameters/units record (a note says so), so the
results read the same for either unit system.

Frames that a killed writer left incomplete (NaN, unreadable, or missing
from some element) at the end of the file are skipped with a note.
"""
import argparse
import os
import sys
import warnings

import numpy as np
import h5py

P = "particles/trajectory/"


def complete_frames(f):
    """Indices of frames that every element holds, readable and finite."""
    lens = [f[P + "position/value"].shape[0], f[P + "position/step"].shape[0]]
    if "observables" in f:
        lens += [f["observables/" + k + "/value"].shape[0] for k in f["observables"]]
    n = min(lens)
    good = []
    for k in range(n):
        try:
            if np.isfinite(f[P + "position/value"][k]).all():
                good.append(k)
                continue
        except OSError:
            pass
        break	# only a trailing frame can be incomplete
    return max(lens), good


# observable -> the /parameters/units scale that converts it
OBS_SCALE = {"temperature": "temperature", "pressure": "pressure"}


def unit_scales(f):
    """The file's unit record (docs/h5md.md): system name and scales."""
    if "parameters/units" not in f:
        return "lj", {}
    s = f["parameters/units"].attrs
    name = s.get("system", "lj")
    if isinstance(name, bytes):
        name = name.decode()
    return name, {k: float(s[k]) for k in ("length", "time", "energy", "temperature", "pressure")
                  if k in s}


def load(path):
    """Frames, times, steps, box edges, positions, images, observables,
    all in reduced units (a physical-unit file is divided by its scales)."""
    with h5py.File(path, "r") as f:
        system, scale = unit_scales(f)
        total, good = complete_frames(f)
        if not good:
            sys.exit("analyze_traj: %s has no complete frame" % path)
        nf = len(good)
        if nf < total:
            print("note: %d trailing incomplete frame(s) skipped (a writer killed while flushing)"
                  % (total - nf))
        d = {
            "x": f[P + "position/value"][:nf],
            "step": f[P + "position/step"][:nf],
            "time": f[P + "position/time"][:nf],
            "edges": f[P + "box/edges/value"][:nf],
            "image": f[P + "image/value"][:nf] if P + "image" in f else None,
            "obs": {k: f["observables/" + k + "/value"][:nf] for k in f.get("observables", {})},
        }
    d["system"], d["length"] = system, scale.get("length", 1.0)
    if system != "lj":
        d["x"] = d["x"] / scale["length"]
        d["edges"] = d["edges"] / scale["length"]
        d["time"] = d["time"] / scale["time"]
        for k in d["obs"]:
            d["obs"][k] = d["obs"][k] / scale[OBS_SCALE.get(k, "energy")]
        print("note: %s units in the file (length scale %g), converted to reduced units"
              % (system, scale["length"]))
    d["box"] = np.array([np.diag(e) for e in d["edges"]])
    return d


def rdf(x, box, rmax, nbins, max_ref, rng):
    """g(r) of one or more frames: x [F][N][3], box [F][3]."""
    edges = np.linspace(0.0, rmax, nbins + 1)
    hist = np.zeros(nbins)
    norm = 0.0
    for xf, L in zip(x, box):
        n = len(xf)
        ref = np.arange(n) if n <= max_ref else rng.choice(n, max_ref, replace=False)
        for lo in range(0, len(ref), 256):
            i = ref[lo:lo + 256]
            dv = xf[i, None, :] - xf[None, :, :]
            dv -= L * np.rint(dv / L)
            r = np.sqrt((dv ** 2).sum(-1))
            r[np.arange(len(i)), i] = np.inf	# no self pairs
            hist += np.histogram(r[r < rmax], bins=edges)[0]
        norm += len(ref) * (n - 1) / np.prod(L)
    shell = 4.0 / 3.0 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
    return 0.5 * (edges[1:] + edges[:-1]), hist / (norm * shell)


def unwrap(x, box, image):
    if image is not None:
        return x + image * box[:, None, :]
    xu = x.copy()	# follow particles between frames (minimum image)
    for k in range(1, len(x)):
        dv = x[k] - x[k - 1]
        dv -= box[k] * np.rint(dv / box[k])
        xu[k] = xu[k - 1] + dv
    return xu


def msd(xu, time):
    nf = len(xu)
    lags = np.arange(1, nf)
    out = np.array([((xu[lag:] - xu[:-lag]) ** 2).sum(-1).mean() for lag in lags])
    dt = time[1:] - time[:-1]
    return lags * (dt.mean() if len(dt) else 0.0), out


def mdanalysis_rdf(path, n, start, nf, rmax, nbins, skip, length=1.0):
    """g(r) by MDAnalysis; length: the file's length scale (1: reduced)."""
    warnings.filterwarnings("ignore")
    import MDAnalysis as mda
    from MDAnalysis.analysis.rdf import InterRDF
    if length != 1.0:
        # physical units (Angstrom): MDAnalysis opens the file as it is
        u = mda.Universe(path)
    else:
        # reduced units: convert_units=False; n_atoms given because MDAnalysis
        # 2.4 passes convert_units on to H5MDReader.parse_n_atoms, which
        # rejects it
        u = mda.Universe(path, n_atoms=n, convert_units=False)
    r = InterRDF(u.atoms, u.atoms, nbins=nbins, range=(0.0, rmax * length),
                 exclusion_block=(1, 1))
    r.run(start=start, stop=nf, step=skip)
    return r.results.bins / length, r.results.rdf


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("traj")
    ap.add_argument("--out", help="output prefix (default: the trajectory name)")
    ap.add_argument("--start", type=int, default=0, help="first frame of g(r) and MSD")
    ap.add_argument("--rmax", type=float, help="g(r) range (default: half the box)")
    ap.add_argument("--bins", type=int, default=200)
    ap.add_argument("--skip", type=int, default=1, help="g(r) from every K-th frame")
    ap.add_argument("--max-ref", type=int, default=2000)
    ap.add_argument("--check-mdanalysis", action="store_true")
    a = ap.parse_args()
    out = a.out or os.path.splitext(a.traj)[0]
    d = load(a.traj)
    nf, n = d["x"].shape[0], d["x"].shape[1]
    rmax = a.rmax or 0.5 * d["box"].min()
    print("%s: %d frames (step %d .. %d, t = %g .. %g tau), %d particles, box %s sigma"
          % (a.traj, nf, d["step"][0], d["step"][-1], d["time"][0], d["time"][-1], n,
             " x ".join("%.5g" % L for L in d["box"][0])))

    rng = np.random.default_rng(1)
    start = min(max(a.start, 0), nf - 1)
    sel = slice(start, nf, a.skip)
    r, g = rdf(d["x"][sel], d["box"][sel], rmax, a.bins, a.max_ref, rng)
    peak = int(np.argmax(g))
    print("g(r): first peak at r = %.3f sigma, g = %.3f (r < %.3g, %d bins, %d frames)"
          % (r[peak], g[peak], rmax, a.bins, len(range(start, nf, a.skip))))
    np.savetxt(out + "_rdf.csv", np.column_stack([r, g]), delimiter=",",
               header="r_sigma,g", comments="")
    if a.check_mdanalysis:
        if n > a.max_ref:
            print("MDAnalysis check skipped: more particles than --max-ref")
        else:
            rm, gm = mdanalysis_rdf(a.traj, n, start, nf, rmax, a.bins, a.skip, d["length"])
            diff = np.abs(gm - g).max()
            print("MDAnalysis InterRDF agrees: max |g_mda - g| = %.2g (float32 positions)" % diff
                  if diff < 0.05 * g.max() else
                  "MDAnalysis InterRDF DISAGREES: max |g_mda - g| = %.2g" % diff)

    xu = unwrap(d["x"], d["box"], d["image"])[start:]
    t, m = msd(xu, d["time"][start:])
    if len(t) >= 4:
        h = len(t) // 2
        slope = np.polyfit(t[h:], m[h:], 1)[0]
        print("MSD: %.4g sigma^2 at t = %.4g tau; D = %.4g sigma^2/tau (fit over the second half)"
              % (m[-1], t[-1], slope / 6.0))
    elif len(t):
        print("MSD: %.4g sigma^2 at t = %.4g tau (too few frames for D)" % (m[-1], t[-1]))
    np.savetxt(out + "_msd.csv", np.column_stack([t, m]), delimiter=",",
               header="t_tau,msd_sigma2", comments="")

    obs = d["obs"]
    if "total_energy" in obs and nf > 1:
        e = obs["total_energy"]
        print("energy per particle: total %.8g -> %.8g (drift %.3g epsilon), T %.4g -> %.4g"
              % (e[0], e[-1], e[-1] - e[0], obs["temperature"][0], obs["temperature"][-1]))

    import matplotlib
    matplotlib.use(os.environ.get("MPLBACKEND", "Agg"))
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.2))
    ax[0].plot(r, g)
    ax[0].axhline(1.0, color="0.7", lw=0.8)
    ax[0].set(xlabel="r [sigma]", ylabel="g(r)", title="radial distribution function")
    if len(t):
        ax[1].plot(t, m)
    ax[1].set(xlabel="t [tau]", ylabel="MSD [sigma^2]", title="mean-squared displacement")
    for name, style in (("potential_energy", "-"), ("kinetic_energy", "-"), ("total_energy", "-")):
        if name in obs:
            ax[2].plot(d["time"], obs[name], style, label=name.replace("_", " "))
    ax[2].set(xlabel="t [tau]", ylabel="energy per particle [epsilon]", title="energies")
    ax[2].legend(fontsize=8)
    if "temperature" in obs:
        tw = ax[2].twinx()
        tw.plot(d["time"], obs["temperature"], color="0.5", lw=0.8, ls="--")
        tw.set_ylabel("T [epsilon/kB] (dashed)")
    fig.tight_layout()
    fig.savefig(out + ".png", dpi=110)
    print("wrote %s.png, %s_rdf.csv, %s_msd.csv" % (out, out, out))


if __name__ == "__main__":
    main()
