#!/usr/bin/env bash
# scaling.sh - steps/s and atom-steps/s from 4k to 64M particles (`make
# bench-scaling`): `mdsim --bench` on each size, the fastest of the
# strategies kept, LJ at density 0.8442, rc 2.5, dt 0.005, fcc start at
# T0 1.44 (configs/bench_lj.ini with system.cells = c c c, 4 c^3
# particles), the skin chosen by measurement (neighbor.autotune_skin: the
# printed choice is in scaling.log; SKIN_TUNE=false keeps 0.3). Each
# strategy: a warm-up of 200 steps, then at least STEPS timed steps and
# 1 s (the benchmark's own rule), rebuilds included.
#
#   bench/scaling.sh [MDSIM] [OUTDIR] [CELLS...]
#
# Writes into OUTDIR (default build/):
#   scaling.csv      particles,strategy,launch,steps,steps_per_s,atom_steps_per_s,seconds
#                    (the fastest strategy of each size; seconds: the whole mdsim run)
#   scaling_all.csv  every strategy row of every size (mdsim's --csv columns)
#   scaling.log      mdsim's benchmark tables
#   scaling.png      atom-steps/s against N with gamdpy's points on the same
#                    H200 (tools/plot_scaling.py; needs matplotlib)
# CELLS default: 10 16 20 32 40 50 64 80 100 126 160 200 252 (4,000 ..
# 64,012,032 particles; 64M uses ~50 GB of the H200's 141 GB). 322
# (133.5M, the largest fcc box under the cuda backend's 2^27 particles)
# fits in ~104 GB at skin 0.3 but takes over 5 minutes of its own, most of
# it in its skin trials (a set-up of ~20 s each).
# Environment: BACKEND (cuda; cpu to try the script on tiny sizes),
# STRATEGIES (global,register,hybrid), BIG_STRATEGIES (register: the
# strategies above BIG particles, default 8,001,504, where global and
# hybrid run about 3 times slower and each of their rows would take
# minutes), STEPS (1000), TIMEOUT (seconds per size, 400).
# On an H200 the sweep takes about 6.5 minutes (369 and 384 s on
# 2026-12-02): 2.5 up to 8M, then about 35 s, 70 s and 125 s for 16M,
# 32M and 64M (mostly the skin trials: a set-up and up to 3 s of steps
# each, ~13 s a trial at 64M).
set -uo pipefail
cd "$(dirname "$0")/.."
MDSIM=${1:-./build/mdsim}
OUT=${2:-build}
shift 2 2>/dev/null || shift $#
CELLS=${*:-"10 16 20 32 40 50 64 80 100 126 160 200 252"}
BACKEND=${BACKEND:-cuda}
STRATEGIES=${STRATEGIES:-global,register,hybrid}
BIG_STRATEGIES=${BIG_STRATEGIES:-register}
BIG=${BIG:-8001504}
STEPS=${STEPS:-1000}
TIMEOUT=${TIMEOUT:-400}
SKIN_TUNE=${SKIN_TUNE:-true}
mkdir -p "$OUT" || exit 1
csv=$OUT/scaling.csv all=$OUT/scaling_all.csv log=$OUT/scaling.log
echo "particles,strategy,launch,steps,steps_per_s,atom_steps_per_s,seconds" > "$csv"
: > "$all"
: > "$log"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
failed=0 t_all=$SECONDS
for c in $CELLS; do
	t0=$SECONDS
	strats=$STRATEGIES
	[ $((4 * c * c * c)) -gt "$BIG" ] && strats=$BIG_STRATEGIES
	echo "=== cells $c $c $c ($((4 * c * c * c)) particles): $MDSIM configs/bench_lj.ini --bench --backend $BACKEND --steps $STEPS --strategies $strats --set neighbor.autotune_skin=$SKIN_TUNE" >> "$log"
	timeout "$TIMEOUT" "$MDSIM" configs/bench_lj.ini --bench --backend "$BACKEND" --steps "$STEPS" \
		--strategies "$strats" --set "system.cells=$c $c $c" \
		--set neighbor.autotune_skin="$SKIN_TUNE" --csv "$tmp" >> "$log" 2>&1
	rc=$?
	el=$((SECONDS - t0))
	echo "=== exit $rc, $el s" >> "$log"
	if [ $rc -ne 0 ] || [ "$(wc -l < "$tmp")" -lt 2 ]; then
		echo "cells $c: mdsim failed (exit $rc, $el s); see $log" >&2
		tail -n 5 "$log" >&2
		failed=$((failed + 1))
		continue
	fi
	[ -s "$all" ] || head -n 1 "$tmp" > "$all"
	tail -n +2 "$tmp" >> "$all"
	# the fastest row of this size
	tail -n +2 "$tmp" | sort -t, -k5 -g -r | head -n 1 |
		awk -F, -v s="$el" '{ printf "%s,%s,%s,%s,%s,%s,%s\n", $3, $1, $2, $4, $5, $6, s }' | tee -a "$csv"
	awk -F, -v m="$STEPS" 'NR > 1 && $4 < m { printf "note: %s timed only %s steps (< %s)\n", $1, $4, m }' "$tmp" | tee -a "$log"
done
echo "scaling: $((SECONDS - t_all)) s in all, $failed size(s) failed" | tee -a "$log"
# a python with matplotlib: the GPU machine's python3, else the system one
[ "$(wc -l < "$csv")" -gt 1 ] && for py in python3 /usr/bin/python3; do
	if "$py" -c "import matplotlib" 2>/dev/null; then
		"$py" tools/plot_scaling.py "$csv" -o "$OUT/scaling.png"
		break
	fi
done
[ $failed -eq 0 ]
