# call 14: the persistent kernel without the compact positions' code (XC false; compact refused where it runs): small-size scaling, 32k, 1M, suite, sanitizers
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
bash bench/scaling.sh $E/mdsim $OUT 10 16 20 32 > $OUT/scaling_stdout.txt 2>&1; cat $OUT/scaling.csv
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
{
echo "32k: $($E/mdsim configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
echo "1M: $($E/mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
} 2>&1 | tee $OUT/targets.txt
timeout 200 $E/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc=$?"; grep -E "Checks|:F:|:E:|compact n|NVE register" $OUT/gpu_test.log
OUT=$OUT SAN_STRATS="register persistent persist4 compact persist4lb" bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; grep -E "rc=|in all" $OUT/sanitize.txt
