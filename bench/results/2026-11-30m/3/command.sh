set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
which nsys ncu
T=(configs/bench_1m.ini --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
./build-exp/mdsim "${T[@]}" --steps 3000 > $OUT/t1.log 2>&1; grep -E "Performance|builds|^[A-Z][a-z]+ +\|" $OUT/t1.log
./build-exp/mdsim "${T[@]}" --steps 1000 --set neighbor.every=100000 --set neighbor.check=false > $OUT/t2.log 2>&1; grep -E "Performance|builds|^[A-Z][a-z]+ +\|" $OUT/t2.log
MDSIM_NO_REFINE=1 ./build-exp/mdsim "${T[@]}" --steps 1000 --set neighbor.every=100000 --set neighbor.check=false > $OUT/t3.log 2>&1; grep -E "Performance|builds" $OUT/t3.log
A=(configs/lj.ini --backend cuda --strategy register --set backend.persistent=off --set neighbor.skin=0.5 --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off --set run.thermo_every=0)
for v in 0 1; do if [ $v = 1 ]; then export MDSIM_NO_REFINE=1; else unset MDSIM_NO_REFINE; fi; ./build-exp/mdsim "${A[@]}" --steps 2000 2>&1 | grep -E "builds" | sed "s/^/NO_REFINE=$v 2000 steps: /"; done; unset MDSIM_NO_REFINE
for tool in memcheck racecheck synccheck initcheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim "${A[@]}" --steps 2000 > $OUT/san2k_$tool.log 2>&1; echo "$tool 2000 steps rc=$? $(grep builds $OUT/san2k_$tool.log) $(tail -n1 $OUT/san2k_$tool.log)"
done; unset MDSIM_NO_REFINE
