# call 4: an L2 prefetch of the index chunk D windows ahead in the register path (mdsim_pD; p0: none, the tree at 5f0eb0f rebuilt) against 5f0eb0f (mdsim_prev)
set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|rror|alt|NaN|nan' | tr "\n" " ")"; }
{
for k in 1 2; do for B in mdsim_prev mdsim_p0 mdsim_p2 mdsim_p3 mdsim_p4; do r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.4; done; done
for B in mdsim_prev mdsim_p0 mdsim_p2 mdsim_p3 mdsim_p4; do r $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4; done
} 2>&1 | tee $OUT/speed.txt
