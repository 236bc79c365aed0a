# call 9 (calls 7 and 8 were a reviewer helper's checks): the final code, the commit after
# 3e11cec (the scatter's mark, rebuild = 2); make bench-scaling = bash bench/gpu_check.sh BUILD scaling
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
OUT=$OUT timeout 200 bash bench/gpu_check.sh build-exp test > /dev/null 2>&1; echo "suite: $(tail -n 1 $OUT/gpu_test.log)"
B=(configs/bench_1m.ini --steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do echo "1M: $(timeout 60 $E/mdsim "${B[@]}" 2>&1 | grep -E "Performance|builds =" | tr '\n' ' ')"; done | tee $OUT/targets.txt
G=(configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
echo "8M: $(timeout 90 $E/mdsim "${G[@]}" 2>&1 | grep -E "Performance|builds =" | tr '\n' ' ')" | tee -a $OUT/targets.txt
P=(configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off)
echo "32k: $(timeout 60 $E/mdsim "${P[@]}" 2>&1 | grep -E "Performance" | tr '\n' ' ')" | tee -a $OUT/targets.txt
K=(configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off)
echo "KA256k: $(timeout 60 $E/mdsim "${K[@]}" 2>&1 | grep -E "Performance" | tr '\n' ' ')" | tee -a $OUT/targets.txt
OUT=$OUT timeout 220 bash bench/gpu_check.sh build-exp scaling > $OUT/scaling_stdout.txt 2>&1; echo "scaling rc=$?"; cat $OUT/scaling.csv
CK_FORK=no CK_RUN_CASE=recovery timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $E/tests/gpu_backend > $OUT/san_recovery.log 2>&1; echo "memcheck recovery rc=$? $(grep -E 'Checks|ERROR SUMMARY' $OUT/san_recovery.log | tr '\n' ' ')"
OUT=$OUT timeout 150 bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; grep -E "rc=|sanitize:" $OUT/sanitize.txt | grep -v "rc=0" ; tail -n1 $OUT/sanitize.txt; grep -c "rc=0" $OUT/sanitize.txt
