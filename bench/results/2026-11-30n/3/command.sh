# call 3. Binaries: mdsim_base = the staging of 76aed17 (built with -DMD_ROW_STAGE on the
# work tree: the row-per-warp staging, the shared-memory union already in), mdsim = the
# new staging with 2 candidates per thread and pass (-DMD_VLANE), mdsim_u1 = the same with
# 1 (-DMD_VLANE -DMD_STAGE_U=1, the form committed in e7eb01b); gpu_backend = mdsim's.
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
B=(configs/bench_1m.ini --steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for v in base new u1; do m=$E/mdsim_$v; [ $v = new ] && m=$E/mdsim; echo "1M $v: $($m "${B[@]}" 2>&1 | grep -E "Performance|builds =" | tr '\n' ' ')"; done; done | tee $OUT/1m.txt
N=(configs/bench_1m.ini --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off --steps 105 --set neighbor.every=1 --set neighbor.check=false)
for v in base new u1; do m=$E/mdsim_$v; [ $v = new ] && m=$E/mdsim; MDSIM_NO_COND_GRAPH=1 timeout 120 ncu --clock-control none --kernel-name regex:k_build_list --launch-skip 100 --launch-count 3 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active $m "${N[@]}" 2>&1 | grep -E "duration|inst_executed|issue_active" | sed "s/^/$v /"; done | tee $OUT/ncu_build.txt
P=(configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for v in base new; do m=$E/mdsim_$v; [ $v = new ] && m=$E/mdsim; echo "32k $v: $($m "${P[@]}" 2>&1 | grep -E "Performance" | tr '\n' ' ')"; done; done | tee $OUT/32k.txt
G=(configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for v in base new; do m=$E/mdsim_$v; [ $v = new ] && m=$E/mdsim; echo "8M $v: $($m "${G[@]}" 2>&1 | grep -E "Performance|builds =" | tr '\n' ' ')"; done | tee $OUT/8m.txt
OUT=$OUT bash bench/gpu_check.sh build-exp test > /dev/null 2>&1; tail -n 3 $OUT/gpu_test.log
A=(configs/lj.ini --backend cuda --strategy register --set backend.persistent=off --set neighbor.skin=0.5 --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off)
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $E/mdsim "${A[@]}" --steps 500 > $OUT/san_mem.log 2>&1; echo "memcheck rc=$? $(tail -n1 $OUT/san_mem.log)"
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $E/mdsim "${A[@]}" --steps 100 > $OUT/san_race.log 2>&1; echo "racecheck rc=$? $(tail -n1 $OUT/san_race.log)"
