#!/usr/bin/env bash
# gpu_blowup_test.sh - a run that blows up on the cuda backend stops with
# exit 3, a message naming the step and the particle, the summary, and a
# trajectory that was flushed and closed (every frame readable, finite,
# on the output grid, none after the failing step).
#
#   tests/gpu_blowup_test.sh [BUILD_DIR] [LOG_DIR]
#
# BUILD_DIR/mdsim is the binary (default: $MDSIM, else $BUILD/mdsim, as
# tests/run_all.sh sets them). LOG_DIR gets blowup.log (default: a
# temporary directory, removed at the end). BACKEND=cpu runs the same
# provocations on the CPU backend (to test this script without a GPU).
# Without a usable GPU the cuda run prints 'SKIP: no GPU ...' and exits 0.
#
# Provocations that pass input validation:
#  1. escape: configs/small.ini (864 fcc particles, T0 1.44) with dt = 0.03,
#     six times the default: the energy grows until a particle is thrown
#     out of the box (step ~110 on the CPU backend); caught by the rebuild
#     check ("particle P is more than one box length outside the box" /
#     "is not finite") or by the non-finite energy check. One run per GPU
#     strategy, a frame every 10 steps (position, velocity, image).
#  2. temperature: random placement at density 0.9 with pairs down to
#     0.85 sigma (accepted by min_distance), T0 = 1 and
#     run.max_temperature = 3: the released overlap energy heats the liquid
#     past 3 within a few steps ("temperature T is above
#     run.max_temperature"); a frame every step.
set -u
cd "$(dirname "$0")/.."
if [ -n "${1:-}" ]; then
	MDSIM=$1/mdsim
else
	MDSIM=${MDSIM:-${BUILD:-build}/mdsim}
fi
BACKEND=${BACKEND:-cuda}
[ -x "$MDSIM" ] || { echo "FAIL: $MDSIM is not an executable (build it first)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdsim_blowup.XXXXXX")
if [ -n "${2:-}" ]; then
	mkdir -p "$2" || exit 1
	log=$2/blowup.log
else
	log=$tmp/blowup.log
fi
trap 'rm -rf "$tmp"' EXIT
: >"$log"
say() { echo "$*" | tee -a "$log"; }
fails=0
fail() { say "FAIL: $*"; fails=$((fails + 1)); }

# a Python with h5py for the trajectory checks (skipped without one)
PY=""
for p in "${PYTHON:-}" python3 /usr/bin/python3; do
	[ -n "$p" ] && "$p" -c "import h5py, numpy" 2>/dev/null && { PY=$p; break; }
done

if [ "$BACKEND" = cuda ]; then
	"$MDSIM" configs/small.ini --backend cuda --steps 0 --quiet \
		--set backend.autotune=false >"$tmp/probe.out" 2>"$tmp/probe.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qi "no GPU is usable" "$tmp/probe.err"; then
		say "SKIP: no GPU ($(sed -n 's/.*no GPU is usable: //p' "$tmp/probe.err" | head -n 1)): blow-up test not run"
		exit 0
	fi
	if [ $rc -ne 0 ]; then
		cat "$tmp/probe.out" "$tmp/probe.err" >>"$log"
		say "FAIL: probe run on the cuda backend: exit $rc"
		tail -n 5 "$tmp/probe.err"
		exit 1
	fi
	strategies="global shared register hybrid tiled"
else
	strategies="cpu"
fi
say "mdsim: $MDSIM, backend $BACKEND, trajectory check: ${PY:-skipped (no python with h5py)}"

