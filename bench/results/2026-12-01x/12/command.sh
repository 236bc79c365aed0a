set -u
# session 26 call 9: the heavy refine with NS suspects a thread at once and J particles a slice at once: r7 (1, 2: as before), r8 (2, 4), r9 (1, 4), r10 (4, 4)
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T="--strategy register --set run.thermo_every=0 --set run.progress=off --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
for rep in 1 2; do for b in r7 r8 r9 r10; do
 echo "== 1M $b"; ./build-exp/mdsim_$b configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E "refstat nk >|refpass  [01]|refblock|timesteps/s|builds ="
done; done
for b in r7 r8 r10; do
 echo "== 8M $b"; ./build-exp/mdsim_$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E "refstat nk >|refpass  [01]|refblock|timesteps/s|builds ="
 echo "== 1M skin 0.35 $b"; ./build-exp/mdsim_$b configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=0.35 2>&1 | grep -E "refstat nk >|timesteps/s|builds ="
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
