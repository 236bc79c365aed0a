#!/usr/bin/env bash
# long_run.sh - issue #8's long run: 1M particles on the GPU, a trajectory
# frame every 1,000 steps, SIGTERM part-way, restart with append to the same
# run.steps, then MDAnalysis reads the whole trajectory.
#
#   bench/long_run.sh BUILD_DIR OUTDIR [SECONDS_BEFORE_TERM]
#
# 1. part 1: BUILD_DIR/mdsim CONFIG --backend BACKEND, run.steps = STEPS, a
#    frame every EVERY steps (position, velocity, image: a restart needs all
#    three); SIGTERM SECONDS_BEFORE_TERM (default 200) seconds after the
#    step-0 thermo line. Expects exit 143, "SIGTERM received: stopped
#    cleanly after step D", the summary for D steps and floor(D/EVERY)+1
#    frames in the file.
# 2. part 2: --restart TRAJ --set output.trajectory=TRAJ --set
#    output.append=true --steps STEPS-S, S the step of the file's last
#    frame. Expects exit 0, "Restart from TRAJ: step S", the last thermo
#    line at step STEPS and STEPS/EVERY+1 frames in the file.
# 3. tools/check_traj_mda.py: MDAnalysis reads every frame; steps 0, EVERY,
#    ..., STEPS with no gap or duplicate; positions finite, inside the box.
#
# Time: the device runs one command for at most 600 s, so everything,
# the read included, must fit in BUDGET (570) seconds. Default STEPS =
# 600000 at ~1,430 steps/s (bench_1m, register, with output) is 7 minutes
# of simulation (3.5 min before the SIGTERM, 3.5 after the restart; the
# run loop's chunks end on frame steps, so the stop step D is a frame step
# and none is done twice); the whole job about 8.5 minutes. After part 1
# the script projects the end from part 1's steps/s and, if STEPS cannot
# finish inside BUDGET, lowers it (said in a NOTE line) rather than
# overrun. Disk: 60 bytes per particle and frame (double position and
# velocity, int image): 63 MB per frame at 1M, 38 GB for 601 frames; the
# trajectory goes to the first of TRAJ_DIRS with room (/dev/shm first: no
# disk traffic), is never put in OUTDIR, and is deleted at the end unless
# KEEP_TRAJ=1.
#
# MDAnalysis: when python3 cannot import it and .whl/ holds the wheels, they
# are installed into /tmp/site first (PYTHONPATH). The GPU machine (Python
# 3.12, numpy 2.x, scipy, h5py, matplotlib, msgpack, filelock, ... present)
# lacks MDAnalysis, mmtf-python and mda-xdrlib (imported by `import
# MDAnalysis`); GridDataFormats and mrcfile, needed only by
# MDAnalysis.analysis.density, stay out of .whl/ (in .whl-extra/) so that
# .whl/ (13 MB) and build-gpu/ (47 MB) travel together under 64 MiB. Made
# here with, for each NAME==VERSION of mdanalysis==2.9.0
# mmtf-python==1.1.3 mda-xdrlib==0.2.0:
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12
#     --implementation cp --platform manylinux_2_17_x86_64
#     --platform manylinux2014_x86_64 -d .whl NAME==VERSION
#
# OUTDIR gets long_run.log (this script's lines and timings), part1.log,
# part2.log (mdsim's output) and read.log (the MDAnalysis check).
#
# Environment (defaults for the GPU machine): CONFIG (configs/bench_1m.ini),
# BACKEND (cuda), STEPS (600000), EVERY (1000), THERMO (10000), BUDGET (570),
# SETS (extra mdsim arguments, split at spaces: "--set neighbor.skin=0.4"),
# UNITS (output.units, when set: both parts write and append in it),
# TRAJ_DIRS ("/dev/shm /tmp $PWD": the first with room, else the roomiest,
# and STEPS lowered to what fits),
# KEEP_TRAJ (0), REFERENCE (0; 1: also an uninterrupted run to compare the
# final thermo line and last frame with: identical on the CPU backend in lj
# units; a GPU or argon-unit restart agrees to round-off, which chaos
# then amplifies, so there the comparison is only printed),
# PYTHON (python3), WHEELS (.whl).
# To try it here (6,912 particles, ~20 s): BACKEND=cpu CONFIG=configs/lj.ini
# STEPS=12000 EVERY=100 THERMO=1000 REFERENCE=1 bench/long_run.sh build /tmp/lr 4
set -u
cd "$(dirname "$0")/.."
T_START=$SECONDS
B=${1:?usage: bench/long_run.sh BUILD_DIR OUTDIR [SECONDS_BEFORE_TERM]}
OUTDIR=${2:?usage: bench/long_run.sh BUILD_DIR OUTDIR [SECONDS_BEFORE_TERM]}
TERM_AFTER=${3:-200}
MDSIM=$B/mdsim
CONFIG=${CONFIG:-configs/bench_1m.ini}
BACKEND=${BACKEND:-cuda}
STEPS=${STEPS:-600000}
EVERY=${EVERY:-1000}
THERMO=${THERMO:-10000}
BUDGET=${BUDGET:-570}
SETS=${SETS:-}
UNITS=${UNITS:-}
TRAJ_DIRS=${TRAJ_DIRS:-"/dev/shm /tmp $PWD"}
KEEP_TRAJ=${KEEP_TRAJ:-0}
REFERENCE=${REFERENCE:-0}
WHEELS=${WHEELS:-.whl}
[ -d "$B/gpu-libs" ] && export LD_LIBRARY_PATH=$PWD/$B/gpu-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$OUTDIR" || exit 1
LOG=$OUTDIR/long_run.log
: >"$LOG"
say() { echo "$*" | tee -a "$LOG"; }
el() { echo $((SECONDS - T_START)); }
die() { say "FAIL: $* ($(el) s)"; cleanup; exit 1; }
pid="" traj="" tdir=""
cleanup() {
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
	if [ -n "$tdir" ] && [ "$KEEP_TRAJ" != 1 ]; then
		rm -rf "$tdir"
	elif [ -n "$tdir" ]; then
		say "trajectory kept: $traj"
	fi
}
trap 'cleanup; exit 130' INT TERM
[ -x "$MDSIM" ] || die "$MDSIM is not an executable"
[ $((STEPS % EVERY)) -eq 0 ] || die "STEPS=$STEPS is not a multiple of EVERY=$EVERY"
# shellcheck disable=SC2206
extra=($SETS)
[ -n "$UNITS" ] && extra+=(--set output.units="$UNITS")
common=("$CONFIG" --backend "$BACKEND" --set run.progress=off --set run.thermo_every="$THERMO"
	--set output.every="$EVERY" --set output.fields=position,velocity,image "${extra[@]}")
