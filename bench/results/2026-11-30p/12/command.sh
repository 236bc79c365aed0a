# call 12: why the builds come (an experiment build counting the reasons: a particle past the cap, more than GPU_SUSP_MAX suspects, a pair found by k_refine), and GPU_SUSP_MAX 16384 / 65536
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|why|rror' | tr "\n" " ")"; }
{
for B in mdsim_why mdsim_s16 mdsim_s64; do
r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.4
r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5
r $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4
done
r mdsim_why configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 "${S[@]}" --set neighbor.skin=0.5
} 2>&1 | tee $OUT/speed.txt