# check_traj FILE EVERY FAILSTEP FRAMES: h5py reads every frame
check_traj() {
	[ -n "$PY" ] || { say "  trajectory: not checked (no h5py)"; return 0; }
	"$PY" - "$@" <<'PY' >>"$log" 2>&1
import sys
import h5py
import numpy as np
path, every, bad, reported = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
t = h5py.File(path, "r")["particles/trajectory"]
step = t["position/step"][:]
pos = t["position/value"]
err = []
if len(step) != reported:
    err.append("%d frames in the file, mdsim reported %d" % (len(step), reported))
if len(step) < 1:
    err.append("no frame")
if (step % every).any() or (np.diff(step) <= 0).any() or (len(step) and step[0] != 0):
    err.append("steps not 0, %d, ... increasing: %s" % (every, step[:20]))
if len(step) and step[-1] >= bad:
    err.append("a frame at step %d, not before the failing step %d" % (step[-1], bad))
if pos.shape[0] != len(step):
    err.append("position has %d frames, step %d" % (pos.shape[0], len(step)))
for k in range(pos.shape[0]):
    x = pos[k]
    if not np.isfinite(x).all():
        err.append("frame %d (step %d): non-finite position" % (k, step[k]))
        break
for e in ("velocity", "image"):
    if e in t and t[e + "/value"].shape[0] != len(step):
        err.append("%s has %d frames, position %d" % (e, t[e + "/value"].shape[0], len(step)))
print("  h5py: %d frames, steps %d .. %d, all positions finite%s" %
      (len(step), step[0] if len(step) else -1, step[-1] if len(step) else -1,
       "" if not err else "; ERRORS: " + "; ".join(err)))
sys.exit(1 if err else 0)
PY
}

# provoke NAME KIND EVERY ARGS...: run, expect exit 3 and the message
provoke() {
	local name=$1 kind=$2 every=$3
	shift 3
	local traj=$tmp/$name.h5md
	local t0=$SECONDS
	rm -f "$traj"
	"$MDSIM" configs/small.ini --backend "$BACKEND" --set run.progress=off \
		--set run.thermo_every=0 --set output.trajectory="$traj" \
		--set output.every="$every" --set output.fields=position,velocity,image \
		"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	{ echo "--- $name: mdsim ... $*  (exit $rc, $((SECONDS - t0)) s)"; cat "$tmp/err";
	  grep -E "^(GPU|Trajectory|Loop time|Performance)" "$tmp/out"; } >>"$log"
	local msg
	msg=$(grep -m 1 "blew up" "$tmp/err")
	if [ $rc -ne 3 ]; then
		fail "$name: exit $rc, expected 3 (blow-up); $(tail -n 1 "$tmp/err")"
		return
	fi
	local step
	step=$(sed -nE 's/^mdsim: step ([0-9]+): .*/\1/p' <<<"$msg")
	if [ -z "$msg" ] || [ -z "$step" ] || ! grep -qE "particle [0-9]+ (is )" <<<"$msg"; then
		fail "$name: the message does not name the step and the particle: ${msg:-$(tail -n 1 "$tmp/err")}"
		return
	fi
	case $kind in
	escape) grep -qE "outside the box|not finite|non-finite energy" <<<"$msg" ||
			{ fail "$name: unexpected cause: $msg"; return; } ;;
	temperature) grep -q "above run.max_temperature" <<<"$msg" ||
			{ fail "$name: expected the max_temperature check: $msg"; return; } ;;
	esac
	grep -q "^Loop time of" "$tmp/out" || { fail "$name: no summary after the blow-up"; return; }
	local frames
	frames=$(sed -nE 's/^Trajectory .*: ([0-9]+) frames written.*/\1/p' "$tmp/out")
	[ -n "$frames" ] || { fail "$name: no 'Trajectory ...: N frames written' line"; return; }
	if ! check_traj "$traj" "$every" "$step" "$frames"; then
		fail "$name: trajectory check: $(tail -n 1 "$log")"
		return
	fi
	say "ok - $name: exit 3 at step $step, $frames frames readable ($((SECONDS - t0)) s): $(cut -c1-160 <<<"$msg")"
}

for s in $strategies; do
	sopt=()
	[ "$s" = cpu ] || sopt=(--strategy "$s")
	provoke "escape_$s" escape 10 "${sopt[@]}" --set backend.autotune=false \
		--set run.dt=0.03 --steps 5000
done
provoke temperature temperature 1 --set backend.autotune=false \
	--set system.lattice=random --set system.particles=864 --set system.density=0.9 \
	--set system.min_distance=0.85 --set system.temperature=1.0 \
	--set run.max_temperature=3 --steps 1000

if [ $fails -ne 0 ]; then
	say "FAIL: $fails blow-up check(s) failed (log: $log)"
	[ -n "${2:-}" ] || tail -n 40 "$log"
	exit 1
fi
say "ok - all blow-up checks passed on the $BACKEND backend"
