#!/usr/bin/env bash
# cpu_vs_lammps.sh - mdsim's CPU backend against LAMMPS on the same machine,
# same system (LAMMPS bench/in.lj = configs/bench_lj.ini: 32,000 LJ atoms),
# same step count, same number of cores.
#
#   bench/cpu_vs_lammps.sh [STEPS] [REPEATS]      (default 1000 steps, 3 repeats)
#
# Runs, interleaved, REPEATS times each:
#   lmp -sf opt                         (1 MPI rank)
#   mpirun -np NCORES lmp -sf opt       (NCORES ranks; NCORES = nproc unless set)
#   mdsim --backend cpu, 1 OpenMP thread
#   mdsim --backend cpu, NCORES OpenMP threads
#   the same with OMP_PROC_BIND=close OMP_PLACES=cores (threads pinned to
#   cores, as Open MPI pins the LAMMPS ranks by default)
# and prints the best timesteps/s of each (other jobs on the machine only ever
# slow a run down, so the best run is the least disturbed one), every run,
# and the ratios mdsim / LAMMPS at 1 core and at NCORES cores (there against
# the better of the two LAMMPS variants). Run it on an otherwise idle
# machine: on 2 cores one busy process halves the multi-core figures of both
# programs (the load average is printed).
#
# Environment: MDSIM (binary, default build-cpu/mdsim, built with
# `make CUDA=0 BUILD=build-cpu` when missing), LMP (default lmp), NCORES.
# The LAMMPS input is bench/in.lj with its `run` line set to STEPS, or, when
# that file is missing, the same input written here.
set -euo pipefail
cd "$(dirname "$0")/.."

STEPS=${1:-1000}
REPS=${2:-3}
MDSIM=${MDSIM:-./build-cpu/mdsim}
LMP=${LMP:-lmp}
NCORES=${NCORES:-$(nproc)}

if [ ! -x "$MDSIM" ]; then
	echo "building $MDSIM ..." >&2
	make CUDA=0 BUILD=build-cpu -j"$(nproc)" >&2
	MDSIM=./build-cpu/mdsim
fi
command -v "$LMP" >/dev/null || { echo "cpu_vs_lammps.sh: $LMP not found (Debian: apt-get install lammps)" >&2; exit 1; }

work=$(mktemp -d /tmp/cpu_vs_lammps.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ -f bench/in.lj ]; then
	sed -E "s/^run[[:space:]].*/run		$STEPS/" bench/in.lj > "$work/in.lj"
	src=bench/in.lj
else
	cat > "$work/in.lj" <<EOF
units		lj
atom_style	atomic
lattice		fcc 0.8442
region		box block 0 20 0 20 0 20
create_box	1 box
create_atoms	1 box
mass		1 1.0
velocity	all create 1.44 87287 loop geom
pair_style	lj/cut 2.5
pair_coeff	1 1 1.0 1.0 2.5
neighbor	0.3 bin
neigh_modify	delay 0 every 20 check no
fix		1 all nve
thermo		50
run		$STEPS
EOF
	src="built-in copy of bench/in.lj"
fi

rate() { sed -n 's/.*tau\/day, \([0-9.]*\) timesteps\/s.*/\1/p' | tail -n 1; }

