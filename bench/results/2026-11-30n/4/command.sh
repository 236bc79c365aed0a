# call 4. Binaries: mdsim_base = 76aed17; mdsim_stage = the new staging as committed in
# e7eb01b (with __launch_bounds__(128, 8)); mdsim_hit = the same plus the experimental
# list_hit_store (the hit kept as a predicate in PTX from the test to the ballot and the
# store, no bound on the store, rows padded past the last block; -DMD_HIT, not kept);
# gpu_backend_{stage,hit}: their test suites.
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
for v in hit stage; do mkdir -p $E/$v/tests; cp $E/gpu_backend_$v $E/$v/tests/gpu_backend; ln -sfn $PWD/build-gpu/gpu-libs $E/$v/gpu-libs; done
timeout 300 $E/hit/tests/gpu_backend > $OUT/gpu_test_hit.log 2>&1; echo "hit suite: $(tail -n1 $OUT/gpu_test_hit.log)"
CK_FORK=no CK_RUN_CASE=recovery timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 $E/hit/tests/gpu_backend > $OUT/san_recovery_hit.log 2>&1; echo "memcheck recovery rc=$? $(grep -E 'Checks|ERROR SUMMARY' $OUT/san_recovery_hit.log | tr '\n' ' ')"
B=(configs/bench_1m.ini --steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for v in base stage hit; do echo "1M $v: $($E/mdsim_$v "${B[@]}" 2>&1 | grep -E "Performance|builds =" | tr '\n' ' ')"; done; done | tee $OUT/1m.txt
N=(configs/bench_1m.ini --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off --steps 105 --set neighbor.every=1 --set neighbor.check=false)
for v in stage hit; do MDSIM_NO_COND_GRAPH=1 timeout 120 ncu --clock-control none --kernel-name regex:k_build_list --launch-skip 100 --launch-count 3 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active $E/mdsim_$v "${N[@]}" 2>&1 | grep -E "duration|inst_executed|issue_active" | sed "s/^/$v /"; done | tee $OUT/ncu_build.txt
P=(configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for v in base stage hit; do echo "32k $v: $($E/mdsim_$v "${P[@]}" 2>&1 | grep -E "Performance" | tr '\n' ' ')"; done; done | tee $OUT/32k.txt
G=(configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for v in base stage hit; do echo "8M $v: $($E/mdsim_$v "${G[@]}" 2>&1 | grep -E "Performance|builds =" | tr '\n' ' ')"; done | tee $OUT/8m.txt
A=(configs/lj.ini --backend cuda --strategy register --set backend.persistent=off --set neighbor.skin=0.5 --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off)
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $E/mdsim_hit "${A[@]}" --steps 500 > $OUT/san_mem.log 2>&1; echo "memcheck rc=$? $(tail -n1 $OUT/san_mem.log)"
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $E/mdsim_hit "${A[@]}" --steps 100 > $OUT/san_race.log 2>&1; echo "racecheck rc=$? $(tail -n1 $OUT/san_race.log)"
timeout 100 $E/stage/tests/gpu_backend > $OUT/gpu_test_stage.log 2>&1; echo "stage suite: $(tail -n1 $OUT/gpu_test_stage.log)"