say "long_run: $MDSIM ${common[*]}; STEPS=$STEPS, SIGTERM after ${TERM_AFTER} s, budget ${BUDGET} s"

# --- MDAnalysis: the wheels when python3 lacks it ---------------------------
t0=$SECONDS
PY=${PYTHON:-python3}
if ! "$PY" -c "import MDAnalysis" 2>/dev/null; then
	if ls "$WHEELS"/*.whl >/dev/null 2>&1; then
		rm -rf /tmp/site
		"$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
			--target /tmp/site "$WHEELS"/*.whl >>"$LOG" 2>&1 && export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
	fi
	if ! "$PY" -c "import MDAnalysis" 2>>"$LOG"; then
		PY=/usr/bin/python3	# a system MDAnalysis (python3-mdanalysis)
		"$PY" -c "import MDAnalysis" 2>/dev/null || die "no python with MDAnalysis (wheels in $WHEELS?)"
	fi
fi
say "python: $PY, $("$PY" -c 'import sys, numpy, MDAnalysis; print("Python %s, numpy %s, MDAnalysis %s" % (sys.version.split()[0], numpy.__version__, MDAnalysis.__version__))' 2>/dev/null) ($((SECONDS - t0)) s)"

# --- particle count, disk room ------------------------------------------------
t0=$SECONDS
probe=$("$MDSIM" "${common[@]}" --steps 0 --quiet --set backend.autotune=false 2>&1)
rc=$?
[ $rc -eq 0 ] || { echo "$probe" >>"$LOG"; die "probe run (--steps 0): exit $rc: $(echo "$probe" | grep -m 1 mdsim:)"; }
N=$(sed -nE 's/^Loop time of .* with ([0-9]+) atoms.*/\1/p' <<<"$probe")
[ -n "$N" ] || die "probe run: no particle count"
fbytes=$((N * 60 + 4096))
copies=1; [ "$REFERENCE" = 1 ] && copies=2
best="" bestfree=0	# the first directory with room, else the roomiest
for d in $TRAJ_DIRS; do
	[ -d "$d" ] && [ -w "$d" ] || continue
	free=$(df -PB1 "$d" | awk 'NR == 2 { print $4 }')
	need=$(((STEPS / EVERY + 1) * fbytes * copies))
	say "room: $d has $((free / 1000000)) MB free; the trajectory needs $((need / 1000000)) MB ($((STEPS / EVERY + 1)) frames of $((fbytes / 1000)) kB)"
	if [ "$free" -gt $((need + need / 10 + 500000000)) ]; then
		best=$d bestfree=$free
		break
	fi
	[ "$free" -gt "$bestfree" ] && best=$d bestfree=$free