run_variant() {	# name -> one timesteps/s figure on stdout, log in $work
	local log="$work/$1.$2.log"
	case "$1" in
	lmp1) (cd "$work" && OMP_NUM_THREADS=1 "$LMP" -sf opt -in in.lj -log none) > "$log" 2>&1 ;;
	lmpN) (cd "$work" && OMP_NUM_THREADS=1 mpirun --allow-run-as-root -np "$NCORES" \
		"$LMP" -sf opt -in in.lj -log none) > "$log" 2>&1 ;;
	md1) OMP_NUM_THREADS=1 "$MDSIM" configs/bench_lj.ini --backend cpu --steps "$STEPS" \
		--set backend.threads=1 > "$log" 2>&1 ;;
	mdN) OMP_NUM_THREADS=$NCORES "$MDSIM" configs/bench_lj.ini --backend cpu --steps "$STEPS" \
		--set backend.threads="$NCORES" > "$log" 2>&1 ;;
	mdNb) OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=$NCORES "$MDSIM" \
		configs/bench_lj.ini --backend cpu --steps "$STEPS" \
		--set backend.threads="$NCORES" > "$log" 2>&1 ;;
	esac
	rate < "$log"
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
variants="lmp1 lmpN md1 mdN mdNb"
declare -A all best
for v in $variants; do all[$v]=""; best[$v]=0; done
for r in $(seq 1 "$REPS"); do
	for v in $variants; do
		x=$(run_variant "$v" "$r")
		[ -n "$x" ] || { echo "cpu_vs_lammps.sh: $v run $r failed; log:" >&2; tail -n 20 "$work/$v.$r.log" >&2; exit 1; }
		all[$v]="${all[$v]} $x"
		best[$v]=$(echo "$x ${best[$v]}" | awk '{print ($1 > $2) ? $1 : $2}')
	done
done

e0_md=$(awk '$1 == "0" && NF == 6 {print $3; exit}' "$work/md1.1.log")
e0_lmp=$(awk '$1 == "0" && NF >= 6 {print $3; exit}' "$work/lmp1.1.log")
builds_md=$(sed -n 's/^Neighbor list builds = //p' "$work/mdN.1.log")
builds_lmp=$(sed -n 's/^Neighbor list builds = //p' "$work/lmp1.1.log")
desc=$(sed -n 's/^Backend: //p' "$work/mdN.1.log")

echo "# cpu_vs_lammps: $STEPS steps, best of $REPS, $(date '+%F %T')"
echo "machine: $(lscpu | sed -n 's/^Model name:[[:space:]]*//p'), $(nproc) cores; NCORES=$NCORES; load average before / after: $load0 / $(cut -d' ' -f1-3 /proc/loadavg)"
echo "mdsim: $MDSIM ($desc), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "LAMMPS: $($LMP -h 2>/dev/null | sed -n 's/^Large-scale Atomic\/Molecular Massively Parallel Simulator - //p' | head -n 1), input: $src"
echo "step 0 E_pair: mdsim $e0_md, LAMMPS $e0_lmp; neighbour builds: mdsim $builds_md (check, skin/2), LAMMPS $builds_lmp (every 20)"
echo
printf '| %-40s | %12s | %-40s |\n' "variant" "best steps/s" "all runs (steps/s)"
printf '|%s|%s|%s|\n' "------------------------------------------" "-------------:" "------------------------------------------"
printf '| %-40s | %12s | %-40s |\n' "LAMMPS lmp -sf opt, 1 rank" "${best[lmp1]}" "${all[lmp1]# }"
printf '| %-40s | %12s | %-40s |\n' "LAMMPS mpirun -np $NCORES lmp -sf opt" "${best[lmpN]}" "${all[lmpN]# }"
printf '| %-40s | %12s | %-40s |\n' "mdsim cpu, 1 thread" "${best[md1]}" "${all[md1]# }"
printf '| %-40s | %12s | %-40s |\n' "mdsim cpu, $NCORES threads" "${best[mdN]}" "${all[mdN]# }"
printf '| %-40s | %12s | %-40s |\n' "mdsim cpu, $NCORES threads, pinned" "${best[mdNb]}" "${all[mdNb]# }"
echo
lbest=$(echo "${best[lmp1]} ${best[lmpN]}" | awk '{print ($1 > $2) ? $1 : $2}')
awk -v a="${best[md1]}" -v b="${best[lmp1]}" 'BEGIN {printf "ratio 1 core:  mdsim 1 thread / lmp -sf opt 1 rank = %.2f\n", a / b}'
awk -v a="${best[mdN]}" -v b="$lbest" -v n="$NCORES" 'BEGIN {printf "ratio %d cores: mdsim %d threads / best LAMMPS on %d cores = %.2f\n", n, n, n, a / b}'
awk -v a="${best[mdNb]}" -v b="$lbest" -v n="$NCORES" 'BEGIN {printf "ratio %d cores: mdsim %d threads pinned / best LAMMPS on %d cores = %.2f\n", n, n, n, a / b}'
