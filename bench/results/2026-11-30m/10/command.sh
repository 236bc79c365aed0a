set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
OUT=$OUT bash bench/gpu_check.sh build-exp test > $OUT/test.txt 2>&1; grep -E "refined|Checks" $OUT/test.txt
A=(configs/lj.ini --backend cuda --strategy register --set backend.persistent=off --set neighbor.skin=0.5 --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off --set run.thermo_every=0)
for tool in memcheck racecheck synccheck initcheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim "${A[@]}" --steps 1000 > $OUT/san_$tool.log 2>&1; echo "$tool refined 1000 steps rc=$? $(grep builds $OUT/san_$tool.log) $(tail -n1 $OUT/san_$tool.log)"
done | tee $OUT/sanitize_refined.txt
for v in 0 1; do MDSIM_NO_REFINE=$v ./build-exp/mdsim "${A[@]}" --steps 1000 2>&1 | grep builds | sed "s/^/MDSIM_NO_REFINE=$v: /"; done
O=(configs/bench_1m.ini --steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for k in 1 2; do ./build-exp/mdsim "${O[@]}" 2>&1 | grep -E "Performance|builds" | tr '\n' ' '; echo; done | tee $OUT/target_1m.txt