done
[ -n "$best" ] || die "no writable directory in TRAJ_DIRS ($TRAJ_DIRS)"
fit=$(( (bestfree * 10 / 11 - 500000000) / (fbytes * copies) - 1 ))
if [ $(((STEPS / EVERY + 1))) -gt "$fit" ]; then
	[ "$fit" -ge 3 ] || die "$best has no room for 3 frames of $((fbytes / 1000)) kB"
	say "NOTE: STEPS=$STEPS lowered to $(((fit - 1) * EVERY)) so that the trajectory fits in $best ($((bestfree / 1000000)) MB free)"
	STEPS=$(((fit - 1) * EVERY))
fi
frames=$((STEPS / EVERY + 1))
tdir=$(mktemp -d "$best/mdsim_long.XXXXXX") || die "mktemp in $best"
traj=$tdir/long.h5md
say "$N particles; trajectory $traj (probe $((SECONDS - t0)) s)"

thermo_last() { grep -E '^ +[0-9]+ +[-0-9.eE+]+ ' "$1" | tail -n 1; }

# --- part 1: run, SIGTERM ------------------------------------------------------
t1=$SECONDS
"$MDSIM" "${common[@]}" --steps "$STEPS" --set output.trajectory="$traj" >"$OUTDIR/part1.log" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do	# the step-0 thermo line: the loop is running
	grep -qE '^ +0 ' "$OUTDIR/part1.log" && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
grep -qE '^ +0 ' "$OUTDIR/part1.log" || die "part 1 did not start within 120 s: $(tail -n 3 "$OUTDIR/part1.log")"
start1=$((SECONDS - t1))
t_wait=$SECONDS
while [ $((SECONDS - t_wait)) -lt "$TERM_AFTER" ] && kill -0 "$pid" 2>/dev/null; do
	sleep 1
done
kill -0 "$pid" 2>/dev/null || die "part 1 ended before the SIGTERM (raise STEPS or lower the seconds): $(tail -n 3 "$OUTDIR/part1.log")"
kill -TERM "$pid"
t_term=$SECONDS
wait "$pid"
rc=$?
pid=""
say "part 1: exit $rc; start-up $start1 s, SIGTERM after ${TERM_AFTER} s more, stopped $((SECONDS - t_term)) s after it"
[ $rc -eq 143 ] || die "part 1: exit $rc after SIGTERM, expected 143: $(tail -n 3 "$OUTDIR/part1.log")"
D=$(sed -nE 's/^mdsim: SIGTERM received: stopped cleanly after step ([0-9]+).*/\1/p' "$OUTDIR/part1.log")
[ -n "$D" ] || die "part 1: no 'SIGTERM received: stopped cleanly after step D' line"
grep -qE "^Loop time of .* for $D steps with $N atoms" "$OUTDIR/part1.log" || die "part 1: no summary for $D steps"
rate1=$(sed -nE 's/^Performance: .* ([0-9.]+) timesteps\/s.*/\1/p' "$OUTDIR/part1.log")
K1=$(sed -nE 's/^Trajectory .*: ([0-9]+) frames written \(([0-9]+) in the file\).*/\2/p' "$OUTDIR/part1.log")
S=$(( D / EVERY * EVERY ))
[ "$K1" = $((S / EVERY + 1)) ] || die "part 1: $K1 frames in the file, expected $((S / EVERY + 1)) (steps 0 .. $S)"
say "part 1: stopped cleanly after step $D at $rate1 steps/s; $K1 frames (steps 0 .. $S) in the file: $(grep -m 1 '^Performance' "$OUTDIR/part1.log")"
grep -E "^Trajectory|^GPU:|^Backend" "$OUTDIR/part1.log" | sed 's/^/  /' | tee -a "$LOG"

# --- the end projected from part 1's rate; STEPS lowered if it cannot fit ---
used=$((SECONDS - T_START))
# MDAnalysis read: ~0.09 s per frame of 1M particles (position and velocity) measured, margin
per=$(awk -v n="$N" 'BEGIN { printf "%.4f", 0.12 * n / 1048576 + 0.005 }')
read_est=$(awk -v f="$frames" -v p="$per" 'BEGIN { printf "%d", f * p + 10 }')
left=$(awk -v st="$STEPS" -v s="$S" -v r="$rate1" 'BEGIN { printf "%d", (st - s) / r + 0.5 }')
proj=$((used + start1 + left + read_est + 15))
say "projection: $used s used, part 2 ~$((start1 + left)) s ($((STEPS - S)) steps), read ~$read_est s: ~$proj s of $BUDGET"
if [ $proj -gt "$BUDGET" ]; then
	room=$((BUDGET - used - start1 - 15))
	fit=$(awk -v room="$room" -v r="$rate1" -v s="$S" -v e="$EVERY" -v per="$per" \
		'BEGIN { st = s + (room - 10 - per * s / e) / (1 / r + per / e); st = int(st / e) * e; if (st < s + e) st = s + e; print st }')
	say "NOTE: STEPS=$STEPS cannot finish inside ${BUDGET} s at $rate1 steps/s: run.steps lowered to $fit (the restart still ends on run.steps)"
	STEPS=$fit
	frames=$((STEPS / EVERY + 1))
