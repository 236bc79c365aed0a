set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
 echo "1M default $($B configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "8M default $($B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -1 $OUT/gpu_test.log; grep 'refined rebuild' $OUT/gpu_test.log
timeout 330 bash bench/scaling.sh $B $OUT/scal > $OUT/scaling_run.txt 2>&1; echo "scaling rc $?"; cat $OUT/scal/scaling.csv
