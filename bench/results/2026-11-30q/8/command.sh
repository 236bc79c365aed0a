# call 8: timing only: the fused step without its xq write (compact positions on; k_refine converts x instead: mdsim_nx, -DMD_EXP_NO_XQ, unsafe with energy launches) against 5f0eb0f (mdsim_prev): the upper bound of a lazy xq
set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|rror|alt|NaN|nan' | tr "\n" " ")"; }
{
for k in 1 2; do for B in mdsim_prev mdsim_nx; do r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.4; done; done
for k in 1 2; do for B in mdsim_prev mdsim_nx; do r $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4; done; done
} 2>&1 | tee $OUT/speed.txt
