set -u
# session 26 call 10: the refine above 132 suspects with the whole block on a cell's particles (RS 32), NS suspects a thread at once: r11 (4), r12 (2), against r7 (256 threads a suspect, RS 8)
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T="--strategy register --set run.thermo_every=0 --set run.progress=off --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
for rep in 1 2; do for b in r7 r11 r12; do
 echo "== 1M $b"; ./build-exp/mdsim_$b configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E "refstat nk|refblock|timesteps/s|builds ="
done; done
for b in r7 r11 r12; do
 echo "== 8M $b"; ./build-exp/mdsim_$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E "refstat nk >|refblock|timesteps/s|builds ="
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | grep -v "Dangerous" | tee $OUT/summary.txt
