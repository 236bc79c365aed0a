# call 13: final runs at 0a3c610 (+ gpu_check.sh's new sanitize cases): make bench-scaling, target commands, GPU suite, sanitizers
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
OUT=$OUT bash bench/gpu_check.sh build-exp scaling > $OUT/scaling_stdout.txt 2>&1; cat $OUT/scaling.csv; tail -n 1 $OUT/scaling.log
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
{
for r in 1 2; do echo "1M: $($E/mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"; done
for sk in 0.4 0.5; do echo "8M skin $sk: $($E/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=$sk 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"; done
echo "32k: $($E/mdsim configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
echo "KA: $($E/mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
} 2>&1 | tee $OUT/targets.txt
timeout 200 $E/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc=$?"; grep -E "Checks|:F:|:E:" $OUT/gpu_test.log
OUT=$OUT SAN_STRATS="register persistent list4 persist4 compact persist4lb" bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; grep -E "rc=|in all" $OUT/sanitize.txt
