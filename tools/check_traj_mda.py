#!/usr/bin/env python3
"""check_traj_mda.py TRAJ --every E --last S [--first F] [--deadline SECONDS]

Reads an mdsim H5MD trajectory from start to end with MDAnalysis and checks
that it is whole: the frames are the steps F, F+E, ..., S, each exactly
once and in order (no gap, no duplicate), and every frame's positions are
finite and inside the box [0, L] (mdsim writes wrapped positions; MDAnalysis
hands them over as float32, so a coordinate just below L may read as L).

The Universe: first plain `mda.Universe(TRAJ)`, which works when the file
carries physical units (MDAnalysis then converts to Angstrom, positions and
box alike); a file in reduced LJ units makes it raise, and then
`mda.Universe(TRAJ, n_atoms=N, convert_units=False)` (docs/h5md.md) reads it
as stored. The steps are also compared with the file's own step dataset
(h5py). Prints one line per check and timings; exits 1 on any failure, and
when --deadline seconds pass before the last frame (a partial read is a
failure, said as such, rather than a run killed without a verdict).
"""
import argparse
import sys
import time
import warnings

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("traj")
    ap.add_argument("--every", type=int, required=True)
    ap.add_argument("--last", type=int, required=True, help="step of the last frame")
    ap.add_argument("--first", type=int, default=0, help="step of the first frame")
    ap.add_argument("--deadline", type=float, default=0.0,
                    help="give up (failure) after this many seconds of reading (0: none)")
    args = ap.parse_args()
    t_start = time.time()
    warnings.simplefilter("ignore")	# MDAnalysis warns about missing masses etc.
    import h5py
    import MDAnalysis as mda

    with h5py.File(args.traj, "r") as f:
        g = f["particles/trajectory/position"]
        n_atoms = g["value"].shape[1]
        h5_steps = g["step"][:]
    want = np.arange(args.first, args.last + 1, args.every)
    print("check_traj_mda: %s: MDAnalysis %s, numpy %s, %d atoms, %d frames in the file, expect %d (steps %d, %d, ..., %d)"
          % (args.traj, mda.__version__, np.__version__, n_atoms, len(h5_steps), len(want),
             args.first, args.first + args.every, args.last))
    try:
        u = mda.Universe(args.traj)
        how = "mda.Universe(path) (physical units, converted by MDAnalysis)"
    except Exception as e:  # reduced units: MDAnalysis refuses to convert
        first_err = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:120])
        u = mda.Universe(args.traj, n_atoms=n_atoms, convert_units=False)
        how = "mda.Universe(path, n_atoms=N, convert_units=False) (plain Universe: %s)" % first_err
    print("opened with %s in %.1f s" % (how, time.time() - t_start))

    errors = []
    steps = []
    nbad_pos = 0
    t_read = time.time()
    last_report = t_read
    partial = False
    for ts in u.trajectory:
        steps.append(int(ts.data["step"]))
        x = ts.positions
        box = ts.dimensions[:3]
        if not np.isfinite(x).all():
            nbad_pos += 1
            if nbad_pos <= 3:
                errors.append("frame %d (step %d): %d non-finite coordinates"
                              % (ts.frame, steps[-1], int((~np.isfinite(x)).sum())))
        else:
            lo, hi = x.min(axis=0), x.max(axis=0)
            tol = 1e-5 * box
            if (lo < -tol).any() or (hi > box + tol).any():
                nbad_pos += 1
                if nbad_pos <= 3:
                    errors.append("frame %d (step %d): positions outside the box %s: min %s max %s"
                                  % (ts.frame, steps[-1], box, lo, hi))
        now = time.time()
        if now - last_report > 30:
            print("  ... frame %d of %d (step %d), %.1f s" % (ts.frame + 1, len(u.trajectory),
                                                          steps[-1], now - t_read))
            sys.stdout.flush()
            last_report = now
        if args.deadline > 0 and now - t_start > args.deadline and ts.frame + 1 < len(u.trajectory):
            partial = True
            break
    el = time.time() - t_read
    steps = np.array(steps)
    nread = len(steps)
    print("read %d frames (%d atoms each) in %.1f s: %.3f s per frame"
          % (nread, u.atoms.n_atoms, el, el / max(nread, 1)))
    if partial:
        errors.append("stopped by the %.1f s deadline after %d of %d frames: not read to the end"
                      % (args.deadline, nread, len(u.trajectory)))
    if u.atoms.n_atoms != n_atoms:
        errors.append("MDAnalysis sees %d atoms, the file %d" % (u.atoms.n_atoms, n_atoms))
    if not partial:
        if len(steps) != len(want) or (steps != want).any():
            d = np.diff(steps)
            errors.append("steps are not %d, %d, ..., %d: %d frames, first %s, last %s, gaps %s, duplicates/back %s"
                          % (args.first, args.first + args.every, args.last, len(steps),
                             steps[:3], steps[-3:], steps[1:][d > args.every][:5],
                             steps[1:][d <= 0][:5]))
        if len(h5_steps) != len(steps) or (h5_steps != steps).any():
            errors.append("MDAnalysis's steps differ from the file's step dataset")
    if nbad_pos:
        errors.append("%d frame(s) with non-finite or out-of-box positions" % nbad_pos)
    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print("ok - %d frames, steps %d .. %d every %d, no gap or duplicate, positions finite and inside the box (%.1f s in all)"
              % (nread, steps[0], steps[-1], args.every, time.time() - t_start))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