fi

# --- part 2: restart and append to the same run.steps ------------------------
t2=$SECONDS
limit=$((BUDGET - (SECONDS - T_START) - $(awk -v f="$frames" -v p="$per" 'BEGIN { printf "%d", f * p }') - 10))
timeout -s TERM "$limit" "$MDSIM" "${common[@]}" --steps $((STEPS - S)) --restart "$traj" \
	--set output.trajectory="$traj" --set output.append=true >"$OUTDIR/part2.log" 2>&1
rc=$?
say "part 2: exit $rc after $((SECONDS - t2)) s (limit $limit s)"
[ $rc -eq 0 ] || die "part 2 (restart, append): exit $rc: $(grep -m 2 mdsim: "$OUTDIR/part2.log" | tr '\n' ' ')"
grep -qE "^Restart from $traj: step $S " "$OUTDIR/part2.log" || die "part 2: no 'Restart from $traj: step $S' line"
last=$(thermo_last "$OUTDIR/part2.log" | awk '{ print $1 }')
[ "$last" = "$STEPS" ] || die "part 2: last thermo line at step $last, expected run.steps = $STEPS"
K2=$(sed -nE 's/^Trajectory .*: ([0-9]+) frames written \(([0-9]+) in the file\).*/\2/p' "$OUTDIR/part2.log")
[ "$K2" = "$frames" ] || die "part 2: $K2 frames in the file, expected $frames"
say "part 2: restart from step $S, ended at step $last = run.steps; $K2 frames in the file: $(grep -m 1 '^Performance' "$OUTDIR/part2.log")"
grep -E "^Restart|^Trajectory" "$OUTDIR/part2.log" | sed 's/^/  /' | tee -a "$LOG"
say "final: $(thermo_last "$OUTDIR/part2.log")"
say "disk: $(du -h "$traj" | cut -f1) for $frames frames of $N particles ($traj)"

# --- optional: the uninterrupted run -----------------------------------------
if [ "$REFERENCE" = 1 ]; then
	t3=$SECONDS
	"$MDSIM" "${common[@]}" --steps "$STEPS" --set output.trajectory="$tdir/ref.h5md" >"$tdir/ref.log" 2>&1
	rc=$?
	ref=$(thermo_last "$tdir/ref.log")
	say "reference (uninterrupted, $((SECONDS - t3)) s, exit $rc): $ref"
	[ $rc -eq 0 ] || die "reference run: exit $rc"
	[ "$(awk '{ print $1 }' <<<"$ref")" = "$STEPS" ] || die "reference run ended at step $(awk '{ print $1 }' <<<"$ref")"
	cmp=$("$PY" - "$traj" "$tdir/ref.h5md" <<'PY'
import sys, h5py, numpy as np
a, b = (h5py.File(p, "r")["particles/trajectory"] for p in sys.argv[1:3])
print("last frame: max |dx| %.3g, max |dv| %.3g, images equal: %s" % (
    np.abs(a["position/value"][-1] - b["position/value"][-1]).max(),
    np.abs(a["velocity/value"][-1] - b["velocity/value"][-1]).max(),
    bool((a["image/value"][-1] == b["image/value"][-1]).all())))
PY
)
	say "restarted vs uninterrupted: $cmp"
	if [ "$BACKEND" = cpu ] && [ "${UNITS:-lj}" = lj ]; then	# bit for bit (docs/h5md.md; argon: round-off)
		[ "$ref" = "$(thermo_last "$OUTDIR/part2.log")" ] || die "CPU backend: the final thermo lines differ"
		grep -q "max |dx| 0, max |dv| 0, images equal: True" <<<"$cmp" || die "CPU backend: last frames differ"
	fi
	rm -f "$tdir/ref.h5md"
fi

# --- MDAnalysis reads it all -------------------------------------------------
t4=$SECONDS
deadline=$((BUDGET - (SECONDS - T_START) - 5))
PYTHONUNBUFFERED=1 "$PY" tools/check_traj_mda.py "$traj" --every "$EVERY" --last "$STEPS" \
	--deadline "$deadline" >"$OUTDIR/read.log" 2>&1
rc=$?
grep -vi "warn" "$OUTDIR/read.log" | tail -n 8 | sed 's/^/  /' | tee -a "$LOG"
say "read: exit $rc, $((SECONDS - t4)) s"
[ $rc -eq 0 ] || die "MDAnalysis read check failed"
cleanup
say "ok - long run: SIGTERM at step $D (exit 143), restart from frame $S with append, ended at step $STEPS = run.steps, $frames frames read by MDAnalysis; $(el) s in all"
