#!/usr/bin/env python3
"""plot_scaling.py CSV -o OUT.png - atom-steps/s against particle count from
bench/scaling.sh, with gamdpy's points measured on the same H200 (from
shared/gpu/README.md) for comparison. Needs matplotlib (/usr/bin/python3)."""
import argparse
import csv

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

GAMDPY_H200 = [(32000, 2.5e8), (131072, 3.7e8), (1048576, 6.5e8)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", default="scaling.png")
    args = ap.parse_args()
    with open(args.csv) as f:
        rows = list(csv.DictReader(f))
    n = [int(r["particles"]) for r in rows]
    a = [float(r["atom_steps_per_s"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.loglog(n, a, "o-", label="mdsim (best strategy)")
    ax.loglog(*zip(*GAMDPY_H200), "s--", label="gamdpy (same H200)")
    ax.set_xlabel("particles")
    ax.set_ylabel("atom-steps / s")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
