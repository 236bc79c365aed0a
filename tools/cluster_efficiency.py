#!/usr/bin/env python3
"""Estimate what GROMACS-style cluster pair lists would cost for LJ in mdsim's
benchmark set-up (bench/RESULTS.md, thirteenth session).

Random positions at density 0.8442 in a periodic cube; clusters of M particles
formed as GROMACS does (a grid of columns in x-y about one cluster wide, each
column sorted along z and cut into runs of M); a cluster pair is listed when
the distance between the two bounding boxes is below rlist. Prints, per
(i cluster, j cluster) size and rlist: listed cluster pairs per i cluster, the
lane-pairs a particle costs (M_i M_j per listed pair, padding included) and the
fraction of them within the cut-off rc (the ideal count is the analytic
4/3 pi rc^3 rho).

    python3 tools/cluster_efficiency.py [N]   (default 27,000; needs numpy)
"""
import sys
import numpy as np

RHO, RC = 0.8442, 2.5


def clusters(x, box, m):
    a = (m / RHO) ** (1 / 3)
    nc = max(1, int(round(box / a)))
    a = box / nc
    col = (x[:, 0] // a).astype(int) % nc * nc + (x[:, 1] // a).astype(int) % nc
    order = np.lexsort((x[:, 2], col))
    cols = col[order]
    out, start = [], 0
    for c in range(nc * nc):
        end = np.searchsorted(cols, c, side="right")
        idx = order[start:end]
        out += [idx[k:k + m] for k in range(0, len(idx), m)]
        start = end
    return out


def boxes(x, cl):
    lo = np.array([x[c].min(0) for c in cl])
    hi = np.array([x[c].max(0) for c in cl])
    return lo, hi


def estimate(x, box, mi, mj, rl):
    ci, cj = clusters(x, box, mi), clusters(x, box, mj)
    li, hi = boxes(x, ci)
    lj, hj = boxes(x, cj)
    pairs = 0
    for a in range(len(ci)):
        d2 = np.zeros(len(cj))
        for k in range(3):
            gaps = [np.maximum(0, np.maximum(lj[:, k] + s - hi[a, k], li[a, k] - hj[:, k] - s))
                    for s in (-box, 0.0, box)]
            d2 += np.minimum.reduce(gaps) ** 2
        pairs += int((d2 < rl * rl).sum())
    n = len(x)
    lanes = mi * mj * pairs / n
    ideal = 4 / 3 * np.pi * RC ** 3 * RHO
    print(f"{mi}x{mj} rlist {rl}: {pairs / len(ci):6.1f} cluster pairs per i cluster, "
          f"{lanes:5.0f} lane-pairs per particle, {ideal / lanes:5.1%} within rc")


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 27000
    box = (n / RHO) ** (1 / 3)
    x = np.random.default_rng(1).random((n, 3)) * box
    for rl in (2.8, 3.0):
        for mi, mj in ((4, 4), (8, 4), (8, 8)):
            estimate(x, box, mi, mj, rl)


if __name__ == "__main__":
    main()
