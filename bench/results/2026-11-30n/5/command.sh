# call 5. Binaries: mdsim_base = e7eb01b; mdsim = the copy back inside the list build
# (3e11cec); gpu_backend = mdsim's.
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
B=(configs/bench_1m.ini --steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for v in base copy; do m=$E/mdsim_$v; [ $v = copy ] && m=$E/mdsim; echo "1M $v: $($m "${B[@]}" 2>&1 | grep -E "Performance|builds =" | tr '\n' ' ')"; done; done | tee $OUT/1m.txt
for v in base copy; do m=$E/mdsim_$v; [ $v = copy ] && m=$E/mdsim; echo "1M prof $v: $(MDSIM_PROFILE_REBUILD=1 $m "${B[@]}" --steps 500 2>&1 | grep -iE "rebuild|bin|scan|sort|list" | tr '\n' ' ')"; done | tee $OUT/1m_prof.txt
P=(configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for v in base copy; do m=$E/mdsim_$v; [ $v = copy ] && m=$E/mdsim; echo "32k $v: $($m "${P[@]}" 2>&1 | grep -E "Performance" | tr '\n' ' ')"; done; done | tee $OUT/32k.txt
G=(configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for v in base copy; do m=$E/mdsim_$v; [ $v = copy ] && m=$E/mdsim; echo "8M $v: $($m "${G[@]}" 2>&1 | grep -E "Performance|builds =" | tr '\n' ' ')"; done | tee $OUT/8m.txt
OUT=$OUT bash bench/gpu_check.sh build-exp test > /dev/null 2>&1; tail -n 1 $OUT/gpu_test.log
CK_FORK=no CK_RUN_CASE=recovery timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 $E/tests/gpu_backend > $OUT/san_recovery.log 2>&1; echo "memcheck recovery rc=$? $(grep -E 'Checks|ERROR SUMMARY' $OUT/san_recovery.log | tr '\n' ' ')"
SAN_STRATS="register persistent list4 persist4" OUT=$OUT timeout 400 bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize.txt 2>&1; tail -n 20 $OUT/sanitize.txt
