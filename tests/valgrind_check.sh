#!/usr/bin/env bash
# valgrind_check.sh - `make valgrind`: valgrind memcheck on short end-to-end
# runs of the CPU build ($MDSIM): without a trajectory, with a trajectory
# (every field), a restart from it (the forked restart reader), and a
# config error. Fails on any memcheck error and on definitely or
# indirectly lost memory; "still reachable" blocks are HDF5's and libgomp's
# globals (HDF5's exit-time clean-up is off on purpose: see h5md_quiet)
# and "possibly lost" ones are libgomp's thread stacks.
# Not in CI (about a minute); run it after touching memory management.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
MDSIM=${MDSIM:-./build/mdsim}
case "$MDSIM" in /*) ;; *) MDSIM="$ROOT/$MDSIM" ;; esac
command -v valgrind >/dev/null || { echo "SKIP: valgrind is not installed (apt-get install valgrind)"; exit 0; }
[ -x "$MDSIM" ] || { echo "not ok - $MDSIM is not an executable"; echo "0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdsim_vg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export OMP_NUM_THREADS=2

cat >vg.ini <<'INI'
[system]
density = 0.8442
cells = 4 4 4
temperature = 1.44
[run]
steps = 30
thermo_every = 10
progress = off
[backend]
device = cpu
threads = 2
[output]
every = 10
fields = position,velocity,image,force
INI

pass=0; fail=0
# vg NAME EXPECTED_EXIT ARGS...: memcheck one run
vg() {
	local name=$1 want=$2 rc
	shift 2
	valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		--log-file="$tmp/$name.vg" "$MDSIM" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	# every process (the forked restart reader too) must report 0 errors
	if [ $rc -eq "$want" ] && grep -q 'ERROR SUMMARY: 0 errors' "$tmp/$name.vg" &&
		! grep -qE 'ERROR SUMMARY: [1-9]' "$tmp/$name.vg"; then
		pass=$((pass + 1))
		echo "ok - $name: exit $rc, $(grep -c "ERROR SUMMARY: 0 errors" "$tmp/$name.vg") process(es), each 0 errors, $(grep -oE "definitely lost: [0-9,]+ bytes" "$tmp/$name.vg" | sort -u | tr "\n" " " || echo "no leaks")"
	else
		fail=$((fail + 1))
		echo "not ok - $name: exit $rc (expected $want)"
		grep -E 'Invalid|uninitialised|lost|ERROR SUMMARY|at 0x|by 0x' "$tmp/$name.vg" | head -n 30 | sed 's/^/    /'
		tail -n 5 "$tmp/$name.err" | sed 's/^/    stderr: /'
	fi
}

vg run_no_trajectory 0 vg.ini
vg run_trajectory 0 vg.ini --set output.trajectory=traj.h5md
vg restart 0 vg.ini --restart traj.h5md --set output.trajectory=traj2.h5md
vg bad_config 2 vg.ini --set run.dt=-1
vg blow_up 3 vg.ini --set run.dt=0.05 --set run.steps=2000 --set output.trajectory=blow.h5md
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
