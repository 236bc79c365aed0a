# call 5: the register path without the valid flag per pair (variants v1 padded rows loaded in place, v3 select per entry, v0 per-entry select without padding: mdsim_qVD) with an L2 prefetch D windows ahead, against 5f0eb0f (mdsim_prev)
set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|rror|alt|NaN|nan' | tr "\n" " ")"; }
{
for k in 1 2; do for B in mdsim_prev mdsim_q12 mdsim_q11 mdsim_q32 mdsim_q02; do r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.4; done; done
for B in mdsim_prev mdsim_q12 mdsim_q11 mdsim_q32 mdsim_q02; do r $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4; done
} 2>&1 | tee $OUT/speed.txt
