#!/usr/bin/env bash
# cli_test.sh - end-to-end checks of the mdsim command line: informational
# options, exit codes and messages of bad input, the thermo and summary
# layout of a short run, a clean stop on SIGTERM, the CPU backend, the
# strategy list and the skin autotuner. $MDSIM is the binary (tests/run_all.sh sets it).
# Prints one `ok` line per check; exits non-zero at the first failure.
set -u
MDSIM=${MDSIM:-./build/mdsim}
[ -x "$MDSIM" ] || { echo "FAIL: MDSIM=$MDSIM is not an executable (build it first)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdsim_cli.XXXXXX")
bg=""
cleanup() {
	[ -n "$bg" ] && kill -9 "$bg" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	for f in "$tmp"/out "$tmp"/err; do
		[ -s "$f" ] && { echo "--- $(basename "$f"):"; tail -n 30 "$f"; }
	done
	exit 1
}
ok() { echo "ok - $*"; }

# run ARGS...: stdout to $tmp/out, stderr to $tmp/err, exit status in $rc
run() {
	"$MDSIM" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit status $rc, expected $1"; }
has() { grep -qE -- "$2" "$tmp/$1" || fail "$3: $1 does not match /$2/"; }

# A small valid system: 500 atoms (5^3 fcc cells), box 8.4 > 2 (2.5 + 0.3).
cat >"$tmp/small.ini" <<'EOF'
; cli_test small system
[system]
density = 0.8442
cells = 5 5 5
temperature = 1.44
seed = 7

[potential]
cutoff = 2.5
shift = none

[run]
steps = 100
thermo_every = 50
progress = off

[backend]
; one thread: 500 atoms gain nothing from more, and OpenMP barriers on
; cores shared with other jobs would make the run slow for no reason
threads = 1
EOF

# --- informational options ------------------------------------------------
run --help
expect_rc 0 "--help"
has out '^usage: mdsim' "--help"
ok "--help exits 0 with usage"

run --version
expect_rc 0 "--version"
has out '^mdsim [0-9]+\.[0-9]+\.[0-9]+' "--version"
ok "--version exits 0: $(head -n 1 "$tmp/out")"

run --list-strategies
expect_rc 0 "--list-strategies"
names=$(awk 'NF {print $1}' "$tmp/out" | tr '\n' ' ')
[ "$(grep -c . "$tmp/out")" -eq 6 ] || fail "--list-strategies: $(grep -c . "$tmp/out") lines, expected 6"
for s in global shared register hybrid tiled staged; do
	grep -qE "^$s[[:space:]]+[^[:space:]]" "$tmp/out" || fail "--list-strategies: no '$s' with a description"
done
ok "--list-strategies lists 6: $names"

# --- bad input: exit 2, message says where and what -----------------------
run "$tmp/does_not_exist.ini"
expect_rc 2 "missing config file"
has err "does_not_exist\.ini" "missing config file"
ok "missing config file exits 2 and names it"

run
expect_rc 2 "no config file"
ok "no config file exits 2"

run "$tmp/small.ini" --frobnicate
expect_rc 2 "unknown option"
has err "frobnicate" "unknown option"
ok "unknown option exits 2 and names it"

run "$tmp/small.ini" --steps
expect_rc 2 "--steps without value"
ok "option without its value exits 2"

sed 's/^density = 0.8442$/density = 0.8x/' "$tmp/small.ini" >"$tmp/bad.ini"
run "$tmp/bad.ini"
expect_rc 2 "malformed number"
has err "bad\.ini:3:" "malformed number (file:line)"
has err "density" "malformed number (key)"
ok "malformed number exits 2 with file:line and key: $(head -n 1 "$tmp/err")"

{ cat "$tmp/small.ini"; printf '[backend]\ndevice = gpu\n'; } >"$tmp/enum.ini"
run "$tmp/enum.ini"
expect_rc 2 "bad enum"
has err "enum\.ini:$(($(wc -l <"$tmp/small.ini") + 2)):" "bad enum (file:line)"
has err "device" "bad enum (key)"
ok "bad enum value exits 2 with file:line and key"

sed 's/^cells = 5 5 5$/cells = 3 3 3/' "$tmp/small.ini" >"$tmp/box.ini"
run "$tmp/box.ini"
expect_rc 2 "box too small"
has err "box\.ini:4:" "box too small (file:line)"
has err "cells" "box too small (key)"
ok "box smaller than 2 (cutoff + skin) exits 2 with file:line and key"

run "$tmp/small.ini" --set run.stepz=5
expect_rc 2 "--set unknown key"
has err "stepz" "--set unknown key"
run "$tmp/small.ini" --set runsteps
expect_rc 2 "--set bad syntax"
has err '--set' "--set bad syntax"
ok "--set with an unknown key or bad syntax exits 2"

# --- a short run: thermo lines and summary --------------------------------
run "$tmp/small.ini" --steps 20 --set run.thermo_every=10 --backend cpu
expect_rc 0 "short run"
has out '^ *Step +Temp +E_pair +E_kin +TotEng +Press *$' "thermo header"
num='-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?'
steps=$(awk '/^ *Step +Temp/ {h = 1; next} h && NF == 6 && $1 ~ /^[0-9]+$/ {print $1} NF != 6 {h = 0}' "$tmp/out" | tr '\n' ' ')
[ "$steps" = "0 10 20 " ] || fail "thermo steps '$steps', expected '0 10 20 '"
for s in 0 10 20; do
	has out "^ *$s( +$num){5} *\$" "thermo line of step $s (six numbers)"
done
# step 0 of a perfect fcc lattice at density 0.8442, rc 2.5, plain cut-off:
# E_pair = -6.7733681 per atom (LAMMPS bench/in.lj), and T = the set 1.44
read -r _ t0 e0 _ <<<"$(awk '/^ *Step +Temp/ {getline; print; exit}' "$tmp/out")"
awk -v e="$e0" 'BEGIN {exit !(e + 6.7733681 < 1e-7 && e + 6.7733681 > -1e-7)}' ||
	fail "step 0 E_pair $e0, expected -6.7733681"
awk -v t="$t0" 'BEGIN {exit !(t - 1.44 < 1e-7 && t - 1.44 > -1e-7)}' ||
	fail "step 0 Temp $t0, expected 1.44"
ok "thermo header and lines at steps 0, 10, 20 (step 0 E_pair $e0)"
has out '^Loop time of [0-9.eE+-]+ s for 20 steps with 500 atoms' "Loop time line"
has out "^Performance: $num tau/day, $num timesteps/s, $num Matom-step/s" "Performance line"
ok "Loop time and Performance (tau/day, timesteps/s, Matom-step/s)"
has out '^Neighbor list builds = [0-9]+' "neighbour builds"
has out '^Average neighbors per atom = [0-9.]+' "average neighbours"
# fcc at 0.8442 has 78 neighbours within rc + skin = 2.8; a liquid
# 4/3 pi 2.8^3 0.8442 = 77.6; anything far from that is wrong
avg=$(awk -F'= ' '/^Average neighbors per atom/ {print $2+0}' "$tmp/out")
awk -v a="$avg" 'BEGIN {exit !(a > 70 && a < 85)}' || fail "average neighbours $avg, expected ~78"
has out '^Pair +\|' "timing breakdown"
has out '^Dangerous builds = 0$' "no dangerous builds with check = true"
grep -q 'warning' "$tmp/err" && fail "a warning with check = true"
ok "neighbour statistics (average $avg per atom, 0 dangerous builds) and timing breakdown"
has out 'Backend: cpu' "--backend cpu"
ok "--backend cpu runs on the CPU backend"

# check = false, a rebuild every 40 steps (0.2 tau): the fast particles
# move more than skin/2 = 0.15 in between, so the builds are dangerous and
# the summary and a warning on stderr say so
run "$tmp/small.ini" --backend cpu --set run.steps=80 --set neighbor.check=false --set neighbor.every=40
expect_rc 0 "check = false, every 40"
has out '^Neighbor list builds = 2$' "two fixed-interval builds"
has out '^Dangerous builds = 2$' "dangerous builds counted"
has err 'warning: 2 of 2 neighbour list builds came after a particle had moved more than skin/2' "dangerous-build warning"
ok "check = false, every 40: dangerous builds counted and warned about"

# --set overrides the file: steps and thermo interval come from the options
run "$tmp/small.ini" --set run.steps=6 --set run.thermo_every=3 --backend cpu
expect_rc 0 "--set run"
steps=$(awk '/^ *Step +Temp/ {h = 1; next} h && NF == 6 && $1 ~ /^[0-9]+$/ {print $1} NF != 6 {h = 0}' "$tmp/out" | tr '\n' ' ')
[ "$steps" = "0 3 6 " ] || fail "--set run: thermo steps '$steps', expected '0 3 6 '"
has out 'for 6 steps with 500 atoms' "--set run.steps"
ok "--set overrides run.steps and run.thermo_every from the file"

# --- SIGTERM: clean stop, summary, exit 128 + 15 ---------------------------
"$MDSIM" "$tmp/small.ini" --steps 100000000 --set run.thermo_every=0 --backend cpu \
	>"$tmp/out" 2>"$tmp/err" &
bg=$!
for _ in $(seq 1 100); do	# wait (at most 10 s) until the run is going
	grep -qE '^ *0 ' "$tmp/out" 2>/dev/null && break
	sleep 0.1
done
grep -qE '^ *0 ' "$tmp/out" || fail "SIGTERM: the run did not start within 10 s"
sleep 0.5
kill -TERM "$bg"
for _ in $(seq 1 100); do	# a clean stop must come within 10 s
	kill -0 "$bg" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$bg" 2>/dev/null; then
	fail "SIGTERM: still running 10 s after the signal"
fi
wait "$bg"
rc=$?
bg=""
expect_rc 143 "SIGTERM"
has out '^Loop time of .* for [0-9]+ steps with 500 atoms' "SIGTERM summary"
has out '^Performance:' "SIGTERM summary"
has err 'SIGTERM' "SIGTERM message"
ok "SIGTERM stops cleanly: exit 143, summary printed ($(grep -oE 'for [0-9]+ steps' "$tmp/out"))"

# --- neighbor.autotune_skin ------------------------------------------------
# rc 3.75 in the 8.40 box: 2 (rc + skin) fits for skins up to 0.449, so
# 0.2, 0.3 and 0.4 are timed and 0.5 is not; and 0.4489, the largest skin
# with their cell grid (2 cells per edge); then skins around the fastest
# (+-0.05, +-0.025), none past 0.449. The choice is the fastest printed
# trial. The trials leave the start state alone (their backends copy it
# at set-up): the run's step-0 line equals a plain run's, and the whole
# run equals a run with the chosen skin set explicitly (CPU backend: bit
# for bit).
thermo_lines() { awk '/^ *Step +Temp/ {h = 1; next} h && NF == 6 {print} NF != 6 {h = 0}' "$1"; }
run "$tmp/small.ini" --set potential.cutoff=3.75 --set neighbor.autotune_skin=true --backend cpu
expect_rc 0 "autotune_skin"
for s in 0.2 0.3 0.4 0.4489; do has out "^autotune: skin $s: [0-9.]+ steps/s" "autotune_skin tries $s"; done
grep -q '^autotune: skin 0.5' "$tmp/out" && fail "autotune_skin timed skin 0.5, which does not fit the box"
sed -nE 's/^autotune: skin ([0-9.]+): ([0-9.]+) steps\/s$/\1 \2/p' "$tmp/out" >"$tmp/trials"
awk '$1 > 0.449 { bad = 1 } END { exit bad }' "$tmp/trials" || fail "autotune_skin timed a skin past 0.449: $(tr '\n' ' ' <"$tmp/trials")"
awk '$1 != 0.2 && $1 != 0.3 && $1 != 0.4 && $1 != 0.4489 { r = 1 } END { exit !r }' "$tmp/trials" ||
	fail "autotune_skin timed no skin around the fastest: $(tr '\n' ' ' <"$tmp/trials")"
chosen=$(sed -nE 's/^autotune: skin ([0-9.]+) chosen.*/\1/p' "$tmp/out")
fastest=$(sort -k2 -g -r "$tmp/trials" | head -n 1 | cut -d' ' -f1)
[ -n "$chosen" ] && [ "$chosen" = "$fastest" ] || fail "autotune_skin chose '$chosen', the fastest trial was '$fastest'"
thermo_lines "$tmp/out" >"$tmp/auto.thermo"
run "$tmp/small.ini" --set potential.cutoff=3.75 --set neighbor.skin="$chosen" --backend cpu
expect_rc 0 "explicit skin $chosen"
thermo_lines "$tmp/out" >"$tmp/explicit.thermo"
[ "$(wc -l <"$tmp/auto.thermo")" -eq 3 ] || fail "autotune_skin: expected 3 thermo lines"
cmp -s "$tmp/auto.thermo" "$tmp/explicit.thermo" ||
	fail "autotune_skin run differs from the run with skin $chosen: $(diff "$tmp/auto.thermo" "$tmp/explicit.thermo" | head -4)"
ok "neighbor.autotune_skin times the skins that fit ($(cut -d' ' -f1 "$tmp/trials" | tr '\n' ' '| sed 's/ $//')), chose the fastest, $chosen, and the run equals the run with skin $chosen"
run "$tmp/small.ini" --set neighbor.check=false --set neighbor.every=10 --set neighbor.autotune_skin=true --backend cpu
expect_rc 0 "autotune_skin with neighbor.check = false"
has out '^autotune: skin not tuned: neighbor.check = false' "autotune_skin with fixed-interval rebuilds"
grep -qE '^autotune: skin [0-9.]+:' "$tmp/out" && fail "autotune_skin timed skins although neighbor.check = false"
ok "neighbor.autotune_skin leaves the skin alone when neighbor.check = false"

echo "ok - all CLI checks passed"
