#!/usr/bin/env bash
# scaling.sh - steps/s and atom-steps/s from 4k to 8M+ particles (`make
# bench-scaling`): the best strategy chosen by the autotuner on each size,
# LJ at density 0.8442, rc 2.5, skin 0.3, dt 0.005, fcc start at T0 1.44,
# at least 1000 timed steps (at least 2 s) after a warm-up, rebuilds
# included. Writes build/scaling.csv and, with matplotlib, build/scaling.png
# next to gamdpy's points measured on the same H200 (shared/gpu/README.md).
#   bench/scaling.sh [MDSIM] [CELLS...]
set -euo pipefail
cd "$(dirname "$0")/.."
MDSIM=${1:-./build/mdsim}
shift || true
CELLS=${*:-"10 16 20 32 40 50 64 80 100 128 160"}
out=build/scaling.csv
mkdir -p build
echo "particles,strategy,launch,steps,steps_per_s,atom_steps_per_s" > "$out"
for c in $CELLS; do
	tmp=$(mktemp)
	"$MDSIM" configs/bench_lj.ini --bench --steps 1000 --strategies global,register,hybrid \
		--set "system.cells=$c $c $c" --csv "$tmp" > /dev/null
	# the fastest row of this size
	tail -n +2 "$tmp" | sort -t, -k5 -g -r | head -n 1 |
		awk -F, '{ printf "%s,%s,%s,%s,%s,%s\n", $3, $1, $2, $4, $5, $6 }' | tee -a "$out"
	rm -f "$tmp"
done
/usr/bin/python3 tools/plot_scaling.py "$out" -o build/scaling.png || true
