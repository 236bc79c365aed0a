# call 3: five forms of the register path's index loads without the valid flag per pair (mdsim_v0: per-entry select as before, no padding; v1: padded rows, loads in place; v2: two alternating index arrays; v3: a select per entry by the window's predicate; v4: the next window's indices loaded first, copied at the end) against 5f0eb0f (mdsim_prev)
set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|rror|alt|NaN|nan' | tr "\n" " ")"; }
{
for k in 1 2; do for B in mdsim_prev mdsim_v0 mdsim_v1 mdsim_v2 mdsim_v3 mdsim_v4; do r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.4; done; done
for B in mdsim_prev mdsim_v0 mdsim_v1 mdsim_v2 mdsim_v3 mdsim_v4; do r $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4; done
for B in mdsim_prev mdsim_v0 mdsim_v3 mdsim_prev mdsim_v0 mdsim_v3; do r $B configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7; done
} 2>&1 | tee $OUT/speed.txt
