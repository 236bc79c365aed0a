#!/usr/bin/env python3
"""plot_bench.py CSV [CSV...] -o OUT.png - bar chart of `mdsim --bench --csv`
output: steps/s per strategy (log scale), one group of bars per CSV (system
size), with the speed-up over `global` written on each bar. Needs matplotlib
(Debian python3-matplotlib; run with /usr/bin/python3)."""
import argparse
import csv

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("-o", "--output", default="bench.png")
    ap.add_argument("--title", default="mdsim force strategies")
    args = ap.parse_args()

    runs = []
    for path in args.csv:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        runs.append((int(rows[0]["particles"]), rows))
    strategies = []
    for _, rows in runs:
        for r in rows:
            if r["strategy"] not in strategies:
                strategies.append(r["strategy"])

    width = 0.8 / len(runs)
    fig, ax = plt.subplots(figsize=(9, 4.8))
    for k, (n, rows) in enumerate(runs):
        by = {r["strategy"]: r for r in rows}
        xs, ys, labels = [], [], []
        for i, s in enumerate(strategies):
            if s in by:
                xs.append(i + (k - (len(runs) - 1) / 2) * width)
                ys.append(float(by[s]["steps_per_s"]))
                labels.append(f'{float(by[s]["speedup_vs_global"]):.2f}x')
        bars = ax.bar(xs, ys, width, label=f"{n:,} particles")
        for b, lab in zip(bars, labels):
            ax.text(b.get_x() + b.get_width() / 2, b.get_height() * 1.08, lab,
                    ha="center", va="bottom", fontsize=8)
    ax.set_yscale("log")
    # head room above the tallest bar's label for the legend
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi * 6)
    ax.set_xticks(range(len(strategies)))
    ax.set_xticklabels(strategies)
    ax.set_ylabel("steps / s (log scale)")
    ax.set_title(args.title)
    ax.legend(loc="upper right", ncol=len(runs))
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
