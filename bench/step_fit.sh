#!/usr/bin/env bash
# step_fit.sh - where a step goes: the time of a step without a neighbour
# rebuild (B) and of one rebuild (C), from runs with rebuilds forced every
# E steps (neighbor.check = false, neighbor.every = E), fitted by least
# squares to t(E) = B + C / E. Then the run as configured (the skin/2
# check) is compared with B + C builds/steps.
#
#   bench/step_fit.sh [MDSIM] [CONFIG] [extra mdsim options...]
#
# Defaults: ./build/mdsim, configs/bench_1m.ini. Environment: STEPS (timed
# steps per run, 1400), EVERY (the intervals, "1 2 7 14"). Example (the
# fifteenth session's 1M fit, bench/RESULTS.md):
#   bench/step_fit.sh build/mdsim configs/bench_1m.ini --strategy register \
#     --set backend.autotune=false --set backend.threads_per_particle=1 \
#     --set neighbor.skin=0.5
# The runs with forced rebuilds are for timing only: with check = false
# and every 14 a few pairs within the cut-off may be missed (the summary
# counts those builds as dangerous).
set -uo pipefail
MDSIM=${1:-./build/mdsim}
CONFIG=${2:-configs/bench_1m.ini}
shift 2 2>/dev/null || shift $#
STEPS=${STEPS:-1400}
EVERY=${EVERY:-"1 2 7 14"}
[ -x "$MDSIM" ] || { echo "step_fit.sh: $MDSIM is not an executable" >&2; exit 1; }
[ -r "$CONFIG" ] || { echo "step_fit.sh: cannot read $CONFIG" >&2; exit 1; }

# run OPTIONS...: prints "steps/s builds" of one quiet run
run() {
	"$MDSIM" "$CONFIG" --steps "$STEPS" --set run.thermo_every=0 --set run.progress=off "$@" 2>/dev/null |
		awk '/^Performance:/ {p = $4} /^Neighbor list builds =/ {b = $NF} END {print p, b}'
}

pts=""
for e in $EVERY; do
	read -r sps builds <<<"$(run "$@" --set neighbor.check=false --set neighbor.every="$e")"
	[ -n "${sps:-}" ] || { echo "step_fit.sh: the run with every = $e failed" >&2; exit 1; }
	printf 'every %3d: %10.1f steps/s, %5s builds, %9.2f us per step\n' "$e" "$sps" "$builds" \
		"$(awk -v s="$sps" 'BEGIN {print 1e6 / s}')"
	pts="$pts $e $sps"
done
read -r sps builds <<<"$(run "$@")"
[ -n "${sps:-}" ] || { echo "step_fit.sh: the run as configured failed" >&2; exit 1; }
awk -v pts="$pts" -v sps="$sps" -v nb="$builds" -v steps="$STEPS" 'BEGIN {
	n = split(pts, a, " ") / 2
	for (k = 1; k <= n; k++) {	# least squares of t = B + C x, x = 1/E
		x = 1 / a[2 * k - 1]; t = 1e6 / a[2 * k]
		sx += x; st += t; sxx += x * x; sxt += x * t
	}
	C = (n * sxt - sx * st) / (n * sxx - sx * sx); B = (st - C * sx) / n
	printf "fit: B = %.1f us per step without a rebuild, C = %.1f us per rebuild\n", B, C
	for (k = 1; k <= n; k++) {
		e = a[2 * k - 1]
		printf "  every %3d: measured %9.2f, fit %9.2f us\n", e, 1e6 / a[2 * k], B + C / e
	}
	printf "as configured: %.1f steps/s, %s builds in %d steps: %.2f us per step, fit %.2f\n",
		sps, nb, steps, 1e6 / sps, B + C * nb / steps
}'
