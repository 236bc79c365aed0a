set -u
# session 26 call 8: the heavy refine's passes timed (r7: EXP_REFSTAT2)
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T="--strategy register --set run.thermo_every=0 --set run.progress=off --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
B=./build-exp/mdsim_r7
{
echo "== 1M"; $B configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E "refstat|refpass|refblock|timesteps/s"
echo "== 8M"; $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E "refstat|refpass|refblock|timesteps/s"
} | tee $OUT/summary.txt
